//! Dice: a seeded random source, dice expressions and pools, dice tiers,
//! and the records every roll leaves.
//!
//! This module owns every random number the app uses and how dice text is
//! read: summed expressions (`2d6+1`, `d3`, see [`parse`]), success pools
//! (`5 on 4+ +2`, see [`parse_pool`]), dice-tier ladders (`2d8 +1DT`, see
//! [`Ladder`]), "roll twice, ignoring X" ([`Dice::roll_twice_ignoring`]),
//! rerolling one die ([`RollRecord::rerolled`]) and dice typed in from the
//! table ([`entered`], [`entered_pool`]). Every roll, by the app or by hand,
//! becomes a [`RollRecord`] that can be stored and shown exactly as it was.
//!
//! Pure: no I/O, no clock, no global random generator. Randomness comes only
//! from a ChaCha generator seeded by the caller ([`Dice::seeded`]), so a roll
//! can be repeated from its seed. No game's rules are built in: how a game
//! reads its dice ([`DiceDialect`], [`PoolRules`]) and its tier ladder
//! ([`Ladder`]) are given by the caller, typically from a ruleset pack.
//! Nothing here panics on bad input: every bad text is a [`DiceError`] that
//! says which character or part is wrong.

mod expr;
mod lex;
mod pool;
mod record;
mod sets;
mod stress;
mod tier;
mod twice;

#[cfg(test)]
mod props;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use expr::{DerivedDie, DiceDialect, Expr, entered, entered_with, parse};
pub use pool::{Pool, PoolRules, entered_pool, parse_pool};
pub use record::{DieRoll, RollRecord, RollSource, Scoring};
pub use sets::{equal_faces, sets_of};
pub use stress::{DifficultyShift, PushError, StressPool, StressRoll, StressRules, entered_stress};
pub use tier::{Ladder, TierShift};
pub use twice::{MAX_TRIES, TwiceRecord};

/// Errors a roll, a dice text or a ruleset's dice rules can give back.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum DiceError {
    #[error("a die needs at least one side")]
    NoSides,
    #[error("{value} is not a face of a d{sides}")]
    NotAFace { value: u32, sides: u32 },
    #[error("the dice expression is empty")]
    Empty,
    #[error(
        "{ch:?} at character {at} cannot be part of a dice expression \
         (use digits, letters, '+', '-' and spaces)"
    )]
    BadChar { ch: char, at: usize },
    #[error("found {found} at character {at}, expected {expected}")]
    Unexpected {
        found: String,
        at: usize,
        expected: &'static str,
    },
    #[error("the expression ends too soon: expected {expected}")]
    UnexpectedEnd { expected: &'static str },
    #[error("{part} {value}{} is out of range: it must be {min} to {max}", at_character(*.at))]
    OutOfRange {
        part: &'static str,
        value: String,
        /// 1-based character position, when the value came from text.
        at: Option<usize>,
        min: i64,
        max: i64,
    },
    #[error("a second {part} at character {at}: give it only once")]
    Repeated { part: &'static str, at: usize },
    #[error("the dice-tier shift (DT) at character {at} needs a dice-tier ladder")]
    TierWithoutLadder { at: usize },
    #[error("{expression} needs {expected} dice, but {got} were given")]
    WrongCount {
        expression: String,
        expected: u32,
        got: usize,
    },
    #[error("there is no die {}: the roll has {count} dice", .index.saturating_add(1))]
    NoSuchDie { index: usize, count: usize },
    #[error("bad dice-tier ladder: {0}")]
    BadLadder(String),
    #[error("{expr} is not on the dice-tier ladder {ladder}")]
    NotOnLadder { expr: String, ladder: String },
    #[error("bad dice rules: {0}")]
    BadRules(String),
    #[error("{expression} came up {ignoring} {tries} times running; giving up")]
    CannotAvoid {
        expression: String,
        ignoring: i64,
        tries: u32,
    },
}

fn at_character(at: Option<usize>) -> String {
    at.map(|at| format!(" at character {at}"))
        .unwrap_or_default()
}

/// A seed for a player who did not give one. The caller stores it with
/// every roll it makes, so the rolls can be made again. (The one use of the
/// clock in this module: the faces never depend on it, only the seed does.)
pub fn seed_from_clock() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The app's dice: a seeded generator that remembers its seed.
pub struct Dice {
    seed: u64,
    rng: ChaCha8Rng,
}

impl Dice {
    pub fn seeded(seed: u64) -> Self {
        Self {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The dice for one named roll of a procedure: seeded from the
    /// procedure's seed and the roll's name, so each roll comes out the same
    /// whatever other rolls are made or entered by hand. The record keeps
    /// this derived seed.
    pub fn for_roll(seed: u64, roll: &str) -> Self {
        // FNV-1a: stable across builds and platforms, unlike std's hasher.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in roll.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        Self::seeded(seed ^ hash)
    }

    /// One face of a d`sides` (a d1 for 0, so this never panics).
    fn face(&mut self, sides: u32) -> u32 {
        self.rng.random_range(1..=sides.max(1))
    }

    fn source(&self) -> RollSource {
        RollSource::App { seed: self.seed }
    }

    /// Rolls one die with `sides` faces.
    pub fn roll_die(&mut self, sides: u32) -> Result<RollRecord, DiceError> {
        if sides == 0 {
            return Err(DiceError::NoSides);
        }
        let face = self.face(sides);
        Ok(one_die(sides, face, self.source()))
    }
}

fn one_die(sides: u32, face: u32, source: RollSource) -> RollRecord {
    RollRecord::build(
        format!("d{sides}"),
        vec![DieRoll::plain(sides, face)],
        Scoring::default(),
        source,
    )
}

/// Records a die a player rolled at the table.
pub fn entered_die(sides: u32, value: u32) -> Result<RollRecord, DiceError> {
    if sides == 0 {
        return Err(DiceError::NoSides);
    }
    if !(1..=sides).contains(&value) {
        return Err(DiceError::NotAFace { value, sides });
    }
    Ok(one_die(sides, value, RollSource::Hand))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_rolls_are_independent_and_repeatable() {
        let a = Dice::for_roll(9, "injury: Brick").seed();
        assert_eq!(a, Dice::for_roll(9, "injury: Brick").seed());
        assert_ne!(a, Dice::for_roll(9, "injury: Dross").seed());
        assert_ne!(a, Dice::for_roll(10, "injury: Brick").seed());
    }

    #[test]
    fn same_seed_same_rolls() {
        let mut a = Dice::seeded(7);
        let mut b = Dice::seeded(7);
        let ra: Vec<_> = (0..20).map(|_| a.roll_die(6).map(|r| r.total)).collect();
        let rb: Vec<_> = (0..20).map(|_| b.roll_die(6).map(|r| r.total)).collect();
        assert_eq!(ra, rb);
    }

    #[test]
    fn d6_covers_every_face_and_no_other() {
        // 003: "Six-sided dice with sides numbered 1-6."
        let mut dice = Dice::seeded(1);
        let mut seen = [0u32; 7];
        for _ in 0..600 {
            let r = dice.roll_die(6).expect("six sides");
            seen[r.dice[0] as usize] += 1;
            assert_eq!(r.source, RollSource::App { seed: 1 });
            assert_eq!(r.expression, "d6");
            assert_eq!(r.total, i64::from(r.dice[0]));
            assert_eq!(r.rolls[0].face, r.dice[0]);
        }
        assert_eq!(seen[0], 0);
        assert!(seen[1..].iter().all(|&n| n > 0), "{seen:?}");
    }

    #[test]
    fn entered_dice_are_checked() {
        assert_eq!(entered_die(6, 4).map(|r| r.total), Ok(4));
        assert_eq!(
            entered_die(6, 7),
            Err(DiceError::NotAFace { value: 7, sides: 6 })
        );
        assert_eq!(Dice::seeded(0).roll_die(0), Err(DiceError::NoSides));
        assert_eq!(entered_die(0, 1), Err(DiceError::NoSides));
    }

    #[test]
    fn roll_die_and_the_expression_roller_agree() {
        // A single die rolled either way from the same seed is the same die.
        let by_die = Dice::seeded(4).roll_die(6).unwrap();
        let by_expr = Dice::seeded(4)
            .roll(&parse("d6").unwrap(), &DiceDialect::default())
            .unwrap();
        assert_eq!(by_die, by_expr);
        assert_eq!(Dice::seeded(4).seed(), 4);
    }

    #[test]
    fn odd_sized_single_dice_still_roll() {
        // roll_die takes any side count, unlike expressions.
        assert_eq!(Dice::seeded(0).roll_die(1).unwrap().total, 1);
        let big = Dice::seeded(0).roll_die(u32::MAX).unwrap();
        assert!(big.dice[0] >= 1);
    }
}
