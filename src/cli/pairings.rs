//! `rapsheet pairings …`: who plays whom in the cycle, made once a cycle
//! by whoever runs the campaign, and shown played and not.

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::print_json;
use crate::rules::PairingMethod;
use crate::session::{PairingsView, Session};

#[derive(Debug, Subcommand)]
pub enum PairingsCommand {
    /// Make the cycle's pairings, by one of the ways the game allows
    /// (`round-robin`, `standings`, `random`; its first where none is
    /// given): one change.
    Make {
        #[arg(long)]
        by: Option<String>,
        /// Seed for a random draw.
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long)]
        json: bool,
    },
    /// The cycle's pairings, played and not.
    Show {
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn pairings(session: &mut Session, command: PairingsCommand) -> Result<()> {
    match command {
        PairingsCommand::Make { by, seed, json } => {
            let by = by
                .map(|b| {
                    PairingMethod::from_word(&b).ok_or_else(|| {
                        anyhow!("--by {b}: expected round-robin, standings or random")
                    })
                })
                .transpose()?;
            let seed = seed.unwrap_or_else(crate::dice::seed_from_clock);
            let made = session.make_pairings(by, seed)?;
            if json {
                return print_json(&made);
            }
            say!("{}", session.batch_label(made.batch)?);
            show(&made.pairings);
            Ok(())
        }
        PairingsCommand::Show { json } => {
            let Some(view) = session.pairings()? else {
                bail!("the campaign's game has no pairings");
            };
            if json {
                return print_json(&view);
            }
            say!("{} of {}", view.label, view.said);
            show(&view);
            Ok(())
        }
    }
}

/// Each pair, played or not, and who sits out.
pub(super) fn show(view: &PairingsView) {
    let Some(made) = &view.made else {
        say!("  not made yet (`rapsheet pairings make`)");
        return;
    };
    for pair in &made.pairs {
        let played = if pair.played.is_empty() {
            "not played yet".to_owned()
        } else {
            let numbers: Vec<String> = pair.played.iter().map(|b| format!("#{b}")).collect();
            format!("played ({})", numbers.join(", "))
        };
        say!("  {} v {}: {played}", pair.first, pair.second);
    }
    if let Some(out) = &made.sits_out {
        say!("  {out} sits out");
    }
}
