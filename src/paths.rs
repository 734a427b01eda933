//! Where Rapsheet keeps its files on this machine.

use std::path::PathBuf;

use directories::ProjectDirs;

/// The platform data directory (`~/.local/share/rapsheet` on Linux).
pub fn data_dir() -> Option<PathBuf> {
    ProjectDirs::from("", "", "Rapsheet").map(|dirs| dirs.data_dir().to_owned())
}

/// Where backups of campaigns are kept: `backups` in the data directory.
pub fn backups_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("backups"))
}

/// The player's documents folder (or home), where printouts go by default.
pub fn documents_dir() -> Option<PathBuf> {
    directories::UserDirs::new().map(|u| {
        u.document_dir()
            .map_or_else(|| u.home_dir().to_owned(), |d| d.to_owned())
    })
}

/// The campaign a first run creates and fills with the demo.
/// Where the demo played with `ruleset` is kept.
pub fn demo_campaign(ruleset: &str) -> Option<PathBuf> {
    data_dir().map(|dir| {
        dir.join(format!(
            "demo-{}.{}",
            sanitize_id(ruleset),
            crate::session::EXTENSION
        ))
    })
}

/// A pack id as a file name's part: its letters, digits and dashes.
fn sanitize_id(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

pub fn default_campaign() -> Option<PathBuf> {
    data_dir().map(|dir| dir.join(format!("demo.{}", crate::session::EXTENSION)))
}
