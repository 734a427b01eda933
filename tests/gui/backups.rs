//! Backups of a campaign: made with SQLite's online backup and checked,
//! rotated (the newest ten and one a day for seven days), made before every
//! record where the face keeps them, listed with what each holds, a broken
//! one reported, and restored as a new file, never over one.

use crate::util;

use rapsheet::session::{BackupPolicy, Session, kept, restore_backup};

#[test]
fn rotation_keeps_the_newest_and_one_a_day() {
    // Newest first: three today, then one or two a day going back.
    let times = [
        "2026-11-25T10:00:03Z",
        "2026-11-25T10:00:02Z",
        "2026-11-25T10:00:01Z",
        "2026-11-24T09:00:00Z",
        "2026-11-24T08:00:00Z",
        "2026-11-23T09:00:00Z",
        "2026-11-22T09:00:00Z",
        "2026-11-21T09:00:00Z",
        "2026-11-20T09:00:00Z",
        "2026-11-19T09:00:00Z",
        "2026-11-18T09:00:00Z",
        "2026-11-17T09:00:00Z",
    ];
    let policy = BackupPolicy { newest: 4, days: 7 };
    // The newest four, and the newest of each of seven days: 25th (0), 24th
    // (3), 23rd (5), 22nd, 21st, 20th, 19th (6..=9); the 18th and 17th go.
    assert_eq!(kept(&times, policy), vec![0, 1, 2, 3, 5, 6, 7, 8, 9]);
    // By default the newest ten, which here hold all seven newest days.
    assert_eq!(
        kept(&times, BackupPolicy::default()),
        (0..10).collect::<Vec<_>>()
    );
    assert!(kept(&[], policy).is_empty());
}

#[test]
fn a_backup_is_made_checked_listed_rotated_and_restored_as_a_new_file() {
    let dir = util::temp();
    let folder = dir.path().join("backups");
    let mut s = Session::create_demo(&dir.path().join("c.rapsheet")).unwrap();
    let policy = BackupPolicy { newest: 2, days: 0 };
    let (first, gone) = s.make_backup(&folder, policy).unwrap();
    assert!(gone.is_empty());
    assert_eq!(first.newest_record, None);
    assert!(first.problem.is_none());

    // A backup before every record: it holds the campaign before it.
    s.keep_backups_in(&folder, policy);
    let report: rapsheet::campaign::battle::BattleReport = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("docs/battle-report.in/report.json"),
        )
        .unwrap(),
    )
    .unwrap();
    s.record_battle(&report, 3).unwrap();
    s.make_backup(&folder, policy).unwrap();
    let list = s.backups(&folder).unwrap();
    assert_eq!(list.len(), 2, "rotated to the newest two: {list:?}");
    assert_eq!(list[0].newest_record, Some(1), "made after record #1");
    assert_eq!(list[1].newest_record, None, "made before record #1");
    assert!(
        !list.iter().any(|b| b.path == first.path),
        "the oldest went"
    );

    // A broken file named as one of them is reported, not taken for a
    // backup.
    let name = list[0].path.file_name().unwrap().to_str().unwrap();
    let identity = name.split('.').nth(1).unwrap();
    let broken = folder.join(format!("c.{identity}.backup-20200101T000000.000Z.rapsheet"));
    std::fs::write(&broken, b"not a campaign").unwrap();
    let list = s.backups(&folder).unwrap();
    let bad = list.iter().find(|b| b.path == broken).unwrap();
    assert!(
        bad.problem
            .as_deref()
            .unwrap()
            .contains("not a campaign file (it is not an SQLite database)"),
        "{bad:?}"
    );
    let err = restore_backup(&broken, &dir.path().join("x.rapsheet")).unwrap_err();
    assert!(format!("{err:#}").contains("cannot be restored"), "{err:#}");
    assert!(!dir.path().join("x.rapsheet").exists());

    // Restored as a new file, which verifies; never over a file.
    let restored = dir.path().join("restored.rapsheet");
    restore_backup(&list[0].path, &restored).unwrap();
    let back = Session::open(&restored).unwrap();
    assert!(back.verify().unwrap().problems.is_empty());
    assert_eq!(back.battles().unwrap().len(), 1);
    let err = restore_backup(&list[0].path, &dir.path().join("c.rapsheet")).unwrap_err();
    assert!(err.to_string().contains("a file is already there"), "{err}");
}

#[test]
fn the_command_line_lists_makes_and_restores_backups() {
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo"]);
    let made = util::ok(d, &["backup", "make"]);
    assert!(made.contains("Made and checked a backup"), "{made}");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/battle-report.in/report.json"),
        d.join("report.json"),
    )
    .unwrap();
    util::ok(d, &["battle", "record", "report.json", "--seed", "5"]);
    let listed = util::ok(d, &["backup", "list", "--json"]);
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(
        listed.as_array().unwrap().len(),
        2,
        "one made, one before the record"
    );
    let newest = listed[0]["path"].as_str().unwrap().to_owned();
    let out = util::rapsheet(d, &["backup", "restore", &newest, "-o", "again.rapsheet"]);
    assert!(out.status.success(), "{}", util::stderr(&out));
    let out = util::rapsheet(d, &["backup", "restore", &newest, "-o", "again.rapsheet"]);
    assert!(!out.status.success());
    assert!(util::stderr(&out).contains("a file is already there"));
}

#[test]
fn the_app_makes_a_daily_backup_and_restores_one_from_the_backups_window() {
    use egui_kittest::kittest::Queryable;
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
    // The day's backup, made on opening.
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1);
    harness.get_by_label("File").click();
    harness.run();
    harness.get_by_label("Backups…").click();
    harness.run();
    harness.get_by_label("Make a backup now").click();
    harness.run();
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 2);
    // The counts kept are the player's: the newest one, no days.
    for (label, value) in [
        ("Keep the newest", "1"),
        ("and the newest of each day for (days)", "0"),
    ] {
        util::type_into(&mut harness, label, value);
        harness.key_press(egui::Key::Enter);
        harness.run();
    }
    harness.get_by_label("Keep these counts").click();
    harness.run();
    assert_eq!(
        harness.state().backup_policy(),
        BackupPolicy { newest: 1, days: 0 }
    );
    harness.get_by_label("Make a backup now").click();
    harness.run();
    assert_eq!(
        std::fs::read_dir(&folder).unwrap().count(),
        1,
        "rotated to the newest one"
    );
    let restore = harness
        .query_all_by_label_contains("Restore 20")
        .next()
        .unwrap();
    restore.click();
    harness.run();
    // Offered beside the campaign under its name, not in the backups'
    // folder; the desktop's dialog may choose it instead, and where there
    // is none the field says to type it.
    let offered = harness
        .get_by_label("New file path")
        .value()
        .unwrap_or_default();
    let offered = std::path::PathBuf::from(offered);
    assert_eq!(offered.parent(), Some(dir.path()), "{offered:?}");
    assert!(
        offered
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("c restored 20"),
        "{offered:?}"
    );
    harness.state_mut().use_typed_paths();
    harness.get_by_label("Choose file…").click();
    harness.run();
    assert!(
        harness
            .state()
            .status_text()
            .unwrap_or_default()
            .contains("no file dialog: type the file's path"),
        "{:?}",
        harness.state().status_text()
    );
    let target = dir.path().join("restored.rapsheet");
    harness.get_by_label("New file path").click();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness
        .get_by_label("New file path")
        .type_text(target.to_str().unwrap());
    harness.run();
    harness.get_by_label("Restore as this new file").click();
    harness.run();
    // The restored file is offered, and opens with one click.
    assert!(harness.query_by_label("Made (UTC)").is_none(), "local time");
    harness.get_by_label("Open the restored campaign").click();
    harness.run();
    assert_eq!(harness.state().campaign_path(), Some(target.as_path()));
    drop(harness);
    assert!(
        Session::open(&target)
            .unwrap()
            .verify()
            .unwrap()
            .problems
            .is_empty()
    );
}

#[test]
fn the_apps_backup_counts_are_kept_as_a_setting_and_a_bad_one_is_ignored() {
    let policy = BackupPolicy {
        newest: 3,
        days: 14,
    };
    assert_eq!(policy.to_setting(), "3 14");
    assert_eq!(BackupPolicy::from_setting("3 14"), Some(policy));
    for bad in ["", "3", "0 7", "-1 7", "x y", "99999999999999999999999 1"] {
        assert_eq!(BackupPolicy::from_setting(bad), None, "{bad}");
    }
}
