//! The campaign generator: a large, legal campaign made on demand through
//! the real domain and store (real battle reports, the real post-battle
//! procedure), deterministic for a seed. For benchmarks and the crash
//! harness.

use anyhow::{Result, anyhow};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::campaign::GangId;
use crate::campaign::battle::{
    BattleReport, BountyReport, ChoiceReport, FighterReport, GangReport, MarkReport,
    NO_DECLARATION, PickReport, TableResultReport, TitleChoiceReport,
};
use crate::campaign::commands::{Founding, NewFighter};
use crate::rules::{CycleEnds, ShapeDef, ShapeResult, WinnerRule};
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
        // In each faction by turns, where the game has factions.
        let faction =
            (!pack.factions.is_empty()).then(|| pack.factions[g % pack.factions.len()].id.clone());
        let founding = Founding {
            faction: faction.as_deref(),
            holding: None,
        };
        let (id, _) =
            session.found_gang_with(&format!("Gang {:03}", g + 1), Some(&ruleset), founding)?;
        for f in 0..size.fighters_per_gang {
            let leader = f == 0;
            let wanted = pack
                .recruiting
                .as_ref()
                .and_then(|r| r.entries_for(leader))
                .map_or(0, |r| r.min());
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
                    group: None,
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
                    group: None,
                },
            )?;
        }
        gangs.push(id);
        progress(g + 1 - first, total);
    }
    let least = pack.record().fewest_sides();
    if gangs.len() < least && size.battles > 0 {
        return Err(anyhow!(
            "a {} of {} needs at least {least} gangs",
            pack.record().noun,
            pack.pack.name
        ));
    }
    for b in 0..size.battles {
        end_cycle_if_due(session, &mut rng)?;
        let (report, seed) = next_battle(session, &mut rng, &gangs)?;
        session.record_battle(&report, seed)?;
        progress(size.gangs + b + 1, total);
    }
    Ok(())
}

/// Ends the campaign's cycle where a player would: one the records can
/// no longer end (too few gangs still to play), or, where players end
/// it, now and then.
fn end_cycle_if_due(session: &mut Session, rng: &mut ChaCha8Rng) -> Result<()> {
    let Some(view) = session.cycle_view()? else {
        return Ok(());
    };
    let due = match view.ends {
        CycleEnds::Played => view.cannot_end.is_none(),
        CycleEnds::ByHand => {
            let fewest = session
                .pack(&session.info()?.default_ruleset)?
                .record()
                .fewest_sides();
            free_to_play(&view).len() < fewest || rng.random_range(0..5) == 0
        }
    };
    if due {
        session.end_cycle(&BattleReport::empty(), rng.random::<u64>())?;
    }
    Ok(())
}

/// The gangs that have not played the cycle's limit, if it has one.
fn free_to_play(view: &crate::session::CycleView) -> Vec<GangId> {
    view.played
        .iter()
        .filter(|p| view.limit.is_none_or(|l| p.played < l))
        .map(|p| p.id)
        .collect()
}

/// A legal report of one record among `gangs` (as many as the pack's
/// record takes, at random, in one of its scenarios and shapes if it has
/// any, of those still free to play in the cycle), every choice it needs
/// answered with the first option as a quick player would, and the seed
/// of its rolls. Records nothing.
pub fn next_battle(
    session: &Session,
    rng: &mut ChaCha8Rng,
    gangs: &[GangId],
) -> Result<(BattleReport, u64)> {
    let ruleset = session.info()?.default_ruleset;
    let pack = session.pack(&ruleset)?;
    let rules = pack.record();
    if gangs.len() < rules.fewest_sides() {
        return Err(anyhow!(
            "a {} of {} needs at least {} gangs",
            rules.noun,
            pack.pack.name,
            rules.fewest_sides()
        ));
    }
    if pack.outcomes.is_empty() {
        return Err(anyhow!(
            "{} has no outcomes to record a {} with",
            pack.pack.name,
            rules.noun
        ));
    }
    // Only gangs still free to play in the cycle take part.
    let mut pool = match session.cycle_view()? {
        Some(view) => {
            let free = free_to_play(&view);
            gangs.iter().copied().filter(|g| free.contains(g)).collect()
        }
        None => gangs.to_vec(),
    };
    // A shape as many of them can play.
    let shapes: Vec<&ShapeDef> = rules
        .shapes
        .iter()
        .filter(|s| s.sides.min() <= pool.len())
        .collect();
    let shape = (!shapes.is_empty()).then(|| shapes[rng.random_range(0..shapes.len())].clone());
    let (fewest, most) = match &shape {
        Some(s) => (s.sides.min(), s.sides.max().unwrap_or(usize::MAX)),
        None => (rules.fewest_sides(), rules.max_sides),
    };
    if pool.len() < fewest {
        return Err(anyhow!(
            "a {} of {} needs {fewest} gangs still free to play",
            rules.noun,
            pack.pack.name
        ));
    }
    let sides = rng.random_range(fewest..=most.min(pool.len()));
    let mut taking_part = Vec::new();
    while taking_part.len() < sides {
        taking_part.push(pool.swap_remove(rng.random_range(0..pool.len())));
    }
    let scenario = (!pack.scenarios.is_empty())
        .then(|| pack.scenarios[rng.random_range(0..pack.scenarios.len())].clone());
    let mut report = record_report(session, rng, scenario.as_ref(), &taking_part)?;
    if let Some(shape) = &shape {
        shape_report(&mut report, shape, rng);
        if shape.stake.is_some() && !pack.holdings.is_empty() && rng.random_range(0..2) == 0 {
            report.stake = Some(
                pack.holdings[rng.random_range(0..pack.holdings.len())]
                    .id
                    .clone(),
            );
        }
    }
    let seed = rng.random::<u64>();
    for _ in 0..12 {
        let preview = match session.preview_battle(&report, seed) {
            // A holding the shape may not put at stake is left out.
            Err(_) if report.stake.is_some() => {
                report.stake = None;
                continue;
            }
            preview => preview?,
        };
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
            "marks" => mark(&mut report, need.gang, need.rule, option),
            "bounties" => report.bounties.push(BountyReport {
                by: need.gang,
                fighter: Some(option).filter(|o| o != NO_DECLARATION),
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

/// A shaped record's result: every side placed first to last, or a
/// challenger and a winner (or a draw, where the shape has them).
fn shape_report(report: &mut BattleReport, shape: &ShapeDef, rng: &mut ChaCha8Rng) {
    report.shape = Some(shape.label.clone());
    let names: Vec<String> = report.gangs.iter().map(|g| g.gang.clone()).collect();
    match shape.result {
        ShapeResult::Placed => {
            let mut places: Vec<u32> = (1..).take(names.len()).collect();
            for i in (1..places.len()).rev() {
                places.swap(i, rng.random_range(0..=i));
            }
            for (g, place) in report.gangs.iter_mut().zip(&places) {
                g.place = Some(*place);
            }
            report.winner = places
                .iter()
                .position(|p| *p == 1)
                .map(|i| names[i].clone());
        }
        ShapeResult::Challenge => {
            if let Some(first) = report.gangs.first_mut() {
                first.challenger = true;
            }
            let draw = shape.draws && rng.random_range(0..3) == 0;
            report.winner = (!draw).then(|| names[rng.random_range(0..names.len())].clone());
        }
    }
}

/// Adds a fighter to the gang's marks for an action, as a player picks
/// them one by one.
fn mark(report: &mut BattleReport, gang: String, action: String, fighter: String) {
    match report
        .marks
        .iter_mut()
        .find(|m| m.gang == gang && m.action == action)
    {
        Some(m) => m.fighters.push(fighter),
        None => report.marks.push(MarkReport {
            gang,
            action,
            fighters: vec![fighter],
        }),
    }
}

/// The roles of a scenario for the gangs taking part: suggested from the
/// rivals' history for two, in the pack's order otherwise.
fn roles_for(
    session: &Session,
    scenario: Option<&crate::rules::ScenarioDef>,
    sides: &[GangId],
) -> Result<Vec<Option<String>>> {
    let Some(scenario) = scenario.filter(|s| s.roles.len() == sides.len()) else {
        return Ok(vec![None; sides.len()]);
    };
    if let [a, b] = sides
        && let Some((ra, rb)) = session.suggest_roles(&scenario.id, *a, *b)?
    {
        return Ok(vec![Some(ra), Some(rb)]);
    }
    Ok(scenario.roles.iter().map(|r| Some(r.id.clone())).collect())
}

fn record_report(
    session: &Session,
    rng: &mut ChaCha8Rng,
    scenario: Option<&crate::rules::ScenarioDef>,
    sides: &[GangId],
) -> Result<BattleReport> {
    let names: Vec<String> = sides
        .iter()
        .map(|g| session.gang(*g).map(|g| g.name))
        .collect::<Result<_>>()?;
    let rosters: Vec<Vec<String>> = sides
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
    let roles = roles_for(session, scenario, sides)?;
    // The pack's default outcome is how most fighters end a game; each of
    // the others comes up one time in ten.
    let pack = session.pack(&session.gang(sides[0])?.ruleset)?;
    let rules = pack.record();
    let usual = pack.default_outcome();
    let others: Vec<_> = pack.outcomes.iter().filter(|o| !o.default).collect();
    // Tables with rows, rolled by anyone; counters the group has filled in
    // and no entry takes away.
    let during: Vec<_> = rules
        .during
        .iter()
        .filter(|r| r.only_with.is_none() && r.not_with.is_none())
        .filter(|r| pack.table(&r.table).is_some_and(|t| t.unfilled().is_none()))
        .collect();
    let changed: Vec<&String> = rules
        .counters
        .iter()
        .filter(|c| {
            pack.counter(c)
                .is_some_and(|d| d.unfilled().is_none() && d.per_entry.is_none())
        })
        .filter(|c| !pack.quirks.iter().any(|q| q.no_counters.contains(c)))
        .collect();
    let mut gangs = Vec::new();
    let mut table_results = Vec::new();
    for i in 0..sides.len() {
        // A rival to have downed a fighter: the next gang round the table
        // with anyone there.
        let rival: &[String] = (1..sides.len())
            .map(|k| &rosters[(i + k) % sides.len()])
            .find(|r| !r.is_empty())
            .map_or(&[], |r| r.as_slice());
        let fighters = rosters[i]
            .iter()
            .map(|name| {
                let roll: usize = rng.random_range(0..10);
                let outcome = roll
                    .checked_sub(1)
                    .and_then(|r| others.get(r).copied())
                    // With more than two sides, who took them down is
                    // named: none where no rival has anyone there.
                    .filter(|o| !o.taken_down || sides.len() <= 2 || !rival.is_empty());
                let taken_down = outcome.or(usual).is_some_and(|o| o.taken_down);
                let downed_by = (taken_down && sides.len() > 1 && !rival.is_empty())
                    .then(|| rival[rng.random_range(0..rival.len())].clone());
                if !during.is_empty() && rng.random_range(0..10) == 0 {
                    let during = during[rng.random_range(0..during.len())];
                    table_results.push(TableResultReport {
                        fighter: name.clone(),
                        table: during.table.clone(),
                        total: None,
                    });
                }
                let counters = changed
                    .iter()
                    .map(|c| ((*c).clone(), rng.random_range(-1..=1)))
                    .collect();
                FighterReport {
                    fighter: name.clone(),
                    outcome: outcome.map(|o| o.id.clone()),
                    downed_by,
                    counters,
                    steps: Vec::new(),
                }
            })
            .collect();
        let mut counts = std::collections::BTreeMap::new();
        // A count read from the outcomes is counted, not typed.
        for c in scenario
            .iter()
            .flat_map(|s| &s.counts)
            .filter(|c| c.outcomes.is_empty())
        {
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
            place: None,
            challenger: false,
        });
    }
    let winner = match rules.winner {
        WinnerRule::Required => Some(names[rng.random_range(0..names.len())].clone()),
        WinnerRule::Optional if rng.random_range(0..2) == 0 => {
            Some(names[rng.random_range(0..names.len())].clone())
        }
        WinnerRule::Optional | WinnerRule::None => None,
    };
    Ok(BattleReport {
        flags: Vec::new(),
        format: crate::campaign::battle::REPORT_FORMAT,
        scenario: scenario.map(|s| s.id.clone()),
        gangs,
        winner,
        choices: Vec::new(),
        bounties: Vec::new(),
        titles: Vec::new(),
        dice: Vec::new(),
        advancements: Vec::new(),
        picks: Vec::new(),
        marks: Vec::new(),
        table_results,
        shape: None,
        stake: None,
        cycle: None,
        challenge: None,
        notes: String::new(),
    })
}
