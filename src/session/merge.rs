//! Merging another copy of this campaign into a new file: what each copy
//! did since they parted, the conflicts put side by side, and the merged
//! campaign written as a new file with both copies left as they were.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::Serialize;

use super::Session;
use crate::campaign::merge::{self, Choice, Key, MergePlan};
use crate::campaign::{Event, FighterId, FighterStatus, GangId, LoggedBatch, Names};
use crate::store::CampaignStore;

/// Another copy read and planned against this one.
#[derive(Debug, Clone)]
pub struct Merge {
    pub other: PathBuf,
    plan: MergePlan,
    photos: Vec<crate::store::StoredPhoto>,
    /// The group's packs the other copy keeps (id and text).
    packs: Vec<(String, String)>,
}

/// What a merge would do, in words: the faces show it, the command line
/// prints it (`--json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MergePreview {
    /// The other copy's file.
    pub other: String,
    /// The last change both copies hold.
    pub parted_after: String,
    /// This copy's changes since, oldest first.
    pub ours: Vec<String>,
    /// The other copy's changes since, to be made after this copy's.
    pub theirs: Vec<String>,
    /// The other copy's new gangs, fighters and records and the numbers
    /// they take here, where these differ.
    pub renumbered: Vec<String>,
    pub conflicts: Vec<ConflictView>,
    /// What both copies changed in ways that hold together, both kept:
    /// `Ash Dogs: Supply: 5 → 2, both copies' changes`.
    pub composed: Vec<String>,
    /// What both copies changed alike, kept once.
    pub agreed: Vec<String>,
    /// What the other copy changed and changed back, which this copy
    /// changed: this copy's stands.
    pub came_back: Vec<String>,
    /// Shared changes both copies took back alike: taken back once.
    pub both_took_back: Vec<String>,
}

/// One conflict, side by side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConflictView {
    /// Its number, for choosing (`--take N=ours`).
    pub number: usize,
    /// What both copies changed: `Rook: lasting effects`.
    pub subject: String,
    pub key: Key,
    /// This copy's changes to it.
    pub ours: Vec<String>,
    /// The other copy's.
    pub theirs: Vec<String>,
    /// What keeping both gives, where both can be kept.
    pub both: Option<String>,
}

impl Session {
    /// Reads another copy of this campaign (without writing to it) and
    /// plans merging it into this one.
    pub fn plan_merge(&self, other: &Path) -> Result<Merge> {
        let other = std::path::absolute(other).unwrap_or_else(|_| other.to_owned());
        if crate::output::same_place(&other, self.path()) {
            bail!("{} is this campaign itself", other.display());
        }
        let (theirs, photos) = CampaignStore::read_copy(&other)
            .with_context(|| format!("cannot read {}", other.display()))?;
        let packs = CampaignStore::copy_house_packs(&other)
            .with_context(|| format!("cannot read {}", other.display()))?;
        let within = |key: &Key, to| self.within(key, to).is_ok();
        let plan = merge::plan(&self.store.log_batches()?, &theirs, &within)
            .with_context(|| format!("{} cannot be merged", other.display()))?;
        Ok(Merge {
            other,
            plan,
            photos,
            packs,
        })
    }

    /// A merge in words, the other copy's new things named as they are
    /// there.
    pub fn merge_preview(&self, merge: &Merge) -> Result<MergePreview> {
        let plan = &merge.plan;
        let names = self.merge_names(plan)?;
        let parted = self
            .store
            .batch(plan.parted_after)
            .map(|(label, _)| label)?;
        let mut renumbered = Vec::new();
        let gang = |id| names.gangs.get(&id).cloned().unwrap_or_default();
        for (there, here) in plan.gangs.iter().filter(|(a, b)| a != b) {
            renumbered.push(format!(
                "{}: gang #{there} there, #{here} here",
                gang(*here)
            ));
        }
        for (there, here) in plan.fighters.iter().filter(|(a, b)| a != b) {
            let name = names.fighters.get(here).cloned().unwrap_or_default();
            renumbered.push(format!("{name}: #{there} there, #{here} here"));
        }
        for (there, here) in plan.battles.iter().filter(|(a, b)| a != b) {
            renumbered.push(format!("record #{there} there, #{here} here"));
        }
        let conflicts = self.conflict_views(plan, &names);
        Ok(MergePreview {
            other: merge.other.display().to_string(),
            parted_after: parted,
            ours: plan.ours.iter().map(|b| b.label.clone()).collect(),
            theirs: plan.theirs.iter().map(|b| b.label.clone()).collect(),
            renumbered,
            conflicts,
            composed: plan
                .composed
                .iter()
                .map(|c| {
                    let subject = c.key.describe(&names);
                    match (c.both_value(), &c.key.aspect) {
                        (Some((from, to)), _) => format!("{subject}: {from} → {to}"),
                        (None, merge::Aspect::Status) => format!("{subject}, the later"),
                        (None, _) => format!("{subject}, both copies'"),
                    }
                })
                .collect(),
            agreed: plan.agreed.iter().map(|k| k.describe(&names)).collect(),
            came_back: plan.came_back.iter().map(|k| k.describe(&names)).collect(),
            both_took_back: plan
                .theirs
                .iter()
                .filter(|b| plan.both_took_back.contains(&b.id))
                .map(|b| b.label.clone())
                .collect(),
        })
    }

    /// A plan's conflicts side by side, in words.
    pub(super) fn conflict_views(&self, plan: &MergePlan, names: &Names) -> Vec<ConflictView> {
        let describe = |events: &[Event]| events.iter().map(|e| e.describe(names)).collect();
        plan.conflicts
            .iter()
            .enumerate()
            .map(|(i, c)| ConflictView {
                number: i + 1,
                subject: c.key.describe(names),
                key: c.key.clone(),
                ours: describe(&c.ours),
                theirs: describe(&c.theirs),
                both: (c.key.can_keep_both() && self.both_within(c).is_ok()).then(|| {
                    match c.both_value() {
                        Some((from, to)) => format!("{from} → {to}"),
                        None => "this copy's and the other's side by side".to_owned(),
                    }
                }),
            })
            .collect()
    }

    /// Whether a resource or counter may take a value, for planning a
    /// merge.
    pub(super) fn may_take(&self, key: &Key, to: i64) -> bool {
        self.within(key, to).is_ok()
    }

    /// Writes the merged campaign to `output` (a new file), every conflict
    /// settled as chosen (`choices[i]` for conflict `i + 1`), and checks it
    /// with `verify`. Neither copy is written to. Refused, with nothing
    /// written, when a conflict is not chosen, a new gang or fighter has a
    /// name the other copy already uses, or this campaign changed since the
    /// merge was planned.
    pub fn write_merge(
        &self,
        merge: &Merge,
        choices: &[Option<Choice>],
        output: &Path,
    ) -> Result<Session> {
        let output_abs = std::path::absolute(output).unwrap_or_else(|_| output.to_owned());
        if crate::output::same_place(&output_abs, self.path())
            || crate::output::same_place(&output_abs, &merge.other)
        {
            bail!("the merged campaign goes to a new file, not over either copy");
        }
        // Whether either log moved on since the plan: the other copy was
        // verified when the merge was planned, and what is merged is its
        // log, which is compared here and replayed through the gate.
        let ours = self.store.log_batches()?;
        let theirs_now = CampaignStore::copy_log(&merge.other)
            .with_context(|| format!("cannot read {}", merge.other.display()))?;
        let within = |key: &Key, to| self.within(key, to).is_ok();
        let now = merge::plan(&ours, &theirs_now, &within)
            .with_context(|| format!("{} cannot be merged", merge.other.display()))?;
        if now.parted_after != merge.plan.parted_after
            || now.ours != merge.plan.ours
            || now.theirs != merge.plan.theirs
        {
            bail!("a copy changed since the merge was looked at; look again");
        }
        for (i, (conflict, choice)) in merge.plan.conflicts.iter().zip(choices).enumerate() {
            if *choice == Some(Choice::Both) {
                self.both_within(conflict).map_err(|why| {
                    anyhow::anyhow!(
                        "conflict {}: {why}; choose this copy's or the other's",
                        i + 1
                    )
                })?;
            }
        }
        let theirs = merge.plan.resolve(choices)?;
        self.check_new_names(&theirs)?;
        let theirs = self.without_leaders_who_cannot_lead(&ours, theirs);
        let leaders = self.leaders_of_either(&theirs)?;
        let mut log = ours;
        log.extend(theirs);
        let mut photos = self.store.all_photos()?;
        for photo in &merge.photos {
            if !photos.iter().any(|p| p.0 == photo.0) {
                photos.push(photo.clone());
            }
        }
        // The group's packs both copies keep are known from the log's first
        // change (a game the campaign was made to play and kept later),
        // this copy's first, each checked as `house keep` checks one.
        let ours_kept = self.store.house_packs()?;
        let travelling: Vec<super::house::Travelling<'_>> = ours_kept
            .iter()
            .map(|p| (p, "this copy"))
            .chain(merge.packs.iter().map(|p| (p, "the other copy")))
            .map(|((id, text), copy)| super::house::Travelling {
                from: format!("{copy}'s house rules `{}`", crate::text::echo(id)),
                id,
                text,
            })
            .collect();
        let mut merged = Self::made_from_log_knowing(
            output,
            &log,
            &photos,
            self.base.clone(),
            &travelling,
            "the two copies",
        )
        .with_context(|| format!("{} was not written", output.display()))?;
        merged.follow_leaders_who_left(&leaders)?;
        Ok(merged)
    }

    /// The other copy's changes without those that would make a leader
    /// the merged campaign cannot have: one not with their side there (this
    /// copy's status of them chosen: gone, or held by a rival), or past
    /// the leaders their side may have (each copy named its own successor).
    /// The gate refuses such a change wherever it comes from; the merge
    /// leaves it out, and the side left without a leader is followed by
    /// the one the pack's succession names ([`Self::follow_leaders_who_left`]).
    fn without_leaders_who_cannot_lead(
        &self,
        ours: &[LoggedBatch],
        mut theirs: Vec<LoggedBatch>,
    ) -> Vec<LoggedBatch> {
        use std::collections::HashMap;
        // Each fighter's side, whether they lead and are with it; each
        // side's most leaders.
        let mut fighters: HashMap<FighterId, (GangId, bool, bool)> = HashMap::new();
        let mut most: HashMap<GangId, Option<usize>> = HashMap::new();
        let fold = |event: &Event,
                    fighters: &mut HashMap<FighterId, (GangId, bool, bool)>,
                    most: &mut HashMap<GangId, Option<usize>>| {
            match event {
                Event::GangFounded { gang } => {
                    let pack = self.registry.get(&gang.ruleset);
                    most.insert(
                        gang.id,
                        pack.map_or(Some(1), crate::campaign::succession::most_leaders),
                    );
                }
                Event::GangRulesetChanged { gang, to, .. } => {
                    let pack = self.registry.get(to);
                    most.insert(
                        *gang,
                        pack.map_or(Some(1), crate::campaign::succession::most_leaders),
                    );
                }
                Event::FighterRecruited { fighter } => {
                    fighters.insert(
                        fighter.id,
                        (fighter.gang, fighter.leader, fighter.status.with_side()),
                    );
                }
                Event::FighterDismissed { fighter } => {
                    fighters.remove(&fighter.id);
                }
                Event::LeaderChanged { fighter, to, .. } => {
                    if let Some(f) = fighters.get_mut(fighter) {
                        f.1 = *to;
                    }
                }
                Event::FighterStatusChanged { fighter, to, .. } => {
                    if let Some(f) = fighters.get_mut(fighter) {
                        f.2 = to.with_side();
                    }
                }
                Event::FighterTransferred {
                    fighter,
                    to,
                    leader_to,
                    ..
                } => {
                    if let Some(f) = fighters.get_mut(fighter) {
                        (f.0, f.1) = (*to, *leader_to);
                    }
                }
                _ => {}
            }
        };
        for event in ours.iter().flat_map(|b| &b.events) {
            fold(event, &mut fighters, &mut most);
        }
        for batch in &mut theirs {
            let mut kept = Vec::with_capacity(batch.events.len());
            for event in std::mem::take(&mut batch.events) {
                if let Event::LeaderChanged {
                    fighter, to: true, ..
                } = &event
                    && let Some(&(gang, _, with_side)) = fighters.get(fighter)
                {
                    let leading = fighters
                        .iter()
                        .filter(|(id, f)| *id != fighter && f.0 == gang && f.1 && f.2)
                        .count();
                    let full = most
                        .get(&gang)
                        .copied()
                        .flatten()
                        .is_some_and(|most| leading >= most);
                    if !with_side || full {
                        continue;
                    }
                }
                fold(&event, &mut fighters, &mut most);
                kept.push(event);
            }
            batch.events = kept;
        }
        theirs
    }

    /// Every gang's leaders in either copy, each with their gang: this
    /// copy's as they stand, and those the other copy's changes (`theirs`,
    /// as merged) made leaders of a gang this copy knows them in.
    fn leaders_of_either(&self, theirs: &[LoggedBatch]) -> Result<Vec<(GangId, FighterId)>> {
        let mut leaders = Vec::new();
        for gang in self.store.gangs()? {
            leaders.extend(
                self.store
                    .fighters(gang.id)?
                    .into_iter()
                    .filter(|f| f.leader && f.status.with_side())
                    .map(|f| (gang.id, f.id)),
            );
        }
        for event in theirs.iter().flat_map(|b| &b.events) {
            if let Event::LeaderChanged {
                fighter, to: true, ..
            } = event
                && let Some(f) = self.store.fighter(*fighter)?
            {
                leaders.push((f.gang, f.id));
            }
        }
        Ok(leaders)
    }

    /// The merged campaign's sides whose leader (`leaders`: of either copy)
    /// left in the merge — dismissed in one copy, gone or held by a rival —
    /// and that no one leads now, each followed by the member the pack's
    /// succession names, as a record or a dismissal would: one change of
    /// its own, which undo takes back. Where the rule leaves a tie to the
    /// side, or names no one, the side picks its leader afterwards.
    fn follow_leaders_who_left(&mut self, leaders: &[(GangId, FighterId)]) -> Result<()> {
        use crate::campaign::succession::{Successor, candidates, still_led};
        use crate::rules::LeaderLeaves;
        let mut events = Vec::new();
        let mut said = Vec::new();
        for gang in self.store.gangs()? {
            let pack = self.gang_pack(&gang)?;
            let Some(rule) = pack.succession.clone() else {
                continue;
            };
            let roster = self.store.fighters(gang.id)?;
            if still_led(&roster, &[]) {
                continue;
            }
            // How each of its leaders left: no longer on its rolls
            // (dismissed), gone, or held by a rival. One still with the
            // side who no longer leads stepped down, and the side is left
            // as it chose.
            let mut left = Vec::new();
            for (_, id) in leaders.iter().filter(|(g, _)| *g == gang.id) {
                let how = match roster.iter().find(|f| f.id == *id) {
                    None => LeaderLeaves::Dismissed,
                    Some(f) if f.status.with_side() => {
                        left.clear();
                        break;
                    }
                    Some(f) if matches!(f.status, FighterStatus::Captured { .. }) => {
                        LeaderLeaves::Captured
                    }
                    Some(_) => LeaderLeaves::Gone,
                };
                left.push(how);
            }
            if !left.iter().any(|how| rule.applies_when(*how)) {
                continue;
            }
            let candidates = candidates(&rule, &roster, &[]);
            if let Successor::Named(next) =
                self.ranked_successor(&gang, &rule, &candidates, None)?
            {
                events.push(Event::LeaderChanged {
                    fighter: next,
                    from: false,
                    to: true,
                });
                let name = roster
                    .iter()
                    .find(|f| f.id == next)
                    .map_or("", |f| f.name.as_str());
                said.push(format!("{name} leads {}", gang.name));
            }
        }
        if !events.is_empty() {
            self.commit(&format!("After the merge: {}", said.join("; ")), events)?;
        }
        Ok(())
    }

    /// Tries the merge as [`Session::write_merge`] would write it, conflicts
    /// not chosen taken as this copy's, into a file that is removed again:
    /// what a dry run says is what the merge does.
    pub fn try_merge(&self, merge: &Merge, choices: &[Option<Choice>]) -> Result<()> {
        let folder = tempfile::Builder::new()
            .prefix(".rapsheet-merge-trial")
            .tempdir()
            .context("no room to try the merge")?;
        let choices: Vec<Option<Choice>> = (0..merge.plan.conflicts.len())
            .map(|i| choices.get(i).copied().flatten().or(Some(Choice::Ours)))
            .collect();
        let trial = folder.path().join("merged.rapsheet");
        self.write_merge(merge, &choices, &trial)
            .map(drop)
            .map_err(|e| anyhow::anyhow!("{}", e.root_cause()))
    }

    /// Whether keeping both copies' changes to a number leaves it within
    /// its pack's floor and bounds; the reason when it does not.
    fn both_within(&self, conflict: &merge::Conflict) -> Result<(), String> {
        match conflict.both_value() {
            Some((_, to)) => self.within(&conflict.key, to),
            None => Ok(()),
        }
    }

    /// Whether a resource or counter may take a value: its pack's floor
    /// and bounds; the reason when it may not.
    fn within(&self, key: &Key, to: i64) -> Result<(), String> {
        let gang = match key.owner {
            merge::Owner::Gang(g) => self.store.gang(g).ok().flatten(),
            merge::Owner::Fighter(f) => match self.store.fighter(f).ok().flatten() {
                Some(fighter) => self.store.gang(fighter.gang).ok().flatten(),
                None => None,
            },
            _ => None,
        };
        let Some(pack) = gang.and_then(|g| self.registry.get(&g.ruleset)) else {
            return Ok(());
        };
        let (label, range) = match &key.aspect {
            merge::Aspect::Resource(r) => match pack.resource(r) {
                Some(def) => (&def.label, def.range()),
                None => return Ok(()),
            },
            merge::Aspect::Counter(c) => match pack.counter_key(c) {
                Some((def, _)) => (&def.label, def.range()),
                None => return Ok(()),
            },
            _ => return Ok(()),
        };
        if range.contains(&to) {
            Ok(())
        } else {
            Err(format!(
                "keeping both would make {label} {to}, outside {} to {}",
                range.start(),
                range.end()
            ))
        }
    }

    /// Names for this copy's ids, the fighters either copy dismissed and
    /// the other copy's new things.
    pub(super) fn merge_names(&self, plan: &MergePlan) -> Result<Names> {
        let mut names = self.names()?;
        let ours = plan.ours.iter().flat_map(|b| &b.events);
        for event in ours.chain(plan.theirs.iter().flat_map(|b| &b.events)) {
            match event {
                Event::FighterDismissed { fighter } => {
                    names
                        .fighters
                        .entry(fighter.id)
                        .or_insert_with(|| fighter.name.clone());
                }
                Event::GangFounded { gang } => {
                    names
                        .gangs
                        .entry(gang.id)
                        .or_insert_with(|| gang.name.clone());
                }
                Event::FighterRecruited { fighter } => {
                    names
                        .fighters
                        .entry(fighter.id)
                        .or_insert_with(|| fighter.name.clone());
                }
                _ => {}
            }
        }
        Ok(names)
    }

    /// Refuses a gang the other copy founded, or a fighter it recruited,
    /// under a name this copy already uses there.
    fn check_new_names(&self, theirs: &[LoggedBatch]) -> Result<()> {
        let gangs = self.store.gangs()?;
        for event in theirs.iter().flat_map(|b| &b.events) {
            match event {
                Event::GangFounded { gang }
                    if gangs.iter().any(|g| {
                        g.id != gang.id && g.name.to_lowercase() == gang.name.to_lowercase()
                    }) =>
                {
                    bail!(
                        "both copies have a gang called “{}”: rename it in one copy, then merge again",
                        gang.name
                    );
                }
                Event::FighterRecruited { fighter }
                    if gangs.iter().any(|g| g.id == fighter.gang)
                        && self
                            .store
                            .fighters(fighter.gang)?
                            .iter()
                            .any(|f| f.id != fighter.id && f.name == fighter.name) =>
                {
                    bail!(
                        "both copies recruited a fighter called “{}” into one gang: rename one in its copy, then merge again",
                        fighter.name
                    );
                }
                _ => {}
            }
        }
        Ok(())
    }
}
