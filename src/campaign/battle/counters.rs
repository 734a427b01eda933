//! Fighter counters in a record: the changes the players enter for the
//! counters the pack's `[record]` lists (ammo spent, stress gained), and
//! the counters the end of a game sets back (Health restored, plot points
//! refreshed). Pure.

use super::*;

impl Run<'_> {
    /// A fighter's counter as it stands in this procedure.
    fn counter_now(&self, fighter: FighterId, counter: &str) -> i64 {
        let default = self.pack.counter(counter).map_or(0, |c| c.default);
        self.counters
            .get(&(fighter, counter.to_owned()))
            .copied()
            .unwrap_or(default)
    }

    /// Sets a fighter's counter, with its event.
    fn set_counter(&mut self, fighter: FighterId, counter: &str, to: i64, reason: String) {
        let from = self.counter_now(fighter, counter);
        if from == to {
            return;
        }
        self.events.push(Event::CounterChanged {
            fighter,
            counter: counter.to_owned(),
            from,
            to,
            reason,
        });
        self.counters.insert((fighter, counter.to_owned()), to);
    }

    /// Changes a fighter's counter by `delta`, held between the counter's
    /// least and most; what the bound holds back is said, not dropped.
    pub(super) fn change_counter(
        &mut self,
        fighter: FighterId,
        counter: &str,
        delta: i64,
        source: &str,
        ruling: Option<&str>,
    ) {
        let Some(def) = self.pack.counter(counter).cloned() else {
            return;
        };
        let from = self.counter_now(fighter, counter);
        let wanted = from.saturating_add(delta);
        let to = wanted.clamp(def.min.min(from), def.max.max(from));
        let name = self.fighter_name(fighter);
        self.set_counter(
            fighter,
            counter,
            to,
            format!("{}: {source}", self.noun_of_record()),
        );
        let text = if to == wanted {
            format!("{name}: {} {from} → {to} ({delta:+})", def.label)
        } else if delta > 0 {
            format!(
                "{name}: {} {from} → {to} ({delta:+}; held at its most, {} lost)",
                def.label,
                wanted.saturating_sub(to)
            )
        } else {
            format!(
                "{name}: {} {from} → {to} ({delta:+}; held at its least, {} not taken)",
                def.label,
                to.saturating_sub(wanted)
            )
        };
        let gang = self.state.fighter(fighter).map(|f| f.gang);
        self.line(gang, text, source, ruling);
    }

    /// "battle #12", "session #3": the record, for reasons in the log.
    fn noun_of_record(&self) -> String {
        format!("{} #{}", self.pack.record().noun, self.battle.id)
    }

    /// The counter changes the report gives per fighter.
    pub(super) fn counters_changed(&mut self) -> Result<(), ReportError> {
        let rules = self.pack.record().clone();
        for (i, g) in self.report.gangs.iter().enumerate() {
            let Some(gang) = self.battle.gangs.get(i).map(|b| b.gang) else {
                continue;
            };
            for (j, f) in g.fighters.iter().flatten().enumerate() {
                let Some(fighter) = self.state.fighter_named(gang, &f.fighter).map(|f| f.id) else {
                    continue;
                };
                for (counter, delta) in &f.counters {
                    let field = format!("gangs[{i}].fighters[{j}].counters.{counter}");
                    if !rules.counters.contains(counter) {
                        let listed: Vec<&str> = rules
                            .counters
                            .iter()
                            .filter_map(|c| self.pack.counter(c).map(|d| d.id.as_str()))
                            .collect();
                        let reason = if listed.is_empty() {
                            format!(
                                "a {} of {} changes no counters",
                                rules.noun, self.pack.pack.name
                            )
                        } else {
                            format!(
                                "“{counter}” is not a counter a {} changes ({})",
                                rules.noun,
                                listed.join(", ")
                            )
                        };
                        return refuse(field, reason);
                    }
                    if *delta != 0 {
                        self.change_counter(fighter, counter, *delta, &rules.source, None);
                    }
                }
            }
        }
        Ok(())
    }

    /// The end of the game sets counters back for everyone who took part.
    pub(super) fn resets(&mut self) -> Result<(), ReportError> {
        let rules = self.pack.record().clone();
        let fighters: Vec<FighterId> = self.battle.fighters.iter().map(|f| f.fighter).collect();
        for reset in &rules.resets {
            let Some(def) = self.pack.counter(&reset.counter).cloned() else {
                continue;
            };
            let to = reset.value(&def);
            for &fighter in &fighters {
                let from = self.counter_now(fighter, &reset.counter);
                if from == to {
                    continue;
                }
                let reason = format!("{}: {}", self.noun_of_record(), reset.source);
                self.set_counter(fighter, &reset.counter, to, reason);
                let name = self.fighter_name(fighter);
                let gang = self.state.fighter(fighter).map(|f| f.gang);
                self.line(
                    gang,
                    format!("{name}: {} {from} → {to}", def.label),
                    &reset.source,
                    reset.ruling.as_deref(),
                );
            }
        }
        Ok(())
    }
}
