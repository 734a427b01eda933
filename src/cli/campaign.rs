//! `rapsheet demo`, `new`, `gen`, `verify` and `ruleset`: making a
//! campaign file (the demo, an empty one, a generated one of any size),
//! checking one by replaying its log, and the ruleset its new gangs play.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

use super::{book_default, print_json, registry};
use crate::rules::Noun;
use crate::session::Session;

/// Makes the demo campaign at `db` (of `ruleset`, or the default demo)
/// and lists its gangs.
pub(super) fn demo(db: &Path, ruleset: Option<&str>, packs: &[PathBuf], json: bool) -> Result<()> {
    // The packs given are read (and a broken one refused) whichever demo
    // is made, as every other command reads them.
    let registry = registry(packs)?;
    let made = match ruleset {
        Some(r) => Session::create_demo_with(db, r, registry),
        None => Session::create_default_demo_with(db, registry),
    };
    let session =
        made.with_context(|| format!("cannot create the demo at {}", crate::text::path(db)))?;
    let gangs = session.gang_list()?;
    if json {
        print_json(&gangs)
    } else {
        // In the words of the pack the demo's gangs play.
        let (words, _) = session.campaign_words()?;
        say!(
            "Created {} with {}:",
            crate::text::path(db),
            words.count(gangs.len(), Noun::Gang)
        );
        for g in gangs {
            say!(
                "  {} ({})",
                g.name,
                words.count(g.fighters.unwrap_or(0), Noun::Fighter)
            );
        }
        Ok(())
    }
}

/// Makes an empty campaign called `name` at `db`, playing `ruleset` (the
/// book rules of the primary system unless given).
pub(super) fn new(db: &Path, name: &str, ruleset: Option<String>, packs: &[PathBuf]) -> Result<()> {
    let ruleset = match ruleset {
        Some(r) => r,
        None => book_default(packs)?,
    };
    Session::create_with(db, name, &ruleset, registry(packs)?)?;
    say!("Created {}", crate::text::path(db));
    Ok(())
}

/// Generates a campaign of `size` through the real post-battle procedure
/// (into `db`, made first where there is none), quickly unless `durable`.
pub(super) fn generate(
    db: &Path,
    packs: &[PathBuf],
    size: crate::generator::GenSize,
    durable: bool,
) -> Result<()> {
    let mut session = if db.exists() {
        Session::open_with(db, registry(packs)?)?
    } else {
        let ruleset = book_default(packs)?;
        Session::create_with(db, "Generated campaign", &ruleset, registry(packs)?)?
    };
    session.set_bulk(!durable)?;
    let started = std::time::Instant::now();
    let mut last = std::time::Instant::now();
    crate::generator::generate(&mut session, size, &mut |done, total| {
        if last.elapsed().as_secs() >= 2 || done == total {
            eprintln!("{done}/{total}");
            last = std::time::Instant::now();
        }
    })?;
    session.set_bulk(false)?;
    let (words, record) = session.campaign_words()?;
    say!(
        "Generated {}, {}, {} in {:.1} s",
        words.count(size.gangs, Noun::Gang),
        words.count(size.gangs * size.fighters_per_gang, Noun::Fighter),
        record.count(size.battles),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Replays the campaign's log and says whether its state agrees.
pub(super) fn verify(db: &Path, packs: &[PathBuf]) -> Result<()> {
    let session = Session::open_with(db, registry(packs)?)?;
    let report = session.verify()?;
    if report.is_sound() {
        let records = session.campaign_words().map_or_else(
            |_| report.battles.to_string(),
            |(_, r)| r.count(report.battles),
        );
        say!(
            "{}: sound — {} batches, {} events replayed, {records}, state agrees with the log",
            crate::text::path(db),
            report.batches,
            report.events,
        );
        Ok(())
    } else {
        for problem in &report.problems {
            say_err!("{problem}");
        }
        Err(anyhow::anyhow!(
            "{}: {} problem(s) found",
            crate::text::path(db),
            report.problems.len()
        ))
    }
}

/// The ruleset the campaign's new gangs play from now on.
pub(super) fn ruleset(session: &mut Session, pack: &str) -> Result<()> {
    session.set_campaign_ruleset(pack)?;
    say!("The campaign now plays {}", session.pack(pack)?.pack.name);
    Ok(())
}
