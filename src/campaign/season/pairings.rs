//! Pairings (`[pairings]`): who plays whom in a cycle, made once a cycle
//! by whoever runs the campaign, in one of the ways the pack allows —
//! every gang against every other once over the season (round robin),
//! down the standings each against the nearest not yet met, or drawn
//! from a seed. With an odd number of gangs one sits out: a gang that has
//! sat out the fewest cycles, so a different one each cycle until every
//! gang has. Pure.

use std::collections::{BTreeMap, BTreeSet};

use rand::SeedableRng as _;
use rand::seq::SliceRandom as _;
use serde::{Deserialize, Serialize};

use crate::campaign::GangId;
use crate::rules::PairingMethod;

/// A cycle's pairings as made: the way, its seed where drawn, the pairs
/// and the gang that sits out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairings {
    pub cycle: u32,
    pub method: PairingMethod,
    /// The seed a random draw was made from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub pairs: Vec<[GangId; 2]>,
    /// The gang left over where the number is odd.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sits_out: Option<GangId>,
}

impl Pairings {
    /// Every gang the pairings place, paired or sitting out.
    pub fn gangs(&self) -> impl Iterator<Item = GangId> + '_ {
        self.pairs.iter().flatten().copied().chain(self.sits_out)
    }

    /// Whether two gangs are a pair of these.
    pub fn pairs(&self, a: GangId, b: GangId) -> bool {
        self.pairs.iter().any(|p| *p == [a, b] || *p == [b, a])
    }
}

/// Two gangs, the lower id first: how a meeting is counted.
pub fn met_key(a: GangId, b: GangId) -> (GangId, GangId) {
    (a.min(b), a.max(b))
}

/// What pairings are made from: the gangs (in standings order, first to
/// last, where the standings pair them), the earlier cycles' pairings, and
/// the pairs that have met in a record this season.
pub struct Ground<'a> {
    pub gangs: &'a [GangId],
    pub earlier: &'a [Pairings],
    pub played: &'a BTreeSet<(GangId, GangId)>,
}

impl Ground<'_> {
    /// Whether two gangs have met: in a record, or paired before.
    fn met(&self, a: GangId, b: GangId) -> bool {
        self.played.contains(&met_key(a, b)) || self.earlier.iter().any(|p| p.pairs(a, b))
    }

    /// How many cycles each gang has sat out.
    fn sat_out(&self) -> BTreeMap<GangId, usize> {
        let mut out = BTreeMap::new();
        for g in self.earlier.iter().filter_map(|p| p.sits_out) {
            *out.entry(g).or_insert(0) += 1;
        }
        out
    }

    /// Of `order`, the first gang that has sat out the fewest cycles.
    fn sitter(&self, order: impl Iterator<Item = GangId> + Clone) -> Option<GangId> {
        let sat = self.sat_out();
        let fewest = order
            .clone()
            .map(|g| sat.get(&g).copied().unwrap_or(0))
            .min()?;
        order
            .into_iter()
            .find(|g| sat.get(g).copied().unwrap_or(0) == fewest)
    }
}

/// Makes cycle `cycle`'s pairings by `method` (`seed` for a draw).
pub fn make(method: PairingMethod, ground: &Ground<'_>, cycle: u32, seed: u64) -> Pairings {
    let (pairs, sits_out) = match method {
        PairingMethod::RoundRobin => round_robin(ground),
        PairingMethod::Standings => by_standings(ground),
        PairingMethod::Random => drawn(ground, seed),
    };
    Pairings {
        cycle,
        method,
        seed: (method == PairingMethod::Random).then_some(seed),
        pairs,
        sits_out,
    }
}

type Made = (Vec<[GangId; 2]>, Option<GangId>);

/// The rounds of a round robin of these gangs (the circle method: one
/// fixed, the others turning), each a list of pairs and the gang with no
/// rival that round, where the number is odd.
fn rounds(gangs: &[GangId]) -> Vec<Made> {
    let mut seats: Vec<Option<GangId>> = gangs.iter().copied().map(Some).collect();
    if seats.len() % 2 == 1 {
        seats.push(None);
    }
    let n = seats.len();
    let mut out = Vec::new();
    for _ in 1..n.max(2) {
        let mut pairs = Vec::new();
        let mut bye = None;
        for i in 0..n / 2 {
            match (seats[i], seats[n - 1 - i]) {
                (Some(a), Some(b)) => pairs.push([a, b]),
                (Some(g), None) | (None, Some(g)) => bye = Some(g),
                (None, None) => {}
            }
        }
        out.push((pairs, bye));
        // Every seat but the first moves one along.
        if n > 2 {
            let last = seats.remove(n - 1);
            seats.insert(1, last);
        }
    }
    out
}

/// The round of the round robin (of the gangs in id order) whose pairs
/// have met least so far, the earliest among equals: over as many cycles
/// as it has rounds, every gang meets every other once.
fn round_robin(ground: &Ground<'_>) -> Made {
    let mut gangs = ground.gangs.to_vec();
    gangs.sort();
    let earlier = |[a, b]: &[GangId; 2]| ground.earlier.iter().any(|p| p.pairs(*a, *b));
    rounds(&gangs)
        .into_iter()
        .min_by_key(|(pairs, _)| pairs.iter().filter(|p| earlier(p)).count())
        .unwrap_or_default()
}

/// Down the standings: the gang that sits out first (the lowest placed
/// of those that sat out fewest), then each gang still unpaired against
/// the nearest below it not yet met (the nearest, where it has met all).
fn by_standings(ground: &Ground<'_>) -> Made {
    let mut left: Vec<GangId> = ground.gangs.to_vec();
    let sits_out = if left.len() % 2 == 1 {
        ground.sitter(left.iter().rev().copied())
    } else {
        None
    };
    left.retain(|g| Some(*g) != sits_out);
    let mut pairs = Vec::new();
    while !left.is_empty() {
        let first = left.remove(0);
        let Some(at) = left
            .iter()
            .position(|g| !ground.met(first, *g))
            .or((!left.is_empty()).then_some(0))
        else {
            break;
        };
        pairs.push([first, left.remove(at)]);
    }
    (pairs, sits_out)
}

/// Drawn from a seed: the gangs (in id order) shuffled, the first of
/// those that sat out fewest sitting out, the rest paired in turn.
fn drawn(ground: &Ground<'_>, seed: u64) -> Made {
    let mut order = ground.gangs.to_vec();
    order.sort();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    order.shuffle(&mut rng);
    let sits_out = if order.len() % 2 == 1 {
        ground.sitter(order.iter().copied())
    } else {
        None
    };
    order.retain(|g| Some(*g) != sits_out);
    let pairs = order.chunks_exact(2).map(|p| [p[0], p[1]]).collect();
    (pairs, sits_out)
}

/// Checks a cycle's pairings as they stand against the gangs of the
/// game: every gang once, paired or sitting out; a gang sits out only
/// where their number is odd. The field at fault and why, where not.
pub fn check(pairings: &Pairings, gangs: &[GangId]) -> Result<(), (String, String)> {
    let mut seen = BTreeSet::new();
    for (i, pair) in pairings.pairs.iter().enumerate() {
        if pair[0] == pair[1] {
            return Err((
                format!("pairings.pairs[{i}]"),
                "a pair is of two gangs".to_owned(),
            ));
        }
        for g in pair {
            if !seen.insert(*g) {
                return Err((
                    format!("pairings.pairs[{i}]"),
                    format!("gang #{g} is paired twice"),
                ));
            }
        }
    }
    if let Some(g) = pairings.sits_out
        && !seen.insert(g)
    {
        return Err((
            "pairings.sits_out".to_owned(),
            format!("gang #{g} is paired and sits out"),
        ));
    }
    if let Some(g) = seen.iter().find(|g| !gangs.contains(g)) {
        return Err((
            "pairings.pairs".to_owned(),
            format!("gang #{g} does not play this game"),
        ));
    }
    if let Some(g) = gangs.iter().find(|g| !seen.contains(g)) {
        return Err((
            "pairings.pairs".to_owned(),
            format!("gang #{g} is neither paired nor sitting out"),
        ));
    }
    if pairings.sits_out.is_some() != (gangs.len() % 2 == 1) {
        return Err((
            "pairings.sits_out".to_owned(),
            "a gang sits out where their number is odd, and only there".to_owned(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: i64) -> Vec<GangId> {
        (1..=n).map(GangId).collect()
    }

    fn season(method: PairingMethod, n: i64, cycles: u32) -> Vec<Pairings> {
        let gangs = ids(n);
        let played = BTreeSet::new();
        let mut made: Vec<Pairings> = Vec::new();
        for cycle in 1..=cycles {
            let ground = Ground {
                gangs: &gangs,
                earlier: &made,
                played: &played,
            };
            let p = make(method, &ground, cycle, u64::from(cycle));
            check(&p, &gangs).unwrap();
            made.push(p);
        }
        made
    }

    #[test]
    fn a_round_robin_meets_every_pair_once_and_sits_each_out_once() {
        for n in [4, 5, 6, 7] {
            let rounds = if n % 2 == 0 { n - 1 } else { n };
            let made = season(PairingMethod::RoundRobin, n, u32::try_from(rounds).unwrap());
            let mut met = BTreeSet::new();
            for p in &made {
                for [a, b] in &p.pairs {
                    assert!(met.insert(met_key(*a, *b)), "{n}: {a} and {b} met twice");
                }
            }
            assert_eq!(met.len(), usize::try_from(n * (n - 1) / 2).unwrap());
            let sat: BTreeSet<GangId> = made.iter().filter_map(|p| p.sits_out).collect();
            assert_eq!(
                sat.len(),
                if n % 2 == 1 {
                    usize::try_from(n).unwrap()
                } else {
                    0
                }
            );
        }
    }

    #[test]
    fn an_odd_number_sits_a_different_gang_out_each_cycle() {
        for method in [PairingMethod::Standings, PairingMethod::Random] {
            let made = season(method, 5, 5);
            let sat: BTreeSet<GangId> = made.iter().filter_map(|p| p.sits_out).collect();
            assert_eq!(sat.len(), 5, "{method:?}");
        }
    }

    #[test]
    fn the_standings_pair_each_with_the_nearest_not_yet_met() {
        let gangs = ids(4);
        let mut played = BTreeSet::new();
        played.insert(met_key(GangId(1), GangId(2)));
        let ground = Ground {
            gangs: &gangs,
            earlier: &[],
            played: &played,
        };
        let p = make(PairingMethod::Standings, &ground, 1, 0);
        assert_eq!(
            p.pairs,
            vec![[GangId(1), GangId(3)], [GangId(2), GangId(4)]]
        );
    }

    #[test]
    fn a_draw_is_the_same_from_the_same_seed() {
        let gangs = ids(6);
        let played = BTreeSet::new();
        let ground = Ground {
            gangs: &gangs,
            earlier: &[],
            played: &played,
        };
        let a = make(PairingMethod::Random, &ground, 1, 42);
        assert_eq!(a, make(PairingMethod::Random, &ground, 1, 42));
        assert_eq!(a.seed, Some(42));
    }

    #[test]
    fn pairings_that_leave_a_gang_out_are_refused() {
        let gangs = ids(3);
        let p = Pairings {
            cycle: 1,
            method: PairingMethod::RoundRobin,
            seed: None,
            pairs: vec![[GangId(1), GangId(2)]],
            sits_out: None,
        };
        assert!(check(&p, &gangs).is_err());
    }
}
