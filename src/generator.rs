//! The campaign generator: a large, legal campaign made on demand through
//! the real domain and store (real battle reports, the real post-battle
//! procedure), deterministic for a seed. For benchmarks and the crash
//! harness.

use anyhow::{Result, anyhow};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::campaign::GangId;
use crate::campaign::battle::{
    BattleReport, ChoiceReport, FighterReport, GangReport, PickReport, TitleChoiceReport,
};
use crate::campaign::commands::NewFighter;
use crate::session::Session;

/// What to make.
#[derive(Debug, Clone, Copy)]
pub struct GenSize {
    pub gangs: usize,
    pub fighters_per_gang: usize,
    pub battles: usize,
    pub seed: u64,
}

/// Adds gangs, fighters and battles to a campaign. `progress` hears
/// (done, total) as it goes.
pub fn generate(
    session: &mut Session,
    size: GenSize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(size.seed);
    let ruleset = session.info()?.default_ruleset;
    let pack = session.pack(&ruleset)?.clone();
    let total = size.gangs + size.battles;
    // Gangs already in the file fight too.
    let mut gangs: Vec<GangId> = session.gangs()?.into_iter().map(|g| g.id).collect();
    let first = gangs.len();
    for g in first..first + size.gangs {
        let (id, _) = session.found_gang(&format!("Gang {:03}", g + 1), Some(&ruleset))?;
        for f in 0..size.fighters_per_gang {
            let leader = f == 0;
            let wanted = pack.recruiting.as_ref().map_or(0, |r| {
                r.quirks_per_fighter + if leader { r.leader_extra_quirks } else { 0 }
            });
            // Distinct quirks the constraints allow, tried a few times.
            let mut quirks = Vec::new();
            for _ in 0..20 {
                let mut pool: Vec<String> = pack.quirks.iter().map(|q| q.id.clone()).collect();
                quirks.clear();
                while quirks.len() < wanted && !pool.is_empty() {
                    let i = rng.random_range(0..pool.len());
                    quirks.push(pool.swap_remove(i));
                }
                let trial = crate::campaign::Fighter {
                    id: crate::campaign::FighterId(0),
                    gang: id,
                    name: String::new(),
                    leader,
                    quirks: quirks.iter().map(crate::campaign::QuirkPick::new).collect(),
                    counters: Default::default(),
                    notes: String::new(),
                    base: Default::default(),
                    status: Default::default(),
                };
                if crate::campaign::fighter_problems(&pack, &trial).is_empty() {
                    break;
                }
            }
            session.recruit(
                id,
                NewFighter {
                    name: format!("Fighter {:03}-{:02}", g + 1, f + 1),
                    leader,
                    quirks: quirks.iter().map(crate::campaign::QuirkPick::new).collect(),
                    notes: String::new(),
                    base: Default::default(),
                },
            )?;
        }
        gangs.push(id);
        progress(g + 1 - first, total);
    }
    if gangs.len() < 2 && size.battles > 0 {
        return Err(anyhow!("battles need at least two gangs"));
    }
    for b in 0..size.battles {
        let (report, seed) = next_battle(session, &mut rng, &gangs)?;
        session.record_battle(&report, seed)?;
        progress(size.gangs + b + 1, total);
    }
    Ok(())
}

/// A legal battle report between two of `gangs` (at random, with the
/// pack's scenarios), every choice it needs answered with the first option
/// as a quick player would, and the seed of its rolls. Records nothing.
pub fn next_battle(
    session: &Session,
    rng: &mut ChaCha8Rng,
    gangs: &[GangId],
) -> Result<(BattleReport, u64)> {
    if gangs.len() < 2 {
        return Err(anyhow!("battles need at least two gangs"));
    }
    let ruleset = session.info()?.default_ruleset;
    let pack = session.pack(&ruleset)?;
    let a = gangs[rng.random_range(0..gangs.len())];
    let mut other = gangs[rng.random_range(0..gangs.len())];
    while other == a {
        other = gangs[rng.random_range(0..gangs.len())];
    }
    if pack.scenarios.is_empty() || pack.outcomes.is_empty() {
        return Err(anyhow!(
            "{} has no scenario and outcomes to record a battle with",
            pack.pack.name
        ));
    }
    let scenario = pack.scenarios[rng.random_range(0..pack.scenarios.len())].clone();
    let mut report = battle_report(session, rng, &scenario, [a, other])?;
    let seed = rng.random::<u64>();
    for _ in 0..12 {
        let preview = session.preview_battle(&report, seed)?;
        let Some(need) = preview.needed.first().cloned() else {
            break;
        };
        let option = need.options.first().cloned().unwrap_or_default();
        match need.field.as_str() {
            "titles" => report.titles.push(TitleChoiceReport {
                gang: need.gang,
                title: option,
            }),
            "picks" => report.picks.push(PickReport {
                roll: need.rule,
                pick: option,
            }),
            _ => report.choices.push(ChoiceReport {
                gang: need.gang,
                rule: need.rule,
                pick: option,
            }),
        }
    }
    Ok((report, seed))
}

fn battle_report(
    session: &Session,
    rng: &mut ChaCha8Rng,
    scenario: &crate::rules::ScenarioDef,
    pair: [GangId; 2],
) -> Result<BattleReport> {
    let names: Vec<String> = pair
        .iter()
        .map(|g| session.gang(*g).map(|g| g.name))
        .collect::<Result<_>>()?;
    let rosters: Vec<Vec<String>> = pair
        .iter()
        .map(|g| {
            Ok(session
                .roster(*g)?
                .into_iter()
                .filter(|f| f.status.can_fight())
                .map(|f| f.name)
                .collect())
        })
        .collect::<Result<_>>()?;
    let roles: Vec<Option<String>> = if scenario.roles.len() == 2 {
        match session.suggest_roles(&scenario.id, pair[0], pair[1])? {
            Some((ra, rb)) => vec![Some(ra), Some(rb)],
            None => vec![
                Some(scenario.roles[0].id.clone()),
                Some(scenario.roles[1].id.clone()),
            ],
        }
    } else {
        vec![None, None]
    };
    // The pack's default outcome is how most fighters end a battle; each of
    // the others comes up one time in ten.
    let pack = session.pack(&session.gang(pair[0])?.ruleset)?;
    let usual = pack.default_outcome();
    let others: Vec<_> = pack.outcomes.iter().filter(|o| !o.default).collect();
    let mut gangs = Vec::new();
    for i in 0..2 {
        let fighters = rosters[i]
            .iter()
            .map(|name| {
                let roll: usize = rng.random_range(0..10);
                let outcome = roll.checked_sub(1).and_then(|r| others.get(r).copied());
                let taken_down = outcome.or(usual).is_some_and(|o| o.taken_down);
                let downed_by = (taken_down && !rosters[1 - i].is_empty())
                    .then(|| rosters[1 - i][rng.random_range(0..rosters[1 - i].len())].clone());
                FighterReport {
                    fighter: name.clone(),
                    outcome: outcome.map(|o| o.id.clone()),
                    downed_by,
                }
            })
            .collect();
        let mut counts = std::collections::BTreeMap::new();
        for c in &scenario.counts {
            let cap = c
                .total_max
                .map_or(4, |t| t / 2)
                .min(c.max.unwrap_or(i64::MAX));
            counts.insert(c.id.clone(), rng.random_range(0..=cap.max(0)));
        }
        gangs.push(GangReport {
            gang: names[i].clone(),
            role: roles[i].clone(),
            ran_for_it: false,
            counts,
            fighters: Some(fighters),
        });
    }
    let winner = names[rng.random_range(0..2)].clone();
    Ok(BattleReport {
        format: crate::campaign::battle::REPORT_FORMAT,
        scenario: scenario.id.clone(),
        gangs,
        winner: Some(winner),
        choices: Vec::new(),
        bounties: Vec::new(),
        titles: Vec::new(),
        dice: Vec::new(),
        advancements: Vec::new(),
        picks: Vec::new(),
        table_results: Vec::new(),
        notes: String::new(),
    })
}
