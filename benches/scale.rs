#![allow(clippy::unwrap_used, clippy::expect_used)]

//! The decade campaign and the league: Rapsheet on files of hundreds and
//! thousands of gangs and thousands of battles, made by the generator
//! through the real post-battle procedure (`rapsheet gen`). Each figure is
//! set against a floor measured in the same run:
//!
//! - opening the file and building the first screen's view model, as the
//!   window does (the page check after the first frame), against opening
//!   the same file with plain rusqlite and reading one row; and the same
//!   with the page check first, as opening was measured before;
//! - one headless frame (`egui::Context::run_ui`, the real views, no GPU) of
//!   every screen: median, p99. The post-battle form draws a row for each
//!   fighter able to take part, so it is begun between two gangs of as many
//!   able fighters at both sizes (the most both campaigns have two gangs
//!   of), and again between the two gangs with the most, the largest form
//!   each campaign has;
//! - one post-battle commit, against the same rows written by plain SQL
//!   in one durable transaction on the same file: the statements the
//!   commit ran, values written in, replayed into `floor_` copies of the
//!   campaign's tables with their schema, indexes and rows;
//! - peak memory (`VmHWM` from `/proc/self/status`, Linux) of a process that
//!   opens the campaign and draws every screen.
//!
//! Both sizes run — 200 gangs of 12 with 5000 battles, and 2000 gangs with
//! 2000 battles — and the table gives each figure's growth from the first
//! to the second: a cost that does not grow with the campaign stays near 1×.
//! `cargo bench --bench scale`; `RAPSHEET_BENCH_GANGS` and
//! `RAPSHEET_BENCH_BATTLES` run one size instead. The generated files are
//! kept in the target folder and reused.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rapsheet::generator::{GenSize, generate, next_battle};
use rapsheet::session::Session;
use rapsheet::ui::{Action, GangAction, RapsheetApp, Screen, SeasonAction};

/// The sizes measured: the decade campaign and the league.
fn sizes() -> Vec<GenSize> {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    let size = |gangs, battles| GenSize {
        gangs,
        fighters_per_gang: 12,
        battles,
        seed: 1,
    };
    match (var("RAPSHEET_BENCH_GANGS"), var("RAPSHEET_BENCH_BATTLES")) {
        (None, None) => vec![size(200, 5000), size(2000, 2000)],
        (gangs, battles) => vec![size(gangs.unwrap_or(200), battles.unwrap_or(5000))],
    }
}

#[allow(dead_code)]
#[path = "support/decade.rs"]
mod decade;
#[path = "support/memory.rs"]
mod memory;
use decade::campaign;
use memory::peak_rss_kib;

/// Opening the file and everything the first screen shows, as the window
/// does: the check of the file's every page left for after the first
/// frame (it then runs beside the window, the campaign read-only).
fn open_first_screen(path: &Path) -> RapsheetApp {
    let packs = rapsheet::session::builtin_registry().unwrap();
    let session = Session::open_checking_later(path, packs).unwrap();
    let mut app = RapsheetApp::with_session(session);
    frame(&mut app, &egui::Context::default());
    app
}

/// [`open_first_screen`] with the page check first, as opening was
/// measured before the window left it for later.
fn open_checked_first_screen(path: &Path) -> RapsheetApp {
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
    let mut output = ctx.run_ui(input, |ui| app.frame_ui(ui));
    // No painter takes the textures: dropped as seen.
    output.textures_delta.clear();
    black_box(ctx.tessellate(output.shapes, output.pixels_per_point));
}

/// The two gangs a post-battle form is begun between. The form draws a
/// row for each fighter able to take part, so what it costs follows their
/// number, not the campaign's size.
#[derive(Clone, Copy)]
enum Sides {
    /// Two gangs of this many able fighters each: the same form at every
    /// size measured.
    Of(usize),
    /// The two gangs with the most able fighters: the largest form the
    /// campaign has.
    Largest,
}

/// Every gang with how many of its fighters can take part and how many
/// battles it has fought, most able first, then busiest.
fn able_fighters(session: &Session) -> Vec<(usize, i64, rapsheet::campaign::GangId)> {
    let able = |g| {
        session
            .fighters(g)
            .unwrap()
            .iter()
            .filter(|f| f.status.can_fight())
            .count()
    };
    let mut gangs: Vec<_> = session
        .gangs()
        .unwrap()
        .into_iter()
        .map(|g| (able(g.id), session.battles_fought(g.id).unwrap_or(0), g.id))
        .collect();
    gangs.sort_by(|a, b| b.cmp(a));
    gangs
}

/// The most able fighters a side can have in every campaign of `paths`:
/// each has two gangs of that many. A worn decade may have four, a young
/// league twelve; both draw the form of four a side.
fn common_side(paths: &[PathBuf]) -> usize {
    let per_campaign: Vec<Vec<usize>> = paths
        .iter()
        .map(|p| {
            let gangs = able_fighters(&Session::open(p).unwrap());
            let mut twice: Vec<usize> = gangs
                .windows(2)
                .filter(|w| w[0].0 == w[1].0 && w[0].0 > 0)
                .map(|w| w[0].0)
                .collect();
            twice.dedup();
            twice
        })
        .collect();
    per_campaign[0]
        .iter()
        .copied()
        .filter(|n| per_campaign.iter().all(|c| c.contains(n)))
        .max()
        .expect("no number of able fighters that every campaign has two gangs of")
}

/// The app showing `screen`, on the gang with the most able fighters; the
/// post-battle screen with a record begun between two gangs as `sides`
/// says.
fn app_on(path: &Path, screen: &str, sides: Sides) -> (RapsheetApp, egui::Context) {
    let session = Session::open(path).unwrap();
    let gangs = able_fighters(&session);
    let pair: Vec<_> = match sides {
        Sides::Largest => gangs.iter().take(2).map(|g| g.2).collect(),
        Sides::Of(n) => gangs
            .iter()
            .filter(|g| g.0 == n)
            .take(2)
            .map(|g| g.2)
            .collect(),
    };
    let [busiest, next] = pair[..] else {
        panic!("{}: no two gangs to begin a record between", path.display());
    };
    let mut app = RapsheetApp::with_session(session);
    app.run_action(Action::Gang(GangAction::Select(busiest)));
    match screen {
        "log" => app.run_action(Action::ShowLog(true)),
        "post-battle" => app.run_action(Action::Season(SeasonAction::RecordPair(busiest, next))),
        "titles" => app.run_action(Action::ShowScreen(Screen::Titles)),
        "chronicle" => app.run_action(Action::ShowScreen(Screen::Chronicle)),
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
    /// `Session::record_preview`: Commit on the screen, writing what the
    /// preview decided.
    commit: Duration,
    /// `Session::record_battle`: the command line's one step, procedure and
    /// write.
    whole: Duration,
    /// The same events written again by `Session::commit_events` alone.
    write: Duration,
    /// Every statement that changed the file while the sample ran, in
    /// order, and which of them `Session::record_preview` wrote.
    writes: Vec<String>,
    commit_writes: std::ops::Range<usize>,
}

/// The statements the campaign file runs, as the session hands them out.
type Watched = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// Hands every statement the campaign runs to `watched`.
fn watch(session: &mut Session, watched: &Watched) {
    let sink = watched.clone();
    session
        .watch_statements(Some(Box::new(move |sql| sink.lock().unwrap().push(sql))))
        .unwrap();
}

/// Whether a statement changes the file (the floor replays only these).
fn is_write(sql: &str) -> bool {
    let head = sql.trim_start().get(..7).unwrap_or("").to_ascii_uppercase();
    ["INSERT ", "UPDATE ", "DELETE ", "REPLACE"]
        .iter()
        .any(|w| head.starts_with(w))
}

/// One post-battle commit between two gangs of six, each way, undone
/// outside the timing so every sample starts from the same state. Odd
/// seeds time the write alone first, so neither way always follows the
/// other.
fn commit_once(
    session: &mut Session,
    gangs: &[rapsheet::campaign::GangId],
    seed: u64,
    watched: &Watched,
) -> CommitSample {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (report, roll_seed) = next_battle(session, &mut rng, gangs).unwrap();
    watched.lock().unwrap().clear();
    let started = Instant::now();
    let recorded = session.record_battle(&report, roll_seed).unwrap();
    let whole = started.elapsed();
    let batch = recorded.batch.unwrap();
    let (label, events) = session.batch(batch).unwrap();
    session.undo(batch).unwrap();
    let write = |session: &mut Session| {
        let started = Instant::now();
        let again = session.commit_events(&label, &events).unwrap();
        let took = started.elapsed();
        session.undo(again).unwrap();
        took
    };
    let write_first = (seed % 2 == 1).then(|| write(session));
    let preview = session.preview_battle(&report, roll_seed).unwrap();
    let from = watched.lock().unwrap().len();
    let started = Instant::now();
    let recorded = session.record_preview(preview).unwrap();
    let commit = started.elapsed();
    let to = watched.lock().unwrap().len();
    session.undo(recorded.batch.unwrap()).unwrap();
    let write = write_first.unwrap_or_else(|| write(session));
    let all = std::mem::take(&mut *watched.lock().unwrap());
    let writes_before = |n: usize| all[..n].iter().filter(|s| is_write(s)).count();
    let commit_writes = writes_before(from)..writes_before(to);
    let writes = all.into_iter().filter(|s| is_write(s)).collect();
    CommitSample {
        commit,
        whole,
        write,
        writes,
        commit_writes,
    }
}

/// The floor: the rows the sample's commit wrote — its batch, its events
/// and every projection row, through the same statements with their values
/// written in — as plain SQL in one durable transaction on the same file,
/// into tables with the campaign's own schema and indexes (the `floor_`
/// copies [`floor_connection`] makes). The rest of the sample's writes
/// (the undos, the other ways of committing) are replayed untimed, so the
/// copies stay row for row the campaign's tables.
fn commit_floor(
    conn: &mut rusqlite::Connection,
    names: &[String],
    sample: &CommitSample,
) -> Duration {
    let replay = |conn: &mut rusqlite::Connection, statements: &[String]| {
        let tx = conn.transaction().unwrap();
        for sql in statements {
            tx.execute(&floor_sql(sql, names), []).unwrap();
        }
        tx.commit().unwrap();
    };
    let range = sample.commit_writes.clone();
    replay(conn, &sample.writes[..range.start]);
    let started = Instant::now();
    replay(conn, &sample.writes[range.clone()]);
    let took = started.elapsed();
    replay(conn, &sample.writes[range.end..]);
    took
}

/// `sql` with every table, index and trigger of the campaign named as its
/// `floor_` copy: a name is renamed where SQL names a table or index
/// (after INTO, UPDATE, FROM, JOIN, REFERENCES, TABLE, INDEX, TRIGGER,
/// ON); quoted text is left as it is.
fn floor_sql(sql: &str, names: &[String]) -> String {
    const BEFORE_NAME: [&str; 9] = [
        "INTO",
        "UPDATE",
        "FROM",
        "JOIN",
        "REFERENCES",
        "TABLE",
        "INDEX",
        "TRIGGER",
        "ON",
    ];
    let mut out = String::with_capacity(sql.len() + 64);
    let mut previous = String::new();
    let mut chars = sql.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c == '\'' {
            // A quoted string, '' inside it standing for one quote.
            out.push(c);
            while let Some((_, c)) = chars.next() {
                out.push(c);
                if c == '\'' {
                    if chars.peek().map(|&(_, c)| c) == Some('\'') {
                        out.push(chars.next().unwrap().1);
                    } else {
                        break;
                    }
                }
            }
            previous.clear();
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let mut end = start + c.len_utf8();
            while let Some(&(i, c)) = chars.peek() {
                if c.is_ascii_alphanumeric() || c == '_' {
                    end = i + c.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let word = &sql[start..end];
            if BEFORE_NAME.contains(&previous.as_str()) && names.iter().any(|n| n == word) {
                out.push_str("floor_");
            }
            out.push_str(word);
            previous = word.to_ascii_uppercase();
        } else {
            out.push(c);
            if !c.is_whitespace() {
                previous.clear();
            }
        }
    }
    out
}

/// A plain rusqlite connection on the campaign with the store's settings,
/// and a `floor_` copy of every table, index and trigger of the campaign,
/// rows and all. Returns the names copied.
fn floor_connection(path: &Path) -> (rusqlite::Connection, Vec<String>) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    conn.pragma_update(None, "synchronous", "FULL").unwrap();
    let schema: Vec<(String, String, String)> = conn
        .prepare(
            "SELECT type, name, sql FROM sqlite_master \
             WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'floor_%' \
             ORDER BY type = 'table' DESC, rowid",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let names: Vec<String> = schema.iter().map(|(_, name, _)| name.clone()).collect();
    // Copied as they are, every table there before the rows that refer
    // to it are checked.
    conn.pragma_update(None, "foreign_keys", "OFF").unwrap();
    let tx = conn.unchecked_transaction().unwrap();
    for (_, _, sql) in &schema {
        tx.execute_batch(&floor_sql(sql, &names)).unwrap();
    }
    for (kind, name, _) in &schema {
        if kind == "table" {
            tx.execute_batch(&format!("INSERT INTO floor_{name} SELECT * FROM {name}"))
                .unwrap();
        }
    }
    tx.commit().unwrap();
    conn.pragma_update(None, "foreign_keys", "ON").unwrap();
    (conn, names)
}

/// Every screen a frame is measured on.
const SCREENS: [&str; 5] = ["roster", "log", "post-battle", "titles", "chronicle"];

fn benches(c: &mut Criterion) {
    // Asked by the run below to measure memory alone, in its own process.
    if let Ok(path) = std::env::var(MEMORY_RUN) {
        every_screen(Path::new(&path));
        println!("{MEMORY_RUN} {}", peak_rss_kib().unwrap_or(0));
        std::process::exit(0);
    }
    let sizes = sizes();
    let paths: Vec<PathBuf> = sizes.iter().map(|s| campaign(*s)).collect();
    let side = common_side(&paths);

    let mut group = c.benchmark_group("decade");
    group.sample_size(20);
    let path = &paths[0];
    group.bench_function("open + first screen", |b| {
        b.iter(|| black_box(open_first_screen(path)))
    });
    group.bench_function("open floor (rusqlite, one row)", |b| {
        b.iter(|| black_box(open_floor(path)))
    });
    for screen in ["roster", "log", "post-battle"] {
        let (mut app, ctx) = app_on(path, screen, Sides::Of(side));
        group.bench_function(format!("frame: {screen}"), |b| {
            b.iter(|| frame(&mut app, &ctx))
        });
    }
    group.finish();

    let figures: Vec<Vec<Figure>> = paths.iter().map(|p| figures(p, side)).collect();
    report(&sizes, &figures);
}

/// The environment variable that makes the bench measure one campaign's
/// memory in a process of its own.
const MEMORY_RUN: &str = "RAPSHEET_BENCH_MEMORY_OF";

/// Opens the campaign and draws every screen, as a player visiting them.
fn every_screen(path: &Path) {
    for screen in SCREENS {
        let (mut app, ctx) = app_on(path, screen, Sides::Largest);
        frame(&mut app, &ctx);
    }
}

/// One measured figure: its value and, where it has one, its floor.
struct Figure {
    name: String,
    value: f64,
    unit: &'static str,
    floor: Option<f64>,
    /// What the figure should stay within, in words.
    target: &'static str,
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let index = ((samples.len() - 1) as f64 * p).round() as usize;
    samples[index]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The figures of one campaign, each with its floor or target; the
/// post-battle form begun between two gangs of `side` able fighters, and
/// again between the two with the most.
fn figures(path: &Path, side: usize) -> Vec<Figure> {
    let mut out = Vec::new();
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
    let mut checked: Vec<Duration> = (0..15)
        .map(|_| {
            let t = Instant::now();
            black_box(open_checked_first_screen(path));
            t.elapsed()
        })
        .collect();
    let floor = Some(ms(percentile(&mut floors, 0.5)));
    out.push(Figure {
        name: "open + first screen".into(),
        value: ms(percentile(&mut opens, 0.5)),
        unit: "ms",
        floor,
        target: "launch ≤ 1.3× an empty window (launch bench)",
    });
    out.push(Figure {
        name: "  with the page check first".into(),
        value: ms(percentile(&mut checked, 0.5)),
        unit: "ms",
        floor,
        target: "as the window opened before",
    });
    let mut screens: Vec<(String, &str, Sides, &'static str)> = SCREENS
        .iter()
        .map(|&screen| {
            let name = match screen {
                "post-battle" => format!("post-battle, {side} a side"),
                _ => screen.to_owned(),
            };
            (name, screen, Sides::Of(side), "≤ 1 ms, not growing")
        })
        .collect();
    screens.push((
        "post-battle, largest sides".into(),
        "post-battle",
        Sides::Largest,
        "≤ 1 ms (grows with the sides)",
    ));
    for (name, screen, sides, target) in screens {
        let (mut app, ctx) = app_on(path, screen, sides);
        let mut samples: Vec<Duration> = (0..200)
            .map(|_| {
                let t = Instant::now();
                frame(&mut app, &ctx);
                t.elapsed()
            })
            .collect();
        out.push(Figure {
            name: format!("frame: {name}, median"),
            value: ms(percentile(&mut samples, 0.5)),
            unit: "ms",
            floor: None,
            target,
        });
        out.push(Figure {
            name: format!("frame: {name}, p99"),
            value: ms(percentile(&mut samples, 0.99)),
            unit: "ms",
            floor: None,
            target: "≤ 4 ms",
        });
    }
    let commits = commits(path);
    let floor = Some(ms(commits.floor));
    out.push(Figure {
        name: "post-battle commit (12 fighters)".into(),
        value: ms(commits.commit),
        unit: "ms",
        floor,
        target: "≤ 1.5× the floor",
    });
    out.push(Figure {
        name: "  its preview, as the form is filled".into(),
        value: ms(commits.preview),
        unit: "ms",
        floor: None,
        target: "≤ 1 ms, not growing",
    });
    out.push(Figure {
        name: "  recorded in one step (command line)".into(),
        value: ms(commits.whole),
        unit: "ms",
        floor,
        target: "not growing",
    });
    out.push(Figure {
        name: "  its write alone".into(),
        value: ms(commits.write),
        unit: "ms",
        floor,
        target: "≤ 1.5× the floor",
    });
    if let Some(kib) = memory::memory_of(MEMORY_RUN, path) {
        out.push(Figure {
            name: "peak memory, every screen".into(),
            value: kib as f64 / 1024.0,
            unit: "MB",
            floor: None,
            target: "< 200 MB",
        });
    }
    out
}

/// `Session::preview_battle` as the record screen runs it while the
/// players fill the form in: reading the gangs in the battle and running
/// the procedure, the campaign just changed by a record of its own (made
/// and taken back). Timed apart from the commits, whose floor writes the
/// file through a second connection between them, which empties the
/// session's page cache as nothing at the table does. Three rounds of 30;
/// the quietest round's median, as a busy machine only ever adds to it.
fn previews(session: &mut Session, gangs: &[rapsheet::campaign::GangId]) -> Duration {
    let mut round = || {
        let mut times: Vec<Duration> = (100..130)
            .map(|seed| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let (report, roll_seed) = next_battle(session, &mut rng, gangs).unwrap();
                let recorded = session.record_battle(&report, roll_seed).unwrap();
                session.undo(recorded.batch.unwrap()).unwrap();
                let started = Instant::now();
                black_box(session.preview_battle(&report, roll_seed).unwrap());
                started.elapsed()
            })
            .collect();
        percentile(&mut times, 0.5)
    };
    (0..3).map(|_| round()).min().unwrap()
}

/// The medians of a run of post-battle commits, and of the floor.
struct Commits {
    preview: Duration,
    commit: Duration,
    whole: Duration,
    write: Duration,
    floor: Duration,
}

/// Post-battle commits between two fresh gangs of six in a copy (twelve
/// fighters, with the injury and advancement rolls their battle brings).
fn commits(path: &Path) -> Commits {
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
    let preview = previews(&mut session, &pair);
    let (mut conn, names) = floor_connection(&copy);
    let watched = Watched::default();
    watch(&mut session, &watched);
    let mut samples = Vec::new();
    let mut floors = Vec::new();
    for seed in 0..30 {
        let sample = commit_once(&mut session, &pair, seed, &watched);
        floors.push(commit_floor(&mut conn, &names, &sample));
        samples.push(sample);
    }
    session.watch_statements(None).unwrap();
    let median = |pick: fn(&CommitSample) -> Duration| {
        let mut all: Vec<Duration> = samples.iter().map(pick).collect();
        percentile(&mut all, 0.5)
    };
    Commits {
        preview,
        commit: median(|s| s.commit),
        whole: median(|s| s.whole),
        write: median(|s| s.write),
        floor: percentile(&mut floors, 0.5),
    }
}

/// The table: each figure at each size, with its floor ratio, and its
/// growth from the first size to the last.
fn report(sizes: &[GenSize], figures: &[Vec<Figure>]) {
    let heading: Vec<String> = sizes
        .iter()
        .map(|s| format!("{} gangs, {} battles", s.gangs, s.battles))
        .collect();
    eprintln!(
        "\n{:<34} {:>28}   growth   target",
        "figure",
        heading.join(" | ")
    );
    for (i, first) in figures[0].iter().enumerate() {
        let cells: Vec<String> = figures
            .iter()
            .map(|f| {
                let f = &f[i];
                match f.floor {
                    Some(floor) => format!(
                        "{:.2} {} ({:.1}× floor {:.2})",
                        f.value,
                        f.unit,
                        f.value / floor,
                        floor
                    ),
                    None => format!("{:.2} {}", f.value, f.unit),
                }
            })
            .collect();
        let last = &figures[figures.len() - 1][i];
        eprintln!(
            "{:<34} {:>28}   {:>5.2}×   {}",
            first.name,
            cells.join(" | "),
            last.value / first.value,
            first.target
        );
    }
}

criterion_group!(scale, benches);
criterion_main!(scale);
