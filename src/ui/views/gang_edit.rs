//! Renaming a gang and writing its notes, under the roster's header: each
//! saved as one change that undo takes back.

use egui::Ui;

use crate::campaign::GangId;
use crate::session::GangView;
use crate::ui::base::action::Action;
use crate::ui::base::action::GangAction;
use crate::ui::base::widgets::Nouns;
use crate::ui::base::widgets::edit_hint;

/// The name and notes being edited, and whose (`None`: closed).
#[derive(Debug, Default)]
pub struct GangEdit {
    pub gang: Option<GangId>,
    pub name: String,
    pub notes: String,
}

impl GangEdit {
    fn open(&mut self, view: &GangView) {
        self.gang = Some(view.id);
        self.name = view.name.clone();
        self.notes = view.notes.clone();
    }
}

/// The button that opens the editor, or the editor for `view`'s gang.
pub fn gang_edit_ui(
    ui: &mut Ui,
    view: &GangView,
    edit: &mut GangEdit,
    nouns: Nouns<'_>,
    read_only: Option<&str>,
) -> Option<Action> {
    if edit.gang != Some(view.id) {
        ui.add_enabled_ui(read_only.is_none(), |ui| {
            let button = ui
                .small_button("Rename or write notes…")
                .on_hover_text(format!(
                    "Change the {}'s name or its notes; each change goes into the campaign log",
                    nouns.gang
                ))
                .on_disabled_hover_text(edit_hint(read_only));
            if button.clicked() {
                edit.open(view);
            }
        });
        return None;
    }
    let mut action = None;
    let mut close = ui.input(|i| i.key_pressed(egui::Key::Escape));
    egui::Grid::new("gang-edit")
        .num_columns(3)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            let label = ui.label(format!("{} name", crate::text::capitalised(nouns.gang)));
            let field = ui
                .add(egui::TextEdit::singleline(&mut edit.name).desired_width(260.0))
                .labelled_by(label.id);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let changed = edit.name.trim() != view.name;
            let rename = ui
                .add_enabled(changed, egui::Button::new("Rename"))
                .on_disabled_hover_text("Type another name first");
            if (rename.clicked() || (enter && changed)) && !edit.name.trim().is_empty() {
                action = Some(Action::Gang(GangAction::Rename(view.id, edit.name.clone())));
            }
            ui.end_row();

            let label = ui.label("Notes");
            ui.add(
                egui::TextEdit::multiline(&mut edit.notes)
                    .desired_rows(3)
                    .desired_width(260.0),
            )
            .labelled_by(label.id);
            let save = ui
                .add_enabled(edit.notes != view.notes, egui::Button::new("Save notes"))
                .on_disabled_hover_text("The notes are as saved");
            if save.clicked() {
                action = Some(Action::Gang(GangAction::SetNotes(
                    view.id,
                    edit.notes.clone(),
                )));
            }
            ui.end_row();
        });
    let unsaved = edit.name.trim() != view.name || edit.notes != view.notes;
    let done = ui
        .small_button(if unsaved {
            "Close without saving"
        } else {
            "Done"
        })
        .on_hover_text("Closes the editor (Escape)");
    close |= done.clicked();
    if close {
        edit.gang = None;
    }
    action
}
