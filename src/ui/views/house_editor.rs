//! The editor of the group's own data: what a rule text refers to but does
//! not print (a table, a counter's start, a stat's default, catalog
//! entries), filled in by the group as an override pack of their own,
//! checked as they type with the errors `check-pack` gives, shown against
//! the pack it is over, kept in the campaign (one change, undo takes it
//! back) and saved as a file others can load.

use egui::{Context, RichText, Ui};

use crate::rules::{Draft, DraftChange, Pack, TableDef, TableRowDef};
use crate::session::Session;
use crate::ui::base::action::Action;
use crate::ui::base::action::RulesAction;
use crate::ui::base::widgets::labelled_combo;

/// The editor's window and what is typed in it.
#[derive(Default)]
pub struct HouseEditor {
    pub open: bool,
    /// The pack being edited; `None` until one is started or picked.
    draft: Option<Draft>,
    /// For a new pack: its id, name and the pack it is over.
    new_id: String,
    new_name: String,
    new_base: String,
    /// The table shown.
    table: String,
    /// A new table of the group's: id, name, dice, when it is rolled.
    new_table: [String; 4],
    /// A new catalog entry: id, name, category, text, tags.
    new_entry: [String; 5],
    /// Where "Save file" writes, and whether it may replace a file.
    pub save_path: String,
    pub replace: bool,
    /// The check and the changes, worked out after each edit.
    checked: Option<Result<(), String>>,
    changes: Vec<DraftChange>,
}

impl HouseEditor {
    /// Opens the editor on the kept pack `id`, if there is one.
    pub fn open_on(&mut self, session: &Session, id: Option<&str>) {
        self.open = true;
        if let Some(id) = id
            && let Ok(draft) = session.house_draft(id, "", "")
        {
            self.set(session, draft);
        }
    }

    fn set(&mut self, session: &Session, draft: Draft) {
        self.table.clear();
        self.draft = Some(draft);
        self.recheck(session);
    }

    /// Checks the draft as `check-pack` does and works out its changes.
    fn recheck(&mut self, session: &Session) {
        let Some(draft) = &self.draft else {
            self.checked = None;
            return;
        };
        let base = draft.base_id().and_then(|id| session.pack(id).ok());
        self.checked = Some(
            session
                .check_draft(draft)
                .map(|_| ())
                .map_err(|e| match base {
                    Some(base) => format!("{}: {}", draft.in_words(base, &e.entry), e.reason),
                    None => e.reason,
                }),
        );
        self.changes = session.draft_changes(draft).unwrap_or_default();
    }
}

/// Draws the editor's window; returns what to keep or save.
pub fn house_editor_ui(
    ctx: &Context,
    editor: &mut HouseEditor,
    session: &Session,
) -> Option<Action> {
    if !editor.open {
        return None;
    }
    let mut open = true;
    let mut action = None;
    egui::Window::new("The group's data")
        .open(&mut open)
        .default_width(720.0)
        .default_pos([260.0, 90.0])
        .default_height(720.0)
        .show(ctx, |ui| {
            if ui.button("Close the group's data").clicked() {
                editor.open = false;
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                action = editor_body(ui, editor, session);
            });
        });
    editor.open &= open;
    action
}

fn editor_body(ui: &mut Ui, editor: &mut HouseEditor, session: &Session) -> Option<Action> {
    ui.label(
        "What a rule text refers to but does not print is the group's to fill in. \
         What you enter here is your group's own house rules, labelled as yours wherever it shows.",
    );
    pick_ui(ui, editor, session);
    let draft = editor.draft.clone()?;
    let Some(base) = draft.base_id().and_then(|b| session.pack(b).ok()).cloned() else {
        ui.label("This pack names no pack it is over.");
        return None;
    };
    ui.separator();
    ui.heading(format!("{} (over {})", draft.own.pack.name, base.pack.name));
    unprinted_ui(ui, &base, &draft);
    let mut edited = draft.clone();
    tables_ui(ui, editor, &base, &mut edited);
    counters_ui(ui, &base, &mut edited);
    stats_ui(ui, &base, &mut edited);
    entries_ui(ui, editor, &base, &mut edited);
    if edited != draft {
        editor.draft = Some(edited);
        editor.recheck(session);
    }
    ui.separator();
    check_ui(ui, editor);
    save_ui(ui, editor)
}

/// Which pack of the group's: one kept in the campaign, or a new one.
fn pack_choices(session: &Session) -> Vec<(String, String)> {
    session
        .house_packs()
        .unwrap_or_default()
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect()
}

fn pick_ui(ui: &mut Ui, editor: &mut HouseEditor, session: &Session) {
    let kept = pack_choices(session);
    let current = editor.draft.as_ref().map(|d| d.own.pack.id.clone());
    let shown = editor
        .draft
        .as_ref()
        .map_or_else(|| "a new pack".into(), |d| d.own.pack.name.clone());
    let mut picked = None;
    labelled_combo(
        ui,
        "The group's pack",
        |c| c.selected_text(shown),
        |ui| {
            for (id, name) in &kept {
                if ui
                    .selectable_label(current.as_deref() == Some(id), name)
                    .clicked()
                {
                    picked = Some(id.clone());
                }
            }
        },
    );
    if let Some(id) = picked
        && let Ok(draft) = session.house_draft(&id, "", "")
    {
        editor.set(session, draft);
    }
    ui.collapsing("Start a new pack of the group's", |ui| {
        let bases: Vec<(String, String)> = session
            .packs()
            .filter(|p| p.group.is_none())
            .map(|p| (p.pack.id.clone(), p.pack.name.clone()))
            .collect();
        labelled_text(ui, "Id (lower-case letters, digits, -)", &mut editor.new_id);
        labelled_text(ui, "Name", &mut editor.new_name);
        pick_id(ui, "Over the pack", &bases, &mut editor.new_base, "choose");
        if ui.button("Start it").clicked() {
            match session.house_draft(&editor.new_id, &editor.new_base, &editor.new_name) {
                Ok(draft) => editor.set(session, draft),
                Err(err) => editor.checked = Some(Err(format!("{err:#}"))),
            }
        }
    });
}

/// What the pack it is over leaves to the group, and whether the group's
/// pack gives it yet.
fn unprinted_ui(ui: &mut Ui, base: &Pack, draft: &Draft) {
    let mut lines = Vec::new();
    for t in base.tables.iter().filter(|t| t.unfilled().is_some()) {
        let filled = draft
            .own
            .tables
            .iter()
            .any(|o| o.id == t.id && !o.rows.is_empty());
        lines.push((format!("Table {}", t.name), filled));
    }
    for c in base.counters.iter().filter(|c| c.unfilled().is_some()) {
        let filled = draft
            .own
            .counters
            .iter()
            .any(|o| o.id == c.id && o.start().is_some());
        lines.push((format!("{}: its start", c.label), filled));
    }
    for s in base.stats.iter().filter(|s| s.start().is_none()) {
        let filled = draft
            .own
            .stats
            .iter()
            .any(|o| o.id == s.id && o.start().is_some());
        lines.push((
            format!("{}: a default (or each character's own)", s.label),
            filled,
        ));
    }
    if lines.is_empty() {
        return;
    }
    let empty = lines.iter().filter(|(_, filled)| !filled).count();
    // A long list starts folded: the tables below stay in view.
    egui::CollapsingHeader::new(
        RichText::new(format!(
            "Not printed in {} ({empty} of {} still empty)",
            base.pack.name,
            lines.len()
        ))
        .strong(),
    )
    .id_salt("not-printed")
    .default_open(lines.len() <= 6)
    .show(ui, |ui| {
        for (line, filled) in lines {
            let mark = if filled { "✔ filled in" } else { "empty" };
            ui.label(format!("• {line}: {mark}"));
        }
    });
}

fn tables_ui(ui: &mut Ui, editor: &mut HouseEditor, base: &Pack, draft: &mut Draft) {
    ui.add_space(6.0);
    ui.label(RichText::new("Tables").strong());
    let mut ids: Vec<(String, String)> = base
        .tables
        .iter()
        .map(|t| (t.id.clone(), t.name.clone()))
        .collect();
    for t in &draft.own.tables {
        if !ids.iter().any(|(id, _)| *id == t.id) {
            ids.push((t.id.clone(), format!("{} (the group's)", t.name)));
        }
    }
    pick_id(ui, "Table", &ids, &mut editor.table, "choose a table");
    if !editor.table.is_empty() {
        let id = editor.table.clone();
        if let Some(table) = draft.own.tables.iter().find(|t| t.id == id).cloned() {
            let mut table = table;
            if rows_ui(ui, base, &mut table) {
                draft.add_table(base, table, None);
            }
        } else if let Some(table) = base.table(&id) {
            ui.label(format!(
                "{}: {} rows, as the pack gives it.",
                table.name,
                table.rows.len()
            ));
            if ui
                .button(format!("Edit {} as the group's", table.name))
                .clicked()
            {
                draft.table_mut(base, &id);
            }
        }
    }
    ui.collapsing("Add a table of the group's", |ui| {
        let [id, name, roll, when] = &mut editor.new_table;
        labelled_text(ui, "Table id", id);
        labelled_text(ui, "Table name", name);
        labelled_text(ui, "Dice (d6, 2d6…)", roll);
        labelled_text(ui, "Rolled during a record when (empty: not rolled)", when);
        if ui.button("Add the table").clicked() && !id.trim().is_empty() {
            let table = TableDef {
                id: id.trim().to_owned(),
                name: name.trim().to_owned(),
                roll: roll.trim().to_owned(),
                modifiers: Vec::new(),
                rows: Vec::new(),
                source: String::new(),
                fill_in: None,
            };
            let during = (!when.trim().is_empty()).then(|| when.trim().to_owned());
            editor.table = table.id.clone();
            draft.add_table(base, table, during);
            editor.new_table = Default::default();
        }
    });
}

/// The rows of one of the group's tables, each field typed in place.
/// Returns whether anything changed.
fn rows_ui(ui: &mut Ui, base: &Pack, table: &mut TableDef) -> bool {
    let before = table.clone();
    labelled_text(ui, "Dice rolled on it", &mut table.roll);
    let mut remove = None;
    egui::Grid::new("house-rows")
        .num_columns(6)
        .striped(true)
        .show(ui, |ui| {
            let heads: Vec<egui::Id> = ["Totals", "Name", "Result", "Lasting", "Heals after"]
                .into_iter()
                .map(|h| ui.label(RichText::new(h).strong()).id)
                .collect();
            ui.label("");
            ui.end_row();
            for (i, row) in table.rows.iter_mut().enumerate() {
                // Sized, not only desired: a grid's cell would otherwise
                // keep the width of its first frame.
                let cell = |ui: &mut Ui, width: f32, text: &mut String| {
                    ui.add_sized(
                        [width, ui.spacing().interact_size.y],
                        egui::TextEdit::singleline(text),
                    )
                };
                cell(ui, 50.0, &mut row.on)
                    .labelled_by(heads[0])
                    .on_hover_text("Totals: 4, 2-5, 6+");
                cell(ui, 140.0, &mut row.name).labelled_by(heads[1]);
                cell(ui, 240.0, &mut row.result).labelled_by(heads[2]);
                ui.checkbox(&mut row.lasting, "")
                    .labelled_by(heads[3])
                    .on_hover_text("Lasting: stays with the character");
                let mut after = row.heals_after.unwrap_or(0);
                ui.add(egui::DragValue::new(&mut after).range(0..=99))
                    .labelled_by(heads[4])
                    .on_hover_text("Heals by itself after this many records (0: not by itself)");
                row.heals_after = (after > 0).then_some(after);
                if after > 0 {
                    row.lasting = true;
                }
                if ui
                    .small_button("Remove")
                    .on_hover_text("Remove this row")
                    .clicked()
                {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
    if let Some(i) = remove {
        table.rows.remove(i);
    }
    if ui.button("Add a row").clicked() {
        table.rows.push(TableRowDef {
            on: String::new(),
            name: String::new(),
            result: String::new(),
            effects: Vec::new(),
            fallback: None,
            lasting: false,
            heals_after: None,
            until: None,
            either_way: false,
            ruling: None,
        });
    }
    let _ = base;
    *table != before
}

fn counters_ui(ui: &mut Ui, base: &Pack, draft: &mut Draft) {
    if base.counters.is_empty() {
        return;
    }
    ui.add_space(6.0);
    ui.label(RichText::new("Counters: where each starts").strong());
    egui::Grid::new("house-counters")
        .num_columns(3)
        .show(ui, |ui| {
            for c in &base.counters {
                let own = draft.own.counters.iter().find(|o| o.id == c.id);
                let start = own.and_then(|o| o.start()).or(c.start());
                let max = own.and_then(|o| o.max).or(c.max);
                ui.label(&c.label);
                let mut has = start.is_some();
                let mut value = start.unwrap_or(0);
                let mut top = max.unwrap_or(value);
                ui.horizontal(|ui| {
                    let check = ui
                        .checkbox(&mut has, format!("{} starts at", c.label))
                        .on_hover_text(format!("{}'s start for a new character", c.label));
                    ui.add_enabled(has, egui::DragValue::new(&mut value))
                        .labelled_by(check.id);
                    let most = ui.label(format!("{} at most", c.label));
                    ui.add_enabled(has, egui::DragValue::new(&mut top))
                        .labelled_by(most.id);
                });
                if c.unfilled().is_some() {
                    ui.label(RichText::new("not printed").weak());
                }
                ui.end_row();
                let changed = (has && (Some(value) != start || Some(top) != max))
                    || (!has && start.is_some() && own.is_some());
                if changed {
                    if has {
                        draft.set_counter(base, &c.id, Some(value), Some(top.max(value)));
                    } else {
                        draft.forget("counters", &c.id);
                    }
                }
            }
        });
}

fn stats_ui(ui: &mut Ui, base: &Pack, draft: &mut Draft) {
    let unprinted: Vec<_> = base.stats.iter().filter(|s| s.fill_in.is_some()).collect();
    if unprinted.is_empty() {
        return;
    }
    ui.add_space(6.0);
    ui.label(RichText::new("Stats the text does not print: a default for new characters").strong());
    egui::Grid::new("house-stats")
        .num_columns(2)
        .show(ui, |ui| {
            for s in unprinted {
                let own = draft
                    .own
                    .stats
                    .iter()
                    .find(|o| o.id == s.id)
                    .and_then(|o| o.default);
                ui.label(&s.label);
                let mut has = own.is_some();
                let mut value = own.unwrap_or(0);
                ui.horizontal(|ui| {
                    let check = ui
                        .checkbox(&mut has, format!("{} default", s.label))
                        .on_hover_text(format!(
                            "Give {} a default; without one each character's is entered",
                            s.label
                        ));
                    ui.add_enabled(has, egui::DragValue::new(&mut value))
                        .labelled_by(check.id);
                });
                ui.end_row();
                if has && Some(value) != own {
                    draft.set_stat_default(base, &s.id, value);
                } else if !has && own.is_some() {
                    draft.forget("stats", &s.id);
                }
            }
        });
}

fn entries_ui(ui: &mut Ui, editor: &mut HouseEditor, base: &Pack, draft: &mut Draft) {
    ui.add_space(6.0);
    let words = &base.words;
    ui.label(RichText::new(format!("The group's {}", words.entries)).strong());
    let mut forget = None;
    for q in &draft.own.quirks {
        ui.horizontal(|ui| {
            ui.label(format!("{} ({})", q.name, q.category));
            if ui.small_button(format!("Remove {}", q.name)).clicked() {
                forget = Some(q.id.clone());
            }
        });
    }
    if let Some(id) = forget {
        draft.forget("quirks", &id);
    }
    ui.collapsing(format!("Add a {}", words.entry), |ui| {
        let [id, name, category, text, tags] = &mut editor.new_entry;
        labelled_text(ui, "Id", id);
        labelled_text(ui, "Name", name);
        let categories: Vec<(String, String)> = base
            .categories
            .iter()
            .map(|c| (c.id.clone(), c.label.clone()))
            .collect();
        pick_id(ui, "Category", &categories, category, "choose");
        labelled_text(ui, "Text", text);
        labelled_text(
            ui,
            "Tags, comma between (projectile: keeps its own ammo)",
            tags,
        );
        if ui.button(format!("Add the {}", words.entry)).clicked() {
            let tags: Vec<String> = tags
                .split(',')
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty())
                .collect();
            let entry = Draft::entry(id, name, category, text, &tags);
            if let Ok(entry) = entry {
                draft.put_entry(entry);
                editor.new_entry = Default::default();
            }
        }
    });
}

fn check_ui(ui: &mut Ui, editor: &HouseEditor) {
    match &editor.checked {
        Some(Ok(())) => {
            ui.label(
                RichText::new("Checks: no errors").color(egui::Color32::from_rgb(40, 140, 60)),
            );
        }
        Some(Err(err)) => {
            ui.label(RichText::new(err).color(ui.visuals().error_fg_color));
        }
        None => {}
    }
    if !editor.changes.is_empty() {
        ui.label(RichText::new("Against the pack it is over").strong());
        for c in &editor.changes {
            ui.label(format!("{}: {} → {}", c.what, c.base, c.group));
        }
    }
}

fn save_ui(ui: &mut Ui, editor: &mut HouseEditor) -> Option<Action> {
    let draft = editor.draft.clone()?;
    let ok = matches!(editor.checked, Some(Ok(())));
    let mut action = None;
    ui.horizontal(|ui| {
        if ui
            .add_enabled(ok, egui::Button::new("Keep in the campaign"))
            .on_hover_text("One change, which undo takes back")
            .clicked()
        {
            action = Some(Action::Rules(RulesAction::KeepHouseDraft {
                draft: Box::new(draft.clone()),
                play: false,
            }));
        }
        if ui
            .add_enabled(ok, egui::Button::new("Keep and play it"))
            .on_hover_text("Keep it, and make everyone who plays the pack it is over play it")
            .clicked()
        {
            action = Some(Action::Rules(RulesAction::KeepHouseDraft {
                draft: Box::new(draft.clone()),
                play: true,
            }));
        }
    });
    ui.horizontal(|ui| {
        labelled_text(ui, "Save as file", &mut editor.save_path);
        ui.checkbox(&mut editor.replace, "replace a file there");
        if ui
            .add_enabled(
                ok && !editor.save_path.trim().is_empty(),
                egui::Button::new("Save file"),
            )
            .clicked()
        {
            action = Some(Action::Rules(RulesAction::SaveHouseDraft {
                text: draft.to_text(),
                path: editor.save_path.trim().into(),
                replace: editor.replace,
            }));
        }
    });
    action
}

fn labelled_text(ui: &mut Ui, label: &str, text: &mut String) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.text_edit_singleline(text).labelled_by(l.id);
    });
}

/// A labelled dropdown of `(id, name)` choices that sets `selected` to the
/// id picked; shows `none` until one is.
fn pick_id(
    ui: &mut Ui,
    label: &str,
    choices: &[(String, String)],
    selected: &mut String,
    none: &str,
) {
    let shown = choices
        .iter()
        .find(|(id, _)| id == selected)
        .map_or(none, |(_, n)| n.as_str())
        .to_owned();
    labelled_combo(
        ui,
        label,
        |c| c.selected_text(shown),
        |ui| {
            for (id, name) in choices {
                ui.selectable_value(selected, id.clone(), name);
            }
        },
    );
}
