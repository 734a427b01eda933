//! Laptops of a league for the league's tests (`league_sync`,
//! `league_many`, `league_restart`): each the `rapsheet` binary with a
//! home of its own, a league made from a generated campaign, and the
//! checks that all laptops end with the server's log. Taken in with
//! `#[path]` by the test files that use it, beside `mod util`.

#![allow(dead_code)]

use std::collections::HashSet;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Output, Stdio};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::util;
use crate::util::postgres::{TestLeague, cluster};

/// A laptop: a folder that is its home, and its campaign file there.
pub struct Laptop {
    pub home: PathBuf,
}

impl Laptop {
    pub fn new(root: &Path, name: &str) -> Laptop {
        let home = root.join(name);
        std::fs::create_dir_all(&home).unwrap();
        Laptop { home }
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rapsheet"));
        command
            .args(args)
            .current_dir(&self.home)
            .env_remove("PGPASSWORD")
            .env("XDG_DATA_HOME", self.home.join("data"))
            .env("XDG_CONFIG_HOME", self.home.join("config"))
            .env("HOME", &self.home);
        command
    }

    pub fn with_db(args: &[&str]) -> Vec<String> {
        let mut all: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        all.extend(["--db".to_owned(), "campaign.rapsheet".to_owned()]);
        all
    }

    /// Runs `rapsheet ARGS --db campaign.rapsheet` here.
    pub fn run(&self, args: &[&str]) -> Output {
        let all = Self::with_db(args);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        self.command(&all).output().unwrap()
    }

    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{:?} in {}: {}{}",
            args,
            self.home.display(),
            util::stdout(&out),
            util::stderr(&out)
        );
        util::stdout(&out)
    }

    /// `rapsheet league sync ARGS`, started and not waited for.
    pub fn spawn_sync(&self, args: &[&str]) -> Child {
        let mut all = vec!["league", "sync"];
        all.extend(args);
        let all = Self::with_db(&all);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        self.command(&all)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// `rapsheet league sync --pause-at before-send ARGS`, started and
    /// waited for until it says it paused: the sync (its input open:
    /// closing it lets the sync go on) and its standard error, to read on.
    pub fn spawn_paused(&self, args: &[&str]) -> (Child, BufReader<ChildStderr>) {
        let mut all = vec!["league", "sync", "--pause-at", "before-send"];
        all.extend(args);
        let all = Self::with_db(&all);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let mut child = self
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
        (child, err)
    }

    pub fn file(&self) -> PathBuf {
        self.home.join("campaign.rapsheet")
    }

    /// The campaign's chronicle as JSON, bytes.
    pub fn chronicle(&self, name: &str) -> Vec<u8> {
        let out = self.home.join(name);
        self.ok(&[
            "export",
            "campaign",
            "--format",
            "json",
            "-o",
            out.to_str().unwrap(),
        ]);
        std::fs::read(out).unwrap()
    }

    /// The league's names of the batches in this laptop's file, in order.
    pub fn names(&self) -> Vec<(i64, String)> {
        let db = rusqlite::Connection::open(self.file()).unwrap();
        let mut query = db
            .prepare("SELECT batch_id, uid FROM league_batch ORDER BY batch_id")
            .unwrap();
        query
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    /// The password file this laptop's join wrote, under its settings
    /// folder.
    pub fn password_file(&self) -> PathBuf {
        let mut found = Vec::new();
        let mut folders = vec![self.home.join("config")];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.file_name().is_some_and(|n| n == "league-passwords") {
                    found.push(path);
                }
            }
        }
        found.pop().expect("the join kept the password")
    }

    /// The league password this laptop keeps (the first line of its
    /// password file).
    pub fn password(&self) -> String {
        let text = std::fs::read_to_string(self.password_file()).unwrap();
        text.lines()
            .next()
            .and_then(|line| line.rsplit(':').next())
            .expect("a password")
            .to_owned()
    }

    /// Adds 1 to `gang`'s ammo, for `reason`: a change of the member's
    /// own, from the command line.
    pub fn ammo(&self, gang: &str, reason: &str) {
        self.ok(&["resource", "ammo", "1", "--gang", gang, "--reason", reason]);
    }

    /// The private key this laptop signs its league batches with (the
    /// first line of its key file, beside the password file).
    pub fn private_key(&self) -> String {
        let keys = self.password_file().with_file_name("league-keys");
        let text = std::fs::read_to_string(&keys).unwrap();
        text.lines()
            .next()
            .and_then(|line| line.rsplit(':').next())
            .expect("a key")
            .to_owned()
    }

    /// How many batches this laptop's log holds.
    pub fn batches(&self) -> i64 {
        let db = rusqlite::Connection::open(self.file()).unwrap();
        db.query_row("SELECT count(*) FROM batch", [], |row| row.get(0))
            .unwrap()
    }

    /// Records a seeded battle between `mine` and `rival`, made from this
    /// laptop's campaign as it stands, through `rapsheet battle record`.
    pub fn record_battle(&self, mine: &str, rival: &str, seed: u64) {
        let report = {
            let session = rapsheet::session::Session::open(&self.file()).unwrap();
            let gangs = [
                session.gang_named(mine).unwrap().id,
                session.gang_named(rival).unwrap().id,
            ];
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rapsheet::generator::next_battle(&session, &mut rng, &gangs).unwrap()
        };
        let (report, roll_seed) = report;
        let path = self.home.join(format!("report-{seed}.json"));
        std::fs::write(&path, serde_json::to_string_pretty(&report).unwrap()).unwrap();
        self.ok(&[
            "battle",
            "record",
            path.to_str().unwrap(),
            "--seed",
            &roll_seed.to_string(),
        ]);
    }
}

/// What became of one laptop's syncs in a round: the conflicts it chose.
#[derive(Default)]
pub struct Settled {
    pub conflicts: usize,
}

/// Waits for a sync started with [`Laptop::spawn_sync`]; where the
/// server's changes and the laptop's conflict, takes the league's side of
/// each and syncs again (the same choice on every run: the test stays
/// deterministic whatever order the syncs met the server in); a record
/// the league's changes left unplayable is taken back as the sync advises;
/// a sync that lost to the others every time is tried again.
pub fn settle(laptop: &Laptop, child: Child, settled: &mut Settled) {
    let mut out = child.wait_with_output().unwrap();
    for _ in 0..20 {
        if out.status.success() {
            return;
        }
        let said = util::stdout(&out);
        let err = util::stderr(&out);
        let numbers: Vec<String> = said
            .lines()
            .filter_map(|l| l.strip_prefix("Conflict "))
            .filter_map(|l| l.split(':').next())
            .map(|n| format!("{n}=league"))
            .collect();
        let mut args = vec![];
        if err.contains("no longer plays") || err.contains("no longer fits") {
            // A record the league's changes left unplayable: taken back as
            // the sync advises, like a conflict settled for the league's
            // side a change the server never holds.
            let command = err.split('`').nth(1).expect("the advice's command");
            let advice: Vec<&str> = command.split(' ').skip(1).collect();
            laptop.ok(&advice);
            settled.conflicts += 1;
        } else if numbers.is_empty() {
            assert!(
                err.contains("kept sending first"),
                "sync in {}: {said}{err}",
                laptop.home.display()
            );
        } else {
            settled.conflicts += numbers.len();
            for n in &numbers {
                args.extend(["--take", n.as_str()]);
            }
        }
        out = laptop.spawn_sync(&args).wait_with_output().unwrap();
    }
    panic!("{} never synced", laptop.home.display());
}

/// The organiser's laptop with a made campaign of `gangs` gangs made a
/// league's, and the league.
pub fn organised(root: &Path, name: &str, gangs: usize) -> (Laptop, TestLeague) {
    organised_with(
        root,
        name,
        &[
            "gen",
            "--gangs",
            &gangs.to_string(),
            "--fighters-per-gang",
            "6",
            "--battles",
            "0",
            "--seed",
            "29",
        ],
    )
}

/// The organiser's laptop with the campaign `make` makes (a `rapsheet`
/// command: `demo`, `gen …`) made a league's, and the league.
pub fn organised_with(root: &Path, name: &str, make: &[&str]) -> (Laptop, TestLeague) {
    organised_as(root, name, make, &[])
}

/// [`organised_with`], `league init` given `init` too (`--schema 4`, as
/// an older build makes a league; `--league-format 1`).
pub fn organised_as(root: &Path, name: &str, make: &[&str], init: &[&str]) -> (Laptop, TestLeague) {
    let league = cluster().league(name);
    let organiser = Laptop::new(root, "organiser");
    organiser.ok(make);
    let cert = organiser.home.join("league.pem");
    std::fs::write(&cert, &league.address.certificate).unwrap();
    let port = league.address.port.to_string();
    let mut args = vec![
        "league",
        "init",
        "--host",
        &league.address.host,
        "--port",
        &port,
        "--database",
        &league.address.database,
        "--login",
        &league.address.login,
        "--certificate",
        cert.to_str().unwrap(),
        "--db",
        "campaign.rapsheet",
    ];
    args.extend(init);
    let out = organiser
        .command(&args)
        .env("PGPASSWORD", &league.password)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", util::stderr(&out));
    (organiser, league)
}

/// A member invited with `gang`, joined on a laptop of their own. Logins
/// are the cluster's, so each league's carry its name.
pub fn member(
    root: &Path,
    organiser: &Laptop,
    league: &TestLeague,
    name: &str,
    gang: &str,
) -> Laptop {
    member_as(root, organiser, league, name, gang, &[])
}

/// [`member`], `league join` given `join` too (`--league-format 1`, as
/// an older build joins).
pub fn member_as(
    root: &Path,
    organiser: &Laptop,
    league: &TestLeague,
    name: &str,
    gang: &str,
    join: &[&str],
) -> Laptop {
    let login = &format!("{}_{name}", league.address.database);
    let invite = organiser.home.join(format!("{login}.invite"));
    organiser.ok(&[
        "league",
        "invite",
        login,
        "--gang",
        gang,
        "-o",
        invite.to_str().unwrap(),
    ]);
    let laptop = Laptop::new(root, name);
    let mut args = vec![
        "league",
        "join",
        invite.to_str().unwrap(),
        "--db",
        "campaign.rapsheet",
    ];
    args.extend(join);
    let out = laptop.command(&args).output().unwrap();
    assert!(out.status.success(), "{}", util::stderr(&out));
    laptop
}

/// The gang made `i`th (from 0) by `rapsheet gen`.
pub fn gang(i: usize) -> String {
    format!("Gang {:03}", i + 1)
}

/// The server's batches, `(seq, uid)` in order, read by a raw client as
/// the organiser.
pub fn server_names(league: &TestLeague) -> Vec<(i64, String)> {
    let mut client = cluster().client(&league.address, &league.password).unwrap();
    client
        .query("SELECT seq, uid FROM league.batch ORDER BY seq", &[])
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect()
}

/// Every batch on the server once, numbered 1, 2, … with no gap, and
/// every laptop's file naming exactly the server's batches, its log as
/// long; returns the server's count.
pub fn exactly_once(league: &TestLeague, laptops: &[&Laptop]) -> usize {
    let server = server_names(league);
    for (i, (seq, _)) in server.iter().enumerate() {
        assert_eq!(*seq, i64::try_from(i).unwrap() + 1, "a gap before {seq}");
    }
    let uids: HashSet<&String> = server.iter().map(|(_, uid)| uid).collect();
    assert_eq!(uids.len(), server.len(), "a batch twice on the server");
    for laptop in laptops {
        assert!(
            laptop.names() == server,
            "{} names other batches than the server",
            laptop.home.display()
        );
        assert_eq!(
            laptop.batches(),
            i64::try_from(server.len()).unwrap(),
            "{}",
            laptop.home.display()
        );
    }
    server.len()
}

/// Every laptop verifies, and its chronicle equals that of a campaign
/// joined fresh from the server (by a member given `fresh_gang`).
pub fn all_alike(
    root: &Path,
    organiser: &Laptop,
    league: &TestLeague,
    fresh_gang: &str,
    laptops: &[&Laptop],
) {
    let fresh = member(root, organiser, league, "fresh", fresh_gang);
    let expected = fresh.chronicle("fresh.json");
    for (i, laptop) in laptops.iter().enumerate() {
        laptop.ok(&["verify"]);
        let got = laptop.chronicle(&format!("chronicle-{i}.json"));
        assert!(
            got == expected,
            "{} differs from the server's campaign",
            laptop.home.display()
        );
    }
}

/// Puts a batch on the server with raw SQL, past the app: the next
/// number, `label` and `events` as given, in the league's format, chained
/// as the server works the chain out where the league keeps one, and
/// signed with `key` where one is given (`client` may be a transaction
/// left open).
pub fn insert_raw(
    client: &mut impl postgres::GenericClient,
    key: Option<&str>,
    uid: &str,
    label: &str,
    events: &str,
) -> Result<u64, postgres::Error> {
    insert_raw_undo(client, key, uid, label, None, events)
}

/// [`insert_raw`] of a batch that takes back the league's batch `undoes`.
pub fn insert_raw_undo(
    client: &mut impl postgres::GenericClient,
    key: Option<&str>,
    uid: &str,
    label: &str,
    undoes: Option<i64>,
    events: &str,
) -> Result<u64, postgres::Error> {
    let head: i64 = client
        .query_one("SELECT max(seq) FROM league.batch", &[])?
        .get(0);
    let version: i64 = client
        .query_one("SELECT max(version) FROM league.schema_version", &[])?
        .get(0);
    let at = "2026-11-26T00:00:00Z";
    if version < 5 {
        return client.execute(
            "INSERT INTO league.batch (seq, uid, author, received, at, label, events, \
             touched_gangs, record_gangs, campaign_wide) \
             VALUES ($1, $2, '', now(), $3, $4, $5::text::json, '{}', NULL, false)",
            &[&(head + 1), &uid, &at, &label, &events],
        );
    }
    let hash: String = client
        .query_one(
            "SELECT league.link((SELECT hash FROM league.batch WHERE seq = $1::bigint - 1), \
             league.digest($1::bigint, $2::text, session_user::text, $3::text, $4::text, $6::bigint, $5::text))",
            &[&(head + 1), &uid, &at, &label, &events, &undoes],
        )?
        .get(0);
    let signature = key.map(|key| rapsheet::store::league::signature::sign(key, &hash).unwrap());
    client.execute(
        "INSERT INTO league.batch (seq, uid, author, received, at, label, events, \
         touched_gangs, record_gangs, campaign_wide, format, hash, signature, undoes) \
         VALUES ($1, $2, '', now(), $3, $4, $5::text::json, '{}', NULL, false, \
         (SELECT format FROM league.format), $6, $7, $8)",
        &[
            &(head + 1),
            &uid,
            &at,
            &label,
            &events,
            &hash,
            &signature,
            &undoes,
        ],
    )
}
