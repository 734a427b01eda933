//! The checks left of a campaign the window opened at its start: SQLite's
//! check of its every page and the look for today's backup read whole
//! files, so they run on a worker thread after the first frame is on
//! screen (see [`crate::session::Session::open_checking_later`]). Until
//! they end the campaign is read-only, and the status bar says why; a
//! campaign whose pages do not check stays read-only, and the status bar
//! says what opening it would have said.

use std::sync::mpsc;
use std::time::Duration;

use crate::session::{OpenChecked, OpenChecks};
use crate::ui::app::RapsheetApp;

/// The checks of the open campaign: waiting for the first frame to be
/// shown, or running.
pub enum OpenCheckJob {
    Waiting(OpenChecks),
    Running(mpsc::Receiver<OpenChecked>),
}

/// How long after the first frame the checks begin: the window is shown
/// first, with no second frame drawn before it.
const SHOWN_FIRST: Duration = Duration::from_millis(100);

/// How often the frame looks for the checks' end.
const POLL: Duration = Duration::from_millis(30);

impl RapsheetApp {
    /// Starts the checks once a frame has been shown, and takes in what
    /// they found when they end.
    pub(in crate::ui) fn poll_open_checks(&mut self, ctx: &egui::Context) {
        let Some(job) = self.campaign.open_checks.take() else {
            return;
        };
        let job = match job {
            // The first frame first: the checks wait for it to be on
            // screen. Frames are counted, not passes: egui lays out a
            // first frame twice when a grid is shown for the first time,
            // and the checks would otherwise start before anything shows.
            // Nor is a second frame asked for at once: eframe shows the
            // window once its first frame is painted, and a second frame
            // drawn at once was seen to hold it back; the checks begin a
            // moment later.
            OpenCheckJob::Waiting(checks) if ctx.cumulative_frame_nr() == 0 => {
                ctx.request_repaint_after(SHOWN_FIRST);
                OpenCheckJob::Waiting(checks)
            }
            OpenCheckJob::Waiting(checks) => {
                let (send, done) = mpsc::channel();
                std::thread::spawn(move || {
                    // The campaign may be closed meanwhile: nobody to tell.
                    let _ = send.send(checks.run());
                });
                OpenCheckJob::Running(done)
            }
            OpenCheckJob::Running(done) => match done.try_recv() {
                Ok(checked) => {
                    self.take_open_checks(checked);
                    return;
                }
                Err(mpsc::TryRecvError::Empty) => OpenCheckJob::Running(done),
                Err(mpsc::TryRecvError::Disconnected) => {
                    // The worker ended without a word: the campaign stays
                    // read-only, as its pages were never found sound.
                    self.error(anyhow::anyhow!(
                        "the campaign's pages could not be checked; it stays read-only: open it again"
                    ));
                    return;
                }
            },
        };
        ctx.request_repaint_after(POLL);
        self.campaign.open_checks = Some(job);
    }

    /// What the checks found: the campaign may be changed, or the status
    /// bar says why not (or why the day's backup was not made).
    fn take_open_checks(&mut self, checked: OpenChecked) {
        let backups = self.backups.clone();
        let policy = self.backup_policy;
        let Some(session) = self.session.as_mut() else {
            return;
        };
        if let Err(err) = session.take_checks(checked, backups.as_deref().map(|f| (f, policy))) {
            self.error(err);
        }
    }
}
