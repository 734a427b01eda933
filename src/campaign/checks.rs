//! The rolls a fighter's sheet offers (`[[checks]]` of the pack): dice plus
//! the highest of some stats (HWC's initiative, 2d6 + Poise or Jets), or a
//! pool of base dice from some stats with stress dice from a counter kept
//! apart (a Year Zero-style skill roll). Pure: what the check is for a
//! fighter, and the roll of it with the dice given.

use serde::Serialize;

use super::Fighter;
use super::derive::DerivedStat;
use crate::dice::{Dice, DiceError, Ladder, RollRecord, StressPool, StressRoll, TierShift};
use crate::rules::{CheckDef, Pack};

/// A check as it stands for one fighter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    pub id: String,
    pub label: String,
    pub form: CheckForm,
    /// Its stats that the fighter has no value of yet (not printed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unset: Vec<String>,
    /// The ways of making it (full auto), as the pack gives them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<crate::rules::CheckOption>,
    pub source: String,
}

/// What is rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CheckForm {
    /// `roll` plus `add`, the highest of the stats (`from` names it).
    Sum {
        roll: String,
        add: i64,
        from: Option<String>,
    },
    /// Base dice (each stat's part) and stress dice; `stressable` is false
    /// for a fighter without the stress counter (a synthetic).
    Pool {
        parts: Vec<(String, i64)>,
        base: u32,
        stress: u32,
        stress_label: Option<String>,
        stressable: bool,
        /// What the game calls the roll's parts (the pack's).
        #[serde(skip)]
        words: crate::rules::StressWords,
    },
    /// The dice of the fighter's rung on a stat's ladder (`2d6` for Wits),
    /// stepped along the ladder by a difficulty, held to its ends.
    Tier {
        /// The stat's label.
        stat: String,
        /// The rung the fighter stands on.
        dice: String,
        /// The ladder, lowest rung first.
        ladder: Vec<String>,
        /// The pack's word for one step (`DT`), or none.
        step: String,
    },
}

impl Check {
    /// What the pack calls a pool's parts (its dice, successes, a panic,
    /// rolling again); `None` for a roll that is not a pool.
    pub fn pool_words(&self) -> Option<&crate::rules::StressWords> {
        match &self.form {
            CheckForm::Pool { words, .. } => Some(words),
            _ => None,
        }
    }

    /// `2d6+3 (Jets)`, `5 dice (Strength 3 + Stamina 2) + 2 stress (Stress
    /// level)`, in the pack's words.
    pub fn describe(&self) -> String {
        match &self.form {
            CheckForm::Sum { roll, add, from } => match from {
                Some(from) => format!("{roll}{add:+} ({from})"),
                None => roll.clone(),
            },
            CheckForm::Pool {
                parts,
                base,
                stress,
                stress_label,
                stressable,
                words,
            } => {
                let what: Vec<String> = parts.iter().map(|(l, n)| format!("{l} {n}")).collect();
                let stress = match (stressable, stress_label) {
                    (true, Some(label)) => format!(" + {stress} {} ({label})", words.stress),
                    _ => String::new(),
                };
                format!("{base} dice ({}){stress}", what.join(" + "))
            }
            CheckForm::Tier { stat, dice, .. } => format!("{dice} ({stat})"),
        }
    }
}

/// A step along a ladder in words: `2d6`, `2d6 +1 DT → 2d8`, and where an
/// end of the ladder held it, `2d6 -3 DT → 2d4 (held at the ladder's
/// lowest, 2d4)`.
pub fn shift_text(shift: &TierShift, step: &str) -> String {
    let from = shift.from.to_string();
    if shift.requested == 0 {
        return from;
    }
    let word = if step.is_empty() {
        String::new()
    } else {
        format!(" {step}")
    };
    let mut text = format!("{from} {:+}{word} → {}", shift.requested, shift.to);
    if shift.clamped {
        let end = if shift.requested < 0 {
            "lowest"
        } else {
            "highest"
        };
        text.push_str(&format!(" (held at the ladder's {end}, {})", shift.to));
    }
    text
}

/// The result of a check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CheckRoll {
    Sum {
        roll: RollRecord,
        add: i64,
        total: i64,
    },
    Pool {
        /// The pool after the difficulty, and what the difficulty did.
        pool: StressPool,
        roll: StressRoll,
    },
    /// The rung's dice moved by the steps asked for, and their roll.
    Tier {
        shift: TierShift,
        /// The step in words (`2d6 +1 DT → 2d8`).
        steps: String,
        roll: RollRecord,
        total: i64,
    },
}

/// The checks of the pack as they stand for `fighter`, whose stats are
/// `stats` (derived) and whose counter `counter` reads.
pub fn checks_for(
    pack: &Pack,
    fighter: &Fighter,
    stats: &[DerivedStat],
    counter: impl Fn(&str) -> Option<i64>,
) -> Vec<Check> {
    pack.checks
        .iter()
        .map(|def| check_for(pack, def, fighter, stats, &counter))
        .collect()
}

fn check_for(
    pack: &Pack,
    def: &CheckDef,
    fighter: &Fighter,
    stats: &[DerivedStat],
    counter: &impl Fn(&str) -> Option<i64>,
) -> Check {
    let stat = |id: &str| stats.iter().find(|s| s.id == id);
    let label = |id: &str| {
        pack.stat(id)
            .map_or(id.to_owned(), |s| s.title().to_owned())
    };
    let named: Vec<&String> = def
        .plus_highest
        .iter()
        .chain(&def.pool)
        .chain(&def.tier)
        .collect();
    let unset = named
        .iter()
        .filter(|id| stat(id).is_some_and(|s| s.unset.is_some()))
        .map(|id| label(id))
        .collect();
    let form = match &def.roll {
        _ if def.tier.is_some() => {
            let id = def.tier.as_deref().unwrap_or_default();
            let ladder = pack.stat(id).map(|s| s.ladder.clone()).unwrap_or_default();
            CheckForm::Tier {
                stat: label(id),
                dice: stat(id).map_or_else(
                    || ladder.first().cloned().unwrap_or_default(),
                    DerivedStat::value_text,
                ),
                ladder,
                step: def.step.clone(),
            }
        }
        Some(roll) => {
            let best = def
                .plus_highest
                .iter()
                .filter_map(|id| stat(id).map(|s| (id, s.value)))
                .max_by_key(|(_, v)| *v);
            CheckForm::Sum {
                roll: roll.clone(),
                add: best.map_or(0, |(_, v)| v),
                from: best.map(|(id, _)| label(id)),
            }
        }
        None => {
            let parts: Vec<(String, i64)> = def
                .pool
                .iter()
                .map(|id| (label(id), stat(id).map_or(0, |s| s.value)))
                .collect();
            let base = parts
                .iter()
                .fold(0i64, |sum, (_, n)| sum.saturating_add((*n).max(0)));
            let stressable = def.stress.as_deref().is_some_and(|c| {
                pack.entry_taking(c, fighter.quirks.iter().map(|p| p.quirk.as_str()))
                    .is_none()
            });
            let stress = def
                .stress
                .as_deref()
                .filter(|_| stressable)
                .and_then(counter)
                .unwrap_or(0);
            CheckForm::Pool {
                parts,
                base: u32::try_from(base).unwrap_or(u32::MAX),
                stress: u32::try_from(stress.max(0)).unwrap_or(u32::MAX),
                stress_label: def
                    .stress
                    .as_deref()
                    .and_then(|c| pack.counter(c))
                    .map(|c| c.label.clone()),
                stressable,
                words: pack
                    .dice
                    .as_ref()
                    .and_then(|d| d.stress_words.clone())
                    .unwrap_or_default(),
            }
        }
    };
    Check {
        id: def.id.clone(),
        label: def.label.clone(),
        form,
        unset,
        options: def.options.clone(),
        source: def.source.clone(),
    }
}

/// Rolls a check with `dice`; `modifier` is a difficulty (dice added to or
/// taken from a pool, base dice first) or, for a sum, added to the total.
/// `option` is the way it is made (full auto): what it adds, and the stress
/// it raised before the roll (a stress die more for each point).
pub fn roll_check(
    pack: &Pack,
    check: &Check,
    dice: &mut Dice,
    modifier: i32,
    option: Option<&crate::rules::CheckOption>,
) -> Result<CheckRoll, DiceError> {
    let extra = option.map_or(0, |o| o.add);
    match &check.form {
        CheckForm::Sum { roll, add, .. } => {
            let expr = crate::dice::parse(roll)?;
            let dialect = pack.dice.as_ref().map(|d| d.dialect()).unwrap_or_default();
            let record = dice.roll(&expr, &dialect)?;
            let add = add
                .saturating_add(i64::from(modifier))
                .saturating_add(extra);
            Ok(CheckRoll::Sum {
                total: record.total.saturating_add(add),
                roll: record,
                add,
            })
        }
        CheckForm::Tier {
            dice: rung,
            ladder,
            step,
            ..
        } => {
            let ladder = Ladder::from_texts(ladder)?;
            let steps = i32::try_from(extra).unwrap_or(0).saturating_add(modifier);
            let shift = ladder.shift(&crate::dice::parse(rung)?, steps)?;
            let dialect = pack.dice.as_ref().map(|d| d.dialect()).unwrap_or_default();
            let record = dice.roll(&shift.to, &dialect)?;
            Ok(CheckRoll::Tier {
                steps: shift_text(&shift, step),
                shift,
                total: record.total,
                roll: record,
            })
        }
        CheckForm::Pool {
            base,
            stress,
            stressable,
            ..
        } => {
            let rules = pack
                .dice
                .as_ref()
                .and_then(|d| d.stress)
                .ok_or_else(|| DiceError::BadRules("the pack has no stress dice".into()))?;
            let raised = option.map_or(0, |o| u32::try_from(o.stress).unwrap_or(0));
            // The option's dice are base dice added before any difficulty.
            let pool = StressPool {
                base: base.saturating_add(u32::try_from(extra.max(0)).unwrap_or(0)),
                stress: if *stressable {
                    stress.saturating_add(raised)
                } else {
                    0
                },
            }
            .with_difficulty(modifier)
            .to;
            let roll = dice.roll_stress(&pool, &rules, *stressable)?;
            Ok(CheckRoll::Pool { pool, roll })
        }
    }
}
