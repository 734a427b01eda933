//! A campaign at work: the open store, the packs, and the commands a player
//! gives, each committed as one batch. The GUI and the CLI are both faces
//! over this; neither builds events or talks to the store on its own.
//!
//! No SQL here (that is `store`) and no egui (that is `ui`).

use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};
use serde::Serialize;

use crate::campaign::actions::take_action;
use crate::campaign::battle::{BattleReport, CampaignState, Procedure, run_procedure};
use crate::campaign::commands::{self, NewFighter};
use crate::campaign::titles::award_titles;
use crate::campaign::{
    BatchId, BattleId, DerivedStat, Event, Fighter, FighterId, Gang, GangId, Names, Problem,
    QuirkPick, demo, derive_stats, gang_problems,
};
use crate::rules::{Pack, Registry};
use crate::store::CampaignStore;
use crate::text;

/// A quirk as a fighter has it, with its profile for display.
#[derive(Debug, Clone, Serialize)]
pub struct QuirkView {
    pub id: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alt_name: Option<String>,
    pub category: String,
    pub profile: String,
}

impl QuirkView {
    /// `Sledgehammer (Pulverizer)`, or just `Pulverizer`.
    pub fn title(&self) -> String {
        match &self.alt_name {
            Some(alt) => format!("{alt} ({})", self.name),
            None => self.name.clone(),
        }
    }
}

/// A fighter with everything a roster shows.
#[derive(Debug, Clone, Serialize)]
pub struct FighterView {
    pub id: FighterId,
    pub name: String,
    pub leader: bool,
    /// Base and derived values of each stat.
    pub stats: Vec<DerivedStat>,
    pub quirks: Vec<QuirkView>,
    /// Counter id → value (`bounty`).
    pub counters: std::collections::BTreeMap<String, i64>,
    pub notes: String,
    /// The rules this fighter breaks.
    pub problems: Vec<Problem>,
    pub status: crate::campaign::FighterStatus,
    /// The status in words (`held by Neon Jackals`).
    pub status_text: String,
    /// Lasting injuries and advancements still on the fighter.
    pub lasting: Vec<crate::campaign::LastingEffect>,
}

/// A gang with its roster, worked out against its pack.
#[derive(Debug, Clone, Serialize)]
pub struct GangView {
    pub id: GangId,
    pub name: String,
    pub ruleset: String,
    pub ruleset_name: String,
    pub house_rules: bool,
    pub resources: Vec<ResourceView>,
    /// The pack's fighter counters, in order (Bounty).
    pub counters: Vec<CounterView>,
    /// What resource actions promised for the gang's next battle.
    pub pending: Vec<String>,
    /// The titles the gang holds.
    pub titles: Vec<String>,
    pub notes: String,
    pub fighters: Vec<FighterView>,
    /// Fighters who left the gang for good, with what became of them.
    pub gone: Vec<(String, String)>,
    /// Rival fighters this gang holds: (fighter, its name, their gang).
    pub captives: Vec<(FighterId, String, String)>,
    /// Every rule the gang breaks, the gang's own first, then each fighter's.
    pub problems: Vec<Problem>,
    /// True when the gang breaks no rule.
    pub legal: bool,
}

/// A resource with its label.
#[derive(Debug, Clone, Serialize)]
pub struct ResourceView {
    pub id: String,
    pub label: String,
    pub amount: i64,
}

/// A fighter counter with its label and bounds.
#[derive(Debug, Clone, Serialize)]
pub struct CounterView {
    pub id: String,
    pub label: String,
    pub min: i64,
    pub max: i64,
}

/// A fighter in full, for `fighter show`.
#[derive(Debug, Clone, Serialize)]
pub struct FighterDetails {
    pub gang: String,
    #[serde(flatten)]
    pub view: FighterView,
    /// Every lasting effect, healed and reversed ones too.
    pub effects: Vec<crate::campaign::LastingEffect>,
    pub history: Vec<HistoryLine>,
}

/// One thing that happened, in words.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryLine {
    pub batch: BatchId,
    pub at: String,
    pub text: String,
}

/// A line of `gang list`.
#[derive(Debug, Clone, Serialize)]
pub struct GangSummary {
    pub id: GangId,
    pub name: String,
    pub ruleset: String,
    pub fighters: usize,
    pub legal: bool,
}

/// What a command did: the batch it wrote and the rules now broken.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub batch: BatchId,
    pub label: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
    /// What went wrong after the change was saved (it stays saved).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// A title, who holds it, and how the gangs stand.
#[derive(Debug, Clone, Serialize)]
pub struct TitleView {
    pub id: String,
    pub name: String,
    pub resource: String,
    pub holder: Option<String>,
    /// Gangs by amount, most first.
    pub standings: Vec<(String, i64)>,
    /// Who would hold it if the gangs were compared now.
    pub would_go_to: Option<String>,
}

/// The titles of one ruleset, with the rulings that settle ties.
#[derive(Debug, Clone, Serialize)]
pub struct TitlesView {
    pub ruleset: String,
    pub titles: Vec<TitleView>,
    pub rulings: Vec<String>,
    /// Gangs that would have to choose between titles.
    pub must_choose: Vec<(String, Vec<String>)>,
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

/// What undo and redo would take back, by label.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct History {
    pub undo: Option<String>,
    pub redo: Option<String>,
}

/// The warning for a read that failed after a change was saved.
pub fn saved_but(batch: BatchId, doing: &str, err: &anyhow::Error) -> String {
    format!("the change is saved (batch {batch}), but {doing} failed afterwards: {err:#}")
}

/// An open campaign and the packs it is read with.
pub struct Session {
    pub store: CampaignStore,
    pub registry: Registry,
}

impl Session {
    pub fn open(path: &Path) -> Result<Self> {
        Ok(Self {
            store: CampaignStore::open(path)?,
            registry: builtin_registry()?,
        })
    }

    pub fn new(store: CampaignStore, registry: Registry) -> Self {
        Self { store, registry }
    }

    /// Creates a campaign file holding the demo gangs.
    /// Creates an empty campaign file called `name` whose new gangs play
    /// `ruleset`. Refuses to replace any file.
    pub fn create(path: &Path, name: &str, ruleset: &str) -> Result<Self> {
        let name = text::name("A campaign", name)?;
        let registry = builtin_registry()?;
        if registry.get(ruleset).is_none() {
            bail!("no ruleset pack `{ruleset}` (see `rapsheet rulesets`)");
        }
        let store = CampaignStore::create(path, &name, ruleset)?;
        Ok(Self { store, registry })
    }

    pub fn create_demo(path: &Path) -> Result<Self> {
        let registry = builtin_registry()?;
        let ruleset = demo::ruleset()?;
        let pack = registry
            .get(&ruleset)
            .ok_or_else(|| anyhow!("the demo needs the `{ruleset}` pack"))?;
        let demo = demo::demo(pack)?;
        let store = CampaignStore::create(path, &demo.campaign, &ruleset)?;
        let mut session = Self { store, registry };
        for gang in demo.gangs {
            let id = session.found_gang(&gang.name, Some(&demo.ruleset))?.0;
            if !gang.notes.is_empty() {
                session.set_gang_notes(id, &gang.notes)?;
            }
            for fighter in gang.fighters {
                session.recruit(id, fighter)?;
            }
        }
        Ok(session)
    }

    /// The campaign's file.
    pub fn path(&self) -> &Path {
        self.store.path()
    }

    pub fn pack(&self, ruleset: &str) -> Result<&Pack> {
        self.registry.get(ruleset).ok_or_else(|| {
            anyhow!(
                "this campaign uses the ruleset pack `{ruleset}`, which this build does not have"
            )
        })
    }

    /// The pack a gang is built with.
    pub fn gang_pack(&self, gang: &Gang) -> Result<&Pack> {
        self.pack(&gang.ruleset)
    }

    pub fn gang(&self, id: GangId) -> Result<Gang> {
        self.store
            .gang(id)?
            .ok_or_else(|| anyhow!("gang #{id} is not in this campaign"))
    }

    /// Finds a gang by name, for scripts: any case, accents typed either
    /// way.
    pub fn gang_named(&self, name: &str) -> Result<Gang> {
        if let Some(gang) = self.store.gang_by_name(name)? {
            return Ok(gang);
        }
        let gangs = self.store.gangs()?;
        if let Some(gang) = gangs.iter().find(|g| text::same(&g.name, name)) {
            return Ok(gang.clone());
        }
        let asked = text::echo(name);
        if gangs.is_empty() {
            bail!("no gang called “{asked}”: this campaign has no gangs yet")
        }
        let names: Vec<&str> = gangs.iter().map(|g| g.name.as_str()).collect();
        bail!("no gang called “{asked}” (gangs: {})", names.join(", "))
    }

    pub fn fighter(&self, id: FighterId) -> Result<Fighter> {
        self.store
            .fighter(id)?
            .ok_or_else(|| anyhow!("fighter #{id} is not in this campaign"))
    }

    fn commit(&mut self, label: &str, events: Vec<Event>) -> Result<BatchId> {
        Ok(self.store.commit(label, &events)?)
    }

    /// Founds a gang with the named pack, or the campaign's default.
    pub fn found_gang(&mut self, name: &str, ruleset: Option<&str>) -> Result<(GangId, BatchId)> {
        let ruleset = match ruleset {
            Some(r) => r.to_owned(),
            None => self.store.info()?.default_ruleset,
        };
        let pack = self.pack(&ruleset)?;
        let id = self.store.next_gang_id()?;
        let events = commands::found_gang(&self.store.gangs()?, id, name, pack)?;
        let batch = self.commit(&format!("Found {}", name.trim()), events)?;
        Ok((id, batch))
    }

    pub fn disband_gang(&mut self, gang: GangId) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let events = commands::disband_gang(&gang, &self.store.fighters(gang.id)?)?;
        self.commit(&format!("Disband {}", gang.name), events)
    }

    pub fn rename_gang(&mut self, gang: GangId, to: &str) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let events = commands::rename_gang(&self.store.gangs()?, &gang, to)?;
        self.commit(&format!("Rename {} to {}", gang.name, to.trim()), events)
    }

    pub fn set_gang_notes(&mut self, gang: GangId, notes: &str) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let events = commands::set_gang_notes(&gang, notes)?;
        self.commit(&format!("Notes of {}", gang.name), events)
    }

    pub fn adjust_resource(
        &mut self,
        gang: GangId,
        resource: &str,
        delta: i64,
        reason: &str,
    ) -> Result<BatchId> {
        let gang = self.gang(gang)?;
        let pack = self.gang_pack(&gang)?;
        let label = pack
            .resources
            .iter()
            .find(|r| r.id == resource || text::same(&r.label, resource))
            .map_or(resource, |r| r.label.as_str())
            .to_owned();
        let events = commands::adjust_resource(pack, &gang, resource, delta, reason)?;
        self.commit(&format!("{} {label} {delta:+}", gang.name), events)
    }

    /// Recruits a fighter; a fighter who breaks a rule is still recruited and
    /// the gang's problems come back with the outcome.
    pub fn recruit(&mut self, gang: GangId, new: NewFighter) -> Result<Outcome> {
        let gang = self.gang(gang)?;
        let pack = self.gang_pack(&gang)?;
        let roster = self.store.fighters(gang.id)?;
        let id = self.store.next_fighter_id()?;
        let label = format!("Recruit {} into {}", new.name.trim(), gang.name);
        let events = commands::recruit(pack, &gang, &roster, id, new)?;
        let batch = self.commit(&label, events)?;
        // Saved: from here on a failure is a warning, not a refusal.
        let (problems, warnings) = match self.gang_view(gang.id) {
            Ok(view) => (view.problems, Vec::new()),
            Err(err) => (
                Vec::new(),
                vec![saved_but(batch, "checking the gang's rules", &err)],
            ),
        };
        Ok(Outcome {
            batch,
            label,
            problems,
            warnings,
        })
    }

    /// Resolves quirk names (id, name or alt name) against a gang's pack.
    pub fn resolve_quirks(&self, gang: GangId, names: &[String]) -> Result<Vec<QuirkPick>> {
        let gang = self.gang(gang)?;
        Ok(commands::resolve_quirks(self.gang_pack(&gang)?, names)?)
    }

    pub fn dismiss(&mut self, fighter: FighterId) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        // The photo goes first, in the same batch, so undoing the dismissal
        // brings it back with the fighter.
        let mut events = Vec::new();
        if let Some(photo) = self.store.photo_key(fighter.id)? {
            events.push(Event::PhotoChanged {
                fighter: fighter.id,
                from: Some(photo),
                to: None,
            });
        }
        events.extend(commands::dismiss(&fighter));
        self.commit(&format!("Dismiss {}", fighter.name), events)
    }

    pub fn rename_fighter(&mut self, fighter: FighterId, to: &str) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let events = commands::rename_fighter(&gang, &self.store.fighters(gang.id)?, &fighter, to)?;
        self.commit(&format!("Rename {} to {}", fighter.name, to.trim()), events)
    }

    pub fn set_leader(&mut self, fighter: FighterId, leader: bool) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let events = commands::set_leader(&fighter, leader)?;
        let label = if leader {
            format!("Make {} leader", fighter.name)
        } else {
            format!("{} steps down as leader", fighter.name)
        };
        self.commit(&label, events)
    }

    pub fn set_quirks(&mut self, fighter: FighterId, quirks: Vec<QuirkPick>) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let events = commands::set_quirks(self.gang_pack(&gang)?, &fighter, quirks)?;
        self.commit(&format!("Quirks of {}", fighter.name), events)
    }

    pub fn set_counter(
        &mut self,
        fighter: FighterId,
        counter: &str,
        value: i64,
        reason: &str,
    ) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let events =
            commands::set_counter(self.gang_pack(&gang)?, &fighter, counter, value, reason)?;
        self.commit(&format!("{} of {}", counter, fighter.name), events)
    }

    pub fn set_fighter_notes(&mut self, fighter: FighterId, notes: &str) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let events = commands::set_fighter_notes(&fighter, notes)?;
        self.commit(&format!("Notes of {}", fighter.name), events)
    }

    /// Sets a fighter's own base value of a stat (by id, label or name).
    pub fn set_base_stat(&mut self, fighter: FighterId, stat: &str, value: i64) -> Result<BatchId> {
        let fighter = self.fighter(fighter)?;
        let gang = self.gang(fighter.gang)?;
        let pack = self.gang_pack(&gang)?;
        let events = commands::set_base_stat(pack, &fighter, stat, value)?;
        let label = match pack.stat(stat).or_else(|| {
            pack.stats
                .iter()
                .find(|s| text::same(&s.label, stat) || text::same(&s.name, stat))
        }) {
            Some(def) => format!("{}: base {} {}", fighter.name, def.label, def.show(value)),
            None => format!("{}: base stat", fighter.name),
        };
        self.commit(&label, events)
    }

    /// Reads a stat's value as typed (a number or a ladder step).
    pub fn parse_stat_value(&self, fighter: FighterId, stat: &str, text: &str) -> Result<i64> {
        let gang = self.gang(self.fighter(fighter)?.gang)?;
        let pack = self.gang_pack(&gang)?;
        let def = pack
            .stats
            .iter()
            .find(|s| s.id == stat || text::same(&s.label, stat) || text::same(&s.name, stat))
            .ok_or_else(|| anyhow!("{} has no stat “{}”", pack.pack.name, text::echo(stat)))?;
        def.parse_value(text).ok_or_else(|| {
            if def.ladder.is_empty() {
                anyhow!(
                    "{}: “{}” is not a whole number",
                    def.label,
                    text::echo(text)
                )
            } else {
                anyhow!(
                    "{}: “{}” is not a number or one of {}",
                    def.label,
                    text::echo(text),
                    def.ladder.join(", ")
                )
            }
        })
    }

    /// Takes back a batch (or redoes an undone one).
    pub fn undo(&mut self, batch: BatchId) -> Result<BatchId> {
        self.store
            .undo(batch)
            .with_context(|| format!("cannot undo change #{batch}"))
    }

    /// What undo and redo would take back now, by the labels of their
    /// changes: the one history the app and the command line share, kept
    /// in the campaign log (so it outlives closing the campaign).
    pub fn history(&self) -> Result<History> {
        let label = |batch: Option<BatchId>| -> Result<Option<String>> {
            Ok(match batch {
                Some(b) => Some(self.store.batch(b)?.0),
                None => None,
            })
        };
        Ok(History {
            undo: label(self.store.newest_undoable()?)?,
            redo: label(self.store.newest_redoable()?)?
                .map(|l| l.strip_prefix("Undo: ").map_or(l.clone(), str::to_owned)),
        })
    }

    /// Takes back the newest change still in effect. Returns the new
    /// batch and its label, or `None` when there is nothing to undo.
    pub fn undo_last(&mut self) -> Result<Option<(BatchId, String)>> {
        let Some(batch) = self.store.newest_undoable()? else {
            return Ok(None);
        };
        self.step(batch).map(Some)
    }

    /// Redoes the newest undo since the last new change. Returns the new
    /// batch and its label, or `None` when there is nothing to redo.
    pub fn redo_last(&mut self) -> Result<Option<(BatchId, String)>> {
        let Some(batch) = self.store.newest_redoable()? else {
            return Ok(None);
        };
        self.step(batch).map(Some)
    }

    fn step(&mut self, batch: BatchId) -> Result<(BatchId, String)> {
        let next = self.undo(batch)?;
        let label = self.store.batch(next)?.0;
        Ok((next, label))
    }

    /// Every gang with its size and whether it is legal.
    pub fn gang_list(&self) -> Result<Vec<GangSummary>> {
        let lasting = self.store.all_lasting_effects()?;
        self.store
            .gangs()?
            .into_iter()
            .map(|gang| {
                let fighters = self.roster(gang.id)?;
                let legal = match self.registry.get(&gang.ruleset) {
                    Some(pack) => self
                        .problems_of(pack, gang.id, &fighters, &lasting)?
                        .is_empty(),
                    None => false,
                };
                Ok(GangSummary {
                    id: gang.id,
                    name: gang.name,
                    ruleset: gang.ruleset,
                    fighters: fighters.len(),
                    legal,
                })
            })
            .collect()
    }

    /// A gang's roster worked out against its pack.
    pub fn gang_view(&self, id: GangId) -> Result<GangView> {
        let gang = self.gang(id)?;
        let pack = self.gang_pack(&gang)?;
        let (fighters, gone): (Vec<Fighter>, Vec<Fighter>) = self
            .store
            .fighters(id)?
            .into_iter()
            .partition(|f| f.status.on_roster());
        let lasting = self.store.all_lasting_effects()?;
        let problems = self.problems_of(pack, id, &fighters, &lasting)?;
        let gang_names: std::collections::BTreeMap<GangId, String> = self
            .store
            .gangs()?
            .into_iter()
            .map(|g| (g.id, g.name))
            .collect();
        let gang_name = |g: GangId| {
            gang_names
                .get(&g)
                .cloned()
                .unwrap_or_else(|| format!("gang #{g}"))
        };
        let views = fighters
            .iter()
            .map(|f| fighter_view(pack, f, &problems, &lasting, &gang_name))
            .collect();
        let captives = self
            .store
            .captives_held_by(id)?
            .into_iter()
            .map(|f| (f.id, f.name, gang_name(f.gang)))
            .collect();
        let gone = gone
            .into_iter()
            .map(|f| (f.name, f.status.describe(gang_name)))
            .collect();
        Ok(GangView {
            id,
            name: gang.name.clone(),
            ruleset: gang.ruleset.clone(),
            ruleset_name: pack.pack.name.clone(),
            house_rules: pack.pack.house_rules,
            resources: pack
                .resources
                .iter()
                .map(|r| ResourceView {
                    id: r.id.clone(),
                    label: r.label.clone(),
                    amount: gang.resources.get(&r.id).copied().unwrap_or(r.start),
                })
                .collect(),
            counters: pack
                .counters
                .iter()
                .map(|c| CounterView {
                    id: c.id.clone(),
                    label: c.label.clone(),
                    min: c.min,
                    max: c.max,
                })
                .collect(),
            pending: self
                .store
                .pending_effects()?
                .into_iter()
                .filter(|p| p.gang == id && p.used_in.is_none())
                .map(|p| format!("{}: {}", p.action_name, p.text))
                .collect(),
            titles: self
                .store
                .title_holders()?
                .into_iter()
                .filter(|(_, g)| *g == id)
                .filter_map(|(t, _)| {
                    pack.titles
                        .iter()
                        .find(|x| x.id == t)
                        .map(|x| x.name.clone())
                })
                .collect(),
            notes: gang.notes,
            fighters: views,
            gone,
            captives,
            legal: problems.is_empty(),
            problems,
        })
    }

    /// Changes the campaign's ruleset, and every gang that played the old
    /// one, in one logged change.
    pub fn set_campaign_ruleset(&mut self, ruleset: &str) -> Result<BatchId> {
        let pack = self.pack(ruleset)?;
        let name = pack.pack.name.clone();
        let info = self.store.info()?;
        if info.default_ruleset == ruleset {
            bail!("the campaign already plays {name}");
        }
        let mut events = vec![Event::CampaignRulesetChanged {
            from: info.default_ruleset.clone(),
            to: ruleset.to_owned(),
        }];
        for gang in self.store.gangs()? {
            if gang.ruleset == info.default_ruleset {
                events.push(Event::GangRulesetChanged {
                    gang: gang.id,
                    from: gang.ruleset,
                    to: ruleset.to_owned(),
                });
            }
        }
        self.commit(&format!("The campaign now plays {name}"), events)
    }

    /// The captive's gang pays a ransom and gets the fighter back.
    pub fn ransom(&mut self, fighter: FighterId, resource: &str, amount: i64) -> Result<BatchId> {
        let f = self.fighter(fighter)?;
        let crate::campaign::FighterStatus::Captured { by, .. } = f.status else {
            bail!("{} is not held by a rival gang", f.name);
        };
        let owner = self.gang(f.gang)?;
        let captors = self.gang(by)?;
        let events = commands::ransom(
            self.gang_pack(&owner)?,
            &f,
            &owner,
            &captors,
            resource,
            amount,
        )?;
        self.commit(&format!("Ransom {} from {}", f.name, captors.name), events)
    }

    /// The captors free a captive.
    pub fn release(&mut self, fighter: FighterId) -> Result<BatchId> {
        let f = self.fighter(fighter)?;
        let crate::campaign::FighterStatus::Captured { by, .. } = f.status else {
            bail!("{} is not held by a rival gang", f.name);
        };
        let captors = self.gang(by)?;
        let events = commands::release(&f, &captors)?;
        self.commit(&format!("{} releases {}", captors.name, f.name), events)
    }

    /// Heals a lasting injury or reverses an advancement.
    pub fn remove_lasting(
        &mut self,
        effect: crate::campaign::EffectId,
        reason: &str,
    ) -> Result<BatchId> {
        let e = self
            .store
            .lasting_effect(effect)?
            .ok_or_else(|| anyhow!("no lasting effect #{effect} in this campaign"))?;
        let f = self.fighter(e.fighter)?;
        let events = commands::remove_lasting(&f, &e, reason)?;
        self.commit(&format!("{}: remove {}", f.name, e.name), events)
    }

    /// The recruiting rules a gang breaks. Quirks gained by advancement do
    /// not count against the quirks a fighter is recruited with, and the
    /// size of a starting gang stops applying once the gang has fought.
    fn problems_of(
        &self,
        pack: &Pack,
        gang: GangId,
        fighters: &[Fighter],
        lasting: &[crate::campaign::LastingEffect],
    ) -> Result<Vec<Problem>> {
        let recruited: Vec<Fighter> = fighters
            .iter()
            .map(|f| {
                let mut f = f.clone();
                f.quirks.retain(|q| {
                    !lasting.iter().any(|e| {
                        e.fighter == f.id
                            && e.removed.is_none()
                            && e.quirk.as_deref() == Some(q.quirk.as_str())
                    })
                });
                f
            })
            .collect();
        let mut problems = gang_problems(pack, &recruited);
        if self.store.battles_fought(gang)? > 0 {
            problems.retain(|p| p.rule != "recruiting.size");
        }
        Ok(problems)
    }

    /// A gang's fighters who are still with it (captives included).
    pub fn roster(&self, gang: GangId) -> Result<Vec<Fighter>> {
        Ok(self
            .store
            .fighters(gang)?
            .into_iter()
            .filter(|f| f.status.on_roster())
            .collect())
    }

    /// Finds a fighter by name, in a gang or anywhere in the campaign.
    pub fn fighter_named(&self, name: &str, gang: Option<&str>) -> Result<Fighter> {
        let gang = gang.map(|g| self.gang_named(g)).transpose()?;
        let found: Vec<Fighter> = self
            .store
            .all_fighters()?
            .into_iter()
            .filter(|f| text::same(&f.name, name))
            .filter(|f| gang.as_ref().is_none_or(|g| g.id == f.gang))
            .collect();
        let asked = text::echo(name);
        match found.len() {
            1 => Ok(found
                .into_iter()
                .next()
                .ok_or_else(|| anyhow!("no fighter"))?),
            0 => bail!("no fighter called “{asked}”"),
            n => bail!("{n} fighters are called “{asked}”: name the gang (--gang)"),
        }
    }

    /// A fighter with every lasting effect (healed ones too) and the
    /// history of what happened to them.
    pub fn fighter_details(&self, fighter: FighterId) -> Result<FighterDetails> {
        let f = self.fighter(fighter)?;
        let gang = self.gang(f.gang)?;
        let pack = self.gang_pack(&gang)?;
        let effects = self.store.lasting_effects(fighter)?;
        let all = self.store.all_lasting_effects()?;
        let problems = self.problems_of(pack, gang.id, &self.roster(gang.id)?, &all)?;
        let names: std::collections::BTreeMap<GangId, String> = self
            .store
            .gangs()?
            .into_iter()
            .map(|g| (g.id, g.name))
            .collect();
        let gang_name = |g: GangId| {
            names
                .get(&g)
                .cloned()
                .unwrap_or_else(|| format!("gang #{g}"))
        };
        let view = fighter_view(pack, &f, &problems, &effects, &gang_name);
        let words = self.names()?;
        let history = self
            .store
            .fighter_history(fighter)?
            .into_iter()
            .map(|e| HistoryLine {
                batch: e.batch,
                at: e.at,
                text: e.event.describe(&words),
            })
            .collect();
        Ok(FighterDetails {
            gang: gang.name,
            view,
            effects,
            history,
        })
    }

    /// Sets a fighter's photo from PNG or JPEG bytes, or removes it.
    pub fn set_photo(&mut self, fighter: FighterId, bytes: Option<&[u8]>) -> Result<BatchId> {
        /// Photos are stored in the campaign file; keep it portable.
        const MAX_PHOTO: usize = 8 * 1024 * 1024;
        let f = self.fighter(fighter)?;
        let photo = match bytes {
            None => None,
            Some(b) if b.len() > MAX_PHOTO => {
                bail!(
                    "the photo is {} MB; at most {} MB",
                    b.len() / 1_000_000,
                    MAX_PHOTO / 1_000_000
                )
            }
            Some(b) if b.starts_with(b"\x89PNG\r\n\x1a\n") => Some(("image/png", b)),
            Some(b) if b.starts_with(&[0xFF, 0xD8, 0xFF]) => Some(("image/jpeg", b)),
            Some(_) => bail!("a photo must be a PNG or JPEG image"),
        };
        if let Some((_, b)) = photo {
            let mut warnings = Vec::new();
            printpdf::RawImage::decode_from_bytes(b, &mut warnings).map_err(|e| {
                anyhow!("the photo is not a PNG or JPEG image that can be read: {e}")
            })?;
        }
        let label = if photo.is_some() {
            format!("Photo of {}", f.name)
        } else {
            format!("{} has no photo", f.name)
        };
        Ok(self.store.set_photo(&label, fighter, photo)?)
    }

    /// Fighter cards for a gang: every fighter on its roster, or those named.
    pub fn cards(&self, gang: GangId, only: &[String]) -> Result<Vec<crate::print::CardData>> {
        let view = self.gang_view(gang)?;
        let pack = self.pack(&view.ruleset)?;
        for name in only {
            if !view.fighters.iter().any(|f| text::same(&f.name, name)) {
                bail!("{} has no fighter called “{}”", view.name, text::echo(name));
            }
        }
        view.fighters
            .iter()
            .filter(|f| only.is_empty() || only.iter().any(|n| text::same(n, &f.name)))
            .map(|f| {
                Ok(crate::print::CardData {
                    name: f.name.clone(),
                    gang: view.name.clone(),
                    leader: f.leader,
                    counters: view
                        .counters
                        .iter()
                        .map(|c| {
                            (
                                c.label.clone(),
                                f.counters.get(&c.id).copied().unwrap_or(0).to_string(),
                            )
                        })
                        .collect(),
                    stats: f
                        .stats
                        .iter()
                        .map(|s| crate::print::StatCell {
                            label: s.label.clone(),
                            value: s.display(),
                            base: (s.value != s.base).then(|| {
                                let mut base = s.clone();
                                base.value = s.base;
                                base.display()
                            }),
                        })
                        .collect(),
                    quirks: f
                        .quirks
                        .iter()
                        .map(|q| {
                            let profile = pack
                                .quirk(&q.id)
                                .map_or(String::new(), |d| pack.card_profile(d));
                            if profile.is_empty() {
                                q.title()
                            } else {
                                format!("{}: {profile}", q.title())
                            }
                        })
                        .collect(),
                    lasting: f
                        .lasting
                        .iter()
                        .map(|e| format!("{}: {}", e.name, e.detail))
                        .collect(),
                    photo: self.store.photo(f.id)?,
                    quirks_heading: pack.words.card_quirks.clone(),
                    lasting_heading: pack.words.card_lasting.clone(),
                    notes_heading: pack.words.card_notes.clone(),
                    marks_heading: pack.words.card_marks.clone(),
                    blank: false,
                })
            })
            .collect()
    }

    /// A blank card with a gang's labels, for fighters written in by hand.
    pub fn blank_card(&self, gang: GangId) -> Result<crate::print::CardData> {
        let view = self.gang_view(gang)?;
        let pack = self.pack(&view.ruleset)?;
        Ok(crate::print::CardData {
            name: String::new(),
            gang: String::new(),
            leader: false,
            counters: view
                .counters
                .iter()
                .map(|c| (c.label.clone(), String::new()))
                .collect(),
            stats: pack
                .stats
                .iter()
                .map(|s| crate::print::StatCell {
                    label: s.label.clone(),
                    value: String::new(),
                    base: None,
                })
                .collect(),
            quirks: Vec::new(),
            lasting: Vec::new(),
            photo: None,
            quirks_heading: pack.words.card_quirks.clone(),
            lasting_heading: pack.words.card_lasting.clone(),
            notes_heading: pack.words.card_notes.clone(),
            marks_heading: pack.words.card_marks.clone(),
            blank: true,
        })
    }

    /// A gang's roster sheet.
    pub fn roster_sheet(&self, gang: GangId) -> Result<crate::print::RosterData> {
        let view = self.gang_view(gang)?;
        let resources: Vec<String> = view
            .resources
            .iter()
            .map(|r| format!("{} {}", r.label, r.amount))
            .collect();
        let fighters = view
            .fighters
            .iter()
            .map(|f| {
                let stats: Vec<String> = f
                    .stats
                    .iter()
                    .map(|s| format!("{} {}", s.label, s.display()))
                    .collect();
                let counters: Vec<String> = view
                    .counters
                    .iter()
                    .map(|c| {
                        format!(
                            "{} {}",
                            c.label,
                            f.counters.get(&c.id).copied().unwrap_or(0)
                        )
                    })
                    .collect();
                let mut headline = format!("{}{}", if f.leader { "★ " } else { "" }, f.name);
                headline.push_str(&format!(
                    "   {}   {}",
                    stats.join("  "),
                    counters.join("  ")
                ));
                let mut lines = vec![
                    f.quirks
                        .iter()
                        .map(|q| q.title())
                        .collect::<Vec<_>>()
                        .join(", "),
                ];
                if !f.lasting.is_empty() {
                    let lasting: Vec<String> = f
                        .lasting
                        .iter()
                        .map(|e| format!("{}: {}", e.name, e.detail))
                        .collect();
                    lines.push(format!("Lasting: {}", lasting.join("; ")));
                }
                if !f.status.can_fight() {
                    lines.push(format!("Status: {}", f.status_text));
                }
                crate::print::RosterFighter {
                    name: f.name.clone(),
                    headline,
                    lines,
                }
            })
            .collect();
        let mut ruleset = view.ruleset_name.clone();
        if view.house_rules {
            ruleset.push_str(" (house rules)");
        }
        Ok(crate::print::RosterData {
            gang: view.name.clone(),
            ruleset,
            resources: resources.join(" · "),
            titles: if view.titles.is_empty() {
                String::new()
            } else {
                format!("Titles: {}", view.titles.join(", "))
            },
            fighters,
        })
    }

    /// The campaign's story, read from its log.
    pub fn chronicle(&self) -> Result<crate::campaign::chronicle::Chronicle> {
        use crate::campaign::chronicle::{Logged, ScenarioInfo, StoryRules, chronicle};
        let log: Vec<Logged> = self
            .store
            .full_log()?
            .into_iter()
            .map(|e| Logged {
                batch: e.batch,
                undoes: e.undoes,
                at: e.at,
                event: e.event,
            })
            .collect();
        let info = self.store.info()?;
        let pack = self.pack(&info.default_ruleset)?;
        let mut rules = StoryRules {
            bounty_counter: pack.bounties.as_ref().map(|b| b.counter.clone()),
            takedowns_heading: pack.words.takedowns.clone(),
            opening_stages: pack
                .opening_stages()
                .into_iter()
                .map(str::to_owned)
                .collect(),
            ..Default::default()
        };
        for p in self.registry.packs() {
            rules
                .default_outcomes
                .extend(p.default_outcome().map(|o| o.id.clone()));
            for o in &p.outcomes {
                rules
                    .outcomes
                    .entry(o.id.clone())
                    .or_insert_with(|| o.label.clone());
            }
        }
        for s in &pack.scenarios {
            for role in &s.roles {
                rules.roles.insert(role.id.clone(), role.label.clone());
            }
            rules.scenarios.insert(
                s.id.clone(),
                ScenarioInfo {
                    name: s.name.clone(),
                    stage: pack
                        .arc_stage(&s.stage)
                        .map(|st| (st.id.clone(), st.name.clone(), st.step)),
                },
            );
        }
        for st in &pack.arc_stages {
            let scenarios = pack
                .scenarios
                .iter()
                .filter(|s| s.stage == st.id)
                .map(|s| s.name.clone())
                .collect();
            rules.stages.entry(st.step).or_default().push((
                st.id.clone(),
                st.name.clone(),
                scenarios,
            ));
        }
        Ok(chronicle(&log, &self.names()?, &rules))
    }

    /// Closes the open arc between two gangs by hand.
    pub fn close_arc(&mut self, arc: usize, reason: &str) -> Result<BatchId> {
        let story = self.chronicle()?;
        let found = story
            .arcs
            .iter()
            .find(|a| a.id == arc)
            .ok_or_else(|| anyhow!("no arc #{arc} in this campaign"))?;
        if found.closed {
            bail!("arc #{arc} is already closed");
        }
        let reason = reason.trim();
        if reason.is_empty() {
            bail!("closing an arc needs a reason for the log");
        }
        let label = format!("Close arc #{arc}: {} vs {}", found.gangs[0], found.gangs[1]);
        self.commit(
            &label,
            vec![Event::ArcClosed {
                gangs: found.gang_ids,
                reason: reason.to_owned(),
            }],
        )
    }

    /// The first pack of a pack's line of overrides (the pack itself when
    /// it overrides nothing).
    fn root_of(&self, ruleset: &str) -> String {
        let mut id = ruleset.to_owned();
        for _ in 0..8 {
            match self.registry.get(&id).and_then(|p| p.pack.base.clone()) {
                Some(base) => id = base,
                None => break,
            }
        }
        id
    }

    /// The campaign as the post-battle procedure sees it.
    pub fn campaign_state(&self) -> Result<CampaignState> {
        let gangs = self.store.gangs()?;
        Ok(CampaignState {
            roots: gangs
                .iter()
                .map(|g| (g.ruleset.clone(), self.root_of(&g.ruleset)))
                .chain(
                    self.registry
                        .packs()
                        .map(|p| (p.pack.id.clone(), self.root_of(&p.pack.id))),
                )
                .collect(),
            gangs,
            fighters: self.store.all_fighters()?,
            titles: self.store.title_holders()?,
            pending: self.store.pending_effects()?,
            lasting: self.store.all_lasting_effects()?,
            next_effect: self.store.next_effect_id()?,
        })
    }

    /// The campaign as the procedure of one report needs it: every gang
    /// (titles compare them all), but only the fighters, lasting effects
    /// and pending effects of the gangs the report names, so recording a
    /// battle costs the same in a campaign of two gangs or two hundred.
    fn campaign_state_for(&self, report: &BattleReport) -> Result<CampaignState> {
        let gangs = self.store.gangs()?;
        let named: Vec<GangId> = report
            .gangs
            .iter()
            .filter_map(|r| {
                gangs
                    .iter()
                    .find(|g| text::same(&g.name, &r.gang))
                    .map(|g| g.id)
            })
            .collect();
        let mut fighters = Vec::new();
        for g in &named {
            fighters.extend(self.store.fighters(*g)?);
        }
        let mut lasting = Vec::new();
        for f in &fighters {
            lasting.extend(self.store.lasting_effects(f.id)?);
        }
        Ok(CampaignState {
            roots: gangs
                .iter()
                .map(|g| (g.ruleset.clone(), self.root_of(&g.ruleset)))
                .chain(
                    self.registry
                        .packs()
                        .map(|p| (p.pack.id.clone(), self.root_of(&p.pack.id))),
                )
                .collect(),
            gangs,
            fighters,
            titles: self.store.title_holders()?,
            pending: self
                .store
                .pending_effects()?
                .into_iter()
                .filter(|p| named.contains(&p.gang))
                .collect(),
            lasting,
            next_effect: self.store.next_effect_id()?,
        })
    }

    /// The pack a report is played with: its first gang's.
    fn report_pack(&self, report: &BattleReport) -> Result<&Pack> {
        let first = report
            .gangs
            .first()
            .ok_or_else(|| anyhow!("gangs: a battle is between two gangs, not 0"))?;
        let gang = self.store.gang_by_name(&first.gang)?.ok_or_else(|| {
            anyhow!(
                "gangs[0].gang: no gang called “{}” in this campaign",
                first.gang
            )
        })?;
        self.pack(&gang.ruleset)
    }

    /// Runs the post-battle procedure without changing anything. The app's
    /// rolls come from `seed` (the same seed gives the same rolls).
    pub fn preview_battle(&self, report: &BattleReport, seed: u64) -> Result<Procedure> {
        let pack = self.report_pack(report)?;
        let state = self.campaign_state_for(report)?;
        let id = self.store.next_battle_id()?;
        Ok(run_procedure(pack, &state, report, id, seed)?)
    }

    /// Records a battle: its procedure's events in one batch. Refused, with
    /// nothing changed, while a choice is missing.
    pub fn record_battle(&mut self, report: &BattleReport, seed: u64) -> Result<Recorded> {
        let procedure = self.preview_battle(report, seed)?;
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
        let pack = self.report_pack(report)?;
        let scenario = pack
            .scenario(&procedure.battle.scenario)
            .map_or(procedure.battle.scenario.clone(), |s| s.name.clone());
        let label = format!("Battle #{}: {scenario}", procedure.battle.id);
        let batch = self.store.commit(&label, &procedure.events)?;
        Ok(Recorded {
            battle: procedure.battle.id,
            batch: Some(batch),
            procedure,
        })
    }

    /// Takes back the newest battle, restoring the campaign as it was.
    pub fn undo_last_battle(&mut self) -> Result<(BattleId, BatchId)> {
        let battle = self
            .store
            .battles()?
            .pop()
            .ok_or_else(|| anyhow!("no battle to undo"))?;
        let batch = self
            .store
            .battle_batch(battle.id)?
            .ok_or_else(|| anyhow!("battle #{} has no batch in the log", battle.id))?;
        let undo = self.undo(batch)?;
        Ok((battle.id, undo))
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

    /// The titles of a ruleset: holders, standings, and who leads now.
    pub fn titles(&self, ruleset: &str) -> Result<TitlesView> {
        let pack = self.pack(ruleset)?;
        let root = self.root_of(ruleset);
        let gangs: Vec<Gang> = self
            .store
            .gangs()?
            .into_iter()
            .filter(|g| self.root_of(&g.ruleset) == root)
            .collect();
        let holders = self.store.title_holders()?;
        let standings: Vec<(GangId, std::collections::BTreeMap<String, i64>)> =
            gangs.iter().map(|g| (g.id, g.resources.clone())).collect();
        let award = award_titles(pack, &standings, &holders, &Default::default());
        let name = |id: GangId| {
            gangs
                .iter()
                .find(|g| g.id == id)
                .map_or_else(|| format!("gang #{id}"), |g| g.name.clone())
        };
        let titles = pack
            .titles
            .iter()
            .map(|t| {
                let mut standing: Vec<(String, i64)> = gangs
                    .iter()
                    .map(|g| {
                        (
                            g.name.clone(),
                            g.resources.get(&t.resource).copied().unwrap_or(0),
                        )
                    })
                    .collect();
                standing.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                TitleView {
                    id: t.id.clone(),
                    name: t.name.clone(),
                    resource: pack.resource_label(&t.resource).to_owned(),
                    holder: holders.get(&t.id).map(|g| name(*g)),
                    standings: standing,
                    would_go_to: award.holders.get(&t.id).map(|g| name(*g)),
                }
            })
            .collect();
        let rulings = pack
            .title_rules
            .iter()
            .flat_map(|r| r.rulings.iter())
            .filter_map(|id| pack.ruling(id))
            .map(|r| r.ruling.clone())
            .collect();
        Ok(TitlesView {
            ruleset: ruleset.to_owned(),
            titles,
            rulings,
            must_choose: award
                .must_choose
                .into_iter()
                .map(|(g, t)| (name(g), t))
                .collect(),
        })
    }

    /// Names for putting log events into words.
    pub fn names(&self) -> Result<Names> {
        let mut names = Names::default();
        for gang in self.store.gangs()? {
            for fighter in self.store.fighters(gang.id)? {
                names.fighters.insert(fighter.id, fighter.name);
            }
            names.gangs.insert(gang.id, gang.name);
        }
        for pack in self.registry.packs() {
            for q in &pack.quirks {
                names.labels.insert(q.id.clone(), q.name.clone());
            }
            for r in &pack.resources {
                names.labels.insert(r.id.clone(), r.label.clone());
            }
            for c in &pack.counters {
                names.labels.insert(c.id.clone(), c.label.clone());
            }
            for s in &pack.scenarios {
                names.labels.insert(s.id.clone(), s.name.clone());
            }
            for t in &pack.titles {
                names.labels.insert(t.id.clone(), t.name.clone());
            }
            for a in &pack.actions {
                names.labels.insert(a.id.clone(), a.name.clone());
            }
        }
        Ok(names)
    }
}

/// A fighter's view: stats, quirk profiles, status, lasting effects, and the
/// problems that name it. `lasting` may hold other fighters' effects too.
pub fn fighter_view(
    pack: &Pack,
    fighter: &Fighter,
    problems: &[Problem],
    lasting: &[crate::campaign::LastingEffect],
    gang_name: &dyn Fn(GangId) -> String,
) -> FighterView {
    use crate::campaign::ProblemScope;
    FighterView {
        id: fighter.id,
        name: fighter.name.clone(),
        leader: fighter.leader,
        status: fighter.status.clone(),
        status_text: fighter.status.describe(gang_name),
        lasting: lasting
            .iter()
            .filter(|e| e.fighter == fighter.id && e.removed.is_none())
            .cloned()
            .collect(),
        stats: derive_stats(pack, fighter, lasting),
        quirks: fighter
            .quirks
            .iter()
            .map(|pick| match pack.quirk(&pick.quirk) {
                Some(q) => QuirkView {
                    id: q.id.clone(),
                    name: q.name.clone(),
                    alt_name: pick.alt_name.clone(),
                    category: q.category.clone(),
                    profile: pack.profile(q),
                },
                None => QuirkView {
                    id: pick.quirk.clone(),
                    name: pick.quirk.clone(),
                    alt_name: pick.alt_name.clone(),
                    category: String::new(),
                    profile: "not in this pack".into(),
                },
            })
            .collect(),
        counters: fighter.counters.clone(),
        notes: fighter.notes.clone(),
        problems: problems
            .iter()
            .filter(|p| matches!(&p.scope, ProblemScope::Fighter { fighter: id, .. } if *id == fighter.id))
            .cloned()
            .collect(),
    }
}

/// The packs shipped with this build.
pub fn builtin_registry() -> Result<Registry> {
    Registry::builtin().context("a ruleset pack shipped with Rapsheet is broken")
}
