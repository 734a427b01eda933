//! What a player can ask for: the [`Action`]s views return, the screens,
//! and the command table that gives each menu command its label and
//! keyboard shortcut once, for the menus and the shortcut handling alike.
//!
//! Nothing here draws or runs anything; the app shell runs actions.

use egui::{InputState, Key, KeyboardShortcut, Modifiers};

mod backups;
mod bundles;
mod campaign;
mod fighter;
mod gang;
mod league;
mod merge;
mod output;
mod record;
mod rules;
mod season;

use crate::campaign::FighterId;
pub use backups::BackupAction;
pub use bundles::BundleAction;
pub use campaign::{CampaignAction, PathPurpose};
pub use fighter::FighterAction;
pub use gang::GangAction;
pub use league::LeagueAction;
pub use merge::MergeAction;
pub use output::OutputAction;
pub use record::RecordAction;
pub use rules::RulesAction;
pub use season::SeasonAction;

/// The screens of the central area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Screen {
    #[default]
    Roster,
    Battle,
    Titles,
    Chronicle,
    /// The season: the cycle, the standings, the holdings.
    Season,
}

impl Screen {
    /// In the order of their tabs and shortcuts.
    pub const ALL: [Screen; 5] = [
        Screen::Roster,
        Screen::Battle,
        Screen::Titles,
        Screen::Chronicle,
        Screen::Season,
    ];
}

/// What a player asked for in a frame, by the room that asks. Views
/// return these; the app runs them after the frame, each room's in its
/// own runner (`run`).
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Gang(GangAction),
    Fighter(FighterAction),
    Record(RecordAction),
    Rules(RulesAction),
    Output(OutputAction),
    Campaign(CampaignAction),
    Bundle(BundleAction),
    Merge(MergeAction),
    League(LeagueAction),
    Backup(BackupAction),
    Season(SeasonAction),
    /// Fills a typed file field of any window from the desktop's file
    /// dialog (or says the path is to be typed, where the desktop has none).
    ChooseFile(FileField),
    Undo,
    Redo,
    ShowLog(bool),
    ShowScreen(Screen),
}

/// A typed file path of a window, which the desktop's file dialog may fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileField {
    /// The print window's PDF.
    PrintPdf,
    /// The chronicle screen's export.
    ChronicleExport,
    /// A fighter's photo (set as soon as it is chosen).
    Photo(FighterId),
    /// The bundle file to write.
    BundleOut,
    /// The bundle file to bring in.
    BundleIn,
    /// The new campaign made from a whole campaign's bundle.
    BundleNewCampaign,
    /// The other copy to merge.
    MergeOther,
    /// The merged campaign file.
    MergeOut,
    /// The new file a backup is restored as.
    RestoreTo,
    /// The invite a league's organiser gave.
    LeagueInvite,
    /// The new campaign a league is joined into.
    LeagueJoinTo,
}

impl FileField {
    /// The dialog's title, its filter (name, extensions) and whether it
    /// names a new file (save) or picks one there.
    pub fn dialog(
        self,
    ) -> (
        &'static str,
        Option<(&'static str, &'static [&'static str])>,
        bool,
    ) {
        const CAMPAIGN: (&str, &[&str]) = ("Rapsheet campaign", &[crate::session::EXTENSION]);
        const BUNDLE: (&str, &[&str]) = ("Bundle", &["json"]);
        match self {
            Self::PrintPdf => ("Save PDF", Some(("PDF", &["pdf"])), true),
            Self::ChronicleExport => ("Export the chronicle", None, true),
            Self::Photo(_) => (
                "Choose a photo",
                Some(("Photo", &["png", "jpg", "jpeg"])),
                false,
            ),
            Self::BundleOut => ("Write a bundle", Some(BUNDLE), true),
            Self::BundleIn => ("Bring in a bundle", Some(BUNDLE), false),
            Self::BundleNewCampaign => ("New campaign from the bundle", Some(CAMPAIGN), true),
            Self::MergeOther => ("The other copy", Some(CAMPAIGN), false),
            Self::MergeOut => ("The merged campaign", Some(CAMPAIGN), true),
            Self::RestoreTo => ("Restore as a new campaign", Some(CAMPAIGN), true),
            Self::LeagueInvite => ("The invite", Some(("League invite", &["invite"])), false),
            Self::LeagueJoinTo => ("The league's campaign on this laptop", Some(CAMPAIGN), true),
        }
    }
}

/// A command of the menus, with a label and perhaps a shortcut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    NewCampaign,
    OpenCampaign,
    SaveCampaignAs,
    CloseCampaign,
    Quit,
    Undo,
    Redo,
    Show(Screen),
    CampaignLog,
}

const fn ctrl(key: Key) -> Option<KeyboardShortcut> {
    Some(KeyboardShortcut::new(Modifiers::COMMAND, key))
}

const fn ctrl_shift(key: Key) -> Option<KeyboardShortcut> {
    Some(KeyboardShortcut::new(
        Modifiers::COMMAND.plus(Modifiers::SHIFT),
        key,
    ))
}

impl Command {
    pub const ALL: [Command; 13] = [
        Command::NewCampaign,
        Command::OpenCampaign,
        Command::SaveCampaignAs,
        Command::CloseCampaign,
        Command::Quit,
        Command::Undo,
        Command::Redo,
        Command::Show(Screen::Roster),
        Command::Show(Screen::Battle),
        Command::Show(Screen::Titles),
        Command::Show(Screen::Chronicle),
        Command::Show(Screen::Season),
        Command::CampaignLog,
    ];

    /// The command's label and shortcut: the one place either is written.
    pub fn spec(self) -> (&'static str, Option<KeyboardShortcut>) {
        match self {
            Command::NewCampaign => ("New campaign…", ctrl(Key::N)),
            Command::OpenCampaign => ("Open campaign…", ctrl(Key::O)),
            Command::SaveCampaignAs => ("Save campaign as…", ctrl_shift(Key::S)),
            Command::CloseCampaign => ("Close campaign", ctrl(Key::W)),
            Command::Quit => ("Quit", ctrl(Key::Q)),
            Command::Undo => ("Undo", ctrl(Key::Z)),
            Command::Redo => ("Redo", ctrl_shift(Key::Z)),
            Command::Show(Screen::Roster) => ("Roster", ctrl(Key::Num1)),
            Command::Show(Screen::Battle) => ("Record", ctrl(Key::Num2)),
            Command::Show(Screen::Titles) => ("Titles", ctrl(Key::Num3)),
            Command::Show(Screen::Chronicle) => ("Chronicle", ctrl(Key::Num4)),
            Command::Show(Screen::Season) => ("Season", ctrl(Key::Num5)),
            Command::CampaignLog => ("Campaign log", ctrl(Key::L)),
        }
    }

    pub fn label(self) -> &'static str {
        self.spec().0
    }

    pub fn shortcut(self) -> Option<KeyboardShortcut> {
        self.spec().1
    }

    /// Whether the command means anything with no campaign open.
    pub fn needs_campaign(self) -> bool {
        !matches!(
            self,
            Command::NewCampaign | Command::OpenCampaign | Command::Quit
        )
    }

    /// What the command asks for; `log_shown` is whether the campaign log
    /// is open now (its command toggles it).
    pub fn action(self, log_shown: bool) -> Action {
        match self {
            Command::NewCampaign => Action::Campaign(CampaignAction::AskNew),
            Command::OpenCampaign => Action::Campaign(CampaignAction::AskPath(PathPurpose::Open)),
            Command::SaveCampaignAs => {
                Action::Campaign(CampaignAction::AskPath(PathPurpose::SaveAs))
            }
            Command::CloseCampaign => Action::Campaign(CampaignAction::Close),
            Command::Quit => Action::Campaign(CampaignAction::Quit),
            Command::Undo => Action::Undo,
            Command::Redo => Action::Redo,
            Command::Show(screen) => Action::ShowScreen(screen),
            Command::CampaignLog => Action::ShowLog(!log_shown),
        }
    }
}

/// The commands whose shortcuts were pressed, consumed so that no widget
/// sees them as well.
pub fn pressed(input: &mut InputState, in_field: bool) -> Vec<Command> {
    let mut found = Vec::new();
    // egui lets a shortcut without Shift match a press with it, so Ctrl+Z
    // would swallow Ctrl+Shift+Z: the ones with Shift go first.
    for shift in [true, false] {
        for command in Command::ALL {
            if in_field && matches!(command, Command::Undo | Command::Redo) {
                continue;
            }
            if let Some(shortcut) = command.shortcut()
                && shortcut.modifiers.shift == shift
                && input.consume_shortcut(&shortcut)
            {
                found.push(command);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_commands_share_a_shortcut_or_a_label() {
        let mut shortcuts = std::collections::BTreeSet::new();
        let mut labels = std::collections::BTreeSet::new();
        for command in Command::ALL {
            assert!(labels.insert(command.label()), "{command:?}");
            if let Some(s) = command.shortcut() {
                assert!(
                    shortcuts.insert(format!("{:?} {:?}", s.modifiers, s.logical_key)),
                    "{command:?}"
                );
            }
        }
    }

    #[test]
    fn every_screen_has_a_command_with_a_shortcut() {
        for screen in Screen::ALL {
            assert!(Command::Show(screen).shortcut().is_some(), "{screen:?}");
        }
    }
}
