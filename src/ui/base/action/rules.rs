//! What a player asks of the rules room.

use std::path::PathBuf;

use crate::rules::Draft;

/// What a player asks of the campaign's rules.
#[derive(Debug, Clone, PartialEq)]
pub enum RulesAction {
    SetRuleset(String),
    /// Chooses an option of a campaign setting.
    SetSetting {
        setting: String,
        option: String,
    },
    /// Takes a house pack out of the campaign.
    DropHousePack(String),
    /// Opens the editor of the group's own data.
    OpenHouseEditor,
    /// Keeps the group's data in the campaign; with `play`, the parties
    /// that play its base play it.
    KeepHouseDraft {
        draft: Box<Draft>,
        play: bool,
    },
    /// Writes the group's data to a file of theirs.
    SaveHouseDraft {
        text: String,
        path: PathBuf,
        replace: bool,
    },
}
