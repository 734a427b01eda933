//! `rapsheet export …` and `rapsheet arc …`.

use std::path::PathBuf;

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::print_json;
use crate::export::{Export, Format, render_on};
use crate::print::PageSize;
use crate::session::Session;

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// One arc's story.
    Arc {
        /// The arc's number (see `rapsheet arc list`).
        id: usize,
        /// md, html, json or pdf.
        #[arg(long, value_enum, ignore_case = true)]
        format: Format,
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// Replace the output file if one is already there.
        #[arg(long)]
        force: bool,
        /// The paper a PDF is printed on.
        #[arg(long, value_enum, ignore_case = true, default_value_t = PageSize::A4)]
        page: PageSize,
    },
    /// The season: the standings, who holds which holding, each cycle's
    /// records and the titles as each ended, as one page.
    Season {
        /// md, html, json or pdf.
        #[arg(long, value_enum, ignore_case = true)]
        format: Format,
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// Replace the output file if one is already there.
        #[arg(long)]
        force: bool,
        /// The paper a PDF is printed on.
        #[arg(long, value_enum, ignore_case = true, default_value_t = PageSize::A4)]
        page: PageSize,
    },
    /// The whole campaign's story.
    Campaign {
        /// md, html, json or pdf.
        #[arg(long, value_enum, ignore_case = true)]
        format: Format,
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// Replace the output file if one is already there.
        #[arg(long)]
        force: bool,
        /// The paper a PDF is printed on.
        #[arg(long, value_enum, ignore_case = true, default_value_t = PageSize::A4)]
        page: PageSize,
    },
}

#[derive(Debug, Subcommand)]
pub enum ArcCommand {
    /// The arcs: which gangs, which battles, open or closed, what comes next.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Close an open arc by hand.
    Close {
        id: usize,
        #[arg(long)]
        reason: String,
    },
}

pub(super) fn export(session: &Session, command: ExportCommand) -> Result<()> {
    if let ExportCommand::Season {
        format,
        output,
        force,
        page,
    } = command
    {
        let report = session.season_report()?;
        let bytes = crate::export::render_season(&report, format, page)?;
        super::print::write_output(session, &output, &bytes, force)?;
        say!("Wrote {}", crate::text::path(&output));
        return Ok(());
    }
    let story = session.chronicle()?;
    let campaign = session.info()?.name;
    let (chronicle, scope, format, output, force, page) = match command {
        ExportCommand::Arc {
            id,
            format,
            output,
            force,
            page,
        } => {
            let arc = session.arc_story(&story, id)?.ok_or_else(|| {
                anyhow!("no arc #{id} in this campaign (see `rapsheet arc list`)")
            })?;
            (arc, format!("arc {id}"), format, output, force, page)
        }
        ExportCommand::Campaign {
            format,
            output,
            force,
            page,
        } => (story, "campaign".to_owned(), format, output, force, page),
        ExportCommand::Season { .. } => return Ok(()),
    };
    let export = Export {
        campaign: &campaign,
        scope,
        chronicle: &chronicle,
    };
    let bytes = render_on(&export, format, page)?;
    super::print::write_output(session, &output, &bytes, force)?;
    if format == Format::Pdf {
        for warning in crate::export::pdf_warnings(&export)? {
            say_err!("warning: {warning}");
        }
    }
    say!("Wrote {}", crate::text::path(&output));
    Ok(())
}

pub(super) fn arc(session: &mut Session, command: ArcCommand) -> Result<()> {
    match command {
        ArcCommand::List { json } => {
            let story = session.chronicle()?;
            if json {
                return print_json(&story.arcs);
            }
            if story.arcs.is_empty() {
                say!("{}", no_arc_yet(&story.opening_stages, &story.record.noun));
            }
            for arc in &story.arcs {
                let state = match (&arc.closed_by, arc.closed) {
                    (Some(by), true) => format!("closed: {by}"),
                    (None, true) => "closed".to_owned(),
                    _ => "open".to_owned(),
                };
                let battles: Vec<String> = arc.battles.iter().map(|b| format!("#{b}")).collect();
                say!(
                    "Arc {}: {} vs {} — {} ({state})",
                    arc.id,
                    arc.gangs[0],
                    arc.gangs[1],
                    battles.join(", ")
                );
                for (stage, scenarios) in &arc.next {
                    say!("  next: {stage}: {}", scenarios.join(", "));
                }
                if let Some(why) = &arc.next_why {
                    say!("  because {why}");
                }
            }
            Ok(())
        }
        ArcCommand::Close { id, reason } => {
            if reason.trim().is_empty() {
                bail!("--reason must say why the arc closes");
            }
            session.close_arc(id, &reason)?;
            say!("Arc {id} closed");
            Ok(())
        }
    }
}

/// Says how an arc begins, in the pack's words (its opening stages).
fn no_arc_yet(opening_stages: &[String], record: &str) -> String {
    if opening_stages.is_empty() {
        "No arc yet: this ruleset has no arcs.".to_owned()
    } else {
        format!(
            "No arc yet: an arc begins with a {} {record}.",
            opening_stages.join(" or ")
        )
    }
}
