//! Writes laid-out pages as PDF with printpdf: fonts embedded as subsets,
//! photos as images. The origin moves from the layout's top-left to PDF's
//! bottom-left here, and nowhere else.
//!
//! Plain text goes out as text; shaped text (another script, a fallback
//! font, a placeholder) as positioned glyphs inside an `ActualText` span,
//! so copying it out of the PDF gives the words in logical order. A page's
//! consecutive plain lines share one text section, and a line straight
//! below the last by the same distance is one operation: a long document
//! is held in memory as few operations as it can be.

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

/// Pages made per part: a long document (a decade's chronicle) is made a
/// part at a time, each part compressed before the next is begun, so that
/// memory holds one part's operations, not the whole document's.
const PAGES_PER_PART: usize = 100;

/// Writes laid-out pages as one PDF titled `title`, with the cards'
/// photos: its parts made one after the other and joined.
pub(super) fn write(
    fonts: &Fonts,
    pages: Vec<PageLayout>,
    cards: &[CardData],
    title: &str,
) -> Result<Vec<u8>, PrintError> {
    // Cards are made whole: each part would embed their photos again.
    let per_part = if cards.is_empty() {
        PAGES_PER_PART
    } else {
        usize::MAX
    };
    let mut pages = pages.into_iter().peekable();
    let mut whole = part(fonts, pages.by_ref().take(per_part), cards, title)?;
    while pages.peek().is_some() {
        let next = part(fonts, pages.by_ref().take(per_part), cards, title)?;
        append(&mut whole, next)?;
    }
    without_empty_claims(&mut whole);
    let mut bytes = Vec::new();
    whole
        .save_to(&mut bytes)
        .map_err(|e| PrintError::Pdf(e.to_string()))?;
    Ok(bytes)
}

/// A part of a document, its streams compressed: these pages, with the
/// fonts they use (as subsets) and the cards' photos.
fn part(
    fonts: &Fonts,
    pages: impl Iterator<Item = PageLayout>,
    cards: &[CardData],
    title: &str,
) -> Result<lopdf::Document, PrintError> {
    let mut doc = PdfDocument::new(&crate::text::visible(title));
    stamp(&mut doc);
    // Each photo once, however many pages show it.
    let photos = add_photos(&mut doc, cards)?;
    let mut writer = Writer {
        doc,
        fonts,
        photos,
        font_ids: HashMap::new(),
        inside: HashMap::new(),
    };
    let mut out = Vec::new();
    // Each page's layout goes as soon as its operations are made.
    for page in pages {
        let mut ops = PageOps::default();
        for item in &page.items {
            writer.item(&mut ops, item, page.h)?;
        }
        out.push(PdfPage::new(Mm(page.w), Mm(page.h), ops.finish()));
    }
    let mut warnings = Vec::new();
    let mut doc = writer
        .doc
        .with_pages(out)
        .to_lopdf_document(&PdfSaveOptions::default(), &mut warnings);
    doc.compress();
    Ok(doc)
}

/// Appends a part's pages to the document: its own catalogue, page tree
/// and information left out, what only they held dropped, and the rest
/// numbered on from the document's with no number left unused (a reader
/// checks the trailer's count against the highest number), its pages
/// under the document's page tree.
fn append(whole: &mut lopdf::Document, mut part: lopdf::Document) -> Result<(), PrintError> {
    use lopdf::Object;
    let broken = |what: &str| PrintError::Pdf(format!("a part of it has no {what}"));
    let root = |doc: &lopdf::Document| -> Result<(lopdf::ObjectId, lopdf::ObjectId), PrintError> {
        let catalog = doc.trailer.get(b"Root").and_then(Object::as_reference);
        let catalog = catalog.map_err(|_| broken("catalogue"))?;
        let tree = doc
            .get_dictionary(catalog)
            .and_then(|c| c.get(b"Pages"))
            .and_then(Object::as_reference)
            .map_err(|_| broken("page tree"))?;
        Ok((catalog, tree))
    };
    let (catalog, tree) = root(&part)?;
    let info = part
        .trailer
        .get(b"Info")
        .and_then(Object::as_reference)
        .ok();
    let kids: Vec<Object> = part
        .get_pages()
        .into_values()
        .map(Object::Reference)
        .collect();
    for id in [Some(catalog), Some(tree), info].into_iter().flatten() {
        part.objects.remove(&id);
    }
    // The pages alone hold the part together while it is pruned and
    // numbered anew (both follow the references from its trailer).
    part.trailer = lopdf::Dictionary::new();
    part.trailer.set("Kids", Object::Array(kids));
    part.prune_objects();
    part.renumber_objects_with(whole.max_id + 1);
    let kids: Vec<lopdf::ObjectId> = part
        .trailer
        .get(b"Kids")
        .and_then(Object::as_array)
        .map_err(|_| broken("pages"))?
        .iter()
        .filter_map(|kid| kid.as_reference().ok())
        .collect();
    let (_, whole_tree) = root(whole)?;
    for kid in &kids {
        if let Ok(page) = part.get_dictionary_mut(*kid) {
            page.set("Parent", Object::Reference(whole_tree));
        }
    }
    whole.max_id = whole.max_id.max(part.max_id);
    whole.objects.append(&mut part.objects);
    let tree = whole
        .get_dictionary_mut(whole_tree)
        .map_err(|_| broken("page tree"))?;
    let mut all = tree
        .get(b"Kids")
        .and_then(Object::as_array)
        .cloned()
        .unwrap_or_default();
    all.extend(kids.into_iter().map(Object::Reference));
    tree.set(
        "Count",
        Object::Integer(i64::try_from(all.len()).unwrap_or(i64::MAX)),
    );
    tree.set("Kids", Object::Array(all));
    Ok(())
}

/// The document being written and what it keeps between pages.
struct Writer<'a> {
    doc: PdfDocument,
    fonts: &'a Fonts,
    photos: Photos,
    /// Each face added when a page first uses it.
    font_ids: HashMap<usize, FontId>,
    /// Whether each character (and weight) lies inside a line's clip.
    inside: HashMap<(char, bool), bool>,
}

/// A page's operations as they are made: consecutive plain lines share
/// one text section, which stays open until something else is drawn, and
/// a line straight below the last by the same distance is one operation.
#[derive(Default)]
struct PageOps {
    ops: Vec<Op>,
    /// The open text section: what it has set so far.
    section: Option<Section>,
}

/// What an open text section has set: the face and size, where the last
/// line began (points), and the leading (the drop to the next line).
#[derive(Default)]
struct Section {
    face: Option<(usize, u32)>,
    line: Option<(f32, f32)>,
    leading: Option<f32>,
}

impl PageOps {
    /// Closes the open text section, if any.
    fn close(&mut self) {
        if self.section.take().is_some() {
            self.ops.push(Op::EndTextSection);
        }
    }

    /// Another operation, outside any text section.
    fn push(&mut self, op: Op) {
        self.close();
        self.ops.push(op);
    }

    /// A plain line at (`x`, `y`) in points, in the open text section.
    fn plain(&mut self, font: (usize, FontId), size: f32, (x, y): (f32, f32), line: String) {
        let ops = &mut self.ops;
        let section = self.section.get_or_insert_with(|| {
            ops.push(Op::StartTextSection);
            Section::default()
        });
        let face = (font.0, size.to_bits());
        if section.face != Some(face) {
            section.face = Some(face);
            ops.push(Op::SetFont {
                font: PdfFontHandle::External(font.1),
                size: Pt(size),
            });
        }
        let near = |a: f32, b: f32| (a - b).abs() < 0.001;
        let below = section
            .line
            .filter(|(lx, ly)| near(*lx, x) && *ly > y)
            .map(|(lx, ly)| (lx, ly, ly - y));
        section.line = Some((x, y));
        match below {
            Some((lx, ly, drop)) => {
                let leading = match section.leading {
                    Some(l) if near(l, drop) => l,
                    _ => {
                        ops.push(Op::SetLineHeight { lh: Pt(drop) });
                        drop
                    }
                };
                section.leading = Some(leading);
                // Where the reader puts it, so that rounding never adds up.
                section.line = Some((lx, ly - leading));
                ops.push(Op::MoveToNextLineShowText { text: line });
            }
            None => {
                ops.push(Op::SetTextMatrix {
                    matrix: TextMatrix::Translate(Pt(x), Pt(y)),
                });
                ops.push(Op::ShowText {
                    items: vec![TextItem::Text(line)],
                });
            }
        }
    }

    fn finish(mut self) -> Vec<Op> {
        self.close();
        self.ops
    }
}

impl Writer<'_> {
    /// The document's font for a face, added the first time it is used.
    fn font_id(&mut self, face: usize) -> Result<FontId, PrintError> {
        if let Some(id) = self.font_ids.get(&face) {
            return Ok(id.clone());
        }
        let chain = self
            .fonts
            .faces()
            .get(face)
            .ok_or_else(|| PrintError::Font(format!("no font number {face}")))?;
        let font = parsed(chain.data, chain.index)
            .ok_or_else(|| PrintError::Font(format!("{} could not be read", chain.name)))?;
        let id = self.doc.add_font(&font);
        self.font_ids.insert(face, id.clone());
        Ok(id)
    }

    /// One laid-out item on a page `h` mm tall.
    fn item(&mut self, ops: &mut PageOps, item: &Item, h: f32) -> Result<(), PrintError> {
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
                let point = |x: f32, y: f32| LinePoint {
                    p: Point::new(Mm(x), Mm(h - y)),
                    bezier: false,
                };
                ops.push(Op::SetOutlineThickness { pt: pt(*width) });
                ops.push(Op::DrawLine {
                    line: Line {
                        points: vec![point(*x1, *y1), point(*x2, *y2)],
                        is_closed: false,
                    },
                });
            }
            Item::Text { .. } => self.text(ops, item, h)?,
            Item::Image {
                x,
                y,
                w,
                h: ih,
                card,
            } => {
                if let Some((id, (px_w, px_h))) = self.photos.get(card) {
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
        Ok(())
    }

    /// A line of text: plain text in the page's open text section, shaped
    /// text as positioned glyphs; clipped to its box unless every glyph
    /// lies inside it.
    fn text(&mut self, ops: &mut PageOps, item: &Item, h: f32) -> Result<(), PrintError> {
        let Item::Text {
            x,
            y,
            size,
            bold,
            text,
        } = item
        else {
            return Ok(());
        };
        let shaped = self.fonts.shape(text, *size, *bold);
        let clipped = self.needs_clip(&shaped, *bold);
        if clipped {
            ops.push(Op::SaveGraphicsState);
            if let Some((cx, cy, cw, ch)) = super::layout::clip_box(self.fonts, item) {
                ops.push(Op::DrawRectangle {
                    rectangle: Rect {
                        mode: Some(PaintMode::Clip),
                        ..Rect::from_xywh(pt(cx), pt(h - cy - ch), pt(cw), pt(ch))
                    },
                });
            }
        }
        let (x, y) = (*x, h - y);
        match shaped {
            Shaped::Plain(line) => {
                let face = usize::from(*bold);
                let font = (face, self.font_id(face)?);
                ops.plain(font, *size, (pt(x).0, pt(y).0), line);
            }
            Shaped::Glyphs { glyphs, text, rtl } => {
                ops.close();
                // Readers take right-to-left text from the glyphs in
                // visual order; an `ActualText` (in logical order) would
                // come out reversed.
                let actual = (!rtl).then_some(text.as_str());
                glyph_ops(&mut ops.ops, &glyphs, actual, (x, y), *size, |face| {
                    self.font_id(face)
                })?;
            }
        }
        if clipped {
            ops.push(Op::RestoreGraphicsState);
        }
        Ok(())
    }

    /// Whether a line needs its clip: a plain line whose every glyph lies
    /// inside its box does not (most lines: three operations fewer each);
    /// the answer for each character is remembered.
    fn needs_clip(&mut self, shaped: &Shaped, bold: bool) -> bool {
        match shaped {
            Shaped::Plain(line) => !line.chars().all(|c| {
                *self
                    .inside
                    .entry((c, bold))
                    .or_insert_with(|| self.fonts.inside_clip(c, bold))
            }),
            Shaped::Glyphs { .. } => true,
        }
    }
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

/// The document without the empty entries printpdf always writes into
/// its information dictionary: an empty `GTS_PDFXVersion` makes readers
/// take the file for PDF/X, which it does not claim to be.
fn without_empty_claims(doc: &mut lopdf::Document) {
    let Ok(info) = doc
        .trailer
        .get(b"Info")
        .and_then(lopdf::Object::as_reference)
    else {
        return;
    };
    if let Ok(info) = doc.get_dictionary_mut(info) {
        for entry in [&b"GTS_PDFXVersion"[..], b"Identifier"] {
            let empty = info
                .get(entry)
                .and_then(lopdf::Object::as_str)
                .is_ok_and(<[u8]>::is_empty);
            if empty {
                info.remove(entry);
            }
        }
    }
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
