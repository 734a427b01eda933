//! Hostile text — markup, escape sequences, line breaks — in names, notes
//! and reasons, through every face that shows it: the Markdown export as a
//! CommonMark parser reads it (pulldown-cmark always, the cmark program
//! too when it is installed), the HTML export, and the command line's
//! output on a terminal. What a reader sees must be the text as typed,
//! never markup, a heading, a list or a terminal command made of it.

use crate::util;

use std::path::PathBuf;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use rapsheet::campaign::battle::BattleReport;
use rapsheet::export::{Export, Format, lines, render};
use rapsheet::print::DocLine;
use rapsheet::session::Session;
use serde_json::json;
use util::{rapsheet, stderr, stdout};

/// A gang name made of Markdown and HTML (no control character: names
/// refuse those at input).
const GANG: &str = "# *Saints* <script>alert(1)</script> a\\<img src=x onerror=alert(1)>";
const FIGHTER: &str = "[Brick](javascript:alert(1))";
const JACKALS: &str = "Neon Jackals";
const CAMPAIGN: &str = "Undercity <b>\\</b>";

/// A battle note that tries every block and inline construct, one per line.
const NOTES: &str = "a\\<img src=x onerror=alert(1)>\n\
===\n\
# heading\n\
- item\n\
```\n\
fenced\n\
```\n\
<script>alert(1)</script>\n\
[link](javascript:x)\n\
*bold* _em_ `code` ~~gone~~\n\
> quoted\n\
1. first\n    \
indented code\n\
---\n\
\u{1b}[2J cleared\n\
last line\\";

/// The note as a reader must see it: each line, indents kept, the escape
/// character shown.
fn notes_as_read() -> String {
    NOTES
        .replace("\n    indented", "\n\u{a0}\u{a0}\u{a0}\u{a0}indented")
        .replace('\u{1b}', "\\u{1b}")
}

struct Campaign {
    _guard: tempfile::TempDir,
    dir: PathBuf,
    session: Session,
}

/// The demo campaign on plain Heartbreaker with the Saints renamed to
/// [`GANG`], Brick to [`FIGHTER`], and one battle noted with [`NOTES`].
fn hostile() -> Campaign {
    let guard = util::temp();
    let dir = guard.path().to_path_buf();
    let mut s = Session::create_demo(&dir.join("c.rapsheet")).expect("demo");
    s.set_campaign_ruleset("heartbreaker").expect("ruleset");
    let saints = s.gang_named("The Rust Saints").expect("saints").id;
    s.rename_gang(saints, GANG).expect("rename gang");
    let brick = s.fighter_named("Brick", None).expect("brick").id;
    s.rename_fighter(brick, FIGHTER).expect("rename fighter");
    let report: BattleReport = serde_json::from_value(json!({
        "scenario": "Dead Drop",
        "gangs": [
            {"gang": GANG, "counts": {"caches": 3}, "fighters": [
                {"fighter": FIGHTER, "outcome": "taken_down", "downed_by": "Vex Ninefingers"},
            ]},
            {"gang": JACKALS, "counts": {"caches": 1}, "fighters": [
                {"fighter": "Hush", "outcome": "taken_down", "downed_by": FIGHTER},
            ]},
        ],
        "winner": GANG,
        "bounties": [{"by": JACKALS, "fighter": FIGHTER}],
        "titles": [{"gang": GANG, "title": "Legend"}],
        "notes": NOTES,
    }))
    .expect("report");
    let mut report = report;
    util::declare_nothing(&mut report);
    let preview = s.preview_battle(&report, 3).expect("preview");
    assert!(preview.needed.is_empty(), "{:#?}", preview.needed);
    s.record_battle(&report, 3).expect("record");
    Campaign {
        _guard: guard,
        dir,
        session: s,
    }
}

fn export_text(c: &Campaign, format: Format) -> String {
    let chronicle = c.session.chronicle().expect("chronicle");
    let export = Export {
        campaign: CAMPAIGN,
        scope: "campaign".into(),
        chronicle: &chronicle,
    };
    String::from_utf8(render(&export, format).expect("render")).expect("utf-8")
}

fn doc_lines(c: &Campaign) -> Vec<DocLine> {
    let chronicle = c.session.chronicle().expect("chronicle");
    lines(&Export {
        campaign: CAMPAIGN,
        scope: "campaign".into(),
        chronicle: &chronicle,
    })
}

/// What a CommonMark reader makes of the Markdown: each block with its
/// text as shown (a hard break as `\n`), and every construct it found.
#[derive(Debug, Default)]
struct Read {
    headings: Vec<String>,
    paragraphs: Vec<String>,
    items: Vec<String>,
    /// Constructs no chronicle text may make: HTML, links, emphasis…
    markup: Vec<String>,
}

fn read_markdown(md: &str) -> Read {
    let mut read = Read::default();
    let mut text = String::new();
    let mut in_item = false;
    for event in Parser::new(md) {
        match event {
            Event::Text(t) => text.push_str(&t),
            Event::HardBreak => text.push('\n'),
            Event::SoftBreak => read.markup.push("soft break (a line joined)".into()),
            Event::Start(Tag::Item) => in_item = true,
            Event::End(TagEnd::Item) => {
                // A tight list's item holds its text with no paragraph.
                if !text.is_empty() {
                    read.items.push(std::mem::take(&mut text));
                }
                in_item = false;
            }
            Event::Start(Tag::Heading { .. } | Tag::Paragraph | Tag::List(None)) => {}
            Event::End(TagEnd::Heading(_)) => read.headings.push(std::mem::take(&mut text)),
            Event::End(TagEnd::Paragraph) => {
                let t = std::mem::take(&mut text);
                if in_item {
                    read.items.push(t);
                } else {
                    read.paragraphs.push(t);
                }
            }
            Event::End(TagEnd::List(false)) => {}
            other => read.markup.push(format!("{other:?}")),
        }
    }
    read
}

/// Each line of the chronicle, as the Markdown must read: the title, then
/// its headings, paragraphs and list items, text as written.
fn expected(lines: &[DocLine]) -> Read {
    let mut want = Read {
        headings: vec![format!("{CAMPAIGN} — chronicle")],
        ..Read::default()
    };
    for line in lines {
        match line {
            DocLine::Heading(t) | DocLine::Subheading(t) => want.headings.push(t.clone()),
            DocLine::Text(t) => want.paragraphs.push(t.clone()),
            DocLine::Bullet(t) => want.items.push(t.clone()),
            // A line of its own in the item above.
            DocLine::BulletMore(t) => match want.items.last_mut() {
                Some(item) => {
                    item.push('\n');
                    item.push_str(t);
                }
                None => want.paragraphs.push(t.clone()),
            },
        }
    }
    want
}

#[test]
fn markdown_hostile_names_and_notes_read_back_as_the_text_itself() {
    let c = hostile();
    let md = export_text(&c, Format::Markdown);
    let read = read_markdown(&md);
    assert!(
        read.markup.is_empty(),
        "markup from user text: {:?}\n{md}",
        read.markup
    );
    let want = expected(&doc_lines(&c));
    assert_eq!(read.headings, want.headings, "{md}");
    assert_eq!(read.items, want.items, "{md}");
    let notes = notes_as_read();
    let want_paragraphs: Vec<String> = want
        .paragraphs
        .iter()
        .map(|p| if p == NOTES { notes.clone() } else { p.clone() })
        .collect();
    assert_eq!(read.paragraphs, want_paragraphs, "{md}");
    assert!(
        read.paragraphs.contains(&notes),
        "the note is one paragraph, line for line: {md}"
    );
}

#[test]
fn markdown_backslash_does_not_make_live_html() {
    let c = hostile();
    let md = export_text(&c, Format::Markdown);
    let html_events: Vec<String> = Parser::new(&md)
        .filter(|e| matches!(e, Event::Html(_) | Event::InlineHtml(_)))
        .map(|e| format!("{e:?}"))
        .collect();
    assert!(html_events.is_empty(), "{html_events:?}\n{md}");
    assert!(!md.contains("a\\<img"), "{md}");
    assert!(md.contains("a\\\\\\<img"), "{md}");
}

#[test]
fn markdown_note_line_of_equals_is_not_a_heading() {
    let c = hostile();
    let md = export_text(&c, Format::Markdown);
    let read = read_markdown(&md);
    for heading in &read.headings {
        assert!(
            !heading.contains("onerror"),
            "a setext heading: {heading:?}"
        );
        assert!(!heading.contains("heading"), "an ATX heading: {heading:?}");
    }
    // No line of the file is a bare setext underline or thematic break.
    for line in md.lines() {
        assert!(
            !matches!(line.trim(), "===" | "---" | "```"),
            "{line:?} in\n{md}"
        );
    }
}

#[test]
fn markdown_renders_to_html_with_no_live_tag_in_cmark() {
    let c = hostile();
    let md = export_text(&c, Format::Markdown);
    let path = c.dir.join("c.md");
    std::fs::write(&path, &md).expect("write");
    let Ok(out) = std::process::Command::new("cmark").arg(&path).output() else {
        eprintln!("cmark is not installed (apt-get install cmark): only pulldown-cmark checked");
        return;
    };
    assert!(out.status.success(), "{}", stderr(&out));
    let html = stdout(&out);
    for live in [
        "<script",
        "<img",
        "<b>",
        "<a ",
        "<em>",
        "<strong>",
        "<code>",
        "<pre>",
        "<blockquote>",
        "<ol>",
        "<hr",
        "<del>",
    ] {
        assert!(!html.contains(live), "{live} in\n{html}");
    }
    // The title, the two sections and the battle: nothing else is a heading.
    let headings: Vec<&str> = html.lines().filter(|l| l.starts_with("<h")).collect();
    assert_eq!(headings.len(), 1 + 3 + 1, "{headings:#?}");
    assert!(html.contains("a\\&lt;img src=x onerror=alert(1)&gt;<br />\n===<br />"));
    assert!(html.contains("\\u{1b}[2J cleared"), "{html}");
    assert!(!html.contains('\u{1b}'), "{html}");
}

#[test]
fn html_export_escapes_a_script_name() {
    let c = hostile();
    let html = export_text(&c, Format::Html);
    assert!(
        html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"),
        "{html}"
    );
    for live in ["<script", "<img", "<b>", "javascript:x\"", "<a "] {
        assert!(!html.contains(live), "{live} in\n{html}");
    }
    assert!(
        html.contains("# *Saints* &lt;script&gt;alert(1)&lt;/script&gt; a\\&lt;img"),
        "{html}"
    );
    assert!(
        html.contains("<title>Undercity &lt;b&gt;\\&lt;/b&gt; — chronicle</title>"),
        "{html}"
    );
    assert!(html.contains("<style>"), "{html}");
}

#[test]
fn html_note_lines_are_line_breaks_and_controls_are_shown() {
    let c = hostile();
    let html = export_text(&c, Format::Html);
    assert!(
        html.contains("<p>a\\&lt;img src=x onerror=alert(1)&gt;<br>===<br># heading<br>- item<br>"),
        "{html}"
    );
    assert!(
        html.contains("<br>\\u{1b}[2J cleared<br>last line\\</p>"),
        "{html}"
    );
    // The indent of a line survives HTML's collapsing of spaces.
    assert!(
        html.contains("<br>\u{a0}\u{a0}\u{a0}\u{a0}indented code<br>"),
        "{html}"
    );
    assert!(!html.contains('\u{1b}'), "{html}");
}

/// The hostile campaign closed, for the command line to open.
fn closed() -> (tempfile::TempDir, PathBuf) {
    let Campaign {
        _guard,
        dir,
        session,
        ..
    } = hostile();
    drop(session);
    (_guard, dir)
}

fn cli(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut all = args.to_vec();
    all.extend(["--db", "c.rapsheet"]);
    rapsheet(dir, &all)
}

#[test]
fn terminal_output_escapes_esc_in_a_reason() {
    let (_guard, dir) = closed();
    // A lone carriage return is the line break it stands for, and a
    // reason is one line: refused, as what it is.
    let reason = "paid off\u{1b}]0;owned\u{7}\u{1b}[2J\rforged\u{9b}31m";
    let out = cli(
        &dir,
        &[
            "resource", "supply", "1", "--gang", JACKALS, "--reason", reason,
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the reason is one line"),
        "{}",
        stderr(&out)
    );
    let reason = "paid off\u{1b}]0;owned\u{7}\u{1b}[2J forged\u{9b}31m";
    let out = cli(
        &dir,
        &[
            "resource", "supply", "1", "--gang", JACKALS, "--reason", reason,
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = cli(&dir, &["log"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stdout(&out);
    for raw in ['\u{1b}', '\u{7}', '\r', '\u{9b}'] {
        assert!(!log.contains(raw), "{raw:?} reaches the terminal: {log:?}");
    }
    assert!(
        log.contains("paid off\\u{1b}]0;owned\\u{7}\\u{1b}[2J forged\\u{9b}31m"),
        "{log}"
    );
}

#[test]
fn terminal_json_escapes_c1_and_delete() {
    let (_guard, dir) = closed();
    let reason = "a\u{1b}b\u{7f}c\u{9b}d";
    let out = cli(
        &dir,
        &[
            "resource", "supply", "1", "--gang", JACKALS, "--reason", reason,
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = cli(&dir, &["log", "--json"]);
    let text = stdout(&out);
    for raw in ['\u{1b}', '\u{7f}', '\u{9b}'] {
        assert!(
            !text.contains(raw),
            "{raw:?} reaches the terminal: {text:?}"
        );
    }
    for escaped in [r"\u001b", r"\u007f", r"\u009b"] {
        assert!(text.contains(escaped), "{escaped} missing: {text}");
    }
    // Still JSON, and the reason reads back whole.
    let value: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert!(strings(&value).iter().any(|s| s.contains(reason)), "{text}");
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::String(s) => vec![s.clone()],
        serde_json::Value::Array(items) => items.iter().flat_map(strings).collect(),
        serde_json::Value::Object(map) => map.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn terminal_output_shows_hostile_names_as_typed() {
    let (_guard, dir) = closed();
    let out = cli(&dir, &["gang", "show", GANG]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with(GANG), "{}", stdout(&out));
    let out = cli(&dir, &["battle", "list"]);
    assert!(stdout(&out).contains(GANG), "{}", stdout(&out));
}

#[test]
fn terminal_error_escapes_what_was_typed() {
    let (_guard, dir) = closed();
    let out = cli(&dir, &["gang", "show", "\u{1b}[2Jnobody"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(err.contains("\\u{1b}[2Jnobody"), "{err}");
}

// ---------------------------------------------------------------------------
// A right-to-left override and its kin are shown, never obeyed, the same
// way in every output: as the Markdown export shows them.
// ---------------------------------------------------------------------------

/// A note that would read backwards from the override on, were it obeyed.
const REVERSED: &str = "Ambush \u{202e}evil\u{202c} at the \u{200f}docks";

/// How the Markdown export shows [`REVERSED`].
const REVERSED_SHOWN: &str = "Ambush \\u{202e}evil\\u{202c} at the \\u{200f}docks";

/// The hidden characters the PDFs and the JSON must not carry raw.
const HIDDEN: [char; 3] = ['\u{202e}', '\u{202c}', '\u{200f}'];

/// The demo campaign with one battle noted with [`REVERSED`], closed.
fn reversed_campaign() -> (tempfile::TempDir, PathBuf) {
    let guard = util::temp();
    let dir = guard.path().to_path_buf();
    let mut s = Session::create_demo(&dir.join("c.rapsheet")).expect("demo");
    s.set_campaign_ruleset("heartbreaker").expect("ruleset");
    let report: BattleReport = serde_json::from_value(json!({
        "scenario": "Dead Drop",
        "gangs": [{"gang": "The Rust Saints"}, {"gang": JACKALS}],
        "winner": JACKALS,
        "notes": REVERSED,
    }))
    .expect("report");
    let mut report = report;
    util::declare_nothing(&mut report);
    s.record_battle(&report, 3).expect("record");
    drop(s);
    (guard, dir)
}

/// The text of a PDF as `pdftotext` reads it; `None` (with a note) where
/// poppler is not installed.
fn pdf_text(pdf: &std::path::Path) -> Option<String> {
    match std::process::Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(pdf)
        .arg("-")
        .output()
    {
        Ok(out) => {
            assert!(out.status.success(), "{}", stderr(&out));
            Some(String::from_utf8(out.stdout).expect("utf-8"))
        }
        Err(_) => {
            eprintln!("pdftotext is not installed (poppler-utils): the PDF's text not checked");
            None
        }
    }
}

#[test]
fn markdown_shows_a_right_to_left_override_as_its_code_point() {
    let (_guard, dir) = reversed_campaign();
    let out = cli(
        &dir,
        &["export", "campaign", "--format", "md", "-o", "c.md"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let md = std::fs::read_to_string(dir.join("c.md")).expect("md");
    let read = read_markdown(&md);
    assert!(read.paragraphs.iter().any(|p| p == REVERSED_SHOWN), "{md}");
    assert!(!md.contains(HIDDEN), "{md}");
}

#[test]
fn chronicle_pdf_shows_a_right_to_left_override_as_markdown_does() {
    let (_guard, dir) = reversed_campaign();
    let out = cli(
        &dir,
        &["export", "campaign", "--format", "pdf", "-o", "c.pdf"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // Shown, so no character is missing from the fonts.
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    if let Some(text) = pdf_text(&dir.join("c.pdf")) {
        assert!(text.contains(REVERSED_SHOWN), "{text}");
        assert!(!text.contains(HIDDEN), "{text:?}");
    }
}

#[test]
fn cards_show_a_right_to_left_override_in_a_name_as_markdown_does() {
    // A name from a file written before names refused it (or by hand).
    let card = rapsheet::print::CardData {
        name: "Brick \u{202e}kcirb".into(),
        gang: "The \u{2066}Rust\u{2069} Saints".into(),
        quirks: vec![REVERSED.into()],
        ..rapsheet::print::CardData::default()
    };
    let warnings = rapsheet::print::card_warnings(std::slice::from_ref(&card)).expect("warnings");
    assert!(warnings.is_empty(), "{warnings:?}");
    let pdf = rapsheet::print::cards_pdf(
        &[card],
        0,
        rapsheet::print::PageSize::A4,
        rapsheet::print::CardStyle::default(),
    )
    .expect("cards");
    let guard = util::temp();
    let path = guard.path().join("cards.pdf");
    std::fs::write(&path, pdf).expect("write");
    if let Some(text) = pdf_text(&path) {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("Brick \\u{202e}kcirb"), "{text}");
        assert!(flat.contains("The \\u{2066}Rust\\u{2069} Saints"), "{text}");
        assert!(
            !text.contains(HIDDEN) && !text.contains('\u{2066}'),
            "{text:?}"
        );
    }
}

#[test]
fn json_output_escapes_a_right_to_left_override_and_reads_back_whole() {
    let (_guard, dir) = closed();
    let out = cli(
        &dir,
        &[
            "resource", "supply", "1", "--gang", JACKALS, "--reason", REVERSED,
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = cli(&dir, &["log", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains(HIDDEN), "reaches the terminal: {text:?}");
    assert!(
        text.contains(r"Ambush \u202eevil\u202c at the \u200fdocks"),
        "{text}"
    );
    let value: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert!(
        strings(&value).iter().any(|s| s.contains(REVERSED)),
        "{text}"
    );
    // The terminal's own lines show it as the Markdown export does.
    let out = cli(&dir, &["log"]);
    assert!(stdout(&out).contains(REVERSED_SHOWN), "{}", stdout(&out));
}
