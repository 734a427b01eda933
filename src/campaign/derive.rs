//! A fighter's stats worked out from the pack's base values and the
//! effects of its quirks.

use serde::Serialize;

use super::{Fighter, LastingEffect};
use crate::rules::Pack;

/// One contribution to a derived stat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatPart {
    /// Where it comes from: `base`, or a quirk's name.
    pub from: String,
    pub add: i64,
}

/// A stat as the fighter has it now, with how it was reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DerivedStat {
    pub id: String,
    pub label: String,
    pub unit: String,
    /// Names of the values from `ladder_min` up (`2d4`, `2d6`…), if any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ladder: Vec<String>,
    #[serde(skip)]
    pub ladder_min: i64,
    pub base: i64,
    pub value: i64,
    pub parts: Vec<StatPart>,
    /// Set when the sum fell outside the stat's bounds and was held to them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clamped_from: Option<i64>,
    /// Bumps on the stat's dice, each with where it comes from, in the
    /// order the fighter's entries give them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bumps: Vec<StatPart>,
    /// The fill-in ruling of a stat the text does not print and the
    /// fighter has no value of yet: shown as a dash, counted as 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unset: Option<String>,
}

impl DerivedStat {
    /// `4"`, `10`, `2d8`; with its bumps after it, `3 +2 -1`.
    pub fn display(&self) -> String {
        match self.bumps_text() {
            Some(bumps) => format!("{} {bumps}", self.value_text()),
            None => self.value_text(),
        }
    }

    /// The value alone, without its bumps; a dash for a value not set.
    pub fn value_text(&self) -> String {
        if self.unset.is_some() {
            return "—".to_owned();
        }
        self.show(self.value)
    }

    /// The bumps on its dice, `+2 -1`, if it has any.
    pub fn bumps_text(&self) -> Option<String> {
        (!self.bumps.is_empty()).then(|| {
            self.bumps
                .iter()
                .map(|b| format!("{:+}", b.add))
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    fn show(&self, value: i64) -> String {
        usize::try_from(value - self.ladder_min)
            .ok()
            .and_then(|i| self.ladder.get(i))
            .map_or_else(|| format!("{value}{}", self.unit), Clone::clone)
    }

    /// The breakdown a player reads on hover: `base 4", Heavy Armor −1"`.
    pub fn breakdown(&self) -> String {
        let mut text = format!("base {}", self.show(self.base));
        for part in self.parts.iter().skip(1) {
            text.push_str(&format!(", {} {:+}{}", part.from, part.add, self.unit));
        }
        if let Some(raw) = self.clamped_from {
            text.push_str(&format!(
                " = {raw}{}, held to {}{} by the stat's bounds",
                self.unit, self.value, self.unit
            ));
        }
        for bump in &self.bumps {
            text.push_str(&format!("; bump {:+} from {}", bump.add, bump.from));
        }
        text
    }
}

/// Every stat of the pack for this fighter, in the pack's order: the
/// fighter's base (or the pack's default), its quirks, and the lasting
/// effects still on it.
pub fn derive_stats(pack: &Pack, fighter: &Fighter, lasting: &[LastingEffect]) -> Vec<DerivedStat> {
    pack.stats
        .iter()
        .map(|stat| {
            let own = fighter.base.get(&stat.id).copied().or(stat.start());
            let unset = own.is_none().then(|| stat.fill_in.clone()).flatten();
            let base = own.unwrap_or(0);
            let mut parts = vec![StatPart {
                from: "base".into(),
                add: base,
            }];
            let mut bumps = Vec::new();
            for pick in &fighter.quirks {
                let Some(quirk) = pack.quirk(&pick.quirk) else {
                    continue;
                };
                for effect in quirk.effects.iter().filter(|e| e.stat == stat.id) {
                    let part = StatPart {
                        from: quirk.name.clone(),
                        add: effect.bump.unwrap_or(effect.add),
                    };
                    if effect.bump.is_some() {
                        bumps.push(part);
                    } else {
                        parts.push(part);
                    }
                }
            }
            for effect in lasting
                .iter()
                .filter(|e| e.fighter == fighter.id && e.removed.is_none())
            {
                if let Some(add) = effect.stats.get(&stat.id) {
                    parts.push(StatPart {
                        from: effect.name.clone(),
                        add: *add,
                    });
                }
            }
            // Saturating: the value is clamped to the stat's bounds by rule
            // anyway, and lasting effects read from a file may hold any add.
            let raw = parts.iter().fold(0i64, |sum, p| sum.saturating_add(p.add));
            let value = raw
                .max(stat.min.unwrap_or(i64::MIN))
                .min(stat.max.unwrap_or(i64::MAX));
            DerivedStat {
                id: stat.id.clone(),
                label: stat.label.clone(),
                unit: stat.unit.clone(),
                ladder: stat.ladder.clone(),
                ladder_min: stat.min.unwrap_or(0),
                base,
                value,
                parts,
                clamped_from: (value != raw).then_some(raw),
                bumps,
                unset,
            }
        })
        .collect()
}
