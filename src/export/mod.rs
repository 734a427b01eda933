//! Exports of the chronicle: Markdown, self-contained printable HTML, JSON
//! (versioned, schema in `docs/chronicle.schema.json`) and PDF (through the
//! print module). Pure text building; writing the file is the caller's.
//! User text reaches each format only through that format's escaping writer
//! (comrak for Markdown, maud for HTML, serde_json for JSON).

mod html;
mod markdown;
mod season;

use std::borrow::Cow;

use serde::Serialize;

pub use html::{html, html_of};
pub use markdown::{markdown, markdown_of};
pub use season::{render_season, season_lines};

use crate::campaign::chronicle::{BattleStory, Chronicle};
use crate::print::{DocLine, PrintError};

/// The JSON export's version; bumped whenever its shape changes.
pub const JSON_VERSION: u32 = 2;

/// The formats, by the names the command line and the app give them
/// (`md`, `html`, `json`, `pdf`; `markdown` too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    #[value(name = "md", alias = "markdown")]
    Markdown,
    Html,
    Json,
    Pdf,
}

impl Format {
    /// The format a name stands for, in any case.
    pub fn parse(text: &str) -> Option<Self> {
        <Self as clap::ValueEnum>::from_str(text.trim(), true).ok()
    }

    /// The file extension of an export in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Markdown => "md",
            Self::Html => "html",
            Self::Json => "json",
            Self::Pdf => "pdf",
        }
    }

    /// What the app calls the format.
    pub fn label(self) -> &'static str {
        match self {
            Self::Markdown => "Markdown",
            Self::Html => "HTML",
            Self::Json => "JSON",
            Self::Pdf => "PDF",
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

/// The export as bytes in a format (a PDF on A4 pages).
pub fn render(export: &Export<'_>, format: Format) -> Result<Vec<u8>, ExportError> {
    render_on(export, format, crate::print::PageSize::A4)
}

/// The same, a PDF on pages of `page` size.
pub fn render_on(
    export: &Export<'_>,
    format: Format,
    page: crate::print::PageSize,
) -> Result<Vec<u8>, ExportError> {
    Ok(match format {
        Format::Markdown => markdown(export).into_bytes(),
        Format::Html => html(export).into_bytes(),
        Format::Json => json(export)?.into_bytes(),
        Format::Pdf => crate::print::document_pdf_on(&title(export), lines(export), page)?,
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

/// A line with its leading spaces and tabs as no-break spaces: Markdown
/// would read an indent as a code block or drop it, HTML would collapse it;
/// this keeps the indent as the writer of the note typed it.
fn keep_indent(line: &str) -> Cow<'_, str> {
    let is_indent = |c: char| c == ' ' || c == '\t';
    if !line.starts_with(is_indent) {
        return Cow::Borrowed(line);
    }
    let mut out: String = line
        .chars()
        .take_while(|&c| is_indent(c))
        .map(|c| {
            if c == '\t' {
                "\u{a0}".repeat(4)
            } else {
                "\u{a0}".into()
            }
        })
        .collect();
    out.push_str(line.trim_start_matches(is_indent));
    Cow::Owned(out)
}

fn title(export: &Export<'_>) -> String {
    if export.scope == "campaign" {
        format!("{} — chronicle", export.campaign)
    } else {
        format!("{} — {}", export.campaign, export.scope)
    }
}

pub fn json(export: &Export<'_>) -> Result<String, serde_json::Error> {
    pretty_json(&JsonExport {
        format: "rapsheet-chronicle",
        version: JSON_VERSION,
        campaign: export.campaign,
        scope: &export.scope,
        chronicle: export.chronicle,
    })
}

/// Pretty JSON as every JSON output writes it (the export, the command
/// line's `--json`): characters no output shows as themselves escaped.
pub fn pretty_json<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::new();
    let mut json = serde_json::Serializer::with_formatter(&mut out, ControlsEscaped::default());
    value.serialize(&mut json)?;
    // The formatter writes whole characters only.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Pretty JSON with every character no output shows as itself
/// ([`crate::text::shown_escaped`]: controls, bidirectional overrides and
/// marks, invisible format characters) written as `\uXXXX`: serde_json
/// escapes those below U+0020 itself but writes DEL, the C1 controls
/// (among them a one-character CSI) and U+202E as they are. Read back, the
/// JSON gives the text as stored.
#[derive(Default)]
struct ControlsEscaped(serde_json::ser::PrettyFormatter<'static>);

impl serde_json::ser::Formatter for ControlsEscaped {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        for c in fragment.chars() {
            if crate::text::shown_escaped(c) {
                write!(writer, "\\u{:04x}", u32::from(c))?;
            } else {
                let mut buf = [0; 4];
                writer.write_all(c.encode_utf8(&mut buf).as_bytes())?;
            }
        }
        Ok(())
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
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
                out.push(DocLine::BulletMore(format!(
                    "Next: {stage} ({})",
                    scenarios.join(", ")
                )));
            }
            if let Some(why) = &arc.next_why {
                out.push(DocLine::BulletMore(format!("Because {why}.")));
            }
        }
    }
    out.push(DocLine::Heading(c.record.plural_title()));
    if c.battles.is_empty() {
        out.push(DocLine::Text(format!("No {} yet.", c.record.noun)));
    }
    for b in &c.battles {
        battle_lines(b, c, &mut out);
    }
    if !c.actions.is_empty() {
        out.push(DocLine::Heading("Resource actions".into()));
        for a in &c.actions {
            out.push(DocLine::Bullet(format!(
                "After {} #{}: {}",
                c.record.noun, a.after_battle, a.text
            )));
        }
    }
    if !c.gang_rivalries.is_empty() || !c.rivalries.is_empty() {
        out.push(DocLine::Heading("Rivalries".into()));
        for (a, na, b, nb) in &c.gang_rivalries {
            out.push(DocLine::Bullet(format!(
                "{a} took down {nb_text}; {b} took down {na_text}",
                nb_text = theirs(*na, &c.words),
                na_text = theirs(*nb, &c.words)
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
                "Longest-standing bounty: {} ({}), since {} #{}",
                b.fighter, b.bounty, c.record.noun, b.since_battle
            )));
        }
    }
    out
}

/// `n` fighters of theirs, in the game's words ("2 flyers of theirs").
fn theirs(n: usize, words: &crate::rules::Words) -> String {
    format!("{} of theirs", words.count(n, crate::rules::Noun::Fighter))
}

fn battle_lines(b: &BattleStory, c: &Chronicle, out: &mut Vec<DocLine>) {
    let takedowns = c.takedowns_heading.as_str();
    let challenge = b.gangs.iter().any(|g| g.challenger);
    let gangs: Vec<String> = b
        .gangs
        .iter()
        .map(|g| {
            let mut t = g.gang.clone();
            if let Some(role) = &g.role {
                t.push_str(&format!(" ({role})"));
            }
            if g.challenger {
                t.push_str(" (challenger)");
            }
            if let (Some(place), false) = (g.place, challenge) {
                t.push_str(&format!(", placed {place}"));
            }
            if g.ran_for_it {
                t.push_str(&format!(
                    ", {}",
                    c.ran.as_deref().unwrap_or("left the game")
                ));
            }
            t
        })
        .collect();
    let stage = b
        .stage
        .as_ref()
        .map_or(String::new(), |s| format!(" — {s}"));
    let scenario = b
        .scenario
        .as_ref()
        .map_or(String::new(), |s| format!(": {s}"));
    let shape = b
        .shape
        .as_ref()
        .map_or(String::new(), |s| format!(" ({s})"));
    out.push(DocLine::Subheading(format!(
        "{} #{}{shape}{scenario}{stage}",
        b.record, b.battle
    )));
    let result = match &b.winner {
        Some(w) => format!("{} won", w),
        None if challenge => "a draw".into(),
        None => "no winner".into(),
    };
    out.push(DocLine::Text(format!("{} — {result}.", gangs.join(" vs "))));
    if let Some(stake) = &b.stake {
        out.push(DocLine::Text(format!(
            "At stake: {stake}.{}",
            b.holdings
                .iter()
                .map(|h| format!(" {h}."))
                .collect::<String>()
        )));
    }
    if !b.notes.is_empty() {
        out.push(DocLine::Text(b.notes.clone()));
    }
    for (label, items) in [
        (takedowns, &b.takedowns),
        ("Rewards", &b.rewards),
        ("Bounties", &b.bounties),
        ("Counters", &b.counters),
        ("Rolls", &b.rolls),
        (c.injuries_heading.as_str(), &b.injuries),
        ("Advancement", &b.advancements),
        ("Fates", &b.departures),
        ("Titles", &b.titles),
        ("Ticked", &b.ticked),
        ("Played with", &b.played_with),
    ] {
        if items.is_empty() {
            continue;
        }
        out.push(DocLine::Text(format!("{label}:")));
        for item in items {
            out.push(DocLine::Bullet(item.clone()));
        }
    }
    // The cycle it completed ends after it, told under its own end.
    if let Some((ended, rest)) = b.cycle_end.split_first() {
        out.push(DocLine::Text(format!("{ended}:")));
        for item in rest {
            out.push(DocLine::Bullet(item.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_controls_shows_escape_delete_and_c1_but_keeps_line_breaks_and_tabs() {
        assert_eq!(
            crate::text::visible("a\u{1b}[2J\tb\nc\u{7f}\u{9b}1m\u{0}"),
            "a\\u{1b}[2J\tb\nc\\u{7f}\\u{9b}1m\\u{0}"
        );
        assert!(matches!(
            crate::text::visible("plain — text"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_windows_line_end_is_one_line_break_and_a_lone_return_is_shown() {
        assert_eq!(crate::text::visible("a\r\nb\rc"), "a\nb\\u{d}c");
    }

    #[test]
    fn an_indent_is_kept_as_no_break_spaces() {
        assert_eq!(
            keep_indent("  \tx y"),
            "\u{a0}\u{a0}\u{a0}\u{a0}\u{a0}\u{a0}x y"
        );
        assert!(matches!(keep_indent("x  y"), Cow::Borrowed("x  y")));
    }
}
