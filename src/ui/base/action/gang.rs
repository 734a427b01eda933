//! What a player asks of the gang room.

use crate::campaign::{FighterId, GangId};

/// What a player asks of a gang.
#[derive(Debug, Clone, PartialEq)]
pub enum GangAction {
    Select(GangId),
    Found {
        name: String,
        ruleset: String,
        /// Its faction, by name, where the game has factions.
        faction: Option<String>,
        /// The holding it starts with, by name, where it chose one.
        holding: Option<String>,
    },
    Rename(GangId, String),
    SetNotes(GangId, String),
    /// Opens the resource dialog with a suggested change.
    AskResource {
        gang: GangId,
        resource: String,
        delta: i64,
    },
    AdjustResource {
        gang: GangId,
        resource: String,
        delta: i64,
        reason: String,
    },
    Recruit {
        gang: GangId,
        name: String,
        /// Paid for with the pack's spending resource.
        buy: bool,
    },
    /// Opens the dialog of the gang's resource actions.
    AskAction(GangId),
    TakeAction {
        gang: GangId,
        action: String,
        target: Option<GangId>,
        choice: Option<String>,
    },
    /// Opens the ransom dialog for a captive.
    AskRansom(FighterId),
    Ransom {
        fighter: FighterId,
        resource: String,
        amount: i64,
    },
    Release(FighterId),
    /// Recruits a group of members who share one profile, whole.
    RecruitGroup {
        gang: GangId,
        kind: String,
        name: String,
        members: Vec<String>,
    },
    /// Opens the sale dialog for a captive the gang holds.
    AskSale(FighterId),
    Sell {
        fighter: FighterId,
        amount: i64,
    },
}
