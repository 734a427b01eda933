//! `rapsheet roll EXPR`: a roll any player can repeat with its seed.

use anyhow::{Result, anyhow};

use super::print_json;
use crate::dice::{Dice, parse, parse_pool};

pub(super) fn roll(
    registry: &crate::rules::Registry,
    expression: &str,
    seed: Option<u64>,
    ruleset: &str,
    json: bool,
) -> Result<()> {
    let seed = seed.unwrap_or_else(crate::dice::seed_from_clock);
    let pack = crate::session::asked_pack(registry, ruleset)?;
    let mut dice = Dice::seeded(seed);
    let record = if expression.contains(" on ") {
        let pool = parse_pool(expression)?;
        let rules = pack
            .dice
            .as_ref()
            .and_then(|d| d.pool)
            .ok_or_else(|| anyhow!("{} has no dice-pool rules", pack.pack.name))?;
        dice.roll_pool(&pool, &rules)?
    } else {
        let expr = match parse(expression) {
            Err(crate::dice::DiceError::TierWithoutLadder { at }) => {
                return Err(tier_refused(pack, expression, at));
            }
            parsed => parsed?,
        };
        let dialect = pack.dice.as_ref().map(|d| d.dialect()).unwrap_or_default();
        dice.roll(&expr, &dialect)?
    };
    if json {
        return print_json(&record);
    }
    let faces: Vec<String> = record.rolls.iter().map(|d| d.face.to_string()).collect();
    say!(
        "{} = {}  (dice: {}; seed {seed})",
        record.expression,
        record.total,
        faces.join(", ")
    );
    Ok(())
}

/// Why a dice tier (`2d4 +1 DT`) is not rolled here: its ladder is a
/// stat's, so the roll is a fighter's, made from their sheet with the
/// steps as a difficulty. A pack without such rolls has no ladder at all.
fn tier_refused(pack: &crate::rules::Pack, expression: &str, at: usize) -> anyhow::Error {
    let tiers: Vec<(&crate::rules::CheckDef, &crate::rules::StatDef)> = pack
        .checks
        .iter()
        .filter_map(|c| Some((c, pack.stat(c.tier.as_deref()?)?)))
        .collect();
    if tiers.is_empty() {
        return anyhow!(
            "the dice-tier shift at character {at} needs a ladder of dice, and {} has none",
            pack.pack.name
        );
    }
    // The steps asked for, read on the first ladder the dice are on.
    let steps = tiers
        .iter()
        .filter_map(|(_, stat)| crate::dice::Ladder::from_texts(&stat.ladder).ok())
        .find_map(|ladder| ladder.parse(expression).ok())
        .map_or_else(|| "N".to_owned(), |shift| shift.requested.to_string());
    let labels: Vec<&str> = tiers.iter().map(|(c, _)| c.label.as_str()).collect();
    anyhow!(
        "`{}` steps along a ladder of dice: {} rolls a tier from a fighter's sheet, the steps as a difficulty: `rapsheet fighter check FIGHTER CHECK --modifier {steps} --db FILE` (CHECK: {})",
        crate::text::echo(expression.trim()),
        pack.pack.name,
        labels.join(", ")
    )
}
