//! The output room: the print window (cards and rosters as PDF), the
//! chronicle's export, and opening what was written.

use crate::campaign::GangId;
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::OutputAction;
use crate::ui::run::files::open_with_desktop;
use crate::ui::views::print_dialog::PrintDialog;

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
