//! Writes laid-out pages as PDF with printpdf: fonts embedded as subsets,
//! photos as images. The origin moves from the layout's top-left to PDF's
//! bottom-left here, and nowhere else.
//!
//! Plain text goes out as text; shaped text (another script, a fallback
//! font, a placeholder) as positioned glyphs inside an `ActualText` span,
//! so copying it out of the PDF gives the words in logical order.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

use printpdf::{
    Codepoint, Color, DictItem, FontId, Greyscale, Line, LinePoint, Mm, Op, PaintMode, ParsedFont,
    PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt, RawImage, Rect, TextItem,
    TextMatrix, XObjectId, XObjectTransform,
};

use super::fonts::{Fonts, Glyph, Shaped};
use super::layout::{Item, PageLayout};
use super::{CardData, PrintError};

/// Fonts parsed for embedding, once per face for the life of the app (a
/// large system face takes a while to read).
fn parsed(data: &'static [u8], index: u32) -> Option<ParsedFont> {
    /// By the face's bytes (their address) and index.
    type Cache = HashMap<(usize, u32), Option<ParsedFont>>;
    static PARSED: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = PARSED.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().ok()?;
    cache
        .entry((data.as_ptr() as usize, index))
        .or_insert_with(|| {
            ParsedFont::from_bytes(data, usize::try_from(index).unwrap_or(0), &mut Vec::new())
        })
        .clone()
}

/// A text string for a PDF dictionary: UTF-16BE with its byte order mark.
fn pdf_text_string(text: &str) -> DictItem {
    let mut data = vec![0xFE, 0xFF];
    for unit in text.encode_utf16() {
        data.extend(unit.to_be_bytes());
    }
    DictItem::String {
        data,
        literal: false,
    }
}

fn pt(mm: f32) -> Pt {
    Mm(mm).into_pt()
}

pub(super) fn write(
    fonts: &Fonts,
    pages: &[PageLayout],
    cards: &[CardData],
    title: &str,
) -> Result<Vec<u8>, PrintError> {
    let mut doc = PdfDocument::new(&crate::text::visible(title));
    stamp(&mut doc);
    // Each face added when a page first uses it.
    let mut font_ids: HashMap<usize, FontId> = HashMap::new();
    let mut font_id = |doc: &mut PdfDocument, face: usize| -> Result<FontId, PrintError> {
        if let Some(id) = font_ids.get(&face) {
            return Ok(id.clone());
        }
        let chain = fonts
            .faces()
            .get(face)
            .ok_or_else(|| PrintError::Font(format!("no font number {face}")))?;
        let font = parsed(chain.data, chain.index)
            .ok_or_else(|| PrintError::Font(format!("{} could not be read", chain.name)))?;
        let id = doc.add_font(&font);
        font_ids.insert(face, id.clone());
        Ok(id)
    };

    // Each photo once, however many pages show it.
    let images = add_photos(&mut doc, cards)?;

    // Whether each character (and weight) lies inside a line's clip.
    let mut inside: HashMap<(char, bool), bool> = HashMap::new();
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
                    let shaped = fonts.shape(text, *size, *is_bold);
                    let clipped = open_clip(&mut ops, fonts, item, &shaped, h, &mut inside);
                    let (x, y) = (*x, h - y);
                    match shaped {
                        Shaped::Plain(line) => {
                            let font = font_id(&mut doc, usize::from(*is_bold))?;
                            ops.push(Op::StartTextSection);
                            ops.push(Op::SetTextCursor {
                                pos: Point::new(Mm(x), Mm(y)),
                            });
                            ops.push(Op::SetFont {
                                font: PdfFontHandle::External(font),
                                size: Pt(*size),
                            });
                            ops.push(Op::ShowText {
                                items: vec![TextItem::Text(line)],
                            });
                            ops.push(Op::EndTextSection);
                        }
                        Shaped::Glyphs { glyphs, text, rtl } => {
                            // Readers take right-to-left text from the
                            // glyphs in visual order; an `ActualText` (in
                            // logical order) would come out reversed.
                            let actual = (!rtl).then_some(text.as_str());
                            glyph_ops(&mut ops, &glyphs, actual, (x, y), *size, |face| {
                                font_id(&mut doc, face)
                            })?;
                        }
                    }
                    if clipped {
                        ops.push(Op::RestoreGraphicsState);
                    }
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
    let bytes = doc
        .with_pages(out)
        .save(&PdfSaveOptions::default(), &mut save_warnings);
    Ok(without_empty_claims(bytes))
}

/// The photos added to a document: by card, its image and its size in
/// pixels.
type Photos = std::collections::BTreeMap<usize, (XObjectId, (usize, usize))>;

/// Adds each card's photo to the document once.
fn add_photos(doc: &mut PdfDocument, cards: &[CardData]) -> Result<Photos, PrintError> {
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
    Ok(images)
}

/// Clips a line of text to its box, where it needs it: nothing of a text
/// is drawn outside its line's box, and a plain line whose every glyph
/// lies inside it needs no clip (most lines: three operations fewer
/// each). `inside` remembers each character's answer. True where a clip
/// was opened (and is to be closed after the text).
fn open_clip(
    ops: &mut Vec<Op>,
    fonts: &Fonts,
    item: &Item,
    shaped: &Shaped,
    page_h: f32,
    inside: &mut HashMap<(char, bool), bool>,
) -> bool {
    let Item::Text { bold, .. } = item else {
        return false;
    };
    let clipped = match shaped {
        Shaped::Plain(line) => !line.chars().all(|c| {
            *inside
                .entry((c, *bold))
                .or_insert_with(|| fonts.inside_clip(c, *bold))
        }),
        Shaped::Glyphs { .. } => true,
    };
    if clipped {
        ops.push(Op::SaveGraphicsState);
        if let Some((cx, cy, cw, ch)) = super::layout::clip_box(fonts, item) {
            ops.push(Op::DrawRectangle {
                rectangle: Rect {
                    mode: Some(PaintMode::Clip),
                    ..Rect::from_xywh(pt(cx), pt(page_h - cy - ch), pt(cw), pt(ch))
                },
            });
        }
    }
    clipped
}

/// What made the document and when: this program, now (or at
/// `SOURCE_DATE_EPOCH` where set, for a reproducible file).
fn stamp(doc: &mut PdfDocument) {
    let made = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .and_then(|t| printpdf::OffsetDateTime::from_unix_timestamp(t).ok())
        .unwrap_or_else(printpdf::OffsetDateTime::now_utc);
    let info = &mut doc.metadata.info;
    info.creation_date = made;
    info.modification_date = made;
    info.metadata_date = made;
    let us = format!("Rapsheet {}", env!("CARGO_PKG_VERSION"));
    info.creator = us.clone();
    info.producer = us;
}

/// The document with the empty entries printpdf always writes into its
/// information dictionary blanked out: an empty `GTS_PDFXVersion` makes
/// readers take the file for PDF/X, which it does not claim to be. The
/// entries are overwritten with spaces, so every offset stays right.
fn without_empty_claims(mut bytes: Vec<u8>) -> Vec<u8> {
    for entry in [&b"/GTS_PDFXVersion()"[..], b"/Identifier()"] {
        let mut from = 0;
        while let Some(at) = bytes[from..]
            .windows(entry.len())
            .position(|w| w == entry)
            .map(|i| i + from)
        {
            bytes[at..at + entry.len()].fill(b' ');
            from = at + entry.len();
        }
    }
    bytes
}

/// Positioned glyphs, each where shaping put it (a mark above its letter,
/// right-to-left runs already in visual order), in a span whose
/// `ActualText` is `actual`, where given: what copying the line gives, a
/// character printed as the placeholder included.
fn glyph_ops(
    ops: &mut Vec<Op>,
    glyphs: &[Glyph],
    actual: Option<&str>,
    (x, y): (f32, f32),
    size: f32,
    mut font_id: impl FnMut(usize) -> Result<FontId, PrintError>,
) -> Result<(), PrintError> {
    if let Some(text) = actual {
        // A control character is drawn as the placeholder; copied, it is
        // the replacement character, never the control itself.
        let text: String = text
            .chars()
            .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
            .collect();
        ops.push(Op::BeginMarkedContentWithProperties {
            tag: "Span".into(),
            properties: DictItem::Dict {
                map: BTreeMap::from([("ActualText".to_owned(), pdf_text_string(&text))]),
            },
        });
    }
    ops.push(Op::StartTextSection);
    let mut current = None;
    for g in glyphs {
        if current != Some(g.face) {
            ops.push(Op::SetFont {
                font: PdfFontHandle::External(font_id(g.face)?),
                size: Pt(size),
            });
            current = Some(g.face);
        }
        ops.push(Op::SetTextMatrix {
            matrix: TextMatrix::Translate(pt(x + g.x), pt(y + g.y)),
        });
        ops.push(Op::ShowText {
            items: vec![TextItem::GlyphIds(vec![Codepoint {
                gid: g.id,
                offset: 0.0,
                cid: g.unicode.clone(),
            }])],
        });
    }
    ops.push(Op::EndTextSection);
    if actual.is_some() {
        ops.push(Op::EndMarkedContent);
    }
    Ok(())
}
