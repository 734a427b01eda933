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
            crate::text::path(&path)
        ),
        Err(err) => Err(err.into()),
    }
}

/// What `rapsheet cards` is told.
#[derive(Debug, clap::Args)]
pub struct CardsArgs {
    /// The gang (default: every gang of the campaign).
    #[arg(long)]
    pub gang: Option<String>,
    /// Only this fighter; repeat for more (a name may hold a comma).
    #[arg(long = "fighter", alias = "fighters", value_name = "FIGHTER")]
    pub fighters: Vec<String>,
    /// Only the fighters who can fight the next battle (not wounded,
    /// held or gone).
    #[arg(long)]
    pub crew: bool,
    /// poker (63×88 mm), large (100×110 mm) or sheet (a character sheet,
    /// 190×130 mm, two to a page); left out, the size the gang's pack
    /// prints on (poker unless it says).
    #[arg(long, value_parser = parse_size)]
    pub size: Option<CardSize>,
    /// a4 or letter.
    #[arg(long, value_enum, ignore_case = true, default_value_t = PageSize::A4)]
    pub page: PageSize,
    /// Blank cards to add, for fighters written in by hand (up to 1000).
    #[arg(long, default_value_t = 0, value_parser = parse_blanks)]
    pub blank: usize,
    /// Blank cards alone, no fighter's (with --blank N).
    #[arg(long, requires = "blank")]
    pub blank_only: bool,
    /// Boxes to write in during a battle: one per counter, and notes.
    #[arg(long)]
    pub write_in: bool,
    /// No crop marks.
    #[arg(long)]
    pub no_crop_marks: bool,
    /// No cut guide (with bleed and no crop marks, a hairline on each cut
    /// between the cards).
    #[arg(long)]
    pub no_cut_guide: bool,
    /// Bleed in mm (0 to 5): the header band runs past the cut, and the
    /// cards sit apart; without it neighbours share their cut lines.
    #[arg(long, default_value_t = 0.0, value_parser = parse_bleed)]
    pub bleed: f32,
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: std::path::PathBuf,
    /// Replace the output file if one is already there.
    #[arg(long)]
    pub force: bool,
}

fn parse_blanks(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n <= crate::session::MOST_BLANKS => Ok(n),
        _ => Err(format!(
            "expected a number of cards from 0 to {}",
            crate::session::MOST_BLANKS
        )),
    }
}

fn parse_size(text: &str) -> Result<CardSize, String> {
    CardSize::named(text).ok_or_else(|| "expected poker, large or sheet".to_owned())
}

fn parse_bleed(text: &str) -> Result<f32, String> {
    let mm: f32 = text
        .trim()
        .parse()
        .map_err(|_| "expected a number of millimetres".to_owned())?;
    if (0.0..=crate::print::card::MAX_BLEED).contains(&mm) {
        Ok(mm)
    } else {
        Err(format!(
            "the bleed is 0 to {} mm",
            crate::print::card::MAX_BLEED
        ))
    }
}

pub(super) fn cards(session: &Session, args: CardsArgs) -> Result<()> {
    if args.gang.is_none() && !args.fighters.is_empty() {
        bail!("--fighter needs --gang");
    }
    let gang = args
        .gang
        .as_deref()
        .map(|name| session.gang_named(name))
        .transpose()?;
    let fighters = if args.blank_only {
        Pick::Nobody
    } else {
        Pick::Names(args.fighters)
    };
    let size = match args.size {
        Some(size) => size,
        None => session.card_size(gang.as_ref().map(|g| g.id))?,
    };
    let job = session.print_job(&PrintOrder {
        gang: gang.map(|g| g.id),
        fighters,
        crew: args.crew,
        blanks: args.blank,
        roster: false,
        page: args.page,
        style: CardStyle {
            size,
            write_in: args.write_in,
            marks: !args.no_crop_marks,
            bleed: args.bleed,
            cut_guide: !args.no_cut_guide,
        },
    })?;
    let bytes = job.pdf()?;
    write_output(session, &args.output, &bytes, args.force)?;
    warn(&job.warnings()?);
    if let Some(near) = job.near_the_edge() {
        say_err!("warning: {near}");
    }
    say!(
        "Wrote {} to {}",
        crate::rules::counted(job.card_count(), "card", "cards"),
        crate::text::path(&args.output)
    );
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
    say!(
        "Wrote the roster of {} to {}",
        gang.name,
        crate::text::path(out)
    );
    Ok(())
}

/// What printed as a placeholder, on stderr: the file is written all the
/// same.
fn warn(missing: &[MissingGlyph]) {
    for m in missing {
        say_err!("warning: {m}");
    }
}
