//! Small widgets the views share: the campaign's ruleset picker and the
//! hover text of a disabled edit control. They return what was asked for
//! and change nothing themselves.

use egui::{RichText, Ui};

use crate::ui::base::action::Action;
use crate::ui::base::action::{CampaignAction, RulesAction};

/// What the game calls its gangs and fighters, for labels: the pack's
/// words, or the app's own where no pack is at hand.
#[derive(Debug, Clone, Copy)]
pub struct Nouns<'a> {
    pub gang: &'a str,
    pub gangs: &'a str,
    pub fighter: &'a str,
    pub fighters: &'a str,
    pub entries: &'a str,
    pub leader: &'a str,
    /// What one record is called (`battle`, `session`).
    pub record: &'a str,
}

impl<'a> Nouns<'a> {
    pub fn of(pack: Option<&'a crate::rules::Pack>) -> Self {
        match pack {
            Some(p) => Nouns {
                gang: &p.words.gang,
                gangs: &p.words.gangs,
                fighter: &p.words.fighter,
                fighters: &p.words.fighters,
                entries: &p.words.entries,
                leader: &p.words.leader,
                record: &p.record().noun,
            },
            None => Nouns {
                gang: "gang",
                gangs: "gangs",
                fighter: "fighter",
                fighters: "fighters",
                entries: "entries",
                leader: "leader",
                record: "record",
            },
        }
    }
}

/// A pack as a choice of game: its id, and its name as players read it
/// (house rules are a choice, and say so wherever they show).
pub fn pack_choice(pack: &crate::rules::Pack) -> (String, String) {
    let name = if pack.pack.labelled_house_rules() {
        format!("{} (house rules)", pack.pack.name)
    } else {
        pack.pack.name.clone()
    };
    (pack.pack.id.clone(), name)
}

/// The hover text of a disabled edit control.
pub fn edit_hint(read_only: Option<&str>) -> String {
    match read_only {
        Some(reason) => format!("Read-only: {reason}"),
        None => "Not available now".to_owned(),
    }
}

/// The campaign's ruleset, changeable (the change goes into the log).
pub fn ruleset_ui(
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
        let combo = egui::ComboBox::from_id_salt("campaign-ruleset")
            .selected_text(shown)
            .width(ui.available_width() - 8.0);
        show_combo(ui, combo, |ui| {
            for (id, name) in rulesets {
                ui.selectable_value(&mut chosen, id.clone(), name);
            }
        })
        .labelled_by(label.id)
        .on_hover_text(
            "The pack new gangs use; changing it moves every gang that played the old one",
        )
        .on_disabled_hover_text(edit_hint(read_only));
    });
    // Changing it moves every gang: asked first, never on one click.
    let pending_id = egui::Id::unique("campaign-ruleset-pending");
    if chosen != current {
        ui.data_mut(|d| d.insert_temp(pending_id, chosen));
    }
    let pending: Option<String> = ui.data(|d| d.get_temp(pending_id));
    let Some(pending) = pending.filter(|p| p != current) else {
        return;
    };
    let name = |id: &str| {
        rulesets
            .iter()
            .find(|(i, _)| i == id)
            .map_or_else(|| id.to_owned(), |(_, n)| n.clone())
    };
    ui.label(
        RichText::new(format!(
            "Switch every gang that plays {} to {}?",
            name(current),
            name(&pending)
        ))
        .color(ui.visuals().warn_fg_color),
    );
    ui.horizontal_wrapped(|ui| {
        if ui.button("Switch them").clicked() {
            actions.push(Action::Rules(RulesAction::SetRuleset(pending.clone())));
            ui.data_mut(|d| d.remove::<String>(pending_id));
        }
        if ui.button("Keep the ruleset").clicked() {
            ui.data_mut(|d| d.remove::<String>(pending_id));
        }
    });
}

/// The choices the campaign's packs leave to the group (when plot points
/// return), each a dropdown; the pack's default is marked until chosen.
pub fn settings_ui(
    ui: &mut Ui,
    settings: &[crate::session::SettingView],
    read_only: Option<&str>,
    actions: &mut Vec<Action>,
) {
    ui.add_enabled_ui(read_only.is_none(), |ui| {
        for setting in settings {
            let mut chosen = setting.chosen.clone();
            let shown = if setting.by_default {
                format!("{} (default)", setting.chosen_label())
            } else {
                setting.chosen_label().to_owned()
            };
            let mut hover = format!("{}: {}", setting.pack, setting.source);
            if let Some(ruling) = &setting.ruling {
                hover.push_str(&format!("\n[ruling] {ruling}"));
            }
            ui.vertical(|ui| {
                let label = ui.label(&setting.label);
                let combo =
                    egui::ComboBox::from_id_salt(("setting", &setting.id)).selected_text(shown);
                show_combo(ui, combo, |ui| {
                    for (id, text) in &setting.options {
                        ui.selectable_value(&mut chosen, id.clone(), text);
                    }
                })
                .labelled_by(label.id)
                .on_hover_text(hover);
            });
            if chosen != setting.chosen {
                actions.push(Action::Rules(RulesAction::SetSetting {
                    setting: setting.id.clone(),
                    option: chosen,
                }));
            }
        }
    });
}

/// The house rules the campaign keeps, each with a button to take it out
/// (not while it is played), and one to keep another pack file.
pub fn house_rules_ui(
    ui: &mut Ui,
    house: &[crate::session::HousePack],
    read_only: Option<&str>,
    actions: &mut Vec<Action>,
) {
    ui.add_enabled_ui(read_only.is_none(), |ui| {
        for pack in house {
            // The name and its button one under the other: the sidebar is
            // narrow.
            ui.vertical(|ui| {
                // A whole game of the group's own is its name; house
                // rules over another pack say so.
                ui.label(if pack.base.is_some() {
                    format!("{} (house rules)", pack.name)
                } else {
                    pack.name.clone()
                });
                let played = !pack.played_by.is_empty();
                let button = ui
                    .add_enabled(!played, egui::Button::new(format!("Take out {}", pack.name)).small())
                    .on_hover_text("Take these house rules out of the campaign")
                    .on_disabled_hover_text(if played {
                        format!("Played by {}", pack.played_by.join(", "))
                    } else {
                        edit_hint(read_only)
                    });
                if button.clicked() {
                    actions.push(Action::Rules(RulesAction::DropHousePack(pack.id.clone())));
                }
            });
        }
        if ui
            .button("The group's data…")
            .on_hover_text(
                "Fill in what the rule text does not print (its tables, counters' starts, entries) as your group's own house rules",
            )
            .on_disabled_hover_text(edit_hint(read_only))
            .clicked()
        {
            actions.push(Action::Rules(RulesAction::OpenHouseEditor));
        }
        if ui
            .button("Keep house rules…")
            .on_hover_text(
                "Keep a ruleset pack file of your group's own in the campaign, for every laptop that opens it",
            )
            .on_disabled_hover_text(edit_hint(read_only))
            .clicked()
        {
            actions.push(Action::Campaign(CampaignAction::AskPath(crate::ui::base::action::PathPurpose::HouseRules)));
        }
    });
}

/// A dropdown with its label before it, read as a sentence (`Scenario
/// [Headhunters ▾]`; egui's `ComboBox::from_label` puts the label after).
/// The label also names the dropdown for screen readers. `combo` sets the
/// dropdown's text and width; `add` draws its choices.
pub fn labelled_combo<R>(
    ui: &mut Ui,
    label: &str,
    combo: impl FnOnce(egui::ComboBox) -> egui::ComboBox,
    add: impl FnOnce(&mut Ui) -> R,
) -> egui::Response {
    ui.horizontal(|ui| {
        let text = ui.label(label);
        show_combo(ui, combo(egui::ComboBox::from_id_salt(label)), add).labelled_by(text.id)
    })
    .inner
}

/// Shows `combo` with the choices `add` puts in its list. A choice made
/// with the keyboard (Enter or Space on it) closes the list, as a click
/// does, and gives the focus back to the box, so Tab goes on to the next
/// field.
pub fn show_combo<R>(
    ui: &mut Ui,
    combo: egui::ComboBox,
    add: impl FnOnce(&mut Ui) -> R,
) -> egui::Response {
    let mut chosen_by_key = false;
    let response = combo
        .show_ui(ui, |ui| {
            let before = ui.memory(|m| m.focused());
            let inner = add(ui);
            let pressed =
                ui.input(|i| i.key_pressed(egui::Key::Enter) || i.key_pressed(egui::Key::Space));
            let in_list = before
                .and_then(|id| ui.ctx().read_response(id))
                .is_some_and(|r| r.layer_id == ui.layer_id());
            if pressed && in_list {
                chosen_by_key = true;
                ui.close();
            }
            inner
        })
        .response;
    if chosen_by_key {
        response.request_focus();
    }
    response
}

/// A score after its value (` · VP 2`), where there is one.
pub fn score_suffix(label: Option<&str>, score: Option<i64>) -> String {
    label
        .zip(score)
        .map_or(String::new(), |(label, s)| format!(" · {label} {s}"))
}

/// How a fighter's value was worked out, a line a part, for hover texts.
pub fn value_breakdown(value: &crate::campaign::valuation::FighterValue) -> String {
    let mut lines: Vec<String> = value
        .parts
        .iter()
        .map(|p| {
            let ruling = if p.ruling.is_some() { "  [ruling]" } else { "" };
            format!("{}: {}{ruling}", p.from, p.points)
        })
        .collect();
    if let Some(sum) = value.raised_from {
        lines.push(format!(
            "adds up to {sum}; the least it can be worth is {}",
            value.value
        ));
    }
    lines.join("\n")
}

/// A logged time (UTC, as the file keeps it) in the player's own time
/// zone, to the minute; as stored where it does not read as a time.
pub fn local_time(at: &str) -> String {
    at.parse::<jiff::Timestamp>().map_or_else(
        |_| at.to_owned(),
        |t| {
            t.to_zoned_datetime(jiff::tz::TimeZone::system())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        },
    )
}

/// The width a one-line field takes: what its text needs (and a little
/// more to type into), at least a short path's, at most the room left.
pub fn field_width(ui: &Ui, text: &str) -> f32 {
    width_within(ui, text, ui.available_width())
}

/// What `text` needs to be read whole in a field, at least a short
/// path's, at most `room`.
fn width_within(ui: &Ui, text: &str, room: f32) -> f32 {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let needs = ui
        .painter()
        .layout_no_wrap(text.to_owned(), font, egui::Color32::WHITE)
        .size()
        .x
        + 24.0;
    needs.max(240.0).min(room.max(120.0))
}

/// A one-line field as wide as its text needs, up to `room` (the width
/// of the panel it is in, less what shares its row): in a grid too, where
/// a cell is only as wide as it was last drawn and a field left to its
/// cell would show three letters.
pub fn wide_field(ui: &mut Ui, text: &mut String, room: f32) -> egui::Response {
    let width = width_within(ui, text, room);
    ui.add_sized(
        [width, ui.spacing().interact_size.y],
        egui::TextEdit::singleline(text).desired_width(width),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logged_times_show_in_the_local_zone_to_the_minute() {
        let shown = local_time("2026-11-24T21:40:05.123Z");
        let expected = "2026-11-24T21:40:05.123Z"
            .parse::<jiff::Timestamp>()
            .unwrap();
        let expected = expected.to_zoned_datetime(jiff::tz::TimeZone::system());
        assert_eq!(shown, expected.strftime("%Y-%m-%d %H:%M").to_string());
        assert_eq!(local_time("not a time"), "not a time");
    }
}
