//! Checking a battle report against the campaign and the pack: every name
//! resolved to an id, every number within bounds, every field that breaks a
//! rule named. Pure; nothing is changed.

use super::*;

/// Checks the report and resolves every name to an id.
pub(super) fn resolve(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    id: BattleId,
) -> Result<Battle, ReportError> {
    if report.format != REPORT_FORMAT {
        return refuse(
            "format",
            format!(
                "format {} is not supported (this build reads format {REPORT_FORMAT})",
                report.format
            ),
        );
    }
    let Some(scenario) = pack.find_scenario(&report.scenario) else {
        let names: Vec<&str> = pack.scenarios.iter().map(|s| s.name.as_str()).collect();
        return refuse(
            "scenario",
            format!(
                "“{}” is not a scenario of {} (scenarios: {})",
                report.scenario,
                pack.pack.name,
                names.join(", ")
            ),
        );
    };
    check_numbers(report)?;
    if report.gangs.len() != 2 {
        return refuse(
            "gangs",
            format!("a battle is between two gangs, not {}", report.gangs.len()),
        );
    }

    let mut gangs = Vec::new();
    for (i, g) in report.gangs.iter().enumerate() {
        let gang = resolve_gang(pack, state, scenario, i, g, &gangs)?;
        gangs.push(gang);
    }
    check_roles_and_totals(scenario, &gangs)?;
    let fighters = resolve_fighters(pack, state, report, &gangs)?;
    let winner = resolve_winner(state, report, &gangs)?;
    Ok(Battle {
        id,
        ruleset: pack.pack.id.clone(),
        scenario: scenario.id.clone(),
        gangs,
        winner,
        fighters,
        notes: report.notes.clone(),
    })
}

/// One gang of the report: who it is, its role and its counts (`gangs`
/// are the ones resolved before it).
fn resolve_gang(
    pack: &Pack,
    state: &CampaignState,
    scenario: &ScenarioDef,
    i: usize,
    g: &GangReport,
    gangs: &[BattleGang],
) -> Result<BattleGang, ReportError> {
    let field = format!("gangs[{i}]");
    let Some(gang) = state.gang_named(&g.gang) else {
        return refuse(
            format!("{field}.gang"),
            format!("no gang called “{}” in this campaign", g.gang),
        );
    };
    if gang.ruleset != pack.pack.id {
        return refuse(
            format!("{field}.gang"),
            format!(
                "{} plays {}, not {}",
                gang.name, gang.ruleset, pack.pack.name
            ),
        );
    }
    if gangs.iter().any(|b: &BattleGang| b.gang == gang.id) {
        return refuse(
            format!("{field}.gang"),
            format!("{} is named twice", gang.name),
        );
    }
    let role = match (&g.role, scenario.roles.is_empty()) {
        (None, true) => None,
        (Some(role), true) => {
            return refuse(
                format!("{field}.role"),
                format!("{} has no roles, but “{role}” was given", scenario.name),
            );
        }
        (None, false) => {
            return refuse(
                format!("{field}.role"),
                format!("{} needs a role: {}", scenario.name, role_list(scenario)),
            );
        }
        (Some(role), false) => {
            let found = scenario
                .roles
                .iter()
                .find(|r| crate::text::same(&r.id, role) || crate::text::same(&r.label, role));
            match found {
                Some(r) => Some(r.id.clone()),
                None => {
                    return refuse(
                        format!("{field}.role"),
                        format!(
                            "“{role}” is not a role of {} ({})",
                            scenario.name,
                            role_list(scenario)
                        ),
                    );
                }
            }
        }
    };
    let mut counts = BTreeMap::new();
    for (key, value) in &g.counts {
        let Some(def) = scenario.counts.iter().find(|c| c.id == *key) else {
            return refuse(
                format!("{field}.counts.{key}"),
                format!("{} has no count “{key}”", scenario.name),
            );
        };
        if *value < 0 {
            return refuse(
                format!("{field}.counts.{key}"),
                "a count cannot be negative",
            );
        }
        if let Some(max) = def.max
            && *value > max
        {
            return refuse(
                format!("{field}.counts.{key}"),
                format!("{} cannot be more than {max}", def.label),
            );
        }
        counts.insert(key.clone(), *value);
    }
    Ok(BattleGang {
        gang: gang.id,
        role,
        ran_for_it: g.ran_for_it,
        counts,
    })
}

/// The two gangs cannot share a role, and their counts cannot pass the
/// scenario's totals.
fn check_roles_and_totals(scenario: &ScenarioDef, gangs: &[BattleGang]) -> Result<(), ReportError> {
    if let (Some(a), Some(b)) = (&gangs[0].role, &gangs[1].role)
        && a == b
    {
        let label = scenario
            .roles
            .iter()
            .find(|r| r.id == *a)
            .map_or(a.as_str(), |r| r.label.as_str());
        return refuse("gangs[1].role", format!("both gangs cannot be the {label}"));
    }
    for def in &scenario.counts {
        if let Some(total_max) = def.total_max {
            let field = format!("gangs[*].counts.{}", def.id);
            let total = gangs
                .iter()
                .filter_map(|g| g.counts.get(&def.id))
                .try_fold(0i64, |sum, n| sum.checked_add(*n));
            let Some(total) = total else {
                return refuse(field, crate::rules::out_of_bound("their sum"));
            };
            if total > total_max {
                return refuse(
                    field,
                    format!(
                        "{} adds up to {total}; the scenario has only {total_max}",
                        def.label
                    ),
                );
            }
        }
    }
    Ok(())
}

/// Every fighter's outcome, and who downed them.
fn resolve_fighters(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    gangs: &[BattleGang],
) -> Result<Vec<BattleFighter>, ReportError> {
    let mut fighters = Vec::new();
    // Fighters, now that both gangs are known. A fighter the report leaves
    // without an outcome came through as usual: the pack's default outcome.
    let default_outcome = pack.default_outcome().map(|o| o.id.clone());
    for (i, g) in report.gangs.iter().enumerate() {
        let gang = gangs[i].gang;
        let rival = gangs[1 - i].gang;
        let gang_name = &state.gang(gang).map(|g| g.name.clone()).unwrap_or_default();
        match &g.fighters {
            None => {
                fighters.extend(
                    state
                        .fighters
                        .iter()
                        .filter(|f| f.gang == gang && f.status.can_fight())
                        .map(|f| BattleFighter {
                            fighter: f.id,
                            gang,
                            outcome: default_outcome.clone().unwrap_or_default(),
                            downed_by: None,
                        }),
                );
            }
            Some(list) => {
                for (j, fr) in list.iter().enumerate() {
                    let field = format!("gangs[{i}].fighters[{j}]");
                    let Some(fighter) = state.fighter_named(gang, &fr.fighter) else {
                        let elsewhere = state
                            .fighters
                            .iter()
                            .find(|f| crate::text::same(&f.name, &fr.fighter))
                            .and_then(|f| state.gang(f.gang));
                        let reason = match elsewhere {
                            Some(other) => {
                                format!("{} fights for {}, not {gang_name}", fr.fighter, other.name)
                            }
                            None => format!("“{}” is not a fighter of {gang_name}", fr.fighter),
                        };
                        return refuse(format!("{field}.fighter"), reason);
                    };
                    if !fighter.status.can_fight() {
                        let why = match &fighter.status {
                            FighterStatus::Wounded { .. } => {
                                "is wounded and misses this battle".to_owned()
                            }
                            FighterStatus::Captured { by, .. } => format!(
                                "is held by {} and cannot fight",
                                state.gang(*by).map_or("a rival", |g| g.name.as_str())
                            ),
                            FighterStatus::Gone { status, .. } => {
                                format!("has left the gang ({status})")
                            }
                            FighterStatus::Active => String::new(),
                        };
                        return refuse(
                            format!("{field}.fighter"),
                            format!("{} {why}", fighter.name),
                        );
                    }
                    if fighters
                        .iter()
                        .any(|b: &BattleFighter| b.fighter == fighter.id)
                    {
                        return refuse(
                            format!("{field}.fighter"),
                            format!("{} is listed twice", fighter.name),
                        );
                    }
                    let Some(wanted) = fr.outcome.as_ref().or(default_outcome.as_ref()) else {
                        return refuse(
                            format!("{field}.outcome"),
                            format!("missing: the ruleset {} has no outcomes", pack.pack.name),
                        );
                    };
                    let Some(outcome) = pack.outcome(wanted) else {
                        let ids: Vec<&str> = pack.outcomes.iter().map(|o| o.id.as_str()).collect();
                        return refuse(
                            format!("{field}.outcome"),
                            format!("“{wanted}” is not an outcome ({})", ids.join(", ")),
                        );
                    };
                    let downed_by = match &fr.downed_by {
                        None => None,
                        Some(_) if !outcome.taken_down => {
                            return refuse(
                                format!("{field}.downed_by"),
                                format!("{} was not taken down ({})", fighter.name, outcome.label),
                            );
                        }
                        Some(name) => match state.fighter_named(rival, name) {
                            Some(by) => Some(by.id),
                            None => {
                                return refuse(
                                    format!("{field}.downed_by"),
                                    format!("“{name}” is not a fighter of the rival gang"),
                                );
                            }
                        },
                    };
                    fighters.push(BattleFighter {
                        fighter: fighter.id,
                        gang,
                        outcome: outcome.id.clone(),
                        downed_by,
                    });
                }
            }
        }
    }
    Ok(fighters)
}

/// The winner: named, unless both gangs ran; never a gang that ran.
fn resolve_winner(
    state: &CampaignState,
    report: &BattleReport,
    gangs: &[BattleGang],
) -> Result<Option<GangId>, ReportError> {
    // The result.
    let ran: Vec<bool> = gangs.iter().map(|g| g.ran_for_it).collect();
    let winner = match &report.winner {
        None if ran[0] && ran[1] => None,
        None => {
            return refuse(
                "winner",
                "missing: a battle has a winner unless both gangs Ran For It",
            );
        }
        Some(name) => {
            let Some(index) = gangs.iter().position(|g| {
                state
                    .gang(g.gang)
                    .is_some_and(|s| crate::text::same(&s.name, name))
            }) else {
                return refuse("winner", format!("“{name}” did not fight in this battle"));
            };
            if ran[0] && ran[1] {
                return refuse(
                    "winner",
                    "both gangs Ran For It, so there is no winner (null)",
                );
            }
            if ran[index] {
                return refuse(
                    "winner",
                    format!("{name} Ran For It, so it lost: the winner is its rival"),
                );
            }
            Some(gangs[index].gang)
        }
    };
    Ok(winner)
}

/// Refuses a number of the report outside the safety bound, naming its
/// field, before anything adds or multiplies it.
fn check_numbers(report: &BattleReport) -> Result<(), ReportError> {
    let counts = report.gangs.iter().enumerate().flat_map(|(i, g)| {
        g.counts
            .iter()
            .map(move |(key, n)| (format!("gangs[{i}].counts.{key}"), *n))
    });
    let faces = report.dice.iter().enumerate().flat_map(|(i, d)| {
        d.faces
            .iter()
            .enumerate()
            .map(move |(j, n)| (format!("dice[{i}].faces[{j}]"), i64::from(*n)))
    });
    let totals = report
        .table_results
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("table_results[{i}].total"), r.total));
    for (field, n) in counts.chain(faces).chain(totals) {
        if let Err(reason) = crate::rules::check_bound(n) {
            return refuse(field, reason);
        }
    }
    Ok(())
}

fn role_list(scenario: &ScenarioDef) -> String {
    scenario
        .roles
        .iter()
        .map(|r| r.label.as_str())
        .collect::<Vec<_>>()
        .join(" or ")
}
