//! `rapsheet log`, `undo` and `redo`: the campaign's history, the same
//! the window's Edit menu steps through.

use anyhow::{Result, bail};

use super::print_json;
use crate::session::Session;

/// The newest `limit` changes, newest first.
pub(super) fn log(session: &Session, limit: usize, json: bool) -> Result<()> {
    let entries = session.log(limit)?;
    if json {
        return print_json(&entries);
    }
    let names = session.names()?;
    for e in entries {
        match &e.author {
            Some(by) => say!(
                "#{} {} by {by}  {}",
                e.batch,
                e.at,
                e.event.describe(&names)
            ),
            None => say!("#{} {}  {}", e.batch, e.at, e.event.describe(&names)),
        }
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
