//! The season room: holdings given and taken by hand, a cycle ended by
//! hand, and a gang's faction changed.

use crate::campaign::battle::BattleReport;
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::SeasonAction;

impl RapsheetApp {
    pub(super) fn run_season(&mut self, action: SeasonAction) {
        match action {
            SeasonAction::GiveHolding {
                holding,
                gang,
                reason,
            } => {
                let ok = self.change("Given, with the reason in the log", |s| {
                    let name = s.gang(gang)?.name;
                    s.give_holding(&holding, &name, &reason)
                });
                if ok {
                    self.campaign.season_form.reason.clear();
                }
            }
            SeasonAction::TakeHolding { holding, reason } => {
                if self.change("Taken: unclaimed, with the reason in the log", |s| {
                    s.take_holding(&holding, &reason)
                }) {
                    self.campaign.season_form.reason.clear();
                }
            }
            SeasonAction::PreviewCycleEnd => self.preview_cycle_end(),
            SeasonAction::EndCycle => {
                let form = &self.campaign.season_form;
                let report = form.end_report();
                let seed = form.seed;
                let ended = self
                    .state
                    .season
                    .as_ref()
                    .and_then(|s| s.cycle.as_ref())
                    .map_or_else(String::new, |c| format!("{} ended", c.said));
                let ok = self.change(&ended, |s| Ok(s.end_cycle(&report, seed)?.batch));
                if ok {
                    self.campaign.season_form = Default::default();
                }
            }
            SeasonAction::SetFaction { gang, faction } => {
                self.change(&faction.clone(), |s| s.set_faction(gang, &faction));
            }
        }
    }

    /// Works out what ending the cycle does with the form's dice, for the
    /// player to see before ending it.
    fn preview_cycle_end(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        let form = &mut self.campaign.season_form;
        if form.seed == 0 {
            form.seed = crate::dice::seed_from_clock();
        }
        form.preview_at = self.state.batch();
        let report: BattleReport = form.end_report();
        form.preview = Some(
            session
                .preview_cycle_end(&report, form.seed)
                .map_err(|e| format!("{e:#}")),
        );
    }
}
