//! `rapsheet gang …` and `rapsheet fighter …`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;

use super::print_json;
use crate::campaign::commands::NewFighter;
use crate::session::{GangView, Session};

#[derive(Debug, Subcommand)]
pub enum GangCommand {
    /// Found a gang.
    New {
        name: String,
        /// The ruleset pack (default: the campaign's).
        #[arg(long)]
        ruleset: Option<String>,
        /// Its faction, where its game has factions (by name or id).
        #[arg(long)]
        faction: Option<String>,
        /// A holding it starts with, where its game lets a gang choose one.
        #[arg(long)]
        holding: Option<String>,
    },
    /// Change a gang's faction.
    Faction {
        name: String,
        /// The faction, by name or id.
        faction: String,
    },
    /// List the gangs.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Show a gang's roster with stats, quirks and rule problems.
    Show {
        name: String,
        #[arg(long)]
        json: bool,
    },
    /// Rename a gang.
    Rename {
        name: String,
        new: String,
        #[arg(long)]
        json: bool,
    },
    /// Set a gang's notes (`-` reads them from standard input).
    Notes {
        name: String,
        text: String,
        #[arg(long)]
        json: bool,
    },
    /// Recruit a group of members who share one profile, whole.
    AddGroup {
        /// The gang.
        gang: String,
        /// The kind of group (the pack's id or label).
        #[arg(long)]
        kind: String,
        /// The group's name.
        #[arg(long)]
        name: String,
        /// A member's name; repeat for each.
        #[arg(long = "member", value_name = "MEMBER")]
        members: Vec<String>,
        /// An entry the group is recruited with; repeat for each.
        #[arg(long = "entry", value_name = "ENTRY")]
        entries: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum FighterCommand {
    /// Roll one of the rolls a fighter's sheet offers (initiative, a
    /// skill's pool); with --push, push the pool and raise the stress.
    Check {
        name: String,
        /// The roll's id or label.
        check: String,
        #[arg(long)]
        gang: Option<String>,
        #[arg(long)]
        seed: Option<u64>,
        /// Dice added to (or taken from) a pool, base dice first; added to
        /// a sum; steps up (or down) a ladder of dice for a tier.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
        modifier: i32,
        /// Another way of making the roll, by its id or label (`full-auto`):
        /// its dice are added, and the stress it raises is raised first.
        #[arg(long = "as", value_name = "WAY")]
        way: Option<String>,
        #[arg(long)]
        push: bool,
        #[arg(long)]
        json: bool,
    },
    /// A fighter's stats, status, lasting effects and history.
    Show {
        name: String,
        /// The gang, where two fighters share the name.
        #[arg(long)]
        gang: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Set a fighter's photo (PNG or JPEG), or remove it with --clear.
    Photo {
        name: String,
        file: Option<PathBuf>,
        #[arg(long)]
        clear: bool,
        #[arg(long)]
        gang: Option<String>,
    },
    /// Set a fighter's own base value of a stat: a number, or a step of the
    /// stat's ladder (`2d8`).
    Stat {
        name: String,
        /// The stat's id, label or name.
        stat: String,
        #[arg(allow_hyphen_values = true)]
        value: String,
        #[arg(long)]
        gang: Option<String>,
    },
    /// Heal a lasting injury or reverse an advancement (by its id from
    /// `fighter show`).
    Heal {
        name: String,
        #[arg(long)]
        effect: i64,
        #[arg(long)]
        reason: String,
        #[arg(long)]
        gang: Option<String>,
    },
    /// Recruit a fighter. One who would break a limit the pack states (a
    /// constraint, a stat's range, a points limit) is refused, naming the
    /// rule; one still short of what recruiting asks (entries, a leader)
    /// is added and the problems are printed.
    Add {
        name: String,
        /// The gang's name.
        #[arg(long)]
        gang: String,
        #[arg(long)]
        leader: bool,
        /// A quirk by name, id or d6 alternative name; repeat for each.
        #[arg(long = "quirk", value_name = "QUIRK")]
        quirks: Vec<String>,
        #[arg(long, default_value = "")]
        notes: String,
        /// The fighter's own base value of a stat, as `STAT=N`; repeat for
        /// each (a Wayfarer unit's dice: `--stat melee_off=2`).
        #[arg(long = "stat", value_name = "STAT=N")]
        stats: Vec<String>,
        /// Bought between games: the gang pays the fighter's value with the
        /// resource its pack buys with (Wayfarer's Resources), in the same
        /// step.
        #[arg(long)]
        buy: bool,
        #[arg(long)]
        json: bool,
    },
    /// Buy an entry (equipment) for a fighter between games: the gang pays
    /// its cost with the resource its pack buys with, in the same step.
    Buy {
        name: String,
        /// The entry by name or id.
        entry: String,
        #[arg(long)]
        gang: Option<String>,
    },
    /// Rename a fighter.
    Rename {
        name: String,
        new: String,
        #[arg(long)]
        gang: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Make a fighter their gang's leader, or with --off no longer.
    Leader {
        name: String,
        #[arg(long)]
        off: bool,
        #[arg(long)]
        gang: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Add or remove a fighter's quirks.
    Quirk {
        #[command(subcommand)]
        change: super::edit::QuirkChange,
    },
    /// Set one of a fighter's counters (the pack's counter by id or label:
    /// `bounty`, `Bounty`).
    Counter {
        name: String,
        /// The counter; one kept per entry as `counter:entry` (`ammo:pistol`).
        counter: String,
        #[arg(allow_hyphen_values = true)]
        value: i64,
        /// The entry was found in play: the value is what its counter's
        /// `found` roll gave (HWC's found weapon, 2d6 bullets).
        #[arg(long)]
        found: bool,
        #[arg(long)]
        gang: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Set a fighter's notes (`-` reads them from standard input).
    Notes {
        name: String,
        text: String,
        #[arg(long)]
        gang: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Dismiss a fighter from their gang (`rapsheet undo` brings them back).
    Dismiss {
        name: String,
        #[arg(long)]
        gang: Option<String>,
        /// Who leads next, where the game's succession leaves a tie to the
        /// gang.
        #[arg(long)]
        successor: Option<String>,
    },
}

pub(super) fn gang(session: &mut Session, command: GangCommand) -> Result<()> {
    match command {
        GangCommand::AddGroup {
            gang,
            kind,
            name,
            members,
            entries,
        } => {
            let id = session.gang_named(&gang)?.id;
            let quirks = session.resolve_quirks(id, &entries)?;
            let group = crate::campaign::groups::NewGroup {
                kind,
                name,
                members,
                quirks,
            };
            let batch = session.recruit_group(id, group)?;
            let (label, _) = session.batch(batch)?;
            say!("{label}");
            Ok(())
        }
        GangCommand::New {
            name,
            ruleset,
            faction,
            holding,
        } => {
            let founding = crate::campaign::commands::Founding {
                faction: faction.as_deref(),
                holding: holding.as_deref(),
            };
            let (id, batch) = session.found_gang_with(&name, ruleset.as_deref(), founding)?;
            match session.gang(id) {
                Ok(gang) => say!("Founded {} ({})", gang.name, gang.ruleset),
                Err(err) => say_err!(
                    "warning: {}",
                    crate::session::saved_but(batch, "reading the gang back", &err)
                ),
            }
            Ok(())
        }
        GangCommand::List { json } => {
            let gangs = session.gang_list()?;
            if json {
                return print_json(&gangs);
            }
            let (words, _) = session.campaign_words()?;
            for g in gangs {
                say!(
                    "{}  {}  {}{}",
                    g.name,
                    words.count(g.fighters.unwrap_or(0), crate::rules::Noun::Fighter),
                    g.ruleset,
                    if g.legal == Some(false) {
                        "  (breaks a rule)"
                    } else {
                        ""
                    }
                );
            }
            Ok(())
        }
        GangCommand::Show { name, json } => {
            let id = session.gang_named(&name)?.id;
            let view = session.gang_view(id)?;
            if json {
                return print_json(&view);
            }
            print_roster(&view);
            Ok(())
        }
        GangCommand::Faction { name, faction } => {
            let gang = session.gang_named(&name)?;
            let batch = session.set_faction(gang.id, &faction)?;
            say!("{}", session.batch_label(batch)?);
            Ok(())
        }
        GangCommand::Rename { name, new, json } => {
            super::edit::rename_gang(session, &name, &new, json)
        }
        GangCommand::Notes { name, text, json } => {
            super::edit::gang_notes(session, &name, &text, json)
        }
    }
}

pub(super) fn fighter(session: &mut Session, command: FighterCommand) -> Result<()> {
    use super::edit;
    match command {
        FighterCommand::Rename {
            name,
            new,
            gang,
            json,
        } => edit::rename_fighter(session, &name, gang.as_deref(), &new, json),
        FighterCommand::Leader {
            name,
            off,
            gang,
            json,
        } => edit::leader(session, &name, gang.as_deref(), !off, json),
        FighterCommand::Quirk { change } => edit::quirks(session, change),
        FighterCommand::Counter {
            name,
            counter,
            value,
            found,
            gang,
            json,
        } => edit::counter(
            session,
            &name,
            gang.as_deref(),
            (&counter, value, found),
            json,
        ),
        FighterCommand::Notes {
            name,
            text,
            gang,
            json,
        } => edit::fighter_notes(session, &name, gang.as_deref(), &text, json),
        FighterCommand::Dismiss {
            name,
            gang,
            successor,
        } => edit::dismiss(session, &name, gang.as_deref(), successor.as_deref()),
        FighterCommand::Buy { name, entry, gang } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            let pick = session
                .resolve_quirks(fighter.gang, std::slice::from_ref(&entry))?
                .into_iter()
                .next()
                .ok_or_else(|| anyhow::anyhow!("no entry “{entry}”"))?;
            let batch = session.buy_quirk(fighter.id, pick)?;
            let (label, _) = session.batch(batch)?;
            say!("{label}");
            Ok(())
        }
        FighterCommand::Check {
            name,
            check,
            gang,
            seed,
            modifier,
            way,
            push,
            json,
        } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            let asked = CheckAsked {
                seed,
                modifier,
                way,
                push,
            };
            roll_check(session, fighter.id, &check, asked, json)
        }
        FighterCommand::Show { name, gang, json } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            show(session, fighter.id, json)
        }
        FighterCommand::Photo {
            name,
            file,
            clear,
            gang,
        } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            let bytes = match (&file, clear) {
                (Some(path), false) => Some(crate::input::read(path, crate::input::Kind::Photo)?),
                (None, true) => None,
                _ => anyhow::bail!("give a photo FILE, or --clear"),
            };
            session.set_photo(fighter.id, bytes.as_deref())?;
            say!(
                "{}: photo {}",
                fighter.name,
                if clear { "removed" } else { "set" }
            );
            Ok(())
        }
        FighterCommand::Stat {
            name,
            stat,
            value,
            gang,
        } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            let value = session.parse_stat_value(fighter.id, &stat, &value)?;
            let batch = session.set_base_stat(fighter.id, &stat, value)?;
            let label = session.batch_label(batch)?;
            say!("{label}");
            Ok(())
        }
        FighterCommand::Heal {
            name,
            effect,
            reason,
            gang,
        } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            let effect = crate::campaign::EffectId(effect);
            let e = session
                .lasting_effect(effect)?
                .filter(|e| e.fighter == fighter.id)
                .ok_or_else(|| {
                    anyhow::anyhow!("{} has no lasting effect #{effect}", fighter.name)
                })?;
            session.remove_lasting(effect, &reason)?;
            say!("{}: {} removed", fighter.name, e.name);
            Ok(())
        }
        FighterCommand::Add {
            name,
            gang,
            leader,
            quirks,
            notes,
            stats,
            buy,
            json,
        } => {
            let new = NewFighter {
                name,
                leader,
                quirks: Vec::new(),
                notes,
                base: base_stats(&stats)?,
                group: None,
            };
            add(session, &gang, new, &quirks, buy, json)
        }
    }
}

/// How a check is rolled from the command line: the seed (else one from
/// the clock), the difficulty, the way it is made, and whether the pool
/// is pushed at once.
struct CheckAsked {
    seed: Option<u64>,
    modifier: i32,
    way: Option<String>,
    push: bool,
}

/// Rolls one of a fighter's checks (and pushes it where asked).
fn roll_check(
    session: &mut Session,
    fighter: crate::campaign::FighterId,
    check: &str,
    asked: CheckAsked,
    json: bool,
) -> Result<()> {
    let CheckAsked {
        seed,
        modifier,
        way,
        push,
    } = asked;
    let seed = seed.unwrap_or_else(crate::dice::seed_from_clock);
    let mut rolled = match &way {
        Some(way) => session.roll_fighter_check_as(fighter, check, way, seed, modifier)?,
        None => session.roll_fighter_check(fighter, check, seed, modifier)?,
    };
    let first = rolled.clone();
    if push {
        rolled = session.push_fighter_check(fighter, &rolled)?;
    }
    if json {
        return print_json(
            &serde_json::json!({ "roll": first, "pushed": push.then_some(&rolled) }),
        );
    }
    say_check(&first);
    if push {
        if let Some(words) = rolled.check.pool_words() {
            say!("{}:", crate::text::capitalised(&words.pushed));
        }
        say_check(&rolled);
    }
    Ok(())
}

/// A fighter's sheet: status, stats, counters, checks, lasting effects and
/// history.
fn show(session: &Session, fighter: crate::campaign::FighterId, json: bool) -> Result<()> {
    let details = session.fighter_details(fighter)?;
    if json {
        return print_json(&details);
    }
    let stats: Vec<String> = details
        .view
        .stats
        .iter()
        .map(|s| format!("{} {}", s.label, s.display()))
        .collect();
    say!(
        "{} ({}) — {}",
        details.view.name,
        details.gang,
        details.view.status_text
    );
    for lowered in &details.view.lowered {
        say!("  {}", lowered.text);
    }
    say!("  {}", stats.join(" "));
    let pack = session.gang_pack(&session.gang_named(&details.gang)?)?;
    // The counters the character holds: one kept per entry, for
    // each (Ammo (Pistol)); none an entry takes away.
    let entries: Vec<String> = details.view.quirks.iter().map(|q| q.id.clone()).collect();
    let counters: Vec<String> = pack
        .counter_keys(&entries)
        .into_iter()
        .map(|(key, _)| {
            let value = details.view.counters.get(&key).map_or_else(
                || "— (not printed; the group fills it in)".to_owned(),
                |v| v.to_string(),
            );
            format!("{} {value}", pack.counter_title(&key))
        })
        .collect();
    if !counters.is_empty() {
        say!("  {}", counters.join(", "));
    }
    for check in &details.view.checks {
        say!("  {}: {}", check.label, check.describe());
    }
    for e in &details.effects {
        let state = match &e.removed {
            Some(reason) => format!(" [removed: {reason}]"),
            None => String::new(),
        };
        say!("  #{} {}{state}", e.id, e.line(&pack.record().noun));
    }
    for line in &details.history {
        say!("  {}  {}", line.at, line.text);
    }
    Ok(())
}

/// The base stats given as `STAT=N`, each refused by name where it is
/// not one.
fn base_stats(stats: &[String]) -> Result<std::collections::BTreeMap<String, i64>> {
    stats
        .iter()
        .map(|s| {
            let (stat, value) = s
                .split_once('=')
                .ok_or_else(|| anyhow::anyhow!("--stat {s}: expected STAT=N"))?;
            let value = value
                .trim()
                .parse::<i64>()
                .map_err(|_| anyhow::anyhow!("--stat {s}: `{value}` is not a whole number"))?;
            Ok((stat.trim().to_lowercase(), value))
        })
        .collect::<Result<_>>()
}

/// Recruits a fighter into `gang` (bought, where `buy`), with the entries
/// named.
fn add(
    session: &mut Session,
    gang: &str,
    mut new: NewFighter,
    quirks: &[String],
    buy: bool,
    json: bool,
) -> Result<()> {
    let gang = session.gang_named(gang)?;
    new.quirks = session.resolve_quirks(gang.id, quirks)?;
    let outcome = if buy {
        session.buy_recruit(gang.id, new)?
    } else {
        session.recruit(gang.id, new)?
    };
    if json {
        return print_json(&outcome);
    }
    say!("{}", outcome.label);
    for p in &outcome.problems {
        say!("  problem: {}", p.describe());
    }
    for w in &outcome.warnings {
        say_err!("warning: {w}");
    }
    Ok(())
}

fn print_roster(view: &GangView) {
    say!(
        "{} ({}{})",
        view.name,
        view.ruleset_name,
        if view.house_rules {
            ", house rules"
        } else {
            ""
        }
    );
    let resources: Vec<String> = view
        .resources
        .iter()
        .map(|r| format!("{} {}", r.label, r.amount))
        .collect();
    say!("  {}", resources.join(" · "));
    let worth = |value: i64, score: Option<i64>| match (&view.value, score) {
        (Some(v), Some(score)) => format!(
            "{} {value}, {} {score}",
            v.label,
            v.score_label.as_deref().unwrap_or_default()
        ),
        (Some(v), None) => format!("{} {value}", v.label),
        (None, _) => String::new(),
    };
    if let Some(v) = &view.value {
        let limit = v
            .total
            .limit
            .map_or(String::new(), |l| format!(" (limit {l})"));
        say!("  {}{limit}", worth(v.total.value, v.total.score));
    }
    if let Some(rating) = &view.rating {
        say!("  {} {}", rating.label, rating.value);
    }
    if let Some(faction) = &view.faction {
        say!("  {}: {faction}", view.season_words.faction);
    }
    if !view.holdings.is_empty() {
        say!(
            "  {}: {}",
            view.season_words.holdings,
            view.holdings.join(", ")
        );
    }
    // A group is one line, named with its members' names.
    for (f, name) in view.listed(|_| true) {
        let stats: Vec<String> = f
            .stats
            .iter()
            .map(|s| format!("{} {}", s.label, s.display()))
            .collect();
        let quirks: Vec<String> = f.quirks.iter().map(|q| q.title()).collect();
        let value = f
            .value
            .as_ref()
            .map_or(String::new(), |v| format!("  {}", worth(v.value, v.score)));
        // A fighter the rivals hold is still the gang's, marked so.
        let held = if matches!(f.status, crate::campaign::FighterStatus::Captured { .. }) {
            format!(" ({})", f.status_text)
        } else {
            String::new()
        };
        let name = if f.group.is_some() {
            name.into_owned()
        } else {
            format!("{name}{held}")
        };
        say!(
            "  {}{name}  {}  [{}]{value}",
            if f.leader { "★ " } else { "  " },
            stats.join(" "),
            quirks.join(", ")
        );
    }
    for (_, name, gang) in &view.captives {
        say!("  holds captive: {name} of {gang}");
    }
    for p in &view.problems {
        say!("  problem: {}", p.describe());
    }
    for r in &view.relies_on {
        say!("  {}", r.describe());
    }
}

#[derive(Debug, Subcommand)]
pub enum CaptiveCommand {
    /// The captive's gang pays the captors and gets the fighter back.
    Ransom {
        name: String,
        /// The resource paid (`supply`); left out, the one the game's
        /// captives are paid in.
        #[arg(long)]
        resource: Option<String>,
        /// Left out, the game's price where it is one amount.
        #[arg(long)]
        amount: Option<i64>,
        #[arg(long)]
        gang: Option<String>,
    },
    /// The captors sell the fighter at the game's price: gone for good.
    Sell {
        name: String,
        /// Left out, the game's price where it is one amount.
        #[arg(long)]
        amount: Option<i64>,
        #[arg(long)]
        gang: Option<String>,
    },
    /// What the game says the fighter costs to ransom or gives when sold.
    Terms {
        name: String,
        #[arg(long)]
        gang: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// The captors free the fighter for nothing.
    Release {
        name: String,
        #[arg(long)]
        gang: Option<String>,
    },
}

pub(super) fn captive(session: &mut Session, command: CaptiveCommand) -> Result<()> {
    match command {
        CaptiveCommand::Ransom {
            name,
            resource,
            amount,
            gang,
        } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            let terms = session.captive_terms(fighter.id)?;
            let Some(resource) = resource.or_else(|| terms.resource.clone().map(|(id, _)| id))
            else {
                anyhow::bail!("name the resource paid: --resource");
            };
            let amount = price_or(amount, terms.ransom.as_ref(), "ransom")?;
            session.ransom(fighter.id, &resource, amount)?;
            let gang = session.gang(fighter.gang)?;
            say!("{} is back with {}", fighter.name, gang.name);
            Ok(())
        }
        CaptiveCommand::Sell { name, amount, gang } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            let terms = session.captive_terms(fighter.id)?;
            let amount = price_or(amount, terms.sell.as_ref(), "sale")?;
            session.sell_captive(fighter.id, amount)?;
            let sold = session.fighter(fighter.id)?;
            say!(
                "{} is sold for {amount} {}: {}",
                fighter.name,
                terms.resource.map(|(_, label)| label).unwrap_or_default(),
                sold.status.describe(|_| String::new(), "")
            );
            Ok(())
        }
        CaptiveCommand::Terms { name, gang, json } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            let terms = session.captive_terms(fighter.id)?;
            if json {
                return print_json(&terms);
            }
            let label = terms.resource.as_ref().map_or("", |(_, l)| l.as_str());
            let said = |p: &Option<crate::session::CaptivePrice>, may: bool| match (p, may) {
                (_, false) => "not allowed".to_owned(),
                (Some(p), true) => format!("{} {label}", p.said),
                (None, true) => "as the sides agree".to_owned(),
            };
            say!("ransom: {}", said(&terms.ransom, terms.may_ransom));
            say!(
                "release: {}",
                if terms.may_release {
                    "allowed"
                } else {
                    "not allowed"
                }
            );
            say!("sell: {}", said(&terms.sell, terms.may_sell));
            Ok(())
        }
        CaptiveCommand::Release { name, gang } => {
            let fighter = session.fighter_named(&name, gang.as_deref())?;
            session.release(fighter.id)?;
            say!("{} is released", fighter.name);
            Ok(())
        }
    }
}

/// The amount typed, or the price where it is one amount.
fn price_or(
    amount: Option<i64>,
    price: Option<&crate::session::CaptivePrice>,
    what: &str,
) -> Result<i64> {
    match (amount, price.and_then(|p| p.amount)) {
        (Some(n), _) | (None, Some(n)) => Ok(n),
        (None, None) => anyhow::bail!("name the {what}'s amount: --amount"),
    }
}

/// A check's roll in words: `Initiative: 2d6 = 7 (3, 4) +2 = 9 (seed 5)`.
fn say_check(rolled: &crate::session::CheckRolled) {
    use crate::campaign::checks::CheckRoll;
    let faces = |dice: &[crate::dice::DieRoll]| -> String {
        dice.iter()
            .map(|d| d.face.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The way it was made, where it was another (`Ranged Combat, Full auto`).
    let label = match &rolled.option {
        Some(way) => format!("{}, {way}", rolled.check.label),
        None => rolled.check.label.clone(),
    };
    if let Some(r) = &rolled.raised {
        say!("{} {} → {}", r.counter, r.from, r.to);
    }
    match &rolled.result {
        CheckRoll::Sum { roll, add, total } => say!(
            "{} {label}: {} = {} ({}) {add:+} = {total} (seed {})",
            rolled.fighter,
            roll.expression,
            roll.total,
            faces(&roll.rolls),
            rolled.seed
        ),
        CheckRoll::Tier {
            steps, roll, total, ..
        } => say!(
            "{} {}: {steps} = {total} ({}) (seed {})",
            rolled.fighter,
            rolled.check.label,
            faces(&roll.rolls),
            rolled.seed
        ),
        CheckRoll::Pool { roll, .. } => {
            let text = rolled
                .check
                .pool_words()
                .map(|words| words.roll_said(roll))
                .unwrap_or_default();
            let text = format!("{} {label}: {text}", rolled.fighter);
            say!("{text} (seed {})", rolled.seed);
        }
    }
    if let Some(p) = &rolled.pushed {
        say!("{} {} → {}", p.counter, p.from, p.to);
    }
}
