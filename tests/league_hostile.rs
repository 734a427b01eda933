#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A league no one can forge or hold up: what a member, the organiser or
//! whoever took the server over puts on it with raw SQL is left out alike
//! on every laptop, and what a laptop leaves out takes no part in
//! anything it does after. A real PostgreSQL (`util::postgres`), the
//! `rapsheet` binary as each laptop, the attacker logged in with raw SQL.

#[path = "util/laptops.rs"]
mod laptops;
mod util;

use laptops::{Laptop, insert_raw, insert_raw_undo, member, organised_as};
use rapsheet::campaign::Event;
use util::postgres::{TestLeague, cluster};

const GANG: &str = "Neon Jackals";
const RIVAL: &str = "The Rust Saints";

fn all_alike(root: &std::path::Path, organiser: &Laptop, league: &TestLeague, laptops: &[&Laptop]) {
    laptops::all_alike(root, organiser, league, RIVAL, laptops);
}

/// The gang's Ammo as `laptop` has it.
fn ammo(laptop: &Laptop) -> String {
    let shown = laptop.ok(&["gang", "show", GANG]);
    shown
        .split(" · ")
        .find_map(|part| part.trim().strip_prefix("Ammo "))
        .map(|n| n.chars().take_while(char::is_ascii_digit).collect())
        .unwrap_or_else(|| panic!("no Ammo in {shown}"))
}

/// The organiser, with raw SQL and their own key, puts two batches on
/// the server that every laptop leaves out: a change whose numbers are
/// not the campaign's, and an undo of a member's change carrying more
/// than taking it back gives. The member, offline meanwhile, took that
/// change back herself and made another: her sync goes past both, with
/// no conflict to choose, and sends both of hers; every laptop ends alike.
#[test]
fn a_left_out_batch_takes_no_part_in_a_members_rebase() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "hostile_rebase", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    ann.ammo(GANG, "a crate");
    ann.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    let login = format!("{}_ann", league.address.database);
    let (crate_seq, crate_events): (i64, String) = {
        let row = raw
            .query_one(
                "SELECT seq, events::text FROM league.batch WHERE author = $1 ORDER BY seq DESC LIMIT 1",
                &[&login],
            )
            .unwrap();
        (row.get(0), row.get(1))
    };
    let jackals: i64 = raw
        .query_one(
            "SELECT gang FROM league.gang_owner WHERE login = $1",
            &[&login],
        )
        .unwrap()
        .get(0);

    // Ann, offline: takes her change back and makes another.
    ann.ok(&["undo", "--change", &crate_seq.to_string()]);
    ann.ammo(GANG, "after the undo");
    assert_eq!(ammo(&ann), "1");

    // The organiser's hostile batches, signed with their own key.
    let key = organiser.private_key();
    let wrong = format!(
        r#"[{{"type":"resource_adjusted","gang":{jackals},"resource":"ammo","from":40,"to":41,"reason":"wrong numbers"}}]"#
    );
    insert_raw(
        &mut raw,
        Some(&key),
        "wrong-numbers",
        "Wrong numbers",
        &wrong,
    )
    .unwrap();
    let mut undo: Vec<Event> = serde_json::from_str::<Vec<Event>>(&crate_events)
        .unwrap()
        .iter()
        .rev()
        .map(Event::inverse)
        .collect();
    undo.push(Event::GangNotesChanged {
        gang: rapsheet::campaign::GangId(jackals),
        from: String::new(),
        to: "taken over".to_owned(),
    });
    insert_raw_undo(
        &mut raw,
        Some(&key),
        "fake-undo",
        "Undo: a crate (fake)",
        Some(crate_seq),
        &serde_json::to_string(&undo).unwrap(),
    )
    .unwrap();

    // Every laptop without unsent changes leaves both out.
    let said = organiser.ok(&["league", "sync"]);
    assert!(
        said.contains("left out: Wrong numbers") && said.contains("left out: Undo: a crate (fake)"),
        "{said}"
    );
    // The member with unsent changes syncs past them, no conflict to choose.
    let said = ann.ok(&["league", "sync"]);
    assert!(said.contains("fetched 2, sent 2"), "{said}");
    assert!(
        said.contains("left out: Wrong numbers") && said.contains("left out: Undo: a crate (fake)"),
        "{said}"
    );
    assert_eq!(ammo(&ann), "1");
    let notes = ann.ok(&["gang", "show", GANG]);
    assert!(!notes.contains("taken over"), "{notes}");
    organiser.ok(&["league", "sync"]);
    assert_eq!(ammo(&organiser), "1");
    let log = organiser.ok(&["log", "--limit", "2"]);
    assert!(
        log.contains("undo: a crate") && log.contains("after the undo"),
        "{log}"
    );
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}

/// A member holds a place in the league's log with raw SQL: a batch
/// inserted in a transaction left open, then one whose transaction sleeps
/// after it. Another member's send goes through all the same (the
/// holder's transaction is ended once it has held the log longer than the
/// league allows), and the holder's batch never lands.
#[test]
fn no_members_open_transaction_holds_anothers_send() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "hostile_held", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    let ben = member(root, &organiser, &league, "ben", RIVAL);
    let ben_login = format!("{}_ben", league.address.database);
    let (ben_password, ben_key) = (ben.password(), ben.private_key());

    // BEGIN; INSERT …, and nothing after.
    let mut as_ben = cluster()
        .client(&league.as_login(&ben_login), &ben_password)
        .unwrap();
    let mut held = as_ben.transaction().unwrap();
    insert_raw(&mut held, Some(&ben_key), "held-open", "Held open", "[]").unwrap();
    ann.ammo(GANG, "while ben holds the log");
    let said = ann.ok(&["league", "sync"]);
    assert!(said.contains("sent 1"), "{said}");
    assert!(held.commit().is_err(), "ben's transaction was ended");

    // BEGIN; INSERT …; SELECT pg_sleep(100000).
    let address = league.as_login(&ben_login);
    let sleeper = std::thread::spawn(move || {
        let mut as_ben = cluster().client(&address, &ben_password).unwrap();
        as_ben
            .batch_execute("SET statement_timeout = 0; SET lock_timeout = 0")
            .unwrap();
        let mut held = as_ben.transaction().unwrap();
        insert_raw(
            &mut held,
            Some(&ben_key),
            "held-asleep",
            "Held asleep",
            "[]",
        )?;
        held.batch_execute("SELECT pg_sleep(100000)")
    });
    let mut admin = cluster().superuser(&league.address.database);
    while admin
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(100000)%' AND state = 'active' AND pid <> pg_backend_pid()",
            &[],
        )
        .unwrap()
        .get::<_, i64>(0)
        == 0
    {
        assert!(!sleeper.is_finished(), "the sleeper ended early");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    ann.ammo(GANG, "while ben sleeps on the log");
    let said = ann.ok(&["league", "sync"]);
    assert!(said.contains("sent 1"), "{said}");
    assert!(sleeper.join().unwrap().is_err(), "ben's sleep was ended");

    let labels: Vec<String> = admin
        .query("SELECT label FROM league.batch", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(!labels.iter().any(|l| l.starts_with("Held")), "{labels:?}");
    ben.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    all_alike(root, &organiser, &league, &[&organiser, &ann, &ben]);
}

/// The organiser, with raw SQL, asks the league's doorman for logins a
/// league's roles would need (another league's owner role, ahead of its
/// database) or PostgreSQL keeps: refused, as `invite` refuses them; that
/// other league is then prepared as ever.
#[test]
fn the_organiser_makes_only_logins_of_the_leagues_own_namespace() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "hostile_names", &["demo"], &[]);
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    let verifier = "SCRAM-SHA-256$4096:c2FsdA==$a2V5:c2VydmVy";
    for name in [
        "lgfuture_owner",
        "lgfuture_players",
        "lgfuture_doorman",
        "lgfuture_usher",
        "pg_anything",
    ] {
        let refused = raw
            .execute("SELECT league.admit($1, $2)", &[&name, &verifier])
            .expect_err(name);
        let db = refused.as_db_error().expect("a refusal");
        assert_eq!(db.code().code(), "22023", "{name}: {}", db.message());
        let out = organiser.run(&["league", "invite", name, "-o", "x.invite"]);
        assert!(!out.status.success(), "{name}");
        assert!(
            util::stderr(&out).contains("cannot be a member's login"),
            "{}",
            util::stderr(&out)
        );
    }
    // A login of the league's own is let in.
    raw.execute("SELECT league.admit('hostile_names_cat', $1)", &[&verifier])
        .unwrap();

    // The other league is prepared as ever: its roles were free.
    let mut admin = cluster().superuser("postgres");
    admin
        .batch_execute("CREATE ROLE lgfuture_organiser LOGIN PASSWORD 'x'")
        .unwrap();
    admin.batch_execute("CREATE DATABASE lgfuture").unwrap();
    let server = rapsheet::session::league::ServerAddress {
        login: "postgres".to_owned(),
        ..cluster().address("lgfuture", "postgres")
    };
    let prepared = rapsheet::session::Session::league_prepare(
        &server,
        cluster().superuser_password(),
        "lgfuture_organiser",
    )
    .unwrap();
    assert_eq!(
        prepared,
        rapsheet::session::league::Prepared::Made {
            schema: rapsheet::store::league::SCHEMA_VERSION
        }
    );
}

/// Whoever controls the server (the superuser) lowers the league's format
/// for a moment and puts in, in a member's name, a batch marked format 1,
/// unsigned. Every laptop, hers included, holds it to the format the
/// league's chain has reached and leaves it out, naming it; `verify`
/// finds every laptop sound, and a newcomer who joins then ends alike.
#[test]
fn a_batch_claiming_an_older_format_than_the_leagues_is_left_out_everywhere() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "hostile_format", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    ann.ammo(GANG, "a crate");
    ann.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    let login = format!("{}_ann", league.address.database);
    let mut admin = cluster().superuser(&league.address.database);
    let jackals: i64 = admin
        .query_one(
            "SELECT gang FROM league.gang_owner WHERE login = $1",
            &[&login],
        )
        .unwrap()
        .get(0);
    admin
        .batch_execute("UPDATE league.format SET format = 1")
        .unwrap();
    admin
        .batch_execute(&format!("SET SESSION AUTHORIZATION \"{login}\""))
        .unwrap();
    let renamed = format!(
        r#"[{{"type":"gang_renamed","gang":{jackals},"from":"{GANG}","to":"Forged Name"}}]"#
    );
    insert_raw(&mut admin, None, "old-format", "Old format", &renamed).unwrap();
    admin
        .batch_execute(&format!(
            "RESET SESSION AUTHORIZATION; UPDATE league.format SET format = {}",
            rapsheet::store::league::NEWEST_FORMAT
        ))
        .unwrap();
    let format: i64 = admin
        .query_one(
            "SELECT format FROM league.batch WHERE uid = 'old-format'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(format, 1);

    for laptop in [&ann, &organiser] {
        let said = laptop.ok(&["league", "sync"]);
        assert!(
            said.contains("left out: Old format")
                && said.contains(&format!(
                    "it claims format 1, older than the league's format {}",
                    rapsheet::store::league::NEWEST_FORMAT
                )),
            "{said}"
        );
        let gang = laptop.ok(&["gang", "show", GANG]);
        assert!(!gang.contains("Forged Name"), "{gang}");
        laptop.ok(&["verify"]);
    }
    // The format of a batch every laptop holds, rewritten on the server
    // (the hash does not cover it): every laptop sees it changed.
    let rewrite = |format: i64| {
        format!(
            "ALTER TABLE league.batch DISABLE TRIGGER USER;
             UPDATE league.batch SET format = {format} WHERE seq = 18;
             ALTER TABLE league.batch ENABLE TRIGGER USER;"
        )
    };
    let kept: i64 = admin
        .query_one("SELECT format FROM league.batch WHERE seq = 18", &[])
        .unwrap()
        .get(0);
    admin.batch_execute(&rewrite(3)).unwrap();
    for laptop in [&ann, &organiser] {
        let out = laptop.run(&["league", "sync"]);
        assert!(!out.status.success());
        let said = util::stderr(&out);
        assert!(
            said.contains("change 18") && said.contains("was changed on the server"),
            "{said}"
        );
    }
    admin.batch_execute(&rewrite(kept)).unwrap();
    ann.ammo(GANG, "after");
    ann.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}

/// Ann joins again on a second laptop: its key is a new one, which the
/// league's chain does not trust for her. What the second laptop would
/// send is held back, saying why, until the organiser vouches for its key
/// (`rapsheet league vouch`, itself a signed change); from then on what it
/// signs is taken in on every laptop, and her first laptop, whose key is
/// no longer hers in the league, is the one held back.
#[test]
fn a_new_key_is_a_wall_until_the_organiser_vouches_for_it() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "hostile_vouch", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    ann.ammo(GANG, "first laptop");
    ann.ok(&["league", "sync"]);
    let login = format!("{}_ann", league.address.database);
    let invite = organiser.home.join(format!("{login}.invite"));
    let second = Laptop::new(root, "ann-again");
    let out = second
        .command(&[
            "league",
            "join",
            invite.to_str().unwrap(),
            "--db",
            "campaign.rapsheet",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", util::stderr(&out));
    second.ammo(GANG, "second laptop");
    let out = second.run(&["league", "sync"]);
    assert!(!out.status.success());
    let said = util::stderr(&out);
    assert!(
        said.contains("another key than this laptop's")
            && said.contains(&format!("rapsheet league vouch {login}")),
        "{said}"
    );
    assert!(
        second
            .ok(&["league", "status", "--offline"])
            .contains("1 change to send")
    );

    let said = organiser.ok(&["league", "sync"]);
    assert!(said.contains(&format!("{login} has a new key")), "{said}");
    let vouched = organiser.ok(&["league", "vouch", &login]);
    assert!(
        vouched.contains(&format!("Vouched for {login}'s new key")),
        "{vouched}"
    );
    let said = second.ok(&["league", "sync"]);
    assert!(
        said.contains("sent 1") && !said.contains("left out"),
        "{said}"
    );
    let said = organiser.ok(&["league", "sync"]);
    assert!(!said.contains("left out"), "{said}");
    assert_eq!(ammo(&organiser), "2");

    // The first laptop is told a key was published in her name, and its
    // key is no longer hers in the league.
    let said = ann.ok(&["league", "sync"]);
    assert!(!said.contains("left out:"), "{said}");
    assert!(
        said.contains("new key: someone published a key in your name"),
        "{said}"
    );
    ann.ammo(GANG, "first laptop again");
    let out = ann.run(&["league", "sync"]);
    assert!(!out.status.success());
    assert!(util::stderr(&out).contains("another key than this laptop's"));
    ann.ok(&["undo"]);
    ann.ok(&["league", "sync"]);
    for laptop in [&organiser, &ann, &second] {
        laptop.ok(&["verify"]);
    }
    all_alike(root, &organiser, &league, &[&organiser, &ann, &second]);
}
