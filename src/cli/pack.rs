//! `rapsheet rulesets` and `rapsheet check-pack`.

use std::path::Path;

use anyhow::{Context as _, Result};
use serde::Serialize;

use super::print_json;
use crate::rules::Pack;
use crate::session::builtin_registry;

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
