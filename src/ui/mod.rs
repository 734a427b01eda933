//! The desktop app (eframe/egui).
//!
//! Views draw and *return* what the player asked for ([`Action`]); the app
//! runs those actions after the frame through [`crate::session::Session`].
//! No view changes campaign data itself, and nothing here writes SQL.

mod action;
mod app;
mod chronicle_view;
mod dialogs;
mod fighter_editor;
mod files;
mod gang_list;
mod log_view;
mod menu;
mod post_battle;
mod print_dialog;
mod roster;
mod screens;
mod state;
mod titles_view;
mod widgets;

use std::path::PathBuf;

use anyhow::{Result, anyhow};

pub use app::{Action, RapsheetApp, Screen};

/// The key under which eframe's storage keeps the last campaign's path.
const LAST_CAMPAIGN: &str = "last_campaign";
/// The key of the recent campaigns, one path a line.
const RECENT_CAMPAIGNS: &str = "recent_campaigns";
/// The storage key of the folder the last printout went to.
const OUTPUT_DIR: &str = "output_dir";

/// Starts the app on `db`, or on the last campaign, or on the demo in the
/// platform data directory (created on first run).
pub fn run(db: Option<PathBuf>) -> Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Rapsheet")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([720.0, 480.0]),
        persist_window: true,
        ..Default::default()
    };
    eframe::run_native(
        "Rapsheet",
        options,
        Box::new(move |cc| {
            let last = cc
                .storage
                .and_then(|s| s.get_string(LAST_CAMPAIGN))
                .map(PathBuf::from)
                .filter(|p| p.exists());
            let recent: Vec<PathBuf> = cc
                .storage
                .and_then(|s| s.get_string(RECENT_CAMPAIGNS))
                .map(|text| {
                    text.lines()
                        .map(PathBuf::from)
                        .filter(|p| p.exists())
                        .collect()
                })
                .unwrap_or_default();
            let mut app = RapsheetApp::start(db.or(last));
            app.set_recent(recent);
            app.set_output_dir(
                cc.storage
                    .and_then(|s| s.get_string(OUTPUT_DIR))
                    .map(PathBuf::from),
            );
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow!("cannot start the window: {e}"))
}
