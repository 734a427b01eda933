//! `rapsheet table TABLE --ruleset PACK`: what does a roll mean? With
//! `--db`, the campaign's packs are read too (the tables its group filled
//! in), and the ruleset it plays is the default.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use serde::Serialize;

use super::print_json;
use crate::dice::{Dice, RollRecord, parse};
use crate::rules::{Effect, FighterModifier, Pack, TableRowDef};

#[derive(Serialize)]
struct Lookup<'a> {
    table: &'a str,
    name: &'a str,
    roll: &'a str,
    /// The dice, when the app rolled them.
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<RollRecord>,
    natural: i64,
    modifiers: &'a [String],
    /// The modifiers that came from the fighter the roll is for.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    from_fighter: &'a [FighterModifier],
    total: i64,
    row: Option<&'a TableRowDef>,
    /// The two more results a "roll twice" row asks for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    again: Vec<Again<'a>>,
}

/// One more result of the table, for a "roll twice" row.
#[derive(Serialize)]
struct Again<'a> {
    record: RollRecord,
    row: Option<&'a TableRowDef>,
}

/// What a lookup is asked: the total rolled (or a seed to roll with), the
/// modifiers named, and those the fighter the roll is for brings.
pub(super) struct Asked<'a> {
    pub total: Option<i64>,
    pub seed: Option<u64>,
    pub modifiers: &'a [String],
    pub from_fighter: &'a [FighterModifier],
}

/// The pack a lookup reads: the campaign's (where `--db` names one: the
/// tables its group filled in, the ruleset of the fighter or the
/// campaign), else the ruleset given or the primary system's book rules;
/// with the modifiers the fighter brings to `table`.
pub(super) fn pack_for(
    db: Option<&Path>,
    packs: &[PathBuf],
    ruleset: Option<String>,
    fighter: Option<String>,
    table: &str,
) -> Result<(Pack, Vec<FighterModifier>)> {
    let mut from_fighter = Vec::new();
    let pack = match db {
        Some(_) => {
            let session = super::open(db, packs)?;
            let fighter = fighter
                .map(|name| session.fighter_named(&name, None))
                .transpose()?;
            let ruleset = match (ruleset, &fighter) {
                (Some(r), _) => r,
                (None, Some(f)) => session.gang(f.gang)?.ruleset,
                (None, None) => session.info()?.default_ruleset,
            };
            let pack = session.pack(&ruleset)?.clone();
            if let (Some(f), Some(t)) = (&fighter, pack.table(table)) {
                from_fighter = session.fighter_modifiers(f, t)?;
            }
            pack
        }
        None if fighter.is_some() => {
            bail!("--fighter needs --db: the campaign the fighter is in")
        }
        None => {
            let ruleset = super::default_ruleset(ruleset, packs)?;
            crate::session::asked_pack(&super::registry(packs)?, &ruleset)?.clone()
        }
    };
    Ok((pack, from_fighter))
}

pub(super) fn table(pack: &Pack, id: &str, asked: &Asked<'_>, json: bool) -> Result<()> {
    let Asked {
        total,
        seed,
        modifiers,
        from_fighter,
    } = *asked;
    let table = pack.table(id).ok_or_else(|| {
        let ids: Vec<&str> = pack.tables.iter().map(|t| t.id.as_str()).collect();
        anyhow!(
            "{} has no table `{id}` (tables: {})",
            pack.pack.name,
            ids.join(", ")
        )
    })?;
    if let Some(ruling) = table.unfilled() {
        bail!(
            "{} is not printed in {} and has no rows yet (ruling {ruling}): a group enters its own in its house rules",
            table.name,
            pack.pack.name
        );
    }
    let expr = parse(&table.roll)?;
    let dialect = pack.dice.as_ref().map(|d| d.dialect()).unwrap_or_default();
    let mut dice = Dice::seeded(seed.unwrap_or_else(crate::dice::seed_from_clock));
    let (natural, record) = match total {
        Some(n) => {
            if !expr.totals().contains(&n) {
                return Err(anyhow!(
                    "{n} cannot come up on {} ({} to {})",
                    table.roll,
                    expr.min(),
                    expr.max()
                ));
            }
            (n, None)
        }
        None => {
            let record = dice.roll(&expr, &dialect)?;
            (record.total, Some(record))
        }
    };
    let (by_fighter, shown) = FighterModifier::total(from_fighter);
    let modified = table
        .total_with(natural, modifiers)
        .map_err(|e| anyhow!(e))?
        .saturating_add(by_fighter);
    let row = table.lookup(modified);
    // A "roll twice, ignoring N" row: two more results, rolled here.
    let mut again = Vec::new();
    let twice = row
        .into_iter()
        .flat_map(|r| &r.effects)
        .find_map(|e| match e {
            Effect::RollTwice { ignoring } => Some(*ignoring),
            _ => None,
        });
    if let Some(ignoring) = twice {
        let records = dice.roll_twice_ignoring(&expr, &dialect, ignoring)?;
        for record in records.kept {
            let (_, row) = table
                .lookup_with(record.total, &[])
                .map_err(|e| anyhow!(e))?;
            again.push(Again { record, row });
        }
    }
    if json {
        return print_json(&Lookup {
            table: &table.id,
            name: &table.name,
            roll: &table.roll,
            record,
            natural,
            modifiers,
            from_fighter,
            total: modified,
            row,
            again,
        });
    }
    // `6 − 1 (Chill 1) = 5` where the fighter brings a modifier.
    let rolled = if shown.is_empty() {
        modified.to_string()
    } else {
        format!(
            "{}{shown} = {modified}",
            modified.saturating_sub(by_fighter)
        )
    };
    match row {
        Some(row) => say!("{} {rolled}: {}", table.name, row.result),
        None => say!("{} {rolled}: no row", table.name),
    }
    for a in &again {
        match a.row {
            Some(row) => say!("  and {}: {}", a.record.total, row.result),
            None => say!("  and {}: no row", a.record.total),
        }
    }
    Ok(())
}
