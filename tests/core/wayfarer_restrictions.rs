//! What Wayfarer Tactics' traits, skills and ranks (004) say a unit may
//! not have, or must have, as the rules a warband is checked by: through
//! the session, the command line and the pack checker. Where the text is
//! open, the warband shows the ruling it relies on.

use crate::util;

use std::path::{Path, PathBuf};

use rapsheet::campaign::commands::NewFighter;
use rapsheet::campaign::{GangId, QuirkPick};
use rapsheet::session::Session;

/// A unit to recruit: its entries by id and its own attribute dice (those
/// left out at the pack's default die of 1).
fn unit(name: &str, parts: &[&str], dice: &[(&str, i64)]) -> NewFighter {
    NewFighter {
        name: name.into(),
        base: dice.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
        quirks: parts.iter().map(|k| QuirkPick::new(*k)).collect(),
        ..Default::default()
    }
}

/// A Wayfarer campaign with the warband Red Hand.
fn red_hand() -> (tempfile::TempDir, Session, GangId) {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("w.rapsheet"), "W", "wayfarer").unwrap();
    let (band, _) = s.found_gang("Red Hand", None).unwrap();
    (dir, s, band)
}

/// The problems that name a unit, as a player reads them, but the two
/// steps every unit takes (a rank, a species: 004 lines 654-655), which
/// the units here, made of the parts each test weighs, leave out.
fn problems_of(s: &Session, band: GangId, name: &str) -> Vec<String> {
    s.gang_view(band)
        .unwrap()
        .problems
        .iter()
        .filter(|p| !["constraints.a-rank", "constraints.a-species"].contains(&p.rule.as_str()))
        .map(|p| p.describe())
        .filter(|p| p.starts_with(&format!("{name}:")))
        .collect()
}

/// Recruits a unit and gives its problems.
fn recruited(s: &mut Session, band: GangId, new: NewFighter) -> Vec<String> {
    let name = new.name.clone();
    s.recruit(band, new).unwrap();
    problems_of(s, band, &name)
}

/// Recruits a unit that would break a limit its entries state: refused,
/// with the message and source, and nobody recruited.
fn refused(s: &mut Session, band: GangId, new: NewFighter) -> String {
    let name = new.name.clone();
    let err = s.recruit(band, new).unwrap_err().to_string();
    assert!(
        s.fighter_named(&name, None).is_err(),
        "{name} was recruited"
    );
    err
}

/// Runs `rapsheet ARGS --db DB`, insists it worked, and gives what it
/// printed.
fn rapsheet(dir: &Path, db: &Path, args: &[&str]) -> String {
    let mut all: Vec<&str> = args.to_vec();
    let db = db.to_str().unwrap();
    all.extend(["--db", db]);
    let out = util::rapsheet(dir, &all);
    assert!(out.status.success(), "{}", util::stderr(&out));
    util::stdout(&out)
}

/// A Wayfarer campaign made on the command line, with the warband Red Hand.
fn red_hand_on_the_command_line() -> (tempfile::TempDir, PathBuf) {
    let dir = util::temp();
    let db = dir.path().join("w.rapsheet");
    rapsheet(
        dir.path(),
        &db,
        &["new", "--ruleset", "wayfarer", "--name", "W"],
    );
    rapsheet(dir.path(), &db, &["gang", "new", "Red Hand"]);
    (dir, db)
}

// 004:808-809 (BESTIAL) and 004:1069-1070 (WILD): "You may never use
// equipment or possess a Technical OFF score higher than zero."
#[test]
fn a_bestial_or_wild_unit_must_have_0_technical_off() {
    let (_dir, mut s, band) = red_hand();
    // Every attribute at its default die: Technical OFF 1.
    assert_eq!(
        recruited(&mut s, band, unit("Fang", &["trait-bestial"], &[])),
        [
            "Fang: A Bestial unit may never possess a Technical OFF score higher than zero. (Technical OFF 1)"
        ]
    );
    assert_eq!(
        recruited(&mut s, band, unit("Howl", &["trait-wild"], &[])),
        [
            "Howl: A Wild unit may never possess a Technical OFF score higher than zero. (Technical OFF 1)"
        ]
    );
    let none = [("technical_off", 0)];
    assert!(recruited(&mut s, band, unit("Maw", &["trait-bestial"], &none)).is_empty());
    assert!(recruited(&mut s, band, unit("Tusk", &["trait-wild"], &none)).is_empty());
    // Setting the die afterwards is checked the same way.
    let maw = s.fighter_named("Maw", None).unwrap().id;
    s.set_base_stat(maw, "technical_off", 2).unwrap();
    assert_eq!(
        problems_of(&s, band, "Maw"),
        [
            "Maw: A Bestial unit may never possess a Technical OFF score higher than zero. (Technical OFF 2)"
        ]
    );
}

// 004:808-809: "You may never use equipment or possess a Technical OFF score
// higher than zero." Equipment given to a Bestial unit is a problem named
// by its rule and its source, and is what a purchase is checked against
// before it is paid for.
#[test]
fn equipment_for_a_bestial_unit_breaks_its_rule_naming_the_source() {
    let (_dir, mut s, band) = red_hand();
    let none = [("technical_off", 0)];
    s.recruit(band, unit("Fang", &["trait-bestial"], &none))
        .unwrap();
    s.recruit(band, unit("Grak", &["species-orc"], &none))
        .unwrap();
    let fang = s.fighter_named("Fang", None).unwrap();
    let grak = s.fighter_named("Grak", None).unwrap();
    let roster = [fang.clone(), grak.clone()];
    let pack = s.pack("wayfarer").unwrap();
    let would = rapsheet::campaign::problems_if_given(pack, &roster, fang.id, "weapon-sword", &[]);
    assert_eq!(would.len(), 1, "{would:?}");
    assert_eq!(would[0].rule, "constraints.bestial-no-equipment");
    assert_eq!(
        would[0].describe(),
        "Fang: A Bestial unit may never use equipment."
    );
    assert!(
        would[0].source.contains("BESTIAL (lines 808-809)"),
        "{}",
        would[0].source
    );
    // The same sword breaks nothing for an orc.
    assert!(
        rapsheet::campaign::problems_if_given(pack, &roster, grak.id, "weapon-sword", &[])
            .is_empty()
    );
    // Leathers are equipment too (004:4355, ARMOR).
    assert!(rapsheet::campaign::quirk_breaks_a_rule(
        pack,
        &roster,
        fang.id,
        "armor-leathers"
    ));
}

// 004:808-809: "You may never use equipment or possess a Technical OFF score
// higher than zero."
#[test]
fn the_command_line_flags_a_bestial_units_technical_off() {
    let (dir, db) = red_hand_on_the_command_line();
    let said = rapsheet(
        dir.path(),
        &db,
        &[
            "fighter", "add", "Fang", "--gang", "Red Hand", "--quirk", "Bestial",
        ],
    );
    let problem = "problem: Fang: A Bestial unit may never possess a Technical OFF score higher than zero. (Technical OFF 1)";
    assert!(said.contains(problem), "{said}");
    let shown = rapsheet(dir.path(), &db, &["gang", "show", "Red Hand"]);
    assert!(shown.contains(problem), "{shown}");
    rapsheet(
        dir.path(),
        &db,
        &["fighter", "stat", "Fang", "technical_off", "0"],
    );
    let shown = rapsheet(dir.path(), &db, &["gang", "show", "Red Hand"]);
    assert!(!shown.contains("Technical OFF score"), "{shown}");
}

// 004:1731-1732 (HORDESMAN): "You must have the Minion ability to select
// this skill."
#[test]
fn hordesman_needs_minion() {
    let (_dir, mut s, band) = red_hand();
    assert_eq!(
        recruited(&mut s, band, unit("Grub", &["skill-hordesman"], &[])),
        ["Grub: Hordesman: you must have the Minion ability to select this skill."]
    );
    assert!(
        recruited(
            &mut s,
            band,
            unit("Scab", &["skill-minion", "skill-hordesman"], &[])
        )
        .is_empty()
    );
}

// 004:1777-1778 (MINION): "You may not possess this ability if you are worth
// more than 1 VP."; 004:667-668: "a victory point (VP) value equal to the
// total value divided by 50 (rounding down)".
#[test]
fn a_minion_is_worth_at_most_1_vp() {
    let (_dir, mut s, band) = red_hand();
    // Ten dice at 3 points (004:1658) and MINION "-5" (004:1772): 25, 1 VP.
    assert!(recruited(&mut s, band, unit("Scab", &["skill-minion"], &[])).is_empty());
    // Every attribute at its most: 8 x 3 + 2 x 6 = 36 dice, 108 points,
    // less 5: 103, 2 VP.
    let most = [
        ("melee_off", 3),
        ("melee_def", 3),
        ("ballistic_off", 3),
        ("ballistic_def", 3),
        ("technical_off", 3),
        ("technical_def", 3),
        ("arcane_off", 3),
        ("arcane_def", 3),
        ("athletics", 6),
        ("detect", 6),
    ];
    let brute = refused(&mut s, band, unit("Brute", &["skill-minion"], &most));
    assert!(
        brute.starts_with(
            "refused: Brute: Minion: you may not possess this ability if you are worth more than 1 VP. (2 VP)"
        ) && brute.contains("004: GENERAL, MINION (lines 1777-1778)"),
        "{brute}"
    );
}

// 004:1793 (PACIFIST): "You may never use weapons and enemy units defeated
// by you are returned to reserves, not sent to captures."
#[test]
fn a_pacifist_never_uses_weapons_but_may_wear_armor() {
    let (_dir, mut s, band) = red_hand();
    let dove = refused(
        &mut s,
        band,
        unit("Dove", &["skill-pacifist", "weapon-sword"], &[]),
    );
    assert!(
        dove.starts_with("refused: Dove: A Pacifist unit may never use weapons."),
        "{dove}"
    );
    assert!(
        recruited(
            &mut s,
            band,
            unit("Calm", &["skill-pacifist", "armor-leathers"], &[])
        )
        .is_empty()
    );
}

// 004:1897-1898 (ARCANE CYPHER): "You must have at least one die in Arcane
// OFF."
#[test]
fn arcane_cypher_needs_an_arcane_off_die() {
    let (_dir, mut s, band) = red_hand();
    assert_eq!(
        recruited(
            &mut s,
            band,
            unit("Hush", &["skill-arcane-cypher"], &[("arcane_off", 0)])
        ),
        ["Hush: Arcane Cypher: you must have at least one die in Arcane OFF. (Arcane OFF 0)"]
    );
    assert!(recruited(&mut s, band, unit("Sigil", &["skill-arcane-cypher"], &[])).is_empty());
}

// 004:2300-2302 (SHADOW STRIDE): "You must have either the Magical Being type
// or at least one die in Arcane OFF."; 004:2493-2495 (STRIKE OF UNMAKING):
// "You must have either the Magical Being type or at least one Arcane OFF
// die."; 004:1084-1085: "All fantasy creatures ... possess the Magical Being
// type."; 004:2964-2965: "All animals and monsters have the Living type ...
// Monsters have the Magical Being type."
#[test]
fn shadow_stride_and_strike_of_unmaking_need_the_magical_being_type_or_an_arcane_off_die() {
    let (_dir, mut s, band) = red_hand();
    let no_arcane = [("arcane_off", 0)];
    assert_eq!(
        recruited(
            &mut s,
            band,
            unit("Shade", &["skill-shadow-stride"], &no_arcane)
        ),
        [
            "Shade: Shadow Stride: you must have either the Magical Being type or at least one die in Arcane OFF. (Arcane OFF 0)"
        ]
    );
    // An orc (MORE FANTASY SPECIES) has the type.
    assert!(
        recruited(
            &mut s,
            band,
            unit("Skulk", &["species-orc", "skill-shadow-stride"], &no_arcane)
        )
        .is_empty()
    );
    // A die in Arcane OFF will do without it.
    assert!(recruited(&mut s, band, unit("Wisp", &["skill-shadow-stride"], &[])).is_empty());
    assert_eq!(
        recruited(
            &mut s,
            band,
            unit("Smash", &["skill-strike-of-unmaking"], &no_arcane)
        ),
        [
            "Smash: Strike of Unmaking: you must have either the Magical Being type or at least one Arcane OFF die. (Arcane OFF 0)"
        ]
    );
    // A monster has the type; an animal has not.
    let dragon = [
        "species-dragon",
        "trait-breath-of-fire",
        "trait-ferocious",
        "trait-mammoth",
        "trait-wild",
        "trait-wings",
        "skill-strike-of-unmaking",
    ];
    let problems = recruited(
        &mut s,
        band,
        unit(
            "Scorch",
            &dragon,
            &[("technical_off", 0), ("arcane_off", 0)],
        ),
    );
    assert!(
        !problems.iter().any(|p| p.contains("Strike of Unmaking")),
        "{problems:?}"
    );
    let bear = [
        "species-bear",
        "trait-ferocious",
        "trait-mammoth",
        "trait-scent",
        "trait-wild",
        "skill-strike-of-unmaking",
    ];
    let animal = [
        ("ballistic_off", 0),
        ("technical_off", 0),
        ("arcane_off", 0),
    ];
    let problems = recruited(&mut s, band, unit("Ursa", &bear, &animal));
    assert!(
        problems.contains(&"Ursa: Strike of Unmaking: you must have either the Magical Being type or at least one Arcane OFF die. (Arcane OFF 0)".to_owned()),
        "{problems:?}"
    );
}

// 004:2511-2512 (SWOOP): "You must have the Wings trait."
#[test]
fn swoop_needs_wings() {
    let (_dir, mut s, band) = red_hand();
    assert_eq!(
        recruited(&mut s, band, unit("Kite", &["skill-swoop"], &[])),
        ["Kite: Swoop: you must have the Wings trait."]
    );
    assert!(
        recruited(
            &mut s,
            band,
            unit("Hawk", &["trait-wings", "skill-swoop"], &[])
        )
        .is_empty()
    );
}

// 004:1603-1604: "Construct units may not select the Robotic Drone trait,
// though may take the Arcane Drone ability instead."
#[test]
fn a_construct_may_not_take_robotic_drone() {
    let (_dir, mut s, band) = red_hand();
    let ruling = s
        .pack("wayfarer")
        .unwrap()
        .ruling("construct-units")
        .unwrap()
        .ruling
        .clone();
    let golem = refused(
        &mut s,
        band,
        unit("Golem", &["trait-ramshackle", "trait-robotic-drone"], &[]),
    );
    assert!(
        golem.starts_with(&format!(
            "refused: Golem: Construct units may not select the Robotic Drone trait. (ruling: {ruling})"
        )),
        "{golem}"
    );
    assert!(
        recruited(
            &mut s,
            band,
            unit("Idol", &["trait-ramshackle", "trait-arcane-drone"], &[])
        )
        .is_empty()
    );
    assert!(recruited(&mut s, band, unit("Drone", &["trait-robotic-drone"], &[])).is_empty());
}

// 004:589-593 (RANK): "Hero | N/A | Use of heroes is optional." A hero is
// held to no number of abilities (ruling hero-abilities), and its warband,
// legal, shows that it relies on the ruling.
#[test]
fn a_legal_warband_with_a_hero_shows_the_ruling_it_relies_on() {
    let (_dir, mut s, band) = red_hand();
    let hero = [
        "rank-hero",
        "skill-alert",
        "skill-charge",
        "skill-commander",
        "skill-duelist",
        "skill-iron-will",
        "skill-rage",
    ];
    assert!(recruited(&mut s, band, unit("Ulric", &hero, &[])).is_empty());
    let view = s.gang_view(band).unwrap();
    let ruling = s
        .pack("wayfarer")
        .unwrap()
        .ruling("hero-abilities")
        .unwrap()
        .ruling
        .clone();
    let hero = view
        .relies_on
        .iter()
        .find(|r| r.ruling == "hero-abilities")
        .expect("relies on hero-abilities");
    assert_eq!(hero.fighters, ["Ulric"]);
    assert_eq!(hero.rules, ["constraints.hero-abilities"]);
    assert_eq!(
        hero.describe(),
        format!("relies on a ruling: {ruling} (Ulric)")
    );
    // A troop's six abilities break its rank's 2, and show that ruling
    // with the problem rather than as relied on.
    let troop = [
        "rank-troop",
        "skill-alert",
        "skill-charge",
        "skill-commander",
    ];
    let gorm = refused(&mut s, band, unit("Gorm", &troop, &[]));
    let slots = s
        .pack("wayfarer")
        .unwrap()
        .ruling("ability-slots")
        .unwrap()
        .ruling
        .clone();
    assert!(
        gorm.starts_with("refused: Gorm: A troop unit has at most 2 abilities")
            && gorm.contains(&format!("(ruling: {slots})")),
        "{gorm}"
    );
}

// 004:589-593: "Hero | N/A | Use of heroes is optional." The command line
// shows the ruling a legal warband relies on, and so does its JSON.
#[test]
fn gang_show_names_the_ruling_a_legal_warband_relies_on() {
    let (dir, db) = red_hand_on_the_command_line();
    rapsheet(
        dir.path(),
        &db,
        &[
            "fighter",
            "add",
            "Ulric",
            "--gang",
            "Red Hand",
            "--quirk",
            "Hero",
            "--quirk",
            "Half-Elf",
            "--quirk",
            "Alert",
            "--quirk",
            "Charge",
            "--quirk",
            "Commander",
        ],
    );
    let shown = rapsheet(dir.path(), &db, &["gang", "show", "Red Hand"]);
    assert!(!shown.contains("problem:"), "{shown}");
    assert!(
        shown.contains("  relies on a ruling: No maximum:"),
        "{shown}"
    );
    assert!(shown.contains("(Ulric)"), "{shown}");
    let json: serde_json::Value = serde_json::from_str(&rapsheet(
        dir.path(),
        &db,
        &["gang", "show", "Red Hand", "--json"],
    ))
    .unwrap();
    assert_eq!(json["legal"], true);
    let relied = json["relies_on"].as_array().unwrap();
    let hero = relied
        .iter()
        .find(|r| r["ruling"] == "hero-abilities")
        .expect("hero-abilities in relies_on");
    assert_eq!(hero["fighters"], serde_json::json!(["Ulric"]));
    assert!(
        hero["text"].as_str().unwrap().starts_with("No maximum:"),
        "{hero}"
    );
}

/// A made-up priced game for the pack checker: one stat, one entry, a
/// score.
const PRICED: &str = r#"
[pack]
id = "bounds"
name = "Bounds"
format = 1

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

[[categories]]
id = "kit"
label = "Kit"

[[quirks]]
id = "hook"
name = "Grappling Hook"
category = "kit"
tags = ["tool"]
cost = 7

[[rulings]]
id = "open"
question = "The text prints N/A."
ruling = "No maximum."

[[outcomes]]
id = "fine"
label = "Fine"
default = true
"#;

const SCORED: &str = r#"
[valuation]
label = "Worth"
per_stat_point = 2

[valuation.score]
label = "Marks"
divide_by = 10
rounding = "down"
"#;

fn pack_error(text: &str) -> String {
    let registry = rapsheet::session::builtin_registry().unwrap();
    match registry.load_text("test.toml", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(err) => format!("{}: {}", err.entry, err.reason),
    }
}

fn constraint(fields: &str) -> String {
    format!("\n[[constraints]]\nid = \"c\"\nmessage = \"A rule.\"\n{fields}\n")
}

#[test]
fn the_pack_checker_refuses_a_bad_stat_range_max_score_or_open_max_slots() {
    let loads = |text: &str| {
        rapsheet::session::builtin_registry()
            .unwrap()
            .load_text("test.toml", text)
            .unwrap_or_else(|e| panic!("{e:?}"));
    };
    loads(&format!(
        "{PRICED}{SCORED}{}{}",
        constraint(
            "kind = \"stat_range\"\nquirk = \"hook\"\nstat = \"grit\"\nmin = 1\nunless_tagged = \"tool\""
        ),
        "\n[[constraints]]\nid = \"d\"\nmessage = \"M.\"\nkind = \"max_score\"\nquirk = \"hook\"\nmax = 1\n"
    ));
    loads(&format!(
        "{PRICED}{}",
        constraint("kind = \"max_slots\"\nquirk = \"hook\"\ntag = \"tool\"\nruling = \"open\"")
    ));
    let cases = [
        (
            constraint("kind = \"stat_range\"\nquirk = \"hook\"\nstat = \"luck\"\nmax = 0"),
            "constraints.c: stat `luck` is not in [[stats]]",
        ),
        (
            constraint(
                "kind = \"stat_range\"\nquirk = \"hook\"\nstat = \"grit\"\nmin = 3\nmax = 1",
            ),
            "constraints.c: `min` 3 is above `max` 1",
        ),
        (
            constraint("kind = \"stat_range\"\nquirk = \"hook\"\nstat = \"grit\""),
            "needs `min` or `max`",
        ),
        (
            constraint("kind = \"max_score\"\nquirk = \"hook\"\nmax = 1"),
            "constraints.c: holds a score, but the pack has no [valuation.score]",
        ),
        (
            constraint("kind = \"max_slots\"\nquirk = \"hook\"\ntag = \"tool\""),
            "constraints.c: no `max` is no maximum: name the ruling that says so (`ruling`)",
        ),
        (
            constraint("kind = \"max_tagged\"\ntag = \"tool\"\nmax = -1"),
            "`max` is -1; a count is 0 or more",
        ),
        (
            constraint("kind = \"max_score\"\nquirk = \"hook\"\nmax = 1\nstat = \"grit\""),
            "does not use `stat`",
        ),
    ];
    for (fields, said) in cases {
        let err = pack_error(&format!("{PRICED}{fields}"));
        assert!(err.contains(said), "{err} does not say {said}");
    }
}
