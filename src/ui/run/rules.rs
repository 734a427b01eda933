//! The rules room: the campaign's ruleset and settings, and the group's
//! own data (house packs kept in the campaign, their editor).

use std::path::Path;

use crate::ui::app::RapsheetApp;
use crate::ui::base::action::RulesAction;

impl RapsheetApp {
    pub(super) fn run_rules(&mut self, action: RulesAction) {
        match action {
            RulesAction::SetRuleset(ruleset) => {
                self.change("Ruleset changed", |s| s.set_campaign_ruleset(&ruleset));
            }
            RulesAction::SetSetting { setting, option } => {
                self.change("Setting chosen", |s| {
                    s.set_setting(&setting, &option).map(|(batch, _)| batch)
                });
            }
            RulesAction::DropHousePack(id) => {
                self.change("House rules taken out", |s| s.drop_house_pack(&id));
            }
            RulesAction::OpenHouseEditor => {
                if let Some(session) = &self.session {
                    let kept = self.state.house.first().map(|p| p.id.clone());
                    self.campaign.house_editor.open_on(session, kept.as_deref());
                }
                // Like every other output, "Save file" offers a path.
                if self.campaign.house_editor.save_path.trim().is_empty() {
                    self.campaign.house_editor.save_path =
                        self.offered_output("house rules", "toml");
                }
            }
            RulesAction::KeepHouseDraft { draft, play } => {
                let what = if play {
                    "The group's data kept and played"
                } else {
                    "The group's data kept"
                };
                self.change(what, |s| s.keep_draft(&draft, play).map(|(batch, _)| batch));
            }
            RulesAction::SaveHouseDraft {
                text,
                path,
                replace,
            } => self.save_house_draft(&text, &path, replace),
        }
    }

    /// Writes the group's data to a file of theirs, atomically, never over
    /// the campaign, and over another file only when asked.
    fn save_house_draft(&mut self, text: &str, path: &Path, replace: bool) {
        let existing = if replace {
            crate::output::Existing::Replace
        } else {
            crate::output::Existing::Refuse
        };
        let campaign = self.session.as_ref().map(|s| s.path().to_owned());
        match crate::output::write(path, text.as_bytes(), existing, campaign.as_deref()) {
            Ok(()) => self.info(format!("Saved the group's data to {}", path.display())),
            Err(err) => self.error(err.into()),
        }
    }
}
