#![allow(clippy::unwrap_used, clippy::expect_used)]

//! Hardwired 28 (rule text 000) recorded as the pack says a game is: one
//! faction or two, no scenario, the Criticals, Fumbles, Search Findings and
//! Interrogate Results rolled during the game, Health restored after it and
//! the Performance Review of a model that fled off the table. Through the
//! core, the command line and the app; and taken back.
//!
//! Every roll is entered by hand unless a test says otherwise. Rules
//! assertions quote the line of 000 they check, or name the pack's ruling.

mod util;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rapsheet::campaign::FighterId;
use rapsheet::campaign::battle::{BattleReport, EnteredDice, ReportError};
use rapsheet::campaign::commands::NewFighter;
use rapsheet::session::Session;
use rapsheet::ui::RapsheetApp;
use serde_json::{Value, json};

const SEED: u64 = 28;

/// A Hardwired 28 campaign with one faction, Night Shift: Rook (its Boss)
/// and Mags.
fn night_shift() -> (tempfile::TempDir, Session, FighterId, FighterId) {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("h.rapsheet"), "Quarter 3", "hardwired28")
        .expect("create");
    let (gang, _) = s.found_gang("Night Shift", None).expect("found");
    let mut recruit = |name: &str, leader: bool| {
        s.recruit(
            gang,
            NewFighter {
                name: name.into(),
                leader,
                ..Default::default()
            },
        )
        .expect("recruit")
    };
    recruit("Rook", true);
    recruit("Mags", false);
    let rook = s.fighter_named("Rook", None).expect("Rook").id;
    let mags = s.fighter_named("Mags", None).expect("Mags").id;
    (dir, s, rook, mags)
}

fn report(value: Value) -> BattleReport {
    serde_json::from_value(value).expect("a well-formed report")
}

fn dice(r: &mut BattleReport, roll: &str, faces: &[u32]) {
    r.dice.push(EnteredDice {
        roll: roll.into(),
        faces: faces.to_vec(),
    });
}

fn stat(s: &Session, fighter: FighterId, id: &str) -> i64 {
    s.fighter_details(fighter)
        .expect("details")
        .view
        .stats
        .iter()
        .find(|x| x.id == id)
        .unwrap_or_else(|| panic!("no stat {id}"))
        .value
}

fn damage(s: &Session, fighter: FighterId) -> i64 {
    s.fighter(fighter)
        .expect("fighter")
        .counters
        .get("damage")
        .copied()
        .unwrap_or(0)
}

fn amount(s: &Session, resource: &str) -> i64 {
    let g = s.gang_named("Night Shift").expect("gang");
    g.resources.get(resource).copied().unwrap_or(0)
}

fn refused(s: &Session, r: &BattleReport) -> ReportError {
    let err = s.preview_battle(r, SEED).expect_err("refused");
    err.downcast_ref::<ReportError>()
        .unwrap_or_else(|| panic!("not a report error: {err:#}"))
        .clone()
}

/// The game the tests record: Rook suffers a Maimed critical and goes Out
/// of Action; Mags searches, interrogates and flees off the table.
fn the_job() -> BattleReport {
    let mut r = report(json!({
        "gangs": [{"gang": "Night Shift", "fighters": [
            {"fighter": "Rook", "outcome": "out_of_action"},
            {"fighter": "Mags", "outcome": "exited"},
        ]}],
        "table_results": [
            {"fighter": "Rook", "table": "criticals-bladed", "total": 5},
            {"fighter": "Mags", "table": "Search Findings"},
            {"fighter": "Mags", "table": "interrogate"},
        ],
    }));
    // 000: "| 8 | 8 subs |"
    dice(&mut r, "search-findings: Mags", &[8]);
    // 000: "| 7 | Talkative | 1 Evidence, +1 Lead |"
    dice(&mut r, "interrogate: Mags", &[3, 4]);
    // 000: "Performance Review: d6 damage after restoring Health."
    dice(&mut r, "performance-review: Mags", &[4]);
    r
}

#[test]
fn a_game_of_one_faction_is_recorded_without_a_scenario_and_taken_back() {
    let (_dir, mut s, rook, mags) = night_shift();
    let before = s.dump().expect("dump");
    let recorded = s.record_battle(&the_job(), SEED).expect("record");
    assert_eq!(recorded.procedure.battle.scenario, None);
    assert_eq!(recorded.procedure.battle.winner, None);

    // 000: "| 5 | Maimed | -1 DT Combat permanently |": a lasting injury.
    assert_eq!(stat(&s, rook, "combat"), 1);
    let effects = s.lasting_effects(rook).expect("effects");
    assert_eq!(effects.len(), 1);
    assert_eq!(effects[0].name, "Maimed");
    // Search Findings "| 8 | 8 subs |" and Interrogate Results "| 7 |
    // Talkative | 1 Evidence, +1 Lead |" go to the model's faction
    // (ruling currencies-per-gang).
    assert_eq!(amount(&s, "subs"), 8);
    assert_eq!(amount(&s, "evidence"), 1);
    assert_eq!(amount(&s, "leads"), 1);
    // 000: "If exits: drops items, no Merits. Performance Review: d6 damage
    // after restoring Health." (ruling performance-review)
    assert_eq!(damage(&s, mags), 4);
    assert_eq!(damage(&s, rook), 0);
    let log = s.log(5).expect("log");
    assert!(log.iter().any(|l| l.label == "Game #1"), "{log:#?}");

    s.undo_last().expect("undo");
    assert_eq!(s.dump().expect("dump"), before, "undo restores everything");
    assert_eq!(stat(&s, rook, "combat"), 2);
    s.verify().expect("verify");
}

#[test]
fn health_is_restored_at_the_end_of_the_next_game() {
    let (_dir, mut s, _rook, mags) = night_shift();
    s.record_battle(&the_job(), SEED).expect("record");
    assert_eq!(damage(&s, mags), 4);
    // Mags plays the next game wounded and comes through: Health is
    // restored after it (ruling performance-review).
    let next = report(json!({"gangs": [{"gang": "Night Shift"}]}));
    let recorded = s.record_battle(&next, SEED).expect("record");
    assert_eq!(damage(&s, mags), 0);
    assert!(
        recorded
            .procedure
            .changes
            .iter()
            .any(|c| c.text == "Mags: Damage 4 → 0" && c.ruling.is_some()),
        "{:#?}",
        recorded.procedure.changes
    );
}

#[test]
fn search_findings_twenty_rolls_twice_ignoring_twenties() {
    let (_dir, mut s, _rook, _mags) = night_shift();
    let mut r = report(json!({
        "gangs": [{"gang": "Night Shift"}],
        "table_results": [{"fighter": "Mags", "table": "search-findings", "total": 20}],
    }));
    // 000: "| 20 | Roll twice (ignore 20s) |": a 20 again is rolled again.
    dice(&mut r, "search-findings again 1.1: Mags", &[20]);
    dice(&mut r, "search-findings again 1.2: Mags", &[3]);
    dice(&mut r, "search-findings again 2.1: Mags", &[18]);
    s.record_battle(&r, SEED).expect("record");
    // 000: "| 3 | 4 subs |", "| 18 | 20 subs |"
    assert_eq!(amount(&s, "subs"), 24);
}

#[test]
fn a_record_against_the_pack_is_refused_naming_the_field() {
    let (_dir, mut s, _rook, _mags) = night_shift();
    s.found_gang("Day Shift", None).expect("found");
    s.found_gang("Swing Shift", None).expect("found");

    let mut r = report(json!({"scenario": "Dead Drop", "gangs": [{"gang": "Night Shift"}]}));
    let e = refused(&s, &r);
    assert_eq!(e.field, "scenario");
    assert!(e.reason.contains("plays no scenarios"), "{e}");

    // ruling game-record: one faction, or two.
    r = report(json!({"gangs": [
        {"gang": "Night Shift"}, {"gang": "Day Shift"}, {"gang": "Swing Shift"}
    ]}));
    let e = refused(&s, &r);
    assert_eq!(e.field, "gangs");
    assert!(e.reason.contains("1 to 2"), "{e}");

    // Corporate Blessings are rolled each round; nothing of theirs lasts.
    r = report(json!({
        "gangs": [{"gang": "Night Shift"}],
        "table_results": [{"fighter": "Rook", "table": "corporate-blessings", "total": 3}],
    }));
    let e = refused(&s, &r);
    assert_eq!(e.field, "table_results[0].table");
    assert!(e.reason.contains("not rolled during a game"), "{e}");

    // A counter the record does not change.
    r = report(json!({"gangs": [{"gang": "Night Shift", "fighters": [
        {"fighter": "Rook", "counters": {"damage": 3}}
    ]}]}));
    let e = refused(&s, &r);
    assert_eq!(e.field, "gangs[0].fighters[0].counters.damage");

    // Two factions may name a winner, or not (ruling game-record).
    r = report(
        json!({"gangs": [{"gang": "Night Shift"}, {"gang": "Day Shift"}], "winner": "Day Shift"}),
    );
    let recorded = s.record_battle(&r, SEED).expect("a winner may be named");
    assert!(recorded.procedure.battle.winner.is_some());
}

#[test]
fn a_game_is_recorded_and_taken_back_from_the_command_line() {
    let dir = util::temp();
    let d = dir.path();
    let run = |args: &[&str]| util::ok(d, args);
    run(&["new", "--ruleset", "hardwired28", "--name", "Quarter 3"]);
    run(&["gang", "new", "Night Shift"]);
    run(&[
        "fighter",
        "add",
        "Rook",
        "--gang",
        "Night Shift",
        "--leader",
    ]);
    run(&["fighter", "add", "Mags", "--gang", "Night Shift"]);
    std::fs::write(
        d.join("job.json"),
        serde_json::to_string(&the_job()).unwrap(),
    )
    .unwrap();
    let out = run(&["battle", "record", "job.json", "--seed", "1"]);
    assert!(out.starts_with("Recorded game #1"), "{out}");
    assert!(
        out.contains("Maimed") || out.contains("-1 DT Combat permanently"),
        "{out}"
    );
    assert!(out.contains("Mags: Damage 0 → 4"), "{out}");
    let shown = run(&["gang", "show", "Night Shift"]);
    assert!(shown.contains("subs 8"), "{shown}");
    let out = run(&["battle", "undo"]);
    assert!(out.contains("Took back game #1"), "{out}");
    let shown = run(&["gang", "show", "Night Shift"]);
    assert!(shown.contains("subs 0"), "{shown}");
    run(&["verify"]);
}

#[test]
fn a_game_is_recorded_and_taken_back_in_the_app() {
    let (_dir, s, rook, _mags) = night_shift();
    let mut harness = Harness::builder()
        .with_size([1280.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    assert!(harness.query_by_label("Record a game").is_some());
    // No scenario to choose, no "Ran For It": the pack has neither.
    assert!(harness.query_by_label("Scenario").is_none());
    assert!(harness.query_by_label_contains("Ran For It").is_none());
    harness.get_by_label("Add a table result").click();
    harness.run();
    harness.get_by_label("Commit game").click();
    harness.run();
    let status = harness.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("Game #1 recorded"), "{status}");
    let path = harness.state().campaign_path().expect("path").to_owned();
    let session = Session::open(&path).expect("open");
    assert_eq!(session.battles().unwrap().len(), 1);
    // The result added was the first table of the record's list, rolled
    // by the app: Criticals: Bladed for Rook.
    let (_, events) = session
        .batch(session.newest_batch().unwrap().unwrap())
        .unwrap();
    assert!(
        events.iter().any(|e| matches!(e,
            rapsheet::campaign::Event::TableRolled { table, fighter: Some(f), .. }
                if table == "criticals-bladed" && *f == rook)),
        "{events:#?}"
    );
    drop(session);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    let session = Session::open(&path).expect("open");
    assert!(session.battles().unwrap().is_empty());
}
