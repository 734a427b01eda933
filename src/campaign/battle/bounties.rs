//! Bounties after a battle: claims on the fighters a rival downed, and the
//! declarations both players make. Pure.

use super::*;
use crate::rules::BountyRules;

impl Run<'_> {
    pub(super) fn bounty_claims(&mut self) -> Result<(), ReportError> {
        let Some(rules) = self.pack.bounties.clone() else {
            return Ok(());
        };
        for bf in &self.battle.fighters {
            let taken_down = self.pack.outcome(&bf.outcome).is_some_and(|o| o.taken_down);
            if !taken_down {
                continue;
            }
            let key = (bf.fighter, rules.counter.clone());
            let bounty = self.counters.get(&key).copied().unwrap_or(0);
            if bounty <= 0 {
                continue;
            }
            let name = self.fighter_name(bf.fighter);
            let word = self
                .pack
                .counter(&rules.counter)
                .map_or(rules.counter.clone(), |c| c.label.clone());
            let Some(by) = bf.downed_by else {
                let text = format!("{name} keeps a {word} of {bounty}: no rival downed them");
                self.line(Some(bf.gang), text, &rules.source, rules.ruling.as_deref());
                continue;
            };
            let claimer = self
                .rival_of(bf.fighter)
                .unwrap_or_else(|| self.rival(bf.gang));
            let label = self.pack.resource_label(&rules.claim_resource).to_owned();
            // A reason reads as a phrase: "bounty on Brick claimed".
            let reason = format!("{} on {name} claimed", word.to_lowercase());
            let Some(paid) = bounty.checked_mul(rules.claim_per_point) else {
                let from = self.amount_of(claimer, &rules.claim_resource);
                let change = format!("{bounty} × {}", rules.claim_per_point);
                let direction = bounty.signum() * rules.claim_per_point.signum();
                return Err(self.past_bound(
                    claimer,
                    &rules.claim_resource,
                    from,
                    &change,
                    direction,
                ));
            };
            self.adjust(claimer, &rules.claim_resource, paid, &reason)?;
            self.events.push(Event::CounterChanged {
                fighter: bf.fighter,
                counter: rules.counter.clone(),
                from: bounty,
                to: 0,
                reason: format!("claimed by {}", self.name(claimer)),
            });
            self.counters.insert(key, 0);
            let text = format!(
                "claims the {word} of {bounty} on {name} (downed by {}): +{} {label}; {name}'s {word} is reset to 0",
                self.fighter_name(by),
                paid
            );
            self.line(Some(claimer), text, &rules.source, None);
        }
        Ok(())
    }

    pub(super) fn bounty_declarations(&mut self, report: &BattleReport) -> Result<(), ReportError> {
        let Some(rules) = self.pack.bounties.clone() else {
            if !report.bounties.is_empty() {
                return refuse(
                    "bounties",
                    format!("{} has no bounties", self.pack.pack.name),
                );
            }
            return Ok(());
        };
        let mut per_gang: BTreeMap<GangId, usize> = BTreeMap::new();
        for (i, declaration) in report.bounties.iter().enumerate() {
            let field = format!("bounties[{i}]");
            let by = self.declaring_gang(&field, declaration)?;
            let count = per_gang.entry(by).or_default();
            *count += 1;
            if *count > rules.declarations_per_gang {
                return refuse(
                    field,
                    format!(
                        "{} makes {} declaration{} a {}",
                        self.name(by),
                        rules.declarations_per_gang,
                        if rules.declarations_per_gang == 1 {
                            ""
                        } else {
                            "s"
                        },
                        self.pack.record().noun
                    ),
                );
            }
            match &declaration.fighter {
                Some(name) => self.declare(&rules, &field, by, name)?,
                None => self.declare_nothing(&rules, &field, by)?,
            }
        }
        self.ask_for_declarations(&rules, &per_gang);
        Ok(())
    }

    /// The gang of the record that makes a declaration.
    fn declaring_gang(
        &self,
        field: &str,
        declaration: &BountyReport,
    ) -> Result<GangId, ReportError> {
        self.battle
            .gangs
            .iter()
            .map(|g| g.gang)
            .find(|g| crate::text::same(&self.name(*g), &declaration.by))
            .map_or_else(
                || {
                    refuse(
                        format!("{field}.by"),
                        format!(
                            "“{}” did not take part in this {}",
                            declaration.by,
                            self.pack.record().noun
                        ),
                    )
                },
                Ok,
            )
    }

    /// 003: "Raise that fighter's Bounty by 1 to a maximum of 5": the pack's
    /// step, up to the counter's most.
    fn declare(
        &mut self,
        rules: &BountyRules,
        field: &str,
        by: GangId,
        name: &str,
    ) -> Result<(), ReportError> {
        let rivals = self.rivals(by);
        let Some(target) = rivals
            .iter()
            .find_map(|r| self.state.fighter_named(*r, name))
        else {
            let names: Vec<String> = rivals.iter().map(|r| self.name(*r)).collect();
            return refuse(
                format!("{field}.fighter"),
                format!(
                    "“{name}” is not a {} of {}, the rival {}",
                    self.pack.words.fighter,
                    names.join(" or "),
                    self.pack.words.gang
                ),
            );
        };
        let target = target.clone();
        let (label, max) = self
            .pack
            .counter(&rules.counter)
            .map_or((rules.counter.clone(), i64::MAX), |c| {
                (c.label.clone(), c.top())
            });
        let key = (target.id, rules.counter.clone());
        let from = self.counters.get(&key).copied().unwrap_or(0);
        // Saturating: the counter's max caps a bounty by rule, and a sum
        // held at the end of i64 is capped the same.
        let to = from.saturating_add(rules.declare_step).min(max);
        if to == from {
            let text = format!(
                "declares on {}: already at the most ({max}), no change",
                target.name
            );
            self.line(Some(by), text, &rules.source, None);
            return Ok(());
        }
        self.events.push(Event::CounterChanged {
            fighter: target.id,
            counter: rules.counter.clone(),
            from,
            to,
            reason: format!("{label} declared by {}", self.name(by)),
        });
        self.counters.insert(key, to);
        let text = format!(
            "declares a {label} on {}: {label} {from} → {to}",
            target.name
        );
        self.line(Some(by), text, &rules.source, None);
        Ok(())
    }

    /// A gang that declares nothing, where the pack's ruling allows it.
    fn declare_nothing(
        &mut self,
        rules: &BountyRules,
        field: &str,
        by: GangId,
    ) -> Result<(), ReportError> {
        let label = self
            .pack
            .counter(&rules.counter)
            .map_or(rules.counter.clone(), |c| c.label.clone());
        let Some(ruling) = rules.no_declaration_ruling.clone() else {
            return refuse(
                format!("{field}.fighter"),
                format!(
                    "missing: {} declares a {label} on a rival {}",
                    self.name(by),
                    self.pack.words.fighter
                ),
            );
        };
        let text = format!("declares no {label}");
        self.line(Some(by), text, &rules.source, Some(&ruling));
        Ok(())
    }

    /// 003: "Both players declare a Bounty": a gang of the record that gave
    /// no declaration is asked for one (a rival fighter, or `none` where
    /// the pack's ruling allows declaring nothing).
    fn ask_for_declarations(&mut self, rules: &BountyRules, made: &BTreeMap<GangId, usize>) {
        if self.battle.gangs.len() < 2 {
            return;
        }
        let label = self
            .pack
            .counter(&rules.counter)
            .map_or(rules.counter.clone(), |c| c.label.clone());
        for side in self.battle.gangs.clone() {
            if made.contains_key(&side.gang) {
                continue;
            }
            let rivals = self.rivals(side.gang);
            let mut options: Vec<String> = self
                .state
                .fighters
                .iter()
                .filter(|f| {
                    rivals.contains(&f.gang) && !matches!(f.status, FighterStatus::Gone { .. })
                })
                .map(|f| f.name.clone())
                .collect();
            if rules.no_declaration_ruling.is_some() {
                options.push(NO_DECLARATION.to_owned());
            }
            self.needed.push(NeededChoice {
                field: "bounties".into(),
                gang: self.name(side.gang),
                rule: "declare".into(),
                text: format!(
                    "declare a {label} on a {} of {}",
                    self.pack.words.fighter,
                    rivals
                        .iter()
                        .map(|r| self.name(*r))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
                options,
            });
        }
    }
}
