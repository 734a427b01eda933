//! `rapsheet rulesets`, `rapsheet check-pack` and `rapsheet house`.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::Subcommand;
use serde::Serialize;

use super::print_json;
use crate::rules::Pack;
use crate::session::{Session, builtin_registry};

/// House rules kept in the campaign.
#[derive(Debug, Subcommand)]
pub enum HouseCommand {
    /// Keep a pack file of the group's own in the campaign (or change the
    /// one kept under its id): every laptop that opens the campaign reads
    /// it, labelled house rules.
    Keep { file: PathBuf },
    /// Take a house pack out of the campaign (refused while a gang plays
    /// it).
    Drop { id: String },
    /// The house packs the campaign keeps.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Put a row in a table of the group's (one the rule text does not
    /// print, say), replacing the row with the same totals.
    Row {
        #[command(flatten)]
        to: GroupPack,
        /// The table's id.
        table: String,
        /// The totals it covers: `4`, `2-5`, `6+`.
        #[arg(long)]
        on: String,
        /// The result as the group writes it.
        #[arg(long)]
        result: String,
        /// A short name.
        #[arg(long, default_value = "")]
        name: String,
        /// The result stays with the character (a lasting injury).
        #[arg(long)]
        lasting: bool,
        /// A lasting result that heals after this many more records.
        #[arg(long)]
        heals_after: Option<u32>,
        /// A stat it changes for good, `STAT=-1`; repeat for each.
        #[arg(long = "stat", value_name = "STAT=N", allow_hyphen_values = true)]
        stats: Vec<String>,
    },
    /// Add a table of the group's own (or set the dice of one the rule text
    /// does not print), rolled during a record when --during says when.
    Table {
        #[command(flatten)]
        to: GroupPack,
        /// The table's id.
        table: String,
        #[arg(long, default_value = "")]
        name: String,
        /// The dice rolled on it (`d6`, `2d6`).
        #[arg(long)]
        roll: String,
        /// When it is rolled during a record (`A character is knocked out`).
        #[arg(long)]
        during: Option<String>,
        /// A first row, `TOTALS=RESULT` (`1-2=Cracked Ribs`); repeat for
        /// each. `house row` sets a row's name, lasting and healing time.
        #[arg(long = "row", value_name = "TOTALS=RESULT")]
        rows: Vec<String>,
    },
    /// Take a row out of a table of the group's.
    RemoveRow {
        #[command(flatten)]
        to: GroupPack,
        table: String,
        #[arg(long)]
        on: String,
    },
    /// Give a counter its start (and most) where the rule text prints none.
    Counter {
        #[command(flatten)]
        to: GroupPack,
        counter: String,
        #[arg(long, allow_hyphen_values = true)]
        start: i64,
        #[arg(long, allow_hyphen_values = true)]
        max: Option<i64>,
    },
    /// Give a stat a default for new characters.
    Stat {
        #[command(flatten)]
        to: GroupPack,
        stat: String,
        #[arg(long, allow_hyphen_values = true)]
        default: i64,
    },
    /// Put an entry in the catalog (a weapon of the group's sheet).
    Entry {
        #[command(flatten)]
        to: GroupPack,
        /// The entry's id (lower-case letters, digits, `-`).
        #[arg(value_name = "ID")]
        entry: String,
        #[arg(long)]
        name: String,
        /// The category's id.
        #[arg(long)]
        category: String,
        #[arg(long, default_value = "")]
        text: String,
        /// A tag (`projectile`: a weapon keeping its own Ammo); repeat for
        /// each.
        #[arg(long = "tag")]
        tags: Vec<String>,
    },
    /// What the group's data changes of the pack it is over, and whether
    /// it checks.
    Show {
        id: String,
        #[arg(long)]
        json: bool,
    },
    /// Write a kept pack to a file others can load.
    Export {
        id: String,
        #[arg(short, long = "output")]
        out: PathBuf,
        #[arg(long)]
        force: bool,
    },
}

/// Which of the group's packs an edit goes to, and, for a new one, what it
/// is over and called.
#[derive(Debug, clap::Args)]
pub struct GroupPack {
    /// The group's pack's id (`our-hwc`).
    #[arg(long = "house", value_name = "ID")]
    house: String,
    /// For a new pack: the pack it is over.
    #[arg(long)]
    base: Option<String>,
    /// For a new pack: its name.
    #[arg(long)]
    title: Option<String>,
    /// Make the parties that play its base, and the campaign's new ones,
    /// play it.
    #[arg(long)]
    play: bool,
}

pub(super) fn house(session: &mut Session, command: HouseCommand) -> Result<()> {
    match command {
        HouseCommand::Keep { file } => {
            let text = crate::input::read_text(&file, crate::input::Kind::Pack)?;
            let (_, id) = session.keep_house_pack(&file.display().to_string(), &text)?;
            let info = session.pack(&id)?.pack.clone();
            let what = kept_as(&info);
            say!("Kept {what} {} ({id}) in the campaign", info.name);
        }
        HouseCommand::Drop { id } => {
            let info = session.pack(&id)?.pack.clone();
            session.drop_house_pack(&id)?;
            let what = kept_as(&info);
            say!("Took {what} {} ({id}) out of the campaign", info.name);
        }
        HouseCommand::Show { id, json } => show_draft(session, &id, json)?,
        HouseCommand::Export { id, out, force } => {
            let text = session
                .house_text(&id)?
                .ok_or_else(|| anyhow::anyhow!("the campaign keeps no house rules `{id}`"))?;
            super::print::write_output(session, &out, text.as_bytes(), force)?;
            say!("Wrote {} to {}", id, crate::text::path(&out));
        }
        HouseCommand::Row {
            to,
            table,
            on,
            result,
            name,
            lasting,
            heals_after,
            stats,
        } => {
            let row = crate::rules::TableRowDef {
                on,
                name,
                result,
                effects: stat_effects(&stats)?,
                fallback: None,
                lasting: lasting || heals_after.is_some(),
                heals_after,
                until: None,
                either_way: false,
                ruling: None,
            };
            edit_draft(session, &to, |draft, base| {
                if draft.put_row(base, &table, row) {
                    Ok(())
                } else {
                    anyhow::bail!("{} has no table `{table}`", base.pack.name)
                }
            })?;
        }
        HouseCommand::Table {
            to,
            table,
            name,
            roll,
            during,
            rows,
        } => put_table(session, &to, table, name, roll, during, &rows)?,
        HouseCommand::RemoveRow { to, table, on } => {
            edit_draft(session, &to, |draft, base| {
                if draft.remove_row(base, &table, &on) {
                    Ok(())
                } else {
                    anyhow::bail!("`{table}` has no row `{on}`")
                }
            })?;
        }
        HouseCommand::Counter {
            to,
            counter,
            start,
            max,
        } => {
            edit_draft(session, &to, |draft, base| {
                if draft.set_counter(base, &counter, Some(start), max) {
                    Ok(())
                } else {
                    anyhow::bail!("{} has no counter `{counter}`", base.pack.name)
                }
            })?;
        }
        HouseCommand::Stat { to, stat, default } => {
            edit_draft(session, &to, |draft, base| {
                if draft.set_stat_default(base, &stat, default) {
                    Ok(())
                } else {
                    anyhow::bail!("{} has no stat `{stat}`", base.pack.name)
                }
            })?;
        }
        HouseCommand::Entry {
            to,
            entry,
            name,
            category,
            text,
            tags,
        } => {
            let entry = crate::rules::Draft::entry(&entry, &name, &category, &text, &tags)?;
            edit_draft(session, &to, |draft, _| {
                draft.put_entry(entry);
                Ok(())
            })?;
        }
        HouseCommand::List { json } => return list_house(session, json),
    }
    for warning in session.house_warnings() {
        say_err!("warning: {warning}");
    }
    Ok(())
}

/// What a kept pack is to the campaign: its own game, or house rules.
fn kept_as(info: &crate::rules::PackInfo) -> &'static str {
    if info.own_game() {
        "the group's own game"
    } else {
        "house rules"
    }
}

/// The stat changes a row gives, typed `STAT=N`.
fn stat_effects(stats: &[String]) -> Result<Vec<crate::rules::Effect>> {
    let mut effects = Vec::new();
    for stat in stats {
        let (stat, amount) = stat
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--stat {stat}: give STAT=N"))?;
        let amount: i64 = amount
            .trim()
            .parse()
            .with_context(|| format!("--stat {stat}: not a number"))?;
        effects.push(crate::rules::Effect::Stat {
            stat: stat.trim().to_owned(),
            amount,
        });
    }
    Ok(effects)
}

/// Puts a table in the group's data (`to`): the rows typed `TOTALS=RESULT`
/// added to the table there, or a new table made of them.
fn put_table(
    session: &mut Session,
    to: &GroupPack,
    table: String,
    name: String,
    roll: String,
    during: Option<String>,
    rows: &[String],
) -> Result<()> {
    let rows = rows
        .iter()
        .map(|r| {
            let (on, result) = r
                .split_once('=')
                .ok_or_else(|| anyhow::anyhow!("--row {r}: give TOTALS=RESULT"))?;
            Ok(crate::rules::TableRowDef {
                on: on.trim().to_owned(),
                name: String::new(),
                result: result.trim().to_owned(),
                effects: Vec::new(),
                fallback: None,
                lasting: false,
                heals_after: None,
                until: None,
                either_way: false,
                ruling: None,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    edit_draft(session, to, |draft, base| {
        if let Some(t) = draft.table_mut(base, &table) {
            t.roll = roll;
            if !name.is_empty() {
                t.name = name;
            }
            t.rows.extend(rows);
            return Ok(());
        }
        let name = if name.is_empty() { table.clone() } else { name };
        draft.add_table(
            base,
            crate::rules::TableDef {
                id: table,
                name,
                roll,
                modifiers: Vec::new(),
                rows,
                source: String::new(),
                fill_in: None,
            },
            during,
        );
        Ok(())
    })
}

/// The packs the campaign keeps, with what each changes and who plays it.
fn list_house(session: &Session, json: bool) -> Result<()> {
    let packs = session.house_packs()?;
    if json {
        return print_json(&packs);
    }
    if packs.is_empty() {
        say!("The campaign keeps no house rules");
    }
    for p in packs {
        let base = p
            .base
            .as_deref()
            .and_then(|b| session.pack(b).ok())
            .map(|b| format!(", changes {}", b.pack.name))
            .unwrap_or_default();
        let played = if p.played_by.is_empty() {
            String::new()
        } else {
            format!("; played by {}", p.played_by.join(", "))
        };
        say!("{} ({}){base}{played}", p.name, p.id);
    }
    Ok(())
}

#[derive(Serialize)]
struct PackSummary<'a> {
    id: &'a str,
    name: &'a str,
    format: u32,
    version: &'a str,
    house_rules: bool,
    base: Option<&'a str>,
    stats: usize,
    resources: usize,
    quirks: usize,
    constraints: usize,
    rulings: usize,
    /// The pack's words for one entry and several, for the line.
    #[serde(skip)]
    entry: &'a str,
    #[serde(skip)]
    entries: &'a str,
}

fn summary(pack: &Pack) -> PackSummary<'_> {
    PackSummary {
        id: &pack.pack.id,
        name: &pack.pack.name,
        format: pack.pack.format,
        version: &pack.pack.version,
        house_rules: pack.pack.labelled_house_rules(),
        base: pack.pack.base.as_deref(),
        stats: pack.stats.len(),
        resources: pack.resources.len(),
        quirks: pack.quirks.len(),
        constraints: pack.constraints.len(),
        rulings: pack.rulings.len(),
        entry: &pack.words.entry,
        entries: &pack.words.entries,
    }
}

/// `Name (id): 4 stats, 1 resource, 30 quirks, …`, each count with its
/// noun as many or one, the entries in the pack's own word.
fn line(pack: &Pack) -> String {
    let s = summary(pack);
    let count = crate::rules::counted;
    format!(
        "{} ({}){}: {}, {}, {}, {}, {}",
        s.name,
        s.id,
        if s.house_rules { ", house rules" } else { "" },
        count(s.stats, "stat", "stats"),
        count(s.resources, "resource", "resources"),
        count(s.quirks, s.entry, s.entries),
        count(s.constraints, "constraint", "constraints"),
        count(s.rulings, "ruling", "rulings"),
    )
}

pub(super) fn rulesets<'a>(packs: impl Iterator<Item = &'a Pack>, json: bool) -> Result<()> {
    let packs: Vec<&Pack> = packs.collect();
    if json {
        let summaries: Vec<_> = packs.iter().map(|p| summary(p)).collect();
        return print_json(&summaries);
    }
    for p in packs {
        say!("{}", line(p));
    }
    Ok(())
}

pub(super) fn check_pack(file: &Path, json: bool) -> Result<()> {
    let text = crate::input::read_text(file, crate::input::Kind::Pack)?;
    let registry = builtin_registry()?;
    let pack = match registry.load_text(&file.display().to_string(), &text) {
        Ok(pack) => pack,
        Err(mut err) => {
            let at = crate::rules::locate::position(&text, &err.entry);
            // A reading error is said of the entry it is in, where one is.
            if err.entry.starts_with("line ")
                && let Some(entry) = crate::rules::locate::reading_entry(&text)
            {
                err.entry = entry;
            }
            if json {
                print_json(&serde_json::json!({
                    "file": err.file,
                    "line": at.line,
                    "column": at.column,
                    "entry": err.entry,
                    "reason": err.reason,
                }))?;
            }
            anyhow::bail!("{}:{at}: {}: {}", err.file, err.entry, err.reason);
        }
    };
    if json {
        return print_json(&summary(&pack));
    }
    say!("ok: {}", line(&pack));
    Ok(())
}

/// Prints the pack format's JSON Schema, or writes it to `out` (through a
/// temporary file, refusing to replace one unless `force`).
pub(super) fn pack_schema(out: Option<&Path>, force: bool) -> Result<()> {
    let text = crate::rules::pack_schema();
    let Some(path) = out else {
        super::out(&text);
        return Ok(());
    };
    let existing = if force {
        crate::output::Existing::Replace
    } else {
        crate::output::Existing::Refuse
    };
    match crate::output::write(path, text.as_bytes(), existing, None) {
        Ok(()) => {}
        Err(crate::output::OutputError::Exists(path)) => anyhow::bail!(
            "{}: a file is already there; add --force to replace it",
            crate::text::path(&path)
        ),
        Err(err) => return Err(err.into()),
    }
    say!("Wrote the pack schema to {}", crate::text::path(path));
    Ok(())
}

/// Edits the group's pack (kept, or new over `--base`), checks it and
/// keeps it in the campaign as one batch.
fn edit_draft(
    session: &mut Session,
    to: &GroupPack,
    edit: impl FnOnce(&mut crate::rules::Draft, &Pack) -> Result<()>,
) -> Result<()> {
    let kept = session.house_text(&to.house)?.is_some();
    let (base, title) = match (&to.base, &to.title) {
        (Some(base), Some(title)) => (base.clone(), title.clone()),
        _ if kept => (String::new(), String::new()),
        _ => anyhow::bail!(
            "the campaign keeps no `{}` yet: give --base PACK and --title TITLE to start it",
            to.house
        ),
    };
    let mut draft = session.house_draft(&to.house, &base, &title)?;
    let base_id = draft
        .base_id()
        .ok_or_else(|| anyhow::anyhow!("`{}` names no pack it is over", to.house))?
        .to_owned();
    let base = session.pack(&base_id)?.clone();
    edit(&mut draft, &base)?;
    let (_, id) = session.keep_draft(&draft, to.play)?;
    say!("Kept {} ({id}) in the campaign", draft.own.pack.name);
    for change in session.draft_changes(&draft)? {
        say!("  {}: {} → {}", change.entry, change.base, change.group);
    }
    Ok(())
}

/// What a kept pack of the group's changes, and whether it checks.
fn show_draft(session: &Session, id: &str, json: bool) -> Result<()> {
    let draft = session.house_draft(id, "", "")?;
    // A whole game of the group's own is over no pack: nothing it changes.
    let changes = match draft.base_id() {
        Some(_) => session.draft_changes(&draft)?,
        None => Vec::new(),
    };
    let check = session.check_draft(&draft).err().map(|e| e.to_string());
    if json {
        return print_json(&serde_json::json!({
            "id": id,
            "name": draft.own.pack.name,
            "base": draft.base_id(),
            "changes": changes,
            "error": check,
        }));
    }
    match draft.base_id() {
        Some(base) => say!("{} ({id}), over {base}", draft.own.pack.name),
        None => say!(
            "{} ({id}), a whole game of the group's own",
            draft.own.pack.name
        ),
    }
    for change in &changes {
        say!("  {}: {} → {}", change.entry, change.base, change.group);
    }
    match check {
        Some(err) => say!("Does not check: {err}"),
        None => say!("Checks: no errors"),
    }
    Ok(())
}
