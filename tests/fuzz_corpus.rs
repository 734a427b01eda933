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

#[test]
fn league_batch_corpus_is_taken_in_or_refused_with_the_campaign_unchanged() {
    let dir = tempfile::tempdir().expect("temp dir");
    replay("league_batch", |data| {
        fuzzing::league_batch(dir.path(), data).expect("the temp dir works")
    });
}

/// The kept real batches (`seed-real-*`) are batches another laptop of
/// the league target's campaign sent: were the demo to change, they would
/// be left out and the corpus would test nothing but leaving out.
#[test]
fn league_batch_corpus_holds_batches_the_league_takes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let real: Vec<_> = inputs("league_batch")
        .into_iter()
        .filter(|(path, _)| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("seed-real-"))
        })
        .collect();
    assert!(real.len() >= 3, "only {} real batches kept", real.len());
    for (path, bytes) in real {
        let left_out = fuzzing::league_left_out(dir.path(), &bytes);
        assert!(
            left_out.as_ref().is_ok_and(Vec::is_empty),
            "{}: {left_out:?}",
            path.display()
        );
    }
}

#[test]
fn draft_corpus_is_read_back_by_the_window_without_a_panic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut window = fuzzing::DraftWindow::new(dir.path()).expect("the window");
    replay("draft", |data| {
        window.draft(data).expect("the temp dir works")
    });
}

/// Writes the draft target's seeds (`fuzz/corpus/draft/seed-*`): the form
/// the Record screen keeps for the demo, and hostile shapes made from it
/// by hand. Run with
/// `cargo test --test fuzz_corpus -- --ignored write_draft_seeds`.
#[test]
#[ignore = "writes the seeds"]
fn write_draft_seeds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/draft");
    std::fs::create_dir_all(&corpus).unwrap();
    let mut window = fuzzing::DraftWindow::new(dir.path()).unwrap();
    window.draft(b"()").unwrap();
    let real = String::from_utf8(window.kept().unwrap().expect("a form kept")).unwrap();
    assert!(real.contains("gangs:[Some(2),Some(1)]"), "{real}");
    let swap = |from: &str, to: &str| {
        assert!(real.contains(from), "{from} in {real}");
        real.replacen(from, to, 1)
    };
    let seeds = [
        ("seed-real.ron", real.clone()),
        (
            "seed-no-lists.ron",
            "(gangs: [Some(1), Some(2)], seed: 42)".to_owned(),
        ),
        (
            "seed-winner-past.ron",
            swap("winner:None", "winner:Some(5)"),
        ),
        (
            "seed-notes.ron",
            swap("notes:\"\"", "notes:\"fog on the bridge\""),
        ),
        (
            "seed-choice-past.ron",
            swap("choices:{}", "choices:{(7,\"x\"):\"y\"}"),
        ),
        ("seed-no-fighter.ron", swap("absent:[]", "absent:[9999]")),
        (
            "seed-no-gang.ron",
            swap("gangs:[Some(2),Some(1)]", "gangs:[Some(77),Some(1)]"),
        ),
        (
            "seed-three-sides.ron",
            swap("gangs:[Some(2),Some(1)]", "gangs:[Some(2),Some(1),Some(2)]"),
        ),
        ("seed-other-game.ron", swap("scenario:\"", "scenario:\"x-")),
        (
            "seed-counter.ron",
            swap(
                "counters:{}",
                "counters:{(1,\"bounty\"):9223372036854775807}",
            ),
        ),
        ("seed-empty.ron", "()".to_owned()),
    ];
    for (name, text) in seeds {
        std::fs::write(corpus.join(name), text).unwrap();
    }
}

/// Writes the league target's seeds (`fuzz/corpus/league_batch/seed-*`,
/// three in `fuzz/regressions/league_batch/`):
/// batches made on another laptop of its campaign, exported as the server
/// hands them, and hostile rows made from them by hand. Run with
/// `cargo test --test fuzz_corpus -- --ignored write_league_batch_seeds`.
#[test]
#[ignore = "writes the seeds"]
fn write_league_batch_seeds() {
    use rapsheet::campaign::battle::BattleReport;

    let dir = tempfile::tempdir().expect("temp dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("fuzz/corpus/league_batch");
    std::fs::create_dir_all(&corpus).unwrap();
    let campaigns = fuzzing::league_campaigns(dir.path()).unwrap();
    let head = campaigns.head;
    let other = |n: i64| format!("ann-{n:04}");
    let mut seeds: Vec<(&str, Vec<u8>)> = Vec::new();

    // Another laptop's changes: each a copy of the league's log, changed.
    let laptop = |name: &str, change: &dyn Fn(&mut Session)| {
        let path = dir.path().join(format!("{name}.rapsheet"));
        std::fs::write(&path, &campaigns.synced).unwrap();
        let mut session = Session::open(&path).unwrap();
        change(&mut session);
        fuzzing::league_lines(&session, head, "ann", &other).unwrap()
    };
    seeds.push((
        "seed-real-renames.jsonl",
        laptop("renames", &|s| {
            let gangs = s.gang_list().unwrap();
            let gang = &gangs[0];
            s.rename_gang(gang.id, &format!("{} of the League", gang.name))
                .unwrap();
            let view = s.gang_view(gang.id).unwrap();
            s.rename_fighter(view.fighters[0].id, "Brûlé").unwrap();
            s.set_gang_notes(gangs[1].id, "Sent from Ann's laptop.")
                .unwrap();
        }),
    ));
    seeds.push((
        "seed-real-resources-undo.jsonl",
        laptop("resources", &|s| {
            let gang = s.gang_list().unwrap()[1].id;
            let resource = s.gang_view(gang).unwrap().resources[0].id.clone();
            s.adjust_resource(gang, &resource, 3, "a crate").unwrap();
            let second = s.adjust_resource(gang, &resource, -1, "spent").unwrap();
            s.undo(second).unwrap();
        }),
    ));
    seeds.push((
        "seed-real-battle.jsonl",
        laptop("battle", &|s| {
            let report: BattleReport = serde_json::from_slice(
                &std::fs::read(root.join("docs/battle-report.in/report.json")).unwrap(),
            )
            .unwrap();
            s.record_battle(&report, 1).unwrap();
        }),
    ));
    seeds.push((
        "seed-real-undo-league.jsonl",
        laptop("undo-league", &|s| {
            s.undo(rapsheet::campaign::BatchId(head)).unwrap();
        }),
    ));
    // This laptop's own unsent batches, sent by a sync cut short, then
    // another laptop's change.
    {
        let path = dir.path().join("own.rapsheet");
        std::fs::write(&path, &campaigns.unsent).unwrap();
        let mut session = Session::open(&path).unwrap();
        let mut own =
            fuzzing::league_lines(&session, head, "organiser", &fuzzing::league_uid).unwrap();
        let gang = session.gang_list().unwrap()[1].id;
        session.set_gang_notes(gang, "After the cut.").unwrap();
        let newest = session.newest_batch().unwrap().unwrap().0;
        own.extend(fuzzing::league_lines(&session, newest - 1, "ann", &other).unwrap());
        seeds.push(("seed-own-then-other.jsonl", own));
    }

    // Hostile rows, each after a real one.
    let real = String::from_utf8(seeds[0].1.clone()).unwrap();
    let first = real.lines().next().unwrap().to_owned();
    let events = |text: &str| {
        let row = serde_json::json!({ "uid": "hostile-1", "label": "hostile", "events": text });
        format!("{first}\n{row}\n")
    };
    let row = |value: serde_json::Value| format!("{first}\n{value}\n");
    let hostile = [
        (
            "seed-missing-field.jsonl",
            events(r#"[{"type":"gang_renamed","gang":1,"from":"The Rust Saints"}]"#),
        ),
        (
            "seed-gang-as-string.jsonl",
            events(r#"[{"type":"gang_renamed","gang":"2","from":"Neon Jackals","to":"Two"}]"#),
        ),
        (
            "seed-duplicate-key.jsonl",
            events(r#"[{"type":"gang_renamed","gang":1,"gang":2,"from":"a","to":"b"}]"#),
        ),
        (
            "seed-unknown-type.jsonl",
            events(r#"[{"type":"gang_exploded","gang":1}]"#),
        ),
        (
            "seed-events-not-a-list.jsonl",
            events(r#"{"type":"gang_renamed"}"#),
        ),
        ("seed-events-not-json.jsonl", events(r#"[{"type":"#)),
        (
            "seed-newer-version.jsonl",
            events(r#"[{"v":99,"type":"gang_renamed","gang":1,"from":"a","to":"b"}]"#),
        ),
        (
            "seed-long-label.jsonl",
            row(
                serde_json::json!({ "uid": "hostile-2", "label": "L".repeat(150_000), "events": "[]" }),
            ),
        ),
        (
            "seed-at-not-a-time.jsonl",
            row(
                serde_json::json!({ "uid": "hostile-3", "at": "the day after tomorrow", "label": "late", "events": "[]" }),
            ),
        ),
        (
            "seed-undoes-itself.jsonl",
            row(
                serde_json::json!({ "uid": "hostile-4", "undoes": head + 2, "label": "itself", "events": "[]" }),
            ),
        ),
        (
            "seed-undoes-max.jsonl",
            row(
                serde_json::json!({ "uid": "hostile-5", "undoes": i64::MAX, "label": "max", "events": "[]" }),
            ),
        ),
        (
            "seed-undoes-zero.jsonl",
            row(
                serde_json::json!({ "uid": "hostile-6", "undoes": 0, "label": "zero", "events": "[]" }),
            ),
        ),
        (
            "seed-unknown-gang.jsonl",
            events(r#"[{"type":"gang_renamed","gang":9999,"from":"a","to":"b"}]"#),
        ),
    ];
    for (name, text) in hostile {
        seeds.push((name, text.into_bytes()));
    }
    // Those a sync once took, leaving a campaign that did not verify.
    let regressions = root.join("fuzz/regressions/league_batch");
    std::fs::create_dir_all(&regressions).unwrap();
    let broke = [
        "seed-long-label.jsonl",
        "seed-at-not-a-time.jsonl",
        "seed-undoes-itself.jsonl",
    ];
    for (name, bytes) in seeds {
        let folder = if broke.contains(&name) {
            &regressions
        } else {
            &corpus
        };
        std::fs::write(folder.join(name), bytes).unwrap();
    }
}
