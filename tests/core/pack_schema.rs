//! The pack format's JSON Schema (`docs/pack.schema.json`, `rapsheet
//! pack-schema`) and the positions `check-pack` names: the schema is the
//! one the build makes, every pack of the build and of the tests keeps
//! it, and it refuses what the loader refuses; a problem is named at its
//! line and column.

use crate::util;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use util::{rapsheet, stderr, stdout, temp};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(&rapsheet::rules::pack_schema()).expect("JSON");
    jsonschema::draft202012::new(&schema).expect("the schema is a draft 2020-12 schema")
}

/// A pack file's TOML as JSON, as an editor checking it against the
/// schema reads it.
fn as_json(text: &str) -> Value {
    let value: toml::Value = toml::from_str(text).expect("TOML");
    serde_json::to_value(value).expect("JSON")
}

/// Every way the file breaks the schema.
fn breaks(validator: &jsonschema::Validator, text: &str) -> Vec<String> {
    validator
        .iter_errors(&as_json(text))
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

fn toml_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .expect(dir)
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_committed_schema_is_the_one_the_build_makes() {
    let path = root().join("docs/pack.schema.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == rapsheet::rules::pack_schema(),
        "docs/pack.schema.json is not the schema this build makes; regenerate it with `{}`",
        rapsheet::rules::REGENERATE_SCHEMA
    );
}

#[test]
fn every_pack_of_the_build_and_of_the_tests_keeps_the_schema() {
    let validator = validator();
    let mut files = toml_files("assets/rulesets");
    files.extend(toml_files("tests/packs"));
    files.extend(toml_files("tests/docs/readme"));
    // The documentation's example of a refused pack: its slip is one the
    // schema cannot see (a reference), and its first line names the schema.
    files.extend(toml_files("docs/rulesets.in"));
    assert!(files.len() >= 10, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        let errors = breaks(&validator, &text);
        assert!(
            errors.is_empty(),
            "{} breaks the schema:\n{errors:#?}",
            file.display()
        );
    }
}

#[test]
fn the_schema_refuses_a_misspelt_field_and_a_wrong_type() {
    let validator = validator();
    let text = std::fs::read_to_string(root().join("tests/packs/lantern-road.toml")).unwrap();
    assert!(breaks(&validator, &text).is_empty());
    for (from, to) in [
        ("name = \"Grit\"", "nmae = \"Grit\""),
        ("default = 3", "default = \"3\""),
        ("gang = \"troupe\"", "gang = 1"),
        ("[words]", "[word]"),
        ("winner = \"none\"", "winner = \"nobody\""),
    ] {
        let broken = text.replacen(from, to, 1);
        assert_ne!(broken, text, "{from}");
        assert!(
            !breaks(&validator, &broken).is_empty(),
            "`{to}` keeps the schema"
        );
        assert!(
            toml::from_str::<rapsheet::rules::Pack>(&broken).is_err(),
            "`{to}` is read"
        );
    }
}

/// A constraint is written as one flat table whatever its kind: the
/// schema refuses exactly the constraints the loader refuses, a field its
/// kind does not use, a field it needs left out, a negative count.
#[test]
fn the_schema_reads_a_constraint_as_the_loader_does() {
    let validator = validator();
    let schema: Value = serde_json::from_str(&rapsheet::rules::pack_schema()).unwrap();
    let kinds: Vec<String> = schema["$defs"]["ConstraintDef"]["properties"]["kind"]["enum"]
        .as_array()
        .expect("the kinds")
        .iter()
        .map(|k| k.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(kinds.len(), 10, "{kinds:?}");
    let fields: [(&str, Value); 11] = [
        ("tag", json!("t")),
        ("max", json!(2)),
        ("quirk", json!("q")),
        ("any_of", json!(["a"])),
        ("allowed", json!([1])),
        ("min", json!(1)),
        ("per", json!(3)),
        ("rounding", json!("down")),
        ("unopened", json!({ "prefix": "p", "slots": 2 })),
        ("stat", json!("s")),
        ("unless_tagged", json!("u")),
    ];
    let mut checked = 0;
    for kind in kinds.iter().map(String::as_str).chain(["no_such_kind"]) {
        for set in 0u32..(1 << fields.len()) {
            let mut constraint = json!({ "id": "c", "message": "m", "kind": kind });
            for (i, (field, value)) in fields.iter().enumerate() {
                if set & (1 << i) != 0 {
                    constraint[field] = value.clone();
                }
            }
            for negative in [false, true] {
                if negative {
                    if constraint.get("max").is_none() {
                        continue;
                    }
                    constraint["max"] = json!(-2);
                }
                let read =
                    serde_json::from_value::<rapsheet::rules::ConstraintDef>(constraint.clone())
                        .is_ok();
                // An override: a whole game would also need its `[words]`.
                let pack = json!({
                    "pack": { "id": "p", "name": "P", "format": 1, "base": "b" },
                    "constraints": [constraint.clone()],
                });
                assert_eq!(
                    validator.is_valid(&pack),
                    read,
                    "the schema and the loader disagree on {constraint}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn pack_schema_prints_the_schema_and_writes_it_only_where_told() {
    let dir = temp();
    let out = rapsheet(dir.path(), &["pack-schema"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), rapsheet::rules::pack_schema());

    let out = rapsheet(dir.path(), &["pack-schema", "--out", "pack.schema.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let path = dir.path().join("pack.schema.json");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        rapsheet::rules::pack_schema()
    );
    // A file already there is replaced only with --force.
    std::fs::write(&path, "mine").unwrap();
    let out = rapsheet(dir.path(), &["pack-schema", "--out", "pack.schema.json"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim(),
        "rapsheet: pack.schema.json: a file is already there; add --force to replace it"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
    let out = rapsheet(
        dir.path(),
        &["pack-schema", "--out", "pack.schema.json", "--force"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        rapsheet::rules::pack_schema()
    );
}

// ---------------------------------------------------------------------------
// check-pack names the line and column
// ---------------------------------------------------------------------------

fn lantern_road() -> String {
    std::fs::read_to_string(root().join("tests/packs/lantern-road.toml")).unwrap()
}

/// `check-pack` on the text, refused: its one line on stderr, and what
/// `--json` says on stdout.
fn check(text: &str) -> (String, Value) {
    let dir = temp();
    std::fs::write(dir.path().join("game.toml"), text).unwrap();
    let out = rapsheet(dir.path(), &["check-pack", "game.toml"]);
    assert!(!out.status.success(), "{}", stdout(&out));
    let line = stderr(&out);
    assert_eq!(line.lines().count(), 1, "{line}");
    let out = rapsheet(dir.path(), &["check-pack", "game.toml", "--json"]);
    assert!(!out.status.success());
    assert_eq!(stderr(&out), line);
    let json = serde_json::from_str(&stdout(&out)).expect("JSON");
    (line.trim_end().to_owned(), json)
}

fn at(json: &Value) -> (u64, u64) {
    (
        json["line"].as_u64().expect("line"),
        json["column"].as_u64().expect("column"),
    )
}

#[test]
fn a_pack_beginning_with_a_schema_comment_loads() {
    let dir = temp();
    let text = format!("#:schema ./pack.schema.json\n{}", lantern_road());
    std::fs::write(dir.path().join("game.toml"), text).unwrap();
    let out = rapsheet(dir.path(), &["check-pack", "game.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("ok: The Lantern Road"));
}

#[test]
fn check_pack_names_the_line_and_column_of_a_syntax_error() {
    let text = lantern_road().replacen("gang = \"troupe\"", "gang = \"troupe", 1);
    let (line, json) = check(&text);
    assert_eq!(at(&json), (17, 15), "{line}");
    assert!(
        line.starts_with("rapsheet: game.toml:17:15: line 17: "),
        "{line}"
    );
}

#[test]
fn check_pack_names_the_line_and_column_of_a_wrong_type() {
    // The second stat's default, a string where a number goes.
    let text = lantern_road().replacen("default = 2", "default = \"2\"", 1);
    let (line, json) = check(&text);
    assert_eq!(at(&json), (38, 11), "{line}");
    assert!(
        line.starts_with("rapsheet: game.toml:38:11: stats.wile.default: "),
        "{line}"
    );
    assert_eq!(json["file"], "game.toml");
    // Said of the entry it is in, where the loader says `line 38`.
    assert_eq!(json["entry"], "stats.wile.default");
}

#[test]
fn check_pack_names_the_row_of_a_bad_reference_deep_in_a_table() {
    let text = lantern_road().replacen(
        "stat = \"wile\", amount = 1",
        "stat = \"wit\", amount = 1",
        1,
    );
    let (line, json) = check(&text);
    assert_eq!(json["entry"], "tables.omens row `6`");
    assert_eq!(at(&json), (94, 3), "{line}");
    assert_eq!(
        line,
        format!(
            "rapsheet: game.toml:94:3: tables.omens row `6`: {}",
            json["reason"].as_str().unwrap()
        )
    );
}

#[test]
fn check_pack_names_the_words_table_for_a_missing_word() {
    let text = lantern_road().replacen("fighters = \"wanderers\"\n", "", 1);
    let (line, json) = check(&text);
    assert_eq!(json["entry"], "words.fighters");
    // Not written: the `[words]` table it belongs in.
    assert_eq!(at(&json), (11, 2), "{line}");
    assert!(
        line.starts_with("rapsheet: game.toml:11:2: words.fighters: "),
        "{line}"
    );
    // Written empty: the word itself.
    let text = lantern_road().replacen("fighters = \"wanderers\"", "fighters = \"\"", 1);
    let (line, json) = check(&text);
    assert_eq!(json["entry"], "words.fighters");
    assert_eq!(at(&json), (20, 1), "{line}");
}

#[test]
fn check_pack_names_the_entry_of_a_misspelt_field_deep_in_a_table_row() {
    let text = lantern_road().replacen(
        "stat = \"wile\", amount = 1",
        "stat = \"wile\", amonut = 1",
        1,
    );
    let (line, json) = check(&text);
    // The TOML reader stops at the row's list of effects.
    assert_eq!(json["entry"], "tables.omens row `6`.effects", "{line}");
    assert_eq!(at(&json), (94, 103), "{line}");
    assert!(
        line.ends_with("unknown field `amonut`, expected `stat` or `amount`"),
        "{line}"
    );
}
