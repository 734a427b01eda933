//! Where everything goes on a page, in millimetres from the top-left
//! corner. Pure: the PDF writer and the app's preview both draw these
//! items, and the tests check that every box stays inside its card and
//! every card inside the page's margins.

use serde::Serialize;

use super::fonts::{Fonts, MM_PER_PT};
use super::{CardData, RosterData};

/// One thing drawn on a page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Item {
    /// Text with its baseline at `y`.
    Text {
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        text: String,
    },
    /// A rectangle; `fill` is a grey level (0 black … 1 white).
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Option<f32>,
        stroke: f32,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
    },
    /// A card's photo (an index into the cards given).
    Image {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        card: usize,
    },
}

/// One page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageLayout {
    pub w: f32,
    pub h: f32,
    pub items: Vec<Item>,
    /// Each card's rectangle on the page (x, y, w, h).
    pub cards: Vec<(f32, f32, f32, f32)>,
}

/// Card sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[derive(clap::ValueEnum)]
pub enum CardSize {
    /// 63 × 88 mm.
    #[default]
    Poker,
    /// 100 × 110 mm.
    Large,
}

impl CardSize {
    pub fn mm(self) -> (f32, f32) {
        match self {
            CardSize::Poker => (63.0, 88.0),
            CardSize::Large => (100.0, 110.0),
        }
    }
}

/// Paper sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[derive(clap::ValueEnum)]
pub enum PageSize {
    #[default]
    A4,
    Letter,
}

impl PageSize {
    pub fn mm(self) -> (f32, f32) {
        match self {
            PageSize::A4 => (210.0, 297.0),
            PageSize::Letter => (215.9, 279.4),
        }
    }
}

/// The page margin every card and mark stays inside.
pub const MARGIN: f32 = 2.0;
/// The space between cards, where the crop marks go.
const GAP: f32 = 2.0;
/// Crop mark length, and its distance from the card's corner.
const MARK: f32 = 1.2;
const MARK_GAP: f32 = 0.5;

/// Where the cards go on a page: as many as fit inside the margins, the
/// grid centred.
pub fn grid(page: PageSize, card: CardSize) -> Vec<(f32, f32)> {
    let (pw, ph) = page.mm();
    let (cw, ch) = card.mm();
    // The outer crop marks stick out beyond the grid, inside the margin.
    let outer = MARGIN + MARK + MARK_GAP;
    let usable_w = pw - 2.0 * outer;
    let usable_h = ph - 2.0 * outer;
    let cols = ((usable_w + GAP) / (cw + GAP)).floor().max(1.0) as usize;
    let rows = ((usable_h + GAP) / (ch + GAP)).floor().max(1.0) as usize;
    let grid_w = cols as f32 * cw + (cols - 1) as f32 * GAP;
    let grid_h = rows as f32 * ch + (rows - 1) as f32 * GAP;
    let x0 = (pw - grid_w) / 2.0;
    let y0 = (ph - grid_h) / 2.0;
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            out.push((x0 + c as f32 * (cw + GAP), y0 + r as f32 * (ch + GAP)));
        }
    }
    out
}

/// Line height for a font size, in mm.
fn leading(size: f32) -> f32 {
    size * MM_PER_PT * 1.22
}

/// Splits text into lines no wider than `width` at `size`: at its own line
/// breaks, at spaces where it can, and inside a word only when a word alone
/// is too wide. Nothing is dropped; a blank line stays blank.
pub fn wrap(fonts: &Fonts, text: &str, width: f32, size: f32, bold: bool) -> Vec<String> {
    text.split('\n')
        .flat_map(|line| {
            wrap_line(
                fonts,
                line.strip_suffix('\r').unwrap_or(line),
                width,
                size,
                bold,
            )
        })
        .collect()
}

/// A piece of a line as textwrap lays it out: a word measured in the
/// font, with the space after it.
#[derive(Debug)]
struct Piece<'a> {
    word: &'a str,
    space: &'a str,
    width: f64,
    space_width: f64,
}

impl textwrap::core::Fragment for Piece<'_> {
    fn width(&self) -> f64 {
        self.width
    }
    fn whitespace_width(&self) -> f64 {
        self.space_width
    }
    fn penalty_width(&self) -> f64 {
        0.0
    }
}

/// One line of text wrapped by textwrap at the places Unicode allows a
/// break (spaces, and between CJK characters), measured in the font.
fn wrap_line(fonts: &Fonts, text: &str, width: f32, size: f32, bold: bool) -> Vec<String> {
    let measure = |t: &str| f64::from(fonts.width(t, size, bold));
    let mut pieces = Vec::new();
    for word in textwrap::WordSeparator::UnicodeBreakProperties.find_words(text) {
        let space_width = measure(word.whitespace);
        // A word wider than the line alone is broken between its characters.
        for part in split_to_width(word.word, |t| measure(t) <= f64::from(width)) {
            pieces.push(Piece {
                word: part,
                space: "",
                width: measure(part),
                space_width: 0.0,
            });
        }
        if let Some(last) = pieces.last_mut() {
            last.space = word.whitespace;
            last.space_width = space_width;
        }
    }
    let lines = textwrap::wrap_algorithms::wrap_first_fit(&pieces, &[f64::from(width)]);
    let mut out: Vec<String> = lines
        .iter()
        .map(|line| {
            let mut text = String::new();
            for (i, piece) in line.iter().enumerate() {
                text.push_str(piece.word);
                if i + 1 < line.len() {
                    text.push_str(piece.space);
                }
            }
            text
        })
        .collect();
    if out.is_empty() {
        out.push(String::new());
    }
    out
}

/// `word` in the longest runs of characters (whole graphemes: a letter
/// keeps its accents) that `fits`, one at least; the word itself when it
/// fits whole.
fn split_to_width(word: &str, fits: impl Fn(&str) -> bool) -> Vec<&str> {
    use unicode_segmentation::UnicodeSegmentation as _;
    if fits(word) {
        return vec![word];
    }
    let mut parts = Vec::new();
    let mut start = 0;
    let mut end = 0;
    for (at, g) in word.grapheme_indices(true) {
        let next = at + g.len();
        if end > start && !fits(&word[start..next]) {
            parts.push(&word[start..end]);
            start = end;
        }
        end = next;
    }
    if end > start {
        parts.push(&word[start..end]);
    }
    parts
}

/// The largest size from `start` down to `floor` (in steps) at which the
/// text fits on one line; `floor` when none does.
fn fit(fonts: &Fonts, text: &str, width: f32, start: f32, floor: f32, bold: bool) -> f32 {
    let mut size = start;
    while size > floor && fonts.width(text, size, bold) > width {
        size -= 0.25;
    }
    size.max(floor)
}

struct Pen<'a> {
    items: &'a mut Vec<Item>,
}

impl Pen<'_> {
    fn text(&mut self, x: f32, y: f32, size: f32, bold: bool, text: impl Into<String>) {
        let text = text.into();
        if !text.is_empty() {
            self.items.push(Item::Text {
                x,
                y,
                size,
                bold,
                text,
            });
        }
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<f32>, stroke: f32) {
        self.items.push(Item::Rect {
            x,
            y,
            w,
            h,
            fill,
            stroke,
        });
    }

    fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width: f32) {
        self.items.push(Item::Line {
            x1,
            y1,
            x2,
            y2,
            width,
        });
    }
}

/// Options for the card layout.
#[derive(Debug, Clone, Copy, Default)]
pub struct CardStyle {
    pub size: CardSize,
    /// Boxes for notes and marks during a battle.
    pub write_in: bool,
}

/// Lays out one card at (x, y). `index` names the card for its photo.
pub fn card(
    fonts: &Fonts,
    data: &CardData,
    index: usize,
    x: f32,
    y: f32,
    style: CardStyle,
    items: &mut Vec<Item>,
) {
    let (w, h) = style.size.mm();
    let large = style.size == CardSize::Large;
    let pad = if large { 3.5 } else { 2.5 };
    let mut pen = Pen { items };
    pen.rect(x, y, w, h, None, 0.35);

    // Header: name (and leader mark) on the left, the counters on the right.
    let counter_w = if large { 16.0 } else { 12.0 };
    let counters_w = counter_w * data.counters.len() as f32;
    let name_w = w - 2.0 * pad - counters_w - 1.5;
    let name = if data.leader {
        format!("★ {}", data.name)
    } else {
        data.name.clone()
    };
    let name_size = fit(
        fonts,
        &name,
        name_w,
        if large { 15.0 } else { 11.0 },
        5.0,
        true,
    );
    let name_lines = wrap(fonts, &name, name_w, name_size, true);
    let mut cy = y + pad + leading(name_size) * 0.8;
    for line in &name_lines {
        pen.text(x + pad, cy, name_size, true, line.clone());
        cy += leading(name_size);
    }
    let gang_size = fit(
        fonts,
        &data.gang,
        name_w,
        if large { 7.0 } else { 5.5 },
        3.5,
        false,
    );
    // A gang name too long even in small type wraps; it never runs under
    // the counters.
    let mut gy = cy - leading(name_size) * 0.15;
    for line in wrap(fonts, &data.gang, name_w, gang_size, false) {
        pen.text(x + pad, gy, gang_size, false, line);
        gy += leading(gang_size);
    }
    let header_bottom =
        (gy - leading(gang_size) * 0.6).max(y + pad + if large { 11.0 } else { 9.0 });
    for (i, (label, value)) in data.counters.iter().enumerate() {
        let bx = x + w - pad - counters_w + i as f32 * counter_w;
        let by = y + pad;
        let bh = header_bottom - by - 1.0;
        pen.rect(bx, by, counter_w - 0.8, bh, Some(0.92), 0.25);
        let label_size = fit(fonts, label, counter_w - 2.0, 5.0, 3.0, true);
        pen.text(
            bx + 0.8,
            by + leading(label_size),
            label_size,
            true,
            label.to_uppercase(),
        );
        pen.text(
            bx + 0.8,
            by + bh - 1.2,
            if large { 12.0 } else { 9.0 },
            true,
            value.clone(),
        );
    }
    pen.line(x + pad, header_bottom, x + w - pad, header_bottom, 0.3);

    // Photo, top right under the header, when there is one.
    let mut body_top = header_bottom + 1.5;
    let photo = if large { 24.0 } else { 17.0 };
    let stats_w = if data.photo.is_some() {
        pen.items.push(Item::Image {
            x: x + w - pad - photo,
            y: body_top,
            w: photo,
            h: photo,
            card: index,
        });
        pen.rect(x + w - pad - photo, body_top, photo, photo, None, 0.2);
        w - 2.0 * pad - photo - 1.5
    } else {
        w - 2.0 * pad
    };

    // The stat row: label, value, and the base in small type where quirks
    // or lasting effects changed it.
    let n = data.stats.len().max(1) as f32;
    let box_w = stats_w / n;
    let box_h = if large { 15.0 } else { 12.0 };
    for (i, stat) in data.stats.iter().enumerate() {
        let bx = x + pad + i as f32 * box_w;
        pen.rect(bx, body_top, box_w - 0.8, box_h, None, 0.25);
        let label_size = fit(
            fonts,
            &stat.label,
            box_w - 2.0,
            if large { 6.0 } else { 4.5 },
            2.5,
            true,
        );
        pen.text(
            bx + 0.8,
            body_top + leading(label_size),
            label_size,
            true,
            stat.label.clone(),
        );
        let value_size = fit(
            fonts,
            &stat.value,
            box_w - 2.0,
            if large { 14.0 } else { 10.0 },
            4.0,
            true,
        );
        pen.text(
            bx + 0.8,
            body_top + box_h * 0.72,
            value_size,
            true,
            stat.value.clone(),
        );
        // Under the value, small: its bumps (004: "A second, smaller box
        // below that shows any bumps") and its base where it changed.
        let under: Vec<String> = stat
            .bumps
            .iter()
            .cloned()
            .chain(stat.base.iter().map(|b| format!("base {b}")))
            .collect();
        if !under.is_empty() {
            let under = under.join(" ");
            let under_size = fit(
                fonts,
                &under,
                box_w - 2.0,
                if large { 5.0 } else { 3.5 },
                2.0,
                stat.bumps.is_some(),
            );
            pen.text(
                bx + 0.8,
                body_top + box_h - 0.8,
                under_size,
                stat.bumps.is_some(),
                under,
            );
        }
    }
    body_top += box_h.max(if data.photo.is_some() { photo } else { 0.0 }) + 2.0;

    // Write-in boxes at the bottom.
    let write_in_h = if style.write_in {
        if large { 16.0 } else { 12.0 }
    } else {
        0.0
    };
    let body_bottom = y + h - pad - write_in_h;
    if style.write_in {
        let top = body_bottom + 1.0;
        let bw = w - 2.0 * pad;
        let bh = write_in_h - 1.0;
        pen.rect(x + pad, top, bw * 0.62, bh, None, 0.2);
        pen.text(
            x + pad + 0.8,
            top + leading(4.0),
            4.0,
            true,
            data.notes_heading.clone(),
        );
        let marks_x = x + pad + bw * 0.64;
        let marks_w = bw * 0.36;
        pen.text(
            marks_x,
            top + leading(4.0),
            4.0,
            true,
            data.marks_heading.clone(),
        );
        let size = (marks_w / 5.0 - 0.8).min(bh - 3.0).max(1.0);
        for i in 0..5 {
            pen.rect(
                marks_x + i as f32 * (size + 0.8),
                top + 2.5,
                size,
                size,
                None,
                0.2,
            );
        }
    }

    // Quirks and lasting effects: the largest type that fits, wrapped,
    // never cut.
    let body_w = w - 2.0 * pad;
    let headings = if data.lasting.is_empty() { 1.0 } else { 2.0 };
    let available = body_bottom - body_top;
    let start = if large { 10.0 } else { 8.0 };
    let mut size = start;
    let lines_at = |size: f32| -> usize {
        data.quirks
            .iter()
            .chain(data.lasting.iter())
            .map(|l| wrap(fonts, l, body_w - 1.5, size, false).len())
            .sum()
    };
    while size > 2.0 {
        let needed = (lines_at(size) as f32 + headings) * leading(size) + headings * 0.8;
        if needed <= available {
            break;
        }
        size -= 0.25;
    }
    let mut ty = body_top + leading(size) * 0.8;
    pen.text(x + pad, ty, size, true, data.quirks_heading.clone());
    ty += leading(size);
    for quirk in &data.quirks {
        for line in wrap(fonts, quirk, body_w - 1.5, size, false) {
            pen.text(x + pad + 1.0, ty, size, false, line);
            ty += leading(size);
        }
    }
    if !data.lasting.is_empty() {
        ty += 0.8;
        pen.text(x + pad, ty, size, true, data.lasting_heading.clone());
        ty += leading(size);
        for effect in &data.lasting {
            for line in wrap(fonts, effect, body_w - 1.5, size, false) {
                pen.text(x + pad + 1.0, ty, size, false, line);
                ty += leading(size);
            }
        }
    }
}

/// A blank card for a fighter written in by hand: the same boxes, ruled.
pub fn blank_card(
    fonts: &Fonts,
    template: &CardData,
    x: f32,
    y: f32,
    style: CardStyle,
    items: &mut Vec<Item>,
) {
    let blank = CardData {
        name: String::new(),
        gang: String::new(),
        leader: false,
        counters: template
            .counters
            .iter()
            .map(|(label, _)| (label.clone(), String::new()))
            .collect(),
        stats: template
            .stats
            .iter()
            .map(|s| super::StatCell {
                label: s.label.clone(),
                value: String::new(),
                base: None,
                bumps: None,
            })
            .collect(),
        quirks: Vec::new(),
        lasting: Vec::new(),
        photo: None,
        quirks_heading: template.quirks_heading.clone(),
        lasting_heading: template.lasting_heading.clone(),
        notes_heading: template.notes_heading.clone(),
        marks_heading: template.marks_heading.clone(),
        blank: true,
    };
    let start = items.len();
    card(fonts, &blank, usize::MAX, x, y, style, items);
    let _ = start;
    // Ruled lines to write the quirks on.
    let (w, h) = style.size.mm();
    let pad = if style.size == CardSize::Large {
        3.5
    } else {
        2.5
    };
    let top = y + h * 0.42;
    let bottom = y + h - pad - if style.write_in { 14.0 } else { 2.0 };
    let mut ly = top;
    while ly < bottom {
        items.push(Item::Line {
            x1: x + pad,
            y1: ly,
            x2: x + w - pad,
            y2: ly,
            width: 0.15,
        });
        ly += 5.5;
    }
}

/// Crop marks at a card's corners, outside the card.
pub fn crop_marks(x: f32, y: f32, w: f32, h: f32, items: &mut Vec<Item>) {
    let gap = MARK_GAP;
    for (cx, cy, dx, dy) in [
        (x, y, -1.0, -1.0),
        (x + w, y, 1.0, -1.0),
        (x, y + h, -1.0, 1.0),
        (x + w, y + h, 1.0, 1.0),
    ] {
        // Horizontal and vertical strokes pointing away from the card.
        items.push(Item::Line {
            x1: cx + dx * gap,
            y1: cy,
            x2: cx + dx * (gap + MARK),
            y2: cy,
            width: 0.2,
        });
        items.push(Item::Line {
            x1: cx,
            y1: cy + dy * gap,
            x2: cx,
            y2: cy + dy * (gap + MARK),
            width: 0.2,
        });
    }
}

/// Cards on pages, as many per page as fit, blanks after the fighters.
pub fn card_pages(
    fonts: &Fonts,
    cards: &[CardData],
    blanks: usize,
    page: PageSize,
    style: CardStyle,
) -> Vec<PageLayout> {
    let slots = grid(page, style.size);
    let (pw, ph) = page.mm();
    let (cw, ch) = style.size.mm();
    let total = cards.len() + blanks;
    let mut pages = Vec::new();
    let mut i = 0;
    while i < total || pages.is_empty() {
        let mut layout = PageLayout {
            w: pw,
            h: ph,
            items: Vec::new(),
            cards: Vec::new(),
        };
        for &(x, y) in &slots {
            if i >= total {
                break;
            }
            match cards.get(i) {
                Some(data) if data.blank => blank_card(fonts, data, x, y, style, &mut layout.items),
                Some(data) => card(fonts, data, i, x, y, style, &mut layout.items),
                None => {
                    if let Some(template) = cards.first() {
                        blank_card(fonts, template, x, y, style, &mut layout.items);
                    }
                }
            }
            crop_marks(x, y, cw, ch, &mut layout.items);
            layout.cards.push((x, y, cw, ch));
            i += 1;
        }
        pages.push(layout);
        if total == 0 {
            break;
        }
    }
    pages
}

/// A gang's roster sheet: one page, more only when the gang is very large.
pub fn roster_pages(fonts: &Fonts, data: &RosterData, page: PageSize) -> Vec<PageLayout> {
    let (pw, ph) = page.mm();
    let left = MARGIN + 4.0;
    let right = pw - MARGIN - 4.0;
    let width = right - left;
    let bottom = ph - MARGIN - 4.0;
    let mut pages = vec![PageLayout {
        w: pw,
        h: ph,
        items: Vec::new(),
        cards: Vec::new(),
    }];
    let mut y = MARGIN + 10.0;
    {
        let page = pages.last_mut().map(|p| &mut p.items);
        let Some(items) = page else {
            return pages;
        };
        let mut pen = Pen { items };
        let title_size = fit(fonts, &data.gang, width, 20.0, 8.0, true);
        pen.text(left, y, title_size, true, data.gang.clone());
        y += 6.0;
        for line in [&data.ruleset, &data.resources, &data.titles] {
            if line.is_empty() {
                continue;
            }
            for l in wrap(fonts, line, width, 9.0, false) {
                pen.text(left, y, 9.0, false, l);
                y += leading(9.0);
            }
        }
        y += 2.0;
        pen.line(left, y, right, y, 0.4);
        y += 5.0;
    }
    let size = 8.5;
    for fighter in &data.fighters {
        let mut block: Vec<(bool, String)> = vec![(true, fighter.headline.clone())];
        for line in &fighter.lines {
            for l in wrap(fonts, line, width - 4.0, size, false) {
                block.push((false, l));
            }
        }
        let needed = block.len() as f32 * leading(size) + 3.0;
        if y + needed > bottom {
            pages.push(PageLayout {
                w: pw,
                h: ph,
                items: Vec::new(),
                cards: Vec::new(),
            });
            y = MARGIN + 8.0;
        }
        let Some(page) = pages.last_mut() else {
            break;
        };
        let mut pen = Pen {
            items: &mut page.items,
        };
        for (bold, text) in block {
            let (x, text_size) = if bold {
                (left, fit(fonts, &text, width, size + 1.0, 4.0, true))
            } else {
                (left + 4.0, size)
            };
            pen.text(x, y, text_size, bold, text);
            y += leading(size);
        }
        y += 1.0;
        pen.line(left, y, right, y, 0.15);
        y += 3.0;
    }
    pages
}

/// A plain document on pages: title, headings, text and bullets, wrapped.
pub fn document_pages(
    fonts: &Fonts,
    title: &str,
    lines: &[super::DocLine],
    page: PageSize,
) -> Vec<PageLayout> {
    use super::DocLine;
    let (pw, ph) = page.mm();
    let left = MARGIN + 10.0;
    let right = pw - MARGIN - 10.0;
    let bottom = ph - MARGIN - 10.0;
    let new_page = || PageLayout {
        w: pw,
        h: ph,
        items: Vec::new(),
        cards: Vec::new(),
    };
    let mut pages = vec![new_page()];
    let mut y = MARGIN + 14.0;
    let put = |pages: &mut Vec<PageLayout>,
               y: &mut f32,
               x: f32,
               size: f32,
               bold: bool,
               text: String,
               before: f32| {
        let width = right - x;
        for (i, line) in wrap(fonts, &text, width, size, bold)
            .into_iter()
            .enumerate()
        {
            let step = leading(size) + if i == 0 { before } else { 0.0 };
            if *y + step > bottom {
                pages.push(new_page());
                *y = MARGIN + 12.0;
            } else {
                *y += if i == 0 { before } else { 0.0 };
            }
            if let Some(p) = pages.last_mut() {
                p.items.push(Item::Text {
                    x,
                    y: *y,
                    size,
                    bold,
                    text: line,
                });
            }
            *y += leading(size);
        }
    };
    put(&mut pages, &mut y, left, 18.0, true, title.to_owned(), 0.0);
    y += 2.0;
    for line in lines {
        match line {
            DocLine::Heading(t) => put(&mut pages, &mut y, left, 14.0, true, t.clone(), 4.0),
            DocLine::Subheading(t) => put(&mut pages, &mut y, left, 11.0, true, t.clone(), 2.5),
            DocLine::Text(t) => put(&mut pages, &mut y, left, 9.5, false, t.clone(), 0.5),
            DocLine::Bullet(t) => put(
                &mut pages,
                &mut y,
                left + 4.0,
                9.0,
                false,
                format!("• {t}"),
                0.0,
            ),
        }
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fonts() -> Fonts {
        Fonts::load().expect("the vendored fonts")
    }

    /// Every wrapped line fits, and no letter is lost or moved.
    fn check(text: &str, width: f32) -> Vec<String> {
        let fonts = fonts();
        let lines = wrap(&fonts, text, width, 9.0, false);
        for line in &lines {
            let wide = fonts.width(line, 9.0, false);
            assert!(
                wide <= width || line.chars().count() == 1,
                "{line:?} is {wide} mm"
            );
        }
        let kept: String = lines.concat().split_whitespace().collect();
        let given: String = text.split_whitespace().collect();
        assert_eq!(kept, given);
        lines
    }

    #[test]
    fn text_wraps_at_spaces_and_keeps_short_text_whole() {
        assert_eq!(check("Brick", 40.0), ["Brick"]);
        let lines = check("Crippled: loses Headshot, and -1 Armor until healed", 25.0);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(
            lines
                .iter()
                .all(|l| !l.starts_with(' ') && !l.ends_with(' '))
        );
    }

    #[test]
    fn a_word_wider_than_the_line_breaks_between_whole_letters() {
        // "é" decomposed: a letter and its accent stay together.
        let word = "Supercalifragilistice\u{301}xpialidocious";
        let lines = check(word, 12.0);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(lines.iter().all(|l| !l.starts_with('\u{301}')), "{lines:?}");
    }

    #[test]
    fn text_without_spaces_wraps_where_unicode_allows() {
        // No spaces in Japanese: a break may fall between characters.
        let lines = check("鉄の鼠団の頭目は夜明けまでに戻る", 20.0);
        assert!(lines.len() > 1, "{lines:?}");
    }

    #[test]
    fn an_empty_line_stays_one_empty_line() {
        assert_eq!(wrap(&fonts(), "", 30.0, 9.0, false), [""]);
        assert_eq!(wrap(&fonts(), "a\n\nb", 30.0, 9.0, false), ["a", "", "b"]);
    }
}
