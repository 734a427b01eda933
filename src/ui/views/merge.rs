//! The Merge window (File ▸ Merge…): another copy of this campaign looked
//! at, what each copy did since they parted, every conflict side by side
//! with a choice, and the merged campaign written as a new file. Neither
//! copy is written to.

use std::path::PathBuf;

use egui::{Context, RichText};

use crate::campaign::merge::Choice;
use crate::session::{Merge, MergePreview};
use crate::ui::base::action::Action;
use crate::ui::base::action::FileField;
use crate::ui::base::action::MergeAction;

/// What is typed and chosen in the window.
#[derive(Default)]
pub struct MergeWindow {
    pub other_path: String,
    pub output_path: String,
    /// The other copy as looked at, and the choice for each conflict.
    pub looked: Option<(Merge, MergePreview)>,
    pub choices: Vec<Option<Choice>>,
}

impl MergeWindow {
    /// The other copy looked at: every conflict unchosen. The merged file
    /// is offered beside this campaign (`ours`).
    pub fn show(&mut self, merge: Merge, preview: MergePreview, ours: &std::path::Path) {
        self.choices = vec![None; preview.conflicts.len()];
        if self.output_path.trim().is_empty() {
            self.output_path = merged_name(ours);
        }
        self.looked = Some((merge, preview));
    }
}

/// `campaign.rapsheet` → `campaign-merged.rapsheet`, beside it.
fn merged_name(other: &std::path::Path) -> String {
    let stem = other.file_stem().map(|s| s.to_string_lossy().into_owned());
    let name = format!(
        "{}-merged.{}",
        stem.unwrap_or_default(),
        crate::session::EXTENSION
    );
    other.with_file_name(name).display().to_string()
}

/// Draws the window; closing it drops its state.
pub fn merge_ui(ctx: &Context, window: &mut Option<MergeWindow>) -> Option<Action> {
    let state = window.as_mut()?;
    let mut open = true;
    let mut action = None;
    egui::Window::new("Merge")
        .open(&mut open)
        .default_width(760.0)
        .show(ctx, |ui| {
            if ui.button("Close the merge").clicked() {
                action = Some(Action::Merge(MergeAction::Close));
            }
            ui.label("Another copy of this campaign that recorded other things since the two parted: its changes are made after this copy's, in a new file. Neither copy is changed.");
            ui.horizontal(|ui| {
                let label = ui.label("The other copy");
                ui.text_edit_singleline(&mut state.other_path)
                    .labelled_by(label.id);
                if ui.button("Choose file…").clicked() {
                    action = Some(Action::ChooseFile(FileField::MergeOther));
                }
                if ui
                    .add_enabled(!state.other_path.trim().is_empty(), egui::Button::new("Look at the merge"))
                    .clicked()
                {
                    action = Some(Action::Merge(MergeAction::LookAt(PathBuf::from(state.other_path.trim()))));
                }
            });
            let Some((_, preview)) = &state.looked else {
                return;
            };
            ui.separator();
            preview_ui(ui, preview);
            // Nothing of the other copy's to bring in: no merged file is
            // offered, only what to do instead.
            if preview.theirs.is_empty() {
                ui.label(RichText::new(
                    "The other copy has no changes since the two parted: this copy already holds everything it has, and there is nothing to merge.",
                ).strong());
                return;
            }
            conflicts_ui(ui, preview, &mut state.choices);
            ui.separator();
            ui.horizontal(|ui| {
                let label = ui.label("Merged campaign file");
                ui.text_edit_singleline(&mut state.output_path)
                    .labelled_by(label.id);
                if ui.button("Choose file…").clicked() {
                    action = Some(Action::ChooseFile(FileField::MergeOut));
                }
            });
            let unchosen = state.choices.iter().filter(|c| c.is_none()).count();
            let ready = unchosen == 0 && !state.output_path.trim().is_empty();
            let write = ui
                .add_enabled(ready, egui::Button::new("Write the merged campaign"))
                .on_hover_text("A new file, checked, then opened");
            if unchosen > 0 {
                ui.label(format!("{unchosen} conflicts still to choose"));
            }
            if write.clicked() {
                action = Some(Action::Merge(MergeAction::Write(PathBuf::from(state.output_path.trim()))));
            }
        });
    if !open {
        *window = None;
    }
    action
}

/// Where the copies parted and what each did since.
fn preview_ui(ui: &mut egui::Ui, preview: &MergePreview) {
    ui.label(format!("The copies parted after: {}", preview.parted_after));
    let list = |ui: &mut egui::Ui, title: String, lines: &[String]| {
        egui::CollapsingHeader::new(title).show(ui, |ui| {
            for line in lines {
                ui.label(line);
            }
        });
    };
    list(
        ui,
        format!("This copy since ({})", preview.ours.len()),
        &preview.ours,
    );
    list(
        ui,
        format!(
            "The other copy since ({}), made after this copy's",
            preview.theirs.len()
        ),
        &preview.theirs,
    );
    if !preview.renumbered.is_empty() {
        list(ui, "Renumbered here".to_owned(), &preview.renumbered);
    }
    for line in &preview.composed {
        ui.label(format!("Both copies changed it, both kept: {line}"));
    }
    for line in &preview.agreed {
        ui.label(format!("Both copies made the same change: {line}"));
    }
    for line in &preview.came_back {
        ui.label(format!(
            "The other copy changed it and back again, so this copy's stands: {line}"
        ));
    }
    for line in &preview.both_took_back {
        ui.label(format!("Both copies took it back, once here: {line}"));
    }
}

/// Every conflict side by side, with its choice.
fn conflicts_ui(ui: &mut egui::Ui, preview: &MergePreview, choices: &mut [Option<Choice>]) {
    if preview.conflicts.is_empty() {
        ui.label("No conflicts: nothing to choose.");
        return;
    }
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("Conflicts ({})", preview.conflicts.len())).strong());
        if ui.button("This copy's for all").clicked() {
            choices.iter_mut().for_each(|c| *c = Some(Choice::Ours));
        }
        if ui.button("The other's for all").clicked() {
            choices.iter_mut().for_each(|c| *c = Some(Choice::Theirs));
        }
    });
    egui::ScrollArea::vertical()
        .max_height(360.0)
        .show(ui, |ui| {
            egui::Grid::new("merge-conflicts")
                .striped(true)
                .num_columns(4)
                // The texts wrap; the Keep column keeps room for its words.
                .max_col_width(260.0)
                .show(ui, |ui| {
                    ui.label(RichText::new("What both changed").strong());
                    ui.label(RichText::new("This copy").strong());
                    ui.label(RichText::new("The other copy").strong());
                    ui.label(RichText::new("Keep").strong());
                    ui.end_row();
                    for (c, choice) in preview.conflicts.iter().zip(choices.iter_mut()) {
                        ui.label(format!("{}. {}", c.number, c.subject));
                        ui.label(c.ours.join("\n"));
                        ui.label(c.theirs.join("\n"));
                        ui.vertical(|ui| {
                            ui.set_min_width(150.0);
                            ui.radio_value(choice, Some(Choice::Ours), "This copy's");
                            ui.radio_value(choice, Some(Choice::Theirs), "The other's");
                            if let Some(both) = &c.both {
                                ui.radio_value(choice, Some(Choice::Both), format!("Both: {both}"));
                            }
                        });
                        ui.end_row();
                    }
                });
        });
}
