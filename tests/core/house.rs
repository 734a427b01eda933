//! House rules kept in the campaign: a group's own pack, put in the file
//! with `rapsheet house keep`, read by every later opening (another
//! process, another laptop), labelled house rules, taken out only when
//! nothing plays it, and every step taken back by undo.

use crate::util;

use std::path::Path;

use util::{ok, rapsheet, stderr};

/// A group's own species for Wayfarer: 004 lost the Human template (its
/// page was an image; only the name survives in the index), so a group
/// writes its own.
const MARCHES: &str = r#"
[pack]
id = "marches"
name = "The Marches"
format = 1
version = "0.1.0"
base = "wayfarer"
source = "Our group's house rules"

[[quirks]]
id = "species-human"
name = "Human"
category = "species"
tags = ["species", "size:1x1"]
cost = 0
short = "Our own Human template"
source = "House rules"
"#;

fn refused(dir: &Path, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--db", "c.rapsheet"]);
    let out = rapsheet(dir, &all);
    assert!(!out.status.success(), "{args:?} should be refused");
    stderr(&out)
}

#[test]
fn a_house_pack_kept_in_the_campaign_is_read_by_every_opening_and_undone() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer", "--name", "Marches"]);
    std::fs::write(d.join("marches.toml"), MARCHES).unwrap();
    let said = ok(d, &["house", "keep", "marches.toml"]);
    assert_eq!(
        said,
        "Kept house rules The Marches (marches) in the campaign\n"
    );
    // Another process reads it from the campaign, without the file.
    std::fs::remove_file(d.join("marches.toml")).unwrap();
    ok(d, &["gang", "new", "Red Hand", "--ruleset", "marches"]);
    ok(
        d,
        &[
            "fighter", "add", "Ada", "--gang", "Red Hand", "--quirk", "Human",
        ],
    );
    let listed = ok(d, &["house", "list"]);
    assert_eq!(
        listed,
        "The Marches (marches), changes Wayfarer Tactics; played by Red Hand\n"
    );
    let rulesets = ok(d, &["rulesets"]);
    assert!(
        !rulesets.contains("marches"),
        "a build's own list: {rulesets}"
    );
    // Taken out only when nothing plays it.
    let err = refused(d, &["house", "drop", "marches"]);
    assert!(
        err.contains("The Marches cannot be taken out: Red Hand plays it"),
        "{err}"
    );
    // Undo takes back the recruit, the gang and then the pack.
    for _ in 0..3 {
        ok(d, &["undo"]);
    }
    assert_eq!(
        ok(d, &["house", "list"]),
        "The campaign keeps no house rules\n"
    );
    ok(d, &["redo"]);
    assert!(ok(d, &["house", "list"]).starts_with("The Marches (marches)"));
    let verified = ok(d, &["verify"]);
    assert!(verified.contains("sound"), "{verified}");
    let said = ok(d, &["house", "drop", "marches"]);
    assert_eq!(
        said,
        "Took house rules The Marches (marches) out of the campaign\n"
    );
}

#[test]
fn a_bad_house_pack_is_refused_naming_the_entry_and_nothing_is_written() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer"]);
    let before = std::fs::read(d.join("c.rapsheet")).unwrap();
    // An entry of a category the pack does not have.
    std::fs::write(
        d.join("bad.toml"),
        MARCHES.replace("category = \"species\"", "category = \"ancestry\""),
    )
    .unwrap();
    let err = refused(d, &["house", "keep", "bad.toml"]);
    assert!(
        err.contains("bad.toml") && err.contains("ancestry"),
        "{err}"
    );
    // A pack of this build's own id.
    std::fs::write(
        d.join("same.toml"),
        MARCHES.replace("id = \"marches\"", "id = \"wayfarer\""),
    )
    .unwrap();
    let err = refused(d, &["house", "keep", "same.toml"]);
    assert!(
        err.contains("`wayfarer` is a pack of this build; house rules need an id of their own"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("c.rapsheet")).unwrap(), before);
}

/// Every `house` subcommand from the command line, on an HWC party whose
/// group writes its own data: a table of its own (001 prints none), a
/// lasting row, a counter's start, a stat's default, a weapon, then show,
/// export, drop and keep again.
#[test]
fn every_house_subcommand_works_from_the_command_line() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "hwc", "--name", "Relay"]);
    ok(d, &["gang", "new", "Crew"]);
    ok(d, &["fighter", "add", "Pim", "--gang", "Crew"]);
    let ours = ["--house", "ours"];
    let with = |args: &[&str]| -> Vec<String> {
        args.iter().chain(&ours).map(|a| (*a).to_owned()).collect()
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(d, &args)
    };
    // A new pack needs to say what it is over.
    let err = refused(
        d,
        &with(&["house", "stat", "poise", "--default", "1"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(err.contains("give --base PACK and --title TITLE"), "{err}");
    let said = run(with(&[
        "house",
        "table",
        "wounds",
        "--roll",
        "d6",
        "--row",
        "1-3=Bruised",
        "--row",
        "4-6=Scarred",
        "--during",
        "A character is knocked out",
        "--base",
        "hwc",
        "--title",
        "Our HWC",
        "--play",
    ]));
    assert!(said.contains("Kept Our HWC (ours)"), "{said}");
    run(with(&[
        "house",
        "row",
        "wounds",
        "--on",
        "4-6",
        "--name",
        "Scar",
        "--result",
        "A scar",
        "--lasting",
    ]));
    // A row taken out leaves totals no row covers: refused, the table is
    // as it was.
    let err = refused(
        d,
        &with(&["house", "remove-row", "wounds", "--on", "1-3"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(err.contains("lands on no row"), "{err}");
    run(with(&[
        "house", "row", "wounds", "--on", "1-3", "--result", "Winded",
    ]));
    // 001 prints no HP total: the group gives it.
    run(with(&[
        "house", "counter", "hp", "--start", "10", "--max", "10",
    ]));
    run(with(&["house", "stat", "poise", "--default", "1"]));
    // The entry subcommand that once could not be run at all.
    run(with(&[
        "house",
        "entry",
        "pistol",
        "--name",
        "Pistol",
        "--category",
        "weapons",
        "--tag",
        "projectile",
        "--text",
        "A sidearm",
    ]));
    let shown = ok(d, &["house", "show", "ours"]);
    assert!(shown.contains("Checks: no errors"), "{shown}");
    assert!(shown.contains("tables.wounds"), "{shown}");
    assert!(shown.contains("Pistol"), "{shown}");
    let list = ok(d, &["house", "list"]);
    assert!(list.contains("Our HWC"), "{list}");
    ok(d, &["house", "export", "ours", "-o", "ours.toml"]);
    let text = std::fs::read_to_string(d.join("ours.toml")).unwrap();
    assert!(text.contains("Scar"), "{text}");
    // Played by the party: cannot be dropped until nothing plays it.
    let err = refused(d, &["house", "drop", "ours"]);
    assert!(err.contains("Crew"), "{err}");
    ok(d, &["undo"]);
    ok(d, &["house", "keep", "ours.toml"]);
    assert!(ok(d, &["verify"]).contains("sound"));
}

/// A table the group entered is the one a record rolls and `table` reads;
/// a lasting row with no stat stays on the character; what the group
/// entered is labelled theirs in `fighter show`, the history and the
/// chronicle.
#[test]
fn the_groups_own_table_is_rolled_kept_and_labelled_as_theirs() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "hwc", "--name", "Relay"]);
    ok(d, &["gang", "new", "Crew"]);
    ok(d, &["fighter", "add", "Pim", "--gang", "Crew"]);
    ok(
        d,
        &[
            "house",
            "table",
            "--house",
            "ours",
            "--base",
            "hwc",
            "--title",
            "Our HWC",
            "wounds",
            "--roll",
            "d6",
            "--row",
            "1-3=Bruised",
            "--row",
            "4-6=Scarred",
            "--during",
            "A character is knocked out",
            "--play",
        ],
    );
    ok(
        d,
        &[
            "house",
            "row",
            "--house",
            "ours",
            "wounds",
            "--on",
            "4-6",
            "--name",
            "Scar",
            "--result",
            "A scar across the jaw",
            "--lasting",
        ],
    );
    // `table` reads the campaign's own: the group's rows, not the book's.
    let looked = ok(d, &["table", "wounds", "--total", "5"]);
    assert_eq!(looked, "wounds 5: A scar across the jaw\n");
    std::fs::write(
        d.join("s.json"),
        r#"{ "gangs": [{ "gang": "Crew", "fighters": [{ "fighter": "Pim" }] }],
            "table_results": [{ "fighter": "Pim", "table": "wounds", "total": 5 }] }"#,
    )
    .unwrap();
    let recorded = ok(d, &["battle", "record", "s.json", "--seed", "1"]);
    assert!(
        recorded.contains("wounds (Our HWC, house rules) 5: A scar"),
        "{recorded}"
    );
    // Lasting, with no stat: the result stays on the character, labelled.
    let pim = ok(d, &["fighter", "show", "Pim"]);
    assert!(
        pim.contains("#1 Scar: A scar across the jaw (Our HWC, house rules)"),
        "{pim}"
    );
    // The history and the chronicle say whose table it was, with no empty
    // dice list for a total entered by hand.
    assert!(
        pim.contains("Pim: wounds (Our HWC, house rules) d6 = 5: Scar (dice entered by hand)"),
        "{pim}"
    );
    ok(d, &["export", "campaign", "--format", "md", "-o", "c.md"]);
    let chronicle = std::fs::read_to_string(d.join("c.md")).unwrap();
    assert!(
        chronicle.contains("wounds (Our HWC, house rules) d6 = 5"),
        "{chronicle}"
    );
    assert!(!chronicle.contains("\\[\\]"), "{chronicle}");
    ok(d, &["undo"]);
    let pim = ok(d, &["fighter", "show", "Pim"]);
    assert!(!pim.contains("#1 Scar"), "{pim}");
    assert!(pim.contains("Pim: Scar taken back"), "{pim}");
}
