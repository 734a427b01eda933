//! Games no Rust code knows play campaigns through the command line
//! (`--pack`) and the app: `tests/packs/skyfarers.toml`, battles between
//! crews with their own words for everything (Knacks, Aether, a Cloud
//! Race, crews shot down), and `tests/packs/lantern-road.toml`, a party
//! game of nights on the road (one troupe, no scenario, no winner, counters
//! changed and refilled, omens read during a night). Every word the player
//! reads comes from the pack.

use crate::util;

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rapsheet::session::{Session, builtin_registry};
use rapsheet::ui::{FighterAction, RapsheetApp};
use util::{rapsheet, stderr, temp};

fn pack_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/skyfarers.toml")
}

/// Runs `rapsheet --pack PACK ARGS --db c.rapsheet` and insists it worked.
fn with_pack(pack: &Path, dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    util::ok(dir, &all)
}

/// `with_pack` for the Skyfarers.
fn sky(dir: &Path, args: &[&str]) -> String {
    with_pack(&pack_file(), dir, args)
}

fn aether(dir: &Path, crew: &str) -> i64 {
    let view: serde_json::Value =
        serde_json::from_str(&sky(dir, &["gang", "show", crew, "--json"])).unwrap();
    view["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == "Aether")
        .map(|r| r["amount"].as_i64().unwrap())
        .unwrap()
}

/// The built-in packs and the made-up pack in `file`.
fn registry_with(file: &Path) -> rapsheet::rules::Registry {
    let mut registry = builtin_registry().unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();
    registry
        .add_text(name, &std::fs::read_to_string(file).unwrap())
        .unwrap();
    registry
}

/// A new campaign of a made-up pack at `path` with one gang and its
/// leader, open in the app.
fn app_with(
    path: &Path,
    pack: &Path,
    ruleset: &str,
    gang: &str,
    leader: &str,
) -> Harness<'static, RapsheetApp> {
    let mut session =
        Session::create_with(path, "A campaign", ruleset, registry_with(pack)).unwrap();
    let (id, _) = session.found_gang(gang, None).unwrap();
    session
        .recruit(
            id,
            rapsheet::campaign::commands::NewFighter {
                name: leader.into(),
                leader: true,
                ..Default::default()
            },
        )
        .unwrap();
    let mut harness = Harness::builder()
        .with_size([1280.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness
}

#[test]
fn a_made_up_game_plays_a_campaign_through_the_command_line() {
    let dir = temp();
    let d = dir.path();
    sky(
        d,
        &["new", "--ruleset", "skyfarers", "--name", "The Long Sky"],
    );
    sky(d, &["gang", "new", "Cirrus Crew"]);
    sky(d, &["gang", "new", "Nimbus Crew"]);
    sky(
        d,
        &[
            "fighter",
            "add",
            "Wren",
            "--gang",
            "Cirrus Crew",
            "--leader",
            "--quirk",
            "Barrel Roll",
        ],
    );
    sky(
        d,
        &[
            "fighter",
            "add",
            "Kite",
            "--gang",
            "Nimbus Crew",
            "--quirk",
            "steady hands",
        ],
    );
    let shown = sky(d, &["gang", "show", "Cirrus Crew"]);
    assert!(
        shown.contains("NERVE") && shown.contains("Barrel Roll"),
        "{shown}"
    );

    std::fs::write(
        d.join("race.json"),
        serde_json::json!({
            "scenario": "Cloud Race",
            "gangs": [
                {"gang": "Cirrus Crew", "counts": {"rings": 3}},
                {"gang": "Nimbus Crew", "counts": {"rings": 1},
                 "fighters": [{"fighter": "Kite", "outcome": "shot-down", "downed_by": "Wren"}]},
            ],
            "winner": "Cirrus Crew",
        })
        .to_string(),
    )
    .unwrap();
    let recorded = sky(d, &["battle", "record", "race.json"]);
    assert!(recorded.contains("Aether"), "{recorded}");
    // The pack's epilogue: 1 Aether a ring, 2 to the winner.
    assert_eq!(aether(d, "Cirrus Crew"), 5);
    assert_eq!(aether(d, "Nimbus Crew"), 1);

    sky(
        d,
        &["export", "campaign", "--format", "md", "-o", "story.md"],
    );
    let story = std::fs::read_to_string(d.join("story.md")).unwrap();
    assert!(story.contains("Cloud Race"), "{story}");
    assert!(story.contains("Shot down by"), "{story}");

    sky(d, &["cards", "--gang", "Cirrus Crew", "-o", "cards.pdf"]);
    let pdf = std::fs::read(d.join("cards.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    if let Ok(out) = std::process::Command::new("pdftotext")
        .arg(d.join("cards.pdf"))
        .arg("-")
        .output()
    {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("KNACKS") && text.contains("NERVE"), "{text}");
    } else {
        eprintln!("pdftotext is not installed: the card's words were not read back");
    }

    sky(d, &["battle", "undo"]);
    assert_eq!(aether(d, "Cirrus Crew"), 0);
    sky(d, &["verify"]);

    // Without its pack the campaign's gangs cannot be read as a game.
    let out = rapsheet(d, &["gang", "show", "Cirrus Crew", "--db", "c.rapsheet"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("skyfarers"), "{}", stderr(&out));
}

#[test]
fn a_made_up_game_shows_its_own_words_in_the_app() {
    let dir = temp();
    let harness = app_with(
        &dir.path().join("c.rapsheet"),
        &pack_file(),
        "skyfarers",
        "Cirrus Crew",
        "Wren",
    );
    for word in ["NERVE", "HULL", "Change Aether…", "Renown", "Wren"] {
        assert!(
            harness.query_by_label_contains(word).is_some(),
            "the app does not show “{word}”"
        );
    }
}

#[test]
fn the_app_calls_a_made_up_games_leader_by_its_word() {
    let dir = temp();
    let mut harness = app_with(
        &dir.path().join("c.rapsheet"),
        &pack_file(),
        "skyfarers",
        "Cirrus Crew",
        "Wren",
    );
    let wren = harness.state().gang_view().expect("view").fighters[0].id;
    harness
        .state_mut()
        .run_action(rapsheet::ui::Action::Fighter(FighterAction::Select(Some(
            wren,
        ))));
    harness.run();
    assert!(harness.query_by_label("★ Captain").is_some());
    assert!(harness.query_by_label("Captain").is_some());
    for built_in in ["★ Leader", "Leader"] {
        assert!(
            harness.query_by_label(built_in).is_none(),
            "the app shows “{built_in}”"
        );
    }
}

fn road_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/lantern-road.toml")
}

/// `with_pack` for the Lantern Road.
fn road(dir: &Path, args: &[&str]) -> String {
    with_pack(&road_file(), dir, args)
}

fn counter(dir: &Path, wanderer: &str, id: &str) -> i64 {
    let view: serde_json::Value =
        serde_json::from_str(&road(dir, &["fighter", "show", wanderer, "--json"])).unwrap();
    view["counters"][id]
        .as_i64()
        .unwrap_or_else(|| panic!("no counter {id} in {view:#}"))
}

#[test]
fn a_made_up_party_game_plays_nights_through_the_command_line() {
    let dir = temp();
    let d = dir.path();
    road(
        d,
        &[
            "new",
            "--ruleset",
            "lantern-road",
            "--name",
            "The Long Walk",
        ],
    );
    road(d, &["gang", "new", "The Moth Troupe"]);
    road(
        d,
        &[
            "fighter",
            "add",
            "Ilse",
            "--gang",
            "The Moth Troupe",
            "--leader",
        ],
    );
    road(d, &["fighter", "add", "Bram", "--gang", "The Moth Troupe"]);

    // One night: Ilse burns two measures of oil and reads the omens (a 4,
    // A Kind Stranger); Bram is lost in the dark and spends the Long Night.
    std::fs::write(
        d.join("night.json"),
        serde_json::json!({
            "gangs": [{"gang": "The Moth Troupe", "fighters": [
                {"fighter": "Ilse", "counters": {"oil": -2, "dread": 1}},
                {"fighter": "Bram", "outcome": "lost"},
            ]}],
            "table_results": [{"fighter": "Ilse", "table": "Omens of the Road", "total": 4}],
            "dice": [{"roll": "long-night: Bram", "faces": [2]}],
        })
        .to_string(),
    )
    .unwrap();
    let out = road(d, &["battle", "record", "night.json"]);
    assert!(out.starts_with("Recorded night #1"), "{out}");
    // The troupe's Ember from the omen, Ilse's Dread, her lantern refilled
    // at dawn (the reset), Bram's Grit lost to the Long Night.
    let shown = road(d, &["gang", "show", "The Moth Troupe"]);
    assert!(shown.contains("Embers 1"), "{shown}");
    assert_eq!(counter(d, "Ilse", "dread"), 1);
    assert_eq!(counter(d, "Ilse", "oil"), 3);
    assert!(out.contains("Ilse: Lamp oil 3 → 1 (-2)"), "{out}");
    assert!(out.contains("Ilse: Lamp oil 1 → 3"), "{out}");
    assert!(shown.contains("GRIT 2"), "{shown}");

    // A second night of a party game names no winner, and cannot.
    std::fs::write(
        d.join("won.json"),
        serde_json::json!({"gangs": [{"gang": "The Moth Troupe"}], "winner": "The Moth Troupe"})
            .to_string(),
    )
    .unwrap();
    let pack = road_file();
    let out = rapsheet(
        d,
        &[
            "--pack",
            pack.to_str().unwrap(),
            "battle",
            "record",
            "won.json",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("a night of The Lantern Road has no winner"),
        "{}",
        stderr(&out)
    );

    road(
        d,
        &["export", "campaign", "--format", "md", "-o", "story.md"],
    );
    let story = std::fs::read_to_string(d.join("story.md")).unwrap();
    assert!(story.contains("Night \\#1"), "{story}");
    assert!(story.contains("Lost in the dark"), "{story}");

    road(
        d,
        &["cards", "--gang", "The Moth Troupe", "-o", "cards.pdf"],
    );
    if let Ok(out) = std::process::Command::new("pdftotext")
        .arg(d.join("cards.pdf"))
        .arg("-")
        .output()
    {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("GRIT") && text.contains("GIFTS"), "{text}");
    }

    let out = road(d, &["battle", "undo"]);
    assert!(out.contains("Took back night #1"), "{out}");
    assert_eq!(counter(d, "Ilse", "dread"), 0);
    let shown = road(d, &["gang", "show", "The Moth Troupe"]);
    assert!(
        shown.contains("Embers 0") && shown.contains("GRIT 3"),
        "{shown}"
    );
    road(d, &["verify"]);
}

#[test]
fn a_made_up_party_game_records_a_night_in_the_app() {
    let dir = temp();
    let path = dir.path().join("c.rapsheet");
    let mut harness = app_with(
        &path,
        &road_file(),
        "lantern-road",
        "The Moth Troupe",
        "Ilse",
    );
    // The pack's words for its troupes and wanderers.
    for word in ["Troupes", "Found a troupe", "New wanderer name"] {
        assert!(
            harness.query_by_label_contains(word).is_some(),
            "the app does not show “{word}”"
        );
    }
    harness.get_by_label("Record").click();
    harness.run();
    for word in [
        "Record a night",
        "Troupe 1",
        "Lamp oil",
        "Dread",
        "During the night",
    ] {
        assert!(
            harness.query_all_by_label_contains(word).next().is_some(),
            "the record screen does not show “{word}”"
        );
    }
    // A party game has no winner and no scenario.
    assert!(harness.query_by_label_contains("won").is_none());
    assert!(harness.query_by_label("Scenario").is_none());
    harness.get_by_label("Add a table result").click();
    harness.run();
    harness.get_by_label("Rolled at the table").click();
    harness.run();
    harness.get_by_label("Commit night").click();
    harness.run();
    let status = harness.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("Night #1 recorded"), "{status}");
    let nights = || {
        let mut registry = builtin_registry().unwrap();
        registry
            .add_text(
                "lantern-road.toml",
                &std::fs::read_to_string(road_file()).unwrap(),
            )
            .unwrap();
        Session::open_with(&path, registry)
            .unwrap()
            .battles()
            .unwrap()
    };
    let recorded = nights();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].scenario, None);
    assert_eq!(recorded[0].winner, None);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert!(nights().is_empty(), "Ctrl+Z takes the night back");
}

/// 30.10: `--pack FILE` is honoured by the commands that read packs with
/// no campaign open: the list of rulesets, a roll in the pack's dice, and
/// the demo (refused, saying which packs have one, for a pack with none).
#[test]
fn a_pack_file_is_read_by_rulesets_roll_and_demo() {
    let dir = util::temp();
    let pack = pack_file();
    let pack = pack.to_str().unwrap();
    let run = |args: &[&str]| util::rapsheet(dir.path(), args);
    let listed = run(&["--pack", pack, "rulesets"]);
    assert!(
        util::stdout(&listed).contains("Skyfarers (skyfarers)"),
        "{}",
        util::stdout(&listed)
    );
    let rolled = run(&[
        "--pack",
        pack,
        "roll",
        "d6",
        "--seed",
        "3",
        "--ruleset",
        "skyfarers",
    ]);
    assert!(rolled.status.success(), "{}", util::stderr(&rolled));
    let demo = run(&[
        "--pack",
        pack,
        "demo",
        "--ruleset",
        "skyfarers",
        "--db",
        "d.rapsheet",
    ]);
    assert!(!demo.status.success());
    assert!(
        util::stderr(&demo).contains("there is no demo for Skyfarers"),
        "{}",
        util::stderr(&demo)
    );
    assert!(!dir.path().join("d.rapsheet").exists());
    // Without the file, the game is not there.
    let without = run(&["roll", "d6", "--ruleset", "skyfarers"]);
    assert!(!without.status.success());
}

/// 30.10: a game that is only a file is kept in the campaign with the same
/// `--pack` it was started with (not refused as a pack of this build),
/// after which the campaign opens without the file, and `house show` says
/// what it is.
#[test]
fn a_game_read_from_a_file_is_kept_in_the_campaign_and_shown() {
    let dir = util::temp();
    let pack = pack_file();
    let pack = pack.to_str().unwrap();
    sky(
        dir.path(),
        &["new", "--name", "Sky", "--ruleset", "skyfarers"],
    );
    let kept = sky(dir.path(), &["house", "keep", pack]);
    assert!(kept.contains("Skyfarers (skyfarers)"), "{kept}");
    // No --pack from here on: the campaign carries its game.
    util::ok(dir.path(), &["gang", "new", "Kestrels"]);
    let shown = util::ok(dir.path(), &["house", "show", "skyfarers"]);
    assert!(
        shown.contains("Skyfarers (skyfarers), a whole game of the group's own"),
        "{shown}"
    );
    assert!(shown.contains("Checks: no errors"), "{shown}");
    util::ok(dir.path(), &["verify"]);
    // A pack of this build is still not the group's to keep.
    let builtin = dir.path().join("hb.toml");
    std::fs::write(
        &builtin,
        "[pack]\nid = \"heartbreaker\"\nname = \"Mine\"\nformat = 1\n",
    )
    .unwrap();
    let refused = util::rapsheet(
        dir.path(),
        &[
            "house",
            "keep",
            builtin.to_str().unwrap(),
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!refused.status.success());
    assert!(
        util::stderr(&refused).contains("is a pack of this build"),
        "{}",
        util::stderr(&refused)
    );
}

/// The words of the app's own first game (and of its kind of game) that a
/// made-up game with words of its own must never show.
const BUILT_IN_NOUNS: [&str; 10] = [
    "gang", "gangs", "fighter", "fighters", "quirk", "quirks", "leader", "battle", "battles",
    "injuries",
];

/// The built-in nouns that stand as whole words in `text`, any case.
fn built_in_nouns(text: &str) -> Vec<&'static str> {
    let lower = text.to_lowercase();
    let words: std::collections::BTreeSet<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    BUILT_IN_NOUNS
        .iter()
        .copied()
        .filter(|n| words.contains(n))
        .collect()
}

fn race(dir: &Path, name: &str, winner: &str) {
    std::fs::write(
        dir.join(name),
        serde_json::json!({
            "scenario": "Cloud Race",
            "gangs": [
                {"gang": "Cirrus Crew", "counts": {"rings": 2}},
                {"gang": "Nimbus Crew", "counts": {"rings": 1},
                 "fighters": [{"fighter": "Kite", "outcome": "shot-down", "downed_by": "Wren"}]},
            ],
            "winner": winner,
        })
        .to_string(),
    )
    .unwrap();
}

#[test]
fn every_message_of_a_made_up_game_speaks_its_own_nouns() {
    let dir = temp();
    let d = dir.path();
    // Every output, with the command that printed it.
    let said = std::cell::RefCell::new(Vec::<(String, String)>::new());
    let run = |args: &[&str]| -> String {
        let out = sky(d, args);
        said.borrow_mut().push((args.join(" "), out.clone()));
        out
    };
    run(&["new", "--ruleset", "skyfarers", "--name", "The Long Sky"]);
    // Every pack, each in its own words (the built-in ones in theirs).
    let listed = sky(d, &["rulesets"]);
    let line = listed.lines().find(|l| l.starts_with("Skyfarers")).unwrap();
    assert!(line.contains(", 2 knacks,"), "{listed}");
    run(&["gang", "new", "Cirrus Crew"]);
    run(&["gang", "new", "Nimbus Crew"]);
    run(&[
        "fighter",
        "add",
        "Wren",
        "--gang",
        "Cirrus Crew",
        "--leader",
        "--quirk",
        "Barrel Roll",
    ]);
    run(&["fighter", "add", "Kite", "--gang", "Nimbus Crew"]);
    run(&["fighter", "add", "Lark", "--gang", "Nimbus Crew"]);
    // Refusals speak the game's words too.
    let file = pack_file();
    let refused = |args: &[&str]| -> String {
        let mut all = vec!["--pack", file.to_str().unwrap()];
        all.extend_from_slice(args);
        all.extend(["--db", "c.rapsheet"]);
        let out = rapsheet(d, &all);
        assert!(!out.status.success(), "{args:?} was not refused");
        let err = stderr(&out);
        said.borrow_mut().push((args.join(" "), err.clone()));
        err
    };
    let taken = refused(&["gang", "new", "Cirrus Crew"]);
    assert!(taken.contains("already a crew called"), "{taken}");
    let taken = refused(&["fighter", "add", "Kite", "--gang", "Nimbus Crew"]);
    assert!(taken.contains("already has a flyer called"), "{taken}");
    let unknown = refused(&[
        "fighter",
        "add",
        "Gull",
        "--gang",
        "Nimbus Crew",
        "--quirk",
        "Loop",
    ]);
    assert!(unknown.contains("is not a knack of"), "{unknown}");
    let nobody = refused(&["fighter", "show", "Nobody"]);
    assert!(nobody.contains("no flyer called"), "{nobody}");
    let crews = run(&["gang", "list"]);
    assert!(
        crews.contains("1 flyer") && crews.contains("2 flyers"),
        "{crews}"
    );
    run(&["gang", "show", "Cirrus Crew"]);
    run(&["fighter", "show", "Wren"]);

    race(d, "one.json", "Cirrus Crew");
    let recorded = run(&["battle", "record", "one.json"]);
    assert!(recorded.contains("sortie #1"), "{recorded}");
    let verified = run(&["verify"]);
    assert!(verified.contains(", 1 sortie,"), "{verified}");
    race(d, "two.json", "Nimbus Crew");
    run(&["battle", "record", "two.json"]);
    let verified = run(&["verify"]);
    assert!(verified.contains(", 2 sorties,"), "{verified}");
    run(&["battle", "list"]);

    let log = run(&["log"]);
    assert!(log.contains("Wren as captain"), "{log}");
    run(&["export", "campaign", "--format", "md", "-o", "story.md"]);
    let story = std::fs::read_to_string(d.join("story.md")).unwrap();
    assert!(story.contains("Sorties"), "{story}");
    assert!(story.contains("2 flyers of theirs"), "{story}");
    said.borrow_mut().push(("story.md".into(), story));
    run(&["export", "campaign", "--format", "html", "-o", "story.html"]);
    let html = std::fs::read_to_string(d.join("story.html")).unwrap();
    said.borrow_mut().push(("story.html".into(), html));

    run(&["cards", "--gang", "Cirrus Crew", "-o", "cards.pdf"]);
    run(&["export", "campaign", "--format", "pdf", "-o", "story.pdf"]);
    for pdf in ["cards.pdf", "story.pdf"] {
        let bytes = std::fs::read(d.join(pdf)).unwrap();
        assert!(bytes.starts_with(b"%PDF"));
        if let Ok(out) = std::process::Command::new("pdftotext")
            .arg(d.join(pdf))
            .arg("-")
            .output()
        {
            said.borrow_mut().push((
                pdf.into(),
                String::from_utf8_lossy(&out.stdout).into_owned(),
            ));
        }
        if let Ok(out) = std::process::Command::new("pdfinfo")
            .arg(d.join(pdf))
            .output()
        {
            let info = String::from_utf8_lossy(&out.stdout);
            if pdf == "cards.pdf" {
                assert!(info.contains("Flyer cards"), "{info}");
            }
            said.borrow_mut().push((
                pdf.into(),
                String::from_utf8_lossy(&out.stdout).into_owned(),
            ));
        }
    }

    for (what, text) in said.borrow().iter() {
        let found = built_in_nouns(text);
        assert!(
            found.is_empty(),
            "`{what}` says {found:?} for a game that has words of its own:\n{text}"
        );
    }
}

/// A pool of dice says what the pack calls its parts: the Lantern Road's
/// lamp and shadow dice, flames and sparks, a guttering lamp, and pressing
/// on; none of the words of the game the pool came from.
#[test]
fn a_made_up_pool_of_dice_is_said_in_the_packs_words() {
    let dir = temp();
    let d = dir.path();
    road(
        d,
        &["new", "--ruleset", "lantern-road", "--name", "Dark Miles"],
    );
    road(d, &["gang", "new", "The Moth Troupe"]);
    road(
        d,
        &[
            "fighter",
            "add",
            "Ilse",
            "--gang",
            "The Moth Troupe",
            "--leader",
        ],
    );
    road(d, &["fighter", "counter", "Ilse", "dread", "2"]);
    let (mut pressed, mut guttered) = (false, false);
    for seed in 1..=40 {
        let seed = seed.to_string();
        let args = [
            "fighter",
            "check",
            "Ilse",
            "brave-the-dark",
            "--seed",
            &seed,
        ];
        let said = road(d, &args);
        // Grit 3 + Wile 2: five lamp dice; Dread 2: two shadow dice.
        assert!(said.contains("Ilse Brave the Dark: 5 lamp ["), "{said}");
        assert!(said.contains("], 2 shadow ["), "{said}");
        assert!(said.contains(" flame") && said.contains(" spark"), "{said}");
        for word in ["base", "stress", "success", "stunt", "panic", "push"] {
            assert!(!said.to_lowercase().contains(word), "{word} in: {said}");
        }
        if said.contains("; may be pressed on") && !pressed {
            let mut push = args.to_vec();
            push.push("--push");
            let again = road(d, &push);
            assert!(again.contains("\nPressed on:\n"), "{again}");
            assert!(again.contains("Dread 2 → 3"), "{again}");
            assert!(again.contains("], 3 shadow ["), "{again}");
            pressed = true;
            road(d, &["undo"]);
        }
        if said.contains("; the lamp gutters") {
            guttered = true;
            let mut push = args.to_vec();
            push.push("--push");
            let pack = road_file();
            let mut all = vec!["--pack", pack.to_str().unwrap()];
            all.extend(push);
            all.extend(["--db", "c.rapsheet"]);
            let out = rapsheet(d, &all);
            assert!(!out.status.success());
            assert!(
                stderr(&out).contains("Brave the Dark cannot be pressed on after the lamp gutters"),
                "{}",
                stderr(&out)
            );
        }
    }
    assert!(pressed, "some seed of forty lets the roll be pressed on");
    assert!(guttered, "some seed of forty gutters the lamp");
}
