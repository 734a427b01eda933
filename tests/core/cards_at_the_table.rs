//! Cards and documents for the table: what a card holds in play (a track
//! the pack's stat sizes, places for tokens, the status where it is true,
//! write-in boxes per counter), how it reads (names wrapped before they
//! shrink, labels of 6 pt or more), how it is cut (shared cut lines, crop
//! marks that can be left out, bleed), the options players ask for (blank
//! cards alone, the crew only, names with commas), the PDF's metadata, the
//! chronicle's page numbers and running heads, and a sheet for every
//! system. Read back with poppler (`pdftotext`, `pdfinfo`).

use crate::util;

use std::path::Path;

use rapsheet::campaign::commands::NewFighter;
use rapsheet::print::card::{self, LABEL};
use rapsheet::print::{CardSize, CardStyle, Item, PageLayout, PageSize, Track};
use rapsheet::session::{Pick, PrintOrder, Session};
use util::{rapsheet, stderr, stdout, temp};

const DB: &str = "c.rapsheet";
const SAINTS: &str = "The Rust Saints";
const JACKALS: &str = "Neon Jackals";

fn run_ok(dir: &Path, args: &[&str]) -> String {
    let out = rapsheet(dir, args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

fn poppler(tool: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool} (poppler-utils): {e}"));
    assert!(out.status.success(), "{tool} {args:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn text_of(pdf: &Path) -> String {
    poppler("pdftotext", &["-layout", pdf.to_str().unwrap(), "-"])
}

fn demo(dir: &Path) -> Session {
    Session::create_demo(&dir.join(DB)).unwrap()
}

/// The layout of one gang's cards.
fn pages(session: &Session, gang: &str, style: CardStyle) -> Vec<PageLayout> {
    let gang = session.gang_named(gang).unwrap().id;
    session
        .print_job(&PrintOrder {
            gang: Some(gang),
            style,
            ..PrintOrder::default()
        })
        .unwrap()
        .pages()
        .unwrap()
}

fn large() -> CardStyle {
    CardStyle {
        size: CardSize::Large,
        ..CardStyle::default()
    }
}

/// The texts inside a card's rectangle.
fn texts_in(page: &PageLayout, card: usize) -> Vec<(f32, f32, f32, bool, String)> {
    let (cx, cy, cw, ch) = page.cards[card];
    page.items
        .iter()
        .filter_map(|i| match i {
            Item::Text {
                x,
                y,
                size,
                bold,
                text,
            } if *x >= cx && *x <= cx + cw && *y >= cy && *y <= cy + ch => {
                Some((*x, *y, *size, *bold, text.clone()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_card_holds_a_track_as_long_as_the_meat_and_places_for_the_tokens() {
    let dir = temp();
    let session = demo(dir.path());
    let cinder = session
        .cards(
            session.gang_named(SAINTS).unwrap().id,
            &["Mother Cinder".into()],
        )
        .unwrap()
        .remove(0);
    // 003: "All damage a fighter takes is subtracted from their meat."
    assert_eq!(
        cinder.track,
        Some(Track {
            label: "MEAT".into(),
            boxes: 10,
            taken: 0,
        })
    );
    // 003: "Each standing fighter in the Zone gains a Ready token, either
    // placed near their model or on their card/sheet."
    assert_eq!(cinder.tokens, ["Ready", "Second Wind"]);
    assert_eq!(cinder.write_ins, ["Bounty"]);

    // Ten boxes in a row, each as big as the next.
    let page = &pages(&session, SAINTS, large())[0];
    let (cx, cy, cw, ch) = page.cards[0];
    let mut rows: std::collections::BTreeMap<i64, Vec<f32>> = Default::default();
    for item in &page.items {
        if let Item::Rect { x, y, w, h, .. } = item
            && (w - h).abs() < 0.01
            && *x >= cx
            && *x + w <= cx + cw
            && *y >= cy
            && *y + h <= cy + ch
        {
            rows.entry((y * 100.0) as i64).or_default().push(*w);
        }
    }
    assert!(
        rows.values().any(|r| r.len() == 10),
        "a row of ten boxes: {rows:?}"
    );
    let words: Vec<String> = texts_in(page, 0).into_iter().map(|t| t.4).collect();
    for label in ["MEAT", "READY", "SECOND WIND", "BOUNTY"] {
        assert!(words.iter().any(|w| w == label), "{label} in {words:?}");
    }
}

#[test]
fn no_label_is_under_six_points_and_a_long_name_wraps_before_it_shrinks() {
    let dir = temp();
    let mut session = demo(dir.path());
    let name = "Maximiliana Featherstonehaugh-Cholmondeley IX";
    assert_eq!(name.chars().count(), 45);
    let gang = session.gang_named(JACKALS).unwrap().id;
    session
        .recruit(
            gang,
            NewFighter {
                name: name.into(),
                ..NewFighter::default()
            },
        )
        .unwrap();
    for style in [CardStyle::default(), large()] {
        for page in pages(&session, JACKALS, style) {
            for item in &page.items {
                if let Item::Text {
                    size, bold, text, ..
                } = item
                {
                    assert!(!*bold || *size >= LABEL, "{text:?} at {size} pt");
                }
            }
        }
    }
    // On a large card the name takes two lines at 9 pt or more, not one
    // line at 5.
    let pages = pages(&session, JACKALS, large());
    let page = pages.last().unwrap();
    let card = page.cards.len() - 1;
    let lines: Vec<_> = texts_in(page, card)
        .into_iter()
        .filter(|t| t.3 && name.contains(t.4.trim()))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines.iter().all(|l| l.2 >= 9.0), "{lines:?}");
}

#[test]
fn a_wounded_fighter_says_so_and_the_crew_leaves_them_out() {
    let dir = temp();
    let d = dir.path();
    run_ok(d, &["demo", "--db", DB]);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/battle-report.in/report.json"),
        d.join("report.json"),
    )
    .unwrap();
    run_ok(
        d,
        &["battle", "record", "report.json", "--seed", "7", "--db", DB],
    );
    run_ok(d, &["cards", "--gang", SAINTS, "-o", "all.pdf", "--db", DB]);
    let all = text_of(&d.join("all.pdf"));
    // In the pack's word for a record (Heartbreaker: skirmish).
    assert!(all.contains("Wounded: misses the next skirmish"), "{all}");
    let out = run_ok(
        d,
        &[
            "cards", "--gang", SAINTS, "--crew", "-o", "crew.pdf", "--db", DB,
        ],
    );
    assert!(out.contains("Wrote 5 cards"), "{out}");
    let crew = text_of(&d.join("crew.pdf"));
    assert!(
        !crew.contains("Brick") && !crew.contains("Wounded"),
        "{crew}"
    );
}

#[test]
fn neighbours_share_their_cut_lines_and_marks_can_be_left_out() {
    let style = CardStyle::default();
    let slots = card::grid(PageSize::A4, style);
    let (cw, _) = CardSize::Poker.mm();
    // One cut between neighbours: the next card starts where this ends.
    assert!((slots[1].0 - (slots[0].0 + cw)).abs() < 0.01, "{slots:?}");
    // With bleed they sit twice the bleed apart.
    let bled = card::grid(
        PageSize::A4,
        CardStyle {
            bleed: 3.0,
            ..style
        },
    );
    assert!(
        (bled[1].0 - (bled[0].0 + cw) - 6.0).abs() < 0.01,
        "{bled:?}"
    );

    let dir = temp();
    let session = demo(dir.path());
    let marked = pages(&session, SAINTS, style);
    let unmarked = pages(
        &session,
        SAINTS,
        CardStyle {
            marks: false,
            ..style
        },
    );
    let lines = |p: &PageLayout| {
        p.items
            .iter()
            .filter(|i| matches!(i, Item::Line { .. }))
            .count()
    };
    assert!(lines(&marked[0]) > lines(&unmarked[0]));
    // Nothing is drawn on the trim line itself: no card has a border.
    for &(x, y, w, h) in &marked[0].cards {
        assert!(!marked[0].items.iter().any(|i| matches!(
            i,
            Item::Rect { x: rx, y: ry, w: rw, h: rh, stroke, .. }
                if *stroke > 0.0 && (*rx - x).abs() < 0.01 && (*ry - y).abs() < 0.01
                    && (*rw - w).abs() < 0.01 && (*rh - h).abs() < 0.01
        )));
    }
    let d = dir.path();
    run_ok(
        d,
        &[
            "cards",
            "--no-crop-marks",
            "--bleed",
            "2",
            "-o",
            "cut.pdf",
            "--db",
            DB,
        ],
    );
    let bad = rapsheet(d, &["cards", "--bleed", "9", "-o", "x.pdf", "--db", DB]);
    assert!(stderr(&bad).contains("--bleed 9: the bleed is 0 to 5 mm"));
}

#[test]
fn blank_cards_print_alone_with_a_name_line_even_in_a_campaign_with_no_gang() {
    let dir = temp();
    let d = dir.path();
    run_ok(d, &["demo", "--db", DB]);
    let out = run_ok(
        d,
        &[
            "cards",
            "--blank",
            "3",
            "--blank-only",
            "-o",
            "b.pdf",
            "--db",
            DB,
        ],
    );
    assert!(out.contains("Wrote 3 cards"), "{out}");
    let text = text_of(&d.join("b.pdf"));
    assert_eq!(text.matches("NAME").count(), 3, "{text}");
    assert!(!text.contains("Brick") && !text.contains(SAINTS), "{text}");

    run_ok(d, &["new", "--name", "Empty", "--db", "empty.rapsheet"]);
    let out = run_ok(
        d,
        &[
            "cards",
            "--blank",
            "2",
            "--blank-only",
            "-o",
            "e.pdf",
            "--db",
            "empty.rapsheet",
        ],
    );
    assert!(out.contains("Wrote 2 cards"), "{out}");
    let text = text_of(&d.join("e.pdf"));
    assert!(text.contains("MEAT") && text.contains("NAME"), "{text}");

    // A number of blanks past all use is refused in a line, nothing made.
    let out = rapsheet(
        d,
        &[
            "cards",
            "--blank",
            "18446744073709551615",
            "-o",
            "huge.pdf",
            "--db",
            DB,
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out)
            .contains("--blank 18446744073709551615: expected a number of cards from 0 to 1000"),
        "{}",
        stderr(&out)
    );
    assert!(!d.join("huge.pdf").exists());
}

#[test]
fn a_fighter_whose_name_holds_a_comma_is_printed_by_name() {
    let dir = temp();
    let d = dir.path();
    let mut session = demo(d);
    let gang = session.gang_named(JACKALS).unwrap().id;
    session
        .recruit(
            gang,
            NewFighter {
                name: "Vex, the Younger".into(),
                ..NewFighter::default()
            },
        )
        .unwrap();
    drop(session);
    let out = run_ok(
        d,
        &[
            "cards",
            "--gang",
            JACKALS,
            "--fighter",
            "Vex, the Younger",
            "--fighter",
            "Hush",
            "-o",
            "two.pdf",
            "--db",
            DB,
        ],
    );
    assert!(out.contains("Wrote 2 cards"), "{out}");
    assert!(text_of(&d.join("two.pdf")).contains("Vex, the Younger"));
}

#[test]
fn the_pdf_says_what_made_it_and_when_and_claims_no_pdf_x() {
    let dir = temp();
    let d = dir.path();
    run_ok(d, &["demo", "--db", DB]);
    run_ok(d, &["cards", "-o", "now.pdf", "--db", DB]);
    let info = poppler("pdfinfo", &[d.join("now.pdf").to_str().unwrap()]);
    assert!(info.contains("Creator:         Rapsheet"), "{info}");
    assert!(info.contains("Producer:        Rapsheet"), "{info}");
    assert!(!info.contains("1970"), "{info}");
    assert!(!info.contains("PDF subtype"), "{info}");
    // A reproducible file where SOURCE_DATE_EPOCH is set.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(["roster", SAINTS, "-o", "then.pdf", "--db", DB])
        .current_dir(d)
        .env("HOME", d)
        .env("XDG_DATA_HOME", d.join("data"))
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let info = poppler(
        "pdfinfo",
        &["-isodates", d.join("then.pdf").to_str().unwrap()],
    );
    assert!(info.contains("2023-11-14T22:13:20"), "{info}");
}

#[test]
fn the_chronicle_pdf_has_page_numbers_and_running_heads() {
    let dir = temp();
    let d = dir.path();
    run_ok(
        d,
        &[
            "gen",
            "--db",
            DB,
            "--gangs",
            "4",
            "--fighters-per-gang",
            "6",
            "--battles",
            "30",
            "--seed",
            "1",
        ],
    );
    run_ok(
        d,
        &[
            "export",
            "campaign",
            "--format",
            "pdf",
            "-o",
            "story.pdf",
            "--db",
            DB,
        ],
    );
    let pdf = d.join("story.pdf");
    let info = poppler("pdfinfo", &[pdf.to_str().unwrap()]);
    let pages: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(pages > 2, "{info}");
    for n in 1..=pages {
        let page = poppler(
            "pdftotext",
            &[
                "-f",
                &n.to_string(),
                "-l",
                &n.to_string(),
                pdf.to_str().unwrap(),
                "-",
            ],
        );
        let tight: String = page.split_whitespace().collect();
        assert!(tight.contains(&format!("{n}/{pages}")), "page {n}: {page}");
        if n > 1 {
            assert!(
                tight.starts_with("Generatedcampaign—chronicle·"),
                "page {n}'s head: {page}"
            );
        }
    }
}

#[test]
fn each_system_prints_its_own_sheet_from_the_same_layout() {
    let dir = temp();
    let d = dir.path();
    // A party's characters print as character sheets, two to a page.
    run_ok(d, &["demo", "--ruleset", "hwc", "--db", "hwc.rapsheet"]);
    let out = run_ok(d, &["cards", "-o", "hwc.pdf", "--db", "hwc.rapsheet"]);
    assert!(out.contains("Wrote 4 cards"), "{out}");
    let info = poppler("pdfinfo", &[d.join("hwc.pdf").to_str().unwrap()]);
    assert!(info.contains("Pages:           2"), "{info}");
    // Wayfarer's unit record: the entries under their categories. 004:
    // "purchase the armor, weapons, or devices and record them on the
    // unit's record sheet".
    run_ok(d, &["demo", "--ruleset", "wayfarer", "--db", "w.rapsheet"]);
    run_ok(d, &["cards", "-o", "w.pdf", "--db", "w.rapsheet"]);
    let text = text_of(&d.join("w.pdf"));
    for heading in ["RANK", "SPECIES", "EQUIPMENT"] {
        assert!(text.contains(heading), "{heading}: {text}");
    }
    // Asked for, any size still prints.
    run_ok(
        d,
        &[
            "cards",
            "--size",
            "poker",
            "-o",
            "small.pdf",
            "--db",
            "hwc.rapsheet",
        ],
    );
}

#[test]
fn the_roster_gives_way_only_in_the_name_cell() {
    let dir = temp();
    let d = dir.path();
    let mut session = demo(d);
    let gang = session.gang_named(JACKALS).unwrap().id;
    let long = "Bartholomew Featherstonehaugh-Cholmondeley of the Ninth Furnace, Warden";
    session
        .recruit(
            gang,
            NewFighter {
                name: long.into(),
                ..NewFighter::default()
            },
        )
        .unwrap();
    let sheet = session.roster_sheet(gang).unwrap();
    let pages = rapsheet::print::roster_layout(&sheet, PageSize::A4).unwrap();
    let sizes: Vec<f32> = pages
        .iter()
        .flat_map(|p| &p.items)
        .filter_map(|i| match i {
            Item::Text {
                size,
                bold: false,
                text,
                ..
            } if text.contains("LIMIT") => Some(*size),
            _ => None,
        })
        .collect();
    assert_eq!(sizes.len(), 7, "every fighter's stats line");
    assert!(sizes.iter().all(|s| *s == sizes[0]), "{sizes:?}");
    drop(session);
    run_ok(d, &["roster", JACKALS, "-o", "r.pdf", "--db", DB]);
    assert!(squash(&text_of(&d.join("r.pdf"))).contains("Ninth Furnace"));
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_print_window_and_the_command_line_take_the_same_new_options() {
    let dir = temp();
    let session = demo(dir.path());
    let gang = session.gang_named(JACKALS).unwrap().id;
    let job = session
        .print_job(&PrintOrder {
            gang: Some(gang),
            fighters: Pick::Nobody,
            blanks: 2,
            ..PrintOrder::default()
        })
        .unwrap();
    assert_eq!(job.card_count(), 2);
    assert_eq!(session.card_size(Some(gang)).unwrap(), CardSize::Poker);
}

/// A page rendered grey by pdftoppm, as (width, height, pixels).
fn rendered(pdf: &Path, dpi: u32) -> (usize, usize, Vec<u8>) {
    let out = std::process::Command::new("pdftoppm")
        .args(["-gray", "-r", &dpi.to_string(), "-f", "1", "-l", "1"])
        .arg(pdf)
        .output()
        .expect("pdftoppm (poppler-utils)");
    assert!(out.status.success());
    // PGM: "P5", width, height, maximum, then one byte a pixel.
    let bytes = out.stdout;
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    assert_eq!(fields[0], "P5");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, bytes[at + 1..].to_vec())
}

#[test]
fn the_cut_between_two_cards_is_blank_paper_below_the_header() {
    let dir = temp();
    let d = dir.path();
    run_ok(d, &["demo", "--db", DB]);
    run_ok(d, &["cards", "-o", "cards.pdf", "--db", DB]);
    let dpi = 100;
    let (w, _, pixels) = rendered(&d.join("cards.pdf"), dpi);
    let px = |mm: f32| (mm / 25.4 * dpi as f32).round() as usize;
    let slots = card::grid(PageSize::A4, CardStyle::default());
    let (_, ch) = CardSize::Poker.mm();
    let (cut, top) = (slots[1].0, slots[1].1);
    // From under the header band to the card's foot, the cut line and a
    // hair either side are paper: no border on the trim.
    for y in px(top + 25.0)..px(top + ch - 1.0) {
        for x in px(cut) - 1..=px(cut) + 1 {
            let grey = pixels[y * w + x];
            assert!(grey > 240, "ink at ({x}, {y}) on the cut: {grey}");
        }
    }
    // The header band is printed, and runs to the cut.
    let band = pixels[px(top + 3.0) * w + px(cut) - 2];
    assert!(band < 240, "the band reaches the cut: {band}");
}

#[test]
fn a_hardwired_28_card_ticks_off_health() {
    let dir = temp();
    let mut session = Session::create(&dir.path().join(DB), "Shift", "hardwired28").unwrap();
    let (gang, _) = session.found_gang("Night Crew", None).unwrap();
    session
        .recruit(
            gang,
            NewFighter {
                name: "Okoro".into(),
                ..NewFighter::default()
            },
        )
        .unwrap();
    let card = session.cards(gang, &[]).unwrap().remove(0);
    // 000: "Health | Damage until Out of Action"; the pack's default Health
    // is 10, so ten boxes.
    assert_eq!(
        card.track,
        Some(Track {
            label: "HEALTH".into(),
            boxes: 10,
            taken: 0,
        })
    );
    assert!(card.tokens.is_empty());
}

// ---------------------------------------------------------------------------
// Found on paper: what a card says once, and how it is cut
// ---------------------------------------------------------------------------

/// The pages of every gang's cards in a demo of `ruleset` (the size its
/// pack prints on), with the cards they show.
fn system_pages(
    session: &Session,
    write_in: bool,
) -> Vec<(rapsheet::print::CardData, PageLayout, usize)> {
    let mut out = Vec::new();
    for gang in session.gangs().unwrap() {
        let cards = session.cards(gang.id, &[]).unwrap();
        let style = CardStyle {
            size: session.card_size(Some(gang.id)).unwrap(),
            write_in,
            ..CardStyle::default()
        };
        let pages = session
            .print_job(&PrintOrder {
                gang: Some(gang.id),
                style,
                ..PrintOrder::default()
            })
            .unwrap()
            .pages()
            .unwrap();
        for page in pages {
            for (k, &i) in page.of.iter().enumerate() {
                out.push((cards[i].clone(), page.clone(), k));
            }
        }
    }
    out
}

/// The demo of every system the demos are played with, and a fighter of
/// the primary system's with no entries at all.
fn every_system(dir: &Path) -> Vec<Session> {
    let mut sessions: Vec<Session> = ["hwc", "yearzero", "wayfarer"]
        .into_iter()
        .map(|r| Session::create_demo_of(&dir.join(format!("{r}.rapsheet")), r).unwrap())
        .collect();
    let mut heartbreaker = demo(dir);
    let gang = heartbreaker.gang_named(JACKALS).unwrap().id;
    heartbreaker
        .recruit(
            gang,
            NewFighter {
                name: "Nobody Yet".into(),
                ..NewFighter::default()
            },
        )
        .unwrap();
    sessions.push(heartbreaker);
    sessions
}

#[test]
fn a_heading_over_no_entries_has_lines_to_write_them_on_or_is_left_out() {
    let dir = temp();
    let (mut ruled, mut left_out) = (0, 0);
    for session in every_system(dir.path()) {
        for write_in in [false, true] {
            for (data, page, k) in system_pages(&session, write_in) {
                let empty: Vec<&String> = if data.groups.is_empty() {
                    [&data.quirks_heading]
                        .into_iter()
                        .filter(|_| data.quirks.is_empty())
                        .collect()
                } else {
                    data.groups
                        .iter()
                        .filter(|(_, lines)| lines.is_empty())
                        .map(|(h, _)| h)
                        .collect()
                };
                let (cx, cy, cw, ch) = page.cards[k];
                let texts = texts_in(&page, k);
                for heading in empty {
                    let Some(at) = texts.iter().find(|t| t.3 && &t.4 == heading) else {
                        left_out += 1;
                        continue;
                    };
                    // Lines across the card between the heading and what
                    // is printed under it.
                    let next = texts
                        .iter()
                        .map(|t| t.1)
                        .filter(|&y| y > at.1 + 0.01)
                        .fold(cy + ch, f32::min);
                    let rules = page
                        .items
                        .iter()
                        .filter(|i| {
                            matches!(i, Item::Line { x1, y1, x2, y2, .. }
                                if (y1 - y2).abs() < 0.01 && *y1 > at.1 && *y1 < next
                                    && *x1 >= cx && *x2 <= cx + cw && x2 - x1 > cw * 0.8)
                        })
                        .count();
                    assert!(
                        rules > 0,
                        "{} of {}: {heading} stands over nothing, with no line to write on",
                        data.name,
                        data.gang
                    );
                    ruled += 1;
                }
            }
        }
    }
    // HWC's possessions and the Year Zero-style traits have room on a
    // sheet; a poker card of the primary system's quirks too.
    assert!(ruled >= 3, "{ruled} headings ruled, {left_out} left out");
}

#[test]
fn the_boxes_of_a_header_row_are_one_height_and_their_values_in_line() {
    let dir = temp();
    let mut rows_checked = 0;
    for session in every_system(dir.path()) {
        for (data, page, k) in system_pages(&session, false) {
            let (cx, cy, cw, _) = page.cards[k];
            // The counters' boxes: white, outlined, in the header.
            let boxes: Vec<(f32, f32, f32, f32)> = page
                .items
                .iter()
                .filter_map(|i| match i {
                    Item::Rect {
                        x,
                        y,
                        w,
                        h,
                        fill: Some(grey),
                        stroke,
                    } if *grey == 1.0 && *stroke > 0.0 && *x >= cx && x + w <= cx + cw => {
                        Some((*x, *y, *w, *h))
                    }
                    _ => None,
                })
                .filter(|b| b.1 >= cy)
                .collect();
            let mut rows: std::collections::BTreeMap<i64, Vec<(f32, f32, f32, f32)>> =
                Default::default();
            for b in boxes {
                rows.entry((b.1 * 100.0).round() as i64)
                    .or_default()
                    .push(b);
            }
            for row in rows.values().filter(|r| r.len() > 1) {
                let heights: Vec<f32> = row.iter().map(|b| b.3).collect();
                assert!(
                    heights.iter().all(|h| (h - heights[0]).abs() < 0.01),
                    "{}: one row, boxes {heights:?} mm high",
                    data.name
                );
                // The values (the large type in each box) on one baseline.
                let values: Vec<f32> = page
                    .items
                    .iter()
                    .filter_map(|i| match i {
                        Item::Text { x, y, size, .. }
                            if *size > LABEL
                                && row.iter().any(|b| {
                                    *x >= b.0 && *x <= b.0 + b.2 && *y >= b.1 && *y <= b.1 + b.3
                                }) =>
                        {
                            Some(*y)
                        }
                        _ => None,
                    })
                    .collect();
                assert!(
                    values.iter().all(|y| (y - values[0]).abs() < 0.6),
                    "{}: the values of one row at {values:?}",
                    data.name
                );
                rows_checked += 1;
            }
        }
    }
    // The Year Zero-style "STRESS LEVEL" wraps beside HEALTH; HWC's "PLOT
    // POINTS" beside HP; Wayfarer's value and score.
    assert!(rows_checked >= 8, "{rows_checked} rows");
}

#[test]
fn a_roll_line_says_no_term_of_nought_nor_its_own_label_again() {
    let dir = temp();
    let d = dir.path();
    let mut session = Session::create_demo_of(&d.join(DB), "yearzero").unwrap();
    let gang = session.gangs().unwrap()[0].id;
    let tomas = session
        .gang_view(gang)
        .unwrap()
        .fighters
        .into_iter()
        .find(|f| f.name == "Tomas Brandt")
        .unwrap();
    // 002: "Stress Dice: Stress level": Tomas has two, the others none.
    session
        .set_counter(tomas.id, "stress", 2, "a long night")
        .unwrap();
    drop(session);
    run_ok(d, &["cards", "-o", "yz.pdf", "--db", DB]);
    let text = squash(&text_of(&d.join("yz.pdf")));
    // Ana Reyes has no stress: her rolls are her base dice alone.
    assert!(
        text.contains("Stamina: 4 dice (Strength 3 + Stamina 1) Close Combat:"),
        "{text}"
    );
    assert!(!text.contains("+ 0 stress"), "{text}");
    // Tomas has two: his rolls say so, with where they come from.
    assert!(
        text.contains("Stamina: 7 dice (Strength 5 + Stamina 2) + 2 stress (Stress level)"),
        "{text}"
    );
    // A skill of nought is part of what the pool is made of, and stays.
    assert!(
        text.contains("Comtech: 3 dice (Wits 3 + Comtech 0)"),
        "{text}"
    );

    // 000's Combat: the dice of the fighter's rung, not "(Combat)" again.
    let mut session = Session::create(&d.join("h28.rapsheet"), "Shift", "hardwired28").unwrap();
    let (gang, _) = session.found_gang("Night Crew", None).unwrap();
    session
        .recruit(
            gang,
            NewFighter {
                name: "Okoro".into(),
                ..NewFighter::default()
            },
        )
        .unwrap();
    drop(session);
    run_ok(d, &["cards", "-o", "h28.pdf", "--db", "h28.rapsheet"]);
    let text = squash(&text_of(&d.join("h28.pdf")));
    assert!(
        text.contains("Combat: 2d6 Defense: 2d6 Wits: 2d6"),
        "{text}"
    );
    assert!(!text.contains("(Combat)"), "{text}");
}

/// `rapsheet --pack tests/packs/tidewreck.toml ARGS --db c.rapsheet`.
fn tide(dir: &Path, args: &[&str]) -> String {
    let pack = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/tidewreck.toml");
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", DB]);
    run_ok(dir, &all)
}

#[test]
fn an_entry_a_table_gave_twice_prints_once() {
    let dir = temp();
    let d = dir.path();
    tide(d, &["new", "--ruleset", "tidewreck", "--name", "The Reef"]);
    for (clan, divers) in [
        ("Gull Clan", ["Maren", "Oda"]),
        ("Reed Clan", ["Vey", "Wynn"]),
    ] {
        tide(d, &["gang", "new", clan]);
        for diver in divers {
            tide(d, &["fighter", "add", diver, "--gang", clan]);
        }
    }
    // "The diver gains Eel Skin" on a 6 of the Finds in the Wreck, rolled
    // after two tides running.
    let report = serde_json::json!({
        "gangs": [
            {"gang": "Gull Clan", "fighters": [{"fighter": "Maren"}, {"fighter": "Oda"}]},
            {"gang": "Reed Clan"},
        ],
        "dice": [
            {"roll": "wreck-finds: Maren", "faces": [6]},
            {"roll": "wreck-finds: Oda", "faces": [1]},
            {"roll": "wreck-finds: Vey", "faces": [1]},
            {"roll": "wreck-finds: Wynn", "faces": [1]},
        ],
    });
    std::fs::write(d.join("tide.json"), report.to_string()).unwrap();
    for _ in 0..2 {
        let told = tide(d, &["battle", "record", "tide.json"]);
        assert!(told.contains("Maren gains Eel Skin"), "{told}");
    }
    tide(
        d,
        &[
            "cards",
            "--gang",
            "Gull Clan",
            "--fighter",
            "Maren",
            "-o",
            "maren.pdf",
        ],
    );
    let text = text_of(&d.join("maren.pdf"));
    let entry = text.lines().filter(|l| l.trim() == "Eel Skin").count();
    assert_eq!(entry, 1, "the entry once under CHARMS:\n{text}");
    // Each tide's find stays on the card, as what happened.
    assert_eq!(text.matches("An Eel-Skin Charm").count(), 2, "{text}");
}

#[test]
fn a_fighter_the_pack_gives_no_stress_has_no_box_to_write_it_in() {
    let dir = temp();
    let session = Session::create_demo_of(&dir.path().join(DB), "yearzero").unwrap();
    let gang = session.gangs().unwrap()[0].id;
    let pages = session
        .print_job(&PrintOrder {
            gang: Some(gang),
            blanks: 1,
            style: CardStyle {
                size: CardSize::Sheet,
                write_in: true,
                ..CardStyle::default()
            },
            ..PrintOrder::default()
        })
        .unwrap()
        .pages()
        .unwrap();
    let cards = session.cards(gang, &[]).unwrap();
    let stress = |name: &str| {
        let (page, k) = pages
            .iter()
            .find_map(|p| {
                p.of.iter()
                    .position(|&i| cards.get(i).map_or(name.is_empty(), |c| c.name == name))
                    .map(|k| (p, k))
            })
            .unwrap();
        texts_in(page, k)
            .into_iter()
            .filter(|t| t.4 == "STRESS LEVEL" || t.4 == "STRESS")
            .count()
    };
    // 002, Synthetics: "Panic - Do not suffer stress": the pack's
    // Synthetic entry takes the Stress level counter away (no_counters),
    // from the header and from the boxes written in during a session.
    assert_eq!(stress("Wren-7"), 0);
    // Ana Reyes has it in the header and a box to write it in; so has a
    // blank card, which is for anyone.
    assert_eq!(stress("Ana Reyes"), 2);
    assert!(stress("") >= 2, "the blank card's header and box");
}

#[test]
fn bleed_without_crop_marks_prints_a_cut_guide_between_the_cards() {
    let dir = temp();
    let d = dir.path();
    let session = demo(d);
    let style = CardStyle {
        marks: false,
        bleed: 3.0,
        ..CardStyle::default()
    };
    let page = &pages(&session, SAINTS, style)[0];
    // With crop marks the cut is theirs to show: no guide.
    let marked = pages(
        &session,
        SAINTS,
        CardStyle {
            bleed: 3.0,
            ..CardStyle::default()
        },
    );
    assert!(
        !marked[0]
            .items
            .iter()
            .any(|i| matches!(i, Item::Line { width, .. } if *width == card::GUIDE))
    );
    // Asked not to (`--no-cut-guide`, or the print window's box): none.
    let unguided = pages(
        &session,
        SAINTS,
        CardStyle {
            cut_guide: false,
            ..style
        },
    );
    assert!(
        !unguided[0]
            .items
            .iter()
            .any(|i| matches!(i, Item::Line { width, .. } if *width == card::GUIDE))
    );
    let guides: Vec<(f32, f32, f32, f32)> = page
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                width,
            } if *width == card::GUIDE => {
                Some((x1.min(*x2), y1.min(*y2), x1.max(*x2), y1.max(*y2)))
            }
            _ => None,
        })
        .collect();
    assert!(!guides.is_empty(), "no cut guide");
    // None on a card: each between cards, on a cut line.
    for g in &guides {
        for &(x, y, w, h) in &page.cards {
            let across = g.2.min(x + w) - g.0.max(x);
            let down = g.3.min(y + h) - g.1.max(y);
            assert!(
                across <= 0.0 || down <= 0.0,
                "{g:?} on the card at ({x}, {y})"
            );
        }
    }
    // Between two cards side by side, their top and bottom cuts; between
    // two one above the other, their left and right.
    let (a, b) = (page.cards[0], page.cards[1]);
    // (Each where it lies on paper a printer prints.)
    let printable = |cut: &f32, side: f32| (card::PRINTABLE..=side - card::PRINTABLE).contains(cut);
    for cut in [a.1, a.1 + a.3].iter().filter(|c| printable(c, page.h)) {
        assert!(
            guides
                .iter()
                .any(|g| (g.1 - cut).abs() < 0.01 && g.0 > a.0 + a.2 && g.2 < b.0),
            "no guide on y = {cut} between the first two cards: {guides:?}"
        );
    }
    let below = page.cards[3];
    for cut in [a.0, a.0 + a.2].iter().filter(|c| printable(c, page.w)) {
        assert!(
            guides
                .iter()
                .any(|g| (g.0 - cut).abs() < 0.01 && g.1 > a.1 + a.3 && g.3 < below.1),
            "no guide on x = {cut} between the first card and the one under it: {guides:?}"
        );
    }
    // On paper: ink on the first card's foot line, between it and its
    // neighbour, where there is nothing else but paper.
    drop(session);
    run_ok(
        d,
        &[
            "cards",
            "--gang",
            SAINTS,
            "--no-crop-marks",
            "--bleed",
            "3",
            "-o",
            "cut.pdf",
            "--db",
            DB,
        ],
    );
    let dpi = 300;
    let (w, _, pixels) = rendered(&d.join("cut.pdf"), dpi);
    let px = |mm: f32| (mm / 25.4 * dpi as f32).round() as usize;
    let foot = a.1 + a.3;
    let mid = (a.0 + a.2 + b.0) / 2.0;
    let inked = (px(foot) - 2..=px(foot) + 2)
        .flat_map(|y| (px(mid) - 2..=px(mid) + 2).map(move |x| (x, y)))
        .any(|(x, y)| pixels[y * w + x] < 200);
    assert!(inked, "no guide printed at ({mid}, {foot}) mm");
}

#[test]
fn a_fighters_notes_are_printed_on_their_card() {
    let dir = temp();
    let d = dir.path();
    drop(demo(d));
    run_ok(
        d,
        &[
            "fighter",
            "notes",
            "Brick",
            "Owes the Jackals a favour.\nCarries Dross's lighter.",
            "--db",
            DB,
        ],
    );
    run_ok(
        d,
        &["cards", "--gang", SAINTS, "-o", "saints.pdf", "--db", DB],
    );
    let text = text_of(&d.join("saints.pdf"));
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for line in [
        "NOTES",
        "Owes the Jackals a favour.",
        "Carries Dross's lighter.",
    ] {
        assert!(flat.contains(line), "{line}: {text}");
    }
    // On Brick's card, and nobody else's.
    let session = Session::open(&d.join(DB)).unwrap();
    let laid = pages(&session, SAINTS, CardStyle::default());
    let with_notes: Vec<usize> = (0..laid[0].cards.len())
        .filter(|&i| {
            texts_in(&laid[0], i)
                .iter()
                .any(|t| t.4.contains("Owes the Jackals"))
        })
        .collect();
    assert_eq!(with_notes.len(), 1, "{with_notes:?}");
    assert!(
        texts_in(&laid[0], with_notes[0])
            .iter()
            .any(|t| t.4.contains("Brick"))
    );
}

#[test]
fn a_long_note_in_any_script_wraps_inside_the_card_and_goes_on_to_more_cards() {
    let dir = temp();
    let d = dir.path();
    drop(demo(d));
    // One paragraph far longer than a card holds, in three scripts, and a
    // short line after it.
    let long = "山田に借りがある。 Owes Dross a favour since the fire at the docks; \
                سارة المصري knows why. "
        .repeat(30);
    let notes = format!("{}\nKeeps a lighter.", long.trim());
    run_ok(d, &["fighter", "notes", "Brick", &notes, "--db", DB]);
    let session = Session::open(&d.join(DB)).unwrap();
    let fonts = rapsheet::print::Fonts::load().unwrap();
    for style in [CardStyle::default(), large()] {
        let laid = pages(&session, SAINTS, style);
        let mut bricks = 0;
        let mut notes_cards = 0;
        let mut printed = String::new();
        for page in &laid {
            for i in 0..page.cards.len() {
                let texts = texts_in(page, i);
                if !texts.iter().any(|t| t.4.starts_with("Brick")) {
                    continue;
                }
                bricks += 1;
                let (cx, _, cw, _) = page.cards[i];
                let mut under_notes = false;
                for (x, _, size, bold, text) in &texts {
                    // Every line inside the card, none under a label's size.
                    let right = x + fonts.width(text, *size, *bold);
                    assert!(right <= cx + cw + 0.01, "{text} runs off the card");
                    assert!(*size >= LABEL - 0.01, "{text} at {size}");
                    if under_notes {
                        printed.push_str(text);
                    }
                    under_notes |= *bold && text == "NOTES";
                }
                notes_cards += usize::from(under_notes);
            }
        }
        assert!(
            bricks > 1 && notes_cards > 1,
            "{style:?}: the notes go on to another card ({bricks}, {notes_cards})"
        );
        // Nothing of the note is lost: its words, in order.
        let squash = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert!(
            squash(&printed).contains(&squash(long.trim())),
            "{style:?}: {printed}"
        );
        assert!(printed.contains("Keeps a lighter."));
    }
    let gang = session.gang_named(SAINTS).unwrap().id;
    let cards = session.cards(gang, &[]).unwrap();
    assert!(
        rapsheet::print::card_warnings(&cards).unwrap().is_empty(),
        "every script has a font"
    );
    run_ok(
        d,
        &["cards", "--gang", SAINTS, "-o", "saints.pdf", "--db", DB],
    );
    let text = text_of(&d.join("saints.pdf"));
    assert!(text.contains("山田に借りがある"), "{text}");
    assert!(text.contains("Keeps a lighter."), "{text}");
}

#[test]
fn cards_printed_nearer_the_papers_edge_than_a_printer_prints_are_warned_of() {
    // Two large cards across A4 with 2 mm of bleed and no crop marks cut 3
    // mm from the paper's edge, their bleed 1 mm: printed as asked, with a
    // warning.
    let near = card::near_the_edge(
        PageSize::A4,
        CardStyle {
            bleed: 2.0,
            marks: false,
            ..large()
        },
    )
    .expect("near the edge");
    assert!(
        (near.cut - 3.0).abs() < 0.01 && (near.bleed - 1.0).abs() < 0.01,
        "{near:?}"
    );
    // With crop marks the cards sit further in; without bleed, at the edge
    // of what prints.
    for style in [
        CardStyle {
            bleed: 2.0,
            ..large()
        },
        CardStyle {
            marks: false,
            ..large()
        },
        CardStyle::default(),
        // Poker cards with 2 mm of bleed and no crop marks cut 6.5 mm in:
        // only their bleed runs past what prints, and that is no harm.
        CardStyle {
            bleed: 2.0,
            marks: false,
            ..CardStyle::default()
        },
    ] {
        assert_eq!(card::near_the_edge(PageSize::A4, style), None, "{style:?}");
    }

    let dir = temp();
    let d = dir.path();
    drop(demo(d));
    let out = rapsheet(
        d,
        &[
            "cards",
            "--size",
            "large",
            "--bleed",
            "2",
            "--no-crop-marks",
            "-o",
            "near.pdf",
            "--db",
            DB,
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "warning: the outer cut lines are 3.0 mm from the paper's edge and their bleed 1.0 mm, where many printers cannot print"
        ),
        "{}",
        stderr(&out)
    );
    assert!(d.join("near.pdf").exists());
    let out = rapsheet(
        d,
        &["cards", "--size", "large", "-o", "far.pdf", "--db", DB],
    );
    assert!(out.status.success());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}
