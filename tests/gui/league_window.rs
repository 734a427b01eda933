//! The League window against a real league's server (`util::postgres`):
//! a sync runs off the window's thread. While it waits on the server the
//! window goes on, says what it waits for and changes nothing; once it
//! ends, what it brought is shown and what was typed stays.

use crate::laptops;
use crate::util;

use std::time::{Duration, Instant};

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use laptops::{member, organised_with};
use rapsheet::session::Session;
use rapsheet::ui::{RapsheetApp, Screen};
use util::postgres::cluster;

/// Steps frames, a short sleep between, until `done`, for at most 30
/// seconds (a server that does not answer gives up after 10).
fn step_until(
    harness: &mut Harness<'_, RapsheetApp>,
    what: &str,
    done: impl Fn(&Harness<'_, RapsheetApp>) -> bool,
) {
    let started = Instant::now();
    while !done(harness) {
        assert!(started.elapsed() < Duration::from_secs(30), "{what}");
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
}

fn shown(harness: &Harness<'_, RapsheetApp>, label: &str) -> bool {
    harness.query_all_by_label_contains(label).next().is_some()
}

fn disabled(harness: &Harness<'_, RapsheetApp>, label: &str) -> bool {
    harness.get_by_label(label).accesskit_node().is_disabled()
}

#[test]
fn a_sync_waiting_on_the_server_leaves_the_window_free_and_changes_nothing() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_with(root, "league_window", &["demo"]);
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    // The organiser renames the other gang; Ann, offline, spends Ammo.
    organiser.ok(&["gang", "rename", "The Rust Saints", "Saints of the Spire"]);
    organiser.ok(&["league", "sync"]);
    ann.ammo("Neon Jackals", "a crate");
    let mut app = RapsheetApp::with_session(Session::open(&ann.file()).unwrap());
    app.keep_league_passwords_in(ann.password_file());
    let mut h = Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
    h.run();
    // Typed, not founded: the sync leaves it as it is.
    util::type_into(&mut h, "New gang name", "Ash Dogs");

    h.get_by_label("File").click();
    h.run();
    h.get_by_label("League…").click();
    h.run();
    // The server is asked what waits there, off the window's thread.
    step_until(&mut h, "the server never said what waits", |h| {
        shown(h, "1 change to send, 1 change to fetch")
    });
    assert!(!shown(&h, "Asking the server…"));

    // The server's log held by another transaction: the sync waits there
    // until it is let go.
    let mut owner = cluster().superuser(&league.address.database);
    let mut held = owner.transaction().unwrap();
    held.batch_execute("LOCK TABLE league.batch IN EXCLUSIVE MODE")
        .unwrap();
    h.get_by_label("Sync now").click();
    h.run();
    step_until(&mut h, "no progress line", |h| {
        shown(h, "Syncing with the league's server…")
    });
    assert!(disabled(&h, "Sync now"), "one sync at a time");
    assert!(disabled(&h, "Who is in the league"));
    // Nothing changes the campaign meanwhile, and the window says why.
    assert!(shown(
        &h,
        "Read-only: syncing with the league… changes wait until it ends"
    ));
    assert!(disabled(&h, "Found gang"));
    // The window answers at once.
    let asked = Instant::now();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Num3);
    h.run();
    assert_eq!(h.state().screen(), Screen::Titles);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Num1);
    h.run();
    assert!(asked.elapsed() < Duration::from_secs(2), "{asked:?}");
    assert!(
        shown(&h, "Syncing with the league's server…"),
        "still waiting"
    );

    held.rollback().unwrap();
    step_until(&mut h, "the sync never ended", |h| {
        !shown(h, "Syncing with the league's server…")
    });
    let status = h.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("Synced: fetched 1, sent 1"), "{status}");
    assert!(shown(&h, "League: synced"));
    // The campaign is read again: the organiser's rename is shown.
    assert!(shown(&h, "Saints of the Spire"));
    assert!(!shown(&h, "Read-only:"));
    assert!(!disabled(&h, "Found gang"));
    assert_eq!(
        h.get_by_label("New gang name").value().as_deref(),
        Some("Ash Dogs"),
        "what was typed stays"
    );
    drop(h);
    let gang = organiser.ok(&["league", "sync"]);
    assert!(gang.contains("fetched 1"), "{gang}");
}
