//! The gangs room: choosing and founding gangs, naming them, recruiting,
//! their resources and resource actions, and the captives they hold.

use crate::campaign::commands::NewFighter;
use crate::campaign::{FighterId, GangId};
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::GangAction;
use crate::ui::views::dialogs::{ActionDialog, RansomDialog, ResourceDialog};

impl RapsheetApp {
    pub(super) fn run_gang(&mut self, action: GangAction) {
        match action {
            GangAction::Select(id) => {
                self.state.selected_gang = Some(id);
                self.state.selected_fighter = None;
                self.refresh();
            }
            GangAction::Found {
                name,
                ruleset,
                faction,
                holding,
            } => {
                let founding = crate::campaign::commands::Founding {
                    faction: faction.as_deref(),
                    holding: holding.as_deref(),
                };
                self.found_gang(&name, &ruleset, founding)
            }
            GangAction::Rename(id, name) => {
                let gang = self.words().gang;
                self.change(&format!("Renamed the {gang} {name}"), |s| {
                    s.rename_gang(id, &name)
                });
            }
            GangAction::SetNotes(id, notes) => {
                let gang = crate::text::capitalised(&self.words().gang);
                self.change(&format!("{gang} notes saved"), |s| {
                    s.set_gang_notes(id, &notes)
                });
            }
            GangAction::AskResource {
                gang,
                resource,
                delta,
            } => {
                self.dialogs.resource = Some(ResourceDialog::new(gang, resource, delta));
            }
            GangAction::AdjustResource {
                gang,
                resource,
                delta,
                reason,
            } => {
                if self.change("Resource changed", |s| {
                    s.adjust_resource(gang, &resource, delta, &reason)
                }) {
                    self.dialogs.resource = None;
                }
            }
            GangAction::Recruit { gang, name, buy } => self.recruit(gang, &name, buy),
            GangAction::AskAction(gang) => self.ask_action(gang),
            GangAction::TakeAction {
                gang,
                action,
                target,
                choice,
            } => self.take_action(gang, &action, target, choice.as_deref()),
            GangAction::AskRansom(fighter) => self.ask_ransom(fighter, false),
            GangAction::Ransom {
                fighter,
                resource,
                amount,
            } => {
                if self.change("Ransom paid", |s| s.ransom(fighter, &resource, amount)) {
                    self.dialogs.ransom = None;
                    self.state.captive = None;
                } else if let (Some(dialog), Some(status)) =
                    (&mut self.dialogs.ransom, &self.status)
                {
                    dialog.error = Some(status.text.clone());
                }
            }
            GangAction::Release(fighter) => {
                self.change("Captive released", |s| s.release(fighter));
            }
            GangAction::RecruitGroup {
                gang,
                kind,
                name,
                members,
            } => {
                let label = format!("Recruited {name}");
                let group = crate::campaign::groups::NewGroup {
                    kind,
                    name,
                    members,
                    quirks: Vec::new(),
                };
                if self.change(&label, |s| s.recruit_group(gang, group)) {
                    let form = &mut self.campaign.roster_forms.recruit;
                    form.group_name.clear();
                    form.group_members.clear();
                    self.refresh();
                }
            }
            GangAction::AskSale(fighter) => self.ask_ransom(fighter, true),
            GangAction::Sell { fighter, amount } => {
                if self.change("Captive sold", |s| s.sell_captive(fighter, amount)) {
                    self.dialogs.ransom = None;
                    self.state.captive = None;
                } else if let (Some(dialog), Some(status)) =
                    (&mut self.dialogs.ransom, &self.status)
                {
                    dialog.error = Some(status.text.clone());
                }
            }
        }
    }

    /// Founds a gang and shows it.
    fn found_gang(
        &mut self,
        name: &str,
        ruleset: &str,
        founding: crate::campaign::commands::Founding<'_>,
    ) {
        let mut founded = None;
        let ok = self.change(&format!("Founded {name}"), |s| {
            let (id, batch) = s.found_gang_with(name, Some(ruleset), founding)?;
            founded = Some(id);
            Ok(batch)
        });
        if ok {
            self.campaign.found_form.name.clear();
            self.state.selected_gang = founded;
            self.state.selected_fighter = None;
            self.refresh();
        }
    }

    /// Recruits a fighter (bought, where `buy`) and shows them.
    fn recruit(&mut self, gang: GangId, name: &str, buy: bool) {
        let mut recruited = None;
        let ok = self.change(&format!("Recruited {name}"), |s| {
            let new = NewFighter {
                name: name.to_owned(),
                ..NewFighter::default()
            };
            let outcome = if buy {
                s.buy_recruit(gang, new)?
            } else {
                s.recruit(gang, new)?
            };
            recruited = s
                .fighters(gang)?
                .into_iter()
                .find(|f| f.name == name.trim())
                .map(|f| f.id);
            Ok(outcome.batch)
        });
        if ok {
            self.campaign.roster_forms.recruit.name.clear();
            self.state.selected_fighter = recruited;
            self.refresh();
        }
    }

    /// Opens the action dialog of `gang`, with the rivals it may act
    /// against read now (not every frame it is open).
    fn ask_action(&mut self, gang: GangId) {
        let Some(session) = &self.session else {
            return;
        };
        match session.rivals_with_resources(gang) {
            Ok(others) => self.dialogs.action = Some(ActionDialog::new(gang, others)),
            Err(err) => self.error(err),
        }
    }

    /// Takes a resource action; a refusal is said in its dialog.
    fn take_action(
        &mut self,
        gang: GangId,
        action: &str,
        target: Option<GangId>,
        choice: Option<&str>,
    ) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        match session.take_action(gang, action, target, choice) {
            Ok(_) => {
                self.dialogs.action = None;
                self.info("Resource action taken");
                self.refresh();
            }
            Err(err) => {
                if let Some(dialog) = &mut self.dialogs.action {
                    dialog.error = Some(format!("{err:#}"));
                } else {
                    self.error(err);
                }
            }
        }
    }

    /// Reads a captive and opens the ransom dialog for them (the sale
    /// dialog, with `sell`).
    fn ask_ransom(&mut self, fighter: FighterId, sell: bool) {
        let Some(session) = &self.session else {
            return;
        };
        match self.state.read_captive(session, fighter) {
            Ok(()) if sell => self.dialogs.ransom = Some(RansomDialog::sale(fighter)),
            Ok(()) => self.dialogs.ransom = Some(RansomDialog::new(fighter)),
            Err(err) => self.error(err),
        }
    }
}
