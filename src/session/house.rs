//! House rules kept in the campaign: a group's own packs (the entries a
//! rule text lost, their own occupations or species), stored in the file
//! so every laptop that opens it reads them, each put in, changed or taken
//! out as one batch that undo takes back. They are always labelled house
//! rules.

use anyhow::{Result, anyhow, bail};
use serde::Serialize;

use super::Session;
use crate::campaign::{BatchId, Event};
use crate::rules::{Draft, DraftChange, Pack, PackError};

/// A house pack the campaign keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HousePack {
    pub id: String,
    pub name: String,
    /// The pack it changes, if it overrides one.
    pub base: Option<String>,
    /// The gangs that play it.
    pub played_by: Vec<String>,
}

impl Session {
    /// Reads the registry anew: the packs the session was opened with and
    /// every house pack the campaign keeps, in the order they were kept.
    /// A house pack this build cannot read is left out and said in
    /// [`Session::house_warnings`].
    pub(super) fn read_house_packs(&mut self) -> Result<()> {
        let (registry, warnings) = with_house_packs(&self.base, self.store.house_packs()?);
        self.registry = registry;
        self.house_warnings = warnings;
        Ok(())
    }

    /// The text of a kept house pack, as the campaign keeps it.
    pub fn house_text(&self, id: &str) -> Result<Option<String>> {
        Ok(self
            .store
            .house_packs()?
            .into_iter()
            .find(|(k, _)| k == id)
            .map(|(_, t)| t))
    }

    /// What could not be read of the campaign's house packs.
    pub fn house_warnings(&self) -> &[String] {
        &self.house_warnings
    }

    /// The house packs the campaign keeps.
    /// Each read with the gangs that play it alone, however many gangs the
    /// campaign has.
    pub fn house_packs(&self) -> Result<Vec<HousePack>> {
        self.store
            .house_packs()?
            .into_iter()
            .map(|(id, _)| {
                let pack = self.registry.get(&id);
                Ok(HousePack {
                    name: pack.map_or_else(|| id.clone(), |p| p.pack.name.clone()),
                    base: pack.and_then(|p| p.pack.base.clone()),
                    played_by: self.store.gangs_playing(&id)?,
                    id,
                })
            })
            .collect()
    }

    /// Every pack the campaign is read with but the kept house pack `id`:
    /// what a new text of `id` is checked against.
    fn registry_without(&self, id: &str) -> Result<crate::rules::Registry> {
        let mut trial = self.base.clone();
        for (other, other_text) in self.store.house_packs()?.iter().filter(|(o, _)| o != id) {
            // One this build cannot read is left out, as on opening.
            let _ = trial.add_house_text(&house_file(other), other_text);
        }
        Ok(trial)
    }

    /// The group's data over `base` kept under `id`, as a draft to edit: the
    /// kept pack's, or a new one named `name`.
    pub fn house_draft(&self, id: &str, base: &str, name: &str) -> Result<Draft> {
        if let Some((_, text)) = self.store.house_packs()?.into_iter().find(|(k, _)| k == id) {
            return Ok(Draft::from_text(&house_file(id), &text)?);
        }
        if self.base.is_builtin(id) {
            bail!("`{id}` is a pack of this build; the group's data needs an id of its own");
        }
        let base = self.pack(base)?;
        let name = crate::text::name("The group's data", name)?;
        Ok(Draft::new(id, &name, base))
    }

    /// A draft checked as `check-pack` checks a file, against every other
    /// pack the campaign is read with: the pack it makes, or the first
    /// error, naming the entry.
    pub fn check_draft(&self, draft: &Draft) -> Result<Pack, PackError> {
        let trial = self
            .registry_without(&draft.own.pack.id)
            .map_err(|e| PackError {
                file: draft.own.pack.name.clone(),
                entry: "pack".into(),
                reason: e.to_string(),
            })?;
        draft.check(&trial, &house_file(&draft.own.pack.id))
    }

    /// What a draft changes of the pack it is over, entry by entry.
    pub fn draft_changes(&self, draft: &Draft) -> Result<Vec<DraftChange>> {
        let base = draft
            .base_id()
            .ok_or_else(|| anyhow!("the group's data names no pack it is over"))?;
        Ok(draft.changes(self.pack(base)?))
    }

    /// Keeps a draft in the campaign (one batch) and, with `play`, makes
    /// every gang that plays its base, and the campaign's new gangs, play
    /// it, in the same batch.
    pub fn keep_draft(&mut self, draft: &Draft, play: bool) -> Result<(BatchId, String)> {
        let text = draft.to_text();
        let id = draft.own.pack.id.clone();
        if let Err(err) = self.check_draft(draft) {
            bail!("{err}");
        }
        let from = self
            .store
            .house_packs()?
            .into_iter()
            .find(|(k, _)| *k == id)
            .map(|(_, t)| t);
        let mut events = Vec::new();
        if from.as_deref() != Some(text.as_str()) {
            events.push(Event::HousePackSet {
                id: id.clone(),
                from,
                to: Some(text),
            });
        }
        if play && let Some(base) = draft.base_id() {
            let info = self.store.info()?;
            if info.default_ruleset == base {
                events.push(Event::CampaignRulesetChanged {
                    from: base.to_owned(),
                    to: id.clone(),
                });
            }
            for gang in self
                .store
                .gangs()?
                .into_iter()
                .filter(|g| g.ruleset == base)
            {
                events.push(Event::GangRulesetChanged {
                    gang: gang.id,
                    from: gang.ruleset,
                    to: id.clone(),
                });
            }
        }
        if events.is_empty() {
            bail!("the campaign keeps this data already");
        }
        let label = format!("The group's data: {}", draft.own.pack.name);
        let batch = self.commit(&label, events)?;
        self.read_house_packs()?;
        Ok((batch, id))
    }

    /// Keeps a pack of the group's own in the campaign (or changes the one
    /// kept under its id), checked first against the packs it is read
    /// with. `file` names where the text came from, for its errors.
    /// Returns the batch and the pack's id.
    pub fn keep_house_pack(&mut self, file: &str, text: &str) -> Result<(BatchId, String)> {
        let kept = self.store.house_packs()?;
        let id = crate::rules::Registry::pack_id(file, text)?;
        if self.base.is_builtin(&id) {
            bail!(
                "{file}: pack.id: `{id}` is a pack of this build; house rules need an id of their own"
            );
        }
        // Checked against every pack but the one it replaces.
        let mut trial = self.registry_without(&id)?;
        trial.add_house_text(file, text)?;
        let from = kept.into_iter().find(|(k, _)| *k == id).map(|(_, t)| t);
        if from.as_deref() == Some(text) {
            bail!("{file}: the campaign keeps these house rules already");
        }
        let label = trial.get(&id).map_or_else(
            || format!("Keep house rules {id}"),
            |p| format!("Keep {} {}", what_it_is(p.pack.own_game()), p.pack.name),
        );
        let event = Event::HousePackSet {
            id: id.clone(),
            from,
            to: Some(text.to_owned()),
        };
        let batch = self.commit(&label, vec![event])?;
        self.read_house_packs()?;
        Ok((batch, id))
    }

    /// Takes a house pack out of the campaign. Refused while a gang plays
    /// it, the campaign's new gangs play it, or another house pack builds
    /// on it.
    pub fn drop_house_pack(&mut self, id: &str) -> Result<BatchId> {
        let kept = self.house_packs()?;
        let pack = kept
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| anyhow!("the campaign keeps no house rules `{id}`"))?;
        if !pack.played_by.is_empty() {
            bail!(
                "{} cannot be taken out: {} play{} it",
                pack.name,
                pack.played_by.join(", "),
                if pack.played_by.len() == 1 { "s" } else { "" }
            );
        }
        if self.store.info()?.default_ruleset == id {
            bail!(
                "{} cannot be taken out: the campaign's new gangs play it",
                pack.name
            );
        }
        if let Some(other) = kept.iter().find(|p| p.base.as_deref() == Some(id)) {
            bail!(
                "{} cannot be taken out: {} builds on it",
                pack.name,
                other.name
            );
        }
        let text = self
            .store
            .house_packs()?
            .into_iter()
            .find(|(k, _)| k == id)
            .map(|(_, t)| t);
        let event = Event::HousePackSet {
            id: id.to_owned(),
            from: text,
            to: None,
        };
        let label = format!("Take out {} {}", what_it_is(pack.base.is_none()), pack.name);
        let batch = self.commit(&label, vec![event])?;
        self.read_house_packs()?;
        Ok(batch)
    }

    /// After an undo or redo: the registry read anew if the batch put a
    /// house pack in or took one out.
    pub(super) fn after_house_change(&mut self, batch: BatchId) -> Result<()> {
        let (_, events) = self.store.batch(batch)?;
        if events
            .iter()
            .any(|e| matches!(e, Event::HousePackSet { .. }))
        {
            self.read_house_packs()?;
        }
        Ok(())
    }
}

/// `base` and the house packs `kept` (id and text, in the order kept); a
/// house pack this build cannot read is left out, and said.
pub(in crate::session) fn with_house_packs(
    base: &crate::rules::Registry,
    kept: Vec<(String, String)>,
) -> (crate::rules::Registry, Vec<String>) {
    let mut registry = base.clone();
    let mut warnings = Vec::new();
    for (id, text) in kept {
        if let Err(err) = registry.add_house_text(&house_file(&id), &text) {
            warnings.push(format!("house rules `{id}` are not read: {err}"));
        }
    }
    (registry, warnings)
}

/// A group's pack that comes with a log made again (a whole campaign's
/// bundle, the copies of a merge): where it came from (named in its
/// errors), the id it came under and its text.
pub(in crate::session) struct Travelling<'a> {
    pub from: String,
    pub id: &'a str,
    pub text: &'a str,
}

/// `base` and the group's packs that travel with a log, each checked as
/// `house keep` checks one: a pack whose text gives itself the id it came
/// under, not a pack of this build, and one that reads over `base` and the
/// packs before it. These are the packs the log's first changes may play
/// before the log keeps them (a campaign made with `--pack FILE`, its game
/// kept later). A pack whose id came already is not read twice.
pub(in crate::session) fn travelling_packs(
    base: &crate::rules::Registry,
    packs: &[Travelling<'_>],
) -> Result<crate::rules::Registry> {
    let mut registry = base.clone();
    let mut read: Vec<&str> = Vec::new();
    for pack in packs {
        let from = &pack.from;
        let said = crate::rules::Registry::pack_id(from, pack.text)?;
        if said != pack.id {
            bail!(
                "{from}: pack.id: the pack's text calls itself `{}`, not `{}`",
                crate::text::echo(&said),
                crate::text::echo(pack.id)
            );
        }
        if base.is_builtin(&said) {
            bail!(
                "{from}: pack.id: `{said}` is a pack of this build; house rules need an id of their own"
            );
        }
        if read.contains(&pack.id) {
            continue;
        }
        registry.add_house_text(from, pack.text)?;
        read.push(pack.id);
    }
    Ok(registry)
}

/// How a kept pack is named in its errors.
fn house_file(id: &str) -> String {
    format!("house rules `{id}`")
}

/// What a kept pack is, as the log says it: house rules over another
/// pack, or a whole game of the group's own.
fn what_it_is(own_game: bool) -> &'static str {
    if own_game {
        "the group's own game"
    } else {
        "house rules"
    }
}
