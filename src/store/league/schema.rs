//! The league's schema: versioned SQL files, applied in order, each once,
//! with the names of this league's roles put in.

use postgres::Client;

use super::LeagueError;

/// The schema versions, in order: (version, SQL).
const VERSIONS: [(i64, &str); 7] = [
    (1, include_str!("schema/0001_batches.sql")),
    (2, include_str!("schema/0002_photos.sql")),
    (3, include_str!("schema/0003_undo_author.sql")),
    (4, include_str!("schema/0004_record_kinds.sql")),
    (5, include_str!("schema/0005_format_and_chain.sql")),
    (6, include_str!("schema/0006_signatures.sql")),
    (7, include_str!("schema/0007_backup.sql")),
];

/// The newest format of batches this build writes: 2, each batch chained
/// to the one before (`schema/0005_format_and_chain.sql`); 3, each signed
/// by its author (`schema/0006_signatures.sql`).
pub const NEWEST_FORMAT: i64 = 3;

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = VERSIONS.len() as i64;

/// The names a league's roles take from its database: roles are
/// cluster-wide, so several leagues can share one server.
struct Roles {
    database: String,
    organiser: String,
    owner: String,
    players: String,
}

impl Roles {
    fn of(client: &mut Client) -> Result<Roles, LeagueError> {
        let row = client.query_one("SELECT current_database()::text, session_user::text", &[])?;
        let database: String = row.get(0);
        Ok(Roles {
            owner: format!("{database}_owner"),
            players: format!("{database}_players"),
            organiser: row.get(1),
            database,
        })
    }

    /// Makes the organiser a member of the owner role, to change the
    /// schema.
    fn grant_owner(&self) -> String {
        format!(
            "GRANT {} TO {};",
            ident(&self.owner),
            ident(&self.organiser)
        )
    }

    /// Ends the organiser's membership of the owner role.
    fn revoke_owner(&self) -> String {
        format!(
            "REVOKE {} FROM {};",
            ident(&self.owner),
            ident(&self.organiser)
        )
    }

    /// The SQL of a version with the names put in.
    fn fill(&self, sql: &str) -> String {
        sql.replace("@organiser_literal@", &literal(&self.organiser))
            .replace("@organiser@", &ident(&self.organiser))
            .replace("@owner@", &ident(&self.owner))
            .replace("@players@", &ident(&self.players))
            .replace("@database@", &ident(&self.database))
    }
}

/// The group role of the connected league's members.
pub(super) fn players_role(client: &mut Client) -> Result<String, LeagueError> {
    Ok(Roles::of(client)?.players)
}

/// An SQL identifier, quoted.
pub(super) fn ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// An SQL string literal, quoted (standard-conforming strings).
pub(super) fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Refuses a database that is a league already or holds other tables, and
/// a login that cannot make the league's roles.
pub(super) fn check_can_init(client: &mut Client) -> Result<(), LeagueError> {
    let league = client.query_one(
        "SELECT to_regclass('league.schema_version') IS NOT NULL",
        &[],
    )?;
    if league.get(0) {
        let row = client.query_one("SELECT max(version) FROM league.schema_version", &[])?;
        return Err(LeagueError::AlreadyALeague(
            row.get::<_, Option<i64>>(0).unwrap_or(0),
        ));
    }
    check_empty(client)?;
    check_may_make_roles(client)
}

fn check_empty(client: &mut Client) -> Result<(), LeagueError> {
    let rows = client.query(
        "SELECT n.nspname || '.' || c.relname FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
           AND n.nspname NOT IN ('pg_catalog', 'information_schema')
           AND n.nspname NOT LIKE 'pg\\_%'
         ORDER BY 1 LIMIT 5",
        &[],
    )?;
    if rows.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    Err(LeagueError::NotEmpty(names.join(", ")))
}

fn check_may_make_roles(client: &mut Client) -> Result<(), LeagueError> {
    let row = client.query_one(
        "SELECT r.rolcreaterole OR r.rolsuper,
                pg_get_userbyid(d.datdba) = session_user
         FROM pg_roles r, pg_database d
         WHERE r.rolname = session_user AND d.datname = current_database()",
        &[],
    )?;
    if !row.get::<_, bool>(0) {
        return Err(LeagueError::Invalid(
            "the organiser's login needs CREATEROLE to invite members".to_owned(),
        ));
    }
    if !row.get::<_, bool>(1) {
        return Err(LeagueError::Invalid(
            "the league's database must be owned by the organiser's login".to_owned(),
        ));
    }
    Ok(())
}

/// Applies the versions after `from`, in order, in one transaction, the
/// organiser a member of the owner role only while they are applied.
pub(super) fn upgrade(client: &mut Client, from: i64) -> Result<(), LeagueError> {
    if from >= SCHEMA_VERSION {
        return Ok(());
    }
    let roles = Roles::of(client)?;
    let mut tx = client.transaction()?;
    tx.batch_execute(&roles.grant_owner())?;
    apply_versions(&mut tx, &roles, |v| v > from)?;
    tx.batch_execute(&roles.revoke_owner())?;
    tx.commit()?;
    Ok(())
}

/// Makes the league's roles and applies every version, in one
/// transaction. The organiser is a member of the owner role only while
/// the schema is made.
pub(super) fn apply(client: &mut Client, upto: i64) -> Result<(), LeagueError> {
    let roles = Roles::of(client)?;
    let mut tx = client.transaction()?;
    tx.batch_execute(&format!(
        "CREATE ROLE {owner} NOLOGIN; CREATE ROLE {players} NOLOGIN; GRANT {owner} TO {me};",
        owner = ident(&roles.owner),
        players = ident(&roles.players),
        me = ident(&roles.organiser),
    ))
    .map_err(|e| roles_taken(e, &roles))?;
    apply_versions(&mut tx, &roles, |v| v <= upto)?;
    tx.batch_execute(&roles.revoke_owner())?;
    tx.commit()?;
    Ok(())
}

/// The versions `which` picks, in order, with the league's names put in.
fn apply_versions(
    tx: &mut postgres::Transaction<'_>,
    roles: &Roles,
    which: impl Fn(i64) -> bool,
) -> Result<(), LeagueError> {
    for (_, sql) in VERSIONS.iter().filter(|(v, _)| which(*v)) {
        tx.batch_execute(&roles.fill(sql))?;
    }
    Ok(())
}

fn roles_taken(error: postgres::Error, roles: &Roles) -> LeagueError {
    match error.code() {
        Some(c) if *c == postgres::error::SqlState::DUPLICATE_OBJECT => {
            LeagueError::Invalid(format!(
                "the roles {} and {} already exist on this server (a league of the same name was here before); drop them or choose another database name",
                roles.owner, roles.players
            ))
        }
        _ => LeagueError::from(error),
    }
}
