//! The desktop app (eframe/egui).
//!
//! Views draw and *return* what the player asked for ([`Action`]); the app
//! runs those actions after the frame through [`crate::session::Session`].
//! No view changes campaign data itself, and nothing here writes SQL.

mod action;
mod app;
mod backups_view;
mod bundles_view;
mod chronicle_view;
mod dialogs;
mod fighter_editor;
mod files;
mod gang_list;
mod house_editor;
mod league_view;
mod log_view;
mod menu;
mod merge_view;
mod post_battle;
mod print_dialog;
mod roster;
mod run;
mod said;
mod screens;
mod state;
mod titles_view;
mod widgets;

use std::path::PathBuf;

use anyhow::{Result, anyhow};

pub use action::{
    Action, BackupAction, BundleAction, CampaignAction, FighterAction, GangAction, LeagueAction,
    MergeAction, OutputAction, RecordAction, RulesAction, Screen,
};
pub use app::RapsheetApp;
pub use dialogs::PathPurpose;

/// The key under which eframe's storage keeps the last campaign's path.
const LAST_CAMPAIGN: &str = "last_campaign";
/// The key of the recent campaigns, one path a line.
const RECENT_CAMPAIGNS: &str = "recent_campaigns";
/// The storage key of the folder the last printout went to.
const OUTPUT_DIR: &str = "output_dir";
/// The storage key of how many backups are kept (`10 7`).
const BACKUP_POLICY: &str = "backup_policy";

/// The launch benchmark's probe: with `RAPSHEET_CLOSE_AFTER_FIRST_FRAME`
/// set, the window closes once its first frame has been shown (the second
/// frame begins), so the time from starting the process to its end is the
/// time to a visible window, and `examples/empty_window.rs` does the same.
#[derive(Debug, Default)]
struct LaunchProbe {
    armed: bool,
    frames: u32,
}

impl LaunchProbe {
    fn from_env() -> Self {
        Self {
            armed: std::env::var_os("RAPSHEET_CLOSE_AFTER_FIRST_FRAME").is_some(),
            frames: 0,
        }
    }

    fn frame_shown(&mut self, ctx: &egui::Context) {
        if !self.armed {
            return;
        }
        self.frames += 1;
        if self.frames > 1 {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        ctx.request_repaint();
    }
}

/// Starts the app on `db`, or on the last campaign, or on the demo in the
/// platform data directory (created on first run).
/// The desktop ends the app with a signal at logout or shutdown (SIGTERM),
/// a terminal with SIGINT or SIGHUP: each sets `ended`, which the next
/// frame reads as File ▸ Quit, and wakes the window to draw it. Where the
/// signals cannot be watched, the app runs on without.
fn end_on_signals(ctx: &egui::Context, ended: std::sync::Arc<std::sync::atomic::AtomicBool>) {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]) else {
            return;
        };
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            for _ in signals.forever() {
                ended.store(true, std::sync::atomic::Ordering::Relaxed);
                ctx.request_repaint();
            }
        });
    }
    #[cfg(not(unix))]
    let _ = (ctx, ended);
}

pub fn run(db: Option<PathBuf>) -> Result<()> {
    // The system's fonts for other scripts are looked up while the window
    // is made, not after: the first frame finds them read.
    std::thread::spawn(|| drop(crate::print::system_fallbacks()));
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
            // No campaign remembered: a first run, on the demo campaign
            // with the welcome screen over it. An empty one: the player
            // closed the campaign last time, and the welcome screen is
            // what they left.
            let last = cc.storage.and_then(|s| s.get_string(LAST_CAMPAIGN));
            let first_run = db.is_none() && last.is_none();
            let closed = db.is_none() && last.as_deref() == Some("");
            let last = last
                .filter(|p| !p.is_empty())
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
            let policy = cc
                .storage
                .and_then(|s| s.get_string(BACKUP_POLICY))
                .and_then(|text| crate::session::BackupPolicy::from_setting(&text))
                .unwrap_or_default();
            let mut app = if closed {
                RapsheetApp::closed_with_backups(crate::paths::backups_dir(), policy)
            } else {
                RapsheetApp::start_with_backups(db.or(last), crate::paths::backups_dir(), policy)
            };
            if first_run {
                app.show_welcome();
            }
            end_on_signals(&cc.egui_ctx, app.end_flag());
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
