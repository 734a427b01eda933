//! Bundles (`docs/bundle.md`): a gang, or every gang, written out with
//! its fighters, lasting effects, photos and the group's own packs it
//! plays; and a bundle's gangs brought into this campaign as one batch that
//! undo takes back.

use anyhow::{Result, anyhow, bail};

use std::collections::BTreeMap;

use super::Session;
use crate::campaign::bundle::{
    self, BUNDLE_FORMAT, Bundle, BundleEffect, BundleFighter, BundleGang, BundlePack, NextIds,
};
use crate::campaign::{BatchId, EffectId, Event, FighterId, GangId};

/// A bundle file's bytes, refused before they are read when the file is
/// larger than a bundle may be.
pub fn read_bundle_file(file: &std::path::Path) -> Result<Vec<u8>> {
    Ok(crate::input::read(file, crate::input::Kind::Bundle)?)
}

impl Session {
    /// The bundle of one gang, or of every gang of the campaign.
    pub fn export_bundle(&self, gang: Option<GangId>) -> Result<Bundle> {
        let gangs = match gang {
            Some(id) => vec![self.gang(id)?],
            None => self.store.gangs()?,
        };
        let kept = self.store.house_packs()?;
        let mut packs: Vec<BundlePack> = Vec::new();
        let mut out = Vec::new();
        for g in gangs {
            // The group's packs the gang's pack stands on, bases first.
            for stamp in self.registry.stamps(&g.ruleset).iter().rev() {
                if let Some((id, text)) = kept.iter().find(|(id, _)| *id == stamp.id)
                    && !packs.iter().any(|p| p.id == *id)
                {
                    packs.push(BundlePack {
                        id: id.clone(),
                        text: text.clone(),
                    });
                }
            }
            let mut fighters = Vec::new();
            for f in self.store.fighters(g.id)? {
                if matches!(f.status, crate::campaign::FighterStatus::Gone { .. }) {
                    continue;
                }
                let lasting = self
                    .store
                    .lasting_effects(f.id)?
                    .into_iter()
                    .filter(|e| e.removed.is_none())
                    .map(|e| BundleEffect {
                        table: e.table,
                        name: e.name,
                        detail: e.detail,
                        stats: e.stats,
                        quirk: e.quirk,
                        lost_quirk: e.lost_quirk,
                        heals_after: e.heals_after,
                        by_group: e.by_group,
                        until: e.until,
                    })
                    .collect();
                fighters.push(BundleFighter {
                    photo: self.store.photo(f.id)?.map(|b| bundle::photo_text(&b)),
                    name: f.name,
                    leader: f.leader,
                    quirks: f.quirks,
                    base: f.base,
                    counters: f.counters,
                    notes: f.notes,
                    lasting,
                    group: f.group,
                });
            }
            out.push(BundleGang {
                name: g.name,
                ruleset: g.ruleset,
                notes: g.notes,
                resources: g.resources,
                fighters,
                faction: g.faction,
            });
        }
        Ok(Bundle {
            kind: "rapsheet-bundle".into(),
            format: BUNDLE_FORMAT,
            campaign: self.store.info()?.name,
            packs,
            gangs: out,
            log: None,
        })
    }

    /// The whole campaign's bundle: every gang, and the log and photos, so
    /// it is made again as it was.
    pub fn export_whole_bundle(&self) -> Result<Bundle> {
        let mut bundle = self.export_bundle(None)?;
        // Every pack the campaign keeps goes with it, in the order it was
        // kept (as a campaign reads them): the game it was made to play
        // among them, though no gang plays it.
        bundle.packs = self
            .store
            .house_packs()?
            .into_iter()
            .map(|(id, text)| BundlePack { id, text })
            .collect();
        let mut batches = Vec::new();
        for b in self.store.log_batches()? {
            let events = b
                .events
                .iter()
                .map(|e| Ok(serde_json::from_str(&crate::campaign::wire::encode(e)?)?))
                .collect::<Result<Vec<serde_json::Value>>>()?;
            batches.push(bundle::BundleBatch {
                id: b.id.0,
                at: b.at,
                label: b.label,
                undoes: b.undoes.map(|u| u.0),
                events,
            });
        }
        let photos = self
            .store
            .all_photos()?
            .into_iter()
            .map(|(key, _, bytes)| bundle::BundlePhoto {
                key,
                data: bundle::photo_text(&bytes),
            })
            .collect();
        bundle.log = Some(bundle::BundleLog { batches, photos });
        Ok(bundle)
    }

    /// Makes a new campaign file at `path` from a whole campaign's bundle:
    /// its log replayed batch by batch, then checked with `verify`; a copy
    /// that does not verify is removed and said.
    pub fn create_from_bundle(path: &std::path::Path, bytes: &[u8]) -> Result<Self> {
        Self::create_from_bundle_with(path, bytes, super::builtin_registry()?)
    }

    /// [`Session::create_from_bundle`] read with `registry` (this build's
    /// packs and the pack files given with `--pack`): a campaign that plays
    /// its game from a file is carried whole to a laptop that has the file,
    /// as a merge is.
    pub fn create_from_bundle_with(
        path: &std::path::Path,
        bytes: &[u8],
        registry: crate::rules::Registry,
    ) -> Result<Self> {
        let bundle = bundle::read(bytes)?;
        let log = bundle.log.as_ref().ok_or_else(|| {
            anyhow!("log: this bundle carries gangs, not a whole campaign; bring them into a campaign instead")
        })?;
        // The group's packs it carries are known from the log's first
        // change, each checked as `house keep` checks one.
        let travelling: Vec<super::house::Travelling<'_>> = bundle
            .packs
            .iter()
            .enumerate()
            .map(|(i, p)| super::house::Travelling {
                from: format!("packs[{i}] ({})", crate::text::echo(&p.id)),
                id: &p.id,
                text: &p.text,
            })
            .collect();
        Self::made_from_log_knowing(
            path,
            &log.batches()?,
            &log.photos()?,
            registry,
            &travelling,
            "the bundle",
        )
    }

    /// Brings a bundle's gangs into the campaign, with the group's packs
    /// they play that the campaign does not keep yet, as one batch. Refused,
    /// with nothing written, where a name is taken, a pack is missing or
    /// differs from the one kept under its id, or the bundle is bad.
    pub fn import_bundle(&mut self, bytes: &[u8]) -> Result<(BatchId, Vec<String>)> {
        self.import_bundle_as(bytes, &BTreeMap::new())
    }

    /// The names of a bundle's gangs that the campaign already has a gang
    /// of (the same name as the campaign compares names): each must be
    /// brought in under another name.
    pub fn bundle_name_clashes(&self, bytes: &[u8]) -> Result<Vec<String>> {
        let bundle = bundle::read(bytes)?;
        let taken = bundle::GangNames::new(&self.store.gangs()?);
        Ok(bundle
            .gangs
            .iter()
            .filter(|g| taken.taken(&g.name).is_some())
            .map(|g| g.name.clone())
            .collect())
    }

    /// [`Session::import_bundle`], each gang named in `renamed` (its name
    /// in the bundle → the name it gets here) brought in under its new
    /// name, checked as a name typed for a new gang is.
    pub fn import_bundle_as(
        &mut self,
        bytes: &[u8],
        renamed: &BTreeMap<String, String>,
    ) -> Result<(BatchId, Vec<String>)> {
        let mut bundle = bundle::read(bytes)?;
        for (from, to) in renamed {
            let gang = bundle
                .gangs
                .iter_mut()
                .find(|g| crate::text::same(&g.name, from))
                .ok_or_else(|| anyhow!("the bundle has no gang called “{from}” to rename"))?;
            gang.name = crate::text::name("the new name", to)?;
        }
        if bundle.gangs.is_empty() {
            bail!("gangs: the bundle holds no gang");
        }
        let kept = self.store.house_packs()?;
        let mut trial = self.registry.clone();
        let mut events = Vec::new();
        for (i, p) in bundle.packs.iter().enumerate() {
            match kept.iter().find(|(id, _)| *id == p.id) {
                Some((_, text)) if *text == p.text => continue,
                Some(_) => bail!(
                    "packs[{i}]: the campaign keeps other house rules under the id `{}`; take them out or rename one first",
                    p.id
                ),
                None if self.base.is_builtin(&p.id) => {
                    bail!(
                        "packs[{i}]: `{}` is a pack of this build, not house rules",
                        p.id
                    )
                }
                None => {}
            }
            trial
                .add_house_text(&format!("packs[{i}] ({})", p.id), &p.text)
                .map_err(|e| anyhow!("{e}"))?;
            events.push(Event::HousePackSet {
                id: p.id.clone(),
                from: None,
                to: Some(p.text.clone()),
            });
        }
        let mut gangs = bundle::GangNames::new(&self.store.gangs()?);
        let mut ids = NextIds {
            gang: self.store.next_gang_id()?,
            fighter: self.store.next_fighter_id()?,
            effect: self.store.next_effect_id()?,
        };
        let mut photos = Vec::new();
        let mut places: Vec<String> = (0..events.len()).map(|i| format!("packs[{i}]")).collect();
        let mut names = Vec::new();
        for (i, g) in bundle.gangs.iter().enumerate() {
            let pack = trial.get(&g.ruleset).ok_or_else(|| {
                anyhow!(
                    "gangs[{i}].ruleset: this build has no pack `{}` and the bundle does not carry it",
                    g.ruleset
                )
            })?;
            let at = format!("gangs[{i}]");
            let (mut more, mut pics, mut at_places) =
                bundle::import_gang(g, &at, &gangs, pack, ids, crate::store::photo_key)?;
            places.append(&mut at_places);
            for e in &more {
                if let Event::GangFounded { gang } = e {
                    gangs.insert(&gang.name);
                    names.push(gang.name.clone());
                }
            }
            let fighters = more
                .iter()
                .filter(|e| matches!(e, Event::FighterRecruited { .. }))
                .count();
            let effects = more
                .iter()
                .filter(|e| matches!(e, Event::LastingEffectAdded { .. }))
                .count();
            ids = NextIds {
                gang: GangId(ids.gang.0.saturating_add(1)),
                fighter: FighterId(ids.fighter.0.saturating_add(fighters as i64)),
                effect: EffectId(ids.effect.0.saturating_add(effects as i64)),
            };
            events.append(&mut more);
            photos.append(&mut pics);
        }
        let label = format!("Bring in {} from {}", names.join(", "), bundle.campaign);
        // Every event through the one gate, a refusal named by where in
        // the bundle it came from.
        let mut gate = crate::campaign::gate::Gate::new(&self.base, &self.registry);
        let mut place = places.iter();
        let batch =
            self.store
                .commit_with_photos(&label, &events, &photos, &mut |state, e, back| {
                    let at = place.next().map_or("gangs", String::as_str);
                    gate.check(state, e, back).map_err(|err| err.within(at))
                })?;
        self.read_house_packs()?;
        Ok((batch, names))
    }
}
