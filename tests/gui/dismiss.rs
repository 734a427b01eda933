//! Dismissing a fighter who has a history: in every built-in pack the
//! fighter leaves the roster, the records and the chronicle still name
//! them, undo brings them back exactly, and the commands that meet a
//! fighter or gang with a history (rename, an entry removed, bundles,
//! merge) keep working around them.

use crate::util;

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rapsheet::campaign::FighterId;
use rapsheet::session::Session;
use rapsheet::ui::{Action, FighterAction, GangAction, RapsheetApp};

const PACKS: [&str; 6] = [
    "heartbreaker",
    "heartbreaker-escalation",
    "wayfarer",
    "hardwired28",
    "hwc",
    "yearzero",
];

/// Runs the command line in `dir`, on `c.rapsheet`, and expects success.
fn ok(dir: &Path, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--db", "c.rapsheet"]);
    let out = util::rapsheet(dir, &all);
    assert!(
        out.status.success(),
        "rapsheet {args:?}: {}",
        util::stderr(&out)
    );
    util::stdout(&out)
}

/// Runs the command line in `dir`, on `c.rapsheet`, and expects a one-line
/// refusal; returns it.
fn refused(dir: &Path, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--db", "c.rapsheet"]);
    let out = util::rapsheet(dir, &all);
    assert!(!out.status.success(), "rapsheet {args:?} was accepted");
    let err = util::stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("constraint failed"), "in words: {err}");
    err
}

/// A generated campaign of `pack` with a few records, and a fighter who
/// took part in one and whom the chronicle names: (their id, name, gang's
/// name).
fn campaign_with_history(dir: &Path, pack: &str) -> (FighterId, String, String) {
    ok(dir, &["new", "--ruleset", pack, "--name", "History"]);
    ok(
        dir,
        &[
            "gen",
            "--gangs",
            "3",
            "--fighters-per-gang",
            "5",
            "--battles",
            "6",
            "--seed",
            "2",
        ],
    );
    // The generator's campaign replays clean in every pack.
    assert!(ok(dir, &["verify"]).contains("sound"), "{pack}");
    ok(
        dir,
        &[
            "export",
            "campaign",
            "--format",
            "json",
            "-o",
            "before.json",
        ],
    );
    let chronicle = std::fs::read_to_string(dir.join("before.json")).unwrap();
    let session = Session::open(&dir.join("c.rapsheet")).unwrap();
    let fighter = session
        .battles()
        .unwrap()
        .iter()
        .flat_map(|b| b.fighters.iter().map(|f| f.fighter))
        .filter_map(|id| session.fighter(id).ok())
        .find(|f| {
            [" ", ":"]
                .iter()
                .any(|end| chronicle.contains(&format!("{}{end}", f.name)))
        })
        .unwrap_or_else(|| panic!("{pack}: a fighter the chronicle names"));
    let gang = session.gang(fighter.gang).unwrap();
    (fighter.id, fighter.name, gang.name)
}

#[test]
fn a_fighter_who_took_part_in_a_record_is_dismissed_in_every_pack_and_undo_brings_them_back() {
    for pack in PACKS {
        let dir = util::temp();
        let d = dir.path();
        let (id, name, gang) = campaign_with_history(d, pack);
        let before = Session::open(&d.join("c.rapsheet"))
            .unwrap()
            .dump()
            .unwrap();

        let said = ok(d, &["fighter", "dismiss", &name]);
        assert!(
            said.contains(&format!("Dismissed {name}")),
            "{pack}: {said}"
        );
        // Off the roster and found by no command…
        let show = ok(d, &["gang", "show", &gang, "--json"]);
        assert!(!show.contains(&format!("\"{name}\"")), "{pack}: {show}");
        let err = refused(d, &["fighter", "show", &name]);
        // In the pack's word for a fighter (Wayfarer: unit).
        let registry = rapsheet::session::builtin_registry().unwrap();
        let word = &registry.get(pack).unwrap().words.fighter;
        assert!(err.contains(&format!("no {word} called")), "{pack}: {err}");
        // …but the records and the chronicle still name them.
        ok(
            d,
            &[
                "export",
                "campaign",
                "--format",
                "json",
                "-o",
                "chronicle.json",
            ],
        );
        let chronicle = std::fs::read_to_string(d.join("chronicle.json")).unwrap();
        assert!(
            chronicle.contains(&name),
            "{pack}: the chronicle names {name}"
        );
        let log = ok(d, &["log"]);
        assert!(log.contains(&format!("{name} left")), "{pack}: {log}");
        assert!(ok(d, &["verify"]).contains("sound"), "{pack}");

        // The name stays with them in the gang's history.
        let err = refused(d, &["fighter", "add", &name, "--gang", &gang]);
        assert!(err.contains("keeps that name"), "{pack}: {err}");

        ok(d, &["undo"]);
        let back = Session::open(&d.join("c.rapsheet")).unwrap();
        assert_eq!(back.dump().unwrap(), before, "{pack}: exactly as before");
        assert_eq!(back.fighter(id).unwrap().name, name);
        assert!(ok(d, &["verify"]).contains("sound"), "{pack}");
        ok(d, &["fighter", "show", &name]);
    }
}

#[test]
fn a_fighter_who_never_took_part_is_removed_and_their_name_is_free_again() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["demo"]);
    ok(d, &["fighter", "add", "Stray", "--gang", "Neon Jackals"]);
    ok(d, &["fighter", "dismiss", "Stray"]);
    ok(d, &["fighter", "add", "Stray", "--gang", "Neon Jackals"]);
    assert!(ok(d, &["verify"]).contains("sound"));
}

#[test]
fn commands_that_meet_a_dismissed_fighters_history_keep_working() {
    let dir = util::temp();
    let d = dir.path();
    let (_, name, gang) = campaign_with_history(d, "heartbreaker");
    let session = Session::open(&d.join("c.rapsheet")).unwrap();
    let battle = &session.battles().unwrap()[0];
    // Another fighter of the first record, still on the roster.
    let other = battle
        .fighters
        .iter()
        .map(|f| session.fighter(f.fighter).unwrap())
        .find(|f| f.name != name && f.status.on_roster() && !f.quirks.is_empty())
        .expect("another fighter who fought");
    drop(session);
    std::fs::copy(d.join("c.rapsheet"), d.join("theirs.rapsheet")).unwrap();

    ok(d, &["fighter", "dismiss", &name]);
    // Renames: the gang, and another fighter; not to the dismissed name.
    ok(d, &["gang", "rename", &gang, "Renamed Crew"]);
    ok(d, &["fighter", "rename", &other.name, "Someone Else"]);
    let err = refused(d, &["fighter", "rename", "Someone Else", &name]);
    assert!(err.contains("keeps that name"), "{err}");
    // An entry removed from a fighter who fought.
    let entry = &other.quirks[0].quirk;
    ok(d, &["fighter", "quirk", "remove", "Someone Else", entry]);
    // Bundles: the gang without them, and the whole campaign with them.
    ok(
        d,
        &[
            "bundle",
            "export",
            "--gang",
            "Renamed Crew",
            "-o",
            "crew.json",
        ],
    );
    let crew = std::fs::read_to_string(d.join("crew.json")).unwrap();
    assert!(
        !crew.contains(&format!("\"{name}\"")),
        "a dismissed fighter stays home"
    );
    ok(d, &["bundle", "export", "--whole", "-o", "whole.json"]);
    let out = util::rapsheet(
        d,
        &[
            "bundle",
            "import",
            "whole.json",
            "--whole",
            "--db",
            "again.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
    let again = Session::open(&d.join("again.rapsheet")).unwrap();
    let ours = Session::open(&d.join("c.rapsheet")).unwrap();
    assert_eq!(again.dump().unwrap(), ours.dump().unwrap());
    drop((again, ours));
    // Merge: the other copy dismissed nobody; ours did.
    let out = util::rapsheet(
        d,
        &[
            "merge",
            "theirs.rapsheet",
            "-o",
            "merged.rapsheet",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
    let merged = util::rapsheet(d, &["verify", "--db", "merged.rapsheet"]);
    assert!(util::stdout(&merged).contains("sound"));
    // And the other way round: their copy takes ours in.
    let out = util::rapsheet(
        d,
        &[
            "merge",
            "c.rapsheet",
            "-o",
            "merged2.rapsheet",
            "--db",
            "theirs.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
    let merged = util::rapsheet(d, &["verify", "--db", "merged2.rapsheet"]);
    assert!(util::stdout(&merged).contains("sound"));
    assert!(ok(d, &["verify"]).contains("sound"));
}

#[test]
fn the_app_dismisses_a_fighter_who_fought_and_ctrl_z_brings_them_back() {
    let dir = util::temp();
    let d = dir.path();
    let (id, name, _) = campaign_with_history(d, "heartbreaker");
    let session = Session::open(&d.join("c.rapsheet")).unwrap();
    let mut harness = Harness::builder()
        // Tall enough that the editor's foot, with the button, is on screen.
        .with_size([1280.0, 2400.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness
        .state_mut()
        .run_action(Action::Gang(GangAction::Select(
            Session::open(&d.join("c.rapsheet"))
                .unwrap()
                .fighter(id)
                .unwrap()
                .gang,
        )));
    harness.run();
    harness
        .state_mut()
        .run_action(Action::Fighter(FighterAction::Select(Some(id))));
    harness.run();
    harness.get_by_label("Dismiss fighter").click();
    harness.run();

    let status = harness.state().status_text().unwrap_or_default().to_owned();
    assert!(
        status.starts_with("Dismissed ") && status.ends_with("Edit ▸ Undo brings them back"),
        "status: {status:?}"
    );
    assert!(!status.contains("constraint"), "{status}");
    let reopened = Session::open(&d.join("c.rapsheet")).unwrap();
    assert!(reopened.fighter(id).is_err(), "off the rolls");
    drop(reopened);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    let reopened = Session::open(&d.join("c.rapsheet")).unwrap();
    assert_eq!(reopened.fighter(id).unwrap().name, name);
}
