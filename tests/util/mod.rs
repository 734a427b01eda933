#![allow(clippy::unwrap_used, clippy::expect_used)]

//! Shared fixtures for the integration tests. Every campaign lives in a
//! temporary folder; no test touches a real user's campaign.

#![allow(dead_code)]

pub mod postgres;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rapsheet::session::Session;

/// A temporary folder, removed when dropped.
pub fn temp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// An empty Heartbreaker campaign at `dir/name`.
pub fn empty_campaign(dir: &Path, name: &str) -> (PathBuf, Session) {
    let path = dir.join(name);
    let session = Session::create(&path, "Test campaign", "heartbreaker").expect("create");
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

/// A 1 × 1 RGB PNG (one opaque pixel, no alpha, so a PDF holds exactly
/// one image and no soft mask).
pub const TINY_PNG: [u8; 69] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63, 0x38, 0xE0, 0xA0, 0x00,
    0x00, 0x02, 0xE4, 0x01, 0x21, 0xBF, 0xD8, 0x1B, 0x64, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
    0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// Records "no declaration" for every gang of the report that made none
/// (Heartbreaker ruling bounty-no-declaration), for tests about something
/// else than bounty declarations. 003: "Both players declare a Bounty" —
/// a report without declarations asks for them.
pub fn declare_nothing(report: &mut rapsheet::campaign::battle::BattleReport) {
    let declared: Vec<String> = report.bounties.iter().map(|b| b.by.clone()).collect();
    for gang in &report.gangs {
        if !declared.iter().any(|d| rapsheet::text::same(d, &gang.gang)) {
            report
                .bounties
                .push(rapsheet::campaign::battle::BountyReport {
                    by: gang.gang.clone(),
                    fighter: None,
                });
        }
    }
}

/// `declare_nothing` where the report's pack has bounties at all.
pub fn declare_nothing_in(
    session: &Session,
    report: &mut rapsheet::campaign::battle::BattleReport,
) {
    let has_bounties = report
        .gangs
        .first()
        .and_then(|g| session.gang_named(&g.gang).ok())
        .and_then(|g| session.pack(&g.ruleset).ok().map(|p| p.bounties.is_some()))
        .unwrap_or(false);
    if has_bounties && report.gangs.len() > 1 {
        declare_nothing(report);
    }
}

/// Runs `rapsheet ARGS --db c.rapsheet` in `dir`, insists it worked, and
/// returns what it printed.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--db", "c.rapsheet"]);
    let out = rapsheet(dir, &all);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Types `text` into the app's field labelled `label`, replacing what it
/// held.
pub fn type_into(
    harness: &mut egui_kittest::Harness<'_, rapsheet::ui::RapsheetApp>,
    label: &str,
    text: &str,
) {
    use egui_kittest::kittest::Queryable;
    harness.get_by_label(label).click();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label(label).type_text(text);
    harness.run();
}
