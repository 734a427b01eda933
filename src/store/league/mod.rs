//! A league's server: one PostgreSQL database shared by every laptop of a
//! league, holding one append-only table of batches in the server's order.
//!
//! [`League`] is the only place that speaks to PostgreSQL. The server adds
//! order, durability and authority only: a gapless sequence, the author and
//! the time stamped by PostgreSQL, row-level security on who may append
//! what, and no update, delete or truncate for anyone. The schema is
//! versioned SQL (`schema/`), applied by [`League::init`] in order.
//!
//! The connection is TLS only, the league's certificate pinned (see
//! [`tls`]); a password is passed in, used and never kept, shown or
//! logged. A member's password goes to the server only as a SCRAM
//! verifier.
//!
//! Who may append what (the rule of `campaign::league`, enforced by the
//! server's row-level security): every member reads every batch; the
//! organiser appends anything; a player appends a batch whose every
//! touched gang is theirs, or a record (a battle recorded or taken back)
//! naming one of their gangs that touches only the gangs it names, so a
//! record carries its effects on the rival; never a campaign-wide batch.
//! A player's gangs are those the organiser assigned ([`League::invite`],
//! [`League::assign`]) and those their own batches founded while no one
//! owned them and no earlier batch had touched them; a gang the organiser
//! founds stays unassigned until assigned.
//!
//! The server needs, for `init`: an empty database owned by the organiser's
//! login, a login with CREATEROLE (to invite members), and in
//! `pg_hba.conf` only `hostssl … scram-sha-256` lines for the league's
//! database, with `hostnossl all all 0.0.0.0/0 reject` so that a plain
//! connection is refused.

pub mod chain;
mod error;
mod restore;
mod schema;
pub mod signature;
pub mod tls;
mod wire;

use std::time::Duration;

use rand::RngExt;

pub use error::{LeagueError, PushError};
pub use schema::{NEWEST_FORMAT, SCHEMA_VERSION};
pub use wire::{CONNECT_WAIT, Limits, STATEMENT_WAIT as ANSWER_WAIT};
use wire::{Conn, Target, WireError};

/// Where a league's server is and who connects: what an invite carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    pub host: String,
    pub port: u16,
    pub database: String,
    pub login: String,
    /// The league's certificate (PEM), the one the client trusts.
    pub certificate: String,
}

/// What `prepare` did to a league's database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prepared {
    /// An empty database made a league's, at this schema version.
    Made { schema: i64 },
    /// A league's schema brought up to date.
    Upgraded { before: i64, after: i64 },
    /// A league restored from its organiser's backup made whole, at this
    /// schema version, holding this many batches.
    Restored { schema: i64, batches: i64 },
}

/// A batch as the server holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerBatch {
    /// Its place in the server's order, from 1, with no gap.
    pub seq: i64,
    /// The id the laptop that made it gave it.
    pub uid: String,
    /// The login that pushed it, as the server saw it.
    pub author: String,
    /// When the server took it (RFC 3339, UTC).
    pub received: String,
    /// When the laptop made it, as the laptop said.
    pub at: String,
    pub label: String,
    /// The `seq` of the batch it takes back.
    pub undoes: Option<i64>,
    /// The events: a JSON list of event objects, the text as sent.
    pub events: String,
    /// The format it is written in (1 on a server before formats).
    pub format: i64,
    /// Its place in the league's chain, as the server keeps it (none on a
    /// server before the chain).
    pub hash: Option<String>,
    /// Its author's signature of its hash (format 3 on).
    pub signature: Option<String>,
}

/// A member's published key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberKey {
    pub login: String,
    /// The public half, in hex.
    pub public_key: String,
    /// When the server took it (RFC 3339, UTC).
    pub made: String,
}

impl ServerBatch {
    /// Its fields, for its digest in the chain.
    pub fn fields(&self) -> chain::Fields<'_> {
        chain::Fields {
            seq: self.seq,
            uid: &self.uid,
            author: &self.author,
            at: &self.at,
            label: &self.label,
            undoes: self.undoes,
            events: &self.events,
        }
    }
}

/// What the server says of the batches a laptop holds (`1..=upto`),
/// worked out there from the batches themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    /// How many batches there are up to `upto`.
    pub count: i64,
    /// The first whose kept hash is not its fields' and its predecessor's.
    pub first_unchained: Option<i64>,
    /// The hash of batch `upto`.
    pub hash: Option<String>,
}

/// A cheap print of a run of the league's batches (see [`League::print`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Print {
    pub count: i64,
    pub sum: i128,
    /// The hash of the run's last batch.
    pub hash: String,
}

impl Print {
    /// The print of this run followed by `next`.
    pub fn then(&self, next: &Print) -> Print {
        Print {
            count: self.count + next.count,
            sum: self.sum + next.sum,
            hash: if next.count > 0 {
                next.hash.clone()
            } else {
                self.hash.clone()
            },
        }
    }

    /// As a file keeps it.
    pub fn text(&self) -> String {
        format!("{}:{}:{}", self.count, self.sum, self.hash)
    }
}

/// A batch to push.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBatch {
    pub uid: String,
    pub at: String,
    pub label: String,
    pub undoes: Option<i64>,
    /// A JSON list of event objects, each with its `type`.
    pub events: String,
    /// The format it is written in: the league's.
    pub format: i64,
    /// Its hash in the league's chain, sent in format 2 and after.
    pub hash: Option<String>,
    /// Its author's signature of its hash, sent in format 3 and after.
    pub signature: Option<String>,
}

/// A member of the league and the gangs that are theirs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub login: String,
    pub gangs: Vec<i64>,
    pub organiser: bool,
    /// When their laptop last said it synced, as the server stamped it
    /// (RFC 3339), and the league's newest change then; `None` where it
    /// never did since the server kept it (schema 14 on).
    pub synced: Option<(String, i64)>,
}

/// A connection to a league's server.
pub struct League {
    conn: Conn,
    /// The league's schema version, once asked.
    schema: Option<i64>,
}

impl std::fmt::Debug for League {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("League").finish_non_exhaustive()
    }
}

/// How long a statement waits on a lock another connection holds (a
/// member's transaction left open) before it is tried again, the holder's
/// transaction ended where it was open too long (see [`HELD_AT_MOST`]).
pub const LOCK_WAIT: Duration = Duration::from_secs(2);

/// How long a member's transaction may hold a place in the league's log
/// (or any row another member's change needs) before the next member who
/// needs it ends that transaction.
pub const HELD_AT_MOST: Duration = Duration::from_secs(5);

/// How long a send waits at most on others' open transactions: the lock
/// waits and the ends of the holders' transactions, all told.
pub const SEND_WAIT: Duration = Duration::from_secs(15);

/// How long one statement may run, and this connection sit in an open
/// transaction, before the server stops it.
pub const STATEMENT_WAIT: Duration = Duration::from_secs(60);

impl League {
    /// Connects over TLS, trusting only the address's certificate.
    pub fn connect(address: &Address, password: &str) -> Result<League, LeagueError> {
        Self::connect_within(address, password, Limits::default())
    }

    /// [`League::connect`], everything it does afterwards within `limits`
    /// (a deadline, a flag that cancels): however the server behaves,
    /// nothing waits past them.
    pub fn connect_within(
        address: &Address,
        password: &str,
        limits: Limits,
    ) -> Result<League, LeagueError> {
        let tls = tls::pinned_config(&address.certificate)
            .map_err(|e| LeagueError::Invalid(e.to_string()))?;
        // The server's own limits too: no statement runs on, and no
        // transaction of this laptop's stays open, past them.
        let options = format!(
            "-c lock_timeout={}ms -c statement_timeout={}ms -c idle_in_transaction_session_timeout={}ms",
            LOCK_WAIT.as_millis(),
            STATEMENT_WAIT.as_millis(),
            STATEMENT_WAIT.as_millis()
        );
        let conn = Conn::connect(
            &Target {
                host: &address.host,
                port: address.port,
                database: &address.database,
                login: &address.login,
                password,
                options: &options,
            },
            tls,
            limits,
        )?;
        Ok(League { conn, schema: None })
    }

    /// Sets the limits of what this connection does from now on.
    pub fn limit(&mut self, limits: Limits) {
        self.conn.limits = limits;
    }

    /// Makes the connected database a league, the connected login its
    /// organiser: applies the schema, version after version, in one
    /// transaction. Refuses a database that holds other tables.
    pub fn init(&mut self) -> Result<(), LeagueError> {
        self.init_to(SCHEMA_VERSION)
    }

    /// [`League::init`] with the schema versions up to `upto` only, as an
    /// older build would make it (for tests of an upgrade).
    pub fn init_to(&mut self, upto: i64) -> Result<(), LeagueError> {
        // Made ready by the server's administrator (`prepare`): nothing to
        // make.
        if schema::prepared_for_me(&mut self.conn)? {
            self.schema = None;
            return Ok(());
        }
        schema::check_can_init(&mut self.conn)?;
        schema::apply(&mut self.conn, upto.clamp(1, SCHEMA_VERSION))?;
        self.schema = None;
        Ok(())
    }

    /// Makes the connected empty database a league whose organiser is the
    /// login `organiser`, as the server's administrator: the league's roles,
    /// the doorman that lets members in, every schema version. The
    /// organiser then needs no CREATEROLE (with which a login can grant
    /// itself every role of the league). On a league already there, the
    /// versions it lacks are applied.
    ///
    /// On a league restored from its organiser's backup (its schema not
    /// the league's owner's), it is made whole: the data kept, the schema
    /// and every right made anew (see [`restore`]).
    pub fn prepare(&mut self, organiser: &str) -> Result<Prepared, LeagueError> {
        check_login(organiser)?;
        schema::check_administrator(&mut self.conn)?;
        let roles = schema::Roles::for_organiser(&mut self.conn, organiser)?;
        if restore::is_restored(&mut self.conn, &roles)? {
            let (schema, batches) = restore::make_whole(&mut self.conn, &roles)?;
            self.schema = None;
            return Ok(Prepared::Restored { schema, batches });
        }
        let exists = self
            .conn
            .query_one(
                "SELECT to_regclass('league.schema_version') IS NOT NULL",
                &[],
            )?
            .get::<_, bool>(0);
        if exists {
            let (before, after) = self.upgrade()?;
            return Ok(Prepared::Upgraded { before, after });
        }
        schema::check_empty_for(&mut self.conn)?;
        schema::prepare(&mut self.conn, organiser)?;
        self.schema = None;
        Ok(Prepared::Made {
            schema: self.schema_version()?,
        })
    }

    /// Brings the league's schema to this build's, the versions it lacks
    /// applied in order in one transaction. The organiser's. Returns the
    /// versions before and after.
    pub fn upgrade(&mut self) -> Result<(i64, i64), LeagueError> {
        let before = self.schema_version()?;
        schema::upgrade(&mut self.conn, before)?;
        self.schema = None;
        Ok((before, self.schema_version()?))
    }

    /// The schema version the league's database is at.
    pub fn schema_version(&mut self) -> Result<i64, LeagueError> {
        if let Some(version) = self.schema {
            return Ok(version);
        }
        let row = self
            .conn
            .query_one("SELECT max(version) FROM league.schema_version", &[])?;
        let version = row.get::<_, Option<i64>>(0).unwrap_or(0);
        self.schema = Some(version);
        Ok(version)
    }

    /// Whether the league keeps formats and a chain (schema 5 on).
    pub fn keeps_chain(&mut self) -> Result<bool, LeagueError> {
        Ok(self.schema_version()? >= 5)
    }

    /// The format the league's batches are written in.
    pub fn format(&mut self) -> Result<i64, LeagueError> {
        if !self.keeps_chain()? {
            return Ok(1);
        }
        let row = self
            .conn
            .query_one("SELECT format FROM league.format", &[])?;
        Ok(row.get(0))
    }

    /// Raises the league's format to `format` (never lowers it); returns
    /// the format it is at. The organiser's.
    pub fn raise_format(&mut self, format: i64) -> Result<i64, LeagueError> {
        let row = self
            .conn
            .query_one("SELECT league.raise_format($1)", &[&format])?;
        Ok(row.get(0))
    }

    /// A cheap print of batches `after + 1..=upto` as they stand on the
    /// server: how many, the sum of the transaction ids that wrote them,
    /// and the hash of `upto`. Any row changed, deleted or written again (a
    /// restore) gives another print. `None` on a league before the chain.
    pub fn print(&mut self, after: i64, upto: i64) -> Result<Option<Print>, LeagueError> {
        if !self.keeps_chain()? {
            return Ok(None);
        }
        let row = self.conn.query_one(
            "SELECT count(*), coalesce(sum(xmin::text::bigint), 0)::text,
                    coalesce(max(hash) FILTER (WHERE seq = $2), '')
             FROM league.batch WHERE seq > $1 AND seq <= $2",
            &[&after, &upto],
        )?;
        let sum: String = row.get(1);
        Ok(Some(Print {
            count: row.get(0),
            sum: sum.parse().unwrap_or_default(),
            hash: row.get(2),
        }))
    }

    /// What the server says of batches `1..=upto`, worked out there from
    /// the batches as they stand, with the server's own functions only (a
    /// league function could have been replaced).
    /// `None` on a league before the chain.
    pub fn held(&mut self, upto: i64) -> Result<Option<Held>, LeagueError> {
        if !self.keeps_chain()? {
            return Ok(None);
        }
        let row = self.conn.query_one(HELD, &[&upto])?;
        Ok(Some(Held {
            count: row.get(0),
            first_unchained: row.get(1),
            hash: row.get(2),
        }))
    }

    /// Whether the league keeps its members' keys (schema 6 on).
    pub fn keeps_keys(&mut self) -> Result<bool, LeagueError> {
        Ok(self.schema_version()? >= 6)
    }

    /// Publishes this login's key (its public half, in hex); a key
    /// published before stays as it is.
    pub fn publish_key(&mut self, public_key: &str) -> Result<(), LeagueError> {
        self.conn.execute(
            "INSERT INTO league.member_key (login, public_key, made)
             VALUES (session_user, $1, now()) ON CONFLICT DO NOTHING",
            &[&public_key],
        )?;
        Ok(())
    }

    /// Every member's published keys, oldest first; none on a league
    /// before keys.
    pub fn keys(&mut self) -> Result<Vec<MemberKey>, LeagueError> {
        if !self.keeps_keys()? {
            return Ok(Vec::new());
        }
        let rows = self.conn.query(
            "SELECT login, public_key,
                    to_char(made AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')
             FROM league.member_key ORDER BY made, login, public_key",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|r| MemberKey {
                login: r.get(0),
                public_key: r.get(1),
                made: r.get(2),
            })
            .collect())
    }

    /// The format each of batches `1..=upto` says, in order (1 on a
    /// league before formats).
    pub fn formats(&mut self, upto: i64) -> Result<Vec<(i64, i64)>, LeagueError> {
        let format = if self.keeps_chain()? {
            "format"
        } else {
            "1::bigint"
        };
        let rows = self.conn.query(
            &format!("SELECT seq, {format} FROM league.batch WHERE seq <= $1 ORDER BY seq"),
            &[&upto],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// The hashes of batches `1..=upto`, in order.
    pub fn hashes(&mut self, upto: i64) -> Result<Vec<(i64, String)>, LeagueError> {
        let rows = self.conn.query(
            "SELECT seq, hash FROM league.batch WHERE seq <= $1 ORDER BY seq",
            &[&upto],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// The newest batch's `seq`; 0 when there is none.
    pub fn head(&mut self) -> Result<i64, LeagueError> {
        let row = self
            .conn
            .query_one("SELECT coalesce(max(seq), 0) FROM league.batch", &[])?;
        Ok(row.get(0))
    }

    /// Every batch after `seq`, in the server's order.
    pub fn fetch_after(&mut self, seq: i64) -> Result<Vec<ServerBatch>, LeagueError> {
        self.fetch_page(seq, i64::MAX, i64::MAX)
    }

    /// The batches after `seq` up to `upto`, at most `most` of them, in
    /// the server's order.
    pub fn fetch_page(
        &mut self,
        seq: i64,
        upto: i64,
        most: i64,
    ) -> Result<Vec<ServerBatch>, LeagueError> {
        let chain = match self.schema_version()? {
            6.. => "format, hash, signature",
            5 => "format, hash, NULL::text",
            _ => "1::bigint, NULL::text, NULL::text",
        };
        let rows = self.conn.query(
            &format!(
                "SELECT seq, uid, author,
                        to_char(received AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'),
                        at, label, undoes, events::text, {chain}
                 FROM league.batch WHERE seq > $1 AND seq <= $2 ORDER BY seq LIMIT $3"
            ),
            &[&seq, &upto, &most],
        )?;
        Ok(rows.iter().map(server_batch).collect())
    }

    /// Appends `batches` after the batch `after` (the head this laptop
    /// last saw), numbered `after + 1`, `after + 2`, …: all land or none.
    /// Returns the new head.
    ///
    /// A run of batches goes in one statement, so this laptop holds its
    /// place in the log for one round trip only. Where another member's
    /// transaction holds the place (or a row the batches need) the send
    /// waits [`LOCK_WAIT`], ends the transactions open longer than
    /// [`HELD_AT_MOST`] that hold the league's rows, and tries again: it
    /// never waits past [`SEND_WAIT`] on others, however they use the
    /// server.
    pub fn push(&mut self, after: i64, batches: &[NewBatch]) -> Result<i64, PushError> {
        let schema = self.schema_version()?;
        let started = std::time::Instant::now();
        loop {
            match self.push_once(after, batches, schema) {
                Err(WireError::Pg(e))
                    if e.code() == Some(&postgres::error::SqlState::LOCK_NOT_AVAILABLE)
                        && started.elapsed() + LOCK_WAIT < SEND_WAIT =>
                {
                    self.end_held_sends()?;
                }
                Err(e) => return Err(self.why_refused(e, after, batches, schema)),
                Ok(()) => return Ok(after + batches.len() as i64),
            }
        }
    }

    /// One try of [`League::push`]: the batches in runs of [`PUSH_RUN`],
    /// one statement each, in one transaction where there are several.
    fn push_once(
        &mut self,
        after: i64,
        batches: &[NewBatch],
        schema: i64,
    ) -> Result<(), WireError> {
        if batches.len() <= PUSH_RUN {
            return insert(&mut self.conn, after, batches, schema);
        }
        self.conn.transaction(|conn| {
            for (i, run) in batches.chunks(PUSH_RUN).enumerate() {
                insert(conn, after + (i * PUSH_RUN) as i64, run, schema)?;
            }
            Ok(())
        })
    }

    /// What a push that failed with `error` means; where the server
    /// refused one of several batches, which one, found by sending them
    /// one at a time in a transaction taken back.
    fn why_refused(
        &mut self,
        error: WireError,
        after: i64,
        batches: &[NewBatch],
        schema: i64,
    ) -> PushError {
        let said = error::push_error(error, last_uid(batches));
        if !matches!(said, PushError::Refused { .. }) || batches.len() < 2 {
            return said;
        }
        let mut culprit = None;
        let _ = self.conn.transaction(|conn| {
            for (i, batch) in batches.iter().enumerate() {
                if let Err(e) = insert(conn, after + i as i64, std::slice::from_ref(batch), schema)
                {
                    culprit = Some(error::push_error(e, &batch.uid));
                    break;
                }
            }
            Err::<(), WireError>(WireError::Cancelled)
        });
        match culprit {
            Some(refused @ PushError::Refused { .. }) => refused,
            _ => said,
        }
    }

    /// Ends the transactions of the league's members that have held the
    /// league's rows open longer than [`HELD_AT_MOST`] (schema 10 on;
    /// nothing before). How many it ended.
    pub fn end_held_sends(&mut self) -> Result<i64, LeagueError> {
        if self.schema_version()? < 10 {
            return Ok(0);
        }
        let row = self.conn.query_one("SELECT league.end_held_sends()", &[])?;
        Ok(row.get::<_, i32>(0).into())
    }

    /// Makes a member's login with a new password (returned, never
    /// kept), lets it into the league and gives it `gangs`. The organiser's.
    pub fn invite(&mut self, login: &str, gangs: &[i64]) -> Result<String, LeagueError> {
        check_member_login(login)?;
        let password = new_password();
        let verifier = postgres_protocol::password::scram_sha_256(password.as_bytes());
        if self.schema_version()? >= 8 {
            // Through the doorman: the organiser makes no login itself.
            self.conn.transaction(|tx| {
                tx.execute("SELECT league.admit($1, $2)", &[&login, &verifier])
                    .map_err(|e| role_error(e, login))?;
                for gang in gangs {
                    assign_in(tx, login, *gang)?;
                }
                Ok::<_, LeagueError>(())
            })?;
            return Ok(password);
        }
        let players = schema::players_role(&mut self.conn)?;
        self.conn.transaction(|tx| {
            tx.batch_execute(&format!(
                "CREATE ROLE {login} LOGIN PASSWORD {verifier}; GRANT {players} TO {login};",
                login = schema::ident(login),
                verifier = schema::literal(&verifier),
                players = schema::ident(&players),
            ))
            .map_err(|e| role_error(e, login))?;
            tx.execute("INSERT INTO league.member (login) VALUES ($1)", &[&login])?;
            for gang in gangs {
                assign_in(tx, login, *gang)?;
            }
            Ok::<_, LeagueError>(())
        })?;
        Ok(password)
    }

    /// Gives `gang` to the member `login` (from whoever had it). The
    /// organiser's.
    pub fn assign(&mut self, login: &str, gang: i64) -> Result<(), LeagueError> {
        self.conn.transaction(|tx| assign_in(tx, login, gang))
    }

    /// Takes `gang` from whoever had it: it is no member's until given
    /// again. The organiser's.
    pub fn take_away(&mut self, gang: i64) -> Result<(), LeagueError> {
        self.conn
            .execute("DELETE FROM league.gang_owner WHERE gang = $1", &[&gang])?;
        Ok(())
    }

    /// Every member, by login, with their gangs, whether they organise,
    /// and when they last synced where the server keeps it.
    pub fn members(&mut self) -> Result<Vec<Member>, LeagueError> {
        let rows = self.conn.query(
            "SELECT m.login, m.organiser,
                    coalesce(array_agg(o.gang ORDER BY o.gang)
                             FILTER (WHERE o.gang IS NOT NULL), '{}')
             FROM league.member m LEFT JOIN league.gang_owner o ON o.login = m.login
             GROUP BY m.login, m.organiser ORDER BY m.login",
            &[],
        )?;
        let synced = self.last_syncs()?;
        Ok(rows
            .iter()
            .map(|row| {
                let login: String = row.get(0);
                Member {
                    synced: synced.get(&login).cloned(),
                    login,
                    organiser: row.get(1),
                    gangs: row.get(2),
                }
            })
            .collect())
    }

    /// Whether the league keeps when each member last synced (schema 14
    /// on).
    pub fn keeps_syncs(&mut self) -> Result<bool, LeagueError> {
        Ok(self.schema_version()? >= 14)
    }

    /// Notes on the server that this member's laptop synced, now, at the
    /// league's newest change; nothing on a league that does not keep it.
    pub fn note_synced(&mut self) -> Result<(), LeagueError> {
        if self.keeps_syncs()? {
            self.conn.execute("SELECT league.synced()", &[])?;
        }
        Ok(())
    }

    /// When each member last synced, by login: the server's time (RFC
    /// 3339, UTC) and the league's newest change then.
    fn last_syncs(
        &mut self,
    ) -> Result<std::collections::BTreeMap<String, (String, i64)>, LeagueError> {
        if !self.keeps_syncs()? {
            return Ok(std::collections::BTreeMap::new());
        }
        let rows = self.conn.query(
            "SELECT login, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), head
             FROM league.member_sync",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|row| (row.get(0), (row.get(1), row.get(2))))
            .collect())
    }

    /// Shares a photo under the key the campaign stores it under (see
    /// [`crate::store::photo_key`]). A photo already there stays as it is.
    pub fn push_photo(&mut self, key: &str, bytes: &[u8]) -> Result<(), LeagueError> {
        self.conn.execute(
            "INSERT INTO league.photo (key, bytes) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
            &[&key, &bytes],
        )?;
        Ok(())
    }

    /// The photo shared under `key`, where there is one. A key that is a
    /// BLAKE3 hash is checked against the bytes: a photo that does not
    /// match its key is refused.
    pub fn fetch_photo(&mut self, key: &str) -> Result<Option<Vec<u8>>, LeagueError> {
        let row = self
            .conn
            .query_opt("SELECT bytes FROM league.photo WHERE key = $1", &[&key])?;
        let Some(bytes) = row.map(|r| r.get::<_, Vec<u8>>(0)) else {
            return Ok(None);
        };
        // Bytes that are not the photo of their key are no photo: the
        // batch that shows it is left out, and the sync goes on.
        if key.len() > 64 && crate::store::photo_key(&bytes) != key {
            return Ok(None);
        }
        Ok(Some(bytes))
    }

    /// The login this connection is, as the server sees it.
    pub fn whoami(&mut self) -> Result<String, LeagueError> {
        let row = self.conn.query_one("SELECT session_user::text", &[])?;
        Ok(row.get(0))
    }
}

fn server_batch(row: &postgres::Row) -> ServerBatch {
    ServerBatch {
        seq: row.get(0),
        uid: row.get(1),
        author: row.get(2),
        received: row.get(3),
        at: row.get(4),
        label: row.get(5),
        undoes: row.get(6),
        events: row.get(7),
        format: row.get(8),
        hash: row.get(9),
        signature: row.get(10),
    }
}

/// The server's account of batches `1..=$1`: how many, the first whose
/// hash is not the link of its predecessor's hash and its own fields, and
/// the last one's hash (the same digest as `chain::Fields::digest`).
const HELD: &str = "
    WITH held AS (
        SELECT b.seq, b.hash,
               encode(sha256(convert_to(coalesce(p.hash, '') || ':' || encode(sha256(convert_to(
                   octet_length(b.seq::text)::text || ':' || b.seq::text || ';'
                   || octet_length(b.uid)::text || ':' || b.uid || ';'
                   || octet_length(b.author)::text || ':' || b.author || ';'
                   || octet_length(b.at)::text || ':' || b.at || ';'
                   || octet_length(b.label)::text || ':' || b.label || ';'
                   || octet_length(coalesce(b.undoes::text, ''))::text || ':'
                   || coalesce(b.undoes::text, '') || ';'
                   || octet_length(b.events::text)::text || ':' || b.events::text || ';',
                   'UTF8')), 'hex'), 'UTF8')), 'hex') AS linked
        FROM league.batch b LEFT JOIN league.batch p ON p.seq = b.seq - 1
        WHERE b.seq <= $1
    )
    SELECT count(*), min(seq) FILTER (WHERE hash IS DISTINCT FROM linked),
           max(hash) FILTER (WHERE seq = $1)
    FROM held";

/// How many batches go in one statement.
const PUSH_RUN: usize = 500;

/// Inserts `batches` numbered from `after + 1`, in one statement: the
/// columns the league's schema has (the format and the hash from schema 5,
/// the signature from schema 6), each a list, taken in their order.
fn insert(conn: &mut Conn, after: i64, batches: &[NewBatch], schema: i64) -> Result<(), WireError> {
    let seqs: Vec<i64> = (1..=batches.len() as i64).map(|i| after + i).collect();
    let uids: Vec<&str> = batches.iter().map(|b| b.uid.as_str()).collect();
    let ats: Vec<&str> = batches.iter().map(|b| b.at.as_str()).collect();
    let labels: Vec<&str> = batches.iter().map(|b| b.label.as_str()).collect();
    let undoes: Vec<Option<i64>> = batches.iter().map(|b| b.undoes).collect();
    let events: Vec<&str> = batches.iter().map(|b| b.events.as_str()).collect();
    let formats: Vec<i64> = batches.iter().map(|b| b.format).collect();
    let hashes: Vec<Option<&str>> = batches.iter().map(|b| b.hash.as_deref()).collect();
    let signatures: Vec<Option<&str>> = batches.iter().map(|b| b.signature.as_deref()).collect();
    let mut columns = vec!["seq", "uid", "at", "label", "undoes", "events"];
    let mut lists: Vec<(&(dyn postgres::types::ToSql + Sync), &str)> = vec![
        (&seqs, "bigint[]"),
        (&uids, "text[]"),
        (&ats, "text[]"),
        (&labels, "text[]"),
        (&undoes, "bigint[]"),
        (&events, "text[]"),
    ];
    if schema >= 5 {
        columns.extend(["format", "hash"]);
        lists.push((&formats, "bigint[]"));
        lists.push((&hashes, "text[]"));
    }
    if schema >= 6 {
        columns.push("signature");
        lists.push((&signatures, "text[]"));
    }
    let picked: Vec<String> = columns
        .iter()
        .map(|c| match *c {
            "events" => "events::json".to_owned(),
            c => (*c).to_owned(),
        })
        .collect();
    let unnested: Vec<String> = lists
        .iter()
        .enumerate()
        .map(|(i, (_, ty))| format!("${}::{ty}", i + 1))
        .collect();
    let values: Vec<&(dyn postgres::types::ToSql + Sync)> = lists.iter().map(|(v, _)| *v).collect();
    conn.execute(
        &format!(
            "INSERT INTO league.batch ({columns})
             SELECT {picked} FROM unnest({unnested}) WITH ORDINALITY
                 AS t ({columns}, place)
             ORDER BY place",
            columns = columns.join(", "),
            picked = picked.join(", "),
            unnested = unnested.join(", "),
        ),
        &values,
    )?;
    Ok(())
}

fn last_uid(batches: &[NewBatch]) -> &str {
    batches.last().map_or("", |b| b.uid.as_str())
}

fn assign_in(tx: &mut Conn, login: &str, gang: i64) -> Result<(), LeagueError> {
    tx.execute(
        "INSERT INTO league.gang_owner (gang, login) VALUES ($1, $2)
         ON CONFLICT (gang) DO UPDATE SET login = excluded.login",
        &[&gang, &login],
    )
    .map_err(|e| match e {
        WireError::Pg(e) if e.code() == Some(&postgres::error::SqlState::FOREIGN_KEY_VIOLATION) => {
            LeagueError::Invalid(format!("{login} is not a member of this league"))
        }
        e => LeagueError::from(e),
    })?;
    Ok(())
}

/// A login name the server takes as it is: not empty, at most 63 bytes
/// (PostgreSQL's limit), no control character.
fn check_login(login: &str) -> Result<(), LeagueError> {
    if login.is_empty() || login.len() > 63 || login.chars().any(char::is_control) {
        return Err(LeagueError::Invalid(format!(
            "“{login}” cannot be a login: 1 to 63 bytes, no control characters"
        )));
    }
    Ok(())
}

/// A member's login a league's roles never need: not a name ending as
/// they do (`X_owner` is the owner's role of a league in database X),
/// nor one PostgreSQL keeps (`pg_…`). The server's `league.admit` says
/// the same (`schema/0012_logins_of_the_league.sql`).
fn check_member_login(login: &str) -> Result<(), LeagueError> {
    check_login(login)?;
    let taken = ["_owner", "_players", "_doorman", "_usher"]
        .iter()
        .any(|end| login.ends_with(end))
        || login.starts_with("pg_");
    if taken {
        return Err(LeagueError::Invalid(format!(
            "“{login}” cannot be a member's login: a name ending in _owner, _players, _doorman or _usher is one a league's roles take on this server"
        )));
    }
    Ok(())
}

/// A new password: 24 letters and digits from the system's randomness.
fn new_password() -> String {
    rand::rng()
        .sample_iter(rand::distr::Alphanumeric)
        .take(24)
        .map(char::from)
        .collect()
}

fn role_error(error: WireError, login: &str) -> LeagueError {
    let WireError::Pg(error) = error else {
        return error.into();
    };
    match error.code() {
        Some(c) if *c == postgres::error::SqlState::DUPLICATE_OBJECT => {
            LeagueError::Invalid(format!(
                "a login named {login} already exists on this server; pick another name, or give a member another gang with `rapsheet league give {login} --gang GANG`"
            ))
        }
        _ => LeagueError::from(error),
    }
}
