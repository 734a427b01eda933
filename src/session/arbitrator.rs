//! The arbitrator's table: a club's season at a glance, for the organiser
//! and members alike — this cycle and who has played how many in it, its
//! pairings and challenges, the standings; in a league, who has not synced
//! since when (from the server when online, else as the last sync heard
//! it) and the league's changes left out here, each with why. One read
//! model for the window's Season screen and `rapsheet season`.

use anyhow::Result;
use serde::Serialize;

use super::{ChallengesView, CycleView, PairingsView, SeasonView, Session, StandingsView};
use crate::campaign::BatchId;
use crate::store::league::Member;

/// The season at a glance.
#[derive(Debug, Clone, Serialize)]
pub struct SeasonTable {
    /// The cycle and who has played how many in it; `None` where the game
    /// has no cycles.
    pub cycle: Option<CycleView>,
    /// This cycle's pairings, played and not.
    pub pairings: Option<PairingsView>,
    /// Every challenge: issued, to answer here, accepted, played,
    /// declined, unplayed.
    pub challenges: Option<ChallengesView>,
    pub standings: Option<StandingsView>,
    /// In a league, its members and when each last synced.
    pub league: Option<LeagueTable>,
}

/// The league's part of the table.
#[derive(Debug, Clone, Serialize)]
pub struct LeagueTable {
    /// Whether the members' syncs are the server's now (else as the last
    /// sync heard them).
    pub asked: bool,
    /// Why the server could not be asked, where it was asked and was not
    /// reached.
    pub offline: Option<String>,
    /// When this laptop last met the server.
    pub last_sync: Option<String>,
    /// Every member, the longest unsynced first (those never synced
    /// before all).
    pub members: Vec<MemberSynced>,
    /// The league's changes left out here, oldest first.
    pub left_out: Vec<LeftOut>,
}

/// A member and their last sync.
#[derive(Debug, Clone, Serialize)]
pub struct MemberSynced {
    pub login: String,
    pub organiser: bool,
    /// Their gangs, by name.
    pub gangs: Vec<String>,
    /// When their laptop last synced (RFC 3339, the server's clock);
    /// `None`: not since the server kept it.
    pub synced_at: Option<String>,
    /// The league's changes made since their last sync.
    pub behind: Option<i64>,
}

/// A league's change this laptop (like every other) left out.
#[derive(Debug, Clone, Serialize)]
pub struct LeftOut {
    pub change: BatchId,
    pub at: String,
    /// Who sent it.
    pub by: Option<String>,
    /// What it was and why it was left out (`Forged name — it carries …`).
    pub said: String,
}

impl Session {
    /// The arbitrator's table. With `ask_server`, in a league, the
    /// members' last syncs are read from the server (said offline where
    /// it cannot be reached, with those the last sync heard).
    pub fn season_table(&self, ask_server: bool) -> Result<SeasonTable> {
        self.table_with(self.cycle_view()?, self.standings()?, ask_server)
    }

    /// The arbitrator's table beside the season `view` already read: its
    /// cycle and standings taken from it, not worked out again.
    pub fn season_table_beside(&self, view: &SeasonView, ask_server: bool) -> Result<SeasonTable> {
        self.table_with(view.cycle.clone(), view.standings.clone(), ask_server)
    }

    /// The table around a cycle and standings.
    fn table_with(
        &self,
        cycle: Option<CycleView>,
        standings: Option<StandingsView>,
        ask_server: bool,
    ) -> Result<SeasonTable> {
        let league = match self.store.league()? {
            Some(tie) => Some(self.league_table(&tie, ask_server)?),
            None => None,
        };
        Ok(SeasonTable {
            cycle,
            pairings: self.pairings()?,
            challenges: self.challenges()?,
            standings,
            league,
        })
    }

    fn league_table(&self, tie: &crate::store::LeagueTie, ask_server: bool) -> Result<LeagueTable> {
        let kept = self.store.league_members_kept()?;
        let (members, head, offline) = if ask_server {
            match self.league_members_asked() {
                Ok((members, head)) => (Some(members), head, None),
                Err(err) => (None, tie.synced, Some(format!("{err:#}"))),
            }
        } else {
            (None, tie.synced, None)
        };
        let asked = members.is_some();
        let names = self.store.all_names()?.0;
        let mut lines: Vec<MemberSynced> = members
            .unwrap_or(kept)
            .into_iter()
            .map(|m: Member| MemberSynced {
                gangs: m
                    .gangs
                    .iter()
                    .map(|g| {
                        names
                            .get(&crate::campaign::GangId(*g))
                            .cloned()
                            .unwrap_or_else(|| format!("#{g}"))
                    })
                    .collect(),
                behind: m
                    .synced
                    .as_ref()
                    .map(|(_, at)| head.saturating_sub(*at).max(0)),
                synced_at: m.synced.map(|(at, _)| at),
                login: m.login,
                organiser: m.organiser,
            })
            .collect();
        lines.sort_by(|a, b| a.synced_at.cmp(&b.synced_at).then(a.login.cmp(&b.login)));
        let left_out = self
            .store
            .league_left_out()?
            .into_iter()
            .map(|b| LeftOut {
                said: b
                    .label
                    .strip_prefix("Left out: ")
                    .unwrap_or(&b.label)
                    .to_owned(),
                change: b.batch,
                at: b.at,
                by: b.author,
            })
            .collect();
        Ok(LeagueTable {
            asked,
            offline,
            last_sync: tie.last_sync.clone(),
            members: lines,
            left_out,
        })
    }
}
