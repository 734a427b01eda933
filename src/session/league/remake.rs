//! Records, and answers to challenges, made again on every laptop. From
//! format 6 an answer carries exactly what answering gives where it
//! lands (a decline, the stake to the challenger where the game says so).
//! From format 4 a league's record
//! carries the report and dice it was made from, and every laptop takes it
//! in only when they give exactly its events on the campaign as it stood
//! before it (`campaign::battle::remade`): a record that also renames,
//! writes notes, transfers a fighter or gives a resource its procedure
//! does not give is left out, alike everywhere. A laptop sending a record
//! after the league's new batches makes it again on the campaign those
//! left, so that what it sends is what the others work out.

use std::collections::BTreeSet;

use crate::campaign::battle::{Shift, recorded, remade};
use crate::campaign::gate::Gate;
use crate::campaign::season::challenges::{self, answer_of};
use crate::campaign::{BatchId, Event, LoggedBatch};
use crate::rules::Registry;
use crate::store::league::ServerBatch;
use crate::store::{Appender as _, BatchName, Link, Replayed, Rewound};

use super::sync::PacksAsAppended;

use super::super::procedure_state;

/// The first format whose records every laptop makes again.
pub(crate) const REMADE_FROM: i64 = 4;

/// The batches of `server` written in a format whose records are made
/// again.
pub(super) fn judged(server: &[ServerBatch]) -> BTreeSet<BatchId> {
    server
        .iter()
        .filter(|b| b.format >= REMADE_FROM)
        .map(|b| BatchId(b.seq))
        .collect()
}

/// Whether `batch` is made again before it is taken in: a record, from
/// its report and dice, or an answer to a challenge, from the challenge
/// (a redo is the change it takes back again, and is judged as an undo).
pub(super) fn is_made_again(batch: &LoggedBatch) -> bool {
    batch.undoes.is_none()
        && (recorded(&batch.events).is_some() || answer_of(&batch.events).is_some())
}

/// Whether `batch`, of a judged format, is judged before it is taken in:
/// a record or an answer, made again; an undo, which carries exactly what
/// taking its change back gives.
pub(super) fn is_judged(batch: &LoggedBatch) -> bool {
    batch.undoes.is_some() || is_made_again(batch)
}

/// Why the judged `batch` is not taken in where `store` stands, if it is
/// not: a record whose report and dice give other events here, or none;
/// an undo that carries other than taking its change back gives.
pub(super) fn refused(
    store: &impl Replayed,
    registry: &Registry,
    batch: &LoggedBatch,
) -> crate::store::Result<Option<String>> {
    if let Some(undone) = batch.undoes {
        return Ok(match store.taking_back(undone) {
            Ok(events) => difference(
                &events,
                &batch.events,
                &format!("taking back change {undone}"),
            ),
            Err(err) => Some(err.to_string()),
        });
    }
    if let Some((challenge, accepted)) = answer_of(&batch.events) {
        return Ok(match answered_here(store, registry, challenge, accepted)? {
            Ok(events) => difference(&events, &batch.events, "answering the challenge"),
            Err(why) => Some(why),
        });
    }
    if recorded(&batch.events).is_none() {
        return Ok(None);
    }
    Ok(match remade_here(store, registry, &batch.events)? {
        Ok(events) => difference(&events, &batch.events, "its report and dice"),
        Err(why) => Some(why),
    })
}

/// The events answering a challenge gives where `store` stands (a
/// decline, what the game gives for one), or why it may not be answered
/// so here.
fn answered_here(
    store: &impl Replayed,
    registry: &Registry,
    challenge: crate::campaign::ChallengeId,
    accepted: bool,
) -> crate::store::Result<Result<Vec<Event>, String>> {
    let ground = store.ground();
    let season = ground.season(false)?;
    let Ok(found) = challenges::find(&season, challenge) else {
        return Ok(Err(format!(
            "it answers challenge #{challenge}, which is not here"
        )));
    };
    let gangs = ground.gangs_by_ids(&[found.challenge.challenger, found.challenge.defender])?;
    let Some(pack) = gangs
        .iter()
        .find(|g| g.id == found.challenge.challenger)
        .and_then(|g| registry.get(&g.ruleset))
    else {
        return Ok(Err("its rules are not on this laptop".to_owned()));
    };
    let name = |g: crate::campaign::GangId| {
        gangs
            .iter()
            .find(|x| x.id == g)
            .map_or_else(|| format!("#{g}"), |x| x.name.clone())
    };
    Ok(
        challenges::answer(pack, &season, challenge, accepted, &name)
            .map_err(|(_, reason)| format!("it may not be answered so here ({reason})")),
    )
}

/// The record `batch` of this laptop's, made again where `store` stands:
/// its events as its report and dice give them now, or why they give
/// none here (every other laptop would leave it out).
pub(super) fn made_again(
    store: &impl Replayed,
    registry: &Registry,
    batch: LoggedBatch,
) -> crate::store::Result<Result<LoggedBatch, String>> {
    if let Some((challenge, accepted)) = answer_of(&batch.events) {
        return Ok(answered_here(store, registry, challenge, accepted)?
            .map(|events| LoggedBatch { events, ..batch }));
    }
    if recorded(&batch.events).is_none() {
        return Ok(Ok(batch));
    }
    Ok(remade_here(store, registry, &batch.events)?.map(|events| LoggedBatch { events, ..batch }))
}

/// The events a record's report and dice give where `store` stands, or
/// why they give none here.
fn remade_here(
    store: &impl Replayed,
    registry: &Registry,
    events: &[Event],
) -> crate::store::Result<Result<Vec<Event>, String>> {
    let Some(battle) = recorded(events) else {
        return Ok(Err("it records nothing".to_owned()));
    };
    let Some(pack) = registry.get(&battle.ruleset) else {
        return Ok(Err(format!(
            "its rules (“{}”) are not on this laptop",
            battle.ruleset
        )));
    };
    let Some(made) = &battle.played.made else {
        return Ok(Err(
            "it does not carry the report and dice it was made from".to_owned(),
        ));
    };
    let state = procedure_state::state_for(store.ground(), registry, Some(pack), &made.report)
        .map_err(|err| match err.downcast::<crate::store::StoreError>() {
            Ok(err) => err,
            Err(err) => crate::store::StoreError::Conflict(err.to_string()),
        })?;
    Ok(remade(pack, &state, events))
}

/// What `verify` holds each batch of a league's campaign to as its
/// replay comes to it, as every laptop held it when it came in: a record
/// of a format whose records are made again gives, from its report and
/// dice, exactly the events it carries; an answer, what answering gives;
/// an undo, what taking its change back gives.
pub(crate) struct Judging<'b> {
    base: &'b Registry,
    /// The league's batches held to a format whose records are made
    /// again.
    judged: BTreeSet<BatchId>,
    packs: Option<PacksAsAppended<'static>>,
}

impl<'b> Judging<'b> {
    /// For the league's batches as the file's chain keeps them.
    pub(crate) fn new(base: &'b Registry, links: &[Link]) -> Self {
        Judging {
            base,
            judged: links
                .iter()
                .filter(|l| l.format.is_some_and(|f| f >= REMADE_FROM))
                .map(|l| BatchId(l.seq))
                .collect(),
            packs: None,
        }
    }

    /// Why `batch`, where `replay` has come to it, is not what every
    /// laptop takes in, if it is not.
    pub(crate) fn judge(
        &mut self,
        replay: &impl Replayed,
        batch: &LoggedBatch,
    ) -> crate::store::Result<Option<String>> {
        if !self.judged.contains(&batch.id) || !is_judged(batch) {
            return Ok(None);
        }
        let packs = match &mut self.packs {
            Some(packs) => {
                packs.follow(self.base, replay)?;
                packs
            }
            None => self.packs.insert(PacksAsAppended::read(self.base, replay)?),
        };
        Ok(refused(replay, packs.registry(), batch)?.map(|why| {
            format!(
                "the league's change {} “{}” is not what a laptop takes in: {why}",
                batch.id,
                crate::text::one_line(&batch.label)
            )
        }))
    }
}

/// How a batch's events differ from those `by` gives, in a line naming
/// the first event that differs; `None` where they agree.
fn difference(given: &[Event], carried: &[Event], by: &str) -> Option<String> {
    let at = given
        .iter()
        .zip(carried)
        .position(|(g, c)| g != c)
        .or_else(|| (given.len() != carried.len()).then(|| given.len().min(carried.len())))?;
    Some(match (given.get(at), carried.get(at)) {
        (_, Some(carried)) if !given.iter().any(|g| g.kind() == carried.kind()) => {
            format!("it carries “{}”, not given by {by}", carried.kind())
        }
        (Some(given), Some(carried)) => format!(
            "its event {} (“{}”) is not the “{}” given by {by}",
            at + 1,
            carried.kind(),
            given.kind()
        ),
        (None, Some(carried)) => format!(
            "it carries “{}” beyond the events given by {by}",
            carried.kind()
        ),
        (Some(given), None) => format!("it lacks the “{}” given by {by}", given.kind()),
        (None, None) => return None,
    })
}

/// A change of this laptop's that the league's new changes leave
/// unplayable: its number here, its label, and why.
pub(super) struct Unfit {
    pub number: Option<BatchId>,
    pub change: String,
    pub reason: String,
}

/// Appends this laptop's batches (`mine`, each once `was` here) after the
/// league's new ones, one at a time: each record made again where it now
/// stands, the later changes of the numbers it steps moved with it. Where
/// a record no longer plays, or a later change no longer fits what a
/// record made again left, why, naming what to take back: the caller then
/// takes nothing in.
pub(super) fn append_made_again(
    file: &mut Rewound<'_>,
    base: &Registry,
    registry: &Registry,
    mine: &[LoggedBatch],
    names: &[BatchName],
    was: &[Option<BatchId>],
    head: i64,
) -> crate::store::Result<Result<(), Unfit>> {
    let mut shift = Shift::default();
    let mut otherwise: Option<String> = None;
    for ((planned, name), was) in mine.iter().zip(names).zip(was) {
        let planned = LoggedBatch {
            events: shift.apply(&planned.events),
            ..planned.clone()
        };
        let batch = if is_made_again(&planned) {
            match made_again(file, registry, planned.clone())? {
                Ok(batch) => {
                    shift.add(&planned.events, &batch.events);
                    if batch.events != planned.events {
                        otherwise = Some(planned.label.clone());
                    }
                    batch
                }
                Err(why) => {
                    return Ok(Err(Unfit {
                        number: *was,
                        change: planned.label,
                        reason: format!("no longer plays: {why}"),
                    }));
                }
            }
        } else {
            planned
        };
        let mut gate = Gate::new(base, registry);
        let appended = file.append(
            std::slice::from_ref(&batch),
            std::slice::from_ref(name),
            &[],
            head,
            &super::sync::now(),
            &mut |state, e, back| gate.check(state, e, back),
        );
        if let (Err(err), Some(record)) = (&appended, &otherwise) {
            return Ok(Err(Unfit {
                number: *was,
                change: batch.label,
                reason: format!("no longer fits what the record “{record}” now gives ({err})"),
            }));
        }
        appended?;
    }
    Ok(Ok(()))
}
