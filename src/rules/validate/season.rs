//! The season's kinds (`season.rs`): holdings, cycles, shapes of record
//! with places and a stake, standings and factions — each naming what the
//! pack has, said in the pack's words — and every reward that names "the
//! other side" saying which one where a record may have more than two.

use std::collections::BTreeSet;

use crate::rules::{
    AwardFor, ByCost, ChallengeStake, CycleEnds, CycleStepKind, Decline, Effect, Finish, Members,
    Pack, PackError, PairingMethod, PlacedSide, Ranked, Reward, ShapeResult, StakeFrom,
    StandingMeasure, TitleCount, Unanswered, Unlock, Unplayed,
};

type Found = Result<(), (String, String)>;

/// The most sides a shape of record may have.
pub const MAX_SIDES: usize = 64;

/// Checks every season kind the pack uses.
pub(super) fn validate_season(file: &str, pack: &Pack) -> Result<(), PackError> {
    let checks: [fn(&Pack) -> Found; 11] = [
        check_words,
        check_holdings,
        check_cycles,
        check_shapes,
        check_standings,
        check_faction_titles,
        check_the_other_side,
        check_until,
        check_limits,
        check_challenges,
        check_pairings,
    ];
    for check in checks {
        if let Err((entry, reason)) = check(pack) {
            return Err(PackError::new(file, entry, reason));
        }
    }
    Ok(())
}

fn err(entry: impl Into<String>, reason: impl Into<String>) -> Found {
    Err((entry.into(), reason.into()))
}

/// A ruling a kind names is in `[[rulings]]`.
fn ruling_known(pack: &Pack, entry: &str, ruling: Option<&str>) -> Found {
    match ruling {
        Some(id) if pack.ruling(id).is_none() => {
            err(entry, format!("ruling `{id}` is not in [[rulings]]"))
        }
        _ => Ok(()),
    }
}

/// Ids of a list: each well formed, none twice.
fn ids_unique<'a>(section: &str, ids: impl Iterator<Item = &'a str>) -> Found {
    let mut seen = BTreeSet::new();
    for id in ids {
        let entry = format!("{section}.{}", crate::text::echo(id));
        let well_formed = !id.is_empty()
            && id.len() <= crate::text::MAX_NAME
            && id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !well_formed {
            return err(
                entry,
                format!(
                    "id `{}` must be lower-case letters, digits, `-` or `_`",
                    crate::text::echo(id)
                ),
            );
        }
        if !seen.insert(id) {
            return err(entry, "this id appears twice");
        }
    }
    Ok(())
}

/// A name or label a kind gives itself is a name as a player's are.
fn is_name(entry: &str, name: &str) -> Found {
    if name.trim().is_empty() {
        return err(entry, "missing: what it is called");
    }
    crate::text::name("A name", name)
        .map(drop)
        .map_err(|e| (entry.to_owned(), e.to_string()))
}

/// The game's words for what it has: a holding, a cycle, a faction.
fn check_words(pack: &Pack) -> Found {
    let uses = [
        (
            !pack.holdings.is_empty(),
            "[[holdings]]",
            ["holding", "holdings"],
        ),
        (pack.cycles.is_some(), "[cycles]", ["cycle", "cycles"]),
        (
            !pack.factions.is_empty(),
            "[[factions]]",
            ["faction", "factions"],
        ),
    ];
    let words = pack.words.season_fields();
    for (used, section, fields) in uses {
        if !used {
            continue;
        }
        for field in fields {
            let word = words.iter().find(|(f, _)| *f == field).map(|(_, w)| *w);
            if word.is_none_or(|w| w.trim().is_empty()) {
                return err(
                    format!("words.{field}"),
                    format!("missing: what the game calls it, which {section} needs"),
                );
            }
        }
    }
    Ok(())
}

/// A reward: a resource to the side or a counter to its members, each of
/// the pack's, a counter's `to` and `who` as an award's.
fn check_reward(pack: &Pack, entry: &str, reward: &Reward) -> Found {
    match (&reward.resource, &reward.counter) {
        (Some(r), None) => {
            if pack.resource(r).is_none() {
                return err(
                    format!("{entry}.resource"),
                    format!("resource `{r}` is not in [[resources]]"),
                );
            }
            if reward.to.is_some() || reward.who.is_some() {
                return err(
                    entry,
                    "`to` and `who` say which members gain a counter, not a resource",
                );
            }
            Ok(())
        }
        (None, Some(c)) => {
            if pack.counter(c).is_none() {
                return err(
                    format!("{entry}.counter"),
                    format!("counter `{c}` is not in [[counters]]"),
                );
            }
            if let Some(to) = &reward.to {
                AwardFor::parse(to).map_err(|e| (format!("{entry}.to"), e))?;
            }
            members_known(pack, &format!("{entry}.who"), reward.who.as_deref())
        }
        _ => err(
            entry,
            "a reward gives a `resource` or a `counter`, one of the two",
        ),
    }
}

/// Which members a rule is for, naming entries and groups the pack has.
fn members_known(pack: &Pack, entry: &str, who: Option<&str>) -> Found {
    let Some(who) = who else {
        return Ok(());
    };
    match Members::parse(who).map_err(|e| (entry.to_owned(), e))? {
        Members::Entry(id) if pack.quirk(&id).is_none() => {
            err(entry, format!("entry `{id}` is not in [[quirks]]"))
        }
        Members::Group(id) if !pack.groups.iter().any(|g| g.id == id) => {
            err(entry, format!("group `{id}` is not in [[groups]]"))
        }
        _ => Ok(()),
    }
}

fn check_rewards(pack: &Pack, entry: &str, rewards: &[Reward]) -> Found {
    for (i, r) in rewards.iter().enumerate() {
        check_reward(pack, &format!("{entry}[{i}]"), r)?;
    }
    Ok(())
}

/// Holdings: named, their income, rolls, modifiers and what they unlock
/// all the pack's.
fn check_holdings(pack: &Pack) -> Found {
    ids_unique("holdings", pack.holdings.iter().map(|h| h.id.as_str()))?;
    for h in &pack.holdings {
        let entry = format!("holdings.{}", h.id);
        is_name(&format!("{entry}.name"), &h.name)?;
        check_rewards(pack, &format!("{entry}.income"), &h.income)?;
        check_rewards(pack, &format!("{entry}.per_record"), &h.per_record)?;
        if let Some(id) = &h.income_roll {
            let Some(table) = pack.table(id) else {
                return err(
                    format!("{entry}.income_roll"),
                    format!("table `{id}` is not in [[tables]]"),
                );
            };
            let gives_other = table
                .rows
                .iter()
                .flat_map(|r| &r.effects)
                .any(|e| !matches!(e, Effect::Resource { .. } | Effect::Note { .. }));
            if gives_other {
                return err(
                    format!("{entry}.income_roll"),
                    format!(
                        "{} gives what a member gains; a holding's roll gives its holder resources only",
                        table.name
                    ),
                );
            }
        }
        if (!h.income.is_empty() || h.income_roll.is_some())
            && !pack
                .cycles
                .as_ref()
                .is_some_and(|c| c.end.iter().any(|s| s.kind == CycleStepKind::Income))
        {
            return err(
                format!("{entry}.income"),
                "income is paid at a cycle's end, and [cycles] has no `income` step",
            );
        }
        for (i, m) in h.modifiers.iter().enumerate() {
            if pack.table(&m.table).is_none() {
                return err(
                    format!("{entry}.modifiers[{i}].table"),
                    format!("table `{}` is not in [[tables]]", m.table),
                );
            }
        }
        for (i, u) in h.unlocks.iter().enumerate() {
            let field = format!("{entry}.unlocks[{i}]");
            match Unlock::parse(u).map_err(|e| (field.clone(), e))? {
                Unlock::Entry(id) if pack.quirk(&id).is_none() => {
                    return err(field, format!("entry `{id}` is not in [[quirks]]"));
                }
                Unlock::Group(id) if !pack.groups.iter().any(|g| g.id == id) => {
                    return err(field, format!("group `{id}` is not in [[groups]]"));
                }
                _ => {}
            }
        }
        ruling_known(pack, &format!("{entry}.ruling"), h.ruling.as_deref())?;
    }
    Ok(())
}

/// Cycles: a limit where the records end them, each step with what its
/// kind needs and nothing else.
fn check_cycles(pack: &Pack) -> Found {
    let Some(cycles) = &pack.cycles else {
        return Ok(());
    };
    if cycles.limit == Some(0) {
        return err("cycles.limit", "a gang plays at least 1 record in a cycle");
    }
    if cycles.ends == CycleEnds::Played && cycles.limit.is_none() {
        return err(
            "cycles.limit",
            "missing: a cycle that ends when every gang has played its share needs the share",
        );
    }
    ids_unique("cycles.end", cycles.end.iter().map(|s| s.id.as_str()))?;
    for step in &cycles.end {
        let entry = format!("cycles.end.{}", step.id);
        let has = |field: &str| match field {
            "resource" => step.resource.is_some(),
            "amount" => step.amount.is_some(),
            "floor" => step.floor.is_some(),
            _ => !step.rewards.is_empty(),
        };
        let needs: &[&str] = match step.kind {
            CycleStepKind::Decay => &["resource", "amount"],
            CycleStepKind::Gain => &["rewards"],
            _ => &[],
        };
        let may: &[&str] = match step.kind {
            CycleStepKind::Decay => &["resource", "amount", "floor"],
            CycleStepKind::Gain => &["rewards"],
            _ => &[],
        };
        if let Some(missing) = needs.iter().find(|f| !has(f)) {
            return err(format!("{entry}.{missing}"), "missing: its kind needs it");
        }
        if let Some(extra) = ["resource", "amount", "floor", "rewards"]
            .into_iter()
            .find(|f| has(f) && !may.contains(f))
        {
            return err(
                format!("{entry}.{extra}"),
                format!("a step of kind `{:?}` does not use it", step.kind).to_lowercase(),
            );
        }
        if let Some(r) = &step.resource
            && pack.resource(r).is_none()
        {
            return err(
                format!("{entry}.resource"),
                format!("resource `{r}` is not in [[resources]]"),
            );
        }
        check_rewards(pack, &format!("{entry}.rewards"), &step.rewards)?;
        ruling_known(pack, &format!("{entry}.ruling"), step.ruling.as_deref())?;
    }
    ruling_known(pack, "cycles.ruling", cycles.ruling.as_deref())
}

/// Shapes of record: sides of two or more, a challenge of two, a stake
/// only where there are holdings, finishes a record of the shape can
/// have.
fn check_shapes(pack: &Pack) -> Found {
    let Some(record) = &pack.record else {
        return Ok(());
    };
    ids_unique("record.shapes", record.shapes.iter().map(|s| s.id.as_str()))?;
    for shape in &record.shapes {
        let entry = format!("record.shapes.{}", shape.id);
        is_name(&format!("{entry}.label"), &shape.label)?;
        let (min, max) = (shape.sides.min(), shape.sides.max());
        if min < 2 {
            return err(format!("{entry}.sides"), "a shape has 2 sides or more");
        }
        match max {
            None => {
                return err(
                    format!("{entry}.sides"),
                    format!("give the most sides (at most {MAX_SIDES})"),
                );
            }
            Some(m) if m > MAX_SIDES || m < min => {
                return err(
                    format!("{entry}.sides"),
                    format!("at least 2 and at most {MAX_SIDES} sides, the fewest first"),
                );
            }
            _ => {}
        }
        let challenge = shape.result == ShapeResult::Challenge;
        if challenge && (min, max) != (2, Some(2)) {
            return err(format!("{entry}.sides"), "a challenge has 2 sides");
        }
        if shape.stake == Some(crate::rules::StakeRule::Challenger) && !challenge {
            return err(
                format!("{entry}.stake"),
                "only a challenge has a challenger to take the stake",
            );
        }
        if shape.stake.is_some() && pack.holdings.is_empty() {
            return err(
                format!("{entry}.stake"),
                "the pack has no [[holdings]] to stake",
            );
        }
        if !shape.stake_from.is_empty() && shape.stake.is_none() {
            return err(format!("{entry}.stake_from"), "the shape has no `stake`");
        }
        if shape.stake_from.contains(&StakeFrom::Defender) && !challenge {
            return err(
                format!("{entry}.stake_from"),
                "only a challenge has a defender",
            );
        }
        for (i, row) in shape.places.iter().enumerate() {
            let at = format!("{entry}.places[{i}]");
            let finish = Finish::parse(&row.finish).map_err(|e| (format!("{at}.finish"), e))?;
            match finish {
                Finish::Draw if !shape.draws => {
                    return err(
                        format!("{at}.finish"),
                        format!("a {} has no draws (`draws = true`)", shape.label),
                    );
                }
                Finish::Place(n) if usize::try_from(n).is_ok_and(|n| n > max.unwrap_or(0)) => {
                    return err(
                        format!("{at}.finish"),
                        format!("a {} has at most {} sides", shape.label, max.unwrap_or(0)),
                    );
                }
                _ => {}
            }
            if row.side.is_some() && !challenge {
                return err(
                    format!("{at}.side"),
                    "only a challenge has a challenger and a defender",
                );
            }
            check_rewards(pack, &format!("{at}.rewards"), &row.rewards)?;
        }
        ruling_known(pack, &format!("{entry}.ruling"), shape.ruling.as_deref())?;
    }
    Ok(())
}

/// The standings: measures the pack has, head-to-head once.
fn check_standings(pack: &Pack) -> Found {
    let Some(def) = &pack.standings else {
        return Ok(());
    };
    is_name("standings.label", &def.label)?;
    if def.by.is_empty() {
        return err("standings.by", "missing: what ranks the gangs");
    }
    let mut head_to_head = 0;
    for (i, by) in def.by.iter().enumerate() {
        let entry = format!("standings.by[{i}]");
        let ranked = Ranked::parse(by).map_err(|e| (entry.clone(), e))?;
        match ranked.measure {
            StandingMeasure::Resource(id) if pack.resource(&id).is_none() => {
                return err(entry, format!("resource `{id}` is not in [[resources]]"));
            }
            StandingMeasure::Counter(id) if pack.counter(&id).is_none() => {
                return err(entry, format!("counter `{id}` is not in [[counters]]"));
            }
            StandingMeasure::Holdings if pack.holdings.is_empty() => {
                return err(entry, "the pack has no [[holdings]]");
            }
            StandingMeasure::HeadToHead => head_to_head += 1,
            _ => {}
        }
    }
    if head_to_head > 1 {
        return err("standings.by", "`head_to_head` is given twice");
    }
    ruling_known(pack, "standings.ruling", def.ruling.as_deref())
}

/// Factions and the titles they hold; titles of holdings and of the
/// standings, where the pack has them.
fn check_faction_titles(pack: &Pack) -> Found {
    ids_unique("factions", pack.factions.iter().map(|f| f.id.as_str()))?;
    for f in &pack.factions {
        is_name(&format!("factions.{}.name", f.id), &f.name)?;
    }
    for t in &pack.titles {
        let entry = format!("titles.{}", t.id);
        if !t.holder.is_gang() && pack.factions.is_empty() {
            return err(format!("{entry}.holder"), "the pack has no [[factions]]");
        }
        match t.count.as_deref().map(TitleCount::parse) {
            Some(Ok(TitleCount::Holdings)) if pack.holdings.is_empty() => {
                return err(format!("{entry}.count"), "the pack has no [[holdings]]");
            }
            Some(Ok(TitleCount::Standings)) if pack.standings.is_none() => {
                return err(format!("{entry}.count"), "the pack has no [standings]");
            }
            Some(Ok(TitleCount::Standings)) if !t.holder.is_gang() => {
                return err(
                    format!("{entry}.count"),
                    "a place in the standings is a gang's, not a faction's",
                );
            }
            _ => {}
        }
    }
    Ok(())
}

/// Where a record may have more than two sides, a line that names "the
/// other side" (`loser`, `from_rival`, a difference's side) says which
/// one it means; a place is named only where records are placed.
fn check_the_other_side(pack: &Pack) -> Found {
    let Some(record) = &pack.record else {
        return Ok(());
    };
    let many = record.most_sides() > 2;
    let placed = !record.shapes.is_empty();
    let lines = pack
        .scenarios
        .iter()
        .flat_map(|s| {
            s.epilogue
                .iter()
                .map(move |l| (format!("scenarios.{}.epilogue.{}", s.id, l.id), l))
        })
        .chain(
            record
                .epilogue
                .iter()
                .map(|l| (format!("record.epilogue.{}", l.id), l)),
        );
    for (entry, line) in lines {
        if many && line.to == "loser" {
            return err(
                format!("{entry}.to"),
                format!(
                    "`loser` is the other side of two, and a record of {} may have {} sides: say `last` or `place:<n>`",
                    pack.pack.name,
                    record.most_sides()
                ),
            );
        }
        if PlacedSide::parse(&line.to).is_some() && !placed {
            return err(
                format!("{entry}.to"),
                "a place is named only where records are placed ([[record.shapes]])",
            );
        }
        if many && (line.from_rival || line.from.as_deref() == Some("rival")) {
            return err(
                format!("{entry}.from_rival"),
                format!(
                    "the rival is the other side of two, and a record of {} may have {} sides: say `from = \"last\"` or `from = \"place:<n>\"`",
                    pack.pack.name,
                    record.most_sides()
                ),
            );
        }
        match line.from.as_deref() {
            None | Some("rival") => {}
            Some(from) if PlacedSide::parse(from).is_none() => {
                return err(
                    format!("{entry}.from"),
                    format!("`{from}`: expected rival, last or place:<n>"),
                );
            }
            Some(_) if !placed => {
                return err(
                    format!("{entry}.from"),
                    "a place is named only where records are placed ([[record.shapes]])",
                );
            }
            Some(_) if line.from_rival => {
                return err(format!("{entry}.from"), "`from_rival` says it already");
            }
            Some(_) => {}
        }
    }
    for d in &record.differences {
        if many && d.against.is_none() {
            return err(
                format!("record.differences.{}.against", d.id),
                format!(
                    "missing: a record of {} may have {} sides; say which the difference is to: `farthest` or `nearest`",
                    pack.pack.name,
                    record.most_sides()
                ),
            );
        }
    }
    Ok(())
}

/// What lasts until the cycle ends needs cycles.
fn check_until(pack: &Pack) -> Found {
    if pack.cycles.is_some() {
        return Ok(());
    }
    let refuse = |entry: String| {
        err(
            entry,
            "lasts until the cycle ends, and the pack has no [cycles]",
        )
    };
    for t in &pack.tables {
        for (i, row) in t.rows.iter().enumerate() {
            let laid_up = row
                .effects
                .iter()
                .any(|e| matches!(e, Effect::LaidUp { .. }));
            if row.until.is_some() || laid_up {
                return refuse(format!("tables.{}.rows[{i}]", t.id));
            }
        }
    }
    for o in &pack.outcomes {
        let laid_up = o.effects.iter().any(|e| matches!(e, Effect::LaidUp { .. }));
        if o.until.is_some() || laid_up {
            return refuse(format!("outcomes.{}", o.id));
        }
    }
    Ok(())
}

/// The campaign shapes' limits as options: a price by what hiring cost,
/// entries only some groups may take.
fn check_limits(pack: &Pack) -> Found {
    let prices = pack.captives.iter().flat_map(|c| {
        c.ransom
            .iter()
            .map(|p| ("captives.ransom", p))
            .chain(c.sell.iter().map(|s| ("captives.sell", &s.price)))
    });
    for (entry, price) in prices {
        if let Some(by) = &price.by_cost {
            match ByCost::parse(by).map_err(|e| (format!("{entry}.by_cost"), e))? {
                ByCost::Entry(category) if pack.category(&category).is_none() => {
                    return err(
                        format!("{entry}.by_cost"),
                        format!("category `{category}` is not in [[categories]]"),
                    );
                }
                ByCost::Group if pack.groups.is_empty() => {
                    return err(format!("{entry}.by_cost"), "the pack has no [[groups]]");
                }
                _ => {}
            }
            if price.fixed.is_some() || price.between.is_some() {
                return err(
                    format!("{entry}.by_cost"),
                    "a price is fixed, between two amounts, or by worth or cost: one of them",
                );
            }
        } else if price.percent.is_some() {
            return err(
                format!("{entry}.percent"),
                "a share is of `by_cost`, which is missing",
            );
        }
        if let Some(p) = price.percent
            && !(0..=1000).contains(&p)
        {
            return err(
                format!("{entry}.percent"),
                format!("{p}%: a share is 0 to 1000%"),
            );
        }
    }
    for q in &pack.quirks {
        for g in &q.groups {
            if !pack.groups.iter().any(|d| d.id == *g) {
                return err(
                    format!("quirks.{}.groups", q.id),
                    format!("group `{g}` is not in [[groups]]"),
                );
            }
        }
    }
    Ok(())
}

/// Challenges: played as a challenge shape of the pack's, at stake only
/// what that shape can stake, a decline or a lapse that gives the stake
/// only where there is one, and cycles for them to lapse at.
fn check_challenges(pack: &Pack) -> Found {
    let Some(rules) = &pack.challenges else {
        return Ok(());
    };
    is_name("challenges.label", &rules.label)?;
    if pack.cycles.is_none() {
        return err(
            "challenges",
            "a challenge lapses at a cycle's end, and the pack has no [cycles]",
        );
    }
    let shapes = pack
        .record
        .as_ref()
        .map(|r| r.shapes.as_slice())
        .unwrap_or_default();
    let Some(shape) = shapes.iter().find(|s| s.id == rules.shape) else {
        return err(
            "challenges.shape",
            format!(
                "shape `{}` is not in [[record.shapes]]",
                crate::text::echo(&rules.shape)
            ),
        );
    };
    if shape.result != ShapeResult::Challenge {
        return err(
            "challenges.shape",
            format!(
                "a {} is placed first to last: a challenge is played as a shape whose `result` is `challenge`",
                shape.label
            ),
        );
    }
    if rules.stake.is_some_and(|s| s != ChallengeStake::None) && shape.stake.is_none() {
        return err(
            "challenges.stake",
            format!("a {} has no `stake`", shape.label),
        );
    }
    let staked = rules.stake_rule(Some(shape)) != ChallengeStake::None;
    if rules.decline == Decline::StakeToChallenger && !staked {
        return err(
            "challenges.decline",
            "nothing is at stake in a challenge to give the challenger",
        );
    }
    if rules.unplayed == Unplayed::StakeToChallenger && !staked {
        return err(
            "challenges.unplayed",
            "nothing is at stake in a challenge to give the challenger",
        );
    }
    if rules.unanswered == Unanswered::Declined && rules.decline == Decline::OnceACycle {
        // Counted as declined at the cycle's end, it gives nothing; a
        // pack that means that says `lapses`.
        return err(
            "challenges.unanswered",
            "a decline gives nothing here (`once_a_cycle`): say `lapses`",
        );
    }
    if rules.per_cycle == Some(0) {
        return err(
            "challenges.per_cycle",
            "a gang issues at least 1 challenge in a cycle (leave it out for any)",
        );
    }
    ruling_known(pack, "challenges.ruling", rules.ruling.as_deref())
}

/// Pairings: made a cycle at a time, in ways named once, by the
/// standings only where the pack has them.
fn check_pairings(pack: &Pack) -> Found {
    let Some(rules) = &pack.pairings else {
        return Ok(());
    };
    is_name("pairings.label", &rules.label)?;
    if pack.cycles.is_none() {
        return err(
            "pairings",
            "pairings are made once a cycle, and the pack has no [cycles]",
        );
    }
    if rules.by.is_empty() {
        return err("pairings.by", "missing: how the pairings are made");
    }
    for (i, method) in rules.by.iter().enumerate() {
        let entry = format!("pairings.by[{i}]");
        if rules.by[..i].contains(method) {
            return err(entry, format!("`{}` is given twice", method.word()));
        }
        if *method == PairingMethod::Standings && pack.standings.is_none() {
            return err(entry, "the pack has no [standings]");
        }
    }
    ruling_known(pack, "pairings.ruling", rules.ruling.as_deref())
}
