//! The campaign log: every event, newest first, in words.
//!
//! The rows are read and worded once per change to the campaign (the
//! newest batch id is the key), not every frame, and only the rows in
//! view are laid out.

use egui::{Context, RichText};

use crate::campaign::BatchId;
use crate::session::Session;
use crate::ui::base::action::Action;

/// How many events the window shows.
const SHOWN: usize = 200;

/// One log row, worded.
struct Row {
    batch: String,
    at: String,
    text: String,
    label: String,
}

/// The log window's rows, kept until the campaign changes.
pub struct LogView {
    key: Option<Option<BatchId>>,
    rows: Result<Vec<Row>, String>,
}

impl Default for LogView {
    fn default() -> Self {
        Self {
            key: None,
            rows: Ok(Vec::new()),
        }
    }
}

impl LogView {
    fn refresh(&mut self, session: &Session, newest: Option<BatchId>) {
        if self.key == Some(newest) {
            return;
        }
        self.key = Some(newest);
        self.rows = session
            .log(SHOWN)
            .map(|entries| {
                let names = session.names().unwrap_or_default();
                entries
                    .into_iter()
                    .map(|entry| Row {
                        batch: format!("#{}", entry.batch),
                        at: crate::ui::base::widgets::local_time(&entry.at),
                        // One row a change: a reason with a line break in it
                        // shows it escaped, never as a row of its own.
                        text: crate::text::one_line(&entry.event.describe(&names)),
                        label: entry.label,
                    })
                    .collect()
            })
            .map_err(|err| err.to_string());
    }
}

/// The log window; `newest` is the newest batch, as the app last read it.
pub fn log_ui(
    ctx: &Context,
    view: &mut LogView,
    session: &Session,
    newest: Option<BatchId>,
) -> Option<Action> {
    view.refresh(session, newest);
    let mut open = true;
    egui::Window::new("Campaign log")
        .open(&mut open)
        .default_size([520.0, 420.0])
        .show(ctx, |ui| {
            let rows = match &view.rows {
                Ok(rows) => rows,
                Err(err) => {
                    ui.label(RichText::new(err).color(ui.visuals().error_fg_color));
                    return;
                }
            };
            if rows.is_empty() {
                ui.weak("Nothing has happened in this campaign yet.");
            }
            let height = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show_rows(ui, height, rows.len(), |ui, range| {
                    for row in &rows[range] {
                        ui.horizontal(|ui| {
                            ui.add_sized(
                                [48.0, height],
                                egui::Label::new(RichText::new(&row.batch).weak()),
                            );
                            ui.add_sized(
                                [150.0, height],
                                egui::Label::new(RichText::new(&row.at).weak().small()),
                            );
                            ui.add(egui::Label::new(&row.text).truncate())
                                .on_hover_text(&row.label);
                        });
                    }
                });
        });
    (!open).then_some(Action::ShowLog(false))
}
