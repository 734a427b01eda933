//! Files: opening, creating and saving campaigns under a path the player
//! picks, and the PDFs and exports written on a worker thread so a large
//! file never freezes the window.
//!
//! Everything is read from the campaign here, on the frame's thread; the
//! worker only renders and writes. Never writes over the open campaign, and
//! over another file only when the player agreed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::session::{Pick, PrintJob, PrintOrder, Session};
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::PathPurpose;
use crate::ui::base::action::{Action, FileField};
use crate::ui::base::action::{FighterAction, OutputAction};
use crate::ui::views::dialogs::PathDialog;

/// What a background write makes.
#[derive(Debug, Clone, Copy)]
pub enum Written {
    Pdf,
    Export,
}

/// A file being rendered and written on a worker thread.
pub struct BackgroundWrite {
    what: Written,
    pub path: PathBuf,
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

/// Opens a file with the desktop's own viewer.
pub(in crate::ui) fn open_with_desktop(path: &Path) -> anyhow::Result<()> {
    opener::open(path).map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))
}

/// Adds the campaign extension when a typed or picked path has none.
fn with_extension(path: &Path) -> PathBuf {
    if path.extension().is_none() {
        path.with_extension(crate::session::EXTENSION)
    } else {
        path.to_owned()
    }
}

impl RapsheetApp {
    /// The cards or roster the print window asks for, built by the
    /// session's one print-job builder (the command line's too).
    fn print_request(&self) -> anyhow::Result<PrintJob> {
        let Some(session) = &self.session else {
            anyhow::bail!("no campaign is open");
        };
        let Some(dialog) = &self.dialogs.print else {
            anyhow::bail!("nothing to print");
        };
        let request = &dialog.request;
        let fighters = if request.blank_only && request.blanks > 0 {
            Pick::Nobody
        } else {
            Pick::Ids(request.fighters.clone())
        };
        session.print_job(&PrintOrder {
            gang: request.gang,
            fighters,
            crew: request.crew,
            blanks: request.blanks,
            roster: request.roster,
            page: request.page,
            style: crate::print::CardStyle {
                size: request.size,
                write_in: request.write_in,
                marks: request.marks,
                bleed: request.bleed,
                cut_guide: request.cut_guide,
            },
        })
    }

    /// Lays out the print window's first page when its options changed.
    pub(in crate::ui) fn update_print_preview(&mut self) {
        let Some(dialog) = &self.dialogs.print else {
            return;
        };
        if !dialog.dirty {
            return;
        }
        let pages = self
            .print_request()
            .and_then(|job| Ok((job.pages()?, job.warnings()?, job.near_the_edge())));
        if let Some(dialog) = &mut self.dialogs.print {
            dialog.dirty = false;
            match pages {
                Ok((pages, warnings, edge)) => {
                    dialog.warnings = warnings.iter().map(ToString::to_string).collect();
                    // Cut lines nearer the edge than printers print: said
                    // beside the preview, as the command line warns.
                    if let Some(edge) = edge {
                        dialog
                            .warnings
                            .push(crate::text::capitalised(&edge.to_string()));
                    }
                    dialog.pages = pages.len();
                    dialog.preview = pages.into_iter().next().map(Ok);
                }
                Err(err) => dialog.preview = Some(Err(format!("{err:#}"))),
            }
        }
    }

    pub(in crate::ui) fn save_pdf(&mut self, path: &Path, replace: bool) {
        let path = if path.extension().is_none() {
            path.with_extension("pdf")
        } else {
            path.to_owned()
        };
        if !replace && path.symlink_metadata().is_ok() {
            let again = Action::Output(OutputAction::SavePdf {
                path: path.clone(),
                replace: true,
            });
            self.dialogs.replace = Some((path, Box::new(again)));
            return;
        }
        let guard = self.output_guard(replace);
        if self.dialogs.print.is_none() {
            return;
        }
        // The campaign is read here; the PDF is laid out, drawn and written
        // on a worker thread, so a large print never freezes the window.
        let job = match self.print_request() {
            Ok(job) => job,
            Err(err) => {
                if let Some(dialog) = &mut self.dialogs.print {
                    dialog.error = Some(format!("{err:#}"));
                }
                return;
            }
        };
        let started = self.write_in_background(Written::Pdf, path.clone(), move |target| {
            let bytes = job.pdf()?;
            guard.write(target, &bytes)
        });
        if started && let Some(dialog) = &mut self.dialogs.print {
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
    pub(in crate::ui) fn poll_writer(&mut self, ctx: &egui::Context) {
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
                let dialog = self.dialogs.print.as_mut();
                match (result, dialog) {
                    (Ok(()), Some(dialog)) => {
                        dialog.writing = None;
                        dialog.written = Some(path.clone());
                        self.output_dir = path.parent().map(Path::to_owned);
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
            (Written::Export, Ok(())) => {
                self.output_dir = path.parent().map(Path::to_owned);
                self.info(format!("Exported {}", path.display()));
            }
            (Written::Export, Err(err)) => {
                self.error(anyhow::anyhow!("{}: {err}", path.display()));
            }
        }
    }

    /// The typed path of `field`, where its window is open.
    fn file_field(&mut self, field: FileField) -> Option<&mut String> {
        match field {
            FileField::PrintPdf => self.dialogs.print.as_mut().map(|d| &mut d.path),
            FileField::ChronicleExport => Some(&mut self.campaign.chronicle_view.path),
            FileField::Photo(_) => Some(&mut self.campaign.editor.photo_path),
            FileField::BundleOut => self
                .campaign
                .bundles_window
                .as_mut()
                .map(|w| &mut w.export_path),
            FileField::BundleIn => self
                .campaign
                .bundles_window
                .as_mut()
                .map(|w| &mut w.import_path),
            FileField::BundleNewCampaign => self
                .campaign
                .bundles_window
                .as_mut()
                .map(|w| &mut w.new_path),
            FileField::MergeOther => self
                .campaign
                .merge_window
                .as_mut()
                .map(|w| &mut w.other_path),
            FileField::MergeOut => self
                .campaign
                .merge_window
                .as_mut()
                .map(|w| &mut w.output_path),
            FileField::RestoreTo => self
                .campaign
                .backups_window
                .as_mut()
                .and_then(|w| w.restore_path()),
            FileField::LeagueInvite => self
                .campaign
                .league_window
                .as_mut()
                .map(|w| &mut w.invite_path),
            FileField::LeagueJoinTo => self
                .campaign
                .league_window
                .as_mut()
                .map(|w| &mut w.join_path),
        }
    }

    /// Fills a typed file field from the desktop's file dialog, starting
    /// where the field's path is (or where printouts go). Where the
    /// desktop has no file dialog, says to type the path instead.
    pub(in crate::ui) fn choose_file(&mut self, field: FileField) {
        const NO_DIALOG: &str =
            "This desktop has no file dialog: type the file's path in the field";
        if self.no_native_dialog {
            return self.info(NO_DIALOG);
        }
        let typed = self.file_field(field).map(|p| PathBuf::from(p.trim()));
        let (title, filter, save) = field.dialog();
        let mut dialog = rfd::FileDialog::new().set_title(title);
        if let Some((name, extensions)) = filter {
            dialog = dialog.add_filter(name, extensions);
        }
        let folder = typed
            .as_deref()
            .and_then(Path::parent)
            .filter(|d| d.is_dir())
            .map_or_else(|| self.output_dir(), Path::to_owned);
        dialog = dialog.set_directory(folder);
        if let Some(name) = typed.as_deref().and_then(Path::file_name) {
            dialog = dialog.set_file_name(name.to_string_lossy());
        }
        let path = match show_dialog(dialog, save) {
            Picked::Chosen(path) => path,
            Picked::Cancelled => return,
            Picked::NoDialog => {
                self.no_native_dialog = true;
                return self.info(NO_DIALOG);
            }
        };
        if let Some(typed) = self.file_field(field) {
            *typed = path.display().to_string();
        }
        if let FileField::Photo(fighter) = field {
            self.run_action(Action::Fighter(FighterAction::SetPhoto(
                fighter,
                Some(path),
            )));
        }
    }

    pub(in crate::ui) fn ask_path(&mut self, purpose: PathPurpose) {
        if !self.no_native_dialog {
            let dir = crate::paths::start_folder(self.campaign_path());
            let mut dialog = match purpose {
                PathPurpose::HouseRules => {
                    rfd::FileDialog::new().add_filter("Ruleset pack", &["toml"])
                }
                _ => rfd::FileDialog::new()
                    .add_filter("Rapsheet campaign", &[crate::session::EXTENSION]),
            }
            .set_title(purpose.title());
            if let Some(dir) = dir {
                dialog = dialog.set_directory(dir);
            }
            let save = matches!(purpose, PathPurpose::New | PathPurpose::SaveAs);
            if save {
                dialog = dialog.set_file_name(self.offered_file_name());
            }
            match show_dialog(dialog, save) {
                Picked::Chosen(path) => return self.use_path(purpose, &path),
                Picked::Cancelled => return,
                Picked::NoDialog => self.no_native_dialog = true,
            }
        }
        let start = crate::paths::start_folder(self.campaign_path()).unwrap_or_default();
        let file = match purpose {
            PathPurpose::Open | PathPurpose::HouseRules => String::new(),
            PathPurpose::New | PathPurpose::SaveAs => self.offered_file_name(),
        };
        self.dialogs.path = Some(PathDialog::new(purpose, &start.join(file)));
    }

    /// Keeps a pack file in the campaign as house rules: one change, which
    /// undo takes back. A file that is not a pack is told in the dialog.
    fn keep_house_rules(&mut self, path: &Path) {
        let text = match crate::input::read_text(path, crate::input::Kind::Pack) {
            Ok(text) => text,
            Err(err) => {
                let err = anyhow::Error::from(err);
                match &mut self.dialogs.path {
                    Some(dialog) => dialog.error = Some(format!("{err:#}")),
                    None => self.error(err),
                }
                return;
            }
        };
        let file = path.display().to_string();
        let mut refused = None;
        let kept = self.change("House rules kept", |s| {
            s.keep_house_pack(&file, &text)
                .map(|(batch, _)| batch)
                .inspect_err(|e| refused = Some(format!("{e:#}")))
        });
        if kept {
            self.dialogs.path = None;
            self.info(format!(
                "{} {}",
                PathPurpose::HouseRules.done(),
                path.display()
            ));
        } else if let (Some(dialog), Some(err)) = (&mut self.dialogs.path, refused) {
            dialog.error = Some(err);
        }
    }

    /// The file name a new campaign or a copy is offered under: the name
    /// just given, or the open campaign's.
    fn offered_file_name(&self) -> String {
        let name = self.dialogs.new_name.clone().or_else(|| {
            self.session
                .as_ref()
                .and_then(|s| s.info().ok())
                .map(|i| i.name)
        });
        crate::ui::views::dialogs::campaign_file_name(name.as_deref().unwrap_or("campaign"))
    }

    pub(in crate::ui) fn use_path(&mut self, purpose: PathPurpose, path: &Path) {
        let given = path;
        let path = with_extension(path);
        let result = match purpose {
            // A pack file, kept in the open campaign: no campaign opens.
            PathPurpose::HouseRules => return self.keep_house_rules(given),
            PathPurpose::Open => self.packs().and_then(|p| Session::open_with(&path, p)),
            PathPurpose::New => {
                let name = self.dialogs.new_name.clone().unwrap_or_else(|| {
                    path.file_stem()
                        .map_or("New campaign".into(), |s| s.to_string_lossy().into_owned())
                });
                let chosen = self.dialogs.new_game.clone();
                self.packs().and_then(|registry| {
                    let game = chosen
                        .or_else(|| registry.book_default().map(str::to_owned))
                        .ok_or_else(|| anyhow::anyhow!("this build has no ruleset pack"))?;
                    Session::create_with(&path, &name, &game, registry)
                })
            }
            PathPurpose::SaveAs => match &self.session {
                Some(session) => session.save_as(&path),
                None => Err(anyhow::anyhow!("no campaign is open")),
            },
        };
        match result {
            Ok(session) => {
                let selected = self.state.selected_gang;
                // Saved as another file, it is the same campaign: what the
                // window holds of it goes on with it.
                let same =
                    (purpose == PathPurpose::SaveAs).then(|| std::mem::take(&mut self.campaign));
                self.set_session(session);
                if let Some(mut same) = same {
                    same.kept_draft = None;
                    self.campaign = same;
                    self.keep_draft();
                    if selected.is_some() {
                        self.state.selected_gang = selected;
                        self.refresh();
                    }
                }
                self.dialogs.path = None;
                self.dialogs.new_name = None;
                self.dialogs.new_game = None;
                let done = format!("{} {}", purpose.done(), path.display());
                match self.campaign.draft_notice.clone() {
                    Some(notice) => self.info(format!("{done}; {notice}")),
                    None => self.info(done),
                }
            }
            Err(err) => {
                if let Some(dialog) = &mut self.dialogs.path {
                    dialog.error = Some(format!("{err:#}"));
                } else {
                    self.error(err);
                }
            }
        }
    }

    /// Renders the chronicle and writes it in the background, once the
    /// player agreed to replace a file already there.
    pub(in crate::ui) fn write_export(
        &mut self,
        path: PathBuf,
        replace: bool,
        format: crate::export::Format,
        campaign: String,
        scope: String,
        chronicle: Box<crate::campaign::chronicle::Chronicle>,
    ) {
        if !replace && path.symlink_metadata().is_ok() {
            let again = Action::Output(OutputAction::WriteExport {
                path: path.clone(),
                replace: true,
                format,
                campaign,
                scope,
                chronicle,
            });
            self.dialogs.replace = Some((path, Box::new(again)));
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
}

impl RapsheetApp {
    /// Writes the season in a format, in the background; asks first where
    /// a file is already there.
    pub(in crate::ui) fn write_season(
        &mut self,
        path: PathBuf,
        replace: bool,
        format: crate::export::Format,
    ) {
        if !replace && path.symlink_metadata().is_ok() {
            let again = Action::Output(OutputAction::WriteSeason {
                path: path.clone(),
                replace: true,
                format,
            });
            self.dialogs.replace = Some((path, Box::new(again)));
            return;
        }
        let report = match self.session.as_ref().map(|s| s.season_report()) {
            Some(Ok(report)) => report,
            Some(Err(err)) => return self.error(err),
            None => return,
        };
        let guard = self.output_guard(replace);
        self.write_in_background(Written::Export, path, move |target| {
            let page = crate::print::PageSize::A4;
            let bytes = crate::export::render_season(&report, format, page)?;
            guard.write(target, &bytes)
        });
    }
}

/// What the desktop's file dialog answered.
enum Picked {
    Chosen(PathBuf),
    Cancelled,
    /// It answered at once with nothing: the desktop has no file dialog.
    NoDialog,
}

/// Shows the desktop's file `dialog`, to name a new file (`save`) or to pick
/// one there. A desktop without a file dialog answers at once; a person who
/// cancels takes longer than this.
fn show_dialog(dialog: rfd::FileDialog, save: bool) -> Picked {
    let started = Instant::now();
    let picked = if save {
        dialog.save_file()
    } else {
        dialog.pick_file()
    };
    match picked {
        Some(path) => Picked::Chosen(path),
        None if started.elapsed() < Duration::from_millis(300) => Picked::NoDialog,
        None => Picked::Cancelled,
    }
}
