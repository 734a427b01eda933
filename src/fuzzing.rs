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
