//! Records: battles (preview, record, take back the last one, roles from
//! the previous meeting) and the resource actions taken between them.
//!
//! The post-battle procedure itself is `campaign::battle` (pure); this
//! room hands it the campaign as it stands and commits what it decides,
//! one battle to one batch.

use anyhow::{Context as _, Result, anyhow, bail};
use serde::Serialize;

use super::{Session, procedure_state};
use crate::campaign::actions::take_action;
use crate::campaign::battle::{
    Battle, BattleReport, CampaignState, Procedure, Warning, run_procedure,
};
use crate::campaign::titles::TitleHolders;
use crate::campaign::{BatchId, BattleId, GangId, PendingEffect};
use crate::rules::Pack;
use crate::text;

/// A battle's procedure as previewed, with what it was worked out from.
/// Committed as it is (`Session::record_preview`) while the campaign has
/// not changed since; worked out again when it has.
#[derive(Debug, Clone)]
pub struct Preview {
    report: BattleReport,
    seed: u64,
    /// The newest batch in the log when it was worked out.
    newest: Option<BatchId>,
    procedure: Procedure,
}

impl Preview {
    /// What the procedure decided.
    pub fn procedure(&self) -> &Procedure {
        &self.procedure
    }

    /// The procedure, for a face that keeps it.
    pub fn into_procedure(self) -> Procedure {
        self.procedure
    }

    /// Whether this is the preview of `report` rolled from `seed`.
    pub fn is_for(&self, report: &BattleReport, seed: u64) -> bool {
        self.seed == seed && self.report == *report
    }
}

impl std::ops::Deref for Preview {
    type Target = Procedure;

    fn deref(&self) -> &Procedure {
        &self.procedure
    }
}

/// A recorded battle, and the batch that recorded it.
#[derive(Debug, Clone, Serialize)]
pub struct Recorded {
    /// The battle's id (also `procedure.battle.id`).
    #[serde(skip)]
    pub battle: BattleId,
    pub batch: Option<BatchId>,
    #[serde(flatten)]
    pub procedure: Procedure,
}

impl Session {
    /// The campaign as the post-battle procedure sees it, whole.
    pub fn campaign_state(&self) -> Result<CampaignState> {
        procedure_state::whole(self.store.ground(), &self.registry)
    }

    /// The campaign as the procedure of one report needs it, read in a
    /// few indexed queries whatever the campaign holds.
    fn campaign_state_for(&self, report: &BattleReport) -> Result<CampaignState> {
        procedure_state::state_for(
            self.store.ground(),
            &self.registry,
            self.report_pack(report).ok(),
            report,
        )
    }

    /// What each of `gangs` (of `pack`'s game) has of everything the
    /// pack's titles compare.
    pub(super) fn title_standings(
        &self,
        pack: &Pack,
        gangs: &[crate::campaign::Gang],
    ) -> Result<Vec<(GangId, std::collections::BTreeMap<String, i64>)>> {
        let fighters = if crate::campaign::titles::counts_fighters(pack) {
            self.store.all_fighters()?
        } else {
            Vec::new()
        };
        let holders = self.store.ground().season(false)?.holders;
        let first = self.first_in_standings(pack)?;
        Ok(gangs
            .iter()
            .map(|g| {
                let own = fighters.iter().filter(|f| f.gang == g.id);
                let season = crate::campaign::titles::SeasonCounts {
                    holdings: holders.values().filter(|h| **h == g.id).count(),
                    first: first == Some(g.id),
                };
                let measures = crate::campaign::titles::measures(pack, &g.resources, own, season);
                (g.id, measures)
            })
            .collect())
    }

    /// Every gang of `pack`'s game: its pack's, or one laid over the same
    /// base.
    pub(super) fn gangs_of_game(&self, pack: &Pack) -> Result<Vec<crate::campaign::Gang>> {
        procedure_state::gangs_of_game(self.store.ground(), &self.registry, pack)
    }

    /// The pack a report is played with: its first gang's.
    fn report_pack(&self, report: &BattleReport) -> Result<&Pack> {
        let (words, _) = self.campaign_words()?;
        let first = report
            .gangs
            .first()
            .ok_or_else(|| anyhow!("gangs: missing: the {} taking part", words.gangs))?;
        let gang = self.store.gang_by_name(&first.gang)?.ok_or_else(|| {
            anyhow!(
                "gangs[0].gang: no {} called “{}” in this campaign",
                words.gang,
                first.gang
            )
        })?;
        self.pack(&gang.ruleset)
    }

    /// Runs the post-battle procedure without changing anything. The app's
    /// rolls come from `seed` (the same seed gives the same rolls).
    pub fn preview_battle(&self, report: &BattleReport, seed: u64) -> Result<Preview> {
        let newest = self.store.newest_batch()?;
        let pack = self.report_pack(report)?;
        let state = self.campaign_state_for(report)?;
        let id = self.store.next_battle_id()?;
        let mut procedure = run_procedure(pack, &state, report, id, seed)?;
        procedure
            .warnings
            .extend(self.role_warnings(&procedure.battle)?);
        Ok(Preview {
            report: report.clone(),
            seed,
            newest,
            procedure,
        })
    }

    /// Roles that do not follow the previous battle between the two gangs
    /// (003, Catch and Release: "The losers of the previous skirmish are
    /// the Captors"): recorded as told, and said.
    fn role_warnings(&self, battle: &Battle) -> Result<Vec<Warning>> {
        let (Some(scenario), [a, b]) = (battle.scenario.as_deref(), battle.gangs.as_slice()) else {
            return Ok(Vec::new());
        };
        let Some((ra, rb)) = self.suggest_roles(scenario, a.gang, b.gang)? else {
            return Ok(Vec::new());
        };
        let pack = self.pack(&battle.ruleset)?;
        let Some(def) = pack.scenario(scenario) else {
            return Ok(Vec::new());
        };
        let mut warnings = Vec::new();
        for (i, (side, wanted)) in [(a, ra), (b, rb)].into_iter().enumerate() {
            if side.role.as_deref() == Some(wanted.as_str()) {
                continue;
            }
            let Some(role) = def.roles.iter().find(|r| r.id == wanted) else {
                continue;
            };
            let name = self.gang(side.gang)?.name;
            warnings.push(Warning {
                field: format!("gangs[{i}].role"),
                text: format!(
                    "by the previous {} between them, {name} are the {} in {}",
                    pack.record().noun,
                    role.label,
                    def.name
                ),
                source: role.source.clone(),
            });
        }
        Ok(warnings)
    }

    /// Records a battle: its procedure's events in one batch. Refused, with
    /// nothing changed, while a choice is missing.
    pub fn record_battle(&mut self, report: &BattleReport, seed: u64) -> Result<Recorded> {
        let preview = self.preview_battle(report, seed)?;
        self.commit_procedure(preview)
    }

    /// Records a battle as it was previewed: what the preview decided is
    /// written without working it out again, unless the campaign changed
    /// since (then it is worked out anew from the same report and seed,
    /// as `record_battle` does).
    pub fn record_preview(&mut self, preview: Preview) -> Result<Recorded> {
        if self.store.newest_batch()? != preview.newest {
            return self.record_battle(&preview.report, preview.seed);
        }
        self.commit_procedure(preview)
    }

    /// Writes a procedure's events as one batch, the record carrying the
    /// report and seed it was made from; refused while a choice is missing.
    fn commit_procedure(&mut self, preview: Preview) -> Result<Recorded> {
        // The record carries the cycle it was played in: taken in after
        // that cycle ended (a league's laptop that had not heard), it
        // counts as the game's `late` says, alike everywhere.
        let mut report = preview.report.clone();
        if report.cycle.is_none() {
            report.cycle = preview.battle.cycle;
        }
        let events = preview.events_made_from(&report, preview.seed);
        let procedure = preview.procedure;
        if let Some(first) = procedure.needed.first() {
            let more = procedure.needed.len() - 1;
            bail!(
                "{}: {} must choose for “{}” ({}): {}{}",
                first.field,
                first.gang,
                first.rule,
                first.text,
                first.options.join(" or "),
                if more > 0 {
                    format!(
                        " (and {more} more choice{})",
                        if more == 1 { "" } else { "s" }
                    )
                } else {
                    String::new()
                }
            );
        }
        let pack = self.pack(&procedure.battle.ruleset)?;
        let heading = pack.record_heading(procedure.battle.scenario.as_deref());
        let title = pack.record().title();
        let label = if procedure.battle.scenario.is_some() {
            format!("{title} #{}: {heading}", procedure.battle.id)
        } else {
            format!("{title} #{}", procedure.battle.id)
        };
        // A backup before every record, where the face keeps them: one
        // that does not check stops the record, with nothing written.
        if let Some((folder, policy)) = self.backups.clone() {
            self.make_backup(&folder, policy)
                .context("no backup could be made before the record, so it was not written")?;
        }
        let batch = self.commit(&label, events)?;
        Ok(Recorded {
            battle: procedure.battle.id,
            batch: Some(batch),
            procedure,
        })
    }

    /// What a pack calls one record, in lower case ("skirmish", "game").
    pub fn record_noun(&self, ruleset: &str) -> String {
        self.pack(ruleset)
            .map_or_else(|_| "record".to_owned(), |p| p.record().noun.clone())
    }

    /// Takes back the newest battle, restoring the campaign as it was.
    pub fn undo_last_battle(&mut self) -> Result<(BattleId, BatchId)> {
        let (_, record) = self.campaign_words()?;
        let battle = self
            .store
            .battles()?
            .pop()
            .ok_or_else(|| anyhow!("no {} to undo", record.noun))?;
        let batch = self.store.battle_batch(battle.id)?.ok_or_else(|| {
            anyhow!(
                "{} #{} has no batch in the log",
                self.record_noun(&battle.ruleset),
                battle.id
            )
        })?;
        let undo = self.undo(batch)?;
        Ok((battle.id, undo))
    }

    /// Every battle recorded, oldest first.
    pub fn battles(&self) -> Result<Vec<Battle>> {
        Ok(self.store.battles()?)
    }

    /// How many battles a gang has fought.
    pub fn battles_fought(&self, gang: GangId) -> Result<i64> {
        Ok(self.store.battles_fought(gang)?)
    }

    /// Which gang holds each title.
    pub fn title_holders(&self) -> Result<TitleHolders> {
        Ok(self.store.title_holders()?)
    }

    /// What resource actions promised, used or not yet.
    pub fn pending_effects(&self) -> Result<Vec<PendingEffect>> {
        Ok(self.store.pending_effects()?)
    }

    /// Roles for a scenario's two gangs from the previous battle between them
    /// (the losers are the Captors…), when the scenario has roles and the
    /// gangs have met before with a winner.
    pub fn suggest_roles(
        &self,
        scenario: &str,
        a: GangId,
        b: GangId,
    ) -> Result<Option<(String, String)>> {
        use crate::rules::PreviousResult;
        let gang = self.gang(a)?;
        let pack = self.gang_pack(&gang)?;
        let Some(scenario) = pack.find_scenario(scenario) else {
            return Ok(None);
        };
        if scenario.roles.len() != 2 {
            return Ok(None);
        }
        let Some(previous) = self.store.last_battle_between(a, b)? else {
            return Ok(None);
        };
        let Some(winner) = previous.winner else {
            return Ok(None);
        };
        let role_for = |won: bool| {
            let wanted = if won {
                PreviousResult::Winner
            } else {
                PreviousResult::Loser
            };
            scenario
                .roles
                .iter()
                .find(|r| r.from_previous == Some(wanted))
                .map(|r| r.id.clone())
        };
        Ok(role_for(winner == a).zip(role_for(winner == b)))
    }

    /// Takes a resource action between battles.
    pub fn take_action(
        &mut self,
        gang: GangId,
        action: &str,
        target: Option<GangId>,
        choice: Option<&str>,
    ) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let target = target.map(|t| self.gang(t)).transpose()?;
        let pack = self.gang_pack(&gang)?;
        let id = self.store.next_pending_id()?;
        let events = take_action(pack, &gang, action, target.as_ref(), choice, id)?;
        let name = pack
            .find_action(action)
            .map_or(action.to_owned(), |a| a.name.clone());
        self.commit(&format!("{}: {name}", gang.name), events)
    }

    /// A gang that qualifies for several titles chooses one; the others go
    /// where the pack's title rules send them. One batch, undoable.
    pub fn choose_title(&mut self, gang: GangId, title: &str) -> Result<BatchId> {
        let chooser = self.gang(gang)?;
        let pack = self.gang_pack(&chooser)?.clone();
        let standings = self.title_standings(&pack, &self.gangs_of_game(&pack)?)?;
        let holders = self.store.title_holders()?;
        let open =
            crate::campaign::titles::award_titles(&pack, &standings, &holders, &Default::default());
        let Some((_, options)) = open.must_choose.iter().find(|(g, _)| *g == gang) else {
            bail!("{} has no titles to choose between", chooser.name);
        };
        let name_of = |id: &str| {
            pack.titles
                .iter()
                .find(|t| t.id == id)
                .map_or_else(|| id.to_owned(), |t| t.name.clone())
        };
        let Some(chosen) = options
            .iter()
            .find(|id| text::same(id, title) || text::same(&name_of(id), title))
        else {
            let names: Vec<String> = options.iter().map(|id| name_of(id)).collect();
            bail!(
                "“{}” is not a title {} may choose ({})",
                text::echo(title),
                chooser.name,
                names.join(", ")
            );
        };
        let choices = [(gang, chosen.clone())].into_iter().collect();
        let award = crate::campaign::titles::award_titles(&pack, &standings, &holders, &choices);
        let events = award
            .changes
            .into_iter()
            .map(|(title, from, to)| crate::campaign::Event::TitleChanged { title, from, to })
            .collect();
        let label = format!("{} chooses {}", chooser.name, name_of(chosen));
        self.commit(&label, events)
    }

    /// The scenarios the next skirmish between two gangs may be: those of
    /// the stages their open arc allows next, or of the stages that begin
    /// an arc when none is open (every scenario for a pack without
    /// stages). With the stage names and why, for the faces to show.
    pub fn next_scenarios(&self, a: GangId, b: GangId) -> Result<NextScenarios> {
        let gang = self.gang(a)?;
        let pack = self.gang_pack(&gang)?;
        let arcs = self.arcs_between(a, b)?;
        let open = arcs.iter().find(|arc| !arc.closed);
        let (stages, why): (Vec<String>, Option<String>) = match open {
            Some(arc) => (
                arc.next.iter().map(|(stage, _)| stage.clone()).collect(),
                arc.next_why.clone(),
            ),
            None => (
                pack.opening_stages()
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
                None,
            ),
        };
        let in_stage = |s: &crate::rules::ScenarioDef| {
            pack.arc_stages.is_empty()
                || pack
                    .arc_stage(&s.stage)
                    .is_some_and(|st| stages.contains(&st.name))
        };
        let scenarios = pack
            .scenarios
            .iter()
            .filter(|s| in_stage(s))
            .map(|s| (s.id.clone(), s.name.clone()))
            .collect();
        Ok(NextScenarios {
            stages,
            why,
            scenarios,
        })
    }

    /// 003: "Agree upon a scenario ... or roll to randomly determine one":
    /// one die with a face per scenario the two gangs may play next,
    /// seeded and written to the log (undo takes it back).
    pub fn roll_scenario(&mut self, a: GangId, b: GangId, seed: u64) -> Result<ScenarioRoll> {
        if a == b {
            bail!("a scenario is rolled for two different gangs");
        }
        let next = self.next_scenarios(a, b)?;
        if next.scenarios.is_empty() {
            bail!("{} has no scenario to roll among", self.gang(a)?.name);
        }
        let roll = if next.scenarios.len() == 1 {
            // One scenario allowed: a one-faced die, nothing left to chance.
            crate::dice::RollRecord {
                expression: "d1".into(),
                dice: vec![1],
                total: 1,
                source: crate::dice::RollSource::App { seed },
                rolls: Vec::new(),
                scoring: Default::default(),
            }
        } else {
            let expr = crate::dice::parse(&format!("d{}", next.scenarios.len()))?;
            crate::dice::Dice::for_roll(seed, "scenario").roll(&expr, &Default::default())?
        };
        let index = usize::try_from(roll.total.saturating_sub(1)).unwrap_or(0);
        let Some((scenario, name)) = next.scenarios.get(index).cloned() else {
            bail!("the roll {} lands on no scenario", roll.total);
        };
        let event = crate::campaign::Event::ScenarioRolled {
            gangs: [a, b],
            options: next.scenarios.iter().map(|(id, _)| id.clone()).collect(),
            roll: roll.clone(),
            scenario: scenario.clone(),
        };
        let label = format!(
            "Scenario rolled for {} vs {}: {name}",
            self.gang(a)?.name,
            self.gang(b)?.name
        );
        let batch = self.commit(&label, vec![event])?;
        Ok(ScenarioRoll {
            scenario,
            name,
            roll,
            next,
            batch,
        })
    }
}

/// The scenarios two gangs may play next, and why.
#[derive(Debug, Clone, Serialize)]
pub struct NextScenarios {
    /// The arc stages they may play.
    pub stages: Vec<String>,
    /// Why those stages, where the arc's results chose.
    pub why: Option<String>,
    /// (id, name) of each scenario of those stages.
    pub scenarios: Vec<(String, String)>,
}

/// A scenario rolled for the next skirmish.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioRoll {
    pub scenario: String,
    pub name: String,
    pub roll: crate::dice::RollRecord,
    pub next: NextScenarios,
    pub batch: BatchId,
}
