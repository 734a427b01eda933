#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A league set up with the least rights for its organiser, as
//! docs/league.md asks: the server's administrator prepares the database
//! (`rapsheet league prepare`), the organiser's login has no CREATEROLE,
//! and members are let in by a role no one logs in as. Tried with raw
//! SQL, the organiser can no longer grant itself the owner's role, change
//! a batch, make or change a login; the league plays as ever.

#[path = "util/laptops.rs"]
mod laptops;
mod util;

use laptops::{Laptop, member};
use util::postgres::{TestLeague, cluster};

/// The administrator prepares `name` for an organiser login without
/// CREATEROLE; the organiser sets the league up from the demo.
fn prepared(root: &std::path::Path, name: &str) -> (Laptop, TestLeague) {
    let cluster = cluster();
    let organiser_login = format!("{name}_organiser");
    let password = format!("{name}-organiser-password");
    let mut admin = cluster.superuser("postgres");
    admin
        .batch_execute(&format!(
            "CREATE ROLE \"{organiser_login}\" LOGIN PASSWORD '{password}'"
        ))
        .unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE \"{name}\""))
        .unwrap();
    let admin = Laptop::new(root, "administrator");
    std::fs::write(admin.home.join("league.pem"), &cluster.certificate).unwrap();
    let port = cluster.port.to_string();
    let out = admin
        .command(&[
            "league",
            "prepare",
            "--host",
            "127.0.0.1",
            "--port",
            &port,
            "--database",
            name,
            "--login",
            "postgres",
            "--organiser",
            &organiser_login,
            "--certificate",
            "league.pem",
        ])
        .env("PGPASSWORD", cluster.superuser_password())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", util::stderr(&out));
    assert!(
        util::stdout(&out).contains("is ready for a league"),
        "{}",
        util::stdout(&out)
    );
    let organiser = Laptop::new(root, "organiser");
    organiser.ok(&["demo"]);
    std::fs::write(organiser.home.join("league.pem"), &cluster.certificate).unwrap();
    let out = organiser
        .command(&[
            "league",
            "init",
            "--host",
            "127.0.0.1",
            "--port",
            &port,
            "--database",
            name,
            "--login",
            &organiser_login,
            "--certificate",
            "league.pem",
            "--db",
            "campaign.rapsheet",
        ])
        .env("PGPASSWORD", &password)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", util::stderr(&out));
    (
        organiser,
        TestLeague {
            address: cluster.address(name, &organiser_login),
            password,
        },
    )
}

#[test]
fn an_organiser_without_createrole_runs_the_league_and_cannot_take_it_over() {
    let dir = util::temp();
    let root = dir.path();
    let name = "least";
    let (organiser, league) = prepared(root, name);
    let ann = member(root, &organiser, &league, "ann", "Neon Jackals");
    ann.ammo("Neon Jackals", "a crate");
    ann.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);

    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    let ann_login = format!("{name}_ann");
    let refused = [
        format!("GRANT \"{name}_owner\" TO \"{name}_organiser\""),
        format!("GRANT \"{name}_doorman\" TO \"{name}_organiser\""),
        format!("SET ROLE \"{name}_owner\""),
        format!("SET ROLE \"{name}_doorman\""),
        format!("ALTER ROLE \"{ann_login}\" PASSWORD 'stolen'"),
        "CREATE ROLE someone_else LOGIN PASSWORD 'x'".to_owned(),
        "ALTER TABLE league.batch DISABLE TRIGGER USER".to_owned(),
        "ALTER TABLE league.batch NO FORCE ROW LEVEL SECURITY".to_owned(),
        "UPDATE league.batch SET label = 'Rewritten' WHERE seq = 2".to_owned(),
        "DELETE FROM league.batch WHERE seq = 2".to_owned(),
        "DELETE FROM league.member_key".to_owned(),
        format!("SELECT league.admit('{ann_login}', 'SCRAM-SHA-256$4096:c2FsdA==$a2V5:c2VydmVy')"),
    ];
    for sql in &refused {
        let error = raw.batch_execute(sql).expect_err(sql);
        assert!(error.as_db_error().is_some(), "{sql}: {error}");
    }
    // A member cannot let anyone in.
    let ann_password = ann.password();
    let mut as_ann = cluster()
        .client(&league.as_login(&ann_login), &ann_password)
        .unwrap();
    let error = as_ann
        .batch_execute("SELECT league.admit('friend', 'SCRAM-SHA-256$4096:c2FsdA==$a2V5:c2VydmVy')")
        .unwrap_err();
    assert!(
        error
            .as_db_error()
            .unwrap()
            .message()
            .contains("only the organiser"),
        "{error}"
    );
    // The organiser's own upgrade raises the format; the schema is the
    // administrator's.
    organiser.ok(&["league", "upgrade"]);
    laptops::all_alike(
        root,
        &organiser,
        &league,
        "The Rust Saints",
        &[&organiser, &ann],
    );
}
