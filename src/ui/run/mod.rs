//! The runner: what each room of the window does with what the player
//! asked for there. A view returns an [`Action`] naming its room; after the
//! frame the shell hands it here, and the room's runner turns it into
//! session commands.
//!
//! The rooms: `gang` (the gangs, their fighters' recruiting, resources,
//! captives), `fighter` (one fighter's sheet), `record` (the record
//! screen, titles and arcs), `rules` (the campaign's rules and the group's
//! own data), `output` (printing and the chronicle's export), `campaign`
//! (the campaign's files, the welcome screen, quitting), and the windows
//! `bundles`, `merge`, `league` and `backups`; and what they share: the
//! paths offered and the files written in the background (`files`), the
//! record kept as a draft while it is entered (`draft`). The history
//! (undo, redo) is here, as every room's. What each room can be asked is
//! on the ground floor (`base::action`).

mod backups;
mod bundles;
mod campaign;
mod checks;
pub(in crate::ui) mod draft;
mod fighter;
pub(in crate::ui) mod files;
mod gang;
mod league;
mod merge;
mod output;
mod record;
mod rules;
mod season;

pub use checks::OpenCheckJob;
pub use league::{LeagueJob, SYNCING, let_writing_jobs_end};

use crate::ui::app::RapsheetApp;
use crate::ui::base::action::Action;

impl RapsheetApp {
    /// Runs what the player asked for, in the room that asked.
    pub fn run_action(&mut self, action: Action) {
        match action {
            Action::Gang(a) => self.run_gang(a),
            Action::Fighter(a) => self.run_fighter(a),
            Action::Record(a) => self.run_record(a),
            Action::Rules(a) => self.run_rules(a),
            Action::Output(a) => self.run_output(a),
            Action::Campaign(a) => self.run_campaign(a),
            Action::Bundle(a) => self.run_bundle(a),
            Action::Merge(a) => self.run_merge(a),
            Action::League(a) => self.run_league(a),
            Action::Backup(a) => self.run_backup(a),
            Action::Season(a) => self.run_season(a),
            Action::ChooseFile(field) => self.choose_file(field),
            Action::Undo => self.step_history(false),
            Action::Redo => self.step_history(true),
            Action::ShowLog(show) => self.show_log = show,
            Action::ShowScreen(screen) => {
                if screen == crate::ui::Screen::Battle && self.screen != screen {
                    self.campaign.battle_form.focus.start = true;
                }
                // The chronicle's export is offered where outputs go.
                if screen == crate::ui::Screen::Chronicle
                    && self.campaign.chronicle_view.path.is_empty()
                {
                    let format = self.campaign.chronicle_view.format;
                    self.campaign.chronicle_view.path =
                        self.offered_output("chronicle", format.extension());
                }
                if screen == crate::ui::Screen::Season && self.campaign.season_form.path.is_empty()
                {
                    let format = self.campaign.season_form.format;
                    self.campaign.season_form.path =
                        self.offered_output("season", format.extension());
                }
                self.screen = screen;
                self.welcome = false;
                self.refresh();
            }
        }
    }

    /// Takes back the newest change (or undo, for a redo) in the campaign
    /// log: the same history the command line's `undo` and `redo` use.
    fn step_history(&mut self, redo: bool) {
        // The menu is off while a sync holds the campaign; a shortcut is
        // told why in words (the stand-in's file would refuse it anyway).
        if self.league_holds_campaign() {
            self.error(anyhow::anyhow!("Not now: {SYNCING}"));
            return;
        }
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let result = if redo {
            session.redo_last()
        } else {
            session.undo_last()
        };
        // A roll shown under a check may be what was just taken back.
        self.campaign.editor.rolled = None;
        match result {
            Ok(Some((_, label))) => self.info(label),
            Ok(None) => self.info(if redo {
                "Nothing to redo"
            } else {
                "Nothing to undo"
            }),
            Err(err) => self.error(err),
        }
        self.refresh();
    }
}
