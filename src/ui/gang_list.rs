//! The left panel: the campaign's gangs, and founding a new one.

use egui::{RichText, Ui};

use super::app::{Action, edit_hint};
use super::widgets::Nouns;
use crate::campaign::GangId;
use crate::session::GangSummary;

/// The form for founding a gang.
#[derive(Debug, Default)]
pub struct FoundGangForm {
    pub name: String,
    pub ruleset: String,
    /// What the list is narrowed to (part of a name, any case).
    pub filter: String,
}

#[allow(clippy::too_many_arguments)]
pub fn gang_list_ui(
    ui: &mut Ui,
    campaign: &str,
    gangs: &[GangSummary],
    selected: Option<GangId>,
    rulesets: &[(String, String)],
    default_ruleset: &str,
    form: &mut FoundGangForm,
    nouns: Nouns<'_>,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    ui.heading(campaign);
    ui.add_space(4.0);
    ui.label(RichText::new(crate::text::capitalised(nouns.gangs)).strong());
    if gangs.is_empty() {
        ui.weak(format!("No {} yet: found one below.", nouns.gangs));
    }
    // A long list narrows as the player types.
    if gangs.len() > 8 {
        let label = ui.label(format!("Find a {}", nouns.gang));
        ui.text_edit_singleline(&mut form.filter)
            .labelled_by(label.id);
    }
    let shown = gangs
        .iter()
        .filter(|g| form.filter.trim().is_empty() || crate::text::contains(&g.name, &form.filter));
    for gang in shown {
        let mark = if gang.legal { "" } else { "  ⚠" };
        let text = format!("{}  ({}){mark}", gang.name, gang.fighters);
        let response = ui
            .selectable_label(selected == Some(gang.id), text)
            .on_hover_text(if gang.legal {
                "Follows every recruiting rule".to_owned()
            } else {
                "Breaks a recruiting rule: open it to see which".to_owned()
            });
        if response.clicked() {
            action = Some(Action::SelectGang(gang.id));
        }
    }
    ui.separator();
    ui.label(RichText::new(format!("Found a {}", nouns.gang)).strong());
    ui.add_enabled_ui(read_only.is_none(), |ui| {
        let label = ui.label(format!("New {} name", nouns.gang));
        let edit = ui
            .text_edit_singleline(&mut form.name)
            .labelled_by(label.id)
            .on_disabled_hover_text(edit_hint(read_only));
        if form.ruleset.is_empty() {
            form.ruleset = default_ruleset.to_owned();
        }
        let current = rulesets
            .iter()
            .find(|(id, _)| *id == form.ruleset)
            .map_or(form.ruleset.clone(), |(_, name)| name.clone());
        let ruleset_label = ui.label("Ruleset");
        egui::ComboBox::from_id_salt("new-gang-ruleset")
            .selected_text(current)
            .width(ui.available_width() - 8.0)
            .show_ui(ui, |ui| {
                for (id, name) in rulesets {
                    ui.selectable_value(&mut form.ruleset, id.clone(), name);
                }
            })
            .response
            .labelled_by(ruleset_label.id)
            .on_disabled_hover_text(edit_hint(read_only));
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let button = ui
            .button(format!("Found {}", nouns.gang))
            .on_disabled_hover_text(edit_hint(read_only));
        if (button.clicked() || enter) && !form.name.trim().is_empty() {
            action = Some(Action::FoundGang {
                name: form.name.trim().to_owned(),
                ruleset: form.ruleset.clone(),
            });
        }
    });
    action
}
