//! Dice expressions (`NdX`, `NdX+M`, `NdX-M`, `dX`), the dialect that says
//! how a game reads odd dice, and rolling or entering an expression.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::lex::{Cursor, Tok, Token};
use super::record::{DieRoll, RollRecord, RollSource, Scoring, read};
use super::{Dice, DiceError};

/// A summed dice expression: `count` dice of `sides` faces, plus `modifier`.
///
/// Written `NdX`, `NdX+M`, `NdX-M` or `dX`; the `d` may be `D` and spaces
/// may go between the parts. Shown canonically: no count when it is 1, no
/// spaces, no `+0` (`d6`, `2d6+1`, `3d8-2`). In serde it is that string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Expr {
    count: u32,
    sides: u32,
    modifier: i32,
}

impl Expr {
    /// Most dice one expression may roll.
    pub const MAX_COUNT: u32 = 100;
    /// Fewest sides a die may have.
    pub const MIN_SIDES: u32 = 2;
    /// Most sides a die may have.
    pub const MAX_SIDES: u32 = 1000;
    /// Largest modifier, either way.
    pub const MAX_MODIFIER: i32 = 1000;

    /// `count`d`sides`+`modifier`, refused when any part is out of range.
    pub fn new(count: u32, sides: u32, modifier: i32) -> Result<Self, DiceError> {
        check(
            "dice count",
            i64::from(count),
            1,
            i64::from(Self::MAX_COUNT),
        )?;
        check(
            "number of sides",
            i64::from(sides),
            i64::from(Self::MIN_SIDES),
            i64::from(Self::MAX_SIDES),
        )?;
        check(
            "modifier",
            i64::from(modifier),
            -i64::from(Self::MAX_MODIFIER),
            i64::from(Self::MAX_MODIFIER),
        )?;
        Ok(Self {
            count,
            sides,
            modifier,
        })
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn sides(&self) -> u32 {
        self.sides
    }

    pub fn modifier(&self) -> i32 {
        self.modifier
    }

    /// The same dice with another modifier.
    pub fn with_modifier(&self, modifier: i32) -> Result<Self, DiceError> {
        Self::new(self.count, self.sides, modifier)
    }

    /// The lowest total: every die a 1, plus the modifier.
    pub fn min(&self) -> i64 {
        i64::from(self.count) + i64::from(self.modifier)
    }

    /// The highest total: every die its top face, plus the modifier.
    pub fn max(&self) -> i64 {
        i64::from(self.count) * i64::from(self.sides) + i64::from(self.modifier)
    }

    /// Every possible total, lowest first.
    pub fn totals(&self) -> std::ops::RangeInclusive<i64> {
        self.min()..=self.max()
    }
}

fn check(part: &'static str, value: i64, min: i64, max: i64) -> Result<(), DiceError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(DiceError::OutOfRange {
            part,
            value: value.to_string(),
            at: None,
            min,
            max,
        })
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        write!(f, "d{}", self.sides)?;
        if self.modifier != 0 {
            write!(f, "{:+}", self.modifier)?;
        }
        Ok(())
    }
}

impl FromStr for Expr {
    type Err = DiceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}

impl TryFrom<String> for Expr {
    type Error = DiceError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        parse(&s)
    }
}

impl From<Expr> for String {
    fn from(e: Expr) -> Self {
        e.to_string()
    }
}

/// Parses a summed dice expression: `NdX`, `NdX+M`, `NdX-M` or `dX`.
///
/// Every malformed text is an `Err` that names the character or part at
/// fault; this never panics.
///
/// ```
/// use rapsheet::dice::parse;
/// let e = parse(" 2D6 - 1 ").unwrap();
/// assert_eq!((e.min(), e.max()), (1, 11));
/// assert_eq!(e.to_string(), "2d6-1");
/// assert!(parse("2d6+").unwrap_err().to_string().contains("ends too soon"));
/// ```
pub fn parse(text: &str) -> Result<Expr, DiceError> {
    let parsed = parse_with_tiers(text)?;
    match parsed.tiers {
        Some((_, at)) => Err(DiceError::TierWithoutLadder { at }),
        None => Ok(parsed.expr),
    }
}

/// An expression and, if it had one, its `±N DT` shift and where it was.
pub(crate) struct Parsed {
    pub expr: Expr,
    pub tiers: Option<(i32, usize)>,
}

/// Largest dice-tier shift one text may ask for, either way.
pub(crate) const MAX_TIER_SHIFT: i32 = 1000;

/// Parses `[N]dX` followed by at most one `±M` and at most one `±N DT`.
pub(crate) fn parse_with_tiers(text: &str) -> Result<Parsed, DiceError> {
    let mut c = Cursor::new(text)?;
    let (count, expected_d) = match c.peek() {
        Some(Token {
            tok: Tok::Num { .. },
            ..
        }) => (
            c.raw_number("dice count")?
                .narrow("dice count", 1, 1, i64::from(Expr::MAX_COUNT))?,
            "'d' and the number of sides",
        ),
        _ => (1, "a dice count or 'd'"),
    };
    c.word("d", expected_d)?;
    let sides = c.raw_number("the number of sides after 'd'")?.narrow(
        "number of sides",
        1,
        i64::from(Expr::MIN_SIDES),
        i64::from(Expr::MAX_SIDES),
    )?;
    let max_mod = i64::from(Expr::MAX_MODIFIER);
    let mut modifier: Option<i32> = None;
    let mut tiers = None;
    while let Some(token) = c.bump() {
        let sign = match token.tok {
            Tok::Plus => 1,
            Tok::Minus => -1,
            _ => return Err(Cursor::wrong(Some(token), "'+', '-' or the end")),
        };
        let n = c.raw_number("a number after the sign")?;
        if c.peek().is_some_and(|t| t.tok.is_word("dt")) {
            c.bump();
            if tiers.is_some() {
                return Err(DiceError::Repeated {
                    part: "dice-tier shift",
                    at: token.at,
                });
            }
            let most = i64::from(MAX_TIER_SHIFT);
            let steps = n.narrow("dice-tier shift", sign, -most, most)?;
            tiers = Some((steps, token.at));
        } else {
            if modifier.is_some() {
                return Err(DiceError::Repeated {
                    part: "modifier",
                    at: token.at,
                });
            }
            modifier = Some(n.narrow("modifier", sign, -max_mod, max_mod)?);
        }
    }
    Ok(Parsed {
        expr: Expr::new(count, sides, modifier.unwrap_or(0))?,
        tiers,
    })
}

/// A die a game reads off a bigger die instead of rolling it: a d`sides`
/// is a d`rolled` scaled down, rounding up. `rolled` must be a multiple of
/// `sides`; twice `sides` is "halve the result, rounding up".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DerivedDie {
    pub sides: u32,
    pub rolled: u32,
}

/// How a game reads its dice, carried by a ruleset pack.
///
/// Heartbreaker (003): "Rules may ask you to roll a D3. In this case, roll a
/// D6 and halve the result, rounding up."
///
/// ```
/// use rapsheet::dice::{parse, DerivedDie, Dice, DiceDialect};
/// let heartbreaker = DiceDialect { derived: vec![DerivedDie { sides: 3, rolled: 6 }] };
/// let from_pack: DiceDialect =
///     serde_json::from_str(r#"{ "derived": [{ "sides": 3, "rolled": 6 }] }"#).unwrap();
/// assert_eq!(heartbreaker, from_pack);
///
/// let record = Dice::seeded(1).roll(&parse("d3").unwrap(), &heartbreaker).unwrap();
/// let die = &record.rolls[0];
/// assert_eq!(die.rolled, 6); // the d6 face is kept...
/// assert_eq!(die.value, die.face.div_ceil(2)); // ...beside the halved value
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceDialect {
    /// Dice read off bigger dice; any die not listed is rolled as itself.
    #[serde(default)]
    pub derived: Vec<DerivedDie>,
}

impl DiceDialect {
    /// Refuses a derived die that cannot be read off its bigger die, or a
    /// die listed twice.
    pub fn validate(&self) -> Result<(), DiceError> {
        for (i, d) in self.derived.iter().enumerate() {
            if d.sides == 0 || d.rolled <= d.sides || d.rolled % d.sides != 0 {
                return Err(DiceError::BadRules(format!(
                    "a d{} cannot be read off a d{}: the die rolled must be a bigger multiple",
                    d.sides, d.rolled
                )));
            }
            if self.derived[..i].iter().any(|e| e.sides == d.sides) {
                return Err(DiceError::BadRules(format!(
                    "the d{} is listed twice among derived dice",
                    d.sides
                )));
            }
        }
        Ok(())
    }

    /// The die thrown for a d`sides`.
    pub fn rolled_for(&self, sides: u32) -> u32 {
        self.derived
            .iter()
            .find(|d| d.sides == sides)
            .map_or(sides, |d| d.rolled)
    }
}

impl Dice {
    /// Rolls `expr`, reading dice by `dialect` (a `d3` may be a halved d6).
    pub fn roll(&mut self, expr: &Expr, dialect: &DiceDialect) -> Result<RollRecord, DiceError> {
        dialect.validate()?;
        let rolled = dialect.rolled_for(expr.sides);
        let rolls = (0..expr.count)
            .map(|_| {
                let face = self.face(rolled);
                DieRoll {
                    rolled,
                    value: read(expr.sides, rolled, face),
                    ..DieRoll::plain(expr.sides, face)
                }
            })
            .collect();
        Ok(sum_record(expr, rolls, self.source()))
    }
}

fn sum_record(expr: &Expr, rolls: Vec<DieRoll>, source: RollSource) -> RollRecord {
    RollRecord::build(
        expr.to_string(),
        rolls,
        Scoring::Sum {
            modifier: i64::from(expr.modifier),
        },
        source,
    )
}

fn check_count(expression: String, expected: u32, got: usize) -> Result<(), DiceError> {
    if usize::try_from(expected).is_ok_and(|e| e == got) {
        Ok(())
    } else {
        Err(DiceError::WrongCount {
            expression,
            expected,
            got,
        })
    }
}

/// Records dice a player rolled at the table for `expr`: one value per die,
/// each a face of the die the expression names (1..=3 for a `d3`).
pub fn entered(expr: &Expr, faces: &[u32]) -> Result<RollRecord, DiceError> {
    entered_with(expr, &DiceDialect::default(), faces)
}

/// Like [`entered`], but each face is of the die actually thrown under
/// `dialect` (1..=6 for a `d3` read off a d6), so the record keeps both.
pub fn entered_with(
    expr: &Expr,
    dialect: &DiceDialect,
    faces: &[u32],
) -> Result<RollRecord, DiceError> {
    dialect.validate()?;
    check_count(expr.to_string(), expr.count, faces.len())?;
    let rolled = dialect.rolled_for(expr.sides);
    let rolls = faces
        .iter()
        .map(|&face| {
            if (1..=rolled).contains(&face) {
                Ok(DieRoll {
                    rolled,
                    value: read(expr.sides, rolled, face),
                    ..DieRoll::plain(expr.sides, face)
                })
            } else {
                Err(DiceError::NotAFace {
                    value: face,
                    sides: rolled,
                })
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(sum_record(expr, rolls, RollSource::Hand))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heartbreaker() -> DiceDialect {
        DiceDialect {
            derived: vec![DerivedDie {
                sides: 3,
                rolled: 6,
            }],
        }
    }

    fn parts(text: &str) -> (u32, u32, i32) {
        let e = parse(text).unwrap();
        (e.count(), e.sides(), e.modifier())
    }

    #[test]
    fn parses_every_form() {
        assert_eq!(parts("2d6"), (2, 6, 0));
        assert_eq!(parts("d6"), (1, 6, 0));
        assert_eq!(parts("1d6"), (1, 6, 0));
        // 003: "Rules may ask you to roll a D3."
        assert_eq!(parts("D3"), (1, 3, 0));
        assert_eq!(parts("d3"), (1, 3, 0));
        assert_eq!(parts("2d6+1"), (2, 6, 1));
        assert_eq!(parts("3d8-2"), (3, 8, -2));
        assert_eq!(parts("  2 D 6 +  1 "), (2, 6, 1));
        assert_eq!(parts("\t100d1000-1000"), (100, 1000, -1000));
        assert_eq!(parts("2d6+0"), (2, 6, 0));
        assert_eq!(parts("2d6-0"), (2, 6, 0));
        assert_eq!(parts("002d06+01"), (2, 6, 1));
    }

    #[test]
    fn shows_a_canonical_form() {
        for (text, shown) in [
            ("1d6", "d6"),
            ("D3", "d3"),
            (" 2 d 6 + 1", "2d6+1"),
            ("3D8 - 2", "3d8-2"),
            ("2d6+0", "2d6"),
            ("2d4", "2d4"),
        ] {
            let e = parse(text).unwrap();
            assert_eq!(e.to_string(), shown);
            assert_eq!(parse(shown).unwrap(), e);
        }
    }

    #[test]
    fn min_and_max() {
        let e = parse("2d6+1").unwrap();
        assert_eq!((e.min(), e.max()), (3, 13));
        assert_eq!(parse("d3").unwrap().totals(), 1..=3);
        assert_eq!(parse("4d6-10").unwrap().totals(), -6..=14);
        // 000: "| d20 | Finding |" runs 1 to 20.
        assert_eq!(parse("d20").unwrap().totals(), 1..=20);
    }

    #[test]
    fn bad_expressions_say_what_is_wrong() {
        use DiceError::*;
        let cases: Vec<(&str, DiceError)> = vec![
            ("", Empty),
            ("   ", Empty),
            (
                "2x6",
                Unexpected {
                    found: "'x'".into(),
                    at: 2,
                    expected: "'d' and the number of sides",
                },
            ),
            ("2d6%", BadChar { ch: '%', at: 4 }),
            (
                "2d",
                UnexpectedEnd {
                    expected: "the number of sides after 'd'",
                },
            ),
            (
                "6",
                UnexpectedEnd {
                    expected: "'d' and the number of sides",
                },
            ),
            (
                "2d6+",
                UnexpectedEnd {
                    expected: "a number after the sign",
                },
            ),
            (
                "2d6++1",
                Unexpected {
                    found: "'+'".into(),
                    at: 5,
                    expected: "a number after the sign",
                },
            ),
            (
                "2d6 2",
                Unexpected {
                    found: "number 2".into(),
                    at: 5,
                    expected: "'+', '-' or the end",
                },
            ),
            (
                "2d6+1-1",
                Repeated {
                    part: "modifier",
                    at: 6,
                },
            ),
            (
                "2dd6",
                Unexpected {
                    found: "'dd'".into(),
                    at: 2,
                    expected: "'d' and the number of sides",
                },
            ),
            ("2d8 +1DT", TierWithoutLadder { at: 5 }),
            (
                "+2d6",
                Unexpected {
                    found: "'+'".into(),
                    at: 1,
                    expected: "a dice count or 'd'",
                },
            ),
            (
                "x6",
                Unexpected {
                    found: "'x'".into(),
                    at: 1,
                    expected: "a dice count or 'd'",
                },
            ),
        ];
        for (text, err) in cases {
            assert_eq!(parse(text), Err(err), "{text:?}");
        }
    }

    #[test]
    fn out_of_range_parts_are_refused() {
        let range = |text: &str| match parse(text) {
            Err(DiceError::OutOfRange { part, value, .. }) => (part, value),
            other => panic!("{text:?} gave {other:?}"),
        };
        assert_eq!(range("0d6"), ("dice count", "0".into()));
        assert_eq!(range("101d6"), ("dice count", "101".into()));
        assert_eq!(range("2d1"), ("number of sides", "1".into()));
        assert_eq!(range("2d0"), ("number of sides", "0".into()));
        assert_eq!(range("2d1001"), ("number of sides", "1001".into()));
        assert_eq!(range("2d6+1001"), ("modifier", "1001".into()));
        assert_eq!(range("2d6-1001"), ("modifier", "-1001".into()));
        let huge = "99999999999999999999999";
        assert_eq!(range(&format!("{huge}d6")), ("dice count", huge.into()));
        assert_eq!(
            parse("101d6").unwrap_err().to_string(),
            "dice count 101 at character 1 is out of range: it must be 1 to 100"
        );
        assert_eq!(
            Expr::new(1, 6, 5000).unwrap_err().to_string(),
            "modifier 5000 is out of range: it must be -1000 to 1000"
        );
    }

    #[test]
    fn messages_name_the_character() {
        assert_eq!(
            parse("2d6 % 1").unwrap_err().to_string(),
            "'%' at character 5 cannot be part of a dice expression \
             (use digits, letters, '+', '-' and spaces)"
        );
        assert_eq!(
            parse("2x6").unwrap_err().to_string(),
            "found 'x' at character 2, expected 'd' and the number of sides"
        );
    }

    #[test]
    fn rolls_stay_in_range() {
        let mut dice = Dice::seeded(42);
        let e = parse("3d6+2").unwrap();
        for _ in 0..200 {
            let r = dice.roll(&e, &DiceDialect::default()).unwrap();
            assert!(e.totals().contains(&r.total));
            assert_eq!(r.dice.len(), 3);
            assert_eq!(r.expression, "3d6+2");
            assert_eq!(r.source, RollSource::App { seed: 42 });
            assert_eq!(
                r.total,
                r.dice.iter().map(|&d| i64::from(d)).sum::<i64>() + 2
            );
        }
    }

    #[test]
    fn a_d3_is_a_d6_halved_rounding_up_when_the_dialect_says_so() {
        // 003: "Rules may ask you to roll a D3. In this case, roll a D6 and
        // halve the result, rounding up."
        let mut dice = Dice::seeded(5);
        let d3 = parse("d3").unwrap();
        let mut faces = [0u32; 7];
        for _ in 0..300 {
            let r = dice.roll(&d3, &heartbreaker()).unwrap();
            let die = &r.rolls[0];
            assert_eq!((die.sides, die.rolled), (3, 6));
            assert_eq!(die.value, die.face.div_ceil(2));
            assert_eq!(r.dice, vec![die.value]);
            assert_eq!(r.total, i64::from(die.value));
            faces[die.face as usize] += 1;
        }
        assert!(faces[1..].iter().all(|&n| n > 0), "{faces:?}");

        // Without the dialect a d3 is rolled as itself.
        let r = dice.roll(&d3, &DiceDialect::default()).unwrap();
        assert_eq!(r.rolls[0].rolled, 3);
        assert_eq!(r.rolls[0].face, r.rolls[0].value);
    }

    #[test]
    fn bad_dialects_are_refused() {
        let d3 = parse("d3").unwrap();
        for derived in [
            vec![DerivedDie {
                sides: 3,
                rolled: 5,
            }],
            vec![DerivedDie {
                sides: 3,
                rolled: 3,
            }],
            vec![DerivedDie {
                sides: 0,
                rolled: 6,
            }],
            vec![
                DerivedDie {
                    sides: 3,
                    rolled: 6,
                },
                DerivedDie {
                    sides: 3,
                    rolled: 9,
                },
            ],
        ] {
            let dialect = DiceDialect { derived };
            assert!(matches!(dialect.validate(), Err(DiceError::BadRules(_))));
            assert!(Dice::seeded(0).roll(&d3, &dialect).is_err());
            assert!(entered_with(&d3, &dialect, &[1]).is_err());
        }
        let empty: DiceDialect = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, DiceDialect::default());
    }

    #[test]
    fn entered_dice_are_checked_against_the_expression() {
        let e = parse("2d6+1").unwrap();
        let r = entered(&e, &[3, 6]).unwrap();
        assert_eq!((r.total, r.source.clone()), (10, RollSource::Hand));
        assert_eq!(r.dice, vec![3, 6]);
        assert_eq!(r.expression, "2d6+1");
        assert_eq!(
            entered(&e, &[3]),
            Err(DiceError::WrongCount {
                expression: "2d6+1".into(),
                expected: 2,
                got: 1
            })
        );
        assert_eq!(
            entered(&e, &[3, 7]),
            Err(DiceError::NotAFace { value: 7, sides: 6 })
        );
        assert_eq!(
            entered(&e, &[0, 1]),
            Err(DiceError::NotAFace { value: 0, sides: 6 })
        );
        // A d3 typed in as a d3, or as the d6 face it was read off.
        let d3 = parse("d3").unwrap();
        assert_eq!(entered(&d3, &[3]).unwrap().total, 3);
        assert!(entered(&d3, &[4]).is_err());
        let r = entered_with(&d3, &heartbreaker(), &[4]).unwrap();
        assert_eq!((r.rolls[0].face, r.rolls[0].value, r.total), (4, 2, 2));
    }

    #[test]
    fn expressions_are_strings_in_serde() {
        let e: Expr = serde_json::from_str(r#""2D6 + 1""#).unwrap();
        assert_eq!(serde_json::to_string(&e).unwrap(), r#""2d6+1""#);
        assert!(serde_json::from_str::<Expr>(r#""2d""#).is_err());
    }
}
