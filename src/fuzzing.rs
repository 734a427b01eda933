//! Entry points for the fuzz targets in `fuzz/` and for the test that
//! replays their corpora (`tests/fuzz_corpus.rs`): each takes arbitrary
//! bytes and drives one real path that reads what a player or a file hands
//! the program.
//!
//! Refusing an input is fine; a panic is a defect, and so is a broken
//! promise checked here (a dice expression that does not read back as
//! itself, a roll outside its expression's range, a refused campaign file
//! that was written to). No rules are built in: dice conventions come from
//! the shipped packs, the battle and merge campaigns from the demo. The
//! only I/O is the campaign-file, whole-bundle and merge targets', inside
//! the folder their caller gives them.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::campaign::battle::BattleReport;
use crate::campaign::merge::Choice;
use crate::dice::{self, Dice, DiceDialect, Ladder};
use crate::rules::Registry;
use crate::session::Session;

/// The seed of every roll made here, so a crash replays exactly.
const SEED: u64 = 1;

/// A dice text as the app reads it: a summed expression (rolled plainly
/// and under every shipped pack's dice dialect), a success pool (rolled
/// under every shipped pack's pool rules) and, when further lines follow,
/// a tier shift on the ladder those lines give, one rung per line.
pub fn dice_text(registry: &Registry, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let rungs: Vec<&str> = lines.collect();

    let dialects: Vec<DiceDialect> = std::iter::once(DiceDialect::default())
        .chain(
            registry
                .packs()
                .filter_map(|p| p.dice.as_ref().map(|d| d.dialect())),
        )
        .collect();
    for expression in [&*text, first] {
        if let Ok(expr) = dice::parse(expression) {
            let shown = expr.to_string();
            assert_eq!(
                dice::parse(&shown).as_ref(),
                Ok(&expr),
                "{expression:?} reads back differently as {shown:?}"
            );
            for dialect in &dialects {
                if let Ok(record) = Dice::seeded(SEED).roll(&expr, dialect) {
                    assert!(
                        expr.totals().contains(&record.total),
                        "{shown} rolled {} outside {:?}",
                        record.total,
                        expr.totals()
                    );
                }
            }
        }
        if let Ok(pool) = dice::parse_pool(expression) {
            for rules in registry
                .packs()
                .filter_map(|p| p.dice.as_ref().and_then(|d| d.pool))
            {
                let _ = Dice::seeded(SEED).roll_pool(&pool, &rules);
            }
        }
    }
    if !rungs.is_empty()
        && let Ok(ladder) = Ladder::from_texts(&rungs)
        && let Ok(shift) = ladder.parse(first)
    {
        let _ = Dice::seeded(SEED).roll(&shift.to, &DiceDialect::default());
    }
}

/// A ruleset pack's text, loaded and validated as `rapsheet check-pack`
/// does (an override pack is merged onto its base from `registry`).
pub fn pack_text(registry: &Registry, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(pack) = registry.load_text("fuzz.toml", &text) {
        // What the app shows of a loaded pack.
        for quirk in &pack.quirks {
            let _ = pack.profile(quirk);
            let _ = pack.card_profile(quirk);
        }
        let _ = serde_json::to_string(&pack);
    }
}

/// A battle report (JSON), checked and previewed against `session` as
/// `rapsheet battle record --dry-run` does. Nothing is recorded, so one
/// campaign serves every input.
pub fn battle_report(session: &Session, data: &[u8]) {
    let Ok(report) = serde_json::from_slice::<BattleReport>(data) else {
        return;
    };
    if let Ok(preview) = session.preview_battle(&report, SEED) {
        let _ = serde_json::to_string(preview.procedure());
    }
}

/// The window on the demo campaign, which reads back the record begun for
/// it (its draft) each time it opens the campaign: what the `draft` target
/// drives.
#[cfg(feature = "gui")]
pub struct DraftWindow {
    campaign: PathBuf,
    drafts: PathBuf,
    app: crate::ui::RapsheetApp,
    ctx: egui::Context,
}

#[cfg(feature = "gui")]
impl DraftWindow {
    /// The window, its demo campaign and its drafts in `dir`.
    pub fn new(dir: &Path) -> std::io::Result<Self> {
        let campaign = dir.join("demo.rapsheet");
        let drafts = dir.join("drafts");
        std::fs::create_dir_all(&drafts)?;
        let mut app = crate::ui::RapsheetApp::closed_with_backups(None, Default::default());
        app.keep_drafts_in(drafts.clone());
        Ok(Self {
            campaign,
            drafts,
            app,
            ctx: egui::Context::default(),
        })
    }

    /// The bytes kept as the demo campaign's draft, and the campaign
    /// opened in the window as a player opens it: the draft is set aside
    /// (its bytes kept whole beside) or brought back onto the Record
    /// screen, which is drawn, its report made and previewed, and never a
    /// panic. Errors are the folder's, never the input's.
    pub fn draft(&mut self, data: &[u8]) -> std::io::Result<()> {
        use crate::ui::{Action, CampaignAction, Screen};
        self.app.run_action(Action::Campaign(CampaignAction::Close));
        std::fs::remove_dir_all(&self.drafts)?;
        std::fs::create_dir(&self.drafts)?;
        let place = crate::session::Drafts::in_folder(&self.drafts)
            .file(&std::path::absolute(&self.campaign).unwrap_or_else(|_| self.campaign.clone()));
        std::fs::write(&place, data)?;
        self.app
            .run_action(Action::Campaign(CampaignAction::OpenDemo(
                self.campaign.clone(),
                None,
            )));
        assert!(
            self.app.campaign_path().is_some(),
            "the demo campaign opens"
        );
        // Nothing is lost: the draft is where it was, or set aside whole.
        let mut held = Vec::new();
        for entry in std::fs::read_dir(&self.drafts)? {
            held.push(std::fs::read(entry?.path())?);
        }
        assert!(
            held.iter().any(|h| h == data),
            "the draft read back is neither kept nor set aside whole"
        );
        self.app.run_action(Action::ShowScreen(Screen::Battle));
        for _ in 0..2 {
            let mut shown = self
                .ctx
                .run_ui(egui::RawInput::default(), |ui| self.app.frame_ui(ui));
            // Nothing is painted here: the fonts' textures are let go.
            shown.textures_delta.clear();
        }
        Ok(())
    }

    /// The draft the window keeps for the demo campaign now, if any: the
    /// form as the Record screen left it.
    pub fn kept(&self) -> std::io::Result<Option<Vec<u8>>> {
        let place = crate::session::Drafts::in_folder(&self.drafts)
            .file(&std::path::absolute(&self.campaign).unwrap_or_else(|_| self.campaign.clone()));
        match std::fs::read(place) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A bundle's bytes, read as `rapsheet bundle import` reads them; one that
/// is read is written back and must read as itself.
pub fn bundle_bytes(data: &[u8]) {
    let Ok(bundle) = crate::campaign::bundle::read(data) else {
        return;
    };
    let back = serde_json::to_vec(&bundle)
        .map_err(|e| e.to_string())
        .and_then(|again| crate::campaign::bundle::read(&again).map_err(|e| e.to_string()));
    assert!(
        back.as_ref() == Ok(&bundle),
        "a bundle does not read back as itself: {back:?}"
    );
}

/// Arbitrary bytes written to a file in `dir` and opened as a campaign. A
/// refused file must be left exactly as it was; an opened one is read as
/// the app reads it on opening. Errors are the folder's (it cannot be
/// written or cleared), never the input's.
pub fn campaign_file(dir: &Path, data: &[u8]) -> std::io::Result<()> {
    let case = dir.join("case");
    if case.exists() {
        std::fs::remove_dir_all(&case)?;
    }
    std::fs::create_dir(&case)?;
    let path = case.join("campaign.rapsheet");
    std::fs::write(&path, data)?;
    match Session::open(&path) {
        Err(_) => {
            let after = std::fs::read(&path)?;
            assert!(after == data, "a refused campaign file was written to");
        }
        Ok(session) => {
            let _ = session.gang_list();
            let _ = session.campaign_state();
            let _ = session.chronicle();
            let _ = session.verify();
        }
    }
    std::fs::remove_dir_all(&case)
}

/// A fresh, empty folder `name` in `dir`.
fn fresh(dir: &Path, name: &str) -> std::io::Result<PathBuf> {
    let case = dir.join(name);
    if case.exists() {
        std::fs::remove_dir_all(&case)?;
    }
    std::fs::create_dir(&case)?;
    Ok(case)
}

/// The names of the files in `dir`, sorted.
fn files_in(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut names = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<std::io::Result<Vec<_>>>()?;
    names.sort();
    Ok(names)
}

/// The bytes as a whole campaign's bundle, made into a new campaign file
/// in a fresh folder of `dir` as `rapsheet bundle import --whole` does. A
/// refused bundle leaves the folder empty (no campaign file, no temporary
/// or side file); a campaign made from one verifies, and its own whole
/// bundle makes the same campaign again.
pub fn whole_bundle(dir: &Path, data: &[u8]) -> std::io::Result<()> {
    let case = fresh(dir, "whole")?;
    let path = case.join("campaign.rapsheet");
    match Session::create_from_bundle(&path, data) {
        Err(_) => {
            let left = files_in(&case)?;
            assert!(left.is_empty(), "a refused bundle left {left:?}");
        }
        Ok(session) => {
            let verified = session
                .verify()
                .unwrap_or_else(|e| panic!("a made campaign does not read: {e:#}"));
            assert!(
                verified.problems.is_empty(),
                "a campaign made from a bundle does not verify: {:?}",
                verified.problems
            );
            let again = session
                .export_whole_bundle()
                .map_err(|e| e.to_string())
                .and_then(|b| serde_json::to_vec(&b).map_err(|e| e.to_string()));
            let again = again
                .unwrap_or_else(|e| panic!("a made campaign's whole bundle is not written: {e:#}"));
            let copy = Session::create_from_bundle(&case.join("again.rapsheet"), &again)
                .unwrap_or_else(|e| panic!("a made campaign's own bundle is refused: {e:#}"));
            let (first, second) = (session.dump(), copy.dump());
            assert!(
                first.is_ok() && first.as_ref().ok() == second.as_ref().ok(),
                "a made campaign's own bundle makes another campaign: {first:?} then {second:?}"
            );
        }
    }
    std::fs::remove_dir_all(&case)
}

/// The merge target's campaign file: the demo, each batch of its log given
/// a fixed time (so every process makes the same campaign, and the copies
/// kept in the corpus, made from it as it stood then, stay copies of it),
/// then changed in this copy: every gang's notes and first resource, the
/// first gang's name and its first fighter's, so that a copy that changed
/// them too meets a conflict. Made once per process.
pub fn merge_campaign(dir: &Path) -> std::io::Result<Vec<u8>> {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    if let Some(bytes) = BYTES.get() {
        return Ok(bytes.clone());
    }
    let case = fresh(dir, "merge-campaign")?;
    let demo = case.join("demo.rapsheet");
    let fixed = case.join("campaign.rapsheet");
    let made = (|| -> anyhow::Result<()> {
        let mut bundle = Session::create_demo(&demo)?.export_whole_bundle()?;
        for (i, batch) in bundle
            .log
            .iter_mut()
            .flat_map(|l| &mut l.batches)
            .enumerate()
        {
            batch.at = merge_time(i);
        }
        let mut ours = Session::create_from_bundle(&fixed, &serde_json::to_vec(&bundle)?)?;
        for (n, gang) in ours.gang_list()?.into_iter().enumerate() {
            let view = ours.gang_view(gang.id)?;
            ours.set_gang_notes(gang.id, "Changed in this copy.")?;
            if let Some(resource) = view.resources.first() {
                ours.adjust_resource(gang.id, &resource.id, 1, "this copy")?;
            }
            if n == 0 {
                ours.rename_gang(gang.id, &format!("{}, this copy", gang.name))?;
                if let Some(fighter) = view.fighters.first() {
                    ours.rename_fighter(fighter.id, &format!("{} of this copy", fighter.name))?;
                }
            }
        }
        Ok(())
    })();
    made.unwrap_or_else(|e| panic!("the merge target's campaign is not made: {e:#}"));
    let bytes = std::fs::read(&fixed)?;
    std::fs::remove_dir_all(&case)?;
    Ok(BYTES.get_or_init(|| bytes).clone())
}

/// The time of the merge campaign's `i`th batch, one second apart.
fn merge_time(i: usize) -> String {
    format!(
        "2026-01-01T{:02}:{:02}:{:02}.000Z",
        i / 3600,
        i / 60 % 60,
        i % 60
    )
}

/// The bytes as another copy of the merge campaign ([`merge_campaign`]),
/// planned, previewed and written as `rapsheet merge` does, every conflict
/// chosen (one of ours, theirs and both in turn, both only where it can
/// be). Neither copy is written to; a refused merge leaves no output; a
/// merged campaign verifies.
pub fn merge_copy(dir: &Path, data: &[u8]) -> std::io::Result<()> {
    let campaign = merge_campaign(dir)?;
    let case = fresh(dir, "merge")?;
    let ours_path = case.join("ours.rapsheet");
    let theirs_path = case.join("theirs.rapsheet");
    let output = case.join("merged.rapsheet");
    std::fs::write(&ours_path, &campaign)?;
    std::fs::write(&theirs_path, data)?;
    {
        let ours = Session::open(&ours_path)
            .unwrap_or_else(|e| panic!("the merge campaign does not open: {e:#}"));
        let before = ours
            .dump()
            .unwrap_or_else(|e| panic!("the merge campaign does not read: {e:#}"));
        if let Ok(merge) = ours.plan_merge(&theirs_path)
            && let Ok(preview) = ours.merge_preview(&merge)
        {
            let turns = [Choice::Ours, Choice::Theirs, Choice::Both];
            let choices: Vec<Option<Choice>> = preview
                .conflicts
                .iter()
                .enumerate()
                .map(|(i, c)| match turns[(i + data.len()) % turns.len()] {
                    Choice::Both if c.both.is_none() => Some(Choice::Ours),
                    choice => Some(choice),
                })
                .collect();
            match ours.write_merge(&merge, &choices, &output) {
                Ok(merged) => {
                    let verified = merged
                        .verify()
                        .unwrap_or_else(|e| panic!("a merged campaign does not read: {e:#}"));
                    assert!(
                        verified.problems.is_empty(),
                        "a merged campaign does not verify: {:?}",
                        verified.problems
                    );
                }
                Err(_) => {
                    let left: Vec<_> = crate::output::campaign_files(&output)
                        .into_iter()
                        .filter(|f| f.exists())
                        .collect();
                    assert!(left.is_empty(), "a refused merge left {left:?}");
                }
            }
        }
        let after = ours
            .dump()
            .unwrap_or_else(|e| panic!("the merge campaign does not read: {e:#}"));
        assert!(before == after, "the merge changed this campaign");
    }
    assert!(
        std::fs::read(&ours_path)? == campaign,
        "the merge wrote to this campaign's file"
    );
    assert!(
        std::fs::read(&theirs_path)? == data,
        "the merge wrote to the other copy"
    );
    std::fs::remove_dir_all(&case)
}

/// The league target's login: the organiser's, who may send anything.
const LEAGUE_LOGIN: &str = "organiser";

/// The most fetched batches one input gives, so that a run stays quick.
const MOST_FETCHED: usize = 32;

/// The name a league target's campaign gives its batch `id`.
pub fn league_uid(id: i64) -> String {
    format!("{id:032x}")
}

/// The league target's two laptops, as files: the demo tied to a league on
/// no server with its whole log the league's (`synced`, the organiser's
/// file after `rapsheet league init`), and the same with changes made here
/// and not yet sent (`unsent`: a gang renamed, its notes set, a resource
/// adjusted, a change made and taken back), named as a send cut short
/// leaves them. `head` is the league's newest batch; the unsent batches
/// follow it.
#[derive(Debug, Clone)]
pub struct LeagueCampaigns {
    pub synced: Vec<u8>,
    pub unsent: Vec<u8>,
    pub head: i64,
    pub unsent_count: i64,
}

/// The league target's campaigns ([`LeagueCampaigns`]). Made once per
/// process.
pub fn league_campaigns(dir: &Path) -> std::io::Result<LeagueCampaigns> {
    static MADE: OnceLock<LeagueCampaigns> = OnceLock::new();
    if let Some(made) = MADE.get() {
        return Ok(made.clone());
    }
    let case = fresh(dir, "league-campaign")?;
    let synced = case.join("synced.rapsheet");
    let unsent = case.join("unsent.rapsheet");
    let made = (|| -> anyhow::Result<(i64, i64)> {
        let head = {
            let demo = Session::create_demo(&synced)?;
            demo.newest_batch()?.map_or(0, |b| b.0)
        };
        std::fs::copy(&synced, &unsent)?;
        Session::open(&synced)?.tie_without_server(head, LEAGUE_LOGIN, &league_uid)?;
        let mut here = Session::open(&unsent)?;
        let gangs = here.gang_list()?;
        if let Some(gang) = gangs.first() {
            here.rename_gang(gang.id, &format!("{}, this laptop", gang.name))?;
            let view = here.gang_view(gang.id)?;
            if let Some(resource) = view.resources.first() {
                here.adjust_resource(gang.id, &resource.id, 2, "this laptop")?;
            }
        }
        if let Some(gang) = gangs.last() {
            let notes = here.set_gang_notes(gang.id, "Set on this laptop.")?;
            here.undo(notes)?;
            here.set_gang_notes(gang.id, "Set again on this laptop.")?;
        }
        let newest = here.newest_batch()?.map_or(0, |b| b.0);
        here.tie_without_server(head, LEAGUE_LOGIN, &league_uid)?;
        Ok((head, newest - head))
    })();
    let (head, unsent_count) =
        made.unwrap_or_else(|e| panic!("the league target's campaigns are not made: {e:#}"));
    let campaigns = LeagueCampaigns {
        synced: std::fs::read(&synced)?,
        unsent: std::fs::read(&unsent)?,
        head,
        unsent_count,
    };
    std::fs::remove_dir_all(&case)?;
    Ok(MADE.get_or_init(|| campaigns).clone())
}

/// One row of the league's log as a laptop fetches it (the server's
/// `seq, uid, author, received, at, label, undoes, events::text`), one
/// line of the input. A field left out takes a default; `events` is the
/// events' text as the server hands it (a string), or any other JSON,
/// taken as its text.
#[derive(Debug, serde::Deserialize)]
#[serde(default)]
struct FetchedRow {
    uid: Option<String>,
    author: String,
    received: String,
    at: String,
    label: String,
    undoes: Option<i64>,
    events: serde_json::Value,
}

impl Default for FetchedRow {
    fn default() -> Self {
        FetchedRow {
            uid: None,
            author: "ann".to_owned(),
            received: "2026-11-28T12:00:00.000000Z".to_owned(),
            at: "2026-11-28T12:00:00.000Z".to_owned(),
            label: String::new(),
            undoes: None,
            events: serde_json::Value::Array(Vec::new()),
        }
    }
}

/// The input's lines as the server's new batches after `head`: each line
/// that reads as a row (others are passed over), numbered from `head + 1`
/// in order with no gap, as the server numbers them. A row whose name the
/// server could not hold (empty, over 200 characters, or a name already
/// in its log) is passed over too: its `UNIQUE` and `CHECK` refuse it.
pub fn league_rows(data: &[u8], head: i64) -> Vec<crate::store::league::ServerBatch> {
    let mut rows: Vec<crate::store::league::ServerBatch> = Vec::new();
    for line in data.split(|b| *b == b'\n') {
        if rows.len() == MOST_FETCHED {
            break;
        }
        let Ok(row) = serde_json::from_slice::<FetchedRow>(line) else {
            continue;
        };
        let seq = head + 1 + rows.len() as i64;
        let uid = row.uid.unwrap_or_else(|| format!("fetched-{seq}"));
        let known = (1..=head).any(|id| league_uid(id) == uid);
        if uid.is_empty() || uid.chars().count() > 200 || known || rows.iter().any(|r| r.uid == uid)
        {
            continue;
        }
        rows.push(crate::store::league::ServerBatch {
            seq,
            uid,
            author: row.author,
            // The server's own time, always one.
            received: if crate::campaign::gate::is_time(&row.received) {
                row.received
            } else {
                FetchedRow::default().received
            },
            at: row.at,
            label: row.label,
            undoes: row.undoes,
            events: match row.events {
                serde_json::Value::String(text) => text,
                other => other.to_string(),
            },
            format: 1,
            hash: None,
            signature: None,
        });
    }
    rows
}

/// A league campaign's state as the promises compare it: the campaign, its
/// whole log (each batch's label and events) and how far it holds the
/// league's.
#[derive(Debug, PartialEq)]
struct LeagueState {
    dump: crate::store::CampaignDump,
    log: Vec<(String, Vec<crate::campaign::Event>)>,
    synced: i64,
}

fn league_state(session: &Session) -> LeagueState {
    let read = || -> anyhow::Result<LeagueState> {
        let newest = session.newest_batch()?.map_or(0, |b| b.0);
        let log = (1..=newest)
            .map(|id| session.batch(crate::campaign::BatchId(id)))
            .collect::<anyhow::Result<_>>()?;
        Ok(LeagueState {
            dump: session.dump()?,
            log,
            synced: session.league()?.map_or(-1, |t| t.synced),
        })
    };
    read().unwrap_or_else(|e| panic!("a league campaign does not read: {e:#}"))
}

/// How many of `rows`, from the first, are this laptop's own unsent
/// batches (`unsent` of them, after `head`), sent by a sync cut short.
fn own_rows(rows: &[crate::store::league::ServerBatch], head: i64, unsent: i64) -> usize {
    rows.iter()
        .take(usize::try_from(unsent).unwrap_or(0))
        .enumerate()
        .take_while(|(i, r)| r.uid == league_uid(head + 1 + *i as i64))
        .count()
}

/// What became of fetched batches on one laptop.
enum TakenIn {
    /// The new batches of the log, from the first fetched, by label and
    /// events.
    Taken(Vec<(String, Vec<crate::campaign::Event>)>),
    Refused,
}

/// `rows` fetched by the laptop whose file is `campaign` (copied into
/// `path`), in syncs of `parts` rows, each taken in as a sync takes it in;
/// conflicts with its unsent changes chosen in turn from `turn`. Checks the
/// promises: a refused sync leaves the campaign and its log as they were
/// (only this laptop's own batches may be noted sent); a sync that takes
/// the rows holds each in its place, as it was sent or left out (empty,
/// labelled `Left out: …`, one for each reason given), holds the league's
/// log to its last, and verifies.
fn take_in_rows(
    path: &Path,
    campaign: &[u8],
    rows: &[crate::store::league::ServerBatch],
    parts: &[usize],
    own: usize,
    turn: usize,
) -> std::io::Result<TakenIn> {
    std::fs::write(path, campaign)?;
    let mut session =
        Session::open(path).unwrap_or_else(|e| panic!("a league campaign does not open: {e:#}"));
    let first = rows.first().map_or(0, |r| r.seq);
    let last = rows.last().map_or(0, |r| r.seq);
    let mut start = 0;
    for &part in parts {
        let before = league_state(&session);
        let fetched: Vec<_> = rows[start..start + part]
            .iter()
            .filter(|r| r.seq > before.synced)
            .cloned()
            .collect();
        start += part;
        let mut outcome = session.take_in_fetched(fetched.clone(), &[]);
        if let Ok(Err(conflicts)) = &outcome {
            let after = league_state(&session);
            assert!(
                before.dump == after.dump && before.log == after.log,
                "a sync with conflicts to choose changed the campaign"
            );
            let turns = [Choice::Ours, Choice::Theirs, Choice::Both];
            let choices: Vec<Option<Choice>> = conflicts
                .iter()
                .enumerate()
                .map(|(i, c)| match turns[(i + turn) % turns.len()] {
                    Choice::Both if c.both.is_none() => Some(Choice::Theirs),
                    choice => Some(choice),
                })
                .collect();
            let fetched: Vec<_> = fetched
                .into_iter()
                .filter(|r| r.seq > after.synced)
                .collect();
            outcome = session.take_in_fetched(fetched, &choices);
            if let Ok(Err(again)) = &outcome {
                panic!("conflicts every one chosen are put again: {again:?}");
            }
        }
        let after = league_state(&session);
        match outcome {
            Err(_) | Ok(Err(_)) => {
                assert!(
                    before.dump == after.dump && before.log == after.log,
                    "a refused sync changed the campaign"
                );
                assert!(
                    after.synced == before.synced
                        || (after.synced > before.synced && after.synced <= first - 1 + own as i64),
                    "a refused sync noted batches {} to {} sent",
                    before.synced,
                    after.synced
                );
                return Ok(TakenIn::Refused);
            }
            Ok(Ok(left_out)) => {
                let took_to = rows[start - 1].seq;
                assert!(
                    after.synced == took_to,
                    "a sync of the league's batches to {took_to} holds them to {}",
                    after.synced
                );
                let mut left = 0;
                for row in rows[..start].iter().skip(own) {
                    if row.seq <= before.synced {
                        continue;
                    }
                    let (label, events) = &after.log[usize::try_from(row.seq - 1).unwrap_or(0)];
                    if *label == row.label {
                        let sent: Vec<crate::campaign::Event> = serde_json::from_str(&row.events)
                            .unwrap_or_else(|e| {
                                panic!("a batch that does not read was taken: {e}")
                            });
                        assert!(
                            *events == sent,
                            "the league's batch {} is held with other events",
                            row.seq
                        );
                    } else {
                        assert!(
                            events.is_empty() && label.starts_with("Left out: "),
                            "the league's batch {} is held as {label:?}",
                            row.seq
                        );
                        left += 1;
                    }
                }
                assert!(
                    left == left_out.len(),
                    "{left} batches left out, {} said: {left_out:?}",
                    left_out.len()
                );
                let verified = session
                    .verify()
                    .unwrap_or_else(|e| panic!("a synced campaign does not read: {e:#}"));
                assert!(
                    verified.problems.is_empty(),
                    "a synced campaign does not verify: {:?}",
                    verified.problems
                );
            }
        }
    }
    let log = league_state(&session).log;
    let from = usize::try_from(first - 1).unwrap_or(0);
    let to = usize::try_from(last).unwrap_or(0).min(log.len());
    Ok(TakenIn::Taken(log[from.min(to)..to].to_vec()))
}

/// Arbitrary bytes as the batches a laptop fetches from the league's
/// server (JSON lines, one row each, see [`league_rows`]), taken in as
/// `rapsheet league sync` takes them in, with no server: by the organiser's
/// laptop holding the league's whole log, in one sync and again in two
/// (every laptop decides the same from the same log: both hold the same
/// batches), and by one with changes not yet sent, made again after the
/// league's (every conflict chosen in turn). Each sync takes the batches,
/// each in its place, or is refused with the campaign unchanged; a synced
/// campaign verifies.
pub fn league_batch(dir: &Path, data: &[u8]) -> std::io::Result<()> {
    let campaigns = league_campaigns(dir)?;
    let rows = league_rows(data, campaigns.head);
    if rows.is_empty() {
        return Ok(());
    }
    let case = fresh(dir, "league")?;
    let whole = take_in_rows(
        &case.join("one.rapsheet"),
        &campaigns.synced,
        &rows,
        &[rows.len()],
        0,
        0,
    )?;
    if rows.len() > 1 {
        let half = rows.len() / 2;
        let split = take_in_rows(
            &case.join("two.rapsheet"),
            &campaigns.synced,
            &rows,
            &[half, rows.len() - half],
            0,
            0,
        )?;
        if let (TakenIn::Taken(one), TakenIn::Taken(two)) = (&whole, &split) {
            assert!(
                one == two,
                "a laptop that fetched the batches in two syncs holds another log: {one:?} then {two:?}"
            );
        }
    }
    let own = own_rows(&rows, campaigns.head, campaigns.unsent_count);
    take_in_rows(
        &case.join("unsent.rapsheet"),
        &campaigns.unsent,
        &rows,
        &[rows.len()],
        own,
        data.len(),
    )?;
    std::fs::remove_dir_all(&case)
}

/// The batches of `session`'s log after `after` as the league's server
/// hands them to a laptop that fetches them: the league target's input,
/// one row a line, each named `uid(id)` and sent by `author`, its events
/// written as a sync sends them.
pub fn league_lines(
    session: &Session,
    after: i64,
    author: &str,
    uid: &dyn Fn(i64) -> String,
) -> anyhow::Result<Vec<u8>> {
    let bundle = session.export_whole_bundle()?;
    let log = bundle
        .log
        .map(|l| l.batches())
        .transpose()?
        .unwrap_or_default();
    let mut out = Vec::new();
    for batch in log.iter().filter(|b| b.id.0 > after) {
        let row = serde_json::json!({
            "uid": uid(batch.id.0),
            "author": author,
            "received": "2026-11-28T12:00:00.000000Z",
            "at": batch.at,
            "label": batch.label,
            "undoes": batch.undoes.map(|u| u.0),
            "events": serde_json::to_string(&batch.events)?,
        });
        serde_json::to_writer(&mut out, &row)?;
        out.push(b'\n');
    }
    Ok(out)
}

/// The batches left out where the organiser's laptop of the league target
/// ([`league_campaigns`]) takes in `data` in one sync; an error where the
/// sync is refused.
pub fn league_left_out(dir: &Path, data: &[u8]) -> anyhow::Result<Vec<String>> {
    let campaigns = league_campaigns(dir)?;
    let case = fresh(dir, "league-left-out")?;
    let path = case.join("campaign.rapsheet");
    std::fs::write(&path, &campaigns.synced)?;
    let left_out = {
        let mut session = Session::open(&path)?;
        session
            .take_in_fetched(league_rows(data, campaigns.head), &[])?
            .map_err(|c| anyhow::anyhow!("{} conflicts", c.len()))?
    };
    std::fs::remove_dir_all(&case)?;
    Ok(left_out)
}

/// Which doors took one change in: the sync (a batch the league's server
/// hands a laptop), a whole campaign's bundle carrying it as its newest
/// batch, and a merge of another copy that holds it (only where the
/// bundle made that copy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Doors {
    pub sync: bool,
    pub bundle: bool,
    pub merge: Option<bool>,
}

/// One change (the first row of `row`, read as [`league_rows`] reads the
/// league target's input) through the three doors a change comes in by,
/// each from the same campaign (the league target's synced one); `None`
/// where the input holds no row. The sync reads a time that is not one as
/// the server's (always one), so the bundle is given the time the sync
/// kept. Whatever the sync took in, the campaign's own whole bundle makes
/// it again.
pub fn three_doors(dir: &Path, row: &[u8]) -> std::io::Result<Option<Doors>> {
    let campaigns = league_campaigns(dir)?;
    let Some(batch) = league_rows(row, campaigns.head).into_iter().next() else {
        return Ok(None);
    };
    let case = fresh(dir, "doors")?;
    let doors = (|| -> anyhow::Result<Doors> {
        // The sync.
        let synced = case.join("synced.rapsheet");
        std::fs::write(&synced, &campaigns.synced)?;
        let mut session = Session::open(&synced)?;
        let before = session.export_whole_bundle()?;
        let sync = match session.take_in_fetched(vec![batch.clone()], &[])? {
            Ok(left_out) => left_out.is_empty(),
            Err(_) => false,
        };
        let again = serde_json::to_vec(&session.export_whole_bundle()?)?;
        Session::create_from_bundle(&case.join("again.rapsheet"), &again)
            .map_err(|e| anyhow::anyhow!("what the sync took in does not travel: {e:#}"))?;
        // The bundle: the same campaign's log with the change after it.
        let mut bundle = before;
        let at = if crate::campaign::gate::is_time(&batch.at) {
            batch.at.clone()
        } else {
            batch.received.clone()
        };
        let events = serde_json::from_str::<Vec<serde_json::Value>>(&batch.events);
        let made = case.join("bundled.rapsheet");
        let bundled = match (events, bundle.log.as_mut()) {
            (Ok(events), Some(log)) => {
                log.batches.push(crate::campaign::bundle::BundleBatch {
                    id: batch.seq,
                    at,
                    label: batch.label.clone(),
                    undoes: batch.undoes,
                    events,
                });
                Session::create_from_bundle(&made, &serde_json::to_vec(&bundle)?).is_ok()
            }
            _ => false,
        };
        // The merge: the copy the bundle made, into the campaign as it was.
        let merge = if bundled {
            let ours = case.join("ours.rapsheet");
            let plain = {
                let mut plain = bundle.clone();
                if let Some(log) = plain.log.as_mut() {
                    log.batches.pop();
                }
                serde_json::to_vec(&plain)?
            };
            let ours = Session::create_from_bundle(&ours, &plain)?;
            let merged = ours
                .plan_merge(&made)
                .and_then(|merge| ours.write_merge(&merge, &[], &case.join("merged.rapsheet")));
            Some(merged.is_ok())
        } else {
            None
        };
        Ok(Doors {
            sync,
            bundle: bundled,
            merge,
        })
    })();
    std::fs::remove_dir_all(&case)?;
    Ok(Some(doors.unwrap_or_else(|e| {
        panic!("a door could not be tried: {e:#}")
    })))
}
