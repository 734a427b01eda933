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
