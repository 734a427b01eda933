//! Arcs: which battles between two gangs form one, what closes it, and
//! which stages may come next. Read from the battles' gangs, scenarios and
//! winners and the arcs closed or reopened by hand, so that the next
//! scenario between two gangs is found from their battles alone.

use std::collections::BTreeMap;

use super::super::battle::Battle;
use super::super::{Event, GangId, Names};
use super::{ArcStory, StageInfo, StoryRules, sorted};

/// What an arc needs of a battle: its gangs, scenario and winner.
#[derive(Debug, Clone)]
pub struct Fought {
    pub id: i64,
    pub gangs: Vec<GangId>,
    pub scenario: Option<String>,
    pub winner: Option<GangId>,
}

impl From<&Battle> for Fought {
    fn from(battle: &Battle) -> Self {
        Fought {
            id: battle.id.0,
            gangs: battle.gangs.iter().map(|g| g.gang).collect(),
            scenario: battle.scenario.clone(),
            winner: battle.winner,
        }
    }
}

/// An arc closed (or reopened) by hand between two gangs, after `after`
/// of the battles read.
#[derive(Debug, Clone)]
pub struct ArcMark {
    pub after: usize,
    pub pair: [GangId; 2],
    pub close: bool,
    pub reason: String,
}

impl ArcMark {
    /// The mark an event makes, read after `after` battles: `None` for an
    /// event that closes or reopens no arc.
    pub fn of(event: &Event, after: usize) -> Option<ArcMark> {
        let (gangs, close, reason) = match event {
            Event::ArcClosed { gangs, reason } => (gangs, true, reason),
            Event::ArcReopened { gangs, reason } => (gangs, false, reason),
            _ => return None,
        };
        Some(ArcMark {
            after,
            pair: sorted(*gangs),
            close,
            reason: reason.clone(),
        })
    }
}

/// Groups battles into arcs: a First Blood (the lowest step) begins one;
/// later battles between the same gangs join the open arc; the last stage
/// closes it, as does closing it by hand.
pub fn arcs(
    battles: &[Fought],
    marks: &[ArcMark],
    rules: &StoryRules,
    names: &Names,
) -> Vec<ArcStory> {
    let gang = |id: GangId| names.gang(id);
    let first_step = rules.stages.keys().next().copied();
    let last_step = rules.stages.keys().next_back().copied();
    let mut arcs: Vec<ArcStory> = Vec::new();
    let mut open: BTreeMap<[GangId; 2], usize> = BTreeMap::new();
    let apply_closures = |upto: usize,
                          arcs: &mut Vec<ArcStory>,
                          open: &mut BTreeMap<[GangId; 2], usize>,
                          done: &mut usize| {
        while let Some(mark) = marks.get(*done).filter(|m| m.after <= upto) {
            let ArcMark {
                pair,
                close,
                reason,
                ..
            } = mark;
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
        let pair = sorted([battle.gangs[0], battle.gangs[1]]);
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
        arc.battles.push(battle.id);
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
