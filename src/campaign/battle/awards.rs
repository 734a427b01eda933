//! Titles after a battle: who qualifies, and the choice of a gang that
//! qualifies for more than one. Pure.

use super::*;

use crate::campaign::season::standings::{Finishes, Measured, first_alone, rank};
use crate::campaign::titles::{SeasonCounts, award_faction_titles};

impl Run<'_> {
    /// A gang's fighters with their counters as the record leaves them:
    /// the run's, read by each fighter's part of the map.
    fn fighters_now(&self, gang: GangId) -> Vec<Fighter> {
        self.fighters
            .values()
            .filter(|f| f.gang == gang)
            .map(|f| {
                let mut f = f.clone();
                let own = self
                    .counters
                    .range((f.id, String::new())..)
                    .take_while(|((id, _), _)| *id == f.id);
                for ((_, counter), value) in own {
                    f.counters.insert(counter.clone(), *value);
                }
                f
            })
            .collect()
    }

    /// What `gang` has of everything the titles compare, as the record
    /// leaves it: its resources, its fighters' counts, its holdings, and
    /// whether it is first in the standings (`first`).
    fn title_measures(
        &self,
        gang: GangId,
        resources: &BTreeMap<String, i64>,
        first: Option<GangId>,
    ) -> BTreeMap<String, i64> {
        if !crate::campaign::titles::counts_fighters(self.pack) {
            return resources.clone();
        }
        let season = SeasonCounts {
            holdings: self.holders.values().filter(|g| **g == gang).count(),
            first: first == Some(gang),
        };
        let fighters = self.fighters_now(gang);
        crate::campaign::titles::measures(self.pack, resources, fighters.iter(), season)
    }

    /// The gang first in the standings alone as the record leaves them,
    /// where a title counts it.
    fn first_in_standings(&self) -> Option<GangId> {
        let def = self.pack.standings.as_ref()?;
        if !self
            .pack
            .titles
            .iter()
            .any(|t| t.count.as_deref() == Some("standings"))
        {
            return None;
        }
        let gangs: Vec<Gang> = self
            .state
            .gangs
            .iter()
            .filter(|g| self.plays_this_game(g))
            .map(|g| {
                let mut g = g.clone();
                g.resources = self.resources.get(&g.id).cloned().unwrap_or_default();
                g
            })
            .collect();
        let fighters: Vec<Vec<Fighter>> = gangs.iter().map(|g| self.fighters_now(g.id)).collect();
        let measured: Vec<Measured<'_>> = gangs
            .iter()
            .zip(&fighters)
            .map(|(gang, fighters)| Measured {
                gang,
                fighters: fighters.iter().collect(),
                holdings: self.holders.values().filter(|h| **h == gang.id).count(),
            })
            .collect();
        let mut results = self.state.season.results.clone();
        if self.record {
            results.push(Finishes::of(self.battle));
        }
        first_alone(&rank(self.pack, def, &measured, &results))
    }

    pub(super) fn titles(&mut self, report: &BattleReport) -> Result<(), ReportError> {
        let mut choices = BTreeMap::new();
        for (i, choice) in report.titles.iter().enumerate() {
            let field = format!("titles[{i}]");
            let Some(gang) = self.state.gang_named(&choice.gang) else {
                return refuse(
                    format!("{field}.gang"),
                    format!("no {} called “{}”", self.pack.words.gang, choice.gang),
                );
            };
            let Some(title) = self.pack.titles.iter().find(|t| {
                crate::text::same(&t.id, &choice.title) || crate::text::same(&t.name, &choice.title)
            }) else {
                return refuse(
                    format!("{field}.title"),
                    format!("“{}” is not a title", choice.title),
                );
            };
            choices.insert(gang.id, title.id.clone());
        }
        let first = self.first_in_standings();
        let standings: Vec<(GangId, BTreeMap<String, i64>)> = self
            .state
            .gangs
            .iter()
            .filter(|g| self.plays_this_game(g))
            .map(|g| {
                let resources = self.resources.get(&g.id).cloned().unwrap_or_default();
                (g.id, self.title_measures(g.id, &resources, first))
            })
            .collect();
        let award = award_titles(self.pack, &standings, &self.state.titles, &choices);
        // A choice between titles never holds the record up: the titles
        // stay with their holders until the gang chooses (the Titles
        // screen, `rapsheet titles choose`).
        let source = self
            .pack
            .title_rules
            .as_ref()
            .map_or(String::new(), |r| r.source.clone());
        for (gang, titles) in award.must_choose {
            let names: Vec<String> = titles
                .iter()
                .map(|id| {
                    self.pack
                        .titles
                        .iter()
                        .find(|t| t.id == *id)
                        .map_or(id.clone(), |t| t.name.clone())
                })
                .collect();
            let text = format!(
                "qualifies for {} and chooses one later; until then they stay with their holders",
                names.join(" and ")
            );
            self.line(Some(gang), text, &source, None);
        }
        for (title, from, to) in award.changes {
            let name = self
                .pack
                .titles
                .iter()
                .find(|t| t.id == title)
                .map_or(title.clone(), |t| t.name.clone());
            let text = match (from, to) {
                (Some(f), Some(_)) => format!("takes the title {name} from {}", self.name(f)),
                (None, Some(_)) => format!("becomes {name}"),
                (Some(_), None) => format!("is no longer {name}; nobody holds it"),
                (None, None) => continue,
            };
            let source = self
                .pack
                .title_rules
                .as_ref()
                .map_or(String::new(), |r| r.source.clone());
            self.line(to.or(from), text, &source, None);
            self.events.push(Event::TitleChanged { title, from, to });
        }
        self.faction_titles(&standings);
        Ok(())
    }

    /// The titles factions hold, measured over their gangs as the record
    /// leaves them.
    fn faction_titles(&mut self, standings: &[(GangId, BTreeMap<String, i64>)]) {
        if self.pack.titles.iter().all(|t| t.holder.is_gang()) {
            return;
        }
        let gangs: Vec<(Option<String>, BTreeMap<String, i64>)> = standings
            .iter()
            .map(|(g, m)| {
                (
                    self.state.gang(*g).and_then(|g| g.faction.clone()),
                    m.clone(),
                )
            })
            .collect();
        let changes = award_faction_titles(self.pack, &gangs, &self.state.season.faction_titles);
        for (title, from, to) in changes {
            let def = self.pack.titles.iter().find(|t| t.id == title);
            let name = def.map_or(title.clone(), |t| t.name.clone());
            let faction = |id: &Option<String>| {
                id.as_deref().map(|f| {
                    self.pack
                        .faction(f)
                        .map_or(f.to_owned(), |d| d.name.clone())
                })
            };
            let text = match (faction(&from), faction(&to)) {
                (Some(f), Some(t)) => format!("{t} takes the title {name} from {f}"),
                (None, Some(t)) => format!("{t} becomes {name}"),
                (Some(f), None) => format!("{f} is no longer {name}; nobody holds it"),
                (None, None) => continue,
            };
            let source = def.map_or_else(String::new, |t| t.source.clone());
            self.line(None, text, &source, def.and_then(|t| t.ruling.as_deref()));
            self.events
                .push(Event::FactionTitleChanged { title, from, to });
        }
    }
}
