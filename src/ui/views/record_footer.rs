//! The record form's footer: Commit, with the reason it is held where it
//! is, Roll again and Clear the form. It is fixed under the form, so the
//! buttons stay where the pointer left them however the preview above
//! grows or shrinks between two clicks.
//!
//! Commit takes only what the player has seen and agreed to: it is held
//! while a choice is still to make or a die typed does not fit its roll
//! (the app never rolls in place of dice thrown at the table), it asks
//! before the app rolls where typed dice were emptied, and Ctrl+Enter
//! first brings the preview into view, committing only once it is shown.

use egui::{RichText, Ui};

use crate::rules::Pack;
use crate::ui::base::action::{Action, RecordAction};
use crate::ui::base::state::BattleData;
use crate::ui::base::widgets::edit_hint;
use crate::ui::views::post_battle::{BattleForm, COMMIT, roll_label};

/// Why Commit is held, in a player's words; `None` when it may go.
fn held(form: &BattleForm, pack: &Pack, read_only: Option<&str>) -> Option<String> {
    let noun = &pack.record().noun;
    if read_only.is_some() {
        return Some(edit_hint(read_only));
    }
    let procedure = match &form.preview {
        Some(Ok(procedure)) => procedure,
        Some(Err(_)) | None => {
            return Some(format!(
                "Fill in the form above to see what the {noun} changes"
            ));
        }
    };
    if let Some((roll, why)) = refused(form, pack).first() {
        return Some(format!(
            "Your dice for {roll}: {why}. Mend them or empty the field"
        ));
    }
    match procedure.needed.len() {
        0 => None,
        1 => Some("Make the choice above first".to_owned()),
        n => Some(format!("Make the {n} choices above first")),
    }
}

/// The dice typed that do not fit a roll the record makes: (the roll in
/// the pack's words, why).
fn refused(form: &BattleForm, pack: &Pack) -> Vec<(String, String)> {
    let made = made_rolls(form);
    form.refused_dice()
        .into_iter()
        .filter(|(roll, _)| made.contains(roll))
        .map(|(roll, why)| (roll_label(pack, &roll), why))
        .collect()
}

/// The rolls the record as previewed makes.
fn made_rolls(form: &BattleForm) -> Vec<String> {
    match &form.preview {
        Some(Ok(procedure)) => procedure.rolls.iter().map(|r| r.roll.clone()).collect(),
        _ => Vec::new(),
    }
}

/// The rolls whose typed dice were emptied and that the app would now
/// roll: (id, the roll in the pack's words).
fn emptied(form: &BattleForm, pack: &Pack) -> Vec<String> {
    let made = made_rolls(form);
    form.emptied
        .iter()
        .filter(|roll| made.contains(roll) && !form.dice.contains_key(*roll))
        .map(|roll| roll_label(pack, roll))
        .collect()
}

/// The footer under the record form, its buttons on its last row. Returns the record to commit once
/// the player commits it.
pub fn record_footer_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    data: &BattleData,
    pack: Option<&Pack>,
    read_only: Option<&str>,
) -> Option<Action> {
    let pack = pack?;
    let noun = pack.record().noun.clone();
    let held = held(form, pack, read_only);
    let mut commit = false;
    // Ctrl+Enter from anywhere in the form: what is not in view is shown
    // first, and committed by the next Ctrl+Enter.
    if ui.input_mut(|i| i.consume_shortcut(&COMMIT)) {
        if !form.preview_in_view {
            form.show_preview = true;
            form.shown_by_key = true;
        } else if held.is_none() {
            commit = true;
        }
    }
    // What is asked and why Commit is held come above the buttons: the
    // buttons are the footer's last row, at the window's foot.
    ui.add_space(4.0);
    if form.confirm_app_rolls
        && let Some(action) = app_rolls_ui(ui, form, data, pack)
    {
        return Some(action);
    }
    clear_ui(ui, form);
    if let Some(why) = &held {
        ui.label(RichText::new(format!("Not ready: {why}.")).color(ui.visuals().warn_fg_color));
    } else if form.shown_by_key && form.preview_in_view {
        ui.label(format!(
            "What the {noun} changes is shown above: {} again commits it.",
            ui.ctx().format_shortcut(&COMMIT)
        ));
    }
    ui.horizontal_wrapped(|ui| {
        let button = ui
            .add_enabled(
                held.is_none(),
                egui::Button::new(RichText::new(format!("Commit {noun}")).strong()),
            )
            .on_hover_text(format!(
                "Write the {noun} and every change shown above in one step ({}: shows them first where they are out of view; Ctrl+Z takes it back)",
                ui.ctx().format_shortcut(&COMMIT)
            ))
            .on_disabled_hover_text(held.clone().unwrap_or_default());
        commit |= button.clicked();
        if ui
            .button("Roll again")
            .on_hover_text("New rolls for every roll whose dice were not entered")
            .clicked()
        {
            form.seed = crate::dice::seed_from_clock().max(1);
            form.dirty = true;
        }
        if ui
            .button("Clear the form")
            .on_hover_text("Empties the form; asks first")
            .clicked()
        {
            form.confirm_clear = true;
        }
    });
    if commit {
        form.shown_by_key = false;
        if emptied(form, pack).is_empty() {
            return commit_now(form, data);
        }
        form.confirm_app_rolls = true;
    }
    None
}

/// The record as the form says it, to commit.
fn commit_now(form: &mut BattleForm, data: &BattleData) -> Option<Action> {
    let report = form.report(data)?;
    form.emptied.clear();
    form.confirm_app_rolls = false;
    Some(Action::Record(RecordAction::Record(
        Box::new(report),
        form.seed,
    )))
}

/// Asked at Commit where typed dice were emptied: the app rolls in their
/// place only when the player says so.
fn app_rolls_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    data: &BattleData,
    pack: &Pack,
) -> Option<Action> {
    let rolls = emptied(form, pack);
    if rolls.is_empty() {
        form.confirm_app_rolls = false;
        return None;
    }
    let mut action = None;
    ui.label(
        RichText::new(format!(
            "The dice typed for {} were emptied: let the app roll in their place?",
            rolls.join(", ")
        ))
        .color(ui.visuals().warn_fg_color),
    );
    ui.horizontal(|ui| {
        if ui.button("Let the app roll").clicked() {
            action = commit_now(form, data);
        }
        if ui.button("Type them").clicked() {
            form.confirm_app_rolls = false;
            form.show_preview = true;
        }
    });
    action
}

/// Clearing the form, asked first.
fn clear_ui(ui: &mut Ui, form: &mut BattleForm) {
    if !form.confirm_clear {
        return;
    }
    ui.horizontal(|ui| {
        ui.label(
            RichText::new("Clear everything entered on this form?")
                .color(ui.visuals().warn_fg_color),
        );
        if ui.button("Clear it").clicked() {
            *form = BattleForm::default();
        }
        if ui.button("Keep it").clicked() {
            form.confirm_clear = false;
        }
    });
}
