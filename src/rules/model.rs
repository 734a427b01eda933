//! The ruleset pack model: what a TOML pack file says, as serde types.
//!
//! Pure data. Validation lives in `validate.rs`, loading and overrides in
//! `mod.rs`. Rust knows *kinds* of things here (a stat, a quirk, a
//! constraint); every number and name comes from the pack.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The pack format this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// A whole ruleset pack (after any override has been applied).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    pub pack: PackInfo,
    #[serde(default)]
    pub stats: Vec<StatDef>,
    #[serde(default)]
    pub resources: Vec<ResourceDef>,
    #[serde(default)]
    pub counters: Vec<CounterDef>,
    #[serde(default)]
    pub categories: Vec<CategoryDef>,
    #[serde(default)]
    pub keywords: Vec<KeywordDef>,
    #[serde(default)]
    pub quirks: Vec<QuirkDef>,
    #[serde(default)]
    pub constraints: Vec<ConstraintDef>,
    pub recruiting: Option<Recruiting>,
    #[serde(default)]
    pub rulings: Vec<Ruling>,
    /// What can happen to a fighter in a battle (fine, taken down…).
    #[serde(default)]
    pub outcomes: Vec<OutcomeDef>,
    /// Roll tables.
    #[serde(default)]
    pub tables: Vec<TableDef>,
    /// The stages of an arc of connected battles.
    #[serde(default)]
    pub arc_stages: Vec<ArcStageDef>,
    #[serde(default)]
    pub scenarios: Vec<ScenarioDef>,
    /// How bounties are claimed and declared after a battle.
    pub bounties: Option<BountyRules>,
    /// How a battle's result is read.
    pub results: Option<ResultRules>,
    /// Who rolls for injury after a battle, and on which table.
    pub injuries: Option<InjuryRules>,
    /// Who may roll for advancement after a battle, and on which table.
    pub advancement: Option<AdvancementRules>,
    #[serde(default)]
    pub titles: Vec<TitleDef>,
    pub title_rules: Option<TitleRules>,
    /// Resource actions between battles.
    #[serde(default)]
    pub actions: Vec<ActionDef>,
    /// How the system's dice behave.
    pub dice: Option<DiceRules>,
    /// The words the app prints around the pack's own entries (headings).
    #[serde(default)]
    pub words: Words,
    /// What one record of a game holds (design.md: Records). Left out: two
    /// gangs in a scenario, with a winner.
    pub record: Option<RecordRules>,
    /// How a fighter's value in points is worked out from its parts, where
    /// the game prices its fighters.
    pub valuation: Option<Valuation>,
    /// What a printed card holds for play at the table, beyond the stats.
    pub card: Option<CardRules>,
    /// A gang's rating: a sum over the members on its roster.
    pub rating: Option<super::RatingDef>,
    /// Tables looked up by two numbers.
    #[serde(default)]
    pub grids: Vec<super::GridDef>,
    /// What captives cost and what may be done with one.
    pub captives: Option<super::CaptiveRules>,
    /// Who leads when a leader leaves.
    pub succession: Option<super::SuccessionRule>,
    /// Kinds of member recruited in groups that share one profile.
    #[serde(default)]
    pub groups: Vec<super::GroupDef>,
    /// Named holdings gangs win and lose (turf, territories).
    #[serde(default)]
    pub holdings: Vec<super::HoldingDef>,
    /// How the campaign is divided into cycles, and what a cycle's end
    /// does.
    pub cycles: Option<super::CycleRules>,
    /// How the gangs are ranked.
    pub standings: Option<super::StandingsDef>,
    /// The factions every gang belongs to one of.
    #[serde(default)]
    pub factions: Vec<super::FactionDef>,
    /// How a gang challenges another between records.
    pub challenges: Option<super::ChallengeRules>,
    /// Who plays whom in a cycle.
    pub pairings: Option<super::PairingRules>,
    /// Choices the text leaves to the group, kept per campaign.
    #[serde(default)]
    pub settings: Vec<SettingDef>,
    /// Rolls a fighter's sheet offers (initiative, a skill's dice pool).
    #[serde(default)]
    pub checks: Vec<CheckDef>,
    /// Set on a group's own pack kept in the campaign: the entries it
    /// gives, labelled as the group's wherever they show.
    #[serde(skip)]
    pub group: Option<super::GroupEntries>,
}

/// A choice the text leaves to the group (when plot points return), kept
/// per campaign.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SettingDef {
    pub id: String,
    pub label: String,
    pub options: Vec<SettingOption>,
    /// The option a campaign has until the group picks one.
    pub default: String,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// One option of a setting.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SettingOption {
    pub id: String,
    pub label: String,
}

impl SettingDef {
    pub fn option(&self, id: &str) -> Option<&SettingOption> {
        self.options.iter().find(|o| o.id == id)
    }
}

/// A roll a fighter's sheet offers: dice plus the highest of some stats
/// (`2d6` + the higher of two), or a pool of dice, one a point of some
/// stats, with stress dice from a counter kept apart.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CheckDef {
    pub id: String,
    pub label: String,
    /// Dice rolled and added to (sum form).
    #[serde(default)]
    pub roll: Option<String>,
    /// Sum form: the highest of these stats is added.
    #[serde(default)]
    pub plus_highest: Vec<String>,
    /// Pool form: one base die a point of each of these stats.
    #[serde(default)]
    pub pool: Vec<String>,
    /// Pool form: the counter whose value is the number of stress dice.
    #[serde(default)]
    pub stress: Option<String>,
    /// Tier form: the stat on a ladder of dice whose rung is rolled; a
    /// difficulty (and an option's `add`) steps along the ladder.
    #[serde(default)]
    pub tier: Option<String>,
    /// Tier form: the word for one step along the ladder, shown with the
    /// step in the roll line.
    #[serde(default)]
    pub step: String,
    /// Ways of making the roll that change it (full auto: two base dice
    /// more, and the stress level up by one first).
    #[serde(default)]
    pub options: Vec<CheckOption>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A way of making a check: dice it adds, and how much it raises the
/// stress counter before the roll (a stress die more for each).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CheckOption {
    pub id: String,
    pub label: String,
    /// Base dice (pool) or points (sum) it adds.
    #[serde(default)]
    pub add: i64,
    /// How much the stress counter rises before the roll.
    #[serde(default)]
    pub stress: i64,
    #[serde(default)]
    pub source: String,
}

/// A fighter's value, worked out from its parts: its own base stats at a
/// price per point, and the cost of each of its entries (their `cost`).
/// Derived, never typed; what happens to a fighter later (lasting
/// injuries and advancements) does not change it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Valuation {
    /// What the value is called (`Value`).
    pub label: String,
    /// Points for each point of a priced stat (a die of an attribute).
    pub per_stat_point: i64,
    /// The stats priced (ids); left out, every stat.
    #[serde(default)]
    pub stats: Vec<String>,
    /// The least a fighter is worth.
    #[serde(default)]
    pub minimum: i64,
    /// What the gang's fighters may be worth together, if anything.
    #[serde(default)]
    pub limit: Option<i64>,
    /// The score worked out from the value (victory points), if any.
    #[serde(default)]
    pub score: Option<ScoreRule>,
    /// The resource new fighters and entries are bought with between
    /// games, at their value or cost, if the game buys them.
    #[serde(default)]
    pub spend: Option<String>,
    /// The categories of entry that may be bought with `spend` (left out,
    /// any entry).
    #[serde(default)]
    pub buys: Vec<String>,
    /// A resource whose amount is what the gang's fighters may be worth
    /// together (its pool of points), if any: what is spent with `spend`
    /// is added to it in the same step.
    #[serde(default)]
    pub budget: Option<String>,
    /// The ruling the budget stands on, if the text does not say it.
    #[serde(default)]
    pub budget_ruling: Option<String>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A score worked out from a fighter's value: the value divided, rounded
/// as the text says, and never below a minimum.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScoreRule {
    /// Its short name (`VP`).
    pub label: String,
    pub divide_by: i64,
    pub rounding: Rounding,
    #[serde(default)]
    pub minimum: i64,
    #[serde(default)]
    pub source: String,
}

/// How a division is rounded.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    Down,
    Up,
    Nearest,
}

impl Rounding {
    /// `n` divided by `d` (at least 1), rounded this way (a half rounds
    /// up).
    pub fn divide(self, n: i64, d: i64) -> i64 {
        let d = d.max(1);
        match self {
            Rounding::Down => n.div_euclid(d),
            Rounding::Up => n.div_euclid(d) + i64::from(n.rem_euclid(d) != 0),
            Rounding::Nearest => n.saturating_add(d / 2).div_euclid(d),
        }
    }
}

/// What a pack's records hold: who takes part, whether there is a winner,
/// the tables rolled during a game and after it, the counters a game
/// changes and what the end of a game resets. A battle between two gangs
/// in a scenario is one use of it; a session of one party is another.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RecordRules {
    /// What one record is called, in the singular and lower case
    /// (`battle`, `session`); `record` where the pack does not say.
    #[serde(default = "default_record_noun")]
    pub noun: String,
    /// The same, plural (`battles`, `sessions`). Left out, the app does
    /// not guess at the game's language: the plural is the noun followed
    /// by the app's own word, `records` ("2 skirmish records"), and plain
    /// `records` where the pack names no noun either. See
    /// [`RecordRules::plural`].
    #[serde(default)]
    pub nouns: Option<String>,
    /// The fewest gangs (or parties) a record has.
    #[serde(default = "default_sides")]
    pub min_sides: usize,
    /// The most gangs (or parties) a record has.
    #[serde(default = "default_sides")]
    pub max_sides: usize,
    /// Whether a record names a winner.
    #[serde(default)]
    pub winner: WinnerRule,
    /// What the game calls a gang leaving the game before its end and
    /// losing it ("Ran For It"); left out where a gang cannot.
    #[serde(default)]
    pub ran: Option<String>,
    /// Tables the players roll on during a game whose results the app
    /// applies (a critical hit, a search).
    #[serde(default)]
    pub during: Vec<RecordRoll>,
    /// Rolls the app makes after a game for each fighter with one of the
    /// roll's outcomes (injury rolls stay in `[injuries]`).
    #[serde(default)]
    pub after: Vec<RecordRoll>,
    /// Fighter counters the players change during a game (ammo spent,
    /// stress gained), entered per fighter.
    #[serde(default)]
    pub counters: Vec<String>,
    /// Counters set back at the end of a game, before the rolls after it,
    /// for every fighter who took part (Health restored, plot points
    /// refreshed).
    #[serde(default)]
    pub resets: Vec<CounterReset>,
    /// Boxes a record can tick (the story concludes), which resets may ask
    /// for.
    #[serde(default)]
    pub flags: Vec<RecordFlag>,
    /// True when a record may be played without one of the pack's
    /// scenarios (a plain game); a pack without scenarios plays none.
    #[serde(default)]
    pub scenario_optional: bool,
    /// Lines that follow every record, with or without a scenario, after
    /// the scenario's own epilogue: written as a scenario's epilogue lines
    /// are, counting by outcome (`per = "outcome:<id>"`).
    #[serde(default)]
    pub epilogue: Vec<EpilogueRule>,
    /// Effects at the start of every record, before anything in it: for
    /// every gang of the campaign, or every gang in the record (a resource
    /// that decays). A resource held at its floor stays there.
    #[serde(default)]
    pub upkeep: Vec<Upkeep>,
    /// Points of a counter given to members for what they did in a record
    /// (experience), after its epilogue and rolls.
    #[serde(default)]
    pub awards: Vec<super::AwardDef>,
    /// Rewards by the difference between the sides before the record
    /// (an underdog's bonus).
    #[serde(default)]
    pub differences: Vec<super::DifferenceDef>,
    /// Rolls scored by counting dice (an exploration), after the
    /// record's awards.
    #[serde(default)]
    pub counted: Vec<super::CountedRollDef>,
    /// Grids looked up for each side after the counted rolls (what was
    /// found sold, by how many found it).
    #[serde(default)]
    pub lookups: Vec<super::LookupDef>,
    /// The shapes a record may take (a challenge of two, a brawl of three
    /// or four placed), chosen per record; left out, `min_sides` to
    /// `max_sides` with a winner.
    #[serde(default)]
    pub shapes: Vec<super::ShapeDef>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A box a record can tick.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RecordFlag {
    pub id: String,
    pub label: String,
    #[serde(default)]
    pub source: String,
}

impl Default for RecordRules {
    fn default() -> Self {
        Self {
            noun: default_record_noun(),
            nouns: None,
            min_sides: default_sides(),
            max_sides: default_sides(),
            winner: WinnerRule::default(),
            ran: None,
            during: Vec::new(),
            after: Vec::new(),
            counters: Vec::new(),
            resets: Vec::new(),
            flags: Vec::new(),
            scenario_optional: false,
            epilogue: Vec::new(),
            upkeep: Vec::new(),
            awards: Vec::new(),
            differences: Vec::new(),
            counted: Vec::new(),
            lookups: Vec::new(),
            shapes: Vec::new(),
            source: String::new(),
            ruling: None,
        }
    }
}

fn default_record_noun() -> String {
    "record".to_owned()
}

fn default_sides() -> usize {
    2
}

impl RecordRules {
    /// The noun as a title: "Battle", "Session".
    pub fn title(&self) -> String {
        crate::text::capitalised(&self.noun)
    }

    /// The fewest sides a record may have, of any shape.
    pub fn fewest_sides(&self) -> usize {
        self.shapes
            .iter()
            .map(|s| s.sides.min())
            .min()
            .unwrap_or(self.min_sides)
    }

    /// The most sides a record may have, of any shape.
    pub fn most_sides(&self) -> usize {
        self.shapes
            .iter()
            .map(|s| s.sides.max().unwrap_or(usize::MAX))
            .chain(std::iter::once(self.max_sides))
            .max()
            .unwrap_or(self.max_sides)
    }

    /// A shape by id or label, any case.
    pub fn shape(&self, name: &str) -> Option<&super::ShapeDef> {
        self.shapes
            .iter()
            .find(|s| crate::text::same(&s.id, name) || crate::text::same(&s.label, name))
    }
}

/// Whether a record names a winner.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum WinnerRule {
    /// Always, unless every side ran.
    #[default]
    Required,
    /// When the players name one.
    Optional,
    /// Never.
    None,
}

/// A table rolled in a record: during the game by a fighter, or after it
/// for each fighter with one of `outcomes`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RecordRoll {
    pub table: String,
    /// When it is rolled, as the text says it.
    #[serde(default)]
    pub when: String,
    /// After a game: the outcomes whose fighters roll.
    #[serde(default)]
    pub outcomes: Vec<String>,
    /// Only for fighters with this entry (a synthetic's own table).
    #[serde(default)]
    pub only_with: Option<String>,
    /// Only for fighters without this entry.
    #[serde(default)]
    pub not_with: Option<String>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

impl RecordRoll {
    /// Whether a fighter with these entries rolls it.
    pub fn is_for(&self, has: impl Fn(&str) -> bool) -> bool {
        self.only_with.as_deref().is_none_or(&has) && !self.not_with.as_deref().is_some_and(&has)
    }
}

/// A counter set back at the end of a game.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CounterReset {
    pub counter: String,
    /// `min`, `max` or `default`: which of the counter's values it goes to.
    pub to: ResetTo,
    /// With `option`: only while the campaign's setting has that option.
    #[serde(default)]
    pub setting: Option<String>,
    #[serde(default)]
    pub option: Option<String>,
    /// Only in a record that ticks this flag.
    #[serde(default)]
    pub flag: Option<String>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Which of a counter's values a reset goes to.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ResetTo {
    Min,
    Max,
    Default,
}

impl CounterReset {
    /// The value the counter goes to; `None` for a value the text does
    /// not print (no maximum, a start the group has not filled in).
    pub fn value(&self, def: &CounterDef) -> Option<i64> {
        match self.to {
            ResetTo::Min => Some(def.min),
            ResetTo::Max => def.max,
            ResetTo::Default => def.start(),
        }
    }
}

/// Headings and phrases the app shows that are not the name of an entry.
/// A base pack gives every one; an override keeps the base's words unless
/// it gives its own.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Words {
    /// Heading over a fighter's quirks on a printed card (`QUIRKS`).
    #[serde(default)]
    pub card_quirks: String,
    /// Heading over the rolls a fighter's sheet offers, on a printed card
    /// (`ROLLS`); left out, they print after the entries, under theirs.
    #[serde(default)]
    pub card_rolls: String,
    /// Heading over a fighter's lasting effects on a printed card.
    #[serde(default)]
    pub card_lasting: String,
    /// Heading of the write-in notes box on a printed card.
    #[serde(default)]
    pub card_notes: String,
    /// Heading of the tick boxes on a printed card.
    #[serde(default)]
    pub card_marks: String,
    /// The label of the name line on a blank card (`NAME`); left out, the
    /// line is unlabelled.
    #[serde(default)]
    pub card_name: String,
    /// Heading over the fighters of a battle who did not come through with
    /// the default outcome, in the chronicle.
    #[serde(default)]
    pub takedowns: String,
    /// What the game calls a gang, in lower case (`gang`, `crew`, `party`).
    #[serde(default)]
    pub gang: String,
    /// The same, plural (`gangs`).
    #[serde(default)]
    pub gangs: String,
    /// What the game calls a fighter, in lower case (`fighter`, `model`).
    #[serde(default)]
    pub fighter: String,
    /// The same, plural (`fighters`).
    #[serde(default)]
    pub fighters: String,
    /// What the game calls one entry of its catalog a fighter has, in
    /// lower case (`quirk`, `component`).
    #[serde(default)]
    pub entry: String,
    /// The same, plural (`quirks`).
    #[serde(default)]
    pub entries: String,
    /// What the game calls the fighter who leads a gang, in lower case
    /// (`leader`, `captain`).
    #[serde(default)]
    pub leader: String,
    /// The same, plural (`leaders`).
    #[serde(default)]
    pub leaders: String,
    /// What the game calls a holding, in lower case (`turf`), where it
    /// has `[[holdings]]`.
    #[serde(default)]
    pub holding: String,
    /// The same, plural (`turfs`).
    #[serde(default)]
    pub holdings: String,
    /// What the game calls a cycle, in lower case (`week`), where it has
    /// `[cycles]`.
    #[serde(default)]
    pub cycle: String,
    /// The same, plural (`weeks`).
    #[serde(default)]
    pub cycles: String,
    /// What the game calls a faction, in lower case (`faction`), where it
    /// has `[[factions]]`.
    #[serde(default)]
    pub faction: String,
    /// The same, plural (`factions`).
    #[serde(default)]
    pub factions: String,
}

impl PackInfo {
    /// True for house rules laid over another pack: what the app labels
    /// "house rules". A whole game kept in a campaign is the group's own
    /// game and shows as its name.
    pub fn labelled_house_rules(&self) -> bool {
        self.house_rules && self.base.is_some()
    }

    /// True for a whole game a group keeps in its campaign.
    pub fn own_game(&self) -> bool {
        self.house_rules && self.base.is_none()
    }
}

impl Words {
    /// The words a season's kinds need where a pack has them, with their
    /// field names: a holding's, a cycle's and a faction's.
    pub fn season_fields(&self) -> [(&'static str, &String); 6] {
        [
            ("holding", &self.holding),
            ("holdings", &self.holdings),
            ("cycle", &self.cycle),
            ("cycles", &self.cycles),
            ("faction", &self.faction),
            ("factions", &self.factions),
        ]
    }

    /// Every word with its field name, for checks and merging.
    pub fn fields(&self) -> [(&'static str, &String); 13] {
        [
            ("card_quirks", &self.card_quirks),
            ("card_lasting", &self.card_lasting),
            ("card_notes", &self.card_notes),
            ("card_marks", &self.card_marks),
            ("takedowns", &self.takedowns),
            ("gang", &self.gang),
            ("gangs", &self.gangs),
            ("fighter", &self.fighter),
            ("fighters", &self.fighters),
            ("entry", &self.entry),
            ("entries", &self.entries),
            ("leader", &self.leader),
            ("leaders", &self.leaders),
        ]
    }

    /// These words, with the base's where this leaves one out.
    pub fn over(self, base: &Words) -> Words {
        let pick = |own: String, base: &String| if own.is_empty() { base.clone() } else { own };
        Words {
            card_quirks: pick(self.card_quirks, &base.card_quirks),
            card_rolls: pick(self.card_rolls, &base.card_rolls),
            card_lasting: pick(self.card_lasting, &base.card_lasting),
            card_notes: pick(self.card_notes, &base.card_notes),
            card_marks: pick(self.card_marks, &base.card_marks),
            card_name: pick(self.card_name, &base.card_name),
            takedowns: pick(self.takedowns, &base.takedowns),
            gang: pick(self.gang, &base.gang),
            gangs: pick(self.gangs, &base.gangs),
            fighter: pick(self.fighter, &base.fighter),
            fighters: pick(self.fighters, &base.fighters),
            entry: pick(self.entry, &base.entry),
            entries: pick(self.entries, &base.entries),
            leader: pick(self.leader, &base.leader),
            leaders: pick(self.leaders, &base.leaders),
            holding: pick(self.holding, &base.holding),
            holdings: pick(self.holdings, &base.holdings),
            cycle: pick(self.cycle, &base.cycle),
            cycles: pick(self.cycles, &base.cycles),
            faction: pick(self.faction, &base.faction),
            factions: pick(self.factions, &base.factions),
        }
    }
}

/// The sizes a card prints at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum CardSize {
    /// 63 × 88 mm.
    #[default]
    Poker,
    /// 100 × 110 mm.
    Large,
    /// A character sheet, 190 × 130 mm: two to a page.
    Sheet,
}

impl CardSize {
    /// Every size, with its name as written (`poker`).
    pub const ALL: [(CardSize, &'static str); 3] = [
        (CardSize::Poker, "poker"),
        (CardSize::Large, "large"),
        (CardSize::Sheet, "sheet"),
    ];

    /// Width and height in mm.
    pub fn mm(self) -> (f32, f32) {
        match self {
            CardSize::Poker => (63.0, 88.0),
            CardSize::Large => (100.0, 110.0),
            CardSize::Sheet => (190.0, 130.0),
        }
    }

    /// A size by its name (`poker`, `large`, `sheet`), any case.
    pub fn named(name: &str) -> Option<CardSize> {
        Self::ALL
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(size, _)| *size)
    }
}

/// What a printed card holds for play at the table (`[card]`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CardRules {
    /// The stat whose value is a track of boxes ticked off during a game
    /// (003's Meat: "All damage a fighter takes is subtracted from their
    /// meat").
    #[serde(default)]
    pub track: Option<String>,
    /// Tokens the text puts on a fighter's card, each given a place
    /// (003: "Each standing fighter in the Zone gains a Ready token, either
    /// placed near their model or on their card/sheet").
    #[serde(default)]
    pub tokens: Vec<String>,
    /// The card size its fighters print on unless asked (`sheet`: a
    /// party's character sheet).
    #[serde(default)]
    pub size: Option<CardSize>,
    /// The entries printed under their categories' labels (a unit record's
    /// rank, species, skills, equipment) instead of under one heading.
    #[serde(default)]
    pub by_category: bool,
    /// The lines of the text this follows.
    #[serde(default)]
    pub source: String,
}

/// What a game calls the parts of a stress pool's roll, for the roll line
/// and the button that rolls again (002: "Base Dice", "Stress Dice", "A 6
/// is a success", "Each additional 6 can be used to do a Stunt", "triggers
/// a Panic Roll", "Pushing").
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct StressWords {
    /// The base dice, as the roll line names them (`base`).
    pub base: String,
    /// The stress dice, as the roll line names them (`stress`).
    pub stress: String,
    /// A die that succeeds, singular and plural (`success`, `successes`).
    pub success: String,
    pub successes: String,
    /// What each success beyond the first is for, singular and plural
    /// (`stunt`, `stunts`).
    pub extra: String,
    pub extras: String,
    /// What a panic face on a stress die triggers (`a panic roll`).
    pub panic: String,
    /// Rolling the failed dice again with one more stress die, as a verb
    /// and as done (`push`, `pushed`).
    pub push: String,
    pub pushed: String,
}

impl StressWords {
    /// A pool's roll in these words: each kind of dice with how many and
    /// their faces, then what they came to (`4 base [6, 3, 2, 6], 1 stress
    /// [1]: 2 successes, 1 stunt; a Panic Roll`).
    pub fn roll_said(&self, roll: &crate::dice::StressRoll) -> String {
        let dice = |dice: &[crate::dice::DieRoll], word: &str| {
            let faces: Vec<String> = dice.iter().map(|d| d.face.to_string()).collect();
            format!("{} {word} [{}]", dice.len(), faces.join(", "))
        };
        let mut said = format!(
            "{}, {}: {}, {}",
            dice(&roll.base, &self.base),
            dice(&roll.stress, &self.stress),
            super::counted(roll.successes as usize, &self.success, &self.successes),
            super::counted(roll.stunts as usize, &self.extra, &self.extras),
        );
        if roll.panic {
            said.push_str(&format!("; {}", self.panic));
        } else if roll.can_push {
            said.push_str(&format!("; may be {}", self.pushed));
        }
        said
    }
}

/// The system's dice conventions.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DiceRules {
    /// Dice read off bigger ones (a d3 is a d6 halved).
    #[serde(default)]
    pub derived: Vec<crate::dice::DerivedDie>,
    /// How pools of dice score.
    #[serde(default)]
    pub pool: Option<crate::dice::PoolRules>,
    /// How stress pools (base dice and stress dice) read their dice.
    #[serde(default)]
    pub stress: Option<crate::dice::StressRules>,
    /// What the game calls the parts of a stress pool's roll; required
    /// with `stress`.
    #[serde(default)]
    pub stress_words: Option<StressWords>,
    #[serde(default)]
    pub source: String,
}

impl DiceRules {
    pub fn dialect(&self) -> crate::dice::DiceDialect {
        crate::dice::DiceDialect {
            derived: self.derived.clone(),
        }
    }
}

/// The `[pack]` header.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PackInfo {
    /// Stable id, stored in campaign files (`heartbreaker`).
    pub id: String,
    /// Name shown to players.
    pub name: String,
    /// Pack format version; must equal [`FORMAT_VERSION`].
    pub format: u32,
    /// The pack's own version, free text.
    #[serde(default)]
    pub version: String,
    /// Where the rules come from (a rule text, a house-rules document).
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub description: String,
    /// For an override pack: the id of the pack it changes.
    #[serde(default)]
    pub base: Option<String>,
    /// True for house rules; the app labels such a pack "house rules".
    #[serde(default)]
    pub house_rules: bool,
    /// Override packs only: entries of the base to drop, as `section.id`
    /// (`quirks.bonded`).
    #[serde(default)]
    pub remove: Vec<String>,
}

/// A fighter stat (Action Limit, Speed…).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatDef {
    pub id: String,
    /// Short label for tables and cards (`LIMIT`).
    pub label: String,
    /// Full name (`Action Limit`).
    #[serde(default)]
    pub name: String,
    /// A new fighter's value; left out only with `fill_in`.
    #[serde(default)]
    pub default: Option<i64>,
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    /// Unit shown after the value, e.g. `"` for inches.
    #[serde(default)]
    pub unit: String,
    /// Names for the values from `min` up, where a value stands for a step
    /// on a ladder (`2d4`, `2d6`… or `none`, `Light`…).
    #[serde(default)]
    pub ladder: Vec<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub source: String,
    /// The ruling of a stat the text refers to but prints no value for
    /// (it is on the game's own sheet): a fighter's is entered when they
    /// are made, or the group's house rules give a `default`.
    #[serde(default)]
    pub fill_in: Option<String>,
}

impl StatDef {
    /// A new fighter's value: the pack's default; `None` for a stat the
    /// group fills in that its house rules have not given a default.
    pub fn start(&self) -> Option<i64> {
        self.default
    }

    /// What the stat is called in a sentence: its name, or its label where
    /// it has none.
    pub fn title(&self) -> &str {
        if self.name.is_empty() {
            &self.label
        } else {
            &self.name
        }
    }

    /// A value as a player types it: a whole number, or the name of a step
    /// on the stat's ladder (`2d8`), in any case.
    pub fn parse_value(&self, text: &str) -> Option<i64> {
        if let Ok(n) = text.trim().parse::<i64>() {
            return Some(n);
        }
        let index = self
            .ladder
            .iter()
            .position(|step| crate::text::same(step, text))?;
        Some(self.min.unwrap_or(0) + i64::try_from(index).ok()?)
    }

    /// A value as a player reads it: its ladder step where it has one.
    pub fn show(&self, value: i64) -> String {
        value
            .checked_sub(self.min.unwrap_or(0))
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.ladder.get(i))
            .cloned()
            .unwrap_or_else(|| value.to_string())
    }
}

/// A gang resource (Supply, Territory…).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ResourceDef {
    pub id: String,
    pub label: String,
    #[serde(default)]
    pub start: i64,
    #[serde(default)]
    pub min: Option<i64>,
    /// The ruling behind `min`, shown when a loss is held at the floor.
    #[serde(default)]
    pub floor_ruling: Option<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub source: String,
}

impl ResourceDef {
    /// The amounts a gang may hold: from its floor (or the safety bound)
    /// up to the safety bound.
    pub fn range(&self) -> std::ops::RangeInclusive<i64> {
        let top = super::bounds::MAX_MAGNITUDE;
        self.min.unwrap_or(-top)..=top
    }
}

/// A per-fighter counter with bounds (Bounty 0..5).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CounterDef {
    pub id: String,
    pub label: String,
    /// A new fighter's value: 0 where left out, except with `fill_in`.
    #[serde(default)]
    pub default: Option<i64>,
    pub min: i64,
    /// The most it holds; left out where the text prints no maximum.
    #[serde(default)]
    pub max: Option<i64>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub source: String,
    /// The ruling of a counter the text refers to but prints no starting
    /// value for: untracked until the group's house rules give `default`.
    #[serde(default)]
    pub fill_in: Option<String>,
    /// A tag: the fighter has one of this counter for each of their entries
    /// with it (a weapon's ammo), keyed `counter:entry` (`ammo:pistol`).
    #[serde(default)]
    pub per_entry: Option<String>,
    /// The stat this counter is taken from (Damage from Health): the
    /// fighter's state shows the stat as what is left of it.
    #[serde(default)]
    pub lowers: Option<CounterLowers>,
    /// With `per_entry`: the roll an entry found in play starts with (a
    /// found weapon's bullets, `2d6`); a count it cannot roll is refused.
    #[serde(default)]
    pub found: Option<String>,
    /// Spent, never overdrawn: a change that takes more than the fighter
    /// holds is refused, not held at `min` (a plot point spent).
    #[serde(default)]
    pub spent: bool,
    /// What the log says of a rise lost whole at `max`, in the pack's
    /// words (HWC's plot point awarded at two: `the award is lost: never
    /// more than 2`); left out, the app's own words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_at_max: Option<String>,
    /// Points at which a member rolls on a table (experience advances),
    /// per kind of member.
    #[serde(default)]
    pub thresholds: Vec<super::Thresholds>,
}

/// A stat a counter is taken from, and the word for a fighter while the
/// counter keeps it below its full value.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CounterLowers {
    pub stat: String,
    /// Shown while the stat is below its full value (`Wounded`); may be
    /// left empty.
    #[serde(default)]
    pub word: String,
    #[serde(default)]
    pub source: String,
}

impl CounterDef {
    /// The values it may hold: from its minimum to its most, within the
    /// safety bound.
    pub fn range(&self) -> std::ops::RangeInclusive<i64> {
        self.min.max(-super::bounds::MAX_MAGNITUDE)..=self.top()
    }

    /// The counts an entry found in play may start with: the totals its
    /// `found` roll can make.
    pub fn found_totals(&self) -> Option<std::ops::RangeInclusive<i64>> {
        let roll = self.found.as_deref()?;
        crate::dice::parse(roll).ok().map(|e| e.totals())
    }

    /// A new fighter's value; `None` while the group has not filled it in.
    pub fn start(&self) -> Option<i64> {
        match (self.default, &self.fill_in) {
            (Some(value), _) => Some(value),
            (None, Some(_)) => None,
            (None, None) => Some(0),
        }
    }

    /// The most it holds: its `max`, or the safety bound where the text
    /// prints none.
    pub fn top(&self) -> i64 {
        self.max.unwrap_or(super::bounds::MAX_MAGNITUDE)
    }

    /// The key of this counter for one entry (`ammo:pistol`).
    pub fn key_for(&self, entry: &str) -> String {
        format!("{}:{entry}", self.id)
    }

    /// The ruling that leaves it to the group, while they have not.
    pub fn unfilled(&self) -> Option<&str> {
        self.start()
            .is_none()
            .then_some(self.fill_in.as_deref())
            .flatten()
    }
}

/// A group of quirks in the catalog (Weapons, Gear, Abilities).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CategoryDef {
    pub id: String,
    pub label: String,
}

/// A keyword a quirk can carry with a value (`Knockback X`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KeywordDef {
    pub id: String,
    /// Name with its placeholder, as printed (`Knockback X`).
    pub name: String,
    /// Short form for cards (`KB`).
    #[serde(default)]
    pub short: String,
    pub text: String,
    #[serde(default)]
    pub source: String,
}

/// One entry of the quirk catalog.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QuirkDef {
    pub id: String,
    pub name: String,
    pub category: String,
    /// Counters a fighter with this entry does not have (a synthetic's
    /// stress): a record neither changes nor resets them.
    #[serde(default)]
    pub no_counters: Vec<String>,
    /// Free tags the constraints refer to (`armor`, `melee`).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Weapons: range as printed (`Nearby-6"`, `2-12"`).
    #[serde(default)]
    pub range: Option<String>,
    /// Weapons: PUNCH value.
    #[serde(default)]
    pub punch: Option<i64>,
    #[serde(default)]
    pub keywords: Vec<KeywordUse>,
    /// Named special rules and granted actions, with their full text.
    #[serde(default)]
    pub rules: Vec<QuirkRule>,
    /// Short profile for cards and pickers (`Crush`, `Push 5"`).
    #[serde(default)]
    pub short: String,
    /// The entry's full text as printed, when it is not all in `rules`.
    #[serde(default)]
    pub text: String,
    /// The d6 alternative names, in order (empty, or exactly six).
    #[serde(default)]
    pub alt_names: Vec<String>,
    /// What the quirk does to the fighter's stats.
    #[serde(default)]
    pub effects: Vec<StatEffect>,
    #[serde(default)]
    pub source: String,
    /// Another of the fighter's quirks the player selects for this one
    /// (Akimbo Holster: the weapon to Dual Wield).
    #[serde(default)]
    pub select: Option<QuirkSelect>,
    /// What the entry adds to a fighter's value, in points, as printed
    /// (where the pack prices its fighters: see [`Valuation`]).
    #[serde(default)]
    pub cost: Option<i64>,
    /// The ruling that settles a printed cost the text's own formula
    /// contradicts.
    #[serde(default)]
    pub cost_ruling: Option<String>,
    /// Entries (ids) this one comes with: a fighter with it has them too,
    /// their cost is in its own, and they take no slot.
    #[serde(default)]
    pub includes: Vec<String>,
    /// The range each of the fighter's own base stats stays in while it
    /// has this entry (an occupation's dice): stat id → `[min, max]`.
    #[serde(default)]
    pub ranges: std::collections::BTreeMap<String, [i64; 2]>,
    /// The ruling the ranges stand on, if the text does not print them.
    #[serde(default)]
    pub ranges_ruling: Option<String>,
    /// Tags this entry opens for its fighter (an occupation's skill
    /// categories), for a `max_slots` constraint's `unopened`.
    #[serde(default)]
    pub opens: Vec<String>,
    /// The kinds of group (`[[groups]]` ids) whose members alone may take
    /// it; left out, any member.
    #[serde(default)]
    pub groups: Vec<String>,
}

/// What an entry no entry of the fighter opens takes in a `max_slots`
/// constraint: an entry carrying a tag that begins with `prefix`, where the
/// fighter has entries that open tags and none of them (nor `open`) opens
/// that tag, takes `slots` slots instead of one.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Unopened {
    pub prefix: String,
    /// Tags always open (General skills).
    #[serde(default)]
    pub open: Vec<String>,
    pub slots: usize,
}

/// A quirk that works with another of the fighter's quirks, which the
/// player selects.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QuirkSelect {
    /// The quirks (ids) it may be selected among.
    pub any_of: Vec<String>,
    /// What the selection is, as the app asks for it.
    pub label: String,
    #[serde(default)]
    pub source: String,
}

/// A keyword on a quirk with its value (`knockback`, `3`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KeywordUse {
    pub keyword: String,
    /// The X, as printed: `3`, `D3`.
    pub x: String,
}

/// A named rule or action on a quirk (`Deflect: …`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QuirkRule {
    pub name: String,
    pub text: String,
    /// True when the rule is an action the fighter gains.
    #[serde(default)]
    pub action: bool,
}

/// A change a quirk makes to one stat.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatEffect {
    pub stat: String,
    /// Added to the stat's value.
    #[serde(default)]
    pub add: i64,
    /// A bump instead: a number shown beside the stat's value that turns
    /// one die's result up or down (004: the smaller box of "numbers
    /// following plus signs" under an attribute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bump: Option<i64>,
}

/// A rule the engine checks on a fighter or a gang.
///
/// Read through [`RawConstraint`] so that a misspelt field is refused (serde
/// cannot deny unknown fields beside a flattened enum).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(try_from = "RawConstraint")]
pub struct ConstraintDef {
    pub id: String,
    /// What a player reads when the rule is broken.
    pub message: String,
    #[serde(default)]
    pub source: String,
    /// The id of the ruling this constraint rests on, if the text is silent.
    #[serde(default)]
    pub ruling: Option<String>,
    /// True when it holds only for the founding roster: until the gang's
    /// first record (a starting gang of 2 to 4 of a kind), not at every
    /// moment after.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub founding: bool,
    #[serde(flatten)]
    pub rule: ConstraintKind,
}

/// The kinds of constraint the engine knows how to evaluate.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConstraintKind {
    /// A fighter has at most `max` quirks carrying `tag`.
    MaxTagged { tag: String, max: usize },
    /// A fighter with `quirk` may have no quirk carrying `tag`.
    ForbidsTagged { quirk: String, tag: String },
    /// A fighter with `quirk` must also have one of `any_of`.
    RequiresAny { quirk: String, any_of: Vec<String> },
    /// The number of fighters in a gang with `quirk` is one of `allowed`.
    GangCount { quirk: String, allowed: Vec<usize> },
    /// A fighter has at least `min` quirks carrying `tag`.
    MinTagged { tag: String, min: usize },
    /// A fighter with `quirk` has at most `max` quirks carrying `tag`,
    /// not counting those another of its quirks includes. No `max`: the
    /// text prints none (a rank whose maximum is "N/A"), and the
    /// constraint's ruling says so.
    MaxSlots {
        quirk: String,
        tag: String,
        max: Option<usize>,
        /// What an entry of a category the fighter's entries do not open
        /// takes, if more than one slot.
        unopened: Option<Unopened>,
    },
    /// A gang has at most `max` fighters with `quirk` for every `per`
    /// points of its fighters' value, the count of `per`s rounded as
    /// `rounding` says.
    GangCountPerPoints {
        quirk: String,
        max: usize,
        per: usize,
        rounding: Rounding,
    },
    /// A fighter with `quirk` has a value of `stat` (as it has it now,
    /// with what lasting effects did to it) of at least `min` and at most
    /// `max`, unless one of its entries carries `unless_tagged`.
    StatRange {
        quirk: String,
        stat: String,
        min: Option<i64>,
        max: Option<i64>,
        unless_tagged: Option<String>,
    },
    /// A fighter with `quirk` has a score (the value's, as
    /// `[valuation.score]` works it out) of at most `max`.
    MaxScore { quirk: String, max: i64 },
    /// A gang has at most `max` fighters with an entry carrying `tag`.
    GangMaxTagged { tag: String, max: usize },
}

impl ConstraintKind {
    /// The entry a fighter (or, for a gang's count, some fighter) has for
    /// the constraint to concern it; `None` for a kind about every fighter.
    pub fn quirk(&self) -> Option<&str> {
        match self {
            ConstraintKind::MaxTagged { .. }
            | ConstraintKind::MinTagged { .. }
            | ConstraintKind::GangMaxTagged { .. } => None,
            ConstraintKind::ForbidsTagged { quirk, .. }
            | ConstraintKind::RequiresAny { quirk, .. }
            | ConstraintKind::GangCount { quirk, .. }
            | ConstraintKind::MaxSlots { quirk, .. }
            | ConstraintKind::GangCountPerPoints { quirk, .. }
            | ConstraintKind::StatRange { quirk, .. }
            | ConstraintKind::MaxScore { quirk, .. } => Some(quirk),
        }
    }
}

impl ConstraintKind {
    /// True for a cap or a prohibition: broken by adding, mended only by
    /// taking away, so a change that would break it is refused. A minimum,
    /// an exact count or a requirement is met a step at a time while a
    /// gang is built, and is only shown.
    pub fn is_a_limit(&self) -> bool {
        match self {
            ConstraintKind::MaxTagged { .. }
            | ConstraintKind::ForbidsTagged { .. }
            | ConstraintKind::MaxSlots { .. }
            | ConstraintKind::GangCountPerPoints { .. }
            | ConstraintKind::GangMaxTagged { .. }
            | ConstraintKind::MaxScore { .. } => true,
            // A stat held while a fighter has an entry is met by setting
            // the stat, before or after the entry is chosen, as a stat's
            // ranges are.
            ConstraintKind::RequiresAny { .. }
            | ConstraintKind::GangCount { .. }
            | ConstraintKind::MinTagged { .. }
            | ConstraintKind::StatRange { .. } => false,
        }
    }
}

/// A constraint as written in the file: every field any kind uses.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = super::schema::constraint_kinds)]
pub struct RawConstraint {
    id: String,
    message: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    ruling: Option<String>,
    #[serde(default)]
    founding: bool,
    kind: String,
    tag: Option<String>,
    quirk: Option<String>,
    any_of: Option<Vec<String>>,
    allowed: Option<Vec<usize>>,
    // Signed: a stat's bounds may be below 0; a count's are checked.
    min: Option<i64>,
    max: Option<i64>,
    per: Option<usize>,
    rounding: Option<Rounding>,
    unopened: Option<Unopened>,
    stat: Option<String>,
    unless_tagged: Option<String>,
}

impl TryFrom<RawConstraint> for ConstraintDef {
    type Error = String;

    fn try_from(raw: RawConstraint) -> Result<Self, String> {
        let id = raw.id.clone();
        let need =
            |field: &str| format!("constraint `{id}` of kind `{}` needs `{field}`", raw.kind);
        let extra = |field: &str| {
            format!(
                "constraint `{id}` of kind `{}` does not use `{field}`",
                raw.kind
            )
        };
        // One table of the kinds and their fields, read by the schema too.
        let Some(used) = super::schema::CONSTRAINT_KINDS
            .iter()
            .find(|k| k.name == raw.kind)
            .map(|k| k.uses)
        else {
            let names: Vec<&str> = super::schema::CONSTRAINT_KINDS
                .iter()
                .map(|k| k.name)
                .collect();
            return Err(format!(
                "constraint `{id}`: unknown kind `{}` (expected {})",
                raw.kind,
                names.join(", ")
            ));
        };
        let present = [
            ("tag", raw.tag.is_some()),
            ("max", raw.max.is_some()),
            ("quirk", raw.quirk.is_some()),
            ("any_of", raw.any_of.is_some()),
            ("allowed", raw.allowed.is_some()),
            ("min", raw.min.is_some()),
            ("per", raw.per.is_some()),
            ("rounding", raw.rounding.is_some()),
            ("unopened", raw.unopened.is_some()),
            ("stat", raw.stat.is_some()),
            ("unless_tagged", raw.unless_tagged.is_some()),
        ];
        for (field, is_set) in present {
            if is_set && !used.contains(&field) {
                return Err(extra(field));
            }
        }
        // A count: 0 or more.
        let count = |field: &str, n: Option<i64>| -> Result<Option<usize>, String> {
            n.map(|n| {
                usize::try_from(n).map_err(|_| {
                    format!("constraint `{id}`: `{field}` is {n}; a count is 0 or more")
                })
            })
            .transpose()
        };
        let rule = match raw.kind.as_str() {
            "max_tagged" => ConstraintKind::MaxTagged {
                tag: raw.tag.ok_or_else(|| need("tag"))?,
                max: count("max", raw.max)?.ok_or_else(|| need("max"))?,
            },
            "forbids_tagged" => ConstraintKind::ForbidsTagged {
                quirk: raw.quirk.ok_or_else(|| need("quirk"))?,
                tag: raw.tag.ok_or_else(|| need("tag"))?,
            },
            "requires_any" => ConstraintKind::RequiresAny {
                quirk: raw.quirk.ok_or_else(|| need("quirk"))?,
                any_of: raw.any_of.ok_or_else(|| need("any_of"))?,
            },
            "min_tagged" => ConstraintKind::MinTagged {
                tag: raw.tag.ok_or_else(|| need("tag"))?,
                min: count("min", raw.min)?.ok_or_else(|| need("min"))?,
            },
            // `max` left out: no maximum, which the constraint's ruling
            // must say (checked with the pack).
            "max_slots" => ConstraintKind::MaxSlots {
                quirk: raw.quirk.ok_or_else(|| need("quirk"))?,
                tag: raw.tag.ok_or_else(|| need("tag"))?,
                max: count("max", raw.max)?,
                unopened: raw.unopened,
            },
            "gang_count_per_points" => ConstraintKind::GangCountPerPoints {
                quirk: raw.quirk.ok_or_else(|| need("quirk"))?,
                max: count("max", raw.max)?.ok_or_else(|| need("max"))?,
                per: raw.per.ok_or_else(|| need("per"))?,
                rounding: raw.rounding.ok_or_else(|| need("rounding"))?,
            },
            "stat_range" => {
                if raw.min.is_none() && raw.max.is_none() {
                    return Err(need("min` or `max"));
                }
                ConstraintKind::StatRange {
                    quirk: raw.quirk.ok_or_else(|| need("quirk"))?,
                    stat: raw.stat.ok_or_else(|| need("stat"))?,
                    min: raw.min,
                    max: raw.max,
                    unless_tagged: raw.unless_tagged,
                }
            }
            "max_score" => ConstraintKind::MaxScore {
                quirk: raw.quirk.ok_or_else(|| need("quirk"))?,
                max: raw.max.ok_or_else(|| need("max"))?,
            },
            "gang_max_tagged" => ConstraintKind::GangMaxTagged {
                tag: raw.tag.ok_or_else(|| need("tag"))?,
                max: count("max", raw.max)?.ok_or_else(|| need("max"))?,
            },
            _ => ConstraintKind::GangCount {
                quirk: raw.quirk.ok_or_else(|| need("quirk"))?,
                allowed: raw.allowed.ok_or_else(|| need("allowed"))?,
            },
        };
        Ok(ConstraintDef {
            id: raw.id,
            message: raw.message,
            source: raw.source,
            ruling: raw.ruling,
            founding: raw.founding,
            rule,
        })
    }
}

/// How a starting gang is recruited.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Recruiting {
    /// How many leaders a starting gang has: a number or a range.
    pub leaders: super::CountRange,
    /// How many other fighters it starts with: a number or a range.
    pub recruits: super::CountRange,
    /// How many entries each fighter is recruited with: a number or a
    /// range; left out, the number is not checked.
    #[serde(default)]
    pub quirks_per_fighter: Option<super::CountRange>,
    /// How many more a leader has than `quirks_per_fighter`.
    #[serde(default)]
    pub leader_extra_quirks: usize,
    /// Each fighter's quirks must all be different.
    #[serde(default)]
    pub distinct_quirks: bool,
    #[serde(default)]
    pub source: String,
}

impl Recruiting {
    /// How many entries a fighter is recruited with, a leader's or
    /// another's; `None` where the pack does not check it.
    pub fn entries_for(&self, leader: bool) -> Option<super::CountRange> {
        let extra = if leader { self.leader_extra_quirks } else { 0 };
        self.quirks_per_fighter.map(|r| r.plus(extra))
    }

    /// How many fighters a starting gang has in all.
    pub fn size(&self) -> super::CountRange {
        self.leaders.and(&self.recruits)
    }
}

/// A fighter's outcome in a battle.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OutcomeDef {
    pub id: String,
    pub label: String,
    /// True for the outcome of a fighter who came through the battle as
    /// usual: what a report means when it names no outcome. Exactly one
    /// outcome of a pack has it.
    #[serde(default)]
    pub default: bool,
    /// True when the fighter was taken down (a bounty on them is claimed).
    #[serde(default)]
    pub taken_down: bool,
    /// Resources (ids) a fighter with this outcome does not gain from the
    /// tables rolled for them in the record; a loss still applies.
    #[serde(default)]
    pub forfeits: Vec<String>,
    /// What the outcome does to the fighter, as a table row's effects do
    /// (leaves the gang, a counter change, a stat): applied after the
    /// record's epilogue to every fighter with it.
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// True when what `effects` do stays with the fighter, as a table
    /// row's `lasting`.
    #[serde(default)]
    pub lasting: bool,
    /// A lasting result that heals by itself after this many more records.
    #[serde(default)]
    pub heals_after: Option<u32>,
    /// A lasting result that ends with the cycle (`cycle`).
    #[serde(default)]
    pub until: Option<super::Until>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

impl OutcomeDef {
    /// The table of the outcome's own that [`OutcomeDef::as_row`] is the
    /// one row of: named and cited as the outcome.
    pub fn as_table(&self) -> TableDef {
        TableDef {
            id: self.id.clone(),
            name: self.label.clone(),
            roll: String::new(),
            modifiers: Vec::new(),
            rows: Vec::new(),
            source: self.source.clone(),
            fill_in: None,
        }
    }

    /// The outcome as a row of a table of its own, for applying its
    /// effects as a table row's are.
    pub fn as_row(&self) -> TableRowDef {
        TableRowDef {
            on: String::new(),
            name: self.label.clone(),
            result: self.label.clone(),
            effects: self.effects.clone(),
            fallback: None,
            lasting: self.lasting,
            heals_after: self.heals_after,
            until: self.until,
            either_way: false,
            ruling: self.ruling.clone(),
        }
    }
}

/// A roll table: an expression to roll and rows keyed by totals.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TableDef {
    pub id: String,
    pub name: String,
    /// The dice expression rolled on it (`d6`, `2d6`); left out only with
    /// `fill_in`, where the text does not say.
    #[serde(default)]
    pub roll: String,
    /// Modifiers a player may apply to the roll (`-2 Injury roll`).
    #[serde(default)]
    pub modifiers: Vec<TableModifier>,
    #[serde(default)]
    pub rows: Vec<TableRowDef>,
    #[serde(default)]
    pub source: String,
    /// The ruling of a table the text refers to but does not print: it has
    /// no rows until the group's house rules give them.
    #[serde(default)]
    pub fill_in: Option<String>,
}

impl TableDef {
    /// The ruling that leaves the table to the group, while it has no rows.
    pub fn unfilled(&self) -> Option<&str> {
        self.rows
            .is_empty()
            .then_some(self.fill_in.as_deref())
            .flatten()
    }
}

/// A named modifier to a table's roll.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TableModifier {
    pub id: String,
    pub label: String,
    pub amount: i64,
    /// A stat or counter of the fighter (its id): the modifier is `amount`
    /// once per point of it, applied to every roll on the table for a
    /// fighter, rolled by the app or entered by hand ("−1 per point of
    /// Chill"). Without it, a modifier is applied when a player names it.
    #[serde(default)]
    pub per: Option<String>,
    #[serde(default)]
    pub source: String,
}

/// A modifier a roll takes from its fighter: `amount` for their `points`
/// of the stat or counter `label`, or from what their side holds (a
/// holding `label`, no points).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FighterModifier {
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<i64>,
    pub amount: i64,
}

impl FighterModifier {
    /// ` − 1 (Chill 1)`, ` + 1 (The Sluice)`, as a roll line shows it
    /// after the dice.
    pub fn shown(&self) -> String {
        let sign = if self.amount < 0 { '−' } else { '+' };
        let of = match self.points {
            Some(points) => format!("{} {points}", self.label),
            None => self.label.clone(),
        };
        format!(" {sign} {} ({of})", self.amount.unsigned_abs())
    }

    /// What holding `holdings` (the side's, by id) adds to a roll on
    /// `table`: one modifier a holding that gives one.
    pub fn from_holdings<'a>(
        pack: &super::Pack,
        table: &str,
        holdings: impl IntoIterator<Item = &'a str>,
    ) -> Vec<FighterModifier> {
        holdings
            .into_iter()
            .filter_map(|id| pack.holding(id))
            .flat_map(|h| {
                h.modifiers
                    .iter()
                    .filter(|m| m.table == table && m.amount != 0)
                    .map(|m| FighterModifier {
                        label: h.name.clone(),
                        points: None,
                        amount: m.amount,
                    })
            })
            .collect()
    }

    /// Their sum, and how a roll line shows them.
    pub fn total(list: &[FighterModifier]) -> (i64, String) {
        let sum = list.iter().fold(0i64, |s, m| s.saturating_add(m.amount));
        (sum, list.iter().map(FighterModifier::shown).collect())
    }
}

/// One row of a roll table.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TableRowDef {
    /// The totals it covers: `4`, `2-5`, `6+` (that or more), `1-` (that or
    /// less).
    pub on: String,
    /// A short name (`Crippled`).
    #[serde(default)]
    pub name: String,
    /// The result as printed.
    pub result: String,
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// The row (its `on`) that applies instead when this one is not
    /// applicable (a stat already at its maximum…).
    #[serde(default)]
    pub fallback: Option<String>,
    /// True when what it does stays with the fighter (a lasting injury or
    /// an advancement); false for effects within one battle.
    #[serde(default)]
    pub lasting: bool,
    /// A lasting result that heals by itself after this many more records
    /// of the fighter's gang (a critical injury's healing time).
    #[serde(default)]
    pub heals_after: Option<u32>,
    /// A lasting result that ends when the cycle ends (`cycle`).
    #[serde(default)]
    pub until: Option<super::Until>,
    /// True when this row and its `fallback` fall back on each other
    /// ("either way round"): where neither applies, nothing changes.
    #[serde(default)]
    pub either_way: bool,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// What a table result, an epilogue or an action does, as data.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Change a gang resource.
    Resource { resource: String, amount: i64 },
    /// Change a scenario count (Control Points…).
    Count { count: String, amount: i64 },
    /// Change a fighter's stat for good.
    Stat { stat: String, amount: i64 },
    /// Change a fighter counter.
    Counter { counter: String, amount: i64 },
    /// Roll on another table.
    RollOn { table: String },
    /// Give the fighter a status (wounded, captured…).
    Status { status: String },
    /// The player picks one of these effects.
    Choice { options: Vec<Effect> },
    /// The fighter leaves the gang for good (`dead`).
    Leave { status: String },
    /// The fighter leaves the gang; the rival may hire them for a share of
    /// their value (rounding down).
    Desert { hire_percent: i64 },
    /// The rival gang holds the fighter: it may ransom them back, or pick
    /// another result of the table instead.
    Capture,
    /// Roll on the advancement table and apply the reverse; where that is
    /// not applicable, the row `fallback` of this table applies instead.
    Cripple { fallback: String },
    /// The fighter may not fight in the gang's next battle.
    MissNextBattle,
    /// The fighter is laid up, taking part in no record, until the cycle
    /// ends (`until = "cycle"`).
    LaidUp { until: super::Until },
    /// Roll on the advancement table.
    Advance,
    /// Raise one of these stats by `amount`, up to the stat's maximum (the
    /// player picks when there are several).
    StatChoice { stats: Vec<String>, amount: i64 },
    /// The fighter gains something the player names (a skill, a trait).
    Gain { what: String },
    /// The fighter gains this entry of the pack (by its id); a crippling
    /// takes it away.
    GainEntry { quirk: String },
    /// The fighter gains a quirk of the pack (of a category, or any).
    GainQuirk {
        #[serde(default)]
        category: Option<String>,
    },
    /// The fighter loses a quirk they have (of a category, or any); their
    /// gang picks which, and healing the lasting effect gives it back.
    LoseQuirk {
        #[serde(default)]
        category: Option<String>,
    },
    /// The gang gains a resource equal to a share of the fighter's value.
    ResourceFromValue { resource: String, percent: i64 },
    /// A modifier to this fighter's injury roll after the battle.
    InjuryModifier { amount: i64 },
    /// Roll on the same table twice more, rolling again any roll that
    /// totals `ignoring` (000: "Roll twice, ignoring 8s").
    RollTwice { ignoring: i64 },
    /// Nothing the app tracks: the text is the whole effect.
    Note { text: String },
}

/// A stage of an arc (First Blood, Score to Settle…).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ArcStageDef {
    pub id: String,
    pub name: String,
    /// Stages with the same step are alternatives at that point of an arc.
    pub step: u32,
    /// Of alternatives, this one comes next only when the winner of the
    /// arc's last skirmish also won the one before it (`true`), or only
    /// when the two were won by different gangs (`false`).
    #[serde(default)]
    pub when_winner_repeats: Option<bool>,
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub source: String,
    /// The ruling that decided where the stage stands in an arc.
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A scenario with its roles, counts and epilogue.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScenarioDef {
    pub id: String,
    pub name: String,
    /// The arc stage it belongs to.
    pub stage: String,
    #[serde(default)]
    pub premise: String,
    /// The roles of the two gangs, when the scenario gives them.
    #[serde(default)]
    pub roles: Vec<RoleDef>,
    /// Numbers each gang records for the scenario (caches extracted…).
    #[serde(default)]
    pub counts: Vec<CountDef>,
    #[serde(default)]
    pub endgame: String,
    /// How the endgame names a winner by a count ("Once one gang has
    /// extracted 3 Caches, they win"): a winner short of it, whose rival
    /// did not leave early, is warned about.
    #[serde(default)]
    pub win_at: Option<WinAt>,
    pub epilogue: Vec<EpilogueRule>,
    #[serde(default)]
    pub source: String,
}

/// The count a gang reaches to win a scenario.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WinAt {
    /// The scenario count's id.
    pub count: String,
    pub at_least: i64,
    #[serde(default)]
    pub source: String,
}

/// A role in a scenario (Captors, Rescuers…).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RoleDef {
    pub id: String,
    pub label: String,
    /// Who takes the role, by the previous battle between the two gangs.
    #[serde(default)]
    pub from_previous: Option<PreviousResult>,
    #[serde(default)]
    pub source: String,
}

/// A gang's result in the previous battle.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PreviousResult {
    Winner,
    Loser,
}

/// A number a gang records in a scenario.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CountDef {
    pub id: String,
    pub label: String,
    /// The count is how many of the gang's fighters ended with one of
    /// these outcomes, read from the report: typed, it must agree.
    #[serde(default)]
    pub outcomes: Vec<String>,
    /// The most one gang can have.
    #[serde(default)]
    pub max: Option<i64>,
    /// The most both gangs together can have.
    #[serde(default)]
    pub total_max: Option<i64>,
    #[serde(default)]
    pub source: String,
}

/// One line of a scenario's epilogue.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EpilogueRule {
    /// Unique within the scenario; a player's choice names it.
    pub id: String,
    /// The line as printed.
    pub text: String,
    /// Who it applies to: `winner`, `loser`, `each`, `ran_for_it`,
    /// `most:<count>`, `fewest:<count>` (no one on a tie) or
    /// `role:<role>`. A count is the scenario's, or `outcome:<id>` (how
    /// many of the gang's fighters ended with that outcome; several ids
    /// separated by commas).
    pub to: String,
    /// Applies only when the gang with this role won.
    #[serde(default)]
    pub when_winner: Option<String>,
    /// Fixed changes (a negative amount is a loss).
    #[serde(default)]
    pub gain: Vec<Amount>,
    /// Multiply `gain` by this count of the gang's (a scenario count, or
    /// `outcome:<id>`: 1 per fighter of the gang with that outcome).
    #[serde(default)]
    pub per: Option<String>,
    /// The player picks one of these.
    #[serde(default)]
    pub choice: Vec<Amount>,
    /// The player may also pick none.
    #[serde(default)]
    pub optional: bool,
    /// The gain and the choice are taken from the rival gang.
    #[serde(default)]
    pub from_rival: bool,
    /// The side the gain and the choice are taken from, among more than
    /// two: `last` or `place:<n>` (`rival` is `from_rival`).
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// An amount of a resource.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Amount {
    pub resource: String,
    pub amount: i64,
}

/// How a battle's result is read.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ResultRules {
    /// The ruling shown when a battle has no winner (both gangs ran).
    #[serde(default)]
    pub no_winner_ruling: Option<String>,
    #[serde(default)]
    pub source: String,
}

/// Injury rolls after a battle.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct InjuryRules {
    /// The injury table's id.
    pub table: String,
    /// Fighters with one of these outcomes roll once each.
    pub roll_for: Vec<String>,
    /// The counter holding a fighter's value (for deserters' hire cost and
    /// bonuses equal to their value), if the system has one.
    #[serde(default)]
    pub value_counter: Option<String>,
    /// The resource a deserter is hired with.
    #[serde(default)]
    pub hire_resource: Option<String>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Advancement rolls after a battle.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AdvancementRules {
    /// The advancement table's id.
    pub table: String,
    /// One roll per full `per` of this resource gained in the battle…
    #[serde(default)]
    pub per_resource: Option<Amount>,
    /// …or this many rolls per gang per battle.
    #[serde(default)]
    pub per_battle: Option<usize>,
    /// …given only to the winner.
    #[serde(default)]
    pub winner_only: bool,
    /// Fighters with one of these outcomes may not advance.
    #[serde(default)]
    pub exclude_outcomes: Vec<String>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// How bounties work.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BountyRules {
    /// The fighter counter that holds a bounty.
    pub counter: String,
    /// The resource a claim pays, per point of bounty.
    pub claim_resource: String,
    pub claim_per_point: i64,
    /// How much one declaration raises a bounty (the counter's max caps it).
    pub declare_step: i64,
    /// Declarations each gang makes after a battle.
    pub declarations_per_gang: usize,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
    /// The ruling under which a gang records that it declares nothing;
    /// without one, every gang must declare.
    #[serde(default)]
    pub no_declaration_ruling: Option<String>,
}

/// A title held by the gang with the most (or the fewest) of a resource.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TitleDef {
    pub id: String,
    pub name: String,
    /// The resource compared; or, with `count`, left out.
    #[serde(default)]
    pub resource: String,
    /// A count compared instead of a resource: `fighters` (the fighters on
    /// a gang's roster) or `counter:<id>` (the points of a counter its
    /// fighters on the roster hold between them).
    #[serde(default)]
    pub count: Option<String>,
    /// Whether the most or the fewest of it holds the title.
    #[serde(default)]
    pub comparison: Comparison,
    /// Who holds it when the best are tied.
    #[serde(default)]
    pub ties: TieRule,
    /// Who holds it: a `gang`, or a `faction` measured over its gangs
    /// together.
    #[serde(default, skip_serializing_if = "super::TitleHolder::is_gang")]
    pub holder: super::TitleHolder,
    /// The ruling `ties` rests on, where the text does not say.
    #[serde(default)]
    pub ruling: Option<String>,
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub source: String,
}

impl TitleDef {
    /// The key its standings are read under: the resource's id, or the
    /// count as written (see [`TitleDef::count`]).
    pub fn measure(&self) -> &str {
        self.count.as_deref().unwrap_or(&self.resource)
    }
}

/// A count a title compares, as `count` writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TitleCount {
    /// The fighters on the gang's roster.
    Fighters,
    /// The points of this counter the gang's fighters hold.
    Counter(String),
    /// The holdings the gang holds.
    Holdings,
    /// First in the standings: 1 for the gang placed first alone, once
    /// some gang has scored.
    Standings,
}

impl TitleCount {
    pub fn parse(count: &str) -> Result<TitleCount, String> {
        match count.split_once(':') {
            None if count == "fighters" => Ok(TitleCount::Fighters),
            None if count == "holdings" => Ok(TitleCount::Holdings),
            None if count == "standings" => Ok(TitleCount::Standings),
            Some(("counter", id)) => Ok(TitleCount::Counter(id.to_owned())),
            _ => Err(format!(
                "`count = \"{count}\"`: expected fighters, counter:<id>, holdings or standings"
            )),
        }
    }
}

/// Which end of a comparison wins.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum Comparison {
    /// The most, above none (a gang with none never holds it).
    #[default]
    Most,
    /// The fewest, of every gang of the game.
    Fewest,
}

/// Who holds a title when the best are tied.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// The holder keeps it while tied for the best; otherwise no one.
    #[default]
    HolderKeeps,
    /// No one holds it while the best are tied.
    Nobody,
}

/// How titles are shared out.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TitleRules {
    /// A gang holds at most one title: one qualifying for more chooses, and
    /// the others pass to second place.
    pub one_per_gang: bool,
    /// A gang that holds one of the titles it qualifies for keeps it without
    /// choosing again, until it chooses another.
    #[serde(default)]
    pub keep_held: bool,
    #[serde(default)]
    pub source: String,
    /// Rulings for ties and for second place.
    #[serde(default)]
    pub rulings: Vec<String>,
}

/// A resource action a gang may take between battles.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    pub id: String,
    pub name: String,
    pub cost: Vec<Amount>,
    /// Take one of these from another gang.
    #[serde(default)]
    pub take_choice: Vec<Amount>,
    /// What it promises for the gang's next battle, kept until then.
    #[serde(default)]
    pub next_battle: Option<String>,
    /// Fighters the buyer marks in that battle, and what each gets.
    #[serde(default)]
    pub marks: Option<ActionMarks>,
    /// The arc stages (ids) the buyer chooses that battle's scenario from.
    #[serde(default)]
    pub scenario_stages: Vec<String>,
    pub text: String,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Fighters an action marks in the gang's next battle.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ActionMarks {
    /// How many fighters (all of them, when the gang fields fewer).
    pub fighters: usize,
    /// What each marked fighter gets, as the text says it.
    pub mark: String,
}

/// A decision the pack makes where the rule text is silent or contradicts
/// itself. Shown to players labelled as a ruling.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Ruling {
    pub id: String,
    /// What the question is.
    pub question: String,
    /// What this pack decided.
    pub ruling: String,
    /// The other readings, kept visible.
    #[serde(default)]
    pub alternatives: Vec<String>,
    #[serde(default)]
    pub source: String,
}

/// Who an epilogue line applies to, parsed from its `to`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recipient {
    Winner,
    Loser,
    Each,
    RanForIt,
    /// The gang with the most of a count (no one on a tie).
    Most(String),
    /// The gang with the fewest of a count (no one on a tie).
    Fewest(String),
    /// The gang with a role.
    Role(String),
    /// The side placed so (`place:<n>`, `last`).
    Placed(super::PlacedSide),
}

impl EpilogueRule {
    pub fn recipient(&self) -> Result<Recipient, String> {
        match self.to.as_str() {
            "winner" => Ok(Recipient::Winner),
            "loser" => Ok(Recipient::Loser),
            "each" => Ok(Recipient::Each),
            "ran_for_it" => Ok(Recipient::RanForIt),
            other => match (other.split_once(':'), super::PlacedSide::parse(other)) {
                (_, Some(placed)) => Ok(Recipient::Placed(placed)),
                (Some(("most", count)), _) => Ok(Recipient::Most(count.to_owned())),
                (Some(("fewest", count)), _) => Ok(Recipient::Fewest(count.to_owned())),
                (Some(("role", role)), _) => Ok(Recipient::Role(role.to_owned())),
                _ => Err(format!(
                    "`to = \"{other}\"`: expected winner, loser, each, ran_for_it, most:<count>, fewest:<count>, role:<role>, place:<n> or last"
                )),
            },
        }
    }
}

/// The outcomes a count of fighters by outcome names (`outcome:a,b`), or
/// `None` for a count of the scenario's.
pub fn outcome_count(count: &str) -> Option<Vec<&str>> {
    count
        .strip_prefix("outcome:")
        .map(|ids| ids.split(',').map(str::trim).collect())
}

/// Who upkeep applies to.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum UpkeepScope {
    /// Every gang of the pack's game in the campaign.
    #[default]
    Campaign,
    /// Every gang taking part in the record.
    Record,
}

/// A change made to gangs at the start of every record.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Upkeep {
    /// Unique among the pack's upkeep lines.
    pub id: String,
    /// The line as printed.
    pub text: String,
    #[serde(default)]
    pub to: UpkeepScope,
    /// The resources it changes (a negative amount is a loss).
    pub gain: Vec<Amount>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// The totals a table row covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowRange {
    /// `None`: no lower end (`3-` is 3 or less).
    pub low: Option<i64>,
    /// `None`: no upper end (`6+` is 6 or more).
    pub high: Option<i64>,
}

impl RowRange {
    pub fn parse(on: &str) -> Result<Self, String> {
        let on = on.trim();
        let number = |s: &str| {
            s.trim()
                .parse::<i64>()
                .map_err(|_| format!("`{on}` is not a total, a range (2-5), `6+` or `3-`"))
        };
        if let Some(low) = on.strip_suffix('+') {
            return Ok(Self {
                low: Some(number(low)?),
                high: None,
            });
        }
        if let Some(high) = on.strip_suffix('-') {
            return Ok(Self {
                low: None,
                high: Some(number(high)?),
            });
        }
        if let Some((a, b)) = on.split_once('-') {
            let (low, high) = (number(a)?, number(b)?);
            if low > high {
                return Err(format!("`{on}` runs backwards"));
            }
            return Ok(Self {
                low: Some(low),
                high: Some(high),
            });
        }
        let n = number(on)?;
        Ok(Self {
            low: Some(n),
            high: Some(n),
        })
    }

    pub fn contains(&self, total: i64) -> bool {
        self.low.is_none_or(|l| total >= l) && self.high.is_none_or(|h| total <= h)
    }

    /// Whether a number lands on a row's `on`, as written (never, where
    /// it does not read).
    pub fn covers(on: &str, n: i64) -> bool {
        RowRange::parse(on).is_ok_and(|range| range.contains(n))
    }

    pub(crate) fn overlaps(&self, other: &RowRange) -> bool {
        let low = self
            .low
            .unwrap_or(i64::MIN)
            .max(other.low.unwrap_or(i64::MIN));
        let high = self
            .high
            .unwrap_or(i64::MAX)
            .min(other.high.unwrap_or(i64::MAX));
        low <= high
    }
}

impl TableDef {
    /// The row a total lands on.
    pub fn lookup(&self, total: i64) -> Option<&TableRowDef> {
        self.rows.iter().find(|r| RowRange::covers(&r.on, total))
    }

    /// The row for a roll's natural total with the named modifiers applied.
    /// Returns the modified total and its row.
    pub fn lookup_with(
        &self,
        natural: i64,
        modifiers: &[String],
    ) -> Result<(i64, Option<&TableRowDef>), String> {
        let total = self.total_with(natural, modifiers)?;
        Ok((total, self.lookup(total)))
    }

    /// A roll's natural total with the named modifiers applied.
    pub fn total_with(&self, natural: i64, modifiers: &[String]) -> Result<i64, String> {
        let mut total = natural;
        for id in modifiers {
            let m = self
                .modifiers
                .iter()
                .find(|m| m.id == *id || m.label.eq_ignore_ascii_case(id))
                .ok_or_else(|| {
                    let known: Vec<&str> = self.modifiers.iter().map(|m| m.id.as_str()).collect();
                    format!(
                        "{} has no modifier “{id}” ({})",
                        self.name,
                        if known.is_empty() {
                            "it has none".to_owned()
                        } else {
                            known.join(", ")
                        }
                    )
                })?;
            // Saturating: a total held at the end of i64 lands on the same
            // open-ended row (`6+`, `1-`) as the true sum would.
            total = total.saturating_add(m.amount);
        }
        Ok(total)
    }

    /// The modifiers that come from the fighter a roll is for (`per` a
    /// stat or counter): `points` gives what the fighter has of an id.
    /// Those that come to nothing are left out.
    pub fn from_fighter(
        &self,
        pack: &super::Pack,
        points: impl Fn(&str) -> Option<i64>,
    ) -> Vec<FighterModifier> {
        self.modifiers
            .iter()
            .filter_map(|m| {
                let per = m.per.as_deref()?;
                let label = match (pack.stat(per), pack.counter(per)) {
                    (Some(stat), _) => stat.title().to_owned(),
                    (None, Some(counter)) => counter.label.clone(),
                    (None, None) => per.to_owned(),
                };
                let points = points(per).unwrap_or(0);
                let amount = m.amount.saturating_mul(points);
                (amount != 0).then_some(FighterModifier {
                    label,
                    points: Some(points),
                    amount,
                })
            })
            .collect()
    }

    /// Checks that rows parse and do not overlap, and that every total from
    /// `min` to `max` lands on a row.
    pub fn check_rows(&self, min: i64, max: i64) -> Result<(), String> {
        let ranges = self
            .rows
            .iter()
            .map(|r| RowRange::parse(&r.on))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, a) in ranges.iter().enumerate() {
            for (b_row, b) in self.rows.iter().zip(&ranges).skip(i + 1) {
                if a.overlaps(b) {
                    return Err(format!(
                        "rows `{}` and `{}` overlap",
                        self.rows[i].on, b_row.on
                    ));
                }
            }
        }
        // The first total on no row is `min` or just above some row's end;
        // looking only there keeps a wide range (big modifiers) quick.
        let gap = std::iter::once(min)
            .chain(ranges.iter().filter_map(|r| r.high?.checked_add(1)))
            .filter(|t| (min..=max).contains(t) && !ranges.iter().any(|r| r.contains(*t)))
            .min();
        if let Some(gap) = gap {
            return Err(format!("a roll of {gap} lands on no row"));
        }
        Ok(())
    }
}
