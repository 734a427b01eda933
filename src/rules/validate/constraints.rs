//! The constraints' checks: a message, a ruling that exists, and the
//! quirks, tags, stats and valuation each kind of constraint names.

use std::collections::BTreeSet;

use crate::rules::{ConstraintDef, ConstraintKind, Pack, PackError};

/// What a constraint may name: the pack's quirks, and the tags on them.
struct Known<'a> {
    pack: &'a Pack,
    tags: BTreeSet<&'a str>,
}

impl Known<'_> {
    /// Refuses a quirk not in `[[quirks]]`.
    fn quirk(&self, quirk: &str) -> Result<(), String> {
        match self.pack.quirk(quirk) {
            Some(_) => Ok(()),
            None => Err(format!("quirk `{quirk}` is not in [[quirks]]")),
        }
    }

    /// Refuses a tag that is on no quirk.
    fn tag(&self, tag: &str) -> Result<(), String> {
        if self.tags.contains(tag) {
            Ok(())
        } else {
            Err(format!("tag `{tag}` is on no quirk"))
        }
    }
}

/// Checks each constraint: a message, a ruling that exists, and what its
/// kind names.
pub(super) fn validate_constraints(file: &str, pack: &Pack) -> Result<(), PackError> {
    let known = Known {
        pack,
        tags: pack
            .quirks
            .iter()
            .flat_map(|q| q.tags.iter().map(String::as_str))
            .collect(),
    };
    for constraint in &pack.constraints {
        let entry = format!("constraints.{}", constraint.id);
        if constraint.message.trim().is_empty() {
            return Err(PackError::new(file, entry, "a constraint needs a message"));
        }
        if let Some(ruling) = &constraint.ruling
            && pack.ruling(ruling).is_none()
        {
            return Err(PackError::new(
                file,
                entry,
                format!("ruling `{ruling}` is not in [[rulings]]"),
            ));
        }
        check_rule(&known, constraint).map_err(|reason| PackError::new(file, entry, reason))?;
    }
    Ok(())
}

/// Checks what a constraint's kind names, one kind a function.
fn check_rule(known: &Known<'_>, constraint: &ConstraintDef) -> Result<(), String> {
    match &constraint.rule {
        ConstraintKind::MaxTagged { tag, .. }
        | ConstraintKind::GangMaxTagged { tag, .. }
        | ConstraintKind::MinTagged { tag, .. } => known.tag(tag),
        ConstraintKind::ForbidsTagged { quirk, tag } => {
            known.quirk(quirk)?;
            known.tag(tag)
        }
        ConstraintKind::RequiresAny { quirk, any_of } => requires_any(known, quirk, any_of),
        ConstraintKind::GangCount { quirk, allowed } => {
            known.quirk(quirk)?;
            if allowed.is_empty() {
                return Err("allowed lists no count".into());
            }
            Ok(())
        }
        ConstraintKind::MaxSlots {
            quirk, tag, max, ..
        } => {
            known.quirk(quirk)?;
            known.tag(tag)?;
            if max.is_none() && constraint.ruling.is_none() {
                return Err(
                    "no `max` is no maximum: name the ruling that says so (`ruling`)".into(),
                );
            }
            Ok(())
        }
        ConstraintKind::StatRange {
            quirk,
            stat,
            min,
            max,
            unless_tagged,
        } => stat_range(known, quirk, stat, (*min, *max), unless_tagged.as_deref()),
        ConstraintKind::MaxScore { quirk, .. } => max_score(known, quirk),
        ConstraintKind::GangCountPerPoints { quirk, per, .. } => {
            count_per_points(known, quirk, *per)
        }
    }
}

/// Checks a `requires_any`: its quirk and the quirks it lists, at least one.
fn requires_any(known: &Known<'_>, quirk: &str, any_of: &[String]) -> Result<(), String> {
    std::iter::once(quirk)
        .chain(any_of.iter().map(String::as_str))
        .try_for_each(|q| known.quirk(q))?;
    if any_of.is_empty() {
        return Err("any_of lists no quirk".into());
    }
    Ok(())
}

/// Checks a `stat_range`: its quirk and stat, a range that runs upwards,
/// and the tag it spares.
fn stat_range(
    known: &Known<'_>,
    quirk: &str,
    stat: &str,
    range: (Option<i64>, Option<i64>),
    unless_tagged: Option<&str>,
) -> Result<(), String> {
    known.quirk(quirk)?;
    if known.pack.stat(stat).is_none() {
        return Err(format!("stat `{stat}` is not in [[stats]]"));
    }
    if let (Some(min), Some(max)) = range
        && min > max
    {
        return Err(format!("`min` {min} is above `max` {max}"));
    }
    if let Some(tag) = unless_tagged {
        known.tag(tag)?;
    }
    Ok(())
}

/// Checks a `max_score`: its quirk, and a pack that keeps a score.
fn max_score(known: &Known<'_>, quirk: &str) -> Result<(), String> {
    known.quirk(quirk)?;
    if known
        .pack
        .valuation
        .as_ref()
        .and_then(|v| v.score.as_ref())
        .is_none()
    {
        return Err("holds a score, but the pack has no [valuation.score]".into());
    }
    Ok(())
}

/// Checks a `gang_count_per_points`: its quirk, a step above 0, and a
/// pack that values its fighters.
fn count_per_points(known: &Known<'_>, quirk: &str, per: usize) -> Result<(), String> {
    known.quirk(quirk)?;
    if per == 0 {
        return Err("per 0 points counts nothing: it must be above 0".into());
    }
    if known.pack.valuation.is_none() {
        return Err("counts per points of value, but the pack has no [valuation]".into());
    }
    Ok(())
}
