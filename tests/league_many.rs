#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Many laptops in one league, each a `rapsheet` process with a home of its
//! own: they play offline (seeded battles between their own gang and
//! another member's, resource changes), then all sync at once, round after
//! round. Afterwards every batch made anywhere is on the server exactly
//! once, in a sequence with no gap, every laptop's file names the same
//! batches as the server, verifies, and reads byte for byte like a
//! campaign cloned fresh from the server. And the faults: a laptop killed
//! mid-sync, before and after the server took its batches, and a laptop
//! offline for many rounds. 8 laptops; `RAPSHEET_LAPTOPS=16` for more.

#[path = "util/laptops.rs"]
mod laptops;
mod util;

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};

use laptops::{
    Laptop, Settled, all_alike, exactly_once, gang, member, organised, server_names, settle,
};

fn laptops_wanted() -> usize {
    std::env::var("RAPSHEET_LAPTOPS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(8)
        .max(3)
}

/// N members, each with a gang of their own, play offline and sync all
/// at once for several rounds; one of them stays offline all along and
/// syncs only at the end. Every battle is between a member's own gang
/// and another member's: in the first round in pairs, each pair's battle
/// recorded on both laptops (the same two gangs' battles meet in the
/// rebase), then along the ring. Nothing is lost
/// and nothing doubled: the server holds every batch made anywhere once,
/// with no gap (less only the changes a conflict settled for the
/// league's side), and every laptop ends with the server's log, sound,
/// its chronicle byte for byte that of a fresh clone.
#[test]
fn many_laptops_play_offline_sync_at_once_and_end_alike() {
    const ROUNDS: usize = 3;
    let n = laptops_wanted();
    let started = std::time::Instant::now();
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_many", n);
    let members: Vec<Laptop> = (0..n)
        .map(|i| member(root, &organiser, &league, &format!("m{i:02}"), &gang(i)))
        .collect();
    let initial = organiser.ok(&["league", "status", "--offline"]);
    assert!(initial.contains("nothing to send"), "{initial}");
    let before = server_names(&league).len();
    let joined = started.elapsed();

    // The last member stays offline until the end.
    let (online, offline) = members.split_at(n - 1);
    let away = &offline[0];
    let mut made = 0;
    let mut conflicts = 0;
    for round in 0..ROUNDS {
        for (i, laptop) in members.iter().enumerate() {
            // First in pairs, each pair's battle on both laptops; then
            // along the ring.
            let other = if round == 0 && (i ^ 1) < n {
                i ^ 1
            } else {
                (i + round.max(1)) % n
            };
            let rival = gang(other);
            let seed = u64::try_from(1000 * round + i).unwrap();
            laptop.record_battle(&gang(i), &rival, seed);
            laptop.ok(&[
                "resource",
                if (i + round) % 2 == 0 {
                    "ammo"
                } else {
                    "supply"
                },
                "1",
                "--gang",
                &gang(i),
                "--reason",
                &format!("round {round}"),
            ]);
            made += 2;
        }
        // All at once.
        let running: Vec<Child> = online.iter().map(|l| l.spawn_sync(&[])).collect();
        let mut settled = Settled::default();
        for (laptop, child) in online.iter().zip(running) {
            settle(laptop, child, &mut settled);
        }
        conflicts += settled.conflicts;
    }
    let status = away.ok(&["league", "status", "--offline"]);
    assert!(
        status.contains(&format!("{} changes to send", 2 * ROUNDS)),
        "{status}"
    );
    let mut settled = Settled::default();
    settle(away, away.spawn_sync(&[]), &mut settled);
    conflicts += settled.conflicts;
    // Everyone fetches what came after their last sync.
    let mut everyone: Vec<&Laptop> = members.iter().collect();
    everyone.push(&organiser);
    for laptop in &everyone {
        laptop.ok(&["league", "sync"]);
    }

    let on_server = exactly_once(&league, &everyone);
    if conflicts == 0 {
        assert_eq!(on_server, before + made, "a batch lost or doubled");
    } else {
        assert!(on_server <= before + made, "a batch doubled");
    }
    all_alike(root, &organiser, &league, &gang(0), &everyone);
    eprintln!(
        "{n} laptops, {ROUNDS} rounds: {made} batches made, {} on the server after {before}, \
         {conflicts} conflicts settled; joined in {joined:.1?}, all in {:.1?}",
        on_server - before,
        started.elapsed()
    );
}

/// Starts a sync that pauses at `point`, waits until it says so, and
/// kills it there (SIGKILL).
fn kill_at(laptop: &Laptop, point: &str, says: &str) {
    let all = Laptop::with_db(&["league", "sync", "--pause-at", point]);
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let mut child = laptop
        .command(&all)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let line = lines.next().expect("the sync said nothing").unwrap();
    assert_eq!(line, says);
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success());
}

/// A laptop killed (kill -9) mid-sync, before its batch is sent and after
/// the server took it but before the file noted it sent: the next sync
/// sends what was not sent and does not send again what was, while other
/// members go on sending; the server holds each batch once, the file
/// names it once, verifies, and reads like a fresh clone.
#[test]
fn a_laptop_killed_mid_sync_loses_nothing_and_doubles_nothing() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_killed", 2);
    let ann = member(root, &organiser, &league, "ann", &gang(0));
    let ben = member(root, &organiser, &league, "ben", &gang(1));
    let start = server_names(&league).len();
    let resource = |laptop: &Laptop, gang: &str, why: &str| {
        laptop.ammo(gang, why);
    };

    // Before sending: nothing reached the server.
    resource(&ann, &gang(0), "before");
    ann.record_battle(&gang(0), &gang(1), 1);
    kill_at(&ann, "before-send", "paused before sending");
    assert_eq!(server_names(&league).len(), start);
    ann.ok(&["verify"]);
    let sent = ann.ok(&["league", "sync"]);
    assert!(sent.contains("sent 2"), "{sent}");
    assert_eq!(server_names(&league).len(), start + 2);

    // After sending: the server has it, the file does not know yet; Ben
    // sends after it and Ann makes one more before her next sync.
    resource(&ann, &gang(0), "after");
    kill_at(&ann, "after-send", "paused after sending");
    assert_eq!(server_names(&league).len(), start + 3);
    let status = ann.ok(&["league", "status", "--offline"]);
    assert!(status.contains("1 change to send"), "{status}");
    ann.ok(&["verify"]);
    resource(&ben, &gang(1), "meanwhile");
    ben.record_battle(&gang(1), &gang(0), 2);
    ben.ok(&["league", "sync"]);
    resource(&ann, &gang(0), "one more");
    let again = ann.ok(&["league", "sync"]);
    assert!(again.contains("sent 1"), "{again}");
    assert_eq!(server_names(&league).len(), start + 6);

    // Killed after sending with nothing new here: the next sync only
    // notes it sent.
    resource(&ann, &gang(0), "last");
    kill_at(&ann, "after-send", "paused after sending");
    let noted = ann.ok(&["league", "sync"]);
    assert!(noted.contains("sent 0"), "{noted}");
    let status = ann.ok(&["league", "status", "--offline"]);
    assert!(status.contains("nothing to send"), "{status}");

    for laptop in [&ben, &organiser] {
        laptop.ok(&["league", "sync"]);
    }
    let everyone = [&organiser, &ann, &ben];
    assert_eq!(exactly_once(&league, &everyone), start + 7);
    all_alike(root, &organiser, &league, &gang(0), &everyone);
}

/// A member settles a conflict (`--take 1=league`) and, while that sync
/// waits to send, another member sends first: the sync loses the race,
/// fetches again and goes on with the conflict settled, rather than
/// failing on a choice that has nothing left to settle.
#[test]
fn a_sync_that_settled_its_conflicts_and_lost_a_race_goes_on() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_settled", 3);
    let ann = member(root, &organiser, &league, "ann", &gang(1));
    let ben = member(root, &organiser, &league, "ben", &gang(2));
    organiser.ok(&["gang", "rename", &gang(1), "The Organised"]);
    organiser.ok(&["league", "sync"]);
    ann.ok(&["gang", "rename", &gang(1), "Ann's Own"]);
    ann.ammo("Ann's Own", "a crate");
    let out = ann.run(&["league", "sync"]);
    assert!(!out.status.success());
    assert!(
        util::stdout(&out).contains("Conflict 1:"),
        "{}",
        util::stdout(&out)
    );

    ben.ok(&[
        "resource",
        "supply",
        "1",
        "--gang",
        &gang(2),
        "--reason",
        "scavenged",
    ]);
    let all = Laptop::with_db(&[
        "league",
        "sync",
        "--take",
        "1=league",
        "--pause-at",
        "before-send",
    ]);
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let mut child = ann
        .command(&all)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "paused before sending");
    ben.ok(&["league", "sync"]);
    drop(child.stdin.take());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}{rest}", util::stdout(&out));

    for laptop in [&ben, &organiser] {
        laptop.ok(&["league", "sync"]);
    }
    let shown = ann.ok(&["gang", "show", "The Organised"]);
    assert!(shown.contains("Ammo 1"), "{shown}");
    let everyone = [&organiser, &ann, &ben];
    exactly_once(&league, &everyone);
    all_alike(root, &organiser, &league, &gang(0), &everyone);
}
