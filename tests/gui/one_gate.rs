//! The one gate: whatever a change came from — a command, a whole
//! campaign's bundle replayed, a gang bundle, the other copy of a merge —
//! it passes the same checks before it is written, and a refusal names the
//! field with nothing written.

use crate::util;

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use rapsheet::campaign::Event;
use rapsheet::session::Session;
use rapsheet::store::CampaignStore;
use serde_json::{Value, json};

/// The demo campaign's whole bundle, as JSON to edit.
fn demo_whole(dir: &Path) -> (Session, Value) {
    let mut session = Session::create_demo(&dir.join("demo.rapsheet")).unwrap();
    let gang = session.gang_list().unwrap()[0].id;
    session
        .adjust_resource(gang, "supply", 3, "found a cache")
        .unwrap();
    let whole = serde_json::to_value(session.export_whole_bundle().unwrap()).unwrap();
    (session, whole)
}

/// Every event of a whole bundle's log of one type, as (batch, event).
fn events_of(whole: &Value, kind: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, b) in whole["log"]["batches"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        for (j, e) in b["events"].as_array().unwrap().iter().enumerate() {
            if e["type"] == kind {
                out.push((i, j));
            }
        }
    }
    out
}

fn event_mut(whole: &mut Value, (i, j): (usize, usize)) -> &mut Value {
    &mut whole["log"]["batches"][i]["events"][j]
}

/// The files a folder holds, by name.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Makes a campaign from the bundle in a folder of its own and returns
/// the refusal, checking that nothing was left behind.
fn refused_whole(whole: &Value) -> String {
    let dir = util::temp();
    let path = dir.path().join("made.rapsheet");
    let bytes = serde_json::to_vec(whole).unwrap();
    let err = match Session::create_from_bundle(&path, &bytes) {
        Ok(_) => panic!("accepted"),
        Err(e) => format!("{e:#}"),
    };
    assert!(
        files_in(dir.path()).is_empty(),
        "{:?}",
        files_in(dir.path())
    );
    assert!(!err.contains("constraint failed"), "{err}");
    err
}

#[test]
fn a_whole_bundle_is_replayed_through_the_gate() {
    let dir = util::temp();
    let (_, whole) = demo_whole(dir.path());
    let founded = events_of(&whole, "gang_founded");
    let adjusted = events_of(&whole, "resource_adjusted");
    let last = whole["log"]["batches"].as_array().unwrap().len() - 1;
    let (f0, f1, a0) = (founded[0], founded[1], adjusted[0]);
    let second_gang = whole["log"]["batches"][founded[1].0]["events"][founded[1].1]["gang"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let first_gang = whole["log"]["batches"][founded[0].0]["events"][founded[0].1]["gang"]["name"]
        .as_str()
        .unwrap()
        .to_owned();

    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "a batch id of i64::MAX",
            Box::new(move |w| w["log"]["batches"][last]["id"] = json!(i64::MAX)),
            "].id",
        ),
        (
            "a negative batch id",
            Box::new(|w| w["log"]["batches"][0]["id"] = json!(-3)),
            "log.batches[0].id",
        ),
        (
            "a batch that undoes itself",
            Box::new(move |w| w["log"]["batches"][last]["undoes"] = json!(last + 1)),
            "].undoes",
        ),
        (
            "a name with U+202E",
            Box::new(move |w| {
                event_mut(w, f0)["gang"]["name"] = json!("Ash\u{202E}Dogs");
            }),
            "gang.name",
        ),
        (
            "a name with ESC",
            Box::new(move |w| event_mut(w, f0)["gang"]["name"] = json!("Ash\u{1b}[2J")),
            "gang.name",
        ),
        (
            "a name with a newline",
            Box::new(move |w| event_mut(w, f0)["gang"]["name"] = json!("Ash\nDogs")),
            "gang.name",
        ),
        (
            "a name of 100,000 characters",
            Box::new(move |w| event_mut(w, f0)["gang"]["name"] = json!("x".repeat(100_000))),
            "gang.name",
        ),
        (
            "a name in NFD",
            Box::new(move |w| {
                event_mut(w, f0)["gang"]["name"] = json!("Bru\u{302}le\u{301}");
            }),
            "gang.name",
        ),
        (
            "a second gang of the same name in capitals",
            Box::new(move |w| {
                event_mut(w, f1)["gang"]["name"] = json!(first_gang.to_uppercase());
            }),
            "gang.name",
        ),
        (
            "Supply 999,999,999",
            Box::new(move |w| event_mut(w, a0)["to"] = json!(999_999_999_i64)),
            ".to",
        ),
        (
            "Supply i64::MAX at founding",
            Box::new(move |w| {
                event_mut(w, f0)["gang"]["resources"]["supply"] = json!(i64::MAX);
            }),
            "gang.resources.supply",
        ),
        (
            "Supply below its floor at founding",
            Box::new(move |w| {
                event_mut(w, f0)["gang"]["resources"]["supply"] = json!(-5);
            }),
            "gang.resources.supply",
        ),
        (
            "a gang on a pack the build lacks",
            Box::new(move |w| event_mut(w, f0)["gang"]["ruleset"] = json!("nonesuch")),
            "gang.ruleset",
        ),
        (
            "a 12 MB label",
            Box::new(|w| w["log"]["batches"][1]["label"] = json!("l".repeat(12_000_000))),
            "log.batches[1].label",
        ),
        (
            "an `at` that is not a time",
            Box::new(|w| w["log"]["batches"][1]["at"] = json!("yesterday")),
            "log.batches[1].at",
        ),
    ];
    for (what, edit, field) in cases {
        let mut hostile = whole.clone();
        edit(&mut hostile);
        let err = refused_whole(&hostile);
        assert!(err.contains(field), "{what}: {err}");
    }
    // Untouched, it is made again.
    let made = Session::create_from_bundle(
        &dir.path().join("again.rapsheet"),
        &serde_json::to_vec(&whole).unwrap(),
    )
    .unwrap();
    assert!(made.gang_named(&second_gang).is_ok());
}

#[test]
fn three_spellings_of_one_name_are_one_name() {
    // "Brûlé" precomposed, decomposed and in capitals.
    let dir = util::temp();
    let (_, mut s) = util::empty_campaign(dir.path(), "c.rapsheet");
    s.found_gang("Brûlé", None).unwrap();
    for other in ["Bru\u{302}le\u{301}", "BRÛLÉ"] {
        let err = s.found_gang(other, None).unwrap_err().to_string();
        assert!(err.contains("Brûlé"), "{err}");
    }
    let mut whole = serde_json::to_value(s.export_whole_bundle().unwrap()).unwrap();
    let founded = events_of(&whole, "gang_founded")[0];
    let mut batch = whole["log"]["batches"][founded.0].clone();
    batch["id"] = json!(3);
    batch["events"][0]["gang"]["id"] = json!(2);
    batch["events"][0]["gang"]["name"] = json!("BRÛLÉ");
    whole["log"]["batches"].as_array_mut().unwrap().push(batch);
    let err = refused_whole(&whole);
    assert!(
        err.contains("log.batches[2].events[0].gang.name") && err.contains("already"),
        "{err}"
    );
}

/// A gang bundle of the demo's first gang, as JSON to edit.
fn gang_bundle(dir: &Path) -> Value {
    let session = Session::create_demo(&dir.join("from.rapsheet")).unwrap();
    let gang = session.gang_list().unwrap()[0].id;
    serde_json::to_value(session.export_bundle(Some(gang)).unwrap()).unwrap()
}

#[test]
fn a_gang_bundle_is_held_to_what_the_commands_hold() {
    let dir = util::temp();
    let bundle = gang_bundle(dir.path());
    let first_name = bundle["gangs"][0]["fighters"][0]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let entry = bundle["gangs"][0]["fighters"][0]["quirks"][0]["quirk"].clone();
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "Supply −5",
            Box::new(|b| b["gangs"][0]["resources"]["supply"] = json!(-5)),
            "gang.resources.supply",
        ),
        (
            "Bounty 99 of at most 5",
            Box::new(|b| b["gangs"][0]["fighters"][0]["counters"]["bounty"] = json!(99)),
            "counters.bounty",
        ),
        (
            "an unknown resource",
            Box::new(|b| b["gangs"][0]["resources"]["gold"] = json!(3)),
            "gangs[0].resources.gold",
        ),
        (
            "an unknown counter",
            Box::new(|b| b["gangs"][0]["fighters"][0]["counters"]["luck"] = json!(1)),
            "gangs[0].fighters[0].counters.luck",
        ),
        (
            "a selection of an entry the pack does not have",
            Box::new(move |b| {
                b["gangs"][0]["fighters"][1]["quirks"] =
                    json!([{"quirk": entry.clone(), "with": "no-such-entry"}]);
            }),
            "gangs[0].fighters[1]",
        ),
        (
            "an alternative name with a bidi override",
            Box::new(|b| {
                b["gangs"][0]["fighters"][0]["quirks"][0]["alt_name"] = json!("a\u{202E}b")
            }),
            "alt_name",
        ),
        (
            "a lasting effect's name with ESC",
            Box::new(|b| {
                b["gangs"][0]["fighters"][0]["lasting"] =
                    json!([{"table": "t", "name": "Bad\u{1b}[0m"}]);
            }),
            "gangs[0].fighters[0].lasting[0]",
        ),
        (
            "notes of 10,001 characters",
            Box::new(|b| b["gangs"][0]["fighters"][0]["notes"] = json!("n".repeat(10_001))),
            "notes",
        ),
        (
            "two fighters of one name by case",
            Box::new(move |b| {
                b["gangs"][0]["fighters"][1]["name"] = json!(first_name.to_uppercase());
            }),
            "gangs[0].fighters[1]",
        ),
    ];
    let (_, mut to) = util::empty_campaign(dir.path(), "to.rapsheet");
    let before = to.dump().unwrap();
    for (what, edit, field) in cases {
        let mut hostile = bundle.clone();
        edit(&mut hostile);
        let err = format!(
            "{:#}",
            to.import_bundle(&serde_json::to_vec(&hostile).unwrap())
                .unwrap_err()
        );
        assert!(err.contains(field), "{what}: {err}");
        assert!(!err.contains("constraint failed"), "{what}: {err}");
    }
    assert_eq!(to.batch_count().unwrap(), 1);
    assert_eq!(to.dump().unwrap(), before);
}

/// A copy of a campaign made from `log` as another program might have
/// written it: replayed without the gate, so it verifies.
fn unchecked_copy(dir: &Path, name: &str, log: &[rapsheet::campaign::LoggedBatch]) -> PathBuf {
    let path = dir.join(name);
    CampaignStore::create_from_log(&path, log, &[], &mut |_, _, _| Ok(())).unwrap();
    path
}

/// The demo's log as batches.
fn log_of(session: &Session) -> Vec<rapsheet::campaign::LoggedBatch> {
    let whole = session.export_whole_bundle().unwrap();
    whole.log.unwrap().batches().unwrap()
}

#[test]
fn a_merge_takes_nothing_the_gate_refuses() {
    let dir = util::temp();
    let (ours, _) = demo_whole(dir.path());
    let mut log = log_of(&ours);
    let gang = ours.gang_list().unwrap()[0].id;
    let supply = ours.gang(gang).unwrap().resources["supply"];
    let next = log.last().unwrap().id.0 + 1;
    log.push(rapsheet::campaign::LoggedBatch {
        id: rapsheet::campaign::BatchId(next),
        at: "2026-11-26T00:00:00.000Z".into(),
        label: "Supply for ever".into(),
        undoes: None,
        events: vec![Event::ResourceAdjusted {
            gang,
            resource: "supply".into(),
            from: supply,
            to: i64::MAX,
            reason: "typed in by hand".into(),
        }],
    });
    let other = unchecked_copy(dir.path(), "other.rapsheet", &log);
    // Sound as a replay, but it holds what no door takes: verify says so.
    let problems = Session::open(&other).unwrap().verify().unwrap().problems;
    assert!(
        problems.iter().any(|p| p.contains("Supply for ever")),
        "{problems:?}"
    );
    let merge = ours.plan_merge(&other).unwrap();
    let err = format!(
        "{:#}",
        ours.write_merge(&merge, &[], &dir.path().join("merged.rapsheet"))
            .err()
            .unwrap()
    );
    assert!(
        err.contains(".to") && err.contains("out of bounds") || err.contains("outside"),
        "{err}"
    );
    assert!(!dir.path().join("merged.rapsheet").exists());
    // The dry run says the same.
    let dry = util::rapsheet(
        dir.path(),
        &[
            "merge",
            "other.rapsheet",
            "--dry-run",
            "--db",
            "demo.rapsheet",
        ],
    );
    assert!(!dry.status.success());
    assert!(util::stderr(&dry).contains(".to"), "{}", util::stderr(&dry));
}

#[test]
fn a_hand_edited_copy_is_refused_with_what_verify_found() {
    let dir = util::temp();
    let (ours, _) = demo_whole(dir.path());
    let other = dir.path().join("other.rapsheet");
    drop(ours.save_as(&other).unwrap());
    let conn = rusqlite::Connection::open(&other).unwrap();
    conn.execute("UPDATE gang_resource SET amount = amount + 7", [])
        .unwrap();
    drop(conn);
    let err = format!("{:#}", ours.plan_merge(&other).unwrap_err());
    assert!(err.contains("does not verify"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_pipe_as_the_other_copy_is_refused_not_waited_on() {
    let dir = util::temp();
    let (ours, _) = demo_whole(dir.path());
    let fifo = dir.path().join("pipe.rapsheet");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let err = format!("{:#}", ours.plan_merge(&fifo).unwrap_err());
    assert!(err.contains("not a file"), "{err}");
    let err = format!(
        "{:#}",
        rapsheet::session::read_bundle_file(&fifo).unwrap_err()
    );
    assert!(err.contains("not a file"), "{err}");
}

#[test]
fn both_never_takes_a_number_past_its_floor() {
    let dir = util::temp();
    let (mut ours, _) = demo_whole(dir.path());
    let gang = ours.gang_list().unwrap()[0].id;
    let supply = ours.gang(gang).unwrap().resources["supply"];
    assert!(supply > 0, "the demo's first gang has Supply to spend");
    let other = dir.path().join("other.rapsheet");
    let mut theirs = ours.save_as(&other).unwrap();
    // Each copy spends all of it.
    ours.adjust_resource(gang, "supply", -supply, "spent here")
        .unwrap();
    theirs
        .adjust_resource(gang, "supply", -supply, "spent there")
        .unwrap();
    drop(theirs);
    let merge = ours.plan_merge(&other).unwrap();
    let preview = ours.merge_preview(&merge).unwrap();
    let n = preview
        .conflicts
        .iter()
        .position(|c| c.subject.ends_with("Supply"))
        .expect("a Supply conflict");
    assert_eq!(preview.conflicts[n].both, None, "{preview:?}");
    let mut choices = vec![Some(rapsheet::campaign::merge::Choice::Ours); preview.conflicts.len()];
    choices[n] = Some(rapsheet::campaign::merge::Choice::Both);
    let out = dir.path().join("merged.rapsheet");
    let err = format!(
        "{:#}",
        ours.write_merge(&merge, &choices, &out).err().unwrap()
    );
    assert!(
        err.contains(&format!("conflict {}", n + 1)) && err.contains("Supply"),
        "{err}"
    );
    assert!(!out.exists());
    assert!(ours.try_merge(&merge, &choices).is_err());
}

#[test]
fn what_one_copy_took_back_does_not_block_a_merge() {
    let dir = util::temp();
    let (mut ours, _) = demo_whole(dir.path());
    let gang = ours.gang_list().unwrap()[0].id;
    let fighter = ours.fighters(gang).unwrap()[1].id;
    let other = dir.path().join("other.rapsheet");
    let mut theirs = ours.save_as(&other).unwrap();
    // Here: a dismissal taken back, and a gang founded and taken back.
    let dismissed = ours.dismiss(fighter).unwrap();
    ours.undo(dismissed).unwrap();
    let (_, founded) = ours.found_gang("Passing Through", None).unwrap();
    ours.undo(founded).unwrap();
    // There: the same fighter renamed, and a gang of that name founded.
    theirs.rename_fighter(fighter, "Renamed There").unwrap();
    theirs.found_gang("Passing Through", None).unwrap();
    drop(theirs);
    let merge = ours.plan_merge(&other).unwrap();
    let preview = ours.merge_preview(&merge).unwrap();
    let choices = vec![Some(rapsheet::campaign::merge::Choice::Theirs); preview.conflicts.len()];
    ours.try_merge(&merge, &choices).unwrap();
    let merged = ours
        .write_merge(&merge, &choices, &dir.path().join("merged.rapsheet"))
        .unwrap();
    assert!(merged.verify().unwrap().problems.is_empty());
    assert!(merged.gang_named("Passing Through").is_ok());
    assert_eq!(merged.fighter(fighter).unwrap().name, "Renamed There");
}

/// One change, as a player might type it, for the property below.
#[derive(Debug, Clone)]
enum Change {
    RenameGang(String),
    Resource(i64),
    Counter(i64),
    RenameFighter(String),
}

fn tricky_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z ]{1,12}",
        Just("Bru\u{302}le\u{301}".to_owned()),
        Just("  padded  ".to_owned()),
        Just("a\u{202E}b".to_owned()),
        Just("tab\there".to_owned()),
        Just("x".repeat(81)),
        Just(String::new()),
        Just("火の鳥 🔥".to_owned()),
    ]
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        tricky_name().prop_map(Change::RenameGang),
        prop_oneof![
            -20i64..20,
            Just(1_000_001),
            Just(i64::MAX / 2),
            Just(-1_000_000)
        ]
        .prop_filter("a change", |d| *d != 0)
        .prop_map(Change::Resource),
        prop_oneof![-3i64..9, Just(99), Just(i64::MIN / 2)].prop_map(Change::Counter),
        tricky_name().prop_map(Change::RenameFighter),
    ]
}

/// The typed command: accepted or not, and the event it made.
fn typed(dir: &Path, change: &Change) -> Option<Vec<Event>> {
    let mut s = Session::open(&dir.join("typed.rapsheet")).unwrap();
    let gang = s.gang_list().unwrap()[0].id;
    let fighter = s.fighters(gang).unwrap()[0].id;
    let done = match change {
        Change::RenameGang(to) => s.rename_gang(gang, to),
        Change::Resource(delta) => s.adjust_resource(gang, "supply", *delta, "typed"),
        Change::Counter(to) => s.set_counter(fighter, "bounty", *to, "typed"),
        Change::RenameFighter(to) => s.rename_fighter(fighter, to),
    };
    done.ok().map(|b| s.batch(b).unwrap().1)
}

/// The same change as an event a file carries, written as the command
/// would write it where it can be (trimmed, NFC), raw where it cannot.
fn carried(s: &Session, change: &Change) -> Event {
    let gang = s.gang(s.gang_list().unwrap()[0].id).unwrap();
    let fighter = s.fighters(gang.id).unwrap()[0].clone();
    let stored = |raw: &str| rapsheet::text::name("A name", raw).unwrap_or_else(|_| raw.to_owned());
    match change {
        Change::RenameGang(to) => Event::GangRenamed {
            gang: gang.id,
            from: gang.name.clone(),
            to: stored(to),
        },
        Change::Resource(delta) => Event::ResourceAdjusted {
            gang: gang.id,
            resource: "supply".into(),
            from: gang.resources["supply"],
            to: gang.resources["supply"].saturating_add(*delta),
            reason: "typed".into(),
        },
        Change::Counter(to) => Event::CounterChanged {
            fighter: fighter.id,
            counter: "bounty".into(),
            from: fighter.counters.get("bounty").copied().unwrap_or(0),
            to: *to,
            reason: "typed".into(),
        },
        Change::RenameFighter(to) => Event::FighterRenamed {
            fighter: fighter.id,
            from: fighter.name.clone(),
            to: stored(to),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Any change a whole bundle or the other copy of a merge can carry
    /// is accepted exactly when the command that makes it is.
    #[test]
    fn a_carried_change_is_accepted_exactly_when_the_command_is(change in change()) {
        let dir = util::temp();
        let d = dir.path();
        let base = Session::create_demo(&d.join("base.rapsheet")).unwrap();
        drop(base.save_as(&d.join("typed.rapsheet")).unwrap());
        let typed = typed(d, &change);
        // A command that changes nothing is no change to carry.
        let event = carried(&base, &change);
        let no_change = match &event {
            Event::CounterChanged { from, to, .. } | Event::ResourceAdjusted { from, to, .. } => from == to,
            Event::GangRenamed { from, to, .. } | Event::FighterRenamed { from, to, .. } => from == to,
            _ => false,
        };
        prop_assume!(!no_change);

        let mut log = log_of(&base);
        let next = log.last().unwrap().id.0 + 1;
        log.push(rapsheet::campaign::LoggedBatch {
            id: rapsheet::campaign::BatchId(next),
            at: "2026-11-26T00:00:00.000Z".into(),
            label: "Carried".into(),
            undoes: None,
            events: vec![event.clone()],
        });
        // In a whole campaign's bundle.
        let mut whole = serde_json::to_value(base.export_whole_bundle().unwrap()).unwrap();
        let batch = &log[log.len() - 1];
        whole["log"]["batches"].as_array_mut().unwrap().push(json!({
            "id": batch.id.0,
            "at": batch.at,
            "label": batch.label,
            "events": [serde_json::from_str::<Value>(&rapsheet::campaign::wire::encode(&event).unwrap()).unwrap()],
        }));
        let bundled = Session::create_from_bundle(&d.join("bundled.rapsheet"), &serde_json::to_vec(&whole).unwrap());
        prop_assert_eq!(typed.is_some(), bundled.is_ok(), "{:?}: typed {:?}, bundled {:?}", change, typed, bundled.as_ref().err());
        // As the other copy of a merge.
        let other = unchecked_copy(d, "other.rapsheet", &log);
        let merged = base
            .plan_merge(&other)
            .and_then(|m| base.write_merge(&m, &[], &d.join("merged.rapsheet")));
        prop_assert_eq!(typed.is_some(), merged.is_ok(), "{:?}: merged {:?}", change, merged.as_ref().err());
        if let Some(events) = typed {
            // What the command wrote is what the file carried.
            prop_assert_eq!(events, vec![event]);
        }
    }
}

/// The app's merge view offers no *Both* where keeping both would take a
/// number past its floor: each copy spent the gang's last Supply.
#[test]
fn the_app_does_not_offer_both_past_a_floor() {
    use egui_kittest::kittest::Queryable;
    let dir = util::temp();
    let (mut ours, _) = demo_whole(dir.path());
    let gang = ours.gang_list().unwrap()[0].id;
    let supply = ours.gang(gang).unwrap().resources["supply"];
    let other = dir.path().join("other.rapsheet");
    let mut theirs = ours.save_as(&other).unwrap();
    ours.adjust_resource(gang, "supply", -supply, "spent here")
        .unwrap();
    theirs
        .adjust_resource(gang, "supply", -supply, "spent there")
        .unwrap();
    drop(theirs);
    let mut h = egui_kittest::Harness::builder()
        .with_size([1280.0, 900.0])
        .wgpu()
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            rapsheet::ui::RapsheetApp::with_session(ours),
        );
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Merge…").click();
    h.run();
    util::type_into(&mut h, "The other copy", other.to_str().unwrap());
    h.get_by_label("Look at the merge").click();
    h.run();
    assert!(h.query_all_by_label_contains("Supply").next().is_some());
    assert!(h.query_by_label("This copy's").is_some());
    assert!(h.query_by_label_contains("Both:").is_none());
    if let Ok(shot) = std::env::var("RAPSHEET_SHOT") {
        h.render().unwrap().save(shot).unwrap();
    }
}

/// A name that shows nothing, or holds a character no text holds, is
/// refused by every door: typed (`gang new`) and in a gang's bundle.
#[test]
fn a_name_that_shows_nothing_is_refused_typed_and_in_a_bundle() {
    let dir = util::temp();
    util::ok(dir.path(), &["demo"]);
    let bundle = util::ok(
        dir.path(),
        &[
            "bundle",
            "export",
            "--gang",
            "The Rust Saints",
            "-o",
            "g.json",
        ],
    );
    assert!(bundle.starts_with("Wrote"), "{bundle}");
    let text = std::fs::read_to_string(dir.path().join("g.json")).unwrap();
    for name in [
        "\u{3164}",
        "\u{301}\u{308}",
        "Ash Dogs\u{E0041}",
        "Ash\u{FFFF}",
        "x\u{FDD0}",
    ] {
        let out = util::rapsheet(dir.path(), &["gang", "new", name, "--db", "c.rapsheet"]);
        assert!(!out.status.success(), "{name:?} was founded");
        let mut value: Value = serde_json::from_str(&text).unwrap();
        value["gangs"][0]["name"] = json!(name);
        std::fs::write(dir.path().join("bad.json"), value.to_string()).unwrap();
        let out = util::rapsheet(
            dir.path(),
            &["bundle", "import", "bad.json", "--db", "c.rapsheet"],
        );
        assert!(!out.status.success(), "{name:?} came in by a bundle");
        assert!(
            util::stderr(&out).contains("gangs[0].name"),
            "{}",
            util::stderr(&out)
        );
    }
}

/// The campaign a gang's bundle says it came from is named in the log's
/// line for the import: a name, or the bundle is refused naming it.
#[test]
fn a_bundles_campaign_label_is_a_name() {
    let dir = util::temp();
    util::ok(dir.path(), &["demo"]);
    util::ok(
        dir.path(),
        &[
            "bundle",
            "export",
            "--gang",
            "The Rust Saints",
            "-o",
            "g.json",
        ],
    );
    let text = std::fs::read_to_string(dir.path().join("g.json")).unwrap();
    let mut value: Value = serde_json::from_str(&text).unwrap();
    value["gangs"][0]["name"] = json!("Saints Abroad");
    let hostile = format!("x\u{1b}[2J\u{202e}\u{0}{}", "y".repeat(10 * 1024 * 1024));
    value["campaign"] = json!(hostile);
    std::fs::write(dir.path().join("bad.json"), value.to_string()).unwrap();
    let out = util::rapsheet(
        dir.path(),
        &["bundle", "import", "bad.json", "--db", "c.rapsheet"],
    );
    assert!(!out.status.success());
    let err = util::stderr(&out);
    assert!(err.contains("campaign: "), "{err}");
    assert!(err.len() < 400, "{} bytes", err.len());
    // The campaign's own whole bundle still reads.
    util::ok(
        dir.path(),
        &["bundle", "export", "--whole", "-o", "whole.json"],
    );
    let out = util::rapsheet(
        dir.path(),
        &[
            "bundle",
            "import",
            "whole.json",
            "--whole",
            "--db",
            "again.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
}

/// A pack's words and its tables' row names are printed in sentences and
/// kept as names: a direction override, an escape, a line break, a NUL, a
/// zero-width space or a hundred thousand characters is refused by
/// `check-pack` and `house keep`, naming the field.
#[test]
fn a_packs_words_and_row_names_are_names() {
    let dir = util::temp();
    util::ok(dir.path(), &["demo"]);
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/lantern-road.toml"),
    );
    let Ok(base) = base else {
        panic!("tests/packs/lantern-road.toml is the made-up game this test edits");
    };
    let long = "w".repeat(100_000);
    let hostile = [
        "evil\u{202e}word",
        "esc\u{1b}[2J",
        "two\nlines",
        "nul\u{0}",
        "zero\u{200b}width",
        long.as_str(),
    ];
    let toml_string = |s: &str| toml::Value::String(s.to_owned()).to_string();
    for bad in hostile {
        let mut pack: toml::Table = toml::from_str(&base).unwrap();
        pack["words"]["gang"] = toml::Value::String(bad.to_owned());
        let file = dir.path().join("words.toml");
        std::fs::write(&file, toml::to_string(&pack).unwrap()).unwrap();
        for args in [
            vec!["check-pack", "words.toml"],
            vec!["house", "keep", "words.toml", "--db", "c.rapsheet"],
        ] {
            let out = util::rapsheet(dir.path(), &args);
            assert!(
                !out.status.success(),
                "{args:?} took the word {}",
                toml_string(&bad[..bad.len().min(20)])
            );
            let err = util::stderr(&out);
            assert!(err.contains("words.gang"), "{args:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(err.len() < 400, "{} bytes", err.len());
        }
    }
}

/// A table row named with a direction override is refused where the pack
/// comes in, naming the table and the row, instead of refusing every
/// record that lands on it later.
#[test]
fn a_table_rows_name_is_a_name() {
    let dir = util::temp();
    util::ok(dir.path(), &["demo"]);
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/lantern-road.toml"),
    )
    .unwrap();
    let mut pack: toml::Table = toml::from_str(&base).unwrap();
    let tables = pack["tables"].as_array_mut().unwrap();
    let table = tables
        .iter_mut()
        .find(|t| {
            t.get("rows")
                .is_some_and(|r| r.as_array().is_some_and(|r| !r.is_empty()))
        })
        .expect("a table with rows");
    let id = table["id"].as_str().unwrap().to_owned();
    table["rows"][0]["name"] = toml::Value::String("Cracked\u{202e}Ribs".into());
    std::fs::write(
        dir.path().join("rows.toml"),
        toml::to_string(&pack).unwrap(),
    )
    .unwrap();
    for args in [
        vec!["check-pack", "rows.toml"],
        vec!["house", "keep", "rows.toml", "--db", "c.rapsheet"],
    ] {
        let out = util::rapsheet(dir.path(), &args);
        assert!(!out.status.success(), "{args:?}");
        let err = util::stderr(&out);
        assert!(
            err.contains(&format!("tables.{id}.rows[0].name")),
            "{args:?}: {err}"
        );
    }
    // `house row` is the same door.
    let out = util::rapsheet(
        dir.path(),
        &[
            "house",
            "row",
            "--house",
            "ours",
            "--base",
            "heartbreaker",
            "--title",
            "Ours",
            "seize-control",
            "--on",
            "1-3",
            "--result",
            "Cracked",
            "--name",
            "Cracked\u{202e}Ribs",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(
        !out.status.success(),
        "house row took it: {}",
        util::stdout(&out)
    );
    assert!(
        util::stderr(&out).contains("rows["),
        "{}",
        util::stderr(&out)
    );
}

/// `verify` holds the stored state to the same gate as every door: a file
/// whose log and state agree, but hold a number past the bound and a name
/// with a direction override, an escape and a line break, does not verify.
#[test]
fn verify_refuses_a_sound_replay_of_what_no_door_takes() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("demo.rapsheet")).unwrap();
    let gang = session.gang_list().unwrap()[0].id;
    drop(session);
    let mut batches = CampaignStore::open(&dir.path().join("demo.rapsheet"))
        .unwrap()
        .log_batches()
        .unwrap();
    let last = batches.last().unwrap().clone();
    let next = rapsheet::campaign::BatchId(last.id.0 + 1);
    batches.push(rapsheet::campaign::LoggedBatch {
        id: next,
        at: last.at.clone(),
        label: "edited elsewhere".into(),
        undoes: None,
        events: vec![Event::ResourceAdjusted {
            gang,
            resource: "supply".into(),
            from: 0,
            to: 999_999_999,
            reason: "by hand".into(),
        }],
    });
    let mut no_gate = |_: &dyn rapsheet::campaign::gate::State, _: &Event, _: bool| Ok(());
    let bad = dir.path().join("bad.rapsheet");
    let store = CampaignStore::create_from_log(&bad, &batches, &[], &mut no_gate).unwrap();
    // Sound as a replay: the log gives exactly the state.
    assert!(store.verify().unwrap().problems.is_empty());
    drop(store);
    let out = util::rapsheet(dir.path(), &["verify", "--db", "bad.rapsheet"]);
    assert!(!out.status.success(), "{}", util::stdout(&out));
    let said = format!("{}{}", util::stdout(&out), util::stderr(&out));
    assert!(said.contains("999999999"), "{said}");

    // A name with control characters, the same way.
    batches.pop();
    let name = session_gang_name(&batches, gang);
    batches.push(rapsheet::campaign::LoggedBatch {
        id: next,
        at: last.at,
        label: "edited elsewhere".into(),
        undoes: None,
        events: vec![Event::GangRenamed {
            gang,
            from: name,
            to: "Saints\u{202e}\u{1b}[2J\nX".into(),
        }],
    });
    let worse = dir.path().join("worse.rapsheet");
    let store = CampaignStore::create_from_log(&worse, &batches, &[], &mut no_gate).unwrap();
    drop(store);
    let out = util::rapsheet(dir.path(), &["verify", "--db", "worse.rapsheet"]);
    assert!(!out.status.success(), "{}", util::stdout(&out));
}

/// The name a gang was founded with, from the log.
fn session_gang_name(
    batches: &[rapsheet::campaign::LoggedBatch],
    gang: rapsheet::campaign::GangId,
) -> String {
    batches
        .iter()
        .flat_map(|b| &b.events)
        .find_map(|e| match e {
            Event::GangFounded { gang: g } if g.id == gang => Some(g.name.clone()),
            _ => None,
        })
        .unwrap()
}

/// The demo's whole bundle with one more batch of `events` at the end of
/// its log.
fn with_batch(whole: &Value, events: &[Event]) -> Value {
    let mut w = whole.clone();
    let batches = w["log"]["batches"].as_array_mut().unwrap();
    let id = batches.len() + 1;
    let at = batches.last().unwrap()["at"].clone();
    let events: Vec<Value> = events
        .iter()
        .map(|e| serde_json::from_str(&rapsheet::campaign::wire::encode(e).unwrap()).unwrap())
        .collect();
    batches.push(json!({"id": id, "at": at, "label": "Forged", "events": events}));
    w
}

/// A whole log forged to look legal — each event well formed, each
/// fighter there — whose changes make a fallen fighter or a captive the
/// leader, give a gang two leaders, or have a gang hold its own fighter,
/// is refused naming the change; typed, the same change is refused alike.
#[test]
fn a_forged_log_that_looks_legal_is_refused_as_the_change_typed_would_be() {
    use rapsheet::campaign::{BattleId, FighterStatus};
    let dir = util::temp();
    let (mut session, whole) = demo_whole(dir.path());
    let gangs = session.gang_list().unwrap();
    let (own, rival) = (gangs[0].id, gangs[1].id);
    let fighters = session.fighters(own).unwrap();
    let leader = fighters.iter().find(|f| f.leader).unwrap().id;
    let other = fighters.iter().find(|f| !f.leader).unwrap().id;
    let status = |to: FighterStatus| Event::FighterStatusChanged {
        fighter: other,
        from: FighterStatus::Active,
        to,
        reason: "forged".into(),
    };
    let lead = |fighter, to: bool| Event::LeaderChanged {
        fighter,
        from: !to,
        to,
    };
    let fallen = FighterStatus::Gone {
        status: "dead".into(),
        battle: None,
    };
    let held = |by| FighterStatus::Captured {
        by,
        battle: BattleId(1),
    };
    let cases: Vec<(&str, Vec<Event>, &str)> = vec![
        (
            "a fallen fighter made the leader",
            vec![status(fallen), lead(leader, false), lead(other, true)],
            "is not with their side",
        ),
        (
            "a captive made the leader",
            vec![status(held(rival)), lead(leader, false), lead(other, true)],
            "is not with their side",
        ),
        (
            "a gang with two leaders",
            vec![lead(other, true)],
            "has 1 leader already",
        ),
        (
            "a gang holding its own fighter",
            vec![status(held(own))],
            "cannot be held captive by their own gang",
        ),
    ];
    for (what, events, said) in cases {
        let err = refused_whole(&with_batch(&whole, &events));
        assert!(err.contains(said), "{what}: {err}");
        assert!(
            err.contains("log.batches["),
            "{what}: names the change: {err}"
        );
    }
    // The same changes, well ordered, are made: the leader steps down
    // first, then another leads.
    let fine = with_batch(&whole, &[lead(leader, false), lead(other, true)]);
    Session::create_from_bundle(
        &dir.path().join("fine.rapsheet"),
        &serde_json::to_vec(&fine).unwrap(),
    )
    .unwrap();
    // Typed, a second leader is refused alike, and the campaign unchanged.
    let before = session.log(1000).unwrap().len();
    let err = format!("{:#}", session.set_leader(other, true).unwrap_err());
    assert!(err.contains("has 1 leader already"), "{err}");
    assert_eq!(session.log(1000).unwrap().len(), before);
}

/// A gang's name that looks like another's — a Cyrillic о, fullwidth
/// letters, a Greek capital Nu, mathematical bold, a double space — is
/// refused typed and in a whole bundle alike, naming the gang it looks
/// like.
#[test]
fn a_gang_name_that_looks_like_another_is_refused_typed_and_carried() {
    let dir = util::temp();
    let (mut session, whole) = demo_whole(dir.path());
    let gangs = session.gang_list().unwrap();
    let first = gangs[0].name.clone();
    let founded = events_of(&whole, "gang_founded");
    assert_eq!(first, "Neon Jackals");
    for lookalike in [
        "Ne\u{43E}n Jackals",
        "\u{FF2E}eon Jackals",
        "\u{39D}eon Jackals",
        "\u{1D40D}\u{1D41E}\u{1D428}\u{1D427} Jackals",
        "Neon  Jackals",
        "NEON JACKAL\u{405}",
    ] {
        let err = format!("{:#}", session.found_gang(lookalike, None).unwrap_err());
        assert!(
            err.contains("looks like the gang “Neon Jackals”"),
            "{lookalike:?}: {err}"
        );
        // Carried: whichever of the two is founded second is refused.
        for f in &founded {
            let mut carried = whole.clone();
            if event_mut(&mut carried, *f)["gang"]["name"] != json!("Neon Jackals") {
                event_mut(&mut carried, *f)["gang"]["name"] = json!(lookalike);
                let err = refused_whole(&carried);
                assert!(
                    err.contains("gang.name") && err.contains("looks like"),
                    "{lookalike:?}: {err}"
                );
            }
        }
    }
    let name = |s: &Session, id| s.gang_view(id).unwrap().name;
    session.found_gang("The Rust Sinners", None).unwrap();
    assert_eq!(name(&session, gangs[0].id), first);
}
