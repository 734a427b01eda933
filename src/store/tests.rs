#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::*;
use crate::campaign::{Fighter, Gang, QuirkPick};

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

fn gang(id: i64, name: &str) -> Gang {
    Gang {
        id: GangId(id),
        name: name.into(),
        ruleset: "heartbreaker".into(),
        resources: BTreeMap::from([("supply".into(), 0), ("reputation".into(), 0)]),
        notes: String::new(),
        faction: None,
    }
}

fn fighter(id: i64, gang: i64, name: &str, quirks: &[&str]) -> Fighter {
    Fighter {
        id: FighterId(id),
        gang: GangId(gang),
        name: name.into(),
        leader: id == 1,
        quirks: quirks.iter().map(|q| QuirkPick::new(*q)).collect(),
        counters: BTreeMap::from([("bounty".into(), 0)]),
        notes: String::new(),
        base: BTreeMap::new(),
        status: Default::default(),
        group: None,
    }
}

/// A campaign file with one gang of two fighters, closed again.
fn sample(dir: &Path) -> PathBuf {
    let path = dir.join("c.rapsheet");
    let mut store = CampaignStore::create_unchecked(&path, "Test", "heartbreaker").expect("create");
    store
        .commit_unchecked(
            "Found",
            &[
                Event::GangFounded {
                    gang: gang(1, "Rust Saints"),
                },
                Event::FighterRecruited {
                    fighter: fighter(1, 1, "Brick", &["pulverizer", "jacked"]),
                },
                Event::FighterRecruited {
                    fighter: fighter(2, 1, "Dross", &["longshot"]),
                },
            ],
        )
        .expect("commit");
    path
}

/// Every file in a folder with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| {
            let e = e.expect("entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect()
}

#[test]
fn round_trip_through_the_file() {
    let dir = temp();
    let path = sample(dir.path());
    let store = CampaignStore::open(&path).expect("reopen");
    let dump = store.dump().expect("dump");
    assert_eq!(dump.info.name, "Test");
    assert_eq!(dump.gangs, vec![gang(1, "Rust Saints")]);
    assert_eq!(
        dump.fighters,
        vec![
            fighter(1, 1, "Brick", &["pulverizer", "jacked"]),
            fighter(2, 1, "Dross", &["longshot"])
        ]
    );
    // The campaign's creation, then the founding.
    assert_eq!(store.batch_count().expect("count"), 2);
    let log = store.log(3).expect("log");
    assert_eq!(log.len(), 3, "one event per change, in the same batch");
    assert!(log.iter().all(|e| e.batch == log[0].batch));
    let first = store.log(10).expect("log");
    assert!(first.last().is_some_and(|e| e.event.is_creation()));
}

#[test]
fn file_settings_are_wal_and_foreign_keys() {
    let dir = temp();
    let path = sample(dir.path());
    let store = CampaignStore::open(&path).expect("open");
    let mode: String = store
        .conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .expect("pragma");
    let fk: i64 = store
        .conn
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .expect("pragma");
    assert_eq!(mode, "wal");
    assert_eq!(fk, 1);
}

#[test]
fn migrating_twice_changes_nothing() {
    let mut conn = Connection::open_in_memory().expect("memory");
    migrate(&mut conn, 0).expect("first");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("version");
    assert_eq!(version, SCHEMA_VERSION);
    migrate(&mut conn, version).expect("second run is a no-op");

    // Opening a current file again neither migrates nor backs up.
    let dir = temp();
    let path = sample(dir.path());
    drop(CampaignStore::open(&path).expect("open 1"));
    drop(CampaignStore::open(&path).expect("open 2"));
    let backups = snapshot(dir.path())
        .into_keys()
        .filter(|n| n.ends_with(".bak"))
        .count();
    assert_eq!(backups, 0);
}

#[test]
fn every_earlier_version_migrates_after_a_backup() {
    for from in 0..SCHEMA_VERSION {
        let dir = temp();
        let path = dir.path().join("old.rapsheet");
        {
            let mut conn = Connection::open(&path).expect("create");
            if from == 0 {
                conn.pragma_update(None, "application_id", APPLICATION_ID)
                    .expect("app id");
            } else {
                migrate_to(&mut conn, from);
            }
        }
        let before = std::fs::read(&path).expect("read");
        let store = CampaignStore::open(&path).expect("migrates");
        let version: i64 = store
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, SCHEMA_VERSION);
        let backup = dir.path().join(format!("old.rapsheet.v{from}.bak"));
        let copy = Connection::open(&backup).expect("backup opens");
        let old: i64 = copy
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(old, from, "the backup is the file as it was");
        drop(copy);
        assert!(!before.is_empty());
    }
}

fn migrate_to(conn: &mut Connection, target: i64) {
    for (i, sql) in migrations::MIGRATIONS
        .iter()
        .enumerate()
        .take(target as usize)
    {
        conn.execute_batch(sql).expect("migration");
        conn.pragma_update(None, "user_version", i as i64 + 1)
            .expect("version");
    }
}

/// Opening `path` is refused with an error matching `expect`, and no file in
/// its folder changes or appears.
fn assert_refused(path: &Path, expect: impl Fn(&StoreError) -> bool) -> String {
    let dir = path.parent().expect("parent");
    let before = snapshot(dir);
    let err = CampaignStore::open(path).expect_err("must be refused");
    assert!(expect(&err), "unexpected error: {err}");
    assert_eq!(snapshot(dir), before, "a refused open changed the folder");
    let line = err.to_string();
    assert!(!line.contains('\n'), "one line: {line}");
    line
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_untouched() {
    let dir = temp();
    let path = dir.path().join("notes.rapsheet");
    std::fs::write(&path, "Brick owes me three Supply.\n").expect("write");
    let line = assert_refused(&path, |e| matches!(e, StoreError::NotSqlite(_)));
    assert!(line.contains("not a campaign file"), "{line}");
}

#[test]
fn a_truncated_file_is_refused_untouched() {
    let dir = temp();
    let path = sample(dir.path());
    let bytes = std::fs::read(&path).expect("read");
    std::fs::write(&path, &bytes[..bytes.len() / 2]).expect("truncate");
    let line = assert_refused(&path, |e| matches!(e, StoreError::Corrupt { .. }));
    assert!(line.contains("damaged"), "{line}");
}

#[test]
fn a_corrupt_file_is_refused_untouched() {
    let dir = temp();
    let path = sample(dir.path());
    let mut bytes = std::fs::read(&path).expect("read");
    // Scribble over the second page, where the schema's tables live.
    let page = 4096.min(bytes.len() / 2);
    for b in &mut bytes[page..page + 200] {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).expect("corrupt");
    assert_refused(&path, |e| {
        matches!(e, StoreError::Corrupt { .. } | StoreError::NotSqlite(_))
    });
}

#[test]
fn a_newer_schema_is_refused_untouched() {
    let dir = temp();
    let path = sample(dir.path());
    {
        let conn = Connection::open(&path).expect("open");
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 5)
            .expect("bump");
    }
    let line = assert_refused(&path, |e| matches!(e, StoreError::TooNew { .. }));
    assert!(line.contains("newer Rapsheet"), "{line}");
}

#[test]
fn another_programs_database_is_refused_untouched() {
    let dir = temp();
    let path = dir.path().join("other.db");
    {
        let conn = Connection::open(&path).expect("open");
        conn.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .expect("table");
    }
    assert_refused(&path, |e| matches!(e, StoreError::NotRapsheet(_)));
}

#[test]
fn a_file_another_process_writes_is_refused_untouched() {
    let dir = temp();
    let path = sample(dir.path());
    let writer = Connection::open(&path).expect("writer");
    writer
        .execute_batch("BEGIN IMMEDIATE; INSERT INTO batch (label) VALUES ('elsewhere');")
        .expect("hold the write lock");
    let main_before = std::fs::read(&path).expect("read");
    let err = CampaignStore::open(&path).expect_err("busy");
    assert!(matches!(err, StoreError::Busy(_)), "{err}");
    assert!(err.to_string().contains("another program is writing"));
    assert_eq!(std::fs::read(&path).expect("read"), main_before);
    writer.execute_batch("ROLLBACK").expect("release");
}

#[test]
fn a_read_only_file_opens_read_only_with_its_reason() {
    let dir = temp();
    let path = sample(dir.path());
    let mut perms = std::fs::metadata(&path).expect("meta").permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&path, perms).expect("chmod");
    let before = std::fs::read(&path).expect("read");

    let mut store = CampaignStore::open(&path).expect("opens read-only");
    assert_eq!(
        store.read_only_reason(),
        Some("the file is read-only on disk")
    );
    assert_eq!(store.gangs().expect("reads").len(), 1);
    let err = store
        .commit_unchecked(
            "x",
            &[Event::CampaignRenamed {
                from: "Test".into(),
                to: "Other".into(),
            }],
        )
        .expect_err("no writes");
    assert!(matches!(err, StoreError::ReadOnly(_)));
    drop(store);
    assert_eq!(std::fs::read(&path).expect("read"), before);
}

#[test]
fn a_second_window_gets_the_file_read_only() {
    let dir = temp();
    let path = sample(dir.path());
    let first = CampaignStore::open(&path).expect("first");
    let second = CampaignStore::open(&path).expect("second");
    assert_eq!(first.read_only_reason(), None);
    assert!(
        second
            .read_only_reason()
            .is_some_and(|r| r.contains("another Rapsheet window"))
    );
    drop(first);
    drop(second);
    let third = CampaignStore::open(&path).expect("third");
    assert_eq!(third.read_only_reason(), None);
}

#[test]
fn undo_restores_the_campaign_exactly_and_redo_reapplies() {
    let dir = temp();
    let path = sample(dir.path());
    let mut store = CampaignStore::open(&path).expect("open");
    let before = store.dump().expect("dump");
    let batch = store
        .commit_unchecked(
            "Changes",
            &[
                Event::ResourceAdjusted {
                    gang: GangId(1),
                    resource: "supply".into(),
                    from: 0,
                    to: 3,
                    reason: "cache".into(),
                },
                Event::QuirksChanged {
                    fighter: FighterId(2),
                    from: vec![QuirkPick::new("longshot")],
                    to: vec![QuirkPick {
                        quirk: "headshot".into(),
                        alt_name: Some("Ultralaser".into()),
                        with: None,
                    }],
                },
                Event::FighterDismissed {
                    fighter: fighter(1, 1, "Brick", &["pulverizer", "jacked"]),
                },
            ],
        )
        .expect("commit");
    let after = store.dump().expect("dump");
    assert_ne!(before, after);
    let undo = store.undo_unchecked(batch).expect("undo");
    assert_eq!(store.dump().expect("dump"), before);
    store.undo_unchecked(undo).expect("redo");
    assert_eq!(store.dump().expect("dump"), after);
    assert_eq!(
        store.newest_undoable().expect("q"),
        Some(BatchId(undo.0 + 1))
    );
}

#[test]
fn a_stale_event_is_refused_and_nothing_changes() {
    let dir = temp();
    let path = sample(dir.path());
    let mut store = CampaignStore::open(&path).expect("open");
    let before = store.dump().expect("dump");
    let batches = store.batch_count().expect("count");
    let err = store
        .commit_unchecked(
            "Two changes",
            &[
                Event::FighterRenamed {
                    fighter: FighterId(1),
                    from: "Brick".into(),
                    to: "Brickhouse".into(),
                },
                // Claims Supply was 7: it is 0.
                Event::ResourceAdjusted {
                    gang: GangId(1),
                    resource: "supply".into(),
                    from: 7,
                    to: 8,
                    reason: "x".into(),
                },
            ],
        )
        .expect_err("conflict");
    assert!(matches!(err, StoreError::Conflict(_)), "{err}");
    assert_eq!(
        store.dump().expect("dump"),
        before,
        "the rename rolled back too"
    );
    assert_eq!(store.batch_count().expect("count"), batches);
}

#[test]
fn the_log_is_append_only() {
    let dir = temp();
    let path = sample(dir.path());
    let store = CampaignStore::open(&path).expect("open");
    let err = store
        .conn
        .execute("UPDATE event SET payload = '{}'", [])
        .expect_err("append-only");
    assert!(err.to_string().contains("append-only"));
    assert!(store.conn.execute("DELETE FROM batch", []).is_err());
}

/// A league campaign's unsent batches come out of the log only through a
/// sync's rewind, which undoes them exactly; nothing the server has, and
/// nothing outside a rewind, can be deleted.
#[test]
fn only_a_rewind_takes_unsent_league_batches_out_of_the_log() {
    let dir = temp();
    let path = sample(dir.path());
    let mut store = CampaignStore::open(&path).expect("open");
    let tie = LeagueTie {
        host: "h".into(),
        port: 1,
        database: "d".into(),
        login: "l".into(),
        certificate: String::new(),
        synced: 2,
        last_sync: None,
    };
    store.tie_to_league(&tie, &[]).expect("tie");
    let before = store.dump().expect("dump");
    store
        .commit_unchecked(
            "Recruit",
            &[Event::FighterRecruited {
                fighter: fighter(3, 1, "Slag", &[]),
            }],
        )
        .expect("commit");
    // Outside a rewind nothing is deleted, unsent or not.
    assert!(
        store
            .conn
            .execute("DELETE FROM event WHERE batch_id = 3", [])
            .is_err()
    );
    assert!(
        store
            .conn
            .execute("DELETE FROM batch WHERE id = 3", [])
            .is_err()
    );
    // The rewind takes batch 3 back out; batches the server has stay.
    store.rewind(2, &mut |_| Ok(())).expect("rewind");
    assert_eq!(store.dump().expect("dump"), before);
    assert_eq!(store.batch_count().expect("count"), 2);
    store
        .conn
        .execute("INSERT INTO league_rewind (one) VALUES (1)", [])
        .expect("flag");
    assert!(
        store
            .conn
            .execute("DELETE FROM batch WHERE id = 2", [])
            .is_err()
    );
}

#[test]
fn save_as_copies_and_leaves_the_original() {
    let dir = temp();
    let path = sample(dir.path());
    let store = CampaignStore::open(&path).expect("open");
    let copy_path = dir.path().join("copy.rapsheet");
    let copy = store.save_as(&copy_path).expect("save as");
    assert_eq!(copy.dump().expect("dump"), store.dump().expect("dump"));
    assert!(matches!(
        store.save_as(&copy_path),
        Err(StoreError::AlreadyExists(_))
    ));
}

#[test]
fn create_refuses_to_replace_a_file() {
    let dir = temp();
    let path = sample(dir.path());
    let before = std::fs::read(&path).expect("read");
    assert!(matches!(
        CampaignStore::create_unchecked(&path, "x", "heartbreaker"),
        Err(StoreError::AlreadyExists(_))
    ));
    assert_eq!(std::fs::read(&path).expect("read"), before);
}

#[test]
fn verify_passes_a_sound_file_and_names_what_disagrees_with_the_log() {
    let dir = temp();
    let path = sample(dir.path());
    let mut store = CampaignStore::open(&path).expect("open");
    store
        .commit_unchecked(
            "Rename",
            &[Event::CampaignRenamed {
                from: "Test".into(),
                to: "Renamed".into(),
            }],
        )
        .expect("rename");
    let undo = store.newest_undoable().expect("log").expect("undoable");
    store.undo_unchecked(undo).expect("undo");
    let sound = store.verify().expect("verify");
    assert!(sound.is_sound(), "{:?}", sound.problems);
    assert_eq!((sound.batches, sound.events), (4, 6));

    // A change the log does not hold.
    store
        .conn
        .execute("UPDATE fighter SET name = 'Ghost' WHERE id = 2", [])
        .expect("tamper");
    let found = store.verify().expect("verify");
    assert_eq!(
        found.problems,
        [
            "table fighter differs from what the log says (1 row(s) the log does not explain, 1 row(s) missing)",
            "the fighters differ from what the log says"
        ]
    );

    // An event the state does not follow: a second founding of the same
    // gang, appended to the log without being applied.
    store
        .conn
        .execute("UPDATE fighter SET name = 'Dross' WHERE id = 2", [])
        .expect("restore");
    let payload = serde_json::to_string(&Event::GangFounded {
        gang: gang(1, "Rust Saints"),
    })
    .expect("json");
    store
        .conn
        .execute_batch("INSERT INTO batch (id, label) VALUES (99, 'Forged')")
        .expect("tamper");
    store
        .conn
        .execute(
            "INSERT INTO event (batch_id, kind, gang_id, payload) VALUES (99, 'gang_founded', 1, ?1)",
            [payload],
        )
        .expect("tamper");
    let found = store.verify().expect("verify");
    assert_eq!(found.problems.len(), 1, "{:?}", found.problems);
    assert!(
        found.problems[0].contains("does not replay"),
        "{:?}",
        found.problems
    );
}

#[test]
fn a_file_cut_short_by_one_byte_is_refused_untouched() {
    let dir = temp();
    let path = sample(dir.path());
    let bytes = std::fs::read(&path).expect("read");
    std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("truncate");
    let line = assert_refused(&path, |e| matches!(e, StoreError::Corrupt { .. }));
    assert!(line.contains("cut short"), "{line}");
}

#[test]
fn a_file_missing_its_last_page_is_refused_untouched() {
    let dir = temp();
    let path = sample(dir.path());
    let bytes = std::fs::read(&path).expect("read");
    std::fs::write(&path, &bytes[..bytes.len() - 4096]).expect("truncate");
    let line = assert_refused(&path, |e| matches!(e, StoreError::Corrupt { .. }));
    assert!(
        line.contains("cut short") || line.contains("damaged"),
        "{line}"
    );
}

#[test]
fn a_wrong_schema_version_is_one_line_and_backed_up_once() {
    let dir = temp();
    let path = sample(dir.path());
    {
        let conn = Connection::open(&path).expect("open");
        conn.pragma_update(None, "user_version", 1).expect("lie");
    }
    let before = std::fs::read(&path).expect("read");
    for _ in 0..3 {
        let err = CampaignStore::open(&path).expect_err("refused");
        let line = err.to_string();
        assert!(!line.contains('\n'), "one line: {line}");
        assert!(line.contains("cannot upgrade"), "{line}");
        assert!(line.len() < 300, "{line}");
    }
    let backups: Vec<String> = snapshot(dir.path())
        .into_keys()
        .filter(|n| n.ends_with(".bak"))
        .collect();
    assert_eq!(backups, vec!["c.rapsheet.v1.bak".to_owned()]);
    // The failed upgrade changed nothing in the campaign.
    let conn = Connection::open(&path).expect("open");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("version");
    assert_eq!(version, 1);
    drop(conn);
    assert!(!before.is_empty());
}

#[test]
fn a_negative_schema_version_is_refused_untouched() {
    let dir = temp();
    let path = sample(dir.path());
    {
        let conn = Connection::open(&path).expect("open");
        conn.pragma_update(None, "user_version", -3).expect("bump");
    }
    let line = assert_refused(&path, |e| matches!(e, StoreError::Corrupt { .. }));
    assert!(line.contains("schema version -3"), "{line}");
}

#[test]
fn a_read_only_file_is_read_without_leaving_wal_or_shm() {
    let dir = temp();
    let path = sample(dir.path());
    let mut perms = std::fs::metadata(&path).expect("meta").permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&path, perms).expect("chmod");
    let before = snapshot(dir.path());
    {
        let store = CampaignStore::open(&path).expect("opens read-only");
        assert!(store.read_only_reason().is_some());
        assert_eq!(store.gangs().expect("gangs").len(), 1);
    }
    assert_eq!(snapshot(dir.path()), before, "reading changed the folder");
}

#[cfg(target_os = "linux")]
#[test]
fn a_campaign_on_read_only_media_opens_read_only() {
    let dir = temp();
    let path = sample(dir.path());
    let mount = dir.path().join("media");
    std::fs::create_dir(&mount).expect("mkdir");
    let run = |args: &[&str]| {
        std::process::Command::new("mount")
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !run(&[
        "-t",
        "tmpfs",
        "-o",
        "size=8m",
        "tmpfs",
        &mount.to_string_lossy(),
    ]) {
        eprintln!("skipped: this machine does not let the test mount a read-only folder");
        return;
    }
    let inside = mount.join("c.rapsheet");
    std::fs::copy(&path, &inside).expect("copy");
    let mounted_ro = run(&["-o", "remount,ro", &mount.to_string_lossy()]);
    let result = mounted_ro.then(|| {
        let store = CampaignStore::open(&inside);
        let reason = store
            .as_ref()
            .map(|s| s.read_only_reason().map(str::to_owned));
        let gangs = store.as_ref().map(|s| s.gangs().map(|g| g.len()).ok());
        (format!("{reason:?}"), format!("{gangs:?}"))
    });
    let _ = std::process::Command::new("umount").arg(&mount).status();
    let Some((reason, gangs)) = result else {
        eprintln!("skipped: the folder could not be made read-only");
        return;
    };
    assert!(reason.contains("read-only media"), "{reason}");
    assert_eq!(gangs, "Ok(Some(1))");
}

/// The leaders of a resource: the places asked for and every gang tied with
/// the last of them, of the rulesets asked for only.
#[test]
fn resource_leaders_reads_the_top_places_with_their_ties() {
    let dir = temp();
    let path = dir.path().join("leaders.rapsheet");
    let mut store = CampaignStore::create_unchecked(&path, "Test", "heartbreaker").expect("create");
    let amounts = [("A", 9), ("B", 7), ("C", 7), ("D", 3), ("E", 1), ("G", 0)];
    let mut events: Vec<Event> = amounts
        .iter()
        .enumerate()
        .map(|(i, (name, supply))| {
            let mut g = gang(i as i64 + 1, name);
            g.resources.insert("supply".into(), *supply);
            Event::GangFounded { gang: g }
        })
        .collect();
    // A gang of another game, with the most, is not a contender.
    let mut other = gang(7, "F");
    other.ruleset = "wayfarer".into();
    other.resources.insert("supply".into(), 99);
    events.push(Event::GangFounded { gang: other });
    store.commit_unchecked("Found", &events).expect("commit");
    let leaders = |places| {
        let mut ids: Vec<i64> = store
            .resource_leaders("supply", &["heartbreaker".to_owned()], places)
            .expect("leaders")
            .into_iter()
            .map(|g| g.0)
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(leaders(1), [1]);
    assert_eq!(leaders(2), [1, 2, 3], "C ties B for second");
    assert_eq!(leaders(4), [1, 2, 3, 4]);
    assert_eq!(
        leaders(10),
        [1, 2, 3, 4, 5],
        "fewer gangs than places: all that have some (G has none)"
    );
}

/// A tie at the last place is read as far as as many places of it, however
/// many gangs share it: a league of gangs tied reads no further.
#[test]
fn resource_leaders_read_a_tie_at_the_last_place_as_far_as_the_places() {
    let dir = temp();
    let path = dir.path().join("tied.rapsheet");
    let mut store = CampaignStore::create_unchecked(&path, "Test", "heartbreaker").expect("create");
    // One leads with 9; forty tie at 4.
    let events: Vec<Event> = (1..=41)
        .map(|i| {
            let mut g = gang(i, &format!("Gang {i}"));
            g.resources
                .insert("supply".into(), if i == 1 { 9 } else { 4 });
            Event::GangFounded { gang: g }
        })
        .collect();
    store.commit_unchecked("Found", &events).expect("commit");
    let leaders = |places| {
        store
            .resource_leaders("supply", &["heartbreaker".to_owned()], places)
            .expect("leaders")
    };
    assert_eq!(leaders(1).len(), 1, "the leader alone: no tie at first");
    // Two places: the leader, and two of the tie at second.
    assert_eq!(leaders(2).len(), 3);
    // Four places: the leader and four of the tie, not forty.
    let four = leaders(4);
    assert_eq!(four.len(), 5);
    assert!(four.contains(&GangId(1)));
}

/// A photo is keyed by the BLAKE3 hash of its bytes and their length (the
/// hash of "abc" is the BLAKE3 reference vector).
#[test]
fn a_photo_is_keyed_by_its_blake3_hash() {
    assert_eq!(
        photo_hash(b"abc"),
        "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85-3"
    );
}

/// The store's own tests write events as they are, without the gate the
/// session puts every change through.
impl CampaignStore {
    fn commit_unchecked(&mut self, label: &str, events: &[Event]) -> Result<BatchId> {
        self.commit(label, events, &mut |_, _, _| Ok(()))
    }

    fn create_unchecked(path: &Path, name: &str, ruleset: &str) -> Result<Self> {
        Self::create(path, name, ruleset, &mut |_, _, _| Ok(()))
    }

    fn undo_unchecked(&mut self, batch: BatchId) -> Result<BatchId> {
        self.undo(batch, &mut |_, _, _| Ok(()))
    }
}

/// `path` with the first bytes of the root page of `table` scribbled
/// over: a damage only SQLite's page check finds, opening alone does not.
fn scribble_over_table(path: &Path, table: &str) -> Vec<u8> {
    let (root, size): (i64, i64) = {
        let conn = Connection::open(path).expect("open");
        let root = conn
            .query_row(
                "SELECT rootpage FROM sqlite_schema WHERE name = ?1",
                [table],
                |r| r.get(0),
            )
            .expect("root page");
        let size = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .expect("page size");
        (root, size)
    };
    let mut bytes = std::fs::read(path).expect("read");
    let at = usize::try_from((root - 1) * size).expect("offset");
    bytes[at..at + 12].fill(0xA5);
    std::fs::write(path, &bytes).expect("scribble");
    bytes
}

#[test]
fn a_campaign_checked_later_is_read_only_until_its_pages_check() {
    let dir = temp();
    let path = sample(dir.path());
    // Opened once: kept with a write-ahead log from then on.
    drop(CampaignStore::open(&path).expect("open"));
    let mut store = CampaignStore::open_checking_later(&path).expect("opens");
    assert!(store.pages_unchecked());
    assert_eq!(store.read_only_reason(), Some(CHECKING_PAGES));
    let found = [Event::GangFounded {
        gang: gang(2, "Neon Jackals"),
    }];
    assert!(matches!(
        store.commit_unchecked("Found", &found),
        Err(StoreError::ReadOnly(_))
    ));
    store.pages_checked(&check_pages(&path));
    assert!(!store.pages_unchecked());
    assert_eq!(store.read_only_reason(), None);
    store.commit_unchecked("Found", &found).expect("writable");
}

#[test]
fn a_damaged_campaign_checked_later_stays_read_only_and_is_said_as_opening_says_it() {
    let dir = temp();
    let path = sample(dir.path());
    drop(CampaignStore::open(&path).expect("open"));
    let damaged = scribble_over_table(&path, "photo");
    let refused = CampaignStore::open(&path).expect_err("opening refuses it");
    let mut store = CampaignStore::open_checking_later(&path).expect("opens, to check later");
    let checked = check_pages(&path);
    let said = checked.as_ref().expect_err("its pages do not check");
    assert!(matches!(said, StoreError::Corrupt { .. }), "{said}");
    assert_eq!(said.to_string(), refused.to_string());
    store.pages_checked(&checked);
    let reason = store.read_only_reason().expect("read-only").to_owned();
    assert!(reason.contains("damaged"), "{reason}");
    let found = [Event::GangFounded {
        gang: gang(2, "Neon Jackals"),
    }];
    assert!(matches!(
        store.commit_unchecked("Found", &found),
        Err(StoreError::ReadOnly(_))
    ));
    drop(store);
    assert_eq!(
        std::fs::read(&path).expect("read"),
        damaged,
        "nothing written"
    );
}

#[test]
fn a_campaign_not_yet_kept_with_a_log_is_checked_as_it_opens() {
    let dir = temp();
    // A file kept with a rollback journal (as an older copy may be):
    // opening puts it in WAL mode, which writes its header.
    let path = sample(dir.path());
    Connection::open(&path)
        .expect("open")
        .pragma_update(None, "journal_mode", "DELETE")
        .expect("journal mode");
    let store = CampaignStore::open_checking_later(&path).expect("opens");
    assert!(!store.pages_unchecked());
    assert_eq!(store.read_only_reason(), None);
}
