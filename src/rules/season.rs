//! The shapes of a campaign season, as pack kinds: named holdings won and
//! lost, cycles whose end runs for every gang, records of two to four
//! sides with places, standings, and factions.
//!
//! Pure data, as `model.rs`; what the procedure does with them lives in
//! `campaign::season` and `campaign::battle`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Amount, CountRange};

/// Something a rule gives a side: an amount of a resource to the side,
/// or points of a counter to its members (those `to` and `who` take, as
/// an award's).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Reward {
    /// A resource the side gains…
    #[serde(default)]
    pub resource: Option<String>,
    /// …or a counter its members gain.
    #[serde(default)]
    pub counter: Option<String>,
    pub amount: i64,
    /// With `counter`: for what, as an award's `to` (`took_part`,
    /// `standing`, `side`…); left out, `took_part` in a record and
    /// `side` at a cycle's end.
    #[serde(default)]
    pub to: Option<String>,
    /// With `counter`: only these members (see [`super::Members`]).
    #[serde(default)]
    pub who: Option<String>,
}

impl Reward {
    /// The reward as a resource amount, where it is one.
    pub fn as_amount(&self) -> Option<Amount> {
        self.resource.as_ref().map(|resource| Amount {
            resource: resource.clone(),
            amount: self.amount,
        })
    }
}

/// A named holding (`[[holdings]]`): turf, a territory, an estate. Held by
/// at most one gang, or unclaimed.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HoldingDef {
    pub id: String,
    pub name: String,
    /// What it is, as printed.
    #[serde(default)]
    pub text: String,
    /// True when a gang may choose it as its starting holding when it is
    /// founded (while no gang holds it).
    #[serde(default)]
    pub starting: bool,
    /// What it gives its holder at a cycle's end (the cycle's `income`
    /// step).
    #[serde(default)]
    pub income: Vec<Reward>,
    /// A table its holder rolls on at a cycle's end, whose row's
    /// resources it gains.
    #[serde(default)]
    pub income_roll: Option<String>,
    /// What holding it adds to its holder's rolls on a table.
    #[serde(default)]
    pub modifiers: Vec<HoldingModifier>,
    /// What only its holder may recruit: `entry:<id>` (a member with the
    /// entry, or the entry bought) or `group:<id>` (a group of the kind).
    #[serde(default)]
    pub unlocks: Vec<String>,
    /// What its holder gains in every record it takes part in.
    #[serde(default)]
    pub per_record: Vec<Reward>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A modifier a holding gives its holder's rolls on one table.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HoldingModifier {
    pub table: String,
    pub amount: i64,
}

/// What a holding unlocks, parsed from its `unlocks`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unlock {
    Entry(String),
    Group(String),
}

impl Unlock {
    pub fn parse(text: &str) -> Result<Unlock, String> {
        match text.split_once(':') {
            Some(("entry", id)) => Ok(Unlock::Entry(id.to_owned())),
            Some(("group", id)) => Ok(Unlock::Group(id.to_owned())),
            _ => Err(format!("`{text}`: expected entry:<id> or group:<id>")),
        }
    }
}

impl HoldingDef {
    /// Whether holding it is what recruiting this does: an entry by id,
    /// or a group of a kind.
    pub fn unlocks(&self, unlock: &Unlock) -> bool {
        self.unlocks
            .iter()
            .any(|u| Unlock::parse(u).as_ref() == Ok(unlock))
    }
}

/// How a campaign is divided into cycles (`[cycles]`): weeks, quarters,
/// phases, as the pack's `[words] cycle` calls them.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CycleRules {
    /// How many records a gang plays in one cycle at the most; a record
    /// past it is refused.
    #[serde(default)]
    pub limit: Option<u32>,
    /// When a cycle ends: when every gang has played `limit` records (at
    /// the end of the record that completes it), or when a player ends
    /// it.
    pub ends: CycleEnds,
    /// What a record played in a cycle that has ended since (made on a
    /// laptop that had not heard) counts as: in the cycle it is taken in
    /// (`next`), or refused.
    #[serde(default)]
    pub late: Late,
    /// What ending a cycle does, step by step in this order, for every
    /// gang of the game.
    #[serde(default)]
    pub end: Vec<CycleStep>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// When a cycle ends.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CycleEnds {
    /// When every gang has played its `limit`.
    Played,
    /// When a player ends it.
    ByHand,
}

/// What a record from a cycle that has ended counts as.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Late {
    /// It counts in the cycle it is taken in.
    #[default]
    Next,
    /// It is refused.
    Refused,
}

/// One step of a cycle's end.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CycleStep {
    /// Unique among the steps; dice typed for a roll of it name it.
    pub id: String,
    /// The line as printed.
    pub text: String,
    pub kind: CycleStepKind,
    /// `decay`: the resource that decays.
    #[serde(default)]
    pub resource: Option<String>,
    /// `decay`: how much it changes (a loss is negative).
    #[serde(default)]
    pub amount: Option<i64>,
    /// `decay`: the least it decays to.
    #[serde(default)]
    pub floor: Option<i64>,
    /// `gain`: what every gang gains.
    #[serde(default)]
    pub rewards: Vec<Reward>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// What a step of a cycle's end does.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CycleStepKind {
    /// Each holding pays its holder (its `income`, its `income_roll`).
    Income,
    /// A resource of every gang changes by `amount`, not past `floor`.
    Decay,
    /// Every gang gains `rewards`.
    Gain,
    /// Members laid up until the cycle ends come back.
    Returns,
    /// Lasting effects that last until the cycle ends end.
    Effects,
}

/// How long something lasts, where it is not for good.
#[derive(
    Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// Until the cycle ends.
    Cycle,
}

impl Until {
    /// The word it is written and stored as.
    pub fn word(self) -> &'static str {
        match self {
            Until::Cycle => "cycle",
        }
    }

    /// Read from its word.
    pub fn from_word(word: &str) -> Option<Until> {
        (word == "cycle").then_some(Until::Cycle)
    }
}

/// A shape of record (`[[record.shapes]]`): how many sides, and how they
/// finish — placed first to last, or a challenger and a defender with a
/// win, a draw or a loss.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ShapeDef {
    pub id: String,
    /// What a record of it is called (`Challenge`, `Brawl`).
    pub label: String,
    /// How many sides.
    pub sides: CountRange,
    pub result: ShapeResult,
    /// True when sides may share a place (a draw).
    #[serde(default)]
    pub draws: bool,
    /// Who takes the holding at stake, if the record has one.
    #[serde(default)]
    pub stake: Option<StakeRule>,
    /// Which holdings may be at stake: held by the `defender`, by one of
    /// the `sides`, `unclaimed`, or held by `anyone`. Left out, any.
    #[serde(default)]
    pub stake_from: Vec<StakeFrom>,
    /// What each finish gives.
    #[serde(default)]
    pub places: Vec<PlaceReward>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// How the sides of a shape finish.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ShapeResult {
    /// Placed first to last.
    Placed,
    /// A challenger and a defender: a win, a draw or a loss.
    Challenge,
}

/// Who takes the holding at stake.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum StakeRule {
    /// The side placed first (alone) takes it from whoever held it.
    First,
    /// The challenger takes it by winning; a draw or the defender's win
    /// leaves it where it was.
    Challenger,
}

/// Where a holding at stake may be.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum StakeFrom {
    /// Held by the defender.
    Defender,
    /// Held by one of the sides.
    Sides,
    /// Held by no gang.
    Unclaimed,
    /// Held by any gang.
    Anyone,
}

/// What one finish gives a side (`[[record.shapes.places]]`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlaceReward {
    /// Which finish: `win` (first, alone), `draw` (first, shared),
    /// `loss` (not first), a place (`1`, `2`…) or `last`.
    pub finish: String,
    /// Only the `challenger` or the `defender` (a challenge).
    #[serde(default)]
    pub side: Option<ChallengeSide>,
    /// The line as printed.
    pub text: String,
    pub rewards: Vec<Reward>,
    #[serde(default)]
    pub source: String,
}

/// A side of a challenge.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeSide {
    Challenger,
    Defender,
}

/// A finish, parsed from a place row's `finish`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    Win,
    Draw,
    Loss,
    Place(u32),
    Last,
}

impl Finish {
    pub fn parse(text: &str) -> Result<Finish, String> {
        match text {
            "win" => Ok(Finish::Win),
            "draw" => Ok(Finish::Draw),
            "loss" => Ok(Finish::Loss),
            "last" => Ok(Finish::Last),
            n => n
                .parse::<u32>()
                .ok()
                .filter(|n| *n >= 1)
                .map(Finish::Place)
                .ok_or_else(|| {
                    format!("`{text}`: expected win, draw, loss, last or a place (1, 2…)")
                }),
        }
    }

    /// Whether a side placed `place`, `shared` with another, finished so
    /// in a record whose lowest place is `last`.
    pub fn is(self, place: u32, shared: bool, last: u32) -> bool {
        match self {
            Finish::Win => place == 1 && !shared,
            Finish::Draw => place == 1 && shared,
            Finish::Loss => place > 1,
            Finish::Place(n) => place == n,
            Finish::Last => place > 1 && place == last,
        }
    }
}

/// How the gangs are ranked (`[standings]`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StandingsDef {
    /// What the table is called (`League table`).
    pub label: String,
    /// The measures, in order: the first ranks, each after it breaks the
    /// ties left: `resource:<id>`, `counter:<id>` (the points of the
    /// gang's members on its roster), `holdings` (held now), `records`
    /// (played), `wins` (records won or placed first alone) or
    /// `head_to_head` (of two still level, the one placed ahead of the
    /// other in more of the records both played). Each ranks the most
    /// first, or the fewest with `fewest:` before it.
    pub by: Vec<String>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A measure the standings rank by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StandingMeasure {
    Resource(String),
    Counter(String),
    Holdings,
    Records,
    Wins,
    HeadToHead,
}

/// One of `[standings] by`, with its direction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranked {
    pub measure: StandingMeasure,
    pub fewest: bool,
}

impl Ranked {
    pub fn parse(text: &str) -> Result<Ranked, String> {
        let (fewest, rest) = match text.strip_prefix("fewest:") {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let measure = match rest.split_once(':') {
            None if rest == "holdings" => StandingMeasure::Holdings,
            None if rest == "records" => StandingMeasure::Records,
            None if rest == "wins" => StandingMeasure::Wins,
            None if rest == "head_to_head" && !fewest => StandingMeasure::HeadToHead,
            Some(("resource", id)) => StandingMeasure::Resource(id.to_owned()),
            Some(("counter", id)) => StandingMeasure::Counter(id.to_owned()),
            _ => {
                return Err(format!(
                    "`{text}`: expected resource:<id>, counter:<id>, holdings, records, wins or head_to_head, each but the last may follow `fewest:`"
                ));
            }
        };
        Ok(Ranked { measure, fewest })
    }
}

/// A faction (`[[factions]]`): every gang of a pack with factions belongs
/// to one, chosen when it is founded.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FactionDef {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub source: String,
}

/// Who holds a title.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TitleHolder {
    /// A gang.
    #[default]
    Gang,
    /// A faction, measured over its gangs together.
    Faction,
}

impl TitleHolder {
    pub fn is_gang(&self) -> bool {
        *self == TitleHolder::Gang
    }
}

/// How a gang challenges another between records (`[challenges]`): the
/// shape of record a challenge is played as, what may be at stake, and
/// what a decline, or a challenge unplayed at the cycle's end, gives.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRules {
    /// What one is called (`Challenge`, `Call-out`).
    pub label: String,
    /// The `[[record.shapes]]` id a challenge is played as: a shape whose
    /// `result` is `challenge`.
    pub shape: String,
    /// Whether a challenge names a holding at stake: `required`,
    /// `optional` or `none`. Which holdings may be is the shape's
    /// `stake_from`. Left out: `optional` where the shape has a `stake`,
    /// `none` where it has none.
    #[serde(default)]
    pub stake: Option<ChallengeStake>,
    /// What declining gives: the stake to the challenger
    /// (`stake_to_challenger`), `nothing`, or nothing once a cycle, a
    /// second decline in the same cycle being refused (`once_a_cycle`).
    pub decline: Decline,
    /// What a challenge still unanswered at the cycle's end does: it
    /// `lapses`, giving nothing, or counts as `declined` (what `decline`
    /// gives).
    #[serde(default)]
    pub unanswered: Unanswered,
    /// What a challenge accepted and not played by the cycle's end does:
    /// it `lapses`, giving nothing, or its stake goes to the challenger
    /// (`stake_to_challenger`).
    #[serde(default)]
    pub unplayed: Unplayed,
    /// How many challenges a gang may issue in one cycle; left out, any.
    #[serde(default)]
    pub per_cycle: Option<u32>,
    /// What a challenge is, as printed.
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Whether a challenge names a holding at stake.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStake {
    /// Every challenge names one.
    Required,
    /// A challenge may name one.
    Optional,
    /// None does.
    None,
}

/// What declining a challenge gives.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Decline {
    /// The holding at stake goes to the challenger.
    StakeToChallenger,
    /// Nothing.
    Nothing,
    /// Nothing, once a cycle: a gang's second decline in one cycle is
    /// refused.
    OnceACycle,
}

/// What a challenge unanswered at the cycle's end does.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Unanswered {
    /// It lapses, giving nothing.
    #[default]
    Lapses,
    /// It counts as declined: what a decline gives.
    Declined,
}

/// What a challenge accepted and unplayed at the cycle's end does.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Unplayed {
    /// It lapses, giving nothing.
    #[default]
    Lapses,
    /// Its stake goes to the challenger.
    StakeToChallenger,
}

impl ChallengeRules {
    /// Whether a challenge names a stake, as the pack says or its shape
    /// implies.
    pub fn stake_rule(&self, shape: Option<&ShapeDef>) -> ChallengeStake {
        self.stake.unwrap_or(match shape.and_then(|s| s.stake) {
            Some(_) => ChallengeStake::Optional,
            None => ChallengeStake::None,
        })
    }
}

/// Who plays whom in a cycle (`[pairings]`): made once a cycle, by
/// whoever runs the campaign, in one of the ways the pack allows.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PairingRules {
    /// What a cycle's pairings are called (`Fixtures`, `Match-ups`).
    pub label: String,
    /// The ways they may be made, the first the one used when none is
    /// asked for: `round_robin` (every gang meets every other once over
    /// the season), `standings` (down the standings, each gang against
    /// the nearest below it that it has not yet met) or `random` (drawn
    /// from a seed). With an odd number of gangs one sits out, a gang
    /// that has sat out the fewest cycles.
    pub by: Vec<PairingMethod>,
    /// What the pairings are, as printed.
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A way the pairings of a cycle are made.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum PairingMethod {
    RoundRobin,
    Standings,
    Random,
}

impl PairingMethod {
    /// The word it is written as.
    pub fn word(self) -> &'static str {
        match self {
            PairingMethod::RoundRobin => "round_robin",
            PairingMethod::Standings => "standings",
            PairingMethod::Random => "random",
        }
    }

    /// Read from its word, or as a player types it (`round-robin`).
    pub fn from_word(word: &str) -> Option<PairingMethod> {
        match word.trim().to_lowercase().replace('-', "_").as_str() {
            "round_robin" => Some(PairingMethod::RoundRobin),
            "standings" => Some(PairingMethod::Standings),
            "random" => Some(PairingMethod::Random),
            _ => None,
        }
    }
}

/// Which side a rule takes from or gives to, among the sides of a record
/// (an epilogue's `to` and `from`): `place:<n>` or `last`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlacedSide {
    Place(u32),
    Last,
}

impl PlacedSide {
    /// `place:<n>` or `last`; `None` for any other word.
    pub fn parse(text: &str) -> Option<PlacedSide> {
        match text.split_once(':') {
            None if text == "last" => Some(PlacedSide::Last),
            Some(("place", n)) => n
                .parse::<u32>()
                .ok()
                .filter(|n| *n >= 1)
                .map(PlacedSide::Place),
            _ => None,
        }
    }
}

/// The difference a `[[record.differences]]` line measures a side by
/// among more than two: to the farthest side (the highest, for the lower
/// side) or the nearest one beyond it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Against {
    Farthest,
    Nearest,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finish_reads_as_written() {
        assert_eq!(Finish::parse("win"), Ok(Finish::Win));
        assert_eq!(Finish::parse("3"), Ok(Finish::Place(3)));
        assert!(Finish::parse("0").is_err());
        assert!(Finish::parse("first").is_err());
        // Two sides: the winner is first alone, the other second and last.
        assert!(Finish::Win.is(1, false, 2));
        assert!(Finish::Last.is(2, false, 2));
        assert!(Finish::Loss.is(2, false, 2));
        // A draw: both first, shared; neither last.
        assert!(Finish::Draw.is(1, true, 1));
        assert!(!Finish::Last.is(1, true, 1));
        // Three sides, two sharing second: both are last.
        assert!(Finish::Last.is(2, true, 2));
        assert!(Finish::Last.is(4, false, 4));
    }

    #[test]
    fn a_standing_measure_reads_with_its_direction() {
        assert_eq!(
            Ranked::parse("fewest:records"),
            Ok(Ranked {
                measure: StandingMeasure::Records,
                fewest: true
            })
        );
        assert!(Ranked::parse("fewest:head_to_head").is_err());
        assert!(Ranked::parse("glory").is_err());
    }
}
