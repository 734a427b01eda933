//! Battles: the battle report (what happened at the table), its checks, and
//! the post-battle procedure that turns it into events.
//!
//! Pure. The procedure is read from the pack: outcomes, the scenario's
//! epilogue lines, bounty rules and titles. Rust knows the *kinds* of lines
//! (to the winner, to each gang, to the gang with the most of a count…),
//! never a scenario's numbers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

mod aftermath;
mod awards;
mod bounties;
mod counted;
mod counters;
mod cycle_end;
mod differences;
mod epilogue;
mod experience;
mod groups;
mod places;
mod remake;
mod report;
mod resolve;
mod succession;
mod upkeep;

pub use remake::{Shift, recorded, remade};
pub use report::*;
use resolve::resolve;

use super::titles::{TitleHolders, award_titles};
use super::{
    BattleId, EffectId, Event, Fighter, FighterId, FighterStatus, Gang, GangId, LastingEffect,
    PendingEffect,
};
use crate::rules::{Amount, EpilogueRule, Pack, Recipient, ScenarioDef, WinnerRule};

/// The pick of a gang that declares no bounty (where the pack's ruling
/// allows it); in a report, that declaration's `fighter` is `null`.
pub const NO_DECLARATION: &str = "none";

/// A gang as it takes part in a battle (the report checked and resolved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleGang {
    pub gang: GangId,
    pub role: Option<String>,
    pub ran_for_it: bool,
    pub counts: BTreeMap<String, i64>,
    /// Where it finished, first to last, in a record of a shape
    /// (`[[record.shapes]]`); sides may share a place where it allows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<u32>,
    /// The challenger, in a challenge (the other side defends).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub challenger: bool,
}

/// A fighter as they fared in a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleFighter {
    pub fighter: FighterId,
    pub gang: GangId,
    pub outcome: String,
    pub downed_by: Option<FighterId>,
}

/// A battle as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub id: BattleId,
    pub ruleset: String,
    /// The scenario's id; `None` where the pack plays no scenarios.
    #[serde(default)]
    pub scenario: Option<String>,
    pub gangs: Vec<BattleGang>,
    pub winner: Option<GangId>,
    pub fighters: Vec<BattleFighter>,
    pub notes: String,
    /// Gangs that declared no bounty after it (the pack's ruling).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declined: Vec<GangId>,
    /// What it was played with: boxes ticked, settings, pack versions.
    #[serde(default, skip_serializing_if = "Played::is_empty")]
    pub played: Played,
    /// The shape it took (`[[record.shapes]]` id), where the pack has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// The holding at stake (`[[holdings]]` id), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stake: Option<String>,
    /// The cycle it counted in, where the pack has cycles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycle: Option<u32>,
    /// The challenge it played (`[challenges]`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<crate::campaign::ChallengeId>,
}

/// What a record was played with, kept so that it reads as it was played
/// after the group changes its settings or edits its tables.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The `[record] flags` it ticked (the story concludes), by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The campaign's settings then, setting id → option id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The packs its rules came from, with their versions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub packs: Vec<crate::rules::PackStamp>,
    /// The report and the dice it was worked out from, so that it can be
    /// worked out again (every laptop of a league does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<Made>,
}

impl Played {
    pub fn is_empty(&self) -> bool {
        self.flags.is_empty()
            && self.settings.is_empty()
            && self.packs.is_empty()
            && self.made.is_none()
    }
}

/// What a record was worked out from: the report as the players told it
/// and the seed of the app's dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Made {
    pub report: BattleReport,
    pub seed: u64,
}

/// What the campaign looks like to the procedure.
#[derive(Debug, Clone, Default)]
pub struct CampaignState {
    pub gangs: Vec<Gang>,
    pub fighters: Vec<Fighter>,
    pub titles: TitleHolders,
    pub pending: Vec<PendingEffect>,
    pub lasting: Vec<LastingEffect>,
    /// The id the next lasting effect gets.
    pub next_effect: EffectId,
    /// Ruleset id → the pack it overrides, down to the first (gangs of one
    /// line of packs share titles).
    pub roots: BTreeMap<String, String>,
    /// The campaign's settings, setting id → option id (a setting left
    /// out has the pack's default).
    pub settings: BTreeMap<String, String>,
    /// Ruleset id → the packs a record of it is played with now.
    pub stamps: BTreeMap<String, Vec<crate::rules::PackStamp>>,
    /// A lasting effect that heals in time → the records its fighter's
    /// gang has played since the one that gave it.
    pub records_since: BTreeMap<EffectId, u32>,
    /// The season: holdings, the cycle, faction titles, results.
    pub season: crate::campaign::season::SeasonState,
}

impl CampaignState {
    fn gang_named(&self, name: &str) -> Option<&Gang> {
        self.gangs.iter().find(|g| crate::text::same(&g.name, name))
    }

    fn fighter_named(&self, gang: GangId, name: &str) -> Option<&Fighter> {
        self.fighters
            .iter()
            .find(|f| f.gang == gang && crate::text::same(&f.name, name))
    }

    pub fn gang(&self, id: GangId) -> Option<&Gang> {
        self.gangs.iter().find(|g| g.id == id)
    }

    pub fn fighter(&self, id: FighterId) -> Option<&Fighter> {
        self.fighters.iter().find(|f| f.id == id)
    }
}

/// One change the procedure makes, in words, with the rule behind it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangeLine {
    pub gang: Option<String>,
    pub text: String,
    /// The rule text it comes from.
    pub source: String,
    /// The pack's ruling, when one decided it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<String>,
}

impl ChangeLine {
    /// The line as a player reads it: `Ember Row: +1 Oil`, or the text
    /// alone where it is no one gang's.
    pub fn said(&self) -> String {
        match &self.gang {
            Some(who) => format!("{who}: {}", self.text),
            None => self.text.clone(),
        }
    }
}

/// A choice the players still have to make before the battle can be
/// committed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NeededChoice {
    /// Where in the report it goes: `choices` or `titles`.
    pub field: String,
    pub gang: String,
    /// The epilogue line id, or the titles the gang qualifies for.
    pub rule: String,
    pub text: String,
    /// The picks allowed.
    pub options: Vec<String>,
}

/// Something in a report that contradicts its scenario but that the text
/// does not forbid: recorded as told, and said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// The report field it is about.
    pub field: String,
    pub text: String,
    /// The rule text it goes against.
    pub source: String,
}

/// The whole result of a battle before it is committed.
#[derive(Debug, Clone, Serialize)]
pub struct Procedure {
    pub battle: Battle,
    pub changes: Vec<ChangeLine>,
    pub needed: Vec<NeededChoice>,
    /// What in the report contradicts its scenario, recorded as told.
    pub warnings: Vec<Warning>,
    /// Every roll the procedure made, as it will be stored.
    pub rolls: Vec<RollMade>,
    /// The seed the app's rolls came from.
    pub seed: u64,
    /// How many advancement rolls each side has from this record, where
    /// the pack has advancement (for the faces' forms; a report's own
    /// nominations are checked against it as the procedure runs).
    #[serde(skip)]
    pub advancements_allowed: BTreeMap<GangId, usize>,
    #[serde(skip)]
    pub events: Vec<Event>,
}

/// A roll the procedure made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RollMade {
    /// Its name, for entering dice by hand and for picks (`injury: Brick`).
    pub roll: String,
    pub fighter: Option<String>,
    pub table: String,
    pub record: crate::dice::RollRecord,
    pub modifier: i64,
    /// The modifier as the roll line shows it after the dice (` +1`,
    /// ` − 1 (Chill 1)`); empty for none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub modifier_text: String,
    pub total: i64,
    /// The row's result.
    pub result: String,
}

/// Checks a report against the campaign and the pack, and runs the
/// post-battle procedure. Nothing is changed: the caller commits
/// `events` when `needed` is empty.
pub fn run_procedure(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    id: BattleId,
    seed: u64,
) -> Result<Procedure, ReportError> {
    let filled;
    let report = match report.challenge {
        Some(challenge) => {
            filled = places::from_challenge(pack, state, report, challenge)?;
            &filled
        }
        None => report,
    };
    let battle = resolve(pack, state, report, id)?;
    let scenario = battle.scenario.as_deref().and_then(|s| pack.scenario(s));
    let mut run = Run::new(pack, state, &battle, report, seed);
    run.events.push(Event::BattleRecorded {
        battle: battle.clone(),
    });
    run.upkeep()?;
    run.rested();
    run.pending_effects()?;
    run.bounty_claims()?;
    let lines: Vec<EpilogueRule> = scenario
        .iter()
        .flat_map(|s| s.epilogue.iter())
        .chain(&pack.record().epilogue)
        .cloned()
        .collect();
    let of = scenario.map_or_else(|| pack.record().title(), |s| s.name.clone());
    run.epilogue(&lines, &of, report)?;
    // Advancement counts what the battle itself gained, not the bonuses of
    // the rolls after it (ruling resources-gained).
    run.gained_in_battle = run.gained.clone();
    let advancements_allowed: BTreeMap<GangId, usize> = pack
        .advancement
        .iter()
        .flat_map(|rules| {
            battle
                .gangs
                .iter()
                .map(|g| (g.gang, run.advancements_allowed(rules, g.gang)))
        })
        .collect();
    run.counters_changed()?;
    run.outcome_effects()?;
    run.table_results()?;
    run.resets()?;
    run.healed_in_time();
    run.after_rolls()?;
    run.injuries()?;
    run.advancements()?;
    run.awards()?;
    run.place_rewards()?;
    run.holding_rewards()?;
    run.differences()?;
    run.counted_rolls()?;
    run.lookups()?;
    run.stake();
    if run.completes_cycle() {
        run.end_cycle()?;
    }
    run.thresholds()?;
    run.succession()?;
    run.share_in_groups()?;
    run.check_dice_and_picks()?;
    run.bounty_declarations(report)?;
    run.titles(report)?;
    let warnings = scenario.map_or_else(Vec::new, |s| win_warnings(pack, state, &battle, s));
    let Run {
        changes,
        needed,
        events,
        rolls,
        ..
    } = run;
    Ok(Procedure {
        battle,
        changes,
        needed,
        warnings,
        events,
        rolls,
        seed,
        advancements_allowed,
    })
}

/// Ends the campaign's cycle by hand (where the pack leaves it to a
/// player): every step of the cycle's end for every gang of the game,
/// then the titles, worked out without changing anything. `report`
/// carries only the dice typed for the end's rolls (`income: <holding>`)
/// and the titles chosen; its gangs are none. With `by_hand` false it is
/// worked out whatever ends the cycle, to show what its end will do, its
/// rolls said but not made.
pub fn run_cycle_end(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    seed: u64,
    by_hand: bool,
) -> Result<Procedure, ReportError> {
    let Some(rules) = &pack.cycles else {
        return refuse(
            "cycle",
            format!("{} has no {}", pack.pack.name, pack.words.cycles),
        );
    };
    if !report.gangs.is_empty() {
        return refuse("gangs", "the end of a cycle has no sides");
    }
    let battle = Battle {
        id: BattleId(0),
        ruleset: pack.pack.id.clone(),
        scenario: None,
        gangs: Vec::new(),
        winner: None,
        fighters: Vec::new(),
        notes: String::new(),
        declined: Vec::new(),
        played: Played::default(),
        shape: None,
        stake: None,
        cycle: Some(state.season.cycle),
        challenge: None,
    };
    let mut run = Run::new(pack, state, &battle, report, seed);
    run.record = false;
    run.rolls_later = !by_hand;
    if by_hand && rules.ends == crate::rules::CycleEnds::Played {
        run.still_to_play()?;
    }
    run.end_cycle()?;
    run.thresholds()?;
    run.share_in_groups()?;
    run.check_dice_and_picks()?;
    run.titles(report)?;
    let Run {
        changes,
        needed,
        events,
        rolls,
        ..
    } = run;
    Ok(Procedure {
        battle,
        changes,
        needed,
        warnings: Vec::new(),
        events,
        rolls,
        seed,
        advancements_allowed: BTreeMap::new(),
    })
}

/// How many of `gang`'s fighters in the record ended with one of
/// `outcomes`: a count read from the report itself.
fn fighters_ending(fighters: &[BattleFighter], gang: GangId, outcomes: &[impl AsRef<str>]) -> i64 {
    let n = fighters
        .iter()
        .filter(|f| f.gang == gang && outcomes.iter().any(|o| o.as_ref() == f.outcome))
        .count();
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A winner short of the count the scenario's endgame names, when no rival
/// left the game early (003, Dead Drop: "Once one gang has extracted 3
/// Caches, they win").
fn win_warnings(
    pack: &Pack,
    state: &CampaignState,
    battle: &Battle,
    scenario: &ScenarioDef,
) -> Vec<Warning> {
    let (Some(win), Some(winner)) = (&scenario.win_at, battle.winner) else {
        return Vec::new();
    };
    let rival_ran = battle
        .gangs
        .iter()
        .any(|g| g.gang != winner && g.ran_for_it);
    let Some(side) = battle.gangs.iter().find(|g| g.gang == winner) else {
        return Vec::new();
    };
    let reached = side.counts.get(&win.count).copied().unwrap_or(0);
    if rival_ran || reached >= win.at_least {
        return Vec::new();
    }
    let label = scenario
        .counts
        .iter()
        .find(|c| c.id == win.count)
        .map_or(win.count.as_str(), |c| c.label.as_str());
    let name = state.gang(winner).map_or("the winner", |g| g.name.as_str());
    let ran = pack.record().ran.as_deref().unwrap_or("left the game");
    vec![Warning {
        field: "winner".into(),
        text: format!(
            "{name} won {} with {label} {reached}, short of the {} that wins it, and no rival {ran}",
            scenario.name, win.at_least
        ),
        source: win.source.clone(),
    }]
}

/// The procedure's working state: resources and counters as they become.
struct Run<'a> {
    pack: &'a Pack,
    state: &'a CampaignState,
    battle: &'a Battle,
    report: &'a BattleReport,
    seed: u64,
    resources: BTreeMap<GangId, BTreeMap<String, i64>>,
    counters: BTreeMap<(FighterId, String), i64>,
    /// Fighters as they become (status, gang, quirks).
    fighters: BTreeMap<FighterId, Fighter>,
    /// Lasting effects, the campaign's and the new ones.
    lasting: Vec<LastingEffect>,
    /// The id the next lasting effect gets; `None` once the last id there
    /// is has been given.
    next_effect: Option<i64>,
    /// Injury roll modifiers from results suffered in the battle.
    injury_modifiers: BTreeMap<FighterId, i64>,
    /// Resources gained in this battle, per gang and resource.
    gained: BTreeMap<(GangId, String), i64>,
    /// What the scenario's epilogue gained, before any roll's bonus.
    gained_in_battle: BTreeMap<(GangId, String), i64>,
    events: Vec<Event>,
    changes: Vec<ChangeLine>,
    needed: Vec<NeededChoice>,
    rolls: Vec<RollMade>,
    /// Roll names used, to check entered dice and picks against.
    roll_names: Vec<String>,
    /// What each side's counted rolls found, by roll id.
    found: BTreeMap<(GangId, String), i64>,
    /// Who holds each holding, as it becomes.
    holders: BTreeMap<String, GangId>,
    /// False for a cycle ended by hand: no record is made.
    record: bool,
    /// True where a cycle's end is only shown ahead of time: its rolls are
    /// said, not made.
    rolls_later: bool,
}

impl<'a> Run<'a> {
    fn new(
        pack: &'a Pack,
        state: &'a CampaignState,
        battle: &'a Battle,
        report: &'a BattleReport,
        seed: u64,
    ) -> Self {
        Self {
            pack,
            state,
            battle,
            report,
            seed,
            fighters: state.fighters.iter().map(|f| (f.id, f.clone())).collect(),
            lasting: state.lasting.clone(),
            next_effect: Some(state.next_effect.0),
            injury_modifiers: BTreeMap::new(),
            gained: BTreeMap::new(),
            gained_in_battle: BTreeMap::new(),
            rolls: Vec::new(),
            roll_names: Vec::new(),
            found: BTreeMap::new(),
            holders: state.season.holders.clone(),
            record: true,
            rolls_later: false,
            resources: state
                .gangs
                .iter()
                .map(|g| (g.id, g.resources.clone()))
                .collect(),
            counters: state
                .fighters
                .iter()
                .flat_map(|f| f.counters.iter().map(|(c, v)| ((f.id, c.clone()), *v)))
                .collect(),
            events: Vec::new(),
            changes: Vec::new(),
            needed: Vec::new(),
        }
    }

    fn name(&self, gang: GangId) -> String {
        self.state
            .gang(gang)
            .map_or_else(|| format!("gang #{gang}"), |g| g.name.clone())
    }

    fn fighter_name(&self, id: FighterId) -> String {
        self.state
            .fighter(id)
            .map_or_else(|| format!("fighter #{id}"), |f| f.name.clone())
    }

    /// The record made, where one is (not for a cycle ended by hand).
    fn record_id(&self) -> Option<BattleId> {
        self.record.then_some(self.battle.id)
    }

    /// The side a line takes its gain from: the rival (`from_rival`, or
    /// `from = "rival"`), or the side placed so (`from = "last"`,
    /// `"place:<n>"`), where one is alone there and is not `gang`.
    fn taken_from(&self, rule: &EpilogueRule, gang: GangId) -> Option<GangId> {
        match rule.from.as_deref() {
            _ if rule.from_rival => Some(self.rival(gang)),
            Some("rival") => Some(self.rival(gang)),
            Some(from) => match crate::rules::PlacedSide::parse(from).map(|p| self.placed(p)) {
                Some(sides) if sides.len() == 1 && sides[0] != gang => Some(sides[0]),
                _ => None,
            },
            None => None,
        }
    }

    /// Whether a line takes its gain from another side.
    fn takes_from_a_side(rule: &EpilogueRule) -> bool {
        rule.from_rival || rule.from.is_some()
    }

    /// The side a fighter's fall goes to: the side of the rival who took
    /// them down, or the one other side of a record of two.
    fn rival_of(&self, fighter: FighterId) -> Option<GangId> {
        let taking_part = self.battle.fighters.iter().find(|f| f.fighter == fighter);
        if let Some(by) = taking_part.and_then(|f| f.downed_by) {
            return self
                .battle
                .fighters
                .iter()
                .find(|f| f.fighter == by)
                .map(|f| f.gang)
                .or_else(|| self.state.fighter(by).map(|f| f.gang));
        }
        let gang = taking_part
            .map(|f| f.gang)
            .or_else(|| self.state.fighter(fighter).map(|f| f.gang))?;
        let others: Vec<GangId> = self
            .battle
            .gangs
            .iter()
            .map(|g| g.gang)
            .filter(|g| *g != gang)
            .collect();
        match others.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// Every other side of the record.
    fn rivals(&self, gang: GangId) -> Vec<GangId> {
        self.battle
            .gangs
            .iter()
            .map(|g| g.gang)
            .filter(|g| *g != gang)
            .collect()
    }

    fn rival(&self, gang: GangId) -> GangId {
        self.battle
            .gangs
            .iter()
            .map(|g| g.gang)
            .find(|g| *g != gang)
            .unwrap_or(gang)
    }

    fn amount_of(&self, gang: GangId, resource: &str) -> i64 {
        let start = self.pack.resource(resource).map_or(0, |r| r.start);
        self.resources
            .get(&gang)
            .and_then(|r| r.get(resource))
            .copied()
            .unwrap_or(start)
    }

    /// Changes a resource, held at its floor; returns the change made.
    ///
    /// The sum is checked: a gang whose resource would pass the safety
    /// bound (or `i64` itself) refuses the whole report, naming the gang,
    /// rather than wrapping round to the floor. The floor is a clamp by
    /// rule (ruling resource-floor), so a loss simply stops there.
    fn adjust(
        &mut self,
        gang: GangId,
        resource: &str,
        delta: i64,
        reason: &str,
    ) -> Result<i64, ReportError> {
        let from = self.amount_of(gang, resource);
        let floor = self.pack.resource(resource).and_then(|r| r.min);
        let to = from
            .checked_add(delta)
            .map(|raw| floor.map_or(raw, |min| raw.max(min.min(from))))
            .filter(|to| !crate::rules::passes_bound(from, *to));
        let Some(to) = to else {
            return Err(self.past_bound(gang, resource, from, &format!("{delta:+}"), delta));
        };
        if to != from {
            if to > from {
                // Saturating: the tally only counts advancement rolls, and
                // a tally held at the end of i64 gives as many as any.
                let gained = self.gained.entry((gang, resource.to_owned())).or_default();
                *gained = gained.saturating_add(to.saturating_sub(from));
            }
            self.resources
                .entry(gang)
                .or_default()
                .insert(resource.to_owned(), to);
            self.events.push(Event::ResourceAdjusted {
                gang,
                resource: resource.to_owned(),
                from,
                to,
                reason: reason.to_owned(),
            });
        }
        // Between the change asked for and nothing, so it cannot overflow.
        Ok(to.saturating_sub(from))
    }

    /// The refusal of a change that would take a gang's resource past the
    /// safety bound.
    /// `direction` is the change's sign: which end of the bound it crosses.
    fn past_bound(
        &self,
        gang: GangId,
        resource: &str,
        from: i64,
        change: &str,
        direction: i64,
    ) -> ReportError {
        let index = self.battle.gangs.iter().position(|g| g.gang == gang);
        ReportError {
            field: index.map_or_else(|| "gangs".to_owned(), |i| format!("gangs[{i}]")),
            reason: format!(
                "{} of {} is {from}; {change} would take it {}",
                self.pack.resource_label(resource),
                self.name(gang),
                crate::rules::bound_crossed(direction)
            ),
        }
    }

    fn line(&mut self, gang: Option<GangId>, text: String, source: &str, ruling: Option<&str>) {
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

    /// Applies a gain (or a loss), telling where the floor held it.
    fn gain(
        &mut self,
        gang: GangId,
        amount: &Amount,
        times: i64,
        taken_from: Option<GangId>,
        source: &str,
        ruling: Option<&str>,
    ) -> Result<(), ReportError> {
        let label = self.pack.resource_label(&amount.resource).to_owned();
        let Some(wanted) = amount.amount.checked_mul(times) else {
            let from = self.amount_of(gang, &amount.resource);
            let change = format!("{} × {times}", amount.amount);
            let direction = amount.amount.signum() * times.signum();
            return Err(self.past_bound(gang, &amount.resource, from, &change, direction));
        };
        let reason = match &self.battle.scenario {
            Some(scenario) => format!("{}: {source}", self.scenario_name(scenario)),
            None => source.to_owned(),
        };
        if let Some(rival) = taken_from {
            let available = self.amount_of(rival, &amount.resource).max(0);
            let taken = wanted.min(available);
            let rival_name = self.name(rival);
            if taken > 0 {
                self.adjust(rival, &amount.resource, -taken, &reason)?;
                self.adjust(gang, &amount.resource, taken, &reason)?;
            }
            let text = if taken == wanted {
                format!("takes {taken} {label} from {rival_name}")
            } else {
                format!("takes {taken} {label} from {rival_name}, all it has (of {wanted})")
            };
            // The line's own ruling says what happens when the rival has
            // less than it takes.
            let ruling = ruling.filter(|_| taken != wanted);
            self.line(Some(gang), text, source, ruling);
            return Ok(());
        }
        let made = self.adjust(gang, &amount.resource, wanted, &reason)?;
        let text = if made == wanted {
            format!("{wanted:+} {label}")
        } else {
            format!("{wanted:+} {label}, held at its floor: {made:+}")
        };
        let floor_ruling = self
            .pack
            .resource(&amount.resource)
            .and_then(|r| r.floor_ruling.clone());
        let ruling = floor_ruling.as_deref().filter(|_| made != wanted);
        self.line(Some(gang), text, source, ruling);
        Ok(())
    }

    fn scenario_name(&self, id: &str) -> String {
        self.pack
            .scenario(id)
            .map_or_else(|| id.to_owned(), |s| s.name.clone())
    }

    /// What the gangs' actions promised for this record: each is used
    /// here, marks the fighters its gang names, and holds the scenario to
    /// the stages the buyer chooses from.
    fn pending_effects(&mut self) -> Result<(), ReportError> {
        let battle = self.battle.id;
        let used: Vec<PendingEffect> = self
            .state
            .pending
            .iter()
            .filter(|e| e.used_in.is_none() && self.battle.gangs.iter().any(|g| g.gang == e.gang))
            .cloned()
            .collect();
        for effect in used {
            let def = self.pack.action(&effect.action).cloned();
            let source = def
                .as_ref()
                .map_or_else(|| effect.action_name.clone(), |a| a.source.clone());
            let text = format!(
                "{} applies to this {}: {}",
                effect.action_name,
                self.pack.record().noun,
                effect.text
            );
            self.line(Some(effect.gang), text, &source, None);
            let fighters = match def.as_ref().and_then(|d| d.marks.clone()) {
                Some(marks) => self.marked(&effect, &marks, &source)?,
                None => Vec::new(),
            };
            if let Some(def) = &def {
                self.stage_chosen(&effect, def)?;
            }
            self.events.push(Event::PendingEffectUsed {
                effect: effect.id,
                battle,
                fighters,
            });
        }
        Ok(())
    }

    /// The fighters a gang marks for an action: the report's list, checked;
    /// the players are asked for the rest.
    fn marked(
        &mut self,
        effect: &PendingEffect,
        marks: &crate::rules::ActionMarks,
        source: &str,
    ) -> Result<Vec<FighterId>, ReportError> {
        let gang_name = self.name(effect.gang);
        let taking_part: Vec<(FighterId, String)> = self
            .battle
            .fighters
            .iter()
            .filter(|f| f.gang == effect.gang)
            .map(|f| (f.fighter, self.fighter_name(f.fighter)))
            .collect();
        let wanted = marks.fighters.min(taking_part.len());
        let entry = self.report.marks.iter().enumerate().find(|(_, m)| {
            crate::text::same(&m.gang, &gang_name)
                && (crate::text::same(&m.action, &effect.action)
                    || crate::text::same(&m.action, &effect.action_name))
        });
        let mut chosen: Vec<(FighterId, String)> = Vec::new();
        if let Some((i, mark)) = entry {
            for (j, name) in mark.fighters.iter().enumerate() {
                let field = format!("marks[{i}].fighters[{j}]");
                let Some(found) = taking_part.iter().find(|(_, n)| crate::text::same(n, name))
                else {
                    return refuse(
                        field,
                        format!(
                            "“{name}” is not a {} of {gang_name} in this {}",
                            self.pack.words.fighter,
                            self.pack.record().noun
                        ),
                    );
                };
                if chosen.iter().any(|(id, _)| *id == found.0) {
                    return refuse(field, format!("{} is marked twice", found.1));
                }
                chosen.push(found.clone());
            }
            if chosen.len() > wanted {
                return refuse(
                    format!("marks[{i}].fighters"),
                    format!(
                        "{} marks {wanted} {}, not {}",
                        effect.action_name,
                        self.pack.words.fighters,
                        chosen.len()
                    ),
                );
            }
        }
        if chosen.len() < wanted {
            self.needed.push(NeededChoice {
                field: "marks".into(),
                gang: gang_name,
                rule: effect.action.clone(),
                text: format!(
                    "{}: mark {wanted} ({} so far): {}",
                    effect.action_name,
                    chosen.len(),
                    marks.mark
                ),
                options: taking_part
                    .iter()
                    .filter(|(id, _)| !chosen.iter().any(|(c, _)| c == id))
                    .map(|(_, n)| n.clone())
                    .collect(),
            });
        } else if !chosen.is_empty() {
            let names: Vec<&str> = chosen.iter().map(|(_, n)| n.as_str()).collect();
            let text = format!(
                "{}: {} ({})",
                names.join(", "),
                marks.mark,
                effect.action_name
            );
            self.line(Some(effect.gang), text, source, None);
        }
        Ok(chosen.into_iter().map(|(id, _)| id).collect())
    }

    /// An action that lets its buyer choose the scenario holds the record
    /// to the stages it names.
    fn stage_chosen(
        &mut self,
        effect: &PendingEffect,
        def: &crate::rules::ActionDef,
    ) -> Result<(), ReportError> {
        if def.scenario_stages.is_empty() {
            return Ok(());
        }
        let Some(scenario) = self
            .battle
            .scenario
            .as_deref()
            .and_then(|s| self.pack.scenario(s))
        else {
            return Ok(());
        };
        if def.scenario_stages.contains(&scenario.stage) {
            return Ok(());
        }
        let stage_name = |id: &str| {
            self.pack
                .arc_stage(id)
                .map_or_else(|| id.to_owned(), |s| s.name.clone())
        };
        let allowed: Vec<String> = def.scenario_stages.iter().map(|s| stage_name(s)).collect();
        refuse(
            "scenario",
            format!(
                "{} took {}: the scenario is chosen from {} scenarios, and {} is {}",
                self.name(effect.gang),
                effect.action_name,
                allowed.join(", "),
                scenario.name,
                stage_name(&scenario.stage)
            ),
        )
    }
}
