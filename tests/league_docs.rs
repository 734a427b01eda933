#![allow(clippy::unwrap_used, clippy::expect_used)]
//! docs/league.md's examples run against a real PostgreSQL, so they cannot
//! drift. Each ```shell-session block begins with whose laptop it is on
//! (`# the organiser's laptop`, `# ann's laptop`): each laptop is a folder
//! of its own with its own home (its password file there); the invites
//! and the league's certificate the organiser has are handed to the others.
//! A `$` line is a command, the lines after it its output: `...` stands for
//! any lines, `[..]` for any text in a line, `? failed` for a command that
//! fails. The document's server (`db.example.org`, port 5432) is the test's;
//! its new server (`new.example.org`, where the league is restored) is a
//! second one the test starts; its club's season is a league of its own,
//! in the database `season` of the first, played with Brackwater
//! (`tests/packs/brackwater.toml`, on the organiser's laptop) and the
//! battle reports of `docs/league.in` (on every laptop). Besides `rapsheet`, the document's
//! PostgreSQL commands (`pg_dump`, `pg_dumpall`, `psql`, `pg_restore`) run
//! too: a server's administrator's run on that server as its superuser,
//! as they would on the server itself; the files they write (a backup,
//! the roles) are handed on like the invites.

mod util;

use std::path::{Path, PathBuf};
use std::process::Command;

use util::postgres::{Cluster, cluster};

/// One command and what it prints.
struct Step {
    command: String,
    fails: bool,
    expected: Vec<String>,
}

/// The blocks of the document: whose laptop, and its steps.
fn blocks(doc: &str) -> Vec<(String, Vec<Step>)> {
    let mut out = Vec::new();
    for block in doc.split("```shell-session\n").skip(1) {
        let body = block.split("\n```").next().unwrap();
        let mut lines = body.lines();
        let who = lines
            .next()
            .and_then(|l| l.strip_prefix("# "))
            .and_then(|l| l.strip_suffix(" laptop"))
            .expect("a block begins with whose laptop it is on")
            .trim_start_matches("the ")
            .trim_end_matches("'s")
            .to_owned();
        let mut steps: Vec<Step> = Vec::new();
        for line in lines {
            if let Some(command) = line.strip_prefix("$ ") {
                steps.push(Step {
                    command: command.to_owned(),
                    fails: false,
                    expected: Vec::new(),
                });
            } else if let Some(step) = steps.last_mut() {
                if line == "? failed" {
                    step.fails = true;
                } else {
                    step.expected.push(line.to_owned());
                }
            }
        }
        for step in &mut steps {
            while step.expected.last().is_some_and(|l| l.is_empty()) {
                step.expected.pop();
            }
        }
        out.push((who, steps));
    }
    out
}

/// Whether `got` matches `expected`, line for line (`...` any lines,
/// `[..]` any text within a line).
fn matches(expected: &[String], got: &[&str]) -> bool {
    match expected.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=got.len()).any(|skip| matches(rest, &got[skip..]))
        }
        Some((first, rest)) => got
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && matches(rest, more)),
    }
}

fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

#[test]
fn the_league_documents_examples_run_against_a_real_server() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/league.md")).unwrap();
    let cluster = cluster();
    let mut admin = cluster.superuser("postgres");
    // As the document's administrator makes them: the organiser's login
    // with no right to make logins, an empty database.
    admin
        .batch_execute("CREATE ROLE organiser LOGIN PASSWORD 'organiser-password'")
        .unwrap();
    admin.batch_execute("CREATE DATABASE league").unwrap();
    // And the club's season its own league, where the document has one.
    if doc.contains("--database season") {
        admin.batch_execute("CREATE DATABASE season").unwrap();
    }
    admin
        .batch_execute("ALTER ROLE postgres PASSWORD 'administrator-password'")
        .unwrap();
    let port = cluster.port.to_string();
    // The new server the league is restored on, where the document has one.
    let new = doc.contains("new.example.org").then(Cluster::start);
    let new_port = new.as_ref().map_or(String::new(), |n| n.port.to_string());
    let ours = |text: &str| {
        text.replace("new.example.org:5432", &format!("127.0.0.1:{new_port}"))
            .replace(
                "--host new.example.org --port 5432",
                &format!("--host 127.0.0.1 --port {new_port}"),
            )
            .replace(
                "host=new.example.org port=5432",
                &format!("host=127.0.0.1 port={new_port}"),
            )
            .replace(
                "host=db.example.org port=5432",
                &format!("host=127.0.0.1 port={port}"),
            )
            .replace("db.example.org:5432", &format!("127.0.0.1:{port}"))
            .replace("--host db.example.org", "--host 127.0.0.1")
            .replace("--port 5432", &format!("--port {port}"))
    };
    let dir = util::temp();
    // A server's administrator's commands run as the server's own user,
    // who reads and writes in their folder.
    open_to_all(dir.path(), 0o755);
    let organiser = dir.path().join("organiser");
    std::fs::create_dir_all(&organiser).unwrap();
    std::fs::write(organiser.join("league.pem"), &cluster.certificate).unwrap();
    if let Some(new) = &new {
        std::fs::write(organiser.join("new.pem"), &new.certificate).unwrap();
    }
    // The club's game, which the organiser keeps in the season's campaign.
    std::fs::copy(
        root.join("tests/packs/brackwater.toml"),
        organiser.join("brackwater.toml"),
    )
    .unwrap();
    for (who, steps) in blocks(&doc) {
        let home = dir.path().join(&who);
        std::fs::create_dir_all(&home).unwrap();
        let on = if who.contains("new server") {
            new.as_ref().unwrap()
        } else {
            cluster
        };
        if who.contains("administrator") {
            open_to_all(&home, 0o777);
        }
        hand_over(dir.path(), &home);
        reports(&root.join("docs/league.in"), &home);
        for step in steps {
            let mut words = shlex::split(&ours(&step.command)).unwrap();
            let mut env: Vec<(String, String)> = Vec::new();
            while let Some((key, value)) = words.first().and_then(|w| w.split_once('=')) {
                env.push((key.to_owned(), value.to_owned()));
                words.remove(0);
            }
            let out = match words[0].as_str() {
                "rapsheet" => laptop(&home, &words[1..], &env),
                "pg_dump" | "pg_dumpall" | "psql" | "pg_restore" => {
                    (if who.contains("administrator") {
                        on.program(&words[0])
                    } else {
                        on.client_program(&words[0])
                    })
                    .args(&words[1..])
                    .current_dir(&home)
                    .envs(env.iter().map(|(k, v)| (k, v)))
                    .output()
                    .unwrap()
                }
                other => panic!("`{other}` is not a command the document's test runs"),
            };
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let got: Vec<&str> = text.lines().collect();
            let expected: Vec<String> = step.expected.iter().map(|l| ours(l)).collect();
            assert_eq!(
                !out.status.success(),
                step.fails,
                "{who}: `{}` {}:\n{text}",
                step.command,
                if step.fails { "worked" } else { "failed" }
            );
            assert!(
                matches(&expected, &got),
                "{who}: `{}` printed\n{text}\nnot\n{}",
                step.command,
                expected.join("\n")
            );
        }
    }
}

/// Runs `rapsheet ARGS` on the laptop whose home is `home`.
fn laptop(home: &Path, args: &[String], env: &[(String, String)]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(args)
        .current_dir(home)
        .env_remove("PGPASSWORD")
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("HOME", home)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap()
}

/// The invites, certificates, backups and roles any laptop holds, handed
/// to `home` (those it has not already).
fn hand_over(root: &Path, home: &Path) {
    for other in std::fs::read_dir(root).unwrap() {
        let other = other.unwrap().path();
        if other == home || !other.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&other).unwrap() {
            let path: PathBuf = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let handed = [".invite", ".pem", ".dump", ".sql"]
                .iter()
                .any(|end| name.ends_with(end));
            if handed && !home.join(&name).exists() {
                std::fs::copy(&path, home.join(&name)).unwrap();
                open_to_all(&home.join(&name), 0o644);
            }
        }
    }
}

/// The document's battle reports (`docs/league.in`), on every laptop.
fn reports(from: &Path, home: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, home.join(path.file_name().unwrap())).unwrap();
    }
}

/// Lets the server's own user into a folder or file of the test's.
fn open_to_all(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}
