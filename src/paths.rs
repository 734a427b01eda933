//! Where Rapsheet keeps its files on this machine.

use std::path::{Path, PathBuf};

use directories::ProjectDirs;

/// The platform data directory (`~/.local/share/rapsheet` on Linux).
pub fn data_dir() -> Option<PathBuf> {
    ProjectDirs::from("", "", "Rapsheet").map(|dirs| dirs.data_dir().to_owned())
}

/// Where backups of campaigns are kept: `backups` in the data directory.
pub fn backups_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("backups"))
}

/// Where records begun and not committed are kept: `drafts` in the data
/// directory.
pub fn drafts_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("drafts"))
}

/// The player's documents folder (or home), where printouts go by default.
pub fn documents_dir() -> Option<PathBuf> {
    directories::UserDirs::new().map(|u| {
        u.document_dir()
            .map_or_else(|| u.home_dir().to_owned(), |d| d.to_owned())
    })
}

/// Where a file dialog opens: the open campaign's folder, unless that is
/// the app's own hidden data folder (a demo), and otherwise the player's
/// documents folder.
pub fn start_folder(campaign: Option<&Path>) -> Option<PathBuf> {
    start_folder_within(campaign, data_dir().as_deref(), documents_dir())
}

fn start_folder_within(
    campaign: Option<&Path>,
    data: Option<&Path>,
    documents: Option<PathBuf>,
) -> Option<PathBuf> {
    let folder = campaign.and_then(Path::parent);
    match folder {
        Some(folder) if !data.is_some_and(|d| folder.starts_with(d)) => Some(folder.to_owned()),
        _ => documents,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dialog_opens_beside_the_campaign_but_never_in_the_hidden_data_folder() {
        let data = Path::new("/home/ann/.local/share/rapsheet");
        let docs = Some(PathBuf::from("/home/ann/Documents"));
        let mine = Path::new("/home/ann/games/reef.rapsheet");
        assert_eq!(
            start_folder_within(Some(mine), Some(data), docs.clone()),
            Some(PathBuf::from("/home/ann/games"))
        );
        let demo = data.join("demo-heartbreaker.rapsheet");
        assert_eq!(
            start_folder_within(Some(&demo), Some(data), docs.clone()),
            docs
        );
        assert_eq!(start_folder_within(None, Some(data), docs.clone()), docs);
    }
}
