//! Upkeep: what the pack's `[record]` does to gangs at the start of every
//! record, before anything in it (a resource that decays), for every gang
//! of the game in the campaign or every gang taking part. A resource held
//! at its floor stays there. Pure.

use super::*;
use crate::rules::UpkeepScope;

impl Run<'_> {
    /// True when `gang` plays the game of this record's pack (its pack, or
    /// one laid over the same base).
    pub(super) fn plays_this_game(&self, gang: &Gang) -> bool {
        let root = |r: &String| {
            self.state
                .roots
                .get(r)
                .cloned()
                .unwrap_or_else(|| r.clone())
        };
        root(&gang.ruleset) == root(&self.pack.pack.id)
    }

    pub(super) fn upkeep(&mut self) -> Result<(), ReportError> {
        for line in &self.pack.record().upkeep {
            let gangs: Vec<GangId> = match line.to {
                UpkeepScope::Record => self.battle.gangs.iter().map(|g| g.gang).collect(),
                UpkeepScope::Campaign => self
                    .state
                    .gangs
                    .iter()
                    .filter(|g| self.plays_this_game(g))
                    .map(|g| g.id)
                    .collect(),
            };
            for gang in gangs {
                for amount in &line.gain {
                    self.gain(gang, amount, 1, None, &line.text, line.ruling.as_deref())?;
                }
            }
        }
        // What upkeep gave is not what the record gained.
        self.gained.clear();
        Ok(())
    }
}
