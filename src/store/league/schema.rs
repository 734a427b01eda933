//! The league's schema: versioned SQL files, applied in order, each once,
//! with the names of this league's roles put in.

use super::wire::{Conn as Client, WireError};

use super::LeagueError;

/// The schema versions, in order: (version, SQL).
const VERSIONS: [(i64, &str); 14] = [
    (1, include_str!("schema/0001_batches.sql")),
    (2, include_str!("schema/0002_photos.sql")),
    (3, include_str!("schema/0003_undo_author.sql")),
    (4, include_str!("schema/0004_record_kinds.sql")),
    (5, include_str!("schema/0005_format_and_chain.sql")),
    (6, include_str!("schema/0006_signatures.sql")),
    (7, include_str!("schema/0007_backup.sql")),
    (8, include_str!("schema/0008_doorman.sql")),
    (9, include_str!("schema/0009_records_remade.sql")),
    (10, include_str!("schema/0010_season_kinds.sql")),
    (11, include_str!("schema/0011_no_member_holds_the_log.sql")),
    (12, include_str!("schema/0012_logins_of_the_league.sql")),
    (13, include_str!("schema/0013_one_key_waiting.sql")),
    (14, include_str!("schema/0014_challenges_and_pairings.sql")),
];

/// The newest format of batches this build writes: 2, each batch chained
/// to the one before (`schema/0005_format_and_chain.sql`); 3, each signed
/// by its author (`schema/0006_signatures.sql`); 4, each record carrying
/// the report and dice every laptop makes it again from
/// (`schema/0009_records_remade.sql`); 5, a season's kinds (holdings,
/// cycles, factions: `schema/0010_season_kinds.sql`); 6, a club's season
/// (challenges and pairings: `schema/0014_challenges_and_pairings.sql`).
pub const NEWEST_FORMAT: i64 = 6;

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = VERSIONS.len() as i64;

/// The names a league's roles take from its database: roles are
/// cluster-wide, so several leagues can share one server.
pub(super) struct Roles {
    pub database: String,
    pub organiser: String,
    pub owner: String,
    pub players: String,
    /// Makes members' logins through `league.admit`; no one logs in as it.
    pub doorman: String,
    /// Ends a member's transaction that holds others' sends
    /// (`league.end_held_sends`); no one logs in as it.
    pub usher: String,
    /// The login applying the schema: the organiser, or the server's
    /// administrator preparing the league for them.
    applier: String,
}

impl Roles {
    /// The roles of the connected database's league, the organiser the
    /// league's (or, before there is one, the connected login).
    fn of(client: &mut Client) -> Result<Roles, LeagueError> {
        let row = client.query_one("SELECT session_user::text", &[])?;
        let me: String = row.get(0);
        let exists = client
            .query_one("SELECT to_regclass('league.member') IS NOT NULL", &[])?
            .get::<_, bool>(0);
        let organiser = if exists {
            client
                .query_one("SELECT min(login) FROM league.member WHERE organiser", &[])?
                .get::<_, Option<String>>(0)
                .unwrap_or_else(|| me.clone())
        } else {
            me
        };
        Self::for_organiser(client, &organiser)
    }

    /// The roles of a league whose organiser is `organiser`.
    pub(super) fn for_organiser(
        client: &mut Client,
        organiser: &str,
    ) -> Result<Roles, LeagueError> {
        let row = client.query_one("SELECT current_database()::text, session_user::text", &[])?;
        let database: String = row.get(0);
        Ok(Roles {
            owner: format!("{database}_owner"),
            players: format!("{database}_players"),
            doorman: format!("{database}_doorman"),
            usher: format!("{database}_usher"),
            organiser: organiser.to_owned(),
            applier: row.get(1),
            database,
        })
    }

    /// Makes the organiser a member of the owner role, to change the
    /// schema.
    fn grant_owner(&self) -> String {
        format!("GRANT {} TO {};", ident(&self.owner), ident(&self.applier))
    }

    /// Ends the organiser's membership of the owner role.
    fn revoke_owner(&self) -> String {
        format!(
            "REVOKE {} FROM {};",
            ident(&self.owner),
            ident(&self.applier)
        )
    }

    /// The SQL of a version with the names put in.
    fn fill(&self, sql: &str) -> String {
        sql.replace("@organiser_literal@", &literal(&self.organiser))
            .replace("@organiser@", &ident(&self.organiser))
            .replace("@players_literal@", &literal(&self.players))
            .replace("@doorman@", &ident(&self.doorman))
            .replace("@usher@", &ident(&self.usher))
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

/// Refuses a database that holds other tables, for the administrator
/// preparing a league in it.
pub(super) fn check_empty_for(client: &mut Client) -> Result<(), LeagueError> {
    check_empty(client)
}

/// Refuses a login that is not the server's administrator: a superuser,
/// or a login with CREATEROLE that owns the database.
pub(super) fn check_administrator(client: &mut Client) -> Result<(), LeagueError> {
    let row = client.query_one(
        "SELECT r.rolsuper OR (r.rolcreaterole AND pg_get_userbyid(d.datdba) = session_user)
         FROM pg_roles r, pg_database d
         WHERE r.rolname = session_user AND d.datname = current_database()",
        &[],
    )?;
    if !row.get::<_, bool>(0) {
        return Err(LeagueError::Invalid(
            "the server's administrator prepares a league: a superuser, or a login with CREATEROLE that owns the database".to_owned(),
        ));
    }
    Ok(())
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
    client.transaction(|tx| {
        tx.batch_execute(&roles.grant_owner())?;
        apply_versions(tx, &roles, |v| v > from)?;
        tx.batch_execute(&roles.revoke_owner())?;
        Ok(())
    })
}

/// Makes the league's roles and applies every version, in one
/// transaction. The organiser is a member of the owner role only while
/// the schema is made.
pub(super) fn apply(client: &mut Client, upto: i64) -> Result<(), LeagueError> {
    let roles = Roles::of(client)?;
    make(client, &roles, upto)
}

/// Makes the league's roles and applies every version for the organiser
/// `organiser`, as the server's administrator (a login that may make
/// roles, not the organiser): the organiser then needs no CREATEROLE.
pub(super) fn prepare(client: &mut Client, organiser: &str) -> Result<(), LeagueError> {
    let roles = Roles::for_organiser(client, organiser)?;
    make(client, &roles, SCHEMA_VERSION)
}

fn make(client: &mut Client, roles: &Roles, upto: i64) -> Result<(), LeagueError> {
    client.transaction(|tx| make_in(tx, roles, upto, false))
}

/// Makes the league's roles and applies the versions up to `upto`, in the
/// transaction under way; the members' role may be there already where
/// `players_kept` (a league restored, its members' logins kept).
pub(super) fn make_in(
    tx: &mut Client,
    roles: &Roles,
    upto: i64,
    players_kept: bool,
) -> Result<(), LeagueError> {
    let players_there = players_kept
        && tx
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)",
                &[&roles.players],
            )?
            .get::<_, bool>(0);
    let players = if players_there {
        String::new()
    } else {
        format!("CREATE ROLE {} NOLOGIN;", ident(&roles.players))
    };
    tx.batch_execute(&format!(
        "CREATE ROLE {owner} NOLOGIN; {players} {grant}",
        owner = ident(&roles.owner),
        grant = roles.grant_owner(),
    ))
    .map_err(|e| roles_taken(e, roles))?;
    apply_versions(tx, roles, |v| v <= upto)?;
    tx.batch_execute(&roles.revoke_owner())?;
    Ok(())
}

/// Applies the versions after `from`, in the transaction under way.
pub(super) fn apply_after(tx: &mut Client, roles: &Roles, from: i64) -> Result<(), LeagueError> {
    tx.batch_execute(&roles.grant_owner())?;
    apply_versions(tx, roles, |v| v > from)?;
    tx.batch_execute(&roles.revoke_owner())?;
    Ok(())
}

/// Whether the connected database is a league made ready for this login
/// as its organiser ([`prepare`]) that holds no batch yet.
pub(super) fn prepared_for_me(client: &mut Client) -> Result<bool, LeagueError> {
    let exists = client
        .query_one("SELECT to_regclass('league.batch') IS NOT NULL", &[])?
        .get::<_, bool>(0);
    if !exists {
        return Ok(false);
    }
    let row = client.query_one(
        "SELECT EXISTS (SELECT 1 FROM league.member WHERE login = session_user AND organiser),
                NOT EXISTS (SELECT 1 FROM league.batch)",
        &[],
    )?;
    Ok(row.get::<_, bool>(0) && row.get::<_, bool>(1))
}

/// The versions `which` picks, in order, with the league's names put in.
fn apply_versions(
    tx: &mut Client,
    roles: &Roles,
    which: impl Fn(i64) -> bool,
) -> Result<(), LeagueError> {
    for (_, sql) in VERSIONS.iter().filter(|(v, _)| which(*v)) {
        tx.batch_execute(&roles.fill(sql))?;
    }
    Ok(())
}

fn roles_taken(error: WireError, roles: &Roles) -> LeagueError {
    let WireError::Pg(error) = error else {
        return error.into();
    };
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
