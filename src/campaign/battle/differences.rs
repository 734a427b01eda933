//! Rewards by the difference between the sides (`[[record.differences]]`):
//! measured before the record — the sides' ratings, or a resource — the
//! lower side (or the higher) gains what the row its difference lands on
//! gives: points of a counter to its members, or a resource. Pure.

use super::*;
use crate::rules::{AwardDef, DifferenceDef, DifferenceSide, Measure};

impl Run<'_> {
    /// A side's measure as the campaign stood before the record.
    fn measured_before(&self, gang: GangId, measure: &Measure) -> i64 {
        match measure {
            Measure::Rating => {
                let fighters = self.state.fighters.iter().filter(|f| f.gang == gang);
                crate::campaign::rating::gang_rating(self.pack, fighters).map_or(0, |r| r.value)
            }
            Measure::Resource(id) => {
                let start = self.pack.resource(id).map_or(0, |r| r.start);
                self.state
                    .gang(gang)
                    .and_then(|g| g.resources.get(id).copied())
                    .unwrap_or(start)
            }
            _ => 0,
        }
    }

    /// Every difference line of the record, to the side it rewards.
    pub(super) fn differences(&mut self) -> Result<(), ReportError> {
        let lines = self.pack.record().differences.clone();
        for line in &lines {
            let Ok(measure) = Measure::parse(&line.measure) else {
                continue;
            };
            let sides: Vec<(GangId, i64)> = self
                .battle
                .gangs
                .iter()
                .map(|g| (g.gang, self.measured_before(g.gang, &measure)))
                .collect();
            let (Some(high), Some(low)) = (
                sides.iter().map(|(_, m)| *m).max(),
                sides.iter().map(|(_, m)| *m).min(),
            ) else {
                continue;
            };
            let values: Vec<i64> = sides.iter().map(|(_, m)| *m).collect();
            for (gang, mine) in sides {
                let nearest = line.against == Some(crate::rules::Against::Nearest);
                let difference = match (line.side, nearest) {
                    (DifferenceSide::Lower, false) => high.saturating_sub(mine),
                    (DifferenceSide::Higher, false) => mine.saturating_sub(low),
                    (DifferenceSide::Lower, true) => values
                        .iter()
                        .filter(|v| **v > mine)
                        .min()
                        .map_or(0, |above| above.saturating_sub(mine)),
                    (DifferenceSide::Higher, true) => values
                        .iter()
                        .filter(|v| **v < mine)
                        .max()
                        .map_or(0, |below| mine.saturating_sub(*below)),
                };
                if difference <= 0 || (line.winner_only && self.battle.winner != Some(gang)) {
                    continue;
                }
                self.difference_reward(line, gang, difference)?;
            }
        }
        Ok(())
    }

    /// What one side gains by its difference: the row's amount, as points
    /// of a counter to its members or as a resource.
    fn difference_reward(
        &mut self,
        line: &DifferenceDef,
        gang: GangId,
        difference: i64,
    ) -> Result<(), ReportError> {
        let measure = match Measure::parse(&line.measure) {
            Ok(Measure::Rating) => self
                .pack
                .rating
                .as_ref()
                .map_or_else(String::new, |r| r.label.clone()),
            Ok(Measure::Resource(id)) => self.pack.resource_label(&id).to_owned(),
            _ => line.measure.clone(),
        };
        let Some(row) = line.row(difference) else {
            self.line(
                Some(gang),
                format!(
                    "{}: {measure} {difference} apart lands on no row",
                    line.text
                ),
                &line.source,
                line.ruling.as_deref(),
            );
            return Ok(());
        };
        let amount = row.amount;
        self.line(
            Some(gang),
            format!(
                "{}: {measure} {difference} apart ({}): {amount:+}",
                line.text, row.on
            ),
            &line.source,
            line.ruling.as_deref(),
        );
        if amount == 0 {
            return Ok(());
        }
        if let Some(resource) = &line.resource {
            let gain = crate::rules::Amount {
                resource: resource.clone(),
                amount,
            };
            return self.gain(gang, &gain, 1, None, &line.text, line.ruling.as_deref());
        }
        if let (Some(counter), Some(to)) = (&line.counter, &line.to) {
            let award = AwardDef {
                id: line.id.clone(),
                text: line.text.clone(),
                counter: counter.clone(),
                amount,
                to: to.clone(),
                who: line.who.clone(),
                source: line.source.clone(),
                ruling: line.ruling.clone(),
            };
            self.give_award(&award, Some(gang));
        }
        Ok(())
    }
}
