//! What went wrong talking to a league's server, in sentences a player
//! can read. The SQLSTATE stays available ([`LeagueError::code`]) for the
//! client to act on; it is never part of the message.

use std::error::Error as _;

use postgres::error::SqlState;

use super::wire::WireError;

/// Why a league's server could not be reached, read or changed.
#[derive(Debug, thiserror::Error)]
pub enum LeagueError {
    #[error("the league's server cannot be reached ({0}); check the network and try again")]
    Offline(String),
    #[error("the server is not the league's: its certificate is not the one in the invite")]
    Certificate(String),
    #[error("the server refused the login or its password; ask the organiser for a new invite")]
    Login { code: String },
    #[error("refused: {message}")]
    Refused { code: String, message: String },
    #[error("this database holds no league yet; the organiser runs `rapsheet league init` first")]
    NotALeague { code: String },
    #[error("this database already holds a league (schema version {0})")]
    AlreadyALeague(i64),
    #[error("this database holds other tables ({0}); a league needs an empty database")]
    NotEmpty(String),
    #[error("{0}")]
    Invalid(String),
    #[error("the league's server said: {message}")]
    Server { code: String, message: String },
    #[error("cancelled on this laptop before the server answered")]
    Cancelled,
}

impl LeagueError {
    /// The SQLSTATE the server gave, where it gave one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Self::Login { code }
            | Self::Refused { code, .. }
            | Self::NotALeague { code }
            | Self::Server { code, .. } => Some(code),
            _ => None,
        }
    }
}

impl From<postgres::Error> for LeagueError {
    fn from(error: postgres::Error) -> Self {
        let Some(db) = error.as_db_error() else {
            return without_server_word(&error);
        };
        let code = db.code().code().to_owned();
        let message = db.message().to_owned();
        match db.code() {
            // A wait the connection's limits ended: another member's
            // transaction left open, or a server too slow to answer.
            c if *c == SqlState::LOCK_NOT_AVAILABLE => Self::Offline(
                "another member's change is still open on the server; try again in a minute".into(),
            ),
            c if *c == SqlState::QUERY_CANCELED => {
                Self::Offline("it did not answer in time".into())
            }
            c if *c == SqlState::INVALID_PASSWORD
                || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
            {
                Self::Login { code }
            }
            c if *c == SqlState::INSUFFICIENT_PRIVILEGE => Self::Refused { code, message },
            c if *c == SqlState::UNDEFINED_TABLE || *c == SqlState::INVALID_SCHEMA_NAME => {
                Self::NotALeague { code }
            }
            _ => Self::Server { code, message },
        }
    }
}

impl From<WireError> for LeagueError {
    fn from(error: WireError) -> Self {
        match error {
            WireError::Pg(error) => error.into(),
            WireError::Silent(waited) => Self::Offline(silent(waited)),
            WireError::Cancelled => Self::Cancelled,
            WireError::Local(words) => Self::Offline(words),
        }
    }
}

/// A server that did not answer within `waited`, in words.
fn silent(waited: std::time::Duration) -> String {
    format!(
        "it did not answer within {} s",
        waited.as_secs_f64().ceil() as u64
    )
}

/// An error before or beside the server's answer: TLS, the network, a
/// closed connection.
fn without_server_word(error: &postgres::Error) -> LeagueError {
    if let Some(tls) = rustls_error(error) {
        return LeagueError::Certificate(tls.to_string());
    }
    LeagueError::Offline(sentence(error))
}

/// The rustls error somewhere in the chain of sources, where there is one.
pub(super) fn rustls_error(error: &postgres::Error) -> Option<&rustls::Error> {
    let mut source = error.source();
    while let Some(e) = source {
        if let Some(tls) = e.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        if let Some(tls) = e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        {
            return Some(tls);
        }
        source = e.source();
    }
    None
}

/// Why the network failed, in a player's words where the system said
/// what happened (nothing answers, no answer in time, a name not known),
/// and otherwise the error and its sources in one line, without the
/// system's error number.
fn sentence(error: &postgres::Error) -> String {
    use std::io::ErrorKind;
    let mut words = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            let plain = match io.kind() {
                ErrorKind::ConnectionRefused => Some("nothing answers at its address"),
                ErrorKind::TimedOut => Some("it did not answer in time"),
                ErrorKind::ConnectionReset
                | ErrorKind::ConnectionAborted
                | ErrorKind::UnexpectedEof
                | ErrorKind::BrokenPipe => Some("the connection was cut"),
                ErrorKind::HostUnreachable | ErrorKind::NetworkUnreachable => {
                    Some("the network does not reach it")
                }
                ErrorKind::NetworkDown => Some("this laptop is not on a network"),
                _ => None,
            };
            if let Some(plain) = plain {
                return plain.to_owned();
            }
        }
        words.push_str(": ");
        words.push_str(&e.to_string());
        source = e.source();
    }
    without_error_number(&words)
}

/// `… (os error 111)` without the number a player cannot use.
fn without_error_number(words: &str) -> String {
    let mut out = words.to_owned();
    while let Some(at) = out.find(" (os error ") {
        match out[at..].find(')') {
            Some(end) => out.replace_range(at..at + end + 1, ""),
            None => break,
        }
    }
    out
}

/// Why a push did not land. Nothing of it was written: a push is one
/// transaction.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    /// Someone pushed first: pull, rebase and push again (after a pause).
    #[error("someone else sent changes first; fetch them and send again")]
    LostRace,
    /// The batch with this id is already on the server: pull.
    #[error("change {0} is already on the league's server")]
    AlreadyThere(String),
    /// The server refused the batch, with the reason.
    #[error("the league's server refused change {uid}: {reason}")]
    Refused { uid: String, reason: String },
    #[error("the league's server cannot be reached ({0}); the changes stay on this laptop")]
    Offline(String),
    #[error("the league's server could not take the changes: {0}")]
    Other(String),
}

/// What a failed insert of the batch `uid` means to the pusher.
pub(super) fn push_error(error: WireError, uid: &str) -> PushError {
    let error = match error {
        WireError::Pg(error) => error,
        WireError::Silent(waited) => return PushError::Offline(silent(waited)),
        WireError::Cancelled => return PushError::Offline(LeagueError::Cancelled.to_string()),
        WireError::Local(words) => return PushError::Offline(words),
    };
    let Some(db) = error.as_db_error() else {
        return PushError::Offline(sentence(&error));
    };
    let code = db.code();
    if *code == SqlState::UNIQUE_VIOLATION {
        return match db.constraint() {
            Some("batch_uid_key") => PushError::AlreadyThere(uid.to_owned()),
            _ => PushError::LostRace,
        };
    }
    if *code == SqlState::T_R_SERIALIZATION_FAILURE || *code == SqlState::T_R_DEADLOCK_DETECTED {
        return PushError::LostRace;
    }
    if *code == SqlState::LOCK_NOT_AVAILABLE || *code == SqlState::QUERY_CANCELED {
        return match LeagueError::from(error) {
            LeagueError::Offline(words) => PushError::Offline(words),
            other => PushError::Other(other.to_string()),
        };
    }
    // Refusals: authority (42501), a malformed batch (class 22), a
    // constraint it breaks (class 23).
    let class = code.code().get(..2).unwrap_or_default();
    if *code == SqlState::INSUFFICIENT_PRIVILEGE || class == "22" || class == "23" {
        return PushError::Refused {
            uid: uid.to_owned(),
            reason: db.message().to_owned(),
        };
    }
    PushError::Other(db.message().to_owned())
}

impl From<LeagueError> for PushError {
    fn from(error: LeagueError) -> Self {
        match error {
            LeagueError::Offline(words) => PushError::Offline(words),
            other => PushError::Other(other.to_string()),
        }
    }
}
