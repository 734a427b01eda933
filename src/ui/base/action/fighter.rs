//! What a player asks of the fighter room.

use std::path::PathBuf;

use crate::campaign::{EffectId, FighterId, QuirkPick};
use crate::session::CheckRolled;

/// What a player asks of a fighter.
#[derive(Debug, Clone, PartialEq)]
pub enum FighterAction {
    Select(Option<FighterId>),
    Rename(FighterId, String),
    SetLeader(FighterId, bool),
    SetQuirks(FighterId, Vec<QuirkPick>),
    /// Gives a fighter an entry the gang buys (pays its cost).
    BuyQuirk(FighterId, QuirkPick),
    SetCounter {
        fighter: FighterId,
        counter: String,
        value: i64,
    },
    SetNotes(FighterId, String),
    /// A fighter's own base value of a stat.
    SetBaseStat {
        fighter: FighterId,
        stat: String,
        value: i64,
    },
    /// Sets (or with `None` removes) a fighter's photo from a file.
    SetPhoto(FighterId, Option<PathBuf>),
    RemoveLasting {
        effect: EffectId,
        reason: String,
    },
    Dismiss(FighterId),
    /// Rolls one of the checks a fighter's sheet offers; `option` is the
    /// way it is made (full auto), which may raise stress first.
    RollCheck {
        fighter: FighterId,
        check: String,
        option: Option<String>,
        /// The difficulty: steps along a ladder of dice for a tier check.
        modifier: i32,
    },
    /// Pushes a rolled pool: the fighter's stress rises.
    PushCheck(Box<CheckRolled>),
}
