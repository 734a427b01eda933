//! Rolls scored by counting (`[[record.counted]]`) and the grids looked up
//! after them (`[[record.lookups]]`): each side rolls dice for its members
//! (or for a count of the report) together, scores how many fall in a
//! range and the sets of equal faces, and gains what they give; then a
//! grid, read by two numbers (what was found, the side's size after the
//! record…), gives each side an amount. Pure.

use super::*;
use crate::dice::{Expr, RollRecord, parse, sets_of};
use crate::rules::{AwardFor, CountedRollDef, Measure};

impl Run<'_> {
    /// How many lots of dice a side rolls: one for each member it is for,
    /// or one for each of a count of the report.
    fn lots(&self, def: &CountedRollDef, gang: GangId) -> i64 {
        if let Some(count) = def.per.strip_prefix("count:") {
            return self
                .measured_now(gang, &Measure::Count(count.to_owned()))
                .max(0);
        }
        let Ok(what) = AwardFor::parse(&def.per) else {
            return 0;
        };
        let members = self
            .battle
            .fighters
            .iter()
            .filter(|bf| bf.gang == gang)
            .filter(|bf| {
                self.times_awarded(&what, bf) > 0
                    && self.member_is_for(def.who.as_deref(), bf.fighter)
            })
            .count();
        i64::try_from(members).unwrap_or(i64::MAX)
    }

    /// Each counted roll, for every side of the record.
    pub(super) fn counted_rolls(&mut self) -> Result<(), ReportError> {
        let defs = self.pack.record().counted.clone();
        for def in &defs {
            let Ok(each) = parse(&def.dice) else {
                continue;
            };
            let gangs: Vec<GangId> = self.battle.gangs.iter().map(|g| g.gang).collect();
            for gang in gangs {
                let lots = self.lots(def, gang);
                if lots == 0 {
                    continue;
                }
                let record = self.counted_dice(def, &each, gang, lots)?;
                self.score_counted(def, gang, &record)?;
            }
        }
        Ok(())
    }

    /// The dice of a side's counted roll, rolled by the app or entered by
    /// hand under the roll's name (`exploration: Gull Clan`).
    fn counted_dice(
        &mut self,
        def: &CountedRollDef,
        each: &Expr,
        gang: GangId,
        lots: i64,
    ) -> Result<RollRecord, ReportError> {
        let name = format!("{}: {}", def.id, self.name(gang));
        self.roll_names.push(name.clone());
        let field = format!("record.counted.{}", def.id);
        let count = u32::try_from(lots)
            .ok()
            .and_then(|lots| lots.checked_mul(each.count()))
            .filter(|n| *n <= Expr::MAX_COUNT);
        let Some(count) = count else {
            return refuse(
                field,
                format!(
                    "{name}: {lots} × {} is more dice than one roll holds ({})",
                    def.dice,
                    Expr::MAX_COUNT
                ),
            );
        };
        let expr = Expr::new(count, each.sides(), 0).map_err(|e| ReportError {
            field: field.clone(),
            reason: e.to_string(),
        })?;
        self.dice_for(&name, &expr, &field)
    }

    /// What a side's dice score: each die in a range, each set of equal
    /// faces; what they found is kept for the grids, what they give is
    /// given.
    fn score_counted(
        &mut self,
        def: &CountedRollDef,
        gang: GangId,
        record: &RollRecord,
    ) -> Result<(), ReportError> {
        let mut found = 0i64;
        let mut said: Vec<String> = Vec::new();
        let mut gains: Vec<(crate::rules::Amount, i64)> = Vec::new();
        for face in &def.faces {
            let n = record
                .dice
                .iter()
                .filter(|v| crate::rules::RowRange::covers(&face.on, i64::from(**v)))
                .count();
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            if n > 0 {
                found = found.saturating_add(face.found.saturating_mul(n));
                said.push(format!("{n} × {}", face.name));
                gains.extend(face.gain.iter().map(|a| (a.clone(), n)));
            }
        }
        let sizes: Vec<usize> = def.sets.iter().map(|s| s.of).collect();
        for (value, size) in sets_of(&record.dice, &sizes, def.sets_nest) {
            let Some(set) = def.sets.iter().find(|s| s.of == size) else {
                continue;
            };
            found = found.saturating_add(set.found);
            said.push(format!("{} of {value}", set.name));
            gains.extend(set.gain.iter().map(|a| (a.clone(), 1)));
        }
        self.found.insert((gang, def.id.clone()), found);
        let dice: Vec<String> = record.dice.iter().map(u32::to_string).collect();
        let scored = if said.is_empty() {
            "nothing scores".to_owned()
        } else {
            said.join(", ")
        };
        let result = format!("{}: {scored}; found {found}", self.name(gang));
        let name = format!("{}: {}", def.id, self.name(gang));
        self.events.push(Event::TableRolled {
            battle: Some(self.battle.id),
            fighter: None,
            table: def.id.clone(),
            roll: record.clone(),
            modifier: 0,
            total: found,
            row: String::new(),
            result: result.clone(),
        });
        self.rolls.push(RollMade {
            roll: name,
            fighter: None,
            table: def.id.clone(),
            record: record.clone(),
            modifier: 0,
            modifier_text: String::new(),
            total: found,
            result,
        });
        let how = match record.source {
            crate::dice::RollSource::Hand => "entered by hand",
            crate::dice::RollSource::App { .. } => "rolled by the app",
        };
        self.line(
            Some(gang),
            format!(
                "{} {}: [{}]: {scored}; found {found} ({how})",
                def.label,
                record.expression,
                dice.join(", ")
            ),
            &def.source,
            def.ruling.as_deref(),
        );
        for (amount, times) in gains {
            self.gain(
                gang,
                &amount,
                times,
                None,
                &def.label,
                def.ruling.as_deref(),
            )?;
        }
        Ok(())
    }

    /// A number about a side as the record leaves it, for a grid.
    fn measured_now(&self, gang: GangId, measure: &Measure) -> i64 {
        match measure {
            Measure::Rating => {
                let fighters: Vec<Fighter> = self
                    .fighters
                    .values()
                    .filter(|f| f.gang == gang)
                    .map(|f| {
                        let mut f = f.clone();
                        for ((id, counter), value) in &self.counters {
                            if *id == f.id {
                                f.counters.insert(counter.clone(), *value);
                            }
                        }
                        f
                    })
                    .collect();
                crate::campaign::rating::gang_rating(self.pack, &fighters).map_or(0, |r| r.value)
            }
            Measure::Members | Measure::MembersWithSide => {
                let with_side = *measure == Measure::MembersWithSide;
                let n = self
                    .fighters
                    .values()
                    .filter(|f| f.gang == gang && f.status.on_roster())
                    .filter(|f| !with_side || f.status.with_side())
                    .count();
                i64::try_from(n).unwrap_or(i64::MAX)
            }
            Measure::Resource(id) => self.amount_of(gang, id),
            Measure::Count(id) => self
                .battle
                .gangs
                .iter()
                .find(|g| g.gang == gang)
                .and_then(|g| g.counts.get(id).copied())
                .unwrap_or(0),
            Measure::Found(id) => self.found.get(&(gang, id.clone())).copied().unwrap_or(0),
        }
    }

    /// Each lookup of the record: the cell of its grid the side's two
    /// numbers land on, given as the resource.
    pub(super) fn lookups(&mut self) -> Result<(), ReportError> {
        let lookups = self.pack.record().lookups.clone();
        for lookup in &lookups {
            let Some(grid) = self
                .pack
                .grids
                .iter()
                .find(|g| g.id == lookup.grid)
                .cloned()
            else {
                continue;
            };
            let (Ok(by_row), Ok(by_column)) = (
                Measure::parse(&grid.rows_by),
                Measure::parse(&grid.columns_by),
            ) else {
                continue;
            };
            let gangs: Vec<GangId> = self.battle.gangs.iter().map(|g| g.gang).collect();
            for gang in gangs {
                let (row, column) = (
                    self.measured_now(gang, &by_row),
                    self.measured_now(gang, &by_column),
                );
                let ruling = lookup.ruling.as_deref().or(grid.ruling.as_deref());
                let Some((amount, on, of)) = grid.cell(row, column) else {
                    self.line(
                        Some(gang),
                        format!(
                            "{}: {row} and {column} land on no cell of {}",
                            lookup.text, grid.name
                        ),
                        &grid.source,
                        ruling,
                    );
                    continue;
                };
                self.line(
                    Some(gang),
                    format!(
                        "{}: {} row {on}, column {of}: {amount}",
                        lookup.text, grid.name
                    ),
                    &grid.source,
                    ruling,
                );
                if amount != 0 {
                    let gain = crate::rules::Amount {
                        resource: lookup.resource.clone(),
                        amount,
                    };
                    self.gain(gang, &gain, 1, None, &lookup.text, ruling)?;
                }
            }
        }
        Ok(())
    }
}
