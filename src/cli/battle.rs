//! `rapsheet battle …`, `rapsheet titles` and `rapsheet action`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;
use serde::Serialize;

use super::print_json;
use crate::campaign::battle::BattleReport;
use crate::session::{Recorded, Session};

#[derive(Debug, Subcommand)]
pub enum BattleCommand {
    /// Record a battle from a battle report (docs/battle-report.md).
    Record {
        /// The report, a JSON file (`-` reads standard input).
        report: PathBuf,
        /// Seed for the rolls the procedure makes.
        #[arg(long)]
        seed: Option<u64>,
        /// Show every change without making it.
        #[arg(long)]
        dry_run: bool,
        #[arg(long)]
        json: bool,
    },
    /// Take back the newest battle.
    Undo,
    /// List the battles.
    List {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Serialize)]
struct RecordOutput<'a> {
    dry_run: bool,
    #[serde(flatten)]
    recorded: &'a Recorded,
}

fn read_report(path: &std::path::Path) -> Result<BattleReport> {
    let text = if path.as_os_str() == "-" {
        crate::input::read_stdin(crate::input::Kind::Report)?
    } else {
        crate::input::read_text(path, crate::input::Kind::Report)?
    };
    serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}: line {}, column {}: {}",
            crate::text::path(path),
            e.line(),
            e.column(),
            e
        )
    })
}

pub(super) fn battle(session: &mut Session, command: BattleCommand) -> Result<()> {
    match command {
        BattleCommand::Record {
            report,
            seed,
            dry_run,
            json,
        } => {
            let parsed = read_report(&report)?;
            let seed = seed.unwrap_or_else(crate::dice::seed_from_clock);
            let recorded = if dry_run {
                let procedure = session.preview_battle(&parsed, seed)?.into_procedure();
                Recorded {
                    battle: procedure.battle.id,
                    batch: None,
                    procedure,
                }
            } else {
                // A backup before the record, as the app makes one.
                if let Some(folder) = crate::paths::backups_dir() {
                    session.keep_backups_in(&folder, Default::default());
                }
                session.record_battle(&parsed, seed)?
            };
            if json {
                return print_json(&RecordOutput {
                    dry_run,
                    recorded: &recorded,
                });
            }
            let verb = if dry_run { "Would record" } else { "Recorded" };
            say!(
                "{verb} {} #{} (rolls from seed {})",
                session.record_noun(&recorded.procedure.battle.ruleset),
                recorded.battle,
                recorded.procedure.seed
            );
            let pack = session.pack(&recorded.procedure.battle.ruleset).ok();
            print_changes(
                &recorded.procedure.changes,
                &recorded.procedure.needed,
                pack,
            );
            for warning in &recorded.procedure.warnings {
                say!(
                    "  warning: {}: {} ({})",
                    warning.field,
                    warning.text,
                    warning.source
                );
            }
            Ok(())
        }
        BattleCommand::Undo => {
            let ruleset = session.battles()?.pop().map(|b| b.ruleset);
            let (battle, _) = session.undo_last_battle()?;
            let noun = ruleset.map_or_else(|| "record".to_owned(), |r| session.record_noun(&r));
            say!("Took back {noun} #{battle}");
            Ok(())
        }
        BattleCommand::List { json } => {
            let battles = session.battles()?;
            if json {
                return print_json(&battles);
            }
            let names = session.names()?;
            for b in battles {
                let event = crate::campaign::Event::BattleRecorded { battle: b };
                say!("{}", event.describe(&names));
            }
            Ok(())
        }
    }
}

/// What a procedure changes, a line each, each ruling once, numbered,
/// after the changes it decided; then the choices still to make, a roll's
/// by its name in the report and, beside it, as the pack calls it.
pub(super) fn print_changes(
    changes: &[crate::campaign::battle::ChangeLine],
    needed: &[crate::campaign::battle::NeededChoice],
    pack: Option<&crate::rules::Pack>,
) {
    let mut rulings: Vec<&str> = Vec::new();
    for change in changes {
        let mut line = format!("  {}", change.said());
        if let Some(ruling) = &change.ruling {
            let n = match rulings.iter().position(|r| r == ruling) {
                Some(i) => i + 1,
                None => {
                    rulings.push(ruling);
                    rulings.len()
                }
            };
            line.push_str(&format!(" [ruling {n}]"));
        }
        say!("{line}");
    }
    for needed in needed {
        let titled = pack
            .filter(|_| needed.field == "picks")
            .map(|p| p.roll_title(&needed.rule))
            .filter(|title| *title != needed.rule)
            .map_or_else(String::new, |title| format!(" ({title})"));
        say!(
            "  needs a choice ({}): {} for “{}”{titled}: {}",
            needed.field,
            needed.gang,
            needed.rule,
            needed.options.join(" or ")
        );
    }
    for (i, ruling) in rulings.iter().enumerate() {
        say!("  ruling {}: {ruling}", i + 1);
    }
}

#[derive(Debug, Subcommand)]
pub enum TitlesCommand {
    /// A gang that qualifies for several titles chooses the one it keeps.
    Choose { gang: String, title: String },
}

pub(super) fn choose_title(session: &mut Session, gang: &str, title: &str) -> Result<()> {
    let gang = session.gang_named(gang)?;
    let batch = session.choose_title(gang.id, title)?;
    let label = session.batch_label(batch)?;
    say!("{label}");
    titles(session, Some(gang.ruleset), false)
}

pub(super) fn titles(session: &Session, ruleset: Option<String>, json: bool) -> Result<()> {
    let ruleset = match ruleset {
        Some(r) => r,
        None => session.info()?.default_ruleset,
    };
    let view = session.titles(&ruleset)?;
    if json {
        return print_json(&view);
    }
    for t in &view.titles {
        let leading = match (&t.holder, &t.would_go_to) {
            (held, leader) if held == leader => String::new(),
            (_, Some(leader)) => format!(" (leading now: {leader})"),
            (_, None) => " (leading now: nobody)".to_owned(),
        };
        say!(
            "{} ({}): {}{leading}",
            t.name,
            t.measure,
            match (&t.holder, &t.holder_leader) {
                (Some(gang), Some(leader)) => format!("{leader} of {gang}"),
                (Some(gang), None) => gang.clone(),
                (None, _) => "nobody".to_owned(),
            }
        );
    }
    for (gang, titles) in &view.must_choose {
        say!(
            "{gang} qualifies for {} and must choose one: rapsheet titles choose \"{gang}\" TITLE",
            titles.join(" and ")
        );
    }
    Ok(())
}

pub(super) fn action(
    session: &mut Session,
    name: &str,
    gang: &str,
    target: Option<&str>,
    choice: Option<&str>,
    json: bool,
) -> Result<()> {
    let gang = session.gang_named(gang)?;
    let target = target.map(|t| session.gang_named(t)).transpose()?;
    let batch = session.take_action(gang.id, name, target.as_ref().map(|t| t.id), choice)?;
    let mut touched = vec![gang.id];
    touched.extend(target.map(|t| t.id));
    super::edit::standings(session, &touched, batch, json)
}
