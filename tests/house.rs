#![allow(clippy::unwrap_used, clippy::expect_used)]

//! House rules kept in the campaign: a group's own pack, put in the file
//! with `rapsheet house keep`, read by every later opening (another
//! process, another laptop), labelled house rules, taken out only when
//! nothing plays it, and every step taken back by undo.

mod util;

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
