//! Backups belong to one campaign, whatever its file is called; the newest
//! is always kept; nothing else in a backups folder is taken for a backup
//! or taken out; the temporary file a killed run leaves is cleared by the
//! next; and no campaign is ever made as another campaign's side file.

use crate::util;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Runs `rapsheet ARGS` in `dir`, insists it worked, returns its output.
fn run(dir: &Path, args: &[&str]) -> String {
    let out = util::rapsheet(dir, args);
    assert!(out.status.success(), "{args:?}: {}", util::stderr(&out));
    util::stdout(&out)
}

/// Runs `rapsheet ARGS` in `dir`, insists it was refused with one line,
/// returns that line.
fn refused(dir: &Path, args: &[&str]) -> String {
    let out = util::rapsheet(dir, args);
    assert!(!out.status.success(), "{args:?} was not refused");
    let err = util::stderr(&out);
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
    err
}

/// The campaign's backups in `folder`, as `backup list --json` gives them.
fn listed(dir: &Path, db: &str, folder: &str) -> Vec<serde_json::Value> {
    let out = run(
        dir,
        &["backup", "list", "--dir", folder, "--json", "--db", db],
    );
    serde_json::from_str::<serde_json::Value>(&out)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn paths(list: &[serde_json::Value]) -> Vec<PathBuf> {
    list.iter()
        .map(|b| PathBuf::from(b["path"].as_str().unwrap()))
        .collect()
}

/// The file names in `folder`, sorted.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Writes `bytes` to `path`, last changed an hour ago.
fn old_file(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(SystemTime::now() - Duration::from_secs(3600))
        .unwrap();
}

#[test]
fn two_campaigns_named_alike_in_two_folders_keep_their_own_backups() {
    let dir = util::temp();
    let d = dir.path();
    for folder in ["north", "south"] {
        std::fs::create_dir(d.join(folder)).unwrap();
        run(
            d,
            &[
                "new",
                "--name",
                folder,
                "--db",
                &format!("{folder}/camp.rapsheet"),
            ],
        );
    }
    // Turn about, three backups each into one folder, keeping two.
    for _ in 0..3 {
        for db in ["north/camp.rapsheet", "south/camp.rapsheet"] {
            let made = run(
                d,
                &[
                    "backup", "make", "--dir", "backups", "--keep", "2", "--days", "0", "--db", db,
                ],
            );
            assert!(made.contains("Made and checked a backup"), "{made}");
        }
    }
    let north = listed(d, "north/camp.rapsheet", "backups");
    let south = listed(d, "south/camp.rapsheet", "backups");
    assert_eq!(north.len(), 2, "{north:?}");
    assert_eq!(south.len(), 2, "{south:?}");
    assert!(
        paths(&north).iter().all(|p| !paths(&south).contains(p)),
        "{north:?} {south:?}"
    );
    assert_eq!(names(&d.join("backups")).len(), 4);
    // Each holds its own campaign.
    for (list, name) in [(&north, "north"), (&south, "south")] {
        for (i, path) in paths(list).iter().enumerate() {
            let restored = d.join(format!("{name}-{i}.rapsheet"));
            run(
                d,
                &[
                    "backup",
                    "restore",
                    path.to_str().unwrap(),
                    "-o",
                    restored.to_str().unwrap(),
                ],
            );
            let shown = rapsheet::session::Session::open(&restored)
                .unwrap()
                .info()
                .unwrap();
            assert_eq!(shown.name, name);
        }
    }
    // Its file moved and renamed, a campaign still knows its backups.
    std::fs::rename(d.join("north/camp.rapsheet"), d.join("moved.rapsheet")).unwrap();
    assert_eq!(
        paths(&listed(d, "moved.rapsheet", "backups")),
        paths(&north)
    );
}

#[test]
fn keeping_no_backup_is_refused() {
    let dir = util::temp();
    let d = dir.path();
    run(d, &["new", "--db", "c.rapsheet"]);
    let err = refused(
        d,
        &[
            "backup",
            "make",
            "--dir",
            "backups",
            "--keep",
            "0",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(err.contains("--keep 0 would keep no backup"), "{err}");
    assert!(err.contains("the newest is always kept"), "{err}");
    assert!(!d.join("backups").exists(), "nothing was made");
}

#[test]
fn the_app_keeps_at_least_the_newest_backup() {
    use egui_kittest::kittest::Queryable;
    use rapsheet::session::{BackupPolicy, Session};
    let dir = util::temp();
    let folder = dir.path().join("backups");
    let s = Session::create_demo(&dir.path().join("c.rapsheet")).unwrap();
    let mut harness = egui_kittest::Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            rapsheet::ui::RapsheetApp::with_session_and_backups(s, folder.clone()),
        );
    harness.run();
    harness.get_by_label("File").click();
    harness.run();
    harness.get_by_label("Backups…").click();
    harness.run();
    // Nought typed is taken as one.
    util::type_into(&mut harness, "Keep the newest", "0");
    harness.key_press(egui::Key::Enter);
    harness.run();
    harness.get_by_label("Keep these counts").click();
    harness.run();
    assert_eq!(harness.state().backup_policy().newest, 1);
    // And keeping none, asked for anyhow, is refused in words.
    harness
        .state_mut()
        .set_backup_policy(BackupPolicy { newest: 0, days: 3 });
    harness.run();
    assert_eq!(harness.state().backup_policy().newest, 1);
    let status = harness.state().status_text().unwrap_or_default();
    assert!(
        status.contains("the newest backup is always kept"),
        "{status}"
    );
}

#[test]
fn nothing_else_in_the_backups_folder_is_listed_or_taken_out() {
    let dir = util::temp();
    let d = dir.path();
    run(d, &["new", "--db", "camp.rapsheet"]);
    run(
        d,
        &[
            "backup",
            "make",
            "--dir",
            "backups",
            "--db",
            "camp.rapsheet",
        ],
    );
    let first = paths(&listed(d, "camp.rapsheet", "backups")).remove(0);
    let name = first.file_name().unwrap().to_str().unwrap().to_owned();
    // camp.KEY.backup-TIME.rapsheet
    let key = name.split('.').nth(1).unwrap().to_owned();
    let b = d.join("backups");
    let like = |time: &str| b.join(format!("camp.{key}.backup-{time}.rapsheet"));
    std::fs::write(b.join("notes.txt"), "ours").unwrap();
    // Named as backups were once named, but not this campaign's.
    std::fs::write(b.join("camp.backup-20200101T000000.000Z.rapsheet"), "junk").unwrap();
    std::fs::write(like("not-a-time"), "junk").unwrap();
    std::fs::create_dir(like("20200102T000000.000Z")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(b.join("gone"), like("20200103T000000.000Z")).unwrap();
    // Named as this campaign's, but not a campaign: reported, never counted.
    std::fs::write(like("20200104T000000.000Z"), "junk").unwrap();
    let before: Vec<String> = names(&b).into_iter().filter(|n| *n != name).collect();

    for _ in 0..3 {
        run(
            d,
            &[
                "backup",
                "make",
                "--dir",
                "backups",
                "--keep",
                "1",
                "--days",
                "0",
                "--db",
                "camp.rapsheet",
            ],
        );
    }
    let after = names(&b);
    for junk in &before {
        assert!(after.contains(junk), "{junk} was taken out: {after:?}");
    }
    assert_eq!(
        after.len(),
        before.len() + 1,
        "the newest one backup: {after:?}"
    );

    let list = listed(d, "camp.rapsheet", "backups");
    let sound: Vec<_> = list.iter().filter(|b| b["problem"].is_null()).collect();
    assert_eq!(sound.len(), 1, "{list:?}");
    assert_eq!(list.len(), 2, "only the broken one beside it: {list:?}");
    assert!(
        list[1]["path"]
            .as_str()
            .unwrap()
            .ends_with(&format!("camp.{key}.backup-20200104T000000.000Z.rapsheet")),
        "{list:?}"
    );
    let shown = run(
        d,
        &[
            "backup",
            "list",
            "--dir",
            "backups",
            "--db",
            "camp.rapsheet",
        ],
    );
    assert!(shown.contains("DOES NOT CHECK"), "{shown}");
    for junk in [
        "notes.txt",
        "camp.backup-2020",
        "not-a-time",
        "20200102",
        "20200103",
    ] {
        assert!(!shown.contains(junk), "{junk} listed: {shown}");
    }
}

/// A temporary file as a killed run leaves it, one too new to be stale,
/// and old files that are not Rapsheet's temporaries, in `folder`.
fn leftovers(folder: &Path) -> (PathBuf, Vec<PathBuf>) {
    std::fs::create_dir_all(folder).unwrap();
    let stale = folder.join(".rapsheet-partial-x.rapsheet.4242.17.tmp");
    old_file(&stale, b"half a campaign");
    old_file(
        &folder.join(".rapsheet-partial-x.rapsheet.4242.17.tmp-journal"),
        b"",
    );
    let fresh = folder.join(".rapsheet-partial-y.rapsheet.4243.18.tmp");
    std::fs::write(&fresh, b"being written").unwrap();
    let mut others = vec![fresh];
    for name in [
        ".x.rapsheet.4242.tmp",
        "rapsheet-partial-notes.txt",
        "old.txt",
    ] {
        let path = folder.join(name);
        old_file(&path, b"not ours");
        others.push(path);
    }
    (stale, others)
}

fn cleared(folder: &Path, stale: &Path, others: &[PathBuf]) {
    assert!(
        !stale.exists(),
        "{} stayed: {:?}",
        stale.display(),
        names(folder)
    );
    assert!(!names(folder).iter().any(|n| n.ends_with(".tmp-journal")));
    for other in others {
        assert!(other.exists(), "{} was taken out", other.display());
    }
}

#[test]
fn a_killed_runs_temporary_file_is_cleared_by_the_next() {
    let dir = util::temp();
    let d = dir.path();
    run(d, &["demo", "--db", "c.rapsheet"]);

    let (stale, others) = leftovers(&d.join("backups"));
    run(
        d,
        &["backup", "make", "--dir", "backups", "--db", "c.rapsheet"],
    );
    cleared(&d.join("backups"), &stale, &others);

    run(
        d,
        &[
            "bundle",
            "export",
            "--whole",
            "-o",
            "whole.json",
            "--db",
            "c.rapsheet",
        ],
    );
    let (stale, others) = leftovers(&d.join("again"));
    run(
        d,
        &[
            "bundle",
            "import",
            "whole.json",
            "--whole",
            "--db",
            "again/c.rapsheet",
        ],
    );
    cleared(&d.join("again"), &stale, &others);

    let (stale, others) = leftovers(&d.join("merged"));
    run(
        d,
        &[
            "merge",
            "again/c.rapsheet",
            "-o",
            "merged/m.rapsheet",
            "--db",
            "c.rapsheet",
        ],
    );
    cleared(&d.join("merged"), &stale, &others);
}

#[test]
fn no_campaign_is_made_as_a_campaigns_side_file() {
    let dir = util::temp();
    let d = dir.path();
    run(d, &["demo", "--db", "c.rapsheet"]);
    run(
        d,
        &[
            "bundle",
            "export",
            "--whole",
            "-o",
            "whole.json",
            "--db",
            "c.rapsheet",
        ],
    );
    run(
        d,
        &[
            "bundle",
            "import",
            "whole.json",
            "--whole",
            "--db",
            "other.rapsheet",
        ],
    );
    run(
        d,
        &["backup", "make", "--dir", "backups", "--db", "c.rapsheet"],
    );
    let backup = paths(&listed(d, "c.rapsheet", "backups")).remove(0);
    let backup = backup.to_str().unwrap();
    let before = names(d);

    // The open campaign's, another campaign's, and one yet to be made.
    let mut targets = Vec::new();
    for campaign in ["c.rapsheet", "other.rapsheet", "new.rapsheet"] {
        for side in ["-wal", "-journal", "-shm", ".lock"] {
            targets.push(format!("{campaign}{side}"));
        }
    }
    for target in &targets {
        let commands: [Vec<&str>; 4] = [
            vec![
                "merge",
                "other.rapsheet",
                "-o",
                target,
                "--db",
                "c.rapsheet",
            ],
            vec!["backup", "restore", backup, "-o", target],
            vec!["bundle", "import", "whole.json", "--whole", "--db", target],
            vec!["new", "--db", target],
        ];
        for args in commands {
            let err = refused(d, &args);
            let side = &target[target.find(".rapsheet").unwrap() + ".rapsheet".len()..];
            let campaign = &target[..target.len() - side.len()];
            assert!(
                err.contains(&format!(
                    "that name is the {side} file of the campaign {campaign}"
                )),
                "{args:?}: {err}"
            );
            assert!(err.contains("choose another name"), "{err}");
            assert_eq!(names(d), before, "{args:?} wrote something");
        }
    }
}
