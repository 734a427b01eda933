//! Experience: the points of a counter a record awards members for what
//! they did (`[[record.awards]]`), and the rolls (or picks) on a table a
//! member earns for each of the counter's thresholds reached or passed in
//! the record (`thresholds` of a counter). Pure.

use super::*;
use crate::rules::{AwardFor, TableDef};

impl Run<'_> {
    /// Each award of the record, to every member it is for.
    pub(super) fn awards(&mut self) -> Result<(), ReportError> {
        let awards = self.pack.record().awards.clone();
        for award in &awards {
            self.give_award(award, None);
        }
        Ok(())
    }

    /// An award to every member of the record it is for (of one side,
    /// where given).
    pub(super) fn give_award(&mut self, award: &crate::rules::AwardDef, side: Option<GangId>) {
        let Ok(what) = award.for_what() else {
            return;
        };
        // A group gains an award once, as often as the member who earned
        // it most; the rest of the group shares it after the record.
        let mut groups: BTreeMap<crate::campaign::MemberGroup, (FighterId, i64)> = BTreeMap::new();
        let mut earned: Vec<(FighterId, i64)> = Vec::new();
        for bf in self.award_candidates(&what, side) {
            if side.is_some_and(|g| g != bf.gang) {
                continue;
            }
            let times = self.times_awarded(&what, &bf);
            if times == 0 || !self.award_is_for(award, bf.fighter) {
                continue;
            }
            match self.fighters.get(&bf.fighter).and_then(|f| f.group.clone()) {
                Some(group) => {
                    let best = groups.entry(group).or_insert((bf.fighter, 0));
                    best.1 = best.1.max(times);
                }
                None => earned.push((bf.fighter, times)),
            }
        }
        earned.extend(groups.into_values());
        for (fighter, times) in earned {
            let delta = award.amount.saturating_mul(times);
            self.change_counter(
                fighter,
                &award.counter,
                delta,
                &award.text,
                award.ruling.as_deref(),
            );
        }
    }

    /// The members an award may reach: those who took part, or for an
    /// award to the whole side every member of the side (of `side`, or
    /// of every side of the record) still with it, as they took part or
    /// with the pack's default outcome.
    fn award_candidates(&self, what: &AwardFor, side: Option<GangId>) -> Vec<BattleFighter> {
        if *what != AwardFor::Side {
            return self.battle.fighters.clone();
        }
        let sides: Vec<GangId> = match side {
            Some(g) => vec![g],
            None => self.battle.gangs.iter().map(|g| g.gang).collect(),
        };
        let default = self
            .pack
            .default_outcome()
            .map_or_else(String::new, |o| o.id.clone());
        self.fighters
            .values()
            .filter(|f| sides.contains(&f.gang) && f.status.with_side())
            .map(|f| {
                self.battle
                    .fighters
                    .iter()
                    .find(|b| b.fighter == f.id)
                    .cloned()
                    .unwrap_or_else(|| BattleFighter {
                        fighter: f.id,
                        gang: f.gang,
                        outcome: default.clone(),
                        downed_by: None,
                    })
            })
            .collect()
    }

    /// How many times a member of the record earns an award: once, none,
    /// or once for each rival they took down.
    pub(super) fn times_awarded(&self, what: &AwardFor, bf: &BattleFighter) -> i64 {
        let taken_down = self.pack.outcome(&bf.outcome).is_some_and(|o| o.taken_down);
        let leader = self.fighters.get(&bf.fighter).is_some_and(|f| f.leader);
        let yes = match what {
            AwardFor::TookPart | AwardFor::Side => true,
            AwardFor::Standing => !taken_down,
            AwardFor::Outcome(ids) => ids.contains(&bf.outcome),
            AwardFor::WinnersLeader => leader && self.battle.winner == Some(bf.gang),
            AwardFor::Kills => {
                let kills = self
                    .battle
                    .fighters
                    .iter()
                    .filter(|f| f.downed_by == Some(bf.fighter))
                    .count();
                return i64::try_from(kills).unwrap_or(i64::MAX);
            }
        };
        i64::from(yes)
    }

    /// Whether an award reaches a member: one of those it is for, with
    /// the counter.
    fn award_is_for(&self, award: &crate::rules::AwardDef, fighter: FighterId) -> bool {
        self.member_is_for(award.who.as_deref(), fighter)
            && self.has_counter(fighter, &award.counter)
    }

    /// Whether a member is one an award (or a roll) is for: still on the
    /// roster, and one of those `who` names.
    pub(super) fn member_is_for(&self, who: Option<&str>, fighter: FighterId) -> bool {
        self.fighters
            .get(&fighter)
            .is_some_and(|f| f.status.on_roster() && f.is_one_of(who))
    }

    /// The member's thresholds of a counter: the first list whose `who`
    /// takes them.
    fn thresholds_of(
        &self,
        counter: &crate::rules::CounterDef,
        fighter: FighterId,
    ) -> Option<crate::rules::Thresholds> {
        let f = self.fighters.get(&fighter)?;
        counter
            .thresholds
            .iter()
            .find(|t| f.is_one_of(t.who.as_deref()))
            .cloned()
    }

    /// A roll (or a pick) on its table for each threshold a member's
    /// counter reached or passed in this record.
    pub(super) fn thresholds(&mut self) -> Result<(), ReportError> {
        let counters: Vec<crate::rules::CounterDef> = self
            .pack
            .counters
            .iter()
            .filter(|c| !c.thresholds.is_empty())
            .cloned()
            .collect();
        for counter in &counters {
            // Only those whose counter this record changed: not every
            // member of the campaign.
            let members: std::collections::BTreeSet<FighterId> = self
                .events
                .iter()
                .filter_map(|e| match e {
                    Event::CounterChanged {
                        fighter,
                        counter: changed,
                        ..
                    } if *changed == counter.id => Some(*fighter),
                    _ => None,
                })
                .filter(|f| self.fighters.get(f).is_some_and(|f| f.status.on_roster()))
                .collect();
            for fighter in members {
                let before = self
                    .state
                    .fighter(fighter)
                    .and_then(|f| f.counters.get(&counter.id).copied())
                    .or_else(|| counter.start())
                    .unwrap_or(0);
                let now = self.counter_now(fighter, &counter.id);
                if now <= before {
                    continue;
                }
                let Some(list) = self.thresholds_of(counter, fighter) else {
                    continue;
                };
                let Some(table) = self.pack.table(&list.table).cloned() else {
                    continue;
                };
                for at in list.at.iter().filter(|t| before < **t && **t <= now) {
                    let name = self.fighter_label(fighter);
                    let gang = self.fighter_gang(fighter);
                    let how = if list.pick { "a pick of" } else { "a roll on" };
                    self.change(
                        gang,
                        format!(
                            "{name} reaches {} {at}: {how} {}",
                            counter.label,
                            self.table_title(&table)
                        ),
                        &list.source,
                        None,
                    );
                    if list.pick {
                        self.threshold_pick(&table, fighter)?;
                    } else {
                        self.roll_and_apply(&table, fighter, 0, None)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// A row of the table the member's side picks, by its name or its
    /// `on`; asked for by the roll's name until it is given.
    fn threshold_pick(&mut self, table: &TableDef, fighter: FighterId) -> Result<(), ReportError> {
        let roll = self.roll_name(&table.id, fighter);
        self.roll_names.push(roll.clone());
        let options: Vec<String> = table.rows.iter().map(aftermath::display_name).collect();
        let Some(pick) = self.pick(&roll) else {
            let name = self.fighter_label(fighter);
            let text = format!("{name}: pick a result of {}", table.name);
            self.need(&roll, fighter, text, options);
            return Ok(());
        };
        let Some(row) = table
            .rows
            .iter()
            .find(|r| crate::text::same(&aftermath::display_name(r), &pick) || r.on == pick)
            .cloned()
        else {
            return refuse(
                format!("picks[{roll}]"),
                format!("“{pick}” is not one of {}", options.join(", ")),
            );
        };
        let name = self.fighter_label(fighter);
        let gang = self.fighter_gang(fighter);
        self.change(
            gang,
            format!(
                "{name} picks {} of {}",
                aftermath::display_name(&row),
                table.name
            ),
            &table.source,
            row.ruling.as_deref(),
        );
        self.apply_row(table, &row, fighter, &roll, None, None, 0)
    }
}
