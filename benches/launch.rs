#![allow(clippy::unwrap_used, clippy::expect_used)]

//! Launch to a visible window: the app on the demo campaign and on the
//! decade campaign, against an empty eframe window (`examples/empty_window.rs`)
//! started the same way, under one Xvfb.
//!
//! The bench watches the X server from outside, as a player's eyes would:
//! a program's launch is the time from spawning it to its window mapped
//! (eframe keeps a window hidden until its first frame is painted). That is
//! what a player waits for — not the process's end, whose cost both share,
//! nor a frame the program says it began. Each is then ended as the desktop
//! ends it (SIGTERM). The programs take turns, each run after one untimed
//! run of each left to finish its checks (the day's backup made, the files
//! read once); medians of several runs; the ratio to the empty window,
//! measured in the same run, is the figure (target ≤ 1.3×). The empty
//! window is also timed cleared to its panels' colour with nothing painted
//! over it (`--bare`), as the app is: the ratio to that is the app's cost
//! beyond the barest window, shown beside the figure.
//!
//! `cargo bench --bench launch` needs `Xvfb` (the package `xvfb`); it
//! builds the example itself. The decade campaign is the scale bench's file
//! (`cargo bench --bench scale` makes it); without it only the demo runs.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use x11rb::connection::Connection as _;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{ChangeWindowAttributesAux, ConnectionExt as _, EventMask};

const RUNS: usize = 9;

fn main() {
    let Some(xvfb) = Xvfb::start() else {
        eprintln!("launch: Xvfb is not installed (apt-get install xvfb); skipped");
        return;
    };
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

    let mut programs: Vec<(String, PathBuf, Vec<PathBuf>)> = vec![
        ("empty eframe window".into(), empty.clone(), Vec::new()),
        // Shown beside it: the app paints nothing over its clear either.
        (
            "empty window, nothing painted".into(),
            empty,
            vec!["--bare".into()],
        ),
    ];
    let kept = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let mut campaigns = vec![("demo campaign", demo)];
    for (name, file) in [
        ("decade campaign", "decade-200x12-5000-s1.rapsheet"),
        ("league (2000 gangs)", "decade-2000x12-2000-s1.rapsheet"),
    ] {
        if kept.join(file).exists() {
            campaigns.push((name, kept.join(file)));
        }
    }
    for (i, (name, file)) in campaigns.into_iter().enumerate() {
        // A copy, so the app's lock and upgrade never touch the kept file.
        let copy = dir.path().join(format!("launch-{i}.rapsheet"));
        std::fs::copy(&file, &copy).unwrap();
        programs.push((
            format!("the app, {name}"),
            app.clone(),
            vec!["--db".into(), copy],
        ));
    }
    let home = dir.path().join("home");
    let watcher = Watcher::new(&xvfb);
    // One untimed run of each, left to run its checks: the day's backup
    // made, the files read once.
    for (_, program, args) in &programs {
        launch(
            &watcher,
            &xvfb,
            (program, args),
            &home,
            Duration::from_secs(3),
        );
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); programs.len()];
    for _ in 0..RUNS {
        for (i, (_, program, args)) in programs.iter().enumerate() {
            times[i].push(launch(
                &watcher,
                &xvfb,
                (program, args),
                &home,
                Duration::ZERO,
            ));
        }
    }
    let medians: Vec<Duration> = times.iter_mut().map(|t| median(t)).collect();
    eprintln!("\nLaunch to the first frame on screen (median of {RUNS}, under Xvfb)");
    let ratio = |i: usize, floor: usize| medians[i].as_secs_f64() / medians[floor].as_secs_f64();
    for (i, (name, _, _)) in programs.iter().enumerate() {
        match i {
            0 => eprintln!("  {name:<30} {:>8.1} ms", ms(medians[i])),
            1 => eprintln!(
                "  {name:<30} {:>8.1} ms   {:.2}× the empty window",
                ms(medians[i]),
                ratio(i, 0)
            ),
            _ => eprintln!(
                "  {name:<30} {:>8.1} ms   {:.2}× the empty window (target ≤ 1.3×), {:.2}× with nothing painted",
                ms(medians[i]),
                ratio(i, 0),
                ratio(i, 1)
            ),
        }
    }
}

/// An X server of the bench's own, on a display it chose.
struct Xvfb {
    server: Child,
    display: String,
}

impl Xvfb {
    fn start() -> Option<Self> {
        let mut server = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x900x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let mut line = String::new();
        BufReader::new(server.stdout.take()?)
            .read_line(&mut line)
            .ok()?;
        let display = format!(":{}", line.trim());
        Some(Self { server, display })
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// What the bench hears from the X server: the windows mapped on it.
struct Watcher {
    conn: x11rb::rust_connection::RustConnection,
}

impl Watcher {
    fn new(xvfb: &Xvfb) -> Self {
        let (conn, screen) = x11rb::connect(Some(&xvfb.display)).unwrap();
        let root = conn.setup().roots[screen].root;
        conn.change_window_attributes(
            root,
            &ChangeWindowAttributesAux::new().event_mask(EventMask::SUBSTRUCTURE_NOTIFY),
        )
        .unwrap()
        .check()
        .unwrap();
        Self { conn }
    }

    /// Forgets what was heard before.
    fn drain(&self) {
        while let Ok(Some(_)) = self.conn.poll_for_event() {}
    }

    /// Waits for a window to be mapped: true once one is, false after
    /// `limit`.
    fn mapped(&self, limit: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            match self.conn.poll_for_event().unwrap() {
                Some(Event::MapNotify(_)) => return true,
                Some(_) => {}
                None => std::thread::sleep(Duration::from_micros(200)),
            }
        }
        false
    }
}

/// The time from spawning `program` to its window mapped on the X server:
/// eframe keeps a window hidden until its first frame is painted, so this
/// is the moment a player first sees it. The program is then left to run
/// for `linger` and ended as the desktop ends it (SIGTERM).
fn launch(
    watcher: &Watcher,
    xvfb: &Xvfb,
    (program, args): (&Path, &[PathBuf]),
    home: &Path,
    linger: Duration,
) -> Duration {
    watcher.drain();
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .env("DISPLAY", &xvfb.display)
        .env_remove("WAYLAND_DISPLAY")
        // The app keeps its settings, backups and drafts here.
        .env("XDG_DATA_HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let shown = watcher
        .mapped(Duration::from_secs(30))
        .then(|| started.elapsed());
    std::thread::sleep(linger);
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    // The bench waits for it to end, so runs never overlap.
    let status = child.wait().unwrap();
    shown.unwrap_or_else(|| panic!("{} never showed its window ({status})", program.display()))
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
