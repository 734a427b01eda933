//! The Season screen: which cycle it is, who has played how many records
//! in it and what its end will do (ended here where a player ends it),
//! the standings, and who holds each holding (given or taken by hand,
//! with a reason). Everything in the game's words.

use std::collections::BTreeMap;

use egui::{RichText, Ui};

use crate::campaign::GangId;
use crate::campaign::battle::{BattleReport, EnteredDice, Procedure};
use crate::session::{CycleView, GangSummary, HoldingsView, SeasonView, StandingsView};
use crate::ui::base::action::{Action, SeasonAction};
use crate::ui::base::widgets::{edit_hint, labelled_combo};

/// What the Season screen holds of a campaign: the reason typed for a
/// holding given or taken, the gang chosen to give one to, and a cycle's
/// end being looked at before it is done.
#[derive(Debug, Default)]
pub struct SeasonForm {
    pub reason: String,
    /// Holding id → the gang chosen to give it to.
    pub give_to: BTreeMap<String, GangId>,
    /// The seed of the app's dice for the cycle's end shown; 0 until it is
    /// shown.
    pub seed: u64,
    /// Roll name → the faces typed from the table (`4`).
    pub dice: BTreeMap<String, String>,
    /// What ending the cycle does, as last worked out, and the newest
    /// change of the campaign then: worked out again after any other.
    pub preview: Option<Result<Procedure, String>>,
    pub preview_at: Option<crate::campaign::BatchId>,
    /// The season's export: its format and the file it goes to.
    pub format: crate::export::Format,
    pub path: String,
}

impl SeasonForm {
    /// The dice typed for the end's rolls, as a report carries them (a
    /// field that is not whole numbers yet is left out, and shown so).
    pub fn end_report(&self) -> BattleReport {
        let mut report = BattleReport::empty();
        report.dice = self
            .dice
            .iter()
            .filter_map(|(roll, faces)| {
                let faces: Option<Vec<u32>> = faces
                    .split([' ', ','])
                    .filter(|f| !f.is_empty())
                    .map(|f| f.parse().ok())
                    .collect();
                faces.filter(|f| !f.is_empty()).map(|faces| EnteredDice {
                    roll: roll.clone(),
                    faces,
                })
            })
            .collect();
        report
    }
}

/// The Season screen.
pub fn season_ui(
    ui: &mut Ui,
    view: &SeasonView,
    gangs: &[GangSummary],
    form: &mut SeasonForm,
    batch: Option<crate::campaign::BatchId>,
    read_only: Option<&str>,
) -> Option<Action> {
    ui.heading("Season");
    // A cycle's end looked at before the campaign changed is not what
    // ending it would do now.
    if form.preview.is_some() && form.preview_at != batch {
        form.preview = None;
    }
    if view.is_empty() {
        ui.label("This game keeps no season: no holdings, cycles, standings or factions.");
        return None;
    }
    let mut action = None;
    if let Some(cycle) = &view.cycle {
        action = cycle_ui(ui, cycle, form, read_only).or(action);
        ui.separator();
    }
    if let Some(standings) = &view.standings {
        standings_ui(ui, standings);
        ui.separator();
    }
    if !view.holdings.holdings.is_empty() {
        action = holdings_ui(ui, &view.holdings, gangs, form, read_only).or(action);
        ui.separator();
    }
    export_ui(ui, form).or(action)
}

/// Giving a holding to a gang, or taking it from its holder, by hand with
/// the reason typed above.
fn holding_change_ui(
    ui: &mut Ui,
    h: &crate::session::HoldingLine,
    gangs: &[GangSummary],
    form: &mut SeasonForm,
    reason: &str,
) -> Option<Action> {
    let mut action = None;
    let chosen = form.give_to.get(&h.id).copied();
    let current = chosen
        .and_then(|g| gangs.iter().find(|s| s.id == g))
        .map_or("Choose…".to_owned(), |g| g.name.clone());
    labelled_combo(
        ui,
        &format!("Give {} to", h.name),
        |c| c.selected_text(current),
        |ui| {
            for g in gangs {
                if ui.selectable_label(chosen == Some(g.id), &g.name).clicked() {
                    form.give_to.insert(h.id.clone(), g.id);
                }
            }
        },
    );
    let why = if reason.is_empty() {
        "Type the reason first"
    } else {
        "Changes who holds it, with the reason, in the log"
    };
    if ui
        .add_enabled(
            chosen.is_some() && !reason.is_empty(),
            egui::Button::new(format!("Give {}", h.name)),
        )
        .on_hover_text(why)
        .on_disabled_hover_text(why)
        .clicked()
        && let Some(gang) = chosen
    {
        action = Some(Action::Season(SeasonAction::GiveHolding {
            holding: h.id.clone(),
            gang,
            reason: reason.to_owned(),
        }));
    }
    if h.holder.is_some()
        && ui
            .add_enabled(
                !reason.is_empty(),
                egui::Button::new(format!("Take {}", h.name)),
            )
            .on_hover_text("Leaves it unclaimed, with the reason")
            .on_disabled_hover_text("Type the reason first")
            .clicked()
    {
        action = Some(Action::Season(SeasonAction::TakeHolding {
            holding: h.id.clone(),
            reason: reason.to_owned(),
        }));
    }
    action
}

/// The season written out for a club to read, one page for the wall.
fn export_ui(ui: &mut Ui, form: &mut SeasonForm) -> Option<Action> {
    use crate::export::Format;
    let mut action = None;
    ui.label(RichText::new("Export the season").strong());
    ui.horizontal_wrapped(|ui| {
        let before = form.format;
        labelled_combo(
            ui,
            "Format",
            |c| c.selected_text(before.label()),
            |ui| {
                for f in [Format::Pdf, Format::Markdown, Format::Html, Format::Json] {
                    ui.selectable_value(&mut form.format, f, f.label());
                }
            },
        );
        // The file offered follows the format chosen.
        if before != form.format
            && let Some(stem) = form.path.rsplit_once('.').map(|(s, _)| s.to_owned())
        {
            form.path = format!("{stem}.{}", form.format.extension());
        }
        let label = ui.label("File");
        let width = crate::ui::base::widgets::field_width(ui, &form.path);
        ui.add(egui::TextEdit::singleline(&mut form.path).desired_width(width))
            .labelled_by(label.id);
        if ui
            .add_enabled(!form.path.trim().is_empty(), egui::Button::new("Export"))
            .clicked()
        {
            action = Some(Action::Output(
                crate::ui::base::action::OutputAction::WriteSeason {
                    path: std::path::PathBuf::from(form.path.trim()),
                    replace: false,
                    format: form.format,
                },
            ));
        }
    });
    action
}

/// The cycle: who has played how many, what its end will do, and ending
/// it where a player may.
fn cycle_ui(
    ui: &mut Ui,
    cycle: &CycleView,
    form: &mut SeasonForm,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    ui.label(RichText::new(&cycle.said).strong().size(18.0));
    // Who has played how many, three to a row.
    let limit = cycle.limit.map_or(String::new(), |l| format!(" of {l}"));
    egui::Grid::new("cycle-played")
        .num_columns(6)
        .striped(true)
        .show(ui, |ui| {
            for (i, p) in cycle.played.iter().enumerate() {
                ui.label(&p.gang);
                ui.label(format!("{}{limit} played", p.played));
                if i % 3 == 2 {
                    ui.end_row();
                }
            }
        });
    ui.add_space(4.0);
    // What its end does: open where a player ends it, folded where its
    // records do.
    egui::CollapsingHeader::new(format!("When {} ends", cycle.said))
        .id_salt("cycle-end")
        .default_open(cycle.ends == crate::rules::CycleEnds::ByHand)
        .show(ui, |ui| {
            for change in &cycle.end {
                ui.label(change.said()).on_hover_text(&change.source);
            }
        });
    match &cycle.cannot_end {
        Some(why) => {
            ui.weak(why);
        }
        None => action = end_cycle_ui(ui, cycle, form, read_only),
    }
    action
}

/// Ending the cycle: first what it will do with the dice shown (or typed),
/// then the end itself, as shown.
fn end_cycle_ui(
    ui: &mut Ui,
    cycle: &CycleView,
    form: &mut SeasonForm,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    let Some(preview) = form.preview.take() else {
        let button = ui
            .add_enabled(
                read_only.is_none(),
                egui::Button::new(format!("End {}…", cycle.said)),
            )
            .on_hover_text("Shows what it does first, with its rolls")
            .on_disabled_hover_text(edit_hint(read_only));
        if button.clicked() {
            action = Some(Action::Season(SeasonAction::PreviewCycleEnd));
        }
        return action;
    };
    let mut keep = true;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        match &preview {
            Ok(procedure) => {
                for change in &procedure.changes {
                    ui.label(change.said()).on_hover_text(&change.source);
                }
                let mut typed = false;
                for roll in &procedure.rolls {
                    ui.horizontal(|ui| {
                        let label = ui.label(format!("Your dice for {}", roll.roll));
                        let text = form.dice.entry(roll.roll.clone()).or_default();
                        let edit = egui::TextEdit::singleline(text)
                            .desired_width(80.0)
                            .hint_text("the app's");
                        if ui.add(edit).labelled_by(label.id).changed() {
                            typed = true;
                        }
                    });
                }
                if typed {
                    action = Some(Action::Season(SeasonAction::PreviewCycleEnd));
                }
            }
            Err(err) => {
                ui.label(RichText::new(err).color(ui.visuals().error_fg_color));
            }
        }
        ui.horizontal(|ui| {
            let ok = preview.is_ok() && read_only.is_none();
            if ui
                .add_enabled(ok, egui::Button::new(format!("End {} now", cycle.said)))
                .on_disabled_hover_text(edit_hint(read_only))
                .clicked()
            {
                action = Some(Action::Season(SeasonAction::EndCycle));
            }
            if ui.button("Not now").clicked() {
                keep = false;
                form.dice.clear();
            }
        });
    });
    if keep {
        form.preview = Some(preview);
    }
    action
}

/// The standings as a table: place, gang, faction, each measure.
fn standings_ui(ui: &mut Ui, view: &StandingsView) {
    ui.label(RichText::new(&view.label).strong().size(18.0));
    let with_faction = view.faction_word.is_some();
    // A measure of no value of its own (head-to-head, between two gangs)
    // ranks without a column.
    let shown: Vec<usize> = (0..view.columns.len())
        .filter(|i| {
            view.lines
                .iter()
                .any(|l| l.values.get(*i).copied().flatten().is_some())
        })
        .collect();
    let columns = 2 + usize::from(with_faction) + shown.len();
    egui::Grid::new("standings")
        .num_columns(columns)
        .striped(true)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            ui.strong("Place");
            ui.strong(crate::text::capitalised(&view.gang_word));
            if let Some(word) = &view.faction_word {
                ui.strong(crate::text::capitalised(word));
            }
            for i in &shown {
                ui.strong(&view.columns[*i]);
            }
            ui.end_row();
            for line in &view.lines {
                let place = if line.shared {
                    format!("={}", line.place)
                } else {
                    line.place.to_string()
                };
                ui.label(place);
                ui.label(&line.gang);
                if with_faction {
                    ui.label(line.faction.as_deref().unwrap_or("—"));
                }
                for i in &shown {
                    let v = line.values.get(*i).copied().flatten();
                    ui.label(v.map_or_else(String::new, |v| v.to_string()));
                }
                ui.end_row();
            }
        });
}

/// Who holds each holding, what it gives, and giving or taking one by
/// hand with a reason.
fn holdings_ui(
    ui: &mut Ui,
    view: &HoldingsView,
    gangs: &[GangSummary],
    form: &mut SeasonForm,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    ui.label(
        RichText::new(crate::text::capitalised(&view.words))
            .strong()
            .size(18.0),
    );
    ui.horizontal(|ui| {
        let label = ui.label("Reason for a change by hand");
        ui.add(egui::TextEdit::singleline(&mut form.reason).desired_width(280.0))
            .labelled_by(label.id);
    });
    let reason = form.reason.trim().to_owned();
    for h in &view.holdings {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(&h.name).strong())
                .on_hover_text(&h.text);
            ui.label(format!("— {}", h.holder.as_deref().unwrap_or("unclaimed")));
            ui.weak(h.gives.join("; "));
        });
        ui.horizontal_wrapped(|ui| {
            ui.add_enabled_ui(read_only.is_none(), |ui| {
                if let Some(a) = holding_change_ui(ui, h, gangs, form, &reason) {
                    action = Some(a);
                }
            });
        });
        ui.add_space(4.0);
    }
    action
}
