//! Merging two copies of one campaign that parted: the batches both logs
//! share, then this copy's own, then the other copy's replayed after them
//! in the order they were made, with what each copy created given ids of
//! its own and every conflict put to the player.
//!
//! A conflict is one thing both copies changed since they parted (the same
//! fighter's lasting effects, the same gang's Supply): nothing about it is
//! merged until the player chooses this copy's, the other's, or (where a
//! number or a list can hold both) both. Pure: logs in, a log out; the
//! store replays it into a new file and checks every event as it goes.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;

use super::battle::Battle;
use super::{
    BatchId, BattleId, ChallengeId, EffectId, Event, Fighter, FighterId, FighterStatus, Gang,
    GangId, LastingEffect, LoggedBatch, Names, PendingEffect, PendingId, QuirkPick,
};

/// Why two logs cannot be merged as asked.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MergeError {
    #[error("the two files are not copies of one campaign: their logs share no beginning")]
    NotCopies,
    #[error("conflict {0} is not chosen (this copy's, the other's, or both)")]
    Unchosen(usize),
    #[error(
        "conflict {0}: only a number or lasting effects can keep both; choose this copy's or the other's"
    )]
    NotBoth(usize),
    #[error("there is no conflict {0} (there are {1})")]
    NoSuchConflict(usize, usize),
    #[error("conflict {0}: keeping both gives a number too large to keep")]
    Overflow(usize),
    #[error(
        "conflict {0}: keeping both takes the number past its floor or bounds; choose this copy's or the other's"
    )]
    PastBounds(usize),
    #[error(
        "{by} took back {what} (“{label}”), which {other} changed since the copies parted: take it back there too, or bring it back here, then merge again"
    )]
    TakenBack {
        by: &'static str,
        other: &'static str,
        what: String,
        label: String,
    },
}

/// Whose a thing is: the campaign's, a gang's, a fighter's, or a promised
/// effect's.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "of", content = "id")]
pub enum Owner {
    Campaign,
    Gang(GangId),
    Fighter(FighterId),
    Pending(PendingId),
}

/// Which of its things.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "aspect", content = "id")]
pub enum Aspect {
    Name,
    Notes,
    Ruleset,
    Setting(String),
    HousePack(String),
    Title(String),
    Resource(String),
    Counter(String),
    BaseStat(String),
    /// The gang a fighter is in, and whether they lead it.
    Place,
    Quirks,
    Status,
    Photo,
    LastingEffects,
    /// Whether a promised effect was used.
    Use,
    /// Whether a fighter is still in the campaign: one copy dismissed them
    /// and the other changed them.
    Presence,
    /// Who holds a holding.
    Holding(String),
    /// Which cycle the campaign is in.
    Cycle,
    /// A gang's faction.
    Faction,
    /// Which faction holds a title.
    FactionTitle(String),
    /// Where a challenge stands (answered, lapsed).
    Challenge(ChallengeId),
    /// A cycle's pairings.
    Pairings(u32),
}

/// One thing an event changes, for telling whether both copies changed it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Key {
    pub owner: Owner,
    pub aspect: Aspect,
}

impl Key {
    /// Whether both copies' changes can be kept together: numbers add up,
    /// lasting effects sit side by side, entries gained and lost on each
    /// side are gained and lost.
    /// Whether a record works it out from the whole campaign (a title, a
    /// holding won at stake, the cycle, a faction's title) rather than
    /// from its own report: a record made again where it lands works it
    /// out anew, so it is no copy's change to conflict with.
    pub fn worked_out_by_record(&self) -> bool {
        matches!(
            self.aspect,
            Aspect::Title(_)
                | Aspect::Holding(_)
                | Aspect::Cycle
                | Aspect::FactionTitle(_)
                | Aspect::Challenge(_)
        )
    }

    pub fn can_keep_both(&self) -> bool {
        matches!(
            self.aspect,
            Aspect::Resource(_) | Aspect::Counter(_) | Aspect::LastingEffects | Aspect::Quirks
        )
    }

    /// The thing in words: `Rook: lasting effects`, `Ash Dogs: Supply`.
    pub fn describe(&self, names: &Names) -> String {
        let owner = match &self.owner {
            Owner::Campaign => "The campaign".to_owned(),
            Owner::Gang(g) => names.gang(*g),
            Owner::Fighter(f) => names.fighter(*f),
            Owner::Pending(p) => format!("promised effect #{p}"),
        };
        let aspect = match &self.aspect {
            Aspect::Name => "name".to_owned(),
            Aspect::Notes => "notes".to_owned(),
            Aspect::Ruleset => "ruleset pack".to_owned(),
            Aspect::Setting(s) => format!("setting {}", names.label(s)),
            Aspect::HousePack(p) => format!("house pack {p}"),
            Aspect::Title(t) => names.label(t),
            Aspect::Resource(r) => names.resource(r),
            Aspect::Counter(c) => names.counter(c),
            Aspect::BaseStat(s) => names.label(s),
            Aspect::Place => format!("{} and {} mark", names.words.gang, names.words.leader),
            Aspect::Quirks => names.words.entries.clone(),
            Aspect::Status => "status".to_owned(),
            Aspect::Photo => "photo".to_owned(),
            Aspect::LastingEffects => "lasting effects".to_owned(),
            Aspect::Use => "use".to_owned(),
            Aspect::Presence => "dismissed in one copy, changed in the other".to_owned(),
            Aspect::Holding(h) => names.label(h),
            Aspect::Cycle => names.words.cycle.clone(),
            Aspect::Faction => names.words.faction.clone(),
            Aspect::FactionTitle(t) => names.label(t),
            Aspect::Challenge(c) => format!("{} #{c}", names.challenge()),
            Aspect::Pairings(cycle) => {
                format!("{} of {} {cycle}", names.pairings(), names.words.cycle)
            }
        };
        format!("{owner}: {aspect}")
    }
}

/// What the player chose for a conflict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// This copy's changes stand; the other's to this thing are left out.
    Ours,
    /// This copy's changes to it are taken back and the other's made.
    Theirs,
    /// Both: the other's change added to this copy's number, or its
    /// lasting effects beside this copy's.
    Both,
}

/// One thing both copies changed since they parted, with each copy's
/// changes to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub key: Key,
    pub ours: Vec<Event>,
    pub theirs: Vec<Event>,
    /// For a number: the other copy's changes made one by one on this
    /// copy's value, each `(from, to)` (each by the rule that made it: a
    /// record's loss held at the floor), or the first value one of them
    /// would take past the number's floor or bounds.
    kept: Option<Result<Vec<(i64, i64)>, i64>>,
}

impl Conflict {
    /// The number both copies' changes make together, as `from → to`,
    /// where the thing is a number.
    pub fn both_value(&self) -> Option<(i64, i64)> {
        let now = self.ours.last().and_then(numbers)?.1;
        match &self.kept {
            Some(Ok(made)) => return Some((now, made.last().map_or(now, |m| m.1))),
            Some(Err(past)) => return Some((now, *past)),
            None => {}
        }
        let delta = self.theirs.iter().try_fold(0i64, |sum, e| {
            let (from, to) = numbers(e)?;
            sum.checked_add(to.checked_sub(from)?)
        })?;
        Some((now, now.checked_add(delta)?))
    }

    /// Whether both copies' changes hold at once: lasting effects and
    /// entries always; numbers where each of the other copy's changes,
    /// made in turn on this copy's value by the rule that made it, gives
    /// one the number may take.
    fn holds_together(&self) -> bool {
        match self.key.aspect {
            Aspect::LastingEffects | Aspect::Quirks => true,
            // Wounded in each copy's battle: the later wound stands.
            Aspect::Status => match (self.ours.last(), self.theirs.last()) {
                (
                    Some(Event::FighterStatusChanged { to: a, .. }),
                    Some(Event::FighterStatusChanged { to: b, .. }),
                ) => same_kind(a, b),
                _ => false,
            },
            Aspect::Resource(_) | Aspect::Counter(_) => matches!(self.kept, Some(Ok(_))),
            _ => false,
        }
    }
}

/// What a merge would do: where the copies parted, what each did since,
/// the ids the other copy's new things take, and the conflicts.
#[derive(Debug, Clone)]
pub struct MergePlan {
    /// The last batch both logs hold.
    pub parted_after: BatchId,
    /// This copy's batches since.
    pub ours: Vec<LoggedBatch>,
    /// The other copy's batches since, ids already made this copy's.
    pub theirs: Vec<LoggedBatch>,
    /// The other copy's new gangs, fighters and records, with the ids they
    /// take here: `(theirs, here)`.
    pub gangs: Vec<(GangId, GangId)>,
    pub fighters: Vec<(FighterId, FighterId)>,
    pub battles: Vec<(BattleId, BattleId)>,
    pub conflicts: Vec<Conflict>,
    /// What both copies changed in ways that hold together (each spent
    /// some of a resource the floor allows both, each added a lasting
    /// effect): both copies' changes are kept without asking.
    pub composed: Vec<Conflict>,
    /// What both copies changed to the same value (a title both gave the
    /// same gang, a fighter both dismissed): kept once, as this copy made
    /// it.
    pub agreed: Vec<Key>,
    /// What the other copy changed and changed back, which this copy
    /// changed: nothing of theirs to make.
    pub came_back: Vec<Key>,
    /// The other copy's batches that took back a shared change just as
    /// this copy did: left out, this copy's stands.
    pub both_took_back: HashSet<BatchId>,
    /// The other copy's batches since the parting that it took back again
    /// since (a change and its undo, undone in turn): left out, they change
    /// nothing.
    pub taken_back_there: HashSet<BatchId>,
    /// Each lasting effect's fighter, in both copies (ids made this copy's).
    owners: HashMap<EffectId, FighterId>,
}

/// Whether a number (a resource or counter, named by its key) may take a
/// value: its pack's floor and bounds.
pub type Within<'a> = &'a dyn Fn(&Key, i64) -> bool;

/// What becomes of the other copy's records where they land: kept as
/// they are (a merge of two copies), or made again from their report and
/// dice (a league's rebase), working out anew what they work out from the
/// whole campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Records {
    Kept,
    MadeAgain,
}

/// The plan for merging `theirs` into `ours` (each a whole log, oldest
/// first). What both copies changed is kept without asking where both
/// changes can hold at once (numbers `within` their bounds, lasting
/// effects, entries), and is a conflict where they cannot.
pub fn plan(
    ours: &[LoggedBatch],
    theirs: &[LoggedBatch],
    within: Within,
) -> Result<MergePlan, MergeError> {
    let shared = ours.iter().zip(theirs).take_while(|(a, b)| a == b).count();
    let (common, our_new) = ours.split_at(shared);
    let parted = Parted::of(common).ok_or(MergeError::NotCopies)?;
    plan_parted(&parted, our_new, &theirs[shared..], within, Records::Kept)
}

/// What both copies held where they parted, as much as a plan needs of
/// it: the last shared batch, the ids standing then, the highest id of
/// each kind ever made, and each lasting effect's fighter. Worked out
/// from the shared log ([`Parted::of`]), or known otherwise (a league's
/// campaign knows it from its state, without reading its whole log).
#[derive(Debug, Clone, Default)]
pub struct Parted {
    pub after: BatchId,
    pub standing: Alive,
    pub tops: Tops,
    pub owners: HashMap<EffectId, FighterId>,
}

/// The highest id of each kind a log ever made (0 for none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tops {
    pub gangs: i64,
    pub fighters: i64,
    pub battles: i64,
    pub effects: i64,
    pub pending: i64,
    pub challenges: i64,
}

impl Parted {
    /// Where two copies parted after the shared log `common`; none for a
    /// log with no batch (they are not copies).
    pub fn of(common: &[LoggedBatch]) -> Option<Parted> {
        let last = common.last()?;
        let made = Alive::made(common);
        let top = |ids: &BTreeSet<i64>| ids.last().copied().unwrap_or(0);
        Some(Parted {
            after: last.id,
            standing: Alive::of(common),
            tops: Tops {
                gangs: top(&made.gangs),
                fighters: top(&made.fighters),
                battles: top(&made.battles),
                effects: top(&made.effects),
                pending: top(&made.pending),
                challenges: top(&made.challenges),
            },
            owners: effect_owners(common.iter()),
        })
    }
}

/// [`plan`] from where the copies parted: `our_new` this copy's batches
/// since, `their_new` the other copy's. Costs what the copies did since
/// they parted, not the shared log.
pub fn plan_parted(
    parted: &Parted,
    our_new: &[LoggedBatch],
    their_new: &[LoggedBatch],
    within: Within,
    records: Records,
) -> Result<MergePlan, MergeError> {
    let parted_after = parted.after;
    let mut ids = Remap::parted(parted, our_new);
    let their_new: Vec<LoggedBatch> = their_new.iter().map(|b| ids.batch(b)).collect();
    // A batch both copies took back alike (the same shared change undone
    // the same way) counts once: this copy's.
    let both_took_back: HashSet<BatchId> = their_new
        .iter()
        .filter(|t| {
            t.undoes.is_some_and(|u| u <= parted_after)
                && our_new
                    .iter()
                    .any(|o| o.undoes == t.undoes && o.events == t.events)
        })
        .map(|t| t.id)
        .collect();
    let ours_kept: Vec<LoggedBatch> = our_new
        .iter()
        .filter(|o| {
            !their_new
                .iter()
                .any(|t| both_took_back.contains(&t.id) && t.undoes == o.undoes)
        })
        .cloned()
        .collect();
    let theirs_kept: Vec<LoggedBatch> = their_new
        .iter()
        .filter(|t| !both_took_back.contains(&t.id))
        .cloned()
        .collect();
    // What the other copy made and took back again since they parted (a
    // gang founded and undone) changes nothing: it is left out.
    let taken_back_there = undone_there(&theirs_kept);
    let theirs_kept: Vec<LoggedBatch> = theirs_kept
        .into_iter()
        .filter(|t| !taken_back_there.contains(&t.id))
        .collect();
    let mut owners = parted.owners.clone();
    owners.extend(effect_owners(our_new.iter().chain(&their_new)));
    refuse_taken_back(&ours_kept, &theirs_kept, &owners, &ids)?;
    let (mut conflicts, mut agreed) = presence_conflicts(&ours_kept, &theirs_kept, &owners, &ids);
    let settled_fighters: HashSet<FighterId> = conflicts
        .iter()
        .map(|c| &c.key)
        .chain(&agreed)
        .filter_map(|k| match k.owner {
            Owner::Fighter(f) => Some(f),
            _ => None,
        })
        .collect();
    let ours_by_key = changed_by_key(&ours_kept, &owners);
    let mut theirs_by_key = events_by_key(&theirs_kept, &owners);
    if records == Records::MadeAgain {
        let by_hand = events_by_key(&outside_records(&theirs_kept), &owners);
        theirs_by_key.retain(|key, _| !key.worked_out_by_record() || by_hand.contains_key(key));
    }
    let mut steps = number_steps(&theirs_kept, &owners);
    let mut came_back = Vec::new();
    let mut composed = Vec::new();
    for (key, theirs) in theirs_by_key {
        if matches!(key.owner, Owner::Fighter(f) if settled_fighters.contains(&f)) {
            continue;
        }
        let Some(ours) = ours_by_key.get(&key) else {
            continue;
        };
        let kept = steps.remove(&key).and_then(|steps| {
            let now = ours.last().and_then(numbers)?.1;
            Some(compose(now, &steps, &key, within))
        });
        let both = Conflict {
            key,
            ours: ours.clone(),
            theirs,
            kept,
        };
        if comes_back(&both.theirs) {
            // The other copy changed it and back again: nothing of theirs
            // to make, and this copy's change stands.
            came_back.push(both.key);
        } else if both.holds_together() {
            composed.push(both);
        } else if !both.key.can_keep_both() && ends_alike(&both.ours, &both.theirs) {
            agreed.push(both.key);
        } else {
            conflicts.push(both);
        }
    }
    Ok(MergePlan {
        parted_after,
        ours: our_new.to_vec(),
        theirs: their_new,
        gangs: ids.gangs.fresh(),
        fighters: ids.fighters.fresh(),
        battles: ids.battles.fresh(),
        conflicts,
        composed,
        agreed,
        came_back,
        both_took_back,
        taken_back_there,
        owners,
    })
}

/// The fighters one copy dismissed (and did not bring back) where the
/// other copy changed them since: a conflict each, to keep the dismissal
/// or the changes. A fighter both copies dismissed is agreed.
fn presence_conflicts(
    ours: &[LoggedBatch],
    theirs: &[LoggedBatch],
    owners: &HashMap<EffectId, FighterId>,
    ids: &Remap,
) -> (Vec<Conflict>, Vec<Key>) {
    let gone = |batches: &[LoggedBatch]| -> BTreeSet<FighterId> {
        still_taken_back(batches)
            .into_iter()
            .filter_map(|(thing, _)| match thing {
                Thing::Fighter(f) if ids.shared(&thing) => Some(f),
                _ => None,
            })
            .collect()
    };
    let (ours_gone, theirs_gone) = (gone(ours), gone(theirs));
    let mut conflicts = Vec::new();
    let mut agreed = Vec::new();
    for fighter in ours_gone.union(&theirs_gone) {
        let key = Key {
            owner: Owner::Fighter(*fighter),
            aspect: Aspect::Presence,
        };
        if ours_gone.contains(fighter) && theirs_gone.contains(fighter) {
            agreed.push(key);
            continue;
        }
        let ours = about_fighter(ours, *fighter, owners);
        let theirs = about_fighter(theirs, *fighter, owners);
        if !ours.is_empty() && !theirs.is_empty() {
            conflicts.push(Conflict {
                key,
                ours,
                theirs,
                kept: None,
            });
        }
    }
    (conflicts, agreed)
}

/// The events of these batches that change a fighter or roll for them.
fn about_fighter(
    batches: &[LoggedBatch],
    fighter: FighterId,
    owners: &HashMap<EffectId, FighterId>,
) -> Vec<Event> {
    batches
        .iter()
        .flat_map(|b| &b.events)
        .filter(|e| concerns(e, fighter, owners))
        .cloned()
        .collect()
}

/// Whether an event changes a fighter or rolls for them.
fn concerns(event: &Event, fighter: FighterId, owners: &HashMap<EffectId, FighterId>) -> bool {
    event.fighter() == Some(fighter) || touched(event, owners).contains(&Thing::Fighter(fighter))
}

/// Refuses a merge where one copy took back (undid) something both had
/// when they parted that the other copy changed since: neither reading can
/// be made without guessing, and an id freed that way may have been given
/// to something else.
fn refuse_taken_back(
    ours: &[LoggedBatch],
    theirs: &[LoggedBatch],
    owners: &HashMap<EffectId, FighterId>,
    ids: &Remap,
) -> Result<(), MergeError> {
    let sides = [
        (ours, theirs, "this copy", "the other copy"),
        (theirs, ours, "the other copy", "this copy"),
    ];
    for (deleting, other, by, other_name) in sides {
        for (thing, label) in still_taken_back(deleting) {
            // A dismissed fighter the other copy changed is a conflict to
            // choose, not a refusal.
            if !ids.shared(&thing) || matches!(thing, Thing::Fighter(_)) {
                continue;
            }
            if other
                .iter()
                .flat_map(|b| &b.events)
                .any(|e| touched(e, owners).contains(&thing))
            {
                return Err(MergeError::TakenBack {
                    by,
                    other: other_name,
                    what: thing.to_string(),
                    label,
                });
            }
        }
    }
    Ok(())
}

/// A thing with an id in a campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Thing {
    Gang(GangId),
    Fighter(FighterId),
    Battle(BattleId),
    Effect(EffectId),
    Pending(PendingId),
    Challenge(ChallengeId),
}

impl std::fmt::Display for Thing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Thing::Gang(id) => write!(f, "gang #{id}"),
            Thing::Fighter(id) => write!(f, "fighter #{id}"),
            Thing::Battle(id) => write!(f, "record #{id}"),
            Thing::Effect(id) => write!(f, "lasting effect #{id}"),
            Thing::Pending(id) => write!(f, "promised effect #{id}"),
            Thing::Challenge(id) => write!(f, "challenge #{id}"),
        }
    }
}

/// The things a copy's batches took out and did not bring back (a
/// dismissal undone is no dismissal), each with the label of the batch
/// that took it out.
fn still_taken_back(batches: &[LoggedBatch]) -> Vec<(Thing, String)> {
    let mut out: Vec<(Thing, String)> = Vec::new();
    for batch in batches {
        for event in &batch.events {
            if let Some(thing) = deleted(event) {
                out.push((thing, batch.label.clone()));
            } else if let Some(thing) = created(event) {
                out.retain(|(t, _)| *t != thing);
            }
        }
    }
    out
}

/// The thing an event puts (back) into the campaign, if it puts one in.
fn created(event: &Event) -> Option<Thing> {
    use Event::*;
    Some(match event {
        GangFounded { gang } => Thing::Gang(gang.id),
        FighterRecruited { fighter } => Thing::Fighter(fighter.id),
        BattleRecorded { battle } => Thing::Battle(battle.id),
        LastingEffectAdded { effect } => Thing::Effect(effect.id),
        PendingEffectAdded { effect } => Thing::Pending(effect.id),
        ChallengeIssued { challenge } => Thing::Challenge(challenge.id),
        _ => return None,
    })
}

/// The thing an event takes out of the campaign, if it takes one out.
fn deleted(event: &Event) -> Option<Thing> {
    use Event::*;
    Some(match event {
        GangDisbanded { gang } => Thing::Gang(gang.id),
        FighterDismissed { fighter } => Thing::Fighter(fighter.id),
        BattleUnrecorded { battle } => Thing::Battle(battle.id),
        LastingEffectDeleted { effect } => Thing::Effect(effect.id),
        PendingEffectRemoved { effect } => Thing::Pending(effect.id),
        ChallengeWithdrawn { challenge } => Thing::Challenge(challenge.id),
        _ => return None,
    })
}

/// The things an event changes (not those it only names).
fn touched(event: &Event, owners: &HashMap<EffectId, FighterId>) -> Vec<Thing> {
    use Event::*;
    let mut out: Vec<Thing> = deleted(event).into_iter().collect();
    match key_of(event, owners).map(|k| k.owner) {
        Some(Owner::Gang(g)) => out.push(Thing::Gang(g)),
        Some(Owner::Fighter(f)) => out.push(Thing::Fighter(f)),
        Some(Owner::Pending(p)) => out.push(Thing::Pending(p)),
        _ => {}
    }
    match event {
        LastingEffectAdded { effect } => out.push(Thing::Effect(effect.id)),
        LastingEffectRemoved { effect, .. } | LastingEffectRestored { effect, .. } => {
            out.push(Thing::Effect(*effect));
        }
        _ => {}
    }
    out
}

impl MergePlan {
    /// The other copy's batches as they go after this copy's, with every
    /// conflict settled as chosen (`choices[i]` for conflict `i + 1`).
    pub fn resolve(&self, choices: &[Option<Choice>]) -> Result<Vec<LoggedBatch>, MergeError> {
        Ok(self
            .resolve_traced(choices)?
            .into_iter()
            .map(|(_, batch)| batch)
            .collect())
    }

    /// [`MergePlan::resolve`], each batch with the index in
    /// [`MergePlan::theirs`] of the batch it was made from (`None` for this
    /// copy's changes taken back for the other's).
    pub fn resolve_traced(
        &self,
        choices: &[Option<Choice>],
    ) -> Result<Vec<(Option<usize>, LoggedBatch)>, MergeError> {
        let settled = self.settled(choices)?;
        let mut standing = Standing::default();
        // The other copy's batches get ids in the order they go in; an
        // undo follows the batch it takes back, or takes back nothing here.
        let mut next = self.theirs.first().map_or(BatchId(1), |b| b.id);
        let mut renamed: HashMap<BatchId, BatchId> = HashMap::new();
        let mut out = Vec::new();
        for (index, batch) in self.theirs.iter().enumerate() {
            if self.both_took_back.contains(&batch.id) || self.taken_back_there.contains(&batch.id)
            {
                continue;
            }
            let (back, events) = self.settle_batch(batch, &settled, &mut standing)?;
            // This copy's changes taken back as a change of their own, so
            // undo and redo of the other copy's batch stay as they were.
            if !back.is_empty() {
                out.push((
                    None,
                    LoggedBatch {
                        id: next,
                        at: batch.at.clone(),
                        label: format!("Taken back for the other copy's: {}", batch.label),
                        undoes: None,
                        events: back,
                    },
                ));
                next = BatchId(next.0.saturating_add(1));
            }
            if events.is_empty() {
                continue;
            }
            renamed.insert(batch.id, next);
            let undoes = batch.undoes.and_then(|u| {
                if u < self.theirs[0].id {
                    Some(u)
                } else {
                    renamed.get(&u).copied()
                }
            });
            out.push((
                Some(index),
                LoggedBatch {
                    id: next,
                    at: batch.at.clone(),
                    label: batch.label.clone(),
                    undoes,
                    events,
                },
            ));
            next = BatchId(next.0.saturating_add(1));
        }
        Ok(out)
    }

    /// The conflicts as chosen (`choices[i]` for conflict `i + 1`), every
    /// one of them chosen and `Both` only where both can hold; what both
    /// copies changed in ways that hold together kept both ways; what they
    /// agreed on or the other copy changed back passed over.
    fn settled(&self, choices: &[Option<Choice>]) -> Result<Settled<'_>, MergeError> {
        if choices.len() > self.conflicts.len() {
            return Err(MergeError::NoSuchConflict(
                choices.len(),
                self.conflicts.len(),
            ));
        }
        let mut settled = Settled {
            settle: HashMap::new(),
            presence: HashMap::new(),
            skip: self.agreed.iter().chain(&self.came_back).collect(),
        };
        for (i, conflict) in self.conflicts.iter().enumerate() {
            let number = i + 1;
            let choice = choices
                .get(i)
                .copied()
                .flatten()
                .ok_or(MergeError::Unchosen(number))?;
            if choice == Choice::Both && !conflict.key.can_keep_both() {
                return Err(MergeError::NotBoth(number));
            }
            match (&conflict.key.owner, &conflict.key.aspect) {
                (Owner::Fighter(f), Aspect::Presence) => {
                    settled.presence.insert(*f, (Some(conflict), choice));
                }
                _ => {
                    settled
                        .settle
                        .insert(&conflict.key, (conflict, number, choice));
                }
            }
        }
        for conflict in &self.composed {
            settled
                .settle
                .insert(&conflict.key, (conflict, 0, Choice::Both));
        }
        for key in &self.agreed {
            if let (Owner::Fighter(f), Aspect::Presence) = (&key.owner, &key.aspect) {
                settled.presence.insert(*f, (None, Choice::Ours));
            }
        }
        Ok(settled)
    }

    /// One of the other copy's batches as it goes in: this copy's changes
    /// it takes back (where the other copy's were chosen), and its own
    /// events as settled.
    fn settle_batch<'a>(
        &'a self,
        batch: &LoggedBatch,
        settled: &Settled<'a>,
        standing: &mut Standing<'a>,
    ) -> Result<(Vec<Event>, Vec<Event>), MergeError> {
        let owners = &self.owners;
        let mut back = Vec::new();
        let mut events = Vec::new();
        for event in &batch.events {
            if let Some((conflict, choice)) = settled
                .presence
                .iter()
                .find(|(f, _)| concerns(event, **f, owners))
                .map(|(_, settled)| *settled)
            {
                if choice == Choice::Theirs {
                    if let Some(conflict) = conflict
                        && standing.taken_back.insert(&conflict.key)
                    {
                        back.extend(conflict.ours.iter().rev().map(taken_back_event));
                    }
                    events.push(event.clone());
                }
                continue;
            }
            let key = key_of(event, owners);
            let Some((key, (conflict, number, choice))) = key
                .as_ref()
                .and_then(|k| settled.settle.get_key_value(k).map(|(k, c)| (*k, *c)))
            else {
                if !key.as_ref().is_some_and(|k| settled.skip.contains(k)) {
                    events.push(event.clone());
                }
                continue;
            };
            match choice {
                Choice::Ours => {}
                Choice::Theirs => {
                    if standing.taken_back.insert(key) {
                        back.extend(conflict.ours.iter().rev().map(taken_back_event));
                    }
                    events.push(event.clone());
                }
                Choice::Both => standing.keep_both(key, conflict, number, event, &mut events)?,
            }
        }
        Ok((back, events))
    }
}

/// The conflicts of a merge as chosen: each thing's conflict, its number
/// (0 for one that holds both ways without asking) and the choice; each
/// fighter whose presence was in question; the things passed over.
struct Settled<'a> {
    settle: HashMap<&'a Key, (&'a Conflict, usize, Choice)>,
    presence: HashMap<FighterId, (Option<&'a Conflict>, Choice)>,
    skip: HashSet<&'a Key>,
}

/// Where each settled thing stands as the other copy's batches go in.
#[derive(Default)]
struct Standing<'a> {
    numbers_now: HashMap<&'a Key, i64>,
    entries_now: HashMap<&'a Key, Vec<QuirkPick>>,
    statuses_now: HashMap<&'a Key, FighterStatus>,
    taken_back: HashSet<&'a Key>,
    steps_made: HashMap<&'a Key, usize>,
}

impl<'a> Standing<'a> {
    /// One of the other copy's changes to a thing both copies changed,
    /// kept beside this copy's: entries and a status moved from where this
    /// copy left them, a number made as planned (or stepped from this
    /// copy's value), a lasting effect kept unless this copy did the same.
    fn keep_both(
        &mut self,
        key: &'a Key,
        conflict: &Conflict,
        number: usize,
        event: &Event,
        events: &mut Vec<Event>,
    ) -> Result<(), MergeError> {
        if matches!(event, Event::QuirksChanged { .. }) {
            let now = self
                .entries_now
                .entry(key)
                .or_insert_with(|| entries_after(&conflict.ours));
            let (moved, next) = entries_moved(event, now);
            *now = next;
            events.extend(moved);
            return Ok(());
        }
        if matches!(event, Event::FighterStatusChanged { .. }) {
            let now = self
                .statuses_now
                .entry(key)
                .or_insert_with(|| status_after(&conflict.ours));
            let (moved, next) = status_moved(event, now);
            *now = next;
            events.push(moved);
            return Ok(());
        }
        match numbers(event) {
            // Made as planned, one by one on this copy's value.
            Some(_) if conflict.kept.is_some() => {
                let made = match &conflict.kept {
                    Some(Ok(made)) => made,
                    _ => return Err(MergeError::PastBounds(number)),
                };
                let step = self.steps_made.entry(key).or_insert(0);
                let (from, to) = *made.get(*step).ok_or(MergeError::PastBounds(number))?;
                *step = step.saturating_add(1);
                events.push(with_numbers(event, from, to));
            }
            Some((from, to)) => {
                let now = *self.numbers_now.entry(key).or_insert_with(|| {
                    conflict.ours.last().and_then(numbers).map_or(from, |n| n.1)
                });
                let next = to
                    .checked_sub(from)
                    .and_then(|d| now.checked_add(d))
                    .ok_or(MergeError::Overflow(number))?;
                self.numbers_now.insert(key, next);
                events.push(with_numbers(event, now, next));
            }
            // A lasting effect: kept beside this copy's, unless this copy
            // already did the same to the same one.
            None if conflict
                .ours
                .iter()
                .rev()
                .find(|o| effect_of(o) == effect_of(event))
                .is_some_and(|o| same_change(o, event)) => {}
            None => events.push(event.clone()),
        }
        Ok(())
    }
}

/// This copy's change taken back for the other copy's, said so where the
/// change carries a reason.
fn taken_back_event(event: &Event) -> Event {
    const REASON: &str = "merged: the other copy's kept";
    let mut back = event.inverse();
    match &mut back {
        Event::ResourceAdjusted { reason, .. }
        | Event::CounterChanged { reason, .. }
        | Event::FighterStatusChanged { reason, .. }
        | Event::LastingEffectRemoved { reason, .. }
        | Event::LastingEffectRestored { reason, .. } => *reason = REASON.to_owned(),
        _ => {}
    }
    back
}

/// Whether two statuses are of one kind, so that the later of them can
/// stand for both: wounded and wounded, held by the same gang, gone the
/// same way.
fn same_kind(a: &FighterStatus, b: &FighterStatus) -> bool {
    match (a, b) {
        (FighterStatus::Wounded { .. }, FighterStatus::Wounded { .. })
        | (FighterStatus::LaidUp { .. }, FighterStatus::LaidUp { .. }) => true,
        (FighterStatus::Captured { by: x, .. }, FighterStatus::Captured { by: y, .. }) => x == y,
        (FighterStatus::Gone { status: x, .. }, FighterStatus::Gone { status: y, .. }) => x == y,
        _ => false,
    }
}

/// A fighter's status after this copy's changes to it.
fn status_after(ours: &[Event]) -> FighterStatus {
    match ours.last() {
        Some(Event::FighterStatusChanged { to, .. }) => to.clone(),
        _ => FighterStatus::Active,
    }
}

/// The other copy's change of status made from this copy's status.
fn status_moved(event: &Event, now: &FighterStatus) -> (Event, FighterStatus) {
    let mut moved = event.clone();
    let mut next = now.clone();
    if let Event::FighterStatusChanged { from, to, .. } = &mut moved {
        *from = now.clone();
        next = to.clone();
    }
    (moved, next)
}

/// A fighter's entries after this copy's changes to them.
fn entries_after(ours: &[Event]) -> Vec<QuirkPick> {
    match ours.last() {
        Some(Event::QuirksChanged { to, .. }) => to.clone(),
        _ => Vec::new(),
    }
}

/// The other copy's change to a fighter's entries made on this copy's:
/// what it gained is gained (once), what it lost is lost. The change (none
/// where nothing is left to change) and the entries after it.
fn entries_moved(event: &Event, now: &[QuirkPick]) -> (Option<Event>, Vec<QuirkPick>) {
    let Event::QuirksChanged { fighter, from, to } = event else {
        return (None, now.to_vec());
    };
    let mut next: Vec<QuirkPick> = now
        .iter()
        .filter(|pick| !from.contains(pick) || to.contains(pick))
        .cloned()
        .collect();
    for pick in to {
        if !from.contains(pick) && !next.contains(pick) {
            next.push(pick.clone());
        }
    }
    if next == now {
        return (None, next);
    }
    let moved = Event::QuirksChanged {
        fighter: *fighter,
        from: now.to_vec(),
        to: next.clone(),
    };
    (Some(moved), next)
}

/// The `from` and `to` of a change to a number.
fn numbers(event: &Event) -> Option<(i64, i64)> {
    match event {
        Event::ResourceAdjusted { from, to, .. } | Event::CounterChanged { from, to, .. } => {
            Some((*from, *to))
        }
        _ => None,
    }
}

/// A change to a number, made from `from` to `to` instead.
fn with_numbers(event: &Event, new_from: i64, new_to: i64) -> Event {
    let mut event = event.clone();
    if let Event::ResourceAdjusted { from, to, .. } | Event::CounterChanged { from, to, .. } =
        &mut event
    {
        (*from, *to) = (new_from, new_to);
    }
    event
}

/// The lasting effect an event changes, if it changes one.
fn effect_of(event: &Event) -> Option<EffectId> {
    use Event::*;
    match event {
        LastingEffectAdded { effect } | LastingEffectDeleted { effect } => Some(effect.id),
        LastingEffectRemoved { effect, .. } | LastingEffectRestored { effect, .. } => Some(*effect),
        _ => None,
    }
}

/// Whether two events do the same to the same lasting effect.
fn same_change(a: &Event, b: &Event) -> bool {
    use Event::*;
    match (a, b) {
        (LastingEffectRemoved { effect: x, .. }, LastingEffectRemoved { effect: y, .. })
        | (LastingEffectRestored { effect: x, .. }, LastingEffectRestored { effect: y, .. }) => {
            x == y
        }
        (LastingEffectDeleted { effect: x }, LastingEffectDeleted { effect: y }) => x.id == y.id,
        _ => false,
    }
}

/// Each lasting effect's fighter, from the effects these batches add.
fn effect_owners<'a>(
    batches: impl Iterator<Item = &'a LoggedBatch>,
) -> HashMap<EffectId, FighterId> {
    batches
        .flat_map(|b| &b.events)
        .filter_map(|e| match e {
            Event::LastingEffectAdded { effect } => Some((effect.id, effect.fighter)),
            _ => None,
        })
        .collect()
}

/// The events of these batches that change something, by what they
/// change; a number or a text put back where it was counts as unchanged.
fn changed_by_key(
    batches: &[LoggedBatch],
    owners: &HashMap<EffectId, FighterId>,
) -> BTreeMap<Key, Vec<Event>> {
    let mut by_key = events_by_key(batches, owners);
    by_key.retain(|_, events| !comes_back(events));
    by_key
}

/// The batches that are not records nor answers to a challenge (a record
/// or an answer made again where it lands works out anew what it works
/// out from the whole campaign).
fn outside_records(batches: &[LoggedBatch]) -> Vec<LoggedBatch> {
    batches
        .iter()
        .filter(|b| {
            b.undoes.is_some()
                || (super::battle::recorded(&b.events).is_none()
                    && super::season::challenges::answer_of(&b.events).is_none())
        })
        .cloned()
        .collect()
}

/// The events of these batches that change something, by what they change.
fn events_by_key(
    batches: &[LoggedBatch],
    owners: &HashMap<EffectId, FighterId>,
) -> BTreeMap<Key, Vec<Event>> {
    let mut by_key: BTreeMap<Key, Vec<Event>> = BTreeMap::new();
    for event in batches.iter().flat_map(|b| &b.events) {
        if let Some(key) = key_of(event, owners) {
            by_key.entry(key).or_default().push(event.clone());
        }
    }
    by_key
}

/// Whether a run of changes to one value ends where it began.
fn comes_back(events: &[Event]) -> bool {
    let (Some(first), Some(last)) = (events.first(), events.last()) else {
        return true;
    };
    match (span(first), span(last)) {
        (Some((from, _)), Some((_, to))) => from == to,
        _ => false,
    }
}

/// Whether two runs of changes to one value leave it the same.
fn ends_alike(ours: &[Event], theirs: &[Event]) -> bool {
    match (ours.last().and_then(span), theirs.last().and_then(span)) {
        (Some((_, a)), Some((_, b))) => a == b,
        _ => false,
    }
}

/// A change's value before and after, as JSON, where it is one value.
fn span(event: &Event) -> Option<(serde_json::Value, serde_json::Value)> {
    use Event::*;
    fn pair<T: Serialize>(a: &T, b: &T) -> Option<(serde_json::Value, serde_json::Value)> {
        Some((serde_json::to_value(a).ok()?, serde_json::to_value(b).ok()?))
    }
    match event {
        CampaignRenamed { from, to }
        | GangRenamed { from, to, .. }
        | GangNotesChanged { from, to, .. }
        | FighterRenamed { from, to, .. }
        | FighterNotesChanged { from, to, .. }
        | CampaignRulesetChanged { from, to }
        | GangRulesetChanged { from, to, .. } => pair(from, to),
        ResourceAdjusted { from, to, .. } | CounterChanged { from, to, .. } => pair(from, to),
        HousePackSet { from, to, .. }
        | SettingChanged { from, to, .. }
        | PhotoChanged { from, to, .. } => pair(from, to),
        TitleChanged { from, to, .. } | HoldingChanged { from, to, .. } => pair(from, to),
        GangFactionChanged { from, to, .. } | FactionTitleChanged { from, to, .. } => {
            pair(from, to)
        }
        CycleEnded { cycle } => pair(cycle, &cycle.saturating_add(1)),
        CycleReopened { cycle } => pair(&cycle.saturating_add(1), cycle),
        QuirksChanged { from, to, .. } => pair(from, to),
        FighterStatusChanged { from, to, .. } => pair(from, to),
        BaseStatSet { from, to, .. } => pair(from, to),
        _ => None,
    }
}

/// What an event changes, where it changes something both copies could
/// have changed; `None` for what only adds to the record (a new gang, a
/// roll, a record of a game).
pub fn key_of(event: &Event, owners: &HashMap<EffectId, FighterId>) -> Option<Key> {
    use Event::*;
    let key = |owner, aspect| Some(Key { owner, aspect });
    let campaign = |aspect| key(Owner::Campaign, aspect);
    let gang = |g: &GangId, aspect| key(Owner::Gang(*g), aspect);
    let fighter = |f: &FighterId, aspect| key(Owner::Fighter(*f), aspect);
    match event {
        CampaignRenamed { .. } => campaign(Aspect::Name),
        CampaignRulesetChanged { .. } => campaign(Aspect::Ruleset),
        SettingChanged { setting, .. } => campaign(Aspect::Setting(setting.clone())),
        HousePackSet { id, .. } => campaign(Aspect::HousePack(id.clone())),
        TitleChanged { title, .. } => campaign(Aspect::Title(title.clone())),
        HoldingChanged { holding, .. } => campaign(Aspect::Holding(holding.clone())),
        CycleEnded { .. } | CycleReopened { .. } => campaign(Aspect::Cycle),
        FactionTitleChanged { title, .. } => campaign(Aspect::FactionTitle(title.clone())),
        ChallengeAnswered { challenge, .. }
        | ChallengeAnswerTakenBack { challenge, .. }
        | ChallengeLapsed { challenge, .. }
        | ChallengeRenewed { challenge, .. } => campaign(Aspect::Challenge(*challenge)),
        PairingsMade { pairings } | PairingsTakenBack { pairings } => {
            campaign(Aspect::Pairings(pairings.cycle))
        }
        GangFactionChanged { gang: g, .. } => gang(g, Aspect::Faction),
        GangRenamed { gang: g, .. } => gang(g, Aspect::Name),
        GangNotesChanged { gang: g, .. } => gang(g, Aspect::Notes),
        GangRulesetChanged { gang: g, .. } => gang(g, Aspect::Ruleset),
        ResourceAdjusted {
            gang: g, resource, ..
        } => gang(g, Aspect::Resource(resource.clone())),
        FighterRenamed { fighter: f, .. } => fighter(f, Aspect::Name),
        FighterNotesChanged { fighter: f, .. } => fighter(f, Aspect::Notes),
        LeaderChanged { fighter: f, .. } | FighterTransferred { fighter: f, .. } => {
            fighter(f, Aspect::Place)
        }
        QuirksChanged { fighter: f, .. } => fighter(f, Aspect::Quirks),
        CounterChanged {
            fighter: f,
            counter,
            ..
        } => fighter(f, Aspect::Counter(counter.clone())),
        FighterStatusChanged { fighter: f, .. } => fighter(f, Aspect::Status),
        BaseStatSet {
            fighter: f, stat, ..
        } => fighter(f, Aspect::BaseStat(stat.clone())),
        PhotoChanged { fighter: f, .. } => fighter(f, Aspect::Photo),
        LastingEffectAdded { effect } | LastingEffectDeleted { effect } => {
            fighter(&effect.fighter, Aspect::LastingEffects)
        }
        LastingEffectRemoved { effect, .. } | LastingEffectRestored { effect, .. } => {
            fighter(owners.get(effect)?, Aspect::LastingEffects)
        }
        PendingEffectUsed { effect, .. } | PendingEffectUnused { effect, .. } => {
            key(Owner::Pending(*effect), Aspect::Use)
        }
        _ => None,
    }
}

/// One kind of id: those that stand for the same thing in both copies
/// (alive where they parted) keep theirs; the other copy's new ones are
/// given new ids after every id this copy has used.
#[derive(Debug)]
struct Ids {
    shared: BTreeSet<i64>,
    /// Every id up to this one is shared too (a log's batches, numbered
    /// from 1 with no gap).
    upto: i64,
    fresh: BTreeMap<i64, i64>,
    /// In the order they were first met.
    order: Vec<i64>,
    next: i64,
}

impl Ids {
    fn new(shared: BTreeSet<i64>, used: impl Iterator<Item = i64>) -> Self {
        let top = used.chain(shared.iter().copied()).max().unwrap_or(0);
        Self {
            shared,
            upto: 0,
            fresh: BTreeMap::new(),
            order: Vec::new(),
            next: top.saturating_add(1),
        }
    }

    /// Ids `1..=upto` shared; fresh ones after every id `used`.
    fn shared_upto(upto: i64, used: impl Iterator<Item = i64>) -> Self {
        Self {
            upto,
            ..Self::new(BTreeSet::new(), used.chain([upto]))
        }
    }

    fn map(&mut self, id: i64) -> i64 {
        if (1..=self.upto).contains(&id) || self.shared.contains(&id) {
            return id;
        }
        if let Some(here) = self.fresh.get(&id) {
            return *here;
        }
        let here = self.next;
        self.next = self.next.saturating_add(1);
        self.fresh.insert(id, here);
        self.order.push(id);
        here
    }

    fn fresh<T: From<i64>>(&self) -> Vec<(T, T)> {
        self.order
            .iter()
            .map(|id| (T::from(*id), T::from(self.fresh[id])))
            .collect()
    }
}

macro_rules! from_i64 {
    ($($t:ty),*) => {$(
        impl From<i64> for $t {
            fn from(id: i64) -> Self {
                Self(id)
            }
        }
    )*};
}
from_i64!(GangId, FighterId, BattleId);

/// The ids of the other copy's batches since the parting, made this copy's.
struct Remap {
    gangs: Ids,
    fighters: Ids,
    battles: Ids,
    effects: Ids,
    pending: Ids,
    challenges: Ids,
    batches: Ids,
}

impl Remap {
    /// Whether a thing is one both copies had where they parted.
    fn shared(&self, thing: &Thing) -> bool {
        match thing {
            Thing::Gang(id) => self.gangs.shared.contains(&id.0),
            Thing::Fighter(id) => self.fighters.shared.contains(&id.0),
            Thing::Battle(id) => self.battles.shared.contains(&id.0),
            Thing::Effect(id) => self.effects.shared.contains(&id.0),
            Thing::Pending(id) => self.pending.shared.contains(&id.0),
            Thing::Challenge(id) => self.challenges.shared.contains(&id.0),
        }
    }

    /// Ids for merging after where the copies parted, this copy's batches
    /// since being `our_new`: what stood then keeps its id, and what the
    /// other copy made takes one above every id this copy ever made.
    fn parted(parted: &Parted, our_new: &[LoggedBatch]) -> Self {
        let standing = parted.standing.clone();
        let made = Alive::made(our_new);
        let tops = parted.tops;
        Self {
            gangs: Ids::new(standing.gangs, made.gangs.into_iter().chain([tops.gangs])),
            fighters: Ids::new(
                standing.fighters,
                made.fighters.into_iter().chain([tops.fighters]),
            ),
            battles: Ids::new(
                standing.battles,
                made.battles.into_iter().chain([tops.battles]),
            ),
            effects: Ids::new(
                standing.effects,
                made.effects.into_iter().chain([tops.effects]),
            ),
            pending: Ids::new(
                standing.pending,
                made.pending.into_iter().chain([tops.pending]),
            ),
            challenges: Ids::new(
                standing.challenges,
                made.challenges.into_iter().chain([tops.challenges]),
            ),
            batches: Ids::shared_upto(parted.after.0, our_new.iter().map(|b| b.id.0)),
        }
    }

    fn batch(&mut self, b: &LoggedBatch) -> LoggedBatch {
        let mut label = b.label.clone();
        for event in &b.events {
            if let Event::BattleRecorded { battle } | Event::BattleUnrecorded { battle } = event {
                let here = self.battles.map(battle.id.0);
                label = renumbered(&label, battle.id.0, here);
            }
            if let Event::ChallengeIssued { challenge } | Event::ChallengeWithdrawn { challenge } =
                event
            {
                let here = self.challenges.map(challenge.id.0);
                label = renumbered(&label, challenge.id.0, here);
            }
        }
        LoggedBatch {
            id: BatchId(self.batches.map(b.id.0)),
            at: b.at.clone(),
            label,
            undoes: b.undoes.map(|u| BatchId(self.batches.map(u.0))),
            events: b.events.iter().map(|e| self.event(e)).collect(),
        }
    }

    fn gang(&mut self, id: &mut GangId) {
        id.0 = self.gangs.map(id.0);
    }

    fn fighter(&mut self, id: &mut FighterId) {
        id.0 = self.fighters.map(id.0);
    }

    fn battle(&mut self, id: &mut BattleId) {
        id.0 = self.battles.map(id.0);
    }

    fn effect(&mut self, id: &mut EffectId) {
        id.0 = self.effects.map(id.0);
    }

    fn pending_id(&mut self, id: &mut PendingId) {
        id.0 = self.pending.map(id.0);
    }

    fn challenge(&mut self, id: &mut ChallengeId) {
        id.0 = self.challenges.map(id.0);
    }

    fn gang_row(&mut self, gang: &mut Gang) {
        self.gang(&mut gang.id);
    }

    fn fighter_row(&mut self, fighter: &mut Fighter) {
        self.fighter(&mut fighter.id);
        self.gang(&mut fighter.gang);
        self.status(&mut fighter.status);
    }

    fn status(&mut self, status: &mut FighterStatus) {
        match status {
            FighterStatus::Active => {}
            FighterStatus::Wounded { battle } | FighterStatus::LaidUp { battle, .. } => {
                self.battle(battle)
            }
            FighterStatus::Captured { by, battle } => {
                self.gang(by);
                self.battle(battle);
            }
            FighterStatus::Gone { battle, .. } => {
                if let Some(b) = battle {
                    self.battle(b);
                }
            }
        }
    }

    fn battle_row(&mut self, battle: &mut Battle) {
        self.battle(&mut battle.id);
        for g in &mut battle.gangs {
            self.gang(&mut g.gang);
        }
        if let Some(w) = &mut battle.winner {
            self.gang(w);
        }
        for f in &mut battle.fighters {
            self.fighter(&mut f.fighter);
            self.gang(&mut f.gang);
            if let Some(by) = &mut f.downed_by {
                self.fighter(by);
            }
        }
        for g in &mut battle.declined {
            self.gang(g);
        }
        if let Some(c) = &mut battle.challenge {
            self.challenge(c);
        }
    }

    fn effect_row(&mut self, effect: &mut LastingEffect) {
        self.effect(&mut effect.id);
        self.fighter(&mut effect.fighter);
        if let Some(b) = &mut effect.battle {
            self.battle(b);
        }
    }

    fn pending_row(&mut self, effect: &mut PendingEffect) {
        self.pending_id(&mut effect.id);
        self.gang(&mut effect.gang);
        if let Some(b) = &mut effect.used_in {
            self.battle(b);
        }
    }

    /// The event with every id it names made this copy's.
    fn event(&mut self, event: &Event) -> Event {
        use Event::*;
        let mut event = event.clone();
        match &mut event {
            CampaignCreated { .. }
            | CampaignRenamed { .. }
            | HousePackSet { .. }
            | SettingChanged { .. }
            | CampaignRulesetChanged { .. }
            | CycleEnded { .. }
            | CycleReopened { .. }
            | FactionTitleChanged { .. } => {}
            ChallengeIssued { challenge } | ChallengeWithdrawn { challenge } => {
                self.challenge(&mut challenge.id);
                self.gang(&mut challenge.challenger);
                self.gang(&mut challenge.defender);
            }
            ChallengeAnswered { challenge, .. }
            | ChallengeAnswerTakenBack { challenge, .. }
            | ChallengeLapsed { challenge, .. }
            | ChallengeRenewed { challenge, .. } => self.challenge(challenge),
            PairingsMade { pairings } | PairingsTakenBack { pairings } => {
                for g in pairings.pairs.iter_mut().flatten() {
                    self.gang(g);
                }
                if let Some(g) = &mut pairings.sits_out {
                    self.gang(g);
                }
            }
            GangFounded { gang } | GangDisbanded { gang } => self.gang_row(gang),
            GangRenamed { gang, .. }
            | GangNotesChanged { gang, .. }
            | ResourceAdjusted { gang, .. }
            | GangRulesetChanged { gang, .. }
            | GangFactionChanged { gang, .. } => self.gang(gang),
            HoldingChanged { from, to, .. } => {
                for g in [from, to].into_iter().flatten() {
                    self.gang(g);
                }
            }
            FighterRecruited { fighter } | FighterDismissed { fighter } => {
                self.fighter_row(fighter)
            }
            FighterRenamed { fighter, .. }
            | LeaderChanged { fighter, .. }
            | QuirksChanged { fighter, .. }
            | CounterChanged { fighter, .. }
            | FighterNotesChanged { fighter, .. }
            | BaseStatSet { fighter, .. }
            | PhotoChanged { fighter, .. } => self.fighter(fighter),
            FighterStatusChanged {
                fighter, from, to, ..
            } => {
                self.fighter(fighter);
                self.status(from);
                self.status(to);
            }
            FighterTransferred {
                fighter, from, to, ..
            } => {
                self.fighter(fighter);
                self.gang(from);
                self.gang(to);
            }
            BattleRecorded { battle } | BattleUnrecorded { battle } => self.battle_row(battle),
            TitleChanged { from, to, .. } => {
                for g in [from, to].into_iter().flatten() {
                    self.gang(g);
                }
            }
            ActionTaken { gang, target, .. } | ActionTakenBack { gang, target, .. } => {
                self.gang(gang);
                if let Some(t) = target {
                    self.gang(t);
                }
            }
            PendingEffectAdded { effect } | PendingEffectRemoved { effect } => {
                self.pending_row(effect)
            }
            PendingEffectUsed {
                effect,
                battle,
                fighters,
            }
            | PendingEffectUnused {
                effect,
                battle,
                fighters,
            } => {
                self.pending_id(effect);
                self.battle(battle);
                for f in fighters {
                    self.fighter(f);
                }
            }
            LastingEffectAdded { effect } | LastingEffectDeleted { effect } => {
                self.effect_row(effect)
            }
            LastingEffectRemoved { effect, .. } | LastingEffectRestored { effect, .. } => {
                self.effect(effect)
            }
            TableRolled {
                battle, fighter, ..
            }
            | TableRollTakenBack {
                battle, fighter, ..
            } => {
                if let Some(b) = battle {
                    self.battle(b);
                }
                if let Some(f) = fighter {
                    self.fighter(f);
                }
            }
            ArcClosed { gangs, .. }
            | ArcReopened { gangs, .. }
            | ScenarioRolled { gangs, .. }
            | ScenarioRollTakenBack { gangs, .. } => {
                for g in gangs {
                    self.gang(g);
                }
            }
        }
        event
    }
}

/// A record's label with its number as it is here: `Match #1: …` → `Match
/// #2: …` (the number standing alone after `#`).
fn renumbered(label: &str, there: i64, here: i64) -> String {
    match label.split_once(&format!("#{there}")) {
        Some((before, after)) if !after.starts_with(|c: char| c.is_ascii_digit()) => {
            format!("{before}#{here}{after}")
        }
        _ => label.to_owned(),
    }
}

/// A kind of id a log makes and takes away.
#[derive(Debug, Clone, Copy)]
enum IdKind {
    Gang,
    Fighter,
    Battle,
    Effect,
    Pending,
    Challenge,
}

/// Every id `batches` name, by kind: all a plan asks of what stood where
/// two copies parted is whether these stood, so all that need be read.
pub fn named(batches: &[&LoggedBatch]) -> Alive {
    let none = || Ids::new(BTreeSet::new(), std::iter::empty());
    let mut remap = Remap {
        gangs: none(),
        fighters: none(),
        battles: none(),
        effects: none(),
        pending: none(),
        challenges: none(),
        batches: none(),
    };
    for batch in batches {
        remap.batch(batch);
    }
    let met = |ids: &Ids| ids.order.iter().copied().collect();
    Alive {
        gangs: met(&remap.gangs),
        fighters: met(&remap.fighters),
        battles: met(&remap.battles),
        effects: met(&remap.effects),
        pending: met(&remap.pending),
        challenges: met(&remap.challenges),
    }
}

/// The ids of each kind a log leaves standing, or has ever made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Alive {
    pub gangs: BTreeSet<i64>,
    pub fighters: BTreeSet<i64>,
    pub battles: BTreeSet<i64>,
    pub effects: BTreeSet<i64>,
    pub pending: BTreeSet<i64>,
    pub challenges: BTreeSet<i64>,
}

impl Alive {
    /// What stands at the end of these batches.
    fn of(batches: &[LoggedBatch]) -> Self {
        Self::fold(batches, true)
    }

    /// Every id these batches ever made.
    fn made(batches: &[LoggedBatch]) -> Self {
        Self::fold(batches, false)
    }

    /// What stood before `batches`, given what stands after them: each
    /// id they made taken away again and each they took away put back,
    /// newest first.
    pub fn before(mut self, batches: &[LoggedBatch]) -> Self {
        for event in batches.iter().rev().flat_map(|b| b.events.iter().rev()) {
            if let Some((kind, id, made)) = Self::made_or_taken(event) {
                let set = self.set(kind);
                if made {
                    set.remove(&id);
                } else {
                    set.insert(id);
                }
            }
        }
        self
    }

    /// The ids of one kind.
    fn set(&mut self, kind: IdKind) -> &mut BTreeSet<i64> {
        match kind {
            IdKind::Gang => &mut self.gangs,
            IdKind::Fighter => &mut self.fighters,
            IdKind::Battle => &mut self.battles,
            IdKind::Effect => &mut self.effects,
            IdKind::Pending => &mut self.pending,
            IdKind::Challenge => &mut self.challenges,
        }
    }

    /// The kind of id an event makes or takes away, the id, and whether
    /// it makes it.
    fn made_or_taken(event: &Event) -> Option<(IdKind, i64, bool)> {
        use Event::*;
        Some(match event {
            GangFounded { gang } => (IdKind::Gang, gang.id.0, true),
            GangDisbanded { gang } => (IdKind::Gang, gang.id.0, false),
            FighterRecruited { fighter } => (IdKind::Fighter, fighter.id.0, true),
            FighterDismissed { fighter } => (IdKind::Fighter, fighter.id.0, false),
            BattleRecorded { battle } => (IdKind::Battle, battle.id.0, true),
            BattleUnrecorded { battle } => (IdKind::Battle, battle.id.0, false),
            LastingEffectAdded { effect } => (IdKind::Effect, effect.id.0, true),
            LastingEffectDeleted { effect } => (IdKind::Effect, effect.id.0, false),
            PendingEffectAdded { effect } => (IdKind::Pending, effect.id.0, true),
            PendingEffectRemoved { effect } => (IdKind::Pending, effect.id.0, false),
            ChallengeIssued { challenge } => (IdKind::Challenge, challenge.id.0, true),
            ChallengeWithdrawn { challenge } => (IdKind::Challenge, challenge.id.0, false),
            _ => return None,
        })
    }

    fn fold(batches: &[LoggedBatch], take_away: bool) -> Self {
        let mut s = Self::default();
        for event in batches.iter().flat_map(|b| &b.events) {
            let Some((kind, id, made)) = Self::made_or_taken(event) else {
                continue;
            };
            let set = s.set(kind);
            if made {
                set.insert(id);
            } else if take_away {
                set.remove(&id);
            }
        }
        s
    }
}

/// The other copy's batches that it took back again within its own
/// changes since the parting: a batch and the undo right after it (once
/// what lies between is itself left out), as undo and redo stack them. A
/// redo left standing is a change of its own.
fn undone_there(batches: &[LoggedBatch]) -> HashSet<BatchId> {
    let mut stack: Vec<&LoggedBatch> = Vec::new();
    let mut out = HashSet::new();
    for batch in batches {
        match stack.last() {
            Some(top) if batch.undoes == Some(top.id) => {
                out.insert(top.id);
                out.insert(batch.id);
                stack.pop();
            }
            _ => stack.push(batch),
        }
    }
    out
}

/// How a change to a number was made, for making it again on another
/// value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Moved by so much, held (or not) by the rule that moved it.
    Moved { by: i64, held: Held },
    /// Takes back the change made by the step at this index.
    TakesBack(usize),
}

/// What holds a number a record changes: a resource stops at its floor, a
/// counter between its least and most. A change made by hand is refused
/// past them instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    No,
    AtFloor,
    Between,
}

/// A step's index, and the `(from, to)` of the change it stands for.
type Made = (usize, (i64, i64));

/// Each number the other copy changed, with how each change was made: by
/// a record (held by the rule) or by hand, or as the undo of one of them.
fn number_steps(
    batches: &[LoggedBatch],
    owners: &HashMap<EffectId, FighterId>,
) -> BTreeMap<Key, Vec<Step>> {
    let mut steps: BTreeMap<Key, Vec<Step>> = BTreeMap::new();
    // Per batch and number: the steps it made, with their (from, to).
    let mut made: HashMap<(BatchId, Key), Vec<Made>> = HashMap::new();
    for batch in batches {
        let record = batch
            .events
            .iter()
            .any(|e| matches!(e, Event::BattleRecorded { .. }));
        let mut this: BTreeMap<Key, Vec<(i64, i64)>> = BTreeMap::new();
        for event in &batch.events {
            if let (Some(key), Some(n)) = (key_of(event, owners), numbers(event)) {
                this.entry(key).or_default().push(n);
            }
        }
        for (key, changes) in this {
            // An undo holds the changes of the batch it takes back, last
            // first, each the other way round.
            let undone = batch
                .undoes
                .and_then(|u| made.get(&(u, key.clone())))
                .filter(|before| {
                    before.len() == changes.len()
                        && before
                            .iter()
                            .rev()
                            .zip(&changes)
                            .all(|((_, (f, t)), (f2, t2))| f == t2 && t == f2)
                })
                .map(|before| before.iter().rev().map(|(i, _)| *i).collect::<Vec<_>>());
            let held = match (&key.aspect, record) {
                (Aspect::Resource(_), true) => Held::AtFloor,
                (Aspect::Counter(_), true) => Held::Between,
                _ => Held::No,
            };
            let list = steps.entry(key.clone()).or_default();
            let mut mine = Vec::new();
            for (j, (from, to)) in changes.iter().enumerate() {
                let step = match &undone {
                    Some(indices) => Step::TakesBack(indices[j]),
                    None => Step::Moved {
                        by: to.saturating_sub(*from),
                        held,
                    },
                };
                mine.push((list.len(), (*from, *to)));
                list.push(step);
            }
            made.insert((batch.id, key), mine);
        }
    }
    steps
}

/// The other copy's changes to a number made one by one from this copy's
/// value `now`: each `(from, to)`, or the first value one of them would
/// take past the number's floor or bounds where its rule does not hold it.
fn compose(now: i64, steps: &[Step], key: &Key, within: Within) -> Result<Vec<(i64, i64)>, i64> {
    let may = |to: i64| within(key, to);
    let mut made: Vec<(i64, i64)> = Vec::with_capacity(steps.len());
    let mut now = now;
    for step in steps {
        let next = match *step {
            Step::Moved { by: 0, .. } => now,
            Step::Moved { by, held } => {
                let raw = now.checked_add(by).ok_or(now.saturating_add(by))?;
                if may(raw) {
                    raw
                } else {
                    match held {
                        Held::AtFloor | Held::Between if by < 0 => held_at(now, raw, &may),
                        Held::Between => held_at(now, raw, &may),
                        _ => return Err(raw),
                    }
                }
            }
            Step::TakesBack(i) => {
                let (from, to) = made.get(i).copied().unwrap_or((now, now));
                let raw = to
                    .checked_sub(from)
                    .and_then(|d| now.checked_sub(d))
                    .ok_or(now)?;
                if !may(raw) {
                    return Err(raw);
                }
                raw
            }
        };
        made.push((now, next));
        now = next;
    }
    Ok(made)
}

/// A change from `now` towards `raw` (which the number may not take) held
/// at the last value it may take on the way; where it may not take `now`
/// either, it stays.
fn held_at(now: i64, raw: i64, may: &dyn Fn(i64) -> bool) -> i64 {
    if !may(now) {
        return now;
    }
    // `may` holds at `good` and not at `bad`, and the values it may take
    // are one run: halve the way between.
    let (mut good, mut bad) = (i128::from(now), i128::from(raw));
    while (good - bad).abs() > 1 {
        let mid = bad + (good - bad) / 2;
        if may(i64::try_from(mid).unwrap_or(now)) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    i64::try_from(good).unwrap_or(now)
}

#[cfg(test)]
mod tests;
