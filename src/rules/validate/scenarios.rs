//! The scenarios' checks, and the epilogue lines a scenario or every
//! record gives.

use super::{check_amounts, unique};
use crate::rules::{Amount, Pack, PackError, Recipient};

/// Checks the scenarios: stages, roles, counts and epilogue lines.
pub(super) fn validate_scenarios(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let amounts = |entry: &str, list: &[Amount]| check_amounts(file, pack, entry, list);
    for scenario in &pack.scenarios {
        let entry = format!("scenarios.{}", scenario.id);
        if !pack.arc_stages.is_empty() && pack.arc_stage(&scenario.stage).is_none() {
            return err(
                entry,
                format!("stage `{}` is not in [[arc_stages]]", scenario.stage),
            );
        }
        if let Some(win) = &scenario.win_at
            && !scenario.counts.iter().any(|c| c.id == win.count)
        {
            return err(
                format!("{entry}.win_at"),
                format!("count `{}` is not one of the scenario's counts", win.count),
            );
        }
        unique(
            file,
            &format!("{entry}.roles"),
            scenario.roles.iter().map(|r| r.id.as_str()),
        )?;
        unique(
            file,
            &format!("{entry}.counts"),
            scenario.counts.iter().map(|c| c.id.as_str()),
        )?;
        unique(
            file,
            &format!("{entry}.epilogue"),
            scenario.epilogue.iter().map(|r| r.id.as_str()),
        )?;
        for count in &scenario.counts {
            let maxima = [("max", count.max), ("total_max", count.total_max)];
            for (field, max) in maxima {
                if let Some(max) = max
                    && max < 0
                {
                    return err(
                        format!("{entry}.counts.{}.{field}", count.id),
                        format!("{max} is negative, and a count is never below 0"),
                    );
                }
            }
            if let (Some(max), Some(total_max)) = (count.max, count.total_max)
                && max > total_max
            {
                return err(
                    format!("{entry}.counts.{}", count.id),
                    format!("max {max} is above total_max {total_max}"),
                );
            }
        }
        if !(scenario.roles.is_empty() || scenario.roles.len() == 2) {
            return err(
                entry,
                "a scenario has no roles or one for each of the two gangs".into(),
            );
        }
        for count in &scenario.counts {
            if let Some(bad) = count.outcomes.iter().find(|o| pack.outcome(o).is_none()) {
                return err(
                    format!("{entry}.counts.{}", count.id),
                    format!("outcome `{bad}` is not in [[outcomes]]"),
                );
            }
        }
        for rule in &scenario.epilogue {
            let entry = format!("{entry}.epilogue.{}", rule.id);
            let within = Within {
                what: "the scenario",
                roles: &scenario.roles,
                counts: &scenario.counts,
            };
            check_epilogue_line(pack, &within, rule)
                .or_else(|reason| err(entry.clone(), reason))?;
            amounts(&entry, &rule.gain)?;
            amounts(&entry, &rule.choice)?;
        }
    }
    Ok(())
}

/// What an epilogue line may name: its scenario's roles and counts (none
/// for the lines of every record).
pub(super) struct Within<'a> {
    pub(super) what: &'a str,
    pub(super) roles: &'a [crate::rules::RoleDef],
    pub(super) counts: &'a [crate::rules::CountDef],
}

/// Checks one epilogue line: who it is for, what it counts, what it gives.
pub(super) fn check_epilogue_line(
    pack: &Pack,
    within: &Within<'_>,
    rule: &crate::rules::EpilogueRule,
) -> Result<(), String> {
    let what = within.what;
    let has_role = |id: &str| within.roles.iter().any(|r| r.id == id);
    // A count of the scenario's, or of fighters by outcome.
    let check_count = |field: &str, count: &str| -> Result<(), String> {
        match crate::rules::outcome_count(count) {
            Some(outcomes) => match outcomes.iter().find(|o| pack.outcome(o).is_none()) {
                Some(bad) => Err(format!(
                    "{field} `{count}`: outcome `{bad}` is not in [[outcomes]]"
                )),
                None => Ok(()),
            },
            None if within.counts.iter().any(|c| c.id == count) => Ok(()),
            None => Err(format!(
                "{field} `{count}` is not a count of {what} (nor `outcome:<id>`)"
            )),
        }
    };
    match rule.recipient()? {
        Recipient::Role(role) if !has_role(&role) => {
            return Err(format!("role `{role}` is not a role of {what}"));
        }
        Recipient::Most(count) => check_count("most", &count)?,
        Recipient::Fewest(count) => check_count("fewest", &count)?,
        _ => {}
    }
    if let Some(role) = &rule.when_winner
        && !has_role(role)
    {
        return Err(format!("when_winner `{role}` is not a role of {what}"));
    }
    if let Some(count) = &rule.per {
        check_count("per", count)?;
    }
    if rule.gain.is_empty() && rule.choice.is_empty() {
        return Err("the line changes nothing: give `gain` or `choice`".into());
    }
    if rule.optional && rule.choice.is_empty() {
        return Err("`optional` needs a `choice`".into());
    }
    if let Some(ruling) = &rule.ruling
        && pack.ruling(ruling).is_none()
    {
        return Err(format!("ruling `{ruling}` is not in [[rulings]]"));
    }
    Ok(())
}
