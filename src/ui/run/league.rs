//! The League window: syncing with the league's server, its members, and
//! joining a league with an invite.
//!
//! Whatever asks the server runs on a worker thread ([`LeagueJob`]), one
//! at a time, so the window never waits on it (a server that does not
//! answer takes seconds to give up): the frame polls for the job's end and
//! shows a progress line meanwhile. The status check and the members are
//! read on the worker's own session of the campaign file (opened
//! read-only: the window's holds the file's write lock). A sync writes, so
//! the window's own session goes with it and comes back with the outcome;
//! meanwhile the window reads a read-only stand-in, which keeps every
//! change out of the file until the sync ends (see [`LeagueJob::holds_campaign`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::anyhow;

use crate::campaign::merge::Choice;
use crate::session::Session;
use crate::session::league::{LeagueStatus, MemberView, SyncLimits, SyncOutcome};
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::LeagueAction;

/// What a league job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JobKind {
    /// Asks the server how many changes wait there.
    Status,
    Members,
    Sync,
    Join,
}

/// What a worker sends back when its job ends.
enum Done {
    Status(anyhow::Result<LeagueStatus>),
    Members(anyhow::Result<Vec<MemberView>>),
    /// The campaign's own session, back from the worker, and what the sync
    /// did.
    Sync(Box<Session>, anyhow::Result<SyncOutcome>),
    /// The campaign file made, or why none was.
    Join(PathBuf, anyhow::Result<()>),
}

/// A league job running on a worker thread. It belongs to the open
/// campaign (it lives in `CampaignUi`): when the campaign goes, so does
/// the receiving end, and what the worker sends then is dropped; the
/// worker ends on its own, its session closed with it.
pub struct LeagueJob {
    kind: JobKind,
    started: Instant,
    done: mpsc::Receiver<Done>,
    /// How far a join is: the league's changes taken in, and of how many
    /// (0 until the log is fetched).
    taken: Arc<(AtomicUsize, AtomicUsize)>,
    /// Set, the sync under way ends at once (see [`SyncLimits`]).
    cancel: Arc<AtomicBool>,
}

/// How often the frame looks for the job's end (and counts its seconds).
const POLL: Duration = Duration::from_millis(100);

/// The workers of this process's jobs that write a campaign file (syncs,
/// joins), so that quitting lets them end first ([`let_writing_jobs_end`]).
static WRITING: Mutex<Vec<JoinHandle<()>>> = Mutex::new(Vec::new());

/// Waits, once the window has closed, for the jobs still writing a
/// campaign file to end on their own, for at most `most`: a sync or a
/// join is not cut off halfway by the process ending. (Cut off, nothing
/// would be lost either, each step being whole, but the next sync would
/// have to find out what the server already took.)
pub fn let_writing_jobs_end(most: Duration) {
    let started = Instant::now();
    let mut workers = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
    workers.retain(|w| !w.is_finished());
    while !workers.is_empty() && started.elapsed() < most {
        std::thread::sleep(Duration::from_millis(50));
        workers.retain(|w| !w.is_finished());
    }
}

impl LeagueJob {
    /// Runs `work` on a worker thread.
    fn start(kind: JobKind, work: impl FnOnce() -> Done + Send + 'static) -> Self {
        let (send, done) = mpsc::channel();
        let worker = std::thread::spawn(move || {
            // Should `work` panic, what it holds (a campaign's session, its
            // file's lock) is dropped as it unwinds, before `send` is: the
            // window hears the job ended only once the file is free.
            let result = work();
            // The campaign may be closed meanwhile: nobody to tell.
            let _ = send.send(result);
        });
        if matches!(kind, JobKind::Sync | JobKind::Join) {
            let mut workers = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
            workers.retain(|w| !w.is_finished());
            workers.push(worker);
        }
        Self {
            kind,
            started: Instant::now(),
            done,
            taken: Arc::default(),
            cancel: Arc::default(),
        }
    }

    /// Whether the job is a sync, which can be cancelled.
    pub fn is_sync(&self) -> bool {
        self.kind == JobKind::Sync
    }

    /// The progress line, for the League window and the status bar.
    pub fn progress(&self) -> String {
        match self.kind {
            JobKind::Sync => format!(
                "Syncing with the league's server… {} s",
                self.started.elapsed().as_secs()
            ),
            JobKind::Join => match self.taken.1.load(Ordering::Relaxed) {
                0 => "Joining the league…".to_owned(),
                of => format!(
                    "Joining the league… {} of {of} changes taken in",
                    self.taken.0.load(Ordering::Relaxed)
                ),
            },
            JobKind::Status | JobKind::Members => "Asking the server…".to_owned(),
        }
    }

    /// Whether the job holds the campaign's own session (a sync): the
    /// window then reads a read-only stand-in, and nothing is changed until
    /// the sync ends. Refusing changes, rather than queueing them, is the
    /// simplest thing that cannot interleave with the sync or be lost: the
    /// controls say why they are off, and the stand-in's file is read-only,
    /// so a change that gets past them (a shortcut) is refused there too.
    pub fn holds_campaign(&self) -> bool {
        self.kind == JobKind::Sync
    }
}

/// Why the campaign cannot be changed while a sync holds it.
pub const SYNCING: &str = "syncing with the league… changes wait until it ends";

impl RapsheetApp {
    pub(super) fn run_league(&mut self, action: LeagueAction) {
        match action {
            LeagueAction::Open => self.open_league(),
            LeagueAction::Close => self.campaign.league_window = None,
            LeagueAction::Sync(choices) => self.league_sync(choices),
            LeagueAction::CancelSync => {
                if let Some(job) = &self.campaign.league_job {
                    job.cancel.store(true, Ordering::Relaxed);
                }
            }
            LeagueAction::Members => self.league_members(),
            LeagueAction::Join { invite, to } => self.league_join(invite, to),
        }
    }

    /// Opens the League window and, for a campaign in a league, asks the
    /// server what waits there (on a worker: the window stays free).
    fn open_league(&mut self) {
        self.campaign.league_window = Some(crate::ui::views::league::LeagueWindow {
            join_path: self.offered_output("league", crate::session::EXTENSION),
            ..Default::default()
        });
        // A job still running (the window was closed and opened again) is
        // shown as it goes; no second one is started.
        if self.league_status.is_some() && self.campaign.league_job.is_none() {
            self.start_reading_job(JobKind::Status, |session| {
                Done::Status(session.and_then(|s| s.league_status(true)))
            });
        }
    }

    /// The league's members, shown in the League window when the server
    /// answers.
    fn league_members(&mut self) {
        if self.campaign.league_job.is_none() {
            self.start_reading_job(JobKind::Members, |session| {
                Done::Members(session.and_then(|s| s.league_members()))
            });
        }
    }

    /// Starts a job that only reads the campaign, on its own session of
    /// the campaign file opened the way the window's was (its packs, the
    /// league's password file): read-only, as the window's holds the
    /// file's write lock, which is all asking the server needs.
    fn start_reading_job(
        &mut self,
        kind: JobKind,
        ask: impl FnOnce(anyhow::Result<Session>) -> Done + Send + 'static,
    ) {
        let Some(path) = self.campaign_path().map(Path::to_owned) else {
            return;
        };
        let packs = self.packs();
        let passwords = self.league_passwords.clone();
        self.campaign.league_job = Some(LeagueJob::start(kind, move || {
            let session = packs
                .and_then(|packs| Session::open_with(&path, packs))
                .map(|mut session| {
                    if let Some(file) = passwords {
                        session.keep_league_passwords_in(file);
                    }
                    session
                });
            ask(session)
        }));
    }

    /// Syncs with the league's server on a worker, the campaign's own
    /// session with it; the window reads a read-only stand-in meanwhile.
    fn league_sync(&mut self, choices: Vec<Option<Choice>>) {
        if self.campaign.league_job.is_some() {
            return;
        }
        let Some(path) = self.campaign_path().map(Path::to_owned) else {
            return;
        };
        // Opened while the campaign's own session holds the file's write
        // lock, so it is read-only.
        let stand_in = match self.packs().and_then(|p| Session::open_with(&path, p)) {
            Ok(session) => session,
            Err(err) => {
                self.error(err.context("the sync did not start"));
                return;
            }
        };
        let Some(mut own) = self.session.replace(stand_in) else {
            return;
        };
        let cancel: Arc<AtomicBool> = Arc::default();
        let limits = SyncLimits {
            cancel: Some(Arc::clone(&cancel)),
            ..SyncLimits::default()
        };
        let mut job = LeagueJob::start(JobKind::Sync, move || {
            let outcome = own.league_sync_within(&choices, None, &limits);
            Done::Sync(Box::new(own), outcome)
        });
        job.cancel = cancel;
        self.campaign.league_job = Some(job);
    }

    /// Joins a league with an invite into a new campaign file on a worker;
    /// the file is opened when the join ends.
    fn league_join(&mut self, invite: PathBuf, to: PathBuf) {
        if self.campaign.league_job.is_some() {
            return;
        }
        let passwords = self.league_passwords.clone();
        let taken: Arc<(AtomicUsize, AtomicUsize)> = Arc::default();
        let told = Arc::clone(&taken);
        let mut job = LeagueJob::start(JobKind::Join, move || {
            let joined = crate::session::league::read_invite(&invite).and_then(|invite| {
                // Made, checked and closed here; the window opens it.
                Session::league_join_watched(
                    &invite,
                    &to,
                    passwords.as_deref(),
                    Session::newest_league_format(),
                    &mut |p| {
                        told.1.store(p.of, Ordering::Relaxed);
                        told.0.store(p.taken, Ordering::Relaxed);
                    },
                )
                .map(drop)
            });
            Done::Join(to, joined)
        });
        job.taken = taken;
        self.campaign.league_job = Some(job);
    }

    /// Hears from the league job, when one runs: what it did is shown once
    /// it ends; until then the frame is drawn again now and then, for its
    /// progress line and to look again.
    pub(in crate::ui) fn poll_league_job(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.campaign.league_job else {
            return;
        };
        let kind = job.kind;
        let done = match job.done.try_recv() {
            Ok(done) => Some(done),
            Err(mpsc::TryRecvError::Empty) => {
                ctx.request_repaint_after(POLL);
                return;
            }
            Err(mpsc::TryRecvError::Disconnected) => None,
        };
        self.campaign.league_job = None;
        match done {
            Some(Done::Status(status)) => self.status_heard(status),
            Some(Done::Members(members)) => self.members_heard(members),
            Some(Done::Sync(own, outcome)) => self.sync_ended(*own, outcome),
            Some(Done::Join(to, joined)) => self.join_ended(&to, joined),
            None => self.job_stopped(kind),
        }
    }

    /// The server's answer to the status check.
    fn status_heard(&mut self, status: anyhow::Result<LeagueStatus>) {
        match status {
            Ok(mut status) => {
                // What waits on this laptop is as it is now: the campaign
                // may have changed while the server was asked.
                if let Some(here) = self
                    .session
                    .as_ref()
                    .and_then(|s| s.league_status(false).ok())
                {
                    status.to_send = here.to_send;
                }
                self.league_offline = status.offline.clone();
                self.league_status = Some(status);
            }
            Err(err) => self.error(err),
        }
    }

    /// The members, shown in the League window if it is still open.
    fn members_heard(&mut self, members: anyhow::Result<Vec<MemberView>>) {
        match members {
            Ok(members) => {
                if let Some(window) = &mut self.campaign.league_window {
                    window.members = Some(members);
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// The sync ended: the campaign's own session is back in place of the
    /// stand-in, everything shown is read again (the file changed under
    /// the window; the forms and drafts stay), and what came of it is said.
    fn sync_ended(&mut self, mut own: Session, outcome: anyhow::Result<SyncOutcome>) {
        // The backups' setting may have changed while it was away.
        self.configure_session(&mut own);
        self.session = Some(own);
        self.state.forget();
        match outcome {
            Ok(outcome) => self.synced(outcome),
            Err(err) => {
                self.error(err);
                self.refresh();
            }
        }
    }

    /// Shows what a sync did.
    fn synced(&mut self, outcome: SyncOutcome) {
        self.league_offline = match &outcome {
            SyncOutcome::Offline { reason } => Some(reason.clone()),
            _ => None,
        };
        let said = match &outcome {
            SyncOutcome::Conflicts { .. } => {
                format!("{} in File ▸ League…", outcome.headline())
            }
            // What came in, in one line, after the figures.
            SyncOutcome::Synced {
                came_in: Some(line),
                ..
            } => format!("{}; came in: {line}", outcome.headline()),
            _ => outcome.headline(),
        };
        let refused = matches!(
            outcome,
            SyncOutcome::Refused { .. } | SyncOutcome::NoLongerFits { .. }
        );
        let synced = matches!(outcome, SyncOutcome::Synced { .. });
        self.campaign
            .league_window
            .get_or_insert_with(Default::default)
            .show(outcome);
        if refused {
            self.error(anyhow!(said));
        } else {
            self.info(said);
        }
        self.refresh();
        if let Some(session) = &self.session {
            self.league_status = session.league_status(false).ok();
        }
        // A sync that went through fetched all there was.
        if synced && let Some(status) = &mut self.league_status {
            status.to_fetch = Some(0);
        }
    }

    /// The join ended: the new campaign file is opened, or why there is
    /// none is said in the League window.
    fn join_ended(&mut self, to: &Path, joined: anyhow::Result<()>) {
        let opened = joined.and_then(|()| {
            self.packs()
                .and_then(|packs| Session::open_with(to, packs))
                .map_err(|err| err.context("joined, but the new campaign could not be opened"))
        });
        match opened {
            Ok(session) => {
                self.set_session(session);
                self.info(format!("Joined the league: {}", to.display()));
            }
            Err(err) => {
                let said = format!("Not joined: {}", crate::ui::base::said::for_players(&err));
                match self.campaign.league_window.as_mut() {
                    Some(window) => window.join_error = Some(said),
                    None => self.error(err),
                }
            }
        }
    }

    /// The worker stopped without a word (it panicked). A sync's session
    /// went with it, the file's lock released: the campaign is opened again
    /// in place of the stand-in, as it is in the file.
    fn job_stopped(&mut self, kind: JobKind) {
        self.error(anyhow!(
            "the league's job stopped unexpectedly; nothing more was done"
        ));
        if kind != JobKind::Sync {
            return;
        }
        let Some(path) = self.campaign_path().map(Path::to_owned) else {
            return;
        };
        match self.packs().and_then(|p| Session::open_with(&path, p)) {
            Ok(mut session) => {
                self.configure_session(&mut session);
                self.session = Some(session);
                self.state.forget();
                self.refresh();
            }
            Err(err) => self.error(err.context("the campaign could not be opened again")),
        }
    }

    /// Whether a sync holds the campaign's own session: nothing changes
    /// the campaign until it ends (see [`LeagueJob::holds_campaign`]).
    pub(in crate::ui) fn league_holds_campaign(&self) -> bool {
        self.campaign
            .league_job
            .as_ref()
            .is_some_and(LeagueJob::holds_campaign)
    }

    /// The progress line of the league job running, if one is.
    pub(in crate::ui) fn league_progress(&self) -> Option<String> {
        self.campaign.league_job.as_ref().map(LeagueJob::progress)
    }

    /// Whether a sync is under way, which the League window can cancel.
    pub(in crate::ui) fn league_syncing(&self) -> bool {
        self.campaign
            .league_job
            .as_ref()
            .is_some_and(LeagueJob::is_sync)
    }
}
