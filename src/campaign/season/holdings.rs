//! Holdings (`[[holdings]]`): what only a holding's holder may recruit,
//! and a holding changing hands by hand. Pure.

use std::collections::BTreeMap;

use crate::campaign::{Event, GangId};
use crate::rules::{Pack, Unlock};

/// What a gang may not recruit without a holding it lacks: the first
/// holding (by its name) that unlocks one of `entries` or the kind of
/// group `group`, and what it unlocks (by its name). `None` when the gang
/// may.
pub fn locked_for(
    pack: &Pack,
    holders: &BTreeMap<String, GangId>,
    gang: GangId,
    entries: &[&str],
    group: Option<&str>,
) -> Option<(String, String)> {
    let wanted = entries
        .iter()
        .map(|e| Unlock::Entry((*e).to_owned()))
        .chain(group.map(|g| Unlock::Group(g.to_owned())));
    for unlock in wanted {
        let locks: Vec<_> = pack
            .holdings
            .iter()
            .filter(|h| h.unlocks(&unlock))
            .collect();
        // Any one of the holdings that unlock it will do.
        if locks.is_empty() || locks.iter().any(|h| holders.get(&h.id) == Some(&gang)) {
            continue;
        }
        let what = match &unlock {
            Unlock::Entry(id) => pack
                .quirk(id)
                .map_or_else(|| id.clone(), |q| q.name.clone()),
            Unlock::Group(id) => pack
                .groups
                .iter()
                .find(|g| g.id == *id)
                .map_or_else(|| id.clone(), |g| g.label.clone()),
        };
        let names: Vec<&str> = locks.iter().map(|h| h.name.as_str()).collect();
        return Some((names.join(" or "), what));
    }
    None
}

/// The refusal of a recruit a gang may not make, in words.
pub fn locked_said(pack: &Pack, (holding, what): &(String, String)) -> String {
    format!(
        "only the {} holding {holding} may recruit {what}",
        pack.words.gang
    )
}

/// A holding given to a gang (`Some`) or taken from its holder (`None`)
/// by hand, with the reason: the event, or why not. `name` gives a gang's
/// name.
pub fn change_by_hand(
    pack: &Pack,
    holders: &BTreeMap<String, GangId>,
    holding: &str,
    to: Option<GangId>,
    reason: &str,
    name: impl Fn(GangId) -> String,
) -> Result<Event, String> {
    let Some(def) = pack.find_holding(holding) else {
        let known: Vec<&str> = pack.holdings.iter().map(|h| h.name.as_str()).collect();
        return Err(format!(
            "“{}” is not a {} of {} ({})",
            crate::text::echo(holding),
            pack.words.holding,
            pack.pack.name,
            known.join(", ")
        ));
    };
    let from = holders.get(&def.id).copied();
    if from == to {
        return Err(match to {
            Some(gang) => format!("{} already holds {}", name(gang), def.name),
            None => format!("no {} holds {}", pack.words.gang, def.name),
        });
    }
    Ok(Event::HoldingChanged {
        holding: def.id.clone(),
        from,
        to,
        reason: reason.to_owned(),
    })
}
