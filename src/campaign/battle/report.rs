//! The battle report: what happened at the table, as the players tell it.
//! One format for the GUI, the CLI and the tests (`docs/battle-report.md`).
//! Data only; `resolve` checks it against the campaign and the pack.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The battle report format this build reads.
pub const REPORT_FORMAT: u32 = 1;

/// What happened in a battle, as the players tell it. The one format the
/// GUI, the CLI and the tests use; documented in `docs/battle-report.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleReport {
    #[serde(default = "default_format")]
    pub format: u32,
    /// Scenario id or name; left out where the pack has no scenarios.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The gangs (or the party) taking part: as many as the pack's
    /// `[record]` allows, two for a battle.
    pub gangs: Vec<GangReport>,
    /// The winning gang's name; `null` when every gang Ran For It, or where
    /// the pack's records have no winner or leave it open.
    #[serde(default)]
    pub winner: Option<String>,
    /// The players' picks where an epilogue line offers a choice.
    #[serde(default)]
    pub choices: Vec<ChoiceReport>,
    /// Bounties declared after the battle.
    #[serde(default)]
    pub bounties: Vec<BountyReport>,
    /// Titles chosen by a gang that qualifies for more than one.
    #[serde(default)]
    pub titles: Vec<TitleChoiceReport>,
    /// Dice rolled at the table for rolls the procedure makes, by roll name
    /// (`injury: Brick`); the app rolls the others.
    #[serde(default)]
    pub dice: Vec<EnteredDice>,
    /// Fighters nominated for an advancement roll.
    #[serde(default)]
    pub advancements: Vec<AdvancementReport>,
    /// The players' picks for the results of rolls, by roll name.
    #[serde(default)]
    pub picks: Vec<PickReport>,
    /// The fighters a gang marks for an action it took before this battle
    /// (Eat your Fill: three fighters start with a Focus Token).
    #[serde(default)]
    pub marks: Vec<MarkReport>,
    /// Results rolled during the battle on tables whose effects last (a
    /// critical hit), by total.
    #[serde(default)]
    pub table_results: Vec<TableResultReport>,
    /// The boxes of the pack's `[record] flags` the record ticks (the
    /// story concludes), by id or label.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The shape of the record (`[[record.shapes]]` id or label), where
    /// the pack has more than one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// The holding at stake (id or name), where the shape has a stake.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stake: Option<String>,
    /// The cycle the record was played in, where the pack has cycles: a
    /// record of a cycle that has ended since counts as the pack's `late`
    /// says. Left out, the cycle it is taken in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycle: Option<u32>,
    /// The accepted challenge the record plays (`[challenges]`), by its
    /// number: its shape, stake and challenger come from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<crate::campaign::ChallengeId>,
    #[serde(default)]
    pub notes: String,
}

impl BattleReport {
    /// A report of nothing: no sides, no dice, no choices (what ending a
    /// cycle by hand is worked out from when no dice are typed).
    pub fn empty() -> BattleReport {
        BattleReport {
            format: REPORT_FORMAT,
            scenario: None,
            gangs: Vec::new(),
            winner: None,
            choices: Vec::new(),
            bounties: Vec::new(),
            titles: Vec::new(),
            dice: Vec::new(),
            advancements: Vec::new(),
            picks: Vec::new(),
            marks: Vec::new(),
            table_results: Vec::new(),
            flags: Vec::new(),
            shape: None,
            stake: None,
            cycle: None,
            challenge: None,
            notes: String::new(),
        }
    }

    /// Every gang name the report mentions: the gangs taking part, the
    /// winner, and the gangs that choose, declare, advance or mark.
    pub fn gang_names(&self) -> impl Iterator<Item = &str> {
        self.gangs
            .iter()
            .map(|g| g.gang.as_str())
            .chain(self.winner.as_deref())
            .chain(self.choices.iter().map(|c| c.gang.as_str()))
            .chain(self.bounties.iter().map(|b| b.by.as_str()))
            .chain(self.titles.iter().map(|t| t.gang.as_str()))
            .chain(self.advancements.iter().map(|a| a.gang.as_str()))
            .chain(self.marks.iter().map(|m| m.gang.as_str()))
    }
}

fn default_format() -> u32 {
    REPORT_FORMAT
}

/// One gang in the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GangReport {
    pub gang: String,
    /// The scenario role (Captors, Hunters…), by id or label.
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub ran_for_it: bool,
    /// The scenario's counts for this gang (`caches`: 2).
    #[serde(default)]
    pub counts: BTreeMap<String, i64>,
    /// The fighters who took part and how each fared. Left out: every
    /// fighter of the gang took part and came through fine.
    #[serde(default)]
    pub fighters: Option<Vec<FighterReport>>,
    /// Where it finished, 1 first, in a record of a shape; sides level
    /// share a place where the shape allows draws.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<u32>,
    /// True for the challenger of a challenge (the other side defends).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub challenger: bool,
}

impl GangReport {
    /// A side named `gang` as a report starts it: no role, no counts,
    /// every fighter taking part and coming through fine; the players say
    /// how it fared.
    pub fn named(gang: impl Into<String>) -> Self {
        Self {
            gang: gang.into(),
            role: None,
            ran_for_it: false,
            counts: BTreeMap::new(),
            fighters: None,
            place: None,
            challenger: false,
        }
    }
}

/// One fighter's battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterReport {
    pub fighter: String,
    /// An outcome id of the pack (`taken_down`, `removed`). Left out: the
    /// pack's default outcome (the one with `default = true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// The rival fighter who took them down.
    #[serde(default)]
    pub downed_by: Option<String>,
    /// Changes to the fighter's counters during the game (ammo spent,
    /// stress gained), for the counters the pack's `[record]` lists.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, i64>,
    /// Changes to the fighter's counters in the order they happened (a
    /// plot point spent, then one awarded), each applied in turn within
    /// the counter's bounds: one that comes at a bound is held there, and
    /// said. A counter is changed here or in `counters`, not both.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<CounterStep>,
}

/// One change to a fighter's counter, in its turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterStep {
    /// The counter, as in `counters` (`plot-points`, `ammo:pistol`).
    pub counter: String,
    /// The change: below 0 spent or lost, above 0 gained or awarded.
    pub change: i64,
}

/// A player's pick for an epilogue line with a choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceReport {
    pub gang: String,
    /// The epilogue line's id.
    pub rule: String,
    /// A resource id or label of the line's choice, or `none` where the
    /// line is optional.
    pub pick: String,
}

/// A bounty declared after the battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BountyReport {
    /// The declaring gang.
    pub by: String,
    /// A fighter of the rival gang; `null`: the gang declares nothing,
    /// where the pack has a ruling for it.
    pub fighter: Option<String>,
}

/// A title chosen by a gang that qualifies for several.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TitleChoiceReport {
    pub gang: String,
    pub title: String,
}

/// A fighter nominated for an advancement roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdvancementReport {
    pub gang: String,
    pub fighter: String,
}

/// A player's pick for the result of a named roll (which stat, which
/// quirk, hold or another result…).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PickReport {
    pub roll: String,
    pub pick: String,
}

/// The fighters a gang marks for one of its actions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkReport {
    pub gang: String,
    /// The action, by id or name.
    pub action: String,
    pub fighters: Vec<String>,
}

/// A result a fighter got during the game on one of the tables the pack's
/// `[record]` rolls during a game: by the total rolled at the table, or
/// rolled by the app when the total is left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableResultReport {
    pub fighter: String,
    pub table: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
}

/// Dice a player rolled at the table for a named roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnteredDice {
    pub roll: String,
    pub faces: Vec<u32>,
}

/// A report refused: the exact field and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct ReportError {
    pub field: String,
    pub reason: String,
}

pub(super) fn refuse<T>(
    field: impl Into<String>,
    reason: impl Into<String>,
) -> Result<T, ReportError> {
    Err(ReportError {
        field: field.into(),
        reason: reason.into(),
    })
}
