//! The checks of what a gang is made of: stats, resources, counters,
//! quirks, the pricing of fighters, the card and recruiting.

use super::fill_in_ruling;
use crate::rules::{CounterDef, Pack, PackError, QuirkDef};

/// Checks each stat: its bounds, its ladder, its default and its `fill_in`.
pub(super) fn validate_stats(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
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
                    "has no `default` (the value it starts at); where the rule text prints none, name the ruling that says so in `fill_in` instead".into(),
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
    Ok(())
}

/// Checks no resource starts below its minimum.
pub(super) fn validate_resources(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    for resource in &pack.resources {
        if resource.min.is_some_and(|min| resource.start < min) {
            return err(
                format!("resources.{}", resource.id),
                format!("start {} is below its minimum", resource.start),
            );
        }
    }
    Ok(())
}

/// Checks each counter: its bounds, its default, the stat it lowers, its
/// `fill_in` and the roll it is found with.
pub(super) fn validate_counters(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
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
        if counter.lost_at_max.is_some() && counter.max.is_none() {
            return err(
                format!("{entry}.lost_at_max"),
                "a counter with no `max` loses nothing at its most".into(),
            );
        }
        fill_in_ruling(file, pack, &entry, counter.fill_in.as_ref())?;
        check_counter_found(file, counter, &entry)?;
    }
    Ok(())
}

/// Checks the roll a counter kept per entry is found with: its dice, and
/// totals within the counter's bounds.
fn check_counter_found(file: &str, counter: &CounterDef, entry: &str) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
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
    Ok(())
}

/// Checks each quirk: its name and category, its keywords, effects,
/// ranges and the rulings it names.
pub(super) fn validate_quirks(file: &str, pack: &Pack) -> Result<(), PackError> {
    for quirk in &pack.quirks {
        let entry = format!("quirks.{}", quirk.id);
        check_quirk(file, pack, quirk, &entry)?;
        check_quirk_effects(file, pack, quirk, &entry)?;
        check_quirk_references(file, pack, quirk, &entry)?;
    }
    Ok(())
}

/// Checks a quirk's name, category, `punch`, keywords and alternative names.
fn check_quirk(file: &str, pack: &Pack, quirk: &QuirkDef, entry: &str) -> Result<(), PackError> {
    let err = |entry: &str, reason: String| Err(PackError::new(file, entry, reason));
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
    Ok(())
}

/// Checks a quirk's effects: each on a stat of the pack, each doing one thing.
fn check_quirk_effects(
    file: &str,
    pack: &Pack,
    quirk: &QuirkDef,
    entry: &str,
) -> Result<(), PackError> {
    let err = |entry: &str, reason: String| Err(PackError::new(file, entry, reason));
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
    Ok(())
}

/// Checks what a quirk names: the quirks it includes, its ranges of
/// stats and the rulings of its ranges and cost.
fn check_quirk_references(
    file: &str,
    pack: &Pack,
    quirk: &QuirkDef,
    entry: &str,
) -> Result<(), PackError> {
    let err = |entry: &str, reason: String| Err(PackError::new(file, entry, reason));
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
    Ok(())
}

/// What a card holds: a track of a stat the pack has, tokens with names.
pub(super) fn check_card(file: &str, pack: &Pack) -> Result<(), PackError> {
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
pub(super) fn check_valuation(file: &str, pack: &Pack) -> Result<(), PackError> {
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

/// Checks `[recruiting]`: ranges that run upwards, enough entries for a
/// leader, and a gang of at least one fighter.
pub(super) fn validate_recruiting(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
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

/// Checks each quirk's selection: quirks of the pack to select among, and what the selection is.
pub(super) fn validate_selects(file: &str, pack: &Pack) -> Result<(), PackError> {
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
    Ok(())
}
