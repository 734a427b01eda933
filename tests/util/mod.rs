#![allow(clippy::unwrap_used, clippy::expect_used)]

//! Shared fixtures for the integration tests. Every campaign lives in a
//! temporary folder; no test touches a real user's campaign.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rapsheet::session::{Session, builtin_registry};
use rapsheet::store::CampaignStore;

/// A temporary folder, removed when dropped.
pub fn temp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// An empty Heartbreaker campaign at `dir/name`.
pub fn empty_campaign(dir: &Path, name: &str) -> (PathBuf, Session) {
    let path = dir.join(name);
    let store = CampaignStore::create(&path, "Test campaign", "heartbreaker").expect("create");
    let session = Session::new(store, builtin_registry().expect("packs"));
    (path, session)
}

/// Runs the `rapsheet` binary with no data directory of the user's in reach.
pub fn rapsheet(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(args)
        .current_dir(dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("HOME", dir)
        .output()
        .expect("run rapsheet")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
