#![allow(clippy::unwrap_used, clippy::expect_used)]

//! The decade campaign's chronicle as a PDF (`rapsheet export campaign
//! --format pdf`): 200 gangs of 12 and 5000 battles, over a thousand pages.
//! The figures are the time from the open campaign to the PDF's bytes
//! (reading the chronicle from the log, laying it out, writing the PDF),
//! against 5 s, and the peak memory (`VmHWM`, Linux) of a process that
//! opens the campaign and makes the PDF, against 100 MB.
//!
//! `cargo bench --bench chronicle`; `RAPSHEET_BENCH_CHRONICLE_PDF=file.pdf`
//! keeps the PDF. The generated campaign is kept in the target folder and
//! reused, as the scale bench keeps it.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use rapsheet::export::{Export, Format};
use rapsheet::generator::GenSize;
use rapsheet::session::Session;

#[allow(dead_code)]
#[path = "support/decade.rs"]
mod decade;
#[path = "support/memory.rs"]
mod memory;
use memory::peak_rss_kib;

/// The environment variable that makes the bench make the PDF once, in a
/// process of its own, and say its peak memory.
const MEMORY_RUN: &str = "RAPSHEET_BENCH_CHRONICLE_MEMORY_OF";

/// The campaign's chronicle as a PDF on A4, and its page count.
fn chronicle_pdf(session: &Session) -> (Vec<u8>, usize) {
    let story = session.chronicle().unwrap();
    let name = session.info().unwrap().name;
    let export = Export {
        campaign: &name,
        scope: "campaign".to_owned(),
        chronicle: &story,
    };
    let bytes = rapsheet::export::render(&export, Format::Pdf).unwrap();
    let pages = count_pages(&bytes);
    (bytes, pages)
}

/// The pages of a PDF, by its page objects.
fn count_pages(pdf: &[u8]) -> usize {
    let page = b"/Type/Page";
    pdf.windows(page.len() + 1)
        .filter(|w| w.starts_with(page) && w[page.len()] != b's')
        .count()
}

fn main() {
    if let Ok(path) = std::env::var(MEMORY_RUN) {
        let session = Session::open(Path::new(&path)).unwrap();
        black_box(chronicle_pdf(&session));
        println!("{MEMORY_RUN} {}", peak_rss_kib().unwrap_or(0));
        return;
    }
    // `cargo test --benches` runs every bench once as a test: the decade
    // campaign is made only when measuring.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let original = decade::campaign(GenSize {
        gangs: 200,
        fighters_per_gang: 12,
        battles: 5000,
        seed: 1,
    });
    // A copy: opening a campaign may write beside it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("decade.rapsheet");
    std::fs::copy(&original, &path).unwrap();
    let session = Session::open(&path).unwrap();
    let mut samples: Vec<Duration> = Vec::new();
    let mut pages = 0;
    let mut size = 0;
    for _ in 0..3 {
        let started = Instant::now();
        let (bytes, n) = black_box(chronicle_pdf(&session));
        samples.push(started.elapsed());
        (pages, size) = (n, bytes.len());
    }
    // Kept where asked, to compare the PDF of one build with another's
    // (`pdftotext`, `pdftoppm`).
    if let Ok(keep) = std::env::var("RAPSHEET_BENCH_CHRONICLE_PDF") {
        std::fs::write(keep, chronicle_pdf(&session).0).unwrap();
    }
    drop(session);
    samples.sort();
    let median = samples[samples.len() / 2];
    let memory = memory::memory_of(MEMORY_RUN, &path);
    eprintln!(
        "\n{:<40} {:>12}   target",
        "figure (the decade campaign)", "value"
    );
    eprintln!(
        "{:<40} {:>10.2} s   ≤ 5 s",
        format!(
            "chronicle PDF ({pages} pages, {} KB), median of 3",
            size / 1024
        ),
        median.as_secs_f64()
    );
    match memory {
        Some(kib) => eprintln!(
            "{:<40} {:>9.1} MB   ≤ 100 MB",
            "  peak memory, open + PDF",
            kib as f64 / 1024.0
        ),
        None => eprintln!("  peak memory: not measured (no /proc/self/status)"),
    }
}
