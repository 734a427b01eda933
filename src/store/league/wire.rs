//! The connection to a league's server, bounded on this laptop's side.
//!
//! The server's own limits (a statement timeout, a lock timeout) end
//! nothing when the server stops answering altogether (a machine frozen, a
//! network that drops every packet, a server stopped mid-answer): the
//! laptop would wait for ever. So every exchange here has a limit the
//! laptop enforces itself: connecting (TCP, TLS, the login) within
//! [`CONNECT_WAIT`], each statement within its own limit, all of them
//! before a deadline the caller may set (a whole sync), and each can be
//! cancelled from another thread. TCP keepalives tell a dead network
//! from a slow answer. A connection whose exchange was cut short is
//! closed: nothing more is sent on it.
//!
//! It runs `tokio-postgres` on a runtime of its own, on the calling
//! thread: the app has no async runtime, and a call returns only when its
//! answer came, its limit passed or it was cancelled.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Poll;
use std::time::{Duration, Instant};

use postgres::Row;
use postgres::types::ToSql;
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

/// How long connecting may take (the TCP connection, TLS, the login).
pub const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// How long one statement may take before this laptop gives up on it,
/// whatever the server does.
pub const STATEMENT_WAIT: Duration = Duration::from_secs(30);

/// How often a call looks whether it was cancelled.
const CANCEL_POLL: Duration = Duration::from_millis(100);

/// Why an exchange with the server did not give an answer.
#[derive(Debug)]
pub enum WireError {
    /// What the server or the connection said.
    Pg(postgres::Error),
    /// No answer within the limit: the server stopped answering, or the
    /// network dropped everything.
    Silent(Duration),
    /// Cancelled on this laptop.
    Cancelled,
    /// This laptop could not make what a connection needs.
    Local(String),
}

impl From<postgres::Error> for WireError {
    fn from(error: postgres::Error) -> Self {
        WireError::Pg(error)
    }
}

/// The limits a connection keeps: a deadline for everything it does, and
/// a flag that cancels what it is doing.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Nothing is waited for past this instant.
    pub deadline: Option<Instant>,
    /// Set (from any thread), the call under way ends at once.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// The time a call may wait at most, of `own`.
    fn wait(&self, own: Duration) -> Duration {
        match self.deadline {
            Some(deadline) => own.min(deadline.saturating_duration_since(Instant::now())),
            None => own,
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// A connection to the server.
pub struct Conn {
    runtime: tokio::runtime::Runtime,
    client: tokio_postgres::Client,
    pub limits: Limits,
    /// An exchange was cut short: nothing more is said on this connection.
    cut: Option<Duration>,
}

/// Where to connect and as whom.
pub struct Target<'a> {
    pub host: &'a str,
    pub port: u16,
    pub database: &'a str,
    pub login: &'a str,
    pub password: &'a str,
    /// Options for the server's session (`-c name=value …`).
    pub options: &'a str,
}

impl Conn {
    /// Connects over TLS with `tls`, within [`CONNECT_WAIT`] and `limits`.
    pub fn connect(
        target: &Target<'_>,
        tls: rustls::ClientConfig,
        limits: Limits,
    ) -> Result<Conn, WireError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| WireError::Local(e.to_string()))?;
        let mut config = tokio_postgres::Config::new();
        config
            .host(target.host)
            .port(target.port)
            .dbname(target.database)
            .user(target.login)
            .password(target.password)
            .ssl_mode(SslMode::Require)
            .connect_timeout(CONNECT_WAIT)
            // A network that drops everything is noticed within half a
            // minute, whatever is under way.
            .keepalives(true)
            .keepalives_idle(Duration::from_secs(10))
            .keepalives_interval(Duration::from_secs(5))
            .keepalives_retries(3)
            .tcp_user_timeout(Duration::from_secs(20))
            .options(target.options)
            .application_name("rapsheet");
        let wait = limits.wait(CONNECT_WAIT);
        let (client, connection) = runtime.block_on(bounded(
            config.connect(MakeRustlsConnect::new(tls)),
            wait,
            &limits,
        ))?;
        // Driven whenever a call waits on the runtime; it ends with the
        // runtime when the connection is dropped.
        runtime.spawn(connection);
        Ok(Conn {
            runtime,
            client,
            limits,
            cut: None,
        })
    }

    /// Runs `call` on the connection within `own` (and the limits).
    fn run<T>(
        &mut self,
        own: Duration,
        call: impl AsyncFnOnce(&tokio_postgres::Client) -> Result<T, postgres::Error>,
    ) -> Result<T, WireError> {
        if self.limits.cancelled() {
            return Err(WireError::Cancelled);
        }
        if let Some(waited) = self.cut {
            return Err(WireError::Silent(waited));
        }
        let wait = self.limits.wait(own);
        if wait.is_zero() {
            return Err(WireError::Silent(own));
        }
        let client = &self.client;
        let limits = &self.limits;
        let out = self.runtime.block_on(bounded(call(client), wait, limits));
        match out {
            // Cut short: whatever the server makes of it, nothing more is
            // said on this connection.
            Err(WireError::Silent(waited)) => {
                self.cut = Some(waited);
                Err(WireError::Silent(waited))
            }
            Err(WireError::Cancelled) => {
                self.cut = Some(Duration::ZERO);
                Err(WireError::Cancelled)
            }
            out => out,
        }
    }

    pub fn query(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, WireError> {
        self.run(STATEMENT_WAIT, async |c| c.query(sql, params).await)
    }

    pub fn query_one(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Row, WireError> {
        self.run(STATEMENT_WAIT, async |c| c.query_one(sql, params).await)
    }

    pub fn query_opt(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, WireError> {
        self.run(STATEMENT_WAIT, async |c| c.query_opt(sql, params).await)
    }

    pub fn execute(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64, WireError> {
        self.run(STATEMENT_WAIT, async |c| c.execute(sql, params).await)
    }

    /// Statements without parameters, one after another.
    pub fn batch_execute(&mut self, sql: &str) -> Result<(), WireError> {
        self.run(STATEMENT_WAIT, async |c| c.batch_execute(sql).await)
    }

    /// Runs `work` in one transaction: committed where it gives `Ok`,
    /// rolled back otherwise (or by the server, where the connection is
    /// gone).
    pub fn transaction<T, E: From<WireError>>(
        &mut self,
        work: impl FnOnce(&mut Conn) -> Result<T, E>,
    ) -> Result<T, E> {
        self.batch_execute("BEGIN")?;
        match work(self) {
            Ok(out) => {
                self.batch_execute("COMMIT")?;
                Ok(out)
            }
            Err(err) => {
                let _ = self.batch_execute("ROLLBACK");
                Err(err)
            }
        }
    }
}

/// `call`'s answer, or [`WireError::Silent`] once `wait` has passed, or
/// [`WireError::Cancelled`] once the limits' flag is set.
async fn bounded<T>(
    call: impl Future<Output = Result<T, postgres::Error>>,
    wait: Duration,
    limits: &Limits,
) -> Result<T, WireError> {
    let mut call = pin!(call);
    let mut watch = pin!(async {
        loop {
            tokio::time::sleep(CANCEL_POLL).await;
            if limits.cancelled() {
                return;
            }
        }
    });
    let raced = std::future::poll_fn(|cx| {
        if let Poll::Ready(out) = call.as_mut().poll(cx) {
            return Poll::Ready(Some(out));
        }
        if limits.cancel.is_some() && watch.as_mut().poll(cx).is_ready() {
            return Poll::Ready(None);
        }
        Poll::Pending
    });
    match tokio::time::timeout(wait, raced).await {
        Err(_) => Err(WireError::Silent(wait)),
        Ok(None) => Err(WireError::Cancelled),
        Ok(Some(out)) => out.map_err(WireError::Pg),
    }
}
