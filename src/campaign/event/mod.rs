//! Events: every change to a campaign, as data, with its inverse.
//!
//! The store applies events and appends them to the log in the same
//! transaction. Undo applies the inverses of a batch, newest first. Each
//! event carries the value before and after, so its inverse is exact and
//! the store can check that the state is what the event expects.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::Battle;
use super::season::challenges::Challenge;
use super::season::pairings::Pairings;
use super::{
    BattleId, ChallengeId, EffectId, Fighter, FighterId, FighterStatus, Gang, GangId,
    LastingEffect, PendingEffect, PendingId, QuirkPick,
};
use crate::dice::RollRecord;

mod describe;
mod inverse;

/// A whole gang as founded or disbanded.
pub type GangSnapshot = Gang;
/// A whole fighter as recruited or dismissed.
pub type FighterSnapshot = Fighter;

/// One change to a campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The campaign as it was made: its name and the pack new gangs play.
    /// The first event of a campaign's log; never undone.
    CampaignCreated {
        name: String,
        default_ruleset: String,
    },
    CampaignRenamed {
        from: String,
        to: String,
    },
    GangFounded {
        gang: GangSnapshot,
    },
    /// The inverse of founding: the gang must have no fighters left.
    GangDisbanded {
        gang: GangSnapshot,
    },
    GangRenamed {
        gang: GangId,
        from: String,
        to: String,
    },
    GangNotesChanged {
        gang: GangId,
        from: String,
        to: String,
    },
    ResourceAdjusted {
        gang: GangId,
        resource: String,
        from: i64,
        to: i64,
        reason: String,
    },
    FighterRecruited {
        fighter: FighterSnapshot,
    },
    FighterDismissed {
        fighter: FighterSnapshot,
    },
    FighterRenamed {
        fighter: FighterId,
        from: String,
        to: String,
    },
    LeaderChanged {
        fighter: FighterId,
        from: bool,
        to: bool,
    },
    QuirksChanged {
        fighter: FighterId,
        from: Vec<QuirkPick>,
        to: Vec<QuirkPick>,
    },
    CounterChanged {
        fighter: FighterId,
        counter: String,
        from: i64,
        to: i64,
        reason: String,
    },
    FighterNotesChanged {
        fighter: FighterId,
        from: String,
        to: String,
    },
    /// A battle and who took part; the rest of its batch is what it changed.
    BattleRecorded {
        battle: Battle,
    },
    /// The inverse of recording a battle.
    BattleUnrecorded {
        battle: Battle,
    },
    TitleChanged {
        title: String,
        from: Option<GangId>,
        to: Option<GangId>,
    },
    /// A resource action taken between battles (what it cost and took are
    /// the batch's other events).
    ActionTaken {
        gang: GangId,
        action: String,
        target: Option<GangId>,
        choice: Option<String>,
    },
    /// The inverse of taking an action.
    ActionTakenBack {
        gang: GangId,
        action: String,
        target: Option<GangId>,
        choice: Option<String>,
    },
    PendingEffectAdded {
        effect: PendingEffect,
    },
    PendingEffectRemoved {
        effect: PendingEffect,
    },
    PendingEffectUsed {
        effect: PendingId,
        battle: BattleId,
        /// The fighters it marked in that battle.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fighters: Vec<FighterId>,
    },
    PendingEffectUnused {
        effect: PendingId,
        battle: BattleId,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fighters: Vec<FighterId>,
    },
    FighterStatusChanged {
        fighter: FighterId,
        from: FighterStatus,
        to: FighterStatus,
        reason: String,
    },
    /// A deserter hired by the rival gang, or a fighter moved by hand.
    FighterTransferred {
        fighter: FighterId,
        from: GangId,
        to: GangId,
        /// Whether they led the gang they leave, and lead the one they join.
        leader_from: bool,
        leader_to: bool,
    },
    BaseStatSet {
        fighter: FighterId,
        stat: String,
        from: Option<i64>,
        to: Option<i64>,
    },
    LastingEffectAdded {
        effect: LastingEffect,
    },
    /// The inverse of adding a lasting effect.
    LastingEffectDeleted {
        effect: LastingEffect,
    },
    /// Healed, or an advancement reversed, with the reason.
    LastingEffectRemoved {
        effect: EffectId,
        reason: String,
    },
    LastingEffectRestored {
        effect: EffectId,
        reason: String,
    },
    /// A roll on a table, as made (by the app with its seed, or by hand).
    TableRolled {
        battle: Option<BattleId>,
        fighter: Option<FighterId>,
        table: String,
        roll: RollRecord,
        modifier: i64,
        total: i64,
        /// The row's `on` and its result.
        row: String,
        result: String,
    },
    TableRollTakenBack {
        battle: Option<BattleId>,
        fighter: Option<FighterId>,
        table: String,
        roll: RollRecord,
        modifier: i64,
        total: i64,
        row: String,
        result: String,
    },
    CampaignRulesetChanged {
        from: String,
        to: String,
    },
    /// A pack of the group's own kept in the campaign (its TOML text), put
    /// in, changed or taken out.
    HousePackSet {
        id: String,
        from: Option<String>,
        to: Option<String>,
    },
    /// A campaign setting (a choice the text leaves to the group) chosen;
    /// `None` is the pack's default.
    SettingChanged {
        setting: String,
        from: Option<String>,
        to: Option<String>,
    },
    /// An arc between two gangs closed by hand before its last stage.
    ArcClosed {
        gangs: [GangId; 2],
        reason: String,
    },
    ArcReopened {
        gangs: [GangId; 2],
        reason: String,
    },
    /// The next scenario between two gangs, rolled among those their arc
    /// allows (003: "roll to randomly determine one").
    ScenarioRolled {
        gangs: [GangId; 2],
        /// The scenarios rolled among, by id, in the order of the roll.
        options: Vec<String>,
        roll: RollRecord,
        scenario: String,
    },
    /// The inverse of rolling a scenario.
    ScenarioRollTakenBack {
        gangs: [GangId; 2],
        options: Vec<String>,
        roll: RollRecord,
        scenario: String,
    },
    /// A fighter's photo, by the hash of the stored image (`None`: none).
    PhotoChanged {
        fighter: FighterId,
        from: Option<String>,
        to: Option<String>,
    },
    GangRulesetChanged {
        gang: GangId,
        from: String,
        to: String,
    },
    /// A named holding changes hands: taken in a record, given or taken by
    /// hand, chosen when a gang is founded (`None`: unclaimed).
    HoldingChanged {
        holding: String,
        from: Option<GangId>,
        to: Option<GangId>,
        reason: String,
    },
    /// The campaign's cycle `cycle` ends (what its end does is the rest of
    /// the batch); the next one begins.
    CycleEnded {
        cycle: u32,
    },
    /// The inverse of ending a cycle: `cycle` is the cycle now again.
    CycleReopened {
        cycle: u32,
    },
    /// A gang's faction, chosen when founded, changed by hand.
    GangFactionChanged {
        gang: GangId,
        from: Option<String>,
        to: Option<String>,
    },
    /// A title held by a faction changes hands (`None`: nobody).
    FactionTitleChanged {
        title: String,
        from: Option<String>,
        to: Option<String>,
    },
    /// A gang challenges another (`[challenges]`).
    ChallengeIssued {
        challenge: Challenge,
    },
    /// The inverse of issuing a challenge: one still unanswered, gone.
    ChallengeWithdrawn {
        challenge: Challenge,
    },
    /// The defender accepts or declines (what a decline gives is the rest
    /// of the batch).
    ChallengeAnswered {
        challenge: ChallengeId,
        accepted: bool,
    },
    /// The inverse of answering: the challenge unanswered again.
    ChallengeAnswerTakenBack {
        challenge: ChallengeId,
        accepted: bool,
    },
    /// A challenge unplayed at its cycle's end lapses (`accepted`: it had
    /// been accepted).
    ChallengeLapsed {
        challenge: ChallengeId,
        accepted: bool,
    },
    /// The inverse of a lapse: the challenge stands again as it was.
    ChallengeRenewed {
        challenge: ChallengeId,
        accepted: bool,
    },
    /// A cycle's pairings (`[pairings]`).
    PairingsMade {
        pairings: Pairings,
    },
    /// The inverse of making pairings.
    PairingsTakenBack {
        pairings: Pairings,
    },
}

impl Event {
    /// The event that takes this one back: each kind by the rule its
    /// inverse follows (see `inverse.rs`).
    pub fn inverse(&self) -> Event {
        use Event::*;
        let event = self.clone();
        match self {
            // Never applied: the store refuses to undo a campaign's
            // creation (see `Event::is_creation`).
            CampaignCreated { .. } => event,
            CampaignRenamed { .. }
            | GangRenamed { .. }
            | GangNotesChanged { .. }
            | FighterRenamed { .. }
            | LeaderChanged { .. }
            | QuirksChanged { .. }
            | FighterNotesChanged { .. }
            | TitleChanged { .. }
            | FighterTransferred { .. }
            | BaseStatSet { .. }
            | CampaignRulesetChanged { .. }
            | HousePackSet { .. }
            | SettingChanged { .. }
            | PhotoChanged { .. }
            | GangRulesetChanged { .. }
            | GangFactionChanged { .. }
            | FactionTitleChanged { .. } => inverse::from_and_to_swapped(event),
            ResourceAdjusted { .. }
            | CounterChanged { .. }
            | FighterStatusChanged { .. }
            | HoldingChanged { .. } => inverse::undone_with_reason(event),
            GangFounded { .. }
            | GangDisbanded { .. }
            | FighterRecruited { .. }
            | FighterDismissed { .. }
            | BattleRecorded { .. }
            | BattleUnrecorded { .. }
            | ActionTaken { .. }
            | ActionTakenBack { .. }
            | PendingEffectAdded { .. }
            | PendingEffectRemoved { .. }
            | PendingEffectUsed { .. }
            | PendingEffectUnused { .. }
            | LastingEffectAdded { .. }
            | LastingEffectDeleted { .. }
            | LastingEffectRemoved { .. }
            | LastingEffectRestored { .. }
            | ArcClosed { .. }
            | ArcReopened { .. }
            | CycleEnded { .. }
            | CycleReopened { .. }
            | ChallengeIssued { .. }
            | ChallengeWithdrawn { .. }
            | ChallengeAnswered { .. }
            | ChallengeAnswerTakenBack { .. }
            | ChallengeLapsed { .. }
            | ChallengeRenewed { .. }
            | PairingsMade { .. }
            | PairingsTakenBack { .. } => inverse::opposite(event),
            TableRolled { .. }
            | TableRollTakenBack { .. }
            | ScenarioRolled { .. }
            | ScenarioRollTakenBack { .. } => inverse::roll_opposite(event),
        }
    }

    /// Whether this event made the campaign (and so can never be undone).
    pub fn is_creation(&self) -> bool {
        matches!(self, Event::CampaignCreated { .. })
    }

    /// A short stable name for the log's `kind` column.
    pub fn kind(&self) -> &'static str {
        use Event::*;
        match self {
            CampaignCreated { .. } => "campaign_created",
            CampaignRenamed { .. } => "campaign_renamed",
            GangFounded { .. } => "gang_founded",
            GangDisbanded { .. } => "gang_disbanded",
            GangRenamed { .. } => "gang_renamed",
            GangNotesChanged { .. } => "gang_notes_changed",
            ResourceAdjusted { .. } => "resource_adjusted",
            FighterRecruited { .. } => "fighter_recruited",
            FighterDismissed { .. } => "fighter_dismissed",
            FighterRenamed { .. } => "fighter_renamed",
            LeaderChanged { .. } => "leader_changed",
            QuirksChanged { .. } => "quirks_changed",
            CounterChanged { .. } => "counter_changed",
            FighterNotesChanged { .. } => "fighter_notes_changed",
            BattleRecorded { .. } => "battle_recorded",
            BattleUnrecorded { .. } => "battle_unrecorded",
            TitleChanged { .. } => "title_changed",
            ActionTaken { .. } => "action_taken",
            ActionTakenBack { .. } => "action_taken_back",
            PendingEffectAdded { .. } => "pending_effect_added",
            PendingEffectRemoved { .. } => "pending_effect_removed",
            PendingEffectUsed { .. } => "pending_effect_used",
            PendingEffectUnused { .. } => "pending_effect_unused",
            FighterStatusChanged { .. } => "fighter_status_changed",
            FighterTransferred { .. } => "fighter_transferred",
            BaseStatSet { .. } => "base_stat_set",
            LastingEffectAdded { .. } => "lasting_effect_added",
            LastingEffectDeleted { .. } => "lasting_effect_deleted",
            LastingEffectRemoved { .. } => "lasting_effect_removed",
            LastingEffectRestored { .. } => "lasting_effect_restored",
            TableRolled { .. } => "table_rolled",
            TableRollTakenBack { .. } => "table_roll_taken_back",
            CampaignRulesetChanged { .. } => "campaign_ruleset_changed",
            HousePackSet { .. } => "house_pack_set",
            SettingChanged { .. } => "setting_changed",
            PhotoChanged { .. } => "photo_changed",
            ArcClosed { .. } => "arc_closed",
            ArcReopened { .. } => "arc_reopened",
            ScenarioRolled { .. } => "scenario_rolled",
            ScenarioRollTakenBack { .. } => "scenario_roll_taken_back",
            GangRulesetChanged { .. } => "gang_ruleset_changed",
            HoldingChanged { .. } => "holding_changed",
            CycleEnded { .. } => "cycle_ended",
            CycleReopened { .. } => "cycle_reopened",
            GangFactionChanged { .. } => "gang_faction_changed",
            FactionTitleChanged { .. } => "faction_title_changed",
            ChallengeIssued { .. } => "challenge_issued",
            ChallengeWithdrawn { .. } => "challenge_withdrawn",
            ChallengeAnswered { .. } => "challenge_answered",
            ChallengeAnswerTakenBack { .. } => "challenge_answer_taken_back",
            ChallengeLapsed { .. } => "challenge_lapsed",
            ChallengeRenewed { .. } => "challenge_renewed",
            PairingsMade { .. } => "pairings_made",
            PairingsTakenBack { .. } => "pairings_taken_back",
        }
    }

    /// The gang the event is about, for the log's index.
    pub fn gang(&self) -> Option<GangId> {
        use Event::*;
        match self {
            GangFounded { gang } | GangDisbanded { gang } => Some(gang.id),
            GangRenamed { gang, .. }
            | GangNotesChanged { gang, .. }
            | ResourceAdjusted { gang, .. } => Some(*gang),
            FighterRecruited { fighter } | FighterDismissed { fighter } => Some(fighter.gang),
            ActionTaken { gang, .. } | ActionTakenBack { gang, .. } => Some(*gang),
            PendingEffectAdded { effect } | PendingEffectRemoved { effect } => Some(effect.gang),
            TitleChanged { to, from, .. } => to.or(*from),
            FighterTransferred { to, .. } => Some(*to),
            GangRulesetChanged { gang, .. } | GangFactionChanged { gang, .. } => Some(*gang),
            HoldingChanged { to, from, .. } => to.or(*from),
            ChallengeIssued { challenge } | ChallengeWithdrawn { challenge } => {
                Some(challenge.challenger)
            }
            _ => None,
        }
    }

    /// The battle the event is about, for the log's index.
    pub fn battle(&self) -> Option<BattleId> {
        use Event::*;
        match self {
            BattleRecorded { battle } | BattleUnrecorded { battle } => Some(battle.id),
            PendingEffectUsed { battle, .. } | PendingEffectUnused { battle, .. } => Some(*battle),
            LastingEffectAdded { effect } | LastingEffectDeleted { effect } => effect.battle,
            TableRolled { battle, .. } | TableRollTakenBack { battle, .. } => *battle,
            _ => None,
        }
    }

    /// The fighter the event is about, for the log's index.
    pub fn fighter(&self) -> Option<FighterId> {
        use Event::*;
        match self {
            FighterRecruited { fighter } | FighterDismissed { fighter } => Some(fighter.id),
            FighterRenamed { fighter, .. }
            | LeaderChanged { fighter, .. }
            | QuirksChanged { fighter, .. }
            | CounterChanged { fighter, .. }
            | FighterNotesChanged { fighter, .. }
            | FighterStatusChanged { fighter, .. }
            | FighterTransferred { fighter, .. }
            | BaseStatSet { fighter, .. }
            | PhotoChanged { fighter, .. } => Some(*fighter),
            LastingEffectAdded { effect } | LastingEffectDeleted { effect } => Some(effect.fighter),
            TableRolled { fighter, .. } | TableRollTakenBack { fighter, .. } => *fighter,
            _ => None,
        }
    }

    /// The event in words, for the campaign log. `names` gives the current
    /// name of a gang or fighter the event names only by id.
    pub fn describe(&self, names: &Names) -> String {
        use Event::*;
        match self {
            CampaignCreated { name, .. } => format!("Campaign “{name}” created"),
            CampaignRenamed { from, to } => format!("Campaign renamed from “{from}” to “{to}”"),
            GangFounded { gang } => format!("{} founded", gang.name),
            GangDisbanded { gang } => format!("{} disbanded", gang.name),
            GangRenamed { from, to, .. } => format!(
                "{} {from} renamed {to}",
                crate::text::capitalised(&names.words.gang)
            ),
            GangNotesChanged { gang, .. } => format!("{}: notes changed", names.gang(*gang)),
            ResourceAdjusted {
                gang,
                resource,
                from,
                to,
                reason,
            } => describe::resource_adjusted(names, *gang, resource, *from, *to, reason),
            FighterRecruited { fighter } => describe::fighter_recruited(names, fighter),
            FighterDismissed { fighter } => {
                format!("{} left {}", fighter.name, names.gang(fighter.gang))
            }
            FighterRenamed { from, to, .. } => format!("{from} renamed {to}"),
            LeaderChanged { fighter, to, .. } => describe::leader_changed(names, *fighter, *to),
            QuirksChanged { fighter, from, to } => {
                describe::quirks_changed(names, *fighter, from, to)
            }
            CounterChanged {
                fighter,
                counter,
                from,
                to,
                reason,
            } => describe::counter_changed(names, *fighter, counter, *from, *to, reason),
            FighterNotesChanged { fighter, .. } => {
                format!("{}: notes changed", names.fighter(*fighter))
            }
            BattleRecorded { battle } => describe::battle_recorded(names, battle),
            BattleUnrecorded { battle } => describe::battle_unrecorded(names, battle),
            TitleChanged { title, from, to } => describe::title_changed(names, title, *from, *to),
            ActionTaken {
                gang,
                action,
                target,
                choice,
            } => describe::action_taken(names, *gang, action, *target, choice.as_deref()),
            ActionTakenBack { gang, action, .. } => {
                format!("{}: {} taken back", names.gang(*gang), names.label(action))
            }
            PendingEffectAdded { effect } => describe::pending_effect_added(names, effect),
            PendingEffectRemoved { effect } => describe::pending_effect_removed(names, effect),
            PendingEffectUsed {
                effect,
                battle,
                fighters,
            } => describe::pending_effect_used(names, *effect, *battle, fighters),
            PendingEffectUnused { effect, battle, .. } => format!(
                "Pending effect #{effect} no longer used in {} #{battle}",
                names.record_noun
            ),
            FighterStatusChanged {
                fighter,
                to,
                reason,
                ..
            } => describe::fighter_status_changed(names, *fighter, to, reason),
            FighterTransferred {
                fighter, from, to, ..
            } => describe::fighter_transferred(names, *fighter, *from, *to),
            BaseStatSet {
                fighter, stat, to, ..
            } => describe::base_stat_set(names, *fighter, stat, *to),
            LastingEffectAdded { effect } => describe::lasting_effect_added(names, effect),
            LastingEffectDeleted { effect } => describe::lasting_effect_deleted(names, effect),
            LastingEffectRemoved { effect, reason } => {
                format!("Lasting effect #{effect} removed: {reason}")
            }
            LastingEffectRestored { effect, reason } => {
                format!("Lasting effect #{effect} restored ({reason})")
            }
            TableRolled {
                fighter,
                table,
                roll,
                modifier,
                total,
                result,
                ..
            } => describe::table_rolled(names, *fighter, table, roll, *modifier, *total, result),
            TableRollTakenBack { fighter, table, .. } => {
                describe::table_roll_taken_back(names, *fighter, table)
            }
            CampaignRulesetChanged { from, to } => {
                describe::campaign_ruleset_changed(names, from, to)
            }
            GangRulesetChanged { gang, to, .. } => {
                format!("{} now plays {}", names.gang(*gang), names.label(to))
            }
            HousePackSet { id, from, to } => {
                describe::house_pack_set(names, id, from.as_deref(), to.as_deref())
            }
            SettingChanged { setting, to, .. } => {
                describe::setting_changed(names, setting, to.as_deref())
            }
            ArcClosed { gangs, reason } => describe::arc_closed(names, *gangs, reason),
            ArcReopened { gangs, .. } => describe::arc_reopened(names, *gangs),
            ScenarioRolled {
                gangs,
                options,
                roll,
                scenario,
            } => describe::scenario_rolled(names, *gangs, options, roll, scenario),
            ScenarioRollTakenBack { gangs, .. } => {
                describe::scenario_roll_taken_back(names, *gangs)
            }
            PhotoChanged { fighter, to, .. } => {
                describe::photo_changed(names, *fighter, to.as_deref())
            }
            HoldingChanged {
                holding,
                from,
                to,
                reason,
            } => describe::holding_changed(names, holding, *from, *to, reason),
            CycleEnded { cycle } => describe::cycle_ended(names, *cycle),
            CycleReopened { cycle } => describe::cycle_reopened(names, *cycle),
            GangFactionChanged { gang, to, .. } => {
                describe::gang_faction_changed(names, *gang, to.as_deref())
            }
            FactionTitleChanged { title, from, to } => {
                describe::faction_title_changed(names, title, from.as_deref(), to.as_deref())
            }
            ChallengeIssued { challenge } => describe::challenge_issued(names, challenge),
            ChallengeWithdrawn { challenge } => {
                format!("{} #{} withdrawn", names.challenge(), challenge.id)
            }
            ChallengeAnswered {
                challenge,
                accepted,
            } => format!(
                "{} #{challenge} {}",
                names.challenge(),
                if *accepted { "accepted" } else { "declined" }
            ),
            ChallengeAnswerTakenBack { challenge, .. } => {
                format!("{} #{challenge}: answer taken back", names.challenge())
            }
            ChallengeLapsed { challenge, .. } => {
                format!("{} #{challenge} lapsed unplayed", names.challenge())
            }
            ChallengeRenewed { challenge, .. } => {
                format!("{} #{challenge} stands again", names.challenge())
            }
            PairingsMade { pairings } => describe::pairings_made(names, pairings),
            PairingsTakenBack { pairings } => format!(
                "{} of {} {} taken back",
                names.pairings(),
                names.words.cycle,
                pairings.cycle
            ),
        }
    }
}

/// Names for ids, used to put events into words.
#[derive(Debug, Default, Clone)]
pub struct Names {
    pub gangs: BTreeMap<GangId, String>,
    pub fighters: BTreeMap<FighterId, String>,
    /// Quirk, resource and counter ids → labels from the packs.
    pub labels: BTreeMap<String, String>,
    /// Pack id → what its records are called, as a title ("Battle").
    pub records: BTreeMap<String, String>,
    /// The campaign's game's words (gang, fighter, entry, leader).
    pub words: crate::rules::Words,
    /// What the campaign's game calls one record, in lower case.
    pub record_noun: String,
    /// What the campaign's game calls a challenge (`[challenges] label`).
    pub challenge: String,
    /// What it calls a cycle's pairings (`[pairings] label`).
    pub pairings: String,
    /// Stat ids → the stat as the campaign's games define it, for its name
    /// and how a value of it reads (a step of a ladder, `2d4`). A stat whose
    /// id two of the games give with different readings is left out, and
    /// shown by its id and plain number.
    pub stats: BTreeMap<String, crate::rules::StatDef>,
    /// The ids of the rolls scored by counting (`[[record.counted]]`):
    /// their total is what the dice found, not their sum.
    pub counted: std::collections::BTreeSet<String>,
}

impl Names {
    pub(crate) fn gang(&self, id: GangId) -> String {
        self.gangs
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("{} #{id}", self.words.gang))
    }

    pub(crate) fn fighter(&self, id: FighterId) -> String {
        self.fighters
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("{} #{id}", self.words.fighter))
    }

    /// What a pack's records are called, as a title.
    fn record(&self, ruleset: &str) -> String {
        self.records
            .get(ruleset)
            .cloned()
            .unwrap_or_else(|| ruleset.to_owned())
    }

    /// What the game calls a challenge.
    pub(crate) fn challenge(&self) -> String {
        if self.challenge.is_empty() {
            "challenge".to_owned()
        } else {
            self.challenge.clone()
        }
    }

    /// What the game calls a cycle's pairings.
    pub(crate) fn pairings(&self) -> String {
        if self.pairings.is_empty() {
            "pairings".to_owned()
        } else {
            self.pairings.clone()
        }
    }

    pub(crate) fn label(&self, id: &str) -> String {
        self.labels
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_owned())
    }

    fn quirk(&self, id: &str) -> String {
        self.label(id)
    }

    pub(crate) fn resource(&self, id: &str) -> String {
        self.label(id)
    }

    pub(crate) fn counter(&self, id: &str) -> String {
        self.label(id)
    }

    /// What a stat is called in a sentence (`Combat`), or its id.
    pub(crate) fn stat(&self, id: &str) -> String {
        self.stats
            .get(id)
            .map_or_else(|| id.to_owned(), |s| s.title().to_owned())
    }

    /// A value of a stat as a player reads it: the step of its ladder
    /// (`2d4`, not the step's number), or the number with its unit.
    pub(crate) fn stat_value(&self, id: &str, value: i64) -> String {
        match self.stats.get(id) {
            Some(stat) => {
                let on_ladder = value
                    .checked_sub(stat.min.unwrap_or(0))
                    .and_then(|i| usize::try_from(i).ok())
                    .is_some_and(|i| i < stat.ladder.len());
                if on_ladder {
                    stat.show(value)
                } else {
                    format!("{value}{}", stat.unit)
                }
            }
            None => value.to_string(),
        }
    }
}
