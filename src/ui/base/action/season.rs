//! What a player asks of the season room.

use crate::campaign::GangId;

/// What a player asks of the season.
#[derive(Debug, Clone, PartialEq)]
pub enum SeasonAction {
    /// Gives a holding (by id) to a gang, from whoever holds it.
    GiveHolding {
        holding: String,
        gang: GangId,
        reason: String,
    },
    /// Takes a holding (by id) from its holder: unclaimed again.
    TakeHolding { holding: String, reason: String },
    /// Shows what ending the cycle does, with the app's dice from `seed`
    /// and those typed, before it is done.
    PreviewCycleEnd,
    /// Ends the cycle as previewed.
    EndCycle,
    /// Changes a gang's faction (by name).
    SetFaction { gang: GangId, faction: String },
}
