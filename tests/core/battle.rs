//! The post-battle procedure of Heartbreaker against its rule text, seed
//! 003: every epilogue line of the six scenarios, bounties, titles, the six
//! resource actions, undo, every mistake a battle report can hold, the role
//! suggestions, and the command line.
//!
//! Every campaign is the demo (The Rust Saints and Neon Jackals, every
//! resource at 0) in a temporary folder. Every rules assertion cites the
//! sentence of 003 it checks in a `// 003: "…"` comment; where the text is
//! silent the pack's ruling is named as `// ruling id: "…"`.

use crate::util;

use std::path::Path;

use rapsheet::campaign::actions::ActionError;
use rapsheet::campaign::battle::{BattleReport, ChangeLine, ReportError, TitleChoiceReport};
use rapsheet::campaign::{FighterId, GangId};
use rapsheet::session::{Recorded, Session};
use serde_json::{Value, json};
use util::{rapsheet, stderr, stdout};

const SAINTS: &str = "The Rust Saints";
const JACKALS: &str = "Neon Jackals";

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

/// The demo campaign in a fresh temporary folder (kept alive by the guard).
/// The demo plays the escalation house rules; these tests check 003 alone,
/// so the campaign is switched to plain Heartbreaker (injuries and
/// advancement have tests of their own).
fn demo() -> (tempfile::TempDir, Session) {
    let dir = util::temp();
    let mut session = Session::create_demo(&dir.path().join("c.rapsheet")).expect("demo");
    session
        .set_campaign_ruleset("heartbreaker")
        .expect("plain Heartbreaker");
    (dir, session)
}

/// A report; a gang that declares no bounty in it records "no
/// declaration" (ruling bounty-no-declaration), except in the tests of
/// declarations, which build theirs with `bare_report`.
fn report(value: Value) -> BattleReport {
    let mut r = bare_report(value);
    util::declare_nothing(&mut r);
    r
}

fn bare_report(value: Value) -> BattleReport {
    serde_json::from_value(value).expect("a well-formed report")
}

fn gang_id(session: &Session, name: &str) -> GangId {
    session.gang_named(name).expect("gang").id
}

fn fighter_id(session: &Session, gang: &str, name: &str) -> FighterId {
    let gang = gang_id(session, gang);
    session
        .fighters(gang)
        .expect("fighters")
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no fighter {name}"))
        .id
}

fn bounty(session: &Session, gang: &str, name: &str) -> i64 {
    let id = fighter_id(session, gang, name);
    session
        .fighter(id)
        .expect("fighter")
        .counters
        .get("bounty")
        .copied()
        .unwrap_or(0)
}

fn set_bounty(session: &mut Session, gang: &str, name: &str, to: i64) {
    let id = fighter_id(session, gang, name);
    session
        .set_counter(id, "bounty", to, "test setup")
        .expect("set bounty");
}

fn amount(session: &Session, gang: &str, resource: &str) -> i64 {
    session
        .gang_named(gang)
        .expect("gang")
        .resources
        .get(resource)
        .copied()
        .unwrap_or(0)
}

/// A gang's resources as `[Supply, Territory, Ammo, Reputation]`.
fn resources(session: &Session, gang: &str) -> [i64; 4] {
    ["supply", "territory", "ammo", "reputation"].map(|r| amount(session, gang, r))
}

/// Sets a gang's resources to `[Supply, Territory, Ammo, Reputation]`.
fn set_resources(session: &mut Session, gang: &str, to: [i64; 4]) {
    let id = gang_id(session, gang);
    for (resource, to) in ["supply", "territory", "ammo", "reputation"]
        .into_iter()
        .zip(to)
    {
        let now = amount(session, gang, resource);
        if now != to {
            session
                .adjust_resource(id, resource, to - now, "test setup")
                .expect("adjust");
        }
    }
}

fn ruling(session: &Session, id: &str) -> String {
    session
        .pack("heartbreaker")
        .expect("pack")
        .ruling(id)
        .unwrap_or_else(|| panic!("no ruling {id}"))
        .ruling
        .clone()
}

/// Records a battle. A gang that qualifies for two titles takes the first
/// it is offered: the epilogue tests are about the epilogue, and titles
/// have tests of their own.
fn record(session: &mut Session, report: BattleReport) -> Recorded {
    let preview = session.preview_battle(&report, 7).expect("preview");
    assert!(
        preview.needed.is_empty(),
        "a choice left out: {:?}",
        preview.needed
    );
    session.record_battle(&report, 7).expect("record")
}

/// The change line for `gang` whose text contains `needle`.
fn line<'a>(changes: &'a [ChangeLine], gang: &str, needle: &str) -> &'a ChangeLine {
    changes
        .iter()
        .find(|c| c.gang.as_deref() == Some(gang) && c.text.contains(needle))
        .unwrap_or_else(|| panic!("no line “{needle}” for {gang} in {changes:#?}"))
}

/// Records a report that must be refused: returns the field named, after
/// checking that the campaign is exactly as it was and that the preview
/// refuses it the same way.
fn refused(session: &mut Session, report: &BattleReport) -> String {
    let before = session.dump().expect("dump");
    let err = session
        .record_battle(report, 7)
        .expect_err("the report is refused");
    assert_eq!(session.dump().expect("dump"), before, "nothing changed");
    let preview = session
        .preview_battle(report, 7)
        .expect_err("the preview refuses it too");
    assert_eq!(preview.to_string(), err.to_string());
    let Some(e) = err.downcast_ref::<ReportError>() else {
        panic!("not a report error: {err:#}");
    };
    assert!(!e.reason.is_empty());
    e.field.clone()
}

/// A Dead Drop with no caches: no epilogue line gives anything, so only
/// bounties, titles and pending effects change.
fn quiet_battle(a: &str, b: &str) -> Value {
    json!({
        "scenario": "Dead Drop",
        "gangs": [{"gang": a}, {"gang": b}],
        "winner": a,
    })
}

// ---------------------------------------------------------------------------
// 1. Scenario epilogues
// ---------------------------------------------------------------------------

#[test]
fn dead_drop_three_and_one_caches() {
    let (_dir, mut s) = demo();
    let done = record(&mut s, three_and_one_caches());
    // 003: "Each gang gets 1 Supply for each cache extracted"
    // 003: "The gang who extracted the most Caches gains 2 Reputation"
    assert_eq!(resources(&s, SAINTS), [3, 0, 0, 2]);
    assert_eq!(resources(&s, JACKALS), [1, 0, 0, 0]);
    assert_eq!(
        line(&done.procedure.changes, SAINTS, "+3 Supply").ruling,
        None
    );
    line(&done.procedure.changes, SAINTS, "+2 Reputation");
    line(&done.procedure.changes, JACKALS, "+1 Supply");
}

#[test]
fn dead_drop_a_gang_with_no_cache_gets_no_supply() {
    let (_dir, mut s) = demo();
    let done = record(
        &mut s,
        report(json!({
            "scenario": "dead-drop",
            "gangs": [
                {"gang": SAINTS, "counts": {"caches": 3}},
                {"gang": JACKALS, "counts": {"caches": 0}},
            ],
            "winner": SAINTS,
        })),
    );
    // 003: "Each gang gets 1 Supply for each cache extracted"
    assert_eq!(resources(&s, SAINTS), [3, 0, 0, 2]);
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 0]);
    line(&done.procedure.changes, JACKALS, "nothing");
}

#[test]
fn dead_drop_tied_caches_give_nobody_the_reputation() {
    let (_dir, mut s) = demo();
    record(
        &mut s,
        report(json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "counts": {"caches": 2}},
                {"gang": JACKALS, "counts": {"caches": 2}},
            ],
            "winner": JACKALS,
        })),
    );
    // 003: "Each gang gets 1 Supply for each cache extracted"
    // 003: "The gang who extracted the most Caches gains 2 Reputation"
    // ruling most-tie: "On a tie neither gang extracted the most, so neither
    // gains the 2 Reputation."
    assert_eq!(resources(&s, SAINTS), [2, 0, 0, 0]);
    assert_eq!(resources(&s, JACKALS), [2, 0, 0, 0]);
}

#[test]
fn dead_drop_a_tie_names_the_most_tie_ruling() {
    let (_dir, s) = demo();
    let preview = s
        .preview_battle(
            &report(json!({
                "scenario": "Dead Drop",
                "gangs": [
                    {"gang": SAINTS, "counts": {"caches": 2}},
                    {"gang": JACKALS, "counts": {"caches": 2}},
                ],
                "winner": JACKALS,
            })),
            7,
        )
        .unwrap();
    // 003: "The gang who extracted the most Caches gains 2 Reputation"
    // ruling most-tie: "On a tie neither gang extracted the most, so neither
    // gains the 2 Reputation."
    let tie = ruling(&s, "most-tie");
    assert!(
        preview
            .changes
            .iter()
            .any(|c| c.ruling.as_deref() == Some(tie.as_str())),
        "{:#?}",
        preview.changes
    );
}

#[test]
fn dead_drop_the_gang_that_ran_loses_reputation_and_picks_supply_or_ammo() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, JACKALS, [0, 0, 0, 3]);
    let done = record(
        &mut s,
        report(json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "counts": {"caches": 1}},
                {"gang": JACKALS, "ran_for_it": true},
            ],
            "winner": SAINTS,
            "choices": [{"gang": JACKALS, "rule": "ran-for-it", "pick": "ammo"}],
        })),
    );
    // 003: "The gang who Ran For It is declared the loser and their rival is
    // declared the winner."
    assert_eq!(done.procedure.battle.winner, Some(gang_id(&s, SAINTS)));
    // 003: "Each gang gets 1 Supply for each cache extracted"
    // 003: "The gang who extracted the most Caches gains 2 Reputation"
    assert_eq!(resources(&s, SAINTS), [1, 0, 0, 2]);
    // 003: "If either gang Ran For It, they lose 1 Reputation but gain their
    // choice of 1 Supply or 1 Ammo"
    assert_eq!(resources(&s, JACKALS), [0, 0, 1, 2]);
    line(&done.procedure.changes, JACKALS, "-1 Reputation");
    line(&done.procedure.changes, JACKALS, "+1 Ammo");
}

#[test]
fn dead_drop_both_gangs_ran_for_it_no_winner_both_take_the_line() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [0, 0, 0, 2]);
    set_resources(&mut s, JACKALS, [0, 0, 0, 2]);
    let done = record(
        &mut s,
        report(json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "ran_for_it": true, "counts": {"caches": 2}},
                {"gang": JACKALS, "ran_for_it": true, "counts": {"caches": 1}},
            ],
            "winner": null,
            "choices": [
                {"gang": SAINTS, "rule": "ran-for-it", "pick": "Supply"},
                {"gang": JACKALS, "rule": "ran-for-it", "pick": "Ammo"},
            ],
        })),
    );
    // 003: "If the skirmish has not yet concluded by the beginning of the 6th
    // turn, the Authority Death Squad arrives and both gangs immediately Run
    // For It."
    // ruling both-ran: "When both gangs Ran For It there is no winner and no
    // loser: lines for the winner or the loser give nothing, and each gang
    // takes the Ran For It line."
    assert_eq!(done.procedure.battle.winner, None);
    // 003: "Each gang gets 1 Supply for each cache extracted"
    // 003: "The gang who extracted the most Caches gains 2 Reputation"
    // 003: "If either gang Ran For It, they lose 1 Reputation but gain their
    // choice of 1 Supply or 1 Ammo"
    assert_eq!(resources(&s, SAINTS), [2 + 1, 0, 0, 2 + 2 - 1]);
    assert_eq!(resources(&s, JACKALS), [1, 0, 1, 2 - 1]);
}

#[test]
fn ran_for_it_with_no_reputation_is_held_at_zero_with_the_ruling() {
    let (_dir, mut s) = demo();
    let done = record(
        &mut s,
        report(json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "counts": {"caches": 3}},
                {"gang": JACKALS, "ran_for_it": true},
            ],
            "winner": SAINTS,
            "choices": [{"gang": JACKALS, "rule": "ran-for-it", "pick": "supply"}],
        })),
    );
    // 003: "If either gang Ran For It, they lose 1 Reputation but gain their
    // choice of 1 Supply or 1 Ammo"
    // ruling resource-floor: "The pack keeps every resource at 0 or above."
    assert_eq!(resources(&s, JACKALS), [1, 0, 0, 0]);
    let held = line(&done.procedure.changes, JACKALS, "held at its floor");
    assert_eq!(held.ruling, Some(ruling(&s, "resource-floor")));
}

#[test]
fn seize_production_winner_and_loser_each_pick() {
    for (win_pick, lose_pick, saints, jackals) in [
        ("territory", "supply", [0, 2, 0, 1], [1, 0, 0, 0]),
        ("Supply", "Territory", [2, 0, 0, 1], [0, 1, 0, 0]),
    ] {
        let (_dir, mut s) = demo();
        record(
            &mut s,
            report(json!({
                "scenario": "Seize Production",
                "gangs": [
                    {"gang": SAINTS, "counts": {"control-points": 10}},
                    {"gang": JACKALS, "counts": {"control-points": 6}},
                ],
                "winner": SAINTS,
                "choices": [
                    {"gang": SAINTS, "rule": "winner", "pick": win_pick},
                    {"gang": JACKALS, "rule": "loser", "pick": lose_pick},
                ],
            })),
        );
        // 003: "The winning gang gains 1 Reputation and their choice of 2
        // Territory or 2 Supply."
        assert_eq!(resources(&s, SAINTS), saints, "winner picks {win_pick}");
        // 003: "The losing gang gains their choice of 1 Territory or 1 Supply"
        assert_eq!(resources(&s, JACKALS), jackals, "loser picks {lose_pick}");
    }
}

#[test]
fn seize_production_the_gang_that_ran_is_the_loser_and_takes_both_lines() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, JACKALS, [0, 0, 0, 2]);
    record(
        &mut s,
        report(json!({
            "scenario": "Seize Production",
            "gangs": [
                {"gang": SAINTS},
                {"gang": JACKALS, "ran_for_it": true},
            ],
            "winner": SAINTS,
            "choices": [
                {"gang": SAINTS, "rule": "winner", "pick": "supply"},
                {"gang": JACKALS, "rule": "loser", "pick": "territory"},
                {"gang": JACKALS, "rule": "ran-for-it", "pick": "ammo"},
            ],
        })),
    );
    // 003: "The winning gang gains 1 Reputation and their choice of 2
    // Territory or 2 Supply."
    assert_eq!(resources(&s, SAINTS), [2, 0, 0, 1]);
    // 003: "The gang who Ran For It is declared the loser and their rival is
    // declared the winner."
    // 003: "The losing gang gains their choice of 1 Territory or 1 Supply"
    // 003: "If either gang Ran for It, they lose 1 Reputation but gain their
    // choice of 1 Supply or 1 Ammo"
    assert_eq!(resources(&s, JACKALS), [0, 1, 1, 1]);
}

#[test]
fn seize_production_both_ran_gives_no_winner_or_loser_line() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [0, 0, 0, 1]);
    set_resources(&mut s, JACKALS, [0, 0, 0, 1]);
    let done = record(
        &mut s,
        report(json!({
            "scenario": "Seize Production",
            "gangs": [
                {"gang": SAINTS, "ran_for_it": true},
                {"gang": JACKALS, "ran_for_it": true},
            ],
            "winner": null,
            "choices": [
                {"gang": SAINTS, "rule": "ran-for-it", "pick": "supply"},
                {"gang": JACKALS, "rule": "ran-for-it", "pick": "ammo"},
            ],
        })),
    );
    // ruling both-ran: "lines for the winner or the loser give nothing, and
    // each gang takes the Ran For It line."
    // 003: "If either gang Ran for It, they lose 1 Reputation but gain their
    // choice of 1 Supply or 1 Ammo"
    assert_eq!(resources(&s, SAINTS), [1, 0, 0, 0]);
    assert_eq!(resources(&s, JACKALS), [0, 0, 1, 0]);
    assert!(done.procedure.needed.is_empty());
}

#[test]
fn catch_and_release_captors_win() {
    let (_dir, mut s) = demo();
    record(
        &mut s,
        report(json!({
            "scenario": "Catch and Release",
            "gangs": [
                {"gang": SAINTS, "role": "Captors"},
                {"gang": JACKALS, "role": "rescuers"},
            ],
            "winner": SAINTS,
        })),
    );
    // 003: "If the Captors Win, they gain 2 Reputation and 1 Territory"
    assert_eq!(resources(&s, SAINTS), [0, 1, 0, 2]);
    // 003: "If the Rescuers Win, they gain 2 Reputation and 1 Supply"
    // (they did not win: nothing)
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 0]);
}

#[test]
fn catch_and_release_rescuers_win() {
    let (_dir, mut s) = demo();
    record(
        &mut s,
        report(json!({
            "scenario": "catch-and-release",
            "gangs": [
                {"gang": SAINTS, "role": "captors"},
                {"gang": JACKALS, "role": "Rescuers"},
            ],
            "winner": JACKALS,
        })),
    );
    // 003: "If the Rescuers Win, they gain 2 Reputation and 1 Supply"
    assert_eq!(resources(&s, JACKALS), [1, 0, 0, 2]);
    // 003: "If the Captors Win, they gain 2 Reputation and 1 Territory"
    // (they did not win: nothing)
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 0]);
}

#[test]
fn catch_and_release_captors_ran_for_it() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [0, 0, 0, 4]);
    record(
        &mut s,
        report(json!({
            "scenario": "Catch and Release",
            "gangs": [
                {"gang": SAINTS, "role": "captors", "ran_for_it": true},
                {"gang": JACKALS, "role": "rescuers"},
            ],
            "winner": JACKALS,
            "choices": [{"gang": SAINTS, "rule": "ran-for-it", "pick": "supply"}],
        })),
    );
    // 003: "If the Rescuers Win, they gain 2 Reputation and 1 Supply"
    assert_eq!(resources(&s, JACKALS), [1, 0, 0, 2]);
    // 003: "If either gang Ran For It, they lose 1 Reputation but gain their
    // choice of 1 Supply or 1 Ammo"
    assert_eq!(resources(&s, SAINTS), [1, 0, 0, 3]);
}

#[test]
fn winner_takes_all_the_winner_picks_ammo_or_supply() {
    for (pick, winner) in [("ammo", [0, 0, 3, 0]), ("Supply", [3, 0, 0, 0])] {
        let (_dir, mut s) = demo();
        record(
            &mut s,
            report(json!({
                "scenario": "Winner Takes All",
                "gangs": [
                    {"gang": SAINTS, "counts": {"loot": 9}},
                    {"gang": JACKALS, "counts": {"loot": 3}},
                ],
                "winner": JACKALS,
                "choices": [{"gang": JACKALS, "rule": "winner", "pick": pick}],
            })),
        );
        // 003: "The winning gang gains their choice of 3 Ammo or 3 Supply"
        assert_eq!(resources(&s, JACKALS), winner, "picks {pick}");
        assert_eq!(resources(&s, SAINTS), [0, 0, 0, 0]);
    }
}

#[test]
fn winner_takes_all_the_gang_that_ran() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [0, 0, 0, 1]);
    record(
        &mut s,
        report(json!({
            "scenario": "Winner Takes All",
            "gangs": [
                {"gang": SAINTS, "ran_for_it": true},
                {"gang": JACKALS},
            ],
            "winner": JACKALS,
            "choices": [
                {"gang": JACKALS, "rule": "winner", "pick": "ammo"},
                {"gang": SAINTS, "rule": "ran-for-it", "pick": "ammo"},
            ],
        })),
    );
    // 003: "The winning gang gains their choice of 3 Ammo or 3 Supply"
    assert_eq!(resources(&s, JACKALS), [0, 0, 3, 0]);
    // 003: "If either gang Ran For It, they lose 1 Reputation but gain their
    // choice of 1 Supply or 1 Ammo"
    assert_eq!(resources(&s, SAINTS), [0, 0, 1, 0]);
}

/// A Headhunters battle: the Jackals hunt the Saints.
fn headhunters(winner: &str, choices: Value) -> BattleReport {
    report(json!({
        "scenario": "Headhunters",
        "gangs": [
            {"gang": SAINTS, "role": "prey"},
            {"gang": JACKALS, "role": "hunters"},
        ],
        "winner": winner,
        "choices": choices,
    }))
}

#[test]
fn headhunters_hunters_win() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [0, 0, 0, 5]);
    record(&mut s, headhunters(JACKALS, json!([])));
    // 003: "If the Hunters won, their gang gains 4 Reputation and the Prey
    // loses 2 Reputation."
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 4]);
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 3]);
}

#[test]
fn headhunters_the_prey_loses_only_what_it_has() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [0, 0, 0, 1]);
    let done = record(&mut s, headhunters(JACKALS, json!([])));
    // 003: "If the Hunters won, their gang gains 4 Reputation and the Prey
    // loses 2 Reputation."
    // ruling resource-floor: "The pack keeps every resource at 0 or above."
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 4]);
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 0]);
    let held = line(&done.procedure.changes, SAINTS, "-2 Reputation");
    assert!(held.text.contains("held at its floor: -1"), "{held:?}");
    assert_eq!(held.ruling, Some(ruling(&s, "resource-floor")));
}

#[test]
fn headhunters_the_prey_wins_and_takes_two_of_a_resource() {
    for (pick, saints, jackals) in [
        ("supply", [2, 0, 0, 0], [1, 3, 3, 0]),
        ("Ammo", [0, 0, 2, 0], [3, 3, 1, 0]),
        ("territory", [0, 2, 0, 0], [3, 1, 3, 0]),
    ] {
        let (_dir, mut s) = demo();
        set_resources(&mut s, JACKALS, [3, 3, 3, 0]);
        let done = record(
            &mut s,
            headhunters(
                SAINTS,
                json!([{"gang": SAINTS, "rule": "prey-wins", "pick": pick}]),
            ),
        );
        // 003: "If the Prey won, their gang make take 2 Supply, 2 Ammo, or 2
        // Territory from the Hunters gang."
        assert_eq!(resources(&s, SAINTS), saints, "takes {pick}");
        assert_eq!(resources(&s, JACKALS), jackals, "loses {pick}");
        assert_eq!(
            line(&done.procedure.changes, SAINTS, "takes 2").ruling,
            None
        );
    }
}

#[test]
fn headhunters_the_prey_may_take_nothing() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, JACKALS, [3, 3, 3, 0]);
    let done = record(
        &mut s,
        headhunters(
            SAINTS,
            json!([{"gang": SAINTS, "rule": "prey-wins", "pick": "none"}]),
        ),
    );
    // 003: "If the Prey won, their gang make take 2 Supply, 2 Ammo, or 2
    // Territory from the Hunters gang."
    // ruling may-take: "Read as \"may take\": the Prey may pick one or none."
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 0]);
    assert_eq!(resources(&s, JACKALS), [3, 3, 3, 0]);
    let nothing = line(&done.procedure.changes, SAINTS, "takes nothing");
    assert_eq!(nothing.ruling, Some(ruling(&s, "may-take")));
}

#[test]
fn headhunters_the_prey_takes_only_what_the_hunters_have() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, JACKALS, [1, 0, 0, 0]);
    let done = record(
        &mut s,
        headhunters(
            SAINTS,
            json!([{"gang": SAINTS, "rule": "prey-wins", "pick": "supply"}]),
        ),
    );
    // 003: "If the Prey won, their gang make take 2 Supply, 2 Ammo, or 2
    // Territory from the Hunters gang."
    // ruling may-take: "They take what the Hunters have, up to 2."
    assert_eq!(resources(&s, SAINTS), [1, 0, 0, 0]);
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 0]);
    let took = line(&done.procedure.changes, SAINTS, "takes 1 Supply");
    assert_eq!(took.ruling, Some(ruling(&s, "may-take")));

    // With nothing to take, nothing moves.
    let (_dir, mut s) = demo();
    record(
        &mut s,
        headhunters(
            SAINTS,
            json!([{"gang": SAINTS, "rule": "prey-wins", "pick": "ammo"}]),
        ),
    );
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 0]);
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 0]);
}

/// The Prey are offered only what the Hunters hold, and are not asked at
/// all when the Hunters hold none of it.
#[test]
fn headhunters_the_prey_is_offered_only_what_the_hunters_hold() {
    // 003: "If the Prey won, their gang make take 2 Supply, 2 Ammo, or 2
    // Territory from the Hunters gang."
    let (_dir, mut s) = demo();
    set_resources(&mut s, JACKALS, [1, 0, 0, 0]);
    let preview = s
        .preview_battle(&headhunters(SAINTS, json!([])), 7)
        .unwrap();
    assert_eq!(preview.needed.len(), 1, "{:?}", preview.needed);
    assert_eq!(preview.needed[0].rule, "prey-wins");
    // ruling may-take: "the Prey may pick one or none."
    assert_eq!(preview.needed[0].options, ["supply", "none"]);

    let (_dir, mut s) = demo();
    let done = record(&mut s, headhunters(SAINTS, json!([])));
    let nothing = line(&done.procedure.changes, SAINTS, "takes nothing");
    assert_eq!(
        nothing.text,
        format!("takes nothing: {JACKALS} has no Supply, Ammo, Territory")
    );
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 0]);
}

#[test]
fn headhunters_the_prey_ran_for_it() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [0, 0, 0, 5]);
    record(
        &mut s,
        report(json!({
            "scenario": "Headhunters",
            "gangs": [
                {"gang": SAINTS, "role": "prey", "ran_for_it": true},
                {"gang": JACKALS, "role": "hunters"},
            ],
            "winner": JACKALS,
            "choices": [{"gang": SAINTS, "rule": "ran-for-it", "pick": "supply"}],
        })),
    );
    // 003: "If the Hunters won, their gang gains 4 Reputation and the Prey
    // loses 2 Reputation."
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 4]);
    // 003: "If either gang Ran For It, they lose 1 Reputation but gain their
    // choice of 1 Supply or 1 Ammo"
    assert_eq!(resources(&s, SAINTS), [1, 0, 0, 5 - 2 - 1]);
}

/// A Cornered Animals battle: the Jackals corner the Saints.
fn cornered(winner: &str, saints_ran: bool, choices: Value) -> BattleReport {
    report(json!({
        "scenario": "Cornered Animals",
        "gangs": [
            {"gang": SAINTS, "role": "Prey", "ran_for_it": saints_ran, "counts": {"escaped": 0}},
            {"gang": JACKALS, "role": "Hunters"},
        ],
        "winner": winner,
        "choices": choices,
    }))
}

#[test]
fn cornered_animals_hunters_win() {
    let (_dir, mut s) = demo();
    record(&mut s, cornered(JACKALS, false, json!([])));
    // 003: "If the Hunters win, they gain 2 Reputation and 1 Territory"
    assert_eq!(resources(&s, JACKALS), [0, 1, 0, 2]);
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 0]);
}

#[test]
fn cornered_animals_prey_win() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, JACKALS, [0, 0, 0, 3]);
    record(&mut s, cornered(SAINTS, false, json!([])));
    // 003: "If the Prey win, they gain 2 Reputation and the Hunters lose 1
    // Reputation."
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 2]);
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 2]);
}

#[test]
fn cornered_animals_the_prey_ran_for_it() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [0, 0, 0, 2]);
    record(
        &mut s,
        cornered(
            JACKALS,
            true,
            json!([{"gang": SAINTS, "rule": "ran-for-it", "pick": "ammo"}]),
        ),
    );
    // 003: "If the Prey Run For It before they can escape, the skirmish ends
    // immediately and the Hunters win."
    // 003: "If the Hunters win, they gain 2 Reputation and 1 Territory"
    assert_eq!(resources(&s, JACKALS), [0, 1, 0, 2]);
    // 003: "If either gang Ran For It, they lose 1 Reputation but gain their
    // choice of 1 Supply or 1 Ammo"
    assert_eq!(resources(&s, SAINTS), [0, 0, 1, 1]);
}

// ---------------------------------------------------------------------------
// 2. Bounties
// ---------------------------------------------------------------------------

#[test]
fn a_bounty_is_claimed_by_the_rival_who_downed_the_fighter_and_reset() {
    let (_dir, mut s) = demo();
    set_bounty(&mut s, SAINTS, "Brick", 3);
    let done = record(
        &mut s,
        report(json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "fighters": [
                    {"fighter": "Mother Cinder"},
                    {"fighter": "Brick", "outcome": "taken_down", "downed_by": "Static"},
                ]},
                {"gang": JACKALS},
            ],
            "winner": JACKALS,
        })),
    );
    // 003: "In future games, whenever that fighter is Taken Down, the gang
    // who downed them gains 1 Reputation for each Bounty."
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 3]);
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 0]);
    // 003: "Reset their bounty to zero afterward."
    assert_eq!(bounty(&s, SAINTS, "Brick"), 0);
    line(
        &done.procedure.changes,
        JACKALS,
        "claims the Bounty of 3 on Brick",
    );
}

#[test]
fn a_fighter_removed_from_the_zone_also_pays_the_bounty() {
    let (_dir, mut s) = demo();
    set_bounty(&mut s, JACKALS, "Hush", 2);
    record(
        &mut s,
        report(json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS},
                {"gang": JACKALS, "fighters": [
                    {"fighter": "hush", "outcome": "removed", "downed_by": "dross"},
                ]},
            ],
            "winner": SAINTS,
        })),
    );
    // 003: "If a fighter with a Second Wind token is reduced to zero meat,
    // they're knocked out for the rest of the skirmish. Remove them from the
    // Zone." (they were Taken Down before)
    // 003: "whenever that fighter is Taken Down, the gang who downed them
    // gains 1 Reputation for each Bounty."
    assert_eq!(resources(&s, SAINTS), [0, 0, 0, 2]);
    assert_eq!(bounty(&s, JACKALS, "Hush"), 0);
}

#[test]
fn a_fighter_downed_by_no_rival_keeps_the_bounty() {
    let (_dir, mut s) = demo();
    set_bounty(&mut s, SAINTS, "Brick", 3);
    let done = record(
        &mut s,
        report(json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "fighters": [
                    {"fighter": "Brick", "outcome": "taken_down"},
                ]},
                {"gang": JACKALS},
            ],
            "winner": JACKALS,
        })),
    );
    // 003: "the gang who downed them gains 1 Reputation for each Bounty."
    // ruling bounty-claims: "a fighter downed by no rival keeps their bounty."
    assert_eq!(bounty(&s, SAINTS, "Brick"), 3);
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 0]);
    let kept = line(&done.procedure.changes, SAINTS, "keeps a Bounty of 3");
    assert_eq!(kept.ruling, Some(ruling(&s, "bounty-claims")));
}

#[test]
fn a_fighter_who_came_through_fine_keeps_the_bounty() {
    let (_dir, mut s) = demo();
    set_bounty(&mut s, SAINTS, "Brick", 3);
    record(&mut s, report(quiet_battle(JACKALS, SAINTS)));
    // 003: "whenever that fighter is Taken Down, the gang who downed them
    // gains 1 Reputation for each Bounty."
    assert_eq!(bounty(&s, SAINTS, "Brick"), 3);
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 0]);
}

#[test]
fn declarations_raise_a_rival_fighter_by_one() {
    let (_dir, mut s) = demo();
    let mut r = report(quiet_battle(SAINTS, JACKALS));
    r.bounties = serde_json::from_value(json!([
        {"by": SAINTS, "fighter": "Static"},
        {"by": JACKALS, "fighter": "Mother Cinder"},
    ]))
    .unwrap();
    util::declare_nothing(&mut r);
    let done = record(&mut s, r);
    // 003: "Both players declare a Bounty on whichever fighter in the rival's
    // gang they deem to be particularly troublesome. Raise that fighter's
    // Bounty by 1 to a maximum of 5."
    assert_eq!(bounty(&s, JACKALS, "Static"), 1);
    assert_eq!(bounty(&s, SAINTS, "Mother Cinder"), 1);
    line(&done.procedure.changes, SAINTS, "Static: Bounty 0 → 1");
}

#[test]
fn declarations_stop_at_five() {
    let (_dir, mut s) = demo();
    set_bounty(&mut s, JACKALS, "Static", 4);
    set_bounty(&mut s, SAINTS, "Brick", 5);
    let mut r = report(quiet_battle(SAINTS, JACKALS));
    r.bounties = serde_json::from_value(json!([
        {"by": SAINTS, "fighter": "Static"},
        {"by": JACKALS, "fighter": "Brick"},
    ]))
    .unwrap();
    util::declare_nothing(&mut r);
    let done = record(&mut s, r);
    // 003: "Raise that fighter's Bounty by 1 to a maximum of 5."
    assert_eq!(bounty(&s, JACKALS, "Static"), 5);
    assert_eq!(bounty(&s, SAINTS, "Brick"), 5);
    line(&done.procedure.changes, JACKALS, "no change");

    // A declaration at 5 changes nothing at all.
    let before = s.dump().unwrap();
    let mut r = report(quiet_battle(SAINTS, JACKALS));
    r.bounties = serde_json::from_value(json!([{"by": JACKALS, "fighter": "Brick"}])).unwrap();
    util::declare_nothing(&mut r);
    let preview = s.preview_battle(&r, 7).unwrap();
    assert!(
        !preview
            .events
            .iter()
            .any(|e| matches!(e, rapsheet::campaign::Event::CounterChanged { .. })),
        "{:?}",
        preview.events
    );
    record(&mut s, r);
    assert_eq!(s.dump().unwrap().fighters, before.fighters);
}

#[test]
fn a_claim_is_paid_before_the_same_battle_declares() {
    let (_dir, mut s) = demo();
    set_bounty(&mut s, SAINTS, "Brick", 3);
    let mut r = report(json!({
        "scenario": "Dead Drop",
        "gangs": [
            {"gang": SAINTS, "fighters": [
                {"fighter": "Brick", "outcome": "taken_down", "downed_by": "Wren"},
            ]},
            {"gang": JACKALS},
        ],
        "winner": JACKALS,
    }));
    r.bounties = serde_json::from_value(json!([{"by": JACKALS, "fighter": "Brick"}])).unwrap();
    util::declare_nothing(&mut r);
    record(&mut s, r);
    // 003: "Reset their bounty to zero afterward." then "Raise that fighter's
    // Bounty by 1"
    // ruling bounty-claims: "A claim is paid before that battle's bounties
    // are declared."
    assert_eq!(resources(&s, JACKALS), [0, 0, 0, 3]);
    assert_eq!(bounty(&s, SAINTS, "Brick"), 1);
}

#[test]
fn one_declaration_per_gang() {
    let (_dir, mut s) = demo();
    let mut r = report(quiet_battle(SAINTS, JACKALS));
    r.bounties = serde_json::from_value(json!([
        {"by": SAINTS, "fighter": "Static"},
        {"by": SAINTS, "fighter": "Hush"},
    ]))
    .unwrap();
    util::declare_nothing(&mut r);
    // 003: "Both players declare a Bounty on whichever fighter in the rival's
    // gang"
    assert_eq!(refused(&mut s, &r), "bounties[1]");
}

#[test]
fn a_declaration_is_on_a_fighter_of_the_rival_gang() {
    let (_dir, mut s) = demo();
    let mut r = report(quiet_battle(SAINTS, JACKALS));
    r.bounties = serde_json::from_value(json!([{"by": SAINTS, "fighter": "Brick"}])).unwrap();
    util::declare_nothing(&mut r);
    // 003: "declare a Bounty on whichever fighter in the rival's gang they
    // deem to be particularly troublesome."
    assert_eq!(refused(&mut s, &r), "bounties[0].fighter");
    r.bounties = serde_json::from_value(json!([{"by": "Ash Dogs", "fighter": "Static"}])).unwrap();
    util::declare_nothing(&mut r);
    assert_eq!(refused(&mut s, &r), "bounties[0].by");
}

// ---------------------------------------------------------------------------
// 3. Titles
// ---------------------------------------------------------------------------

fn holder(session: &Session, title: &str) -> Option<String> {
    let holders = session.title_holders().unwrap();
    holders.get(title).map(|id| session.gang(*id).unwrap().name)
}

#[test]
fn each_title_goes_to_the_gang_with_the_most_of_its_resource() {
    let (_dir, mut s) = demo();
    s.found_gang("Ash Dogs", None).unwrap();
    s.found_gang("Chrome Widows", None).unwrap();
    set_resources(&mut s, SAINTS, [3, 1, 0, 0]);
    set_resources(&mut s, JACKALS, [1, 3, 0, 1]);
    set_resources(&mut s, "Ash Dogs", [0, 0, 2, 0]);
    set_resources(&mut s, "Chrome Widows", [0, 0, 1, 4]);
    let view = s.titles("heartbreaker").unwrap();
    assert!(view.titles.iter().all(|t| t.holder.is_none()));
    let done = s
        .record_battle(&report(quiet_battle(SAINTS, JACKALS)), 7)
        .unwrap();
    // 003: "The leader of the gang with the most of each resource is granted
    // the following title."
    // 003: "Quartermaster, for the gang leader with the most Supply."
    assert_eq!(holder(&s, "quartermaster").as_deref(), Some(SAINTS));
    // 003: "Conqueror, for the gang leader with the most Territory."
    assert_eq!(holder(&s, "conqueror").as_deref(), Some(JACKALS));
    // 003: "Warlord, for the gang leader with the most Ammo."
    assert_eq!(holder(&s, "warlord").as_deref(), Some("Ash Dogs"));
    // 003: "Legend, for the gang leader with the most Reputation."
    assert_eq!(holder(&s, "legend").as_deref(), Some("Chrome Widows"));
    line(&done.procedure.changes, SAINTS, "becomes Quartermaster");

    let view = s.titles("heartbreaker").unwrap();
    let legend = view.titles.iter().find(|t| t.id == "legend").unwrap();
    assert_eq!(legend.holder.as_deref(), Some("Chrome Widows"));
    assert_eq!(legend.standings[0], ("Chrome Widows".to_owned(), 4));
}

#[test]
fn a_gang_with_none_of_a_resource_never_holds_its_title() {
    let (_dir, mut s) = demo();
    record(&mut s, report(quiet_battle(SAINTS, JACKALS)));
    // 003: "The leader of the gang with the most of each resource is granted
    // the following title."
    // ruling title-ties: "A gang with none of the resource never holds its
    // title."
    assert!(s.title_holders().unwrap().is_empty());
}

#[test]
fn a_gang_qualifying_for_two_titles_must_choose() {
    let (dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [3, 0, 0, 3]);
    set_resources(&mut s, JACKALS, [1, 0, 0, 0]);
    let r = report(quiet_battle(SAINTS, JACKALS));

    // 003: "If a gang qualifies for more than one, they must choose one and
    // the other is granted to second place." The choice never holds the
    // battle up: it is recorded, and the titles wait for the choice.
    let preview = s.preview_battle(&r, 7).unwrap();
    assert!(preview.needed.is_empty(), "{:?}", preview.needed);
    let recorded = s.record_battle(&r, 7).unwrap();
    line(
        &recorded.procedure.changes,
        SAINTS,
        "qualifies for Quartermaster and Legend",
    );
    assert_eq!(holder(&s, "legend"), None);
    let view = s.titles("heartbreaker").unwrap();
    assert_eq!(view.must_choose.len(), 1, "{:?}", view.must_choose);
    assert_eq!(view.must_choose[0].0, SAINTS);
    // The window asks it over every screen, read from the gangs that can
    // hold a title alone: the same choice.
    assert_eq!(s.title_choices("heartbreaker").unwrap(), view.choosing);
    // Who leads each title shows before it is settled.
    let legend = view.titles.iter().find(|t| t.id == "legend").unwrap();
    assert_eq!(legend.standings[0], (SAINTS.to_owned(), 3));

    // A title the gang does not qualify for is refused; the choice is one
    // undoable batch.
    let saints = gang_id(&s, SAINTS);
    assert!(s.choose_title(saints, "Kingpin").is_err());
    let before = s.dump().unwrap();
    let batch = s.choose_title(saints, "Legend").unwrap();
    // 003: "they must choose one and the other is granted to second place."
    assert_eq!(holder(&s, "legend").as_deref(), Some(SAINTS));
    assert_eq!(holder(&s, "quartermaster").as_deref(), Some(JACKALS));
    assert!(s.titles("heartbreaker").unwrap().must_choose.is_empty());
    assert!(s.title_choices("heartbreaker").unwrap().is_empty());
    s.undo(batch).unwrap();
    assert_eq!(s.dump().unwrap(), before);

    // The same from the command line.
    drop(s);
    let out = util::rapsheet(
        dir.path(),
        &[
            "titles",
            "choose",
            SAINTS,
            "quartermaster",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
    let text = util::stdout(&out);
    assert!(
        text.contains("The Rust Saints chooses Quartermaster"),
        "{text}"
    );
}

#[test]
fn a_title_given_up_goes_nowhere_when_second_place_has_none() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [3, 0, 0, 3]);
    let mut r = report(quiet_battle(SAINTS, JACKALS));
    r.titles = vec![TitleChoiceReport {
        gang: SAINTS.into(),
        title: "quartermaster".into(),
    }];
    s.record_battle(&r, 7).unwrap();
    // 003: "they must choose one and the other is granted to second place."
    // ruling title-ties: "A gang with none of the resource never holds its
    // title."
    assert_eq!(holder(&s, "quartermaster").as_deref(), Some(SAINTS));
    assert_eq!(holder(&s, "legend"), None);
}

#[test]
fn a_tied_title_stays_with_its_holder_or_goes_to_nobody() {
    let (_dir, mut s) = demo();
    s.found_gang("Ash Dogs", None).unwrap();

    // A tie with no holder: nobody.
    set_resources(&mut s, SAINTS, [2, 0, 0, 0]);
    set_resources(&mut s, JACKALS, [2, 0, 0, 0]);
    record(&mut s, report(quiet_battle(SAINTS, JACKALS)));
    // 003: "The leader of the gang with the most of each resource is granted
    // the following title."
    // ruling title-ties: "On a tie for the most, the gang holding the title
    // keeps it if it is among the tied; otherwise nobody holds it."
    assert_eq!(holder(&s, "quartermaster"), None);

    // The Dogs pull ahead and take it.
    set_resources(&mut s, "Ash Dogs", [3, 0, 0, 0]);
    record(&mut s, report(quiet_battle(SAINTS, JACKALS)));
    assert_eq!(holder(&s, "quartermaster").as_deref(), Some("Ash Dogs"));

    // The Saints draw level with the holder: the holder keeps it.
    set_resources(&mut s, SAINTS, [3, 0, 0, 0]);
    record(&mut s, report(quiet_battle(SAINTS, JACKALS)));
    // ruling title-ties: "the gang holding the title keeps it if it is among
    // the tied"
    assert_eq!(holder(&s, "quartermaster").as_deref(), Some("Ash Dogs"));

    // Two other gangs tie above the holder: nobody holds it.
    set_resources(&mut s, SAINTS, [4, 0, 0, 0]);
    set_resources(&mut s, JACKALS, [4, 0, 0, 0]);
    let done = record(&mut s, report(quiet_battle(SAINTS, JACKALS)));
    // ruling title-ties: "otherwise nobody holds it."
    assert_eq!(holder(&s, "quartermaster"), None);
    line(&done.procedure.changes, "Ash Dogs", "nobody holds it");
}

/// What a record decides of the titles, read from the gangs it needs, is
/// what the whole campaign gives.
fn titles_as_the_whole_campaign_gives(s: &Session, r: &BattleReport, step: &str) {
    let preview = s.preview_battle(r, 7).expect("preview");
    let pack = s.pack("heartbreaker").expect("pack");
    let state = s.campaign_state().expect("the whole campaign");
    let whole = rapsheet::campaign::battle::run_procedure(
        pack,
        &state,
        r,
        preview.procedure().battle.id,
        7,
    )
    .expect("the procedure over the whole campaign");
    assert_eq!(preview.procedure().changes, whole.changes, "{step}");
    assert_eq!(
        format!("{:?}", preview.procedure().needed),
        format!("{:?}", whole.needed),
        "{step}"
    );
    assert_eq!(preview.procedure().events, whole.events, "{step}");
}

/// A record reads the leaders of each title's resource down its places and
/// as far into a tie at the last place as there are places, not every gang
/// of the tie: a dozen gangs tied at the top, the holder among them, and
/// second place in a tie are decided as over the whole campaign.
#[test]
fn titles_over_a_tie_of_many_gangs_are_what_the_whole_campaign_gives() {
    let (_dir, mut s) = demo();
    let tied: Vec<String> = (1..=12).map(|i| format!("Tied {i:02}")).collect();
    for name in &tied {
        s.found_gang(name, None).unwrap();
        set_resources(&mut s, name, [2, 2, 2, 2]);
    }
    // A dozen tied at the top of every resource: nobody holds a title.
    let r = report(quiet_battle(SAINTS, JACKALS));
    titles_as_the_whole_campaign_gives(&s, &r, "a dozen tied at the top");
    record(&mut s, r);
    assert_eq!(holder(&s, "quartermaster"), None);
    // One of them pulls ahead in supply and holds it; then falls back into
    // the tie, which it keeps as the holder among the tied.
    set_resources(&mut s, &tied[6], [3, 2, 2, 2]);
    record(&mut s, report(quiet_battle(SAINTS, JACKALS)));
    assert_eq!(holder(&s, "quartermaster").as_deref(), Some("Tied 07"));
    set_resources(&mut s, &tied[6], [2, 2, 2, 2]);
    let r = report(quiet_battle(SAINTS, JACKALS));
    titles_as_the_whole_campaign_gives(&s, &r, "the holder among the tied");
    record(&mut s, r);
    // ruling title-ties: "the gang holding the title keeps it if it is
    // among the tied"
    assert_eq!(holder(&s, "quartermaster").as_deref(), Some("Tied 07"));
    // The Saints lead two titles with the tie at second place behind them.
    set_resources(&mut s, SAINTS, [5, 5, 0, 0]);
    let r = report(quiet_battle(SAINTS, JACKALS));
    titles_as_the_whole_campaign_gives(&s, &r, "second place in a tie");
    let mut r = report(quiet_battle(SAINTS, JACKALS));
    r.titles = vec![TitleChoiceReport {
        gang: SAINTS.into(),
        title: "quartermaster".into(),
    }];
    titles_as_the_whole_campaign_gives(&s, &r, "second place in a tie, a title chosen");
}

/// The same over many campaigns of small amounts, so that ties are
/// everywhere: gangs of the battle and holders of other titles among them,
/// titles given up to second place, held and lost as records are made.
#[test]
fn titles_over_ties_everywhere_are_what_the_whole_campaign_gives() {
    let (_dir, mut s) = demo();
    let fighting: Vec<String> = s.gangs().unwrap().into_iter().map(|g| g.name).collect();
    let mut names = fighting.clone();
    for i in 1..=12 {
        let name = format!("Tied {i:02}");
        s.found_gang(&name, None).unwrap();
        set_resources(&mut s, &name, [2, 2, 2, 2]);
        names.push(name);
    }
    // xorshift: the same steps every run.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut below = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        usize::try_from(x % n as u64).unwrap()
    };
    for step in 0..60 {
        for _ in 0..4 {
            let gang = names[below(names.len())].clone();
            let to = [below(3), below(3), below(3), below(3)].map(|n| n as i64 + 1);
            set_resources(&mut s, &gang, to);
        }
        let a = below(fighting.len());
        let b = (a + 1 + below(fighting.len() - 1)) % fighting.len();
        let r = report(quiet_battle(&fighting[a], &fighting[b]));
        titles_as_the_whole_campaign_gives(&s, &r, &format!("step {step}"));
        let preview = s.preview_battle(&r, 7).expect("preview");
        if preview.needed.is_empty() {
            s.record_battle(&r, 7).expect("record");
        }
    }
}

#[test]
fn an_unknown_title_choice_is_refused() {
    let (_dir, mut s) = demo();
    let mut r = report(quiet_battle(SAINTS, JACKALS));
    r.titles = vec![TitleChoiceReport {
        gang: SAINTS.into(),
        title: "Emperor".into(),
    }];
    assert_eq!(refused(&mut s, &r), "titles[0].title");
}

// ---------------------------------------------------------------------------
// 4. Resource actions
// ---------------------------------------------------------------------------

fn act(
    session: &mut Session,
    gang: &str,
    action: &str,
    target: Option<&str>,
    choice: Option<&str>,
) -> anyhow::Result<rapsheet::campaign::BatchId> {
    let gang = gang_id(session, gang);
    let target = target.map(|t| gang_id(session, t));
    session.take_action(gang, action, target, choice)
}

/// Takes an action that must be refused; returns the error after checking
/// that nothing changed.
fn act_refused(
    session: &mut Session,
    gang: &str,
    action: &str,
    target: Option<&str>,
    choice: Option<&str>,
) -> ActionError {
    let before = session.dump().unwrap();
    let batches = session.batch_count().unwrap();
    let err = act(session, gang, action, target, choice).expect_err("refused");
    assert_eq!(session.dump().unwrap(), before, "nothing changed");
    assert_eq!(session.batch_count().unwrap(), batches, "nothing logged");
    err.downcast_ref::<ActionError>()
        .unwrap_or_else(|| panic!("not an action error: {err:#}"))
        .clone()
}

#[test]
fn take_actions_pay_the_cost_and_move_one_of_the_chosen_resource() {
    // (action, cost set-up of the Saints, the Jackals' stock, choice,
    //  Saints afterwards, Jackals afterwards)
    let cases = [
        // 003: Falsify Scarcity "Cost: 3 Supply" / "Take 1 Territory or Ammo
        // from another gang."
        (
            "Falsify Scarcity",
            [3, 0, 0, 0],
            [0, 2, 2, 0],
            "ammo",
            [0, 0, 1, 0],
            [0, 2, 1, 0],
        ),
        (
            "falsify-scarcity",
            [4, 0, 0, 0],
            [0, 2, 2, 0],
            "Territory",
            [1, 1, 0, 0],
            [0, 1, 2, 0],
        ),
        // 003: Protection Racket "Cost: 3 Territory" / "Take 1 Ammo or Supply
        // from another gang."
        (
            "Protection Racket",
            [0, 3, 0, 0],
            [2, 0, 2, 0],
            "ammo",
            [0, 0, 1, 0],
            [2, 0, 1, 0],
        ),
        (
            "Protection Racket",
            [0, 3, 0, 0],
            [2, 0, 2, 0],
            "supply",
            [1, 0, 0, 0],
            [1, 0, 2, 0],
        ),
        // 003: Demand Tribute "Cost: 3 Ammo" / "Gain 1 Supply or Territory
        // from another gang."
        (
            "Demand Tribute",
            [0, 0, 3, 0],
            [2, 2, 0, 0],
            "supply",
            [1, 0, 0, 0],
            [1, 2, 0, 0],
        ),
        (
            "Demand Tribute",
            [0, 0, 3, 0],
            [2, 2, 0, 0],
            "territory",
            [0, 1, 0, 0],
            [2, 1, 0, 0],
        ),
    ];
    for (action, saints, jackals, choice, saints_after, jackals_after) in cases {
        let (_dir, mut s) = demo();
        set_resources(&mut s, SAINTS, saints);
        set_resources(&mut s, JACKALS, jackals);
        act(&mut s, SAINTS, action, Some(JACKALS), Some(choice))
            .unwrap_or_else(|e| panic!("{action}: {e:#}"));
        assert_eq!(resources(&s, SAINTS), saints_after, "{action} {choice}");
        assert_eq!(resources(&s, JACKALS), jackals_after, "{action} {choice}");
        assert!(s.pending_effects().unwrap().is_empty());
    }
}

#[test]
fn next_battle_actions_leave_an_effect_the_next_battle_uses() {
    let cases = [
        // 003: Eat your Fill "Cost: 6 Supply" / "In the next skirmish, three
        // of your fighters start with 1 Focus Token."
        (
            "Eat your Fill",
            [6, 0, 0, 0],
            "three of your fighters start with 1 Focus Token",
        ),
        // 003: Set the Stage "Cost: 6 Territory" / "You choose the scenario
        // for the next skirmish"
        (
            "Set the Stage",
            [1, 7, 0, 0],
            "You choose the scenario for the next skirmish",
        ),
        // 003: Prepare for War "Cost: 6 Ammo" / "In the next skirmish, three
        // fighters in your gang temporarily gain 1 additional Weapon or
        // Equipment Quirk of your choice."
        (
            "Prepare for War",
            [0, 0, 6, 2],
            "1 additional Weapon or Equipment Quirk",
        ),
    ];
    let paid = |before: [i64; 4], action: &str| {
        let mut after = before;
        match action {
            "Eat your Fill" => after[0] -= 6,
            "Set the Stage" => after[1] -= 6,
            _ => after[2] -= 6,
        }
        after
    };
    for (action, stock, text) in cases {
        let (_dir, mut s) = demo();
        s.found_gang("Ash Dogs", None).unwrap();
        set_resources(&mut s, SAINTS, stock);
        act(&mut s, SAINTS, action, None, None).unwrap_or_else(|e| panic!("{action}: {e:#}"));
        assert_eq!(resources(&s, SAINTS), paid(stock, action), "{action}");
        let pending = s.pending_effects().unwrap();
        assert_eq!(pending.len(), 1, "{action}");
        assert_eq!(pending[0].gang, gang_id(&s, SAINTS));
        assert_eq!(pending[0].action_name, action);
        assert!(pending[0].text.contains(text), "{:?}", pending[0]);
        assert_eq!(pending[0].used_in, None);

        // A battle the gang is not in leaves it waiting.
        record(&mut s, report(quiet_battle(JACKALS, "Ash Dogs")));
        assert_eq!(s.pending_effects().unwrap()[0].used_in, None);

        // 003: "In the next skirmish" — the gang's next battle uses it. Eat
        // your Fill and Prepare for War mark three fighters: until they are
        // named, the record asks for them.
        let mut r = report(quiet_battle(SAINTS, JACKALS));
        if action != "Set the Stage" {
            let asked = s.preview_battle(&r, 7).unwrap().into_procedure().needed;
            assert_eq!(asked.len(), 1, "{action}: {asked:?}");
            assert_eq!(asked[0].field, "marks");
            assert!(asked[0].text.contains("mark 3"), "{:?}", asked[0]);
            r.marks = serde_json::from_value(json!([
                {"gang": SAINTS, "action": action, "fighters": ["Brick", "Dross", "Mother Cinder"]}
            ]))
            .unwrap();
        }
        let done = record(&mut s, r);
        let used = s.pending_effects().unwrap();
        assert_eq!(used[0].used_in, Some(done.battle), "{action}");
        line(&done.procedure.changes, SAINTS, action);
        if action != "Set the Stage" {
            line(
                &done.procedure.changes,
                SAINTS,
                "Brick, Dross, Mother Cinder: ",
            );
        }

        // And only that one.
        let later = record(&mut s, report(quiet_battle(SAINTS, JACKALS)));
        assert_eq!(s.pending_effects().unwrap()[0].used_in, Some(done.battle));
        assert!(
            later
                .procedure
                .changes
                .iter()
                .all(|c| !c.text.contains(action))
        );
    }
}

#[test]
fn an_action_the_gang_cannot_afford_is_refused_with_nothing_spent() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [5, 5, 5, 5]);
    set_resources(&mut s, JACKALS, [5, 5, 5, 5]);
    // 003: "Once you've acquired enough resources, you may spend those
    // resources between games to do the following:"
    for (action, target, choice) in [
        ("Eat your Fill", None, None),
        ("Set the Stage", None, None),
        ("Prepare for War", None, None),
    ] {
        let err = act_refused(&mut s, SAINTS, action, target, choice);
        assert!(
            matches!(err, ActionError::CannotAfford { .. }),
            "{action}: {err}"
        );
    }
    set_resources(&mut s, SAINTS, [2, 2, 2, 5]);
    for (action, choice) in [
        ("Falsify Scarcity", "ammo"),
        ("Protection Racket", "supply"),
        ("Demand Tribute", "territory"),
    ] {
        let err = act_refused(&mut s, SAINTS, action, Some(JACKALS), Some(choice));
        assert!(
            matches!(err, ActionError::CannotAfford { .. }),
            "{action}: {err}"
        );
    }
}

#[test]
fn taking_from_a_gang_that_has_none_is_refused_with_nothing_spent() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [3, 3, 3, 0]);
    set_resources(&mut s, JACKALS, [0, 0, 0, 4]);
    for (action, choice) in [
        ("Falsify Scarcity", "territory"),
        ("Protection Racket", "ammo"),
        ("Demand Tribute", "supply"),
    ] {
        let err = act_refused(&mut s, SAINTS, action, Some(JACKALS), Some(choice));
        // 003: "Take 1 Territory or Ammo from another gang."
        // ruling take-from-empty: "The action cannot take what the other gang
        // does not have: it is refused and nothing is spent."
        match err {
            ActionError::NothingToTake { ruling: text, .. } => {
                assert_eq!(text, ruling(&s, "take-from-empty"));
            }
            other => panic!("{action}: {other}"),
        }
    }
}

#[test]
fn an_action_missing_its_target_or_choice_is_refused() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [6, 6, 6, 0]);
    set_resources(&mut s, JACKALS, [2, 2, 2, 0]);
    // 003: "Take 1 Territory or Ammo from another gang."
    let err = act_refused(&mut s, SAINTS, "Falsify Scarcity", None, Some("ammo"));
    assert!(matches!(err, ActionError::NeedsTarget(_)), "{err}");
    let err = act_refused(&mut s, SAINTS, "Falsify Scarcity", Some(JACKALS), None);
    assert!(matches!(err, ActionError::NeedsChoice { .. }), "{err}");
    let err = act_refused(
        &mut s,
        SAINTS,
        "Falsify Scarcity",
        Some(JACKALS),
        Some("supply"),
    );
    assert!(matches!(err, ActionError::BadChoice { .. }), "{err}");
    // 003: "from another gang"
    let err = act_refused(
        &mut s,
        SAINTS,
        "Falsify Scarcity",
        Some(SAINTS),
        Some("ammo"),
    );
    assert!(matches!(err, ActionError::SameGang), "{err}");
    let err = act_refused(&mut s, SAINTS, "Eat your Fill", Some(JACKALS), None);
    assert!(matches!(err, ActionError::NoTarget(_)), "{err}");
    let err = act_refused(&mut s, SAINTS, "Steal the Moon", None, None);
    assert!(matches!(err, ActionError::Unknown(..)), "{err}");
}

// ---------------------------------------------------------------------------
// 5. Undo
// ---------------------------------------------------------------------------

#[test]
fn undoing_a_battle_restores_the_campaign_exactly_and_redo_replays_it() {
    let (_dir, mut s) = demo();
    set_resources(&mut s, SAINTS, [6, 0, 0, 1]);
    set_resources(&mut s, JACKALS, [2, 3, 4, 0]);
    set_bounty(&mut s, SAINTS, "Brick", 2);
    set_bounty(&mut s, JACKALS, "Static", 5);
    act(&mut s, SAINTS, "Eat your Fill", None, None).unwrap();
    let mut fed = report(quiet_battle(JACKALS, SAINTS));
    fed.marks = serde_json::from_value(json!([
        {"gang": SAINTS, "action": "eat-your-fill", "fighters": ["Brick", "Dross", "Hollow Jack"]}
    ]))
    .unwrap();
    record(&mut s, fed);
    let before = s.dump().unwrap();
    assert!(!before.titles.is_empty());

    let mut r = report(json!({
        "scenario": "Headhunters",
        "gangs": [
            {"gang": SAINTS, "role": "prey", "fighters": [
                {"fighter": "Brick", "outcome": "taken_down", "downed_by": "Static"},
                {"fighter": "Dross"},
            ]},
            {"gang": JACKALS, "role": "hunters", "fighters": [
                {"fighter": "Static", "outcome": "removed", "downed_by": "Dross"},
                {"fighter": "Hush"},
            ]},
        ],
        "winner": SAINTS,
        "choices": [{"gang": SAINTS, "rule": "prey-wins", "pick": "ammo"}],
        "notes": "the trophy never left the Zone",
    }));
    r.bounties = serde_json::from_value(json!([
        {"by": SAINTS, "fighter": "Hush"},
        {"by": JACKALS, "fighter": "Dross"},
    ]))
    .unwrap();
    util::declare_nothing(&mut r);
    let done = record(&mut s, r);
    let after = s.dump().unwrap();
    assert_ne!(after, before);
    assert_eq!(after.battles.len(), before.battles.len() + 1);

    let (battle, undo) = s.undo_last_battle().unwrap();
    assert_eq!(battle, done.battle);
    assert_eq!(s.dump().unwrap(), before);

    s.undo(undo).unwrap();
    assert_eq!(s.dump().unwrap(), after);
}

#[test]
fn undo_with_no_battle_is_refused() {
    let (_dir, mut s) = demo();
    let before = s.dump().unwrap();
    assert!(s.undo_last_battle().is_err());
    assert_eq!(s.dump().unwrap(), before);
}

// ---------------------------------------------------------------------------
// 6. Mistakes in a report
// ---------------------------------------------------------------------------

/// A good report to break one piece at a time.
fn good() -> Value {
    json!({
        "scenario": "Dead Drop",
        "gangs": [
            {"gang": SAINTS, "counts": {"caches": 3}, "fighters": [
                {"fighter": "Mother Cinder"},
                {"fighter": "Brick", "outcome": "taken_down", "downed_by": "Static"},
            ]},
            {"gang": JACKALS, "counts": {"caches": 1}},
        ],
        "winner": SAINTS,
        "titles": [{"gang": SAINTS, "title": "legend"}],
    })
}

/// `good()` with one piece changed by `edit`.
fn broken(edit: impl FnOnce(&mut Value)) -> BattleReport {
    let mut v = good();
    edit(&mut v);
    report(v)
}

#[test]
fn the_good_report_is_accepted() {
    let (_dir, mut s) = demo();
    s.record_battle(&report(good()), 7).unwrap();
}

#[test]
fn every_mistake_is_refused_with_its_field_and_nothing_changed() {
    let (_dir, mut s) = demo();
    let cr = |v: &mut Value| {
        v["scenario"] = json!("Catch and Release");
        v["gangs"][0]["counts"] = json!({});
        v["gangs"][1]["counts"] = json!({});
        v["gangs"][0]["role"] = json!("captors");
        v["gangs"][1]["role"] = json!("rescuers");
    };
    let cases: Vec<(&str, BattleReport)> = vec![
        ("format", broken(|v| v["format"] = json!(2))),
        ("scenario", broken(|v| v["scenario"] = json!("Pit Fight"))),
        // 003: "Both players simultaneously place their fighter models within
        // the Zone" — a battle is between two gangs.
        (
            "gangs",
            broken(|v| v["gangs"] = json!([v["gangs"][0].clone()])),
        ),
        (
            "gangs",
            broken(|v| {
                let third = json!({"gang": JACKALS});
                v["gangs"].as_array_mut().unwrap().push(third);
            }),
        ),
        (
            "gangs[1].gang",
            broken(|v| v["gangs"][1]["gang"] = json!("Ash Dogs")),
        ),
        (
            "gangs[1].gang",
            broken(|v| v["gangs"][1]["gang"] = json!(SAINTS)),
        ),
        (
            "gangs[1].gang",
            broken(|v| v["gangs"][1]["gang"] = json!("the rust saints")),
        ),
        // 003: "Each player introduces their gang's fighters"
        (
            "gangs[0].fighters[0].fighter",
            broken(|v| v["gangs"][0]["fighters"][0]["fighter"] = json!("Wren")),
        ),
        (
            "gangs[0].fighters[0].fighter",
            broken(|v| v["gangs"][0]["fighters"][0]["fighter"] = json!("Nobody")),
        ),
        (
            "gangs[0].fighters[1].fighter",
            broken(|v| v["gangs"][0]["fighters"][1]["fighter"] = json!("mother cinder")),
        ),
        (
            "gangs[0].fighters[1].outcome",
            broken(|v| v["gangs"][0]["fighters"][1]["outcome"] = json!("eaten")),
        ),
        // 003: "Once a fighter hits zero meat, they cannot continue fighting
        // and are **Taken Down**." — only a downed fighter was downed by anyone.
        (
            "gangs[0].fighters[1].downed_by",
            broken(|v| v["gangs"][0]["fighters"][1]["outcome"] = json!("fine")),
        ),
        // 003: "Fighters with a Bounty grant the rival gang bonus Reputation
        // whenever they're Taken Down." — downed by a rival.
        (
            "gangs[0].fighters[1].downed_by",
            broken(|v| v["gangs"][0]["fighters"][1]["downed_by"] = json!("Dross")),
        ),
        (
            "gangs[0].fighters[1].downed_by",
            broken(|v| v["gangs"][0]["fighters"][1]["downed_by"] = json!("Nobody")),
        ),
        (
            "gangs[1].counts.caches",
            broken(|v| v["gangs"][1]["counts"]["caches"] = json!(-1)),
        ),
        (
            "gangs[0].counts.loot",
            broken(|v| v["gangs"][0]["counts"]["loot"] = json!(4)),
        ),
        // 003: "Place 1 Cache marker in the center of the board, then place 4
        // more Cache markers" — five in all.
        (
            "gangs[*].counts.caches",
            broken(|v| v["gangs"][1]["counts"]["caches"] = json!(3)),
        ),
        (
            "gangs[0].role",
            broken(|v| v["gangs"][0]["role"] = json!("captors")),
        ),
        // 003: "The losers of the previous skirmish are the Captors and
        // winners are the Rescuers." — each gang has one of the two roles.
        (
            "gangs[0].role",
            broken(|v| {
                cr(v);
                v["gangs"][0]["role"] = json!(null);
            }),
        ),
        (
            "gangs[1].role",
            broken(|v| {
                cr(v);
                v["gangs"][1].as_object_mut().unwrap().remove("role");
            }),
        ),
        (
            "gangs[0].role",
            broken(|v| {
                cr(v);
                v["gangs"][0]["role"] = json!("wardens");
            }),
        ),
        (
            "gangs[1].role",
            broken(|v| {
                cr(v);
                v["gangs"][1]["role"] = json!("Captors");
            }),
        ),
        // 003: "The gang who Ran For It is declared the loser and their rival
        // is declared the winner." — with nobody running, the report names
        // the winner.
        ("winner", broken(|v| v["winner"] = json!(null))),
        ("winner", broken(|v| v["winner"] = json!("Ash Dogs"))),
        (
            // 003: "The gang who Ran For It is declared the loser and their
            // rival is declared the winner."
            "winner",
            broken(|v| v["gangs"][0]["ran_for_it"] = json!(true)),
        ),
        (
            // ruling both-ran: "When both gangs Ran For It there is no winner"
            "winner",
            broken(|v| {
                v["gangs"][0]["ran_for_it"] = json!(true);
                v["gangs"][1]["ran_for_it"] = json!(true);
                v["choices"] = json!([
                    {"gang": SAINTS, "rule": "ran-for-it", "pick": "supply"},
                    {"gang": JACKALS, "rule": "ran-for-it", "pick": "supply"},
                ]);
            }),
        ),
        (
            "choices[0].rule",
            broken(|v| {
                v["choices"] = json!([{"gang": SAINTS, "rule": "jackpot", "pick": "supply"}]);
            }),
        ),
        (
            // A line with no choice in this battle: the Saints did not run.
            "choices[0].rule",
            broken(|v| {
                v["choices"] = json!([{"gang": SAINTS, "rule": "ran-for-it", "pick": "supply"}]);
            }),
        ),
        (
            "choices[0].pick",
            broken(|v| {
                v["gangs"][1]["ran_for_it"] = json!(true);
                v["choices"] =
                    json!([{"gang": JACKALS, "rule": "ran-for-it", "pick": "territory"}]);
            }),
        ),
        (
            // "none" only where the line is optional.
            "choices[0].pick",
            broken(|v| {
                v["gangs"][1]["ran_for_it"] = json!(true);
                v["choices"] = json!([{"gang": JACKALS, "rule": "ran-for-it", "pick": "none"}]);
            }),
        ),
        (
            "choices[0].gang",
            broken(|v| {
                v["choices"] =
                    json!([{"gang": "Ash Dogs", "rule": "ran-for-it", "pick": "supply"}]);
            }),
        ),
        (
            "choices[1]",
            broken(|v| {
                v["gangs"][1]["ran_for_it"] = json!(true);
                v["choices"] = json!([
                    {"gang": JACKALS, "rule": "ran-for-it", "pick": "supply"},
                    {"gang": JACKALS, "rule": "ran-for-it", "pick": "ammo"},
                ]);
            }),
        ),
        (
            "dice[0].roll",
            broken(|v| v["dice"] = json!([{"roll": "seize-control", "faces": [4]}])),
        ),
    ];
    for (field, r) in cases {
        assert_eq!(refused(&mut s, &r), field, "{r:#?}");
    }
    assert!(s.battles().unwrap().is_empty());
}

#[test]
fn an_unknown_first_gang_is_refused_naming_it() {
    let (_dir, mut s) = demo();
    let before = s.dump().unwrap();
    let r = broken(|v| v["gangs"][0]["gang"] = json!("Ash Dogs"));
    let err = s.record_battle(&r, 7).expect_err("refused");
    assert!(err.to_string().starts_with("gangs[0].gang: "), "{err}");
    let r = broken(|v| v["gangs"] = json!([]));
    let err = s.record_battle(&r, 7).expect_err("refused");
    assert!(err.to_string().starts_with("gangs: "), "{err}");
    assert_eq!(s.dump().unwrap(), before);
}

#[test]
fn a_report_with_an_unknown_field_does_not_parse() {
    let mut v = good();
    v["gangs"][0]["fighters"][0]["wounds"] = json!(2);
    assert!(serde_json::from_value::<BattleReport>(v).is_err());
    let mut v = good();
    v["winer"] = json!(SAINTS);
    assert!(serde_json::from_value::<BattleReport>(v).is_err());
}

#[test]
fn a_missing_choice_is_refused_naming_choices() {
    let (_dir, mut s) = demo();
    // The Jackals keep the Legend out of the Saints' reach: no title choice.
    set_resources(&mut s, JACKALS, [0, 0, 0, 5]);
    let r = report(json!({
        "scenario": "Seize Production",
        "gangs": [{"gang": SAINTS}, {"gang": JACKALS}],
        "winner": SAINTS,
        "choices": [{"gang": SAINTS, "rule": "winner", "pick": "supply"}],
    }));
    let preview = s.preview_battle(&r, 7).unwrap();
    assert_eq!(preview.needed.len(), 1, "{:?}", preview.needed);
    assert_eq!(preview.needed[0].field, "choices");
    assert_eq!(preview.needed[0].gang, JACKALS);
    assert_eq!(preview.needed[0].rule, "loser");
    // 003: "The losing gang gains their choice of 1 Territory or 1 Supply"
    assert_eq!(preview.needed[0].options, ["territory", "supply"]);

    let before = s.dump().unwrap();
    let err = s.record_battle(&r, 7).expect_err("a choice is missing");
    assert!(err.to_string().starts_with("choices: "), "{err}");
    assert_eq!(s.dump().unwrap(), before);

    // Headhunters' prey may take nothing, but must say so.
    // ruling may-take: "the Prey may pick one or none."
    set_resources(&mut s, JACKALS, [3, 3, 3, 0]);
    let preview = s
        .preview_battle(&headhunters(SAINTS, json!([])), 7)
        .unwrap();
    assert_eq!(
        preview.needed[0].options,
        ["supply", "ammo", "territory", "none"]
    );
}

// ---------------------------------------------------------------------------
// 7. Role suggestions
// ---------------------------------------------------------------------------

#[test]
fn roles_are_suggested_from_the_previous_battle() {
    let (_dir, mut s) = demo();
    let (a, b) = (gang_id(&s, SAINTS), gang_id(&s, JACKALS));
    assert_eq!(s.suggest_roles("Catch and Release", a, b).unwrap(), None);
    record(&mut s, report(quiet_battle(SAINTS, JACKALS)));

    // 003: "The losers of the previous skirmish are the Captors and winners
    // are the Rescuers."
    let roles = s.suggest_roles("Catch and Release", a, b).unwrap();
    assert_eq!(roles, Some(("rescuers".to_owned(), "captors".to_owned())));
    // 003: "The losers of the previous skirmish are the Hunters and previous
    // winners are the Prey."
    let roles = s.suggest_roles("Headhunters", a, b).unwrap();
    assert_eq!(roles, Some(("prey".to_owned(), "hunters".to_owned())));
    let roles = s.suggest_roles("cornered-animals", b, a).unwrap();
    assert_eq!(roles, Some(("hunters".to_owned(), "prey".to_owned())));
    // A scenario with no roles suggests none.
    assert_eq!(s.suggest_roles("Dead Drop", a, b).unwrap(), None);

    // After a battle with no winner there is nothing to go by.
    record(
        &mut s,
        report(json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "ran_for_it": true},
                {"gang": JACKALS, "ran_for_it": true},
            ],
            "winner": null,
            "choices": [
                {"gang": SAINTS, "rule": "ran-for-it", "pick": "supply"},
                {"gang": JACKALS, "rule": "ran-for-it", "pick": "supply"},
            ],
        })),
    );
    assert_eq!(s.suggest_roles("Headhunters", a, b).unwrap(), None);
}

// ---------------------------------------------------------------------------
// 8. The command line
// ---------------------------------------------------------------------------

fn cli_ok(dir: &Path, args: &[&str]) -> String {
    let out = rapsheet(dir, args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

fn cli_gang(dir: &Path, gang: &str) -> Value {
    let text = cli_ok(dir, &["gang", "show", gang, "--db", "c.rapsheet", "--json"]);
    serde_json::from_str(&text).expect("json")
}

fn cli_amount(dir: &Path, gang: &str, resource: &str) -> i64 {
    let view = cli_gang(dir, gang);
    view["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .find(|r| r["id"] == resource)
        .and_then(|r| r["amount"].as_i64())
        .expect("amount")
}

/// Writes a report for the command line, with "no declaration" for every
/// gang that declares no bounty in it (ruling bounty-no-declaration).
fn write_report(dir: &Path, name: &str, value: &Value) -> String {
    let text = serde_json::to_string(&report(value.clone())).expect("a report");
    std::fs::write(dir.join(name), text).expect("write report");
    name.to_owned()
}

#[test]
fn cli_battle_record_prints_the_changes_as_json() {
    let dir = util::temp();
    let d = dir.path();
    cli_ok(d, &["demo", "--db", "c.rapsheet"]);
    let file = write_report(
        d,
        "r.json",
        &json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "counts": {"caches": 3}},
                {"gang": JACKALS, "counts": {"caches": 1}},
            ],
            "winner": SAINTS,
            "titles": [{"gang": SAINTS, "title": "legend"}],
        }),
    );
    let text = cli_ok(
        d,
        &["battle", "record", &file, "--db", "c.rapsheet", "--json"],
    );
    let out: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(out["dry_run"], false);
    let changes = out["changes"].as_array().expect("changes");
    assert!(
        changes
            .iter()
            .any(|c| c["gang"] == SAINTS && c["text"] == "+3 Supply"),
        "{text}"
    );
    // 003: "Each gang gets 1 Supply for each cache extracted"
    // 003: "The gang who extracted the most Caches gains 2 Reputation"
    assert_eq!(cli_amount(d, SAINTS, "supply"), 3);
    assert_eq!(cli_amount(d, SAINTS, "reputation"), 2);
    assert_eq!(cli_amount(d, JACKALS, "supply"), 1);

    let text = cli_ok(d, &["titles", "--db", "c.rapsheet", "--json"]);
    let titles: Value = serde_json::from_str(&text).expect("json");
    let holder = |id: &str| {
        titles["titles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .map(|t| t["holder"].clone())
            .unwrap()
    };
    // 003: "If a gang qualifies for more than one, they must choose one and
    // the other is granted to second place."
    assert_eq!(holder("legend"), SAINTS);
    assert_eq!(holder("quartermaster"), JACKALS);
    assert_eq!(holder("warlord"), Value::Null);
    assert_eq!(titles["titles"].as_array().unwrap().len(), 4);

    let out = cli_ok(d, &["battle", "undo", "--db", "c.rapsheet"]);
    assert!(out.contains("Took back skirmish #1"), "{out}");
    assert_eq!(cli_amount(d, SAINTS, "supply"), 0);
    assert_eq!(cli_amount(d, JACKALS, "supply"), 0);
    let list = cli_ok(d, &["battle", "list", "--db", "c.rapsheet", "--json"]);
    assert_eq!(serde_json::from_str::<Value>(&list).unwrap(), json!([]));
    let text = cli_ok(d, &["titles", "--db", "c.rapsheet", "--json"]);
    let titles: Value = serde_json::from_str(&text).expect("json");
    assert!(
        titles["titles"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["holder"].is_null()),
        "{text}"
    );
}

#[test]
fn cli_battle_record_json_has_no_duplicate_key() {
    let dir = util::temp();
    let d = dir.path();
    cli_ok(d, &["demo", "--db", "c.rapsheet"]);
    let file = write_report(d, "r.json", &quiet_battle(SAINTS, JACKALS));
    let text = cli_ok(
        d,
        &["battle", "record", &file, "--db", "c.rapsheet", "--json"],
    );
    assert_eq!(text.matches("\"battle\":").count(), 1, "{text}");
}

#[test]
fn cli_dry_run_changes_nothing() {
    let dir = util::temp();
    let d = dir.path();
    cli_ok(d, &["demo", "--db", "c.rapsheet"]);
    let file = write_report(
        d,
        "r.json",
        &json!({
            "scenario": "Winner Takes All",
            "gangs": [{"gang": SAINTS}, {"gang": JACKALS}],
            "winner": JACKALS,
            "choices": [{"gang": JACKALS, "rule": "winner", "pick": "ammo"}],
        }),
    );
    let log_before = cli_ok(d, &["log", "--db", "c.rapsheet", "--json"]);
    let text = cli_ok(
        d,
        &[
            "battle",
            "record",
            &file,
            "--dry-run",
            "--db",
            "c.rapsheet",
            "--json",
        ],
    );
    let out: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(out["dry_run"], true);
    assert_eq!(out["batch"], Value::Null);
    assert!(
        out["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["gang"] == JACKALS && c["text"] == "+3 Ammo"),
        "{text}"
    );
    assert_eq!(cli_amount(d, JACKALS, "ammo"), 0);
    assert_eq!(
        cli_ok(d, &["log", "--db", "c.rapsheet", "--json"]),
        log_before
    );
    let list = cli_ok(d, &["battle", "list", "--db", "c.rapsheet", "--json"]);
    assert_eq!(serde_json::from_str::<Value>(&list).unwrap(), json!([]));

    // The text form says what it would do.
    let text = cli_ok(
        d,
        &["battle", "record", &file, "--dry-run", "--db", "c.rapsheet"],
    );
    assert!(text.starts_with("Would record skirmish #1"), "{text}");
    assert!(text.contains("+3 Ammo"), "{text}");
}

#[test]
fn cli_action_falsify_scarcity() {
    let dir = util::temp();
    let d = dir.path();
    cli_ok(d, &["demo", "--db", "c.rapsheet"]);
    cli_ok(
        d,
        &[
            "resource",
            "supply",
            "4",
            "--gang",
            SAINTS,
            "--reason",
            "setup",
            "--db",
            "c.rapsheet",
        ],
    );
    cli_ok(
        d,
        &[
            "resource",
            "ammo",
            "2",
            "--gang",
            JACKALS,
            "--reason",
            "setup",
            "--db",
            "c.rapsheet",
        ],
    );
    let out = cli_ok(
        d,
        &[
            "action",
            "Falsify Scarcity",
            "--gang",
            SAINTS,
            "--target",
            JACKALS,
            "--choice",
            "ammo",
            "--db",
            "c.rapsheet",
        ],
    );
    // 003: Falsify Scarcity "Cost: 3 Supply" / "Take 1 Territory or Ammo from
    // another gang."
    assert!(out.contains("Supply 1"), "{out}");
    assert!(out.contains("Ammo 1"), "{out}");
    assert_eq!(cli_amount(d, SAINTS, "supply"), 1);
    assert_eq!(cli_amount(d, SAINTS, "ammo"), 1);
    assert_eq!(cli_amount(d, JACKALS, "ammo"), 1);

    // Not enough Supply left: refused on one line, nothing spent.
    let out = rapsheet(
        d,
        &[
            "action",
            "Falsify Scarcity",
            "--gang",
            SAINTS,
            "--target",
            JACKALS,
            "--choice",
            "ammo",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim_end().lines().count(),
        1,
        "{}",
        stderr(&out)
    );
    assert_eq!(cli_amount(d, SAINTS, "supply"), 1);
}

#[test]
fn cli_a_broken_report_exits_non_zero_with_one_line_naming_the_field() {
    let dir = util::temp();
    let d = dir.path();
    cli_ok(d, &["demo", "--db", "c.rapsheet"]);
    for (value, field) in [
        (
            json!({
                "scenario": "Dead Drop",
                "gangs": [{"gang": SAINTS}, {"gang": JACKALS}],
            }),
            "winner",
        ),
        (
            json!({
                "scenario": "Dead Drop",
                "gangs": [{"gang": SAINTS, "fighters": [{"fighter": "Wren"}]}, {"gang": JACKALS}],
                "winner": SAINTS,
            }),
            "gangs[0].fighters[0].fighter",
        ),
        (
            json!({
                "scenario": "Seize Production",
                "gangs": [{"gang": SAINTS}, {"gang": JACKALS}],
                "winner": SAINTS,
            }),
            "choices",
        ),
    ] {
        let file = write_report(d, "bad.json", &value);
        let out = rapsheet(
            d,
            &["battle", "record", &file, "--db", "c.rapsheet", "--json"],
        );
        assert!(!out.status.success(), "{value}");
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(&format!("{field}: ")), "{field}: {err}");
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    }
    let list = cli_ok(d, &["battle", "list", "--db", "c.rapsheet", "--json"]);
    assert_eq!(serde_json::from_str::<Value>(&list).unwrap(), json!([]));
}

#[test]
fn a_battle_with_no_winner_names_the_both_ran_ruling() {
    let (_dir, s) = demo();
    let preview = s
        .preview_battle(
            &report(json!({
                "scenario": "Seize Production",
                "gangs": [
                    {"gang": SAINTS, "ran_for_it": true},
                    {"gang": JACKALS, "ran_for_it": true},
                ],
                "winner": null,
            })),
            7,
        )
        .unwrap();
    // 003, Dead Drop: "the Authority Death Squad arrives and both gangs
    // immediately Run For It."
    // ruling both-ran: "When both gangs Ran For It there is no winner and no
    // loser: lines for the winner or the loser give nothing"
    let both = ruling(&s, "both-ran");
    let nobody: Vec<_> = preview
        .changes
        .iter()
        .filter(|c| c.ruling.as_deref() == Some(both.as_str()))
        .collect();
    assert_eq!(nobody.len(), 2, "{:#?}", preview.changes);
    assert!(nobody.iter().all(|c| c.text.contains("no winner")));
}

// ---------------------------------------------------------------------------
// Commit writes what the preview showed
// ---------------------------------------------------------------------------

/// A Dead Drop the Saints win with three caches to the Jackals' one.
fn three_and_one_caches() -> BattleReport {
    report(json!({
        "scenario": "Dead Drop",
        "gangs": [
            {"gang": SAINTS, "counts": {"caches": 3}},
            {"gang": JACKALS, "counts": {"caches": 1}},
        ],
        "winner": SAINTS,
    }))
}

#[test]
fn a_preview_committed_writes_what_recording_in_one_step_writes() {
    let (_dir, mut by_preview) = demo();
    let (_other, mut in_one_step) = demo();
    let preview = by_preview
        .preview_battle(&three_and_one_caches(), 7)
        .expect("preview");
    let shown = preview.procedure().changes.clone();
    let committed = by_preview.record_preview(preview).expect("commit");
    let recorded = in_one_step
        .record_battle(&three_and_one_caches(), 7)
        .expect("record");
    assert_eq!(committed.procedure.changes, shown, "what was shown");
    assert_eq!(committed.procedure.events, recorded.procedure.events);
    assert_eq!(
        by_preview.dump().expect("dump"),
        in_one_step.dump().expect("dump")
    );
    // 003: "Each gang gets 1 Supply for each cache extracted"
    assert_eq!(resources(&by_preview, SAINTS), [3, 0, 0, 2]);
}

#[test]
fn a_preview_made_before_another_change_is_worked_out_again() {
    let (_dir, mut s) = demo();
    let preview = s
        .preview_battle(&three_and_one_caches(), 7)
        .expect("preview");
    // Between the preview and Commit, the Saints gain a Supply: the
    // preview's events start from 0 Supply and no longer fit.
    set_resources(&mut s, SAINTS, [1, 0, 0, 0]);
    let committed = s.record_preview(preview).expect("commit");
    assert_eq!(resources(&s, SAINTS), [4, 0, 0, 2]);
    line(&committed.procedure.changes, SAINTS, "+3 Supply");
    let verification = s.verify().expect("verify");
    assert!(verification.is_sound(), "{verification:?}");
}
