//! Rivalries: who took down whom, gang against gang and fighter against
//! fighter, gathered battle by battle.

use std::collections::BTreeMap;

use super::super::battle::Battle;
use super::super::{BattleId, FighterId, GangId, Names};
use super::{Rivalry, sorted};

pub(super) type GangRivalry = (String, usize, String, usize);
/// Victim → (their gang, rival fighter → (takedowns, first battle)).
type Downed = BTreeMap<FighterId, (GangId, BTreeMap<FighterId, (usize, BattleId)>)>;

/// The takedowns counted so far.
#[derive(Default)]
pub(super) struct Rivals {
    /// Gang pair → takedowns of the other, each way.
    pairs: BTreeMap<[GangId; 2], [usize; 2]>,
    downed: Downed,
}

impl Rivals {
    /// The rivalries of these battles alone.
    pub(super) fn of(battles: &[Battle], names: &Names) -> (Vec<GangRivalry>, Vec<Rivalry>) {
        let mut rivals = Rivals::default();
        for battle in battles {
            rivals.count(battle);
        }
        rivals.finish(names)
    }

    /// Counts a battle's takedowns.
    pub(super) fn count(&mut self, battle: &Battle) {
        for f in &battle.fighters {
            let Some(by) = f.downed_by else { continue };
            let rival = battle.gangs.iter().map(|g| g.gang).find(|g| *g != f.gang);
            if let Some(rival) = rival {
                let pair = sorted([f.gang, rival]);
                let slot = usize::from(pair[0] != rival);
                self.pairs.entry(pair).or_default()[slot] += 1;
            }
            let entry = self
                .downed
                .entry(f.fighter)
                .or_insert((f.gang, BTreeMap::new()));
            let count = entry.1.entry(by).or_insert((0, battle.id));
            count.0 += 1;
        }
    }

    /// The rivalries in names: gang against gang, and each fighter's
    /// takers-down with their nemesis.
    pub(super) fn finish(self, names: &Names) -> (Vec<GangRivalry>, Vec<Rivalry>) {
        let gang = |id: GangId| names.gang(id);
        let fighter = |id: FighterId| names.fighter(id);
        let Rivals { pairs, downed } = self;
        let gang_rivalries = pairs
            .into_iter()
            .map(|(pair, counts)| (gang(pair[0]), counts[0], gang(pair[1]), counts[1]))
            .collect();
        let rivalries = downed
            .into_iter()
            .map(|(victim, (g, by))| {
                let nemesis = by
                    .iter()
                    .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.1.1.cmp(&a.1.1)))
                    .map(|(k, _)| fighter(*k));
                let mut downed_by: Vec<(String, usize)> =
                    by.iter().map(|(k, (n, _))| (fighter(*k), *n)).collect();
                downed_by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                Rivalry {
                    fighter: fighter(victim),
                    gang: gang(g),
                    downed_by,
                    nemesis,
                }
            })
            .collect();
        (gang_rivalries, rivalries)
    }
}
