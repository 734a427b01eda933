//! `rapsheet league`: a campaign shared through a league's PostgreSQL
//! server — set up, invite, join, sync, status and members.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use clap::Subcommand;

use super::print_json;
use crate::campaign::merge::Choice;
use crate::session::Session;
use crate::session::league::{
    LeagueStatus, Pause, Prepared, SYNC_WAIT, ServerAddress, SyncLimits, SyncOutcome, read_invite,
};

/// What `rapsheet league` is told.
#[derive(Debug, Subcommand)]
pub enum LeagueCommand {
    /// Makes an empty PostgreSQL database this campaign's league (the
    /// organiser's login; its password from PGPASSWORD or the password
    /// file), and sends it the campaign's whole log.
    Init {
        #[command(flatten)]
        server: ServerArgs,
        /// Make the server's schema up to this version only, as an older
        /// build would (tests of `league upgrade`).
        #[arg(long, hide = true, value_name = "N")]
        schema: Option<i64>,
    },
    /// Makes an empty database ready for a league (the server's
    /// administrator, a superuser; the password in PGPASSWORD): the
    /// league's roles and schema, and the doorman that lets members in,
    /// so that the organiser needs no right to make logins. Needs no
    /// campaign. On a league already there, applies the schema it lacks.
    Prepare {
        #[command(flatten)]
        server: ServerArgs,
        /// The organiser's login (made before, without CREATEROLE).
        #[arg(long)]
        organiser: String,
    },
    /// Makes a member's login and writes their invite (organiser).
    Invite {
        /// The member's login.
        name: String,
        /// A gang that is theirs (repeat for more).
        #[arg(long = "gang", value_name = "GANG")]
        gangs: Vec<String>,
        /// The invite file: a new file, readable by its owner alone.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Joins a league with an invite: a new campaign file (`--db`) made
    /// from the league's log.
    Join { invite: PathBuf },
    /// Fetches the league's new changes, makes this laptop's again after
    /// them, and sends them.
    Sync {
        /// A conflict's choice: `N=league` (the server's stands) or
        /// `N=mine` (this laptop's); repeat for each conflict.
        #[arg(long = "take", value_name = "N=CHOICE", value_parser = parse_take)]
        take: Vec<(usize, Choice)>,
        #[arg(long)]
        json: bool,
        /// The fault harness's: stop a minute at this point of the sync
        /// (`before-send`, `after-send`), saying so on standard error.
        #[arg(long, value_name = "POINT", value_parser = parse_pause, hide = true)]
        pause_at: Option<Pause>,
        /// How many seconds the whole sync may take at most (60 where not
        /// given), whatever the server does.
        #[arg(long, value_name = "SECONDS", hide = true)]
        wait: Option<u64>,
    },
    /// Synced, changes to send and to fetch, the last sync.
    Status {
        /// Only what this file knows: the server is not asked.
        #[arg(long)]
        offline: bool,
        #[arg(long)]
        json: bool,
    },
    /// The members and their gangs.
    Who {
        #[arg(long)]
        json: bool,
    },
    /// Gives a member another gang, from whoever had it (organiser).
    Give {
        /// The member's login.
        login: String,
        #[arg(long, value_name = "GANG")]
        gang: String,
    },
    /// Vouches for a member's new key (organiser), once they said they
    /// moved to another laptop: a signed change of yours from which every
    /// laptop takes in what that key signs.
    Vouch {
        /// The member's login.
        login: String,
    },
    /// Takes a gang from its member: nobody's until given again
    /// (organiser).
    TakeAway {
        #[arg(long, value_name = "GANG")]
        gang: String,
    },
    /// Trusts the server's renewed certificate (PEM) from now on, checked
    /// by connecting with it; the organiser's invites made after carry it.
    Certificate {
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Finds the league at another server from now on (restored on a new
    /// host): its address and certificate, checked by connecting first.
    Move {
        #[arg(long)]
        host: String,
        #[arg(long, default_value_t = 5432)]
        port: u16,
        /// The database there; the same name where not given.
        #[arg(long)]
        database: Option<String>,
        /// The new server's certificate (PEM).
        #[arg(long, value_name = "FILE")]
        certificate: PathBuf,
    },
    /// Brings the league's server to this Rapsheet (organiser): the
    /// schema it lacks, and the league's format raised to the newest this
    /// Rapsheet writes. Once every member has updated: an older Rapsheet
    /// can no longer send changes.
    Upgrade {
        #[arg(long)]
        json: bool,
    },
}

/// Where a league's server is and who connects to it, as `init` and
/// `prepare` are told.
#[derive(Debug, clap::Args)]
pub struct ServerArgs {
    #[arg(long)]
    host: String,
    #[arg(long, default_value_t = 5432)]
    port: u16,
    #[arg(long)]
    database: String,
    /// The login that connects: the organiser's for `init`, the server's
    /// administrator's for `prepare`.
    #[arg(long)]
    login: String,
    /// The server's certificate (PEM), the only one trusted.
    #[arg(long, value_name = "FILE")]
    certificate: PathBuf,
}

impl ServerArgs {
    /// The server's address, its certificate read, and the password of
    /// `whose` login from PGPASSWORD.
    fn read(self, whose: &str) -> Result<(ServerAddress, String)> {
        let certificate =
            crate::input::read_text(&self.certificate, crate::input::Kind::Certificate)?;
        let password = std::env::var("PGPASSWORD")
            .with_context(|| format!("give the {whose}'s password in PGPASSWORD"))?;
        Ok((
            ServerAddress {
                host: self.host,
                port: self.port,
                database: self.database,
                login: self.login,
                certificate,
            },
            password,
        ))
    }
}

fn parse_take(s: &str) -> Result<(usize, Choice), String> {
    let (n, choice) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not N=CHOICE (say 2=mine)"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a conflict's number"))?;
    match choice.trim() {
        "league" => Ok((n, Choice::Ours)),
        "mine" => Ok((n, Choice::Theirs)),
        other => Err(format!("`{other}` is not league or mine")),
    }
}

fn parse_pause(s: &str) -> Result<Pause, String> {
    match s {
        "before-send" => Ok(Pause::BeforeSend),
        "after-send" => Ok(Pause::AfterSend),
        other => Err(format!("`{other}` is not before-send or after-send")),
    }
}

/// `rapsheet league prepare`: the server's administrator's, with no
/// campaign.
pub(super) fn prepare(command: LeagueCommand) -> Result<()> {
    let LeagueCommand::Prepare { server, organiser } = command else {
        bail!("not `league prepare`");
    };
    let (server, password) = server.read("administrator")?;
    let prepared = Session::league_prepare(&server, &password, &organiser)?;
    let at = format!(
        "{}:{}/{}",
        crate::text::one_line(&server.host),
        server.port,
        crate::text::one_line(&server.database)
    );
    let organiser = crate::text::one_line(&organiser);
    match prepared {
        Prepared::Made { schema } => {
            say!("{at} is ready for a league organised by {organiser}: schema {schema}")
        }
        Prepared::Upgraded { before, after } => {
            say!("The league's server is at schema {after} (was {before})")
        }
        Prepared::Restored { schema, batches } => say!(
            "{at} is restored for a league organised by {organiser}: schema {schema}, {}",
            crate::rules::counted(usize::try_from(batches).unwrap_or(0), "change", "changes")
        ),
    }
    Ok(())
}

/// `rapsheet league …`: joining makes the campaign file, preparing a
/// server needs none, every other command works on the campaign open,
/// written in `league_format` at most where one is given.
pub(super) fn run(
    db: Option<&Path>,
    packs: &[std::path::PathBuf],
    command: LeagueCommand,
    league_format: Option<i64>,
) -> Result<()> {
    match command {
        LeagueCommand::Join { invite } => join(&invite, super::need_db(db)?, league_format),
        command @ LeagueCommand::Prepare { .. } => prepare(command),
        command => {
            let mut session = super::open(db, packs)?;
            if let Some(format) = league_format {
                session.write_league_format(format);
            }
            league(&mut session, command)
        }
    }
}

/// `rapsheet league join`: needs no campaign open, it makes one.
pub(super) fn join(invite: &Path, db: &Path, format: Option<i64>) -> Result<()> {
    let invite = read_invite(invite)?;
    let format = format.unwrap_or_else(Session::newest_league_format);
    // On a terminal, how far a long join is, on one line.
    let shown = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let session = Session::league_join_watched(&invite, db, None, format, &mut |p| {
        if shown && p.of > 0 {
            eprint!("\rTaken in {} of {} changes", p.taken, p.of);
            if p.taken == p.of {
                eprintln!();
            }
        }
    })?;
    let tie = session
        .league()?
        .context("the joined campaign has no league")?;
    say!(
        "Joined the league at {}:{}/{} as {}: {}, verified",
        crate::text::one_line(&tie.host),
        tie.port,
        crate::text::one_line(&tie.database),
        crate::text::one_line(&tie.login),
        crate::rules::counted(
            usize::try_from(tie.synced).unwrap_or(0),
            "change",
            "changes"
        )
    );
    Ok(())
}

pub(super) fn league(session: &mut Session, command: LeagueCommand) -> Result<()> {
    match command {
        LeagueCommand::Init { server, schema } => {
            let (server, password) = server.read("organiser")?;
            let schema = schema.unwrap_or_else(Session::league_schema_version);
            let sent = session.league_init_to(&server, &password, schema)?;
            say!(
                "The league is set up at {}:{}/{}; sent the campaign's {sent} changes",
                crate::text::one_line(&server.host),
                server.port,
                crate::text::one_line(&server.database)
            );
            Ok(())
        }
        LeagueCommand::Invite {
            name,
            gangs,
            output,
        } => {
            let output = output.unwrap_or_else(|| PathBuf::from(format!("{name}.invite")));
            session.league_invite(&name, &gangs, &output)?;
            say!(
                "Wrote the invite for {name} to {} (it holds the password: hand it over privately)",
                crate::text::path(&output)
            );
            Ok(())
        }
        LeagueCommand::Join { .. } => bail!("`league join` makes a new campaign file"),
        LeagueCommand::Prepare { .. } => bail!("`league prepare` needs no campaign"),
        LeagueCommand::Sync {
            take,
            json,
            pause_at,
            wait,
        } => {
            let limits = SyncLimits {
                wait: wait.map_or(SYNC_WAIT, std::time::Duration::from_secs),
                cancel: None,
            };
            sync(session, &take, json, pause_at, &limits)
        }
        LeagueCommand::Status { offline, json } => {
            let status = session.league_status(!offline)?;
            if json {
                print_json(&status)
            } else {
                show_status(&status);
                Ok(())
            }
        }
        LeagueCommand::Give { login, gang } => {
            session.league_give(&login, &gang)?;
            say!("{} is {login}'s now", crate::text::one_line(&gang));
            Ok(())
        }
        LeagueCommand::Vouch { login } => {
            let (key, synced) = session.league_vouch(&login)?;
            say!(
                "Vouched for {}'s new key {}…: what it signs is taken in on every laptop from now on",
                crate::text::one_line(&login),
                key.chars().take(16).collect::<String>()
            );
            show_sync(&synced);
            Ok(())
        }
        LeagueCommand::TakeAway { gang } => {
            session.league_take_away(&gang)?;
            say!("{} is no member's now", crate::text::one_line(&gang));
            Ok(())
        }
        LeagueCommand::Certificate { file } => {
            let certificate = crate::input::read_text(&file, crate::input::Kind::Certificate)?;
            session.league_pin_certificate(&certificate)?;
            say!(
                "This campaign trusts the certificate in {} for its league from now on",
                crate::text::path(&file)
            );
            Ok(())
        }
        LeagueCommand::Move {
            host,
            port,
            database,
            certificate,
        } => {
            let certificate =
                crate::input::read_text(&certificate, crate::input::Kind::Certificate)?;
            let database = match database {
                Some(database) => database,
                None => {
                    session
                        .league()?
                        .context("this campaign is not in a league")?
                        .database
                }
            };
            session.league_move(&host, port, &database, &certificate)?;
            say!(
                "This campaign finds its league at {}:{port}/{} from now on",
                crate::text::one_line(&host),
                crate::text::one_line(&database)
            );
            Ok(())
        }
        LeagueCommand::Upgrade { json } => {
            let upgraded = session.league_upgrade()?;
            if json {
                return print_json(&upgraded);
            }
            say!(
                "The league's server is at schema {} (was {}); its changes are written in format {} (was {})",
                upgraded.schema,
                upgraded.schema_before,
                upgraded.format,
                upgraded.format_before
            );
            Ok(())
        }
        LeagueCommand::Who { json } => {
            let members = session.league_members()?;
            if json {
                return print_json(&members);
            }
            let (words, _) = session.campaign_words()?;
            for m in members {
                let role = if m.organiser { " (organiser)" } else { "" };
                let gangs = if m.gangs.is_empty() {
                    format!("no {}", words.gang)
                } else {
                    m.gangs.join(", ")
                };
                say!("{}{role}: {gangs}", m.login);
            }
            Ok(())
        }
    }
}

fn sync(
    session: &mut Session,
    take: &[(usize, Choice)],
    json: bool,
    pause: Option<Pause>,
    limits: &SyncLimits,
) -> Result<()> {
    let mut choices: Vec<Option<Choice>> = Vec::new();
    for (n, choice) in take {
        let i = n.checked_sub(1).context("conflicts are numbered from 1")?;
        if choices.len() <= i {
            choices.resize(i + 1, None);
        }
        choices[i] = Some(*choice);
    }
    let outcome = session.league_sync_within(&choices, pause, limits)?;
    if json {
        print_json(&outcome)?;
    } else {
        show_sync(&outcome);
    }
    match outcome {
        SyncOutcome::Synced { .. } => Ok(()),
        SyncOutcome::Conflicts { conflicts } => bail!(
            "nothing was sent: choose each conflict with --take N=league|mine ({} to choose)",
            conflicts.len()
        ),
        SyncOutcome::Offline { reason } => {
            bail!("offline ({reason}); every change stays on this laptop")
        }
        SyncOutcome::Refused { .. }
        | SyncOutcome::NoLongerFits { .. }
        | SyncOutcome::TooNew { .. }
        | SyncOutcome::HistoryChanged { .. }
        | SyncOutcome::Cancelled => {
            bail!("{}", lowercase_first(&outcome.headline()))
        }
    }
}

/// A headline as an error line goes on (`rapsheet: the league's …`).
fn lowercase_first(line: &str) -> String {
    let mut chars = line.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

fn show_sync(outcome: &SyncOutcome) {
    match outcome {
        SyncOutcome::Synced {
            left_out,
            new_keys,
            came_in,
            ..
        } => {
            say!("{}", outcome.headline());
            if let Some(line) = came_in {
                say!("  came in: {line}");
            }
            for line in left_out {
                say!("  left out: {line}");
            }
            for line in new_keys {
                say!("  new key: {line}");
            }
        }
        SyncOutcome::Conflicts { conflicts } => {
            for c in conflicts {
                say!("Conflict {}: {}", c.number, c.subject);
                for line in &c.ours {
                    say!("  league: {line}");
                }
                for line in &c.theirs {
                    say!("  mine:   {line}");
                }
            }
        }
        SyncOutcome::Refused { fetched, sent, .. } => {
            say!("Fetched {fetched}, sent {sent}");
        }
        SyncOutcome::Offline { .. }
        | SyncOutcome::NoLongerFits { .. }
        | SyncOutcome::TooNew { .. }
        | SyncOutcome::HistoryChanged { .. }
        | SyncOutcome::Cancelled => {}
    }
}

fn show_status(status: &LeagueStatus) {
    say!(
        "League: {} as {}",
        crate::text::one_line(&status.server),
        crate::text::one_line(&status.login)
    );
    say!("  {}", status.short());
    say!("  changes from the league here: {}", status.synced);
    if let Some(at) = &status.last_sync {
        say!("  last sync: {at}");
    }
    if let Some(why) = &status.offline {
        say!("  offline: {why}");
    }
}
