//! What a player asks of the output room.

use std::path::PathBuf;

use crate::campaign::GangId;
use crate::campaign::chronicle::Chronicle;
use crate::export::Format;

/// What a player asks to print or export.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputAction {
    /// Opens the print window for a gang (or every gang), cards or roster.
    OpenPrint {
        gang: Option<GangId>,
        roster: bool,
    },
    ClosePrint,
    /// Writes the print window's PDF; `replace` once the player agreed to
    /// replace a file already there.
    SavePdf {
        path: PathBuf,
        replace: bool,
    },
    /// Renders a chronicle made by the chronicle screen and writes it, in
    /// the background.
    WriteExport {
        path: PathBuf,
        replace: bool,
        format: Format,
        campaign: String,
        scope: String,
        chronicle: Box<Chronicle>,
    },
    /// Writes the season (its standings, holdings and cycles) in the
    /// background; `replace` once the player agreed to replace a file.
    WriteSeason {
        path: PathBuf,
        replace: bool,
        format: Format,
    },
    /// Closes the question whether to replace a file already there.
    CloseReplace,
    /// Opens a file with the desktop's viewer.
    OpenFile(PathBuf),
}
