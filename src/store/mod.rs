//! The campaign file: one SQLite database per campaign.
//!
//! [`CampaignStore`] owns the connection and all SQL in the program; no
//! other module talks to SQLite. Every change arrives as a batch of
//! [`Event`]s, applied to the state and appended to the log in one
//! transaction. Opening refuses, with one clear line and without writing a
//! byte, what is not a campaign this build can safely edit.

mod apply;
mod gate_state;
mod ground;
pub mod league;
mod league_file;
mod migrations;
mod read;
mod verify;
mod words;

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::types::{FromSql, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};

pub use ground::Ground;
pub use league_file::{
    Appender, BatchName, LeagueTie, LeftOutBatch, Link, Replayed, Rewound, TrustedKey,
};
pub use migrations::SCHEMA_VERSION;
pub use read::{CampaignDump, EmptyBatch, LogEntry, RecordSides};
pub use verify::{Judge, Replaying, Verification};

use crate::campaign::LoggedBatch;

use crate::campaign::{
    BatchId, BattleId, CampaignInfo, ChallengeId, EffectId, Event, FighterId, GangId, PendingId,
};

/// `PRAGMA application_id` of a campaign file ('RAPS').
const APPLICATION_ID: i64 = 0x5241_5053;

/// How every SQLite database file begins.
const SQLITE_HEADER: &[u8] = b"SQLite format 3\0";

/// The file name extension of a campaign.
pub const EXTENSION: &str = "rapsheet";

/// Why a campaign file could not be opened or changed. Each message is one
/// line a player can act on.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0}: no such file")]
    NotFound(PathBuf),
    #[error("{0}: not a file (a folder, a pipe or a device)")]
    NotAFile(PathBuf),
    #[error("{path}: this copy does not verify ({problems}); `rapsheet verify` on it says more")]
    DoesNotVerify { path: PathBuf, problems: String },
    #[error("{0}: a file is already there")]
    AlreadyExists(PathBuf),
    #[error("{0}: not a campaign file (it is not an SQLite database)")]
    NotSqlite(PathBuf),
    #[error("{0}: not a Rapsheet campaign (an SQLite database of another program)")]
    NotRapsheet(PathBuf),
    #[error("{path}: the file is damaged ({detail}); restore a backup")]
    Corrupt { path: PathBuf, detail: String },
    #[error(
        "{path}: made by a newer Rapsheet (schema {found}; this build reads up to {supported}); update Rapsheet to open it"
    )]
    TooNew {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    #[error("{0}: another program is writing to this campaign; close it and try again")]
    Busy(PathBuf),
    #[error(
        "{path}: the write-ahead log beside it ({wal}) is not this campaign's ({why}); nothing was taken from it and the campaign is as it was: move that file away, then open the campaign again"
    )]
    ForeignWal {
        path: PathBuf,
        wal: String,
        why: String,
    },
    #[error(
        "{0}: the disk is full, so the campaign cannot be opened or changed; it is not damaged and nothing was written: make room on the disk, then try again"
    )]
    DiskFull(PathBuf),
    #[error(
        "{path}: the disk could not be read or written ({detail}); nothing was written and the campaign is not known to be damaged: check the disk (is it full, or gone?), then try again"
    )]
    DiskTrouble { path: PathBuf, detail: String },
    #[error(
        "{path}: cannot be opened here ({detail}): check the permissions of the file and of its folder, or copy the campaign to a folder you can write to"
    )]
    CannotOpen { path: PathBuf, detail: String },
    #[error("the campaign is read-only: {0}")]
    ReadOnly(String),
    #[error("the change does not fit the campaign as it is now: {0}")]
    Conflict(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: cannot upgrade the file from schema {from} ({detail}); it was not changed", .path.display())]
    Migration {
        path: PathBuf,
        from: i64,
        detail: String,
    },
    #[error("campaign log: event {event} cannot be read ({source}); run `rapsheet verify`")]
    BadEvent {
        event: i64,
        source: crate::campaign::wire::WireError,
    },
    /// A change the gate refused ([`crate::campaign::gate`]), naming the
    /// field.
    #[error("{0}")]
    Refused(#[from] crate::campaign::gate::GateError),
    #[error("{}", words::sqlite_error(.0))]
    Sqlite(#[from] rusqlite::Error),
    #[error("campaign log: {0}")]
    Json(#[from] serde_json::Error),
}

impl StoreError {
    /// An SQLite error met opening or reading `path`, said as what it is:
    /// a full disk, a disk that failed, a file or folder that cannot be
    /// opened, a lock held by another program — never as damage, which
    /// would send a player to a backup and lose their newest changes.
    fn of_file(path: &Path, err: rusqlite::Error) -> Self {
        trouble(path, &err).unwrap_or(Self::Sqlite(err))
    }

    /// The same error said of `path`: what a check of a temporary file
    /// reports of the file it becomes.
    fn named(self, path: &Path) -> Self {
        let path = path.to_owned();
        match self {
            Self::NotFound(_) => Self::NotFound(path),
            Self::AlreadyExists(_) => Self::AlreadyExists(path),
            Self::NotSqlite(_) => Self::NotSqlite(path),
            Self::NotRapsheet(_) => Self::NotRapsheet(path),
            Self::Busy(_) => Self::Busy(path),
            Self::DiskFull(_) => Self::DiskFull(path),
            Self::DiskTrouble { detail, .. } => Self::DiskTrouble { path, detail },
            Self::CannotOpen { detail, .. } => Self::CannotOpen { path, detail },
            Self::Corrupt { detail, .. } => Self::Corrupt { path, detail },
            Self::TooNew {
                found, supported, ..
            } => Self::TooNew {
                path,
                found,
                supported,
            },
            Self::Io { source, .. } => Self::Io { path, source },
            Self::Migration { from, detail, .. } => Self::Migration { path, from, detail },
            other => other,
        }
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

macro_rules! sql_id {
    ($($t:ty),*) => {$(
        impl ToSql for $t {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.0))
            }
        }
        impl FromSql for $t {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                i64::column_result(value).map(Self)
            }
        }
    )*};
}
sql_id!(
    GangId,
    FighterId,
    BatchId,
    BattleId,
    PendingId,
    EffectId,
    ChallengeId
);

/// What every event passes before it is applied, inside the transaction
/// it is written in: the one gate ([`crate::campaign::gate::Gate`]), which
/// the session gives with the packs the campaign is read with.
/// It is told whether the event's batch takes back another (an undo).
pub type Check<'c> = dyn FnMut(
        &dyn crate::campaign::gate::State,
        &Event,
        bool,
    ) -> Result<(), crate::campaign::gate::GateError>
    + 'c;

/// A stored photo: its key, its type and its bytes.
pub type StoredPhoto = (String, String, Vec<u8>);

/// An open campaign file.
pub struct CampaignStore {
    conn: Counted,
    path: PathBuf,
    /// Why the file may not be changed, when it may not.
    read_only: Option<String>,
    /// Held while the file is open for writing, so a second Rapsheet
    /// window opens it read-only instead of editing it behind our back.
    lock: Option<File>,
    /// Whether SQLite's page check of the whole file is still to be made
    /// ([`CampaignStore::open_checking_later`]): until it passes, nothing
    /// is written.
    unchecked: bool,
}

/// Why a campaign opened with its page check to come is read-only until
/// the check passes.
pub const CHECKING_PAGES: &str = "its pages are being checked…";

impl Drop for CampaignStore {
    /// A clean close takes away the lock file it made: nothing is left
    /// beside the campaign (a crash leaves it, and the next open takes it
    /// over, as the lock itself is gone with the process).
    fn drop(&mut self) {
        if self.lock.take().is_some() {
            // Best effort: a lock file that cannot be removed is harmless.
            let _ = std::fs::remove_file(lock_path(&self.path));
        }
    }
}

/// The connection, counting every use. All SQL passes through here, so no
/// read can slip past the count that proves an unchanged campaign is drawn
/// without asking the file anything.
struct Counted {
    conn: Connection,
    uses: std::cell::Cell<u64>,
}

/// Statements kept prepared: more than the store has, so none is prepared
/// twice (rusqlite keeps 16 by default, fewer than a battle uses).
const STATEMENT_CACHE: usize = 256;

impl From<Connection> for Counted {
    fn from(conn: Connection) -> Self {
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        Self {
            conn,
            uses: std::cell::Cell::new(0),
        }
    }
}

impl std::ops::Deref for Counted {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.uses.set(self.uses.get().saturating_add(1));
        &self.conn
    }
}

impl std::ops::DerefMut for Counted {
    fn deref_mut(&mut self) -> &mut Connection {
        self.uses.set(self.uses.get().saturating_add(1));
        &mut self.conn
    }
}

impl std::fmt::Debug for CampaignStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CampaignStore")
            .field("path", &self.path)
            .field("read_only", &self.read_only)
            .finish_non_exhaustive()
    }
}

impl CampaignStore {
    /// Creates a new, empty campaign file. Refuses to replace any file.
    /// The file appears whole or not at all: nobody opens it between its
    /// tables and its campaign.
    pub fn create(
        path: &Path,
        name: &str,
        default_ruleset: &str,
        check: &mut Check,
    ) -> Result<Self> {
        Self::made_aside(path, |draft| {
            // Made through the log, so `verify` can tell the name it was
            // given from one edited behind the log's back.
            draft.commit(
                "Campaign created",
                &[Event::CampaignCreated {
                    name: name.to_owned(),
                    default_ruleset: default_ruleset.to_owned(),
                }],
                check,
            )?;
            Ok(())
        })
    }

    /// Opens an existing campaign file, migrating it (after a backup) when
    /// it is older than this build. A file that cannot be trusted is refused
    /// and not written to; a file that may not be changed opens read-only.
    pub fn open(path: &Path) -> Result<Self> {
        Self::opening(path, false)
    }

    /// [`CampaignStore::open`], SQLite's check of every page of the file
    /// left for later (it reads the whole file: most of what opening a big
    /// campaign costs): the campaign is read-only, nothing written to it,
    /// until [`check_pages`] on it passes and the outcome is given to
    /// [`CampaignStore::pages_checked`]. A file to upgrade is checked
    /// first, as the upgrade writes.
    pub fn open_checking_later(path: &Path) -> Result<Self> {
        Self::opening(path, true)
    }

    fn opening(path: &Path, later: bool) -> Result<Self> {
        let path = &absolute(path);
        let version = inspect(path, !later)?;
        // An upgrade writes, and a file not yet in WAL mode is written as
        // it is put in it: their pages are checked first.
        let deferred = later && version == SCHEMA_VERSION && has_wal_header(path);
        if later && !deferred {
            check_pages(path)?;
        }
        let later = deferred;

        // Why the file may not be changed, and whether that is because of
        // the disk (then nobody else can be writing it either).
        let mut on_disk = not_writable(path)?;
        let mut read_only = on_disk.clone();
        let lock = if read_only.is_none() {
            match take_lock(path) {
                Ok(Lock::Held(lock)) => Some(lock),
                Ok(Lock::FolderReadOnly) => {
                    on_disk = Some("its folder cannot be written to".to_owned());
                    read_only = on_disk.clone();
                    None
                }
                Err(StoreError::Busy(_)) => {
                    read_only = Some("it is open for editing in another Rapsheet window".into());
                    None
                }
                Err(other) => return Err(other),
            }
        } else {
            None
        };

        if let Some(reason) = read_only {
            if version < SCHEMA_VERSION {
                return Err(StoreError::ReadOnly(format!(
                    "{reason}, and it needs upgrading from schema {version} to {SCHEMA_VERSION} first"
                )));
            }
            // Nothing can be writing a file the disk will not let us write:
            // read it as it stands, so not even a `-shm` appears beside it.
            let conn = if on_disk.is_some() && !wal_path(path).exists() {
                open_immutable(path)?
            } else {
                open_read_only(path)?
            };
            return Ok(Self {
                conn: conn.into(),
                path: path.to_owned(),
                read_only: Some(reason),
                lock: None,
                unchecked: later,
            });
        }

        let said = |e| StoreError::of_file(path, e);
        let mut conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(said)?;
        conn.busy_timeout(Duration::from_millis(250))
            .map_err(said)?;
        // Refuse while another program holds the write lock: nothing has
        // been written yet, and nothing will be.
        match conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;") {
            Ok(()) => {}
            Err(err) if is_busy(&err) => return Err(StoreError::Busy(path.to_owned())),
            Err(err) => return Err(said(err)),
        }
        // The WAL may hold commits the inspection did not see.
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                path: path.to_owned(),
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
        let backup = if version < SCHEMA_VERSION {
            Some(backup_before_migration(&conn, path, version)?)
        } else {
            None
        };
        // The journal mode is set once the upgrade holds: a file whose
        // upgrade is refused keeps every byte, its header's too.
        let of_file = |e| match e {
            StoreError::Sqlite(e) => said(e),
            other => other,
        };
        configure_connection(&conn).map_err(of_file)?;
        migrate(&mut conn, version).map_err(|err| StoreError::Migration {
            path: path.to_owned(),
            from: version,
            detail: match backup {
                Some(b) => format!(
                    "{}; the copy made before it is {}",
                    one_line(&err),
                    b.display()
                ),
                None => one_line(&err),
            },
        })?;
        configure(&conn).map_err(of_file)?;
        Ok(Self {
            conn: conn.into(),
            path: path.to_owned(),
            read_only: later.then(|| CHECKING_PAGES.to_owned()),
            lock,
            unchecked: later,
        })
    }

    /// Whether the page check of [`CampaignStore::open_checking_later`]
    /// is still to be made.
    pub fn pages_unchecked(&self) -> bool {
        self.unchecked
    }

    /// Takes in the outcome of the page check ([`check_pages`]) of a
    /// campaign opened with [`CampaignStore::open_checking_later`]: passed,
    /// the campaign may be changed (unless it was read-only for another
    /// reason); failed, it stays read-only, damaged.
    pub fn pages_checked(&mut self, outcome: &Result<()>) {
        if !std::mem::take(&mut self.unchecked) {
            return;
        }
        match outcome {
            Ok(()) => {
                if self.read_only.as_deref() == Some(CHECKING_PAGES) {
                    self.read_only = None;
                }
            }
            Err(_) => self.read_only = Some("it is damaged; restore a backup".to_owned()),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many times this store has used its database since it opened:
    /// what a view that caches its reads can be checked against.
    pub fn reads(&self) -> u64 {
        self.conn.uses.get()
    }

    /// Hands every statement this store runs from now on to `watch`, its
    /// values written in as SQL literals (`None` stops): what a measure of
    /// the store's writes replays as plain SQL to find the cost of the rows
    /// alone.
    pub fn watch_statements(
        &mut self,
        mut watch: Option<Box<dyn FnMut(String) + Send>>,
    ) -> Result<()> {
        use rusqlite::trace::{TraceEvent, TraceEventCodes};
        let each = watch.take().map(|mut watch| {
            move |event: TraceEvent<'_>| {
                if let TraceEvent::Stmt(statement, text) = event
                    && !text.starts_with("--")
                {
                    watch(statement.expanded_sql().unwrap_or_else(|| text.to_owned()));
                }
            }
        });
        self.conn
            .conn
            .trace_v2(TraceEventCodes::SQLITE_TRACE_STMT, each)?;
        Ok(())
    }

    /// Why this campaign cannot be changed, if it cannot.
    pub fn read_only_reason(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    pub fn info(&self) -> Result<CampaignInfo> {
        Ok(self
            .conn
            .prepare_cached("SELECT name, default_ruleset FROM campaign WHERE id = 1")?
            .query_row([], |row| {
                Ok(CampaignInfo {
                    name: row.get(0)?,
                    default_ruleset: row.get(1)?,
                })
            })?)
    }

    /// The id the next founded gang will get.
    pub fn next_gang_id(&self) -> Result<GangId> {
        Ok(GangId(
            self.conn
                .prepare_cached(
                    // Each max() is one index lookup (see `next_battle_id`).
                    "SELECT max(coalesce((SELECT max(id) FROM gang), 0), \
                        coalesce((SELECT max(gang_id) FROM event), 0)) + 1",
                )?
                .query_row([], |r| r.get(0))?,
        ))
    }

    /// The id the next recruited fighter will get.
    pub fn next_fighter_id(&self) -> Result<FighterId> {
        Ok(FighterId(
            self.conn
                .prepare_cached(
                    // Each max() is one index lookup (see `next_battle_id`).
                    "SELECT max(coalesce((SELECT max(id) FROM fighter), 0), \
                        coalesce((SELECT max(fighter_id) FROM event), 0)) + 1",
                )?
                .query_row([], |r| r.get(0))?,
        ))
    }

    /// The id the next recorded battle will get.
    pub fn next_battle_id(&self) -> Result<BattleId> {
        Ok(BattleId(
            self.conn
                .prepare_cached(
                    // Each max() is one index lookup; a max over their union
                    // would read both tables whole.
                    "SELECT max(coalesce((SELECT max(id) FROM battle), 0), \
                        coalesce((SELECT max(battle_id) FROM event), 0)) + 1",
                )?
                .query_row([], |r| r.get(0))?,
        ))
    }

    /// The id the next pending effect will get.
    pub fn next_pending_id(&self) -> Result<PendingId> {
        Ok(PendingId(
            self.conn
                .prepare_cached("SELECT coalesce(max(id), 0) + 1 FROM pending_effect")?
                .query_row([], |r| r.get(0))?,
        ))
    }

    /// The id the next challenge will get.
    pub fn next_challenge_id(&self) -> Result<ChallengeId> {
        Ok(ChallengeId(
            self.conn
                .prepare_cached("SELECT coalesce(max(id), 0) + 1 FROM challenge")?
                .query_row([], |r| r.get(0))?,
        ))
    }

    /// Applies a batch of events and appends it to the log, all in one
    /// transaction: either all of it is in the file afterwards, or none.
    pub fn commit(&mut self, label: &str, events: &[Event], check: &mut Check) -> Result<BatchId> {
        self.commit_batch(label, events, None, check)
    }

    /// Takes back a batch. A change (or a redo) is taken back by its
    /// inverse, newest event first; an undo is taken back by committing
    /// again what it undid, so a redo reads as the original did. Returns
    /// the new batch.
    pub fn undo(&mut self, batch: BatchId, check: &mut Check) -> Result<BatchId> {
        let (label, events) = read::taking_back(&self.conn, batch)?;
        let touches_photos = events
            .iter()
            .any(|e| matches!(e, Event::PhotoChanged { .. }));
        if touches_photos {
            self.commit_batch_around(
                &label,
                &events,
                Some(batch),
                check,
                &|_| Ok(()),
                &collect_photos,
            )
        } else {
            self.commit_batch(&label, &events, Some(batch), check)
        }
    }

    fn commit_batch(
        &mut self,
        label: &str,
        events: &[Event],
        undoes: Option<BatchId>,
        check: &mut Check,
    ) -> Result<BatchId> {
        self.commit_batch_around(label, events, undoes, check, &|_| Ok(()), &|_| Ok(()))
    }

    /// Commits a batch, running `before` first in the same transaction
    /// (storing what the events refer to, such as a photo) and `after` last
    /// (a clean-up the events make necessary); every event passes `check`
    /// just before it is applied.
    fn commit_batch_around(
        &mut self,
        label: &str,
        events: &[Event],
        undoes: Option<BatchId>,
        check: &mut Check,
        before: &dyn Fn(&rusqlite::Transaction<'_>) -> Result<()>,
        after: &dyn Fn(&rusqlite::Transaction<'_>) -> Result<()>,
    ) -> Result<BatchId> {
        if let Some(reason) = &self.read_only {
            return Err(StoreError::ReadOnly(reason.clone()));
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        before(&tx)?;
        tx.prepare_cached("INSERT INTO batch (label, undoes) VALUES (?1, ?2)")?
            .execute((label, undoes))?;
        let batch = BatchId(tx.last_insert_rowid());
        for event in events {
            check(&gate_state::Reading(&tx), event, undoes.is_some())?;
            apply::apply(&tx, event)?;
            tx.prepare_cached(
                "INSERT INTO event (batch_id, kind, gang_id, fighter_id, battle_id, payload) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute((
                batch,
                event.kind(),
                event.gang(),
                event.fighter(),
                event.battle(),
                crate::campaign::wire::encode(event)?,
            ))?;
        }
        after(&tx)?;
        tx.commit()?;
        Ok(batch)
    }

    /// Stores a photo (by content: a photo already there is kept) and sets
    /// it on a fighter, with the event, in one transaction. Returns the
    /// batch.
    pub fn set_photo(
        &mut self,
        label: &str,
        fighter: FighterId,
        photo: Option<(&str, &[u8])>,
        check: &mut Check,
    ) -> Result<BatchId> {
        if let Some(reason) = &self.read_only {
            return Err(StoreError::ReadOnly(reason.clone()));
        }
        let from: Option<String> =
            self.conn
                .query_row("SELECT photo FROM fighter WHERE id = ?1", [fighter], |r| {
                    r.get(0)
                })?;
        let to = photo.map(|(_, bytes)| photo_hash(bytes));
        let store_photo = |tx: &rusqlite::Transaction<'_>| -> Result<()> {
            if let (Some((mime, bytes)), Some(hash)) = (photo, &to) {
                tx.execute(
                    "INSERT OR IGNORE INTO photo (hash, mime, bytes) VALUES (?1, ?2, ?3)",
                    (hash, mime, bytes),
                )?;
            }
            Ok(())
        };
        let events = [Event::PhotoChanged {
            fighter,
            from,
            to: to.clone(),
        }];
        self.commit_batch_around(label, &events, None, check, &store_photo, &|_| Ok(()))
    }

    /// Commits `events` as one batch with the photos they set stored in the
    /// same transaction (each `(mime, bytes)`, kept by content; the events'
    /// `PhotoChanged` name them by [`photo_key`]).
    pub fn commit_with_photos(
        &mut self,
        label: &str,
        events: &[Event],
        photos: &[(String, Vec<u8>)],
        check: &mut Check,
    ) -> Result<BatchId> {
        if let Some(reason) = &self.read_only {
            return Err(StoreError::ReadOnly(reason.clone()));
        }
        let store_photos = |tx: &rusqlite::Transaction<'_>| -> Result<()> {
            for (mime, bytes) in photos {
                tx.execute(
                    "INSERT OR IGNORE INTO photo (hash, mime, bytes) VALUES (?1, ?2, ?3)",
                    (photo_hash(bytes), mime, bytes),
                )?;
            }
            Ok(())
        };
        self.commit_batch_around(label, events, None, check, &store_photos, &|_| Ok(()))
    }

    /// A fighter's photo, if one is set.
    pub fn photo(&self, fighter: FighterId) -> Result<Option<Vec<u8>>> {
        use rusqlite::OptionalExtension;
        Ok(self
            .conn
            .prepare_cached(
                "SELECT p.bytes FROM fighter f JOIN photo p ON p.hash = f.photo WHERE f.id = ?1",
            )?
            .query_row([fighter], |r| r.get(0))
            .optional()?)
    }

    /// The key of a fighter's photo, if one is set.
    pub fn photo_key(&self, fighter: FighterId) -> Result<Option<String>> {
        use rusqlite::OptionalExtension;
        Ok(self
            .conn
            .prepare_cached("SELECT photo FROM fighter WHERE id = ?1")?
            .query_row([fighter], |r| r.get::<_, Option<String>>(0))
            .optional()?
            .flatten())
    }

    /// Bulk mode for generating a campaign: commits stay whole transactions
    /// but are not flushed to disk one by one (`synchronous = OFF`); off
    /// again, the file is as durable as ever.
    pub fn set_bulk(&self, bulk: bool) -> Result<()> {
        self.conn
            .pragma_update(None, "synchronous", if bulk { "OFF" } else { "FULL" })?;
        Ok(())
    }

    /// Copies the open campaign to a new file (SQLite's online backup) and
    /// returns the copy, open. The original stays as it is.
    pub fn save_as(&self, target: &Path) -> Result<CampaignStore> {
        self.copy_to(target, false)?;
        CampaignStore::open(target)
    }

    /// Copies the open campaign to `target` with SQLite's online backup,
    /// into a temporary file beside it that is renamed into place; never
    /// over a file already there. `standalone`: the copy keeps no
    /// write-ahead log and is checked before it is renamed (a backup).
    fn copy_to(&self, target: &Path, standalone: bool) -> Result<()> {
        if target.exists() {
            return Err(StoreError::AlreadyExists(target.to_owned()));
        }
        folder_must_exist(target)?;
        let tmp = temp_sibling(target);
        let result = (|| {
            {
                let mut dest = Connection::open(&tmp)?;
                {
                    let backup = rusqlite::backup::Backup::new(&self.conn, &mut dest)?;
                    backup.run_to_completion(256, Duration::ZERO, None)?;
                }
                if standalone {
                    let _: String =
                        dest.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))?;
                }
                dest.close().map_err(|(_, e)| e)?;
            }
            if standalone {
                // Said of the file asked for, never of the temporary one.
                check_copy(&tmp).map_err(|e| e.named(target))?;
            }
            std::fs::rename(&tmp, target).map_err(|source| StoreError::Io {
                path: target.to_owned(),
                source,
            })
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result.map_err(|e| said_of(target, e))
    }
}

/// An error met while writing a new file through a temporary one, said of
/// the file asked for: SQLite's own errors name no file, or the temporary
/// one, which a player never asked for.
fn said_of(target: &Path, err: StoreError) -> StoreError {
    match err {
        StoreError::Sqlite(_) => StoreError::Io {
            path: target.to_owned(),
            source: std::io::Error::other(one_line(&err)),
        },
        other => other,
    }
}

/// Refuses a new file whose folder is not there, before anything is
/// made: said of the file asked for, not as SQLite's “unable to open”.
fn folder_must_exist(path: &Path) -> Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => return Ok(()),
    };
    if folder.is_dir() {
        return Ok(());
    }
    Err(StoreError::Io {
        path: path.to_owned(),
        source: std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("no folder {}", crate::text::path(folder)),
        ),
    })
}

impl CampaignStore {
    /// The log, batch by batch, oldest first.
    pub fn log_batches(&self) -> Result<Vec<LoggedBatch>> {
        self.log_batches_after(BatchId(0))
    }

    /// The batches after `after`, oldest first, each with its events (a
    /// batch with none, such as a league's change left out, is there too):
    /// reads only those batches, however long the log.
    pub fn log_batches_after(&self, after: BatchId) -> Result<Vec<LoggedBatch>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT b.id, b.at, b.label, b.undoes, e.id, e.payload \
             FROM batch b LEFT JOIN event e ON e.batch_id = b.id \
             WHERE b.id > ?1 ORDER BY b.id, e.id",
        )?;
        let rows = stmt.query_map([after], |r| {
            Ok((
                r.get::<_, BatchId>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<BatchId>>(3)?,
                r.get::<_, Option<i64>>(4)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })?;
        let mut out: Vec<LoggedBatch> = Vec::new();
        for row in rows {
            let (id, at, label, undoes, event, payload) = row?;
            if out.last().is_none_or(|last| last.id != id) {
                out.push(LoggedBatch {
                    id,
                    at,
                    label,
                    undoes,
                    events: Vec::new(),
                });
            }
            if let (Some(event), Some(payload), Some(last)) = (event, payload, out.last_mut()) {
                last.events.push(
                    crate::campaign::wire::decode(&payload)
                        .map_err(|source| StoreError::BadEvent { event, source })?,
                );
            }
        }
        Ok(out)
    }

    /// Every photo stored: key, type and bytes.
    pub fn all_photos(&self) -> Result<Vec<StoredPhoto>> {
        Ok(self
            .conn
            .prepare("SELECT hash, mime, bytes FROM photo ORDER BY hash")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// Makes a new campaign file at `path` from a log (its first event the
    /// campaign's creation) and the photos it names: every batch replayed
    /// in order with its own id, time and label, in one transaction, into a
    /// temporary file renamed into place; never over a file.
    pub fn create_from_log(
        path: &Path,
        batches: &[LoggedBatch],
        photos: &[StoredPhoto],
        check: &mut Check,
    ) -> Result<Self> {
        let path = &absolute(path);
        if path.exists() {
            return Err(StoreError::AlreadyExists(path.to_owned()));
        }
        if !batches
            .first()
            .and_then(|b| b.events.first())
            .is_some_and(Event::is_creation)
        {
            return Err(StoreError::Conflict(
                "the log does not begin with the campaign's creation".into(),
            ));
        }
        Self::made_aside(path, |draft| {
            let tx = draft
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            for (hash, mime, bytes) in photos {
                tx.execute(
                    "INSERT OR IGNORE INTO photo (hash, mime, bytes) VALUES (?1, ?2, ?3)",
                    (hash, mime, bytes),
                )?;
            }
            replay(&tx, batches, 0, check)?;
            Ok(tx.commit()?)
        })
    }

    /// A new campaign file at `path`, its tables made and then filled by
    /// `fill` in a temporary file beside it, which is moved into place only
    /// once whole, never over a file (one made meanwhile included).
    fn made_aside(path: &Path, fill: impl FnOnce(&mut Self) -> Result<()>) -> Result<Self> {
        let path = &absolute(path);
        if path.exists() {
            return Err(StoreError::AlreadyExists(path.to_owned()));
        }
        folder_must_exist(path)?;
        let tmp = tempfile::TempPath::try_from_path(temp_sibling(path)).map_err(|source| {
            StoreError::Io {
                path: path.to_owned(),
                source,
            }
        })?;
        let made = (|| {
            let mut conn = Connection::open(&tmp)?;
            configure_memory(&conn)?;
            migrate(&mut conn, 0)?;
            let mut draft = Self {
                conn: conn.into(),
                path: path.to_owned(),
                read_only: None,
                lock: None,
                unchecked: false,
            };
            fill(&mut draft)?;
            // Every commit is whole on disk already (a rollback journal,
            // synchronous): closing adds nothing to keep.
            drop(draft);
            Ok(())
        })();
        made.map_err(|e| said_of(path, e))?;
        tmp.persist_noclobber(path)
            .map_err(|err| match err.error.kind() {
                std::io::ErrorKind::AlreadyExists => StoreError::AlreadyExists(path.to_owned()),
                _ => StoreError::Io {
                    path: path.to_owned(),
                    source: err.error,
                },
            })?;
        Self::open(path)
    }

    /// Another copy of a campaign, read without writing to it (not even a
    /// lock beside it): its log and its photos, for merging. A file that
    /// is not a sound campaign this build reads is refused.
    pub fn read_copy(path: &Path) -> Result<(Vec<LoggedBatch>, Vec<StoredPhoto>)> {
        let copy = Self::open_copy(path)?;
        let verified = copy.verify()?;
        if !verified.problems.is_empty() {
            return Err(StoreError::DoesNotVerify {
                path: copy.path.clone(),
                problems: verified.problems.join("; "),
            });
        }
        Ok((copy.log_batches()?, copy.all_photos()?))
    }

    /// Another copy's log alone, read as [`Self::read_copy`] reads it but
    /// not verified again: for telling whether it moved on since it was.
    pub fn copy_log(path: &Path) -> Result<Vec<LoggedBatch>> {
        Self::open_copy(path)?.log_batches()
    }

    /// The group's packs another copy keeps (id and text, in the order
    /// kept), read as [`Self::copy_log`] reads its log.
    pub fn copy_house_packs(path: &Path) -> Result<Vec<(String, String)>> {
        Self::open_copy(path)?.house_packs()
    }

    /// Another copy of a campaign opened to be read, never written: a
    /// sound campaign file of this build's schema.
    fn open_copy(path: &Path) -> Result<Self> {
        let path = &absolute(path);
        let version = inspect(path, true)?;
        if version < SCHEMA_VERSION {
            return Err(StoreError::ReadOnly(format!(
                "{} is of schema {version}; open it in this Rapsheet once to upgrade it first",
                path.display()
            )));
        }
        let conn = open_as_it_stands(path)?;
        Ok(Self {
            conn: conn.into(),
            path: path.to_owned(),
            read_only: Some("another copy, read to merge".to_owned()),
            lock: None,
            unchecked: false,
        })
    }

    /// The campaign's own identity, kept by every copy of it whatever the
    /// file is called: twelve hex digits, hashed from its creation.
    pub fn identity(&self) -> Result<String> {
        identity(&self.conn)?.ok_or_else(|| StoreError::Conflict("the campaign has no log".into()))
    }

    /// Writes a backup of the open campaign to `target` (SQLite's online
    /// backup, into a temporary file beside it), checks the copy and only
    /// then renames it into place. A copy that does not check is removed
    /// and reported; a file already at `target` is never replaced.
    pub fn backup_into(&self, target: &Path) -> Result<()> {
        self.copy_to(target, true)
    }
}

/// What a campaign copy holds, read without opening it for writing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CopyFacts {
    /// The campaign's name.
    pub name: String,
    /// The newest record (battle or session) it holds, if any.
    pub newest_record: Option<i64>,
    /// The campaign's identity (see [`CampaignStore::identity`]).
    pub identity: Option<String>,
}

/// Checks a campaign copy, read only: its pages (`PRAGMA quick_check`),
/// that it is a campaign of a schema this build reads, and what it holds.
pub fn check_copy(path: &Path) -> Result<CopyFacts> {
    // What opening refuses is said as opening says it, of this file: not
    // SQLite, another program's, made by a newer Rapsheet, or damaged.
    let version = inspect(path, true)?;
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| StoreError::of_file(path, e))?;
    let damaged = |detail: String| corrupt(path, detail);
    if version < 1 {
        return Err(damaged(format!("schema {version} is not a campaign's")));
    }
    let damaged = |e: rusqlite::Error| trouble(path, &e).unwrap_or_else(|| damaged(e.to_string()));
    let name: String = conn
        .query_row("SELECT name FROM campaign WHERE id = 1", [], |r| r.get(0))
        .map_err(damaged)?;
    let newest_record: Option<i64> = conn
        .query_row("SELECT MAX(id) FROM battle", [], |r| r.get(0))
        .map_err(damaged)?;
    let identity = identity(&conn).map_err(damaged)?;
    Ok(CopyFacts {
        name,
        newest_record,
        identity,
    })
}

/// The campaign's own identity, the same in every copy of it however made
/// (a copy, a backup, a whole bundle made again, a merge): its first
/// batch, the campaign's creation, by id and time to the millisecond,
/// hashed. `None` for a file with no log.
fn identity(conn: &Connection) -> rusqlite::Result<Option<String>> {
    use rusqlite::OptionalExtension;
    let first: Option<(i64, String)> = conn
        .query_row(
            "SELECT id, at FROM batch WHERE id = (SELECT min(id) FROM batch)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(first.map(|(id, at)| {
        let hash = blake3::hash(format!("{id} {at}").as_bytes()).to_hex();
        hash[..12].to_owned()
    }))
}

/// The path made absolute, so the app shows and remembers where the file
/// really is.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

/// The key a photo is stored under, for events that set it.
pub fn photo_key(bytes: &[u8]) -> String {
    photo_hash(bytes)
}

/// A photo's key: the BLAKE3 hash of its bytes (64 hex digits), with its
/// length. Files from before keep their older keys (16 hex digits), which
/// are only ever compared, never worked out again.
fn photo_hash(bytes: &[u8]) -> String {
    format!("{}-{}", blake3::hash(bytes).to_hex(), bytes.len())
}

/// What an SQLite error says of the disk or the file's place rather than
/// of its content: `None` where it may be the file's own (damage, or a
/// file that is not a database).
fn trouble(path: &Path, err: &rusqlite::Error) -> Option<StoreError> {
    use rusqlite::ErrorCode::{
        CannotOpen, DatabaseBusy, DatabaseLocked, DiskFull, PermissionDenied, ReadOnly,
        SystemIoFailure,
    };
    let path = path.to_owned();
    let detail = || {
        let text = err.to_string();
        crate::text::one_line(text.lines().next().unwrap_or_default())
    };
    Some(match err.sqlite_error_code()? {
        DiskFull => StoreError::DiskFull(path),
        SystemIoFailure if disk_is_full(&path) => StoreError::DiskFull(path),
        SystemIoFailure => StoreError::DiskTrouble {
            path,
            detail: detail(),
        },
        CannotOpen | ReadOnly | PermissionDenied => StoreError::CannotOpen {
            path,
            detail: detail(),
        },
        DatabaseBusy | DatabaseLocked => StoreError::Busy(path),
        _ => return None,
    })
}

/// Whether the disk `path` is on has no room: a few pages written to an
/// unnamed temporary file beside it (gone when closed) do not fit.
fn disk_is_full(path: &Path) -> bool {
    use std::io::Write as _;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let full = |e: &std::io::Error| e.kind() == std::io::ErrorKind::StorageFull;
    match tempfile::tempfile_in(folder) {
        Err(e) => full(&e),
        Ok(mut probe) => probe
            .write_all(&[0; 64 * 1024])
            .and_then(|()| probe.sync_all())
            .is_err_and(|e| full(&e)),
    }
}

fn is_busy(err: &rusqlite::Error) -> bool {
    matches!(
        err.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

fn corrupt(path: &Path, detail: impl Into<String>) -> StoreError {
    // SQLite's reports span lines; an error here is one line.
    let detail = detail
        .into()
        .split_whitespace()
        .filter(|w| *w != "***")
        .collect::<Vec<_>>()
        .join(" ");
    StoreError::Corrupt {
        path: path.to_owned(),
        detail,
    }
}

/// Checks a file before anything opens it for writing: the SQLite header,
/// our application id, the schema version, and SQLite's own quick check.
/// Whether the file at `path` is a Rapsheet campaign, by its header alone
/// (read, never written, nothing opened as a database): an SQLite
/// database stamped with Rapsheet's application id, or an SQLite database
/// with a write-ahead log beside it (a campaign whose stamp may still be in
/// the log). No output ever replaces one.
pub fn is_campaign_file(path: &Path) -> bool {
    // Never opened unless a plain file: a FIFO would wait for a writer.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut header = [0u8; 72];
    let read = File::open(path).and_then(|mut f| f.read_exact(&mut header));
    if read.is_err() || !header.starts_with(SQLITE_HEADER) {
        return false;
    }
    let app = i64::from(u32::from_be_bytes([
        header[68], header[69], header[70], header[71],
    ]));
    app == APPLICATION_ID || wal_path(path).exists()
}

/// Returns the schema version. Reads only.
fn inspect(path: &Path, pages: bool) -> Result<i64> {
    let io = |source| StoreError::Io {
        path: path.to_owned(),
        source,
    };
    // A pipe, a device or a folder is refused before it is opened: opening
    // a FIFO would wait for a writer that may never come.
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return Err(StoreError::NotAFile(path.to_owned())),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(StoreError::NotFound(path.to_owned()));
        }
        Err(e) => return Err(io(e)),
    }
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(StoreError::NotFound(path.to_owned()));
        }
        Err(e) => return Err(io(e)),
    };
    let mut header = [0u8; 100];
    let mut filled = 0;
    while filled < header.len() {
        match file.read(&mut header[filled..]).map_err(io)? {
            0 => break,
            n => filled += n,
        }
    }
    if filled < header.len() || !header.starts_with(SQLITE_HEADER) {
        return Err(StoreError::NotSqlite(path.to_owned()));
    }
    let len = file.metadata().map_err(io)?.len();
    drop(file);
    check_length(path, &header, len, wal_path(path).exists())?;

    let shm_was_there = shm_path(path).exists();
    let conn = open_as_it_stands(path).map_err(|e| match e {
        StoreError::Sqlite(e) => StoreError::of_file(path, e),
        other => other,
    })?;
    if let Err(err) = wal_belongs(path, &conn) {
        // Nothing of the refused log is left beside the campaign: not
        // even the index SQLite made of it to read it.
        drop(conn);
        if !shm_was_there {
            let _ = std::fs::remove_file(shm_path(path));
        }
        return Err(err);
    }
    let check = |conn: &Connection| -> rusqlite::Result<(i64, i64)> {
        let app: i64 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        Ok((app, version))
    };
    let (app, version) = check(&conn).map_err(|err| inspection_error(path, &err))?;
    if app != APPLICATION_ID {
        return Err(StoreError::NotRapsheet(path.to_owned()));
    }
    if version < 0 {
        return Err(corrupt(
            path,
            format!("schema version {version} is not one Rapsheet writes"),
        ));
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_owned(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    if pages {
        pages_of(path, &conn)?;
    }
    Ok(version)
}

/// SQLite's check of every page of the campaign at `path` (its quick
/// check: it reads the whole file), on a connection of its own that only
/// reads: what opening checks, said as opening says it. Safe beside the
/// campaign's own connection, on another thread.
pub fn check_pages(path: &Path) -> Result<()> {
    let conn = open_as_it_stands(path).map_err(|e| match e {
        StoreError::Sqlite(e) => StoreError::of_file(path, e),
        other => other,
    })?;
    pages_of(path, &conn)
}

/// The quick check of the file `conn` reads.
fn pages_of(path: &Path, conn: &Connection) -> Result<()> {
    let quick: String = conn
        .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
        .map_err(|err| inspection_error(path, &err))?;
    if quick != "ok" {
        return Err(corrupt(path, quick));
    }
    Ok(())
}

/// An SQLite error met inspecting the file at `path`, said as what it is.
fn inspection_error(path: &Path, err: &rusqlite::Error) -> StoreError {
    if is_busy(err) {
        return StoreError::Busy(path.to_owned());
    }
    match err.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => StoreError::NotSqlite(path.to_owned()),
        _ => trouble(path, err).unwrap_or_else(|| corrupt(path, err.to_string())),
    }
}

/// Whether the file's header says it is kept with a write-ahead log
/// (bytes 18 and 19 are 2): opening it so writes nothing to it.
fn has_wal_header(path: &Path) -> bool {
    let mut header = [0u8; 20];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut header))
        .is_ok_and(|()| header[18] == 2 && header[19] == 2)
}

/// Refuses a write-ahead log beside the campaign that is not its own (a
/// `-wal` of another campaign, or of another copy of this one, copied in
/// beside it), before anything is taken from it into the file. SQLite
/// cannot tell: its log names no file, and the file keeps nothing of the
/// log (its salts and checkpoint live in the log and its index alone). So
/// the campaign read with the log (`with_wal`) is held to the campaign
/// read without it: pages of the same size, the same campaign (its
/// identity, from its creation), and the same change at the newest one
/// both hold that no sync can have taken back, as a log that only goes
/// on from the file would be.
fn wal_belongs(path: &Path, with_wal: &Connection) -> Result<()> {
    let wal = wal_path(path);
    if std::fs::metadata(&wal).map_or(true, |m| m.len() == 0) {
        return Ok(());
    }
    let foreign = |why: String| StoreError::ForeignWal {
        path: path.to_owned(),
        wal: wal
            .file_name()
            .map(|n| crate::text::one_line(&n.to_string_lossy()))
            .unwrap_or_default(),
        why,
    };
    let alone = open_immutable(path)?;
    let page_size = |c: &Connection| c.query_row("PRAGMA page_size", [], |r| r.get::<_, i64>(0));
    if let (Ok(file), Some(logged)) = (page_size(&alone), wal_page_size(&wal))
        && file != logged
    {
        return Err(foreign(format!(
            "its pages are of {logged} bytes, the campaign's of {file}"
        )));
    }
    // A file that holds no log of its own yet has nothing to hold it to.
    let Ok(Some(ours)) = identity(&alone) else {
        return Ok(());
    };
    match identity(with_wal) {
        Ok(Some(theirs)) if theirs == ours => {}
        Ok(Some(_)) => return Err(foreign("it holds another campaign's log".into())),
        Ok(None) => return Err(foreign("it holds no campaign's log".into())),
        Err(e) => match trouble(path, &e) {
            Some(said) => return Err(said),
            None => {
                let why = e.to_string();
                let why = why.lines().next().unwrap_or_default();
                return Err(foreign(format!("its log cannot be read: {why}")));
            }
        },
    }
    let newest = |c: &Connection| -> Option<i64> {
        c.query_row("SELECT max(id) FROM batch", [], |r| r.get(0))
            .ok()
            .flatten()
    };
    // The changes a league has taken in stay: those after may be taken
    // back in a sync, and another comes in their place.
    let synced: Option<i64> = alone
        .query_row("SELECT synced FROM league WHERE one = 1", [], |r| r.get(0))
        .ok();
    let (Some(here), Some(there)) = (newest(&alone), newest(with_wal)) else {
        return Ok(());
    };
    let at = here.min(there).min(synced.unwrap_or(i64::MAX));
    let batch = |c: &Connection| -> Option<(String, String)> {
        c.query_row("SELECT at, label FROM batch WHERE id = ?1", [at], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .ok()
    };
    if at > 0 && batch(&alone) != batch(with_wal) {
        return Err(foreign(format!(
            "it holds another copy's change #{at}, not the campaign's"
        )));
    }
    Ok(())
}

/// The page size a write-ahead log's header gives, where it is one.
fn wal_page_size(wal: &Path) -> Option<i64> {
    let mut header = [0u8; 32];
    File::open(wal).ok()?.read_exact(&mut header).ok()?;
    let magic = u32::from_be_bytes([header[0], header[1], header[2], header[3]]);
    if magic & !1 != 0x377f_0682 {
        return None;
    }
    let size = u32::from_be_bytes([header[8], header[9], header[10], header[11]]);
    Some(if size == 1 { 65_536 } else { i64::from(size) })
}

fn shm_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-shm");
    PathBuf::from(name)
}

fn wal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

fn open_immutable(path: &Path) -> Result<Connection> {
    let uri = url_path(path);
    let conn = Connection::open_with_flags(
        format!("file:{uri}?immutable=1"),
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )?;
    Ok(conn)
}

/// A path as the path part of an SQLite `file:` URI.
fn url_path(path: &Path) -> String {
    let absolute = absolute(path);
    let mut out = String::new();
    for byte in absolute.to_string_lossy().replace('\\', "/").bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' | b':' => {
                out.push(byte as char)
            }
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

/// A file opened to read, never to write. With no WAL beside it, the file
/// alone is the whole database: it is read as immutable so that not even a
/// `-shm` file appears next to it.
fn open_as_it_stands(path: &Path) -> Result<Connection> {
    if wal_path(path).exists() {
        open_read_only(path)
    } else {
        open_immutable(path)
    }
}

fn open_read_only(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_millis(250))?;
    Ok(conn)
}

/// The settings of a scratch campaign in memory (a replay).
fn configure_memory(conn: &Connection) -> Result<()> {
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

fn configure(conn: &Connection) -> Result<()> {
    configure_connection(conn)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    Ok(())
}

/// The settings of this connection alone; nothing written to the file.
fn configure_connection(conn: &Connection) -> Result<()> {
    conn.busy_timeout(Duration::from_millis(250))?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

/// Runs every migration after `from`, all in one transaction with the
/// version stamp, so a crash or a failing step leaves the file exactly as
/// it was.
fn migrate(conn: &mut Connection, from: i64) -> Result<()> {
    if from >= SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    for (index, sql) in migrations::MIGRATIONS.iter().enumerate() {
        let target = index as i64 + 1;
        if target <= from {
            continue;
        }
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", target)?;
    }
    tx.commit()?;
    Ok(())
}

/// Copies the file with SQLite's online backup before a migration:
/// `campaign.rapsheet` → `campaign.rapsheet.v1.bak`. Once per version: a
/// copy of this version already there is the file as it was before any
/// upgrade was tried, and is kept as it is.
fn backup_before_migration(conn: &Connection, path: &Path, version: i64) -> Result<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "campaign".into());
    let target = path.with_file_name(format!("{name}.v{version}.bak"));
    if target.exists() {
        return Ok(target);
    }
    conn.backup(
        rusqlite::MAIN_DB,
        &target,
        None::<fn(rusqlite::backup::Progress)>,
    )?;
    Ok(target)
}

/// The photos nothing can show again: no fighter shows them, and no change
/// in effect took one away (undoing it would bring the photo back).
/// Undoing a photo's arrival leaves it here; a redo after that asks for
/// the picture again.
pub(super) const UNREACHABLE_PHOTOS: &str = "SELECT hash FROM photo \
     WHERE hash NOT IN (SELECT photo FROM fighter WHERE photo IS NOT NULL) \
     AND hash NOT IN ( \
         SELECT json_extract(e.payload, '$.from') FROM event e JOIN batch b ON b.id = e.batch_id \
         WHERE e.kind = 'photo_changed' AND json_extract(e.payload, '$.from') IS NOT NULL \
         AND NOT EXISTS (SELECT 1 FROM batch u WHERE u.undoes = b.id) \
         AND (b.undoes IS NULL \
              OR (SELECT p.undoes FROM batch p WHERE p.id = b.undoes) IS NOT NULL))";

/// Removes the photos nothing can show again, in the undo's transaction.
fn collect_photos(tx: &rusqlite::Transaction<'_>) -> Result<()> {
    tx.execute(
        &format!("DELETE FROM photo WHERE hash IN ({UNREACHABLE_PHOTOS})"),
        [],
    )?;
    Ok(())
}

/// An SQLite error in one line, without the SQL it came from.
fn one_line(err: &StoreError) -> String {
    if let StoreError::Sqlite(e) = err
        && let Some(words) = words::constraint(e)
    {
        return words;
    }
    let text = match err {
        StoreError::Sqlite(rusqlite::Error::SqlInputError { msg, .. }) => msg.clone(),
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(_, Some(msg))) => msg.clone(),
        other => other.to_string(),
    };
    text.lines().next().unwrap_or_default().to_owned()
}

/// A temporary file beside `target` for a campaign written there whole,
/// named so that the next run clears it if this one is killed; the ones
/// an earlier run left are cleared first.
fn temp_sibling(target: &Path) -> PathBuf {
    crate::output::clear_stale_temporaries(target);
    crate::output::temp_sibling(target)
}

/// Replays batches into an open transaction, each with its own id, time
/// and label, every event through `check`; `offset` is the index of the
/// first in the whole log, for naming the field of a refused event.
fn replay(
    tx: &rusqlite::Transaction<'_>,
    batches: &[LoggedBatch],
    offset: usize,
    check: &mut Check,
) -> Result<()> {
    for (i, batch) in batches.iter().enumerate() {
        tx.prepare_cached("INSERT INTO batch (id, at, label, undoes) VALUES (?1, ?2, ?3, ?4)")?
            .execute((batch.id, &batch.at, &batch.label, batch.undoes))?;
        for (j, event) in batch.events.iter().enumerate() {
            let at = format!("log.batches[{}].events[{j}]", offset.saturating_add(i));
            check(&gate_state::Reading(tx), event, batch.undoes.is_some())
                .map_err(|e| e.within(&at))?;
            apply::apply(tx, event).map_err(|e| match e {
                StoreError::Conflict(why) => StoreError::Conflict(format!("{at}: {why}")),
                other => other,
            })?;
            tx.prepare_cached(
                "INSERT INTO event (batch_id, kind, gang_id, fighter_id, battle_id, payload) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute((
                batch.id,
                event.kind(),
                event.gang(),
                event.fighter(),
                event.battle(),
                crate::campaign::wire::encode(event)?,
            ))?;
        }
    }
    Ok(())
}

/// The lock file next to a campaign, held while it is open for writing.
fn lock_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{name}.lock"))
}

/// What came of taking the lock beside a campaign.
enum Lock {
    Held(File),
    /// The folder cannot be written to (permissions, read-only media):
    /// then neither can the campaign's journal, so it opens read-only.
    FolderReadOnly,
}

fn take_lock(path: &Path) -> Result<Lock> {
    let lock_path = lock_path(path);
    let file = match File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
    {
        Ok(file) => file,
        Err(e) if cannot_write(&e) => return Ok(Lock::FolderReadOnly),
        Err(source) => {
            return Err(StoreError::Io {
                path: lock_path,
                source,
            });
        }
    };
    match file.try_lock() {
        Ok(()) => Ok(Lock::Held(file)),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Busy(path.to_owned())),
        Err(std::fs::TryLockError::Error(source)) => Err(StoreError::Io {
            path: lock_path,
            source,
        }),
    }
}

/// Why the file itself cannot be written, if it cannot: its permissions,
/// or media mounted read-only. Opens it for writing to ask, writes nothing.
fn not_writable(path: &Path) -> Result<Option<String>> {
    let metadata = std::fs::metadata(path).map_err(|source| StoreError::Io {
        path: path.to_owned(),
        source,
    })?;
    if metadata.permissions().readonly() {
        return Ok(Some("the file is read-only on disk".to_owned()));
    }
    match File::options().read(true).write(true).open(path) {
        Ok(_) => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
            Ok(Some("it is on read-only media".to_owned()))
        }
        Err(e) if cannot_write(&e) => Ok(Some("the file cannot be written to".to_owned())),
        Err(source) => Err(StoreError::Io {
            path: path.to_owned(),
            source,
        }),
    }
}

fn cannot_write(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
    )
}

/// Checks the file's length against its header: a file cut short (even by
/// one byte) would read its missing tail as zeros and fail later, far from
/// the cause. With a WAL beside it the header may lag behind, so only whole
/// pages are asked for then.
fn check_length(path: &Path, header: &[u8; 100], len: u64, has_wal: bool) -> Result<()> {
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65_536,
        n => u64::from(n),
    };
    if page_size < 512 || !page_size.is_power_of_two() {
        return Err(corrupt(
            path,
            format!("page size {page_size} in its header"),
        ));
    }
    if !len.is_multiple_of(page_size) {
        return Err(corrupt(
            path,
            format!("it is cut short: {len} bytes is not a whole number of {page_size}-byte pages"),
        ));
    }
    let change_counter = &header[24..28];
    let valid_for = &header[92..96];
    let pages = u64::from(u32::from_be_bytes([
        header[28], header[29], header[30], header[31],
    ]));
    if !has_wal && change_counter == valid_for && pages > 0 && len < pages * page_size {
        return Err(corrupt(
            path,
            format!(
                "it is cut short: {len} bytes, its header says {}",
                pages * page_size
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
