//! A gang's rating, as the pack's `[rating]` sums it: over the members on
//! its roster (not gone, not held by a rival), a price each, the cost of
//! each entry they have (where the pack counts entries), and each point of
//! some counters times a factor.
//!
//! Pure: no I/O.

use serde::Serialize;

use super::model::Fighter;
use crate::rules::{Pack, RatingDef};

/// A gang's rating in the pack's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rating {
    /// What it is called (`Warband rating`).
    pub label: String,
    pub value: i64,
}

/// The gang's rating, where the pack has one: `fighters` are the gang's
/// (those the rating does not count are passed over).
pub fn gang_rating<'a>(
    pack: &Pack,
    fighters: impl IntoIterator<Item = &'a Fighter>,
) -> Option<Rating> {
    let def = pack.rating.as_ref()?;
    let value = fighters
        .into_iter()
        .filter(|f| f.status.with_side())
        .fold(0i64, |sum, f| {
            sum.saturating_add(member_rating(pack, def, f))
        });
    Some(Rating {
        label: def.label.clone(),
        value,
    })
}

/// What one member adds to the rating.
fn member_rating(pack: &Pack, def: &RatingDef, fighter: &Fighter) -> i64 {
    let group = fighter
        .group
        .as_ref()
        .and_then(|g| pack.groups.iter().find(|d| d.id == g.kind))
        .map_or(0, |d| d.cost);
    let mut sum = def.per_member.saturating_add(group);
    if def.entries {
        let included = super::valuation::included(pack, fighter);
        for pick in &fighter.quirks {
            if let Some(quirk) = pack.quirk(&pick.quirk)
                && !included.contains(quirk.id.as_str())
            {
                sum = sum.saturating_add(quirk.cost.unwrap_or(0));
            }
        }
    }
    for counter in &def.counters {
        let points = fighter
            .counter_or_start(pack, &counter.counter)
            .unwrap_or(0);
        sum = sum.saturating_add(points.saturating_mul(counter.factor));
    }
    sum
}

/// What hiring a member cost, as a price by cost reads it: the cost of
/// their entry of a category, or of their kind of group.
pub fn hiring_cost(pack: &Pack, fighter: &Fighter, by: &crate::rules::ByCost) -> i64 {
    match by {
        crate::rules::ByCost::Entry(category) => fighter
            .quirks
            .iter()
            .filter_map(|q| pack.quirk(&q.quirk))
            .find(|q| q.category == *category)
            .and_then(|q| q.cost)
            .unwrap_or(0),
        crate::rules::ByCost::Group => fighter
            .group
            .as_ref()
            .and_then(|g| pack.groups.iter().find(|d| d.id == g.kind))
            .map_or(0, |d| d.cost),
    }
}

/// What a member is worth, for a captive's price by worth: their value
/// where the pack prices members, else what they add to the rating.
pub fn worth(pack: &Pack, fighter: &Fighter, lasting: &[super::LastingEffect]) -> i64 {
    if let Some(value) = super::valuation::fighter_value(pack, fighter, lasting) {
        return value.value;
    }
    pack.rating
        .as_ref()
        .map_or(0, |def| member_rating(pack, def, fighter))
}
