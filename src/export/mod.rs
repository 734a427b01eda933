//! Exports of the chronicle: Markdown, self-contained printable HTML, JSON
//! (versioned, schema in `docs/chronicle.schema.json`) and PDF (through the
//! print module). Pure text building; writing the file is the caller's.

use serde::Serialize;

use crate::campaign::chronicle::{BattleStory, Chronicle};
use crate::print::{DocLine, PrintError};

/// The JSON export's version; bumped whenever its shape changes.
pub const JSON_VERSION: u32 = 1;

/// The formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Html,
    Json,
    Pdf,
}

impl Format {
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_lowercase().as_str() {
            "md" | "markdown" => Some(Self::Markdown),
            "html" => Some(Self::Html),
            "json" => Some(Self::Json),
            "pdf" => Some(Self::Pdf),
            _ => None,
        }
    }
}

/// The document: a title and what the chronicle covers.
pub struct Export<'a> {
    pub campaign: &'a str,
    /// `campaign`, or `arc 2`.
    pub scope: String,
    pub chronicle: &'a Chronicle,
}

#[derive(Serialize)]
struct JsonExport<'a> {
    format: &'static str,
    version: u32,
    campaign: &'a str,
    scope: &'a str,
    #[serde(flatten)]
    chronicle: &'a Chronicle,
}

/// The export as bytes in a format.
pub fn render(export: &Export<'_>, format: Format) -> Result<Vec<u8>, ExportError> {
    Ok(match format {
        Format::Markdown => markdown(export).into_bytes(),
        Format::Html => html(export).into_bytes(),
        Format::Json => json(export)?.into_bytes(),
        Format::Pdf => crate::print::document_pdf(&title(export), &lines(export))?,
    })
}

/// The characters the PDF of an export prints as a placeholder (no font
/// draws them), each with the section it is in.
pub fn pdf_warnings(export: &Export<'_>) -> Result<Vec<crate::print::MissingGlyph>, ExportError> {
    Ok(crate::print::document_warnings(
        &title(export),
        &lines(export),
    )?)
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Print(#[from] PrintError),
}

fn title(export: &Export<'_>) -> String {
    if export.scope == "campaign" {
        format!("{} — chronicle", export.campaign)
    } else {
        format!("{} — {}", export.campaign, export.scope)
    }
}

pub fn json(export: &Export<'_>) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(&JsonExport {
        format: "rapsheet-chronicle",
        version: JSON_VERSION,
        campaign: export.campaign,
        scope: &export.scope,
        chronicle: export.chronicle,
    })
}

/// The chronicle as lines: the one reading the Markdown, HTML and PDF
/// writers share.
pub fn lines(export: &Export<'_>) -> Vec<DocLine> {
    let c = export.chronicle;
    let mut out = Vec::new();
    if !c.arcs.is_empty() {
        out.push(DocLine::Heading("Arcs".into()));
        for arc in &c.arcs {
            let state = match (&arc.closed_by, arc.closed) {
                (Some(by), true) => format!("closed ({by})"),
                (None, true) => "closed".into(),
                _ => "open".into(),
            };
            let battles: Vec<String> = arc
                .battles
                .iter()
                .zip(&arc.stages)
                .map(|(b, s)| format!("#{b} {s}"))
                .collect();
            out.push(DocLine::Bullet(format!(
                "Arc {}: {} vs {} — {}; {}",
                arc.id,
                arc.gangs[0],
                arc.gangs[1],
                battles.join(" → "),
                state
            )));
            for (stage, scenarios) in &arc.next {
                out.push(DocLine::Text(format!(
                    "Next: {stage} ({})",
                    scenarios.join(", ")
                )));
            }
        }
    }
    out.push(DocLine::Heading("Battles".into()));
    if c.battles.is_empty() {
        out.push(DocLine::Text("No battle yet.".into()));
    }
    for b in &c.battles {
        battle_lines(b, &mut out);
    }
    if !c.actions.is_empty() {
        out.push(DocLine::Heading("Resource actions".into()));
        for a in &c.actions {
            out.push(DocLine::Bullet(format!(
                "After battle #{}: {}",
                a.after_battle, a.text
            )));
        }
    }
    if !c.gang_rivalries.is_empty() || !c.rivalries.is_empty() {
        out.push(DocLine::Heading("Rivalries".into()));
        for (a, na, b, nb) in &c.gang_rivalries {
            out.push(DocLine::Bullet(format!(
                "{a} took down {nb_text}; {b} took down {na_text}",
                nb_text = plural(*na, "fighter"),
                na_text = plural(*nb, "fighter")
            )));
        }
        for r in &c.rivalries {
            let by: Vec<String> = r
                .downed_by
                .iter()
                .map(|(f, n)| format!("{f} ×{n}"))
                .collect();
            let nemesis = r
                .nemesis
                .as_ref()
                .map_or(String::new(), |n| format!("; nemesis: {n}"));
            out.push(DocLine::Bullet(format!(
                "{} ({}) was taken down by {}{nemesis}",
                r.fighter,
                r.gang,
                by.join(", ")
            )));
        }
        if let Some(b) = &c.longest_bounty {
            out.push(DocLine::Bullet(format!(
                "Longest-standing bounty: {} ({}), since battle #{}",
                b.fighter, b.bounty, b.since_battle
            )));
        }
    }
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word} of theirs")
    } else {
        format!("{n} {word}s of theirs")
    }
}

fn battle_lines(b: &BattleStory, out: &mut Vec<DocLine>) {
    let gangs: Vec<String> = b
        .gangs
        .iter()
        .map(|g| {
            let mut t = g.gang.clone();
            if let Some(role) = &g.role {
                t.push_str(&format!(" ({role})"));
            }
            if g.ran_for_it {
                t.push_str(", Ran For It");
            }
            t
        })
        .collect();
    let stage = b
        .stage
        .as_ref()
        .map_or(String::new(), |s| format!(" — {s}"));
    out.push(DocLine::Subheading(format!(
        "Battle #{}: {}{stage}",
        b.battle, b.scenario
    )));
    let result = match &b.winner {
        Some(w) => format!("{} won", w),
        None => "no winner: both gangs Ran For It".into(),
    };
    out.push(DocLine::Text(format!("{} — {result}.", gangs.join(" vs "))));
    if !b.notes.is_empty() {
        out.push(DocLine::Text(b.notes.clone()));
    }
    for (label, items) in [
        ("Taken down", &b.takedowns),
        ("Rewards", &b.rewards),
        ("Bounties", &b.bounties),
        ("Rolls", &b.rolls),
        ("Injuries", &b.injuries),
        ("Advancement", &b.advancements),
        ("Fates", &b.departures),
        ("Titles", &b.titles),
    ] {
        if items.is_empty() {
            continue;
        }
        out.push(DocLine::Text(format!("{label}:")));
        for item in items {
            out.push(DocLine::Bullet(item.clone()));
        }
    }
}

pub fn markdown(export: &Export<'_>) -> String {
    let mut out = format!("# {}\n", md_escape(&title(export)));
    let mut in_list = false;
    for line in lines(export) {
        let is_bullet = matches!(line, DocLine::Bullet(_));
        if in_list && !is_bullet {
            // A list ends with a blank line, or what follows joins its last item.
            out.push('\n');
        }
        in_list = is_bullet;
        match line {
            DocLine::Heading(t) => out.push_str(&format!("\n## {t}\n\n")),
            DocLine::Subheading(t) => out.push_str(&format!("### {t}\n\n")),
            DocLine::Text(t) => out.push_str(&format!("{}\n\n", md_escape(&t))),
            DocLine::Bullet(t) => out.push_str(&format!("- {}\n", md_escape(&t))),
        }
    }
    while out.contains("\n\n\n") {
        out = out.replace("\n\n\n", "\n\n");
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Escapes what Markdown would read as markup.
fn md_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.chars().enumerate() {
        if matches!(c, '*' | '_' | '`' | '[' | ']' | '<' | '>' | '|') || (i == 0 && c == '#') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub fn html(export: &Export<'_>) -> String {
    let title = html_escape(&title(export));
    let mut body = String::new();
    let mut in_list = false;
    for line in lines(export) {
        let is_bullet = matches!(line, DocLine::Bullet(_));
        if in_list && !is_bullet {
            body.push_str("</ul>\n");
            in_list = false;
        }
        match line {
            DocLine::Heading(t) => body.push_str(&format!("<h2>{}</h2>\n", html_escape(&t))),
            DocLine::Subheading(t) => body.push_str(&format!("<h3>{}</h3>\n", html_escape(&t))),
            DocLine::Text(t) => body.push_str(&format!("<p>{}</p>\n", html_escape(&t))),
            DocLine::Bullet(t) => {
                if !in_list {
                    body.push_str("<ul>\n");
                    in_list = true;
                }
                body.push_str(&format!("<li>{}</li>\n", html_escape(&t)));
            }
        }
    }
    if in_list {
        body.push_str("</ul>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>\n\
         body {{ font-family: \"DejaVu Sans\", sans-serif; max-width: 46em; margin: 2em auto; color: #111; line-height: 1.4; }}\n\
         h1 {{ border-bottom: 2px solid #111; }} h2 {{ margin-top: 1.6em; }} h3 {{ margin-bottom: 0.2em; }}\n\
         li {{ margin: 0.1em 0; }}\n\
         @media print {{ body {{ margin: 0; max-width: none; }} h3 {{ break-after: avoid; }} }}\n\
         </style>\n</head>\n<body>\n<h1>{title}</h1>\n{body}</body>\n</html>\n"
    )
}
