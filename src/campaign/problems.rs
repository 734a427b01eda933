//! The recruiting rules and quirk constraints a fighter or gang breaks.
//!
//! A gang may be saved while it breaks a rule; these are shown beside it.
//! A change that would newly break a limit is refused by the session
//! (see [`new_breaks`]). Every check is a *kind* of constraint read
//! from the pack; nothing here names a quirk.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Fighter, FighterId, LastingEffect};
use crate::rules::{ConstraintKind, Noun, Pack};

/// Whom a problem is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "scope", rename_all = "snake_case")]
pub enum ProblemScope {
    Gang,
    Fighter { fighter: FighterId, name: String },
}

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// `recruiting.leaders`, `constraints.one-armor-quirk`…
    pub rule: String,
    #[serde(flatten)]
    pub scope: ProblemScope,
    /// What the player reads.
    pub message: String,
    /// The rule text it rests on.
    pub source: String,
    /// The pack's ruling, when the text is silent and the pack decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<String>,
}

impl Problem {
    /// The message with the fighter's name in front when there is one, and
    /// a ruling marked as such.
    pub fn describe(&self) -> String {
        let mut text = match &self.scope {
            ProblemScope::Gang => self.message.clone(),
            ProblemScope::Fighter { name, .. } => format!("{name}: {}", self.message),
        };
        if let Some(ruling) = &self.ruling {
            text.push_str(&format!(" (ruling: {ruling})"));
        }
        text
    }
}

fn fighter_scope(fighter: &Fighter) -> ProblemScope {
    ProblemScope::Fighter {
        fighter: fighter.id,
        name: fighter.name.clone(),
    }
}

fn ruling_text(pack: &Pack, id: Option<&String>) -> Option<String> {
    id.and_then(|id| pack.ruling(id)).map(|r| r.ruling.clone())
}

/// What one fighter breaks on its own: quirk count, duplicates, unknown
/// quirks and the per-fighter constraints.
pub fn fighter_problems(pack: &Pack, fighter: &Fighter) -> Vec<Problem> {
    fighter_problems_after(pack, fighter, 0, &[])
}

/// The same for a fighter whose lasting effects changed their quirks:
/// `changed` is the quirks they gained (by advancement) less the quirks
/// they lost (by a crippling). The recruiting count is of the quirks they
/// were recruited with; every other rule checks the quirks they have now.
/// `lasting` holds the effects on the fighter (or its gang's), for the
/// stats it has now and what it is worth.
pub fn fighter_problems_after(
    pack: &Pack,
    fighter: &Fighter,
    changed: i64,
    lasting: &[LastingEffect],
) -> Vec<Problem> {
    let mut out = unknown_entries(pack, fighter);
    out.extend(recruited_with(pack, fighter, changed));
    for (rule, message, source) in selection_problems(pack, fighter)
        .into_iter()
        .chain(missing_included(pack, fighter))
    {
        out.push(Problem {
            rule,
            scope: fighter_scope(fighter),
            message,
            source,
            ruling: None,
        });
    }
    out.extend(out_of_range(pack, fighter));
    out.extend(unset_stats(pack, fighter));
    for constraint in &pack.constraints {
        let Some(had) = fighter_breaks(pack, fighter, &constraint.rule, lasting) else {
            continue;
        };
        out.push(Problem {
            rule: format!("constraints.{}", constraint.id),
            scope: fighter_scope(fighter),
            message: match had {
                Some(had) => format!("{} ({had})", constraint.message),
                None => constraint.message.clone(),
            },
            source: constraint.source.clone(),
            ruling: ruling_text(pack, constraint.ruling.as_ref()),
        });
    }
    out
}

/// The fighter's entries the pack does not have.
fn unknown_entries(pack: &Pack, fighter: &Fighter) -> Vec<Problem> {
    fighter
        .quirks
        .iter()
        .filter(|pick| pack.quirk(&pick.quirk).is_none())
        .map(|pick| Problem {
            rule: "catalog".into(),
            scope: fighter_scope(fighter),
            message: format!(
                "`{}` is not a {} of {}",
                pick.quirk, pack.words.entry, pack.pack.name
            ),
            source: String::new(),
            ruling: None,
        })
        .collect()
}

/// What the recruiting rules ask of a fighter's entries: as many as a
/// leader or a fighter is recruited with (those gained or lost since not
/// counted), each different where the pack says so.
fn recruited_with(pack: &Pack, fighter: &Fighter, changed: i64) -> Vec<Problem> {
    let Some(recruiting) = &pack.recruiting else {
        return Vec::new();
    };
    let problem = |rule: &str, message: String| Problem {
        rule: rule.into(),
        scope: fighter_scope(fighter),
        message,
        source: recruiting.source.clone(),
        ruling: None,
    };
    let mut out = Vec::new();
    let who = if fighter.leader {
        format!("the {}", pack.words.leader)
    } else {
        format!("a {}", pack.words.fighter)
    };
    let recruited = usize::try_from(
        i64::try_from(fighter.quirks.len())
            .unwrap_or(i64::MAX)
            .saturating_sub(changed),
    )
    .unwrap_or(0);
    if let Some(expected) = recruiting.entries_for(fighter.leader)
        && !expected.contains(recruited)
    {
        let has = pack.words.count(recruited, Noun::Entry);
        out.push(problem(
            "recruiting.quirks",
            if changed == 0 {
                format!("has {has}; {who} has {}", expected.describe())
            } else {
                format!(
                    "was recruited with {has}; {who} has {}",
                    expected.describe()
                )
            },
        ));
    }
    if recruiting.distinct_quirks {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for pick in &fighter.quirks {
            *counts.entry(pick.quirk.as_str()).or_default() += 1;
        }
        for (id, n) in counts.into_iter().filter(|(_, n)| *n > 1) {
            let name = pack.quirk(id).map_or(id, |q| q.name.as_str());
            out.push(problem(
                "recruiting.distinct",
                format!(
                    "has {name} {n} times; each {} must be different",
                    pack.words.entry
                ),
            ));
        }
    }
    out
}

/// Whether the fighter breaks one of the pack's constraints of a
/// fighter's own: `None` where they do not, else what they have that
/// breaks it, where the message says it. A gang's constraints are
/// checked with the gang.
fn fighter_breaks(
    pack: &Pack,
    fighter: &Fighter,
    rule: &ConstraintKind,
    lasting: &[LastingEffect],
) -> Option<Option<String>> {
    let broken = |yes: bool| yes.then_some(None);
    match rule {
        ConstraintKind::MaxTagged { tag, max } => broken(tagged(pack, fighter, tag).count() > *max),
        ConstraintKind::ForbidsTagged { quirk, tag } => broken(
            fighter.has_quirk(quirk)
                && fighter
                    .quirks
                    .iter()
                    .filter(|p| p.quirk != *quirk)
                    .filter_map(|p| pack.quirk(&p.quirk))
                    .any(|q| q.tags.iter().any(|t| t == tag)),
        ),
        ConstraintKind::RequiresAny { quirk, any_of } => {
            broken(fighter.has_quirk(quirk) && !any_of.iter().any(|q| fighter.has_quirk(q)))
        }
        ConstraintKind::MinTagged { tag, min } => broken(tagged(pack, fighter, tag).count() < *min),
        ConstraintKind::MaxSlots {
            quirk,
            tag,
            max,
            unopened,
        } => {
            // No maximum: the text prints none (the ruling says so).
            broken(
                fighter.has_quirk(quirk)
                    && max.is_some_and(|max| {
                        slots_taken(pack, fighter, tag, unopened.as_ref()) > max
                    }),
            )
        }
        ConstraintKind::StatRange {
            quirk,
            stat,
            min,
            max,
            unless_tagged,
        } => {
            // Held to it: a fighter with the entry, and without one
            // carrying `unless_tagged` (a type that will do instead).
            let excused = unless_tagged
                .as_deref()
                .is_some_and(|t| tagged(pack, fighter, t).next().is_some());
            if !fighter.has_quirk(quirk) || excused {
                return None;
            }
            let now = super::derive_stats(pack, fighter, lasting)
                .into_iter()
                .find(|s| s.id == *stat)
                .filter(|s| min.is_some_and(|m| s.value < m) || max.is_some_and(|m| s.value > m))?;
            let name = pack.stat(stat).map_or(now.label.as_str(), |d| d.title());
            Some(Some(format!("{name} {}", now.value_text())))
        }
        ConstraintKind::MaxScore { quirk, max } => {
            if !fighter.has_quirk(quirk) {
                return None;
            }
            let score = super::valuation::fighter_value(pack, fighter, lasting)
                .and_then(|v| v.score)
                .filter(|score| score > max)?;
            let label = pack
                .valuation
                .as_ref()
                .and_then(|v| v.score.as_ref())
                .map_or("", |s| s.label.as_str());
            Some(Some(format!("{score} {label}")))
        }
        ConstraintKind::GangCount { .. }
        | ConstraintKind::GangCountPerPoints { .. }
        | ConstraintKind::GangMaxTagged { .. } => None,
    }
}

/// The fighter's quirks carrying `tag`.
fn tagged<'a>(
    pack: &'a Pack,
    fighter: &'a Fighter,
    tag: &'a str,
) -> impl Iterator<Item = &'a crate::rules::QuirkDef> {
    fighter
        .quirks
        .iter()
        .filter_map(|p| pack.quirk(&p.quirk))
        .filter(move |q| q.tags.iter().any(|t| t == tag))
}

/// How many of the fighter's quirks carrying `tag` take a slot: all but
/// those another of its quirks includes.
fn slots_taken(
    pack: &Pack,
    fighter: &Fighter,
    tag: &str,
    unopened: Option<&crate::rules::Unopened>,
) -> usize {
    let included = super::valuation::included(pack, fighter);
    // The tags the fighter's entries open (an occupation's categories);
    // a fighter whose entries open none is not held to any.
    let opened: Vec<&str> = fighter
        .quirks
        .iter()
        .filter_map(|p| pack.quirk(&p.quirk))
        .flat_map(|q| q.opens.iter().map(String::as_str))
        .collect();
    let slots = |q: &crate::rules::QuirkDef| match unopened {
        Some(u) if !opened.is_empty() => {
            let shut = q.tags.iter().any(|t| {
                t.starts_with(&u.prefix) && !opened.contains(&t.as_str()) && !u.open.contains(t)
            });
            if shut { u.slots } else { 1 }
        }
        _ => 1,
    };
    tagged(pack, fighter, tag)
        .filter(|q| !included.contains(q.id.as_str()))
        .map(slots)
        .sum()
}

/// The stats the text does not print that the fighter has no value of
/// (HWC's Poise, from the game's own sheet): each a problem until set.
fn unset_stats(pack: &Pack, fighter: &Fighter) -> Vec<Problem> {
    pack.stats
        .iter()
        .filter(|s| s.start().is_none() && !fighter.base.contains_key(&s.id))
        .map(|s| Problem {
            rule: format!("stats.{}.fill_in", s.id),
            scope: fighter_scope(fighter),
            message: format!(
                "{} is not set: {} does not print it; enter it from the character's sheet",
                s.title(),
                pack.pack.name
            ),
            source: s.source.clone(),
            ruling: ruling_text(pack, s.fill_in.as_ref()),
        })
        .collect()
}

/// A fighter's own base stats outside the ranges an entry of theirs holds
/// them to (an occupation's dice), with the ruling the ranges stand on.
fn out_of_range(pack: &Pack, fighter: &Fighter) -> Vec<Problem> {
    let mut out = Vec::new();
    for def in fighter.quirks.iter().filter_map(|p| pack.quirk(&p.quirk)) {
        for (stat, [min, max]) in &def.ranges {
            let Some(s) = pack.stat(stat) else { continue };
            let Some(base) = fighter.base.get(stat).copied().or(s.start()) else {
                continue;
            };
            if base < *min || base > *max {
                out.push(Problem {
                    rule: format!("quirks.{}.ranges.{stat}", def.id),
                    scope: fighter_scope(fighter),
                    message: format!("{} allows {} {min}-{max}, not {base}", def.name, s.label),
                    source: def.source.clone(),
                    ruling: ruling_text(pack, def.ranges_ruling.as_ref()),
                });
            }
        }
    }
    out
}

/// An entry that includes others (a template and its traits), on a fighter
/// who lacks one of them.
fn missing_included(pack: &Pack, fighter: &Fighter) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for pick in &fighter.quirks {
        let Some(def) = pack.quirk(&pick.quirk) else {
            continue;
        };
        for id in def.includes.iter().filter(|id| !fighter.has_quirk(id)) {
            let name = pack.quirk(id).map_or(id.as_str(), |q| q.name.as_str());
            out.push((
                format!("quirks.{}.includes", def.id),
                format!("{} comes with {name}: add it", def.name),
                def.source.clone(),
            ));
        }
    }
    out
}

/// A quirk that asks the player to select another of the fighter's quirks
/// (003, Akimbo Holster: "Select one of those weapons for this fighter to
/// Dual Wield") and has none, or one the fighter lacks or that is not
/// among those it allows.
fn selection_problems(pack: &Pack, fighter: &Fighter) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for pick in &fighter.quirks {
        let Some(def) = pack.quirk(&pick.quirk) else {
            continue;
        };
        let Some(select) = &def.select else { continue };
        let rule = format!("quirks.{}.select", def.id);
        let name = |id: &str| {
            pack.quirk(id)
                .map_or_else(|| id.to_owned(), |q| q.name.clone())
        };
        let eligible: Vec<String> = select
            .any_of
            .iter()
            .filter(|id| fighter.has_quirk(id))
            .map(|id| name(id))
            .collect();
        let message = match &pick.with {
            None => format!(
                "{}: choose the {} ({})",
                def.name,
                select.label.to_lowercase(),
                if eligible.is_empty() {
                    "none of theirs may be".to_owned()
                } else {
                    eligible.join(" or ")
                }
            ),
            Some(with) if !select.any_of.contains(with) => format!(
                "{}: {} may not be the {}",
                def.name,
                name(with),
                select.label.to_lowercase()
            ),
            Some(with) if !fighter.has_quirk(with) => {
                format!(
                    "{}: the {} has no {}",
                    def.name,
                    pack.words.fighter,
                    name(with)
                )
            }
            Some(_) => continue,
        };
        out.push((rule, message, select.source.clone()));
    }
    out
}

/// What the gang as a whole breaks, followed by each fighter's problems.
pub fn gang_problems(pack: &Pack, fighters: &[Fighter]) -> Vec<Problem> {
    gang_problems_after(pack, fighters, &BTreeMap::new(), &[], &BTreeMap::new())
}

/// True for a problem that breaks a rule the pack states outright — a
/// constraint that is a limit, a points limit, the same entry twice — and
/// not a count a gang being built has yet to reach. A stat outside the
/// ranges an entry allows is not one: the entry is often chosen before the
/// dice are set to it, so it is shown until they are.
pub fn breaks_a_stated_rule(pack: &Pack, problem: &Problem) -> bool {
    let rule = problem.rule.as_str();
    if let Some(id) = rule.strip_prefix("constraints.") {
        return pack
            .constraints
            .iter()
            .any(|c| c.id == id && c.rule.is_a_limit());
    }
    rule.starts_with("valuation.") || rule == "recruiting.distinct"
}

/// The stated rules (see [`breaks_a_stated_rule`]) that `after` breaks
/// and `before` does not: what a change would newly break.
pub fn new_breaks(pack: &Pack, before: &[Problem], after: &[Problem]) -> Vec<Problem> {
    after
        .iter()
        .filter(|p| breaks_a_stated_rule(pack, p))
        .filter(|p| {
            !before
                .iter()
                .any(|b| b.rule == p.rule && b.scope == p.scope)
        })
        .cloned()
        .collect()
}

/// True when giving `fighter` the quirk `quirk` would break a constraint of
/// the pack that the gang does not break now (Lightweight beside Light
/// Armor; a third Bonded): such a quirk is not offered.
pub fn quirk_breaks_a_rule(
    pack: &Pack,
    fighters: &[Fighter],
    fighter: FighterId,
    quirk: &str,
) -> bool {
    !problems_if_given(pack, fighters, fighter, quirk, &[]).is_empty()
}

/// The constraints of the pack giving `fighter` (one of `fighters`, its
/// gang's roster) the entry `quirk` would break that the gang does not
/// break now, each as the problem a player would read, with its rule and
/// source (004's Bestial unit and a sword: "A Bestial unit may never use
/// equipment."). Empty when the entry breaks none: what a purchase checks
/// before it is paid for. `lasting` holds the gang's lasting effects.
pub fn problems_if_given(
    pack: &Pack,
    fighters: &[Fighter],
    fighter: FighterId,
    quirk: &str,
    lasting: &[LastingEffect],
) -> Vec<Problem> {
    let constraints = |list: &[Fighter]| -> Vec<Problem> {
        gang_problems_after(pack, list, &BTreeMap::new(), lasting, &BTreeMap::new())
            .into_iter()
            .filter(|p| p.rule.starts_with("constraints."))
            .collect()
    };
    let before: Vec<(String, ProblemScope)> = constraints(fighters)
        .into_iter()
        .map(|p| (p.rule, p.scope))
        .collect();
    let mut trial = fighters.to_vec();
    if let Some(f) = trial.iter_mut().find(|f| f.id == fighter) {
        f.quirks.push(super::QuirkPick::new(quirk));
    }
    constraints(&trial)
        .into_iter()
        .filter(|p| {
            !before
                .iter()
                .any(|(rule, scope)| *rule == p.rule && *scope == p.scope)
        })
        .collect()
}

/// `gang_problems` with each fighter's quirks gained less quirks lost by
/// lasting effects (see [`fighter_problems_after`]).
/// `lasting` holds the gang's lasting effects, for what its fighters are
/// worth (what they were built with); `resources` the gang's, for a limit
/// that is its budget.
pub fn gang_problems_after(
    pack: &Pack,
    fighters: &[Fighter],
    changed: &BTreeMap<FighterId, i64>,
    lasting: &[super::LastingEffect],
    resources: &BTreeMap<String, i64>,
) -> Vec<Problem> {
    // What the fighters are worth together, read once for every rule
    // that needs it.
    let worth = super::valuation::gang_value(pack, fighters, lasting, resources);
    let mut out: Vec<Problem> = over_its_worth(pack, worth.as_ref()).into_iter().collect();
    out.extend(recruited_gang(pack, fighters));
    for constraint in &pack.constraints {
        let points = worth.as_ref().map_or(0, |v| v.value);
        if let Some(count) = gang_breaks(pack, fighters, &constraint.rule, points) {
            out.push(Problem {
                rule: format!("constraints.{}", constraint.id),
                scope: ProblemScope::Gang,
                message: format!("{} ({count})", constraint.message),
                source: constraint.source.clone(),
                ruling: ruling_text(pack, constraint.ruling.as_ref()),
            });
        }
    }
    for fighter in fighters {
        let delta = changed.get(&fighter.id).copied().unwrap_or(0);
        out.extend(fighter_problems_after(pack, fighter, delta, lasting));
    }
    out
}

/// A gang problem: a rule the gang as a whole breaks.
fn gang_problem(rule: &str, message: String, source: &str) -> Problem {
    Problem {
        rule: rule.into(),
        scope: ProblemScope::Gang,
        message,
        source: source.into(),
        ruling: None,
    }
}

/// What the fighters are worth together, past the pack's limit or the
/// gang's budget.
fn over_its_worth(pack: &Pack, worth: Option<&super::valuation::GangValue>) -> Option<Problem> {
    let valuation = pack.valuation.as_ref()?;
    let total = worth?;
    let limit = total.limit.filter(|limit| total.value > *limit)?;
    let budget = valuation.budget.as_deref().and_then(|b| pack.resource(b));
    let (rule, over, source, ruling) = match budget {
        Some(b) => (
            "valuation.budget",
            format!("more than its {limit} {}", b.label),
            &b.source,
            ruling_text(pack, valuation.budget_ruling.as_ref()),
        ),
        None => (
            "valuation.limit",
            format!("over the limit of {limit}"),
            &valuation.source,
            ruling_text(pack, valuation.ruling.as_ref()),
        ),
    };
    Some(Problem {
        ruling,
        ..gang_problem(
            rule,
            format!(
                "Its {} add up to {} {}, {over}.",
                pack.words.fighters, total.value, valuation.label
            ),
            source,
        )
    })
}

/// What the recruiting rules ask of a gang: its leaders, and its size.
fn recruited_gang(pack: &Pack, fighters: &[Fighter]) -> Vec<Problem> {
    let Some(recruiting) = &pack.recruiting else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let words = &pack.words;
    let leaders = fighters.iter().filter(|f| f.leader).count();
    if !recruiting.leaders.contains(leaders) {
        out.push(gang_problem(
            "recruiting.leaders",
            format!(
                "The {} has {}; it needs {}.",
                words.gang,
                words.count(leaders, Noun::Leader),
                recruiting.leaders.describe()
            ),
            &recruiting.source,
        ));
    }
    let size = recruiting.size();
    if !size.contains(fighters.len()) {
        out.push(gang_problem(
            "recruiting.size",
            format!(
                "The {} has {}; a starting {} has {} ({} {} + {} other {}).",
                words.gang,
                words.count(fighters.len(), Noun::Fighter),
                words.gang,
                size.describe(),
                recruiting.leaders.describe(),
                if recruiting.leaders.is_one() {
                    &words.leader
                } else {
                    &words.leaders
                },
                recruiting.recruits.describe(),
                if recruiting.recruits.is_one() {
                    &words.fighter
                } else {
                    &words.fighters
                },
            ),
            &recruiting.source,
        ));
    }
    out
}

/// Whether the gang breaks one of the pack's constraints of a whole
/// gang: what the count was where it does. `points` is what its fighters
/// are worth together. A fighter's own constraints are checked with each
/// fighter.
fn gang_breaks(
    pack: &Pack,
    fighters: &[Fighter],
    rule: &ConstraintKind,
    points: i64,
) -> Option<String> {
    let with = |quirk: &str| fighters.iter().filter(|f| f.has_quirk(quirk)).count();
    let name = |quirk: &str| {
        pack.quirk(quirk)
            .map_or(quirk.to_owned(), |q| q.name.clone())
    };
    match rule {
        ConstraintKind::GangCount { quirk, allowed } => {
            let n = with(quirk);
            (!allowed.contains(&n)).then(|| {
                format!(
                    "{} ha{} {}",
                    pack.words.count(n, Noun::Fighter),
                    if n == 1 { "s" } else { "ve" },
                    name(quirk)
                )
            })
        }
        ConstraintKind::GangCountPerPoints {
            quirk,
            max,
            per,
            rounding,
        } => {
            let n = with(quirk);
            let allowed = per_points(points, *per, *max, *rounding);
            (n > allowed).then(|| {
                let noun = if n == 1 {
                    &pack.words.fighter
                } else {
                    &pack.words.fighters
                };
                format!(
                    "{n} {noun} with {}; {allowed} allowed at {points} points",
                    name(quirk)
                )
            })
        }
        ConstraintKind::GangMaxTagged { tag, max } => {
            let n = fighters
                .iter()
                .filter(|f| tagged(pack, f, tag).next().is_some())
                .count();
            (n > *max).then(|| format!("{}; {max} allowed", pack.words.count(n, Noun::Fighter)))
        }
        ConstraintKind::MaxTagged { .. }
        | ConstraintKind::ForbidsTagged { .. }
        | ConstraintKind::RequiresAny { .. }
        | ConstraintKind::MinTagged { .. }
        | ConstraintKind::MaxSlots { .. }
        | ConstraintKind::StatRange { .. }
        | ConstraintKind::MaxScore { .. } => None,
    }
}

/// How many `max` a gang of `points` may have, at `max` for every `per`
/// points, the number of `per`s rounded as the rule says.
fn per_points(points: i64, per: usize, max: usize, rounding: crate::rules::Rounding) -> usize {
    let per = i64::try_from(per).unwrap_or(i64::MAX);
    let whole = rounding.divide(points.max(0), per);
    usize::try_from(whole)
        .unwrap_or(usize::MAX)
        .saturating_mul(max)
}

/// A ruling a roster's legality rests on: a rule the roster keeps as the
/// pack decided where the text is silent or open (a rank whose maximum is
/// "N/A"), shown beside the roster whether or not it breaks anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reliance {
    /// The ruling's id (`hero-abilities`).
    pub ruling: String,
    /// What the pack decided.
    pub text: String,
    /// The rules that rest on it (`constraints.hero-abilities`).
    pub rules: Vec<String>,
    /// The fighters it concerns, in roster order; none where it is about
    /// the gang as a whole.
    pub fighters: Vec<String>,
}

impl Reliance {
    /// `relies on a ruling: <what the pack decided> (Ulric)`; the ruling's
    /// id is in `--json`.
    pub fn describe(&self) -> String {
        let mut text = format!("relies on a ruling: {}", self.text);
        if !self.fighters.is_empty() {
            text.push_str(&format!(" ({})", self.fighters.join(", ")));
        }
        text
    }
}

/// The rulings the roster keeps its rules by: each constraint with a ruling
/// that concerns a fighter (or the gang) and that it does not break, and
/// each entry's ranges that rest on a ruling and that its fighter keeps.
/// `problems` are the roster's (a rule broken is shown as its problem, with
/// the ruling, not here). One a ruling, in the pack's order of rulings.
pub fn rulings_relied_on(pack: &Pack, fighters: &[Fighter], problems: &[Problem]) -> Vec<Reliance> {
    let broken = |rule: &str, scope: &ProblemScope| {
        problems.iter().any(|p| p.rule == rule && p.scope == *scope)
    };
    let broken_under = |prefix: &str, scope: &ProblemScope| {
        problems
            .iter()
            .any(|p| p.rule.starts_with(prefix) && p.scope == *scope)
    };
    // (ruling, rule, fighter's name if any)
    let mut found: Vec<(&str, String, Option<&str>)> = Vec::new();
    for constraint in &pack.constraints {
        let Some(ruling) = constraint.ruling.as_deref() else {
            continue;
        };
        let rule = format!("constraints.{}", constraint.id);
        let trigger = constraint.rule.quirk();
        match &constraint.rule {
            ConstraintKind::GangMaxTagged { tag, .. } => {
                if fighters
                    .iter()
                    .any(|f| tagged(pack, f, tag).next().is_some())
                    && !broken(&rule, &ProblemScope::Gang)
                {
                    found.push((ruling, rule, None));
                }
            }
            ConstraintKind::GangCount { .. } | ConstraintKind::GangCountPerPoints { .. } => {
                if trigger.is_some_and(|q| fighters.iter().any(|f| f.has_quirk(q)))
                    && !broken(&rule, &ProblemScope::Gang)
                {
                    found.push((ruling, rule, None));
                }
            }
            kind => {
                for fighter in fighters {
                    let concerns = match (kind, trigger) {
                        (_, Some(q)) => fighter.has_quirk(q),
                        (ConstraintKind::MaxTagged { tag, .. }, None) => {
                            tagged(pack, fighter, tag).next().is_some()
                        }
                        _ => true,
                    };
                    if concerns && !broken(&rule, &fighter_scope(fighter)) {
                        found.push((ruling, rule.clone(), Some(&fighter.name)));
                    }
                }
            }
        }
    }
    for fighter in fighters {
        for def in fighter.quirks.iter().filter_map(|p| pack.quirk(&p.quirk)) {
            let Some(ruling) = def.ranges_ruling.as_deref() else {
                continue;
            };
            let rule = format!("quirks.{}.ranges", def.id);
            if !def.ranges.is_empty() && !broken_under(&rule, &fighter_scope(fighter)) {
                found.push((ruling, rule, Some(&fighter.name)));
            }
        }
    }
    let mut out: Vec<Reliance> = Vec::new();
    for r in &pack.rulings {
        let mut reliance = Reliance {
            ruling: r.id.clone(),
            text: r.ruling.clone(),
            rules: Vec::new(),
            fighters: Vec::new(),
        };
        for (_, rule, fighter) in found.iter().filter(|(id, ..)| *id == r.id) {
            if !reliance.rules.contains(rule) {
                reliance.rules.push(rule.clone());
            }
            if let Some(name) = fighter
                && !reliance.fighters.iter().any(|n| n == name)
            {
                reliance.fighters.push((*name).to_owned());
            }
        }
        if !reliance.rules.is_empty() {
            out.push(reliance);
        }
    }
    out
}
