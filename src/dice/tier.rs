//! Dice tiers: a ladder of expressions a roll moves up or down ("+1 DT").

use serde::{Deserialize, Serialize};

use super::DiceError;
use super::expr::{Expr, parse, parse_with_tiers};

/// A dice-tier ladder, lowest rung first, given by the caller (a ruleset
/// pack); in serde a list of expressions.
///
/// Hardwired 28 (000): "2d4 → 2d6 → 2d8 → 2d10 → 2d12", "← -1 DT | +1 DT →".
///
/// ```
/// use rapsheet::dice::Ladder;
/// let hw28 = Ladder::from_texts(&["2d4", "2d6", "2d8", "2d10", "2d12"]).unwrap();
/// let up = hw28.parse("2d8 +1DT").unwrap();
/// assert_eq!(up.to.to_string(), "2d10");
/// let top = hw28.parse("2d12 +1DT").unwrap();
/// assert!(top.clamped);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<Expr>", into = "Vec<Expr>")]
pub struct Ladder {
    rungs: Vec<Expr>,
}

/// The outcome of moving an expression along a ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierShift {
    /// The expression before the shift.
    pub from: Expr,
    /// The expression after it, keeping `from`'s modifier.
    pub to: Expr,
    /// Steps asked for (+ up, - down).
    pub requested: i32,
    /// Steps taken once the ladder's ends were reached.
    pub applied: i32,
    /// Whether an end of the ladder stopped the shift short.
    pub clamped: bool,
}

impl Ladder {
    /// A ladder of `rungs`, lowest first: at least one, each plain dice
    /// (no modifier), no dice twice.
    pub fn new(rungs: Vec<Expr>) -> Result<Self, DiceError> {
        if rungs.is_empty() {
            return Err(DiceError::BadLadder("it has no rungs".to_owned()));
        }
        for (i, rung) in rungs.iter().enumerate() {
            if rung.modifier() != 0 {
                return Err(DiceError::BadLadder(format!(
                    "rung {} `{rung}` has a modifier; rungs are plain dice",
                    i + 1
                )));
            }
            if rungs[..i].contains(rung) {
                return Err(DiceError::BadLadder(format!(
                    "rung {} `{rung}` is on the ladder twice",
                    i + 1
                )));
            }
        }
        Ok(Self { rungs })
    }

    /// A ladder from expression texts, lowest first.
    pub fn from_texts<S: AsRef<str>>(rungs: &[S]) -> Result<Self, DiceError> {
        let rungs = rungs
            .iter()
            .enumerate()
            .map(|(i, text)| {
                parse(text.as_ref()).map_err(|e| {
                    DiceError::BadLadder(format!("rung {} `{}`: {e}", i + 1, text.as_ref()))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(rungs)
    }

    pub fn rungs(&self) -> &[Expr] {
        &self.rungs
    }

    /// Where `expr`'s dice stand on the ladder (0 = lowest), its modifier
    /// aside; `None` when they are not on it. A lower position is a lower DT.
    pub fn position(&self, expr: &Expr) -> Option<usize> {
        self.rungs
            .iter()
            .position(|r| r.count() == expr.count() && r.sides() == expr.sides())
    }

    /// Moves `expr` `steps` rungs up (or down, when negative), stopping at
    /// either end; the result keeps `expr`'s modifier and says whether an end
    /// stopped it.
    pub fn shift(&self, expr: &Expr, steps: i32) -> Result<TierShift, DiceError> {
        let at = self.position(expr).ok_or_else(|| DiceError::NotOnLadder {
            expr: expr.to_string(),
            ladder: self.to_string(),
        })?;
        let top = self.rungs.len().saturating_sub(1);
        let at = i64::try_from(at).unwrap_or(i64::MAX);
        let top = i64::try_from(top).unwrap_or(i64::MAX);
        let wanted = at.saturating_add(i64::from(steps));
        let landed = wanted.clamp(0, top);
        let rung = usize::try_from(landed)
            .ok()
            .and_then(|i| self.rungs.get(i))
            .copied()
            .unwrap_or(*expr);
        Ok(TierShift {
            from: *expr,
            to: rung.with_modifier(expr.modifier())?,
            requested: steps,
            applied: i32::try_from(landed - at).unwrap_or(0),
            clamped: landed != wanted,
        })
    }

    /// Parses an expression with an optional dice-tier shift, `2d8 +1DT` or
    /// `2d8-2DT` (`DT` in any case, a modifier allowed too), and shifts it.
    /// With no shift the expression must still be on the ladder.
    pub fn parse(&self, text: &str) -> Result<TierShift, DiceError> {
        let parsed = parse_with_tiers(text)?;
        self.shift(&parsed.expr, parsed.tiers.map_or(0, |(steps, _)| steps))
    }
}

impl std::fmt::Display for Ladder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, rung) in self.rungs.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{rung}")?;
        }
        Ok(())
    }
}

impl TryFrom<Vec<Expr>> for Ladder {
    type Error = DiceError;

    fn try_from(rungs: Vec<Expr>) -> Result<Self, Self::Error> {
        Self::new(rungs)
    }
}

impl From<Ladder> for Vec<Expr> {
    fn from(l: Ladder) -> Self {
        l.rungs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 000: "2d4 → 2d6 → 2d8 → 2d10 → 2d12"
    fn hw28() -> Ladder {
        Ladder::from_texts(&["2d4", "2d6", "2d8", "2d10", "2d12"]).unwrap()
    }

    fn shifted(text: &str, steps: i32) -> TierShift {
        hw28().shift(&parse(text).unwrap(), steps).unwrap()
    }

    #[test]
    fn shifts_move_along_the_ladder() {
        // 000: "← -1 DT | +1 DT →"
        let up = shifted("2d8", 1);
        assert_eq!(up.to.to_string(), "2d10");
        assert_eq!((up.requested, up.applied, up.clamped), (1, 1, false));
        assert_eq!(shifted("2d8", -1).to.to_string(), "2d6");
        assert_eq!(shifted("2d8", 0).to.to_string(), "2d8");
        assert_eq!(shifted("2d4", 4).to.to_string(), "2d12");
        // 000: "Cover (body obscured): -1 DT Combat" and "Attacker moved: -1 DT Combat"
        assert_eq!(shifted("2d8", -2).to.to_string(), "2d4");
    }

    #[test]
    fn shifts_stop_at_both_ends_and_say_so() {
        // 000: "Roll 2 dice, add results. Never below 2d4 or above 2d12."
        let top = shifted("2d12", 1);
        assert_eq!(top.to.to_string(), "2d12");
        assert_eq!((top.requested, top.applied, top.clamped), (1, 0, true));
        let bottom = shifted("2d6", -3);
        assert_eq!(bottom.to.to_string(), "2d4");
        assert_eq!(
            (bottom.requested, bottom.applied, bottom.clamped),
            (-3, -1, true)
        );
        let far = shifted("2d6", i32::MAX);
        assert_eq!(
            (far.to.to_string(), far.applied, far.clamped),
            ("2d12".into(), 3, true)
        );
        let far = shifted("2d6", i32::MIN);
        assert_eq!(
            (far.to.to_string(), far.applied, far.clamped),
            ("2d4".into(), -1, true)
        );
    }

    #[test]
    fn parses_dt_shifts() {
        let l = hw28();
        assert_eq!(l.parse("2d8 +1DT").unwrap().to.to_string(), "2d10");
        assert_eq!(l.parse("2d8-2DT").unwrap().to.to_string(), "2d4");
        assert_eq!(l.parse("2D8 + 1 dt").unwrap().to.to_string(), "2d10");
        let plain = l.parse("2d8").unwrap();
        assert_eq!((plain.to.to_string(), plain.requested), ("2d8".into(), 0));
        let both = l.parse("2d8+1 -1DT").unwrap();
        assert_eq!(both.to.to_string(), "2d6+1");
        assert!(l.parse("2d12 +2DT").unwrap().clamped);
    }

    #[test]
    fn bad_dt_texts_are_refused() {
        let l = hw28();
        assert_eq!(
            l.parse("2d3 +1DT"),
            Err(DiceError::NotOnLadder {
                expr: "2d3".into(),
                ladder: "2d4, 2d6, 2d8, 2d10, 2d12".into()
            })
        );
        assert_eq!(
            l.parse("2d8 +1DT +1DT"),
            Err(DiceError::Repeated {
                part: "dice-tier shift",
                at: 10
            })
        );
        assert!(matches!(
            l.parse("2d8 +1001DT"),
            Err(DiceError::OutOfRange {
                part: "dice-tier shift",
                ..
            })
        ));
        assert!(matches!(
            l.parse("2d8 +DT"),
            Err(DiceError::Unexpected { .. })
        ));
        assert!(matches!(
            l.parse("2d8 +1DX"),
            Err(DiceError::Unexpected { .. })
        ));
        assert_eq!(l.parse(""), Err(DiceError::Empty));
    }

    #[test]
    fn bad_ladders_are_refused() {
        for rungs in [
            vec![],
            vec!["2d4", "2d4"],
            vec!["2d4", "2d6+1"],
            vec!["2d4", "2x6"],
        ] {
            assert!(
                matches!(Ladder::from_texts(&rungs), Err(DiceError::BadLadder(_))),
                "{rungs:?}"
            );
        }
    }

    #[test]
    fn lower_dt_is_a_lower_position() {
        // 000: "Higher total wins. Lower DT wins ties."
        let l = hw28();
        let p = |t: &str| l.position(&parse(t).unwrap());
        assert!(p("2d6") < p("2d8"));
        assert_eq!(p("2d8+2"), Some(2));
        assert_eq!(p("d8"), None);
    }

    #[test]
    fn ladders_are_lists_of_expressions_in_serde() {
        let l: Ladder = serde_json::from_str(r#"["2d4","2d6","2d8","2d10","2d12"]"#).unwrap();
        assert_eq!(l, hw28());
        assert!(serde_json::from_str::<Ladder>("[]").is_err());
        assert!(serde_json::from_str::<Ladder>(r#"["2d4","2d4"]"#).is_err());
    }
}
