//! The arbitrator's table on the Season screen: the cycle's pairings
//! (made here by whoever runs the campaign), the challenges (issued,
//! to answer, accepted and waiting for their record, lapsed), and in a
//! league who has synced when and the league's changes left out here,
//! each with why. Everything in the game's words.

use egui::{RichText, Ui};

use crate::campaign::season::challenges::ChallengeStatus;
use crate::rules::{ChallengeStake, PairingMethod};
use crate::session::{
    ChallengesView, GangSummary, HoldingsView, LeagueTable, PairingsView, SeasonTable,
};
use crate::ui::base::action::{Action, SeasonAction};
use crate::ui::base::widgets::{edit_hint, labelled_combo};

/// A challenge being written: who issues it, to whom, over what.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ChallengeForm {
    pub challenger: String,
    pub defender: String,
    /// The holding at stake, by name.
    pub stake: Option<String>,
}

/// The table's parts the game has, under the cycle and standings.
pub fn table_ui(
    ui: &mut Ui,
    table: &SeasonTable,
    holdings: &HoldingsView,
    gangs: &[GangSummary],
    form: &mut ChallengeForm,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    if let Some(pairings) = &table.pairings {
        action = pairings_ui(ui, pairings, read_only).or(action);
        ui.separator();
    }
    if let Some(challenges) = &table.challenges {
        action = challenges_ui(ui, challenges, read_only).or(action);
        action = issue_ui(ui, challenges, holdings, gangs, form, read_only).or(action);
        ui.separator();
    }
    if let Some(league) = &table.league {
        league_ui(ui, league);
        ui.separator();
    }
    action
}

/// The cycle's pairings, played and not, or the button that makes them.
fn pairings_ui(ui: &mut Ui, view: &PairingsView, read_only: Option<&str>) -> Option<Action> {
    let mut action = None;
    ui.label(RichText::new(format!("{} of {}", view.label, view.said)).strong())
        .on_hover_text(&view.text);
    let Some(made) = &view.made else {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("Not made yet for {}.", view.said));
            for method in &view.methods {
                let button = ui
                    .add_enabled(
                        read_only.is_none(),
                        egui::Button::new(format!("Make them: {}", method_said(*method))),
                    )
                    .on_hover_text("One change, for every gang; Ctrl+Z takes it back")
                    .on_disabled_hover_text(edit_hint(read_only));
                if button.clicked() {
                    action = Some(Action::Season(SeasonAction::MakePairings(Some(*method))));
                }
            }
        });
        return action;
    };
    egui::Grid::new("pairings").striped(true).show(ui, |ui| {
        for pair in &made.pairs {
            let said = format!("{} against {}", pair.first, pair.second);
            ui.label(&said);
            if pair.played.is_empty() {
                ui.weak("not played yet");
                let record = ui
                    .add_enabled(read_only.is_none(), egui::Button::new("Record it"))
                    .on_hover_text("Its two sides on the Record screen")
                    .on_disabled_hover_text(edit_hint(read_only));
                record.widget_info(|| {
                    egui::WidgetInfo::labeled(
                        egui::Role::Button,
                        read_only.is_none(),
                        format!("Record {said}"),
                    )
                });
                if record.clicked() {
                    action = Some(Action::Season(SeasonAction::RecordPair(
                        pair.first_id,
                        pair.second_id,
                    )));
                }
            } else {
                let records: Vec<String> = pair.played.iter().map(|b| format!("#{b}")).collect();
                ui.label(format!("played ({})", records.join(", ")));
            }
            ui.end_row();
        }
    });
    if let Some(out) = &made.sits_out {
        ui.weak(format!("{out} sits out {}.", view.said));
    }
    ui.weak(format!("Made {}.", method_said(made.method)));
    action
}

/// How pairings are made, as a player reads it.
fn method_said(method: PairingMethod) -> &'static str {
    match method {
        PairingMethod::RoundRobin => "each against each over the season",
        PairingMethod::Standings => "by the standings",
        PairingMethod::Random => "drawn at random",
    }
}

/// Every challenge, with the answer or record each still waits for here.
fn challenges_ui(ui: &mut Ui, view: &ChallengesView, read_only: Option<&str>) -> Option<Action> {
    let mut action = None;
    ui.label(RichText::new(format!("{}s", view.label)).strong())
        .on_hover_text(&view.text);
    if view.lines.is_empty() {
        ui.weak(format!("No {} issued yet.", view.label));
    }
    let able = read_only.is_none();
    for line in &view.lines {
        ui.horizontal_wrapped(|ui| {
            let mut text = RichText::new(&line.said);
            if line.to_answer {
                text = text.strong();
            }
            ui.label(text);
            if line.to_answer {
                for (accept, word) in [(true, "Accept"), (false, "Decline")] {
                    let button = ui
                        .add_enabled(able, egui::Button::new(word))
                        .on_hover_text(format!("{word} #{} for {}", line.id, line.defender))
                        .on_disabled_hover_text(edit_hint(read_only));
                    button.widget_info(|| {
                        egui::WidgetInfo::labeled(
                            egui::Role::Button,
                            able,
                            format!("{word} #{}", line.id),
                        )
                    });
                    if button.clicked() {
                        action = Some(Action::Season(SeasonAction::AnswerChallenge {
                            id: line.id,
                            accept,
                        }));
                    }
                }
            }
            if line.status == ChallengeStatus::Accepted && line.played.is_none() {
                let button = ui
                    .add_enabled(able, egui::Button::new(format!("Record #{}", line.id)))
                    .on_hover_text("Its sides and stake on the Record screen")
                    .on_disabled_hover_text(edit_hint(read_only));
                if button.clicked() {
                    action = Some(Action::Season(SeasonAction::RecordChallenge(line.id)));
                }
            }
        });
    }
    action
}

/// Issuing a challenge from one of this laptop's gangs.
fn issue_ui(
    ui: &mut Ui,
    view: &ChallengesView,
    holdings: &HoldingsView,
    gangs: &[GangSummary],
    form: &mut ChallengeForm,
    read_only: Option<&str>,
) -> Option<Action> {
    if view.yours.is_empty() {
        return None;
    }
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        labelled_combo(
            ui,
            "Challenger",
            {
                let shown = form.challenger.clone();
                move |c| c.selected_text(shown)
            },
            |ui| {
                for name in &view.yours {
                    ui.selectable_value(&mut form.challenger, name.clone(), name);
                }
            },
        );
        labelled_combo(
            ui,
            "Challenged",
            {
                let shown = form.defender.clone();
                move |c| c.selected_text(shown)
            },
            |ui| {
                for gang in gangs.iter().filter(|g| g.name != form.challenger) {
                    ui.selectable_value(&mut form.defender, gang.name.clone(), &gang.name);
                }
            },
        );
        if view.stake != ChallengeStake::None {
            let word = crate::text::capitalised(&view.holding_word);
            labelled_combo(
                ui,
                &format!("{word} at stake"),
                {
                    let none = if view.stake == ChallengeStake::Required {
                        "Choose…"
                    } else {
                        "none"
                    };
                    let shown = form.stake.clone().unwrap_or_else(|| none.to_owned());
                    move |c| c.selected_text(shown)
                },
                |ui| {
                    if view.stake == ChallengeStake::Optional {
                        ui.selectable_value(&mut form.stake, None, "none");
                    }
                    for holding in &holdings.holdings {
                        ui.selectable_value(
                            &mut form.stake,
                            Some(holding.name.clone()),
                            &holding.name,
                        );
                    }
                },
            );
        }
        let ready = !form.challenger.is_empty()
            && !form.defender.is_empty()
            && (view.stake != ChallengeStake::Required || form.stake.is_some());
        let issue = ui
            .add_enabled(
                read_only.is_none() && ready,
                egui::Button::new(format!("Issue the {}", view.label)),
            )
            .on_hover_text("One change: its author takes it back with Ctrl+Z until it is answered")
            .on_disabled_hover_text(if read_only.is_some() {
                edit_hint(read_only)
            } else {
                format!(
                    "Choose who challenges whom{}",
                    if view.stake == ChallengeStake::Required {
                        ", and what is at stake"
                    } else {
                        ""
                    }
                )
            });
        if issue.clicked() {
            action = Some(Action::Season(SeasonAction::IssueChallenge {
                challenger: form.challenger.clone(),
                defender: form.defender.clone(),
                stake: form.stake.clone(),
            }));
        }
    });
    action
}

/// Who in the league has synced when, and what was left out here.
fn league_ui(ui: &mut Ui, league: &LeagueTable) {
    ui.label(RichText::new("The league's members").strong());
    let heard = league.last_sync.as_deref().map_or_else(
        || "as the server said at this laptop's last sync".to_owned(),
        |at| {
            format!(
                "as the server said at this laptop's last sync, {}",
                crate::ui::base::widgets::local_time(at)
            )
        },
    );
    ui.weak(heard);
    if let Some(offline) = &league.offline {
        ui.label(
            RichText::new(format!("The server could not be asked: {offline}"))
                .color(ui.visuals().warn_fg_color),
        );
    }
    egui::Grid::new("league-members")
        .striped(true)
        .show(ui, |ui| {
            for member in &league.members {
                let mut who = member.login.clone();
                if member.organiser {
                    who.push_str(" (organiser)");
                }
                ui.label(who);
                ui.label(member.gangs.join(", "));
                match &member.synced_at {
                    Some(at) => ui.label(format!(
                        "synced {}",
                        crate::ui::base::widgets::local_time(at)
                    )),
                    None => {
                        ui.label(RichText::new("not synced yet").color(ui.visuals().warn_fg_color))
                    }
                };
                match member.behind {
                    Some(0) => ui.weak("up to date"),
                    Some(n) => ui.label(format!("{n} changes behind")),
                    None => ui.weak(""),
                };
                ui.end_row();
            }
        });
    if !league.left_out.is_empty() {
        ui.label(RichText::new("Left out here, as on every laptop").strong());
        for left in &league.left_out {
            let by = left
                .by
                .as_deref()
                .map_or(String::new(), |b| format!(" by {b}"));
            ui.label(format!("#{}{by}: {}", left.change, left.said));
        }
    }
}
