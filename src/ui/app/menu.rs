//! The menu bar, the screen tabs and the status bar.
//!
//! Each draws from the app's state and returns what the player asked for;
//! labels and shortcuts come from the command table in `action`, never
//! written here. Nothing here runs an action or reads the campaign.

use egui::{Response, RichText, Ui};

use crate::ui::app::RapsheetApp;
use crate::ui::base::action::PathPurpose;
use crate::ui::base::action::{Action, Command, Screen};
use crate::ui::base::action::{
    BackupAction, BundleAction, CampaignAction, LeagueAction, MergeAction,
};
use crate::ui::base::widgets::edit_hint;

/// A menu button for `command`, its shortcut shown beside its label.
fn command_button(ui: &mut Ui, command: Command, enabled: bool) -> Response {
    command_button_saying(ui, command, command.label(), enabled)
}

/// [`command_button`] with its own words (`Undo “Recorded skirmish #3”`).
fn command_button_saying(ui: &mut Ui, command: Command, text: &str, enabled: bool) -> Response {
    let mut button = egui::Button::new(text);
    if let Some(shortcut) = command.shortcut() {
        button = button.shortcut_text(ui.ctx().format_shortcut(&shortcut));
    }
    ui.add_enabled(enabled, button)
}

impl RapsheetApp {
    pub(in crate::ui) fn menu_ui(&self, ui: &mut Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        let has = self.session.is_some();
        let run = |actions: &mut Vec<Action>, command: Command| {
            actions.push(command.action(self.show_log));
        };
        ui.menu_button("File", |ui| {
            for command in [Command::NewCampaign, Command::OpenCampaign] {
                if command_button(ui, command, true).clicked() {
                    run(&mut actions, command);
                }
            }
            for command in [Command::SaveCampaignAs, Command::CloseCampaign] {
                if command_button(ui, command, has).clicked() {
                    run(&mut actions, command);
                }
            }
            if ui
                .add_enabled(has, egui::Button::new("Bundles…"))
                .on_hover_text("Carry a gang, or every gang, to another campaign, or bring one in")
                .clicked()
            {
                actions.push(Action::Bundle(BundleAction::Open));
            }
            if ui
                .add_enabled(has, egui::Button::new("Merge…"))
                .on_hover_text("Merge another copy of this campaign, which recorded other things since the two parted, into a new file")
                .clicked()
            {
                actions.push(Action::Merge(MergeAction::Open));
            }
            if ui
                .add_enabled(has, egui::Button::new("League…"))
                .on_hover_text("A campaign shared through a league's server: sync, its members, or join one with an invite")
                .clicked()
            {
                actions.push(Action::League(LeagueAction::Open));
            }
            if ui
                .add_enabled(has, egui::Button::new("Backups…"))
                .on_hover_text("The campaign's backups: when, how big, the newest record each holds; restore one as a new file")
                .clicked()
            {
                actions.push(Action::Backup(BackupAction::Open));
            }
            ui.menu_button("Recent campaigns", |ui| {
                let others = self.other_recent();
                if others.is_empty() {
                    ui.weak("None yet");
                }
                for path in others {
                    if ui.button(path.display().to_string()).clicked() {
                        actions.push(Action::Campaign(CampaignAction::UsePath(PathPurpose::Open, path.clone())));
                    }
                }
            });
            ui.menu_button("Demo campaigns", |ui| {
                for (ruleset, name) in &self.demos {
                    let path = crate::paths::demo_campaign(ruleset);
                    let button = ui
                        .add_enabled(path.is_some(), egui::Button::new(format!("{name} demo")))
                        .on_hover_text("Two demo gangs to try the game on, made the first time");
                    if button.clicked()
                        && let Some(path) = path
                    {
                        actions.push(Action::Campaign(CampaignAction::OpenDemo(path, Some(ruleset.clone()))));
                    }
                }
            });
            ui.separator();
            if command_button(ui, Command::Quit, true).clicked() {
                run(&mut actions, Command::Quit);
            }
        });
        ui.menu_button("Edit", |ui| {
            let ro = self.read_only();
            for (command, step) in [
                (Command::Undo, &self.state.history.undo),
                (Command::Redo, &self.state.history.redo),
            ] {
                // The menu says what it will take back (or make again).
                let text = match step {
                    Some(label) => format!("{} “{}”", command.label(), shortened(label, 40)),
                    None => command.label().to_owned(),
                };
                let response =
                    command_button_saying(ui, command, &text, ro.is_none() && step.is_some());
                let response = match step {
                    Some(label) => response.on_hover_text(label),
                    None => response,
                };
                let why = match (&ro, command) {
                    (Some(_), _) => edit_hint(ro.as_deref()),
                    (None, Command::Undo) => "Nothing to undo".to_owned(),
                    (None, _) => "Nothing to redo".to_owned(),
                };
                if response.on_disabled_hover_text(why).clicked() {
                    run(&mut actions, command);
                }
            }
        });
        ui.menu_button("View", |ui| {
            for screen in Screen::ALL {
                let command = Command::Show(screen);
                let mut button = egui::Button::selectable(self.screen == screen, command.label());
                if let Some(shortcut) = command.shortcut() {
                    button = button.shortcut_text(ui.ctx().format_shortcut(&shortcut));
                }
                if ui.add_enabled(has, button).clicked() {
                    run(&mut actions, command);
                }
            }
            ui.separator();
            let mut show = self.show_log;
            let label = Command::CampaignLog.label();
            if ui
                .add_enabled(has, egui::Checkbox::new(&mut show, label))
                .changed()
            {
                actions.push(Action::ShowLog(show));
            }
            ui.separator();
            // Light, dark, or as the desktop is; eframe keeps the choice.
            let now = ui.options(|o| o.theme_preference);
            for (preference, label) in [
                (egui::ThemePreference::System, "Theme as the desktop"),
                (egui::ThemePreference::Light, "Light theme"),
                (egui::ThemePreference::Dark, "Dark theme"),
            ] {
                if ui
                    .add(egui::Button::selectable(now == preference, label))
                    .clicked()
                {
                    ui.ctx().set_theme(preference);
                }
            }
        });
        actions
    }

    /// The tabs of the screens, under the menu bar.
    pub(in crate::ui) fn screen_tabs_ui(&self, ui: &mut Ui) -> Option<Action> {
        let mut action = None;
        ui.horizontal(|ui| {
            for screen in Screen::ALL {
                let command = Command::Show(screen);
                let mut tab =
                    ui.selectable_label(!self.welcome && self.screen == screen, command.label());
                if let Some(shortcut) = command.shortcut() {
                    tab = tab.on_hover_text(ui.ctx().format_shortcut(&shortcut));
                }
                if tab.clicked() {
                    action = Some(Action::ShowScreen(screen));
                }
            }
        });
        action
    }

    pub(in crate::ui) fn status_ui(&self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            match self.campaign_path() {
                // The file's name; where it is, on hover.
                Some(path) => {
                    let name = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    ui.label(RichText::new(name).weak())
                        .on_hover_text(path.display().to_string());
                }
                None => {
                    ui.weak("No campaign open");
                }
            }
            if let Some(reason) = self.read_only()
                && self.session.is_some()
            {
                ui.label(
                    RichText::new(format!("Read-only: {reason}")).color(ui.visuals().warn_fg_color),
                );
            }
            if let Some(league) = &self.league_status {
                ui.separator();
                // The last sync that could not reach the server says so
                // until one does.
                let shown = match (&self.league_offline, &league.offline) {
                    (Some(why), None) => crate::session::league::LeagueStatus {
                        offline: Some(why.clone()),
                        ..league.clone()
                    }
                    .short(),
                    _ => league.short(),
                };
                // What is known: the server is asked when the League
                // window opens or a sync runs, never behind the player's back.
                let since = match &league.last_sync {
                    Some(at) => format!("last sync {}", crate::ui::base::widgets::local_time(at)),
                    None => "never synced".to_owned(),
                };
                let text = if league.to_fetch.is_none() && league.offline.is_none() {
                    format!("League: {shown}; not checked since the {since}")
                } else {
                    format!("League: {shown}")
                };
                let hover = format!(
                    "{} as {}; {since}. File ▸ League… asks the server what waits there",
                    league.server, league.login
                );
                ui.label(text).on_hover_text(hover);
            }
            if let Some(progress) = self.league_progress() {
                ui.separator();
                ui.label(progress);
            }
            if let Some(writer) = &self.writer {
                ui.separator();
                ui.spinner();
                ui.label(format!("Writing {}…", writer.path.display()));
            }
            if let Some(status) = &self.status {
                ui.separator();
                let text = RichText::new(&status.text);
                if status.error {
                    ui.label(text.color(ui.visuals().error_fg_color));
                } else {
                    ui.label(text);
                }
            }
        });
    }
}

/// `text` cut to `most` characters as a reader counts them (graphemes, not
/// bytes), with an ellipsis where cut.
fn shortened(text: &str, most: usize) -> String {
    use unicode_segmentation::UnicodeSegmentation as _;
    if text.graphemes(true).count() <= most {
        return text.to_owned();
    }
    let kept: String = text.graphemes(true).take(most.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}
