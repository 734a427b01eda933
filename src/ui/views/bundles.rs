//! The Bundles window (File ▸ Bundles…): the selected gang, or every gang,
//! written to a bundle file; a bundle's gangs brought in as one change.
//! Paths are typed, as in the app's other file fields.

use std::path::PathBuf;

use egui::Context;

use crate::ui::base::action::Action;
use crate::ui::base::action::BundleAction;
use crate::ui::base::action::FileField;

/// What is typed in the window.
#[derive(Default)]
pub struct BundlesWindow {
    pub export_path: String,
    pub whole: bool,
    /// The whole campaign with its history (to be made again as it was).
    pub history: bool,
    /// Where a campaign made from a whole campaign's bundle goes.
    pub new_path: String,
    pub replace: bool,
    pub import_path: String,
    /// The bundle's gangs whose names this campaign has: (the name in the
    /// bundle, the name typed for it here).
    pub renames: Vec<(String, String)>,
    /// The bundle file those names are for.
    pub renames_for: String,
}

impl BundlesWindow {
    /// Asks for a new name for each of `names`, offering `NAME (2)`.
    pub fn ask_names(&mut self, names: &[String]) {
        self.renames_for = self.import_path.trim().to_owned();
        for name in names {
            if !self.renames.iter().any(|(from, _)| from == name) {
                self.renames.push((name.clone(), format!("{name} (2)")));
            }
        }
    }
}

/// Draws the window; closing it drops its state.
pub fn bundles_ui(
    ctx: &Context,
    window: &mut Option<BundlesWindow>,
    selected: Option<&str>,
) -> Option<Action> {
    let state = window.as_mut()?;
    let mut open = true;
    let mut action = None;
    egui::Window::new("Bundles")
        .open(&mut open)
        .default_width(520.0)
        .show(ctx, |ui| {
            if ui.button("Close the bundles").clicked() {
                action = Some(Action::Bundle(BundleAction::Close));
            }
            ui.label("A bundle carries gangs, their fighters, photos and the group's own packs to another campaign: write one here, and bring it in there.");
            ui.separator();
            let what = match (state.whole, selected) {
                (false, Some(name)) => name.to_owned(),
                _ => "every gang".to_owned(),
            };
            ui.checkbox(&mut state.whole, "Every gang of the campaign");
            if state.whole {
                ui.checkbox(&mut state.history, "With the campaign's history (the whole campaign)");
            } else {
                state.history = false;
            }
            ui.horizontal(|ui| {
                let label = ui.label("Bundle file to write");
                ui.text_edit_singleline(&mut state.export_path)
                    .labelled_by(label.id);
                if ui.button("Choose file…").clicked() {
                    action = Some(Action::ChooseFile(FileField::BundleOut));
                }
            });
            ui.checkbox(&mut state.replace, "replace a file there");
            let ready = !state.export_path.trim().is_empty();
            if ui
                .add_enabled(ready, egui::Button::new(format!("Export {what}")))
                .clicked()
            {
                action = Some(Action::Bundle(BundleAction::Export {
                    gang: (!state.whole).then(|| selected.map(str::to_owned)).flatten(),
                    whole: state.history,
                    to: PathBuf::from(state.export_path.trim()),
                    replace: state.replace,
                }));
            }
            ui.separator();
            ui.horizontal(|ui| {
                let label = ui.label("Bundle file to bring in");
                ui.text_edit_singleline(&mut state.import_path)
                    .labelled_by(label.id);
                if ui.button("Choose file…").clicked() {
                    action = Some(Action::ChooseFile(FileField::BundleIn));
                }
            });
            if state.renames_for != state.import_path.trim() {
                state.renames.clear();
            }
            for (from, to) in &mut state.renames {
                ui.horizontal(|ui| {
                    let label = ui.label(format!("“{from}” is taken here; bring it in as"));
                    ui.text_edit_singleline(to).labelled_by(label.id);
                });
            }
            let button = if state.renames.is_empty() {
                "Bring in its gangs"
            } else {
                "Bring in its gangs under these names"
            };
            if ui
                .add_enabled(!state.import_path.trim().is_empty(), egui::Button::new(button))
                .on_hover_text("One change, which undo takes back")
                .clicked()
            {
                action = Some(Action::Bundle(BundleAction::Import {
                    file: PathBuf::from(state.import_path.trim()),
                    renamed: state.renames.iter().cloned().collect(),
                }));
            }
            ui.horizontal(|ui| {
                let label = ui.label("New campaign file");
                ui.text_edit_singleline(&mut state.new_path)
                    .labelled_by(label.id);
                if ui.button("Choose file…").clicked() {
                    action = Some(Action::ChooseFile(FileField::BundleNewCampaign));
                }
            });
            let ready = !state.import_path.trim().is_empty() && !state.new_path.trim().is_empty();
            if ui
                .add_enabled(ready, egui::Button::new("Make a new campaign from a whole campaign's bundle"))
                .on_hover_text("The campaign as it was, history and all, in a new file that is then opened")
                .clicked()
            {
                action = Some(Action::Bundle(BundleAction::OpenWhole {
                    file: PathBuf::from(state.import_path.trim()),
                    to: PathBuf::from(state.new_path.trim()),
                }));
            }
        });
    if !open {
        *window = None;
    }
    action
}
