//! History: the campaign log, and the one undo/redo model the window and
//! the command line share. It lives in the log itself, so it outlives
//! closing the campaign and both faces always undo the same thing.
//!
//! Nothing here decides what a change is (that is `commands.rs` and
//! `records.rs`); it only reads the log and takes batches back.

use anyhow::{Context as _, Result};
use serde::Serialize;

use super::{CampaignDump, LogEntry, Session};
use crate::campaign::{BatchId, Event};

/// What undo and redo would take back, by label.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct History {
    pub undo: Option<String>,
    pub redo: Option<String>,
}

impl Session {
    /// Takes back a batch (or redoes an undone one).
    pub fn undo(&mut self, batch: BatchId) -> Result<BatchId> {
        let mut gate = crate::campaign::gate::Gate::new(&self.base, &self.registry);
        let new = self
            .store
            .undo(batch, &mut |state, e, back| gate.check(state, e, back))
            .with_context(|| format!("cannot undo change #{batch}"))?;
        self.after_house_change(new)?;
        Ok(new)
    }

    /// What undo and redo would take back now, by the labels of their
    /// changes: the one history the app and the command line share, kept
    /// in the campaign log (so it outlives closing the campaign).
    pub fn history(&self) -> Result<History> {
        let label = |batch: Option<BatchId>| -> Result<Option<String>> {
            Ok(match batch {
                Some(b) => Some(self.store.batch(b)?.0),
                None => None,
            })
        };
        Ok(History {
            undo: label(self.store.newest_undoable()?)?,
            redo: label(self.store.newest_redoable()?)?
                .map(|l| l.strip_prefix("Undo: ").map_or(l.clone(), str::to_owned)),
        })
    }

    /// Takes back the newest change still in effect. Returns the new
    /// batch and its label, or `None` when there is nothing to undo.
    pub fn undo_last(&mut self) -> Result<Option<(BatchId, String)>> {
        let Some(batch) = self.store.newest_undoable()? else {
            return Ok(None);
        };
        self.step(batch).map(Some)
    }

    /// Redoes the newest undo since the last new change. Returns the new
    /// batch and its label, or `None` when there is nothing to redo.
    pub fn redo_last(&mut self) -> Result<Option<(BatchId, String)>> {
        let Some(batch) = self.store.newest_redoable()? else {
            return Ok(None);
        };
        self.step(batch).map(Some)
    }

    fn step(&mut self, batch: BatchId) -> Result<(BatchId, String)> {
        let next = self.undo(batch)?;
        let label = self.store.batch(next)?.0;
        Ok((next, label))
    }

    /// The newest `limit` events of the log, newest first.
    pub fn log(&self, limit: usize) -> Result<Vec<LogEntry>> {
        Ok(self.store.log(limit)?)
    }

    /// The batches that hold no event (a league's change left out, kept in
    /// its place with the reason), newest first.
    pub fn empty_batches(&self, limit: usize) -> Result<Vec<crate::store::EmptyBatch>> {
        Ok(self.store.empty_batches(limit)?)
    }

    /// The newest batch, to tell whether anything changed since.
    pub fn newest_batch(&self) -> Result<Option<BatchId>> {
        Ok(self.store.newest_batch()?)
    }

    /// A batch's label and events.
    pub fn batch(&self, batch: BatchId) -> Result<(String, Vec<Event>)> {
        Ok(self.store.batch(batch)?)
    }

    /// A batch's label (`Recruit Vex into Neon Jackals`).
    pub fn batch_label(&self, batch: BatchId) -> Result<String> {
        Ok(self.store.batch(batch)?.0)
    }

    /// How many batches the log holds.
    pub fn batch_count(&self) -> Result<i64> {
        Ok(self.store.batch_count()?)
    }

    /// The whole state of the campaign, for comparing before and after an
    /// undo.
    pub fn dump(&self) -> Result<CampaignDump> {
        Ok(self.store.dump()?)
    }

    /// Commits events built elsewhere (an import, another program's
    /// change in a test) as one batch, checked like any other.
    pub fn commit_events(&mut self, label: &str, events: &[Event]) -> Result<BatchId> {
        self.commit(label, events.to_vec())
    }
}
