//! A game of a group's own, written only as a pack: `tests/packs/tidewreck.toml`
//! (clans of divers salvaging a drowned city between the tides) uses every
//! kind of rule the format has — recruiting ranges, limits by tag, outcomes
//! that act, counts read from the report, upkeep, modifiers from the
//! fighter, named entries gained, titles by any comparison, after-record
//! lines with no scenario — and is played here from the command line and
//! the app with no Rust that knows it. Each assertion quotes the pack line
//! it checks.

use crate::util;

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rapsheet::session::{Session, builtin_registry};
use rapsheet::ui::RapsheetApp;

fn pack_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/tidewreck.toml")
}

/// `rapsheet --pack tidewreck.toml ARGS --db c.rapsheet`, which must work.
fn tide(dir: &Path, args: &[&str]) -> String {
    let pack = pack_file();
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    util::ok(dir, &all)
}

/// The same, which must be refused: its error.
fn tide_refused(dir: &Path, args: &[&str]) -> String {
    let pack = pack_file();
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", "c.rapsheet"]);
    let out = util::rapsheet(dir, &all);
    assert!(!out.status.success(), "{args:?} was not refused");
    util::stderr(&out)
}

/// A campaign of three clans: Gull (Maren, chief, and Oda, Pell), Kelp
/// (Sorn, chief, and Tam, Ulla) and Reed (Vey, chief, and Wynn, Xan).
fn three_clans(dir: &Path) {
    tide(
        dir,
        &["new", "--ruleset", "tidewreck", "--name", "The Reef"],
    );
    for (clan, divers) in [
        ("Gull Clan", ["Maren", "Oda", "Pell"]),
        ("Kelp Clan", ["Sorn", "Tam", "Ulla"]),
        ("Reed Clan", ["Vey", "Wynn", "Xan"]),
    ] {
        tide(dir, &["gang", "new", clan]);
        for (i, diver) in divers.iter().enumerate() {
            let mut args = vec!["fighter", "add", diver, "--gang", clan];
            if i == 0 {
                args.push("--leader");
            }
            tide(dir, &args);
        }
    }
}

#[test]
fn a_clan_is_recruited_within_the_ranges_and_limits_of_its_pack() {
    let dir = util::temp();
    let d = dir.path();
    tide(d, &["new", "--ruleset", "tidewreck", "--name", "The Reef"]);
    tide(d, &["gang", "new", "Gull Clan"]);
    // recruits = { min = 2, max = 4 }: a chief alone is short of a clan.
    let added = tide(
        d,
        &[
            "fighter",
            "add",
            "Maren",
            "--gang",
            "Gull Clan",
            "--leader",
            "--quirk",
            "Lead Boots",
        ],
    );
    assert!(
        added.contains(
            "The clan has 1 diver; a starting clan has 3 to 5 (1 chief + 2 to 4 other divers)."
        ),
        "{added}"
    );
    tide(
        d,
        &[
            "fighter",
            "add",
            "Oda",
            "--gang",
            "Gull Clan",
            "--quirk",
            "Iron Helm",
        ],
    );
    // Three divers: within the range, no problem left.
    let third = tide(d, &["fighter", "add", "Pell", "--gang", "Gull Clan"]);
    assert!(!third.contains("problem"), "{third}");
    // quirks_per_fighter = { min = 0, max = 2 }: none is as legal as two.
    let shown = tide(d, &["gang", "show", "Gull Clan"]);
    assert!(!shown.contains("problem"), "{shown}");
    // "At most two divers of a clan wear heavy charms." A third is refused
    // before anything changes.
    let refused = tide_refused(
        d,
        &[
            "fighter",
            "add",
            "Quill",
            "--gang",
            "Gull Clan",
            "--quirk",
            "Iron Helm",
        ],
    );
    assert!(
        refused.contains("At most two divers of a clan wear heavy charms. (3 divers; 2 allowed)"),
        "{refused}"
    );
    // Three charms is more than a diver is recruited with.
    let many = tide(
        d,
        &[
            "fighter",
            "add",
            "Quill",
            "--gang",
            "Gull Clan",
            "--quirk",
            "Whispering Conch",
            "--quirk",
            "Eel Skin",
            "--quirk",
            "Whispering Conch",
        ],
    );
    assert!(many.contains("has 3 charms; a diver has 0 to 2"), "{many}");
    tide(d, &["verify"]);
}

fn clan(dir: &Path, name: &str) -> serde_json::Value {
    serde_json::from_str(&tide(dir, &["gang", "show", name, "--json"])).unwrap()
}

fn pearls(dir: &Path, name: &str) -> i64 {
    clan(dir, name)["resources"][0]["amount"].as_i64().unwrap()
}

/// A diver as `gang show --json` has them.
fn diver(dir: &Path, clan_name: &str, name: &str) -> serde_json::Value {
    clan(dir, clan_name)["fighters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .cloned()
        .unwrap_or(serde_json::Value::Null)
}

fn stat(diver: &serde_json::Value, id: &str) -> i64 {
    diver["stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .map(|s| s["value"].as_i64().unwrap())
        .unwrap()
}

/// Everything a clan is, for comparing before and after undo.
fn everything(dir: &Path) -> Vec<serde_json::Value> {
    let mut all: Vec<serde_json::Value> = ["Gull Clan", "Kelp Clan", "Reed Clan"]
        .iter()
        .map(|c| clan(dir, c))
        .collect();
    all.push(serde_json::from_str(&tide(dir, &["titles", "--json"])).unwrap());
    all
}

fn write_report(dir: &Path, file: &str, report: serde_json::Value) {
    std::fs::write(dir.join(file), report.to_string()).unwrap();
}

#[test]
fn tides_play_every_kind_of_rule_from_the_command_line() {
    let dir = util::temp();
    let d = dir.path();
    three_clans(d);
    let before = everything(d);

    // A plain tide of three clans: `scenario_optional = true`.
    write_report(
        d,
        "tide1.json",
        serde_json::json!({
            "gangs": [
                {"gang": "Gull Clan", "fighters": [
                    {"fighter": "Maren"},
                    {"fighter": "Oda", "outcome": "soaked"},
                    {"fighter": "Pell", "outcome": "gasping"}]},
                {"gang": "Kelp Clan", "fighters": [
                    {"fighter": "Sorn", "outcome": "drowned"},
                    {"fighter": "Tam", "outcome": "drowned"},
                    {"fighter": "Ulla", "outcome": "drowned"}]},
                {"gang": "Reed Clan"},
            ],
            "dice": [
                {"roll": "wreck-finds: Maren", "faces": [6]},
                {"roll": "wreck-finds: Vey", "faces": [1]},
                {"roll": "wreck-finds: Wynn", "faces": [4]},
                {"roll": "wreck-finds: Xan", "faces": [2]},
            ],
        }),
    );
    let told = tide(d, &["battle", "record", "tide1.json"]);
    // "Every clan's hoard loses 1 Pearl to the tide.", held at the floor.
    assert!(
        told.contains("Gull Clan: -1 Pearls, held at its floor: +0"),
        "{told}"
    );
    // "A clan gains 1 Pearl for every diver who surfaced." Gull: Maren
    // only (Oda came up soaked); Kelp: none; Reed: all three.
    // "The clan with the most divers surfaced gains 2 Pearls.": Reed.
    // Finds: Wynn's 4 is "A Pearl".
    assert_eq!(pearls(d, "Gull Clan"), 1);
    assert_eq!(pearls(d, "Kelp Clan"), 0);
    assert_eq!(pearls(d, "Reed Clan"), 3 + 2 + 1);
    // "A soaked diver gains 1 Chill."
    assert!(told.contains("Oda: Chill 0 → 1 (+1)"), "{told}");
    // "A gasping diver loses 1 Lungs for good."
    assert_eq!(stat(&diver(d, "Gull Clan", "Pell"), "lungs"), 2);
    // "A drowned diver is gone for good."
    assert!(told.contains("Sorn leaves the clan (drowned)"), "{told}");
    assert!(diver(d, "Kelp Clan", "Sorn").is_null());
    // "The diver gains Eel Skin": the named entry, no pick asked.
    assert!(told.contains("Maren gains Eel Skin"), "{told}");
    assert_eq!(
        diver(d, "Gull Clan", "Maren")["quirks"][0]["name"],
        "Eel Skin"
    );
    // Titles: the most Pearls, and the fewest.
    let titles = tide(d, &["titles"]);
    assert!(
        titles.contains("The Deep Hoard (most Pearls): Vey of Reed Clan"),
        "{titles}"
    );
    assert!(
        titles.contains("The Lightest Hold (fewest Pearls): Kelp Clan"),
        "{titles}"
    );
    // `count = "counter:chill"`: Oda's 1 Chill is the most a clan holds.
    assert!(
        titles.contains("The Coldest Clan (most Chill): Maren of Gull Clan"),
        "{titles}"
    );

    // The Sunken Vault: a count typed against the outcomes is refused,
    // naming both fields.
    let vault = |surfaced: Option<i64>| {
        let mut gull = serde_json::json!({"gang": "Gull Clan", "counts": {"chests": 1},
            "fighters": [{"fighter": "Maren"}, {"fighter": "Oda"}]});
        if let Some(n) = surfaced {
            gull["counts"]["Divers surfaced"] = n.into();
        }
        serde_json::json!({
            "scenario": "The Sunken Vault",
            "gangs": [gull, {"gang": "Reed Clan", "counts": {"chests": 0}}],
            "dice": [
                {"roll": "wreck-finds: Maren", "faces": [3]},
                {"roll": "wreck-finds: Oda", "faces": [6]},
                {"roll": "wreck-finds: Vey", "faces": [2]},
                {"roll": "wreck-finds: Wynn", "faces": [2]},
                {"roll": "wreck-finds: Xan", "faces": [2]},
            ],
        })
    };
    write_report(d, "wrong.json", vault(Some(3)));
    let refused = tide_refused(d, &["battle", "record", "wrong.json"]);
    assert!(
        refused.contains("gangs[0].counts.Divers surfaced: Divers surfaced 3 contradicts gangs[0].fighters: 2 of Gull Clan's divers ended Surfaced or Soaked to the bone"),
        "{refused}"
    );
    assert_eq!(
        pearls(d, "Gull Clan"),
        1,
        "a refused report changes nothing"
    );
    write_report(d, "tide2.json", vault(None));
    let told = tide(d, &["battle", "record", "tide2.json"]);
    // "-1 to the roll for every point of Chill.": Oda's 6 is a 5.
    assert!(
        told.contains(
            "Oda rolls d6 on Finds in the Wreck: [6] − 1 (Chill 1) = 5: A Pearl (entered by hand)"
        ),
        "{told}"
    );
    // Gull: 1 − 1 upkeep + 2 a chest + 2 surfaced + 1 Oda's find.
    assert_eq!(pearls(d, "Gull Clan"), 5);
    // Reed: 6 − 1 + 3 surfaced + 2 the most surfaced.
    assert_eq!(pearls(d, "Reed Clan"), 10);
    assert_eq!(pearls(d, "Kelp Clan"), 0);
    tide(d, &["verify"]);

    // Undo both tides: exactly as it was.
    tide(d, &["battle", "undo"]);
    tide(d, &["battle", "undo"]);
    assert_eq!(everything(d), before);
    tide(d, &["verify"]);
}

#[test]
fn a_game_kept_in_the_campaign_shows_as_the_groups_own_game() {
    let dir = util::temp();
    let d = dir.path();
    three_clans(d);
    let pack = pack_file();
    let kept = tide(d, &["house", "keep", pack.to_str().unwrap()]);
    assert_eq!(
        kept,
        "Kept the group's own game Tidewreck (tidewreck) in the campaign\n"
    );
    // Without the file: the campaign's own copy is its game.
    let shown = util::ok(d, &["gang", "show", "Gull Clan"]);
    assert!(shown.starts_with("Gull Clan (Tidewreck)\n"), "{shown}");
    assert!(!shown.contains("house rules"), "{shown}");
    let rulesets = tide(d, &["rulesets"]);
    assert!(
        rulesets.contains(
            "Tidewreck (tidewreck): 2 stats, 1 resource, 4 charms, 1 constraint, 1 ruling"
        ),
        "{rulesets}"
    );
    let house = util::ok(d, &["house", "list"]);
    assert!(house.contains("Tidewreck (tidewreck)"), "{house}");
    tide(d, &["verify"]);
}

#[test]
fn a_roll_for_a_diver_takes_the_modifier_their_chill_brings() {
    let dir = util::temp();
    let d = dir.path();
    three_clans(d);
    tide(d, &["fighter", "counter", "Oda", "chill", "2"]);
    // `modifiers = [{ …, amount = -1, per = "chill" }]`: "-1 to the roll
    // for every point of Chill."
    let looked = tide(
        d,
        &["table", "wreck-finds", "--total", "6", "--fighter", "Oda"],
    );
    assert_eq!(
        looked,
        "Finds in the Wreck 6 − 2 (Chill 2) = 4: The clan gains 1 Pearl\n"
    );
    let looked = tide(
        d,
        &["table", "wreck-finds", "--total", "6", "--fighter", "Maren"],
    );
    assert_eq!(looked, "Finds in the Wreck 6: The diver gains Eel Skin\n");
    // Rolled by the app: the same modifier, whatever the dice.
    let json: serde_json::Value = serde_json::from_str(&tide(
        d,
        &[
            "table",
            "wreck-finds",
            "--seed",
            "7",
            "--fighter",
            "Oda",
            "--json",
        ],
    ))
    .unwrap();
    assert_eq!(
        json["total"].as_i64().unwrap(),
        json["natural"].as_i64().unwrap() - 2,
        "{json}"
    );
}

/// The built-in packs and Tidewreck.
fn registry() -> rapsheet::rules::Registry {
    let mut registry = builtin_registry().unwrap();
    registry
        .add_text(
            "tidewreck.toml",
            &std::fs::read_to_string(pack_file()).unwrap(),
        )
        .unwrap();
    registry
}

/// Saves what the app shows, where `RAPSHEET_SHOT` names a folder.
fn shot(harness: &mut Harness<'_, RapsheetApp>, name: &str) {
    if let Ok(dir) = std::env::var("RAPSHEET_SHOT") {
        harness.run();
        if let Ok(image) = harness.render() {
            let _ = image.save(Path::new(&dir).join(format!("{name}.png")));
        }
    }
}

#[test]
fn a_tide_is_recorded_in_the_app_and_taken_back() {
    let dir = util::temp();
    let d = dir.path();
    three_clans(d);
    let path = d.join("c.rapsheet");
    let session = Session::open_with(&path, registry()).unwrap();
    let before = everything(d);
    // Tall enough for the whole form and its preview.
    let mut harness = Harness::builder()
        .with_size([1280.0, 1800.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    // The pack's words for its clans and divers.
    for word in ["Clans", "Found a clan", "New diver name"] {
        assert!(
            harness.query_by_label_contains(word).is_some(),
            "the app does not show “{word}”"
        );
    }
    harness.get_by_label("Record").click();
    harness.run();
    // `scenario_optional = true`: a plain tide unless one is chosen.
    assert!(harness.query_by_label_contains("Record a tide").is_some());
    assert!(
        harness.query_by_label_contains("Chests raised").is_none(),
        "no scenario's counts on a plain tide"
    );
    // Three clans: `max_sides = 3`.
    harness.get_by_label("Add a clan").click();
    harness.run();
    harness.get_by_label("Clan 3").click();
    harness.run();
    harness.get_by_label("Reed Clan").click();
    harness.run();
    // Oda comes up soaked, Pell gasping, and every Kelp diver drowns.
    let click_nth = |h: &mut Harness<'_, RapsheetApp>, label: &str, n: usize| {
        h.get_all_by_label(label).nth(n).unwrap().click();
        h.run();
    };
    click_nth(&mut harness, "Soaked to the bone", 1);
    click_nth(&mut harness, "Came up gasping", 2);
    for n in 3..6 {
        click_nth(&mut harness, "Drowned", n);
    }
    shot(&mut harness, "tide-form");
    // The preview says what the pack's rules do before anything changes.
    for line in [
        "Oda: Chill 0 → 1 (+1)",
        "Pell: -1 Lungs",
        "Sorn leaves the clan (drowned)",
        "Reed Clan: +2 Pearls",
    ] {
        assert!(
            harness.query_by_label_contains(line).is_some(),
            "the preview does not show “{line}”"
        );
    }
    harness.get_by_label("Commit tide").click();
    harness.run();
    let status = harness.state().status_text().unwrap_or_default().to_owned();
    shot(&mut harness, "tide-committed");
    assert!(status.contains("Tide #1 recorded"), "{status}");
    assert_eq!(stat(&diver(d, "Gull Clan", "Pell"), "lungs"), 2);
    assert!(diver(d, "Kelp Clan", "Ulla").is_null());
    assert!(
        pearls(d, "Reed Clan") >= 5,
        "3 surfaced and the most of them"
    );
    tide(d, &["verify"]);

    // Ctrl+Z takes the whole tide back: every clan as it was.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert_eq!(everything(d), before);
    tide(d, &["verify"]);
}

/// 31.4: a button that cannot be used says why, in the pack's words.
#[test]
fn a_full_counter_says_so_on_its_button() {
    let dir = util::temp();
    let d = dir.path();
    three_clans(d);
    tide(d, &["fighter", "counter", "Oda", "chill", "3"]);
    let session = Session::open_with(&d.join("c.rapsheet"), registry()).unwrap();
    let mut harness = Harness::builder()
        .with_size([1280.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness.get_by_label("Oda").click();
    harness.run();
    harness.get_by_label("+ Chill").hover();
    harness.run();
    shot(&mut harness, "full-counter");
    assert!(
        harness
            .query_by_label_contains("Chill is full (3 of 3)")
            .is_some(),
        "the disabled button does not say why"
    );
}

/// `verify` holds every change to its game's rules: without the game's
/// pack it says what to give, not that the file is damaged.
#[test]
fn verify_without_the_games_pack_says_to_give_it() {
    let dir = util::temp();
    let d = dir.path();
    three_clans(d);
    let out = util::rapsheet(d, &["verify", "--db", "c.rapsheet"]);
    assert!(!out.status.success());
    let err = util::stderr(&out);
    assert!(
        err.contains("`tidewreck`, a pack this laptop does not have") && err.contains("--pack"),
        "{err}"
    );
    tide(d, &["verify"]);
}

/// The window reads the packs named on its command line as every command
/// does (`rapsheet --pack tidewreck.toml --db c.rapsheet`): the campaign
/// opens in its game's words, and a clan is founded from the window.
#[test]
fn the_window_opens_a_campaign_with_the_packs_of_its_command_line() {
    let dir = util::temp();
    let d = dir.path();
    three_clans(d);
    let packs = rapsheet::session::registry_with(&[pack_file()]).unwrap();
    let app = RapsheetApp::start_with_packs(
        Some(d.join("c.rapsheet")),
        Some(packs),
        None,
        Default::default(),
    );
    let mut harness = Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
    harness.run();
    for word in ["Clans", "Found a clan"] {
        assert!(
            harness.query_by_label_contains(word).is_some(),
            "the window does not show “{word}”"
        );
    }
    assert!(harness.query_by_label_contains("does not have").is_none());
    util::type_into(&mut harness, "New clan name", "Salt Clan");
    harness.get_by_label("Found clan").click();
    harness.run();
    let list = tide(d, &["gang", "list"]);
    assert!(list.contains("Salt Clan"), "{list}");
}

/// A broken pack named for the window is said in one line before any
/// window is made, as the commands say it.
#[test]
fn the_window_refuses_a_broken_pack_in_one_line() {
    let dir = util::temp();
    let d = dir.path();
    std::fs::write(d.join("broken.toml"), "[pack]\nid = \"broken\"\n").unwrap();
    let out = util::rapsheet(d, &["--pack", "broken.toml", "--db", "c.rapsheet"]);
    assert!(!out.status.success());
    let err = util::stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("broken.toml"), "{err}");
    assert!(!d.join("c.rapsheet").exists());
}

/// A whole game kept in the campaign is the group's own game, not house
/// rules: none of its tables is labelled as house rules over it; house
/// rules over a book's pack are, once, even when their name says so.
#[test]
fn a_kept_games_tables_are_its_own_and_house_rules_are_said_once() {
    let mut registry = rapsheet::rules::Registry::builtin().expect("builtin");
    let text = std::fs::read_to_string(pack_file()).expect("pack");
    let id = registry
        .add_house_text("tidewreck.toml", &text)
        .expect("kept");
    let game = registry.get(&id).expect("kept game");
    assert!(game.pack.own_game());
    assert_eq!(game.group_label("tables", "wreck-finds"), None);
    let house = "[pack]\nid = \"sector\"\nname = \"Sector house rules\"\nformat = 1\nversion = \"1\"\nbase = \"wayfarer\"\n\n[[tables]]\nid = \"scars\"\nname = \"Lasting Scars\"\nroll = \"d6\"\nrows = [{ on = \"1-6\", result = \"A scar.\" }]\n";
    let id = registry
        .add_house_text("sector.toml", house)
        .expect("house rules");
    let rules = registry.get(&id).expect("house rules");
    assert_eq!(
        rules.group_label("tables", "scars").as_deref(),
        Some("Sector house rules")
    );
    assert_eq!(
        rapsheet::rules::house_rules_of("The Night Crew's table"),
        "The Night Crew's table, house rules"
    );
}
