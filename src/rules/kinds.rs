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
    Resource(String),
    Count(String),
    Found(String),
}

impl Measure {
    pub fn parse(text: &str) -> Result<Measure, String> {
        match text.split_once(':') {
            None if text == "rating" => Ok(Measure::Rating),
            None if text == "members" => Ok(Measure::Members),
            Some(("resource", id)) => Ok(Measure::Resource(id.to_owned())),
            Some(("count", id)) => Ok(Measure::Count(id.to_owned())),
            Some(("found", id)) => Ok(Measure::Found(id.to_owned())),
            _ => Err(format!(
                "`{text}`: expected rating, members, resource:<id>, count:<id> or found:<id>"
            )),
        }
    }
}
