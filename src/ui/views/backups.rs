//! The Backups window (File ▸ Backups…): the campaign's backups, newest
//! first, with when each was made, its size and the newest record it holds;
//! one that does not check says why. A backup is restored as a new file,
//! never over the open campaign or any other file.

use std::path::PathBuf;

use egui::{Context, RichText};

use crate::session::{Backup, BackupPolicy};
use crate::ui::base::action::Action;
use crate::ui::base::action::FileField;
use crate::ui::base::action::PathPurpose;
use crate::ui::base::action::{BackupAction, CampaignAction};

/// The window's state.
pub struct BackupsWindow {
    folder: PathBuf,
    list: Vec<Backup>,
    /// The backup chosen to restore, and the new file's path typed.
    restoring: Option<(PathBuf, String)>,
    /// How many are kept, as being edited.
    policy: BackupPolicy,
    /// Where a restored campaign is offered: the player's folder, never
    /// the hidden one the backups are kept in; and the campaign's name.
    restore_in: PathBuf,
    campaign: String,
    /// The file the last backup was restored as, offered to open.
    pub restored: Option<PathBuf>,
}

impl BackupsWindow {
    pub fn new(
        folder: PathBuf,
        list: Vec<Backup>,
        policy: BackupPolicy,
        restore_in: PathBuf,
        campaign: String,
    ) -> Self {
        Self {
            folder,
            list,
            restoring: None,
            policy,
            restore_in,
            campaign,
            restored: None,
        }
    }

    /// The backup restored as `to`: the form goes, the file is offered.
    pub fn was_restored(&mut self, to: PathBuf) {
        self.restoring = None;
        self.restored = Some(to);
    }

    /// The new file's path typed, while a backup is being restored.
    pub fn restore_path(&mut self) -> Option<&mut String> {
        self.restoring.as_mut().map(|(_, path)| path)
    }

    /// `Reef restored 2026-11-26 0930.rapsheet` in the player's folder.
    fn offered(&self, at: &str) -> PathBuf {
        let when: String = at
            .chars()
            .map(|c| {
                if c.is_ascii_digit() || c == '-' || c == ' ' {
                    c
                } else {
                    ' '
                }
            })
            .collect();
        let when = when.split_whitespace().collect::<Vec<_>>().join(" ");
        self.restore_in.join(format!(
            "{} restored {when}.{}",
            self.campaign,
            crate::session::EXTENSION
        ))
    }
}

/// How many backups are kept: the newest so many, and one a day for so
/// many days; kept as the app's setting when the player says so.
fn policy_ui(ui: &mut egui::Ui, policy: &mut BackupPolicy) -> Option<Action> {
    let mut action = None;
    ui.horizontal(|ui| {
        let label = ui.label("Keep the newest");
        ui.add(egui::DragValue::new(&mut policy.newest).range(1..=1000))
            .labelled_by(label.id);
        let label = ui.label("and the newest of each day for (days)");
        ui.add(egui::DragValue::new(&mut policy.days).range(0..=3650))
            .labelled_by(label.id);
        if ui
            .button("Keep these counts")
            .on_hover_text("Older backups go when the next one is made")
            .clicked()
        {
            action = Some(Action::Backup(BackupAction::SetPolicy(*policy)));
        }
    });
    action
}

/// Draws the window; `None` in `open` closes it.
pub fn backups_ui(ctx: &Context, window: &mut Option<BackupsWindow>) -> Option<Action> {
    let state = window.as_mut()?;
    let mut open = true;
    let mut action = None;
    egui::Window::new("Backups")
        .open(&mut open)
        .default_width(620.0)
        .show(ctx, |ui| {
            ui.label(format!("Kept in {}", state.folder.display()));
            ui.label("A backup is made before every record and once a day the campaign is opened.");
            action = policy_ui(ui, &mut state.policy);
            if ui.button("Make a backup now").clicked() {
                action = action.take().or(Some(Action::Backup(BackupAction::Make)));
            }
            if ui.button("Close the backups").clicked() {
                action = action.take().or(Some(Action::Backup(BackupAction::Close)));
            }
            ui.separator();
            if state.list.is_empty() {
                ui.label("No backups of this campaign yet.");
            }
            egui::Grid::new("backups")
                .num_columns(4)
                .striped(true)
                .show(ui, |ui| {
                    for h in ["Made", "Size", "Holds", ""] {
                        ui.label(RichText::new(h).strong());
                    }
                    ui.end_row();
                    for b in &state.list {
                        let made = crate::ui::base::widgets::local_time(&b.at);
                        ui.label(&made);
                        ui.label(format!("{} KB", b.size.div_ceil(1024)));
                        match (&b.problem, b.newest_record) {
                            (Some(problem), _) => {
                                ui.label(
                                    RichText::new("does not check")
                                        .color(ui.visuals().error_fg_color),
                                )
                                .on_hover_text(problem);
                            }
                            (None, Some(n)) => {
                                ui.label(format!("up to record #{n}"));
                            }
                            (None, None) => {
                                ui.label("no records");
                            }
                        }
                        // A short button; its name says which backup.
                        let button = ui.add_enabled(
                            b.problem.is_none(),
                            egui::Button::new("Restore…").small(),
                        );
                        let named = format!("Restore {made}…");
                        button.widget_info(|| {
                            egui::WidgetInfo::labeled(egui::Role::Button, true, &named)
                        });
                        if button.clicked() {
                            let offered = state.offered(&made);
                            state.restoring = Some((b.path.clone(), offered.display().to_string()));
                        }
                        ui.end_row();
                    }
                });
            if let Some((backup, path)) = &mut state.restoring {
                ui.separator();
                ui.label("Restore it as a new campaign file (never over a file):");
                ui.horizontal(|ui| {
                    let label = ui.label("New file path");
                    ui.text_edit_singleline(path).labelled_by(label.id);
                    if ui.button("Choose file…").clicked() {
                        action = Some(Action::ChooseFile(FileField::RestoreTo));
                    }
                });
                if ui.button("Restore as this new file").clicked() {
                    action = Some(Action::Backup(BackupAction::Restore {
                        backup: backup.clone(),
                        to: PathBuf::from(path.trim()),
                    }));
                }
            }
            if let Some(restored) = &state.restored {
                ui.separator();
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!("Restored as {}", restored.display()));
                    if ui.button("Open the restored campaign").clicked() {
                        action = Some(Action::Campaign(CampaignAction::UsePath(
                            PathPurpose::Open,
                            restored.clone(),
                        )));
                    }
                });
            }
        });
    if !open {
        *window = None;
    }
    action
}
