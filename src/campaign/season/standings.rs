//! The standings (`[standings]`): the gangs ranked by a measure, each
//! measure after it breaking the ties left, and places shared when all
//! are level. Pure: worked out when shown, never stored.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use crate::campaign::battle::Battle;
use crate::campaign::{Fighter, Gang, GangId};
use crate::rules::{Pack, Ranked, StandingMeasure, StandingsDef};

/// How one record finished: each side's place, 1 first, sides level on a
/// place sharing it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Finishes {
    pub places: Vec<(GangId, u32)>,
}

impl Finishes {
    /// A record's finishes: its sides' places where it has them; else its
    /// winner first and the rest second, or all level without a winner.
    pub fn of(battle: &Battle) -> Finishes {
        let places = battle
            .gangs
            .iter()
            .map(|g| {
                let place = g.place.unwrap_or(match battle.winner {
                    Some(w) if w != g.gang => 2,
                    _ => 1,
                });
                (g.gang, place)
            })
            .collect();
        Finishes { places }
    }

    fn place_of(&self, gang: GangId) -> Option<u32> {
        self.places
            .iter()
            .find(|(g, _)| *g == gang)
            .map(|(_, p)| *p)
    }

    /// Whether the gang took part.
    pub fn has(&self, gang: GangId) -> bool {
        self.place_of(gang).is_some()
    }

    /// Whether the gang placed first, alone.
    pub fn won_by(&self, gang: GangId) -> bool {
        self.place_of(gang) == Some(1) && self.places.iter().filter(|(_, p)| *p == 1).count() == 1
    }

    /// Which of two gangs placed ahead of the other, where both took part
    /// and they were not level.
    fn ahead(&self, a: GangId, b: GangId) -> Option<GangId> {
        let (pa, pb) = (self.place_of(a)?, self.place_of(b)?);
        match pa.cmp(&pb) {
            Ordering::Less => Some(a),
            Ordering::Greater => Some(b),
            Ordering::Equal => None,
        }
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub gang: GangId,
    /// 1 first; gangs level on every measure share a place.
    pub place: u32,
    /// Whether another gang shares the place.
    pub shared: bool,
    /// The gang's value of each measure of `by`, in order (`None` for
    /// head-to-head, which is between two gangs only).
    pub values: Vec<Option<i64>>,
}

/// What a gang has of every measure the standings read.
pub struct Measured<'a> {
    pub gang: &'a Gang,
    pub fighters: Vec<&'a Fighter>,
    pub holdings: usize,
}

/// A gang's value of one measure (head-to-head has none of its own).
fn value(
    pack: &Pack,
    of: &Measured<'_>,
    measure: &StandingMeasure,
    results: &[Finishes],
) -> Option<i64> {
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let gang = of.gang.id;
    match measure {
        StandingMeasure::Resource(id) => Some(
            of.gang
                .resources
                .get(id)
                .copied()
                .unwrap_or_else(|| pack.resource(id).map_or(0, |r| r.start)),
        ),
        StandingMeasure::Counter(id) => Some(
            of.fighters
                .iter()
                .filter(|f| f.status.on_roster())
                .fold(0i64, |sum, f| {
                    sum.saturating_add(f.counter_or_start(pack, id).unwrap_or(0))
                }),
        ),
        StandingMeasure::Holdings => Some(count(of.holdings)),
        StandingMeasure::Records => Some(count(results.iter().filter(|r| r.has(gang)).count())),
        StandingMeasure::Wins => Some(count(results.iter().filter(|r| r.won_by(gang)).count())),
        StandingMeasure::HeadToHead => None,
    }
}

/// The standings of these gangs, first to last.
pub fn rank(
    pack: &Pack,
    def: &StandingsDef,
    gangs: &[Measured<'_>],
    results: &[Finishes],
) -> Vec<Standing> {
    let by: Vec<Ranked> = def
        .by
        .iter()
        .filter_map(|b| Ranked::parse(b).ok())
        .collect();
    let values: BTreeMap<GangId, Vec<Option<i64>>> = gangs
        .iter()
        .map(|m| {
            let row = by
                .iter()
                .map(|r| value(pack, m, &r.measure, results))
                .collect();
            (m.gang.id, row)
        })
        .collect();
    // Groups still level, in order; each measure splits them.
    let mut groups: Vec<Vec<GangId>> = vec![gangs.iter().map(|m| m.gang.id).collect()];
    for (i, ranked) in by.iter().enumerate() {
        groups = groups
            .into_iter()
            .flat_map(|group| match ranked.measure {
                StandingMeasure::HeadToHead => head_to_head(group, results),
                _ => split(group, |g| values[g][i].unwrap_or(0), ranked.fewest),
            })
            .collect();
    }
    let mut out = Vec::new();
    let mut place = 1u32;
    for group in groups {
        let shared = group.len() > 1;
        let size = u32::try_from(group.len()).unwrap_or(u32::MAX);
        for gang in group {
            out.push(Standing {
                gang,
                place,
                shared,
                values: values[&gang].clone(),
            });
        }
        place = place.saturating_add(size);
    }
    out
}

/// A group of level gangs split by a value: the most first (or the
/// fewest), equal values still together.
fn split(mut group: Vec<GangId>, value: impl Fn(&GangId) -> i64, fewest: bool) -> Vec<Vec<GangId>> {
    group.sort_by(|a, b| {
        let order = value(a).cmp(&value(b));
        if fewest { order } else { order.reverse() }
    });
    let mut out: Vec<Vec<GangId>> = Vec::new();
    for gang in group {
        match out.last_mut() {
            Some(last) if last.first().is_some_and(|g| value(g) == value(&gang)) => last.push(gang),
            _ => out.push(vec![gang]),
        }
    }
    out
}

/// Of two gangs still level, the one placed ahead of the other in more of
/// the records both played comes first; any other group stays level.
fn head_to_head(group: Vec<GangId>, results: &[Finishes]) -> Vec<Vec<GangId>> {
    let [a, b] = group.as_slice() else {
        return vec![group];
    };
    let (mut a_ahead, mut b_ahead) = (0usize, 0usize);
    for r in results {
        match r.ahead(*a, *b) {
            Some(g) if g == *a => a_ahead += 1,
            Some(_) => b_ahead += 1,
            None => {}
        }
    }
    match a_ahead.cmp(&b_ahead) {
        Ordering::Greater => vec![vec![*a], vec![*b]],
        Ordering::Less => vec![vec![*b], vec![*a]],
        Ordering::Equal => vec![group],
    }
}

/// The gang first in the standings alone, once some gang has scored (its
/// first measure is not 0): who a title of the first in the standings
/// goes to.
pub fn first_alone(standings: &[Standing]) -> Option<GangId> {
    let scored = standings
        .iter()
        .any(|s| s.values.first().copied().flatten().is_some_and(|v| v != 0));
    match standings {
        [first, ..] if scored && !first.shared => Some(first.gang),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finishes(places: &[(i64, u32)]) -> Finishes {
        Finishes {
            places: places.iter().map(|(g, p)| (GangId(*g), *p)).collect(),
        }
    }

    #[test]
    fn head_to_head_breaks_a_tie_of_two_only() {
        let results = [
            finishes(&[(1, 1), (2, 2)]),
            finishes(&[(2, 1), (1, 2), (3, 3)]),
            finishes(&[(1, 1), (3, 2), (2, 3)]),
        ];
        // 1 ahead of 2 twice, 2 ahead of 1 once.
        assert_eq!(
            head_to_head(vec![GangId(2), GangId(1)], &results),
            vec![vec![GangId(1)], vec![GangId(2)]]
        );
        // Three level stay level.
        assert_eq!(
            head_to_head(vec![GangId(1), GangId(2), GangId(3)], &results).len(),
            1
        );
    }

    #[test]
    fn a_split_keeps_equal_values_together() {
        let value = |g: &GangId| [0, 5, 3, 5][g.0 as usize];
        let groups = split(vec![GangId(1), GangId(2), GangId(3)], value, false);
        assert_eq!(groups, vec![vec![GangId(1), GangId(3)], vec![GangId(2)]]);
        let fewest = split(vec![GangId(1), GangId(2), GangId(3)], value, true);
        assert_eq!(fewest, vec![vec![GangId(2)], vec![GangId(1), GangId(3)]]);
    }
}
