//! The shapes of long campaign games (`kinds.rs`): a rating that sums what
//! is there, awards and thresholds of counters that exist, members named
//! as the app reads them, and every number a rule reads named in a way
//! the app reads.

use crate::rules::{AwardDef, AwardFor, Measure, Members, Pack, PackError, RowRange};

/// Checks every kind of campaign shape the pack uses.
pub(super) fn validate_kinds(file: &str, pack: &Pack) -> Result<(), PackError> {
    let err = |entry: String, reason: String| Err(PackError::new(file, entry, reason));
    let checks: [fn(&Pack) -> Found; 10] = [
        check_groups,
        check_rating,
        check_awards,
        check_thresholds,
        check_differences,
        check_counted,
        check_grids,
        check_lookups,
        check_captives,
        check_succession,
    ];
    for check in checks {
        if let Err((entry, reason)) = check(pack) {
            return err(entry, reason);
        }
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
fn measure_known(pack: &Pack, entry: &str, text: &str) -> Found {
    let measure = Measure::parse(text).map_err(|e| (entry.to_owned(), e))?;
    let missing = match &measure {
        Measure::Rating if pack.rating.is_none() => Some("the pack has no [rating]".to_owned()),
        Measure::Resource(id) if pack.resource(id).is_none() => {
            Some(format!("resource `{id}` is not in [[resources]]"))
        }
        Measure::Found(id) if !pack.record().counted.iter().any(|c| c.id == *id) => {
            Some(format!("`{id}` is not in [[record.counted]]"))
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

/// Which members a rule is for, naming entries the pack has.
fn members_known(pack: &Pack, entry: &str, who: Option<&str>) -> Found {
    let Some(who) = who else {
        return Ok(());
    };
    match Members::parse(who).map_err(|e| (entry.to_owned(), e))? {
        Members::Entry(id) if pack.quirk(&id).is_none() => Err((
            entry.to_owned(),
            format!("entry `{id}` is not in [[quirks]]"),
        )),
        Members::Group(id) if !pack.groups.iter().any(|g| g.id == id) => Err((
            entry.to_owned(),
            format!("group `{id}` is not in [[groups]]"),
        )),
        Members::AnyGroup if pack.groups.is_empty() => {
            Err((entry.to_owned(), "the pack has no [[groups]]".into()))
        }
        _ => Ok(()),
    }
}

/// The record's awards: each of a counter, for something a record tells,
/// of members the pack has.
fn check_awards(pack: &Pack) -> Found {
    let Some(record) = &pack.record else {
        return Ok(());
    };
    let mut ids = std::collections::BTreeSet::new();
    for award in &record.awards {
        let entry = format!("record.awards.{}", award.id);
        if !ids.insert(award.id.as_str()) {
            return Err((entry, "the id is used twice".into()));
        }
        check_award(pack, &entry, award)?;
        ruling_known(pack, &format!("{entry}.ruling"), award.ruling.as_deref())?;
    }
    Ok(())
}

/// Each counter's thresholds: rising points within the counter, a table
/// that exists, members the pack has.
fn check_thresholds(pack: &Pack) -> Found {
    for counter in &pack.counters {
        for (i, list) in counter.thresholds.iter().enumerate() {
            let entry = format!("counters.{}.thresholds[{i}]", counter.id);
            if list.at.is_empty() {
                return Err((format!("{entry}.at"), "no points are given".into()));
            }
            if list.at.len() > super::MAX_TABLE_ROWS {
                return Err((
                    format!("{entry}.at"),
                    format!(
                        "{} points; a list has at most {}",
                        list.at.len(),
                        super::MAX_TABLE_ROWS
                    ),
                ));
            }
            if let Some(pair) = list.at.windows(2).find(|w| w[0] >= w[1]) {
                return Err((
                    format!("{entry}.at"),
                    format!("{} comes after {}: the points rise", pair[1], pair[0]),
                ));
            }
            if let Some(out) = list.at.iter().find(|n| !counter.range().contains(n)) {
                return Err((
                    format!("{entry}.at"),
                    format!("{out} is outside what {} holds", counter.label),
                ));
            }
            let Some(table) = pack.table(&list.table) else {
                return Err((
                    format!("{entry}.table"),
                    format!("table `{}` is not in [[tables]]", list.table),
                ));
            };
            if list.pick && table.rows.is_empty() && table.fill_in.is_none() {
                return Err((
                    format!("{entry}.pick"),
                    format!("{} has no rows to pick from", table.name),
                ));
            }
            members_known(pack, &format!("{entry}.who"), list.who.as_deref())?;
        }
    }
    Ok(())
}

/// Rows of a range each (`0-49`, `300+`) that do not overlap, at most a
/// table's worth.
fn ranges_apart<'a>(entry: &str, ons: impl Iterator<Item = &'a str>) -> Found {
    let ons: Vec<&str> = ons.collect();
    if ons.len() > super::MAX_TABLE_ROWS {
        return Err((
            entry.to_owned(),
            format!("{} rows; at most {}", ons.len(), super::MAX_TABLE_ROWS),
        ));
    }
    let mut ranges: Vec<(RowRange, &str)> = Vec::new();
    for on in ons {
        let range = RowRange::parse(on).map_err(|e| (entry.to_owned(), e))?;
        if let Some((_, other)) = ranges.iter().find(|(r, _)| r.overlaps(&range)) {
            return Err((
                entry.to_owned(),
                format!("rows `{other}` and `{on}` overlap"),
            ));
        }
        ranges.push((range, on));
    }
    Ok(())
}

/// The record's differences: a measure known before the record, one thing
/// given, rows apart.
fn check_differences(pack: &Pack) -> Found {
    let Some(record) = &pack.record else {
        return Ok(());
    };
    let mut ids = std::collections::BTreeSet::new();
    for d in &record.differences {
        let entry = format!("record.differences.{}", d.id);
        if !ids.insert(d.id.as_str()) {
            return Err((entry, "the id is used twice".into()));
        }
        if !matches!(
            Measure::parse(&d.measure),
            Ok(Measure::Rating | Measure::Resource(_))
        ) {
            return Err((
                format!("{entry}.measure"),
                "a difference is measured before the record: rating or resource:<id>".into(),
            ));
        }
        measure_known(pack, &format!("{entry}.measure"), &d.measure)?;
        match (&d.counter, &d.resource) {
            (Some(counter), None) => {
                let Some(to) = &d.to else {
                    return Err((
                        format!("{entry}.to"),
                        "points of a counter need `to`: which members gain them".into(),
                    ));
                };
                check_awarded(pack, &entry, counter, to, d.who.as_deref())?;
            }
            (None, Some(resource)) => {
                if pack.resource(resource).is_none() {
                    return Err((
                        format!("{entry}.resource"),
                        format!("resource `{resource}` is not in [[resources]]"),
                    ));
                }
                if d.to.is_some() || d.who.is_some() {
                    return Err((
                        entry,
                        "a resource goes to the side: `to` and `who` are for a counter".into(),
                    ));
                }
            }
            _ => {
                return Err((
                    entry,
                    "give a `counter` (with `to`) or a `resource`, one of them".into(),
                ));
            }
        }
        if d.rows.is_empty() {
            return Err((
                format!("{entry}.rows"),
                "no rows: a difference gives what the row it lands on gives".into(),
            ));
        }
        ranges_apart(
            &format!("{entry}.rows"),
            d.rows.iter().map(|r| r.on.as_str()),
        )?;
        ruling_known(pack, &format!("{entry}.ruling"), d.ruling.as_deref())?;
    }
    Ok(())
}

/// One award: a counter that exists, for what a record tells, of members
/// the pack has.
fn check_award(pack: &Pack, entry: &str, award: &AwardDef) -> Found {
    check_awarded(pack, entry, &award.counter, &award.to, award.who.as_deref())
}

/// Points of a counter, for what a record tells (`to`), to the members
/// `who` names: each the pack has.
fn check_awarded(pack: &Pack, entry: &str, counter: &str, to: &str, who: Option<&str>) -> Found {
    if pack.counter(counter).is_none() {
        return Err((
            format!("{entry}.counter"),
            format!("counter `{counter}` is not in [[counters]]"),
        ));
    }
    let what = AwardFor::parse(to).map_err(|e| (format!("{entry}.to"), e))?;
    if matches!(what, AwardFor::WinnersLeader)
        && pack.record().winner == crate::rules::WinnerRule::None
    {
        return Err((
            format!("{entry}.to"),
            "the pack's records name no winner".into(),
        ));
    }
    outcomes_known(pack, &format!("{entry}.to"), &what)?;
    members_known(pack, &format!("{entry}.who"), who)
}

/// The outcomes an award's `outcome:<id>` names, in the pack.
fn outcomes_known(pack: &Pack, entry: &str, what: &AwardFor) -> Found {
    match what {
        AwardFor::Outcome(ids) => match ids.iter().find(|id| pack.outcome(id).is_none()) {
            Some(id) => Err((
                entry.to_owned(),
                format!("outcome `{id}` is not in [[outcomes]]"),
            )),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// Amounts of resources the pack has.
fn gains_known(pack: &Pack, entry: &str, gain: &[crate::rules::Amount]) -> Found {
    match gain.iter().find(|a| pack.resource(&a.resource).is_none()) {
        Some(a) => Err((
            entry.to_owned(),
            format!("resource `{}` is not in [[resources]]", a.resource),
        )),
        None => Ok(()),
    }
}

/// The record's counted rolls: dice that roll, for members or a count the
/// record has, scored by faces the dice have and sets they can make.
fn check_counted(pack: &Pack) -> Found {
    let mut ids = std::collections::BTreeSet::new();
    for c in &pack.record().counted {
        let entry = format!("record.counted.{}", c.id);
        if !ids.insert(c.id.as_str()) {
            return Err((entry, "the id is used twice".into()));
        }
        let dice =
            crate::dice::parse(&c.dice).map_err(|e| (format!("{entry}.dice"), e.to_string()))?;
        if dice.modifier() != 0 {
            return Err((
                format!("{entry}.dice"),
                "dice counted are read one by one: no modifier".into(),
            ));
        }
        if let Some(count) = c.per.strip_prefix("count:") {
            measure_known(pack, &format!("{entry}.per"), &format!("count:{count}"))?;
        } else {
            let what = match AwardFor::parse(&c.per) {
                Ok(what @ (AwardFor::TookPart | AwardFor::Standing | AwardFor::Outcome(_))) => what,
                _ => {
                    return Err((
                        format!("{entry}.per"),
                        format!(
                            "`{}`: expected took_part, standing, outcome:<id> or count:<id>",
                            c.per
                        ),
                    ));
                }
            };
            outcomes_known(pack, &format!("{entry}.per"), &what)?;
            members_known(pack, &format!("{entry}.who"), c.who.as_deref())?;
        }
        if c.faces.is_empty() && c.sets.is_empty() {
            return Err((entry, "it scores nothing: give `faces` or `sets`".into()));
        }
        ranges_apart(
            &format!("{entry}.faces"),
            c.faces.iter().map(|f| f.on.as_str()),
        )?;
        for f in &c.faces {
            let range = RowRange::parse(&f.on).map_err(|e| (format!("{entry}.faces"), e))?;
            if !(1..=i64::from(dice.sides())).any(|v| range.contains(v)) {
                return Err((
                    format!("{entry}.faces `{}`", f.on),
                    format!("no face of a d{} is in it", dice.sides()),
                ));
            }
            gains_known(pack, &format!("{entry}.faces `{}`.gain", f.on), &f.gain)?;
        }
        let mut sizes = std::collections::BTreeSet::new();
        for set in &c.sets {
            let most = usize::try_from(crate::dice::Expr::MAX_COUNT).unwrap_or(usize::MAX);
            if !(2..=most).contains(&set.of) {
                return Err((
                    format!("{entry}.sets `{}`", set.name),
                    format!("a set is of 2 to {most} equal faces, not {}", set.of),
                ));
            }
            if !sizes.insert(set.of) {
                return Err((
                    format!("{entry}.sets `{}`", set.name),
                    format!("two sets are of {}", set.of),
                ));
            }
            gains_known(
                pack,
                &format!("{entry}.sets `{}`.gain", set.name),
                &set.gain,
            )?;
        }
        ruling_known(pack, &format!("{entry}.ruling"), c.ruling.as_deref())?;
    }
    Ok(())
}

/// Each grid: numbers it can read, ranges apart, a cell for every column.
fn check_grids(pack: &Pack) -> Found {
    let mut ids = std::collections::BTreeSet::new();
    for g in &pack.grids {
        let entry = format!("grids.{}", g.id);
        if !ids.insert(g.id.as_str()) {
            return Err((entry, "the id is used twice".into()));
        }
        measure_known(pack, &format!("{entry}.rows_by"), &g.rows_by)?;
        measure_known(pack, &format!("{entry}.columns_by"), &g.columns_by)?;
        if g.columns.is_empty() || g.rows.is_empty() {
            return Err((entry, "a grid needs columns and rows".into()));
        }
        ranges_apart(
            &format!("{entry}.columns"),
            g.columns.iter().map(String::as_str),
        )?;
        ranges_apart(
            &format!("{entry}.rows"),
            g.rows.iter().map(|r| r.on.as_str()),
        )?;
        if let Some(row) = g.rows.iter().find(|r| r.values.len() != g.columns.len()) {
            return Err((
                format!("{entry}.rows `{}`", row.on),
                format!(
                    "{} values for {} columns",
                    row.values.len(),
                    g.columns.len()
                ),
            ));
        }
        ruling_known(pack, &format!("{entry}.ruling"), g.ruling.as_deref())?;
    }
    Ok(())
}

/// The record's lookups: a grid and a resource the pack has.
fn check_lookups(pack: &Pack) -> Found {
    let mut ids = std::collections::BTreeSet::new();
    for l in &pack.record().lookups {
        let entry = format!("record.lookups.{}", l.id);
        if !ids.insert(l.id.as_str()) {
            return Err((entry, "the id is used twice".into()));
        }
        if !pack.grids.iter().any(|g| g.id == l.grid) {
            return Err((
                format!("{entry}.grid"),
                format!("grid `{}` is not in [[grids]]", l.grid),
            ));
        }
        if pack.resource(&l.resource).is_none() {
            return Err((
                format!("{entry}.resource"),
                format!("resource `{}` is not in [[resources]]", l.resource),
            ));
        }
        ruling_known(pack, &format!("{entry}.ruling"), l.ruling.as_deref())?;
    }
    Ok(())
}

/// A price: one way of saying it, positive amounts, ranges apart, a worth
/// the pack can tell.
fn check_price(pack: &Pack, entry: &str, price: &crate::rules::Price) -> Found {
    let ways = [
        price.fixed.is_some(),
        price.between.is_some(),
        !price.by_worth.is_empty() || price.by_cost.is_some(),
    ];
    if ways.iter().filter(|w| **w).count() != 1 {
        return Err((
            entry.to_owned(),
            "give one of `fixed`, `between`, `by_worth` or `by_cost`".into(),
        ));
    }
    let amounts: Vec<i64> = price
        .fixed
        .into_iter()
        .chain(price.between.into_iter().flatten())
        .chain(price.by_worth.iter().map(|r| r.amount))
        .collect();
    if let Some(n) = amounts.iter().find(|n| **n <= 0) {
        return Err((entry.to_owned(), format!("a price is more than 0, not {n}")));
    }
    if let Some([low, high]) = price.between
        && low > high
    {
        return Err((
            format!("{entry}.between"),
            format!("the range runs backwards ({low} to {high})"),
        ));
    }
    if !price.by_worth.is_empty() {
        if pack.valuation.is_none() && pack.rating.is_none() && price.by_cost.is_none() {
            return Err((
                format!("{entry}.by_worth"),
                "a captive's worth is their value or their rating: the pack has neither [valuation] nor [rating]".into(),
            ));
        }
        ranges_apart(
            &format!("{entry}.by_worth"),
            price.by_worth.iter().map(|r| r.on.as_str()),
        )?;
    }
    Ok(())
}

/// Captives: a resource the pack has, prices said one way each, what may
/// be done priced where it needs one.
fn check_captives(pack: &Pack) -> Found {
    let Some(captives) = &pack.captives else {
        return Ok(());
    };
    if pack.resource(&captives.resource).is_none() {
        return Err((
            "captives.resource".into(),
            format!("resource `{}` is not in [[resources]]", captives.resource),
        ));
    }
    if let Some(price) = &captives.ransom {
        check_price(pack, "captives.ransom", price)?;
    }
    if let Some(sale) = &captives.sell {
        check_price(pack, "captives.sell", &sale.price)?;
        if let Err(e) = crate::text::word(&sale.status) {
            return Err(("captives.sell.status".into(), e.to_string()));
        }
    }
    if captives.may.contains(&crate::rules::CaptiveAction::Sell) && captives.sell.is_none() {
        return Err((
            "captives.may".into(),
            "`sell` needs `[captives.sell]`: its price and what a sold captive becomes".into(),
        ));
    }
    ruling_known(pack, "captives.ruling", captives.ruling.as_deref())
}

/// A rank of counters and stats the pack has.
fn rank_known(pack: &Pack, entry: &str, text: &str) -> Found {
    match crate::rules::Rank::parse(text).map_err(|e| (entry.to_owned(), e))? {
        crate::rules::Rank::Counter(id) if pack.counter(&id).is_none() => Err((
            entry.to_owned(),
            format!("counter `{id}` is not in [[counters]]"),
        )),
        crate::rules::Rank::Stat(id) if pack.stat(&id).is_none() => {
            Err((entry.to_owned(), format!("stat `{id}` is not in [[stats]]")))
        }
        _ => Ok(()),
    }
}

/// Succession: ranks the pack has, ties that end in an order or a pick.
fn check_succession(pack: &Pack) -> Found {
    let Some(rule) = &pack.succession else {
        return Ok(());
    };
    rank_known(pack, "succession.by", &rule.by)?;
    for (i, tie) in rule.ties.iter().enumerate() {
        let entry = format!("succession.ties[{i}]");
        let last = i + 1 == rule.ties.len();
        match tie.as_str() {
            "first" | "pick" if last => {}
            "first" | "pick" => {
                return Err((entry, format!("`{tie}` settles every tie: it comes last")));
            }
            _ => rank_known(pack, &entry, tie)?,
        }
    }
    members_known(pack, "succession.who", rule.who.as_deref())?;
    ruling_known(pack, "succession.ruling", rule.ruling.as_deref())
}

/// Groups: a label, a size a group can have, at least one member.
fn check_groups(pack: &Pack) -> Found {
    let mut ids = std::collections::BTreeSet::new();
    for g in &pack.groups {
        let entry = format!("groups.{}", g.id);
        if !ids.insert(g.id.as_str()) {
            return Err((entry, "the id is used twice".into()));
        }
        if let Err(e) = crate::text::word(&g.label) {
            return Err((format!("{entry}.label"), e.to_string()));
        }
        if let Some(reason) = g.size.backwards() {
            return Err((format!("{entry}.size"), reason));
        }
        if g.size.max() == Some(0) {
            return Err((
                format!("{entry}.size"),
                "a group has a member at least".into(),
            ));
        }
        if let Some(reason) = g.per_gang.and_then(|p| p.backwards()) {
            return Err((format!("{entry}.per_gang"), reason));
        }
    }
    Ok(())
}
