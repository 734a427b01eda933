//! The demo campaign's gangs, read from `assets/demo/heartbreaker.toml`.
//!
//! Pure: this turns the embedded demo data into commands' inputs; the
//! caller commits them.

use serde::Deserialize;

use super::QuirkPick;
use super::commands::{CommandError, NewFighter, resolve_quirks};
use crate::rules::Pack;

const DEMO: &str = include_str!("../../assets/demo/heartbreaker.toml");

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

/// The ruleset id the demo is written for.
pub fn ruleset() -> Result<String, DemoError> {
    parse().map(|d| d.ruleset)
}

fn parse() -> Result<DemoFile, DemoError> {
    toml::from_str(DEMO).map_err(|e| DemoError::Parse(e.to_string()))
}

/// The demo resolved against its pack.
pub fn demo(pack: &Pack) -> Result<Demo, DemoError> {
    let file = parse()?;
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
                        base: Default::default(),
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
