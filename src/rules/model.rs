//! The ruleset pack model: what a TOML pack file says, as serde types.
//!
//! Pure data. Validation lives in `validate.rs`, loading and overrides in
//! `mod.rs`. Rust knows *kinds* of things here (a stat, a quirk, a
//! constraint); every number and name comes from the pack.

use serde::{Deserialize, Serialize};

/// The pack format this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// A whole ruleset pack (after any override has been applied).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
}

/// The `[pack]` header.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatDef {
    pub id: String,
    /// Short label for tables and cards (`LIMIT`).
    pub label: String,
    /// Full name (`Action Limit`).
    #[serde(default)]
    pub name: String,
    pub default: i64,
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    /// Unit shown after the value, e.g. `"` for inches.
    #[serde(default)]
    pub unit: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub source: String,
}

/// A gang resource (Supply, Territory…).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ResourceDef {
    pub id: String,
    pub label: String,
    #[serde(default)]
    pub start: i64,
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub source: String,
}

/// A per-fighter counter with bounds (Bounty 0..5).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CounterDef {
    pub id: String,
    pub label: String,
    #[serde(default)]
    pub default: i64,
    pub min: i64,
    pub max: i64,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub source: String,
}

/// A group of quirks in the catalog (Weapons, Gear, Abilities).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CategoryDef {
    pub id: String,
    pub label: String,
}

/// A keyword a quirk can carry with a value (`Knockback X`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QuirkDef {
    pub id: String,
    pub name: String,
    pub category: String,
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
}

/// A keyword on a quirk with its value (`knockback`, `3`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KeywordUse {
    pub keyword: String,
    /// The X, as printed: `3`, `D3`.
    pub x: String,
}

/// A named rule or action on a quirk (`Deflect: …`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QuirkRule {
    pub name: String,
    pub text: String,
    /// True when the rule is an action the fighter gains.
    #[serde(default)]
    pub action: bool,
}

/// A change a quirk makes to one stat.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatEffect {
    pub stat: String,
    pub add: i64,
}

/// A rule the engine checks on a fighter or a gang.
///
/// Read through [`RawConstraint`] so that a misspelt field is refused (serde
/// cannot deny unknown fields beside a flattened enum).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
    #[serde(flatten)]
    pub rule: ConstraintKind,
}

/// The kinds of constraint the engine knows how to evaluate.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
}

/// A constraint as written in the file: every field any kind uses.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConstraint {
    id: String,
    message: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    ruling: Option<String>,
    kind: String,
    tag: Option<String>,
    max: Option<usize>,
    quirk: Option<String>,
    any_of: Option<Vec<String>>,
    allowed: Option<Vec<usize>>,
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
        let used: &[&str] = match raw.kind.as_str() {
            "max_tagged" => &["tag", "max"],
            "forbids_tagged" => &["quirk", "tag"],
            "requires_any" => &["quirk", "any_of"],
            "gang_count" => &["quirk", "allowed"],
            other => {
                return Err(format!(
                    "constraint `{id}`: unknown kind `{other}` (expected max_tagged, forbids_tagged, requires_any or gang_count)"
                ));
            }
        };
        let present = [
            ("tag", raw.tag.is_some()),
            ("max", raw.max.is_some()),
            ("quirk", raw.quirk.is_some()),
            ("any_of", raw.any_of.is_some()),
            ("allowed", raw.allowed.is_some()),
        ];
        for (field, is_set) in present {
            if is_set && !used.contains(&field) {
                return Err(extra(field));
            }
        }
        let rule = match raw.kind.as_str() {
            "max_tagged" => ConstraintKind::MaxTagged {
                tag: raw.tag.ok_or_else(|| need("tag"))?,
                max: raw.max.ok_or_else(|| need("max"))?,
            },
            "forbids_tagged" => ConstraintKind::ForbidsTagged {
                quirk: raw.quirk.ok_or_else(|| need("quirk"))?,
                tag: raw.tag.ok_or_else(|| need("tag"))?,
            },
            "requires_any" => ConstraintKind::RequiresAny {
                quirk: raw.quirk.ok_or_else(|| need("quirk"))?,
                any_of: raw.any_of.ok_or_else(|| need("any_of"))?,
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
            rule,
        })
    }
}

/// How a starting gang is recruited.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Recruiting {
    pub leaders: usize,
    pub recruits: usize,
    pub quirks_per_fighter: usize,
    #[serde(default)]
    pub leader_extra_quirks: usize,
    /// Each fighter's quirks must all be different.
    #[serde(default)]
    pub distinct_quirks: bool,
    #[serde(default)]
    pub source: String,
}

/// A decision the pack makes where the rule text is silent or contradicts
/// itself. Shown to players labelled as a ruling.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
