//! The app shell: the state a frame draws from, the frame itself, and the
//! runner that turns the views' actions into session commands after it.
//!
//! The rooms around it: `action` (what can be asked for, and the command
//! table of labels and shortcuts), `state` (the campaign as shown, read
//! once per change), `menu` (menu bar, tabs, status bar), `screens` (the
//! central area and dialogs), `files` (paths and background writes) and
//! `widgets`. Nothing here writes SQL; changes go through the session.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use egui::Ui;

// Every view takes the action type and the disabled-control hint from
// the shell, one path for all of them.
use super::action::pressed;
pub use super::action::{Action, Screen};
use super::chronicle_view::ChronicleView;
use super::dialogs::{ActionDialog, NewCampaignDialog, PathDialog, RansomDialog, ResourceDialog};
use super::fighter_editor::FighterEditor;
use super::files::{BackgroundWrite, open_with_desktop};
use super::gang_list::FoundGangForm;
use super::log_view::LogView;
use super::post_battle::BattleForm;
use super::print_dialog::PrintDialog;
use super::roster::RecruitForm;
use super::state::ViewState;
pub use super::widgets::edit_hint;
use crate::campaign::BatchId;
use crate::campaign::commands::NewFighter;
use crate::dice::Dice;
use crate::session::{GangView, Session};

/// A line in the status bar.
#[derive(Debug, Clone)]
pub(super) struct Status {
    pub text: String,
    pub error: bool,
}

/// The windows that may be open over the screen.
#[derive(Default)]
pub(super) struct Dialogs {
    pub resource: Option<ResourceDialog>,
    pub path: Option<PathDialog>,
    pub new_campaign: Option<NewCampaignDialog>,
    /// The name given for the campaign being created, until its file is
    /// chosen.
    pub new_name: Option<String>,
    pub action: Option<ActionDialog>,
    pub ransom: Option<RansomDialog>,
    pub print: Option<PrintDialog>,
    /// A file about to be replaced, and what replaces it, while the player
    /// is asked.
    pub replace: Option<(PathBuf, Box<Action>)>,
}

/// The whole app.
pub struct RapsheetApp {
    pub(super) session: Option<Session>,
    /// Why no campaign is open, when none is.
    pub(super) open_error: Option<String>,
    /// The campaign as shown, read once per change.
    pub(super) state: ViewState,
    pub(super) screen: Screen,
    pub(super) show_log: bool,
    pub(super) dialogs: Dialogs,
    pub(super) found_form: FoundGangForm,
    pub(super) recruit_form: RecruitForm,
    pub(super) editor: FighterEditor,
    /// Where backups are kept; `None` (tests, a machine without a data
    /// folder) makes none.
    pub(super) backups: Option<std::path::PathBuf>,
    /// How many backups are kept (the app's setting).
    pub(super) backup_policy: crate::session::BackupPolicy,
    /// The Merge window, open or not.
    pub(super) merge_window: Option<super::merge_view::MergeWindow>,
    /// The League window, open or not.
    pub(super) league_window: Option<super::league_view::LeagueWindow>,
    /// The league as this laptop knows it, read once per change (`None`:
    /// the campaign is in no league).
    pub(super) league_status: Option<crate::session::league::LeagueStatus>,
    /// Why the last sync could not reach the server, until one does.
    pub(super) league_offline: Option<String>,
    /// The Bundles window, open or not.
    pub(super) bundles_window: Option<super::bundles_view::BundlesWindow>,
    /// The Backups window: open, and what it lists.
    pub(super) backups_window: Option<super::backups_view::BackupsWindow>,
    /// The editor of the group's own data, open or not.
    pub(super) house_editor: super::house_editor::HouseEditor,
    pub(super) battle_form: BattleForm,
    pub(super) chronicle_view: ChronicleView,
    pub(super) log_view: LogView,
    /// Closes the window once its first frame is shown, for the launch
    /// benchmark.
    launch_probe: super::LaunchProbe,
    /// Set once the desktop showed it has no file dialog.
    pub(super) no_native_dialog: bool,
    pub(super) writer: Option<BackgroundWrite>,
    pub(super) status: Option<Status>,
    pub(super) dice: Dice,
    fonts_installed: bool,
    /// Campaigns opened lately, newest first.
    pub(super) recent: Vec<PathBuf>,
    /// The demos there are: (ruleset id, the pack's name), the default
    /// first; read once.
    pub(super) demos: Vec<(String, String)>,
    /// Where the last PDF or export was saved: the next one is offered
    /// there.
    pub(super) output_dir: Option<PathBuf>,
    /// Set by the quit command; the frame closes the window.
    quitting: bool,
    /// The welcome screen is shown over the open campaign.
    pub(super) welcome: bool,
    /// Set when the desktop asks the app to end (logout, shutdown): the
    /// next frame quits as File ▸ Quit does.
    ended: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// The campaign open when the desktop ended the app: the next start
    /// opens it again.
    ended_on: Option<PathBuf>,
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
        let mut app = Self::closed_with_backups(backups, policy);
        let result = match path {
            Some(path) if path.exists() => Session::open(&path),
            Some(path) => Session::create_demo(&path),
            None => match crate::paths::default_campaign() {
                Some(path) if path.exists() => Session::open(&path),
                Some(path) => std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
                    .map_err(anyhow::Error::from)
                    .and_then(|()| Session::create_demo(&path)),
                None => Err(anyhow::anyhow!("this system has no data directory")),
            },
        };
        match result {
            Ok(session) => app.set_session(session),
            Err(err) => app.open_error = Some(format!("{err:#}")),
        }
        app
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
            found_form: FoundGangForm::default(),
            recruit_form: RecruitForm::default(),
            editor: FighterEditor::default(),
            house_editor: Default::default(),
            backups: None,
            backup_policy: Default::default(),
            backups_window: None,
            bundles_window: None,
            merge_window: None,
            league_window: None,
            league_status: None,
            league_offline: None,
            battle_form: BattleForm::default(),
            chronicle_view: ChronicleView::default(),
            log_view: LogView::default(),
            launch_probe: super::LaunchProbe::from_env(),
            no_native_dialog: false,
            writer: None,
            status: None,
            dice: Dice::seeded(seed),
            fonts_installed: false,
            recent: Vec::new(),
            demos: demo_list(),
            output_dir: None,
            quitting: false,
            welcome: false,
            ended: Default::default(),
            ended_on: None,
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

    pub fn set_recent(&mut self, recent: Vec<PathBuf>) {
        let current = self.campaign_path().map(Path::to_owned);
        self.recent = current.into_iter().chain(recent).collect();
        self.recent.dedup();
        let mut seen = std::collections::BTreeSet::new();
        self.recent.retain(|p| seen.insert(p.clone()));
        self.recent.truncate(RECENT);
    }

    /// The words of the open campaign's game (read with its names, so
    /// drawing a frame asks the store nothing), or none where no campaign
    /// is open.
    pub(super) fn words(&self) -> crate::rules::Words {
        self.state.names.words.clone()
    }

    pub(super) fn set_session(&mut self, mut session: Session) {
        // Nothing of the campaign before stays: its status line, its
        // choices for a new gang.
        self.status = None;
        self.found_form = FoundGangForm::default();
        self.editor = FighterEditor::default();
        // Where the app keeps backups: one before every record, and one a
        // day the campaign is opened (a failure is said, not hidden).
        if let Some(folder) = self.backups.clone() {
            session.keep_backups_in(&folder, self.backup_policy);
            if let Err(err) = session.daily_backup(&folder, self.backup_policy) {
                self.error(err.context("the day's backup was not made"));
            }
        }
        let path = session.path().to_owned();
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT);
        self.session = Some(session);
        self.open_error = None;
        self.welcome = false;
        self.state.forget();
        self.refresh();
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
        let Some(session) = self.session.take() else {
            return;
        };
        let name = self
            .state
            .info
            .as_ref()
            .map_or_else(|| session.path().display().to_string(), |i| i.name.clone());
        drop(session);
        self.state = ViewState::default();
        self.screen = Screen::default();
        self.show_log = false;
        self.found_form = FoundGangForm::default();
        self.recruit_form = RecruitForm::default();
        self.editor = FighterEditor::default();
        self.battle_form = BattleForm::default();
        self.chronicle_view = ChronicleView::default();
        self.log_view = LogView::default();
        self.dialogs = Dialogs::default();
        self.backups_window = None;
        self.bundles_window = None;
        self.merge_window = None;
        self.league_window = None;
        self.welcome = true;
        self.info(format!("Closed {name}"));
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
    pub(super) fn other_recent(&self) -> Vec<&PathBuf> {
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

    pub fn battle_choice_buttons(&self) -> Vec<Vec<String>> {
        let Some(Ok(procedure)) = &self.battle_form.preview else {
            return Vec::new();
        };
        let pack = self
            .session
            .as_ref()
            .and_then(|s| s.pack(&procedure.battle.ruleset).ok());
        procedure
            .needed
            .iter()
            .map(|need| {
                need.options
                    .iter()
                    .map(|o| {
                        format!(
                            "{}: {}",
                            need.gang,
                            super::post_battle::option_label(
                                pack,
                                procedure.battle.scenario.as_deref(),
                                need,
                                o
                            )
                        )
                    })
                    .collect()
            })
            .collect()
    }

    /// The battle form's error, when its report is refused.
    pub fn battle_error(&self) -> Option<&str> {
        match &self.battle_form.preview {
            Some(Err(err)) => Some(err),
            _ => None,
        }
    }

    /// The status line's text (the last message or error).
    pub fn status_text(&self) -> Option<&str> {
        self.status.as_ref().map(|s| s.text.as_str())
    }

    /// Brings the view state up to date after an action: one query when the
    /// campaign did not change.
    pub(super) fn refresh(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        let refreshed = self.state.refresh(session);
        if refreshed.changed {
            self.battle_form.dirty = true;
            self.league_status = session.league_status(false).ok();
        }
        let view = self.state.selected_fighter_view().cloned();
        self.editor.sync(view.as_ref());
        for err in refreshed.errors {
            self.error(err);
        }
    }

    /// Reruns the procedure on the battle form, and suggests roles from the
    /// two gangs' previous battle.
    fn update_battle_preview(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        let form = &mut self.battle_form;
        // Start with the gang on screen and, where the pack's record takes
        // more than one, the next gangs of its ruleset.
        if form.gangs.iter().all(Option::is_none) {
            let first = self
                .state
                .selected_gang
                .and_then(|id| self.state.gangs.iter().find(|g| g.id == id))
                .or(self.state.gangs.first());
            if let Some(first) = first
                && let Ok(pack) = session.pack(&first.ruleset)
            {
                let sides = pack.record().min_sides;
                let mut gangs = vec![Some(first.id)];
                gangs.extend(
                    self.state
                        .gangs
                        .iter()
                        .filter(|g| g.id != first.id && g.ruleset == first.ruleset)
                        .map(|g| Some(g.id))
                        .take(sides.saturating_sub(1)),
                );
                form.set_sides(sides.max(1));
                for (i, g) in gangs.into_iter().enumerate().take(form.gangs.len()) {
                    form.gangs[i] = g;
                }
                // The scenario the rivals' arc says comes next, where
                // the pack's records are not plain games unless chosen.
                let plain = session
                    .pack(&first.ruleset)
                    .is_ok_and(|p| p.record().scenario_optional);
                if let [Some(a), Some(b)] = form.gangs.as_slice()
                    && !plain
                    && let Ok(next) = session.next_scenarios(*a, *b)
                    && let Some((id, _)) = next.scenarios.first()
                {
                    form.scenario = id.clone();
                }
                form.wants_roles = true;
                form.dirty = true;
            }
        }
        if form.wants_roles {
            form.wants_roles = false;
            if let [Some(a), Some(b)] = form.gangs.as_slice()
                && !form.scenario.is_empty()
            {
                match session.suggest_roles(&form.scenario, *a, *b) {
                    Ok(Some((ra, rb))) => form.roles = vec![Some(ra), Some(rb)],
                    Ok(None) => {}
                    Err(err) => form.preview = Some(Err(super::said::for_players(&err))),
                }
            }
        }
        let chosen: Vec<crate::campaign::GangId> = form.gangs.iter().flatten().copied().collect();
        if let Err(err) = self.state.load_battle_fighters(session, &chosen) {
            form.preview = Some(Err(super::said::for_players(&err)));
            return;
        }
        if !form.dirty {
            return;
        }
        form.dirty = false;
        if form.seed == 0 {
            form.seed = crate::dice::seed_from_clock();
        }
        let seed = form.seed;
        form.preview = form.report(&self.state.battle_data).map(|report| {
            session
                .preview_battle(&report, seed)
                .map_err(|e| super::said::for_players(&e))
        });
    }

    pub(super) fn info(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            error: false,
        });
    }

    pub(super) fn error(&mut self, err: anyhow::Error) {
        self.status = Some(Status {
            text: super::said::for_players(&err),
            error: true,
        });
    }

    pub(super) fn read_only(&self) -> Option<String> {
        match &self.session {
            Some(s) => s.read_only_reason().map(str::to_owned),
            None => Some("no campaign is open".to_owned()),
        }
    }

    /// Runs a command that writes one batch; on success it becomes the
    /// newest undo step and the redo stack is cleared.
    pub(super) fn change(
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

    /// Brings a bundle's gangs in; where a gang's name is taken here and
    /// not renamed yet, the Bundles window asks for the name it comes in
    /// under instead, and nothing is written.
    fn import_bundle(&mut self, file: &Path, renamed: &BTreeMap<String, String>) {
        let Some(session) = self.session.as_ref() else {
            return;
        };
        let read = crate::session::read_bundle_file(file)
            .and_then(|bytes| Ok((session.bundle_name_clashes(&bytes)?, bytes)));
        let (clashes, bytes) = match read {
            Ok(read) => read,
            Err(err) => {
                return self.error(err.context(format!("{} was not brought in", file.display())));
            }
        };
        let unnamed: Vec<String> = clashes
            .into_iter()
            .filter(|name| !renamed.contains_key(name))
            .collect();
        if !unnamed.is_empty() {
            if let Some(window) = self.bundles_window.as_mut() {
                window.ask_names(&unnamed);
            }
            let names = unnamed.join(", ");
            return self.info(format!(
                "This campaign already has a gang called {names}: choose the name each comes in under"
            ));
        }
        let brought = self.change("Bundle brought in", |s| {
            s.import_bundle_as(&bytes, renamed).map(|(b, _)| b)
        });
        if brought && let Some(window) = self.bundles_window.as_mut() {
            window.renames.clear();
        }
    }

    /// Makes a new campaign file from a whole campaign's bundle and opens it.
    /// Reads another copy and shows the merge in the Merge window.
    /// Syncs with the league's server and shows what came of it.
    fn league_sync(&mut self, choices: &[Option<crate::campaign::merge::Choice>]) {
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
                self.league_window
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
                self.league_window
                    .get_or_insert_with(Default::default)
                    .members = Some(members);
            }
            Err(err) => self.error(err),
        }
    }

    /// Joins a league with an invite into a new campaign file, and opens it.
    fn league_join(&mut self, invite: &std::path::Path, to: &std::path::Path) {
        let joined = crate::session::league::read_invite(invite)
            .and_then(|invite| Session::league_join(&invite, to));
        match joined {
            Ok(session) => {
                self.set_session(session);
                self.info(format!("Joined the league: {}", to.display()));
            }
            Err(err) => self.error(err),
        }
    }

    fn look_at_merge(&mut self, other: &std::path::Path) {
        let (Some(session), Some(window)) = (&self.session, self.merge_window.as_mut()) else {
            return;
        };
        let looked = session
            .plan_merge(other)
            .and_then(|m| session.merge_preview(&m).map(|p| (m, p)));
        match looked {
            Ok((merge, preview)) => window.show(merge, preview, session.path()),
            Err(err) => self.error(err),
        }
    }

    /// Writes the merge looked at, as chosen, to a new file, and opens it.
    fn write_merge(&mut self, to: &std::path::Path) {
        let (Some(session), Some(window)) = (&self.session, &self.merge_window) else {
            return;
        };
        let Some((merge, _)) = &window.looked else {
            return;
        };
        match session.write_merge(merge, &window.choices, to) {
            Ok(merged) => {
                self.merge_window = None;
                self.set_session(merged);
                self.info(format!("Merged into {}, verified", to.display()));
            }
            Err(err) => self.error(err),
        }
    }

    fn open_whole_bundle(&mut self, file: &std::path::Path, to: &std::path::Path) {
        let made = crate::session::read_bundle_file(file)
            .and_then(|bytes| Session::create_from_bundle(to, &bytes));
        match made {
            Ok(session) => {
                self.bundles_window = None;
                self.set_session(session);
                self.info(format!("Made {} from the bundle", to.display()));
            }
            Err(err) => self.error(err),
        }
    }

    /// Writes a gang, or every gang, to a bundle file: atomically, never
    /// over the campaign, over another file only when asked.
    fn export_bundle(
        &mut self,
        gang: Option<&str>,
        whole: bool,
        to: &std::path::Path,
        replace: bool,
    ) {
        let Some(session) = &self.session else {
            return;
        };
        let bundle = if whole {
            session.export_whole_bundle()
        } else {
            gang.map(|g| session.gang_named(g).map(|g| g.id))
                .transpose()
                .and_then(|id| session.export_bundle(id))
        };
        let bytes = bundle.and_then(|b| Ok(serde_json::to_vec_pretty(&b)?));
        let existing = if replace {
            crate::output::Existing::Replace
        } else {
            crate::output::Existing::Refuse
        };
        let written = bytes.and_then(|bytes| {
            Ok(crate::output::write(
                to,
                &bytes,
                existing,
                Some(session.path()),
            )?)
        });
        match written {
            Ok(()) => self.info(format!("Bundle written to {}", to.display())),
            Err(err) => self.error(err),
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
                self.backups_window = Some(super::backups_view::BackupsWindow::new(
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

    /// Writes the group's data to a file of theirs, atomically, never over
    /// the campaign, and over another file only when asked.
    fn save_house_draft(&mut self, text: &str, path: &std::path::Path, replace: bool) {
        let existing = if replace {
            crate::output::Existing::Replace
        } else {
            crate::output::Existing::Refuse
        };
        let campaign = self.session.as_ref().map(|s| s.path().to_owned());
        match crate::output::write(path, text.as_bytes(), existing, campaign.as_deref()) {
            Ok(()) => self.info(format!("Saved the group's data to {}", path.display())),
            Err(err) => self.error(err.into()),
        }
    }

    /// Rolls a check of a fighter's sheet with a new seed; the result shows
    /// under it. Nothing in the campaign changes.
    fn roll_check(
        &mut self,
        fighter: crate::campaign::FighterId,
        check: &str,
        option: Option<&str>,
        modifier: i32,
    ) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let seed = crate::dice::seed_from_clock();
        let rolled = match option {
            Some(option) => session.roll_fighter_check_as(fighter, check, option, seed, modifier),
            None => session.roll_fighter_check(fighter, check, seed, modifier),
        };
        match rolled {
            Ok(rolled) => {
                let raised = rolled.raised.is_some();
                self.editor.rolled = Some(rolled);
                if raised {
                    self.refresh();
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// Pushes the rolled pool: one change (the stress raised) that undo
    /// takes back.
    fn push_check(&mut self, rolled: &crate::session::CheckRolled) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let Some(fighter) = self.state.selected_fighter else {
            return;
        };
        match session.push_fighter_check(fighter, rolled) {
            Ok(pushed) => {
                self.info(format!("{} pushed {}", pushed.fighter, pushed.check.label));
                self.editor.rolled = Some(pushed);
            }
            Err(err) => self.error(err),
        }
        self.refresh();
    }

    pub fn run_action(&mut self, action: Action) {
        match action {
            Action::SelectGang(id) => {
                self.state.selected_gang = Some(id);
                self.state.selected_fighter = None;
                self.refresh();
            }
            Action::SelectFighter(id) => {
                self.state.selected_fighter = id;
                self.refresh();
            }
            Action::FoundGang { name, ruleset } => {
                let mut founded = None;
                let ok = self.change(&format!("Founded {name}"), |s| {
                    let (id, batch) = s.found_gang(&name, Some(&ruleset))?;
                    founded = Some(id);
                    Ok(batch)
                });
                if ok {
                    self.found_form.name.clear();
                    self.state.selected_gang = founded;
                    self.state.selected_fighter = None;
                    self.refresh();
                }
            }
            Action::RenameGang(id, name) => {
                let gang = self.words().gang;
                self.change(&format!("Renamed the {gang} {name}"), |s| {
                    s.rename_gang(id, &name)
                });
            }
            Action::SetGangNotes(id, notes) => {
                let gang = crate::text::capitalised(&self.words().gang);
                self.change(&format!("{gang} notes saved"), |s| {
                    s.set_gang_notes(id, &notes)
                });
            }
            Action::AskResource {
                gang,
                resource,
                delta,
            } => {
                self.dialogs.resource = Some(ResourceDialog::new(gang, resource, delta));
            }
            Action::AdjustResource {
                gang,
                resource,
                delta,
                reason,
            } => {
                if self.change("Resource changed", |s| {
                    s.adjust_resource(gang, &resource, delta, &reason)
                }) {
                    self.dialogs.resource = None;
                }
            }
            Action::Recruit { gang, name, buy } => {
                let mut recruited = None;
                let ok = self.change(&format!("Recruited {name}"), |s| {
                    let new = NewFighter {
                        name: name.clone(),
                        ..NewFighter::default()
                    };
                    let outcome = if buy {
                        s.buy_recruit(gang, new)?
                    } else {
                        s.recruit(gang, new)?
                    };
                    recruited = s
                        .fighters(gang)?
                        .into_iter()
                        .find(|f| f.name == name.trim())
                        .map(|f| f.id);
                    Ok(outcome.batch)
                });
                if ok {
                    self.recruit_form.name.clear();
                    self.state.selected_fighter = recruited;
                    self.refresh();
                }
            }
            Action::RenameFighter(id, name) => {
                self.change(&format!("Renamed {name}"), |s| s.rename_fighter(id, &name));
            }
            Action::SetLeader(id, leader) => {
                let said = format!("{} changed", crate::text::capitalised(&self.words().leader));
                self.change(&said, |s| s.set_leader(id, leader));
            }
            Action::BuyQuirk(id, pick) => {
                self.change("Bought", |s| s.buy_quirk(id, pick));
            }
            Action::SetQuirks(id, quirks) => {
                let said = format!(
                    "{} changed",
                    crate::text::capitalised(&self.words().entries)
                );
                self.change(&said, |s| s.set_quirks(id, quirks));
            }
            Action::SetBaseStat {
                fighter,
                stat,
                value,
            } => {
                self.change("Base stat changed", |s| {
                    s.set_base_stat(fighter, &stat, value)
                });
            }
            Action::SetCounter {
                fighter,
                counter,
                value,
            } => {
                self.change("Changed by hand", |s| {
                    s.set_counter(fighter, &counter, value, "set by hand in the editor")
                });
            }
            Action::SetFighterNotes(id, notes) => {
                self.change("Notes saved", |s| s.set_fighter_notes(id, &notes));
            }
            Action::RollCheck {
                fighter,
                check,
                option,
                modifier,
            } => self.roll_check(fighter, &check, option.as_deref(), modifier),
            Action::OpenBundles => self.bundles_window = Some(Default::default()),
            Action::CloseBundles => self.bundles_window = None,
            Action::ExportBundle {
                gang,
                whole,
                to,
                replace,
            } => self.export_bundle(gang.as_deref(), whole, &to, replace),
            Action::OpenWholeBundle { file, to } => self.open_whole_bundle(&file, &to),
            Action::SetBackupPolicy(policy) => self.set_backup_policy(policy),
            Action::OpenMerge => self.merge_window = Some(Default::default()),
            Action::CloseMerge => self.merge_window = None,
            Action::OpenLeague => {
                self.league_window = Some(Default::default());
                // Opening the window asks the server what waits there.
                if let Some(session) = &self.session
                    && let Ok(status) = session.league_status(true)
                {
                    self.league_offline = status.offline.clone();
                    self.league_status = Some(status);
                }
            }
            Action::CloseLeague => self.league_window = None,
            Action::LeagueSync(choices) => self.league_sync(&choices),
            Action::LeagueMembers => self.league_members(),
            Action::LeagueJoin { invite, to } => self.league_join(&invite, &to),
            Action::LookAtMerge(other) => self.look_at_merge(&other),
            Action::WriteMerge(to) => self.write_merge(&to),
            Action::ImportBundle { file, renamed } => self.import_bundle(&file, &renamed),
            Action::OpenBackups => self.open_backups(),
            Action::CloseBackups => self.backups_window = None,
            Action::MakeBackup => {
                if let (Some(session), Some(folder)) = (&self.session, self.backups.clone()) {
                    match session.make_backup(&folder, self.backup_policy) {
                        Ok((made, _)) => self.info(format!("Backup made: {}", made.path.display())),
                        Err(err) => self.error(err),
                    }
                }
                self.open_backups();
            }
            Action::RestoreBackup { backup, to } => {
                match crate::session::restore_backup(&backup, &to) {
                    Ok(()) => self.info(format!("Restored as {}", to.display())),
                    Err(err) => self.error(err),
                }
            }
            Action::OpenHouseEditor => {
                if let Some(session) = &self.session {
                    let kept = self.state.house.first().map(|p| p.id.clone());
                    self.house_editor.open_on(session, kept.as_deref());
                }
            }
            Action::KeepHouseDraft { draft, play } => {
                let what = if play {
                    "The group's data kept and played"
                } else {
                    "The group's data kept"
                };
                self.change(what, |s| s.keep_draft(&draft, play).map(|(batch, _)| batch));
            }
            Action::SaveHouseDraft {
                text,
                path,
                replace,
            } => self.save_house_draft(&text, &path, replace),
            Action::PushCheck(rolled) => self.push_check(&rolled),
            Action::SetSetting { setting, option } => {
                self.change("Setting chosen", |s| {
                    s.set_setting(&setting, &option).map(|(batch, _)| batch)
                });
            }
            Action::Dismiss(id) => {
                // Said with the way back: undo brings them back.
                let name = self
                    .state
                    .gang_view
                    .as_ref()
                    .and_then(|v| v.fighters.iter().find(|f| f.id == id))
                    .map_or_else(|| self.words().fighter, |f| f.name.clone());
                let said = format!("Dismissed {name}: Edit ▸ Undo brings them back");
                self.change(&said, |s| s.dismiss(id));
            }
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::ShowLog(show) => self.show_log = show,
            Action::ShowScreen(screen) => {
                self.screen = screen;
                self.welcome = false;
                self.refresh();
            }
            Action::RecordBattle(report, seed) => {
                let mut recorded = None;
                // What the screen shows is what is written: its preview,
                // worked out again only if the campaign changed since.
                let preview = match self.battle_form.preview.take() {
                    Some(Ok(p)) if p.is_for(&report, seed) => Some(p),
                    _ => None,
                };
                self.battle_form.dirty = true;
                let ok = self.change("Recorded", |s| {
                    let r = match preview {
                        Some(p) => s.record_preview(p)?,
                        None => s.record_battle(&report, seed)?,
                    };
                    recorded = Some((r.battle, s.record_noun(&r.procedure.battle.ruleset)));
                    r.batch
                        .ok_or_else(|| anyhow::anyhow!("the record was not written"))
                });
                if ok {
                    self.battle_form = BattleForm::default();
                    if let Some((id, noun)) = recorded {
                        let title = crate::text::capitalised(&noun);
                        self.info(format!("{title} #{id} recorded (Ctrl+Z takes it back)"));
                    }
                    self.screen = Screen::Roster;
                    self.refresh();
                }
            }
            Action::AskAction(gang) => self.dialogs.action = Some(ActionDialog::new(gang)),
            Action::AskRansom(fighter) => {
                let Some(session) = &self.session else {
                    return;
                };
                match self.state.read_captive(session, fighter) {
                    Ok(()) => self.dialogs.ransom = Some(RansomDialog::new(fighter)),
                    Err(err) => self.error(err),
                }
            }
            Action::Ransom {
                fighter,
                resource,
                amount,
            } => {
                if self.change("Ransom paid", |s| s.ransom(fighter, &resource, amount)) {
                    self.dialogs.ransom = None;
                    self.state.captive = None;
                } else if let (Some(dialog), Some(status)) =
                    (&mut self.dialogs.ransom, &self.status)
                {
                    dialog.error = Some(status.text.clone());
                }
            }
            Action::Release(fighter) => {
                self.change("Captive released", |s| s.release(fighter));
            }
            Action::RollScenario { a, b } => {
                let seed = crate::dice::seed_from_clock();
                let mut rolled = None;
                let ok = self.change("Scenario rolled", |s| {
                    let r = s.roll_scenario(a, b, seed)?;
                    let batch = r.batch;
                    rolled = Some(r);
                    Ok(batch)
                });
                if let (true, Some(r)) = (ok, rolled) {
                    self.battle_form.scenario = r.scenario.clone();
                    self.battle_form.wants_roles = true;
                    self.battle_form.dirty = true;
                    self.info(format!(
                        "{} [{}]: {} (Ctrl+Z takes the roll back)",
                        r.roll.expression, r.roll.total, r.name
                    ));
                }
            }
            Action::OpenDemo(path, ruleset) => {
                let opened = if path.exists() {
                    Session::open(&path)
                } else {
                    std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
                        .map_err(anyhow::Error::from)
                        .and_then(|()| match &ruleset {
                            Some(r) => Session::create_demo_of(&path, r),
                            None => Session::create_demo(&path),
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
            Action::ChooseTitle { gang, title } => {
                self.change("Title chosen", |s| s.choose_title(gang, &title));
            }
            Action::RemoveLasting { effect, reason } => {
                self.change("Lasting effect removed", |s| {
                    s.remove_lasting(effect, &reason)
                });
            }
            Action::OpenPrint { gang, roster } => {
                let dir = self.output_dir();
                let name = gang
                    .and_then(|g| self.state.gangs.iter().find(|x| x.id == g))
                    .map_or("Campaign".to_owned(), |g| g.name.clone());
                let mut dialog = PrintDialog::new(gang, roster, dir, &name);
                // The size the gang's pack prints on (a party's sheets).
                if let Some(Ok(size)) = self.session.as_ref().map(|s| s.card_size(gang)) {
                    dialog.request.size = size;
                }
                self.dialogs.print = Some(dialog);
            }
            Action::ClosePrint => self.dialogs.print = None,
            Action::ChooseFile(field) => self.choose_file(field),
            Action::SavePdf { path, replace } => self.save_pdf(&path, replace),
            Action::CloseReplace => self.dialogs.replace = None,
            Action::OpenFile(path) => {
                if let Err(err) = open_with_desktop(&path) {
                    self.error(err);
                }
            }
            Action::SetPhoto(fighter, path) => {
                let bytes = match &path {
                    Some(p) => match std::fs::read(p) {
                        Ok(b) => Some(b),
                        Err(e) => {
                            self.error(anyhow::anyhow!("cannot read {}: {e}", p.display()));
                            return;
                        }
                    },
                    None => None,
                };
                self.change("Photo changed", |s| s.set_photo(fighter, bytes.as_deref()));
            }
            Action::CloseArc(arc, reason) => {
                self.change("Arc closed", |s| s.close_arc(arc, &reason));
            }
            Action::WriteExport {
                path,
                replace,
                format,
                campaign,
                scope,
                chronicle,
            } => self.write_export(path, replace, format, campaign, scope, chronicle),
            Action::SetCampaignRuleset(ruleset) => {
                self.change("Ruleset changed", |s| s.set_campaign_ruleset(&ruleset));
            }
            Action::TakeAction {
                gang,
                action,
                target,
                choice,
            } => {
                let Some(session) = self.session.as_mut() else {
                    return;
                };
                match session.take_action(gang, &action, target, choice.as_deref()) {
                    Ok(_) => {
                        self.dialogs.action = None;
                        self.info("Resource action taken");
                        self.refresh();
                    }
                    Err(err) => {
                        if let Some(dialog) = &mut self.dialogs.action {
                            dialog.error = Some(format!("{err:#}"));
                        } else {
                            self.error(err);
                        }
                    }
                }
            }
            Action::Quit => self.quitting = true,
            Action::CloseCampaign => self.close_campaign(),
            Action::LeaveWelcome => self.welcome = false,
            Action::AskNewCampaign => {
                self.dialogs.new_campaign = Some(NewCampaignDialog::default());
            }
            Action::NameNewCampaign(name) => {
                self.dialogs.new_campaign = None;
                self.dialogs.new_name = Some(name);
                self.ask_path(super::dialogs::PathPurpose::New);
            }
            Action::DropHousePack(id) => {
                self.change("House rules taken out", |s| s.drop_house_pack(&id));
            }
            Action::AskPath(purpose) => self.ask_path(purpose),
            Action::UsePath(purpose, path) => self.use_path(purpose, &path),
        }
    }

    fn undo(&mut self) {
        self.step_history(false);
    }

    fn redo(&mut self) {
        self.step_history(true);
    }

    /// Takes back the newest change (or undo, for a redo) in the campaign
    /// log: the same history the command line's `undo` and `redo` use.
    fn step_history(&mut self, redo: bool) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let result = if redo {
            session.redo_last()
        } else {
            session.undo_last()
        };
        // A roll shown under a check may be what was just taken back.
        self.editor.rolled = None;
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

    /// Draws one frame and runs what the player asked for.
    pub fn frame_ui(&mut self, ui: &mut Ui) {
        if !self.fonts_installed {
            install_fonts(ui.ctx());
            self.fonts_installed = true;
        }
        self.poll_writer(ui.ctx());
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

        if !ui.ctx().egui_wants_keyboard_input() {
            let has = self.session.is_some();
            for command in ui.input_mut(pressed) {
                if has || !command.needs_campaign() {
                    actions.push(command.action(self.show_log));
                }
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

/// The vendored DejaVu Sans (see `assets/fonts/DejaVu-LICENSE.txt`): a
/// fallback for the symbols and the Greek and Cyrillic letters egui's own
/// fonts lack. Installed before any text is laid out in the first frame.
const FALLBACK_FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

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

fn install_fonts(ctx: &egui::Context) {
    let fallback = |name: String, data: egui::FontData| egui::epaint::text::FontInsert {
        name,
        data,
        families: [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
            .into_iter()
            .map(|family| egui::epaint::text::InsertFontFamily {
                family,
                priority: egui::epaint::text::FontPriority::Lowest,
            })
            .collect(),
    };
    ctx.add_font(fallback(
        "DejaVuSans".into(),
        egui::FontData::from_static(FALLBACK_FONT),
    ));
    // Then the system's fonts for the scripts DejaVu lacks (CJK, Indic…),
    // found at run time as printing finds them.
    for font in crate::print::system_fallbacks() {
        let mut data = egui::FontData::from_static(font.data);
        data.index = font.index;
        ctx.add_font(fallback(format!("system {}", font.name), data));
    }
}

impl eframe::App for RapsheetApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.frame_ui(ui);
        self.launch_probe.frame_shown(ui.ctx());
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        // Empty where the player closed the campaign: the welcome screen
        // is what the next start shows.
        let last = self
            .campaign_path()
            .or(self.ended_on.as_deref())
            .map_or_else(String::new, |p| p.display().to_string());
        storage.set_string(super::LAST_CAMPAIGN, last);
        let recent: Vec<String> = self
            .recent
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        storage.set_string(super::RECENT_CAMPAIGNS, recent.join("\n"));
        if let Some(dir) = &self.output_dir {
            storage.set_string(super::OUTPUT_DIR, dir.display().to_string());
        }
        storage.set_string(super::BACKUP_POLICY, self.backup_policy.to_setting());
    }
}
