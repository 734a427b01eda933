//! The command line is the app's twin: every edit the app makes to a gang
//! or a fighter has a command, prints JSON with `--json`, refuses a bad name
//! in one line, and is one change that `rapsheet undo` takes back.

use crate::util;

use std::path::Path;

use serde_json::Value;
use util::{ok, rapsheet, stderr, temp};

fn refused(dir: &Path, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--db", "c.rapsheet"]);
    let out = rapsheet(dir, &all);
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("JSON")
}

/// A fighter as `fighter show --json` has them, without their history
/// (which keeps the undo too).
fn fighter(dir: &Path, name: &str) -> Value {
    let mut v = json(&ok(dir, &["fighter", "show", name, "--json"]));
    v.as_object_mut().unwrap().remove("history");
    v
}

/// Runs an edit, checks it changed what `check` reads, and that `undo`
/// takes it back.
fn undoable(dir: &Path, args: &[&str], read: &dyn Fn(&Path) -> Value) {
    let before = read(dir);
    ok(dir, args);
    assert_ne!(read(dir), before, "{args:?} changed nothing");
    ok(dir, &["undo"]);
    assert_eq!(read(dir), before, "{args:?} was not taken back");
}

#[test]
fn every_edit_of_the_app_has_a_command_that_undo_takes_back() {
    let dir = temp();
    let d = dir.path();
    ok(d, &["demo"]);
    let gang = |d: &Path| json(&ok(d, &["gang", "show", "Neon Jackals", "--json"]));
    let hush = |d: &Path| fighter(d, "Hush");
    undoable(
        d,
        &["gang", "notes", "Neon Jackals", "Owe the Saints a favour"],
        &gang,
    );
    undoable(d, &["fighter", "rename", "Hush", "Whisper"], &|d| {
        json(&ok(d, &["gang", "show", "Neon Jackals", "--json"]))
    });
    // A gang has one leader here: the one it has steps down first.
    undoable(d, &["fighter", "leader", "Vex Ninefingers", "--off"], &gang);
    ok(d, &["fighter", "leader", "Vex Ninefingers", "--off"]);
    undoable(d, &["fighter", "leader", "Hush"], &hush);
    ok(d, &["undo"]);
    undoable(d, &["fighter", "counter", "Hush", "Bounty", "3"], &hush);
    undoable(d, &["fighter", "notes", "hush", "Never speaks"], &hush);
    undoable(d, &["fighter", "quirk", "add", "Hush", "Iconic"], &hush);
    undoable(d, &["fighter", "dismiss", "Hush"], &gang);
    undoable(
        d,
        &["gang", "rename", "Neon Jackals", "Neon Hounds"],
        &|d| json(&ok(d, &["gang", "list", "--json"])),
    );

    // `--json` prints the fighter as `fighter show --json` does.
    let shown = json(&ok(
        d,
        &["fighter", "counter", "Hush", "bounty", "2", "--json"],
    ));
    assert_eq!(shown["counters"]["bounty"], 2, "{shown:#}");
    ok(d, &["fighter", "quirk", "add", "Hush", "Iconic"]);
    let text = ok(d, &["fighter", "quirk", "remove", "Hush", "Iconic"]);
    assert!(!text.contains("Iconic"), "{text}");
}

#[test]
fn a_bad_name_is_one_line_and_changes_nothing() {
    let dir = temp();
    let d = dir.path();
    ok(d, &["demo"]);
    let before = ok(d, &["log", "--limit", "1"]);
    for args in [
        &["fighter", "rename", "Nobody", "X"][..],
        &["gang", "rename", "No Gang", "X"],
        &["fighter", "counter", "Hush", "Grudges", "1"],
        &["fighter", "quirk", "add", "Hush", "Not A Quirk"],
        &["fighter", "quirk", "remove", "Hush", "Iconic"],
    ] {
        refused(d, args);
    }
    assert_eq!(ok(d, &["log", "--limit", "1"]), before);
}

#[test]
fn a_resource_action_prints_both_gangs_standings() {
    let dir = temp();
    let d = dir.path();
    ok(d, &["demo"]);
    ok(
        d,
        &[
            "resource",
            "supply",
            "3",
            "--gang",
            "The Rust Saints",
            "--reason",
            "test",
        ],
    );
    ok(
        d,
        &[
            "resource",
            "ammo",
            "1",
            "--gang",
            "Neon Jackals",
            "--reason",
            "test",
        ],
    );
    // 003: Falsify Scarcity, "Take 1 Territory or Ammo from another gang."
    let out = json(&ok(
        d,
        &[
            "action",
            "Falsify Scarcity",
            "--gang",
            "The Rust Saints",
            "--target",
            "Neon Jackals",
            "--choice",
            "ammo",
            "--json",
        ],
    ));
    let gangs: Vec<&str> = out
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["gang"].as_str().unwrap())
        .collect();
    assert_eq!(gangs, ["The Rust Saints", "Neon Jackals"]);
    let text = ok(
        d,
        &[
            "resource",
            "supply",
            "1",
            "--gang",
            "Neon Jackals",
            "--reason",
            "x",
        ],
    );
    assert!(text.starts_with("Neon Jackals: Supply 1"), "{text}");
}
