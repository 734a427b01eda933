//! Bundles: one gang, or every gang of a campaign, as one versioned JSON
//! file that moves between laptops (`docs/bundle.md`): each gang with its
//! fighters, their entries, stats, counters, lasting effects and photos,
//! and the group's own packs they play. A bundle is untrusted input: it is
//! read within a size limit, every field checked, the field at fault named.
//! Pure: bytes in, a bundle or the events of its import out.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{EffectId, Event, Fighter, FighterId, Gang, GangId, LastingEffect, QuirkPick};
use crate::rules::Pack;

/// The bundle format this build writes and reads.
pub const BUNDLE_FORMAT: u32 = 1;

/// The largest bundle read: photos travel inside it.
pub const MAX_BUNDLE_BYTES: usize = 64 * 1024 * 1024;

use super::photo::MAX_PHOTO_BYTES;

/// The most gangs a bundle may carry: far more than any campaign plays.
pub const MAX_BUNDLE_GANGS: usize = 1000;

/// The most fighters one gang of a bundle may carry: far more than any
/// gang fields. Bringing a gang in costs in step with its fighters
/// (`benches/bundle.rs` measures a gang at this limit).
pub const MAX_BUNDLE_FIGHTERS: usize = 10_000;

/// A bundle file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    /// Always `rapsheet-bundle`: what the file is.
    pub kind: String,
    /// The bundle format, [`BUNDLE_FORMAT`].
    pub format: u32,
    /// The campaign it came from.
    pub campaign: String,
    /// The group's own packs the gangs play (house rules), as text.
    #[serde(default)]
    pub packs: Vec<BundlePack>,
    #[serde(deserialize_with = "at_most_gangs")]
    pub gangs: Vec<BundleGang>,
    /// A whole campaign's bundle also carries its log and every photo, so
    /// it can be made again as it was, history and all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<BundleLog>,
}

/// A campaign's log and photos, in a whole campaign's bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleLog {
    pub batches: Vec<BundleBatch>,
    #[serde(default)]
    pub photos: Vec<BundlePhoto>,
}

/// One batch of the log: its id, time, label, the batch it takes back and
/// its events, each as the campaign file stores it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleBatch {
    pub id: i64,
    pub at: String,
    pub label: String,
    #[serde(default)]
    pub undoes: Option<i64>,
    pub events: Vec<serde_json::Value>,
}

/// A stored photo: its key, type and bytes (base64).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundlePhoto {
    pub key: String,
    pub data: String,
}

impl BundleLog {
    /// The log as events, each checked; the field at fault named.
    pub fn batches(&self) -> Result<Vec<super::LoggedBatch>, BundleError> {
        let mut out = Vec::new();
        for (i, b) in self.batches.iter().enumerate() {
            let mut events = Vec::new();
            for (j, e) in b.events.iter().enumerate() {
                let event = super::wire::decode(&e.to_string()).map_err(|err| BundleError {
                    field: format!("log.batches[{i}].events[{j}]"),
                    reason: err.to_string(),
                })?;
                events.push(event);
            }
            out.push(super::LoggedBatch {
                id: super::BatchId(b.id),
                at: b.at.clone(),
                label: b.label.clone(),
                undoes: b.undoes.map(super::BatchId),
                events,
            });
        }
        Ok(out)
    }

    /// The photos as (key, type, bytes), each an image.
    pub fn photos(&self) -> Result<Vec<(String, String, Vec<u8>)>, BundleError> {
        self.photos
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (mime, bytes) = photo_bytes(&p.data).map_err(|reason| BundleError {
                    field: format!("log.photos[{i}]"),
                    reason,
                })?;
                if p.key.is_empty()
                    || p.key.len() > 100
                    || !p.key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                {
                    return refuse(format!("log.photos[{i}].key"), "not a photo's key");
                }
                Ok((p.key.clone(), mime.to_owned(), bytes))
            })
            .collect()
    }
}

/// A pack of the group's, as its TOML text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundlePack {
    pub id: String,
    pub text: String,
}

/// A gang as it travels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleGang {
    pub name: String,
    /// The pack it plays, by id.
    pub ruleset: String,
    #[serde(default)]
    pub notes: String,
    #[serde(default)]
    pub resources: BTreeMap<String, i64>,
    #[serde(default, deserialize_with = "at_most_fighters")]
    pub fighters: Vec<BundleFighter>,
    /// Its faction (id), where its game has factions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
}

/// A fighter as they travel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleFighter {
    pub name: String,
    #[serde(default)]
    pub leader: bool,
    #[serde(default)]
    pub quirks: Vec<QuirkPick>,
    #[serde(default)]
    pub base: BTreeMap<String, i64>,
    #[serde(default)]
    pub counters: BTreeMap<String, i64>,
    #[serde(default)]
    pub notes: String,
    /// A PNG or JPEG, base64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub photo: Option<String>,
    /// Lasting effects still on the fighter (injuries, advancements).
    #[serde(default)]
    pub lasting: Vec<BundleEffect>,
    /// The group they are a member of, where the pack has groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<super::MemberGroup>,
}

/// A lasting effect as it travels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleEffect {
    pub table: String,
    pub name: String,
    #[serde(default)]
    pub detail: String,
    #[serde(default)]
    pub stats: BTreeMap<String, i64>,
    #[serde(default)]
    pub quirk: Option<String>,
    #[serde(default)]
    pub lost_quirk: Option<String>,
    #[serde(default)]
    pub heals_after: Option<u32>,
    #[serde(default)]
    pub by_group: Option<String>,
    /// It ends when the cycle ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<crate::rules::Until>,
}

/// Why a bundle is refused: the field at fault and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct BundleError {
    pub field: String,
    pub reason: String,
}

fn refuse<T>(field: impl Into<String>, reason: impl Into<String>) -> Result<T, BundleError> {
    Err(BundleError {
        field: field.into(),
        reason: reason.into(),
    })
}

/// What a list past its limit is refused with while it is read, with the
/// field it is in: `fighters` (a gang's, placed in its gang by the list of
/// gangs) or `gangs`. Told apart from any other error by [`OVER`].
const OVER: char = '\u{1f}';

/// A list of a bundle that may hold at most `most` items (`what`, in the
/// field `field`), read item by item: the items past the limit are
/// counted, never kept, so a list of 200,000 costs the memory of the
/// limit's worth, and the refusal still says how many there were.
struct AtMost<T> {
    most: usize,
    field: &'static str,
    what: &'static str,
    whose: &'static str,
    item: std::marker::PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for AtMost<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a list of at most {} {}", self.most, self.what)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(self.most));
        while out.len() < self.most {
            let at = out.len();
            match seq.next_element::<T>() {
                Ok(Some(item)) => out.push(item),
                Ok(None) => return Ok(out),
                // A gang's fighters past their limit: placed in the gang.
                Err(e) if self.field == "gangs" => {
                    let said = e.to_string();
                    return Err(match said.strip_prefix(OVER) {
                        Some(inner) => serde::de::Error::custom(format!(
                            "{OVER}gangs[{at}].{}",
                            inner
                                .rsplit_once(" at line ")
                                .map_or(inner, |(text, _)| text)
                        )),
                        None => e,
                    });
                }
                Err(e) => return Err(e),
            }
        }
        let mut count = out.len();
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            count = count.saturating_add(1);
        }
        if count == out.len() {
            return Ok(out);
        }
        Err(serde::de::Error::custom(format!(
            "{OVER}{}{OVER}{count} {} is more than {} may carry (at most {})",
            self.field, self.what, self.whose, self.most
        )))
    }
}

fn at_most_gangs<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<BundleGang>, D::Error> {
    d.deserialize_seq(AtMost {
        most: MAX_BUNDLE_GANGS,
        field: "gangs",
        what: "gangs",
        whose: "a bundle",
        item: std::marker::PhantomData,
    })
}

fn at_most_fighters<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<BundleFighter>, D::Error> {
    d.deserialize_seq(AtMost {
        most: MAX_BUNDLE_FIGHTERS,
        field: "fighters",
        what: "fighters",
        whose: "a gang of a bundle",
        item: std::marker::PhantomData,
    })
}

/// A list past its limit, as the field and reason [`AtMost`] refused it
/// with; `None` for any other error.
fn over_limit(err: &serde_json::Error) -> Option<BundleError> {
    let said = err.to_string();
    let said = said.strip_prefix(OVER)?;
    let said = said.rsplit_once(" at line ").map_or(said, |(text, _)| text);
    let (field, reason) = said.split_once(OVER)?;
    Some(BundleError {
        field: field.to_owned(),
        reason: reason.to_owned(),
    })
}

/// The top of a bundle, read first and alone: its format, the rest
/// skipped without being kept.
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    format: Option<serde_json::Value>,
}

/// Reads a bundle's bytes: within the size limit, JSON of this format,
/// every name a name, every number within the safety bound, every photo a
/// PNG or JPEG of a fighter's size. It is read straight into the bundle,
/// never into a tree of JSON first, and a list past its limit is refused
/// as it is read.
pub fn read(bytes: &[u8]) -> Result<Bundle, BundleError> {
    if bytes.len() > MAX_BUNDLE_BYTES {
        return refuse(
            "bundle",
            format!(
                "{} MB is more than a bundle may be ({} MB)",
                bytes.len() / 1_000_000,
                MAX_BUNDLE_BYTES / 1_000_000
            ),
        );
    }
    let format = match serde_json::from_slice::<Head>(bytes) {
        Ok(head) => head.format,
        // A document that is not an object has no format.
        Err(e) if e.classify() == serde_json::error::Category::Data => None,
        Err(e) => return refuse("bundle", format!("not JSON: {e}")),
    };
    match &format {
        Some(f) if f.as_u64() == Some(u64::from(BUNDLE_FORMAT)) => {}
        Some(serde_json::Value::Number(f)) => {
            return refuse(
                "format",
                format!("format {f} is not one this build reads (format {BUNDLE_FORMAT})"),
            );
        }
        Some(other) => {
            return refuse(
                "format",
                format!(
                    "must be a number ({BUNDLE_FORMAT} for this build), not {}",
                    json_kind(other)
                ),
            );
        }
        None => return refuse("format", "missing: not a Rapsheet bundle"),
    }
    let bundle: Bundle = match serde_json::from_slice(bytes) {
        Ok(b) => b,
        Err(e) => {
            return Err(over_limit(&e).unwrap_or_else(|| BundleError {
                field: "bundle".into(),
                reason: e.to_string(),
            }));
        }
    };
    if bundle.kind != "rapsheet-bundle" {
        return refuse("kind", "not a Rapsheet bundle");
    }
    if bundle.gangs.len() > MAX_BUNDLE_GANGS {
        return refuse(
            "gangs",
            format!(
                "{} gangs is more than a bundle may carry (at most {MAX_BUNDLE_GANGS})",
                bundle.gangs.len()
            ),
        );
    }
    if let Some((i, g)) = bundle
        .gangs
        .iter()
        .enumerate()
        .find(|(_, g)| g.fighters.len() > MAX_BUNDLE_FIGHTERS)
    {
        return refuse(
            format!("gangs[{i}].fighters"),
            format!(
                "{} fighters is more than a gang of a bundle may carry (at most {MAX_BUNDLE_FIGHTERS})",
                g.fighters.len()
            ),
        );
    }
    check(&bundle)?;
    if let Some(log) = &bundle.log {
        log.batches()?;
        log.photos()?;
    }
    Ok(bundle)
}

/// What a JSON value is, in words, for a field of the wrong kind.
fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "true or false",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "text",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Every name, number and photo of a bundle read.
fn check(bundle: &Bundle) -> Result<(), BundleError> {
    // The campaign it came from is named in the log's line for the import:
    // a name, as the campaign's own is.
    crate::text::name("A campaign", &bundle.campaign)
        .or_else(|e| refuse("campaign", e.to_string()))?;
    // Each pack is kept under the id it travels with: its text must give
    // itself that id, or the campaign would keep it under a name it
    // does not answer to.
    for (i, p) in bundle.packs.iter().enumerate() {
        let at = format!("packs[{i}]");
        let own = crate::rules::Registry::pack_id(&format!("{at}.text"), &p.text)
            .or_else(|e| refuse(format!("{at}.text"), format!("{}: {}", e.entry, e.reason)))?;
        if own != p.id {
            return refuse(
                format!("{at}.id"),
                format!(
                    "`{}` differs from the id its text gives itself (`{}`)",
                    crate::text::echo(&p.id),
                    crate::text::echo(&own)
                ),
            );
        }
    }
    for (i, g) in bundle.gangs.iter().enumerate() {
        let at = format!("gangs[{i}]");
        crate::text::name("A gang", &g.name)
            .or_else(|e| refuse(format!("{at}.name"), e.to_string()))?;
        numbers(&format!("{at}.resources"), &g.resources)?;
        for (j, f) in g.fighters.iter().enumerate() {
            let at = format!("{at}.fighters[{j}]");
            crate::text::name("A fighter", &f.name)
                .or_else(|e| refuse(format!("{at}.name"), e.to_string()))?;
            numbers(&format!("{at}.base"), &f.base)?;
            numbers(&format!("{at}.counters"), &f.counters)?;
            if let Some(photo) = &f.photo {
                photo_bytes(photo).map_err(|reason| BundleError {
                    field: format!("{at}.photo"),
                    reason,
                })?;
            }
            for (k, e) in f.lasting.iter().enumerate() {
                numbers(&format!("{at}.lasting[{k}].stats"), &e.stats)?;
            }
        }
    }
    Ok(())
}

fn numbers(field: &str, values: &BTreeMap<String, i64>) -> Result<(), BundleError> {
    for (key, n) in values {
        if let Err(reason) = crate::rules::check_bound(*n) {
            return refuse(format!("{field}.{key}"), reason);
        }
    }
    Ok(())
}

/// A photo's bytes and type, from its base64: a PNG or JPEG the app
/// takes as a fighter's photo ([`super::photo::check`]: within its size
/// and pixel limits, and decoding whole).
pub fn photo_bytes(text: &str) -> Result<(&'static str, Vec<u8>), String> {
    let bytes = photo_base64(text)?;
    let mime = super::photo::check(&bytes)?;
    Ok((mime, bytes))
}

/// A photo's bytes from its base64, within the size limit, not yet looked
/// into.
fn photo_base64(text: &str) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    if text.len() > MAX_PHOTO_BYTES.saturating_mul(4) / 3 + 4 {
        return Err(format!(
            "a photo is at most {} MB",
            MAX_PHOTO_BYTES / 1_000_000
        ));
    }
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| format!("not base64: {e}"))
}

/// A photo as it travels: base64.
pub fn photo_text(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// What an import writes: its events, the photos (`mime`, bytes) they
/// set, and where in the bundle each event comes from (`gangs[0].fighters[2]`),
/// for naming the field of one the gate refuses.
pub type Imported = (Vec<Event>, Vec<(String, Vec<u8>)>, Vec<String>);

/// The next ids the campaign gives, for an import's new gang, fighters and
/// lasting effects.
#[derive(Debug, Clone, Copy)]
pub struct NextIds {
    pub gang: GangId,
    pub fighter: FighterId,
    pub effect: EffectId,
}

/// The gang names a campaign has, looked up as names compare
/// ([`crate::text::same`]) in one step each, however many gangs a bundle
/// brings.
#[derive(Debug, Default)]
pub struct GangNames(std::collections::HashMap<unicase::UniCase<String>, String>);

impl GangNames {
    pub fn new(gangs: &[Gang]) -> Self {
        let mut names = Self::default();
        for g in gangs {
            names.insert(&g.name);
        }
        names
    }

    /// The name taken that is the same name as `name`.
    pub fn taken(&self, name: &str) -> Option<&str> {
        self.0.get(&crate::text::name_key(name)).map(String::as_str)
    }

    pub fn insert(&mut self, name: &str) {
        self.0.insert(crate::text::name_key(name), name.to_owned());
    }
}

/// The events that bring one bundled gang of a bundle [`read`] into a
/// campaign whose gang names are `gangs`, playing `pack`, and the photos to
/// store with them (`(mime, bytes, key)`). Refused: a gang name already
/// taken, an entry or stat the pack does not have.
pub fn import_gang(
    gang: &BundleGang,
    at: &str,
    gangs: &GangNames,
    pack: &Pack,
    ids: NextIds,
    photo_key: impl Fn(&[u8]) -> String,
) -> Result<Imported, BundleError> {
    if let Some(taken) = gangs.taken(&gang.name) {
        return refuse(
            format!("{at}.name"),
            format!("the campaign has a gang called {taken} already"),
        );
    }
    if let Some(bad) = gang.resources.keys().find(|r| pack.resource(r).is_none()) {
        return refuse(
            format!("{at}.resources.{bad}"),
            format!("{} has no such resource", pack.pack.name),
        );
    }
    let mut places = vec![at.to_owned()];
    let mut events = vec![Event::GangFounded {
        gang: Gang {
            id: ids.gang,
            name: crate::text::name("A gang", &gang.name).map_err(|e| BundleError {
                field: format!("{at}.name"),
                reason: e.to_string(),
            })?,
            ruleset: pack.pack.id.clone(),
            resources: pack
                .resources
                .iter()
                .map(|r| {
                    (
                        r.id.clone(),
                        gang.resources.get(&r.id).copied().unwrap_or(r.start),
                    )
                })
                .collect(),
            notes: gang.notes.clone(),
            faction: gang.faction.clone(),
        },
    }];
    let mut photos = Vec::new();
    let (mut fighter_id, mut effect_id) = (ids.fighter.0, ids.effect.0);
    for (j, f) in gang.fighters.iter().enumerate() {
        let at = format!("{at}.fighters[{j}]");
        if let Some(bad) = f.quirks.iter().find(|p| pack.quirk(&p.quirk).is_none()) {
            return refuse(
                format!("{at}.quirks"),
                format!("{} has no entry `{}`", pack.pack.name, bad.quirk),
            );
        }
        if let Some(bad) = f.base.keys().find(|s| pack.stat(s).is_none()) {
            return refuse(
                format!("{at}.base"),
                format!("{} has no stat `{bad}`", pack.pack.name),
            );
        }
        if let Some(bad) = f.counters.keys().find(|c| pack.counter_key(c).is_none()) {
            return refuse(
                format!("{at}.counters.{bad}"),
                format!("{} has no such counter", pack.pack.name),
            );
        }
        let id = FighterId(fighter_id);
        fighter_id = fighter_id.saturating_add(1);
        events.push(Event::FighterRecruited {
            fighter: Fighter {
                id,
                gang: ids.gang,
                name: crate::text::name("A fighter", &f.name).map_err(|e| BundleError {
                    field: format!("{at}.name"),
                    reason: e.to_string(),
                })?,
                leader: f.leader,
                group: f.group.clone(),
                quirks: f.quirks.clone(),
                counters: f.counters.clone(),
                notes: f.notes.clone(),
                base: f.base.clone(),
                status: Default::default(),
            },
        });
        places.push(at.clone());
        if let Some(photo) = &f.photo {
            // Looked into (decoded whole) when the bundle was read.
            let bytes = photo_base64(photo).map_err(|reason| BundleError {
                field: format!("{at}.photo"),
                reason,
            })?;
            let mime = super::photo::mime(&bytes).ok_or_else(|| BundleError {
                field: format!("{at}.photo"),
                reason: "a photo must be a PNG or JPEG image".into(),
            })?;
            events.push(Event::PhotoChanged {
                fighter: id,
                from: None,
                to: Some(photo_key(&bytes)),
            });
            photos.push((mime.to_owned(), bytes));
            places.push(format!("{at}.photo"));
        }
        for (k, e) in f.lasting.iter().enumerate() {
            places.push(format!("{at}.lasting[{k}]"));
            events.push(Event::LastingEffectAdded {
                effect: LastingEffect {
                    id: EffectId(effect_id),
                    fighter: id,
                    table: e.table.clone(),
                    name: e.name.clone(),
                    detail: e.detail.clone(),
                    stats: e.stats.clone(),
                    quirk: e.quirk.clone(),
                    lost_quirk: e.lost_quirk.clone(),
                    battle: None,
                    roll: None,
                    removed: None,
                    until: e.until,
                    heals_after: e.heals_after,
                    by_group: e.by_group.clone(),
                },
            });
            effect_id = effect_id.saturating_add(1);
        }
    }
    Ok((events, photos, places))
}
