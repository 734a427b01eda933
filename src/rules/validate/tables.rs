//! The roll tables' checks: dice, rows that cover every total, and
//! fall-backs that never go round in a loop.

use std::collections::BTreeSet;

use super::outcomes::check_effect;
use super::{fill_in_ruling, unique};
use crate::rules::{Effect, Pack, PackError, TableDef, TableRowDef};

/// Checks the roll tables: their dice, rows covering every total, effects and fall-backs.
pub(super) fn validate_tables(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    for table in &pack.tables {
        let entry = format!("tables.{}", table.id);
        fill_in_ruling(file, pack, &entry, table.fill_in.as_ref())?;
        if table.roll.is_empty() && table.rows.is_empty() && table.fill_in.is_some() {
            continue;
        }
        let expr = match crate::dice::parse(&table.roll) {
            Ok(expr) => expr,
            Err(e) => return err(entry, format!("roll `{}`: {e}", table.roll)),
        };
        if table.rows.is_empty() {
            if table.fill_in.is_none() {
                return err(
                    entry,
                    "a table needs rows (leave them out only with `fill_in`, for a table the text does not print)".into(),
                );
            }
            continue;
        }
        unique(
            file,
            &format!("{entry}.modifiers"),
            table.modifiers.iter().map(|m| m.id.as_str()),
        )?;
        // Modifiers can push a roll past the dice's own range.
        // Saturating: the sums only widen the range checked, and a range
        // held at the ends of i64 is still every total a roll can reach.
        let mut reach = Vec::new();
        for m in &table.modifiers {
            match &m.per {
                None => reach.push((m.amount.min(0), m.amount.max(0))),
                Some(per) => match per_bounds(pack, per) {
                    Ok((min, max)) => {
                        let (a, b) = (m.amount.saturating_mul(min), m.amount.saturating_mul(max));
                        reach.push((a.min(b), a.max(b)));
                    }
                    Err(reason) => {
                        return err(format!("{entry}.modifiers.{}.per", m.id), reason);
                    }
                },
            }
        }
        let down = reach.iter().fold(0i64, |sum, r| sum.saturating_add(r.0));
        let up = reach.iter().fold(0i64, |sum, r| sum.saturating_add(r.1));
        let (low, high) = (
            expr.min().saturating_add(down),
            expr.max().saturating_add(up),
        );
        if let Err(reason) = table.check_rows(low, high) {
            return err(entry, reason);
        }
        for row in &table.rows {
            let row_entry = format!("{entry} row `{}`", row.on);
            for effect in &row.effects {
                if let Err(reason) = check_effect(pack, effect) {
                    return err(row_entry, reason);
                }
                if let Some(fallback) = cripples(effect)
                    .into_iter()
                    .find(|f| !table.rows.iter().any(|r| r.on == *f))
                {
                    return err(
                        row_entry,
                        format!("fallback row `{fallback}` is not a row of the table"),
                    );
                }
            }
            if let Some(fallback) = &row.fallback
                && !table.rows.iter().any(|r| r.on == *fallback)
            {
                return err(
                    row_entry,
                    format!("fallback row `{fallback}` is not a row of the table"),
                );
            }
            let back_again = row
                .fallback
                .as_ref()
                .and_then(|f| table.rows.iter().find(|r| r.on == *f))
                .is_some_and(|f| f.fallback.as_deref() == Some(row.on.as_str()));
            if row.either_way && !back_again {
                return err(
                    row_entry,
                    "`either_way` needs a `fallback` row that falls back on this one".into(),
                );
            }
            if let Some(ruling) = &row.ruling
                && pack.ruling(ruling).is_none()
            {
                return err(
                    row_entry,
                    format!("ruling `{ruling}` is not in [[rulings]]"),
                );
            }
        }
        if let Err((row, reason)) = fallback_cycle(table) {
            return err(format!("{entry} row `{row}`"), reason);
        }
    }
    Ok(())
}

/// The least and most of the stat or counter a modifier counts points of:
/// both must be bounded, so that the rows can cover every total.
fn per_bounds(pack: &Pack, per: &str) -> Result<(i64, i64), String> {
    let (stat, counter) = (pack.stat(per), pack.counter(per));
    let bounds = match (stat, counter) {
        (Some(_), Some(_)) => {
            return Err(format!(
                "`{per}` is both a stat and a counter; a modifier cannot say which"
            ));
        }
        (Some(s), None) => (s.min, s.max),
        (None, Some(c)) => (Some(c.min), c.max),
        (None, None) => return Err(format!("`{per}` is not a stat or a counter")),
    };
    match bounds {
        (Some(min), Some(max)) => Ok((min, max)),
        _ => Err(format!(
            "`{per}` needs a min and a max, so that the rows can cover every total"
        )),
    }
}

/// The rows a crippling effect falls back on (inside a choice too).
pub(super) fn cripples(effect: &Effect) -> Vec<&str> {
    match effect {
        Effect::Cripple { fallback } => vec![fallback.as_str()],
        Effect::Choice { options } => options.iter().flat_map(cripples).collect(),
        _ => Vec::new(),
    }
}

/// Refuses a row whose fallbacks (its own, or a crippling's) lead back to
/// it: the procedure would go round until its depth limit and quietly stop.
/// Returns the row and the loop in words.
fn fallback_cycle(table: &TableDef) -> Result<(), (String, String)> {
    // A row that falls back "either way round" with its fallback is not
    // a loop: the procedure stops where neither applies.
    let next = |row: &TableRowDef| -> Vec<usize> {
        row.fallback
            .iter()
            .filter(|_| !row.either_way)
            .map(String::as_str)
            .chain(row.effects.iter().flat_map(cripples))
            .filter_map(|on| table.rows.iter().position(|r| r.on == on))
            .collect()
    };
    for (start, row) in table.rows.iter().enumerate() {
        if next(row).contains(&start) {
            return Err((row.on.clone(), "falls back on itself".into()));
        }
        // Depth-first from each row: a path that comes back to it is a loop.
        let mut stack: Vec<Vec<usize>> = vec![vec![start]];
        let mut seen = BTreeSet::new();
        while let Some(path) = stack.pop() {
            let Some(&last) = path.last() else { continue };
            for n in next(&table.rows[last]) {
                if n == start {
                    let names: Vec<String> = path
                        .iter()
                        .chain([&start])
                        .map(|&i| format!("`{}`", table.rows[i].on))
                        .collect();
                    return Err((
                        row.on.clone(),
                        format!("its fallbacks go round in a loop: {}", names.join(" → ")),
                    ));
                }
                if seen.insert(n) {
                    let mut longer = path.clone();
                    longer.push(n);
                    stack.push(longer);
                }
            }
        }
    }
    Ok(())
}
