//! What a player can ask for: the [`Action`]s views return, the screens,
//! and the command table that gives each menu command its label and
//! keyboard shortcut once, for the menus and the shortcut handling alike.
//!
//! Nothing here draws or runs anything; the app shell runs actions.

use std::path::PathBuf;

use egui::{InputState, Key, KeyboardShortcut, Modifiers};

use super::dialogs::PathPurpose;
use crate::campaign::battle::BattleReport;
use crate::campaign::{FighterId, GangId, QuirkPick};

/// The screens of the central area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Screen {
    #[default]
    Roster,
    Battle,
    Titles,
    Chronicle,
}

impl Screen {
    /// In the order of their tabs and shortcuts.
    pub const ALL: [Screen; 4] = [
        Screen::Roster,
        Screen::Battle,
        Screen::Titles,
        Screen::Chronicle,
    ];
}

/// What a player asked for in a frame. Views return these; the app runs
/// them after the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    SelectGang(GangId),
    SelectFighter(Option<FighterId>),
    FoundGang {
        name: String,
        ruleset: String,
    },
    RenameGang(GangId, String),
    SetGangNotes(GangId, String),
    /// Opens the resource dialog with a suggested change.
    AskResource {
        gang: GangId,
        resource: String,
        delta: i64,
    },
    AdjustResource {
        gang: GangId,
        resource: String,
        delta: i64,
        reason: String,
    },
    Recruit {
        gang: GangId,
        name: String,
        /// Paid for with the pack's spending resource.
        buy: bool,
    },
    RenameFighter(FighterId, String),
    SetLeader(FighterId, bool),
    SetQuirks(FighterId, Vec<QuirkPick>),
    /// Gives a fighter an entry the gang buys (pays its cost).
    BuyQuirk(FighterId, QuirkPick),
    SetCounter {
        fighter: FighterId,
        counter: String,
        value: i64,
    },
    SetFighterNotes(FighterId, String),
    /// Rolls one of the checks a fighter's sheet offers; `option` is the
    /// way it is made (full auto), which may raise stress first.
    RollCheck {
        fighter: FighterId,
        check: String,
        option: Option<String>,
        /// The difficulty: steps along a ladder of dice for a tier check.
        modifier: i32,
    },
    /// Pushes a rolled pool: the fighter's stress rises.
    PushCheck(Box<crate::session::CheckRolled>),
    /// Keeps this many backups from now on (kept as the app's setting).
    SetBackupPolicy(crate::session::BackupPolicy),
    /// Opens the Merge window.
    OpenMerge,
    CloseMerge,
    /// Reads another copy of the campaign and shows the merge.
    LookAtMerge(PathBuf),
    /// Writes the merge looked at, as chosen, to a new file and opens it.
    WriteMerge(PathBuf),
    /// Opens the League window.
    OpenLeague,
    CloseLeague,
    /// Syncs with the league's server, conflicts settled as chosen.
    LeagueSync(Vec<Option<crate::campaign::merge::Choice>>),
    /// Asks the server for the members and their gangs.
    LeagueMembers,
    /// Joins a league with an invite, into a new campaign file, and opens it.
    LeagueJoin {
        invite: PathBuf,
        to: PathBuf,
    },
    /// Opens the Bundles window.
    OpenBundles,
    CloseBundles,
    /// Writes a gang (by name), or every gang, to a bundle file.
    ExportBundle {
        gang: Option<String>,
        /// The whole campaign, with its log and photos.
        whole: bool,
        to: PathBuf,
        replace: bool,
    },
    /// Makes a new campaign file from a whole campaign's bundle and opens it.
    OpenWholeBundle {
        file: PathBuf,
        to: PathBuf,
    },
    /// Brings a bundle file's gangs in, each gang named in `renamed` (its
    /// name in the bundle → the name it gets) under its new name.
    ImportBundle {
        file: PathBuf,
        renamed: std::collections::BTreeMap<String, String>,
    },
    /// Opens the Backups window.
    OpenBackups,
    /// Makes a backup of the campaign now.
    MakeBackup,
    /// Closes the Backups window.
    CloseBackups,
    /// Restores a backup as a new file.
    RestoreBackup {
        backup: PathBuf,
        to: PathBuf,
    },
    /// Opens the editor of the group's own data.
    OpenHouseEditor,
    /// Keeps the group's data in the campaign; with `play`, the parties
    /// that play its base play it.
    KeepHouseDraft {
        draft: Box<crate::rules::Draft>,
        play: bool,
    },
    /// Writes the group's data to a file of theirs.
    SaveHouseDraft {
        text: String,
        path: PathBuf,
        replace: bool,
    },
    /// Chooses an option of a campaign setting.
    SetSetting {
        setting: String,
        option: String,
    },
    /// A fighter's own base value of a stat.
    SetBaseStat {
        fighter: FighterId,
        stat: String,
        value: i64,
    },
    Dismiss(FighterId),
    Undo,
    Redo,
    ShowLog(bool),
    ShowScreen(Screen),
    /// A battle report and the seed of the app's rolls.
    RecordBattle(Box<BattleReport>, u64),
    AskAction(GangId),
    /// Opens the ransom dialog for a captive.
    AskRansom(FighterId),
    Ransom {
        fighter: FighterId,
        resource: String,
        amount: i64,
    },
    Release(FighterId),
    RemoveLasting {
        effect: crate::campaign::EffectId,
        reason: String,
    },
    SetCampaignRuleset(String),
    /// Takes a house pack out of the campaign.
    DropHousePack(String),
    /// Roll the next scenario for two gangs among those their arc allows.
    RollScenario {
        a: GangId,
        b: GangId,
    },
    /// Open a demo campaign at this path, making it first if need be: the
    /// default demo, or the one played with this ruleset.
    OpenDemo(std::path::PathBuf, Option<String>),
    /// A gang that qualifies for several titles keeps this one.
    ChooseTitle {
        gang: GangId,
        title: String,
    },
    /// Opens the print window for a gang (or every gang), cards or roster.
    OpenPrint {
        gang: Option<GangId>,
        roster: bool,
    },
    ClosePrint,
    /// Fills a typed file field from the desktop's file dialog (or says
    /// the path is to be typed, where the desktop has none).
    ChooseFile(FileField),
    /// Writes the print window's PDF; `replace` once the player agreed to
    /// replace a file already there.
    SavePdf {
        path: PathBuf,
        replace: bool,
    },
    /// Opens a file with the desktop's viewer.
    OpenFile(PathBuf),
    /// Sets (or with `None` removes) a fighter's photo from a file.
    SetPhoto(FighterId, Option<PathBuf>),
    CloseArc(usize, String),
    /// Renders a chronicle made by the chronicle screen and writes it, in
    /// the background.
    WriteExport {
        path: PathBuf,
        replace: bool,
        format: crate::export::Format,
        campaign: String,
        scope: String,
        chronicle: Box<crate::campaign::chronicle::Chronicle>,
    },
    TakeAction {
        gang: GangId,
        action: String,
        target: Option<GangId>,
        choice: Option<String>,
    },
    /// Asks a new campaign's name.
    AskNewCampaign,
    /// The new campaign's name is given: ask where to keep it.
    NameNewCampaign(String),
    /// Opens a file dialog (native, or the typed path where there is none).
    AskPath(PathPurpose),
    UsePath(PathPurpose, PathBuf),
    /// Closes the question whether to replace a file already there.
    CloseReplace,
    /// Closes the campaign and shows the welcome screen.
    CloseCampaign,
    /// Leaves the welcome screen for the campaign open behind it.
    LeaveWelcome,
    /// Closes the window.
    Quit,
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
    pub const ALL: [Command; 12] = [
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
            Command::NewCampaign => Action::AskNewCampaign,
            Command::OpenCampaign => Action::AskPath(PathPurpose::Open),
            Command::SaveCampaignAs => Action::AskPath(PathPurpose::SaveAs),
            Command::CloseCampaign => Action::CloseCampaign,
            Command::Quit => Action::Quit,
            Command::Undo => Action::Undo,
            Command::Redo => Action::Redo,
            Command::Show(screen) => Action::ShowScreen(screen),
            Command::CampaignLog => Action::ShowLog(!log_shown),
        }
    }
}

/// The commands whose shortcuts were pressed, consumed so that no widget
/// sees them as well.
pub fn pressed(input: &mut InputState) -> Vec<Command> {
    let mut found = Vec::new();
    // egui lets a shortcut without Shift match a press with it, so Ctrl+Z
    // would swallow Ctrl+Shift+Z: the ones with Shift go first.
    for shift in [true, false] {
        for command in Command::ALL {
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
