//! Entry points for the fuzz targets in `fuzz/` and for the test that
//! replays their corpora (`tests/fuzz_corpus.rs`): each takes arbitrary
//! bytes and drives one real path that reads what a player or a file hands
//! the program.
//!
//! Refusing an input is fine; a panic is a defect, and so is a broken
//! promise checked here (a dice expression that does not read back as
//! itself, a roll outside its expression's range, a refused campaign file
//! that was written to). No rules are built in: dice conventions come from
//! the shipped packs, the battle campaign from the demo. The only I/O is the
//! campaign-file target's, inside the folder its caller gives it.

use std::path::Path;

use crate::campaign::battle::BattleReport;
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
