//! What a player asks of the league room.

use std::path::PathBuf;

use crate::campaign::merge::Choice;

/// What a player asks of the League window.
#[derive(Debug, Clone, PartialEq)]
pub enum LeagueAction {
    Open,
    Close,
    /// Syncs with the league's server, conflicts settled as chosen.
    Sync(Vec<Option<Choice>>),
    /// Cancels the sync under way: it ends at once, nothing changed.
    CancelSync,
    /// Asks the server for the members and their gangs.
    Members,
    /// Joins a league with an invite, into a new campaign file, and opens it.
    Join {
        invite: PathBuf,
        to: PathBuf,
    },
}
