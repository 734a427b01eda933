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
mod schema;
pub mod signature;
pub mod tls;

use std::time::Duration;

use postgres::config::SslMode;
use postgres::{Client, Config};
use rand::RngExt;
use tokio_postgres_rustls::MakeRustlsConnect;

pub use error::{LeagueError, PushError};
pub use schema::{NEWEST_FORMAT, SCHEMA_VERSION};

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
}

/// A connection to a league's server.
pub struct League {
    client: Client,
    /// The league's schema version, once asked.
    schema: Option<i64>,
}

impl std::fmt::Debug for League {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("League").finish_non_exhaustive()
    }
}

/// How long a connection may take before the server counts as offline.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a statement waits on a lock another connection holds (a
/// member's transaction left open) before the sync stops and says so.
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// How long one statement may run, and this connection sit in an open
/// transaction, before the server stops it.
pub const STATEMENT_WAIT: Duration = Duration::from_secs(60);

impl League {
    /// Connects over TLS, trusting only the address's certificate.
    pub fn connect(address: &Address, password: &str) -> Result<League, LeagueError> {
        let tls = tls::pinned_config(&address.certificate)
            .map_err(|e| LeagueError::Invalid(e.to_string()))?;
        let client = Config::new()
            .host(&address.host)
            .port(address.port)
            .dbname(&address.database)
            .user(&address.login)
            .password(password)
            .ssl_mode(SslMode::Require)
            .connect_timeout(CONNECT_TIMEOUT)
            // No wait without end on another member's open transaction or
            // a server that stopped answering: see `LOCK_WAIT`.
            .options(&format!(
                "-c lock_timeout={}ms -c statement_timeout={}ms -c idle_in_transaction_session_timeout={}ms",
                LOCK_WAIT.as_millis(),
                STATEMENT_WAIT.as_millis(),
                STATEMENT_WAIT.as_millis()
            ))
            .application_name("rapsheet")
            .connect(MakeRustlsConnect::new(tls))?;
        Ok(League {
            client,
            schema: None,
        })
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
        if schema::prepared_for_me(&mut self.client)? {
            self.schema = None;
            return Ok(());
        }
        schema::check_can_init(&mut self.client)?;
        schema::apply(&mut self.client, upto.clamp(1, SCHEMA_VERSION))?;
        self.schema = None;
        Ok(())
    }

    /// Makes the connected empty database a league whose organiser is the
    /// login `organiser`, as the server's administrator: the league's roles,
    /// the doorman that lets members in, every schema version. The
    /// organiser then needs no CREATEROLE (with which a login can grant
    /// itself every role of the league). On a league already there, the
    /// versions it lacks are applied.
    pub fn prepare(&mut self, organiser: &str) -> Result<(i64, i64), LeagueError> {
        check_login(organiser)?;
        let exists = self
            .client
            .query_one(
                "SELECT to_regclass('league.schema_version') IS NOT NULL",
                &[],
            )?
            .get::<_, bool>(0);
        if exists {
            return self.upgrade();
        }
        schema::check_empty_for(&mut self.client)?;
        schema::prepare(&mut self.client, organiser)?;
        self.schema = None;
        Ok((0, self.schema_version()?))
    }

    /// Brings the league's schema to this build's, the versions it lacks
    /// applied in order in one transaction. The organiser's. Returns the
    /// versions before and after.
    pub fn upgrade(&mut self) -> Result<(i64, i64), LeagueError> {
        let before = self.schema_version()?;
        schema::upgrade(&mut self.client, before)?;
        self.schema = None;
        Ok((before, self.schema_version()?))
    }

    /// The schema version the league's database is at.
    pub fn schema_version(&mut self) -> Result<i64, LeagueError> {
        if let Some(version) = self.schema {
            return Ok(version);
        }
        let row = self
            .client
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
            .client
            .query_one("SELECT format FROM league.format", &[])?;
        Ok(row.get(0))
    }

    /// Raises the league's format to `format` (never lowers it); returns
    /// the format it is at. The organiser's.
    pub fn raise_format(&mut self, format: i64) -> Result<i64, LeagueError> {
        let row = self
            .client
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
        let row = self.client.query_one(
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
        let row = self.client.query_one(HELD, &[&upto])?;
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
        self.client.execute(
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
        let rows = self.client.query(
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

    /// The hashes of batches `1..=upto`, in order.
    pub fn hashes(&mut self, upto: i64) -> Result<Vec<(i64, String)>, LeagueError> {
        let rows = self.client.query(
            "SELECT seq, hash FROM league.batch WHERE seq <= $1 ORDER BY seq",
            &[&upto],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// The newest batch's `seq`; 0 when there is none.
    pub fn head(&mut self) -> Result<i64, LeagueError> {
        let row = self
            .client
            .query_one("SELECT coalesce(max(seq), 0) FROM league.batch", &[])?;
        Ok(row.get(0))
    }

    /// Every batch after `seq`, in the server's order.
    pub fn fetch_after(&mut self, seq: i64) -> Result<Vec<ServerBatch>, LeagueError> {
        let chain = match self.schema_version()? {
            6.. => "format, hash, signature",
            5 => "format, hash, NULL::text",
            _ => "1::bigint, NULL::text, NULL::text",
        };
        let rows = self.client.query(
            &format!(
                "SELECT seq, uid, author,
                        to_char(received AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'),
                        at, label, undoes, events::text, {chain}
                 FROM league.batch WHERE seq > $1 ORDER BY seq"
            ),
            &[&seq],
        )?;
        Ok(rows.iter().map(server_batch).collect())
    }

    /// Appends `batches` after the batch `after` (the head this laptop
    /// last saw), numbered `after + 1`, `after + 2`, …, in one transaction:
    /// all land or none. Returns the new head.
    pub fn push(&mut self, after: i64, batches: &[NewBatch]) -> Result<i64, PushError> {
        let schema = self.schema_version()?;
        let mut tx = self.client.transaction().map_err(LeagueError::from)?;
        let mut seq = after;
        for batch in batches {
            seq += 1;
            insert(&mut tx, seq, batch, schema).map_err(|e| error::push_error(e, &batch.uid))?;
        }
        tx.commit()
            .map_err(|e| error::push_error(e, last_uid(batches)))?;
        Ok(seq)
    }

    /// Makes a member's login with a new password (returned, never
    /// kept), lets it into the league and gives it `gangs`. The organiser's.
    pub fn invite(&mut self, login: &str, gangs: &[i64]) -> Result<String, LeagueError> {
        check_login(login)?;
        let password = new_password();
        let verifier = postgres_protocol::password::scram_sha_256(password.as_bytes());
        if self.schema_version()? >= 8 {
            // Through the doorman: the organiser makes no login itself.
            let mut tx = self.client.transaction()?;
            tx.execute("SELECT league.admit($1, $2)", &[&login, &verifier])
                .map_err(|e| role_error(e, login))?;
            for gang in gangs {
                assign_in(&mut tx, login, *gang)?;
            }
            tx.commit()?;
            return Ok(password);
        }
        let players = schema::players_role(&mut self.client)?;
        let mut tx = self.client.transaction()?;
        tx.batch_execute(&format!(
            "CREATE ROLE {login} LOGIN PASSWORD {verifier}; GRANT {players} TO {login};",
            login = schema::ident(login),
            verifier = schema::literal(&verifier),
            players = schema::ident(&players),
        ))
        .map_err(|e| role_error(e, login))?;
        tx.execute("INSERT INTO league.member (login) VALUES ($1)", &[&login])?;
        for gang in gangs {
            assign_in(&mut tx, login, *gang)?;
        }
        tx.commit()?;
        Ok(password)
    }

    /// Gives `gang` to the member `login` (from whoever had it). The
    /// organiser's.
    pub fn assign(&mut self, login: &str, gang: i64) -> Result<(), LeagueError> {
        let mut tx = self.client.transaction()?;
        assign_in(&mut tx, login, gang)?;
        tx.commit()?;
        Ok(())
    }

    /// Takes `gang` from whoever had it: it is no member's until given
    /// again. The organiser's.
    pub fn take_away(&mut self, gang: i64) -> Result<(), LeagueError> {
        self.client
            .execute("DELETE FROM league.gang_owner WHERE gang = $1", &[&gang])?;
        Ok(())
    }

    /// Every member, by login, with their gangs and whether they organise.
    pub fn members(&mut self) -> Result<Vec<Member>, LeagueError> {
        let rows = self.client.query(
            "SELECT m.login, m.organiser,
                    coalesce(array_agg(o.gang ORDER BY o.gang)
                             FILTER (WHERE o.gang IS NOT NULL), '{}')
             FROM league.member m LEFT JOIN league.gang_owner o ON o.login = m.login
             GROUP BY m.login, m.organiser ORDER BY m.login",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|row| Member {
                login: row.get(0),
                organiser: row.get(1),
                gangs: row.get(2),
            })
            .collect())
    }

    /// Shares a photo under the key the campaign stores it under (see
    /// [`crate::store::photo_key`]). A photo already there stays as it is.
    pub fn push_photo(&mut self, key: &str, bytes: &[u8]) -> Result<(), LeagueError> {
        self.client.execute(
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
            .client
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
        let row = self.client.query_one("SELECT session_user::text", &[])?;
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

fn insert(
    tx: &mut postgres::Transaction<'_>,
    seq: i64,
    batch: &NewBatch,
    schema: i64,
) -> Result<u64, postgres::Error> {
    // The columns the league's schema has: the format and the hash from
    // schema 5, the signature from schema 6.
    let mut columns = vec!["seq", "uid", "at", "label", "undoes", "events"];
    let mut values: Vec<&(dyn postgres::types::ToSql + Sync)> = vec![
        &seq,
        &batch.uid,
        &batch.at,
        &batch.label,
        &batch.undoes,
        &batch.events,
    ];
    if schema >= 5 {
        columns.extend(["format", "hash"]);
        values.push(&batch.format);
        values.push(&batch.hash);
    }
    if schema >= 6 {
        columns.push("signature");
        values.push(&batch.signature);
    }
    let places: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| match *c {
            "events" => format!("${}::text::json", i + 1),
            _ => format!("${}", i + 1),
        })
        .collect();
    tx.execute(
        &format!(
            "INSERT INTO league.batch ({}) VALUES ({})",
            columns.join(", "),
            places.join(", ")
        ),
        &values,
    )
}

fn last_uid(batches: &[NewBatch]) -> &str {
    batches.last().map_or("", |b| b.uid.as_str())
}

fn assign_in(
    tx: &mut postgres::Transaction<'_>,
    login: &str,
    gang: i64,
) -> Result<(), LeagueError> {
    tx.execute(
        "INSERT INTO league.gang_owner (gang, login) VALUES ($1, $2)
         ON CONFLICT (gang) DO UPDATE SET login = excluded.login",
        &[&gang, &login],
    )
    .map_err(|e| match e.code() {
        Some(c) if *c == postgres::error::SqlState::FOREIGN_KEY_VIOLATION => {
            LeagueError::Invalid(format!("{login} is not a member of this league"))
        }
        _ => LeagueError::from(e),
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

/// A new password: 24 letters and digits from the system's randomness.
fn new_password() -> String {
    rand::rng()
        .sample_iter(rand::distr::Alphanumeric)
        .take(24)
        .map(char::from)
        .collect()
}

fn role_error(error: postgres::Error, login: &str) -> LeagueError {
    match error.code() {
        Some(c) if *c == postgres::error::SqlState::DUPLICATE_OBJECT => {
            LeagueError::Invalid(format!(
                "a login named {login} already exists on this server; pick another name, or give a member another gang with `rapsheet league give {login} --gang GANG`"
            ))
        }
        _ => LeagueError::from(error),
    }
}
