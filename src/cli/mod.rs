//! The `rapsheet` command line: the same core as the GUI, headless, for
//! scripts and tests. Machine-readable output is JSON on stdout; an error
//! is one line on stderr and a non-zero exit. Nothing a user typed reaches
//! the terminal raw: human-readable lines go through `say!`, JSON through
//! `print_json`, both of which show control characters escaped.

/// `println!` for the terminal: the whole line with its control characters
/// shown as `\u{1b}`, so a name, note or reason holding an escape sequence
/// is seen rather than obeyed by the terminal. Line breaks stay.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::out(&format!("{}\n", $crate::text::visible(&format!($($arg)*))))
    };
}

/// `say!` for standard error.
macro_rules! say_err {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::text::visible(&format!($($arg)*)))
    };
}

mod backup;
mod battle;
mod bundle;
mod campaign;
mod challenge;
mod edit;
mod export;
mod gang;
mod history;
mod league;
mod merge;
mod pack;
mod pairings;
mod print;
mod roll;
mod scenario;
mod season;
mod setting;
mod table;

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::{Parser, Subcommand};
use serde::Serialize;

use crate::print::PageSize;
use crate::session::Session;

#[derive(Debug, Parser)]
#[command(
    name = "rapsheet",
    version,
    about = "Campaign manager for gang-skirmish wargames",
    long_about = "Campaign manager for gang-skirmish wargames.\n\n\
                  With no command, opens the app on FILE (as a desktop opens a \
                  .rapsheet file), on --db FILE, or on the last campaign, or on \
                  a demo campaign in the platform data directory."
)]
pub struct Cli {
    /// A campaign file to open in the app.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The campaign file.
    #[arg(long, global = true, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// A ruleset pack file read beside the built-in ones (a group's own
    /// game, or its house rules); repeat for more.
    #[arg(long = "pack", global = true, value_name = "FILE")]
    pub packs: Vec<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a campaign file holding two demo gangs.
    Demo {
        /// The pack the demo is played with (default: the primary
        /// system's); `rapsheet rulesets` lists the packs.
        #[arg(long)]
        ruleset: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Create an empty campaign file.
    New {
        /// The campaign's name.
        #[arg(long, default_value = "New campaign")]
        name: String,
        /// The pack new gangs use by default (default: the primary
        /// system's book rules; house rules are chosen by id).
        #[arg(long)]
        ruleset: Option<String>,
    },
    /// List the ruleset packs this build has.
    Rulesets {
        #[arg(long)]
        json: bool,
    },
    /// Check a ruleset pack file (an override may name a built-in base).
    CheckPack {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema of the pack format (for an editor that checks
    /// a pack as it is typed).
    PackSchema {
        /// Write it to this file instead.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Replace the file if it is there.
        #[arg(long, requires = "out")]
        force: bool,
    },
    /// House rules kept in the campaign: keep, drop, list.
    House {
        #[command(subcommand)]
        command: pack::HouseCommand,
    },
    /// Gangs: found, list, show.
    Gang {
        #[command(subcommand)]
        command: gang::GangCommand,
    },
    /// Fighters: recruit, show, heal.
    Fighter {
        #[command(subcommand)]
        command: gang::FighterCommand,
    },
    /// Captives: ransom, release or sell a fighter held by a rival gang, or see their price.
    Captive {
        #[command(subcommand)]
        command: gang::CaptiveCommand,
    },
    /// Bundles: a gang (or every gang) written out, or brought in.
    Bundle {
        #[command(subcommand)]
        command: bundle::BundleCommand,
    },
    /// Merge another copy of this campaign (one that recorded other
    /// battles since they parted) into a new file; conflicts are chosen
    /// by number, and neither copy is written to.
    Merge(merge::MergeArgs),
    /// A campaign shared through a league's server: init, invite, join,
    /// sync, status, who, upgrade.
    League {
        #[command(subcommand)]
        command: league::LeagueCommand,
        /// Write to the league in this format at most, as an older build
        /// would (tests of two builds side by side).
        #[arg(long, global = true, hide = true, value_name = "N")]
        league_format: Option<i64>,
    },
    /// The campaign's backups: list them, or make one now.
    Backup {
        #[command(subcommand)]
        command: backup::BackupCommand,
    },
    /// The choices a rule text leaves to the group: list them, or choose
    /// an option (`rapsheet setting plot-refresh story`).
    Setting {
        /// The setting's id or label; left out, every setting is listed.
        setting: Option<String>,
        /// The option to choose, by id or label.
        option: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Change the campaign's ruleset (and every gang that played the old one).
    Ruleset {
        /// The pack's id (see `rapsheet rulesets`).
        pack: String,
    },
    /// Adjust a gang's resource, with a reason for the log.
    Resource {
        /// Resource id or label (`supply`, `Reputation`).
        resource: String,
        /// The change, e.g. `2` or `-1`.
        #[arg(allow_hyphen_values = true)]
        delta: i64,
        #[arg(long)]
        gang: String,
        #[arg(long)]
        reason: String,
        #[arg(long)]
        json: bool,
    },
    /// Battles: record from a report, undo, list.
    Battle {
        #[command(subcommand)]
        command: battle::BattleCommand,
    },
    /// Who holds each title, and how the gangs stand.
    Titles {
        #[command(subcommand)]
        command: Option<battle::TitlesCommand>,
        /// The ruleset (default: the campaign's).
        #[arg(long)]
        ruleset: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Take a resource action between battles.
    Action {
        /// The action's name or id (`Falsify Scarcity`).
        name: String,
        #[arg(long)]
        gang: String,
        /// The gang it takes from.
        #[arg(long)]
        target: Option<String>,
        /// The resource it takes, where it offers a choice.
        #[arg(long)]
        choice: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Roll dice: `d6`, `2d6+1`, `5 on 4+`.
    Roll {
        expression: String,
        #[arg(long)]
        seed: Option<u64>,
        /// The ruleset whose dice rules apply (default: the primary system's book rules).
        #[arg(long)]
        ruleset: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Look a roll up on a pack's table: what does a 9 mean?
    Table {
        /// The table's id (`seize-control`).
        table: String,
        /// The ruleset (default: the one the campaign plays, with --db;
        /// else the primary system's book rules).
        #[arg(long)]
        ruleset: Option<String>,
        /// The total rolled at the table.
        #[arg(long, allow_hyphen_values = true)]
        total: Option<i64>,
        /// Roll it with this seed instead (with --total, the seed of the
        /// further rolls a "roll twice" row asks for).
        #[arg(long)]
        seed: Option<u64>,
        /// A modifier of the table's, by id; repeat for each.
        #[arg(long = "modifier", value_name = "MODIFIER")]
        modifiers: Vec<String>,
        /// The fighter the roll is for (with --db): the table's modifiers
        /// that come from a fighter's stat or counter apply.
        #[arg(long)]
        fighter: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Print fighter cards to PDF (every gang's, one gang's, or chosen fighters').
    Cards(print::CardsArgs),
    /// Print a gang's roster sheet to PDF.
    Roster {
        /// The gang (also as `--gang`).
        #[arg(
            value_name = "GANG",
            required_unless_present = "gang",
            conflicts_with = "gang"
        )]
        named: Option<String>,
        #[arg(long)]
        gang: Option<String>,
        #[arg(long, value_enum, ignore_case = true, default_value_t = PageSize::A4)]
        page: PageSize,
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// Replace the output file if one is already there.
        #[arg(long)]
        force: bool,
    },
    /// Export the chronicle of an arc or of the campaign.
    Export {
        #[command(subcommand)]
        command: export::ExportCommand,
    },
    /// Scenarios: which two gangs may play next, and a roll among them.
    Scenario {
        #[command(subcommand)]
        command: scenario::ScenarioCommand,
    },
    /// Arcs: list, close.
    Arc {
        #[command(subcommand)]
        command: export::ArcCommand,
    },
    /// Make a large campaign through the real procedure (for benchmarks).
    /// On an existing file, battles are fought between its gangs too.
    Gen {
        #[arg(long, default_value_t = 200)]
        gangs: usize,
        #[arg(long, default_value_t = 12)]
        fighters_per_gang: usize,
        #[arg(long, default_value_t = 5000)]
        battles: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Flush every battle to disk as the app does, instead of the
        /// faster bulk mode.
        #[arg(long)]
        durable: bool,
    },
    /// Check the file: SQLite integrity, and that replaying the whole log
    /// gives exactly the stored state. Exits 1 when something is wrong.
    Verify,
    /// The campaign log, newest first.
    Log {
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// Take back the newest change still in effect (in a league, this
    /// member's own newest), or the change `--change N` (as `rapsheet log`
    /// numbers it: the organiser taking back a member's change).
    Undo {
        #[arg(long, value_name = "N")]
        change: Option<i64>,
    },
    /// Redo the newest undo (until a new change is made).
    Redo,
    #[command(flatten)]
    Season(season::SeasonCommand),
}

/// The command line as it is read: [`Cli`]'s, with every argument that
/// takes a whole number taking a negative one as its value (`--amount -1`
/// is a value to check, not a flag nobody knows).
pub fn command() -> clap::Command {
    fn numbers(cmd: clap::Command) -> clap::Command {
        cmd.mut_args(|arg| {
            if takes_a_number(&arg) {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
        .mut_subcommands(numbers)
    }
    use clap::CommandFactory as _;
    numbers(Cli::command())
}

/// Whether an argument's value is a whole number.
pub fn takes_a_number(arg: &clap::Arg) -> bool {
    use std::any::TypeId;
    let kind = arg.get_value_parser().type_id();
    [
        TypeId::of::<i64>(),
        TypeId::of::<i32>(),
        TypeId::of::<u64>(),
        TypeId::of::<u32>(),
        TypeId::of::<usize>(),
    ]
    .into_iter()
    .any(|t| kind == t)
}

/// The command line of this process, read by [`command`].
pub fn parse() -> Result<Cli, clap::Error> {
    use clap::FromArgMatches as _;
    let matches = command().try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// A command line clap refused, in one line, as every other error is:
/// a value it does not take (`--size tarot: expected poker or large`), an
/// argument it does not know, one missing, a command with none of its
/// own commands named, each with where to read more (`see `rapsheet gang
/// new --help``). `args` are the command line's arguments, the program's
/// name first. `None` for help and the version, which are no errors.
pub fn one_line_usage_error(err: &clap::Error, args: &[String]) -> Option<String> {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return None;
    }
    if let Some(line) = one_line_value_error(err) {
        return Some(line);
    }
    let (path, subcommands) = command_named(args);
    let more = format!("see `{path} --help`");
    if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return Some(if subcommands.is_empty() {
            format!("`{path}` needs more: {more}")
        } else {
            format!(
                "`{path}` needs a command: {}; {more}",
                subcommands.join(", ")
            )
        });
    }
    let rendered = err.render().to_string();
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let tip = lines
        .find_map(|l| l.strip_prefix("tip: "))
        .map_or_else(String::new, |tip| format!(" ({tip})"));
    Some(format!("{first}{tip}; {more}"))
}

/// A value the command line does not take, in one line:
/// `--size tarot: expected poker or large`, or our own parser's reason.
fn one_line_value_error(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if !matches!(
        err.kind(),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation
    ) {
        return None;
    }
    let text = |kind| match err.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(s)) => Some(s.join(", ")),
        _ => None,
    };
    let arg = text(ContextKind::InvalidArg)?;
    let flag = arg.split_whitespace().next().unwrap_or(&arg).to_owned();
    let value = text(ContextKind::InvalidValue)?;
    // A value our own parser refused: its reason, already in words.
    if err.kind() == ErrorKind::ValueValidation {
        let reason = std::error::Error::source(err)?.to_string();
        return Some(format!("{flag} {value}: {reason}"));
    }
    let expected = match err.get(ContextKind::ValidValue) {
        Some(ContextValue::Strings(values)) => match values.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => return None,
        },
        _ => return None,
    };
    Some(format!("{flag} {value}: expected {expected}"))
}

/// The command `args` name (`rapsheet gang new`), read as far as it names
/// commands, with the commands it has of its own.
fn command_named(args: &[String]) -> (String, Vec<String>) {
    let root = command();
    let mut cmd = root.clone();
    let mut path = vec!["rapsheet".to_owned()];
    let mut skip_value = false;
    for arg in args.iter().skip(1) {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            // A flag's value may follow it: skip that too.
            skip_value = !long.contains('=')
                && cmd
                    .get_arguments()
                    .chain(root.get_arguments())
                    .find(|a| a.get_long() == Some(long))
                    .is_some_and(|a| a.get_action().takes_values());
            continue;
        }
        if arg.starts_with('-') {
            continue;
        }
        match cmd.find_subcommand(arg).cloned() {
            Some(sub) => {
                path.push(sub.get_name().to_owned());
                cmd = sub;
            }
            None => break,
        }
    }
    let subcommands = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| s.get_name().to_owned())
        .collect();
    (path.join(" "), subcommands)
}

/// An argument whose bytes are not UTF-8 text, in one line naming the
/// argument (`NAME`, `--gang`) and showing what was given, instead of
/// clap's usage block, which names none. `args` are the command line's
/// arguments, the program's name first. `None` when every argument is
/// text.
pub fn non_utf8_argument(args: &[std::ffi::OsString]) -> Option<String> {
    let at = args.iter().skip(1).position(|a| a.to_str().is_none())? + 1;
    let given = args.get(at)?.to_string_lossy().into_owned();
    // The same line with that argument given as text: whichever argument
    // takes it is the one to name.
    const MARK: &str = "\u{1}rapsheet-not-text\u{1}";
    let trial: Vec<std::ffi::OsString> = args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            if i == at {
                MARK.into()
            } else {
                a.to_string_lossy().into_owned().into()
            }
        })
        .collect();
    let mut cmd = command().ignore_errors(true);
    let named = cmd
        .try_get_matches_from_mut(&trial)
        .ok()
        .and_then(|m| taker(&cmd, &m, MARK));
    let what = named.unwrap_or_else(|| format!("argument {at}"));
    Some(format!(
        "{what} “{}”: not text (its bytes are not UTF-8); give it as text",
        crate::text::echo(&given)
    ))
}

/// The argument, of `cmd` or the subcommand it ran, that took `value`:
/// `--long` for an option, its value name for a positional one.
fn taker(cmd: &clap::Command, matches: &clap::ArgMatches, value: &str) -> Option<String> {
    if let Some((name, sub)) = matches.subcommand()
        && let Some(found) = cmd.find_subcommand(name).and_then(|c| taker(c, sub, value))
    {
        return Some(found);
    }
    let id = matches.ids().find(|id| {
        matches
            .try_get_raw(id.as_str())
            .ok()
            .flatten()
            .is_some_and(|mut raw| raw.any(|v| v == std::ffi::OsStr::new(value)))
    })?;
    let arg = cmd.get_arguments().find(|a| a.get_id() == id)?;
    Some(match (arg.get_long(), arg.get_value_names()) {
        (Some(long), _) => format!("--{long}"),
        (None, Some([name, ..])) => name.to_string(),
        (None, _) => id.as_str().to_uppercase(),
    })
}

/// Runs a command. `Ok(())` means exit 0.
pub fn run(db: Option<&Path>, command: Command) -> Result<()> {
    run_with_packs(db, &[], command)
}

/// Runs a command with pack files read beside the built-in packs.
pub fn run_with_packs(db: Option<&Path>, packs: &[PathBuf], command: Command) -> Result<()> {
    match command {
        Command::Demo { ruleset, json } => {
            campaign::demo(need_db(db)?, ruleset.as_deref(), packs, json)
        }
        Command::New { name, ruleset } => campaign::new(need_db(db)?, &name, ruleset, packs),
        Command::Rulesets { json } => pack::rulesets(registry(packs)?.packs(), json),
        Command::CheckPack { file, json } => pack::check_pack(&file, json),
        Command::PackSchema { out, force } => pack::pack_schema(out.as_deref(), force),
        Command::House { command } => pack::house(&mut open(db, packs)?, command),
        Command::Gang { command } => gang::gang(&mut open(db, packs)?, command),
        Command::Fighter { command } => gang::fighter(&mut open(db, packs)?, command),
        Command::Captive { command } => gang::captive(&mut open(db, packs)?, command),
        // A whole campaign's bundle makes the campaign file itself.
        Command::Bundle {
            command:
                bundle::BundleCommand::Import {
                    file, whole: true, ..
                },
        } => bundle::import_whole(&file, need_db(db)?, registry(packs)?),
        Command::Bundle { command } => bundle::bundle(&mut open(db, packs)?, command),
        Command::Merge(args) => merge::merge(&open(db, packs)?, args),
        Command::League {
            command,
            league_format,
        } => league::run(db, packs, command, league_format),
        // Restoring needs no campaign open: the backup is the campaign.
        Command::Backup {
            command: backup::BackupCommand::Restore { backup, output },
        } => backup::restore(&backup, &output),
        Command::Backup { command } => backup::backup(&open(db, packs)?, command),
        Command::Setting {
            setting,
            option,
            json,
        } => setting::setting(
            &mut open(db, packs)?,
            setting.as_deref(),
            option.as_deref(),
            json,
        ),
        Command::Ruleset { pack } => campaign::ruleset(&mut open(db, packs)?, &pack),
        Command::Resource {
            resource,
            delta,
            gang,
            reason,
            json,
        } => edit::resource(
            &mut open(db, packs)?,
            (&gang, &resource, delta),
            &reason,
            json,
        ),
        Command::Battle { command } => battle::battle(&mut open(db, packs)?, command),
        Command::Titles {
            command: Some(battle::TitlesCommand::Choose { gang, title }),
            ..
        } => battle::choose_title(&mut open(db, packs)?, &gang, &title),
        Command::Titles {
            command: None,
            ruleset,
            json,
        } => battle::titles(&open(db, packs)?, ruleset, json),
        Command::Action {
            name,
            gang,
            target,
            choice,
            json,
        } => battle::action(
            &mut open(db, packs)?,
            &name,
            &gang,
            target.as_deref(),
            choice.as_deref(),
            json,
        ),
        Command::Roll {
            expression,
            seed,
            ruleset,
            json,
        } => roll::roll(
            &registry(packs)?,
            &expression,
            seed,
            &default_ruleset(ruleset, packs)?,
            json,
        ),
        Command::Table {
            table,
            ruleset,
            total,
            seed,
            modifiers,
            fighter,
            json,
        } => {
            let (pack, from_fighter) = table::pack_for(db, packs, ruleset, fighter, &table)?;
            let asked = table::Asked {
                total,
                seed,
                modifiers: &modifiers,
                from_fighter: &from_fighter,
            };
            table::table(&pack, &table, &asked, json)
        }
        Command::Cards(args) => print::cards(&open(db, packs)?, args),
        Command::Roster {
            named,
            gang,
            page,
            output,
            force,
        } => {
            let gang = named.or(gang).unwrap_or_default();
            print::roster(&open(db, packs)?, &gang, page, &output, force)
        }
        Command::Export { command } => export::export(&open(db, packs)?, command),
        Command::Arc { command } => export::arc(&mut open(db, packs)?, command),
        Command::Scenario { command } => scenario::scenario(&mut open(db, packs)?, command),
        Command::Gen {
            gangs,
            fighters_per_gang,
            battles,
            seed,
            durable,
        } => campaign::generate(
            need_db(db)?,
            packs,
            crate::generator::GenSize {
                gangs,
                fighters_per_gang,
                battles,
                seed,
            },
            durable,
        ),
        Command::Verify => campaign::verify(need_db(db)?, packs),
        Command::Log { limit, json } => history::log(&open(db, packs)?, limit, json),
        Command::Undo { change: Some(n) } => history::undo(&mut open(db, packs)?, n),
        Command::Undo { change: None } => history::undo_last(&mut open(db, packs)?),
        Command::Redo => history::redo_last(&mut open(db, packs)?),
        Command::Season(command) => season::season(&mut open(db, packs)?, command),
    }
}

/// The ruleset given, or the book rules of the primary system.
fn default_ruleset(ruleset: Option<String>, packs: &[PathBuf]) -> Result<String> {
    match ruleset {
        Some(r) => Ok(r),
        None => book_default(packs),
    }
}

/// The pack a new campaign plays unless told otherwise: the book rules of
/// the primary system.
fn book_default(packs: &[PathBuf]) -> Result<String> {
    registry(packs)?
        .book_default()
        .map(str::to_owned)
        .context("this build has no ruleset pack")
}

fn need_db(db: Option<&Path>) -> Result<&Path> {
    db.context("this command needs --db FILE")
}

fn open(db: Option<&Path>, packs: &[PathBuf]) -> Result<Session> {
    let db = need_db(db)?;
    Session::open_with(db, registry(packs)?)
}

/// The built-in packs and the pack files given with `--pack`.
fn registry(packs: &[PathBuf]) -> Result<crate::rules::Registry> {
    crate::session::registry_with(packs)
}

pub(crate) fn print_json<T: Serialize>(value: &T) -> Result<()> {
    out(&format!("{}\n", crate::export::pretty_json(value)?));
    Ok(())
}

/// Set once standard output is closed (a reader such as `head` that has
/// read what it wanted) or failed: what is left to say is dropped.
static OUTPUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Why standard output could not be written, when it was not a closed
/// pipe (a full disk, a device that refuses): the command fails with it.
static OUTPUT_FAILED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Writes to standard output. A closed pipe is the end of the output, not
/// of the command: the command finishes and closes the campaign as it
/// always does, leaving no lock or journal behind, and exits cleanly. Any
/// other write error ends the output too, and is kept for
/// [`output_failure`], so the command fails instead of exiting as if
/// everything had been said.
pub fn out(text: &str) {
    use std::io::Write as _;
    use std::sync::atomic::Ordering;
    if OUTPUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(err) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        OUTPUT_CLOSED.store(true, Ordering::Relaxed);
        if err.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = OUTPUT_FAILED.set(format!("cannot write to standard output: {err}"));
        }
    }
}

/// Why standard output could not be written (other than a reader that
/// closed it), if it could not: the command's output is incomplete.
pub fn output_failure() -> Option<&'static str> {
    OUTPUT_FAILED.get().map(String::as_str)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    /// Every command and subcommand is well formed (no two arguments of
    /// one command share a name): clap checks the whole tree, which it
    /// otherwise does only for the commands a run happens to parse.
    #[test]
    fn every_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
        super::command().debug_assert();
    }
}
