//! Bounties after a battle: claims on the fighters a rival downed, and the
//! declarations both players make. Pure.

use super::*;

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
            let claimer = self.rival(bf.gang);
            let label = self.pack.resource_label(&rules.claim_resource).to_owned();
            // A reason reads as a phrase: "bounty on Brick claimed".
            let reason = format!("{} on {name} claimed", word.to_lowercase());
            let Some(paid) = bounty.checked_mul(rules.claim_per_point) else {
                let from = self.amount_of(claimer, &rules.claim_resource);
                let change = format!("{bounty} × {}", rules.claim_per_point);
                return Err(self.past_bound(claimer, &rules.claim_resource, from, &change));
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
        let max = self
            .pack
            .counter(&rules.counter)
            .map_or(i64::MAX, |c| c.max);
        let mut per_gang: BTreeMap<GangId, usize> = BTreeMap::new();
        for (i, declaration) in report.bounties.iter().enumerate() {
            let field = format!("bounties[{i}]");
            let Some(by) = self
                .battle
                .gangs
                .iter()
                .map(|g| g.gang)
                .find(|g| self.name(*g).eq_ignore_ascii_case(declaration.by.trim()))
            else {
                return refuse(
                    format!("{field}.by"),
                    format!("“{}” did not fight in this battle", declaration.by),
                );
            };
            let rival = self.rival(by);
            let Some(target) = self.state.fighter_named(rival, &declaration.fighter) else {
                return refuse(
                    format!("{field}.fighter"),
                    format!(
                        "“{}” is not a fighter of {}, the rival gang",
                        declaration.fighter,
                        self.name(rival)
                    ),
                );
            };
            let count = per_gang.entry(by).or_default();
            *count += 1;
            if *count > rules.declarations_per_gang {
                return refuse(
                    field,
                    format!(
                        "{} declares {} bount{} a battle",
                        self.name(by),
                        rules.declarations_per_gang,
                        if rules.declarations_per_gang == 1 {
                            "y"
                        } else {
                            "ies"
                        }
                    ),
                );
            }
            let key = (target.id, rules.counter.clone());
            let from = self.counters.get(&key).copied().unwrap_or(0);
            // Saturating: the counter's max caps a bounty by rule, and a sum
            // held at the end of i64 is capped the same.
            let to = from.saturating_add(rules.declare_step).min(max);
            let label = self
                .pack
                .counter(&rules.counter)
                .map_or(rules.counter.clone(), |c| c.label.clone());
            if to == from {
                let text = format!(
                    "declares on {}: already at the most ({max}), no change",
                    target.name
                );
                self.line(Some(by), text, &rules.source, None);
                continue;
            }
            self.events.push(Event::CounterChanged {
                fighter: target.id,
                counter: rules.counter.clone(),
                from,
                to,
                reason: format!("bounty declared by {}", self.name(by)),
            });
            self.counters.insert(key, to);
            let text = format!(
                "declares a bounty on {}: {label} {from} → {to}",
                target.name
            );
            self.line(Some(by), text, &rules.source, None);
        }
        Ok(())
    }
}
