//! Where everything goes on a page, in millimetres from the top-left
//! corner (cards are `card.rs`'s). Pure: the PDF writer and the app's preview both draw these
//! items, and the tests check that every box stays inside its card and
//! every card inside the page's margins.

use serde::Serialize;

use super::RosterData;
use super::fonts::{Fonts, MM_PER_PT};

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
    /// Which of the cards given each card shows (a fighter on more than
    /// one card has each of them; a blank card counts on after the
    /// fighters).
    pub of: Vec<usize>,
}

impl PageLayout {
    /// A page of `w` × `h` mm with nothing on it yet.
    pub fn empty(w: f32, h: f32) -> Self {
        Self {
            w,
            h,
            items: Vec::new(),
            cards: Vec::new(),
            of: Vec::new(),
        }
    }
}

pub use crate::rules::CardSize;

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
/// Line height for a font size, in mm.
pub(super) fn leading(size: f32) -> f32 {
    size * MM_PER_PT * 1.22
}

/// The box a text is clipped to when printed (x, y, w, h from the
/// top-left): its line, from a whole em above its baseline (the room every
/// line is given above it) to a quarter of one under it, and as wide as
/// the font measures it with a quarter em either side. Marks stacked past
/// it (a name of hundreds of combining marks) are not drawn over the text
/// around it.
pub fn clip_box(fonts: &Fonts, item: &Item) -> Option<(f32, f32, f32, f32)> {
    let Item::Text {
        x,
        y,
        size,
        bold,
        text,
    } = item
    else {
        return None;
    };
    let em = size * MM_PER_PT;
    let pad = em * 0.25;
    Some((
        x - pad,
        y - em,
        fonts.width(text, *size, *bold) + 2.0 * pad,
        em + pad,
    ))
}

/// Splits text into lines no wider than `width` at `size`: at its own line
/// breaks, at spaces where it can, and inside a word only when a word alone
/// is too wide. Nothing is dropped; a blank line stays blank.
pub fn wrap(fonts: &Fonts, text: &str, width: f32, size: f32, bold: bool) -> Vec<String> {
    wrap_hanging(fonts, text, width, width, size, bold)
}

/// [`wrap`] with a hanging indent: each paragraph's first line `first`
/// wide, the lines after it `rest` wide.
pub fn wrap_hanging(
    fonts: &Fonts,
    text: &str,
    first: f32,
    rest: f32,
    size: f32,
    bold: bool,
) -> Vec<String> {
    text.split('\n')
        .flat_map(|line| {
            wrap_line(
                fonts,
                line.strip_suffix('\r').unwrap_or(line),
                (first, rest),
                size,
                bold,
                false,
            )
        })
        .collect()
}

/// The largest size from `start` down to `floor` at which `text` wraps into
/// at most `max_lines` lines `width` wide; below that, `floor` with as many
/// lines as it takes (nothing is cut).
pub(super) fn wrap_fit(
    fonts: &Fonts,
    text: &str,
    width: f32,
    (start, floor): (f32, f32),
    max_lines: usize,
    bold: bool,
) -> (f32, Vec<String>) {
    let mut size = start;
    loop {
        let lines = wrap(fonts, text, width, size, bold);
        if lines.len() <= max_lines || size <= floor {
            return (size, lines);
        }
        size = (size - 0.25).max(floor);
    }
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

/// One paragraph (no line breaks of its own) in the lines [`wrap`] lays
/// it out in, each with the space after it: joined, they are the text
/// again, so a paragraph too long for one place can be cut between lines.
pub fn wrap_keeping_spaces(
    fonts: &Fonts,
    text: &str,
    width: f32,
    size: f32,
    bold: bool,
) -> Vec<String> {
    wrap_line(fonts, text, (width, width), size, bold, true)
}

/// One line of text wrapped by textwrap at the places Unicode allows a
/// break (spaces, and between CJK characters), measured in the font; each
/// line with the space it broke at where `keep_space`.
fn wrap_line(
    fonts: &Fonts,
    text: &str,
    (first, rest): (f32, f32),
    size: f32,
    bold: bool,
    keep_space: bool,
) -> Vec<String> {
    let width = first.min(rest);
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
    let lines =
        textwrap::wrap_algorithms::wrap_first_fit(&pieces, &[f64::from(first), f64::from(rest)]);
    let mut out: Vec<String> = lines
        .iter()
        .map(|line| {
            let mut text = String::new();
            for (i, piece) in line.iter().enumerate() {
                text.push_str(piece.word);
                if keep_space || i + 1 < line.len() {
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
pub(super) fn fit(
    fonts: &Fonts,
    text: &str,
    width: f32,
    start: f32,
    floor: f32,
    bold: bool,
) -> f32 {
    let mut size = start;
    while size > floor && fonts.width(text, size, bold) > width {
        size -= 0.25;
    }
    size.max(floor)
}

pub(super) struct Pen<'a> {
    pub(super) items: &'a mut Vec<Item>,
}

impl Pen<'_> {
    pub(super) fn text(&mut self, x: f32, y: f32, size: f32, bold: bool, text: impl Into<String>) {
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

    pub(super) fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<f32>, stroke: f32) {
        self.items.push(Item::Rect {
            x,
            y,
            w,
            h,
            fill,
            stroke,
        });
    }

    pub(super) fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width: f32) {
        self.items.push(Item::Line {
            x1,
            y1,
            x2,
            y2,
            width,
        });
    }
}

/// A gang's roster sheet: one page, more only when the gang is very large.
pub fn roster_pages(fonts: &Fonts, data: &RosterData, page: PageSize) -> Vec<PageLayout> {
    let (pw, ph) = page.mm();
    let left = MARGIN + 4.0;
    let right = pw - MARGIN - 4.0;
    let width = right - left;
    // Room at the foot for the page's number.
    let bottom = ph - MARGIN - 10.0;
    // Where a page after the first begins: under its running head.
    let top = MARGIN + 14.0;
    let mut pages = vec![PageLayout::empty(pw, ph)];
    let mut y = MARGIN + 10.0;
    {
        let page = pages.last_mut().map(|p| &mut p.items);
        let Some(items) = page else {
            return pages;
        };
        let mut pen = Pen { items };
        // The gang's name wraps before it shrinks, as a card's does.
        let mut title_size = 20.0;
        let mut title = wrap(fonts, &data.gang, width, title_size, true);
        while title.len() > 2 && title_size > 10.0 {
            title_size -= 0.5;
            title = wrap(fonts, &data.gang, width, title_size, true);
        }
        for (i, line) in title.into_iter().enumerate() {
            if i > 0 {
                y += leading(title_size);
            }
            pen.text(left, y, title_size, true, line);
        }
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
    // The name gives way in its own cell (wrapped, then smaller); the
    // stats beside it keep their size.
    let name_w = width * 0.34;
    let stats_x = left + name_w + 3.0;
    let stats_w = right - stats_x;
    for fighter in &data.fighters {
        let shown = if fighter.leader {
            format!("★ {}", fighter.name)
        } else {
            fighter.name.clone()
        };
        let (name_size, name) = wrap_fit(fonts, &shown, name_w, (size + 1.5, 6.0), 2, true);
        let stats = wrap(fonts, &fighter.headline, stats_w, size, false);
        let mut lines = Vec::new();
        for line in &fighter.lines {
            lines.extend(
                wrap_hanging(fonts, line, width - 4.0, width - 8.0, size, false)
                    .into_iter()
                    .enumerate(),
            );
        }
        let head_h =
            (name.len() as f32 * leading(name_size)).max(stats.len() as f32 * leading(size));
        let needed = head_h + lines.len() as f32 * leading(size) + 3.0;
        if y + needed > bottom {
            pages.push(PageLayout::empty(pw, ph));
            y = top;
        }
        let Some(page) = pages.last_mut() else {
            break;
        };
        let mut pen = Pen {
            items: &mut page.items,
        };
        for (i, line) in name.into_iter().enumerate() {
            pen.text(
                left,
                y + i as f32 * leading(name_size),
                name_size,
                true,
                line,
            );
        }
        for (i, line) in stats.into_iter().enumerate() {
            pen.text(stats_x, y + i as f32 * leading(size), size, false, line);
        }
        y += head_h;
        for (i, text) in lines {
            // A fighter longer than a page goes on over the next.
            if y + leading(size) > bottom {
                pages.push(PageLayout::empty(pw, ph));
                y = top;
            }
            let x = left + if i == 0 { 4.0 } else { 8.0 };
            if let Some(page) = pages.last_mut() {
                page.items.push(Item::Text {
                    x,
                    y,
                    size,
                    bold: false,
                    text,
                });
            }
            y += leading(size);
        }
        y += 1.0;
        if let Some(page) = pages.last_mut() {
            Pen {
                items: &mut page.items,
            }
            .line(left, y, right, y, 0.15);
        }
        y += 3.0;
    }
    roster_heads(fonts, &data.gang, &mut pages);
    pages
}

/// A roster of more than one page: the gang's name at the head of every
/// page after the first (its title is on the first), and on every page
/// its number of the whole (`page 2 of 3`).
fn roster_heads(fonts: &Fonts, gang: &str, pages: &mut [PageLayout]) {
    let total = pages.len();
    if total < 2 {
        return;
    }
    let size = 7.5;
    for (n, page) in pages.iter_mut().enumerate() {
        let (left, right) = (MARGIN + 4.0, page.w - MARGIN - 4.0);
        let number = format!("page {} of {total}", n + 1);
        let wide = fonts.width(&number, size, false);
        page.items.push(Item::Text {
            x: (page.w - wide) / 2.0,
            y: page.h - MARGIN - 4.0,
            size,
            bold: false,
            text: number,
        });
        if n == 0 {
            continue;
        }
        // The name on one line, as large as fits, never under 6 pt.
        let (head_size, lines) = wrap_fit(fonts, gang, right - left, (size, 6.0), 1, true);
        let mut y = MARGIN + 6.0;
        for line in lines {
            page.items.push(Item::Text {
                x: left,
                y,
                size: head_size,
                bold: true,
                text: line,
            });
            y += leading(head_size);
        }
        let rule = y - leading(head_size) + 2.0;
        page.items.push(Item::Line {
            x1: left,
            y1: rule,
            x2: right,
            y2: rule,
            width: 0.2,
        });
    }
}

/// A plain document on pages: title, headings, text and bullets, wrapped
/// (a bullet's lines hang under its text), with a running head and the
/// page number on every page after the first.
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
    let bottom = ph - MARGIN - 14.0;
    let top = MARGIN + 16.0;
    let mut doc = Doc {
        fonts,
        pages: Vec::new(),
        y: MARGIN + 14.0,
        right,
        bottom,
        top,
        size: (pw, ph),
        section: String::new(),
        sections: Vec::new(),
    };
    doc.new_page();
    doc.y = MARGIN + 14.0;
    let bullet = "• ";
    let hang = fonts.width(bullet, 9.0, false);
    doc.put((left, left), 18.0, true, title, 0.0);
    doc.y += 2.0;
    for line in lines {
        match line {
            DocLine::Heading(t) => {
                doc.section = t.clone();
                doc.put((left, left), 14.0, true, t, 4.0);
            }
            DocLine::Subheading(t) => doc.put((left, left), 11.0, true, t, 2.5),
            DocLine::Text(t) => doc.put((left, left), 9.5, false, t, 0.5),
            DocLine::Bullet(t) => doc.put(
                (left + 4.0, left + 4.0 + hang),
                9.0,
                false,
                &format!("{bullet}{t}"),
                0.0,
            ),
            DocLine::BulletMore(t) => {
                doc.put((left + 4.0 + hang, left + 4.0 + hang), 9.0, false, t, 0.3);
            }
        }
    }
    doc.finish(title)
}

/// A document being laid out: its pages, where the next line goes, and
/// the section each page begins in (for its running head).
struct Doc<'a> {
    fonts: &'a Fonts,
    pages: Vec<PageLayout>,
    y: f32,
    right: f32,
    bottom: f32,
    /// Where text begins on a page after the first.
    top: f32,
    size: (f32, f32),
    /// The heading the text is under now.
    section: String,
    /// The heading each page begins under.
    sections: Vec<String>,
}

impl Doc<'_> {
    fn new_page(&mut self) {
        self.pages.push(PageLayout::empty(self.size.0, self.size.1));
        self.sections.push(self.section.clone());
        self.y = self.top;
    }

    /// Puts text wrapped, its first line at `x.0` and the rest hanging at
    /// `x.1`, `before` mm below what came before it.
    fn put(&mut self, (first, rest): (f32, f32), size: f32, bold: bool, text: &str, before: f32) {
        let lines = wrap_hanging(
            self.fonts,
            text,
            self.right - first,
            self.right - rest,
            size,
            bold,
        );
        for (i, line) in lines.into_iter().enumerate() {
            let gap = if i == 0 { before } else { 0.0 };
            if self.y + gap + leading(size) > self.bottom {
                self.new_page();
            } else {
                self.y += gap;
            }
            let x = if i == 0 { first } else { rest };
            if let Some(p) = self.pages.last_mut() {
                p.items.push(Item::Text {
                    x,
                    y: self.y,
                    size,
                    bold,
                    text: line,
                });
            }
            self.y += leading(size);
        }
    }

    /// The pages, each after the first with its running head (the title
    /// and the section it begins in) and its number of the whole.
    fn finish(mut self, title: &str) -> Vec<PageLayout> {
        let total = self.pages.len();
        let (pw, ph) = self.size;
        let (left, right) = (MARGIN + 10.0, self.right);
        let size = 7.5;
        for (n, page) in self.pages.iter_mut().enumerate() {
            let number = format!("{} / {total}", n + 1);
            let wide = self.fonts.width(&number, size, false);
            page.items.push(Item::Text {
                x: (pw - wide) / 2.0,
                y: ph - MARGIN - 6.0,
                size,
                bold: false,
                text: number,
            });
            if n == 0 {
                continue;
            }
            let section = &self.sections[n];
            let head = if section.is_empty() {
                title.to_owned()
            } else {
                format!("{title} · {section}")
            };
            // The section gives way where the two will not fit at 6 pt.
            let head = if self.fonts.width(&head, 6.0, false) > right - left {
                title.to_owned()
            } else {
                head
            };
            let size_fit = fit(self.fonts, &head, right - left, size, 6.0, false);
            page.items.push(Item::Text {
                x: left,
                y: MARGIN + 7.0,
                size: size_fit,
                bold: false,
                text: head,
            });
            page.items.push(Item::Line {
                x1: left,
                y1: MARGIN + 8.5,
                x2: right,
                y2: MARGIN + 8.5,
                width: 0.2,
            });
        }
        self.pages
    }
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
