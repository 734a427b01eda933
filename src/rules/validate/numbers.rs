//! Every number of a pack, gathered for the bounds check.

use crate::rules::{ConstraintKind, Effect, Pack, RowRange, count_as_number};

/// Every number of a pack, with the field it sits in.
pub(super) fn numbers(pack: &Pack) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = Vec::new();
    let mut put = |entry: String, n: i64| out.push((entry, n));
    stat_numbers(pack, &mut put);
    quirk_numbers(pack, &mut put);
    valuation_numbers(pack, &mut put);
    constraint_numbers(pack, &mut put);
    recruiting_numbers(pack, &mut put);
    table_numbers(pack, &mut put);
    scenario_numbers(pack, &mut put);
    record_numbers(pack, &mut put);
    reward_numbers(pack, &mut put);
    kind_numbers(pack, &mut put);
    season_numbers(pack, &mut put);
    out
}

/// The bounds and defaults of stats, resources and counters.
fn stat_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    for s in &pack.stats {
        s.default
            .into_iter()
            .for_each(|n| put(format!("stats.{}.default", s.id), n));
        s.min
            .into_iter()
            .for_each(|n| put(format!("stats.{}.min", s.id), n));
        s.max
            .into_iter()
            .for_each(|n| put(format!("stats.{}.max", s.id), n));
    }
    for r in &pack.resources {
        put(format!("resources.{}.start", r.id), r.start);
        r.min
            .into_iter()
            .for_each(|n| put(format!("resources.{}.min", r.id), n));
    }
    for c in &pack.counters {
        c.default
            .into_iter()
            .for_each(|n| put(format!("counters.{}.default", c.id), n));
        put(format!("counters.{}.min", c.id), c.min);
        c.max
            .into_iter()
            .for_each(|n| put(format!("counters.{}.max", c.id), n));
    }
}

/// The numbers of quirks: ranges, `punch`, effects and cost.
fn quirk_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    for q in &pack.quirks {
        for (stat, range) in &q.ranges {
            for n in range {
                put(format!("quirks.{}.ranges.{stat}", q.id), *n);
            }
        }
        q.punch
            .into_iter()
            .for_each(|n| put(format!("quirks.{}.punch", q.id), n));
        for (i, e) in q.effects.iter().enumerate() {
            put(format!("quirks.{}.effects[{i}].add", q.id), e.add);
            e.bump
                .into_iter()
                .for_each(|n| put(format!("quirks.{}.effects[{i}].bump", q.id), n));
        }
        q.cost
            .into_iter()
            .for_each(|n| put(format!("quirks.{}.cost", q.id), n));
    }
}

/// The numbers of the pricing of fighters.
fn valuation_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    if let Some(v) = &pack.valuation {
        put("valuation.per_stat_point".into(), v.per_stat_point);
        put("valuation.minimum".into(), v.minimum);
        v.limit
            .into_iter()
            .for_each(|n| put("valuation.limit".into(), n));
        if let Some(score) = &v.score {
            put("valuation.score.divide_by".into(), score.divide_by);
            put("valuation.score.minimum".into(), score.minimum);
        }
    }
}

/// The counts and bounds the constraints hold to.
fn constraint_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    for c in &pack.constraints {
        match &c.rule {
            ConstraintKind::MaxTagged { max, .. } | ConstraintKind::GangMaxTagged { max, .. } => {
                put(format!("constraints.{}.max", c.id), count_as_number(*max));
            }
            ConstraintKind::MinTagged { min, .. } => {
                put(format!("constraints.{}.min", c.id), count_as_number(*min));
            }
            ConstraintKind::MaxSlots { max: Some(max), .. } => {
                put(format!("constraints.{}.max", c.id), count_as_number(*max));
            }
            ConstraintKind::StatRange { min, max, .. } => {
                if let Some(min) = min {
                    put(format!("constraints.{}.min", c.id), *min);
                }
                if let Some(max) = max {
                    put(format!("constraints.{}.max", c.id), *max);
                }
            }
            ConstraintKind::MaxScore { max, .. } => {
                put(format!("constraints.{}.max", c.id), *max);
            }
            ConstraintKind::GangCountPerPoints { max, per, .. } => {
                put(format!("constraints.{}.max", c.id), count_as_number(*max));
                put(format!("constraints.{}.per", c.id), count_as_number(*per));
            }
            ConstraintKind::GangCount { allowed, .. } => {
                for (i, n) in allowed.iter().enumerate() {
                    put(
                        format!("constraints.{}.allowed[{i}]", c.id),
                        count_as_number(*n),
                    );
                }
            }
            _ => {}
        }
    }
}

/// The ranges and counts of recruiting.
fn recruiting_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    if let Some(r) = &pack.recruiting {
        for (field, range) in [
            ("leaders", Some(r.leaders)),
            ("recruits", Some(r.recruits)),
            ("quirks_per_fighter", r.quirks_per_fighter),
        ] {
            for (end, n) in range.iter().flat_map(|r| r.ends()) {
                put(format!("recruiting.{field}{end}"), count_as_number(n));
            }
        }
        put(
            "recruiting.leader_extra_quirks".into(),
            count_as_number(r.leader_extra_quirks),
        );
    }
}

/// The numbers of tables' modifiers, rows and effects, and of outcomes' effects.
fn table_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    for t in &pack.tables {
        for m in &t.modifiers {
            put(
                format!("tables.{}.modifiers.{}.amount", t.id, m.id),
                m.amount,
            );
        }
        for row in &t.rows {
            let entry = format!("tables.{} row `{}`", t.id, row.on);
            if let Ok(range) = RowRange::parse(&row.on) {
                for n in range.low.into_iter().chain(range.high) {
                    put(format!("{entry}.on"), n);
                }
            }
            for (i, e) in row.effects.iter().enumerate() {
                effect_numbers(&format!("{entry}.effects[{i}]"), e, put);
            }
        }
    }
    for o in &pack.outcomes {
        for (i, e) in o.effects.iter().enumerate() {
            effect_numbers(&format!("outcomes.{}.effects[{i}]", o.id), e, put);
        }
    }
}

/// The arc stages' steps and the numbers of scenarios' counts and epilogue lines.
fn scenario_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    for s in &pack.arc_stages {
        put(format!("arc_stages.{}.step", s.id), i64::from(s.step));
    }
    for s in &pack.scenarios {
        for c in &s.counts {
            let entry = format!("scenarios.{}.counts.{}", s.id, c.id);
            c.max
                .into_iter()
                .for_each(|n| put(format!("{entry}.max"), n));
            c.total_max
                .into_iter()
                .for_each(|n| put(format!("{entry}.total_max"), n));
        }
        for rule in &s.epilogue {
            let entry = format!("scenarios.{}.epilogue.{}", s.id, rule.id);
            for (list, amounts) in [("gain", &rule.gain), ("choice", &rule.choice)] {
                for (i, a) in amounts.iter().enumerate() {
                    put(format!("{entry}.{list}[{i}].amount"), a.amount);
                }
            }
        }
    }
}

/// The amounts of the record's epilogue and upkeep lines.
fn record_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    if let Some(record) = &pack.record {
        for rule in &record.epilogue {
            let entry = format!("record.epilogue.{}", rule.id);
            for (list, amounts) in [("gain", &rule.gain), ("choice", &rule.choice)] {
                for (i, a) in amounts.iter().enumerate() {
                    put(format!("{entry}.{list}[{i}].amount"), a.amount);
                }
            }
        }
        for upkeep in &record.upkeep {
            for (i, a) in upkeep.gain.iter().enumerate() {
                put(
                    format!("record.upkeep.{}.gain[{i}].amount", upkeep.id),
                    a.amount,
                );
            }
        }
    }
}

/// The numbers of advancement, bounties and resource actions.
fn reward_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    if let Some(a) = &pack.advancement {
        if let Some(per) = &a.per_resource {
            put("advancement.per_resource.amount".into(), per.amount);
        }
        if let Some(n) = a.per_battle {
            put("advancement.per_battle".into(), count_as_number(n));
        }
    }
    if let Some(b) = &pack.bounties {
        put("bounties.claim_per_point".into(), b.claim_per_point);
        put("bounties.declare_step".into(), b.declare_step);
        put(
            "bounties.declarations_per_gang".into(),
            count_as_number(b.declarations_per_gang),
        );
    }
    for a in &pack.actions {
        for (list, amounts) in [("cost", &a.cost), ("take_choice", &a.take_choice)] {
            for (i, x) in amounts.iter().enumerate() {
                put(format!("actions.{}.{list}[{i}].amount", a.id), x.amount);
            }
        }
    }
}

/// The numbers an effect gives, inside a choice too.
fn effect_numbers(entry: &str, effect: &Effect, put: &mut impl FnMut(String, i64)) {
    match effect {
        Effect::Resource { amount, .. }
        | Effect::Count { amount, .. }
        | Effect::Stat { amount, .. }
        | Effect::Counter { amount, .. }
        | Effect::StatChoice { amount, .. }
        | Effect::InjuryModifier { amount } => put(format!("{entry}.amount"), *amount),
        Effect::Desert { hire_percent } => put(format!("{entry}.hire_percent"), *hire_percent),
        Effect::ResourceFromValue { percent, .. } => put(format!("{entry}.percent"), *percent),
        Effect::Choice { options } => {
            for (i, o) in options.iter().enumerate() {
                effect_numbers(&format!("{entry}.options[{i}]"), o, put);
            }
        }
        _ => {}
    }
}

/// The numbers of the campaign kinds: the rating's prices and factors.
/// The numbers of the season's kinds: rewards, modifiers, a decay and its
/// floor, the limit of a cycle.
fn season_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    let mut rewards = |entry: String, list: &[crate::rules::Reward]| {
        for (i, r) in list.iter().enumerate() {
            put(format!("{entry}[{i}].amount"), r.amount);
        }
    };
    for h in &pack.holdings {
        rewards(format!("holdings.{}.income", h.id), &h.income);
        rewards(format!("holdings.{}.per_record", h.id), &h.per_record);
    }
    for s in pack.cycles.iter().flat_map(|c| &c.end) {
        rewards(format!("cycles.end.{}.rewards", s.id), &s.rewards);
    }
    for shape in pack.record.iter().flat_map(|r| &r.shapes) {
        for (i, row) in shape.places.iter().enumerate() {
            rewards(
                format!("record.shapes.{}.places[{i}].rewards", shape.id),
                &row.rewards,
            );
        }
    }
    for h in &pack.holdings {
        for (i, m) in h.modifiers.iter().enumerate() {
            put(format!("holdings.{}.modifiers[{i}].amount", h.id), m.amount);
        }
    }
    for s in pack.cycles.iter().flat_map(|c| &c.end) {
        s.amount
            .into_iter()
            .for_each(|n| put(format!("cycles.end.{}.amount", s.id), n));
        s.floor
            .into_iter()
            .for_each(|n| put(format!("cycles.end.{}.floor", s.id), n));
    }
    if let Some(c) = &pack.cycles {
        c.limit
            .into_iter()
            .for_each(|n| put("cycles.limit".into(), i64::from(n)));
    }
}

fn kind_numbers(pack: &Pack, put: &mut impl FnMut(String, i64)) {
    for g in &pack.groups {
        put(format!("groups.{}.cost", g.id), g.cost);
        // How many a group has and a side may keep: counts, bounded as
        // every number is.
        for (field, range) in [("size", Some(g.size)), ("per_gang", g.per_gang)] {
            for (end, n) in range.iter().flat_map(|r| r.ends()) {
                put(format!("groups.{}.{field}{end}", g.id), count_as_number(n));
            }
        }
    }
    if let Some(rating) = &pack.rating {
        put("rating.per_member".into(), rating.per_member);
        for (i, c) in rating.counters.iter().enumerate() {
            put(format!("rating.counters[{i}].factor"), c.factor);
        }
    }
    for d in pack.record.iter().flat_map(|r| &r.differences) {
        for r in &d.rows {
            put(
                format!("record.differences.{}.rows `{}`", d.id, r.on),
                r.amount,
            );
        }
    }
    for c in pack.record.iter().flat_map(|r| &r.counted) {
        for f in &c.faces {
            put(
                format!("record.counted.{}.faces `{}`.found", c.id, f.on),
                f.found,
            );
            for a in &f.gain {
                put(
                    format!("record.counted.{}.faces `{}`.gain", c.id, f.on),
                    a.amount,
                );
            }
        }
        for set in &c.sets {
            put(
                format!("record.counted.{}.sets `{}`.found", c.id, set.name),
                set.found,
            );
            for a in &set.gain {
                put(
                    format!("record.counted.{}.sets `{}`.gain", c.id, set.name),
                    a.amount,
                );
            }
        }
    }
    if let Some(c) = &pack.captives {
        let prices = [
            ("ransom", c.ransom.as_ref()),
            ("sell", c.sell.as_ref().map(|s| &s.price)),
        ];
        for (name, price) in prices {
            let Some(price) = price else { continue };
            let all = price
                .fixed
                .into_iter()
                .chain(price.between.into_iter().flatten())
                .chain(price.by_worth.iter().map(|r| r.amount));
            for n in all {
                put(format!("captives.{name}"), n);
            }
        }
    }
    for g in &pack.grids {
        for r in &g.rows {
            for v in &r.values {
                put(format!("grids.{}.rows `{}`", g.id, r.on), *v);
            }
        }
    }
    for a in pack.record.iter().flat_map(|r| &r.awards) {
        put(format!("record.awards.{}.amount", a.id), a.amount);
    }
    for c in &pack.counters {
        for (i, t) in c.thresholds.iter().enumerate() {
            for n in &t.at {
                put(format!("counters.{}.thresholds[{i}].at", c.id), *n);
            }
        }
    }
}
