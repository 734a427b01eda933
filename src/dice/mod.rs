//! Dice: a seeded random source and roll records.
//!
//! Owns every random number the app uses, so that a roll can be repeated
//! from its seed and shown exactly as it was stored. Pure: no I/O, no clock;
//! the seed is always given by the caller.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Where a roll's numbers came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum RollSource {
    /// Rolled by the app from a seeded generator.
    App { seed: u64 },
    /// Typed in by a player from physical dice.
    Hand,
}

/// One roll as it was made: what was rolled, each die, and the total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRecord {
    /// The expression rolled, e.g. `d6`.
    pub expression: String,
    pub dice: Vec<u32>,
    pub total: i64,
    pub source: RollSource,
}

/// Errors a roll can give back.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DiceError {
    #[error("a die needs at least one side")]
    NoSides,
    #[error("{value} is not a face of a d{sides}")]
    NotAFace { value: u32, sides: u32 },
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

    /// Rolls one die with `sides` faces.
    pub fn roll_die(&mut self, sides: u32) -> Result<RollRecord, DiceError> {
        if sides == 0 {
            return Err(DiceError::NoSides);
        }
        let face = self.rng.random_range(1..=sides);
        Ok(RollRecord {
            expression: format!("d{sides}"),
            dice: vec![face],
            total: i64::from(face),
            source: RollSource::App { seed: self.seed },
        })
    }
}

/// Records a die a player rolled at the table.
pub fn entered_die(sides: u32, value: u32) -> Result<RollRecord, DiceError> {
    if sides == 0 {
        return Err(DiceError::NoSides);
    }
    if !(1..=sides).contains(&value) {
        return Err(DiceError::NotAFace { value, sides });
    }
    Ok(RollRecord {
        expression: format!("d{sides}"),
        dice: vec![value],
        total: i64::from(value),
        source: RollSource::Hand,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut dice = Dice::seeded(1);
        let mut seen = [0u32; 7];
        for _ in 0..600 {
            let r = dice.roll_die(6).expect("six sides");
            seen[r.dice[0] as usize] += 1;
            assert_eq!(r.source, RollSource::App { seed: 1 });
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
    }
}
