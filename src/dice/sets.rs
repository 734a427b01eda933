//! Sets of equal faces among dice rolled together (doubles, triples…), as
//! a roll scored by counting reads them.

use std::collections::BTreeMap;

/// How many dice show each value, by value.
pub fn equal_faces(values: &[u32]) -> BTreeMap<u32, usize> {
    let mut out = BTreeMap::new();
    for v in values {
        *out.entry(*v).or_insert(0) += 1;
    }
    out
}

/// The sets the dice make, as (value, size): each group of equal values
/// counts as the largest of `sizes` it holds, or, with `nest`, as every
/// one of `sizes` it holds (a triple is a double too).
pub fn sets_of(values: &[u32], sizes: &[usize], nest: bool) -> Vec<(u32, usize)> {
    let mut sorted: Vec<usize> = sizes.iter().copied().filter(|n| *n >= 2).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = Vec::new();
    for (value, held) in equal_faces(values) {
        let fits = sorted.iter().copied().filter(|n| *n <= held);
        if nest {
            out.extend(fits.map(|n| (value, n)));
        } else if let Some(n) = fits.max() {
            out.push((value, n));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_triple_is_a_double_only_when_sets_nest() {
        let dice = [4, 4, 4, 2, 2, 1];
        assert_eq!(sets_of(&dice, &[2, 3], false), [(2, 2), (4, 3)]);
        assert_eq!(sets_of(&dice, &[2, 3], true), [(2, 2), (4, 2), (4, 3)]);
        // Four of a kind where the largest set is a triple: a triple.
        assert_eq!(sets_of(&[6, 6, 6, 6], &[2, 3], false), [(6, 3)]);
        assert_eq!(sets_of(&[1, 2, 3], &[2, 3], false), []);
    }

    proptest! {
        #[test]
        fn each_group_makes_at_most_one_set_unless_they_nest(
            dice in prop::collection::vec(1u32..=6, 0..30),
            sizes in prop::collection::vec(0usize..6, 0..4),
        ) {
            let plain = sets_of(&dice, &sizes, false);
            let nested = sets_of(&dice, &sizes, true);
            let groups = equal_faces(&dice);
            // No value twice without nesting; every set fits its group.
            let mut values: Vec<u32> = plain.iter().map(|(v, _)| *v).collect();
            values.dedup();
            prop_assert_eq!(values.len(), plain.len());
            for (v, n) in plain.iter().chain(&nested) {
                prop_assert!(groups[v] >= *n && *n >= 2 && sizes.contains(n));
            }
            // Nesting only adds: the largest set of each group is in both.
            prop_assert!(nested.len() >= plain.len());
            for set in &plain {
                prop_assert!(nested.contains(set));
            }
        }
    }
}
