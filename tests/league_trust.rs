#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A league members can trust when one of them, an old build or the
//! organiser sends something wrong: batches no laptop can read, two
//! builds' formats side by side, and a history changed on the server. A
//! real PostgreSQL (`util::postgres`), the `rapsheet` binary as each
//! laptop, the attacker logged in with raw SQL.

#[path = "util/laptops.rs"]
mod laptops;
mod util;

use std::path::Path;

use laptops::{Laptop, insert_raw, insert_raw_undo, member, member_as, organised_as};
use rapsheet::store::league::signature;
use util::postgres::{TestLeague, cluster};

const GANG: &str = "Neon Jackals";

fn all_alike(root: &Path, organiser: &Laptop, league: &TestLeague, laptops: &[&Laptop]) {
    laptops::all_alike(root, organiser, league, "The Rust Saints", laptops);
}

/// A change of ammo on `laptop`'s gang, then a sync that must go through.
fn change_and_sync(laptop: &Laptop, gang: &str, reason: &str) {
    laptop.ammo(gang, reason);
    laptop.ok(&["league", "sync"]);
}

/// The victim takes back a change of their own as ever: made, synced,
/// undone, and the undo synced.
fn undoes_own_change(laptop: &Laptop, gang: &str) {
    laptop.ammo(gang, "to take back");
    laptop.ok(&["league", "sync"]);
    let undone = laptop.ok(&["undo"]);
    assert!(undone.contains("Ammo +1"), "{undone}");
    laptop.ok(&["league", "sync"]);
}

/// The league's batches in the shapes no laptop can read: a field
/// missing, a gang given as text, a field given twice, a number given as
/// a word.
const POISONS: [(&str, &str); 4] = [
    (
        "Missing field",
        r#"[{"type":"resource_adjusted","gang":1,"resource":"ammo","from":0}]"#,
    ),
    (
        "Gang as text",
        r#"[{"type":"resource_adjusted","gang":"1","resource":"ammo","from":0,"to":5,"reason":"x"}]"#,
    ),
    (
        "Twice a key",
        r#"[{"type":"resource_adjusted","gang":1,"gang":1,"resource":"ammo","from":0,"to":5,"reason":"x"}]"#,
    ),
    (
        "Five as a word",
        r#"[{"type":"resource_adjusted","gang":1,"resource":"ammo","from":0,"to":"five","reason":"x"}]"#,
    ),
];

/// On a league an older build made (schema 4: no check of an event's
/// fields), batches no laptop can read got onto the server. They are no
/// wall: each is kept in its place, empty, saying why, alike on every
/// laptop, and `rapsheet log` shows it. Once the organiser upgrades the
/// league, the server refuses every one of those shapes itself, and the
/// league goes on, chained.
#[test]
fn a_batch_no_laptop_can_read_never_stops_the_league_and_an_upgraded_one_refuses_it() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_unreadable", &["demo"], &["--schema", "4"]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    for (label, events) in POISONS {
        insert_raw(&mut raw, None, &format!("poison {label}"), label, events).unwrap();
    }
    ann.ammo(GANG, "a crate");
    let synced = ann.ok(&["league", "sync"]);
    for (label, _) in POISONS {
        assert!(synced.contains(&format!("left out: {label}")), "{synced}");
    }
    assert!(synced.contains("cannot read its events"), "{synced}");
    let organiser_sync = organiser.ok(&["league", "sync"]);
    assert!(
        organiser_sync.contains("left out: Twice a key"),
        "{organiser_sync}"
    );
    let log = ann.ok(&["log", "--limit", "8"]);
    assert!(log.contains("Ammo +1"), "{log}");
    assert!(log.contains("Left out: Missing field"), "{log}");
    assert!(log.contains("Left out: Gang as text"), "{log}");

    // The organiser brings the server to this build.
    let upgraded = organiser.ok(&["league", "upgrade"]);
    assert!(
        upgraded.contains(&format!(
            "schema {} (was 4)",
            rapsheet::store::league::SCHEMA_VERSION
        )) && upgraded.contains(&format!(
            "format {} (was 1)",
            rapsheet::store::league::NEWEST_FORMAT
        )),
        "{upgraded}"
    );
    for (label, events) in POISONS {
        let refused =
            insert_raw(&mut raw, None, &format!("again {label}"), label, events).expect_err(label);
        let db = refused.as_db_error().expect("a refusal");
        assert_eq!(db.code().code(), "22023", "{label}: {}", db.message());
    }
    // A kind no Rapsheet knows, and a field the kind has not, refused too.
    let future = r#"[{"type":"gang_levitated","gang":1}]"#;
    let refused = insert_raw(&mut raw, None, "future", "Future", future).unwrap_err();
    assert!(
        refused
            .as_db_error()
            .unwrap()
            .message()
            .contains("gang_levitated"),
        "{refused:?}"
    );
    let stray = r#"[{"type":"resource_adjusted","gang":1,"resource":"ammo","from":0,"to":5,"reason":"x","extra":1}]"#;
    let refused = insert_raw(&mut raw, None, "stray", "Stray", stray).unwrap_err();
    assert!(
        refused
            .as_db_error()
            .unwrap()
            .message()
            .contains("no field \"extra\""),
        "{refused:?}"
    );
    // The league goes on, every batch now chained.
    change_and_sync(&ann, GANG, "after the upgrade");
    organiser.ok(&["league", "sync"]);
    let unchained: i64 = raw
        .query_one("SELECT count(*) FROM league.batch WHERE hash IS NULL", &[])
        .unwrap()
        .get(0);
    assert_eq!(unchained, 0);
    undoes_own_change(&ann, GANG);
    let ben = member(root, &organiser, &league, "ben", "The Rust Saints");
    all_alike(root, &organiser, &league, &[&organiser, &ann, &ben]);
}

/// Two builds side by side: while the league is at format 1, a laptop
/// that writes format 2 and one that knows only format 1 both sync and
/// end alike. Once the organiser raises the league to format 2, the older
/// build stops syncing with a message naming the format it needs and
/// changes nothing; updated, it syncs again.
#[test]
fn two_builds_write_side_by_side_until_the_organiser_raises_the_format() {
    let dir = util::temp();
    let root = dir.path();
    let old = ["--league-format", "1"];
    let (organiser, league) = organised_as(root, "trust_formats", &["demo"], &old);
    let ann = member(root, &organiser, &league, "ann", GANG);
    let ben = member_as(root, &organiser, &league, "ben", "The Rust Saints", &old);
    change_and_sync(&ann, GANG, "new build");
    ben.ammo("The Rust Saints", "old build");
    ben.ok(&["league", "sync", "--league-format", "1"]);
    ann.ok(&["league", "sync"]);
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    let formats = |raw: &mut postgres::Client| -> Vec<i64> {
        raw.query("SELECT DISTINCT format FROM league.batch ORDER BY 1", &[])
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect()
    };
    assert_eq!(formats(&mut raw), [1]);
    ann.ok(&["verify"]);
    ben.ok(&["verify"]);
    assert!(
        ann.chronicle("ann.json") == ben.chronicle("ben.json"),
        "the two builds differ"
    );

    let upgraded = organiser.ok(&["league", "upgrade"]);
    let newest = rapsheet::store::league::NEWEST_FORMAT;
    assert!(
        upgraded.contains(&format!("format {newest} (was 1)")),
        "{upgraded}"
    );
    change_and_sync(&ann, GANG, "format two");
    assert_eq!(
        formats(&mut raw),
        [1, rapsheet::store::league::NEWEST_FORMAT]
    );

    ben.ammo("The Rust Saints", "still old");
    let before = std::fs::read(ben.file()).unwrap();
    let out = ben.run(&["league", "sync", "--league-format", "1"]);
    assert!(!out.status.success());
    let said = util::stderr(&out);
    assert!(
        said.contains(&format!("written in format {newest}")) && said.contains("format 1 at most"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(ben.file()).unwrap(),
        before,
        "nothing changed"
    );
    let status = ben.ok(&["league", "status", "--league-format", "1"]);
    assert!(
        status.contains(&format!(
            "the league is written in format {newest}, newer than this Rapsheet writes"
        )),
        "{status}"
    );
    // A laptop of the old build cannot join either.
    let invite = organiser.home.join("late.invite");
    let login = format!("{}_late", league.address.database);
    organiser.ok(&["league", "invite", &login, "-o", invite.to_str().unwrap()]);
    let late = Laptop::new(root, "late");
    let out = late
        .command(&[
            "league",
            "join",
            invite.to_str().unwrap(),
            "--db",
            "campaign.rapsheet",
            "--league-format",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        util::stderr(&out).contains(&format!("written in format {newest}")),
        "{}",
        util::stderr(&out)
    );
    assert!(!late.file().exists());

    // Updated, the laptop syncs what it kept.
    ben.ok(&["league", "sync"]);
    ann.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    all_alike(root, &organiser, &league, &[&organiser, &ann, &ben]);
}

/// Runs `change` with the league's owner role, granted to the organiser
/// by the organiser (PostgreSQL 15 lets a login with CREATEROLE grant
/// itself any role it did not get from a superuser), the batch table
/// opened to changes meanwhile and closed again after.
fn as_owner(
    raw: &mut postgres::Client,
    league: &TestLeague,
    change: impl FnOnce(&mut postgres::Client),
) {
    let owner = format!("\"{}_owner\"", league.address.database);
    raw.batch_execute(&format!(
        "GRANT {owner} TO \"{me}\"; SET ROLE {owner};
         ALTER TABLE league.batch DISABLE TRIGGER USER;
         ALTER TABLE league.batch NO FORCE ROW LEVEL SECURITY;",
        me = league.address.login,
    ))
    .unwrap();
    change(raw);
    raw.batch_execute(
        "ALTER TABLE league.batch ENABLE TRIGGER USER;
         ALTER TABLE league.batch FORCE ROW LEVEL SECURITY; RESET ROLE;",
    )
    .unwrap();
}

/// The organiser, with the owner role, rewrites a batch every laptop
/// holds and then deletes one: each laptop's next sync names the batch
/// and takes nothing in; a member joining then is refused; once the
/// organiser puts the history back, the league goes on.
#[test]
fn a_history_changed_on_the_server_stops_every_laptop_until_it_is_put_back() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_history", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    change_and_sync(&ann, GANG, "a crate");
    change_and_sync(&ann, GANG, "another crate");
    organiser.ok(&["league", "sync"]);
    // Each laptop keeps a print of what it checked, so that a sync with
    // nothing changed works no batch through again: a rewrite still shows.
    for laptop in [&ann, &organiser] {
        let file = rusqlite::Connection::open(laptop.file()).unwrap();
        let (upto, synced): (Option<i64>, i64) = file
            .query_row("SELECT print_upto, synced FROM league", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(upto, Some(synced));
    }
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    let kept: String = raw
        .query_one("SELECT label FROM league.batch WHERE seq = 3", &[])
        .unwrap()
        .get(0);
    as_owner(&mut raw, &league, |raw| {
        raw.execute(
            "UPDATE league.batch SET label = 'Rewritten' WHERE seq = 3",
            &[],
        )
        .unwrap();
    });

    for laptop in [&ann, &organiser] {
        let before = std::fs::read(laptop.file()).unwrap();
        let out = laptop.run(&["league", "sync"]);
        assert!(!out.status.success());
        let said = util::stderr(&out);
        assert!(
            said.contains("change 3") && said.contains("was changed on the server"),
            "{said}"
        );
        assert_eq!(std::fs::read(laptop.file()).unwrap(), before);
    }
    // Its hash made anew to match is seen too.
    as_owner(&mut raw, &league, |raw| {
        raw.execute(
            "UPDATE league.batch SET hash = league.link(
                 (SELECT p.hash FROM league.batch p WHERE p.seq = 2),
                 league.digest(seq, uid, author, at, label, undoes, events::text))
             WHERE seq = 3",
            &[],
        )
        .unwrap();
    });
    let said = util::stderr(&ann.run(&["league", "sync"]));
    assert!(said.contains("change 3"), "{said}");

    // Put back, the league goes on.
    as_owner(&mut raw, &league, |raw| {
        raw.execute(
            "UPDATE league.batch SET label = $1, hash = league.link(
                 (SELECT p.hash FROM league.batch p WHERE p.seq = 2),
                 league.digest(seq, uid, author, at, $1, undoes, events::text))
             WHERE seq = 3",
            &[&kept],
        )
        .unwrap();
    });
    change_and_sync(&ann, GANG, "once put back");

    // The newest batch deleted: named, and nothing taken in.
    let head: i64 = raw
        .query_one("SELECT max(seq) FROM league.batch", &[])
        .unwrap()
        .get(0);
    let row = raw
        .query_one("SELECT uid, author, received, at, label, undoes, events::text, touched_gangs, record_gangs, campaign_wide, format, hash, signature FROM league.batch WHERE seq = $1", &[&head])
        .unwrap();
    as_owner(&mut raw, &league, |raw| {
        raw.execute("DELETE FROM league.batch WHERE seq = $1", &[&head])
            .unwrap();
    });
    let said = util::stderr(&ann.run(&["league", "sync"]));
    assert!(
        said.contains(&format!("change {head}")) && said.contains("was deleted"),
        "{said}"
    );
    as_owner(&mut raw, &league, |raw| {
        raw.execute(
            "INSERT INTO league.batch (seq, uid, author, received, at, label, undoes, events,
             touched_gangs, record_gangs, campaign_wide, format, hash, signature)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text::json, $9, $10, $11, $12, $13, $14)",
            &[
                &head,
                &row.get::<_, String>(0),
                &row.get::<_, String>(1),
                &row.get::<_, std::time::SystemTime>(2),
                &row.get::<_, String>(3),
                &row.get::<_, String>(4),
                &row.get::<_, Option<i64>>(5),
                &row.get::<_, String>(6),
                &row.get::<_, Vec<i64>>(7),
                &row.get::<_, Option<Vec<i64>>>(8),
                &row.get::<_, bool>(9),
                &row.get::<_, i64>(10),
                &row.get::<_, String>(11),
                &row.get::<_, Option<String>>(12),
            ],
        )
        .map(drop)
        .unwrap()
    });
    change_and_sync(&ann, GANG, "once restored");
    undoes_own_change(&ann, GANG);
    organiser.ok(&["league", "sync"]);
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}

/// A member who joins while a batch on the server does not follow the
/// one before it is refused, with the batch named.
#[test]
fn a_member_joining_a_changed_history_is_told_which_change() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_join", &["demo"], &[]);
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    as_owner(&mut raw, &league, |raw| {
        raw.execute(
            "UPDATE league.batch SET label = 'Rewritten' WHERE seq = 2",
            &[],
        )
        .unwrap();
    });
    let invite = organiser.home.join("ann.invite");
    let login = format!("{}_ann", league.address.database);
    organiser.ok(&["league", "invite", &login, "-o", invite.to_str().unwrap()]);
    let ann = Laptop::new(root, "ann");
    let out = ann
        .command(&[
            "league",
            "join",
            invite.to_str().unwrap(),
            "--db",
            "campaign.rapsheet",
        ])
        .output()
        .unwrap();
    let said = util::stderr(&out);
    assert!(!out.status.success());
    assert!(
        said.contains("change 2") && said.contains("history was changed"),
        "{said}"
    );
    assert!(!ann.file().exists());
}

/// The organiser takes a gang from its member (their next change to it is
/// refused, named by its number) and gives it back; a certificate that is
/// not the server's is never pinned, and the file keeps trusting the one
/// that is.
#[test]
fn the_organiser_gives_and_takes_gangs_and_a_certificate_is_pinned_only_when_it_is_the_servers() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_tools", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    organiser.ok(&["league", "take-away", "--gang", GANG]);
    ann.ammo(GANG, "not mine now");
    let out = ann.run(&["league", "sync"]);
    let said = util::stderr(&out);
    assert!(!out.status.success());
    let number = ann.batches();
    assert!(
        said.contains(&format!("refused change {number}"))
            && said.contains(&format!("rapsheet undo --change {number}")),
        "{said}"
    );
    ann.ok(&["undo", "--change", &number.to_string()]);
    let login = format!("{}_ann", league.address.database);
    organiser.ok(&["league", "give", &login, "--gang", GANG]);
    change_and_sync(&ann, GANG, "mine again");

    std::fs::write(
        ann.home.join("other.pem"),
        util::postgres::other_certificate(),
    )
    .unwrap();
    let before = std::fs::read(ann.file()).unwrap();
    let out = ann.run(&["league", "certificate", "other.pem"]);
    assert!(!out.status.success(), "{}", util::stderr(&out));
    assert_eq!(std::fs::read(ann.file()).unwrap(), before);
    std::fs::write(ann.home.join("league.pem"), &league.address.certificate).unwrap();
    ann.ok(&["league", "certificate", "league.pem"]);
    change_and_sync(&ann, GANG, "after the certificate");
    organiser.ok(&["league", "sync"]);
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}

/// A batch put on the server by hand with a label of 150,000 characters
/// passes the same gate on every laptop as it would in a bundle: it is
/// kept in its place, its label cut and saying why; the whole campaign
/// then goes out as a bundle and comes back as a new file.
#[test]
fn a_label_past_its_length_by_raw_sql_is_left_out_and_the_bundle_still_imports() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_label", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    let long = "L".repeat(150_000);
    insert_raw(
        &mut raw,
        Some(&organiser.private_key()),
        "long-label",
        &long,
        "[]",
    )
    .unwrap();
    ann.ammo(GANG, "after the long label");
    let said = ann.ok(&["league", "sync"]);
    assert!(said.contains("left out: LLLL"), "{said}");
    assert!(
        said.lines().all(|l| l.chars().count() < 600),
        "the sync shows the label cut: {} characters",
        said.len()
    );
    let log = ann.ok(&["log", "--limit", "3"]);
    assert!(log.contains("Left out: LLLL"), "{log}");
    assert!(log.lines().all(|l| l.chars().count() < 1000), "{log}");
    ann.ok(&["bundle", "export", "--whole", "-o", "whole.json"]);
    let again = Laptop::new(root, "again");
    std::fs::copy(ann.home.join("whole.json"), again.home.join("whole.json")).unwrap();
    again.ok(&["bundle", "import", "whole.json", "--whole"]);
    again.ok(&["verify"]);
    undoes_own_change(&ann, GANG);
    organiser.ok(&["league", "sync"]);
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}

/// The organiser resets a member's password and sends in her name: a
/// batch with a signature that is not of one of her keys is left out
/// alike on every laptop; so is one signed with a key the attacker
/// published for her (a key the league's chain does not trust until the
/// organiser vouches for it). She is told at her next sync that someone
/// published a key in her name; the organiser, that she has a new key
/// waiting for their word. A second key is refused: nobody buries the
/// league in keys.
#[test]
fn a_change_sent_in_a_members_name_by_someone_else_is_seen() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_names", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    change_and_sync(&ann, GANG, "ann's own");
    organiser.ok(&["league", "sync"]);
    let login = format!("{}_ann", league.address.database);
    let mut raw = cluster().client(&league.address, &league.password).unwrap();
    raw.batch_execute(&format!("ALTER ROLE \"{login}\" PASSWORD 'stolen'"))
        .unwrap();
    let mut as_ann = cluster()
        .client(&league.as_login(&login), "stolen")
        .unwrap();

    // Signed with a key that is not one of hers.
    let stranger = signature::new_key().unwrap();
    let jackals: i64 = as_ann
        .query_one(
            "SELECT gang FROM league.gang_owner WHERE login = session_user",
            &[],
        )
        .unwrap()
        .get(0);
    let renamed = format!(
        r#"[{{"type":"gang_renamed","gang":{jackals},"from":"{GANG}","to":"Stolen Name"}}]"#
    );
    insert_raw(
        &mut as_ann,
        Some(&stranger.private),
        "forged",
        "Forged",
        &renamed,
    )
    .unwrap();
    // Her own password back (as she still has it), so her laptop syncs.
    let hers = ann.password();
    raw.batch_execute(&format!("ALTER ROLE \"{login}\" PASSWORD '{hers}'"))
        .unwrap();
    let synced = ann.ok(&["league", "sync"]);
    assert!(
        synced.contains("left out: Forged") && synced.contains("not signed by"),
        "{synced}"
    );
    let gang = ann.ok(&["gang", "show", GANG]);
    assert!(!gang.contains("Stolen Name"), "{gang}");

    // With a key published in her name: left out all the same, and said.
    raw.batch_execute(&format!("ALTER ROLE \"{login}\" PASSWORD 'stolen'"))
        .unwrap();
    let mut as_ann = cluster()
        .client(&league.as_login(&login), "stolen")
        .unwrap();
    as_ann
        .execute(
            "INSERT INTO league.member_key (login, public_key, made) VALUES ('', $1, now())",
            &[&stranger.public],
        )
        .unwrap();
    // A flood of keys: the second is refused while the first waits.
    for _ in 0..20 {
        let more = signature::new_key().unwrap();
        let refused = as_ann
            .execute(
                "INSERT INTO league.member_key (login, public_key, made) VALUES ('', $1, now())",
                &[&more.public],
            )
            .expect_err("one key waits at a time");
        assert_eq!(refused.as_db_error().unwrap().code().code(), "42501");
    }
    let back =
        format!(r#"[{{"type":"gang_notes_changed","gang":{jackals},"from":"","to":"Not ann"}}]"#);
    insert_raw(
        &mut as_ann,
        Some(&stranger.private),
        "signed",
        "Signed",
        &back,
    )
    .unwrap();
    raw.batch_execute(&format!("ALTER ROLE \"{login}\" PASSWORD '{hers}'"))
        .unwrap();
    let synced = ann.ok(&["league", "sync"]);
    assert!(
        synced.contains("left out: Signed") && synced.contains("not signed by"),
        "{synced}"
    );
    assert!(
        synced.contains("new key: someone published a key in your name"),
        "{synced}"
    );
    let synced = organiser.ok(&["league", "sync"]);
    assert!(synced.contains("left out: Signed"), "{synced}");
    assert!(
        synced.contains(&format!("new key: {login} has a new key")),
        "{synced}"
    );
    assert_eq!(synced.matches("new key:").count(), 1, "{synced}");
    let notes = ann.ok(&["gang", "show", GANG]);
    assert!(!notes.contains("Not ann"), "{notes}");
    // Said once.
    let again = ann.ok(&["league", "sync"]);
    assert!(!again.contains("new key"), "{again}");
    undoes_own_change(&ann, GANG);
    organiser.ok(&["league", "sync"]);
    all_alike(root, &organiser, &league, &[&organiser, &ann]);
}

/// A member's first join of a large league says how far it is, a run of
/// the league's changes at a time, to the whole log.
#[test]
fn a_first_join_of_a_large_league_shows_how_far_it_is() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = laptops::organised(root, "trust_progress", 40);
    let login = format!("{}_ann", league.address.database);
    let invite = organiser.home.join("ann.invite");
    organiser.ok(&["league", "invite", &login, "-o", invite.to_str().unwrap()]);
    let invite = rapsheet::session::league::read_invite(&invite).unwrap();
    let ann = Laptop::new(root, "ann");
    let mut seen = Vec::new();
    let joined = rapsheet::session::Session::league_join_watched(
        &invite,
        &ann.file(),
        Some(&ann.home.join("passwords")),
        rapsheet::store::league::NEWEST_FORMAT,
        &mut |p| seen.push((p.taken, p.of)),
    )
    .unwrap();
    let of = seen.last().unwrap().1;
    assert!(of > 200, "{of} changes");
    assert!(seen.len() > 2, "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "{seen:?}");
    assert_eq!(seen.last().unwrap().0, of);
    assert!(joined.verify().unwrap().problems.is_empty());
}

/// Drops the append-only triggers of the file's `table`, as someone
/// editing the file past the app would.
fn drop_triggers(file: &rusqlite::Connection, table: &str) {
    let triggers: Vec<String> = file
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?1")
        .unwrap()
        .query_map([table], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for trigger in triggers {
        file.execute_batch(&format!("DROP TRIGGER \"{trigger}\""))
            .unwrap();
    }
}

/// `verify` checks the league's chain as the file keeps it: a batch of
/// the league's changed in the file (past the app) is named.
#[test]
fn verify_names_a_league_change_altered_in_the_file() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_verify", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    change_and_sync(&ann, GANG, "a crate");
    ann.ok(&["verify"]);
    let synced: i64 = {
        let file = rusqlite::Connection::open(ann.file()).unwrap();
        drop_triggers(&file, "batch");
        file.execute("UPDATE batch SET label = 'Altered' WHERE id = 3", [])
            .unwrap();
        file.query_row("SELECT synced FROM league", [], |r| r.get(0))
            .unwrap()
    };
    assert!(synced >= 3);
    let out = ann.run(&["verify"]);
    let said = format!("{}{}", util::stdout(&out), util::stderr(&out));
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("the league's change 3 is not the change the league's chain holds"),
        "{said}"
    );
}

/// `verify` makes the league's records again from their report and dice
/// where its replay comes to each, as every laptop did when they came in:
/// a record whose last event was taken out of the file (past the app) is
/// named for what its report and dice give.
#[test]
fn verify_makes_the_leagues_records_again() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_verify_records", &["demo"], &[]);
    let ben = member(root, &organiser, &league, "ben", "The Rust Saints");
    ben.record_battle("The Rust Saints", GANG, 7);
    ben.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    organiser.ok(&["verify"]);
    let record: i64 = {
        let file = rusqlite::Connection::open(organiser.file()).unwrap();
        drop_triggers(&file, "event");
        let record: i64 = file
            .query_row(
                "SELECT batch_id FROM event WHERE kind = 'battle_recorded' ORDER BY id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .unwrap();
        file.execute(
            "DELETE FROM event WHERE id = (SELECT max(id) FROM event WHERE batch_id = ?1)",
            [record],
        )
        .unwrap();
        record
    };
    let out = organiser.run(&["verify"]);
    let said = format!("{}{}", util::stdout(&out), util::stderr(&out));
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains(&format!("the league's change {record} “"))
            && said.contains("is not what a laptop takes in: it lacks the")
            && said.contains("given by its report and dice"),
        "{said}"
    );
}

/// A member forges a record by raw SQL: what the rules give for a real
/// report and dice, signed with their own key, plus one of a rival's
/// fighters transferred to their gang. The server takes it (a record may
/// transfer a fighter); every laptop works the record out again from its
/// report and dice and leaves it out, alike everywhere. A record sent the
/// usual way is taken in on every laptop, before the forgery and after;
/// an undo carrying more than taking its record back gives is left out
/// the same way.
#[test]
fn a_record_carrying_what_its_report_does_not_give_is_left_out_everywhere() {
    use rand::SeedableRng as _;
    use rapsheet::campaign::Event;

    const MINE: &str = "The Rust Saints";
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_records", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    let ben = member(root, &organiser, &league, "ben", MINE);

    // A record made the usual way is made again alike on every laptop.
    ben.record_battle(MINE, GANG, 7);
    ben.ok(&["league", "sync"]);
    for laptop in [&ann, &organiser] {
        let synced = laptop.ok(&["league", "sync"]);
        assert!(!synced.contains("left out"), "{synced}");
    }
    let victims = |laptop: &Laptop| {
        let session = rapsheet::session::Session::open(&laptop.file()).unwrap();
        let gang = session.gang_named(GANG).unwrap().id;
        session.fighters(gang).unwrap()
    };
    let before = victims(&ann);

    // The forgery: the next record as ben's campaign would make it, on a
    // copy nobody syncs, and a rival's fighter moved to ben's gang.
    let scratch = root.join("scratch.rapsheet");
    std::fs::copy(ben.file(), &scratch).unwrap();
    let (events, transfer) = {
        let mut session = rapsheet::session::Session::open(&scratch).unwrap();
        let saints = session.gang_named(MINE).unwrap().id;
        let jackals = session.gang_named(GANG).unwrap().id;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        let (report, seed) =
            rapsheet::generator::next_battle(&session, &mut rng, &[saints, jackals]).unwrap();
        let recorded = session.record_battle(&report, seed).unwrap();
        let transfer = Event::FighterTransferred {
            fighter: before[0].id,
            from: jackals,
            to: saints,
            leader_from: before[0].leader,
            leader_to: false,
        };
        let mut events = recorded.procedure.events_made_from(&report, seed);
        events.push(transfer.clone());
        (serde_json::to_string(&events).unwrap(), transfer)
    };
    let login = format!("{}_ben", league.address.database);
    let mut as_ben = cluster()
        .client(&league.as_login(&login), &ben.password())
        .unwrap();
    // Without the report and dice it was made from, the server refuses it.
    let mut bare: serde_json::Value = serde_json::from_str(&events).unwrap();
    bare[0]["battle"]["played"]
        .as_object_mut()
        .unwrap()
        .remove("made");
    let refused = insert_raw(
        &mut as_ben,
        Some(&ben.private_key()),
        "bare-record",
        "Bare record",
        &bare.to_string(),
    )
    .expect_err("a format-4 record says how it was made");
    let said = refused.as_db_error().map(|e| e.message().to_owned());
    assert!(
        said.as_deref()
            .is_some_and(|s| s.contains("report and dice it was made from")),
        "{refused:?}"
    );
    insert_raw(
        &mut as_ben,
        Some(&ben.private_key()),
        "forged-record",
        "Forged record",
        &events,
    )
    .expect("the server cannot tell a record's rules");

    for laptop in [&ann, &organiser, &ben] {
        let synced = laptop.ok(&["league", "sync"]);
        assert!(
            synced.contains("left out: Forged record")
                && synced.contains("“fighter_transferred”, not given by its report and dice"),
            "{synced}"
        );
        assert_eq!(victims(laptop), before, "the rival's gang is unchanged");
    }
    let log = ann.ok(&["log", "--limit", "3"]);
    assert!(log.contains("Left out: Forged record"), "{log}");

    // An undo of ben's own record carrying the same transfer: left out
    // alike, as not what taking the record back gives.
    let (seq, record): (i64, String) = {
        let row = as_ben
            .query_one(
                "SELECT seq, events::text FROM league.batch \
                 WHERE events::text LIKE '%battle_recorded%' ORDER BY seq LIMIT 1",
                &[],
            )
            .unwrap();
        (row.get(0), row.get(1))
    };
    let record: Vec<Event> = serde_json::from_str(&record).unwrap();
    let mut undo: Vec<Event> = record.iter().rev().map(Event::inverse).collect();
    undo.push(transfer.clone());
    insert_raw_undo(
        &mut as_ben,
        Some(&ben.private_key()),
        "forged-undo",
        "Undo: forged",
        Some(seq),
        &serde_json::to_string(&undo).unwrap(),
    )
    .expect("the server cannot tell what an undo gives");
    for laptop in [&ann, &organiser, &ben] {
        let synced = laptop.ok(&["league", "sync"]);
        assert!(
            synced.contains("left out: Undo: forged")
                && synced.contains(&format!("given by taking back change {seq}")),
            "{synced}"
        );
        assert_eq!(victims(laptop), before, "the rival's gang is unchanged");
    }

    // The league goes on: another record the usual way, taken in alike.
    ben.record_battle(MINE, GANG, 9);
    ben.ok(&["league", "sync"]);
    let synced = ann.ok(&["league", "sync"]);
    assert!(!synced.contains("left out"), "{synced}");
    undoes_own_change(&ann, GANG);
    organiser.ok(&["league", "sync"]);
    ben.ok(&["league", "sync"]);
    all_alike(root, &organiser, &league, &[&organiser, &ann, &ben]);
}

/// Two members record battles between their gangs at once, offline. The
/// one who syncs second has their record made again after the other's
/// (its battle renumbered, its fighters as the first record left them),
/// so that what it sends is what every laptop works out; where it no
/// longer plays (a fighter it names was wounded in the other record) the
/// sync stops, changing nothing, and says how to take it back. None is
/// ever left out, and all end alike.
#[test]
fn a_record_made_while_a_rival_recorded_is_made_again_or_stops_the_sync() {
    const MINE: &str = "The Rust Saints";
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised_as(root, "trust_rebase", &["demo"], &[]);
    let ann = member(root, &organiser, &league, "ann", GANG);
    let ben = member(root, &organiser, &league, "ben", MINE);
    let (mut sent, mut stopped) = (0, 0);
    for seed in [11, 12, 13] {
        ann.record_battle(GANG, MINE, seed);
        ben.record_battle(MINE, GANG, seed + 10);
        ben.ok(&["league", "sync"]);
        let log = ann.ok(&["log"]);
        let out = ann.run(&["league", "sync"]);
        if out.status.success() {
            let said = util::stdout(&out);
            assert!(
                said.contains("sent 1") && !said.contains("left out"),
                "{said}"
            );
            sent += 1;
        } else {
            let said = util::stderr(&out);
            assert!(
                said.contains("no longer plays") && said.contains("nothing here changed"),
                "{said}"
            );
            assert_eq!(ann.ok(&["log"]), log, "nothing changed");
            // The same stop, as JSON, names the change to take back.
            let json = util::stdout(&ann.run(&["league", "sync", "--json"]));
            let outcome: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(outcome["outcome"], "no_longer_fits", "{json}");
            assert!(outcome["number"].is_i64(), "{json}");
            let command = said.split('`').nth(1).expect("a command in the message");
            let args: Vec<&str> = command.split(' ').skip(1).collect();
            ann.ok(&args);
            let said = ann.ok(&["league", "sync"]);
            assert!(!said.contains("left out"), "{said}");
            stopped += 1;
        }
        for laptop in [&ben, &organiser] {
            let synced = laptop.ok(&["league", "sync"]);
            assert!(!synced.contains("left out"), "{synced}");
        }
    }
    assert!(sent > 0 && stopped > 0, "sent {sent}, stopped {stopped}");
    all_alike(root, &organiser, &league, &[&organiser, &ann, &ben]);
}
