#![allow(clippy::unwrap_used, clippy::expect_used)]

//! A league's sync against a real PostgreSQL (a throwaway cluster, as the
//! tests start it), on the demo campaign and on the decade campaign (the
//! scale bench's file, made once and kept). Each figure is set against a
//! floor measured in the same run: connecting over TLS and asking the
//! server its newest batch, which every sync does at least.
//!
//! - a sync that fetches one new batch, one that sends one, and one that
//!   fetches one and makes one of its own again after it: on both
//!   campaigns, median of several once the server has vacuumed what the
//!   campaign's whole log left, and the growth from the demo to the
//!   decade campaign (a sync should cost what it fetches and sends, not
//!   the campaign's size: near 1×, within 2×);
//! - a sync with nothing to send or fetch, on both campaigns (should cost
//!   the same on the decade campaign as on the demo: within 1.5×);
//! - a sync that fetches one change, makes one record of this laptop's
//!   again after it (its report and dice worked out where it now stands)
//!   and sends it;
//! - a first join (the whole log fetched, its chain checked, every record
//!   made again, taken into a new file), in a process of its own: its
//!   wall time and the most memory it held;
//! - 16 laptops (`RAPSHEET_BENCH_LAPTOPS`) each sending one change at once,
//!   over several rounds: the round's wall time and the median sync.
//!
//! `cargo bench --bench league`.

#[path = "support/decade.rs"]
mod decade;
#[allow(dead_code)]
#[path = "../tests/util/postgres.rs"]
mod postgres;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::SeedableRng as _;
use rapsheet::generator::GenSize;
use rapsheet::session::Session;
use rapsheet::session::league::{Invite, ServerAddress};
use rapsheet::store::league::League;

const SAMPLES: usize = 15;

fn main() {
    // The bench run again as a laptop joining, for the join's own figures.
    if let Ok(job) = std::env::var(JOINING) {
        join_here(&job);
        return;
    }
    let cluster = postgres::cluster();
    let dir = tempfile::tempdir().unwrap();
    let floor = median((0..SAMPLES).map(|_| {
        let league = cluster.league(&format!("floor{}", fastrand()));
        let started = Instant::now();
        let mut client = League::connect(&league.address, &league.password).unwrap();
        client.whoami().unwrap();
        started.elapsed()
    }));
    println!("floor: connect over TLS and one query: {}", ms(floor));
    let campaigns = [("demo", demo(dir.path())), ("decade", decade())];
    let mut rows = Vec::new();
    for (i, (name, file)) in campaigns.iter().enumerate() {
        let figures = one_campaign(cluster, dir.path(), &format!("bench{i}"), file);
        println!(
            "{name}: init (send the whole log) {}, first join {} holding at most {} MB, sync with nothing to do {} ({:.1}× floor), sync fetching 1 {} ({:.1}× floor), sync sending 1 {} ({:.1}× floor), sync fetching 1 and rebasing 1 {} ({:.1}× floor), sync fetching 1, making 1 record again and sending it {} ({:.1}× floor)",
            ms(figures.init),
            ms(figures.join),
            figures.join_mb,
            ms(figures.nothing),
            ratio(figures.nothing, floor),
            ms(figures.fetch_one),
            ratio(figures.fetch_one, floor),
            ms(figures.send_one),
            ratio(figures.send_one, floor),
            ms(figures.rebase_one),
            ratio(figures.rebase_one, floor),
            ms(figures.remake_one),
            ratio(figures.remake_one, floor)
        );
        rows.push(figures);
    }
    if let [small, large] = rows.as_slice() {
        println!(
            "growth from the demo to the decade campaign: sync with nothing to do {:.2}×, sync fetching 1 {:.2}×, sync sending 1 {:.2}×, sync fetching 1 and rebasing 1 {:.2}×, sync fetching 1 and making 1 record again {:.2}×, first join {:.1}×",
            ratio(large.nothing, small.nothing),
            ratio(large.fetch_one, small.fetch_one),
            ratio(large.send_one, small.send_one),
            ratio(large.rebase_one, small.rebase_one),
            ratio(large.remake_one, small.remake_one),
            ratio(large.join, small.join)
        );
    }
    let laptops = std::env::var("RAPSHEET_BENCH_LAPTOPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16);
    concurrent(cluster, dir.path(), laptops, floor);
}

/// What one campaign's league measured.
struct Figures {
    init: Duration,
    join: Duration,
    /// The most memory the joining process held, in MB.
    join_mb: u64,
    nothing: Duration,
    /// A sync that fetches one change and makes one record of this
    /// laptop's again after it before sending it.
    remake_one: Duration,
    fetch_one: Duration,
    send_one: Duration,
    /// A sync that fetches one change and makes one of this laptop's
    /// again after it before sending it.
    rebase_one: Duration,
}

fn one_campaign(cluster: &postgres::Cluster, dir: &Path, db: &str, file: &Path) -> Figures {
    let league = cluster.league(db);
    let here = dir.join(format!("{db}-organiser.rapsheet"));
    std::fs::copy(file, &here).unwrap();
    let mut organiser = Session::open(&here).unwrap();
    organiser.keep_league_passwords_in(dir.join(format!("{db}-organiser-passwords")));
    let server = server_of(&league);
    let started = Instant::now();
    organiser.league_init(&server, &league.password).unwrap();
    let init = started.elapsed();
    let gangs = organiser.gang_list().unwrap();
    let (theirs, mine) = (gangs[0].clone(), gangs[1].clone());
    let invite = join(&organiser, dir, &format!("{db}_member"), &mine.name);
    let member_file = dir.join(format!("{db}-member.rapsheet"));
    let member_passwords = dir.join(format!("{db}-member-passwords"));
    let (join, join_mb) = join_elsewhere(&invite, &member_file, &member_passwords);
    let mut member = Session::open(&member_file).unwrap();
    member.keep_league_passwords_in(member_passwords);
    // What autovacuum does after the whole log was sent, done now, so its
    // work in the background lands in no sample.
    cluster
        .superuser(db)
        .batch_execute("VACUUM ANALYZE")
        .unwrap();
    let resource = first_resource(&organiser, theirs.id);
    let nothing = median((0..SAMPLES).map(|_| {
        let started = Instant::now();
        member.league_sync(&[], None).unwrap();
        started.elapsed()
    }));
    let fetch_one = median((0..SAMPLES).map(|_| {
        organiser
            .adjust_resource(theirs.id, &resource, 1, "bench")
            .unwrap();
        organiser.league_sync(&[], None).unwrap();
        let started = Instant::now();
        member.league_sync(&[], None).unwrap();
        started.elapsed()
    }));
    let send_one = median((0..SAMPLES).map(|_| {
        member
            .adjust_resource(mine.id, &resource, 1, "bench")
            .unwrap();
        let started = Instant::now();
        member.league_sync(&[], None).unwrap();
        started.elapsed()
    }));
    let rebase_one = median((0..SAMPLES).map(|_| {
        organiser
            .adjust_resource(theirs.id, &resource, 1, "bench")
            .unwrap();
        organiser.league_sync(&[], None).unwrap();
        member
            .adjust_resource(mine.id, &resource, 1, "bench")
            .unwrap();
        let started = Instant::now();
        member.league_sync(&[], None).unwrap();
        started.elapsed()
    }));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let remake_one = median((0..SAMPLES).map(|_| {
        organiser
            .adjust_resource(theirs.id, &resource, 1, "bench")
            .unwrap();
        organiser.league_sync(&[], None).unwrap();
        let (report, seed) =
            rapsheet::generator::next_battle(&member, &mut rng, &[mine.id, theirs.id]).unwrap();
        member.record_battle(&report, seed).unwrap();
        let started = Instant::now();
        let outcome = member.league_sync(&[], None).unwrap();
        let took = started.elapsed();
        assert!(
            matches!(
                outcome,
                rapsheet::session::league::SyncOutcome::Synced { sent: 1, .. }
            ),
            "{}",
            outcome.headline()
        );
        took
    }));
    Figures {
        init,
        join,
        join_mb,
        nothing,
        fetch_one,
        send_one,
        rebase_one,
        remake_one,
    }
}

/// The variable that makes this bench a laptop joining: `INVITE|FILE|PASSWORDS`.
const JOINING: &str = "RAPSHEET_BENCH_JOINING";

/// Joins with `invite` into `file` in a process of its own (this bench
/// run again): how long it took, and the most memory it held (MB).
fn join_elsewhere(invite: &Invite, file: &Path, passwords: &Path) -> (Duration, u64) {
    let invite_file = file.with_extension("invite.toml");
    std::fs::write(&invite_file, toml::to_string(invite).unwrap()).unwrap();
    let job = format!(
        "{}|{}|{}",
        invite_file.display(),
        file.display(),
        passwords.display()
    );
    let started = Instant::now();
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .env(JOINING, job)
        .status()
        .unwrap();
    let took = started.elapsed();
    assert!(status.success(), "the join failed");
    // SAFETY: getrusage writes the struct it is given, nothing else.
    let most = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage.ru_maxrss
    };
    (took, u64::try_from(most).unwrap_or(0) / 1024)
}

/// The joining laptop's part.
fn join_here(job: &str) {
    let parts: Vec<&str> = job.split('|').collect();
    let invite = rapsheet::session::league::read_invite(Path::new(parts[0])).unwrap();
    Session::league_join_with(&invite, Path::new(parts[1]), Some(Path::new(parts[2]))).unwrap();
}

/// `laptops` members of the demo's league each sending one change at
/// once, over several rounds.
fn concurrent(cluster: &postgres::Cluster, dir: &Path, laptops: usize, floor: Duration) {
    let league = cluster.league("bench_many");
    let here = dir.join("many-organiser.rapsheet");
    drop(Session::create_demo(&here).unwrap());
    let mut organiser = Session::open(&here).unwrap();
    organiser.keep_league_passwords_in(dir.join("many-organiser-passwords"));
    let server = server_of(&league);
    organiser.league_init(&server, &league.password).unwrap();
    let gang = organiser.gang_list().unwrap()[0].clone();
    let mut members = Vec::new();
    for i in 0..laptops {
        // Each member founds a gang of their own, which becomes theirs.
        let invite = join(&organiser, dir, &format!("bench_many_{i}"), &gang.name);
        let mut session = Session::league_join_with(
            &invite,
            &dir.join(format!("many-{i}.rapsheet")),
            Some(&dir.join(format!("many-{i}-passwords"))),
        )
        .unwrap();
        let (own, _) = session.found_gang(&format!("Crew {i}"), None).unwrap();
        session.league_sync(&[], None).unwrap();
        members.push((session, own));
    }
    let resource = first_resource(&organiser, gang.id);
    let mut rounds = Vec::new();
    let mut syncs = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        let took: Vec<Duration> = std::thread::scope(|scope| {
            let handles: Vec<_> = members
                .iter_mut()
                .map(|(session, own)| {
                    let resource = resource.clone();
                    scope.spawn(move || {
                        session
                            .adjust_resource(*own, &resource, 1, "bench")
                            .unwrap();
                        let started = Instant::now();
                        session.league_sync(&[], None).unwrap();
                        started.elapsed()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        rounds.push(started.elapsed());
        syncs.extend(took);
    }
    let sync = median(syncs.into_iter());
    println!(
        "{laptops} laptops sending one change each at once: a round {} (median of 5), a sync {} ({:.1}× floor)",
        ms(median(rounds.into_iter())),
        ms(sync),
        ratio(sync, floor)
    );
}

/// Where the league's server is, as the organiser sets it up.
fn server_of(league: &postgres::TestLeague) -> ServerAddress {
    let a = &league.address;
    ServerAddress {
        host: a.host.clone(),
        port: a.port,
        database: a.database.clone(),
        login: a.login.clone(),
        certificate: a.certificate.clone(),
    }
}

/// The organiser's invite for `login` with `gang`.
fn join(organiser: &Session, dir: &Path, login: &str, gang: &str) -> Invite {
    let file = dir.join(format!("{login}.invite"));
    organiser
        .league_invite(login, &[gang.to_owned()], &file)
        .unwrap()
}

fn first_resource(session: &Session, gang: rapsheet::campaign::GangId) -> String {
    let gang = session.gang_view(gang).unwrap();
    gang.resources[0].id.clone()
}

fn demo(dir: &Path) -> PathBuf {
    let path = dir.join("demo.rapsheet");
    drop(Session::create_demo(&path).unwrap());
    path
}

/// The scale bench's decade campaign, made once and kept.
fn decade() -> PathBuf {
    decade::campaign(GenSize {
        gangs: 200,
        fighters_per_gang: 12,
        battles: 5000,
        seed: 1,
    })
}

fn median(samples: impl Iterator<Item = Duration>) -> Duration {
    let mut all: Vec<Duration> = samples.collect();
    all.sort();
    all.get(all.len() / 2).copied().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

/// A small number that differs between calls, for database names.
fn fastrand() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
