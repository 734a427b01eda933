//! The checks of bounties, titles and resource actions.

use super::check_amounts;
use crate::rules::{Amount, Pack, PackError};

/// Checks `[bounties]`: a counter and a resource of the pack.
pub(super) fn validate_bounties(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    if let Some(bounties) = &pack.bounties {
        if pack.counter(&bounties.counter).is_none() {
            return err(
                "bounties".into(),
                format!("counter `{}` is not in [[counters]]", bounties.counter),
            );
        }
        if pack.resource(&bounties.claim_resource).is_none() {
            return err(
                "bounties".into(),
                format!(
                    "resource `{}` is not in [[resources]]",
                    bounties.claim_resource
                ),
            );
        }
    }
    Ok(())
}

/// Checks each title compares one thing: a resource of the pack, or a count it can keep.
pub(super) fn validate_titles(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    for title in &pack.titles {
        let entry = format!("titles.{}", title.id);
        match (&title.count, title.resource.is_empty()) {
            (None, true) => {
                return err(
                    entry,
                    "give the `resource` or the `count` it compares".into(),
                );
            }
            (Some(_), false) => {
                return err(entry, "give a `resource` or a `count`, not both".into());
            }
            (None, false) if pack.resource(&title.resource).is_none() => {
                return err(
                    entry,
                    format!("resource `{}` is not in [[resources]]", title.resource),
                );
            }
            (Some(count), true) => match crate::rules::TitleCount::parse(count) {
                Err(reason) => return err(entry, reason),
                Ok(crate::rules::TitleCount::Counter(id)) if pack.counter(&id).is_none() => {
                    return err(entry, format!("counter `{id}` is not in [[counters]]"));
                }
                Ok(_) => {}
            },
            (None, false) => {}
        }
    }
    Ok(())
}

/// Checks each resource action: resources of the pack, and costs that are positive.
pub(super) fn validate_actions(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let amounts = |entry: &str, list: &[Amount]| check_amounts(file, pack, entry, list);
    for action in &pack.actions {
        let entry = format!("actions.{}", action.id);
        amounts(&entry, &action.cost)?;
        amounts(&entry, &action.take_choice)?;
        if action.cost.iter().any(|c| c.amount <= 0) {
            return err(entry, "a cost is a positive amount".into());
        }
    }
    Ok(())
}

/// Checks the stages an action is for are arc stages, and that its marks mark a fighter.
pub(super) fn validate_action_marks(file: &str, pack: &Pack) -> Result<(), PackError> {
    for action in &pack.actions {
        if let Some(stage) = action
            .scenario_stages
            .iter()
            .find(|s| pack.arc_stage(s).is_none())
        {
            return Err(PackError::new(
                file,
                format!("actions.{}.scenario_stages", action.id),
                format!("stage `{stage}` is not in [[arc_stages]]"),
            ));
        }
        if action.marks.as_ref().is_some_and(|m| m.fighters == 0) {
            return Err(PackError::new(
                file,
                format!("actions.{}.marks", action.id),
                "marks at least one fighter".to_owned(),
            ));
        }
    }
    Ok(())
}
