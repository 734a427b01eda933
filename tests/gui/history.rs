//! One undo history for the app and the command line, kept in the
//! campaign log: what one undoes the other can redo, it outlives closing
//! the campaign, and a redo reads as the change it redoes.

use crate::util;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use rapsheet::session::Session;
use rapsheet::ui::RapsheetApp;
use util::{rapsheet, stderr, stdout, temp};

const JACKALS: &str = "Neon Jackals";

fn app(path: &std::path::Path) -> Harness<'static, RapsheetApp> {
    let session = Session::open(path).expect("open");
    let mut harness = Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness
}

fn supply(path: &std::path::Path) -> i64 {
    let session = Session::open(path).expect("open");
    let gang = session.gang_named(JACKALS).expect("gang");
    let view = session.gang_view(gang.id).expect("view");
    view.resources
        .iter()
        .find(|r| r.id == "supply")
        .map(|r| r.amount)
        .expect("supply")
}

fn status(harness: &Harness<'_, RapsheetApp>) -> String {
    harness.state().status_text().unwrap_or_default().to_owned()
}

#[test]
fn the_app_and_the_command_line_undo_and_redo_the_same_history() {
    let dir = temp();
    let path = dir.path().join("c.rapsheet");
    assert!(
        rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"])
            .status
            .success()
    );
    let out = rapsheet(
        dir.path(),
        &[
            "resource",
            "supply",
            "2",
            "--gang",
            JACKALS,
            "--reason",
            "raided",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let start = supply(&path);

    // The app undoes the change the command line made.
    let mut harness = app(&path);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(status(&harness), "Undo: Neon Jackals Supply +2");
    drop(harness);
    assert_eq!(supply(&path), start - 2);

    // The command line redoes what the app undid.
    let out = rapsheet(dir.path(), &["redo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Redo: Neon Jackals Supply +2"));
    assert_eq!(supply(&path), start);

    // Reopened, the app still knows what to undo, and then to redo.
    let mut harness = app(&path);
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    harness.run();
    assert_eq!(status(&harness), "Nothing to redo");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(status(&harness), "Undo: Neon Jackals Supply +2");
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    harness.run();
    assert_eq!(status(&harness), "Redo: Neon Jackals Supply +2");
    drop(harness);
    assert_eq!(supply(&path), start);

    // A new change ends what can be redone, for both.
    let out = rapsheet(dir.path(), &["undo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = rapsheet(
        dir.path(),
        &[
            "resource",
            "supply",
            "1",
            "--gang",
            JACKALS,
            "--reason",
            "found",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = rapsheet(dir.path(), &["redo", "--db", "c.rapsheet"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("nothing to redo"), "{}", stderr(&out));
}

#[test]
fn a_redone_change_reads_as_the_original_in_the_log() {
    let dir = temp();
    let path = dir.path().join("c.rapsheet");
    let mut session = Session::create_demo(&path).expect("demo");
    let gang = session.gang_named(JACKALS).unwrap().id;
    session
        .adjust_resource(gang, "supply", 2, "raided a vending stack")
        .unwrap();
    for _ in 0..3 {
        session.undo_last().unwrap().expect("an undo");
        session.redo_last().unwrap().expect("a redo");
    }
    let log = session.log(20).unwrap();
    let names = session.names().unwrap();
    let newest = log[0].event.describe(&names);
    assert!(newest.ends_with(": raided a vending stack"), "{newest}");
    assert!(
        log.iter()
            .all(|e| !e.event.describe(&names).contains("undo: undo:")),
        "{:?}",
        log.iter()
            .map(|e| e.event.describe(&names))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        session.batch(log[0].batch).unwrap().0,
        "Redo: Neon Jackals Supply +2"
    );
    assert!(session.verify().unwrap().is_sound());
}

#[test]
fn a_redone_battle_tells_the_same_story() {
    let dir = temp();
    let path = dir.path().join("c.rapsheet");
    let mut session = Session::create_demo(&path).expect("demo");
    session.set_campaign_ruleset("heartbreaker").unwrap();
    let report: rapsheet::campaign::battle::BattleReport =
        serde_json::from_value(serde_json::json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": "The Rust Saints", "counts": {"caches": 3}},
                {"gang": JACKALS, "counts": {"caches": 1}},
            ],
            "winner": "The Rust Saints",
            "titles": [{"gang": "The Rust Saints", "title": "quartermaster"}],
        }))
        .unwrap();
    let mut report = report;
    util::declare_nothing(&mut report);
    session.record_battle(&report, 7).unwrap();
    let story = |s: &Session| {
        let chronicle = s.chronicle().unwrap();
        serde_json::to_string(&chronicle).unwrap()
    };
    let before = story(&session);
    session.undo_last().unwrap().expect("undo");
    session.redo_last().unwrap().expect("redo");
    let after = story(&session);
    assert!(!after.contains("undo:"), "{after}");
    assert_eq!(
        before.matches("Dead Drop").count(),
        after.matches("Dead Drop").count()
    );
    let names = session.names().unwrap();
    for entry in session.log(50).unwrap() {
        let line = entry.event.describe(&names);
        assert!(!line.contains("undo: undo:"), "{line}");
    }
}
