//! A league restored from its organiser's backup, made whole again by the
//! server's administrator (`league prepare` on the restored database).
//!
//! The backup is the organiser's: whatever it holds is theirs to have
//! written, so it is restored with their rights only (logged in as them,
//! owning what it makes, docs/league.md), and nothing of it runs with
//! more. `prepare` then keeps the restored schema's data and nothing
//! else: the schema is renamed aside; its tables are checked to be plain
//! tables whose columns have exactly the league's types (so reading them
//! runs nothing the backup wrote); the league's roles are made again
//! (none keeps a right the backup or the old server gave it), its schema
//! made anew from this build's files up to the restored version, the data
//! copied in with the triggers off, the versions after applied; and the
//! schema set aside is dropped. The database is the administrator's, the
//! organiser keeps only what `prepare` gives them, and PUBLIC neither
//! connects nor makes temporary tables.

use super::LeagueError;
use super::schema::{self, Roles, ident};
use super::wire::Conn;

/// Where the restored schema is set aside while its data is taken.
const ASIDE: &str = "league_restored";

/// The tables whose rows a league's data is, from the schema version
/// that made each; the rest (kinds, fields, versions) are the schema's.
const DATA: [(&str, i64); 11] = [
    ("member", 1),
    ("gang_owner", 1),
    ("fighter_gang", 1),
    ("effect_fighter", 1),
    ("pending_gang", 1),
    ("batch", 1),
    ("photo", 2),
    ("member_key", 6),
    ("format", 5),
    ("challenge_gangs", 14),
    ("member_sync", 14),
];

/// Whether the connected database holds a league restored from a backup:
/// a `league` schema that is not the owner role's.
pub(super) fn is_restored(conn: &mut Conn, roles: &Roles) -> Result<bool, LeagueError> {
    let row = conn.query_opt(
        "SELECT pg_get_userbyid(nspowner)::text FROM pg_namespace WHERE nspname = 'league'",
        &[],
    )?;
    Ok(row.is_some_and(|row| row.get::<_, String>(0) != roles.owner))
}

/// Makes a restored league whole (see the module's words). Returns the
/// schema version it is at and how many batches it holds.
pub(super) fn make_whole(conn: &mut Conn, roles: &Roles) -> Result<(i64, i64), LeagueError> {
    let superuser = conn
        .query_one(
            "SELECT rolsuper FROM pg_roles WHERE rolname = session_user",
            &[],
        )?
        .get::<_, bool>(0);
    if !superuser {
        return Err(LeagueError::Invalid(
            "a restored league is made whole by the server's superuser".to_owned(),
        ));
    }
    conn.transaction(|tx| {
        tx.batch_execute("SET LOCAL search_path = pg_catalog, pg_temp")?;
        refuse_strangers(tx)?;
        tx.batch_execute(&format!("ALTER SCHEMA league RENAME TO {ASIDE}"))?;
        let version = restored_version(tx)?;
        if version > schema::SCHEMA_VERSION {
            return Err(LeagueError::Invalid(format!(
                "the backup is of a league at schema {version}, newer than this Rapsheet knows ({}): restore it with a newer Rapsheet",
                schema::SCHEMA_VERSION
            )));
        }
        drop_league_roles(tx, roles)?;
        schema::make_in(tx, roles, version, true)?;
        let batches = copy_data(tx, version)?;
        tx.batch_execute(&format!("DROP SCHEMA {ASIDE} CASCADE"))?;
        schema::apply_after(tx, roles, version)?;
        grant_members(tx, roles)?;
        database_rights(tx, roles)?;
        Ok((schema::SCHEMA_VERSION, batches))
    })
}

/// Refuses a database that holds other schemas than the league's (the
/// backup's own, or anyone's): the administrator looks first.
fn refuse_strangers(tx: &mut Conn) -> Result<(), LeagueError> {
    let rows = tx.query(
        "SELECT nspname::text FROM pg_namespace
         WHERE nspname NOT IN ('league', 'public', 'information_schema')
           AND nspname NOT LIKE 'pg\\_%'
         UNION ALL
         SELECT 'public.' || relname FROM pg_class
         WHERE relnamespace = 'public'::regnamespace
         UNION ALL
         SELECT 'public.' || proname FROM pg_proc
         WHERE pronamespace = 'public'::regnamespace
         ORDER BY 1 LIMIT 5",
        &[],
    )?;
    if rows.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    Err(LeagueError::Invalid(format!(
        "the restored database holds more than the league ({}): restore the organiser's backup into a new, empty database",
        names.join(", ")
    )))
}

/// The restored league's schema version, read from its plain table.
fn restored_version(tx: &mut Conn) -> Result<i64, LeagueError> {
    check_plain(
        tx,
        "schema_version",
        &[("version".to_owned(), "bigint".to_owned())],
    )?;
    let row = tx.query_one(
        &format!("SELECT coalesce(max(version), 0) FROM ONLY {ASIDE}.schema_version"),
        &[],
    )?;
    let version: i64 = row.get(0);
    if version < 1 {
        return Err(LeagueError::Invalid(
            "the restored league says no schema version: it is not a league's backup".to_owned(),
        ));
    }
    Ok(version)
}

/// Ends every right the league's roles held (on this server or from the
/// backup's roles): the owner, the doorman and the usher are made again;
/// the members' role keeps its members.
fn drop_league_roles(tx: &mut Conn, roles: &Roles) -> Result<(), LeagueError> {
    for role in [&roles.owner, &roles.doorman, &roles.usher] {
        let exists = tx
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)",
                &[role],
            )?
            .get::<_, bool>(0);
        if exists {
            tx.batch_execute(&format!(
                "REASSIGN OWNED BY {r} TO CURRENT_USER; DROP OWNED BY {r}; DROP ROLE {r};",
                r = ident(role)
            ))
            .map_err(|e| {
                LeagueError::Invalid(format!(
                    "the league's role {role} cannot be made again here ({}): it holds rights in another database of this server",
                    LeagueError::from(e)
                ))
            })?;
        }
    }
    Ok(())
}

/// The columns of a league table as this build's schema made it here.
fn columns_of(tx: &mut Conn, table: &str) -> Result<Vec<(String, String)>, LeagueError> {
    let rows = tx.query(
        "SELECT a.attname::text, format_type(a.atttypid, a.atttypmod)
         FROM pg_attribute a
         WHERE a.attrelid = ('league.' || quote_ident($1))::regclass
           AND a.attnum > 0 AND NOT a.attisdropped
         ORDER BY a.attnum",
        &[&table],
    )?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// Refuses a restored table that is not a plain table with exactly these
/// columns and types: reading it then runs nothing the backup wrote.
fn check_plain(
    tx: &mut Conn,
    table: &str,
    columns: &[(String, String)],
) -> Result<(), LeagueError> {
    let row = tx.query_opt(
        "SELECT c.relkind::text, c.relhasrules, c.relhassubclass, c.oid::bigint
         FROM pg_class c WHERE c.relnamespace = $1::text::regnamespace AND c.relname = $2",
        &[&ASIDE, &table],
    )?;
    let changed = || {
        LeagueError::Invalid(format!(
            "the restored league.{table} is not the league's table: the backup was changed; restore one the organiser made with `pg_dump`"
        ))
    };
    let Some(row) = row else {
        return Err(changed());
    };
    let (kind, rules, children, oid): (String, bool, bool, i64) =
        (row.get(0), row.get(1), row.get(2), row.get(3));
    if kind != "r" || rules || children {
        return Err(changed());
    }
    for (column, ty) in columns {
        let found = tx.query_opt(
            "SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
             WHERE a.attrelid = $1::bigint::oid AND a.attname = $2 AND NOT a.attisdropped",
            &[&oid, column],
        )?;
        if found.map(|r| r.get::<_, String>(0)).as_ref() != Some(ty) {
            return Err(changed());
        }
    }
    Ok(())
}

/// Copies the restored data into the league made anew, the triggers off
/// (the batches keep the authors, times and hashes they had). Returns how
/// many batches there are.
fn copy_data(tx: &mut Conn, version: i64) -> Result<i64, LeagueError> {
    tx.batch_execute("SET LOCAL session_replication_role = replica")?;
    for (table, since) in DATA {
        if version < since {
            continue;
        }
        let columns = columns_of(tx, table)?;
        check_plain(tx, table, &columns)?;
        let list = columns
            .iter()
            .map(|(c, _)| ident(c))
            .collect::<Vec<_>>()
            .join(", ");
        let (from, conflict) = match table {
            // The schema made these rows already: the backup's stand.
            "format" => (
                "",
                "ON CONFLICT (one) DO UPDATE SET format = excluded.format",
            ),
            "member" => (
                "",
                "ON CONFLICT (login) DO UPDATE SET organiser = excluded.organiser",
            ),
            _ => ("", ""),
        };
        let order = if table == "batch" { "ORDER BY seq" } else { "" };
        tx.batch_execute(&format!(
            "INSERT INTO league.{t} ({list}) SELECT {list} FROM ONLY {ASIDE}.{t}{from} {order} {conflict}",
            t = ident(table)
        ))?;
    }
    tx.batch_execute("SET LOCAL session_replication_role = origin")?;
    let row = tx.query_one("SELECT count(*) FROM league.batch", &[])?;
    Ok(row.get(0))
}

/// Every member's login that is on this server is a member of the
/// members' role again.
fn grant_members(tx: &mut Conn, roles: &Roles) -> Result<(), LeagueError> {
    let rows = tx.query(
        "SELECT m.login FROM league.member m JOIN pg_roles r ON r.rolname = m.login
         WHERE NOT r.rolsuper ORDER BY 1",
        &[],
    )?;
    for row in rows {
        let login: String = row.get(0);
        tx.batch_execute(&format!(
            "GRANT {} TO {}",
            ident(&roles.players),
            ident(&login)
        ))?;
    }
    Ok(())
}

/// The database is the administrator's; PUBLIC neither connects nor
/// makes temporary tables; the organiser makes nothing in it (the right
/// to restore is taken back) and connects as a member.
fn database_rights(tx: &mut Conn, roles: &Roles) -> Result<(), LeagueError> {
    tx.batch_execute(&format!(
        "ALTER DATABASE {db} OWNER TO CURRENT_USER;
         REVOKE ALL ON DATABASE {db} FROM PUBLIC;
         REVOKE ALL ON DATABASE {db} FROM {organiser};
         GRANT CONNECT ON DATABASE {db} TO {players};",
        db = ident(&roles.database),
        organiser = ident(&roles.organiser),
        players = ident(&roles.players),
    ))?;
    Ok(())
}
