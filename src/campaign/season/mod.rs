//! A campaign season: who holds which holding, which cycle the campaign
//! is in and who has played how many records in it, the standings, and
//! the titles factions hold. Pure.
//!
//! Held things are folded from events like every other state (the store
//! keeps them); standings are worked out from that state when shown,
//! never stored, so undo, merge and sync need nothing of their own.

use std::collections::BTreeMap;

use super::GangId;
use crate::rules::{Pack, Until, Words};

pub mod challenges;
pub mod holdings;
pub mod pairings;
pub mod standings;

/// The season as it stands, as a record's procedure and a cycle's end
/// read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonState {
    /// Holding id → the gang holding it (unclaimed ones are left out).
    pub holders: BTreeMap<String, GangId>,
    /// The cycle the campaign is in, 1 first.
    pub cycle: u32,
    /// How many records each gang has played that counted in this cycle.
    pub played: BTreeMap<GangId, u32>,
    /// Faction title id → the faction holding it.
    pub faction_titles: BTreeMap<String, String>,
    /// How each record finished, oldest first, where a rule reads them
    /// (the standings, a title of the first in them).
    pub results: Vec<standings::Finishes>,
    /// Every challenge of the season, oldest first.
    pub challenges: Vec<challenges::ChallengeState>,
    /// Each cycle's pairings, oldest first.
    pub pairings: Vec<pairings::Pairings>,
}

impl Default for SeasonState {
    fn default() -> Self {
        Self {
            holders: BTreeMap::new(),
            cycle: 1,
            played: BTreeMap::new(),
            faction_titles: BTreeMap::new(),
            results: Vec::new(),
            challenges: Vec::new(),
            pairings: Vec::new(),
        }
    }
}

impl SeasonState {
    /// The holdings a gang holds, by id.
    pub fn held_by(&self, gang: GangId) -> impl Iterator<Item = &str> + '_ {
        self.holders
            .iter()
            .filter(move |(_, g)| **g == gang)
            .map(|(h, _)| h.as_str())
    }

    /// The challenges still to be answered or played.
    pub fn open_challenges(&self) -> impl Iterator<Item = &challenges::ChallengeState> + '_ {
        self.challenges.iter().filter(|c| c.open())
    }

    /// This cycle's pairings, where they are made.
    pub fn pairings_now(&self) -> Option<&pairings::Pairings> {
        self.pairings.iter().find(|p| p.cycle == self.cycle)
    }

    /// How many records a gang has played in this cycle.
    pub fn played(&self, gang: GangId) -> u32 {
        self.played.get(&gang).copied().unwrap_or(0)
    }
}

/// How long something lasts, in the game's words: `the week ends`.
pub fn until_said(words: &Words, until: Until) -> String {
    match until {
        Until::Cycle => format!("the {} ends", words.cycle),
    }
}

/// A cycle in the game's words: `Week 3`.
pub fn cycle_said(words: &Words, cycle: u32) -> String {
    format!("{} {cycle}", crate::text::capitalised(&words.cycle))
}

/// Whether the state of a record's procedure must read the whole season:
/// the pack has cycles (a record may complete one, for every gang), a
/// standings title, or faction titles.
pub fn reads_every_gang(pack: &Pack) -> bool {
    pack.cycles.is_some()
        || !pack.factions.is_empty()
        || pack
            .titles
            .iter()
            .any(|t| !t.holder.is_gang() || t.count.as_deref() == Some("standings"))
}
