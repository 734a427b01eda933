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
    /// Challenges between gangs: issue, answer, list.
    Challenge {
        #[command(subcommand)]
        command: super::challenge::ChallengeCommand,
    },
    /// Who plays whom in the cycle: make, show.
    Pairings {
        #[command(subcommand)]
        command: super::pairings::PairingsCommand,
    },
    /// The arbitrator's table: the cycle and who has played how many, its
    /// pairings and challenges, the standings; in a league, who has not
    /// synced since when (from the server) and the changes left out.
    Season {
        /// Read the members' syncs as the last sync heard them, without
        /// asking the server.
        #[arg(long)]
        offline: bool,
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
        SeasonCommand::Challenge { command } => super::challenge::challenge(session, command),
        SeasonCommand::Pairings { command } => super::pairings::pairings(session, command),
        SeasonCommand::Season { offline, json } => table(session, !offline, json),
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
    show_standings(&view);
    Ok(())
}

fn show_standings(view: &crate::session::StandingsView) {
    say!("{}", view.label);
    for line in &view.lines {
        let (place, rest) = view.said(line);
        say!("{place:>3}. {rest}");
    }
}

/// The arbitrator's table, section by section.
fn table(session: &Session, ask_server: bool, json: bool) -> Result<()> {
    let table = session.season_table(ask_server)?;
    if json {
        return print_json(&table);
    }
    if let Some(cycle) = &table.cycle {
        let limit = cycle.limit.map_or(String::new(), |l| format!(" of {l}"));
        say!("{}", cycle.said);
        for p in &cycle.played {
            say!("  {}: {}{limit} played", p.gang, p.played);
        }
    }
    if let Some(pairings) = &table.pairings {
        say!("{}", pairings.label);
        super::pairings::show(pairings);
    }
    if let Some(challenges) = &table.challenges {
        say!("{}", challenges.label);
        let groups = [
            ("to answer", challenges.to_answer().collect::<Vec<_>>()),
            (
                "issued",
                challenges.issued().filter(|l| !l.to_answer).collect(),
            ),
            ("accepted", challenges.accepted().collect()),
            ("unplayed", challenges.unplayed().collect()),
        ];
        for (what, lines) in groups {
            for line in lines {
                say!("  {what}: {}", line.said);
            }
        }
    }
    if let Some(standings) = &table.standings {
        show_standings(standings);
    }
    if let Some(league) = &table.league {
        let heard = if league.asked {
            "from the server"
        } else {
            "as the last sync heard"
        };
        say!("Last synced ({heard})");
        if let Some(why) = &league.offline {
            say!("  offline: {why}");
        }
        for m in &league.members {
            let when = match (&m.synced_at, m.behind) {
                (Some(at), Some(0)) => format!("{at}, up to date"),
                (Some(at), Some(n)) => {
                    format!("{at}, {n} change{} behind", if n == 1 { "" } else { "s" })
                }
                (Some(at), None) => at.clone(),
                (None, _) => "not yet".to_owned(),
            };
            say!("  {}: {when}", m.login);
        }
        for l in &league.left_out {
            let by =
                l.by.as_deref()
                    .map_or(String::new(), |b| format!(" by {b}"));
            say!("  left out: #{}{by}: {}", l.change, l.said);
        }
    }
    Ok(())
}
