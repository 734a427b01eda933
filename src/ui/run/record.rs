//! The record room: recording a battle or session from the record
//! screen's form (its preview worked out before the screen is drawn),
//! rolling the next scenario, choosing titles and closing arcs.

use crate::campaign::GangId;
use crate::campaign::battle::BattleReport;
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::RecordAction;
use crate::ui::base::action::Screen;
use crate::ui::views::post_battle::BattleForm;

impl RapsheetApp {
    pub(super) fn run_record(&mut self, action: RecordAction) {
        match action {
            RecordAction::Record(report, seed) => self.record(&report, seed),
            RecordAction::RollScenario { a, b } => self.roll_scenario(a, b),
            RecordAction::ChooseTitle { gang, title } => {
                self.change("Title chosen", |s| s.choose_title(gang, &title));
            }
            RecordAction::CloseArc(arc, reason) => {
                self.change("Arc closed", |s| s.close_arc(arc, &reason));
            }
        }
    }

    /// Records the form's report: what the screen shows is what is
    /// written, its preview worked out again only if the campaign changed
    /// since.
    fn record(&mut self, report: &BattleReport, seed: u64) {
        let mut recorded = None;
        let preview = match self.campaign.battle_form.preview.take() {
            Some(Ok(p)) if p.is_for(report, seed) => Some(p),
            _ => None,
        };
        self.campaign.battle_form.dirty = true;
        let ok = self.change("Recorded", |s| {
            let r = match preview {
                Some(p) => s.record_preview(p)?,
                None => s.record_battle(report, seed)?,
            };
            recorded = Some((r.battle, s.record_noun(&r.procedure.battle.ruleset)));
            r.batch
                .ok_or_else(|| anyhow::anyhow!("the record was not written"))
        });
        if ok {
            self.forget_draft();
            self.campaign.battle_form = BattleForm::default();
            if let Some((id, noun)) = recorded {
                let title = crate::text::capitalised(&noun);
                self.info(format!("{title} #{id} recorded (Ctrl+Z takes it back)"));
            }
            self.screen = Screen::Roster;
            self.refresh();
        }
    }

    /// Rolls the two gangs' next scenario into the form: one change undo
    /// takes back.
    fn roll_scenario(&mut self, a: GangId, b: GangId) {
        let seed = crate::dice::seed_from_clock();
        let mut rolled = None;
        let ok = self.change("Scenario rolled", |s| {
            let r = s.roll_scenario(a, b, seed)?;
            let batch = r.batch;
            rolled = Some(r);
            Ok(batch)
        });
        if let (true, Some(r)) = (ok, rolled) {
            self.campaign.battle_form.scenario = r.scenario.clone();
            self.campaign.battle_form.wants_roles = true;
            self.campaign.battle_form.dirty = true;
            self.info(format!(
                "{} [{}]: {} (Ctrl+Z takes the roll back)",
                r.roll.expression, r.roll.total, r.name
            ));
        }
    }

    /// Sets the seed of the record form's rolls, as a draft brought back
    /// does: the same seed rolls the same dice.
    pub fn set_record_seed(&mut self, seed: u64) {
        self.campaign.battle_form.seed = seed.max(1);
        self.campaign.battle_form.dirty = true;
    }

    /// The choices and picks made on the record form, in the words of
    /// their buttons, in the order they were made.
    pub fn battle_choices_made(&self) -> &[String] {
        &self.campaign.battle_form.made
    }

    /// The choices the record screen offers, one list a choice, each as its
    /// button says it.
    pub fn battle_choice_buttons(&self) -> Vec<Vec<String>> {
        let Some(Ok(procedure)) = &self.campaign.battle_form.preview else {
            return Vec::new();
        };
        let pack = self
            .session
            .as_ref()
            .and_then(|s| s.pack(&procedure.battle.ruleset).ok());
        procedure
            .needed
            .iter()
            .map(|need| {
                need.options
                    .iter()
                    .map(|o| {
                        let label = crate::ui::views::post_battle::option_label(
                            pack,
                            procedure.battle.scenario.as_deref(),
                            need,
                            o,
                        );
                        match pack {
                            Some(pack) => {
                                crate::ui::views::post_battle::choice_name(pack, need, &label)
                            }
                            None => format!("{}: {label}", need.gang),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Reruns the procedure on the battle form, and suggests roles from the
    /// two gangs' previous battle.
    pub(in crate::ui) fn update_battle_preview(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        let form = &mut self.campaign.battle_form;
        // Start with the gang on screen and, where the pack's record takes
        // more than one, the next gangs of its ruleset.
        if form.gangs.iter().all(Option::is_none) {
            let first = self
                .state
                .selected_gang
                .and_then(|id| self.state.gangs.iter().find(|g| g.id == id))
                .or(self.state.gangs.first());
            if let Some(first) = first
                && let Ok(pack) = session.pack(&first.ruleset)
            {
                let sides = pack.record().fewest_sides();
                let mut gangs = vec![Some(first.id)];
                gangs.extend(
                    self.state
                        .gangs
                        .iter()
                        .filter(|g| g.id != first.id && g.ruleset == first.ruleset)
                        .map(|g| Some(g.id))
                        .take(sides.saturating_sub(1)),
                );
                form.set_sides(sides.max(1));
                for (i, g) in gangs.into_iter().enumerate().take(form.gangs.len()) {
                    form.gangs[i] = g;
                }
                // The scenario the rivals' arc says comes next, where
                // the pack's records are not plain games unless chosen.
                let plain = session
                    .pack(&first.ruleset)
                    .is_ok_and(|p| p.record().scenario_optional);
                if let [Some(a), Some(b)] = form.gangs.as_slice()
                    && !plain
                    && let Ok(next) = session.next_scenarios(*a, *b)
                    && let Some((id, _)) = next.scenarios.first()
                {
                    form.scenario = id.clone();
                }
                form.wants_roles = true;
                form.dirty = true;
            }
        }
        if form.wants_roles {
            form.wants_roles = false;
            if let [Some(a), Some(b)] = form.gangs.as_slice()
                && !form.scenario.is_empty()
            {
                match session.suggest_roles(&form.scenario, *a, *b) {
                    Ok(Some((ra, rb))) => form.roles = vec![Some(ra), Some(rb)],
                    Ok(None) => {}
                    Err(err) => form.preview = Some(Err(crate::ui::base::said::for_players(&err))),
                }
            }
        }
        let chosen: Vec<GangId> = form.gangs.iter().flatten().copied().collect();
        if let Err(err) = self.state.load_battle_fighters(session, &chosen) {
            form.preview = Some(Err(crate::ui::base::said::for_players(&err)));
            return;
        }
        if !form.dirty {
            return;
        }
        form.dirty = false;
        if form.seed == 0 {
            form.seed = crate::dice::seed_from_clock();
        }
        let seed = form.seed;
        form.preview = form.report(&self.state.battle_data).map(|report| {
            session
                .preview_battle(&report, seed)
                .map_err(|e| crate::ui::base::said::for_players(&e))
        });
        if matches!(form.preview, Some(Err(_))) {
            drop_stale_picks(session, form, &self.state.battle_data);
        }
        if let Some(Ok(preview)) = &form.preview {
            form.advancements_allowed = preview.advancements_allowed.clone();
        }
        self.keep_draft();
    }
}

/// A pick made for a roll the record no longer makes (the dice that
/// asked for it were typed otherwise, or rolled again) is dropped, with
/// its line among the choices made, where the record then previews.
fn drop_stale_picks(
    session: &crate::session::Session,
    form: &mut crate::ui::views::post_battle::BattleForm,
    data: &crate::ui::base::state::BattleData,
) {
    let all = std::mem::take(&mut form.picks);
    let preview_of = |form: &crate::ui::views::post_battle::BattleForm| {
        form.report(data)
            .map(|report| session.preview_battle(&report, form.seed))
    };
    // Kept: the picks for rolls the record makes with the picks kept so
    // far, until that settles (a pick can ask for a roll that asks for
    // the next).
    let mut preview = preview_of(form);
    for _ in 0..=all.len() {
        let Some(Ok(made)) = &preview else {
            break;
        };
        let kept: std::collections::BTreeMap<String, String> = all
            .iter()
            .filter(|(roll, _)| made.rolls.iter().any(|r| crate::text::same(&r.roll, roll)))
            .map(|(roll, pick)| (roll.clone(), pick.clone()))
            .collect();
        if kept == form.picks {
            let pack = session.pack(&made.battle.ruleset).ok();
            for roll in all.keys().filter(|roll| !kept.contains_key(*roll)) {
                let said = pack.map_or_else(
                    || roll.clone(),
                    |pack| crate::ui::views::post_battle::roll_label(pack, roll),
                );
                form.made
                    .retain(|line| !line.starts_with(&format!("{said}: ")));
            }
            form.preview = preview.map(|p| p.map_err(|e| crate::ui::base::said::for_players(&e)));
            return;
        }
        form.picks = kept;
        preview = preview_of(form);
    }
    form.picks = all;
}
