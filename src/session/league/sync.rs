//! A sync. The server's new batches are fetched and replayed after the
//! log here. Where this laptop also has unsent batches, they are made again
//! after the server's through the merge (what can all hold is kept without
//! asking; a real conflict is put to the player, and nothing is sent or
//! changed until it is chosen). Then this laptop's batches are sent at the
//! server's head in one transaction. A lost race (another member sent
//! first) is tried again after a pause, a bounded number of times; a batch
//! the server refuses is named with the reason and stays on this laptop,
//! with every batch after it.
//!
//! A batch of the server's that cannot be replayed here (made by another
//! build, or put on the server by hand past the app) is kept in its place
//! as an empty batch labelled "Left out: …" with the reason: every laptop
//! decides the same from the same log, so all stay alike, and the
//! organiser can see it and take it back.

use std::time::Duration;

use anyhow::{Result, bail};
use serde::Serialize;

use super::chain::{self, Broken};
use super::{address, keys, passwords, read_batches, remake};
use crate::campaign::gate::Gate;
use crate::campaign::merge::{self, Choice, Key};
use crate::campaign::{BatchId, LoggedBatch};
use crate::rules::Registry;
use crate::session::{ConflictView, Session};
use crate::store::league::{League, LeagueError, Limits, NewBatch, PushError, ServerBatch};
use crate::store::{Appender, BatchName, CampaignStore, LeagueTie, StoredPhoto};

/// How many times a send lost to another member's is tried again.
const ATTEMPTS: u32 = 8;

/// Where a sync stops for a while, for the fault harness's tests to kill
/// the process at a known point: before this laptop's batches are sent,
/// or after the server took them and before the file notes them sent.
/// It says so on standard error and waits there a minute, or until its
/// standard input ends (the harness lets it go on by closing it). The app
/// never pauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pause {
    BeforeSend,
    AfterSend,
}

impl Pause {
    fn here(self) {
        let at = match self {
            Pause::BeforeSend => "before",
            Pause::AfterSend => "after",
        };
        eprintln!("paused {at} sending");
        let (ended, ends) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = std::io::Read::read(&mut std::io::stdin(), &mut [0u8; 1]);
            let _ = ended.send(());
        });
        let _ = ends.recv_timeout(Duration::from_secs(60));
    }
}

/// How long a whole sync may take at most, whatever the server does: the
/// connection, every statement, the waits on others' open changes.
pub const SYNC_WAIT: Duration = Duration::from_secs(60);

/// The bounds of one sync: how long it may take, and a flag that cancels
/// it from another thread (the window's Cancel).
#[derive(Debug, Clone)]
pub struct SyncLimits {
    pub wait: Duration,
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for SyncLimits {
    fn default() -> Self {
        SyncLimits {
            wait: SYNC_WAIT,
            cancel: None,
        }
    }
}

impl SyncLimits {
    /// The connection's limits, counted from now.
    fn counted_from_now(&self) -> Limits {
        Limits {
            deadline: Some(std::time::Instant::now() + self.wait),
            cancel: self.cancel.clone(),
        }
    }
}

/// What a sync did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum SyncOutcome {
    /// The file holds the server's whole log and the server this laptop's
    /// changes.
    Synced {
        fetched: usize,
        sent: usize,
        /// The server's newest change.
        head: i64,
        /// The server's changes that could not be replayed here, kept
        /// empty in their place, each with the reason.
        left_out: Vec<String>,
        /// Keys a member already known here gained, in words.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        new_keys: Vec<String>,
        /// What came in from the league, in one line; none where nothing
        /// did.
        #[serde(skip_serializing_if = "Option::is_none")]
        came_in: Option<String>,
    },
    /// The server's changes and this laptop's cannot all hold: nothing was
    /// sent and nothing here changed. Choose each (`league`: the server's
    /// stands; `mine`: this laptop's), then sync again.
    Conflicts { conflicts: Vec<SyncConflict> },
    /// The server refused one of this laptop's changes: it, and the
    /// changes made after it, stay on this laptop.
    Refused {
        fetched: usize,
        sent: usize,
        head: i64,
        /// Its number in this laptop's log, to take it back by.
        number: i64,
        change: String,
        reason: String,
    },
    /// A change of this laptop's (a record, or a change after one) no
    /// longer plays after the league's new changes, its record made again
    /// on them: nothing was taken in or sent, and nothing here changed.
    NoLongerFits {
        /// Its number in this laptop's log, to take it back by.
        number: Option<i64>,
        change: String,
        reason: String,
    },
    /// The server could not be reached, or did not answer in time:
    /// everything stays on this laptop.
    Offline { reason: String },
    /// Cancelled on this laptop before the server answered: everything
    /// stays on this laptop.
    Cancelled,
    /// The league is written in a format newer than this Rapsheet writes:
    /// nothing was fetched or sent, and nothing here changed.
    TooNew { league_format: i64, writes: i64 },
    /// A change this laptop holds is no longer on the server as it was
    /// (changed or deleted there, or not following the one before it):
    /// nothing was taken in or sent until the organiser puts the
    /// league's history back.
    HistoryChanged {
        change: i64,
        label: String,
        how: String,
    },
}

impl SyncOutcome {
    /// The outcome in one line, as the command line and the window say it.
    pub fn headline(&self) -> String {
        match self {
            SyncOutcome::Synced {
                fetched,
                sent,
                head,
                ..
            } => format!("Synced: fetched {fetched}, sent {sent}; the league is at change {head}"),
            SyncOutcome::Conflicts { conflicts } => format!(
                "Nothing sent: {} to choose",
                match conflicts.len() {
                    1 => "1 conflict".to_owned(),
                    n => format!("{n} conflicts"),
                }
            ),
            SyncOutcome::Refused {
                number,
                change,
                reason,
                ..
            } => format!(
                "The league's server refused change {number} “{change}”: {reason}; it stays on this laptop (take it back with `rapsheet undo --change {number}`)"
            ),
            SyncOutcome::NoLongerFits {
                number,
                change,
                reason,
            } => {
                let number = number.map_or(String::new(), |n| format!(" {n}"));
                format!(
                    "Not synced: after the league's new changes, this laptop's change{number} “{change}” {reason}; nothing here changed. Take it back (`rapsheet undo --change{number}`) and make it again as the campaign now stands, then sync"
                )
            }
            SyncOutcome::Offline { reason } => {
                format!("Offline ({reason}); every change stays on this laptop")
            }
            SyncOutcome::Cancelled => {
                "Not synced: cancelled before the server answered; every change stays on this laptop".to_owned()
            }
            SyncOutcome::TooNew {
                league_format,
                writes,
            } => format!(
                "Not synced: the league is written in format {league_format}, and this Rapsheet writes format {writes} at most; update Rapsheet to sync (nothing here changed)"
            ),
            SyncOutcome::HistoryChanged { change, label, how } => format!(
                "Not synced: the league's change {change} “{}” {how} since this laptop took it in; nothing is taken in until the organiser puts the league's history back",
                crate::text::one_line(&label.chars().take(200).collect::<String>())
            ),
        }
    }
}

/// A conflict between the server's changes and this laptop's unsent ones,
/// side by side.
pub type SyncConflict = ConflictView;

/// What became of the server's new batches here.
enum TakenIn {
    Done {
        left_out: Vec<String>,
    },
    Conflicts(Vec<SyncConflict>),
    /// One of this laptop's changes no longer plays: nothing changed.
    Stopped(SyncOutcome),
}

/// The server's new batches as this laptop read them: each batch, its
/// name, the photos they show, the server's head, and the records every
/// laptop makes again.
struct Fetched {
    batches: Vec<LoggedBatch>,
    names: Vec<BatchName>,
    photos: Vec<StoredPhoto>,
    head: i64,
    judged: std::collections::BTreeSet<BatchId>,
}

/// This laptop's unsent batches as the merge made them again after the
/// server's: each batch, its name, and its number here where it is one.
struct Mine<'a> {
    batches: &'a [LoggedBatch],
    names: &'a [BatchName],
    was: &'a [Option<BatchId>],
}

impl Session {
    /// Syncs with the league's server; `choices[i]` settles conflict
    /// `i + 1` where this laptop's unsent changes and the server's new ones
    /// cannot all hold (`Ours` keeps the league's, `Theirs` this laptop's).
    /// `pause_at` is the fault harness's (see [`Pause`]); `None` elsewhere.
    pub fn league_sync(
        &mut self,
        choices: &[Option<Choice>],
        pause_at: Option<Pause>,
    ) -> Result<SyncOutcome> {
        self.league_sync_within(choices, pause_at, &SyncLimits::default())
    }

    /// [`Session::league_sync`] within `limits`: however the server
    /// behaves (it stops answering, another member holds their change
    /// open), the sync ends by then, or when cancelled, and says so.
    pub fn league_sync_within(
        &mut self,
        choices: &[Option<Choice>],
        pause_at: Option<Pause>,
        limits: &SyncLimits,
    ) -> Result<SyncOutcome> {
        let tie = self.tie()?;
        let started = tie.synced;
        let password = passwords::password_for(self.league_passwords.as_deref(), &tie)?;
        let mut league =
            match League::connect_within(&address(&tie), &password, limits.counted_from_now()) {
                Ok(league) => league,
                Err(err) => return offline_or(err.into()),
            };
        let checked = match self.check_league(&mut league, tie.synced) {
            Ok(chain::Checked::Stop(stop)) => return Ok(stop),
            Ok(chain::Checked::Go(checked)) => checked,
            Err(err) => return offline_or(err),
        };
        let mut fetched = 0;
        let mut left_out = Vec::new();
        let mut new_keys = Vec::new();
        let mut choices = choices;
        let private = match self.signing_key(&mut league, &tie) {
            Ok(private) => private,
            Err(err) => return offline_or(err),
        };
        for attempt in 0..ATTEMPTS {
            let synced = self.tie()?.synced;
            let (server, keys) = match league
                .fetch_after(synced)
                .and_then(|s| Ok((s, league.keys()?)))
            {
                Ok(fetched) => fetched,
                Err(err) => return offline_or(err.into()),
            };
            // What the chain says of each batch, before anything is read.
            let mut chain = keys::Chain::of(&self.store, synced)?;
            let judged = chain.judge(&server, &keys);
            match chain::follow(self.kept_hash(synced)?.as_deref(), &server) {
                Ok(hashes) => self
                    .store
                    .keep_league_hashes(&chain::as_judged(hashes, &server, &judged))?,
                Err(seq) => return self.history_changed(seq, Broken::Changed, Some(&server)),
            }
            self.store.keep_league_trusted(&chain.newly)?;
            if attempt == 0 {
                new_keys.extend(self.keys_seen(&keys, &chain, &tie, private.as_deref())?);
            }
            let server = self.own_already_there(server)?;
            if !server.is_empty() {
                fetched += server.len();
                match self.take_in(Some(&mut league), &server, choices, &judged.out)? {
                    TakenIn::Done { left_out: more } => {
                        left_out.extend(more);
                        // The choices settled the conflicts with what was
                        // fetched; a conflict with what a later try
                        // fetches is another, put to the player.
                        choices = &[];
                    }
                    TakenIn::Conflicts(conflicts) => {
                        return Ok(SyncOutcome::Conflicts { conflicts });
                    }
                    TakenIn::Stopped(outcome) => return Ok(outcome),
                }
            }
            self.drop_taken_back_unsent()?;
            let tie = self.tie()?;
            let (unsent, names) = self.unsent_named(&tie)?;
            if unsent.is_empty() {
                self.store.mark_synced(tie.synced, &now())?;
                self.store.pin_league_keys(&keys)?;
                self.keep_print(&mut league, checked, tie.synced);
                self.note_synced(&mut league);
                return Ok(SyncOutcome::Synced {
                    fetched,
                    sent: 0,
                    head: tie.synced,
                    left_out,
                    new_keys,
                    came_in: self.came_in_between(started, tie.synced)?,
                });
            }
            let writing = match self.writing(&mut league, tie.synced, &tie) {
                Ok(writing) => writing,
                Err(err) => return offline_or(err),
            };
            if writing.format >= 3 {
                self.check_own_key(&chain, &keys, &tie, writing.key.as_deref())?;
            }
            let (batches, hashes) = writing.batches(tie.synced, &unsent, &names)?;
            for (key, _, bytes) in self.store.photos_with_keys(&photo_keys(&unsent))? {
                if let Err(err) = league.push_photo(&key, &bytes) {
                    return Ok(SyncOutcome::Offline {
                        reason: err.to_string(),
                    });
                }
            }
            if pause_at == Some(Pause::BeforeSend) {
                Pause::BeforeSend.here();
                // The harness's pause is not the server's time.
                league.limit(limits.counted_from_now());
            }
            match league.push(tie.synced, &batches) {
                Ok(head) => {
                    if pause_at == Some(Pause::AfterSend) {
                        Pause::AfterSend.here();
                    }
                    self.store.mark_synced(head, &now())?;
                    self.store.keep_league_hashes(&hashes)?;
                    self.trust_sent(&chain, &tie, &writing, &unsent)?;
                    self.store.pin_league_keys(&keys)?;
                    self.keep_print(&mut league, checked, head);
                    self.note_synced(&mut league);
                    let theirs = head.saturating_sub(i64::try_from(unsent.len()).unwrap_or(0));
                    return Ok(SyncOutcome::Synced {
                        fetched,
                        sent: unsent.len(),
                        head,
                        left_out,
                        new_keys,
                        came_in: self.came_in_between(started, theirs)?,
                    });
                }
                Err(PushError::LostRace | PushError::AlreadyThere(_)) => pause(attempt),
                Err(PushError::Refused { uid, reason }) => {
                    let refused = self.send_before_refused(
                        &mut league,
                        &tie,
                        (&batches, &hashes),
                        &unsent,
                        fetched,
                        &uid,
                        reason,
                    )?;
                    if let SyncOutcome::Refused { sent, .. } = refused {
                        self.trust_sent(&chain, &tie, &writing, &unsent[..sent.min(unsent.len())])?;
                    }
                    return Ok(refused);
                }
                Err(PushError::Offline(reason)) => return Ok(SyncOutcome::Offline { reason }),
                Err(err @ PushError::Other(_)) => return Err(err.into()),
            }
        }
        bail!(
            "other members kept sending first ({ATTEMPTS} tries); this laptop's changes are kept here: sync again"
        )
    }

    /// Tells the server this member synced, and keeps what it says of the
    /// league's members (their gangs, when each last synced) for the
    /// season's table offline. Neither is the sync's: where the server
    /// does not answer now, the next sync does both again.
    pub(super) fn note_synced(&mut self, league: &mut League) {
        if league.note_synced().is_err() {
            return;
        }
        if let Ok(members) = league.members() {
            let _ = self.store.keep_league_members(&members);
        }
    }

    /// The league's batches `after + 1..=upto` as taken in here, in one
    /// line.
    fn came_in_between(&self, after: i64, upto: i64) -> Result<Option<String>> {
        if upto <= after {
            return Ok(None);
        }
        let batches: Vec<LoggedBatch> = self
            .store
            .log_batches_after(BatchId(after))?
            .into_iter()
            .filter(|b| b.id.0 <= upto)
            .collect();
        self.came_in(&batches)
    }

    /// The server's new batches without those that are this laptop's own,
    /// sent by a sync cut short before it could note them sent: those are
    /// noted sent now.
    fn own_already_there(&mut self, server: Vec<ServerBatch>) -> Result<Vec<ServerBatch>> {
        let tie = self.tie()?;
        let names = self.store.batch_names(BatchId(tie.synced))?;
        let mine = server
            .iter()
            .zip(&names)
            .take_while(|(s, n)| s.uid == n.uid && s.seq == n.batch.0)
            .count();
        if mine == 0 {
            return Ok(server);
        }
        let synced = server[mine - 1].seq;
        self.store.mark_synced(synced, &now())?;
        Ok(server.into_iter().skip(mine).collect())
    }

    /// Replays the server's new batches here: after the whole log where
    /// this laptop sent everything, or before this laptop's unsent batches,
    /// which are made again after them through the merge.
    /// Without `league` (the fuzz target's), no photo is fetched.
    fn take_in(
        &mut self,
        mut league: Option<&mut League>,
        server: &[ServerBatch],
        choices: &[Option<Choice>],
        unsigned: &std::collections::BTreeMap<i64, String>,
    ) -> Result<TakenIn> {
        let tie = self.tie()?;
        let (batches, names, unreadable) = read_batches(server, unsigned);
        let judged = remake::judged(server);
        // Whether what this laptop sends is judged: its records are made
        // again where they now stand before they go.
        let remaking = match &mut league {
            Some(league) => league.format()? >= remake::REMADE_FROM,
            None => !judged.is_empty(),
        };
        let photos = match league {
            Some(league) => fetch_photos(league, &self.store, &batches)?,
            None => Vec::new(),
        };
        let fetched = Fetched {
            head: server.last().map_or(tie.synced, |b| b.seq),
            batches,
            names,
            photos,
            judged,
        };
        let unsent_here = self.store.newest_batch()?.is_some_and(|b| b.0 > tie.synced);
        let left_out = if unsent_here {
            match self.rebase_on(&tie, &fetched, choices, remaking)? {
                Ok(left_out) => left_out,
                Err(stopped) => return Ok(stopped),
            }
        } else {
            self.append_fetched(&fetched)?
        };
        self.read_house_packs()?;
        Ok(TakenIn::Done {
            left_out: [unreadable, left_out].concat(),
        })
    }

    /// The server's new batches after the whole log, where this laptop
    /// has nothing unsent: a sync that only fetches costs what it fetches.
    /// What was left out.
    fn append_fetched(&mut self, fetched: &Fetched) -> Result<Vec<String>> {
        let mut left_out = Vec::new();
        let (base, registry) = (&self.base, &self.registry);
        self.store.appending(&mut |file| {
            left_out = lines(append_or_leave_out(
                file,
                base,
                &mut PacksAsAppended::starting(registry, file)?,
                &fetched.batches,
                &fetched.names,
                &fetched.photos,
                fetched.head,
                &fetched.judged,
            )?);
            Ok(())
        })?;
        Ok(left_out)
    }

    /// This laptop's unsent batches made again after the server's new
    /// ones, the merge told where the two parted from the state here: a
    /// rebase costs what was fetched and what waits to be sent. What was
    /// left out; or, where nothing was taken in, why (conflicts to choose,
    /// a change of this laptop's that no longer plays).
    fn rebase_on(
        &mut self,
        tie: &LeagueTie,
        fetched: &Fetched,
        choices: &[Option<Choice>],
        remaking: bool,
    ) -> Result<std::result::Result<Vec<String>, TakenIn>> {
        // What this laptop leaves out of the server's takes no part in it:
        // found first, where the server's batches go, and taken back.
        let unsent = self.store.log_batches_after(BatchId(tie.synced))?;
        let parted = self.parted_at(tie.synced, &unsent, &fetched.batches)?;
        let out = self.left_out_before(
            tie.synced,
            &fetched.batches,
            &fetched.names,
            &fetched.photos,
            fetched.head,
            &fetched.judged,
        )?;
        let taken: Vec<LoggedBatch> = fetched
            .batches
            .iter()
            .map(|b| match out.iter().find(|o| o.id == b.id) {
                Some(_) => emptied(b, "left out"),
                None => b.clone(),
            })
            .collect();
        let within = |key: &Key, to| self.may_take(key, to);
        let records = if remaking {
            merge::Records::MadeAgain
        } else {
            merge::Records::Kept
        };
        let plan = merge::plan_parted(&parted, &taken, &unsent, &within, records)?;
        let unchosen =
            (0..plan.conflicts.len()).any(|i| choices.get(i).copied().flatten().is_none());
        // Choices made for more conflicts than there are now were made for
        // others: the server's log moved on since they were shown, and the
        // conflicts it leaves are shown to be chosen again.
        let stale = !plan.conflicts.is_empty() && choices.len() > plan.conflicts.len();
        if unchosen || stale {
            let names = self.merge_names(&plan)?;
            return Ok(Err(TakenIn::Conflicts(self.conflict_views(&plan, &names))));
        }
        // Choices for conflicts that are no longer there (the server's log
        // moved on since they were shown) have nothing left to settle.
        let choices = if plan.conflicts.is_empty() {
            &[]
        } else {
            choices
        };
        let mine = plan.resolve_traced(choices)?;
        let unsent_names = self.store.batch_names(BatchId(tie.synced))?;
        let mine_names: Vec<BatchName> = mine
            .iter()
            .map(|(from, batch)| BatchName {
                batch: batch.id,
                uid: from
                    .and_then(|i| unsent.get(i))
                    .and_then(|b| unsent_names.iter().find(|n| n.batch == b.id))
                    .map_or_else(new_uid, |n| n.uid.clone()),
                author: tie.login.clone(),
            })
            .collect();
        // Each of this laptop's batches by its number here, where it is one.
        let was: Vec<Option<BatchId>> = mine
            .iter()
            .map(|(from, _)| from.and_then(|i| unsent.get(i)).map(|b| b.id))
            .collect();
        let mine: Vec<LoggedBatch> = mine.into_iter().map(|(_, b)| b).collect();
        let yours = Mine {
            batches: &mine,
            names: &mine_names,
            was: &was,
        };
        self.replay_before(tie.synced, fetched, &yours, remaking)
    }

    /// The file taken back to this laptop's batch `synced`, the server's
    /// new batches appended there, and this laptop's made again after
    /// them (each record made again where it now stands, where records
    /// are): what was left out, or the change of this laptop's that no
    /// longer plays, with nothing changed.
    fn replay_before(
        &mut self,
        synced: i64,
        fetched: &Fetched,
        mine: &Mine<'_>,
        remaking: bool,
    ) -> Result<std::result::Result<Vec<String>, TakenIn>> {
        let base = self.base.clone();
        let mut left_out = Vec::new();
        let mut unplayable = None;
        let rewound = self.store.rewind(synced, &mut |rewound| {
            // Followed through the server's batches: what they leave the
            // campaign keeping is what this laptop's are made again by.
            let mut packs = PacksAsAppended::read(&base, rewound)?;
            left_out = lines(append_or_leave_out(
                rewound,
                &base,
                &mut packs,
                &fetched.batches,
                &fetched.names,
                &fetched.photos,
                fetched.head,
                &fetched.judged,
            )?);
            let now_read = packs.registry();
            if !remaking || !mine.batches.iter().any(remake::is_made_again) {
                let mut gate = Gate::new(&base, now_read);
                return rewound.append(
                    mine.batches,
                    mine.names,
                    &[],
                    fetched.head,
                    &now(),
                    &mut |state, e, back| gate.check(state, e, back),
                );
            }
            match remake::append_made_again(
                rewound,
                &base,
                now_read,
                mine.batches,
                mine.names,
                mine.was,
                fetched.head,
            )? {
                Ok(()) => Ok(()),
                Err(unfit) => {
                    let said = format!("“{}” {}", unfit.change, unfit.reason);
                    unplayable = Some(unfit);
                    // Taken back whole: nothing here changes.
                    Err(crate::store::StoreError::Conflict(said))
                }
            }
        });
        if let Some(unfit) = unplayable {
            return Ok(Err(TakenIn::Stopped(SyncOutcome::NoLongerFits {
                number: unfit.number.map(|n| n.0),
                change: unfit.change,
                reason: unfit.reason,
            })));
        }
        rewound?;
        Ok(Ok(left_out))
    }

    /// The server's new batches this laptop leaves out where they go (after
    /// its batch `synced`, its own unsent ones taken back), found by taking
    /// them in there and taking that back: the file is left as it was.
    fn left_out_before(
        &mut self,
        synced: i64,
        fetched: &[LoggedBatch],
        names: &[BatchName],
        photos: &[StoredPhoto],
        head: i64,
        judged: &std::collections::BTreeSet<BatchId>,
    ) -> Result<Vec<LeftOut>> {
        const TRIED: &str = "tried, and taken back";
        let base = self.base.clone();
        let mut out = None;
        let tried = self.store.rewind(synced, &mut |rewound| {
            out = Some(append_or_leave_out(
                rewound,
                &base,
                &mut PacksAsAppended::read(&base, rewound)?,
                fetched,
                names,
                photos,
                head,
                judged,
            )?);
            Err(crate::store::StoreError::Conflict(TRIED.to_owned()))
        });
        match (out, tried) {
            (Some(out), Err(crate::store::StoreError::Conflict(why))) if why == TRIED => Ok(out),
            (_, Err(err)) => Err(err.into()),
            (_, Ok(())) => bail!("the league's changes were taken in where they were only tried"),
        }
    }

    /// Where the league's log and this laptop parted: after the league's
    /// batch `synced`, this laptop's `unsent` batches made since, the
    /// league's `fetched` after it. What stood then is what stands now
    /// with the unsent batches taken back, read only of the ids the two
    /// name (all the plan asks of it); the highest ids are the file's
    /// (those of the unsent batches among them, which only makes the ids
    /// a rebase gives higher).
    fn parted_at(
        &self,
        synced: i64,
        unsent: &[LoggedBatch],
        fetched: &[LoggedBatch],
    ) -> Result<merge::Parted> {
        let named = merge::named(&unsent.iter().chain(fetched).collect::<Vec<_>>());
        let (standing, mut owners) = self.store.standing(&named)?;
        // A lasting effect the unsent batches deleted is the fighter's it
        // was when it stood.
        for event in unsent.iter().flat_map(|b| &b.events) {
            if let crate::campaign::Event::LastingEffectDeleted { effect } = event {
                owners.insert(effect.id, effect.fighter);
            }
        }
        Ok(merge::Parted {
            after: BatchId(synced),
            standing: standing.before(unsent),
            tops: merge::Tops {
                gangs: self.store.next_gang_id()?.0 - 1,
                fighters: self.store.next_fighter_id()?.0 - 1,
                battles: self.store.next_battle_id()?.0 - 1,
                effects: self.store.next_effect_id()?.0 - 1,
                pending: self.store.next_pending_id()?.0 - 1,
                challenges: self.store.next_challenge_id()?.0 - 1,
            },
            owners,
        })
    }

    /// Ties this campaign to a league on no server, for the fuzz target
    /// (`crate::fuzzing::league_batch`), which plays the server's part:
    /// the league's log is batches `1..=synced` of this file's, and every
    /// batch here is named `uid(id)` by `login` (those after `synced` as a
    /// send cut short leaves them).
    pub(crate) fn tie_without_server(
        &mut self,
        synced: i64,
        login: &str,
        uid: &dyn Fn(i64) -> String,
    ) -> Result<()> {
        let names: Vec<BatchName> = self
            .store
            .log_batches()?
            .iter()
            .map(|b| BatchName {
                batch: b.id,
                uid: uid(b.id.0),
                author: login.to_owned(),
            })
            .collect();
        let tie = LeagueTie {
            host: "no-server".to_owned(),
            port: 5432,
            database: "none".to_owned(),
            login: login.to_owned(),
            certificate: String::new(),
            synced,
            last_sync: None,
        };
        self.store.tie_to_league(&tie, &names)?;
        Ok(())
    }

    /// What one try of a sync does with the server's new batches once
    /// fetched (`server`, in its order), with no server, for the fuzz
    /// target: those that are this laptop's own are noted sent, the rest
    /// replayed here (no photo fetched), then a change made and taken back
    /// here, both unsent, dropped. The batches left out, or the conflicts
    /// still to choose (then nothing else changed).
    pub(crate) fn take_in_fetched(
        &mut self,
        server: Vec<ServerBatch>,
        choices: &[Option<Choice>],
    ) -> Result<std::result::Result<Vec<String>, Vec<SyncConflict>>> {
        let server = self.own_already_there(server)?;
        let mut left_out = Vec::new();
        if !server.is_empty() {
            match self.take_in(None, &server, choices, &Default::default())? {
                TakenIn::Done { left_out: more } => left_out = more,
                TakenIn::Conflicts(conflicts) => return Ok(Err(conflicts)),
                TakenIn::Stopped(outcome) => bail!("{}", outcome.headline()),
            }
        }
        self.drop_taken_back_unsent()?;
        Ok(Ok(left_out))
    }

    /// The server's words with each gang it names by number named as the
    /// players know it (`gang #1` → `The Rust Saints`).
    fn gangs_named_in(&self, mut text: String) -> Result<String> {
        let mut gangs = self.store.gangs()?;
        // Longer numbers first, so `#12` is not read as `#1`.
        gangs.sort_by_key(|g| std::cmp::Reverse(g.id.0));
        for gang in gangs {
            text = text.replace(&format!("gang #{}", gang.id), &gang.name);
        }
        Ok(text)
    }

    /// Leaves out of the log a change made here and taken back here, both
    /// not yet sent: the league never needs to see either (a change the
    /// server refused, taken back, is gone). The batches after them are
    /// renumbered.
    fn drop_taken_back_unsent(&mut self) -> Result<()> {
        let tie = self.tie()?;
        let unsent = &self.store.log_batches_after(BatchId(tie.synced))?;
        let target_of_another = |id: BatchId| unsent.iter().any(|b| b.undoes == Some(id));
        let mut dropped = std::collections::BTreeSet::new();
        for undo in unsent {
            if let Some(done) = undo.undoes
                && done.0 > tie.synced
                && !target_of_another(undo.id)
                && !dropped.contains(&done)
            {
                dropped.insert(done);
                dropped.insert(undo.id);
            }
        }
        if dropped.is_empty() {
            return Ok(());
        }
        let names = self.store.batch_names(BatchId(tie.synced))?;
        let mut renumbered = std::collections::BTreeMap::new();
        let mut kept = Vec::new();
        let mut kept_names = Vec::new();
        for batch in unsent.iter().filter(|b| !dropped.contains(&b.id)) {
            let id = BatchId(tie.synced + 1 + kept.len() as i64);
            renumbered.insert(batch.id, id);
            let undoes = batch
                .undoes
                .map(|u| renumbered.get(&u).copied().unwrap_or(u));
            if let Some(name) = names.iter().find(|n| n.batch == batch.id) {
                kept_names.push(BatchName {
                    batch: id,
                    ..name.clone()
                });
            }
            kept.push(LoggedBatch {
                id,
                undoes,
                ..batch.clone()
            });
        }
        let base = self.base.clone();
        let synced = tie.synced;
        self.store.rewind(synced, &mut |rewound| {
            let registry = registry_of(&base, rewound)?;
            let mut gate = Gate::new(&base, &registry);
            rewound.append(
                &kept,
                &kept_names,
                &[],
                synced,
                &now(),
                &mut |state, e, back| gate.check(state, e, back),
            )
        })?;
        self.read_house_packs()?;
        Ok(())
    }

    /// This laptop's batches not yet on the server, each with its name
    /// (names made now are kept in the file before anything is sent).
    fn unsent_named(&mut self, tie: &LeagueTie) -> Result<(Vec<LoggedBatch>, Vec<BatchName>)> {
        let unsent = self.store.log_batches_after(BatchId(tie.synced))?;
        let known = self.store.batch_names(BatchId(tie.synced))?;
        let names: Vec<BatchName> = unsent
            .iter()
            .map(|b| match known.iter().find(|n| n.batch == b.id) {
                Some(name) => name.clone(),
                None => BatchName {
                    batch: b.id,
                    uid: new_uid(),
                    author: tie.login.clone(),
                },
            })
            .collect();
        if names.len() > known.len() {
            self.store.name_batches(&names)?;
        }
        Ok((unsent, names))
    }

    /// Sends the batches before the one the server refused, and says
    /// which it refused and why.
    #[allow(clippy::too_many_arguments)]
    fn send_before_refused(
        &mut self,
        league: &mut League,
        tie: &LeagueTie,
        (batches, hashes): (&[NewBatch], &[crate::store::Link]),
        unsent: &[LoggedBatch],
        fetched: usize,
        uid: &str,
        reason: String,
    ) -> Result<SyncOutcome> {
        let at = batches.iter().position(|b| b.uid == uid).unwrap_or(0);
        let mut head = tie.synced;
        if at > 0
            && let Ok(new_head) = league.push(tie.synced, &batches[..at])
        {
            head = new_head;
            self.store.mark_synced(head, &now())?;
            let sent: Vec<crate::store::Link> =
                hashes.iter().filter(|l| l.seq <= head).cloned().collect();
            self.store.keep_league_hashes(&sent)?;
        }
        let sent = usize::try_from(head - tie.synced).unwrap_or(0);
        let reason = self.gangs_named_in(reason)?;
        Ok(SyncOutcome::Refused {
            fetched,
            sent,
            head,
            number: unsent.get(at).map_or(head + 1, |b| b.id.0),
            change: unsent.get(at).map_or_else(String::new, |b| b.label.clone()),
            reason,
        })
    }
}

/// A sync's outcome where `err` is the server out of reach; `err` itself
/// otherwise.
fn offline_or(err: anyhow::Error) -> Result<SyncOutcome> {
    match err.downcast_ref::<LeagueError>() {
        Some(LeagueError::Offline(reason)) => Ok(SyncOutcome::Offline {
            reason: reason.clone(),
        }),
        Some(LeagueError::Cancelled) => Ok(SyncOutcome::Cancelled),
        _ => Err(err),
    }
}

/// Appends the server's batches to a store; one that cannot be replayed is
/// put in its place as an empty batch saying why, so the log keeps the
/// server's numbers. A record of the `judged` batches is made again on the
/// campaign as the batches before it left it, and left out where what it
/// carries is not what that gives. Returns what was left out.
#[allow(clippy::too_many_arguments)]
pub(super) fn append_or_leave_out(
    store: &mut impl Appender,
    base: &Registry,
    packs: &mut PacksAsAppended<'_>,
    batches: &[LoggedBatch],
    names: &[BatchName],
    photos: &[StoredPhoto],
    head: i64,
    judged: &std::collections::BTreeSet<BatchId>,
) -> crate::store::Result<Vec<LeftOut>> {
    let mut left_out = Vec::new();
    let mut start = 0;
    // In runs: the batches up to a judged one in one go; it is judged where
    // they leave the campaign, and goes on with the batches after it.
    for end in 0..=batches.len() {
        let judged_here = batches
            .get(end)
            .filter(|b| judged.contains(&b.id) && remake::is_judged(b));
        if end < batches.len() && judged_here.is_none() {
            continue;
        }
        if start < end {
            let reach = if end == batches.len() {
                head
            } else {
                batches[end - 1].id.0
            };
            let run = &batches[start..end];
            left_out.extend(append_run(
                store,
                base,
                packs,
                run,
                &names[start..end],
                &photos_of(photos, run),
                reach,
            )?);
        }
        if let Some(batch) = judged_here {
            start = end;
            if let Some(why) = remake::refused(store, packs.registry(), batch)? {
                left_out.push(leave_out(store, batch, &names[end], &why)?);
                start = end + 1;
            }
        }
    }
    Ok(left_out)
}

/// Appends a run of the server's batches, one that cannot be replayed put
/// in its place as an empty batch saying why. Returns what was left out.
/// `packs` follows what the batches appended keep.
fn append_run(
    store: &mut impl Appender,
    base: &Registry,
    packs: &mut PacksAsAppended<'_>,
    batches: &[LoggedBatch],
    names: &[BatchName],
    photos: &[StoredPhoto],
    head: i64,
) -> crate::store::Result<Vec<LeftOut>> {
    // A batch whose own fields no log holds (an undo of no earlier batch,
    // a label past its length) is left out like one that cannot be
    // replayed.
    let header = |batch: &LoggedBatch| crate::campaign::gate::check_header("batch", batch);
    let all = if batches.iter().any(|b| header(b).is_err()) {
        Err(())
    } else {
        let mut gate = Gate::new(base, packs.registry());
        store
            .append(
                batches,
                names,
                photos,
                head,
                &now(),
                &mut |state, e, back| gate.check(state, e, back),
            )
            .map_err(|_| ())
    };
    if all.is_ok() {
        packs.follow(base, store)?;
        return Ok(Vec::new());
    }
    // One at a time, to find those that cannot be replayed.
    let mut left_out = Vec::new();
    for (batch, name) in batches.iter().zip(names) {
        let one = if let Err(err) = header(batch) {
            Err(err.to_string())
        } else {
            let mut gate = Gate::new(base, packs.registry());
            store
                .append(
                    std::slice::from_ref(batch),
                    std::slice::from_ref(name),
                    &photos_of(photos, std::slice::from_ref(batch)),
                    batch.id.0,
                    &now(),
                    &mut |state, e, back| gate.check(state, e, back),
                )
                .map_err(|err| err.to_string())
        };
        if let Err(why) = one {
            left_out.push(leave_out(store, batch, name, &why)?);
        }
        packs.follow(base, store)?;
    }
    Ok(left_out)
}

/// A batch of the server's this laptop left out: its number, and what it
/// was and why, in a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct LeftOut {
    pub id: BatchId,
    pub line: String,
}

impl LeftOut {
    fn of(batch: &LoggedBatch, author: &str, why: &str) -> LeftOut {
        LeftOut {
            id: batch.id,
            line: left_out_line(&batch.label, author, why),
        }
    }
}

/// What was left out, in a line: the batch's label (cut, as its place in
/// the log keeps it), who sent it, and why.
pub(super) fn left_out_line(label: &str, author: &str, why: &str) -> String {
    format!(
        "{} (by {}): {why}",
        crate::text::one_line(&shown_label(label)),
        crate::text::one_line(author)
    )
}

/// The lines of what was left out.
pub(super) fn lines(left_out: Vec<LeftOut>) -> Vec<String> {
    left_out.into_iter().map(|l| l.line).collect()
}

/// `batch` as this laptop keeps it when it is left out: empty, in its
/// place, its label saying why.
pub(super) fn emptied(batch: &LoggedBatch, why: &str) -> LoggedBatch {
    LoggedBatch {
        label: left_out_label(&batch.label, why),
        undoes: None,
        events: Vec::new(),
        ..batch.clone()
    }
}

/// Puts an empty batch saying why in the place of a batch of the server's
/// that is not taken in; what was left out.
fn leave_out(
    store: &mut impl Appender,
    batch: &LoggedBatch,
    name: &BatchName,
    why: &str,
) -> crate::store::Result<LeftOut> {
    let empty = emptied(batch, why);
    store.append(
        std::slice::from_ref(&empty),
        std::slice::from_ref(name),
        &[],
        batch.id.0,
        &now(),
        &mut |_, _, _| Ok(()),
    )?;
    Ok(LeftOut::of(batch, &name.author, why))
}

/// The photos among `photos` that `batches` show.
fn photos_of(photos: &[StoredPhoto], batches: &[LoggedBatch]) -> Vec<StoredPhoto> {
    let keys = photo_keys(batches);
    photos
        .iter()
        .filter(|p| keys.contains(&p.0))
        .cloned()
        .collect()
}

/// The label a batch left out is kept under: what it was (its first
/// 200 characters, escaped where the log would not take it), and why.
pub(super) fn left_out_label(label: &str, why: &str) -> String {
    let shown = shown_label(label);
    let said = format!("Left out: {shown} — {why}");
    if crate::campaign::gate::is_label("label", &said).is_ok()
        && crate::text::one_line(&said) == said
    {
        return said;
    }
    format!("Left out: {} — {why}", crate::text::echo(&shown))
}

/// A label as a batch left out shows it: its first 200 characters, and an
/// ellipsis where it was longer.
fn shown_label(label: &str) -> String {
    const SHOWN: usize = 200;
    let mut shown: String = label.chars().take(SHOWN).collect();
    if label.chars().nth(SHOWN).is_some() {
        shown.push('…');
    }
    shown
}

/// The photos these batches show (a fighter's photo set or given back).
pub(super) fn photo_keys(batches: &[LoggedBatch]) -> Vec<String> {
    let mut keys: Vec<String> = batches
        .iter()
        .flat_map(|b| &b.events)
        .filter_map(|e| match e {
            crate::campaign::Event::PhotoChanged { from, to, .. } => {
                Some(from.iter().chain(to).cloned().collect::<Vec<_>>())
            }
            _ => None,
        })
        .flatten()
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// The photos the server's batches show that this file does not hold,
/// fetched from the server (each checked against its key there).
pub(super) fn fetch_photos(
    league: &mut League,
    store: &CampaignStore,
    batches: &[LoggedBatch],
) -> Result<Vec<StoredPhoto>> {
    let keys = photo_keys(batches);
    let here: Vec<String> = store
        .photos_with_keys(&keys)?
        .into_iter()
        .map(|p| p.0)
        .collect();
    let mut out = Vec::new();
    for key in keys.into_iter().filter(|k| !here.contains(k)) {
        if let Some(bytes) = league.fetch_photo(&key)?
            && let Some(mime) = crate::campaign::photo::mime(&bytes)
        {
            out.push((key, mime.to_owned(), bytes));
        }
    }
    Ok(out)
}

/// The packs a store's campaign is read with: `base` and its house packs.
pub(super) fn registry_of(
    base: &Registry,
    store: &impl crate::store::Replayed,
) -> crate::store::Result<Registry> {
    Ok(crate::session::house::with_house_packs(base, store.house_packs()?).0)
}

/// The packs the batches being appended play by: those they started
/// with, then `base` and the house packs the file keeps as far as it has
/// been appended, read again only where an append changed what it keeps
/// (a long log of records reads its packs once, not once a record).
pub(super) struct PacksAsAppended<'r> {
    kept: Vec<(String, String)>,
    registry: std::borrow::Cow<'r, Registry>,
}

impl<'r> PacksAsAppended<'r> {
    /// `registry` where `store` stands now.
    pub(super) fn starting(
        registry: &'r Registry,
        store: &impl crate::store::Replayed,
    ) -> crate::store::Result<Self> {
        Ok(PacksAsAppended {
            kept: store.house_packs()?,
            registry: std::borrow::Cow::Borrowed(registry),
        })
    }

    /// `base` and the house packs `store` keeps now, read once.
    pub(super) fn read(
        base: &Registry,
        store: &impl crate::store::Replayed,
    ) -> crate::store::Result<Self> {
        let kept = store.house_packs()?;
        Ok(PacksAsAppended {
            registry: std::borrow::Cow::Owned(
                crate::session::house::with_house_packs(base, kept.clone()).0,
            ),
            kept,
        })
    }

    /// The packs after an append to `store`.
    pub(super) fn follow(
        &mut self,
        base: &Registry,
        store: &impl crate::store::Replayed,
    ) -> crate::store::Result<()> {
        let kept = store.house_packs()?;
        if kept != self.kept {
            self.registry = std::borrow::Cow::Owned(
                crate::session::house::with_house_packs(base, kept.clone()).0,
            );
            self.kept = kept;
        }
        Ok(())
    }

    pub(super) fn registry(&self) -> &Registry {
        &self.registry
    }
}

/// A pause before trying a lost race again: longer each time, with jitter
/// so the members who lost do not all try again at once.
fn pause(attempt: u32) {
    let base = 20u64.saturating_mul(1 << attempt.min(6));
    let jitter = rand::random_range(0..=base);
    std::thread::sleep(Duration::from_millis(base + jitter));
}

/// A new batch name: 128 random bits, in hex.
pub(super) fn new_uid() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Now, as the log writes times.
pub(super) fn now() -> String {
    jiff::Timestamp::now().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the league's log and this laptop's parted, known from the
    /// file's state with its unsent batches taken back, is what the shared
    /// log itself says: the same ids standing, ids as high, and the
    /// fighter of every lasting effect that stood.
    #[test]
    fn where_the_league_and_this_laptop_parted_is_known_from_the_state_as_from_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let mut session = Session::create_demo(&dir.path().join("c.rapsheet")).unwrap();
        let synced = session.newest_batch().unwrap().unwrap().0;
        session
            .tie_without_server(synced, "ann", &|id| format!("u{id}"))
            .unwrap();
        let gangs = session.gang_list().unwrap();
        let first = session.gang_view(gangs[0].id).unwrap();
        session.found_gang("Ashen Hounds", None).unwrap();
        session.dismiss(first.fighters[0].id).unwrap();
        session.rename_gang(gangs[1].id, "Renamed Here").unwrap();
        let unsent = session.store.log_batches_after(BatchId(synced)).unwrap();
        assert!(unsent.len() >= 3);
        let log = session.store.log_batches().unwrap();
        let shared = usize::try_from(synced).unwrap();
        // As though the league had sent back every shared batch: every
        // id that stood is named.
        let from_state = session.parted_at(synced, &unsent, &log[..shared]).unwrap();
        let from_log = merge::Parted::of(&log[..shared]).unwrap();
        assert_eq!(from_state.after, from_log.after);
        assert_eq!(from_state.standing, from_log.standing);
        // Named by nothing, nothing is read.
        let alone = session.parted_at(synced, &[], &[]).unwrap();
        assert!(alone.standing.fighters.is_empty() && alone.owners.is_empty());
        let (a, b) = (from_state.tops, from_log.tops);
        assert!(
            a.gangs >= b.gangs
                && a.fighters >= b.fighters
                && a.battles >= b.battles
                && a.effects >= b.effects
                && a.pending >= b.pending
        );
        for (effect, fighter) in &from_log.owners {
            if from_log.standing.effects.contains(&effect.0) {
                assert_eq!(from_state.owners.get(effect), Some(fighter), "{effect:?}");
            }
        }
    }
}
