//! Pairings (`[pairings]`): who plays whom in a cycle, made once a cycle
//! by whoever runs the campaign (in a league, the organiser), as one
//! change, in one of the ways the game allows; and the cycle's pairings
//! shown played and not (a record between a pair's gangs in the cycle
//! plays it). The rules are `campaign::season::pairings`.

use std::collections::BTreeSet;

use anyhow::{Result, anyhow, bail};
use serde::Serialize;

use super::Session;
use crate::campaign::season::cycle_said;
use crate::campaign::season::pairings::{self, Ground, Pairings, met_key};
use crate::campaign::{BatchId, BattleId, Event, GangId};
use crate::rules::PairingMethod;

/// The cycle's pairings, where the game has them.
#[derive(Debug, Clone, Serialize)]
pub struct PairingsView {
    /// What the game calls them (`Fixtures`).
    pub label: String,
    pub text: String,
    /// The ways they may be made, the first the one used when none is
    /// asked for.
    pub methods: Vec<PairingMethod>,
    pub cycle: u32,
    /// The cycle in the game's words (`Tide 2`).
    pub said: String,
    /// This cycle's, once made.
    pub made: Option<MadePairings>,
}

/// A cycle's pairings as made.
#[derive(Debug, Clone, Serialize)]
pub struct MadePairings {
    pub method: PairingMethod,
    pub seed: Option<u64>,
    pub pairs: Vec<PairLine>,
    /// The gang that sits out, where their number is odd.
    pub sits_out: Option<String>,
}

/// One pair, and the records between them in the cycle.
#[derive(Debug, Clone, Serialize)]
pub struct PairLine {
    pub first: String,
    pub first_id: GangId,
    pub second: String,
    pub second_id: GangId,
    /// The records of the cycle the two played together.
    pub played: Vec<BattleId>,
}

/// Pairings made: their batch, and the cycle's pairings now.
#[derive(Debug, Clone, Serialize)]
pub struct PairingsMade {
    pub batch: BatchId,
    pub pairings: PairingsView,
}

impl Session {
    /// The cycle's pairings, made or not; `None` where the game has none.
    pub fn pairings(&self) -> Result<Option<PairingsView>> {
        let pack = self.season_pack()?;
        let Some(rules) = &pack.pairings else {
            return Ok(None);
        };
        let season = self.store.ground().season(false)?;
        let made = match season.pairings_now() {
            Some(p) => Some(self.made_pairings(p)?),
            None => None,
        };
        Ok(Some(PairingsView {
            label: rules.label.clone(),
            text: rules.text.clone(),
            methods: rules.by.clone(),
            cycle: season.cycle,
            said: cycle_said(&pack.words, season.cycle),
            made,
        }))
    }

    /// A cycle's pairings with names, each pair with the records of the
    /// cycle its two played together.
    fn made_pairings(&self, made: &Pairings) -> Result<MadePairings> {
        let names = self.store.all_names()?.0;
        let name = |g: GangId| names.get(&g).cloned().unwrap_or_else(|| format!("#{g}"));
        let sides = self.store.ground().record_sides()?;
        let pairs = made
            .pairs
            .iter()
            .map(|[a, b]| PairLine {
                first: name(*a),
                first_id: *a,
                second: name(*b),
                second_id: *b,
                played: sides
                    .iter()
                    .filter(|s| {
                        s.cycle == Some(made.cycle) && s.gangs.contains(a) && s.gangs.contains(b)
                    })
                    .map(|s| s.record)
                    .collect(),
            })
            .collect();
        Ok(MadePairings {
            method: made.method,
            seed: made.seed,
            pairs,
            sits_out: made.sits_out.map(name),
        })
    }

    /// Makes the cycle's pairings, `by` one of the ways the game allows
    /// (its first where `None`), a draw from `seed`: one change. Refused
    /// where they are made already, and, in a league, for any but the
    /// organiser.
    pub fn make_pairings(&mut self, by: Option<PairingMethod>, seed: u64) -> Result<PairingsMade> {
        let pack = self.season_pack()?;
        let Some(rules) = pack.pairings.clone() else {
            bail!("{} has no [pairings]", pack.pack.name);
        };
        let method = by
            .or(rules.by.first().copied())
            .ok_or_else(|| anyhow!("{} has no way to make {}", pack.pack.name, rules.label))?;
        if !rules.by.contains(&method) {
            let ways: Vec<&str> = rules.by.iter().map(|m| m.word()).collect();
            bail!(
                "by: {} of {} are made {} only, not by {}",
                rules.label,
                pack.pack.name,
                ways.join(" or "),
                method.word()
            );
        }
        if self.own_gangs()?.is_some() {
            bail!(
                "only the league's organiser makes the {} (the league's server refuses them from a member)",
                rules.label
            );
        }
        let season = self.store.ground().season(false)?;
        let said = cycle_said(&pack.words, season.cycle);
        if season.pairings_now().is_some() {
            bail!("the {} of {said} are made already", rules.label);
        }
        let gangs: Vec<GangId> = match method {
            PairingMethod::Standings => self.ranked(pack)?.iter().map(|s| s.gang).collect(),
            _ => self.gangs_of_game(pack)?.iter().map(|g| g.id).collect(),
        };
        if gangs.len() < 2 {
            bail!(
                "{} are made of two {} or more",
                rules.label,
                pack.words.gangs
            );
        }
        let played: BTreeSet<(GangId, GangId)> = self
            .store
            .ground()
            .record_sides()?
            .iter()
            .flat_map(|record| {
                let sides = &record.gangs;
                sides
                    .iter()
                    .flat_map(|a| {
                        sides
                            .iter()
                            .filter(move |b| a < *b)
                            .map(|b| met_key(*a, *b))
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let ground = Ground {
            gangs: &gangs,
            earlier: &season.pairings,
            played: &played,
        };
        let made = pairings::make(method, &ground, season.cycle, seed);
        let label = format!("{} of {said}", rules.label);
        let batch = self.commit(&label, vec![Event::PairingsMade { pairings: made }])?;
        let pairings = self
            .pairings()?
            .ok_or_else(|| anyhow!("the game's pairings went missing"))?;
        Ok(PairingsMade { batch, pairings })
    }
}
