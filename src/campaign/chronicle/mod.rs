//! The chronicle: the story of a campaign read from its event log alone —
//! battles in order with what each changed, the arcs they form, resource
//! actions, and rivalries. Pure: the log and names in, the story out.
//!
//! Only what is in effect counts: a batch taken back, and the batch that
//! took it back, are left out; a redo counts as the change it redoes.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::battle::Battle;
use super::{BatchId, Event, FighterId, GangId, Names};

mod arcs;
mod read;
mod rivals;

pub use arcs::{ArcMark, Fought, arcs};
use read::{Between, Series, battle_story, tell_events};
use rivals::Rivals;

/// One logged event as the chronicle reads it.
#[derive(Debug, Clone)]
pub struct Logged {
    pub batch: BatchId,
    pub undoes: Option<BatchId>,
    pub at: String,
    pub event: Event,
}

/// What the pack says about a scenario, for arcs.
#[derive(Debug, Clone)]
pub struct ScenarioInfo {
    pub name: String,
    pub stage: Option<(String, String, u32)>,
}

/// An arc stage as the chronicle needs it.
#[derive(Debug, Clone, Default)]
pub struct StageInfo {
    pub id: String,
    pub name: String,
    /// The names of its scenarios.
    pub scenarios: Vec<String>,
    /// When it comes next (the pack's `when_winner_repeats`).
    pub when_winner_repeats: Option<bool>,
    /// What the pack's ruling on the arc's path decided, where one does.
    pub ruling: Option<String>,
}

/// What the chronicle needs from the packs.
#[derive(Debug, Clone, Default)]
pub struct StoryRules {
    /// Scenario id → its name and arc stage (id, name, step).
    pub scenarios: BTreeMap<String, ScenarioInfo>,
    /// Step → the stages at that step.
    pub stages: BTreeMap<u32, Vec<StageInfo>>,
    /// The counter holding a bounty.
    pub bounty_counter: Option<String>,
    /// Outcome id → label.
    pub outcomes: BTreeMap<String, String>,
    /// The outcomes of a fighter who came through a battle as usual; the
    /// others are told as takedowns.
    pub default_outcomes: BTreeSet<String>,
    /// The heading over a battle's takedowns (the pack's `words.takedowns`).
    pub takedowns_heading: String,
    /// The names of the arc stages that begin an arc.
    pub opening_stages: Vec<String>,
    /// Role id → label (Captors, Hunters…).
    pub roles: BTreeMap<String, String>,
    /// What the pack calls one record, as a title ("Battle", "Session").
    pub record_title: String,
    /// The campaign's record rules, for its record nouns.
    pub record: crate::rules::RecordRules,
    /// The campaign's game's words (gang, fighter, entry, leader).
    pub words: crate::rules::Words,
    /// The heading over what a record left on its fighters: the pack's
    /// injury table's name, or the app's own `Lasting effects`.
    pub injuries_heading: String,
    /// What the pack calls a gang leaving the game early, where it can.
    pub ran: Option<String>,
    /// Record flag id → its label (The story concludes).
    pub flags: BTreeMap<String, String>,
}

/// A gang in a battle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GangInBattle {
    pub gang: String,
    pub role: Option<String>,
    pub ran_for_it: bool,
    pub won: bool,
    /// Where it finished, in a record placed first to last or a challenge.
    pub place: Option<u32>,
    /// Whether it challenged, in a challenge.
    pub challenger: bool,
}

/// One battle and everything it changed, in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleStory {
    pub battle: i64,
    pub at: String,
    /// What the pack calls one record, as a title ("Battle", "Session").
    pub record: String,
    /// The scenario's name; `None` where the pack plays no scenarios.
    pub scenario: Option<String>,
    pub stage: Option<String>,
    pub gangs: Vec<GangInBattle>,
    /// The winner, or `None` when there is none.
    pub winner: Option<String>,
    pub takedowns: Vec<String>,
    pub rewards: Vec<String>,
    pub bounties: Vec<String>,
    pub rolls: Vec<String>,
    pub injuries: Vec<String>,
    pub advancements: Vec<String>,
    pub departures: Vec<String>,
    pub titles: Vec<String>,
    /// Counters it changed other than bounties (HP, stress, plot points).
    pub counters: Vec<String>,
    /// The boxes it ticked (the story concludes), as labelled.
    pub ticked: Vec<String>,
    /// The packs it was played with, each with its version, where the
    /// group's own data was one of them.
    pub played_with: Vec<String>,
    pub notes: String,
    /// What kind of record it was (a shape's label), where the game has
    /// several.
    pub shape: Option<String>,
    /// The holding at stake, by name.
    pub stake: Option<String>,
    /// The cycle it counted in.
    pub cycle: Option<u32>,
    /// The holdings that changed hands in it ("took The Weir from …").
    pub holdings: Vec<String>,
    /// The end of the cycle it completed, and what the end changed.
    pub cycle_end: Vec<String>,
}

/// An arc: connected battles between two gangs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArcStory {
    /// Numbered from 1 in the order arcs began.
    pub id: usize,
    pub gangs: [String; 2],
    #[serde(skip)]
    pub gang_ids: [GangId; 2],
    pub battles: Vec<i64>,
    pub stages: Vec<String>,
    pub closed: bool,
    /// Why it closed, when it did.
    pub closed_by: Option<String>,
    /// The stages that could come next, with their scenarios.
    pub next: Vec<(String, Vec<String>)>,
    /// Why those stages come next, where the arc's results chose among
    /// alternatives, said to rest on a ruling where it does.
    pub next_why: Option<String>,
    /// What that ruling decided (for the window; the exports say the
    /// ruling is there).
    #[serde(skip)]
    pub next_ruling: Option<String>,
}

/// Between battles.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionStory {
    pub at: String,
    /// The battle it came after (0: before any).
    pub after_battle: i64,
    pub text: String,
}

/// A cycle that ended, and the titles as it left them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CycleStory {
    pub cycle: u32,
    /// The record it ended at or after (0: before any).
    pub after_battle: i64,
    /// Each title held then: `Tide King: Grey Oars`.
    pub titles: Vec<String>,
}

/// Who took down whom.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rivalry {
    pub fighter: String,
    pub gang: String,
    /// Rival fighter → how often they took this fighter down.
    pub downed_by: Vec<(String, usize)>,
    /// The rival who took them down most (the first to do so on a tie).
    pub nemesis: Option<String>,
}

/// A bounty still standing, and since when.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingBounty {
    pub fighter: String,
    pub bounty: i64,
    /// The battle after which it was first raised (0: before any battle).
    pub since_battle: i64,
}

/// The whole story.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chronicle {
    pub battles: Vec<BattleStory>,
    pub arcs: Vec<ArcStory>,
    pub actions: Vec<ActionStory>,
    /// Gang pair → takedowns each way: (gang, takedowns of the other).
    pub gang_rivalries: Vec<(String, usize, String, usize)>,
    pub rivalries: Vec<Rivalry>,
    pub longest_bounty: Option<StandingBounty>,
    /// The cycles that have ended, where the game has cycles.
    pub cycles: Vec<CycleStory>,
    /// For charts: (gang, resource id) → the amount after each battle it
    /// fought or that changed it (it stands unchanged in between).
    #[serde(skip)]
    pub resource_series: BTreeMap<(String, String), Vec<(i64, i64)>>,
    /// For charts: title id → its holder after each battle.
    #[serde(skip)]
    pub title_series: BTreeMap<String, Vec<(i64, Option<String>)>>,
    /// The heading over a battle's takedowns, in the pack's words.
    #[serde(skip)]
    pub takedowns_heading: String,
    /// The names of the arc stages that begin an arc, to say how one starts.
    #[serde(skip)]
    pub opening_stages: Vec<String>,
    /// What the pack calls a gang leaving the game early ("Ran For It").
    #[serde(skip)]
    pub ran: Option<String>,
    /// The campaign's record rules, for its record nouns.
    #[serde(skip)]
    pub record: crate::rules::RecordRules,
    /// The campaign's game's words (gang, fighter, entry, leader).
    #[serde(skip)]
    pub words: crate::rules::Words,
    /// The heading over what a record left on its fighters (the pack's
    /// injury table's name).
    #[serde(skip)]
    pub injuries_heading: String,
}

impl Chronicle {
    /// The story of one arc: its battles, itself, and the rivalries of
    /// those battles alone (`records`: the arc's battles as recorded).
    pub fn arc(&self, id: usize, records: &[Battle], names: &Names) -> Option<Chronicle> {
        let arc = self.arcs.iter().find(|a| a.id == id)?.clone();
        let keep: BTreeSet<i64> = arc.battles.iter().copied().collect();
        let (gang_rivalries, rivalries) = Rivals::of(records, names);
        let first = arc.battles.first().copied().unwrap_or(0);
        let last = arc.battles.last().copied().unwrap_or(0);
        Some(Chronicle {
            battles: self
                .battles
                .iter()
                .filter(|b| keep.contains(&b.battle))
                .cloned()
                .collect(),
            actions: self
                .actions
                .iter()
                .filter(|a| a.after_battle >= first && a.after_battle < last)
                .cloned()
                .collect(),
            arcs: vec![arc],
            gang_rivalries,
            rivalries,
            longest_bounty: None,
            cycles: Vec::new(),
            resource_series: self
                .resource_series
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.iter()
                            .filter(|(b, _)| keep.contains(b))
                            .copied()
                            .collect(),
                    )
                })
                .collect(),
            title_series: self
                .title_series
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.iter()
                            .filter(|(b, _)| keep.contains(b))
                            .cloned()
                            .collect(),
                    )
                })
                .collect(),
            takedowns_heading: self.takedowns_heading.clone(),
            ran: self.ran.clone(),
            record: self.record.clone(),
            words: self.words.clone(),
            injuries_heading: self.injuries_heading.clone(),
            opening_stages: self.opening_stages.clone(),
        })
    }
}

/// The batches in effect, of every batch with the one it takes back: not
/// taken back, and not themselves an undo.
pub fn in_effect(
    batches: impl IntoIterator<Item = (BatchId, Option<BatchId>)>,
) -> BTreeSet<BatchId> {
    let parent: BTreeMap<BatchId, Option<BatchId>> = batches.into_iter().collect();
    let undone: BTreeSet<BatchId> = parent.values().flatten().copied().collect();
    let depth = |mut b: BatchId| {
        let mut d = 0;
        while let Some(Some(p)) = parent.get(&b) {
            b = *p;
            d += 1;
        }
        d
    };
    parent
        .keys()
        .copied()
        .filter(|b| !undone.contains(b) && depth(*b) % 2 == 0)
        .collect()
}

/// Reads the chronicle from the log a batch at a time, oldest first, so
/// that the whole log is never held at once.
pub struct Reader<'a> {
    names: &'a Names,
    rules: &'a StoryRules,
    in_effect: BTreeSet<BatchId>,
    battles: Vec<BattleStory>,
    fought: Vec<Fought>,
    rivals: Rivals,
    between: Between,
    series: Series,
    editions: crate::rules::PackEditions,
    /// Each title's holder by name (a gang's or a faction's), as it becomes.
    holders: BTreeMap<String, String>,
    cycles: Vec<CycleStory>,
}

impl<'a> Reader<'a> {
    /// A reader of the batches `in_effect` (see [`in_effect`]).
    pub fn new(names: &'a Names, rules: &'a StoryRules, in_effect: BTreeSet<BatchId>) -> Self {
        Reader {
            names,
            rules,
            in_effect,
            battles: Vec::new(),
            fought: Vec::new(),
            rivals: Rivals::default(),
            between: Between::default(),
            series: Series::default(),
            editions: crate::rules::PackEditions::default(),
            holders: BTreeMap::new(),
            cycles: Vec::new(),
        }
    }

    /// Follows the titles a batch moves, and keeps the titles as each
    /// cycle it ends left them (`battle`: the record it ends at or after).
    fn follow_cycles(&mut self, entries: &[Logged], battle: i64) {
        let names = self.names;
        let mut ended = None;
        for l in entries {
            let (title, to) = match &l.event {
                Event::TitleChanged { title, to, .. } => (title, to.map(|g| names.gang(g))),
                Event::FactionTitleChanged { title, to, .. } => {
                    (title, to.as_deref().map(|f| names.label(f)))
                }
                Event::CycleEnded { cycle } => {
                    ended = Some(*cycle);
                    continue;
                }
                _ => continue,
            };
            let title = names.label(title);
            match to {
                Some(holder) => self.holders.insert(title, holder),
                None => self.holders.remove(&title),
            };
        }
        if let Some(cycle) = ended {
            self.cycles.push(CycleStory {
                cycle,
                after_battle: battle,
                titles: self
                    .holders
                    .iter()
                    .map(|(t, h)| format!("{t}: {h}"))
                    .collect(),
            });
        }
    }

    /// Reads one batch's events; a batch not in effect is passed over.
    pub fn batch(&mut self, entries: &[Logged]) {
        let Some(first) = entries.first() else {
            return;
        };
        if !self.in_effect.contains(&first.batch) {
            return;
        }
        let (names, rules) = (self.names, self.rules);
        self.series.follow(entries);
        let recorded = entries.iter().find_map(|l| match &l.event {
            Event::BattleRecorded { battle } => Some(battle),
            _ => None,
        });
        let last_battle = self.battles.last().map_or(0, |b| b.battle);
        let Some(battle) = recorded else {
            let read = self.battles.len();
            self.between
                .follow(entries, names, rules, last_battle, read);
            self.follow_cycles(entries, last_battle);
            self.titles_between(entries);
            return;
        };
        self.follow_cycles(entries, battle.id.0);
        let mut story = battle_story(battle, entries, names, rules, &mut self.editions);
        tell_events(
            &mut story,
            entries,
            names,
            rules,
            &mut self.between.bounty_since,
        );
        self.series.take_points(battle, names);
        self.rivals.count(battle);
        self.fought.push(Fought::from(battle));
        self.battles.push(story);
    }

    /// The titles a batch between records passes. One chosen after the
    /// record that made its gang qualify for several is told with that
    /// record, whose points on the chart of titles show it as it became;
    /// those a cycle ended by hand passes, or passed before any record,
    /// are told between records.
    fn titles_between(&mut self, entries: &[Logged]) {
        let names = self.names;
        let passed: Vec<&Logged> = entries
            .iter()
            .filter(|l| matches!(l.event, Event::TitleChanged { .. }))
            .collect();
        if passed.is_empty() {
            return;
        }
        let ends_cycle = entries
            .iter()
            .any(|l| matches!(l.event, Event::CycleEnded { .. }));
        match self.battles.last_mut() {
            Some(story) if !ends_cycle => {
                story.titles.extend(passed.iter().map(|l| {
                    format!(
                        "{} (chosen after the {})",
                        l.event.describe(names),
                        names.record_noun
                    )
                }));
                self.series.retake_titles(story.battle, names);
            }
            last => {
                let after_battle = last.map_or(0, |b| b.battle);
                self.between
                    .actions
                    .extend(passed.iter().map(|l| ActionStory {
                        at: l.at.clone(),
                        after_battle,
                        text: l.event.describe(names),
                    }));
            }
        }
    }

    /// The story of the batches read.
    pub fn finish(self) -> Chronicle {
        let Reader {
            names,
            rules,
            battles,
            fought,
            rivals,
            between,
            series,
            cycles,
            ..
        } = self;
        let arcs = arcs(&fought, &between.closures, rules, names);
        let (gang_rivalries, rivalries) = rivals.finish(names);
        let longest_bounty = between
            .bounty_since
            .iter()
            .filter(|(_, (value, _))| *value > 0)
            .min_by_key(|(id, (_, since))| (*since, **id))
            .map(|(id, (value, since))| StandingBounty {
                fighter: names.fighter(*id),
                bounty: *value,
                since_battle: *since,
            });
        Chronicle {
            battles,
            arcs,
            actions: between.actions,
            gang_rivalries,
            rivalries,
            longest_bounty,
            cycles,
            resource_series: series.resource_series,
            title_series: series.title_series,
            takedowns_heading: rules.takedowns_heading.clone(),
            ran: rules.ran.clone(),
            record: rules.record.clone(),
            words: rules.words.clone(),
            injuries_heading: rules.injuries_heading.clone(),
            opening_stages: rules.opening_stages.clone(),
        }
    }
}

fn sorted(gangs: [GangId; 2]) -> [GangId; 2] {
    let mut g = gangs;
    g.sort();
    g
}

/// Keeps when each bounty was first raised, while it stands.
fn track_bounty(
    since: &mut BTreeMap<FighterId, (i64, i64)>,
    fighter: FighterId,
    from: i64,
    to: i64,
    battle: i64,
) {
    if to <= 0 {
        since.remove(&fighter);
    } else if from <= 0 || !since.contains_key(&fighter) {
        since.insert(fighter, (to, battle));
    } else if let Some(entry) = since.get_mut(&fighter) {
        entry.0 = to;
    }
}
