//! The check that every ruling a section names is in `[[rulings]]`.

use crate::rules::{Pack, PackError};

/// Checks every ruling a section names is in [[rulings]].
pub(super) fn validate_named_rulings(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    // Every ruling a section names must be in [[rulings]].
    let named_rulings = pack
        .bounties
        .iter()
        .filter_map(|b| b.ruling.as_ref().map(|r| ("bounties".to_owned(), r)))
        .chain(
            pack.injuries
                .iter()
                .filter_map(|i| i.ruling.as_ref().map(|r| ("injuries".to_owned(), r))),
        )
        .chain(pack.bounties.iter().filter_map(|b| {
            b.no_declaration_ruling
                .as_ref()
                .map(|r| ("bounties.no_declaration_ruling".to_owned(), r))
        }))
        .chain(
            pack.advancement
                .iter()
                .filter_map(|a| a.ruling.as_ref().map(|r| ("advancement".to_owned(), r))),
        )
        .chain(pack.results.iter().filter_map(|r| {
            r.no_winner_ruling
                .as_ref()
                .map(|x| ("results".to_owned(), x))
        }))
        .chain(
            pack.title_rules
                .iter()
                .flat_map(|t| t.rulings.iter().map(|r| ("title_rules".to_owned(), r))),
        )
        .chain(
            pack.actions
                .iter()
                .filter_map(|a| a.ruling.as_ref().map(|r| (format!("actions.{}", a.id), r))),
        )
        .chain(pack.arc_stages.iter().filter_map(|s| {
            s.ruling
                .as_ref()
                .map(|r| (format!("arc_stages.{}", s.id), r))
        }))
        .chain(pack.resources.iter().filter_map(|r| {
            r.floor_ruling
                .as_ref()
                .map(|x| (format!("resources.{}.floor_ruling", r.id), x))
        }))
        .chain(pack.outcomes.iter().filter_map(|o| {
            o.ruling
                .as_ref()
                .map(|r| (format!("outcomes.{}.ruling", o.id), r))
        }))
        .chain(pack.titles.iter().filter_map(|t| {
            t.ruling
                .as_ref()
                .map(|r| (format!("titles.{}.ruling", t.id), r))
        }))
        .chain(pack.record.iter().flat_map(|record| {
            record.upkeep.iter().filter_map(|u| {
                u.ruling
                    .as_ref()
                    .map(|r| (format!("record.upkeep.{}", u.id), r))
            })
        }));
    for (entry, ruling) in named_rulings {
        if pack.ruling(ruling).is_none() {
            return err(entry, format!("ruling `{ruling}` is not in [[rulings]]"));
        }
    }
    Ok(())
}
