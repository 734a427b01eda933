//! Domain types: ids, gangs, fighters.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta] $name:ident),*) => {$(
        #[$doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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
    /// An effect a resource action promised for a gang's next battle.
    PendingId
);

/// A quirk a fighter has, with the alternative name the player chose for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuirkPick {
    /// The quirk's id in the gang's pack.
    pub quirk: String,
    /// One of the quirk's d6 alternative names, or a name of the player's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alt_name: Option<String>,
}

impl QuirkPick {
    pub fn new(quirk: impl Into<String>) -> Self {
        Self {
            quirk: quirk.into(),
            alt_name: None,
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
}

impl Fighter {
    pub fn has_quirk(&self, id: &str) -> bool {
        self.quirks.iter().any(|q| q.quirk == id)
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
