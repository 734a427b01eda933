//! `rapsheet gang rename|notes` and `rapsheet fighter rename|leader|quirk|
//! counter|notes|dismiss`: every edit the app makes to a gang or a fighter,
//! through the same session commands, each one undoable batch.

use anyhow::{Result, bail};
use clap::Subcommand;

use super::print_json;
use crate::campaign::FighterId;
use crate::session::Session;

#[derive(Debug, Subcommand)]
pub enum QuirkChange {
    /// Give a fighter quirks (by name, id or d6 alternative name).
    Add {
        name: String,
        #[arg(required = true)]
        quirks: Vec<String>,
        #[arg(long)]
        gang: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Take quirks from a fighter.
    Remove {
        name: String,
        #[arg(required = true)]
        quirks: Vec<String>,
        #[arg(long)]
        gang: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

/// A text argument, or standard input for `-`.
fn text_arg(text: &str) -> Result<String> {
    if text == "-" {
        Ok(crate::input::read_stdin(crate::input::Kind::Text)?)
    } else {
        Ok(text.to_owned())
    }
}

/// After an edit: the fighter as they are now, in JSON or one line.
fn show_fighter(session: &Session, fighter: FighterId, json: bool, said: &str) -> Result<()> {
    if json {
        return print_json(&session.fighter_details(fighter)?);
    }
    say!("{said}");
    Ok(())
}

fn show_gang(
    session: &Session,
    gang: crate::campaign::GangId,
    json: bool,
    said: &str,
) -> Result<()> {
    if json {
        return print_json(&session.gang_view(gang)?);
    }
    say!("{said}");
    Ok(())
}

pub(super) fn rename_gang(session: &mut Session, name: &str, new: &str, json: bool) -> Result<()> {
    let gang = session.gang_named(name)?;
    session.rename_gang(gang.id, new)?;
    let now = session.gang(gang.id)?.name;
    show_gang(
        session,
        gang.id,
        json,
        &format!("Renamed {} to {now}", gang.name),
    )
}

pub(super) fn gang_notes(session: &mut Session, name: &str, text: &str, json: bool) -> Result<()> {
    let gang = session.gang_named(name)?;
    session.set_gang_notes(gang.id, &text_arg(text)?)?;
    show_gang(
        session,
        gang.id,
        json,
        &format!("{}: notes saved", gang.name),
    )
}

pub(super) fn rename_fighter(
    session: &mut Session,
    name: &str,
    gang: Option<&str>,
    new: &str,
    json: bool,
) -> Result<()> {
    let fighter = session.fighter_named(name, gang)?;
    session.rename_fighter(fighter.id, new)?;
    let now = session.fighter(fighter.id)?.name;
    show_fighter(
        session,
        fighter.id,
        json,
        &format!("Renamed {} to {now}", fighter.name),
    )
}

pub(super) fn leader(
    session: &mut Session,
    name: &str,
    gang: Option<&str>,
    on: bool,
    json: bool,
) -> Result<()> {
    let fighter = session.fighter_named(name, gang)?;
    session.set_leader(fighter.id, on)?;
    let gang = session.gang(fighter.gang)?;
    let leader = &session.gang_pack(&gang)?.words.leader;
    let said = if on {
        format!("{} is now {leader} of {}", fighter.name, gang.name)
    } else {
        format!("{} is no longer {leader} of {}", fighter.name, gang.name)
    };
    show_fighter(session, fighter.id, json, &said)
}

pub(super) fn quirks(session: &mut Session, change: QuirkChange) -> Result<()> {
    let (name, names, gang, json, adding) = match change {
        QuirkChange::Add {
            name,
            quirks,
            gang,
            json,
        } => (name, quirks, gang, json, true),
        QuirkChange::Remove {
            name,
            quirks,
            gang,
            json,
        } => (name, quirks, gang, json, false),
    };
    let fighter = session.fighter_named(&name, gang.as_deref())?;
    let picked = if adding {
        session.resolve_quirks(fighter.gang, &names)?
    } else {
        session.resolve_held_quirks(fighter.id, &names)?
    };
    let pack = session.pack(&session.gang(fighter.gang)?.ruleset)?;
    let name_of = |id: &str| {
        pack.quirk(id)
            .map_or_else(|| id.to_owned(), |q| q.name.clone())
    };
    let mut quirks = fighter.quirks.clone();
    for pick in picked {
        let has = quirks.iter().position(|q| q.quirk == pick.quirk);
        match (adding, has) {
            (true, None) => quirks.push(pick),
            (true, Some(_)) => bail!("{} already has {}", fighter.name, name_of(&pick.quirk)),
            (false, Some(i)) => {
                quirks.remove(i);
            }
            (false, None) => bail!("{} has no {}", fighter.name, name_of(&pick.quirk)),
        }
    }
    session.set_quirks(fighter.id, quirks)?;
    let view = session.fighter_details(fighter.id)?;
    let now: Vec<String> = view.view.quirks.iter().map(|q| q.title()).collect();
    show_fighter(
        session,
        fighter.id,
        json,
        &format!("{}: {}", fighter.name, now.join(", ")),
    )
}

pub(super) fn counter(
    session: &mut Session,
    name: &str,
    gang: Option<&str>,
    (counter, value, found): (&str, i64, bool),
    json: bool,
) -> Result<()> {
    let fighter = session.fighter_named(name, gang)?;
    let pack = session.pack(&session.gang(fighter.gang)?.ruleset)?;
    // A counter by id or label; one kept per entry as `counter:entry`
    // (`ammo:pistol`), the entry by id or name.
    let Some((def, _)) = pack.counter_key(counter).or_else(|| {
        pack.counters
            .iter()
            .find(|c| crate::text::same(&c.id, counter))
            .map(|c| (c, None))
    }) else {
        let known: Vec<&str> = pack.counters.iter().map(|c| c.label.as_str()).collect();
        bail!(
            "“{}” is not a counter of {} ({})",
            crate::text::echo(counter),
            pack.pack.name,
            known.join(", ")
        );
    };
    let (id, label) = match counter.split_once(':') {
        Some(_) => (counter.to_owned(), pack.counter_title(counter)),
        None => (def.id.clone(), def.label.clone()),
    };
    if found {
        session.set_found_counter(fighter.id, &id, value)?;
    } else {
        session.set_counter(fighter.id, &id, value, "set by hand")?;
    }
    show_fighter(
        session,
        fighter.id,
        json,
        &format!("{}: {label} {value}", fighter.name),
    )
}

pub(super) fn fighter_notes(
    session: &mut Session,
    name: &str,
    gang: Option<&str>,
    text: &str,
    json: bool,
) -> Result<()> {
    let fighter = session.fighter_named(name, gang)?;
    session.set_fighter_notes(fighter.id, &text_arg(text)?)?;
    show_fighter(
        session,
        fighter.id,
        json,
        &format!("{}: notes saved", fighter.name),
    )
}

/// `successor`: who leads next, where the pack's succession leaves a tie
/// to the side.
pub(super) fn dismiss(
    session: &mut Session,
    name: &str,
    gang: Option<&str>,
    successor: Option<&str>,
) -> Result<()> {
    let fighter = session.fighter_named(name, gang)?;
    let next = successor
        .map(|n| session.fighter_named(n, Some(&session.gang(fighter.gang)?.name)))
        .transpose()?;
    let was_leader = fighter.leader;
    session.dismiss_naming(fighter.id, next.map(|f| f.id))?;
    say!(
        "Dismissed {} (rapsheet undo brings them back)",
        fighter.name
    );
    if was_leader {
        let view = session.gang_view(fighter.gang)?;
        if let Some(leader) = view.fighters.iter().find(|f| f.leader) {
            let word = session
                .gang_pack(&session.gang(fighter.gang)?)?
                .words
                .leader
                .clone();
            say!("{} is the {word} now", leader.name);
        }
    }
    Ok(())
}

/// A gang's resources after a change, for every gang it touched.
#[derive(serde::Serialize)]
struct Standing {
    gang: String,
    resources: Vec<crate::session::ResourceView>,
}

/// After a change to resources: the new standings of every gang it
/// touched (both gangs of an action that takes from another). Saved
/// already: a failure to read back is a warning.
/// `rapsheet resource RESOURCE DELTA --gang GANG`: a gang's resource
/// changed by hand, with the reason, and where it stands after.
pub(super) fn resource(
    session: &mut Session,
    (gang, resource, delta): (&str, &str, i64),
    reason: &str,
    json: bool,
) -> Result<()> {
    let g = session.gang_named(gang)?;
    let batch = session.adjust_resource(g.id, resource, delta, reason)?;
    standings(session, &[g.id], batch, json)
}

pub(super) fn standings(
    session: &Session,
    gangs: &[crate::campaign::GangId],
    batch: crate::campaign::BatchId,
    json: bool,
) -> Result<()> {
    let mut out = Vec::new();
    for gang in gangs {
        match session.gang_view(*gang) {
            Ok(view) => out.push(Standing {
                gang: view.name,
                resources: view.resources,
            }),
            Err(err) => say_err!(
                "warning: {}",
                crate::session::saved_but(batch, "reading the gang back", &err)
            ),
        }
    }
    if json {
        return print_json(&out);
    }
    for s in out {
        let resources: Vec<String> = s
            .resources
            .iter()
            .map(|r| format!("{} {}", r.label, r.amount))
            .collect();
        say!("{}: {}", s.gang, resources.join(" · "));
    }
    Ok(())
}
