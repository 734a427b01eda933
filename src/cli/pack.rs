//! `rapsheet rulesets`, `rapsheet check-pack` and `rapsheet house`.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::Subcommand;
use serde::Serialize;

use super::print_json;
use crate::rules::Pack;
use crate::session::{Session, builtin_registry};

/// House rules kept in the campaign.
#[derive(Debug, Subcommand)]
pub enum HouseCommand {
    /// Keep a pack file of the group's own in the campaign (or change the
    /// one kept under its id): every laptop that opens the campaign reads
    /// it, labelled house rules.
    Keep { file: PathBuf },
    /// Take a house pack out of the campaign (refused while a gang plays
    /// it).
    Drop { id: String },
    /// The house packs the campaign keeps.
    List {
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn house(session: &mut Session, command: HouseCommand) -> Result<()> {
    match command {
        HouseCommand::Keep { file } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read the pack {}", file.display()))?;
            let (_, id) = session.keep_house_pack(&file.display().to_string(), &text)?;
            let name = session.pack(&id)?.pack.name.clone();
            say!("Kept house rules {name} ({id}) in the campaign");
        }
        HouseCommand::Drop { id } => {
            let name = session.pack(&id)?.pack.name.clone();
            session.drop_house_pack(&id)?;
            say!("Took house rules {name} ({id}) out of the campaign");
        }
        HouseCommand::List { json } => {
            let packs = session.house_packs()?;
            if json {
                return print_json(&packs);
            }
            if packs.is_empty() {
                say!("The campaign keeps no house rules");
            }
            for p in packs {
                let base = p
                    .base
                    .as_deref()
                    .and_then(|b| session.pack(b).ok())
                    .map(|b| format!(", changes {}", b.pack.name))
                    .unwrap_or_default();
                let played = if p.played_by.is_empty() {
                    String::new()
                } else {
                    format!("; played by {}", p.played_by.join(", "))
                };
                say!("{} ({}){base}{played}", p.name, p.id);
            }
        }
    }
    for warning in session.house_warnings() {
        say_err!("warning: {warning}");
    }
    Ok(())
}

#[derive(Serialize)]
struct PackSummary<'a> {
    id: &'a str,
    name: &'a str,
    format: u32,
    version: &'a str,
    house_rules: bool,
    base: Option<&'a str>,
    stats: usize,
    resources: usize,
    quirks: usize,
    constraints: usize,
    rulings: usize,
}

fn summary(pack: &Pack) -> PackSummary<'_> {
    PackSummary {
        id: &pack.pack.id,
        name: &pack.pack.name,
        format: pack.pack.format,
        version: &pack.pack.version,
        house_rules: pack.pack.house_rules,
        base: pack.pack.base.as_deref(),
        stats: pack.stats.len(),
        resources: pack.resources.len(),
        quirks: pack.quirks.len(),
        constraints: pack.constraints.len(),
        rulings: pack.rulings.len(),
    }
}

fn line(s: &PackSummary<'_>) -> String {
    format!(
        "{} ({}){}: {} stats, {} resources, {} quirks, {} constraints, {} rulings",
        s.name,
        s.id,
        if s.house_rules { ", house rules" } else { "" },
        s.stats,
        s.resources,
        s.quirks,
        s.constraints,
        s.rulings
    )
}

pub(super) fn rulesets(json: bool) -> Result<()> {
    let registry = builtin_registry()?;
    let packs: Vec<_> = registry.packs().map(summary).collect();
    if json {
        return print_json(&packs);
    }
    for p in &packs {
        say!("{}", line(p));
    }
    Ok(())
}

pub(super) fn check_pack(file: &Path, json: bool) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let registry = builtin_registry()?;
    let pack = registry.load_text(&file.display().to_string(), &text)?;
    if json {
        return print_json(&summary(&pack));
    }
    say!("ok: {}", line(&summary(&pack)));
    Ok(())
}
