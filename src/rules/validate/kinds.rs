//! The shapes of long campaign games (`kinds.rs`): a rating that sums what
//! is there, and every number a rule reads named in a way the app reads.

use crate::rules::{Measure, Pack, PackError};

/// Checks every kind of campaign shape the pack uses.
pub(super) fn validate_kinds(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    if let Err((entry, reason)) = check_rating(pack) {
        return err(entry, reason);
    }
    Ok(())
}

type Found = Result<(), (String, String)>;

/// The rating: a label, counters that exist, a ruling that is there.
fn check_rating(pack: &Pack) -> Found {
    let Some(rating) = &pack.rating else {
        return Ok(());
    };
    if rating.label.trim().is_empty() {
        return Err((
            "rating.label".into(),
            "missing: what the rating is called".into(),
        ));
    }
    for (i, c) in rating.counters.iter().enumerate() {
        if pack.counter(&c.counter).is_none() {
            return Err((
                format!("rating.counters[{i}].counter"),
                format!("counter `{}` is not in [[counters]]", c.counter),
            ));
        }
    }
    ruling_known(pack, "rating.ruling", rating.ruling.as_deref())
}

/// A ruling a kind names is in `[[rulings]]`.
fn ruling_known(pack: &Pack, entry: &str, ruling: Option<&str>) -> Found {
    match ruling {
        Some(id) if pack.ruling(id).is_none() => Err((
            entry.to_owned(),
            format!("ruling `{id}` is not in [[rulings]]"),
        )),
        _ => Ok(()),
    }
}

/// A number a rule reads, as written, naming what the pack has: the
/// rating, a resource, a counted roll of the record.
#[allow(dead_code)]
fn measure_known(pack: &Pack, entry: &str, text: &str) -> Found {
    let measure = Measure::parse(text).map_err(|e| (entry.to_owned(), e))?;
    let missing = match &measure {
        Measure::Rating if pack.rating.is_none() => Some("the pack has no [rating]".to_owned()),
        Measure::Resource(id) if pack.resource(id).is_none() => {
            Some(format!("resource `{id}` is not in [[resources]]"))
        }
        Measure::Count(id)
            if !pack
                .scenarios
                .iter()
                .any(|s| s.counts.iter().any(|c| c.id == *id)) =>
        {
            Some(format!("no scenario has a count `{id}`"))
        }
        _ => None,
    };
    match missing {
        Some(reason) => Err((entry.to_owned(), reason)),
        None => Ok(()),
    }
}
