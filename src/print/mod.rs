//! Printing: fighter cards and gang roster sheets as PDF, made by the app
//! itself (printpdf, fonts embedded as subsets).
//!
//! The layout (`layout`) is pure geometry over view models built by the
//! session; the PDF writer (`pdf`) and the app's preview draw the same
//! items. No campaign logic and no SQL here.

mod fonts;
pub mod layout;
mod pdf;

use serde::Serialize;

pub use fonts::Fonts;
pub use layout::{CardSize, CardStyle, Item, PageLayout, PageSize};

/// Why a PDF could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    #[error("font: {0}")]
    Font(String),
    /// Never dropped silently: the player is told whose text and which
    /// character.
    #[error("the fonts cannot draw {}", describe_missing(.0))]
    MissingGlyphs(Vec<MissingGlyph>),
    #[error("photo of {fighter}: {reason}")]
    Photo { fighter: String, reason: String },
    #[error("nothing to print")]
    Nothing,
}

/// A character the fonts lack, and whose text holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MissingGlyph {
    pub fighter: String,
    pub character: char,
}

fn describe_missing(missing: &[MissingGlyph]) -> String {
    missing
        .iter()
        .map(|m| {
            format!(
                "“{}” (U+{:04X}) in {}",
                m.character, m.character as u32, m.fighter
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A stat cell on a card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatCell {
    pub label: String,
    /// The derived value as shown (`4"`, `2d8`).
    pub value: String,
    /// The base value, when quirks or lasting effects changed it.
    pub base: Option<String>,
}

/// Everything a fighter's card shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardData {
    pub name: String,
    pub gang: String,
    pub leader: bool,
    /// Counters in the header: (label, value) — Bounty.
    pub counters: Vec<(String, String)>,
    pub stats: Vec<StatCell>,
    /// One line per quirk: `Sledgehammer (Pulverizer): P7, Crush`.
    pub quirks: Vec<String>,
    /// One line per lasting effect.
    pub lasting: Vec<String>,
    /// PNG or JPEG bytes.
    #[serde(skip)]
    pub photo: Option<Vec<u8>>,
    pub quirks_heading: String,
    pub lasting_heading: String,
    /// A blank card to fill in by hand, with this card's labels.
    #[serde(default)]
    pub blank: bool,
}

/// One fighter's lines on a roster sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RosterFighter {
    /// Name, stats and counters on one line.
    pub headline: String,
    /// Quirks, lasting effects, status.
    pub lines: Vec<String>,
}

/// A gang's roster sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RosterData {
    pub gang: String,
    pub ruleset: String,
    pub resources: String,
    pub titles: String,
    pub fighters: Vec<RosterFighter>,
}

/// Checks every text for characters the fonts cannot draw.
fn check_glyphs<'a>(
    fonts: &Fonts,
    texts: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<(), PrintError> {
    let mut missing: Vec<MissingGlyph> = Vec::new();
    for (who, text) in texts {
        for c in text.chars() {
            if !fonts.can_draw(c) && !missing.iter().any(|m| m.character == c && m.fighter == who) {
                missing.push(MissingGlyph {
                    fighter: who.to_owned(),
                    character: c,
                });
            }
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(PrintError::MissingGlyphs(missing))
    }
}

fn card_texts(card: &CardData) -> impl Iterator<Item = (&str, &str)> {
    let who = card.name.as_str();
    std::iter::once(card.name.as_str())
        .chain(std::iter::once(card.gang.as_str()))
        .chain(
            card.counters
                .iter()
                .flat_map(|(l, v)| [l.as_str(), v.as_str()]),
        )
        .chain(
            card.stats
                .iter()
                .flat_map(|s| [s.label.as_str(), s.value.as_str()]),
        )
        .chain(card.quirks.iter().map(String::as_str))
        .chain(card.lasting.iter().map(String::as_str))
        .map(move |t| (who, t))
}

/// The pages of a set of cards (for the PDF and the preview).
pub fn card_layout(
    cards: &[CardData],
    blanks: usize,
    page: PageSize,
    style: CardStyle,
) -> Result<Vec<PageLayout>, PrintError> {
    if cards.is_empty() && blanks == 0 {
        return Err(PrintError::Nothing);
    }
    let fonts = Fonts::load()?;
    check_glyphs(&fonts, cards.iter().flat_map(card_texts))?;
    Ok(layout::card_pages(&fonts, cards, blanks, page, style))
}

/// A PDF of fighter cards.
pub fn cards_pdf(
    cards: &[CardData],
    blanks: usize,
    page: PageSize,
    style: CardStyle,
) -> Result<Vec<u8>, PrintError> {
    let pages = card_layout(cards, blanks, page, style)?;
    pdf::write(&pages, cards, "Fighter cards")
}

/// The pages of a roster sheet.
pub fn roster_layout(data: &RosterData, page: PageSize) -> Result<Vec<PageLayout>, PrintError> {
    let fonts = Fonts::load()?;
    let texts = std::iter::once(data.gang.as_str())
        .chain([
            data.ruleset.as_str(),
            data.resources.as_str(),
            data.titles.as_str(),
        ])
        .map(|t| (data.gang.as_str(), t))
        .chain(data.fighters.iter().flat_map(|f| {
            std::iter::once(f.headline.as_str())
                .chain(f.lines.iter().map(String::as_str))
                .map(move |t| (f.headline.as_str(), t))
        }));
    check_glyphs(&fonts, texts)?;
    Ok(layout::roster_pages(&fonts, data, page))
}

/// A PDF of a gang's roster sheet.
pub fn roster_pdf(data: &RosterData, page: PageSize) -> Result<Vec<u8>, PrintError> {
    let pages = roster_layout(data, page)?;
    pdf::write(&pages, &[], &format!("{} — roster", data.gang))
}

/// A line of a plain document (a chronicle).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum DocLine {
    Heading(String),
    Subheading(String),
    Text(String),
    Bullet(String),
}

/// A plain document as PDF: a title and lines, wrapped, on as many A4
/// pages as it takes.
pub fn document_pdf(title: &str, lines: &[DocLine]) -> Result<Vec<u8>, PrintError> {
    let fonts = Fonts::load()?;
    let texts = std::iter::once(title).chain(lines.iter().map(|l| match l {
        DocLine::Heading(t) | DocLine::Subheading(t) | DocLine::Text(t) | DocLine::Bullet(t) => {
            t.as_str()
        }
    }));
    check_glyphs(&fonts, texts.map(|t| (title, t)))?;
    let pages = layout::document_pages(&fonts, title, lines, PageSize::A4);
    pdf::write(&pages, &[], title)
}
