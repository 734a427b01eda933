//! A group's own data for a pack, as they edit it: the tables, counters'
//! starts, stats' defaults and catalog entries a rule text refers to but
//! does not print (or that the group plays otherwise), written as an
//! override pack of their own. Pure: the draft is edited, checked against
//! a registry and written out as TOML; the session keeps it.

use serde::Serialize;

use super::{
    CounterDef, Pack, PackError, PackInfo, QuirkDef, RecordRoll, Registry, StatDef, TableDef,
    TableRowDef,
};

/// The group's override pack while they edit it: only the entries they
/// give, over the pack named `base`.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub own: Pack,
}

/// One difference between the group's pack and its base, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DraftChange {
    /// `tables.critical-injuries`, `counters.hp`: for a script.
    pub entry: String,
    /// The entry in the pack's words (`Table Critical Injuries`, `HP`):
    /// for a player.
    pub what: String,
    /// What the base has, in words (`no rows: the group fills it in`).
    pub base: String,
    /// What the group's pack has.
    pub group: String,
}

impl Draft {
    /// A new pack of the group's own over `base`, with nothing in it yet.
    pub fn new(id: &str, name: &str, base: &Pack) -> Self {
        Self {
            own: Pack {
                pack: PackInfo {
                    id: id.to_owned(),
                    name: name.to_owned(),
                    format: super::FORMAT_VERSION,
                    version: String::new(),
                    source: String::new(),
                    description: String::new(),
                    base: Some(base.pack.id.clone()),
                    house_rules: true,
                    remove: Vec::new(),
                },
                ..empty_pack()
            },
        }
    }

    /// The group's pack read from its text, without checking it against
    /// its base (that is [`Draft::check`]).
    pub fn from_text(file: &str, text: &str) -> Result<Self, PackError> {
        Ok(Self {
            own: super::parse(file, text)?,
        })
    }

    /// The id of the pack it overrides.
    pub fn base_id(&self) -> Option<&str> {
        self.own.pack.base.as_deref()
    }

    /// The pack as TOML, without the fields left at their defaults.
    pub fn to_text(&self) -> String {
        let mut value = match toml::Value::try_from(&self.own) {
            Ok(value) => value,
            Err(err) => return format!("# cannot be written: {err}\n"),
        };
        prune(&mut value);
        let body = toml::to_string(&value).unwrap_or_else(|err| format!("# {err}\n"));
        format!(
            "# {}: the group's own data over the pack `{}`.\n\n{body}",
            self.own.pack.name,
            self.base_id().unwrap_or("")
        )
    }

    /// Checks the pack as `check-pack` would: its errors name the entry.
    /// A row left without its totals or result is refused by name first
    /// (written out, it would be a row missing a field).
    pub fn check(&self, registry: &Registry, file: &str) -> Result<Pack, PackError> {
        self.rows_filled(file)?;
        registry.load_text(file, &self.to_text())
    }

    /// Every row of the group's tables has its totals and its result.
    fn rows_filled(&self, file: &str) -> Result<(), PackError> {
        for table in &self.own.tables {
            for (i, row) in table.rows.iter().enumerate() {
                let empty = if row.on.trim().is_empty() {
                    "totals (4, 2-5, 6+)"
                } else if row.result.trim().is_empty() {
                    "result"
                } else {
                    continue;
                };
                return Err(PackError::new(
                    file,
                    format!("tables.{}.rows[{i}]", table.id),
                    format!("the row has no {empty} yet"),
                ));
            }
        }
        Ok(())
    }

    /// An entry a check or a change names (`tables.wounds row `4``,
    /// `counters.hp.max`), said in the pack's words for a player:
    /// `Table Wounds, the row for 4`, `HP, its most`. The group's pack is
    /// read before its base.
    pub fn in_words(&self, base: &Pack, entry: &str) -> String {
        let (section, rest) = entry.split_once('.').unwrap_or((entry, ""));
        let end = rest.find(['.', ' ', '[']).unwrap_or(rest.len());
        let (id, detail) = rest.split_at(end);
        let find = |own: Option<String>, theirs: Option<String>| own.or(theirs);
        let name = match section {
            "tables" => find(
                self.own
                    .tables
                    .iter()
                    .find(|t| t.id == id)
                    .map(|t| t.name.clone()),
                base.table(id).map(|t| t.name.clone()),
            )
            .map(|n| format!("Table {n}")),
            "counters" => find(
                self.own
                    .counters
                    .iter()
                    .find(|c| c.id == id)
                    .map(|c| c.label.clone()),
                base.counter(id).map(|c| c.label.clone()),
            ),
            "stats" => find(
                self.own
                    .stats
                    .iter()
                    .find(|s| s.id == id)
                    .map(|s| s.label.clone()),
                base.stat(id).map(|s| s.label.clone()),
            ),
            "quirks" => find(
                self.own
                    .quirks
                    .iter()
                    .find(|q| q.id == id)
                    .map(|q| q.name.clone()),
                base.quirk(id).map(|q| q.name.clone()),
            ),
            "record" => Some("What a record rolls".to_owned()),
            _ => None,
        };
        let Some(name) = name else {
            return "The group's data".to_owned();
        };
        match detail_in_words(detail) {
            Some(detail) => format!("{name}, {detail}"),
            None => name,
        }
    }
}

/// The part of an entry after its id, in words: `row `4`` → `the row for
/// 4`, `.rows[2]` → `row 3`, `.max` → `its most`.
fn detail_in_words(detail: &str) -> Option<String> {
    let detail = detail.trim_start_matches(['.', ' ']);
    if let Some(on) = detail.strip_prefix("row `") {
        return Some(format!("the row for {}", on.trim_end_matches('`')));
    }
    if let Some(n) = detail
        .strip_prefix("rows[")
        .and_then(|n| n.split(']').next())
        .and_then(|n| n.parse::<usize>().ok())
    {
        return Some(format!("row {}", n + 1));
    }
    let field = detail.rsplit('.').next().unwrap_or("");
    let said = match field {
        "" => return None,
        "default" => "its start",
        "min" => "its least",
        "max" => "its most",
        "select" => "what it lets a fighter choose",
        "amount" => "a modifier's amount",
        "rows" => "its rows",
        "roll" => "its dice",
        _ => "one of its fields",
    };
    Some(said.to_owned())
}

impl Draft {
    /// The group's copy of a table of the base (made on first edit), or
    /// their own table.
    pub fn table_mut(&mut self, base: &Pack, id: &str) -> Option<&mut TableDef> {
        copy_in(&mut self.own.tables, &base.tables, id)
    }

    /// Puts a row in a table, replacing the row with the same `on`.
    pub fn put_row(&mut self, base: &Pack, table: &str, row: TableRowDef) -> bool {
        let Some(table) = self.table_mut(base, table) else {
            return false;
        };
        match table.rows.iter_mut().find(|r| r.on == row.on) {
            Some(old) => *old = row,
            None => table.rows.push(row),
        }
        true
    }

    /// Takes the row `on` out of a table.
    pub fn remove_row(&mut self, base: &Pack, table: &str, on: &str) -> bool {
        let Some(table) = self.table_mut(base, table) else {
            return false;
        };
        let before = table.rows.len();
        table.rows.retain(|r| r.on != on);
        table.rows.len() != before
    }

    /// A new table of the group's, rolled during a record when `during`
    /// says when.
    pub fn add_table(&mut self, base: &Pack, table: TableDef, during: Option<String>) {
        let id = table.id.clone();
        self.own.tables.retain(|t| t.id != id);
        self.own.tables.push(table);
        if let Some(when) = during {
            let mut record = self
                .own
                .record
                .clone()
                .unwrap_or_else(|| base.record().clone());
            if !record.during.iter().any(|r| r.table == id) {
                record.during.push(RecordRoll {
                    table: id,
                    when,
                    outcomes: Vec::new(),
                    only_with: None,
                    not_with: None,
                    source: String::new(),
                    ruling: None,
                });
            }
            self.own.record = Some(record);
        }
    }

    /// Gives a counter a start and a most (HWC's HP from the sheet).
    pub fn set_counter(
        &mut self,
        base: &Pack,
        id: &str,
        start: Option<i64>,
        max: Option<i64>,
    ) -> bool {
        let Some(counter) = copy_in::<CounterDef>(&mut self.own.counters, &base.counters, id)
        else {
            return false;
        };
        counter.default = start;
        if max.is_some() {
            counter.max = max;
        }
        true
    }

    /// Gives a stat a default for new fighters.
    pub fn set_stat_default(&mut self, base: &Pack, id: &str, default: i64) -> bool {
        let Some(stat) = copy_in::<StatDef>(&mut self.own.stats, &base.stats, id) else {
            return false;
        };
        stat.default = Some(default);
        true
    }

    /// A catalog entry as the group gives it: id, name, category, its text
    /// and tags (`projectile`, for a weapon that keeps its own ammo); every
    /// other field at its default.
    pub fn entry(
        id: &str,
        name: &str,
        category: &str,
        text: &str,
        tags: &[String],
    ) -> Result<QuirkDef, PackError> {
        let value = toml::Value::Table(toml::map::Map::from_iter([
            ("id".to_owned(), toml::Value::String(id.trim().to_owned())),
            (
                "name".to_owned(),
                toml::Value::String(name.trim().to_owned()),
            ),
            (
                "category".to_owned(),
                toml::Value::String(category.to_owned()),
            ),
            ("text".to_owned(), toml::Value::String(text.to_owned())),
            (
                "tags".to_owned(),
                toml::Value::Array(
                    tags.iter()
                        .map(|t| toml::Value::String(t.clone()))
                        .collect(),
                ),
            ),
        ]));
        value.try_into().map_err(|e: toml::de::Error| PackError {
            file: "the group's data".into(),
            entry: format!("quirks.{id}"),
            reason: e.message().to_owned(),
        })
    }

    /// Puts an entry in the catalog, replacing the one with its id.
    pub fn put_entry(&mut self, entry: QuirkDef) {
        match self.own.quirks.iter_mut().find(|q| q.id == entry.id) {
            Some(old) => *old = entry,
            None => self.own.quirks.push(entry),
        }
    }

    /// Takes one of the group's entries out (a table, counter, stat or
    /// catalog entry of theirs), by `section.id`.
    pub fn forget(&mut self, section: &str, id: &str) -> bool {
        use super::remove_from;
        match section {
            "tables" => remove_from(&mut self.own.tables, id),
            "counters" => remove_from(&mut self.own.counters, id),
            "stats" => remove_from(&mut self.own.stats, id),
            "quirks" => remove_from(&mut self.own.quirks, id),
            _ => false,
        }
    }

    /// What the group's pack changes of its base, entry by entry.
    pub fn changes(&self, base: &Pack) -> Vec<DraftChange> {
        let mut out = Vec::new();
        // Each entry of the group's against the base's of the same id.
        let mut put = |entry: String, was: Option<String>, group: String| {
            out.push(DraftChange {
                what: self.in_words(base, &entry),
                entry,
                base: was.unwrap_or_else(|| "not there".to_owned()),
                group,
            });
        };
        for t in &self.own.tables {
            put(
                format!("tables.{}", t.id),
                base.table(&t.id).map(describe_table),
                describe_table(t),
            );
        }
        for c in &self.own.counters {
            put(
                format!("counters.{}", c.id),
                base.counter(&c.id).map(describe_counter),
                describe_counter(c),
            );
        }
        for s in &self.own.stats {
            put(
                format!("stats.{}", s.id),
                base.stat(&s.id).map(describe_stat),
                describe_stat(s),
            );
        }
        for q in &self.own.quirks {
            put(
                format!("quirks.{}", q.id),
                base.quirk(&q.id).map(|b| b.name.clone()),
                q.name.clone(),
            );
        }
        if let Some(record) = &self.own.record {
            let added: Vec<&str> = record
                .during
                .iter()
                .filter(|r| !base.record().during.iter().any(|b| b.table == r.table))
                .map(|r| r.table.as_str())
                .collect();
            if !added.is_empty() {
                out.push(DraftChange {
                    entry: "record.during".into(),
                    what: "Tables rolled during a record".into(),
                    base: format!("{} tables", base.record().during.len()),
                    group: format!("also {}", added.join(", ")),
                });
            }
        }
        out.retain(|c| c.base != c.group);
        out
    }
}

/// The group's copy of the entry `id`: theirs, or the base's copied in.
fn copy_in<'a, T: super::Entry + Clone>(
    own: &'a mut Vec<T>,
    base: &[T],
    id: &str,
) -> Option<&'a mut T> {
    if !own.iter().any(|e| e.id() == id) {
        own.push(base.iter().find(|e| e.id() == id)?.clone());
    }
    own.iter_mut().find(|e| e.id() == id)
}

fn describe_table(t: &TableDef) -> String {
    match t.unfilled() {
        Some(_) => format!("{} ({}): no rows, the group fills it in", t.name, t.roll),
        None => format!("{} ({}): {} rows", t.name, t.roll, t.rows.len()),
    }
}

fn describe_counter(c: &CounterDef) -> String {
    let start = c
        .start()
        .map_or_else(|| "not printed".to_owned(), |n| n.to_string());
    let max = c
        .max
        .map_or_else(|| "no maximum".to_owned(), |n| format!("at most {n}"));
    format!("{}: starts at {start}, {max}", c.label)
}

fn describe_stat(s: &StatDef) -> String {
    let default = s
        .default
        .map_or_else(|| "not printed".to_owned(), |n| n.to_string());
    format!("{}: {default}", s.label)
}

/// A pack with nothing in it but its header.
fn empty_pack() -> Pack {
    Pack {
        pack: PackInfo {
            id: String::new(),
            name: String::new(),
            format: super::FORMAT_VERSION,
            version: String::new(),
            source: String::new(),
            description: String::new(),
            base: None,
            house_rules: false,
            remove: Vec::new(),
        },
        stats: Vec::new(),
        resources: Vec::new(),
        counters: Vec::new(),
        categories: Vec::new(),
        keywords: Vec::new(),
        quirks: Vec::new(),
        constraints: Vec::new(),
        recruiting: None,
        rulings: Vec::new(),
        outcomes: Vec::new(),
        tables: Vec::new(),
        arc_stages: Vec::new(),
        scenarios: Vec::new(),
        bounties: None,
        card: None,
        results: None,
        injuries: None,
        advancement: None,
        titles: Vec::new(),
        title_rules: None,
        actions: Vec::new(),
        dice: None,
        words: Default::default(),
        record: None,
        valuation: None,
        rating: None,
        grids: Vec::new(),
        captives: None,
        succession: None,
        groups: Vec::new(),
        holdings: Vec::new(),
        cycles: None,
        standings: None,
        factions: Vec::new(),
        challenges: None,
        pairings: None,
        settings: Vec::new(),
        checks: Vec::new(),
        group: None,
    }
}

/// Leaves out what reads back as the default anyway: empty strings, lists
/// and tables, and `false`.
fn prune(value: &mut toml::Value) {
    match value {
        toml::Value::Table(table) => {
            table.iter_mut().for_each(|(_, v)| prune(v));
            table.retain(|_, v| !is_default(v));
        }
        toml::Value::Array(items) => items.iter_mut().for_each(prune),
        _ => {}
    }
}

fn is_default(value: &toml::Value) -> bool {
    match value {
        toml::Value::String(s) => s.is_empty(),
        toml::Value::Boolean(b) => !b,
        toml::Value::Array(a) => a.is_empty(),
        toml::Value::Table(t) => t.is_empty(),
        _ => false,
    }
}
