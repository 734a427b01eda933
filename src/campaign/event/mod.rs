//! Events: every change to a campaign, as data, with its inverse.
//!
//! The store applies events and appends them to the log in the same
//! transaction. Undo applies the inverses of a batch, newest first. Each
//! event carries the value before and after, so its inverse is exact and
//! the store can check that the state is what the event expects.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::Battle;
use super::{
    BattleId, EffectId, Fighter, FighterId, FighterStatus, Gang, GangId, LastingEffect,
    PendingEffect, PendingId, QuirkPick,
};
use crate::dice::RollRecord;

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
}

impl Event {
    /// The event that takes this one back.
    pub fn inverse(&self) -> Event {
        use Event::*;
        match self.clone() {
            // Never applied: the store refuses to undo a campaign's
            // creation (see `Event::is_creation`).
            CampaignCreated { .. } => self.clone(),
            CampaignRenamed { from, to } => CampaignRenamed { from: to, to: from },
            GangFounded { gang } => GangDisbanded { gang },
            GangDisbanded { gang } => GangFounded { gang },
            GangRenamed { gang, from, to } => GangRenamed {
                gang,
                from: to,
                to: from,
            },
            GangNotesChanged { gang, from, to } => GangNotesChanged {
                gang,
                from: to,
                to: from,
            },
            ResourceAdjusted {
                gang,
                resource,
                from,
                to,
                reason,
            } => ResourceAdjusted {
                gang,
                resource,
                from: to,
                to: from,
                reason: format!("undo: {reason}"),
            },
            FighterRecruited { fighter } => FighterDismissed { fighter },
            FighterDismissed { fighter } => FighterRecruited { fighter },
            FighterRenamed { fighter, from, to } => FighterRenamed {
                fighter,
                from: to,
                to: from,
            },
            LeaderChanged { fighter, from, to } => LeaderChanged {
                fighter,
                from: to,
                to: from,
            },
            QuirksChanged { fighter, from, to } => QuirksChanged {
                fighter,
                from: to,
                to: from,
            },
            CounterChanged {
                fighter,
                counter,
                from,
                to,
                reason,
            } => CounterChanged {
                fighter,
                counter,
                from: to,
                to: from,
                reason: format!("undo: {reason}"),
            },
            FighterNotesChanged { fighter, from, to } => FighterNotesChanged {
                fighter,
                from: to,
                to: from,
            },
            BattleRecorded { battle } => BattleUnrecorded { battle },
            BattleUnrecorded { battle } => BattleRecorded { battle },
            TitleChanged { title, from, to } => TitleChanged {
                title,
                from: to,
                to: from,
            },
            ActionTaken {
                gang,
                action,
                target,
                choice,
            } => ActionTakenBack {
                gang,
                action,
                target,
                choice,
            },
            ActionTakenBack {
                gang,
                action,
                target,
                choice,
            } => ActionTaken {
                gang,
                action,
                target,
                choice,
            },
            PendingEffectAdded { effect } => PendingEffectRemoved { effect },
            PendingEffectRemoved { effect } => PendingEffectAdded { effect },
            PendingEffectUsed {
                effect,
                battle,
                fighters,
            } => PendingEffectUnused {
                effect,
                battle,
                fighters,
            },
            PendingEffectUnused {
                effect,
                battle,
                fighters,
            } => PendingEffectUsed {
                effect,
                battle,
                fighters,
            },
            FighterStatusChanged {
                fighter,
                from,
                to,
                reason,
            } => FighterStatusChanged {
                fighter,
                from: to,
                to: from,
                reason: format!("undo: {reason}"),
            },
            FighterTransferred {
                fighter,
                from,
                to,
                leader_from,
                leader_to,
            } => FighterTransferred {
                fighter,
                from: to,
                to: from,
                leader_from: leader_to,
                leader_to: leader_from,
            },
            BaseStatSet {
                fighter,
                stat,
                from,
                to,
            } => BaseStatSet {
                fighter,
                stat,
                from: to,
                to: from,
            },
            LastingEffectAdded { effect } => LastingEffectDeleted { effect },
            LastingEffectDeleted { effect } => LastingEffectAdded { effect },
            LastingEffectRemoved { effect, reason } => LastingEffectRestored { effect, reason },
            LastingEffectRestored { effect, reason } => LastingEffectRemoved { effect, reason },
            TableRolled {
                battle,
                fighter,
                table,
                roll,
                modifier,
                total,
                row,
                result,
            } => TableRollTakenBack {
                battle,
                fighter,
                table,
                roll,
                modifier,
                total,
                row,
                result,
            },
            TableRollTakenBack {
                battle,
                fighter,
                table,
                roll,
                modifier,
                total,
                row,
                result,
            } => TableRolled {
                battle,
                fighter,
                table,
                roll,
                modifier,
                total,
                row,
                result,
            },
            CampaignRulesetChanged { from, to } => CampaignRulesetChanged { from: to, to: from },
            HousePackSet { id, from, to } => HousePackSet {
                id,
                from: to,
                to: from,
            },
            SettingChanged { setting, from, to } => SettingChanged {
                setting,
                from: to,
                to: from,
            },
            ArcClosed { gangs, reason } => ArcReopened { gangs, reason },
            ScenarioRolled {
                gangs,
                options,
                roll,
                scenario,
            } => ScenarioRollTakenBack {
                gangs,
                options,
                roll,
                scenario,
            },
            ScenarioRollTakenBack {
                gangs,
                options,
                roll,
                scenario,
            } => ScenarioRolled {
                gangs,
                options,
                roll,
                scenario,
            },
            ArcReopened { gangs, reason } => ArcClosed { gangs, reason },
            PhotoChanged { fighter, from, to } => PhotoChanged {
                fighter,
                from: to,
                to: from,
            },
            GangRulesetChanged { gang, from, to } => GangRulesetChanged {
                gang,
                from: to,
                to: from,
            },
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
            GangRulesetChanged { gang, .. } => Some(*gang),
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
        let quirks = |picks: &[QuirkPick]| {
            if picks.is_empty() {
                "none".to_owned()
            } else {
                picks
                    .iter()
                    .map(|p| names.quirk(&p.quirk))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
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
            } => format!(
                "{}: {} {} ({from} → {to}): {reason}",
                names.gang(*gang),
                names.resource(resource),
                // A file may hold any two numbers; their difference may
                // not fit in i64.
                to.checked_sub(*from)
                    .map_or_else(|| "changed".to_owned(), |d| format!("{d:+}"))
            ),
            FighterRecruited { fighter } => format!(
                "{} recruited {}{} with {}",
                names.gang(fighter.gang),
                fighter.name,
                if fighter.leader {
                    format!(" as {}", names.words.leader)
                } else {
                    String::new()
                },
                quirks(&fighter.quirks)
            ),
            FighterDismissed { fighter } => {
                format!("{} left {}", fighter.name, names.gang(fighter.gang))
            }
            FighterRenamed { from, to, .. } => format!("{from} renamed {to}"),
            LeaderChanged { fighter, to, .. } => format!(
                "{} {} {}",
                names.fighter(*fighter),
                if *to { "became" } else { "is no longer" },
                names.words.leader
            ),
            QuirksChanged { fighter, from, to } => format!(
                "{}: {} {} → {}",
                names.fighter(*fighter),
                names.words.entries,
                quirks(from),
                quirks(to)
            ),
            CounterChanged {
                fighter,
                counter,
                from,
                to,
                reason,
            } => format!(
                "{}: {} {from} → {to}: {reason}",
                names.fighter(*fighter),
                names.counter(counter)
            ),
            FighterNotesChanged { fighter, .. } => {
                format!("{}: notes changed", names.fighter(*fighter))
            }
            BattleRecorded { battle } => {
                let gangs: Vec<String> = battle.gangs.iter().map(|g| names.gang(g.gang)).collect();
                let result = match battle.winner {
                    Some(w) => format!("; {} won", names.gang(w)),
                    None => "; no winner".to_owned(),
                };
                let scenario = battle
                    .scenario
                    .as_ref()
                    .map_or_else(String::new, |s| format!("{} — ", names.label(s)));
                format!(
                    "{} #{}: {scenario}{}{result}",
                    names.record(&battle.ruleset),
                    battle.id,
                    gangs.join(" vs ")
                )
            }
            BattleUnrecorded { battle } => {
                format!(
                    "{} #{} taken back",
                    names.record(&battle.ruleset),
                    battle.id
                )
            }
            TitleChanged { title, from, to } => match (from, to) {
                (_, Some(to)) => format!("{} is now {}", names.gang(*to), names.label(title)),
                (Some(from), None) => {
                    format!("{} is no longer {}", names.gang(*from), names.label(title))
                }
                (None, None) => format!("{}: unchanged", names.label(title)),
            },
            ActionTaken {
                gang,
                action,
                target,
                choice,
            } => {
                let mut text = format!("{}: {}", names.gang(*gang), names.label(action));
                if let Some(target) = target {
                    text.push_str(&format!(" against {}", names.gang(*target)));
                }
                if let Some(choice) = choice {
                    text.push_str(&format!(" ({})", names.label(choice)));
                }
                text
            }
            ActionTakenBack { gang, action, .. } => {
                format!("{}: {} taken back", names.gang(*gang), names.label(action))
            }
            PendingEffectAdded { effect } => format!(
                "{}: for the next {}: {}",
                names.gang(effect.gang),
                names.record_noun,
                effect.text
            ),
            PendingEffectRemoved { effect } => format!(
                "{}: no longer pending: {}",
                names.gang(effect.gang),
                effect.action_name
            ),
            PendingEffectUsed {
                effect,
                battle,
                fighters,
            } => {
                let marked: Vec<String> = fighters.iter().map(|f| names.fighter(*f)).collect();
                if marked.is_empty() {
                    format!(
                        "Pending effect #{effect} used in {} #{battle}",
                        names.record_noun
                    )
                } else {
                    format!(
                        "Pending effect #{effect} used in {} #{battle}, marking {}",
                        names.record_noun,
                        marked.join(", ")
                    )
                }
            }
            PendingEffectUnused { effect, battle, .. } => format!(
                "Pending effect #{effect} no longer used in {} #{battle}",
                names.record_noun
            ),
            FighterStatusChanged {
                fighter,
                to,
                reason,
                ..
            } => format!(
                "{} is now {}: {reason}",
                names.fighter(*fighter),
                to.describe(|g| names.gang(g), &names.record_noun)
            ),
            FighterTransferred {
                fighter, from, to, ..
            } => format!(
                "{} leaves {} for {}",
                names.fighter(*fighter),
                names.gang(*from),
                names.gang(*to)
            ),
            BaseStatSet {
                fighter, stat, to, ..
            } => match to {
                Some(v) => format!(
                    "{}: base {} set to {v}",
                    names.fighter(*fighter),
                    names.label(stat)
                ),
                None => format!(
                    "{}: base {} back to the default",
                    names.fighter(*fighter),
                    names.label(stat)
                ),
            },
            LastingEffectAdded { effect } => format!(
                "{}: {} ({})",
                names.fighter(effect.fighter),
                effect.name,
                effect.detail
            ),
            LastingEffectDeleted { effect } => {
                format!(
                    "{}: {} taken back",
                    names.fighter(effect.fighter),
                    effect.name
                )
            }
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
            } => {
                let who = fighter
                    .map(|f| format!("{}: ", names.fighter(f)))
                    .unwrap_or_default();
                let dice: Vec<String> = roll.dice.iter().map(u32::to_string).collect();
                let by = match roll.source {
                    crate::dice::RollSource::App { seed } => {
                        format!("rolled by the app, seed {seed}")
                    }
                    crate::dice::RollSource::Hand => "dice entered by hand".to_owned(),
                };
                let modifier = if *modifier == 0 {
                    String::new()
                } else {
                    format!(" {modifier:+}")
                };
                // Dice entered as a total show no faces.
                let faces = if dice.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", dice.join(", "))
                };
                format!(
                    "{who}{} {}{faces}{modifier} = {total}: {result} ({by})",
                    names.label(table),
                    roll.expression,
                )
            }
            TableRollTakenBack { fighter, table, .. } => {
                let who = fighter
                    .map(|f| format!("{}: ", names.fighter(f)))
                    .unwrap_or_default();
                format!("{who}roll on {} taken back", names.label(table))
            }
            CampaignRulesetChanged { from, to } => format!(
                "The campaign's ruleset changed from {} to {}",
                names.label(from),
                names.label(to)
            ),
            GangRulesetChanged { gang, to, .. } => {
                format!("{} now plays {}", names.gang(*gang), names.label(to))
            }
            HousePackSet { id, from, to } => match (from, to) {
                (None, _) => format!("House rules {} kept in the campaign", names.label(id)),
                (Some(_), None) => format!("House rules {} taken out", names.label(id)),
                (Some(_), Some(_)) => format!("House rules {} changed", names.label(id)),
            },
            SettingChanged { setting, to, .. } => format!(
                "Setting {} is now {}",
                names.label(setting),
                to.as_deref()
                    .map_or_else(|| "the pack's default".to_owned(), |t| names.label(t))
            ),
            ArcClosed { gangs, reason } => format!(
                "The arc between {} and {} closed: {reason}",
                names.gang(gangs[0]),
                names.gang(gangs[1])
            ),
            ArcReopened { gangs, .. } => format!(
                "The arc between {} and {} reopened",
                names.gang(gangs[0]),
                names.gang(gangs[1])
            ),
            ScenarioRolled {
                gangs,
                options,
                roll,
                scenario,
            } => format!(
                "{} vs {}: {} rolled {} of {} scenarios: {}",
                names.gang(gangs[0]),
                names.gang(gangs[1]),
                roll.expression,
                roll.total,
                options.len(),
                names.label(scenario)
            ),
            ScenarioRollTakenBack { gangs, .. } => format!(
                "{} vs {}: scenario roll taken back",
                names.gang(gangs[0]),
                names.gang(gangs[1])
            ),
            PhotoChanged { fighter, to, .. } => match to {
                Some(_) => format!("{}: photo set", names.fighter(*fighter)),
                None => format!("{}: photo removed", names.fighter(*fighter)),
            },
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
}
