//! Reads: the state tables and the log, as domain types and view models.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::{CampaignStore, Result, StoreError};
use crate::campaign::battle::{Battle, BattleFighter, BattleGang};
use crate::campaign::titles::TitleHolders;
use crate::campaign::{
    BatchId, BattleId, CampaignInfo, EffectId, Event, Fighter, FighterId, FighterStatus, Gang,
    GangId, LastingEffect, PendingEffect, PendingId, QuirkPick,
};
use crate::rules::Until;

/// One event of the log with its batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    pub id: i64,
    pub batch: BatchId,
    pub at: String,
    pub label: String,
    /// The batch this entry's batch takes back, for undo and redo.
    pub undoes: Option<BatchId>,
    pub event: Event,
    /// Who made the batch, in a league campaign (the member's login).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
}

/// A batch of the log that holds no event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EmptyBatch {
    pub batch: BatchId,
    pub at: String,
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
}

/// The whole state of a campaign, for comparisons (undo restores it
/// exactly) and for export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CampaignDump {
    pub info: CampaignInfo,
    pub gangs: Vec<Gang>,
    pub fighters: Vec<Fighter>,
    pub battles: Vec<Battle>,
    pub titles: TitleHolders,
    pub pending: Vec<PendingEffect>,
    pub lasting: Vec<LastingEffect>,
    /// Fighters dismissed after taking part in the campaign's history,
    /// kept for that history's sake.
    pub dismissed: Vec<Fighter>,
    /// Who holds each holding.
    pub holders: BTreeMap<String, GangId>,
    /// The cycle the campaign is in.
    pub cycle: u32,
    /// Which faction holds each faction title.
    pub faction_titles: BTreeMap<String, String>,
}

pub(super) fn battle(conn: &Connection, id: BattleId) -> Result<Option<Battle>> {
    let row = conn
        .prepare_cached(
            "SELECT id, ruleset, scenario, winner, notes, played, shape, stake, cycle, challenge \
             FROM battle WHERE id = ?1",
        )?
        .query_row([id], |r| {
            Ok((
                Battle {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    scenario: Some(r.get::<_, String>(2)?).filter(|s| !s.is_empty()),
                    winner: r.get(3)?,
                    notes: r.get(4)?,
                    gangs: Vec::new(),
                    fighters: Vec::new(),
                    declined: Vec::new(),
                    played: Default::default(),
                    shape: r.get(6)?,
                    stake: r.get(7)?,
                    cycle: r.get(8)?,
                    challenge: r.get(9)?,
                },
                r.get::<_, String>(5)?,
            ))
        })
        .optional()?;
    let Some((mut battle, played)) = row else {
        return Ok(None);
    };
    if !played.is_empty() {
        battle.played = serde_json::from_str(&played)?;
    }
    let gangs: Vec<(BattleGang, bool)> = conn
        .prepare_cached(
            "SELECT gang_id, role, ran_for_it, declined, place, challenger FROM battle_gang \
             WHERE battle_id = ?1 ORDER BY position",
        )?
        .query_map([id], |r| {
            let gang = BattleGang {
                gang: r.get(0)?,
                role: r.get(1)?,
                ran_for_it: r.get(2)?,
                counts: BTreeMap::new(),
                place: r.get(4)?,
                challenger: r.get(5)?,
            };
            Ok((gang, r.get(3)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    battle.declined = gangs
        .iter()
        .filter(|(_, declined)| *declined)
        .map(|(g, _)| g.gang)
        .collect();
    battle.gangs = gangs.into_iter().map(|(g, _)| g).collect();
    for g in &mut battle.gangs {
        g.counts = conn
            .prepare_cached(
                "SELECT count, value FROM battle_count WHERE battle_id = ?1 AND gang_id = ?2",
            )?
            .query_map(params![id, g.gang], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
    }
    battle.fighters = conn
        .prepare_cached(
            "SELECT fighter_id, gang_id, outcome, downed_by FROM battle_fighter \
             WHERE battle_id = ?1 ORDER BY position",
        )?
        .query_map([id], |r| {
            Ok(BattleFighter {
                fighter: r.get(0)?,
                gang: r.get(1)?,
                outcome: r.get(2)?,
                downed_by: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(battle))
}

/// The gang holding a holding, if any.
pub(super) fn holder(conn: &Connection, holding: &str) -> Result<Option<GangId>> {
    Ok(conn
        .prepare_cached("SELECT gang_id FROM holding WHERE holding = ?1")?
        .query_row([holding], |r| r.get(0))
        .optional()?)
}

/// Every held holding's holder, by holding.
pub(super) fn holders(conn: &Connection) -> Result<BTreeMap<String, GangId>> {
    Ok(conn
        .prepare_cached("SELECT holding, gang_id FROM holding")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

/// The faction holding a faction's title, if any.
pub(super) fn faction_title_holder(conn: &Connection, title: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT faction FROM faction_title WHERE title = ?1")?
        .query_row([title], |r| r.get(0))
        .optional()?)
}

/// Every faction title's holder, by title.
pub(super) fn faction_titles(conn: &Connection) -> Result<BTreeMap<String, String>> {
    Ok(conn
        .prepare_cached("SELECT title, faction FROM faction_title")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

/// How every record finished, oldest first: each side's place, or its
/// winner first and the rest second (all level without a winner).
pub(super) fn finishes(
    conn: &Connection,
) -> Result<Vec<crate::campaign::season::standings::Finishes>> {
    use crate::campaign::season::standings::Finishes;
    let mut stmt = conn.prepare_cached(
        "SELECT bg.battle_id, bg.gang_id, bg.place, b.winner FROM battle_gang bg \
         JOIN battle b ON b.id = bg.battle_id ORDER BY bg.battle_id, bg.position",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, BattleId>(0)?,
            r.get::<_, GangId>(1)?,
            r.get::<_, Option<u32>>(2)?,
            r.get::<_, Option<GangId>>(3)?,
        ))
    })?;
    let mut out: Vec<(BattleId, Finishes)> = Vec::new();
    for row in rows {
        let (battle, gang, place, winner) = row?;
        let place = place.unwrap_or(match winner {
            Some(w) if w != gang => 2,
            _ => 1,
        });
        match out.last_mut() {
            Some((b, f)) if *b == battle => f.places.push((gang, place)),
            _ => out.push((
                battle,
                Finishes {
                    places: vec![(gang, place)],
                },
            )),
        }
    }
    Ok(out.into_iter().map(|(_, f)| f).collect())
}

/// The cycle the campaign is in (1 first).
pub(super) fn cycle(conn: &Connection) -> Result<u32> {
    Ok(conn
        .prepare_cached("SELECT cycle FROM campaign WHERE id = 1")?
        .query_row([], |r| r.get(0))
        .optional()?
        .unwrap_or(1))
}

/// A record's sides: its id, the cycle it counted in and its gangs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordSides {
    pub record: BattleId,
    pub cycle: Option<u32>,
    pub gangs: Vec<GangId>,
}

/// Every record's sides, oldest first.
pub(super) fn record_sides(conn: &Connection) -> Result<Vec<RecordSides>> {
    let mut stmt = conn.prepare_cached(
        "SELECT b.id, b.cycle, bg.gang_id FROM battle b \
         JOIN battle_gang bg ON bg.battle_id = b.id ORDER BY b.id, bg.position",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, BattleId>(0)?,
            r.get::<_, Option<u32>>(1)?,
            r.get::<_, GangId>(2)?,
        ))
    })?;
    let mut out: Vec<RecordSides> = Vec::new();
    for row in rows {
        let (record, cycle, gang) = row?;
        match out.last_mut() {
            Some(sides) if sides.record == record => sides.gangs.push(gang),
            _ => out.push(RecordSides {
                record,
                cycle,
                gangs: vec![gang],
            }),
        }
    }
    Ok(out)
}

/// Every challenge of the season, oldest first, with where it stands and
/// the record that played it.
pub(super) fn challenges(
    conn: &Connection,
) -> Result<Vec<crate::campaign::season::challenges::ChallengeState>> {
    use crate::campaign::season::challenges::{Challenge, ChallengeState, ChallengeStatus};
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.cycle, c.challenger, c.defender, c.stake, c.status, c.accepted, b.id \
         FROM challenge c LEFT JOIN battle b ON b.challenge = c.id ORDER BY c.id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            Challenge {
                id: r.get(0)?,
                cycle: r.get(1)?,
                challenger: r.get(2)?,
                defender: r.get(3)?,
                stake: r.get(4)?,
            },
            r.get::<_, String>(5)?,
            r.get::<_, bool>(6)?,
            r.get::<_, Option<BattleId>>(7)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (challenge, status, accepted, played) = row?;
        let status = ChallengeStatus::from_word(&status).ok_or_else(|| {
            StoreError::Conflict(format!(
                "challenge #{} stands as “{status}”, which no challenge does",
                challenge.id
            ))
        })?;
        out.push(ChallengeState {
            challenge,
            status,
            accepted,
            played,
        });
    }
    Ok(out)
}

/// Each cycle's pairings, oldest first.
pub(super) fn pairings(
    conn: &Connection,
) -> Result<Vec<crate::campaign::season::pairings::Pairings>> {
    let made: Vec<String> = conn
        .prepare_cached("SELECT made FROM pairings ORDER BY cycle")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    made.iter().map(|m| Ok(serde_json::from_str(m)?)).collect()
}

/// How many records each gang has played that counted in `cycle`.
pub(super) fn played_in_cycle(conn: &Connection, cycle: u32) -> Result<BTreeMap<GangId, u32>> {
    Ok(conn
        .prepare_cached(
            "SELECT bg.gang_id, COUNT(*) FROM battle_gang bg \
             JOIN battle b ON b.id = bg.battle_id WHERE b.cycle = ?1 GROUP BY bg.gang_id",
        )?
        .query_map([cycle], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

pub(super) fn title_holder(conn: &Connection, title: &str) -> Result<Option<GangId>> {
    Ok(conn
        .prepare_cached("SELECT gang_id FROM title_holder WHERE title = ?1")?
        .query_row([title], |r| r.get(0))
        .optional()?)
}

fn pending_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PendingEffect> {
    Ok(PendingEffect {
        id: r.get(0)?,
        gang: r.get(1)?,
        action: r.get(2)?,
        action_name: r.get(3)?,
        text: r.get(4)?,
        used_in: r.get(5)?,
    })
}

const PENDING_COLUMNS: &str =
    "SELECT id, gang_id, action, action_name, text, used_in FROM pending_effect";

pub(super) fn pending_effect(conn: &Connection, id: PendingId) -> Result<Option<PendingEffect>> {
    Ok(conn
        .prepare_cached(&format!("{PENDING_COLUMNS} WHERE id = ?1"))?
        .query_row([id], pending_row)
        .optional()?)
}

/// The log's rows of a statement selecting `e.id, e.batch_id, b.at,
/// b.label, b.undoes, e.payload`.
fn log_entries(
    stmt: &mut rusqlite::CachedStatement<'_>,
    params: impl rusqlite::Params,
) -> Result<Vec<LogEntry>> {
    log_rows(stmt, params)?.collect()
}

/// Every event of the log with its batch, oldest first, as
/// [`log_entries`] reads them.
const WHOLE_LOG: &str = "SELECT e.id, e.batch_id, b.at, b.label, b.undoes, e.payload, NULL \
     FROM event e JOIN batch b ON b.id = e.batch_id ORDER BY e.id";

/// The log entries a statement reads, one at a time.
fn log_rows<'s>(
    stmt: &'s mut rusqlite::CachedStatement<'_>,
    params: impl rusqlite::Params,
) -> Result<impl Iterator<Item = Result<LogEntry>> + 's> {
    let rows = stmt.query_map(params, |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get::<_, String>(5)?,
            r.get::<_, Option<String>>(6)?,
        ))
    })?;
    Ok(rows.map(|row| {
        let (id, batch, at, label, undoes, payload, author) = row?;
        Ok(LogEntry {
            id,
            batch,
            at,
            label,
            undoes,
            author,
            event: crate::campaign::wire::decode(&payload)
                .map_err(|source| StoreError::BadEvent { event: id, source })?,
        })
    }))
}

/// The house packs a campaign keeps, id and text, in the order kept.
pub(super) fn house_packs(conn: &Connection) -> Result<Vec<(String, String)>> {
    Ok(conn
        .prepare_cached("SELECT id, text FROM house_pack ORDER BY rowid")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

pub(super) fn gang(conn: &Connection, id: GangId) -> Result<Option<Gang>> {
    let row = conn
        .prepare_cached(&format!("{GANG_COLUMNS} WHERE id = ?1"))?
        .query_row([id], gang_row)
        .optional()?;
    match row {
        Some(mut gang) => {
            gang.resources = resources(conn, gang.id)?;
            Ok(Some(gang))
        }
        None => Ok(None),
    }
}

/// What [`gang_row`] reads of a gang.
pub(super) const GANG_COLUMNS: &str = "SELECT id, name, ruleset, notes, faction FROM gang";

/// A gang's row, its resources still to read.
pub(super) fn gang_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Gang> {
    Ok(Gang {
        id: r.get(0)?,
        name: r.get(1)?,
        ruleset: r.get(2)?,
        notes: r.get(3)?,
        resources: BTreeMap::new(),
        faction: r.get(4)?,
    })
}

/// A row of `gang_resource`: (gang, resource, amount).
pub(super) fn resource_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(GangId, String, i64)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
}

/// Puts each resource row on its gang (gangs not asked for are skipped).
pub(super) fn fill_resources(
    gangs: &mut [Gang],
    rows: impl Iterator<Item = rusqlite::Result<(GangId, String, i64)>>,
) -> Result<()> {
    let index: std::collections::HashMap<GangId, usize> =
        gangs.iter().enumerate().map(|(i, g)| (g.id, i)).collect();
    for row in rows {
        let (id, resource, amount) = row?;
        if let Some(&i) = index.get(&id) {
            gangs[i].resources.insert(resource, amount);
        }
    }
    Ok(())
}

fn resources(conn: &Connection, id: GangId) -> Result<BTreeMap<String, i64>> {
    let mut stmt =
        conn.prepare_cached("SELECT resource, amount FROM gang_resource WHERE gang_id = ?1")?;
    let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub(super) fn quirks(conn: &Connection, id: FighterId) -> Result<Vec<QuirkPick>> {
    let mut stmt = conn.prepare_cached(
        "SELECT quirk, alt_name, with_quirk FROM fighter_quirk WHERE fighter_id = ?1 ORDER BY position",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok(QuirkPick {
            quirk: r.get(0)?,
            alt_name: r.get(1)?,
            with: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn counters(conn: &Connection, id: FighterId) -> Result<BTreeMap<String, i64>> {
    let mut stmt =
        conn.prepare_cached("SELECT counter, value FROM fighter_counter WHERE fighter_id = ?1")?;
    let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn fill(conn: &Connection, mut fighter: Fighter) -> Result<Fighter> {
    fighter.quirks = quirks(conn, fighter.id)?;
    fighter.counters = counters(conn, fighter.id)?;
    fighter.base = conn
        .prepare_cached("SELECT stat, value FROM fighter_stat WHERE fighter_id = ?1")?
        .query_map([fighter.id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(fighter)
}

/// Fills many fighters with three queries in all, instead of three per
/// fighter. `scope` narrows the fighter ids the queries read (`""` for
/// all), with `params` for its placeholders.
pub(super) fn fill_many(
    conn: &Connection,
    mut fighters: Vec<Fighter>,
    scope: &str,
    params: impl rusqlite::Params + Copy,
) -> Result<Vec<Fighter>> {
    let index: std::collections::HashMap<FighterId, usize> = fighters
        .iter()
        .enumerate()
        .map(|(i, f)| (f.id, i))
        .collect();
    let mut quirks = conn.prepare_cached(&format!(
        "SELECT fighter_id, quirk, alt_name, with_quirk FROM fighter_quirk {scope} \
         ORDER BY fighter_id, position"
    ))?;
    let rows = quirks.query_map(params, |r| {
        Ok((
            r.get::<_, FighterId>(0)?,
            QuirkPick {
                quirk: r.get(1)?,
                alt_name: r.get(2)?,
                with: r.get(3)?,
            },
        ))
    })?;
    for row in rows {
        let (id, pick) = row?;
        if let Some(&i) = index.get(&id) {
            fighters[i].quirks.push(pick);
        }
    }
    for (table, column) in [("fighter_counter", "counter"), ("fighter_stat", "stat")] {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT fighter_id, {column}, value FROM {table} {scope}"
        ))?;
        let rows = stmt.query_map(params, |r| {
            Ok((
                r.get::<_, FighterId>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        for row in rows {
            let (id, key, value) = row?;
            if let Some(&i) = index.get(&id) {
                let fighter = &mut fighters[i];
                match column {
                    "counter" => fighter.counters.insert(key, value),
                    _ => fighter.base.insert(key, value),
                };
            }
        }
    }
    Ok(fighters)
}

/// The status columns as a [`FighterStatus`].
pub(super) fn status_from_columns(
    state: &str,
    name: Option<String>,
    gang: Option<GangId>,
    battle: Option<BattleId>,
) -> rusqlite::Result<FighterStatus> {
    let bad = || {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            format!("fighter status `{state}` is missing its details").into(),
        )
    };
    Ok(match state {
        "active" => FighterStatus::Active,
        "wounded" => match until_column(name)? {
            None => FighterStatus::Wounded {
                battle: battle.ok_or_else(bad)?,
            },
            Some(until) => FighterStatus::LaidUp {
                battle: battle.ok_or_else(bad)?,
                until,
            },
        },
        "captured" => FighterStatus::Captured {
            by: gang.ok_or_else(bad)?,
            battle: battle.ok_or_else(bad)?,
        },
        "gone" => FighterStatus::Gone {
            status: name.ok_or_else(bad)?,
            battle,
        },
        _ => return Err(bad()),
    })
}

/// A [`FighterStatus`] as its columns: state, name, gang, battle.
pub(super) fn status_columns(
    status: &FighterStatus,
) -> (&'static str, Option<&str>, Option<GangId>, Option<BattleId>) {
    match status {
        FighterStatus::Active => ("active", None, None, None),
        FighterStatus::Wounded { battle } => ("wounded", None, None, Some(*battle)),
        // Stored as wounded with how long: the file's statuses are those
        // its first schema checks for.
        FighterStatus::LaidUp { battle, until } => {
            ("wounded", Some(until.word()), None, Some(*battle))
        }
        FighterStatus::Captured { by, battle } => ("captured", None, Some(*by), Some(*battle)),
        FighterStatus::Gone { status, battle } => ("gone", Some(status.as_str()), None, *battle),
    }
}

pub(super) fn fighter_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Fighter> {
    let state: String = r.get(5)?;
    Ok(Fighter {
        id: r.get(0)?,
        gang: r.get(1)?,
        name: r.get(2)?,
        leader: r.get(3)?,
        notes: r.get(4)?,
        quirks: Vec::new(),
        counters: BTreeMap::new(),
        base: BTreeMap::new(),
        status: status_from_columns(&state, r.get(6)?, r.get(7)?, r.get(8)?)?,
        group: match (
            r.get::<_, Option<String>>(9)?,
            r.get::<_, Option<String>>(10)?,
        ) {
            (Some(kind), Some(name)) => Some(crate::campaign::MemberGroup { kind, name }),
            _ => None,
        },
    })
}

pub(super) const FIGHTER_COLUMNS: &str = "SELECT id, gang_id, name, is_leader, notes, \
     status, status_name, status_gang, status_battle, group_kind, group_name FROM fighter";

fn effect_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(LastingEffect, Option<String>)> {
    Ok((
        LastingEffect {
            id: r.get(0)?,
            fighter: r.get(1)?,
            table: r.get(2)?,
            name: r.get(3)?,
            detail: r.get(4)?,
            quirk: r.get(5)?,
            battle: r.get(6)?,
            removed: r.get(8)?,
            lost_quirk: r.get(9)?,
            heals_after: r.get(10)?,
            by_group: r.get(11)?,
            until: until_column(r.get(12)?)?,
            stats: BTreeMap::new(),
            roll: None,
        },
        r.get(7)?,
    ))
}

const EFFECT_COLUMNS: &str = "SELECT id, fighter_id, tbl, name, detail, quirk, battle_id, roll, removed, lost_quirk, \
     heals_after, by_group, until FROM lasting_effect";

/// How long something lasts, read from its column (`NULL`: for good, or
/// until the next record).
pub(super) fn until_column(word: Option<String>) -> rusqlite::Result<Option<Until>> {
    word.map(|w| {
        Until::from_word(&w).ok_or_else(|| {
            rusqlite::Error::FromSqlConversionFailure(
                0,
                rusqlite::types::Type::Text,
                format!("`{w}` is not how long something lasts").into(),
            )
        })
    })
    .transpose()
}

fn fill_effect(
    conn: &Connection,
    (mut effect, roll): (LastingEffect, Option<String>),
) -> Result<LastingEffect> {
    effect.stats = conn
        .prepare_cached("SELECT stat, amount FROM lasting_effect_stat WHERE effect_id = ?1")?
        .query_map([effect.id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    effect.roll = roll.map(|r| serde_json::from_str(&r)).transpose()?;
    Ok(effect)
}

pub(super) fn lasting_effect(conn: &Connection, id: EffectId) -> Result<Option<LastingEffect>> {
    let row = conn
        .prepare_cached(&format!("{EFFECT_COLUMNS} WHERE id = ?1"))?
        .query_row([id], effect_row)
        .optional()?;
    row.map(|r| fill_effect(conn, r)).transpose()
}

/// A fighter on the campaign's rolls; `Ok(None)` for one dismissed.
pub(super) fn fighter(conn: &Connection, id: FighterId) -> Result<Option<Fighter>> {
    fighter_kept(conn, id, false)
}

/// A fighter dismissed after taking part in the campaign's history, as
/// they were when dismissed.
pub(super) fn dismissed_fighter(conn: &Connection, id: FighterId) -> Result<Option<Fighter>> {
    fighter_kept(conn, id, true)
}

fn fighter_kept(conn: &Connection, id: FighterId, dismissed: bool) -> Result<Option<Fighter>> {
    let row = conn
        .prepare_cached(&format!(
            "{FIGHTER_COLUMNS} WHERE id = ?1 AND dismissed = ?2"
        ))?
        .query_row(params![id, dismissed], fighter_row)
        .optional()?;
    row.map(|f| fill(conn, f)).transpose()
}

/// Every gang, by name: two queries in all, however many gangs.
pub(super) fn gangs(conn: &Connection) -> Result<Vec<Gang>> {
    let mut gangs: Vec<Gang> = conn
        .prepare_cached(&format!("{GANG_COLUMNS} ORDER BY name COLLATE NOCASE, id"))?
        .query_map([], gang_row)?
        .collect::<rusqlite::Result<_>>()?;
    let mut stmt = conn.prepare_cached("SELECT gang_id, resource, amount FROM gang_resource")?;
    fill_resources(&mut gangs, stmt.query_map([], resource_row)?)?;
    Ok(gangs)
}

pub(super) fn title_holders(conn: &Connection) -> Result<TitleHolders> {
    Ok(conn
        .prepare_cached("SELECT title, gang_id FROM title_holder")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

/// Every pending effect, used or not, by id.
pub(super) fn pending_effects(conn: &Connection) -> Result<Vec<PendingEffect>> {
    Ok(conn
        .prepare_cached(&format!("{PENDING_COLUMNS} ORDER BY id"))?
        .query_map([], pending_row)?
        .collect::<rusqlite::Result<_>>()?)
}

/// Every fighter dismissed or not, by id, with what they carry.
pub(super) fn fighters_kept(conn: &Connection, dismissed: bool) -> Result<Vec<Fighter>> {
    let rows: Vec<Fighter> = conn
        .prepare_cached(&format!(
            "{FIGHTER_COLUMNS} WHERE dismissed = ?1 ORDER BY id"
        ))?
        .query_map([dismissed], fighter_row)?
        .collect::<rusqlite::Result<_>>()?;
    fill_many(
        conn,
        rows,
        "WHERE fighter_id IN (SELECT id FROM fighter WHERE dismissed = ?1)",
        [dismissed],
    )
}

/// The lasting effects a `WHERE` clause picks, each with its stat
/// changes: two queries in all.
pub(super) fn lasting_effects_where(
    conn: &Connection,
    clause: &str,
    params: impl rusqlite::Params + Copy,
) -> Result<Vec<LastingEffect>> {
    let rows = conn
        .prepare_cached(&format!("{EFFECT_COLUMNS} {clause} ORDER BY id"))?
        .query_map(params, effect_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut stats: std::collections::HashMap<EffectId, BTreeMap<String, i64>> = Default::default();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT effect_id, stat, amount FROM lasting_effect_stat \
         WHERE effect_id IN (SELECT id FROM lasting_effect {clause})"
    ))?;
    let stat_rows = stmt.query_map(params, |r| {
        Ok((r.get::<_, EffectId>(0)?, r.get::<_, String>(1)?, r.get(2)?))
    })?;
    for row in stat_rows {
        let (id, stat, amount) = row?;
        stats.entry(id).or_default().insert(stat, amount);
    }
    rows.into_iter()
        .map(|(mut effect, roll)| {
            effect.stats = stats.remove(&effect.id).unwrap_or_default();
            effect.roll = roll.map(|r| serde_json::from_str(&r)).transpose()?;
            Ok(effect)
        })
        .collect()
}

/// The id the next lasting effect will get.
pub(super) fn next_effect_id(conn: &Connection) -> Result<EffectId> {
    Ok(EffectId(
        conn.prepare_cached("SELECT coalesce(max(id), 0) + 1 FROM lasting_effect")?
            .query_row([], |r| r.get(0))?,
    ))
}

/// For each lasting effect still on a fighter that heals in time, the
/// records the fighter's gang has played since the one that gave it.
pub(super) fn records_since_healing_effects(conn: &Connection) -> Result<BTreeMap<EffectId, u32>> {
    Ok(conn
        .prepare_cached(
            "SELECT e.id, COUNT(bg.battle_id) FROM lasting_effect e \
             JOIN fighter f ON f.id = e.fighter_id \
             LEFT JOIN battle_gang bg ON bg.gang_id = f.gang_id AND bg.battle_id > e.battle_id \
             WHERE e.heals_after IS NOT NULL AND e.removed IS NULL \
             GROUP BY e.id",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get::<_, u32>(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

/// [`records_since_healing_effects`] of the fighters of these gangs alone
/// (`ids`: a JSON array of gang ids), read down the fighters' gang index.
pub(super) fn records_since_healing_effects_of(
    conn: &Connection,
    ids: &str,
) -> Result<BTreeMap<EffectId, u32>> {
    Ok(conn
        .prepare_cached(
            "SELECT e.id, COUNT(bg.battle_id) FROM fighter f \
             JOIN lasting_effect e ON e.fighter_id = f.id \
             LEFT JOIN battle_gang bg ON bg.gang_id = f.gang_id AND bg.battle_id > e.battle_id \
             WHERE f.gang_id IN (SELECT value FROM json_each(?1)) \
             AND e.heals_after IS NOT NULL AND e.removed IS NULL \
             GROUP BY e.id",
        )?
        .query_map([ids], |r| Ok((r.get(0)?, r.get::<_, u32>(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

/// The pending effects, used or not, of these gangs (`ids`: a JSON array
/// of gang ids), by id.
pub(super) fn pending_effects_of(conn: &Connection, ids: &str) -> Result<Vec<PendingEffect>> {
    Ok(conn
        .prepare_cached(&format!(
            "{PENDING_COLUMNS} WHERE gang_id IN (SELECT value FROM json_each(?1)) ORDER BY id"
        ))?
        .query_map([ids], pending_row)?
        .collect::<rusqlite::Result<_>>()?)
}

/// The campaign's settings, setting id → option id.
pub(super) fn settings(conn: &Connection) -> Result<BTreeMap<String, String>> {
    Ok(conn
        .prepare_cached("SELECT id, value FROM campaign_setting")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?)
}

/// A batch's label and events.
pub(super) fn batch(conn: &Connection, id: BatchId) -> Result<(String, Vec<Event>)> {
    let label: String = conn
        .prepare_cached("SELECT label FROM batch WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| StoreError::Conflict(format!("there is no batch #{id} in the log")))?;
    let payloads: Vec<(i64, String)> = conn
        .prepare_cached("SELECT id, payload FROM event WHERE batch_id = ?1 ORDER BY id")?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let events = payloads
        .iter()
        .map(|(event, p)| {
            crate::campaign::wire::decode(p).map_err(|source| StoreError::BadEvent {
                event: *event,
                source,
            })
        })
        .collect::<Result<_>>()?;
    Ok((label, events))
}

/// Whether a batch takes back a change: an odd number of steps from an
/// original change.
pub(super) fn is_undoing(conn: &Connection, batch: BatchId) -> Result<bool> {
    let steps: i64 = conn
        .prepare_cached(
            "WITH RECURSIVE chain(id, undoes, steps) AS ( \
                 SELECT id, undoes, 0 FROM batch WHERE id = ?1 \
                 UNION ALL \
                 SELECT b.id, b.undoes, chain.steps + 1 \
                 FROM batch b JOIN chain ON b.id = chain.undoes) \
             SELECT coalesce(max(steps), 0) FROM chain",
        )?
        .query_row([batch], |r| r.get(0))?;
    Ok(steps % 2 == 1)
}

/// The batch a batch takes back, if it takes one back.
pub(super) fn undone_by(conn: &Connection, batch: BatchId) -> Result<Option<BatchId>> {
    Ok(conn
        .prepare_cached("SELECT undoes FROM batch WHERE id = ?1")?
        .query_row([batch], |r| r.get::<_, Option<BatchId>>(0))
        .optional()?
        .flatten())
}

/// The label and events of the batch that takes `batch` back: a change
/// (or a redo) by its inverse, newest event first; an undo by what it
/// undid again, so that a redo reads as the original did.
pub(super) fn taking_back(conn: &Connection, id: BatchId) -> Result<(String, Vec<Event>)> {
    let (label, events) = batch(conn, id)?;
    if events.iter().any(Event::is_creation) {
        return Err(StoreError::Conflict(
            "the campaign's creation cannot be undone".to_owned(),
        ));
    }
    Ok(if is_undoing(conn, id)? {
        let target = undone_by(conn, id)?.ok_or_else(|| {
            StoreError::Conflict(format!("batch #{id} undoes nothing in the log"))
        })?;
        let (_, original) = batch(conn, target)?;
        let name = label.strip_prefix("Undo: ").unwrap_or(&label);
        (format!("Redo: {name}"), original)
    } else {
        let name = label.strip_prefix("Redo: ").unwrap_or(&label);
        let inverse = events.iter().rev().map(Event::inverse).collect();
        (format!("Undo: {name}"), inverse)
    })
}

impl CampaignStore {
    /// Every gang, by name.
    pub fn gangs(&self) -> Result<Vec<Gang>> {
        gangs(&self.conn)
    }

    /// The gangs with these ids (those that exist), by id: two queries,
    /// however many are asked for.
    pub fn gangs_by_ids(&self, ids: &[GangId]) -> Result<Vec<Gang>> {
        self.ground().gangs_by_ids(ids)
    }

    /// A gang by id; `Ok(None)` when there is none.
    pub fn gang(&self, id: GangId) -> Result<Option<Gang>> {
        gang(&self.conn, id)
    }

    /// A gang by name, ignoring case; `Ok(None)` when there is none.
    pub fn gang_by_name(&self, name: &str) -> Result<Option<Gang>> {
        self.ground().gang_by_name(name)
    }

    /// A gang's fighters: the leader first, then in the order recruited.
    pub fn fighters(&self, gang: GangId) -> Result<Vec<Fighter>> {
        self.ground().fighters(gang)
    }

    /// The fighters `gang` holds captive, by id.
    pub fn captives_held_by(&self, gang: GangId) -> Result<Vec<Fighter>> {
        self.fighters_where("status = 'captured' AND status_gang = ?1 ORDER BY id", gang)
    }

    fn fighters_where(&self, clause: &str, gang: GangId) -> Result<Vec<Fighter>> {
        self.ground().fighters_where(clause, gang)
    }

    /// A fighter by id; `Ok(None)` when there is none.
    pub fn fighter(&self, id: FighterId) -> Result<Option<Fighter>> {
        fighter(&self.conn, id)
    }

    /// The number of fighters in each gang.
    pub fn roster_sizes(&self) -> Result<BTreeMap<GangId, usize>> {
        let rows = self
            .conn
            .prepare_cached(
                "SELECT gang_id, count(*) FROM fighter WHERE dismissed = 0 GROUP BY gang_id",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// The newest `limit` events of the log, newest first.
    pub fn log(&self, limit: usize) -> Result<Vec<LogEntry>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT e.id, e.batch_id, b.at, b.label, b.undoes, e.payload, n.author \
             FROM event e JOIN batch b ON b.id = e.batch_id \
             LEFT JOIN league_batch n ON n.batch_id = b.id \
             ORDER BY e.id DESC LIMIT ?1",
        )?;
        log_entries(&mut stmt, [limit as i64])
    }

    /// The batches that hold no event, newest first (a league's batch left
    /// out, kept in its place with the reason): number, time, label, and
    /// who made it.
    pub fn empty_batches(&self, limit: usize) -> Result<Vec<EmptyBatch>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT b.id, b.at, b.label, n.author FROM batch b \
             LEFT JOIN league_batch n ON n.batch_id = b.id \
             WHERE NOT EXISTS (SELECT 1 FROM event e WHERE e.batch_id = b.id) \
             ORDER BY b.id DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| {
            Ok(EmptyBatch {
                batch: r.get(0)?,
                at: r.get(1)?,
                label: r.get(2)?,
                author: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A batch's label and events, in the order they were applied.
    pub fn batch(&self, id: BatchId) -> Result<(String, Vec<Event>)> {
        batch(&self.conn, id)
    }

    /// The newest change still in effect that undo takes back: a change or
    /// a redo (an even number of steps from an original change) that no
    /// later batch takes back. The campaign's creation is never offered.
    /// In a league campaign, only this member's own batches: another
    /// member's change is theirs to take back.
    pub fn newest_undoable(&self) -> Result<Option<BatchId>> {
        // Newest first, stopping at the first: a few index reads, however
        // long the log.
        let mut stmt = self.conn.prepare_cached(
            "SELECT b.id FROM batch b \
             WHERE NOT EXISTS (SELECT 1 FROM batch u WHERE u.undoes = b.id) \
             AND NOT EXISTS (SELECT 1 FROM event e \
                             WHERE e.batch_id = b.id AND e.kind = 'campaign_created') \
             AND NOT EXISTS (SELECT 1 FROM league_batch n JOIN league l \
                             WHERE n.batch_id = b.id AND n.author <> l.login) \
             ORDER BY b.id DESC",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let id: BatchId = row.get(0)?;
            if !self.is_undoing(id)? {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// The newest undo that redo takes back: an undo still in effect, made
    /// since the last new change (a new change ends what can be redone).
    pub fn newest_redoable(&self) -> Result<Option<BatchId>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT b.id FROM batch b \
             WHERE b.id > coalesce((SELECT id FROM batch WHERE undoes IS NULL \
                                    ORDER BY id DESC LIMIT 1), 0) \
             AND NOT EXISTS (SELECT 1 FROM batch u WHERE u.undoes = b.id) \
             AND NOT EXISTS (SELECT 1 FROM league_batch n JOIN league l \
                             WHERE n.batch_id = b.id AND n.author <> l.login) \
             ORDER BY b.id DESC",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let id: BatchId = row.get(0)?;
            if self.is_undoing(id)? {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// Whether a batch takes a change back (an undo, or an undo of a
    /// redo), rather than making one.
    pub fn is_undoing(&self, batch: BatchId) -> Result<bool> {
        is_undoing(&self.conn, batch)
    }

    /// The batch a batch takes back, if it takes one back.
    pub fn undone_by(&self, batch: BatchId) -> Result<Option<BatchId>> {
        undone_by(&self.conn, batch)
    }

    /// A battle by id; `Ok(None)` when there is none.
    pub fn battle(&self, id: BattleId) -> Result<Option<Battle>> {
        battle(&self.conn, id)
    }

    /// Every battle, oldest first.
    pub fn battles(&self) -> Result<Vec<Battle>> {
        let ids: Vec<BattleId> = self
            .conn
            .prepare_cached("SELECT id FROM battle ORDER BY id")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        ids.into_iter()
            .filter_map(|id| battle(&self.conn, id).transpose())
            .collect()
    }

    /// The newest battle both gangs fought in.
    pub fn last_battle_between(&self, a: GangId, b: GangId) -> Result<Option<Battle>> {
        let id: Option<BattleId> = self
            .conn
            .prepare_cached(
                "SELECT x.battle_id FROM battle_gang x JOIN battle_gang y \
                 ON y.battle_id = x.battle_id WHERE x.gang_id = ?1 AND y.gang_id = ?2 \
                 ORDER BY x.battle_id DESC LIMIT 1",
            )?
            .query_row(params![a, b], |r| r.get(0))
            .optional()?;
        match id {
            Some(id) => battle(&self.conn, id),
            None => Ok(None),
        }
    }

    /// How many battles a gang has fought.
    pub fn battles_fought(&self, gang: GangId) -> Result<i64> {
        Ok(self
            .conn
            .prepare_cached("SELECT count(*) FROM battle_gang WHERE gang_id = ?1")?
            .query_row([gang], |r| r.get(0))?)
    }

    /// The batch that recorded a battle.
    pub fn battle_batch(&self, id: BattleId) -> Result<Option<BatchId>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT batch_id FROM event WHERE battle_id = ?1 AND kind = 'battle_recorded' \
                 ORDER BY id DESC LIMIT 1",
            )?
            .query_row([id], |r| r.get(0))
            .optional()?)
    }

    /// Who holds each title.
    pub fn title_holders(&self) -> Result<TitleHolders> {
        title_holders(&self.conn)
    }

    /// Every pending effect, used or not, by id.
    pub fn pending_effects(&self) -> Result<Vec<PendingEffect>> {
        pending_effects(&self.conn)
    }

    /// Every fighter of the campaign, by id (not those dismissed).
    pub fn all_fighters(&self) -> Result<Vec<Fighter>> {
        fighters_kept(&self.conn, false)
    }

    /// Every fighter dismissed after taking part in the campaign's
    /// history, by id, as they were when dismissed.
    pub fn dismissed_fighters(&self) -> Result<Vec<Fighter>> {
        fighters_kept(&self.conn, true)
    }

    /// The names a gang's dismissed fighters keep in its history (no
    /// one else in the gang may take them).
    pub fn dismissed_names(&self, gang: GangId) -> Result<Vec<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT name FROM fighter WHERE gang_id = ?1 AND dismissed = 1")?
            .query_map([gang], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// Every lasting effect on a fighter (removed ones too), oldest first.
    pub fn lasting_effects(&self, fighter: FighterId) -> Result<Vec<LastingEffect>> {
        lasting_effects_where(&self.conn, "WHERE fighter_id = ?1", [fighter])
    }

    /// Every lasting effect on the fighters of a gang (removed ones too),
    /// oldest first: two queries, however many.
    pub fn lasting_effects_of_gang(&self, gang: GangId) -> Result<Vec<LastingEffect>> {
        lasting_effects_where(
            &self.conn,
            "WHERE fighter_id IN (SELECT id FROM fighter WHERE gang_id = ?1 AND dismissed = 0)",
            [gang],
        )
    }

    /// Every lasting effect of the campaign, oldest first.
    pub fn all_lasting_effects(&self) -> Result<Vec<LastingEffect>> {
        lasting_effects_where(&self.conn, "", [])
    }

    /// Quirks gained less quirks lost by each fighter's standing lasting
    /// effects, for every fighter of these gangs that has any: one query
    /// down the gangs' index.
    pub fn quirk_changes_of(&self, gangs: &[GangId]) -> Result<BTreeMap<FighterId, i64>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT e.fighter_id, sum(e.quirk IS NOT NULL) - sum(e.lost_quirk IS NOT NULL) \
                 FROM fighter f JOIN lasting_effect e ON e.fighter_id = f.id \
                 WHERE f.gang_id IN (SELECT value FROM json_each(?1)) AND e.removed IS NULL \
                 GROUP BY e.fighter_id",
            )?
            .query_map([super::ground::gang_ids(gangs)?], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// [`Self::on_roster_counts`] of these gangs alone (those with any).
    pub fn on_roster_counts_of(&self, ids: &[GangId]) -> Result<BTreeMap<GangId, usize>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT gang_id, count(*) FROM fighter \
                 WHERE gang_id IN (SELECT value FROM json_each(?1)) \
                 AND status != 'gone' AND dismissed = 0 GROUP BY gang_id",
            )?
            .query_map([super::ground::gang_ids(ids)?], |r| {
                Ok((r.get(0)?, usize::try_from(r.get::<_, i64>(1)?).unwrap_or(0)))
            })?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// Every gang's id, name and pack, by name (any case): one query,
    /// reading no resource and no fighter.
    pub fn gang_names(&self) -> Result<Vec<(GangId, String, String)>> {
        Ok(self
            .conn
            .prepare_cached("SELECT id, name, ruleset FROM gang ORDER BY name COLLATE NOCASE, id")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// The rulesets the gangs play, each once, in the order of the first
    /// gang (by name, any case) playing it: one query, reading no gang's
    /// resources.
    pub fn rulesets_played(&self) -> Result<Vec<String>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT ruleset FROM gang GROUP BY ruleset ORDER BY min(name COLLATE NOCASE)",
            )?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// The names of the gangs playing `ruleset`, by name (any case).
    pub fn gangs_playing(&self, ruleset: &str) -> Result<Vec<String>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT name FROM gang WHERE ruleset = ?1 ORDER BY name COLLATE NOCASE, id",
            )?
            .query_map([ruleset], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// How many fighters each gang has on its roster (those not gone),
    /// for the gangs that have any: one query, reading no fighter's
    /// quirks, stats or effects.
    pub fn on_roster_counts(&self) -> Result<BTreeMap<GangId, usize>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT gang_id, count(*) FROM fighter \
                 WHERE status != 'gone' AND dismissed = 0 GROUP BY gang_id",
            )?
            .query_map([], |r| {
                Ok((r.get(0)?, usize::try_from(r.get::<_, i64>(1)?).unwrap_or(0)))
            })?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// The gangs of `rulesets` that lead `resource`
    /// ([`super::Ground::resource_leaders`]).
    pub fn resource_leaders(
        &self,
        resource: &str,
        rulesets: &[String],
        places: usize,
    ) -> Result<Vec<GangId>> {
        self.ground().resource_leaders(resource, rulesets, places)
    }

    /// Every gang's name and every fighter's name, by id: two queries.
    pub fn all_names(&self) -> Result<(BTreeMap<GangId, String>, BTreeMap<FighterId, String>)> {
        let gangs = self
            .conn
            .prepare_cached("SELECT id, name FROM gang")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let fighters = self
            .conn
            .prepare_cached("SELECT id, name FROM fighter")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        Ok((gangs, fighters))
    }

    /// Each gang's leader still with it, by gang: one query.
    pub fn leaders(&self) -> Result<BTreeMap<GangId, String>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT gang_id, name FROM fighter \
                 WHERE is_leader AND status != 'gone' AND dismissed = 0 ORDER BY id",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// How many battles each of these gangs has fought, for those that
    /// have: one query down the gangs' index.
    pub fn battles_fought_of(&self, gangs: &[GangId]) -> Result<BTreeMap<GangId, i64>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT gang_id, count(*) FROM battle_gang \
                 WHERE gang_id IN (SELECT value FROM json_each(?1)) GROUP BY gang_id",
            )?
            .query_map([super::ground::gang_ids(gangs)?], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// A lasting effect by id; `Ok(None)` when there is none.
    pub fn lasting_effect(&self, id: EffectId) -> Result<Option<LastingEffect>> {
        lasting_effect(&self.conn, id)
    }

    /// The id the next lasting effect will get.
    pub fn next_effect_id(&self) -> Result<EffectId> {
        next_effect_id(&self.conn)
    }

    /// Which of the ids `among` stand in the campaign now, as a merge
    /// counts it: its gangs, fighters (those dismissed with a history are
    /// kept as rows and do not stand), battles, lasting effects (healed
    /// ones stand) and pending effects; and each of those lasting effects'
    /// fighter. Costs the ids asked, not the campaign.
    pub fn standing(
        &self,
        among: &crate::campaign::merge::Alive,
    ) -> Result<(
        crate::campaign::merge::Alive,
        std::collections::HashMap<EffectId, FighterId>,
    )> {
        let ids = |sql: &str,
                   among: &std::collections::BTreeSet<i64>|
         -> Result<std::collections::BTreeSet<i64>> {
            let among = serde_json::to_string(among)?;
            let mut stmt = self.conn.prepare_cached(sql)?;
            let rows = stmt.query_map([among], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        };
        let standing = crate::campaign::merge::Alive {
            gangs: ids(
                "SELECT id FROM gang WHERE id IN (SELECT value FROM json_each(?1))",
                &among.gangs,
            )?,
            fighters: ids(
                "SELECT id FROM fighter WHERE dismissed = 0 \
                 AND id IN (SELECT value FROM json_each(?1))",
                &among.fighters,
            )?,
            battles: ids(
                "SELECT id FROM battle WHERE id IN (SELECT value FROM json_each(?1))",
                &among.battles,
            )?,
            effects: ids(
                "SELECT id FROM lasting_effect WHERE id IN (SELECT value FROM json_each(?1))",
                &among.effects,
            )?,
            pending: ids(
                "SELECT id FROM pending_effect WHERE id IN (SELECT value FROM json_each(?1))",
                &among.pending,
            )?,
            challenges: ids(
                "SELECT id FROM challenge WHERE id IN (SELECT value FROM json_each(?1))",
                &among.challenges,
            )?,
        };
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, fighter_id FROM lasting_effect WHERE id IN (SELECT value FROM json_each(?1))",
        )?;
        let owners = stmt
            .query_map([serde_json::to_string(&among.effects)?], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok((standing, owners))
    }

    /// The whole log, oldest first.
    pub fn full_log(&self) -> Result<Vec<LogEntry>> {
        log_entries(&mut self.conn.prepare_cached(WHOLE_LOG)?, [])
    }

    /// Every batch with the batch it takes back, oldest first.
    pub fn batch_parents(&self) -> Result<Vec<(BatchId, Option<BatchId>)>> {
        Ok(self
            .conn
            .prepare_cached("SELECT id, undoes FROM batch ORDER BY id")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// The whole log a batch at a time, oldest first, for a reader that
    /// need not hold it all at once.
    pub fn each_batch(&self, mut visit: impl FnMut(Vec<LogEntry>)) -> Result<()> {
        let mut stmt = self.conn.prepare_cached(WHOLE_LOG)?;
        let mut batch: Vec<LogEntry> = Vec::new();
        for entry in log_rows(&mut stmt, [])? {
            let entry = entry?;
            if batch.last().is_some_and(|l| l.batch != entry.batch) {
                visit(std::mem::take(&mut batch));
            }
            batch.push(entry);
        }
        if !batch.is_empty() {
            visit(batch);
        }
        Ok(())
    }

    /// The battles two gangs fought against each other, each with the
    /// batch that recorded it, in the order they were recorded.
    pub fn battles_between(&self, a: GangId, b: GangId) -> Result<Vec<(BatchId, Battle)>> {
        let ids: Vec<(BattleId, BatchId)> = self
            .conn
            .prepare_cached(
                "SELECT x.battle_id, (SELECT max(e.batch_id) FROM event e \
                 WHERE e.battle_id = x.battle_id AND e.kind = 'battle_recorded') AS batch \
                 FROM battle_gang x JOIN battle_gang y ON y.battle_id = x.battle_id \
                 WHERE x.gang_id = ?1 AND y.gang_id = ?2 ORDER BY batch",
            )?
            .query_map(params![a, b], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        ids.into_iter()
            .filter_map(|(id, recorded)| {
                battle(&self.conn, id)
                    .map(|found| found.map(|battle| (recorded, battle)))
                    .transpose()
            })
            .collect()
    }

    /// Every arc closed or reopened by hand, with its batch, oldest first
    /// (taken back or not).
    pub fn arc_marks(&self) -> Result<Vec<(BatchId, Event)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT e.id, e.batch_id, b.at, b.label, b.undoes, e.payload, NULL \
             FROM event e JOIN batch b ON b.id = e.batch_id \
             WHERE e.kind IN ('arc_closed', 'arc_reopened') ORDER BY e.id",
        )?;
        Ok(log_entries(&mut stmt, [])?
            .into_iter()
            .map(|l| (l.batch, l.event))
            .collect())
    }

    /// The log entries about a fighter, oldest first.
    pub fn fighter_history(&self, fighter: FighterId) -> Result<Vec<LogEntry>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT e.id, e.batch_id, b.at, b.label, b.undoes, e.payload, NULL \
             FROM event e JOIN batch b ON b.id = e.batch_id \
             WHERE e.fighter_id = ?1 ORDER BY e.id",
        )?;
        log_entries(&mut stmt, [fighter])
    }

    /// The newest batch in the log: it changes with every change to the
    /// campaign, so views key their caches on it.
    pub fn newest_batch(&self) -> Result<Option<BatchId>> {
        Ok(self
            .conn
            .prepare_cached("SELECT max(id) FROM batch")?
            .query_row([], |r| r.get(0))?)
    }

    /// The house packs kept in the campaign, `(id, text)`, in the order
    /// they were first kept (a pack before those built on it).
    /// For each lasting effect still on a fighter that heals in time, the
    /// records the fighter's gang has played since the one that gave it.
    pub fn records_since_healing_effects(&self) -> Result<BTreeMap<EffectId, u32>> {
        records_since_healing_effects(&self.conn)
    }

    /// The campaign's settings, setting id → option id.
    pub fn settings(&self) -> Result<BTreeMap<String, String>> {
        settings(&self.conn)
    }

    pub fn house_packs(&self) -> Result<Vec<(String, String)>> {
        house_packs(&self.conn)
    }

    /// The number of batches in the log.
    pub fn batch_count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM batch", [], |r| r.get(0))?)
    }

    /// The whole state, ordered by id.
    pub fn dump(&self) -> Result<CampaignDump> {
        let info = self.info()?;
        let gang_ids: Vec<GangId> = self
            .conn
            .prepare_cached("SELECT id FROM gang ORDER BY id")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let gangs = gang_ids
            .into_iter()
            .filter_map(|id| gang(&self.conn, id).transpose())
            .collect::<Result<_>>()?;
        Ok(CampaignDump {
            info,
            gangs,
            fighters: self.all_fighters()?,
            battles: self.battles()?,
            titles: self.title_holders()?,
            pending: self.pending_effects()?,
            lasting: self.all_lasting_effects()?,
            dismissed: self.dismissed_fighters()?,
            holders: holders(&self.conn)?,
            cycle: cycle(&self.conn)?,
            faction_titles: faction_titles(&self.conn)?,
        })
    }
}
