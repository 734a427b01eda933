//! Every PDF the app makes is one a strict reader takes without a word:
//! `qpdf --check` finds no error and no warning in a chronicle long enough
//! to be made in parts and joined, nor in cards and a roster sheet.
//!
//! Needs qpdf (`sudo apt-get install qpdf`) and poppler-utils.

use crate::util;

use std::path::Path;
use std::process::Command;

use util::{rapsheet, stderr, stdout, temp};

const DB: &str = "c.rapsheet";

fn run_ok(dir: &Path, args: &[&str]) -> String {
    let out = rapsheet(dir, args);
    assert!(
        out.status.success(),
        "rapsheet {args:?} failed: {}",
        stderr(&out)
    );
    stdout(&out)
}

/// `qpdf --check` on a PDF: it must exit 0 (3 is "succeeded with
/// warnings") and say no warning.
fn qpdf_checks(pdf: &Path) {
    let out = match Command::new("qpdf").arg("--check").arg(pdf).output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "`qpdf` is not installed: these tests check every PDF with it \
             (sudo apt-get install qpdf)"
        ),
        Err(e) => panic!("cannot run qpdf: {e}"),
    };
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "qpdf --check {}:\n{said}",
        pdf.display()
    );
    assert!(
        !said.to_lowercase().contains("warning") && !said.to_lowercase().contains("error:"),
        "qpdf --check {}:\n{said}",
        pdf.display()
    );
    assert!(
        said.contains("No syntax or stream encoding errors found"),
        "{said}"
    );
}

/// `Pages:` of `pdfinfo`.
fn pages(pdf: &Path) -> usize {
    let out = Command::new("pdfinfo")
        .arg(pdf)
        .output()
        .expect("pdfinfo (poppler-utils)");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a page count")
}

/// A campaign with many battles: its chronicle runs past a hundred pages,
/// so it is made in parts (a hundred pages each) and joined; the trailer
/// still counts its objects right ("reported number of objects is not
/// one plus the highest object number" was the warning).
#[test]
fn a_chronicle_made_in_parts_passes_qpdf_check_without_a_warning() {
    let dir = temp();
    let d = dir.path();
    run_ok(
        d,
        &[
            "gen",
            "--db",
            DB,
            "--gangs",
            "10",
            "--fighters-per-gang",
            "6",
            "--battles",
            "700",
            "--seed",
            "1",
        ],
    );
    run_ok(
        d,
        &[
            "export",
            "campaign",
            "--db",
            DB,
            "--format",
            "pdf",
            "-o",
            "chronicle.pdf",
        ],
    );
    let pdf = d.join("chronicle.pdf");
    // More than a part's hundred pages: two parts joined at least.
    let n = pages(&pdf);
    assert!(n > 100, "{n} pages: one part only");
    qpdf_checks(&pdf);
}

/// A document of three parts and more (the library's own, as the
/// chronicle's is made): joined twice over, it passes as well.
#[test]
fn a_document_of_many_parts_passes_qpdf_check_without_a_warning() {
    use rapsheet::print::{DocLine, PageSize, document_pdf_on};
    let dir = temp();
    let lines: Vec<DocLine> = (1..=12_000)
        .map(|n| match n % 50 {
            0 => DocLine::Heading(format!("Chapter {n}")),
            1 => DocLine::Subheading(format!("Scene {n}")),
            _ => DocLine::Bullet(format!("Entry {n:05} of the long story")),
        })
        .collect();
    let pdf = dir.path().join("long.pdf");
    std::fs::write(
        &pdf,
        document_pdf_on("The long story", lines, PageSize::Letter).expect("pdf"),
    )
    .unwrap();
    let n = pages(&pdf);
    assert!(n > 200, "{n} pages: three parts at least");
    qpdf_checks(&pdf);
}

/// Cards (with crop marks, with bleed and none, with write-in boxes, with
/// a photo) and a roster sheet are made whole, and pass as well.
#[test]
fn cards_and_a_roster_pass_qpdf_check_without_a_warning() {
    let dir = temp();
    let d = dir.path();
    run_ok(d, &["demo", "--db", DB]);
    std::fs::write(d.join("face.png"), util::TINY_PNG).unwrap();
    run_ok(d, &["fighter", "photo", "Static", "face.png", "--db", DB]);
    let runs: [&[&str]; 4] = [
        &["cards", "-o", "plain.pdf"],
        &["cards", "--write-in", "--bleed", "3", "-o", "bled.pdf"],
        &[
            "cards",
            "--no-crop-marks",
            "--bleed",
            "2",
            "--blank",
            "3",
            "--size",
            "large",
            "-o",
            "guides.pdf",
        ],
        &["roster", "--gang", "Neon Jackals", "-o", "roster.pdf"],
    ];
    for args in runs {
        let mut all = args.to_vec();
        all.extend(["--db", DB]);
        run_ok(d, &all);
        let file = args.last().unwrap();
        qpdf_checks(&d.join(file));
    }
}
