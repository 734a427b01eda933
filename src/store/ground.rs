//! The campaign as a record's procedure reads it, read through one
//! connection: the file's, or the transaction a sync takes the league's
//! batches in with. What a record is worked out from, and what every
//! laptop of a league works a record out again from.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension as _};

use super::read::FIGHTER_COLUMNS;
use super::{CampaignStore, Result, read};
use crate::campaign::titles::TitleHolders;
use crate::campaign::{EffectId, Fighter, Gang, GangId, LastingEffect, PendingEffect};

/// The campaign's reads a record's procedure makes, through one
/// connection.
#[derive(Clone, Copy)]
pub struct Ground<'c>(pub(super) &'c Connection);

impl Ground<'_> {
    /// Every gang, by name.
    pub fn gangs(&self) -> Result<Vec<Gang>> {
        read::gangs(self.0)
    }

    /// Every fighter of the campaign, by id (not those dismissed).
    pub fn all_fighters(&self) -> Result<Vec<Fighter>> {
        read::fighters_kept(self.0, false)
    }

    pub fn title_holders(&self) -> Result<TitleHolders> {
        read::title_holders(self.0)
    }

    /// Every pending effect, used or not, by id.
    pub fn pending_effects(&self) -> Result<Vec<PendingEffect>> {
        read::pending_effects(self.0)
    }

    /// The pending effects, used or not, of these gangs, by id: one
    /// query down the gangs' index, however many the campaign holds.
    pub fn pending_effects_of(&self, gangs: &[GangId]) -> Result<Vec<PendingEffect>> {
        read::pending_effects_of(self.0, &gang_ids(gangs)?)
    }

    /// Every lasting effect of the campaign, oldest first.
    pub fn all_lasting_effects(&self) -> Result<Vec<LastingEffect>> {
        read::lasting_effects_where(self.0, "", [])
    }

    /// Every lasting effect on the fighters of a gang (removed ones too),
    /// oldest first: two queries, however many.
    pub fn lasting_effects_of_gang(&self, gang: GangId) -> Result<Vec<LastingEffect>> {
        read::lasting_effects_where(
            self.0,
            "WHERE fighter_id IN (SELECT id FROM fighter WHERE gang_id = ?1 AND dismissed = 0)",
            [gang],
        )
    }

    /// The season as it stands: who holds each holding, the cycle, who has
    /// played how many records in it, the titles factions hold, and, with
    /// `results`, how every record finished (for the standings).
    pub fn season(&self, results: bool) -> Result<crate::campaign::season::SeasonState> {
        let cycle = read::cycle(self.0)?;
        Ok(crate::campaign::season::SeasonState {
            holders: read::holders(self.0)?,
            played: read::played_in_cycle(self.0, cycle)?,
            cycle,
            faction_titles: read::faction_titles(self.0)?,
            results: if results {
                read::finishes(self.0)?
            } else {
                Vec::new()
            },
            challenges: read::challenges(self.0)?,
            pairings: read::pairings(self.0)?,
        })
    }

    /// Every record's sides, oldest first: its id, the cycle it counted in
    /// and its gangs.
    pub fn record_sides(&self) -> Result<Vec<read::RecordSides>> {
        read::record_sides(self.0)
    }

    /// The id the next lasting effect will get.
    pub fn next_effect_id(&self) -> Result<EffectId> {
        read::next_effect_id(self.0)
    }

    /// The campaign's settings, setting id → option id.
    pub fn settings(&self) -> Result<BTreeMap<String, String>> {
        read::settings(self.0)
    }

    /// For each lasting effect still on a fighter that heals in time, the
    /// records the fighter's gang has played since the one that gave it.
    pub fn records_since_healing_effects(&self) -> Result<BTreeMap<EffectId, u32>> {
        read::records_since_healing_effects(self.0)
    }

    /// [`Self::records_since_healing_effects`] of the fighters of these
    /// gangs alone, read down the gangs' index.
    pub fn records_since_healing_effects_of(
        &self,
        gangs: &[GangId],
    ) -> Result<BTreeMap<EffectId, u32>> {
        read::records_since_healing_effects_of(self.0, &gang_ids(gangs)?)
    }

    /// The gangs with these ids (those that exist), by id: two queries,
    /// however many are asked for.
    pub fn gangs_by_ids(&self, ids: &[GangId]) -> Result<Vec<Gang>> {
        let ids = gang_ids(ids)?;
        let mut gangs: Vec<Gang> = self
            .0
            .prepare_cached(&format!(
                "{} WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id",
                read::GANG_COLUMNS
            ))?
            .query_map([&ids], read::gang_row)?
            .collect::<rusqlite::Result<_>>()?;
        let mut stmt = self.0.prepare_cached(
            "SELECT gang_id, resource, amount FROM gang_resource \
             WHERE gang_id IN (SELECT value FROM json_each(?1))",
        )?;
        read::fill_resources(&mut gangs, stmt.query_map([&ids], read::resource_row)?)?;
        Ok(gangs)
    }

    /// A gang by name, ignoring case; `Ok(None)` when there is none.
    pub fn gang_by_name(&self, name: &str) -> Result<Option<Gang>> {
        let id: Option<GangId> = self
            .0
            .prepare_cached("SELECT id FROM gang WHERE name = ?1 COLLATE NOCASE")?
            .query_row([name.trim()], |r| r.get(0))
            .optional()?;
        match id {
            Some(id) => read::gang(self.0, id),
            None => Ok(None),
        }
    }

    /// The fighters of these gangs, by id, filled in with four queries in
    /// all however many gangs are asked for.
    pub fn fighters_of(&self, gangs: &[GangId]) -> Result<Vec<Fighter>> {
        let ids = gang_ids(gangs)?;
        let rows: Vec<Fighter> = self
            .0
            .prepare_cached(&format!(
                "{FIGHTER_COLUMNS} WHERE dismissed = 0 \
                 AND gang_id IN (SELECT value FROM json_each(?1)) ORDER BY id"
            ))?
            .query_map([&ids], read::fighter_row)?
            .collect::<rusqlite::Result<_>>()?;
        read::fill_many(
            self.0,
            rows,
            "WHERE fighter_id IN (SELECT id FROM fighter WHERE dismissed = 0 \
             AND gang_id IN (SELECT value FROM json_each(?1)))",
            [&ids],
        )
    }

    /// Every lasting effect on the fighters of these gangs (removed ones
    /// too), oldest first: two queries, however many.
    pub fn lasting_effects_of(&self, gangs: &[GangId]) -> Result<Vec<LastingEffect>> {
        read::lasting_effects_where(
            self.0,
            "WHERE fighter_id IN (SELECT id FROM fighter WHERE dismissed = 0 \
             AND gang_id IN (SELECT value FROM json_each(?1)))",
            [&gang_ids(gangs)?],
        )
    }

    /// A gang's fighters: the leader first, then in the order recruited.
    pub fn fighters(&self, gang: GangId) -> Result<Vec<Fighter>> {
        self.fighters_where("gang_id = ?1 ORDER BY is_leader DESC, id", gang)
    }

    /// The gangs of `rulesets` that lead `resource`: the `places` best
    /// placed, and those tied with the last of them until `places` of that
    /// amount are read, down the standings index. A gang not returned has
    /// no more than every one returned; a tie at the last place is read as
    /// far as `places` of it, however many gangs share it, so a caller that
    /// counts in `places` every gang a comparison may set aside, and one
    /// more, still sees the tie. Only gangs with some of it count (a gang
    /// with none never holds a title), so a league of gangs tied at none
    /// reads no further.
    pub fn resource_leaders(
        &self,
        resource: &str,
        rulesets: &[String],
        places: usize,
    ) -> Result<Vec<GangId>> {
        // Down the standings index, most first, stopping below the last
        // place: as many rows as places (and ties), however many gangs.
        let mut stmt = self.0.prepare_cached(
            "SELECT r.gang_id, r.amount, g.ruleset FROM gang_resource r \
             JOIN gang g ON g.id = r.gang_id \
             WHERE r.resource = ?1 AND r.amount > 0 ORDER BY r.amount DESC",
        )?;
        let mut rows = stmt.query([resource])?;
        let mut out = Vec::new();
        let mut last_place: Option<i64> = None;
        // The gangs read with the amount of the last one read.
        let mut tied: (i64, usize) = (0, 0);
        while let Some(row) = rows.next()? {
            let (gang, amount, ruleset): (GangId, i64, String) =
                (row.get(0)?, row.get(1)?, row.get(2)?);
            if last_place.is_some_and(|last| amount < last) {
                break;
            }
            if !rulesets.contains(&ruleset) {
                continue;
            }
            out.push(gang);
            tied = if tied.0 == amount {
                (amount, tied.1 + 1)
            } else {
                (amount, 1)
            };
            if out.len() >= places && last_place.is_none() {
                last_place = Some(amount);
            }
            if last_place.is_some() && tied.1 >= places {
                break;
            }
        }
        Ok(out)
    }

    /// The fighters a `WHERE` clause (with one gang parameter) picks, filled
    /// in with four queries in all.
    pub(super) fn fighters_where(&self, clause: &str, gang: GangId) -> Result<Vec<Fighter>> {
        let rows: Vec<Fighter> = self
            .0
            .prepare_cached(&format!(
                "{FIGHTER_COLUMNS} WHERE dismissed = 0 AND {clause}"
            ))?
            .query_map([gang], read::fighter_row)?
            .collect::<rusqlite::Result<_>>()?;
        let scope = clause.split(" ORDER BY").next().unwrap_or(clause);
        read::fill_many(
            self.0,
            rows,
            &format!(
                "WHERE fighter_id IN (SELECT id FROM fighter WHERE dismissed = 0 AND {scope})"
            ),
            [gang],
        )
    }
}

/// Gang ids as the JSON array `json_each` reads.
pub(super) fn gang_ids(ids: &[GangId]) -> Result<String> {
    Ok(serde_json::to_string(
        &ids.iter().map(|g| g.0).collect::<Vec<i64>>(),
    )?)
}

impl CampaignStore {
    /// The campaign as a record's procedure reads it.
    pub fn ground(&self) -> Ground<'_> {
        Ground(&self.conn)
    }
}
