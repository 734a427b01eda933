//! `rapsheet challenge …`: a gang challenging another between records,
//! the defender's answer, the report a record of an accepted one starts
//! from, and every challenge of the season.

use anyhow::{Result, bail};
use clap::Subcommand;

use super::print_json;
use crate::campaign::ChallengeId;
use crate::session::Session;

#[derive(Debug, Subcommand)]
pub enum ChallengeCommand {
    /// Issue a challenge from one of your gangs to another, naming the
    /// holding at stake where the game's rules use one.
    Issue {
        /// The challenging gang.
        challenger: String,
        /// The gang challenged.
        defender: String,
        /// The holding at stake, by name or id.
        #[arg(long)]
        stake: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Answer a challenge aimed at one of your gangs: accept or decline.
    Answer {
        /// The challenge's number (see `rapsheet challenge list`).
        number: i64,
        #[arg(long, conflicts_with = "decline", required_unless_present = "decline")]
        accept: bool,
        #[arg(long)]
        decline: bool,
        #[arg(long)]
        json: bool,
    },
    /// Every challenge of the season, newest first: issued, to answer,
    /// accepted, played, declined and unplayed.
    List {
        #[arg(long)]
        json: bool,
    },
    /// The report a record of an accepted challenge starts from (its two
    /// gangs, shape and stake), as JSON to fill in and record with
    /// `rapsheet battle record`.
    Report { number: i64 },
}

pub(super) fn challenge(session: &mut Session, command: ChallengeCommand) -> Result<()> {
    match command {
        ChallengeCommand::Issue {
            challenger,
            defender,
            stake,
            json,
        } => {
            let issued = session.issue_challenge(&challenger, &defender, stake.as_deref())?;
            if json {
                return print_json(&issued);
            }
            say!("{}", session.batch_label(issued.batch)?);
            Ok(())
        }
        ChallengeCommand::Answer {
            number,
            accept,
            json,
            ..
        } => {
            let answered = session.answer_challenge(ChallengeId(number), accept)?;
            if json {
                return print_json(&answered);
            }
            say!("{}", session.batch_label(answered.batch)?);
            for line in answered.changes.iter().skip(1) {
                say!("  {line}");
            }
            Ok(())
        }
        ChallengeCommand::List { json } => {
            let Some(view) = session.challenges()? else {
                bail!("the campaign's game has no challenges");
            };
            if json {
                return print_json(&view);
            }
            if view.lines.is_empty() {
                say!("{}: none yet", view.label);
            }
            for line in &view.lines {
                let yours = if line.to_answer {
                    " (yours to answer)"
                } else {
                    ""
                };
                say!("{}: {}{yours}", line.cycle_said, line.said);
            }
            Ok(())
        }
        ChallengeCommand::Report { number } => {
            print_json(&session.challenge_report(ChallengeId(number))?)
        }
    }
}
