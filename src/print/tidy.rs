//! What a card says, said once: its entries without repeats (a table
//! result that gives a fighter an entry they already hold), each line
//! without what adds nothing (a roll's term of nought, a source in
//! brackets that is the line's own label again), and no write-in box for
//! a counter the fighter does not have. Pure: text in, text out; the
//! words are the pack's, and nothing here knows a game.

use super::CardData;

/// The card as it prints.
pub(super) fn card(data: &CardData) -> CardData {
    let mut out = data.clone();
    out.quirks = entries(&data.quirks);
    for (_, lines) in &mut out.groups {
        *lines = entries(lines);
    }
    // A counter one of the fighter's entries takes away (the pack's
    // `no_counters`: a synthetic's stress) is left out of the header by
    // the session; its write-in box goes with it. A blank card is for
    // anyone, and keeps every box.
    if !data.blank {
        out.write_ins
            .retain(|label| data.counters.iter().any(|(counter, _)| counter == label));
    }
    out
}

/// Entry lines each once, in order, and each said plainly.
fn entries(lines: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in lines.iter().map(|l| line(l)) {
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

/// A line `Label: what` without the terms of `what` that add nothing: a
/// term of nought after the first (`+ 0 stress (Stress level)`), and a
/// source in brackets that is the label again (`Combat: 2d6 (Combat)`).
/// Only what stands outside any brackets is a term: `(Wits 3 + Comtech 0)`
/// says what a pool is made of, and stays whole.
pub(super) fn line(text: &str) -> String {
    let Some((label, what)) = text.split_once(": ") else {
        return text.to_owned();
    };
    let terms: Vec<String> = outside_brackets(what, " + ")
        .into_iter()
        .enumerate()
        .filter(|(i, term)| *i == 0 || !nought(term))
        .map(|(_, term)| without_own_source(&term, label))
        .collect();
    format!("{label}: {}", terms.join(" + "))
}

/// Whether a term is nought: its first word is the number 0.
fn nought(term: &str) -> bool {
    term.split_whitespace()
        .next()
        .and_then(|n| n.parse::<i64>().ok())
        == Some(0)
}

/// A term without a bracketed source (outside any other brackets) that is
/// `label` again, as names are compared, and the space before it.
fn without_own_source(term: &str, label: &str) -> String {
    let mut out = String::new();
    let mut inside = String::new();
    let mut depth = 0_usize;
    for c in term.chars() {
        match c {
            '(' => {
                if depth > 0 {
                    inside.push(c);
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth > 0 {
                    inside.push(c);
                } else if crate::text::same(&inside, label) {
                    let kept = out.trim_end().len();
                    out.truncate(kept);
                    inside.clear();
                } else {
                    out.push('(');
                    out.push_str(&inside);
                    out.push(')');
                    inside.clear();
                }
            }
            _ if depth > 0 => inside.push(c),
            _ => out.push(c),
        }
    }
    // A bracket left open is text as it was.
    if depth > 0 {
        out.push('(');
        out.push_str(&inside);
    }
    out
}

/// `text` split at each `sep` that stands outside any brackets.
fn outside_brackets(text: &str, sep: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0_usize;
    let mut chars = text.chars();
    loop {
        if depth == 0
            && let Some(after) = chars.as_str().strip_prefix(sep)
        {
            out.push(String::new());
            chars = after.chars();
            continue;
        }
        let Some(c) = chars.next() else {
            break;
        };
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_term_of_nought_after_the_first_goes() {
        assert_eq!(
            line("Stamina: 4 dice (Strength 3 + Stamina 1) + 0 stress (Stress level)"),
            "Stamina: 4 dice (Strength 3 + Stamina 1)"
        );
        // Inside brackets it says what the pool is made of, and stays.
        assert_eq!(
            line("Comtech: 3 dice (Wits 3 + Comtech 0) + 2 stress (Stress level)"),
            "Comtech: 3 dice (Wits 3 + Comtech 0) + 2 stress (Stress level)"
        );
        // The first term is what is rolled, nought or not.
        assert_eq!(line("Grit: 0 dice (Grit 0)"), "Grit: 0 dice (Grit 0)");
    }

    #[test]
    fn a_source_that_is_the_label_again_goes() {
        assert_eq!(line("Combat: 2d6 (Combat)"), "Combat: 2d6");
        assert_eq!(line("Initiative: 2d6+3 (Jets)"), "Initiative: 2d6+3 (Jets)");
        // Compared as names are: the case and the form of an accent aside.
        assert_eq!(line("Défense: 2d8 (DE\u{301}FENSE)"), "Défense: 2d8");
    }

    #[test]
    fn a_line_without_a_label_or_with_open_brackets_is_left_as_it_is() {
        assert_eq!(line("Boot Knife"), "Boot Knife");
        assert_eq!(
            line("Sledgehammer (Pulverizer): P7, Crush"),
            "Sledgehammer (Pulverizer): P7, Crush"
        );
        assert_eq!(line("Odd: 2d6 (Odd"), "Odd: 2d6 (Odd");
        assert_eq!(line("山田: 2d6 + 0 (山田)"), "山田: 2d6");
    }

    #[test]
    fn an_entry_given_twice_is_printed_once_and_a_taken_counter_has_no_box() {
        let card = card(&CardData {
            quirks: vec!["Eel Skin".into(), "Conch".into(), "Eel Skin".into()],
            counters: vec![("Health".into(), "3".into())],
            write_ins: vec!["Stress level".into(), "Health".into()],
            ..CardData::default()
        });
        assert_eq!(card.quirks, ["Eel Skin", "Conch"]);
        assert_eq!(card.write_ins, ["Health"]);
    }
}
