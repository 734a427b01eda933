//! Commands: the edits a player makes between battles (gangs, fighters,
//! resources, photos, captives, lasting effects, arcs), each checked
//! against the pack and committed as one labelled batch, so each is one
//! step of undo.
//!
//! The events themselves are built by `campaign::commands` (pure); this
//! room finds what they need and commits them. It reads back only to
//! report what a change broke.

use anyhow::{Context as _, Result, anyhow, bail};
use serde::Serialize;

use super::Session;
use crate::campaign::commands::{self, NewFighter};
use crate::campaign::{BatchId, Event, Fighter, FighterId, Gang, GangId, Problem, QuirkPick};
use crate::rules::Pack;
use crate::text;

/// What a command did: the batch it wrote and the rules now broken.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub batch: BatchId,
    pub label: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
    /// What went wrong after the change was saved (it stays saved).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The warning for a read that failed after a change was saved.
pub fn saved_but(batch: BatchId, doing: &str, err: &anyhow::Error) -> String {
    format!("the change is saved (batch {batch}), but {doing} failed afterwards: {err:#}")
}

impl Session {
    /// Founds a gang with the named pack, or the campaign's default.
    pub fn found_gang(&mut self, name: &str, ruleset: Option<&str>) -> Result<(GangId, BatchId)> {
        self.found_gang_with(name, ruleset, commands::Founding::default())
    }

    /// Founds a gang with the named pack (or the campaign's default), in
    /// a faction and with a starting holding where its game asks.
    pub fn found_gang_with(
        &mut self,
        name: &str,
        ruleset: Option<&str>,
        founding: commands::Founding<'_>,
    ) -> Result<(GangId, BatchId)> {
        let ruleset = match ruleset {
            Some(r) => r.to_owned(),
            None => self.store.info()?.default_ruleset,
        };
        let pack = self.pack(&ruleset)?;
        let id = self.store.next_gang_id()?;
        let holders = self.store.ground().season(false)?.holders;
        let events =
            commands::found_gang(&self.store.gangs()?, id, name, pack, founding, &holders)?;
        let batch = self.commit(&format!("Found {}", name.trim()), events)?;
        Ok((id, batch))
    }

    pub fn disband_gang(&mut self, gang: GangId) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let words = &self.gang_pack(&gang)?.words;
        let events = commands::disband_gang(&gang, &self.store.fighters(gang.id)?, words)?;
        self.commit(&format!("Disband {}", gang.name), events)
    }

    pub fn rename_gang(&mut self, gang: GangId, to: &str) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let words = &self.gang_pack(&gang)?.words;
        let events = commands::rename_gang(&self.store.gangs()?, &gang, to, words)?;
        self.commit(&format!("Rename {} to {}", gang.name, to.trim()), events)
    }

    pub fn set_gang_notes(&mut self, gang: GangId, notes: &str) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let events = commands::set_gang_notes(&gang, notes)?;
        self.commit(&format!("Notes of {}", gang.name), events)
    }

    /// Changes the campaign's ruleset, and every gang that played the old
    /// one, in one logged change.
    pub fn set_campaign_ruleset(&mut self, ruleset: &str) -> Result<BatchId> {
        // A ruleset asked for, not one the campaign already uses.
        let pack = super::asked_pack(&self.registry, ruleset)?;
        let name = pack.pack.name.clone();
        let info = self.store.info()?;
        if info.default_ruleset == ruleset {
            bail!("the campaign already plays {name}");
        }
        let mut events = vec![Event::CampaignRulesetChanged {
            from: info.default_ruleset.clone(),
            to: ruleset.to_owned(),
        }];
        for gang in self.store.gangs()? {
            if gang.ruleset == info.default_ruleset {
                events.push(Event::GangRulesetChanged {
                    gang: gang.id,
                    from: gang.ruleset,
                    to: ruleset.to_owned(),
                });
            }
        }
        self.commit(&format!("The campaign now plays {name}"), events)
    }

    pub fn adjust_resource(
        &mut self,
        gang: GangId,
        resource: &str,
        delta: i64,
        reason: &str,
    ) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let pack = self.gang_pack(&gang)?;
        let label = pack
            .resources
            .iter()
            .find(|r| r.id == resource || text::same(&r.label, resource))
            .map_or(resource, |r| r.label.as_str())
            .to_owned();
        let events = commands::adjust_resource(pack, &gang, resource, delta, reason)?;
        self.commit(&format!("{} {label} {delta:+}", gang.name), events)
    }

    /// Recruits a fighter. One who would break a limit the pack states is
    /// refused; one still short of what recruiting asks is recruited and
    /// the gang's problems come back with the outcome.
    pub fn recruit(&mut self, gang: GangId, new: NewFighter) -> Result<Outcome> {
        let gang = self.gang(gang)?;
        let pack = self.gang_pack(&gang)?;
        let roster = self.store.fighters(gang.id)?;
        let kept = self.store.dismissed_names(gang.id)?;
        commands::check_name_not_kept(&gang, &kept, &new.name, &pack.words)?;
        let checking = format!("checking the {}'s rules", pack.words.gang);
        let id = self.store.next_fighter_id()?;
        let label = format!("Recruit {} into {}", new.name.trim(), gang.name);
        let events = commands::recruit(pack, &gang, &roster, id, new)?;
        self.refuse_new_breaks(pack, &gang, &events)?;
        let batch = self.commit(&label, events)?;
        // Saved: from here on a failure is a warning, not a refusal.
        let (problems, warnings) = match self.gang_view(gang.id) {
            Ok(view) => (view.problems, Vec::new()),
            Err(err) => (Vec::new(), vec![saved_but(batch, &checking, &err)]),
        };
        Ok(Outcome {
            batch,
            label,
            problems,
            warnings,
        })
    }

    /// Recruits a fighter bought between games: the gang pays the new
    /// fighter's value with the resource its pack buys with, in the same
    /// step (one batch: undo takes back both).
    pub fn buy_recruit(&mut self, gang: GangId, new: NewFighter) -> Result<Outcome> {
        let gang = self.gang(gang)?;
        let pack = self.gang_pack(&gang)?;
        let roster = self.store.fighters(gang.id)?;
        let kept = self.store.dismissed_names(gang.id)?;
        commands::check_name_not_kept(&gang, &kept, &new.name, &pack.words)?;
        let id = self.store.next_fighter_id()?;
        let name = new.name.trim().to_owned();
        let mut events = commands::recruit(pack, &gang, &roster, id, new)?;
        let value = events
            .iter()
            .find_map(|e| match e {
                Event::FighterRecruited { fighter } => {
                    crate::campaign::valuation::fighter_value(pack, fighter, &[])
                }
                _ => None,
            })
            .map_or(0, |v| v.value);
        events.extend(
            commands::pay_for(pack, &gang, value, &name)
                .with_context(|| format!("buying {name} for {value}"))?,
        );
        self.refuse_new_breaks(pack, &gang, &events)?;
        let label = format!("Buy {name} for {} for {value}", gang.name);
        let batch = self.commit(&label, events)?;
        let problems = self
            .gang_view(gang.id)
            .map(|v| v.problems)
            .unwrap_or_default();
        Ok(Outcome {
            batch,
            label,
            problems,
            warnings: Vec::new(),
        })
    }

    /// Gives a fighter an entry bought between games (equipment): the gang
    /// pays its cost in the same step.
    pub fn buy_quirk(&mut self, fighter: FighterId, pick: QuirkPick) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let pack = self.gang_pack(&gang)?;
        let def = pack
            .quirk(&pick.quirk)
            .ok_or_else(|| anyhow!("{} has no “{}”", pack.pack.name, pick.quirk))?;
        commands::may_buy(pack, def)?;
        // Bought for a group, an entry is bought for each of its members.
        let members = i64::try_from(self.group_mates(fighter.id)?.len() + 1).unwrap_or(i64::MAX);
        let (what, cost) = (
            def.name.clone(),
            def.cost.unwrap_or(0).saturating_mul(members),
        );
        let mut quirks = fighter.quirks.clone();
        quirks.push(pick);
        let mut events = self.shared_with_group(commands::set_quirks(pack, &fighter, quirks)?)?;
        events.extend(
            commands::pay_for(pack, &gang, cost, &format!("{what} for {}", fighter.name))
                .with_context(|| format!("buying {what} for {cost}"))?,
        );
        self.refuse_new_breaks(pack, &gang, &events)?;
        self.commit(
            &format!("Buy {what} for {} for {cost}", fighter.name),
            events,
        )
    }

    /// Refuses a change (`events`, with what it pays) that would make the
    /// gang break a rule its pack states (a constraint that is a limit, a
    /// points limit) that it does not break now, naming the rule and its
    /// source, before anything is paid or written. A count the gang has yet to reach (a recruit still
    /// short of entries) is no refusal: a gang is built a step at a time.
    pub(super) fn refuse_new_breaks(
        &self,
        pack: &Pack,
        gang: &Gang,
        events: &[Event],
    ) -> Result<()> {
        let lasting = self.store.lasting_effects_of_gang(gang.id)?;
        let before = self.roster(gang.id)?;
        let (mut after, mut paid) = (before.clone(), gang.clone());
        for event in events {
            changed_roster(&mut after, event);
            if let Event::ResourceAdjusted { resource, to, .. } = event {
                paid.resources.insert(resource.clone(), *to);
            }
        }
        let breaks = crate::campaign::new_breaks(
            pack,
            &self.problems_of(pack, gang, &before, &lasting)?,
            &self.problems_of(pack, &paid, &after, &lasting)?,
        );
        match breaks.first() {
            None => Ok(()),
            Some(problem) => Err(commands::CommandError::BreaksRule {
                problem: problem.describe(),
                rule_source: problem.source.clone(),
            }
            .into()),
        }
    }

    /// Resolves quirk names (id, name or alt name) against a gang's pack.
    pub fn resolve_quirks(&self, gang: GangId, names: &[String]) -> Result<Vec<QuirkPick>> {
        let gang = self.gang(gang)?;
        Ok(commands::resolve_quirks(self.gang_pack(&gang)?, names)?)
    }

    /// Resolves entries to take from a fighter: as [`Self::resolve_quirks`],
    /// and also one the fighter holds that the pack no longer has.
    pub fn resolve_held_quirks(
        &self,
        fighter: FighterId,
        names: &[String],
    ) -> Result<Vec<QuirkPick>> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        Ok(commands::resolve_held_quirks(
            self.gang_pack(&gang)?,
            &fighter,
            names,
        )?)
    }

    pub fn dismiss(&mut self, fighter: FighterId) -> Result<BatchId> {
        self.dismiss_naming(fighter, None)
    }

    /// Dismisses a fighter; a leader is followed by the member the pack's
    /// succession names (`successor`: the side's pick, where a tie asks
    /// for one), in the same batch.
    pub fn dismiss_naming(
        &mut self,
        fighter: FighterId,
        successor: Option<FighterId>,
    ) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let next = self.successor_on_dismissal(&fighter, successor)?;
        // The photo goes first, in the same batch, so undoing the dismissal
        // brings it back with the fighter.
        let mut events = Vec::new();
        if let Some(photo) = self.store.photo_key(fighter.id)? {
            events.push(Event::PhotoChanged {
                fighter: fighter.id,
                from: Some(photo),
                to: None,
            });
        }
        events.extend(commands::dismiss(&fighter));
        if let Some(next) = next {
            events.push(Event::LeaderChanged {
                fighter: next,
                from: false,
                to: true,
            });
        }
        self.commit(&format!("Dismiss {}", fighter.name), events)
    }

    /// The member of `gang` the pack's succession `rule` names among
    /// `candidates`, ranked by their counters and stats as they stand
    /// (`picked`: the side's pick, where a tie asks for one).
    pub(super) fn ranked_successor(
        &self,
        gang: &crate::campaign::Gang,
        rule: &crate::rules::SuccessionRule,
        candidates: &[&crate::campaign::Fighter],
        picked: Option<FighterId>,
    ) -> Result<crate::campaign::succession::Successor> {
        let pack = self.gang_pack(gang)?;
        let lasting = self.store.lasting_effects_of_gang(gang.id)?;
        let points = |f: &crate::campaign::Fighter, rank: &crate::rules::Rank| match rank {
            crate::rules::Rank::Counter(id) => f.counter_or_start(pack, id).unwrap_or(0),
            crate::rules::Rank::Stat(id) => crate::campaign::derive_stats(pack, f, &lasting)
                .into_iter()
                .find(|s| s.id == *id)
                .map_or(0, |s| s.value),
        };
        Ok(crate::campaign::succession::successor(
            rule, candidates, points, picked,
        ))
    }

    /// Who follows a leader dismissed, where the pack's succession says:
    /// refused, naming those tied, where the side must pick.
    fn successor_on_dismissal(
        &self,
        fighter: &crate::campaign::Fighter,
        picked: Option<FighterId>,
    ) -> Result<Option<FighterId>> {
        use crate::campaign::succession::{Successor, candidates, still_led};
        let gang = self.gang(fighter.gang)?;
        let pack = self.gang_pack(&gang)?;
        let Some(rule) = &pack.succession else {
            return Ok(None);
        };
        let roster = self.store.fighters(gang.id)?;
        if !fighter.leader
            || still_led(&roster, &[fighter.id])
            || !rule.applies_when(crate::rules::LeaderLeaves::Dismissed)
        {
            return Ok(None);
        }
        let candidates = candidates(rule, &roster, &[fighter.id]);
        match self.ranked_successor(&gang, rule, &candidates, picked)? {
            Successor::Named(id) => Ok(Some(id)),
            Successor::NoOne => Ok(None),
            Successor::Tied(ids) => {
                let names: Vec<String> = roster
                    .iter()
                    .filter(|f| ids.contains(&f.id))
                    .map(|f| f.name.clone())
                    .collect();
                bail!(
                    "succession: {} are tied to be the next {}; name one (or make one {} first)",
                    names.join(" and "),
                    pack.words.leader,
                    pack.words.leader
                )
            }
        }
    }

    pub fn rename_fighter(&mut self, fighter: FighterId, to: &str) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let words = &self.gang_pack(&gang)?.words;
        commands::check_name_not_kept(&gang, &self.store.dismissed_names(gang.id)?, to, words)?;
        let roster = self.store.fighters(gang.id)?;
        let events = commands::rename_fighter(&gang, &roster, &fighter, to, words)?;
        self.commit(&format!("Rename {} to {}", fighter.name, to.trim()), events)
    }

    pub fn set_leader(&mut self, fighter: FighterId, leader: bool) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let events = commands::set_leader(&fighter, leader)?;
        let word = &self.gang_pack(&self.gang(fighter.gang)?)?.words.leader;
        let label = if leader {
            format!("Make {} {word}", fighter.name)
        } else {
            format!("{} steps down as {word}", fighter.name)
        };
        self.commit(&label, events)
    }

    pub fn set_quirks(&mut self, fighter: FighterId, quirks: Vec<QuirkPick>) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let pack = self.gang_pack(&gang)?;
        let events = self.shared_with_group(commands::set_quirks(pack, &fighter, quirks)?)?;
        self.refuse_new_breaks(pack, &gang, &events)?;
        let label = format!(
            "{} of {}",
            crate::text::capitalised(&pack.words.entries),
            fighter.name
        );
        self.commit(&label, events)
    }

    pub fn set_counter(
        &mut self,
        fighter: FighterId,
        counter: &str,
        value: i64,
        reason: &str,
    ) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let pack = self.gang_pack(&gang)?;
        let events = self.shared_with_group(commands::set_counter(
            pack, &fighter, counter, value, reason,
        )?)?;
        let label = format!("{} of {}", pack.counter_title(counter), fighter.name);
        self.commit(&label, events)
    }

    /// Sets the count an entry found in play starts with (a found weapon's
    /// bullets), within the totals of its counter's `found` roll.
    pub fn set_found_counter(
        &mut self,
        fighter: FighterId,
        counter: &str,
        value: i64,
    ) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let pack = self.gang_pack(&gang)?;
        let events =
            self.shared_with_group(commands::set_found_counter(pack, &fighter, counter, value)?)?;
        let label = format!("{} of {}, found", pack.counter_title(counter), fighter.name);
        self.commit(&label, events)
    }

    pub fn set_fighter_notes(&mut self, fighter: FighterId, notes: &str) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let events = commands::set_fighter_notes(&fighter, notes)?;
        self.commit(&format!("Notes of {}", fighter.name), events)
    }

    /// Sets a fighter's own base value of a stat (by id, label or name).
    pub fn set_base_stat(&mut self, fighter: FighterId, stat: &str, value: i64) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let pack = self.gang_pack(&gang)?;
        let events =
            self.shared_with_group(commands::set_base_stat(pack, &fighter, stat, value)?)?;
        self.refuse_new_breaks(pack, &gang, &events)?;
        let label = match pack.stat(stat).or_else(|| {
            pack.stats
                .iter()
                .find(|s| text::same(&s.label, stat) || text::same(&s.name, stat))
        }) {
            Some(def) => format!("{}: base {} {}", fighter.name, def.label, def.show(value)),
            None => format!("{}: base stat", fighter.name),
        };
        self.commit(&label, events)
    }

    /// Reads a stat's value as typed (a number or a ladder step).
    pub fn parse_stat_value(&self, fighter: FighterId, stat: &str, text: &str) -> Result<i64> {
        let gang = self.gang(self.fighter(fighter)?.gang)?;
        let pack = self.gang_pack(&gang)?;
        let def = pack
            .stats
            .iter()
            .find(|s| s.id == stat || text::same(&s.label, stat) || text::same(&s.name, stat))
            .ok_or_else(|| anyhow!("{} has no stat “{}”", pack.pack.name, text::echo(stat)))?;
        def.parse_value(text).ok_or_else(|| {
            if def.ladder.is_empty() {
                anyhow!(
                    "{}: “{}” is not a whole number",
                    def.label,
                    text::echo(text)
                )
            } else {
                anyhow!(
                    "{}: “{}” is not a number or one of {}",
                    def.label,
                    text::echo(text),
                    def.ladder.join(", ")
                )
            }
        })
    }

    /// Sets a fighter's photo from PNG or JPEG bytes, or removes it.
    pub fn set_photo(&mut self, fighter: FighterId, bytes: Option<&[u8]>) -> Result<BatchId> {
        let f = self.fighter(fighter)?;
        let photo = match bytes {
            None => None,
            Some(b) => Some((crate::campaign::photo::check(b).map_err(|e| anyhow!(e))?, b)),
        };
        let label = if photo.is_some() {
            format!("Photo of {}", f.name)
        } else {
            format!("{} has no photo", f.name)
        };
        let mut gate = crate::campaign::gate::Gate::new(&self.base, &self.registry);
        Ok(self
            .store
            .set_photo(&label, fighter, photo, &mut |state, e, back| {
                gate.check(state, e, back)
            })?)
    }

    /// A captive, their own gang and their captors; refused for a fighter
    /// no rival holds.
    fn held(&self, fighter: FighterId) -> Result<(crate::campaign::Fighter, Gang, Gang)> {
        let f = self.fighter(fighter)?;
        let crate::campaign::FighterStatus::Captured { by, .. } = f.status else {
            bail!(
                "{} is not held by a rival {}",
                f.name,
                self.campaign_words()?.0.gang
            );
        };
        let (owner, captors) = (self.gang(f.gang)?, self.gang(by)?);
        Ok((f, owner, captors))
    }

    /// The captive's gang pays a ransom and gets the fighter back.
    pub fn ransom(&mut self, fighter: FighterId, resource: &str, amount: i64) -> Result<BatchId> {
        let (f, owner, captors) = self.held(fighter)?;
        let worth = self.worth_of(&f)?;
        let events = commands::ransom(
            self.gang_pack(&owner)?,
            &f,
            &owner,
            &captors,
            resource,
            amount,
            worth,
        )?;
        self.commit(&format!("Ransom {} from {}", f.name, captors.name), events)
    }

    /// What a member is worth, for a captive's price by worth.
    fn worth_of(&self, f: &crate::campaign::Fighter) -> Result<i64> {
        let owner = self.gang(f.gang)?;
        let lasting = self.store.lasting_effects_of_gang(f.gang)?;
        Ok(crate::campaign::rating::worth(
            self.gang_pack(&owner)?,
            f,
            &lasting,
        ))
    }

    /// What the pack says a captive costs to ransom and gives when sold,
    /// and what may be done with them.
    pub fn captive_terms(&self, fighter: FighterId) -> Result<CaptiveTerms> {
        use crate::rules::CaptiveAction;
        let f = self.fighter(fighter)?;
        let owner = self.gang(f.gang)?;
        let pack = self.gang_pack(&owner)?;
        let worth = self.worth_of(&f)?;
        let Some(rules) = &pack.captives else {
            return Ok(CaptiveTerms {
                resource: None,
                ransom: None,
                sell: None,
                may_ransom: true,
                may_release: true,
                may_sell: false,
            });
        };
        let price = |p: &crate::rules::Price| {
            let worth = p.basis(worth, |by| {
                crate::campaign::rating::hiring_cost(pack, &f, by)
            });
            CaptivePrice {
                said: p.said(worth),
                amount: p.amount(worth).filter(|_| p.between.is_none()),
                between: p.between,
            }
        };
        Ok(CaptiveTerms {
            resource: Some((
                rules.resource.clone(),
                pack.resource_label(&rules.resource).to_owned(),
            )),
            ransom: rules.ransom.as_ref().map(price),
            sell: rules.sell.as_ref().map(|s| price(&s.price)),
            may_ransom: rules.may(CaptiveAction::Ransom),
            may_release: rules.may(CaptiveAction::Release),
            may_sell: rules.may(CaptiveAction::Sell),
        })
    }

    /// The captors sell a captive at the pack's price.
    pub fn sell_captive(&mut self, fighter: FighterId, amount: i64) -> Result<BatchId> {
        let (f, owner, captors) = self.held(fighter)?;
        let worth = self.worth_of(&f)?;
        let events = commands::sell(self.gang_pack(&owner)?, &f, &captors, amount, worth)?;
        self.commit(&format!("{} sells {}", captors.name, f.name), events)
    }

    /// The captors free a captive.
    pub fn release(&mut self, fighter: FighterId) -> Result<BatchId> {
        let (f, owner, captors) = self.held(fighter)?;
        let events = commands::release(self.gang_pack(&owner)?, &f, &captors)?;
        self.commit(&format!("{} releases {}", captors.name, f.name), events)
    }

    /// Heals a lasting injury or reverses an advancement.
    pub fn remove_lasting(
        &mut self,
        effect: crate::campaign::EffectId,
        reason: &str,
    ) -> Result<BatchId> {
        let e = self
            .store
            .lasting_effect(effect)?
            .ok_or_else(|| anyhow!("no lasting effect #{effect} in this campaign"))?;
        let f = self.fighter(e.fighter)?;
        let mut events = commands::remove_lasting(&f, &e, reason)?;
        // A group's lasting effects are the group's: the same one goes
        // from every member.
        let mates = self.group_mates(f.id)?;
        if !mates.is_empty() {
            let lasting = self.store.lasting_effects_of_gang(f.gang)?;
            for mate in &mates {
                let same = lasting.iter().find(|x| {
                    x.fighter == mate.id
                        && x.removed.is_none()
                        && (&x.table, &x.name, x.battle) == (&e.table, &e.name, e.battle)
                });
                if let Some(same) = same {
                    events.extend(commands::remove_lasting(mate, same, reason)?);
                }
            }
        }
        self.commit(&format!("{}: remove {}", f.name, e.name), events)
    }

    /// Closes the open arc between two gangs by hand.
    pub fn close_arc(&mut self, arc: usize, reason: &str) -> Result<BatchId> {
        let story = self.chronicle()?;
        let found = story
            .arcs
            .iter()
            .find(|a| a.id == arc)
            .ok_or_else(|| anyhow!("no arc #{arc} in this campaign"))?;
        if found.closed {
            bail!("arc #{arc} is already closed");
        }
        let reason = reason.trim();
        if reason.is_empty() {
            bail!("closing an arc needs a reason for the log");
        }
        let label = format!("Close arc #{arc}: {} vs {}", found.gangs[0], found.gangs[1]);
        self.commit(
            &label,
            vec![Event::ArcClosed {
                gangs: found.gang_ids,
                reason: reason.to_owned(),
            }],
        )
    }
}

/// A roster as one event of a change would leave it (the events that make
/// or change a fighter; others leave it as it is).
fn changed_roster(roster: &mut Vec<Fighter>, event: &Event) {
    fn find(roster: &mut [Fighter], id: FighterId) -> Option<&mut Fighter> {
        roster.iter_mut().find(|f| f.id == id)
    }
    match event {
        Event::FighterRecruited { fighter } => roster.push(fighter.clone()),
        Event::QuirksChanged { fighter, to, .. } => {
            if let Some(f) = find(roster, *fighter) {
                f.quirks = to.clone();
            }
        }
        Event::BaseStatSet {
            fighter, stat, to, ..
        } => {
            if let Some(f) = find(roster, *fighter) {
                match to {
                    Some(v) => f.base.insert(stat.clone(), *v),
                    None => f.base.remove(stat),
                };
            }
        }
        _ => {}
    }
}

/// What a captive costs and what may be done with them, as the pack's
/// `[captives]` says (everything open where it has none).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CaptiveTerms {
    /// The resource paid (id, label), where the pack names one.
    pub resource: Option<(String, String)>,
    pub ransom: Option<CaptivePrice>,
    pub sell: Option<CaptivePrice>,
    pub may_ransom: bool,
    pub may_release: bool,
    pub may_sell: bool,
}

/// A captive's price in words, and the one amount it allows (or its
/// range).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CaptivePrice {
    pub said: String,
    pub amount: Option<i64>,
    pub between: Option<[i64; 2]>,
}
