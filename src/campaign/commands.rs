//! Commands: what a player asks for, checked against the current state and
//! the pack, turned into events. The GUI and the CLI both come through here.
//!
//! A command refuses only what cannot be stored sensibly (an empty name, an
//! unknown quirk, a resource below its floor). Breaking a recruiting rule is
//! allowed and reported as a [`super::Problem`].

use super::{Event, Fighter, FighterId, Gang, GangId, QuirkPick};
use crate::rules::{Pack, Words};
use crate::text::{self, TextError};

/// Why a command was refused. The text is what the player reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error(transparent)]
    Text(#[from] TextError),
    /// A field of the change at fault, and why.
    #[error("{field}: {reason}")]
    Refused { field: String, reason: String },
    #[error("there is already a {word} called “{name}”")]
    GangNameTaken { word: String, name: String },
    #[error(
        "“{given}” looks like the {word} “{name}” (the same letters to the eye); choose a name that reads differently"
    )]
    GangNameLooksLike {
        word: String,
        given: String,
        name: String,
    },
    /// The game's word for what needs a name (`crew`, `flyer`).
    #[error("a {0} needs a name")]
    NeedsName(String),
    #[error("{0} buys nothing between games (its pack names no resource to spend)")]
    NothingToBuyWith(String),
    #[error("{name} is not bought between games: only {buys}")]
    NotForSale { name: String, buys: String },
    #[error("{gang} already has a {word} called “{name}”")]
    FighterNameTaken {
        gang: String,
        word: String,
        name: String,
    },
    #[error("refused: {problem}{}", cited(.problem, .rule_source))]
    BreaksRule {
        problem: String,
        rule_source: String,
    },
    #[error(
        "“{name}” was dismissed from {gang} and keeps that name in its history; choose another"
    )]
    FighterNameKept { gang: String, name: String },
    #[error("“{query}” is not a {entry} of {pack}{hint}")]
    UnknownQuirk {
        query: String,
        entry: String,
        pack: String,
        hint: String,
    },
    #[error("{pack} has no resource “{resource}” (it has {known})")]
    UnknownResource {
        resource: String,
        pack: String,
        known: String,
    },
    #[error("{pack} has no counter “{counter}”")]
    UnknownCounter { counter: String, pack: String },
    #[error("{pack} has no stat “{stat}”")]
    UnknownStat { stat: String, pack: String },
    #[error("groups: {pack} recruits no group “{kind}”")]
    UnknownGroup { kind: String, pack: String },
    #[error("groups.{kind}.size: a group of {label} has {size} members, not {count}")]
    GroupSize {
        kind: String,
        label: String,
        size: String,
        count: usize,
    },
    #[error("groups.{kind}.per_gang: {gang} may have {per_gang} groups of {label}, and has {has}")]
    TooManyGroups {
        kind: String,
        label: String,
        gang: String,
        per_gang: String,
        has: usize,
    },
    #[error("{gang} already has a group called “{name}”")]
    GroupNameTaken { gang: String, name: String },
    #[error("{label} would be {value}; it cannot go below {min}")]
    BelowMinimum { label: String, value: i64, min: i64 },
    #[error("{label} must be between {min} and {max}, not {value}")]
    OutOfBounds {
        label: String,
        value: i64,
        min: i64,
        max: i64,
    },
    #[error("{label} is {from}; a change of {delta:+} would take it {bound}")]
    PastBound {
        label: String,
        from: i64,
        delta: i64,
        bound: String,
    },
    #[error(
        "{label} is not printed in {pack}, and the group has not filled it in: give it a start in the group's house rules"
    )]
    Unfilled {
        label: String,
        pack: String,
        ruling: String,
    },
    /// A count for an entry found in play that its roll cannot make.
    #[error("{label} of a {entry} found in play is rolled on {roll}: {min} to {max}, not {value}")]
    FoundRoll {
        label: String,
        entry: String,
        roll: String,
        min: i64,
        max: i64,
        value: i64,
    },
    #[error("{label} is not rolled for a {entry} found in play in {pack}")]
    NotFound {
        label: String,
        entry: String,
        pack: String,
    },
    /// A counter kept per entry, named without its entry.
    #[error("{label} is kept for each of {fighter}'s entries tagged {tag}: name one ({keys})")]
    PerEntry {
        label: String,
        fighter: String,
        tag: String,
        keys: String,
    },
    #[error("{fighter} has no {entry}")]
    NoEntry { fighter: String, entry: String },
    /// One of the fighter's entries takes the counter away (a synthetic
    /// has no stress).
    #[error("{fighter} has no {label}: {entry}")]
    TakenAway {
        fighter: String,
        label: String,
        entry: String,
    },
    #[error("a change of {0} needs a reason for the log")]
    NeedsReason(String),
    #[error("nothing to change")]
    NoChange,
    #[error("{gang} still has {fighters}; dismiss them first")]
    GangNotEmpty { gang: String, fighters: String },
}

/// The rule text a refusal cites, after the problem: left out where the
/// problem already says it word for word (a pack's message that is its
/// own source) or there is none.
fn cited(problem: &str, source: &str) -> String {
    if source.is_empty() || problem.contains(source) {
        String::new()
    } else {
        format!(" ({source})")
    }
}

/// A name checked as every name is; `word` is what the game calls the
/// thing named (`crew`), to say that it needs one.
fn check_name(word: &str, name: &str) -> Result<String, CommandError> {
    match text::name("A name", name) {
        Ok(name) => Ok(name),
        Err(TextError::EmptyName { .. }) => Err(CommandError::NeedsName(word.to_owned())),
        Err(err) => Err(err.into()),
    }
}

/// No gang but `id` is called `name`, as names compare, or by a name that
/// looks like it (the gate refuses both alike).
fn gang_name_free(
    gangs: &[Gang],
    id: Option<GangId>,
    name: &str,
    words: &Words,
) -> Result<(), CommandError> {
    let others = || gangs.iter().filter(|g| Some(g.id) != id);
    if let Some(taken) = others().find(|g| text::same(&g.name, name)) {
        return Err(CommandError::GangNameTaken {
            word: words.gang.clone(),
            name: taken.name.clone(),
        });
    }
    let look = text::look(name);
    if let Some(like) = others().find(|g| text::look(&g.name) == look) {
        return Err(CommandError::GangNameLooksLike {
            word: words.gang.clone(),
            given: text::echo(name),
            name: like.name.clone(),
        });
    }
    Ok(())
}

/// What a gang chooses when it is founded, where its game asks: its
/// faction, and a starting holding.
#[derive(Debug, Clone, Copy, Default)]
pub struct Founding<'a> {
    /// A faction by id or name.
    pub faction: Option<&'a str>,
    /// A holding by id or name.
    pub holding: Option<&'a str>,
}

/// Founds a gang with the pack's starting resources, in its faction and
/// with its starting holding where the pack asks for them (`holders`:
/// who holds each holding now).
pub fn found_gang(
    gangs: &[Gang],
    id: GangId,
    name: &str,
    pack: &Pack,
    founding: Founding<'_>,
    holders: &std::collections::BTreeMap<String, GangId>,
) -> Result<Vec<Event>, CommandError> {
    let name = check_name(&pack.words.gang, name)?;
    gang_name_free(gangs, None, &name, &pack.words)?;
    Ok(vec![Event::GangFounded {
        gang: Gang {
            id,
            name,
            ruleset: pack.pack.id.clone(),
            resources: pack
                .resources
                .iter()
                .map(|r| (r.id.clone(), r.start))
                .collect(),
            notes: String::new(),
            faction: founding_faction(pack, founding.faction)?,
        },
    }]
    .into_iter()
    .chain(starting_holding(pack, id, founding.holding, holders)?)
    .collect())
}

/// The faction a gang is founded in: one of the pack's, which every gang
/// of a game with factions has.
fn founding_faction(pack: &Pack, faction: Option<&str>) -> Result<Option<String>, CommandError> {
    let refused = |reason: String| CommandError::Refused {
        field: "faction".into(),
        reason,
    };
    let names = || {
        pack.factions
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (faction, pack.factions.is_empty()) {
        (None, true) => Ok(None),
        (Some(f), true) => Err(refused(format!(
            "{} has no {}, but “{}” was given",
            pack.pack.name,
            pack.words.factions,
            text::echo(f)
        ))),
        (None, false) => Err(refused(format!(
            "missing: every {} belongs to a {} ({})",
            pack.words.gang,
            pack.words.faction,
            names()
        ))),
        (Some(f), false) => match pack.find_faction(f) {
            Some(def) => Ok(Some(def.id.clone())),
            None => Err(refused(format!(
                "“{}” is not a {} ({})",
                text::echo(f),
                pack.words.faction,
                names()
            ))),
        },
    }
}

/// The holding a gang chooses when it is founded: one the pack lets a
/// gang start with, held by no gang.
fn starting_holding(
    pack: &Pack,
    gang: GangId,
    holding: Option<&str>,
    holders: &std::collections::BTreeMap<String, GangId>,
) -> Result<Option<Event>, CommandError> {
    let Some(name) = holding else {
        return Ok(None);
    };
    let refused = |reason: String| CommandError::Refused {
        field: "holding".into(),
        reason,
    };
    let starting: Vec<&str> = pack
        .holdings
        .iter()
        .filter(|h| h.starting && !holders.contains_key(&h.id))
        .map(|h| h.name.as_str())
        .collect();
    let Some(def) = pack.find_holding(name) else {
        return Err(refused(format!(
            "“{}” is not a {} of {}",
            text::echo(name),
            pack.words.holding,
            pack.pack.name
        )));
    };
    if !def.starting {
        return Err(refused(format!(
            "a {} does not start with {} (it may start with {})",
            pack.words.gang,
            def.name,
            if starting.is_empty() {
                "none".to_owned()
            } else {
                starting.join(", ")
            }
        )));
    }
    if holders.contains_key(&def.id) {
        return Err(refused(format!(
            "{} is held already (still free: {})",
            def.name,
            if starting.is_empty() {
                "none".to_owned()
            } else {
                starting.join(", ")
            }
        )));
    }
    Ok(Some(Event::HoldingChanged {
        holding: def.id.clone(),
        from: None,
        to: Some(gang),
        reason: format!("chosen when the {} was founded", pack.words.gang),
    }))
}

/// Disbands a gang with no fighters (the inverse of founding it).
pub fn disband_gang(
    gang: &Gang,
    roster: &[Fighter],
    words: &Words,
) -> Result<Vec<Event>, CommandError> {
    if !roster.is_empty() {
        return Err(CommandError::GangNotEmpty {
            gang: gang.name.clone(),
            fighters: words.fighters.clone(),
        });
    }
    Ok(vec![Event::GangDisbanded { gang: gang.clone() }])
}

pub fn rename_gang(
    gangs: &[Gang],
    gang: &Gang,
    to: &str,
    words: &Words,
) -> Result<Vec<Event>, CommandError> {
    let to = check_name(&words.gang, to)?;
    if to == gang.name {
        return Err(CommandError::NoChange);
    }
    gang_name_free(gangs, Some(gang.id), &to, words)?;
    Ok(vec![Event::GangRenamed {
        gang: gang.id,
        from: gang.name.clone(),
        to,
    }])
}

pub fn set_gang_notes(gang: &Gang, to: &str) -> Result<Vec<Event>, CommandError> {
    let to = text::notes("notes", to)?;
    let to = to.as_str();
    if to == gang.notes {
        return Err(CommandError::NoChange);
    }
    Ok(vec![Event::GangNotesChanged {
        gang: gang.id,
        from: gang.notes.clone(),
        to: to.to_owned(),
    }])
}

/// A resource of the pack by id or label.
fn resource_def<'a>(
    pack: &'a Pack,
    resource: &str,
) -> Result<&'a crate::rules::ResourceDef, CommandError> {
    pack.resources
        .iter()
        .find(|r| r.id == resource || text::same(&r.label, resource))
        .ok_or_else(|| CommandError::UnknownResource {
            resource: text::echo(resource),
            pack: pack.pack.name.clone(),
            known: pack
                .resources
                .iter()
                .map(|r| r.label.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Changes a gang resource by `delta`, with the reason the log keeps.
pub fn adjust_resource(
    pack: &Pack,
    gang: &Gang,
    resource: &str,
    delta: i64,
    reason: &str,
) -> Result<Vec<Event>, CommandError> {
    let def = resource_def(pack, resource)?;
    if delta == 0 {
        return Err(CommandError::NoChange);
    }
    let reason = &text::reason("reason", reason.trim())?;
    if reason.is_empty() {
        return Err(CommandError::NeedsReason(def.label.clone()));
    }
    let from = gang.resources.get(&def.id).copied().unwrap_or(def.start);
    // Checked, never saturated: a gain on a resource at the end of i64
    // must be refused, not held there nor wrapped round to the floor.
    let to = from
        .checked_add(delta)
        .filter(|to| crate::rules::within_bound(delta) && !crate::rules::passes_bound(from, *to))
        .ok_or_else(|| CommandError::PastBound {
            label: def.label.clone(),
            from,
            delta,
            bound: crate::rules::bound_crossed(delta),
        })?;
    if let Some(min) = def.min
        && to < min
    {
        return Err(CommandError::BelowMinimum {
            label: def.label.clone(),
            value: to,
            min,
        });
    }
    Ok(vec![Event::ResourceAdjusted {
        gang: gang.id,
        resource: def.id.clone(),
        from,
        to,
        reason: reason.to_owned(),
    }])
}

/// Looks up quirks by id, name or alternative name. An alt name is kept on
/// the pick. `QUIRK=OTHER` also selects another quirk for one that asks for
/// a selection (`Akimbo Holster=Slasher`).
pub fn resolve_quirks(pack: &Pack, queries: &[String]) -> Result<Vec<QuirkPick>, CommandError> {
    queries
        .iter()
        .map(|query| {
            let (name, with) = match query.split_once('=') {
                Some((name, with)) if pack.find_quirk(query).is_none() => (name, Some(with)),
                _ => (query.as_str(), None),
            };
            let Some((quirk, alt)) = pack.find_quirk(name) else {
                return Err(unknown_quirk(pack, name));
            };
            let with = match with {
                Some(other) => match pack.find_quirk(other) {
                    Some((q, _)) => Some(q.id.clone()),
                    None => return Err(unknown_quirk(pack, other)),
                },
                None => None,
            };
            Ok(QuirkPick {
                quirk: quirk.id.clone(),
                alt_name: alt.map(str::to_owned),
                with,
            })
        })
        .collect()
}

/// Resolves the entries to take from a fighter: by the pack's id, name or
/// alternative name, or, for an entry the pack no longer has (a house
/// pack changed since the fighter was given it), by the id the fighter
/// holds it under.
pub fn resolve_held_quirks(
    pack: &Pack,
    fighter: &Fighter,
    queries: &[String],
) -> Result<Vec<QuirkPick>, CommandError> {
    queries
        .iter()
        .map(|query| {
            let held = fighter
                .quirks
                .iter()
                .find(|p| pack.quirk(&p.quirk).is_none() && text::same(&p.quirk, query));
            match held {
                Some(pick) => Ok(pick.clone()),
                None => Ok(resolve_quirks(pack, std::slice::from_ref(query))?
                    .into_iter()
                    .next()
                    .ok_or_else(|| unknown_quirk(pack, query))?),
            }
        })
        .collect()
}

fn unknown_quirk(pack: &Pack, query: &str) -> CommandError {
    let typed = text::key(query);
    // A name that begins as the query does (its first three characters)
    // or contains it; characters, never bytes, so any script is safe.
    let start: String = typed.chars().take(3).collect();
    let close: Vec<&str> = pack
        .quirks
        .iter()
        .filter(|q| {
            let name = text::key(&q.name);
            !typed.is_empty() && (name.starts_with(&start) || name.contains(&typed))
        })
        .map(|q| q.name.as_str())
        .take(4)
        .collect();
    CommandError::UnknownQuirk {
        query: text::echo(query),
        entry: pack.words.entry.clone(),
        pack: pack.pack.name.clone(),
        hint: if close.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {}?)", close.join(", "))
        },
    }
}

/// A fighter to recruit.
#[derive(Debug, Clone, Default)]
pub struct NewFighter {
    pub name: String,
    pub leader: bool,
    pub quirks: Vec<QuirkPick>,
    pub notes: String,
    /// The fighter's own base stats, where they differ from the pack's.
    pub base: std::collections::BTreeMap<String, i64>,
    /// The group they join, where the pack recruits in groups.
    pub group: Option<super::MemberGroup>,
}

/// Pays `points` for `what` the gang buys, with the resource its pack
/// buys with (`[valuation] spend`); nothing for a purchase worth nothing.
pub fn pay_for(
    pack: &Pack,
    gang: &Gang,
    points: i64,
    what: &str,
) -> Result<Vec<Event>, CommandError> {
    let resource = pack
        .spend_resource()
        .map(|r| r.id.as_str())
        .ok_or_else(|| CommandError::NothingToBuyWith(pack.pack.name.clone()))?;
    if points <= 0 {
        return Ok(Vec::new());
    }
    let reason = format!("bought {what}");
    let mut events = adjust_resource(pack, gang, resource, -points, &reason)?;
    // What is spent joins the gang's pool of points, which what it buys
    // is held to.
    if let Some(budget) = pack.valuation.as_ref().and_then(|v| v.budget.as_deref()) {
        events.extend(adjust_resource(pack, gang, budget, points, &reason)?);
    }
    Ok(events)
}

/// Whether an entry may be bought between games ([`Pack::sells`]), told in
/// words when it may not.
pub fn may_buy(pack: &Pack, quirk: &crate::rules::QuirkDef) -> Result<(), CommandError> {
    // A pack that prices nothing buys nothing here: `pay_for` says so.
    let Some(valuation) = &pack.valuation else {
        return Ok(());
    };
    if pack.sells(&quirk.category) {
        return Ok(());
    }
    let labels: Vec<String> = valuation
        .buys
        .iter()
        .map(|c| {
            pack.category(c)
                .map_or_else(|| c.clone(), |d| d.label.clone())
        })
        .collect();
    Err(CommandError::NotForSale {
        name: quirk.name.clone(),
        buys: labels.join(", "),
    })
}

/// Recruits a fighter into a gang, with the pack's starting counters.
pub fn recruit(
    pack: &Pack,
    gang: &Gang,
    roster: &[Fighter],
    id: FighterId,
    new: NewFighter,
) -> Result<Vec<Event>, CommandError> {
    let name = check_name(&pack.words.fighter, &new.name)?;
    let notes = text::notes("notes", &new.notes)?;
    check_fighter_name(gang, roster, None, &name, &pack.words)?;
    for pick in &new.quirks {
        if pack.quirk(&pick.quirk).is_none() {
            return Err(unknown_quirk(pack, &pick.quirk));
        }
    }
    for (stat, value) in &new.base {
        let def = pack.stat(stat).ok_or_else(|| CommandError::UnknownStat {
            stat: stat.clone(),
            pack: pack.pack.name.clone(),
        })?;
        let (min, max) = (def.min.unwrap_or(i64::MIN), def.max.unwrap_or(i64::MAX));
        if !(min..=max).contains(value) {
            return Err(CommandError::OutOfBounds {
                label: def.label.clone(),
                value: *value,
                min,
                max,
            });
        }
    }
    Ok(vec![Event::FighterRecruited {
        fighter: Fighter {
            id,
            gang: gang.id,
            name,
            leader: new.leader,
            quirks: new.quirks,
            counters: pack
                .counters
                .iter()
                .filter_map(|c| Some((c.id.clone(), c.start()?)))
                .collect(),
            notes,
            base: new.base,
            status: Default::default(),
            group: new.group,
        },
    }])
}

fn check_fighter_name(
    gang: &Gang,
    roster: &[Fighter],
    except: Option<FighterId>,
    name: &str,
    words: &Words,
) -> Result<(), CommandError> {
    match roster
        .iter()
        .find(|f| Some(f.id) != except && text::same(&f.name, name))
    {
        Some(taken) => Err(CommandError::FighterNameTaken {
            gang: gang.name.clone(),
            word: words.fighter.clone(),
            name: taken.name.clone(),
        }),
        None => Ok(()),
    }
}

/// Refuses a name that a fighter dismissed from the gang keeps in its
/// history (`kept`, their names).
pub fn check_name_not_kept(
    gang: &Gang,
    kept: &[String],
    name: &str,
    words: &Words,
) -> Result<(), CommandError> {
    let name = check_name(&words.fighter, name)?;
    match kept.iter().find(|k| text::same(k, &name)) {
        Some(held) => Err(CommandError::FighterNameKept {
            gang: gang.name.clone(),
            name: held.clone(),
        }),
        None => Ok(()),
    }
}

pub fn dismiss(fighter: &Fighter) -> Vec<Event> {
    vec![Event::FighterDismissed {
        fighter: fighter.clone(),
    }]
}

pub fn rename_fighter(
    gang: &Gang,
    roster: &[Fighter],
    fighter: &Fighter,
    to: &str,
    words: &Words,
) -> Result<Vec<Event>, CommandError> {
    let to = check_name(&words.fighter, to)?;
    if to == fighter.name {
        return Err(CommandError::NoChange);
    }
    check_fighter_name(gang, roster, Some(fighter.id), &to, words)?;
    Ok(vec![Event::FighterRenamed {
        fighter: fighter.id,
        from: fighter.name.clone(),
        to,
    }])
}

pub fn set_leader(fighter: &Fighter, to: bool) -> Result<Vec<Event>, CommandError> {
    if fighter.leader == to {
        return Err(CommandError::NoChange);
    }
    Ok(vec![Event::LeaderChanged {
        fighter: fighter.id,
        from: fighter.leader,
        to,
    }])
}

pub fn set_quirks(
    pack: &Pack,
    fighter: &Fighter,
    to: Vec<QuirkPick>,
) -> Result<Vec<Event>, CommandError> {
    // An entry the fighter holds already may stay (or go) though the pack
    // no longer has it (a house pack changed since); a new one must be
    // the pack's.
    if let Some(bad) = to
        .iter()
        .find(|p| pack.quirk(&p.quirk).is_none() && !fighter.quirks.contains(p))
    {
        return Err(unknown_quirk(pack, &bad.quirk));
    }
    if to == fighter.quirks {
        return Err(CommandError::NoChange);
    }
    Ok(vec![Event::QuirksChanged {
        fighter: fighter.id,
        from: fighter.quirks.clone(),
        to,
    }])
}

/// Sets a counter (Bounty) within its bounds, with a reason for the log.
pub fn set_counter(
    pack: &Pack,
    fighter: &Fighter,
    counter: &str,
    to: i64,
    reason: &str,
) -> Result<Vec<Event>, CommandError> {
    let unknown = || CommandError::UnknownCounter {
        counter: counter.to_owned(),
        pack: pack.pack.name.clone(),
    };
    let (def, entry) = pack.counter_key(counter).ok_or_else(unknown)?;
    // A counter kept per entry is changed for one the fighter has.
    let held: Vec<String> = fighter.quirks.iter().map(|p| p.quirk.clone()).collect();
    let key = match (&def.per_entry, entry) {
        (None, _) => def.id.clone(),
        (Some(_), Some(e)) if held.contains(&e.id) => def.key_for(&e.id),
        (Some(_), Some(e)) => {
            return Err(CommandError::NoEntry {
                fighter: fighter.name.clone(),
                entry: e.name.clone(),
            });
        }
        (Some(tag), None) => {
            let keys: Vec<String> = pack
                .counter_keys(&held)
                .into_iter()
                .filter(|(_, d)| d.id == def.id)
                .map(|(k, _)| k)
                .collect();
            return Err(CommandError::PerEntry {
                label: def.label.clone(),
                fighter: fighter.name.clone(),
                tag: tag.clone(),
                keys: if keys.is_empty() {
                    "none".to_owned()
                } else {
                    keys.join(", ")
                },
            });
        }
    };
    if let Some(entry) = pack.entry_taking(&def.id, fighter.quirks.iter().map(|p| p.quirk.as_str()))
    {
        return Err(CommandError::TakenAway {
            fighter: fighter.name.clone(),
            label: def.label.clone(),
            entry: entry.name.clone(),
        });
    }
    if let Some(ruling) = def.unfilled() {
        return Err(CommandError::Unfilled {
            label: def.label.clone(),
            pack: pack.pack.name.clone(),
            ruling: ruling.to_owned(),
        });
    }
    if !(def.min..=def.top()).contains(&to) {
        return Err(CommandError::OutOfBounds {
            label: def.label.clone(),
            value: to,
            min: def.min,
            max: def.top(),
        });
    }
    let from = fighter
        .counters
        .get(&key)
        .copied()
        .or(def.start())
        .unwrap_or(0);
    if from == to {
        return Err(CommandError::NoChange);
    }
    let reason = &text::reason("reason", reason.trim())?;
    if reason.is_empty() {
        return Err(CommandError::NeedsReason(def.label.clone()));
    }
    Ok(vec![Event::CounterChanged {
        fighter: fighter.id,
        counter: key,
        from,
        to,
        reason: reason.to_owned(),
    }])
}

/// Sets the count an entry found in play starts with (a found weapon's
/// bullets): a total its counter's `found` roll can make, and no other.
pub fn set_found_counter(
    pack: &Pack,
    fighter: &Fighter,
    counter: &str,
    to: i64,
) -> Result<Vec<Event>, CommandError> {
    let (def, _) = pack
        .counter_key(counter)
        .ok_or_else(|| CommandError::UnknownCounter {
            counter: counter.to_owned(),
            pack: pack.pack.name.clone(),
        })?;
    let (Some(roll), Some(totals)) = (&def.found, def.found_totals()) else {
        return Err(CommandError::NotFound {
            label: def.label.clone(),
            entry: pack.words.entry.clone(),
            pack: pack.pack.name.clone(),
        });
    };
    if !totals.contains(&to) {
        return Err(CommandError::FoundRoll {
            label: pack.counter_title(counter),
            entry: pack.words.entry.clone(),
            roll: roll.clone(),
            min: *totals.start(),
            max: *totals.end(),
            value: to,
        });
    }
    let reason = format!("found in play, rolled on {roll}");
    set_counter(pack, fighter, counter, to, &reason)
}

/// Sets a fighter's own base value of a stat, within the stat's bounds;
/// the pack's default is stored as no value of the fighter's own.
pub fn set_base_stat(
    pack: &Pack,
    fighter: &Fighter,
    stat: &str,
    value: i64,
) -> Result<Vec<Event>, CommandError> {
    let def = pack
        .stats
        .iter()
        .find(|s| s.id == stat || text::same(&s.label, stat) || text::same(&s.name, stat))
        .ok_or_else(|| CommandError::UnknownStat {
            stat: text::echo(stat),
            pack: pack.pack.name.clone(),
        })?;
    let (min, max) = (def.min.unwrap_or(i64::MIN), def.max.unwrap_or(i64::MAX));
    if !(min..=max).contains(&value) {
        return Err(CommandError::OutOfBounds {
            label: def.label.clone(),
            value,
            min,
            max,
        });
    }
    let from = fighter.base.get(&def.id).copied();
    let to = (Some(value) != def.default).then_some(value);
    if from == to {
        return Err(CommandError::NoChange);
    }
    Ok(vec![Event::BaseStatSet {
        fighter: fighter.id,
        stat: def.id.clone(),
        from,
        to,
    }])
}

pub fn set_fighter_notes(fighter: &Fighter, to: &str) -> Result<Vec<Event>, CommandError> {
    let to = text::notes("notes", to)?;
    let to = to.as_str();
    if to == fighter.notes {
        return Err(CommandError::NoChange);
    }
    Ok(vec![Event::FighterNotesChanged {
        fighter: fighter.id,
        from: fighter.notes.clone(),
        to: to.to_owned(),
    }])
}

/// Why a captive or lasting-effect command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AftermathError {
    #[error("{0} is not held by a rival gang")]
    NotCaptive(String),
    #[error("{gang} has {have} {resource}, not the {amount} of the ransom")]
    CannotPay {
        gang: String,
        have: i64,
        resource: String,
        amount: i64,
    },
    #[error("a ransom is a positive amount, not {0}")]
    BadAmount(i64),
    #[error("a ransom of {0} is out of bounds: the most a number may be is {max}", max = crate::rules::MAX_MAGNITUDE)]
    AmountPastBound(i64),
    #[error("{gang} has {have} {resource}; a ransom of {amount} would take it past {max}, the most a number may be", max = crate::rules::MAX_MAGNITUDE)]
    CaptorsPastBound {
        gang: String,
        have: i64,
        resource: String,
        amount: i64,
    },
    #[error("{0} is already removed")]
    AlreadyRemoved(String),
    /// The pack's `[captives]` does not allow it.
    #[error("captives.may: this game does not let a captive be {what}")]
    NotAllowed { what: String },
    /// Not the price the pack's `[captives]` sets.
    #[error("{field}: {amount} is not the price of {fighter}: {price} {resource}")]
    NotThePrice {
        field: String,
        fighter: String,
        amount: i64,
        price: String,
        resource: String,
    },
    #[error("captives.resource: a captive is paid for in {0}")]
    WrongResource(String),
    #[error("captives.sell: this game does not sell captives")]
    NotSold,
    #[error("removing {0} needs a reason for the log")]
    NeedsReason(String),
    #[error(transparent)]
    Command(#[from] CommandError),
}

/// The captive's gang pays a ransom to the captors, who free the fighter.
/// `worth` is the captive's, for a price by worth
/// ([`crate::campaign::rating::worth`]).
#[allow(clippy::too_many_arguments)]
pub fn ransom(
    pack: &Pack,
    fighter: &Fighter,
    owner: &Gang,
    captors: &Gang,
    resource: &str,
    amount: i64,
    worth: i64,
) -> Result<Vec<Event>, AftermathError> {
    if !matches!(fighter.status, super::FighterStatus::Captured { by, .. } if by == captors.id) {
        return Err(AftermathError::NotCaptive(fighter.name.clone()));
    }
    if amount <= 0 {
        return Err(AftermathError::BadAmount(amount));
    }
    if !crate::rules::within_bound(amount) {
        return Err(AftermathError::AmountPastBound(amount));
    }
    let def = resource_def(pack, resource)?;
    if let Some(rules) = &pack.captives {
        allowed(rules, crate::rules::CaptiveAction::Ransom, "ransomed")?;
        if def.id != rules.resource {
            return Err(AftermathError::WrongResource(
                pack.resource_label(&rules.resource).to_owned(),
            ));
        }
        let worth = rules.ransom.as_ref().map_or(worth, |p| {
            p.basis(worth, |by| super::rating::hiring_cost(pack, fighter, by))
        });
        if let Some(price) = &rules.ransom
            && !price.allows(amount, worth)
        {
            return Err(not_the_price(
                "captives.ransom",
                pack,
                fighter,
                amount,
                price,
                worth,
            ));
        }
    }
    let have = owner.resources.get(&def.id).copied().unwrap_or(0);
    if have < amount {
        return Err(AftermathError::CannotPay {
            gang: owner.name.clone(),
            have,
            resource: def.label.clone(),
            amount,
        });
    }
    let (theirs, paid) = captors_gain(captors, def, amount)?;
    let reason = format!("ransom for {}", fighter.name);
    Ok(vec![
        Event::ResourceAdjusted {
            gang: owner.id,
            resource: def.id.clone(),
            from: have,
            to: have - amount,
            reason: reason.clone(),
        },
        Event::ResourceAdjusted {
            gang: captors.id,
            resource: def.id.clone(),
            from: theirs,
            to: paid,
            reason,
        },
        Event::FighterStatusChanged {
            fighter: fighter.id,
            from: fighter.status.clone(),
            to: super::FighterStatus::Active,
            reason: format!("ransomed from {} for {amount} {}", captors.name, def.label),
        },
    ])
}

/// What the captors hold of a resource, and what they hold once `amount`
/// is paid them: refused where it would pass the safety bound.
fn captors_gain(
    captors: &Gang,
    def: &crate::rules::ResourceDef,
    amount: i64,
) -> Result<(i64, i64), AftermathError> {
    let theirs = captors.resources.get(&def.id).copied().unwrap_or(def.start);
    let paid = theirs
        .checked_add(amount)
        .filter(|to| !crate::rules::passes_bound(theirs, *to))
        .ok_or_else(|| AftermathError::CaptorsPastBound {
            gang: captors.name.clone(),
            have: theirs,
            resource: def.label.clone(),
            amount,
        })?;
    Ok((theirs, paid))
}

/// Refused unless the pack's `[captives]` lets it be done.
fn allowed(
    rules: &crate::rules::CaptiveRules,
    action: crate::rules::CaptiveAction,
    done: &str,
) -> Result<(), AftermathError> {
    if rules.may(action) {
        Ok(())
    } else {
        Err(AftermathError::NotAllowed {
            what: done.to_owned(),
        })
    }
}

fn not_the_price(
    field: &str,
    pack: &Pack,
    fighter: &Fighter,
    amount: i64,
    price: &crate::rules::Price,
    worth: i64,
) -> AftermathError {
    let resource = pack
        .captives
        .as_ref()
        .map_or("", |c| pack.resource_label(&c.resource));
    AftermathError::NotThePrice {
        field: field.to_owned(),
        fighter: fighter.name.clone(),
        amount,
        price: price.said(worth),
        resource: resource.to_owned(),
    }
}

/// The captors sell a captive at the pack's price: they gain it, and the
/// captive leaves their own side for good.
pub fn sell(
    pack: &Pack,
    fighter: &Fighter,
    captors: &Gang,
    amount: i64,
    worth: i64,
) -> Result<Vec<Event>, AftermathError> {
    if !matches!(fighter.status, super::FighterStatus::Captured { by, .. } if by == captors.id) {
        return Err(AftermathError::NotCaptive(fighter.name.clone()));
    }
    let Some(rules) = &pack.captives else {
        return Err(AftermathError::NotSold);
    };
    allowed(rules, crate::rules::CaptiveAction::Sell, "sold")?;
    let Some(sale) = &rules.sell else {
        return Err(AftermathError::NotSold);
    };
    let worth = sale
        .price
        .basis(worth, |by| super::rating::hiring_cost(pack, fighter, by));
    if !sale.price.allows(amount, worth) {
        return Err(not_the_price(
            "captives.sell",
            pack,
            fighter,
            amount,
            &sale.price,
            worth,
        ));
    }
    let def = resource_def(pack, &rules.resource)?;
    let (theirs, paid) = captors_gain(captors, def, amount)?;
    Ok(vec![
        Event::ResourceAdjusted {
            gang: captors.id,
            resource: def.id.clone(),
            from: theirs,
            to: paid,
            reason: format!("sold {}", fighter.name),
        },
        Event::FighterStatusChanged {
            fighter: fighter.id,
            from: fighter.status.clone(),
            to: super::FighterStatus::Gone {
                status: sale.status.clone(),
                battle: None,
            },
            reason: format!("sold by {} for {amount} {}", captors.name, def.label),
        },
    ])
}

/// The captors free a captive for nothing.
pub fn release(
    pack: &Pack,
    fighter: &Fighter,
    captors: &Gang,
) -> Result<Vec<Event>, AftermathError> {
    if !matches!(fighter.status, super::FighterStatus::Captured { by, .. } if by == captors.id) {
        return Err(AftermathError::NotCaptive(fighter.name.clone()));
    }
    if let Some(rules) = &pack.captives {
        allowed(rules, crate::rules::CaptiveAction::Release, "released")?;
    }
    Ok(vec![Event::FighterStatusChanged {
        fighter: fighter.id,
        from: fighter.status.clone(),
        to: super::FighterStatus::Active,
        reason: format!("released by {}", captors.name),
    }])
}

/// Heals a lasting injury or reverses an advancement, with the reason; a
/// quirk the effect gave goes with it.
pub fn remove_lasting(
    fighter: &Fighter,
    effect: &super::LastingEffect,
    reason: &str,
) -> Result<Vec<Event>, AftermathError> {
    if effect.removed.is_some() {
        return Err(AftermathError::AlreadyRemoved(effect.name.clone()));
    }
    let reason = &text::reason("reason", reason.trim()).map_err(CommandError::from)?;
    if reason.is_empty() {
        return Err(AftermathError::NeedsReason(effect.name.clone()));
    }
    let mut events = vec![Event::LastingEffectRemoved {
        effect: effect.id,
        reason: reason.to_owned(),
    }];
    let mut to: Vec<QuirkPick> = fighter.quirks.clone();
    if let Some(quirk) = &effect.quirk {
        to.retain(|q| q.quirk != *quirk);
    }
    if let Some(lost) = &effect.lost_quirk
        && !fighter.has_quirk(lost)
    {
        to.push(QuirkPick::new(lost.clone()));
    }
    if to != fighter.quirks {
        events.push(Event::QuirksChanged {
            fighter: fighter.id,
            from: fighter.quirks.clone(),
            to,
        });
    }
    Ok(events)
}
