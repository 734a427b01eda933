//! A campaign shared through a league's PostgreSQL server, every laptop
//! keeping its own file and working offline as ever.
//!
//! The rooms:
//! - `mod.rs` (here): setting a league up (`init`), inviting a member,
//!   joining with an invite, the members, and the league's state as this
//!   laptop knows it;
//! - `sync.rs`: a sync — the server's new batches fetched and replayed,
//!   this laptop's unsent ones made again after them through the merge,
//!   then sent at the server's head;
//! - `chain.rs`: the league's format and chain of batches, checked
//!   before a sync takes anything in;
//! - `passwords.rs`: the player's password file.
//!
//! The server decides order, durability and who may write what; this
//! laptop only asks it (`store::league`).

mod came_in;
mod chain;
mod keys;
mod passwords;
pub(crate) mod remake;
mod sync;

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use super::Session;
use crate::campaign::LoggedBatch;
pub use crate::store::league::Prepared;
use crate::store::league::{Address, League, NEWEST_FORMAT, ServerBatch};
use crate::store::{BatchName, LeagueTie};

pub use sync::{Pause, SYNC_WAIT, SyncConflict, SyncLimits, SyncOutcome};

/// What an invite file holds: where the league's server is, the member's
/// login and password, and the league's certificate. Handed over
/// privately; joining moves the password into the player's password file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Invite {
    pub host: String,
    pub port: u16,
    pub database: String,
    pub login: String,
    pub password: String,
    pub certificate: String,
}

/// The league as this laptop knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeagueStatus {
    /// `host:port/database`.
    pub server: String,
    pub login: String,
    /// The server's batches this file holds.
    pub synced: i64,
    /// This laptop's changes not yet sent.
    pub to_send: usize,
    /// The server's changes not yet here, where the server was asked.
    pub to_fetch: Option<i64>,
    /// When this file last met the server.
    pub last_sync: Option<String>,
    /// Why the server could not be asked, where it was asked and could
    /// not be reached.
    pub offline: Option<String>,
    /// The league's format, where the server was asked and it is newer
    /// than this Rapsheet writes (it cannot sync until updated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub newer_format: Option<i64>,
}

impl LeagueStatus {
    /// The status in a few words, for the status bar: `synced`, `3 changes
    /// to send`, `offline`; `nothing to send` where the server was not
    /// asked what waits there.
    pub fn short(&self) -> String {
        let mut parts = Vec::new();
        if self.to_send > 0 {
            parts.push(count(self.to_send as i64, "change", "changes") + " to send");
        }
        if let Some(n) = self.to_fetch.filter(|n| *n > 0) {
            parts.push(count(n, "change", "changes") + " to fetch");
        }
        if self.offline.is_some() {
            parts.push("offline".to_owned());
        }
        if let Some(format) = self.newer_format {
            parts.push(format!(
                "the league is written in format {format}, newer than this Rapsheet writes: update Rapsheet to sync"
            ));
        }
        if parts.is_empty() {
            if self.to_fetch.is_some() {
                "synced"
            } else {
                "nothing to send"
            }
            .to_owned()
        } else {
            parts.join(", ")
        }
    }
}

fn count(n: i64, one: &str, many: &str) -> String {
    crate::rules::counted(usize::try_from(n).unwrap_or(0), one, many)
}

/// How many of the league's changes a join took in so far, of how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JoinProgress {
    pub taken: usize,
    pub of: usize,
}

/// How many of the league's changes a join takes in one transaction.
const JOIN_RUN: usize = 200;

/// How many of the league's changes a join fetches at a time.
const JOIN_PAGE: i64 = 1000;

/// What `league upgrade` did: the server's schema and the league's
/// format, before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Upgraded {
    pub schema_before: i64,
    pub schema: i64,
    pub format_before: i64,
    pub format: i64,
}

/// A member and the gangs that are theirs, by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemberView {
    pub login: String,
    pub organiser: bool,
    pub gangs: Vec<String>,
}

/// Where a new league's server is and who connects to set it up (the
/// organiser, or the server's administrator), with the league's
/// certificate: the server's address as the store knows it.
pub type ServerAddress = Address;

impl Session {
    /// Reads and keeps league passwords in `file` instead of the password
    /// file in the settings folder.
    pub fn keep_league_passwords_in(&mut self, file: std::path::PathBuf) {
        self.league_passwords = Some(file);
    }

    /// The league this campaign is tied to, if it is.
    pub fn league(&self) -> Result<Option<LeagueTie>> {
        Ok(self.store.league()?)
    }

    fn tie(&self) -> Result<LeagueTie> {
        self.league()?.ok_or_else(|| {
            anyhow!(
                "this campaign is not in a league (join one with `rapsheet league join INVITE`)"
            )
        })
    }

    /// The newest format of league batches this build writes: what a
    /// join asks for unless told otherwise.
    pub fn newest_league_format() -> i64 {
        NEWEST_FORMAT
    }

    /// The version of a league server's schema this build makes.
    pub fn league_schema_version() -> i64 {
        crate::store::league::SCHEMA_VERSION
    }

    /// Makes an empty PostgreSQL database this campaign's league, the
    /// login the organiser's: applies the league's schema and sends the
    /// campaign's whole log as the league's first changes, then ties the
    /// file to the league. `password` is kept in the player's password file.
    pub fn league_init(&mut self, server: &ServerAddress, password: &str) -> Result<usize> {
        self.league_init_to(server, password, Self::league_schema_version())
    }

    /// [`Session::league_init`] with the server's schema made only up to
    /// version `schema`, as an older build would make it (for tests of
    /// `league upgrade`).
    pub fn league_init_to(
        &mut self,
        server: &ServerAddress,
        password: &str,
        schema: i64,
    ) -> Result<usize> {
        if self.league()?.is_some() {
            bail!("this campaign is already in a league");
        }
        let tie = LeagueTie {
            host: server.host.clone(),
            port: server.port,
            database: server.database.clone(),
            login: server.login.clone(),
            certificate: server.certificate.clone(),
            synced: 0,
            last_sync: None,
        };
        let mut league = League::connect(&address(&tie), password)?;
        league.init_to(schema)?;
        if league.keeps_chain()? {
            league.raise_format(self.league_format.min(NEWEST_FORMAT))?;
        }
        let log = self.store.log_batches()?;
        let names: Vec<BatchName> = log
            .iter()
            .map(|b| BatchName {
                batch: b.id,
                uid: sync::new_uid(),
                author: tie.login.clone(),
            })
            .collect();
        let writing = self.writing(&mut league, 0, &tie)?;
        let (sent, hashes) = writing.batches(0, &log, &names)?;
        for (key, _, bytes) in self.store.all_photos()? {
            league.push_photo(&key, &bytes)?;
        }
        let head = league.push(0, &sent)?;
        passwords::remember(self.league_passwords.as_deref(), &tie, password)?;
        let tie = LeagueTie {
            synced: head,
            last_sync: Some(sync::now()),
            ..tie
        };
        self.store.tie_to_league(&tie, &names)?;
        self.store.keep_league_hashes(&hashes)?;
        self.trust_own_key(&tie.login, writing.key.as_deref(), writing.format, 1)?;
        Ok(log.len())
    }

    /// Brings the league's server to this build: the schema versions it
    /// lacks, then the league's format raised to the newest this build
    /// writes. The organiser's, once every member has updated Rapsheet (a
    /// member still on an older one can no longer send changes, and is
    /// told to update).
    pub fn league_upgrade(&self) -> Result<Upgraded> {
        let mut league = self.league_connection()?;
        let format_before = league.format()?;
        let (schema_before, schema) = league.upgrade().map_err(|err| {
            anyhow!(
                "{err}: on a league the server's administrator prepared, its schema is theirs to bring up to date (`rapsheet league prepare` as them); then raise the format here"
            )
        })?;
        let format = league.raise_format(self.league_format.min(NEWEST_FORMAT))?;
        Ok(Upgraded {
            schema_before,
            schema,
            format_before,
            format,
        })
    }

    /// Writes to a league in format `format` at most, as a build that
    /// knows no newer one would (for tests of two builds side by side).
    pub fn write_league_format(&mut self, format: i64) {
        self.league_format = format.clamp(1, NEWEST_FORMAT);
    }

    /// Makes an empty database on a league's server ready for a league
    /// whose organiser is `organiser`, as the server's administrator
    /// (`server.login`, with `password`): the league's roles and schema,
    /// and the doorman that lets members in, so that the organiser needs
    /// no right to make logins. On a league already there, applies the
    /// schema versions it lacks; on a league restored from its organiser's
    /// backup, makes it whole (its data kept, its schema and rights made
    /// anew). No campaign is needed.
    pub fn league_prepare(
        server: &ServerAddress,
        password: &str,
        organiser: &str,
    ) -> Result<Prepared> {
        Ok(League::connect(server, password)?.prepare(organiser)?)
    }

    /// Makes a member's login on the league's server, gives them `gangs`
    /// (by name) and writes their invite to `output` (a new file, readable
    /// by its owner alone). The organiser's.
    pub fn league_invite(&self, login: &str, gangs: &[String], output: &Path) -> Result<Invite> {
        let tie = self.tie()?;
        let mut ids = Vec::new();
        for name in gangs {
            ids.push(self.gang_named(name)?.id.0);
        }
        if output.exists() {
            bail!(
                "{} is already there; choose a new file for the invite",
                output.display()
            );
        }
        let password = self.league_connection()?.invite(login, &ids)?;
        let invite = Invite {
            host: tie.host.clone(),
            port: tie.port,
            database: tie.database.clone(),
            login: login.to_owned(),
            password,
            certificate: tie.certificate.clone(),
        };
        write_invite(&invite, output)?;
        Ok(invite)
    }

    /// Joins a league with an invite: the password goes into the player's
    /// password file, and a new campaign file at `path` is made from the
    /// league's whole log and tied to it.
    pub fn league_join(invite: &Invite, path: &Path) -> Result<Session> {
        Self::league_join_with(invite, path, None)
    }

    /// [`Session::league_join`] keeping the password in `passwords`
    /// instead of the password file in the settings folder.
    pub fn league_join_with(
        invite: &Invite,
        path: &Path,
        passwords: Option<&Path>,
    ) -> Result<Session> {
        Self::league_join_in(invite, path, passwords, NEWEST_FORMAT)
    }

    /// [`Session::league_join_with`] by a build that writes format
    /// `format` at most.
    pub fn league_join_in(
        invite: &Invite,
        path: &Path,
        passwords: Option<&Path>,
        format: i64,
    ) -> Result<Session> {
        Self::league_join_watched(invite, path, passwords, format, &mut |_| {})
    }

    /// [`Session::league_join_in`], telling `progress` how far it is: the
    /// league's changes are taken in a run at a time, each run its own
    /// transaction (a join cut short leaves a file that holds the league's
    /// log as far as it came, tied to the league: a sync takes the rest).
    pub fn league_join_watched(
        invite: &Invite,
        path: &Path,
        passwords: Option<&Path>,
        format: i64,
        progress: &mut dyn FnMut(JoinProgress),
    ) -> Result<Session> {
        if path.exists() {
            bail!("{} is already there; join into a new file", path.display());
        }
        let tie = LeagueTie {
            host: invite.host.clone(),
            port: invite.port,
            database: invite.database.clone(),
            login: invite.login.clone(),
            certificate: invite.certificate.clone(),
            synced: 0,
            last_sync: None,
        };
        let mut league = League::connect(&address(&tie), &invite.password)?;
        if let Some(stop) = chain::too_new(league.format()?, format) {
            bail!("{}", stop.headline());
        }
        let head = league.head()?;
        if head == 0 {
            bail!("the league's server holds no campaign yet: the organiser sets it up first");
        }
        let made = Self::join_pages(&mut league, &tie, invite, path, passwords, head, progress);
        let mut session = match made {
            Ok(session) => session,
            Err(err) => {
                // What a join that went wrong made is no campaign: it goes.
                if path.exists() {
                    for end in ["", "-wal", "-shm"] {
                        let _ = std::fs::remove_file(format!("{}{end}", path.display()));
                    }
                }
                return Err(err);
            }
        };
        session.league_passwords = passwords.map(Path::to_owned);
        session.signing_key(&mut league, &session.tie()?)?;
        // The whole chain was checked: its print is kept for the first sync.
        session.keep_print(
            &mut league,
            Some((0, crate::store::league::Print::default())),
            head,
        );
        session.read_house_packs()?;
        session.league_format = format;
        // A join takes in the whole log: it counts as the member's sync.
        session.note_synced(&mut league);
        Ok(session)
    }

    /// A join's one pass over the league's log, a page at a time up to its
    /// batch `head`: each page's chain followed, each batch held to what
    /// the chain says (its format, its signature), read, and taken in as a
    /// sync takes it (through the gate, records made again), each run of
    /// batches one transaction. Nothing is read twice, and no more than a
    /// page is held at once.
    fn join_pages(
        league: &mut League,
        tie: &LeagueTie,
        invite: &Invite,
        path: &Path,
        passwords: Option<&Path>,
        head: i64,
        progress: &mut dyn FnMut(JoinProgress),
    ) -> Result<Session> {
        let league_keys = league.keys()?;
        // What every member's laptop checks: the format each batch claims
        // against the league's, and its signature against the key the
        // chain trusts for its author.
        let mut trust = keys::Chain::new();
        // The packs the log plays by as it is taken in, read again only
        // where a change keeps other house rules.
        let mut packs: Option<sync::PacksAsAppended<'static>> = None;
        let mut before: Option<String> = None;
        let mut session: Option<Session> = None;
        let of = usize::try_from(head - 1).unwrap_or(0);
        let mut taken = 0;
        let mut after = 0;
        while after < head {
            let page = league.fetch_page(after, head, JOIN_PAGE)?;
            let Some(last) = page.last() else {
                bail!(
                    "the league's change {} was deleted from the server: the league's history was changed there; ask the organiser to put it back (docs/league.md)",
                    after + 1
                );
            };
            let hashes = match chain::follow(before.as_deref(), &page) {
                Ok(hashes) => hashes,
                Err(seq) => bail!(
                    "the league's change {seq} does not follow the change before it: the league's history was changed on the server; ask the organiser to put it back (docs/league.md)"
                ),
            };
            (after, before) = (last.seq, last.hash.clone());
            let judged = trust.judge(&page, &league_keys);
            let hashes = chain::as_judged(hashes, &page, &judged);
            let (log, names, _) = read_batches(&page, &judged.out);
            let remade = remake::judged(&page);
            let (session, log, names) = match session.as_mut() {
                Some(session) => (session, &log[..], &names[..]),
                None => {
                    passwords::remember(passwords, tie, &invite.password)?;
                    // The campaign's creation first, then the rest as a
                    // sync replays it: a batch no laptop can replay is left
                    // out alike everywhere.
                    let mut made = Session::made_from_log(
                        path,
                        &log[..1],
                        &[],
                        super::builtin_registry()?,
                        "the league's server",
                    )?;
                    made.store.tie_to_league(
                        &LeagueTie {
                            synced: 1,
                            last_sync: Some(sync::now()),
                            ..tie.clone()
                        },
                        &names[..1],
                    )?;
                    progress(JoinProgress { taken, of });
                    (session.insert(made), &log[1..], &names[1..])
                }
            };
            let photos = sync::fetch_photos(league, &session.store, log)?;
            for (run, run_names) in log.chunks(JOIN_RUN).zip(names.chunks(JOIN_RUN)) {
                let last = run.last().map_or(head, |b| b.id.0);
                let base = &session.base;
                let packs = match &mut packs {
                    Some(packs) => packs,
                    None => packs.insert(sync::PacksAsAppended::read(base, &session.store)?),
                };
                session.store.appending(&mut |file| {
                    sync::append_or_leave_out(
                        file, base, packs, run, run_names, &photos, last, &remade,
                    )
                    .map(drop)
                })?;
                taken += run.len();
                progress(JoinProgress { taken, of });
            }
            session.store.keep_league_hashes(&hashes)?;
        }
        let Some(mut session) = session else {
            bail!("the league's server holds no campaign yet: the organiser sets it up first");
        };
        session.store.keep_league_trusted(&trust.newly)?;
        session.store.pin_league_keys(&league_keys)?;
        Ok(session)
    }

    /// Gives the gang `gang` (by name) to the member `login`, from
    /// whoever had it. The organiser's.
    pub fn league_give(&self, login: &str, gang: &str) -> Result<()> {
        let id = self.gang_named(gang)?.id.0;
        let mut league = self.league_connection()?;
        if !league.members()?.iter().any(|m| m.login == login) {
            bail!(
                "{login} is not a member of this league (invite them with `rapsheet league invite`)"
            );
        }
        league.assign(login, id)?;
        Ok(())
    }

    /// Takes the gang `gang` (by name) from its member: it is nobody's
    /// until given again. The organiser's.
    pub fn league_take_away(&self, gang: &str) -> Result<()> {
        let id = self.gang_named(gang)?.id.0;
        self.league_connection()?.take_away(id)?;
        Ok(())
    }

    /// Trusts `certificate` (PEM) for the league from now on: the
    /// server's renewed certificate, checked by connecting with it before
    /// it is kept. Invites made after carry it.
    pub fn league_pin_certificate(&mut self, certificate: &str) -> Result<()> {
        let tie = self.tie()?;
        self.league_point(LeagueTie {
            certificate: certificate.to_owned(),
            ..tie
        })
    }

    /// Finds the league at another server from now on (a restore on a new
    /// host): its address and certificate, checked by connecting before
    /// they are kept. The next sync checks the whole history there.
    pub fn league_move(
        &mut self,
        host: &str,
        port: u16,
        database: &str,
        certificate: &str,
    ) -> Result<()> {
        let tie = self.tie()?;
        self.league_point(LeagueTie {
            host: host.to_owned(),
            port,
            database: database.to_owned(),
            certificate: certificate.to_owned(),
            ..tie
        })
    }

    /// Keeps where the league's server is, once a connection there with
    /// this laptop's password holds. The password file's line moves with it.
    fn league_point(&mut self, to: LeagueTie) -> Result<()> {
        let tie = self.tie()?;
        let at = self.league_passwords.as_deref();
        let password = passwords::password_for(at, &tie)?;
        League::connect(&address(&to), &password)?.head()?;
        if let Some(key) = passwords::key_for(at, &tie)? {
            passwords::remember_key(at, &to, &key)?;
        }
        passwords::remember(at, &to, &password)?;
        self.store.point_league(&to)?;
        Ok(())
    }

    /// A connection to the league's server as this laptop's member.
    fn league_connection(&self) -> Result<League> {
        let tie = self.tie()?;
        Ok(League::connect(
            &address(&tie),
            &passwords::password_for(self.league_passwords.as_deref(), &tie)?,
        )?)
    }

    /// The league's members as the server says now (their gangs, when
    /// each last synced), with its newest change.
    pub(in crate::session) fn league_members_asked(
        &self,
    ) -> Result<(Vec<crate::store::league::Member>, i64)> {
        let mut league = self.league_connection()?;
        Ok((league.members()?, league.head()?))
    }

    /// The league's members and their gangs.
    pub fn league_members(&self) -> Result<Vec<MemberView>> {
        let mut league = self.league_connection()?;
        let names = self.names()?;
        Ok(league
            .members()?
            .into_iter()
            .map(|m| MemberView {
                login: m.login,
                organiser: m.organiser,
                gangs: m
                    .gangs
                    .into_iter()
                    .map(|g| names.gang(crate::campaign::GangId(g)))
                    .collect(),
            })
            .collect())
    }

    /// The league as this laptop knows it; with `ask_server`, the server
    /// is asked how many changes wait there (and said offline where it
    /// cannot be reached).
    pub fn league_status(&self, ask_server: bool) -> Result<LeagueStatus> {
        let tie = self.tie()?;
        let newest = self.store.newest_batch()?.map_or(0, |b| b.0);
        let mut status = LeagueStatus {
            server: format!("{}:{}/{}", tie.host, tie.port, tie.database),
            login: tie.login.clone(),
            synced: tie.synced,
            to_send: usize::try_from(newest.saturating_sub(tie.synced)).unwrap_or(0),
            to_fetch: None,
            last_sync: tie.last_sync.clone(),
            offline: None,
            newer_format: None,
        };
        if ask_server {
            let asked =
                passwords::password_for(self.league_passwords.as_deref(), &tie).and_then(|p| {
                    let mut league = League::connect(&address(&tie), &p)?;
                    Ok((league.head()?, league.format()?))
                });
            match asked {
                Ok((head, format)) => {
                    status.to_fetch = Some(head.saturating_sub(tie.synced).max(0));
                    status.newer_format = (format > self.league_format).then_some(format);
                }
                Err(err) => status.offline = Some(format!("{err:#}")),
            }
        }
        Ok(status)
    }
}

/// Reads an invite file.
pub fn read_invite(path: &Path) -> Result<Invite> {
    let text = crate::input::read_text(path, crate::input::Kind::Invite)?;
    toml::from_str(&text).map_err(|e| {
        anyhow!(
            "{} is not a league invite: {}",
            path.display(),
            e.message().trim()
        )
    })
}

/// Writes an invite as a new file readable by its owner alone.
fn write_invite(invite: &Invite, output: &Path) -> Result<()> {
    let text = format!(
        "# An invitation to a Rapsheet league for {}. It holds the login's password:\n\
         # hand it over privately. `rapsheet league join` moves the password into the\n\
         # player's password file; the file can be deleted after that.\n{}",
        invite.login,
        toml::to_string(invite)?
    );
    crate::output::write_private(
        output,
        text.as_bytes(),
        crate::output::Existing::Refuse,
        None,
    )?;
    Ok(())
}

/// The server's address for a tie.
fn address(tie: &LeagueTie) -> Address {
    Address {
        host: tie.host.clone(),
        port: tie.port,
        database: tie.database.clone(),
        login: tie.login.clone(),
        certificate: tie.certificate.clone(),
    }
}

/// The server's batches as a log, each with its name and author, and
/// what was left out of them. A batch whose events this Rapsheet cannot
/// read (a field missing or of the wrong kind, an event it does not know,
/// one a newer Rapsheet wrote) is never a wall: it is taken in empty, in
/// its place, its label saying why, alike on every laptop of this version.
fn read_batches(
    fetched: &[ServerBatch],
    unsigned: &std::collections::BTreeMap<i64, String>,
) -> (Vec<LoggedBatch>, Vec<BatchName>, Vec<String>) {
    let mut log = Vec::new();
    let mut names = Vec::new();
    let mut left_out = Vec::new();
    for batch in fetched {
        let (read, unreadable) = read_batch(batch, unsigned.get(&batch.seq));
        if let Some(why) = unreadable {
            left_out.push(sync::left_out_line(&batch.label, &batch.author, &why));
        }
        log.push(read);
        names.push(BatchName {
            batch: crate::campaign::BatchId(batch.seq),
            uid: batch.uid.clone(),
            author: batch.author.clone(),
        });
    }
    (log, names, left_out)
}

/// A server's batch as this laptop's log holds it, and why it was left
/// out where its events cannot be read or it is `unsigned` (why).
fn read_batch(batch: &ServerBatch, unsigned: Option<&String>) -> (LoggedBatch, Option<String>) {
    // A time the laptop gave that is not one: when the server took it,
    // the same on every laptop.
    let at = if crate::campaign::gate::is_time(&batch.at) {
        &batch.at
    } else {
        &batch.received
    };
    let read = LoggedBatch {
        id: crate::campaign::BatchId(batch.seq),
        at: at.clone(),
        label: batch.label.clone(),
        undoes: batch.undoes.map(crate::campaign::BatchId),
        events: Vec::new(),
    };
    let events = match unsigned {
        Some(why) => Err(why.clone()),
        None => serde_json::from_str(&batch.events).map_err(|err| unreadable(&err)),
    };
    match events {
        Ok(events) => (LoggedBatch { events, ..read }, None),
        Err(why) => {
            let label = sync::left_out_label(&batch.label, &why);
            (
                LoggedBatch {
                    label,
                    undoes: None,
                    ..read
                },
                Some(why),
            )
        }
    }
}

/// Why a batch's events cannot be read, in a line: what the reader said,
/// cut short (a list of every event it knows is no help).
fn unreadable(err: &serde_json::Error) -> String {
    let said: String = err.to_string().chars().take(160).collect();
    format!("this version of Rapsheet cannot read its events ({said})")
}
