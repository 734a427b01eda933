//! `rapsheet cards` and `rapsheet roster`: PDFs made by the app itself.

use std::path::Path;

use anyhow::{Result, anyhow, bail};

use crate::output::{Existing, OutputError};
use crate::print::{
    CardSize, CardStyle, MissingGlyph, PageSize, card_warnings, cards_pdf, roster_pdf,
    roster_warnings,
};
use crate::session::Session;

/// Writes an output the command made, atomically, never over the open
/// campaign, and over an existing file only with `--force`.
pub(super) fn write_output(
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
    size: &str,
    page: &str,
    blank: usize,
    write_in: bool,
    out: &Path,
    force: bool,
) -> Result<()> {
    let size =
        CardSize::parse(size).ok_or_else(|| anyhow!("--size {size}: expected poker or large"))?;
    let page =
        PageSize::parse(page).ok_or_else(|| anyhow!("--page {page}: expected a4 or letter"))?;
    let mut cards = Vec::new();
    match gang {
        Some(name) => {
            let gang = session.gang_named(name)?;
            cards = session.cards(gang.id, fighters)?;
        }
        None => {
            if !fighters.is_empty() {
                bail!("--fighters needs --gang");
            }
            for gang in session.store.gangs()? {
                cards.extend(session.cards(gang.id, &[])?);
            }
        }
    }
    // Blank cards carry the labels of the gang (or the first gang).
    let template_gang = match gang {
        Some(name) => Some(session.gang_named(name)?.id),
        None => session.store.gangs()?.first().map(|g| g.id),
    };
    if let Some(g) = template_gang
        && blank > 0
    {
        let template = session.blank_card(g)?;
        cards.extend(std::iter::repeat_n(template, blank));
    }
    let bytes = cards_pdf(&cards, 0, page, CardStyle { size, write_in })?;
    write_output(session, out, &bytes, force)?;
    warn(&card_warnings(&cards)?);
    say!("Wrote {} cards to {}", cards.len(), out.display());
    Ok(())
}

pub(super) fn roster(
    session: &Session,
    gang: &str,
    page: &str,
    out: &Path,
    force: bool,
) -> Result<()> {
    let page =
        PageSize::parse(page).ok_or_else(|| anyhow!("--page {page}: expected a4 or letter"))?;
    let gang = session.gang_named(gang)?;
    let sheet = session.roster_sheet(gang.id)?;
    let bytes = roster_pdf(&sheet, page)?;
    write_output(session, out, &bytes, force)?;
    warn(&roster_warnings(&sheet)?);
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
