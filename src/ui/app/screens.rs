//! The central area and the windows over it: the gang list, the screen
//! chosen (roster, battle, titles, chronicle), the fighter editor, and the
//! open dialogs.
//!
//! Each view draws from the app's cached state and returns what the
//! player asked for; none reads the store each frame or changes the
//! campaign itself.

use egui::{Context, RichText, Ui};

use crate::campaign::FighterId;
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::{Action, Screen};
use crate::ui::base::action::{CampaignAction, OutputAction, PathPurpose};
use crate::ui::base::widgets::{Nouns, ruleset_ui};
use crate::ui::views::chronicle::chronicle_ui;
use crate::ui::views::dialogs::{
    action_dialog_ui, ransom_dialog_ui, replace_prompt_ui, resource_dialog_ui,
};
use crate::ui::views::fighter_editor::fighter_editor_ui;
use crate::ui::views::gang_list::{found_gang_ui, gang_list_ui};
use crate::ui::views::log::log_ui;
use crate::ui::views::post_battle::post_battle_ui;
use crate::ui::views::print_dialog::print_dialog_ui;
use crate::ui::views::roster::roster_ui;
use crate::ui::views::titles::{title_choice_ui, titles_ui};

impl RapsheetApp {
    /// The first screen of a first run, and what closing a campaign leaves:
    /// the campaign open behind it (if one is), new, open, the recent
    /// campaigns and a demo of every game.
    pub(in crate::ui) fn welcome_ui(&self, ui: &mut Ui, actions: &mut Vec<Action>) {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(32.0);
                ui.heading("Welcome to Rapsheet");
                ui.label(
                    "Campaigns for tabletop games: gangs, fighters and what every record brings.",
                );
                if let Some(err) = &self.open_error {
                    ui.label(
                        RichText::new(format!("Could not open the campaign: {err}"))
                            .color(ui.visuals().error_fg_color),
                    );
                }
                ui.add_space(12.0);
                if let Some(info) = self.session.as_ref().and(self.state.info.as_ref())
                    && ui
                        .button(format!("Go to {}", info.name))
                        .on_hover_text("The campaign open now")
                        .clicked()
                {
                    actions.push(Action::Campaign(CampaignAction::LeaveWelcome));
                }
                if ui.button("New campaign…").clicked() {
                    actions.push(Action::Campaign(CampaignAction::AskNew));
                }
                if ui.button("Open campaign…").clicked() {
                    actions.push(Action::Campaign(CampaignAction::AskPath(PathPurpose::Open)));
                }
                self.recent_ui(ui, actions);
                self.demos_ui(ui, actions);
            });
        });
    }

    /// The campaigns opened before, newest first, but the one open now.
    fn recent_ui(&self, ui: &mut Ui, actions: &mut Vec<Action>) {
        let recent = self.other_recent();
        if recent.is_empty() {
            return;
        }
        ui.add_space(12.0);
        ui.label(RichText::new("Recent campaigns").strong());
        for path in recent {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            if ui
                .button(format!("Open {name}"))
                .on_hover_text(path.display().to_string())
                .clicked()
            {
                actions.push(Action::Campaign(CampaignAction::UsePath(
                    PathPurpose::Open,
                    path.clone(),
                )));
            }
        }
    }

    /// A demo campaign of each game the app has one for, made the first
    /// time it is opened.
    fn demos_ui(&self, ui: &mut Ui, actions: &mut Vec<Action>) {
        ui.add_space(12.0);
        ui.label(RichText::new("Demo campaigns, to try a game on").strong());
        for (ruleset, name) in &self.demos {
            let Some(path) = crate::paths::demo_campaign(ruleset) else {
                continue;
            };
            if ui
                .button(format!("{name} demo"))
                .on_hover_text("Two demo gangs to try the game on, made the first time")
                .clicked()
            {
                actions.push(Action::Campaign(CampaignAction::OpenDemo(
                    path,
                    Some(ruleset.clone()),
                )));
            }
        }
    }

    /// The open campaign: its gangs on the left, a title choice waiting
    /// over every screen, the fighter editor on the right of the roster, and
    /// the screen chosen in the middle.
    pub(in crate::ui) fn campaign_ui(
        &mut self,
        ui: &mut Ui,
        read_only: Option<&str>,
        actions: &mut Vec<Action>,
    ) {
        if self.session.is_none() {
            return;
        }
        self.judge_gangs_near_view();
        self.gangs_panel_ui(ui, read_only, actions);
        self.title_choice_panel_ui(ui, read_only, actions);
        match self.screen {
            Screen::Roster => {
                self.fighter_panel_ui(ui, read_only, actions);
                self.holdings_panel_ui(ui);
                self.roster_screen_ui(ui, read_only, actions);
            }
            Screen::Battle => self.record_screen_ui(ui, read_only, actions),
            Screen::Chronicle => self.chronicle_screen_ui(ui, read_only, actions),
            Screen::Titles => self.titles_screen_ui(ui, read_only, actions),
            Screen::Season => self.season_screen_ui(ui, read_only, actions),
        }
    }

    /// The campaign's name and default ruleset, as the screens show them.
    fn campaign_names(&self) -> (String, String) {
        self.state
            .info
            .as_ref()
            .map(|i| (i.name.clone(), i.default_ruleset.clone()))
            .unwrap_or_else(|| ("Campaign".into(), String::new()))
    }

    /// Works out the recruiting marks of the gangs the list shows now or
    /// soon, where not known since the last change.
    pub(super) fn judge_gangs_near_view(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        let rows = self
            .campaign
            .found_form
            .rows_near_view(&self.state.gangs, self.state.batch());
        if let Err(err) = self.state.judge_gangs(session, &rows) {
            self.error(err);
        }
    }

    /// The gangs on the left, with founding a gang, the ruleset, the
    /// group's data and the settings kept in view below the list.
    fn gangs_panel_ui(&mut self, ui: &mut Ui, read_only: Option<&str>, actions: &mut Vec<Action>) {
        let Some(session) = &self.session else {
            return;
        };
        let (campaign, default_ruleset) = self.campaign_names();
        let state = &self.state;
        egui::Panel::left("gangs")
            .resizable(true)
            .default_size(220.0)
            .show(ui, |ui| {
                let nouns = Nouns::of(session.pack(&default_ruleset).ok());
                let words = session.pack(&default_ruleset).map(|p| &p.words).ok();
                let founding = match (&state.season, words) {
                    (Some(season), Some(words)) => crate::ui::views::gang_list::Founding {
                        factions: &season.factions,
                        faction_word: &words.faction,
                        starting: &season.starting,
                        holding_word: &words.holding,
                    },
                    _ => crate::ui::views::gang_list::Founding::default(),
                };
                // Founding stays in view below the list, however long it is.
                egui::Panel::bottom("found-gang")
                    .resizable(false)
                    .show(ui, |ui| {
                        ui.add_space(4.0);
                        if let Some(a) = found_gang_ui(
                            ui,
                            &state.rulesets,
                            &default_ruleset,
                            &mut self.campaign.found_form,
                            nouns,
                            founding,
                            read_only,
                        ) {
                            actions.push(a);
                        }
                        ui.separator();
                        ruleset_ui(ui, &state.rulesets, &default_ruleset, read_only, actions);
                        crate::ui::base::widgets::house_rules_ui(
                            ui,
                            &state.house,
                            read_only,
                            actions,
                        );
                        crate::ui::base::widgets::settings_ui(
                            ui,
                            &state.settings,
                            read_only,
                            actions,
                        );
                    });
                if let Some(a) = gang_list_ui(
                    ui,
                    &campaign,
                    &state.gangs,
                    state.batch(),
                    state.selected_gang,
                    &mut self.campaign.found_form,
                    nouns,
                ) {
                    actions.push(a);
                }
            });
    }

    /// A choice between titles waits for the gang, over every screen but
    /// the titles' own.
    fn title_choice_panel_ui(
        &self,
        ui: &mut Ui,
        read_only: Option<&str>,
        actions: &mut Vec<Action>,
    ) {
        let choices = &self.state.title_choices;
        if !choices.is_empty() && self.screen != Screen::Titles {
            egui::Panel::top("title-choice").show(ui, |ui| {
                if let Some(a) = title_choice_ui(ui, choices, read_only) {
                    actions.push(a);
                }
            });
        }
    }

    /// Who holds each holding, beside the roster, where the game has
    /// holdings (given and taken on the Season screen).
    fn holdings_panel_ui(&self, ui: &mut Ui) {
        let Some(view) = self
            .state
            .season
            .as_ref()
            .filter(|s| !s.holdings.holdings.is_empty())
        else {
            return;
        };
        egui::Panel::right("holdings")
            .resizable(true)
            .default_size(200.0)
            .show(ui, |ui| {
                ui.label(RichText::new(crate::text::capitalised(&view.holdings.words)).strong());
                egui::ScrollArea::vertical()
                    .id_salt("holdings-beside-roster")
                    .show(ui, |ui| {
                        for h in &view.holdings.holdings {
                            ui.label(RichText::new(&h.name).strong())
                                .on_hover_text(h.gives.join("\n"));
                            ui.label(
                                RichText::new(h.holder.as_deref().unwrap_or("unclaimed")).weak(),
                            );
                        }
                    });
            });
    }

    /// The chosen fighter's editor, beside the roster.
    fn fighter_panel_ui(
        &mut self,
        ui: &mut Ui,
        read_only: Option<&str>,
        actions: &mut Vec<Action>,
    ) {
        let (Some(session), Some(view), Some(fighter)) = (
            &self.session,
            &self.state.gang_view,
            self.state.selected_fighter,
        ) else {
            return;
        };
        let pack = session.pack(&view.ruleset).ok();
        let (Some(pack), Some(fv)) = (pack, view.fighters.iter().find(|f| f.id == fighter)) else {
            return;
        };
        // The roster beside it keeps at least half the room left.
        let most = (ui.available_width() * 0.5).max(280.0);
        egui::Panel::right("fighter")
            .resizable(true)
            .default_size(360.0_f32.min(most))
            .max_size(most)
            .show(ui, |ui| {
                // Each fighter's editor scrolls on its own: the next one
                // shown starts at its top.
                egui::ScrollArea::both()
                    .id_salt(("fighter-editor", fighter))
                    .show(ui, |ui| {
                        if let Some(a) = fighter_editor_ui(
                            ui,
                            &mut self.campaign.editor,
                            fv,
                            pack,
                            read_only,
                            &mut self.dice,
                        ) {
                            actions.push(a);
                        }
                    });
            });
    }

    /// The record screen: the form of a battle or session, played by the
    /// pack of its first gang (or the campaign's).
    fn record_screen_ui(
        &mut self,
        ui: &mut Ui,
        read_only: Option<&str>,
        actions: &mut Vec<Action>,
    ) {
        let Some(session) = &self.session else {
            return;
        };
        let state = &self.state;
        let pack = self
            .campaign
            .battle_form
            .gangs
            .iter()
            .flatten()
            .next()
            .and_then(|id| state.gangs.iter().find(|g| g.id == *id))
            .map(|g| g.ruleset.clone())
            .or_else(|| state.info.as_ref().map(|i| i.default_ruleset.clone()))
            .and_then(|r| session.pack(&r).ok());
        egui::CentralPanel::default().show(ui, |ui| {
            let area = ui.max_rect();
            let form = &mut self.campaign.battle_form;
            // The form scrolls above a footer of the height it had last
            // frame, so Commit and the buttons beside it stay put, and
            // come after the form in Tab order.
            let footer = form.footer.unwrap_or(egui::Rect::NOTHING);
            let height = form
                .footer
                .map_or(48.0, |r| r.height() + ui.spacing().item_spacing.y);
            let above = (ui.available_height() - height).max(120.0);
            let shown = egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .max_height(above)
                .show(ui, |ui| {
                    if let Some(a) = post_battle_ui(
                        ui,
                        form,
                        &state.battle_data,
                        pack,
                        state
                            .season
                            .as_ref()
                            .map_or(&[][..], |s| s.holdings.holdings.as_slice()),
                        read_only,
                    ) {
                        actions.push(a);
                    }
                    form.focus.keep_in_view(ui, footer);
                });
            let drawn = ui
                .scope(|ui| {
                    ui.separator();
                    if let Some(a) = crate::ui::views::record_footer::record_footer_ui(
                        ui,
                        form,
                        &state.battle_data,
                        pack,
                        read_only,
                    ) {
                        actions.push(a);
                    }
                })
                .response
                .rect;
            if form.footer.map(|r| r.height()) != Some(drawn.height()) {
                // A line said or gone: the frame is laid out again, so
                // the buttons never show out of place.
                ui.ctx().request_discard("the record footer changed height");
            }
            form.footer = Some(drawn);
            // Ctrl+Enter commits only a preview that is in view.
            form.preview_in_view = form
                .preview_top
                .is_some_and(|top| shown.inner_rect.intersects(top));
            form.focus.after_form(ui, area);
        });
    }

    /// The chronicle screen, with the campaign's resources by name.
    fn chronicle_screen_ui(
        &mut self,
        ui: &mut Ui,
        read_only: Option<&str>,
        actions: &mut Vec<Action>,
    ) {
        let Some(session) = &self.session else {
            return;
        };
        let (campaign, default_ruleset) = self.campaign_names();
        let resources: Vec<(String, String)> = session
            .pack(&default_ruleset)
            .map(|p| {
                p.resources
                    .iter()
                    .map(|r| (r.id.clone(), r.label.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let state = &mut self.state;
        egui::CentralPanel::default().show(ui, |ui| {
            let batch = state.batch();
            match state.chronicle(session, self.campaign.chronicle_view.arc) {
                Ok((all, shown)) => {
                    if let Some(a) = chronicle_ui(
                        ui,
                        &mut self.campaign.chronicle_view,
                        batch,
                        all,
                        shown,
                        &campaign,
                        &resources,
                        read_only,
                    ) {
                        actions.push(a);
                    }
                }
                Err(err) => {
                    ui.label(err);
                }
            }
        });
    }

    /// The Season screen: the cycle, the standings, the holdings.
    fn season_screen_ui(
        &mut self,
        ui: &mut Ui,
        read_only: Option<&str>,
        actions: &mut Vec<Action>,
    ) {
        let state = &self.state;
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| match &state.season {
                Some(view) => {
                    if let Some(a) = crate::ui::views::season::season_ui(
                        ui,
                        view,
                        state.table.as_ref(),
                        &state.gangs,
                        &mut self.campaign.season_form,
                        state.batch(),
                        read_only,
                    ) {
                        actions.push(a);
                    }
                }
                None => {
                    ui.weak("The season could not be read.");
                }
            });
        });
    }

    /// The titles screen.
    fn titles_screen_ui(
        &mut self,
        ui: &mut Ui,
        read_only: Option<&str>,
        actions: &mut Vec<Action>,
    ) {
        let Some(session) = &self.session else {
            return;
        };
        let state = &mut self.state;
        egui::CentralPanel::default().show(ui, |ui| match state.titles(session) {
            Some(Ok(view)) => {
                if let Some(a) = titles_ui(ui, view, read_only) {
                    actions.push(a);
                }
            }
            Some(Err(err)) => {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("The titles could not be read: {err}"),
                );
            }
            None => {
                ui.weak("The campaign could not be read.");
            }
        });
    }

    /// The roster of the chosen gang, or how to begin where there is none.
    fn roster_screen_ui(
        &mut self,
        ui: &mut Ui,
        read_only: Option<&str>,
        actions: &mut Vec<Action>,
    ) {
        let Some(session) = &self.session else {
            return;
        };
        let (_, default_ruleset) = self.campaign_names();
        let state = &self.state;
        egui::CentralPanel::default().show(ui, |ui| match &state.gang_view {
            Some(view) => {
                let pack = session.pack(&view.ruleset).ok();
                // A roster wider than the space beside the editor scrolls
                // sideways instead of losing its columns and buttons, with
                // a bar always in sight to say so.
                ui.spacing_mut().scroll = egui::style::ScrollStyle::thin();
                // Its sentences wrap at the width in sight, not the table's.
                let visible = ui.available_width();
                let shown = egui::ScrollArea::horizontal()
                    .id_salt("roster-across")
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        ui.set_min_width(crate::ui::views::roster::min_width(ui, view));
                        roster_ui(
                            ui,
                            view,
                            pack,
                            state.selected_fighter,
                            &mut self.campaign.roster_forms,
                            read_only,
                            visible,
                        )
                    });
                if let Some(a) = shown.inner {
                    actions.push(a);
                }
            }
            None => {
                let nouns = Nouns::of(session.pack(&default_ruleset).ok());
                ui.weak(format!("Found a {} on the left to begin.", nouns.gang));
            }
        });
    }

    /// The dialogs and windows open over the screen.
    pub(in crate::ui) fn dialogs_ui(&mut self, ctx: &Context) -> Vec<Action> {
        let mut actions = Vec::new();
        if let Some(action) =
            crate::ui::views::backups::backups_ui(ctx, &mut self.campaign.backups_window)
        {
            actions.push(action);
        }
        if let Some(action) =
            crate::ui::views::merge::merge_ui(ctx, &mut self.campaign.merge_window)
        {
            actions.push(action);
        }
        let busy = self.league_progress();
        let syncing = self.league_syncing();
        if let Some(action) = crate::ui::views::league::league_ui(
            ctx,
            &mut self.campaign.league_window,
            self.league_status.as_ref(),
            busy.as_deref(),
            syncing,
        ) {
            actions.push(action);
        }
        let selected = self.state.gang_view.as_ref().map(|v| v.name.clone());
        if let Some(action) = crate::ui::views::bundles::bundles_ui(
            ctx,
            &mut self.campaign.bundles_window,
            selected.as_deref(),
        ) {
            actions.push(action);
        }
        if let Some(session) = &self.session
            && let Some(action) = crate::ui::views::house_editor::house_editor_ui(
                ctx,
                &mut self.campaign.house_editor,
                session,
            )
        {
            actions.push(action);
        }
        let mut close_ransom = false;
        let words = self.words();
        let state = &self.state;
        let dialogs = &mut self.dialogs;
        if let Some(dialog) = &mut dialogs.resource {
            let label = state
                .gang_view
                .as_ref()
                .and_then(|v| v.resources.iter().find(|r| r.id == dialog.resource))
                .map(|r| (r.label.clone(), r.amount));
            match resource_dialog_ui(ctx, dialog, label) {
                Some(Some(action)) => actions.push(action),
                Some(None) => dialogs.resource = None,
                None => {}
            }
        }
        if let Some(session) = &self.session {
            action_dialog_shown(ctx, &mut dialogs.action, state, session, &mut actions);
        }
        if let (Some(dialog), Some(session)) = (&mut dialogs.ransom, &self.session) {
            let captive = state
                .captive
                .as_ref()
                .filter(|c| c.fighter == dialog.fighter);
            if let Some(captive) = captive
                && let Some(pack) = session.pack(&captive.ruleset).ok()
            {
                match ransom_dialog_ui(ctx, dialog, pack, captive) {
                    Some(Some(action)) => actions.push(action),
                    Some(None) => {
                        dialogs.ransom = None;
                        close_ransom = true;
                    }
                    None => {}
                }
            }
        }
        if close_ransom {
            self.state.captive = None;
        }
        let state = &self.state;
        if let Some(dialog) = &mut dialogs.print {
            let fighters: Vec<(FighterId, String)> = dialog
                .request
                .gang
                .and_then(|g| state.battle_data.get(g))
                .map(|_| {
                    state
                        .gang_view
                        .as_ref()
                        .filter(|v| Some(v.id) == dialog.request.gang)
                        .map(|v| v.fighters.iter().map(|f| (f.id, f.name.clone())).collect())
                        .unwrap_or_default()
                })
                .unwrap_or_default();
            if let Some(action) = print_dialog_ui(ctx, dialog, &fighters, &words) {
                actions.push(action);
            }
        }
        if let Some((path, action)) = &dialogs.replace {
            match replace_prompt_ui(ctx, path) {
                Some(true) => {
                    actions.push((**action).clone());
                    actions.push(Action::Output(OutputAction::CloseReplace));
                }
                Some(false) => actions.push(Action::Output(OutputAction::CloseReplace)),
                None => {}
            }
        }
        if let Some(dialog) = &mut dialogs.new_campaign {
            match dialog.ui(ctx) {
                Some(Some(action)) => actions.push(action),
                Some(None) => dialogs.new_campaign = None,
                None => {}
            }
        }
        if let Some(dialog) = &mut dialogs.path {
            match dialog.ui(ctx) {
                Some(Some(action)) => actions.push(action),
                Some(None) => dialogs.path = None,
                None => {}
            }
        }
        if self.show_log
            && let Some(session) = &self.session
            && let Some(action) = log_ui(ctx, &mut self.campaign.log_view, session, state.batch())
        {
            actions.push(action);
        }
        actions
    }
}

/// The resource action dialog, where one is open: the gang's resources as
/// its roster shows them, and the rivals read when it opened.
fn action_dialog_shown(
    ctx: &Context,
    open: &mut Option<crate::ui::views::dialogs::ActionDialog>,
    state: &crate::ui::base::state::ViewState,
    session: &crate::session::Session,
    actions: &mut Vec<Action>,
) {
    let Some(dialog) = open else {
        return;
    };
    let Some(gang) = state.gangs.iter().find(|g| g.id == dialog.gang) else {
        return;
    };
    let Ok(pack) = session.pack(&gang.ruleset) else {
        return;
    };
    let resources: Vec<(String, i64)> = state
        .gang_view
        .as_ref()
        .filter(|v| v.id == gang.id)
        .map(|v| {
            v.resources
                .iter()
                .map(|r| (r.label.clone(), r.amount))
                .collect()
        })
        .unwrap_or_default();
    // Lent to the dialog's drawing, and kept in it after.
    let rivals = std::mem::take(&mut dialog.others);
    let shown = action_dialog_ui(ctx, dialog, pack, &gang.name, &resources, &rivals);
    dialog.others = rivals;
    match shown {
        Some(Some(action)) => actions.push(action),
        Some(None) => *open = None,
        None => {}
    }
}
