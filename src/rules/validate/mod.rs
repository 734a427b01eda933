//! Checks a (merged) pack: every reference resolves, every number is in its
//! bounds, every id is unique. Pure.
//!
//! One file a subject: `roster` (stats, resources, counters, quirks, the
//! pricing, the card, recruiting), `constraints`, `outcomes` (and the
//! effects they give), `tables`, `scenarios`, `aftermath` (results, dice,
//! injuries, advancement), `rewards` (bounties, titles, actions),
//! `rulings`, `record` (the record, its settings and checks) and
//! `numbers` (every number, for the bounds check).

use std::collections::BTreeSet;

use super::{Amount, FORMAT_VERSION, Pack, PackError, check_bound};

mod aftermath;
mod constraints;
mod kinds;
mod numbers;
mod outcomes;
mod record;
mod rewards;
mod roster;
mod rulings;
mod scenarios;
mod season;
mod tables;

/// The most rows a roll table may have: a row for every total of the
/// largest die a pack may roll (a d1000).
pub const MAX_TABLE_ROWS: usize = 1000;

/// Checks a pack section by section, in a fixed order, and refuses it with
/// the first thing found wrong.
pub(super) fn validate(file: &str, pack: &Pack) -> Result<(), PackError> {
    validate_format(file, pack)?;
    check_id(file, "pack.id", &pack.pack.id)?;
    // First of all, so that no later check walks a hostile number of rows.
    validate_table_sizes(file, pack)?;
    validate_pack_name(file, pack)?;
    validate_entry_names(file, pack)?;
    validate_some_stat(file, pack)?;
    validate_words(file, pack)?;
    // First, so that every sum the later checks make stays small.
    validate_numbers(file, pack)?;
    validate_ids(file, pack)?;
    validate_kind_ids(file, pack)?;
    roster::validate_stats(file, pack)?;
    roster::validate_resources(file, pack)?;
    roster::validate_counters(file, pack)?;
    roster::validate_quirks(file, pack)?;
    roster::check_valuation(file, pack)?;
    roster::check_card(file, pack)?;
    constraints::validate_constraints(file, pack)?;
    validate_battles(file, pack)?;
    roster::validate_recruiting(file, pack)?;
    kinds::validate_kinds(file, pack)?;
    season::validate_season(file, pack)?;
    Ok(())
}

/// Checks the pack is of the format this build reads.
fn validate_format(file: &str, pack: &Pack) -> Result<(), PackError> {
    if pack.pack.format != FORMAT_VERSION {
        return Err(PackError::new(
            file,
            "pack.format",
            format!(
                "format {} is not supported (this build reads format {FORMAT_VERSION})",
                pack.pack.format
            ),
        ));
    }
    Ok(())
}

/// Checks no table has more rows than a d1000 has totals.
fn validate_table_sizes(file: &str, pack: &Pack) -> Result<(), PackError> {
    if let Some(table) = pack.tables.iter().find(|t| t.rows.len() > MAX_TABLE_ROWS) {
        return Err(PackError::new(
            file,
            format!("tables.{}", table.id),
            format!(
                "{} rows; a table has at most {MAX_TABLE_ROWS} (one for each total of a d1000)",
                table.rows.len()
            ),
        ));
    }
    Ok(())
}

/// Checks the pack has a name, and one a player's name could be.
fn validate_pack_name(file: &str, pack: &Pack) -> Result<(), PackError> {
    if pack.pack.name.trim().is_empty() {
        return Err(PackError::new(file, "pack.name", "a pack needs a name"));
    }
    // A pack's name is a name as a player's are: one line, no control or
    // invisible character, at most a name's length.
    if let Err(e) = crate::text::name("A pack", &pack.pack.name) {
        return Err(PackError::new(file, "pack.name", e.to_string()));
    }
    Ok(())
}

/// Checks every name and label an entry gives itself is a name as a
/// player's are.
fn validate_entry_names(file: &str, pack: &Pack) -> Result<(), PackError> {
    // So is every name and label an entry gives itself: what the app
    // prints of it in a line of its own.
    for (entry, name) in entry_names(pack) {
        if name.trim().is_empty() {
            continue;
        }
        if let Err(e) = crate::text::name("An entry", name) {
            return Err(PackError::new(file, entry, e.to_string()));
        }
    }
    Ok(())
}

/// Checks the pack has at least one stat.
fn validate_some_stat(file: &str, pack: &Pack) -> Result<(), PackError> {
    if pack.stats.is_empty() {
        return Err(PackError::new(
            file,
            "stats",
            "a pack needs at least one stat",
        ));
    }
    Ok(())
}

/// Checks every word of `[words]` is given.
fn validate_words(file: &str, pack: &Pack) -> Result<(), PackError> {
    // The app prints these around the pack's entries; a game's own words,
    // so none of them has a default in the app. Every one missing is
    // named at once, so that one run of `check-pack` says them all.
    let missing: Vec<&str> = pack
        .words
        .fields()
        .into_iter()
        .filter(|(_, word)| word.trim().is_empty())
        .map(|(field, _)| field)
        .collect();
    match missing.as_slice() {
        [] => {}
        [field] => {
            return Err(PackError::new(
                file,
                format!("words.{field}"),
                format!("missing: {}", word_use(field)),
            ));
        }
        fields => {
            let each: Vec<String> = fields
                .iter()
                .map(|field| format!("`{field}` — {}", word_use(field)))
                .collect();
            return Err(PackError::new(
                file,
                "words",
                format!("missing {} words: {}", fields.len(), each.join("; ")),
            ));
        }
    }
    // Every word given is printed in the app's sentences and on paper: one
    // line a person can read, as a name is.
    for (field, word) in printed_words(pack) {
        if word.trim().is_empty() {
            continue;
        }
        if let Err(e) = crate::text::word(&word) {
            return Err(PackError::new(file, field, e.to_string()));
        }
    }
    Ok(())
}

/// The words a pack gives the app to print around its entries, with the
/// field each is in: `[words]`, `[dice] stress_words`, `[record] noun`.
fn printed_words(pack: &Pack) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut section = |name: &str, value: serde_json::Result<serde_json::Value>| {
        if let Ok(serde_json::Value::Object(fields)) = value {
            for (field, word) in fields {
                if let serde_json::Value::String(word) = word {
                    out.push((format!("{name}.{field}"), word));
                }
            }
        }
    };
    section("words", serde_json::to_value(&pack.words));
    if let Some(words) = pack.dice.as_ref().and_then(|d| d.stress_words.as_ref()) {
        section("dice.stress_words", serde_json::to_value(words));
    }
    if let Some(record) = &pack.record {
        out.push(("record.noun".to_owned(), record.noun.clone()));
        if let Some(nouns) = &record.nouns {
            out.push(("record.nouns".to_owned(), nouns.clone()));
        }
    }
    out
}

/// Checks every number of the pack is within the bounds of a number.
fn validate_numbers(file: &str, pack: &Pack) -> Result<(), PackError> {
    for (entry, n) in numbers::numbers(pack) {
        if let Err(reason) = check_bound(n) {
            return Err(PackError::new(file, entry, reason));
        }
    }
    Ok(())
}

/// Checks the ids of the roster's sections and the rulings are each
/// well-formed and unique.
fn validate_ids(file: &str, pack: &Pack) -> Result<(), PackError> {
    unique(file, "stats", pack.stats.iter().map(|e| e.id.as_str()))?;
    unique(
        file,
        "resources",
        pack.resources.iter().map(|e| e.id.as_str()),
    )?;
    unique(
        file,
        "counters",
        pack.counters.iter().map(|e| e.id.as_str()),
    )?;
    unique(
        file,
        "categories",
        pack.categories.iter().map(|e| e.id.as_str()),
    )?;
    unique(
        file,
        "keywords",
        pack.keywords.iter().map(|e| e.id.as_str()),
    )?;
    unique(file, "quirks", pack.quirks.iter().map(|e| e.id.as_str()))?;
    unique(
        file,
        "constraints",
        pack.constraints.iter().map(|e| e.id.as_str()),
    )?;
    unique(file, "rulings", pack.rulings.iter().map(|e| e.id.as_str()))?;
    Ok(())
}

/// Checks the ids of the campaign kinds (groups, the record's awards,
/// differences, counted rolls and lookups, grids) are well-formed ids, as
/// every other section's are; each kind says itself where one is used
/// twice.
fn validate_kind_ids(file: &str, pack: &Pack) -> Result<(), PackError> {
    let record = pack.record.as_ref();
    let ids = pack
        .groups
        .iter()
        .map(|g| ("groups", g.id.as_str()))
        .chain(pack.grids.iter().map(|g| ("grids", g.id.as_str())))
        .chain(
            record
                .iter()
                .flat_map(|r| &r.awards)
                .map(|a| ("record.awards", a.id.as_str())),
        )
        .chain(
            record
                .iter()
                .flat_map(|r| &r.differences)
                .map(|d| ("record.differences", d.id.as_str())),
        )
        .chain(
            record
                .iter()
                .flat_map(|r| &r.counted)
                .map(|c| ("record.counted", c.id.as_str())),
        )
        .chain(
            record
                .iter()
                .flat_map(|r| &r.lookups)
                .map(|l| ("record.lookups", l.id.as_str())),
        );
    for (section, id) in ids {
        check_id(file, &format!("{section}.{}", crate::text::echo(id)), id)?;
    }
    Ok(())
}

/// What a word of `[words]` is for, to say so when it is missing.
fn word_use(field: &str) -> &'static str {
    match field {
        "card_quirks" => "the heading over a fighter's quirks on a printed card",
        "card_lasting" => "the heading over a fighter's lasting effects on a printed card",
        "card_notes" => "the heading of the notes box on a printed card",
        "card_marks" => "the heading of the tick boxes on a printed card",
        "gang" => "what the game calls a gang (`gang`, `crew`, `party`)",
        "gangs" => "what the game calls gangs, plural",
        "fighter" => "what the game calls a fighter (`fighter`, `model`)",
        "fighters" => "what the game calls fighters, plural",
        "entry" => "what the game calls an entry of its catalog (`quirk`, `component`)",
        "entries" => "what the game calls entries of its catalog, plural",
        "leader" => "what the game calls a gang's leader (`leader`, `captain`)",
        "leaders" => "what the game calls leaders, plural",
        _ => "the heading over the fighters of a battle who did not come through as usual",
    }
}

/// The names and labels of a pack's entries, each with its field
/// (`quirks.<id>.name`), the id shown short.
fn entry_names(pack: &Pack) -> Vec<(String, &str)> {
    let mut out: Vec<(String, &str)> = Vec::new();
    let field =
        |section: &str, id: &str, what: &str| format!("{section}.{}.{what}", crate::text::echo(id));
    for q in &pack.quirks {
        out.push((field("quirks", &q.id, "name"), &q.name));
        for alt in &q.alt_names {
            out.push((field("quirks", &q.id, "alt_names"), alt));
        }
    }
    for s in &pack.stats {
        out.push((field("stats", &s.id, "label"), &s.label));
        out.push((field("stats", &s.id, "name"), &s.name));
    }
    for r in &pack.resources {
        out.push((field("resources", &r.id, "label"), &r.label));
    }
    for c in &pack.counters {
        out.push((field("counters", &c.id, "label"), &c.label));
    }
    for c in &pack.categories {
        out.push((field("categories", &c.id, "label"), &c.label));
    }
    for k in &pack.keywords {
        out.push((field("keywords", &k.id, "name"), &k.name));
    }
    for t in &pack.tables {
        out.push((field("tables", &t.id, "name"), &t.name));
        for (i, row) in t.rows.iter().enumerate() {
            // A row's name is what a fighter keeps of it; a lasting row
            // without one keeps its result as its name.
            let at = format!("tables.{}.rows[{i}]", crate::text::echo(&t.id));
            if row.name.is_empty() && row.lasting {
                out.push((format!("{at}.result"), &row.result));
            } else {
                out.push((format!("{at}.name"), &row.name));
            }
        }
    }
    for s in &pack.scenarios {
        out.push((field("scenarios", &s.id, "name"), &s.name));
    }
    for t in &pack.titles {
        out.push((field("titles", &t.id, "name"), &t.name));
    }
    for a in &pack.actions {
        out.push((field("actions", &a.id, "name"), &a.name));
    }
    for o in &pack.outcomes {
        out.push((field("outcomes", &o.id, "label"), &o.label));
    }
    // The campaign kinds' labels, printed as names are.
    if let Some(rating) = &pack.rating {
        out.push(("rating.label".to_owned(), &rating.label));
    }
    for c in pack.record.iter().flat_map(|r| &r.counted) {
        out.push((field("record.counted", &c.id, "label"), &c.label));
        for face in &c.faces {
            out.push((field("record.counted", &c.id, "faces.name"), &face.name));
        }
        for set in &c.sets {
            out.push((field("record.counted", &c.id, "sets.name"), &set.name));
        }
    }
    out
}

/// An id as a pack may give one: lower-case letters, digits, `-` or `_`,
/// at most as long as a name. The refusal repeats the id short and with
/// any control character shown as its code point, so it stays one line.
fn check_id(file: &str, entry: &str, id: &str) -> Result<(), PackError> {
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
    let reason = if id.is_empty() {
        "an id cannot be empty".to_owned()
    } else if !id.chars().all(allowed) {
        format!(
            "id `{}` must be lower-case letters, digits, `-` or `_`",
            crate::text::echo(id)
        )
    } else if id.len() > crate::text::MAX_NAME {
        format!(
            "id `{}` is too long ({} characters; at most {})",
            crate::text::echo(id),
            id.len(),
            crate::text::MAX_NAME
        )
    } else {
        return Ok(());
    };
    Err(PackError::new(file, entry, reason))
}

/// Checks each id of a section is well-formed and none appears twice.
fn unique<'a>(
    file: &str,
    section: &str,
    ids: impl Iterator<Item = &'a str>,
) -> Result<(), PackError> {
    let mut seen = BTreeSet::new();
    for id in ids {
        check_id(file, &format!("{section}.{}", crate::text::echo(id)), id)?;
        if !seen.insert(id) {
            return Err(PackError::new(
                file,
                format!("{section}.{id}"),
                "this id appears twice",
            ));
        }
    }
    Ok(())
}

/// The post-battle sections: outcomes, tables, scenarios, bounties, titles
/// and resource actions, one check each.
fn validate_battles(file: &str, pack: &Pack) -> Result<(), PackError> {
    outcomes::validate_outcomes_and_ids(file, pack)?;
    tables::validate_tables(file, pack)?;
    scenarios::validate_scenarios(file, pack)?;
    aftermath::validate_results_and_dice(file, pack)?;
    rulings::validate_named_rulings(file, pack)?;
    aftermath::validate_aftermath(file, pack)?;
    rewards::validate_bounties(file, pack)?;
    rewards::validate_titles(file, pack)?;
    rewards::validate_actions(file, pack)?;
    roster::validate_selects(file, pack)?;
    rewards::validate_action_marks(file, pack)?;
    record::validate_record(file, pack)?;
    record::validate_record_conditions(file, pack)?;
    record::validate_settings(file, pack)?;
    record::validate_checks(file, pack)?;
    Ok(())
}

/// Refuses an amount of a resource the pack does not have.
fn check_amounts(file: &str, pack: &Pack, entry: &str, list: &[Amount]) -> Result<(), PackError> {
    match list.iter().find(|a| pack.resource(&a.resource).is_none()) {
        Some(bad) => Err(PackError::new(
            file,
            entry,
            format!("resource `{}` is not in [[resources]]", bad.resource),
        )),
        None => Ok(()),
    }
}

/// The ruling a `fill_in` names must be in `[[rulings]]`.
fn fill_in_ruling(
    file: &str,
    pack: &Pack,
    entry: &str,
    ruling: Option<&String>,
) -> Result<(), PackError> {
    match ruling {
        Some(ruling) if pack.ruling(ruling).is_none() => Err(PackError::new(
            file,
            entry,
            format!("fill_in ruling `{ruling}` is not in [[rulings]]"),
        )),
        _ => Ok(()),
    }
}
