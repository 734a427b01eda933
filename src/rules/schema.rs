//! The JSON Schema of the pack format, made from the model's types.
//!
//! It describes a pack file as its author writes it (a constraint as its
//! flat table of fields, never the engine's reading of it), for editors
//! that check TOML against a schema (taplo, Even Better TOML: a pack whose
//! first line is `#:schema ./pack.schema.json`). `docs/pack.schema.json`
//! is this text, kept equal to it by the test suite; `rapsheet
//! pack-schema` prints it.
//!
//! Pure: no I/O.

use schemars::Schema;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use serde_json::{Value, json};

/// The command that writes the schema to the repository's copy.
pub const REGENERATE: &str = "cargo run -- pack-schema --out docs/pack.schema.json --force";

/// The pack format's schema (JSON Schema draft 2020-12), as pretty JSON
/// ending in a line break: the exact text of `docs/pack.schema.json`.
pub fn pack_schema() -> String {
    let mut generator = SchemaSettings::draft2020_12()
        .for_deserialize()
        .with_transform(RecursiveTransform(no_null))
        .into_generator();
    let mut schema = generator.root_schema_for::<super::Pack>();
    for_authors(&mut schema);
    let comment =
        format!("Made from the pack model's types; do not edit. Regenerate: {REGENERATE}");
    schema.insert("$comment".to_owned(), json!(comment));
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// The few descriptions written for the code rather than for a pack's
/// author, said for the author.
fn for_authors(schema: &mut Schema) {
    let mut describe = |pointer: &str, text: &str| {
        if let Some(Value::Object(fields)) = schema.pointer_mut(pointer) {
            fields.insert("description".to_owned(), json!(text));
        }
    };
    describe(
        "",
        "A Rapsheet ruleset pack: one game system's stats, resources, catalog, constraints, tables and rulings, or an override of another pack (`[pack] base`). The format is described in docs/rulesets.md.",
    );
    describe(
        "/$defs/ConstraintDef",
        "A rule the engine checks on a fighter or a gang: one table whatever its kind, with the fields its kind reads.",
    );
    describe(
        "/$defs/PackInfo/properties/format",
        &format!(
            "The pack format version: {}, the one this build reads.",
            super::FORMAT_VERSION
        ),
    );
    describe(
        "/$defs/QuirkDef/properties/cost",
        "What the entry adds to a fighter's value, in points, as printed\n(where the pack prices its fighters: see `[valuation]`).",
    );
    if let Some(Value::Object(format)) = schema.pointer_mut("/$defs/PackInfo/properties/format") {
        format.insert("const".to_owned(), json!(super::FORMAT_VERSION));
    }
    words_of_a_whole_game(schema);
}

/// A pack that builds on no other (no `[pack] base`) gives `[words]`, each
/// word `check-pack` asks for; an override keeps its base's.
fn words_of_a_whole_game(schema: &mut Schema) {
    let words: Vec<&str> = super::Words::default()
        .fields()
        .iter()
        .map(|(field, _)| *field)
        .collect();
    let rule = json!({
        "if": { "properties": { "pack": { "not": { "required": ["base"] } } } },
        "then": {
            "required": ["words"],
            "properties": { "words": { "required": words } },
        },
    });
    match schema.get_mut("allOf") {
        Some(Value::Array(rules)) => rules.push(rule),
        _ => {
            schema.insert("allOf".to_owned(), json!([rule]));
        }
    }
    if let Some(Value::Object(fields)) = schema.pointer_mut("/properties/words") {
        fields.insert(
            "description".to_owned(),
            json!("The words the app prints around the pack's own entries (headings, what a gang and a fighter are called). Required, every word of it, in a pack without `[pack] base`; an override keeps each of its base's words it does not give."),
        );
    }
}

/// TOML has no null: a field that may be left out is left out, never
/// written empty, so `null` is no value a pack file can give.
fn no_null(schema: &mut Schema) {
    if schema.get("default") == Some(&Value::Null) {
        schema.remove("default");
    }
    if let Some(Value::Array(types)) = schema.get_mut("type") {
        types.retain(|t| t != "null");
        if let [one] = types.as_slice() {
            let one = one.clone();
            schema.insert("type".to_owned(), one);
        }
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(options)) = schema.get_mut(key) else {
            continue;
        };
        options.retain(|o| o.get("type").and_then(Value::as_str) != Some("null"));
        if let [one] = options.as_slice() {
            let one = one.clone();
            schema.remove(key);
            if let Value::Object(fields) = one {
                for (k, v) in fields {
                    schema.insert(k, v);
                }
            }
        }
    }
}

/// A kind of constraint, with the fields it reads.
pub(super) struct Kind {
    pub(super) name: &'static str,
    /// The fields it uses; it refuses the other fields of `KIND_FIELDS`.
    pub(super) uses: &'static [&'static str],
    /// Those of them it needs.
    needs: &'static [&'static str],
    /// Those of them that are counts: 0 or more.
    counts: &'static [&'static str],
}

const fn kind(
    name: &'static str,
    uses: &'static [&'static str],
    needs: &'static [&'static str],
    counts: &'static [&'static str],
) -> Kind {
    Kind {
        name,
        uses,
        needs,
        counts,
    }
}

/// The kinds of constraint, read as `TryFrom<RawConstraint>` reads them
/// (a test holds the schema and the loader together).
pub(super) const CONSTRAINT_KINDS: &[Kind] = &[
    kind("max_tagged", &["tag", "max"], &["tag", "max"], &["max"]),
    kind("forbids_tagged", &["quirk", "tag"], &["quirk", "tag"], &[]),
    kind(
        "requires_any",
        &["quirk", "any_of"],
        &["quirk", "any_of"],
        &[],
    ),
    kind(
        "gang_count",
        &["quirk", "allowed"],
        &["quirk", "allowed"],
        &[],
    ),
    kind("min_tagged", &["tag", "min"], &["tag", "min"], &["min"]),
    kind(
        "max_slots",
        &["quirk", "tag", "max", "unopened"],
        &["quirk", "tag"],
        &["max"],
    ),
    kind(
        "gang_count_per_points",
        &["quirk", "max", "per", "rounding"],
        &["quirk", "max", "per", "rounding"],
        &["max"],
    ),
    kind(
        "stat_range",
        &["quirk", "stat", "min", "max", "unless_tagged"],
        &["quirk", "stat"],
        &[],
    ),
    kind("max_score", &["quirk", "max"], &["quirk", "max"], &[]),
    kind(
        "gang_max_tagged",
        &["tag", "max"],
        &["tag", "max"],
        &["max"],
    ),
];

/// The fields of a constraint that only some kinds use.
const KIND_FIELDS: &[&str] = &[
    "tag",
    "max",
    "quirk",
    "any_of",
    "allowed",
    "min",
    "per",
    "rounding",
    "unopened",
    "stat",
    "unless_tagged",
];

/// What each field of a constraint says, and for which kinds.
const CONSTRAINT_FIELDS: &[(&str, &str)] = &[
    ("id", "The constraint's id."),
    ("message", "What a player reads when the rule is broken."),
    (
        "ruling",
        "The id of the ruling this constraint rests on, if the text is silent.",
    ),
    (
        "tag",
        "The tag counted (max_tagged, min_tagged, max_slots) or forbidden (forbids_tagged).",
    ),
    (
        "quirk",
        "The entry (id) a fighter has for the constraint to concern it (for gang_count and gang_count_per_points, the fighters counted).",
    ),
    (
        "max",
        "The most: entries carrying `tag` (max_tagged, max_slots; left out of max_slots where the text prints none, which the constraint's ruling says), fighters with `quirk` for every `per` points (gang_count_per_points), the stat's value (stat_range) or the score (max_score).",
    ),
    (
        "min",
        "The least: entries carrying `tag` (min_tagged) or the stat's value (stat_range).",
    ),
    (
        "any_of",
        "requires_any: the entries (ids) of which a fighter with `quirk` has one.",
    ),
    (
        "allowed",
        "gang_count: the numbers of fighters with `quirk` a gang may have.",
    ),
    (
        "per",
        "gang_count_per_points: the points of the gang's fighters' value for each `max`.",
    ),
    (
        "rounding",
        "gang_count_per_points: how the count of `per`s is rounded.",
    ),
    (
        "unopened",
        "max_slots: what an entry of a category the fighter's entries do not open takes, if more than one slot.",
    ),
    ("stat", "stat_range: the stat (id) held in the range."),
    (
        "unless_tagged",
        "stat_range: a tag; a fighter with an entry carrying it is not held.",
    ),
];

/// A constraint's schema (its fields as written, one table for every
/// kind) narrowed to what each kind reads: `kind` one of the kinds, and
/// for each the fields it needs and those it does not use.
pub(super) fn constraint_kinds(schema: &mut Schema) {
    let kinds: Vec<&str> = CONSTRAINT_KINDS.iter().map(|k| k.name).collect();
    if let Some(kind) = schema.pointer_mut("/properties/kind") {
        *kind = json!({
            "description": "What the constraint checks; it decides which of the other fields it reads.",
            "type": "string",
            "enum": kinds,
        });
    }
    for (field, text) in CONSTRAINT_FIELDS {
        if let Some(Value::Object(fields)) = schema.pointer_mut(&format!("/properties/{field}")) {
            fields.insert("description".to_owned(), json!(text));
        }
    }
    let rules: Vec<Value> = CONSTRAINT_KINDS
        .iter()
        .map(
            |Kind {
                 name,
                 uses,
                 needs,
                 counts,
             }| {
                let unused: Vec<Value> = KIND_FIELDS
                    .iter()
                    .filter(|f| !uses.contains(f))
                    .map(|f| json!({ "required": [f] }))
                    .collect();
                let mut then = json!({ "required": needs, "not": { "anyOf": unused } });
                if !counts.is_empty() {
                    let counts: serde_json::Map<String, Value> = counts
                        .iter()
                        .map(|f| ((*f).to_owned(), json!({ "minimum": 0 })))
                        .collect();
                    then["properties"] = Value::Object(counts);
                }
                // A stat's range needs one end at least.
                if uses.contains(&"stat") {
                    then["anyOf"] = json!([{ "required": ["min"] }, { "required": ["max"] }]);
                }
                json!({
                    "if": { "properties": { "kind": { "const": name } }, "required": ["kind"] },
                    "then": then,
                })
            },
        )
        .collect();
    schema.insert("allOf".to_owned(), Value::Array(rules));
}
