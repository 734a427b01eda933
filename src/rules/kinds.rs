//! The shapes long campaign games are built on, as pack kinds: a gang's
//! rating, and the numbers rules read (a rating, a resource, the members
//! on a roster) to look things up by.
//!
//! Pure data, as `model.rs`; what the procedure does with them lives in
//! `campaign`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A gang's rating (`[rating]`): a sum over the members on its roster
/// (not gone, not held by a rival) of a price each, their entries' costs,
/// and some counters times a factor.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RatingDef {
    /// What the rating is called (`Warband rating`).
    pub label: String,
    /// What each member on the roster adds.
    #[serde(default)]
    pub per_member: i64,
    /// True when each entry a member has adds its `cost`.
    #[serde(default)]
    pub entries: bool,
    /// Counters that add, each point times a factor (experience).
    #[serde(default)]
    pub counters: Vec<CounterFactor>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A counter's points, times a factor.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CounterFactor {
    pub counter: String,
    pub factor: i64,
}

/// A number about a gang a rule reads, as a pack writes it: `rating`,
/// `members` (its members on the roster), `resource:<id>`, `count:<id>`
/// (a scenario count of the record) or `found:<id>` (what a counted roll
/// of the record found).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Measure {
    Rating,
    Members,
    /// The members on the roster and with their side (not held by a
    /// rival), as the rating counts them.
    MembersWithSide,
    Resource(String),
    Count(String),
    Found(String),
}

impl Measure {
    pub fn parse(text: &str) -> Result<Measure, String> {
        match text.split_once(':') {
            None if text == "rating" => Ok(Measure::Rating),
            None if text == "members" => Ok(Measure::Members),
            None if text == "members_with_side" => Ok(Measure::MembersWithSide),
            Some(("resource", id)) => Ok(Measure::Resource(id.to_owned())),
            Some(("count", id)) => Ok(Measure::Count(id.to_owned())),
            Some(("found", id)) => Ok(Measure::Found(id.to_owned())),
            _ => Err(format!(
                "`{text}`: expected rating, members, members_with_side, resource:<id>, count:<id> or found:<id>"
            )),
        }
    }
}

/// Which members a rule is for, as a pack writes it (`who`): `leader`,
/// `not_leader`, `entry:<id>` (members with that entry), `group` (members
/// of any group), `group:<id>` (of groups of that kind) or `single` (in
/// no group). Left out, every member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Members {
    Leader,
    NotLeader,
    Entry(String),
    AnyGroup,
    Group(String),
    Single,
}

/// What a rule asks of a member to tell whether it is for them.
pub struct Member<'a> {
    pub leader: bool,
    /// The kind of group they are in, if any.
    pub group: Option<&'a str>,
    pub has: &'a dyn Fn(&str) -> bool,
}

impl Members {
    pub fn parse(text: &str) -> Result<Members, String> {
        match text.split_once(':') {
            None if text == "leader" => Ok(Members::Leader),
            None if text == "not_leader" => Ok(Members::NotLeader),
            None if text == "group" => Ok(Members::AnyGroup),
            None if text == "single" => Ok(Members::Single),
            Some(("entry", id)) => Ok(Members::Entry(id.to_owned())),
            Some(("group", id)) => Ok(Members::Group(id.to_owned())),
            _ => Err(format!(
                "`{text}`: expected leader, not_leader, entry:<id>, group, group:<id> or single"
            )),
        }
    }

    /// Whether a member is one.
    pub fn include(&self, member: &Member<'_>) -> bool {
        match self {
            Members::Leader => member.leader,
            Members::NotLeader => !member.leader,
            Members::Entry(id) => (member.has)(id),
            Members::AnyGroup => member.group.is_some(),
            Members::Group(id) => member.group == Some(id.as_str()),
            Members::Single => member.group.is_none(),
        }
    }
}

/// Whether a member is one `who` names (every member where it is left out
/// or does not read).
pub fn is_one_of(who: Option<&str>, member: &Member<'_>) -> bool {
    who.is_none_or(|w| Members::parse(w).is_ok_and(|m| m.include(member)))
}

/// Points of a counter a record gives members for what they did
/// (`[[record.awards]]`): they count toward the counter's thresholds in
/// the same record.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AwardDef {
    /// Unique among the record's awards.
    pub id: String,
    /// The line as printed.
    pub text: String,
    pub counter: String,
    /// Points for each member it is for (for each take-down, with
    /// `kills`).
    pub amount: i64,
    /// For what: `took_part`, `standing` (took part and was not taken
    /// down), `outcome:<id>` (several ids separated by commas),
    /// `winners_leader` (the winning side's leader, if they took part),
    /// `kills` (each rival they took down, as the report tells it) or
    /// `side` (every member with their side, taking part or not).
    pub to: String,
    /// Only for these members (see [`Members`]).
    #[serde(default)]
    pub who: Option<String>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// What an award is for, parsed from its `to`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AwardFor {
    TookPart,
    /// Every member on the side's roster and with their side, whether or
    /// not they took part.
    Side,
    Standing,
    Outcome(Vec<String>),
    WinnersLeader,
    Kills,
}

impl AwardDef {
    pub fn for_what(&self) -> Result<AwardFor, String> {
        AwardFor::parse(&self.to)
    }
}

impl AwardFor {
    /// What an award (or a counted roll's `per`) is for, as written.
    pub fn parse(to: &str) -> Result<AwardFor, String> {
        match to {
            "took_part" => Ok(AwardFor::TookPart),
            "standing" => Ok(AwardFor::Standing),
            "winners_leader" => Ok(AwardFor::WinnersLeader),
            "kills" => Ok(AwardFor::Kills),
            "side" => Ok(AwardFor::Side),
            other => match super::outcome_count(other) {
                Some(ids) => Ok(AwardFor::Outcome(
                    ids.into_iter().map(str::to_owned).collect(),
                )),
                None => Err(format!(
                    "`to = \"{other}\"`: expected took_part, standing, outcome:<id>, winners_leader, kills or side"
                )),
            },
        }
    }
}

/// Points of a counter at which a member rolls on a table (or picks a row
/// of it): each one reached or passed in a record gives one.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// The members these are for (see [`Members`]); the first list of a
    /// counter whose `who` takes a member is theirs.
    #[serde(default)]
    pub who: Option<String>,
    /// The points, rising.
    pub at: Vec<i64>,
    /// The table rolled on (or picked from).
    pub table: String,
    /// True when the member's side picks a row instead of rolling.
    #[serde(default)]
    pub pick: bool,
    #[serde(default)]
    pub source: String,
}

/// A reward by the difference between the sides, measured before the
/// record (`[[record.differences]]`): the side that is lower (or higher)
/// gains what the row its difference lands on gives — points of a
/// counter to its members, or a resource.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DifferenceDef {
    /// Unique among the record's differences.
    pub id: String,
    /// The line as printed.
    pub text: String,
    /// What is compared: `rating` or `resource:<id>`.
    pub measure: String,
    /// The side that gains: `lower` (the difference to the highest side)
    /// or `higher` (the difference to the lowest).
    pub side: DifferenceSide,
    /// Only when that side won.
    #[serde(default)]
    pub winner_only: bool,
    /// Among more than two sides, the side the difference is measured
    /// to: the `farthest` (the highest, for the lower side) or the
    /// `nearest` beyond it.
    #[serde(default)]
    pub against: Option<super::Against>,
    /// Points of this counter for each of the side's members `to` takes…
    #[serde(default)]
    pub counter: Option<String>,
    /// …as an award's `to` says (`standing`, `took_part`…)…
    #[serde(default)]
    pub to: Option<String>,
    #[serde(default)]
    pub who: Option<String>,
    /// …or this resource, to the side.
    #[serde(default)]
    pub resource: Option<String>,
    /// The differences (`0-49`, `50-74`, `300+`) and what each gives.
    pub rows: Vec<DifferenceRow>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Which side a difference rewards.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DifferenceSide {
    Lower,
    Higher,
}

/// A range of differences and what it gives.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct DifferenceRow {
    /// The differences it covers: `4`, `2-5`, `6+`.
    pub on: String,
    pub amount: i64,
}

impl DifferenceDef {
    /// The row a difference lands on.
    pub fn row(&self, difference: i64) -> Option<&DifferenceRow> {
        self.rows
            .iter()
            .find(|r| super::RowRange::covers(&r.on, difference))
    }
}

/// A roll scored by counting (`[[record.counted]]`): dice for each member
/// of a side (or for each of a count of the report), rolled together and
/// scored by how many fall in a range and by sets of equal faces.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CountedRollDef {
    /// Unique among the record's counted rolls; `found:<id>` reads what
    /// it found.
    pub id: String,
    /// What the roll is called (`Exploration`).
    pub label: String,
    /// The dice for each member or each one counted (`d6`, `2d6`).
    pub dice: String,
    /// For whom dice are rolled: as an award's `to` (`took_part`,
    /// `standing`, `outcome:<id>`), one lot per member; or
    /// `count:<id>`, one lot per one of the side's scenario count.
    pub per: String,
    /// Only for these members (see [`Members`]).
    #[serde(default)]
    pub who: Option<String>,
    /// Each die whose value is in a range scores.
    #[serde(default)]
    pub faces: Vec<FaceScore>,
    /// Each set of equal faces scores.
    #[serde(default)]
    pub sets: Vec<SetScore>,
    /// True when a set counts as each smaller set too (a triple is also
    /// a double); left out, as the largest only.
    #[serde(default)]
    pub sets_nest: bool,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// What each die in a range scores.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FaceScore {
    /// What a die of it is called (`Shard`).
    pub name: String,
    /// The values it covers: `6`, `5-6`, `5+`.
    pub on: String,
    /// What it adds to what the roll found.
    #[serde(default)]
    pub found: i64,
    /// What it gives the side.
    #[serde(default)]
    pub gain: Vec<super::Amount>,
}

/// What each set of equal faces scores.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SetScore {
    /// What the set is called (`Doubles`).
    pub name: String,
    /// How many equal faces: 2 for a double.
    pub of: usize,
    #[serde(default)]
    pub found: i64,
    #[serde(default)]
    pub gain: Vec<super::Amount>,
}

/// A table looked up by two numbers (`[[grids]]`): rows by one, columns
/// by the other, each cell an amount.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GridDef {
    pub id: String,
    pub name: String,
    /// The number its rows are read by (see [`Measure`]).
    pub rows_by: String,
    /// The number its columns are read by.
    pub columns_by: String,
    /// The columns' ranges, in order (`1-3`, `4-6`, `7+`).
    pub columns: Vec<String>,
    pub rows: Vec<GridRow>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A row of a grid: its range, and a cell for each column.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GridRow {
    pub on: String,
    pub values: Vec<i64>,
}

impl GridDef {
    /// The cell two numbers land on, with its row's and column's ranges.
    pub fn cell(&self, row: i64, column: i64) -> Option<(i64, &str, &str)> {
        let lands = super::RowRange::covers;
        let c = self.columns.iter().position(|on| lands(on, column))?;
        let r = self.rows.iter().find(|r| lands(&r.on, row))?;
        Some((*r.values.get(c)?, r.on.as_str(), self.columns[c].as_str()))
    }
}

/// A grid looked up for each side after a record (`[[record.lookups]]`):
/// the cell gives the side that much of a resource.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LookupDef {
    pub id: String,
    /// The line as printed.
    pub text: String,
    pub grid: String,
    pub resource: String,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// What captives cost, and what may be done with one (`[captives]`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CaptiveRules {
    /// The resource a ransom is paid in and a sale gives.
    pub resource: String,
    /// What ransoming a captive back costs; left out, what the two sides
    /// agree.
    #[serde(default)]
    pub ransom: Option<Price>,
    /// What selling a captive gives its captors; left out, a captive is
    /// not sold.
    #[serde(default)]
    pub sell: Option<Sale>,
    /// What may be done with a captive (`ransom`, `release`, `sell`); left
    /// out, each the pack prices, and release.
    #[serde(default)]
    pub may: Vec<CaptiveAction>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Something done with a captive.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CaptiveAction {
    /// Their own side pays to have them back.
    Ransom,
    /// The captors free them for nothing.
    Release,
    /// The captors sell them: they leave their side for good.
    Sell,
}

impl CaptiveAction {
    pub fn word(self) -> &'static str {
        match self {
            CaptiveAction::Ransom => "ransom",
            CaptiveAction::Release => "release",
            CaptiveAction::Sell => "sell",
        }
    }
}

/// A price: a fixed amount, a range, or by the captive's worth (their
/// value where the pack prices members, else what they add to the
/// rating). One of the three.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Price {
    #[serde(default)]
    pub fixed: Option<i64>,
    /// The least and the most, both allowed.
    #[serde(default)]
    pub between: Option<[i64; 2]>,
    /// Ranges of the captive's worth, and the price of each.
    #[serde(default)]
    pub by_worth: Vec<DifferenceRow>,
    /// By what hiring them cost: the cost of their entry of a category
    /// (`entry:<category>`), or of their kind of group (`group`)…
    #[serde(default)]
    pub by_cost: Option<String>,
    /// …this share of it, in percent, rounded down (left out, all of it).
    #[serde(default)]
    pub percent: Option<i64>,
}

/// A sale: its price and what the captive becomes.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Sale {
    #[serde(flatten)]
    pub price: Price,
    /// What a sold captive is, as their side's roster says it (`sold to
    /// the mines`).
    pub status: String,
}

/// What hiring a member cost, as a price by it reads (`by_cost`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ByCost {
    /// The cost of their entry of this category.
    Entry(String),
    /// The cost of their kind of group.
    Group,
}

impl ByCost {
    pub fn parse(text: &str) -> Result<ByCost, String> {
        match text.split_once(':') {
            None if text == "group" => Ok(ByCost::Group),
            Some(("entry", category)) => Ok(ByCost::Entry(category.to_owned())),
            _ => Err(format!("`{text}`: expected entry:<category> or group")),
        }
    }
}

impl Price {
    /// The number the price reads a captive by: their worth, or, with
    /// `by_cost`, its share of what hiring them cost (`cost` says it).
    pub fn basis(&self, worth: i64, cost: impl Fn(&ByCost) -> i64) -> i64 {
        match self.by_cost.as_deref().map(ByCost::parse) {
            Some(Ok(by)) => {
                let share = cost(&by).saturating_mul(self.percent.unwrap_or(100));
                super::Rounding::Down.divide(share, 100)
            }
            _ => worth,
        }
    }

    /// The one amount it allows for a captive of this worth (its basis,
    /// see [`Price::basis`]), if it is not a range.
    pub fn amount(&self, worth: i64) -> Option<i64> {
        if let Some(fixed) = self.fixed {
            return Some(fixed);
        }
        if self.by_cost.is_some() && self.by_worth.is_empty() {
            return Some(worth);
        }
        self.by_worth
            .iter()
            .find(|r| super::RowRange::covers(&r.on, worth))
            .map(|r| r.amount)
    }

    /// The price in words for a captive of this worth: `50`, `20 to
    /// 100`, `30 (worth 45)`.
    pub fn said(&self, worth: i64) -> String {
        match (self.between, self.by_worth.is_empty()) {
            (Some([low, high]), _) => format!("{low} to {high}"),
            (None, false) => match self.amount(worth) {
                Some(n) => format!("{n} (worth {worth})"),
                None => format!("none for a worth of {worth}"),
            },
            _ => self
                .amount(worth)
                .map_or_else(String::new, |n| n.to_string()),
        }
    }

    /// Whether an amount is the price of a captive of this worth.
    pub fn allows(&self, amount: i64, worth: i64) -> bool {
        match self.between {
            Some([low, high]) => (low..=high).contains(&amount),
            None => self.amount(worth) == Some(amount),
        }
    }
}

impl CaptiveRules {
    /// Whether the pack lets this be done with a captive.
    pub fn may(&self, action: CaptiveAction) -> bool {
        if !self.may.is_empty() {
            return self.may.contains(&action);
        }
        match action {
            CaptiveAction::Release => true,
            CaptiveAction::Ransom => true,
            CaptiveAction::Sell => self.sell.is_some(),
        }
    }
}

/// Who leads when a leader leaves (`[succession]`): the member with the
/// most of a counter or the highest of a stat, ties broken as it says.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SuccessionRule {
    /// What ranks the members: `counter:<id>` (the most) or `stat:<id>`
    /// (the highest, as the member has it now).
    pub by: String,
    /// How a tie is broken, in order: another `counter:<id>` or
    /// `stat:<id>`, then `first` (the longest in the side) or `pick`
    /// (the side picks). Left out, the side picks.
    #[serde(default)]
    pub ties: Vec<String>,
    /// Only these members may lead (see [`Members`]).
    #[serde(default)]
    pub who: Option<String>,
    /// When a leader leaves: `gone` (dead or gone for good), `captured`
    /// (held by a rival after a record), `dismissed`. Left out, all three.
    #[serde(default)]
    pub when: Vec<LeaderLeaves>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// How a leader leaves their side.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum LeaderLeaves {
    Gone,
    Captured,
    Dismissed,
}

impl SuccessionRule {
    pub fn applies_when(&self, leaves: LeaderLeaves) -> bool {
        self.when.is_empty() || self.when.contains(&leaves)
    }
}

/// What ranks members for succession, as written (`counter:<id>`,
/// `stat:<id>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rank {
    Counter(String),
    Stat(String),
}

impl Rank {
    pub fn parse(text: &str) -> Result<Rank, String> {
        match text.split_once(':') {
            Some(("counter", id)) => Ok(Rank::Counter(id.to_owned())),
            Some(("stat", id)) => Ok(Rank::Stat(id.to_owned())),
            _ => Err(format!("`{text}`: expected counter:<id> or stat:<id>")),
        }
    }
}

/// A kind of member recruited in named groups that share one profile
/// (`[[groups]]`): one set of stats, entries and counters, shown by every
/// member; what the group gains or advances, every member does. Members
/// are still out of action, dead or captured one by one.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GroupDef {
    pub id: String,
    /// What a group of this kind is called (`Henchmen`).
    pub label: String,
    /// How many members one group has: a number or a range.
    pub size: super::CountRange,
    /// How many groups of this kind a side may have, if it is held.
    #[serde(default)]
    pub per_gang: Option<super::CountRange>,
    /// What each member adds to the rating, besides `[rating] per_member`.
    #[serde(default)]
    pub cost: i64,
    #[serde(default)]
    pub source: String,
}
