//! `rapsheet cards` and `rapsheet roster`: PDFs made by the app itself.

use std::path::Path;

use anyhow::{Result, bail};

use crate::output::{Existing, OutputError};
use crate::print::{CardSize, CardStyle, MissingGlyph, PageSize};
use crate::session::{Pick, PrintOrder, Session};

/// Writes an output the command made, atomically, never over the open
/// campaign, and over an existing file only with `--force`.
pub(crate) fn write_output(
    session: &Session,
    path: &Path,
    bytes: &[u8],
    force: bool,
) -> Result<()> {
    let existing = if force {
        Existing::Replace
    } else {
        Existing::Refuse
    };
    match crate::output::write(path, bytes, existing, Some(session.path())) {
        Ok(()) => Ok(()),
        Err(OutputError::Exists(path)) => bail!(
            "{}: a file is already there; add --force to replace it",
            path.display()
        ),
        Err(err) => Err(err.into()),
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn cards(
    session: &Session,
    gang: Option<&str>,
    fighters: &[String],
    size: CardSize,
    page: PageSize,
    blank: usize,
    write_in: bool,
    out: &Path,
    force: bool,
) -> Result<()> {
    if gang.is_none() && !fighters.is_empty() {
        bail!("--fighters needs --gang");
    }
    let gang = gang.map(|name| session.gang_named(name)).transpose()?;
    let job = session.print_job(&PrintOrder {
        gang: gang.map(|g| g.id),
        fighters: Pick::Names(fighters.to_vec()),
        blanks: blank,
        roster: false,
        page,
        style: CardStyle { size, write_in },
    })?;
    let bytes = job.pdf()?;
    write_output(session, out, &bytes, force)?;
    warn(&job.warnings()?);
    say!("Wrote {} cards to {}", job.card_count(), out.display());
    Ok(())
}

pub(super) fn roster(
    session: &Session,
    gang: &str,
    page: PageSize,
    out: &Path,
    force: bool,
) -> Result<()> {
    let gang = session.gang_named(gang)?;
    let job = session.print_job(&PrintOrder {
        gang: Some(gang.id),
        roster: true,
        page,
        ..PrintOrder::default()
    })?;
    let bytes = job.pdf()?;
    write_output(session, out, &bytes, force)?;
    warn(&job.warnings()?);
    say!("Wrote the roster of {} to {}", gang.name, out.display());
    Ok(())
}

/// What printed as a placeholder, on stderr: the file is written all the
/// same.
fn warn(missing: &[MissingGlyph]) {
    for m in missing {
        say_err!("warning: {m}");
    }
}
