//! The record's checks: its sides and epilogue, the rolls and resets it
//! asks for, the settings and the checks of dice it names.

use super::scenarios::{Within, check_epilogue_line};
use super::{check_amounts, fill_in_ruling, unique};
use crate::rules::{Amount, Pack, PackError, RecordRules};

/// The conditions on a record's rolls and resets: the entries a roll is
/// for, the settings, options and flags a reset asks for, and the
/// counters an entry takes away.
pub(super) fn validate_record_conditions(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let record = pack.record();
    unique(
        file,
        "record.flags",
        record.flags.iter().map(|f| f.id.as_str()),
    )?;
    for (list, rolls) in [("during", &record.during), ("after", &record.after)] {
        for (i, roll) in rolls.iter().enumerate() {
            let entry = format!("record.{list}[{i}]");
            for quirk in roll.only_with.iter().chain(&roll.not_with) {
                if pack.quirk(quirk).is_none() {
                    return err(entry, format!("quirk `{quirk}` is not in [[quirks]]"));
                }
            }
        }
    }
    for (i, reset) in record.resets.iter().enumerate() {
        let entry = format!("record.resets[{i}]");
        match (&reset.setting, &reset.option) {
            (Some(setting), Some(option)) => {
                let Some(def) = pack.settings.iter().find(|s| s.id == *setting) else {
                    return err(entry, format!("setting `{setting}` is not in [[settings]]"));
                };
                if def.option(option).is_none() {
                    return err(
                        entry,
                        format!("option `{option}` is not an option of setting `{setting}`"),
                    );
                }
            }
            (None, None) => {}
            _ => {
                return err(
                    entry,
                    "`setting` and `option` go together: the reset applies while the setting has that option".into(),
                );
            }
        }
        if let Some(flag) = &reset.flag
            && !record.flags.iter().any(|f| f.id == *flag)
        {
            return err(entry, format!("flag `{flag}` is not in record.flags"));
        }
    }
    for quirk in &pack.quirks {
        if let Some(bad) = quirk.no_counters.iter().find(|c| pack.counter(c).is_none()) {
            return err(
                format!("quirks.{}.no_counters", quirk.id),
                format!("counter `{bad}` is not in [[counters]]"),
            );
        }
    }
    Ok(())
}

/// Checks `[[settings]]`: options with ids of their own, a default among
/// them, and a ruling that exists.
pub(super) fn validate_settings(file: &str, pack: &Pack) -> Result<(), PackError> {
    unique(
        file,
        "settings",
        pack.settings.iter().map(|s| s.id.as_str()),
    )?;
    for setting in &pack.settings {
        let entry = format!("settings.{}", setting.id);
        unique(
            file,
            &format!("{entry}.options"),
            setting.options.iter().map(|o| o.id.as_str()),
        )?;
        if setting.option(&setting.default).is_none() {
            return Err(PackError::new(
                file,
                entry,
                format!("default `{}` is not one of its options", setting.default),
            ));
        }
        fill_in_ruling(file, pack, &entry, setting.ruling.as_ref())?;
    }
    Ok(())
}

/// Checks `[[checks]]`: a sum (`roll` and `plus_highest`) or a pool
/// (`pool`, with `stress`), naming stats and counters of the pack.
pub(super) fn validate_checks(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    unique(file, "checks", pack.checks.iter().map(|c| c.id.as_str()))?;
    for check in &pack.checks {
        let entry = format!("checks.{}", check.id);
        match (&check.roll, check.pool.is_empty(), &check.tier) {
            (Some(roll), true, None) => {
                if let Err(e) = crate::dice::parse(roll) {
                    return err(entry, format!("roll `{roll}`: {e}"));
                }
            }
            (None, false, None) => {}
            (None, true, Some(tier)) => {
                let Some(stat) = pack.stat(tier) else {
                    return err(
                        format!("{entry}.tier"),
                        format!("stat `{tier}` is not in [[stats]]"),
                    );
                };
                if stat.ladder.is_empty() {
                    return err(
                        format!("{entry}.tier"),
                        format!("stat `{tier}` has no `ladder` of dice to step along"),
                    );
                }
                if let Err(e) = crate::dice::Ladder::from_texts(&stat.ladder) {
                    return err(format!("{entry}.tier"), format!("stat `{tier}`: {e}"));
                }
            }
            _ => {
                return err(
                    entry,
                    "give one of `roll` (dice plus the highest of `plus_highest`), `pool` (one die a point of each stat) and `tier` (the dice of a stat's ladder)".into(),
                );
            }
        }
        if !check.step.is_empty() && check.tier.is_none() {
            return err(format!("{entry}.step"), "`step` goes with a `tier`".into());
        }
        if check.stress.is_some() && check.pool.is_empty() {
            return err(entry, "`stress` dice go with a `pool`".into());
        }
        unique(
            file,
            &format!("{entry}.options"),
            check.options.iter().map(|o| o.id.as_str()),
        )?;
        if let Some(o) = check
            .options
            .iter()
            .find(|o| o.stress != 0 && check.stress.is_none())
        {
            return err(
                format!("{entry}.options.{}", o.id),
                "an option that raises stress needs the check's `stress` counter".into(),
            );
        }
        if let Some(o) = check
            .options
            .iter()
            .find(|o| !(0..=100).contains(&o.add.abs()) || !(0..=100).contains(&o.stress))
        {
            return err(
                format!("{entry}.options.{}", o.id),
                "`add` lies within -100..100 and `stress` within 0..100".into(),
            );
        }
        if let Some(bad) = check
            .plus_highest
            .iter()
            .chain(&check.pool)
            .find(|s| pack.stat(s).is_none())
        {
            return err(entry, format!("stat `{bad}` is not in [[stats]]"));
        }
        if let Some(counter) = &check.stress
            && pack.counter(counter).is_none()
        {
            return err(entry, format!("counter `{counter}` is not in [[counters]]"));
        }
        fill_in_ruling(file, pack, &entry, check.ruling.as_ref())?;
    }
    Ok(())
}

/// The most sides a record may have: more than a table seats.
const MAX_SIDES: usize = 16;

/// Checks `[record]`: sides, winner, and every table, outcome, counter and
/// ruling it names.
pub(super) fn validate_record(file: &str, pack: &Pack) -> Result<(), PackError> {
    let Some(record) = &pack.record else {
        return Ok(());
    };
    check_record_sides(file, record)?;
    check_record_epilogue(file, pack, record)?;
    check_record_upkeep(file, pack, record)?;
    check_record_rolls(file, pack, record)?;
    check_record_counters(file, pack, record)?;
    if let Some(ruling) = &record.ruling
        && pack.ruling(ruling).is_none()
    {
        return Err(PackError::new(
            file,
            "record",
            format!("ruling `{ruling}` is not in [[rulings]]"),
        ));
    }
    Ok(())
}

/// Checks what a record is called, its sides, and whether it can always
/// have a winner.
fn check_record_sides(file: &str, record: &RecordRules) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    if record.noun.trim().is_empty() {
        return err(
            "record.noun".into(),
            "missing: what one record is called (battle, session)".into(),
        );
    }
    if record.min_sides == 0 || record.min_sides > record.max_sides || record.max_sides > MAX_SIDES
    {
        return err(
            "record".into(),
            format!(
                "min_sides {} and max_sides {}: give 1 ≤ min_sides ≤ max_sides ≤ {MAX_SIDES}",
                record.min_sides, record.max_sides
            ),
        );
    }
    if record.winner == crate::rules::WinnerRule::Required && record.min_sides < 2 {
        return err(
            "record.winner".into(),
            "a record of one side cannot always have a winner: use `optional` or `none`".into(),
        );
    }
    Ok(())
}

/// Checks the record's epilogue lines: what each gives, and an id no
/// scenario's line has.
fn check_record_epilogue(file: &str, pack: &Pack, record: &RecordRules) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let amounts = |entry: &str, list: &[Amount]| check_amounts(file, pack, entry, list);
    unique(
        file,
        "record.epilogue",
        record.epilogue.iter().map(|r| r.id.as_str()),
    )?;
    for rule in &record.epilogue {
        let entry = format!("record.epilogue.{}", rule.id);
        let within = Within {
            what: "every record",
            roles: &[],
            counts: &[],
        };
        check_epilogue_line(pack, &within, rule).or_else(|reason| err(entry.clone(), reason))?;
        amounts(&entry, &rule.gain)?;
        amounts(&entry, &rule.choice)?;
        // A choice names its line: the same id in a scenario would be two.
        if let Some(scenario) = pack
            .scenarios
            .iter()
            .find(|s| s.epilogue.iter().any(|r| r.id == rule.id))
        {
            return err(
                entry,
                format!(
                    "`{}` is also a line of scenario `{}`; a choice could not say which",
                    rule.id, scenario.id
                ),
            );
        }
    }
    Ok(())
}

/// Checks the record's upkeep lines: each gives something of the pack's.
fn check_record_upkeep(file: &str, pack: &Pack, record: &RecordRules) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let amounts = |entry: &str, list: &[Amount]| check_amounts(file, pack, entry, list);
    unique(
        file,
        "record.upkeep",
        record.upkeep.iter().map(|u| u.id.as_str()),
    )?;
    for upkeep in &record.upkeep {
        let entry = format!("record.upkeep.{}", upkeep.id);
        if upkeep.gain.is_empty() {
            return err(entry, "the line changes nothing: give `gain`".into());
        }
        amounts(&entry, &upkeep.gain)?;
    }
    Ok(())
}

/// Checks the rolls during and after a record: the table, the outcomes
/// that roll, and the ruling each names.
fn check_record_rolls(file: &str, pack: &Pack, record: &RecordRules) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    for (list, rolls) in [("during", &record.during), ("after", &record.after)] {
        for (i, roll) in rolls.iter().enumerate() {
            let entry = format!("record.{list}[{i}]");
            if pack.table(&roll.table).is_none() {
                return err(
                    entry,
                    format!("table `{}` is not in [[tables]]", roll.table),
                );
            }
            if let Some(bad) = roll.outcomes.iter().find(|o| pack.outcome(o).is_none()) {
                return err(entry, format!("outcome `{bad}` is not in [[outcomes]]"));
            }
            if (list == "after") == roll.outcomes.is_empty() {
                let why = if list == "after" {
                    "a roll after the game names the outcomes whose fighters roll"
                } else {
                    "a roll during the game is made by the fighter named in the report, not by outcome"
                };
                return err(format!("{entry}.outcomes"), why.into());
            }
            if let Some(ruling) = &roll.ruling
                && pack.ruling(ruling).is_none()
            {
                return err(entry, format!("ruling `{ruling}` is not in [[rulings]]"));
            }
        }
    }
    Ok(())
}

/// Checks the counters a record changes and resets, and the rulings of
/// the resets.
fn check_record_counters(file: &str, pack: &Pack, record: &RecordRules) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let changed = record
        .counters
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("record.counters[{i}]"), c, None));
    let resets = record
        .resets
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("record.resets[{i}]"), &r.counter, r.ruling.as_ref()));
    for (entry, counter, ruling) in changed.chain(resets) {
        if pack.counter(counter).is_none() {
            return err(entry, format!("counter `{counter}` is not in [[counters]]"));
        }
        if let Some(ruling) = ruling
            && pack.ruling(ruling).is_none()
        {
            return err(entry, format!("ruling `{ruling}` is not in [[rulings]]"));
        }
    }
    Ok(())
}
