#![allow(clippy::unwrap_used, clippy::expect_used)]

//! How long a PDF of 500 fighter cards takes: the demo's twelve cards,
//! renamed and varied, on poker cards with write-in boxes on A4.
//!
//! `cargo bench --bench cards` (add `-- --quick` for a fast look).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rapsheet::print::{CardData, CardSize, CardStyle, PageSize, cards_pdf};
use rapsheet::session::Session;

/// A 1 × 1 RGB PNG, for the cards that carry a photo.
const TINY_PNG: [u8; 69] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63, 0x38, 0xE0, 0xA0, 0x00,
    0x00, 0x02, 0xE4, 0x01, 0x21, 0xBF, 0xD8, 0x1B, 0x64, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
    0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// 500 cards from the demo's 12: each renamed, every third with a lasting
/// effect, every tenth with a photo, every seventh with a long name.
fn cards(n: usize) -> Vec<CardData> {
    let dir = tempfile::tempdir().expect("temp dir");
    let session = Session::create_demo(&dir.path().join("bench.rapsheet")).expect("demo");
    let mut demo = Vec::new();
    for gang in session.gangs().expect("gangs") {
        demo.extend(session.cards(gang.id, &[]).expect("cards"));
    }
    assert_eq!(demo.len(), 12);
    (0..n)
        .map(|i| {
            let mut card = demo[i % demo.len()].clone();
            card.name = if i.is_multiple_of(7) {
                format!("{} the Unrepentant of the Ninth Furnace, #{i}", card.name)
            } else {
                format!("{} {i}", card.name)
            };
            if i.is_multiple_of(3) {
                card.lasting
                    .push(format!("Crushed Hand: −1 Punch until healed (battle {i})"));
            }
            if i.is_multiple_of(10) {
                card.photo = Some(TINY_PNG.to_vec());
            }
            card
        })
        .collect()
}

fn bench_cards(c: &mut Criterion) {
    let cards = cards(500);
    let style = CardStyle {
        size: CardSize::Poker,
        write_in: true,
        ..CardStyle::default()
    };
    let mut group = c.benchmark_group("cards");
    group.bench_function("500", |b| {
        b.iter(|| cards_pdf(black_box(&cards), 0, PageSize::A4, style).expect("pdf"));
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    targets = bench_cards
}
criterion_main!(benches);
