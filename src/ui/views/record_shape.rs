//! The record form's shape of record (`[[record.shapes]]`): the shape
//! chosen, each side's place (first to last) or the challenger and the
//! result of a challenge, and the holding at stake.

use egui::{RichText, Ui};

use crate::rules::{Pack, ShapeDef, ShapeResult, StakeFrom};
use crate::session::HoldingLine;
use crate::ui::base::widgets::labelled_combo;
use crate::ui::views::post_battle::BattleForm;

/// The shape of the record, where the pack has shapes: one it offers,
/// chosen here where it offers more than one. A new shape starts its own
/// places, challenger and stake, with as many sides as it allows.
pub fn shape_ui(ui: &mut Ui, form: &mut BattleForm, pack: &Pack) {
    let shapes = &pack.record().shapes;
    let Some(first) = shapes.first() else {
        form.shape.clear();
        return;
    };
    let before = form.shape.clone();
    if pack.record().shape(&form.shape).is_none() {
        form.shape = first.id.clone();
    }
    if shapes.len() > 1 {
        let current = pack
            .record()
            .shape(&form.shape)
            .map_or_else(String::new, |s| s.label.clone());
        labelled_combo(
            ui,
            &format!("What kind of {}", pack.record().noun),
            |c| c.selected_text(current),
            |ui| {
                for s in shapes {
                    ui.selectable_value(&mut form.shape, s.id.clone(), &s.label)
                        .on_hover_text(&s.source);
                }
            },
        );
    }
    if before != form.shape {
        form.places.clear();
        form.challenger = None;
        form.stake = None;
    }
}

/// The most and fewest sides the record takes: its shape's, or the
/// pack's record's.
pub fn sides_allowed(form: &BattleForm, pack: &Pack) -> (usize, usize) {
    let rules = pack.record();
    match rules.shape(&form.shape) {
        Some(shape) => (
            shape.sides.min(),
            shape.sides.max().unwrap_or(rules.max_sides),
        ),
        None => (rules.min_sides, rules.max_sides),
    }
}

/// The result of a shaped record: each side's place, or the challenger
/// and who won (or a draw, where the shape has draws).
pub fn shaped_result_ui(ui: &mut Ui, form: &mut BattleForm, shape: &ShapeDef, names: &[String]) {
    form.places.resize(form.gangs.len(), None);
    match shape.result {
        ShapeResult::Placed => {
            form.challenger = None;
            form.winner = None;
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Places").strong())
                    .on_hover_text("1 is first; sides level share a place where the shape allows");
                let sides = u32::try_from(names.len()).unwrap_or(u32::MAX);
                for (i, name) in names.iter().enumerate() {
                    let mut place = form.places[i].unwrap_or(0);
                    let label = ui.label(format!("{name} placed"));
                    let drag = egui::DragValue::new(&mut place)
                        .range(0..=sides)
                        .custom_formatter(|n, _| {
                            if n < 1.0 {
                                "—".to_owned()
                            } else {
                                format!("{n}")
                            }
                        });
                    let drag = ui.add(drag).labelled_by(label.id);
                    if i == 0 {
                        form.take_jump(&drag);
                    }
                    if drag.changed() {
                        form.places[i] = (place >= 1).then_some(place);
                    }
                }
            });
        }
        ShapeResult::Challenge => {
            form.places.iter_mut().for_each(|p| *p = None);
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Challenger").strong());
                for (i, name) in names.iter().enumerate() {
                    let choice =
                        ui.radio_value(&mut form.challenger, Some(i), format!("{name} challenges"));
                    if i == 0 {
                        form.take_jump(&choice);
                    }
                }
            });
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Result").strong());
                for (i, name) in names.iter().enumerate() {
                    ui.radio_value(&mut form.winner, Some(i), format!("{name} won"));
                }
                if shape.draws {
                    ui.radio_value(&mut form.winner, None, "A draw");
                }
            });
        }
    }
}

/// The holding at stake, where the shape has a stake: one held where the
/// shape says a stake may be, or none.
pub fn stake_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    pack: &Pack,
    shape: &ShapeDef,
    holdings: &[HoldingLine],
    names: &[String],
) {
    if shape.stake.is_none() {
        form.stake = None;
        return;
    }
    let defender = form
        .challenger
        .and_then(|c| names.get(1 - c.min(1)))
        .cloned();
    let may = |h: &HoldingLine| {
        shape.stake_from.is_empty()
            || shape.stake_from.iter().any(|from| match from {
                StakeFrom::Defender => h.holder.is_some() && h.holder == defender,
                StakeFrom::Sides => h.holder.as_ref().is_some_and(|g| names.contains(g)),
                StakeFrom::Unclaimed => h.holder.is_none(),
                StakeFrom::Anyone => h.holder.is_some(),
            })
    };
    let offered: Vec<&HoldingLine> = holdings.iter().filter(|h| may(h)).collect();
    if form
        .stake
        .as_ref()
        .is_some_and(|s| !offered.iter().any(|h| h.id == *s))
    {
        form.stake = None;
    }
    let said = |h: &HoldingLine| match &h.holder {
        Some(g) => format!("{} ({g})", h.name),
        None => format!("{} (unclaimed)", h.name),
    };
    let current = form
        .stake
        .as_ref()
        .and_then(|s| offered.iter().find(|h| h.id == *s))
        .map_or_else(|| "Nothing".to_owned(), |h| said(h));
    labelled_combo(
        ui,
        &format!("{} at stake", crate::text::capitalised(&pack.words.holding)),
        |c| c.selected_text(current),
        |ui| {
            ui.selectable_value(&mut form.stake, None, "Nothing");
            for h in &offered {
                ui.selectable_value(&mut form.stake, Some(h.id.clone()), said(h));
            }
        },
    );
}
