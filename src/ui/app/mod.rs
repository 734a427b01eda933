//! The app, the top floor: the state a frame draws from and the frame
//! itself, composed of the views (`menu`: the menu bar, tabs and status
//! bar; `screens`: the central area and the windows over it); the actions
//! the views return are run after it, each by its room's runner (`run`).
//!
//! Under it: `run` (each room's runner, the files and drafts), the views
//! (`views`), and the ground floor they stand on (`base`: what can be
//! asked for, the command table, widgets, the words shown, the campaign
//! as shown). Nothing here writes SQL; changes go through the session.

mod fonts;
mod menu;
mod screens;

use std::path::{Path, PathBuf};

use egui::Ui;

use crate::campaign::BatchId;
use crate::dice::Dice;
use crate::session::{GangView, Session};
use crate::ui::base::action::pressed;
use crate::ui::base::action::{Action, Screen};
use crate::ui::base::state::ViewState;
use crate::ui::run::files::BackgroundWrite;
use crate::ui::views::chronicle::ChronicleView;
use crate::ui::views::dialogs::{
    ActionDialog, NewCampaignDialog, PathDialog, RansomDialog, ResourceDialog,
};
use crate::ui::views::fighter_editor::FighterEditor;
use crate::ui::views::gang_list::FoundGangForm;
use crate::ui::views::log::LogView;
use crate::ui::views::post_battle::BattleForm;
use crate::ui::views::print_dialog::PrintDialog;
use crate::ui::views::roster::RosterForms;

/// A line in the status bar.
#[derive(Debug, Clone)]
pub(in crate::ui) struct Status {
    pub text: String,
    pub error: bool,
}

/// The windows that may be open over the screen.
#[derive(Default)]
pub(in crate::ui) struct Dialogs {
    pub resource: Option<ResourceDialog>,
    pub path: Option<PathDialog>,
    pub new_campaign: Option<NewCampaignDialog>,
    /// The name given for the campaign being created, until its file is
    /// chosen.
    pub new_name: Option<String>,
    /// The game the new campaign is made with (pack id).
    pub new_game: Option<String>,
    pub action: Option<ActionDialog>,
    pub ransom: Option<RansomDialog>,
    pub print: Option<PrintDialog>,
    /// A file about to be replaced, and what replaces it, while the player
    /// is asked.
    pub replace: Option<(PathBuf, Box<Action>)>,
}

/// Everything the window holds of one campaign: the forms typed into, the
/// choices made on its screens (a record half entered, the chronicle's
/// resource, the log's page), the editors and the windows opened over it,
/// with the paths offered in them. It is made anew, whole, whenever a
/// campaign is opened or closed, so nothing of one campaign shows in, or
/// can be committed to, another.
#[derive(Default)]
pub(in crate::ui) struct CampaignUi {
    pub found_form: FoundGangForm,
    pub roster_forms: RosterForms,
    pub editor: FighterEditor,
    pub battle_form: BattleForm,
    pub chronicle_view: ChronicleView,
    pub log_view: LogView,
    /// The editor of the group's own data, open or not.
    pub house_editor: crate::ui::views::house_editor::HouseEditor,
    /// The Merge window, open or not.
    pub merge_window: Option<crate::ui::views::merge::MergeWindow>,
    /// The League window, open or not.
    pub league_window: Option<crate::ui::views::league::LeagueWindow>,
    /// What the league's server is being asked, on a worker thread, if
    /// anything: it goes with the campaign, and its answer with it.
    pub league_job: Option<crate::ui::run::LeagueJob>,
    /// The Bundles window, open or not.
    pub bundles_window: Option<crate::ui::views::bundles::BundlesWindow>,
    /// The Backups window: open, and what it lists.
    pub backups_window: Option<crate::ui::views::backups::BackupsWindow>,
    /// The record form as it was last kept as a draft.
    pub kept_draft: Option<String>,
    /// What the player is told of a record begun before and brought back
    /// when the campaign opened.
    pub draft_notice: Option<String>,
    /// The Season screen's reason, choices and a cycle's end looked at.
    pub season_form: crate::ui::views::season::SeasonForm,
    /// The checks left of the campaign opened at the start (its pages,
    /// today's backup), waiting for the first frame or running.
    pub open_checks: Option<crate::ui::run::OpenCheckJob>,
}

/// The whole app.
pub struct RapsheetApp {
    pub(in crate::ui) session: Option<Session>,
    /// Why no campaign is open, when none is.
    pub(in crate::ui) open_error: Option<String>,
    /// The campaign as shown, read once per change.
    pub(in crate::ui) state: ViewState,
    pub(in crate::ui) screen: Screen,
    pub(in crate::ui) show_log: bool,
    pub(in crate::ui) dialogs: Dialogs,
    /// What the window holds of the open campaign: its forms, the choices
    /// made on its screens, its windows. Made anew whenever a campaign is
    /// opened or closed.
    pub(in crate::ui) campaign: CampaignUi,
    /// Where backups are kept; `None` (tests, a machine without a data
    /// folder) makes none.
    pub(in crate::ui) backups: Option<std::path::PathBuf>,
    /// How many backups are kept (the app's setting).
    pub(in crate::ui) backup_policy: crate::session::BackupPolicy,
    /// The league as this laptop knows it, read once per change (`None`:
    /// the campaign is in no league).
    pub(in crate::ui) league_status: Option<crate::session::league::LeagueStatus>,
    /// Why the last sync could not reach the server, until one does.
    pub(in crate::ui) league_offline: Option<String>,
    /// Where league passwords are read and kept (`None`: the password file
    /// in the settings folder), for every campaign opened here and every
    /// worker's session of it.
    pub(in crate::ui) league_passwords: Option<PathBuf>,
    /// Set once the desktop showed it has no file dialog.
    pub(in crate::ui) no_native_dialog: bool,
    pub(in crate::ui) writer: Option<BackgroundWrite>,
    pub(in crate::ui) status: Option<Status>,
    pub(in crate::ui) dice: Dice,
    fonts_installed: bool,
    /// Campaigns opened lately, newest first.
    pub(in crate::ui) recent: Vec<PathBuf>,
    /// The packs campaigns are opened and made with: this build's and the
    /// pack files named on the command line (`--pack`); `None`, this
    /// build's alone.
    pub(in crate::ui) packs: Option<crate::rules::Registry>,
    /// The demos there are: (ruleset id, the pack's name), the default
    /// first; read once.
    pub(in crate::ui) demos: Vec<(String, String)>,
    /// Where the last PDF or export was saved: the next one is offered
    /// there.
    pub(in crate::ui) output_dir: Option<PathBuf>,
    /// Set by the quit command; the frame closes the window.
    pub(in crate::ui) quitting: bool,
    /// The welcome screen is shown over the open campaign.
    pub(in crate::ui) welcome: bool,
    /// Set when the desktop asks the app to end (logout, shutdown): the
    /// next frame quits as File ▸ Quit does.
    ended: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// The campaign open when the desktop ended the app: the next start
    /// opens it again.
    ended_on: Option<PathBuf>,
    /// Where a record begun and not committed is kept until it is
    /// (`None`: tests, a machine without a data folder; it is kept only
    /// while its campaign is open).
    pub(in crate::ui) drafts: Option<crate::session::Drafts>,
}

/// How many recent campaigns the File menu keeps.
const RECENT: usize = 8;

impl RapsheetApp {
    /// Opens `path` (creating an empty campaign there if no file exists), or
    /// the demo in the platform data directory (created on first run).
    pub fn start(path: Option<PathBuf>) -> Self {
        Self::start_with_backups(path, None, Default::default())
    }

    /// [`RapsheetApp::start`], keeping backups in `backups` (the app on
    /// this machine: the data folder's).
    pub fn start_with_backups(
        path: Option<PathBuf>,
        backups: Option<PathBuf>,
        policy: crate::session::BackupPolicy,
    ) -> Self {
        Self::start_with_packs(path, None, backups, policy)
    }

    /// [`RapsheetApp::start_with_backups`], every campaign opened and made
    /// with `packs` (this build's and the files given with `--pack`), as
    /// the command line reads them.
    pub fn start_with_packs(
        path: Option<PathBuf>,
        packs: Option<crate::rules::Registry>,
        backups: Option<PathBuf>,
        policy: crate::session::BackupPolicy,
    ) -> Self {
        Self::starting(path, packs, backups, policy, false)
    }

    /// [`RapsheetApp::start_with_packs`] as the window starts: what reads
    /// whole files — the check of the campaign's every page and the look
    /// for today's backup — runs on a worker thread once the first frame
    /// is on screen. Until it passes, the campaign is read-only, and the
    /// status bar says so; pages that do not check keep it read-only, and
    /// the status bar says what opening it would have said.
    pub fn launch(
        path: Option<PathBuf>,
        packs: Option<crate::rules::Registry>,
        backups: Option<PathBuf>,
        policy: crate::session::BackupPolicy,
    ) -> Self {
        Self::starting(path, packs, backups, policy, true)
    }

    fn starting(
        path: Option<PathBuf>,
        packs: Option<crate::rules::Registry>,
        backups: Option<PathBuf>,
        policy: crate::session::BackupPolicy,
        checks_later: bool,
    ) -> Self {
        let mut app = Self::closed_with_backups(backups, policy);
        app.packs = packs;
        let open = |path: &Path| {
            app.packs().and_then(|p| match checks_later {
                true => Session::open_checking_later(path, p),
                false => Session::open_with(path, p),
            })
        };
        let demo = |path: &Path| {
            app.packs()
                .and_then(|p| Session::create_default_demo_with(path, p))
        };
        let result = match path {
            Some(path) if path.exists() => open(&path),
            Some(path) => demo(&path),
            None => match crate::paths::default_campaign() {
                Some(path) if path.exists() => open(&path),
                Some(path) => std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
                    .map_err(anyhow::Error::from)
                    .and_then(|()| demo(&path)),
                None => Err(anyhow::anyhow!("this system has no data directory")),
            },
        };
        match result {
            Ok(session) => app.set_session(session),
            Err(err) => app.open_error = Some(format!("{err:#}")),
        }
        app
    }

    /// The packs a campaign is opened or made with: this build's, and the
    /// pack files the window was started with.
    pub(in crate::ui) fn packs(&self) -> anyhow::Result<crate::rules::Registry> {
        match &self.packs {
            Some(packs) => Ok(packs.clone()),
            None => crate::session::builtin_registry(),
        }
    }

    /// The app with no campaign open: the welcome screen.
    pub fn closed_with_backups(
        backups: Option<PathBuf>,
        policy: crate::session::BackupPolicy,
    ) -> Self {
        let mut app = Self::empty();
        app.backups = backups;
        app.backup_policy = policy;
        app
    }

    /// The app on an open session (tests build it this way).
    pub fn with_session(session: Session) -> Self {
        let mut app = Self::empty();
        app.set_session(session);
        app
    }

    /// [`RapsheetApp::with_session`], keeping backups in `folder`.
    pub fn with_session_and_backups(session: Session, folder: PathBuf) -> Self {
        let mut app = Self::empty();
        app.backups = Some(folder);
        app.set_session(session);
        app
    }

    fn empty() -> Self {
        let seed = crate::dice::seed_from_clock();
        Self {
            session: None,
            open_error: None,
            state: ViewState::default(),
            screen: Screen::default(),
            show_log: false,
            dialogs: Dialogs::default(),
            campaign: CampaignUi::default(),
            backups: None,
            backup_policy: Default::default(),
            league_status: None,
            league_offline: None,
            league_passwords: None,
            no_native_dialog: false,
            writer: None,
            status: None,
            dice: Dice::seeded(seed),
            fonts_installed: false,
            recent: Vec::new(),
            packs: None,
            demos: demo_list(),
            output_dir: None,
            quitting: false,
            welcome: false,
            ended: Default::default(),
            ended_on: None,
            drafts: None,
        }
    }

    /// Remembers campaigns opened before (newest first), for the File menu.
    /// Where printouts were saved last time the app ran.
    pub fn set_output_dir(&mut self, dir: Option<PathBuf>) {
        self.output_dir = dir.filter(|d| d.is_dir());
    }

    /// Where a printout is offered: where the last one went; else beside
    /// the campaign, unless that is the app's own hidden data folder, then
    /// the player's documents.
    /// The file an output is offered as, in the folder outputs go to:
    /// the campaign's name and what it is (`Instrydia bundle.json`), made
    /// safe for every desktop's file system.
    pub(in crate::ui) fn offered_output(&self, what: &str, extension: &str) -> String {
        let campaign = self
            .state
            .info
            .as_ref()
            .map_or_else(|| "campaign".to_owned(), |i| i.name.clone());
        let name = sanitize_filename::sanitize(format!("{campaign} {what}.{extension}"));
        self.output_dir().join(name).display().to_string()
    }

    pub fn output_dir(&self) -> PathBuf {
        if let Some(dir) = &self.output_dir {
            return dir.clone();
        }
        let beside = self
            .campaign_path()
            .and_then(Path::parent)
            .map(Path::to_owned);
        let hidden = crate::paths::data_dir();
        match beside {
            Some(dir) if hidden.as_ref().is_none_or(|h| !dir.starts_with(h)) => dir,
            _ => crate::paths::documents_dir().unwrap_or_default(),
        }
    }

    /// Asks for file paths in the app's own typed-path dialog instead of
    /// the desktop's: for tests, and desktops without a file dialog.
    pub fn use_typed_paths(&mut self) {
        self.no_native_dialog = true;
    }

    /// How many backups are kept.
    pub fn backup_policy(&self) -> crate::session::BackupPolicy {
        self.backup_policy
    }

    /// How many backups are kept from now on: the newest so many, and the
    /// newest of each day for so many days. Keeping none is refused: the
    /// newest backup is always kept.
    pub fn set_backup_policy(&mut self, policy: crate::session::BackupPolicy) {
        if let Err(err) = policy.check() {
            self.error(err);
            return;
        }
        self.backup_policy = policy;
        if let (Some(session), Some(folder)) = (self.session.as_mut(), self.backups.clone()) {
            session.keep_backups_in(&folder, policy);
            self.info(format!(
                "Backups kept: the newest {} and one a day for {} days",
                policy.newest, policy.days
            ));
        }
    }

    /// Reads and keeps league passwords in `file` instead of the password
    /// file in the settings folder: for the open campaign, every campaign
    /// opened or joined after it, and the sessions the league's jobs open
    /// on their own.
    pub fn keep_league_passwords_in(&mut self, file: PathBuf) {
        if let Some(session) = &mut self.session {
            session.keep_league_passwords_in(file.clone());
        }
        self.league_passwords = Some(file);
    }

    pub fn set_recent(&mut self, recent: Vec<PathBuf>) {
        let current = self.campaign_path().map(Path::to_owned);
        self.recent = current.into_iter().chain(recent).collect();
        self.recent.dedup();
        let mut seen = std::collections::BTreeSet::new();
        self.recent.retain(|p| seen.insert(p.clone()));
        self.recent.truncate(RECENT);
    }

    /// The words of the open campaign's game (read once per change, so
    /// drawing a frame asks the store nothing), or none where no campaign
    /// is open.
    pub(in crate::ui) fn words(&self) -> crate::rules::Words {
        self.state.words.clone()
    }

    pub(in crate::ui) fn set_session(&mut self, mut session: Session) {
        // The record begun in the campaign before is kept for it; nothing
        // else of it stays: its status line, its forms, its screens'
        // choices, its windows and their dialogs.
        self.keep_draft();
        self.status = None;
        self.forget_campaign_ui();
        self.configure_session(&mut session);
        // One backup a day the campaign is opened (a failure is said, not
        // hidden): once its pages check, where they are checked later.
        let checks = session.checks_to_come(self.backups.as_deref());
        if checks.is_none()
            && let Some(folder) = self.backups.clone()
            && let Err(err) = session.daily_backup(&folder, self.backup_policy)
        {
            self.error(err.context("the day's backup was not made"));
        }
        self.campaign.open_checks = checks.map(crate::ui::run::OpenCheckJob::Waiting);
        let path = session.path().to_owned();
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT);
        self.session = Some(session);
        self.open_error = None;
        self.welcome = false;
        self.state.forget();
        self.refresh();
        self.restore_draft();
        // The list's first rows are judged now, not in the first frame: at
        // the start this runs while the window is being made.
        self.judge_gangs_near_view();
    }

    /// Gives a session of the open campaign what the app keeps for every
    /// one: where backups go (one before every record) and how many are
    /// kept, and where league passwords are.
    pub(in crate::ui) fn configure_session(&self, session: &mut Session) {
        if let Some(folder) = &self.backups {
            session.keep_backups_in(folder, self.backup_policy);
        }
        if let Some(file) = &self.league_passwords {
            session.keep_league_passwords_in(file.clone());
        }
    }

    /// Drops what the window held of the campaign that was open: its
    /// forms, choices and windows ([`CampaignUi`]), the dialogs over it,
    /// and the league as it was known.
    fn forget_campaign_ui(&mut self) {
        self.campaign = CampaignUi::default();
        self.dialogs = Dialogs::default();
        self.league_status = None;
        self.league_offline = None;
    }

    /// The flag that, set (by a signal from the desktop), makes the next
    /// frame quit as File ▸ Quit does: the campaign closed cleanly, the
    /// settings kept.
    pub fn end_flag(&self) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        self.ended.clone()
    }

    /// Closes the open campaign (its file is released) and shows the
    /// welcome screen; nothing of it stays on screen.
    pub fn close_campaign(&mut self) {
        self.keep_draft();
        let Some(session) = self.session.take() else {
            return;
        };
        let name = self
            .state
            .info
            .as_ref()
            .map_or_else(|| session.path().display().to_string(), |i| i.name.clone());
        drop(session);
        // A sync running holds the campaign's own session: it ends on its
        // own, on its own connection, and closes the file then.
        let syncing = self.league_holds_campaign();
        self.state = ViewState::default();
        self.screen = Screen::default();
        self.show_log = false;
        self.forget_campaign_ui();
        self.welcome = true;
        if syncing {
            self.info(format!(
                "Closed {name}; its sync with the league ends on its own"
            ));
        } else {
            self.info(format!("Closed {name}"));
        }
    }

    /// Shows the welcome screen over the campaign opened (a first run, on
    /// the demo campaign), until the player goes to the campaign.
    pub fn show_welcome(&mut self) {
        self.welcome = true;
    }

    /// Whether the welcome screen is what the window shows.
    pub fn shows_welcome(&self) -> bool {
        self.welcome || self.session.is_none()
    }

    /// The campaigns opened before, newest first, but the one open now.
    pub(in crate::ui) fn other_recent(&self) -> Vec<&PathBuf> {
        let open = self.campaign_path();
        self.recent
            .iter()
            .filter(|p| Some(p.as_path()) != open)
            .collect()
    }

    /// The open campaign's path.
    pub fn campaign_path(&self) -> Option<&Path> {
        self.session.as_ref().map(|s| s.path())
    }

    /// The gang shown now, as shown.
    pub fn gang_view(&self) -> Option<&GangView> {
        self.state.gang_view.as_ref()
    }

    /// The screen shown now.
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// How many times the open campaign's store has been read since it
    /// opened: an unchanged campaign is drawn without adding to it.
    pub fn store_reads(&self) -> u64 {
        self.session.as_ref().map_or(0, |s| s.reads())
    }

    /// Whether the record form's preview ("What the rules change") was in
    /// view when the frame was drawn.
    pub fn preview_in_view(&self) -> bool {
        self.campaign.battle_form.preview_in_view
    }

    /// The battle form's error, when its report is refused.
    pub fn battle_error(&self) -> Option<&str> {
        match &self.campaign.battle_form.preview {
            Some(Err(err)) => Some(err),
            _ => None,
        }
    }

    /// Whether the checks of the campaign opened at the start (its pages,
    /// today's backup) are still to end.
    pub fn checking(&self) -> bool {
        self.campaign.open_checks.is_some()
    }

    /// Whether those checks have begun: they wait for the first frame to
    /// be on screen.
    pub fn checks_begun(&self) -> bool {
        matches!(
            self.campaign.open_checks,
            Some(crate::ui::run::OpenCheckJob::Running(_))
        )
    }

    /// Why the open campaign cannot be changed now, if it cannot.
    pub fn read_only_reason(&self) -> Option<String> {
        self.read_only()
    }

    /// The status line's text (the last message or error).
    pub fn status_text(&self) -> Option<&str> {
        self.status.as_ref().map(|s| s.text.as_str())
    }

    /// Brings the view state up to date after an action: one query when the
    /// campaign did not change.
    pub(in crate::ui) fn refresh(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        let refreshed = self.state.refresh(session);
        if refreshed.changed {
            self.campaign.battle_form.dirty = true;
            self.league_status = session.league_status(false).ok();
        }
        let view = self.state.selected_fighter_view().cloned();
        self.campaign.editor.sync(view.as_ref());
        for err in refreshed.errors {
            self.error(err);
        }
    }

    pub(in crate::ui) fn info(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            error: false,
        });
    }

    pub(in crate::ui) fn error(&mut self, err: anyhow::Error) {
        self.status = Some(Status {
            text: crate::ui::base::said::for_players(&err),
            error: true,
        });
    }

    pub(in crate::ui) fn read_only(&self) -> Option<String> {
        if self.league_holds_campaign() {
            return Some(crate::ui::run::SYNCING.to_owned());
        }
        match &self.session {
            Some(s) => s.read_only_reason().map(str::to_owned),
            None => Some("no campaign is open".to_owned()),
        }
    }

    /// Runs a command that writes one batch; on success it becomes the
    /// newest undo step and the redo stack is cleared.
    pub(in crate::ui) fn change(
        &mut self,
        what: &str,
        run: impl FnOnce(&mut Session) -> anyhow::Result<BatchId>,
    ) -> bool {
        let Some(session) = self.session.as_mut() else {
            return false;
        };
        match run(session) {
            Ok(_) => {
                self.info(what.to_owned());
                self.refresh();
                true
            }
            Err(err) => {
                self.error(err);
                self.refresh();
                false
            }
        }
    }

    /// Draws one frame and runs what the player asked for.
    pub fn frame_ui(&mut self, ui: &mut Ui) {
        if !self.fonts_installed {
            fonts::install(ui.ctx());
            self.fonts_installed = true;
        }
        self.poll_writer(ui.ctx());
        self.poll_league_job(ui.ctx());
        self.poll_open_checks(ui.ctx());
        if self.ended.load(std::sync::atomic::Ordering::Relaxed) {
            // Closed here, not only when the window goes: the desktop may
            // not wait for that.
            if let Some(session) = self.session.take() {
                self.ended_on = Some(session.path().to_owned());
            }
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        let mut actions: Vec<Action> = Vec::new();
        let read_only = self.read_only();
        if self.screen == Screen::Battle && !self.shows_welcome() {
            self.campaign.battle_form.focus.before_frame(ui.ctx());
        }

        // A text field with the keyboard keeps Ctrl+Z and Ctrl+Shift+Z (its
        // own undo); every other shortcut works from anywhere.
        let in_field = ui
            .ctx()
            .memory(|m| m.focused())
            .is_some_and(|id| egui::text_edit::TextEditState::load(ui.ctx(), id).is_some());
        let has = self.session.is_some();
        for command in ui.input_mut(|i| pressed(i, in_field)) {
            if has || !command.needs_campaign() {
                actions.push(command.action(self.show_log));
            }
        }

        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| actions.extend(self.menu_ui(ui)));
        });
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        if self.session.is_some() {
            egui::Panel::top("screens").show(ui, |ui| actions.extend(self.screen_tabs_ui(ui)));
        }
        if self.screen == Screen::Battle {
            self.update_battle_preview();
        }

        if self.shows_welcome() {
            egui::CentralPanel::default().show(ui, |ui| self.welcome_ui(ui, &mut actions));
        } else {
            self.campaign_ui(ui, read_only.as_deref(), &mut actions);
        }
        self.update_print_preview();
        actions.extend(self.dialogs_ui(ui.ctx()));

        for action in actions {
            self.run_action(action);
        }
        if std::mem::take(&mut self.quitting) {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

/// The demos this build has, with their packs' names.
fn demo_list() -> Vec<(String, String)> {
    let registry = crate::session::builtin_registry().ok();
    crate::campaign::demo::rulesets()
        .unwrap_or_default()
        .into_iter()
        .map(|id| {
            let name = registry
                .as_ref()
                .and_then(|r| r.get(&id))
                .map_or_else(|| id.clone(), |p| p.pack.name.clone());
            (id, name)
        })
        .collect()
}

impl eframe::App for RapsheetApp {
    /// The window is cleared to the panels' colour, the theme's own.
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        // The window is cleared to the panels' colour (`clear_color`), so
        // the panels leave it as it is rather than paint a window of the
        // same colour over it: a software renderer (a laptop without a
        // graphics driver) pays for every pixel of that in every frame,
        // and in the first one as the window waits to be shown. What is
        // drawn over a panel in its colour (a scroll area's fading edges)
        // still finds it as the background the panels are on.
        let background = ui.visuals().panel_fill;
        ui.visuals_mut().panel_fill = egui::Color32::TRANSPARENT;
        let on = egui::UiStackInfo::default().with_frame(egui::Frame::NONE.fill(background));
        ui.scope_builder(egui::UiBuilder::new().ui_stack_info(on), |ui| {
            self.frame_ui(ui);
        });
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        // The record being filled in is kept, as the window closes too.
        self.keep_draft();
        // Empty where the player closed the campaign: the welcome screen
        // is what the next start shows.
        let last = self
            .campaign_path()
            .or(self.ended_on.as_deref())
            .map_or_else(String::new, |p| p.display().to_string());
        storage.set_string(crate::ui::LAST_CAMPAIGN, last);
        let recent: Vec<String> = self
            .recent
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        storage.set_string(crate::ui::RECENT_CAMPAIGNS, recent.join("\n"));
        if let Some(dir) = &self.output_dir {
            storage.set_string(crate::ui::OUTPUT_DIR, dir.display().to_string());
        }
        storage.set_string(crate::ui::BACKUP_POLICY, self.backup_policy.to_setting());
    }
}
