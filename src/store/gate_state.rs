//! The campaign as the gate ([`crate::campaign::gate`]) reads it: inside
//! the transaction a change is written in, so each event is checked
//! against the state the events before it left.

use rusqlite::{Connection, OptionalExtension as _};

use super::{StoreError, read};
use crate::campaign::gate::State;
use crate::campaign::{BattleId, EffectId, Fighter, FighterId, Gang, GangId, LastingEffect};

/// The campaign read through one connection (an open transaction).
pub(super) struct Reading<'c>(pub(super) &'c Connection);

fn said<T>(result: Result<T, StoreError>) -> Result<T, String> {
    result.map_err(|e| e.to_string())
}

fn said_sql<T>(result: rusqlite::Result<T>) -> Result<T, String> {
    result.map_err(|e| StoreError::from(e).to_string())
}

impl Reading<'_> {
    fn exists(&self, sql: &str, key: impl rusqlite::ToSql) -> Result<bool, String> {
        said_sql(
            self.0
                .prepare_cached(sql)
                .and_then(|mut s| s.query_row([key], |_| Ok(())).optional())
                .map(|row| row.is_some()),
        )
    }

    fn pairs<K: rusqlite::types::FromSql>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<(K, String)>, String> {
        said_sql(self.0.prepare_cached(sql).and_then(|mut s| {
            s.query_map(params, |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()
        }))
    }
}

impl State for Reading<'_> {
    fn gang(&self, id: GangId) -> Result<Option<Gang>, String> {
        said(read::gang(self.0, id))
    }

    fn gang_names(&self) -> Result<Vec<(GangId, String)>, String> {
        self.pairs("SELECT id, name FROM gang", [])
    }

    fn fighter(&self, id: FighterId) -> Result<Option<Fighter>, String> {
        said(read::fighter(self.0, id))
    }

    fn fighter_names(&self, gang: GangId) -> Result<Vec<(FighterId, String)>, String> {
        self.pairs("SELECT id, name FROM fighter WHERE gang_id = ?1", [gang])
    }

    fn lasting_effect(&self, id: EffectId) -> Result<Option<LastingEffect>, String> {
        said(read::lasting_effect(self.0, id))
    }

    fn has_gang(&self, id: GangId) -> Result<bool, String> {
        self.exists("SELECT 1 FROM gang WHERE id = ?1", id)
    }

    fn has_fighter(&self, id: FighterId) -> Result<bool, String> {
        self.exists("SELECT 1 FROM fighter WHERE id = ?1 AND dismissed = 0", id)
    }

    fn has_battle(&self, id: BattleId) -> Result<bool, String> {
        self.exists("SELECT 1 FROM battle WHERE id = ?1", id)
    }

    fn has_photo(&self, key: &str) -> Result<bool, String> {
        self.exists("SELECT 1 FROM photo WHERE hash = ?1", key)
    }

    fn holders(&self) -> Result<std::collections::BTreeMap<String, GangId>, String> {
        said(read::holders(self.0))
    }

    fn season(&self) -> Result<crate::campaign::season::SeasonState, String> {
        said(super::Ground(self.0).season(false))
    }

    fn house_packs(&self) -> Result<Vec<(String, String)>, String> {
        self.pairs("SELECT id, text FROM house_pack ORDER BY rowid", [])
    }
}
