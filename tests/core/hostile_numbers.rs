//! Numbers that would overflow: battle reports, manual resource changes,
//! ransoms, resource actions and bounty claims with counts or stored
//! amounts near the ends of `i64`. Each is refused with the field or the
//! resource named and nothing changed; none wraps and none panics.
//!
//! Stored amounts past the safety bound cannot be made through the app;
//! they stand for a file written by something else, and are set by
//! committing the event straight to the store.

use crate::util;

use rapsheet::campaign::battle::BattleReport;
use rapsheet::campaign::{BattleId, Event, FighterStatus, GangId};
use rapsheet::rules::MAX_MAGNITUDE;
use rapsheet::session::Session;
use serde_json::{Value, json};
use util::{rapsheet, stderr, stdout};

const SAINTS: &str = "The Rust Saints";
const JACKALS: &str = "Neon Jackals";

/// 2^62: two of them add up to one past `i64::MAX`.
const HALF_PAST: i64 = 1 << 62;

/// The demo campaign (every resource at 0), playing plain Heartbreaker.
fn demo() -> (tempfile::TempDir, Session) {
    let dir = util::temp();
    let mut session = Session::create_demo(&dir.path().join("c.rapsheet")).expect("demo");
    session
        .set_campaign_ruleset("heartbreaker")
        .expect("plain Heartbreaker");
    (dir, session)
}

fn report(value: Value) -> BattleReport {
    let mut r: BattleReport = serde_json::from_value(value).expect("a well-formed report");
    util::declare_nothing(&mut r);
    r
}

fn dead_drop(saints: i64, jackals: i64) -> BattleReport {
    report(json!({
        "scenario": "Dead Drop",
        "gangs": [
            {"gang": SAINTS, "counts": {"caches": saints}},
            {"gang": JACKALS, "counts": {"caches": jackals}},
        ],
        "winner": SAINTS,
    }))
}

fn gang_id(session: &Session, name: &str) -> GangId {
    session.gang_named(name).expect("gang").id
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

/// Sets a stored amount as a file from elsewhere might hold it.
fn store_amount(session: &mut Session, gang: &str, resource: &str, to: i64) {
    let event = Event::ResourceAdjusted {
        gang: gang_id(session, gang),
        resource: resource.to_owned(),
        from: amount(session, gang, resource),
        to,
        reason: "written by another program".into(),
    };
    outside(session, &[event]);
}

/// Writes events as another program (or an older build) might have left
/// them in the file: straight through the store, past the gate every
/// change of this build passes.
fn outside(session: &mut Session, events: &[Event]) {
    let path = session.path().to_owned();
    let spare = tempfile::tempdir().expect("temp dir");
    let spare = Session::create(
        &spare.path().join("spare.rapsheet"),
        "Spare",
        "heartbreaker",
    )
    .expect("spare");
    drop(std::mem::replace(session, spare));
    let mut store = rapsheet::store::CampaignStore::open(&path).expect("open");
    store
        .commit("outside", events, &mut |_, _, _| Ok(()))
        .expect("stored");
    drop(store);
    *session = Session::open(&path).expect("reopen");
}

fn error_text(result: anyhow::Result<impl std::fmt::Debug>) -> String {
    format!("{:#}", result.expect_err("refused"))
}

// ---------------------------------------------------------------------------
// Battle reports
// ---------------------------------------------------------------------------

#[test]
fn caches_that_sum_past_i64_are_refused_not_paid_out_as_supply() {
    let (_dir, mut s) = demo();
    let err = error_text(s.record_battle(&dead_drop(HALF_PAST, HALF_PAST), 7));
    assert!(err.starts_with("gangs[0].counts.caches: "), "{err}");
    assert!(err.contains("out of bounds"), "{err}");
    assert!(err.contains(&MAX_MAGNITUDE.to_string()), "{err}");
    assert_eq!(amount(&s, SAINTS, "supply"), 0);
    assert_eq!(amount(&s, JACKALS, "supply"), 0);
    assert!(s.battles().expect("battles").is_empty());
}

#[test]
fn a_count_one_past_the_bound_is_refused_naming_its_gang() {
    let (_dir, s) = demo();
    let err = error_text(s.preview_battle(&dead_drop(0, MAX_MAGNITUDE + 1), 7));
    assert!(
        err.starts_with("gangs[1].counts.caches: 1000001 is out of bounds"),
        "{err}"
    );
}

#[test]
fn a_negative_count_past_the_bound_is_refused_before_the_sum() {
    let (_dir, s) = demo();
    let err = error_text(s.preview_battle(&dead_drop(i64::MIN, i64::MIN), 7));
    assert!(err.starts_with("gangs[0].counts.caches: "), "{err}");
}

#[test]
fn a_table_result_total_past_the_bound_is_refused_naming_its_field() {
    let (_dir, s) = demo();
    let mut r = dead_drop(1, 1);
    r.table_results.push(
        serde_json::from_value(json!({"fighter": "Brick", "table": "injury", "total": i64::MAX}))
            .expect("result"),
    );
    let err = error_text(s.preview_battle(&r, 7));
    assert!(err.starts_with("table_results[0].total: "), "{err}");
    assert!(err.contains("out of bounds"), "{err}");
}

#[test]
fn an_entered_die_face_past_the_bound_is_refused_naming_its_field() {
    let (_dir, s) = demo();
    let mut r = dead_drop(1, 1);
    r.dice.push(
        serde_json::from_value(json!({"roll": "injury: Brick", "faces": [3, u32::MAX]}))
            .expect("dice"),
    );
    let err = error_text(s.preview_battle(&r, 7));
    assert!(err.starts_with("dice[0].faces[1]: "), "{err}");
}

#[test]
fn a_battle_gain_on_supply_at_the_top_of_i64_is_refused_not_wrapped() {
    let (_dir, mut s) = demo();
    store_amount(&mut s, SAINTS, "supply", i64::MAX);
    let err = error_text(s.record_battle(&dead_drop(1, 1), 7));
    assert!(
        err.starts_with("gangs[0]: Supply of The Rust Saints is 9223372036854775807"),
        "{err}"
    );
    assert!(err.contains("past 1000000"), "{err}");
    assert_eq!(amount(&s, SAINTS, "supply"), i64::MAX);
    assert_eq!(amount(&s, JACKALS, "supply"), 0);
}

#[test]
fn a_battle_gain_that_would_pass_the_bound_is_refused() {
    let (_dir, mut s) = demo();
    s.adjust_resource(gang_id(&s, JACKALS), "supply", MAX_MAGNITUDE, "a rich year")
        .expect("at the bound");
    let err = error_text(s.preview_battle(&dead_drop(0, 1), 7));
    assert!(
        err.starts_with("gangs[1]: Supply of Neon Jackals is 1000000; +1"),
        "{err}"
    );
}

#[test]
fn a_bounty_claim_on_a_stored_bounty_near_i64_is_refused_not_wrapped() {
    let (_dir, mut s) = demo();
    let brick = s
        .fighters(gang_id(&s, SAINTS))
        .expect("fighters")
        .into_iter()
        .find(|f| f.name == "Brick")
        .expect("Brick");
    let event = Event::CounterChanged {
        fighter: brick.id,
        counter: "bounty".into(),
        from: brick.counters.get("bounty").copied().unwrap_or(0),
        to: i64::MAX / 2,
        reason: "written by another program".into(),
    };
    outside(&mut s, &[event]);
    let downer = s
        .fighters(gang_id(&s, JACKALS))
        .expect("fighters")
        .into_iter()
        .next()
        .expect("a Jackal")
        .name;
    let r = report(json!({
        "scenario": "Dead Drop",
        "gangs": [
            {"gang": SAINTS, "fighters": [
                {"fighter": "Brick", "outcome": "taken_down", "downed_by": downer},
            ]},
            {"gang": JACKALS},
        ],
        "winner": JACKALS,
    }));
    let err = error_text(s.record_battle(&r, 7));
    assert!(err.starts_with("gangs[1]: "), "{err}");
    assert!(err.contains("past 1000000"), "{err}");
    assert_eq!(amount(&s, JACKALS, "reputation"), 0);
}

// ---------------------------------------------------------------------------
// Manual changes, ransoms and resource actions
// ---------------------------------------------------------------------------

#[test]
fn a_manual_gain_on_a_resource_at_the_top_of_i64_is_refused_not_wrapped() {
    let (_dir, mut s) = demo();
    store_amount(&mut s, SAINTS, "supply", i64::MAX);
    let err = error_text(s.adjust_resource(gang_id(&s, SAINTS), "supply", 1, "one more"));
    assert_eq!(
        err,
        "Supply is 9223372036854775807; a change of +1 would take it past 1000000, the most a number may be"
    );
    assert_eq!(amount(&s, SAINTS, "supply"), i64::MAX);
}

#[test]
fn a_resource_already_past_the_bound_may_still_be_brought_down() {
    let (_dir, mut s) = demo();
    store_amount(&mut s, SAINTS, "supply", i64::MAX);
    s.adjust_resource(gang_id(&s, SAINTS), "supply", -5, "spent")
        .expect("a loss brings it back toward the bound");
    assert_eq!(amount(&s, SAINTS, "supply"), i64::MAX - 5);
}

#[test]
fn a_manual_change_that_would_pass_the_bound_is_refused() {
    let (_dir, mut s) = demo();
    let saints = gang_id(&s, SAINTS);
    let err = error_text(s.adjust_resource(saints, "supply", MAX_MAGNITUDE + 1, "typo"));
    assert!(err.contains("would take it past 1000000"), "{err}");
    s.adjust_resource(saints, "supply", MAX_MAGNITUDE, "a rich year")
        .expect("at the bound");
    let err = error_text(s.adjust_resource(saints, "supply", 1, "one more"));
    assert!(
        err.starts_with("Supply is 1000000; a change of +1"),
        "{err}"
    );
    // i64::MIN has no positive twin: a refusal, never a panic.
    let err = error_text(s.adjust_resource(saints, "supply", i64::MIN, "typo"));
    assert!(err.contains("a change of -9223372036854775808"), "{err}");
    assert_eq!(amount(&s, SAINTS, "supply"), MAX_MAGNITUDE);
}

fn capture(s: &mut Session, gang: &str, by: &str) -> rapsheet::campaign::FighterId {
    let fighter = s
        .fighters(gang_id(s, gang))
        .expect("fighters")
        .into_iter()
        .next()
        .expect("a fighter");
    let event = Event::FighterStatusChanged {
        fighter: fighter.id,
        from: fighter.status.clone(),
        to: FighterStatus::Captured {
            by: gang_id(s, by),
            battle: BattleId(1),
        },
        reason: "taken".into(),
    };
    s.commit_events("capture", &[event]).expect("captured");
    fighter.id
}

#[test]
fn a_ransom_past_the_bound_is_refused() {
    let (_dir, mut s) = demo();
    let captive = capture(&mut s, SAINTS, JACKALS);
    let err = error_text(s.ransom(captive, "supply", i64::MAX));
    assert_eq!(
        err,
        "a ransom of 9223372036854775807 is out of bounds: the most a number may be is 1000000"
    );
}

#[test]
fn a_ransom_to_captors_at_the_top_of_i64_is_refused_not_wrapped() {
    let (_dir, mut s) = demo();
    let captive = capture(&mut s, SAINTS, JACKALS);
    store_amount(&mut s, SAINTS, "supply", 2);
    store_amount(&mut s, JACKALS, "supply", i64::MAX);
    let err = error_text(s.ransom(captive, "supply", 2));
    assert!(
        err.starts_with("Neon Jackals has 9223372036854775807 Supply"),
        "{err}"
    );
    assert_eq!(amount(&s, SAINTS, "supply"), 2);
    assert_eq!(amount(&s, JACKALS, "supply"), i64::MAX);
}

#[test]
fn a_resource_action_taking_onto_a_resource_at_the_top_of_i64_is_refused() {
    let (_dir, mut s) = demo();
    store_amount(&mut s, SAINTS, "supply", 3);
    store_amount(&mut s, SAINTS, "territory", i64::MAX);
    store_amount(&mut s, JACKALS, "territory", 1);
    let (saints, jackals) = (gang_id(&s, SAINTS), gang_id(&s, JACKALS));
    let err =
        error_text(s.take_action(saints, "Falsify Scarcity", Some(jackals), Some("territory")));
    assert!(
        err.starts_with("The Rust Saints has 9223372036854775807 Territory"),
        "{err}"
    );
    assert_eq!(amount(&s, SAINTS, "supply"), 3);
    assert_eq!(amount(&s, JACKALS, "territory"), 1);
}

#[test]
fn the_log_of_a_change_too_wide_for_i64_still_reads() {
    let (dir, mut s) = demo();
    store_amount(&mut s, SAINTS, "supply", i64::MIN);
    store_amount(&mut s, SAINTS, "supply", i64::MAX);
    drop(s);
    let out = rapsheet(dir.path(), &["log", "--limit", "1", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stdout(&out);
    assert!(
        log.contains("Supply changed (-9223372036854775808 → 9223372036854775807)"),
        "{log}"
    );
}

// ---------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------

#[test]
fn cli_resource_change_at_i64_max_fails_with_one_line_and_changes_nothing() {
    let dir = util::temp();
    let d = dir.path();
    assert!(
        rapsheet(d, &["demo", "--db", "c.rapsheet"])
            .status
            .success()
    );
    let before = std::fs::read(d.join("c.rapsheet")).expect("read");
    let out = rapsheet(
        d,
        &[
            "resource",
            "supply",
            &i64::MAX.to_string(),
            "--gang",
            JACKALS,
            "--reason",
            "typo",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("would take it past 1000000"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(std::fs::read(d.join("c.rapsheet")).expect("read"), before);
}

#[test]
fn cli_battle_record_with_caches_summing_past_i64_is_refused_naming_the_field() {
    let dir = util::temp();
    let d = dir.path();
    assert!(
        rapsheet(d, &["demo", "--db", "c.rapsheet"])
            .status
            .success()
    );
    let report = json!({
        "scenario": "Dead Drop",
        "gangs": [
            {"gang": SAINTS, "counts": {"caches": HALF_PAST}},
            {"gang": JACKALS, "counts": {"caches": HALF_PAST}},
        ],
        "winner": SAINTS,
    });
    std::fs::write(d.join("r.json"), report.to_string()).expect("write");
    let before = std::fs::read(d.join("c.rapsheet")).expect("read");
    let out = rapsheet(d, &["battle", "record", "r.json", "--db", "c.rapsheet"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("gangs[0].counts.caches: 4611686018427387904 is out of bounds"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(std::fs::read(d.join("c.rapsheet")).expect("read"), before);
}

/// The demo as it ships (the escalation house rules, with advancement),
/// with a lasting effect on Brick whose id leaves one id free.
fn one_effect_id_left() -> (tempfile::TempDir, Session) {
    let dir = util::temp();
    let mut s = Session::create_demo(&dir.path().join("c.rapsheet")).expect("demo");
    let brick = s.fighter_named("Brick", Some(SAINTS)).expect("Brick").id;
    let effect = rapsheet::campaign::LastingEffect {
        id: rapsheet::campaign::EffectId(i64::MAX - 1),
        fighter: brick,
        table: "advancement".into(),
        name: "Old scar".into(),
        detail: "nothing".into(),
        stats: Default::default(),
        quirk: None,
        lost_quirk: None,
        battle: None,
        roll: None,
        removed: None,
        heals_after: None,
        by_group: None,
        until: None,
    };
    s.commit_events("outside", &[Event::LastingEffectAdded { effect }])
        .expect("stored");
    (dir, s)
}

/// Dead Drop where each gang nominates a fighter who rolls 4 (Bonus Meat,
/// lasting) on the advancement table.
fn two_advancements(both: bool) -> BattleReport {
    let mut r = dead_drop(0, 0);
    let mut nominate = |gang: &str, fighter: &str| {
        r.advancements.push(
            serde_json::from_value(json!({"gang": gang, "fighter": fighter})).expect("nomination"),
        );
        r.dice.push(
            serde_json::from_value(
                json!({"roll": format!("advancement: {fighter}"), "faces": [2, 2]}),
            )
            .expect("dice"),
        );
    };
    nominate(SAINTS, "Brick");
    if both {
        nominate(JACKALS, "Hush");
    }
    r
}

#[test]
fn the_last_lasting_effect_id_is_given_but_none_past_it() {
    let (_dir, mut s) = one_effect_id_left();
    let err = error_text(s.preview_battle(&two_advancements(true), 7));
    assert_eq!(err, "campaign: the campaign has no lasting-effect id left");
    let recorded = s
        .record_battle(&two_advancements(false), 7)
        .expect("one id is left");
    assert!(
        recorded.procedure.events.iter().any(|e| matches!(
            e,
            Event::LastingEffectAdded { effect } if effect.id.0 == i64::MAX
        )),
        "{:#?}",
        recorded.procedure.changes
    );
}
