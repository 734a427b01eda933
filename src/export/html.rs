//! The chronicle as one self-contained, printable HTML page. Built with
//! maud, which escapes every value it is given, so a name or a note is
//! always text and never markup. It must not build HTML by string pasting
//! or link to anything outside the page.

use maud::{DOCTYPE, Markup, PreEscaped, html as page};

use super::{Export, keep_indent, lines, title};
use crate::print::DocLine;

/// The page's own style sheet (the export reaches out for nothing).
const STYLE: &str = "\n\
body { font-family: \"DejaVu Sans\", sans-serif; max-width: 46em; margin: 2em auto; color: #111; line-height: 1.4; }\n\
h1 { border-bottom: 2px solid #111; } h2 { margin-top: 1.6em; } h3 { margin-bottom: 0.2em; }\n\
li { margin: 0.1em 0; }\n\
@media print { body { margin: 0; max-width: none; } h3 { break-after: avoid; } }\n";

/// The lines with the bullets that follow each other gathered into one list.
enum Block {
    Heading(String),
    Subheading(String),
    Text(String),
    /// Items, each its paragraphs.
    List(Vec<Vec<String>>),
}

fn blocks(lines: Vec<DocLine>) -> Vec<Block> {
    let mut out = Vec::new();
    for line in lines {
        match line {
            DocLine::Heading(t) => out.push(Block::Heading(t)),
            DocLine::Subheading(t) => out.push(Block::Subheading(t)),
            DocLine::Text(t) => out.push(Block::Text(t)),
            DocLine::Bullet(t) => match out.last_mut() {
                Some(Block::List(items)) => items.push(vec![t]),
                _ => out.push(Block::List(vec![vec![t]])),
            },
            DocLine::BulletMore(t) => match out.last_mut().and_then(|b| match b {
                Block::List(items) => items.last_mut(),
                _ => None,
            }) {
                Some(item) => item.push(t),
                None => out.push(Block::Text(t)),
            },
        }
    }
    out
}

/// Text whose line breaks stay line breaks.
fn text(t: &str) -> Markup {
    let t = crate::text::visible(t);
    page! {
        @for (i, line) in t.trim_matches('\n').split('\n').enumerate() {
            @if i > 0 { br; }
            (keep_indent(line))
        }
    }
}

pub fn html(export: &Export<'_>) -> String {
    html_of(&title(export), lines(export))
}

/// A document of a title and lines as one self-contained page.
pub fn html_of(title: &str, lines: Vec<DocLine>) -> String {
    let title = crate::text::visible(title).replace('\n', " ");
    let nl = PreEscaped("\n");
    page! {
        (DOCTYPE) (nl)
        html lang="en" {
            (nl)
            head {
                (nl) meta charset="utf-8"; (nl)
                title { (title) } (nl)
                style { (PreEscaped(STYLE)) } (nl)
            }
            (nl)
            body {
                (nl)
                h1 { (title) } (nl)
                @for block in blocks(lines) {
                    @match block {
                        Block::Heading(t) => { h2 { (text(&t)) } (nl) }
                        Block::Subheading(t) => { h3 { (text(&t)) } (nl) }
                        Block::Text(t) => { p { (text(&t)) } (nl) }
                        Block::List(items) => {
                            ul {
                                (nl)
                                @for item in &items {
                                    li {
                                        @for (i, para) in item.iter().enumerate() {
                                            @if i == 0 { (text(para)) } @else { br; (text(para)) }
                                        }
                                    }
                                    (nl)
                                }
                            }
                            (nl)
                        }
                    }
                }
            }
            (nl)
        }
        (nl)
    }
    .into_string()
}
