//! `rapsheet holding …`, `rapsheet cycle …` and `rapsheet standings`: the
//! season of the campaign's game.

use anyhow::{Result, bail};
use clap::Subcommand;

use super::print_json;
use crate::campaign::battle::{BattleReport, EnteredDice};
use crate::session::Session;

/// The season's commands, beside the others at the top of the tree.
#[derive(Debug, Subcommand)]
pub enum SeasonCommand {
    /// Holdings: who holds which, and giving or taking one by hand.
    Holding {
        #[command(subcommand)]
        command: HoldingCommand,
    },
    /// The cycle: which it is, who has played how many, and ending it.
    Cycle {
        #[command(subcommand)]
        command: CycleCommand,
    },
    /// The standings of the campaign's game.
    Standings {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum HoldingCommand {
    /// Every holding, who holds it and what it gives.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Give a holding to a gang (from whoever holds it), with the reason.
    Give {
        /// The holding, by name or id.
        holding: String,
        /// The gang that takes it.
        gang: String,
        #[arg(long)]
        reason: String,
    },
    /// Take a holding from its holder: unclaimed again, with the reason.
    Take {
        holding: String,
        #[arg(long)]
        reason: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum CycleCommand {
    /// Which cycle it is, who has played how many records in it, and what
    /// its end will do.
    Show {
        #[arg(long)]
        json: bool,
    },
    /// End the cycle, where the game leaves it to a player: every gang's
    /// income, decay and returns, in one change.
    End {
        /// Seed for the rolls its end makes.
        #[arg(long)]
        seed: Option<u64>,
        /// Dice rolled at the table for one of its rolls, as
        /// `ROLL=FACES` (`<step>: <holding>=4`); repeat for each.
        #[arg(long = "dice", value_name = "ROLL=FACES")]
        dice: Vec<String>,
        /// Show what it would do without doing it.
        #[arg(long)]
        dry_run: bool,
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn season(session: &mut Session, command: SeasonCommand) -> Result<()> {
    match command {
        SeasonCommand::Holding { command } => holding(session, command),
        SeasonCommand::Cycle { command } => cycle(session, command),
        SeasonCommand::Standings { json } => standings(session, json),
    }
}

fn holding(session: &mut Session, command: HoldingCommand) -> Result<()> {
    match command {
        HoldingCommand::List { json } => {
            let view = session.holdings()?;
            if json {
                return print_json(&view);
            }
            if view.holdings.is_empty() {
                bail!("the campaign's game has no holdings");
            }
            for h in &view.holdings {
                let holder = h.holder.as_deref().unwrap_or("unclaimed");
                say!("{}: {holder}", h.name);
                for line in &h.gives {
                    say!("  {line}");
                }
            }
            Ok(())
        }
        HoldingCommand::Give {
            holding,
            gang,
            reason,
        } => {
            let batch = session.give_holding(&holding, &gang, &reason)?;
            say!("{}", session.batch_label(batch)?);
            Ok(())
        }
        HoldingCommand::Take { holding, reason } => {
            let batch = session.take_holding(&holding, &reason)?;
            say!("{}", session.batch_label(batch)?);
            Ok(())
        }
    }
}

fn cycle(session: &mut Session, command: CycleCommand) -> Result<()> {
    match command {
        CycleCommand::Show { json } => {
            let Some(view) = session.cycle_view()? else {
                bail!("the campaign's game has no cycles");
            };
            if json {
                return print_json(&view);
            }
            let limit = view.limit.map_or(String::new(), |l| format!(" of {l}"));
            say!("{}", view.said);
            for p in &view.played {
                say!("  {}: {}{limit} played", p.gang, p.played);
            }
            if let Some(why) = &view.cannot_end {
                say!("{why}");
            }
            if !view.end.is_empty() {
                say!("When {} ends:", view.said);
                super::battle::print_changes(&view.end, &[], None);
            }
            Ok(())
        }
        CycleCommand::End {
            seed,
            dice,
            dry_run,
            json,
        } => {
            let mut report = BattleReport::empty();
            report.dice = dice.iter().map(|d| entered(d)).collect::<Result<_>>()?;
            let seed = seed.unwrap_or_else(crate::dice::seed_from_clock);
            if dry_run {
                let procedure = session.preview_cycle_end(&report, seed)?;
                if json {
                    return print_json(&procedure);
                }
                say!("Would end it (rolls from seed {seed}):");
                let pack = session.pack(&procedure.battle.ruleset).ok();
                super::battle::print_changes(&procedure.changes, &procedure.needed, pack);
                return Ok(());
            }
            let ended = session.end_cycle(&report, seed)?;
            if json {
                return print_json(&ended);
            }
            say!(
                "{} (rolls from seed {seed})",
                session.batch_label(ended.batch)?
            );
            super::battle::print_changes(&ended.changes, &[], None);
            Ok(())
        }
    }
}

/// Dice typed for a roll, as `ROLL=FACES` (`<step>: <holding>=4` or
/// `=3 5`).
fn entered(text: &str) -> Result<EnteredDice> {
    let Some((roll, faces)) = text.rsplit_once('=') else {
        bail!("--dice {text}: expected ROLL=FACES (`<step>: <holding>=4`)");
    };
    let faces = faces
        .split([' ', ','])
        .filter(|f| !f.is_empty())
        .map(|f| {
            f.parse::<u32>()
                .map_err(|_| anyhow::anyhow!("--dice {text}: `{f}` is not a face"))
        })
        .collect::<Result<Vec<u32>>>()?;
    Ok(EnteredDice {
        roll: roll.trim().to_owned(),
        faces,
    })
}

fn standings(session: &Session, json: bool) -> Result<()> {
    let Some(view) = session.standings()? else {
        bail!("the campaign's game has no standings");
    };
    if json {
        return print_json(&view);
    }
    say!("{}", view.label);
    for line in &view.lines {
        let (place, rest) = view.said(line);
        say!("{place:>3}. {rest}");
    }
    Ok(())
}
