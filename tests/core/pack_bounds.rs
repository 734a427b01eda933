//! `check-pack` on numbers and fallbacks: every number of a pack lies within
//! the safety bound, maximums are not negative nor below their minimum, and
//! no table row's fallbacks (its own or a crippling's) go round in a loop.
//! Each refusal names the entry. The packs are tiny and inline.

use crate::util;

use rapsheet::rules::{MAX_MAGNITUDE, Pack, PackError, Registry};
use util::{rapsheet, stderr, temp};

/// The smallest pack that loads.
const MINIMAL: &str = r#"[pack]
id = "mini"
name = "Mini"
format = 1

[words]
card_quirks = "QUIRKS"
card_lasting = "LASTING"
card_notes = "NOTES"
card_marks = "MARKS"
takedowns = "Taken down"
gang = "gang"
gangs = "gangs"
fighter = "fighter"
fighters = "fighters"
entry = "quirk"
entries = "quirks"
leader = "leader"
leaders = "leaders"

[[stats]]
id = "armor"
label = "ARMOR"
default = 1

[[resources]]
id = "supply"
label = "Supply"

[[counters]]
id = "bounty"
label = "Bounty"
min = 0
max = 5

[[categories]]
id = "weapon"
label = "Weapons"

[[quirks]]
id = "slasher"
name = "Slasher"
category = "weapon"
"#;

/// A d6 table whose rows are `1-2`, `3-4` and `5+`, with the given
/// extra fields on each row (`fallback = "3-4"`, `effects = […]`).
fn table(id: &str, rows: [&str; 3]) -> String {
    let row = |on: &str, result: &str, extra: &str| {
        if extra.is_empty() {
            format!("  {{ on = \"{on}\", result = \"{result}\" }},\n")
        } else {
            format!("  {{ on = \"{on}\", result = \"{result}\", {extra} }},\n")
        }
    };
    format!(
        "\n[[tables]]\nid = \"{id}\"\nname = \"{id}\"\nroll = \"d6\"\nrows = [\n{}{}{}]\n",
        row("1-2", "one", rows[0]),
        row("3-4", "two", rows[1]),
        row("5+", "three", rows[2]),
    )
}

fn load(text: &str) -> Result<Pack, PackError> {
    Registry::builtin()
        .expect("packs")
        .load_text("test.toml", text)
}

fn refused(text: &str) -> PackError {
    match load(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(err) => err,
    }
}

#[test]
fn the_minimal_pack_and_a_table_without_loops_load() {
    load(MINIMAL).expect("minimal");
    let text = format!(
        "{MINIMAL}{}",
        table("injury", ["fallback = \"3-4\"", "", ""])
    );
    load(&text).expect("a fallback that ends");
}

#[test]
fn a_table_row_falling_back_on_itself_is_refused() {
    let text = format!(
        "{MINIMAL}{}",
        table("injury", ["fallback = \"1-2\"", "", ""])
    );
    let err = refused(&text);
    assert_eq!(err.entry, "tables.injury row `1-2`");
    assert_eq!(err.reason, "falls back on itself");
}

#[test]
fn a_fallback_loop_between_rows_is_refused_naming_the_loop() {
    let text = format!(
        "{MINIMAL}{}",
        table(
            "injury",
            [
                "fallback = \"3-4\"",
                "fallback = \"5+\"",
                "fallback = \"1-2\""
            ]
        )
    );
    let err = refused(&text);
    assert_eq!(err.entry, "tables.injury row `1-2`");
    assert_eq!(
        err.reason,
        "its fallbacks go round in a loop: `1-2` → `3-4` → `5+` → `1-2`"
    );
}

#[test]
fn a_crippling_that_falls_back_on_its_own_row_is_refused() {
    let cripple = r#"effects = [{ kind = "cripple", fallback = "3-4" }]"#;
    let text = format!("{MINIMAL}{}", table("injury", ["", cripple, ""]));
    let err = refused(&text);
    assert_eq!(err.entry, "tables.injury row `3-4`");
    assert_eq!(err.reason, "falls back on itself");
}

#[test]
fn a_crippling_loop_through_a_row_fallback_is_refused() {
    // Inside a choice too: the player may pick the crippling.
    let cripple = r#"effects = [{ kind = "choice", options = [{ kind = "note", text = "x" }, { kind = "cripple", fallback = "5+" }] }]"#;
    let text = format!(
        "{MINIMAL}{}",
        table("injury", [cripple, "", "fallback = \"1-2\""])
    );
    let err = refused(&text);
    assert_eq!(err.entry, "tables.injury row `1-2`");
    assert!(err.reason.contains("`1-2` → `5+` → `1-2`"), "{err}");
}

#[test]
fn a_crippling_row_on_the_advancement_table_is_refused() {
    let cripple = r#"effects = [{ kind = "cripple", fallback = "5+" }]"#;
    let text = format!(
        "{MINIMAL}{}\n[advancement]\ntable = \"adv\"\nper_battle = 1\n",
        table("adv", [cripple, "", ""])
    );
    let err = refused(&text);
    assert_eq!(err.entry, "tables.adv row `1-2`");
    assert!(err.reason.contains("the rolls would never end"), "{err}");
}

/// A one-count scenario with the given count fields.
fn scenario(count: &str) -> String {
    format!(
        r#"
[[scenarios]]
id = "dead-drop"
name = "Dead Drop"
stage = "first-blood"
counts = [{{ id = "caches", label = "Caches", {count} }}]
epilogue = [{{ id = "supply-per-cache", text = "x", to = "each", per = "caches", gain = [{{ resource = "supply", amount = 1 }}] }}]
"#
    )
}

#[test]
fn a_negative_count_maximum_is_refused() {
    let err = refused(&format!("{MINIMAL}{}", scenario("total_max = -1")));
    assert_eq!(err.entry, "scenarios.dead-drop.counts.caches.total_max");
    assert_eq!(err.reason, "-1 is negative, and a count is never below 0");
    let err = refused(&format!("{MINIMAL}{}", scenario("max = -3")));
    assert_eq!(err.entry, "scenarios.dead-drop.counts.caches.max");
}

#[test]
fn a_count_max_above_its_total_max_is_refused() {
    let err = refused(&format!("{MINIMAL}{}", scenario("max = 6, total_max = 5")));
    assert_eq!(err.entry, "scenarios.dead-drop.counts.caches");
    assert_eq!(err.reason, "max 6 is above total_max 5");
}

#[test]
fn a_count_total_past_the_bound_is_refused_naming_its_field() {
    let err = refused(&format!(
        "{MINIMAL}{}",
        scenario("total_max = 4611686018427387904")
    ));
    assert_eq!(err.entry, "scenarios.dead-drop.counts.caches.total_max");
    assert_eq!(
        err.reason,
        "4611686018427387904 is out of bounds: a number lies between -1000000 and 1000000"
    );
}

#[test]
fn a_counter_min_above_its_max_is_refused() {
    let text = MINIMAL.replace("min = 0\nmax = 5", "min = 5\nmax = 0\ndefault = 5");
    let err = refused(&text);
    assert_eq!(err.entry, "counters.bounty");
    assert_eq!(err.reason, "min 5 is above max 0");
}

#[test]
fn a_stat_min_above_its_max_is_refused() {
    let text = MINIMAL.replace("default = 1\n", "default = 1\nmin = 4\nmax = 2\n");
    let err = refused(&text);
    assert_eq!(err.entry, "stats.armor");
    assert_eq!(err.reason, "min 4 is above max 2");
}

#[test]
fn every_pack_number_past_the_bound_is_refused_with_its_field() {
    let big = MAX_MAGNITUDE + 1;
    let cases: Vec<(String, &str)> = vec![
        (
            MINIMAL.replace("default = 1\n", &format!("default = {big}\n")),
            "stats.armor.default",
        ),
        (
            MINIMAL.replace("default = 1\n", "default = 1\nmax = 9223372036854775807\n"),
            "stats.armor.max",
        ),
        (
            MINIMAL.replace("label = \"Supply\"\n", &format!("label = \"Supply\"\nmin = -{big}\n")),
            "resources.supply.min",
        ),
        (
            MINIMAL.replace("label = \"Supply\"\n", &format!("label = \"Supply\"\nstart = {big}\n")),
            "resources.supply.start",
        ),
        (
            MINIMAL.replace("max = 5", &format!("max = {big}")),
            "counters.bounty.max",
        ),
        (
            format!("{MINIMAL}punch = {big}\n"),
            "quirks.slasher.punch",
        ),
        (
            format!("{MINIMAL}effects = [{{ stat = \"armor\", add = -{big} }}]\n"),
            "quirks.slasher.effects[0].add",
        ),
        (
            format!(
                "{MINIMAL}{}",
                table(
                    "injury",
                    [&format!("effects = [{{ kind = \"resource\", resource = \"supply\", amount = {big} }}]"), "", ""]
                )
            ),
            "tables.injury row `1-2`.effects[0].amount",
        ),
        (
            format!(
                "{MINIMAL}{}",
                table("injury", ["", "", ""]).replace("\"5+\"", &format!("\"5-{big}\""))
            ),
            "tables.injury row `5-1000001`.on",
        ),
        (
            format!(
                "{MINIMAL}{}",
                table("injury", ["", "", ""]).replace(
                    "roll = \"d6\"",
                    &format!("roll = \"d6\"\nmodifiers = [{{ id = \"hurt\", label = \"Hurt\", amount = -{big} }}]")
                )
            ),
            "tables.injury.modifiers.hurt.amount",
        ),
        (
            format!("{MINIMAL}{}", scenario("max = 2"))
                .replace("amount = 1 }", &format!("amount = {big} }}")),
            "scenarios.dead-drop.epilogue.supply-per-cache.gain[0].amount",
        ),
        (
            format!(
                "{MINIMAL}\n[bounties]\ncounter = \"bounty\"\nclaim_resource = \"supply\"\nclaim_per_point = {big}\ndeclare_step = 1\ndeclarations_per_gang = 1\n"
            ),
            "bounties.claim_per_point",
        ),
        (
            format!(
                "{MINIMAL}\n[[actions]]\nid = \"buy\"\nname = \"Buy\"\ncost = [{{ resource = \"supply\", amount = {big} }}]\ntext = \"x\"\n"
            ),
            "actions.buy.cost[0].amount",
        ),
    ];
    for (text, entry) in cases {
        let err = refused(&text);
        assert_eq!(err.entry, entry, "{err}");
        assert!(err.reason.contains("is out of bounds"), "{err}");
    }
}

#[test]
fn a_table_with_modifiers_at_the_bound_is_checked_at_once() {
    let mods = "modifiers = [{ id = \"a\", label = \"A\", amount = 1000000 }, { id = \"b\", label = \"B\", amount = -1000000 }]";
    let text = format!(
        "{MINIMAL}{}",
        table("injury", ["", "", ""])
            .replace("roll = \"d6\"", &format!("roll = \"d6\"\n{mods}"))
            .replace("\"1-2\"", "\"2-\"")
    );
    let started = std::time::Instant::now();
    load(&text).expect("every total lands on `2-`, `3-4` or `5+`");
    assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
    // A gap far from the dice is still found, and named.
    let gap = text.replace("\"5+\"", "\"5-999999\"");
    let err = refused(&gap);
    assert_eq!(err.reason, "a roll of 1000000 lands on no row");
}

#[test]
fn check_pack_refuses_a_fallback_loop_with_one_line_naming_the_row() {
    let dir = temp();
    let text = format!(
        "{MINIMAL}{}",
        table("injury", ["fallback = \"3-4\"", "fallback = \"1-2\"", ""])
    );
    std::fs::write(dir.path().join("loop.toml"), text).expect("write");
    let out = rapsheet(dir.path(), &["check-pack", "loop.toml"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("rapsheet: loop.toml:")
            && err.contains(
                ": tables.injury row `1-2`: its fallbacks go round in a loop: `1-2` → `3-4` → `1-2`"
            ),
        "{err}"
    );
}

#[test]
fn check_pack_refuses_a_number_past_the_bound_naming_its_field() {
    let dir = temp();
    std::fs::write(
        dir.path().join("big.toml"),
        format!("{MINIMAL}{}", scenario("total_max = 4611686018427387904")),
    )
    .expect("write");
    let out = rapsheet(dir.path(), &["check-pack", "big.toml"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.starts_with("rapsheet: big.toml:")
            && err.contains(": scenarios.dead-drop.counts.caches.total_max: 4611686018427387904 is out of bounds"),
        "{err}"
    );
}

#[test]
fn a_crippling_inside_a_choice_falling_back_on_no_row_is_refused() {
    let cripple =
        r#"effects = [{ kind = "choice", options = [{ kind = "cripple", fallback = "7" }] }]"#;
    let err = refused(&format!("{MINIMAL}{}", table("injury", [cripple, "", ""])));
    assert_eq!(err.entry, "tables.injury row `1-2`");
    assert_eq!(err.reason, "fallback row `7` is not a row of the table");
}

/// The made-up game of the campaign kinds (`tests/packs/gloamhold.toml`)
/// with one field changed: refused naming the field, or `None` when it
/// loads.
fn gloamhold_with(from: &str, to: &str) -> Option<PackError> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/gloamhold.toml"),
    )
    .unwrap();
    assert!(text.contains(from), "{from}");
    load(&text.replacen(from, to, 1)).err()
}

/// The kinds' numbers, ids and labels are held as every other section's:
/// a group's size or how many a side keeps past the safety bound, a
/// group's id that is no id, a label with a control or direction
/// character, and a difference with no rows are refused naming the field.
#[test]
fn the_kinds_numbers_ids_and_labels_are_checked_as_every_sections() {
    assert!(gloamhold_with("id = \"acolytes\"", "id = \"acolytes\"").is_none());
    let size = "size = { min = 2, max = 4 }";
    let per_gang = "per_gang = { min = 0, max = 2 }";
    let cases = [
        (
            size,
            format!("size = {{ min = 2, max = {} }}", u64::MAX),
            "groups.acolytes.size",
        ),
        (
            size,
            format!("size = {{ min = 2, max = {} }}", MAX_MAGNITUDE + 1),
            "groups.acolytes.size.max",
        ),
        (
            size,
            format!("size = {}", MAX_MAGNITUDE + 1),
            "groups.acolytes.size",
        ),
        (
            per_gang,
            format!("per_gang = {{ min = 0, max = {} }}", MAX_MAGNITUDE + 1),
            "groups.acolytes.per_gang.max",
        ),
        (
            "id = \"acolytes\"",
            "id = \"Bad Id\"".to_owned(),
            "groups.Bad Id",
        ),
        (
            "label = \"Company Rating\"",
            "label = \"Company\\u001bRating\"".to_owned(),
            "rating.label",
        ),
        (
            "label = \"Delving\"",
            "label = \"Del\\u202Eving\"".to_owned(),
            "record.counted.delving.label",
        ),
        (
            "rows = [{ on = \"1-9\", amount = 1 }, { on = \"10+\", amount = 2 }]",
            "rows = []".to_owned(),
            "record.differences.underdog.rows",
        ),
    ];
    for (from, to, entry) in cases {
        let err = gloamhold_with(from, &to).unwrap_or_else(|| panic!("{to}: accepted"));
        assert!(err.to_string().contains(entry), "{to}: {err}");
    }
    // `check-pack` says the same, in one line.
    let dir = temp();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/gloamhold.toml"),
    )
    .unwrap()
    .replacen(
        "rows = [{ on = \"1-9\", amount = 1 }, { on = \"10+\", amount = 2 }]",
        "rows = []",
        1,
    );
    std::fs::write(dir.path().join("g.toml"), text).unwrap();
    let out = rapsheet(dir.path(), &["check-pack", "g.toml"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("record.differences.underdog.rows: no rows"),
        "{}",
        stderr(&out)
    );
}
