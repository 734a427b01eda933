#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

//! The crash harness: battles are recorded through the real post-battle
//! procedure in a child process (`rapsheet gen --durable`, the app's own
//! durability settings), which is killed with SIGKILL at random moments.
//! After every kill the file is reopened and must pass
//! [`Session::verify`]: SQLite's integrity check, the foreign keys,
//! and a replay of the whole log that gives exactly the stored state, so a
//! battle is wholly there or wholly absent and the log and the state agree.
//!
//! `cargo test` runs a short round; the long one is
//! `RAPSHEET_KILLS=300 cargo test --release --test crash -- --ignored --nocapture`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rapsheet::session::Session;

fn rapsheet(db: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rapsheet"));
    cmd.arg("--db").arg(db).args(args);
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    cmd
}

/// Kills `kills` writers and checks the file after each. Returns the
/// number of battles in the file at the end.
fn kill_round(kills: usize, seed: u64) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.rapsheet");
    let status = rapsheet(
        &db,
        &[
            "gen",
            "--gangs",
            "6",
            "--fighters-per-gang",
            "8",
            "--battles",
            "0",
            "--durable",
        ],
    )
    .status()
    .unwrap();
    assert!(status.success(), "the campaign could not be made");

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut battles = 0;
    let mut killed_mid_run = 0;
    for kill in 0..kills {
        let writer_seed = (seed + kill as u64).to_string();
        let mut child = rapsheet(
            &db,
            &[
                "gen",
                "--gangs",
                "0",
                "--battles",
                "1000000",
                "--seed",
                &writer_seed,
                "--durable",
            ],
        )
        .spawn()
        .unwrap();
        std::thread::sleep(Duration::from_millis(rng.random_range(20..400)));
        // `Child::kill` is SIGKILL on Unix: no destructor, no rollback.
        if child.try_wait().unwrap().is_none() {
            killed_mid_run += 1;
        }
        child.kill().unwrap();
        child.wait().unwrap();

        let session = Session::open(&db)
            .unwrap_or_else(|e| panic!("after kill {}: the file does not open: {e}", kill + 1));
        let report = session.verify().unwrap();
        assert!(
            report.is_sound(),
            "after kill {}: {:?}",
            kill + 1,
            report.problems
        );
        assert!(
            report.battles >= battles,
            "after kill {}: battles went from {battles} to {}",
            kill + 1,
            report.battles
        );
        battles = report.battles;
    }
    eprintln!(
        "crash harness: {kills} SIGKILLs survived ({killed_mid_run} while writing), \
         {battles} battles in the file, nothing lost"
    );
    assert_eq!(
        killed_mid_run, kills,
        "every writer should still have been running when it was killed"
    );
    battles
}

#[test]
fn a_killed_writer_never_leaves_half_a_battle() {
    let battles = kill_round(12, 1);
    assert!(battles > 0, "no battle was ever committed between kills");
}

#[test]
#[ignore = "long: hundreds of kills; run with --ignored"]
fn hundreds_of_kills_lose_nothing() {
    let kills = std::env::var("RAPSHEET_KILLS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(300);
    let battles = kill_round(kills, 7);
    assert!(battles > 0);
}
