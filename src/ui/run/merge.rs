//! The Merge window: another copy of the campaign looked at beside this
//! one, and the merge written, as chosen, to a new file.

use std::path::Path;

use crate::ui::app::RapsheetApp;
use crate::ui::base::action::MergeAction;

impl RapsheetApp {
    pub(super) fn run_merge(&mut self, action: MergeAction) {
        match action {
            MergeAction::Open => {
                // The other copy is looked for beside this one.
                let folder = self.output_dir();
                self.campaign.merge_window = Some(crate::ui::views::merge::MergeWindow {
                    other_path: format!("{}{}", folder.display(), std::path::MAIN_SEPARATOR),
                    ..Default::default()
                });
            }
            MergeAction::Close => self.campaign.merge_window = None,
            MergeAction::LookAt(other) => self.look_at_merge(&other),
            MergeAction::Write(to) => self.write_merge(&to),
        }
    }

    /// Reads another copy and shows the merge in the Merge window.
    fn look_at_merge(&mut self, other: &Path) {
        let (Some(session), Some(window)) = (&self.session, self.campaign.merge_window.as_mut())
        else {
            return;
        };
        let looked = session
            .plan_merge(other)
            .and_then(|m| session.merge_preview(&m).map(|p| (m, p)));
        match looked {
            Ok((merge, preview)) => window.show(merge, preview, session.path()),
            Err(err) => self.error(err),
        }
    }

    /// Writes the merge looked at, as chosen, to a new file, and opens it.
    fn write_merge(&mut self, to: &Path) {
        let (Some(session), Some(window)) = (&self.session, &self.campaign.merge_window) else {
            return;
        };
        let Some((merge, _)) = &window.looked else {
            return;
        };
        match session.write_merge(merge, &window.choices, to) {
            Ok(merged) => {
                self.campaign.merge_window = None;
                self.set_session(merged);
                self.info(format!("Merged into {}, verified", to.display()));
            }
            Err(err) => self.error(err),
        }
    }
}
