//! Views: the read models the faces show (gang list, gang view, fighter
//! details, names for the log, titles, the chronicle), each worked out
//! against the gang's pack. Everything here reads; nothing commits.

use anyhow::{Result, bail};
use serde::Serialize;

use super::Session;
use crate::campaign::titles::award_titles;
use crate::campaign::{
    BatchId, DerivedStat, EffectId, Fighter, FighterId, Gang, GangId, LastingEffect, Names,
    Problem, derive_stats,
};
use crate::rules::Pack;
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
    /// The other quirk selected for this one (id), where it asks for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
    /// Its name, as the pack has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with_name: Option<String>,
}

impl QuirkView {
    /// `Pulverizer (Sledgehammer)`, `Akimbo Holster (Slasher)`, or just
    /// `Sledgehammer`.
    pub fn title(&self) -> String {
        match (&self.alt_name, &self.with_name) {
            (Some(alt), Some(with)) => format!("{alt} ({}; {with})", self.name),
            (Some(alt), None) => format!("{alt} ({})", self.name),
            (None, Some(with)) => format!("{} ({with})", self.name),
            (None, None) => self.name.clone(),
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
    /// What the fighter is worth and how, where the pack prices fighters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<crate::campaign::valuation::FighterValue>,
    /// The rolls the fighter's sheet offers (initiative, skill pools).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<crate::campaign::checks::Check>,
    /// Stats a counter keeps below their full value (Health less Damage),
    /// with the pack's word for that state.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lowered: Vec<LoweredStat>,
    /// The group they are a member of, in the pack's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<GroupTag>,
}

/// A member's group: its kind, what the pack calls it, and its name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct GroupTag {
    pub kind: String,
    pub label: String,
    pub name: String,
}

/// A group of a gang as one line: its kind, its name, and its members on
/// the roster, each with their status in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupView {
    #[serde(flatten)]
    pub tag: GroupTag,
    pub members: Vec<GroupMember>,
}

/// A member of a group as a group's line shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupMember {
    pub id: FighterId,
    pub name: String,
    pub status: String,
}

impl GroupView {
    /// The group in a few words, for a row of a table: `Marsh Rats
    /// (Henchmen) ×2`.
    pub fn short(&self) -> String {
        format!(
            "{} ({}) ×{}",
            self.tag.name,
            self.tag.label,
            self.members.len()
        )
    }

    /// The group in a line: `Marsh Rats (Henchmen): Rat 1, Rat 2 (wounded)`.
    pub fn line(&self) -> String {
        let members: Vec<String> = self
            .members
            .iter()
            .map(|m| {
                if m.status == "active" {
                    m.name.clone()
                } else {
                    format!("{} ({})", m.name, m.status)
                }
            })
            .collect();
        format!(
            "{} ({}): {}",
            self.tag.name,
            self.tag.label,
            members.join(", ")
        )
    }
}

/// A stat a counter keeps below its full value: `Health 7 of 9`, and the
/// pack's word for the fighter (`Wounded`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoweredStat {
    pub stat: String,
    pub label: String,
    /// What is left of it.
    pub value: i64,
    /// Its full value.
    pub of: i64,
    /// The pack's word for the fighter while it is lowered, if any.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub word: String,
    /// The line of the text that says so.
    pub source: String,
    /// The state in words: `Wounded: Health 7 of 9`.
    pub text: String,
}

/// What is left of a stat's full value, in words: `Health 7 of 9`.
pub(super) fn left_of(label: &str, value: i64, of: i64) -> String {
    format!("{label} {value} of {of}")
}

/// A member's group in the pack's words.
pub fn group_tag(pack: &Pack, group: &crate::campaign::MemberGroup) -> GroupTag {
    GroupTag {
        kind: group.kind.clone(),
        label: pack
            .groups
            .iter()
            .find(|g| g.id == group.kind)
            .map_or_else(|| group.kind.clone(), |g| g.label.clone()),
        name: group.name.clone(),
    }
}

impl GangView {
    /// The fighters `keep` takes as a roster or a set of cards lists them,
    /// each with the name it shows: a group once, at the first of its
    /// members kept, named with its members' names.
    pub fn listed(
        &self,
        keep: impl Fn(&FighterView) -> bool,
    ) -> Vec<(&FighterView, std::borrow::Cow<'_, str>)> {
        let mut groups_done: Vec<&GroupTag> = Vec::new();
        let mut out = Vec::new();
        for f in self.fighters.iter().filter(|f| keep(f)) {
            match &f.group {
                None => out.push((f, std::borrow::Cow::Borrowed(f.name.as_str()))),
                Some(tag) if !groups_done.contains(&tag) => {
                    groups_done.push(tag);
                    let line = self
                        .groups
                        .iter()
                        .find(|g| g.tag == *tag)
                        .map(GroupView::line);
                    out.push((
                        f,
                        line.map_or(std::borrow::Cow::Borrowed(f.name.as_str()), Into::into),
                    ));
                }
                Some(_) => {}
            }
        }
        out
    }
}

/// The groups among a gang's fighter views, each as one line, in the
/// order their first members come.
pub fn groups_of_views(fighters: &[FighterView]) -> Vec<GroupView> {
    let mut out: Vec<GroupView> = Vec::new();
    for f in fighters {
        let Some(tag) = &f.group else { continue };
        let member = GroupMember {
            id: f.id,
            name: f.name.clone(),
            status: f.status_text.clone(),
        };
        match out.iter_mut().find(|g| g.tag == *tag) {
            Some(group) => group.members.push(member),
            None => out.push(GroupView {
                tag: tag.clone(),
                members: vec![member],
            }),
        }
    }
    out
}

/// Each stat a counter of the fighter keeps below its full value.
fn lowered_stats(
    pack: &Pack,
    stats: &[crate::campaign::DerivedStat],
    counters: &std::collections::BTreeMap<String, i64>,
) -> Vec<LoweredStat> {
    pack.counters
        .iter()
        .filter_map(|c| {
            let lowers = c.lowers.as_ref()?;
            let by = counters.get(&c.id).copied().unwrap_or(0);
            let stat = stats.iter().find(|s| s.id == lowers.stat)?;
            let label = pack.stat(&stat.id)?.title().to_owned();
            (by > 0 && stat.unset.is_none()).then(|| {
                let value = stat.value.saturating_sub(by);
                let shown = left_of(&label, value, stat.value);
                LoweredStat {
                    stat: stat.id.clone(),
                    label,
                    value,
                    of: stat.value,
                    word: lowers.word.clone(),
                    source: lowers.source.clone(),
                    text: if lowers.word.is_empty() {
                        shown
                    } else {
                        format!("{}: {shown}", lowers.word)
                    },
                }
            })
        })
        .collect()
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
    /// The pack's rulings the roster keeps its rules by (where the text is
    /// silent or open); a rule it breaks shows its ruling with the problem.
    pub relies_on: Vec<crate::campaign::Reliance>,
    /// What the fighters on its roster are worth together, with the
    /// pack's names for the value and its score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<GangValueView>,
    /// The gang's rating, where the pack has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<crate::campaign::rating::Rating>,
    /// What may be done with a captive, as the gang's pack says.
    #[serde(skip)]
    pub captives_may: CaptivesMay,
    /// Its groups of members who share one profile, each as one line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupView>,
    /// Its faction, by name, where its game has factions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
    /// The holdings it holds, by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub holdings: Vec<String>,
    /// What its game calls a faction and holdings, for their headings.
    #[serde(skip)]
    pub season_words: SeasonWords,
}

/// What a game calls a faction and its holdings, capitalised for a
/// heading (`Guild`, `Moorings`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeasonWords {
    pub faction: String,
    pub holdings: String,
}

/// What may be done with a captive: ransom them, release them, sell them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptivesMay {
    pub ransom: bool,
    pub release: bool,
    pub sell: bool,
}

impl CaptivesMay {
    pub fn of(pack: &Pack) -> Self {
        use crate::rules::CaptiveAction;
        match &pack.captives {
            None => CaptivesMay {
                ransom: true,
                release: true,
                sell: false,
            },
            Some(rules) => CaptivesMay {
                ransom: rules.may(CaptiveAction::Ransom),
                release: rules.may(CaptiveAction::Release),
                sell: rules.may(CaptiveAction::Sell),
            },
        }
    }
}

/// A gang's value in the pack's words.
#[derive(Debug, Clone, Serialize)]
pub struct GangValueView {
    /// What the value is called (`Value`).
    pub label: String,
    /// What the score is called (`VP`), where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_label: Option<String>,
    #[serde(flatten)]
    pub total: crate::campaign::valuation::GangValue,
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
    /// How many fighters it has on its roster; `None` until asked
    /// ([`Session::roster_sizes`]).
    pub fighters: Option<usize>,
    /// Whether it follows every recruiting rule; `None` until asked
    /// ([`Session::gangs_legal`]).
    pub legal: Option<bool>,
    /// What it holds of each resource, by id.
    pub resources: std::collections::BTreeMap<String, i64>,
}

/// The gangs of `must_choose` (of `gangs`) with the titles each keeps one
/// of, by name.
fn choices(pack: &Pack, must_choose: &[(GangId, Vec<String>)], gangs: &[Gang]) -> Vec<TitleChoice> {
    let title_name = |id: &String| {
        pack.titles
            .iter()
            .find(|t| t.id == *id)
            .map_or_else(|| id.clone(), |t| t.name.clone())
    };
    must_choose
        .iter()
        .map(|(g, titles)| TitleChoice {
            gang: *g,
            name: gangs
                .iter()
                .find(|x| x.id == *g)
                .map_or_else(|| format!("{} #{g}", pack.words.gang), |x| x.name.clone()),
            titles: titles
                .iter()
                .map(|id| (id.clone(), title_name(id)))
                .collect(),
        })
        .collect()
}

/// A gang an action may be taken against: its id, its name and what it
/// holds of each resource.
pub type Rival = (GangId, String, std::collections::BTreeMap<String, i64>);

/// A gang that qualifies for several titles and keeps one of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TitleChoice {
    pub gang: GangId,
    /// The gang's name.
    pub name: String,
    /// The titles it chooses between: (id, name).
    pub titles: Vec<(String, String)>,
}

/// A title, who holds it, and how the gangs stand.
#[derive(Debug, Clone, Serialize)]
pub struct TitleView {
    pub id: String,
    pub name: String,
    pub resource: String,
    /// What holds it, in words: `most Pearls`, `fewest Pearls`.
    pub measure: String,
    pub holder: Option<String>,
    /// The holding gang's leader, who bears the title (003: "The leader of
    /// the gang with the most … holds its title").
    pub holder_leader: Option<String>,
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
    /// Gangs that qualify for several titles and have to choose one, with
    /// the names of those titles.
    pub must_choose: Vec<(String, Vec<String>)>,
    /// The same, for the choice's buttons.
    #[serde(skip)]
    pub choosing: Vec<TitleChoice>,
}

impl Session {
    pub fn gang(&self, id: GangId) -> Result<Gang> {
        match self.store.gang(id)? {
            Some(gang) => Ok(gang),
            None => bail!(
                "{} #{id} is not in this campaign",
                self.campaign_words()?.0.gang
            ),
        }
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
        let (words, _) = self.campaign_words()?;
        let (gang, many) = (&words.gang, &words.gangs);
        if gangs.is_empty() {
            bail!("no {gang} called “{asked}”: this campaign has no {many} yet")
        }
        let names: Vec<&str> = gangs.iter().map(|g| g.name.as_str()).collect();
        bail!("no {gang} called “{asked}” ({many}: {})", names.join(", "))
    }

    pub fn fighter(&self, id: FighterId) -> Result<Fighter> {
        match self.store.fighter(id)? {
            Some(fighter) => Ok(fighter),
            None => bail!(
                "{} #{id} is not in this campaign",
                self.campaign_words()?.0.fighter
            ),
        }
    }

    /// Every fighter who ever joined a gang, those gone too.
    pub fn fighters(&self, gang: GangId) -> Result<Vec<Fighter>> {
        Ok(self.store.fighters(gang)?)
    }

    /// Every gang of the campaign, in founding order.
    pub fn gangs(&self) -> Result<Vec<Gang>> {
        Ok(self.store.gangs()?)
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

    /// The modifiers a roll on `table` of the fighter's pack takes from the
    /// fighter, as they have their stats and counters now.
    pub fn fighter_modifiers(
        &self,
        fighter: &Fighter,
        table: &crate::rules::TableDef,
    ) -> Result<Vec<crate::rules::FighterModifier>> {
        let gang = self.gang(fighter.gang)?;
        let pack = self.gang_pack(&gang)?;
        let lasting = self.store.lasting_effects(fighter.id)?;
        let stats = crate::campaign::derive_stats(pack, fighter, &lasting);
        let points = |per: &str| match stats.iter().find(|s| s.id == per) {
            Some(stat) => Some(stat.value),
            None => fighter.counter_or_start(pack, per),
        };
        let mut modifiers = table.from_fighter(pack, points);
        let holders = self.store.ground().season(false)?.holders;
        let held = holders
            .iter()
            .filter(|(_, g)| **g == fighter.gang)
            .map(|(h, _)| h.as_str());
        modifiers.extend(crate::rules::FighterModifier::from_holdings(
            pack, &table.id, held,
        ));
        Ok(modifiers)
    }

    /// Finds a fighter by name, in a gang or anywhere in the campaign.
    pub fn fighter_named(&self, name: &str, gang: Option<&str>) -> Result<Fighter> {
        let gang = gang.map(|g| self.gang_named(g)).transpose()?;
        let mut found: Vec<Fighter> = self
            .store
            .all_fighters()?
            .into_iter()
            .filter(|f| text::same(&f.name, name))
            .filter(|f| gang.as_ref().is_none_or(|g| g.id == f.gang))
            .collect();
        let asked = text::echo(name);
        if found.len() == 1
            && let Some(one) = found.pop()
        {
            return Ok(one);
        }
        let (words, _) = self.campaign_words()?;
        match found.len() {
            0 => bail!("no {} called “{asked}”", words.fighter),
            n => bail!(
                "{} are called “{asked}”: name the {} (--gang)",
                words.count(n, crate::rules::Noun::Fighter),
                words.gang
            ),
        }
    }

    /// Every gang with its size and whether it is legal.
    pub fn gang_list(&self) -> Result<Vec<GangSummary>> {
        let sizes = self.store.on_roster_counts()?;
        let mut gangs: Vec<GangSummary> = self
            .store
            .gangs()?
            .into_iter()
            .map(|gang| GangSummary {
                id: gang.id,
                fighters: Some(sizes.get(&gang.id).copied().unwrap_or(0)),
                name: gang.name,
                ruleset: gang.ruleset,
                legal: None,
                resources: gang.resources,
            })
            .collect();
        let ids: Vec<GangId> = gangs.iter().map(|g| g.id).collect();
        let legal = self.gangs_legal(&ids)?;
        for gang in &mut gangs {
            gang.legal = legal.get(&gang.id).copied();
        }
        Ok(gangs)
    }

    /// Every gang by name, what the window's list needs of each before
    /// it is in view: its size and whether it is legal not yet asked
    /// (`None`; [`Self::roster_sizes`] and [`Self::gangs_legal`] say),
    /// its resources not read. One query, reading no fighter.
    pub fn gang_rows(&self) -> Result<Vec<GangSummary>> {
        Ok(self
            .store
            .gang_names()?
            .into_iter()
            .map(|(id, name, ruleset)| GangSummary {
                id,
                name,
                ruleset,
                fighters: None,
                legal: None,
                resources: Default::default(),
            })
            .collect())
    }

    /// How many fighters each of these gangs has on its roster.
    pub fn roster_sizes(
        &self,
        ids: &[GangId],
    ) -> Result<std::collections::BTreeMap<GangId, usize>> {
        let sizes = self.store.on_roster_counts_of(ids)?;
        Ok(ids
            .iter()
            .map(|id| (*id, sizes.get(id).copied().unwrap_or(0)))
            .collect())
    }

    /// The other gangs of `gang`'s pack, each with what it holds of each
    /// resource: what an action against a rival offers.
    pub fn rivals_with_resources(&self, gang: GangId) -> Result<Vec<Rival>> {
        let ruleset = self.gang(gang)?.ruleset;
        Ok(self
            .store
            .gangs()?
            .into_iter()
            .filter(|g| g.id != gang && g.ruleset == ruleset)
            .map(|g| (g.id, g.name, g.resources))
            .collect())
    }

    /// Whether each of these gangs follows every recruiting rule of its
    /// pack (a gang of a pack this build lacks does not): what it is
    /// read for these gangs alone, in six queries however many.
    pub fn gangs_legal(&self, ids: &[GangId]) -> Result<std::collections::BTreeMap<GangId, bool>> {
        let ground = self.store.ground();
        let gangs = ground.gangs_by_ids(ids)?;
        let changed = self.store.quirk_changes_of(ids)?;
        let fought = self.store.battles_fought_of(ids)?;
        // What a fighter is worth leaves out what lasting effects gave
        // them: read where a pack prices its fighters.
        let priced = gangs.iter().any(|g| {
            self.registry
                .get(&g.ruleset)
                .is_some_and(|p| p.valuation.is_some())
        });
        let lasting = if priced {
            ground.lasting_effects_of(ids)?
        } else {
            Vec::new()
        };
        let mut rosters: std::collections::HashMap<GangId, Vec<Fighter>> = Default::default();
        for f in ground.fighters_of(ids)? {
            if f.status.on_roster() {
                rosters.entry(f.gang).or_default().push(f);
            }
        }
        Ok(gangs
            .into_iter()
            .map(|gang| {
                let mut fighters = rosters.remove(&gang.id).unwrap_or_default();
                // The leader first, then in the order recruited, as a roster reads.
                fighters.sort_by_key(|f| (!f.leader, f.id));
                let legal = self.registry.get(&gang.ruleset).is_some_and(|pack| {
                    let fought = fought.get(&gang.id).is_some_and(|n| *n > 0);
                    problems_with(pack, &fighters, &changed, &lasting, &gang.resources, fought)
                        .is_empty()
                });
                (gang.id, legal)
            })
            .collect())
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
        let lasting = self.store.lasting_effects_of_gang(id)?;
        let problems = self.problems_of(pack, &gang, &fighters, &lasting)?;
        let captives = self.store.captives_held_by(id)?;
        let gang_names = self.gang_names(
            fighters
                .iter()
                .chain(&gone)
                .filter_map(|f| f.status.gang())
                .chain(captives.iter().map(|f| f.gang)),
        )?;
        let gang_name = |g: GangId| {
            gang_names
                .get(&g)
                .cloned()
                .unwrap_or_else(|| format!("{} #{g}", pack.words.gang))
        };
        let views: Vec<FighterView> = fighters
            .iter()
            .map(|f| fighter_view(pack, f, &problems, &lasting, &gang_name))
            .collect();
        let captives = captives
            .into_iter()
            .map(|f| (f.id, f.name, gang_name(f.gang)))
            .collect();
        let gone = gone
            .into_iter()
            .map(|f| (f.name, f.status.describe(gang_name, &pack.record().noun)))
            .collect();
        Ok(GangView {
            groups: groups_of_views(&views),
            faction: gang
                .faction
                .as_deref()
                .map(|f| pack.faction(f).map_or(f.to_owned(), |d| d.name.clone())),
            holdings: self.holdings_of(id)?,
            season_words: SeasonWords {
                faction: crate::text::capitalised(&pack.words.faction),
                holdings: crate::text::capitalised(&pack.words.holdings),
            },
            id,
            name: gang.name.clone(),
            ruleset: gang.ruleset.clone(),
            ruleset_name: pack.pack.name.clone(),
            house_rules: pack.pack.labelled_house_rules(),
            resources: pack
                .resources
                .iter()
                .map(|r| ResourceView {
                    id: r.id.clone(),
                    label: r.label.clone(),
                    amount: gang.resources.get(&r.id).copied().unwrap_or(r.start),
                })
                .collect(),
            // A counter kept per entry shows with its entry, not as a column.
            counters: pack
                .counters
                .iter()
                .filter(|c| c.per_entry.is_none())
                .map(|c| CounterView {
                    id: c.id.clone(),
                    label: c.label.clone(),
                    min: c.min,
                    max: c.top(),
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
            relies_on: crate::campaign::rulings_relied_on(pack, &fighters, &problems),
            problems,
            rating: crate::campaign::rating::gang_rating(pack, &fighters),
            captives_may: CaptivesMay::of(pack),
            value: crate::campaign::valuation::gang_value(
                pack,
                &fighters,
                &lasting,
                &gang.resources,
            )
            .and_then(|total| {
                let valuation = pack.valuation.as_ref()?;
                Some(GangValueView {
                    label: valuation.label.clone(),
                    score_label: valuation.score.as_ref().map(|s| s.label.clone()),
                    total,
                })
            }),
        })
    }

    /// The recruiting rules a gang breaks. Quirks gained by advancement and
    /// lost by a crippling do not count against the quirks a fighter is
    /// recruited with, but every other rule checks the quirks they have;
    /// the size of a starting gang stops applying once the gang has fought.
    pub(super) fn problems_of(
        &self,
        pack: &Pack,
        gang: &crate::campaign::Gang,
        fighters: &[Fighter],
        lasting: &[crate::campaign::LastingEffect],
    ) -> Result<Vec<Problem>> {
        let mut changed: std::collections::BTreeMap<FighterId, i64> = Default::default();
        for e in lasting.iter().filter(|e| e.removed.is_none()) {
            let delta = i64::from(e.quirk.is_some()) - i64::from(e.lost_quirk.is_some());
            *changed.entry(e.fighter).or_default() += delta;
        }
        let fought = self.store.battles_fought(gang.id)? > 0;
        Ok(problems_with(
            pack,
            fighters,
            &changed,
            lasting,
            &gang.resources,
            fought,
        ))
    }

    /// A fighter with every lasting effect (healed ones too) and the
    /// history of what happened to them.
    /// The names of the gangs a view mentions, by id: a read for each, not
    /// one of every gang.
    fn gang_names(
        &self,
        ids: impl IntoIterator<Item = GangId>,
    ) -> Result<std::collections::BTreeMap<GangId, String>> {
        let mut names = std::collections::BTreeMap::new();
        for id in ids {
            if let std::collections::btree_map::Entry::Vacant(slot) = names.entry(id)
                && let Some(gang) = self.store.gang(id)?
            {
                slot.insert(gang.name);
            }
        }
        Ok(names)
    }

    pub fn fighter_details(&self, fighter: FighterId) -> Result<FighterDetails> {
        let f = self.fighter(fighter)?;
        let gang = self.gang(f.gang)?;
        let pack = self.gang_pack(&gang)?;
        let effects = self.store.lasting_effects(fighter)?;
        let all = self.store.lasting_effects_of_gang(gang.id)?;
        let problems = self.problems_of(pack, &gang, &self.roster(gang.id)?, &all)?;
        let names = self.gang_names(f.status.gang())?;
        let gang_name = |g: GangId| {
            names
                .get(&g)
                .cloned()
                .unwrap_or_else(|| format!("{} #{g}", pack.words.gang))
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

    /// A fighter's photo (PNG or JPEG bytes), if they have one.
    pub fn photo(&self, fighter: FighterId) -> Result<Option<Vec<u8>>> {
        Ok(self.store.photo(fighter)?)
    }

    /// A lasting effect by its id, healed or not.
    pub fn lasting_effect(&self, effect: EffectId) -> Result<Option<LastingEffect>> {
        Ok(self.store.lasting_effect(effect)?)
    }

    /// Every lasting effect a fighter has had, healed and reversed ones too.
    pub fn lasting_effects(&self, fighter: FighterId) -> Result<Vec<LastingEffect>> {
        Ok(self.store.lasting_effects(fighter)?)
    }

    /// The titles of a ruleset: holders, standings, and who leads now.
    pub fn titles(&self, ruleset: &str) -> Result<TitlesView> {
        let pack = self.pack(ruleset)?;
        let gangs: Vec<Gang> = self.gangs_of_game(pack)?;
        let holders = self.store.title_holders()?;
        let standings = self.title_standings(pack, &gangs)?;
        let measured: std::collections::BTreeMap<GangId, &std::collections::BTreeMap<String, i64>> =
            standings.iter().map(|(g, m)| (*g, m)).collect();
        let award = award_titles(pack, &standings, &holders, &Default::default());
        let name = |id: GangId| {
            gangs
                .iter()
                .find(|g| g.id == id)
                .map_or_else(|| format!("{} #{id}", pack.words.gang), |g| g.name.clone())
        };
        // Every leader in one read, whatever the number of gangs.
        let leaders = self.store.leaders()?;
        let titles = pack
            .titles
            .iter()
            .map(|t| {
                let mut standing: Vec<(String, i64)> = gangs
                    .iter()
                    .map(|g| {
                        (
                            g.name.clone(),
                            measured
                                .get(&g.id)
                                .and_then(|m| m.get(t.measure()))
                                .copied()
                                .unwrap_or(0),
                        )
                    })
                    .collect();
                // Best first: the most, or the fewest.
                standing.sort_by(|a, b| match t.comparison {
                    crate::rules::Comparison::Most => b.1.cmp(&a.1).then(a.0.cmp(&b.0)),
                    crate::rules::Comparison::Fewest => a.1.cmp(&b.1).then(a.0.cmp(&b.0)),
                });
                TitleView {
                    id: t.id.clone(),
                    name: t.name.clone(),
                    resource: title_measure_label(pack, t),
                    measure: format!(
                        "{} {}",
                        match t.comparison {
                            crate::rules::Comparison::Most => "most",
                            crate::rules::Comparison::Fewest => "fewest",
                        },
                        title_measure_label(pack, t)
                    ),
                    holder: holders.get(&t.id).map(|g| name(*g)),
                    holder_leader: holders.get(&t.id).and_then(|g| leaders.get(g).cloned()),
                    standings: standing,
                    would_go_to: award.holders.get(&t.id).map(|g| name(*g)),
                }
            })
            .collect();
        let rulings = pack
            .title_rules
            .iter()
            .flat_map(|r| r.rulings.iter())
            .chain(pack.titles.iter().filter_map(|t| t.ruling.as_ref()))
            .filter_map(|id| pack.ruling(id))
            .map(|r| r.ruling.clone())
            .collect();
        let choosing = choices(pack, &award.must_choose, &gangs);
        Ok(TitlesView {
            ruleset: ruleset.to_owned(),
            titles,
            rulings,
            must_choose: choosing
                .iter()
                .map(|c| {
                    (
                        c.name.clone(),
                        c.titles.iter().map(|(_, n)| n.clone()).collect(),
                    )
                })
                .collect(),
            choosing,
        })
    }

    /// The gangs that qualify for several titles of `ruleset`'s game and
    /// keep one, with those titles: what the window asks over every
    /// screen. Worked out from the gangs that can hold a title (its
    /// holders and each title's leaders, as a record reads them), not
    /// every gang's standing, which [`Session::titles`] reads.
    pub fn title_choices(&self, ruleset: &str) -> Result<Vec<TitleChoice>> {
        let pack = self.pack(ruleset)?;
        if pack.titles.is_empty() {
            return Ok(Vec::new());
        }
        let gangs =
            super::procedure_state::title_hopefuls(self.store.ground(), &self.registry, pack)?;
        let holders = self.store.title_holders()?;
        let standings = self.title_standings(pack, &gangs)?;
        let award = award_titles(pack, &standings, &holders, &Default::default());
        Ok(choices(pack, &award.must_choose, &gangs))
    }

    /// The words of the campaign's game (gang, fighter, entry, leader)
    /// and its record rules, for messages about the campaign as a whole.
    pub fn campaign_words(&self) -> Result<(crate::rules::Words, crate::rules::RecordRules)> {
        let info = self.store.info()?;
        let pack = self.pack(&info.default_ruleset)?;
        Ok((pack.words.clone(), pack.record().clone()))
    }

    /// Names for putting log events into words.
    pub fn names(&self) -> Result<Names> {
        let mut names = Names::default();
        (names.gangs, names.fighters) = self.store.all_names()?;
        let (words, record) = self.campaign_words()?;
        names.words = words;
        names.record_noun = record.noun;
        let game = self.pack(&self.store.info()?.default_ruleset)?;
        if let Some(c) = &game.challenges {
            names.challenge = c.label.clone();
        }
        if let Some(p) = &game.pairings {
            names.pairings = p.label.clone();
        }
        names.stats = self.played_stats()?;
        for pack in self.registry.packs() {
            names
                .records
                .insert(pack.pack.id.clone(), pack.record().title());
            for q in &pack.quirks {
                names.labels.insert(q.id.clone(), q.name.clone());
            }
            for r in &pack.resources {
                names.labels.insert(r.id.clone(), r.label.clone());
            }
            for c in &pack.counters {
                names.labels.insert(c.id.clone(), c.label.clone());
                // A counter kept per entry, for each entry it is kept for.
                if let Some(tag) = &c.per_entry {
                    for q in pack.quirks.iter().filter(|q| q.tags.contains(tag)) {
                        names
                            .labels
                            .insert(c.key_for(&q.id), format!("{} ({})", c.label, q.name));
                    }
                }
            }
            for s in &pack.scenarios {
                names.labels.insert(s.id.clone(), s.name.clone());
            }
            for t in &pack.titles {
                names.labels.insert(t.id.clone(), t.name.clone());
            }
            for h in &pack.holdings {
                names.labels.insert(h.id.clone(), h.name.clone());
            }
            for f in &pack.factions {
                names.labels.insert(f.id.clone(), f.name.clone());
            }
            for a in &pack.actions {
                names.labels.insert(a.id.clone(), a.name.clone());
            }
            for c in &pack.record().counted {
                names.labels.insert(c.id.clone(), c.label.clone());
                names.counted.insert(c.id.clone());
            }
            // A table is called by its name; one the group entered says
            // so, and that label stands over the book's of the same id.
            for t in &pack.tables {
                match pack.group_label("tables", &t.id) {
                    Some(group) => {
                        names
                            .labels
                            .insert(t.id.clone(), format!("{} ({group})", t.name));
                    }
                    None => {
                        names
                            .labels
                            .entry(t.id.clone())
                            .or_insert_with(|| t.name.clone());
                    }
                }
            }
        }
        Ok(names)
    }

    /// The stats of the games the campaign plays (its own and its gangs'),
    /// by id, for putting a stat's value into words: a step of a ladder
    /// reads as the step. An id two of the games read differently is left
    /// out rather than read by the wrong game.
    fn played_stats(&self) -> Result<std::collections::BTreeMap<String, crate::rules::StatDef>> {
        let mut played = vec![self.store.info()?.default_ruleset];
        for gang in self.store.gangs()? {
            if !played.contains(&gang.ruleset) {
                played.push(gang.ruleset);
            }
        }
        let same_reading = |a: &crate::rules::StatDef, b: &crate::rules::StatDef| {
            a.title() == b.title() && a.ladder == b.ladder && a.unit == b.unit && a.min == b.min
        };
        let mut stats: std::collections::BTreeMap<String, crate::rules::StatDef> =
            std::collections::BTreeMap::new();
        let mut unclear = std::collections::BTreeSet::new();
        for stat in played
            .iter()
            .filter_map(|id| self.registry.get(id))
            .flat_map(|pack| &pack.stats)
        {
            match stats.get(&stat.id) {
                Some(known) if !same_reading(known, stat) => {
                    unclear.insert(stat.id.clone());
                }
                Some(_) => {}
                None => {
                    stats.insert(stat.id.clone(), stat.clone());
                }
            }
        }
        stats.retain(|id, _| !unclear.contains(id));
        Ok(stats)
    }

    /// The campaign's story, read from its log a batch at a time.
    pub fn chronicle(&self) -> Result<crate::campaign::chronicle::Chronicle> {
        use crate::campaign::chronicle::{Logged, Reader, in_effect};
        let rules = self.story_rules()?;
        let names = self.names()?;
        let mut reader = Reader::new(&names, &rules, in_effect(self.store.batch_parents()?));
        self.store.each_batch(|entries| {
            let batch: Vec<Logged> = entries
                .into_iter()
                .map(|e| Logged {
                    batch: e.batch,
                    undoes: e.undoes,
                    at: e.at,
                    event: e.event,
                })
                .collect();
            reader.batch(&batch);
        })?;
        Ok(reader.finish())
    }

    /// The story of one arc of `all` (the campaign's chronicle), with the
    /// rivalries of its battles alone; `None` when there is no such arc.
    pub fn arc_story(
        &self,
        all: &crate::campaign::chronicle::Chronicle,
        arc: usize,
    ) -> Result<Option<crate::campaign::chronicle::Chronicle>> {
        let Some(found) = all.arcs.iter().find(|a| a.id == arc) else {
            return Ok(None);
        };
        let records = found
            .battles
            .iter()
            .filter_map(|id| {
                self.store
                    .battle(crate::campaign::BattleId(*id))
                    .transpose()
            })
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(all.arc(arc, &records, &self.names()?))
    }

    /// The arcs between two gangs, read from their battles and the arcs
    /// closed or reopened by hand between them.
    pub fn arcs_between(
        &self,
        a: GangId,
        b: GangId,
    ) -> Result<Vec<crate::campaign::chronicle::ArcStory>> {
        use crate::campaign::chronicle::{ArcMark, Fought, arcs, in_effect};
        if a == b {
            return Ok(Vec::new());
        }
        let mut pair = [a, b];
        pair.sort();
        let fought = self.store.battles_between(a, b)?;
        let effective = in_effect(self.store.batch_parents()?);
        let marks: Vec<ArcMark> = self
            .store
            .arc_marks()?
            .into_iter()
            .filter(|(batch, _)| effective.contains(batch))
            .filter_map(|(batch, event)| {
                let before = fought.iter().take_while(|(at, _)| *at < batch).count();
                ArcMark::of(&event, before).filter(|m| m.pair == pair)
            })
            .collect();
        let fought: Vec<Fought> = fought.iter().map(|(_, b)| Fought::from(b)).collect();
        Ok(arcs(&fought, &marks, &self.story_rules()?, &self.names()?))
    }

    /// What the story needs of the campaign's packs: its words, scenarios,
    /// stages, outcomes and flags.
    fn story_rules(&self) -> Result<crate::campaign::chronicle::StoryRules> {
        use crate::campaign::chronicle::{ScenarioInfo, StageInfo, StoryRules};
        let info = self.store.info()?;
        let pack = self.pack(&info.default_ruleset)?;
        let mut rules = StoryRules {
            bounty_counter: pack.bounties.as_ref().map(|b| b.counter.clone()),
            takedowns_heading: pack.words.takedowns.clone(),
            record_title: pack.record().title(),
            record: pack.record().clone(),
            words: pack.words.clone(),
            injuries_heading: pack
                .injuries
                .as_ref()
                .and_then(|i| pack.table(&i.table))
                .map_or_else(|| "Lasting effects".to_owned(), |t| t.name.clone()),
            ran: pack.record().ran.clone(),
            opening_stages: pack
                .opening_stages()
                .into_iter()
                .map(str::to_owned)
                .collect(),
            ..Default::default()
        };
        for p in self.registry.packs() {
            for flag in &p.record().flags {
                rules
                    .flags
                    .entry(flag.id.clone())
                    .or_insert_with(|| flag.label.clone());
            }
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
            let ruling = st.ruling.as_ref().map(|id| {
                pack.ruling(id)
                    .map_or_else(|| id.clone(), |r| r.ruling.clone())
            });
            rules.stages.entry(st.step).or_default().push(StageInfo {
                id: st.id.clone(),
                name: st.name.clone(),
                scenarios,
                when_winner_repeats: st.when_winner_repeats,
                ruling,
            });
        }
        Ok(rules)
    }
}

/// A fighter's view: stats, quirk profiles, status, lasting effects, and the
/// problems that name it. `lasting` may hold other fighters' effects too.
/// A gang's problems, given each fighter's quirks gained less lost by
/// lasting effects, and whether it has fought (a gang that has fought is no
/// longer held to its founding size).
fn problems_with(
    pack: &Pack,
    fighters: &[Fighter],
    changed: &std::collections::BTreeMap<FighterId, i64>,
    lasting: &[crate::campaign::LastingEffect],
    resources: &std::collections::BTreeMap<String, i64>,
    fought: bool,
) -> Vec<Problem> {
    let mut problems =
        crate::campaign::gang_problems_after(pack, fighters, changed, lasting, resources);
    if fought {
        // What holds only for the founding roster stops applying once the
        // gang has played: the size of a starting gang, a constraint
        // marked `founding`.
        let founding = |rule: &str| {
            rule.strip_prefix("constraints.")
                .is_some_and(|id| pack.constraints.iter().any(|c| c.id == id && c.founding))
        };
        problems.retain(|p| p.rule != "recruiting.size" && !founding(&p.rule));
    }
    problems
}

pub fn fighter_view(
    pack: &Pack,
    fighter: &Fighter,
    problems: &[Problem],
    lasting: &[crate::campaign::LastingEffect],
    gang_name: &dyn Fn(GangId) -> String,
) -> FighterView {
    use crate::campaign::ProblemScope;
    let stats = derive_stats(pack, fighter, lasting);
    // A counter the fighter has no value of reads as its start (a counter
    // the group filled in after the fighter was made).
    let mut counters = fighter.counters.clone();
    let entries: Vec<String> = fighter.quirks.iter().map(|p| p.quirk.clone()).collect();
    // None that an entry takes away (a synthetic has no stress).
    counters.retain(|key, _| {
        pack.counter_key(key).is_none_or(|(c, _)| {
            pack.entry_taking(&c.id, entries.iter().map(String::as_str))
                .is_none()
        })
    });
    for (key, c) in pack.counter_keys(&entries) {
        if let (false, Some(start)) = (counters.contains_key(&key), c.start()) {
            counters.insert(key, start);
        }
    }
    FighterView {
        group: fighter.group.as_ref().map(|g| group_tag(pack, g)),
        id: fighter.id,
        name: fighter.name.clone(),
        leader: fighter.leader,
        status: fighter.status.clone(),
        status_text: fighter.status.describe(gang_name, &pack.record().noun),
        lasting: lasting
            .iter()
            .filter(|e| e.fighter == fighter.id && e.removed.is_none())
            .cloned()
            .collect(),
        stats: stats.clone(),
        checks: crate::campaign::checks::checks_for(pack, fighter, &stats, |c| {
            counters.get(c).copied()
        }),
        value: crate::campaign::valuation::fighter_value(pack, fighter, lasting),
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
                    with: pick.with.clone(),
                    with_name: pick
                        .with
                        .as_deref()
                        .map(|w| pack.quirk(w).map_or_else(|| w.to_owned(), |d| d.name.clone())),
                },
                None => QuirkView {
                    id: pick.quirk.clone(),
                    name: pick.quirk.clone(),
                    alt_name: pick.alt_name.clone(),
                    category: String::new(),
                    profile: "not in this pack".into(),
                    with: pick.with.clone(),
                    with_name: pick.with.clone(),
                },
            })
            .collect(),
        lowered: lowered_stats(pack, &stats, &counters),
        counters,
        notes: fighter.notes.clone(),
        problems: problems
            .iter()
            .filter(|p| matches!(&p.scope, ProblemScope::Fighter { fighter: id, .. } if *id == fighter.id))
            .cloned()
            .collect(),
    }
}

/// What a title compares, in the pack's words: the resource's label, the
/// fighters, or the counter's label.
fn title_measure_label(pack: &crate::rules::Pack, title: &crate::rules::TitleDef) -> String {
    match title.count.as_deref().map(crate::rules::TitleCount::parse) {
        Some(Ok(crate::rules::TitleCount::Fighters)) => pack.words.fighters.clone(),
        Some(Ok(crate::rules::TitleCount::Counter(id))) => {
            pack.counter(&id).map_or(id.clone(), |c| c.label.clone())
        }
        _ => pack.resource_label(&title.resource).to_owned(),
    }
}
