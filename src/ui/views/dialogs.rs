//! Small windows: a resource change with its reason, and the typed-path
//! file dialog used where the desktop offers no native one.

use std::path::{Path, PathBuf};

use egui::{Context, RichText};

use crate::campaign::GangId;
use crate::ui::base::action::Action;
use crate::ui::base::action::{CampaignAction, GangAction, PathPurpose};
use crate::ui::base::widgets::labelled_combo;

/// The typed-path dialog.
#[derive(Debug)]
pub struct PathDialog {
    purpose: PathPurpose,
    path: String,
    pub error: Option<String>,
}

impl PathDialog {
    /// `start` is the folder, or the file offered in it.
    pub fn new(purpose: PathPurpose, start: &Path) -> Self {
        Self {
            purpose,
            path: start.display().to_string(),
            error: None,
        }
    }

    /// `Some(Some(action))` to go ahead, `Some(None)` to close, `None` to
    /// stay open.
    pub fn ui(&mut self, ctx: &Context) -> Option<Option<Action>> {
        let mut result = None;
        let modal = egui::Modal::new(egui::Id::unique("path-dialog")).show(ctx, |ui| {
            ui.heading(self.purpose.title());
            let what = match self.purpose {
                PathPurpose::HouseRules => "the pack file's",
                _ => "the campaign file's",
            };
            ui.label(format!(
                "This desktop offers no file dialog: type {what} path."
            ));
            let label = ui.label(self.purpose.file());
            let edit = ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(480.0));
            let edit = edit.labelled_by(label.id);
            if let Some(err) = &self.error {
                ui.label(RichText::new(err).color(ui.visuals().error_fg_color));
            }
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                if (ui.button(self.purpose.button()).clicked() || enter)
                    && !self.path.trim().is_empty()
                {
                    result = Some(Some(Action::Campaign(CampaignAction::UsePath(
                        self.purpose,
                        PathBuf::from(self.path.trim()),
                    ))));
                }
                if ui.button("Cancel").clicked() {
                    result = Some(None);
                }
            });
        });
        if modal.should_close() && result.is_none() {
            result = Some(None);
        }
        result
    }
}

/// File ▸ New asks the campaign's name first, then where to keep it.
#[derive(Debug, Default)]
pub struct NewCampaignDialog {
    pub name: String,
    pub error: Option<String>,
    /// The games a campaign may be made with: (pack id, its name), and the
    /// one chosen.
    pub games: Vec<(String, String)>,
    pub game: String,
}

impl NewCampaignDialog {
    /// The dialog offering `games`, the first chosen.
    pub fn new(games: Vec<(String, String)>) -> Self {
        let game = games.first().map(|(id, _)| id.clone()).unwrap_or_default();
        Self {
            name: String::new(),
            error: None,
            games,
            game,
        }
    }

    /// Returns as [`PathDialog::ui`] does; going ahead names the campaign
    /// and its game.
    pub fn ui(&mut self, ctx: &Context) -> Option<Option<Action>> {
        let mut result = None;
        let modal = egui::Modal::new(egui::Id::unique("new-campaign")).show(ctx, |ui| {
            ui.heading("New campaign");
            let label = ui.label("Campaign name");
            // The hint is greyed and in italics: it must not read as typed.
            let hint = RichText::new("e.g. The Long Winter").italics().weak();
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut self.name)
                        .hint_text(hint)
                        .desired_width(320.0),
                )
                .labelled_by(label.id);
            if edit.changed() {
                self.error = None;
            }
            if self.name.is_empty() && !edit.has_focus() && self.error.is_none() {
                edit.request_focus();
            }
            if let Some(err) = &self.error {
                ui.label(RichText::new(err).color(ui.visuals().error_fg_color));
            }
            if self.games.len() > 1 {
                let shown = self
                    .games
                    .iter()
                    .find(|(id, _)| *id == self.game)
                    .map_or(self.game.clone(), |(_, name)| name.clone());
                let games = &self.games;
                let game = &mut self.game;
                crate::ui::base::widgets::labelled_combo(
                    ui,
                    "Game",
                    |c| c.selected_text(shown).width(300.0),
                    |ui| {
                        for (id, name) in games {
                            ui.selectable_value(game, id.clone(), name);
                        }
                    },
                );
            }
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                let next = ui
                    .button("Choose where to save it…")
                    .on_hover_text("The campaign is one file; you choose its folder next");
                if next.clicked() || enter {
                    match crate::text::name("A campaign", &self.name) {
                        Ok(name) => {
                            result = Some(Some(Action::Campaign(CampaignAction::NameNew(
                                name,
                                self.game.clone(),
                            ))))
                        }
                        Err(err) => self.error = Some(err.to_string()),
                    }
                }
                if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                    result = Some(None);
                }
            });
        });
        if modal.should_close() && result.is_none() {
            result = Some(None);
        }
        result
    }
}

/// The file a new campaign is offered under: its name, made safe for
/// every desktop's file system.
pub fn campaign_file_name(name: &str) -> String {
    let stem = sanitize_filename::sanitize(name.trim());
    let stem = if stem.trim().is_empty() {
        "campaign".to_owned()
    } else {
        stem
    };
    format!("{stem}.{}", crate::session::EXTENSION)
}

/// A resource change waiting for its amount and reason.
#[derive(Debug)]
pub struct ResourceDialog {
    pub gang: GangId,
    pub resource: String,
    pub delta: i64,
    pub reason: String,
}

impl ResourceDialog {
    pub fn new(gang: GangId, resource: String, delta: i64) -> Self {
        Self {
            gang,
            resource,
            delta,
            reason: String::new(),
        }
    }
}

/// `label` is the resource's label and current amount. Returns as
/// [`PathDialog::ui`] does.
/// Asks whether to replace a file already at an output's path. Returns
/// `Some(true)` to replace, `Some(false)` to keep it, `None` while open.
pub fn replace_prompt_ui(ctx: &Context, path: &std::path::Path) -> Option<bool> {
    let mut result = None;
    let modal = egui::Modal::new(egui::Id::unique("replace-prompt")).show(ctx, |ui| {
        ui.heading("Replace the file?");
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        ui.label(format!("“{name}” is already there. Replace it?"));
        ui.weak(path.display().to_string());
        ui.horizontal(|ui| {
            if ui.button("Replace").clicked() {
                result = Some(true);
            }
            if ui.button("Keep the file").clicked()
                || ui.input(|i| i.key_pressed(egui::Key::Escape))
            {
                result = Some(false);
            }
        });
    });
    if modal.should_close() && result.is_none() {
        result = Some(false);
    }
    result
}

pub fn resource_dialog_ui(
    ctx: &Context,
    dialog: &mut ResourceDialog,
    label: Option<(String, i64)>,
) -> Option<Option<Action>> {
    let (name, amount) = label.unwrap_or_else(|| (dialog.resource.clone(), 0));
    let mut result = None;
    let modal = egui::Modal::new(egui::Id::unique("resource-dialog")).show(ctx, |ui| {
        ui.heading(format!("Change {name}"));
        ui.label(format!(
            "Now {amount}; after the change {}.",
            amount + dialog.delta
        ));
        ui.horizontal(|ui| {
            let label = ui.label("Change by");
            ui.add(egui::DragValue::new(&mut dialog.delta).speed(0.1))
                .labelled_by(label.id);
        });
        let label = ui.label("Reason (kept in the campaign log)");
        let edit = ui
            .add(
                egui::TextEdit::singleline(&mut dialog.reason)
                    .hint_text("e.g. traded with the Bone Choir"),
            )
            .labelled_by(label.id);
        if !edit.has_focus() && dialog.reason.is_empty() {
            edit.request_focus();
        }
        let ready = !dialog.reason.trim().is_empty() && dialog.delta != 0;
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        ui.horizontal(|ui| {
            let apply = ui
                .add_enabled(ready, egui::Button::new("Apply change"))
                .on_disabled_hover_text("Give a reason and a change other than 0");
            if (apply.clicked() || enter) && ready {
                result = Some(Some(Action::Gang(GangAction::AdjustResource {
                    gang: dialog.gang,
                    resource: dialog.resource.clone(),
                    delta: dialog.delta,
                    reason: dialog.reason.trim().to_owned(),
                })));
            }
            if ui.button("Cancel").clicked() {
                result = Some(None);
            }
        });
    });
    if modal.should_close() && result.is_none() {
        result = Some(None);
    }
    result
}

/// A resource action between battles, being filled in.
#[derive(Debug)]
pub struct ActionDialog {
    pub gang: GangId,
    pub action: String,
    pub target: Option<GangId>,
    pub choice: Option<String>,
    pub error: Option<String>,
    /// The other gangs of its game with what each holds, read when the
    /// dialog opens: the targets an action offers.
    pub others: Vec<crate::session::Rival>,
}

impl ActionDialog {
    pub fn new(gang: GangId, others: Vec<crate::session::Rival>) -> Self {
        Self {
            others,
            gang,
            action: String::new(),
            target: None,
            choice: None,
            error: None,
        }
    }
}

/// `gangs` are the other gangs of the same ruleset. Returns as
/// [`PathDialog::ui`] does.
pub fn action_dialog_ui(
    ctx: &Context,
    dialog: &mut ActionDialog,
    pack: &crate::rules::Pack,
    gang_name: &str,
    resources: &[(String, i64)],
    gangs: &[crate::session::Rival],
) -> Option<Option<Action>> {
    let mut result = None;
    // What the gang lacks to pay for an action, in words; empty when it can.
    let short = |a: &crate::rules::ActionDef| -> Vec<String> {
        a.cost
            .iter()
            .filter_map(|c| {
                let label = pack.resource_label(&c.resource);
                let have = resources
                    .iter()
                    .find(|(l, _)| l == label)
                    .map_or(0, |(_, n)| *n);
                (have < c.amount).then(|| format!("{have} of {} {label}", c.amount))
            })
            .collect()
    };
    let modal = egui::Modal::new(egui::Id::unique("action-dialog")).show(ctx, |ui| {
        ui.heading(format!("Resource action for {gang_name}"));
        let have: Vec<String> = resources.iter().map(|(l, n)| format!("{l} {n}")).collect();
        ui.label(RichText::new(have.join(" · ")).weak());
        if dialog.action.is_empty()
            && let Some(first) = pack.actions.first()
        {
            dialog.action = first.id.clone();
        }
        let current = pack
            .action(&dialog.action)
            .map_or("Choose…".to_owned(), |a| a.name.clone());
        labelled_combo(
            ui,
            "Action",
            |c| c.selected_text(current).width(220.0),
            |ui| {
                for a in &pack.actions {
                    let cost: Vec<String> = a
                        .cost
                        .iter()
                        .map(|c| format!("{} {}", c.amount, pack.resource_label(&c.resource)))
                        .collect();
                    let afford = if short(a).is_empty() {
                        ""
                    } else {
                        " — can't afford"
                    };
                    ui.selectable_value(
                        &mut dialog.action,
                        a.id.clone(),
                        format!("{} ({}){afford}", a.name, cost.join(", ")),
                    )
                    .on_hover_text(&a.text);
                }
            },
        );
        let Some(def) = pack.action(&dialog.action) else {
            return;
        };
        let cost: Vec<String> = def
            .cost
            .iter()
            .map(|c| format!("{} {}", c.amount, pack.resource_label(&c.resource)))
            .collect();
        ui.label(format!("Cost: {}", cost.join(", ")));
        let lacking = short(def);
        if !lacking.is_empty() {
            ui.label(
                RichText::new(format!(
                    "{gang_name} can't afford it: has {}",
                    lacking.join(", ")
                ))
                .color(ui.visuals().warn_fg_color),
            );
        }
        ui.label(&def.text);
        if let Some(ruling) = def.ruling.as_ref().and_then(|r| pack.ruling(r)) {
            ui.label(RichText::new(format!("Ruling: {}", ruling.ruling)).weak());
        }
        if !def.take_choice.is_empty() {
            take_choice_ui(ui, dialog, def, pack, gangs);
        }
        if let Some(err) = &dialog.error {
            ui.label(RichText::new(err).color(ui.visuals().error_fg_color));
        }
        ui.horizontal(|ui| {
            let take = ui
                .add_enabled(lacking.is_empty(), egui::Button::new("Take action"))
                .on_disabled_hover_text(format!(
                    "The {} has too little to pay for it",
                    pack.words.gang
                ));
            if take.clicked() {
                result = Some(Some(Action::Gang(GangAction::TakeAction {
                    gang: dialog.gang,
                    action: dialog.action.clone(),
                    target: dialog.target,
                    choice: dialog.choice.clone(),
                })));
            }
            if ui.button("Cancel").clicked() {
                result = Some(None);
            }
        });
    });
    if modal.should_close() && result.is_none() {
        result = Some(None);
    }
    result
}

/// Whom an action takes from and what: only the resources the chosen
/// target holds are offered (a line that takes only what the rival has),
/// and a target that holds none of them says so.
fn take_choice_ui(
    ui: &mut egui::Ui,
    dialog: &mut ActionDialog,
    def: &crate::rules::ActionDef,
    pack: &crate::rules::Pack,
    gangs: &[crate::session::Rival],
) {
    let current = dialog
        .target
        .and_then(|t| gangs.iter().find(|(id, ..)| *id == t))
        .map_or("Choose…".to_owned(), |(_, n, _)| n.clone());
    labelled_combo(
        ui,
        &format!("From {}", pack.words.gang),
        |c| c.selected_text(current),
        |ui| {
            for (id, name, _) in gangs {
                ui.selectable_value(&mut dialog.target, Some(*id), name);
            }
        },
    );
    let Some((_, target, holds)) = dialog
        .target
        .and_then(|t| gangs.iter().find(|(id, ..)| *id == t))
    else {
        return;
    };
    let held = |resource: &str| holds.get(resource).copied().unwrap_or(0) > 0;
    if dialog.choice.as_deref().is_some_and(|r| !held(r)) {
        dialog.choice = None;
    }
    let offered: Vec<_> = def
        .take_choice
        .iter()
        .filter(|o| held(&o.resource))
        .collect();
    if offered.is_empty() {
        let names: Vec<&str> = def
            .take_choice
            .iter()
            .map(|o| pack.resource_label(&o.resource))
            .collect();
        ui.label(RichText::new(format!("{target} has no {}", names.join(", "))).weak());
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Take");
        for option in offered {
            let label = format!(
                "{} {}",
                option.amount,
                pack.resource_label(&option.resource)
            );
            ui.radio_value(&mut dialog.choice, Some(option.resource.clone()), label);
        }
    });
}

/// A ransom being agreed for a captive, or a sale of one by its captors.
#[derive(Debug)]
pub struct RansomDialog {
    pub fighter: crate::campaign::FighterId,
    /// True for a sale by the captors.
    pub sell: bool,
    pub resource: String,
    pub amount: i64,
    pub error: Option<String>,
}

impl RansomDialog {
    pub fn new(fighter: crate::campaign::FighterId) -> Self {
        Self {
            fighter,
            sell: false,
            resource: String::new(),
            amount: 1,
            error: None,
        }
    }

    /// The captors' sale of a captive.
    pub fn sale(fighter: crate::campaign::FighterId) -> Self {
        Self {
            sell: true,
            ..Self::new(fighter)
        }
    }
}

/// Returns as [`PathDialog::ui`] does.
pub fn ransom_dialog_ui(
    ctx: &Context,
    dialog: &mut RansomDialog,
    pack: &crate::rules::Pack,
    captive: &crate::ui::base::state::Captive,
) -> Option<Option<Action>> {
    let mut result = None;
    let fighter = &captive.name;
    let terms = &captive.terms;
    let price = if dialog.sell {
        terms.sell.as_ref()
    } else {
        terms.ransom.as_ref()
    };
    let modal = egui::Modal::new(egui::Id::unique("ransom-dialog")).show(ctx, |ui| {
        if dialog.sell {
            ui.heading(format!("Sell {fighter}"));
            ui.label(format!(
                "The captors sell the {}: they leave their {} for good.",
                pack.words.fighter, pack.words.gang
            ));
        } else {
            ui.heading(format!("Ransom {fighter}"));
            ui.label(format!(
                "The price moves from the captive's {} to the captors, who free the {}.",
                pack.words.gang, pack.words.fighter
            ));
        }
        if let Some((id, _)) = &terms.resource {
            dialog.resource.clone_from(id);
        } else if dialog.resource.is_empty()
            && let Some(first) = pack.resources.first()
        {
            dialog.resource = first.id.clone();
        }
        if let Some(price) = price {
            let label = pack.resource_label(&dialog.resource);
            ui.label(RichText::new(format!("The price: {} {label}", price.said)).strong());
        }
        ui.horizontal(|ui| {
            let label = ui.label("Amount");
            match price.map(|p| (p.amount, p.between)) {
                Some((Some(n), _)) => {
                    dialog.amount = n;
                    ui.label(n.to_string()).labelled_by(label.id);
                }
                Some((None, Some([low, high]))) => {
                    dialog.amount = dialog.amount.clamp(low, high);
                    ui.add(egui::DragValue::new(&mut dialog.amount).range(low..=high))
                        .labelled_by(label.id);
                }
                _ => {
                    ui.add(egui::DragValue::new(&mut dialog.amount).range(1..=1_000_000))
                        .labelled_by(label.id);
                }
            }
            let shown = pack.resource_label(&dialog.resource).to_owned();
            if terms.resource.is_some() {
                ui.label(shown);
            } else {
                labelled_combo(
                    ui,
                    "Resource",
                    |c| c.selected_text(shown),
                    |ui| {
                        for r in &pack.resources {
                            ui.selectable_value(&mut dialog.resource, r.id.clone(), &r.label);
                        }
                    },
                );
            }
        });
        if let Some(err) = &dialog.error {
            ui.label(RichText::new(err).color(ui.visuals().error_fg_color));
        }
        ui.horizontal(|ui| {
            let button = if dialog.sell {
                "Sell"
            } else {
                "Pay the ransom"
            };
            if ui.button(button).clicked() {
                let action = if dialog.sell {
                    GangAction::Sell {
                        fighter: dialog.fighter,
                        amount: dialog.amount,
                    }
                } else {
                    GangAction::Ransom {
                        fighter: dialog.fighter,
                        resource: dialog.resource.clone(),
                        amount: dialog.amount,
                    }
                };
                result = Some(Some(Action::Gang(action)));
            }
            if ui.button("Cancel").clicked() {
                result = Some(None);
            }
        });
    });
    if modal.should_close() && result.is_none() {
        result = Some(None);
    }
    result
}
