//! Hardwired 28 (rule text 000) recorded as the pack says a game is: one
//! faction or two, no scenario, the Criticals, Fumbles, Search Findings and
//! Interrogate Results rolled during the game, Health restored after it and
//! the Performance Review of a model that fled off the table. Through the
//! core, the command line and the app; and taken back.
//!
//! Every roll is entered by hand unless a test says otherwise. Rules
//! assertions quote the line of 000 they check, or name the pack's ruling.

use crate::util;

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

/// A game where Mags flees off the table after finding a Merit twice, and
/// Rook, Out of Action, finds one.
fn merits_job() -> BattleReport {
    let mut r = report(json!({
        "gangs": [{"gang": "Night Shift", "fighters": [
            {"fighter": "Rook", "outcome": "out_of_action"},
            {"fighter": "Mags", "outcome": "exited"},
        ]}],
        "table_results": [
            {"fighter": "Mags", "table": "search-findings", "total": 17},
            {"fighter": "Mags", "table": "interrogate"},
            {"fighter": "Rook", "table": "search-findings", "total": 17},
        ],
    }));
    // 000: "| 7 | Talkative | 1 Evidence, +1 Lead |" is not rolled: "| 8 |
    // Full Disclosure | 1 Merit |" is.
    dice(&mut r, "interrogate: Mags", &[4, 4]);
    dice(&mut r, "performance-review: Mags", &[2]);
    r
}

#[test]
fn a_model_that_flees_off_the_table_gains_no_merits_and_undo_takes_it_back() {
    let (_dir, mut s, _rook, _mags) = night_shift();
    let before = s.dump().expect("dump");
    let recorded = s.record_battle(&merits_job(), SEED).expect("record");
    // 000:99: "If exits: drops items, no Merits." Mags's "| 17 | 1 Merit |"
    // and "| 8 | Full Disclosure | 1 Merit |" give nothing; Rook, Out of
    // Action, gets the Merit of his "| 17 | 1 Merit |".
    assert_eq!(amount(&s, "merits"), 1);
    let said: Vec<&str> = recorded
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert!(
        said.contains(&"Mags: no Merits from 1 Merit (Fled off the table)"),
        "{said:#?}"
    );
    assert!(
        said.contains(&"Mags: no Merits from Full Disclosure (Fled off the table)"),
        "{said:#?}"
    );
    s.undo_last().expect("undo");
    assert_eq!(s.dump().expect("dump"), before, "undo restores everything");
}

#[test]
fn a_model_that_flees_off_the_table_gains_no_merits_from_the_command_line() {
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
        serde_json::to_string(&merits_job()).unwrap(),
    )
    .unwrap();
    let out = run(&["battle", "record", "job.json", "--seed", "1"]);
    // 000:99: "If exits: drops items, no Merits."
    assert!(
        out.contains("Mags: no Merits from Full Disclosure (Fled off the table)"),
        "{out}"
    );
    let shown = run(&["gang", "show", "Night Shift"]);
    assert!(shown.contains("Merits 1"), "{shown}");
    run(&["battle", "undo"]);
    let shown = run(&["gang", "show", "Night Shift"]);
    assert!(shown.contains("Merits 0"), "{shown}");
}

/// The group's own powers: the quick reference names none (ruling
/// forget-power).
const POWERS: &str = r#"
[pack]
id = "our-hw28"
name = "Our Hardwired 28"
format = 1
version = "0.1.0"
base = "hardwired28"
source = "Our group's house rules"

[[quirks]]
id = "ion-lance"
name = "Ion Lance"
category = "power"
source = "House rules"

[[quirks]]
id = "static-veil"
name = "Static Veil"
category = "power"
source = "House rules"
"#;

/// A Broadcast Storm for Mags, with the power the player names, if any.
fn storm(pick: Option<&str>) -> BattleReport {
    let mut r = report(json!({
        "gangs": [{"gang": "Night Shift"}],
        "table_results": [{"fighter": "Mags", "table": "fumbles-broadcast", "total": 6}],
    }));
    if let Some(pick) = pick {
        r.picks.push(
            serde_json::from_value(json!({"roll": "fumbles-broadcast: Mags", "pick": pick}))
                .unwrap(),
        );
    }
    r
}

fn powers(s: &Session, fighter: FighterId) -> Vec<String> {
    s.fighter_details(fighter)
        .expect("details")
        .view
        .quirks
        .iter()
        .map(|q| q.name.clone())
        .collect()
}

#[test]
fn broadcast_storm_takes_the_power_the_player_names_off_the_model_and_undo_gives_it_back() {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("h.rapsheet"), "Quarter 3", "hardwired28")
        .expect("create");
    s.keep_house_pack("powers.toml", POWERS).expect("keep");
    let (gang, _) = s
        .found_gang("Night Shift", Some("our-hw28"))
        .expect("found");
    s.recruit(
        gang,
        NewFighter {
            name: "Mags".into(),
            quirks: vec![
                rapsheet::campaign::QuirkPick::new("ion-lance"),
                rapsheet::campaign::QuirkPick::new("static-veil"),
            ],
            ..Default::default()
        },
    )
    .expect("recruit");
    let mags = s.fighter_named("Mags", None).expect("Mags").id;

    // 000:235: "| 6+ | Broadcast Storm | Forget power permanently |": the
    // text does not say which power; the player picks (ruling forget-power).
    let preview = s.preview_battle(&storm(None), SEED).expect("preview");
    let needed = &preview.procedure().needed;
    assert_eq!(needed.len(), 1, "{needed:#?}");
    assert_eq!(needed[0].rule, "fumbles-broadcast: Mags");
    assert_eq!(needed[0].text, "Mags loses one of Powers: which?");
    assert_eq!(needed[0].options, ["ion-lance", "static-veil"]);

    let r = storm(Some("Ion Lance"));
    let e = refused(&s, &storm(Some("Fireball")));
    assert_eq!(e.field, "picks[fumbles-broadcast: Mags]");
    let before = s.dump().expect("dump");
    s.record_battle(&r, SEED).expect("record");
    assert_eq!(powers(&s, mags), ["Static Veil"], "the power is gone");
    let effects = s.lasting_effects(mags).expect("effects");
    assert_eq!(effects.len(), 1);
    assert_eq!(effects[0].name, "Broadcast Storm");
    assert_eq!(effects[0].lost_quirk.as_deref(), Some("ion-lance"));

    s.undo_last().expect("undo");
    assert_eq!(s.dump().expect("dump"), before, "undo restores everything");
    assert_eq!(powers(&s, mags), ["Ion Lance", "Static Veil"]);
}

#[test]
fn broadcast_storm_takes_the_power_named_from_the_command_line() {
    let dir = util::temp();
    let d = dir.path();
    let run = |args: &[&str]| util::ok(d, args);
    run(&["new", "--ruleset", "hardwired28", "--name", "Quarter 3"]);
    std::fs::write(d.join("powers.toml"), POWERS).unwrap();
    run(&["house", "keep", "powers.toml"]);
    run(&["gang", "new", "Night Shift", "--ruleset", "our-hw28"]);
    run(&[
        "fighter",
        "add",
        "Mags",
        "--gang",
        "Night Shift",
        "--quirk",
        "Ion Lance",
        "--quirk",
        "Static Veil",
    ]);
    let quirks = |run: &dyn Fn(&[&str]) -> String| -> Vec<String> {
        let shown: Value =
            serde_json::from_str(&run(&["fighter", "show", "Mags", "--json"])).expect("json");
        shown["quirks"]
            .as_array()
            .expect("quirks")
            .iter()
            .map(|q| q["name"].as_str().unwrap().to_owned())
            .collect()
    };
    std::fs::write(
        d.join("storm.json"),
        serde_json::to_string(&storm(Some("Static Veil"))).unwrap(),
    )
    .unwrap();
    // 000:235: "| 6+ | Broadcast Storm | Forget power permanently |"
    let out = run(&["battle", "record", "storm.json", "--seed", "1"]);
    assert!(out.contains("Mags loses Static Veil"), "{out}");
    assert_eq!(quirks(&run), ["Ion Lance"]);
    run(&["battle", "undo"]);
    assert_eq!(quirks(&run), ["Ion Lance", "Static Veil"]);
}

#[test]
fn a_damaged_model_shows_as_wounded_with_the_health_it_has_left() {
    let (_dir, mut s, rook, mags) = night_shift();
    s.record_battle(&the_job(), SEED).expect("record");
    // 000:32-33: "Wounded | Model below max Health." Mags carries the 4
    // damage of the Performance Review (the_job) into the next game.
    let view = s.fighter_details(mags).expect("details").view;
    assert_eq!(view.lowered.len(), 1);
    assert_eq!(view.lowered[0].text, "Wounded: Health 6 of 10");
    assert!(
        s.fighter_details(rook)
            .expect("details")
            .view
            .lowered
            .is_empty()
    );
    // The printed card says so in its status strip.
    let gang = s.gang_named("Night Shift").expect("gang").id;
    let cards = s.cards(gang, &["Mags".into()]).expect("cards");
    assert_eq!(cards[0].status.as_deref(), Some("Wounded: Health 6 of 10"));
}

#[test]
fn a_damaged_model_shows_as_wounded_from_the_command_line() {
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
    run(&["battle", "record", "job.json", "--seed", "1"]);
    // 000:32-33: "Wounded | Model below max Health."
    let shown = run(&["fighter", "show", "Mags"]);
    assert!(shown.contains("\n  Wounded: Health 6 of 10\n"), "{shown}");
    let shown = run(&["fighter", "show", "Rook"]);
    assert!(!shown.contains("Wounded"), "{shown}");
    let json: Value =
        serde_json::from_str(&run(&["fighter", "show", "Mags", "--json"])).expect("json");
    let lowered = &json["lowered"][0];
    assert_eq!(lowered["word"], "Wounded");
    assert_eq!(
        (lowered["value"].as_i64(), lowered["of"].as_i64()),
        (Some(6), Some(10))
    );
}

/// The step and the dice of a tier check's roll, with each face.
fn tier_roll(rolled: &rapsheet::session::CheckRolled) -> (String, String, Vec<u32>) {
    match &rolled.result {
        rapsheet::campaign::checks::CheckRoll::Tier { steps, roll, .. } => {
            (steps.clone(), roll.expression.clone(), roll.dice.clone())
        }
        other => panic!("not a tier roll: {other:?}"),
    }
}

#[test]
fn an_attribute_rolls_its_tier_stepped_along_the_ladder() {
    let (_dir, mut s, rook, mags) = night_shift();
    // 000:4-6: "2d4 → 2d6 → 2d8 → 2d10 → 2d12", "← -1 DT | +1 DT →",
    // "Roll 2 dice, add results. Never below 2d4 or above 2d12."
    let roll = |s: &Session, who, check, modifier| {
        tier_roll(
            &s.roll_fighter_check(who, check, 3, modifier)
                .expect("rolled"),
        )
    };
    let (steps, dice, faces) = roll(&s, mags, "Wits", 0);
    assert_eq!((steps.as_str(), dice.as_str()), ("2d6", "2d6"));
    assert!(faces.len() == 2 && faces.iter().all(|f| (1..=6).contains(f)));
    let (steps, dice, faces) = roll(&s, mags, "wits", 1);
    assert_eq!((steps.as_str(), dice.as_str()), ("2d6 +1 DT → 2d8", "2d8"));
    assert!(faces.len() == 2 && faces.iter().all(|f| (1..=8).contains(f)));
    let (steps, dice, _) = roll(&s, mags, "wits", -3);
    assert_eq!(
        (steps.as_str(), dice.as_str()),
        ("2d6 -3 DT → 2d4 (held at the ladder's lowest, 2d4)", "2d4")
    );
    let (steps, dice, _) = roll(&s, mags, "defense", 4);
    assert_eq!(
        (steps.as_str(), dice.as_str()),
        (
            "2d6 +4 DT → 2d12 (held at the ladder's highest, 2d12)",
            "2d12"
        )
    );
    // 000:50: "| Aim | Declare target. +1 DT Combat on your next shot"
    let aimed = s
        .roll_fighter_check_as(mags, "combat", "aim", 3, 0)
        .expect("aim");
    assert_eq!(tier_roll(&aimed).0, "2d6 +1 DT → 2d8");
    // 000:153: "| 5 | Maimed | -1 DT Combat permanently |" leaves Rook at
    // 2d4; a Riposte (000:75: "If Riposte: roll Combat at -1 DT") goes no
    // lower.
    s.record_battle(&the_job(), SEED).expect("record");
    let riposte = s
        .roll_fighter_check_as(rook, "combat", "riposte", 3, 0)
        .expect("riposte");
    assert_eq!(
        tier_roll(&riposte).0,
        "2d4 -1 DT → 2d4 (held at the ladder's lowest, 2d4)"
    );
}

#[test]
fn an_attribute_rolls_its_tier_from_the_command_line() {
    let dir = util::temp();
    let d = dir.path();
    let run = |args: &[&str]| util::ok(d, args);
    run(&["new", "--ruleset", "hardwired28", "--name", "Quarter 3"]);
    run(&["gang", "new", "Night Shift"]);
    run(&["fighter", "add", "Mags", "--gang", "Night Shift"]);
    // 000:5: "← -1 DT | +1 DT →"
    let out = run(&[
        "fighter",
        "check",
        "Mags",
        "Wits",
        "--seed",
        "5",
        "--modifier",
        "1",
    ]);
    assert!(out.starts_with("Mags Wits: 2d6 +1 DT → 2d8 = "), "{out}");
    assert!(out.trim_end().ends_with("(seed 5)"), "{out}");
    // 000:6: "Never below 2d4 or above 2d12."
    let out = run(&[
        "fighter",
        "check",
        "Mags",
        "Wits",
        "--seed",
        "5",
        "--modifier",
        "-2",
    ]);
    assert!(
        out.starts_with("Mags Wits: 2d6 -2 DT → 2d4 (held at the ladder's lowest, 2d4) = "),
        "{out}"
    );
    let json: Value = serde_json::from_str(&run(&[
        "fighter",
        "check",
        "Mags",
        "Wits",
        "--seed",
        "5",
        "--modifier",
        "9",
        "--json",
    ]))
    .expect("json");
    let result = &json["roll"]["result"];
    assert_eq!(result["kind"], "tier");
    assert_eq!(result["roll"]["expression"], "2d12");
    assert_eq!(result["shift"]["clamped"], true);
    let shown = run(&["fighter", "show", "Mags"]);
    assert!(shown.contains("  Wits: 2d6 (Wits)"), "{shown}");
}

#[test]
fn the_app_rolls_a_tier_a_step_up_and_shows_a_wounded_model() {
    let (_dir, mut s, _rook, _mags) = night_shift();
    s.record_battle(&the_job(), SEED).expect("record");
    let mut harness = Harness::builder()
        .with_size([1400.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
    harness.run();
    harness.get_by_label("Mags").click();
    harness.run();
    // 000:32-33: "Wounded | Model below max Health." (4 damage of 10)
    assert!(
        harness.query_by_label("Wounded: Health 6 of 10").is_some(),
        "the editor shows the model wounded"
    );
    // 000:5: "← -1 DT | +1 DT →"
    harness.get_by_label("Roll Wits +1 DT").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("Wits: 2d6 +1 DT → 2d8 = ")
            .is_some(),
        "the roll line shows the step: {:?}",
        harness.state().status_text()
    );
}

/// A model's card heads its gear as gear (the roster's column, the pack's
/// entries) and lists its attribute rolls under a heading of their own, not
/// under another game's "QUIRKS".
#[test]
fn a_models_card_heads_its_gear_and_its_rolls_in_the_packs_words() {
    let (_dir, s, _, _) = night_shift();
    let gang = s.gang_list().expect("gangs")[0].id;
    let cards = s.cards(gang, &[]).expect("cards");
    assert_eq!(cards.len(), 2);
    for card in &cards {
        assert_eq!(card.quirks_heading, "GEAR");
        assert!(
            card.quirks.iter().all(|l| !l.contains("2d6 (")),
            "{:?}",
            card.quirks
        );
        let rolls = card.groups.iter().find(|(heading, _)| heading == "ROLLS");
        assert!(
            rolls.is_some_and(|(_, lines)| !lines.is_empty()),
            "{card:#?}"
        );
    }
}
