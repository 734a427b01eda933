//! Stress pools (Year Zero style): base dice and stress dice rolled together,
//! a success face on either kind succeeds, a panic face on a stress die
//! triggers a panic roll, and a roll without panic may be pushed.
//!
//! The Year Zero-style overview (rule text 002, lines 8-15):
//!
//! - "Base Dice: Attribute + Skill + Gear." "A 6 is a success. Each
//!   additional 6 can be used to do a Stunt."
//! - "Stress Dice: Stress level" "A 1 on a Stress Dice triggers a Panic Roll
//!   which may cancel action"
//! - "Pushing: If no 1s show on Stress Dice, you may add 1 STRESS LEVEL (and
//!   the associated die) then reroll all non-6s."
//! - "Difficulty Modifiers: Adjust # of dice (Base Dice first, then Stress
//!   Dice)."
//!
//! and for synthetics (line 238): "Cannot push skill roles or have stress
//! die". The die, its success face and its panic face are the game's, given
//! by the caller as [`StressRules`] (typically from a ruleset pack); nothing
//! here assumes a d6. How many times a roll may be pushed is not said by the
//! text, so it is not limited here: each push is counted in
//! [`StressRoll::stress_added`] for the caller to rule on.

use serde::{Deserialize, Serialize};

use super::expr::Expr;
use super::record::{DieRoll, RollSource};
use super::{Dice, DiceError};

/// How a game reads a stress pool's dice, carried by a ruleset pack.
///
/// The Year Zero-style overview (002) reads its dice so: "A 6 is a success", "A 1 on a Stress Dice
/// triggers a Panic Roll":
///
/// ```
/// use rapsheet::dice::{Dice, StressPool, StressRules};
/// let rules: StressRules =
///     serde_json::from_str(r#"{ "sides": 6, "success": 6, "panic": 1 }"#).unwrap();
/// let roll = Dice::seeded(7)
///     .roll_stress(&StressPool { base: 4, stress: 2 }, &rules, true)
///     .unwrap();
/// assert_eq!((roll.base.len(), roll.stress.len()), (4, 2));
/// assert!(roll.successes <= 6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StressRules {
    /// Sides of every die, base and stress.
    pub sides: u32,
    /// The face that is a success, on base and stress dice alike.
    pub success: u32,
    /// The face that, on a stress die, triggers a panic roll (and forbids
    /// pushing). On a base die it means nothing.
    pub panic: u32,
}

impl StressRules {
    /// Refuses dice outside 2..=1000 sides, success or panic faces not on
    /// the die, and one face that would be both.
    pub fn validate(&self) -> Result<(), DiceError> {
        if !(Expr::MIN_SIDES..=Expr::MAX_SIDES).contains(&self.sides) {
            return Err(DiceError::BadRules(format!(
                "stress pool dice need {} to {} sides, not {}",
                Expr::MIN_SIDES,
                Expr::MAX_SIDES,
                self.sides
            )));
        }
        for (name, face) in [("success", self.success), ("panic", self.panic)] {
            if !(1..=self.sides).contains(&face) {
                return Err(DiceError::BadRules(format!(
                    "{name} face {face} is not a face of a d{}",
                    self.sides
                )));
            }
        }
        if self.success == self.panic {
            return Err(DiceError::BadRules(format!(
                "{} cannot be both the success face and the panic face",
                self.success
            )));
        }
        Ok(())
    }

    fn is_success(&self, face: u32) -> bool {
        face == self.success
    }
}

/// The dice of one stress roll: `base` dice (attribute + skill + gear) and
/// `stress` dice (the roller's stress level).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StressPool {
    pub base: u32,
    pub stress: u32,
}

/// What a difficulty modifier did to a [`StressPool`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DifficultyShift {
    /// The pool before the modifier.
    pub from: StressPool,
    /// The pool after it.
    pub to: StressPool,
    /// The modifier asked for: dice added (+) or taken away (-).
    pub requested: i32,
    /// Base dice a bonus added.
    pub base_added: u32,
    /// Base dice a penalty took away.
    pub base_removed: u32,
    /// Stress dice a penalty took away once no base dice were left.
    pub stress_removed: u32,
    /// Dice of the modifier that could not be applied: the rest of a
    /// penalty larger than the whole pool (or of a bonus past `u32::MAX`).
    pub unapplied: u32,
}

impl StressPool {
    /// Most dice, base and stress together, one roll may throw.
    pub const MAX_DICE: u32 = Expr::MAX_COUNT;

    /// All the dice of the pool.
    pub fn total(&self) -> u64 {
        u64::from(self.base) + u64::from(self.stress)
    }

    /// The pool with a difficulty modifier applied: a bonus adds base dice;
    /// a penalty takes base dice first, then stress dice, and never takes a
    /// count below zero (002: "Adjust # of dice (Base Dice first, then Stress
    /// Dice)"). The shift says what was added and removed, to be shown.
    ///
    /// For a roller who cannot be stressed, give a pool with no stress dice,
    /// so a penalty is not shown taking stress dice it would never roll.
    pub fn with_difficulty(self, modifier: i32) -> DifficultyShift {
        let size = modifier.unsigned_abs();
        let (base_added, base_removed, stress_removed) = if modifier >= 0 {
            (size.min(u32::MAX - self.base), 0, 0)
        } else {
            let base_removed = size.min(self.base);
            let stress_removed = size.saturating_sub(base_removed).min(self.stress);
            (0, base_removed, stress_removed)
        };
        let applied = base_added
            .saturating_add(base_removed)
            .saturating_add(stress_removed);
        DifficultyShift {
            from: self,
            to: StressPool {
                base: self
                    .base
                    .saturating_add(base_added)
                    .saturating_sub(base_removed),
                stress: self.stress.saturating_sub(stress_removed),
            },
            requested: modifier,
            base_added,
            base_removed,
            stress_removed,
            unapplied: size.saturating_sub(applied),
        }
    }

    /// The dice a roller throws for this pool: no stress dice for one who
    /// cannot be stressed. Refused when more than [`Self::MAX_DICE`].
    fn thrown(&self, stressable: bool) -> Result<StressPool, DiceError> {
        let pool = StressPool {
            base: self.base,
            stress: if stressable { self.stress } else { 0 },
        };
        check_size(pool.total())?;
        Ok(pool)
    }
}

fn check_size(dice: u64) -> Result<(), DiceError> {
    if dice > u64::from(StressPool::MAX_DICE) {
        return Err(DiceError::OutOfRange {
            part: "dice count",
            value: dice.to_string(),
            at: None,
            min: 0,
            max: StressPool::MAX_DICE.into(),
        });
    }
    Ok(())
}

/// A stress roll as it was made: each base and stress die apart, and what
/// they add up to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StressRoll {
    /// The rules the dice were read by.
    pub rules: StressRules,
    /// Whether the roller can be stressed; one who cannot (a synthetic)
    /// rolls no stress dice and cannot push.
    pub stressable: bool,
    /// The base dice; each die's `successes` is 1 on the success face, else 0.
    pub base: Vec<DieRoll>,
    /// The stress dice, read the same way; a pushed roll's added dice last.
    pub stress: Vec<DieRoll>,
    /// Dice, base and stress, showing the success face.
    pub successes: u32,
    /// Successes beyond the first, each usable for a stunt.
    pub stunts: u32,
    /// Whether a stress die shows the panic face: the roller makes a panic
    /// roll.
    pub panic: bool,
    /// Whether the roll may be pushed: the roller can be stressed, no stress
    /// die shows the panic face, and one more die stays within
    /// [`StressPool::MAX_DICE`].
    pub can_push: bool,
    /// Stress levels this roll's pushes added to the roller, one per push.
    /// A push makes this one more: the caller raises the roller's stress by
    /// the difference.
    pub stress_added: u32,
    pub source: RollSource,
}

impl StressRoll {
    /// Reads `base` and `stress` by `rules` into a roll.
    fn build(
        rules: StressRules,
        stressable: bool,
        base: Vec<DieRoll>,
        stress: Vec<DieRoll>,
        stress_added: u32,
        source: RollSource,
    ) -> Self {
        let mark = |dice: Vec<DieRoll>| -> Vec<DieRoll> {
            dice.into_iter()
                .map(|mut die| {
                    die.modified = None;
                    die.successes = Some(u32::from(rules.is_success(die.face)));
                    die
                })
                .collect()
        };
        let (base, stress) = (mark(base), mark(stress));
        let successes = base
            .iter()
            .chain(&stress)
            .filter_map(|die| die.successes)
            .fold(0u32, u32::saturating_add);
        let panic = stress.iter().any(|die| die.face == rules.panic);
        let dice = (base.len() as u64).saturating_add(stress.len() as u64);
        let can_push = stressable && !panic && dice < u64::from(StressPool::MAX_DICE);
        Self {
            rules,
            stressable,
            base,
            stress,
            successes,
            stunts: successes.saturating_sub(1),
            panic,
            can_push,
            stress_added,
            source,
        }
    }

    /// The dice a push throws: the base dice and the stress dice not showing
    /// the success face, and (in `stress`) the one new stress die.
    pub fn push_dice(&self) -> StressPool {
        let failed = |dice: &[DieRoll]| {
            let n = dice
                .iter()
                .filter(|die| !self.rules.is_success(die.face))
                .count();
            u32::try_from(n).unwrap_or(u32::MAX)
        };
        StressPool {
            base: failed(&self.base),
            stress: failed(&self.stress).saturating_add(1),
        }
    }

    /// Why this roll cannot be pushed, if it cannot.
    fn refuse_push(&self) -> Result<(), PushError> {
        self.rules.validate()?;
        if !self.stressable {
            return Err(PushError::NotStressable);
        }
        if self.stress.iter().any(|die| die.face == self.rules.panic) {
            return Err(PushError::Panic {
                face: self.rules.panic,
            });
        }
        let dice = (self.base.len() as u64).saturating_add(self.stress.len() as u64);
        check_size(dice.saturating_add(1))?;
        Ok(())
    }

    /// This roll pushed: one stress die is added (the roller's stress level
    /// goes up by one, counted in [`StressRoll::stress_added`]) and every die
    /// not showing the success face, base and stress, is thrown again by
    /// `dice` — base dice first, then stress dice, then the new die. Each
    /// rerolled die keeps its old face in `replaced`; the source stays as it
    /// was.
    ///
    /// Refused when a stress die shows the panic face, or the roller cannot
    /// be stressed (002: "If no 1s show on Stress Dice, you may add 1 STRESS
    /// LEVEL (and the associated die) then reroll all non-6s.").
    pub fn pushed(&self, dice: &mut Dice) -> Result<StressRoll, PushError> {
        self.refuse_push()?;
        let sides = self.rules.sides;
        let base = rerolled(&self.rules, &self.base, || Some(dice.face(sides)));
        let mut stress = rerolled(&self.rules, &self.stress, || Some(dice.face(sides)));
        stress.push(DieRoll::plain(sides, dice.face(sides)));
        Ok(self.after_push(base, stress, self.source.clone()))
    }

    /// Like [`StressRoll::pushed`] with faces a player rolled at the table:
    /// `base` has one face per base die rerolled and `stress` one per stress
    /// die rerolled then the new die's, each in the roll's order (see
    /// [`StressRoll::push_dice`] for how many). The roll becomes
    /// [`RollSource::Hand`], as its numbers are no longer all the app's.
    pub fn pushed_by_hand(&self, base: &[u32], stress: &[u32]) -> Result<StressRoll, PushError> {
        self.refuse_push()?;
        let need = self.push_dice();
        check_count("a push of the base pool", need.base, base.len())?;
        check_count(
            "a push of the stress pool (the new die last)",
            need.stress,
            stress.len(),
        )?;
        check_faces(&self.rules, base)?;
        check_faces(&self.rules, stress)?;
        let mut base_faces = base.iter().copied();
        let mut stress_faces = stress.iter().copied();
        let base = rerolled(&self.rules, &self.base, || base_faces.next());
        let mut stress = rerolled(&self.rules, &self.stress, || stress_faces.next());
        // The counts were checked: exactly one face is left, the new die's.
        if let Some(face) = stress_faces.next() {
            stress.push(DieRoll::plain(self.rules.sides, face));
        }
        Ok(self.after_push(base, stress, RollSource::Hand))
    }

    fn after_push(&self, base: Vec<DieRoll>, stress: Vec<DieRoll>, source: RollSource) -> Self {
        Self::build(
            self.rules,
            self.stressable,
            base,
            stress,
            self.stress_added.saturating_add(1),
            source,
        )
    }
}

/// The dice of `rolls` with every die not showing the success face turned
/// to the next face `next` gives (or kept as it is, if `next` gives none).
fn rerolled(
    rules: &StressRules,
    rolls: &[DieRoll],
    mut next: impl FnMut() -> Option<u32>,
) -> Vec<DieRoll> {
    rolls
        .iter()
        .map(|die| {
            if rules.is_success(die.face) {
                return die.clone();
            }
            next().map_or_else(|| die.clone(), |face| turned_to(die, face))
        })
        .collect()
}

/// Same die, now showing `face` (the old face goes to `replaced`).
fn turned_to(die: &DieRoll, face: u32) -> DieRoll {
    let mut die = die.clone();
    die.replaced.push(die.face);
    die.face = face;
    die.value = face;
    die
}

fn check_count(what: &str, expected: u32, got: usize) -> Result<(), DiceError> {
    if usize::try_from(expected).ok() != Some(got) {
        return Err(DiceError::WrongCount {
            expression: what.to_owned(),
            expected,
            got,
        });
    }
    Ok(())
}

fn check_faces(rules: &StressRules, faces: &[u32]) -> Result<(), DiceError> {
    if let Some(&bad) = faces.iter().find(|f| !(1..=rules.sides).contains(f)) {
        return Err(DiceError::NotAFace {
            value: bad,
            sides: rules.sides,
        });
    }
    Ok(())
}

/// Why a roll cannot be pushed.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum PushError {
    #[error("a stress die shows {face}, which triggers a panic roll: the roll cannot be pushed")]
    Panic { face: u32 },
    #[error("this roller cannot be stressed, so cannot push a roll")]
    NotStressable,
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl Dice {
    /// Rolls `pool` under `rules`: the base dice, then the stress dice —
    /// none if the roller cannot be stressed (`stressable` false, as for a
    /// synthetic), whatever its stress.
    pub fn roll_stress(
        &mut self,
        pool: &StressPool,
        rules: &StressRules,
        stressable: bool,
    ) -> Result<StressRoll, DiceError> {
        rules.validate()?;
        let pool = pool.thrown(stressable)?;
        let mut throw = |n: u32| -> Vec<DieRoll> {
            (0..n)
                .map(|_| DieRoll::plain(rules.sides, self.face(rules.sides)))
                .collect()
        };
        let base = throw(pool.base);
        let stress = throw(pool.stress);
        Ok(StressRoll::build(
            *rules,
            stressable,
            base,
            stress,
            0,
            self.source(),
        ))
    }
}

/// Records a stress roll a player rolled at the table: one face per base die
/// and one per stress die (none if the roller cannot be stressed).
pub fn entered_stress(
    pool: &StressPool,
    rules: &StressRules,
    stressable: bool,
    base: &[u32],
    stress: &[u32],
) -> Result<StressRoll, DiceError> {
    rules.validate()?;
    let pool = pool.thrown(stressable)?;
    check_count("the base pool", pool.base, base.len())?;
    check_count("the stress pool", pool.stress, stress.len())?;
    check_faces(rules, base)?;
    check_faces(rules, stress)?;
    let dice = |faces: &[u32]| -> Vec<DieRoll> {
        faces
            .iter()
            .map(|&face| DieRoll::plain(rules.sides, face))
            .collect()
    };
    Ok(StressRoll::build(
        *rules,
        stressable,
        dice(base),
        dice(stress),
        0,
        RollSource::Hand,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The overview's stress dice (002): d6s, "A 6 is a success", "A 1 on a Stress
    /// Dice triggers a Panic Roll".
    fn overview() -> StressRules {
        StressRules {
            sides: 6,
            success: 6,
            panic: 1,
        }
    }

    fn pool(base: u32, stress: u32) -> StressPool {
        StressPool { base, stress }
    }

    fn faces(dice: &[DieRoll]) -> Vec<u32> {
        dice.iter().map(|d| d.face).collect()
    }

    #[test]
    fn a_six_is_a_success_and_each_additional_six_a_stunt() {
        // 002: "Base Dice: Attribute + Skill + Gear."
        // 002: "A 6 is a success. Each additional 6 can be used to do a Stunt."
        let r = entered_stress(&pool(4, 0), &overview(), true, &[6, 3, 6, 6], &[]).unwrap();
        assert_eq!((r.successes, r.stunts), (3, 2));
        let per_die: Vec<_> = r.base.iter().map(|d| d.successes.unwrap()).collect();
        assert_eq!(per_die, vec![1, 0, 1, 1]);
        let one = entered_stress(&pool(2, 0), &overview(), true, &[6, 5], &[]).unwrap();
        assert_eq!((one.successes, one.stunts), (1, 0));
        let none = entered_stress(&pool(2, 0), &overview(), true, &[5, 5], &[]).unwrap();
        assert_eq!((none.successes, none.stunts), (0, 0));
        // A 6 on a stress die succeeds too.
        let r = entered_stress(&pool(1, 2), &overview(), true, &[6], &[6, 3]).unwrap();
        assert_eq!((r.successes, r.stunts), (2, 1));
        assert_eq!(r.source, RollSource::Hand);
        assert_eq!(r.stress_added, 0);
    }

    #[test]
    fn a_one_on_a_stress_die_triggers_a_panic_roll() {
        // 002: "Stress Dice: Stress level"
        // 002: "A 1 on a Stress Dice triggers a Panic Roll which may cancel action"
        let r = entered_stress(&pool(2, 2), &overview(), true, &[6, 2], &[1, 4]).unwrap();
        assert!(r.panic);
        assert!(!r.can_push);
        assert_eq!((faces(&r.base), faces(&r.stress)), (vec![6, 2], vec![1, 4]));
        // A 1 on a base die does nothing of the kind.
        let r = entered_stress(&pool(2, 1), &overview(), true, &[1, 1], &[4]).unwrap();
        assert!(!r.panic);
        assert!(r.can_push);
    }

    #[test]
    fn pushing_adds_a_stress_die_and_rerolls_all_non_sixes() {
        // 002: "Pushing: If no 1s show on Stress Dice, you may add 1 STRESS
        // LEVEL (and the associated die) then reroll all non-6s."
        let r = entered_stress(&pool(3, 2), &overview(), true, &[6, 2, 5], &[6, 3]).unwrap();
        assert!(r.can_push);
        assert_eq!(r.push_dice(), pool(2, 2));
        let p = r.pushed_by_hand(&[6, 1], &[1, 4]).unwrap();
        assert_eq!(faces(&p.base), vec![6, 6, 1]);
        assert_eq!(faces(&p.stress), vec![6, 1, 4]);
        assert_eq!(p.base[0].replaced, Vec::<u32>::new());
        assert_eq!(p.base[1].replaced, vec![2]);
        assert_eq!(p.base[2].replaced, vec![5]);
        assert_eq!(p.stress[1].replaced, vec![3]);
        assert!(p.stress[2].replaced.is_empty());
        assert_eq!(p.stress_added, 1);
        assert_eq!((p.successes, p.stunts), (3, 2));
        // The 1 the push threw on a stress die means panic, and no second push.
        assert!(p.panic);
        assert!(!p.can_push);
        assert_eq!(
            p.pushed(&mut Dice::seeded(0)),
            Err(PushError::Panic { face: 1 })
        );
        assert_eq!(
            p.pushed_by_hand(&[2], &[2, 2]).unwrap_err().to_string(),
            "a stress die shows 1, which triggers a panic roll: the roll cannot be pushed"
        );

        // By the app, from a seed.
        let mut dice = Dice::seeded(5);
        let p = r.pushed(&mut dice).unwrap();
        assert_eq!((p.base.len(), p.stress.len()), (3, 3));
        assert_eq!((p.base[0].face, p.stress[0].face), (6, 6));
        assert_eq!(p.source, RollSource::Hand, "the source stays as it was");
        assert_eq!(p, r.pushed(&mut Dice::seeded(5)).unwrap());
    }

    #[test]
    fn a_push_may_follow_a_push_without_panic() {
        // The text sets no limit; each push adds one more stress level.
        let r = entered_stress(&pool(1, 0), &overview(), true, &[3], &[]).unwrap();
        let once = r.pushed_by_hand(&[4], &[5]).unwrap();
        let twice = once.pushed_by_hand(&[6], &[2, 3]).unwrap();
        assert_eq!(twice.stress_added, 2);
        assert_eq!(faces(&twice.stress), vec![2, 3]);
        assert_eq!(twice.base[0].replaced, vec![3, 4]);
        assert_eq!(twice.successes, 1);
    }

    #[test]
    fn synthetics_have_no_stress_dice_and_cannot_push() {
        // 002 (Synthetics): "Rolls - Cannot push skill roles or have stress die"
        let r = Dice::seeded(3)
            .roll_stress(&pool(3, 4), &overview(), false)
            .unwrap();
        assert_eq!((r.base.len(), r.stress.len()), (3, 0));
        assert!(!r.panic && !r.can_push);
        assert_eq!(
            r.pushed(&mut Dice::seeded(3)),
            Err(PushError::NotStressable)
        );
        let by_hand = entered_stress(&pool(2, 4), &overview(), false, &[1, 2], &[]).unwrap();
        assert!(by_hand.stress.is_empty());
        assert_eq!(
            by_hand.pushed_by_hand(&[3, 3], &[3]),
            Err(PushError::NotStressable)
        );
        assert!(matches!(
            entered_stress(&pool(2, 4), &overview(), false, &[1, 2], &[1, 1, 1, 1]),
            Err(DiceError::WrongCount {
                expected: 0,
                got: 4,
                ..
            })
        ));
    }

    #[test]
    fn difficulty_takes_base_dice_first_then_stress_dice() {
        // 002: "Difficulty Modifiers: Adjust # of dice (Base Dice first, then
        // Stress Dice)."
        let s = pool(3, 2).with_difficulty(2);
        assert_eq!((s.to, s.base_added, s.unapplied), (pool(5, 2), 2, 0));
        let s = pool(3, 2).with_difficulty(-2);
        assert_eq!(s.to, pool(1, 2));
        assert_eq!((s.base_removed, s.stress_removed), (2, 0));
        let s = pool(3, 2).with_difficulty(-4);
        assert_eq!(s.to, pool(0, 1));
        assert_eq!((s.base_removed, s.stress_removed), (3, 1));
        let s = pool(3, 2).with_difficulty(-9);
        assert_eq!(s.to, pool(0, 0));
        assert_eq!((s.base_removed, s.stress_removed, s.unapplied), (3, 2, 4));
        assert_eq!((s.from, s.requested), (pool(3, 2), -9));
        let s = pool(3, 2).with_difficulty(0);
        assert_eq!(s.to, s.from);
        let s = pool(u32::MAX - 1, 0).with_difficulty(i32::MAX);
        assert_eq!((s.to.base, s.base_added), (u32::MAX, 1));
        assert_eq!(s.unapplied, i32::MAX.unsigned_abs() - 1);
        let s = pool(0, 0).with_difficulty(i32::MIN);
        assert_eq!((s.to, s.unapplied), (pool(0, 0), 1 << 31));
    }

    #[test]
    fn the_numbers_are_the_rules_not_the_code() {
        // A d10 game with success on 10 and panic on 2.
        let rules = StressRules {
            sides: 10,
            success: 10,
            panic: 2,
        };
        let r = entered_stress(&pool(2, 2), &rules, true, &[10, 6], &[1, 10]).unwrap();
        assert_eq!((r.successes, r.stunts, r.panic), (2, 1, false));
        let p = r.pushed_by_hand(&[9], &[2, 8]).unwrap();
        assert_eq!(faces(&p.stress), vec![2, 10, 8]);
        assert!(p.panic);
        assert_eq!(
            entered_stress(&pool(1, 0), &rules, true, &[11], &[]),
            Err(DiceError::NotAFace {
                value: 11,
                sides: 10
            })
        );
    }

    #[test]
    fn entered_dice_are_checked() {
        let r = entered_stress(&pool(2, 1), &overview(), true, &[1], &[1]);
        assert_eq!(
            r.unwrap_err().to_string(),
            "the base pool needs 2 dice, but 1 were given"
        );
        let r = entered_stress(&pool(1, 1), &overview(), true, &[1], &[]);
        assert_eq!(
            r.unwrap_err().to_string(),
            "the stress pool needs 1 dice, but 0 were given"
        );
        assert_eq!(
            entered_stress(&pool(1, 1), &overview(), true, &[0], &[1]),
            Err(DiceError::NotAFace { value: 0, sides: 6 })
        );
        assert_eq!(
            entered_stress(&pool(1, 1), &overview(), true, &[1], &[7]),
            Err(DiceError::NotAFace { value: 7, sides: 6 })
        );

        let r = entered_stress(&pool(2, 1), &overview(), true, &[6, 2], &[3]).unwrap();
        assert_eq!(
            r.pushed_by_hand(&[1, 1], &[1, 1]).unwrap_err().to_string(),
            "a push of the base pool needs 1 dice, but 2 were given"
        );
        assert_eq!(
            r.pushed_by_hand(&[1], &[1]).unwrap_err().to_string(),
            "a push of the stress pool (the new die last) needs 2 dice, but 1 were given"
        );
        assert_eq!(
            r.pushed_by_hand(&[9], &[1, 1]),
            Err(PushError::Dice(DiceError::NotAFace { value: 9, sides: 6 }))
        );
    }

    #[test]
    fn pools_are_limited_in_size() {
        // 99 base dice and 1 stress die: a push would throw a 101st die.
        let most = pool(StressPool::MAX_DICE - 1, 1);
        let r = entered_stress(&most, &overview(), true, &[3; 99], &[4]).unwrap();
        assert!(!r.panic && !r.can_push);
        assert!(matches!(
            r.pushed(&mut Dice::seeded(1)),
            Err(PushError::Dice(DiceError::OutOfRange { .. }))
        ));
        let r = Dice::seeded(1)
            .roll_stress(&most, &overview(), true)
            .unwrap();
        assert_eq!(r.base.len() + r.stress.len(), 100);
        let too_many = pool(u32::MAX, u32::MAX);
        assert!(matches!(
            Dice::seeded(1).roll_stress(&too_many, &overview(), true),
            Err(DiceError::OutOfRange {
                part: "dice count",
                ..
            })
        ));
        // A synthetic's stress does not count, as it is never rolled.
        let r = Dice::seeded(1)
            .roll_stress(&pool(100, u32::MAX), &overview(), false)
            .unwrap();
        assert_eq!(r.base.len(), 100);
        // No dice at all is a roll with nothing in it.
        let r = Dice::seeded(1)
            .roll_stress(&pool(0, 0), &overview(), true)
            .unwrap();
        assert_eq!(
            (r.successes, r.stunts, r.panic, r.can_push),
            (0, 0, false, true)
        );
    }

    #[test]
    fn bad_rules_are_refused() {
        for (rules, message) in [
            (
                StressRules {
                    sides: 1,
                    ..overview()
                },
                "bad dice rules: stress pool dice need 2 to 1000 sides, not 1",
            ),
            (
                StressRules {
                    success: 7,
                    ..overview()
                },
                "bad dice rules: success face 7 is not a face of a d6",
            ),
            (
                StressRules {
                    panic: 0,
                    ..overview()
                },
                "bad dice rules: panic face 0 is not a face of a d6",
            ),
            (
                StressRules {
                    panic: 6,
                    ..overview()
                },
                "bad dice rules: 6 cannot be both the success face and the panic face",
            ),
        ] {
            assert_eq!(rules.validate().unwrap_err().to_string(), message);
            assert!(
                Dice::seeded(0)
                    .roll_stress(&pool(1, 1), &rules, true)
                    .is_err()
            );
            assert!(entered_stress(&pool(1, 1), &rules, true, &[1], &[1]).is_err());
        }
    }

    #[test]
    fn rolls_round_trip_through_json_and_rules_come_from_a_pack() {
        let from_pack: StressRules =
            serde_json::from_str(r#"{ "sides": 6, "success": 6, "panic": 1 }"#).unwrap();
        assert_eq!(from_pack, overview());
        let r = Dice::seeded(8)
            .roll_stress(&pool(4, 3), &overview(), true)
            .unwrap();
        assert_eq!(r.source, RollSource::App { seed: 8 });
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<StressRoll>(&json).unwrap(), r);
        let shift = pool(1, 2).with_difficulty(-2);
        let json = serde_json::to_string(&shift).unwrap();
        assert_eq!(
            serde_json::from_str::<DifficultyShift>(&json).unwrap(),
            shift
        );
    }
}

#[cfg(test)]
mod props {
    use proptest::prelude::*;

    use super::*;

    /// Any valid rules: a die of 2 to 20 sides, distinct success and panic faces.
    fn valid_rules() -> impl Strategy<Value = StressRules> {
        (2u32..=20)
            .prop_flat_map(|sides| (Just(sides), 1..=sides, 1..sides))
            .prop_map(|(sides, success, other)| StressRules {
                sides,
                success,
                // Skips over the success face, so the two always differ.
                panic: if other >= success { other + 1 } else { other },
            })
    }

    fn valid_pool() -> impl Strategy<Value = StressPool> {
        (0u32..=60, 0u32..=39).prop_map(|(base, stress)| StressPool { base, stress })
    }

    fn all_faces(roll: &StressRoll) -> Vec<u32> {
        roll.base
            .iter()
            .chain(&roll.stress)
            .map(|d| d.face)
            .collect()
    }

    proptest! {
        // A push never loses a success, and throws exactly one die more.
        #[test]
        fn pushing_keeps_successes_and_adds_one_die(
            rules in valid_rules(),
            pool in valid_pool(),
            seed in any::<u64>(),
        ) {
            let mut dice = Dice::seeded(seed);
            let r = dice.roll_stress(&pool, &rules, true).expect("rolls");
            let pushed = r.pushed(&mut dice);
            prop_assert_eq!(r.can_push, pushed.is_ok());
            prop_assert_eq!(r.can_push, !r.panic);
            if let Ok(p) = pushed {
                prop_assert!(p.successes >= r.successes);
                prop_assert_eq!(p.base.len() as u32, pool.base);
                prop_assert_eq!(p.stress.len() as u32, pool.stress + 1);
                prop_assert_eq!((p.base.len() + p.stress.len()) as u32, pool.base + pool.stress + 1);
                prop_assert_eq!(p.stress_added, r.stress_added + 1);
                // Successes stay as they were; every other die is thrown again.
                for (old, new) in r.base.iter().chain(&r.stress).zip(p.base.iter().chain(&p.stress)) {
                    if old.face == rules.success {
                        prop_assert_eq!(old, new);
                    } else {
                        prop_assert_eq!(&new.replaced, &vec![old.face]);
                    }
                }
            } else {
                prop_assert!(r.stress.iter().any(|d| d.face == rules.panic));
            }
        }

        // The flags say what the faces say.
        #[test]
        fn a_roll_reads_its_faces(rules in valid_rules(), pool in valid_pool(), seed in any::<u64>(), stressable in any::<bool>()) {
            let r = Dice::seeded(seed).roll_stress(&pool, &rules, stressable).expect("rolls");
            prop_assert_eq!(r.base.len() as u32, pool.base);
            prop_assert_eq!(r.stress.len() as u32, if stressable { pool.stress } else { 0 });
            prop_assert!(all_faces(&r).iter().all(|f| (1..=rules.sides).contains(f)));
            let successes = all_faces(&r).iter().filter(|&&f| f == rules.success).count() as u32;
            prop_assert_eq!(r.successes, successes);
            prop_assert_eq!(r.stunts, successes.saturating_sub(1));
            prop_assert_eq!(r.panic, r.stress.iter().any(|d| d.face == rules.panic));
            prop_assert_eq!(r.can_push, stressable && !r.panic);
        }

        // A penalty takes base dice before stress dice and never goes below
        // zero; a bonus adds base dice.
        #[test]
        fn difficulty_never_goes_negative_and_takes_base_first(
            base in 0u32..=1000,
            stress in 0u32..=1000,
            modifier in -3000i32..=3000,
        ) {
            let from = StressPool { base, stress };
            let s = from.with_difficulty(modifier);
            let wanted = i64::from(base) + i64::from(stress) + i64::from(modifier);
            prop_assert_eq!(s.to.total() as i64, wanted.max(0));
            prop_assert_eq!(i64::from(s.unapplied), (-wanted).max(0));
            prop_assert_eq!(s.to.base, base + s.base_added - s.base_removed);
            prop_assert_eq!(s.to.stress, stress - s.stress_removed);
            if modifier >= 0 {
                prop_assert_eq!(s.base_added, modifier.unsigned_abs());
                prop_assert_eq!(s.to.stress, stress);
            } else {
                prop_assert_eq!(s.base_added, 0);
                prop_assert_eq!(s.base_removed, modifier.unsigned_abs().min(base));
            }
            if s.stress_removed > 0 {
                prop_assert_eq!(s.to.base, 0);
                prop_assert_eq!(s.base_removed, base);
            }
        }

        // The faces of a roll, entered by hand, make the same roll; so do the
        // faces of its push.
        #[test]
        fn entered_faces_reproduce_the_roll(
            rules in valid_rules(),
            pool in valid_pool(),
            seed in any::<u64>(),
            stressable in any::<bool>(),
        ) {
            let mut dice = Dice::seeded(seed);
            let r = dice.roll_stress(&pool, &rules, stressable).expect("rolls");
            let by_hand = entered_stress(
                &pool, &rules, stressable, &faces_of(&r.base), &faces_of(&r.stress),
            ).expect("valid faces");
            prop_assert_eq!(&by_hand, &StressRoll { source: RollSource::Hand, ..r.clone() });

            if let Ok(p) = r.pushed(&mut dice) {
                let thrown = |old: &[DieRoll], new: &[DieRoll]| -> Vec<u32> {
                    new.iter()
                        .enumerate()
                        .filter(|(i, _)| old.get(*i).is_none_or(|d| d.face != rules.success))
                        .map(|(_, d)| d.face)
                        .collect()
                };
                let need = by_hand.push_dice();
                let base = thrown(&r.base, &p.base);
                let stress = thrown(&r.stress, &p.stress);
                prop_assert_eq!((base.len() as u32, stress.len() as u32), (need.base, need.stress));
                let again = by_hand.pushed_by_hand(&base, &stress).expect("valid faces");
                prop_assert_eq!(again, StressRoll { source: RollSource::Hand, ..p });
            }
        }

        // The same seed gives the same roll, and the same push.
        #[test]
        fn same_seed_same_roll(rules in valid_rules(), pool in valid_pool(), seed in any::<u64>()) {
            let roll = || {
                let mut dice = Dice::seeded(seed);
                let r = dice.roll_stress(&pool, &rules, true).expect("rolls");
                let p = r.pushed(&mut dice).ok();
                (r, p)
            };
            prop_assert_eq!(roll(), roll());
        }

        // Faces off the die are refused, wherever they are.
        #[test]
        fn faces_off_the_die_are_refused(
            rules in valid_rules(),
            base in 1u32..=10,
            which in any::<prop::sample::Index>(),
            zero in any::<bool>(),
        ) {
            let mut faces = vec![rules.success; base as usize];
            let bad = if zero { 0 } else { rules.sides + 1 };
            let at = which.index(faces.len());
            faces[at] = bad;
            let pool = StressPool { base, stress: 0 };
            prop_assert_eq!(
                entered_stress(&pool, &rules, true, &faces, &[]),
                Err(DiceError::NotAFace { value: bad, sides: rules.sides })
            );
        }
    }

    fn faces_of(dice: &[DieRoll]) -> Vec<u32> {
        dice.iter().map(|d| d.face).collect()
    }
}
