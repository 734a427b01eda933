//! Members recruited in groups that share one profile (a pack's
//! `[[groups]]`): a group is recruited whole, within its size and the
//! number of groups a side may have; what one member's stats, entries or
//! counters become, every member of the group on the roster becomes too.
//!
//! Pure: `(state, inputs, pack) → events`.

use std::collections::BTreeMap;

use super::Event;
use super::commands::{CommandError, NewFighter};
use super::model::{Fighter, FighterId, Gang, MemberGroup};
use crate::rules::Pack;

/// A group to recruit: its kind, its name, its members' names, and the
/// entries the group is recruited with.
#[derive(Debug, Clone, Default)]
pub struct NewGroup {
    pub kind: String,
    pub name: String,
    pub members: Vec<String>,
    pub quirks: Vec<super::QuirkPick>,
}

/// The groups of a side and their members on the roster, by group.
pub fn groups_of(roster: &[Fighter]) -> BTreeMap<MemberGroup, Vec<&Fighter>> {
    let mut out: BTreeMap<MemberGroup, Vec<&Fighter>> = BTreeMap::new();
    for f in roster.iter().filter(|f| f.status.on_roster()) {
        if let Some(group) = &f.group {
            out.entry(group.clone()).or_default().push(f);
        }
    }
    out
}

/// Recruits a whole group: each member as [`super::commands::recruit`]
/// does, all of the group's kind and name, with the same entries; ids
/// from `first` on.
pub fn recruit_group(
    pack: &Pack,
    gang: &Gang,
    roster: &[Fighter],
    first: FighterId,
    new: NewGroup,
) -> Result<Vec<Event>, CommandError> {
    let def = pack
        .groups
        .iter()
        .find(|g| g.id == new.kind || crate::text::same(&g.label, &new.kind))
        .ok_or_else(|| CommandError::UnknownGroup {
            kind: new.kind.clone(),
            pack: pack.pack.name.clone(),
        })?;
    let name = crate::text::name("A group", &new.name)?;
    let held = groups_of(roster);
    if held.keys().any(|g| crate::text::same(&g.name, &name)) {
        return Err(CommandError::GroupNameTaken {
            gang: gang.name.clone(),
            name,
        });
    }
    if !def.size.contains(new.members.len()) {
        return Err(CommandError::GroupSize {
            kind: def.id.clone(),
            label: def.label.clone(),
            size: def.size.describe(),
            count: new.members.len(),
        });
    }
    let has = held.keys().filter(|g| g.kind == def.id).count();
    if let Some(per_gang) = def.per_gang
        && per_gang.max().is_some_and(|m| has + 1 > m)
    {
        return Err(CommandError::TooManyGroups {
            kind: def.id.clone(),
            label: def.label.clone(),
            gang: gang.name.clone(),
            per_gang: per_gang.describe(),
            has,
        });
    }
    let group = MemberGroup {
        kind: def.id.clone(),
        name,
    };
    let mut events = Vec::new();
    let mut roster = roster.to_vec();
    let mut id = first;
    for member in new.members {
        let made = super::commands::recruit(
            pack,
            gang,
            &roster,
            id,
            NewFighter {
                name: member,
                quirks: new.quirks.clone(),
                group: Some(group.clone()),
                ..Default::default()
            },
        )?;
        for e in &made {
            if let Event::FighterRecruited { fighter } = e {
                roster.push(fighter.clone());
            }
        }
        events.extend(made);
        id = FighterId(id.0.saturating_add(1));
    }
    Ok(events)
}

/// The events of a change, with what it does to one member of a group
/// done to every other member on the roster too (their counters, entries
/// and base stats are the group's). `members` gives a fighter's group's
/// other members as they stand; a member the change already touches the
/// same way is left as it is.
pub fn shared(events: Vec<Event>, members: impl Fn(FighterId) -> Vec<Fighter>) -> Vec<Event> {
    let mut out = Vec::with_capacity(events.len());
    let mut more: Vec<Event> = Vec::new();
    for event in &events {
        out.push(event.clone());
        let (fighter, key) = match event {
            Event::CounterChanged {
                fighter, counter, ..
            } => (*fighter, format!("counter:{counter}")),
            Event::QuirksChanged { fighter, .. } => (*fighter, "quirks".to_owned()),
            Event::BaseStatSet { fighter, stat, .. } => (*fighter, format!("stat:{stat}")),
            _ => continue,
        };
        for m in members(fighter) {
            let touched = events
                .iter()
                .chain(&more)
                .any(|e| shares_key(e, m.id, &key));
            if touched {
                continue;
            }
            if let Some(e) = same_for(event, &m) {
                more.push(e);
            }
        }
    }
    out.extend(more);
    out
}

/// Whether an event changes this member's counter, entries or stat named
/// by `key`.
fn shares_key(event: &Event, member: FighterId, key: &str) -> bool {
    match event {
        Event::CounterChanged {
            fighter, counter, ..
        } => *fighter == member && key == format!("counter:{counter}"),
        Event::QuirksChanged { fighter, .. } => *fighter == member && key == "quirks",
        Event::BaseStatSet { fighter, stat, .. } => {
            *fighter == member && key == format!("stat:{stat}")
        }
        _ => false,
    }
}

/// The change an event makes to one member, made to another: from what
/// they hold to what the first now holds.
fn same_for(event: &Event, member: &Fighter) -> Option<Event> {
    match event {
        Event::CounterChanged {
            counter,
            to,
            reason,
            ..
        } => {
            let from = member.counters.get(counter).copied().unwrap_or(0);
            (from != *to).then(|| Event::CounterChanged {
                fighter: member.id,
                counter: counter.clone(),
                from,
                to: *to,
                reason: reason.clone(),
            })
        }
        Event::QuirksChanged { to, .. } => (member.quirks != *to).then(|| Event::QuirksChanged {
            fighter: member.id,
            from: member.quirks.clone(),
            to: to.clone(),
        }),
        Event::BaseStatSet { stat, to, .. } => {
            let from = member.base.get(stat).copied();
            (from != *to).then(|| Event::BaseStatSet {
                fighter: member.id,
                stat: stat.clone(),
                from,
                to: *to,
            })
        }
        _ => None,
    }
}
