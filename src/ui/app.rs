//! The app shell: menus, panels, shortcuts, and the runner that turns the
//! views' actions into session commands after each frame.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui::{RichText, Ui};

pub use super::action::{Action, Screen};
use super::action::{
    NEW_CAMPAIGN, OPEN_CAMPAIGN, QUIT, REDO, SAVE_AS, SCREENS, UNDO, shortcut_actions,
};
use super::chronicle_view::{ChronicleView, chronicle_ui};
use super::dialogs::{
    ActionDialog, PathDialog, PathPurpose, RansomDialog, ResourceDialog, action_dialog_ui,
    ransom_dialog_ui, replace_prompt_ui, resource_dialog_ui,
};
use super::fighter_editor::{FighterEditor, fighter_editor_ui};
use super::gang_list::{FoundGangForm, gang_list_ui};
use super::log_view::{LogView, log_ui};
use super::post_battle::{BattleForm, BattleGangData, post_battle_ui};
use super::print_dialog::{PrintDialog, print_dialog_ui};
use super::roster::{RecruitForm, roster_ui};
use super::titles_view::titles_ui;
use crate::campaign::commands::NewFighter;
use crate::campaign::{BatchId, FighterId, GangId};
use crate::dice::Dice;
use crate::session::{GangSummary, GangView, Pick, PrintJob, PrintOrder, Session, TitlesView};

/// What a background write makes.
#[derive(Debug, Clone, Copy)]
enum Written {
    Pdf,
    Export,
}

/// A file being rendered and written on a worker thread.
struct BackgroundWrite {
    what: Written,
    path: PathBuf,
    receive: std::sync::mpsc::Receiver<Result<(), String>>,
}

/// What a background write needs to write its file safely.
struct OutputGuard {
    campaign: Option<PathBuf>,
    existing: crate::output::Existing,
}

impl OutputGuard {
    fn write(&self, path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
        Ok(crate::output::write(
            path,
            bytes,
            self.existing,
            self.campaign.as_deref(),
        )?)
    }
}

/// A line in the status bar.
#[derive(Debug, Clone)]
struct Status {
    text: String,
    error: bool,
}

/// The whole app.
pub struct RapsheetApp {
    session: Option<Session>,
    /// Why no campaign is open, when none is.
    open_error: Option<String>,
    gangs: Vec<GangSummary>,
    selected_gang: Option<GangId>,
    gang_view: Option<GangView>,
    selected_fighter: Option<FighterId>,
    found_form: FoundGangForm,
    recruit_form: RecruitForm,
    editor: FighterEditor,
    resource_dialog: Option<ResourceDialog>,
    path_dialog: Option<PathDialog>,
    /// Set once the desktop showed it has no file dialog.
    no_native_dialog: bool,
    /// What undo and redo would take back: the campaign log's, read once
    /// per change.
    history: crate::session::History,
    show_log: bool,
    log_view: LogView,
    writer: Option<BackgroundWrite>,
    status: Option<Status>,
    dice: Dice,
    fonts_installed: bool,
    /// Campaigns opened lately, newest first.
    recent: Vec<PathBuf>,
    screen: Screen,
    battle_form: BattleForm,
    battle_data: Vec<BattleGangData>,
    titles: Option<TitlesView>,
    action_dialog: Option<ActionDialog>,
    ransom_dialog: Option<RansomDialog>,
    print_dialog: Option<PrintDialog>,
    chronicle_view: ChronicleView,
    chronicle: Option<crate::campaign::chronicle::Chronicle>,
    /// A file about to be replaced, and what replaces it, while the player
    /// is asked.
    replace_prompt: Option<(PathBuf, Box<Action>)>,
    /// The campaign's name and default pack, and the names events refer
    /// to: read once per change, never per frame.
    info: Option<crate::campaign::CampaignInfo>,
    names: crate::campaign::Names,
    /// The chronicle as shown (the whole campaign or one arc), for the arc
    /// it was cut for.
    chronicle_shown: Option<(Option<usize>, crate::campaign::chronicle::Chronicle)>,
}

/// How many recent campaigns the File menu keeps.
const RECENT: usize = 8;

impl RapsheetApp {
    /// Opens `path` (creating an empty campaign there if no file exists), or
    /// the demo in the platform data directory (created on first run).
    pub fn start(path: Option<PathBuf>) -> Self {
        let mut app = Self::empty();
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

    /// The app on an open session (tests build it this way).
    pub fn with_session(session: Session) -> Self {
        let mut app = Self::empty();
        app.set_session(session);
        app
    }

    fn empty() -> Self {
        let seed = crate::dice::seed_from_clock();
        Self {
            session: None,
            open_error: None,
            gangs: Vec::new(),
            selected_gang: None,
            gang_view: None,
            selected_fighter: None,
            found_form: FoundGangForm::default(),
            recruit_form: RecruitForm::default(),
            editor: FighterEditor::default(),
            resource_dialog: None,
            path_dialog: None,
            no_native_dialog: false,
            history: Default::default(),
            show_log: false,
            log_view: LogView::default(),
            writer: None,
            status: None,
            dice: Dice::seeded(seed),
            fonts_installed: false,
            recent: Vec::new(),
            screen: Screen::default(),
            battle_form: BattleForm::default(),
            battle_data: Vec::new(),
            titles: None,
            action_dialog: None,
            ransom_dialog: None,
            print_dialog: None,
            chronicle_view: ChronicleView::default(),
            chronicle: None,
            replace_prompt: None,
            info: None,
            names: Default::default(),
            chronicle_shown: None,
        }
    }

    /// Remembers campaigns opened before (newest first), for the File menu.
    pub fn set_recent(&mut self, recent: Vec<PathBuf>) {
        let current = self.campaign_path().map(Path::to_owned);
        self.recent = current.into_iter().chain(recent).collect();
        self.recent.dedup();
        let mut seen = std::collections::BTreeSet::new();
        self.recent.retain(|p| seen.insert(p.clone()));
        self.recent.truncate(RECENT);
    }

    fn set_session(&mut self, session: Session) {
        let path = session.path().to_owned();
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT);
        self.session = Some(session);
        self.open_error = None;
        self.selected_gang = None;
        self.selected_fighter = None;
        self.refresh_history();
        self.refresh_gang_list();
        self.selected_gang = self.gangs.first().map(|g| g.id);
        self.refresh_views();
    }

    /// The open campaign's path.
    pub fn campaign_path(&self) -> Option<&Path> {
        self.session.as_ref().map(|s| s.path())
    }

    /// The gang shown now, as shown.
    pub fn gang_view(&self) -> Option<&GangView> {
        self.gang_view.as_ref()
    }

    /// The picks the battle form still needs, as the labels of their
    /// buttons (`Neon Jackals: Supply 1`), first choice first.
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
                                &procedure.battle.scenario,
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

    /// Re-reads the view models from the store after a change.
    fn refresh(&mut self) {
        self.refresh_history();
        self.refresh_gang_list();
        if self
            .selected_gang
            .is_some_and(|id| !self.gangs.iter().any(|g| g.id == id))
        {
            self.selected_gang = self.gangs.first().map(|g| g.id);
        }
        self.refresh_views();
    }

    /// What undo and redo would take back now.
    fn refresh_history(&mut self) {
        let Some(session) = &self.session else {
            self.history = Default::default();
            return;
        };
        match session.history() {
            Ok(history) => self.history = history,
            Err(err) => self.error(err),
        }
    }

    /// The gang list, each gang with its size and legality.
    fn refresh_gang_list(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        match session.gang_list() {
            Ok(gangs) => self.gangs = gangs,
            Err(err) => self.error(err),
        }
    }

    /// Everything shown of the selected gang and fighter, and the battle
    /// screen's rosters.
    fn refresh_views(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        self.gang_view = match self.selected_gang.map(|id| session.gang_view(id)) {
            Some(Ok(view)) => Some(view),
            Some(Err(err)) => {
                self.error(err);
                None
            }
            None => None,
        };
        let fighter_here = self.gang_view.as_ref().is_some_and(|v| {
            v.fighters
                .iter()
                .any(|f| Some(f.id) == self.selected_fighter)
        });
        if !fighter_here {
            self.selected_fighter = None;
        }
        let view = self.selected_fighter_view().cloned();
        self.editor.sync(view.as_ref());
        self.refresh_battle_data();
        self.chronicle = None;
        self.chronicle_shown = None;
        if let Some(session) = &self.session {
            self.info = session.info().ok();
            self.names = session.names().unwrap_or_default();
        }
    }

    /// Rosters for the battle form and the titles panel.
    fn refresh_battle_data(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        let data: anyhow::Result<Vec<BattleGangData>> = self
            .gangs
            .iter()
            .map(|g| {
                // Only fighters who can take part: not the wounded, the
                // captives, or those gone.
                let fighters = session
                    .roster(g.id)?
                    .into_iter()
                    .filter(|f| f.status.can_fight())
                    .map(|f| (f.id, f.name))
                    .collect();
                Ok(BattleGangData {
                    id: g.id,
                    name: g.name.clone(),
                    ruleset: g.ruleset.clone(),
                    fighters,
                })
            })
            .collect();
        let titles = session
            .info()
            .and_then(|i| session.titles(&i.default_ruleset));
        match (data, titles) {
            (Ok(data), Ok(titles)) => {
                self.battle_data = data;
                self.titles = Some(titles);
            }
            (Err(err), _) | (_, Err(err)) => self.error(err),
        }
        self.battle_form.dirty = true;
    }

    /// Reruns the procedure on the battle form, and suggests roles from the
    /// two gangs' previous battle.
    fn update_battle_preview(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        let form = &mut self.battle_form;
        // Start with the gang on screen against the next gang of its ruleset.
        if form.gangs == [None, None] {
            let first = self
                .selected_gang
                .and_then(|id| self.gangs.iter().find(|g| g.id == id))
                .or(self.gangs.first());
            if let Some(first) = first {
                let second = self
                    .gangs
                    .iter()
                    .find(|g| g.id != first.id && g.ruleset == first.ruleset);
                form.gangs = [Some(first.id), second.map(|g| g.id)];
                form.wants_roles = true;
                form.dirty = true;
            }
        }
        if form.wants_roles {
            form.wants_roles = false;
            if let [Some(a), Some(b)] = form.gangs {
                match session.suggest_roles(&form.scenario, a, b) {
                    Ok(Some((ra, rb))) => form.roles = [Some(ra), Some(rb)],
                    Ok(None) => {}
                    Err(err) => form.preview = Some(Err(format!("{err:#}"))),
                }
            }
        }
        if !form.dirty {
            return;
        }
        form.dirty = false;
        if form.seed == 0 {
            form.seed = crate::dice::seed_from_clock();
        }
        let seed = form.seed;
        form.preview = form.report(&self.battle_data).map(|report| {
            session
                .preview_battle(&report, seed)
                .map_err(|e| format!("{e:#}"))
        });
    }

    fn selected_fighter_view(&self) -> Option<&crate::session::FighterView> {
        let id = self.selected_fighter?;
        self.gang_view
            .as_ref()?
            .fighters
            .iter()
            .find(|f| f.id == id)
    }

    fn info(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            error: false,
        });
    }

    fn error(&mut self, err: anyhow::Error) {
        self.status = Some(Status {
            text: format!("{err:#}"),
            error: true,
        });
    }

    fn read_only(&self) -> Option<String> {
        match &self.session {
            Some(s) => s.read_only_reason().map(str::to_owned),
            None => Some("no campaign is open".to_owned()),
        }
    }

    /// Runs a command that writes one batch; on success it becomes the
    /// newest undo step and the redo stack is cleared.
    fn change(
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

    /// Runs one action. Public so tests can drive the app as a view would.
    pub fn run_action(&mut self, action: Action) {
        match action {
            Action::SelectGang(id) => {
                self.selected_gang = Some(id);
                self.selected_fighter = None;
                self.refresh();
            }
            Action::SelectFighter(id) => {
                self.selected_fighter = id;
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
                    self.selected_gang = founded;
                    self.selected_fighter = None;
                    self.refresh();
                }
            }
            Action::RenameGang(id, name) => {
                self.change(&format!("Renamed the gang {name}"), |s| {
                    s.rename_gang(id, &name)
                });
            }
            Action::SetGangNotes(id, notes) => {
                self.change("Gang notes saved", |s| s.set_gang_notes(id, &notes));
            }
            Action::AskResource {
                gang,
                resource,
                delta,
            } => {
                self.resource_dialog = Some(ResourceDialog::new(gang, resource, delta));
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
                    self.resource_dialog = None;
                }
            }
            Action::Recruit { gang, name } => {
                let mut recruited = None;
                let ok = self.change(&format!("Recruited {name}"), |s| {
                    let outcome = s.recruit(
                        gang,
                        NewFighter {
                            name: name.clone(),
                            ..NewFighter::default()
                        },
                    )?;
                    recruited = s
                        .roster(gang)?
                        .into_iter()
                        .find(|f| f.name == name.trim())
                        .map(|f| f.id);
                    Ok(outcome.batch)
                });
                if ok {
                    self.recruit_form.name.clear();
                    self.selected_fighter = recruited;
                    self.refresh();
                }
            }
            Action::RenameFighter(id, name) => {
                self.change(&format!("Renamed {name}"), |s| s.rename_fighter(id, &name));
            }
            Action::SetLeader(id, leader) => {
                self.change("Leader changed", |s| s.set_leader(id, leader));
            }
            Action::SetQuirks(id, quirks) => {
                self.change("Quirks changed", |s| s.set_quirks(id, quirks));
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
                    s.set_counter(
                        fighter,
                        &counter,
                        value,
                        "set by hand in the fighter editor",
                    )
                });
            }
            Action::SetFighterNotes(id, notes) => {
                self.change("Notes saved", |s| s.set_fighter_notes(id, &notes));
            }
            Action::Dismiss(id) => {
                self.change("Fighter dismissed", |s| s.dismiss(id));
            }
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::ShowLog(show) => self.show_log = show,
            Action::ShowScreen(screen) => {
                self.screen = screen;
                self.refresh();
            }
            Action::RecordBattle(report, seed) => {
                let mut recorded = None;
                let ok = self.change("Battle recorded", |s| {
                    let r = s.record_battle(&report, seed)?;
                    recorded = Some(r.battle);
                    r.batch
                        .ok_or_else(|| anyhow::anyhow!("the battle was not written"))
                });
                if ok {
                    self.battle_form = BattleForm::default();
                    if let Some(id) = recorded {
                        self.info(format!("Battle #{id} recorded (Ctrl+Z takes it back)"));
                    }
                    self.screen = Screen::Roster;
                    self.refresh();
                }
            }
            Action::AskAction(gang) => self.action_dialog = Some(ActionDialog::new(gang)),
            Action::AskRansom(fighter) => self.ransom_dialog = Some(RansomDialog::new(fighter)),
            Action::Ransom {
                fighter,
                resource,
                amount,
            } => {
                if self.change("Ransom paid", |s| s.ransom(fighter, &resource, amount)) {
                    self.ransom_dialog = None;
                } else if let (Some(dialog), Some(status)) = (&mut self.ransom_dialog, &self.status)
                {
                    dialog.error = Some(status.text.clone());
                }
            }
            Action::Release(fighter) => {
                self.change("Captive released", |s| s.release(fighter));
            }
            Action::RemoveLasting { effect, reason } => {
                self.change("Lasting effect removed", |s| {
                    s.remove_lasting(effect, &reason)
                });
            }
            Action::OpenPrint { gang, roster } => {
                let dir = self
                    .campaign_path()
                    .and_then(Path::parent)
                    .map(Path::to_owned)
                    .unwrap_or_default();
                let name = gang
                    .and_then(|g| self.gangs.iter().find(|x| x.id == g))
                    .map_or("Campaign".to_owned(), |g| g.name.clone());
                self.print_dialog = Some(PrintDialog::new(gang, roster, dir, &name));
            }
            Action::ClosePrint => self.print_dialog = None,
            Action::AskPdfPath => {
                let picked = rfd::FileDialog::new()
                    .add_filter("PDF", &["pdf"])
                    .set_title("Save PDF")
                    .save_file();
                if let (Some(path), Some(dialog)) = (picked, &mut self.print_dialog) {
                    dialog.path = path.display().to_string();
                }
            }
            Action::SavePdf { path, replace } => self.save_pdf(&path, replace),
            Action::CloseReplace => self.replace_prompt = None,
            Action::OpenFile(path) => {
                if let Err(err) = open_with_desktop(&path) {
                    self.error(err);
                }
            }
            Action::AskPhoto(fighter) => {
                let picked = rfd::FileDialog::new()
                    .add_filter("Photo", &["png", "jpg", "jpeg"])
                    .set_title("Choose a photo")
                    .pick_file();
                if let Some(path) = picked {
                    self.run_action(Action::SetPhoto(fighter, Some(path)));
                } else {
                    self.info("No photo chosen: type its path in the fighter editor instead");
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
            Action::AskExportPath => {
                if let Some(path) = rfd::FileDialog::new()
                    .set_title("Export the chronicle")
                    .save_file()
                {
                    self.chronicle_view.path = path.display().to_string();
                }
            }
            Action::WriteExport {
                path,
                replace,
                format,
                campaign,
                scope,
                chronicle,
            } => {
                if !replace && path.symlink_metadata().is_ok() {
                    let again = Action::WriteExport {
                        path: path.clone(),
                        replace: true,
                        format,
                        campaign,
                        scope,
                        chronicle,
                    };
                    self.replace_prompt = Some((path, Box::new(again)));
                    return;
                }
                let guard = self.output_guard(replace);
                self.write_in_background(Written::Export, path, move |target| {
                    let export = crate::export::Export {
                        campaign: &campaign,
                        scope,
                        chronicle: &chronicle,
                    };
                    let bytes = crate::export::render(&export, format)?;
                    guard.write(target, &bytes)
                });
            }
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
                        self.action_dialog = None;
                        self.info("Resource action taken");
                        self.refresh();
                    }
                    Err(err) => {
                        if let Some(dialog) = &mut self.action_dialog {
                            dialog.error = Some(format!("{err:#}"));
                        } else {
                            self.error(err);
                        }
                    }
                }
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

    /// The cards or roster the print window asks for.
    fn print_request(&self) -> anyhow::Result<PrintJob> {
        let Some(session) = &self.session else {
            anyhow::bail!("no campaign is open");
        };
        let Some(dialog) = &self.print_dialog else {
            anyhow::bail!("nothing to print");
        };
        let request = &dialog.request;
        session.print_job(&PrintOrder {
            gang: request.gang,
            fighters: Pick::Ids(request.fighters.clone()),
            blanks: request.blanks,
            roster: request.roster,
            page: request.page,
            style: crate::print::CardStyle {
                size: request.size,
                write_in: request.write_in,
            },
        })
    }

    /// Lays out the print window's first page when its options changed.
    fn update_print_preview(&mut self) {
        let Some(dialog) = &self.print_dialog else {
            return;
        };
        if !dialog.dirty {
            return;
        }
        let pages = self
            .print_request()
            .and_then(|job| Ok((job.pages()?, job.warnings()?)));
        if let Some(dialog) = &mut self.print_dialog {
            dialog.dirty = false;
            match pages {
                Ok((pages, warnings)) => {
                    dialog.warnings = warnings.iter().map(ToString::to_string).collect();
                    dialog.pages = pages.len();
                    dialog.preview = pages.into_iter().next().map(Ok);
                }
                Err(err) => dialog.preview = Some(Err(format!("{err:#}"))),
            }
        }
    }

    fn save_pdf(&mut self, path: &Path, replace: bool) {
        let path = if path.extension().is_none() {
            path.with_extension("pdf")
        } else {
            path.to_owned()
        };
        if !replace && path.symlink_metadata().is_ok() {
            let again = Action::SavePdf {
                path: path.clone(),
                replace: true,
            };
            self.replace_prompt = Some((path, Box::new(again)));
            return;
        }
        let guard = self.output_guard(replace);
        if self.print_dialog.is_none() {
            return;
        }
        // The campaign is read here; the PDF is laid out, drawn and written
        // on a worker thread, so a large print never freezes the window.
        let job = match self.print_request() {
            Ok(job) => job,
            Err(err) => {
                if let Some(dialog) = &mut self.print_dialog {
                    dialog.error = Some(format!("{err:#}"));
                }
                return;
            }
        };
        let started = self.write_in_background(Written::Pdf, path.clone(), move |target| {
            let bytes = job.pdf()?;
            guard.write(target, &bytes)
        });
        if started && let Some(dialog) = &mut self.print_dialog {
            dialog.writing = Some(path);
            dialog.written = None;
            dialog.error = None;
        }
    }

    /// How the next output is written: never over the open campaign, and
    /// over an existing file only when the player agreed.
    fn output_guard(&self, replace: bool) -> OutputGuard {
        OutputGuard {
            campaign: self.session.as_ref().map(|s| s.path().to_owned()),
            existing: if replace {
                crate::output::Existing::Replace
            } else {
                crate::output::Existing::Refuse
            },
        }
    }

    /// Runs `work` (render and write the file at `path`) on a worker
    /// thread; the frame polls for its end and the status bar shows a
    /// spinner. One at a time: returns false, and says so, while another
    /// file is still being written.
    fn write_in_background(
        &mut self,
        what: Written,
        path: PathBuf,
        work: impl FnOnce(&Path) -> anyhow::Result<()> + Send + 'static,
    ) -> bool {
        if self.writer.is_some() {
            self.info("Another file is still being written; try again when it is saved");
            return false;
        }
        let (send, receive) = std::sync::mpsc::channel();
        let target = path.clone();
        std::thread::spawn(move || {
            // The window may have closed meanwhile; nobody to tell.
            let _ = send.send(work(&target).map_err(|e| format!("{e:#}")));
        });
        self.writer = Some(BackgroundWrite {
            what,
            path,
            receive,
        });
        true
    }

    /// Hears from the background writer, when one is running.
    fn poll_writer(&mut self, ctx: &egui::Context) {
        let Some(writer) = &self.writer else {
            return;
        };
        let result = match writer.receive.try_recv() {
            Ok(result) => result,
            Err(std::sync::mpsc::TryRecvError::Empty) => {
                ctx.request_repaint_after(Duration::from_millis(50));
                return;
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                Err("the writer stopped unexpectedly".to_owned())
            }
        };
        let Some(BackgroundWrite { what, path, .. }) = self.writer.take() else {
            return;
        };
        match (what, result) {
            (Written::Pdf, result) => {
                let dialog = self.print_dialog.as_mut();
                match (result, dialog) {
                    (Ok(()), Some(dialog)) => {
                        dialog.writing = None;
                        dialog.written = Some(path.clone());
                        self.info(format!("Saved {}", path.display()));
                    }
                    (Err(err), Some(dialog)) => {
                        dialog.writing = None;
                        dialog.error = Some(err);
                    }
                    (Ok(()), None) => self.info(format!("Saved {}", path.display())),
                    (Err(err), None) => self.error(anyhow::anyhow!(err)),
                }
            }
            (Written::Export, Ok(())) => self.info(format!("Exported {}", path.display())),
            (Written::Export, Err(err)) => {
                self.error(anyhow::anyhow!("{}: {err}", path.display()));
            }
        }
    }

    fn ask_path(&mut self, purpose: PathPurpose) {
        if !self.no_native_dialog {
            let started = Instant::now();
            let dir = self
                .campaign_path()
                .and_then(Path::parent)
                .map(Path::to_owned)
                .or_else(crate::paths::data_dir);
            let mut dialog = rfd::FileDialog::new()
                .add_filter("Rapsheet campaign", &[crate::session::EXTENSION])
                .set_title(purpose.title());
            if let Some(dir) = dir {
                dialog = dialog.set_directory(dir);
            }
            let picked = match purpose {
                PathPurpose::Open => dialog.pick_file(),
                PathPurpose::New | PathPurpose::SaveAs => dialog
                    .set_file_name(format!("campaign.{}", crate::session::EXTENSION))
                    .save_file(),
            };
            if let Some(path) = picked {
                self.use_path(purpose, &path);
                return;
            }
            // A desktop without a file dialog answers at once; a person who
            // cancels takes longer than this.
            if started.elapsed() > Duration::from_millis(300) {
                return;
            }
            self.no_native_dialog = true;
        }
        let start = self
            .campaign_path()
            .and_then(Path::parent)
            .map(Path::to_owned)
            .or_else(crate::paths::data_dir)
            .unwrap_or_default();
        self.path_dialog = Some(PathDialog::new(purpose, &start));
    }

    fn use_path(&mut self, purpose: PathPurpose, path: &Path) {
        let path = with_extension(path);
        let result = match purpose {
            PathPurpose::Open => Session::open(&path),
            PathPurpose::New => {
                let name = path
                    .file_stem()
                    .map_or("New campaign".into(), |s| s.to_string_lossy().into_owned());
                crate::campaign::demo::ruleset()
                    .map_err(Into::into)
                    .and_then(|default| Session::create(&path, &name, &default))
            }
            PathPurpose::SaveAs => match &self.session {
                Some(session) => session.save_as(&path),
                None => Err(anyhow::anyhow!("no campaign is open")),
            },
        };
        match result {
            Ok(session) => {
                let selected = self.selected_gang;
                self.set_session(session);
                if purpose == PathPurpose::SaveAs && selected.is_some() {
                    self.selected_gang = selected;
                    self.refresh();
                }
                self.path_dialog = None;
                self.info(format!("{} {}", purpose.done(), path.display()));
            }
            Err(err) => {
                if let Some(dialog) = &mut self.path_dialog {
                    dialog.error = Some(format!("{err:#}"));
                } else {
                    self.error(err);
                }
            }
        }
    }

    /// Draws one frame and runs what the player asked for.
    pub fn frame_ui(&mut self, ui: &mut Ui) {
        if !self.fonts_installed {
            install_fonts(ui.ctx());
            self.fonts_installed = true;
        }
        self.poll_writer(ui.ctx());
        let mut actions: Vec<Action> = Vec::new();
        let read_only = self.read_only();

        if !ui.ctx().egui_wants_keyboard_input() {
            let has_campaign = self.session.is_some();
            ui.input_mut(|i| {
                for (keys, action) in shortcut_actions() {
                    let needs_campaign = !matches!(action, Action::AskPath(PathPurpose::New))
                        && !matches!(action, Action::AskPath(PathPurpose::Open));
                    if (has_campaign || !needs_campaign) && i.consume_shortcut(&keys) {
                        actions.push(action);
                        break;
                    }
                }
            });
            if ui.input_mut(|i| i.consume_shortcut(&QUIT)) {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }

        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                self.menu_ui(ui, &mut actions);
            });
        });
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        if self.session.is_some() {
            egui::Panel::top("screens").show(ui, |ui| {
                ui.horizontal(|ui| {
                    for (screen, label, keys) in SCREENS {
                        if ui
                            .selectable_label(self.screen == screen, label)
                            .on_hover_text(ui.ctx().format_shortcut(&keys))
                            .clicked()
                        {
                            actions.push(Action::ShowScreen(screen));
                        }
                    }
                });
            });
        }
        if self.screen == Screen::Battle {
            self.update_battle_preview();
        }

        if self.session.is_none() {
            egui::CentralPanel::default().show(ui, |ui| self.welcome_ui(ui, &mut actions));
        } else {
            self.campaign_ui(ui, read_only.as_deref(), &mut actions);
        }

        if let Some(dialog) = &mut self.resource_dialog {
            let label = self
                .gang_view
                .as_ref()
                .and_then(|v| v.resources.iter().find(|r| r.id == dialog.resource))
                .map(|r| (r.label.clone(), r.amount));
            match resource_dialog_ui(ui.ctx(), dialog, label) {
                Some(Some(action)) => actions.push(action),
                Some(None) => self.resource_dialog = None,
                None => {}
            }
        }
        if let (Some(dialog), Some(session)) = (&mut self.action_dialog, &self.session) {
            let gang = self.gangs.iter().find(|g| g.id == dialog.gang).cloned();
            if let Some(gang) = gang
                && let Ok(pack) = session.pack(&gang.ruleset)
            {
                let resources: Vec<(String, i64)> = self
                    .gang_view
                    .as_ref()
                    .filter(|v| v.id == gang.id)
                    .map(|v| {
                        v.resources
                            .iter()
                            .map(|r| (r.label.clone(), r.amount))
                            .collect()
                    })
                    .unwrap_or_default();
                let others: Vec<(GangId, String)> = self
                    .gangs
                    .iter()
                    .filter(|g| g.id != gang.id && g.ruleset == gang.ruleset)
                    .map(|g| (g.id, g.name.clone()))
                    .collect();
                match action_dialog_ui(ui.ctx(), dialog, pack, &gang.name, &resources, &others) {
                    Some(Some(action)) => actions.push(action),
                    Some(None) => self.action_dialog = None,
                    None => {}
                }
            }
        }
        if let (Some(dialog), Some(session)) = (&mut self.ransom_dialog, &self.session) {
            let fighter = session.fighter(dialog.fighter).ok();
            let pack = fighter
                .as_ref()
                .and_then(|f| session.gang(f.gang).ok())
                .and_then(|g| session.pack(&g.ruleset).ok());
            if let (Some(fighter), Some(pack)) = (fighter, pack) {
                match ransom_dialog_ui(ui.ctx(), dialog, pack, &fighter.name) {
                    Some(Some(action)) => actions.push(action),
                    Some(None) => self.ransom_dialog = None,
                    None => {}
                }
            }
        }
        self.update_print_preview();
        if let Some(dialog) = &mut self.print_dialog {
            let fighters: Vec<(FighterId, String)> = dialog
                .request
                .gang
                .and_then(|g| self.battle_data.iter().find(|d| d.id == g))
                .map(|_| {
                    self.gang_view
                        .as_ref()
                        .filter(|v| Some(v.id) == dialog.request.gang)
                        .map(|v| v.fighters.iter().map(|f| (f.id, f.name.clone())).collect())
                        .unwrap_or_default()
                })
                .unwrap_or_default();
            if let Some(action) = print_dialog_ui(ui.ctx(), dialog, &fighters) {
                actions.push(action);
            }
        }
        if let Some((path, action)) = &self.replace_prompt {
            match replace_prompt_ui(ui.ctx(), path) {
                Some(true) => {
                    actions.push((**action).clone());
                    actions.push(Action::CloseReplace);
                }
                Some(false) => actions.push(Action::CloseReplace),
                None => {}
            }
        }
        if let Some(dialog) = &mut self.path_dialog {
            match dialog.ui(ui.ctx()) {
                Some(Some(action)) => actions.push(action),
                Some(None) => self.path_dialog = None,
                None => {}
            }
        }
        if self.show_log
            && let Some(session) = &self.session
            && let Some(action) = log_ui(ui.ctx(), &mut self.log_view, session)
        {
            actions.push(action);
        }

        for action in actions {
            self.run_action(action);
        }
    }

    fn menu_ui(&mut self, ui: &mut Ui, actions: &mut Vec<Action>) {
        ui.menu_button("File", |ui| {
            let ctx = ui.ctx().clone();
            let keys = |k| ctx.format_shortcut(k);
            let new = egui::Button::new("New campaign…").shortcut_text(keys(&NEW_CAMPAIGN));
            if ui.add(new).clicked() {
                actions.push(Action::AskPath(PathPurpose::New));
            }
            let open = egui::Button::new("Open campaign…").shortcut_text(keys(&OPEN_CAMPAIGN));
            if ui.add(open).clicked() {
                actions.push(Action::AskPath(PathPurpose::Open));
            }
            let has = self.session.is_some();
            let save_as = egui::Button::new("Save campaign as…").shortcut_text(keys(&SAVE_AS));
            if ui.add_enabled(has, save_as).clicked() {
                actions.push(Action::AskPath(PathPurpose::SaveAs));
            }
            ui.menu_button("Recent campaigns", |ui| {
                let current = self.campaign_path().map(Path::to_owned);
                let others: Vec<&PathBuf> = self
                    .recent
                    .iter()
                    .filter(|p| Some(*p) != current.as_ref())
                    .collect();
                if others.is_empty() {
                    ui.weak("None yet");
                }
                for path in others {
                    if ui.button(path.display().to_string()).clicked() {
                        actions.push(Action::UsePath(PathPurpose::Open, path.clone()));
                    }
                }
            });
            ui.separator();
            if ui
                .add(egui::Button::new("Quit").shortcut_text(keys(&QUIT)))
                .clicked()
            {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
        });
        ui.menu_button("Edit", |ui| {
            let ro = self.read_only();
            let undo = egui::Button::new("Undo").shortcut_text(ui.ctx().format_shortcut(&UNDO));
            let response = ui.add_enabled(ro.is_none() && self.history.undo.is_some(), undo);
            let response = match &self.history.undo {
                Some(label) => response.on_hover_text(label),
                None => response,
            };
            if response
                .on_disabled_hover_text(edit_hint(ro.as_deref()))
                .clicked()
            {
                actions.push(Action::Undo);
            }
            let redo = egui::Button::new("Redo").shortcut_text(ui.ctx().format_shortcut(&REDO));
            let response = ui.add_enabled(ro.is_none() && self.history.redo.is_some(), redo);
            let response = match &self.history.redo {
                Some(label) => response.on_hover_text(label),
                None => response,
            };
            if response
                .on_disabled_hover_text(edit_hint(ro.as_deref()))
                .clicked()
            {
                actions.push(Action::Redo);
            }
        });
        ui.menu_button("View", |ui| {
            let mut show = self.show_log;
            if ui.checkbox(&mut show, "Campaign log").changed() {
                actions.push(Action::ShowLog(show));
            }
        });
    }

    fn status_ui(&self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            match self.campaign_path() {
                Some(path) => {
                    ui.label(RichText::new(path.display().to_string()).weak());
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

    fn welcome_ui(&self, ui: &mut Ui, actions: &mut Vec<Action>) {
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            ui.heading("Rapsheet");
            if let Some(err) = &self.open_error {
                ui.label(
                    RichText::new(format!("Could not open the campaign: {err}"))
                        .color(ui.visuals().error_fg_color),
                );
            }
            ui.add_space(12.0);
            if ui.button("Open campaign…").clicked() {
                actions.push(Action::AskPath(PathPurpose::Open));
            }
            if ui.button("New campaign…").clicked() {
                actions.push(Action::AskPath(PathPurpose::New));
            }
        });
    }

    fn campaign_ui(&mut self, ui: &mut Ui, read_only: Option<&str>, actions: &mut Vec<Action>) {
        let Some(session) = &self.session else {
            return;
        };
        let (campaign, default_ruleset) = self
            .info
            .as_ref()
            .map(|i| (i.name.clone(), i.default_ruleset.clone()))
            .unwrap_or_else(|| ("Campaign".into(), String::new()));
        let rulesets: Vec<(String, String)> = session
            .packs()
            .map(|p| (p.pack.id.clone(), p.pack.name.clone()))
            .collect();

        egui::Panel::left("gangs")
            .resizable(true)
            .default_size(220.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if let Some(a) = gang_list_ui(
                        ui,
                        &campaign,
                        &self.gangs,
                        self.selected_gang,
                        &rulesets,
                        &default_ruleset,
                        &mut self.found_form,
                        read_only,
                    ) {
                        actions.push(a);
                    }
                    ui.separator();
                    ruleset_ui(ui, &rulesets, &default_ruleset, read_only, actions);
                });
            });

        if let (Screen::Roster, Some(view), Some(fighter)) = (
            self.screen,
            &self.gang_view,
            self.selected_fighter_view_id(),
        ) {
            let pack = session.pack(&view.ruleset).ok();
            if let (Some(pack), Some(fv)) = (pack, view.fighters.iter().find(|f| f.id == fighter)) {
                egui::Panel::right("fighter")
                    .resizable(true)
                    .default_size(360.0)
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical().show(ui, |ui| {
                            if let Some(a) = fighter_editor_ui(
                                ui,
                                &mut self.editor,
                                fv,
                                pack,
                                read_only,
                                &mut self.dice,
                            ) {
                                actions.push(a);
                            }
                        });
                    });
            }
        }

        if self.screen == Screen::Battle {
            let pack = self
                .battle_form
                .gangs
                .iter()
                .flatten()
                .next()
                .and_then(|id| self.gangs.iter().find(|g| g.id == *id))
                .map(|g| g.ruleset.clone())
                .or_else(|| self.info.as_ref().map(|i| i.default_ruleset.clone()))
                .and_then(|r| session.pack(&r).ok());
            egui::CentralPanel::default().show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if let Some(a) = post_battle_ui(
                        ui,
                        &mut self.battle_form,
                        &self.battle_data,
                        pack,
                        read_only,
                    ) {
                        actions.push(a);
                    }
                });
            });
            return;
        }
        if self.screen == Screen::Chronicle {
            if self.chronicle.is_none() {
                match session.chronicle() {
                    Ok(c) => self.chronicle = Some(c),
                    Err(err) => {
                        egui::CentralPanel::default().show(ui, |ui| {
                            ui.label(format!("{err:#}"));
                        });
                        return;
                    }
                }
            }
            let resources: Vec<(String, String)> = session
                .pack(&default_ruleset)
                .map(|p| {
                    p.resources
                        .iter()
                        .map(|r| (r.id.clone(), r.label.clone()))
                        .collect()
                })
                .unwrap_or_default();
            if let Some(all) = &self.chronicle {
                let arc = self.chronicle_view.arc;
                if self.chronicle_shown.as_ref().is_none_or(|(a, _)| *a != arc) {
                    let shown = arc
                        .and_then(|a| all.arc(a, &self.names))
                        .unwrap_or_else(|| all.clone());
                    self.chronicle_shown = Some((arc, shown));
                }
                let Some((_, shown)) = &self.chronicle_shown else {
                    return;
                };
                egui::CentralPanel::default().show(ui, |ui| {
                    if let Some(a) = chronicle_ui(
                        ui,
                        &mut self.chronicle_view,
                        all,
                        shown,
                        &campaign,
                        &resources,
                        read_only,
                    ) {
                        actions.push(a);
                    }
                });
            }
            return;
        }
        if self.screen == Screen::Titles {
            egui::CentralPanel::default().show(ui, |ui| match &self.titles {
                Some(view) => titles_ui(ui, view),
                None => {
                    ui.weak("No titles in this ruleset.");
                }
            });
            return;
        }
        egui::CentralPanel::default().show(ui, |ui| match &self.gang_view {
            Some(view) => {
                let pack = session.pack(&view.ruleset).ok();
                if let Some(a) = roster_ui(
                    ui,
                    view,
                    pack,
                    self.selected_fighter,
                    &mut self.recruit_form,
                    read_only,
                ) {
                    actions.push(a);
                }
            }
            None => {
                ui.weak("Found a gang on the left to begin.");
            }
        });
    }

    fn selected_fighter_view_id(&self) -> Option<FighterId> {
        self.selected_fighter
    }
}

/// The vendored DejaVu Sans (see `assets/fonts/DejaVu-LICENSE.txt`): a
/// fallback for the symbols and the Greek and Cyrillic letters egui's own
/// fonts lack. Installed before any text is laid out in the first frame.
const FALLBACK_FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

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

/// The campaign's ruleset, changeable (the change goes into the log).
fn ruleset_ui(
    ui: &mut Ui,
    rulesets: &[(String, String)],
    current: &str,
    read_only: Option<&str>,
    actions: &mut Vec<Action>,
) {
    let mut chosen = current.to_owned();
    let shown = rulesets
        .iter()
        .find(|(id, _)| id == current)
        .map_or(current.to_owned(), |(_, n)| n.clone());
    ui.add_enabled_ui(read_only.is_none(), |ui| {
        let label = ui.label(RichText::new("Campaign ruleset").weak());
        egui::ComboBox::from_id_salt("campaign-ruleset")
            .selected_text(shown)
            .width(ui.available_width() - 8.0)
            .show_ui(ui, |ui| {
                for (id, name) in rulesets {
                    ui.selectable_value(&mut chosen, id.clone(), name);
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text(
                "The pack new gangs use; changing it moves every gang that played the old one",
            )
            .on_disabled_hover_text(edit_hint(read_only));
    });
    if chosen != current {
        actions.push(Action::SetCampaignRuleset(chosen));
    }
}

/// Opens a file with the desktop's own viewer.
fn open_with_desktop(path: &Path) -> anyhow::Result<()> {
    #[cfg(target_os = "macos")]
    let mut command = std::process::Command::new("open");
    #[cfg(target_os = "windows")]
    let mut command = {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    };
    #[cfg(not(any(target_os = "macos", target_os = "windows")))]
    let mut command = std::process::Command::new("xdg-open");
    command
        .arg(path)
        .spawn()
        .map(|_| ())
        .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))
}

/// Adds the campaign extension when a typed or picked path has none.
fn with_extension(path: &Path) -> PathBuf {
    if path.extension().is_none() {
        path.with_extension(crate::session::EXTENSION)
    } else {
        path.to_owned()
    }
}

/// The hover text of a disabled edit control.
pub fn edit_hint(read_only: Option<&str>) -> String {
    match read_only {
        Some(reason) => format!("Read-only: {reason}"),
        None => "Not available now".to_owned(),
    }
}

impl eframe::App for RapsheetApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.frame_ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if let Some(path) = self.campaign_path() {
            storage.set_string(super::LAST_CAMPAIGN, path.display().to_string());
        }
        let recent: Vec<String> = self
            .recent
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        storage.set_string(super::RECENT_CAMPAIGNS, recent.join("\n"));
    }
}
