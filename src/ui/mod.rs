//! The desktop app (eframe/egui).
//!
//! Views draw and *return* what the player asked for ([`Action`]); the app
//! runs those actions after the frame through [`crate::session::Session`].
//! No view changes campaign data itself, and nothing here writes SQL.

// In floors, each importing only those under it: what a view needs (the
// actions, widgets, the words shown, the campaign as shown), the views
// (each a state and a `ui` that returns actions), the runner that turns
// actions into session calls, and the app that composes a frame.
mod app;
mod base;
mod run;
mod views;

use std::path::PathBuf;

use anyhow::{Result, anyhow};

pub use app::RapsheetApp;
pub use base::action::{
    Action, BackupAction, BundleAction, CampaignAction, FighterAction, GangAction, LeagueAction,
    MergeAction, OutputAction, PathPurpose, RecordAction, RulesAction, Screen, SeasonAction,
};

/// The app's name to the desktop, and where eframe keeps its settings.
const APP_ID: &str = "Rapsheet";
/// The key under which eframe's storage keeps the last campaign's path.
const LAST_CAMPAIGN: &str = "last_campaign";
/// The key of the recent campaigns, one path a line.
const RECENT_CAMPAIGNS: &str = "recent_campaigns";
/// The storage key of the folder the last printout went to.
const OUTPUT_DIR: &str = "output_dir";
/// The storage key of how many backups are kept (`10 7`).
const BACKUP_POLICY: &str = "backup_policy";

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

/// Starts the app on `db`, or on the last campaign, or on the demo in the
/// platform data directory (created on first run). The campaign is opened
/// and read while the window is made, so the first frame finds it ready;
/// the check of its every page and the day's backup come after the first
/// frame (see [`RapsheetApp::launch`]).
pub fn run(db: Option<PathBuf>, packs: &[PathBuf]) -> Result<()> {
    // The pack files named with `--pack` are read as every command reads
    // them, before the window is made: a broken one is said in one line.
    let packs = match packs {
        [] => None,
        files => Some(crate::session::registry_with(files)?),
    };
    let opening = Opening::new(move || start_from(db, packs, &kept_settings()));
    let begin = opening.clone();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Rapsheet")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([720.0, 480.0]),
        persist_window: true,
        // The window looks a font up for a character its own fonts lack
        // as printing does, when the character is first shown
        // (`app::fonts`): one lookup, and eframe's at every start is
        // not needed.
        system_font_fallback: false,
        // Called as the window is about to be made, the event loop made.
        window_builder: Some(Box::new(move |window| {
            begin.begin();
            window
        })),
        ..Default::default()
    };
    let ran = eframe::run_native(
        APP_ID,
        options,
        Box::new(move |cc| {
            let app = opening.finish()?;
            end_on_signals(&cc.egui_ctx, app.end_flag());
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow!("cannot start the window: {e}"));
    // The window is gone; a sync or a join still running ends first, its
    // file closed whole (for a while only: a server that never answers
    // does not keep the process).
    run::let_writing_jobs_end(WRITING_JOBS_WAIT);
    ran
}

/// The campaign opened on a thread of its own while the window is made,
/// so the first frame finds it ready.
///
/// It begins once the event loop is made, not before: until a process
/// starts its first thread, the C library reads a file a character at a
/// time without a lock, and Xlib reads the desktop's whole table of
/// composed keys (`Compose`, thousands of lines) that way as the event
/// loop opens its input method. Begun before, the thread made that read
/// take 9 ms of the thread that makes the window (under 1 ms after), in a
/// profile of a dozen launches under Xvfb.
#[derive(Clone)]
struct Opening(std::rc::Rc<std::cell::RefCell<OpeningState>>);

enum OpeningState {
    Waiting(Box<dyn FnOnce() -> RapsheetApp + Send>),
    Begun(std::thread::JoinHandle<RapsheetApp>),
    Taken,
}

impl Opening {
    fn new(open: impl FnOnce() -> RapsheetApp + Send + 'static) -> Self {
        Self(std::rc::Rc::new(std::cell::RefCell::new(
            OpeningState::Waiting(Box::new(open)),
        )))
    }

    /// Begins opening the campaign on a thread of its own.
    fn begin(&self) {
        let state = &mut *self.0.borrow_mut();
        *state = match std::mem::replace(state, OpeningState::Taken) {
            OpeningState::Waiting(open) => OpeningState::Begun(std::thread::spawn(open)),
            begun_or_taken => begun_or_taken,
        };
    }

    /// The app on the opened campaign: the thread's, or opened here where
    /// it was never begun.
    fn finish(&self) -> Result<RapsheetApp> {
        match std::mem::replace(&mut *self.0.borrow_mut(), OpeningState::Taken) {
            OpeningState::Waiting(open) => Ok(open()),
            OpeningState::Begun(thread) => thread
                .join()
                .map_err(|_| anyhow!("the campaign could not be opened")),
            OpeningState::Taken => Err(anyhow!("the campaign was opened once already")),
        }
    }
}

/// How long the process waits, its window closed, for a sync or a join
/// still running to end.
const WRITING_JOBS_WAIT: std::time::Duration = std::time::Duration::from_secs(90);

/// The app as the settings `kept` at the last run leave it: on `db`, or the
/// last campaign, or the demo (a first run, the welcome screen over it), or
/// on the welcome screen where the player closed the campaign last time.
fn start_from(
    db: Option<PathBuf>,
    packs: Option<crate::rules::Registry>,
    kept: &std::collections::HashMap<String, String>,
) -> RapsheetApp {
    // No campaign remembered: a first run. An empty one: the campaign was
    // closed, and the welcome screen is what the player left.
    let last = kept.get(LAST_CAMPAIGN);
    let first_run = db.is_none() && last.is_none();
    let closed = db.is_none() && last.is_some_and(String::is_empty);
    let policy = kept
        .get(BACKUP_POLICY)
        .and_then(|text| crate::session::BackupPolicy::from_setting(text))
        .unwrap_or_default();
    let mut app = if closed {
        let mut app = RapsheetApp::closed_with_backups(crate::paths::backups_dir(), policy);
        app.packs = packs;
        app
    } else {
        let path = db.or_else(|| {
            last.filter(|p| !p.is_empty())
                .map(PathBuf::from)
                .filter(|p| p.exists())
        });
        RapsheetApp::launch(path, packs, crate::paths::backups_dir(), policy)
    };
    if first_run {
        app.show_welcome();
    }
    let recent = kept.get(RECENT_CAMPAIGNS).map_or_else(Vec::new, |text| {
        text.lines()
            .map(PathBuf::from)
            .filter(|p| p.exists())
            .collect()
    });
    app.set_recent(recent);
    app.set_output_dir(kept.get(OUTPUT_DIR).map(PathBuf::from));
    if let Some(folder) = crate::paths::drafts_dir() {
        app.keep_drafts_in(folder);
    }
    app
}

/// The settings the app kept at its last run (eframe's `app.ron`, a map of
/// strings), read before the window is made; none where there are none or
/// they cannot be read.
fn kept_settings() -> std::collections::HashMap<String, String> {
    eframe::storage_dir(APP_ID)
        .and_then(|dir| std::fs::read_to_string(dir.join("app.ron")).ok())
        .map(|text| settings_from(&text))
        .unwrap_or_default()
}

/// The kept settings in `text`, the map eframe writes; none where it is
/// not one.
fn settings_from(text: &str) -> std::collections::HashMap<String, String> {
    ron::from_str(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_eframe_kept_are_read_before_the_window_is_made() {
        // As eframe 0.37 writes its `app.ron` (the window's and egui's own
        // entries shortened).
        let text = r#"{
    "window": "(normal_geometry:(outer_position_pixels:Some((x:0.0,y:0.0)),scale_factor:1.0,inner_size_points:(x:1280.0,y:800.0)),fullscreen:false,maximized:false)",
    "recent_campaigns": "/home/a/Ash \"Road\".rapsheet\n/home/a/b.rapsheet",
    "backup_policy": "10 7",
    "last_campaign": "/home/a/Ash \"Road\".rapsheet",
    "egui": "(options:(theme_preference:System,zoom_factor:1.0))",
}"#;
        let kept = settings_from(text);
        assert_eq!(
            kept.get(LAST_CAMPAIGN).map(String::as_str),
            Some("/home/a/Ash \"Road\".rapsheet")
        );
        assert_eq!(kept.get(BACKUP_POLICY).map(String::as_str), Some("10 7"));
        assert_eq!(
            kept.get(RECENT_CAMPAIGNS).map(|r| r.lines().count()),
            Some(2)
        );
        // A file that is not the map: nothing kept, a first run.
        assert!(settings_from("not ron at all {").is_empty());
    }

    /// An opening that records the thread it ran on.
    fn opening_on(
        ran_on: &std::sync::Arc<std::sync::Mutex<Vec<std::thread::ThreadId>>>,
    ) -> Opening {
        let ran_on = ran_on.clone();
        Opening::new(move || {
            ran_on.lock().unwrap().push(std::thread::current().id());
            RapsheetApp::closed_with_backups(None, crate::session::BackupPolicy::default())
        })
    }

    #[test]
    fn the_campaign_is_opened_on_a_thread_of_its_own_once_the_window_hook_begins_it() {
        let ran_on = std::sync::Arc::default();
        let opening = opening_on(&ran_on);
        let hook = opening.clone();
        assert!(
            ran_on.lock().unwrap().is_empty(),
            "nothing runs before the hook"
        );
        hook.begin();
        // A second call of the hook (eframe calls it once) begins nothing more.
        hook.begin();
        assert!(opening.finish().is_ok());
        let threads = ran_on.lock().unwrap().clone();
        assert_eq!(threads.len(), 1, "opened once");
        assert_ne!(
            threads[0],
            std::thread::current().id(),
            "opened beside the window"
        );
        let again = opening.finish().err().map(|e| e.to_string());
        assert_eq!(
            again.as_deref(),
            Some("the campaign was opened once already")
        );
    }

    #[test]
    fn a_campaign_never_begun_by_the_window_hook_is_opened_when_the_app_is_made() {
        let ran_on = std::sync::Arc::default();
        let opening = opening_on(&ran_on);
        assert!(opening.finish().is_ok());
        assert_eq!(
            ran_on.lock().unwrap().as_slice(),
            &[std::thread::current().id()],
            "opened by the caller, once"
        );
    }
}
