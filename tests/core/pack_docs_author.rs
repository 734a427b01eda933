//! What a new pack author meets, and the words a player reads about a
//! game's dice and records: a history line says a dice tier as its dice, a
//! tier asked of `rapsheet roll` points at the fighter's sheet, a house
//! pack's second category of its base's label is refused, a campaign whose
//! pack the command was not given says how to give it, every missing word
//! is named at once (and the schema asks for them), an outcome's label
//! reads in lower case mid-sentence, a captive is marked on the roster,
//! and the guides say what the program does.

use crate::util;

use std::path::Path;

use rapsheet::campaign::{BattleId, Event, FighterStatus};
use rapsheet::session::Session;
use serde_json::Value;
use util::{ok, rapsheet, stderr, stdout, temp};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn doc(name: &str) -> String {
    std::fs::read_to_string(root().join("docs").join(name)).expect("a document")
}

/// A whole game of the guide's, step `n`.
fn fogbound(n: usize) -> String {
    std::fs::read_to_string(root().join(format!("docs/packs.in/fogbound-{n}.toml")))
        .expect("a step of the guide")
}

// ---------------------------------------------------------------------------
// 15. Dice tiers in words
// ---------------------------------------------------------------------------

/// A fighter's base Combat set on Hardwired 28's ladder reads as its dice
/// (`2d4`), not as the ladder's step (`1`), in the fighter's history and
/// the campaign log.
#[test]
fn a_history_line_shows_a_dice_tier_as_its_dice() {
    let dir = temp();
    let d = dir.path();
    let out = rapsheet(
        d,
        &[
            "new",
            "--ruleset",
            "hardwired28",
            "--name",
            "T",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    ok(d, &["gang", "new", "Mags"]);
    ok(d, &["fighter", "add", "Dell", "--gang", "Mags"]);
    ok(d, &["fighter", "stat", "Dell", "combat", "2d4"]);
    ok(d, &["fighter", "stat", "Dell", "move", "5"]);
    let show = ok(d, &["fighter", "show", "Dell"]);
    assert!(show.contains("Dell: base Combat set to 2d4"), "{show}");
    assert!(!show.contains("set to 1"), "{show}");
    // A stat off any ladder keeps its number, with its unit.
    assert!(show.contains("Dell: base Move set to 5\""), "{show}");
    let log = ok(d, &["log"]);
    assert!(log.contains("Dell: base Combat set to 2d4"), "{log}");
}

/// `rapsheet roll "2d4 +1 DT"` on a game whose tiers are its fighters'
/// stats says where a tier is rolled, with the command and its steps.
#[test]
fn a_tier_asked_of_roll_points_at_the_fighters_sheet() {
    let dir = temp();
    let out = rapsheet(
        dir.path(),
        &["roll", "2d4 +1 DT", "--ruleset", "hardwired28"],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains("needs a dice-tier ladder"), "{err}");
    assert!(err.contains("rolls a tier from a fighter's sheet"), "{err}");
    assert!(
        err.contains("`rapsheet fighter check FIGHTER CHECK --modifier 1 --db FILE`"),
        "{err}"
    );
    // The checks that roll a tier, in the pack's words.
    assert!(err.contains("Combat, Defense, Wits"), "{err}");
    // The command it names is the real one.
    let dir = temp();
    let d = dir.path();
    let out = rapsheet(
        d,
        &[
            "new",
            "--ruleset",
            "hardwired28",
            "--name",
            "T",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    ok(d, &["gang", "new", "Mags"]);
    ok(d, &["fighter", "add", "Dell", "--gang", "Mags"]);
    let rolled = ok(
        d,
        &[
            "fighter",
            "check",
            "Dell",
            "Combat",
            "--modifier",
            "1",
            "--seed",
            "1",
        ],
    );
    assert!(rolled.contains("2d6 +1 DT → 2d8"), "{rolled}");
    // A game without ladders says it has none.
    let out = rapsheet(
        dir.path(),
        &["roll", "2d4 +1 DT", "--ruleset", "heartbreaker"],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Heartbreaker has none"),
        "{}",
        stderr(&out)
    );
}

// ---------------------------------------------------------------------------
// 16. A house pack's second category of its base's label
// ---------------------------------------------------------------------------

const SECOND_POWERS: &str = r#"[pack]
id = "our-powers"
name = "Our powers"
format = 1
base = "hardwired28"

[[categories]]
id = "x"
label = "Powers"

[[quirks]]
id = "spark"
name = "Spark"
category = "x"
"#;

#[test]
fn a_house_pack_may_not_give_a_second_category_of_a_base_label() {
    let dir = temp();
    let d = dir.path();
    std::fs::write(d.join("ours.toml"), SECOND_POWERS).unwrap();
    let out = rapsheet(d, &["check-pack", "ours.toml"]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        "rapsheet: ours.toml:9:1: categories.x.label: \"Powers\" is already the label of the base's category \"power\"; use the same id to add to it"
    );
    // Kept in a campaign: refused the same way, and nothing kept.
    let out = rapsheet(
        d,
        &[
            "new",
            "--ruleset",
            "hardwired28",
            "--name",
            "T",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = rapsheet(d, &["house", "keep", "ours.toml", "--db", "c.rapsheet"]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains(
            "categories.x.label: \"Powers\" is already the label of the base's category \"power\""
        ),
        "{}",
        stderr(&out)
    );
    assert!(!ok(d, &["house", "list"]).contains("Our powers"));
    // In any case of letters; and the base's id, used, adds to it.
    let shouted = SECOND_POWERS.replace("label = \"Powers\"", "label = \"POWERS\"");
    std::fs::write(d.join("ours.toml"), shouted).unwrap();
    assert!(!rapsheet(d, &["check-pack", "ours.toml"]).status.success());
    let adds = SECOND_POWERS
        .replace("[[categories]]\nid = \"x\"\nlabel = \"Powers\"\n\n", "")
        .replace("category = \"x\"", "category = \"power\"");
    std::fs::write(d.join("ours.toml"), adds).unwrap();
    let out = rapsheet(d, &["check-pack", "ours.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // A new category of a label of its own is the group's to add.
    let own = SECOND_POWERS.replace("label = \"Powers\"", "label = \"Cyberware\"");
    std::fs::write(d.join("ours.toml"), own).unwrap();
    let out = rapsheet(d, &["check-pack", "ours.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

// ---------------------------------------------------------------------------
// 17b. A campaign whose game the command was not given
// ---------------------------------------------------------------------------

#[test]
fn a_campaign_whose_pack_was_not_given_says_how_to_give_it() {
    let dir = temp();
    let d = dir.path();
    std::fs::write(d.join("fogbound.toml"), fogbound(2)).unwrap();
    // `new` without the file.
    let out = rapsheet(
        d,
        &[
            "new",
            "--ruleset",
            "fogbound",
            "--name",
            "N",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("no ruleset pack `fogbound`"), "{err}");
    assert!(err.contains("--pack FILE"), "{err}");
    assert!(err.contains("rapsheet house keep"), "{err}");
    let out = rapsheet(
        d,
        &[
            "new",
            "--ruleset",
            "fogbound",
            "--name",
            "N",
            "--pack",
            "fogbound.toml",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    ok(d, &["gang", "new", "W", "--pack", "fogbound.toml"]);
    // Any later command without it.
    for args in [&["gang", "show", "W"][..], &["gang", "list"], &["titles"]] {
        let mut all = args.to_vec();
        all.extend(["--db", "c.rapsheet"]);
        let out = rapsheet(d, &all);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(
            stderr(&out).trim_end(),
            "rapsheet: this campaign uses the ruleset pack `fogbound`, which this build does not have: give the pack with --pack FILE, or keep it in the campaign with `rapsheet house keep FILE`",
            "{args:?}"
        );
    }
    // Done as it says, the campaign reads without the file.
    ok(d, &["house", "keep", "fogbound.toml"]);
    assert!(ok(d, &["gang", "show", "W"]).starts_with("W (Fogbound)"));
}

// ---------------------------------------------------------------------------
// 17d. Every missing word at once; the schema asks for `[words]`
// ---------------------------------------------------------------------------

/// The guide's first step without three of its words.
fn without_words(words: &[&str]) -> String {
    let mut text = fogbound(1);
    for word in words {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{word} = ")))
            .expect("the word")
            .to_owned();
        text = text.replacen(&format!("{line}\n"), "", 1);
    }
    text
}

#[test]
fn check_pack_names_every_missing_word_in_one_run() {
    let dir = temp();
    let d = dir.path();
    std::fs::write(
        d.join("game.toml"),
        without_words(&["gangs", "fighter", "leaders"]),
    )
    .unwrap();
    let out = rapsheet(d, &["check-pack", "game.toml", "--json"]);
    assert!(!out.status.success());
    let line = stderr(&out);
    assert_eq!(line.lines().count(), 1, "{line}");
    for word in ["`gangs`", "`fighter`", "`leaders`"] {
        assert!(line.contains(word), "{word}: {line}");
    }
    assert!(
        line.contains("words: missing 3 words: `gangs` — what the game calls gangs, plural;"),
        "{line}"
    );
    let json: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(json["entry"], "words");
    // Named at the `[words]` table they belong in.
    let words_at = fogbound(1).lines().position(|l| l == "[words]").unwrap() + 1;
    assert_eq!(json["line"], words_at);
    // No `[words]` at all: all thirteen, once.
    let whole = fogbound(1);
    let start = whole.find("[words]").unwrap();
    let end = whole.find("[[stats]]").unwrap();
    let text = format!("{}{}", &whole[..start], &whole[end..]);
    std::fs::write(d.join("game.toml"), text).unwrap();
    let out = rapsheet(d, &["check-pack", "game.toml"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("missing 13 words:"),
        "{}",
        stderr(&out)
    );
    // One missing word is named as before, at its field.
    std::fs::write(d.join("game.toml"), without_words(&["leaders"])).unwrap();
    let out = rapsheet(d, &["check-pack", "game.toml"]);
    assert!(
        stderr(&out).contains(": words.leaders: missing: what the game calls leaders, plural"),
        "{}",
        stderr(&out)
    );
}

fn schema_breaks(text: &str) -> Vec<String> {
    let schema: Value = serde_json::from_str(&rapsheet::rules::pack_schema()).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let value: toml::Value = toml::from_str(text).unwrap();
    let json = serde_json::to_value(value).unwrap();
    validator
        .iter_errors(&json)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn the_schema_asks_for_every_word_check_pack_asks_for() {
    assert!(schema_breaks(&fogbound(1)).is_empty());
    // A word left out breaks the schema where it breaks check-pack.
    let broken = schema_breaks(&without_words(&["leaders"]));
    assert!(broken.iter().any(|e| e.contains("leaders")), "{broken:?}");
    let whole = fogbound(1);
    let start = whole.find("[words]").unwrap();
    let end = whole.find("[[stats]]").unwrap();
    let no_words = format!("{}{}", &whole[..start], &whole[end..]);
    let broken = schema_breaks(&no_words);
    assert!(broken.iter().any(|e| e.contains("words")), "{broken:?}");
    // An override keeps its base's words: the schema asks for none.
    let over = "[pack]\nid = \"over\"\nname = \"Over\"\nformat = 1\nbase = \"heartbreaker\"\n";
    assert!(schema_breaks(over).is_empty());
    let dir = temp();
    std::fs::write(dir.path().join("over.toml"), over).unwrap();
    assert!(
        rapsheet(dir.path(), &["check-pack", "over.toml"])
            .status
            .success()
    );
}

// ---------------------------------------------------------------------------
// 17e. Ids: what the code accepts, as the guide says it
// ---------------------------------------------------------------------------

#[test]
fn an_id_is_lower_case_and_may_use_an_underscore_as_the_guide_says() {
    let dir = temp();
    let d = dir.path();
    let text = fogbound(1).replace("id = \"long-pole\"", "id = \"long_pole_2\"");
    std::fs::write(d.join("game.toml"), text).unwrap();
    let out = rapsheet(d, &["check-pack", "game.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = fogbound(1).replace("id = \"long-pole\"", "id = \"Long-Pole\"");
    std::fs::write(d.join("game.toml"), text).unwrap();
    let out = rapsheet(d, &["check-pack", "game.toml"]);
    assert!(
        stderr(&out).contains("must be lower-case letters, digits, `-` or `_`"),
        "{}",
        stderr(&out)
    );
    let guide = doc("packs.md");
    assert!(!guide.contains("(letters, digits, `-`;"), "the old rule");
    assert!(
        guide.contains("lower-case ASCII\nletters `a` to `z`, digits, `-` and `_`"),
        "the guide says what the code accepts"
    );
}

// ---------------------------------------------------------------------------
// 17a, c. The guide's schema line and its reference
// ---------------------------------------------------------------------------

#[test]
fn the_guide_says_how_to_make_the_schema_it_names_and_links_the_reference() {
    let guide = doc("packs.md");
    assert!(
        guide.contains("$ rapsheet pack-schema --out pack.schema.json"),
        "the guide makes the schema file its `#:schema` line names"
    );
    assert!(guide.contains("#:schema ./pack.schema.json"));
    assert!(
        guide.contains("](rulesets.md)"),
        "packs.md links rulesets.md"
    );
}

// ---------------------------------------------------------------------------
// 17c. The format's reference says what the program does
// ---------------------------------------------------------------------------

/// Every field of every table of the pack format (from the schema the
/// build makes), every kind of constraint and every kind of effect is in
/// docs/rulesets.md, and each constraint kind has its own section.
#[test]
fn the_reference_names_every_field_and_kind_of_the_format() {
    let reference = doc("rulesets.md");
    let schema: Value = serde_json::from_str(&rapsheet::rules::pack_schema()).unwrap();
    let mut missing = Vec::new();
    let said = |name: &str| {
        reference.contains(&format!("`{name}`"))
            || reference.contains(&format!("`{name} ="))
            || reference.contains(&format!("{{ {name},"))
            || reference.contains(&format!(", {name},"))
            || reference.contains(&format!(", {name} }}"))
            || reference.contains(&format!("`[{name}]`"))
            || reference.contains(&format!("`[[{name}]]`"))
            || reference.contains(&format!("] {name}`"))
    };
    let mut fields: Vec<String> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    for def in schema["$defs"].as_object().unwrap().values() {
        if let Some(props) = def["properties"].as_object() {
            fields.extend(props.keys().cloned());
        }
    }
    for field in &fields {
        if !said(field) {
            missing.push(format!("field {field}"));
        }
    }
    let kinds = schema["$defs"]["ConstraintDef"]["properties"]["kind"]["enum"]
        .as_array()
        .unwrap();
    for kind in kinds {
        let kind = kind.as_str().unwrap();
        if !reference.contains(&format!("### `{kind}`")) {
            missing.push(format!("constraint kind {kind}"));
        }
    }
    for effect in schema["$defs"]["Effect"]["oneOf"].as_array().unwrap() {
        let kind = effect["properties"]["kind"]["const"].as_str().unwrap();
        if !reference.contains(&format!("| `{kind}` |")) {
            missing.push(format!("effect kind {kind}"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/rulesets.md never says {missing:#?}"
    );
}

/// The four places the reference said otherwise than the program: pack
/// files read by campaigns, the built-in packs' default outcomes,
/// modifiers from the fighter, and the rulings the loader checks.
#[test]
fn the_reference_does_not_contradict_the_program() {
    let reference = doc("rulesets.md");
    // Campaigns read pack files (`--pack`) and keep them (`house keep`).
    assert!(!reference.contains("In this build only `check-pack` reads pack files from disk"));
    assert!(reference.contains("--pack FILE"));
    // HWC's default outcome is `standing`.
    assert!(!reference.contains("All the built-in packs call their default outcome `fine`"));
    let hwc = rapsheet::session::builtin_registry().unwrap();
    let hwc = hwc.get("hwc").unwrap();
    let default = hwc.default_outcome().unwrap();
    assert!(reference.contains(&format!("`{}`", default.id)));
    // A modifier with `per` applies to the procedure's own rolls.
    assert!(!reference.contains(
        "They are used by `rapsheet table` and by the coverage check; the post-battle procedure's own rolls do not apply them"
    ));
    // The rulings of `[bounties]`, `[injuries]`, `[advancement]`,
    // `[title_rules]` and `[[actions]]` are checked by the loader.
    let text = "[pack]\nid = \"over\"\nname = \"Over\"\nformat = 1\nbase = \"heartbreaker\"\n\n[[actions]]\nid = \"a\"\nname = \"A\"\ncost = []\ntext = \"t\"\nruling = \"no-such\"\n";
    let dir = temp();
    std::fs::write(dir.path().join("over.toml"), text).unwrap();
    let out = rapsheet(dir.path(), &["check-pack", "over.toml"]);
    assert!(
        stderr(&out).contains("ruling `no-such` is not in [[rulings]]"),
        "{}",
        stderr(&out)
    );
    let table = reference
        .split("| where | field | shown | id checked |")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("the rulings table");
    assert!(!table.contains("| no |"), "{table}");
    assert!(!table.contains("| no ("), "{table}");
}

// ---------------------------------------------------------------------------
// 17f. An outcome's label mid-sentence
// ---------------------------------------------------------------------------

const NIGHT: &str = r#"{
  "gangs": [
    {"gang": "Wick Street", "fighters": [{"fighter": "Ada"}]},
    {"gang": "Ember Row", "fighters": [{"fighter": "Cole", "outcome": "singed"}]}
  ]
}"#;

#[test]
fn an_outcome_label_reads_in_lower_case_mid_sentence() {
    let dir = temp();
    let d = dir.path();
    std::fs::write(d.join("fogbound.toml"), fogbound(3)).unwrap();
    std::fs::write(d.join("night.json"), NIGHT).unwrap();
    let with = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--pack", "fogbound.toml"]);
        ok(d, &all)
    };
    let out = rapsheet(
        d,
        &[
            "new",
            "--ruleset",
            "fogbound",
            "--name",
            "N",
            "--pack",
            "fogbound.toml",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    with(&["gang", "new", "Wick Street"]);
    with(&["gang", "new", "Ember Row"]);
    with(&["fighter", "add", "Ada", "--gang", "Wick Street", "--leader"]);
    with(&["fighter", "add", "Cole", "--gang", "Ember Row", "--leader"]);
    let recorded = with(&["battle", "record", "night.json", "--seed", "1"]);
    assert!(
        recorded.contains("Ember Row: gains nothing (0 lamplighters came home)"),
        "{recorded}"
    );
    assert!(!recorded.contains("Came home"), "{recorded}");
    // A label written with a capital inside its first word stays so.
    let pack = fogbound(3).replace("label = \"Came home\"", "label = \"OK home\"");
    std::fs::write(d.join("fogbound.toml"), pack).unwrap();
    let recorded = with(&["battle", "record", "night.json", "--seed", "1"]);
    assert!(
        recorded.contains("gains nothing (0 lamplighters OK home)"),
        "{recorded}"
    );
}

// ---------------------------------------------------------------------------
// 17g. A captive on the roster
// ---------------------------------------------------------------------------

#[test]
fn gang_show_marks_a_captive_on_both_gangs() {
    let dir = temp();
    let d = dir.path();
    let path = d.join("c.rapsheet");
    {
        let mut s = Session::create_demo(&path).expect("demo");
        let saints = s.gang_named("The Rust Saints").unwrap();
        let jackals = s.gang_named("Neon Jackals").unwrap();
        let fighter = s
            .fighters(saints.id)
            .unwrap()
            .into_iter()
            .find(|f| !f.leader)
            .expect("a fighter");
        let event = Event::FighterStatusChanged {
            fighter: fighter.id,
            from: fighter.status.clone(),
            to: FighterStatus::Captured {
                by: jackals.id,
                battle: BattleId(1),
            },
            reason: "taken".into(),
        };
        s.commit_events("capture", &[event]).expect("captured");
    }
    let saints = ok(d, &["gang", "show", "The Rust Saints"]);
    let held: Vec<&str> = saints
        .lines()
        .filter(|l| l.contains("(held by Neon Jackals)"))
        .collect();
    assert_eq!(held.len(), 1, "{saints}");
    let name = held[0].trim().split(" (held by").next().unwrap().trim();
    let jackals = ok(d, &["gang", "show", "Neon Jackals"]);
    assert!(
        jackals.contains(&format!("holds captive: {name} of The Rust Saints")),
        "{jackals}"
    );
    // The rest of the roster is as it was.
    assert_eq!(
        saints.lines().filter(|l| l.contains("held by")).count(),
        1,
        "{saints}"
    );
}
