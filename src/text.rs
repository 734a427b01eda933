//! What a player types: names, notes and queries as Unicode text.
//!
//! Names are stored NFC-normalised and compared case-folded, so an “é”
//! typed precomposed or as “e” plus a combining accent, in either case, is
//! one name, not two. Lengths are counted in what a person sees as one
//! character (a grapheme cluster), never in bytes, and text is shortened
//! only at grapheme boundaries. Control characters are refused in names;
//! notes keep their line breaks and tabs and nothing else of the kind.
//!
//! Pure: no I/O. Every layer that takes text from a player comes here.

use unicode_normalization::UnicodeNormalization as _;
use unicode_segmentation::UnicodeSegmentation as _;

/// The longest name, in characters as a person counts them.
pub const MAX_NAME: usize = 80;

/// The longest note or reason, in characters as a person counts them.
pub const MAX_NOTES: usize = 10_000;

/// How much of a rejected text an error message repeats.
const ECHO: usize = 40;

/// Why a name or a note was refused. The text is what the player reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    #[error("{what} needs a name")]
    EmptyName { what: &'static str },
    #[error("the name is too long ({len} characters; at most {max})")]
    NameTooLong { len: usize, max: usize },
    #[error(
        "the name contains a control character ({code}, character {at}); names are one line of text"
    )]
    ControlCharacter { code: String, at: usize },
    #[error(
        "the name holds {code} (character {at}), which is no character of any script; names are text a person can read"
    )]
    NotACharacter { code: String, at: usize },
    #[error(
        "the name holds {code} (character {at}), an invisible format character that could hide a difference between two names"
    )]
    FormatCharacter { code: String, at: usize },
    #[error(
        "the name shows nothing: it holds only spaces, invisible, combining, private-use or placeholder characters"
    )]
    Invisible,
    #[error("the {what} is one line: it holds a line break (character {at})")]
    LineBreak { what: &'static str, at: usize },
    #[error("the {what} is too long ({len} characters; at most {max})")]
    TooLong {
        what: &'static str,
        len: usize,
        max: usize,
    },
}

/// A name as it is stored: trimmed, NFC-normalised, one line without
/// control characters, at most [`MAX_NAME`] characters. `what` says whose
/// name it is (“A gang”) for the error.
pub fn name(what: &'static str, raw: &str) -> Result<String, TextError> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err(TextError::EmptyName { what });
    }
    // A name of megabytes is refused before it is counted or normalised.
    if trimmed.len() > MAX_NAME * 64 {
        return Err(TextError::NameTooLong {
            len: trimmed.chars().count(),
            max: MAX_NAME,
        });
    }
    if let Some((at, c)) = trimmed.chars().enumerate().find(|(_, c)| shown_escaped(*c)) {
        return Err(TextError::ControlCharacter {
            code: code_point(c),
            at: at + 1,
        });
    }
    if let Some((at, c)) = trimmed
        .chars()
        .enumerate()
        .find(|(_, c)| noncharacter(*c))
        .or_else(|| stray_tag(trimmed))
    {
        return Err(TextError::NotACharacter {
            code: code_point(c),
            at: at + 1,
        });
    }
    if let Some((at, c)) = trimmed
        .chars()
        .enumerate()
        .find(|(_, c)| format_character(*c))
    {
        return Err(TextError::FormatCharacter {
            code: code_point(c),
            at: at + 1,
        });
    }
    if trimmed.chars().all(|c| invisible(c) || placeholder(c)) {
        return Err(TextError::Invisible);
    }
    let normal: String = trimmed.nfc().collect();
    let len = graphemes(&normal);
    if len > MAX_NAME {
        return Err(TextError::NameTooLong { len, max: MAX_NAME });
    }
    Ok(normal)
}

/// A format character (Unicode's general category Cf: U+1D173, U+1BCA0,
/// a soft hyphen…), which shows nothing of its own and could hide a
/// difference between two names; but for the joiners emoji and some
/// scripts need (U+200C, U+200D) and the tags of an emoji flag (checked
/// as a sequence, [`stray_tag`]).
fn format_character(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    get_general_category(c) == GeneralCategory::Format
        && !matches!(c, '\u{200C}' | '\u{200D}' | '\u{E0020}'..='\u{E007F}')
}

/// A character that stands for one no font shows: a private-use
/// character (each font's own) or the object and replacement characters
/// (U+FFFC, U+FFFD). In a name beside letters it is kept; alone it shows
/// nothing a person can read.
fn placeholder(c: char) -> bool {
    matches!(
        c,
        '\u{E000}'..='\u{F8FF}'
            | '\u{F0000}'..='\u{FFFFD}'
            | '\u{100000}'..='\u{10FFFD}'
            | '\u{FFFC}'
            | '\u{FFFD}'
    )
}

/// A reason for the log (a resource's, a counter's, a fighter's status):
/// text as [`notes`] are, on one line, as every line of the log is, so
/// no reason can forge a line of its own.
pub fn reason(what: &'static str, raw: &str) -> Result<String, TextError> {
    let stored = notes(what, raw)?;
    if let Some(at) = stored.chars().position(is_line_break) {
        return Err(TextError::LineBreak { what, at: at + 1 });
    }
    Ok(stored)
}

/// A character that starts a new line where text is shown.
pub fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// A name as it looks to the eye: its confusable skeleton (Unicode's
/// UTS #39, from `unicode-security`), taken again of its lower case, with
/// every run of white space one space. Two names with the same look read
/// alike though their characters differ: a Cyrillic а for a Latin a,
/// fullwidth or mathematical bold letters, a Greek capital Nu for an N,
/// a double space.
pub fn look(name: &str) -> String {
    use unicode_security::confusable_detection::skeleton;
    let first: String = skeleton(name.trim()).collect();
    let again: String = skeleton(&first.to_lowercase()).collect();
    again.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether two names look alike ([`look`]).
pub fn look_alike(a: &str, b: &str) -> bool {
    look(a) == look(b)
}

/// A word a pack gives the app to print (`[words]`, a noun, a heading): a
/// name as a player's are, so one line a person can read, at most a
/// name's length. `Ok` is the word as it is printed.
pub fn word(raw: &str) -> Result<String, TextError> {
    name("A word", raw)
}

/// A noncharacter: U+FDD0 to U+FDEF and the last two code points of every
/// plane (U+FFFE, U+FFFF, U+1FFFE…), which Unicode keeps out of text.
fn noncharacter(c: char) -> bool {
    let n = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&n) || n & 0xFFFE == 0xFFFE
}

/// A tag character (U+E0000 to U+E007F) outside an emoji tag sequence (a
/// black flag, tags, then the cancel tag: 🏴 of England), where it shows
/// nothing: its position (0-based) and the character.
fn stray_tag(text: &str) -> Option<(usize, char)> {
    let tag = |c: char| ('\u{E0000}'..='\u{E007F}').contains(&c);
    let mut at = 0;
    for cluster in text.graphemes(true) {
        let mut chars = cluster.chars();
        let sequence = chars.next() == Some('\u{1F3F4}')
            && cluster.ends_with('\u{E007F}')
            && chars.all(|c| tag(c) && c != '\u{E0000}' && c != '\u{E0001}');
        if !sequence && let Some((i, c)) = cluster.chars().enumerate().find(|(_, c)| tag(*c)) {
            return Some((at + i, c));
        }
        at += cluster.chars().count();
    }
    None
}

/// A character that shows nothing by itself: white space, a combining
/// mark (which shows only on a letter before it), and the default
/// ignorable code points (fillers such as U+3164, variation selectors,
/// joiners, tags), and the blank braille pattern.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || unicode_normalization::char::is_combining_mark(c)
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'..='\u{1160}'
                | '\u{17B4}'..='\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFF8}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// Free text as it is stored (notes, reasons): NFC-normalised, line breaks
/// as `\n`, at most [`MAX_NOTES`] characters. Other control characters
/// are kept as typed; every output shows them escaped ([`visible`]).
/// `what` names the field for the error.
pub fn notes(what: &'static str, raw: &str) -> Result<String, TextError> {
    if raw.len() > MAX_NOTES * 64 {
        return Err(TextError::TooLong {
            what,
            len: raw.chars().count(),
            max: MAX_NOTES,
        });
    }
    let unified = raw.replace("\r\n", "\n").replace('\r', "\n");
    let normal: String = unified.nfc().collect();
    let len = graphemes(&normal);
    if len > MAX_NOTES {
        return Err(TextError::TooLong {
            what,
            len,
            max: MAX_NOTES,
        });
    }
    Ok(normal)
}

/// Whether two names are the same name: trimmed, NFC and case-folded
/// (“Brûlé” typed either way, “STRASSE” and “straße”).
/// The text with its first character in upper case ("skirmish" →
/// "Skirmish"), by characters, never bytes.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    // Plain ASCII on both sides (most names): no normalising needed.
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    let nfc = |s: &str| s.trim().nfc().collect::<String>();
    unicase::UniCase::unicode(nfc(a)) == unicase::UniCase::unicode(nfc(b))
}

/// A form to search names in: trimmed, lower-cased, NFC.
pub fn key(text: &str) -> String {
    let normal: String = text.trim().nfc().collect();
    normal.to_lowercase().nfc().collect()
}

/// A name as a key to look names up by: two names are [`same`] exactly
/// when their keys are equal (and hash alike).
pub fn name_key(name: &str) -> unicase::UniCase<String> {
    unicase::UniCase::unicode(name.trim().nfc().collect())
}

/// Whether `text` contains `part`, compared as names are.
pub fn contains(text: &str, part: &str) -> bool {
    key(text).contains(&key(part))
}

/// The number of characters a person sees.
pub fn graphemes(text: &str) -> usize {
    text.graphemes(true).count()
}

/// The first `max` characters a person sees, with “…” when cut: how an
/// error repeats what was typed, and where a label must stay short.
pub fn clip(text: &str, max: usize) -> String {
    let mut parts = text.graphemes(true);
    let mut out: String = parts.by_ref().take(max).collect();
    if parts.next().is_some() {
        out.push('…');
    }
    out
}

/// How many items of a list a message names before it says how many
/// more there are.
pub const LISTED: usize = 10;

/// Items joined by `sep` as a message names them: the first [`LISTED`],
/// then how many more (`A, B, … and 9990 more`), so that a message stays
/// one short line however long the list.
pub fn listed<S: AsRef<str>>(items: &[S], sep: &str) -> String {
    let shown: Vec<&str> = items.iter().take(LISTED).map(AsRef::as_ref).collect();
    let mut out = shown.join(sep);
    if items.len() > LISTED {
        out.push_str(&format!("{sep}… and {} more", items.len() - LISTED));
    }
    out
}

/// A list already joined by `sep` (a group's line of its members), cut
/// as [`listed`] cuts one.
pub fn cut_list(text: &str, sep: &str) -> String {
    let items: Vec<&str> = text.split(sep).collect();
    if items.len() <= LISTED {
        return text.to_owned();
    }
    listed(&items, sep)
}

/// Text from a player as an error message repeats it: short, and with any
/// control character shown as its code point.
pub fn echo(text: &str) -> String {
    visible(&clip(text, ECHO)).into_owned()
}

/// Control characters shown as code points (`\u{1b}`, `\u{202e}`) rather
/// than sent on raw, where they could drive a terminal, reorder the text
/// around them or vanish: text made safe to print. Line breaks and tabs
/// are kept, and a Windows line end counts as one line break. Every output
/// (Markdown, HTML, PDF, the terminal) shows text through this.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| c != '\n' && c != '\t' && shown_escaped(c);
    if !text.contains(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.replace("\r\n", "\n").chars() {
        if hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A file's path as every message shows it: on one line, with any control
/// character (a newline in a file name, an escape) shown as its code
/// point, like every other text from a player.
pub fn path(path: &std::path::Path) -> String {
    one_line(&path.display().to_string())
}

/// Text shown on one line: [`visible`], with a line break or a tab it
/// holds shown as its code point too (a file name, a server's host).
pub fn one_line(text: &str) -> String {
    visible(text)
        .replace('\n', "\\u{a}")
        .replace('\t', "\\u{9}")
}

/// A character no output shows as itself, and no name may hold: the C0
/// and C1 controls, the line and paragraph separators, the bidirectional
/// controls (embeddings, overrides, isolates and the direction marks,
/// which would reorder the text around them), and the invisible format
/// characters that could hide a difference between two names (zero-width
/// space, word joiner, byte order mark…). The joiners emoji and some
/// scripts need (U+200C, U+200D) are kept.
pub fn shown_escaped(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{061C}'
                | '\u{200B}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn precomposed_and_decomposed_names_are_one_name() {
        let precomposed = "Br\u{fb}l\u{e9}";
        let decomposed = "Bru\u{302}le\u{301}";
        assert_ne!(precomposed, decomposed);
        assert!(same(precomposed, decomposed));
        assert_eq!(name("A gang", decomposed), Ok(precomposed.to_owned()));
        assert!(same("BRÛLÉ", decomposed));
    }

    #[test]
    fn names_compare_case_folded_beyond_ascii() {
        assert!(same("Ωμέγα", "ΩΜΈΓΑ"));
        assert!(same("  Ash Dogs ", "ash dogs"));
        assert!(same("STRASSE", "straße"));
        assert!(!same("Ash Dogs", "Ash Dog"));
    }

    #[test]
    fn a_control_character_in_a_name_is_refused_by_position() {
        let err = name("A fighter", "Bob\u{1b}[2J").unwrap_err();
        assert_eq!(
            err,
            TextError::ControlCharacter {
                code: "U+001B".into(),
                at: 4
            }
        );
        assert!(name("A fighter", "two\nlines").is_err());
        assert!(name("A fighter", "evil\u{202e}reversed").is_err());
        assert!(name("A fighter", "mark\u{200f}ed").is_err());
    }

    #[test]
    fn a_name_that_shows_nothing_is_refused() {
        for invisible in [
            "\u{3164}",
            "\u{301}\u{308}",
            " \u{115f} \u{2800}",
            "\u{FE0F}",
            "\u{E0041}\u{E0042}",
        ] {
            assert!(name("A gang", invisible).is_err(), "{invisible:?}");
        }
        // A name with a letter under its marks is a name.
        assert!(name("A gang", "e\u{301}\u{308}").is_ok());
    }

    #[test]
    fn a_format_character_is_refused_and_a_placeholder_alone_shows_nothing() {
        for (name, code) in [
            ("Ash\u{1D173}Dogs", "U+1D173"),
            ("Ash\u{1BCA0}Dogs", "U+1BCA0"),
            ("Ash\u{AD}Dogs", "U+00AD"),
        ] {
            assert_eq!(
                name_err(name),
                TextError::FormatCharacter {
                    code: code.into(),
                    at: 4
                }
            );
        }
        for alone in ["\u{E000}", "\u{FFFC}", " \u{FFFD} ", "\u{F0000}\u{E000}"] {
            assert_eq!(name_err(alone), TextError::Invisible, "{alone:?}");
        }
        // Beside letters a private-use character is kept, and the joiners
        // emoji need are no format character to refuse.
        assert!(name("A gang", "Ash \u{E000}").is_ok());
        assert!(name("A gang", "👨\u{200d}👩\u{200d}👧 Kin").is_ok());
    }

    fn name_err(raw: &str) -> TextError {
        name("A gang", raw).unwrap_err()
    }

    #[test]
    fn names_that_look_alike_share_a_look() {
        let jackals = "Neon Jackals";
        for lookalike in [
            "Ne\u{43E}n Jackals",                           // a Cyrillic о
            "\u{FF2E}\u{FF45}\u{FF4F}\u{FF4E} Jackals",     // fullwidth
            "\u{39D}eon Jackals",                           // a Greek capital Nu
            "\u{1D40D}\u{1D41E}\u{1D428}\u{1D427} Jackals", // mathematical bold
            "Neon  Jackals",                                // a double space
            "neon jаckals",                                 // a Cyrillic а, lower case
        ] {
            assert!(
                look_alike(jackals, lookalike),
                "{lookalike:?}: {}",
                look(lookalike)
            );
        }
        assert!(!look_alike(jackals, "Neon Jackdaws"));
        assert!(!look_alike("Ash Dogs", "Ash Cats"));
    }

    #[test]
    fn a_reason_is_one_line() {
        assert_eq!(reason("reason", "a crate"), Ok("a crate".to_owned()));
        assert_eq!(
            reason(
                "reason",
                "x\n#99 2026-01-01 12:00 Neon Jackals Supply +1000000"
            ),
            Err(TextError::LineBreak {
                what: "reason",
                at: 2
            })
        );
        assert!(reason("reason", "x\u{2028}y").is_err());
    }

    #[test]
    fn noncharacters_and_stray_tags_are_refused_by_position() {
        assert_eq!(
            name("A gang", "Ash\u{FFFF}"),
            Err(TextError::NotACharacter {
                code: "U+FFFF".into(),
                at: 4
            })
        );
        assert!(name("A gang", "x\u{FDD0}").is_err());
        assert!(name("A gang", "x\u{10FFFE}").is_err());
        assert_eq!(
            name("A gang", "Ash Dogs\u{E0041}"),
            Err(TextError::NotACharacter {
                code: "U+E0041".into(),
                at: 9
            })
        );
        // England's flag is a black flag, tags and a cancel tag: a name.
        let england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
        assert!(name("A gang", &format!("Lions {england}")).is_ok());
    }

    #[test]
    fn a_huge_name_is_refused_without_being_repeated() {
        let huge = "x".repeat(10_000_000);
        let err = name("A gang", &huge).unwrap_err();
        assert!(err.to_string().len() < 100, "{err}");
    }

    #[test]
    fn name_length_counts_what_a_person_sees() {
        // 80 family emoji are 80 characters to a person, 560 code points.
        let family = "👨\u{200d}👩\u{200d}👧".repeat(MAX_NAME);
        assert!(name("A gang", &family).is_ok());
        let err = name("A gang", &format!("{family}x")).unwrap_err();
        assert!(matches!(err, TextError::NameTooLong { len: 81, .. }));
    }

    #[test]
    fn notes_keep_line_breaks_and_are_normalised() {
        assert_eq!(notes("notes", "a\r\nb\rc\td"), Ok("a\nb\nc\td".to_owned()));
        assert_eq!(notes("notes", "e\u{301}"), Ok("\u{e9}".to_owned()));
        let long = "x".repeat(MAX_NOTES + 1);
        assert!(matches!(
            notes("notes", &long),
            Err(TextError::TooLong { .. })
        ));
    }

    #[test]
    fn a_list_in_a_message_names_ten_and_says_how_many_more() {
        let names: Vec<String> = (1..=10_000).map(|n| format!("Rat {n}")).collect();
        let line = listed(&names, ", ");
        assert!(line.starts_with("Rat 1, Rat 2,"), "{line}");
        assert!(line.ends_with("Rat 10, … and 9990 more"), "{line}");
        assert_eq!(listed(&names[..3], ", "), "Rat 1, Rat 2, Rat 3");
        let joined = format!("Marsh Rats (Henchmen): {}", names.join(", "));
        assert!(cut_list(&joined, ", ").len() < 200);
        assert_eq!(cut_list("a, b", ", "), "a, b");
    }

    #[test]
    fn clip_cuts_between_graphemes() {
        assert_eq!(clip("Brûlé", 3), "Brû…");
        assert_eq!(clip("e\u{301}e\u{301}", 1), "e\u{301}…");
        assert_eq!(clip("山田", 5), "山田");
    }

    #[test]
    fn visible_shows_escape_as_a_code_point() {
        assert_eq!(visible("a\u{1b}[31mb\nc"), "a\\u{1b}[31mb\nc");
    }

    proptest! {
        #[test]
        fn any_text_is_a_name_or_a_clear_refusal(raw in any::<String>()) {
            if let Ok(stored) = name("A gang", &raw) {
                prop_assert!(same(&stored, &raw));
                prop_assert!(graphemes(&stored) <= MAX_NAME);
                prop_assert!(!stored.chars().any(char::is_control));
                prop_assert_eq!(name("A gang", &stored), Ok(stored.clone()));
            }
            let _ = notes("notes", &raw);
            prop_assert!(graphemes(&clip(&raw, 5)) <= 6);
            prop_assert!(!echo(&raw).chars().any(|c| c.is_control() && c != '\n' && c != '\t'));
        }
    }
}
