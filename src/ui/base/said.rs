//! What the window says of an error: sentences a player reads. The field
//! a refusal names (`gangs[1].role`) is for the command line's `--json`
//! and for a script; in the window, the reason alone.

use crate::campaign::battle::ReportError;

/// The error's causes, one after the other, each without the field path
/// it starts with.
pub fn for_players(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let said = match cause.downcast_ref::<ReportError>() {
            Some(refused) => refused.reason.clone(),
            None => without_field(&cause.to_string()).to_owned(),
        };
        if said.is_empty() || text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

/// `gangs[0].name: there is already…` without `gangs[0].name: `: a
/// leading word of no spaces, starting in lower case, that holds a `.` or
/// a `[`, followed by a colon.
fn without_field(text: &str) -> &str {
    let Some((head, rest)) = text.split_once(": ") else {
        return text;
    };
    let is_path = head.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && !head.contains(char::is_whitespace)
        && (head.contains('.') || head.contains('['));
    if is_path { rest } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_said_without_its_field() {
        let refused = ReportError {
            field: "gangs[1].role".into(),
            reason: "two gangs cannot both be the Hunters".into(),
        };
        let err = anyhow::Error::new(refused);
        assert_eq!(for_players(&err), "two gangs cannot both be the Hunters");
        let err = anyhow::anyhow!("gangs[0].name: there is already a gang called “Ash Dogs”");
        assert_eq!(
            for_players(&err),
            "there is already a gang called “Ash Dogs”"
        );
        // A sentence with a colon is not a field.
        let err = anyhow::anyhow!("Neon Jackals: Supply 0 would be -1");
        assert_eq!(for_players(&err), "Neon Jackals: Supply 0 would be -1");
        let err = anyhow::anyhow!("the file is not a campaign").context("c.rapsheet");
        assert_eq!(for_players(&err), "c.rapsheet: the file is not a campaign");
    }
}
