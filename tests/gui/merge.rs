//! Merging two copies of one campaign: each recorded something else since
//! they parted; the other copy's changes are made after this copy's, with
//! new ids, every conflict chosen by the player, into a new file, both
//! copies left byte for byte as they were.

use crate::util;

use std::path::{Path, PathBuf};

use rapsheet::campaign::battle::BattleReport;
use rapsheet::campaign::commands::NewFighter;
use rapsheet::campaign::merge::{Aspect, Choice};
use rapsheet::session::Session;

fn report() -> BattleReport {
    let mut report: BattleReport = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/battle-report.in/report.json"),
        )
        .unwrap(),
    )
    .unwrap();
    report.dice.clear();
    report
}

/// The demo campaign, and a second copy of it made by copying the file.
fn two_copies(dir: &Path) -> (PathBuf, PathBuf) {
    let ours = dir.join("ours.rapsheet");
    drop(Session::create_demo(&ours).unwrap());
    let theirs = dir.join("theirs.rapsheet");
    std::fs::copy(&ours, &theirs).unwrap();
    (ours, theirs)
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn copies_that_changed_different_things_merge_without_conflicts() {
    let dir = util::temp();
    let (ours_path, theirs_path) = two_copies(dir.path());
    let mut report_declared = report();
    let mut ours = Session::open(&ours_path).unwrap();
    util::declare_nothing_in(&ours, &mut report_declared);
    ours.record_battle(&report_declared, 3).unwrap();
    drop(ours);
    {
        let mut theirs = Session::open(&theirs_path).unwrap();
        let (owls, _) = theirs.found_gang("Ash Owls", None).unwrap();
        theirs
            .recruit(
                owls,
                NewFighter {
                    name: "Kestrel".into(),
                    leader: true,
                    quirks: Vec::new(),
                    notes: String::new(),
                    base: Default::default(),
                    group: None,
                },
            )
            .unwrap();
    }
    let before = (bytes(&ours_path), bytes(&theirs_path));
    let ours = Session::open(&ours_path).unwrap();

    let merge = ours.plan_merge(&theirs_path).unwrap();
    let preview = ours.merge_preview(&merge).unwrap();
    assert!(preview.conflicts.is_empty(), "{:?}", preview.conflicts);
    assert_eq!(preview.ours.len(), 1, "{:?}", preview.ours);
    assert_eq!(preview.theirs.len(), 2, "{:?}", preview.theirs);

    let out = dir.path().join("merged.rapsheet");
    let merged = ours.write_merge(&merge, &[], &out).unwrap();
    assert!(merged.verify().unwrap().problems.is_empty());
    assert!(merged.gang_named("Ash Owls").is_ok());
    assert!(merged.fighter_named("Kestrel", Some("Ash Owls")).is_ok());
    assert_eq!(merged.battles().unwrap().len(), 1);
    // Undo in the merged campaign takes back the other copy's last change.
    drop(merged);
    let mut merged = Session::open(&out).unwrap();
    merged.undo_last().unwrap();
    assert!(merged.fighter_named("Kestrel", Some("Ash Owls")).is_err());
    assert!(merged.verify().unwrap().problems.is_empty());
    // Neither copy was written to.
    drop(ours);
    assert_eq!((bytes(&ours_path), bytes(&theirs_path)), before);
}

/// Both copies played a match between the two demo warbands in which Ruk
/// was defeated, with other injury dice: Wounded here (10), dead there (2).
// 004: "10-11 WOUNDED: The unit has to rest up to heal or be repaired and
// may not fight in the next match." / "2-5 DEATH/DESTRUCTION: The unit is
// removed from your force."
fn both_played(dir: &Path) -> (Session, PathBuf) {
    let ours_path = dir.join("ours.rapsheet");
    drop(Session::create_demo_of(&ours_path, "wayfarer").unwrap());
    let theirs_path = dir.join("theirs.rapsheet");
    std::fs::copy(&ours_path, &theirs_path).unwrap();
    let ruk_defeated = |faces: [u32; 2]| -> BattleReport {
        serde_json::from_value(serde_json::json!({
            "scenario": "escalation-match",
            "gangs": [
                {"gang": "The Tusk Road", "fighters": [{"fighter": "Ruk", "outcome": "defeated"}]},
                {"gang": "The Lantern Kin"}
            ],
            "winner": "The Lantern Kin",
            "dice": [{"roll": "injury: Ruk", "faces": faces}]
        }))
        .unwrap()
    };
    let mut ours = Session::open(&ours_path).unwrap();
    ours.record_battle(&ruk_defeated([5, 5]), 3).unwrap();
    Session::open(&theirs_path)
        .unwrap()
        .record_battle(&ruk_defeated([1, 1]), 3)
        .unwrap();
    (ours, theirs_path)
}

fn ruk(session: &Session) -> String {
    let id = session.fighter_named("Ruk", None).unwrap().id;
    session.fighter_details(id).unwrap().view.status_text
}

#[test]
fn a_conflict_is_shown_side_by_side_and_settled_each_way() {
    let dir = util::temp();
    let (ours, theirs_path) = both_played(dir.path());
    assert_eq!(ruk(&ours), "wounded: misses the next match");
    assert_eq!(ruk(&Session::open(&theirs_path).unwrap()), "dead");

    let merge = ours.plan_merge(&theirs_path).unwrap();
    let preview = ours.merge_preview(&merge).unwrap();
    let (number, status) = preview
        .conflicts
        .iter()
        .enumerate()
        .find(|(_, c)| c.subject == "Ruk: status")
        .unwrap_or_else(|| panic!("{:#?}", preview.conflicts));
    assert_eq!(status.key.aspect, Aspect::Status);
    assert!(
        status.ours.iter().any(|l| l.contains("wounded")),
        "{status:?}"
    );
    assert!(
        status.theirs.iter().any(|l| l.contains("dead")),
        "{status:?}"
    );
    assert_eq!(status.both, None, "a status cannot be both");
    let n = preview.conflicts.len();

    // Nothing is written until every conflict is chosen.
    let out = dir.path().join("unchosen.rapsheet");
    let err = ours
        .write_merge(&merge, &[], &out)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("is not chosen"), "{err}");
    assert!(!out.exists());
    let mut choices = vec![Some(Choice::Ours); n];
    choices[number] = Some(Choice::Both);
    assert!(ours.write_merge(&merge, &choices, &out).is_err());
    assert!(!out.exists());

    // This copy's: the other copy's match is in the record, what it did to
    // Ruk is not.
    let out = dir.path().join("ours.merged.rapsheet");
    let kept = ours
        .write_merge(&merge, &vec![Some(Choice::Ours); n], &out)
        .unwrap();
    assert!(kept.verify().unwrap().problems.is_empty());
    assert_eq!(kept.battles().unwrap().len(), 2);
    assert_eq!(ruk(&kept), "wounded: misses the next match");

    // The other copy's: this copy's change to Ruk is taken back for it.
    let out = dir.path().join("theirs.merged.rapsheet");
    let mut choices = vec![Some(Choice::Ours); n];
    choices[number] = Some(Choice::Theirs);
    let taken = ours.write_merge(&merge, &choices, &out).unwrap();
    assert!(taken.verify().unwrap().problems.is_empty());
    assert_eq!(ruk(&taken), "dead");
}

#[test]
fn the_command_line_lists_a_dry_run_and_writes_only_when_every_conflict_is_chosen() {
    let dir = util::temp();
    let (ours, theirs_path) = both_played(dir.path());
    drop(ours);
    let d = dir.path();
    let run = |args: &[&str]| util::rapsheet(d, args);
    let dry = run(&[
        "merge",
        "theirs.rapsheet",
        "--dry-run",
        "--db",
        "ours.rapsheet",
    ]);
    assert!(dry.status.success(), "{}", util::stderr(&dry));
    let text = util::stdout(&dry);
    assert!(text.contains("Conflict 1:"), "{text}");
    assert!(text.contains("Ruk: status"), "{text}");
    assert!(!d.join("merged.rapsheet").exists());

    let json = run(&[
        "merge",
        "theirs.rapsheet",
        "--dry-run",
        "--json",
        "--db",
        "ours.rapsheet",
    ]);
    let preview: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let conflicts = preview["conflicts"].as_array().unwrap();
    assert!(!conflicts.is_empty());

    let refused = run(&[
        "merge",
        "theirs.rapsheet",
        "-o",
        "merged.rapsheet",
        "--db",
        "ours.rapsheet",
    ]);
    assert!(!refused.status.success());
    assert!(
        util::stderr(&refused).contains("--take 1="),
        "{}",
        util::stderr(&refused)
    );
    assert!(!d.join("merged.rapsheet").exists());

    let written = run(&[
        "merge",
        "theirs.rapsheet",
        "-o",
        "merged.rapsheet",
        "--all",
        "ours",
        "--take",
        "1=theirs",
        "--db",
        "ours.rapsheet",
    ]);
    assert!(written.status.success(), "{}", util::stderr(&written));
    assert!(util::stdout(&written).contains("verified"));
    let verified = run(&["verify", "--db", "merged.rapsheet"]);
    assert!(verified.status.success(), "{}", util::stderr(&verified));
    let merged = Session::open(&d.join("merged.rapsheet")).unwrap();
    assert!(merged.verify().unwrap().problems.is_empty());
    let _ = theirs_path;
}

#[test]
fn a_file_that_is_not_a_copy_is_refused() {
    let dir = util::temp();
    let (ours_path, _) = two_copies(dir.path());
    let other = dir.path().join("other.rapsheet");
    drop(Session::create_demo(&other).unwrap());
    let ours = Session::open(&ours_path).unwrap();
    let err = format!("{:#}", ours.plan_merge(&other).unwrap_err());
    assert!(err.contains("not copies of one campaign"), "{err}");
    let err = format!("{:#}", ours.plan_merge(&ours_path).unwrap_err());
    assert!(err.contains("this campaign itself"), "{err}");
    let junk = dir.path().join("junk.rapsheet");
    std::fs::write(&junk, b"not a campaign").unwrap();
    assert!(ours.plan_merge(&junk).is_err());
}

#[test]
fn the_app_shows_a_conflict_side_by_side_and_writes_the_merge_as_chosen() {
    for size in [[1000.0, 700.0], [1600.0, 1000.0]] {
        merge_in_the_app(size);
    }
}

fn merge_in_the_app(size: [f32; 2]) {
    use egui_kittest::kittest::Queryable;
    let dir = util::temp();
    let (ours, theirs_path) = both_played(dir.path());
    let mut h = egui_kittest::Harness::builder()
        .with_size(size)
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            rapsheet::ui::RapsheetApp::with_session(ours),
        );
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Merge…").click();
    h.run();
    util::type_into(&mut h, "The other copy", theirs_path.to_str().unwrap());
    h.get_by_label("Look at the merge").click();
    h.run();
    // Side by side: the status here and the status there.
    assert!(h.query_by_label_contains("Ruk: status").is_some());
    assert!(h.query_by_label_contains("Ruk is now dead").is_some());
    assert!(h.query_by_label_contains("Ruk is now wounded").is_some());
    assert!(
        h.query_by_label_contains("conflicts still to choose")
            .is_some()
    );
    // Each choice on one line, not a letter or two a line.
    for choice in h.get_all_by_label("This copy's") {
        let rect = choice.rect();
        assert!(
            rect.width() > 70.0 && rect.height() < 30.0,
            "{size:?}: {rect:?}"
        );
    }
    h.get_by_label("The other's for all").click();
    h.run();
    let out = dir.path().join("merged.rapsheet");
    util::type_into(&mut h, "Merged campaign file", out.to_str().unwrap());
    h.get_by_label("Write the merged campaign").click();
    h.run();
    let status = h.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("Merged into"), "{status}");
    assert_eq!(h.state().campaign_path().unwrap(), out.as_path());
    drop(h);
    let merged = Session::open(&out).unwrap();
    assert_eq!(ruk(&merged), "dead");
    assert!(merged.verify().unwrap().problems.is_empty());
}

/// Both copies recorded a battle between the same two gangs, with bounties
/// declared, injuries, Supply and experience on both sides.
fn two_battles_between_the_same_gangs(dir: &Path) -> (PathBuf, PathBuf) {
    let (ours_path, theirs_path) = two_copies(dir);
    let mut with_dice = report();
    with_dice.dice =
        serde_json::from_value(serde_json::json!([{"roll": "injury: Brick", "faces": [5, 5]}]))
            .unwrap();
    for path in [&ours_path, &theirs_path] {
        Session::open(path)
            .unwrap()
            .record_battle(&with_dice, 3)
            .unwrap();
    }
    (ours_path, theirs_path)
}

/// 29.1: two laptops that each recorded a battle between the same gangs
/// merge with no question, and both battles' effects are in the result.
#[test]
fn two_battles_between_the_same_gangs_merge_without_a_question() {
    let dir = util::temp();
    let (ours_path, theirs_path) = two_battles_between_the_same_gangs(dir.path());
    let ours = Session::open(&ours_path).unwrap();
    let one = Session::open(&theirs_path).unwrap();
    let merge = ours.plan_merge(&theirs_path).unwrap();
    let preview = ours.merge_preview(&merge).unwrap();
    assert!(preview.conflicts.is_empty(), "{:#?}", preview.conflicts);
    assert!(!preview.composed.is_empty(), "{preview:#?}");
    let out = dir.path().join("merged.rapsheet");
    let merged = ours.write_merge(&merge, &[], &out).unwrap();
    assert!(merged.verify().unwrap().problems.is_empty());
    assert_eq!(merged.battles().unwrap().len(), 2);
    // Every number one battle moved, the two battles moved twice as far.
    for gang in one.gangs().unwrap() {
        let before = ours_before(&gang.name);
        let merged_gang = merged.gang_named(&gang.name).unwrap();
        for (resource, after_one) in &gang.resources {
            let start = before.resources[resource];
            assert_eq!(
                merged_gang.resources[resource] - start,
                2 * (after_one - start),
                "{}: {resource}",
                gang.name
            );
        }
        for fighter in one.fighters(gang.id).unwrap() {
            let start = ours_fighter_before(&fighter.name);
            let there = merged
                .fighter_named(&fighter.name, Some(&gang.name))
                .unwrap();
            for (counter, after_one) in &fighter.counters {
                let was = start.counters.get(counter).copied().unwrap_or(0);
                assert_eq!(
                    there.counters.get(counter).copied().unwrap_or(0) - was,
                    2 * (after_one - was),
                    "{}: {counter}",
                    fighter.name
                );
            }
        }
    }
    // Brick was wounded in each battle: the later wound stands.
    assert!(
        preview
            .composed
            .iter()
            .any(|l| l == "Brick: status, the later"),
        "{:?}",
        preview.composed
    );
    assert_eq!(
        ruk_like(&merged, "Brick"),
        "wounded: misses the next skirmish"
    );
    let brick = merged.fighter_named("Brick", None).unwrap();
    let last = merged.battles().unwrap().last().unwrap().id;
    assert_eq!(
        brick.status,
        rapsheet::campaign::FighterStatus::Wounded { battle: last }
    );
}

fn ruk_like(session: &Session, name: &str) -> String {
    let id = session.fighter_named(name, None).unwrap().id;
    session.fighter_details(id).unwrap().view.status_text
}

/// The demo's gang as it was before either battle.
fn ours_before(name: &str) -> rapsheet::campaign::Gang {
    let dir = util::temp();
    let path = dir.path().join("demo.rapsheet");
    Session::create_demo(&path)
        .unwrap()
        .gang_named(name)
        .unwrap()
}

fn ours_fighter_before(name: &str) -> rapsheet::campaign::Fighter {
    let dir = util::temp();
    let path = dir.path().join("demo.rapsheet");
    Session::create_demo(&path)
        .unwrap()
        .fighter_named(name, None)
        .unwrap()
}

/// 29.1 in the app: two battles merge with nothing to choose, what both
/// changed listed as kept.
#[test]
fn the_app_merges_two_battles_with_nothing_to_choose() {
    use egui_kittest::kittest::Queryable;
    let dir = util::temp();
    let (ours_path, theirs_path) = two_battles_between_the_same_gangs(dir.path());
    let ours = Session::open(&ours_path).unwrap();
    let mut h = egui_kittest::Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            rapsheet::ui::RapsheetApp::with_session(ours),
        );
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Merge…").click();
    h.run();
    util::type_into(&mut h, "The other copy", theirs_path.to_str().unwrap());
    h.get_by_label("Look at the merge").click();
    h.run();
    assert!(
        h.query_by_label_contains("No conflicts: nothing to choose")
            .is_some()
    );
    assert!(
        h.query_by_label_contains(
            "Both copies changed it, both kept: The Rust Saints: Supply: 1 → 2"
        )
        .is_some()
    );
    let out = dir.path().join("merged.rapsheet");
    util::type_into(&mut h, "Merged campaign file", out.to_str().unwrap());
    h.get_by_label("Write the merged campaign").click();
    h.run();
    let status = h.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("Merged into"), "{status}");
    drop(h);
    let merged = Session::open(&out).unwrap();
    assert_eq!(merged.battles().unwrap().len(), 2);
    assert!(merged.verify().unwrap().problems.is_empty());
}

/// 29.1 on the command line: a fighter dismissed on one laptop and given
/// experience on the other is the one question; both answers verify.
#[test]
fn a_fighter_dismissed_here_and_advanced_there_is_asked_once_on_the_command_line() {
    let dir = util::temp();
    let (ours_path, _) = two_copies(dir.path());
    {
        let mut ours = Session::open(&ours_path).unwrap();
        let brick = ours.fighter_named("Brick", None).unwrap().id;
        ours.dismiss(brick).unwrap();
    }
    let d = dir.path();
    let theirs = util::rapsheet(
        d,
        &[
            "fighter",
            "counter",
            "Brick",
            "Bounty",
            "3",
            "--db",
            "theirs.rapsheet",
        ],
    );
    assert!(theirs.status.success(), "{}", util::stderr(&theirs));
    let dry = util::rapsheet(
        d,
        &[
            "merge",
            "theirs.rapsheet",
            "--dry-run",
            "--db",
            "ours.rapsheet",
        ],
    );
    let text = util::stdout(&dry);
    assert!(
        text.contains("Conflict 1: Brick: dismissed in one copy, changed in the other"),
        "{text}"
    );
    assert!(!text.contains("Conflict 2"), "{text}");
    for (take, brick_there) in [("1=ours", false), ("1=theirs", true)] {
        let out = format!("merged-{take}.rapsheet");
        let run = util::rapsheet(
            d,
            &[
                "merge",
                "theirs.rapsheet",
                "-o",
                &out,
                "--take",
                take,
                "--db",
                "ours.rapsheet",
            ],
        );
        assert!(run.status.success(), "{take}: {}", util::stderr(&run));
        let merged = Session::open(&d.join(&out)).unwrap();
        assert!(merged.verify().unwrap().problems.is_empty());
        let brick = merged.fighter_named("Brick", None);
        assert_eq!(brick.is_ok(), brick_there, "{take}");
        if let Ok(brick) = brick {
            assert_eq!(brick.counters.get("bounty"), Some(&3));
        }
    }
}

/// A leader dismissed in one copy and their successor in the other:
/// merged taking the other copy's, the gang would have no leader though
/// the pack's succession names one. The merge follows the pack's
/// procedure on the merged campaign, as a record or a dismissal would: the
/// member the succession names leads, in a change of its own that undo
/// takes back.
#[test]
fn a_merge_that_leaves_a_side_without_its_leader_follows_the_succession() {
    let dir = util::temp();
    let d = dir.path();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/gloamhold.toml"),
        d.join("g.toml"),
    )
    .unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["--pack", "g.toml"];
        all.extend_from_slice(args);
        let out = util::rapsheet(d, &all);
        assert!(out.status.success(), "{args:?}: {}", util::stderr(&out));
        util::stdout(&out)
    };
    run(&["new", "--ruleset", "gloamhold", "--db", "ours.rapsheet"]);
    run(&["gang", "new", "Ashen Choir", "--db", "ours.rapsheet"]);
    run(&[
        "fighter",
        "add",
        "Mara",
        "--gang",
        "Ashen Choir",
        "--leader",
        "--db",
        "ours.rapsheet",
    ]);
    for name in ["Tobin", "Ysolde"] {
        run(&[
            "fighter",
            "add",
            name,
            "--gang",
            "Ashen Choir",
            "--db",
            "ours.rapsheet",
        ]);
    }
    run(&[
        "backup",
        "restore",
        "ours.rapsheet",
        "-o",
        "theirs.rapsheet",
    ]);
    // Ours: Mara dismissed, and Tobin, who joined first, leads.
    run(&["fighter", "dismiss", "Mara", "--db", "ours.rapsheet"]);
    // Theirs: Tobin dismissed.
    run(&["fighter", "dismiss", "Tobin", "--db", "theirs.rapsheet"]);
    let written = run(&[
        "merge",
        "theirs.rapsheet",
        "-o",
        "merged.rapsheet",
        "--all",
        "theirs",
        "--db",
        "ours.rapsheet",
    ]);
    assert!(!written.is_empty());
    let leaders = |db: &str| -> Vec<String> {
        let json = run(&["gang", "show", "Ashen Choir", "--json", "--db", db]);
        let view: serde_json::Value = serde_json::from_str(&json).unwrap();
        view["fighters"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["leader"] == true)
            .map(|f| f["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(leaders("merged.rapsheet"), ["Ysolde"]);
    let log = run(&["log", "--db", "merged.rapsheet"]);
    assert!(log.contains("Ysolde"), "{log}");
    run(&["verify", "--db", "merged.rapsheet"]);
    // Undo takes the succession back: the merge as the copies made it.
    run(&["undo", "--db", "merged.rapsheet"]);
    assert!(leaders("merged.rapsheet").is_empty());
}

/// The other copy has done nothing since the two parted: the window says
/// there is nothing to merge and offers no merged file to write.
#[test]
fn a_merge_with_nothing_to_bring_in_offers_no_file() {
    use egui_kittest::kittest::Queryable;
    let dir = util::temp();
    let ours_path = dir.path().join("ours.rapsheet");
    drop(Session::create_demo_of(&ours_path, "wayfarer").unwrap());
    let theirs_path = dir.path().join("theirs.rapsheet");
    std::fs::copy(&ours_path, &theirs_path).unwrap();
    let mut h = egui_kittest::Harness::builder()
        .with_size([1000.0, 700.0])
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            rapsheet::ui::RapsheetApp::with_session(Session::open(&ours_path).unwrap()),
        );
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Merge…").click();
    h.run();
    util::type_into(&mut h, "The other copy", theirs_path.to_str().unwrap());
    h.get_by_label("Look at the merge").click();
    h.run();
    assert!(
        h.query_by_label_contains("there is nothing to merge")
            .is_some()
    );
    assert!(h.query_by_label("Write the merged campaign").is_none());
}
