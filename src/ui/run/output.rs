//! The output room: the print window (cards and rosters as PDF), the
//! chronicle's export, and opening what was written.

use std::path::PathBuf;

use crate::campaign::GangId;
use crate::campaign::chronicle::Chronicle;
use crate::export::Format;
use crate::ui::app::RapsheetApp;
use crate::ui::files::open_with_desktop;
use crate::ui::print_dialog::PrintDialog;

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

impl RapsheetApp {
    pub(super) fn run_output(&mut self, action: OutputAction) {
        match action {
            OutputAction::OpenPrint { gang, roster } => self.open_print(gang, roster),
            OutputAction::ClosePrint => self.dialogs.print = None,
            OutputAction::SavePdf { path, replace } => self.save_pdf(&path, replace),
            OutputAction::WriteExport {
                path,
                replace,
                format,
                campaign,
                scope,
                chronicle,
            } => self.write_export(path, replace, format, campaign, scope, chronicle),
            OutputAction::WriteSeason {
                path,
                replace,
                format,
            } => self.write_season(path, replace, format),
            OutputAction::CloseReplace => self.dialogs.replace = None,
            OutputAction::OpenFile(path) => {
                if let Err(err) = open_with_desktop(&path) {
                    self.error(err);
                }
            }
        }
    }

    /// Opens the print window on a gang (or every gang), offering the
    /// folder of the last printout and the size the gang's pack prints on.
    fn open_print(&mut self, gang: Option<GangId>, roster: bool) {
        let dir = self.output_dir();
        let name = gang
            .and_then(|g| self.state.gangs.iter().find(|x| x.id == g))
            .map_or("Campaign".to_owned(), |g| g.name.clone());
        let mut dialog = PrintDialog::new(gang, roster, dir, &name);
        if let Some(Ok(size)) = self.session.as_ref().map(|s| s.card_size(gang)) {
            dialog.request.size = size;
        }
        self.dialogs.print = Some(dialog);
    }
}
