//! Titles: the gang with the most (or the fewest) of a resource holds its
//! title. Pure.
//!
//! The pack names the titles and their resources; how ties and second place
//! are settled are the pack's rulings (`title-ties`, `title-second-place`),
//! implemented here as kinds of rule.

use std::collections::{BTreeMap, BTreeSet};

use super::GangId;
use crate::rules::{Comparison, Pack, TieRule, TitleCount, TitleDef};

/// Title id → the gang holding it.
pub type TitleHolders = BTreeMap<String, GangId>;

/// The result of comparing the gangs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Award {
    /// The holders after the comparison.
    pub holders: TitleHolders,
    /// (title, from, to) for every title whose holder changes.
    pub changes: Vec<(String, Option<GangId>, Option<GangId>)>,
    /// Gangs that qualify for several titles and have not chosen one, with
    /// the titles they qualify for.
    pub must_choose: Vec<(GangId, Vec<String>)>,
}

/// What a gang has of everything its pack's titles compare: its
/// resources, and each title's count of its `fighters` (those on its
/// roster), under [`TitleDef::measure`].
pub fn measures<'a>(
    pack: &Pack,
    resources: &BTreeMap<String, i64>,
    fighters: impl Iterator<Item = &'a super::Fighter> + Clone,
) -> BTreeMap<String, i64> {
    let mut out = resources.clone();
    for title in &pack.titles {
        let Some(count) = &title.count else { continue };
        let on_roster = fighters.clone().filter(|f| f.status.on_roster());
        let n = match TitleCount::parse(count) {
            Ok(TitleCount::Fighters) => i64::try_from(on_roster.count()).unwrap_or(i64::MAX),
            Ok(TitleCount::Counter(id)) => on_roster.fold(0i64, |sum, f| {
                sum.saturating_add(f.counter_or_start(pack, &id).unwrap_or(0))
            }),
            Err(_) => 0,
        };
        out.insert(count.clone(), n);
    }
    out
}

/// True when some title of the pack compares a count of fighters.
pub fn counts_fighters(pack: &Pack) -> bool {
    pack.titles.iter().any(|t| t.count.is_some())
}

/// Compares the gangs' resources and says who holds each title.
/// `choices` is the title each gang chose when it qualifies for several.
pub fn award_titles(
    pack: &Pack,
    standings: &[(GangId, BTreeMap<String, i64>)],
    current: &TitleHolders,
    choices: &BTreeMap<GangId, String>,
) -> Award {
    // Looked up once per gang and title: a league of two thousand gangs
    // compares in linear time.
    let by_gang: BTreeMap<GangId, &BTreeMap<String, i64>> =
        standings.iter().map(|(g, r)| (*g, r)).collect();
    let amount = |gang: GangId, resource: &str| {
        by_gang
            .get(&gang)
            .and_then(|r| r.get(resource))
            .copied()
            .unwrap_or(0)
    };
    // The leader of a title among the gangs not excluded: the one gang with
    // the most (above 0) or the fewest; on a tie, as the title says (the
    // current holder if tied, or nobody).
    let leader = |title: &TitleDef, excluded: &BTreeSet<GangId>| {
        let fewest = title.comparison == Comparison::Fewest;
        let eligible: Vec<GangId> = standings
            .iter()
            .map(|(g, _)| *g)
            .filter(|g| !excluded.contains(g) && (fewest || amount(*g, title.measure()) > 0))
            .collect();
        let values = eligible.iter().map(|g| amount(*g, title.measure()));
        let best = if fewest { values.min()? } else { values.max()? };
        let top: Vec<GangId> = eligible
            .into_iter()
            .filter(|g| amount(*g, title.measure()) == best)
            .collect();
        match (top.as_slice(), title.ties) {
            ([one], _) => Some(*one),
            (_, TieRule::Nobody) => None,
            (tied, TieRule::HolderKeeps) => {
                current.get(&title.id).copied().filter(|h| tied.contains(h))
            }
        }
    };

    let no_one = BTreeSet::new();
    let first: Vec<(String, String, Option<GangId>)> = pack
        .titles
        .iter()
        .map(|t| (t.id.clone(), t.measure().to_owned(), leader(t, &no_one)))
        .collect();

    let one_per_gang = pack.title_rules.as_ref().is_some_and(|r| r.one_per_gang);
    let standing_choice = pack.title_rules.as_ref().is_some_and(|r| r.keep_held);
    let mut award = Award::default();
    if !one_per_gang {
        for (title, _, gang) in &first {
            if let Some(gang) = gang {
                award.holders.insert(title.clone(), *gang);
            }
        }
    } else {
        let mut qualifies: BTreeMap<GangId, Vec<String>> = BTreeMap::new();
        for (title, _, gang) in &first {
            if let Some(gang) = gang {
                qualifies.entry(*gang).or_default().push(title.clone());
            }
        }
        let mut given_up: Vec<(String, String, GangId)> = Vec::new();
        for (gang, titles) in &qualifies {
            if titles.len() == 1 {
                award.holders.insert(titles[0].clone(), *gang);
                continue;
            }
            // A gang keeps the title it holds among those it qualifies for
            // until it chooses another (ruling title-standing-choice).
            let standing = titles
                .iter()
                .find(|t| current.get(*t) == Some(gang))
                .filter(|_| standing_choice);
            match choices
                .get(gang)
                .filter(|c| titles.contains(c))
                .or(standing)
            {
                Some(chosen) => {
                    award.holders.insert(chosen.clone(), *gang);
                    for title in titles.iter().filter(|t| *t != chosen) {
                        let resource = first
                            .iter()
                            .find(|(t, _, _)| t == title)
                            .map(|(_, r, _)| r.clone())
                            .unwrap_or_default();
                        given_up.push((title.clone(), resource, *gang));
                    }
                }
                None => {
                    award.must_choose.push((*gang, titles.clone()));
                    // Until they choose, those titles stay as they are.
                    for title in titles {
                        if let Some(holder) = current.get(title) {
                            award.holders.insert(title.clone(), *holder);
                        }
                    }
                }
            }
        }
        // Second place: the best-placed gang holding no other title.
        for (title, _, _) in given_up {
            let holding: BTreeSet<GangId> = award.holders.values().copied().collect();
            let Some(def) = pack.titles.iter().find(|t| t.id == title) else {
                continue;
            };
            if let Some(second) = leader(def, &holding) {
                award.holders.insert(title, second);
            }
        }
    }
    for t in &pack.titles {
        let from = current.get(&t.id).copied();
        let to = award.holders.get(&t.id).copied();
        if from != to {
            award.changes.push((t.id.clone(), from, to));
        }
    }
    award
}
