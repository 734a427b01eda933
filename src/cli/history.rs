//! `rapsheet log`, `undo` and `redo`: the campaign's history, the same
//! the window's Edit menu steps through.

use anyhow::{Result, bail};

use super::print_json;
use crate::session::Session;
use crate::text;

/// The newest `limit` changes, newest first.
pub(super) fn log(session: &Session, limit: usize, json: bool) -> Result<()> {
    let entries = session.log(limit)?;
    if json {
        return print_json(&entries);
    }
    let names = session.names()?;
    // A batch left out holds no event: shown in its place, by its label.
    let oldest = entries.last().map_or(0, |e| e.batch.0);
    let mut empty: Vec<_> = session
        .empty_batches(limit)?
        .into_iter()
        .filter(|b| entries.len() < limit || b.batch.0 >= oldest)
        .collect();
    let by = |author: &Option<String>| {
        author
            .as_ref()
            .map_or_else(String::new, |a| format!(" by {a}"))
    };
    // Each change is one line, whatever a reason or a label it shows
    // holds: a line break is shown as `\u{a}`, never starts a line that
    // would read as a change of its own.
    let line = text::one_line;
    for e in entries {
        while let Some(b) = empty.first().filter(|b| b.batch.0 > e.batch.0) {
            say!("#{} {}{}  {}", b.batch, b.at, by(&b.author), line(&b.label));
            empty.remove(0);
        }
        say!(
            "#{} {}{}  {}",
            e.batch,
            e.at,
            by(&e.author),
            line(&e.event.describe(&names))
        );
    }
    for b in empty {
        say!("#{} {}{}  {}", b.batch, b.at, by(&b.author), line(&b.label));
    }
    Ok(())
}

/// Takes back change `n`.
pub(super) fn undo(session: &mut Session, n: i64) -> Result<()> {
    let batch = session.undo(crate::campaign::BatchId(n))?;
    say!("{}", session.batch_label(batch)?);
    Ok(())
}

/// Takes back the newest change.
pub(super) fn undo_last(session: &mut Session) -> Result<()> {
    match session.undo_last()? {
        Some((_, label)) => say!("{label}"),
        None => bail!("nothing to undo"),
    }
    Ok(())
}

/// Makes again the change the newest undo took back.
pub(super) fn redo_last(session: &mut Session) -> Result<()> {
    match session.redo_last()? {
        Some((_, label)) => say!("{label}"),
        None => bail!("nothing to redo"),
    }
    Ok(())
}
