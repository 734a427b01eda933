//! The left panel: the campaign's gangs, and founding a new one.

use egui::{RichText, Ui};

use crate::campaign::{BatchId, GangId};
use crate::session::GangSummary;
use crate::ui::base::action::Action;
use crate::ui::base::action::GangAction;
use crate::ui::base::widgets::Nouns;
use crate::ui::base::widgets::edit_hint;

/// The form for founding a gang.
#[derive(Debug, Default)]
pub struct FoundGangForm {
    pub name: String,
    pub ruleset: String,
    /// The open campaign's ruleset the choice was last set from: when it
    /// changes (another campaign, or its ruleset changed), so does the
    /// choice.
    pub from_default: String,
    /// What the list is narrowed to (part of a name, any case).
    pub filter: String,
    /// The rows that filter shows.
    pub shown: Shown,
    /// The faction chosen, by name, where the game has factions.
    pub faction: Option<String>,
    /// The starting holding chosen, by name, where the game offers one.
    pub holding: Option<String>,
}

/// What a new gang of the campaign's game chooses beside its name: its
/// faction and a starting holding, with the game's words for them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Founding<'a> {
    pub factions: &'a [String],
    pub faction_word: &'a str,
    /// The holdings a gang may start with that no gang holds.
    pub starting: &'a [String],
    pub holding_word: &'a str,
}

/// The rows the list shows: the indices of the gangs matching the filter,
/// worked out when the filter or the campaign changes, not every frame.
#[derive(Debug, Default)]
pub struct Shown {
    key: Option<(String, Option<BatchId>, usize)>,
    rows: Vec<usize>,
    /// The rows (places in `rows`) in view when the list was last drawn.
    in_view: Option<std::ops::Range<usize>>,
}

/// How many rows either side of those in view have their marks worked
/// out ahead, and how many are at the top before the list is first drawn.
const AHEAD: usize = 40;
const FIRST_ROWS: usize = 80;

impl FoundGangForm {
    /// The gangs (places in `gangs`) the list shows now or soon: those
    /// in view when it was last drawn and forty rows either side, or the
    /// first eighty before it is drawn.
    pub fn rows_near_view(&mut self, gangs: &[GangSummary], batch: Option<BatchId>) -> Vec<usize> {
        let in_view = self.shown.in_view.clone();
        let rows = self.shown.rows(gangs, self.filter.trim(), batch);
        let near = match in_view {
            Some(range) => range.start.saturating_sub(AHEAD)..range.end.saturating_add(AHEAD),
            None => 0..FIRST_ROWS,
        };
        rows[near.start.min(rows.len())..near.end.min(rows.len())].to_vec()
    }
}

impl Shown {
    fn rows(&mut self, gangs: &[GangSummary], filter: &str, batch: Option<BatchId>) -> &[usize] {
        let key = (filter.to_owned(), batch, gangs.len());
        if self.key.as_ref() != Some(&key) {
            let part = crate::text::key(filter);
            self.rows = gangs
                .iter()
                .enumerate()
                .filter(|(_, g)| part.is_empty() || crate::text::key(&g.name).contains(&part))
                .map(|(i, _)| i)
                .collect();
            self.key = Some(key);
        }
        &self.rows
    }
}

/// The campaign's gangs: only the rows in view are laid out, so a league
/// of two thousand costs a frame what a club of eight does.
#[allow(clippy::too_many_arguments)]
pub fn gang_list_ui(
    ui: &mut Ui,
    campaign: &str,
    gangs: &[GangSummary],
    batch: Option<BatchId>,
    selected: Option<GangId>,
    form: &mut FoundGangForm,
    nouns: Nouns<'_>,
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
    let rows = form.shown.rows(gangs, form.filter.trim(), batch);
    if rows.is_empty() && !gangs.is_empty() {
        ui.weak(format!(
            "No {} matches “{}”.",
            nouns.gang,
            form.filter.trim()
        ));
    }
    let height = ui.spacing().interact_size.y;
    let mut in_view = None;
    egui::ScrollArea::vertical()
        .id_salt("gang-rows")
        .auto_shrink([false, true])
        .show_rows(ui, height, rows.len(), |ui, range| {
            in_view = Some(range.clone());
            for &i in &rows[range] {
                let gang = &gangs[i];
                let mark = if gang.legal == Some(false) {
                    "  ⚠"
                } else {
                    ""
                };
                let size = gang
                    .fighters
                    .map_or_else(|| "…".to_owned(), |n| n.to_string());
                let text = format!("{}  ({size}){mark}", gang.name);
                let response = ui
                    .selectable_label(selected == Some(gang.id), text)
                    .on_hover_text(match gang.legal {
                        Some(true) => "Follows every recruiting rule",
                        Some(false) => "Breaks a recruiting rule: open it to see which",
                        None => "Its recruiting rules are being checked",
                    });
                if gang.legal.is_none() {
                    // Scrolled beyond the rows worked out ahead: the
                    // next frame works it out.
                    ui.ctx().request_repaint();
                }
                if response.clicked() {
                    action = Some(Action::Gang(GangAction::Select(gang.id)));
                }
            }
        });
    form.shown.in_view = in_view;
    action
}

/// Founding a gang: its name and ruleset.
pub fn found_gang_ui(
    ui: &mut Ui,
    rulesets: &[(String, String)],
    default_ruleset: &str,
    form: &mut FoundGangForm,
    nouns: Nouns<'_>,
    founding: Founding<'_>,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    ui.label(RichText::new(format!("Found a {}", nouns.gang)).strong());
    ui.add_enabled_ui(read_only.is_none(), |ui| {
        let label = ui.label(format!("New {} name", nouns.gang));
        let edit = ui
            .text_edit_singleline(&mut form.name)
            .labelled_by(label.id)
            .on_disabled_hover_text(edit_hint(read_only));
        // The choice follows the open campaign, and is always one it has.
        let known = rulesets.iter().any(|(id, _)| *id == form.ruleset);
        if form.from_default != default_ruleset || !known {
            form.ruleset = default_ruleset.to_owned();
            form.from_default = default_ruleset.to_owned();
        }
        let current = rulesets
            .iter()
            .find(|(id, _)| *id == form.ruleset)
            .map_or(form.ruleset.clone(), |(_, name)| name.clone());
        let ruleset_label = ui.label("Ruleset");
        let combo = egui::ComboBox::from_id_salt("new-gang-ruleset")
            .selected_text(current)
            .width(ui.available_width() - 8.0);
        crate::ui::base::widgets::show_combo(ui, combo, |ui| {
            for (id, name) in rulesets {
                ui.selectable_value(&mut form.ruleset, id.clone(), name);
            }
        })
        .labelled_by(ruleset_label.id)
        .on_disabled_hover_text(edit_hint(read_only));
        founding_choices_ui(ui, form, founding);
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let button = ui
            .button(format!("Found {}", nouns.gang))
            .on_disabled_hover_text(edit_hint(read_only));
        if (button.clicked() || enter) && !form.name.trim().is_empty() {
            action = Some(Action::Gang(GangAction::Found {
                name: form.name.trim().to_owned(),
                ruleset: form.ruleset.clone(),
                faction: form.faction.clone(),
                holding: form.holding.clone(),
            }));
        }
    });
    action
}

/// The faction a new gang joins and the holding it starts with, where
/// the game asks for them.
fn founding_choices_ui(ui: &mut Ui, form: &mut FoundGangForm, founding: Founding<'_>) {
    if !founding.factions.is_empty() {
        if form
            .faction
            .as_ref()
            .is_none_or(|f| !founding.factions.contains(f))
        {
            form.faction = founding.factions.first().cloned();
        }
        let word = crate::text::capitalised(founding.faction_word);
        let current = form.faction.clone().unwrap_or_default();
        crate::ui::base::widgets::labelled_combo(
            ui,
            &word,
            |c| c.selected_text(current),
            |ui| {
                for f in founding.factions {
                    ui.selectable_value(&mut form.faction, Some(f.clone()), f);
                }
            },
        );
    } else {
        form.faction = None;
    }
    if founding.starting.is_empty() {
        form.holding = None;
        return;
    }
    if form
        .holding
        .as_ref()
        .is_some_and(|h| !founding.starting.contains(h))
    {
        form.holding = None;
    }
    let label = format!("Starting {}", founding.holding_word);
    let current = form.holding.clone().unwrap_or_else(|| "None".to_owned());
    crate::ui::base::widgets::labelled_combo(
        ui,
        &label,
        |c| c.selected_text(current),
        |ui| {
            ui.selectable_value(&mut form.holding, None, "None");
            for h in founding.starting {
                ui.selectable_value(&mut form.holding, Some(h.clone()), h);
            }
        },
    );
}
