//! A fighter's value worked out from its parts, as a pack prices them
//! (`[valuation]`): Wayfarer's units (004) and a made-up priced game, through
//! the core, the command line and the pack checker.

use crate::util;

use std::path::Path;

use rapsheet::campaign::FighterId;
use rapsheet::campaign::commands::NewFighter;
use rapsheet::session::Session;

/// A made-up game that prices its crew: 2 points a point of Grit, entries
/// with printed costs (one settled by a ruling), a least worth of 5, a
/// score of the value divided by 10 rounding up, and a limit of 40 a crew.
const PRICED: &str = r#"
[pack]
id = "priced"
name = "Priced Crews"
format = 1
version = "0.1.0"

[words]
card_quirks = "KIT"
card_lasting = "SCARS"
card_notes = "NOTES"
card_marks = "MARKS"
takedowns = "Dropped"
gang = "crew"
gangs = "crews"
fighter = "hand"
fighters = "hands"
entry = "piece of kit"
entries = "kit"
leader = "leader"
leaders = "leaders"

[[stats]]
id = "grit"
label = "GR"
default = 1
min = 0
max = 9

[[stats]]
id = "luck"
label = "LK"
default = 0
min = 0
max = 9

[[categories]]
id = "kit"
label = "Kit"

[[quirks]]
id = "hook"
name = "Grappling Hook"
category = "kit"
cost = 7

[[quirks]]
id = "lamp"
name = "Storm Lamp"
category = "kit"
cost = 3
cost_ruling = "lamp-price"

[[quirks]]
id = "charm"
name = "Lucky Charm"
category = "kit"

[[rulings]]
id = "lamp-price"
question = "The lamp is printed at 3 but the formula gives 4."
ruling = "The pack uses the printed cost of 3 points."
alternatives = ["4 points"]

[valuation]
label = "Worth"
per_stat_point = 2
stats = ["grit"]
minimum = 5
limit = 40

[valuation.score]
label = "Marks"
divide_by = 10
rounding = "up"
minimum = 1

[[outcomes]]
id = "fine"
label = "Fine"
default = true
"#;

/// Runs `rapsheet ARGS --db DB` in `dir`, insists it worked, and gives
/// what it printed.
fn rapsheet_in(dir: &Path, db: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(args)
        .arg("--db")
        .arg(db)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A Wayfarer campaign with the warband Red Hand, made through the
/// command line in a folder of its own.
fn red_hand_on_the_command_line() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = util::temp();
    let db = dir.path().join("w.rapsheet");
    rapsheet_in(
        dir.path(),
        &db,
        &["new", "--ruleset", "wayfarer", "--name", "W"],
    );
    rapsheet_in(dir.path(), &db, &["gang", "new", "Red Hand"]);
    (dir, db)
}

/// Red Hand with the 100 resources of a match, on the command line.
fn red_hand_after_a_match() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, db) = red_hand_on_the_command_line();
    rapsheet_in(
        dir.path(),
        &db,
        &[
            "resource",
            "resources",
            "100",
            "--gang",
            "Red Hand",
            "--reason",
            "a match",
        ],
    );
    (dir, db)
}

fn priced(dir: &Path) -> Session {
    let mut registry = rapsheet::session::builtin_registry().unwrap();
    registry.add_text("priced.toml", PRICED).unwrap();
    Session::create_with(&dir.join("p.rapsheet"), "Test", "priced", registry).unwrap()
}

/// A fighter to recruit: its entries by id and its own base stats.
fn unit(name: &str, parts: &[&str], base: &[(&str, i64)]) -> NewFighter {
    NewFighter {
        name: name.into(),
        base: base.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
        quirks: parts
            .iter()
            .map(|k| rapsheet::campaign::QuirkPick::new(*k))
            .collect(),
        ..Default::default()
    }
}

fn hand(s: &mut Session, crew: &str, name: &str, grit: i64, kit: &[&str]) -> FighterId {
    let gang = s.gang_named(crew).unwrap().id;
    s.recruit(gang, unit(name, kit, &[("grit", grit), ("luck", 4)]))
        .unwrap();
    s.fighter_named(name, Some(crew)).unwrap().id
}

#[test]
fn a_value_is_its_priced_stats_and_the_costs_of_its_entries() {
    let dir = util::temp();
    let mut s = priced(dir.path());
    let (crew, _) = s.found_gang("Gulls", None).unwrap();
    let id = hand(&mut s, "Gulls", "Moss", 3, &["hook", "lamp", "charm"]);
    let view = s.gang_view(crew).unwrap();
    let moss = view.fighters.iter().find(|f| f.id == id).unwrap();
    let value = moss.value.as_ref().unwrap();
    // Grit 3 at 2 a point, the hook 7 and the lamp 3; the charm has no
    // cost and Luck is not priced.
    assert_eq!(value.value, 6 + 7 + 3);
    let parts: Vec<(&str, i64)> = value
        .parts
        .iter()
        .map(|p| (p.from.as_str(), p.points))
        .collect();
    assert_eq!(
        parts,
        [("GR 3", 6), ("Grappling Hook", 7), ("Storm Lamp", 3)]
    );
    assert_eq!(value.parts[2].ruling.as_deref(), Some("lamp-price"));
    // 16 / 10, rounding up.
    assert_eq!(value.score, Some(2));
    let total = view.value.as_ref().unwrap();
    assert_eq!(total.label, "Worth");
    assert_eq!(total.score_label.as_deref(), Some("Marks"));
    assert_eq!((total.total.value, total.total.score), (16, Some(2)));
}

#[test]
fn a_value_below_the_least_is_raised_to_it_and_a_crew_over_its_limit_is_told() {
    let dir = util::temp();
    let mut s = priced(dir.path());
    let (crew, _) = s.found_gang("Gulls", None).unwrap();
    let id = hand(&mut s, "Gulls", "Wick", 0, &[]);
    let view = s.gang_view(crew).unwrap();
    let wick = view.fighters.iter().find(|f| f.id == id).unwrap();
    let value = wick.value.as_ref().unwrap();
    assert_eq!((value.value, value.raised_from), (5, Some(0)));
    assert!(broken(&view).is_empty(), "{:?}", broken(&view));

    hand(&mut s, "Gulls", "Rook", 9, &["hook"]);
    // 5 + 25 + 25 = 55, over 40: the third hand is refused, naming the
    // limit, and nothing is written.
    let refused = s
        .recruit(crew, unit("Fen", &["hook"], &[("grit", 9), ("luck", 4)]))
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("Its hands add up to 55 Worth, over the limit of 40."),
        "{refused}"
    );
    assert!(s.fighter_named("Fen", None).is_err());
    assert!(s.gang_view(crew).unwrap().legal);
}

#[test]
fn a_bad_valuation_is_refused_naming_the_field() {
    let registry = rapsheet::session::builtin_registry().unwrap();
    for (from, to, field) in [
        (
            "divide_by = 10",
            "divide_by = 0",
            "valuation.score.divide_by",
        ),
        (
            "stats = [\"grit\"]",
            "stats = [\"nerve\"]",
            "valuation.stats",
        ),
        (
            "cost_ruling = \"lamp-price\"",
            "cost_ruling = \"nothing\"",
            "quirks.lamp",
        ),
        ("cost = 7", "cost = 4611686018427387904", "quirks.hook.cost"),
    ] {
        let text = PRICED.replace(from, to);
        let err = registry
            .load_text("bad.toml", &text)
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{to}: {err}");
    }
}

/// Wayfarer: 3 points a die, at least 1; VP the value over 50, rounding
/// down, at least 1.
#[test]
fn a_wayfarer_units_value_and_vp_are_worked_out_from_its_dice() {
    let dir = util::temp();
    let path = dir.path().join("w.rapsheet");
    let mut s = Session::create(&path, "W", "wayfarer").unwrap();
    let (band, _) = s.found_gang("Red Hand", None).unwrap();
    let all = |n: i64| -> std::collections::BTreeMap<String, i64> {
        s.pack("wayfarer")
            .unwrap()
            .stats
            .iter()
            .map(|st| (st.id.clone(), n))
            .collect()
    };
    let units = [
        ("None", all(0)),
        ("Ones", all(1)),
        ("Best", {
            let mut b = all(3);
            b.insert("athletics".into(), 6);
            b.insert("detect".into(), 6);
            b
        }),
    ];
    for (name, base) in units {
        s.recruit(
            band,
            NewFighter {
                name: name.into(),
                base,
                ..Default::default()
            },
        )
        .unwrap();
    }
    let view = s.gang_view(band).unwrap();
    let of = |name: &str| {
        let v = view
            .fighters
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .value
            .clone()
            .unwrap();
        (v.value, v.score.unwrap())
    };
    // 004 (line 665): "Note- The minimum cost for any unit is 1 point!";
    // (667-668): "The minimum VP value is 1."
    assert_eq!(of("None"), (1, 1));
    // 004 (line 1658): "Each die value adds 3 to the unit's overall force
    // point cost." Ten dice: 30 points; 30 / 50 rounds down to 0, so 1 VP.
    assert_eq!(of("Ones"), (30, 1));
    // 8 × 3 + 2 × 6 = 36 dice, 108 points: "the total value divided by 50
    // (rounding down)" is 2.
    assert_eq!(of("Best"), (108, 2));
    let total = view.value.unwrap();
    assert_eq!((total.total.value, total.total.score), (139, Some(4)));
}

#[test]
fn the_command_line_shows_each_units_value_and_the_warbands_total() {
    let (dir, db) = red_hand_on_the_command_line();
    let run = |args: &[&str]| rapsheet_in(dir.path(), &db, args);
    run(&[
        "fighter",
        "add",
        "Brick",
        "--gang",
        "Red Hand",
        "--stat",
        "melee_off=3",
    ]);
    let text = run(&["gang", "show", "Red Hand"]);
    // Three dice of Melee OFF and one of each other attribute (ruling
    // attribute-defaults): twelve dice, 36 points, 1 VP.
    assert!(text.contains("Value 36, VP 1"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&run(&["gang", "show", "Red Hand", "--json"])).unwrap();
    let brick = &json["fighters"][0]["value"];
    assert_eq!(brick["value"], 36);
    assert_eq!(brick["score"], 1);
    assert_eq!(brick["parts"][0]["from"], "MO 3");
    assert_eq!(brick["parts"][0]["points"], 9);
    assert_eq!(json["value"]["label"], "Value");
    assert_eq!(json["value"]["score_label"], "VP");
    assert_eq!(json["value"]["value"], 36);
}

/// A Wayfarer unit built from the catalog: its value is its dice and the
/// printed cost of each part, and the rules of building it are checked.
#[test]
fn a_wayfarer_unit_from_the_catalog_is_priced_part_by_part_and_checked() {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("w.rapsheet"), "W", "wayfarer").unwrap();
    let (band, _) = s.found_gang("Red Hand", None).unwrap();
    let dice = [
        ("melee_off", 2),
        ("melee_def", 2),
        ("ballistic_off", 1),
        ("ballistic_def", 1),
        ("technical_off", 0),
        ("technical_def", 1),
        ("arcane_off", 0),
        ("arcane_def", 1),
        ("athletics", 3),
        ("detect", 2),
    ];
    let recruit = |s: &mut Session, name: &str, parts: &[&str]| {
        s.recruit(band, unit(name, parts, &dice)).unwrap();
    };
    recruit(
        &mut s,
        "Grak",
        &[
            "species-orc",
            "trait-ferocious",
            "skill-charge",
            "weapon-sword",
            "armor-leathers",
        ],
    );
    let view = s.gang_view(band).unwrap();
    let grak = view.fighters[0].value.clone().unwrap();
    // 004 (line 1658): "Each die value adds 3 to the unit's overall force
    // point cost": 13 dice, 39 points. Orc "+0" (its row of MORE FANTASY
    // SPECIES, line 1106), FEROCIOUS "+8" (line 863), CHARGE "+5" (line
    // 2327), SWORD "+11" (line 3647), LEATHERS "+10" (line 4355): 73 points,
    // and 73 / 50 rounds down to 1 VP.
    assert_eq!((grak.value, grak.score), (73, Some(1)));
    assert!(broken(&view).is_empty(), "{:?}", broken(&view));

    // Treefolk's printed "+45" is kept, with its ruling (the formula says 82).
    recruit(&mut s, "Bark", &["species-treefolk"]);
    let view = s.gang_view(band).unwrap();
    let bark = view.fighters.iter().find(|f| f.name == "Bark").unwrap();
    let part = bark.value.as_ref().unwrap().parts.last().unwrap().clone();
    assert_eq!(part.points, 45);
    assert_eq!(part.ruling.as_deref(), Some("cost-treefolk"));

    // 004 (line 655): "Step 2: Select species template"; (808-809)
    // BESTIAL: "You may never use equipment". Each is refused, naming it.
    let refused = |s: &mut Session, name: &str, parts: &[&str]| {
        s.recruit(band, unit(name, parts, &dice))
            .unwrap_err()
            .to_string()
    };
    let twice = refused(&mut s, "Twice", &["species-orc", "species-treefolk"]);
    assert!(
        twice.contains("A unit has one species template."),
        "{twice}"
    );
    let beast = refused(&mut s, "Beast", &["trait-bestial", "weapon-sword"]);
    assert!(
        beast.contains("A Bestial unit may never use equipment."),
        "{beast}"
    );
    assert!(s.fighter_named("Twice", None).is_err());
    assert!(s.fighter_named("Beast", None).is_err());
}

/// A Wayfarer warband with units of the given parts, every attribute at its
/// default die, and its view.
fn warband(units: &[(&str, &[&str])]) -> (tempfile::TempDir, rapsheet::session::GangView) {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("w.rapsheet"), "W", "wayfarer").unwrap();
    let (band, _) = s.found_gang("Red Hand", None).unwrap();
    for (name, parts) in units {
        s.recruit(band, unit(name, parts, &[])).unwrap();
    }
    let view = s.gang_view(band).unwrap();
    (dir, view)
}

/// Why recruiting the last of `units` into a Wayfarer warband of the others
/// is refused (every other recruit accepted).
fn refusal(units: &[(&str, &[&str])]) -> String {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("w.rapsheet"), "W", "wayfarer").unwrap();
    let (band, _) = s.found_gang("Red Hand", None).unwrap();
    let (last, others) = units.split_last().unwrap();
    for (name, parts) in others {
        s.recruit(band, unit(name, parts, &[])).unwrap();
    }
    s.recruit(band, unit(last.0, last.1, &[]))
        .unwrap_err()
        .to_string()
}

/// The rules a warband breaks, described, but the two steps every unit
/// takes (a rank, a species: 004 lines 654-655), which a test of other
/// parts leaves out of the units it weighs.
fn broken(view: &rapsheet::session::GangView) -> Vec<String> {
    view.problems
        .iter()
        .filter(|p| !EVERY_UNITS_STEPS.contains(&p.rule.as_str()))
        .map(|p| p.describe())
        .collect()
}

/// The rules of the steps every unit takes: a rank, and a species.
const EVERY_UNITS_STEPS: [&str; 2] = ["constraints.a-rank", "constraints.a-species"];

#[test]
fn a_ranks_abilities_are_capped_and_a_species_own_traits_take_no_slot_and_cost_nothing_more() {
    // 004 (lines 560-573): "The number of abilities you may purchase is
    // dependent upon the character's rank": Troop 2.
    let refused = refusal(&[(
        "Grak",
        &[
            "rank-troop",
            "species-orc",
            "trait-ferocious",
            "skill-charge",
            "skill-alert",
        ][..],
    )]);
    assert!(
        refused.contains("Grak: A troop unit has at most 2 abilities"),
        "{refused}"
    );
    let (_d, view) = warband(&[(
        "Grak",
        &[
            "rank-troop",
            "species-orc",
            "trait-ferocious",
            "skill-charge",
        ][..],
    )]);
    assert!(broken(&view).is_empty(), "{:?}", broken(&view));

    // (700-707) Treefolk's mandatory traits are "included … in the
    // template's base cost" and "do not take up slots": Behemoth and
    // Undifferentiated add nothing and leave both troop slots free.
    let bark = [
        "rank-troop",
        "species-treefolk",
        "trait-behemoth",
        "trait-undifferentiated",
        "skill-charge",
        "trait-ferocious",
    ];
    let (_d, view) = warband(&[("Bark", &bark[..])]);
    assert!(broken(&view).is_empty(), "{:?}", broken(&view));
    let value = view.fighters[0].value.clone().unwrap();
    // 10 dice (30) + Treefolk 45 + Charge 5 + Ferocious 8.
    assert_eq!(value.value, 30 + 45 + 5 + 8, "{:?}", value.parts);

    // A template without its mandatory traits is told so.
    let (_d, view) = warband(&[("Bark", &["species-treefolk"][..])]);
    assert!(
        broken(&view)
            .iter()
            .any(|p| p.contains("Treefolk comes with Behemoth: add it")),
        "{:?}",
        broken(&view)
    );
}

#[test]
fn elite_and_champion_allowances_count_each_thousand_points_or_part_of_it() {
    // 004 (575-587): "up to four elite units per 1,000 points"; "one
    // champion unit per 1,000 points"; ruling allowance-per-points: each
    // 1,000 points of the warband's value "or part of it".
    let elite: &[&str] = &["rank-elite"];
    let champion: &[&str] = &["rank-champion"];
    let (_d, view) = warband(&[
        ("A", elite),
        ("B", elite),
        ("C", elite),
        ("D", elite),
        ("E", champion),
    ]);
    assert!(broken(&view).is_empty(), "{:?}", broken(&view));
    // A fifth elite unit: five units of ten dice, 150 points, one 1,000 or
    // part of it. Refused, naming the allowance and its ruling.
    let fifth = refusal(&[
        ("A", elite),
        ("B", elite),
        ("C", elite),
        ("D", elite),
        ("E", elite),
    ]);
    assert!(
        fifth.starts_with(
            "refused: Up to four elite units per 1,000 points. (5 units with Elite; 4 allowed at 150 points) (ruling: "
        ),
        "{fifth}"
    );
    // A second champion beside four elites and one: six units, 180 points.
    let second = refusal(&[
        ("A", elite),
        ("B", elite),
        ("C", elite),
        ("D", elite),
        ("E", champion),
        ("F", champion),
    ]);
    assert!(
        second.starts_with(
            "refused: One champion unit per 1,000 points. (2 units with Champion; 1 allowed at 180 points) (ruling: "
        ),
        "{second}"
    );
}

/// The unit's card and the roster sheet print its value and VP (004: the
/// unit record's cost and VP).
#[test]
fn a_units_card_and_the_roster_sheet_print_its_value_and_vp() {
    let (dir, db) = red_hand_on_the_command_line();
    let run = |args: &[&str]| {
        rapsheet_in(dir.path(), &db, args);
    };
    // 12 dice (36: Melee OFF 3, the others at their default 1) + Troop 0 +
    // Orc 0 + Ferocious 8 + Sword 11 + Leathers 10 = 65.
    run(&[
        "fighter",
        "add",
        "Grak",
        "--gang",
        "Red Hand",
        "--stat",
        "melee_off=3",
        "--quirk",
        "Troop",
        "--quirk",
        "Orc",
        "--quirk",
        "Ferocious",
        "--quirk",
        "Sword",
        "--quirk",
        "Leathers",
    ]);
    run(&["cards", "--gang", "Red Hand", "-o", "c.pdf"]);
    run(&["roster", "--gang", "Red Hand", "-o", "r.pdf"]);
    let text = |file: &str| {
        let out = std::process::Command::new("pdftotext")
            .arg(dir.path().join(file))
            .arg("-")
            .output()
            .expect("pdftotext (poppler-utils)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let card = text("c.pdf");
    assert!(card.contains("VALUE") && card.contains("65"), "{card}");
    assert!(card.contains("VP"), "{card}");
    let roster = text("r.pdf");
    assert!(
        roster.contains("Value 65") && roster.contains("VP 1"),
        "{roster}"
    );
}

/// The Wayfarer demo: two legal warbands within the escalation campaign's
/// 500 points (004: "In this mode, players begin with 500 point
/// warbands.").
#[test]
fn the_wayfarer_demo_is_two_legal_500_point_warbands() {
    let dir = util::temp();
    let db = dir.path().join("w.rapsheet");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(["demo", "--ruleset", "wayfarer", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = Session::open(&db).unwrap();
    let gangs = s.gangs().unwrap();
    assert_eq!(gangs.len(), 2);
    for gang in gangs {
        let view = s.gang_view(gang.id).unwrap();
        assert_eq!(view.ruleset, "wayfarer");
        assert!(view.legal, "{}: {:?}", view.name, view.problems);
        let total = view.value.unwrap().total.value;
        assert!((400..=500).contains(&total), "{}: {total}", view.name);
    }
    // A pack with no demo says which have one, and writes nothing.
    let other = dir.path().join("h.rapsheet");
    let pack =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/lantern-road.toml");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(["demo", "--ruleset", "lantern-road", "--pack"])
        .arg(&pack)
        .arg("--db")
        .arg(&other)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("there is no demo for The Lantern Road"),
        "{err}"
    );
    assert!(err.contains("wayfarer"), "{err}");
    assert!(!other.exists(), "nothing written");
}

/// 004: "Between matches, players may spend resource points as force
/// points to purchase new units or buy equipment." A unit bought is paid
/// its value, an entry bought its cost, each in the same step as the
/// change, which one undo takes back.
#[test]
fn units_and_equipment_bought_between_matches_are_paid_with_resources() {
    let (dir, db) = red_hand_after_a_match();
    let run = |args: &[&str]| rapsheet_in(dir.path(), &db, args);
    let resources = || {
        let s = Session::open(&db).unwrap();
        let id = s.gang_named("Red Hand").unwrap().id;
        s.gang_view(id)
            .unwrap()
            .resources
            .iter()
            .find(|r| r.id == "resources")
            .unwrap()
            .amount
    };
    // Ten dice at their default: 30 points.
    let said = run(&["fighter", "add", "Grak", "--gang", "Red Hand", "--buy"]);
    assert!(said.contains("Buy Grak for Red Hand for 30"), "{said}");
    assert_eq!(resources(), 70);
    // SWORD "+11" (line 3647).
    let said = run(&["fighter", "buy", "Grak", "Sword"]);
    assert!(said.contains("Buy Sword for Grak for 11"), "{said}");
    assert_eq!(resources(), 59);
    // What the warband cannot pay for is refused, with nothing written.
    let before = std::fs::read(&db).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(["fighter", "buy", "Grak", "Energy Cannon", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("buying Energy Cannon for 102"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
    // One undo takes back the sword and its price.
    run(&["undo"]);
    assert_eq!(resources(), 70);
    let s = Session::open(&db).unwrap();
    let grak = s.fighter_named("Grak", None).unwrap();
    assert!(grak.quirks.is_empty());
}

/// The text of one of Wayfarer's rulings.
fn wayfarer_ruling(s: &Session, id: &str) -> String {
    s.pack("wayfarer")
        .unwrap()
        .ruling(id)
        .unwrap()
        .ruling
        .clone()
}

/// The problems that name a unit, described.
fn unit_problems(s: &Session, band: rapsheet::campaign::GangId, unit: &str) -> Vec<String> {
    s.gang_view(band)
        .unwrap()
        .problems
        .iter()
        .filter(|p| !EVERY_UNITS_STEPS.contains(&p.rule.as_str()))
        .map(|p| p.describe())
        .filter(|p| p.starts_with(&format!("{unit}:")))
        .collect()
}

/// The budget problems of a warband, described.
fn budget_problems(s: &Session, band: rapsheet::campaign::GangId) -> Vec<String> {
    s.gang_view(band)
        .unwrap()
        .problems
        .iter()
        .filter(|p| p.rule == "valuation.budget")
        .map(|p| p.describe())
        .collect()
}

/// 004 (line 5788): "In this mode, players begin with 500 point warbands";
/// (lines 5796-5797) "Between matches, players may spend resource points
/// as force points to purchase new units or buy equipment." The warband's
/// units are held to its Force Point Pool (lines 554-555), 500 at the
/// start, which what is bought between matches joins (ruling force-pool).
#[test]
fn a_warband_is_held_to_its_force_point_pool_which_grows_by_what_it_buys() {
    let dir = util::temp();
    let db = dir.path().join("w.rapsheet");
    let mut s = Session::create(&db, "W", "wayfarer").unwrap();
    let (band, _) = s.found_gang("Red Hand", None).unwrap();
    let pool = |s: &Session| {
        let gang = s.gang(band).unwrap();
        (gang.resources["force-pool"], gang.resources["resources"])
    };
    assert_eq!(pool(&s), (500, 0), "500 point warbands, no resources");
    // Sixteen units of ten dice at their default, 30 points each: 480.
    for n in 0..16 {
        s.recruit(band, unit(&format!("Grunt {n}"), &[], &[]))
            .unwrap();
    }
    assert!(budget_problems(&s, band).is_empty());
    // A seventeenth before the first match: 510, over the 500, refused.
    let refused = s
        .recruit(band, unit("Grunt 16", &[], &[]))
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains(
            "Its units add up to 510 Value, more than its 500 Force Point Pool. (ruling: The warband's Force Point Pool: 500 at the start"
        ),
        "{refused}"
    );
    assert!(budget_problems(&s, band).is_empty());
    // After a match, a unit bought with resources pays its value and adds
    // as much to the pool, in one step.
    s.adjust_resource(band, "resources", 100, "a match")
        .unwrap();
    s.buy_recruit(band, unit("Grak", &[], &[])).unwrap();
    assert_eq!(pool(&s), (530, 70));
    assert!(budget_problems(&s, band).is_empty());
    // Equipment bought the same way: SWORD "+11" (line 3647).
    let grak = s.fighter_named("Grak", None).unwrap().id;
    let sword = s.resolve_quirks(band, &["Sword".into()]).unwrap();
    s.buy_quirk(grak, sword[0].clone()).unwrap();
    assert_eq!(pool(&s), (541, 59));
    // One undo takes back the sword, its price and its points.
    s.undo_last().unwrap();
    assert_eq!(pool(&s), (530, 70));
    // A unit added without paying would be over the pool again.
    let refused = s
        .recruit(band, unit("Stowaway", &[], &[]))
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains(
            "Its units add up to 540 Value, more than its 530 Force Point Pool. (ruling: The warband's Force Point Pool: 500 at the start"
        ),
        "{refused}"
    );
}

/// 004 (lines 5796-5797): resources buy "new units or ... equipment": a
/// skill is not bought on its own, and asking writes nothing.
#[test]
fn only_units_and_equipment_are_bought_between_matches() {
    let (dir, db) = red_hand_after_a_match();
    rapsheet_in(
        dir.path(),
        &db,
        &["fighter", "add", "Grak", "--gang", "Red Hand", "--buy"],
    );
    let before = std::fs::read(&db).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(["fighter", "buy", "Grak", "Alert", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Alert is not bought between games: only Equipment"),
        "{err}"
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// A custom occupation, as 004's CUSTOM OCCUPATIONS invites (lines
/// 1669-1671): "Decide on a spread of dice values (0-6 for Athletics and
/// Detect, 0-3 for the rest) and a couple of skill categories that reflect
/// your concept." Kept in the campaign as house rules.
const OUR_OCCUPATIONS: &str = r#"
[pack]
id = "our-occupations"
name = "Our occupations"
format = 1
version = "0.1.0"
base = "wayfarer"

[[quirks]]
id = "occupation-cutthroat"
name = "Cutthroat"
category = "occupation"
tags = ["occupation"]
ranges = { melee_off = [1, 3], melee_def = [0, 2], ballistic_off = [0, 1], ballistic_def = [0, 1], technical_off = [0, 1], technical_def = [0, 1], arcane_off = [0, 0], arcane_def = [0, 1], athletics = [1, 4], detect = [1, 4] }
opens = ["group:melee", "group:larceny"]
source = "Our house rules (004, CUSTOM OCCUPATIONS)"

[[constraints]]
id = "one-occupation"
kind = "max_tagged"
tag = "occupation"
max = 1
message = "A unit has one occupation template."
source = "004: UNIT CREATION OVERVIEW (line 658): \"Step 5: Select an occupation template.\""
"#;

/// 004 (lines 1656-1658): "When purchasing dice for your unit, you must
/// stay within the range allowed by the occupation."; (1676-1680) "You may
/// elect to take skills outside of those categories, but each such
/// selection takes up two slots in the unit's ability allowance. Any unit
/// may select skills from the General category as though they are granted
/// by occupation."
#[test]
fn an_occupation_holds_a_units_dice_to_its_ranges_and_a_skill_outside_it_takes_two_slots() {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("w.rapsheet"), "W", "wayfarer").unwrap();
    s.keep_house_pack("our-occupations.toml", OUR_OCCUPATIONS)
        .unwrap();
    let (band, _) = s.found_gang("Red Hand", Some("our-occupations")).unwrap();
    let problems = |s: &Session, unit: &str| unit_problems(s, band, unit);
    // A troop (2 slots) with Charge (Melee, opened) and Alert (General).
    let cutthroat = ["rank-troop", "occupation-cutthroat"];
    let parts = |more: &[&'static str]| -> Vec<&'static str> {
        cutthroat
            .iter()
            .copied()
            .chain(more.iter().copied())
            .collect()
    };
    s.recruit(
        band,
        unit(
            "Vex",
            &parts(&["skill-charge", "skill-alert"]),
            &[("arcane_off", 0)],
        ),
    )
    .unwrap();
    assert!(problems(&s, "Vex").is_empty(), "{:?}", problems(&s, "Vex"));
    // Advancing Assault is Ballistics, outside Melee and Larceny: two
    // slots, so Charge and it are three, over a troop's 2.
    let sly = s
        .recruit(
            band,
            unit(
                "Sly",
                &parts(&["skill-charge", "skill-advancing-assault"]),
                &[("arcane_off", 0)],
            ),
        )
        .unwrap_err()
        .to_string();
    assert!(
        sly.starts_with("refused: Sly: A troop unit has at most 2 abilities")
            && sly.contains("takes two, as the text says"),
        "{sly}"
    );
    // Arcane OFF at the default 1 die, where a Cutthroat allows none.
    s.recruit(band, unit("Dim", &parts(&[]), &[])).unwrap();
    assert_eq!(problems(&s, "Dim"), ["Dim: Cutthroat allows AO 0-0, not 1"]);
}

/// 004 (lines 615-616): "A second, smaller box below that shows any bumps
/// (numbers following plus signs) that are granted to the test"; (656)
/// "Step 3: Apply attribute bumps granted by species template." Orc (line
/// 1106 and its column): MO +2, MD +1, BD +1, TO -1, TD -1, AO -1, AD -1.
#[test]
fn a_species_bumps_show_beside_the_dice_and_cost_nothing_more() {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("w.rapsheet"), "W", "wayfarer").unwrap();
    let (band, _) = s.found_gang("Red Hand", None).unwrap();
    s.recruit(
        band,
        unit("Grak", &["rank-troop", "species-orc"], &[("melee_off", 3)]),
    )
    .unwrap();
    let view = s.gang_view(band).unwrap();
    let grak = &view.fighters[0];
    let stat = |id: &str| grak.stats.iter().find(|st| st.id == id).unwrap();
    assert_eq!(stat("melee_off").display(), "3 +2");
    assert_eq!(stat("technical_off").display(), "1 -1");
    assert_eq!(stat("ballistic_off").display(), "1", "BO +0: no bump");
    assert!(
        stat("melee_off").breakdown().contains("bump +2 from Orc"),
        "{}",
        stat("melee_off").breakdown()
    );
    // The dice are still 3 (9 points); the template's bumps are in its
    // cost (lines 703-705: "their cost is included (along with the
    // combined bump costs) in the template's base cost"), Orc "+0".
    assert_eq!(grak.value.as_ref().unwrap().value, 3 * (3 + 9));
    // The card: the dice in the box, the bumps small under them.
    let cards = s.cards(band, &[]).unwrap();
    let mo = cards[0].stats.iter().find(|c| c.label == "MO").unwrap();
    assert_eq!((mo.value.as_str(), mo.bumps.as_deref()), ("3", Some("+2")));
}

/// 004 (lines 2967-2973): animals have no occupation; "they may possess 1-3
/// dice in any attribute without an N/A score. Athletics and Detect may
/// range from 1-6 dice. Animals may select skills from the General and
/// Athletics categories." (ruling animal-occupations). Giant Rat (line
/// 3008): BO, TO and AO are N/A.
#[test]
fn an_animal_is_held_to_its_templates_dice_and_categories() {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("w.rapsheet"), "W", "wayfarer").unwrap();
    let (band, _) = s.found_gang("Red Hand", None).unwrap();
    let rat = [
        "rank-troop",
        "species-giant-rat",
        "trait-scent",
        "trait-sneaky",
        "trait-wild",
    ];
    s.recruit(band, unit("Nib", &rat, &[])).unwrap();
    let mut expected: Vec<String> = ["AO", "BO", "TO"]
        .map(|stat| {
            format!(
                "Nib: Giant Rat allows {stat} 0-0, not 1 (ruling: {})",
                wayfarer_ruling(&s, "animal-occupations")
            )
        })
        .into();
    // 004 (lines 1069-1070), WILD: "You may never use equipment or possess
    // a Technical OFF score higher than zero."
    expected.push(
        "Nib: A Wild unit may never possess a Technical OFF score higher than zero. (Technical OFF 1)"
            .into(),
    );
    assert_eq!(unit_problems(&s, band, "Nib"), expected);
    let none = [
        ("ballistic_off", 0),
        ("technical_off", 0),
        ("arcane_off", 0),
    ];
    let of = |s: &Session, name: &str| unit_problems(s, band, name);
    // Charge is Melee, outside Athletics: two slots, a troop's whole 2.
    let mut parts = rat.to_vec();
    parts.push("skill-charge");
    s.recruit(band, unit("Fang", &parts, &none)).unwrap();
    assert!(of(&s, "Fang").is_empty(), "{:?}", of(&s, "Fang"));
    // With Alert (General, one slot) beside it: three, over the 2.
    parts.push("skill-alert");
    let claw = s
        .recruit(band, unit("Claw", &parts, &none))
        .unwrap_err()
        .to_string();
    assert!(
        claw.starts_with("refused: Claw: A troop unit has at most 2 abilities"),
        "{claw}"
    );
}

/// 004 (lines 4885-4889): "A spell may be purchased for a single
/// character, recording it on their sheet and adding its cost to the
/// character's abilities section ... Purchasing a spell in this way takes up
/// an ability allotted by rank." BANE PLAGUE "(+20)" (line 4906).
#[test]
fn a_spell_bought_for_a_unit_costs_its_price_and_takes_an_ability_slot() {
    let (_dir, view) = warband(&[("Morr", &["rank-troop", "spell-bane-plague", "skill-alert"])]);
    let morr = &view.fighters[0];
    let parts = &morr.value.as_ref().unwrap().parts;
    assert!(
        parts
            .iter()
            .any(|p| p.from == "Bane Plague" && p.points == 20),
        "{parts:?}"
    );
    assert!(broken(&view).is_empty(), "{:?}", broken(&view));
    // Bane Plague, Alert and Charge: three abilities, over a troop's 2.
    let refused = refusal(&[(
        "Morr",
        &[
            "rank-troop",
            "spell-bane-plague",
            "skill-alert",
            "skill-charge",
        ],
    )]);
    assert!(
        refused.starts_with("refused: Morr: A troop unit has at most 2 abilities"),
        "{refused}"
    );
}

/// 004 (lines 654-655): "Step 1: Select the unit's rank"; "Step 2: Select
/// species template": a unit with a rank and no species is not legal, and
/// says which step it lacks, with the ruling on the lost templates.
#[test]
fn a_unit_takes_a_rank_and_a_species_as_every_unit_does() {
    let (_d, view) = warband(&[("Nim", &["rank-troop"][..])]);
    assert!(!view.legal);
    let lacks: Vec<_> = view.problems.iter().map(|p| p.rule.as_str()).collect();
    assert_eq!(lacks, ["constraints.a-species"], "{:?}", view.problems);
    assert!(
        view.problems[0].message.contains("entered as house rules"),
        "{:?}",
        view.problems[0]
    );
    let (_d, view) = warband(&[("Nim", &["rank-troop", "species-ratfolk"][..])]);
    assert!(view.legal, "{:?}", view.problems);
    let (_d, view) = warband(&[("Nim", &["species-ratfolk"][..])]);
    let lacks: Vec<_> = view.problems.iter().map(|p| p.rule.as_str()).collect();
    assert_eq!(lacks, ["constraints.a-rank"]);
}
