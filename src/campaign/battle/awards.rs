//! Titles after a battle: who qualifies, and the choice of a gang that
//! qualifies for more than one. Pure.

use super::*;

impl Run<'_> {
    /// What `gang` has of everything the titles compare, as the record
    /// leaves it: its resources, and its fighters' counts.
    fn title_measures(
        &self,
        gang: GangId,
        resources: &BTreeMap<String, i64>,
    ) -> BTreeMap<String, i64> {
        if !crate::campaign::titles::counts_fighters(self.pack) {
            return resources.clone();
        }
        let fighters: Vec<Fighter> = self
            .fighters
            .values()
            .filter(|f| f.gang == gang)
            .map(|f| {
                // Its counters as the record leaves them: the run's, read
                // by the fighter's part of the map.
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
            .collect();
        crate::campaign::titles::measures(self.pack, resources, fighters.iter())
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
        let standings: Vec<(GangId, BTreeMap<String, i64>)> = self
            .state
            .gangs
            .iter()
            .filter(|g| self.plays_this_game(g))
            .map(|g| {
                let resources = self.resources.get(&g.id).cloned().unwrap_or_default();
                (g.id, self.title_measures(g.id, &resources))
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
        Ok(())
    }
}
