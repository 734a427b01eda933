//! Roll records: what was rolled, every die, the total, and who rolled it.

use serde::{Deserialize, Serialize};

use super::pool::{PoolRules, score};
use super::{Dice, DiceError};

/// Where a roll's numbers came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum RollSource {
    /// Rolled by the app from a seeded generator.
    App { seed: u64 },
    /// Typed in by a player from physical dice.
    Hand,
}

/// One die of a roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieRoll {
    /// The die the expression names: 3 for a `d3`.
    pub sides: u32,
    /// The die actually thrown: 6 for a `d3` read off a d6, else `sides`.
    pub rolled: u32,
    /// The natural face the thrown die showed (1..=`rolled`).
    pub face: u32,
    /// What the die counts as (1..=`sides`): `face`, or `face` read down
    /// to a smaller die (a d6 halved for a d3).
    pub value: u32,
    /// Pools only: `value` plus the pool's modifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<i64>,
    /// Pools only: successes this die scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successes: Option<u32>,
    /// Faces this die showed before it was rerolled, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<u32>,
}

impl DieRoll {
    /// A die read as it landed.
    pub fn plain(sides: u32, face: u32) -> Self {
        Self {
            sides,
            rolled: sides,
            face,
            value: face,
            modified: None,
            successes: None,
            replaced: Vec::new(),
        }
    }

    /// Same die, now showing `face` (the old face goes to `replaced`).
    fn turned_to(&self, face: u32) -> Self {
        let mut die = self.clone();
        die.replaced.push(die.face);
        die.face = face;
        die.value = read(die.sides, die.rolled, face);
        die
    }
}

/// The value of `face` on a thrown d`rolled` read as a d`sides`: the face
/// scaled down, rounding up (a d6 halved for a d3). Equal dice read as is.
pub(crate) fn read(sides: u32, rolled: u32, face: u32) -> u32 {
    if rolled <= sides || rolled == 0 {
        return face;
    }
    let up = (u64::from(face) * u64::from(sides)).div_ceil(u64::from(rolled));
    u32::try_from(up).unwrap_or(sides)
}

/// How a record's dice make its total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Scoring {
    /// The dice's values added, plus `modifier`.
    Sum { modifier: i64 },
    /// A pool: each die's value plus `modifier` against `target`; the total
    /// is the successes.
    Pool {
        target: u32,
        modifier: i64,
        rules: PoolRules,
    },
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring::Sum { modifier: 0 }
    }
}

/// One roll as it was made: what was rolled, each die, and the total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRecord {
    /// The expression rolled, e.g. `d6`, `2d6+1`, `5 on 4+`.
    pub expression: String,
    /// What each die counts as (`rolls[i].value`): for a plain die its face,
    /// for a `d3` read off a d6 the halved value.
    pub dice: Vec<u32>,
    /// The dice added plus the modifier; for a pool, the successes.
    pub total: i64,
    pub source: RollSource,
    /// Each die in full: natural face, sides, modified value, rerolls.
    #[serde(default)]
    pub rolls: Vec<DieRoll>,
    /// How the dice make the total.
    #[serde(default)]
    pub scoring: Scoring,
}

impl RollRecord {
    /// Scores `rolls` by `scoring` and totals them.
    pub(crate) fn build(
        expression: String,
        rolls: Vec<DieRoll>,
        scoring: Scoring,
        source: RollSource,
    ) -> Self {
        let mut rolls = rolls;
        let total = match &scoring {
            Scoring::Sum { modifier } => {
                for die in &mut rolls {
                    die.modified = None;
                    die.successes = None;
                }
                rolls.iter().map(|d| i64::from(d.value)).sum::<i64>() + modifier
            }
            Scoring::Pool {
                target,
                modifier,
                rules,
            } => {
                for die in &mut rolls {
                    let (modified, successes) = score(die.value, *target, *modifier, rules);
                    die.modified = Some(modified);
                    die.successes = Some(successes);
                }
                rolls
                    .iter()
                    .map(|d| i64::from(d.successes.unwrap_or(0)))
                    .sum()
            }
        };
        Self {
            expression,
            dice: rolls.iter().map(|d| d.value).collect(),
            total,
            source,
            rolls,
            scoring,
        }
    }

    /// A pool's total successes; `None` for a summed roll.
    pub fn successes(&self) -> Option<u32> {
        match self.scoring {
            Scoring::Pool { .. } => Some(self.rolls.iter().filter_map(|d| d.successes).sum()),
            Scoring::Sum { .. } => None,
        }
    }

    fn die(&self, index: usize) -> Result<&DieRoll, DiceError> {
        self.rolls.get(index).ok_or(DiceError::NoSuchDie {
            index,
            count: self.rolls.len(),
        })
    }

    fn with_die(&self, index: usize, die: DieRoll, source: RollSource) -> Self {
        let mut rolls = self.rolls.clone();
        if let Some(slot) = rolls.get_mut(index) {
            *slot = die;
        }
        Self::build(self.expression.clone(), rolls, self.scoring.clone(), source)
    }

    /// This roll with die `index` (0-based) thrown again by `dice`: the new
    /// face replaces the old, which is kept in that die's `replaced`, and the
    /// total (or successes) is worked out again. The source stays as it was.
    ///
    /// For rules such as Heartbreaker's Longshot ("May reroll 1 die when
    /// shooting with this weapon") and Lucky Charm ("may reroll one die").
    pub fn rerolled(&self, index: usize, dice: &mut Dice) -> Result<RollRecord, DiceError> {
        let die = self.die(index)?;
        let face = dice.face(die.rolled);
        let die = die.turned_to(face);
        Ok(self.with_die(index, die, self.source.clone()))
    }

    /// Like [`RollRecord::rerolled`] with a face a player rolled at the table
    /// (a face of the die thrown: 1..=6 for a `d3` read off a d6). The record
    /// becomes [`RollSource::Hand`], as its numbers are no longer all the app's.
    pub fn rerolled_by_hand(&self, index: usize, face: u32) -> Result<RollRecord, DiceError> {
        let die = self.die(index)?;
        if !(1..=die.rolled).contains(&face) {
            return Err(DiceError::NotAFace {
                value: face,
                sides: die.rolled,
            });
        }
        let die = die.turned_to(face);
        Ok(self.with_die(index, die, RollSource::Hand))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{DerivedDie, DiceDialect, Pool, entered, entered_pool, entered_with, parse};

    fn heartbreaker_pool() -> PoolRules {
        PoolRules {
            sides: 6,
            natural_fail: Some(1),
            double_success: Some(6),
            double_needs_target: false,
        }
    }

    #[test]
    fn halving_rounds_up() {
        // 003: "roll a D6 and halve the result, rounding up."
        let values: Vec<u32> = (1..=6).map(|f| read(3, 6, f)).collect();
        assert_eq!(values, vec![1, 1, 2, 2, 3, 3]);
        assert_eq!(read(6, 6, 4), 4);
    }

    #[test]
    fn reroll_one_pool_die_keeps_the_old_face_and_rescores() {
        let pool: Pool = "3 on 4+".parse().unwrap();
        let record = entered_pool(&pool, &heartbreaker_pool(), &[1, 4, 2]).unwrap();
        assert_eq!(record.total, 1);
        // 003 (Longshot): "Uncontrolled Bursts: May reroll 1 die when shooting with this weapon"
        let mut dice = Dice::seeded(3);
        let again = record.rerolled(0, &mut dice).unwrap();
        let die = &again.rolls[0];
        assert_eq!(die.replaced, vec![1]);
        assert!((1..=6).contains(&die.face));
        assert_eq!(again.dice[0], die.face);
        assert_eq!(&again.rolls[1..], &record.rolls[1..]);
        let expected = i64::from(score(die.face, 4, 0, &heartbreaker_pool()).1) + 1;
        assert_eq!(again.total, expected);
        assert_eq!(again.successes(), Some(u32::try_from(expected).unwrap()));
        assert_eq!(again.source, RollSource::Hand);
    }

    #[test]
    fn reroll_a_summed_die_by_hand() {
        // 003 (Lucky Charm): "This fighter may reroll one die, once per round."
        let record = Dice::seeded(9)
            .roll(&parse("2d6+1").unwrap(), &DiceDialect::default())
            .unwrap();
        let old = record.rolls[1].face;
        let again = record.rerolled_by_hand(1, 6).unwrap();
        assert_eq!(again.rolls[1].face, 6);
        assert_eq!(again.rolls[1].replaced, vec![old]);
        assert_eq!(again.total, i64::from(record.dice[0]) + 6 + 1);
        assert_eq!(again.source, RollSource::Hand);
        // Rerolling again keeps the whole history.
        let third = again.rerolled_by_hand(1, 2).unwrap();
        assert_eq!(third.rolls[1].replaced, vec![old, 6]);
        assert_eq!(third.successes(), None);
    }

    #[test]
    fn app_reroll_keeps_the_source() {
        let expr = parse("3d8").unwrap();
        let mut dice = Dice::seeded(21);
        let record = dice.roll(&expr, &DiceDialect::default()).unwrap();
        let again = record.rerolled(2, &mut dice).unwrap();
        assert_eq!(again.source, RollSource::App { seed: 21 });
        assert_eq!(again.rolls[2].replaced, vec![record.rolls[2].face]);
        assert_eq!(
            again.total,
            again.dice.iter().map(|&d| i64::from(d)).sum::<i64>()
        );
    }

    #[test]
    fn reroll_of_a_halved_die_reads_the_new_d6_face() {
        let dialect = DiceDialect {
            derived: vec![DerivedDie {
                sides: 3,
                rolled: 6,
            }],
        };
        let record = entered_with(&parse("d3").unwrap(), &dialect, &[2]).unwrap();
        assert_eq!(record.total, 1);
        let again = record.rerolled_by_hand(0, 5).unwrap();
        assert_eq!(
            (again.rolls[0].face, again.rolls[0].value, again.total),
            (5, 3, 3)
        );
        assert_eq!(
            record.rerolled_by_hand(0, 7),
            Err(DiceError::NotAFace { value: 7, sides: 6 })
        );
    }

    #[test]
    fn reroll_of_a_missing_die_is_refused() {
        let record = entered(&parse("2d6").unwrap(), &[3, 4]).unwrap();
        let err = record.rerolled(2, &mut Dice::seeded(0)).unwrap_err();
        assert_eq!(err, DiceError::NoSuchDie { index: 2, count: 2 });
        assert_eq!(err.to_string(), "there is no die 3: the roll has 2 dice");
        assert!(record.rerolled_by_hand(5, 1).is_err());
    }

    #[test]
    fn records_round_trip_through_json_and_old_records_still_load() {
        let pool: Pool = "4 on 5+ +2".parse().unwrap();
        let record = entered_pool(&pool, &heartbreaker_pool(), &[1, 3, 6, 2]).unwrap();
        let json = serde_json::to_string(&record).unwrap();
        assert_eq!(serde_json::from_str::<RollRecord>(&json).unwrap(), record);

        let old = r#"{"expression":"d6","dice":[4],"total":4,"source":{"by":"hand"}}"#;
        let old: RollRecord = serde_json::from_str(old).unwrap();
        assert_eq!(old.total, 4);
        assert_eq!(old.scoring, Scoring::Sum { modifier: 0 });
        assert!(old.rolls.is_empty());
    }
}
