//! The campaign room: making, opening and closing campaign files, the
//! welcome screen and its demos, and quitting.

use std::path::Path;

use crate::session::Session;
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::CampaignAction;
use crate::ui::base::action::PathPurpose;
use crate::ui::views::dialogs::NewCampaignDialog;

impl RapsheetApp {
    pub(super) fn run_campaign(&mut self, action: CampaignAction) {
        match action {
            CampaignAction::AskNew => {
                self.dialogs.new_campaign = Some(NewCampaignDialog::new(self.games()));
            }
            CampaignAction::NameNew(name, game) => {
                self.dialogs.new_campaign = None;
                self.dialogs.new_name = Some(name);
                self.dialogs.new_game = Some(game).filter(|g| !g.is_empty());
                self.ask_path(PathPurpose::New);
            }
            CampaignAction::AskPath(purpose) => self.ask_path(purpose),
            CampaignAction::UsePath(purpose, path) => self.use_path(purpose, &path),
            CampaignAction::OpenDemo(path, ruleset) => self.open_demo(&path, ruleset.as_deref()),
            CampaignAction::Close => self.close_campaign(),
            CampaignAction::LeaveWelcome => self.welcome = false,
            CampaignAction::Quit => self.quitting = true,
        }
    }

    /// Opens a demo campaign, making it first where its file is not there.
    fn open_demo(&mut self, path: &Path, ruleset: Option<&str>) {
        let opened = if path.exists() {
            self.packs().and_then(|p| Session::open_with(path, p))
        } else {
            std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
                .map_err(anyhow::Error::from)
                .and_then(|()| self.packs())
                .and_then(|p| match ruleset {
                    Some(r) => Session::create_demo_with(path, r, p),
                    None => Session::create_default_demo_with(path, p),
                })
        };
        match opened {
            Ok(session) => {
                self.set_session(session);
                self.refresh();
            }
            Err(err) => self.open_error = Some(format!("{err:#}")),
        }
    }

    /// The games a new campaign may be made with, the book's default
    /// first: every pack this build and the command line give that is a
    /// game of its own or house rules over one.
    fn games(&self) -> Vec<(String, String)> {
        let Ok(registry) = self.packs() else {
            return Vec::new();
        };
        let first = registry.book_default().map(str::to_owned);
        let mut games: Vec<(String, String)> = registry
            .packs()
            .map(crate::ui::base::widgets::pack_choice)
            .collect();
        games.sort_by_key(|(id, _)| Some(id) != first.as_ref());
        games
    }
}
