//! Ruleset packs: loading, override merging and validation.
//!
//! A pack is a TOML file (format in `docs/rulesets.md`) describing one game
//! system's stats, resources, quirk catalog, constraints and recruiting
//! rules. The packs in `assets/rulesets/` are embedded in the binary. An
//! override pack names a `base` and replaces or adds entries by id.
//!
//! Pure: parsing and checking only. Reading a pack file from disk is the
//! caller's job (the CLI and the app), so this module does no I/O.

mod bounds;
mod count;
mod draft;
mod kinds;
pub mod locate;
mod model;
mod schema;
mod season;
mod validate;
mod words;

pub use bounds::{
    MAX_MAGNITUDE, bound_crossed, check_bound, count_as_number, out_of_bound, passes_bound,
    within_bound,
};
pub use count::{Between, CountRange};
pub use draft::{Draft, DraftChange};
pub use kinds::*;
pub use model::*;
pub use schema::{REGENERATE as REGENERATE_SCHEMA, pack_schema};
pub use season::*;
pub use validate::MAX_TABLE_ROWS;
pub use words::{Noun, counted};

/// The longest pack text read, in bytes: far beyond the largest rule book
/// written as a pack.
pub const MAX_PACK_BYTES: usize = 4 * 1024 * 1024;

use std::collections::BTreeMap;

/// A pack refused, with where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {entry}: {reason}")]
pub struct PackError {
    /// The file the pack came from.
    pub file: String,
    /// The entry at fault (`quirks.slasher`, `pack`, or a TOML position).
    pub entry: String,
    pub reason: String,
}

impl PackError {
    fn new(file: &str, entry: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            entry: entry.into(),
            reason: reason.into(),
        }
    }
}

/// The packs shipped inside the binary: (file name, text). A base pack
/// comes before the override packs that name it.
const BUILTIN: &[(&str, &str)] = &[
    (
        "heartbreaker.toml",
        include_str!("../../assets/rulesets/heartbreaker.toml"),
    ),
    (
        "heartbreaker-escalation.toml",
        include_str!("../../assets/rulesets/heartbreaker-escalation.toml"),
    ),
    (
        "wayfarer.toml",
        include_str!("../../assets/rulesets/wayfarer.toml"),
    ),
    (
        "hardwired28.toml",
        include_str!("../../assets/rulesets/hardwired28.toml"),
    ),
    ("hwc.toml", include_str!("../../assets/rulesets/hwc.toml")),
    (
        "yearzero.toml",
        include_str!("../../assets/rulesets/yearzero.toml"),
    ),
];

/// Every pack this build knows, by id.
#[derive(Debug, Clone)]
pub struct Registry {
    packs: BTreeMap<String, Pack>,
    /// Each pack's text's digest, by id: which version of it is loaded.
    digests: BTreeMap<String, String>,
    /// Pack ids in the order they were added (built-in packs first, in
    /// `BUILTIN` order).
    order: Vec<String>,
    /// The packs of this build, by id (the others came from pack files or
    /// are kept in a campaign).
    builtin: std::collections::BTreeSet<String>,
}

impl Registry {
    /// The embedded packs. They are checked by the test suite, so a failure
    /// here is a build defect; it is still reported, never a panic.
    pub fn builtin() -> Result<Self, PackError> {
        let mut registry = Self {
            packs: BTreeMap::new(),
            digests: BTreeMap::new(),
            order: Vec::new(),
            builtin: std::collections::BTreeSet::new(),
        };
        for (file, text) in BUILTIN {
            let id = registry.add_text(file, text)?;
            registry.builtin.insert(id);
        }
        Ok(registry)
    }

    /// Whether `id` is a pack of this build (not one read from a pack
    /// file, nor one a campaign keeps).
    pub fn is_builtin(&self, id: &str) -> bool {
        self.builtin.contains(id)
    }

    /// Parses, merges (for an override) and validates a pack, then adds it.
    /// Returns the id it was added under.
    pub fn add_text(&mut self, file: &str, text: &str) -> Result<String, PackError> {
        let pack = self.load_text(file, text)?;
        let id = self.insert(file, pack)?;
        self.digests.insert(id.clone(), digest(text));
        Ok(id)
    }

    /// The packs a record of `id` is played with, the pack first and then
    /// each base it builds on, with the version of each loaded now.
    pub fn stamps(&self, id: &str) -> Vec<PackStamp> {
        let mut out: Vec<PackStamp> = Vec::new();
        let mut next = Some(id.to_owned());
        while let Some(id) = next.take() {
            let Some(pack) = self.packs.get(&id) else {
                break;
            };
            if out.iter().any(|s| s.id == id) {
                break;
            }
            out.push(PackStamp {
                id: id.clone(),
                name: pack.pack.name.clone(),
                version: pack.pack.version.clone(),
                house_rules: pack.pack.labelled_house_rules(),
                digest: self.digests.get(&id).cloned().unwrap_or_default(),
            });
            next = pack.pack.base.clone();
        }
        out
    }

    /// Adds a loaded pack under its id, refusing one already there.
    fn insert(&mut self, file: &str, pack: Pack) -> Result<String, PackError> {
        let id = pack.pack.id.clone();
        if self.packs.contains_key(&id) {
            return Err(PackError::new(
                file,
                "pack.id",
                format!("a pack with id `{id}` is already loaded"),
            ));
        }
        self.packs.insert(id.clone(), pack);
        self.order.push(id.clone());
        Ok(id)
    }

    /// The id a pack's text gives itself, read without checking the rest.
    pub fn pack_id(file: &str, text: &str) -> Result<String, PackError> {
        Ok(parse(file, text)?.pack.id)
    }

    /// Adds a group's own pack, marked as house rules whatever its text
    /// says (a pack kept in a campaign).
    pub fn add_house_text(&mut self, file: &str, text: &str) -> Result<String, PackError> {
        // A game read from a pack file and kept in the campaign too: the
        // kept one is the campaign's, and stands for the file's.
        let id = Self::pack_id(file, text)?;
        if !self.is_builtin(&id) && self.packs.get(&id).is_some_and(|p| !p.pack.house_rules) {
            self.packs.remove(&id);
            self.digests.remove(&id);
            self.order.retain(|o| *o != id);
        }
        let mut pack = self.load_text(file, text)?;
        pack.pack.house_rules = true;
        pack.group = Some(GroupEntries::of(&parse(file, text)?));
        let id = self.insert(file, pack)?;
        self.digests.insert(id.clone(), digest(text));
        Ok(id)
    }

    /// Parses and validates a pack against this registry without adding it.
    pub fn load_text(&self, file: &str, text: &str) -> Result<Pack, PackError> {
        let parsed = parse(file, text)?;
        let pack = match parsed.pack.base.clone() {
            Some(base_id) => {
                let base = self.packs.get(&base_id).ok_or_else(|| {
                    PackError::new(
                        file,
                        "pack.base",
                        format!("names base pack `{base_id}`, which is not loaded"),
                    )
                })?;
                merge(file, base, parsed)?
            }
            None => parsed,
        };
        validate::validate(file, &pack)?;
        Ok(pack)
    }

    pub fn get(&self, id: &str) -> Option<&Pack> {
        self.packs.get(id)
    }

    /// The first pack of the line a ruleset is laid over (itself where it
    /// names no base): gangs of one root play one game.
    pub fn root_of(&self, ruleset: &str) -> String {
        let mut id = ruleset.to_owned();
        for _ in 0..8 {
            match self.get(&id).and_then(|p| p.pack.base.clone()) {
                Some(base) => id = base,
                None => break,
            }
        }
        id
    }

    pub fn packs(&self) -> impl Iterator<Item = &Pack> {
        self.packs.values()
    }

    /// The pack a new campaign plays unless told otherwise: the first
    /// pack added that plays a rule text as printed (no override, no
    /// house rules) — the primary system, first in `BUILTIN`.
    pub fn book_default(&self) -> Option<&str> {
        self.order
            .iter()
            .filter_map(|id| self.packs.get(id))
            .find(|p| p.pack.base.is_none() && !p.pack.house_rules)
            .map(|p| p.pack.id.as_str())
    }
}

fn parse(file: &str, text: &str) -> Result<Pack, PackError> {
    toml::from_str::<Pack>(text).map_err(|err| {
        let entry = match err.span() {
            Some(span) => {
                // A byte offset: count line breaks in bytes, never slice the text.
                let upto = text.as_bytes().get(..span.start).unwrap_or(text.as_bytes());
                let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
                format!("line {line}")
            }
            None => "pack".to_owned(),
        };
        PackError::new(file, entry, err.message().to_owned())
    })
}

/// Which version of a pack a record was played with: its id, name and
/// version as the pack gives them, and a digest of its text, so an edit of
/// the group's tables shows as a new version.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PackStamp {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub house_rules: bool,
    /// The first 12 hex digits of the BLAKE3 hash of the pack's text.
    pub digest: String,
}

impl PackStamp {
    /// `HWC 0.1`, `Our tables, house rules (version 2)`: `edition` is
    /// which text of the pack this is, numbered in the order the campaign
    /// first played each (its digest is for a script, not a player). A
    /// pack of this build says it only once it has changed.
    pub fn describe(&self, edition: usize) -> String {
        let mut text = self.name.clone();
        if !self.version.is_empty() {
            text.push(' ');
            text.push_str(&self.version);
        }
        if self.house_rules {
            text.push_str(", house rules");
        }
        if self.house_rules || edition > 1 {
            text.push_str(&format!(" (version {edition})"));
        }
        text
    }
}

/// The texts of each pack a campaign has played, in the order first
/// played: which version a record's stamp is.
#[derive(Debug, Clone, Default)]
pub struct PackEditions(BTreeMap<String, Vec<String>>);

impl PackEditions {
    /// The number of `stamp`'s text among its pack's (from 1), counted in
    /// if it is new.
    pub fn of(&mut self, stamp: &PackStamp) -> usize {
        let seen = self.0.entry(stamp.id.clone()).or_default();
        match seen.iter().position(|d| *d == stamp.digest) {
            Some(i) => i + 1,
            None => {
                seen.push(stamp.digest.clone());
                seen.len()
            }
        }
    }
}

/// The entries a group's own pack gives (a house pack kept in the
/// campaign): what the app labels as the group's wherever it shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupEntries {
    /// The group's pack's name.
    pub name: String,
    /// `section.id` of each entry it gives (`tables.critical-injuries`).
    pub entries: std::collections::BTreeSet<String>,
}

impl GroupEntries {
    fn of(own: &Pack) -> Self {
        let mut entries = std::collections::BTreeSet::new();
        let mut put = |section: &str, ids: Vec<&str>| {
            entries.extend(ids.into_iter().map(|id| format!("{section}.{id}")));
        };
        put("stats", own.stats.iter().map(|e| e.id.as_str()).collect());
        put(
            "counters",
            own.counters.iter().map(|e| e.id.as_str()).collect(),
        );
        put("quirks", own.quirks.iter().map(|e| e.id.as_str()).collect());
        put("tables", own.tables.iter().map(|e| e.id.as_str()).collect());
        put(
            "categories",
            own.categories.iter().map(|e| e.id.as_str()).collect(),
        );
        put("checks", own.checks.iter().map(|e| e.id.as_str()).collect());
        Self {
            name: own.pack.name.clone(),
            entries,
        }
    }
}

/// The digest a pack's text is known by.
fn digest(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex()[..12].to_owned()
}

/// Something with an id in a pack section.
trait Entry {
    fn id(&self) -> &str;
}

macro_rules! entry {
    ($($t:ty),*) => { $(impl Entry for $t { fn id(&self) -> &str { &self.id } })* };
}
entry!(
    OutcomeDef,
    GridDef,
    GroupDef,
    HoldingDef,
    FactionDef,
    TableDef,
    ArcStageDef,
    ScenarioDef,
    TitleDef,
    ActionDef,
    StatDef,
    ResourceDef,
    CounterDef,
    CategoryDef,
    KeywordDef,
    QuirkDef,
    ConstraintDef,
    Ruling,
    SettingDef,
    CheckDef
);

/// Replaces base entries with the override's entries of the same id, and
/// appends the new ones, keeping the base's order.
fn merge_section<T: Entry + Clone>(base: &[T], over: Vec<T>) -> Vec<T> {
    let mut out = base.to_vec();
    for entry in over {
        match out.iter_mut().find(|e| e.id() == entry.id()) {
            Some(slot) => *slot = entry,
            None => out.push(entry),
        }
    }
    out
}

fn remove_from<T: Entry>(items: &mut Vec<T>, id: &str) -> bool {
    let before = items.len();
    items.retain(|e| e.id() != id);
    items.len() != before
}

/// Refuses a new category of an override labelled as one of its base's
/// (as the override leaves it): two lists of one name in the picker, and a
/// table of the base that gives an entry of the base's category never
/// looks in the new one.
fn no_second_category(file: &str, base: &Pack, merged: &Pack) -> Result<(), PackError> {
    let of_base = |id: &str| base.category(id).is_some();
    for own in merged.categories.iter().filter(|c| !of_base(&c.id)) {
        if let Some(theirs) = merged
            .categories
            .iter()
            .find(|c| of_base(&c.id) && crate::text::same(&c.label, &own.label))
        {
            return Err(PackError::new(
                file,
                format!("categories.{}.label", crate::text::echo(&own.id)),
                format!(
                    "\"{}\" is already the label of the base's category \"{}\"; use the same id to add to it",
                    crate::text::echo(&own.label),
                    crate::text::echo(&theirs.id)
                ),
            ));
        }
    }
    Ok(())
}

fn merge(file: &str, base: &Pack, over: Pack) -> Result<Pack, PackError> {
    let mut pack = Pack {
        stats: merge_section(&base.stats, over.stats),
        resources: merge_section(&base.resources, over.resources),
        counters: merge_section(&base.counters, over.counters),
        categories: merge_section(&base.categories, over.categories),
        keywords: merge_section(&base.keywords, over.keywords),
        quirks: merge_section(&base.quirks, over.quirks),
        constraints: merge_section(&base.constraints, over.constraints),
        recruiting: over.recruiting.or_else(|| base.recruiting.clone()),
        rulings: merge_section(&base.rulings, over.rulings),
        outcomes: merge_section(&base.outcomes, over.outcomes),
        tables: merge_section(&base.tables, over.tables),
        arc_stages: merge_section(&base.arc_stages, over.arc_stages),
        scenarios: merge_section(&base.scenarios, over.scenarios),
        bounties: over.bounties.or_else(|| base.bounties.clone()),
        results: over.results.or_else(|| base.results.clone()),
        injuries: over.injuries.or_else(|| base.injuries.clone()),
        advancement: over.advancement.or_else(|| base.advancement.clone()),
        titles: merge_section(&base.titles, over.titles),
        title_rules: over.title_rules.or_else(|| base.title_rules.clone()),
        actions: merge_section(&base.actions, over.actions),
        dice: over.dice.or_else(|| base.dice.clone()),
        words: over.words.over(&base.words),
        record: over.record.or_else(|| base.record.clone()),
        valuation: over.valuation.or_else(|| base.valuation.clone()),
        card: over.card.or_else(|| base.card.clone()),
        rating: over.rating.or_else(|| base.rating.clone()),
        grids: merge_section(&base.grids, over.grids),
        captives: over.captives.or_else(|| base.captives.clone()),
        succession: over.succession.or_else(|| base.succession.clone()),
        groups: merge_section(&base.groups, over.groups),
        holdings: merge_section(&base.holdings, over.holdings),
        cycles: over.cycles.or_else(|| base.cycles.clone()),
        standings: over.standings.or_else(|| base.standings.clone()),
        factions: merge_section(&base.factions, over.factions),
        challenges: over.challenges.or_else(|| base.challenges.clone()),
        pairings: over.pairings.or_else(|| base.pairings.clone()),
        settings: merge_section(&base.settings, over.settings),
        checks: merge_section(&base.checks, over.checks),
        group: None,
        pack: over.pack,
    };
    for target in pack.pack.remove.clone() {
        let Some((section, id)) = target.split_once('.') else {
            return Err(PackError::new(
                file,
                format!("pack.remove `{target}`"),
                "expected `section.id`, e.g. `quirks.bonded`",
            ));
        };
        let removed = match section {
            "stats" => remove_from(&mut pack.stats, id),
            "resources" => remove_from(&mut pack.resources, id),
            "counters" => remove_from(&mut pack.counters, id),
            "categories" => remove_from(&mut pack.categories, id),
            "keywords" => remove_from(&mut pack.keywords, id),
            "quirks" => remove_from(&mut pack.quirks, id),
            "constraints" => remove_from(&mut pack.constraints, id),
            "rulings" => remove_from(&mut pack.rulings, id),
            "outcomes" => remove_from(&mut pack.outcomes, id),
            "tables" => remove_from(&mut pack.tables, id),
            "arc_stages" => remove_from(&mut pack.arc_stages, id),
            "scenarios" => remove_from(&mut pack.scenarios, id),
            "titles" => remove_from(&mut pack.titles, id),
            "actions" => remove_from(&mut pack.actions, id),
            "grids" => remove_from(&mut pack.grids, id),
            "groups" => remove_from(&mut pack.groups, id),
            "holdings" => remove_from(&mut pack.holdings, id),
            "factions" => remove_from(&mut pack.factions, id),
            _ => {
                return Err(PackError::new(
                    file,
                    format!("pack.remove `{target}`"),
                    format!("`{section}` is not a section with entries"),
                ));
            }
        };
        if !removed {
            return Err(PackError::new(
                file,
                format!("pack.remove `{target}`"),
                format!("the base pack has no `{id}` in `{section}`"),
            ));
        }
    }
    no_second_category(file, base, &pack)?;
    Ok(pack)
}

impl Pack {
    pub fn stat(&self, id: &str) -> Option<&StatDef> {
        self.stats.iter().find(|s| s.id == id)
    }

    pub fn resource(&self, id: &str) -> Option<&ResourceDef> {
        self.resources.iter().find(|r| r.id == id)
    }

    /// A holding by id.
    pub fn holding(&self, id: &str) -> Option<&HoldingDef> {
        self.holdings.iter().find(|h| h.id == id)
    }

    /// A holding by id or name, any case.
    pub fn find_holding(&self, name: &str) -> Option<&HoldingDef> {
        self.holdings
            .iter()
            .find(|h| crate::text::same(&h.id, name) || crate::text::same(&h.name, name))
    }

    /// A faction by id.
    pub fn faction(&self, id: &str) -> Option<&FactionDef> {
        self.factions.iter().find(|f| f.id == id)
    }

    /// A faction by id or name, any case.
    pub fn find_faction(&self, name: &str) -> Option<&FactionDef> {
        self.factions
            .iter()
            .find(|f| crate::text::same(&f.id, name) || crate::text::same(&f.name, name))
    }

    /// The resource fighters and entries are bought with between games
    /// (`[valuation] spend`), if the game buys them.
    pub fn spend_resource(&self) -> Option<&ResourceDef> {
        self.resource(self.valuation.as_ref()?.spend.as_deref()?)
    }

    /// Whether an entry of `category` may be bought between games: the
    /// pack buys entries, and `[valuation] buys` names the category or
    /// names none.
    pub fn sells(&self, category: &str) -> bool {
        self.valuation
            .as_ref()
            .is_some_and(|v| v.buys.is_empty() || v.buys.iter().any(|c| c == category))
    }

    pub fn counter(&self, id: &str) -> Option<&CounterDef> {
        self.counters.iter().find(|c| c.id == id)
    }

    /// A counter key as a fighter holds it: a counter's id, or for a
    /// counter kept per entry `counter:entry` (`ammo:pistol`), the entry
    /// named by id or name. The counter, and the entry where there is one.
    pub fn counter_key(&self, key: &str) -> Option<(&CounterDef, Option<&QuirkDef>)> {
        match key.split_once(':') {
            Some((counter, entry)) => {
                let def = self.counter(counter.trim())?;
                let tag = def.per_entry.as_ref()?;
                let entry = self.find_quirk(entry.trim()).map(|(q, _)| q)?;
                // Only an entry with the tag keeps one.
                entry.tags.contains(tag).then_some((def, Some(entry)))
            }
            None => self
                .counter(key)
                .or_else(|| {
                    self.counters
                        .iter()
                        .find(|c| crate::text::same(&c.label, key))
                })
                .map(|c| (c, None)),
        }
    }

    /// The first of these entries (by id) that takes the counter away from
    /// its fighter (a synthetic's stress), if any.
    pub fn entry_taking<'a>(
        &self,
        counter: &str,
        entries: impl IntoIterator<Item = &'a str>,
    ) -> Option<&QuirkDef> {
        entries
            .into_iter()
            .filter_map(|e| self.quirk(e))
            .find(|q| q.no_counters.iter().any(|c| c == counter))
    }

    /// How a roll's name reads to a player: the name of what it rolls
    /// where the name gives its id (`injury: Brick` is `Post-Battle
    /// Injury: Brick`, `advancement 2: Brick` is `Advancement 2: Brick`):
    /// a table, a roll scored by counting, an outcome's own effects, a
    /// step of a cycle's end. The name itself stays what a report types.
    pub fn roll_title(&self, roll: &str) -> String {
        let Some((head, rest)) = roll.split_once(": ") else {
            return roll.to_owned();
        };
        // A second roll on the same table is numbered after its id.
        let (id, nth) = match head.rsplit_once(' ') {
            Some((id, n)) if n.chars().all(|c| c.is_ascii_digit()) => (id, Some(n)),
            _ => (head, None),
        };
        let counted = self.record().counted.iter().find(|c| c.id == id);
        let title = self
            .tables
            .iter()
            .find(|t| t.id == id)
            .map(|t| t.name.as_str())
            .or_else(|| counted.map(|c| c.label.as_str()))
            .or_else(|| self.outcome(id).map(|o| o.label.as_str()))
            .or_else(|| {
                let mut steps = self.cycles.iter().flat_map(|c| &c.end);
                steps.find(|s| s.id == id).map(|s| s.text.as_str())
            });
        match (title, nth) {
            (Some(title), Some(n)) => format!("{title} {n}: {rest}"),
            (Some(title), None) => format!("{title}: {rest}"),
            (None, _) => roll.to_owned(),
        }
    }

    /// How a counter key reads: `Ammo (Pistol)`.
    pub fn counter_title(&self, key: &str) -> String {
        match self.counter_key(key) {
            Some((def, Some(entry))) => format!("{} ({})", def.label, entry.name),
            Some((def, None)) => def.label.clone(),
            None => key.to_owned(),
        }
    }

    /// The keys of the counters a fighter with these entries holds, in the
    /// pack's order: each counter, or one a tagged entry for a counter kept
    /// per entry; none that one of the entries takes away (a synthetic's
    /// stress).
    pub fn counter_keys<'a>(&'a self, entries: &'a [String]) -> Vec<(String, &'a CounterDef)> {
        let mut out = Vec::new();
        let taken = |c: &CounterDef| {
            self.entry_taking(&c.id, entries.iter().map(String::as_str))
                .is_some()
        };
        for c in self.counters.iter().filter(|c| !taken(c)) {
            match &c.per_entry {
                None => out.push((c.id.clone(), c)),
                Some(tag) => {
                    for e in entries {
                        if self.quirk(e).is_some_and(|q| q.tags.contains(tag)) {
                            out.push((c.key_for(e), c));
                        }
                    }
                }
            }
        }
        out
    }

    pub fn quirk(&self, id: &str) -> Option<&QuirkDef> {
        self.quirks.iter().find(|q| q.id == id)
    }

    pub fn keyword(&self, id: &str) -> Option<&KeywordDef> {
        self.keywords.iter().find(|k| k.id == id)
    }

    pub fn category(&self, id: &str) -> Option<&CategoryDef> {
        self.categories.iter().find(|c| c.id == id)
    }

    pub fn ruling(&self, id: &str) -> Option<&Ruling> {
        self.rulings.iter().find(|r| r.id == id)
    }

    /// The name of the group's pack when the entry `section.id` is the
    /// group's own (their table, their counter's start) over a pack that
    /// is not, for its label. None in a whole game of the group's own:
    /// all of it is theirs, and its name says so once.
    pub fn group_of(&self, section: &str, id: &str) -> Option<&str> {
        if self.pack.own_game() {
            return None;
        }
        self.group
            .as_ref()
            .filter(|g| g.entries.contains(&format!("{section}.{id}")))
            .map(|g| g.name.as_str())
    }

    /// [`Pack::group_of`] as a label: `The Night Crew's table, house
    /// rules`.
    pub fn group_label(&self, section: &str, id: &str) -> Option<String> {
        self.group_of(section, id).map(house_rules_of)
    }

    pub fn setting(&self, id: &str) -> Option<&SettingDef> {
        self.settings.iter().find(|s| s.id == id)
    }

    pub fn outcome(&self, id: &str) -> Option<&OutcomeDef> {
        self.outcomes.iter().find(|o| o.id == id)
    }

    /// Finds an outcome by id or label, any case (`taken_down`, `Taken
    /// Down`).
    pub fn find_outcome(&self, query: &str) -> Option<&OutcomeDef> {
        self.outcomes
            .iter()
            .find(|o| crate::text::same(&o.id, query) || crate::text::same(&o.label, query))
    }

    /// The outcome of a fighter who came through a battle as usual (the
    /// loader makes sure a pack with outcomes has exactly one).
    /// What this pack's records hold: its `[record]`, or two gangs in a
    /// scenario with a winner where it gives none.
    pub fn record(&self) -> &RecordRules {
        static BATTLE: std::sync::LazyLock<RecordRules> =
            std::sync::LazyLock::new(RecordRules::default);
        self.record.as_ref().unwrap_or(&BATTLE)
    }

    /// A record's heading: its scenario's name, or the record's own title
    /// where it has no scenario.
    pub fn record_heading(&self, scenario: Option<&str>) -> String {
        match scenario {
            Some(id) => self
                .scenario(id)
                .map_or_else(|| id.to_owned(), |s| s.name.clone()),
            None => self.record().title(),
        }
    }

    pub fn default_outcome(&self) -> Option<&OutcomeDef> {
        self.outcomes.iter().find(|o| o.default)
    }

    /// The counter that holds a bounty, when the pack has bounties.
    pub fn bounty_counter(&self) -> Option<&CounterDef> {
        self.bounties
            .as_ref()
            .and_then(|b| self.counter(&b.counter))
    }

    /// The names of the arc stages that begin an arc (those at the lowest
    /// step), in pack order.
    pub fn opening_stages(&self) -> Vec<&str> {
        let first = self.arc_stages.iter().map(|s| s.step).min();
        self.arc_stages
            .iter()
            .filter(|s| Some(s.step) == first)
            .map(|s| s.name.as_str())
            .collect()
    }

    pub fn table(&self, id: &str) -> Option<&TableDef> {
        self.tables.iter().find(|t| t.id == id)
    }

    pub fn scenario(&self, id: &str) -> Option<&ScenarioDef> {
        self.scenarios.iter().find(|s| s.id == id)
    }

    /// Finds a scenario by id or name, ignoring case.
    pub fn find_scenario(&self, query: &str) -> Option<&ScenarioDef> {
        self.scenarios
            .iter()
            .find(|s| crate::text::same(&s.id, query) || crate::text::same(&s.name, query))
    }

    pub fn arc_stage(&self, id: &str) -> Option<&ArcStageDef> {
        self.arc_stages.iter().find(|s| s.id == id)
    }

    pub fn action(&self, id: &str) -> Option<&ActionDef> {
        self.actions.iter().find(|a| a.id == id)
    }

    /// Finds a resource action by id or name, ignoring case.
    pub fn find_action(&self, query: &str) -> Option<&ActionDef> {
        self.actions
            .iter()
            .find(|a| crate::text::same(&a.id, query) || crate::text::same(&a.name, query))
    }

    /// The label of a resource, or its id when the pack has no such resource.
    pub fn resource_label<'a>(&'a self, id: &'a str) -> &'a str {
        self.resource(id).map_or(id, |r| r.label.as_str())
    }

    /// Finds a quirk by id, name or one of its alternative names, ignoring
    /// case. Returns the quirk and the alt name when one was used.
    pub fn find_quirk(&self, query: &str) -> Option<(&QuirkDef, Option<&str>)> {
        let same = |a: &str| crate::text::same(a, query);
        if let Some(quirk) = self.quirks.iter().find(|k| same(&k.id) || same(&k.name)) {
            return Some((quirk, None));
        }
        self.quirks.iter().find_map(|k| {
            k.alt_names
                .iter()
                .find(|alt| same(alt))
                .map(|alt| (k, Some(alt.as_str())))
        })
    }

    /// The quirk's profile on a fighter card, PUNCH first as on 003's
    /// example card (`P6, 2-6", Blast 2, Scatter D3, KB 1`).
    pub fn card_profile(&self, quirk: &QuirkDef) -> String {
        self.profile_in_order(quirk, true)
    }

    /// The quirk's profile as printed on a card: range, PUNCH, keywords and
    /// its short rules (`Nearby, P7, Crush`).
    pub fn profile(&self, quirk: &QuirkDef) -> String {
        self.profile_in_order(quirk, false)
    }

    fn profile_in_order(&self, quirk: &QuirkDef, punch_first: bool) -> String {
        let range = quirk.range.clone();
        let punch = quirk.punch.map(|p| format!("P{p}"));
        let (first, second) = if punch_first {
            (punch, range)
        } else {
            (range, punch)
        };
        let mut parts: Vec<String> = first.into_iter().chain(second).collect();
        for used in &quirk.keywords {
            let short = self
                .keyword(&used.keyword)
                .map(|k| {
                    if k.short.is_empty() {
                        &k.name
                    } else {
                        &k.short
                    }
                })
                .map_or(used.keyword.as_str(), String::as_str);
            parts.push(format!("{short} {}", used.x));
        }
        if !quirk.short.is_empty() {
            parts.push(quirk.short.clone());
        }
        parts.join(", ")
    }
}

/// The label of what a group entered, by its pack's name: `The Night
/// Crew's table, house rules`; a name that says it is house rules already
/// (`Sector house rules`) is not said twice.
pub fn house_rules_of(group: &str) -> String {
    if group.to_lowercase().contains("house rules") {
        group.to_owned()
    } else {
        format!("{group}, house rules")
    }
}
