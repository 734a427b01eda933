//! Checking a campaign file end to end: SQLite's own integrity check, the
//! foreign keys, and a replay of the whole log into an empty campaign in
//! memory, whose state must equal the file's. A battle half there, an
//! event without its change or a change without its event all show up as
//! a difference.

use rusqlite::{Connection, TransactionBehavior};

use super::{CampaignStore, Result, apply, configure_memory, migrate};
use crate::campaign::{BatchId, Event};

/// What [`CampaignStore::verify`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verification {
    pub batches: usize,
    pub events: usize,
    pub battles: usize,
    /// One line per thing wrong; empty when the file is sound.
    pub problems: Vec<String>,
}

impl Verification {
    pub fn is_sound(&self) -> bool {
        self.problems.is_empty()
    }
}

impl CampaignStore {
    /// Checks the file: SQLite integrity, foreign keys, and that replaying
    /// the log from an empty campaign gives exactly the stored state.
    /// Reads only.
    pub fn verify(&self) -> Result<Verification> {
        let mut out = Verification::default();
        let integrity: Vec<String> = self
            .conn
            .prepare("PRAGMA integrity_check")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        out.problems
            .extend(integrity.into_iter().filter(|line| line != "ok"));
        let broken_keys: Vec<(String, i64, String)> = self
            .conn
            .prepare("PRAGMA foreign_key_check")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (table, row, parent) in broken_keys {
            out.problems
                .push(format!("{table} row {row} refers to a missing {parent}"));
        }
        if !out.problems.is_empty() {
            return Ok(out);
        }

        let log = self.full_log()?;
        out.events = log.len();
        let stored = self.dump()?;
        out.battles = stored.battles.len();

        // The campaign row as it was made: the first rename or ruleset
        // change says what it was before.
        let mut name = stored.info.name.clone();
        let mut ruleset = stored.info.default_ruleset.clone();
        if let Some(from) = log.iter().find_map(|e| match &e.event {
            Event::CampaignRenamed { from, .. } => Some(from.clone()),
            _ => None,
        }) {
            name = from;
        }
        if let Some(from) = log.iter().find_map(|e| match &e.event {
            Event::CampaignRulesetChanged { from, .. } => Some(from.clone()),
            _ => None,
        }) {
            ruleset = from;
        }

        let mut conn = Connection::open_in_memory()?;
        configure_memory(&conn)?;
        migrate(&mut conn, 0)?;
        conn.execute(
            "INSERT INTO campaign (id, name, default_ruleset) VALUES (1, ?1, ?2)",
            (&name, &ruleset),
        )?;
        // Photos are stored beside the log, not in it; their hashes are
        // what the state refers to.
        let photos: Vec<(String, String)> = self
            .conn
            .prepare("SELECT hash, mime FROM photo")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (hash, mime) in photos {
            conn.execute(
                "INSERT INTO photo (hash, mime, bytes) VALUES (?1, ?2, x'')",
                (hash, mime),
            )?;
        }

        let batches: Vec<(BatchId, String, Option<BatchId>)> = self
            .conn
            .prepare("SELECT id, label, undoes FROM batch ORDER BY id")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for (id, label, undoes) in &batches {
            tx.execute(
                "INSERT INTO batch (id, label, undoes) VALUES (?1, ?2, ?3)",
                (id, label, undoes),
            )?;
        }
        for entry in &log {
            if let Err(err) = apply::apply(&tx, &entry.event) {
                out.problems.push(format!(
                    "log entry {} (batch {}, “{}”) does not replay: {err}",
                    entry.id, entry.batch.0, entry.label
                ));
                return Ok(out);
            }
            tx.execute(
                "INSERT INTO event (id, batch_id, kind, gang_id, fighter_id, battle_id, payload) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                (
                    entry.id,
                    entry.batch,
                    entry.event.kind(),
                    entry.event.gang(),
                    entry.event.fighter(),
                    entry.event.battle(),
                    serde_json::to_string(&entry.event)?,
                ),
            )?;
        }
        tx.commit()?;
        out.batches = batches.len();

        let replayed = CampaignStore {
            conn,
            path: self.path.clone(),
            read_only: Some("a replay".into()),
            _lock: None,
        }
        .dump()?;
        let pairs = [
            ("campaign", replayed.info == stored.info),
            ("gangs", replayed.gangs == stored.gangs),
            ("fighters", replayed.fighters == stored.fighters),
            ("battles", replayed.battles == stored.battles),
            ("titles", replayed.titles == stored.titles),
            ("pending effects", replayed.pending == stored.pending),
            ("lasting effects", replayed.lasting == stored.lasting),
        ];
        for (what, same) in pairs {
            if !same {
                out.problems
                    .push(format!("the {what} differ from what the log says"));
            }
        }
        Ok(out)
    }
}
