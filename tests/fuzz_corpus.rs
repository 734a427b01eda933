//! Replays the fuzz corpora (`fuzz/corpus/<target>/`) and the inputs that
//! once broke something (`fuzz/regressions/<target>/`) through the same
//! entry points the fuzz targets call, so `cargo test` keeps every input
//! the fuzzer found interesting without fuzzing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use rapsheet::fuzzing;
use rapsheet::rules::Registry;
use rapsheet::session::Session;

/// Every kept input of one target, by file.
fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut out = Vec::new();
    for folder in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(folder).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a corpus entry").path();
            let bytes = std::fs::read(&path).expect("a corpus file");
            out.push((path, bytes));
        }
    }
    out.sort();
    out
}

/// Runs `check` on every kept input, naming the files of all that panic.
fn replay(target: &str, mut check: impl FnMut(&[u8])) {
    let inputs = inputs(target);
    assert!(!inputs.is_empty(), "no corpus kept for {target}");
    let mut panics = Vec::new();
    for (path, bytes) in inputs {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&bytes)));
        if outcome.is_err() {
            panics.push(path.display().to_string());
        }
    }
    assert!(panics.is_empty(), "these panic: {panics:#?}");
}

fn registry() -> Registry {
    Registry::builtin().expect("the shipped packs load")
}

#[test]
fn dice_text_corpus_is_read_without_a_panic() {
    let registry = registry();
    replay("dice_text", |data| fuzzing::dice_text(&registry, data));
}

#[test]
fn bundle_corpus_is_read_without_a_panic() {
    replay("bundle", fuzzing::bundle_bytes);
}

#[test]
fn pack_text_corpus_is_loaded_without_a_panic() {
    let registry = registry();
    replay("pack_text", |data| fuzzing::pack_text(&registry, data));
}

#[test]
fn battle_report_corpus_is_previewed_without_a_panic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let session = Session::create_demo(&dir.path().join("demo.rapsheet")).expect("demo campaign");
    replay("battle_report", |data| {
        fuzzing::battle_report(&session, data)
    });
}

#[test]
fn campaign_file_corpus_is_opened_or_refused_without_a_write() {
    let dir = tempfile::tempdir().expect("temp dir");
    replay("campaign_file", |data| {
        fuzzing::campaign_file(dir.path(), data).expect("the temp dir works")
    });
}

#[test]
fn whole_bundle_corpus_makes_a_campaign_that_verifies_or_leaves_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    replay("whole_bundle", |data| {
        fuzzing::whole_bundle(dir.path(), data).expect("the temp dir works")
    });
}

#[test]
fn merge_copy_corpus_merges_or_is_refused_with_both_copies_untouched() {
    let dir = tempfile::tempdir().expect("temp dir");
    replay("merge_copy", |data| {
        fuzzing::merge_copy(dir.path(), data).expect("the temp dir works")
    });
}

/// The kept copies are copies of the merge target's campaign: were the
/// demo to change, they would all be refused as strangers and the corpus
/// would test nothing but that refusal.
#[test]
fn merge_copy_corpus_holds_copies_of_the_merge_campaign() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ours = dir.path().join("ours.rapsheet");
    std::fs::write(&ours, fuzzing::merge_campaign(dir.path()).unwrap()).unwrap();
    let session = Session::open(&ours).unwrap();
    let copies = inputs("merge_copy")
        .into_iter()
        .filter(|(_, bytes)| {
            let theirs = dir.path().join("theirs.rapsheet");
            std::fs::write(&theirs, bytes).unwrap();
            session.plan_merge(&theirs).is_ok()
        })
        .count();
    assert!(copies >= 3, "only {copies} kept copies can be merged");
}
