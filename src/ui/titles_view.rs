//! The titles panel: who holds each title and how the gangs stand.

use egui::{RichText, Ui};

use crate::session::TitlesView;

pub fn titles_ui(ui: &mut Ui, view: &TitlesView) {
    ui.heading("Titles");
    ui.label("The leader of the gang with the most of a resource holds its title. Titles are compared after every battle.");
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
                    .on_hover_text(format!("Most {}", title.resource));
                ui.label(title.holder.as_deref().unwrap_or("nobody"));
                ui.label(title.would_go_to.as_deref().unwrap_or("nobody"));
                let standings: Vec<String> = title
                    .standings
                    .iter()
                    .map(|(gang, n)| format!("{gang} {n}"))
                    .collect();
                ui.label(format!("{}: {}", title.resource, standings.join(" · ")));
                ui.end_row();
            }
        });
    for (gang, titles) in &view.must_choose {
        ui.label(
            RichText::new(format!(
                "{gang} qualifies for {} and will choose one at the next battle.",
                titles.join(" and ")
            ))
            .color(ui.visuals().warn_fg_color),
        );
    }
    if !view.rulings.is_empty() {
        ui.add_space(6.0);
        for ruling in &view.rulings {
            ui.label(RichText::new(format!("Ruling: {ruling}")).weak());
        }
    }
}
