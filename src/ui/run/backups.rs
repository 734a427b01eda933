//! The Backups window: how many backups are kept, a backup made now, and
//! one restored as a new campaign file.

use crate::ui::app::RapsheetApp;
use crate::ui::base::action::BackupAction;

impl RapsheetApp {
    pub(super) fn run_backup(&mut self, action: BackupAction) {
        match action {
            BackupAction::Open => self.open_backups(),
            BackupAction::Close => self.campaign.backups_window = None,
            BackupAction::Make => {
                if let (Some(session), Some(folder)) = (&self.session, self.backups.clone()) {
                    match session.make_backup(&folder, self.backup_policy) {
                        Ok((made, _)) => self.info(format!("Backup made: {}", made.path.display())),
                        Err(err) => self.error(err),
                    }
                }
                self.open_backups();
            }
            BackupAction::Restore { backup, to } => {
                match crate::session::restore_backup(&backup, &to) {
                    Ok(()) => {
                        self.info(format!("Restored as {}", to.display()));
                        if let Some(window) = &mut self.campaign.backups_window {
                            window.was_restored(to);
                        }
                    }
                    Err(err) => self.error(err),
                }
            }
            BackupAction::SetPolicy(policy) => self.set_backup_policy(policy),
        }
    }

    /// Opens (or refreshes) the Backups window on the campaign's backups.
    fn open_backups(&mut self) {
        let (Some(session), Some(folder)) = (&self.session, self.backups.clone()) else {
            self.info("Backups are kept only for a campaign opened in the app on this machine");
            return;
        };
        let campaign = session.path().file_stem().map_or_else(
            || "campaign".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let restore_in = crate::paths::start_folder(Some(session.path())).unwrap_or_default();
        match session.backups(&folder) {
            Ok(list) => {
                self.campaign.backups_window = Some(crate::ui::views::backups::BackupsWindow::new(
                    folder,
                    list,
                    self.backup_policy,
                    restore_in,
                    campaign,
                ));
            }
            Err(err) => self.error(err),
        }
    }
}
