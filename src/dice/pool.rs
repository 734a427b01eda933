//! Dice pools: "N dice on X+", each die a success on its own.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::expr::Expr;
use super::lex::{Cursor, Tok, Token};
use super::record::{DieRoll, RollRecord, RollSource, Scoring};
use super::{Dice, DiceError};

/// `count` dice, each a success when its value plus `modifier` reaches
/// `target`. Written `5 on 4+`, `5 on 4+ +2`, `4 on 5+ -1` (the `on` in any
/// case, spaces optional); in serde it is that string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Pool {
    count: u32,
    target: u32,
    modifier: i32,
}

impl Pool {
    /// Highest target a pool may name.
    pub const MAX_TARGET: u32 = 1000;

    /// `count` dice on `target`+ with `modifier`, refused when out of range
    /// (count 1..=100, target 1..=1000, modifier -1000..=1000).
    pub fn new(count: u32, target: u32, modifier: i32) -> Result<Self, DiceError> {
        let out = |part, value: i64, min, max| DiceError::OutOfRange {
            part,
            value: value.to_string(),
            at: None,
            min,
            max,
        };
        if !(1..=Expr::MAX_COUNT).contains(&count) {
            return Err(out("dice count", count.into(), 1, Expr::MAX_COUNT.into()));
        }
        if !(1..=Self::MAX_TARGET).contains(&target) {
            return Err(out("target", target.into(), 1, Self::MAX_TARGET.into()));
        }
        let m = Expr::MAX_MODIFIER;
        if !(-m..=m).contains(&modifier) {
            return Err(out("modifier", modifier.into(), (-m).into(), m.into()));
        }
        Ok(Self {
            count,
            target,
            modifier,
        })
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn target(&self) -> u32 {
        self.target
    }

    pub fn modifier(&self) -> i32 {
        self.modifier
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on {}+", self.count, self.target)?;
        if self.modifier != 0 {
            write!(f, " {:+}", self.modifier)?;
        }
        Ok(())
    }
}

impl FromStr for Pool {
    type Err = DiceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_pool(s)
    }
}

impl TryFrom<String> for Pool {
    type Error = DiceError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        parse_pool(&s)
    }
}

impl From<Pool> for String {
    fn from(p: Pool) -> Self {
        p.to_string()
    }
}

/// Parses a pool: `N on X+`, optionally followed by `+M` or `-M`.
///
/// ```
/// use rapsheet::dice::parse_pool;
/// let p = parse_pool("4 on 5+ +2").unwrap();
/// assert_eq!((p.count(), p.target(), p.modifier()), (4, 5, 2));
/// assert!(parse_pool("4 on 5").is_err());
/// ```
pub fn parse_pool(text: &str) -> Result<Pool, DiceError> {
    let mut c = Cursor::new(text)?;
    let count = c.raw_number("the number of dice")?.narrow(
        "dice count",
        1,
        1,
        i64::from(Expr::MAX_COUNT),
    )?;
    c.word("on", "'on'")?;
    let target = c.raw_number("the target after 'on'")?.narrow(
        "target",
        1,
        1,
        i64::from(Pool::MAX_TARGET),
    )?;
    c.plus("'+' after the target, as in 4+")?;
    let modifier = match c.bump() {
        None => 0,
        Some(Token { tok: Tok::Plus, .. }) => modifier(&mut c, 1)?,
        Some(Token {
            tok: Tok::Minus, ..
        }) => modifier(&mut c, -1)?,
        other => {
            return Err(Cursor::wrong(
                other,
                "'+' or '-' before the modifier, or the end",
            ));
        }
    };
    c.end("the end after the modifier")?;
    Pool::new(count, target, modifier)
}

fn modifier(c: &mut Cursor, sign: i64) -> Result<i32, DiceError> {
    let m = i64::from(Expr::MAX_MODIFIER);
    c.raw_number("a number after the sign")?
        .narrow("modifier", sign, -m, m)
}

/// How a game scores a pool's dice, carried by a ruleset pack.
///
/// Heartbreaker (003) rolls d6s, and "Natural rolls of 1 always fail.
/// Natural rolls of 6 count as two successes.":
///
/// ```
/// use rapsheet::dice::{parse_pool, Dice, PoolRules};
/// let heartbreaker = PoolRules {
///     sides: 6,
///     natural_fail: Some(1),
///     double_success: Some(6),
///     double_needs_target: false,
/// };
/// let from_pack: PoolRules = serde_json::from_str(
///     r#"{ "sides": 6, "natural_fail": 1, "double_success": 6 }"#,
/// ).unwrap();
/// assert_eq!(heartbreaker, from_pack);
///
/// let record = Dice::seeded(7).roll_pool(&parse_pool("5 on 4+").unwrap(), &heartbreaker).unwrap();
/// assert!(record.successes().unwrap() <= 10);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PoolRules {
    /// Sides of each pool die.
    pub sides: u32,
    /// A natural face that always fails, whatever the modifiers.
    #[serde(default)]
    pub natural_fail: Option<u32>,
    /// A natural face that counts two successes.
    #[serde(default)]
    pub double_success: Option<u32>,
    /// Whether the double face must also reach the target after modifiers.
    /// `false` reads 003's "Natural rolls of 6 count as two successes" as it
    /// stands: the face alone scores two.
    #[serde(default)]
    pub double_needs_target: bool,
}

impl PoolRules {
    /// Refuses dice outside 2..=1000 sides, or natural faces not on the die.
    pub fn validate(&self) -> Result<(), DiceError> {
        if !(Expr::MIN_SIDES..=Expr::MAX_SIDES).contains(&self.sides) {
            return Err(DiceError::BadRules(format!(
                "pool dice need {} to {} sides, not {}",
                Expr::MIN_SIDES,
                Expr::MAX_SIDES,
                self.sides
            )));
        }
        for (name, face) in [
            ("natural_fail", self.natural_fail),
            ("double_success", self.double_success),
        ] {
            if let Some(face) = face
                && !(1..=self.sides).contains(&face)
            {
                return Err(DiceError::BadRules(format!(
                    "{name} {face} is not a face of a d{}",
                    self.sides
                )));
            }
        }
        Ok(())
    }
}

/// A pool die's modified value and the successes it scores.
///
/// The natural-fail face scores nothing, even when modifiers lift it to the
/// target; the double face scores two (if `double_needs_target`, only when
/// it reaches the target); any other die scores one when its value plus the
/// modifier reaches the target.
pub(crate) fn score(face: u32, target: u32, modifier: i64, rules: &PoolRules) -> (i64, u32) {
    let modified = i64::from(face) + modifier;
    let hits = modified >= i64::from(target);
    let successes = if rules.natural_fail == Some(face) {
        0
    } else if rules.double_success == Some(face) && (hits || !rules.double_needs_target) {
        2
    } else {
        u32::from(hits)
    };
    (modified, successes)
}

fn pool_record(pool: &Pool, rules: &PoolRules, faces: Vec<u32>, source: RollSource) -> RollRecord {
    RollRecord::build(
        pool.to_string(),
        faces
            .into_iter()
            .map(|f| DieRoll::plain(rules.sides, f))
            .collect(),
        Scoring::Pool {
            target: pool.target,
            modifier: i64::from(pool.modifier),
            rules: *rules,
        },
        source,
    )
}

impl Dice {
    /// Rolls `pool` under `rules`; the record's total is the successes, and
    /// each die keeps its natural face, modified value and successes.
    pub fn roll_pool(&mut self, pool: &Pool, rules: &PoolRules) -> Result<RollRecord, DiceError> {
        rules.validate()?;
        let faces = (0..pool.count).map(|_| self.face(rules.sides)).collect();
        Ok(pool_record(pool, rules, faces, self.source()))
    }
}

/// Records a pool a player rolled at the table: one natural face per die.
pub fn entered_pool(
    pool: &Pool,
    rules: &PoolRules,
    faces: &[u32],
) -> Result<RollRecord, DiceError> {
    rules.validate()?;
    if usize::try_from(pool.count).ok() != Some(faces.len()) {
        return Err(DiceError::WrongCount {
            expression: pool.to_string(),
            expected: pool.count,
            got: faces.len(),
        });
    }
    if let Some(&bad) = faces.iter().find(|f| !(1..=rules.sides).contains(f)) {
        return Err(DiceError::NotAFace {
            value: bad,
            sides: rules.sides,
        });
    }
    Ok(pool_record(pool, rules, faces.to_vec(), RollSource::Hand))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Heartbreaker's pool rules.
    fn heartbreaker() -> PoolRules {
        PoolRules {
            sides: 6,
            natural_fail: Some(1),
            double_success: Some(6),
            double_needs_target: false,
        }
    }

    /// d6 pools with no natural-face rules at all.
    fn plain() -> PoolRules {
        PoolRules {
            sides: 6,
            natural_fail: None,
            double_success: None,
            double_needs_target: false,
        }
    }

    fn per_die(record: &RollRecord) -> Vec<u32> {
        record.rolls.iter().map(|d| d.successes.unwrap()).collect()
    }

    #[test]
    fn parses_pools() {
        let p = parse_pool("5 on 4+").unwrap();
        assert_eq!((p.count(), p.target(), p.modifier()), (5, 4, 0));
        let p = parse_pool("5 on 4+ +2").unwrap();
        assert_eq!((p.count(), p.target(), p.modifier()), (5, 4, 2));
        let p = parse_pool("4 on 5+ -1").unwrap();
        assert_eq!((p.count(), p.target(), p.modifier()), (4, 5, -1));
        assert_eq!(parse_pool(" 4ON5+-1 ").unwrap(), p);
        for text in ["5 on 4+", "5 on 4+ +2", "4 on 5+ -1"] {
            assert_eq!(parse_pool(text).unwrap().to_string(), text);
        }
        assert_eq!(parse_pool("4 on 5+ +0").unwrap().to_string(), "4 on 5+");
    }

    #[test]
    fn bad_pools_say_what_is_wrong() {
        use DiceError::*;
        assert_eq!(
            parse_pool("5 on 4"),
            Err(UnexpectedEnd {
                expected: "'+' after the target, as in 4+"
            })
        );
        assert_eq!(
            parse_pool("5 on 4+2"),
            Err(Unexpected {
                found: "number 2".into(),
                at: 8,
                expected: "'+' or '-' before the modifier, or the end"
            })
        );
        assert_eq!(
            parse_pool("on 4+"),
            Err(Unexpected {
                found: "'on'".into(),
                at: 1,
                expected: "the number of dice"
            })
        );
        assert_eq!(
            parse_pool("5 at 4+"),
            Err(Unexpected {
                found: "'at'".into(),
                at: 3,
                expected: "'on'"
            })
        );
        assert_eq!(
            parse_pool("5 on 4+ +1 +1"),
            Err(Unexpected {
                found: "'+'".into(),
                at: 12,
                expected: "the end after the modifier"
            })
        );
        assert!(matches!(
            parse_pool("0 on 4+"),
            Err(OutOfRange {
                part: "dice count",
                ..
            })
        ));
        assert!(matches!(
            parse_pool("5 on 0+"),
            Err(OutOfRange { part: "target", .. })
        ));
        assert!(matches!(
            parse_pool("5 on 4+ -2000"),
            Err(OutOfRange {
                part: "modifier",
                ..
            })
        ));
        assert_eq!(parse_pool(""), Err(Empty));
    }

    #[test]
    fn each_die_on_the_target_is_a_success() {
        // 003: "if the game tells you to roll 5 dice on 4+, then each of the
        // 5 dice that roll a 4 or greater is a success."
        let pool = parse_pool("5 on 4+").unwrap();
        let r = entered_pool(&pool, &plain(), &[1, 3, 4, 5, 6]).unwrap();
        assert_eq!(per_die(&r), vec![0, 0, 1, 1, 1]);
        assert_eq!(r.total, 3);
        assert_eq!(r.successes(), Some(3));
        assert_eq!(r.source, RollSource::Hand);
    }

    #[test]
    fn modifiers_apply_to_every_die() {
        // 003: "imagine rolling a pool of 4 dice with a +2 bonus that needs a
        // 5 or greater (5+) to succeed. Each of those 4 dice would gain the +2
        // bonus, and as such each die that naturally rolled a 3 or greater
        // would succeed after adding 2 to each of those results."
        let pool = parse_pool("4 on 5+ +2").unwrap();
        let r = entered_pool(&pool, &plain(), &[2, 3, 4, 5]).unwrap();
        let modified: Vec<_> = r.rolls.iter().map(|d| d.modified.unwrap()).collect();
        assert_eq!(modified, vec![4, 5, 6, 7]);
        assert_eq!(per_die(&r), vec![0, 1, 1, 1]);

        // 003: "Whenever a rule references a “natural roll,” it’s asking for
        // whatever face the die lands on regardless of modifiers."
        assert_eq!(r.rolls[1].face, 3);
        assert_eq!(r.dice, vec![2, 3, 4, 5]);

        let r = entered_pool(&parse_pool("2 on 4+ -1").unwrap(), &plain(), &[4, 5]).unwrap();
        assert_eq!(per_die(&r), vec![0, 1]);
    }

    #[test]
    fn a_natural_fail_face_always_fails() {
        // 003: "Natural rolls of 1 always fail."
        let pool = parse_pool("2 on 2+ +5").unwrap();
        let r = entered_pool(&pool, &heartbreaker(), &[1, 2]).unwrap();
        assert_eq!(r.rolls[0].modified, Some(6));
        assert_eq!(per_die(&r), vec![0, 1]);
        // Without the rule the same 1 would succeed.
        let r = entered_pool(&pool, &plain(), &[1, 2]).unwrap();
        assert_eq!(per_die(&r), vec![1, 1]);
    }

    #[test]
    fn a_double_face_counts_two_successes() {
        // 003: "Natural rolls of 6 count as two successes."
        let pool = parse_pool("3 on 4+").unwrap();
        let r = entered_pool(&pool, &heartbreaker(), &[6, 4, 1]).unwrap();
        assert_eq!(per_die(&r), vec![2, 1, 0]);
        assert_eq!(r.total, 3);

        // Read as written, a natural 6 scores two even when a penalty takes
        // it under the target; a pack may ask for the target as well.
        let hard = parse_pool("1 on 5+ -2").unwrap();
        assert_eq!(entered_pool(&hard, &heartbreaker(), &[6]).unwrap().total, 2);
        let strict = PoolRules {
            double_needs_target: true,
            ..heartbreaker()
        };
        assert_eq!(entered_pool(&hard, &strict, &[6]).unwrap().total, 0);
        let easy = parse_pool("1 on 5+ +1").unwrap();
        assert_eq!(entered_pool(&easy, &strict, &[6]).unwrap().total, 2);
    }

    #[test]
    fn rolled_pools_are_scored_die_by_die() {
        let pool = parse_pool("10 on 4+ +1").unwrap();
        let mut dice = Dice::seeded(11);
        for _ in 0..50 {
            let r = dice.roll_pool(&pool, &heartbreaker()).unwrap();
            assert_eq!(r.rolls.len(), 10);
            assert_eq!(r.expression, "10 on 4+ +1");
            assert_eq!(r.source, RollSource::App { seed: 11 });
            for d in &r.rolls {
                assert!((1..=6).contains(&d.face));
                assert_eq!(d.modified, Some(i64::from(d.face) + 1));
                let want = match d.face {
                    1 => 0,
                    6 => 2,
                    f => u32::from(f + 1 >= 4),
                };
                assert_eq!(d.successes, Some(want));
            }
            assert_eq!(r.total, i64::from(per_die(&r).iter().sum::<u32>()));
        }
    }

    #[test]
    fn entered_pools_are_checked() {
        let pool = parse_pool("3 on 4+").unwrap();
        assert!(matches!(
            entered_pool(&pool, &heartbreaker(), &[1, 2]),
            Err(DiceError::WrongCount {
                expected: 3,
                got: 2,
                ..
            })
        ));
        assert_eq!(
            entered_pool(&pool, &heartbreaker(), &[1, 7, 2]),
            Err(DiceError::NotAFace { value: 7, sides: 6 })
        );
        assert_eq!(
            entered_pool(&pool, &heartbreaker(), &[0, 1, 2]),
            Err(DiceError::NotAFace { value: 0, sides: 6 })
        );
    }

    #[test]
    fn bad_rules_are_refused() {
        let pool = parse_pool("3 on 4+").unwrap();
        for rules in [
            PoolRules {
                sides: 1,
                ..plain()
            },
            PoolRules {
                sides: 5000,
                ..plain()
            },
            PoolRules {
                natural_fail: Some(7),
                ..plain()
            },
            PoolRules {
                double_success: Some(0),
                ..plain()
            },
        ] {
            assert!(matches!(rules.validate(), Err(DiceError::BadRules(_))));
            assert!(Dice::seeded(0).roll_pool(&pool, &rules).is_err());
            assert!(entered_pool(&pool, &rules, &[1, 1, 1]).is_err());
        }
        assert_eq!(
            PoolRules {
                natural_fail: Some(7),
                ..plain()
            }
            .validate()
            .unwrap_err()
            .to_string(),
            "bad dice rules: natural_fail 7 is not a face of a d6"
        );
    }

    #[test]
    fn pools_are_strings_in_serde() {
        let p: Pool = serde_json::from_str(r#""5 ON 4+ +2""#).unwrap();
        assert_eq!(serde_json::to_string(&p).unwrap(), r#""5 on 4+ +2""#);
    }
}
