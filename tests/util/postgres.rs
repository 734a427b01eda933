//! A throwaway PostgreSQL for the league tests: a cluster in a temporary
//! folder on 127.0.0.1 and a free port, TLS on with a certificate made
//! here, only `hostssl … scram-sha-256` connections allowed. One cluster
//! per test binary ([`cluster`]); each test takes its own database and
//! organiser ([`Cluster::league`]).
//!
//! The cluster stops on every path: a watchdog process (in its own
//! process group, so Ctrl-C of the tests does not take it down first)
//! stops it with `pg_ctl stop -m immediate` and removes its folder as soon
//! as the test process is gone, however it ended; a [`Cluster`] that is
//! dropped stops it at once.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use rapsheet::store::league::Address;

/// A running PostgreSQL cluster.
pub struct Cluster {
    base: PathBuf,
    data: PathBuf,
    bin: PathBuf,
    pub port: u16,
    /// The server's certificate (PEM).
    pub certificate: String,
    /// The superuser `postgres`'s password.
    superuser_password: String,
    as_postgres: bool,
}

/// The cluster of this test binary, started by the first test that asks.
pub fn cluster() -> &'static Cluster {
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    CLUSTER.get_or_init(Cluster::start)
}

/// A league's empty database and its organiser's login.
pub struct TestLeague {
    /// The organiser's address.
    pub address: Address,
    pub password: String,
}

impl TestLeague {
    /// The address of another login of this league.
    pub fn as_login(&self, login: &str) -> Address {
        Address {
            login: login.to_owned(),
            ..self.address.clone()
        }
    }
}

impl Cluster {
    /// Starts a cluster; panics with what to do when PostgreSQL is missing.
    pub fn start() -> Cluster {
        let bin = postgres_bin();
        let as_postgres = running_as_root();
        let base = make_base(as_postgres);
        let data = base.join("data");
        let superuser_password = "superuser-of-the-test-cluster".to_owned();
        let certificate = write_certificate(&base);
        let mut cluster = Cluster {
            base,
            data,
            bin,
            port: 0,
            certificate,
            superuser_password,
            as_postgres,
        };
        cluster.initdb();
        cluster.watch(std::process::id());
        cluster.start_on_a_free_port();
        cluster
    }

    /// A command of PostgreSQL's, run as the postgres user when the tests
    /// run as root (initdb and the server refuse root).
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }

    fn initdb(&self) {
        let pwfile = self.base.join("pw");
        fs::write(&pwfile, &self.superuser_password).expect("password file");
        self.hand_over(&pwfile);
        let output = self
            .command("initdb")
            .arg("-D")
            .arg(&self.data)
            .args(["-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
            .args(["--auth-local=trust", "--auth-host=scram-sha-256"])
            .arg(format!("--pwfile={}", pwfile.display()))
            .output()
            .expect("run initdb");
        assert!(
            output.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        self.configure();
    }

    /// TLS on, only TLS with SCRAM from 127.0.0.1, plain connections refused.
    fn configure(&self) {
        let hba = "local all postgres trust\n\
                   hostssl all all 127.0.0.1/32 scram-sha-256\n\
                   hostnossl all all 0.0.0.0/0 reject\n";
        fs::write(self.data.join("pg_hba.conf"), hba).expect("pg_hba.conf");
        let conf = format!(
            "\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{base}'\n\
             ssl = on\nssl_cert_file = '{base}/server.crt'\nssl_key_file = '{base}/server.key'\n\
             fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n\
             max_connections = 100\npassword_encryption = 'scram-sha-256'\n",
            base = self.base.display()
        );
        let path = self.data.join("postgresql.conf");
        let mut text = fs::read_to_string(&path).expect("postgresql.conf");
        text.push_str(&conf);
        fs::write(&path, text).expect("postgresql.conf");
        self.hand_over(&self.base);
    }

    /// Starts the server, on another port where the first was taken.
    fn start_on_a_free_port(&mut self) {
        let mut last = String::new();
        for _ in 0..5 {
            self.port = free_port();
            let output = self
                .command("pg_ctl")
                .arg("-D")
                .arg(&self.data)
                .arg("-l")
                .arg(self.base.join("log"))
                .arg("-o")
                .arg(format!("-p {}", self.port))
                .args(["-w", "-t", "60", "start"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .output()
                .expect("run pg_ctl");
            if output.status.success() {
                return;
            }
            last = fs::read_to_string(self.base.join("log")).unwrap_or_default();
        }
        panic!("PostgreSQL did not start:\n{last}");
    }

    /// A watchdog that stops the server and removes its folder once the
    /// process `pid` is gone. It outlives this process: never waited for.
    #[allow(clippy::zombie_processes)]
    fn watch(&self, pid: u32) {
        let stop = format!(
            "{runuser}{pg_ctl} -D {data} stop -m immediate",
            runuser = if self.as_postgres {
                "runuser -u postgres -- "
            } else {
                ""
            },
            pg_ctl = self.bin.join("pg_ctl").display(),
            data = self.data.display(),
        );
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.2; done; {stop}; rm -rf {base}",
            base = self.base.display()
        );
        Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start the cluster's watchdog");
    }

    fn stop(&self) {
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .args(["stop", "-m", "immediate"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`), as a server
    /// that goes away mid-sync; its data and port stay for
    /// [`Cluster::start_again`]. Every test of the binary loses the server
    /// meanwhile: a binary whose tests may run alongside keeps to one test
    /// that does this.
    pub fn stop_now(&self) {
        self.stop();
    }

    /// Starts the stopped server again, on the same port with the same
    /// data.
    pub fn start_again(&self) {
        let output = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(self.base.join("log"))
            .arg("-o")
            .arg(format!("-p {}", self.port))
            .args(["-w", "-t", "60", "start"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .expect("run pg_ctl");
        assert!(
            output.status.success(),
            "PostgreSQL did not start again:\n{}",
            fs::read_to_string(self.base.join("log")).unwrap_or_default()
        );
    }

    /// Freezes the server (SIGSTOP to the postmaster and every process of
    /// it): its machine still takes TCP connections and acknowledges what
    /// is sent, but nothing answers, as a server that hangs. Every test
    /// of the binary loses the server meanwhile: a binary whose tests may
    /// run alongside keeps to one test that does this.
    pub fn freeze(&self) {
        self.signal_all(libc::SIGSTOP);
    }

    /// Lets a frozen server go on ([`Cluster::freeze`]).
    pub fn thaw(&self) {
        self.signal_all(libc::SIGCONT);
    }

    /// Sends `signal` to the postmaster and its children.
    fn signal_all(&self, signal: libc::c_int) {
        let pid_file =
            fs::read_to_string(self.data.join("postmaster.pid")).expect("postmaster.pid");
        let postmaster: i32 = pid_file.lines().next().unwrap().trim().parse().unwrap();
        let mut pids = vec![postmaster];
        for entry in fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // pid (comm) state ppid …: the command may hold spaces.
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let ppid: i32 = after
                .split_whitespace()
                .nth(1)
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            if ppid == postmaster {
                pids.push(pid);
            }
        }
        for pid in pids {
            // SAFETY: kill has no memory preconditions; a process gone
            // meanwhile is no matter.
            unsafe {
                libc::kill(pid, signal);
            }
        }
    }

    /// Makes a file or folder the server's (when it runs as postgres).
    fn hand_over(&self, path: &Path) {
        if self.as_postgres {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(path)
                .status()
                .expect("chown");
            assert!(status.success(), "chown {}", path.display());
        }
    }

    /// One of PostgreSQL's programs (`pg_dump`, `pg_restore`, `psql`…) of
    /// the cluster's version, as the postgres user where the tests run as
    /// root, told where the cluster is: over the cluster's socket as the
    /// superuser unless the command is given a host.
    pub fn program(&self, program: &str) -> Command {
        let mut command = self.command(program);
        command
            .env("PGHOST", &self.base)
            .env("PGPORT", self.port.to_string())
            .env("PGUSER", "postgres");
        command
    }

    /// One of PostgreSQL's client programs, run as this test's user (a
    /// laptop's), told nothing of where the cluster is: its command
    /// names the server to connect to.
    pub fn client_program(&self, program: &str) -> Command {
        Command::new(self.bin.join(program))
    }

    /// The address of `database` as `login`.
    pub fn address(&self, database: &str, login: &str) -> Address {
        Address {
            host: "127.0.0.1".to_owned(),
            port: self.port,
            database: database.to_owned(),
            login: login.to_owned(),
            certificate: self.certificate.clone(),
        }
    }

    /// The superuser's password, for a command run as the server's
    /// administrator.
    pub fn superuser_password(&self) -> &str {
        &self.superuser_password
    }

    /// A client as the superuser, over TLS.
    pub fn superuser(&self, database: &str) -> postgres::Client {
        self.client(
            &self.address(database, "postgres"),
            &self.superuser_password,
        )
        .expect("connect as the superuser")
    }

    /// A raw SQL client (not through `League`), over TLS with the
    /// cluster's certificate pinned.
    pub fn client(
        &self,
        address: &Address,
        password: &str,
    ) -> Result<postgres::Client, postgres::Error> {
        let tls = rapsheet::store::league::tls::pinned_config(&self.certificate).expect("pin");
        postgres::Config::new()
            .host(&address.host)
            .port(address.port)
            .dbname(&address.database)
            .user(&address.login)
            .password(password)
            .ssl_mode(postgres::config::SslMode::Require)
            .connect(tokio_postgres_rustls::MakeRustlsConnect::new(tls))
    }

    /// A new empty database `name`, owned by a new organiser login
    /// `name_organiser` (CREATEROLE, not a superuser).
    pub fn league(&self, name: &str) -> TestLeague {
        let organiser = format!("{name}_organiser");
        let password = format!("{name}-organiser-password");
        let mut admin = self.superuser("postgres");
        admin
            .batch_execute(&format!(
                "CREATE ROLE \"{organiser}\" LOGIN CREATEROLE PASSWORD '{password}'"
            ))
            .expect("make the organiser's login");
        admin
            .batch_execute(&format!("CREATE DATABASE \"{name}\" OWNER \"{organiser}\""))
            .expect("make the league's database");
        TestLeague {
            address: self.address(name, &organiser),
            password,
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
    }
}

/// PostgreSQL's programs: `PG_BIN`, else the newest under
/// /usr/lib/postgresql.
fn postgres_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("PG_BIN") {
        let bin = PathBuf::from(bin);
        assert!(
            bin.join("initdb").exists(),
            "PostgreSQL is not installed: apt-get install postgresql (PG_BIN={} has no initdb)",
            bin.display()
        );
        return bin;
    }
    let mut found: Vec<PathBuf> = fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|bin| bin.join("initdb").exists() && bin.join("pg_ctl").exists())
        .collect();
    found.sort_by_key(|p| version_of(p));
    found
        .pop()
        .expect("PostgreSQL is not installed: apt-get install postgresql")
}

fn version_of(bin: &Path) -> u32 {
    bin.parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn running_as_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The cluster's folder, readable by the server's user.
fn make_base(as_postgres: bool) -> PathBuf {
    let base = tempfile::Builder::new()
        .prefix("rapsheet-pg-")
        .tempdir()
        .expect("temp dir")
        .keep();
    if as_postgres {
        fs::set_permissions(&base, fs::Permissions::from_mode(0o755)).expect("chmod");
        let status = Command::new("chown")
            .args(["postgres:postgres"])
            .arg(&base)
            .status()
            .expect("chown");
        assert!(status.success(), "chown {}", base.display());
    }
    base
}

/// A self-signed certificate for localhost and 127.0.0.1, written as the
/// server's; returns it (PEM).
fn write_certificate(base: &Path) -> String {
    let made =
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .expect("certificate");
    let pem = made.cert.pem();
    fs::write(base.join("server.crt"), &pem).expect("server.crt");
    let key = base.join("server.key");
    fs::write(&key, made.signing_key.serialize_pem()).expect("server.key");
    fs::set_permissions(&key, fs::Permissions::from_mode(0o600)).expect("chmod key");
    pem
}

/// Another self-signed certificate (PEM), not the cluster's.
pub fn other_certificate() -> String {
    rcgen::generate_simple_self_signed(vec!["localhost".to_owned()])
        .expect("certificate")
        .cert
        .pem()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}
