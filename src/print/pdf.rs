//! Writes laid-out pages as PDF with printpdf: fonts embedded as subsets,
//! photos as images. The origin moves from the layout's top-left to PDF's
//! bottom-left here, and nowhere else.

use printpdf::{
    Color, Greyscale, Line, LinePoint, Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfFontHandle,
    PdfPage, PdfSaveOptions, Point, Pt, RawImage, Rect, TextItem, XObjectTransform,
};

use super::fonts::{BOLD, REGULAR};
use super::layout::{Item, PageLayout};
use super::{CardData, PrintError};

fn pt(mm: f32) -> Pt {
    Mm(mm).into_pt()
}

pub(super) fn write(
    pages: &[PageLayout],
    cards: &[CardData],
    title: &str,
) -> Result<Vec<u8>, PrintError> {
    let mut doc = PdfDocument::new(title);
    let mut warnings = Vec::new();
    let regular = ParsedFont::from_bytes(REGULAR, 0, &mut warnings)
        .ok_or_else(|| PrintError::Font("DejaVu Sans could not be read".into()))?;
    let bold = ParsedFont::from_bytes(BOLD, 0, &mut warnings)
        .ok_or_else(|| PrintError::Font("DejaVu Sans Bold could not be read".into()))?;
    let regular = doc.add_font(&regular);
    let bold = doc.add_font(&bold);

    // Each photo once, however many pages show it.
    let mut images = std::collections::BTreeMap::new();
    for (i, card) in cards.iter().enumerate() {
        if let Some(bytes) = &card.photo {
            let mut image_warnings = Vec::new();
            let image =
                RawImage::decode_from_bytes(bytes, &mut image_warnings).map_err(|reason| {
                    PrintError::Photo {
                        fighter: card.name.clone(),
                        reason,
                    }
                })?;
            let size = (image.width, image.height);
            images.insert(i, (doc.add_image(&image), size));
        }
    }

    let mut out = Vec::new();
    for page in pages {
        let h = page.h;
        let mut ops = Vec::new();
        for item in &page.items {
            match item {
                Item::Rect {
                    x,
                    y,
                    w,
                    h: rh,
                    fill,
                    stroke,
                } => {
                    let rect = |mode| Rect {
                        mode: Some(mode),
                        ..Rect::from_xywh(pt(*x), pt(h - y - rh), pt(*w), pt(*rh))
                    };
                    if let Some(grey) = fill {
                        ops.push(Op::SetFillColor {
                            col: Color::Greyscale(Greyscale::new(*grey, None)),
                        });
                        ops.push(Op::DrawRectangle {
                            rectangle: rect(PaintMode::Fill),
                        });
                        ops.push(Op::SetFillColor {
                            col: Color::Greyscale(Greyscale::new(0.0, None)),
                        });
                    }
                    if *stroke > 0.0 {
                        ops.push(Op::SetOutlineThickness { pt: pt(*stroke) });
                        ops.push(Op::DrawRectangle {
                            rectangle: rect(PaintMode::Stroke),
                        });
                    }
                }
                Item::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    width,
                } => {
                    ops.push(Op::SetOutlineThickness { pt: pt(*width) });
                    ops.push(Op::DrawLine {
                        line: Line {
                            points: vec![
                                LinePoint {
                                    p: Point::new(Mm(*x1), Mm(h - y1)),
                                    bezier: false,
                                },
                                LinePoint {
                                    p: Point::new(Mm(*x2), Mm(h - y2)),
                                    bezier: false,
                                },
                            ],
                            is_closed: false,
                        },
                    });
                }
                Item::Text {
                    x,
                    y,
                    size,
                    bold: is_bold,
                    text,
                } => {
                    let font = if *is_bold { &bold } else { &regular };
                    ops.push(Op::StartTextSection);
                    ops.push(Op::SetTextCursor {
                        pos: Point::new(Mm(*x), Mm(h - y)),
                    });
                    ops.push(Op::SetFont {
                        font: PdfFontHandle::External(font.clone()),
                        size: Pt(*size),
                    });
                    ops.push(Op::ShowText {
                        items: vec![TextItem::Text(text.clone())],
                    });
                    ops.push(Op::EndTextSection);
                }
                Item::Image {
                    x,
                    y,
                    w,
                    h: ih,
                    card,
                } => {
                    if let Some((id, (px_w, px_h))) = images.get(card) {
                        // Fit inside the box, keeping the photo's shape.
                        let dpi = 300.0;
                        let nat_w = *px_w as f32 / dpi * 25.4;
                        let nat_h = *px_h as f32 / dpi * 25.4;
                        let scale = (w / nat_w).min(ih / nat_h);
                        let (dw, dh) = (nat_w * scale, nat_h * scale);
                        ops.push(Op::UseXobject {
                            id: id.clone(),
                            transform: XObjectTransform {
                                translate_x: Some(pt(x + (w - dw) / 2.0)),
                                translate_y: Some(pt(h - y - ih + (ih - dh) / 2.0)),
                                scale_x: Some(scale),
                                scale_y: Some(scale),
                                dpi: Some(dpi),
                                ..Default::default()
                            },
                        });
                    }
                }
            }
        }
        out.push(PdfPage::new(Mm(page.w), Mm(page.h), ops));
    }
    let mut save_warnings = Vec::new();
    Ok(doc
        .with_pages(out)
        .save(&PdfSaveOptions::default(), &mut save_warnings))
}
