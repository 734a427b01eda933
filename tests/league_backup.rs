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

use laptops::{Laptop, member, organised_with};
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
                .any(|l| l.contains(program) && options.iter().all(|o| l.contains(o))),
            "docs/league.md gives no `{program} {}`",
            options.join(" ")
        );
    };
    has(
        "$ PGPASSWORD=organiser-password pg_dump ",
        &[
            "--format=custom",
            "--enable-row-security",
            "sslmode=require",
            "user=organiser",
        ],
    );
    has("$ pg_dumpall ", &["--roles-only"]);
    has("$ psql ", &["--quiet", "--dbname postgres", "roles.sql"]);
    has(
        "$ psql ",
        &[
            "CREATE DATABASE league",
            "GRANT CREATE ON DATABASE league TO organiser",
        ],
    );
    has(
        "$ PGPASSWORD=organiser-password pg_restore ",
        &[
            "--exit-on-error",
            "--no-owner",
            "--no-privileges",
            "user=organiser",
            "sslmode=require",
        ],
    );
    has(
        "$ PGPASSWORD=administrator-password rapsheet league prepare ",
        &["--organiser organiser"],
    );
    has(
        "$ rapsheet league move ",
        &["--host", "--port", "--certificate"],
    );
}

/// The organiser's backup, over TLS with the organiser's password, of
/// `database` on `on` (as a member reads it).
fn backup_of(on: &Cluster, database: &str, league: &TestLeague) -> Vec<u8> {
    let mut dump = on.program("pg_dump");
    dump.args(["--format=custom", "--enable-row-security", "--dbname"])
        .arg(format!(
            "host=127.0.0.1 port={} dbname={database} user={} sslmode=require",
            on.port, league.address.login
        ))
        .env("PGPASSWORD", &league.password);
    run(dump, b"")
}

/// A new server with the old one's roles, a database `database` made for
/// the restore, the organiser's backup restored into it with the
/// organiser's own rights, and `prepare` run by its administrator, as
/// docs/league.md says. What `prepare` printed.
fn restored_on_a_new_server(
    root: &std::path::Path,
    league: &TestLeague,
    database: &str,
    backup: &[u8],
) -> (Cluster, String) {
    let old = cluster();
    let mut roles = old.program("pg_dumpall");
    roles.arg("--roles-only");
    let roles = run(roles, b"");
    let new = Cluster::start();
    let mut psql = new.program("psql");
    psql.args(["--quiet", "--dbname", "postgres"]);
    run(psql, &roles);
    let organiser = &league.address.login;
    let mut admin = new.superuser("postgres");
    admin
        .batch_execute(&format!("CREATE DATABASE {database}"))
        .unwrap();
    admin
        .batch_execute(&format!(
            "GRANT CREATE ON DATABASE {database} TO \"{organiser}\""
        ))
        .unwrap();
    let mut restore = new.program("pg_restore");
    restore
        .args([
            "--exit-on-error",
            "--no-owner",
            "--no-privileges",
            "--dbname",
        ])
        .arg(format!(
            "host=127.0.0.1 port={} dbname={database} user={organiser} sslmode=require",
            new.port
        ))
        .env("PGPASSWORD", &league.password);
    run(restore, backup);
    let admin_laptop = Laptop::new(root, "administrator");
    std::fs::write(admin_laptop.home.join("new.pem"), &new.certificate).unwrap();
    let port = new.port.to_string();
    let out = admin_laptop
        .command(&[
            "league",
            "prepare",
            "--host",
            "127.0.0.1",
            "--port",
            &port,
            "--database",
            database,
            "--login",
            "postgres",
            "--organiser",
            organiser,
            "--certificate",
            "new.pem",
        ])
        .env("PGPASSWORD", new.superuser_password())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", util::stderr(&out));
    let said = util::stdout(&out);
    (new, said)
}

/// Every laptop finds the league on `new` and plays on, alike.
fn moved_and_played_on(
    root: &std::path::Path,
    new: &Cluster,
    league: &TestLeague,
    organiser: &Laptop,
    ann: &Laptop,
) {
    for laptop in [organiser, ann] {
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
        address: new.address(&league.address.database, &league.address.login),
        password: league.password.clone(),
    };
    laptops::all_alike(
        root,
        organiser,
        &moved_league,
        "The Rust Saints",
        &[organiser, ann],
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
    let backup = backup_of(cluster(), "backup", &league);
    let (new, said) = restored_on_a_new_server(root, &league, "backup", &backup);
    assert!(
        said.contains("is restored for a league organised by") && said.contains("18 changes"),
        "{said}"
    );
    moved_and_played_on(root, &new, &league, &organiser, &ann);
}

/// The organiser's backup doctored (by the organiser, or anyone who
/// could change it): a function owned by the superuser that makes the
/// organiser one, granted to all; the batches' guard made to let changes
/// through, and the organiser given UPDATE and DELETE on them. Restored
/// as docs/league.md says, it gains the organiser nothing: they are no
/// superuser, hold no role of the league's, can change no batch; the
/// database is the administrator's, PUBLIC neither connects nor makes
/// temporary tables; and the league plays on.
#[test]
fn a_doctored_backup_restored_as_the_documents_say_gains_the_organiser_nothing() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_with(root, "doctored", &["demo"]);
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    ann.ammo("Neon Jackals", "a crate");
    ann.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    let login = &league.address.login;
    // The doctored copy, made by the old server's superuser and dumped.
    let old = cluster();
    let mut admin = old.superuser("postgres");
    admin
        .batch_execute("CREATE DATABASE doctored_copy TEMPLATE doctored")
        .unwrap();
    let mut copy = old.superuser("doctored_copy");
    copy.batch_execute(&format!(
        "CREATE FUNCTION league.take_over() RETURNS void LANGUAGE sql SECURITY DEFINER
             AS $$ ALTER ROLE \"{login}\" SUPERUSER $$;
         ALTER FUNCTION league.take_over() OWNER TO postgres;
         GRANT EXECUTE ON FUNCTION league.take_over() TO PUBLIC;
         CREATE OR REPLACE FUNCTION league.batch_stays() RETURNS trigger
             LANGUAGE plpgsql SECURITY DEFINER AS $$ BEGIN RETURN OLD; END $$;
         GRANT UPDATE, DELETE ON league.batch TO \"{login}\";
         GRANT ALL ON SCHEMA league TO PUBLIC;"
    ))
    .unwrap();
    drop(copy);
    let mut dump = old.program("pg_dump");
    dump.args(["--format=custom", "--dbname", "doctored_copy"]);
    let doctored = run(dump, b"");
    let (new, said) = restored_on_a_new_server(root, &league, "doctored", &doctored);
    assert!(said.contains("is restored"), "{said}");

    // As on a league the administrator prepared: the organiser's login
    // makes no logins (one that does can grant itself any role).
    new.superuser("postgres")
        .batch_execute(&format!("ALTER ROLE \"{login}\" NOCREATEROLE"))
        .unwrap();
    let mut as_organiser = new
        .client(&new.address("doctored", login), &league.password)
        .unwrap();
    let refused = [
        "SELECT league.take_over()",
        "UPDATE league.batch SET label = 'Rewritten' WHERE seq = 2",
        "DELETE FROM league.batch WHERE seq = 2",
        "CREATE SCHEMA mine",
        "CREATE TEMPORARY TABLE mine (x int)",
        "ALTER TABLE league.batch DISABLE TRIGGER USER",
        "DROP DATABASE doctored",
        "ALTER DATABASE doctored CONNECTION LIMIT 0",
        &format!("GRANT \"doctored_owner\" TO \"{login}\""),
    ];
    for sql in refused {
        let error = as_organiser.batch_execute(sql).expect_err(sql);
        assert!(error.as_db_error().is_some(), "{sql}: {error}");
    }
    let mut admin = new.superuser("doctored");
    let row = admin
        .query_one(
            "SELECT r.rolsuper, pg_get_userbyid(d.datdba)::text,
                    has_database_privilege('public', 'doctored', 'CONNECT'),
                    has_database_privilege('public', 'doctored', 'TEMPORARY'),
                    has_database_privilege($1, 'doctored', 'CREATE'),
                    (SELECT count(*) FROM pg_proc WHERE pronamespace = 'league'::regnamespace
                        AND pg_get_userbyid(proowner) NOT IN
                            ('doctored_owner', 'doctored_doorman', 'doctored_usher')),
                    to_regnamespace('league_restored') IS NULL,
                    pg_get_userbyid((SELECT relowner FROM pg_class WHERE oid = 'league.batch'::regclass))::text
             FROM pg_roles r, pg_database d
             WHERE r.rolname = $1 AND d.datname = 'doctored'",
            &[login],
        )
        .unwrap();
    assert!(!row.get::<_, bool>(0), "the organiser is no superuser");
    assert_eq!(row.get::<_, String>(1), "postgres");
    assert!(!row.get::<_, bool>(2), "PUBLIC may not connect");
    assert!(
        !row.get::<_, bool>(3),
        "PUBLIC may not make temporary tables"
    );
    assert!(!row.get::<_, bool>(4), "the organiser makes nothing in it");
    assert_eq!(row.get::<_, i64>(5), 0, "every function is the league's");
    assert!(row.get::<_, bool>(6), "the restored schema is gone");
    assert_eq!(row.get::<_, String>(7), "doctored_owner");
    let members: Vec<String> = admin
        .query(
            "SELECT m.rolname::text FROM pg_auth_members a
             JOIN pg_roles r ON r.oid = a.roleid JOIN pg_roles m ON m.oid = a.member
             WHERE r.rolname IN ('doctored_owner', 'doctored_doorman', 'doctored_usher')",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(members.is_empty(), "{members:?}");
    moved_and_played_on(root, &new, &league, &organiser, &ann);
}
