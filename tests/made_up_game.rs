#![allow(clippy::unwrap_used, clippy::expect_used)]

//! A game no Rust code knows: `tests/packs/skyfarers.toml`, with its own
//! words for everything (Knacks, Aether, a Cloud Race, crews shot down),
//! plays a campaign through the command line (`--pack`) and the app. Every
//! word the player reads comes from the pack.

mod util;

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rapsheet::session::{Session, builtin_registry};
use rapsheet::ui::RapsheetApp;
use util::{rapsheet, stderr, stdout, temp};

fn pack_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/skyfarers.toml")
}

/// Runs `rapsheet --pack skyfarers.toml ARGS --db c.rapsheet` and insists
/// it worked.
fn sky(dir: &Path, args: &[&str]) -> String {
    let pack = pack_file();
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend(["--db", "c.rapsheet"]);
    let out = rapsheet(dir, &all);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
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
    let mut registry = builtin_registry().unwrap();
    registry
        .add_text(
            "skyfarers.toml",
            &std::fs::read_to_string(pack_file()).unwrap(),
        )
        .unwrap();
    let mut session = Session::create_with(
        &dir.path().join("c.rapsheet"),
        "The Long Sky",
        "skyfarers",
        registry,
    )
    .unwrap();
    let (crew, _) = session.found_gang("Cirrus Crew", None).unwrap();
    session
        .recruit(
            crew,
            rapsheet::campaign::commands::NewFighter {
                name: "Wren".into(),
                leader: true,
                ..Default::default()
            },
        )
        .unwrap();
    let mut harness = Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    for word in ["NERVE", "HULL", "Change Aether…", "Renown", "Wren"] {
        assert!(
            harness.query_by_label_contains(word).is_some(),
            "the app does not show “{word}”"
        );
    }
}
