//! Fighter counters in a record: the changes the players enter for the
//! counters the pack's `[record]` lists (ammo spent, stress gained), and
//! the counters the end of a game sets back (Health restored, plot points
//! refreshed). Pure.

use super::*;

impl Run<'_> {
    /// A fighter's counter as it stands in this procedure.
    pub(super) fn counter_now(&self, fighter: FighterId, counter: &str) -> i64 {
        let default = self
            .pack
            .counter_key(counter)
            .and_then(|(c, _)| c.start())
            .unwrap_or(0);
        self.counters
            .get(&(fighter, counter.to_owned()))
            .copied()
            .unwrap_or(default)
    }

    /// Sets a fighter's counter, with its event.
    pub(super) fn set_counter(
        &mut self,
        fighter: FighterId,
        counter: &str,
        to: i64,
        reason: String,
    ) {
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
        let Some(def) = self.pack.counter_key(counter).map(|(c, _)| c.clone()) else {
            return;
        };
        let label = self.pack.counter_title(counter);
        let from = self.counter_now(fighter, counter);
        let wanted = from.saturating_add(delta);
        let to = wanted.clamp(def.min.min(from), def.top().max(from));
        let name = self.fighter_name(fighter);
        // What the bound held back, said in the stored change too (its
        // history, the log and the chronicle), not only here.
        let held = if to == wanted {
            None
        } else if let Some(words) = def.lost_at_max.as_ref().filter(|_| delta > 0 && from == to) {
            // A rise lost whole, in the pack's words.
            Some(words.clone())
        } else if delta > 0 {
            Some(format!(
                "held at its most, {} lost",
                wanted.saturating_sub(to)
            ))
        } else {
            Some(format!(
                "held at its least, {} not taken",
                to.saturating_sub(wanted)
            ))
        };
        let noun = self.noun_of_record();
        let reason = match &held {
            Some(held) => format!("{noun} ({delta:+}; {held}): {source}"),
            None => format!("{noun}: {source}"),
        };
        if held.is_some() && from == to {
            // Nothing changed, but the change asked for is kept.
            self.events.push(Event::CounterChanged {
                fighter,
                counter: counter.to_owned(),
                from,
                to,
                reason,
            });
        } else {
            self.set_counter(fighter, counter, to, reason);
        }
        let text = match &held {
            None => format!("{name}: {label} {from} → {to} ({delta:+})"),
            Some(held) => format!("{name}: {label} {from} → {to} ({delta:+}; {held})"),
        };
        let gang = self.state.fighter(fighter).map(|f| f.gang);
        self.line(gang, text, source, ruling);
    }

    /// Whether a reset applies in this record: the campaign's setting has
    /// its option, and the record ticks its flag.
    fn reset_applies(&self, reset: &crate::rules::CounterReset) -> bool {
        let played = &self.battle.played;
        let setting_ok = match (&reset.setting, &reset.option) {
            (Some(setting), Some(option)) => played.settings.get(setting) == Some(option),
            _ => true,
        };
        let flag_ok = reset
            .flag
            .as_ref()
            .is_none_or(|flag| played.flags.contains(flag));
        setting_ok && flag_ok
    }

    /// Whether the fighter has the counter: none of their entries takes it
    /// away (a synthetic has no stress).
    pub(super) fn has_counter(&self, fighter: FighterId, counter: &str) -> bool {
        let known = self.fighters.contains_key(&fighter) || self.state.fighter(fighter).is_some();
        known && self.entry_without(fighter, counter).is_none()
    }

    /// The entry that takes the counter away from the fighter, if any.
    fn entry_without(&self, fighter: FighterId, counter: &str) -> Option<String> {
        let f = self
            .fighters
            .get(&fighter)
            .or_else(|| self.state.fighter(fighter))?;
        self.pack
            .entry_taking(counter, f.quirks.iter().map(|p| p.quirk.as_str()))
            .map(|q| q.name.clone())
    }

    /// The key a report's counter change goes to (`hp`, `ammo:pistol`), or
    /// why it is refused: a counter the record does not change, one the
    /// group has not filled in, one the fighter's entries take away, or an
    /// entry's counter without its entry.
    fn counter_changed_key(
        &self,
        rules: &crate::rules::RecordRules,
        fighter: FighterId,
        name: &str,
        counter: &str,
    ) -> Result<String, String> {
        let resolved = self
            .pack
            .counter_key(counter)
            .filter(|(d, _)| rules.counters.contains(&d.id));
        let Some((def, entry)) = resolved else {
            let listed: Vec<&str> = rules
                .counters
                .iter()
                .filter_map(|c| self.pack.counter(c).map(|d| d.id.as_str()))
                .collect();
            return Err(if listed.is_empty() {
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
            });
        };
        if let Some(ruling) = def.unfilled() {
            return Err(crate::campaign::commands::CommandError::Unfilled {
                label: def.label.clone(),
                pack: self.pack.pack.name.clone(),
                ruling: ruling.to_owned(),
            }
            .to_string());
        }
        if let Some(entry) = self.entry_without(fighter, &def.id) {
            return Err(format!("{name} has no {}: {entry}", def.label));
        }
        let held: Vec<String> = self
            .fighters
            .get(&fighter)
            .or_else(|| self.state.fighter(fighter))
            .map(|f| f.quirks.iter().map(|p| p.quirk.clone()).collect())
            .unwrap_or_default();
        match (&def.per_entry, entry) {
            (None, _) => Ok(def.id.clone()),
            (Some(_), Some(entry)) if held.contains(&entry.id) => Ok(def.key_for(&entry.id)),
            (Some(_), Some(entry)) => Err(format!("{name} has no {}", entry.name)),
            (Some(tag), None) => {
                let keys: Vec<String> = self
                    .pack
                    .counter_keys(&held)
                    .into_iter()
                    .filter(|(_, d)| d.id == def.id)
                    .map(|(k, _)| k)
                    .collect();
                Err(format!(
                    "{} is kept for each of {name}'s entries tagged {tag}: name one ({})",
                    def.label,
                    if keys.is_empty() {
                        "none".to_owned()
                    } else {
                        keys.join(", ")
                    }
                ))
            }
        }
    }

    /// "battle #12", "session #3": the record, for reasons in the log.
    pub(super) fn noun_of_record(&self) -> String {
        format!("{} #{}", self.pack.record().noun, self.battle.id)
    }

    /// The counter changes the report gives per fighter: each change in
    /// `counters`, then each of `steps` in its turn.
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
                let at = format!("gangs[{i}].fighters[{j}]");
                let mut whole = Vec::new();
                for (counter, delta) in &f.counters {
                    let field = format!("{at}.counters.{counter}");
                    let key = self.counter_changed_key(&rules, fighter, &f.fighter, counter);
                    let key = key.map_err(|reason| ReportError {
                        field: field.clone(),
                        reason,
                    })?;
                    self.counter_step(fighter, &f.fighter, &key, *delta, field)?;
                    whole.push(key);
                }
                for (k, step) in f.steps.iter().enumerate() {
                    let field = format!("{at}.steps[{k}]");
                    let key = self
                        .counter_changed_key(&rules, fighter, &f.fighter, &step.counter)
                        .map_err(|reason| ReportError {
                            field: format!("{field}.counter"),
                            reason,
                        })?;
                    if whole.contains(&key) {
                        return refuse(
                            format!("{field}.counter"),
                            format!(
                                "{} of {} is changed in `counters` too: give its changes in one place",
                                self.pack.counter_title(&key),
                                f.fighter
                            ),
                        );
                    }
                    if step.change == 0 {
                        return refuse(
                            format!("{field}.change"),
                            "a step of 0 changes nothing: leave it out",
                        );
                    }
                    self.counter_step(fighter, &f.fighter, &key, step.change, field)?;
                }
            }
        }
        Ok(())
    }

    /// One change the players entered to a fighter's counter (`key`),
    /// applied where it stands now. A counter that is spent is never
    /// overdrawn: more than the fighter holds is refused, not held at its
    /// least.
    fn counter_step(
        &mut self,
        fighter: FighterId,
        name: &str,
        key: &str,
        delta: i64,
        field: String,
    ) -> Result<(), ReportError> {
        let spent = self.pack.counter_key(key).filter(|(d, _)| d.spent);
        if let Some((def, _)) = spent {
            let from = self.counter_now(fighter, key);
            if from.saturating_add(delta) < def.min {
                return refuse(
                    field,
                    format!(
                        "{name} holds {from} {}: {} cannot be spent",
                        self.pack.counter_title(key),
                        delta.saturating_neg()
                    ),
                );
            }
        }
        if delta != 0 {
            let source = self
                .pack
                .counter_key(key)
                .map_or_else(String::new, |(d, _)| d.source.clone());
            self.change_counter(fighter, key, delta, &source, None);
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
            if !self.reset_applies(reset) {
                continue;
            }
            // A value the text does not print (no maximum, a start the
            // group has not filled in) sets nothing.
            let Some(to) = reset.value(&def) else {
                continue;
            };
            for &fighter in &fighters {
                if !self.has_counter(fighter, &reset.counter) {
                    continue;
                }
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
