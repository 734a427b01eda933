//! One gate at every door: a change comes in by a sync exactly when the
//! same change would come in as the newest batch of a whole campaign's
//! bundle, and a copy made by that bundle merges. Random hostile changes
//! (names and labels in every script, with control characters, past
//! their length or empty; times that are not times; numbers at the ends
//! of their range; ids that are no one's; values that are not what the
//! campaign holds) go through all three (`rapsheet::fuzzing::three_doors`),
//! seeded, so every run tries the same.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// A text a player or an attacker might give a name, label or reason.
fn text(rng: &mut ChaCha8Rng) -> String {
    match rng.random_range(0..10) {
        0 => String::new(),
        1 => "Ashen Hounds".to_owned(),
        2 => "灰色の猟犬 🐺".to_owned(),
        3 => "\u{202e}sdnuoH nehsA".to_owned(),
        4 => "Tab\there".to_owned(),
        5 => "Null\u{0}byte".to_owned(),
        6 => "L".repeat(rng.random_range(90..400)),
        7 => "  padded  ".to_owned(),
        8 => "e\u{301}clair".to_owned(),
        _ => format!("Name {}", rng.random_range(0..1000)),
    }
}

/// A number at the ends of its range, or an ordinary one.
fn number(rng: &mut ChaCha8Rng) -> Value {
    match rng.random_range(0..8) {
        0 => json!(i64::MAX),
        1 => json!(i64::MIN),
        2 => json!(-1),
        3 => json!(1_000_000_000),
        4 => json!(0.5),
        _ => json!(rng.random_range(0..20)),
    }
}

/// A gang's id: the demo's two, or one that is no one's.
fn gang(rng: &mut ChaCha8Rng) -> Value {
    json!([1, 2, 2, 999][rng.random_range(0..4)])
}

/// What a resource held, or a number at the ends of its range.
fn from_number(rng: &mut ChaCha8Rng) -> Value {
    if rng.random_range(0..2) == 0 {
        json!(0)
    } else {
        number(rng)
    }
}

/// A fighter's id: two of the demo's, or one that is no one's.
fn fighter(rng: &mut ChaCha8Rng) -> Value {
    json!([2, 5, 999][rng.random_range(0..3)])
}

/// One of `choices`.
fn pick<'a>(rng: &mut ChaCha8Rng, choices: &[&'a str]) -> &'a str {
    choices[rng.random_range(0..choices.len())]
}

/// One event of a kind a player's change makes, with hostile values.
fn event(rng: &mut ChaCha8Rng) -> Value {
    match rng.random_range(0..6) {
        0 => json!({"type": "gang_renamed", "gang": gang(rng),
            "from": pick(rng, &["Neon Jackals", "The Rust Saints", "Nobody"]),
            "to": text(rng)}),
        1 => json!({"type": "gang_notes_changed", "gang": gang(rng), "from": "", "to": text(rng)}),
        2 => json!({"type": "resource_adjusted", "gang": gang(rng),
            "resource": pick(rng, &["ammo", "supply", "gold", ""]),
            "from": from_number(rng),
            "to": number(rng), "reason": text(rng)}),
        3 => json!({"type": "fighter_renamed", "fighter": fighter(rng),
            "from": pick(rng, &["Brick", "Dross", "Nobody"]), "to": text(rng)}),
        4 => json!({"type": "campaign_renamed", "from": text(rng), "to": text(rng)}),
        _ => json!({"type": "fighter_notes_changed", "fighter": 2, "from": "", "to": text(rng)}),
    }
}

/// A batch the league's server hands a laptop, one line.
fn row(rng: &mut ChaCha8Rng, case: u64) -> Vec<u8> {
    let at = match rng.random_range(0..5) {
        0 => "yesterday".to_owned(),
        1 => String::new(),
        _ => "2026-11-28T12:00:00Z".to_owned(),
    };
    let events: Vec<Value> = (0..rng.random_range(1..3)).map(|_| event(rng)).collect();
    let row = json!({
        "uid": format!("door-{case}"),
        "label": text(rng),
        "at": at,
        "events": serde_json::to_string(&events).unwrap(),
    });
    serde_json::to_vec(&row).unwrap()
}

#[test]
fn a_change_comes_in_by_a_sync_exactly_when_it_would_by_a_bundle_or_a_merge() {
    let dir = tempfile::tempdir().unwrap();
    let mut taken = 0;
    for case in 0..96 {
        let mut rng = ChaCha8Rng::seed_from_u64(case);
        let row = row(&mut rng, case);
        let doors = rapsheet::fuzzing::three_doors(dir.path(), &row)
            .unwrap()
            .expect("a row");
        let shown = String::from_utf8_lossy(&row);
        assert_eq!(
            doors.sync,
            doors.bundle,
            "case {case}: the sync {} what a bundle {}: {shown}",
            if doors.sync { "took" } else { "left out" },
            if doors.bundle { "takes" } else { "refuses" },
        );
        if let Some(merged) = doors.merge {
            assert!(
                merged,
                "case {case}: a copy the bundle made does not merge: {shown}"
            );
        }
        taken += usize::from(doors.sync);
    }
    // The cases are shaped so that some go in and some do not.
    assert!((10..86).contains(&taken), "{taken} of 96 went in");
}
