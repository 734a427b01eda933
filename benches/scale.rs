#![allow(clippy::unwrap_used, clippy::expect_used)]

//! The decade campaign: Rapsheet on a file of hundreds of gangs, thousands
//! of fighters and thousands of battles, made by the generator through the
//! real post-battle procedure (`rapsheet gen`). Each figure is set against
//! a floor measured in the same run:
//!
//! - opening the file and building the first screen's view model, against
//!   opening the same file with plain rusqlite and reading one row;
//! - one headless frame (`egui::Context::run_ui`, the real views, no GPU) of
//!   the roster, the campaign log and the post-battle screen: median, p99;
//! - one post-battle commit, against inserting as many rows with plain
//!   rusqlite in one transaction on the same file;
//! - peak memory (`VmHWM` from `/proc/self/status`, Linux) with the
//!   campaign open and every screen drawn.
//!
//! `cargo bench --bench scale`. The size defaults to 200 gangs of 12 and
//! 5000 battles; `RAPSHEET_BENCH_GANGS` and `RAPSHEET_BENCH_BATTLES` change
//! it. The generated file is kept in the target folder and reused.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rapsheet::generator::{GenSize, generate, next_battle};
use rapsheet::session::Session;
use rapsheet::ui::{Action, RapsheetApp, Screen};

fn size() -> GenSize {
    let var = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    GenSize {
        gangs: var("RAPSHEET_BENCH_GANGS", 200),
        fighters_per_gang: 12,
        battles: var("RAPSHEET_BENCH_BATTLES", 5000),
        seed: 1,
    }
}

/// The generated campaign, made once and kept.
fn campaign() -> PathBuf {
    let size = size();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!(
        "decade-{}x{}-{}-s{}.rapsheet",
        size.gangs, size.fighters_per_gang, size.battles, size.seed
    ));
    if path.exists() {
        return path;
    }
    let partial = path.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    let ruleset = rapsheet::campaign::demo::ruleset().unwrap();
    let mut session = Session::create(&partial, "The decade campaign", &ruleset).unwrap();
    session.set_bulk(true).unwrap();
    let started = Instant::now();
    eprintln!(
        "generating {} gangs of {} and {} battles (once)…",
        size.gangs, size.fighters_per_gang, size.battles
    );
    generate(&mut session, size, &mut |_, _| {}).unwrap();
    session.set_bulk(false).unwrap();
    drop(session);
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", partial.display()));
    }
    std::fs::rename(&partial, &path).unwrap();
    eprintln!("generated in {:.1} s", started.elapsed().as_secs_f64());
    path
}

/// Opening the file and everything the first screen shows.
fn open_first_screen(path: &Path) -> RapsheetApp {
    let session = Session::open(path).unwrap();
    let mut app = RapsheetApp::with_session(session);
    frame(&mut app, &egui::Context::default());
    app
}

/// The floor: the same file opened with plain rusqlite, one row read.
fn open_floor(path: &Path) -> String {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("SELECT name FROM campaign WHERE id = 1", [], |r| r.get(0))
        .unwrap()
}

fn frame(app: &mut RapsheetApp, ctx: &egui::Context) {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 900.0),
        )),
        ..Default::default()
    };
    let output = ctx.run_ui(input, |ui| app.frame_ui(ui));
    black_box(ctx.tessellate(output.shapes, output.pixels_per_point));
}

/// The app showing `screen`, on the busiest gang.
fn app_on(path: &Path, screen: &str) -> (RapsheetApp, egui::Context) {
    let session = Session::open(path).unwrap();
    let busiest = session
        .gangs()
        .unwrap()
        .into_iter()
        .max_by_key(|g| session.battles_fought(g.id).unwrap_or(0))
        .unwrap()
        .id;
    let mut app = RapsheetApp::with_session(session);
    app.run_action(Action::SelectGang(busiest));
    match screen {
        "log" => app.run_action(Action::ShowLog(true)),
        "post-battle" => app.run_action(Action::ShowScreen(Screen::Battle)),
        _ => app.run_action(Action::ShowScreen(Screen::Roster)),
    }
    let ctx = egui::Context::default();
    // Warm up: fonts, caches, layout.
    for _ in 0..5 {
        frame(&mut app, &ctx);
    }
    (app, ctx)
}

/// A copy of the campaign for benchmarks that write.
fn scratch_copy(path: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("scratch.rapsheet");
    let session = Session::open(path).unwrap();
    drop(session.save_as(&copy).unwrap());
    (dir, copy)
}

/// What one post-battle commit took.
struct CommitSample {
    /// `Session::record_battle`: reading the two gangs, the procedure and
    /// its rolls, and the write.
    whole: Duration,
    /// The same events written again by `Session::commit_events` alone.
    write: Duration,
    events: usize,
    rolls: usize,
}

/// One post-battle commit between two gangs of six, undone outside the
/// timing so every sample starts from the same state.
fn commit_once(
    session: &mut Session,
    gangs: &[rapsheet::campaign::GangId],
    seed: u64,
) -> CommitSample {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (report, roll_seed) = next_battle(session, &mut rng, gangs).unwrap();
    let started = Instant::now();
    let recorded = session.record_battle(&report, roll_seed).unwrap();
    let whole = started.elapsed();
    let batch = recorded.batch.unwrap();
    let (label, events) = session.batch(batch).unwrap();
    session.undo(batch).unwrap();
    let started = Instant::now();
    let again = session.commit_events(&label, &events).unwrap();
    let write = started.elapsed();
    session.undo(again).unwrap();
    CommitSample {
        whole,
        write,
        events: events.len(),
        rolls: events
            .iter()
            .filter(|e| matches!(e, rapsheet::campaign::Event::TableRolled { .. }))
            .count(),
    }
}

/// The floor: `rows` rows of the same size inserted with plain rusqlite in
/// one durable transaction on the same file.
fn commit_floor(conn: &mut rusqlite::Connection, rows: usize) -> Duration {
    let payload = "x".repeat(400);
    let started = Instant::now();
    let tx = conn.transaction().unwrap();
    for _ in 0..rows {
        tx.execute(
            "INSERT INTO bench_floor (payload) VALUES (?1)",
            [payload.as_str()],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    started.elapsed()
}

fn floor_connection(path: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    conn.pragma_update(None, "synchronous", "FULL").unwrap();
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS bench_floor (id INTEGER PRIMARY KEY, payload TEXT)",
    )
    .unwrap();
    conn
}

fn benches(c: &mut Criterion) {
    let path = campaign();

    let mut group = c.benchmark_group("decade");
    group.sample_size(20);
    group.bench_function("open + first screen", |b| {
        b.iter(|| black_box(open_first_screen(&path)))
    });
    group.bench_function("open floor (rusqlite, one row)", |b| {
        b.iter(|| black_box(open_floor(&path)))
    });
    for screen in ["roster", "log", "post-battle"] {
        let (mut app, ctx) = app_on(&path, screen);
        group.bench_function(format!("frame: {screen}"), |b| {
            b.iter(|| frame(&mut app, &ctx))
        });
    }
    group.finish();

    summary(&path);
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let index = ((samples.len() - 1) as f64 * p).round() as usize;
    samples[index]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The figures of the issue, each with its floor or target, printed as
/// one table.
fn summary(path: &Path) {
    let mut lines = Vec::new();

    let mut opens: Vec<Duration> = (0..15)
        .map(|_| {
            let t = Instant::now();
            black_box(open_first_screen(path));
            t.elapsed()
        })
        .collect();
    let mut floors: Vec<Duration> = (0..15)
        .map(|_| {
            let t = Instant::now();
            black_box(open_floor(path));
            t.elapsed()
        })
        .collect();
    let (open, floor) = (percentile(&mut opens, 0.5), percentile(&mut floors, 0.5));
    lines.push(format!(
        "open + first screen   {:>9.2} ms   floor {:>7.2} ms   ratio {:>7.1}×",
        ms(open),
        ms(floor),
        open.as_secs_f64() / floor.as_secs_f64()
    ));

    for screen in ["roster", "log", "post-battle"] {
        let (mut app, ctx) = app_on(path, screen);
        let mut samples: Vec<Duration> = (0..300)
            .map(|_| {
                let t = Instant::now();
                frame(&mut app, &ctx);
                t.elapsed()
            })
            .collect();
        let median = percentile(&mut samples, 0.5);
        let p99 = percentile(&mut samples, 0.99);
        lines.push(format!(
            "frame: {screen:<14} median {:>6.2} ms ({:.2}× the 1 ms target)   p99 {:>6.2} ms ({:.2}× the 4 ms target)",
            ms(median),
            ms(median) / 1.0,
            ms(p99),
            ms(p99) / 4.0
        ));
    }

    // Open: where the time goes.
    let t = Instant::now();
    drop(rapsheet::session::builtin_registry().unwrap());
    let packs = t.elapsed();
    let t = Instant::now();
    let session = Session::open(path).unwrap();
    let session_open = t.elapsed();
    let store_open = session_open.saturating_sub(packs);
    let t = Instant::now();
    let mut app = RapsheetApp::with_session(session);
    let view_model = t.elapsed();
    let t = Instant::now();
    frame(&mut app, &egui::Context::default());
    let first_frame = t.elapsed();
    drop(app);
    lines.insert(1, format!(
        "  of which: file open and check {:.1} ms, packs {:.1} ms, view model {:.1} ms, first frame {:.1} ms",
        ms(store_open),
        ms(packs),
        ms(view_model),
        ms(first_frame)
    ));

    // Two fresh gangs of six in a copy: twelve fighters, with the injury
    // and advancement rolls their battle brings.
    let (_dir, copy) = scratch_copy(path);
    let mut session = Session::open(&copy).unwrap();
    let before: Vec<_> = session.gangs().unwrap().iter().map(|g| g.id).collect();
    generate(
        &mut session,
        GenSize {
            gangs: 2,
            fighters_per_gang: 6,
            battles: 0,
            seed: 99,
        },
        &mut |_, _| {},
    )
    .unwrap();
    let pair: Vec<_> = session
        .gangs()
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .filter(|id| !before.contains(id))
        .collect();
    let mut conn = floor_connection(&copy);
    let (mut wholes, mut writes, mut floors) = (Vec::new(), Vec::new(), Vec::new());
    let (mut events, mut rolls) = (0, 0);
    for seed in 0..30 {
        let sample = commit_once(&mut session, &pair, seed);
        events += sample.events;
        rolls += sample.rolls;
        wholes.push(sample.whole);
        writes.push(sample.write);
        // The commit writes a batch row, its events and about as many
        // state rows.
        floors.push(commit_floor(&mut conn, 1 + 2 * sample.events));
    }
    let (whole, write, floor) = (
        percentile(&mut wholes, 0.5),
        percentile(&mut writes, 0.5),
        percentile(&mut floors, 0.5),
    );
    lines.push(format!(
        "post-battle commit    {:>9.2} ms   floor {:>7.2} ms   ratio {:>7.2}× (12 fighters; {:.1} events and {:.1} rolls a battle)",
        ms(whole),
        ms(floor),
        whole.as_secs_f64() / floor.as_secs_f64(),
        events as f64 / 30.0,
        rolls as f64 / 30.0
    ));
    lines.push(format!(
        "  its write alone     {:>9.2} ms   floor {:>7.2} ms   ratio {:>7.2}× (target ≤ 2×)",
        ms(write),
        ms(floor),
        write.as_secs_f64() / floor.as_secs_f64()
    ));
    drop(session);

    if let Some(kib) = peak_rss_kib() {
        lines.push(format!(
            "peak memory (VmHWM)   {:>9.1} MB   ({:.2}× the 150 MB target)",
            kib as f64 / 1024.0,
            kib as f64 / 1024.0 / 150.0
        ));
    }

    let size = size();
    eprintln!(
        "\nThe decade campaign: {} gangs, {} fighters, {} battles",
        size.gangs,
        size.gangs * size.fighters_per_gang,
        size.battles
    );
    for line in lines {
        eprintln!("  {line}");
    }
}

/// The process's peak resident set, from `/proc/self/status` (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

criterion_group!(scale, benches);
criterion_main!(scale);
