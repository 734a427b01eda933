//! Groups of members who share one profile: a group recruited whole, and
//! a change to one member's counters, entries or base stats made to the
//! whole group.

use anyhow::Result;

use super::Session;
use crate::campaign::groups::{NewGroup, recruit_group, shared};
use crate::campaign::{BatchId, Event, Fighter, FighterId, GangId};

impl Session {
    /// Recruits a group whole, in one batch.
    pub fn recruit_group(&mut self, gang: GangId, new: NewGroup) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let pack = self.gang_pack(&gang)?;
        let roster = self.store.fighters(gang.id)?;
        let kept = self.store.dismissed_names(gang.id)?;
        for name in &new.members {
            crate::campaign::commands::check_name_not_kept(&gang, &kept, name, &pack.words)?;
        }
        let first = self.store.next_fighter_id()?;
        let label = format!("Recruit {} into {}", new.name.trim(), gang.name);
        let events = recruit_group(pack, &gang, &roster, first, new)?;
        self.refuse_new_breaks(pack, &gang, &events)?;
        self.commit(&label, events)
    }

    /// The other members of a fighter's group on the roster.
    pub(super) fn group_mates(&self, fighter: FighterId) -> Result<Vec<Fighter>> {
        let f = self.fighter(fighter)?;
        let Some(group) = &f.group else {
            return Ok(Vec::new());
        };
        Ok(self
            .store
            .fighters(f.gang)?
            .into_iter()
            .filter(|m| m.id != f.id && m.status.on_roster() && m.group.as_ref() == Some(group))
            .collect())
    }

    /// A change's events with what they do to a member of a group done to
    /// the whole group.
    pub(super) fn shared_with_group(&self, events: Vec<Event>) -> Result<Vec<Event>> {
        let mut mates = std::collections::BTreeMap::new();
        for e in &events {
            if let Some(f) = e.fighter() {
                mates.insert(f, self.group_mates(f)?);
            }
        }
        Ok(shared(events, |f| {
            mates.get(&f).cloned().unwrap_or_default()
        }))
    }
}
