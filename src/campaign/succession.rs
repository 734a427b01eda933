//! Who leads a side when its leader leaves, as the pack's `[succession]`
//! ranks its members: the most of a counter or the highest of a stat, ties
//! broken by further ranks, then by who has been in the side longest or by
//! the side's pick.
//!
//! Pure: the caller gives the candidates and how to read their points.

use super::model::{Fighter, FighterId};
use crate::rules::{Rank, SuccessionRule};

/// The most leaders a side of `pack`'s may have with it: its
/// `[recruiting] leaders` (`None`: no upper end), one where it says none.
pub fn most_leaders(pack: &crate::rules::Pack) -> Option<usize> {
    pack.recruiting
        .as_ref()
        .map_or(Some(1), |r| r.leaders.max())
}

/// Whether a side still has a leader with it, besides `leaving`.
pub fn still_led<'a>(side: impl IntoIterator<Item = &'a Fighter>, leaving: &[FighterId]) -> bool {
    side.into_iter()
        .any(|f| f.leader && f.status.with_side() && !leaving.contains(&f.id))
}

/// The members of a side who may lead it next: with their side, not one
/// leaving, and of those the rule names.
pub fn candidates<'a>(
    rule: &SuccessionRule,
    side: impl IntoIterator<Item = &'a Fighter>,
    leaving: &[FighterId],
) -> Vec<&'a Fighter> {
    side.into_iter()
        .filter(|f| f.status.with_side() && !leaving.contains(&f.id))
        .filter(|f| f.is_one_of(rule.who.as_deref()))
        .collect()
}

/// Who the rule names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Successor {
    /// This member, and what ranked them (`Experience 5`).
    Named(FighterId),
    /// These members are tied, and the side picks among them.
    Tied(Vec<FighterId>),
    /// No member may lead.
    NoOne,
}

/// The successor among `candidates` (the members who may lead), ranked by
/// `points`; `picked` is the side's pick where a tie asks for one.
pub fn successor(
    rule: &SuccessionRule,
    candidates: &[&Fighter],
    points: impl Fn(&Fighter, &Rank) -> i64,
    picked: Option<FighterId>,
) -> Successor {
    let ranks: Vec<Rank> = std::iter::once(&rule.by)
        .chain(&rule.ties)
        .filter_map(|r| Rank::parse(r).ok())
        .collect();
    let mut left: Vec<&Fighter> = candidates.to_vec();
    for rank in &ranks {
        let Some(best) = left.iter().map(|f| points(f, rank)).max() else {
            return Successor::NoOne;
        };
        left.retain(|f| points(f, rank) == best);
    }
    match left.as_slice() {
        [] => Successor::NoOne,
        [one] => Successor::Named(one.id),
        tied => {
            if rule.ties.last().is_some_and(|t| t == "first") {
                return tied
                    .iter()
                    .map(|f| f.id)
                    .min()
                    .map_or(Successor::NoOne, Successor::Named);
            }
            match picked.filter(|p| tied.iter().any(|f| f.id == *p)) {
                Some(p) => Successor::Named(p),
                None => Successor::Tied(tied.iter().map(|f| f.id).collect()),
            }
        }
    }
}
