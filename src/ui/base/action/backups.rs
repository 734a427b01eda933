//! What a player asks of the backups room.

use std::path::PathBuf;

use crate::session::BackupPolicy;

/// What a player asks of the Backups window.
#[derive(Debug, Clone, PartialEq)]
pub enum BackupAction {
    Open,
    Close,
    /// Makes a backup of the campaign now.
    Make,
    /// Restores a backup as a new file.
    Restore {
        backup: PathBuf,
        to: PathBuf,
    },
    /// Keeps this many backups from now on (kept as the app's setting).
    SetPolicy(BackupPolicy),
}
