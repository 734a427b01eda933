//! Injuries, advancement and what they leave on a fighter for good,
//! against the rule texts: Wayfarer Tactics' POST-BATTLE INJURY and
//! ADVANCEMENT tables (seed 004), the escalation house rules that put those
//! tables on Heartbreaker (the demo), and Hardwired 28's lasting criticals
//! (seed 000). Then captives, healing, undo and the command line.
//!
//! Every roll the procedure makes is entered by hand (`dice`), so no test
//! depends on a seed's luck: `record` checks that no roll was left to the
//! app. Every rules assertion cites the sentence it checks in a
//! `// 004: "…"` or `// 000: "…"` comment; where the text is silent the
//! pack's ruling is named as `// ruling id`.

use crate::util;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rapsheet::campaign::battle::{
    AdvancementReport, BattleReport, EnteredDice, PickReport, Procedure, ReportError,
};
use rapsheet::campaign::commands::{AftermathError, NewFighter};
use rapsheet::campaign::{EffectId, FighterId, FighterStatus, GangId, LastingEffect};
use rapsheet::dice::RollSource;
use rapsheet::rules::{Effect, TableDef};
use rapsheet::session::{Recorded, Session, builtin_registry};
use serde_json::{Value, json};
use util::{rapsheet, stderr, stdout};

const RED: &str = "Red Hand";
const BLUE: &str = "Blue Lotus";
const SAINTS: &str = "The Rust Saints";
const JACKALS: &str = "Neon Jackals";
const SEED: u64 = 7;

/// Brick's attribute dice: 2 in every OFF and DEF, 3 Athletics, 3 Detect.
const BRICK: [(&str, i64); 10] = [
    ("melee_off", 2),
    ("melee_def", 2),
    ("ballistic_off", 2),
    ("ballistic_def", 2),
    ("technical_off", 2),
    ("technical_def", 2),
    ("arcane_off", 2),
    ("arcane_def", 2),
    ("athletics", 3),
    ("detect", 3),
];

/// Brick's value in force points: 22 dice at 3 points each.
// 004 (line 1658): "Each die value adds 3 to the unit's overall force point
// cost."
const BRICK_VALUE: i64 = 66;

/// Brick with one more Melee OFF die: 23 dice, worth 69 points (odd, so
/// that halving rounds down).
const ODD_BRICK: [(&str, i64); 10] = {
    let mut dice = BRICK;
    dice[0] = ("melee_off", 3);
    dice
};
const ODD_BRICK_VALUE: i64 = 69;

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

/// A Wayfarer campaign: Red Hand with Brick (dice as `base`) and Blue Lotus
/// with Vex (every attribute at its default die). Every warband starts with
/// 0 resources.
fn wayfarer_with(base: &[(&str, i64)]) -> (tempfile::TempDir, PathBuf, Session) {
    let dir = util::temp();
    let path = dir.path().join("w.rapsheet");
    let mut session = Session::create(&path, "Cosmopolis", "wayfarer").expect("create");
    session.found_gang(RED, None).expect("found");
    session.found_gang(BLUE, None).expect("found");
    unit(&mut session, RED, "Brick", base);
    unit(&mut session, BLUE, "Vex", &[]);
    (dir, path, session)
}

fn wayfarer() -> (tempfile::TempDir, PathBuf, Session) {
    wayfarer_with(&BRICK)
}

/// Recruits a unit with its own dice (its value is worked out from them).
fn unit(session: &mut Session, gang: &str, name: &str, base: &[(&str, i64)]) -> FighterId {
    let g = gang_id(session, gang);
    session
        .recruit(
            g,
            NewFighter {
                name: name.into(),
                base: base.iter().map(|(s, v)| ((*s).to_owned(), *v)).collect(),
                ..Default::default()
            },
        )
        .expect("recruit");
    fighter_id(session, gang, name)
}

/// The demo campaign (The Rust Saints and Neon Jackals), which plays the
/// escalation house rules.
fn demo() -> (tempfile::TempDir, Session) {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("demo.rapsheet")).expect("demo");
    (dir, session)
}

fn gang_id(session: &Session, name: &str) -> GangId {
    session.gang_named(name).expect("gang").id
}

fn fighter_id(session: &Session, gang: &str, name: &str) -> FighterId {
    session.fighter_named(name, Some(gang)).expect("fighter").id
}

fn report(value: Value) -> BattleReport {
    serde_json::from_value(value).expect("a well-formed report")
}

/// An escalation match Blue Lotus wins. `defeated` Red units were in enemy
/// captures at the end of the game; `fine` Red units came through.
fn escalation(defeated: &[&str], fine: &[&str]) -> BattleReport {
    let mut fighters: Vec<Value> = defeated
        .iter()
        .map(|n| json!({"fighter": n, "outcome": "defeated"}))
        .collect();
    fighters.extend(fine.iter().map(|n| json!({"fighter": n})));
    report(json!({
        "scenario": "escalation-match",
        "gangs": [{"gang": RED, "fighters": fighters}, {"gang": BLUE}],
        "winner": BLUE,
    }))
}

/// A match Red Hand wins with `vp` VP secured (×10 resources), every unit
/// of both warbands fine.
fn red_wins(vp: i64) -> BattleReport {
    report(json!({
        "scenario": "escalation-match",
        "gangs": [{"gang": RED, "counts": {"vp": vp}}, {"gang": BLUE}],
        "winner": RED,
    }))
}

/// A Dead Drop in the demo that the Jackals win, no caches: the Saints'
/// fighters as listed (all of them fine when `None`).
fn dead_drop(saints: Option<Value>) -> BattleReport {
    let mut value = json!({
        "scenario": "Dead Drop",
        "gangs": [{"gang": SAINTS}, {"gang": JACKALS}],
        "winner": JACKALS,
    });
    if let Some(fighters) = saints {
        value["gangs"][0]["fighters"] = fighters;
    }
    report(value)
}

/// Two dice that make `total` on 2d6.
fn faces(total: i64) -> Vec<u32> {
    let low = u32::try_from(total / 2).expect("a total");
    let high = u32::try_from(total).expect("a total") - low;
    vec![low, high]
}

/// Enters by hand the two dice that make `total` for a roll.
fn dice(r: &mut BattleReport, roll: &str, total: i64) {
    r.dice.push(EnteredDice {
        roll: roll.into(),
        faces: faces(total),
    });
}

fn pick(r: &mut BattleReport, roll: &str, pick: &str) {
    r.picks.push(PickReport {
        roll: roll.into(),
        pick: pick.into(),
    });
}

fn nominate(r: &mut BattleReport, gang: &str, fighter: &str) {
    r.advancements.push(AdvancementReport {
        gang: gang.into(),
        fighter: fighter.into(),
    });
}

/// Records a battle whose every choice is made and every roll entered by
/// hand.
fn record(session: &mut Session, r: &BattleReport) -> Recorded {
    let r = &declared(session, r);
    let preview = session.preview_battle(r, SEED).expect("preview");
    assert!(
        preview.needed.is_empty(),
        "choices left: {:#?}",
        preview.needed
    );
    let recorded = session.record_battle(r, SEED).expect("record");
    for roll in &recorded.procedure.rolls {
        assert!(
            matches!(roll.record.source, RollSource::Hand),
            "{} was rolled by the app, not entered by hand",
            roll.roll
        );
    }
    recorded
}

/// Records a report that must be refused: returns the error, after
/// checking that nothing changed and that the preview refuses it the same
/// way.
fn refused(session: &mut Session, r: &BattleReport) -> ReportError {
    let r = &declared(session, r);
    let before = session.dump().expect("dump");
    let err = session
        .record_battle(r, SEED)
        .expect_err("the report is refused");
    assert_eq!(session.dump().expect("dump"), before, "nothing changed");
    let preview = session
        .preview_battle(r, SEED)
        .expect_err("the preview refuses it too");
    assert_eq!(preview.to_string(), err.to_string());
    let Some(e) = err.downcast_ref::<ReportError>() else {
        panic!("not a report error: {err:#}");
    };
    assert!(!e.reason.is_empty());
    e.clone()
}

/// The only choice a preview still needs.
fn needed(session: &Session, r: &BattleReport) -> (String, String, String, Vec<String>) {
    let r = &declared(session, r);
    let p: Procedure = session
        .preview_battle(r, SEED)
        .expect("preview")
        .into_procedure();
    assert_eq!(p.needed.len(), 1, "one choice: {:#?}", p.needed);
    let n = &p.needed[0];
    (
        n.field.clone(),
        n.gang.clone(),
        n.rule.clone(),
        n.options.clone(),
    )
}

/// The report with "no declaration" for every gang that declared no
/// bounty, where the pack has bounties (ruling bounty-no-declaration).
fn declared(session: &Session, r: &BattleReport) -> BattleReport {
    let mut r = r.clone();
    util::declare_nothing_in(session, &mut r);
    r
}

fn status(session: &Session, fighter: FighterId) -> FighterStatus {
    session.fighter(fighter).expect("fighter").status
}

/// A fighter's stat as derived now (base, quirks, lasting effects).
fn stat(session: &Session, fighter: FighterId, id: &str) -> i64 {
    session
        .fighter_details(fighter)
        .expect("details")
        .view
        .stats
        .iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no stat {id}"))
        .value
}

fn amount(session: &Session, gang: &str, resource: &str) -> i64 {
    let g = session.gang_named(gang).expect("gang");
    let start = session
        .pack(&g.ruleset)
        .expect("pack")
        .resource(resource)
        .map_or(0, |r| r.start);
    g.resources.get(resource).copied().unwrap_or(start)
}

/// A Wayfarer warband's resource points.
fn resources(session: &Session, gang: &str) -> i64 {
    amount(session, gang, "resources")
}

/// The unit's value, as the roster works it out.
fn value(session: &Session, fighter: FighterId) -> i64 {
    session
        .fighter_details(fighter)
        .expect("details")
        .view
        .value
        .expect("a Wayfarer unit has a value")
        .value
}

/// Lasting effects on a fighter, removed ones too.
fn lasting(session: &Session, fighter: FighterId) -> Vec<LastingEffect> {
    session.lasting_effects(fighter).expect("effects")
}

fn has_quirk(session: &Session, fighter: FighterId, quirk: &str) -> bool {
    session.fighter(fighter).expect("fighter").has_quirk(quirk)
}

fn stats(changes: &[(&str, i64)]) -> BTreeMap<String, i64> {
    changes.iter().map(|(s, n)| ((*s).to_owned(), *n)).collect()
}

fn table<'a>(session: &'a Session, ruleset: &str, id: &str) -> &'a TableDef {
    session
        .pack(ruleset)
        .expect("pack")
        .table(id)
        .unwrap_or_else(|| panic!("{ruleset} has no table {id}"))
}

fn captured_by(
    session: &Session,
    gang: &str,
    battle: rapsheet::campaign::BattleId,
) -> FighterStatus {
    FighterStatus::Captured {
        by: gang_id(session, gang),
        battle,
    }
}

// ---------------------------------------------------------------------------
// 1. Post-Battle Injury (004), every row
// ---------------------------------------------------------------------------

#[test]
fn each_unit_in_enemy_captures_rolls_once_and_no_other_unit_rolls() {
    let (_dir, _, mut s) = wayfarer();
    unit(&mut s, RED, "Ash", &[]);
    unit(&mut s, RED, "Cole", &[]);
    let mut r = escalation(&["Brick", "Ash"], &["Cole"]);
    dice(&mut r, "injury: Brick", 10);
    dice(&mut r, "injury: Ash", 11);
    let recorded = record(&mut s, &r);
    // 004: "After each match, roll for on the following table once for each
    // unit that was in enemy captures at the end of the game"
    let rolls: Vec<(&str, &str, i64)> = recorded
        .procedure
        .rolls
        .iter()
        .map(|r| (r.roll.as_str(), r.table.as_str(), r.total))
        .collect();
    assert_eq!(
        rolls,
        vec![
            ("injury: Brick", "injury", 10),
            ("injury: Ash", "injury", 11)
        ]
    );
    assert_eq!(recorded.procedure.rolls[0].record.dice, vec![5, 5]);
}

#[test]
fn injury_2_to_5_death_the_unit_is_removed_from_the_force() {
    for total in 2..=5 {
        let (_dir, _, mut s) = wayfarer();
        let brick = fighter_id(&s, RED, "Brick");
        let mut r = escalation(&["Brick"], &[]);
        dice(&mut r, "injury: Brick", total);
        let recorded = record(&mut s, &r);
        let roll = &recorded.procedure.rolls[0];
        assert_eq!(roll.total, total);
        assert_eq!(roll.result, "Death/Destruction");
        // 004: "DEATH/DESTRUCTION: The unit is removed from your force."
        assert_eq!(
            status(&s, brick),
            FighterStatus::Gone {
                status: "dead".into(),
                battle: Some(recorded.battle),
            },
            "total {total}"
        );
        let red = s.gang_view(gang_id(&s, RED)).expect("view");
        assert!(red.fighters.iter().all(|f| f.name != "Brick"));
        assert_eq!(red.gone, vec![("Brick".to_owned(), "dead".to_owned())]);
    }
}

#[test]
fn injury_6_deserter_the_enemy_decides_whether_to_hire() {
    let (_dir, _, s) = wayfarer();
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 6);
    // 004: "If they wish, an enemy player may pay ½ the character's value in
    // resource points (rounding down) to add them to their own force."
    let (field, gang, rule, options) = needed(&s, &r);
    assert_eq!(field, "picks");
    assert_eq!(gang, BLUE, "the enemy player decides");
    assert_eq!(rule, "injury: Brick");
    assert_eq!(options, vec!["hire", "leave"]);
}

#[test]
fn injury_6_deserter_hired_for_half_the_value_rounding_down() {
    let (_dir, _, mut s) = wayfarer_with(&ODD_BRICK);
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    r.gangs[1].counts.insert("vp".into(), 7);
    dice(&mut r, "injury: Brick", 6);
    pick(&mut r, "injury: Brick", "hire");
    let recorded = record(&mut s, &r);
    assert_eq!(recorded.procedure.rolls[0].result, "Deserter");
    // 004: "an enemy player may pay ½ the character's value in resource
    // points (rounding down) to add them to their own force."
    assert_eq!(resources(&s, BLUE), 70 - ODD_BRICK_VALUE / 2);
    assert_eq!(ODD_BRICK_VALUE / 2, 34);
    let f = s.fighter(brick).expect("fighter");
    assert_eq!(f.gang, gang_id(&s, BLUE));
    assert_eq!(f.status, FighterStatus::Active);
    // 004: "The unit leaves your force."
    let red = s.gang_view(gang_id(&s, RED)).expect("view");
    assert!(red.fighters.iter().all(|f| f.name != "Brick"));
    let blue = s.gang_view(gang_id(&s, BLUE)).expect("view");
    assert!(blue.fighters.iter().any(|f| f.name == "Brick"));
    // ruling unit-value: the value itself is not changed by the move.
    assert_eq!(value(&s, brick), ODD_BRICK_VALUE);
}

#[test]
fn injury_6_deserter_not_hired_leaves_the_force() {
    let (_dir, _, mut s) = wayfarer();
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    r.gangs[1].counts.insert("vp".into(), 7);
    dice(&mut r, "injury: Brick", 6);
    pick(&mut r, "injury: Brick", "leave");
    let recorded = record(&mut s, &r);
    // 004: "DESERTER: The unit leaves your force."
    assert_eq!(
        status(&s, brick),
        FighterStatus::Gone {
            status: "deserted".into(),
            battle: Some(recorded.battle),
        }
    );
    assert_eq!(s.fighter(brick).expect("fighter").gang, gang_id(&s, RED));
    assert_eq!(resources(&s, BLUE), 70, "nothing paid");
    let red = s.gang_view(gang_id(&s, RED)).expect("view");
    assert_eq!(red.gone, vec![("Brick".to_owned(), "deserted".to_owned())]);
}

#[test]
fn injury_6_an_enemy_who_cannot_pay_half_the_value_cannot_hire() {
    let (_dir, _, mut s) = wayfarer();
    let mut r = escalation(&["Brick"], &[]);
    // 30 resource points, and Brick costs ½ × 66 = 33.
    r.gangs[1].counts.insert("vp".into(), 3);
    dice(&mut r, "injury: Brick", 6);
    pick(&mut r, "injury: Brick", "hire");
    // 004: "an enemy player may pay ½ the character's value in resource
    // points"; ruling resource-floor: "a warband can only spend the resource
    // points it has."
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "picks[injury: Brick]");
    assert!(e.reason.contains("33"), "{}", e.reason);
}

#[test]
fn injury_6_a_deserter_named_like_one_of_the_enemys_units_is_refused_in_the_preview() {
    // Blue Lotus already has a Brick: the hire cannot be stored as it is,
    // so the preview must say so, as the record does.
    let (_dir, _, mut s) = wayfarer();
    unit(&mut s, BLUE, "Brick", &[]);
    let mut r = escalation(&["Brick"], &[]);
    r.gangs[1].counts.insert("vp".into(), 7);
    dice(&mut r, "injury: Brick", 6);
    pick(&mut r, "injury: Brick", "hire");
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "picks[injury: Brick]");
}

#[test]
fn injury_7_8_captured_the_captors_choose() {
    for total in [7, 8] {
        let (_dir, _, s) = wayfarer();
        let mut r = escalation(&["Brick"], &[]);
        dice(&mut r, "injury: Brick", total);
        // 004: "The capturing player may choose to ransom the unit back to
        // you or, failing that, may choose any other result on this table"
        let (field, gang, rule, options) = needed(&s, &r);
        assert_eq!((field.as_str(), rule.as_str()), ("picks", "injury: Brick"));
        assert_eq!(gang, BLUE, "the capturing player chooses");
        assert_eq!(options, vec!["hold", "2-5", "6", "9", "10-11", "12"]);
    }
}

#[test]
fn injury_7_8_captured_and_held_by_the_enemy() {
    for total in [7, 8] {
        let (_dir, _, mut s) = wayfarer();
        let brick = fighter_id(&s, RED, "Brick");
        let mut r = escalation(&["Brick"], &[]);
        dice(&mut r, "injury: Brick", total);
        pick(&mut r, "injury: Brick", "hold");
        let recorded = record(&mut s, &r);
        assert_eq!(recorded.procedure.rolls[0].result, "Captured");
        // 004: "CAPTURED: The unit is held by enemy forces."
        assert_eq!(
            status(&s, brick),
            captured_by(&s, BLUE, recorded.battle),
            "total {total}"
        );
        // Still Red's unit, on Red's roster.
        assert_eq!(s.fighter(brick).expect("fighter").gang, gang_id(&s, RED));
        // A unit held by the enemy cannot fight the next match.
        let next = escalation(&[], &["Brick"]);
        let e = refused(&mut s, &next);
        assert_eq!(e.field, "gangs[0].fighters[0].fighter");
        assert!(e.reason.contains("held by Blue Lotus"), "{}", e.reason);
    }
}

#[test]
fn injury_7_8_captured_the_captors_may_choose_another_result() {
    // 004: "or, failing that, may choose any other result on this table for
    // the unit."
    let (_dir, _, mut s) = wayfarer();
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 7);
    pick(&mut r, "injury: Brick", "10-11");
    let recorded = record(&mut s, &r);
    assert_eq!(
        status(&s, brick),
        FighterStatus::Wounded {
            battle: recorded.battle
        }
    );

    let (_dir, _, mut s) = wayfarer();
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 8);
    pick(&mut r, "injury: Brick", "2-5");
    let recorded = record(&mut s, &r);
    assert_eq!(
        status(&s, brick),
        FighterStatus::Gone {
            status: "dead".into(),
            battle: Some(recorded.battle),
        }
    );
}

#[test]
fn injury_7_8_captured_again_or_an_unknown_row_is_refused() {
    let (_dir, _, mut s) = wayfarer();
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 7);
    pick(&mut r, "injury: Brick", "7-8");
    // 004: "may choose any other result on this table"; ruling ransom: "(not
    // Captured again)"
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "picks[injury: Brick]");

    r.picks[0].pick = "13".into();
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "picks[injury: Brick]");
}

#[test]
fn injury_7_8_captors_choosing_deserter_may_still_hire() {
    // 004: "may choose any other result on this table for the unit", and
    // DESERTER: "If they wish, an enemy player may pay ½ the character's
    // value in resource points (rounding down) to add them to their own
    // force." Choosing 6 must not decide the hire for the enemy player.
    let (_dir, _, s) = wayfarer();
    let mut r = escalation(&["Brick"], &[]);
    r.gangs[1].counts.insert("vp".into(), 7);
    dice(&mut r, "injury: Brick", 7);
    pick(&mut r, "injury: Brick", "6");
    let p = s.preview_battle(&r, SEED).expect("preview");
    assert!(
        p.needed
            .iter()
            .any(|n| n.gang == BLUE && n.options.iter().any(|o| o == "hire")),
        "the enemy player is asked whether to hire: {:#?}",
        p.changes
    );
}

#[test]
fn injury_9_crippled_applies_the_reverse_of_an_advancement_roll() {
    // (the cripple roll's total, the pick, the attribute that loses a die)
    let cases = [
        (4, Some("melee_def"), "melee_def", 2),
        (4, Some("melee_off"), "melee_off", 2),
        (5, Some("ballistic_off"), "ballistic_off", 2),
        (6, Some("technical_def"), "technical_def", 2),
        (7, Some("arcane_off"), "arcane_off", 2),
        (8, None, "athletics", 3),
        (9, None, "detect", 3),
    ];
    for (total, choice, lowered, before) in cases {
        let (_dir, _, mut s) = wayfarer();
        let brick = fighter_id(&s, RED, "Brick");
        let mut r = escalation(&["Brick"], &[]);
        dice(&mut r, "injury: Brick", 9);
        dice(&mut r, "cripple: Brick", total);
        if let Some(choice) = choice {
            pick(&mut r, "cripple: Brick", choice);
        }
        let recorded = record(&mut s, &r);
        let rolls: Vec<(&str, &str, i64)> = recorded
            .procedure
            .rolls
            .iter()
            .map(|r| (r.roll.as_str(), r.table.as_str(), r.total))
            .collect();
        // 004: "CRIPPLED: Roll on the advancement table and, instead of
        // gaining an increase, apply the reverse to the unit."
        assert_eq!(
            rolls,
            vec![
                ("injury: Brick", "injury", 9),
                ("cripple: Brick", "advancement", total)
            ]
        );
        assert_eq!(stat(&s, brick, lowered), before - 1, "cripple {total}");
        for (other, base) in BRICK {
            if other != lowered {
                assert_eq!(stat(&s, brick, other), base, "{other} unchanged");
            }
        }
        let effects = lasting(&s, brick);
        assert_eq!(effects.len(), 1, "{effects:#?}");
        let e = &effects[0];
        assert!(e.name.starts_with("Crippled"), "{}", e.name);
        assert_eq!(e.stats, stats(&[(lowered, -1)]));
        assert_eq!(e.battle, Some(recorded.battle));
        assert_eq!(
            e.roll.as_ref().map(|r| r.dice.clone()),
            Some(faces(total)),
            "the cripple roll is stored with the effect"
        );
        assert_eq!(e.removed, None);
        assert_eq!(status(&s, brick), FighterStatus::Active);
        // ruling advancement-value: "a Crippled result does not change the
        // unit's value either."
        assert_eq!(value(&s, brick), BRICK_VALUE);
    }
}

#[test]
fn injury_9_crippled_the_player_picks_which_die_is_lost() {
    let (_dir, _, mut s) = wayfarer();
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 9);
    dice(&mut r, "cripple: Brick", 4);
    // 004: "the player must subtract an applicable value or skill of their
    // choice when rolled."
    let (field, gang, rule, options) = needed(&s, &r);
    assert_eq!(field, "picks");
    assert_eq!(gang, RED, "the unit's own player chooses");
    assert_eq!(rule, "cripple: Brick");
    assert_eq!(options, vec!["melee_off", "melee_def"]);
    // A die the result does not name is not a choice.
    pick(&mut r, "cripple: Brick", "athletics");
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "picks[cripple: Brick]");
}

#[test]
fn injury_9_crippled_only_an_applicable_value_is_subtracted() {
    // 004: "the player must subtract an applicable value or skill of their
    // choice": with Melee OFF at 0, only Melee DEF can lose a die.
    let (_dir, _, mut s) = wayfarer_with(&[("melee_off", 0), ("melee_def", 2)]);
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 9);
    dice(&mut r, "cripple: Brick", 4);
    record(&mut s, &r);
    assert_eq!(stat(&s, brick, "melee_off"), 0);
    assert_eq!(stat(&s, brick, "melee_def"), 1);
}

#[test]
fn injury_9_crippled_a_skill_or_trait_the_unit_lacks_is_wounded_instead() {
    // 004: "The No “I” in Team result is not applicable and the unit treats
    // their injury result as Wounded instead"; ruling cripple-not-applicable:
    // "When nothing it names can be subtracted, the result is not applicable
    // and the unit is treated as Wounded". Brick has no skill and no trait.
    for total in [10, 11, 12] {
        let (_dir, _, mut s) = wayfarer();
        let brick = fighter_id(&s, RED, "Brick");
        let mut r = escalation(&["Brick"], &[]);
        dice(&mut r, "injury: Brick", 9);
        dice(&mut r, "cripple: Brick", total);
        let recorded = record(&mut s, &r);
        assert!(
            recorded
                .procedure
                .changes
                .iter()
                .any(|c| c.text.contains("Wounded")),
            "{total}: {:#?}",
            recorded.procedure.changes
        );
        assert!(lasting(&s, brick).is_empty(), "{total}: nothing to lose");
        assert_eq!(value(&s, brick), BRICK_VALUE);
    }
}

#[test]
fn injury_9_crippled_a_skill_or_trait_is_lost_and_the_value_stands() {
    // 004: "the player must subtract an applicable value or skill of their
    // choice when rolled." Brick has Charge (a skill) and Night Vision (a
    // trait).
    for (total, lost) in [(10, "Charge"), (11, "Charge"), (12, "Night Vision")] {
        let (_dir, _, mut s) = wayfarer();
        let brick = fighter_id(&s, RED, "Brick");
        let picks = ["skill-charge", "trait-night-vision"]
            .iter()
            .map(|q| rapsheet::campaign::QuirkPick::new(*q))
            .collect();
        s.set_quirks(brick, picks).expect("quirks");
        let built = value(&s, brick);
        let mut r = escalation(&["Brick"], &[]);
        dice(&mut r, "injury: Brick", 9);
        dice(&mut r, "cripple: Brick", total);
        pick(&mut r, "cripple: Brick", lost);
        record(&mut s, &r);
        let effects = lasting(&s, brick);
        assert_eq!(effects.len(), 1);
        assert!(effects[0].name.starts_with("Crippled"));
        assert_eq!(effects[0].detail, format!("loses {lost}"));
        let view = s.gang_view(gang_id(&s, RED)).expect("view");
        let names: Vec<&str> = view.fighters[0]
            .quirks
            .iter()
            .map(|q| q.name.as_str())
            .collect();
        assert!(!names.contains(&lost), "{names:?}");
        // 004: "The unit's value (and VP) are unchanged by advancements
        // gained"; ruling advancement-value: "a Crippled result does not
        // change the unit's value either".
        assert_eq!(value(&s, brick), built, "{total}");
    }
}

#[test]
fn injury_9_crippled_no_i_in_team_is_wounded_instead() {
    for total in [2, 3] {
        let (_dir, _, mut s) = wayfarer();
        let brick = fighter_id(&s, RED, "Brick");
        let mut r = escalation(&["Brick"], &[]);
        dice(&mut r, "injury: Brick", 9);
        dice(&mut r, "cripple: Brick", total);
        let recorded = record(&mut s, &r);
        // 004: "The No “I” in Team result is not applicable and the unit
        // treats their injury result as Wounded instead."
        assert_eq!(
            status(&s, brick),
            FighterStatus::Wounded {
                battle: recorded.battle
            },
            "cripple {total}"
        );
        assert!(lasting(&s, brick).is_empty(), "nothing is lost");
        assert_eq!(resources(&s, RED), 0, "no resource bonus either");
        for (id, base) in BRICK {
            assert_eq!(stat(&s, brick, id), base);
        }
    }
}

#[test]
fn injury_9_crippled_with_nothing_to_subtract_is_wounded_instead() {
    // ruling cripple-not-applicable: "When nothing it names can be
    // subtracted, the result is not applicable and the unit is treated as
    // Wounded, as for No “I” in Team."
    let (_dir, _, mut s) = wayfarer_with(&[("melee_off", 0), ("melee_def", 0)]);
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 9);
    dice(&mut r, "cripple: Brick", 4);
    let recorded = record(&mut s, &r);
    assert_eq!(
        status(&s, brick),
        FighterStatus::Wounded {
            battle: recorded.battle
        }
    );
    assert!(lasting(&s, brick).is_empty());
}

#[test]
fn injury_10_11_wounded_misses_the_next_match_only() {
    for total in [10, 11] {
        let (_dir, _, mut s) = wayfarer();
        let brick = fighter_id(&s, RED, "Brick");
        unit(&mut s, RED, "Ash", &[]);
        let mut r = escalation(&["Brick"], &[]);
        dice(&mut r, "injury: Brick", total);
        let first = record(&mut s, &r);
        assert_eq!(first.procedure.rolls[0].result, "Wounded");
        // 004: "WOUNDED: The unit has to rest up to heal or be repaired and
        // may not fight in the next match."
        assert_eq!(
            status(&s, brick),
            FighterStatus::Wounded {
                battle: first.battle
            }
        );
        let red = s.gang_view(gang_id(&s, RED)).expect("view");
        let view = red
            .fighters
            .iter()
            .find(|f| f.name == "Brick")
            .expect("on the roster");
        assert_eq!(view.status_text, "wounded: misses the next match");

        let with_brick = escalation(&[], &["Ash", "Brick"]);
        let e = refused(&mut s, &with_brick);
        assert_eq!(e.field, "gangs[0].fighters[1].fighter");
        assert!(e.reason.contains("misses this match"), "{}", e.reason);

        // The next match without Brick: Brick has rested.
        let without = escalation(&[], &["Ash"]);
        let second = record(&mut s, &without);
        assert_eq!(status(&s, brick), FighterStatus::Active);
        assert!(
            second
                .procedure
                .changes
                .iter()
                .any(|c| c.text == "Brick missed this match and is fit again"),
            "{:#?}",
            second.procedure.changes
        );
        // …and fights the one after.
        record(&mut s, &escalation(&[], &["Ash", "Brick"]));
    }
}

#[test]
fn injury_12_lucky_duck_rolls_on_the_advancement_table() {
    let (_dir, _, mut s) = wayfarer();
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 12);
    dice(&mut r, "advancement: Brick", 8);
    let recorded = record(&mut s, &r);
    // 004: "LUCKY DUCK: Roll on the advancement table as you contemplate
    // what you learned..."
    let rolls: Vec<(&str, &str, &str)> = recorded
        .procedure
        .rolls
        .iter()
        .map(|r| (r.roll.as_str(), r.table.as_str(), r.result.as_str()))
        .collect();
    assert_eq!(
        rolls,
        vec![
            ("injury: Brick", "injury", "Lucky Duck"),
            ("advancement: Brick", "advancement", "Bonus Athletics die")
        ]
    );
    // ruling lucky-duck: the unit rolls although it was defeated and its
    // warband gained no resources.
    assert_eq!(stat(&s, brick, "athletics"), 4);
    assert_eq!(status(&s, brick), FighterStatus::Active);
    let effects = lasting(&s, brick);
    assert_eq!(effects.len(), 1);
    assert_eq!(effects[0].name, "Bonus Athletics die");
    assert_eq!(effects[0].stats, stats(&[("athletics", 1)]));
}

#[test]
fn injury_12_lucky_duck_advancement_picks_like_any_other() {
    let (_dir, _, mut s) = wayfarer();
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 12);
    dice(&mut r, "advancement: Brick", 4);
    let (_, gang, rule, options) = needed(&s, &r);
    assert_eq!((gang.as_str(), rule.as_str()), (RED, "advancement: Brick"));
    assert_eq!(options, vec!["melee_off", "melee_def"]);
    pick(&mut r, "advancement: Brick", "melee_off");
    record(&mut s, &r);
    assert_eq!(stat(&s, brick, "melee_off"), 3);
}

#[test]
fn hand_entered_dice_must_fit_the_roll_and_name_a_roll_made() {
    let (_dir, _, mut s) = wayfarer();
    let mut r = escalation(&["Brick"], &[]);
    r.dice.push(EnteredDice {
        roll: "injury: Brick".into(),
        faces: vec![7, 1],
    });
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "dice[0].faces");

    let mut r = escalation(&["Brick"], &[]);
    r.dice.push(EnteredDice {
        roll: "injury: Brick".into(),
        faces: vec![3],
    });
    assert_eq!(refused(&mut s, &r).field, "dice[0].faces");

    // Vex was not in enemy captures: no injury roll to enter dice for.
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 10);
    dice(&mut r, "injury: Vex", 10);
    assert_eq!(refused(&mut s, &r).field, "dice[1].roll");

    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 10);
    pick(&mut r, "advancement: Brick", "melee_off");
    assert_eq!(refused(&mut s, &r).field, "picks[0].roll");
}

// ---------------------------------------------------------------------------
// 2. Advancement (004), every row
// ---------------------------------------------------------------------------

/// Red Hand wins with 10 VP (100 resource points gained) and nominates
/// Brick (dice as `base`), who rolls `total` on the advancement table.
fn advance(
    base: &[(&str, i64)],
    total: i64,
    choice: Option<&str>,
) -> (tempfile::TempDir, Session, FighterId, Recorded) {
    let (dir, _, mut s) = wayfarer_with(base);
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = red_wins(10);
    nominate(&mut r, RED, "Brick");
    dice(&mut r, "advancement: Brick", total);
    if let Some(choice) = choice {
        pick(&mut r, "advancement: Brick", choice);
    }
    let recorded = record(&mut s, &r);
    (dir, s, brick, recorded)
}

#[test]
fn advancement_2_3_no_i_in_team_gives_the_units_value_in_resources() {
    for total in [2, 3] {
        let (_dir, s, brick, recorded) = advance(&BRICK, total, None);
        assert_eq!(recorded.procedure.rolls[0].result, "No “I” in Team");
        // 004: "NO “I” IN TEAM: Your force gains a resource bonus equal to
        // this character's value."
        assert_eq!(resources(&s, RED), 100 + value(&s, brick), "total {total}");
        assert!(lasting(&s, brick).is_empty(), "nothing stays on the unit");
        for (id, base) in BRICK {
            assert_eq!(stat(&s, brick, id), base);
        }
    }
}

#[test]
fn advancement_4_to_7_a_chosen_off_or_def_die() {
    let cases = [
        (4, "melee_off", "melee_def", "Bonus Melee OFF or DEF die"),
        (4, "melee_def", "melee_off", "Bonus Melee OFF or DEF die"),
        (
            5,
            "ballistic_off",
            "ballistic_def",
            "Bonus Ballistics OFF or DEF die",
        ),
        (
            5,
            "ballistic_def",
            "ballistic_off",
            "Bonus Ballistics OFF or DEF die",
        ),
        (
            6,
            "technical_off",
            "technical_def",
            "Bonus Technical OFF or DEF die",
        ),
        (
            6,
            "technical_def",
            "technical_off",
            "Bonus Technical OFF or DEF die",
        ),
        (7, "arcane_off", "arcane_def", "Bonus Arcane OFF or DEF die"),
        (7, "arcane_def", "arcane_off", "Bonus Arcane OFF or DEF die"),
    ];
    for (total, raised, other, name) in cases {
        let (_dir, s, brick, recorded) = advance(&BRICK, total, Some(raised));
        // 004: "4 Bonus Melee OFF or DEF die (may not exceed 3 total for
        // either)", 5 Ballistics, 6 Technical, 7 Arcane
        assert_eq!(recorded.procedure.rolls[0].result, name);
        assert_eq!(stat(&s, brick, raised), 3, "{total}: {raised}");
        assert_eq!(stat(&s, brick, other), 2, "{total}: {other}");
        let effects = lasting(&s, brick);
        assert_eq!(effects.len(), 1);
        assert_eq!(effects[0].name, name);
        assert_eq!(effects[0].table, "advancement");
        assert_eq!(effects[0].stats, stats(&[(raised, 1)]));
        assert_eq!(effects[0].battle, Some(recorded.battle));
        // 004: "The unit's value (and VP) are unchanged by advancements
        // gained"
        assert_eq!(value(&s, brick), BRICK_VALUE);
        assert_eq!(resources(&s, RED), 100);
    }
}

#[test]
fn advancement_off_or_def_the_player_names_the_die_when_both_can_rise() {
    for (total, options) in [
        (4, ["melee_off", "melee_def"]),
        (5, ["ballistic_off", "ballistic_def"]),
        (6, ["technical_off", "technical_def"]),
        (7, ["arcane_off", "arcane_def"]),
    ] {
        let (_dir, _, mut s) = wayfarer();
        let mut r = red_wins(10);
        nominate(&mut r, RED, "Brick");
        dice(&mut r, "advancement: Brick", total);
        let (field, gang, rule, offered) = needed(&s, &r);
        assert_eq!(field, "picks");
        assert_eq!(gang, RED);
        assert_eq!(rule, "advancement: Brick");
        assert_eq!(offered, options);
        let err = s.record_battle(&r, SEED).expect_err("a choice is missing");
        assert!(err.to_string().contains("advancement: Brick"), "{err}");
        // A die the result does not name is refused.
        pick(&mut r, "advancement: Brick", "detect");
        assert_eq!(refused(&mut s, &r).field, "picks[advancement: Brick]");
    }
}

#[test]
fn advancement_off_or_def_at_3_only_the_other_die_rises() {
    // 004: "Bonus Melee OFF or DEF die (may not exceed 3 total for either)"
    let (_dir, s, brick, _) = advance(&[("melee_off", 3), ("melee_def", 1)], 4, None);
    assert_eq!(stat(&s, brick, "melee_off"), 3);
    assert_eq!(stat(&s, brick, "melee_def"), 2);

    let (_dir, s, brick, _) = advance(&[("arcane_off", 1), ("arcane_def", 3)], 7, None);
    assert_eq!(stat(&s, brick, "arcane_off"), 2);
    assert_eq!(stat(&s, brick, "arcane_def"), 3);
}

#[test]
fn advancement_off_and_def_both_at_3_counts_as_no_i_in_team() {
    let (_dir, s, brick, recorded) = advance(&[("melee_off", 3), ("melee_def", 3)], 4, None);
    // 004: "Attribute increases that are gained may not exceed the maximum
    // attribute values"; "Results that are not applicable (such already
    // having maxed out attribute values …) are counted as a No “I” in Team
    // result instead."
    assert_eq!(stat(&s, brick, "melee_off"), 3);
    assert_eq!(stat(&s, brick, "melee_def"), 3);
    assert_eq!(resources(&s, RED), 100 + value(&s, brick));
    assert!(lasting(&s, brick).is_empty());
    assert!(
        recorded
            .procedure
            .changes
            .iter()
            .any(|c| c.text.contains("does not apply; No “I” in Team instead")),
        "{:#?}",
        recorded.procedure.changes
    );
}

#[test]
fn advancement_8_athletics_and_9_detect() {
    // 004: "8 Bonus Athletics die (may not exceed 6 total)"
    let (_dir, s, brick, _) = advance(&BRICK, 8, None);
    assert_eq!(stat(&s, brick, "athletics"), 4);
    assert_eq!(stat(&s, brick, "detect"), 3);
    assert_eq!(lasting(&s, brick)[0].name, "Bonus Athletics die");
    // 004: "9 Bonus Detect die (may not exceed 6 total)"
    let (_dir, s, brick, _) = advance(&BRICK, 9, None);
    assert_eq!(stat(&s, brick, "detect"), 4);
    assert_eq!(stat(&s, brick, "athletics"), 3);
    assert_eq!(lasting(&s, brick)[0].name, "Bonus Detect die");
}

#[test]
fn advancement_athletics_or_detect_at_6_counts_as_no_i_in_team() {
    // 004: "Bonus Athletics die (may not exceed 6 total)"; "Results that are
    // not applicable … are counted as a No “I” in Team result instead."
    let (_dir, s, brick, _) = advance(&[("athletics", 6)], 8, None);
    assert_eq!(stat(&s, brick, "athletics"), 6);
    assert_eq!(resources(&s, RED), 100 + value(&s, brick));
    assert!(lasting(&s, brick).is_empty());

    let (_dir, s, brick, _) = advance(&[("detect", 6)], 9, None);
    assert_eq!(stat(&s, brick, "detect"), 6);
    assert_eq!(resources(&s, RED), 100 + value(&s, brick));

    // At 5 the die still fits.
    let (_dir, s, brick, _) = advance(&[("athletics", 5)], 8, None);
    assert_eq!(stat(&s, brick, "athletics"), 6);
    assert_eq!(resources(&s, RED), 100);
}

#[test]
fn advancement_10_11_12_a_skill_or_a_trait_from_the_catalog() {
    for (total, name, chosen) in [
        (10, "Bonus skill offered by occupation", "Sharpshooter"),
        (11, "Bonus skill from any category of your choice", "Charge"),
        (12, "Bonus trait offered by your species", "Night Vision"),
    ] {
        // 004: "10 Bonus skill offered by occupation", "11 Bonus skill from
        // any category of your choice", "12 Bonus trait offered by your
        // species." (ruling gain-offered for 10 and 12)
        let (_dir, s, brick, recorded) = advance(&BRICK, total, Some(chosen));
        assert_eq!(recorded.procedure.rolls[0].result, name);
        let effects = lasting(&s, brick);
        assert_eq!(effects.len(), 1);
        assert_eq!(effects[0].name, name);
        assert_eq!(effects[0].detail, format!("gains {chosen}"));
        assert!(effects[0].stats.is_empty());
        for (id, base) in BRICK {
            assert_eq!(stat(&s, brick, id), base);
        }
        // 004: "The unit's value (and VP) are unchanged by advancements
        // gained".
        assert_eq!(value(&s, brick), BRICK_VALUE);
    }
    // Without a pick, the roll asks for one among the catalog's skills.
    let (_dir, _, s) = wayfarer();
    let mut r = red_wins(10);
    nominate(&mut r, RED, "Brick");
    dice(&mut r, "advancement: Brick", 11);
    let r = declared(&s, &r);
    let needed = s
        .preview_battle(&r, SEED)
        .expect("preview")
        .into_procedure()
        .needed;
    let skills = &needed
        .iter()
        .find(|n| n.rule == "advancement: Brick")
        .expect("a pick")
        .options;
    assert!(skills.contains(&"skill-charge".to_owned()), "{skills:?}");
    assert!(skills.iter().all(|o| o.starts_with("skill-")), "{skills:?}");
}

#[test]
fn one_advancement_roll_per_full_hundred_resources_gained() {
    // 004: "After any battle, for every full hundred points of resources
    // gained, you may nominate a single, non-defeated (non-vehicle) unit to
    // roll once on the following table"
    let (_dir, _, mut s) = wayfarer();
    unit(&mut s, RED, "Ash", &BRICK);
    unit(&mut s, RED, "Cole", &BRICK);

    // 190 resource points: one roll.
    let mut r = red_wins(19);
    nominate(&mut r, RED, "Brick");
    dice(&mut r, "advancement: Brick", 8);
    nominate(&mut r, RED, "Ash");
    dice(&mut r, "advancement: Ash", 8);
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "advancements[1]");
    assert!(e.reason.contains("1 advancement roll"), "{}", e.reason);
    r.advancements.pop();
    r.dice.pop();
    record(&mut s, &r);

    // 200: two rolls, and a third is refused.
    let mut r = red_wins(20);
    for name in ["Brick", "Ash", "Cole"] {
        nominate(&mut r, RED, name);
        dice(&mut r, &format!("advancement: {name}"), 9);
    }
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "advancements[2]");
    r.advancements.pop();
    r.dice.pop();
    let recorded = record(&mut s, &r);
    assert_eq!(recorded.procedure.rolls.len(), 2);

    // Blue Lotus gained nothing: no roll at all.
    let mut r = red_wins(20);
    nominate(&mut r, BLUE, "Vex");
    assert_eq!(refused(&mut s, &r).field, "advancements[0]");
}

#[test]
fn resources_from_resource_grabs_count_toward_advancement() {
    // ruling resources-gained: "All resource points the warband received for
    // the match count (VP x10 and secured resource grabs)"
    let (_dir, _, mut s) = wayfarer();
    unit(&mut s, RED, "Ash", &BRICK);
    let mut r = red_wins(15);
    r.gangs[0].counts.insert("grab-resources".into(), 50);
    nominate(&mut r, RED, "Brick");
    dice(&mut r, "advancement: Brick", 8);
    nominate(&mut r, RED, "Ash");
    dice(&mut r, "advancement: Ash", 8);
    record(&mut s, &r);
    assert_eq!(resources(&s, RED), 200);
}

#[test]
fn resources_held_before_the_battle_give_no_advancement() {
    // 004: "for every full hundred points of resources gained"
    let (_dir, _, mut s) = wayfarer();
    let red = gang_id(&s, RED);
    s.adjust_resource(red, "resources", 500, "savings")
        .expect("adjust");
    let mut r = red_wins(0);
    nominate(&mut r, RED, "Brick");
    assert_eq!(refused(&mut s, &r).field, "advancements[0]");
}

#[test]
fn a_defeated_unit_cannot_be_nominated() {
    // 004: "you may nominate a single, non-defeated (non-vehicle) unit"
    let (_dir, _, mut s) = wayfarer();
    let mut r = escalation(&["Brick"], &[]);
    r.gangs[0].counts.insert("vp".into(), 10);
    dice(&mut r, "injury: Brick", 10);
    nominate(&mut r, RED, "Brick");
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "advancements[0].fighter");
    assert!(e.reason.contains("may not advance"), "{}", e.reason);
}

#[test]
fn a_no_i_in_team_bonus_gives_no_further_advancement_roll() {
    // ruling resources-gained: "Resource bonuses from that battle's own
    // advancement rolls (No “I” in Team) do not give further rolls."
    let (_dir, _, mut s) = wayfarer();
    unit(&mut s, RED, "Ash", &BRICK);
    let mut r = red_wins(10);
    nominate(&mut r, RED, "Brick");
    dice(&mut r, "advancement: Brick", 2);
    nominate(&mut r, RED, "Ash");
    dice(&mut r, "advancement: Ash", 8);
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "advancements[1]");
}

#[test]
fn a_lucky_duck_no_i_in_team_bonus_gives_no_advancement_roll() {
    // ruling lucky-duck: the roll "does not use up resources gained"; and
    // ruling resources-gained: the bonuses of that battle's own advancement
    // rolls "do not give further rolls". A Lucky Duck's No “I” in Team
    // (its value) is no resource gained for the match.
    let (_dir, _, mut s) = wayfarer();
    unit(&mut s, RED, "Ash", &BRICK);
    let mut r = escalation(&["Brick"], &["Ash"]);
    dice(&mut r, "injury: Brick", 12);
    dice(&mut r, "advancement: Brick", 2);
    nominate(&mut r, RED, "Ash");
    dice(&mut r, "advancement: Ash", 8);
    let e = refused(&mut s, &r);
    assert_eq!(e.field, "advancements[0]");
}

// ---------------------------------------------------------------------------
// 3. The escalation house rules on Heartbreaker (the demo)
// ---------------------------------------------------------------------------

#[test]
fn the_house_pack_is_labelled_house_rules() {
    let (_dir, s) = demo();
    let saints = s.gang_view(gang_id(&s, SAINTS)).expect("view");
    assert_eq!(saints.ruleset, "heartbreaker-escalation");
    assert!(saints.house_rules);
    assert_eq!(saints.ruleset_name, "Heartbreaker — escalation");

    let (_dir, _, w) = wayfarer();
    assert!(!w.gang_view(gang_id(&w, RED)).expect("view").house_rules);
}

#[test]
fn the_house_injury_table_is_004s_as_written() {
    let (_dir, s) = demo();
    let house = table(&s, "heartbreaker-escalation", "injury");
    let wayfarer = table(&s, "wayfarer", "injury");
    assert_eq!(house.roll, "2d6");
    assert_eq!(house.roll, wayfarer.roll);
    assert_eq!(house.rows.len(), wayfarer.rows.len());
    for (h, w) in house.rows.iter().zip(&wayfarer.rows) {
        assert_eq!(h.on, w.on);
        assert_eq!(h.name, w.name);
        assert_eq!(h.result, w.result);
        assert_eq!(h.effects, w.effects, "row {}", h.on);
    }
    let ons: Vec<&str> = house.rows.iter().map(|r| r.on.as_str()).collect();
    // 004: "2-5", "6", "7-8", "9", "10-11", "12"
    assert_eq!(ons, vec!["2-5", "6", "7-8", "9", "10-11", "12"]);
    let kinds: Vec<&Effect> = house.rows.iter().map(|r| &r.effects[0]).collect();
    assert!(matches!(kinds[0], Effect::Leave { status } if status == "dead"));
    assert!(matches!(kinds[1], Effect::Desert { hire_percent: 50 }));
    assert!(matches!(kinds[2], Effect::Capture));
    assert!(matches!(kinds[3], Effect::Cripple { fallback } if fallback == "10-11"));
    assert!(matches!(kinds[4], Effect::MissNextBattle));
    assert!(matches!(kinds[5], Effect::Advance));
}

/// The demo: Brick of the Saints advances with `total` (and `choice`).
fn house_advance(
    total: i64,
    choice: Option<&str>,
) -> (tempfile::TempDir, Session, FighterId, Recorded) {
    let (dir, mut s) = demo();
    let brick = fighter_id(&s, SAINTS, "Brick");
    let mut r = dead_drop(None);
    nominate(&mut r, SAINTS, "Brick");
    dice(&mut r, "advancement: Brick", total);
    if let Some(choice) = choice {
        pick(&mut r, "advancement: Brick", choice);
    }
    let recorded = record(&mut s, &r);
    (dir, s, brick, recorded)
}

#[test]
fn the_house_advancement_raises_heartbreaker_stats() {
    // ruling escalation-advancement: "4 +1 Meat; 5 +1 Armor; … 8 +1\" Speed;
    // … 12 +1 Action Limit."
    for (total, raised) in [(4, "meat"), (5, "armor"), (8, "speed"), (12, "limit")] {
        let (_dir, s) = demo();
        let brick = fighter_id(&s, SAINTS, "Brick");
        let before: Vec<(String, i64)> = ["meat", "armor", "speed", "limit"]
            .iter()
            .map(|id| ((*id).to_owned(), stat(&s, brick, id)))
            .collect();
        drop(s);
        let (_dir, s, brick, recorded) = house_advance(total, None);
        for (id, was) in before {
            let expected = if id == raised { was + 1 } else { was };
            assert_eq!(stat(&s, brick, &id), expected, "{total}: {id}");
        }
        let effects = lasting(&s, brick);
        assert_eq!(effects.len(), 1);
        assert_eq!(effects[0].stats, stats(&[(raised, 1)]));
        assert_eq!(recorded.procedure.rolls[0].total, total);
    }
}

#[test]
fn the_house_advancement_speed_is_in_inches() {
    let (_dir, _, _, recorded) = house_advance(8, None);
    assert!(
        recorded
            .procedure
            .changes
            .iter()
            .any(|c| c.text == "Brick: +1\" Speed"),
        "{:#?}",
        recorded.procedure.changes
    );
}

#[test]
fn the_house_advancement_gives_a_quirk_of_the_mapped_category() {
    // ruling escalation-advancement: "6 a Gear quirk; 7 an Ability quirk;
    // … 9 a Weapon quirk; 10 an Ability quirk; 11 a quirk of any category"
    for (total, category, chosen, wrong) in [
        (6, Some("gear"), "medpack", Some("stalker")),
        (7, Some("ability"), "stalker", Some("medpack")),
        (9, Some("weapon"), "sidearm", Some("medpack")),
        (10, Some("ability"), "iconic", Some("sidearm")),
        (11, None, "commlink", None),
    ] {
        let (_dir, mut s) = demo();
        let brick = fighter_id(&s, SAINTS, "Brick");
        let mut r = dead_drop(None);
        nominate(&mut r, SAINTS, "Brick");
        dice(&mut r, "advancement: Brick", total);
        let (field, gang, rule, options) = needed(&s, &r);
        assert_eq!(
            (field.as_str(), gang.as_str(), rule.as_str()),
            ("picks", SAINTS, "advancement: Brick")
        );
        let pack = s.pack("heartbreaker-escalation").expect("pack");
        let brick_now = s.fighter(brick).expect("fighter");
        let saints: Vec<_> = s
            .roster(gang_id(&s, SAINTS))
            .expect("roster")
            .into_iter()
            .collect();
        // Quirks Brick does not have and may take: 003, Akimbo Holster,
        // "Only fighters equipped with a Sidearm, Leadspitter, Slasher, or
        // Basher may take this quirk" — Brick has none, so it is not offered.
        let expected: Vec<String> = pack
            .quirks
            .iter()
            .filter(|q| category.is_none_or(|c| q.category == c))
            .filter(|q| !brick_now.has_quirk(&q.id))
            .filter(|q| !rapsheet::campaign::quirk_breaks_a_rule(pack, &saints, brick, &q.id))
            .map(|q| q.id.clone())
            .collect();
        assert_eq!(options, expected, "{total}: quirks Brick does not have");
        if category == Some("gear") {
            assert!(
                !options.iter().any(|o| o == "akimbo-holster"),
                "{options:?}"
            );
        }
        assert!(options.iter().any(|o| o == chosen));
        // A quirk of another category is refused.
        if let Some(wrong) = wrong {
            pick(&mut r, "advancement: Brick", wrong);
            assert_eq!(refused(&mut s, &r).field, "picks[advancement: Brick]");
            r.picks.clear();
        }
        pick(&mut r, "advancement: Brick", chosen);
        record(&mut s, &r);
        assert!(has_quirk(&s, brick, chosen), "{total}: {chosen}");
        let effects = lasting(&s, brick);
        assert_eq!(effects.len(), 1);
        assert_eq!(effects[0].quirk.as_deref(), Some(chosen));
    }
}

#[test]
fn the_house_advancement_2_3_gives_a_reputation() {
    // ruling escalation-advancement: "2-3 +1 Reputation (Heartbreaker
    // fighters have no value)"
    for total in [2, 3] {
        let (_dir, s, brick, _) = house_advance(total, None);
        assert_eq!(amount(&s, SAINTS, "reputation"), 1);
        assert!(lasting(&s, brick).is_empty());
    }
}

#[test]
fn the_house_advancement_meat_at_13_counts_as_2_3() {
    // ruling escalation-caps: "Meat 13"; ruling escalation-advancement: "A
    // row that cannot apply (a stat at its maximum …) counts as 2-3"
    let (_dir, mut s) = demo();
    let anvil = unit(&mut s, SAINTS, "Anvil", &[("meat", 13)]);
    let mut r = dead_drop(None);
    nominate(&mut r, SAINTS, "Anvil");
    dice(&mut r, "advancement: Anvil", 4);
    record(&mut s, &r);
    assert_eq!(stat(&s, anvil, "meat"), 13);
    assert_eq!(amount(&s, SAINTS, "reputation"), 1);
    assert!(lasting(&s, anvil).is_empty());
}

#[test]
fn the_house_gives_one_advancement_per_gang_per_battle() {
    // ruling escalation-who-advances: "after every battle each gang may
    // nominate one fighter who was not removed from the Zone"
    let (_dir, mut s) = demo();
    let mut r = dead_drop(None);
    nominate(&mut r, SAINTS, "Brick");
    dice(&mut r, "advancement: Brick", 8);
    nominate(&mut r, JACKALS, "Hush");
    dice(&mut r, "advancement: Hush", 8);
    nominate(&mut r, SAINTS, "Dross");
    dice(&mut r, "advancement: Dross", 8);
    assert_eq!(refused(&mut s, &r).field, "advancements[2]");
    r.advancements.pop();
    r.dice.pop();
    let recorded = record(&mut s, &r);
    assert_eq!(recorded.procedure.rolls.len(), 2);
}

#[test]
fn the_house_a_removed_fighter_rolls_for_injury_and_a_taken_down_one_does_not() {
    let (_dir, mut s) = demo();
    let brick = fighter_id(&s, SAINTS, "Brick");
    let dross = fighter_id(&s, SAINTS, "Dross");
    let mut r = dead_drop(Some(json!([
        {"fighter": "Brick", "outcome": "removed"},
        {"fighter": "Dross", "outcome": "taken_down"},
        {"fighter": "Hollow Jack"},
    ])));
    dice(&mut r, "injury: Brick", 10);
    let recorded = record(&mut s, &r);
    // ruling escalation-who-rolls: "every fighter removed from the Zone …
    // rolls once on the injury table. Fighters only Taken Down do not roll."
    let rolls: Vec<&str> = recorded
        .procedure
        .rolls
        .iter()
        .map(|r| r.roll.as_str())
        .collect();
    assert_eq!(rolls, vec!["injury: Brick"]);
    assert_eq!(
        status(&s, brick),
        FighterStatus::Wounded {
            battle: recorded.battle
        }
    );
    assert_eq!(status(&s, dross), FighterStatus::Active);
}

#[test]
fn the_house_a_removed_fighter_cannot_be_nominated() {
    let (_dir, mut s) = demo();
    let mut r = dead_drop(Some(json!([{"fighter": "Brick", "outcome": "removed"}])));
    dice(&mut r, "injury: Brick", 10);
    nominate(&mut r, SAINTS, "Brick");
    assert_eq!(refused(&mut s, &r).field, "advancements[0].fighter");
}

#[test]
fn the_house_deserter_is_hired_for_nothing() {
    // ruling escalation-deserter: "the rival gang may hire the deserter for
    // nothing"
    let (_dir, mut s) = demo();
    let brick = fighter_id(&s, SAINTS, "Brick");
    let before: Vec<i64> = ["supply", "territory", "ammo", "reputation"]
        .iter()
        .map(|r| amount(&s, JACKALS, r))
        .collect();
    let mut r = dead_drop(Some(json!([{"fighter": "Brick", "outcome": "removed"}])));
    dice(&mut r, "injury: Brick", 6);
    pick(&mut r, "injury: Brick", "hire");
    record(&mut s, &r);
    assert_eq!(
        s.fighter(brick).expect("fighter").gang,
        gang_id(&s, JACKALS)
    );
    let after: Vec<i64> = ["supply", "territory", "ammo", "reputation"]
        .iter()
        .map(|r| amount(&s, JACKALS, r))
        .collect();
    assert_eq!(after, before);
}

#[test]
fn the_house_crippled_loses_a_quirk_of_the_rolled_category() {
    // ruling escalation-advancement: "crippled reverses the row (a quirk is
    // lost)"
    let (_dir, mut s) = demo();
    let brick = fighter_id(&s, SAINTS, "Brick");
    let mut r = dead_drop(Some(json!([{"fighter": "Brick", "outcome": "removed"}])));
    dice(&mut r, "injury: Brick", 9);
    dice(&mut r, "cripple: Brick", 7);
    let (_, gang, rule, options) = needed(&s, &r);
    assert_eq!((gang.as_str(), rule.as_str()), (SAINTS, "cripple: Brick"));
    // Brick's own abilities only.
    assert_eq!(options, vec!["jacked", "bloodthirsty"]);
    pick(&mut r, "cripple: Brick", "jacked");
    record(&mut s, &r);
    assert!(!has_quirk(&s, brick, "jacked"));
    assert!(has_quirk(&s, brick, "bloodthirsty"));
    let effects = lasting(&s, brick);
    assert_eq!(effects.len(), 1);
    assert!(
        effects[0].name.starts_with("Crippled"),
        "{}",
        effects[0].name
    );
}

// ---------------------------------------------------------------------------
// 4. Hardwired 28: lasting criticals (000)
// ---------------------------------------------------------------------------

#[test]
fn hardwired28_has_no_scenario_and_no_injury_table() {
    let registry = builtin_registry().expect("packs");
    let pack = registry.get("hardwired28").expect("hardwired28");
    // ruling no-injury-table: "the quick reference has no Injury table"
    assert!(pack.scenarios.is_empty());
    assert!(pack.injuries.is_none());
    assert!(pack.advancement.is_none());
}

#[test]
fn hardwired28_permanent_criticals_are_lasting_and_6_plus_rows_carry_minus_2_injury() {
    let registry = builtin_registry().expect("packs");
    let pack = registry.get("hardwired28").expect("hardwired28");
    let criticals: Vec<&TableDef> = pack
        .tables
        .iter()
        .filter(|t| t.id.starts_with("criticals-"))
        .collect();
    // 000: Criticals: Bladed, Blunt, Projectile, Energy, Explosive, Toxic,
    // Static
    assert_eq!(criticals.len(), 7);
    let mut permanent = 0;
    for t in pack
        .tables
        .iter()
        .filter(|t| t.id.starts_with("criticals-") || t.id.starts_with("fumbles-"))
    {
        for row in &t.rows {
            let is_permanent = row.result.contains("permanently");
            assert_eq!(row.lasting, is_permanent, "{} {}", t.id, row.on);
            if is_permanent {
                permanent += 1;
                assert!(
                    row.effects.iter().any(|e| matches!(
                        e,
                        Effect::Stat { amount: -1, .. }
                            | Effect::Gain { .. }
                            | Effect::LoseQuirk { .. }
                    )),
                    // 000:235 "Forget power permanently": the power is
                    // taken off the model.
                    "{} {}: a lasting stat effect, or an entry lost",
                    t.id,
                    row.on
                );
            }
            if row.result.contains("-2 Injury roll") {
                assert_eq!(row.on, "6+");
                assert!(
                    row.effects
                        .iter()
                        .any(|e| matches!(e, Effect::InjuryModifier { amount: -2 })),
                    "{} {}",
                    t.id,
                    row.on
                );
            }
        }
        if t.id.starts_with("criticals-") {
            let last = t.rows.last().expect("rows");
            assert_eq!(last.on, "6+");
            // 000: "| 6+ | Severed | OoA, -2 Injury roll |" and the like.
            assert!(last.result.contains("-2 Injury roll"), "{}", t.id);
        }
    }
    assert!(permanent >= 18, "{permanent} permanent results");

    let stat_of = |table: &str, on: &str| -> Vec<(String, i64)> {
        pack.table(table)
            .expect("table")
            .rows
            .iter()
            .find(|r| r.on == on)
            .expect("row")
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Stat { stat, amount } => Some((stat.clone(), *amount)),
                _ => None,
            })
            .collect()
    };
    // 000: "| 3 | Hamstrung | -1\" movement permanently |"
    assert_eq!(stat_of("criticals-bladed", "3"), vec![("move".into(), -1)]);
    // 000: "| 5 | Maimed | -1 DT Combat permanently |"
    assert_eq!(
        stat_of("criticals-bladed", "5"),
        vec![("combat".into(), -1)]
    );
    // 000: "| 4 | Concussed | -1 DT Wits permanently |"
    assert_eq!(stat_of("criticals-blunt", "4"), vec![("wits".into(), -1)]);
    // 000: "| 5 | Riddled | -1 DT all attributes permanently |"
    assert_eq!(
        stat_of("criticals-projectile", "5"),
        vec![
            ("combat".into(), -1),
            ("defense".into(), -1),
            ("wits".into(), -1)
        ]
    );
    // 000: "| 2 | Slag Armor | Armor reduced one tier permanently
    // (Heavy→Medium→Light→ Destroyed) |"
    assert_eq!(stat_of("criticals-energy", "2"), vec![("armor".into(), -1)]);
}

#[test]
fn cli_a_critical_looked_up_by_total() {
    let dir = util::temp();
    let out = rapsheet(
        dir.path(),
        &[
            "table",
            "criticals-bladed",
            "--ruleset",
            "hardwired28",
            "--total",
            "5",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
    // 000: "| 5 | Maimed | -1 DT Combat permanently |"
    assert_eq!(v["total"], 5);
    assert_eq!(v["row"]["name"], "Maimed");
    assert_eq!(v["row"]["lasting"], true);
    assert_eq!(
        v["row"]["effects"],
        json!([{"kind": "stat", "stat": "combat", "amount": -1}])
    );

    // 000: "Triple+: Max damage + Critical table (quadruple: +1, etc.)"
    let out = rapsheet(
        dir.path(),
        &[
            "table",
            "criticals-bladed",
            "--ruleset",
            "hardwired28",
            "--total",
            "6",
            "--modifier",
            "quadruple",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(v["natural"], 6);
    assert_eq!(v["total"], 7);
    // 000: "| 6+ | Severed | OoA, -2 Injury roll |"
    assert_eq!(v["row"]["name"], "Severed");
    assert_eq!(
        v["row"]["effects"][0],
        json!({"kind": "injury_modifier", "amount": -2})
    );
}

/// A test override of Hardwired 28 with a scenario and an injury table, to
/// record criticals suffered in a battle (the quick reference has neither).
const HARDWIRED_TEST: &str = r#"
[pack]
id = "hardwired28-test"
name = "Hardwired 28 (test scenario)"
format = 1
base = "hardwired28"
house_rules = true

[[tables]]
id = "test-injury"
name = "Test injury"
roll = "2d6"
rows = [
  { on = "6-", name = "Hurt", result = "Misses the next game", effects = [{ kind = "miss_next_battle" }] },
  { on = "7+", name = "Fine", result = "Nothing" },
]

[injuries]
table = "test-injury"
roll_for = ["out_of_action"]

[[scenarios]]
id = "job"
name = "A job"
stage = "job"
epilogue = []
"#;

#[test]
fn hardwired28_criticals_suffered_in_a_battle_last_and_modify_the_injury_roll() {
    let dir = util::temp();
    let mut registry = builtin_registry().expect("packs");
    registry
        .add_text("hardwired28-test.toml", HARDWIRED_TEST)
        .expect("the test pack loads");
    let mut s = Session::create_with(
        &dir.path().join("h.rapsheet"),
        "Night shift",
        "hardwired28-test",
        registry,
    )
    .expect("create");
    s.found_gang("Crew A", None).expect("found");
    s.found_gang("Crew B", None).expect("found");
    let rook = unit(&mut s, "Crew A", "Rook", &[]);
    unit(&mut s, "Crew B", "Mags", &[]);
    assert_eq!(stat(&s, rook, "combat"), 2);
    let mut r = report(json!({
        "scenario": "job",
        "gangs": [
            {"gang": "Crew A", "fighters": [{"fighter": "Rook", "outcome": "out_of_action"}]},
            {"gang": "Crew B"},
        ],
        "winner": "Crew B",
        "table_results": [
            {"fighter": "Rook", "table": "criticals-bladed", "total": 5},
            {"fighter": "Rook", "table": "criticals-bladed", "total": 7},
        ],
    }));
    dice(&mut r, "test-injury: Rook", 8);
    let recorded = record(&mut s, &r);
    // 000: "| 5 | Maimed | -1 DT Combat permanently |"
    assert_eq!(stat(&s, rook, "combat"), 1);
    let effects = lasting(&s, rook);
    assert_eq!(effects.len(), 1, "Severed does not last: {effects:#?}");
    assert_eq!(effects[0].name, "Maimed");
    assert_eq!(effects[0].table, "criticals-bladed");
    assert_eq!(effects[0].stats, stats(&[("combat", -1)]));
    // 000: "| 6+ | Severed | OoA, -2 Injury roll |"
    let injury = recorded
        .procedure
        .rolls
        .iter()
        .find(|r| r.roll == "test-injury: Rook")
        .expect("an injury roll");
    assert_eq!(injury.modifier, -2);
    assert_eq!(injury.total, 6);
    assert_eq!(injury.result, "Hurt");
    assert_eq!(
        status(&s, rook),
        FighterStatus::Wounded {
            battle: recorded.battle
        }
    );
}

#[test]
fn hardwired28_a_row_on_several_attributes_applies_attribute_by_attribute() {
    let dir = util::temp();
    let mut registry = builtin_registry().expect("packs");
    registry
        .add_text("hardwired28-test.toml", HARDWIRED_TEST)
        .expect("the test pack loads");
    let mut s = Session::create_with(
        &dir.path().join("h.rapsheet"),
        "Night shift",
        "hardwired28-test",
        registry,
    )
    .expect("create");
    s.found_gang("Crew A", None).expect("found");
    s.found_gang("Crew B", None).expect("found");
    let rook = unit(&mut s, "Crew A", "Rook", &[]);
    unit(&mut s, "Crew B", "Mags", &[]);
    // Combat already at the floor, 2d4.
    s.set_base_stat(rook, "combat", 1).expect("2d4");
    let mut r = report(json!({
        "scenario": "job",
        "gangs": [
            {"gang": "Crew A", "fighters": [{"fighter": "Rook", "outcome": "out_of_action"}]},
            {"gang": "Crew B"},
        ],
        "winner": "Crew B",
        "table_results": [{"fighter": "Rook", "table": "criticals-projectile", "total": 5}],
    }));
    dice(&mut r, "test-injury: Rook", 8);
    let recorded = record(&mut s, &r);
    // 000: "| 5 | Riddled | -1 DT all attributes permanently |" and
    // "Never below 2d4 or above 2d12": Combat stays at 2d4, the others drop.
    assert_eq!(stat(&s, rook, "combat"), 1);
    assert_eq!(stat(&s, rook, "defense"), 1);
    assert_eq!(stat(&s, rook, "wits"), 1);
    let effects = lasting(&s, rook);
    assert_eq!(effects.len(), 1, "{effects:#?}");
    assert_eq!(effects[0].name, "Riddled");
    assert_eq!(effects[0].stats, stats(&[("defense", -1), ("wits", -1)]));
    assert!(
        recorded
            .procedure
            .changes
            .iter()
            .any(|c| c.text.contains("COMBAT is at its limit")),
        "{:#?}",
        recorded.procedure.changes
    );
}

// ---------------------------------------------------------------------------
// 5. Captives: ransom and release
// ---------------------------------------------------------------------------

/// Brick captured and held by Blue Lotus; Red Hand secured 10 VP (100
/// resource points) and Blue Lotus 3 (30).
fn brick_held() -> (tempfile::TempDir, PathBuf, Session, FighterId) {
    let (dir, path, mut s) = wayfarer();
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    r.gangs[0].counts.insert("vp".into(), 10);
    r.gangs[1].counts.insert("vp".into(), 3);
    dice(&mut r, "injury: Brick", 7);
    pick(&mut r, "injury: Brick", "hold");
    record(&mut s, &r);
    (dir, path, s, brick)
}

#[test]
fn a_captive_shows_on_both_gangs() {
    let (_dir, _, s, brick) = brick_held();
    // 004: "CAPTURED: The unit is held by enemy forces."
    let blue = s.gang_view(gang_id(&s, BLUE)).expect("view");
    assert_eq!(
        blue.captives,
        vec![(brick, "Brick".to_owned(), RED.to_owned())]
    );
    assert!(blue.fighters.iter().all(|f| f.name != "Brick"));
    let red = s.gang_view(gang_id(&s, RED)).expect("view");
    let view = red
        .fighters
        .iter()
        .find(|f| f.name == "Brick")
        .expect("still on the owner's roster");
    assert_eq!(view.status_text, "held by Blue Lotus");
    assert!(red.captives.is_empty());
    assert_eq!(s.fighter(brick).expect("fighter").gang, gang_id(&s, RED));
}

#[test]
fn a_ransom_moves_the_agreed_amount_to_the_captors_and_frees_the_captive() {
    let (_dir, _, mut s, brick) = brick_held();
    let held = status(&s, brick);
    let before = s.dump().expect("dump");
    // 004: "The capturing player may choose to ransom the unit back to you";
    // ruling ransom: "The two players agree on a price in resource points."
    let batch = s.ransom(brick, "resources", 40).expect("ransom");
    assert_eq!(resources(&s, RED), 60);
    assert_eq!(resources(&s, BLUE), 70);
    assert_eq!(status(&s, brick), FighterStatus::Active);
    assert!(
        s.gang_view(gang_id(&s, BLUE))
            .expect("view")
            .captives
            .is_empty()
    );
    // The freed unit fights again.
    let mut next = escalation(&[], &["Brick"]);
    next.winner = Some(RED.into());
    s.preview_battle(&next, SEED).expect("Brick may fight");

    s.undo(batch).expect("undo");
    assert_eq!(s.dump().expect("dump"), before);
    assert_eq!(status(&s, brick), held);
}

#[test]
fn a_ransom_the_gang_cannot_pay_is_refused_with_nothing_changed() {
    let (_dir, _, mut s, brick) = brick_held();
    let before = s.dump().expect("dump");
    let err = s
        .ransom(brick, "resources", 101)
        .expect_err("Red Hand has 100");
    assert!(
        matches!(
            err.downcast_ref::<AftermathError>(),
            Some(AftermathError::CannotPay {
                have: 100,
                amount: 101,
                ..
            })
        ),
        "{err:#}"
    );
    assert_eq!(s.dump().expect("dump"), before);
    assert!(
        s.ransom(brick, "resources", 0).is_err(),
        "a positive amount"
    );
    assert!(
        s.ransom(brick, "gold", 10).is_err(),
        "a resource of the pack"
    );
    assert_eq!(s.dump().expect("dump"), before);
}

#[test]
fn a_release_frees_the_captive_and_undoes() {
    let (_dir, _, mut s, brick) = brick_held();
    let before = s.dump().expect("dump");
    let batch = s.release(brick).expect("release");
    assert_eq!(status(&s, brick), FighterStatus::Active);
    assert_eq!(resources(&s, RED), 100, "a release costs nothing");
    assert_eq!(resources(&s, BLUE), 30);
    assert!(s.release(brick).is_err(), "no longer a captive");
    assert!(s.ransom(brick, "resources", 10).is_err());
    s.undo(batch).expect("undo");
    assert_eq!(s.dump().expect("dump"), before);
}

// ---------------------------------------------------------------------------
// 6. Healing a lasting injury, reversing an advancement
// ---------------------------------------------------------------------------

/// Brick crippled: Melee DEF 2 → 1.
fn brick_crippled() -> (tempfile::TempDir, PathBuf, Session, FighterId, EffectId) {
    let (dir, path, mut s) = wayfarer();
    let brick = fighter_id(&s, RED, "Brick");
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 9);
    dice(&mut r, "cripple: Brick", 4);
    pick(&mut r, "cripple: Brick", "melee_def");
    record(&mut s, &r);
    let effect = lasting(&s, brick)[0].id;
    (dir, path, s, brick, effect)
}

#[test]
fn healing_a_lasting_injury_needs_a_reason_restores_the_stat_and_undoes() {
    let (_dir, _, mut s, brick, effect) = brick_crippled();
    assert_eq!(stat(&s, brick, "melee_def"), 1);
    let before = s.dump().expect("dump");
    let err = s.remove_lasting(effect, "  ").expect_err("a reason");
    assert!(
        matches!(
            err.downcast_ref::<AftermathError>(),
            Some(AftermathError::NeedsReason(_))
        ),
        "{err:#}"
    );
    assert_eq!(s.dump().expect("dump"), before);

    let batch = s
        .remove_lasting(effect, "patched up by a street medic")
        .expect("heal");
    assert_eq!(stat(&s, brick, "melee_def"), 2);
    let details = s.fighter_details(brick).expect("details");
    assert!(details.view.lasting.is_empty(), "no longer on the fighter");
    assert_eq!(details.effects.len(), 1, "still in the record");
    assert_eq!(
        details.effects[0].removed.as_deref(),
        Some("patched up by a street medic")
    );
    let again = s
        .remove_lasting(effect, "twice")
        .expect_err("already removed");
    assert!(matches!(
        again.downcast_ref::<AftermathError>(),
        Some(AftermathError::AlreadyRemoved(_))
    ));

    s.undo(batch).expect("undo");
    assert_eq!(s.dump().expect("dump"), before);
    assert_eq!(stat(&s, brick, "melee_def"), 1);
}

#[test]
fn healing_a_crippling_that_took_a_quirk_gives_the_quirk_back() {
    let (_dir, mut s) = demo();
    let brick = fighter_id(&s, SAINTS, "Brick");
    let mut r = dead_drop(Some(json!([{"fighter": "Brick", "outcome": "removed"}])));
    dice(&mut r, "injury: Brick", 9);
    dice(&mut r, "cripple: Brick", 7);
    pick(&mut r, "cripple: Brick", "jacked");
    record(&mut s, &r);
    assert!(!has_quirk(&s, brick, "jacked"));
    let effect = lasting(&s, brick)[0].id;
    s.remove_lasting(effect, "healed").expect("heal");
    // As a healed crippling gives a lost die back (see above).
    assert!(has_quirk(&s, brick, "jacked"));
}

#[test]
fn reversing_an_advancement_takes_its_stat_back() {
    let (_dir, mut s, brick, _) = house_advance(4, None);
    let meat = stat(&s, brick, "meat");
    let effect = lasting(&s, brick)[0].id;
    let batch = s.remove_lasting(effect, "rolled wrong").expect("reverse");
    assert_eq!(stat(&s, brick, "meat"), meat - 1);
    s.undo(batch).expect("undo");
    assert_eq!(stat(&s, brick, "meat"), meat);
}

#[test]
fn reversing_an_advancement_that_gave_a_quirk_takes_the_quirk_away_until_undone() {
    let (_dir, mut s, brick, _) = house_advance(6, Some("medpack"));
    assert!(has_quirk(&s, brick, "medpack"));
    let effect = lasting(&s, brick)[0].id;
    let before = s.dump().expect("dump");
    let batch = s
        .remove_lasting(effect, "sold the medpack")
        .expect("reverse");
    assert!(!has_quirk(&s, brick, "medpack"));
    assert!(has_quirk(&s, brick, "jacked"), "the other quirks stay");
    s.undo(batch).expect("undo");
    assert!(has_quirk(&s, brick, "medpack"));
    assert_eq!(s.dump().expect("dump"), before);
}

#[test]
fn a_quirk_gained_by_advancement_breaks_no_recruiting_rule() {
    let (_dir, s) = demo();
    let legal = s.gang_view(gang_id(&s, SAINTS)).expect("view").legal;
    drop(s);
    let (_dir, s, _, _) = house_advance(11, Some("commlink"));
    assert_eq!(s.gang_view(gang_id(&s, SAINTS)).expect("view").legal, legal);
}

// ---------------------------------------------------------------------------
// 7. Undo
// ---------------------------------------------------------------------------

/// Every kind of injury and an advancement in one match.
fn everything_battle(s: &mut Session) -> BattleReport {
    for name in ["Ash", "Cole", "Dane", "Eddy", "Finn", "Gus"] {
        unit(s, RED, name, &BRICK);
    }
    let mut r = escalation(&["Ash", "Brick", "Cole", "Dane", "Eddy", "Finn"], &["Gus"]);
    r.gangs[0].counts.insert("vp".into(), 10);
    r.gangs[1].counts.insert("vp".into(), 10);
    dice(&mut r, "injury: Ash", 2);
    dice(&mut r, "injury: Brick", 7);
    pick(&mut r, "injury: Brick", "hold");
    dice(&mut r, "injury: Cole", 6);
    pick(&mut r, "injury: Cole", "hire");
    dice(&mut r, "injury: Dane", 9);
    dice(&mut r, "cripple: Dane", 4);
    pick(&mut r, "cripple: Dane", "melee_off");
    dice(&mut r, "injury: Eddy", 12);
    dice(&mut r, "advancement: Eddy", 8);
    dice(&mut r, "injury: Finn", 10);
    nominate(&mut r, RED, "Gus");
    dice(&mut r, "advancement: Gus", 5);
    pick(&mut r, "advancement: Gus", "ballistic_def");
    r
}

#[test]
fn undoing_a_battle_with_injuries_restores_the_campaign_exactly() {
    let (_dir, _, mut s) = wayfarer();
    let r = everything_battle(&mut s);
    let before = s.dump().expect("dump");
    record(&mut s, &r);
    let after = s.dump().expect("dump");
    assert_ne!(after, before);
    assert_eq!(after.lasting.len(), 3, "{:#?}", after.lasting);
    let cole = fighter_id(&s, BLUE, "Cole");
    assert_eq!(resources(&s, BLUE), 100 - BRICK_VALUE / 2);

    let (_, undo) = s.undo_last_battle().expect("undo");
    assert_eq!(s.dump().expect("dump"), before);
    assert_eq!(s.fighter(cole).expect("fighter").gang, gang_id(&s, RED));

    // Redone, it is the battle again.
    s.undo(undo).expect("redo");
    assert_eq!(s.dump().expect("dump"), after);
}

#[test]
fn undoing_a_battle_gives_a_hired_deserter_back_as_leader() {
    let (_dir, _, mut s) = wayfarer();
    let brick = fighter_id(&s, RED, "Brick");
    s.set_leader(brick, true).expect("leader");
    let mut r = escalation(&["Brick"], &[]);
    r.gangs[1].counts.insert("vp".into(), 7);
    dice(&mut r, "injury: Brick", 6);
    pick(&mut r, "injury: Brick", "hire");
    let before = s.dump().expect("dump");
    record(&mut s, &r);
    assert!(
        !s.fighter(brick).expect("fighter").leader,
        "not Blue's leader"
    );
    s.undo_last_battle().expect("undo");
    assert_eq!(s.dump().expect("dump"), before);
    assert!(s.fighter(brick).expect("fighter").leader);
}

#[test]
fn undoing_the_match_a_wounded_unit_rested_in_makes_it_wounded_again() {
    let (_dir, _, mut s) = wayfarer();
    let brick = fighter_id(&s, RED, "Brick");
    unit(&mut s, RED, "Ash", &[]);
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 10);
    let first = record(&mut s, &r);
    let wounded = s.dump().expect("dump");
    record(&mut s, &escalation(&[], &["Ash"]));
    assert_eq!(status(&s, brick), FighterStatus::Active);
    s.undo_last_battle().expect("undo");
    assert_eq!(s.dump().expect("dump"), wounded);
    assert_eq!(
        status(&s, brick),
        FighterStatus::Wounded {
            battle: first.battle
        }
    );
}

// ---------------------------------------------------------------------------
// 8. The command line
// ---------------------------------------------------------------------------

fn cli(dir: &Path, args: &[&str]) -> Value {
    let out = rapsheet(dir, args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("json")
}

#[test]
fn cli_fighter_show_lists_lasting_effects_and_history() {
    let (dir, path, s, _, effect) = brick_crippled();
    drop(s);
    let db = path.to_str().expect("path");
    let v = cli(
        dir.path(),
        &["fighter", "show", "Brick", "--db", db, "--json"],
    );
    assert_eq!(v["name"], "Brick");
    assert_eq!(v["gang"], RED);
    assert_eq!(v["effects"][0]["id"], effect.0);
    assert_eq!(v["effects"][0]["stats"], json!({"melee_def": -1}));
    assert!(
        v["effects"][0]["name"]
            .as_str()
            .expect("name")
            .starts_with("Crippled")
    );
    assert_eq!(v["lasting"], v["effects"]);
    let history: Vec<&str> = v["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|h| h["text"].as_str().expect("text"))
        .collect();
    assert!(
        history
            .iter()
            .any(|t| t.contains("[4, 5] = 9: Crippled (dice entered by hand)")),
        "{history:#?}"
    );
    assert!(
        history.iter().any(|t| t.starts_with("Brick: Crippled")),
        "{history:#?}"
    );

    // Healed on the command line: the effect stays in the record, marked.
    let out = rapsheet(
        dir.path(),
        &[
            "fighter",
            "heal",
            "Brick",
            "--effect",
            &effect.0.to_string(),
            "--reason",
            "rested a season",
            "--db",
            db,
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v = cli(
        dir.path(),
        &["fighter", "show", "Brick", "--db", db, "--json"],
    );
    assert_eq!(v["effects"][0]["removed"], "rested a season");
    assert_eq!(v["lasting"], json!([]));
}

#[test]
fn cli_table_injury_9_is_crippled_and_13_cannot_come_up() {
    let dir = util::temp();
    let v = cli(
        dir.path(),
        &[
            "table",
            "injury",
            "--ruleset",
            "wayfarer",
            "--total",
            "9",
            "--json",
        ],
    );
    // 004: "9 CRIPPLED: Roll on the advancement table and, instead of
    // gaining an increase, apply the reverse to the unit."
    assert_eq!(v["row"]["name"], "Crippled");
    assert_eq!(v["row"]["on"], "9");
    assert_eq!(v["roll"], "2d6");

    let out = rapsheet(
        dir.path(),
        &[
            "table",
            "injury",
            "--ruleset",
            "wayfarer",
            "--total",
            "13",
            "--json",
        ],
    );
    assert!(!out.status.success());
    assert!(stdout(&out).is_empty());
    assert!(
        stderr(&out).contains("13 cannot come up on 2d6"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn cli_battle_record_shows_the_rolls() {
    let (dir, path, s) = wayfarer();
    drop(s);
    let mut r = escalation(&["Brick"], &[]);
    dice(&mut r, "injury: Brick", 9);
    dice(&mut r, "cripple: Brick", 8);
    let file = dir.path().join("report.json");
    std::fs::write(&file, serde_json::to_string(&r).expect("json")).expect("write");
    let v = cli(
        dir.path(),
        &[
            "battle",
            "record",
            file.to_str().expect("path"),
            "--db",
            path.to_str().expect("path"),
            "--json",
        ],
    );
    assert_eq!(v["dry_run"], false);
    let rolls = v["rolls"].as_array().expect("rolls");
    assert_eq!(rolls.len(), 2);
    assert_eq!(rolls[0]["roll"], "injury: Brick");
    assert_eq!(rolls[0]["table"], "injury");
    assert_eq!(rolls[0]["total"], 9);
    assert_eq!(rolls[0]["result"], "Crippled");
    assert_eq!(rolls[0]["record"]["dice"], json!([4, 5]));
    assert_eq!(rolls[1]["roll"], "cripple: Brick");
    assert_eq!(rolls[1]["table"], "advancement");
    assert_eq!(rolls[1]["result"], "Bonus Athletics die");

    let s = Session::open(&path).expect("open");
    let brick = fighter_id(&s, RED, "Brick");
    assert_eq!(stat(&s, brick, "athletics"), 2);
}
