//! A campaign at work: the open campaign file, the packs it is read with,
//! and everything the faces (the window, the command line, print and
//! export) may ask of it. No face reaches the file or the packs any other
//! way, so the window and the command line cannot drift apart.
//!
//! The rooms, one file each:
//! - `mod.rs` (here): the [`Session`], opening and creating a campaign, and
//!   what the campaign is: its file, its name, its packs, its soundness;
//! - `history.rs`: the log and the one undo/redo model;
//! - `commands.rs`: the edits (gangs, fighters, resources, photos,
//!   captives, lasting effects, arcs), each committed as one batch;
//! - `views.rs`: read models for the faces (gang list, gang view, fighter
//!   details, names, titles, the chronicle);
//! - `records.rs`: battles (preview, record, take back, roles) and the
//!   resource actions taken between them;
//! - `print.rs`: the one builder of what prints (cards, blank cards,
//!   roster sheets), for the window and the command line alike;
//! - `house.rs`: the group's own packs (house rules) kept in the campaign;
//! - `backups.rs`: backups made, listed, rotated and restored;
//! - `bundles.rs`: gangs written out as a bundle, and brought in from one;
//! - `settings.rs`: the choices a rule text leaves to the group;
//! - `sheet.rs`: a character's sheet at the table: its rolls, pushed;
//! - `season.rs`: holdings, the cycle, the standings, factions;
//! - `challenges.rs` and `pairings.rs`: a club's season between records;
//! - `arbitrator.rs`: the arbitrator's table, all of it at once.
//!
//! No SQL here (that is `store`) and no egui (that is `ui`).

mod arbitrator;
mod backups;
mod bundles;
mod challenges;
mod commands;
mod drafts;
mod groups;
mod history;
mod house;
pub mod league;
mod merge;
mod pairings;
mod print;
mod procedure_state;
mod records;
mod season;
mod settings;
mod sheet;
mod views;

use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};

use crate::campaign::gate::{self, Gate};
use crate::campaign::{BatchId, CampaignInfo, Event, Gang, demo};
use crate::rules::{Pack, Registry};
use crate::store::CampaignStore;
use crate::text;

pub use crate::store::{CampaignDump, EXTENSION, LogEntry, Verification};
pub use arbitrator::{LeagueTable, LeftOut, MemberSynced, SeasonTable};
pub use backups::{Backup, BackupPolicy, OpenChecked, OpenChecks, kept, restore_backup};
pub use bundles::read_bundle_file;
pub use challenges::{ChallengeAnswered, ChallengeIssued, ChallengeLine, ChallengesView};
pub use commands::{CaptivePrice, CaptiveTerms, Outcome, saved_but};
pub use drafts::{DraftRead, Drafts};
pub use history::History;
pub use house::HousePack;
pub use merge::{ConflictView, Merge, MergePreview};
pub use pairings::{MadePairings, PairLine, PairingsMade, PairingsView};
pub use print::{MOST_BLANKS, Pick, PrintJob, PrintOrder};
pub use records::{NextScenarios, Preview, Recorded, ScenarioRoll};
pub use season::{
    CycleEnded, CycleReport, CycleView, HoldingLine, HoldingsView, PlayedLine, SeasonReport,
    SeasonView, StandingLine, StandingsView,
};
pub use settings::SettingView;
pub use sheet::{CheckRolled, Pushed};
pub use views::{
    CaptivesMay, CounterView, FighterDetails, FighterView, GangSummary, GangValueView, GangView,
    GroupMember, GroupTag, GroupView, HistoryLine, QuirkView, ResourceView, Rival, TitleChoice,
    TitleView, TitlesView, fighter_view,
};

/// An open campaign and the packs it is read with.
pub struct Session {
    store: CampaignStore,
    /// The packs the campaign is read with: `base` and the house packs
    /// the campaign keeps.
    registry: Registry,
    /// The packs it was opened with, before its house packs.
    base: Registry,
    /// House packs kept in the campaign that this build cannot read.
    house_warnings: Vec<String>,
    /// Where a backup is made before every record, and how many are kept;
    /// `None` (the default) makes none.
    backups: Option<(std::path::PathBuf, BackupPolicy)>,
    /// Where league passwords are read; `None`: the password file in the
    /// settings folder.
    league_passwords: Option<std::path::PathBuf>,
    /// The newest format this laptop writes to a league in.
    league_format: i64,
}

impl Session {
    /// Opens a campaign file, read with the packs of this build.
    pub fn open(path: &Path) -> Result<Self> {
        Self::open_with(path, builtin_registry()?)
    }

    /// [`Session::open`] read with `registry` (the built-in packs and a
    /// group's own, say).
    pub fn open_with(path: &Path, registry: Registry) -> Result<Self> {
        Self::reading(CampaignStore::open(path)?, registry)
    }

    /// [`Session::open_with`], SQLite's check of the file's every page and
    /// the look for today's backup left for later: they read whole files,
    /// most of what opening a big campaign costs, so the window draws the
    /// campaign first. Until [`Session::take_checks`] is given the outcome
    /// of [`Session::checks_to_come`], the campaign is read-only (its
    /// reason says so) and nothing is written to it.
    pub fn open_checking_later(path: &Path, registry: Registry) -> Result<Self> {
        Self::reading(CampaignStore::open_checking_later(path)?, registry)
    }

    /// A session on an open store, read with `base` and the house packs
    /// the campaign keeps.
    fn reading(store: CampaignStore, base: Registry) -> Result<Self> {
        let mut session = Self {
            store,
            registry: base.clone(),
            base,
            house_warnings: Vec::new(),
            backups: None,
            league_passwords: None,
            league_format: crate::store::league::NEWEST_FORMAT,
        };
        // Most campaigns keep none: the packs are not copied again.
        if !session.store.house_packs()?.is_empty() {
            session.read_house_packs()?;
        }
        Ok(session)
    }

    /// Creates an empty campaign file called `name` whose new gangs play
    /// `ruleset`. Refuses to replace any file.
    pub fn create(path: &Path, name: &str, ruleset: &str) -> Result<Self> {
        Self::create_with(path, name, ruleset, builtin_registry()?)
    }

    /// [`Session::create`] read with `registry` instead of the packs of
    /// this build (a pack under test, say). Every campaign is created here.
    pub fn create_with(path: &Path, name: &str, ruleset: &str, registry: Registry) -> Result<Self> {
        let name = text::name("A campaign", name)?;
        if registry.get(ruleset).is_none() {
            bail!(
                "no ruleset pack `{}` (see `rapsheet rulesets`): a game of your own is read from its file, given with --pack FILE here and on every command until it is kept in the campaign with `rapsheet house keep FILE`",
                text::echo(ruleset)
            );
        }
        crate::output::refuse_side_file(path)?;
        let mut gate = Gate::new(&registry, &registry);
        let store = CampaignStore::create(path, &name, ruleset, &mut |state, e, back| {
            gate.check(state, e, back)
        })?;
        Self::reading(store, registry)
    }

    /// Makes a new campaign file at `path` by replaying a log (with the
    /// photos it names), then checks it with `verify`; a file that does not
    /// verify is removed and said, naming where the log came from (`from`).
    fn made_from_log(
        path: &Path,
        batches: &[crate::campaign::LoggedBatch],
        photos: &[crate::store::StoredPhoto],
        registry: Registry,
        from: &str,
    ) -> Result<Self> {
        Self::made_from_log_knowing(path, batches, photos, registry, &[], from)
    }

    /// [`Session::made_from_log`], the group's packs that travel with the
    /// log (`travelling`, each checked as `house keep` checks one) known
    /// from its first change: a game the log keeps only after the campaign
    /// was made to play it.
    fn made_from_log_knowing(
        path: &Path,
        batches: &[crate::campaign::LoggedBatch],
        photos: &[crate::store::StoredPhoto],
        registry: Registry,
        travelling: &[house::Travelling<'_>],
        from: &str,
    ) -> Result<Self> {
        crate::output::refuse_side_file(path)?;
        gate::check_log(batches)?;
        let known = house::travelling_packs(&registry, travelling)?;
        let mut gate = Gate::new(&registry, &known);
        let store =
            CampaignStore::create_from_log(path, batches, photos, &mut |state, e, back| {
                gate.check(state, e, back)
            })?;
        let session = Self::reading(store, registry)?;
        let verified = session.verify()?;
        if !verified.problems.is_empty() {
            drop(session);
            for file in crate::output::campaign_files(path) {
                let _ = std::fs::remove_file(file);
            }
            bail!(
                "the campaign made from {from} does not verify: {}",
                verified.problems.join("; ")
            );
        }
        Ok(session)
    }

    /// Creates a campaign file holding the demo gangs.
    pub fn create_demo(path: &Path) -> Result<Self> {
        Self::create_demo_of(path, &demo::ruleset()?)
    }

    /// [`Session::create_demo`] read with `registry` (the built-in packs
    /// and the pack files given with `--pack`).
    pub fn create_default_demo_with(path: &Path, registry: Registry) -> Result<Self> {
        Self::create_demo_with(path, &demo::ruleset()?, registry)
    }

    /// Creates a campaign file holding the demo played with `ruleset`.
    pub fn create_demo_of(path: &Path, ruleset: &str) -> Result<Self> {
        Self::create_demo_with(path, ruleset, builtin_registry()?)
    }

    /// [`Session::create_demo_of`] read with `registry` (the built-in packs
    /// and the pack files given with `--pack`).
    pub fn create_demo_with(path: &Path, ruleset: &str, registry: Registry) -> Result<Self> {
        let pack = asked_pack(&registry, ruleset)?;
        let demo = demo::demo(pack)?.ok_or_else(|| {
            anyhow!(
                "there is no demo for {}: demos are played with {}",
                pack.pack.name,
                demo::rulesets().unwrap_or_default().join(", ")
            )
        })?;
        let ruleset = demo.ruleset.clone();
        let mut session = Self::create_with(path, &demo.campaign, &ruleset, registry)?;
        // The demo group's own data, kept as theirs and played.
        let plays = match &demo.house {
            Some(draft) => session.keep_draft(draft, true)?.1,
            None => demo.ruleset.clone(),
        };
        for gang in demo.gangs {
            let id = session.found_gang(&gang.name, Some(&plays))?.0;
            if !gang.notes.is_empty() {
                session.set_gang_notes(id, &gang.notes)?;
            }
            for fighter in gang.fighters {
                session.recruit(id, fighter)?;
            }
        }
        Ok(session)
    }

    /// Copies the campaign to a new file and opens the copy, read with the
    /// same packs. The original stays as it is.
    pub fn save_as(&self, path: &Path) -> Result<Self> {
        crate::output::refuse_side_file(path)?;
        Self::reading(self.store.save_as(path)?, self.base.clone())
    }

    /// Makes a backup into `folder` before every record from now on (the
    /// app and the command line give the platform's backups folder).
    pub fn keep_backups_in(&mut self, folder: &Path, policy: BackupPolicy) {
        self.backups = Some((folder.to_owned(), policy));
    }

    /// Where backups are kept, if the face asked for them.
    pub fn backups_folder(&self) -> Option<&Path> {
        self.backups.as_ref().map(|(f, _)| f.as_path())
    }

    /// The campaign's file.
    pub fn path(&self) -> &Path {
        self.store.path()
    }

    /// Why this campaign cannot be changed, if it cannot.
    pub fn read_only_reason(&self) -> Option<&str> {
        self.store.read_only_reason()
    }

    /// The campaign's name and the ruleset its new gangs play.
    pub fn info(&self) -> Result<CampaignInfo> {
        Ok(self.store.info()?)
    }

    /// Checks the file as `rapsheet verify` does: SQLite's integrity, and
    /// a replay of the whole log giving exactly the stored state, every
    /// batch and event passing the one gate as if it came in now.
    pub fn verify(&self) -> Result<Verification> {
        self.rules_to_check_with()?;
        // The group's packs the campaign keeps are known from its first
        // change: a campaign made to play a game read from a file keeps
        // that game only later (`docs/packs.md`).
        let mut gate = Gate::new(&self.base, &self.registry);
        // A league's records are made again from their report and dice
        // where the replay comes to each, as every laptop made them.
        let mut judging = self.league_judging()?;
        let mut remaking;
        let judge: Option<&mut crate::store::Judge<'_>> = match judging.as_mut() {
            Some(judging) => {
                remaking = |replay: &crate::store::Replaying<'_>,
                            batch: &crate::campaign::LoggedBatch| {
                    judging.judge(replay, batch)
                };
                Some(&mut remaking)
            }
            None => None,
        };
        let mut verified = self
            .store
            .verify_through(&mut |state, e, back| gate.check(state, e, back), judge)?;
        if verified.problems.is_empty()
            && let Err(err) = gate::check_log(&self.store.log_batches()?)
        {
            verified
                .problems
                .push(format!("{}: {}", err.field, err.reason));
        }
        verified.problems.extend(self.league_chain_problems()?);
        Ok(verified)
    }

    /// Refuses to verify a campaign whose game this laptop does not have
    /// (one read from a file with `--pack` and not kept): its changes
    /// cannot be held to their rules here, which says nothing of the file.
    fn rules_to_check_with(&self) -> Result<()> {
        let mut played = vec![self.info()?.default_ruleset];
        played.extend(self.gang_list()?.into_iter().map(|g| g.ruleset));
        if let Some(missing) = played.iter().find(|r| self.registry.get(r).is_none()) {
            bail!(
                "the campaign plays `{}`, a pack this laptop does not have, so its changes cannot be held to their rules: give the pack with --pack FILE (or keep it in the campaign with `rapsheet house keep`)",
                text::echo(missing)
            );
        }
        Ok(())
    }

    /// Bulk mode for generating a campaign: each change is still whole,
    /// but not flushed to disk one by one. Off again, the file is as
    /// durable as ever.
    pub fn set_bulk(&self, bulk: bool) -> Result<()> {
        Ok(self.store.set_bulk(bulk)?)
    }

    /// Hands every statement the campaign file runs from now on to
    /// `watch`, values written in (`None` stops): how a measure of a
    /// commit learns the rows it writes.
    pub fn watch_statements(&mut self, watch: Option<Box<dyn FnMut(String) + Send>>) -> Result<()> {
        Ok(self.store.watch_statements(watch)?)
    }

    pub fn pack(&self, ruleset: &str) -> Result<&Pack> {
        self.registry.get(ruleset).ok_or_else(|| {
            anyhow!(
                "this campaign uses the ruleset pack `{}`, which this build does not have: give the pack with --pack FILE, or keep it in the campaign with `rapsheet house keep FILE`",
                text::echo(ruleset)
            )
        })
    }

    /// The pack a gang is built with.
    pub fn gang_pack(&self, gang: &Gang) -> Result<&Pack> {
        self.pack(&gang.ruleset)
    }

    /// Every pack this campaign can be read with.
    /// How often the campaign file has been read since it opened (what a
    /// view that caches its reads is checked against).
    pub fn reads(&self) -> u64 {
        self.store.reads()
    }

    pub fn packs(&self) -> impl Iterator<Item = &Pack> {
        self.registry.packs()
    }

    /// Commits a change as one batch, every event through the one gate.
    fn commit(&mut self, label: &str, events: Vec<Event>) -> Result<BatchId> {
        let mut gate = Gate::new(&self.base, &self.registry);
        Ok(self.store.commit(label, &events, &mut |state, e, back| {
            gate.check(state, e, back)
        })?)
    }
}

/// The first pack of the line of packs `ruleset` overrides (itself when it
/// overrides none).
pub(super) fn root_of(registry: &Registry, ruleset: &str) -> String {
    registry.root_of(ruleset)
}

/// The pack of the ruleset a player asked for, by id, or why there is none
/// (the one sentence for every face).
pub fn asked_pack<'a>(registry: &'a Registry, ruleset: &str) -> Result<&'a Pack> {
    registry
        .get(ruleset)
        .ok_or_else(|| anyhow!("no ruleset pack `{ruleset}` (see `rapsheet rulesets`)"))
}

/// The packs shipped with this build.
pub fn builtin_registry() -> Result<Registry> {
    // Read once a process and copied after: they are the same every time,
    // and reading them is most of what a registry costs (the window reads
    // them twice while it opens a campaign).
    static BUILTIN: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    if let Some(registry) = BUILTIN.get() {
        return Ok(registry.clone());
    }
    let registry = Registry::builtin().context("a ruleset pack shipped with Rapsheet is broken")?;
    Ok(BUILTIN.get_or_init(|| registry).clone())
}

/// The built-in packs and the pack files given with `--pack` (a group's
/// own game, or its house rules), each read as a pack file is and checked:
/// what the command line and the window open and make campaigns with.
pub fn registry_with(files: &[std::path::PathBuf]) -> Result<Registry> {
    let mut registry = builtin_registry()?;
    for file in files {
        let text = crate::input::read_text(file, crate::input::Kind::Pack)?;
        registry.add_text(&file.display().to_string(), &text)?;
    }
    Ok(registry)
}
