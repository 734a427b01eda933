//! Challenges (`[challenges]`): a gang challenging another over a holding
//! at stake, the defender's answer, the report a record of an accepted
//! one starts from, and every challenge as the season holds it — issued,
//! to answer here, accepted, played, declined, lapsed. The rules are
//! `campaign::season::challenges`; this room reads what they need and
//! commits what they decide, one change a batch.

use std::collections::BTreeSet;

use anyhow::{Result, anyhow, bail};
use serde::Serialize;

use super::Session;
use crate::campaign::battle::{BattleReport, GangReport};
use crate::campaign::season::challenges::{self, Challenge, ChallengeStatus};
use crate::campaign::season::cycle_said;
use crate::campaign::{BatchId, BattleId, ChallengeId, GangId};
use crate::rules::{ChallengeStake, Pack};

/// Every challenge of the season, as this laptop sees it.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengesView {
    /// What the game calls one (`Challenge`).
    pub label: String,
    /// What it is, as printed.
    pub text: String,
    /// Whether a challenge names a holding at stake.
    pub stake: ChallengeStake,
    /// What the game calls a holding (`mooring`).
    pub holding_word: String,
    /// The gangs this laptop may issue one from (all, outside a league).
    pub yours: Vec<String>,
    /// The newest first.
    pub lines: Vec<ChallengeLine>,
}

/// One challenge.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengeLine {
    pub id: ChallengeId,
    pub cycle: u32,
    /// Its cycle in the game's words (`Tide 2`).
    pub cycle_said: String,
    pub challenger: String,
    pub challenger_id: GangId,
    pub defender: String,
    pub defender_id: GangId,
    /// The holding at stake, by name.
    pub stake: Option<String>,
    pub status: ChallengeStatus,
    /// The record that played it.
    pub played: Option<BattleId>,
    /// Issued from one of this laptop's gangs.
    pub yours: bool,
    /// Aimed at one of this laptop's gangs, and still to answer.
    pub to_answer: bool,
    /// The line in words: `Challenge #2: Grey Oars against Silt Kings
    /// for Eelgate — accepted`.
    pub said: String,
}

impl ChallengesView {
    /// Issued and waiting for an answer.
    pub fn issued(&self) -> impl Iterator<Item = &ChallengeLine> {
        self.lines
            .iter()
            .filter(|l| l.status == ChallengeStatus::Issued && l.played.is_none())
    }

    /// Aimed at this laptop's gangs and still to answer.
    pub fn to_answer(&self) -> impl Iterator<Item = &ChallengeLine> {
        self.lines.iter().filter(|l| l.to_answer)
    }

    /// Accepted and waiting to be played.
    pub fn accepted(&self) -> impl Iterator<Item = &ChallengeLine> {
        self.lines
            .iter()
            .filter(|l| l.status == ChallengeStatus::Accepted && l.played.is_none())
    }

    /// Unplayed at the end of their cycle.
    pub fn unplayed(&self) -> impl Iterator<Item = &ChallengeLine> {
        self.lines
            .iter()
            .filter(|l| l.status == ChallengeStatus::Lapsed)
    }
}

/// A challenge issued: its batch and number.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengeIssued {
    pub batch: BatchId,
    pub challenge: ChallengeId,
}

/// A challenge answered: its batch, and what the answer did, in words.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengeAnswered {
    pub batch: BatchId,
    pub changes: Vec<String>,
}

impl Session {
    /// The pack of the campaign's game, with its challenges.
    fn challenge_pack(&self) -> Result<&Pack> {
        let pack = self.season_pack()?;
        challenges::rules(pack).map_err(|(_, reason)| anyhow!(reason))?;
        Ok(pack)
    }

    /// Every challenge of the season; `None` where the game has none.
    pub fn challenges(&self) -> Result<Option<ChallengesView>> {
        let pack = self.season_pack()?;
        let Some(rules) = &pack.challenges else {
            return Ok(None);
        };
        let shape = pack.record().shape(&rules.shape);
        let season = self.store.ground().season(false)?;
        let names = self.store.all_names()?.0;
        let name = |g: GangId| names.get(&g).cloned().unwrap_or_else(|| format!("#{g}"));
        let own = self.own_gangs()?;
        let is_own = |g: GangId| own.as_ref().is_none_or(|o| o.contains(&g));
        let mut lines = Vec::new();
        for c in season.challenges.iter().rev() {
            let ch = &c.challenge;
            let stake = ch.stake.as_deref().map(|s| {
                pack.holding(s)
                    .map_or_else(|| s.to_owned(), |h| h.name.clone())
            });
            let status = match c.played {
                Some(b) => format!("played ({} #{b})", pack.record().noun),
                None => c.status.word().to_owned(),
            };
            let said = format!(
                "{} #{}: {} against {}{} — {status}",
                rules.label,
                ch.id,
                name(ch.challenger),
                name(ch.defender),
                stake
                    .as_deref()
                    .map_or(String::new(), |s| format!(" for {s}"))
            );
            lines.push(ChallengeLine {
                id: ch.id,
                cycle: ch.cycle,
                cycle_said: cycle_said(&pack.words, ch.cycle),
                challenger: name(ch.challenger),
                challenger_id: ch.challenger,
                defender: name(ch.defender),
                defender_id: ch.defender,
                stake,
                status: c.status,
                played: c.played,
                yours: is_own(ch.challenger),
                to_answer: c.status == ChallengeStatus::Issued && is_own(ch.defender),
                said,
            });
        }
        let yours = self
            .gangs_of_game(pack)?
            .into_iter()
            .filter(|g| is_own(g.id))
            .map(|g| g.name)
            .collect();
        Ok(Some(ChallengesView {
            label: rules.label.clone(),
            text: rules.text.clone(),
            stake: rules.stake_rule(shape),
            holding_word: pack.words.holding.clone(),
            yours,
            lines,
        }))
    }

    /// Issues a challenge from `challenger` to `defender` (gangs by name),
    /// naming a holding at stake (by name or id) where the game's rules
    /// use one: one change, which its author takes back with undo until it
    /// is answered.
    pub fn issue_challenge(
        &mut self,
        challenger: &str,
        defender: &str,
        stake: Option<&str>,
    ) -> Result<ChallengeIssued> {
        let pack = self.challenge_pack()?;
        let label = pack
            .challenges
            .as_ref()
            .map_or_else(String::new, |c| c.label.clone());
        let (from, to) = (self.gang_named(challenger)?, self.gang_named(defender)?);
        self.may_act_for(from.id, &format!("issue a {label} from"))?;
        let stake =
            match stake {
                Some(name) => Some(pack.find_holding(name).map(|h| h.id.clone()).ok_or_else(
                    || {
                        let known: Vec<&str> =
                            pack.holdings.iter().map(|h| h.name.as_str()).collect();
                        anyhow!(
                            "stake: “{}” is not a {} of {} ({})",
                            crate::text::echo(name),
                            pack.words.holding,
                            pack.pack.name,
                            known.join(", ")
                        )
                    },
                )?),
                None => None,
            };
        let season = self.store.ground().season(false)?;
        let challenge = Challenge {
            id: self.store.next_challenge_id()?,
            cycle: season.cycle,
            challenger: from.id,
            defender: to.id,
            stake,
        };
        let names = self.store.all_names()?.0;
        let name = |g: GangId| names.get(&g).cloned().unwrap_or_else(|| format!("#{g}"));
        challenges::check_issue(pack, &season, &challenge, &name)
            .map_err(|(field, reason)| anyhow!("{field}: {reason}"))?;
        let held = challenge
            .stake
            .as_deref()
            .and_then(|s| pack.holding(s))
            .map_or(String::new(), |h| format!(" for {}", h.name));
        let label = format!(
            "{label} #{}: {} against {}{held}",
            challenge.id, from.name, to.name
        );
        let id = challenge.id;
        let batch = self.commit(
            &label,
            vec![crate::campaign::Event::ChallengeIssued { challenge }],
        )?;
        Ok(ChallengeIssued {
            batch,
            challenge: id,
        })
    }

    /// Answers a challenge, as its defender: accepts it, or declines it
    /// (what a decline gives, as the game says, in the same change).
    pub fn answer_challenge(&mut self, id: ChallengeId, accept: bool) -> Result<ChallengeAnswered> {
        let pack = self.challenge_pack()?;
        let label = pack
            .challenges
            .as_ref()
            .map_or_else(String::new, |c| c.label.clone());
        let season = self.store.ground().season(false)?;
        let found = challenges::find(&season, id).map_err(|(_, reason)| anyhow!(reason))?;
        self.may_act_for(
            found.challenge.defender,
            &format!("answer a {label} aimed at"),
        )?;
        let names = self.store.all_names()?.0;
        let name = |g: GangId| names.get(&g).cloned().unwrap_or_else(|| format!("#{g}"));
        let events = challenges::answer(pack, &season, id, accept, &name)
            .map_err(|(field, reason)| anyhow!("{field}: {reason}"))?;
        let said = self.names()?;
        let changes: Vec<String> = events.iter().map(|e| e.describe(&said)).collect();
        let batch = self.commit(
            &format!(
                "{label} #{id} {}",
                if accept { "accepted" } else { "declined" }
            ),
            events,
        )?;
        Ok(ChallengeAnswered { batch, changes })
    }

    /// The report a record of an accepted challenge starts from: its two
    /// gangs (the challenger marked), its shape and stake, and the
    /// challenge it plays. The players add how each side fared.
    pub fn challenge_report(&self, id: ChallengeId) -> Result<BattleReport> {
        let pack = self.challenge_pack()?;
        let (rules, shape) = challenges::rules(pack).map_err(|(_, r)| anyhow!(r))?;
        let season = self.store.ground().season(false)?;
        let found = challenges::find(&season, id).map_err(|(_, r)| anyhow!(r))?;
        if found.status != ChallengeStatus::Accepted || found.played.is_some() {
            bail!(
                "{} #{id} is {}: only one accepted and unplayed is recorded",
                rules.label,
                if found.played.is_some() {
                    "played"
                } else {
                    found.status.word()
                }
            );
        }
        let side = |gang: GangId, challenger: bool| -> Result<GangReport> {
            Ok(GangReport {
                challenger,
                ..GangReport::named(self.gang(gang)?.name)
            })
        };
        let mut report = BattleReport::empty();
        report.gangs = vec![
            side(found.challenge.challenger, true)?,
            side(found.challenge.defender, false)?,
        ];
        report.shape = Some(shape.label.clone());
        report.stake = found
            .challenge
            .stake
            .as_deref()
            .and_then(|s| pack.holding(s))
            .map(|h| h.name.clone());
        report.challenge = Some(id);
        Ok(report)
    }

    /// The gangs this laptop plays: in a league, its member's, as the
    /// server last said; `None` (every gang) outside a league, and for the
    /// organiser, who may act for any.
    pub(super) fn own_gangs(&self) -> Result<Option<BTreeSet<GangId>>> {
        let Some(tie) = self.store.league()? else {
            return Ok(None);
        };
        let members = self.store.league_members_kept()?;
        let Some(me) = members.iter().find(|m| m.login == tie.login) else {
            return Ok(None);
        };
        if me.organiser {
            return Ok(None);
        }
        Ok(Some(me.gangs.iter().copied().map(GangId).collect()))
    }

    /// Refuses, in a league, to act for a gang that is not this laptop's
    /// member's (the server would refuse the change when sent).
    fn may_act_for(&self, gang: GangId, what: &str) -> Result<()> {
        match self.own_gangs()? {
            Some(own) if !own.contains(&gang) => bail!(
                "{} is not yours in the league: only its member may {what} it",
                self.gang(gang)?.name
            ),
            _ => Ok(()),
        }
    }
}
