#![allow(clippy::unwrap_used, clippy::expect_used)]

//! How long the story of a 100-battle arc takes: reading the chronicle
//! from the log, narrowing it to the arc, and rendering it as Markdown and
//! JSON. The campaign is built once, outside the timing: the demo gangs on
//! plain Heartbreaker play a First Blood, 98 Score to Settle battles and a
//! Heartbreaker, each with takedowns and bounties.
//!
//! `cargo bench --bench export` (add `-- --quick` for a fast look).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rapsheet::campaign::battle::{BattleReport, TitleChoiceReport};
use rapsheet::export::{self, Export};
use rapsheet::session::Session;
use serde_json::{Value, json};

const SAINTS: &str = "The Rust Saints";
const JACKALS: &str = "Neon Jackals";
const SAINTS_FIGHTERS: [&str; 6] = [
    "Mother Cinder",
    "Brick",
    "Saint Vitriol",
    "Hollow Jack",
    "Dross",
    "Sister Slag",
];
const JACKALS_FIGHTERS: [&str; 6] = [
    "Vex Ninefingers",
    "Static",
    "Hush",
    "Gutterglass",
    "Pipebomb Pell",
    "Wren",
];

/// Records a battle, answering any title choice with the first title
/// offered.
fn record(session: &mut Session, value: Value, seed: u64) {
    let mut report: BattleReport = serde_json::from_value(value).expect("report");
    let preview = session
        .preview_battle(&report, seed)
        .expect("preview")
        .into_procedure();
    for needed in preview.needed {
        assert_eq!(needed.field, "titles", "a choice left out: {needed:?}");
        report.titles.push(TitleChoiceReport {
            gang: needed.gang,
            title: needed.options[0].clone(),
        });
    }
    session.record_battle(&report, seed).expect("record");
}

/// Both gangs' fighters as a report lists them: one of each gang taken
/// down by a rival, turn and turn about.
fn fighters(n: usize) -> (Value, Value) {
    let list = |names: [&str; 6], downed: usize, by: &str| -> Value {
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                if i == downed {
                    json!({"fighter": name, "outcome": "taken_down", "downed_by": by})
                } else {
                    json!({"fighter": name})
                }
            })
            .collect()
    };
    let saints = list(SAINTS_FIGHTERS, n % 6, JACKALS_FIGHTERS[(n + 1) % 6]);
    let jackals = list(JACKALS_FIGHTERS, (n + 2) % 6, SAINTS_FIGHTERS[(n + 3) % 6]);
    (saints, jackals)
}

fn bounties(n: usize) -> Value {
    json!([
        {"by": SAINTS, "fighter": JACKALS_FIGHTERS[(n + 4) % 6]},
        {"by": JACKALS, "fighter": SAINTS_FIGHTERS[(n + 5) % 6]},
    ])
}

/// A campaign whose arc 1 is 100 battles long.
fn campaign(dir: &std::path::Path) -> Session {
    let mut s = Session::create_demo(&dir.join("bench.rapsheet")).expect("demo");
    s.set_campaign_ruleset("heartbreaker")
        .expect("plain Heartbreaker");
    let saints = s.gang_named(SAINTS).expect("gang").id;
    let jackals = s.gang_named(JACKALS).expect("gang").id;

    let (sf, jf) = fighters(0);
    record(
        &mut s,
        json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "counts": {"caches": 3}, "fighters": sf},
                {"gang": JACKALS, "counts": {"caches": 2}, "fighters": jf},
            ],
            "winner": SAINTS,
            "bounties": bounties(0),
        }),
        1,
    );
    for n in 1..=98_usize {
        let (saints_role, jackals_role) = s
            .suggest_roles("Catch and Release", saints, jackals)
            .expect("roles")
            .expect("the previous battle had a winner");
        let winner = if n.is_multiple_of(3) { SAINTS } else { JACKALS };
        let (sf, jf) = fighters(n);
        record(
            &mut s,
            json!({
                "scenario": "Catch and Release",
                "gangs": [
                    {"gang": SAINTS, "role": saints_role, "fighters": sf},
                    {"gang": JACKALS, "role": jackals_role, "fighters": jf},
                ],
                "winner": winner,
                "bounties": bounties(n),
                "notes": format!("Round {n} of the feud."),
            }),
            n as u64 + 1,
        );
    }
    let (sf, jf) = fighters(99);
    record(
        &mut s,
        json!({
            "scenario": "Winner Takes All",
            "gangs": [
                {"gang": SAINTS, "counts": {"loot": 9}, "fighters": sf},
                {"gang": JACKALS, "counts": {"loot": 6}, "fighters": jf},
            ],
            "winner": SAINTS,
            "choices": [{"gang": SAINTS, "rule": "winner", "pick": "supply"}],
            "bounties": bounties(99),
        }),
        100,
    );
    let story = s.chronicle().expect("chronicle");
    assert_eq!(story.arcs.len(), 1);
    assert_eq!(story.arcs[0].battles.len(), 100);
    assert!(
        story.arcs[0].closed,
        "the Heartbreaker battle closes the arc"
    );
    s
}

fn bench_export(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let session = campaign(dir.path());
    let name = session.info().expect("info").name;
    let mut group = c.benchmark_group("export");
    group.bench_function("100-battle arc", |b| {
        b.iter(|| {
            let story = session.chronicle().expect("chronicle");
            let arc = session
                .arc_story(&story, 1)
                .expect("arc story")
                .expect("arc 1");
            let export = Export {
                campaign: &name,
                scope: "arc 1".to_owned(),
                chronicle: &arc,
            };
            let md = export::markdown(black_box(&export));
            let js = export::json(black_box(&export)).expect("json");
            (md.len(), js.len())
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench_export
}
criterion_main!(benches);
