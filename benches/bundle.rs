#![allow(clippy::unwrap_used, clippy::expect_used)]

//! Bringing in a gang bundle costs in step with the gang's fighters
//! (issue 40, point 6): a bundle of one gang of N fighters, read and brought
//! into a new campaign (`Session::import_bundle`: read, checked, every
//! event through the gate, written as one batch), at 100, 1,000 and 10,000
//! fighters (the most a gang of a bundle may carry,
//! `MAX_BUNDLE_FIGHTERS`). The figure is the time per fighter, set against
//! a floor measured in the same run: the time per fighter at 1,000. Linear
//! is near 1× at 10 times the fighters; the quadratic import this replaced
//! was near 10×.
//!
//! `cargo bench --bench bundle`. `cargo test --benches` runs it once on
//! small gangs.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rapsheet::campaign::bundle::MAX_BUNDLE_FIGHTERS;
use rapsheet::session::Session;

/// Each size is measured this many times; the median is kept.
const SAMPLES: usize = 5;

/// The most the time per fighter may grow from the floor to the limit.
const TARGET: f64 = 2.0;

/// A bundle of one gang of `fighters` fighters, each with a note and a
/// counter, as an export writes them.
fn one_gang_of(fighters: usize) -> Vec<u8> {
    let fighters: Vec<serde_json::Value> = (0..fighters)
        .map(|i| {
            serde_json::json!({
                "name": format!("Fighter {i}"),
                "leader": i == 0,
                "notes": format!("Recruited {i}th."),
            })
        })
        .collect();
    serde_json::to_vec(&serde_json::json!({
        "kind": "rapsheet-bundle",
        "format": 1,
        "campaign": "Many",
        "gangs": [{"name": "Horde", "ruleset": "heartbreaker", "fighters": fighters}],
    }))
    .unwrap()
}

/// The median time to bring `bytes` into a new, empty campaign.
fn import_time(bytes: &[u8], samples: usize) -> Duration {
    let mut times: Vec<Duration> = (0..samples)
        .map(|_| {
            let dir = tempfile::tempdir().unwrap();
            let mut session =
                Session::create(&dir.path().join("c.rapsheet"), "Bench", "heartbreaker").unwrap();
            let started = Instant::now();
            black_box(session.import_bundle(bytes).unwrap());
            started.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn per_fighter(took: Duration, fighters: usize) -> f64 {
    took.as_secs_f64() / fighters as f64
}

fn main() {
    // `cargo test --benches` runs every bench once as a test: small gangs.
    let measuring = std::env::args().any(|a| a == "--bench");
    let (sizes, floor_at, samples) = if measuring {
        (vec![100, 1_000, MAX_BUNDLE_FIGHTERS], 1_000, SAMPLES)
    } else {
        (vec![10, 100], 10, 1)
    };
    let rows: Vec<(usize, usize, Duration)> = sizes
        .iter()
        .map(|&n| {
            let bytes = one_gang_of(n);
            (n, bytes.len(), import_time(&bytes, samples))
        })
        .collect();
    let floor = rows
        .iter()
        .find(|(n, _, _)| *n == floor_at)
        .map(|(n, _, took)| per_fighter(*took, *n))
        .unwrap();
    eprintln!(
        "\n{:<44} {:>10} {:>12} {:>9}   target",
        "bring in one gang of a bundle", "total", "per fighter", "× floor"
    );
    let mut worst: f64 = 0.0;
    for (n, size, took) in &rows {
        let ratio = per_fighter(*took, *n) / floor.max(1e-12);
        if *n >= floor_at {
            worst = worst.max(ratio);
        }
        eprintln!(
            "{:<44} {:>8.1} ms {:>9.1} µs {:>8.2}×   {}",
            format!("  {n} fighters ({} KB), median of {samples}", size / 1024),
            took.as_secs_f64() * 1000.0,
            per_fighter(*took, *n) * 1e6,
            ratio,
            if *n == floor_at {
                "floor".to_owned()
            } else if *n > floor_at {
                format!("≤ {TARGET}×")
            } else {
                String::new()
            }
        );
    }
    eprintln!(
        "{:<44} {:>33.2}×   ≤ {TARGET}× ({})",
        "growth of the time per fighter",
        worst,
        if worst <= TARGET { "met" } else { "NOT met" }
    );
}
