//! The chronicle screen: arcs, the story of an arc or of the campaign,
//! charts of resources and titles over the battles, and export.

use egui::{RichText, Ui};
use egui_plot::{Legend, Line, Plot, PlotPoints};

use super::app::{Action, edit_hint};
use crate::campaign::chronicle::Chronicle;
use crate::export::{Export, Format};
use crate::print::DocLine;

/// The screen's state.
#[derive(Debug, Default)]
pub struct ChronicleView {
    /// The arc shown; `None` is the whole campaign.
    pub arc: Option<usize>,
    /// The resource charted.
    pub resource: String,
    pub format: String,
    pub path: String,
    pub close_reason: String,
}

/// `chronicle` is the story shown (the arc's or the campaign's), `all`
/// the campaign's for the list of arcs.
#[allow(clippy::too_many_arguments)]
pub fn chronicle_ui(
    ui: &mut Ui,
    view: &mut ChronicleView,
    all: &Chronicle,
    chronicle: &Chronicle,
    campaign: &str,
    resources: &[(String, String)],
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(230.0);
            ui.heading("Chronicle");
            if ui
                .selectable_label(view.arc.is_none(), "Whole campaign")
                .clicked()
            {
                view.arc = None;
            }
            for arc in &all.arcs {
                let state = if arc.closed { "closed" } else { "open" };
                let label = format!(
                    "Arc {}: {} vs {} ({state})",
                    arc.id, arc.gangs[0], arc.gangs[1]
                );
                if ui
                    .selectable_label(view.arc == Some(arc.id), label)
                    .clicked()
                {
                    view.arc = Some(arc.id);
                }
            }
            if all.arcs.is_empty() {
                ui.weak(if all.opening_stages.is_empty() {
                    "No arc yet: this ruleset has no arcs.".to_owned()
                } else {
                    format!(
                        "No arc yet: a {} battle begins one.",
                        all.opening_stages.join(" or ")
                    )
                });
            }
            if let Some(id) = view.arc
                && let Some(arc) = all.arcs.iter().find(|a| a.id == id && !a.closed)
            {
                ui.separator();
                for (stage, scenarios) in &arc.next {
                    ui.label(format!("Next: {stage} — {}", scenarios.join(", ")));
                }
                if let Some(why) = &arc.next_why {
                    ui.weak(format!("Because {why}"));
                }
                ui.add_enabled_ui(read_only.is_none(), |ui| {
                    let label = ui.label("Reason to close it");
                    ui.text_edit_singleline(&mut view.close_reason)
                        .labelled_by(label.id);
                    if ui
                        .add_enabled(
                            !view.close_reason.trim().is_empty(),
                            egui::Button::new(format!("Close arc {id}")),
                        )
                        .on_disabled_hover_text(edit_hint(read_only))
                        .clicked()
                    {
                        action = Some(Action::CloseArc(id, view.close_reason.trim().to_owned()));
                    }
                });
            }
            ui.separator();
            ui.label(RichText::new("Export").strong());
            if view.format.is_empty() {
                view.format = "md".into();
            }
            ui.horizontal(|ui| {
                for (id, label) in [
                    ("md", "Markdown"),
                    ("html", "HTML"),
                    ("json", "JSON"),
                    ("pdf", "PDF"),
                ] {
                    ui.radio_value(&mut view.format, id.to_owned(), label);
                }
            });
            let label = ui.label("Export file path");
            ui.add(egui::TextEdit::singleline(&mut view.path).desired_width(220.0))
                .labelled_by(label.id);
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(!view.path.trim().is_empty(), egui::Button::new("Export"))
                    .clicked()
                    && let Some(format) = Format::parse(&view.format)
                {
                    let scope = view
                        .arc
                        .map_or("campaign".to_owned(), |a| format!("arc {a}"));
                    // Rendered and written on a worker thread: a decade's
                    // chronicle takes seconds as a PDF.
                    action = Some(Action::WriteExport {
                        path: std::path::PathBuf::from(view.path.trim()),
                        replace: false,
                        format,
                        campaign: campaign.to_owned(),
                        scope,
                        chronicle: Box::new(chronicle.clone()),
                    });
                }
                if ui.button("Choose file…").clicked() {
                    action = Some(Action::AskExportPath);
                }
            });
        });
        ui.separator();
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical(|ui| {
                charts_ui(ui, view, chronicle, resources);
                ui.separator();
                let scope = view
                    .arc
                    .map_or("campaign".to_owned(), |a| format!("arc {a}"));
                for line in crate::export::lines(&Export {
                    campaign,
                    scope,
                    chronicle,
                }) {
                    match line {
                        DocLine::Heading(t) => {
                            ui.add_space(6.0);
                            ui.heading(t);
                        }
                        DocLine::Subheading(t) => {
                            ui.add_space(4.0);
                            ui.label(RichText::new(t).strong().size(15.0));
                        }
                        DocLine::Text(t) => {
                            ui.label(t);
                        }
                        DocLine::Bullet(t) => {
                            ui.label(format!("  • {t}"));
                        }
                    }
                }
            })
        });
    });
    action
}

fn charts_ui(
    ui: &mut Ui,
    view: &mut ChronicleView,
    chronicle: &Chronicle,
    resources: &[(String, String)],
) {
    if chronicle.battles.is_empty() {
        return;
    }
    if view.resource.is_empty()
        && let Some((id, _)) = resources.first()
    {
        view.resource = id.clone();
    }
    ui.horizontal(|ui| {
        ui.label(RichText::new("Resources over the battles").strong());
        for (id, label) in resources {
            ui.radio_value(&mut view.resource, id.clone(), label);
        }
    });
    let series: Vec<(String, Vec<[f64; 2]>)> = chronicle
        .resource_series
        .iter()
        .filter(|((_, r), _)| *r == view.resource)
        .map(|((g, _), points)| {
            (
                g.clone(),
                points.iter().map(|(b, v)| [*b as f64, *v as f64]).collect(),
            )
        })
        .collect();
    Plot::new(("resources", view.resource.clone()))
        .height(180.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .show(ui, |plot| {
            for (gang, points) in series {
                plot.line(Line::new(gang, PlotPoints::from(points)));
            }
        });
    if !chronicle.title_series.is_empty() {
        ui.label(RichText::new("Titles over the battles").strong());
        egui::Grid::new("titles-over-time")
            .striped(true)
            .show(ui, |ui| {
                ui.strong("Title");
                for b in &chronicle.battles {
                    ui.strong(format!("#{}", b.battle));
                }
                ui.end_row();
                for (title, holders) in &chronicle.title_series {
                    ui.label(title);
                    for b in &chronicle.battles {
                        let holder = holders
                            .iter()
                            .find(|(id, _)| *id == b.battle)
                            .and_then(|(_, h)| h.clone())
                            .unwrap_or_else(|| "—".into());
                        ui.label(holder);
                    }
                    ui.end_row();
                }
            });
    }
}
