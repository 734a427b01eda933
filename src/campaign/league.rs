//! What a league's server sees in a batch: which gangs it touches, whether
//! it is a record and which gangs the record names, and whether it changes
//! the whole campaign. The server derives the same from the same events
//! (`src/store/league/schema`) and decides who may append the batch from
//! it; this mirror lets a laptop tell before pushing whether a batch will
//! be accepted. Pure: no I/O.
//!
//! Events name fighters, lasting effects and pending effects by id, so the
//! reach of a batch depends on the batches before it: [`Places`] keeps
//! where each of them belongs, taking every batch in server order.
//!
//! The rules, event by event:
//! - campaign-wide (only the organiser appends them): the campaign made or
//!   renamed, its ruleset, its house packs, its settings, and closing or
//!   reopening an arc;
//! - an event about a gang touches that gang; about a fighter, the gang the
//!   fighter belongs to then (a transfer touches both gangs and moves the
//!   fighter; a status of captured touches the captors too);
//! - a record (a battle recorded or taken back) touches every gang it
//!   names, every gang of a fighter it lists and its winner; it names the
//!   gangs that took part;
//! - a title touches the gang that loses it and the gang that takes it,
//!   except within a record: a record moves a title where the rules put
//!   it, from whichever gang held it (and its undo moves it back), so
//!   there a title touches no gang;
//! - a scenario rolled between two gangs touches both;
//! - a holding changing hands touches the gang that loses it and the gang
//!   that takes it, except within a record (as a title);
//! - a cycle's end (or its undo) is campaign-wide, except within a record:
//!   a record that ends the cycle names every gang it touches, for every
//!   laptop works the end out again from its report and dice;
//! - a gang's faction touches the gang; a faction's title no gang outside
//!   a record, and is campaign-wide outside one;
//! - a challenge issued (or withdrawn) touches its challenger, and places
//!   the challenge; an answer (or its undo) touches the challenge's
//!   defender, and within an answer a holding changing hands touches no
//!   gang (every laptop works the answer out again, as a record); a
//!   challenge's lapse is a cycle's end's: nothing within a record,
//!   campaign-wide outside one; a cycle's pairings are campaign-wide;
//! - an event that gives an id (a fighter, an effect) a new home also
//!   touches the gang the id belonged to before;
//! - an event naming a fighter, lasting effect or pending effect that no
//!   earlier batch placed counts as campaign-wide: only the organiser can
//!   vouch for it.

use std::collections::{BTreeMap, BTreeSet};

use super::{ChallengeId, EffectId, Event, FighterId, GangId, PendingId};

/// Every event kind the server accepts, as [`Event::kind`] names it, in
/// the order of [`kind_index`].
pub const KINDS: [&str; 54] = [
    "campaign_created",
    "campaign_renamed",
    "gang_founded",
    "gang_disbanded",
    "gang_renamed",
    "gang_notes_changed",
    "resource_adjusted",
    "fighter_recruited",
    "fighter_dismissed",
    "fighter_renamed",
    "leader_changed",
    "quirks_changed",
    "counter_changed",
    "fighter_notes_changed",
    "battle_recorded",
    "battle_unrecorded",
    "title_changed",
    "action_taken",
    "action_taken_back",
    "pending_effect_added",
    "pending_effect_removed",
    "pending_effect_used",
    "pending_effect_unused",
    "fighter_status_changed",
    "fighter_transferred",
    "base_stat_set",
    "lasting_effect_added",
    "lasting_effect_deleted",
    "lasting_effect_removed",
    "lasting_effect_restored",
    "table_rolled",
    "table_roll_taken_back",
    "campaign_ruleset_changed",
    "house_pack_set",
    "setting_changed",
    "photo_changed",
    "arc_closed",
    "arc_reopened",
    "scenario_rolled",
    "scenario_roll_taken_back",
    "gang_ruleset_changed",
    "holding_changed",
    "cycle_ended",
    "cycle_reopened",
    "gang_faction_changed",
    "faction_title_changed",
    "challenge_issued",
    "challenge_withdrawn",
    "challenge_answered",
    "challenge_answer_taken_back",
    "challenge_lapsed",
    "challenge_renewed",
    "pairings_made",
    "pairings_taken_back",
];

/// The kinds only the organiser appends.
pub const CAMPAIGN_WIDE: [&str; 9] = [
    "campaign_created",
    "campaign_renamed",
    "campaign_ruleset_changed",
    "house_pack_set",
    "setting_changed",
    "arc_closed",
    "arc_reopened",
    "pairings_made",
    "pairings_taken_back",
];

/// The kinds that make a batch a record.
pub const RECORD_KINDS: [&str; 2] = ["battle_recorded", "battle_unrecorded"];

/// Every kind the server accepts.
pub fn kinds() -> impl Iterator<Item = &'static str> {
    KINDS.iter().copied()
}

/// The place of an event's kind in [`KINDS`]. The match has no wildcard:
/// a new event does not compile until it is listed, and a test checks
/// that the place holds [`Event::kind`].
pub fn kind_index(event: &Event) -> usize {
    use Event::*;
    match event {
        CampaignCreated { .. } => 0,
        CampaignRenamed { .. } => 1,
        GangFounded { .. } => 2,
        GangDisbanded { .. } => 3,
        GangRenamed { .. } => 4,
        GangNotesChanged { .. } => 5,
        ResourceAdjusted { .. } => 6,
        FighterRecruited { .. } => 7,
        FighterDismissed { .. } => 8,
        FighterRenamed { .. } => 9,
        LeaderChanged { .. } => 10,
        QuirksChanged { .. } => 11,
        CounterChanged { .. } => 12,
        FighterNotesChanged { .. } => 13,
        BattleRecorded { .. } => 14,
        BattleUnrecorded { .. } => 15,
        TitleChanged { .. } => 16,
        ActionTaken { .. } => 17,
        ActionTakenBack { .. } => 18,
        PendingEffectAdded { .. } => 19,
        PendingEffectRemoved { .. } => 20,
        PendingEffectUsed { .. } => 21,
        PendingEffectUnused { .. } => 22,
        FighterStatusChanged { .. } => 23,
        FighterTransferred { .. } => 24,
        BaseStatSet { .. } => 25,
        LastingEffectAdded { .. } => 26,
        LastingEffectDeleted { .. } => 27,
        LastingEffectRemoved { .. } => 28,
        LastingEffectRestored { .. } => 29,
        TableRolled { .. } => 30,
        TableRollTakenBack { .. } => 31,
        CampaignRulesetChanged { .. } => 32,
        HousePackSet { .. } => 33,
        SettingChanged { .. } => 34,
        PhotoChanged { .. } => 35,
        ArcClosed { .. } => 36,
        ArcReopened { .. } => 37,
        ScenarioRolled { .. } => 38,
        ScenarioRollTakenBack { .. } => 39,
        GangRulesetChanged { .. } => 40,
        HoldingChanged { .. } => 41,
        CycleEnded { .. } => 42,
        CycleReopened { .. } => 43,
        GangFactionChanged { .. } => 44,
        FactionTitleChanged { .. } => 45,
        ChallengeIssued { .. } => 46,
        ChallengeWithdrawn { .. } => 47,
        ChallengeAnswered { .. } => 48,
        ChallengeAnswerTakenBack { .. } => 49,
        ChallengeLapsed { .. } => 50,
        ChallengeRenewed { .. } => 51,
        PairingsMade { .. } => 52,
        PairingsTakenBack { .. } => 53,
    }
}

/// What a batch reaches, as the server derives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reach {
    /// Every gang the batch changes.
    pub touched: BTreeSet<GangId>,
    /// The gangs its records name; `None` when it holds no record.
    pub record: Option<BTreeSet<GangId>>,
    /// Whether it changes the campaign as a whole (or names what the
    /// league cannot place).
    pub campaign_wide: bool,
}

/// Where the ids events name belong, after the batches taken so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Places {
    pub fighters: BTreeMap<FighterId, GangId>,
    pub effects: BTreeMap<EffectId, FighterId>,
    pub pending: BTreeMap<PendingId, GangId>,
    /// Each challenge's challenger and defender.
    pub challenges: BTreeMap<ChallengeId, (GangId, GangId)>,
}

impl Places {
    /// The reach of the next batch in server order, whose ids are then
    /// placed for the batches after it.
    pub fn take(&mut self, events: &[Event]) -> Reach {
        let mut reach = Reach::default();
        let in_record = events.iter().any(|e| {
            matches!(
                e,
                Event::BattleRecorded { .. } | Event::BattleUnrecorded { .. }
            )
        });
        let in_answer = events.iter().any(|e| {
            matches!(
                e,
                Event::ChallengeAnswered { .. } | Event::ChallengeAnswerTakenBack { .. }
            )
        });
        for event in events {
            self.take_event(event, in_record || in_answer, in_record, &mut reach);
        }
        // A record that ends the cycle changes every gang the end does,
        // each as every laptop works it out again: it names them all.
        let ends_cycle = events
            .iter()
            .any(|e| matches!(e, Event::CycleEnded { .. } | Event::CycleReopened { .. }));
        if let Some(named) = reach.record.as_mut().filter(|_| ends_cycle) {
            named.extend(reach.touched.iter().copied());
        }
        reach
    }

    /// The reach a batch would have, leaving the places as they are.
    pub fn reach(&self, events: &[Event]) -> Reach {
        self.clone().take(events)
    }

    /// The reach of one event. `worked_out`: the batch is a record or an
    /// answer to a challenge, whose holdings every laptop works out again;
    /// `in_record`: a record, whose cycle's end every laptop works out.
    fn take_event(&mut self, event: &Event, worked_out: bool, in_record: bool, reach: &mut Reach) {
        use Event::*;
        match event {
            CampaignCreated { .. }
            | CampaignRenamed { .. }
            | CampaignRulesetChanged { .. }
            | HousePackSet { .. }
            | SettingChanged { .. }
            | ArcClosed { .. }
            | ArcReopened { .. }
            | PairingsMade { .. }
            | PairingsTakenBack { .. } => reach.campaign_wide = true,
            CycleEnded { .. }
            | CycleReopened { .. }
            | FactionTitleChanged { .. }
            | ChallengeLapsed { .. }
            | ChallengeRenewed { .. }
                if in_record => {}
            CycleEnded { .. }
            | CycleReopened { .. }
            | FactionTitleChanged { .. }
            | ChallengeLapsed { .. }
            | ChallengeRenewed { .. } => reach.campaign_wide = true,
            ChallengeIssued { challenge } | ChallengeWithdrawn { challenge } => {
                touch(reach, challenge.challenger);
                self.challenges
                    .insert(challenge.id, (challenge.challenger, challenge.defender));
            }
            ChallengeAnswered { challenge, .. } | ChallengeAnswerTakenBack { challenge, .. } => {
                match self.challenges.get(challenge) {
                    Some((_, defender)) => touch(reach, *defender),
                    None => reach.campaign_wide = true,
                }
            }
            HoldingChanged { .. } if worked_out => {}
            HoldingChanged { from, to, .. } => {
                reach.touched.extend(*from);
                reach.touched.extend(*to);
            }
            GangFounded { gang } | GangDisbanded { gang } => touch(reach, gang.id),
            GangRenamed { gang, .. }
            | GangNotesChanged { gang, .. }
            | ResourceAdjusted { gang, .. }
            | GangRulesetChanged { gang, .. }
            | GangFactionChanged { gang, .. }
            | ActionTaken { gang, .. }
            | ActionTakenBack { gang, .. } => touch(reach, *gang),
            FighterRecruited { fighter } => {
                self.touch_fighter_if_placed(fighter.id, reach);
                touch(reach, fighter.gang);
                self.fighters.insert(fighter.id, fighter.gang);
            }
            FighterDismissed { fighter } => {
                self.touch_fighter_if_placed(fighter.id, reach);
                touch(reach, fighter.gang);
                self.fighters.remove(&fighter.id);
            }
            FighterRenamed { fighter, .. }
            | LeaderChanged { fighter, .. }
            | QuirksChanged { fighter, .. }
            | CounterChanged { fighter, .. }
            | FighterNotesChanged { fighter, .. }
            | BaseStatSet { fighter, .. }
            | PhotoChanged { fighter, .. } => self.touch_fighter(*fighter, reach),
            FighterStatusChanged {
                fighter, from, to, ..
            } => {
                self.touch_fighter(*fighter, reach);
                from.gang().into_iter().for_each(|g| touch(reach, g));
                to.gang().into_iter().for_each(|g| touch(reach, g));
            }
            FighterTransferred {
                fighter, from, to, ..
            } => {
                self.touch_fighter(*fighter, reach);
                touch(reach, *from);
                touch(reach, *to);
                self.fighters.insert(*fighter, *to);
            }
            BattleRecorded { battle } | BattleUnrecorded { battle } => {
                let named = reach.record.get_or_insert_with(BTreeSet::new);
                named.extend(battle.gangs.iter().map(|g| g.gang));
                reach.touched.extend(battle.gangs.iter().map(|g| g.gang));
                reach.touched.extend(battle.fighters.iter().map(|f| f.gang));
                reach.touched.extend(battle.winner);
            }
            TitleChanged { .. } if in_record => {}
            TitleChanged { from, to, .. } => {
                reach.touched.extend(*from);
                reach.touched.extend(*to);
            }
            PendingEffectAdded { effect } => {
                self.touch_pending_if_placed(effect.id, reach);
                touch(reach, effect.gang);
                self.pending.insert(effect.id, effect.gang);
            }
            PendingEffectRemoved { effect } => {
                self.touch_pending_if_placed(effect.id, reach);
                touch(reach, effect.gang);
                self.pending.remove(&effect.id);
            }
            PendingEffectUsed {
                effect, fighters, ..
            }
            | PendingEffectUnused {
                effect, fighters, ..
            } => {
                self.touch_pending(*effect, reach);
                fighters.iter().for_each(|f| self.touch_fighter(*f, reach));
            }
            LastingEffectAdded { effect } => {
                self.touch_effect_if_placed(effect.id, reach);
                self.touch_fighter(effect.fighter, reach);
                self.effects.insert(effect.id, effect.fighter);
            }
            LastingEffectDeleted { effect } => {
                self.touch_effect_if_placed(effect.id, reach);
                self.touch_fighter(effect.fighter, reach);
                self.effects.remove(&effect.id);
            }
            LastingEffectRemoved { effect, .. } | LastingEffectRestored { effect, .. } => {
                self.touch_effect(*effect, reach)
            }
            TableRolled { fighter, .. } | TableRollTakenBack { fighter, .. } => {
                if let Some(fighter) = fighter {
                    self.touch_fighter(*fighter, reach);
                }
            }
            ScenarioRolled { gangs, .. } | ScenarioRollTakenBack { gangs, .. } => {
                reach.touched.extend(gangs.iter().copied())
            }
        }
    }

    /// The fighter's gang is touched; a fighter no batch placed makes the
    /// batch campaign-wide.
    fn touch_fighter(&self, fighter: FighterId, reach: &mut Reach) {
        match self.fighters.get(&fighter) {
            Some(gang) => touch(reach, *gang),
            None => reach.campaign_wide = true,
        }
    }

    /// The gang the fighter's id belonged to, where it belonged to one.
    fn touch_fighter_if_placed(&self, fighter: FighterId, reach: &mut Reach) {
        if self.fighters.contains_key(&fighter) {
            self.touch_fighter(fighter, reach);
        }
    }

    /// The gang of the effect's fighter is touched; an effect or fighter
    /// no batch placed makes the batch campaign-wide.
    fn touch_effect(&self, effect: EffectId, reach: &mut Reach) {
        match self.effects.get(&effect) {
            Some(fighter) => self.touch_fighter(*fighter, reach),
            None => reach.campaign_wide = true,
        }
    }

    fn touch_effect_if_placed(&self, effect: EffectId, reach: &mut Reach) {
        if self.effects.contains_key(&effect) {
            self.touch_effect(effect, reach);
        }
    }

    /// The pending effect's gang is touched; one no batch placed makes the
    /// batch campaign-wide.
    fn touch_pending(&self, pending: PendingId, reach: &mut Reach) {
        match self.pending.get(&pending) {
            Some(gang) => touch(reach, *gang),
            None => reach.campaign_wide = true,
        }
    }

    fn touch_pending_if_placed(&self, pending: PendingId, reach: &mut Reach) {
        if self.pending.contains_key(&pending) {
            self.touch_pending(pending, reach);
        }
    }
}

fn touch(reach: &mut Reach, gang: GangId) {
    reach.touched.insert(gang);
}

/// Why the server would refuse a player's batch.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("it changes the whole campaign, which only the organiser does")]
    CampaignWide,
    #[error("it records a game none of whose gangs is yours")]
    NotYourRecord,
    #[error("it changes gang #{0}, which the record does not name")]
    BeyondTheRecord(GangId),
    #[error("it changes gang #{0}, which is not yours")]
    NotYourGang(GangId),
}

/// Whether a member may append a batch of this reach: the organiser
/// anything; a player a batch whose every touched gang is theirs, or a
/// record naming one of their gangs that touches only the gangs it names;
/// never a campaign-wide batch. `mine` holds the player's gangs after the
/// batch (a gang the batch founds with no owner yet becomes the player's).
pub fn may_append(reach: &Reach, mine: &BTreeSet<GangId>, organiser: bool) -> Result<(), Refusal> {
    if organiser {
        return Ok(());
    }
    if reach.campaign_wide {
        return Err(Refusal::CampaignWide);
    }
    match &reach.record {
        Some(named) => record_may_append(reach, named, mine),
        None => own_gangs_only(reach, mine),
    }
}

fn record_may_append(
    reach: &Reach,
    named: &BTreeSet<GangId>,
    mine: &BTreeSet<GangId>,
) -> Result<(), Refusal> {
    if named.is_disjoint(mine) {
        return Err(Refusal::NotYourRecord);
    }
    match reach.touched.iter().find(|g| !named.contains(g)) {
        Some(gang) => Err(Refusal::BeyondTheRecord(*gang)),
        None => Ok(()),
    }
}

fn own_gangs_only(reach: &Reach, mine: &BTreeSet<GangId>) -> Result<(), Refusal> {
    match reach.touched.iter().find(|g| !mine.contains(g)) {
        Some(gang) => Err(Refusal::NotYourGang(*gang)),
        None => Ok(()),
    }
}

/// The gangs a batch founds: a player's become theirs where no one owns
/// them yet.
pub fn founded(events: &[Event]) -> BTreeSet<GangId> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::GangFounded { gang } => Some(gang.id),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_of_kinds_has_no_kind_twice() {
        let listed: BTreeSet<&str> = kinds().collect();
        assert_eq!(listed.len(), kinds().count());
        for kind in CAMPAIGN_WIDE.iter().chain(&RECORD_KINDS) {
            assert!(listed.contains(kind), "{kind}");
        }
    }

    #[test]
    fn a_record_carries_its_effects_on_the_gangs_it_names_only() {
        let reach = Reach {
            touched: [GangId(1), GangId(2)].into(),
            record: Some([GangId(1), GangId(2)].into()),
            campaign_wide: false,
        };
        assert_eq!(may_append(&reach, &[GangId(1)].into(), false), Ok(()));
        assert_eq!(
            may_append(&reach, &[GangId(3)].into(), false),
            Err(Refusal::NotYourRecord)
        );
        let beyond = Reach {
            touched: [GangId(1), GangId(2), GangId(3)].into(),
            ..reach
        };
        assert_eq!(
            may_append(&beyond, &[GangId(1)].into(), false),
            Err(Refusal::BeyondTheRecord(GangId(3)))
        );
        assert_eq!(may_append(&beyond, &BTreeSet::new(), true), Ok(()));
    }

    #[test]
    fn outside_a_record_a_player_changes_only_their_gangs() {
        let reach = Reach {
            touched: [GangId(1), GangId(2)].into(),
            ..Reach::default()
        };
        assert_eq!(
            may_append(&reach, &[GangId(1)].into(), false),
            Err(Refusal::NotYourGang(GangId(2)))
        );
        assert_eq!(
            may_append(&reach, &[GangId(1), GangId(2)].into(), false),
            Ok(())
        );
        let wide = Reach {
            campaign_wide: true,
            ..Reach::default()
        };
        assert_eq!(
            may_append(&wide, &[GangId(1)].into(), false),
            Err(Refusal::CampaignWide)
        );
    }
}
