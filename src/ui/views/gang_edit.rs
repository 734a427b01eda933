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
    // Rows, not a grid: a grid's column starts as narrow as it was last
    // drawn, and a field in it would show three letters of a name. Each
    // field takes the width its text needs, up to the panel.
    let caption = format!("{} name", crate::text::capitalised(nouns.gang));
    let font = egui::TextStyle::Body.resolve(ui.style());
    let captions = ui
        .painter()
        .layout_no_wrap(caption.clone(), font, ui.visuals().text_color())
        .size()
        .x
        .max(48.0);
    let row_height = ui.spacing().interact_size.y;
    {
        let ui = &mut *ui;
        ui.horizontal(|ui| {
            let label = ui.add_sized([captions, row_height], egui::Label::new(caption));
            let width = crate::ui::base::widgets::field_width(ui, &edit.name) - 90.0;
            let field = ui
                .add(egui::TextEdit::singleline(&mut edit.name).desired_width(width))
                .labelled_by(label.id);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let changed = edit.name.trim() != view.name;
            let rename = ui
                .add_enabled(changed, egui::Button::new("Rename"))
                .on_disabled_hover_text("Type another name first");
            if (rename.clicked() || (enter && changed)) && !edit.name.trim().is_empty() {
                action = Some(Action::Gang(GangAction::Rename(view.id, edit.name.clone())));
            }
        });
        ui.horizontal(|ui| {
            let label = ui.add_sized([captions, row_height], egui::Label::new("Notes"));
            let width = (ui.available_width() - 110.0).clamp(200.0, 640.0);
            ui.add(
                egui::TextEdit::multiline(&mut edit.notes)
                    .desired_rows(3)
                    .desired_width(width),
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
        });
    }
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
