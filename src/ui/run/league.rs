//! The League window: syncing with the league's server, its members, and
//! joining a league with an invite.

use std::path::{Path, PathBuf};

use crate::campaign::merge::Choice;
use crate::session::Session;
use crate::ui::app::RapsheetApp;

/// What a player asks of the League window.
#[derive(Debug, Clone, PartialEq)]
pub enum LeagueAction {
    Open,
    Close,
    /// Syncs with the league's server, conflicts settled as chosen.
    Sync(Vec<Option<Choice>>),
    /// Asks the server for the members and their gangs.
    Members,
    /// Joins a league with an invite, into a new campaign file, and opens it.
    Join {
        invite: PathBuf,
        to: PathBuf,
    },
}

impl RapsheetApp {
    pub(super) fn run_league(&mut self, action: LeagueAction) {
        match action {
            LeagueAction::Open => self.open_league(),
            LeagueAction::Close => self.campaign.league_window = None,
            LeagueAction::Sync(choices) => self.league_sync(&choices),
            LeagueAction::Members => self.league_members(),
            LeagueAction::Join { invite, to } => self.league_join(&invite, &to),
        }
    }

    /// Opens the League window, asking the server what waits there.
    fn open_league(&mut self) {
        self.campaign.league_window = Some(crate::ui::league_view::LeagueWindow {
            join_path: self.offered_output("league", crate::session::EXTENSION),
            ..Default::default()
        });
        if let Some(session) = &self.session
            && let Ok(status) = session.league_status(true)
        {
            self.league_offline = status.offline.clone();
            self.league_status = Some(status);
        }
    }

    /// Syncs with the league's server and shows what came of it.
    fn league_sync(&mut self, choices: &[Option<Choice>]) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        match session.league_sync(choices, None) {
            Ok(outcome) => {
                use crate::session::league::SyncOutcome;
                self.league_offline = match &outcome {
                    SyncOutcome::Offline { reason } => Some(reason.clone()),
                    _ => None,
                };
                let said = match &outcome {
                    SyncOutcome::Conflicts { .. } => {
                        format!("{} in File ▸ League…", outcome.headline())
                    }
                    _ => outcome.headline(),
                };
                let refused = matches!(outcome, SyncOutcome::Refused { .. });
                let synced = matches!(outcome, SyncOutcome::Synced { .. });
                self.campaign
                    .league_window
                    .get_or_insert_with(Default::default)
                    .show(outcome);
                if refused {
                    self.error(anyhow::anyhow!(said));
                } else {
                    self.info(said);
                }
                self.state.forget();
                self.refresh();
                if let Some(session) = &self.session {
                    self.league_status = session.league_status(false).ok();
                }
                // A sync that went through fetched all there was.
                if synced && let Some(status) = &mut self.league_status {
                    status.to_fetch = Some(0);
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// The league's members, shown in the League window.
    fn league_members(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        match session.league_members() {
            Ok(members) => {
                self.campaign
                    .league_window
                    .get_or_insert_with(Default::default)
                    .members = Some(members);
            }
            Err(err) => self.error(err),
        }
    }

    /// Joins a league with an invite into a new campaign file, and opens it.
    fn league_join(&mut self, invite: &Path, to: &Path) {
        let joined = crate::session::league::read_invite(invite)
            .and_then(|invite| Session::league_join(&invite, to));
        match joined {
            Ok(session) => {
                self.set_session(session);
                self.info(format!("Joined the league: {}", to.display()));
            }
            Err(err) => {
                let said = format!("Not joined: {}", crate::ui::said::for_players(&err));
                match self.campaign.league_window.as_mut() {
                    Some(window) => window.join_error = Some(said),
                    None => self.error(err),
                }
            }
        }
    }
}
