//! The record being filled in, kept for its campaign on this laptop
//! (`session::Drafts`): written as the form changes, read back when the
//! campaign opens, forgotten once the record is committed. Closing the
//! window, opening another campaign or a crash never throws away what was
//! typed, and a roll once shown is never rolled again.

use std::path::PathBuf;

use super::app::RapsheetApp;
use super::post_battle::BattleForm;

impl RapsheetApp {
    /// Keeps records begun and not committed in `folder`, and brings back
    /// the one kept for the campaign open now.
    pub fn keep_drafts_in(&mut self, folder: PathBuf) {
        self.drafts = Some(crate::session::Drafts::in_folder(folder));
        self.restore_draft();
    }

    /// Keeps the record form of the open campaign as its draft, where its
    /// rolls were shown (the form was worked out) and it changed since it
    /// was last kept.
    pub(super) fn keep_draft(&mut self) {
        let (Some(drafts), Some(session)) = (&self.drafts, &self.session) else {
            return;
        };
        let form = &self.campaign.battle_form;
        if form.seed == 0 {
            return;
        }
        let Ok(text) = ron::to_string(form) else {
            return;
        };
        if self.campaign.kept_draft.as_ref() == Some(&text) {
            return;
        }
        match drafts.keep(session.path(), &text) {
            Ok(()) => self.campaign.kept_draft = Some(text),
            Err(err) => {
                // Said once, not at every keystroke.
                self.campaign.kept_draft = Some(text);
                self.error(err.context("the record being filled in could not be kept"));
            }
        }
    }

    /// Brings back the record the open campaign had begun: its form, and
    /// the seed of the rolls it showed. A gang no longer in the campaign
    /// is left out; a draft this version cannot read is left where it is.
    pub(super) fn restore_draft(&mut self) {
        let (Some(drafts), Some(session)) = (&self.drafts, &self.session) else {
            return;
        };
        let Some(text) = drafts.read(session.path()) else {
            return;
        };
        let Ok(mut form) = ron::from_str::<BattleForm>(&text) else {
            self.info("A record begun before could not be read back; the form starts empty");
            return;
        };
        for gang in &mut form.gangs {
            if gang.is_some_and(|id| !self.state.gangs.iter().any(|g| g.id == id)) {
                *gang = None;
            }
        }
        form.dirty = true;
        self.campaign.battle_form = form;
        self.campaign.kept_draft = Some(text);
        let noun = self
            .state
            .info
            .as_ref()
            .map(|i| session.record_noun(&i.default_ruleset))
            .unwrap_or_default();
        let notice =
            format!("the {noun} begun before is back on the Record screen, with its rolls");
        self.info(crate::text::capitalised(&notice));
        self.campaign.draft_notice = Some(notice);
    }

    /// Forgets the open campaign's draft: its record was committed.
    pub(super) fn forget_draft(&mut self) {
        let (Some(drafts), Some(session)) = (&self.drafts, &self.session) else {
            return;
        };
        self.campaign.kept_draft = None;
        if let Err(err) = drafts.forget(session.path()) {
            self.error(err.context("the record committed is still kept as begun"));
        }
    }
}
