//! A league played from laptops: the organiser sets the league up from a
//! campaign, invites members, each joins into a file of their own, plays
//! offline and syncs; every laptop ends with the server's log, and a
//! campaign cloned fresh from the server reads byte for byte the same.
//! A real PostgreSQL (`util::postgres`), the `rapsheet` binary as each
//! laptop, each laptop with a home of its own (its password file there).

use crate::laptops;
use crate::util;

use std::path::Path;

use laptops::{Laptop, member, organised_with};
use util::postgres::{TestLeague, cluster};

/// The organiser's laptop with the demo campaign made a league's.
fn organised(root: &Path, name: &str) -> (Laptop, TestLeague) {
    organised_with(root, name, &["demo"])
}

/// Every laptop verifies and reads as a campaign joined fresh from the
/// server (by a member of the demo's second gang, renamed by no test).
fn all_alike(root: &Path, organiser: &Laptop, league: &TestLeague, laptops: &[&Laptop]) {
    laptops::all_alike(root, organiser, league, "The Rust Saints", laptops);
}

#[test]
fn two_members_play_offline_sync_and_end_alike() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_two");
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    let ben = member(root, &organiser, &league, "ben", "The Rust Saints");
    let status = ann.ok(&["league", "status"]);
    assert!(status.contains("synced"), "{status}");

    // Offline, each changes their own gang.
    ann.ok(&[
        "resource",
        "ammo",
        "2",
        "--gang",
        "Neon Jackals",
        "--reason",
        "a crate",
    ]);
    ben.ok(&[
        "resource",
        "supply",
        "1",
        "--gang",
        "The Rust Saints",
        "--reason",
        "scavenged",
    ]);
    let status = ann.ok(&["league", "status", "--offline"]);
    assert!(status.contains("1 change to send"), "{status}");

    let sent = ann.ok(&["league", "sync"]);
    assert!(sent.contains("sent 1"), "{sent}");
    // Ben's change is made again after Ann's, then sent.
    let rebased = ben.ok(&["league", "sync"]);
    assert!(rebased.contains("fetched 1, sent 1"), "{rebased}");
    ann.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    let ann_gang = ann.ok(&["gang", "show", "Neon Jackals"]);
    assert!(ann_gang.contains("Ammo 2"), "{ann_gang}");
    let ben_sees = ben.ok(&["gang", "show", "Neon Jackals"]);
    assert!(ben_sees.contains("Ammo 2"), "{ben_sees}");
    let who = organiser.ok(&["league", "who"]);
    assert!(who.contains("league_two_ann: Neon Jackals"), "{who}");
    assert!(who.contains("league_two_ben: The Rust Saints"), "{who}");
    all_alike(root, &organiser, &league, &[&organiser, &ann, &ben]);
}

#[test]
fn a_change_to_a_rivals_gang_is_refused_by_the_server_and_stays_on_the_laptop() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_rival");
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    ann.ok(&[
        "resource",
        "supply",
        "3",
        "--gang",
        "The Rust Saints",
        "--reason",
        "a gift?",
    ]);
    let out = ann.run(&["league", "sync"]);
    assert!(!out.status.success());
    let err = util::stderr(&out);
    assert!(err.contains("refused"), "{err}");
    assert!(err.contains("stays on this laptop"), "{err}");
    let status = ann.ok(&["league", "status", "--offline"]);
    assert!(status.contains("1 change to send"), "{status}");
    // Taken back here, the laptop syncs again.
    ann.ok(&["undo"]);
    let _ = std::fs::metadata(ann.file()).unwrap();
}

#[test]
fn undo_takes_back_the_members_own_newest_change_not_anothers() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_undo");
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    let ben = member(root, &organiser, &league, "ben", "The Rust Saints");
    ann.ok(&[
        "resource",
        "ammo",
        "2",
        "--gang",
        "Neon Jackals",
        "--reason",
        "a crate",
    ]);
    ann.ok(&["league", "sync"]);
    ben.ok(&[
        "resource",
        "supply",
        "1",
        "--gang",
        "The Rust Saints",
        "--reason",
        "scavenged",
    ]);
    ben.ok(&["league", "sync"]);
    ann.ok(&["league", "sync"]);
    // Ben's change is Ann's newest batch; undo takes back Ann's own.
    let undone = ann.ok(&["undo"]);
    assert!(undone.contains("Ammo"), "{undone}");
    let gang = ann.ok(&["gang", "show", "The Rust Saints"]);
    assert!(gang.contains("Supply 1"), "{gang}");
}

/// The app's Sync (File ▸ League…): the status bar says what waits, Sync
/// sends it, and a conflict with the league's changes is shown side by
/// side and settled by the player's choice before anything is sent.
#[test]
fn the_app_syncs_and_settles_a_conflict_with_the_leagues_changes() {
    use egui_kittest::kittest::Queryable;
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_app");
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    // The organiser renames Ann's gang and syncs; Ann, offline, renames it
    // otherwise and spends some of its Ammo.
    organiser.ok(&["gang", "rename", "Neon Jackals", "Jackals of the Spire"]);
    organiser.ok(&["league", "sync"]);
    ann.ok(&["gang", "rename", "Neon Jackals", "Neon Hounds"]);
    ann.ammo("Neon Hounds", "a crate");
    let session = rapsheet::session::Session::open(&ann.file()).unwrap();
    let mut app = rapsheet::ui::RapsheetApp::with_session(session);
    // The app's, so the sessions its league jobs open read it too.
    app.keep_league_passwords_in(ann.password_file());
    let mut h = egui_kittest::Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            app,
        );
    h.run();
    assert!(
        h.query_by_label_contains("League: 2 changes to send")
            .is_some()
    );
    // The server is not asked at open: the status bar says what is known.
    assert!(
        h.query_by_label_contains("not checked since the last sync")
            .is_some()
    );
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("League…").click();
    h.run();
    step_until_gone(&mut h, "Asking the server…");
    h.get_by_label("Sync now").click();
    h.run();
    step_until_gone(&mut h, "Syncing with the league's server…");
    assert!(h.query_by_label_contains("Conflict 1:").is_some());
    assert!(
        h.query_all_by_label_contains("Jackals of the Spire")
            .next()
            .is_some()
    );
    assert!(
        h.query_all_by_label_contains("Neon Hounds")
            .next()
            .is_some()
    );
    assert!(
        h.query_by_label_contains("1 conflict still to choose")
            .is_some()
    );
    if std::env::var_os("RAPSHEET_SHOT").is_some() {
        h.render()
            .unwrap()
            .save(root.join("league-conflict.png"))
            .unwrap();
        std::fs::copy(root.join("league-conflict.png"), "/tmp/league-conflict.png").unwrap();
    }
    h.get_by_label("Keep the league's").click();
    h.run();
    h.get_by_label("Sync with these choices").click();
    h.run();
    step_until_gone(&mut h, "Syncing with the league's server…");
    let status = h.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("Synced: fetched 1, sent 1"), "{status}");
    assert!(h.query_by_label_contains("League: synced").is_some());
    if std::env::var_os("RAPSHEET_SHOT").is_some() {
        h.render()
            .unwrap()
            .save(root.join("league-window.png"))
            .unwrap();
        std::fs::copy(root.join("league-window.png"), "/tmp/league-window.png").unwrap();
    }
    drop(h);
    // The league's name stands, Ann's Ammo went to the league.
    organiser.ok(&["league", "sync"]);
    let gang = organiser.ok(&["gang", "show", "Jackals of the Spire"]);
    assert!(gang.contains("Ammo 1"), "{gang}");
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}

/// Steps frames, a short sleep between, while a label holding `label` is
/// shown (the League window asks the server on a worker thread), for at
/// most 30 seconds.
fn step_until_gone(h: &mut egui_kittest::Harness<'_, rapsheet::ui::RapsheetApp>, label: &str) {
    use egui_kittest::kittest::Queryable;
    let started = std::time::Instant::now();
    while h.query_all_by_label_contains(label).next().is_some() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "still shown: {label}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.step();
    }
}

/// A batch on the server that no laptop can replay (put there past the
/// app: here a change to a resource the pack does not have) is kept in its
/// place, empty and labelled with the reason, on every laptop alike; the
/// changes after it replay as ever.
#[test]
fn a_batch_no_laptop_can_replay_is_left_out_alike_everywhere() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_left_out");
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    laptops::insert_raw(
        &mut raw,
        Some(&organiser.private_key()),
        "by-hand",
        "By hand",
        r#"[{"type":"resource_adjusted","gang":1,"resource":"gold","from":0,"to":5,"reason":"by hand"}]"#,
    )
    .unwrap();
    ann.ammo("Neon Jackals", "a crate");
    let synced = ann.ok(&["league", "sync"]);
    assert!(synced.contains("left out: By hand"), "{synced}");
    let organiser_sync = organiser.ok(&["league", "sync"]);
    assert!(
        organiser_sync.contains("left out: By hand"),
        "{organiser_sync}"
    );
    let log = ann.ok(&["log", "--limit", "5"]);
    assert!(log.contains("Ammo +1"), "{log}");
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}

/// A fighter's photo set on one laptop travels through the league to the
/// others (the server keeps it once, by its key).
#[test]
fn a_photo_travels_through_the_league() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_photo");
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    std::fs::write(ann.home.join("vex.png"), util::TINY_PNG).unwrap();
    ann.ok(&["fighter", "photo", "Vex Ninefingers", "vex.png"]);
    ann.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    let organisers = rapsheet::session::Session::open(&organiser.file()).unwrap();
    let vex = organisers
        .fighter_named("Vex Ninefingers", None)
        .unwrap()
        .id;
    assert_eq!(
        organisers.photo(vex).unwrap().as_deref(),
        Some(&util::TINY_PNG[..])
    );
    drop(organisers);
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}

/// An invite that is not one is refused in one line naming what is wrong,
/// and nothing is made.
#[test]
fn a_bad_invite_is_refused_in_one_line() {
    let dir = util::temp();
    let laptop = Laptop::new(dir.path(), "ann");
    std::fs::write(laptop.home.join("bad.invite"), "junk = 1\n").unwrap();
    let out = laptop
        .command(&["league", "join", "bad.invite", "--db", "campaign.rapsheet"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = util::stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.invite is not a league invite: unknown field `junk`"),
        "{err}"
    );
    assert!(!laptop.file().exists());
}

/// A member who leaves a transaction open on the server (`BEGIN; INSERT
/// …` and nothing after) holds no other member's sync: the held
/// transaction is ended once it has held the log longer than the league
/// allows, and the sync sends its change.
#[test]
fn an_open_transaction_on_the_server_makes_no_sync_wait_without_end() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_held");
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    let mut held = raw.transaction().unwrap();
    laptops::insert_raw(
        &mut held,
        Some(&organiser.private_key()),
        "held",
        "Held",
        "[]",
    )
    .unwrap();
    ann.ammo("Neon Jackals", "a crate");
    let synced = ann.ok(&["league", "sync"]);
    assert!(synced.contains("sent 1"), "{synced}");
    assert!(held.rollback().is_err(), "the held transaction was ended");
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}
