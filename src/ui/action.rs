//! What a player can ask the app for: the screens, the actions views
//! return, and the keyboard shortcuts, each declared once here and read by
//! the menus, the tabs and the shortcut handler.

use std::path::PathBuf;

use egui::{Key, KeyboardShortcut, Modifiers};

use super::dialogs::PathPurpose;
use crate::campaign::battle::BattleReport;
use crate::campaign::{FighterId, GangId, QuirkPick};

const COMMAND_SHIFT: Modifiers = Modifiers::COMMAND.plus(Modifiers::SHIFT);

pub const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
pub const REDO: KeyboardShortcut = KeyboardShortcut::new(COMMAND_SHIFT, Key::Z);
pub const NEW_CAMPAIGN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
pub const OPEN_CAMPAIGN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
pub const SAVE_AS: KeyboardShortcut = KeyboardShortcut::new(COMMAND_SHIFT, Key::S);
pub const QUIT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Q);

/// The screens in the order of their tabs, with their names and keys.
pub const SCREENS: [(Screen, &str, KeyboardShortcut); 4] = [
    (
        Screen::Roster,
        "Roster",
        KeyboardShortcut::new(Modifiers::COMMAND, Key::Num1),
    ),
    (
        Screen::Battle,
        "Record battle",
        KeyboardShortcut::new(Modifiers::COMMAND, Key::Num2),
    ),
    (
        Screen::Titles,
        "Titles",
        KeyboardShortcut::new(Modifiers::COMMAND, Key::Num3),
    ),
    (
        Screen::Chronicle,
        "Chronicle",
        KeyboardShortcut::new(Modifiers::COMMAND, Key::Num4),
    ),
];

/// The shortcut that asks for each action (the ones that have one), most
/// modifiers first so that a longer chord is not taken for a shorter one.
pub fn shortcut_actions() -> Vec<(KeyboardShortcut, Action)> {
    let mut all = vec![
        (REDO, Action::Redo),
        (UNDO, Action::Undo),
        (SAVE_AS, Action::AskPath(PathPurpose::SaveAs)),
        (NEW_CAMPAIGN, Action::AskPath(PathPurpose::New)),
        (OPEN_CAMPAIGN, Action::AskPath(PathPurpose::Open)),
    ];
    all.extend(
        SCREENS
            .iter()
            .map(|(screen, _, keys)| (*keys, Action::ShowScreen(*screen))),
    );
    all
}

/// The screens of the central area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Screen {
    #[default]
    Roster,
    Battle,
    Titles,
    Chronicle,
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
    },
    RenameFighter(FighterId, String),
    SetLeader(FighterId, bool),
    SetQuirks(FighterId, Vec<QuirkPick>),
    SetCounter {
        fighter: FighterId,
        counter: String,
        value: i64,
    },
    SetFighterNotes(FighterId, String),
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
    /// Opens the print window for a gang (or every gang), cards or roster.
    OpenPrint {
        gang: Option<GangId>,
        roster: bool,
    },
    ClosePrint,
    AskPdfPath,
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
    AskPhoto(FighterId),
    CloseArc(usize, String),
    /// Writes an export made by the chronicle screen.
    /// Renders a chronicle and writes it, in the background.
    WriteExport {
        path: PathBuf,
        replace: bool,
        format: crate::export::Format,
        campaign: String,
        scope: String,
        chronicle: Box<crate::campaign::chronicle::Chronicle>,
    },
    AskExportPath,
    TakeAction {
        gang: GangId,
        action: String,
        target: Option<GangId>,
        choice: Option<String>,
    },
    /// Opens a file dialog (native, or the typed path where there is none).
    AskPath(PathPurpose),
    UsePath(PathPurpose, PathBuf),
    /// Closes the question whether to replace a file already there.
    CloseReplace,
}
