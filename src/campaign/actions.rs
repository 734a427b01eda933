//! Resource actions between battles: pay the cost, take from another gang,
//! and keep what the action promises for the next battle. Pure.

use super::{Event, Gang, PendingEffect, PendingId};
use crate::rules::{ActionDef, Pack};

/// Why an action was refused. Nothing is spent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("{pack} has no resource action “{0}” (it has {known})", pack = .1, known = .2)]
    Unknown(String, String, String),
    #[error("{action} costs {cost}; {gang} has {have}")]
    CannotAfford {
        action: String,
        cost: String,
        gang: String,
        have: String,
    },
    #[error("{0} takes from another gang: name it (--target)")]
    NeedsTarget(String),
    #[error("{0} takes from no other gang; leave out the target")]
    NoTarget(String),
    #[error("a gang cannot take from itself")]
    SameGang,
    #[error("{action}: choose one of {options} (--choice)")]
    NeedsChoice { action: String, options: String },
    #[error("{action}: “{choice}” is not one of {options}")]
    BadChoice {
        action: String,
        choice: String,
        options: String,
    },
    #[error("{gang} has {have} {resource}; {action} would take it {bound}")]
    PastBound {
        action: String,
        gang: String,
        have: i64,
        resource: String,
        bound: String,
    },
    #[error("{target} has no {resource} to take (ruling: {ruling})")]
    NothingToTake {
        target: String,
        resource: String,
        ruling: String,
    },
}

/// Builds the events of a resource action.
pub fn take_action(
    pack: &Pack,
    gang: &Gang,
    action: &str,
    target: Option<&Gang>,
    choice: Option<&str>,
    pending_id: PendingId,
) -> Result<Vec<Event>, ActionError> {
    let Some(def) = pack.find_action(action) else {
        let known: Vec<&str> = pack.actions.iter().map(|a| a.name.as_str()).collect();
        return Err(ActionError::Unknown(
            action.to_owned(),
            pack.pack.name.clone(),
            known.join(", "),
        ));
    };
    let mut events = paid(pack, def, gang)?;
    let picked = match target {
        _ if !def.take_choice.is_empty() => {
            let target = target.ok_or_else(|| ActionError::NeedsTarget(def.name.clone()))?;
            Some(taken(pack, def, gang, target, choice, &mut events)?)
        }
        Some(_) => return Err(ActionError::NoTarget(def.name.clone())),
        None => None,
    };
    if let Some(text) = &def.next_battle {
        events.push(Event::PendingEffectAdded {
            effect: PendingEffect {
                id: pending_id,
                gang: gang.id,
                action: def.id.clone(),
                action_name: def.name.clone(),
                text: text.clone(),
                used_in: None,
            },
        });
    }
    events.push(Event::ActionTaken {
        gang: gang.id,
        action: def.id.clone(),
        target: target.map(|t| t.id),
        choice: picked,
    });
    Ok(events)
}

/// What a gang holds of a resource.
fn held(gang: &Gang, resource: &str) -> i64 {
    gang.resources.get(resource).copied().unwrap_or(0)
}

/// What a resource becomes when an action changes it by `delta`: every
/// change is checked, as stored amounts may come from an older file.
fn changed_by(
    pack: &Pack,
    def: &ActionDef,
    (gang, resource): (&Gang, &str),
    from: i64,
    delta: i64,
) -> Result<i64, ActionError> {
    from.checked_add(delta)
        .filter(|to| !crate::rules::passes_bound(from, *to))
        .ok_or_else(|| ActionError::PastBound {
            action: def.name.clone(),
            gang: gang.name.clone(),
            have: from,
            resource: pack.resource_label(resource).to_owned(),
            bound: crate::rules::bound_crossed(delta),
        })
}

/// The action's cost, paid: refused where the gang cannot afford it.
fn paid(pack: &Pack, def: &ActionDef, gang: &Gang) -> Result<Vec<Event>, ActionError> {
    for cost in &def.cost {
        if held(gang, &cost.resource) < cost.amount {
            return Err(ActionError::CannotAfford {
                action: def.name.clone(),
                cost: format!("{} {}", cost.amount, pack.resource_label(&cost.resource)),
                gang: gang.name.clone(),
                have: format!(
                    "{} {}",
                    held(gang, &cost.resource),
                    pack.resource_label(&cost.resource)
                ),
            });
        }
    }
    let reason = format!("{} (resource action)", def.name);
    def.cost
        .iter()
        .map(|cost| {
            let from = held(gang, &cost.resource);
            Ok(Event::ResourceAdjusted {
                gang: gang.id,
                resource: cost.resource.clone(),
                from,
                to: changed_by(
                    pack,
                    def,
                    (gang, &cost.resource),
                    from,
                    cost.amount.saturating_neg(),
                )?,
                reason: format!("cost of {reason}"),
            })
        })
        .collect()
}

/// What the action takes from another gang, the target, and gives the
/// gang taking it (after the cost in `events`, which may have been paid
/// in the same resource): the resource taken.
fn taken(
    pack: &Pack,
    def: &ActionDef,
    gang: &Gang,
    target: &Gang,
    choice: Option<&str>,
    events: &mut Vec<Event>,
) -> Result<String, ActionError> {
    if target.id == gang.id {
        return Err(ActionError::SameGang);
    }
    let amount = take_chosen(pack, def, choice)?;
    let available = held(target, &amount.resource);
    if available < amount.amount {
        let ruling = def
            .ruling
            .as_ref()
            .and_then(|r| pack.ruling(r))
            .map_or(String::new(), |r| r.ruling.clone());
        return Err(ActionError::NothingToTake {
            target: target.name.clone(),
            resource: pack.resource_label(&amount.resource).to_owned(),
            ruling,
        });
    }
    let reason = format!("{} (resource action)", def.name);
    events.push(Event::ResourceAdjusted {
        gang: target.id,
        resource: amount.resource.clone(),
        from: available,
        to: changed_by(
            pack,
            def,
            (target, &amount.resource),
            available,
            amount.amount.saturating_neg(),
        )?,
        reason: format!("{reason} by {}", gang.name),
    });
    // The cost may have been paid in the same resource.
    let mine = events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::ResourceAdjusted {
                gang: g,
                resource,
                to,
                ..
            } if *g == gang.id && *resource == amount.resource => Some(*to),
            _ => None,
        })
        .unwrap_or_else(|| held(gang, &amount.resource));
    events.push(Event::ResourceAdjusted {
        gang: gang.id,
        resource: amount.resource.clone(),
        from: mine,
        to: changed_by(pack, def, (gang, &amount.resource), mine, amount.amount)?,
        reason: format!("{reason} from {}", target.name),
    });
    Ok(amount.resource.clone())
}

/// Which of the action's amounts to take: the one it has, or the one the
/// player chose (by the resource's id or label).
fn take_chosen<'a>(
    pack: &Pack,
    def: &'a ActionDef,
    choice: Option<&str>,
) -> Result<&'a crate::rules::Amount, ActionError> {
    let options = || {
        def.take_choice
            .iter()
            .map(|a| a.resource.as_str())
            .collect::<Vec<_>>()
            .join(" or ")
    };
    match (choice, def.take_choice.as_slice()) {
        (None, [only]) => Ok(only),
        (None, _) => Err(ActionError::NeedsChoice {
            action: def.name.clone(),
            options: options(),
        }),
        (Some(c), list) => list
            .iter()
            .find(|a| {
                crate::text::same(&a.resource, c)
                    || crate::text::same(pack.resource_label(&a.resource), c)
            })
            .ok_or_else(|| ActionError::BadChoice {
                action: def.name.clone(),
                choice: crate::text::echo(c),
                options: options(),
            }),
    }
}
