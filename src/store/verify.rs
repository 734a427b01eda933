//! Checking a campaign file end to end: SQLite's own integrity check, the
//! foreign keys, and a replay of the whole log into an empty campaign in
//! memory, whose state must equal the file's, table by table, with the
//! same schema (the append-only triggers included). A battle half there,
//! an event without its change, a change without its event, a name edited
//! behind the log's back or a dropped trigger all show up. Everything is
//! read in one snapshot, so a writer in another process cannot make a
//! sound file look damaged.

use rusqlite::OptionalExtension as _;
use rusqlite::{Connection, TransactionBehavior};

use super::{CampaignStore, Check, Result, apply, configure_memory, migrate};
use crate::campaign::{BatchId, Event, LoggedBatch};

/// The replay of [`CampaignStore::verify_through`] as far as it has come.
pub struct Replaying<'c>(&'c Connection);

impl super::Replayed for Replaying<'_> {
    fn house_packs(&self) -> Result<Vec<(String, String)>> {
        super::read::house_packs(self.0)
    }

    fn ground(&self) -> super::Ground<'_> {
        super::Ground(self.0)
    }

    fn taking_back(&self, batch: BatchId) -> Result<Vec<Event>> {
        Ok(super::read::taking_back(self.0, batch)?.1)
    }
}

/// What a replay asks of a whole batch as it comes to it, before its
/// events: why it is not what the campaign there gives, if it is not
/// (a league's record made again from its report and dice).
pub type Judge<'j> = dyn FnMut(&Replaying<'_>, &LoggedBatch) -> Result<Option<String>> + 'j;

/// What [`CampaignStore::verify`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verification {
    pub batches: usize,
    pub events: usize,
    pub battles: usize,
    /// One line per thing wrong; empty when the file is sound.
    pub problems: Vec<String>,
}

impl Verification {
    pub fn is_sound(&self) -> bool {
        self.problems.is_empty()
    }
}

impl CampaignStore {
    /// Checks the file: SQLite integrity, foreign keys, and that replaying
    /// the log from an empty campaign gives exactly the stored state.
    /// Reads only.
    pub fn verify(&self) -> Result<Verification> {
        self.verify_with(None, None)
    }

    /// [`Self::verify`], every event of the replay passing `check` (the
    /// one gate) as it would if it came in now: a file whose log and state
    /// agree but hold what no door takes (a number past the bound, a name
    /// with a control character) does not verify either. Each batch is
    /// also put to `judge`, where one is given, as the replay comes to
    /// it; what it says is a problem, and the replay goes on.
    pub fn verify_through(
        &self,
        check: &mut Check,
        judge: Option<&mut Judge<'_>>,
    ) -> Result<Verification> {
        self.verify_with(Some(check), judge)
    }

    fn verify_with(
        &self,
        check: Option<&mut Check>,
        judge: Option<&mut Judge<'_>>,
    ) -> Result<Verification> {
        // One read transaction: every query below sees the same snapshot,
        // whatever another process commits meanwhile. Rolled back on drop.
        let snapshot = self.conn.unchecked_transaction()?;
        snapshot.query_row("SELECT count(*) FROM batch", [], |r| r.get::<_, i64>(0))?;
        let out = self.verify_in_snapshot(check, judge)?;
        drop(snapshot);
        Ok(out)
    }

    /// The photos' keys into the replay's `conn`: photos are stored beside
    /// the log, not in it, and their keys are what the state refers to.
    /// One taken away by an undo may be gone from the file while the log
    /// still names it.
    fn photo_keys_into(&self, conn: &Connection, log: &[super::LogEntry]) -> Result<()> {
        let mut photos: std::collections::BTreeMap<String, String> = self
            .conn
            .prepare("SELECT hash, mime FROM photo")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for entry in log {
            if let Event::PhotoChanged { from, to, .. } = &entry.event {
                for key in [from, to].into_iter().flatten() {
                    photos.entry(key.clone()).or_default();
                }
            }
        }
        for (hash, mime) in photos {
            conn.execute(
                "INSERT INTO photo (hash, mime, bytes) VALUES (?1, ?2, x'')",
                (hash, mime),
            )?;
        }
        Ok(())
    }

    /// A league campaign cannot hold more of the server's changes than
    /// its log has.
    fn league_problems(&self) -> Result<Vec<String>> {
        let synced: Option<i64> = self
            .conn
            .query_row("SELECT synced FROM league", [], |r| r.get(0))
            .optional()?;
        let newest: i64 =
            self.conn
                .query_row("SELECT coalesce(max(id), 0) FROM batch", [], |r| r.get(0))?;
        Ok(match synced {
            Some(synced) if synced > newest => vec![format!(
                "the file says it holds the league's first {synced} changes, but its log has {newest}"
            )],
            _ => Vec::new(),
        })
    }

    fn verify_in_snapshot(
        &self,
        check: Option<&mut Check>,
        judge: Option<&mut Judge<'_>>,
    ) -> Result<Verification> {
        let mut out = Verification::default();
        let integrity: Vec<String> = self
            .conn
            .prepare("PRAGMA integrity_check")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        out.problems
            .extend(integrity.into_iter().filter(|line| line != "ok"));
        let broken_keys: Vec<(String, i64, String)> = self
            .conn
            .prepare("PRAGMA foreign_key_check")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (table, row, parent) in broken_keys {
            out.problems
                .push(format!("{table} row {row} refers to a missing {parent}"));
        }
        out.problems.extend(self.league_problems()?);
        if !out.problems.is_empty() {
            return Ok(out);
        }

        let log = self.full_log()?;
        out.events = log.len();
        let stored = self.dump()?;
        out.battles = stored.battles.len();

        let mut conn = Connection::open_in_memory()?;
        configure_memory(&conn)?;
        migrate(&mut conn, 0)?;
        // A campaign made by this version starts its log with its creation;
        // an older one did not, and its name is taken from the first rename
        // (or the file, which then cannot be checked).
        if !log.iter().any(|e| e.event.is_creation()) {
            let mut name = stored.info.name.clone();
            let mut ruleset = stored.info.default_ruleset.clone();
            if let Some(from) = log.iter().find_map(|e| match &e.event {
                Event::CampaignRenamed { from, .. } => Some(from.clone()),
                _ => None,
            }) {
                name = from;
            }
            if let Some(from) = log.iter().find_map(|e| match &e.event {
                Event::CampaignRulesetChanged { from, .. } => Some(from.clone()),
                _ => None,
            }) {
                ruleset = from;
            }
            conn.execute(
                "INSERT INTO campaign (id, name, default_ruleset) VALUES (1, ?1, ?2)",
                (&name, &ruleset),
            )?;
        }
        self.photo_keys_into(&conn, &log)?;
        let orphans: Vec<String> = self
            .conn
            .prepare(super::UNREACHABLE_PHOTOS)?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for photo in orphans {
            out.problems.push(format!(
                "photo {photo} is stored but no fighter shows it and no undo can bring it back"
            ));
        }

        let batches: Vec<(BatchId, String, Option<BatchId>)> = self
            .conn
            .prepare("SELECT id, label, undoes FROM batch ORDER BY id")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for (id, label, undoes) in &batches {
            tx.execute(
                "INSERT INTO batch (id, label, undoes) VALUES (?1, ?2, ?3)",
                (id, label, undoes),
            )?;
        }
        let undoes: std::collections::BTreeSet<BatchId> = batches
            .iter()
            .filter(|(_, _, undoes)| undoes.is_some())
            .map(|(id, _, _)| *id)
            .collect();
        let replayed = replay_entries(&tx, &log, &undoes, check, judge)?;
        out.problems.extend(replayed.judged);
        if let Some(problem) = replayed.stopped {
            out.problems.push(problem);
            return Ok(out);
        }
        tx.commit()?;
        out.batches = batches.len();

        let replay = CampaignStore {
            conn: conn.into(),
            path: self.path.clone(),
            read_only: Some("a replay".into()),
            lock: None,
            unchecked: false,
        };
        out.problems
            .extend(schema_differences(&self.conn, &replay.conn)?);
        out.problems
            .extend(table_differences(&self.conn, &replay.conn)?);
        let replayed = replay.dump()?;
        let pairs = [
            ("campaign", replayed.info == stored.info),
            ("gangs", replayed.gangs == stored.gangs),
            ("fighters", replayed.fighters == stored.fighters),
            ("battles", replayed.battles == stored.battles),
            ("titles", replayed.titles == stored.titles),
            ("pending effects", replayed.pending == stored.pending),
            ("lasting effects", replayed.lasting == stored.lasting),
            ("holdings", replayed.holders == stored.holders),
            ("cycles", replayed.cycle == stored.cycle),
            (
                "faction titles",
                replayed.faction_titles == stored.faction_titles,
            ),
        ];
        for (what, same) in pairs {
            if !same {
                out.problems
                    .push(format!("the {what} differ from what the log says"));
            }
        }
        Ok(out)
    }
}

/// What a replay found: what `judge` said of the batches, and the first
/// entry that is refused or does not replay, where one is.
struct ReplayFound {
    judged: Vec<String>,
    stopped: Option<String>,
}

/// Replays the log's entries into `tx`, each first through `check` where
/// one is given (`undoes`: the batches that take back another), and each
/// batch first through `judge`; the replay stops at the first entry that
/// is refused or does not replay.
fn replay_entries(
    tx: &rusqlite::Transaction<'_>,
    log: &[super::LogEntry],
    undoes: &std::collections::BTreeSet<BatchId>,
    mut check: Option<&mut Check>,
    mut judge: Option<&mut Judge<'_>>,
) -> Result<ReplayFound> {
    let mut judged = Vec::new();
    let stopped = |problem: String, judged: Vec<String>| ReplayFound {
        judged,
        stopped: Some(problem),
    };
    for (at, entry) in log.iter().enumerate() {
        let starts_batch = at == 0 || log[at - 1].batch != entry.batch;
        if let (Some(judge), true) = (judge.as_mut(), starts_batch) {
            let batch = LoggedBatch {
                id: entry.batch,
                at: entry.at.clone(),
                label: entry.label.clone(),
                undoes: entry.undoes,
                events: log[at..]
                    .iter()
                    .take_while(|e| e.batch == entry.batch)
                    .map(|e| e.event.clone())
                    .collect(),
            };
            judged.extend(judge(&Replaying(tx), &batch)?);
        }
        if let Some(check) = check.as_mut() {
            let undo = undoes.contains(&entry.batch);
            if let Err(err) = check(&super::gate_state::Reading(tx), &entry.event, undo) {
                return Ok(stopped(
                    format!(
                        "log entry {} (batch {}, “{}”) holds what no change may: {}: {}",
                        entry.id,
                        entry.batch.0,
                        crate::text::echo(&entry.label),
                        err.field,
                        err.reason
                    ),
                    judged,
                ));
            }
        }
        if let Err(err) = apply::apply(tx, &entry.event) {
            return Ok(stopped(
                format!(
                    "log entry {} (batch {}, “{}”) does not replay: {err}",
                    entry.id, entry.batch.0, entry.label
                ),
                judged,
            ));
        }
        tx.execute(
            "INSERT INTO event (id, batch_id, kind, gang_id, fighter_id, battle_id, payload) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            (
                entry.id,
                entry.batch,
                entry.event.kind(),
                entry.event.gang(),
                entry.event.fighter(),
                entry.event.battle(),
                crate::campaign::wire::encode(&entry.event)?,
            ),
        )?;
    }
    Ok(ReplayFound {
        judged,
        stopped: None,
    })
}

/// The tables, indexes and triggers of the file against those of a campaign
/// made by this build: a dropped append-only trigger is a hole in the log's
/// guard.
fn schema_differences(file: &Connection, fresh: &Connection) -> Result<Vec<String>> {
    let objects = |conn: &Connection| -> Result<std::collections::BTreeMap<String, String>> {
        Ok(conn
            .prepare(
                "SELECT type || ' ' || name, coalesce(sql, '') FROM sqlite_master \
                 WHERE name NOT LIKE 'sqlite_%'",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?)
    };
    let (have, want) = (objects(file)?, objects(fresh)?);
    let mut problems = Vec::new();
    for (name, sql) in &want {
        match have.get(name) {
            None => problems.push(format!("the file has lost its {name}")),
            Some(found) if found != sql => {
                problems.push(format!("the file's {name} is not the one Rapsheet made"));
            }
            Some(_) => {}
        }
    }
    for name in have.keys().filter(|n| !want.contains_key(*n)) {
        problems.push(format!("the file has a {name} Rapsheet did not make"));
    }
    Ok(problems)
}

/// Every row of every table of the state against the replay: whatever the
/// read models do not show is compared too. The log itself (`batch`,
/// `event`) is what was replayed, and photos are compared by key only. A
/// league's tables (where its server is, each batch's name there) are not
/// made by the log, and are not compared.
fn table_differences(file: &Connection, replay: &Connection) -> Result<Vec<String>> {
    let tables: Vec<String> = replay
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite_%' \
             AND name NOT IN ('batch', 'event', 'photo', 'league', 'league_batch', 'league_hash', 'league_key', 'league_trust', 'league_member') \
             ORDER BY name",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut problems = Vec::new();
    for table in tables {
        // The time a row was written is the file's own; a replay is now.
        let names: Vec<String> = replay
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?
            .query_map([&table], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?
            .into_iter()
            .filter(|c| !(table == "campaign" && c == "created_at"))
            .map(|c| format!("\"{c}\""))
            .collect();
        let columns = names.len();
        let list = names.join(", ");
        let sql = format!("SELECT {list} FROM \"{table}\" ORDER BY {list}");
        let rows = |conn: &Connection| -> Result<Vec<Vec<rusqlite::types::Value>>> {
            let mut stmt = conn.prepare(&sql)?;
            let rows = stmt
                .query_map([], |r| {
                    (0..columns)
                        .map(|i| r.get(i))
                        .collect::<rusqlite::Result<_>>()
                })?
                .collect::<rusqlite::Result<_>>()?;
            Ok(rows)
        };
        let want = rows(replay)?;
        let have = match rows(file) {
            Ok(have) => have,
            Err(err) => {
                problems.push(format!(
                    "table {table} cannot be read as Rapsheet made it: {err}"
                ));
                continue;
            }
        };
        if have != want {
            let extra = have.iter().filter(|r| !want.contains(r)).count();
            let missing = want.iter().filter(|r| !have.contains(r)).count();
            problems.push(format!(
                "table {table} differs from what the log says ({extra} row(s) the log does not explain, {missing} row(s) missing)"
            ));
        }
    }
    Ok(problems)
}
