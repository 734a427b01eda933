//! What a player asks of the merge room.

use std::path::PathBuf;

/// What a player asks of the Merge window.
#[derive(Debug, Clone, PartialEq)]
pub enum MergeAction {
    Open,
    Close,
    /// Reads another copy of the campaign and shows the merge.
    LookAt(PathBuf),
    /// Writes the merge looked at, as chosen, to a new file and opens it.
    Write(PathBuf),
}
