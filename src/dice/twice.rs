//! "Roll twice, ignoring X": two results from a table, neither of them X.
//!
//! Hardwired 28 (000) has two such rows: the d8 Corporate Blessings'
//! "| 8 | Surplus | Roll twice, ignoring 8s |" and the d20 Search Findings'
//! "| 20 | Roll twice (ignore 20s) |". Implemented reading: the table is
//! rolled twice more, and any of those rolls that comes up the ignored result
//! is ignored — thrown away and rolled again — so the player gets two results
//! from the rest of the table. The thrown-away rolls stay in the record.

use serde::{Deserialize, Serialize};

use super::expr::{DiceDialect, Expr};
use super::record::RollRecord;
use super::{Dice, DiceError};

/// Most times one of the two rolls is made again before giving up. The
/// likeliest single total of any expression is at most one in two, so this
/// is only reached by a caller asking for the impossible.
pub const MAX_TRIES: u32 = 1000;

/// Two kept rolls, and every roll ignored on the way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TwiceRecord {
    /// The total that is ignored when rolled.
    pub ignoring: i64,
    /// The two results kept, in the order rolled; neither totals `ignoring`.
    pub kept: [RollRecord; 2],
    /// The rolls that totalled `ignoring` and were rolled again, in order.
    pub ignored: Vec<RollRecord>,
}

impl Dice {
    /// Rolls `expr` twice, rolling again any roll that totals `ignoring`.
    pub fn roll_twice_ignoring(
        &mut self,
        expr: &Expr,
        dialect: &DiceDialect,
        ignoring: i64,
    ) -> Result<TwiceRecord, DiceError> {
        let mut ignored = Vec::new();
        let first = self.roll_avoiding(expr, dialect, ignoring, &mut ignored)?;
        let second = self.roll_avoiding(expr, dialect, ignoring, &mut ignored)?;
        Ok(TwiceRecord {
            ignoring,
            kept: [first, second],
            ignored,
        })
    }

    fn roll_avoiding(
        &mut self,
        expr: &Expr,
        dialect: &DiceDialect,
        ignoring: i64,
        ignored: &mut Vec<RollRecord>,
    ) -> Result<RollRecord, DiceError> {
        for _ in 0..MAX_TRIES {
            let record = self.roll(expr, dialect)?;
            if record.total != ignoring {
                return Ok(record);
            }
            ignored.push(record);
        }
        Err(DiceError::CannotAvoid {
            expression: expr.to_string(),
            ignoring,
            tries: MAX_TRIES,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::parse;

    fn check_table(sides: &str, ignoring: i64) {
        let expr = parse(sides).unwrap();
        let mut seen_ignored = 0;
        for seed in 0..300 {
            let twice = Dice::seeded(seed)
                .roll_twice_ignoring(&expr, &DiceDialect::default(), ignoring)
                .unwrap();
            assert_eq!(twice.ignoring, ignoring);
            for kept in &twice.kept {
                assert_ne!(kept.total, ignoring);
                assert!(expr.totals().contains(&kept.total));
            }
            assert!(twice.ignored.iter().all(|r| r.total == ignoring));
            seen_ignored += twice.ignored.len();
        }
        assert!(
            seen_ignored > 0,
            "300 seeds never rolled a {ignoring} on {sides}"
        );
    }

    #[test]
    fn surplus_rolls_twice_ignoring_8s() {
        // 000: "| 8 | Surplus | Roll twice, ignoring 8s |"
        check_table("d8", 8);
    }

    #[test]
    fn search_rolls_twice_ignoring_20s() {
        // 000: "| 20 | Roll twice (ignore 20s) |"
        check_table("d20", 20);
    }

    #[test]
    fn same_seed_same_pair() {
        let expr = parse("d20").unwrap();
        let roll = |seed| {
            Dice::seeded(seed)
                .roll_twice_ignoring(&expr, &DiceDialect::default(), 20)
                .unwrap()
        };
        assert_eq!(roll(77), roll(77));
        let json = serde_json::to_string(&roll(77)).unwrap();
        assert_eq!(
            serde_json::from_str::<TwiceRecord>(&json).unwrap(),
            roll(77)
        );
    }

    #[test]
    fn a_total_that_cannot_come_up_is_never_ignored() {
        let expr = parse("2d6").unwrap();
        let twice = Dice::seeded(1)
            .roll_twice_ignoring(&expr, &DiceDialect::default(), 99)
            .unwrap();
        assert!(twice.ignored.is_empty());
    }
}
