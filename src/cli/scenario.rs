//! `rapsheet scenario …`: which scenarios two gangs may play next, and a
//! roll among them.

use anyhow::Result;
use clap::Subcommand;

use super::print_json;
use crate::session::Session;

#[derive(Debug, Subcommand)]
pub enum ScenarioCommand {
    /// The scenarios two gangs may play next: the stages their arc allows,
    /// and why.
    Next {
        gang: String,
        rival: String,
        #[arg(long)]
        json: bool,
    },
    /// Roll the next scenario among those two gangs may play (written to
    /// the log; `rapsheet undo` takes it back).
    Roll {
        gang: String,
        rival: String,
        /// Seed for the roll, so a run can be repeated.
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn scenario(session: &mut Session, command: ScenarioCommand) -> Result<()> {
    match command {
        ScenarioCommand::Next { gang, rival, json } => {
            let (a, b) = (session.gang_named(&gang)?, session.gang_named(&rival)?);
            let next = session.next_scenarios(a.id, b.id)?;
            if json {
                return print_json(&next);
            }
            say!(
                "Next for {} vs {}: {}",
                a.name,
                b.name,
                next.stages.join(" or ")
            );
            if let Some(why) = &next.why {
                say!("  because {why}");
            }
            let names: Vec<&str> = next.scenarios.iter().map(|(_, n)| n.as_str()).collect();
            say!("  scenarios: {}", names.join(", "));
            Ok(())
        }
        ScenarioCommand::Roll {
            gang,
            rival,
            seed,
            json,
        } => {
            let (a, b) = (session.gang_named(&gang)?, session.gang_named(&rival)?);
            let seed = seed.unwrap_or_else(crate::dice::seed_from_clock);
            let rolled = session.roll_scenario(a.id, b.id, seed)?;
            if json {
                return print_json(&rolled);
            }
            let names: Vec<&str> = rolled
                .next
                .scenarios
                .iter()
                .map(|(_, n)| n.as_str())
                .collect();
            say!(
                "{} vs {}: {} [{}] of {}: {} (seed {seed})",
                a.name,
                b.name,
                rolled.roll.expression,
                rolled.roll.total,
                names.join(", "),
                rolled.name
            );
            Ok(())
        }
    }
}
