//! What a player asks of the season room.

use crate::campaign::{ChallengeId, GangId};
use crate::rules::PairingMethod;

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
    /// Issues a challenge from one gang to another (by name), with the
    /// holding at stake (by name) where the game's rules name one.
    IssueChallenge {
        challenger: String,
        defender: String,
        stake: Option<String>,
    },
    /// Answers a challenge aimed at one of this laptop's gangs.
    AnswerChallenge { id: ChallengeId, accept: bool },
    /// Starts the record of an accepted challenge on the Record screen.
    RecordChallenge(ChallengeId),
    /// Starts the record of a pairing (its two gangs) on the Record
    /// screen.
    RecordPair(GangId, GangId),
    /// Makes the cycle's pairings, in one of the ways the game allows
    /// (its first where none is chosen).
    MakePairings(Option<PairingMethod>),
}
