//! Domain types: ids, gangs, fighters.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta] $name:ident),*) => {$(
        #[$doc]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

id_type!(
    /// A gang's id in a campaign file.
    GangId,
    /// A fighter's id in a campaign file.
    FighterId,
    /// One user action's group of events in the log.
    BatchId,
    /// A battle in a campaign file.
    BattleId,
    /// A lasting effect on a fighter (an injury, an advancement).
    EffectId,
    /// An effect a resource action promised for a gang's next battle.
    PendingId,
    /// A challenge one gang issued another (`[challenges]`).
    ChallengeId
);

/// A quirk a fighter has, with the alternative name the player chose for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuirkPick {
    /// The quirk's id in the gang's pack.
    pub quirk: String,
    /// One of the quirk's d6 alternative names, or a name of the player's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alt_name: Option<String>,
    /// The other quirk (id) the player selected for this one, where the
    /// pack's quirk asks for a selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
}

impl QuirkPick {
    pub fn new(quirk: impl Into<String>) -> Self {
        Self {
            quirk: quirk.into(),
            alt_name: None,
            with: None,
        }
    }
}

/// A gang as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gang {
    pub id: GangId,
    pub name: String,
    /// The id of the ruleset pack the gang is built with.
    pub ruleset: String,
    /// Resource id → amount.
    pub resources: BTreeMap<String, i64>,
    pub notes: String,
    /// Its faction (the pack's `[[factions]]` id), where the game has
    /// factions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
}

/// A fighter as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub id: FighterId,
    pub gang: GangId,
    pub name: String,
    pub leader: bool,
    pub quirks: Vec<QuirkPick>,
    /// Counter id → value (Bounty).
    pub counters: BTreeMap<String, i64>,
    pub notes: String,
    /// Stat id → this fighter's own base value, where it differs from the
    /// pack's default (a Wayfarer unit's dice).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub base: BTreeMap<String, i64>,
    #[serde(default)]
    pub status: FighterStatus,
    /// The group they are a member of, where the pack recruits members
    /// in groups that share one profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<MemberGroup>,
}

/// A member's group: its kind (the pack's `[[groups]]` id) and its name
/// in the gang.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MemberGroup {
    pub kind: String,
    pub name: String,
}

/// Where a fighter stands in the campaign.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum FighterStatus {
    #[default]
    Active,
    /// Wounded in a battle: misses the gang's next battle after it.
    Wounded { battle: BattleId },
    /// Laid up by a record: misses every record `until` the cycle ends.
    LaidUp {
        battle: BattleId,
        until: crate::rules::Until,
    },
    /// Held by a rival gang since a battle.
    Captured { by: GangId, battle: BattleId },
    /// Left the gang for good (`dead`, `deserted`).
    Gone {
        status: String,
        battle: Option<BattleId>,
    },
}

impl FighterStatus {
    /// The gang this status names (the captors), if any.
    pub fn gang(&self) -> Option<GangId> {
        match self {
            FighterStatus::Captured { by, .. } => Some(*by),
            _ => None,
        }
    }

    /// True when the fighter can take part in a battle.
    pub fn can_fight(&self) -> bool {
        matches!(self, FighterStatus::Active)
    }

    /// True while the fighter belongs on the gang's roster.
    pub fn on_roster(&self) -> bool {
        !matches!(self, FighterStatus::Gone { .. })
    }

    /// True while the fighter is on the roster and with their side, not
    /// held by a rival: one a rating counts and a side may be led by.
    pub fn with_side(&self) -> bool {
        self.on_roster() && !matches!(self, FighterStatus::Captured { .. })
    }

    /// The status in a few words; `record` is what the game calls one
    /// record (`battle`).
    pub fn describe(&self, gang_name: impl Fn(GangId) -> String, record: &str) -> String {
        match self {
            FighterStatus::Active => "active".into(),
            FighterStatus::Wounded { .. } => format!("wounded: misses the next {record}"),
            FighterStatus::LaidUp { .. } => "laid up".into(),
            FighterStatus::Captured { by, .. } => format!("held by {}", gang_name(*by)),
            FighterStatus::Gone { status, .. } => status.clone(),
        }
    }
}

/// Something that stays with a fighter after a battle: a lasting injury or
/// an advancement, with the roll that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastingEffect {
    pub id: EffectId,
    pub fighter: FighterId,
    /// The table it came from (`injury`, `advancement`, `criticals-bladed`).
    pub table: String,
    /// What it is called (`Crippled`, `Bonus Melee OFF or DEF die`).
    pub name: String,
    /// What it does, in words.
    pub detail: String,
    /// Stat id → change.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, i64>,
    /// A quirk it gave the fighter, which goes when the effect goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quirk: Option<String>,
    /// A quirk it took away (a crippling), which comes back when it goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_quirk: Option<String>,
    pub battle: Option<BattleId>,
    /// The roll that made it, as stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<crate::dice::RollRecord>,
    /// Set when healed or reversed, with the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed: Option<String>,
    /// It heals by itself after this many more records of the fighter's
    /// gang (its row's healing time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heals_after: Option<u32>,
    /// The group's pack whose table gave it, for its label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_group: Option<String>,
    /// It ends by itself when the cycle ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<crate::rules::Until>,
}

impl LastingEffect {
    /// The effect in a line, its name then what it does, `sep` between;
    /// the detail once only, where the name already says it (a crippling's
    /// name is what it took: `Crippled: -1 Armor`).
    pub fn summary(&self, sep: &str) -> String {
        let detail = self.detail.trim();
        if detail.is_empty() || self.name.ends_with(detail) {
            self.name.clone()
        } else {
            format!("{}{sep}{detail}", self.name)
        }
    }

    /// The effect in a line with whose table it came from and when it
    /// heals, where that is said: `Scar: A scar (Our HWC, house rules)`.
    pub fn line(&self, noun: &str) -> String {
        match self.origin(noun) {
            Some(origin) => format!("{} ({origin})", self.summary(": ")),
            None => self.summary(": "),
        }
    }

    /// Whose table it came from where it is the group's own, and when it
    /// heals by itself: `The Night Crew's table, house rules; heals after
    /// 2 × session`. `noun` is what the game calls a record.
    pub fn origin(&self, noun: &str) -> Option<String> {
        let group = self.by_group.as_deref().map(crate::rules::house_rules_of);
        let heals = self
            .heals_after
            .map(|n| format!("heals after {n} × {noun}"));
        match (group, heals) {
            (Some(g), Some(h)) => Some(format!("{g}; {h}")),
            (g, h) => g.or(h),
        }
    }
}

impl Fighter {
    pub fn has_quirk(&self, id: &str) -> bool {
        self.quirks.iter().any(|q| q.quirk == id)
    }

    /// The fighter's points of a counter: their own, or the counter's
    /// start where they have none recorded (`None` while the group has
    /// not filled it in).
    pub fn counter_or_start(&self, pack: &crate::rules::Pack, id: &str) -> Option<i64> {
        self.counters
            .get(id)
            .copied()
            .or_else(|| pack.counter(id).and_then(crate::rules::CounterDef::start))
    }

    /// Whether a pack's `who` takes this member.
    pub fn is_one_of(&self, who: Option<&str>) -> bool {
        let has = |q: &str| self.has_quirk(q);
        crate::rules::is_one_of(
            who,
            &crate::rules::Member {
                leader: self.leader,
                group: self.group.as_ref().map(|g| g.kind.as_str()),
                has: &has,
            },
        )
    }
}

/// The campaign's own settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignInfo {
    pub name: String,
    /// The pack a new gang uses unless told otherwise.
    pub default_ruleset: String,
}

/// What a resource action promised for the gang's next battle, kept until
/// that battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingEffect {
    pub id: PendingId,
    pub gang: GangId,
    /// The action's id in the pack.
    pub action: String,
    pub action_name: String,
    pub text: String,
    /// The battle it was used in, once used.
    pub used_in: Option<BattleId>,
}

/// One batch of a campaign's log as it travels: id, time, label, the
/// batch it takes back, and its events in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedBatch {
    pub id: BatchId,
    pub at: String,
    pub label: String,
    pub undoes: Option<BatchId>,
    pub events: Vec<super::Event>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect(name: &str, detail: &str) -> LastingEffect {
        LastingEffect {
            id: EffectId(1),
            fighter: FighterId(1),
            table: "injury".into(),
            name: name.into(),
            detail: detail.into(),
            stats: BTreeMap::new(),
            quirk: None,
            lost_quirk: None,
            battle: None,
            roll: None,
            removed: None,
            heals_after: None,
            by_group: None,
            until: None,
        }
    }

    #[test]
    fn a_lasting_effect_says_its_detail_once() {
        assert_eq!(
            effect("Crippled: -1 Armor", "-1 Armor").summary(": "),
            "Crippled: -1 Armor"
        );
        assert_eq!(
            effect("Crippled: loses Headshot", "loses Headshot").summary(": "),
            "Crippled: loses Headshot"
        );
        assert_eq!(effect("Wounded", "").summary(": "), "Wounded");
        assert_eq!(
            effect("Bonus Athletics die", "+1 Athletics").summary(" — "),
            "Bonus Athletics die — +1 Athletics"
        );
    }
}
