//! The campaign file's side of a league: where the league's server is,
//! how far this file has replayed the server's log, and each batch's name
//! there (made on the laptop that made the batch) with who made it.
//!
//! Batches `1..=synced` of a league campaign are the server's, in its
//! order and with its numbers; those after are this laptop's, not yet
//! sent. No password is kept in the file.

use rusqlite::{OptionalExtension as _, TransactionBehavior};

use super::{CampaignStore, Check, Result, StoreError, StoredPhoto, replay};
use crate::campaign::{BatchId, Event, LoggedBatch};
use crate::store::league::MemberKey;

/// Where a campaign's league server is, and how far this file holds its
/// log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueTie {
    pub host: String,
    pub port: u16,
    pub database: String,
    /// The member's login on the server.
    pub login: String,
    /// The league's certificate (PEM), the only one the connection trusts.
    pub certificate: String,
    /// The server's batches this file holds: `1..=synced`.
    pub synced: i64,
    /// When this file last met the server (RFC 3339).
    pub last_sync: Option<String>,
}

/// A league's batch this file holds left out: its number, the time, its
/// label (`Left out: …` with the reason) and who sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOutBatch {
    pub batch: BatchId,
    pub at: String,
    pub label: String,
    pub author: Option<String>,
}

/// One link of the league's chain as this file keeps it: the server's
/// batch `seq`, its hash, the digest of its fields that hash linked (none
/// where the hash was taken from the server as it stood), and whether the
/// batch is kept here exactly as the server holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub seq: i64,
    pub hash: String,
    pub digest: Option<String>,
    pub exact: bool,
    /// The format the batch was held to; none where it was left out for
    /// the format it claims or its signature (or before formats).
    pub format: Option<i64>,
    /// Its author's signature of its hash, where it carries one.
    pub signature: Option<String>,
}

/// A key the league's chain trusts for a member from its batch `since` on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedKey {
    pub login: String,
    pub public_key: String,
    pub since: i64,
}

/// A batch's name in the league and who made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchName {
    pub batch: BatchId,
    pub uid: String,
    pub author: String,
}

impl CampaignStore {
    /// The league this campaign is tied to, if it is.
    pub fn league(&self) -> Result<Option<LeagueTie>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT host, port, database, login, certificate, synced, last_sync \
                 FROM league WHERE one = 1",
            )?
            .query_row([], |r| {
                Ok(LeagueTie {
                    host: r.get(0)?,
                    port: r.get(1)?,
                    database: r.get(2)?,
                    login: r.get(3)?,
                    certificate: r.get(4)?,
                    synced: r.get(5)?,
                    last_sync: r.get(6)?,
                })
            })
            .optional()?)
    }

    /// The names of the batches after `after`, oldest first; a batch with
    /// no name yet is left out.
    pub fn batch_names(&self, after: BatchId) -> Result<Vec<BatchName>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT batch_id, uid, author FROM league_batch WHERE batch_id > ?1 ORDER BY batch_id",
        )?;
        let rows = stmt.query_map([after], |r| {
            Ok(BatchName {
                batch: r.get(0)?,
                uid: r.get(1)?,
                author: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The league's batches this file holds left out (empty, labelled
    /// `Left out: …` with the reason), oldest first.
    pub fn league_left_out(&self) -> Result<Vec<LeftOutBatch>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT b.id, b.at, b.label, l.author FROM batch b \
             JOIN league_batch l ON l.batch_id = b.id \
             WHERE b.label LIKE 'Left out: %' \
               AND NOT EXISTS (SELECT 1 FROM event e WHERE e.batch_id = b.id) \
             ORDER BY b.id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(LeftOutBatch {
                batch: r.get(0)?,
                at: r.get(1)?,
                label: r.get(2)?,
                author: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Who sent the league's batch `batch`, where this file names it.
    pub fn league_author(&self, batch: BatchId) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT author FROM league_batch WHERE batch_id = ?1")?
            .query_row([batch], |r| r.get(0))
            .optional()?)
    }

    /// The hash this file keeps for the server's batch `seq`, if any.
    pub fn league_hash(&self, seq: i64) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT hash FROM league_hash WHERE seq = ?1")?
            .query_row([seq], |r| r.get(0))
            .optional()?)
    }

    /// The hashes this file keeps for the server's batches `1..=upto`.
    pub fn league_hashes(&self, upto: i64) -> Result<Vec<(i64, String)>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT seq, hash FROM league_hash WHERE seq <= ?1 ORDER BY seq")?;
        let rows = stmt.query_map([upto], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The links of the league's chain this file keeps for batches
    /// `1..=upto`, in order.
    pub fn league_links(&self, upto: i64) -> Result<Vec<Link>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT seq, hash, digest, exact, format, signature FROM league_hash \
             WHERE seq <= ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map([upto], |r| {
            Ok(Link {
                seq: r.get(0)?,
                hash: r.get(1)?,
                digest: r.get(2)?,
                exact: r.get(3)?,
                format: r.get(4)?,
                signature: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Keeps the links of the server's batches, as this laptop checked
    /// them: one transaction.
    pub fn keep_league_hashes(&mut self, links: &[Link]) -> Result<()> {
        self.writable()?;
        if links.is_empty() {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR REPLACE INTO league_hash (seq, hash, digest, exact, format, signature) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for link in links {
                stmt.execute((
                    link.seq,
                    &link.hash,
                    &link.digest,
                    link.exact,
                    link.format,
                    &link.signature,
                ))?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The newest format the league's batches `1..=upto` this file holds
    /// were held to (1 where none says): that of the newest held to one,
    /// as no batch is held to a format older than one before it.
    pub fn league_reached_format(&self, upto: i64) -> Result<i64> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT format FROM league_hash WHERE seq <= ?1 AND format IS NOT NULL \
                 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row([upto], |r| r.get(0))
            .optional()?
            .unwrap_or(1))
    }

    /// The keys the league's chain trusts, as of its batch `upto`, oldest
    /// first (a member's newest is the one that holds).
    pub fn league_trusted(&self, upto: i64) -> Result<Vec<TrustedKey>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT login, public_key, since FROM league_trust WHERE since <= ?1 ORDER BY since",
        )?;
        let rows = stmt.query_map([upto], |r| {
            Ok(TrustedKey {
                login: r.get(0)?,
                public_key: r.get(1)?,
                since: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Keeps the keys the league's chain came to trust: one transaction.
    pub fn keep_league_trusted(&mut self, keys: &[TrustedKey]) -> Result<()> {
        self.writable()?;
        if keys.is_empty() {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR REPLACE INTO league_trust (login, public_key, since) VALUES (?1, ?2, ?3)",
            )?;
            for key in keys {
                stmt.execute((&key.login, &key.public_key, key.since))?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The print of the league's batches `1..=upto` this file last saw,
    /// and `upto`.
    pub fn league_print(&self) -> Result<Option<(i64, String)>> {
        Ok(self
            .conn
            .prepare_cached("SELECT print_upto, print FROM league WHERE one = 1")?
            .query_row([], |r| {
                Ok(r.get::<_, Option<i64>>(0)?
                    .zip(r.get::<_, Option<String>>(1)?))
            })
            .optional()?
            .flatten())
    }

    /// Keeps the print of the league's batches `1..=upto`.
    pub fn keep_league_print(&mut self, upto: i64, print: &str) -> Result<()> {
        self.writable()?;
        self.conn
            .prepare_cached("UPDATE league SET print_upto = ?1, print = ?2 WHERE one = 1")?
            .execute((upto, print))?;
        Ok(())
    }

    /// The league's members as the server last said: their gangs, whether
    /// they organise, and when each last synced there.
    pub fn league_members_kept(&self) -> Result<Vec<crate::store::league::Member>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT login, organiser, gangs, synced_at, synced_to FROM league_member ORDER BY login",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, bool>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<i64>>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (login, organiser, gangs, at, head) = row?;
            out.push(crate::store::league::Member {
                login,
                organiser,
                gangs: serde_json::from_str(&gangs)?,
                synced: at.zip(head),
            });
        }
        Ok(out)
    }

    /// Keeps the league's members as the server says now, in place of
    /// those kept before: one transaction.
    pub fn keep_league_members(&mut self, members: &[crate::store::league::Member]) -> Result<()> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute("DELETE FROM league_member", [])?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO league_member (login, organiser, gangs, synced_at, synced_to) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for m in members {
                let (at, head) = m.synced.clone().unzip();
                stmt.execute((
                    &m.login,
                    m.organiser,
                    serde_json::to_string(&m.gangs)?,
                    at,
                    head,
                ))?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The league's members' keys this file has pinned.
    pub fn league_keys(&self) -> Result<Vec<MemberKey>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT login, public_key, made FROM league_key ORDER BY login, made",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(MemberKey {
                login: r.get(0)?,
                public_key: r.get(1)?,
                made: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Pins members' keys: one transaction; a key pinned before stays as
    /// it is.
    pub fn pin_league_keys(&mut self, keys: &[MemberKey]) -> Result<()> {
        self.writable()?;
        if keys.is_empty() {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR IGNORE INTO league_key (login, public_key, made) VALUES (?1, ?2, ?3)",
            )?;
            for key in keys {
                stmt.execute((&key.login, &key.public_key, &key.made))?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Ties the file to a league, with the name of every batch it holds
    /// of the league's log: one transaction.
    pub fn tie_to_league(&mut self, tie: &LeagueTie, names: &[BatchName]) -> Result<()> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        write_tie(&tx, tie)?;
        write_names(&tx, names)?;
        tx.commit()?;
        Ok(())
    }

    /// Names batches made here before they are sent, so that a send cut
    /// short is known again by its names when the server's log comes back.
    pub fn name_batches(&mut self, names: &[BatchName]) -> Result<()> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        write_names(&tx, names)?;
        tx.commit()?;
        Ok(())
    }

    /// Finds the league's server at `tie`'s host, port and database from
    /// now on, trusting its certificate (PEM): a renewed certificate, or a
    /// server the league moved to.
    pub fn point_league(&mut self, tie: &LeagueTie) -> Result<()> {
        self.writable()?;
        self.conn
            .prepare_cached(
                "UPDATE league SET host = ?1, port = ?2, database = ?3, certificate = ?4 \
                 WHERE one = 1",
            )?
            .execute((&tie.host, tie.port, &tie.database, &tie.certificate))?;
        Ok(())
    }

    /// Notes that the file holds the server's log up to `synced`, as of
    /// `at`.
    pub fn mark_synced(&mut self, synced: i64, at: &str) -> Result<()> {
        self.writable()?;
        self.conn
            .prepare_cached("UPDATE league SET synced = ?1, last_sync = ?2 WHERE one = 1")?
            .execute((synced, at))?;
        Ok(())
    }

    /// Replays the server's new batches after the whole log here (each
    /// with its own id, time and label, every event through `check`), names
    /// them, and notes how far the file now holds the server's log: one
    /// transaction, so a sync cut short leaves the file as it was.
    pub fn append_from_league(
        &mut self,
        batches: &[LoggedBatch],
        names: &[BatchName],
        photos: &[StoredPhoto],
        synced: i64,
        at: &str,
        check: &mut Check,
    ) -> Result<()> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        append_in(&tx, batches, names, photos, synced, at, check)?;
        tx.commit()?;
        Ok(())
    }

    /// Takes this laptop's unsent batches (those after `synced`, the last
    /// the server has) out of the log and the state, newest first, their
    /// events undone exactly; then `fill` appends what goes after them
    /// (the server's new batches, these made again): all in one
    /// transaction, so a sync cut short leaves the file as it was. Costs
    /// what is taken out and put in, not the campaign's size.
    pub fn rewind(
        &mut self,
        synced: i64,
        fill: &mut dyn FnMut(&mut Rewound<'_>) -> Result<()>,
    ) -> Result<()> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        rewind_in(&tx, synced)?;
        let mut rewound = Rewound {
            tx: &tx,
            savepoints: 0,
        };
        fill(&mut rewound)?;
        super::collect_photos(&tx)?;
        tx.commit()?;
        Ok(())
    }

    /// Appends in one transaction, nothing taken back first: `fill`
    /// appends through the file as it stands, each append a savepoint,
    /// and nothing is kept unless all of it is. Many appends, one write
    /// to the disk.
    pub fn appending(
        &mut self,
        fill: &mut dyn FnMut(&mut Rewound<'_>) -> Result<()>,
    ) -> Result<()> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        fill(&mut Rewound {
            tx: &tx,
            savepoints: 0,
        })?;
        tx.commit()?;
        Ok(())
    }

    /// The stored photos with these keys (those there are).
    pub fn photos_with_keys(&self, keys: &[String]) -> Result<Vec<StoredPhoto>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT hash, mime, bytes FROM photo WHERE hash = ?1")?;
        let mut out = Vec::new();
        for key in keys {
            if let Some(photo) = stmt
                .query_row([key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?
            {
                out.push(photo);
            }
        }
        Ok(out)
    }

    fn writable(&self) -> Result<()> {
        match &self.read_only {
            Some(reason) => Err(StoreError::ReadOnly(reason.clone())),
            None => Ok(()),
        }
    }
}

/// The campaign as far as the league's batches have been appended, or a
/// log replayed: what a record made again reads.
pub trait Replayed {
    /// The house packs the campaign keeps, as far as it has come.
    fn house_packs(&self) -> Result<Vec<(String, String)>>;

    /// The campaign as a record's procedure reads it, as far as it has
    /// come.
    fn ground(&self) -> super::Ground<'_>;

    /// The events of the batch that takes `batch` back
    /// ([`CampaignStore::undo`]'s), as far as the log has come.
    fn taking_back(&self, batch: BatchId) -> Result<Vec<Event>>;
}

/// Where the league's batches are appended: the file (each append its
/// own transaction) or a file being rewound (each append a savepoint of
/// the rewind's transaction). Either way an append that fails leaves
/// nothing of itself.
pub trait Appender: Replayed {
    /// Replays batches after the log (each with its own id, time and
    /// label, every event through `check`), with the photos they show,
    /// names them and notes the file holds the server's log to `synced`.
    fn append(
        &mut self,
        batches: &[LoggedBatch],
        names: &[BatchName],
        photos: &[StoredPhoto],
        synced: i64,
        at: &str,
        check: &mut Check,
    ) -> Result<()>;
}

impl Appender for CampaignStore {
    fn append(
        &mut self,
        batches: &[LoggedBatch],
        names: &[BatchName],
        photos: &[StoredPhoto],
        synced: i64,
        at: &str,
        check: &mut Check,
    ) -> Result<()> {
        self.append_from_league(batches, names, photos, synced, at, check)
    }
}

impl Replayed for CampaignStore {
    fn house_packs(&self) -> Result<Vec<(String, String)>> {
        CampaignStore::house_packs(self)
    }

    fn ground(&self) -> super::Ground<'_> {
        CampaignStore::ground(self)
    }

    fn taking_back(&self, batch: BatchId) -> Result<Vec<Event>> {
        Ok(super::read::taking_back(&self.conn, batch)?.1)
    }
}

/// A file inside [`CampaignStore::rewind`]'s or
/// [`CampaignStore::appending`]'s transaction.
pub struct Rewound<'t> {
    tx: &'t rusqlite::Transaction<'t>,
    savepoints: u32,
}

impl Appender for Rewound<'_> {
    fn append(
        &mut self,
        batches: &[LoggedBatch],
        names: &[BatchName],
        photos: &[StoredPhoto],
        synced: i64,
        at: &str,
        check: &mut Check,
    ) -> Result<()> {
        self.savepoints += 1;
        let name = format!("append_{}", self.savepoints);
        self.tx.execute_batch(&format!("SAVEPOINT {name}"))?;
        match append_in(self.tx, batches, names, photos, synced, at, check) {
            Ok(()) => {
                self.tx.execute_batch(&format!("RELEASE {name}"))?;
                Ok(())
            }
            Err(err) => {
                self.tx
                    .execute_batch(&format!("ROLLBACK TO {name}; RELEASE {name}"))?;
                Err(err)
            }
        }
    }
}

impl Replayed for Rewound<'_> {
    fn house_packs(&self) -> Result<Vec<(String, String)>> {
        super::read::house_packs(self.tx)
    }

    fn ground(&self) -> super::Ground<'_> {
        super::Ground(self.tx)
    }

    fn taking_back(&self, batch: BatchId) -> Result<Vec<Event>> {
        Ok(super::read::taking_back(self.tx, batch)?.1)
    }
}

fn append_in(
    tx: &rusqlite::Transaction<'_>,
    batches: &[LoggedBatch],
    names: &[BatchName],
    photos: &[StoredPhoto],
    synced: i64,
    at: &str,
    check: &mut Check,
) -> Result<()> {
    // Batch ids are dense from 1: the newest is how many there are.
    let offset: i64 = tx.query_row("SELECT coalesce(max(id), 0) FROM batch", [], |r| r.get(0))?;
    for (hash, mime, bytes) in photos {
        tx.prepare_cached("INSERT OR IGNORE INTO photo (hash, mime, bytes) VALUES (?1, ?2, ?3)")?
            .execute((hash, mime, bytes))?;
    }
    replay(tx, batches, usize::try_from(offset).unwrap_or(0), check)?;
    write_names(tx, names)?;
    tx.prepare_cached("UPDATE league SET synced = ?1, last_sync = ?2 WHERE one = 1")?
        .execute((synced, at))?;
    Ok(())
}

/// Takes the batches after `synced` out of the log and the state, newest
/// first, each event undone by its exact inverse.
fn rewind_in(tx: &rusqlite::Transaction<'_>, synced: i64) -> Result<()> {
    tx.execute("INSERT INTO league_rewind (one) VALUES (1)", [])?;
    // Newest first, read down the batch index: the events after `synced`
    // alone, however long the log (ordered by id alone, SQLite would walk
    // every event).
    let events: Vec<(i64, String)> = tx
        .prepare(
            "SELECT id, payload FROM event WHERE batch_id > ?1 ORDER BY batch_id DESC, id DESC",
        )?
        .query_map([synced], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, payload) in events {
        let event = crate::campaign::wire::decode(&payload)
            .map_err(|source| StoreError::BadEvent { event: id, source })?;
        super::apply::apply(tx, &event.inverse())?;
    }
    tx.execute("DELETE FROM league_batch WHERE batch_id > ?1", [synced])?;
    tx.execute("DELETE FROM event WHERE batch_id > ?1", [synced])?;
    tx.execute("DELETE FROM batch WHERE id > ?1", [synced])?;
    tx.execute("DELETE FROM league_rewind", [])?;
    Ok(())
}

fn write_tie(tx: &rusqlite::Transaction<'_>, tie: &LeagueTie) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO league (one, host, port, database, login, certificate, synced, last_sync) \
         VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7) \
         ON CONFLICT (one) DO UPDATE SET host = ?1, port = ?2, database = ?3, login = ?4, \
         certificate = ?5, synced = ?6, last_sync = ?7",
    )?
    .execute((
        &tie.host,
        tie.port,
        &tie.database,
        &tie.login,
        &tie.certificate,
        tie.synced,
        &tie.last_sync,
    ))?;
    Ok(())
}

fn write_names(tx: &rusqlite::Transaction<'_>, names: &[BatchName]) -> Result<()> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO league_batch (batch_id, uid, author) VALUES (?1, ?2, ?3) \
         ON CONFLICT (batch_id) DO UPDATE SET uid = ?2, author = ?3",
    )?;
    for name in names {
        stmt.execute((name.batch, &name.uid, &name.author))?;
    }
    Ok(())
}
