//! A purchase or an edit that would break a limit the pack states is
//! refused before anything is paid or written, naming the rule and its
//! source — from the command line and from the app alike. A gang still
//! being built (short of its entries, its leader, a pair) is not refused:
//! it is built a step at a time.

use crate::util;

use std::path::Path;

use rapsheet::session::Session;
use rapsheet::ui::{Action, FighterAction, GangAction, RapsheetApp};

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = args.to_vec();
    all.extend(["--db", "c.rapsheet"]);
    util::rapsheet(dir, &all)
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(out.status.success(), "{args:?}: {}", util::stderr(&out));
    util::stdout(&out)
}

fn refused(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(!out.status.success(), "{args:?} was accepted");
    let err = util::stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    err
}

/// A Wayfarer warband with a Bestial unit and Resources to spend.
fn warband_with_a_beast(dir: &Path) {
    ok(dir, &["demo", "--ruleset", "wayfarer"]);
    ok(
        dir,
        &[
            "fighter",
            "add",
            "Fang",
            "--gang",
            "The Tusk Road",
            "--quirk",
            "Troop",
            "--quirk",
            "Orc",
            "--quirk",
            "Bestial",
        ],
    );
    ok(
        dir,
        &[
            "resource",
            "resources",
            "50",
            "--gang",
            "The Tusk Road",
            "--reason",
            "a haul",
        ],
    );
}

fn resources(dir: &Path) -> i64 {
    let session = Session::open(&dir.join("c.rapsheet")).unwrap();
    let gang = session.gang_named("The Tusk Road").unwrap();
    gang.resources["resources"]
}

#[test]
fn equipment_bought_for_a_bestial_unit_is_refused_before_it_is_paid() {
    let dir = util::temp();
    let d = dir.path();
    warband_with_a_beast(d);
    let log = ok(d, &["log"]);
    // 004:808-809 (BESTIAL): "You may never use equipment or possess a
    // Technical OFF score higher than zero."
    let err = refused(d, &["fighter", "buy", "Fang", "Sword"]);
    assert!(
        err.contains("A Bestial unit may never use equipment"),
        "{err}"
    );
    assert!(
        err.contains("004: BESTIAL (lines 808-809)"),
        "the source: {err}"
    );
    assert_eq!(resources(d), 50, "nothing paid");
    assert_eq!(ok(d, &["log"]), log, "nothing written");
    let fang = ok(d, &["fighter", "show", "Fang"]);
    assert!(!fang.contains("Sword"), "{fang}");
    // Bought for a unit that may use it, it is paid for (004, Sword:
    // "COST: +11").
    ok(d, &["fighter", "buy", "Snag", "Sword"]);
    assert_eq!(resources(d), 39);
}

#[test]
fn a_recruit_or_an_entry_that_breaks_a_limit_is_refused_and_a_gang_still_being_built_is_not() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--name", "Sector 9"]);
    ok(d, &["gang", "new", "Ash Dogs"]);
    // Short of its four quirks and its gang's leader: added, and the
    // problems are printed.
    let out = ok(
        d,
        &[
            "fighter",
            "add",
            "Cinder",
            "--gang",
            "Ash Dogs",
            "--quirk",
            "Heavy Armor",
        ],
    );
    assert!(out.contains("Cinder"), "{out}");
    // 003, Gear: "A fighter may only have 1 Armor Quirk."
    let err = refused(d, &["fighter", "quirk", "add", "Cinder", "Light Armor"]);
    assert!(
        err.contains("A fighter may only have 1 Armor Quirk"),
        "{err}"
    );
    assert!(
        err.contains("003: Gear, LIGHT ARMOR and HEAVY ARMOR"),
        "{err}"
    );
    // 003, LIGHTWEIGHT: "This fighter cannot have armor."
    let err = refused(
        d,
        &[
            "fighter",
            "add",
            "Wisp",
            "--gang",
            "Ash Dogs",
            "--quirk",
            "Lightweight",
            "--quirk",
            "Light Armor",
        ],
    );
    assert!(
        err.contains("Lightweight: this fighter cannot have armor"),
        "{err}"
    );
    let err = refused(d, &["fighter", "show", "Wisp"]);
    assert!(err.contains("no fighter called"), "{err}");
    // 003, BONDED: "This quirk must be given to exactly two fighters in
    // your gang." One Bonded fighter is a gang on its way to two.
    ok(d, &["fighter", "quirk", "add", "Cinder", "Bonded"]);
    let show = ok(d, &["gang", "show", "Ash Dogs"]);
    assert!(show.contains("exactly two fighters"), "{show}");
}

#[test]
fn the_app_refuses_the_same_purchase_and_says_why() {
    let dir = util::temp();
    let d = dir.path();
    warband_with_a_beast(d);
    let session = Session::open(&d.join("c.rapsheet")).unwrap();
    let fang = session.fighter_named("Fang", None).unwrap();
    let sword = session
        .resolve_quirks(fang.gang, &["Sword".to_owned()])
        .unwrap()
        .remove(0);
    let mut app = RapsheetApp::with_session(session);
    app.run_action(Action::Gang(GangAction::Select(fang.gang)));
    app.run_action(Action::Fighter(FighterAction::BuyQuirk(fang.id, sword)));
    let status = app.status_text().unwrap_or_default().to_owned();
    assert!(
        status.contains("A Bestial unit may never use equipment"),
        "{status}"
    );
    assert!(status.contains("004: BESTIAL"), "{status}");
    drop(app);
    assert_eq!(resources(d), 50, "nothing paid");
}
