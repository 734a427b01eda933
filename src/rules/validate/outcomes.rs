//! The outcomes' checks, the ids of the post-battle sections, and the
//! effects an outcome or a table row may give.

use super::unique;
use crate::rules::{Effect, Pack, PackError};

/// Checks the outcomes (exactly one default) and the ids of every post-battle section, each unique.
pub(super) fn validate_outcomes_and_ids(file: &str, pack: &Pack) -> Result<(), PackError> {
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

pub(super) fn check_effect(pack: &Pack, effect: &Effect) -> Result<(), String> {
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
