//! Groups that share one profile, after a record: what one member of a
//! group gained or lost in it (counters, entries, lasting effects), every
//! other member on the roster gains or loses too, whether or not they
//! took part. Members are still out of action, dead or captured one by
//! one. Pure.

use super::*;
use crate::campaign::MemberGroup;

impl Run<'_> {
    /// The members of each group on the roster as the record leaves them,
    /// by group.
    fn groups_now(&self) -> BTreeMap<(GangId, MemberGroup), Vec<FighterId>> {
        let mut out: BTreeMap<(GangId, MemberGroup), Vec<FighterId>> = BTreeMap::new();
        for f in self.fighters.values().filter(|f| f.status.on_roster()) {
            if let Some(group) = &f.group {
                out.entry((f.gang, group.clone())).or_default().push(f.id);
            }
        }
        out
    }

    /// Every group whose profile changed in the record: its counters and
    /// entries shared out from the first member they changed for, and the
    /// lasting effects the record gave any member given to every other.
    pub(super) fn share_in_groups(&mut self) -> Result<(), ReportError> {
        // This record's own lasting effects, before any is shared.
        let made = self.state.next_effect.0..self.next_effect.unwrap_or(i64::MAX);
        let changed: std::collections::BTreeSet<FighterId> = self
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::CounterChanged { .. }
                        | Event::QuirksChanged { .. }
                        | Event::LastingEffectAdded { .. }
                )
            })
            .filter_map(Event::fighter)
            .collect();
        for ((_, group), members) in self.groups_now() {
            let Some(&from) = members.iter().find(|m| changed.contains(m)) else {
                continue;
            };
            for &to in members.iter().filter(|m| **m != from) {
                self.share_counters(from, to, &group);
                self.share_entries(from, to);
            }
            for &one in &members {
                for &to in members.iter().filter(|m| **m != one) {
                    self.share_lasting(one, to, &made)?;
                }
            }
        }
        Ok(())
    }

    /// The group's counters, from one member to another.
    fn share_counters(&mut self, from: FighterId, to: FighterId, group: &MemberGroup) {
        // The member's own keys only, not every counter of the campaign.
        let counters: Vec<(String, i64)> = self
            .counters
            .range((from, String::new())..)
            .take_while(|((f, _), _)| *f == from)
            .map(|((_, c), v)| (c.clone(), *v))
            .collect();
        for (counter, value) in counters {
            if self.counter_now(to, &counter) != value {
                let reason = format!("{}: shared by {}", self.noun_of_record(), group.name);
                self.set_counter(to, &counter, value, reason);
            }
        }
    }

    /// The group's entries, from one member to another.
    fn share_entries(&mut self, from: FighterId, to: FighterId) {
        let Some(quirks) = self.fighters.get(&from).map(|f| f.quirks.clone()) else {
            return;
        };
        let Some(member) = self.fighters.get_mut(&to) else {
            return;
        };
        if member.quirks == quirks {
            return;
        }
        let was = std::mem::replace(&mut member.quirks, quirks.clone());
        self.events.push(Event::QuirksChanged {
            fighter: to,
            from: was,
            to: quirks,
        });
    }

    /// The lasting effects the record gave one member (its own, with ids
    /// in `made`), given to another.
    fn share_lasting(
        &mut self,
        from: FighterId,
        to: FighterId,
        made: &std::ops::Range<i64>,
    ) -> Result<(), ReportError> {
        let new: Vec<LastingEffect> = self
            .lasting
            .iter()
            .filter(|e| e.fighter == from && made.contains(&e.id.0))
            .cloned()
            .collect();
        for effect in new {
            let Some(next) = self.next_effect else {
                return refuse("campaign", "the campaign has no lasting-effect id left");
            };
            self.next_effect = next.checked_add(1);
            let copy = LastingEffect {
                id: EffectId(next),
                fighter: to,
                ..effect
            };
            self.lasting.push(copy.clone());
            self.events.push(Event::LastingEffectAdded { effect: copy });
        }
        Ok(())
    }
}
