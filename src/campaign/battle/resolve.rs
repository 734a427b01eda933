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
    let scenario = resolve_scenario(pack, report)?;
    check_numbers(report)?;
    let rules = pack.record();
    let sides = report.gangs.len();
    let shape = places::resolve_shape(pack, report)?;
    if let Some(shape) = shape {
        places::check_sides(pack, shape, sides)?;
    } else if sides < rules.min_sides || sides > rules.max_sides {
        let wanted = if rules.min_sides == rules.max_sides {
            rules.min_sides.to_string()
        } else {
            format!("{} to {}", rules.min_sides, rules.max_sides)
        };
        return refuse(
            "gangs",
            format!(
                "a {} of {} has {wanted} taking part, not {sides}",
                rules.noun, pack.pack.name
            ),
        );
    }

    let mut gangs = Vec::new();
    for (i, g) in report.gangs.iter().enumerate() {
        let gang = resolve_gang(pack, state, scenario, i, g, &gangs)?;
        gangs.push(gang);
    }
    let fighters = resolve_fighters(pack, state, report, &gangs)?;
    if let Some(scenario) = scenario {
        counts_from_outcomes(pack, state, scenario, report, &mut gangs, &fighters)?;
        check_roles_and_totals(pack, scenario, &gangs)?;
    }
    let winner = match shape {
        Some(shape) => places::place_sides(pack, state, report, shape, &mut gangs)?,
        None => {
            places::no_places(pack, report)?;
            resolve_winner(pack, state, report, &gangs)?
        }
    };
    let stake = places::resolve_stake(pack, state, report, shape, &gangs)?;
    let cycle = places::resolve_cycle(pack, state, report, &gangs)?;
    let declined = declined(state, report, &gangs);
    let played = played(pack, state, report)?;
    Ok(Battle {
        id,
        ruleset: pack.pack.id.clone(),
        scenario: scenario.map(|s| s.id.clone()),
        gangs,
        winner,
        fighters,
        notes: report.notes.clone(),
        declined,
        played,
        shape: shape.map(|s| s.id.clone()),
        stake,
        cycle,
        challenge: report.challenge,
    })
}

/// The boxes the report ticks, the campaign's settings of the pack and
/// the versions of the packs the record is played with.
fn played(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
) -> Result<Played, ReportError> {
    let flags = &pack.record().flags;
    let mut ticked = Vec::new();
    for (i, name) in report.flags.iter().enumerate() {
        let Some(flag) = flags
            .iter()
            .find(|f| crate::text::same(&f.id, name) || crate::text::same(&f.label, name))
        else {
            let known: Vec<&str> = flags.iter().map(|f| f.label.as_str()).collect();
            let reason = if known.is_empty() {
                format!(
                    "a {} of {} has no boxes to tick",
                    pack.record().noun,
                    pack.pack.name
                )
            } else {
                format!(
                    "“{}” is not one of {}",
                    crate::text::echo(name),
                    known.join(", ")
                )
            };
            return refuse(format!("flags[{i}]"), reason);
        };
        if !ticked.contains(&flag.id) {
            ticked.push(flag.id.clone());
        }
    }
    let settings = pack
        .settings
        .iter()
        .map(|s| {
            let chosen = state
                .settings
                .get(&s.id)
                .filter(|o| s.option(o).is_some())
                .unwrap_or(&s.default);
            (s.id.clone(), chosen.clone())
        })
        .collect();
    Ok(Played {
        flags: ticked,
        settings,
        packs: state.stamps.get(&pack.pack.id).cloned().unwrap_or_default(),
        made: None,
    })
}

/// The gangs of the record that declare no bounty (their declaration's
/// `fighter` is `null`); the procedure checks the pack allows it.
fn declined(state: &CampaignState, report: &BattleReport, gangs: &[BattleGang]) -> Vec<GangId> {
    let named: Vec<GangId> = report
        .bounties
        .iter()
        .filter(|b| b.fighter.is_none())
        .filter_map(|b| state.gang_named(&b.by))
        .map(|g| g.id)
        .collect();
    // In the order the gangs take part, as the store keeps them.
    gangs
        .iter()
        .map(|g| g.gang)
        .filter(|id| named.contains(id))
        .collect()
}

/// The scenario the report names: one of the pack's, or none where the
/// pack plays no scenarios.
fn resolve_scenario<'p>(
    pack: &'p Pack,
    report: &BattleReport,
) -> Result<Option<&'p ScenarioDef>, ReportError> {
    let names = || {
        pack.scenarios
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (&report.scenario, pack.scenarios.is_empty()) {
        (None, true) => Ok(None),
        (None, false) if pack.record().scenario_optional => Ok(None),
        (Some(name), true) => refuse(
            "scenario",
            format!(
                "{} plays no scenarios, but “{name}” was given",
                pack.pack.name
            ),
        ),
        (None, false) => refuse(
            "scenario",
            format!(
                "missing: one of the scenarios of {} ({})",
                pack.pack.name,
                names()
            ),
        ),
        (Some(name), false) => match pack.find_scenario(name) {
            Some(scenario) => Ok(Some(scenario)),
            None => refuse(
                "scenario",
                format!(
                    "“{name}” is not a scenario of {} (scenarios: {})",
                    pack.pack.name,
                    names()
                ),
            ),
        },
    }
}

/// One gang of the report: who it is, its role and its counts (`gangs`
/// are the ones resolved before it).
fn resolve_gang(
    pack: &Pack,
    state: &CampaignState,
    scenario: Option<&ScenarioDef>,
    i: usize,
    g: &GangReport,
    gangs: &[BattleGang],
) -> Result<BattleGang, ReportError> {
    let field = format!("gangs[{i}]");
    let Some(gang) = state.gang_named(&g.gang) else {
        return refuse(
            format!("{field}.gang"),
            format!(
                "no {} called “{}” in this campaign",
                pack.words.gang, g.gang
            ),
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
    let role = resolve_role(scenario, &field, g)?;
    let counts = resolve_counts(scenario, &field, g)?;
    Ok(BattleGang {
        gang: gang.id,
        role,
        ran_for_it: g.ran_for_it,
        counts,
        place: None,
        challenger: false,
    })
}

/// A gang's role in the scenario, where the scenario has roles.
fn resolve_role(
    scenario: Option<&ScenarioDef>,
    field: &str,
    g: &GangReport,
) -> Result<Option<String>, ReportError> {
    let Some(scenario) = scenario else {
        return match &g.role {
            None => Ok(None),
            Some(role) => refuse(
                format!("{field}.role"),
                format!("there is no scenario, so no role, but “{role}” was given"),
            ),
        };
    };
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
    Ok(role)
}

/// A gang's counts of the scenario's things (none without a scenario).
fn resolve_counts(
    scenario: Option<&ScenarioDef>,
    field: &str,
    g: &GangReport,
) -> Result<BTreeMap<String, i64>, ReportError> {
    let no_counts = Vec::new();
    let defs = scenario.map_or(&no_counts, |s| &s.counts);
    let scenario_name = scenario.map_or("this record", |s| s.name.as_str());
    let mut counts = BTreeMap::new();
    for (key, value) in &g.counts {
        let Some(def) = defs
            .iter()
            .find(|c| crate::text::same(&c.id, key) || crate::text::same(&c.label, key))
        else {
            return refuse(
                format!("{field}.counts.{key}"),
                format!("{scenario_name} has no count “{key}”"),
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
        counts.insert(def.id.clone(), *value);
    }
    Ok(counts)
}

/// The scenario's counts of fighters by outcome, read from the report's
/// fighters; a count typed beside them must agree, or the report is
/// refused naming both fields.
fn counts_from_outcomes(
    pack: &Pack,
    state: &CampaignState,
    scenario: &ScenarioDef,
    report: &BattleReport,
    gangs: &mut [BattleGang],
    fighters: &[BattleFighter],
) -> Result<(), ReportError> {
    for (i, gang) in gangs.iter_mut().enumerate() {
        for def in scenario.counts.iter().filter(|c| !c.outcomes.is_empty()) {
            let n = fighters_ending(fighters, gang.gang, &def.outcomes);
            if let Some(typed) = gang.counts.get(&def.id)
                && *typed != n
            {
                let key = report.gangs[i]
                    .counts
                    .keys()
                    .find(|k| crate::text::same(k, &def.id) || crate::text::same(k, &def.label))
                    .cloned()
                    .unwrap_or_else(|| def.id.clone());
                let name = state.gang(gang.gang).map_or("", |g| g.name.as_str());
                let outcomes: Vec<&str> = def
                    .outcomes
                    .iter()
                    .map(|o| pack.outcome(o).map_or(o.as_str(), |o| o.label.as_str()))
                    .collect();
                return refuse(
                    format!("gangs[{i}].counts.{key}"),
                    format!(
                        "{} {typed} contradicts gangs[{i}].fighters: {n} of {name}'s {} ended {}",
                        def.label,
                        pack.words.fighters,
                        outcomes.join(" or ")
                    ),
                );
            }
            gang.counts.insert(def.id.clone(), n);
        }
    }
    Ok(())
}

/// No two gangs share a role, and their counts cannot pass the scenario's
/// totals.
fn check_roles_and_totals(
    pack: &Pack,
    scenario: &ScenarioDef,
    gangs: &[BattleGang],
) -> Result<(), ReportError> {
    for (i, gang) in gangs.iter().enumerate() {
        let Some(role) = &gang.role else { continue };
        if gangs[..i].iter().any(|g| g.role.as_ref() == Some(role)) {
            let label = scenario
                .roles
                .iter()
                .find(|r| r.id == *role)
                .map_or(role.as_str(), |r| r.label.as_str());
            return refuse(
                format!("gangs[{i}].role"),
                format!("two {} cannot both be the {label}", pack.words.gangs),
            );
        }
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
                            None => format!(
                                "“{}” is not a {} of {gang_name}",
                                fr.fighter, pack.words.fighter
                            ),
                        };
                        return refuse(format!("{field}.fighter"), reason);
                    };
                    if !fighter.status.can_fight() {
                        let why = match &fighter.status {
                            FighterStatus::LaidUp { until, .. } => format!(
                                "is laid up until {}",
                                crate::campaign::season::until_said(&pack.words, *until)
                            ),
                            FighterStatus::Wounded { .. } => {
                                format!("is wounded and misses this {}", pack.record().noun)
                            }
                            FighterStatus::Captured { by, .. } => format!(
                                "is held by {} and cannot fight",
                                state.gang(*by).map_or("a rival", |g| g.name.as_str())
                            ),
                            FighterStatus::Gone { status, .. } => {
                                format!("has left the {} ({status})", pack.words.gang)
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
                    let Some(outcome) = pack.find_outcome(wanted) else {
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
                        Some(name) => {
                            let by = gangs
                                .iter()
                                .filter(|other| other.gang != gang)
                                .find_map(|other| state.fighter_named(other.gang, name));
                            match by {
                                Some(by) => Some(by.id),
                                None => {
                                    return refuse(
                                        format!("{field}.downed_by"),
                                        format!(
                                            "“{name}” is not a {} of a rival {}",
                                            pack.words.fighter, pack.words.gang
                                        ),
                                    );
                                }
                            }
                        }
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

/// The winner, as the pack's records have one: named unless every gang
/// ran (or the pack leaves it open, or has none); never a gang that ran.
fn resolve_winner(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    gangs: &[BattleGang],
) -> Result<Option<GangId>, ReportError> {
    let rules = pack.record();
    let all_ran = gangs.iter().all(|g| g.ran_for_it);
    let ran = rules.ran.as_deref().unwrap_or("left the game");
    let Some(name) = &report.winner else {
        return match rules.winner {
            WinnerRule::Required if !all_ran => refuse(
                "winner",
                format!(
                    "missing: a {} has a winner unless every {} {ran}",
                    rules.noun, pack.words.gang
                ),
            ),
            _ => Ok(None),
        };
    };
    if rules.winner == WinnerRule::None {
        return refuse(
            "winner",
            format!("a {} of {} has no winner", rules.noun, pack.pack.name),
        );
    }
    let Some(index) = gangs.iter().position(|g| {
        state
            .gang(g.gang)
            .is_some_and(|s| crate::text::same(&s.name, name))
    }) else {
        return refuse(
            "winner",
            format!("“{name}” did not take part in this {}", rules.noun),
        );
    };
    if all_ran && gangs.len() > 1 {
        return refuse(
            "winner",
            format!(
                "every {} {ran}, so there is no winner (null)",
                pack.words.gang
            ),
        );
    }
    if gangs[index].ran_for_it {
        return refuse(
            "winner",
            format!("{name} {ran}, so it lost: the winner is a rival"),
        );
    }
    Ok(Some(gangs[index].gang))
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
        .filter_map(|(i, r)| Some((format!("table_results[{i}].total"), r.total?)));
    let changes = report.gangs.iter().enumerate().flat_map(|(i, g)| {
        g.fighters
            .iter()
            .flatten()
            .enumerate()
            .flat_map(move |(j, f)| {
                let at = format!("gangs[{i}].fighters[{j}]");
                let whole = f
                    .counters
                    .iter()
                    .map(move |(key, n)| (format!("{at}.counters.{key}"), *n));
                let steps = f.steps.iter().enumerate().map(move |(k, step)| {
                    (
                        format!("gangs[{i}].fighters[{j}].steps[{k}].change"),
                        step.change,
                    )
                });
                whole.chain(steps)
            })
    });
    for (field, n) in counts.chain(faces).chain(totals).chain(changes) {
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
