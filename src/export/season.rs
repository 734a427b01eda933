//! A season a club can read: the standings, who holds which holding, each
//! cycle's records with their places and what changed hands, and the
//! titles at the end of each cycle — one page for the pub wall, as
//! Markdown, HTML, PDF or JSON. Pure text building, through the same
//! escaping writers as the chronicle.

use serde::Serialize;

use super::{ExportError, Format, markdown_of, pretty_json};
use crate::print::DocLine;
use crate::session::{SeasonReport, StandingsView};

/// The JSON export's version; bumped whenever its shape changes.
pub const SEASON_JSON_VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonSeason<'a> {
    format: &'static str,
    version: u32,
    #[serde(flatten)]
    season: &'a SeasonReport,
}

/// The season as bytes in a format (a PDF on `page` paper).
pub fn render_season(
    report: &SeasonReport,
    format: Format,
    page: crate::print::PageSize,
) -> Result<Vec<u8>, ExportError> {
    let title = format!("{} — {}", report.campaign, report.title);
    Ok(match format {
        Format::Markdown => markdown_of(&title, season_lines(report)).into_bytes(),
        Format::Html => super::html_of(&title, season_lines(report)).into_bytes(),
        Format::Json => pretty_json(&JsonSeason {
            format: "rapsheet-season",
            version: SEASON_JSON_VERSION,
            season: report,
        })?
        .into_bytes(),
        Format::Pdf => crate::print::document_pdf_on(&title, season_lines(report), page)?,
    })
}

/// The season as lines: the one reading the Markdown, HTML and PDF
/// writers share.
pub fn season_lines(report: &SeasonReport) -> Vec<DocLine> {
    let mut out = Vec::new();
    if let Some(standings) = &report.standings {
        standings_lines(standings, &mut out);
    }
    if !report.holdings.holdings.is_empty() {
        out.push(DocLine::Heading(crate::text::capitalised(
            &report.holdings.words,
        )));
        for h in &report.holdings.holdings {
            let holder = h.holder.as_deref().unwrap_or("unclaimed");
            out.push(DocLine::Bullet(format!("{}: {holder}", h.name)));
        }
    }
    for cycle in &report.cycles {
        out.push(DocLine::Heading(cycle.said.clone()));
        for record in &cycle.records {
            out.push(DocLine::Bullet(record.clone()));
        }
        if !cycle.titles.is_empty() {
            out.push(DocLine::Text(format!(
                "As {} ended: {}.",
                cycle.said,
                cycle.titles.join("; ")
            )));
        }
    }
    out
}

/// The standings, a line a gang: place, name, faction, each measure.
fn standings_lines(view: &StandingsView, out: &mut Vec<DocLine>) {
    out.push(DocLine::Heading(view.label.clone()));
    for line in &view.lines {
        let (place, rest) = view.said(line);
        out.push(DocLine::Bullet(format!("{place}. {rest}")));
    }
}
