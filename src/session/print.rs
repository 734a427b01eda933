//! Print: the one builder of what prints (fighter cards, blank cards,
//! roster sheets) from the campaign as it stands. The print window and
//! `rapsheet cards`/`rapsheet roster` both ask [`Session::print_job`], so
//! they print the same thing.
//!
//! Layout, fonts and the PDF are `print`'s; this room only gathers the
//! words and photos that go on the page.

use std::collections::BTreeSet;

use anyhow::{Result, anyhow, bail};

use super::{FighterView, GangView, Session};
use crate::campaign::{FighterId, GangId};
use crate::print::{
    CardData, CardStyle, MissingGlyph, PageLayout, PageSize, PrintError, RosterData, RosterFighter,
    StatCell, Track,
};
use crate::text;

/// The most blank cards one print makes (a hundred pages and more).
pub const MOST_BLANKS: usize = 1000;

/// Which fighters of a gang get a card. An empty list is everyone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Pick {
    /// Everyone on the roster.
    #[default]
    All,
    /// These fighters, as ticked in a list; others are left out quietly.
    Ids(BTreeSet<FighterId>),
    /// These fighters, by name: a name the gang lacks is refused.
    Names(Vec<String>),
    /// No fighter: blank cards alone.
    Nobody,
}

/// What to print, as a face asked for it.
#[derive(Debug, Clone, Default)]
pub struct PrintOrder {
    /// The gang; `None` is every gang of the campaign.
    pub gang: Option<GangId>,
    pub fighters: Pick,
    /// Only the fighters who can fight the next battle.
    pub crew: bool,
    /// Blank cards to add, with the labels of the gang (or the first gang).
    pub blanks: usize,
    /// A roster sheet instead of cards.
    pub roster: bool,
    pub page: PageSize,
    pub style: CardStyle,
}

/// What prints, read from the campaign and ready to lay out (on any
/// thread: it holds no part of the campaign file).
#[derive(Debug, Clone)]
pub enum PrintJob {
    Cards {
        cards: Vec<CardData>,
        page: PageSize,
        style: CardStyle,
    },
    Roster {
        sheet: RosterData,
        page: PageSize,
    },
}

impl PrintJob {
    /// The pages, for a preview.
    pub fn pages(&self) -> Result<Vec<PageLayout>, PrintError> {
        match self {
            PrintJob::Cards { cards, page, style } => {
                crate::print::card_layout(cards, 0, *page, *style)
            }
            PrintJob::Roster { sheet, page } => crate::print::roster_layout(sheet, *page),
        }
    }

    /// What prints as a placeholder, no font drawing it.
    pub fn warnings(&self) -> Result<Vec<MissingGlyph>, PrintError> {
        match self {
            PrintJob::Cards { cards, .. } => crate::print::card_warnings(cards),
            PrintJob::Roster { sheet, .. } => crate::print::roster_warnings(sheet),
        }
    }

    /// Where the cards' cut lines come nearer the paper's edge than a
    /// printer is sure to print, if they do: the cards print as asked,
    /// and a face says this beside them (the command line as a warning).
    pub fn near_the_edge(&self) -> Option<crate::print::card::NearTheEdge> {
        match self {
            PrintJob::Cards { page, style, .. } => crate::print::card::near_the_edge(*page, *style),
            PrintJob::Roster { .. } => None,
        }
    }

    /// The PDF.
    pub fn pdf(&self) -> Result<Vec<u8>, PrintError> {
        match self {
            PrintJob::Cards { cards, page, style } => {
                crate::print::cards_pdf(cards, 0, *page, *style)
            }
            PrintJob::Roster { sheet, page } => crate::print::roster_pdf(sheet, *page),
        }
    }

    /// How many cards it holds (none for a roster sheet).
    pub fn card_count(&self) -> usize {
        match self {
            PrintJob::Cards { cards, .. } => cards.len(),
            PrintJob::Roster { .. } => 0,
        }
    }
}

impl Session {
    /// The cards or roster sheet an order asks for.
    pub fn print_job(&self, order: &PrintOrder) -> Result<PrintJob> {
        let (words, _) = self.campaign_words()?;
        if order.roster {
            let gang = order
                .gang
                .ok_or_else(|| anyhow!("choose a {} to print its roster", words.gang))?;
            return Ok(PrintJob::Roster {
                sheet: self.roster_sheet(gang)?,
                page: order.page,
            });
        }
        let gangs: Vec<GangId> = match order.gang {
            Some(g) => vec![g],
            None => {
                if matches!(&order.fighters, Pick::Names(names) if !names.is_empty()) {
                    bail!(
                        "{} are named within one {}: choose the {}",
                        words.fighters,
                        words.gang,
                        words.gang
                    );
                }
                self.gangs()?.into_iter().map(|g| g.id).collect()
            }
        };
        let mut cards = Vec::new();
        for gang in &gangs {
            cards.extend(match &order.fighters {
                Pick::All => self.cards(*gang, &[])?,
                Pick::Names(names) => self.cards(*gang, names)?,
                Pick::Ids(ids) => {
                    self.cards_where(*gang, |f| ids.is_empty() || ids.contains(&f.id))?
                }
                Pick::Nobody => Vec::new(),
            });
        }
        if order.blanks > MOST_BLANKS {
            bail!(
                "{} blank cards: at most {MOST_BLANKS} at a time",
                order.blanks
            );
        }
        if order.crew {
            cards.retain(|c| c.status.is_none());
        }
        // Blank cards carry the labels of the gang (or the first gang, or
        // the campaign's pack where it has none).
        if order.blanks > 0 {
            let template = match order.gang.or_else(|| gangs.first().copied()) {
                Some(g) => self.blank_card(g)?,
                None => self.blank_card_of_campaign()?,
            };
            cards.extend(std::iter::repeat_n(template, order.blanks));
        }
        Ok(PrintJob::Cards {
            cards,
            page: order.page,
            style: order.style,
        })
    }

    /// The card size a gang's pack prints on (the campaign's pack where no
    /// gang is given): poker unless the pack says.
    pub fn card_size(&self, gang: Option<GangId>) -> Result<crate::print::CardSize> {
        let ruleset = match gang {
            Some(g) => self.gang(g)?.ruleset,
            None => self.info()?.default_ruleset,
        };
        Ok(self
            .pack(&ruleset)?
            .card
            .as_ref()
            .and_then(|c| c.size)
            .unwrap_or_default())
    }

    /// Fighter cards for a gang: every fighter on its roster, or those named.
    pub fn cards(&self, gang: GangId, only: &[String]) -> Result<Vec<CardData>> {
        let view = self.gang_view(gang)?;
        for name in only {
            if !view.fighters.iter().any(|f| text::same(&f.name, name)) {
                bail!(
                    "{} has no {} called “{}”",
                    view.name,
                    self.pack(&view.ruleset)?.words.fighter,
                    text::echo(name)
                );
            }
        }
        self.cards_of(&view, |f| {
            only.is_empty() || only.iter().any(|n| text::same(n, &f.name))
        })
    }

    /// Fighter cards for the fighters of a gang that `keep` picks.
    fn cards_where(
        &self,
        gang: GangId,
        keep: impl Fn(&FighterView) -> bool,
    ) -> Result<Vec<CardData>> {
        self.cards_of(&self.gang_view(gang)?, keep)
    }

    fn cards_of(
        &self,
        view: &GangView,
        keep: impl Fn(&FighterView) -> bool,
    ) -> Result<Vec<CardData>> {
        let pack = self.pack(&view.ruleset)?;
        // A group is one card, named with its members' names.
        view.listed(keep)
            .into_iter()
            .map(|(f, name)| {
                Ok(CardData {
                    name: name.into_owned(),
                    gang: view.name.clone(),
                    leader: f.leader,
                    // None that one of the fighter's entries takes away
                    // (a synthetic has no stress).
                    counters: view
                        .counters
                        .iter()
                        .filter(|c| {
                            pack.entry_taking(&c.id, f.quirks.iter().map(|q| q.id.as_str()))
                                .is_none()
                        })
                        .map(|c| {
                            (
                                c.label.clone(),
                                counter_text(f.counters.get(&c.id).copied()),
                            )
                        })
                        .chain(worth_cells(view, fighter_worth(f)))
                        .collect(),
                    stats: f
                        .stats
                        .iter()
                        .map(|s| StatCell {
                            label: s.label.clone(),
                            value: s.value_text(),
                            base: (s.value != s.base).then(|| {
                                let mut base = s.clone();
                                base.value = s.base;
                                base.value_text()
                            }),
                            bumps: s.bumps_text(),
                        })
                        .collect(),
                    groups: groups_of(pack, f),
                    quirks: f
                        .quirks
                        .iter()
                        .map(|q| entry_line(pack, f, q))
                        .chain(check_lines(f).filter(|_| pack.words.card_rolls.is_empty()))
                        .collect(),
                    lasting: f
                        .lasting
                        .iter()
                        .map(|e| e.line(&pack.record().noun))
                        .collect(),
                    notes: f
                        .notes
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(str::to_owned)
                        .collect(),
                    photo: self.store.photo(f.id)?,
                    status: card_status(f),
                    track: track_of(pack, f),
                    ..card_labels(
                        pack,
                        view.counters.iter().map(|c| c.label.clone()).collect(),
                    )
                })
            })
            .collect()
    }

    /// A blank card with a gang's labels, for fighters written in by hand.
    pub fn blank_card(&self, gang: GangId) -> Result<CardData> {
        let view = self.gang_view(gang)?;
        let pack = self.pack(&view.ruleset)?;
        Ok(CardData {
            counters: view
                .counters
                .iter()
                .map(|c| (c.label.clone(), String::new()))
                .chain(worth_cells(&view, None))
                .collect(),
            stats: blank_stats(pack),
            blank: true,
            ..card_labels(
                pack,
                view.counters.iter().map(|c| c.label.clone()).collect(),
            )
        })
    }

    /// A blank card of the campaign's own pack, where it has no gang yet.
    fn blank_card_of_campaign(&self) -> Result<CardData> {
        let pack = self.pack(&self.info()?.default_ruleset)?;
        let counters: Vec<String> = pack
            .counters
            .iter()
            .filter(|c| c.per_entry.is_none())
            .map(|c| c.label.clone())
            .collect();
        Ok(CardData {
            counters: counters
                .iter()
                .map(|c| (c.clone(), String::new()))
                .collect(),
            stats: blank_stats(pack),
            blank: true,
            ..card_labels(pack, counters)
        })
    }

    /// A gang's roster sheet.
    pub fn roster_sheet(&self, gang: GangId) -> Result<RosterData> {
        let view = self.gang_view(gang)?;
        let pack = self.pack(&view.ruleset)?;
        let resources: Vec<String> = view
            .resources
            .iter()
            .map(|r| format!("{} {}", r.label, r.amount))
            .collect();
        // A group is one line, named with its members' names.
        let fighters = view
            .listed(|_| true)
            .into_iter()
            .map(|(f, name)| {
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
                            counter_text(f.counters.get(&c.id).copied())
                        )
                    })
                    .collect();
                let counters: Vec<String> = counters
                    .into_iter()
                    .chain(
                        worth_cells(&view, fighter_worth(f))
                            .into_iter()
                            .map(|(label, value)| format!("{label} {value}")),
                    )
                    .collect();
                let headline = format!("{}   {}", stats.join("  "), counters.join("  "));
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
                        .map(|e| e.line(&pack.record().noun))
                        .collect();
                    lines.push(format!(
                        "{}: {}",
                        pack.words.card_lasting,
                        lasting.join("; ")
                    ));
                }
                if !f.status.can_fight() {
                    lines.push(format!("Status: {}", f.status_text));
                }
                lines.extend(f.lowered.iter().map(|l| l.text.clone()));
                RosterFighter {
                    name: name.into_owned(),
                    leader: f.leader,
                    headline,
                    lines,
                }
            })
            .collect();
        let mut ruleset = view.ruleset_name.clone();
        if view.house_rules {
            ruleset.push_str(" (house rules)");
        }
        let total = view.value.as_ref().map(|v| (v.total.value, v.total.score));
        let worth = worth_cells(&view, total)
            .into_iter()
            .filter(|(_, n)| !n.is_empty())
            .map(|(label, n)| format!("{label} {n}"));
        let rating = view
            .rating
            .iter()
            .map(|r| format!("{} {}", r.label, r.value));
        let resources: Vec<String> = resources.into_iter().chain(worth).chain(rating).collect();
        // Its faction, holdings and titles, each where it has one.
        let mut held = Vec::new();
        if let Some(faction) = &view.faction {
            held.push(format!("{}: {faction}", view.season_words.faction));
        }
        if !view.holdings.is_empty() {
            held.push(format!(
                "{}: {}",
                view.season_words.holdings,
                view.holdings.join(", ")
            ));
        }
        if !view.titles.is_empty() {
            held.push(format!("Titles: {}", view.titles.join(", ")));
        }
        Ok(RosterData {
            gang: view.name.clone(),
            ruleset,
            resources: resources.join(" · "),
            titles: held.join(" · "),
            fighters,
            fighter_word: pack.words.fighter.clone(),
            gang_word: pack.words.gang.clone(),
        })
    }
}

/// What every card of a pack carries: the headings, the tokens the text
/// puts on a card, a write-in box per counter (`write_ins`, by label), the
/// blank card's name label.
fn card_labels(pack: &crate::rules::Pack, write_ins: Vec<String>) -> CardData {
    CardData {
        quirks_heading: pack.words.card_quirks.clone(),
        lasting_heading: pack.words.card_lasting.clone(),
        notes_heading: pack.words.card_notes.clone(),
        marks_heading: pack.words.card_marks.clone(),
        tokens: pack
            .card
            .as_ref()
            .map(|c| c.tokens.clone())
            .unwrap_or_default(),
        write_ins,
        name_label: pack.words.card_name.clone(),
        fighter_word: pack.words.fighter.clone(),
        gang_word: pack.words.gang.clone(),
        ..CardData::default()
    }
}

/// A pack's stats with nothing in them, for a blank card.
fn blank_stats(pack: &crate::rules::Pack) -> Vec<StatCell> {
    pack.stats
        .iter()
        .map(|s| StatCell {
            label: s.label.clone(),
            ..StatCell::default()
        })
        .collect()
}

/// An entry as its card prints it: its title, its short profile, and what
/// it keeps of its own (a weapon's Ammo).
fn entry_line(
    pack: &crate::rules::Pack,
    fighter: &FighterView,
    entry: &crate::session::QuirkView,
) -> String {
    let profile = pack
        .quirk(&entry.id)
        .map_or(String::new(), |d| pack.card_profile(d));
    let line = if profile.is_empty() {
        entry.title()
    } else {
        format!("{}: {profile}", entry.title())
    };
    let kept: Vec<String> = pack
        .counter_keys(std::slice::from_ref(&entry.id))
        .into_iter()
        .filter(|(_, d)| d.per_entry.is_some())
        .map(|(key, d)| {
            format!(
                "{} {}",
                d.label,
                counter_text(fighter.counters.get(&key).copied())
            )
        })
        .collect();
    if kept.is_empty() {
        line
    } else {
        format!("{line} · {}", kept.join(", "))
    }
}

/// The rolls a fighter's sheet offers, as lines after its entries.
fn check_lines(fighter: &FighterView) -> impl Iterator<Item = String> + '_ {
    fighter
        .checks
        .iter()
        .map(|c| format!("{}: {}", c.label, c.describe()))
}

/// The entries under their categories' labels, in the pack's order of
/// categories (a unit record), where the pack prints them so; the sheet's
/// rolls after them, under their own heading where the pack gives one
/// (then the entries stand under theirs, as a group too), else under the
/// entries' heading.
fn groups_of(pack: &crate::rules::Pack, fighter: &FighterView) -> Vec<(String, Vec<String>)> {
    let rolls = &pack.words.card_rolls;
    let by_category = pack.card.as_ref().is_some_and(|c| c.by_category);
    if !by_category {
        if rolls.is_empty() || fighter.checks.is_empty() {
            return Vec::new();
        }
        let entries = fighter
            .quirks
            .iter()
            .map(|q| entry_line(pack, fighter, q))
            .collect();
        return vec![
            (pack.words.card_quirks.clone(), entries),
            (rolls.clone(), check_lines(fighter).collect()),
        ];
    }
    let mut groups: Vec<(String, Vec<String>)> = pack
        .categories
        .iter()
        .map(|c| {
            let lines = fighter
                .quirks
                .iter()
                .filter(|q| q.category == c.id)
                .map(|q| entry_line(pack, fighter, q))
                .collect();
            (c.label.to_uppercase(), lines)
        })
        .filter(|(_, lines): &(String, Vec<String>)| !lines.is_empty())
        .collect();
    let uncategorised: Vec<String> = fighter
        .quirks
        .iter()
        .filter(|q| !pack.categories.iter().any(|c| c.id == q.category))
        .map(|q| entry_line(pack, fighter, q))
        .chain(check_lines(fighter).filter(|_| rolls.is_empty()))
        .collect();
    if !uncategorised.is_empty() {
        groups.push((pack.words.card_quirks.clone(), uncategorised));
    }
    if !rolls.is_empty() && !fighter.checks.is_empty() {
        groups.push((rolls.clone(), check_lines(fighter).collect()));
    }
    groups
}

/// The most boxes a track prints; a larger value prints as its number only.
const TRACK_MOST: i64 = 60;

/// The pack's track for a fighter: a box for each point of the track
/// stat's full value (003's Meat of 10: ten boxes), the first of them
/// marked for the damage a counter keeps off it (000's Damage 3 off a
/// Health of 10: three of ten), the label then saying what is left of it
/// as the status strip does (`Health 7 of 10`). None where the value is
/// no number of boxes to tick.
fn track_of(pack: &crate::rules::Pack, fighter: &FighterView) -> Option<Track> {
    let id = pack.card.as_ref()?.track.as_ref()?;
    let stat = fighter.stats.iter().find(|s| &s.id == id)?;
    if !(1..=TRACK_MOST).contains(&stat.value) {
        return None;
    }
    // Each counter that lowers the stat takes its share off the full value.
    let taken = fighter
        .lowered
        .iter()
        .filter(|l| &l.stat == id)
        .map(|l| l.of.saturating_sub(l.value.max(0)))
        .fold(0_i64, i64::saturating_add)
        .clamp(0, stat.value);
    let label = if taken == 0 {
        stat.label.clone()
    } else {
        super::views::left_of(&stat.label, stat.value - taken, stat.value)
    };
    Some(Track {
        label,
        boxes: u32::try_from(stat.value).ok()?,
        taken: u32::try_from(taken).ok()?,
    })
}

/// The strip under a card's header: the status where the fighter cannot
/// fight, and each stat a counter keeps below its full value (`Wounded:
/// Health 7 of 9`).
fn card_status(fighter: &FighterView) -> Option<String> {
    let status = (!fighter.status.can_fight()).then(|| text::capitalised(&fighter.status_text));
    let parts: Vec<String> = status
        .into_iter()
        .chain(fighter.lowered.iter().map(|l| l.text.clone()))
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// A value and its score as labelled cells (`Value`, `73`; `VP`, `1`),
/// where the gang's pack prices its fighters; `worth` none gives the
/// labels with empty values (a blank card).
fn worth_cells(view: &GangView, worth: Option<(i64, Option<i64>)>) -> Vec<(String, String)> {
    let Some(labels) = &view.value else {
        return Vec::new();
    };
    let shown = |n: Option<i64>| n.map_or(String::new(), |n| n.to_string());
    let mut cells = vec![(labels.label.clone(), shown(worth.map(|w| w.0)))];
    if let Some(label) = &labels.score_label {
        cells.push((label.clone(), shown(worth.and_then(|w| w.1))));
    }
    cells
}

/// A fighter's value and score, for [`worth_cells`].
fn fighter_worth(fighter: &FighterView) -> Option<(i64, Option<i64>)> {
    fighter.value.as_ref().map(|v| (v.value, v.score))
}

/// A counter's value as printed: a dash for one the text does not print
/// and the group has not filled in.
fn counter_text(value: Option<i64>) -> String {
    value.map_or_else(|| "—".to_owned(), |v| v.to_string())
}
