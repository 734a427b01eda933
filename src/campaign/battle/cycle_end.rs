//! The end of a cycle (`[cycles]`): each step of `[[cycles.end]]` in the
//! pack's order, for every gang of the game — income from holdings, a
//! resource that decays to a floor, what every gang gains, members laid
//! up until the cycle ends coming back, lasting effects that last until
//! then ending — in the same change as the record that completes the
//! cycle, or on its own when a player ends it. Pure.

use super::*;
use crate::rules::{CycleEnds, CycleStep, CycleStepKind, HoldingDef, Until};

impl Run<'_> {
    /// The gangs of the record's game, in the order the campaign lists
    /// them.
    fn gangs_of_game(&self) -> Vec<GangId> {
        self.state
            .gangs
            .iter()
            .filter(|g| self.plays_this_game(g))
            .map(|g| g.id)
            .collect()
    }

    /// Whether this record completes the cycle: the pack ends a cycle
    /// when every gang has played its limit, and with this record every
    /// gang of the game has.
    pub(super) fn completes_cycle(&self) -> bool {
        let Some(rules) = &self.pack.cycles else {
            return false;
        };
        let (CycleEnds::Played, Some(limit)) = (rules.ends, rules.limit) else {
            return false;
        };
        !self.battle.gangs.is_empty()
            && self.gangs_of_game().iter().all(|g| {
                let here = u32::from(self.battle.gangs.iter().any(|b| b.gang == *g));
                self.state.season.played(*g).saturating_add(here) >= limit
            })
    }

    /// Refuses to end by hand a cycle the pack ends when every gang has
    /// played its share, naming those still to play; one that no record
    /// can end any more (too few gangs are still to play for a record of
    /// the fewest sides, the others having played their share) is a
    /// player's to end.
    pub(super) fn still_to_play(&self) -> Result<(), ReportError> {
        let limit = self.pack.cycles.as_ref().and_then(|c| c.limit).unwrap_or(0);
        let short: Vec<String> = self
            .gangs_of_game()
            .into_iter()
            .filter_map(|g| {
                let played = self.state.season.played(g);
                (played < limit).then(|| format!("{} ({played} of {limit})", self.name(g)))
            })
            .collect();
        if short.len() < self.pack.record().fewest_sides() {
            return Ok(());
        }
        let said = crate::campaign::season::cycle_said(&self.pack.words, self.state.season.cycle);
        refuse(
            "cycle",
            format!(
                "{said} ends when every {} has played {}; still to play: {}",
                self.pack.words.gang,
                self.pack.record().count(limit as usize),
                short.join(", ")
            ),
        )
    }

    /// Ends the cycle: the cycle's end, then each of its steps.
    pub(super) fn end_cycle(&mut self) -> Result<(), ReportError> {
        let Some(rules) = self.pack.cycles.clone() else {
            return Ok(());
        };
        let cycle = self.state.season.cycle;
        let said = crate::campaign::season::cycle_said(&self.pack.words, cycle);
        self.line(
            None,
            format!("{said} ends"),
            &rules.source,
            rules.ruling.as_deref(),
        );
        self.events.push(Event::CycleEnded { cycle });
        self.lapse_challenges();
        for step in &rules.end {
            match step.kind {
                CycleStepKind::Income => self.income(step)?,
                CycleStepKind::Decay => self.decay(step)?,
                CycleStepKind::Gain => {
                    for gang in self.gangs_of_game() {
                        let (text, source) = (step.text.clone(), step.source.clone());
                        self.give_rewards(
                            gang,
                            &step.rewards,
                            &text,
                            &source,
                            step.ruling.as_deref(),
                        )?;
                    }
                }
                CycleStepKind::Returns => self.returns(step, &said),
                CycleStepKind::Effects => self.effects_end(step, &said),
            }
        }
        Ok(())
    }

    /// Every challenge still unanswered or unplayed lapses, first of all
    /// the end does (a stake it gives the challenger is held as the
    /// holdings pay): as the pack says, giving nothing or the stake. The
    /// one this record plays is played.
    fn lapse_challenges(&mut self) {
        let Some(rules) = self.pack.challenges.clone() else {
            return;
        };
        let open: Vec<crate::campaign::season::challenges::ChallengeState> = self
            .state
            .season
            .open_challenges()
            .filter(|c| Some(c.challenge.id) != self.battle.challenge)
            .cloned()
            .collect();
        for c in open {
            let events = crate::campaign::season::challenges::lapse(self.pack, &c, &self.holders);
            let (challenger, defender) = (c.challenge.challenger, c.challenge.defender);
            let text = format!(
                "{} #{} ({} against {}) lapses unplayed",
                rules.label,
                c.challenge.id,
                self.name(challenger),
                self.name(defender)
            );
            self.line(None, text, &rules.source, rules.ruling.as_deref());
            for event in events {
                if let Event::HoldingChanged { holding, to, .. } = &event {
                    let name = self
                        .pack
                        .holding(holding)
                        .map_or_else(|| holding.clone(), |h| h.name.clone());
                    let text = format!("takes {name}, its {} unplayed", rules.label);
                    self.line(*to, text, &rules.source, rules.ruling.as_deref());
                    if let Some(to) = to {
                        self.holders.insert(holding.clone(), *to);
                    }
                }
                self.events.push(event);
            }
        }
    }

    /// Each holding pays its holder: its income, and a roll on its table.
    fn income(&mut self, step: &CycleStep) -> Result<(), ReportError> {
        let held: Vec<(HoldingDef, GangId)> = self
            .pack
            .holdings
            .iter()
            .filter_map(|h| Some((h.clone(), *self.holders.get(&h.id)?)))
            .collect();
        for (holding, gang) in held {
            let text = format!("{}: {}", step.text, holding.name);
            self.give_rewards(
                gang,
                &holding.income,
                &text,
                &step.source,
                step.ruling.as_deref(),
            )?;
            if let Some(table) = holding
                .income_roll
                .as_deref()
                .and_then(|t| self.pack.table(t))
            {
                let table = table.clone();
                self.income_roll(step, &holding, &table, gang)?;
            }
        }
        Ok(())
    }

    /// A holding's roll at the cycle's end, its row's resources to the
    /// holder. The roll is named `<step>: <holding>`.
    fn income_roll(
        &mut self,
        step: &CycleStep,
        holding: &HoldingDef,
        table: &crate::rules::TableDef,
        gang: GangId,
    ) -> Result<(), ReportError> {
        let name = format!("{}: {}", step.id, holding.name);
        if self.rolls_later {
            let text = format!("{}: a roll on {}", holding.name, table.name);
            self.line(Some(gang), text, &table.source, None);
            return Ok(());
        }
        self.roll_names.push(name.clone());
        let field = format!("tables.{}", table.id);
        let expr = crate::dice::parse(&table.roll).map_err(|e| ReportError {
            field: field.clone(),
            reason: e.to_string(),
        })?;
        let record = self.dice_for(&name, &expr, &field)?;
        let (modifier, modifier_text) =
            crate::rules::FighterModifier::total(&crate::rules::FighterModifier::from_holdings(
                self.pack,
                &table.id,
                self.holders
                    .iter()
                    .filter(|(_, g)| **g == gang)
                    .map(|(h, _)| h.as_str())
                    .collect::<Vec<_>>(),
            ));
        let total = record.total.saturating_add(modifier);
        let row = table.lookup(total).cloned();
        let result = row
            .as_ref()
            .map_or_else(|| "no row".to_owned(), aftermath::display_name);
        self.events.push(Event::TableRolled {
            battle: self.record_id(),
            fighter: None,
            table: table.id.clone(),
            roll: record.clone(),
            modifier,
            total,
            row: row.as_ref().map_or_else(String::new, |r| r.on.clone()),
            result: result.clone(),
        });
        let said = self.roll_said(&record, table, &modifier_text, total, &result);
        let line = format!("{}: {said}", holding.name);
        self.line(Some(gang), line, &table.source, None);
        self.rolls.push(RollMade {
            roll: name.clone(),
            fighter: None,
            table: table.id.clone(),
            record,
            modifier,
            modifier_text,
            total,
            result,
        });
        let Some(row) = row else { return Ok(()) };
        for effect in &row.effects {
            if let crate::rules::Effect::Resource { resource, amount } = effect {
                let gain = crate::rules::Amount {
                    resource: resource.clone(),
                    amount: *amount,
                };
                self.gain(gang, &gain, 1, None, &name, row.ruling.as_deref())?;
            }
        }
        Ok(())
    }

    /// A resource of every gang changes by the step's amount, not past
    /// its floor (a gang already below it stays where it is).
    fn decay(&mut self, step: &CycleStep) -> Result<(), ReportError> {
        let (Some(resource), Some(amount)) = (step.resource.clone(), step.amount) else {
            return Ok(());
        };
        let label = self.pack.resource_label(&resource).to_owned();
        for gang in self.gangs_of_game() {
            let from = self.amount_of(gang, &resource);
            let mut to = from.saturating_add(amount);
            if let Some(floor) = step.floor {
                to = if amount < 0 {
                    to.max(floor.min(from))
                } else {
                    to
                };
            }
            let made = self.adjust(gang, &resource, to.saturating_sub(from), &step.text)?;
            if made != 0 {
                let text = format!("{} ({label} {from} → {})", step.text, from + made);
                self.line(Some(gang), text, &step.source, step.ruling.as_deref());
            }
        }
        Ok(())
    }

    /// Members laid up until the cycle ends come back.
    fn returns(&mut self, step: &CycleStep, said: &str) {
        let gangs = self.gangs_of_game();
        let back: Vec<FighterId> = self
            .fighters
            .values()
            .filter(|f| gangs.contains(&f.gang))
            .filter(|f| {
                matches!(
                    f.status,
                    FighterStatus::LaidUp {
                        until: Until::Cycle,
                        ..
                    }
                )
            })
            .map(|f| f.id)
            .collect();
        for id in back {
            let gang = self.fighter_gang(id);
            let name = self.fighter_label(id);
            self.set_status(id, FighterStatus::Active, format!("{said} ended"));
            self.change(
                gang,
                format!("{name} is back: {}", step.text),
                &step.source,
                None,
            );
        }
    }

    /// Lasting effects that last until the cycle ends, end.
    fn effects_end(&mut self, step: &CycleStep, said: &str) {
        let gangs = self.gangs_of_game();
        let ending: Vec<(EffectId, FighterId, String)> = self
            .lasting
            .iter()
            .filter(|e| e.removed.is_none() && e.until == Some(Until::Cycle))
            .filter(|e| {
                self.fighter_gang(e.fighter)
                    .is_some_and(|g| gangs.contains(&g))
            })
            .map(|e| (e.id, e.fighter, e.name.clone()))
            .collect();
        for (effect, fighter, name) in ending {
            let reason = format!("{said} ended");
            self.events.push(Event::LastingEffectRemoved {
                effect,
                reason: reason.clone(),
            });
            if let Some(e) = self.lasting.iter_mut().find(|e| e.id == effect) {
                e.removed = Some(reason);
            }
            let who = self.fighter_label(fighter);
            let gang = self.fighter_gang(fighter);
            self.change(
                gang,
                format!("{who}: {name} ends ({})", step.text),
                &step.source,
                None,
            );
        }
    }
}
