//! The campaign log: every event, newest first, in words.

use egui::{Context, RichText};

use super::app::Action;
use crate::session::Session;

/// How many events the window shows.
const SHOWN: usize = 200;

pub fn log_ui(ctx: &Context, session: &Session) -> Option<Action> {
    let mut open = true;
    egui::Window::new("Campaign log")
        .open(&mut open)
        .default_size([520.0, 420.0])
        .show(ctx, |ui| {
            let entries = match session.store.log(SHOWN) {
                Ok(entries) => entries,
                Err(err) => {
                    ui.label(RichText::new(err.to_string()).color(ui.visuals().error_fg_color));
                    return;
                }
            };
            let names = session.names().unwrap_or_default();
            if entries.is_empty() {
                ui.weak("Nothing has happened in this campaign yet.");
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                egui::Grid::new("log")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        for entry in entries {
                            ui.label(RichText::new(format!("#{}", entry.batch)).weak());
                            ui.label(RichText::new(entry.at.replace('T', " ")).weak().small());
                            ui.label(entry.event.describe(&names))
                                .on_hover_text(&entry.label);
                            ui.end_row();
                        }
                    });
            });
        });
    (!open).then_some(Action::ShowLog(false))
}
