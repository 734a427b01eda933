//! The fighter room: one fighter's sheet — names, stats, counters,
//! entries, notes, photo, dismissal — and the checks rolled from it.

use std::path::PathBuf;

use crate::campaign::FighterId;
use crate::session::CheckRolled;
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::FighterAction;

impl RapsheetApp {
    pub(super) fn run_fighter(&mut self, action: FighterAction) {
        match action {
            FighterAction::Select(id) => {
                self.state.selected_fighter = id;
                self.refresh();
            }
            FighterAction::Rename(id, name) => {
                self.change(&format!("Renamed {name}"), |s| s.rename_fighter(id, &name));
            }
            FighterAction::SetLeader(id, leader) => {
                let said = format!("{} changed", crate::text::capitalised(&self.words().leader));
                self.change(&said, |s| s.set_leader(id, leader));
            }
            FighterAction::BuyQuirk(id, pick) => {
                self.change("Bought", |s| s.buy_quirk(id, pick));
            }
            FighterAction::SetQuirks(id, quirks) => {
                let entries = crate::text::capitalised(&self.words().entries);
                self.change(&format!("{entries} changed"), |s| s.set_quirks(id, quirks));
            }
            FighterAction::SetBaseStat {
                fighter,
                stat,
                value,
            } => {
                self.change("Base stat changed", |s| {
                    s.set_base_stat(fighter, &stat, value)
                });
            }
            FighterAction::SetCounter {
                fighter,
                counter,
                value,
            } => {
                self.change("Changed by hand", |s| {
                    s.set_counter(fighter, &counter, value, "set by hand in the editor")
                });
            }
            FighterAction::SetNotes(id, notes) => {
                self.change("Notes saved", |s| s.set_fighter_notes(id, &notes));
            }
            FighterAction::SetPhoto(fighter, path) => self.set_photo(fighter, path),
            FighterAction::RemoveLasting { effect, reason } => {
                self.change("Lasting effect removed", |s| {
                    s.remove_lasting(effect, &reason)
                });
            }
            FighterAction::Dismiss(id) => self.dismiss(id),
            FighterAction::RollCheck {
                fighter,
                check,
                option,
                modifier,
            } => self.roll_check(fighter, &check, option.as_deref(), modifier),
            FighterAction::PushCheck(rolled) => self.push_check(&rolled),
        }
    }

    /// Sets a fighter's photo from a file, or removes it.
    fn set_photo(&mut self, fighter: FighterId, path: Option<PathBuf>) {
        let bytes = match &path {
            Some(p) => match crate::input::read(p, crate::input::Kind::Photo) {
                Ok(b) => Some(b),
                Err(e) => {
                    self.error(e.into());
                    return;
                }
            },
            None => None,
        };
        self.change("Photo changed", |s| s.set_photo(fighter, bytes.as_deref()));
    }

    /// Dismisses a fighter, said with the way back: undo brings them back.
    fn dismiss(&mut self, id: FighterId) {
        let name = self
            .state
            .gang_view
            .as_ref()
            .and_then(|v| v.fighters.iter().find(|f| f.id == id))
            .map_or_else(|| self.words().fighter, |f| f.name.clone());
        let said = format!("Dismissed {name}: Edit ▸ Undo brings them back");
        self.change(&said, |s| s.dismiss(id));
    }

    /// Rolls a check of a fighter's sheet with a new seed; the result shows
    /// under it. Nothing in the campaign changes.
    fn roll_check(&mut self, fighter: FighterId, check: &str, option: Option<&str>, modifier: i32) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let seed = crate::dice::seed_from_clock();
        let rolled = match option {
            Some(option) => session.roll_fighter_check_as(fighter, check, option, seed, modifier),
            None => session.roll_fighter_check(fighter, check, seed, modifier),
        };
        match rolled {
            Ok(rolled) => {
                let raised = rolled.raised.is_some();
                self.campaign.editor.rolled = Some(rolled);
                if raised {
                    self.refresh();
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// Pushes the rolled pool: one change (the stress raised) that undo
    /// takes back.
    fn push_check(&mut self, rolled: &CheckRolled) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let Some(fighter) = self.state.selected_fighter else {
            return;
        };
        match session.push_fighter_check(fighter, rolled) {
            Ok(pushed) => {
                if let Some(words) = pushed.check.pool_words() {
                    self.info(format!(
                        "{} {} {}",
                        pushed.fighter, words.pushed, pushed.check.label
                    ));
                }
                self.campaign.editor.rolled = Some(pushed);
            }
            Err(err) => self.error(err),
        }
        self.refresh();
    }
}
