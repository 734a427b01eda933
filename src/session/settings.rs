//! The campaign's settings: the choices a rule text leaves to the group
//! (when plot points return), one per setting of the packs the campaign
//! plays, each chosen as one batch that undo takes back.

use anyhow::{Result, anyhow, bail};
use serde::Serialize;

use super::Session;
use crate::campaign::{BatchId, Event};
use crate::text;

/// A setting as the faces show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettingView {
    pub id: String,
    pub label: String,
    /// The pack that asks for it.
    pub pack: String,
    /// (id, label) of each option, in the pack's order.
    pub options: Vec<(String, String)>,
    /// The option in force.
    pub chosen: String,
    /// True while the group has not chosen (the pack's default holds).
    pub by_default: bool,
    /// The ruling behind the default, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<String>,
    pub source: String,
}

impl SettingView {
    /// The label of the option in force.
    pub fn chosen_label(&self) -> &str {
        self.options
            .iter()
            .find(|(id, _)| *id == self.chosen)
            .map_or(self.chosen.as_str(), |(_, label)| label.as_str())
    }
}

impl Session {
    /// The settings of every pack the campaign plays (its gangs' and its
    /// new gangs'), each once.
    pub fn settings(&self) -> Result<Vec<SettingView>> {
        let chosen = self.store.settings()?;
        let mut played = self.store.rulesets_played()?;
        played.push(self.store.info()?.default_ruleset);
        let mut out: Vec<SettingView> = Vec::new();
        for id in played {
            let Some(pack) = self.registry.get(&id) else {
                continue;
            };
            for def in &pack.settings {
                if out.iter().any(|s| s.id == def.id) {
                    continue;
                }
                let set = chosen.get(&def.id).filter(|o| def.option(o).is_some());
                out.push(SettingView {
                    id: def.id.clone(),
                    label: def.label.clone(),
                    pack: pack.pack.name.clone(),
                    options: def
                        .options
                        .iter()
                        .map(|o| (o.id.clone(), o.label.clone()))
                        .collect(),
                    chosen: set.cloned().unwrap_or_else(|| def.default.clone()),
                    by_default: set.is_none(),
                    ruling: def
                        .ruling
                        .as_deref()
                        .and_then(|r| pack.ruling(r))
                        .map(|r| r.ruling.clone()),
                    source: def.source.clone(),
                });
            }
        }
        Ok(out)
    }

    /// Chooses an option of a setting, each by id or label. Returns the
    /// batch and the setting as it now is.
    pub fn set_setting(&mut self, setting: &str, option: &str) -> Result<(BatchId, SettingView)> {
        let settings = self.settings()?;
        let view = settings
            .iter()
            .find(|s| s.id == setting || text::same(&s.label, setting))
            .ok_or_else(|| {
                let known: Vec<&str> = settings.iter().map(|s| s.id.as_str()).collect();
                if known.is_empty() {
                    anyhow!("the packs this campaign plays have no settings")
                } else {
                    anyhow!(
                        "no setting “{}” (settings: {})",
                        text::echo(setting),
                        known.join(", ")
                    )
                }
            })?;
        let (to, _) = view
            .options
            .iter()
            .find(|(id, label)| id == option || text::same(label, option))
            .ok_or_else(|| {
                let known: Vec<&str> = view.options.iter().map(|(id, _)| id.as_str()).collect();
                anyhow!(
                    "{} has no option “{}” (options: {})",
                    view.label,
                    text::echo(option),
                    known.join(", ")
                )
            })?;
        let from = self.store.settings()?.get(&view.id).cloned();
        if from.as_deref() == Some(to.as_str()) || (from.is_none() && *to == view.chosen) {
            bail!("{} is already {}", view.label, view.chosen_label());
        }
        let event = Event::SettingChanged {
            setting: view.id.clone(),
            from,
            to: Some(to.clone()),
        };
        let label = format!("{}: {}", view.label, to);
        let batch = self.commit(&label, vec![event])?;
        let now = self
            .settings()?
            .into_iter()
            .find(|s| s.id == view.id)
            .ok_or_else(|| anyhow!("the setting {} went missing", view.id))?;
        Ok((batch, now))
    }
}
