//! The chronicle: the story of a campaign read from its event log alone —
//! battles in order with what each changed, the arcs they form, resource
//! actions, and rivalries. Pure: the log and names in, the story out.
//!
//! Only what is in effect counts: a batch taken back, and the batch that
//! took it back, are left out; a redo counts as the change it redoes.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::battle::Battle;
use super::{BatchId, BattleId, Event, FighterId, GangId, Names};

mod read;

use read::{Between, Series, battle_story, tell_events};

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
    /// The battles as recorded, for narrowing the story to an arc.
    #[serde(skip)]
    pub records: Vec<Battle>,
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
    /// those battles alone.
    pub fn arc(&self, id: usize, names: &Names) -> Option<Chronicle> {
        let arc = self.arcs.iter().find(|a| a.id == id)?.clone();
        let keep: BTreeSet<i64> = arc.battles.iter().copied().collect();
        let records: Vec<Battle> = self
            .records
            .iter()
            .filter(|b| keep.contains(&b.id.0))
            .cloned()
            .collect();
        let gang = |id: GangId| names.gang(id);
        let fighter = |id: FighterId| names.fighter(id);
        let (gang_rivalries, rivalries) = rivalries_of(&records, &gang, &fighter);
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
            records,
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

/// The batches in effect: not taken back, and not themselves an undo.
fn effective(log: &[Logged]) -> BTreeSet<BatchId> {
    let parent: BTreeMap<BatchId, Option<BatchId>> =
        log.iter().map(|l| (l.batch, l.undoes)).collect();
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

/// Reads the chronicle from the log.
pub fn chronicle(log: &[Logged], names: &Names, rules: &StoryRules) -> Chronicle {
    let in_effect = effective(log);
    let mut batches: BTreeMap<BatchId, Vec<&Logged>> = BTreeMap::new();
    for l in log.iter().filter(|l| in_effect.contains(&l.batch)) {
        batches.entry(l.batch).or_default().push(l);
    }
    let gang = |id: GangId| names.gang(id);
    let fighter = |id: FighterId| names.fighter(id);

    let mut battles = Vec::new();
    let mut battle_records: Vec<Battle> = Vec::new();
    let mut between = Between::default();
    let mut series = Series::default();
    let mut editions = crate::rules::PackEditions::default();
    for entries in batches.values() {
        series.follow(entries);
        let recorded = entries.iter().find_map(|l| match &l.event {
            Event::BattleRecorded { battle } => Some(battle.clone()),
            _ => None,
        });
        let last_battle = battles.last().map_or(0, |b: &BattleStory| b.battle);
        if let Some(battle) = recorded {
            let mut story = battle_story(&battle, entries, names, rules, &mut editions);
            tell_events(&mut story, entries, names, rules, &mut between.bounty_since);
            series.take_points(&battle, names);
            battle_records.push(battle);
            battles.push(story);
            continue;
        }
        between.follow(entries, names, rules, last_battle, battles.len());
    }

    let arcs = arcs_of(&battle_records, &between.closures, rules, &gang);
    let (gang_rivalries, rivalries) = rivalries_of(&battle_records, &gang, &fighter);
    let longest_bounty = between
        .bounty_since
        .iter()
        .filter(|(_, (value, _))| *value > 0)
        .min_by_key(|(id, (_, since))| (*since, **id))
        .map(|(id, (value, since))| StandingBounty {
            fighter: fighter(*id),
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
        records: battle_records,
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

/// Groups battles into arcs: a First Blood (the lowest step) begins one;
/// later battles between the same gangs join the open arc; the last stage
/// closes it, as does closing it by hand.
fn arcs_of(
    battles: &[Battle],
    closures: &[(usize, [GangId; 2], bool, String)],
    rules: &StoryRules,
    gang: &dyn Fn(GangId) -> String,
) -> Vec<ArcStory> {
    let first_step = rules.stages.keys().next().copied();
    let last_step = rules.stages.keys().next_back().copied();
    let mut arcs: Vec<ArcStory> = Vec::new();
    let mut open: BTreeMap<[GangId; 2], usize> = BTreeMap::new();
    let apply_closures = |upto: usize,
                          arcs: &mut Vec<ArcStory>,
                          open: &mut BTreeMap<[GangId; 2], usize>,
                          done: &mut usize| {
        while *done < closures.len() && closures[*done].0 <= upto {
            let (_, pair, close, reason) = &closures[*done];
            if *close {
                if let Some(i) = open.remove(pair) {
                    arcs[i].closed = true;
                    arcs[i].closed_by = Some(reason.clone());
                }
            } else if let Some(i) = arcs.iter().rposition(|a| sorted(a.gang_ids) == *pair) {
                arcs[i].closed = false;
                arcs[i].closed_by = None;
                open.insert(*pair, i);
            }
            *done += 1;
        }
    };
    let mut done = 0;
    // Each arc's winners, battle by battle.
    let mut winners: Vec<Vec<Option<GangId>>> = Vec::new();
    for (n, battle) in battles.iter().enumerate() {
        apply_closures(n, &mut arcs, &mut open, &mut done);
        if battle.gangs.len() != 2 {
            continue;
        }
        let pair = sorted([battle.gangs[0].gang, battle.gangs[1].gang]);
        let stage = battle
            .scenario
            .as_ref()
            .and_then(|id| rules.scenarios.get(id))
            .and_then(|s| s.stage.clone());
        let step = stage.as_ref().map(|s| s.2);
        let starts = step.is_some() && step == first_step;
        let index = match (starts, open.get(&pair)) {
            (false, Some(&i)) => i,
            // 003: an arc is "a short series of 2-3 connected skirmishes"
            // that First Blood begins; a later stage with no arc open
            // between the two gangs belongs to none.
            (false, None) => continue,
            (true, _) => {
                if let Some(i) = open.remove(&pair) {
                    arcs[i].closed = true;
                    let name = stage.as_ref().map_or("—", |s| s.1.as_str());
                    arcs[i].closed_by = Some(format!("a new {name} began"));
                }
                arcs.push(ArcStory {
                    id: arcs.len() + 1,
                    gangs: [gang(pair[0]), gang(pair[1])],
                    gang_ids: pair,
                    battles: Vec::new(),
                    stages: Vec::new(),
                    closed: false,
                    closed_by: None,
                    next: Vec::new(),
                    next_why: None,
                    next_ruling: None,
                });
                winners.push(Vec::new());
                open.insert(pair, arcs.len() - 1);
                arcs.len() - 1
            }
        };
        winners[index].push(battle.winner);
        let arc = &mut arcs[index];
        arc.battles.push(battle.id.0);
        arc.stages
            .push(stage.as_ref().map_or("—".into(), |s| s.1.clone()));
        if step.is_some() && step == last_step {
            arc.closed = true;
            arc.closed_by = stage.map(|s| format!("its {} {}", s.1, rules.record.noun));
            open.remove(&pair);
        } else {
            let candidates = step
                .and_then(|s| rules.stages.range(s + 1..).next())
                .map(|(_, stages)| stages.as_slice())
                .unwrap_or_default();
            let (next, why) = next_stages(candidates, arc, &winners[index], &gang);
            arc.next_ruling = why
                .as_ref()
                .and_then(|_| candidates.iter().find_map(|s| s.ruling.clone()));
            arc.next = next;
            arc.next_why = why;
        }
    }
    apply_closures(battles.len(), &mut arcs, &mut open, &mut done);
    for arc in &mut arcs {
        if arc.closed {
            arc.next.clear();
            arc.next_why = None;
            arc.next_ruling = None;
        }
    }
    arcs
}

/// The stages that may come next in an arc, of the `candidates` at the
/// next step: those whose condition on the arc's last two winners holds
/// (003: Desperation, "You lost your chance to get even"), and why.
fn next_stages(
    candidates: &[StageInfo],
    arc: &ArcStory,
    winners: &[Option<GangId>],
    gang: &dyn Fn(GangId) -> String,
) -> (Vec<(String, Vec<String>)>, Option<String>) {
    let all = || {
        candidates
            .iter()
            .map(|s| (s.name.clone(), s.scenarios.clone()))
            .collect::<Vec<_>>()
    };
    let conditional = candidates.iter().any(|s| s.when_winner_repeats.is_some());
    let (Some(Some(before)), Some(Some(last))) = (
        winners.len().checked_sub(2).and_then(|i| winners.get(i)),
        winners.last(),
    ) else {
        return (all(), None);
    };
    if !conditional {
        return (all(), None);
    }
    let repeats = before == last;
    let next: Vec<_> = candidates
        .iter()
        .filter(|s| s.when_winner_repeats.is_none_or(|w| w == repeats))
        .map(|s| (s.name.clone(), s.scenarios.clone()))
        .collect();
    let [.., first, second] = arc.stages.as_slice() else {
        return (next, None);
    };
    let mut why = if repeats {
        format!("{} won both {first} and {second}", gang(*last))
    } else {
        format!(
            "{} won {first} and {} won {second}",
            gang(*before),
            gang(*last)
        )
    };
    if candidates.iter().any(|s| s.ruling.is_some()) {
        why.push_str(" (by the pack's ruling)");
    }
    (next, Some(why))
}

type GangRivalry = (String, usize, String, usize);
/// Victim → (their gang, rival fighter → (takedowns, first battle)).
type Downed = BTreeMap<FighterId, (GangId, BTreeMap<FighterId, (usize, BattleId)>)>;

fn rivalries_of(
    battles: &[Battle],
    gang: &dyn Fn(GangId) -> String,
    fighter: &dyn Fn(FighterId) -> String,
) -> (Vec<GangRivalry>, Vec<Rivalry>) {
    let mut pairs: BTreeMap<[GangId; 2], [usize; 2]> = BTreeMap::new();
    // victim → (killer → (count, first battle))
    let mut downed: Downed = BTreeMap::new();
    for battle in battles {
        for f in &battle.fighters {
            let Some(by) = f.downed_by else { continue };
            let rival = battle.gangs.iter().map(|g| g.gang).find(|g| *g != f.gang);
            if let Some(rival) = rival {
                let pair = sorted([f.gang, rival]);
                let slot = usize::from(pair[0] != rival);
                pairs.entry(pair).or_default()[slot] += 1;
            }
            let entry = downed.entry(f.fighter).or_insert((f.gang, BTreeMap::new()));
            let count = entry.1.entry(by).or_insert((0, battle.id));
            count.0 += 1;
        }
    }
    let gang_rivalries = pairs
        .into_iter()
        .map(|(pair, counts)| (gang(pair[0]), counts[0], gang(pair[1]), counts[1]))
        .collect();
    let rivalries = downed
        .into_iter()
        .map(|(victim, (g, by))| {
            let nemesis = by
                .iter()
                .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.1.1.cmp(&a.1.1)))
                .map(|(k, _)| fighter(*k));
            let mut downed_by: Vec<(String, usize)> =
                by.iter().map(|(k, (n, _))| (fighter(*k), *n)).collect();
            downed_by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            Rivalry {
                fighter: fighter(victim),
                gang: gang(g),
                downed_by,
                nemesis,
            }
        })
        .collect();
    (gang_rivalries, rivalries)
}
