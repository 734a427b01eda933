//! A group's own game travels (issue 40, point 5): a campaign made as
//! `docs/packs.md` makes it — `new --ruleset fogbound --pack FILE`, played
//! with the pack file, then `house keep` — goes through a whole bundle and
//! a merge on a laptop that has no pack file, and the campaign made there
//! verifies and plays. A game that travels is checked as `house keep`
//! checks one.

use crate::util;

use std::path::{Path, PathBuf};

fn guide_files() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/packs.in")
}

/// `rapsheet ARGS` in `dir`, which must work: its output.
fn run(dir: &Path, args: &[&str]) -> String {
    let out = util::rapsheet(dir, args);
    assert!(out.status.success(), "{args:?}: {}", util::stderr(&out));
    util::stdout(&out)
}

/// `rapsheet ARGS` in `dir`, which must be refused: its error.
fn refused(dir: &Path, args: &[&str]) -> String {
    let out = util::rapsheet(dir, args);
    assert!(!out.status.success(), "{args:?} was not refused");
    util::stderr(&out)
}

/// The guide's campaign, `night.rapsheet` in `dir`: made and played with
/// the pack files of each step, its game kept at the end (step 6).
fn the_long_night(dir: &Path) {
    for entry in std::fs::read_dir(guide_files()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let db = ["--db", "night.rapsheet"];
    let with = |pack: &str, args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--pack", pack]);
        all.extend(db);
        run(dir, &all)
    };
    with(
        "fogbound-1.toml",
        &["new", "--ruleset", "fogbound", "--name", "The Long Night"],
    );
    for (gang, fighters) in [
        ("Wick Street", ["Ada", "Bram", "Cass"]),
        ("Ember Row", ["Cole", "Dell", "Esk"]),
    ] {
        with("fogbound-2.toml", &["gang", "new", gang]);
        for (i, fighter) in fighters.into_iter().enumerate() {
            let mut args = vec!["fighter", "add", fighter, "--gang", gang];
            if i == 0 {
                args.push("--leader");
            }
            if fighter == "Ada" {
                args.extend(["--quirk", "Long Pole"]);
            }
            with("fogbound-2.toml", &args);
        }
    }
    with(
        "fogbound-4.toml",
        &["battle", "record", "night1.json", "--seed", "1"],
    );
    with(
        "fogbound-5.toml",
        &["battle", "record", "night2.json", "--seed", "1"],
    );
    let kept = run(
        dir,
        &["house", "keep", "fogbound-5.toml", "--db", "night.rapsheet"],
    );
    assert!(
        kept.contains("Kept the group's own game Fogbound"),
        "{kept}"
    );
}

/// A laptop: a folder with no pack file in it.
fn laptop() -> tempfile::TempDir {
    util::temp()
}

/// The campaign at `db` in `dir` verifies, and plays a night of the game
/// it keeps with no pack file given.
fn verifies_and_plays(dir: &Path, db: &str) {
    let verified = run(dir, &["verify", "--db", db]);
    assert!(verified.contains("sound"), "{verified}");
    let kept = run(dir, &["house", "list", "--db", db]);
    assert!(kept.contains("Fogbound (fogbound)"), "{kept}");
    std::fs::copy(guide_files().join("night2.json"), dir.join("night.json")).unwrap();
    let night = run(
        dir,
        &["battle", "record", "night.json", "--seed", "7", "--db", db],
    );
    assert!(night.starts_with("Recorded night #"), "{night}");
    assert!(night.contains("Wick Street: +3 Oil"), "{night}");
    let verified = run(dir, &["verify", "--db", db]);
    assert!(verified.contains("sound"), "{verified}");
}

#[test]
fn the_guides_campaign_is_made_again_from_its_whole_bundle() {
    let home = util::temp();
    the_long_night(home.path());
    run(
        home.path(),
        &[
            "bundle",
            "export",
            "--whole",
            "-o",
            "night.json",
            "--db",
            "night.rapsheet",
        ],
    );
    let bundle: serde_json::Value =
        serde_json::from_slice(&std::fs::read(home.path().join("night.json")).unwrap()).unwrap();
    assert_eq!(
        bundle["packs"][0]["id"], "fogbound",
        "the kept game travels"
    );

    let away = laptop();
    std::fs::copy(
        home.path().join("night.json"),
        away.path().join("night.json"),
    )
    .unwrap();
    let made = run(
        away.path(),
        &[
            "bundle",
            "import",
            "night.json",
            "--whole",
            "--db",
            "night.rapsheet",
        ],
    );
    assert!(made.contains("2 crews, verified"), "{made}");
    let crew = run(
        away.path(),
        &["gang", "show", "Wick Street", "--db", "night.rapsheet"],
    );
    assert!(
        crew.contains("★ Ada  NERVE 3  [Long Pole, Tinderbox]"),
        "{crew}"
    );
    verifies_and_plays(away.path(), "night.rapsheet");
}

#[test]
fn two_copies_of_the_guides_campaign_merge_on_a_laptop_without_the_pack() {
    let home = util::temp();
    the_long_night(home.path());
    let away = laptop();
    let d = away.path();
    for copy in ["ours.rapsheet", "theirs.rapsheet"] {
        std::fs::copy(home.path().join("night.rapsheet"), d.join(copy)).unwrap();
    }
    // Each copy does something of its own after they part.
    run(
        d,
        &[
            "fighter",
            "add",
            "Fenn",
            "--gang",
            "Ember Row",
            "--db",
            "ours.rapsheet",
        ],
    );
    std::fs::copy(guide_files().join("night2.json"), d.join("n.json")).unwrap();
    run(
        d,
        &[
            "battle",
            "record",
            "n.json",
            "--seed",
            "3",
            "--db",
            "theirs.rapsheet",
        ],
    );
    let dry = run(
        d,
        &[
            "merge",
            "theirs.rapsheet",
            "--dry-run",
            "--db",
            "ours.rapsheet",
        ],
    );
    assert!(!dry.is_empty());
    let merged = run(
        d,
        &[
            "merge",
            "theirs.rapsheet",
            "-o",
            "merged.rapsheet",
            "--db",
            "ours.rapsheet",
        ],
    );
    assert!(merged.contains("verified"), "{merged}");
    let nights = run(d, &["battle", "list", "--db", "merged.rapsheet"]);
    assert!(nights.contains("#3"), "{nights}");
    let row = run(d, &["gang", "show", "Ember Row", "--db", "merged.rapsheet"]);
    assert!(row.contains("Fenn"), "{row}");
    verifies_and_plays(d, "merged.rapsheet");
}

/// A whole bundle's kept game is checked as `house keep` checks one: a
/// pack that does not read, or that takes a pack of this build's id, is
/// refused naming where it is in the bundle, and no campaign is made.
#[test]
fn a_game_travelling_in_a_whole_bundle_is_checked_as_house_keep_checks_one() {
    let home = util::temp();
    the_long_night(home.path());
    run(
        home.path(),
        &[
            "bundle",
            "export",
            "--whole",
            "-o",
            "night.json",
            "--db",
            "night.rapsheet",
        ],
    );
    let text = std::fs::read_to_string(home.path().join("night.json")).unwrap();
    let bundle: serde_json::Value = serde_json::from_str(&text).unwrap();
    let away = laptop();
    let d = away.path();

    // A tool of a category the pack does not have.
    let mut broken = bundle.clone();
    let pack = broken["packs"][0]["text"].as_str().unwrap().to_owned();
    assert!(pack.contains("category = \"tool\""));
    broken["packs"][0]["text"] =
        serde_json::Value::String(pack.replacen("category = \"tool\"", "category = \"lamp\"", 1));
    std::fs::write(d.join("broken.json"), broken.to_string()).unwrap();
    let err = refused(
        d,
        &[
            "bundle",
            "import",
            "broken.json",
            "--whole",
            "--db",
            "a.rapsheet",
        ],
    );
    assert!(err.contains("packs[0] (fogbound)"), "{err}");
    assert!(err.contains("lamp"), "{err}");
    assert!(!d.join("a.rapsheet").exists());

    // A game that calls itself by a pack of this build's id.
    let mut builtin = bundle;
    builtin["packs"][0]["id"] = "heartbreaker".into();
    builtin["packs"][0]["text"] =
        serde_json::Value::String(pack.replacen("id = \"fogbound\"", "id = \"heartbreaker\"", 1));
    std::fs::write(d.join("builtin.json"), builtin.to_string()).unwrap();
    let err = refused(
        d,
        &[
            "bundle",
            "import",
            "builtin.json",
            "--whole",
            "--db",
            "b.rapsheet",
        ],
    );
    assert!(
        err.contains("packs[0] (heartbreaker): pack.id: `heartbreaker` is a pack of this build"),
        "{err}"
    );
    assert!(!d.join("b.rapsheet").exists());
}

/// A campaign that plays its game from a pack file, not kept in it, is
/// carried whole to a laptop that has the file (`--pack`), as a merge is;
/// without the file, the laptop says which pack it lacks.
#[test]
fn a_game_played_from_a_file_is_carried_whole_to_a_laptop_with_the_file() {
    let pack = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/gloamhold.toml");
    let home = laptop();
    std::fs::copy(&pack, home.path().join("g.toml")).unwrap();
    let with = |dir: &Path, args: &[&str]| {
        let mut all = vec!["--pack", "g.toml"];
        all.extend_from_slice(args);
        run(dir, &all)
    };
    with(
        home.path(),
        &["new", "--ruleset", "gloamhold", "--db", "c.rapsheet"],
    );
    with(
        home.path(),
        &["gang", "new", "Ashen Choir", "--db", "c.rapsheet"],
    );
    with(
        home.path(),
        &[
            "bundle",
            "export",
            "--whole",
            "-o",
            "w.json",
            "--db",
            "c.rapsheet",
        ],
    );
    let away = laptop();
    std::fs::copy(home.path().join("w.json"), away.path().join("w.json")).unwrap();
    let import = [
        "bundle",
        "import",
        "w.json",
        "--whole",
        "--db",
        "c.rapsheet",
    ];
    let err = refused(away.path(), &import);
    assert!(err.contains("gloamhold"), "{err}");
    assert!(!away.path().join("c.rapsheet").exists());
    std::fs::copy(&pack, away.path().join("g.toml")).unwrap();
    let made = with(away.path(), &import);
    assert!(made.contains("verified"), "{made}");
    let gangs = with(away.path(), &["gang", "list", "--db", "c.rapsheet"]);
    assert!(gangs.contains("Ashen Choir"), "{gangs}");
}
