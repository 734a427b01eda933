//! A fighter's card, and cards on a sheet. Top to bottom: the header band
//! (name, gang, counters), the status where the fighter cannot fight, the
//! stats, the track of boxes the pack's track stat sizes, the tokens the
//! text puts on a card, the entries and lasting effects in the largest
//! type that fits, and the write-in boxes (one per counter, and notes).
//!
//! Text wraps before it shrinks, nothing is cut, no two texts overlap, and
//! no label is under [`LABEL`] points. On a sheet, neighbouring cards share
//! their cut lines unless there is bleed; crop marks sit outside the grid,
//! one pair per cut line, and can be left out, and where bleed sits the
//! cards apart without them a hairline cut guide shows each cut between the
//! cards; nothing is drawn on the trim line itself.

use super::fonts::{Fonts, MM_PER_PT};
use super::layout::{
    CardSize, Item, MARGIN, PageLayout, PageSize, Pen, leading, wrap, wrap_fit, wrap_hanging,
};
use super::{CardData, StatCell, Track};

/// The smallest a label is printed (points).
pub const LABEL: f32 = 6.0;
/// Crop mark length, and its distance from the grid (or its bleed).
const MARK: f32 = 2.0;
const MARK_GAP: f32 = 0.8;
/// The grey of the header band and the status strip.
const BAND: f32 = 0.88;
const STATUS: f32 = 0.7;
/// The grey of a track's box for damage already taken (under its cross).
const TAKEN: f32 = 0.6;
/// The largest bleed asked for (mm).
pub const MAX_BLEED: f32 = 5.0;
/// How near the paper's edge a printer is sure to print (mm): no crop mark
/// comes nearer; one with no room is shortened, or left out.
pub const PRINTABLE: f32 = 5.0;
/// The shortest crop mark drawn (mm).
pub const SHORTEST_MARK: f32 = 0.5;

/// Options for cards on a sheet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardStyle {
    pub size: CardSize,
    /// Boxes to write in during a game: one per counter, and notes.
    pub write_in: bool,
    /// Crop marks outside the grid.
    pub marks: bool,
    /// How far (mm) the header band runs past the trim, for a cut that
    /// wanders; cards then sit twice that apart.
    pub bleed: f32,
    /// With bleed and no crop marks, a hairline on each cut between the
    /// cards.
    pub cut_guide: bool,
}

impl Default for CardStyle {
    fn default() -> Self {
        Self {
            size: CardSize::Poker,
            write_in: false,
            marks: true,
            bleed: 0.0,
            cut_guide: true,
        }
    }
}

impl CardStyle {
    fn bleed(&self) -> f32 {
        self.bleed.clamp(0.0, MAX_BLEED)
    }
}

/// A card's place and its measures.
struct Frame {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    pad: f32,
    large: bool,
}

impl Frame {
    fn new(x: f32, y: f32, size: CardSize) -> Self {
        let (w, h) = size.mm();
        let large = size != CardSize::Poker;
        Self {
            x,
            y,
            w,
            h,
            pad: if large { 3.5 } else { 2.5 },
            large,
        }
    }

    fn left(&self) -> f32 {
        self.x + self.pad
    }

    fn inner(&self) -> f32 {
        self.w - 2.0 * self.pad
    }

    fn bottom(&self) -> f32 {
        self.y + self.h - self.pad
    }

    /// A size for poker cards, or for large ones.
    fn pick(&self, poker: f32, large: f32) -> f32 {
        if self.large { large } else { poker }
    }
}

/// How far a line's top is above its baseline at `size` (mm): the whole
/// em, so that no accent or tall script reaches the line above.
fn ascent(size: f32) -> f32 {
    size * MM_PER_PT
}

/// The depth of a descender at `size` (mm).
fn descent(size: f32) -> f32 {
    size * MM_PER_PT * 0.25
}

/// Lines from `top` down, each baseline its ascent below the line above;
/// returns the y under the last line's descenders.
fn lines_at(pen: &mut Pen<'_>, x: f32, top: f32, size: f32, bold: bool, lines: &[String]) -> f32 {
    let mut y = top;
    for line in lines {
        let baseline = y + ascent(size);
        pen.text(x, baseline, size, bold, line.clone());
        y = baseline + step(size) - ascent(size);
    }
    y
}

/// From one line's baseline to the next's at `size` (mm).
fn step(size: f32) -> f32 {
    leading(size).max(ascent(size) + descent(size))
}

/// One card of a fighter's: the first (all of it, or as many of its
/// entries as fit) or one that carries on its entries (its name numbered,
/// nothing but the entries), and how it is drawn.
#[derive(Debug, Clone)]
pub struct Part {
    pub data: CardData,
    pub first: bool,
    pub style: CardStyle,
}

/// Why a fighter's card cannot be printed at this size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLong {
    pub name: String,
    pub blank: bool,
}

/// A fighter on as many cards as its entries need, none of its text under
/// [`LABEL`] points: the write-in boxes give way first; then the entries
/// that do not fit go on to a card of their own, headed by the name and
/// its number (`(2)`), and so on. An entry too long for a card on its own
/// is an error. The card says each thing once (see `tidy`).
pub fn parts(fonts: &Fonts, data: &CardData, style: CardStyle) -> Result<Vec<Part>, TooLong> {
    let data = &notes_in_pieces(fonts, &super::tidy::card(data), style);
    let plain = CardStyle {
        write_in: false,
        ..style
    };
    let fits = |data: &CardData, first: bool, style: CardStyle| {
        card_once(fonts, data, 0, (0.0, 0.0), style, &mut Vec::new(), first)
    };
    let count = entries(data);
    let mut out = Vec::new();
    let mut from = 0;
    loop {
        let first = out.is_empty();
        let number = out.len() + 1;
        let rest = taking(data, from..count, number);
        if data.blank || fits(&rest, first, style) {
            out.push(Part {
                data: rest,
                first,
                style,
            });
            return Ok(out);
        }
        if style.write_in && fits(&rest, first, plain) {
            out.push(Part {
                data: rest,
                first,
                style: plain,
            });
            return Ok(out);
        }
        // The most entries that fit on this card (not all of them).
        let lo = most_that_fit(from, count.saturating_sub(1).max(from), |to| {
            fits(&taking(data, from..to, number), first, plain)
        });
        if lo == from && !first {
            return Err(TooLong {
                name: data.name.clone(),
                blank: data.blank,
            });
        }
        out.push(Part {
            data: taking(data, from..lo, number),
            first,
            style: plain,
        });
        from = lo;
    }
}

/// The card with each of its notes too long for a card of its own cut
/// into pieces that are not, between the lines they wrap into at the
/// smallest type: the notes a fighter's owner writes are never too long
/// to print, where an entry the rules give may be.
fn notes_in_pieces(fonts: &Fonts, data: &CardData, style: CardStyle) -> CardData {
    let plain = CardStyle {
        write_in: false,
        ..style
    };
    let alone = |note: &str| {
        let card = CardData {
            notes: vec![note.to_owned()],
            ..taking(data, 0..0, 2)
        };
        card_once(fonts, &card, 0, (0.0, 0.0), plain, &mut Vec::new(), false)
    };
    let f = Frame::new(0.0, 0.0, style.size);
    // The narrowest a body's line is: indented, and hanging.
    let width = f.inner() - 1.0 - f.pick(2.5, 3.0);
    let mut out = data.clone();
    out.notes = Vec::new();
    for note in &data.notes {
        let lines = super::layout::wrap_keeping_spaces(fonts, note, width, LABEL, false);
        let piece = |lines: &[String]| lines.concat().trim().to_owned();
        let mut from = 0;
        while from < lines.len() {
            // The most lines that fit on a card alone, one at least.
            let to = most_that_fit(from + 1, lines.len(), |to| alone(&piece(&lines[from..to])));
            out.notes.push(piece(&lines[from..to]));
            from = to;
        }
    }
    out
}

/// The most of `from..=end` that fit, where `fits(to)` says whether as
/// many as `to` do, `from` is taken to, and fewer fit whenever more do.
/// Tried a step that doubles at a time and then halved between, so that
/// what is laid out to try is never much more than what fits: a fighter
/// on many cards costs what their cards hold, not that many times over.
fn most_that_fit(from: usize, end: usize, fits: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (from, end + 1);
    let mut step = 1;
    while lo + step < hi {
        if fits(lo + step) {
            lo += step;
            step *= 2;
        } else {
            hi = lo + step;
        }
    }
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// How many entries a card has: its entries' lines, its lasting
/// effects' and its notes'.
fn entries(data: &CardData) -> usize {
    let lines = if data.groups.is_empty() {
        data.quirks.len()
    } else {
        data.groups.iter().map(|(_, l)| l.len()).sum()
    };
    lines + data.lasting.len() + data.notes.len()
}

/// The card with only the entries in `range` (counted as [`entries`]
/// does); after the first, with nothing but its name, its gang and those
/// entries, the name numbered `number`.
fn taking(data: &CardData, range: std::ops::Range<usize>, number: usize) -> CardData {
    let mut at = 0;
    let mut keep = |lines: &[String]| -> Vec<String> {
        let kept = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| range.contains(&(at + i)))
            .map(|(_, l)| l.clone())
            .collect();
        at += lines.len();
        kept
    };
    let mut part = data.clone();
    if data.groups.is_empty() {
        part.quirks = keep(&data.quirks);
    } else {
        part.groups = data
            .groups
            .iter()
            .map(|(heading, lines)| (heading.clone(), keep(lines)))
            .collect();
    }
    part.lasting = keep(&data.lasting);
    part.notes = keep(&data.notes);
    if number > 1 {
        part = CardData {
            name: format!("{} ({number})", data.name),
            gang: data.gang.clone(),
            leader: data.leader,
            quirks: part.quirks,
            groups: part.groups,
            lasting: part.lasting,
            notes: part.notes,
            quirks_heading: data.quirks_heading.clone(),
            lasting_heading: data.lasting_heading.clone(),
            notes_heading: data.notes_heading.clone(),
            marks_heading: data.marks_heading.clone(),
            fighter_word: data.fighter_word.clone(),
            gang_word: data.gang_word.clone(),
            ..CardData::default()
        };
    }
    part
}

/// Lays out one card; returns whether its entries fit. A card that
/// carries on a fighter's entries (not `first`) has no entries' heading
/// over none, and no marks boxes.
fn card_once(
    fonts: &Fonts,
    data: &CardData,
    index: usize,
    (x, y): (f32, f32),
    style: CardStyle,
    items: &mut Vec<Item>,
    first: bool,
) -> bool {
    let f = Frame::new(x, y, style.size);
    let mut pen = Pen { items };
    let mut top = header(fonts, data, &f, style.bleed(), &mut pen);
    if let Some(status) = &data.status {
        top = status_strip(fonts, status, &f, top, &mut pen);
    }
    top = stats(fonts, data, index, &f, top, &mut pen);
    let bottom = if style.write_in {
        write_in(fonts, data, &f, &mut pen)
    } else {
        f.bottom()
    };
    // The track and the tokens where they leave room for the entries (a
    // header swollen by a very long name may not).
    let room = bottom - f.pick(10.0, 12.0);
    if let Some(t) = &data.track {
        top = if_room(&mut pen, top, room, |pen, top| {
            track(fonts, t, &f, top, pen)
        });
    }
    if !data.tokens.is_empty() {
        top = if_room(&mut pen, top, room, |pen, top| {
            tokens(fonts, &data.tokens, &f, top, pen)
        });
    }
    if data.blank {
        let lines = wrap(
            fonts,
            &data.quirks_heading,
            f.inner(),
            f.pick(9.0, 11.0),
            true,
        );
        let below = lines_at(&mut pen, f.left(), top, f.pick(9.0, 11.0), true, &lines);
        ruled(&f, below, bottom, &mut pen);
        below <= bottom
    } else {
        body(fonts, data, &f, (top, bottom), first, &mut pen)
    }
}

/// Draws a part of a card from `top` if it ends above `room`; otherwise
/// leaves it out. Returns the y under what was drawn.
fn if_room(
    pen: &mut Pen<'_>,
    top: f32,
    room: f32,
    part: impl Fn(&mut Pen<'_>, f32) -> Option<f32>,
) -> f32 {
    let mut scratch = Vec::new();
    match part(
        &mut Pen {
            items: &mut scratch,
        },
        top,
    ) {
        Some(below) if below <= room => {
            pen.items.append(&mut scratch);
            below
        }
        _ => top,
    }
}

/// The header band: the name (wrapped before it shrinks), the gang under
/// it, the counters on the right. Returns the y under it.
fn header(fonts: &Fonts, data: &CardData, f: &Frame, bleed: f32, pen: &mut Pen<'_>) -> f32 {
    // Each counter as wide as the longest word of its label, at least.
    let widths: Vec<f32> = data
        .counters
        .iter()
        .map(|(label, _)| {
            label
                .to_uppercase()
                .split_whitespace()
                .map(|w| fonts.width(w, LABEL, true) + 2.4)
                .fold(f.pick(12.0, 16.0), f32::max)
        })
        .collect();
    let counters_w: f32 = widths.iter().sum();
    // Beside the name while they leave it half the card; else in rows of
    // their own under it.
    let beside = counters_w <= f.inner() * 0.5;
    let name_w = if beside && counters_w > 0.0 {
        f.inner() - counters_w - 1.5
    } else {
        f.inner()
    };
    // The band is drawn first, its height known once the text is placed.
    let band = pen.items.len();
    pen.rect(f.x, f.y, f.w, 0.0, Some(BAND), 0.0);

    let top = f.y + f.pad * 0.8;
    let mut y = if data.blank {
        blank_name(fonts, data, f, name_w, top, pen)
    } else {
        let name = if data.leader {
            format!("★ {}", data.name)
        } else {
            data.name.clone()
        };
        let (size, lines) = wrap_fit(fonts, &name, name_w, (f.pick(11.0, 15.0), 6.0), 2, true);
        lines_at(pen, f.left(), top, size, true, &lines)
    };
    if !data.gang.is_empty() {
        let (size, lines) = wrap_fit(
            fonts,
            &data.gang,
            name_w,
            (f.pick(7.0, 8.5), LABEL),
            2,
            false,
        );
        y = lines_at(pen, f.left(), y + 0.3, size, false, &lines);
    }
    let mut bottom = y + 0.8;
    if beside {
        let mut bx = f.x + f.w - f.pad - counters_w;
        let row: Vec<CounterAt<'_>> = data
            .counters
            .iter()
            .zip(&widths)
            .map(|(counter, w)| {
                let at = bx;
                bx += w;
                (counter, at, w - 0.8)
            })
            .collect();
        bottom = bottom.max(counter_row(fonts, &row, top, f, pen));
    } else {
        // Left to right, a new row where the next would not fit.
        let mut rows: Vec<Vec<CounterAt<'_>>> = vec![Vec::new()];
        let mut bx = f.left();
        for (counter, w) in data.counters.iter().zip(&widths) {
            let w = w.min(f.inner());
            if bx > f.left() && bx + w > f.left() + f.inner() + 0.01 {
                bx = f.left();
                rows.push(Vec::new());
            }
            if let Some(row) = rows.last_mut() {
                row.push((counter, bx, w - 0.8));
            }
            bx += w;
        }
        let mut row_top = y + 0.6;
        for row in rows.iter().filter(|r| !r.is_empty()) {
            row_top = counter_row(fonts, row, row_top, f, pen) + 0.8;
        }
        bottom = row_top;
    }
    let bottom = bottom.max(f.y + f.pick(10.0, 12.0));
    // The band from the card's top (and its bleed) to under the header.
    if let Some(Item::Rect { x, y, w, h, .. }) = pen.items.get_mut(band) {
        *x = f.x - bleed;
        *y = f.y - bleed;
        *w = f.w + 2.0 * bleed;
        *h = bottom - f.y + bleed;
    }
    bottom + 1.5
}

/// A blank card's name line: its label, and a rule to write on.
fn blank_name(
    fonts: &Fonts,
    data: &CardData,
    f: &Frame,
    width: f32,
    top: f32,
    pen: &mut Pen<'_>,
) -> f32 {
    let lines = wrap(fonts, &data.name_label, width, LABEL, true);
    let y = lines_at(pen, f.left(), top, LABEL, true, &lines);
    let rule = y + f.pick(6.0, 8.0);
    pen.line(f.left(), rule, f.left() + width, rule, 0.2);
    rule + 0.5
}

/// A counter placed in the header: its (label, value), x and width.
type CounterAt<'a> = (&'a (String, String), f32, f32);

/// A row of counters' boxes from `top`, each (counter, x, width): its
/// label (wrapped at [`LABEL`] points where it must) and its value, the
/// values in a line under the row's longest label, and every box as tall
/// as the tallest. Returns the y under the row.
fn counter_row(
    fonts: &Fonts,
    row: &[CounterAt<'_>],
    top: f32,
    f: &Frame,
    pen: &mut Pen<'_>,
) -> f32 {
    let labels: Vec<Vec<String>> = row
        .iter()
        .map(|((label, _), _, w)| wrap(fonts, &label.to_uppercase(), w - 1.2, LABEL, true))
        .collect();
    let label_lines = labels.iter().map(Vec::len).max().unwrap_or(0);
    let values_top = top + 0.5 + label_lines as f32 * step(LABEL);
    let values: Vec<(f32, Vec<String>)> = row
        .iter()
        .map(|((_, value), _, w)| {
            wrap_fit(fonts, value, w - 1.2, (f.pick(9.0, 12.0), LABEL), 1, true)
        })
        .collect();
    let h = values
        .iter()
        .map(|(size, lines)| values_top + lines.len() as f32 * step(*size) + 0.4 - top)
        .fold(f.pick(8.0, 10.0), f32::max);
    for ((&(_, x, w), labels), (size, values)) in row.iter().zip(&labels).zip(&values) {
        pen.rect(x, top, w, h, Some(1.0), 0.25);
        lines_at(pen, x + 0.6, top + 0.5, LABEL, true, labels);
        lines_at(pen, x + 0.6, values_top, *size, true, values);
    }
    top + h
}

/// Why the fighter cannot fight, in a strip across the card.
fn status_strip(fonts: &Fonts, status: &str, f: &Frame, top: f32, pen: &mut Pen<'_>) -> f32 {
    let size = f.pick(7.0, 8.5);
    let lines = wrap(fonts, status, f.inner() - 1.6, size, true);
    let at = pen.items.len();
    pen.rect(f.left(), top, f.inner(), 0.0, Some(STATUS), 0.0);
    let bottom = lines_at(pen, f.left() + 0.8, top + 0.4, size, true, &lines) + 0.4;
    if let Some(Item::Rect { h, .. }) = pen.items.get_mut(at) {
        *h = bottom - top;
    }
    bottom + 1.2
}

/// The stats in rows of boxes (as many to a row as are wide enough), the
/// photo at the right where there is one. Returns the y under them.
fn stats(
    fonts: &Fonts,
    data: &CardData,
    index: usize,
    f: &Frame,
    top: f32,
    pen: &mut Pen<'_>,
) -> f32 {
    let photo = f.pick(17.0, 24.0);
    let width = if data.photo.is_some() {
        pen.items.push(Item::Image {
            x: f.x + f.w - f.pad - photo,
            y: top,
            w: photo,
            h: photo,
            card: index,
        });
        pen.rect(f.x + f.w - f.pad - photo, top, photo, photo, None, 0.2);
        f.inner() - photo - 1.5
    } else {
        f.inner()
    };
    // Boxes wide enough for every label at its size, one word to a line.
    let widest = data
        .stats
        .iter()
        .flat_map(|s| s.label.split_whitespace())
        .map(|w| fonts.width(w, LABEL, true) + 2.0)
        .fold(f.pick(9.0, 12.0), f32::max);
    let per_row = ((width / widest).floor() as usize).clamp(1, data.stats.len().max(1));
    let box_w = (width / per_row as f32).min(30.0);
    let mut y = top;
    for row in data.stats.chunks(per_row) {
        let mut scratch = Vec::new();
        let h = row
            .iter()
            .map(|s| {
                let mut measure = Pen {
                    items: &mut scratch,
                };
                stat_box(fonts, s, (0.0, 0.0), box_w - 0.8, f, &mut measure, None)
            })
            .fold(0.0, f32::max);
        for (i, stat) in row.iter().enumerate() {
            let bx = f.left() + i as f32 * box_w;
            stat_box(fonts, stat, (bx, y), box_w - 0.8, f, pen, Some(h));
        }
        y += h + 0.8;
    }
    let bottom = if data.photo.is_some() {
        y.max(top + photo + 0.8)
    } else {
        y
    };
    bottom + 0.7
}

/// A stat's box: label, value, and under it in small type its bumps and
/// its base where quirks or lasting effects changed it. Returns the height
/// it needs; the box itself is drawn as `row_h` high where given (a
/// measure is taken with a pen whose items are then dropped).
fn stat_box(
    fonts: &Fonts,
    stat: &StatCell,
    (x, y): (f32, f32),
    w: f32,
    f: &Frame,
    pen: &mut Pen<'_>,
    row_h: Option<f32>,
) -> f32 {
    if let Some(h) = row_h {
        pen.rect(x, y, w, h, None, 0.25);
    }
    let labels = wrap(fonts, &stat.label, w - 1.2, LABEL, true);
    let mut cy = lines_at(pen, x + 0.6, y + 0.4, LABEL, true, &labels);
    let (size, values) = wrap_fit(
        fonts,
        &stat.value,
        w - 1.2,
        (f.pick(10.0, 14.0), LABEL),
        1,
        true,
    );
    cy = lines_at(pen, x + 0.6, cy, size, true, &values);
    // 004: "A second, smaller box below that shows any bumps".
    let under: Vec<String> = stat
        .bumps
        .iter()
        .cloned()
        .chain(stat.base.iter().map(|b| format!("base {b}")))
        .collect();
    if !under.is_empty() {
        let bold = stat.bumps.is_some();
        let lines = wrap(fonts, &under.join(" "), w - 1.2, LABEL, bold);
        let size = LABEL;
        cy = lines_at(pen, x + 0.6, cy, size, bold, &lines);
    }
    cy + 0.4 - y
}

/// The track the pack's track stat sizes: its label and a box for each
/// point of the stat's full value, in as few rows as fit, the damage
/// already taken filled grey and crossed from the first box on (a tick
/// that reads in black and white). Returns the y under it.
fn track(fonts: &Fonts, t: &Track, f: &Frame, top: f32, pen: &mut Pen<'_>) -> Option<f32> {
    let labels = wrap(fonts, &t.label.to_uppercase(), f.inner(), LABEL, true);
    let y = lines_at(pen, f.left(), top, LABEL, true, &labels) + 0.3;
    let n = t.boxes.max(1) as usize;
    let gap = 0.6;
    let (largest, smallest) = (f.pick(5.0, 6.0), 2.8);
    let fits = |side: f32| ((f.inner() + gap) / (side + gap)).floor().max(1.0) as usize;
    let mut per_row = n.min(fits(smallest));
    // Fewest rows first, then the largest boxes those rows allow; more than
    // two rows is no track to tick (the value is in its stat's box).
    let rows = n.div_ceil(per_row);
    if rows > 2 {
        return None;
    }
    per_row = n.div_ceil(rows);
    let side = ((f.inner() - (per_row as f32 - 1.0) * gap) / per_row as f32).min(largest);
    for i in 0..n {
        let (r, c) = (i / per_row, i % per_row);
        let (x, y) = (
            f.left() + c as f32 * (side + gap),
            y + r as f32 * (side + gap),
        );
        if i < t.taken as usize {
            pen.rect(x, y, side, side, Some(TAKEN), 0.25);
            pen.line(x, y, x + side, y + side, 0.4);
            pen.line(x, y + side, x + side, y, 0.4);
        } else {
            pen.rect(x, y, side, side, None, 0.25);
        }
    }
    Some(y + rows as f32 * (side + gap) + 0.8)
}

/// A place for each token the text puts on a card: a box and its name,
/// side by side while they fit. Returns the y under them.
fn tokens(fonts: &Fonts, names: &[String], f: &Frame, top: f32, pen: &mut Pen<'_>) -> Option<f32> {
    let side = f.pick(5.0, 6.0);
    let (mut x, mut y) = (f.left(), top);
    for name in names {
        let label = name.to_uppercase();
        let room = f.inner() - side - 0.8;
        let size = LABEL;
        let lines = wrap(fonts, &label, room, size, true);
        let width = side
            + 0.8
            + lines
                .iter()
                .map(|l| fonts.width(l, size, true))
                .fold(0.0, f32::max);
        if x > f.left() && x + width > f.left() + f.inner() {
            x = f.left();
            y += side + 0.8;
        }
        pen.rect(x, y, side, side, None, 0.25);
        let text_h = lines.len() as f32 * step(size);
        let below = lines_at(
            pen,
            x + side + 0.8,
            y + ((side - text_h) / 2.0).max(0.0),
            size,
            true,
            &lines,
        );
        y = y.max(below - side);
        x += width + 2.5;
    }
    Some(y + side + 1.2)
}

/// The write-in boxes at the bottom: one per counter (the pack's, which
/// change in play), the marks where the pack has no track and no counter,
/// and notes. Returns the y above them.
fn write_in(fonts: &Fonts, data: &CardData, f: &Frame, pen: &mut Pen<'_>) -> f32 {
    let h = f.pick(12.0, 16.0);
    // Each box as wide as its label (up to a third of the card); in rows
    // from the foot of the card up, the notes last.
    let mut boxes: Vec<(String, f32)> = data
        .write_ins
        .iter()
        .map(|l| {
            let label = l.to_uppercase();
            let w = (fonts.width(&label, LABEL, true) + 2.4)
                .max(f.pick(11.0, 15.0))
                .min(f.inner() / 3.0);
            (label, w)
        })
        .collect();
    let marks = data.track.is_none() && data.write_ins.is_empty();
    if marks {
        boxes.push((String::new(), f.inner() * 0.36 + 0.8));
    }
    let mut rows: Vec<Vec<(String, f32)>> = vec![Vec::new()];
    let mut used = 0.0;
    for b in boxes {
        if used > 0.0 && used + b.1 > f.inner() + 0.01 {
            rows.push(Vec::new());
            used = 0.0;
        }
        used += b.1;
        if let Some(row) = rows.last_mut() {
            row.push(b);
        }
    }
    let top = f.bottom() - h * rows.len() as f32 - 0.8 * (rows.len() as f32 - 1.0);
    for (r, row) in rows.iter().enumerate() {
        let y = top + r as f32 * (h + 0.8);
        let mut x = f.left();
        for (label, w) in row {
            if label.is_empty() {
                marks_boxes(fonts, data, (x, y), w - 0.8, h, pen);
            } else {
                pen.rect(x, y, w - 0.8, h, None, 0.2);
                let lines = wrap(fonts, label, w - 1.4, LABEL, true);
                lines_at(pen, x + 0.6, y + 0.4, LABEL, true, &lines);
            }
            x += w;
        }
        // The notes fill what is left of the last row.
        let notes_w = f.left() + f.inner() - x;
        if r + 1 == rows.len() && notes_w > 8.0 {
            pen.rect(x, y, notes_w, h, None, 0.2);
            let lines = wrap(fonts, &data.notes_heading, notes_w - 1.2, LABEL, true);
            lines_at(pen, x + 0.6, y + 0.4, LABEL, true, &lines);
        }
    }
    top - 1.0
}

/// Five tick boxes under the marks heading, where a pack has neither a
/// track nor a counter.
fn marks_boxes(
    fonts: &Fonts,
    data: &CardData,
    (x, y): (f32, f32),
    w: f32,
    h: f32,
    pen: &mut Pen<'_>,
) {
    let lines = wrap(fonts, &data.marks_heading, w, LABEL, true);
    let under = lines_at(pen, x, y + 0.4, LABEL, true, &lines) + 0.4;
    let side = ((w - 4.0 * 0.8) / 5.0).min(y + h - under).max(0.5);
    for i in 0..5 {
        pen.rect(x + i as f32 * (side + 0.8), under, side, side, None, 0.2);
    }
}

/// A line of a card's body: whether it is a heading, whether it hangs
/// under the line before it (an entry wrapped), and its text.
type BodyLine = (bool, bool, String);

/// The entries and lasting effects, in the largest type that fits between
/// `top` and `bottom` (a readable size first, smaller only as needed,
/// never under [`LABEL`]), each line hanging under its first; an empty
/// heading with lines to write on from the room left, or left out where
/// none is. Returns whether they fit; where they do not, [`parts`] gives
/// them more cards.
fn body(
    fonts: &Fonts,
    data: &CardData,
    f: &Frame,
    (top, bottom): (f32, f32),
    first: bool,
    pen: &mut Pen<'_>,
) -> bool {
    let indent = 1.0;
    let hang = f.pick(2.5, 3.0);
    let width = f.inner() - indent;
    let blocks = blocks(data, first);
    let block_lines = |size: f32, (heading, lines): &(&String, &[String])| {
        let mut out: Vec<BodyLine> = wrap(fonts, heading, f.inner(), size, true)
            .into_iter()
            .map(|l| (true, false, l))
            .collect();
        for line in *lines {
            for (i, l) in wrap_hanging(fonts, line, width, width - hang, size, false)
                .into_iter()
                .enumerate()
            {
                out.push((false, i > 0, l));
            }
        }
        out
    };
    // Every block's lines at a size, and how tall what is written stands.
    let lay = |size: f32| -> (Vec<Vec<BodyLine>>, f32) {
        let laid: Vec<_> = blocks.iter().map(|b| block_lines(size, b)).collect();
        let written = blocks
            .iter()
            .zip(&laid)
            .filter(|((_, lines), _)| !lines.is_empty())
            .map(|(_, l)| l.len() as f32 * step(size) + 0.8)
            .sum();
        (laid, written)
    };
    // What is written decides the type's size; an empty heading takes
    // lines to write on from the room left under it, and is left out
    // where there is none.
    let (size, (laid, written)) = largest_that_fits(f.pick(9.0, 11.0), |size| {
        let (laid, written) = lay(size);
        (top + written <= bottom, (laid, written))
    });
    let fits = top + written <= bottom + 0.01;
    let rule = f.pick(5.5, 6.5);
    let rules = write_on(
        blocks.iter().zip(&laid).map(|(block, lines)| {
            (block.1.is_empty() && fits).then(|| lines.len() as f32 * step(size) + 0.8)
        }),
        bottom - top - written,
        rule,
    );
    let mut y = top;
    let mut after_heading = false;
    for ((block, lines), &ruled) in blocks.iter().zip(laid).zip(&rules) {
        if block.1.is_empty() && ruled == 0 {
            continue;
        }
        for (heading, hanging, text) in lines {
            if heading && y > top && !after_heading {
                y += 0.8;
            }
            after_heading = heading;
            let x =
                f.left() + if heading { 0.0 } else { indent } + if hanging { hang } else { 0.0 };
            y = lines_at(pen, x, y, size, heading, std::slice::from_ref(&text));
        }
        for _ in 0..ruled {
            y += rule;
            pen.line(f.left(), y, f.left() + f.inner(), y, 0.15);
            after_heading = false;
        }
    }
    fits
}

/// The largest size from `start` down to [`LABEL`], a quarter point at a
/// time, at which `lay` says what it laid out fits; [`LABEL`] where none
/// does. What fits at a size fits at every smaller one, so the sizes are
/// halved between rather than each tried: a card too full to fit is known
/// at once (as [`parts`] asks, many times over for a long fighter).
fn largest_that_fits<T>(start: f32, lay: impl Fn(f32) -> (bool, T)) -> (f32, T) {
    let steps = ((start - LABEL) / 0.25).ceil().max(0.0) as usize;
    let size = |k: usize| (start - 0.25 * k as f32).max(LABEL);
    let (fits, first) = lay(size(0));
    if fits || steps == 0 {
        return (size(0), first);
    }
    let (fits, smallest) = lay(size(steps));
    if !fits {
        return (size(steps), smallest);
    }
    // Too big at `lo`, fits at `hi`.
    let (mut lo, mut hi, mut best) = (0, steps, smallest);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        let (fits, laid) = lay(size(mid));
        if fits {
            (hi, best) = (mid, laid);
        } else {
            lo = mid;
        }
    }
    (size(hi), best)
}

/// What a card's body prints, in order, each (heading, lines): the
/// entries under one heading, or under their categories' (a unit record's
/// rank, species, skills, equipment), then the lasting effects, then the
/// fighter's notes. The entries' heading stands even over none on a
/// fighter's first card (with lines to write them on where there is room:
/// see [`write_on`]).
fn blocks(data: &CardData, first: bool) -> Vec<(&String, &[String])> {
    let entries: Vec<(&String, &[String])> = if data.groups.is_empty() {
        vec![(&data.quirks_heading, data.quirks.as_slice())]
    } else {
        data.groups
            .iter()
            .map(|(heading, lines)| (heading, lines.as_slice()))
            .collect()
    };
    entries
        .into_iter()
        .filter(|(heading, lines)| {
            (first && (data.groups.is_empty() || *heading == &data.quirks_heading))
                || !lines.is_empty()
        })
        .chain(
            [
                (&data.lasting_heading, data.lasting.as_slice()),
                (&data.notes_heading, data.notes.as_slice()),
            ]
            .into_iter()
            .filter(|(_, lines)| !lines.is_empty()),
        )
        .collect()
}

/// How many lines to write on each empty block gets, from the `spare`
/// room (mm): each block its heading's room (`Some`, for an empty block)
/// and one line, in order, while there is room (none: the heading is left
/// out); then the rest of the room a line at a time to each in turn.
fn write_on(empty: impl Iterator<Item = Option<f32>>, mut spare: f32, rule: f32) -> Vec<usize> {
    let mut rules: Vec<usize> = empty
        .map(|heading| match heading {
            Some(h) if h + rule <= spare => {
                spare -= h + rule;
                1
            }
            _ => 0,
        })
        .collect();
    let open: Vec<usize> = (0..rules.len()).filter(|&i| rules[i] > 0).collect();
    if !open.is_empty() {
        let more = (spare / rule).floor().max(0.0) as usize;
        for k in 0..more {
            rules[open[k % open.len()]] += 1;
        }
    }
    rules
}

/// Ruled lines to write a blank card's entries on.
fn ruled(f: &Frame, top: f32, bottom: f32, pen: &mut Pen<'_>) {
    let mut y = top + f.pick(5.5, 6.5);
    while y < bottom {
        pen.line(f.left(), y, f.left() + f.inner(), y, 0.15);
        y += f.pick(5.5, 6.5);
    }
}

/// Where the cards go on a page (their trim, top-left corners): as many as
/// fit inside the margins with room for the crop marks and the bleed
/// outside the grid, the grid centred. Without bleed, neighbours share a
/// cut line; with it, they sit twice the bleed apart. Without crop marks
/// no room is kept for them, the bleed round the grid may run to the
/// paper's edge, and neighbours sit only the bleed apart where that puts
/// one more card in a row or a column (a band then reaches its
/// neighbour's cut, and no further).
pub fn grid(page: PageSize, style: CardStyle) -> Vec<(f32, f32)> {
    let (pw, ph) = page.mm();
    let (cw, ch) = style.size.mm();
    let bleed = style.bleed();
    let outer = if style.marks {
        MARGIN + MARK + MARK_GAP + bleed
    } else {
        MARGIN.max(bleed)
    };
    // How many fit along a side, and how far apart.
    let along = |side: f32, card: f32| {
        let count =
            |gap: f32| ((side - 2.0 * outer + gap) / (card + gap)).floor().max(1.0) as usize;
        let apart = 2.0 * bleed;
        if !style.marks && count(bleed) > count(apart) {
            (count(bleed), bleed)
        } else {
            (count(apart), apart)
        }
    };
    let (cols, gap_x) = along(pw, cw);
    let (rows, gap_y) = along(ph, ch);
    let grid_w = cols as f32 * cw + (cols - 1) as f32 * gap_x;
    let grid_h = rows as f32 * ch + (rows - 1) as f32 * gap_y;
    let x0 = (pw - grid_w) / 2.0;
    let y0 = (ph - grid_h) / 2.0;
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            out.push((x0 + c as f32 * (cw + gap_x), y0 + r as f32 * (ch + gap_y)));
        }
    }
    out
}

/// Cards on a sheet whose cut lines come nearer the paper's edge than
/// [`PRINTABLE`], where many printers cannot print: the card's own print
/// (its header band) would stop short of its edge. The outermost cut
/// line, and the bleed beyond it (mm from the edge). A bleed that runs
/// past what prints, its cut inside it, is only a bleed printed narrower,
/// and is not told.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearTheEdge {
    pub cut: f32,
    pub bleed: f32,
}

impl std::fmt::Display for NearTheEdge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the outer cut lines are {:.1} mm from the paper's edge",
            self.cut
        )?;
        if self.bleed < self.cut {
            write!(f, " and their bleed {:.1} mm", self.bleed)?;
        }
        write!(
            f,
            ", where many printers cannot print (they print from {PRINTABLE} mm in): \
             the cards are printed as asked, at their size; for cut lines further in, \
             print without bleed, with crop marks, or on smaller cards"
        )
    }
}

/// Where the cut lines of the cards on a sheet come nearer the paper's
/// edge than [`PRINTABLE`], if they do. The cards are printed as asked
/// and the player told: shrunk, they would no longer be the size asked
/// for (a sleeve's), and with fewer to a row, a sheet would hold half.
pub fn near_the_edge(page: PageSize, style: CardStyle) -> Option<NearTheEdge> {
    let (pw, ph) = page.mm();
    let (cw, ch) = style.size.mm();
    let cut = grid(page, style)
        .iter()
        .flat_map(|&(x, y)| [x, y, pw - (x + cw), ph - (y + ch)])
        .fold(f32::INFINITY, f32::min);
    (cut < PRINTABLE - 0.01).then_some(NearTheEdge {
        cut,
        bleed: cut - style.bleed(),
    })
}

/// Crop marks for the cards placed: for every cut line, a short stroke at
/// each end, outside the grid and its bleed, none on a card, and none
/// nearer the edge of a `page` (w, h) than [`PRINTABLE`] (shortened to
/// stay inside it, left out where no room is left).
pub fn crop_marks(
    cards: &[(f32, f32, f32, f32)],
    bleed: f32,
    (pw, ph): (f32, f32),
    items: &mut Vec<Item>,
) {
    let Some(&(x0, y0, _, _)) = cards.first() else {
        return;
    };
    let right = cards.iter().map(|c| c.0 + c.2).fold(x0, f32::max);
    let bottom = cards.iter().map(|c| c.1 + c.3).fold(y0, f32::max);
    let left = cards.iter().map(|c| c.0).fold(x0, f32::min);
    let top = cards.iter().map(|c| c.1).fold(y0, f32::min);
    let mut xs: Vec<f32> = cards.iter().flat_map(|c| [c.0, c.0 + c.2]).collect();
    let mut ys: Vec<f32> = cards.iter().flat_map(|c| [c.1, c.1 + c.3]).collect();
    for v in [&mut xs, &mut ys] {
        v.sort_by(f32::total_cmp);
        v.dedup_by(|a, b| (*a - *b).abs() < 0.01);
    }
    let near = bleed + MARK_GAP;
    // Each stroke runs away from the grid, along its cut line.
    let mut mark = |x1: f32, y1: f32, x2: f32, y2: f32| {
        let (x2, y2) = (
            x2.clamp(PRINTABLE, pw - PRINTABLE),
            y2.clamp(PRINTABLE, ph - PRINTABLE),
        );
        let inside = |v: f32, most: f32| (PRINTABLE..=most - PRINTABLE).contains(&v);
        let long = (x2 - x1).abs().max((y2 - y1).abs());
        if inside(x1, pw) && inside(y1, ph) && long >= SHORTEST_MARK {
            items.push(Item::Line {
                x1,
                y1,
                x2,
                y2,
                width: 0.2,
            });
        }
    };
    for x in xs {
        mark(x, top - near, x, top - near - MARK);
        mark(x, bottom + near, x, bottom + near + MARK);
    }
    for y in ys {
        mark(left - near, y, left - near - MARK, y);
        mark(right + near, y, right + near + MARK, y);
    }
}

/// How thick a cut guide is drawn (mm): a hairline.
pub const GUIDE: f32 = 0.1;

/// Where bleed sits the cards apart and no crop marks are printed, a
/// hairline on each cut line beyond each corner of every card, so that
/// the cut is found: in the space between two cards, the middle half of
/// it (a quarter of the space clear of either card's trim, so a cut that
/// wanders less than that leaves no trace); round the grid, from half the
/// bleed out past the trim, [`MARK`] long, kept inside [`PRINTABLE`].
/// Nothing is drawn on a card.
pub fn cut_guides(
    cards: &[(f32, f32, f32, f32)],
    bleed: f32,
    (pw, ph): (f32, f32),
    items: &mut Vec<Item>,
) {
    // How far from a card's side `from`, going `step` (1 or -1) away from
    // it along the line `at` (across: a row's line, at a y), the next card
    // on that line begins; infinity where none does.
    let next = |from: f32, step: f32, at: f32, across: bool| {
        cards
            .iter()
            .filter_map(|&(x, y, w, h)| {
                let (lo, hi, near) = match (across, step > 0.0) {
                    (true, true) => (y, y + h, x),
                    (true, false) => (y, y + h, x + w),
                    (false, true) => (x, x + w, y),
                    (false, false) => (x, x + w, y + h),
                };
                let gap = (near - from) * step;
                (lo - 0.01 <= at && at <= hi + 0.01 && gap > 0.01).then_some(gap)
            })
            .fold(f32::INFINITY, f32::min)
    };
    let mut tick = |from: f32, step: f32, at: f32, across: bool| {
        let space = next(from, step, at, across);
        let (start, end) = if space.is_finite() {
            (space / 4.0, space / 2.0)
        } else {
            (bleed / 2.0, bleed / 2.0 + MARK)
        };
        let limit = if across { pw } else { ph };
        let (a, b) = (from + step * start, from + step * end);
        let b = b.clamp(PRINTABLE, limit - PRINTABLE);
        let on_paper = (PRINTABLE..=limit - PRINTABLE).contains(&a);
        let other = if across { ph } else { pw };
        if on_paper
            && (PRINTABLE..=other - PRINTABLE).contains(&at)
            && (b - a).abs() >= SHORTEST_MARK
        {
            let (x1, y1, x2, y2) = if across {
                (a, at, b, at)
            } else {
                (at, a, at, b)
            };
            items.push(Item::Line {
                x1,
                y1,
                x2,
                y2,
                width: GUIDE,
            });
        }
    };
    for &(x, y, w, h) in cards {
        for line in [y, y + h] {
            tick(x, -1.0, line, true);
            tick(x + w, 1.0, line, true);
        }
        for line in [x, x + w] {
            tick(y, -1.0, line, false);
            tick(y + h, 1.0, line, false);
        }
    }
}

/// Cards on pages, as many per page as fit, blanks after the fighters
/// (each with the first card's labels); a fighter whose entries need more
/// than one card on as many as they need, one after another.
pub fn card_pages(
    fonts: &Fonts,
    cards: &[CardData],
    blanks: usize,
    page: PageSize,
    style: CardStyle,
) -> Result<Vec<PageLayout>, TooLong> {
    let slots = grid(page, style);
    let (pw, ph) = page.mm();
    let (cw, ch) = style.size.mm();
    let blank = cards.first().map(CardData::blank_like);
    let blank_parts = match &blank {
        Some(b) if blanks > 0 => parts(fonts, b, style)?,
        _ => Vec::new(),
    };
    // Every card to print, with the fighter it is of.
    let mut all: Vec<(usize, &Part)> = Vec::new();
    let fighters = cards
        .iter()
        .map(|c| parts(fonts, c, style))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, fighter) in fighters.iter().enumerate() {
        all.extend(fighter.iter().map(|p| (i, p)));
    }
    for b in 0..blanks {
        all.extend(blank_parts.iter().map(|p| (cards.len() + b, p)));
    }
    let mut pages = Vec::new();
    for chunk in all.chunks(slots.len().max(1)) {
        let mut layout = PageLayout::empty(pw, ph);
        for (&(x, y), &(i, part)) in slots.iter().zip(chunk) {
            card_once(
                fonts,
                &part.data,
                i,
                (x, y),
                part.style,
                &mut layout.items,
                part.first,
            );
            layout.cards.push((x, y, cw, ch));
            layout.of.push(i);
        }
        if style.marks {
            crop_marks(&layout.cards, style.bleed(), (pw, ph), &mut layout.items);
        } else if style.cut_guide && style.bleed() > 0.0 {
            cut_guides(&layout.cards, style.bleed(), (pw, ph), &mut layout.items);
        }
        pages.push(layout);
    }
    if pages.is_empty() {
        pages.push(PageLayout::empty(pw, ph));
    }
    Ok(pages)
}
