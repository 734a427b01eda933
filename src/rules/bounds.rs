//! The safety bound on the numbers a pack or a battle report may carry.
//!
//! Not a rule of any game: a fence far above what a campaign needs, so
//! that sums and products of checked numbers stay well inside `i64` and a
//! typing slip (or a hostile file) is refused where it comes in, naming the
//! field, instead of wrapping a gang's Supply round to the floor. Pure.

/// The largest magnitude of any number in a pack, a battle report, a
/// manual resource change or a ransom: every such number lies within
/// `-MAX_MAGNITUDE..=MAX_MAGNITUDE`.
pub const MAX_MAGNITUDE: i64 = 1_000_000;

/// True when `n` lies within the bound.
pub fn within_bound(n: i64) -> bool {
    (-MAX_MAGNITUDE..=MAX_MAGNITUDE).contains(&n)
}

/// Refuses a number outside the bound with the sentence every face shows.
pub fn check_bound(n: i64) -> Result<(), String> {
    if within_bound(n) {
        Ok(())
    } else {
        Err(out_of_bound(n))
    }
}

/// Why `n` was refused.
pub fn out_of_bound(n: impl std::fmt::Display) -> String {
    format!("{n} is out of bounds: a number lies between -{MAX_MAGNITUDE} and {MAX_MAGNITUDE}")
}

/// The end of the bound a change in the direction of `direction` (its
/// sign) would cross, as a refusal says it: `past 1000000, the most a
/// number may be`, or `below -1000000, the least a number may be`.
pub fn bound_crossed(direction: i64) -> String {
    if direction < 0 {
        format!("below -{MAX_MAGNITUDE}, the least a number may be")
    } else {
        format!("past {MAX_MAGNITUDE}, the most a number may be")
    }
}

/// A count (`usize`) as a checked number: one too big for `i64` is out of
/// bounds all the same.
pub fn count_as_number(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// True when moving a stored value from `from` to `to` takes it past the
/// bound, further from zero than it was. A value already outside (from an
/// older file) may still be brought back.
pub fn passes_bound(from: i64, to: i64) -> bool {
    !within_bound(to) && to.unsigned_abs() > from.unsigned_abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_is_inclusive_on_both_sides() {
        assert!(within_bound(MAX_MAGNITUDE) && within_bound(-MAX_MAGNITUDE));
        assert!(!within_bound(MAX_MAGNITUDE + 1) && !within_bound(i64::MIN));
    }

    #[test]
    fn a_value_already_past_the_bound_may_come_back() {
        assert!(!passes_bound(i64::MAX, i64::MAX - 1));
        assert!(passes_bound(0, MAX_MAGNITUDE + 1));
        assert!(passes_bound(i64::MIN + 1, i64::MIN));
    }
}
