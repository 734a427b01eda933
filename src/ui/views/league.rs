//! The League window (File ▸ League…): a campaign shared through a
//! league's server. In a league: where the server is, what waits to be sent
//! and fetched, Sync, a conflict between the server's changes and this
//! laptop's side by side with a choice, and the members. Not in one: join
//! with an invite into a new campaign file.

use std::path::PathBuf;

use egui::{Context, RichText};

use crate::campaign::merge::Choice;
use crate::session::league::{LeagueStatus, MemberView, SyncOutcome};
use crate::ui::base::action::Action;
use crate::ui::base::action::{FileField, LeagueAction};
use crate::ui::base::widgets::wide_field;

/// What is typed, chosen and shown in the window.
#[derive(Default)]
pub struct LeagueWindow {
    pub invite_path: String,
    pub join_path: String,
    /// The last sync's outcome, and the choice for each of its conflicts.
    pub outcome: Option<SyncOutcome>,
    pub choices: Vec<Option<Choice>>,
    pub members: Option<Vec<MemberView>>,
    /// Why joining failed, shown under the button until the next try.
    pub join_error: Option<String>,
}

impl LeagueWindow {
    /// A sync's outcome shown: its conflicts unchosen.
    pub fn show(&mut self, outcome: SyncOutcome) {
        self.choices = match &outcome {
            SyncOutcome::Conflicts { conflicts } => vec![None; conflicts.len()],
            _ => Vec::new(),
        };
        self.outcome = Some(outcome);
    }
}

/// Draws the window; closing it drops its state. `status` is the league
/// as this laptop knows it (`None`: the campaign is in no league); `busy`,
/// the progress line of what the server is being asked, while it is:
/// nothing more is asked of it until that ends; `syncing`, whether that
/// is a sync, which the player may cancel.
pub fn league_ui(
    ctx: &Context,
    window: &mut Option<LeagueWindow>,
    status: Option<&LeagueStatus>,
    busy: Option<&str>,
    syncing: bool,
) -> Option<Action> {
    let state = window.as_mut()?;
    let mut open = true;
    let mut action = None;
    egui::Window::new("League")
        .open(&mut open)
        .default_width(680.0)
        .show(ctx, |ui| {
            if ui.button("Close the league window").clicked() {
                action = Some(Action::League(LeagueAction::Close));
            }
            // No spinner: it would draw every frame for the seconds a
            // server takes to answer; the line is drawn again as it changes.
            if let Some(busy) = busy {
                ui.horizontal(|ui| {
                    ui.label(busy);
                    if syncing
                        && ui
                            .button("Cancel the sync")
                            .on_hover_text("Stop waiting on the server: nothing is changed, every change stays on this laptop")
                            .clicked()
                    {
                        action = Some(Action::League(LeagueAction::CancelSync));
                    }
                });
            }
            let free = busy.is_none();
            let asked = match status {
                Some(status) => in_league_ui(ui, state, status, free),
                None => join_ui(ui, state, free),
            };
            if asked.is_some() {
                action = asked;
            }
        });
    if !open {
        *window = None;
    }
    action
}

/// What a control the server's work turns off says on hover.
const WAIT: &str = "Wait until the league's server has answered";

/// The league this campaign is in: status, Sync, the last outcome. With
/// `free` false the server is being asked already: Sync and the members
/// wait.
fn in_league_ui(
    ui: &mut egui::Ui,
    state: &mut LeagueWindow,
    status: &LeagueStatus,
    free: bool,
) -> Option<Action> {
    let mut action = None;
    ui.label(format!(
        "The league's server: {}, as {}",
        status.server, status.login
    ));
    ui.label(format!("Now: {}", status.short()));
    ui.label(match &status.last_sync {
        Some(at) => format!("Last sync: {}", crate::ui::base::widgets::local_time(at)),
        None => "Never synced".to_owned(),
    });
    ui.horizontal(|ui| {
        if ui
            .add_enabled(free, egui::Button::new("Sync now"))
            .on_hover_text("Fetch the league's new changes, make this laptop's again after them, and send them")
            .on_disabled_hover_text(WAIT)
            .clicked()
        {
            action = Some(Action::League(LeagueAction::Sync(Vec::new())));
        }
        if ui
            .add_enabled(free, egui::Button::new("Who is in the league"))
            .on_hover_text("The members and their gangs, as the server has them")
            .on_disabled_hover_text(WAIT)
            .clicked()
        {
            action = Some(Action::League(LeagueAction::Members));
        }
    });
    if let Some(outcome) = &state.outcome {
        ui.separator();
        if let Some(chosen) = outcome_ui(ui, outcome, &mut state.choices, free) {
            action = Some(Action::League(LeagueAction::Sync(chosen)));
        }
    }
    if let Some(members) = &state.members {
        ui.separator();
        for m in members {
            let role = if m.organiser { " (organiser)" } else { "" };
            let gangs = if m.gangs.is_empty() {
                "no gang".to_owned()
            } else {
                m.gangs.join(", ")
            };
            ui.label(format!("{}{role}: {gangs}", m.login));
        }
    }
    action
}

/// A sync's outcome; for conflicts, each side by side with its choice,
/// and the choices once all are made (and the server is `free`).
fn outcome_ui(
    ui: &mut egui::Ui,
    outcome: &SyncOutcome,
    choices: &mut [Option<Choice>],
    free: bool,
) -> Option<Vec<Option<Choice>>> {
    match outcome {
        SyncOutcome::Synced {
            left_out, new_keys, ..
        } => {
            ui.label(outcome.headline());
            for line in left_out {
                ui.label(
                    RichText::new(format!("Left out: {line}")).color(ui.visuals().warn_fg_color),
                );
            }
            for line in new_keys {
                ui.label(
                    RichText::new(format!("New key: {line}")).color(ui.visuals().warn_fg_color),
                );
            }
            None
        }
        SyncOutcome::Refused {
            number,
            change,
            reason,
            ..
        } => {
            ui.label(
                RichText::new(format!(
                    "The server refused change {number} “{change}”: {reason}. It stays on this laptop: take it back with Undo while it is your newest change (or `rapsheet undo --change {number}`), or ask the organiser."
                ))
                .color(ui.visuals().error_fg_color),
            );
            None
        }
        SyncOutcome::Offline { reason } => {
            ui.label(format!(
                "Offline: {reason}. Every change stays on this laptop."
            ));
            None
        }
        SyncOutcome::NoLongerFits { .. }
        | SyncOutcome::TooNew { .. }
        | SyncOutcome::HistoryChanged { .. }
        | SyncOutcome::Cancelled => {
            ui.label(RichText::new(outcome.headline()).color(ui.visuals().error_fg_color));
            None
        }
        SyncOutcome::Conflicts { conflicts } => {
            ui.label("The league's changes and this laptop's cannot all hold. Nothing was sent: choose each, then sync.");
            for (c, choice) in conflicts.iter().zip(choices.iter_mut()) {
                ui.group(|ui| {
                    ui.strong(format!("Conflict {}: {}", c.number, c.subject));
                    ui.columns(2, |cols| {
                        cols[0].label(RichText::new("The league's").strong());
                        for line in &c.ours {
                            cols[0].label(line);
                        }
                        cols[1].label(RichText::new("This laptop's").strong());
                        for line in &c.theirs {
                            cols[1].label(line);
                        }
                    });
                    ui.horizontal(|ui| {
                        ui.radio_value(choice, Some(Choice::Ours), "Keep the league's");
                        ui.radio_value(choice, Some(Choice::Theirs), "Keep this laptop's");
                    });
                });
            }
            let unchosen = choices.iter().filter(|c| c.is_none()).count();
            let sync = ui
                .add_enabled(
                    free && unchosen == 0,
                    egui::Button::new("Sync with these choices"),
                )
                .on_disabled_hover_text(if free {
                    "Choose each conflict first"
                } else {
                    WAIT
                });
            if unchosen > 0 {
                ui.label(match unchosen {
                    1 => "1 conflict still to choose".to_owned(),
                    n => format!("{n} conflicts still to choose"),
                });
            }
            sync.clicked().then(|| choices.to_vec())
        }
    }
}

/// Joining a league with an invite, into a new campaign file; with `free`
/// false a join is under way, and another waits.
fn join_ui(ui: &mut egui::Ui, state: &mut LeagueWindow, free: bool) -> Option<Action> {
    let mut action = None;
    ui.label("This campaign is in no league. Join one with the invite the organiser gave you: a new campaign file is made from the league's changes.");
    ui.weak("Starting a league and inviting its members are the organiser's tasks, done on the command line: rapsheet league init, then rapsheet league invite (rapsheet league --help says how).");
    // The paths take the window's width, less their labels and buttons.
    let room = ui.available_width() - 260.0;
    egui::Grid::new("league-join")
        .num_columns(3)
        .show(ui, |ui| {
            let label = ui.label("Invite file");
            wide_field(ui, &mut state.invite_path, room).labelled_by(label.id);
            if ui.button("Choose invite…").clicked() {
                action = Some(Action::ChooseFile(FileField::LeagueInvite));
            }
            ui.end_row();
            let label = ui.label("New campaign file");
            wide_field(ui, &mut state.join_path, room).labelled_by(label.id);
            if ui.button("Choose where…").clicked() {
                action = Some(Action::ChooseFile(FileField::LeagueJoinTo));
            }
            ui.end_row();
        });
    let ready = !state.invite_path.trim().is_empty() && !state.join_path.trim().is_empty();
    if ui
        .add_enabled(free && ready, egui::Button::new("Join the league"))
        .on_disabled_hover_text(if free {
            "Give the invite file and a new campaign file"
        } else {
            WAIT
        })
        .clicked()
    {
        state.join_error = None;
        action = Some(Action::League(LeagueAction::Join {
            invite: PathBuf::from(state.invite_path.trim()),
            to: PathBuf::from(state.join_path.trim()),
        }));
    }
    if let Some(err) = &state.join_error {
        ui.label(RichText::new(err).color(ui.visuals().error_fg_color));
    }
    action
}
