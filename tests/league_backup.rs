#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A league backed up and restored on another server, as docs/league.md
//! says: the organiser dumps the league's database with `pg_dump` (no
//! more rights than a member's), the server's administrator keeps the
//! roles with `pg_dumpall --roles-only`; a second cluster takes both, and
//! every laptop, moved there with `rapsheet league move`, syncs on and
//! ends alike. A real PostgreSQL (`util::postgres`), two clusters.

#[path = "util/laptops.rs"]
mod laptops;
mod util;

use std::io::Write as _;
use std::process::{Command, Stdio};

use laptops::{member, organised_with};
use util::postgres::{Cluster, TestLeague, cluster};

/// Runs `command`, feeding it `input`; its standard output, or a panic
/// with what it said.
fn run(mut command: Command, input: &[u8]) -> Vec<u8> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The commands docs/league.md gives for a backup and a restore: each
/// program this test runs is there with the options it runs with.
#[test]
fn the_documents_backup_commands_are_those_tested() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/league.md")).unwrap();
    let lines: Vec<&str> = doc.lines().collect();
    let has = |program: &str, options: &[&str]| {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(program) && options.iter().all(|o| l.contains(o))),
            "docs/league.md gives no `{program} {}`",
            options.join(" ")
        );
    };
    has(
        "pg_dump ",
        &[
            "--format=custom",
            "--enable-row-security",
            "sslmode=require",
        ],
    );
    has("pg_dumpall ", &["--roles-only"]);
    has("psql ", &["--quiet", "--dbname postgres", "< roles.sql"]);
    has("psql ", &["CREATE DATABASE league OWNER organiser"]);
    has("pg_restore ", &["--exit-on-error", "--dbname league"]);
    has(
        "$ rapsheet league move ",
        &["--host", "--port", "--certificate"],
    );
}

#[test]
fn a_league_backed_up_by_its_organiser_is_restored_on_a_new_server_and_plays_on() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_with(root, "backup", &["demo"]);
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
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
    organiser.ok(&["league", "sync"]);

    // The organiser's backup, over TLS with the organiser's password.
    let old = cluster();
    let mut dump = old.program("pg_dump");
    dump.args(["--format=custom", "--enable-row-security", "--dbname"])
        .arg(format!(
            "host=127.0.0.1 port={} dbname=backup user={} sslmode=require",
            old.port, league.address.login
        ))
        .env("PGPASSWORD", &league.password);
    let backup = run(dump, b"");
    // The administrator's: the server's roles, with their passwords.
    let mut roles = old.program("pg_dumpall");
    roles.arg("--roles-only");
    let roles = run(roles, b"");

    // A new server takes the roles, the database and the backup.
    let new = Cluster::start();
    let mut psql = new.program("psql");
    psql.args(["--quiet", "--dbname", "postgres"]);
    run(psql, &roles);
    new.superuser("postgres")
        .batch_execute(&format!(
            "CREATE DATABASE backup OWNER \"{}\"",
            league.address.login
        ))
        .unwrap();
    let mut restore = new.program("pg_restore");
    restore.args(["--exit-on-error", "--dbname", "backup"]);
    run(restore, &backup);

    // Every laptop finds the league there and plays on.
    for laptop in [&organiser, &ann] {
        std::fs::write(laptop.home.join("new.pem"), &new.certificate).unwrap();
        let moved = laptop.ok(&[
            "league",
            "move",
            "--host",
            "127.0.0.1",
            "--port",
            &new.port.to_string(),
            "--certificate",
            "new.pem",
        ]);
        assert!(moved.contains("finds its league at"), "{moved}");
    }
    ann.ammo("Neon Jackals", "after the move");
    let synced = ann.ok(&["league", "sync"]);
    assert!(synced.contains("sent 1"), "{synced}");
    organiser.ok(&["league", "sync"]);
    let moved_league = TestLeague {
        address: new.address("backup", &league.address.login),
        password: league.password.clone(),
    };
    laptops::all_alike(
        root,
        &organiser,
        &moved_league,
        "The Rust Saints",
        &[&organiser, &ann],
    );
}
