//! A long campaign of a game of its own, written only as a pack:
//! `tests/packs/gloamhold.toml` (companies of relic-hunters delving a
//! ruined abbey) uses every campaign shape the format has together —
//! acolytes recruited in groups that share one profile, Renown with
//! thresholds per kind of member, a company's rating and the underdog's
//! Renown by it, a delving scored by counting dice, the reliquary read by
//! two numbers, captives at a price, and a new warden when the old one
//! falls. Three delves are played from the command line, every number
//! worked out by hand below from the pack's lines, and taken back to the
//! identical campaign; a delve is played by clicking in the window.

use crate::util;

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rapsheet::session::Session;
use rapsheet::ui::RapsheetApp;
use serde_json::{Value, json};

fn pack_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/gloamhold.toml")
}

/// `rapsheet --pack gloamhold.toml ARGS --db c.rapsheet`, which must work.
fn gloam(dir: &Path, args: &[&str]) -> String {
    let pack = pack_file();
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    util::ok(dir, &all)
}

/// The same, which must be refused: its error.
fn refused(dir: &Path, args: &[&str]) -> String {
    let pack = pack_file();
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", "c.rapsheet"]);
    let out = util::rapsheet(dir, &all);
    assert!(!out.status.success(), "{args:?} was not refused");
    util::stderr(&out)
}

fn company(dir: &Path, name: &str) -> Value {
    serde_json::from_str(&gloam(dir, &["gang", "show", name, "--json"])).unwrap()
}

fn amount(company: &Value, resource: &str) -> i64 {
    company["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == resource)
        .unwrap()["amount"]
        .as_i64()
        .unwrap()
}

fn delver<'a>(company: &'a Value, name: &str) -> &'a Value {
    company["fighters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no {name} on the roster"))
}

fn renown(company: &Value, name: &str) -> i64 {
    delver(company, name)["counters"]["renown"]
        .as_i64()
        .unwrap()
}

fn stat(company: &Value, name: &str, id: &str) -> i64 {
    delver(company, name)["stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap()["value"]
        .as_i64()
        .unwrap()
}

/// Both companies whole, to compare before and after.
fn everything(dir: &Path) -> Vec<Value> {
    ["Ashen Choir", "Vigil of Thorns"]
        .iter()
        .map(|c| company(dir, c))
        .collect()
}

fn delve(dir: &Path, file: &str, report: Value) -> String {
    std::fs::write(
        dir.join(file),
        serde_json::to_string_pretty(&report).unwrap(),
    )
    .unwrap();
    gloam(dir, &["battle", "record", file, "--seed", "1"])
}

/// The Ashen Choir (Mara, warden, with a Bone Lantern; Tobin; Ysolde;
/// and the Grey Brothers, acolytes Ode and Pell) and the Vigil of Thorns
/// (Corvin, warden; Neve).
fn two_companies(dir: &Path) {
    gloam(
        dir,
        &[
            "new",
            "--ruleset",
            "gloamhold",
            "--name",
            "Under the Mountain",
        ],
    );
    gloam(dir, &["gang", "new", "Ashen Choir"]);
    gloam(
        dir,
        &[
            "fighter",
            "add",
            "Mara",
            "--gang",
            "Ashen Choir",
            "--leader",
            "--quirk",
            "bone-lantern",
        ],
    );
    for name in ["Tobin", "Ysolde"] {
        gloam(dir, &["fighter", "add", name, "--gang", "Ashen Choir"]);
    }
    gloam(
        dir,
        &[
            "gang",
            "add-group",
            "Ashen Choir",
            "--kind",
            "acolytes",
            "--name",
            "Grey Brothers",
            "--member",
            "Ode",
            "--member",
            "Pell",
        ],
    );
    gloam(dir, &["gang", "new", "Vigil of Thorns"]);
    gloam(
        dir,
        &[
            "fighter",
            "add",
            "Corvin",
            "--gang",
            "Vigil of Thorns",
            "--leader",
        ],
    );
    gloam(
        dir,
        &["fighter", "add", "Neve", "--gang", "Vigil of Thorns"],
    );
}

#[test]
fn three_delves_play_every_campaign_shape_from_the_command_line() {
    let dir = util::temp();
    let d = dir.path();
    two_companies(d);
    let before = everything(d);

    // `size = { min = 2, max = 4 }`: one acolyte is not a band of them.
    let e = refused(
        d,
        &[
            "gang",
            "add-group",
            "Ashen Choir",
            "--kind",
            "acolytes",
            "--name",
            "Lone",
            "--member",
            "Abel",
        ],
    );
    assert!(
        e.contains("groups.acolytes.size: a group of Acolytes has 2 to 4 members, not 1"),
        "{e}"
    );

    // "rated 5 for each delver, the cost of their relics, and their
    // Renown": Mara 5 + 6 (Bone Lantern), Tobin 5, Ysolde 5, and each
    // acolyte 5 + 2 (`cost = 2`): 35. The Vigil: 10.
    let choir = company(d, "Ashen Choir");
    assert_eq!(choir["rating"]["value"], 35);
    assert_eq!(company(d, "Vigil of Thorns")["rating"]["value"], 10);
    let shown = gloam(d, &["gang", "show", "Ashen Choir"]);
    assert!(shown.contains("  Company Rating 35\n"), "{shown}");
    assert!(
        shown.contains("  Grey Brothers (Acolytes): Ode, Pell  GRIT 3 RES 2"),
        "{shown}"
    );

    // Delve 1: the Choir (Mara, Tobin, Ode) against the Vigil (Corvin,
    // Neve); Tobin strikes Neve down; the Vigil wins.
    let out = delve(
        d,
        "delve1.json",
        json!({
            "gangs": [
                {"gang": "Ashen Choir", "fighters": [{"fighter": "Mara"}, {"fighter": "Tobin"}, {"fighter": "Ode"}]},
                {"gang": "Vigil of Thorns", "fighters": [
                    {"fighter": "Corvin"},
                    {"fighter": "Neve", "outcome": "struck-down", "downed_by": "Tobin"},
                ]},
            ],
            "winner": "Vigil of Thorns",
            "dice": [
                {"roll": "delving: Ashen Choir", "faces": [6, 6]},
                {"roll": "delving: Vigil of Thorns", "faces": [3]},
                {"roll": "delver-boons: Tobin", "faces": [2]},
                {"roll": "delver-boons: Corvin", "faces": [5]},
            ],
        }),
    );
    for line in [
        // "+1 Renown to each delver who walked out": the Grey Brothers
        // once, for Ode.
        "Ashen Choir: Mara: Renown 0 → 1 (+1)",
        "Ashen Choir: Tobin: Renown 0 → 1 (+1)",
        "Ashen Choir: Ode: Renown 0 → 1 (+1)",
        "Vigil of Thorns: Corvin: Renown 0 → 1 (+1)",
        // "+1 Renown for each rival struck down".
        "Ashen Choir: Tobin: Renown 1 → 2 (+1)",
        // "+1 Renown to the winning warden".
        "Vigil of Thorns: Corvin: Renown 1 → 2 (+1)",
        // Rated 35 and 10 before the delve: 25 apart, the `10+` row, 2
        // Renown to each of the Vigil who walked out.
        "Vigil of Thorns: The company rated lower gains Renown for each delver who walked out: Company Rating 25 apart (10+): +2",
        "Vigil of Thorns: Corvin: Renown 2 → 4 (+2)",
        // A die for each single delver who walked out: Mara and Tobin
        // [6, 6] are two Shards and an Echo (found 3); Corvin's [3]
        // nothing.
        "Ashen Choir: Delving 2d6: [6, 6]: 2 × Shard, Echo of 6; found 3 (entered by hand)",
        "Ashen Choir: +2 Shards",
        "Vigil of Thorns: Delving d6: [3]: nothing scores; found 0 (entered by hand)",
        // Found 3, five delvers after the delve: row `3+`, column `5+`.
        "Ashen Choir: The reliquary pays for what was found: The Reliquary row 3+, column 5+: 7",
        "Vigil of Thorns: The reliquary pays for what was found: The Reliquary row 0, column 1-4: 0",
        // Tobin reaches 2 and Corvin passes it: a roll each.
        "Ashen Choir: Tobin reaches Renown 2: a roll on Delver's Boons",
        "Ashen Choir: Tobin rolls d6 on Delver's Boons: [2] = 2: Iron Grit (entered by hand)",
        "Vigil of Thorns: Corvin reaches Renown 2: a roll on Delver's Boons",
        "Vigil of Thorns: Corvin rolls d6 on Delver's Boons: [5] = 5: Steady Nerve (entered by hand)",
    ] {
        assert!(
            out.contains(&format!("  {line}\n")),
            "no “{line}” in\n{out}"
        );
    }
    let choir = company(d, "Ashen Choir");
    let vigil = company(d, "Vigil of Thorns");
    // The Grey Brothers share Ode's Renown: Pell too, who sat it out.
    assert_eq!(
        ["Mara", "Tobin", "Ysolde", "Ode", "Pell"].map(|n| renown(&choir, n)),
        [1, 2, 0, 1, 1]
    );
    assert_eq!(["Corvin", "Neve"].map(|n| renown(&vigil, n)), [4, 0]);
    assert_eq!(
        (
            stat(&choir, "Tobin", "grit"),
            stat(&vigil, "Corvin", "resolve")
        ),
        (4, 3)
    );
    assert_eq!((amount(&choir, "tithes"), amount(&choir, "shards")), (7, 2));
    assert_eq!(amount(&vigil, "tithes"), 0);
    // 11 + 1, 5 + 2, 5, 7 + 1, 7 + 1: 40; 5 + 4, 5: 14.
    assert_eq!(
        (
            choir["rating"]["value"].as_i64(),
            vigil["rating"]["value"].as_i64()
        ),
        (Some(40), Some(14))
    );

    // Delve 2: the Choir (Mara, Ysolde, Ode, Pell) wins, but Corvin fells
    // Mara and Neve carries Pell off.
    let delve2 = json!({
            "gangs": [
                {"gang": "Ashen Choir", "fighters": [
                    {"fighter": "Mara", "outcome": "fallen", "downed_by": "Corvin"},
                    {"fighter": "Ysolde"},
                    {"fighter": "Ode"},
                    {"fighter": "Pell", "outcome": "taken", "downed_by": "Neve"},
                ]},
                {"gang": "Vigil of Thorns"},
            ],
            "winner": "Ashen Choir",
            "picks": [{"roll": "taken: Pell", "pick": "hold"}],
            "dice": [
                {"roll": "delving: Ashen Choir", "faces": [6]},
                {"roll": "delving: Vigil of Thorns", "faces": [4, 4]},
                {"roll": "delver-boons: Corvin", "faces": [1]},
                {"roll": "delver-boons: Neve", "faces": [6]},
            ],
    });
    // Without its pick, the roll of Pell carried off is asked for by its
    // name in the report and, beside it, in the pack's words.
    let mut unpicked = delve2.clone();
    unpicked["picks"] = json!([]);
    std::fs::write(d.join("unpicked.json"), unpicked.to_string()).unwrap();
    let asked = gloam(
        d,
        &[
            "battle",
            "record",
            "unpicked.json",
            "--seed",
            "1",
            "--dry-run",
        ],
    );
    assert!(
        asked.contains("Vigil of Thorns for “taken: Pell” (Carried off: Pell): hold"),
        "{asked}"
    );
    let out = delve(d, "delve2.json", delve2);
    for line in [
        "Ashen Choir: Mara leaves the company (fallen in the dark)",
        "Ashen Choir: Pell is held by Vigil of Thorns",
        // The Grey Brothers gain once, for Ode (Pell was carried off).
        "Ashen Choir: Ode: Renown 1 → 2 (+1)",
        // Corvin 4 + 1 (walked out) + 1 (Mara) + 2 (rated 26 lower) = 8;
        // Neve 0 + 1 + 1 (Pell) + 2 = 4. The winning warden fell: none.
        "Vigil of Thorns: Corvin: Renown 6 → 8 (+2)",
        "Vigil of Thorns: Neve: Renown 2 → 4 (+2)",
        "Ashen Choir: Delving d6: [6]: 1 × Shard; found 1 (entered by hand)",
        "Vigil of Thorns: Delving 2d6: [4, 4]: Echo of 4; found 1 (entered by hand)",
        // Four on the Choir's roster after it (Pell is held, not gone).
        "Ashen Choir: The reliquary pays for what was found: The Reliquary row 1-2, column 1-4: 5",
        "Vigil of Thorns: The reliquary pays for what was found: The Reliquary row 1-2, column 1-4: 5",
        // Corvin passes 5; Neve passes 2.
        "Vigil of Thorns: Corvin rolls d6 on Delver's Boons: [1] = 1: Iron Grit (entered by hand)",
        "Vigil of Thorns: Neve rolls d6 on Delver's Boons: [6] = 6: Steady Nerve (entered by hand)",
        // "The delver with the most Renown becomes warden": Tobin 2 over
        // Ysolde 1; the acolytes may not (`who = "single"`).
        "Ashen Choir: Tobin is the next warden, after Mara (Renown 2)",
    ] {
        assert!(
            out.contains(&format!("  {line}\n")),
            "no “{line}” in\n{out}"
        );
    }
    assert!(!out.contains("Renown to the winning warden"), "{out}");
    let choir = company(d, "Ashen Choir");
    assert!(delver(&choir, "Tobin")["leader"].as_bool().unwrap());
    assert_eq!(choir["gone"], json!([["Mara", "fallen in the dark"]]));
    assert_eq!(
        ["Ysolde", "Ode", "Pell"].map(|n| renown(&choir, n)),
        [1, 2, 2]
    );
    assert_eq!(
        (amount(&choir, "tithes"), amount(&choir, "shards")),
        (12, 3)
    );

    // Pell is worth 5 + 2 + 2 (Renown): the `1-9` row, 4 Tithes.
    let terms = gloam(d, &["captive", "terms", "Pell"]);
    assert_eq!(
        terms,
        "ransom: 4 (worth 9) Tithes\nrelease: not allowed\nsell: 2 to 6 Tithes\n"
    );
    let e = refused(d, &["captive", "ransom", "Pell", "--amount", "8"]);
    assert!(
        e.contains("captives.ransom: 8 is not the price of Pell: 4 (worth 9) Tithes"),
        "{e}"
    );
    let e = refused(d, &["captive", "release", "Pell"]);
    assert!(
        e.contains("captives.may: this game does not let a captive be released"),
        "{e}"
    );
    assert_eq!(
        gloam(d, &["captive", "ransom", "Pell"]),
        "Pell is back with Ashen Choir\n"
    );
    assert_eq!(amount(&company(d, "Ashen Choir"), "tithes"), 8);
    assert_eq!(amount(&company(d, "Vigil of Thorns"), "tithes"), 5 + 4);

    // Wren joins the Vigil. Rated 31 (Tobin 7, Ysolde 6, Ode 9, Pell 9)
    // and 27 (Corvin 13, Neve 9, Wren 5) before delve 3: 4 apart.
    gloam(d, &["fighter", "add", "Wren", "--gang", "Vigil of Thorns"]);
    assert_eq!(company(d, "Ashen Choir")["rating"]["value"], 31);
    assert_eq!(company(d, "Vigil of Thorns")["rating"]["value"], 27);
    // Delve 3: everyone walks out, and the Choir wins.
    let report = json!({
        "gangs": [
            {"gang": "Ashen Choir", "fighters": [{"fighter": "Tobin"}, {"fighter": "Ode"}, {"fighter": "Pell"}]},
            {"gang": "Vigil of Thorns"},
        ],
        "winner": "Ashen Choir",
        "dice": [
            {"roll": "delving: Ashen Choir", "faces": [2]},
            {"roll": "delving: Vigil of Thorns", "faces": [6, 6, 6]},
            {"roll": "delver-boons: Neve", "faces": [3]},
            {"roll": "delver-boons: Wren", "faces": [4]},
        ],
    });
    // The acolytes reach 3 and pick: asked for by name until they do.
    std::fs::write(d.join("delve3.json"), report.to_string()).unwrap();
    let e = refused(d, &["battle", "record", "delve3.json", "--seed", "1"]);
    assert!(e.contains("acolyte-boons: Ode"), "{e}");
    let mut report = report;
    report["picks"] = json!([{"roll": "acolyte-boons: Ode", "pick": "Devout"}]);
    let out = delve(d, "delve3.json", report);
    for line in [
        "Ashen Choir: Tobin: Renown 3 → 4 (+1)",
        "Vigil of Thorns: The company rated lower gains Renown for each delver who walked out: Company Rating 4 apart (1-9): +1",
        // [6, 6, 6]: three Shards and a Triad, not also an Echo (found 3
        // + 2 = 5); the Triad's 3 Tithes; three delvers: 9.
        "Vigil of Thorns: Delving 3d6: [6, 6, 6]: 3 × Shard, Triad of 6; found 5 (entered by hand)",
        "Vigil of Thorns: +3 Tithes",
        "Vigil of Thorns: The reliquary pays for what was found: The Reliquary row 3+, column 1-4: 9",
        "Ashen Choir: Ode picks Devout of Acolytes' Boons",
        "Vigil of Thorns: Neve rolls d6 on Delver's Boons: [3] = 3: Iron Grit (entered by hand)",
        "Vigil of Thorns: Wren rolls d6 on Delver's Boons: [4] = 4: Steady Nerve (entered by hand)",
    ] {
        assert!(
            out.contains(&format!("  {line}\n")),
            "no “{line}” in\n{out}"
        );
    }
    let choir = company(d, "Ashen Choir");
    let vigil = company(d, "Vigil of Thorns");
    // Pell shares Ode's pick and Renown.
    assert_eq!(
        ["Tobin", "Ysolde", "Ode", "Pell"].map(|n| renown(&choir, n)),
        [4, 1, 3, 3]
    );
    assert_eq!(
        (
            stat(&choir, "Ode", "resolve"),
            stat(&choir, "Pell", "resolve")
        ),
        (3, 3)
    );
    assert_eq!(
        ["Corvin", "Neve", "Wren"].map(|n| renown(&vigil, n)),
        [10, 6, 2]
    );
    assert_eq!(
        (
            stat(&vigil, "Neve", "grit"),
            stat(&vigil, "Wren", "resolve")
        ),
        (4, 3)
    );
    assert_eq!((amount(&choir, "tithes"), amount(&choir, "shards")), (8, 3));
    assert_eq!(
        (amount(&vigil, "tithes"), amount(&vigil, "shards")),
        (9 + 3 + 9, 3)
    );
    assert_eq!(choir["rating"]["value"], 9 + 6 + 10 + 10);
    assert_eq!(vigil["rating"]["value"], 15 + 11 + 7);
    gloam(d, &["verify"]);
    // The chronicle tells the three delves in the pack's words.
    gloam(
        d,
        &["export", "campaign", "--format", "md", "-o", "story.md"],
    );
    let story = std::fs::read_to_string(d.join("story.md")).unwrap();
    for line in [
        "Tobin became warden",
        "Pell: Renown 0 → 1: delve \\#1: shared by Grey Brothers",
        // A counted roll says what it found, not a sum of its dice.
        "Delving 3d6 \\[6, 6, 6\\]: Vigil of Thorns: 3 × Shard, Triad of 6; found 5",
        "Ode: Devout (+1 Resolve)",
        "Pell: Devout (+1 Resolve)",
    ] {
        assert!(
            story.contains(line),
            "the chronicle does not tell “{line}”:\n{story}"
        );
    }
    assert!(!story.contains("\\] = 5: Vigil of Thorns"), "{story}");

    // Everything taken back, newest first: the campaign as it was.
    for _ in 0..5 {
        gloam(d, &["undo"]);
    }
    assert_eq!(everything(d), before);
    gloam(d, &["verify"]);
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
fn a_band_of_acolytes_is_added_and_a_delve_recorded_in_the_window() {
    let dir = util::temp();
    let d = dir.path();
    two_companies(d);
    let before = everything(d);
    let packs = rapsheet::session::registry_with(&[pack_file()]).unwrap();
    let session = Session::open_with(&d.join("c.rapsheet"), packs).unwrap();
    let mut harness = Harness::builder()
        .with_size([1400.0, 1800.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness.get_by_label("Ashen Choir").click();
    harness.run();
    // The rating, and the Grey Brothers as one row: name, kind and how
    // many (who they are is said on hover).
    for text in ["Company Rating 35", "Grey Brothers (Acolytes) ×2"] {
        assert!(
            harness.query_by_label_contains(text).is_some(),
            "the roster does not show “{text}”"
        );
    }
    // A second band of acolytes, from the recruit form.
    util::type_into(&mut harness, "Group name", "Ash Sisters");
    util::type_into(&mut harness, "Members", "Agna, Brid");
    harness.get_by_label("Add group").click();
    harness.run();
    shot(&mut harness, "gloamhold-roster");
    assert!(
        harness
            .query_by_label_contains("Ash Sisters (Acolytes) ×2")
            .is_some(),
        "the new band is not on the roster"
    );
    assert!(
        harness
            .query_by_label_contains("Company Rating 49")
            .is_some()
    );
    // Ctrl+Z takes the band back.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert_eq!(everything(d), before);

    // A delve, the app rolling: the preview says the awards, the
    // underdog's Renown and the delving before anything changes.
    harness.get_by_label("Record").click();
    harness.run();
    harness.get_by_label("Vigil of Thorns won").click();
    harness.run();
    shot(&mut harness, "gloamhold-form");
    harness.get_by_label("Commit delve").hover();
    harness.run();
    for line in [
        "Mara: Renown 0 → 1 (+1)",
        "Company Rating 25 apart (10+): +2",
        "Delving 3d6",
    ] {
        assert!(
            harness.query_by_label_contains(line).is_some(),
            "the preview does not show “{line}”"
        );
    }
    harness.get_by_label("Commit delve").click();
    harness.run();
    shot(&mut harness, "gloamhold-delve");
    let status = harness.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("Delve #1 recorded"), "{status}");
    assert_eq!(
        renown(&company(d, "Ashen Choir"), "Pell"),
        1,
        "Pell shares Ode's Renown"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert_eq!(everything(d), before);
}

#[test]
fn a_rolls_name_reads_in_the_packs_words() {
    // The name a report gives a roll (`delving: Ashen Choir`) is made of
    // ids; a player reads what it is on by its name in the pack: the
    // counted roll's label, the outcome's, the table's.
    let mut registry = rapsheet::rules::Registry::builtin().unwrap();
    let text = std::fs::read_to_string(pack_file()).unwrap();
    registry.add_text("gloamhold.toml", &text).unwrap();
    let pack = registry.get("gloamhold").unwrap();
    for (roll, reads) in [
        ("delving: Ashen Vigil", "Delving: Ashen Vigil"),
        ("taken: Tobin", "Carried off: Tobin"),
        ("taken: Tobin → 2-3", "Carried off: Tobin → 2-3"),
        ("delver-boons: Ode", "Delver's Boons: Ode"),
        ("delver-boons 2: Ode", "Delver's Boons 2: Ode"),
        // Not a roll of the pack's: as it is.
        ("unknown: Ode", "unknown: Ode"),
        ("Ode", "Ode"),
    ] {
        assert_eq!(pack.roll_title(roll), reads, "{roll}");
    }
}
