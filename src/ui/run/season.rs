//! The season room: holdings given and taken by hand, a cycle ended by
//! hand, and a gang's faction changed.

use crate::campaign::GangId;
use crate::campaign::battle::{BattleReport, GangReport};
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::SeasonAction;
use crate::ui::run::draft::sides_pack;

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
            SeasonAction::IssueChallenge {
                challenger,
                defender,
                stake,
            } => {
                let said = format!(
                    "{challenger} challenged {defender} (Ctrl+Z takes it back until answered)"
                );
                if self.change(&said, |s| {
                    Ok(s.issue_challenge(&challenger, &defender, stake.as_deref())?
                        .batch)
                }) {
                    self.campaign.season_form.challenge = Default::default();
                }
            }
            SeasonAction::AnswerChallenge { id, accept } => {
                let said = format!("#{id} {}", if accept { "accepted" } else { "declined" });
                self.change(&said, |s| Ok(s.answer_challenge(id, accept)?.batch));
            }
            SeasonAction::RecordChallenge(id) => self.record_challenge(id),
            SeasonAction::RecordPair(first, second) => self.record_pair(first, second),
            SeasonAction::MakePairings(by) => {
                let seed = crate::dice::seed_from_clock();
                self.change("Pairings made", |s| Ok(s.make_pairings(by, seed)?.batch));
            }
        }
    }

    /// Starts the record of an accepted challenge: its sides (the
    /// challenger first), its shape and stake on the Record screen.
    fn record_challenge(&mut self, id: crate::campaign::ChallengeId) {
        let Some(session) = &self.session else {
            return;
        };
        let report = match session.challenge_report(id) {
            Ok(report) => report,
            Err(err) => return self.error(err),
        };
        if self.start_record_from(&report) {
            self.info(format!(
                "#{id} is on the Record screen: say how each side fared, then commit"
            ));
        }
    }

    /// Starts the record of a pairing: its two gangs on the Record screen.
    fn record_pair(&mut self, first: GangId, second: GangId) {
        let names: Vec<String> = [first, second]
            .iter()
            .filter_map(|id| self.state.gangs.iter().find(|g| g.id == *id))
            .map(|g| g.name.clone())
            .collect();
        let mut report = BattleReport::empty();
        report.gangs = names.iter().map(GangReport::named).collect();
        if self.start_record_from(&report) {
            self.info(format!(
                "{} on the Record screen: say how each side fared, then commit",
                names.join(" against ")
            ));
        }
    }

    /// Fills the Record screen from the start of a report (its sides by
    /// name, the challenger, the challenge it plays, its shape and stake)
    /// and shows it. A record begun there is never replaced: it is
    /// committed or cleared first.
    fn start_record_from(&mut self, report: &BattleReport) -> bool {
        let Some(session) = &self.session else {
            return false;
        };
        let pack_of = |sides: &[Option<GangId>]| sides_pack(sides, &self.state.gangs, session);
        if self
            .campaign
            .battle_form
            .holds_entries(pack_of(&self.campaign.battle_form.gangs))
        {
            self.error(anyhow::anyhow!(
                "A record is begun on the Record screen: commit it or clear the form first"
            ));
            return false;
        }
        let gangs: Vec<Option<GangId>> = report
            .gangs
            .iter()
            .map(|side| {
                self.state
                    .gangs
                    .iter()
                    .find(|g| crate::text::same(&g.name, &side.gang))
                    .map(|g| g.id)
            })
            .collect();
        let pack = pack_of(&gangs);
        let mut form = crate::ui::views::post_battle::BattleForm::default();
        form.set_sides(gangs.len());
        form.gangs = gangs;
        form.challenger = report.gangs.iter().position(|g| g.challenger);
        form.challenge = report.challenge;
        if let Some(pack) = pack {
            form.shape = report
                .shape
                .as_deref()
                .and_then(|s| pack.record().shape(s))
                .map(|s| s.id.clone())
                .unwrap_or_default();
            form.stake = report
                .stake
                .as_deref()
                .and_then(|h| pack.find_holding(h))
                .map(|h| h.id.clone());
        }
        form.dirty = true;
        form.focus.start = true;
        self.campaign.battle_form = form;
        self.screen = crate::ui::base::action::Screen::Battle;
        true
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
