//! The chronicle read from the log in parts: a battle's story and what
//! its batch changed, the resource and title series for the charts, and
//! what happens between battles.

use std::collections::{BTreeMap, BTreeSet};

use super::super::battle::Battle;
use super::super::{Event, FighterId, GangId, Names};
use super::{ActionStory, BattleStory, GangInBattle, Logged, StoryRules, track_bounty};

/// The resources and titles as they become, for the charts: a point
/// where a gang fought or its amount changed.
#[derive(Default)]
pub(super) struct Series {
    amounts: BTreeMap<(GangId, String), i64>,
    /// The amounts changed since the last battle's points were taken.
    touched: BTreeSet<(GangId, String)>,
    holders: BTreeMap<String, Option<GangId>>,
    pub(super) resource_series: BTreeMap<(String, String), Vec<(i64, i64)>>,
    pub(super) title_series: BTreeMap<String, Vec<(i64, Option<String>)>>,
}

impl Series {
    /// Follows a batch's resources and titles as they become.
    pub(super) fn follow(&mut self, entries: &[Logged]) {
        for l in entries {
            match &l.event {
                Event::GangFounded { gang: g } => {
                    for (r, v) in &g.resources {
                        self.amounts.insert((g.id, r.clone()), *v);
                        self.touched.insert((g.id, r.clone()));
                    }
                }
                Event::ResourceAdjusted {
                    gang: g,
                    resource,
                    to,
                    ..
                } => {
                    self.amounts.insert((*g, resource.clone()), *to);
                    self.touched.insert((*g, resource.clone()));
                }
                Event::TitleChanged { title, to, .. } => {
                    self.holders.insert(title.clone(), *to);
                }
                _ => {}
            }
        }
    }

    /// Takes a battle's points: the amounts of the gangs that fought and
    /// of those changed since, and every title's holder.
    pub(super) fn take_points(&mut self, battle: &Battle, names: &Names) {
        // A point where the gang fought or its amount changed: a
        // league's series hold what happened, not every gang at every
        // battle (the amount stands in between).
        for bg in &battle.gangs {
            let theirs = self
                .amounts
                .range((bg.gang, String::new())..)
                .take_while(|((g, _), _)| *g == bg.gang);
            self.touched.extend(theirs.map(|(key, _)| key.clone()));
        }
        for (g, r) in std::mem::take(&mut self.touched) {
            if let Some(v) = self.amounts.get(&(g, r.clone())) {
                self.resource_series
                    .entry((names.gang(g), r))
                    .or_default()
                    .push((battle.id.0, *v));
            }
        }
        self.retake_titles(battle.id.0, names);
    }

    /// Every title's holder as it stands, as its point at `battle`: the
    /// point taken again where it was taken before the title passed
    /// (chosen after the record).
    pub(super) fn retake_titles(&mut self, battle: i64, names: &Names) {
        for (t, h) in &self.holders {
            let series = self
                .title_series
                .entry(names.labels.get(t).cloned().unwrap_or_else(|| t.clone()))
                .or_default();
            let holder = h.map(|id| names.gang(id));
            match series.last_mut() {
                Some(point) if point.0 == battle => point.1 = holder,
                _ => series.push((battle, holder)),
            }
        }
    }
}

/// What the chronicle gathers from the batches between battles: the
/// resource actions, the arcs closed and reopened, and since when each
/// fighter's bounty stands (battles add to it too).
#[derive(Default)]
pub(super) struct Between {
    pub(super) actions: Vec<ActionStory>,
    pub(super) closures: Vec<super::ArcMark>,
    pub(super) bounty_since: BTreeMap<FighterId, (i64, i64)>,
}

impl Between {
    /// Follows a batch that records no battle: `last_battle` the battle
    /// before it, `battles` how many battles came before it.
    pub(super) fn follow(
        &mut self,
        entries: &[Logged],
        names: &Names,
        rules: &StoryRules,
        last_battle: i64,
        battles: usize,
    ) {
        for l in entries {
            match &l.event {
                Event::ActionTaken { .. }
                | Event::HoldingChanged { .. }
                | Event::CycleEnded { .. }
                | Event::GangFactionChanged { .. }
                | Event::FactionTitleChanged { .. } => self.actions.push(ActionStory {
                    at: l.at.clone(),
                    after_battle: last_battle,
                    text: l.event.describe(names),
                }),
                Event::ArcClosed { .. } | Event::ArcReopened { .. } => {
                    self.closures.extend(super::ArcMark::of(&l.event, battles));
                }
                Event::CounterChanged {
                    fighter: f,
                    counter,
                    from,
                    to,
                    ..
                } if rules.bounty_counter.as_deref() == Some(counter.as_str()) => {
                    track_bounty(&mut self.bounty_since, *f, *from, *to, last_battle);
                }
                _ => {}
            }
        }
    }
}

/// A battle's story as recorded: when, which scenario and stage, the gangs
/// and the winner, the takedowns, the flags ticked, the packs played
/// with, the notes, and the bounties declined. What the battle changed is
/// told by `tell_events`.
pub(super) fn battle_story(
    battle: &Battle,
    entries: &[Logged],
    names: &Names,
    rules: &StoryRules,
    editions: &mut crate::rules::PackEditions,
) -> BattleStory {
    let gang = |id: GangId| names.gang(id);
    let fighter = |id: FighterId| names.fighter(id);
    let mut story = BattleStory {
        battle: battle.id.0,
        at: entries.first().map_or(String::new(), |l| l.at.clone()),
        record: rules.record_title.clone(),
        scenario: battle.scenario.as_ref().map(|id| {
            rules
                .scenarios
                .get(id)
                .map_or_else(|| id.clone(), |s| s.name.clone())
        }),
        stage: battle
            .scenario
            .as_ref()
            .and_then(|id| rules.scenarios.get(id))
            .and_then(|s| s.stage.as_ref())
            .map(|s| s.1.clone()),
        gangs: battle
            .gangs
            .iter()
            .map(|g| GangInBattle {
                gang: gang(g.gang),
                role: g
                    .role
                    .as_ref()
                    .map(|r| rules.roles.get(r).cloned().unwrap_or_else(|| r.clone())),
                ran_for_it: g.ran_for_it,
                won: battle.winner == Some(g.gang),
                place: g.place,
                challenger: g.challenger,
            })
            .collect(),
        winner: battle.winner.map(gang),
        takedowns: takedowns(battle, rules, &fighter),
        rewards: Vec::new(),
        bounties: Vec::new(),
        rolls: Vec::new(),
        injuries: Vec::new(),
        advancements: Vec::new(),
        departures: Vec::new(),
        titles: Vec::new(),
        counters: Vec::new(),
        ticked: battle
            .played
            .flags
            .iter()
            .map(|f| rules.flags.get(f).cloned().unwrap_or_else(|| f.clone()))
            .collect(),
        // Said where the group's own data took part: which version
        // of it the record was played with.
        played_with: if battle.played.packs.iter().any(|p| p.house_rules) {
            battle
                .played
                .packs
                .iter()
                .map(|stamp| stamp.describe(editions.of(stamp)))
                .collect()
        } else {
            Vec::new()
        },
        notes: battle.notes.clone(),
        shape: battle.shape.as_deref().map(|s| {
            rules
                .record
                .shape(s)
                .map_or_else(|| s.to_owned(), |d| d.label.clone())
        }),
        stake: battle.stake.as_deref().map(|h| names.label(h)),
        cycle: battle.cycle,
        holdings: Vec::new(),
        cycle_end: Vec::new(),
    };
    for gang in &battle.declined {
        let word = rules
            .bounty_counter
            .as_ref()
            .and_then(|c| names.labels.get(c))
            .cloned()
            .unwrap_or_default();
        story.bounties.push(format!(
            "{} declared no {word}",
            names.gangs.get(gang).cloned().unwrap_or_default()
        ));
    }
    story
}

/// A battle's takedowns: each fighter who did not come through as usual,
/// with the outcome and who brought them down.
fn takedowns(
    battle: &Battle,
    rules: &StoryRules,
    fighter: &dyn Fn(FighterId) -> String,
) -> Vec<String> {
    battle
        .fighters
        .iter()
        .filter(|f| !rules.default_outcomes.contains(&f.outcome))
        .map(|f| {
            let outcome = rules
                .outcomes
                .get(&f.outcome)
                .cloned()
                .unwrap_or(f.outcome.clone());
            match f.downed_by {
                Some(by) => {
                    format!("{} — {outcome} by {}", fighter(f.fighter), fighter(by))
                }
                None => format!("{} — {outcome}", fighter(f.fighter)),
            }
        })
        .collect()
}

/// Tells what a battle's batch changed, each event under its heading:
/// rewards, bounties, counters, injuries, rolls, advancements, departures
/// and titles.
pub(super) fn tell_events(
    story: &mut BattleStory,
    entries: &[Logged],
    names: &Names,
    rules: &StoryRules,
    bounty_since: &mut BTreeMap<FighterId, (i64, i64)>,
) {
    // What follows a cycle's end in the record is the end's.
    let mut ended = false;
    for l in entries {
        let text = l.event.describe(names);
        match &l.event {
            Event::CycleEnded { .. } => {
                ended = true;
                story.cycle_end.push(text);
            }
            Event::TitleChanged { .. } | Event::FactionTitleChanged { .. } => {
                story.titles.push(text)
            }
            // What was at stake is said beside it: the reason is not.
            Event::HoldingChanged {
                holding, from, to, ..
            } => story.holdings.push(
                Event::HoldingChanged {
                    holding: holding.clone(),
                    from: *from,
                    to: *to,
                    reason: String::new(),
                }
                .describe(names),
            ),
            _ if ended => story.cycle_end.push(text),
            Event::ResourceAdjusted { .. } => story.rewards.push(text),
            Event::CounterChanged {
                fighter: f,
                counter,
                from,
                to,
                ..
            } => {
                if rules.bounty_counter.as_deref() == Some(counter.as_str()) {
                    track_bounty(bounty_since, *f, *from, *to, story.battle);
                    story.bounties.push(text);
                } else {
                    story.counters.push(text);
                }
            }
            Event::LastingEffectRemoved { .. } => story.injuries.push(text),
            Event::TableRolled { .. } => story.rolls.push(text),
            Event::LastingEffectAdded { effect } => {
                if effect.table.contains("advancement") {
                    story.advancements.push(text);
                } else {
                    story.injuries.push(text);
                }
            }
            Event::QuirksChanged { .. } => story.advancements.push(text),
            // A new leader follows one who left, in the same record.
            Event::FighterStatusChanged { .. }
            | Event::FighterTransferred { .. }
            | Event::LeaderChanged { .. } => {
                story.departures.push(text);
            }
            _ => {}
        }
    }
}
