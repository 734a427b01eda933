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
    include_str!("../../assets/demo/hwc.toml"),
    include_str!("../../assets/demo/yearzero.toml"),
    include_str!("../../assets/demo/hardwired28.toml"),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoFile {
    campaign: String,
    ruleset: String,
    /// Other packs the same gangs may be played with (the book rules an
    /// override of the demo's is built on): a demo asked for with one of
    /// these is this one, played with it.
    #[serde(default)]
    also: Vec<String>,
    /// The demo group's own data over the pack (what the text does not
    /// print), kept in the campaign as theirs and played.
    #[serde(default)]
    house: Option<DemoHouse>,
    gangs: Vec<DemoGangFile>,
}

/// The demo group's own data, built as the editor builds it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoHouse {
    id: String,
    name: String,
    /// Counter id → its start and most.
    #[serde(default)]
    counters: std::collections::BTreeMap<String, DemoCounter>,
    #[serde(default)]
    tables: Vec<DemoTable>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoCounter {
    start: i64,
    #[serde(default)]
    max: Option<i64>,
}

/// A table of the pack the group fills in, or one of their own (rolled
/// during a record when `during` says when).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoTable {
    id: String,
    #[serde(default)]
    name: String,
    roll: String,
    #[serde(default)]
    during: Option<String>,
    rows: Vec<crate::rules::TableRowDef>,
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
    /// The demo group's own data, to keep in the campaign and play.
    pub house: Option<crate::rules::Draft>,
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
        let mut file = parse(text)?;
        if file.ruleset == pack.pack.id {
            return resolve(file, pack).map(Some);
        }
        if file.also.contains(&pack.pack.id) {
            file.ruleset = pack.pack.id.clone();
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
                        group: None,
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
    let house = file.house.map(|h| house_draft(h, pack)).transpose()?;
    Ok(Demo {
        campaign: file.campaign,
        ruleset: file.ruleset,
        house,
        gangs,
    })
}

/// The demo group's data as a draft over `pack`.
fn house_draft(house: DemoHouse, pack: &Pack) -> Result<crate::rules::Draft, DemoError> {
    let mut draft = crate::rules::Draft::new(&house.id, &house.name, pack);
    for (id, c) in house.counters {
        if !draft.set_counter(pack, &id, Some(c.start), c.max) {
            return Err(DemoError::Parse(format!(
                "no counter `{id}` in {}",
                pack.pack.name
            )));
        }
    }
    for t in house.tables {
        match draft.table_mut(pack, &t.id) {
            Some(table) => {
                table.roll = t.roll;
                table.rows = t.rows;
            }
            None => draft.add_table(
                pack,
                crate::rules::TableDef {
                    id: t.id,
                    name: t.name,
                    roll: t.roll,
                    modifiers: Vec::new(),
                    rows: t.rows,
                    source: String::new(),
                    fill_in: None,
                },
                t.during,
            ),
        }
    }
    Ok(draft)
}
