//! What a player asks of the record room.

use crate::campaign::GangId;
use crate::campaign::battle::BattleReport;

/// What a player asks of the record screen, the titles and the arcs.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordAction {
    /// A battle report and the seed of the app's rolls.
    Record(Box<BattleReport>, u64),
    /// Roll the next scenario for two gangs among those their arc allows.
    RollScenario {
        a: GangId,
        b: GangId,
    },
    /// A gang that qualifies for several titles keeps this one.
    ChooseTitle {
        gang: GangId,
        title: String,
    },
    CloseArc(usize, String),
}
