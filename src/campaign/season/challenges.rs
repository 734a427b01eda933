//! Challenges (`[challenges]`): a gang issues one to another, naming a
//! holding at stake where the pack's rules use one; the defender accepts
//! or declines, and a decline gives what the pack says; a record plays an
//! accepted one; one unplayed at the cycle's end lapses, as the pack says.
//! Pure: each rule reads the season as it stands and gives the events.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{SeasonState, cycle_said};
use crate::campaign::{BattleId, ChallengeId, Event, GangId};
use crate::rules::{
    ChallengeRules, ChallengeStake, Decline, Pack, ShapeDef, StakeFrom, Unanswered, Unplayed,
};

/// A challenge as issued: who challenges whom, in which cycle, and the
/// holding at stake (`[[holdings]]` id), if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub id: ChallengeId,
    pub cycle: u32,
    pub challenger: GangId,
    pub defender: GangId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stake: Option<String>,
}

/// Where a challenge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    /// Issued, not yet answered.
    Issued,
    Accepted,
    Declined,
    /// Unplayed at the end of its cycle.
    Lapsed,
}

impl ChallengeStatus {
    /// The word it is stored and shown as.
    pub fn word(self) -> &'static str {
        match self {
            ChallengeStatus::Issued => "issued",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Lapsed => "lapsed",
        }
    }

    /// Read from its word.
    pub fn from_word(word: &str) -> Option<ChallengeStatus> {
        [
            ChallengeStatus::Issued,
            ChallengeStatus::Accepted,
            ChallengeStatus::Declined,
            ChallengeStatus::Lapsed,
        ]
        .into_iter()
        .find(|s| s.word() == word)
    }
}

/// A challenge as it stands in the season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeState {
    pub challenge: Challenge,
    pub status: ChallengeStatus,
    /// Whether it was accepted (kept once it lapses).
    pub accepted: bool,
    /// The record that played it.
    pub played: Option<BattleId>,
}

impl ChallengeState {
    /// Still to be answered or played.
    pub fn open(&self) -> bool {
        self.played.is_none()
            && matches!(
                self.status,
                ChallengeStatus::Issued | ChallengeStatus::Accepted
            )
    }
}

/// Why a challenge, an answer or a record from one is refused: the field
/// at fault and the reason.
pub type Refused = (String, String);

fn refuse<T>(field: &str, reason: impl Into<String>) -> Result<T, Refused> {
    Err((field.to_owned(), reason.into()))
}

/// The pack's challenges and the shape they are played as.
pub fn rules(pack: &Pack) -> Result<(&ChallengeRules, &ShapeDef), Refused> {
    let Some(rules) = &pack.challenges else {
        return refuse(
            "challenge",
            format!("{} has no [challenges]", pack.pack.name),
        );
    };
    match pack.record().shape(&rules.shape) {
        Some(shape) => Ok((rules, shape)),
        None => refuse(
            "challenge",
            format!("{} has no shape `{}`", pack.pack.name, rules.shape),
        ),
    }
}

/// Whether a holding held by `holder` may be at stake in a record of
/// `shape` whose defender is `defender` (a challenge) and whose sides are
/// `sides`.
pub fn may_stake(
    shape: &ShapeDef,
    holder: Option<GangId>,
    defender: Option<GangId>,
    sides: &[GangId],
) -> bool {
    shape.stake_from.is_empty()
        || shape.stake_from.iter().any(|from| match from {
            StakeFrom::Defender => holder.is_some() && holder == defender,
            StakeFrom::Sides => holder.is_some_and(|h| sides.contains(&h)),
            StakeFrom::Unclaimed => holder.is_none(),
            StakeFrom::Anyone => holder.is_some(),
        })
}

/// Where a shape may take its stake from, in words.
pub fn stake_from_said(shape: &ShapeDef) -> String {
    let may: Vec<&str> = shape
        .stake_from
        .iter()
        .map(|f| match f {
            StakeFrom::Defender => "held by the defender",
            StakeFrom::Sides => "held by a side",
            StakeFrom::Unclaimed => "unclaimed",
            StakeFrom::Anyone => "held by a rival",
        })
        .collect();
    may.join(" or ")
}

/// Checks a challenge about to be issued, where the season stands: the
/// pack has challenges, two gangs, this cycle, no more than a gang may
/// issue in one, and a stake as the pack says. `name` gives a gang's name.
pub fn check_issue(
    pack: &Pack,
    season: &SeasonState,
    challenge: &Challenge,
    name: &dyn Fn(GangId) -> String,
) -> Result<(), Refused> {
    let (rules, shape) = rules(pack)?;
    let label = &rules.label;
    if challenge.challenger == challenge.defender {
        return refuse(
            "gangs",
            format!("a {} does not issue a {label} to itself", pack.words.gang),
        );
    }
    if challenge.cycle != season.cycle {
        return refuse(
            "cycle",
            format!(
                "this is {}, not {}",
                cycle_said(&pack.words, season.cycle),
                cycle_said(&pack.words, challenge.cycle)
            ),
        );
    }
    if let Some(most) = rules.per_cycle {
        let issued = season
            .challenges
            .iter()
            .filter(|c| {
                c.challenge.challenger == challenge.challenger
                    && c.challenge.cycle == challenge.cycle
                    && c.challenge.id != challenge.id
            })
            .count();
        if issued >= most as usize {
            return refuse(
                "challenger",
                format!(
                    "{} has issued {issued} this {} already, its most",
                    name(challenge.challenger),
                    pack.words.cycle
                ),
            );
        }
    }
    match (rules.stake_rule(Some(shape)), &challenge.stake) {
        (ChallengeStake::Required, None) => refuse(
            "stake",
            format!(
                "missing: the {} at stake, which every {label} names",
                pack.words.holding
            ),
        ),
        (ChallengeStake::None, Some(_)) => {
            refuse("stake", format!("nothing is at stake in a {label}"))
        }
        (_, None) => Ok(()),
        (_, Some(stake)) => {
            let Some(holding) = pack.holding(stake) else {
                return refuse(
                    "stake",
                    format!(
                        "`{}` is not a {} of {}",
                        crate::text::echo(stake),
                        pack.words.holding,
                        pack.pack.name
                    ),
                );
            };
            let holder = season.holders.get(stake).copied();
            let sides = [challenge.challenger, challenge.defender];
            if may_stake(shape, holder, Some(challenge.defender), &sides) {
                return Ok(());
            }
            let held = holder.map_or_else(
                || "unclaimed".to_owned(),
                |h| format!("held by {}", name(h)),
            );
            refuse(
                "stake",
                format!(
                    "{} is {held}; a {label} is played for one {}",
                    holding.name,
                    stake_from_said(shape)
                ),
            )
        }
    }
}

/// The challenge of that id, where the season has it.
pub fn find(season: &SeasonState, id: ChallengeId) -> Result<&ChallengeState, Refused> {
    season
        .challenges
        .iter()
        .find(|c| c.challenge.id == id)
        .map_or_else(
            || refuse("challenge", format!("there is no challenge #{id}")),
            Ok,
        )
}

/// Checks an answer to a challenge: one still unanswered, and, where a
/// gang declines once a cycle, its first decline of the cycle.
pub fn check_answer(
    pack: &Pack,
    season: &SeasonState,
    id: ChallengeId,
    accepted: bool,
    name: &dyn Fn(GangId) -> String,
) -> Result<(), Refused> {
    let (rules, _) = rules(pack)?;
    let state = find(season, id)?;
    if state.status != ChallengeStatus::Issued {
        return refuse(
            "challenge",
            format!("{} #{id} is {} already", rules.label, state.status.word()),
        );
    }
    if accepted || rules.decline != Decline::OnceACycle {
        return Ok(());
    }
    let defender = state.challenge.defender;
    let declined = season.challenges.iter().any(|c| {
        c.challenge.defender == defender
            && c.challenge.cycle == season.cycle
            && c.status == ChallengeStatus::Declined
            && c.challenge.id != id
    });
    if declined {
        return refuse(
            "accepted",
            format!(
                "{} has declined a {} this {} already, and declines one a {} at most",
                name(defender),
                rules.label,
                pack.words.cycle,
                pack.words.cycle
            ),
        );
    }
    Ok(())
}

/// Answers a challenge: the answer, and what a decline gives (the stake
/// to the challenger, where the pack says so and it may still be at
/// stake). `holders` is who holds each holding now.
pub fn answer(
    pack: &Pack,
    season: &SeasonState,
    id: ChallengeId,
    accepted: bool,
    name: &dyn Fn(GangId) -> String,
) -> Result<Vec<Event>, Refused> {
    check_answer(pack, season, id, accepted, name)?;
    let (rules, shape) = rules(pack)?;
    let state = find(season, id)?;
    let mut events = vec![Event::ChallengeAnswered {
        challenge: id,
        accepted,
    }];
    if !accepted && rules.decline == Decline::StakeToChallenger {
        let reason = format!("{} #{id} declined", rules.label);
        events.extend(stake_to_challenger(
            shape,
            &state.challenge,
            &season.holders,
            &reason,
        ));
    }
    Ok(events)
}

/// The holding at stake in a challenge given to its challenger, where it
/// may still be at stake (the defender still holds it, or no one does, as
/// the shape allows) and the challenger does not hold it already.
pub fn stake_to_challenger(
    shape: &ShapeDef,
    challenge: &Challenge,
    holders: &BTreeMap<String, GangId>,
    reason: &str,
) -> Option<Event> {
    let stake = challenge.stake.as_ref()?;
    let holder = holders.get(stake).copied();
    let sides = [challenge.challenger, challenge.defender];
    (holder != Some(challenge.challenger)
        && may_stake(shape, holder, Some(challenge.defender), &sides))
    .then(|| Event::HoldingChanged {
        holding: stake.clone(),
        from: holder,
        to: Some(challenge.challenger),
        reason: reason.to_owned(),
    })
}

/// What a challenge unplayed at its cycle's end does: it lapses, and
/// gives the stake to the challenger where the pack says so (one never
/// answered counting as declined, or one accepted and not played).
/// `holders` is who holds each holding as the end stands.
pub fn lapse(
    pack: &Pack,
    state: &ChallengeState,
    holders: &BTreeMap<String, GangId>,
) -> Vec<Event> {
    let Ok((rules, shape)) = rules(pack) else {
        return Vec::new();
    };
    let id = state.challenge.id;
    let mut events = vec![Event::ChallengeLapsed {
        challenge: id,
        accepted: state.accepted,
    }];
    let gives = match state.status {
        ChallengeStatus::Issued => {
            rules.unanswered == Unanswered::Declined && rules.decline == Decline::StakeToChallenger
        }
        ChallengeStatus::Accepted => rules.unplayed == Unplayed::StakeToChallenger,
        _ => false,
    };
    if gives {
        let reason = format!("{} #{id} unplayed", rules.label);
        events.extend(stake_to_challenger(
            shape,
            &state.challenge,
            holders,
            &reason,
        ));
    }
    events
}

/// The challenge a batch answers, and how, where it is an answer (its
/// first event).
pub fn answer_of(events: &[Event]) -> Option<(ChallengeId, bool)> {
    match events.first() {
        Some(Event::ChallengeAnswered {
            challenge,
            accepted,
        }) => Some((*challenge, *accepted)),
        _ => None,
    }
}

/// Checks a challenge's status is what an event expects: `want` for an
/// answer taken back, a lapse or a lapse taken back.
pub fn check_status(
    pack: &Pack,
    season: &SeasonState,
    id: ChallengeId,
    want: &[ChallengeStatus],
) -> Result<(), Refused> {
    let label = pack
        .challenges
        .as_ref()
        .map_or("challenge", |c| c.label.as_str());
    let state = find(season, id)?;
    if !want.contains(&state.status) {
        return refuse(
            "challenge",
            format!("{label} #{id} is {}", state.status.word()),
        );
    }
    if state.played.is_some() {
        return refuse("challenge", format!("{label} #{id} has been played"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{CountRange, ShapeResult};

    fn shape(stake_from: Vec<StakeFrom>) -> ShapeDef {
        ShapeDef {
            id: "c".into(),
            label: "C".into(),
            sides: CountRange::Exactly(2),
            result: ShapeResult::Challenge,
            draws: false,
            stake: Some(crate::rules::StakeRule::Challenger),
            stake_from,
            places: Vec::new(),
            source: String::new(),
            ruling: None,
        }
    }

    #[test]
    fn a_stake_may_be_held_where_the_shape_says() {
        let (a, b, c) = (GangId(1), GangId(2), GangId(3));
        let defender = shape(vec![StakeFrom::Defender, StakeFrom::Unclaimed]);
        assert!(may_stake(&defender, Some(b), Some(b), &[a, b]));
        assert!(may_stake(&defender, None, Some(b), &[a, b]));
        assert!(!may_stake(&defender, Some(c), Some(b), &[a, b]));
        assert!(!may_stake(&defender, Some(a), Some(b), &[a, b]));
        assert!(may_stake(&shape(Vec::new()), Some(c), Some(b), &[a, b]));
    }

    #[test]
    fn a_stake_goes_to_the_challenger_only_from_where_it_may_be() {
        let challenge = Challenge {
            id: ChallengeId(1),
            cycle: 1,
            challenger: GangId(1),
            defender: GangId(2),
            stake: Some("quay".into()),
        };
        let s = shape(vec![StakeFrom::Defender]);
        let mut holders = BTreeMap::new();
        assert_eq!(stake_to_challenger(&s, &challenge, &holders, "r"), None);
        holders.insert("quay".to_owned(), GangId(2));
        assert_eq!(
            stake_to_challenger(&s, &challenge, &holders, "r"),
            Some(Event::HoldingChanged {
                holding: "quay".into(),
                from: Some(GangId(2)),
                to: Some(GangId(1)),
                reason: "r".into()
            })
        );
        holders.insert("quay".to_owned(), GangId(3));
        assert_eq!(stake_to_challenger(&s, &challenge, &holders, "r"), None);
    }
}
