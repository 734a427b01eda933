//! Checks a (merged) pack: every reference resolves, every number is in its
//! bounds, every id is unique. Pure.

use std::collections::BTreeSet;

use super::{
    Amount, ConstraintKind, Effect, FORMAT_VERSION, Pack, PackError, Recipient, RowRange, TableDef,
    TableRowDef, check_bound, count_as_number,
};

/// The most rows a roll table may have: a row for every total of the
/// largest die a pack may roll (a d1000).
pub const MAX_TABLE_ROWS: usize = 1000;

pub(super) fn validate(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));

    if pack.pack.format != FORMAT_VERSION {
        return err(
            "pack.format".into(),
            format!(
                "format {} is not supported (this build reads format {FORMAT_VERSION})",
                pack.pack.format
            ),
        );
    }
    check_id(file, "pack.id", &pack.pack.id)?;
    // First of all, so that no later check walks a hostile number of rows.
    if let Some(table) = pack.tables.iter().find(|t| t.rows.len() > MAX_TABLE_ROWS) {
        return err(
            format!("tables.{}", table.id),
            format!(
                "{} rows; a table has at most {MAX_TABLE_ROWS} (one for each total of a d1000)",
                table.rows.len()
            ),
        );
    }
    if pack.pack.name.trim().is_empty() {
        return err("pack.name".into(), "a pack needs a name".into());
    }
    // A pack's name is a name as a player's are: one line, no control or
    // invisible character, at most a name's length.
    if let Err(e) = crate::text::name("A pack", &pack.pack.name) {
        return err("pack.name".into(), e.to_string());
    }
    // So is every name and label an entry gives itself: what the app
    // prints of it in a line of its own.
    for (entry, name) in entry_names(pack) {
        if name.trim().is_empty() {
            continue;
        }
        if let Err(e) = crate::text::name("An entry", name) {
            return err(entry, e.to_string());
        }
    }
    if pack.stats.is_empty() {
        return err("stats".into(), "a pack needs at least one stat".into());
    }
    // The app prints these around the pack's entries; a game's own words,
    // so none of them has a default in the app.
    for (field, word) in pack.words.fields() {
        if word.trim().is_empty() {
            return err(
                format!("words.{field}"),
                format!("missing: {}", word_use(field)),
            );
        }
    }
    // First, so that every sum the later checks make stays small.
    for (entry, n) in numbers(pack) {
        if let Err(reason) = check_bound(n) {
            return err(entry, reason);
        }
    }

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

    for stat in &pack.stats {
        let entry = format!("stats.{}", stat.id);
        if let (Some(min), Some(max)) = (stat.min, stat.max)
            && min > max
        {
            return err(entry, format!("min {min} is above max {max}"));
        }
        if !stat.ladder.is_empty() && stat.min.is_none() {
            return err(
                entry,
                "a ladder needs a `min` (the value of its first step)".into(),
            );
        }
        match (stat.default, &stat.fill_in) {
            (None, None) => {
                return err(
                    entry,
                    "missing `default` (leave it out only with `fill_in`, for a value the text does not print)".into(),
                );
            }
            (Some(default), _)
                if stat.min.is_some_and(|min| default < min)
                    || stat.max.is_some_and(|max| default > max) =>
            {
                return err(entry, format!("default {default} is outside its bounds"));
            }
            _ => {}
        }
        fill_in_ruling(file, pack, &entry, stat.fill_in.as_ref())?;
    }
    for resource in &pack.resources {
        if resource.min.is_some_and(|min| resource.start < min) {
            return err(
                format!("resources.{}", resource.id),
                format!("start {} is below its minimum", resource.start),
            );
        }
    }
    for counter in &pack.counters {
        let entry = format!("counters.{}", counter.id);
        if counter.min > counter.top() {
            return err(
                entry,
                format!("min {} is above max {}", counter.min, counter.top()),
            );
        }
        if let Some(start) = counter.start()
            && !(counter.min <= start && start <= counter.top())
        {
            return err(
                entry,
                format!(
                    "default {start} is not within {}..{}",
                    counter.min,
                    counter.top()
                ),
            );
        }
        if let Some(lowers) = &counter.lowers {
            if pack.stat(&lowers.stat).is_none() {
                return err(
                    format!("{entry}.lowers"),
                    format!("stat `{}` is not in [[stats]]", lowers.stat),
                );
            }
            if counter.per_entry.is_some() {
                return err(
                    format!("{entry}.lowers"),
                    "a counter kept for each entry (`per_entry`) lowers no stat".into(),
                );
            }
        }
        fill_in_ruling(file, pack, &entry, counter.fill_in.as_ref())?;
        if let Some(roll) = &counter.found {
            if counter.per_entry.is_none() {
                return err(
                    format!("{entry}.found"),
                    "only a counter kept per entry (`per_entry`) is found with its entry".into(),
                );
            }
            let totals = match crate::dice::parse(roll) {
                Ok(expr) => expr.totals(),
                Err(e) => return err(format!("{entry}.found"), format!("roll `{roll}`: {e}")),
            };
            if *totals.start() < counter.min || *totals.end() > counter.top() {
                return err(
                    format!("{entry}.found"),
                    format!(
                        "`{roll}` rolls {} to {}, not within {}..{}",
                        totals.start(),
                        totals.end(),
                        counter.min,
                        counter.top()
                    ),
                );
            }
        }
    }

    let mut tags = BTreeSet::new();
    for quirk in &pack.quirks {
        let entry = format!("quirks.{}", quirk.id);
        if quirk.name.trim().is_empty() {
            return err(entry, "a quirk needs a name".into());
        }
        if pack.category(&quirk.category).is_none() {
            return err(
                entry,
                format!("category `{}` is not in [[categories]]", quirk.category),
            );
        }
        if let Some(punch) = quirk.punch
            && punch < 0
        {
            return err(entry, format!("PUNCH {punch} is negative"));
        }
        for used in &quirk.keywords {
            if pack.keyword(&used.keyword).is_none() {
                return err(
                    entry,
                    format!("keyword `{}` is not in [[keywords]]", used.keyword),
                );
            }
            if used.x.trim().is_empty() {
                return err(entry, format!("keyword `{}` needs a value", used.keyword));
            }
        }
        if !(quirk.alt_names.is_empty() || quirk.alt_names.len() == 6) {
            return err(
                entry,
                format!(
                    "alt_names is a d6 table: it needs 6 names, not {}",
                    quirk.alt_names.len()
                ),
            );
        }
        for effect in &quirk.effects {
            if pack.stat(&effect.stat).is_none() {
                return err(
                    entry,
                    format!(
                        "effect on stat `{}`, which is not in [[stats]]",
                        effect.stat
                    ),
                );
            }
            match (effect.add, effect.bump) {
                (0, None) => {
                    return err(
                        entry,
                        format!(
                            "effect on stat `{}` changes nothing: give `add` or `bump`",
                            effect.stat
                        ),
                    );
                }
                (add, Some(_)) if add != 0 => {
                    return err(
                        entry,
                        format!(
                            "effect on stat `{}` both adds and bumps: one effect does one",
                            effect.stat
                        ),
                    );
                }
                _ => {}
            }
        }
        if let Some(missing) = quirk.includes.iter().find(|id| pack.quirk(id).is_none()) {
            return err(
                entry,
                format!("includes `{missing}`, which is not in [[quirks]]"),
            );
        }
        if let Some(ruling) = &quirk.ranges_ruling
            && pack.ruling(ruling).is_none()
        {
            return err(
                entry,
                format!("ranges_ruling `{ruling}` is not in [[rulings]]"),
            );
        }
        for (stat, [min, max]) in &quirk.ranges {
            if pack.stat(stat).is_none() {
                return err(
                    entry,
                    format!("a range of stat `{stat}`, which is not in [[stats]]"),
                );
            }
            if min > max {
                return err(
                    entry,
                    format!("the range of `{stat}` runs from {min} down to {max}"),
                );
            }
        }
        if let Some(ruling) = &quirk.cost_ruling {
            if quirk.cost.is_none() {
                return err(
                    entry,
                    "cost_ruling settles a cost, but no cost is given".into(),
                );
            }
            if pack.ruling(ruling).is_none() {
                return err(entry, format!("ruling `{ruling}` is not in [[rulings]]"));
            }
        }
        tags.extend(quirk.tags.iter().map(String::as_str));
    }
    check_valuation(file, pack)?;
    check_card(file, pack)?;

    for constraint in &pack.constraints {
        let entry = format!("constraints.{}", constraint.id);
        if constraint.message.trim().is_empty() {
            return err(entry, "a constraint needs a message".into());
        }
        if let Some(ruling) = &constraint.ruling
            && pack.ruling(ruling).is_none()
        {
            return err(entry, format!("ruling `{ruling}` is not in [[rulings]]"));
        }
        let known_quirk = |id: &str| pack.quirk(id).is_some();
        let known_tag = |tag: &str| tags.contains(tag);
        match &constraint.rule {
            ConstraintKind::MaxTagged { tag, .. } | ConstraintKind::GangMaxTagged { tag, .. }
                if !known_tag(tag) =>
            {
                return err(entry, format!("tag `{tag}` is on no quirk"));
            }
            ConstraintKind::ForbidsTagged { quirk, tag } => {
                if !known_quirk(quirk) {
                    return err(entry, format!("quirk `{quirk}` is not in [[quirks]]"));
                }
                if !known_tag(tag) {
                    return err(entry, format!("tag `{tag}` is on no quirk"));
                }
            }
            ConstraintKind::RequiresAny { quirk, any_of } => {
                if let Some(missing) = std::iter::once(quirk)
                    .chain(any_of)
                    .find(|q| !known_quirk(q))
                {
                    return err(entry, format!("quirk `{missing}` is not in [[quirks]]"));
                }
                if any_of.is_empty() {
                    return err(entry, "any_of lists no quirk".into());
                }
            }
            ConstraintKind::GangCount { quirk, allowed } => {
                if !known_quirk(quirk) {
                    return err(entry, format!("quirk `{quirk}` is not in [[quirks]]"));
                }
                if allowed.is_empty() {
                    return err(entry, "allowed lists no count".into());
                }
            }
            ConstraintKind::MinTagged { tag, .. } if !known_tag(tag) => {
                return err(entry, format!("tag `{tag}` is on no quirk"));
            }
            ConstraintKind::MaxSlots {
                quirk, tag, max, ..
            } => {
                if !known_quirk(quirk) {
                    return err(entry, format!("quirk `{quirk}` is not in [[quirks]]"));
                }
                if !known_tag(tag) {
                    return err(entry, format!("tag `{tag}` is on no quirk"));
                }
                if max.is_none() && constraint.ruling.is_none() {
                    return err(
                        entry,
                        "no `max` is no maximum: name the ruling that says so (`ruling`)".into(),
                    );
                }
            }
            ConstraintKind::StatRange {
                quirk,
                stat,
                min,
                max,
                unless_tagged,
            } => {
                if !known_quirk(quirk) {
                    return err(entry, format!("quirk `{quirk}` is not in [[quirks]]"));
                }
                if pack.stat(stat).is_none() {
                    return err(entry, format!("stat `{stat}` is not in [[stats]]"));
                }
                if let (Some(min), Some(max)) = (min, max)
                    && min > max
                {
                    return err(entry, format!("`min` {min} is above `max` {max}"));
                }
                if let Some(tag) = unless_tagged
                    && !known_tag(tag)
                {
                    return err(entry, format!("tag `{tag}` is on no quirk"));
                }
            }
            ConstraintKind::MaxScore { quirk, .. } => {
                if !known_quirk(quirk) {
                    return err(entry, format!("quirk `{quirk}` is not in [[quirks]]"));
                }
                if pack
                    .valuation
                    .as_ref()
                    .and_then(|v| v.score.as_ref())
                    .is_none()
                {
                    return err(
                        entry,
                        "holds a score, but the pack has no [valuation.score]".into(),
                    );
                }
            }
            ConstraintKind::GangCountPerPoints { quirk, per, .. } => {
                if !known_quirk(quirk) {
                    return err(entry, format!("quirk `{quirk}` is not in [[quirks]]"));
                }
                if *per == 0 {
                    return err(
                        entry,
                        "per 0 points counts nothing: it must be above 0".into(),
                    );
                }
                if pack.valuation.is_none() {
                    return err(
                        entry,
                        "counts per points of value, but the pack has no [valuation]".into(),
                    );
                }
            }
            ConstraintKind::MaxTagged { .. }
            | ConstraintKind::MinTagged { .. }
            | ConstraintKind::GangMaxTagged { .. } => {}
        }
    }

    validate_battles(file, pack)?;

    if let Some(recruiting) = &pack.recruiting {
        for (field, range) in [
            ("leaders", Some(recruiting.leaders)),
            ("recruits", Some(recruiting.recruits)),
            ("quirks_per_fighter", recruiting.quirks_per_fighter),
        ] {
            if let Some(reason) = range.and_then(|r| r.backwards()) {
                return err(format!("recruiting.{field}"), reason);
            }
        }
        let needed = recruiting.entries_for(true).map_or(0, |r| r.min());
        if recruiting.distinct_quirks && needed > pack.quirks.len() {
            return err(
                "recruiting".into(),
                format!(
                    "a leader needs {needed} different {} but the catalog has {}",
                    pack.words.entries,
                    pack.quirks.len()
                ),
            );
        }
        if recruiting.size().max() == Some(0) {
            return err("recruiting".into(), "a gang of no fighters".into());
        }
    }
    Ok(())
}

/// What a card holds: a track of a stat the pack has, tokens with names.
fn check_card(file: &str, pack: &Pack) -> Result<(), PackError> {
    let Some(card) = &pack.card else {
        return Ok(());
    };
    if let Some(track) = &card.track
        && pack.stat(track).is_none()
    {
        return Err(PackError::new(
            file,
            "card.track",
            format!("no stat `{track}` in the pack"),
        ));
    }
    if let Some(i) = card.tokens.iter().position(|t| t.trim().is_empty()) {
        return Err(PackError::new(
            file,
            format!("card.tokens[{i}]"),
            "a token needs a name",
        ));
    }
    Ok(())
}

/// The pricing of fighters: stats that exist, a score that divides by
/// something, a ruling that is there.
fn check_valuation(file: &str, pack: &Pack) -> Result<(), PackError> {
    let Some(valuation) = &pack.valuation else {
        return Ok(());
    };
    let err = |entry: &str, reason: String| Err(PackError::new(file, entry, reason));
    if valuation.label.trim().is_empty() {
        return err(
            "valuation.label",
            "missing: what the value is called".into(),
        );
    }
    if valuation.per_stat_point < 0 {
        return err(
            "valuation.per_stat_point",
            format!("{} is negative", valuation.per_stat_point),
        );
    }
    if let Some(stat) = valuation.stats.iter().find(|s| pack.stat(s).is_none()) {
        return err(
            "valuation.stats",
            format!("stat `{stat}` is not in [[stats]]"),
        );
    }
    if let Some(spend) = &valuation.spend
        && pack.resource(spend).is_none()
    {
        return err(
            "valuation.spend",
            format!("resource `{spend}` is not in [[resources]]"),
        );
    }
    if let Some(budget) = &valuation.budget
        && pack.resource(budget).is_none()
    {
        return err(
            "valuation.budget",
            format!("resource `{budget}` is not in [[resources]]"),
        );
    }
    if valuation.budget.is_some() && valuation.limit.is_some() {
        return err(
            "valuation.budget",
            "a gang's worth is held to its budget or to a fixed limit, not both".into(),
        );
    }
    if valuation.budget.is_some() && valuation.spend.is_none() {
        return err(
            "valuation.budget",
            "a budget grows by what is spent: it needs `spend`".into(),
        );
    }
    if let Some(category) = valuation
        .buys
        .iter()
        .find(|c| !pack.categories.iter().any(|d| &d.id == *c))
    {
        return err(
            "valuation.buys",
            format!("category `{category}` is not in [[categories]]"),
        );
    }
    for (field, ruling) in [
        ("valuation.ruling", &valuation.ruling),
        ("valuation.budget_ruling", &valuation.budget_ruling),
    ] {
        if let Some(ruling) = ruling
            && pack.ruling(ruling).is_none()
        {
            return err(field, format!("ruling `{ruling}` is not in [[rulings]]"));
        }
    }
    if let Some(score) = &valuation.score {
        if score.label.trim().is_empty() {
            return err(
                "valuation.score.label",
                "missing: what the score is called".into(),
            );
        }
        if score.divide_by <= 0 {
            return err(
                "valuation.score.divide_by",
                format!("{} does not divide: it must be above 0", score.divide_by),
            );
        }
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
    validate_outcomes_and_ids(file, pack)?;
    validate_tables(file, pack)?;
    validate_scenarios(file, pack)?;
    validate_results_and_dice(file, pack)?;
    validate_named_rulings(file, pack)?;
    validate_aftermath(file, pack)?;
    validate_rewards(file, pack)?;
    validate_record(file, pack)?;
    validate_record_conditions(file, pack)?;
    validate_settings(file, pack)?;
    validate_checks(file, pack)?;
    Ok(())
}

/// The conditions on a record's rolls and resets: the entries a roll is
/// for, the settings, options and flags a reset asks for, and the
/// counters an entry takes away.
fn validate_record_conditions(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let record = pack.record();
    unique(
        file,
        "record.flags",
        record.flags.iter().map(|f| f.id.as_str()),
    )?;
    for (list, rolls) in [("during", &record.during), ("after", &record.after)] {
        for (i, roll) in rolls.iter().enumerate() {
            let entry = format!("record.{list}[{i}]");
            for quirk in roll.only_with.iter().chain(&roll.not_with) {
                if pack.quirk(quirk).is_none() {
                    return err(entry, format!("quirk `{quirk}` is not in [[quirks]]"));
                }
            }
        }
    }
    for (i, reset) in record.resets.iter().enumerate() {
        let entry = format!("record.resets[{i}]");
        match (&reset.setting, &reset.option) {
            (Some(setting), Some(option)) => {
                let Some(def) = pack.settings.iter().find(|s| s.id == *setting) else {
                    return err(entry, format!("setting `{setting}` is not in [[settings]]"));
                };
                if def.option(option).is_none() {
                    return err(
                        entry,
                        format!("option `{option}` is not an option of setting `{setting}`"),
                    );
                }
            }
            (None, None) => {}
            _ => {
                return err(
                    entry,
                    "`setting` and `option` go together: the reset applies while the setting has that option".into(),
                );
            }
        }
        if let Some(flag) = &reset.flag
            && !record.flags.iter().any(|f| f.id == *flag)
        {
            return err(entry, format!("flag `{flag}` is not in record.flags"));
        }
    }
    for quirk in &pack.quirks {
        if let Some(bad) = quirk.no_counters.iter().find(|c| pack.counter(c).is_none()) {
            return err(
                format!("quirks.{}.no_counters", quirk.id),
                format!("counter `{bad}` is not in [[counters]]"),
            );
        }
    }
    Ok(())
}

/// Checks `[[settings]]`: options with ids of their own, a default among
/// them, and a ruling that exists.
fn validate_settings(file: &str, pack: &Pack) -> Result<(), PackError> {
    unique(
        file,
        "settings",
        pack.settings.iter().map(|s| s.id.as_str()),
    )?;
    for setting in &pack.settings {
        let entry = format!("settings.{}", setting.id);
        unique(
            file,
            &format!("{entry}.options"),
            setting.options.iter().map(|o| o.id.as_str()),
        )?;
        if setting.option(&setting.default).is_none() {
            return Err(PackError::new(
                file,
                entry,
                format!("default `{}` is not one of its options", setting.default),
            ));
        }
        fill_in_ruling(file, pack, &entry, setting.ruling.as_ref())?;
    }
    Ok(())
}

/// Checks `[[checks]]`: a sum (`roll` and `plus_highest`) or a pool
/// (`pool`, with `stress`), naming stats and counters of the pack.
fn validate_checks(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    unique(file, "checks", pack.checks.iter().map(|c| c.id.as_str()))?;
    for check in &pack.checks {
        let entry = format!("checks.{}", check.id);
        match (&check.roll, check.pool.is_empty(), &check.tier) {
            (Some(roll), true, None) => {
                if let Err(e) = crate::dice::parse(roll) {
                    return err(entry, format!("roll `{roll}`: {e}"));
                }
            }
            (None, false, None) => {}
            (None, true, Some(tier)) => {
                let Some(stat) = pack.stat(tier) else {
                    return err(
                        format!("{entry}.tier"),
                        format!("stat `{tier}` is not in [[stats]]"),
                    );
                };
                if stat.ladder.is_empty() {
                    return err(
                        format!("{entry}.tier"),
                        format!("stat `{tier}` has no `ladder` of dice to step along"),
                    );
                }
                if let Err(e) = crate::dice::Ladder::from_texts(&stat.ladder) {
                    return err(format!("{entry}.tier"), format!("stat `{tier}`: {e}"));
                }
            }
            _ => {
                return err(
                    entry,
                    "give one of `roll` (dice plus the highest of `plus_highest`), `pool` (one die a point of each stat) and `tier` (the dice of a stat's ladder)".into(),
                );
            }
        }
        if !check.step.is_empty() && check.tier.is_none() {
            return err(format!("{entry}.step"), "`step` goes with a `tier`".into());
        }
        if check.stress.is_some() && check.pool.is_empty() {
            return err(entry, "`stress` dice go with a `pool`".into());
        }
        unique(
            file,
            &format!("{entry}.options"),
            check.options.iter().map(|o| o.id.as_str()),
        )?;
        if let Some(o) = check
            .options
            .iter()
            .find(|o| o.stress != 0 && check.stress.is_none())
        {
            return err(
                format!("{entry}.options.{}", o.id),
                "an option that raises stress needs the check's `stress` counter".into(),
            );
        }
        if let Some(o) = check
            .options
            .iter()
            .find(|o| !(0..=100).contains(&o.add.abs()) || !(0..=100).contains(&o.stress))
        {
            return err(
                format!("{entry}.options.{}", o.id),
                "`add` lies within -100..100 and `stress` within 0..100".into(),
            );
        }
        if let Some(bad) = check
            .plus_highest
            .iter()
            .chain(&check.pool)
            .find(|s| pack.stat(s).is_none())
        {
            return err(entry, format!("stat `{bad}` is not in [[stats]]"));
        }
        if let Some(counter) = &check.stress
            && pack.counter(counter).is_none()
        {
            return err(entry, format!("counter `{counter}` is not in [[counters]]"));
        }
        fill_in_ruling(file, pack, &entry, check.ruling.as_ref())?;
    }
    Ok(())
}

/// The most sides a record may have: more than a table seats.
const MAX_SIDES: usize = 16;

/// Checks `[record]`: sides, winner, and every table, outcome, counter and
/// ruling it names.
fn validate_record(file: &str, pack: &Pack) -> Result<(), PackError> {
    let Some(record) = &pack.record else {
        return Ok(());
    };
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    if record.noun.trim().is_empty() {
        return err(
            "record.noun".into(),
            "missing: what one record is called (battle, session)".into(),
        );
    }
    if record.min_sides == 0 || record.min_sides > record.max_sides || record.max_sides > MAX_SIDES
    {
        return err(
            "record".into(),
            format!(
                "min_sides {} and max_sides {}: give 1 ≤ min_sides ≤ max_sides ≤ {MAX_SIDES}",
                record.min_sides, record.max_sides
            ),
        );
    }
    if record.winner == crate::rules::WinnerRule::Required && record.min_sides < 2 {
        return err(
            "record.winner".into(),
            "a record of one side cannot always have a winner: use `optional` or `none`".into(),
        );
    }
    let amounts = |entry: &str, list: &[Amount]| check_amounts(file, pack, entry, list);
    unique(
        file,
        "record.epilogue",
        record.epilogue.iter().map(|r| r.id.as_str()),
    )?;
    for rule in &record.epilogue {
        let entry = format!("record.epilogue.{}", rule.id);
        let within = Within {
            what: "every record",
            roles: &[],
            counts: &[],
        };
        check_epilogue_line(pack, &within, rule).or_else(|reason| err(entry.clone(), reason))?;
        amounts(&entry, &rule.gain)?;
        amounts(&entry, &rule.choice)?;
        // A choice names its line: the same id in a scenario would be two.
        if let Some(scenario) = pack
            .scenarios
            .iter()
            .find(|s| s.epilogue.iter().any(|r| r.id == rule.id))
        {
            return err(
                entry,
                format!(
                    "`{}` is also a line of scenario `{}`; a choice could not say which",
                    rule.id, scenario.id
                ),
            );
        }
    }
    unique(
        file,
        "record.upkeep",
        record.upkeep.iter().map(|u| u.id.as_str()),
    )?;
    for upkeep in &record.upkeep {
        let entry = format!("record.upkeep.{}", upkeep.id);
        if upkeep.gain.is_empty() {
            return err(entry, "the line changes nothing: give `gain`".into());
        }
        amounts(&entry, &upkeep.gain)?;
    }
    for (list, rolls) in [("during", &record.during), ("after", &record.after)] {
        for (i, roll) in rolls.iter().enumerate() {
            let entry = format!("record.{list}[{i}]");
            if pack.table(&roll.table).is_none() {
                return err(
                    entry,
                    format!("table `{}` is not in [[tables]]", roll.table),
                );
            }
            if let Some(bad) = roll.outcomes.iter().find(|o| pack.outcome(o).is_none()) {
                return err(entry, format!("outcome `{bad}` is not in [[outcomes]]"));
            }
            if (list == "after") == roll.outcomes.is_empty() {
                let why = if list == "after" {
                    "a roll after the game names the outcomes whose fighters roll"
                } else {
                    "a roll during the game is made by the fighter named in the report, not by outcome"
                };
                return err(format!("{entry}.outcomes"), why.into());
            }
            if let Some(ruling) = &roll.ruling
                && pack.ruling(ruling).is_none()
            {
                return err(entry, format!("ruling `{ruling}` is not in [[rulings]]"));
            }
        }
    }
    let changed = record
        .counters
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("record.counters[{i}]"), c, None));
    let resets = record
        .resets
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("record.resets[{i}]"), &r.counter, r.ruling.as_ref()));
    for (entry, counter, ruling) in changed.chain(resets) {
        if pack.counter(counter).is_none() {
            return err(entry, format!("counter `{counter}` is not in [[counters]]"));
        }
        if let Some(ruling) = ruling
            && pack.ruling(ruling).is_none()
        {
            return err(entry, format!("ruling `{ruling}` is not in [[rulings]]"));
        }
    }
    if let Some(ruling) = &record.ruling
        && pack.ruling(ruling).is_none()
    {
        return err(
            "record".into(),
            format!("ruling `{ruling}` is not in [[rulings]]"),
        );
    }
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

/// Checks the outcomes (exactly one default) and the ids of every post-battle section, each unique.
fn validate_outcomes_and_ids(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    unique(
        file,
        "outcomes",
        pack.outcomes.iter().map(|e| e.id.as_str()),
    )?;
    if !pack.outcomes.is_empty() {
        let defaults: Vec<&str> = pack
            .outcomes
            .iter()
            .filter(|o| o.default)
            .map(|o| o.id.as_str())
            .collect();
        if defaults.len() != 1 {
            let found = if defaults.is_empty() {
                "none has".to_owned()
            } else {
                format!("{} have", defaults.join(", "))
            };
            return err(
                "outcomes".into(),
                format!(
                    "exactly one outcome needs default = true (the outcome of a fighter who came through as usual); {found}"
                ),
            );
        }
    }
    for outcome in &pack.outcomes {
        if let Some(bad) = outcome.forfeits.iter().find(|r| pack.resource(r).is_none()) {
            return err(
                format!("outcomes.{}.forfeits", outcome.id),
                format!("resource `{bad}` is not in [[resources]]"),
            );
        }
        for (i, effect) in outcome.effects.iter().enumerate() {
            if let Err(reason) = check_effect(pack, effect) {
                return err(format!("outcomes.{}.effects[{i}]", outcome.id), reason);
            }
            if let Some(why) = not_after_an_outcome(effect) {
                return err(format!("outcomes.{}.effects[{i}]", outcome.id), why.into());
            }
        }
    }
    unique(file, "tables", pack.tables.iter().map(|e| e.id.as_str()))?;
    unique(
        file,
        "arc_stages",
        pack.arc_stages.iter().map(|e| e.id.as_str()),
    )?;
    unique(
        file,
        "scenarios",
        pack.scenarios.iter().map(|e| e.id.as_str()),
    )?;
    unique(file, "titles", pack.titles.iter().map(|e| e.id.as_str()))?;
    unique(file, "actions", pack.actions.iter().map(|e| e.id.as_str()))?;
    Ok(())
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

/// Checks the roll tables: their dice, rows covering every total, effects and fall-backs.
fn validate_tables(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    for table in &pack.tables {
        let entry = format!("tables.{}", table.id);
        fill_in_ruling(file, pack, &entry, table.fill_in.as_ref())?;
        if table.roll.is_empty() && table.rows.is_empty() && table.fill_in.is_some() {
            continue;
        }
        let expr = match crate::dice::parse(&table.roll) {
            Ok(expr) => expr,
            Err(e) => return err(entry, format!("roll `{}`: {e}", table.roll)),
        };
        if table.rows.is_empty() {
            if table.fill_in.is_none() {
                return err(
                    entry,
                    "a table needs rows (leave them out only with `fill_in`, for a table the text does not print)".into(),
                );
            }
            continue;
        }
        unique(
            file,
            &format!("{entry}.modifiers"),
            table.modifiers.iter().map(|m| m.id.as_str()),
        )?;
        // Modifiers can push a roll past the dice's own range.
        // Saturating: the sums only widen the range checked, and a range
        // held at the ends of i64 is still every total a roll can reach.
        let mut reach = Vec::new();
        for m in &table.modifiers {
            match &m.per {
                None => reach.push((m.amount.min(0), m.amount.max(0))),
                Some(per) => match per_bounds(pack, per) {
                    Ok((min, max)) => {
                        let (a, b) = (m.amount.saturating_mul(min), m.amount.saturating_mul(max));
                        reach.push((a.min(b), a.max(b)));
                    }
                    Err(reason) => {
                        return err(format!("{entry}.modifiers.{}.per", m.id), reason);
                    }
                },
            }
        }
        let down = reach.iter().fold(0i64, |sum, r| sum.saturating_add(r.0));
        let up = reach.iter().fold(0i64, |sum, r| sum.saturating_add(r.1));
        let (low, high) = (
            expr.min().saturating_add(down),
            expr.max().saturating_add(up),
        );
        if let Err(reason) = table.check_rows(low, high) {
            return err(entry, reason);
        }
        for row in &table.rows {
            let row_entry = format!("{entry} row `{}`", row.on);
            for effect in &row.effects {
                if let Err(reason) = check_effect(pack, effect) {
                    return err(row_entry, reason);
                }
                if let Some(fallback) = cripples(effect)
                    .into_iter()
                    .find(|f| !table.rows.iter().any(|r| r.on == *f))
                {
                    return err(
                        row_entry,
                        format!("fallback row `{fallback}` is not a row of the table"),
                    );
                }
            }
            if let Some(fallback) = &row.fallback
                && !table.rows.iter().any(|r| r.on == *fallback)
            {
                return err(
                    row_entry,
                    format!("fallback row `{fallback}` is not a row of the table"),
                );
            }
            if let Some(ruling) = &row.ruling
                && pack.ruling(ruling).is_none()
            {
                return err(
                    row_entry,
                    format!("ruling `{ruling}` is not in [[rulings]]"),
                );
            }
        }
        if let Err((row, reason)) = fallback_cycle(table) {
            return err(format!("{entry} row `{row}`"), reason);
        }
    }
    Ok(())
}

/// Checks the scenarios: stages, roles, counts and epilogue lines.
fn validate_scenarios(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let amounts = |entry: &str, list: &[Amount]| check_amounts(file, pack, entry, list);
    for scenario in &pack.scenarios {
        let entry = format!("scenarios.{}", scenario.id);
        if !pack.arc_stages.is_empty() && pack.arc_stage(&scenario.stage).is_none() {
            return err(
                entry,
                format!("stage `{}` is not in [[arc_stages]]", scenario.stage),
            );
        }
        if let Some(win) = &scenario.win_at
            && !scenario.counts.iter().any(|c| c.id == win.count)
        {
            return err(
                format!("{entry}.win_at"),
                format!("count `{}` is not one of the scenario's counts", win.count),
            );
        }
        unique(
            file,
            &format!("{entry}.roles"),
            scenario.roles.iter().map(|r| r.id.as_str()),
        )?;
        unique(
            file,
            &format!("{entry}.counts"),
            scenario.counts.iter().map(|c| c.id.as_str()),
        )?;
        unique(
            file,
            &format!("{entry}.epilogue"),
            scenario.epilogue.iter().map(|r| r.id.as_str()),
        )?;
        for count in &scenario.counts {
            let maxima = [("max", count.max), ("total_max", count.total_max)];
            for (field, max) in maxima {
                if let Some(max) = max
                    && max < 0
                {
                    return err(
                        format!("{entry}.counts.{}.{field}", count.id),
                        format!("{max} is negative, and a count is never below 0"),
                    );
                }
            }
            if let (Some(max), Some(total_max)) = (count.max, count.total_max)
                && max > total_max
            {
                return err(
                    format!("{entry}.counts.{}", count.id),
                    format!("max {max} is above total_max {total_max}"),
                );
            }
        }
        if !(scenario.roles.is_empty() || scenario.roles.len() == 2) {
            return err(
                entry,
                "a scenario has no roles or one for each of the two gangs".into(),
            );
        }
        for count in &scenario.counts {
            if let Some(bad) = count.outcomes.iter().find(|o| pack.outcome(o).is_none()) {
                return err(
                    format!("{entry}.counts.{}", count.id),
                    format!("outcome `{bad}` is not in [[outcomes]]"),
                );
            }
        }
        for rule in &scenario.epilogue {
            let entry = format!("{entry}.epilogue.{}", rule.id);
            let within = Within {
                what: "the scenario",
                roles: &scenario.roles,
                counts: &scenario.counts,
            };
            check_epilogue_line(pack, &within, rule)
                .or_else(|reason| err(entry.clone(), reason))?;
            amounts(&entry, &rule.gain)?;
            amounts(&entry, &rule.choice)?;
        }
    }
    Ok(())
}

/// The least and most of the stat or counter a modifier counts points of:
/// both must be bounded, so that the rows can cover every total.
fn per_bounds(pack: &Pack, per: &str) -> Result<(i64, i64), String> {
    let (stat, counter) = (pack.stat(per), pack.counter(per));
    let bounds = match (stat, counter) {
        (Some(_), Some(_)) => {
            return Err(format!(
                "`{per}` is both a stat and a counter; a modifier cannot say which"
            ));
        }
        (Some(s), None) => (s.min, s.max),
        (None, Some(c)) => (Some(c.min), c.max),
        (None, None) => return Err(format!("`{per}` is not a stat or a counter")),
    };
    match bounds {
        (Some(min), Some(max)) => Ok((min, max)),
        _ => Err(format!(
            "`{per}` needs a min and a max, so that the rows can cover every total"
        )),
    }
}

/// What an epilogue line may name: its scenario's roles and counts (none
/// for the lines of every record).
struct Within<'a> {
    what: &'a str,
    roles: &'a [crate::rules::RoleDef],
    counts: &'a [crate::rules::CountDef],
}

/// Checks one epilogue line: who it is for, what it counts, what it gives.
fn check_epilogue_line(
    pack: &Pack,
    within: &Within<'_>,
    rule: &crate::rules::EpilogueRule,
) -> Result<(), String> {
    let what = within.what;
    let has_role = |id: &str| within.roles.iter().any(|r| r.id == id);
    // A count of the scenario's, or of fighters by outcome.
    let check_count = |field: &str, count: &str| -> Result<(), String> {
        match crate::rules::outcome_count(count) {
            Some(outcomes) => match outcomes.iter().find(|o| pack.outcome(o).is_none()) {
                Some(bad) => Err(format!(
                    "{field} `{count}`: outcome `{bad}` is not in [[outcomes]]"
                )),
                None => Ok(()),
            },
            None if within.counts.iter().any(|c| c.id == count) => Ok(()),
            None => Err(format!(
                "{field} `{count}` is not a count of {what} (nor `outcome:<id>`)"
            )),
        }
    };
    match rule.recipient()? {
        Recipient::Role(role) if !has_role(&role) => {
            return Err(format!("role `{role}` is not a role of {what}"));
        }
        Recipient::Most(count) => check_count("most", &count)?,
        Recipient::Fewest(count) => check_count("fewest", &count)?,
        _ => {}
    }
    if let Some(role) = &rule.when_winner
        && !has_role(role)
    {
        return Err(format!("when_winner `{role}` is not a role of {what}"));
    }
    if let Some(count) = &rule.per {
        check_count("per", count)?;
    }
    if rule.gain.is_empty() && rule.choice.is_empty() {
        return Err("the line changes nothing: give `gain` or `choice`".into());
    }
    if rule.optional && rule.choice.is_empty() {
        return Err("`optional` needs a `choice`".into());
    }
    if let Some(ruling) = &rule.ruling
        && pack.ruling(ruling).is_none()
    {
        return Err(format!("ruling `{ruling}` is not in [[rulings]]"));
    }
    Ok(())
}

/// Checks the results' ruling and the dice rules.
fn validate_results_and_dice(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    if let Some(ruling) = pack
        .results
        .as_ref()
        .and_then(|r| r.no_winner_ruling.as_ref())
        && pack.ruling(ruling).is_none()
    {
        return err(
            "results".into(),
            format!("ruling `{ruling}` is not in [[rulings]]"),
        );
    }
    if let Some(dice) = &pack.dice {
        let dialect = dice.dialect();
        if let Err(e) = dialect.validate() {
            return err("dice".into(), e.to_string());
        }
        if let Some(pool) = &dice.pool
            && let Err(e) = pool.validate()
        {
            return err("dice.pool".into(), e.to_string());
        }
        if let Some(stress) = &dice.stress
            && let Err(e) = stress.validate()
        {
            return err("dice.stress".into(), e.to_string());
        }
    }
    if pack.checks.iter().any(|c| !c.pool.is_empty())
        && pack.dice.as_ref().and_then(|d| d.stress).is_none()
    {
        return err(
            "checks".into(),
            "a check with a `pool` needs `[dice.stress]`: the die, its success face and its panic face".into(),
        );
    }
    Ok(())
}

/// Checks every ruling a section names is in [[rulings]].
fn validate_named_rulings(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    // Every ruling a section names must be in [[rulings]].
    let named_rulings = pack
        .bounties
        .iter()
        .filter_map(|b| b.ruling.as_ref().map(|r| ("bounties".to_owned(), r)))
        .chain(
            pack.injuries
                .iter()
                .filter_map(|i| i.ruling.as_ref().map(|r| ("injuries".to_owned(), r))),
        )
        .chain(pack.bounties.iter().filter_map(|b| {
            b.no_declaration_ruling
                .as_ref()
                .map(|r| ("bounties.no_declaration_ruling".to_owned(), r))
        }))
        .chain(
            pack.advancement
                .iter()
                .filter_map(|a| a.ruling.as_ref().map(|r| ("advancement".to_owned(), r))),
        )
        .chain(pack.results.iter().filter_map(|r| {
            r.no_winner_ruling
                .as_ref()
                .map(|x| ("results".to_owned(), x))
        }))
        .chain(
            pack.title_rules
                .iter()
                .flat_map(|t| t.rulings.iter().map(|r| ("title_rules".to_owned(), r))),
        )
        .chain(
            pack.actions
                .iter()
                .filter_map(|a| a.ruling.as_ref().map(|r| (format!("actions.{}", a.id), r))),
        )
        .chain(pack.arc_stages.iter().filter_map(|s| {
            s.ruling
                .as_ref()
                .map(|r| (format!("arc_stages.{}", s.id), r))
        }))
        .chain(pack.resources.iter().filter_map(|r| {
            r.floor_ruling
                .as_ref()
                .map(|x| (format!("resources.{}.floor_ruling", r.id), x))
        }))
        .chain(pack.outcomes.iter().filter_map(|o| {
            o.ruling
                .as_ref()
                .map(|r| (format!("outcomes.{}.ruling", o.id), r))
        }))
        .chain(pack.titles.iter().filter_map(|t| {
            t.ruling
                .as_ref()
                .map(|r| (format!("titles.{}.ruling", t.id), r))
        }))
        .chain(pack.record.iter().flat_map(|record| {
            record.upkeep.iter().filter_map(|u| {
                u.ruling
                    .as_ref()
                    .map(|r| (format!("record.upkeep.{}", u.id), r))
            })
        }));
    for (entry, ruling) in named_rulings {
        if pack.ruling(ruling).is_none() {
            return err(entry, format!("ruling `{ruling}` is not in [[rulings]]"));
        }
    }
    Ok(())
}

/// Checks the injury and advancement sections.
fn validate_aftermath(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let amounts = |entry: &str, list: &[Amount]| check_amounts(file, pack, entry, list);
    if let Some(injuries) = &pack.injuries {
        if pack.table(&injuries.table).is_none() {
            return err(
                "injuries".into(),
                format!("table `{}` is not in [[tables]]", injuries.table),
            );
        }
        if let Some(bad) = injuries.roll_for.iter().find(|o| pack.outcome(o).is_none()) {
            return err(
                "injuries".into(),
                format!("outcome `{bad}` is not in [[outcomes]]"),
            );
        }
        if let Some(counter) = &injuries.value_counter
            && pack.counter(counter).is_none()
        {
            return err(
                "injuries".into(),
                format!("counter `{counter}` is not in [[counters]]"),
            );
        }
        if let Some(resource) = &injuries.hire_resource
            && pack.resource(resource).is_none()
        {
            return err(
                "injuries".into(),
                format!("resource `{resource}` is not in [[resources]]"),
            );
        }
    }
    if let Some(adv) = &pack.advancement {
        // A crippling reverses a roll on the advancement table: a crippling
        // row there would roll on it again, and again.
        if let Some(table) = pack.table(&adv.table)
            && let Some(row) = table
                .rows
                .iter()
                .find(|r| r.effects.iter().any(|e| !cripples(e).is_empty()))
        {
            return err(
                format!("tables.{} row `{}`", table.id, row.on),
                "cripples, but crippling rolls on this table (the advancement table): the rolls would never end".into(),
            );
        }
        if pack.table(&adv.table).is_none() {
            return err(
                "advancement".into(),
                format!("table `{}` is not in [[tables]]", adv.table),
            );
        }
        if let Some(bad) = adv
            .exclude_outcomes
            .iter()
            .find(|o| pack.outcome(o).is_none())
        {
            return err(
                "advancement".into(),
                format!("outcome `{bad}` is not in [[outcomes]]"),
            );
        }
        match (&adv.per_resource, adv.per_battle) {
            (Some(a), None) => {
                amounts("advancement", std::slice::from_ref(a))?;
                if a.amount <= 0 {
                    return err(
                        "advancement".into(),
                        "per_resource needs a positive amount".into(),
                    );
                }
            }
            (None, Some(_)) => {}
            _ => {
                return err(
                    "advancement".into(),
                    "give either per_resource or per_battle".into(),
                );
            }
        }
    }
    Ok(())
}

/// Checks bounties, titles and resource actions.
fn validate_rewards(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let amounts = |entry: &str, list: &[Amount]| check_amounts(file, pack, entry, list);
    if let Some(bounties) = &pack.bounties {
        if pack.counter(&bounties.counter).is_none() {
            return err(
                "bounties".into(),
                format!("counter `{}` is not in [[counters]]", bounties.counter),
            );
        }
        if pack.resource(&bounties.claim_resource).is_none() {
            return err(
                "bounties".into(),
                format!(
                    "resource `{}` is not in [[resources]]",
                    bounties.claim_resource
                ),
            );
        }
    }
    for title in &pack.titles {
        let entry = format!("titles.{}", title.id);
        match (&title.count, title.resource.is_empty()) {
            (None, true) => {
                return err(
                    entry,
                    "give the `resource` or the `count` it compares".into(),
                );
            }
            (Some(_), false) => {
                return err(entry, "give a `resource` or a `count`, not both".into());
            }
            (None, false) if pack.resource(&title.resource).is_none() => {
                return err(
                    entry,
                    format!("resource `{}` is not in [[resources]]", title.resource),
                );
            }
            (Some(count), true) => match crate::rules::TitleCount::parse(count) {
                Err(reason) => return err(entry, reason),
                Ok(crate::rules::TitleCount::Counter(id)) if pack.counter(&id).is_none() => {
                    return err(entry, format!("counter `{id}` is not in [[counters]]"));
                }
                Ok(_) => {}
            },
            (None, false) => {}
        }
    }
    for action in &pack.actions {
        let entry = format!("actions.{}", action.id);
        amounts(&entry, &action.cost)?;
        amounts(&entry, &action.take_choice)?;
        if action.cost.iter().any(|c| c.amount <= 0) {
            return err(entry, "a cost is a positive amount".into());
        }
    }
    for quirk in &pack.quirks {
        let Some(select) = &quirk.select else {
            continue;
        };
        if let Some(bad) = select.any_of.iter().find(|q| pack.quirk(q).is_none()) {
            return Err(PackError::new(
                file,
                format!("quirks.{}.select", quirk.id),
                format!("quirk `{bad}` is not in [[quirks]]"),
            ));
        }
        if select.any_of.is_empty() || select.label.trim().is_empty() {
            return Err(PackError::new(
                file,
                format!("quirks.{}.select", quirk.id),
                "give the quirks it selects among (any_of) and what the selection is (label)"
                    .to_owned(),
            ));
        }
    }
    for action in &pack.actions {
        if let Some(stage) = action
            .scenario_stages
            .iter()
            .find(|s| pack.arc_stage(s).is_none())
        {
            return Err(PackError::new(
                file,
                format!("actions.{}.scenario_stages", action.id),
                format!("stage `{stage}` is not in [[arc_stages]]"),
            ));
        }
        if action.marks.as_ref().is_some_and(|m| m.fighters == 0) {
            return Err(PackError::new(
                file,
                format!("actions.{}.marks", action.id),
                "marks at least one fighter".to_owned(),
            ));
        }
    }
    Ok(())
}

/// Why an effect cannot follow from an outcome: one that needs a row of
/// its table to fall back on, or another roll of the same table.
fn not_after_an_outcome(effect: &Effect) -> Option<&'static str> {
    match effect {
        Effect::Cripple { .. } => {
            Some("a crippling falls back on a row of its table; an outcome has no table")
        }
        Effect::RollTwice { .. } => {
            Some("rolling the same table twice more needs a table; an outcome has none")
        }
        Effect::Choice { options } => options.iter().find_map(not_after_an_outcome),
        _ => None,
    }
}

fn check_effect(pack: &Pack, effect: &Effect) -> Result<(), String> {
    match effect {
        Effect::GainEntry { quirk } if pack.quirk(quirk).is_none() => {
            Err(format!("quirk `{quirk}` is not in [[quirks]]"))
        }
        Effect::StatChoice { stats, .. } => match stats.iter().find(|s| pack.stat(s).is_none()) {
            Some(stat) => Err(format!("stat `{stat}` is not in [[stats]]")),
            None if stats.is_empty() => Err("stat_choice names no stat".into()),
            None => Ok(()),
        },
        Effect::ResourceFromValue { resource, .. } if pack.resource(resource).is_none() => {
            Err(format!("resource `{resource}` is not in [[resources]]"))
        }
        Effect::GainQuirk {
            category: Some(category),
        }
        | Effect::LoseQuirk {
            category: Some(category),
        } if pack.category(category).is_none() => {
            Err(format!("category `{category}` is not in [[categories]]"))
        }
        Effect::Resource { resource, .. } if pack.resource(resource).is_none() => {
            Err(format!("resource `{resource}` is not in [[resources]]"))
        }
        Effect::Stat { stat, .. } if pack.stat(stat).is_none() => {
            Err(format!("stat `{stat}` is not in [[stats]]"))
        }
        Effect::Counter { counter, .. } if pack.counter(counter).is_none() => {
            Err(format!("counter `{counter}` is not in [[counters]]"))
        }
        Effect::RollOn { table } if pack.table(table).is_none() => {
            Err(format!("table `{table}` is not in [[tables]]"))
        }
        Effect::Choice { options } => options.iter().try_for_each(|o| check_effect(pack, o)),
        _ => Ok(()),
    }
}

/// Every number of a pack, with the field it sits in.
fn numbers(pack: &Pack) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = Vec::new();
    let mut put = |entry: String, n: i64| out.push((entry, n));
    for s in &pack.stats {
        s.default
            .into_iter()
            .for_each(|n| put(format!("stats.{}.default", s.id), n));
        s.min
            .into_iter()
            .for_each(|n| put(format!("stats.{}.min", s.id), n));
        s.max
            .into_iter()
            .for_each(|n| put(format!("stats.{}.max", s.id), n));
    }
    for r in &pack.resources {
        put(format!("resources.{}.start", r.id), r.start);
        r.min
            .into_iter()
            .for_each(|n| put(format!("resources.{}.min", r.id), n));
    }
    for c in &pack.counters {
        c.default
            .into_iter()
            .for_each(|n| put(format!("counters.{}.default", c.id), n));
        put(format!("counters.{}.min", c.id), c.min);
        c.max
            .into_iter()
            .for_each(|n| put(format!("counters.{}.max", c.id), n));
    }
    for q in &pack.quirks {
        for (stat, range) in &q.ranges {
            for n in range {
                put(format!("quirks.{}.ranges.{stat}", q.id), *n);
            }
        }
        q.punch
            .into_iter()
            .for_each(|n| put(format!("quirks.{}.punch", q.id), n));
        for (i, e) in q.effects.iter().enumerate() {
            put(format!("quirks.{}.effects[{i}].add", q.id), e.add);
            e.bump
                .into_iter()
                .for_each(|n| put(format!("quirks.{}.effects[{i}].bump", q.id), n));
        }
        q.cost
            .into_iter()
            .for_each(|n| put(format!("quirks.{}.cost", q.id), n));
    }
    if let Some(v) = &pack.valuation {
        put("valuation.per_stat_point".into(), v.per_stat_point);
        put("valuation.minimum".into(), v.minimum);
        v.limit
            .into_iter()
            .for_each(|n| put("valuation.limit".into(), n));
        if let Some(score) = &v.score {
            put("valuation.score.divide_by".into(), score.divide_by);
            put("valuation.score.minimum".into(), score.minimum);
        }
    }
    for c in &pack.constraints {
        match &c.rule {
            ConstraintKind::MaxTagged { max, .. } | ConstraintKind::GangMaxTagged { max, .. } => {
                put(format!("constraints.{}.max", c.id), count_as_number(*max));
            }
            ConstraintKind::MinTagged { min, .. } => {
                put(format!("constraints.{}.min", c.id), count_as_number(*min));
            }
            ConstraintKind::MaxSlots { max: Some(max), .. } => {
                put(format!("constraints.{}.max", c.id), count_as_number(*max));
            }
            ConstraintKind::StatRange { min, max, .. } => {
                if let Some(min) = min {
                    put(format!("constraints.{}.min", c.id), *min);
                }
                if let Some(max) = max {
                    put(format!("constraints.{}.max", c.id), *max);
                }
            }
            ConstraintKind::MaxScore { max, .. } => {
                put(format!("constraints.{}.max", c.id), *max);
            }
            ConstraintKind::GangCountPerPoints { max, per, .. } => {
                put(format!("constraints.{}.max", c.id), count_as_number(*max));
                put(format!("constraints.{}.per", c.id), count_as_number(*per));
            }
            ConstraintKind::GangCount { allowed, .. } => {
                for (i, n) in allowed.iter().enumerate() {
                    put(
                        format!("constraints.{}.allowed[{i}]", c.id),
                        count_as_number(*n),
                    );
                }
            }
            _ => {}
        }
    }
    if let Some(r) = &pack.recruiting {
        for (field, range) in [
            ("leaders", Some(r.leaders)),
            ("recruits", Some(r.recruits)),
            ("quirks_per_fighter", r.quirks_per_fighter),
        ] {
            for (end, n) in range.iter().flat_map(|r| r.ends()) {
                put(format!("recruiting.{field}{end}"), count_as_number(n));
            }
        }
        put(
            "recruiting.leader_extra_quirks".into(),
            count_as_number(r.leader_extra_quirks),
        );
    }
    for t in &pack.tables {
        for m in &t.modifiers {
            put(
                format!("tables.{}.modifiers.{}.amount", t.id, m.id),
                m.amount,
            );
        }
        for row in &t.rows {
            let entry = format!("tables.{} row `{}`", t.id, row.on);
            if let Ok(range) = RowRange::parse(&row.on) {
                for n in range.low.into_iter().chain(range.high) {
                    put(format!("{entry}.on"), n);
                }
            }
            for (i, e) in row.effects.iter().enumerate() {
                effect_numbers(&format!("{entry}.effects[{i}]"), e, &mut put);
            }
        }
    }
    for o in &pack.outcomes {
        for (i, e) in o.effects.iter().enumerate() {
            effect_numbers(&format!("outcomes.{}.effects[{i}]", o.id), e, &mut put);
        }
    }
    for s in &pack.arc_stages {
        put(format!("arc_stages.{}.step", s.id), i64::from(s.step));
    }
    for s in &pack.scenarios {
        for c in &s.counts {
            let entry = format!("scenarios.{}.counts.{}", s.id, c.id);
            c.max
                .into_iter()
                .for_each(|n| put(format!("{entry}.max"), n));
            c.total_max
                .into_iter()
                .for_each(|n| put(format!("{entry}.total_max"), n));
        }
        for rule in &s.epilogue {
            let entry = format!("scenarios.{}.epilogue.{}", s.id, rule.id);
            for (list, amounts) in [("gain", &rule.gain), ("choice", &rule.choice)] {
                for (i, a) in amounts.iter().enumerate() {
                    put(format!("{entry}.{list}[{i}].amount"), a.amount);
                }
            }
        }
    }
    if let Some(record) = &pack.record {
        for rule in &record.epilogue {
            let entry = format!("record.epilogue.{}", rule.id);
            for (list, amounts) in [("gain", &rule.gain), ("choice", &rule.choice)] {
                for (i, a) in amounts.iter().enumerate() {
                    put(format!("{entry}.{list}[{i}].amount"), a.amount);
                }
            }
        }
        for upkeep in &record.upkeep {
            for (i, a) in upkeep.gain.iter().enumerate() {
                put(
                    format!("record.upkeep.{}.gain[{i}].amount", upkeep.id),
                    a.amount,
                );
            }
        }
    }
    if let Some(a) = &pack.advancement {
        if let Some(per) = &a.per_resource {
            put("advancement.per_resource.amount".into(), per.amount);
        }
        if let Some(n) = a.per_battle {
            put("advancement.per_battle".into(), count_as_number(n));
        }
    }
    if let Some(b) = &pack.bounties {
        put("bounties.claim_per_point".into(), b.claim_per_point);
        put("bounties.declare_step".into(), b.declare_step);
        put(
            "bounties.declarations_per_gang".into(),
            count_as_number(b.declarations_per_gang),
        );
    }
    for a in &pack.actions {
        for (list, amounts) in [("cost", &a.cost), ("take_choice", &a.take_choice)] {
            for (i, x) in amounts.iter().enumerate() {
                put(format!("actions.{}.{list}[{i}].amount", a.id), x.amount);
            }
        }
    }
    out
}

fn effect_numbers(entry: &str, effect: &Effect, put: &mut impl FnMut(String, i64)) {
    match effect {
        Effect::Resource { amount, .. }
        | Effect::Count { amount, .. }
        | Effect::Stat { amount, .. }
        | Effect::Counter { amount, .. }
        | Effect::StatChoice { amount, .. }
        | Effect::InjuryModifier { amount } => put(format!("{entry}.amount"), *amount),
        Effect::Desert { hire_percent } => put(format!("{entry}.hire_percent"), *hire_percent),
        Effect::ResourceFromValue { percent, .. } => put(format!("{entry}.percent"), *percent),
        Effect::Choice { options } => {
            for (i, o) in options.iter().enumerate() {
                effect_numbers(&format!("{entry}.options[{i}]"), o, put);
            }
        }
        _ => {}
    }
}

/// The rows a crippling effect falls back on (inside a choice too).
fn cripples(effect: &Effect) -> Vec<&str> {
    match effect {
        Effect::Cripple { fallback } => vec![fallback.as_str()],
        Effect::Choice { options } => options.iter().flat_map(cripples).collect(),
        _ => Vec::new(),
    }
}

/// Refuses a row whose fallbacks (its own, or a crippling's) lead back to
/// it: the procedure would go round until its depth limit and quietly stop.
/// Returns the row and the loop in words.
fn fallback_cycle(table: &TableDef) -> Result<(), (String, String)> {
    let next = |row: &TableRowDef| -> Vec<usize> {
        row.fallback
            .iter()
            .map(String::as_str)
            .chain(row.effects.iter().flat_map(cripples))
            .filter_map(|on| table.rows.iter().position(|r| r.on == on))
            .collect()
    };
    for (start, row) in table.rows.iter().enumerate() {
        if next(row).contains(&start) {
            return Err((row.on.clone(), "falls back on itself".into()));
        }
        // Depth-first from each row: a path that comes back to it is a loop.
        let mut stack: Vec<Vec<usize>> = vec![vec![start]];
        let mut seen = BTreeSet::new();
        while let Some(path) = stack.pop() {
            let Some(&last) = path.last() else { continue };
            for n in next(&table.rows[last]) {
                if n == start {
                    let names: Vec<String> = path
                        .iter()
                        .chain([&start])
                        .map(|&i| format!("`{}`", table.rows[i].on))
                        .collect();
                    return Err((
                        row.on.clone(),
                        format!("its fallbacks go round in a loop: {}", names.join(" → ")),
                    ));
                }
                if seen.insert(n) {
                    let mut longer = path.clone();
                    longer.push(n);
                    stack.push(longer);
                }
            }
        }
    }
    Ok(())
}
