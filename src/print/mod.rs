//! Printing: fighter cards and gang roster sheets as PDF, made by the app
//! itself (printpdf, fonts embedded as subsets).
//!
//! The layout (`layout`) is pure geometry over view models built by the
//! session; the PDF writer (`pdf`) and the app's preview draw the same
//! items. Text in any script prints (`fonts`): a character no font draws
//! is printed as a placeholder and reported by the `*_warnings` functions,
//! naming whose text holds it — never an error. No campaign logic and no
//! SQL here.

pub mod card;
mod fonts;
pub mod layout;
mod pdf;
mod tidy;

use serde::Serialize;

pub use card::CardStyle;
pub use fonts::{Fonts, PLACEHOLDER, SystemFont, system_face_for};
pub use layout::{CardSize, Item, PageLayout, PageSize};

/// Why a PDF could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    #[error("font: {0}")]
    Font(String),
    #[error("photo of {fighter}: {reason}")]
    Photo { fighter: String, reason: String },
    #[error("nothing to print")]
    Nothing,
    /// The PDF's own structure could not be put together or written.
    #[error("the PDF could not be written: {0}")]
    Pdf(String),
    /// An entry too long for a card of this size even on a card of its
    /// own: `owner` is whose, `size` the size asked for, `larger` one
    /// to print on instead, where there is one.
    #[error("{owner}: an entry is too long for a {size} card even on a card of its own{}", larger.as_ref().map(|l| format!("; print on {l} cards")).unwrap_or_default())]
    TooLong {
        owner: String,
        size: String,
        larger: Option<String>,
    },
}

/// The characters no font draws in one owner's text. The document still
/// prints, with the placeholder in their place; the player is told once
/// for each owner, naming every such character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MissingGlyph {
    /// Whose text: `fighter “Kenji” of gang “Red Fangs”`, `gang “Red
    /// Fangs”`, a chronicle's section.
    pub owner: String,
    /// Each character as the reader sees one (a grapheme: a letter with
    /// its marks, an emoji with its joiners, modifiers or flag pair),
    /// once, in order.
    pub characters: Vec<String>,
}

impl std::fmt::Display for MissingGlyph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown: Vec<String> = self
            .characters
            .iter()
            .map(|g| {
                let code = g
                    .chars()
                    .map(|c| format!("U+{:04X}", c as u32))
                    .collect::<Vec<_>>()
                    .join(" ");
                if g.chars().any(char::is_control) {
                    format!("the control character {code}")
                } else {
                    format!("“{g}” ({code})")
                }
            })
            .collect();
        write!(
            f,
            "{}: no font draws {}; printed as {}",
            visible(&self.owner),
            crate::text::listed(&shown, ", "),
            fonts::PLACEHOLDER
        )?;
        if self.characters.iter().any(|g| fonts::is_emoji(g)) {
            write!(f, "; {}", fonts::EMOJI_FONT)?;
        }
        Ok(())
    }
}

/// Text safe to show on a terminal: control characters written as escapes.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Whose text: `fighter “Kenji” of gang “Red Fangs”`, in the game's
/// words for a fighter and a gang.
fn fighter_owner(name: &str, gang: &str, words: (&str, &str)) -> String {
    let (fighter, gang_word) = words;
    // A group's card is named with every member: a message names a few.
    let name = crate::text::cut_list(name, ", ");
    if gang.is_empty() {
        format!("{fighter} “{name}”")
    } else {
        format!("{fighter} “{name}” of {gang_word} “{gang}”")
    }
}

fn gang_owner(gang: &str, gang_word: &str) -> String {
    format!("{gang_word} “{gang}”")
}

/// Every character of `texts` no font draws, in one warning for each
/// owner.
fn missing_glyphs(fonts: &Fonts, texts: &[(String, &str)]) -> Vec<MissingGlyph> {
    let mut missing: Vec<MissingGlyph> = Vec::new();
    for (owner, text) in texts {
        for grapheme in fonts.missing(text) {
            let at = match missing.iter().position(|m| &m.owner == owner) {
                Some(at) => at,
                None => {
                    missing.push(MissingGlyph {
                        owner: owner.clone(),
                        characters: Vec::new(),
                    });
                    missing.len() - 1
                }
            };
            let characters = &mut missing[at].characters;
            if !characters.contains(&grapheme) {
                characters.push(grapheme);
            }
        }
    }
    missing
}

fn fonts_for(texts: &[(String, &str)]) -> Result<Fonts, PrintError> {
    Fonts::for_texts(texts.iter().map(|(_, t)| *t))
}

/// A stat cell on a card.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StatCell {
    pub label: String,
    /// The derived value as shown (`4"`, `2d8`).
    pub value: String,
    /// The base value, when quirks or lasting effects changed it.
    pub base: Option<String>,
    /// The bumps on its dice (`+2 -1`), printed small under the value.
    pub bumps: Option<String>,
}

/// The track a card gives the pack's track stat: a box for each point of
/// its full value, those for the damage the fighter has already taken
/// marked (000's Health ticked off: "Deduct from Health").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Track {
    /// The stat's label; where damage was taken, with what is left of its
    /// full value (`Health 7 of 10`), as the status strip says it.
    pub label: String,
    /// A box for each point of the stat's full value: its maximum.
    pub boxes: u32,
    /// How many of the boxes, from the first, are damage already taken
    /// (never more than `boxes`); the rest are left to tick in play.
    pub taken: u32,
}

/// Everything a fighter's card shows.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
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
    /// The fighter's notes, a line each, printed under the pack's notes
    /// heading after the lasting effects.
    #[serde(default)]
    pub notes: Vec<String>,
    /// PNG or JPEG bytes.
    #[serde(skip)]
    pub photo: Option<Vec<u8>>,
    pub quirks_heading: String,
    pub lasting_heading: String,
    /// Headings of the write-in boxes: notes, and the tick boxes.
    #[serde(default)]
    pub notes_heading: String,
    #[serde(default)]
    pub marks_heading: String,
    /// A blank card to fill in by hand, with this card's labels.
    /// Why the fighter cannot fight now (wounded, held), where that is so.
    pub status: Option<String>,
    /// The pack's track (003's Meat), where its stat's value is few
    /// enough points to tick.
    pub track: Option<Track>,
    /// The tokens the text puts on a card, each given a place.
    pub tokens: Vec<String>,
    /// The counters given a write-in box, by label.
    pub write_ins: Vec<String>,
    /// The label of a blank card's name line (`NAME`).
    pub name_label: String,
    /// The entries by category (heading, lines), where the pack prints
    /// them so (a unit record); empty, `quirks` under `quirks_heading`.
    pub groups: Vec<(String, Vec<String>)>,
    #[serde(default)]
    pub blank: bool,
    /// What the game calls a fighter and a gang, in lower case, for
    /// naming whose text a warning is about and the PDF's title.
    #[serde(default)]
    pub fighter_word: String,
    #[serde(default)]
    pub gang_word: String,
}

impl CardData {
    /// A blank card with this card's labels: its boxes, empty, for a
    /// fighter written in by hand.
    pub fn blank_like(&self) -> CardData {
        CardData {
            counters: self
                .counters
                .iter()
                .map(|(label, _)| (label.clone(), String::new()))
                .collect(),
            stats: self
                .stats
                .iter()
                .map(|s| StatCell {
                    label: s.label.clone(),
                    value: String::new(),
                    base: None,
                    bumps: None,
                })
                .collect(),
            quirks_heading: self.quirks_heading.clone(),
            lasting_heading: self.lasting_heading.clone(),
            notes_heading: self.notes_heading.clone(),
            marks_heading: self.marks_heading.clone(),
            tokens: self.tokens.clone(),
            write_ins: self.write_ins.clone(),
            name_label: self.name_label.clone(),
            fighter_word: self.fighter_word.clone(),
            gang_word: self.gang_word.clone(),
            blank: true,
            ..CardData::default()
        }
    }
}

/// One fighter's lines on a roster sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RosterFighter {
    pub name: String,
    /// Printed with the leader's mark.
    pub leader: bool,
    /// Stats and counters, beside the name.
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
    /// What the game calls a fighter and a gang, in lower case.
    pub fighter_word: String,
    pub gang_word: String,
}

/// Every text on the cards, with whose it is.
fn card_texts(cards: &[CardData]) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    for card in cards {
        let who = if card.blank {
            "a blank card".to_owned()
        } else {
            fighter_owner(
                &card.name,
                &card.gang,
                (&card.fighter_word, &card.gang_word),
            )
        };
        out.push((who.clone(), card.name.as_str()));
        out.push((gang_owner(&card.gang, &card.gang_word), card.gang.as_str()));
        let rest = card
            .counters
            .iter()
            .flat_map(|(l, v)| [l.as_str(), v.as_str()])
            .chain(
                card.stats
                    .iter()
                    .flat_map(|s| [s.label.as_str(), s.value.as_str()]),
            )
            .chain(card.stats.iter().filter_map(|s| s.base.as_deref()))
            .chain(card.quirks.iter().map(String::as_str))
            .chain(
                card.groups
                    .iter()
                    .flat_map(|(h, lines)| std::iter::once(h).chain(lines))
                    .map(String::as_str),
            )
            .chain(card.lasting.iter().map(String::as_str))
            .chain(card.notes.iter().map(String::as_str))
            .chain([
                card.quirks_heading.as_str(),
                card.lasting_heading.as_str(),
                card.notes_heading.as_str(),
                card.marks_heading.as_str(),
            ]);
        out.extend(rest.map(|t| (who.clone(), t)));
    }
    out
}

/// The characters on the cards no font draws (printed as the placeholder).
pub fn card_warnings(cards: &[CardData]) -> Result<Vec<MissingGlyph>, PrintError> {
    let texts = card_texts(cards);
    Ok(missing_glyphs(&fonts_for(&texts)?, &texts))
}

fn card_pages(
    cards: &[CardData],
    blanks: usize,
    page: PageSize,
    style: CardStyle,
) -> Result<(Fonts, Vec<PageLayout>), PrintError> {
    if cards.is_empty() && blanks == 0 {
        return Err(PrintError::Nothing);
    }
    let fonts = fonts_for(&card_texts(cards))?;
    let pages = card::card_pages(&fonts, cards, blanks, page, style).map_err(|too| {
        let card = cards.iter().find(|c| c.name == too.name && !too.blank);
        let owner = match card {
            Some(c) => fighter_owner(&c.name, &c.gang, (&c.fighter_word, &c.gang_word)),
            None => "a blank card".to_owned(),
        };
        let named = |size: CardSize| {
            CardSize::ALL
                .iter()
                .find(|(s, _)| *s == size)
                .map(|(_, n)| (*n).to_owned())
        };
        let larger = CardSize::ALL
            .iter()
            .skip_while(|(s, _)| *s != style.size)
            .nth(1)
            .map(|(_, n)| (*n).to_owned());
        PrintError::TooLong {
            owner: visible(&owner),
            size: named(style.size).unwrap_or_default(),
            larger,
        }
    })?;
    Ok((fonts, pages))
}

/// The pages of a set of cards (for the PDF and the preview).
pub fn card_layout(
    cards: &[CardData],
    blanks: usize,
    page: PageSize,
    style: CardStyle,
) -> Result<Vec<PageLayout>, PrintError> {
    Ok(card_pages(cards, blanks, page, style)?.1)
}

/// A PDF of fighter cards.
pub fn cards_pdf(
    cards: &[CardData],
    blanks: usize,
    page: PageSize,
    style: CardStyle,
) -> Result<Vec<u8>, PrintError> {
    let (fonts, pages) = card_pages(cards, blanks, page, style)?;
    // The document's title, in the game's word: "Flyer cards".
    let fighter = cards
        .iter()
        .map(|c| c.fighter_word.as_str())
        .find(|w| !w.is_empty())
        .map_or_else(String::new, |w| format!("{} ", crate::text::capitalised(w)));
    pdf::write(
        &fonts,
        pages,
        cards,
        &crate::text::capitalised(&format!("{fighter}cards")),
    )
}

/// Every text on a roster sheet, with whose it is.
fn roster_texts(data: &RosterData) -> Vec<(String, &str)> {
    let gang = gang_owner(&data.gang, &data.gang_word);
    let mut out: Vec<(String, &str)> = [
        data.gang.as_str(),
        data.ruleset.as_str(),
        data.resources.as_str(),
        data.titles.as_str(),
    ]
    .into_iter()
    .map(|t| (gang.clone(), t))
    .collect();
    for f in &data.fighters {
        let who = fighter_owner(&f.name, &data.gang, (&data.fighter_word, &data.gang_word));
        out.push((who.clone(), f.name.as_str()));
        out.push((who.clone(), f.headline.as_str()));
        out.extend(f.lines.iter().map(|l| (who.clone(), l.as_str())));
    }
    out
}

/// The characters on a roster sheet no font draws.
pub fn roster_warnings(data: &RosterData) -> Result<Vec<MissingGlyph>, PrintError> {
    let texts = roster_texts(data);
    Ok(missing_glyphs(&fonts_for(&texts)?, &texts))
}

/// The pages of a roster sheet.
pub fn roster_layout(data: &RosterData, page: PageSize) -> Result<Vec<PageLayout>, PrintError> {
    let fonts = fonts_for(&roster_texts(data))?;
    Ok(layout::roster_pages(&fonts, data, page))
}

/// A PDF of a gang's roster sheet.
pub fn roster_pdf(data: &RosterData, page: PageSize) -> Result<Vec<u8>, PrintError> {
    let fonts = fonts_for(&roster_texts(data))?;
    let pages = layout::roster_pages(&fonts, data, page);
    pdf::write(&fonts, pages, &[], &format!("{} — roster", data.gang))
}

/// A line of a plain document (a chronicle).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum DocLine {
    Heading(String),
    Subheading(String),
    Text(String),
    Bullet(String),
    /// A paragraph of the bullet above it (an arc's next stage).
    BulletMore(String),
}

/// Every text of a document, with the section it is in (the nearest
/// heading and subheading: a battle's notes are named by their battle).
fn document_texts<'a>(title: &'a str, lines: &'a [DocLine]) -> Vec<(String, &'a str)> {
    let mut out = vec![(format!("“{title}”"), title)];
    let mut heading = "";
    let mut subheading = "";
    for line in lines {
        let text = match line {
            DocLine::Heading(t) => {
                heading = t;
                subheading = "";
                t
            }
            DocLine::Subheading(t) => {
                subheading = t;
                t
            }
            DocLine::Text(t) | DocLine::Bullet(t) | DocLine::BulletMore(t) => t,
        };
        let owner = [title, heading, subheading]
            .into_iter()
            .filter(|s| !s.is_empty())
            .map(|s| format!("“{s}”"))
            .collect::<Vec<_>>()
            .join(" › ");
        out.push((owner, text.as_str()));
    }
    out
}

/// The characters of a document no font draws.
pub fn document_warnings(title: &str, lines: &[DocLine]) -> Result<Vec<MissingGlyph>, PrintError> {
    let texts = document_texts(title, lines);
    Ok(missing_glyphs(&fonts_for(&texts)?, &texts))
}

/// A plain document as PDF: a title and lines, wrapped, on as many A4
/// pages as it takes.
pub fn document_pdf(title: &str, lines: Vec<DocLine>) -> Result<Vec<u8>, PrintError> {
    document_pdf_on(title, lines, PageSize::A4)
}

/// The same on pages of `page` size. The lines go once they are laid
/// out, before the PDF is written.
pub fn document_pdf_on(
    title: &str,
    lines: Vec<DocLine>,
    page: PageSize,
) -> Result<Vec<u8>, PrintError> {
    let fonts = fonts_for(&document_texts(title, &lines))?;
    let pages = layout::document_pages(&fonts, title, &lines, page);
    drop(lines);
    pdf::write(&fonts, pages, &[], title)
}
