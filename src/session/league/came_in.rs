//! What a sync took in from the league, in one line a player reads at a
//! glance: how many records, who took which holding, which cycle ended,
//! the challenges issued and answered, the pairings made, and how many
//! other changes (`3 clashes, Grey Oars took Eelgate, Tide 1 ended`).

use anyhow::Result;

use crate::campaign::season::cycle_said;
use crate::campaign::{Event, LoggedBatch};
use crate::session::Session;

impl Session {
    /// The league's batches a sync took in (as this laptop holds them, a
    /// batch left out empty), in one line; `None` where there were none.
    pub(super) fn came_in(&self, batches: &[LoggedBatch]) -> Result<Option<String>> {
        if batches.is_empty() {
            return Ok(None);
        }
        let names = self.names()?;
        let (words, record) = self.campaign_words()?;
        let mut records = 0;
        let mut others = 0;
        let mut left_out = 0;
        let mut said: Vec<String> = Vec::new();
        for batch in batches {
            let is_record = batch.undoes.is_none()
                && matches!(batch.events.first(), Some(Event::BattleRecorded { .. }));
            if batch.events.is_empty() && batch.label.starts_with("Left out: ") {
                left_out += 1;
                continue;
            }
            if is_record {
                records += 1;
            }
            let mut told = false;
            for event in &batch.events {
                let line = match event {
                    Event::HoldingChanged {
                        holding,
                        to: Some(to),
                        ..
                    } => Some(format!("{} took {}", names.gang(*to), names.label(holding))),
                    Event::CycleEnded { cycle } => {
                        Some(format!("{} ended", cycle_said(&words, *cycle)))
                    }
                    Event::CycleReopened { cycle } => {
                        Some(format!("{} is open again", cycle_said(&words, *cycle)))
                    }
                    Event::ChallengeIssued { challenge } => Some(format!(
                        "{} issued a {} to {}",
                        names.gang(challenge.challenger),
                        names.challenge(),
                        names.gang(challenge.defender)
                    )),
                    Event::ChallengeAnswered {
                        challenge,
                        accepted,
                    } => Some(format!(
                        "{} #{challenge} {}",
                        names.challenge(),
                        if *accepted { "accepted" } else { "declined" }
                    )),
                    Event::PairingsMade { pairings } => Some(format!(
                        "the {} of {} made",
                        names.pairings(),
                        cycle_said(&words, pairings.cycle)
                    )),
                    _ => None,
                };
                if let Some(line) = line {
                    told = true;
                    said.push(line);
                }
            }
            if !is_record && !told {
                others += 1;
            }
        }
        let mut parts = Vec::new();
        if records > 0 {
            parts.push(record.count(records));
        }
        parts.extend(said);
        if others > 0 {
            let other = if parts.is_empty() { "" } else { " other" };
            parts.push(format!(
                "{others}{other} change{}",
                if others == 1 { "" } else { "s" }
            ));
        }
        if left_out > 0 {
            parts.push(format!("{left_out} left out"));
        }
        Ok(Some(parts.join(", ")))
    }
}
