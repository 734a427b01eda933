//! Text in any script prints: names the bundled fonts lack are drawn by a
//! system font or as a placeholder with a warning naming whose text it is,
//! right-to-left names are shaped and read back in logical order, and line
//! breaks and control characters never stop a PDF.
//!
//! Reads PDFs back with poppler's `pdftotext`; a test skips itself (with a
//! note) where poppler or a system font it needs is missing.

use crate::util;

use std::path::Path;
use std::process::Command;

use rapsheet::campaign::battle::BattleReport;
use rapsheet::campaign::commands::NewFighter;
use rapsheet::print::{
    CardData, CardStyle, DocLine, Fonts, MissingGlyph, PLACEHOLDER, PageSize, StatCell,
    card_warnings, cards_pdf, document_pdf, document_warnings,
};
use rapsheet::session::Session;
use util::{rapsheet, stderr, temp};

const DB: &str = "c.rapsheet";
const JACKALS: &str = "Neon Jackals";
const SAINTS: &str = "The Rust Saints";

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// The text of a PDF as `pdftotext` reads it, or `None` (with a note) where
/// poppler is not installed.
fn pdf_text(pdf: &Path, layout: bool) -> Option<String> {
    let mut args = vec!["-enc", "UTF-8"];
    if layout {
        args.push("-layout");
    }
    let pdf = pdf.to_str().expect("utf-8 path");
    args.extend([pdf, "-"]);
    match Command::new("pdftotext").args(&args).output() {
        Ok(out) => {
            assert!(out.status.success(), "pdftotext failed: {}", stderr(&out));
            // poppler brackets right-to-left text in embedding marks.
            let text = String::from_utf8(out.stdout).expect("utf-8");
            Some(
                text.chars()
                    .filter(|c| !matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'))
                    .collect(),
            )
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("note: pdftotext is not installed (poppler-utils); text not checked");
            None
        }
        Err(e) => panic!("cannot run pdftotext: {e}"),
    }
}

fn write_pdf(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    assert!(bytes.starts_with(b"%PDF"), "not a PDF");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write pdf");
    path
}

/// Runs the CLI, insists it succeeded, and returns its stderr.
fn run_ok(dir: &Path, args: &[&str]) -> String {
    let out = rapsheet(dir, args);
    assert!(
        out.status.success(),
        "rapsheet {args:?} failed: {}",
        stderr(&out)
    );
    stderr(&out)
}

/// The demo campaign in plain Heartbreaker (no injury rolls).
fn demo(dir: &Path) -> Session {
    let mut session = Session::create_demo(&dir.join(DB)).expect("demo");
    session
        .set_campaign_ruleset("heartbreaker")
        .expect("plain Heartbreaker");
    session
}

fn recruit(session: &mut Session, gang: &str, name: &str) {
    let gang = session.gang_named(gang).expect("gang").id;
    session
        .recruit(
            gang,
            NewFighter {
                name: name.to_owned(),
                ..NewFighter::default()
            },
        )
        .expect("recruit");
}

/// A quiet Dead Drop between the demo's gangs with these notes.
fn battle_with_notes(session: &mut Session, notes: &str) {
    let report: BattleReport = serde_json::from_value(serde_json::json!({
        "scenario": "Dead Drop",
        "gangs": [{"gang": SAINTS}, {"gang": JACKALS}],
        "winner": JACKALS,
        "notes": notes,
    }))
    .expect("report");
    let mut report = report;
    util::declare_nothing(&mut report);
    let preview = session.preview_battle(&report, 7).expect("preview");
    assert!(preview.needed.is_empty(), "{:#?}", preview.needed);
    session.record_battle(&report, 7).expect("record");
}

/// A character no font on this machine draws (an unassigned code point
/// where the fonts have none).
fn undrawable() -> char {
    ['\u{0378}', '\u{FDD0}', '\u{2FFFD}']
        .into_iter()
        .find(|&c| {
            !Fonts::for_texts([c.to_string().as_str()])
                .expect("fonts")
                .can_draw(c)
        })
        .expect("no font draws an unassigned code point")
}

/// True where some font of the chain (bundled or system) draws `c`.
fn drawable(c: char) -> bool {
    Fonts::for_texts([c.to_string().as_str()])
        .expect("fonts")
        .can_draw(c)
}

fn card(name: &str, gang: &str) -> CardData {
    CardData {
        name: name.to_owned(),
        gang: gang.to_owned(),
        leader: false,
        counters: vec![("Bounty".into(), "0".into())],
        stats: vec![StatCell {
            label: "Move".into(),
            value: "4\"".into(),
            base: None,
            bumps: None,
        }],
        quirks: vec!["Boot Knife: P2".into()],
        lasting: Vec::new(),
        photo: None,
        quirks_heading: "QUIRKS".into(),
        lasting_heading: "LASTING".into(),
        notes_heading: "NOTES".into(),
        marks_heading: "MARKS".into(),
        ..CardData::default()
    }
}

// ---------------------------------------------------------------------------
// Characters the bundled fonts lack
// ---------------------------------------------------------------------------

#[test]
fn a_character_no_font_draws_prints_as_a_placeholder_with_a_warning_naming_its_fighter() {
    let c = undrawable();
    let name = format!("Scribe {c}");
    let dir = temp();
    let mut session = demo(dir.path());
    recruit(&mut session, JACKALS, &name);
    let gang = session.gang_named(JACKALS).expect("gang").id;
    let cards = session.cards(gang, &[]).expect("cards");
    assert_eq!(
        card_warnings(&cards).expect("warnings"),
        vec![MissingGlyph {
            owner: format!("fighter “{name}” of gang “{JACKALS}”"),
            characters: vec![c.to_string()],
        }]
    );
    cards_pdf(&cards, 0, PageSize::A4, CardStyle::default()).expect("the cards print");
    drop(session);

    let code = format!("U+{:04X}", c as u32);
    for (args, file) in [
        (&["cards", "--db", DB, "-o", "all.pdf"][..], "all.pdf"),
        (
            &["cards", "--db", DB, "--gang", JACKALS, "-o", "gang.pdf"][..],
            "gang.pdf",
        ),
        (
            &["roster", "--db", DB, "--gang", JACKALS, "-o", "roster.pdf"][..],
            "roster.pdf",
        ),
    ] {
        let err = run_ok(dir.path(), args);
        let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
        assert_eq!(warnings.len(), 1, "{args:?}:\n{err}");
        assert!(
            warnings[0].contains(&format!("fighter “{name}” of gang “{JACKALS}”"))
                && warnings[0].contains(&code)
                && warnings[0].contains(PLACEHOLDER),
            "{args:?}: {}",
            warnings[0]
        );
        let path = dir.path().join(file);
        if let Some(text) = pdf_text(&path, true) {
            assert!(text.contains("Scribe"), "{args:?}:\n{text}");
        }
    }
}

#[test]
fn a_cjk_fighter_name_prints_on_cards_roster_and_chronicle() {
    let name = "Kenji 山田";
    let dir = temp();
    let mut session = demo(dir.path());
    recruit(&mut session, JACKALS, name);
    battle_with_notes(&mut session, "山田 held the stairwell.");
    drop(session);
    let real = drawable('山') && drawable('田');
    if !real {
        eprintln!("note: no system font draws 山 here: checking the placeholder path only");
    }
    for (args, file) in [
        (&["cards", "--db", DB, "-o", "all.pdf"][..], "all.pdf"),
        (
            &["roster", "--db", DB, "--gang", JACKALS, "-o", "roster.pdf"][..],
            "roster.pdf",
        ),
        (
            &[
                "export",
                "campaign",
                "--db",
                DB,
                "--format",
                "pdf",
                "-o",
                "story.pdf",
            ][..],
            "story.pdf",
        ),
    ] {
        let err = run_ok(dir.path(), args);
        let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
        if real {
            assert!(warnings.is_empty(), "{args:?}:\n{err}");
        } else {
            assert!(!warnings.is_empty(), "{args:?}: no warning");
            for w in &warnings {
                assert!(w.contains("U+5C71") || w.contains("U+7530"), "{w}");
                if file != "story.pdf" {
                    assert!(w.contains(&format!("fighter “{name}”")), "{w}");
                }
            }
        }
        if let Some(text) = pdf_text(&dir.path().join(file), false) {
            let want = if file == "story.pdf" {
                "山田 held the stairwell."
            } else {
                name
            };
            assert!(text.contains(want), "{args:?}: {want} in:\n{text}");
        }
    }
}

#[test]
fn an_emoji_in_a_gang_name_prints_and_a_warning_names_the_gang() {
    let fox = '\u{1F98A}';
    let gang_name = format!("Fox Den {fox}");
    let dir = temp();
    let mut session = demo(dir.path());
    let jackals = session.gang_named(JACKALS).expect("gang").id;
    session.rename_gang(jackals, &gang_name).expect("rename");
    drop(session);
    for args in [
        &["cards", "--db", DB, "-o", "all.pdf"][..],
        &[
            "roster",
            "--db",
            DB,
            "--gang",
            &gang_name,
            "-o",
            "roster.pdf",
        ][..],
    ] {
        let err = run_ok(dir.path(), args);
        let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
        if drawable(fox) {
            assert!(warnings.is_empty(), "{args:?}:\n{err}");
        } else {
            assert_eq!(warnings.len(), 1, "{args:?}:\n{err}");
            assert!(
                warnings[0].starts_with(&format!("warning: gang “{gang_name}”: ")),
                "{}",
                warnings[0]
            );
            assert!(warnings[0].contains("U+1F98A"), "{}", warnings[0]);
        }
    }
}

// ---------------------------------------------------------------------------
// Line breaks and control characters
// ---------------------------------------------------------------------------

#[test]
fn an_escape_in_a_battles_notes_does_not_break_the_campaign_pdf() {
    let dir = temp();
    let mut session = demo(dir.path());
    battle_with_notes(&mut session, "Ambush\u{1b}[31m at the docks");
    drop(session);
    let err = run_ok(
        dir.path(),
        &[
            "export",
            "campaign",
            "--db",
            DB,
            "--format",
            "pdf",
            "-o",
            "story.pdf",
        ],
    );
    assert!(!err.contains('\u{1b}'), "a raw escape reached the terminal");
    // Shown as its code point, as the Markdown export shows it: nothing
    // is missing from the fonts.
    assert!(!err.contains("warning:"), "{err}");
    if let Some(text) = pdf_text(&dir.path().join("story.pdf"), false) {
        assert!(text.contains("Ambush\\u{1b}[31m at the docks"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text:?}");
    }
}

#[test]
fn newlines_in_notes_are_line_breaks_in_the_pdf() {
    let dir = temp();
    let lines = vec![
        DocLine::Heading("Battles".into()),
        DocLine::Text("First line\nSecond line\r\n\nFourth\tline".into()),
    ];
    assert!(
        document_warnings("Notes", &lines)
            .expect("warnings")
            .is_empty()
    );
    let pdf = write_pdf(
        dir.path(),
        "notes.pdf",
        &document_pdf("Notes", lines.clone()).expect("pdf"),
    );
    let Some(text) = pdf_text(&pdf, true) else {
        return;
    };
    let printed: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    for want in ["First line", "Second line", "Fourth line"] {
        assert!(
            printed.contains(&want),
            "{want:?} alone on a line in:\n{text}"
        );
    }
    assert!(!text.contains(PLACEHOLDER), "{text}");
}

#[test]
fn control_characters_in_a_name_print_as_their_code_points() {
    let name = "Bell\u{7}ringer\tTwo";
    let cards = [card(name, JACKALS)];
    // Shown as the Markdown export shows them: nothing is missing.
    let warnings = card_warnings(&cards).expect("warnings");
    assert!(warnings.is_empty(), "{warnings:?}");
    let dir = temp();
    let pdf = write_pdf(
        dir.path(),
        "card.pdf",
        &cards_pdf(&cards, 0, PageSize::A4, CardStyle::default()).expect("pdf"),
    );
    if let Some(text) = pdf_text(&pdf, false) {
        // The tab is a space where the name wraps.
        assert!(text.contains("Bell\\u{7}ringer"), "{text}");
        assert!(text.contains("Two"), "{text}");
        assert!(!text.contains('\u{7}'), "{text:?}");
    }
}

// ---------------------------------------------------------------------------
// Right to left and combining marks
// ---------------------------------------------------------------------------

#[test]
fn an_arabic_name_reads_back_in_logical_order() {
    let name = "سارة المصري";
    let cards = [card(name, "The الذئاب Jackals")];
    assert!(card_warnings(&cards).expect("warnings").is_empty());
    let dir = temp();
    let pdf = write_pdf(
        dir.path(),
        "arabic.pdf",
        &cards_pdf(&cards, 0, PageSize::A4, CardStyle::default()).expect("pdf"),
    );
    let doc = write_pdf(
        dir.path(),
        "arabic-doc.pdf",
        &document_pdf(
            "Recruits",
            vec![DocLine::Text(format!("Recruited: {name}, a scout."))],
        )
        .expect("pdf"),
    );
    if let Some(text) = pdf_text(&pdf, false) {
        assert!(text.contains(name), "{name} in:\n{text}");
        // poppler moves the space beside a right-to-left word inside it;
        // the letters and the words keep their order.
        let squashed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(squashed.contains("TheالذئابJackals"), "{text}");
    }
    if let Some(text) = pdf_text(&doc, false) {
        let squashed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let want: String = format!("Recruited: {name}, a scout.")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        assert!(squashed.contains(&want), "{text}");
    }
}

#[test]
fn stacked_combining_marks_print_and_read_back() {
    let name = "Zoë Ña\u{0323}\u{0308} Le\u{0301}\u{0302}on";
    let cards = [card(name, JACKALS)];
    assert!(card_warnings(&cards).expect("warnings").is_empty());
    let dir = temp();
    let pdf = write_pdf(
        dir.path(),
        "marks.pdf",
        &cards_pdf(&cards, 0, PageSize::A4, CardStyle::default()).expect("pdf"),
    );
    if let Some(text) = pdf_text(&pdf, false) {
        assert!(text.contains(name), "{name:?} in:\n{text:?}");
    }
}

#[test]
fn one_warning_per_name_lists_its_characters_and_a_joined_emoji_is_one() {
    let c = undrawable();
    let family = "👩\u{200D}👩\u{200D}👧";
    let thumb = "👍🏽";
    let flag = "🇯🇵";
    let name = format!("{c}Kenji{c} {family}{thumb}{flag}{family}");
    let warnings = card_warnings(&[card(&name, "Red Fangs")]).expect("warnings");
    let fonts = Fonts::for_texts([name.as_str()]).expect("fonts");
    // Each as a whole where some code point of it is missing, once.
    let expected: Vec<String> = [c.to_string().as_str(), family, thumb, flag]
        .into_iter()
        .filter(|g| g.chars().any(|c| !fonts.can_draw(c)))
        .map(str::to_owned)
        .collect();
    assert!(expected.len() >= 2, "{expected:?}");
    let mine: Vec<&MissingGlyph> = warnings
        .iter()
        .filter(|w| w.owner.contains("Kenji"))
        .collect();
    assert_eq!(mine.len(), 1, "{warnings:?}");
    assert_eq!(mine[0].characters, expected);
    let line = mine[0].to_string();
    assert_eq!(line.lines().count(), 1, "{line}");
    for g in &expected {
        assert_eq!(line.matches(&format!("“{g}”")).count(), 1, "{line}");
    }
    if expected.iter().any(|g| g == family) {
        assert!(
            line.contains("U+1F469 U+200D U+1F469 U+200D U+1F467"),
            "{line}"
        );
    }
}

/// A joined emoji, one with a skin tone and a flag, as a reader sees
/// them: three characters, one placeholder each where no font draws them.
const EMOJI: [&str; 3] = ["👨\u{200D}👩\u{200D}👧", "👍🏽", "🇳🇴"];

#[test]
fn an_emoji_no_font_draws_prints_as_one_placeholder_whatever_its_code_points() {
    let name = format!("Kin {} end", EMOJI.join(" "));
    let fonts = Fonts::for_texts([name.as_str()]).expect("fonts");
    let missing = fonts.missing(&name);
    if missing.is_empty() {
        eprintln!("note: a font here draws these emoji: no placeholder to count");
        return;
    }
    let one = fonts.width(&PLACEHOLDER.to_string(), 9.0, false);
    for g in EMOJI.iter().filter(|g| missing.iter().any(|m| m == *g)) {
        for bold in [false, true] {
            let one = fonts.width(&PLACEHOLDER.to_string(), 9.0, bold);
            let wide = fonts.width(g, 9.0, bold);
            assert!(
                (wide - one).abs() < 0.01,
                "{g:?} ({} code points) is {wide} mm wide; one placeholder is {one} mm",
                g.chars().count()
            );
        }
    }
    // The whole name: its letters and spaces, and a placeholder for each
    // emoji no font draws.
    let drawn = EMOJI
        .iter()
        .filter(|g| !missing.iter().any(|m| m == *g))
        .map(|g| fonts.width(g, 9.0, false))
        .sum::<f32>();
    let letters = fonts.width(&format!("Kin {}end", " ".repeat(EMOJI.len())), 9.0, false);
    let want = letters + drawn + one * missing.len() as f32;
    let wide = fonts.width(&name, 9.0, false);
    assert!(
        (wide - want).abs() < 0.05,
        "{name:?}: {wide} mm, not {want} mm"
    );

    // In the PDF: each emoji on a line of its own is drawn glyph by glyph
    // in a span of its own; one no font draws is one glyph, the box.
    let lines: Vec<DocLine> = EMOJI.iter().map(|g| DocLine::Text((*g).into())).collect();
    let pdf = document_pdf("Emoji", lines).expect("pdf");
    let shown = glyphs_in_spans(&pdf);
    assert_eq!(shown.len(), EMOJI.len(), "a span for each line: {shown:?}");
    for (g, n) in EMOJI.iter().zip(&shown) {
        if missing.iter().any(|m| m == *g) {
            assert_eq!(*n, 1, "{g:?} is drawn as {n} glyphs: {shown:?}");
        }
    }
}

/// How many glyphs each marked span of a PDF's first page shows (a line
/// drawn glyph by glyph is one span, its `ActualText` what it says), read
/// back with lopdf.
fn glyphs_in_spans(pdf: &[u8]) -> Vec<usize> {
    let doc = lopdf::Document::load_mem(pdf).expect("the PDF reads back");
    let page = *doc.get_pages().values().next().expect("a page");
    let content =
        lopdf::content::Content::decode(&doc.get_page_content(page)).expect("its operations");
    let mut spans = Vec::new();
    let mut inside = false;
    for op in content.operations {
        match op.operator.as_str() {
            "BDC" => {
                inside = true;
                spans.push(0);
            }
            "EMC" => inside = false,
            "Tj" | "TJ" if inside => {
                if let Some(n) = spans.last_mut() {
                    *n += 1;
                }
            }
            _ => {}
        }
    }
    spans
}

#[test]
fn the_warning_for_an_emoji_names_a_font_that_would_print_it() {
    let name = format!("Kin {}", EMOJI.join(" "));
    let cards = [card(&name, "Red Fangs")];
    let warnings = card_warnings(&cards).expect("warnings");
    let Some(mine) = warnings.iter().find(|w| w.owner.contains("Kin")) else {
        eprintln!("note: a font here draws these emoji: no warning to read");
        return;
    };
    let line = mine.to_string();
    assert_eq!(line.lines().count(), 1, "{line}");
    // Fonts are found among the system's with outlines only: an outline
    // emoji font prints them, a colour emoji font of pictures does not.
    assert!(
        line.contains("Symbola") && line.contains("fonts-symbola"),
        "{line}"
    );
    assert!(
        line.contains("Noto Color Emoji") && line.contains("cannot use"),
        "{line}"
    );
    // A character that is no emoji gets no word about emoji fonts.
    let c = undrawable();
    let plain = card_warnings(&[card(&format!("Scribe {c}"), "Red Fangs")]).expect("warnings");
    assert_eq!(plain.len(), 1, "{plain:?}");
    assert!(!plain[0].to_string().contains("emoji"), "{}", plain[0]);

    // The command line says the same, once.
    let dir = temp();
    let mut session = demo(dir.path());
    recruit(&mut session, JACKALS, &name);
    drop(session);
    let err = run_ok(
        dir.path(),
        &["cards", "--db", DB, "--gang", JACKALS, "-o", "emoji.pdf"],
    );
    let said: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(said[0].contains("fonts-symbola"), "{}", said[0]);
}

/// Runs a poppler tool on a PDF; `None` (with a note) where it is missing.
fn poppler(tool: &str, pdf: &Path) -> Option<String> {
    match Command::new(tool).arg(pdf).output() {
        Ok(out) => {
            assert!(out.status.success(), "{tool} failed: {}", stderr(&out));
            Some(String::from_utf8_lossy(&out.stdout).into_owned())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("note: {tool} is not installed (poppler-utils); not checked");
            None
        }
        Err(e) => panic!("cannot run {tool}: {e}"),
    }
}

/// A long document (a decade's chronicle) is made a hundred pages at a
/// time and the parts joined: every page is there under one page tree,
/// every line in order, and each part's fonts are subsets of their own.
#[test]
fn a_document_made_in_parts_keeps_every_page_and_line_in_order() {
    let dir = temp();
    let lines: Vec<DocLine> = (1..=16_000)
        .map(|n| DocLine::Text(format!("Entry {n:05} of the long story")))
        .collect();
    let pdf = write_pdf(
        dir.path(),
        "long.pdf",
        &document_pdf("The long story", lines).expect("pdf"),
    );
    let Some(info) = poppler("pdfinfo", &pdf) else {
        return;
    };
    let pages: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a page count");
    assert!(pages > 200, "three parts or more: {pages} pages");
    let Some(text) = pdf_text(&pdf, false) else {
        return;
    };
    let numbered: Vec<usize> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Entry "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(numbered, (1..=16_000).collect::<Vec<_>>());
    // The footer counts every page of the whole, not of a part.
    assert!(
        text.contains(&format!("{pages} / {pages}")),
        "the last page's footer"
    );
    assert!(
        text.contains(&format!("101 / {pages}")),
        "a second part's first page"
    );
    let Some(fonts) = poppler("pdffonts", &pdf) else {
        return;
    };
    let tags: Vec<&str> = fonts
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let distinct: std::collections::BTreeSet<&&str> = tags.iter().collect();
    assert!(tags.len() >= 3, "{fonts}");
    assert_eq!(
        distinct.len(),
        tags.len(),
        "each subset its own tag: {fonts}"
    );
    assert!(
        tags.iter().all(|t| t.len() > 7 && t.as_bytes()[6] == b'+'),
        "{fonts}"
    );
}
