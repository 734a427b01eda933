//! The season: who holds which holding (and giving or taking one by
//! hand), the cycle and who has played how many in it, ending a cycle by
//! hand, the standings, and a gang's faction. The rules are the
//! campaign's game's (`campaign::season`, `campaign::battle`); this room
//! reads what they need and commits what they decide, one change a batch.

use anyhow::{Context as _, Result, anyhow, bail};
use serde::Serialize;

use super::{Session, procedure_state};
use crate::campaign::battle::{BattleReport, ChangeLine, Procedure, RollMade, run_cycle_end};
use crate::campaign::season::standings::{Measured, Standing, first_alone, rank};
use crate::campaign::season::{SeasonState, cycle_said, holdings};
use crate::campaign::{BatchId, Event, GangId};
use crate::rules::{CycleEnds, Pack, Ranked, StandingMeasure};

/// Every holding of the campaign's game and who holds it.
#[derive(Debug, Clone, Serialize)]
pub struct HoldingsView {
    /// What the game calls one, and several.
    pub word: String,
    pub words: String,
    pub holdings: Vec<HoldingLine>,
}

/// One holding.
#[derive(Debug, Clone, Serialize)]
pub struct HoldingLine {
    pub id: String,
    pub name: String,
    /// The gang holding it; `None` unclaimed.
    pub holder: Option<String>,
    pub text: String,
    /// What it gives and changes, in words.
    pub gives: Vec<String>,
    /// Whether a gang may start with it.
    pub starting: bool,
}

/// The cycle the campaign is in, who has played how many records in it,
/// and what ending it does.
#[derive(Debug, Clone, Serialize)]
pub struct CycleView {
    pub cycle: u32,
    /// The cycle in the game's words (`Week 3`).
    pub said: String,
    /// The most records a gang plays in one, if any.
    pub limit: Option<u32>,
    /// Whether a player ends it (`by_hand`) or the records do (`played`).
    pub ends: CycleEnds,
    pub played: Vec<PlayedLine>,
    /// What ending it now would do (worked out with the app's dice).
    pub end: Vec<ChangeLine>,
    /// Why it cannot be ended by hand now, if it cannot.
    pub cannot_end: Option<String>,
}

/// How many records a gang has played in the cycle.
#[derive(Debug, Clone, Serialize)]
pub struct PlayedLine {
    pub id: GangId,
    pub gang: String,
    pub played: u32,
}

/// The standings, first to last.
#[derive(Debug, Clone, Serialize)]
pub struct StandingsView {
    pub label: String,
    /// What each value of a line is, in order.
    pub columns: Vec<String>,
    pub lines: Vec<StandingLine>,
    /// The word for a faction, where the game has them.
    pub faction_word: Option<String>,
    /// The word for a gang (`crew`).
    pub gang_word: String,
}

impl StandingsView {
    /// A line in words: its place (`=1` where shared) and the rest
    /// (`Ember Row (The Chandlers' Lodge): Won 1 · Beats 0`).
    pub fn said(&self, line: &StandingLine) -> (String, String) {
        let place = if line.shared {
            format!("={}", line.place)
        } else {
            line.place.to_string()
        };
        let faction = line
            .faction
            .as_deref()
            .map_or(String::new(), |f| format!(" ({f})"));
        let values: Vec<String> = self
            .columns
            .iter()
            .zip(&line.values)
            .filter_map(|(c, v)| v.map(|v| format!("{c} {v}")))
            .collect();
        (
            place,
            format!("{}{faction}: {}", line.gang, values.join(" · ")),
        )
    }
}

/// One line of the standings.
#[derive(Debug, Clone, Serialize)]
pub struct StandingLine {
    pub place: u32,
    pub shared: bool,
    pub gang: String,
    pub faction: Option<String>,
    /// The gang's value of each column (`None` for head-to-head).
    pub values: Vec<Option<i64>>,
}

/// The season as the window's Season screen shows it.
#[derive(Debug, Clone, Serialize)]
pub struct SeasonView {
    pub holdings: HoldingsView,
    pub cycle: Option<CycleView>,
    pub standings: Option<StandingsView>,
    /// The guilds of the game, by name (to choose one when founding).
    pub factions: Vec<String>,
    /// The holdings a new gang may start with, by name, free now.
    pub starting: Vec<String>,
}

impl SeasonView {
    /// Whether the game has any of a season's kinds.
    pub fn is_empty(&self) -> bool {
        self.holdings.holdings.is_empty()
            && self.cycle.is_none()
            && self.standings.is_none()
            && self.factions.is_empty()
    }
}

/// A season as a club reads it: the standings, who holds what, each
/// cycle's records with their places and what changed hands, and the
/// titles as each cycle ended.
#[derive(Debug, Clone, Serialize)]
pub struct SeasonReport {
    pub campaign: String,
    /// What the document is called (`Season`, or the standings' label).
    pub title: String,
    pub standings: Option<StandingsView>,
    pub holdings: HoldingsView,
    pub cycles: Vec<CycleReport>,
}

/// One cycle's records, in words, and the titles as it ended.
#[derive(Debug, Clone, Serialize)]
pub struct CycleReport {
    /// Its number, where the game has cycles.
    pub cycle: Option<u32>,
    /// It in the game's words (`Tide 2`).
    pub said: String,
    pub ended: bool,
    /// Each record: its number and kind, the sides as they finished, and
    /// what changed hands.
    pub records: Vec<String>,
    /// Each title held as it ended (`Tide King: Grey Oars`).
    pub titles: Vec<String>,
}

/// A cycle ended by hand: its batch, and what it did.
#[derive(Debug, Clone, Serialize)]
pub struct CycleEnded {
    pub batch: BatchId,
    pub changes: Vec<ChangeLine>,
    pub rolls: Vec<RollMade>,
}

impl Session {
    /// The pack of the campaign's game: its season's rules.
    pub(super) fn season_pack(&self) -> Result<&Pack> {
        let info = self.store.info()?;
        self.pack(&info.default_ruleset)
    }

    /// The season of the campaign's game, whole: holdings, the cycle,
    /// the standings, the factions.
    pub fn season_view(&self) -> Result<SeasonView> {
        let pack = self.season_pack()?;
        let holdings = self.holdings()?;
        let starting = holdings
            .holdings
            .iter()
            .filter(|h| h.starting && h.holder.is_none())
            .map(|h| h.name.clone())
            .collect();
        Ok(SeasonView {
            cycle: self.cycle_view()?,
            standings: self.standings()?,
            factions: pack.factions.iter().map(|f| f.name.clone()).collect(),
            starting,
            holdings,
        })
    }

    /// The season as it stands.
    pub fn season_state(&self) -> Result<SeasonState> {
        Ok(self.store.ground().season(true)?)
    }

    /// Every holding of the campaign's game, who holds it and what it
    /// gives.
    pub fn holdings(&self) -> Result<HoldingsView> {
        let pack = self.season_pack()?;
        let holders = self.store.ground().season(false)?.holders;
        let mut lines = Vec::new();
        for h in &pack.holdings {
            let holder = match holders.get(&h.id) {
                Some(g) => Some(self.gang(*g)?.name),
                None => None,
            };
            lines.push(HoldingLine {
                id: h.id.clone(),
                name: h.name.clone(),
                holder,
                text: h.text.clone(),
                gives: holding_gives(pack, h),
                starting: h.starting,
            });
        }
        Ok(HoldingsView {
            word: pack.words.holding.clone(),
            words: pack.words.holdings.clone(),
            holdings: lines,
        })
    }

    /// The holdings a gang holds, by name.
    pub fn holdings_of(&self, gang: GangId) -> Result<Vec<String>> {
        let pack = self.gang_pack(&self.gang(gang)?)?;
        let holders = self.store.ground().season(false)?.holders;
        Ok(pack
            .holdings
            .iter()
            .filter(|h| holders.get(&h.id) == Some(&gang))
            .map(|h| h.name.clone())
            .collect())
    }

    /// Gives a holding to a gang by hand (from whoever held it), with the
    /// reason.
    pub fn give_holding(&mut self, holding: &str, gang: &str, reason: &str) -> Result<BatchId> {
        let gang = self.gang_named(gang)?;
        self.change_holding(holding, Some(gang.id), reason)
    }

    /// Takes a holding from its holder by hand: unclaimed again.
    pub fn take_holding(&mut self, holding: &str, reason: &str) -> Result<BatchId> {
        self.change_holding(holding, None, reason)
    }

    fn change_holding(
        &mut self,
        holding: &str,
        to: Option<GangId>,
        reason: &str,
    ) -> Result<BatchId> {
        let reason = crate::text::notes("reason", reason.trim())?;
        let pack = self.season_pack()?;
        if reason.is_empty() {
            bail!(
                "reason: a change of a {} needs a reason for the log",
                pack.words.holding
            );
        }
        let holders = self.store.ground().season(false)?.holders;
        let names = self.store.all_names()?.0;
        let name = |g: GangId| names.get(&g).cloned().unwrap_or_else(|| format!("#{g}"));
        let event = holdings::change_by_hand(pack, &holders, holding, to, &reason, name)
            .map_err(|e| anyhow!("holding: {e}"))?;
        let Event::HoldingChanged { holding: id, .. } = &event else {
            bail!("holding: not a change of a holding");
        };
        let held = pack.holding(id).map_or(id.clone(), |h| h.name.clone());
        let label = match to {
            Some(g) => format!("{held} to {}", self.gang(g)?.name),
            None => format!("{held} unclaimed"),
        };
        self.commit(&label, vec![event])
    }

    /// The cycle the campaign is in, who has played how many records in
    /// it, and what ending it would do; `None` where the game has no
    /// cycles.
    pub fn cycle_view(&self) -> Result<Option<CycleView>> {
        let pack = self.season_pack()?;
        let Some(rules) = &pack.cycles else {
            return Ok(None);
        };
        let season = self.store.ground().season(false)?;
        let played = self
            .gangs_of_game(pack)?
            .into_iter()
            .map(|g| PlayedLine {
                id: g.id,
                played: season.played(g.id),
                gang: g.name,
            })
            .collect();
        let empty = BattleReport::empty();
        let state = procedure_state::whole(self.store.ground(), &self.registry)?;
        // What its end will do, its rolls said but not made; and why a
        // player may not end it now (its records end it), if they may not.
        let end = run_cycle_end(pack, &state, &empty, 0, false)
            .map_or_else(|_| Vec::new(), |p| p.changes);
        let cannot_end = match rules.ends {
            CycleEnds::ByHand => None,
            CycleEnds::Played => run_cycle_end(pack, &state, &empty, 0, true)
                .err()
                .map(|e| e.reason),
        };
        Ok(Some(CycleView {
            cycle: season.cycle,
            said: cycle_said(&pack.words, season.cycle),
            limit: rules.limit,
            ends: rules.ends,
            played,
            end,
            cannot_end,
        }))
    }

    /// What ending the cycle by hand would do, changing nothing. `report`
    /// carries the dice typed for the end's rolls and the titles chosen.
    pub fn preview_cycle_end(&self, report: &BattleReport, seed: u64) -> Result<Procedure> {
        let pack = self.season_pack()?;
        let state = procedure_state::whole(self.store.ground(), &self.registry)?;
        Ok(run_cycle_end(pack, &state, report, seed, true)?)
    }

    /// Ends the cycle by hand, where the game leaves it to a player: one
    /// change that undo takes back.
    pub fn end_cycle(&mut self, report: &BattleReport, seed: u64) -> Result<CycleEnded> {
        let procedure = self.preview_cycle_end(report, seed)?;
        let pack = self.season_pack()?;
        let label = format!(
            "{} ends",
            cycle_said(&pack.words, self.store.ground().season(false)?.cycle)
        );
        let batch = self
            .commit(&label, procedure.events)
            .context("the cycle's end")?;
        Ok(CycleEnded {
            batch,
            changes: procedure.changes,
            rolls: procedure.rolls,
        })
    }

    /// The season whole, for a club to read: its standings, holdings and
    /// each cycle's records.
    pub fn season_report(&self) -> Result<SeasonReport> {
        let pack = self.season_pack()?;
        let chronicle = self.chronicle()?;
        let words = &pack.words;
        let mut cycles: Vec<CycleReport> = Vec::new();
        for b in &chronicle.battles {
            let said = match b.cycle {
                Some(n) => cycle_said(words, n),
                None => "The season".to_owned(),
            };
            if cycles.last().is_none_or(|c| c.cycle != b.cycle) {
                cycles.push(CycleReport {
                    cycle: b.cycle,
                    said,
                    ended: false,
                    records: Vec::new(),
                    titles: Vec::new(),
                });
            }
            if let Some(c) = cycles.last_mut() {
                c.records.push(record_said(b));
            }
        }
        for ended in &chronicle.cycles {
            match cycles.iter_mut().find(|c| c.cycle == Some(ended.cycle)) {
                Some(c) => {
                    c.ended = true;
                    c.titles = ended.titles.clone();
                }
                None => cycles.push(CycleReport {
                    cycle: Some(ended.cycle),
                    said: cycle_said(words, ended.cycle),
                    ended: true,
                    records: Vec::new(),
                    titles: ended.titles.clone(),
                }),
            }
        }
        cycles.sort_by_key(|c| c.cycle);
        let standings = self.standings()?;
        Ok(SeasonReport {
            campaign: self.info()?.name,
            title: standings
                .as_ref()
                .map_or_else(|| "Season".to_owned(), |s| s.label.clone()),
            standings,
            holdings: self.holdings()?,
            cycles,
        })
    }

    /// The standings of the campaign's game; `None` where it has none.
    pub fn standings(&self) -> Result<Option<StandingsView>> {
        let pack = self.season_pack()?;
        let Some(def) = &pack.standings else {
            return Ok(None);
        };
        let ranked = self.ranked(pack)?;
        let mut lines = Vec::new();
        for s in ranked {
            let gang = self.gang(s.gang)?;
            lines.push(StandingLine {
                place: s.place,
                shared: s.shared,
                faction: gang
                    .faction
                    .as_deref()
                    .map(|f| pack.faction(f).map_or(f.to_owned(), |d| d.name.clone())),
                gang: gang.name,
                values: s.values,
            });
        }
        Ok(Some(StandingsView {
            label: def.label.clone(),
            columns: def.by.iter().map(|b| measure_label(pack, b)).collect(),
            lines,
            faction_word: (!pack.factions.is_empty()).then(|| pack.words.faction.clone()),
            gang_word: pack.words.gang.clone(),
        }))
    }

    /// The gangs of `pack`'s game ranked by its standings.
    pub(super) fn ranked(&self, pack: &Pack) -> Result<Vec<Standing>> {
        let Some(def) = &pack.standings else {
            return Ok(Vec::new());
        };
        let season = self.store.ground().season(true)?;
        let gangs = self.gangs_of_game(pack)?;
        let fighters = self.store.all_fighters()?;
        let measured: Vec<Measured<'_>> = gangs
            .iter()
            .map(|gang| Measured {
                gang,
                fighters: fighters.iter().filter(|f| f.gang == gang.id).collect(),
                holdings: season.held_by(gang.id).count(),
            })
            .collect();
        Ok(rank(pack, def, &measured, &season.results))
    }

    /// The gang first in the standings alone, where a title counts it.
    pub(super) fn first_in_standings(&self, pack: &Pack) -> Result<Option<GangId>> {
        if !pack
            .titles
            .iter()
            .any(|t| t.count.as_deref() == Some("standings"))
        {
            return Ok(None);
        }
        Ok(first_alone(&self.ranked(pack)?))
    }

    /// Changes a gang's faction by hand.
    pub fn set_faction(&mut self, gang: GangId, faction: &str) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let pack = self.gang_pack(&gang)?;
        let Some(def) = pack.find_faction(faction) else {
            let known: Vec<&str> = pack.factions.iter().map(|f| f.name.as_str()).collect();
            bail!(
                "faction: “{}” is not a {} of {} ({})",
                crate::text::echo(faction),
                pack.words.faction,
                pack.pack.name,
                if known.is_empty() {
                    "it has none".to_owned()
                } else {
                    known.join(", ")
                }
            );
        };
        if gang.faction.as_deref() == Some(def.id.as_str()) {
            bail!("faction: {} is already of {}", gang.name, def.name);
        }
        let label = format!("{} joins {}", gang.name, def.name);
        let event = Event::GangFactionChanged {
            gang: gang.id,
            from: gang.faction.clone(),
            to: Some(def.id.clone()),
        };
        self.commit(&label, vec![event])
    }
}

/// A record in a line: its number and kind, the sides as they finished,
/// what was at stake and what changed hands.
fn record_said(b: &crate::campaign::chronicle::BattleStory) -> String {
    let kind = b
        .shape
        .as_ref()
        .map_or(String::new(), |s| format!(" ({s})"));
    let challenge = b.gangs.iter().any(|g| g.challenger);
    let mut sides: Vec<&crate::campaign::chronicle::GangInBattle> = b.gangs.iter().collect();
    sides.sort_by_key(|g| g.place.unwrap_or(if g.won { 1 } else { 2 }));
    let sides: Vec<String> = sides
        .iter()
        .map(|g| match (g.place, challenge) {
            (_, true) if g.challenger => format!("{} (challenger)", g.gang),
            (Some(place), false) => format!("{} {}", g.gang, ordinal(place)),
            _ => g.gang.clone(),
        })
        .collect();
    let result = match (&b.winner, challenge) {
        (Some(w), true) => format!("; {w} won"),
        (None, true) => "; a draw".to_owned(),
        _ => String::new(),
    };
    let mut line = format!(
        "{} #{}{kind}: {}{result}",
        b.record,
        b.battle,
        sides.join(", ")
    );
    if let Some(stake) = &b.stake {
        line.push_str(&format!("; at stake {stake}"));
    }
    for h in &b.holdings {
        line.push_str(&format!("; {h}"));
    }
    line
}

/// A place in words: `1st`, `2nd`, `3rd`, `4th`, `11th`.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What a holding gives and changes, in words.
fn holding_gives(pack: &Pack, h: &crate::rules::HoldingDef) -> Vec<String> {
    let mut out = Vec::new();
    let rewards = |list: &[crate::rules::Reward]| -> Vec<String> {
        list.iter()
            .map(|r| match (&r.resource, &r.counter) {
                (Some(res), _) => format!("{:+} {}", r.amount, pack.resource_label(res)),
                (None, Some(c)) => format!(
                    "{:+} {}",
                    r.amount,
                    pack.counter(c).map_or(c.as_str(), |c| c.label.as_str())
                ),
                (None, None) => String::new(),
            })
            .collect()
    };
    let cycle = &pack.words.cycle;
    let income = rewards(&h.income);
    if !income.is_empty() {
        out.push(format!("at each {cycle}'s end: {}", income.join(", ")));
    }
    if let Some(table) = h.income_roll.as_deref().and_then(|t| pack.table(t)) {
        out.push(format!("at each {cycle}'s end: a roll on {}", table.name));
    }
    let each = rewards(&h.per_record);
    if !each.is_empty() {
        out.push(format!("each {}: {}", pack.record().noun, each.join(", ")));
    }
    for m in &h.modifiers {
        let table = pack
            .table(&m.table)
            .map_or(m.table.as_str(), |t| t.name.as_str());
        out.push(format!("{:+} to rolls on {table}", m.amount));
    }
    for u in &h.unlocks {
        let what = match crate::rules::Unlock::parse(u) {
            Ok(crate::rules::Unlock::Entry(id)) => {
                pack.quirk(&id).map_or(id.clone(), |q| q.name.clone())
            }
            Ok(crate::rules::Unlock::Group(id)) => pack
                .groups
                .iter()
                .find(|g| g.id == id)
                .map_or(id.clone(), |g| g.label.clone()),
            Err(_) => continue,
        };
        out.push(format!("only its holder recruits {what}"));
    }
    out
}

/// What a measure of the standings is called: its resource's or
/// counter's label, the game's word for holdings or records, or the
/// app's own.
fn measure_label(pack: &Pack, by: &str) -> String {
    let Ok(ranked) = Ranked::parse(by) else {
        return by.to_owned();
    };
    let label = match ranked.measure {
        StandingMeasure::Resource(id) => pack.resource_label(&id).to_owned(),
        StandingMeasure::Counter(id) => pack.counter(&id).map_or(id.clone(), |c| c.label.clone()),
        StandingMeasure::Holdings => crate::text::capitalised(&pack.words.holdings),
        StandingMeasure::Records => pack.record().plural_title(),
        StandingMeasure::Wins => "Won".to_owned(),
        StandingMeasure::HeadToHead => "Head to head".to_owned(),
    };
    if ranked.fewest {
        format!("{label} (fewest first)")
    } else {
        label
    }
}
