//! The demo campaigns' gangs, read from `assets/demo/*.toml`: the first is
//! the demo a first run opens; each names the pack it is played with.
//!
//! Pure: this turns the embedded demo data into commands' inputs; the
//! caller commits them.

use serde::Deserialize;

use super::QuirkPick;
use super::commands::{CommandError, NewFighter, resolve_quirks};
use crate::rules::Pack;

/// The demos, the default first.
const DEMOS: &[&str] = &[
    include_str!("../../assets/demo/heartbreaker.toml"),
    include_str!("../../assets/demo/wayfarer.toml"),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoFile {
    campaign: String,
    ruleset: String,
    gangs: Vec<DemoGangFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoGangFile {
    name: String,
    #[serde(default)]
    notes: String,
    fighters: Vec<DemoFighterFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoFighterFile {
    name: String,
    #[serde(default)]
    leader: bool,
    quirks: Vec<String>,
    #[serde(default)]
    notes: String,
    /// The fighter's own base stats (`{ melee_off = 3 }`).
    #[serde(default)]
    base: std::collections::BTreeMap<String, i64>,
}

/// A demo gang ready to found and recruit.
#[derive(Debug, Clone)]
pub struct DemoGang {
    pub name: String,
    pub notes: String,
    pub fighters: Vec<NewFighter>,
}

/// The demo: campaign name, ruleset id and its gangs.
#[derive(Debug, Clone)]
pub struct Demo {
    pub campaign: String,
    pub ruleset: String,
    pub gangs: Vec<DemoGang>,
}

#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("demo data: {0}")]
    Parse(String),
    #[error("demo data: {0}")]
    Quirk(#[from] CommandError),
}

/// The ruleset id the default demo is written for.
pub fn ruleset() -> Result<String, DemoError> {
    parse(DEMOS[0]).map(|d| d.ruleset)
}

/// The rulesets there is a demo for, the default first.
pub fn rulesets() -> Result<Vec<String>, DemoError> {
    DEMOS.iter().map(|d| parse(d).map(|f| f.ruleset)).collect()
}

fn parse(text: &str) -> Result<DemoFile, DemoError> {
    toml::from_str(text).map_err(|e| DemoError::Parse(e.to_string()))
}

/// The demo played with `pack`, resolved against it; `None` where there
/// is none.
pub fn demo(pack: &Pack) -> Result<Option<Demo>, DemoError> {
    for text in DEMOS {
        let file = parse(text)?;
        if file.ruleset == pack.pack.id {
            return resolve(file, pack).map(Some);
        }
    }
    Ok(None)
}

fn resolve(file: DemoFile, pack: &Pack) -> Result<Demo, DemoError> {
    let gangs = file
        .gangs
        .into_iter()
        .map(|g| {
            let fighters = g
                .fighters
                .into_iter()
                .map(|f| {
                    let quirks: Vec<QuirkPick> = resolve_quirks(pack, &f.quirks)?;
                    Ok(NewFighter {
                        name: f.name,
                        leader: f.leader,
                        quirks,
                        notes: f.notes,
                        base: f.base,
                    })
                })
                .collect::<Result<Vec<_>, DemoError>>()?;
            Ok(DemoGang {
                name: g.name,
                notes: g.notes,
                fighters,
            })
        })
        .collect::<Result<Vec<_>, DemoError>>()?;
    Ok(Demo {
        campaign: file.campaign,
        ruleset: file.ruleset,
        gangs,
    })
}
