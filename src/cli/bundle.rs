//! `rapsheet bundle`: a gang, or every gang, written out as a bundle file,
//! and a bundle's gangs brought into a campaign.

use std::path::PathBuf;

use anyhow::{Context as _, Result};
use clap::Subcommand;

use crate::session::Session;

/// Bundles (`docs/bundle.md`).
#[derive(Debug, Subcommand)]
pub enum BundleCommand {
    /// Write one gang (or every gang) with its fighters, lasting effects,
    /// photos and the group's own packs it plays.
    Export {
        #[arg(long, conflicts_with = "whole")]
        gang: Option<String>,
        /// The whole campaign: every gang, its log and photos, to be made
        /// again as it was (`bundle import FILE --whole --db NEW`).
        #[arg(long)]
        whole: bool,
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        #[arg(long)]
        force: bool,
    },
    /// Bring a bundle's gangs into the campaign, as one change undo takes
    /// back.
    Import {
        file: PathBuf,
        /// Make a new campaign file (`--db`, which must not exist) from a
        /// whole campaign's bundle.
        #[arg(long)]
        whole: bool,
        /// Bring a gang in under another name: `--rename "Ash Dogs=Ash
        /// Dogs II"` (for a name the campaign already has). May be given
        /// more than once.
        #[arg(long, value_name = "OLD=NEW")]
        rename: Vec<String>,
    },
}

pub(super) fn bundle(session: &mut Session, command: BundleCommand) -> Result<()> {
    match command {
        BundleCommand::Export {
            gang,
            whole,
            output,
            force,
        } => {
            let gang = gang.map(|g| session.gang_named(&g)).transpose()?;
            let bundle = if whole {
                session.export_whole_bundle()?
            } else {
                session.export_bundle(gang.map(|g| g.id))?
            };
            let bytes = serde_json::to_vec_pretty(&bundle)?;
            super::print::write_output(session, &output, &bytes, force)?;
            let names: Vec<&str> = bundle.gangs.iter().map(|g| g.name.as_str()).collect();
            say!(
                "Wrote {} to {}",
                names.join(", "),
                crate::text::path(&output)
            );
        }
        BundleCommand::Import { file, rename, .. } => {
            let bytes = crate::session::read_bundle_file(&file)?;
            let mut renamed = std::collections::BTreeMap::new();
            for pair in &rename {
                let (from, to) = pair.split_once('=').ok_or_else(|| {
                    anyhow::anyhow!("--rename takes OLD=NEW (the name in the bundle, then the new one), not “{pair}”")
                })?;
                renamed.insert(from.trim().to_owned(), to.trim().to_owned());
            }
            let (_, names) = session
                .import_bundle_as(&bytes, &renamed)
                .with_context(|| format!("{} was not brought in", crate::text::path(&file)))?;
            say!("Brought in {}", names.join(", "));
        }
    }
    Ok(())
}

/// `bundle import FILE --whole --db NEW`: a new campaign file made from a
/// whole campaign's bundle, and verified.
pub(super) fn import_whole(
    file: &std::path::Path,
    db: &std::path::Path,
    packs: crate::rules::Registry,
) -> Result<()> {
    let bytes = crate::session::read_bundle_file(file)?;
    let session = Session::create_from_bundle_with(db, &bytes, packs).with_context(|| {
        format!(
            "{} was not made from {}",
            crate::text::path(db),
            crate::text::path(file)
        )
    })?;
    let (words, _) = session.campaign_words()?;
    say!(
        "Made {} from {}: {}, verified",
        crate::text::path(db),
        crate::text::path(file),
        words.count(session.gang_list()?.len(), crate::rules::Noun::Gang)
    );
    Ok(())
}
