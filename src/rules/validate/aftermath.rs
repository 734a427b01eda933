//! The checks of what follows a battle: its results and dice, injuries
//! and advancement.

use super::check_amounts;
use super::tables::cripples;
use crate::rules::{Amount, Pack, PackError};

/// Checks the results' ruling and the dice rules.
pub(super) fn validate_results_and_dice(file: &str, pack: &Pack) -> Result<(), PackError> {
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
        match (&dice.stress, &dice.stress_words) {
            (Some(_), None) => {
                return err(
                    "dice.stress_words".into(),
                    "stress dice need their words: what the game calls the base and stress dice, a success, what each extra success is for, what a panic face triggers, and rolling again".into(),
                );
            }
            (None, Some(_)) => {
                return err(
                    "dice.stress_words".into(),
                    "words for stress dice need `stress` in [dice]".into(),
                );
            }
            _ => {}
        }
        // Each word by its name in the pack.
        let named = dice
            .stress_words
            .as_ref()
            .and_then(|w| serde_json::to_value(w).ok());
        if let Some(serde_json::Value::Object(words)) = named
            && let Some((name, _)) = words
                .iter()
                .find(|(_, w)| w.as_str().is_some_and(|w| w.trim().is_empty()))
        {
            return err(
                format!("dice.stress_words.{name}"),
                "is empty: a player reads this word".into(),
            );
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

/// Checks the injury and advancement sections.
pub(super) fn validate_aftermath(file: &str, pack: &Pack) -> Result<(), PackError> {
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
