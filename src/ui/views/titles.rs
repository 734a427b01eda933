//! The titles panel: who holds each title and how the gangs stand.

use egui::{RichText, Ui};

use crate::session::{TitleChoice, TitlesView};
use crate::ui::base::action::Action;
use crate::ui::base::action::RecordAction;
use crate::ui::base::widgets::edit_hint;

/// The choice of a gang that qualifies for several titles, as a row of
/// buttons: shown on the Titles screen and as a banner over every screen
/// until it is made.
pub fn title_choice_ui(
    ui: &mut Ui,
    choices: &[TitleChoice],
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    for choice in choices {
        let gang = &choice.name;
        ui.horizontal_wrapped(|ui| {
            let titles: Vec<&str> = choice.titles.iter().map(|(_, n)| n.as_str()).collect();
            ui.label(
                RichText::new(format!(
                    "{gang} qualifies for {} and keeps one:",
                    titles.join(" and ")
                ))
                .color(ui.visuals().warn_fg_color),
            );
            for (title, name) in &choice.titles {
                let button = ui
                    .add_enabled(
                        read_only.is_none(),
                        egui::Button::new(format!("{gang} keeps {name}")),
                    )
                    .on_disabled_hover_text(edit_hint(read_only));
                if button.clicked() {
                    action = Some(Action::Record(RecordAction::ChooseTitle {
                        gang: choice.gang,
                        title: title.clone(),
                    }));
                }
            }
        });
    }
    action
}

/// How many places of each title's standings the page shows.
const STANDINGS_SHOWN: usize = 5;

pub fn titles_ui(ui: &mut Ui, view: &TitlesView, read_only: Option<&str>) -> Option<Action> {
    ui.heading("Titles");
    if view.titles.is_empty() {
        ui.label("This ruleset has no titles: nothing is held from one record to the next.");
        return None;
    }
    ui.label("Each title is held by whoever leads what it compares, the most or the fewest (beside its name). Titles are compared after every record of a game; \"Leading now\" is who would hold each if they were compared now.");
    ui.add_space(6.0);
    egui::Grid::new("titles")
        .num_columns(4)
        .striped(true)
        .spacing([16.0, 6.0])
        .show(ui, |ui| {
            ui.strong("Title");
            ui.strong("Held by");
            ui.strong("Leading now");
            ui.strong("Standings");
            ui.end_row();
            for title in &view.titles {
                ui.label(RichText::new(&title.name).strong())
                    .on_hover_text(crate::text::capitalised(&title.measure));
                let held = match (&title.holder, &title.holder_leader) {
                    (Some(gang), Some(leader)) => format!("{leader} of {gang}"),
                    (Some(gang), None) => gang.clone(),
                    (None, _) => "nobody".to_owned(),
                };
                ui.label(held);
                ui.label(title.would_go_to.as_deref().unwrap_or("nobody"));
                // The leaders, not the whole league: the rest on hover.
                let standings: Vec<String> = title
                    .standings
                    .iter()
                    .take(STANDINGS_SHOWN)
                    .map(|(gang, n)| format!("{gang} {n}"))
                    .collect();
                let more = title.standings.len().saturating_sub(STANDINGS_SHOWN);
                let text = if more > 0 {
                    format!(
                        "{}: {} · and {more} more",
                        title.resource,
                        standings.join(" · ")
                    )
                } else {
                    format!("{}: {}", title.resource, standings.join(" · "))
                };
                ui.add(egui::Label::new(text).wrap());
                ui.end_row();
            }
        });
    let action = title_choice_ui(ui, &view.choosing, read_only);
    if !view.rulings.is_empty() {
        ui.add_space(6.0);
        for ruling in &view.rulings {
            ui.label(RichText::new(format!("Ruling: {ruling}")).weak());
        }
    }
    action
}
