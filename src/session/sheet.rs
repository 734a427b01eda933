//! A character's sheet at the table: the rolls it offers (`[[checks]]`)
//! rolled with a seed a player can repeat, and a pushed pool, whose stress
//! is raised as one batch that undo takes back.

use anyhow::{Result, anyhow, bail};
use serde::Serialize;

use super::Session;
use crate::campaign::checks::{Check, CheckForm, CheckRoll, roll_check};
use crate::campaign::{BatchId, Event, FighterId};
use crate::dice::Dice;

/// A check rolled, with the seed that repeats it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckRolled {
    pub fighter: String,
    pub check: Check,
    pub seed: u64,
    pub modifier: i32,
    /// The way it was made (full auto), if not the plain way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
    pub result: CheckRoll,
    /// Set when the way it was made (full auto) raised the fighter's
    /// stress before the roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raised: Option<Pushed>,
    /// Set once a pushed roll raised the fighter's stress.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pushed: Option<Pushed>,
}

/// What a push changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pushed {
    pub counter: String,
    pub from: i64,
    pub to: i64,
    pub batch: BatchId,
}

impl Session {
    /// A fighter's check by id or label, as it stands.
    pub fn fighter_check(&self, fighter: FighterId, check: &str) -> Result<Check> {
        let details = self.fighter_details(fighter)?;
        let checks = details.view.checks;
        let known: Vec<String> = checks.iter().map(|c| c.id.clone()).collect();
        checks
            .into_iter()
            .find(|c| c.id == check || crate::text::same(&c.label, check))
            .ok_or_else(|| {
                if known.is_empty() {
                    anyhow!("{}'s sheet offers no rolls", details.view.name)
                } else {
                    anyhow!(
                        "no roll “{}” on {}'s sheet (rolls: {})",
                        crate::text::echo(check),
                        details.view.name,
                        known.join(", ")
                    )
                }
            })
    }

    /// Rolls a fighter's check with `seed`; `modifier` is the difficulty.
    pub fn roll_fighter_check(
        &self,
        fighter: FighterId,
        check: &str,
        seed: u64,
        modifier: i32,
    ) -> Result<CheckRolled> {
        let f = self.fighter(fighter)?;
        let pack = self.gang_pack(&self.gang(f.gang)?)?;
        let check = self.fighter_check(fighter, check)?;
        let mut dice = Dice::seeded(seed);
        let result = roll_check(pack, &check, &mut dice, modifier, None)?;
        Ok(CheckRolled {
            fighter: f.name,
            check,
            seed,
            modifier,
            option: None,
            result,
            raised: None,
            pushed: None,
        })
    }

    /// Rolls a fighter's check made a way that raises their stress first
    /// (full auto): the stress raised is one batch that undo takes back, and
    /// its die is in the roll. A way that raises none changes nothing.
    pub fn roll_fighter_check_as(
        &mut self,
        fighter: FighterId,
        check: &str,
        option: &str,
        seed: u64,
        modifier: i32,
    ) -> Result<CheckRolled> {
        let f = self.fighter(fighter)?;
        let pack = self.gang_pack(&self.gang(f.gang)?)?.clone();
        let check = self.fighter_check(fighter, check)?;
        let chosen = check
            .options
            .iter()
            .find(|o| o.id == option || crate::text::same(&o.label, option))
            .cloned()
            .ok_or_else(|| {
                anyhow!(
                    "{} has no way “{}” ({})",
                    check.label,
                    crate::text::echo(option),
                    check
                        .options
                        .iter()
                        .map(|o| o.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        let stressable = matches!(
            check.form,
            CheckForm::Pool {
                stressable: true,
                ..
            }
        );
        let counter = pack
            .checks
            .iter()
            .find(|c| c.id == check.id)
            .and_then(|c| c.stress.clone());
        let mut raised = None;
        if let (true, true, Some(counter)) = (stressable, chosen.stress > 0, counter) {
            let reason = format!("{}: {}", check.label, chosen.label);
            let what = format!("{} rolled {} ({})", f.name, check.label, chosen.label);
            raised =
                Some(self.raise_stress(&pack, fighter, &counter, chosen.stress, &reason, &what)?);
        }
        // The stress is raised before the roll: its die is already there.
        let mut dice = Dice::seeded(seed);
        let result = roll_check(&pack, &check, &mut dice, modifier, Some(&chosen))?;
        Ok(CheckRolled {
            fighter: f.name,
            check,
            seed,
            modifier,
            option: Some(chosen.label),
            result,
            raised,
            pushed: None,
        })
    }

    /// Pushes a rolled pool: its failed dice rolled again with one more
    /// stress die (the dice thrown after the first roll's, from its seed),
    /// and the fighter's stress raised by one, as one batch.
    pub fn push_fighter_check(
        &mut self,
        fighter: FighterId,
        rolled: &CheckRolled,
    ) -> Result<CheckRolled> {
        let (CheckRoll::Pool { pool, roll }, CheckForm::Pool { words, .. }) =
            (&rolled.result, &rolled.check.form)
        else {
            bail!(
                "{} is not a pool of dice: it cannot be rolled again",
                rolled.check.label
            );
        };
        if roll.panic {
            bail!(
                "{} cannot be {} after {}",
                rolled.check.label,
                words.pushed,
                words.panic
            );
        }
        if !roll.stressable {
            bail!(
                "{} cannot be {}: {} rolls no {} dice",
                rolled.check.label,
                words.pushed,
                rolled.fighter,
                words.stress
            );
        }
        let f = self.fighter(fighter)?;
        let pack = self.gang_pack(&self.gang(f.gang)?)?.clone();
        let def = pack
            .checks
            .iter()
            .find(|c| c.id == rolled.check.id)
            .ok_or_else(|| anyhow!("{} has no roll {}", pack.pack.name, rolled.check.id))?;
        let counter = def
            .stress
            .clone()
            .ok_or_else(|| anyhow!("{} has no {} to raise", rolled.check.label, words.stress))?;
        // The same seed, thrown past the first roll's dice: one seed
        // repeats the roll and its push.
        let mut dice = Dice::seeded(rolled.seed);
        let mut replay = Dice::seeded(rolled.seed);
        let first = replay.roll_stress(pool, &roll.rules, roll.stressable)?;
        if first != *roll {
            bail!("the roll to push is not the one its seed throws");
        }
        let _ = dice.roll_stress(pool, &roll.rules, roll.stressable)?;
        let pushed = roll.pushed(&mut dice)?;
        let raised = self.raise_stress(
            &pack,
            fighter,
            &counter,
            1,
            &format!("{} {}", words.pushed, rolled.check.label),
            &format!("{} {} {}", f.name, words.pushed, rolled.check.label),
        )?;
        Ok(CheckRolled {
            result: CheckRoll::Pool {
                pool: *pool,
                roll: pushed,
            },
            pushed: Some(raised),
            ..rolled.clone()
        })
    }

    /// Raises a fighter's stress counter by `by` (up to its most) as one
    /// batch, `reason` in the log and `what` its label.
    fn raise_stress(
        &mut self,
        pack: &crate::rules::Pack,
        fighter: FighterId,
        counter: &str,
        by: i64,
        reason: &str,
        what: &str,
    ) -> Result<Pushed> {
        let f = self.fighter(fighter)?;
        let def = pack
            .counter(counter)
            .ok_or_else(|| anyhow!("{} has no counter {counter}", pack.pack.name))?;
        let from = f
            .counters
            .get(counter)
            .copied()
            .or(def.start())
            .unwrap_or(0);
        let to = from.saturating_add(by).min(def.top());
        let event = Event::CounterChanged {
            fighter,
            counter: counter.to_owned(),
            from,
            to,
            reason: reason.to_owned(),
        };
        let batch = self.commit(what, vec![event])?;
        Ok(Pushed {
            counter: def.label.clone(),
            from,
            to,
            batch,
        })
    }
}
