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

/// What a title may count of a gang beyond its resources and fighters:
/// the holdings it holds, and whether it is first in the standings alone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeasonCounts {
    pub holdings: usize,
    pub first: bool,
}

/// What a gang has of everything its pack's titles compare: its
/// resources, and each title's count of its `fighters` (those on its
/// roster) or of what it has in the season, under [`TitleDef::measure`].
pub fn measures<'a>(
    pack: &Pack,
    resources: &BTreeMap<String, i64>,
    fighters: impl Iterator<Item = &'a super::Fighter> + Clone,
    season: SeasonCounts,
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
            Ok(TitleCount::Holdings) => i64::try_from(season.holdings).unwrap_or(i64::MAX),
            Ok(TitleCount::Standings) => i64::from(season.first),
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
    let first: Vec<(String, String, Option<GangId>)> = gang_titles(pack)
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
    for t in gang_titles(pack) {
        let from = current.get(&t.id).copied();
        let to = award.holders.get(&t.id).copied();
        if from != to {
            award.changes.push((t.id.clone(), from, to));
        }
    }
    award
}

/// The pack's titles a gang holds (not a faction).
fn gang_titles(pack: &Pack) -> impl Iterator<Item = &TitleDef> {
    pack.titles.iter().filter(|t| t.holder.is_gang())
}

/// The titles factions hold, each measured over its gangs together (the
/// sum of what they have of it): the faction with the most (above none)
/// or the fewest; while the best are tied, as the title's `ties` says.
/// `gangs` is every gang of the game, with its faction and measures.
/// Returns (title, from, to) for every title whose holder changes.
pub fn award_faction_titles(
    pack: &Pack,
    gangs: &[(Option<String>, BTreeMap<String, i64>)],
    current: &BTreeMap<String, String>,
) -> Vec<(String, Option<String>, Option<String>)> {
    let mut changes = Vec::new();
    for title in pack.titles.iter().filter(|t| !t.holder.is_gang()) {
        let mut totals: BTreeMap<&str, i64> =
            pack.factions.iter().map(|f| (f.id.as_str(), 0)).collect();
        for (faction, measures) in gangs {
            let Some(total) = faction.as_deref().and_then(|f| totals.get_mut(f)) else {
                continue;
            };
            *total = total.saturating_add(measures.get(title.measure()).copied().unwrap_or(0));
        }
        let fewest = title.comparison == Comparison::Fewest;
        let eligible: Vec<(&str, i64)> = totals
            .into_iter()
            .filter(|(_, v)| fewest || *v > 0)
            .collect();
        let best = if fewest {
            eligible.iter().map(|(_, v)| *v).min()
        } else {
            eligible.iter().map(|(_, v)| *v).max()
        };
        let top: Vec<&str> = eligible
            .iter()
            .filter(|(_, v)| Some(*v) == best)
            .map(|(f, _)| *f)
            .collect();
        let from = current.get(&title.id).cloned();
        let to = match (top.as_slice(), title.ties) {
            ([one], _) => Some((*one).to_owned()),
            (_, TieRule::Nobody) => None,
            (tied, TieRule::HolderKeeps) => from.clone().filter(|h| tied.contains(&h.as_str())),
        };
        if from != to {
            changes.push((title.id.clone(), from, to));
        }
    }
    changes
}
