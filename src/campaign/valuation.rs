//! A fighter's value in points, and the score it gives, worked out from its
//! parts as the pack prices them ([`Valuation`]): its own base stats at a
//! price per point, and the printed cost of each entry the player picked.
//! What happens to a fighter later — lasting injuries and advancements,
//! kept apart as lasting effects — never changes it.
//!
//! Pure: no I/O.

use std::collections::BTreeMap;

use serde::Serialize;

use super::model::{Fighter, LastingEffect};
use crate::rules::{Pack, ScoreRule, Valuation};

/// One line of a value's breakdown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValuePart {
    /// What it is: a stat and its points (`MO 2`), or an entry's name.
    pub from: String,
    pub points: i64,
    /// The ruling that settles this part's printed cost, if one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<String>,
}

/// A fighter's value, how it was made, and its score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FighterValue {
    pub value: i64,
    pub parts: Vec<ValuePart>,
    /// Set when the parts add up to less than the pack's minimum, which
    /// the value is held at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raised_from: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
}

/// What a gang's fighters are worth together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GangValue {
    pub value: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    /// What the pack allows the gang's fighters to be worth, if anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
}

/// The fighter's value, where the pack prices its fighters: what it was
/// built with. `lasting` holds the effects on it (or its gang's): an entry
/// an advancement gave it adds nothing, one a crippling took away still
/// counts.
pub fn fighter_value(
    pack: &Pack,
    fighter: &Fighter,
    lasting: &[LastingEffect],
) -> Option<FighterValue> {
    let valuation = pack.valuation.as_ref()?;
    let mut parts = stat_parts(pack, valuation, fighter);
    let included = included(pack, fighter);
    for id in built_with(fighter, lasting) {
        if let Some(quirk) = pack.quirk(id)
            && let Some(cost) = quirk.cost
            && !included.contains(quirk.id.as_str())
        {
            parts.push(ValuePart {
                from: quirk.name.clone(),
                points: cost,
                ruling: quirk.cost_ruling.clone(),
            });
        }
    }
    // Each part is within the safety bound, and a fighter holds a few
    // dozen at most: the sum cannot overflow, but is saturated all the same.
    let sum = parts
        .iter()
        .fold(0i64, |total, p| total.saturating_add(p.points));
    let value = sum.max(valuation.minimum);
    Some(FighterValue {
        value,
        raised_from: (value != sum).then_some(sum),
        score: valuation.score.as_ref().map(|rule| score(rule, value)),
        parts,
    })
}

/// The entries (ids) the fighter was built with: those it has, less those
/// a lasting effect gave it, with those a lasting effect took away.
fn built_with<'a>(fighter: &'a Fighter, lasting: &'a [LastingEffect]) -> Vec<&'a str> {
    let active = lasting
        .iter()
        .filter(|e| e.fighter == fighter.id && e.removed.is_none());
    let mut gained: Vec<&str> = Vec::new();
    let mut lost: Vec<&str> = Vec::new();
    for e in active {
        gained.extend(e.quirk.as_deref());
        lost.extend(e.lost_quirk.as_deref());
    }
    let mut out: Vec<&str> = Vec::new();
    for pick in &fighter.quirks {
        match gained.iter().position(|g| *g == pick.quirk) {
            Some(i) => {
                gained.swap_remove(i);
            }
            None => out.push(&pick.quirk),
        }
    }
    out.extend(lost);
    out
}

/// The entries (ids) the fighter's entries include: their cost is in the
/// including entry's (a template's traits), so they add nothing more.
pub fn included<'a>(pack: &'a Pack, fighter: &Fighter) -> std::collections::BTreeSet<&'a str> {
    fighter
        .quirks
        .iter()
        .filter_map(|p| pack.quirk(&p.quirk))
        .flat_map(|q| q.includes.iter().map(String::as_str))
        .collect()
}

/// The fighter's own base stats, each at the pack's price per point (the
/// stats it prices, or all of them); a stat at 0 costs nothing.
fn stat_parts(pack: &Pack, valuation: &Valuation, fighter: &Fighter) -> Vec<ValuePart> {
    pack.stats
        .iter()
        .filter(|s| valuation.stats.is_empty() || valuation.stats.contains(&s.id))
        .filter_map(|stat| {
            let base = fighter
                .base
                .get(&stat.id)
                .copied()
                .or(stat.start())
                .unwrap_or(0);
            (base > 0).then(|| ValuePart {
                from: format!("{} {base}", stat.label),
                points: base.saturating_mul(valuation.per_stat_point),
                ruling: None,
            })
        })
        .collect()
}

/// The score a value gives: divided as the rule says, never below its
/// minimum.
pub fn score(rule: &ScoreRule, value: i64) -> i64 {
    rule.rounding
        .divide(value, rule.divide_by)
        .max(rule.minimum)
}

/// What the fighters are worth together: the sum of their values and of
/// their scores.
/// `resources` are the gang's, for a limit that is its budget.
pub fn gang_value<'a>(
    pack: &Pack,
    fighters: impl IntoIterator<Item = &'a Fighter>,
    lasting: &[LastingEffect],
    resources: &BTreeMap<String, i64>,
) -> Option<GangValue> {
    let valuation = pack.valuation.as_ref()?;
    let (mut value, mut score) = (0i64, valuation.score.as_ref().map(|_| 0i64));
    for fighter in fighters {
        if let Some(v) = fighter_value(pack, fighter, lasting) {
            value = value.saturating_add(v.value);
            if let (Some(total), Some(s)) = (score.as_mut(), v.score) {
                *total = total.saturating_add(s);
            }
        }
    }
    Some(GangValue {
        value,
        score,
        limit: limit(pack, valuation, resources),
    })
}

/// What a gang's fighters may be worth together: the pack's fixed limit,
/// or the amount of its budget resource the gang holds (its starting
/// amount where the gang has none recorded).
pub fn limit(pack: &Pack, valuation: &Valuation, resources: &BTreeMap<String, i64>) -> Option<i64> {
    let Some(budget) = &valuation.budget else {
        return valuation.limit;
    };
    let start = pack.resource(budget).map_or(0, |r| r.start);
    Some(resources.get(budget).copied().unwrap_or(start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rounding;

    fn rule(rounding: Rounding) -> ScoreRule {
        ScoreRule {
            label: "S".into(),
            divide_by: 50,
            rounding,
            minimum: 1,
            source: String::new(),
        }
    }

    #[test]
    fn a_score_divides_rounds_and_keeps_its_minimum() {
        let down = rule(Rounding::Down);
        assert_eq!(score(&down, 1), 1, "the minimum");
        assert_eq!(score(&down, 99), 1);
        assert_eq!(score(&down, 100), 2);
        assert_eq!(score(&down, 149), 2);
        assert_eq!(score(&down, 150), 3);
        assert_eq!(score(&rule(Rounding::Up), 101), 3);
        assert_eq!(score(&rule(Rounding::Nearest), 124), 2);
        assert_eq!(score(&rule(Rounding::Nearest), 125), 3);
    }
}
