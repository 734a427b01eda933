//! The Bundles window: a gang (or the whole campaign) written to a bundle
//! file, a bundle's gangs brought in, a new campaign made from a whole
//! campaign's bundle.

use std::collections::BTreeMap;
use std::path::Path;

use crate::session::Session;
use crate::ui::app::RapsheetApp;
use crate::ui::base::action::BundleAction;

impl RapsheetApp {
    pub(super) fn run_bundle(&mut self, action: BundleAction) {
        match action {
            BundleAction::Open => {
                self.campaign.bundles_window = Some(crate::ui::views::bundles::BundlesWindow {
                    export_path: self.offered_output("bundle", "json"),
                    new_path: self.offered_output("from its bundle", crate::session::EXTENSION),
                    ..Default::default()
                });
            }
            BundleAction::Close => self.campaign.bundles_window = None,
            BundleAction::Export {
                gang,
                whole,
                to,
                replace,
            } => self.export_bundle(gang.as_deref(), whole, &to, replace),
            BundleAction::OpenWhole { file, to } => self.open_whole_bundle(&file, &to),
            BundleAction::Import { file, renamed } => self.import_bundle(&file, &renamed),
        }
    }

    /// Writes a gang, or every gang, to a bundle file: atomically, never
    /// over the campaign, over another file only when asked.
    fn export_bundle(&mut self, gang: Option<&str>, whole: bool, to: &Path, replace: bool) {
        let Some(session) = &self.session else {
            return;
        };
        let bundle = if whole {
            session.export_whole_bundle()
        } else {
            gang.map(|g| session.gang_named(g).map(|g| g.id))
                .transpose()
                .and_then(|id| session.export_bundle(id))
        };
        let bytes = bundle.and_then(|b| Ok(serde_json::to_vec_pretty(&b)?));
        let existing = if replace {
            crate::output::Existing::Replace
        } else {
            crate::output::Existing::Refuse
        };
        let written = bytes.and_then(|bytes| {
            Ok(crate::output::write(
                to,
                &bytes,
                existing,
                Some(session.path()),
            )?)
        });
        match written {
            Ok(()) => self.info(format!("Bundle written to {}", to.display())),
            Err(err) => self.error(err),
        }
    }

    /// Makes a new campaign file from a whole campaign's bundle and opens it.
    fn open_whole_bundle(&mut self, file: &Path, to: &Path) {
        // Read with the packs the window was started with (`--pack`), as
        // every campaign it opens is.
        let made = crate::session::read_bundle_file(file)
            .and_then(|bytes| Session::create_from_bundle_with(to, &bytes, self.packs()?));
        match made {
            Ok(session) => {
                self.campaign.bundles_window = None;
                self.set_session(session);
                self.info(format!("Made {} from the bundle", to.display()));
            }
            Err(err) => self.error(err),
        }
    }

    /// Brings a bundle's gangs in; where a gang's name is taken here and
    /// not renamed yet, the Bundles window asks for the name it comes in
    /// under instead, and nothing is written.
    fn import_bundle(&mut self, file: &Path, renamed: &BTreeMap<String, String>) {
        let Some(session) = self.session.as_ref() else {
            return;
        };
        let read = crate::session::read_bundle_file(file)
            .and_then(|bytes| Ok((session.bundle_name_clashes(&bytes)?, bytes)));
        let (clashes, bytes) = match read {
            Ok(read) => read,
            Err(err) => {
                return self.error(err.context(format!("{} was not brought in", file.display())));
            }
        };
        let unnamed: Vec<String> = clashes
            .into_iter()
            .filter(|name| !renamed.contains_key(name))
            .collect();
        if !unnamed.is_empty() {
            if let Some(window) = self.campaign.bundles_window.as_mut() {
                window.ask_names(&unnamed);
            }
            let names = unnamed.join(", ");
            return self.info(format!(
                "This campaign already has a gang called {names}: choose the name each comes in under"
            ));
        }
        let brought = self.change("Bundle brought in", |s| {
            s.import_bundle_as(&bytes, renamed).map(|(b, _)| b)
        });
        if brought && let Some(window) = self.campaign.bundles_window.as_mut() {
            window.renames.clear();
        }
    }
}
