//! What a player asks of the campaign room.

use std::path::PathBuf;

/// What a player asks of the campaign's file and the window.
#[derive(Debug, Clone, PartialEq)]
pub enum CampaignAction {
    /// Asks a new campaign's name.
    AskNew,
    /// The new campaign's name is given: ask where to keep it.
    /// The new campaign's name and game (pack id; empty: the default).
    NameNew(String, String),
    /// Opens a file dialog (native, or the typed path where there is none).
    AskPath(PathPurpose),
    UsePath(PathPurpose, PathBuf),
    /// Open a demo campaign at this path, making it first if need be: the
    /// default demo, or the one played with this ruleset.
    OpenDemo(PathBuf, Option<String>),
    /// Closes the campaign and shows the welcome screen.
    Close,
    /// Leaves the welcome screen for the campaign open behind it.
    LeaveWelcome,
    /// Closes the window.
    Quit,
}

/// What a file dialog is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathPurpose {
    New,
    Open,
    SaveAs,
    /// A pack file to keep in the campaign as house rules.
    HouseRules,
}

impl PathPurpose {
    pub fn title(self) -> &'static str {
        match self {
            Self::New => "New campaign",
            Self::Open => "Open campaign",
            Self::SaveAs => "Save campaign as",
            Self::HouseRules => "Keep house rules",
        }
    }

    pub fn done(self) -> &'static str {
        match self {
            Self::New => "Created",
            Self::Open => "Opened",
            Self::SaveAs => "Saved as",
            Self::HouseRules => "Kept house rules from",
        }
    }

    /// What the typed path names, as the field's label says it.
    pub fn file(self) -> &'static str {
        match self {
            Self::HouseRules => "Pack file path",
            _ => "Campaign file path",
        }
    }

    pub fn button(self) -> &'static str {
        match self {
            Self::New => "Create",
            Self::Open => "Open",
            Self::SaveAs => "Save",
            Self::HouseRules => "Keep",
        }
    }
}
