//! The print window: which fighters, card and page size, blanks, a preview
//! of the first page, Save PDF and Open the PDF.

use std::collections::BTreeSet;
use std::path::PathBuf;

use egui::{Color32, Context, FontId, Pos2, Rect, RichText, Stroke, Ui, Vec2};

use crate::campaign::{FighterId, GangId};
use crate::print::{CardSize, Item, PageLayout, PageSize};
use crate::ui::base::action::Action;
use crate::ui::base::action::OutputAction;

/// What to print, as the player set it.
#[derive(Debug, Clone, PartialEq)]
pub struct PrintRequest {
    /// The gang; `None` is every gang of the campaign.
    pub gang: Option<GangId>,
    /// Only these fighters (empty: all).
    pub fighters: BTreeSet<FighterId>,
    pub size: CardSize,
    pub page: PageSize,
    pub blanks: usize,
    /// Blank cards alone, no fighter's.
    pub blank_only: bool,
    /// Only the fighters who can fight the next battle.
    pub crew: bool,
    pub write_in: bool,
    /// Crop marks outside the grid.
    pub marks: bool,
    /// Bleed in mm.
    pub bleed: f32,
    /// A hairline on each cut, where there is bleed and no crop marks.
    pub cut_guide: bool,
    /// A roster sheet instead of cards.
    pub roster: bool,
}

/// The window's state.
#[derive(Debug)]
pub struct PrintDialog {
    pub request: PrintRequest,
    pub path: String,
    pub preview: Option<Result<PageLayout, String>>,
    pub pages: usize,
    pub dirty: bool,
    pub written: Option<PathBuf>,
    pub error: Option<String>,
    /// Characters no font draws, printed as a placeholder: whose, which.
    pub warnings: Vec<String>,
    /// The PDF being written in the background, when one is.
    pub writing: Option<PathBuf>,
}

impl PrintDialog {
    pub fn new(gang: Option<GangId>, roster: bool, dir: PathBuf, name: &str) -> Self {
        let file = if roster {
            format!("{name} roster.pdf")
        } else {
            format!("{name} cards.pdf")
        };
        Self {
            request: PrintRequest {
                gang,
                fighters: BTreeSet::new(),
                size: CardSize::Poker,
                page: PageSize::A4,
                blanks: 0,
                blank_only: false,
                crew: false,
                write_in: false,
                marks: true,
                bleed: 0.0,
                cut_guide: true,
                roster,
            },
            path: dir.join(file).display().to_string(),
            preview: None,
            pages: 0,
            dirty: true,
            written: None,
            error: None,
            warnings: Vec::new(),
            writing: None,
        }
    }
}

/// `fighters`: the gang's fighters (id, name) to choose from.
pub fn print_dialog_ui(
    ctx: &Context,
    dialog: &mut PrintDialog,
    fighters: &[(FighterId, String)],
    words: &crate::rules::Words,
) -> Option<Action> {
    let mut action = None;
    let mut open = true;
    let before = dialog.request.clone();
    let title = if dialog.request.roster {
        "Print roster"
    } else {
        "Print cards"
    };
    egui::Window::new(title)
        .open(&mut open)
        .default_size([860.0, 620.0])
        .show(ctx, |ui| {
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    ui.set_width(260.0);
                    options_ui(ui, dialog, fighters, words);
                    ui.separator();
                    let label = ui.label("PDF file path");
                    ui.add(egui::TextEdit::singleline(&mut dialog.path).desired_width(250.0))
                        .labelled_by(label.id);
                    ui.horizontal(|ui| {
                        let ready =
                            matches!(dialog.preview, Some(Ok(_))) && dialog.writing.is_none();
                        if ui
                            .add_enabled(ready, egui::Button::new("Save PDF"))
                            .on_disabled_hover_text(if dialog.writing.is_some() {
                                "A PDF is being written"
                            } else {
                                "Fix what the preview reports first"
                            })
                            .clicked()
                        {
                            action = Some(Action::Output(OutputAction::SavePdf {
                                path: PathBuf::from(dialog.path.trim()),
                                replace: false,
                            }));
                        }
                        if ui.button("Choose file…").clicked() {
                            action = Some(Action::ChooseFile(
                                crate::ui::base::action::FileField::PrintPdf,
                            ));
                        }
                    });
                    if let Some(path) = &dialog.writing {
                        ui.horizontal(|ui| {
                            ui.spinner();
                            ui.label(format!("Writing {}…", path.display()));
                        });
                    }
                    if let Some(path) = &dialog.written {
                        ui.label(format!("Saved {}", path.display()));
                        if ui.button("Open the PDF").clicked() {
                            action = Some(Action::Output(OutputAction::OpenFile(path.clone())));
                        }
                    }
                    if let Some(err) = &dialog.error {
                        ui.label(RichText::new(err).color(ui.visuals().error_fg_color));
                    }
                    for warning in &dialog.warnings {
                        ui.label(RichText::new(warning).color(ui.visuals().warn_fg_color));
                    }
                });
                ui.separator();
                ui.vertical(|ui| match &dialog.preview {
                    Some(Ok(page)) => {
                        ui.label(format!(
                            "First page of {} ({} page{})",
                            title.to_lowercase().trim_start_matches("print "),
                            dialog.pages,
                            if dialog.pages == 1 { "" } else { "s" }
                        ));
                        preview_ui(ui, page);
                    }
                    Some(Err(err)) => {
                        ui.label(
                            RichText::new(format!("⚠ {err}")).color(ui.visuals().error_fg_color),
                        );
                    }
                    None => {
                        ui.weak("Preparing the preview…");
                    }
                });
            });
        });
    if dialog.request != before {
        dialog.dirty = true;
        dialog.written = None;
    }
    if !open {
        action = Some(Action::Output(OutputAction::ClosePrint));
    }
    action
}

fn options_ui(
    ui: &mut Ui,
    dialog: &mut PrintDialog,
    fighters: &[(FighterId, String)],
    words: &crate::rules::Words,
) {
    let request = &mut dialog.request;
    if !request.roster {
        ui.label(RichText::new(crate::text::capitalised(&words.fighters)).strong());
        if request.gang.is_none() {
            ui.weak(format!("Every {} of the campaign", words.gang));
        }
        for (id, name) in fighters {
            let mut on = request.fighters.is_empty() || request.fighters.contains(id);
            if ui.checkbox(&mut on, format!("Print {name}")).changed() {
                if request.fighters.is_empty() {
                    request.fighters = fighters.iter().map(|(f, _)| *f).collect();
                }
                if on {
                    request.fighters.insert(*id);
                } else {
                    request.fighters.remove(id);
                }
                if request.fighters.len() == fighters.len() {
                    request.fighters.clear();
                }
            }
        }
        ui.add_space(4.0);
        ui.label(RichText::new("Card size").strong());
        ui.radio_value(&mut request.size, CardSize::Poker, "Poker, 63 × 88 mm");
        ui.radio_value(&mut request.size, CardSize::Large, "Large, 100 × 110 mm");
        ui.radio_value(
            &mut request.size,
            CardSize::Sheet,
            "Character sheet, 190 × 130 mm",
        );
        ui.checkbox(
            &mut request.crew,
            "Only those who can take part in the next game",
        )
        .on_hover_text("Leaves out the wounded, the held and the gone");
        ui.horizontal(|ui| {
            let label = ui.label("Blank cards");
            ui.add(egui::DragValue::new(&mut request.blanks).range(0..=54))
                .labelled_by(label.id);
        });
        ui.add_enabled(
            request.blanks > 0,
            egui::Checkbox::new(&mut request.blank_only, "Blank cards only"),
        );
        ui.checkbox(
            &mut request.write_in,
            "Boxes to write in (counters and notes)",
        );
        ui.add_space(4.0);
        ui.label(RichText::new("Cutting").strong());
        ui.checkbox(&mut request.marks, "Crop marks");
        ui.horizontal(|ui| {
            let label = ui.label("Printed past the cut (mm)");
            ui.add(
                egui::DragValue::new(&mut request.bleed)
                    .range(0.0..=crate::print::card::MAX_BLEED)
                    .speed(0.1),
            )
            .labelled_by(label.id)
            .on_hover_text("The header band runs this far past the cut, and the cards sit apart; at 0, neighbouring cards share their cut lines");
        });
        if !request.marks && request.bleed > 0.0 {
            ui.checkbox(&mut request.cut_guide, "Cut guide between the cards")
                .on_hover_text("A hairline on each cut, in the gaps between the cards");
        }
    }
    ui.label(RichText::new("Paper").strong());
    ui.radio_value(&mut request.page, PageSize::A4, "A4");
    ui.radio_value(&mut request.page, PageSize::Letter, "Letter");
}

/// Draws a laid-out page, scaled to the space there is.
fn preview_ui(ui: &mut Ui, page: &PageLayout) {
    let avail = ui.available_size();
    let scale = (avail.x / page.w).min((avail.y - 8.0).max(200.0) / page.h);
    let (rect, _) = ui.allocate_exact_size(
        Vec2::new(page.w * scale, page.h * scale),
        egui::Sense::hover(),
    );
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::WHITE);
    let at = |x: f32, y: f32| Pos2::new(rect.left() + x * scale, rect.top() + y * scale);
    let ink = Color32::from_gray(20);
    for item in &page.items {
        match item {
            Item::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
            } => {
                let r = Rect::from_min_size(at(*x, *y), Vec2::new(w * scale, h * scale));
                if let Some(grey) = fill {
                    painter.rect_filled(r, 0.0, Color32::from_gray((grey * 255.0) as u8));
                }
                if *stroke > 0.0 {
                    painter.rect_stroke(
                        r,
                        0.0,
                        Stroke::new((stroke * scale).max(0.5), ink),
                        egui::StrokeKind::Middle,
                    );
                }
            }
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                width,
            } => {
                painter.line_segment(
                    [at(*x1, *y1), at(*x2, *y2)],
                    Stroke::new((width * scale).max(0.5), ink),
                );
            }
            Item::Text {
                x, y, size, text, ..
            } => {
                let px = size * 25.4 / 72.0 * scale;
                painter.text(
                    at(*x, *y),
                    egui::Align2::LEFT_BOTTOM,
                    crate::text::visible(text),
                    FontId::proportional(px.max(1.0)),
                    ink,
                );
            }
            Item::Image { x, y, w, h, .. } => {
                let r = Rect::from_min_size(at(*x, *y), Vec2::new(w * scale, h * scale));
                painter.rect_filled(r, 0.0, Color32::from_gray(200));
                painter.text(
                    r.center(),
                    egui::Align2::CENTER_CENTER,
                    "photo",
                    FontId::proportional(10.0),
                    ink,
                );
            }
        }
    }
}
