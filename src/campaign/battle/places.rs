//! A record's shape (`[[record.shapes]]`): its sides placed first to last,
//! or a challenger and a defender; what each finish gives; the holding at
//! stake and who takes it; what a holding gives its holder in every
//! record; and the cycle the record counts in. Pure.

use super::*;
use crate::campaign::season::challenges::{self, ChallengeStatus};
use crate::rules::{ChallengeSide, Finish, Late, Reward, ShapeDef, ShapeResult, StakeRule};

/// The shape a report names: where the pack has shapes, one of them (the
/// only one, where it has one); `None` where it has none.
pub(super) fn resolve_shape<'p>(
    pack: &'p Pack,
    report: &BattleReport,
) -> Result<Option<&'p ShapeDef>, ReportError> {
    let shapes = &pack.record().shapes;
    let names = || {
        shapes
            .iter()
            .map(|s| s.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (&report.shape, shapes.as_slice()) {
        (None, []) => Ok(None),
        (Some(name), []) => refuse(
            "shape",
            format!(
                "a {} of {} has no shapes, but “{}” was given",
                pack.record().noun,
                pack.pack.name,
                crate::text::echo(name)
            ),
        ),
        (None, [only]) => Ok(Some(only)),
        (None, _) => refuse(
            "shape",
            format!("missing: one of {} ({})", pack.record().noun, names()),
        ),
        (Some(name), _) => match pack.record().shape(name) {
            Some(shape) => Ok(Some(shape)),
            None => refuse(
                "shape",
                format!(
                    "“{}” is not a shape of a {} ({})",
                    crate::text::echo(name),
                    pack.record().noun,
                    names()
                ),
            ),
        },
    }
}

/// A report that plays an accepted challenge, with the challenge's
/// shape, stake and challenger filled in: its sides are the challenge's
/// two, and what it gives of the shape, the stake or the challenger is
/// the challenge's.
pub(super) fn from_challenge(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    id: crate::campaign::ChallengeId,
) -> Result<BattleReport, ReportError> {
    let field = |(_, reason): (String, String)| ReportError {
        field: "challenge".to_owned(),
        reason,
    };
    let (rules, shape) = challenges::rules(pack).map_err(field)?;
    let found = challenges::find(&state.season, id).map_err(field)?;
    let label = &rules.label;
    if let Some(played) = found.played {
        return refuse(
            "challenge",
            format!(
                "{label} #{id} has been played ({} #{played})",
                pack.record().noun
            ),
        );
    }
    if found.status != ChallengeStatus::Accepted {
        return refuse(
            "challenge",
            format!(
                "{label} #{id} is {}: only one accepted is played",
                found.status.word()
            ),
        );
    }
    let c = &found.challenge;
    let name = |g: GangId| {
        state
            .gang(g)
            .map_or_else(|| format!("{} #{g}", pack.words.gang), |g| g.name.clone())
    };
    let two = || {
        format!(
            "{label} #{id} is played by {} (challenger) and {}",
            name(c.challenger),
            name(c.defender)
        )
    };
    if report.gangs.len() != 2 {
        return refuse("gangs", two());
    }
    let mut filled = report.clone();
    for (i, side) in filled.gangs.iter_mut().enumerate() {
        let gang = state
            .gang_named(&side.gang)
            .map(|g| g.id)
            .filter(|g| *g == c.challenger || *g == c.defender);
        let Some(gang) = gang else {
            return refuse(format!("gangs[{i}].gang"), two());
        };
        if side.challenger && gang != c.challenger {
            return refuse(format!("gangs[{i}].challenger"), two());
        }
        side.challenger = gang == c.challenger;
    }
    if filled.gangs[0].gang == filled.gangs[1].gang
        || filled.gangs.iter().filter(|g| g.challenger).count() != 1
    {
        return refuse("gangs", two());
    }
    if let Some(given) = &report.shape
        && pack.record().shape(given).map(|s| &s.id) != Some(&shape.id)
    {
        return refuse(
            "shape",
            format!("{label} #{id} is played as a {}", shape.label),
        );
    }
    filled.shape = Some(shape.id.clone());
    let stake_of = |name: &str| pack.find_holding(name).map(|h| h.id.clone());
    if let Some(given) = &report.stake
        && stake_of(given) != c.stake
    {
        let named = c
            .stake
            .as_deref()
            .and_then(|s| pack.holding(s))
            .map_or_else(|| "nothing".to_owned(), |h| h.name.clone());
        return refuse("stake", format!("{label} #{id} is played for {named}"));
    }
    filled.stake = c.stake.clone();
    Ok(filled)
}

/// The sides a shaped record has, refused where the report has more or
/// fewer.
pub(super) fn check_sides(pack: &Pack, shape: &ShapeDef, sides: usize) -> Result<(), ReportError> {
    if shape.sides.contains(sides) {
        return Ok(());
    }
    refuse(
        "gangs",
        format!(
            "a {} has {} {} taking part, not {sides}",
            shape.label,
            shape.sides.describe(),
            pack.words.gangs
        ),
    )
}

/// A report's places and challenger where the record has no shape: none
/// may be given.
pub(super) fn no_places(pack: &Pack, report: &BattleReport) -> Result<(), ReportError> {
    for (i, g) in report.gangs.iter().enumerate() {
        if g.place.is_some() || g.challenger {
            let what = if g.challenger { "challenger" } else { "place" };
            return refuse(
                format!("gangs[{i}].{what}"),
                format!(
                    "a {} of {} is not placed and has no challenger",
                    pack.record().noun,
                    pack.pack.name
                ),
            );
        }
    }
    Ok(())
}

/// Each side's place (and the challenger) in a shaped record, from the
/// report's places or its winner; the winner is the side placed first
/// alone.
pub(super) fn place_sides(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    shape: &ShapeDef,
    gangs: &mut [BattleGang],
) -> Result<Option<GangId>, ReportError> {
    mark_challenger(pack, report, shape, gangs)?;
    let places = places_given(pack, state, report, shape, gangs)?;
    check_ranking(shape, &places)?;
    for (i, (g, place)) in gangs.iter_mut().zip(&places).enumerate() {
        if g.ran_for_it && *place == 1 {
            let ran = pack.record().ran.as_deref().unwrap_or("left the game");
            return refuse(
                format!("gangs[{i}].place"),
                format!("a {} that {ran} is not placed first", pack.words.gang),
            );
        }
        g.place = Some(*place);
    }
    let first: Vec<GangId> = gangs
        .iter()
        .filter(|g| g.place == Some(1))
        .map(|g| g.gang)
        .collect();
    let winner = match first.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    if let Some(name) = &report.winner {
        let named = gangs.iter().map(|g| g.gang).find(|id| {
            state
                .gang(*id)
                .is_some_and(|s| crate::text::same(&s.name, name))
        });
        if named != winner || winner.is_none() {
            return refuse(
                "winner",
                format!(
                    "“{}” is not the {} placed first alone",
                    crate::text::echo(name),
                    pack.words.gang
                ),
            );
        }
    }
    Ok(winner)
}

/// The challenger of a challenge: exactly one side; none in a placed
/// record.
fn mark_challenger(
    pack: &Pack,
    report: &BattleReport,
    shape: &ShapeDef,
    gangs: &mut [BattleGang],
) -> Result<(), ReportError> {
    let marked: Vec<usize> = report
        .gangs
        .iter()
        .enumerate()
        .filter(|(_, g)| g.challenger)
        .map(|(i, _)| i)
        .collect();
    match (shape.result, marked.as_slice()) {
        (ShapeResult::Challenge, [one]) => {
            gangs[*one].challenger = true;
            Ok(())
        }
        (ShapeResult::Challenge, []) => refuse(
            "gangs",
            format!(
                "a {} has a challenger: mark one {} `challenger`",
                shape.label, pack.words.gang
            ),
        ),
        (ShapeResult::Challenge, [_, second, ..]) => refuse(
            format!("gangs[{second}].challenger"),
            format!("a {} has one challenger", shape.label),
        ),
        (ShapeResult::Placed, []) => Ok(()),
        (ShapeResult::Placed, [first, ..]) => refuse(
            format!("gangs[{first}].challenger"),
            format!("a {} has no challenger", shape.label),
        ),
    }
}

/// The places as the report gives them: every side's `place`, or read
/// from its winner where no side has one (two sides: the winner first;
/// no winner, both level where the shape allows draws).
fn places_given(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    shape: &ShapeDef,
    gangs: &[BattleGang],
) -> Result<Vec<u32>, ReportError> {
    let given: Vec<Option<u32>> = report.gangs.iter().map(|g| g.place).collect();
    if let Some(missing) = given.iter().position(Option::is_none)
        && given.iter().any(Option::is_some)
    {
        return refuse(
            format!("gangs[{missing}].place"),
            format!("missing: a {} places every side", shape.label),
        );
    }
    if given.iter().all(Option::is_some) {
        return Ok(given.into_iter().flatten().collect());
    }
    if gangs.len() != 2 {
        return refuse(
            "gangs[0].place",
            format!(
                "missing: a {} of {} {} places every side, first to last",
                shape.label,
                gangs.len(),
                pack.words.gangs
            ),
        );
    }
    match &report.winner {
        Some(name) => {
            let first = gangs.iter().position(|g| {
                state
                    .gang(g.gang)
                    .is_some_and(|s| crate::text::same(&s.name, name))
            });
            match first {
                Some(i) => Ok((0..2).map(|j| if j == i { 1 } else { 2 }).collect()),
                None => refuse(
                    "winner",
                    format!(
                        "“{}” did not take part in this {}",
                        crate::text::echo(name),
                        pack.record().noun
                    ),
                ),
            }
        }
        None if shape.draws => Ok(vec![1, 1]),
        None => refuse(
            "winner",
            format!(
                "missing: a {} has a winner (a draw is not one of its results)",
                shape.label
            ),
        ),
    }
}

/// Places read first to last, each side's the count of sides ahead of
/// it plus one; level sides only where the shape allows draws.
fn check_ranking(shape: &ShapeDef, places: &[u32]) -> Result<(), ReportError> {
    let sides = u32::try_from(places.len()).unwrap_or(u32::MAX);
    for (i, place) in places.iter().enumerate() {
        let field = format!("gangs[{i}].place");
        if *place == 0 || *place > sides {
            return refuse(field, format!("a place is 1 to {sides}, not {place}"));
        }
        let ahead = places.iter().filter(|p| **p < *place).count();
        let level = places.iter().filter(|p| **p == *place).count();
        if usize::try_from(*place - 1).ok() != Some(ahead) {
            return refuse(
                field,
                format!(
                    "{ahead} side{} placed ahead of it, so it is placed {}, not {place}",
                    if ahead == 1 { " is" } else { "s are" },
                    ahead + 1
                ),
            );
        }
        if level > 1 && !shape.draws {
            return refuse(
                field,
                format!("no two sides share a place in a {}", shape.label),
            );
        }
    }
    Ok(())
}

/// The holding at stake: one the shape has a stake for, and held where
/// the shape says one may be.
pub(super) fn resolve_stake(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    shape: Option<&ShapeDef>,
    gangs: &[BattleGang],
) -> Result<Option<String>, ReportError> {
    let Some(name) = &report.stake else {
        return Ok(None);
    };
    let Some(shape) = shape.filter(|s| s.stake.is_some()) else {
        return refuse(
            "stake",
            format!(
                "nothing is at stake in this {}",
                shape.map_or_else(|| pack.record().noun.clone(), |s| s.label.clone())
            ),
        );
    };
    let Some(holding) = pack.find_holding(name) else {
        let known: Vec<&str> = pack.holdings.iter().map(|h| h.name.as_str()).collect();
        return refuse(
            "stake",
            format!(
                "“{}” is not a {} ({})",
                crate::text::echo(name),
                pack.words.holding,
                known.join(", ")
            ),
        );
    };
    let holder = state.season.holders.get(&holding.id).copied();
    let defender = gangs
        .iter()
        .find(|g| !g.challenger && shape.result == ShapeResult::Challenge)
        .map(|g| g.gang);
    let sides: Vec<GangId> = gangs.iter().map(|g| g.gang).collect();
    if !challenges::may_stake(shape, holder, defender, &sides) {
        let held = match holder {
            Some(g) => format!(
                "held by {}",
                state
                    .gang(g)
                    .map_or_else(|| format!("#{g}"), |g| g.name.clone())
            ),
            None => "unclaimed".to_owned(),
        };
        return refuse(
            "stake",
            format!(
                "{} is {held}; a {} is played for one {}",
                holding.name,
                shape.label,
                challenges::stake_from_said(shape)
            ),
        );
    }
    Ok(Some(holding.id.clone()))
}

/// The cycle a record counts in: the campaign's, where the pack has
/// cycles. A record of a cycle that has ended counts in this one or is
/// refused, as the pack says; no side may pass its limit of records.
pub(super) fn resolve_cycle(
    pack: &Pack,
    state: &CampaignState,
    report: &BattleReport,
    gangs: &[BattleGang],
) -> Result<Option<u32>, ReportError> {
    let Some(rules) = &pack.cycles else {
        if report.cycle.is_some() {
            return refuse(
                "cycle",
                format!("{} has no {}", pack.pack.name, pack.words.cycles),
            );
        }
        return Ok(None);
    };
    let now = state.season.cycle;
    let said = |n| crate::campaign::season::cycle_said(&pack.words, n);
    if let Some(played) = report.cycle {
        if played > now {
            return refuse(
                "cycle",
                format!("{} has not begun: this is {}", said(played), said(now)),
            );
        }
        if played < now && rules.late == Late::Refused {
            return refuse(
                "cycle",
                format!(
                    "{} has ended; a {} of it is no longer taken (this is {})",
                    said(played),
                    pack.record().noun,
                    said(now)
                ),
            );
        }
    }
    if let Some(limit) = rules.limit {
        for (i, g) in gangs.iter().enumerate() {
            if state.season.played(g.gang) >= limit {
                let name = state.gang(g.gang).map_or("", |g| g.name.as_str());
                let records = pack
                    .record()
                    .count(usize::try_from(limit).unwrap_or(usize::MAX));
                return refuse(
                    format!("gangs[{i}].gang"),
                    format!("{name} has played {records} in {}, its limit", said(now)),
                );
            }
        }
    }
    Ok(Some(now))
}

impl Run<'_> {
    /// A side's place and how many share it, in this shaped record.
    fn place_of(&self, gang: GangId) -> Option<(u32, bool)> {
        let place = self.battle.gangs.iter().find(|g| g.gang == gang)?.place?;
        let level = self
            .battle
            .gangs
            .iter()
            .filter(|g| g.place == Some(place))
            .count();
        Some((place, level > 1))
    }

    /// The lowest place of the record.
    pub(super) fn last_place(&self) -> u32 {
        self.battle
            .gangs
            .iter()
            .filter_map(|g| g.place)
            .max()
            .unwrap_or(1)
    }

    /// The side placed so, where one is alone there (`place:<n>`,
    /// `last`).
    pub(super) fn placed(&self, placed: crate::rules::PlacedSide) -> Vec<GangId> {
        let want = match placed {
            crate::rules::PlacedSide::Place(n) => n,
            crate::rules::PlacedSide::Last => self.last_place(),
        };
        self.battle
            .gangs
            .iter()
            .filter(|g| g.place == Some(want))
            .map(|g| g.gang)
            .collect()
    }

    /// What each side's finish gives it, by the shape's rows.
    pub(super) fn place_rewards(&mut self) -> Result<(), ReportError> {
        let Some(shape) = self.shape().cloned() else {
            return Ok(());
        };
        let last = self.last_place();
        for side in self.battle.gangs.clone() {
            let Some((place, shared)) = self.place_of(side.gang) else {
                continue;
            };
            for row in &shape.places {
                let Ok(finish) = Finish::parse(&row.finish) else {
                    continue;
                };
                let side_fits = row
                    .side
                    .is_none_or(|s| side.challenger == (s == ChallengeSide::Challenger));
                if !side_fits || !finish.is(place, shared, last) {
                    continue;
                }
                let source = if row.source.is_empty() {
                    shape.source.clone()
                } else {
                    row.source.clone()
                };
                self.give_rewards(side.gang, &row.rewards, &row.text, &source, None)?;
            }
        }
        Ok(())
    }

    /// The record's shape.
    pub(super) fn shape(&self) -> Option<&crate::rules::ShapeDef> {
        self.pack
            .record()
            .shapes
            .iter()
            .find(|s| Some(&s.id) == self.battle.shape.as_ref())
    }

    /// What each holding gives its holder in every record it takes part
    /// in (held as the record began).
    pub(super) fn holding_rewards(&mut self) -> Result<(), ReportError> {
        for side in self.battle.gangs.clone() {
            let held: Vec<crate::rules::HoldingDef> = self
                .state
                .season
                .held_by(side.gang)
                .filter_map(|id| self.pack.holding(id))
                .filter(|h| !h.per_record.is_empty())
                .cloned()
                .collect();
            for holding in held {
                let text = format!("held {}", holding.name);
                self.give_rewards(
                    side.gang,
                    &holding.per_record,
                    &text,
                    &holding.source,
                    holding.ruling.as_deref(),
                )?;
            }
        }
        Ok(())
    }

    /// Rewards to a side: a resource to it, or points of a counter to its
    /// members (`to` and `who` as an award's; left out, those who took
    /// part, or every member with the side outside a record).
    pub(super) fn give_rewards(
        &mut self,
        gang: GangId,
        rewards: &[Reward],
        text: &str,
        source: &str,
        ruling: Option<&str>,
    ) -> Result<(), ReportError> {
        for reward in rewards {
            if let Some(amount) = reward.as_amount() {
                self.gain(gang, &amount, 1, None, text, ruling)?;
                continue;
            }
            let Some(counter) = &reward.counter else {
                continue;
            };
            let to = reward.to.clone().unwrap_or_else(|| {
                if self.battle.gangs.is_empty() {
                    "side"
                } else {
                    "took_part"
                }
                .to_owned()
            });
            let award = crate::rules::AwardDef {
                id: String::new(),
                text: text.to_owned(),
                counter: counter.clone(),
                amount: reward.amount,
                to,
                who: reward.who.clone(),
                source: source.to_owned(),
                ruling: ruling.map(str::to_owned),
            };
            self.give_award(&award, Some(gang));
        }
        Ok(())
    }

    /// The holding at stake goes where the shape's rule puts it: to the
    /// side placed first alone, or to the challenger by winning; else it
    /// stays where it was.
    pub(super) fn stake(&mut self) {
        let (Some(holding_id), Some(shape)) = (self.battle.stake.clone(), self.shape().cloned())
        else {
            return;
        };
        let Some(rule) = shape.stake else { return };
        let Some(holding) = self.pack.holding(&holding_id).cloned() else {
            return;
        };
        let holder = self.holders.get(&holding_id).copied();
        let taker = match rule {
            StakeRule::First => self.battle.winner,
            StakeRule::Challenger => self.battle.winner.filter(|w| {
                self.battle
                    .gangs
                    .iter()
                    .any(|g| g.gang == *w && g.challenger)
            }),
        };
        let of = format!("{} #{}", self.pack.record().title(), self.battle.id);
        match taker {
            Some(taker) if holder != Some(taker) => {
                let text = match holder {
                    Some(from) => format!("takes {} from {}", holding.name, self.name(from)),
                    None => format!("takes {}", holding.name),
                };
                self.line(Some(taker), text, &shape.source, shape.ruling.as_deref());
                self.holders.insert(holding_id.clone(), taker);
                self.events.push(Event::HoldingChanged {
                    holding: holding_id,
                    from: holder,
                    to: Some(taker),
                    reason: format!("at stake in {of}"),
                });
            }
            _ => {
                let text = match holder {
                    Some(h) => format!("{} stays with {}", holding.name, self.name(h)),
                    None => format!("{} stays unclaimed", holding.name),
                };
                self.line(None, text, &shape.source, shape.ruling.as_deref());
            }
        }
    }
}
