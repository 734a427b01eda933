#![allow(clippy::unwrap_used, clippy::expect_used)]

//! Launch to a visible window: the app on the demo campaign and on the
//! decade campaign, against an empty eframe window (`examples/empty_window.rs`)
//! started the same way, under Xvfb.
//!
//! Each program runs with `RAPSHEET_CLOSE_AFTER_FIRST_FRAME`, so it closes
//! once its first frame has been shown; the time from spawning it to its
//! exit is its launch. Medians of several runs; the ratio to the empty
//! window is the figure (target ≤ 1.3×).
//!
//! `cargo bench --bench launch` needs `xvfb-run` (the package `xvfb`); it
//! builds the example itself. The decade campaign is the scale bench's file
//! (`cargo bench --bench scale` makes it); without it only the demo runs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const RUNS: usize = 7;

fn main() {
    if Command::new("xvfb-run").arg("--help").output().is_err() {
        eprintln!("launch: xvfb-run is not installed (apt-get install xvfb); skipped");
        return;
    }
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_owned();
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--example", "empty_window", "--quiet"])
        .status()
        .unwrap();
    assert!(status.success(), "building examples/empty_window.rs");
    let empty = target.join("release/examples/empty_window");
    let app = PathBuf::from(env!("CARGO_BIN_EXE_rapsheet"));
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("demo.rapsheet");
    let made = Command::new(&app)
        .args(["demo", "--db"])
        .arg(&demo)
        .output()
        .unwrap();
    assert!(made.status.success(), "making the demo campaign");

    let floor = median(&empty, &[]);
    eprintln!("\nLaunch to a visible window (median of {RUNS}, under Xvfb)");
    eprintln!("  empty eframe window   {:>8.1} ms", ms(floor));
    let mut campaigns = vec![("demo campaign", demo)];
    let decade = Path::new(env!("CARGO_TARGET_TMPDIR")).join("decade-200x12-5000-s1.rapsheet");
    if decade.exists() {
        campaigns.push(("decade campaign", decade));
    }
    let league = Path::new(env!("CARGO_TARGET_TMPDIR")).join("decade-2000x12-2000-s1.rapsheet");
    if league.exists() {
        campaigns.push(("league (2000 gangs)", league));
    }
    for (name, file) in campaigns {
        // A copy, so the app's lock and upgrade never touch the kept file.
        let copy = dir.path().join("launch.rapsheet");
        std::fs::copy(&file, &copy).unwrap();
        let took = median(&app, &["--db".as_ref(), copy.as_os_str()]);
        eprintln!(
            "  the app, {name:<20} {:>8.1} ms   {:.2}× the empty window (target ≤ 1.3×)",
            ms(took),
            took.as_secs_f64() / floor.as_secs_f64()
        );
    }
}

/// The median time from spawning `program` under Xvfb to its exit.
fn median(program: &Path, args: &[&std::ffi::OsStr]) -> Duration {
    // One Xvfb for all runs of a program, so its start is not counted.
    let script = format!(
        "for i in $(seq {RUNS}); do s=$(date +%s%N); \"$0\" \"$@\" >/dev/null 2>&1; e=$(date +%s%N); echo $((e - s)); done"
    );
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x900x24", "sh", "-c", &script])
        .arg(program)
        .args(args)
        .env("RAPSHEET_CLOSE_AFTER_FIRST_FRAME", "1")
        // The app keeps its settings (window size, recent files) here.
        .env(
            "XDG_DATA_HOME",
            std::env::temp_dir().join("rapsheet-launch-bench"),
        )
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("rapsheet-launch-bench"),
        )
        .output()
        .unwrap();
    let mut times: Vec<Duration> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .map(Duration::from_nanos)
        .collect();
    assert!(!times.is_empty(), "no runs of {}", program.display());
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
