//! The chronicle as CommonMark. The document is built as a tree and written
//! by comrak's CommonMark writer, so every piece of text — names, notes,
//! reasons — is escaped by a writer that knows where markup can begin, and
//! no user text can open a heading, a list, a code block, a quote, a link or
//! raw HTML. It must not write Markdown by string pasting.

use comrak::nodes::{AstNode, ListType, NodeHeading, NodeList, NodeValue};
use comrak::{Arena, Options, format_commonmark};

use super::{Export, keep_indent, lines, title};
use crate::print::DocLine;

pub fn markdown(export: &Export<'_>) -> String {
    markdown_of(&title(export), lines(export))
}

/// A document of a title and lines as CommonMark.
pub fn markdown_of(title: &str, lines: Vec<DocLine>) -> String {
    let arena = Arena::new();
    let doc = node(&arena, NodeValue::Document);
    doc.append(heading(&arena, 1, title));
    let mut list: Option<&AstNode<'_>> = None;
    for line in lines {
        match line {
            DocLine::Heading(t) => {
                list = None;
                doc.append(heading(&arena, 2, &t));
            }
            DocLine::Subheading(t) => {
                list = None;
                doc.append(heading(&arena, 3, &t));
            }
            DocLine::Text(t) => {
                list = None;
                let para = node(&arena, NodeValue::Paragraph);
                append_text(&arena, para, &t);
                doc.append(para);
            }
            // On a line of its own in the item above (a hard break: a
            // paragraph of its own would make the whole list loose).
            DocLine::BulletMore(t) => match list
                .and_then(|l| l.last_child())
                .and_then(|item| item.last_child())
            {
                Some(para) => {
                    para.append(node(&arena, NodeValue::LineBreak));
                    append_text(&arena, para, &t);
                }
                None => {
                    let para = node(&arena, NodeValue::Paragraph);
                    append_text(&arena, para, &t);
                    doc.append(para);
                }
            },
            DocLine::Bullet(t) => {
                let list = *list.get_or_insert_with(|| {
                    let l = node(&arena, NodeValue::List(bullets()));
                    doc.append(l);
                    l
                });
                let item = node(&arena, NodeValue::Item(bullets()));
                let para = node(&arena, NodeValue::Paragraph);
                append_text(&arena, para, &t);
                item.append(para);
                list.append(item);
            }
        }
    }
    let mut out = String::new();
    // Writing to a String cannot fail; the tree is well formed by
    // construction (blocks hold inlines, lists hold items).
    if format_commonmark(doc, &Options::default(), &mut out).is_err() {
        out.clear();
    }
    out
}

fn node<'a>(arena: &'a Arena<'a>, value: NodeValue) -> &'a AstNode<'a> {
    arena.alloc(value.into())
}

fn bullets() -> NodeList {
    NodeList {
        list_type: ListType::Bullet,
        bullet_char: b'-',
        padding: 2,
        tight: true,
        ..NodeList::default()
    }
}

/// A heading holds one line: a line break in its text becomes a space.
fn heading<'a>(arena: &'a Arena<'a>, level: u8, text: &str) -> &'a AstNode<'a> {
    let h = node(
        arena,
        NodeValue::Heading(NodeHeading {
            level,
            setext: false,
            closed: false,
        }),
    );
    let text = crate::text::visible(text).replace('\n', " ");
    h.append(node(arena, NodeValue::Text(text.into())));
    h
}

/// Text in a paragraph or list item, each line of it kept on its own line
/// by a hard line break inside the same block.
fn append_text<'a>(arena: &'a Arena<'a>, block: &'a AstNode<'a>, text: &str) {
    let text = crate::text::visible(text);
    // Blank lines around a note say nothing, and a break at the end of a
    // block would be written as a stray backslash.
    for (i, line) in text.trim_matches('\n').split('\n').enumerate() {
        if i > 0 {
            block.append(node(arena, NodeValue::LineBreak));
        }
        let line = keep_indent(line);
        if !line.is_empty() {
            block.append(node(arena, NodeValue::Text(line.into_owned().into())));
        }
    }
}
