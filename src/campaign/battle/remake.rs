//! A record worked out again from what it was made from: the report the
//! players told and the seed of the app's dice. A record that says it was
//! made from them carries exactly the events they give on the campaign as
//! it stood before it, and nothing else (no rename, note or transfer its
//! procedure does not write); every laptop of a league checks so.

use super::{BattleReport, CampaignState, Made, Procedure, run_procedure};
use crate::campaign::{EffectId, Event};
use crate::rules::Pack;

impl Procedure {
    /// The events to write for this procedure, the record saying what it
    /// was made from.
    pub fn events_made_from(&self, report: &BattleReport, seed: u64) -> Vec<Event> {
        self.events
            .iter()
            .cloned()
            .map(|event| match event {
                Event::BattleRecorded { mut battle } => {
                    battle.played.made = Some(Made {
                        report: report.clone(),
                        seed,
                    });
                    Event::BattleRecorded { battle }
                }
                other => other,
            })
            .collect()
    }
}

/// The battle a batch records, when it records one (its first event).
pub fn recorded(events: &[Event]) -> Option<&super::Battle> {
    match events.first() {
        Some(Event::BattleRecorded { battle }) => Some(battle),
        _ => None,
    }
}

/// The events a record's report and dice give on `state`, the campaign as
/// it stood before the record, or why they give none. The record's own
/// ids are kept where they are free (a record made again after others'
/// changes keeps the ids it was given): its battle's, and the first of the
/// lasting effects it adds.
pub fn remade(pack: &Pack, state: &CampaignState, events: &[Event]) -> Result<Vec<Event>, String> {
    let battle = recorded(events).ok_or("it records nothing")?;
    let made = battle
        .played
        .made
        .as_ref()
        .ok_or("it does not carry the report and dice it was made from")?;
    let first_effect = events.iter().find_map(|e| match e {
        Event::LastingEffectAdded { effect } => Some(effect.id),
        _ => None,
    });
    let mut state = std::borrow::Cow::Borrowed(state);
    if let Some(first) = first_effect
        && first > state.next_effect
    {
        state.to_mut().next_effect = EffectId(first.0);
    }
    let procedure = run_procedure(pack, &state, &made.report, battle.id, made.seed)
        .map_err(|err| format!("its report does not play here ({err})"))?;
    if let Some(needed) = procedure.needed.first() {
        return Err(format!(
            "its report leaves a choice open ({}: {})",
            needed.field, needed.rule
        ));
    }
    Ok(procedure.events_made_from(&made.report, made.seed))
}

/// A number a change steps: a gang's resource or a fighter's counter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Number {
    Resource(crate::campaign::GangId, String),
    Counter(crate::campaign::FighterId, String),
}

/// The number an event steps, and its step.
fn step(event: &Event) -> Option<(Number, i64)> {
    match event {
        Event::ResourceAdjusted {
            gang,
            resource,
            from,
            to,
            ..
        } => Some((Number::Resource(*gang, resource.clone()), to - from)),
        Event::CounterChanged {
            fighter,
            counter,
            from,
            to,
            ..
        } => Some((Number::Counter(*fighter, counter.clone()), to - from)),
        _ => None,
    }
}

/// What records made again stepped the numbers by beyond what they
/// carried when they were made: the later changes of the same numbers
/// keep their own steps, from where the numbers now stand.
#[derive(Debug, Default)]
pub struct Shift(std::collections::HashMap<Number, i64>);

impl Shift {
    /// Notes a record that carried `carried` and was made again as `remade`.
    pub fn add(&mut self, carried: &[Event], remade: &[Event]) {
        for (events, sign) in [(remade, 1), (carried, -1)] {
            for (number, by) in events.iter().filter_map(step) {
                *self.0.entry(number).or_default() += sign * by;
            }
        }
        self.0.retain(|_, by| *by != 0);
    }

    /// `events` with each number they step moved by what the records made
    /// again moved it by.
    pub fn apply(&self, events: &[Event]) -> Vec<Event> {
        events
            .iter()
            .map(|event| {
                let mut event = event.clone();
                let by = step(&event).and_then(|(n, _)| self.0.get(&n).copied());
                if let (
                    Some(by),
                    Event::ResourceAdjusted { from, to, .. }
                    | Event::CounterChanged { from, to, .. },
                ) = (by, &mut event)
                {
                    *from = from.saturating_add(by);
                    *to = to.saturating_add(by);
                }
                event
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::GangId;

    fn ammo(from: i64, to: i64) -> Event {
        Event::ResourceAdjusted {
            gang: GangId(1),
            resource: "ammo".into(),
            from,
            to,
            reason: String::new(),
        }
    }

    #[test]
    fn a_later_change_keeps_its_step_from_where_a_record_made_again_left_the_number() {
        let mut shift = Shift::default();
        // Carried +2 from 3; made again, +1 from 3.
        shift.add(&[ammo(3, 5)], &[ammo(3, 4)]);
        assert_eq!(shift.apply(&[ammo(5, 6)]), [ammo(4, 5)]);
        // A record made again as it was moves nothing.
        let mut none = Shift::default();
        none.add(&[ammo(3, 5)], &[ammo(3, 5)]);
        assert_eq!(none.apply(&[ammo(5, 6)]), [ammo(5, 6)]);
    }
}
