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
        let expr = parse(expression)?;
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
