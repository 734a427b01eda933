//! The campaign as the views show it, read once per change and kept.
//!
//! Every cache here is keyed by the newest batch of the campaign log: a
//! frame of an unchanged campaign asks the store nothing, and after an
//! action one query tells whether anything needs reading again. Nothing
//! here draws, and nothing here changes the campaign.

use crate::campaign::chronicle::Chronicle;
use crate::campaign::{BatchId, CampaignInfo, FighterId, GangId};
use crate::rules::Words;
use crate::session::{FighterView, GangSummary, GangView, History, Session, TitlesView};

/// The captive a ransom is being agreed for, and the pack of their gang.
#[derive(Debug, Clone)]
pub struct Captive {
    pub fighter: FighterId,
    pub name: String,
    pub ruleset: String,
    /// What the pack says they cost.
    pub terms: crate::session::CaptiveTerms,
}

/// What the views draw from.
#[derive(Default)]
pub struct ViewState {
    /// The newest batch the caches were read at (the inner `None`: an empty
    /// log); `None` until the first read.
    batch: Option<Option<BatchId>>,
    pub gangs: Vec<GangSummary>,
    pub selected_gang: Option<GangId>,
    pub selected_fighter: Option<FighterId>,
    pub gang_view: Option<GangView>,
    /// The gang `gang_view` was read for.
    viewed: Option<GangId>,
    /// What undo and redo would take back: the campaign log's.
    pub history: History,
    /// The campaign's name and default pack.
    pub info: Option<CampaignInfo>,
    /// The words of the campaign's game (every name events refer to is
    /// read by the log, when it is shown: never at open).
    pub words: Words,
    /// The titles and every gang's standing, read the first time the
    /// Titles screen is shown after a change (never at open).
    titles: Option<Result<TitlesView, String>>,
    /// The gangs that keep one of several titles, asked over every
    /// screen: read from the gangs that can hold a title alone.
    pub title_choices: Vec<crate::session::TitleChoice>,
    /// Every gang as the battle form offers it; only the gangs the form
    /// has chosen have their fighters read (see `load_battle_fighters`).
    pub battle_data: BattleData,
    /// Whether working out the gangs' recruiting marks failed since the
    /// last change (said once, not tried again every frame).
    judging_failed: bool,
    /// Every pack this build has, as (id, name).
    pub rulesets: Vec<(String, String)>,
    /// The house packs the campaign keeps.
    pub house: Vec<crate::session::HousePack>,
    /// The choices the campaign's packs leave to the group.
    pub settings: Vec<crate::session::SettingView>,
    /// The whole chronicle, read the first time it is shown after a change.
    chronicle: Option<Result<Chronicle, String>>,
    /// The chronicle as shown (the whole campaign or one arc), for the arc
    /// it was cut for.
    chronicle_shown: Option<(Option<usize>, Option<Chronicle>)>,
    /// Read when the ransom dialog opens, and after each change while it is.
    pub captive: Option<Captive>,
    /// The season of the campaign's game: holdings, the cycle, standings.
    pub season: Option<crate::session::SeasonView>,
    /// The arbitrator's table: the cycle's pairings and challenges, and in
    /// a league who has synced when and the changes left out (as the last
    /// sync heard them).
    pub table: Option<crate::session::SeasonTable>,
}

/// What a refresh found.
#[derive(Default)]
pub struct Refreshed {
    /// Whether the campaign changed since the last refresh.
    pub changed: bool,
    pub errors: Vec<anyhow::Error>,
}

impl ViewState {
    /// The newest batch of the log, as last read.
    pub fn batch(&self) -> Option<BatchId> {
        self.batch.flatten()
    }

    /// Reads what changed since the last refresh, and what a new selection
    /// shows; a selection gone from the campaign falls back to the first
    /// gang, or to no fighter.
    pub fn refresh(&mut self, session: &Session) -> Refreshed {
        let mut out = Refreshed::default();
        match session.newest_batch() {
            Ok(batch) => {
                out.changed = self.batch != Some(batch);
                self.batch = Some(batch);
            }
            Err(err) => {
                // Unknown: read everything, and again next time.
                out.changed = true;
                self.batch = None;
                out.errors.push(err);
            }
        }
        if out.changed {
            self.read_campaign(session, &mut out.errors);
        }
        if self
            .selected_gang
            .is_none_or(|id| !self.gangs.iter().any(|g| g.id == id))
        {
            self.selected_gang = self.gangs.first().map(|g| g.id);
        }
        if out.changed || self.viewed != self.selected_gang {
            self.viewed = self.selected_gang;
            self.gang_view = match self.selected_gang.map(|id| session.gang_view(id)) {
                Some(Ok(view)) => Some(view),
                Some(Err(err)) => {
                    out.errors.push(err);
                    None
                }
                None => None,
            };
        }
        if self.selected_fighter_view().is_none() {
            self.selected_fighter = None;
        }
        out
    }

    /// Everything that depends only on the campaign, not the selection.
    fn read_campaign(&mut self, session: &Session, errors: &mut Vec<anyhow::Error>) {
        match session.history() {
            Ok(history) => self.history = history,
            Err(err) => errors.push(err),
        }
        // Names alone: each gang's size and whether it follows the
        // recruiting rules are worked out for the rows the list shows
        // (`judge_gangs`).
        match session.gang_rows() {
            Ok(gangs) => self.gangs = gangs,
            Err(err) => errors.push(err),
        }
        self.judging_failed = false;
        let info = session.info();
        self.words = session
            .campaign_words()
            .map(|(words, _)| words)
            .unwrap_or_default();
        self.rulesets = session
            .packs()
            .map(|p| {
                // House rules are a choice, and say so wherever they show.
                let name = if p.pack.labelled_house_rules() {
                    format!("{} (house rules)", p.pack.name)
                } else {
                    p.pack.name.clone()
                };
                (p.pack.id.clone(), name)
            })
            .collect();
        match session.house_packs() {
            Ok(house) => self.house = house,
            Err(err) => errors.push(err),
        }
        match session.settings() {
            Ok(settings) => self.settings = settings,
            Err(err) => errors.push(err),
        }
        let season = session.season_view();
        // The table beside the season read: its cycle and standings are
        // not worked out twice.
        let table = match &season {
            Ok(view) => session.season_table_beside(view, false),
            Err(_) => session.season_table(false),
        };
        match season {
            Ok(season) => self.season = Some(season),
            Err(err) => errors.push(err),
        }
        match table {
            Ok(table) => self.table = Some(table),
            Err(err) => errors.push(err),
        }
        self.chronicle = None;
        self.chronicle_shown = None;
        self.battle_data = BattleData::new(
            self.gangs
                .iter()
                .map(|g| BattleGangData {
                    id: g.id,
                    name: g.name.clone(),
                    ruleset: g.ruleset.clone(),
                    fighters: Vec::new(),
                    entries: Default::default(),
                })
                .collect(),
        );
        let choices = match &info {
            Ok(info) => session.title_choices(&info.default_ruleset),
            Err(err) => Err(anyhow::anyhow!("{err}")),
        };
        self.info = info.ok();
        self.titles = None;
        match choices {
            Ok(choices) => self.title_choices = choices,
            Err(err) => {
                self.title_choices = Vec::new();
                errors.push(err);
            }
        }
        if let Some(fighter) = self.captive.as_ref().map(|c| c.fighter) {
            self.captive = None;
            if let Err(err) = self.read_captive(session, fighter) {
                errors.push(err);
            }
        }
    }

    /// Works out how many fighters the gangs at these places of the list
    /// have and whether they follow every recruiting rule, where not known
    /// since the last change: the list's rows cost what those in view do,
    /// however many gangs.
    pub fn judge_gangs(&mut self, session: &Session, rows: &[usize]) -> anyhow::Result<()> {
        let unknown: Vec<GangId> = rows
            .iter()
            .filter_map(|&i| self.gangs.get(i))
            .filter(|g| g.legal.is_none())
            .map(|g| g.id)
            .collect();
        if unknown.is_empty() || self.judging_failed {
            return Ok(());
        }
        let read = session
            .gangs_legal(&unknown)
            .and_then(|legal| Ok((legal, session.roster_sizes(&unknown)?)));
        let (legal, sizes) = match read {
            Ok(read) => read,
            Err(err) => {
                self.judging_failed = true;
                return Err(err);
            }
        };
        for &i in rows {
            if let Some(gang) = self.gangs.get_mut(i)
                && gang.legal.is_none()
            {
                // One the store no longer has is not asked again.
                gang.legal = Some(legal.get(&gang.id).copied().unwrap_or(false));
                gang.fighters = Some(sizes.get(&gang.id).copied().unwrap_or(0));
            }
        }
        Ok(())
    }

    /// Reads the fighters of the gangs the battle form has chosen, where
    /// not read since the last change: who can take part (not the wounded,
    /// the captives, or those gone).
    pub fn load_battle_fighters(
        &mut self,
        session: &Session,
        gangs: &[GangId],
    ) -> anyhow::Result<()> {
        for id in gangs {
            if self.battle_data.is_loaded(*id) {
                continue;
            }
            let able: Vec<_> = session
                .fighters(*id)?
                .into_iter()
                .filter(|f| f.status.can_fight())
                .collect();
            self.battle_data.load(*id, able);
        }
        Ok(())
    }

    /// Reads the captive a ransom dialog is for.
    pub fn read_captive(&mut self, session: &Session, fighter: FighterId) -> anyhow::Result<()> {
        let found = session.fighter(fighter)?;
        let gang = session.gang(found.gang)?;
        self.captive = Some(Captive {
            fighter,
            name: found.name,
            ruleset: gang.ruleset,
            terms: session.captive_terms(fighter)?,
        });
        Ok(())
    }

    /// Forgets everything read, for another campaign.
    pub fn forget(&mut self) {
        *self = Self::default();
    }

    pub fn selected_fighter_view(&self) -> Option<&FighterView> {
        let id = self.selected_fighter?;
        self.gang_view
            .as_ref()?
            .fighters
            .iter()
            .find(|f| f.id == id)
    }

    /// The titles and every gang's standing in the campaign's game, read
    /// the first time they are asked for after a change; `None` before
    /// the campaign is read.
    pub fn titles(&mut self, session: &Session) -> Option<Result<&TitlesView, String>> {
        let ruleset = &self.info.as_ref()?.default_ruleset;
        let titles = self
            .titles
            .get_or_insert_with(|| session.titles(ruleset).map_err(|e| format!("{e:#}")));
        Some(titles.as_ref().map_err(Clone::clone))
    }

    /// The whole chronicle and the part of it shown (one arc, or all of
    /// it), read the first time they are asked for after a change.
    pub fn chronicle(
        &mut self,
        session: &Session,
        arc: Option<usize>,
    ) -> Result<(&Chronicle, &Chronicle), String> {
        let all = self
            .chronicle
            .get_or_insert_with(|| session.chronicle().map_err(|e| format!("{e:#}")));
        let all = match all {
            Ok(all) => &*all,
            Err(err) => return Err(err.clone()),
        };
        // The whole campaign is shown as it is, not copied.
        let shown = match self.chronicle_shown.take() {
            Some((cut, shown)) if cut == arc => shown,
            _ => match arc.map(|a| session.arc_story(all, a)).transpose() {
                Ok(shown) => shown.flatten(),
                Err(err) => return Err(format!("{err:#}")),
            },
        };
        let (_, shown) = self.chronicle_shown.insert((arc, shown));
        Ok((all, shown.as_ref().unwrap_or(all)))
    }
}

/// A gang that can take part, with its roster.
#[derive(Debug, Clone)]
pub struct BattleGangData {
    pub id: crate::campaign::GangId,
    pub name: String,
    pub ruleset: String,
    pub fighters: Vec<(crate::campaign::FighterId, String)>,
    /// Each fighter's entries (by id), for the counters kept per entry and
    /// the counters an entry takes away.
    pub entries: std::collections::BTreeMap<crate::campaign::FighterId, Vec<String>>,
}

/// Every gang as the record form offers it, each found by its id without
/// a walk through the campaign's gangs, and the few whose fighters are
/// read: what a frame of the form reads does not grow with the campaign.
#[derive(Debug, Default)]
pub struct BattleData {
    gangs: Vec<BattleGangData>,
    /// Where each gang is in `gangs`.
    index: std::collections::HashMap<GangId, usize>,
    /// The gangs whose fighters are read, in the order read.
    loaded: Vec<usize>,
}

impl BattleData {
    /// The gangs, none of their fighters read yet.
    pub fn new(gangs: Vec<BattleGangData>) -> Self {
        let index = gangs.iter().enumerate().map(|(i, g)| (g.id, i)).collect();
        Self {
            gangs,
            index,
            loaded: Vec::new(),
        }
    }

    /// The gang with this id, if the campaign has it.
    pub fn get(&self, id: GangId) -> Option<&BattleGangData> {
        self.index.get(&id).map(|&i| &self.gangs[i])
    }

    /// Every gang, in the campaign's order.
    pub fn iter(&self) -> std::slice::Iter<'_, BattleGangData> {
        self.gangs.iter()
    }

    /// The gangs whose fighters are read: the only ones with fighters.
    pub fn loaded(&self) -> impl Iterator<Item = &BattleGangData> {
        self.loaded.iter().map(|&i| &self.gangs[i])
    }

    fn is_loaded(&self, id: GangId) -> bool {
        self.index.get(&id).is_some_and(|i| self.loaded.contains(i))
    }

    /// Keeps who of a gang can take part, with their entries; a gang not
    /// in the campaign is left out.
    fn load(&mut self, id: GangId, able: Vec<crate::campaign::Fighter>) {
        let Some(&i) = self.index.get(&id) else {
            return;
        };
        let data = &mut self.gangs[i];
        data.entries = able
            .iter()
            .map(|f| (f.id, f.quirks.iter().map(|p| p.quirk.clone()).collect()))
            .collect();
        data.fighters = able.into_iter().map(|f| (f.id, f.name)).collect();
        self.loaded.push(i);
    }
}
