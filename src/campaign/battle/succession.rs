//! A leader who leaves in a record — gone for good, or held by a rival —
//! is followed by the member the pack's `[succession]` names, in the same
//! record. Pure.

use super::*;
use crate::campaign::succession::{Successor, candidates, still_led, successor};
use crate::rules::{LeaderLeaves, Rank};

impl Run<'_> {
    /// Each side of the record whose leader left in it gets its next one.
    pub(super) fn succession(&mut self) -> Result<(), ReportError> {
        let Some(rule) = self.pack.succession.clone() else {
            return Ok(());
        };
        let gangs: Vec<GangId> = self.battle.gangs.iter().map(|g| g.gang).collect();
        for gang in gangs {
            let left: Vec<(FighterId, LeaderLeaves)> = self
                .state
                .fighters
                .iter()
                .filter(|f| f.gang == gang && f.leader && f.status.on_roster())
                .filter_map(|f| match self.fighters.get(&f.id).map(|now| &now.status) {
                    Some(FighterStatus::Gone { .. }) => Some((f.id, LeaderLeaves::Gone)),
                    Some(FighterStatus::Captured { .. })
                        if !matches!(f.status, FighterStatus::Captured { .. }) =>
                    {
                        Some((f.id, LeaderLeaves::Captured))
                    }
                    _ => None,
                })
                .filter(|(_, how)| rule.applies_when(*how))
                .collect();
            let side = self.fighters.values().filter(|f| f.gang == gang);
            if left.is_empty() || still_led(side, &[]) {
                continue;
            }
            self.next_leader(&rule, gang, &left)?;
        }
        Ok(())
    }

    /// The member who follows the leaders who left, or the pick asked for.
    fn next_leader(
        &mut self,
        rule: &crate::rules::SuccessionRule,
        gang: GangId,
        left: &[(FighterId, LeaderLeaves)],
    ) -> Result<(), ReportError> {
        let roll = format!("succession: {}", self.name(gang));
        self.roll_names.push(roll.clone());
        let side = self.fighters.values().filter(|f| f.gang == gang);
        let candidates: Vec<Fighter> = candidates(rule, side, &[]).into_iter().cloned().collect();
        let picked = self.pick(&roll).map(|name| {
            candidates
                .iter()
                .find(|f| crate::text::same(&f.name, &name))
                .map(|f| f.id)
                .ok_or(name)
        });
        let picked = match picked {
            Some(Err(name)) => {
                return refuse(
                    format!("picks[{roll}]"),
                    format!("“{name}” may not lead {}", self.name(gang)),
                );
            }
            Some(Ok(id)) => Some(id),
            None => None,
        };
        let refs: Vec<&Fighter> = candidates.iter().collect();
        let points = |f: &Fighter, rank: &Rank| self.rank_points(f.id, rank);
        let word = self.pack.words.leader.clone();
        match successor(rule, &refs, points, picked) {
            Successor::NoOne => {
                self.line(
                    Some(gang),
                    format!("no one may be the next {word}"),
                    &rule.source,
                    rule.ruling.as_deref(),
                );
            }
            Successor::Tied(ids) => {
                let options: Vec<String> = ids.iter().map(|id| self.fighter_label(*id)).collect();
                self.needed.push(NeededChoice {
                    field: "picks".into(),
                    gang: self.name(gang),
                    rule: roll,
                    text: format!("pick the next {word}: tied"),
                    options,
                });
            }
            Successor::Named(id) => {
                for (old, _) in left {
                    self.set_leader(*old, false);
                }
                self.set_leader(id, true);
                let rank = Rank::parse(&rule.by).ok();
                let by = rank.as_ref().map_or_else(String::new, |r| {
                    format!(" ({} {})", self.rank_label(r), self.rank_points(id, r))
                });
                let gone: Vec<String> = left.iter().map(|(f, _)| self.fighter_label(*f)).collect();
                self.line(
                    Some(gang),
                    format!(
                        "{} is the next {word}, after {}{by}",
                        self.fighter_label(id),
                        gone.join(", ")
                    ),
                    &rule.source,
                    rule.ruling.as_deref(),
                );
            }
        }
        Ok(())
    }

    /// A member's points of what ranks them.
    fn rank_points(&self, fighter: FighterId, rank: &Rank) -> i64 {
        match rank {
            Rank::Counter(id) => self.counter_now(fighter, id),
            Rank::Stat(id) => self.stat_now(fighter, id).map_or(0, |(v, ..)| v),
        }
    }

    fn rank_label(&self, rank: &Rank) -> String {
        match rank {
            Rank::Counter(id) => self.pack.counter_title(id),
            Rank::Stat(id) => self
                .pack
                .stat(id)
                .map_or_else(|| id.clone(), |s| s.title().to_owned()),
        }
    }

    /// Marks a member as a leader or not, with its event.
    fn set_leader(&mut self, fighter: FighterId, to: bool) {
        let Some(f) = self.fighters.get_mut(&fighter) else {
            return;
        };
        if f.leader == to {
            return;
        }
        f.leader = to;
        self.events.push(Event::LeaderChanged {
            fighter,
            from: !to,
            to,
        });
    }
}
