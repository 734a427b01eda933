//! Events: every change to a campaign, as data, with its inverse.
//!
//! The store applies events and appends them to the log in the same
//! transaction. Undo applies the inverses of a batch, newest first. Each
//! event carries the value before and after, so its inverse is exact and
//! the store can check that the state is what the event expects.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Fighter, FighterId, Gang, GangId, QuirkPick};

/// A whole gang as founded or disbanded.
pub type GangSnapshot = Gang;
/// A whole fighter as recruited or dismissed.
pub type FighterSnapshot = Fighter;

/// One change to a campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
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
}

impl Event {
    /// The event that takes this one back.
    pub fn inverse(&self) -> Event {
        use Event::*;
        match self.clone() {
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
        }
    }

    /// A short stable name for the log's `kind` column.
    pub fn kind(&self) -> &'static str {
        use Event::*;
        match self {
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
            | FighterNotesChanged { fighter, .. } => Some(*fighter),
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
            CampaignRenamed { from, to } => format!("Campaign renamed from “{from}” to “{to}”"),
            GangFounded { gang } => format!("{} founded", gang.name),
            GangDisbanded { gang } => format!("{} disbanded", gang.name),
            GangRenamed { from, to, .. } => format!("Gang {from} renamed {to}"),
            GangNotesChanged { gang, .. } => format!("{}: notes changed", names.gang(*gang)),
            ResourceAdjusted {
                gang,
                resource,
                from,
                to,
                reason,
            } => format!(
                "{}: {} {:+} ({from} → {to}): {reason}",
                names.gang(*gang),
                names.resource(resource),
                to - from
            ),
            FighterRecruited { fighter } => format!(
                "{} recruited {}{} with {}",
                names.gang(fighter.gang),
                fighter.name,
                if fighter.leader { " as leader" } else { "" },
                quirks(&fighter.quirks)
            ),
            FighterDismissed { fighter } => {
                format!("{} left {}", fighter.name, names.gang(fighter.gang))
            }
            FighterRenamed { from, to, .. } => format!("{from} renamed {to}"),
            LeaderChanged { fighter, to, .. } => format!(
                "{} {} leader",
                names.fighter(*fighter),
                if *to { "became" } else { "is no longer" }
            ),
            QuirksChanged { fighter, from, to } => format!(
                "{}: quirks {} → {}",
                names.fighter(*fighter),
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
}

impl Names {
    fn gang(&self, id: GangId) -> String {
        self.gangs
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("gang #{id}"))
    }

    fn fighter(&self, id: FighterId) -> String {
        self.fighters
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("fighter #{id}"))
    }

    fn label(&self, id: &str) -> String {
        self.labels
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_owned())
    }

    fn quirk(&self, id: &str) -> String {
        self.label(id)
    }

    fn resource(&self, id: &str) -> String {
        self.label(id)
    }

    fn counter(&self, id: &str) -> String {
        self.label(id)
    }
}
