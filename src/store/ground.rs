//! The campaign as a record's procedure reads it, read through one
//! connection: the file's, or the transaction a sync takes the league's
//! batches in with. What a record is worked out from, and what every
//! laptop of a league works a record out again from.

use std::collections::BTreeMap;

use rusqlite::Connection;

use super::{CampaignStore, Result, read};
use crate::campaign::titles::TitleHolders;
use crate::campaign::{EffectId, Fighter, Gang, LastingEffect, PendingEffect};

/// Every gang, fighter, title, pending and lasting effect, the settings,
/// and what heals in time: the campaign's side of a record's procedure.
#[derive(Debug, Clone)]
pub struct Ground {
    pub gangs: Vec<Gang>,
    pub fighters: Vec<Fighter>,
    pub titles: TitleHolders,
    pub pending: Vec<PendingEffect>,
    pub lasting: Vec<LastingEffect>,
    /// The id the next lasting effect gets.
    pub next_effect: EffectId,
    pub settings: BTreeMap<String, String>,
    /// A lasting effect that heals in time → the records its fighter's
    /// gang has played since the one that gave it.
    pub records_since: BTreeMap<EffectId, u32>,
}

impl Ground {
    pub(super) fn read(conn: &Connection) -> Result<Self> {
        Ok(Self {
            gangs: read::gangs(conn)?,
            fighters: read::fighters_kept(conn, false)?,
            titles: read::title_holders(conn)?,
            pending: read::pending_effects(conn)?,
            lasting: read::lasting_effects_where(conn, "", [])?,
            next_effect: read::next_effect_id(conn)?,
            settings: read::settings(conn)?,
            records_since: read::records_since_healing_effects(conn)?,
        })
    }
}

impl CampaignStore {
    /// The campaign as a record's procedure reads it, whole.
    pub fn ground(&self) -> Result<Ground> {
        Ground::read(&self.conn)
    }
}
