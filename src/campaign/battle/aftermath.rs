//! After the epilogue: results suffered in the battle, injury rolls, and
//! advancement rolls, with what they leave on a fighter for good.
//!
//! Every effect is a kind from the pack (leave, desert, capture, cripple,
//! miss the next battle, advance, a stat, a gain…); a row that cannot apply
//! falls back to the row the pack names. Rolls are made from the
//! procedure's seed and each roll's name, or taken from dice entered by
//! hand, so the preview and the commit show the same numbers.

use std::collections::BTreeMap;

use super::{ChangeLine, NeededChoice, ReportError, RollMade, Run, refuse};
use crate::campaign::{
    BattleId, EffectId, Event, FighterId, FighterStatus, GangId, LastingEffect, QuirkPick,
};
use crate::dice::{Dice, RollRecord, RollSource, entered_with, parse};
use crate::rules::{Effect, TableDef, TableRowDef};

/// How deep fall-backs and rolls on other tables may nest.
const MAX_DEPTH: usize = 4;

/// Where an effect applies: the table row it comes from, the fighter it
/// is for, and what the change lines say about them.
struct At<'a> {
    table: &'a TableDef,
    row: &'a TableRowDef,
    fighter: FighterId,
    /// The roll's name (`injury: Brick`), under which picks are asked.
    roll: &'a str,
    /// The crippling row that applies this one in reverse, if one does.
    crippled_by: Option<&'a str>,
    depth: usize,
    /// True when a crippling takes the effect away instead of giving it.
    reverse: bool,
    name: String,
    gang: Option<GangId>,
    rival: Option<GangId>,
    /// The table and row, for the change lines.
    source: String,
}

/// How often a "roll twice, ignoring" roll is rolled again before it gives
/// up (a table that can only come up the ignored total).
const MAX_AGAIN: u32 = 20;

/// What applying a row did, to name the lasting effect it leaves.
#[derive(Default)]
struct Applied {
    stats: BTreeMap<String, i64>,
    quirk: Option<String>,
    lost_quirk: Option<String>,
    gains: Vec<String>,
    words: Vec<String>,
}

impl Run<'_> {
    fn battle_id(&self) -> BattleId {
        self.battle.id
    }

    pub(super) fn fighter_label(&self, id: FighterId) -> String {
        self.fighters
            .get(&id)
            .map_or_else(|| format!("fighter #{id}"), |f| f.name.clone())
    }

    pub(super) fn fighter_gang(&self, id: FighterId) -> Option<GangId> {
        self.fighters.get(&id).map(|f| f.gang)
    }

    pub(super) fn change(
        &mut self,
        gang: Option<GangId>,
        text: String,
        source: &str,
        ruling: Option<&str>,
    ) {
        let ruling = ruling
            .and_then(|id| self.pack.ruling(id))
            .map(|r| r.ruling.clone());
        self.changes.push(ChangeLine {
            gang: gang.map(|g| self.name(g)),
            text,
            source: source.to_owned(),
            ruling,
        });
    }

    pub(super) fn set_status(&mut self, fighter: FighterId, to: FighterStatus, reason: String) {
        let Some(f) = self.fighters.get_mut(&fighter) else {
            return;
        };
        if f.status == to {
            return;
        }
        let from = std::mem::replace(&mut f.status, to.clone());
        self.events.push(Event::FighterStatusChanged {
            fighter,
            from,
            to,
            reason,
        });
    }

    /// Wounded fighters of both gangs who sat this battle out are fit again.
    pub(super) fn rested(&mut self) {
        let battle = self.battle_id();
        let gangs: Vec<GangId> = self.battle.gangs.iter().map(|g| g.gang).collect();
        let wounded: Vec<FighterId> = self
            .fighters
            .values()
            .filter(|f| gangs.contains(&f.gang))
            .filter(|f| matches!(f.status, FighterStatus::Wounded { battle: b } if b < battle))
            .map(|f| f.id)
            .collect();
        for id in wounded {
            let name = self.fighter_label(id);
            let gang = self.fighter_gang(id);
            self.set_status(
                id,
                FighterStatus::Active,
                format!("rested: missed {} #{battle}", self.pack.record().noun),
            );
            self.change(
                gang,
                format!(
                    "{name} missed this {} and is fit again",
                    self.pack.record().noun
                ),
                "",
                None,
            );
        }
    }

    /// Lasting effects that heal in time (a critical injury's healing
    /// time): each on a fighter of a gang of this record heals at its end
    /// when this is the last record it lasts through.
    pub(super) fn healed_in_time(&mut self) {
        let gangs: Vec<GangId> = self.battle.gangs.iter().map(|g| g.gang).collect();
        let due: Vec<(EffectId, FighterId, String, String, u32)> = self
            .state
            .lasting
            .iter()
            .filter(|e| e.removed.is_none())
            .filter_map(|e| Some((e, e.heals_after?)))
            .filter(|(e, _)| {
                self.fighter_gang(e.fighter)
                    .is_some_and(|g| gangs.contains(&g))
            })
            .filter(|(e, after)| {
                let since = self.state.records_since.get(&e.id).copied().unwrap_or(0);
                since.saturating_add(1) >= *after
            })
            .map(|(e, after)| (e.id, e.fighter, e.name.clone(), e.table.clone(), after))
            .collect();
        let noun = self.pack.record().noun.clone();
        for (effect, fighter, name, table, after) in due {
            let reason = format!("healed: its time was {after} × {noun}");
            self.events.push(Event::LastingEffectRemoved {
                effect,
                reason: reason.clone(),
            });
            if let Some(e) = self.lasting.iter_mut().find(|e| e.id == effect) {
                e.removed = Some(reason.clone());
            }
            let who = self.fighter_label(fighter);
            let gang = self.fighter_gang(fighter);
            let source = self
                .pack
                .table(&table)
                .map_or_else(String::new, |t| t.source.clone());
            self.change(gang, format!("{who}: {name} {reason}"), &source, None);
        }
    }

    /// A roll's name: `injury: Brick`, `advancement 2: Brick`.
    pub(super) fn roll_name(&self, table: &str, fighter: FighterId) -> String {
        let who = self.fighter_label(fighter);
        let base = format!("{table}: {who}");
        let n = self
            .roll_names
            .iter()
            .filter(|r| {
                r.as_str() == base
                    || r.strip_prefix(&format!("{table} "))
                        .is_some_and(|rest| rest.ends_with(&format!(": {who}")))
            })
            .count();
        if n == 0 {
            base
        } else {
            format!("{table} {}: {who}", n + 1)
        }
    }

    /// The table's modifiers that come from the fighter (`per` a stat or
    /// counter, as the fighter has it now) and from what their side holds:
    /// their sum, and each as the roll line shows it (`− 1 (Chill 1)`,
    /// `+ 1 (The Sluice)`).
    fn fighter_modifiers(&self, table: &TableDef, fighter: FighterId) -> (i64, String) {
        let points = |per: &str| match self.pack.stat(per) {
            Some(_) => self.stat_now(fighter, per).map(|(v, ..)| v),
            None => self
                .counters
                .get(&(fighter, per.to_owned()))
                .copied()
                .or_else(|| self.pack.counter(per).and_then(|c| c.start())),
        };
        let mut modifiers = table.from_fighter(self.pack, points);
        if let Some(gang) = self.fighter_gang(fighter) {
            let held = self
                .holders
                .iter()
                .filter(|(_, g)| **g == gang)
                .map(|(h, _)| h.as_str());
            modifiers.extend(crate::rules::FighterModifier::from_holdings(
                self.pack, &table.id, held,
            ));
        }
        crate::rules::FighterModifier::total(&modifiers)
    }

    /// Rolls on a table for a fighter (or takes the dice entered by hand),
    /// records the roll and returns its name, total and row.
    fn roll_on(
        &mut self,
        table: &TableDef,
        fighter: FighterId,
        modifier: i64,
    ) -> Result<(String, i64, Option<TableRowDef>), ReportError> {
        let name = self.roll_name(&table.id, fighter);
        self.roll_names.push(name.clone());
        let field = format!("tables.{}", table.id);
        let expr = parse(&table.roll).map_err(|e| ReportError {
            field: field.clone(),
            reason: e.to_string(),
        })?;
        let record = self.dice_for(&name, &expr, &field)?;
        let (from_fighter, fighter_text) = self.fighter_modifiers(table, fighter);
        let asked = modifier;
        let modifier = modifier.saturating_add(from_fighter);
        let total = record.total.saturating_add(modifier);
        let row = table.lookup(total).cloned();
        let result = row
            .as_ref()
            .map_or_else(|| "no row".to_owned(), display_name);
        let fighter_name = self.fighter_label(fighter);
        self.events.push(Event::TableRolled {
            battle: Some(self.battle_id()),
            fighter: Some(fighter),
            table: table.id.clone(),
            roll: record.clone(),
            modifier,
            total,
            row: row.as_ref().map_or_else(String::new, |r| r.on.clone()),
            result: result.clone(),
        });
        let modifier_text = if asked == 0 {
            fighter_text
        } else {
            format!(" {asked:+}{fighter_text}")
        };
        let gang = self.fighter_gang(fighter);
        self.change(
            gang,
            self.roll_line(
                &fighter_name,
                &record,
                table,
                &modifier_text,
                total,
                &result,
            ),
            &table.source,
            row.as_ref().and_then(|r| r.ruling.as_deref()),
        );
        self.rolls.push(RollMade {
            roll: name.clone(),
            fighter: Some(fighter_name),
            table: table.id.clone(),
            record,
            modifier,
            modifier_text,
            total,
            result,
        });
        Ok((name, total, row))
    }

    /// A roll in words: `Brick rolls 2d6 on Injury: [3, 4] + 1 = 8:
    /// Wounded (rolled by the app)`.
    pub(super) fn roll_line(
        &self,
        who: &str,
        record: &RollRecord,
        table: &TableDef,
        modifier_text: &str,
        total: i64,
        result: &str,
    ) -> String {
        format!(
            "{who} rolls {}",
            self.roll_said(record, table, modifier_text, total, result)
        )
    }

    /// A roll's dice on a table, in words: `2d6 on Injury: [3, 4] + 1 =
    /// 8: Wounded (rolled by the app)`.
    pub(super) fn roll_said(
        &self,
        record: &RollRecord,
        table: &TableDef,
        modifier_text: &str,
        total: i64,
        result: &str,
    ) -> String {
        let dice: Vec<String> = record.dice.iter().map(u32::to_string).collect();
        let how = match record.source {
            RollSource::Hand => "entered by hand",
            RollSource::App { .. } => "rolled by the app",
        };
        format!(
            "{} on {}: [{}]{modifier_text} = {total}: {result} ({how})",
            record.expression,
            self.table_title(table),
            dice.join(", ")
        )
    }

    /// The dice of a named roll: those entered by hand under its name, or
    /// the app's, from the record's seed and the name. `field` is where a
    /// roll the app cannot make is refused.
    pub(super) fn dice_for(
        &self,
        name: &str,
        expr: &crate::dice::Expr,
        field: &str,
    ) -> Result<RollRecord, ReportError> {
        let dialect = self
            .pack
            .dice
            .as_ref()
            .map(|d| d.dialect())
            .unwrap_or_default();
        let entered = self
            .report
            .dice
            .iter()
            .enumerate()
            .find(|(_, d)| crate::text::same(&d.roll, name));
        match entered {
            Some((i, d)) => entered_with(expr, &dialect, &d.faces).map_err(|e| ReportError {
                field: format!("dice[{i}].faces"),
                reason: format!("{name}: {e}"),
            }),
            None => Dice::for_roll(self.seed, name)
                .roll(expr, &dialect)
                .map_err(|e| ReportError {
                    field: field.to_owned(),
                    reason: e.to_string(),
                }),
        }
    }

    /// The pick the players gave for a roll, if any.
    pub(super) fn pick(&self, roll: &str) -> Option<String> {
        self.report
            .picks
            .iter()
            .find(|p| crate::text::same(&p.roll, roll))
            .map(|p| p.pick.trim().to_owned())
    }

    /// A pick the players must make; `decider` is the gang that makes it
    /// (the fighter's own gang unless given).
    pub(super) fn need(
        &mut self,
        roll: &str,
        fighter: FighterId,
        text: String,
        options: Vec<String>,
    ) {
        self.need_by(roll, fighter, None, text, options);
    }

    fn need_by(
        &mut self,
        roll: &str,
        fighter: FighterId,
        decider: Option<GangId>,
        text: String,
        options: Vec<String>,
    ) {
        let gang = decider
            .or_else(|| self.fighter_gang(fighter))
            .map(|g| self.name(g))
            .unwrap_or_default();
        self.needed.push(NeededChoice {
            field: "picks".into(),
            gang,
            rule: roll.to_owned(),
            text,
            options,
        });
    }

    /// The fighter's stat as it is now (base, quirks, lasting effects).
    pub(super) fn stat_now(
        &self,
        fighter: FighterId,
        stat: &str,
    ) -> Option<(i64, Option<i64>, Option<i64>)> {
        let f = self.fighters.get(&fighter)?;
        let derived = crate::campaign::derive_stats(self.pack, f, &self.lasting);
        let def = self.pack.stat(stat)?;
        derived
            .into_iter()
            .find(|d| d.id == stat)
            .map(|d| (d.value, def.min, def.max))
    }

    /// Stats among `stats` that can still move by `amount`.
    fn movable(&self, fighter: FighterId, stats: &[String], amount: i64) -> Vec<String> {
        stats
            .iter()
            .filter(|s| {
                self.stat_now(fighter, s).is_some_and(|(value, min, max)| {
                    value.checked_add(amount).is_some_and(|to| {
                        min.is_none_or(|m| to >= m) && max.is_none_or(|m| to <= m)
                    })
                })
            })
            .cloned()
            .collect()
    }

    /// Whether a stat can move by `amount` (reversed for a crippling)
    /// within its bounds.
    fn can_move(&self, fighter: FighterId, stat: &str, amount: i64, reverse: bool) -> bool {
        let amount = if reverse { -amount } else { amount };
        !self.movable(fighter, &[stat.to_owned()], amount).is_empty()
    }

    fn quirks_of(&self, fighter: FighterId) -> Vec<QuirkPick> {
        self.fighters
            .get(&fighter)
            .map(|f| f.quirks.clone())
            .unwrap_or_default()
    }

    /// Quirks of a category the fighter could gain (or, reversed, lose).
    fn quirk_options(
        &self,
        fighter: FighterId,
        category: Option<&str>,
        reverse: bool,
    ) -> Vec<String> {
        let held = self.quirks_of(fighter);
        // A quirk the fighter may not take beside what the gang has (a
        // constraint of the pack) is not offered; taking one away breaks
        // nothing new.
        let gang = self.fighter_gang(fighter);
        let gang_fighters: Vec<crate::campaign::Fighter> = self
            .fighters
            .values()
            .filter(|f| Some(f.gang) == gang && f.status.can_fight() || f.id == fighter)
            .cloned()
            .collect();
        self.pack
            .quirks
            .iter()
            .filter(|q| category.is_none_or(|c| q.category == c))
            .filter(|q| held.iter().any(|h| h.quirk == q.id) == reverse)
            .filter(|q| {
                reverse
                    || !crate::campaign::quirk_breaks_a_rule(
                        self.pack,
                        &gang_fighters,
                        fighter,
                        &q.id,
                    )
            })
            .map(|q| q.id.clone())
            .collect()
    }

    /// True when the row can do what it says for this fighter (reversed for
    /// a crippling).
    fn applicable(&self, row: &TableRowDef, fighter: FighterId, reverse: bool) -> bool {
        if row.effects.is_empty() {
            return !reverse;
        }
        // A row that changes several stats applies stat by stat: it
        // applies while one of them can still move (000's "-1 DT all
        // attributes" leaves an attribute at 2d4 where it is).
        let stats: Vec<bool> = row
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Stat { stat, amount } => {
                    Some(self.can_move(fighter, stat, *amount, reverse))
                }
                _ => None,
            })
            .collect();
        if !stats.is_empty() && !stats.contains(&true) {
            return false;
        }
        row.effects.iter().all(|e| match e {
            Effect::Stat { .. } => true,
            Effect::StatChoice { stats, amount } => !self
                .movable(fighter, stats, if reverse { -amount } else { *amount })
                .is_empty(),
            Effect::GainQuirk { category } => !self
                .quirk_options(fighter, category.as_deref(), reverse)
                .is_empty(),
            Effect::Gain { .. } => true,
            // Taken back only from a fighter who has it.
            Effect::GainEntry { quirk } => {
                !reverse
                    || self
                        .fighters
                        .get(&fighter)
                        .is_some_and(|f| f.has_quirk(quirk))
            }
            // What a fighter does not have cannot be taken; a loss is not
            // reversed.
            Effect::LoseQuirk { category } => {
                !reverse
                    && !self
                        .quirk_options(fighter, category.as_deref(), true)
                        .is_empty()
            }
            // Only gains can be reversed (004: "The No “I” in Team result is
            // not applicable").
            _ => !reverse,
        })
    }

    /// Applies a row's effects to a fighter, falling back where it cannot
    /// apply. `crippled_by` names the injury row that applies an advancement
    /// row reversed, as a crippling.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn apply_row(
        &mut self,
        table: &TableDef,
        row: &TableRowDef,
        fighter: FighterId,
        roll: &str,
        record: Option<&RollRecord>,
        crippled_by: Option<&str>,
        depth: usize,
    ) -> Result<(), ReportError> {
        let reverse = crippled_by.is_some();
        if depth > MAX_DEPTH {
            return Ok(());
        }
        if !self.applicable(row, fighter, reverse) {
            let fallback = row
                .fallback
                .as_ref()
                .and_then(|on| table.rows.iter().find(|r| r.on == *on))
                .cloned();
            let name = self.fighter_label(fighter);
            let gang = self.fighter_gang(fighter);
            return match fallback {
                // Either way round: where the other does not apply either,
                // nothing changes.
                Some(next)
                    if !reverse
                        && next.fallback.as_deref() == Some(row.on.as_str())
                        && (row.either_way || next.either_way)
                        && !self.applicable(&next, fighter, false) =>
                {
                    self.change(
                        gang,
                        format!(
                            "{name}: neither {} nor {} applies; nothing changes",
                            display_name(row),
                            display_name(&next)
                        ),
                        &table.source,
                        row.ruling.as_deref(),
                    );
                    Ok(())
                }
                Some(next) if !reverse => {
                    self.change(
                        gang,
                        format!(
                            "{name}: {} does not apply; {} instead",
                            display_name(row),
                            display_name(&next)
                        ),
                        &table.source,
                        row.ruling.as_deref(),
                    );
                    self.apply_row(table, &next, fighter, roll, record, crippled_by, depth + 1)
                }
                // A crippling that cannot take anything away: the caller
                // falls back (to Wounded).
                _ if reverse => Err(ReportError {
                    field: String::new(),
                    reason: "not applicable".into(),
                }),
                _ => {
                    self.change(
                        gang,
                        format!(
                            "{name}: {} does not apply and changes nothing",
                            display_name(row)
                        ),
                        &table.source,
                        row.ruling.as_deref(),
                    );
                    Ok(())
                }
            };
        }
        let mut applied = Applied::default();
        for effect in &row.effects {
            self.apply_effect(
                table,
                row,
                effect,
                fighter,
                roll,
                crippled_by,
                depth,
                &mut applied,
            )?;
        }
        // A row that heals after a time lasts until then, whatever it does
        // (a critical injury the players play from its text).
        let lasting = !applied.stats.is_empty()
            || applied.quirk.is_some()
            || !applied.gains.is_empty()
            || (row.lasting && (row.heals_after.is_some() || row.until.is_some()))
            // A lasting row that only says what stays, in words (a
            // group's own "A scar").
            || (row.lasting && row.effects.is_empty());
        if lasting && (row.lasting || reverse) {
            // A file from elsewhere may hold the last id there is.
            let Some(next) = self.next_effect else {
                return Err(ReportError {
                    field: "campaign".into(),
                    reason: "the campaign has no lasting-effect id left".into(),
                });
            };
            let id = EffectId(next);
            self.next_effect = next.checked_add(1);
            let name = match crippled_by {
                Some(by) => format!("{by}: {}", applied.words.join(", ")),
                None => display_name(row),
            };
            let effect = LastingEffect {
                id,
                fighter,
                table: table.id.clone(),
                name,
                detail: if applied.words.is_empty() {
                    row.result.clone()
                } else {
                    applied.words.join(", ")
                },
                stats: applied.stats,
                quirk: applied.quirk,
                lost_quirk: applied.lost_quirk,
                battle: Some(self.battle_id()),
                roll: record.cloned(),
                removed: None,
                heals_after: row.heals_after.filter(|_| !reverse),
                by_group: self.pack.group_of("tables", &table.id).map(str::to_owned),
                until: row.until.filter(|_| !reverse),
            };
            self.lasting.push(effect.clone());
            if let Some(until) = effect.until {
                let who = self.fighter_label(fighter);
                let gang = self.fighter_gang(fighter);
                let lasts = crate::campaign::season::until_said(&self.pack.words, until);
                let text = format!("{who}: {} lasts until {lasts}", effect.name);
                self.change(gang, text, &table.source, None);
            }
            self.events.push(Event::LastingEffectAdded { effect });
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn apply_effect(
        &mut self,
        table: &TableDef,
        row: &TableRowDef,
        effect: &Effect,
        fighter: FighterId,
        roll: &str,
        crippled_by: Option<&str>,
        depth: usize,
        applied: &mut Applied,
    ) -> Result<(), ReportError> {
        let gang = self.fighter_gang(fighter);
        let at = At {
            table,
            row,
            fighter,
            roll,
            crippled_by,
            depth,
            reverse: crippled_by.is_some(),
            name: self.fighter_label(fighter),
            gang,
            rival: self.rival_of(fighter),
            source: format!("{}: {}", table.name, row.result),
        };
        // One rule per kind of effect; the pack's kinds are all named here.
        match effect {
            Effect::Leave { status } => self.effect_leave(&at, status)?,
            Effect::Desert { hire_percent } => self.effect_desert(&at, hire_percent)?,
            Effect::Capture => self.effect_capture(&at)?,
            Effect::Cripple { fallback } => self.effect_cripple(&at, fallback)?,
            Effect::MissNextBattle => self.effect_miss_next_battle(&at)?,
            Effect::LaidUp { until } => self.effect_laid_up(&at, *until)?,
            Effect::Advance => self.effect_advance(&at)?,
            Effect::Stat { stat, amount } => self.effect_stat(&at, stat, amount, applied)?,
            Effect::StatChoice { stats, amount } => {
                self.effect_stat_choice(&at, stats, amount, applied)?
            }
            Effect::Gain { what } => self.effect_gain(&at, what, applied)?,
            Effect::GainQuirk { category } => {
                self.effect_gain_quirk(&at, category, at.reverse, applied)?
            }
            Effect::GainEntry { quirk } => self.give_quirk(&at, quirk, at.reverse, applied),
            Effect::LoseQuirk { category } => {
                self.effect_gain_quirk(&at, category, true, applied)?
            }
            Effect::Resource { resource, amount } => self.effect_resource(&at, resource, amount)?,
            Effect::ResourceFromValue { resource, percent } => {
                self.effect_resource_from_value(&at, resource, percent)?
            }
            Effect::RollOn { table: other } => self.effect_roll_on(&at, other)?,
            Effect::InjuryModifier { amount } => self.effect_injury_modifier(&at, amount)?,
            Effect::Status { status } => self.effect_status(&at, status)?,
            Effect::RollTwice { ignoring } => self.effect_roll_twice(&at, *ignoring)?,
            Effect::Note { text } => self.effect_note(&at, text)?,
            Effect::Choice { options } => self.effect_choice(&at, options, applied)?,
            Effect::Counter { counter, amount } => self.effect_counter(&at, counter, *amount),
            // A scenario's counts are what the report says happened in the
            // game; a table after it has nothing to count.
            Effect::Count { .. } => {}
        }
        Ok(())
    }

    /// Applies `Effect::Leave` to the fighter (the kind says the rule).
    fn effect_leave(&mut self, at: &At<'_>, status: &str) -> Result<(), ReportError> {
        let row = at.row;
        let fighter = at.fighter;
        let name = &at.name;
        let gang = at.gang;
        let source = &at.source;
        self.set_status(
            fighter,
            FighterStatus::Gone {
                status: status.to_owned(),
                battle: Some(self.battle_id()),
            },
            display_name(row),
        );
        self.change(
            gang,
            format!("{name} leaves the {} ({status})", self.pack.words.gang),
            source,
            None,
        );
        Ok(())
    }

    /// Applies `Effect::Desert` to the fighter (the kind says the rule).
    fn effect_desert(&mut self, at: &At<'_>, hire_percent: &i64) -> Result<(), ReportError> {
        let row = at.row;
        let fighter = at.fighter;
        let roll = at.roll;
        let name = &at.name;
        let gang = at.gang;
        let rival = at.rival;
        let source = &at.source;
        let value = self.value_of(fighter);
        let Some(cost) = value.checked_mul(*hire_percent).map(|c| c / 100) else {
            return refuse(
                format!("picks[{roll}]"),
                format!("{name}'s value {value} × {hire_percent}% is out of bounds"),
            );
        };
        let resource = self
            .pack
            .injuries
            .as_ref()
            .and_then(|i| i.hire_resource.clone());
        let options = vec!["hire".to_owned(), "leave".to_owned()];
        match self.pick(roll).as_deref() {
            None => {
                let rival_name = rival.map(|r| self.name(r)).unwrap_or_default();
                let price = match &resource {
                    Some(r) => format!("{cost} {}", self.pack.resource_label(r)),
                    None => "nothing".to_owned(),
                };
                self.need_by(
                    roll,
                    fighter,
                    rival,
                    format!("{name} deserts: does {rival_name} hire them for {price}?"),
                    options,
                );
            }
            Some("hire") => {
                let Some(gang) = gang else {
                    return Ok(());
                };
                let Some(rival) = rival else {
                    return refuse(
                        format!("picks[{roll}]"),
                        format!(
                            "no one side may hire {name}: with {} sides, it is the side of whoever took them down (downed_by)",
                            self.battle.gangs.len()
                        ),
                    );
                };
                if self
                    .fighters
                    .values()
                    .any(|f| f.gang == rival && f.id != fighter && crate::text::same(&f.name, name))
                {
                    return refuse(
                        format!("picks[{roll}]"),
                        format!(
                            "{} already has a {} called {name}; rename one of them first",
                            self.name(rival),
                            self.pack.words.fighter
                        ),
                    );
                }
                if let Some(resource) = &resource {
                    let have = self.amount_of(rival, resource);
                    if have < cost {
                        return refuse(
                            format!("picks[{roll}]"),
                            format!(
                                "{} has {have}, not the {cost} it costs to hire {name}",
                                self.name(rival)
                            ),
                        );
                    }
                    self.adjust(
                        rival,
                        resource,
                        cost.saturating_neg(),
                        &format!("hired the deserter {name}"),
                    )?;
                }
                let leader = self.fighters.get(&fighter).is_some_and(|f| f.leader);
                self.events.push(Event::FighterTransferred {
                    fighter,
                    from: gang,
                    to: rival,
                    leader_from: leader,
                    leader_to: false,
                });
                if let Some(f) = self.fighters.get_mut(&fighter) {
                    f.gang = rival;
                    f.leader = false;
                }
                self.change(
                    Some(rival),
                    format!("hires the deserter {name} for {cost}"),
                    source,
                    row.ruling.as_deref(),
                );
            }
            Some(_) => {
                self.set_status(
                    fighter,
                    FighterStatus::Gone {
                        status: "deserted".into(),
                        battle: Some(self.battle_id()),
                    },
                    display_name(row),
                );
                self.change(
                    gang,
                    format!("{name} deserts the {}", self.pack.words.gang),
                    source,
                    None,
                );
            }
        }
        Ok(())
    }

    /// Applies `Effect::Capture` to the fighter (the kind says the rule).
    fn effect_capture(&mut self, at: &At<'_>) -> Result<(), ReportError> {
        let table = at.table;
        let row = at.row;
        let fighter = at.fighter;
        let roll = at.roll;
        let depth = at.depth;
        let name = &at.name;
        let gang = at.gang;
        let rival = at.rival;
        let source = &at.source;
        let others: Vec<String> = table
            .rows
            .iter()
            .filter(|r| r.on != row.on)
            .map(|r| r.on.clone())
            .collect();
        let mut options = vec!["hold".to_owned()];
        options.extend(others.iter().cloned());
        match self.pick(roll) {
            None => self.need_by(
                roll,
                fighter,
                rival,
                format!(
                    "{name} is captured: the captors hold them for ransom, or pick another result"
                ),
                options,
            ),
            Some(p) if p == "hold" => {
                let Some(by) = rival else {
                    return refuse(
                        format!("picks[{roll}]"),
                        format!(
                            "no one side holds {name}: with {} sides, the captors are the side of whoever took them down (downed_by)",
                            self.battle.gangs.len()
                        ),
                    );
                };
                {
                    self.set_status(
                        fighter,
                        FighterStatus::Captured {
                            by,
                            battle: self.battle_id(),
                        },
                        display_name(row),
                    );
                    let captor = self.name(by);
                    self.change(
                        gang,
                        format!("{name} is held by {captor}"),
                        source,
                        row.ruling.as_deref(),
                    );
                }
            }
            Some(other) => {
                let Some(next) = table.rows.iter().find(|r| r.on == other).cloned() else {
                    return refuse(
                        format!("picks[{roll}]"),
                        format!("“{other}” is not one of {}", options.join(", ")),
                    );
                };
                if next.effects.iter().any(|e| matches!(e, Effect::Capture)) {
                    return refuse(
                        format!("picks[{roll}]"),
                        format!("pick another result than {}", display_name(row)),
                    );
                }
                self.change(
                    gang,
                    format!(
                        "the captors pick {} for {name} instead",
                        display_name(&next)
                    ),
                    source,
                    row.ruling.as_deref(),
                );
                let record = self.rolls.last().map(|r| r.record.clone());
                // Its own picks (hire or leave…) are asked under a name of
                // their own.
                let instead = format!("{roll} → {}", next.on);
                self.roll_names.push(instead.clone());
                self.apply_row(
                    table,
                    &next,
                    fighter,
                    &instead,
                    record.as_ref(),
                    None,
                    depth + 1,
                )?;
            }
        }
        Ok(())
    }

    /// Applies `Effect::Cripple` to the fighter (the kind says the rule).
    fn effect_cripple(&mut self, at: &At<'_>, fallback: &str) -> Result<(), ReportError> {
        let table = at.table;
        let row = at.row;
        let fighter = at.fighter;
        let roll = at.roll;
        let depth = at.depth;
        let name = &at.name;
        let gang = at.gang;
        let source = &at.source;
        let Some(adv) = self
            .pack
            .advancement
            .as_ref()
            .and_then(|a| self.pack.table(&a.table))
            .cloned()
        else {
            return Ok(());
        };
        let (cripple_roll, _, adv_row) = self.roll_on_named(&adv, fighter, "cripple")?;
        let record = self.rolls.last().map(|r| r.record.clone());
        let crippling = display_name(row);
        let reversed = match adv_row {
            Some(adv_row) => self.apply_row(
                &adv,
                &adv_row,
                fighter,
                &cripple_roll,
                record.as_ref(),
                Some(&crippling),
                depth + 1,
            ),
            None => Err(ReportError {
                field: String::new(),
                reason: "no row".into(),
            }),
        };
        match reversed {
            // A real mistake (a pick that is not an option) is the
            // players' to fix; only "nothing to take away" falls back.
            Err(e) if !e.field.is_empty() => return Err(e),
            Err(_) => {
                if let Some(next) = table.rows.iter().find(|r| r.on == *fallback).cloned() {
                    self.change(
                        gang,
                        format!(
                            "{name}: nothing to take away; {} instead",
                            display_name(&next)
                        ),
                        source,
                        row.ruling.as_deref(),
                    );
                    self.apply_row(table, &next, fighter, roll, None, None, depth + 1)?;
                }
            }
            Ok(()) => {}
        }
        Ok(())
    }

    /// Applies `Effect::MissNextBattle` to the fighter (the kind says the rule).
    fn effect_miss_next_battle(&mut self, at: &At<'_>) -> Result<(), ReportError> {
        let row = at.row;
        let fighter = at.fighter;
        let name = &at.name;
        let gang = at.gang;
        let source = &at.source;
        self.set_status(
            fighter,
            FighterStatus::Wounded {
                battle: self.battle_id(),
            },
            display_name(row),
        );
        self.change(
            gang,
            format!(
                "{name} misses the {}'s next {}",
                self.pack.words.gang,
                self.pack.record().noun
            ),
            source,
            None,
        );
        Ok(())
    }

    /// Applies `Effect::LaidUp` to the fighter (the kind says the rule).
    fn effect_laid_up(
        &mut self,
        at: &At<'_>,
        until: crate::rules::Until,
    ) -> Result<(), ReportError> {
        self.set_status(
            at.fighter,
            FighterStatus::LaidUp {
                battle: self.battle_id(),
                until,
            },
            display_name(at.row),
        );
        let text = format!(
            "{} is laid up until {}",
            at.name,
            crate::campaign::season::until_said(&self.pack.words, until)
        );
        self.change(at.gang, text, &at.source, None);
        Ok(())
    }

    /// Applies `Effect::Advance` to the fighter (the kind says the rule).
    fn effect_advance(&mut self, at: &At<'_>) -> Result<(), ReportError> {
        let fighter = at.fighter;
        let depth = at.depth;
        if let Some(adv) = self
            .pack
            .advancement
            .as_ref()
            .and_then(|a| self.pack.table(&a.table))
            .cloned()
        {
            let (adv_roll, _, adv_row) = self.roll_on(&adv, fighter, 0)?;
            let record = self.rolls.last().map(|r| r.record.clone());
            if let Some(adv_row) = adv_row {
                self.apply_row(
                    &adv,
                    &adv_row,
                    fighter,
                    &adv_roll,
                    record.as_ref(),
                    None,
                    depth + 1,
                )?;
            }
        }
        Ok(())
    }

    /// Applies `Effect::Stat` to the fighter (the kind says the rule).
    fn effect_stat(
        &mut self,
        at: &At<'_>,
        stat: &str,
        amount: &i64,
        applied: &mut Applied,
    ) -> Result<(), ReportError> {
        let fighter = at.fighter;
        let reverse = at.reverse;
        if !self.can_move(fighter, stat, *amount, reverse) {
            // One stat of several already at its limit stays there; the
            // row's other stats still change.
            let label = self.pack.stat(stat).map_or(stat, |s| s.label.as_str());
            let text = format!("{}: {label} is at its limit and stays", at.name);
            self.change(at.gang, text, &at.source, None);
            return Ok(());
        }
        let amount = if reverse { -amount } else { *amount };
        self.stat_change(fighter, stat, amount, applied);
        Ok(())
    }

    /// Applies `Effect::StatChoice` to the fighter (the kind says the rule).
    fn effect_stat_choice(
        &mut self,
        at: &At<'_>,
        stats: &[String],
        amount: &i64,
        applied: &mut Applied,
    ) -> Result<(), ReportError> {
        let fighter = at.fighter;
        let roll = at.roll;
        let reverse = at.reverse;
        let name = &at.name;
        let amount = if reverse { -amount } else { *amount };
        let options = self.movable(fighter, stats, amount);
        let chosen = match options.as_slice() {
            [only] => Some(only.clone()),
            _ => match self.pick(roll) {
                Some(p) => match options.iter().find(|o| **o == p) {
                    Some(o) => Some(o.clone()),
                    None => {
                        return refuse(
                            format!("picks[{roll}]"),
                            format!("“{p}” is not one of {}", options.join(", ")),
                        );
                    }
                },
                None => {
                    let verb = if amount < 0 { "loses" } else { "gains" };
                    self.need(
                        roll,
                        fighter,
                        format!("{name} {verb} {}: which?", amount.abs()),
                        options,
                    );
                    None
                }
            },
        };
        if let Some(stat) = chosen {
            self.stat_change(fighter, &stat, amount, applied);
        }
        Ok(())
    }

    /// Applies `Effect::Gain` to the fighter (the kind says the rule).
    fn effect_gain(
        &mut self,
        at: &At<'_>,
        what: &str,
        applied: &mut Applied,
    ) -> Result<(), ReportError> {
        let row = at.row;
        let roll = at.roll;
        let reverse = at.reverse;
        let name = &at.name;
        let gang = at.gang;
        let source = &at.source;
        let named = self.pick(roll);
        let text = match (&named, reverse) {
            (Some(n), false) => format!("{what}: {n}"),
            (None, false) => what.to_owned(),
            (Some(n), true) => format!("loses {n}"),
            (None, true) => format!("loses {what}"),
        };
        self.change(
            gang,
            format!("{name}: {text}"),
            source,
            row.ruling.as_deref(),
        );
        applied.gains.push(text.clone());
        applied.words.push(text);
        Ok(())
    }

    /// Applies `Effect::GainQuirk` to the fighter (the kind says the rule).
    fn effect_gain_quirk(
        &mut self,
        at: &At<'_>,
        category: &Option<String>,
        reverse: bool,
        applied: &mut Applied,
    ) -> Result<(), ReportError> {
        let fighter = at.fighter;
        let roll = at.roll;
        let name = &at.name;
        let options = self.quirk_options(fighter, category.as_deref(), reverse);
        match self.pick(roll) {
            None => {
                let verb = if reverse { "loses" } else { "gains" };
                // The category's label where the row names one (a power).
                let what = category
                    .as_deref()
                    .and_then(|c| self.pack.category(c))
                    .map_or_else(
                        || format!("a {}", self.pack.words.entry),
                        |c| format!("one of {}", c.label),
                    );
                self.need(
                    roll,
                    fighter,
                    format!("{name} {verb} {what}: which?"),
                    options,
                );
            }
            Some(p) => {
                let Some(quirk) = self
                    .pack
                    .find_quirk(&p)
                    .map(|(q, _)| q.id.clone())
                    .filter(|q| options.contains(q))
                else {
                    return refuse(
                        format!("picks[{roll}]"),
                        format!("“{p}” is not one of {}", options.join(", ")),
                    );
                };
                self.give_quirk(at, &quirk, reverse, applied);
            }
        }
        Ok(())
    }

    /// The fighter gains the entry `quirk` (or loses it, `reverse`), with
    /// its change line and what the lasting effect records.
    fn give_quirk(&mut self, at: &At<'_>, quirk: &str, reverse: bool, applied: &mut Applied) {
        let fighter = at.fighter;
        let from = self.quirks_of(fighter);
        let mut to = from.clone();
        if reverse {
            to.retain(|q| q.quirk != quirk);
        } else {
            to.push(QuirkPick::new(quirk.to_owned()));
        }
        self.events.push(Event::QuirksChanged {
            fighter,
            from,
            to: to.clone(),
        });
        if let Some(f) = self.fighters.get_mut(&fighter) {
            f.quirks = to;
        }
        let label = self
            .pack
            .quirk(quirk)
            .map_or(quirk.to_owned(), |q| q.name.clone());
        let text = if reverse {
            format!("loses {label}")
        } else {
            format!("gains {label}")
        };
        self.change(
            at.gang,
            format!("{} {text}", at.name),
            &at.source,
            at.row.ruling.as_deref(),
        );
        applied.words.push(text);
        if !reverse {
            applied.quirk = Some(quirk.to_owned());
        } else {
            applied.gains.push(format!("lost {label}"));
            applied.lost_quirk = Some(quirk.to_owned());
        }
    }

    /// Applies `Effect::Resource` to the fighter (the kind says the rule).
    fn effect_resource(
        &mut self,
        at: &At<'_>,
        resource: &str,
        amount: &i64,
    ) -> Result<(), ReportError> {
        let Some(g) = at.gang else {
            return Ok(());
        };
        // An outcome may forfeit a resource's gains (000's model that flees
        // off the table: "no Merits"); its losses still apply.
        if *amount > 0
            && let Some(outcome) = self.forfeiting(at.fighter, resource)
        {
            let label = self.pack.resource_label(resource).to_owned();
            self.change(
                Some(g),
                format!(
                    "{}: no {label} from {} ({})",
                    at.name,
                    display_name(at.row),
                    outcome.label
                ),
                &outcome.source,
                None,
            );
            return Ok(());
        }
        self.pay(at, g, resource, *amount, "")
    }

    /// The fighter's outcome in this record, where it forfeits `resource`.
    fn forfeiting(&self, fighter: FighterId, resource: &str) -> Option<crate::rules::OutcomeDef> {
        let outcome = self
            .battle
            .fighters
            .iter()
            .find(|bf| bf.fighter == fighter)?
            .outcome
            .clone();
        self.pack
            .outcome(&outcome)
            .filter(|o| o.forfeits.iter().any(|r| r == resource))
            .cloned()
    }

    /// Changes the fighter's gang's resource by `amount` as the row says,
    /// with its change line (`+2 Supply`, then `why`).
    fn pay(
        &mut self,
        at: &At<'_>,
        gang: GangId,
        resource: &str,
        amount: i64,
        why: &str,
    ) -> Result<(), ReportError> {
        let reason = format!("{}: {}", at.table.name, display_name(at.row));
        let made = self.adjust(gang, resource, amount, &reason)?;
        let label = self.pack.resource_label(resource).to_owned();
        self.change(
            Some(gang),
            format!("{made:+} {label}{why}"),
            &at.source,
            at.row.ruling.as_deref(),
        );
        Ok(())
    }

    /// Applies `Effect::ResourceFromValue` to the fighter (the kind says the rule).
    fn effect_resource_from_value(
        &mut self,
        at: &At<'_>,
        resource: &str,
        percent: &i64,
    ) -> Result<(), ReportError> {
        let fighter = at.fighter;
        let name = &at.name;
        let gang = at.gang;
        if let Some(g) = gang {
            let value = self.value_of(fighter);
            let Some(amount) = value.checked_mul(*percent).map(|a| a / 100) else {
                let from = self.amount_of(g, resource);
                let change = format!("{value} × {percent}%");
                let direction = value.signum() * percent.signum();
                return Err(self.past_bound(g, resource, from, &change, direction));
            };
            self.pay(at, g, resource, amount, &format!(" ({name}'s value)"))?;
        }
        Ok(())
    }

    /// Applies `Effect::RollOn` to the fighter (the kind says the rule).
    fn effect_roll_on(&mut self, at: &At<'_>, other: &str) -> Result<(), ReportError> {
        let fighter = at.fighter;
        let crippled_by = at.crippled_by;
        let depth = at.depth;
        if let Some(next) = self.pack.table(other).cloned() {
            let (next_roll, _, next_row) = self.roll_on(&next, fighter, 0)?;
            let record = self.rolls.last().map(|r| r.record.clone());
            if let Some(next_row) = next_row {
                self.apply_row(
                    &next,
                    &next_row,
                    fighter,
                    &next_roll,
                    record.as_ref(),
                    crippled_by,
                    depth + 1,
                )?;
            }
        }
        Ok(())
    }

    /// Applies `Effect::RollTwice`: two more results from the same table,
    /// each rolled again while it comes up the ignored total. Each roll has
    /// a name of its own, so dice entered by hand reach the right one.
    fn effect_roll_twice(&mut self, at: &At<'_>, ignoring: i64) -> Result<(), ReportError> {
        // "search-findings: Mags" rolls again as "search-findings again 1.1:
        // Mags": the fighter stays at the end, as in every roll's name.
        let who = format!(": {}", at.name);
        let base = at.roll.strip_suffix(&who).unwrap_or(at.roll);
        for n in 1..=2 {
            let mut kept = None;
            for attempt in 1..=MAX_AGAIN {
                let name = format!("{base} again {n}.{attempt}");
                let (roll, total, row) = self.roll_on_named(at.table, at.fighter, &name)?;
                if total != ignoring {
                    kept = Some((roll, row));
                    break;
                }
            }
            let Some((roll, Some(row))) = kept else {
                continue;
            };
            let record = self.rolls.last().map(|r| r.record.clone());
            self.apply_row(
                at.table,
                &row,
                at.fighter,
                &roll,
                record.as_ref(),
                at.crippled_by,
                at.depth + 1,
            )?;
        }
        Ok(())
    }

    /// Applies `Effect::InjuryModifier` to the fighter (the kind says the rule).
    fn effect_injury_modifier(&mut self, at: &At<'_>, amount: &i64) -> Result<(), ReportError> {
        let fighter = at.fighter;
        // Saturating: a modifier held at the end of i64 lands on the
        // same open-ended row as the true sum would.
        let modifier = self.injury_modifiers.entry(fighter).or_default();
        *modifier = modifier.saturating_add(*amount);
        self.fighter_line(at, &format!("{amount:+} to the injury roll"));
        Ok(())
    }

    /// Applies `Effect::Counter` to the fighter: the counter moves within
    /// its bounds (taken back when a crippling reverses the row).
    fn effect_counter(&mut self, at: &At<'_>, counter: &str, amount: i64) {
        let delta = if at.reverse {
            amount.saturating_neg()
        } else {
            amount
        };
        self.change_counter(
            at.fighter,
            counter,
            delta,
            &at.source,
            at.row.ruling.as_deref(),
        );
    }

    /// A change line about the fighter, citing the row and its ruling.
    fn fighter_line(&mut self, at: &At<'_>, text: &str) {
        self.change(
            at.gang,
            format!("{}: {text}", at.name),
            &at.source,
            at.row.ruling.as_deref(),
        );
    }

    /// Applies `Effect::Status` to the fighter (the kind says the rule).
    fn effect_status(&mut self, at: &At<'_>, status: &str) -> Result<(), ReportError> {
        self.fighter_line(at, status);
        Ok(())
    }

    /// Applies `Effect::Note` to the fighter (the kind says the rule).
    fn effect_note(&mut self, at: &At<'_>, text: &str) -> Result<(), ReportError> {
        self.fighter_line(at, text);
        Ok(())
    }

    /// Applies `Effect::Choice` to the fighter (the kind says the rule).
    fn effect_choice(
        &mut self,
        at: &At<'_>,
        options: &[Effect],
        applied: &mut Applied,
    ) -> Result<(), ReportError> {
        let table = at.table;
        let row = at.row;
        let fighter = at.fighter;
        let roll = at.roll;
        let crippled_by = at.crippled_by;
        let depth = at.depth;
        let name = &at.name;
        let labels: Vec<String> = (1..=options.len()).map(|i| i.to_string()).collect();
        match self
            .pick(roll)
            .and_then(|p| p.parse::<usize>().ok())
            .and_then(|i| options.get(i.wrapping_sub(1)))
        {
            Some(chosen) => {
                let chosen = chosen.clone();
                self.apply_effect(
                    table,
                    row,
                    &chosen,
                    fighter,
                    roll,
                    crippled_by,
                    depth + 1,
                    applied,
                )?;
            }
            None => self.need(
                roll,
                fighter,
                format!("{name}: pick one of the results"),
                labels,
            ),
        }
        Ok(())
    }

    /// Rolls a table under another name (`cripple: Brick`).
    fn roll_on_named(
        &mut self,
        table: &TableDef,
        fighter: FighterId,
        name: &str,
    ) -> Result<(String, i64, Option<TableRowDef>), ReportError> {
        let renamed = TableDef {
            id: name.to_owned(),
            ..table.clone()
        };
        let (roll, total, row) = self.roll_on(&renamed, fighter, 0)?;
        // Stored under the real table's id, named after the purpose.
        if let Some(Event::TableRolled { table: t, .. }) = self.events.last_mut() {
            *t = table.id.clone();
        }
        if let Some(made) = self.rolls.last_mut() {
            made.table = table.id.clone();
        }
        Ok((roll, total, row))
    }

    fn stat_change(&mut self, fighter: FighterId, stat: &str, amount: i64, applied: &mut Applied) {
        let label = self
            .pack
            .stat(stat)
            .map_or(stat.to_owned(), |s| s.title().to_owned());
        *applied.stats.entry(stat.to_owned()).or_default() += amount;
        let unit = self.pack.stat(stat).map_or("", |s| s.unit.as_str());
        let text = format!("{amount:+}{unit} {label}");
        let gang = self.fighter_gang(fighter);
        let name = self.fighter_label(fighter);
        self.change(gang, format!("{name}: {text}"), "lasting", None);
        applied.words.push(text);
    }

    /// The fighter's value: worked out from its parts where the pack
    /// prices its fighters, else its value counter (0 without one).
    fn value_of(&self, fighter: FighterId) -> i64 {
        if let Some(value) = self
            .fighters
            .get(&fighter)
            .and_then(|f| crate::campaign::valuation::fighter_value(self.pack, f, &self.lasting))
        {
            return value.value;
        }
        let counter = self
            .pack
            .injuries
            .as_ref()
            .and_then(|i| i.value_counter.clone());
        counter
            .and_then(|c| self.counters.get(&(fighter, c)).copied())
            .unwrap_or(0)
    }

    /// What each fighter's outcome does to them, where the pack's outcome
    /// carries effects (drowned: leaves the gang): applied as a row of a
    /// table of the outcome's own, picks asked under `outcome: fighter`.
    pub(super) fn outcome_effects(&mut self) -> Result<(), ReportError> {
        for bf in self.battle.fighters.clone() {
            let Some(outcome) = self.pack.outcome(&bf.outcome) else {
                continue;
            };
            if outcome.effects.is_empty() {
                continue;
            }
            let (table, row) = (outcome.as_table(), outcome.as_row());
            let roll = format!("{}: {}", outcome.id, self.fighter_label(bf.fighter));
            self.roll_names.push(roll.clone());
            self.apply_row(&table, &row, bf.fighter, &roll, None, None, 0)
                .map_err(|e| named(e, &roll))?;
        }
        Ok(())
    }

    /// Results the fighters suffered during the battle (criticals).
    pub(super) fn table_results(&mut self) -> Result<(), ReportError> {
        let during = self.pack.record().during.clone();
        for (i, result) in self.report.table_results.iter().enumerate() {
            let field = format!("table_results[{i}]");
            let Some(bf) = self.battle.fighters.iter().find(|bf| {
                self.fighters
                    .get(&bf.fighter)
                    .is_some_and(|f| crate::text::same(&f.name, &result.fighter))
            }) else {
                return refuse(
                    format!("{field}.fighter"),
                    format!(
                        "“{}” did not take part in this {}",
                        result.fighter,
                        self.pack.record().noun
                    ),
                );
            };
            let fighter = bf.fighter;
            let Some(roll) = during.iter().find(|r| {
                self.pack.table(&r.table).is_some_and(|t| {
                    crate::text::same(&t.id, &result.table)
                        || crate::text::same(&t.name, &result.table)
                })
            }) else {
                return refuse(
                    format!("{field}.table"),
                    self.not_rolled_during(&result.table),
                );
            };
            let Some(table) = self.pack.table(&roll.table).cloned() else {
                continue;
            };
            if table.unfilled().is_some() {
                return refuse(format!("{field}.table"), unfilled_table(&table));
            }
            if !roll.is_for(|q| self.fighter_has(fighter, q)) {
                return refuse(
                    format!("{field}.table"),
                    self.not_for(roll, &table, &result.fighter),
                );
            }
            match result.total {
                Some(total) => self.table_result_at_the_table(&field, &table, fighter, total)?,
                None => self.roll_and_apply(&table, fighter, 0, roll.ruling.as_deref())?,
            }
        }
        Ok(())
    }

    /// A table's name, and whose it is where it is the group's own.
    pub(super) fn table_title(&self, table: &TableDef) -> String {
        match self.pack.group_label("tables", &table.id) {
            Some(group) => format!("{} ({group})", table.name),
            None => table.name.clone(),
        }
    }

    /// Whether a fighter has an entry, by id.
    fn fighter_has(&self, fighter: FighterId, quirk: &str) -> bool {
        self.fighters
            .get(&fighter)
            .is_some_and(|f| f.quirks.iter().any(|p| p.quirk == quirk))
    }

    /// The refusal of a table that is for other fighters (a synthetic's
    /// own critical table), naming the entry it turns on.
    fn not_for(&self, roll: &crate::rules::RecordRoll, table: &TableDef, who: &str) -> String {
        let name = |id: &str| {
            self.pack
                .quirk(id)
                .map_or(id.to_owned(), |q| q.name.clone())
        };
        match (&roll.only_with, &roll.not_with) {
            (Some(with), _) => format!(
                "{} is only for those with {}; {who} is not",
                table.name,
                name(with)
            ),
            (_, Some(without)) => format!(
                "{} is not for those with {}, as {who} is",
                table.name,
                name(without)
            ),
            _ => format!("{} is not for {who}", table.name),
        }
    }

    /// The refusal of a table the players do not roll during a game.
    fn not_rolled_during(&self, table: &str) -> String {
        let record = self.pack.record();
        let names: Vec<&str> = record
            .during
            .iter()
            .filter_map(|r| self.pack.table(&r.table).map(|t| t.name.as_str()))
            .collect();
        if names.is_empty() {
            format!(
                "no table of {} is rolled during a {}",
                self.pack.pack.name, record.noun
            )
        } else {
            format!(
                "“{table}” is not rolled during a {} ({})",
                record.noun,
                names.join(", ")
            )
        }
    }

    /// A result rolled at the table, by its total.
    fn table_result_at_the_table(
        &mut self,
        field: &str,
        table: &TableDef,
        fighter: FighterId,
        rolled: i64,
    ) -> Result<(), ReportError> {
        // The dice's total as rolled at the table; the fighter's own
        // modifiers apply as they do to the app's rolls.
        let (modifier, modifier_text) = self.fighter_modifiers(table, fighter);
        let total = rolled.saturating_add(modifier);
        let Some(row) = table.lookup(total).cloned() else {
            return refuse(
                format!("{field}.total"),
                format!(
                    "{} has no row for {rolled}{modifier_text} = {total}",
                    table.name
                ),
            );
        };
        let record = RollRecord {
            expression: table.roll.clone(),
            dice: Vec::new(),
            total: rolled,
            source: RollSource::Hand,
            rolls: Vec::new(),
            scoring: Default::default(),
        };
        let roll = self.roll_name(&table.id, fighter);
        self.roll_names.push(roll.clone());
        self.events.push(Event::TableRolled {
            battle: Some(self.battle_id()),
            fighter: Some(fighter),
            table: table.id.clone(),
            roll: record.clone(),
            modifier,
            total,
            row: row.on.clone(),
            result: display_name(&row),
        });
        let name = self.fighter_label(fighter);
        let gang = self.fighter_gang(fighter);
        self.change(
            gang,
            format!(
                "{name}: {} {rolled}{}: {} (rolled at the table)",
                self.table_title(table),
                if modifier_text.is_empty() {
                    String::new()
                } else {
                    format!("{modifier_text} = {total}")
                },
                row.result
            ),
            &table.source,
            row.ruling.as_deref(),
        );
        self.apply_row(table, &row, fighter, &roll, Some(&record), None, 0)
            .map_err(|e| named(e, field))
    }

    /// Rolls on a table for a fighter (or takes the dice entered under the
    /// roll's name) and applies the row it lands on.
    pub(super) fn roll_and_apply(
        &mut self,
        table: &TableDef,
        fighter: FighterId,
        modifier: i64,
        ruling: Option<&str>,
    ) -> Result<(), ReportError> {
        let (roll, _, row) = self.roll_on(table, fighter, modifier)?;
        let record = self.rolls.last().map(|r| r.record.clone());
        match row {
            Some(row) => self
                .apply_row(table, &row, fighter, &roll, record.as_ref(), None, 0)
                .map_err(|e| named(e, &roll)),
            None => {
                let gang = self.fighter_gang(fighter);
                self.change(
                    gang,
                    format!("{roll}: the total lands on no row"),
                    &table.source,
                    ruling,
                );
                Ok(())
            }
        }
    }

    /// The fighters of the record whose outcome is one of `outcomes`.
    fn fighters_with(&self, outcomes: &[String]) -> Vec<FighterId> {
        self.battle
            .fighters
            .iter()
            .filter(|bf| outcomes.contains(&bf.outcome))
            .map(|bf| bf.fighter)
            .collect()
    }

    /// The rolls the pack's `[record]` makes after a game, for each fighter
    /// with one of a roll's outcomes.
    pub(super) fn after_rolls(&mut self) -> Result<(), ReportError> {
        for after in self.pack.record().after.clone() {
            let Some(table) = self.pack.table(&after.table).cloned() else {
                continue;
            };
            for fighter in self.fighters_with(&after.outcomes) {
                if !after.is_for(|q| self.fighter_has(fighter, q)) {
                    continue;
                }
                if table.unfilled().is_some() {
                    let who = self.fighter_label(fighter);
                    let gang = self.fighter_gang(fighter);
                    let text = format!("{who}: not rolled: {}", unfilled_table(&table));
                    self.change(gang, text, &after.source, after.ruling.as_deref());
                    continue;
                }
                self.roll_and_apply(&table, fighter, 0, after.ruling.as_deref())?;
            }
        }
        Ok(())
    }

    /// Fighters the pack says must roll for injury do so.
    pub(super) fn injuries(&mut self) -> Result<(), ReportError> {
        let Some(rules) = self.pack.injuries.clone() else {
            return Ok(());
        };
        let Some(table) = self.pack.table(&rules.table).cloned() else {
            return Ok(());
        };
        for fighter in self.fighters_with(&rules.roll_for) {
            let modifier = self.injury_modifiers.get(&fighter).copied().unwrap_or(0);
            self.roll_and_apply(&table, fighter, modifier, rules.ruling.as_deref())?;
        }
        Ok(())
    }

    /// How many advancement rolls `gang` has from this record: one per
    /// full amount of a resource the record itself gained, or so many a
    /// record (to its winner alone, where the pack says so).
    pub(super) fn advancements_allowed(
        &self,
        rules: &crate::rules::AdvancementRules,
        gang: GangId,
    ) -> usize {
        match (&rules.per_resource, rules.per_battle) {
            (Some(per), _) => {
                let gained = self
                    .gained_in_battle
                    .get(&(gang, per.resource.clone()))
                    .copied()
                    .unwrap_or(0);
                usize::try_from(gained / per.amount).unwrap_or(0)
            }
            (None, Some(n)) => {
                if rules.winner_only && self.battle.winner != Some(gang) {
                    0
                } else {
                    n
                }
            }
            (None, None) => 0,
        }
    }

    /// Advancement rolls for the fighters the players nominated.
    pub(super) fn advancements(&mut self) -> Result<(), ReportError> {
        let Some(rules) = self.pack.advancement.clone() else {
            if !self.report.advancements.is_empty() {
                return refuse(
                    "advancements",
                    format!("{} has no advancement", self.pack.pack.name),
                );
            }
            return Ok(());
        };
        let Some(table) = self.pack.table(&rules.table).cloned() else {
            return Ok(());
        };
        let mut used: BTreeMap<GangId, usize> = BTreeMap::new();
        for (i, nomination) in self.report.advancements.iter().enumerate() {
            let field = format!("advancements[{i}]");
            let Some(gang) = self
                .battle
                .gangs
                .iter()
                .map(|g| g.gang)
                .find(|g| crate::text::same(&self.name(*g), &nomination.gang))
            else {
                return refuse(
                    format!("{field}.gang"),
                    format!(
                        "“{}” did not take part in this {}",
                        nomination.gang,
                        self.pack.record().noun
                    ),
                );
            };
            let Some(bf) = self.battle.fighters.iter().find(|bf| {
                bf.gang == gang
                    && self
                        .fighters
                        .get(&bf.fighter)
                        .is_some_and(|f| crate::text::same(&f.name, &nomination.fighter))
            }) else {
                return refuse(
                    format!("{field}.fighter"),
                    format!(
                        "“{}” did not take part for {} in this {}",
                        nomination.fighter,
                        nomination.gang,
                        self.pack.record().noun
                    ),
                );
            };
            let fighter = bf.fighter;
            if rules.exclude_outcomes.contains(&bf.outcome) {
                let outcome = self
                    .pack
                    .outcome(&bf.outcome)
                    .map_or(bf.outcome.clone(), |o| o.label.clone());
                return refuse(
                    format!("{field}.fighter"),
                    format!("{} may not advance: {outcome}", nomination.fighter),
                );
            }
            if self
                .fighters
                .get(&fighter)
                .is_some_and(|f| !f.status.on_roster())
            {
                return refuse(
                    format!("{field}.fighter"),
                    format!(
                        "{} has left the {}",
                        nomination.fighter, self.pack.words.gang
                    ),
                );
            }
            let allowed = self.advancements_allowed(&rules, gang);
            let count = used.entry(gang).or_default();
            *count += 1;
            if *count > allowed {
                return refuse(
                    field,
                    format!(
                        "{} has {allowed} advancement roll{} from this {}",
                        nomination.gang,
                        if allowed == 1 { "" } else { "s" },
                        self.pack.record().noun
                    ),
                );
            }
            let (roll, _, row) = self.roll_on(&table, fighter, 0)?;
            let record = self.rolls.last().map(|r| r.record.clone());
            if let Some(row) = row {
                self.apply_row(&table, &row, fighter, &roll, record.as_ref(), None, 0)
                    .map_err(|e| named(e, &roll))?;
            }
        }
        Ok(())
    }

    /// Dice entered and picks given must name rolls this battle made.
    pub(super) fn check_dice_and_picks(&self) -> Result<(), ReportError> {
        let known = |name: &str| self.roll_names.iter().any(|r| crate::text::same(r, name));
        let list = || {
            if self.roll_names.is_empty() {
                format!("this {} makes no roll", self.pack.record().noun)
            } else {
                format!("rolls: {}", self.roll_names.join("; "))
            }
        };
        for (i, d) in self.report.dice.iter().enumerate() {
            if !known(&d.roll) {
                return refuse(
                    format!("dice[{i}].roll"),
                    format!("no roll called “{}” ({})", d.roll, list()),
                );
            }
        }
        for (i, p) in self.report.picks.iter().enumerate() {
            if !known(&p.roll) {
                return refuse(
                    format!("picks[{i}].roll"),
                    format!("no roll called “{}” ({})", p.roll, list()),
                );
            }
        }
        Ok(())
    }
}

/// An error from applying a roll's result, named after the roll when it
/// names no field of its own.
fn named(e: ReportError, roll: &str) -> ReportError {
    if e.field.is_empty() {
        ReportError {
            field: roll.to_owned(),
            reason: e.reason,
        }
    } else {
        e
    }
}

/// A row's short name, or its result when it has none.
pub(super) fn display_name(row: &TableRowDef) -> String {
    if row.name.is_empty() {
        row.result.clone()
    } else {
        row.name.clone()
    }
}

/// What is said of a table the text does not print and the group has not
/// filled in.
fn unfilled_table(table: &TableDef) -> String {
    format!(
        "{} is not printed in the rule text, and the group has not filled it in: enter its rows in the group's house rules",
        table.name
    )
}
