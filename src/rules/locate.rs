//! Where in a pack file's text a problem is: the line and column of a
//! reading error's position, or of the entry a check names
//! (`tables.lasting-wounds` → the `[[tables]]` element with that `id`,
//! `words.gang` → the `gang` key under `[words]`).
//!
//! Pure: takes the text, returns positions.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A place in a text: its line and column, both from 1, the column in
/// characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// The line and column of a byte offset (one past the end: the end).
pub fn at_offset(text: &str, offset: usize) -> Position {
    let bytes = text.as_bytes();
    let upto = bytes.get(..offset).unwrap_or(bytes);
    let line_start = upto.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = String::from_utf8_lossy(upto.get(line_start..).unwrap_or_default())
        .chars()
        .count()
        + 1;
    Position { line, column }
}

/// Where a refused pack's problem is: for a reading error (its entry
/// `line N`), where the TOML reader stopped; for a check's entry, where
/// that entry is written, or the nearest item around it that is (the
/// start of the file when none is).
pub fn position(text: &str, entry: &str) -> Position {
    if let Some(line) = entry
        .strip_prefix("line ")
        .and_then(|n| n.parse::<usize>().ok())
    {
        return match reading_error(text) {
            Some(offset) => at_offset(text, offset),
            None => Position { line, column: 1 },
        };
    }
    match DeTable::parse(text) {
        Ok(root) => at_offset(text, find(&root, entry)),
        Err(err) => err.span().map_or(Position { line: 1, column: 1 }, |s| {
            at_offset(text, s.start)
        }),
    }
}

/// The byte offset the TOML reader refuses the pack at, if it does.
fn reading_error(text: &str) -> Option<usize> {
    toml::from_str::<super::Pack>(text)
        .err()
        .and_then(|e| e.span())
        .map(|s| s.start)
}

/// The entry a reading error is in, where the TOML reader stopped
/// (`stats.wile.default` for a wrong type, `quirks.slasher` for a field
/// left out): `None` where the text is not TOML, or fits the model.
pub fn reading_entry(text: &str) -> Option<String> {
    let offset = reading_error(text)?;
    let root = DeTable::parse(text).ok()?;
    let mut found = None;
    entries_at(root.get_ref(), offset, "", &mut found);
    found
}

/// Whether a span holds the offset (an empty span: starts at it).
fn holds(span: &std::ops::Range<usize>, offset: usize) -> bool {
    span.start == offset || span.contains(&offset)
}

/// The innermost entry of the table around `offset`, by the path the
/// checks name entries with.
fn entries_at(table: &DeTable<'_>, offset: usize, prefix: &str, found: &mut Option<String>) {
    for (key, value) in table {
        let name = key.get_ref().as_ref();
        let path = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        };
        if holds(&key.span(), offset) || holds(&value.span(), offset) {
            *found = Some(path.clone());
        }
        match value.get_ref() {
            DeValue::Table(t) => entries_at(t, offset, &path, found),
            DeValue::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let item_path = match (name, text_of(item, "on"), text_of(item, "id")) {
                        ("rows", Some(on), _) if !prefix.is_empty() => {
                            format!("{prefix} row `{on}`")
                        }
                        (_, _, Some(id)) => format!("{path}.{id}"),
                        _ => format!("{path}[{i}]"),
                    };
                    if holds(&item.span(), offset) {
                        *found = Some(item_path.clone());
                    }
                    if let DeValue::Table(t) = item.get_ref() {
                        entries_at(t, offset, &item_path, found);
                    }
                }
            }
            _ => {}
        }
    }
}

/// One step of an entry's path.
#[derive(Debug, PartialEq, Eq)]
enum Step<'a> {
    /// A key of a table, or the element of an array whose `id` it is.
    Key(&'a str),
    /// An element of an array by its place, from 0 (`during[1]`).
    Index(usize),
    /// The row of a table (its `rows`) whose `on` it is (`row `2-5``).
    Row(&'a str),
    /// An element of an array of text, or one whose `id` it is
    /// (`pack.remove `quirks.x``).
    Item(&'a str),
}

/// An entry's path as steps: `tables.injury row `1-2``,
/// `record.during[0]`, `quirks.slasher.effects[1].add`.
fn steps<'a>(entry: &'a str) -> Vec<Step<'a>> {
    let (path, tail) = match entry.split_once(' ') {
        Some((path, tail)) => (path, Some(tail.trim())),
        None => (entry, None),
    };
    let mut out = Vec::new();
    for segment in path.split('.') {
        let (key, mut rest) = match segment.find('[') {
            Some(i) => segment.split_at(i),
            None => (segment, ""),
        };
        if !key.is_empty() {
            out.push(Step::Key(key));
        }
        while let Some(inner) = rest.strip_prefix('[') {
            let Some((n, after)) = inner.split_once(']') else {
                break;
            };
            match n.parse() {
                Ok(n) => out.push(Step::Index(n)),
                Err(_) => break,
            }
            rest = after;
        }
    }
    if let Some(tail) = tail {
        let quoted = |t: &'a str| t.strip_prefix('`').and_then(|t| t.strip_suffix('`'));
        if let Some(on) = tail.strip_prefix("row ").and_then(quoted) {
            out.push(Step::Row(on));
        } else if let Some(item) = quoted(tail) {
            out.push(Step::Item(item));
        }
    }
    out
}

/// The value of a table's key, with where the key is written.
fn key<'t, 'i>(table: &'t DeTable<'i>, name: &str) -> Option<(usize, &'t Spanned<DeValue<'i>>)> {
    table
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == name)
        .map(|(k, v)| (k.span().start, v))
}

/// A text value of a table's key.
fn text_of<'t>(value: &'t Spanned<DeValue<'_>>, name: &str) -> Option<&'t str> {
    match value.get_ref() {
        DeValue::Table(t) => match key(t, name)?.1.get_ref() {
            DeValue::String(s) => Some(s.as_ref()),
            _ => None,
        },
        _ => None,
    }
}

/// The element of an array with `field` equal to `wanted`.
fn element<'t, 'i>(
    items: &'t [Spanned<DeValue<'i>>],
    field: &str,
    wanted: &str,
) -> Option<&'t Spanned<DeValue<'i>>> {
    items
        .iter()
        .find(|item| text_of(item, field) == Some(wanted))
}

/// The byte offset of the entry, or of the nearest item around it.
fn find(root: &Spanned<DeTable<'_>>, entry: &str) -> usize {
    let mut at = 0;
    let mut here: Option<&Spanned<DeValue<'_>>> = None;
    for step in steps(entry) {
        let found = match (here.map(Spanned::get_ref), &step) {
            (None, Step::Key(name)) => key(root.get_ref(), name),
            (Some(DeValue::Table(t)), Step::Key(name)) => key(t, name),
            (Some(DeValue::Table(t)), Step::Row(on)) => match key(t, "rows") {
                Some((_, rows)) => match rows.get_ref() {
                    DeValue::Array(rows) => element(rows, "on", on).map(|r| (r.span().start, r)),
                    _ => None,
                },
                None => None,
            },
            (Some(DeValue::Array(items)), Step::Key(id)) => {
                element(items, "id", id).map(|e| (e.span().start, e))
            }
            (Some(DeValue::Array(items)), Step::Index(i)) => {
                items.get(*i).map(|e| (e.span().start, e))
            }
            (Some(DeValue::Array(items)), Step::Item(wanted)) => items
                .iter()
                .find(|e| match e.get_ref() {
                    DeValue::String(s) => s.as_ref() == *wanted,
                    _ => text_of(e, "id") == Some(wanted),
                })
                .map(|e| (e.span().start, e)),
            _ => None,
        };
        let Some((offset, value)) = found else {
            break;
        };
        at = offset;
        here = Some(value);
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "#:schema ./pack.schema.json\n[pack]\nid = \"made-up\"\nremove = [\"a.b\", \"c.d\"]\n\n[words]\ngang = \"band\"\n\n[[tables]]\nid = \"first\"\nrows = []\n\n[[tables]]\nid = \"second\"\nrows = [\n  { on = \"1\", result = \"x\" },\n  { on = \"2-6\", result = \"y\", effects = [{ kind = \"note\" }, { kind = \"advance\" }] },\n]\n";

    fn at(entry: &str) -> (usize, usize) {
        let p = position(TEXT, entry);
        (p.line, p.column)
    }

    #[test]
    fn an_entry_is_found_where_it_is_written() {
        assert_eq!(at("words.gang"), (7, 1));
        assert_eq!(at("pack.id"), (3, 1));
        assert_eq!(at("tables.first"), (9, 1));
        assert_eq!(at("tables.second"), (13, 1));
        assert_eq!(at("tables.second row `2-6`"), (17, 3));
        assert_eq!(at("tables.second.rows[1].effects[1]"), (17, 61));
        assert_eq!(at("pack.remove `c.d`"), (4, 18));
    }

    #[test]
    fn an_entry_not_written_falls_back_to_the_nearest_item_around_it() {
        assert_eq!(at("words.fighter"), (6, 2));
        assert_eq!(at("tables.third"), (9, 3));
        assert_eq!(at("tables.second row `7`"), (13, 1));
        assert_eq!(at("quirks.x"), (1, 1));
    }

    #[test]
    fn steps_read_every_form_of_entry() {
        assert_eq!(
            steps("record.during[0]"),
            [Step::Key("record"), Step::Key("during"), Step::Index(0)]
        );
        assert_eq!(
            steps("tables.injury row `1-2`"),
            [Step::Key("tables"), Step::Key("injury"), Step::Row("1-2")]
        );
    }

    #[test]
    fn a_column_counts_characters() {
        assert_eq!(at_offset("é = 1\nab", 8), Position { line: 2, column: 2 });
        assert_eq!(at_offset("", 0), Position { line: 1, column: 1 });
    }
}
