#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A server that stops answering (frozen with SIGSTOP: its machine still
//! takes the connection and acknowledges what is sent, and nothing comes
//! back) holds no laptop past the limits the laptop keeps itself: a sync
//! frozen before it connects, and one frozen while it sends, end with the
//! server named silent, every change still here; the window's sync is
//! cancelled and the campaign is free again at once. One test: freezing
//! the server takes it from every test of the binary.

#[path = "util/laptops.rs"]
mod laptops;
mod util;

use std::process::Child;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use laptops::{Laptop, member, organised_with};
use rapsheet::session::Session;
use rapsheet::ui::RapsheetApp;
use util::postgres::cluster;

const GANG: &str = "Neon Jackals";

/// Waits for `child`, giving up (and killing it) well past any limit the
/// laptop keeps: a sync that never ended fails the test instead of
/// hanging it.
fn ended(mut child: Child) -> (bool, String) {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            panic!("the sync never ended");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        format!("{}{}", util::stdout(&out), util::stderr(&out)),
    )
}

/// What `laptop` has not sent yet, as it says.
fn to_send(laptop: &Laptop) -> String {
    laptop.ok(&["league", "status", "--offline"])
}

fn shown(harness: &Harness<'_, RapsheetApp>, label: &str) -> bool {
    harness.query_all_by_label_contains(label).next().is_some()
}

fn step_until(
    harness: &mut Harness<'_, RapsheetApp>,
    what: &str,
    done: impl Fn(&Harness<'_, RapsheetApp>) -> bool,
) {
    let started = Instant::now();
    while !done(harness) {
        assert!(started.elapsed() < Duration::from_secs(60), "{what}");
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
}

#[test]
fn a_frozen_server_holds_no_sync_past_the_laptops_own_limits() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_with(root, "frozen", &["demo"]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    ann.ammo(GANG, "a crate");
    // The log as it stands; a sync names its batches (`by ann`) before it
    // sends them.
    let log = || ann.ok(&["log"]).replace(" by frozen_ann", "");
    let before = log();

    // Frozen before the sync: it ends, the server named silent, the change
    // still to send and the log as it was.
    cluster().freeze();
    let (ok, said) = ended(ann.spawn_sync(&["--wait", "5"]));
    cluster().thaw();
    assert!(!ok, "{said}");
    assert!(said.contains("did not answer within"), "{said}");
    assert!(to_send(&ann).contains("1 change to send"));
    assert_eq!(log(), before);

    // Frozen while it sends: the same.
    let (mut child, mut err) = ann.spawn_paused(&["--wait", "5"]);
    cluster().freeze();
    drop(child.stdin.take());
    let mut rest = String::new();
    let reading = std::thread::spawn(move || {
        std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
        rest
    });
    let (ok, said) = ended(child);
    let said = format!("{said}{}", reading.join().unwrap());
    cluster().thaw();
    assert!(!ok, "{said}");
    assert!(said.contains("did not answer within"), "{said}");
    assert!(to_send(&ann).contains("1 change to send"));
    assert_eq!(log(), before);

    // The server back, the change goes.
    let synced = ann.ok(&["league", "sync"]);
    assert!(synced.contains("sent 1"), "{synced}");

    // The window: a sync waiting on a frozen server is cancelled, and the
    // campaign can be changed again at once.
    ann.ammo(GANG, "another crate");
    let mut app = RapsheetApp::with_session(Session::open(&ann.file()).unwrap());
    app.keep_league_passwords_in(ann.password_file());
    let mut h = Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("League…").click();
    h.run();
    step_until(&mut h, "the server never said what waits", |h| {
        shown(h, "1 change to send") && !shown(h, "Asking the server…")
    });
    cluster().freeze();
    h.get_by_label("Sync now").click();
    h.run();
    step_until(&mut h, "no progress line", |h| {
        shown(h, "Syncing with the league's server…")
    });
    assert!(shown(&h, "Read-only: syncing with the league"));
    h.get_by_label("Cancel the sync").click();
    h.run();
    step_until(&mut h, "the cancelled sync never ended", |h| {
        !shown(h, "Syncing with the league's server…")
    });
    cluster().thaw();
    let status = h.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("cancelled"), "{status}");
    assert!(!shown(&h, "Read-only:"));
    assert!(
        !h.get_by_label("Found gang").accesskit_node().is_disabled(),
        "the campaign is free again"
    );
    drop(h);
    assert!(to_send(&ann).contains("1 change to send"));
    let synced = ann.ok(&["league", "sync"]);
    assert!(synced.contains("sent 1"), "{synced}");
    laptops::all_alike(
        root,
        &organiser,
        &league,
        "The Rust Saints",
        &[&organiser, &ann],
    );
}
