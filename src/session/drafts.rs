//! Records begun and not yet committed, kept on this laptop.
//!
//! A campaign file holds only what was committed; a record the player is
//! still filling in (and the dice the app already rolled for it) is kept
//! here, one file a campaign in the app's data folder, so that closing the
//! window, opening another campaign or a crash never throws it away. The
//! window writes the form's text as it changes, reads it back when the
//! campaign opens again, and forgets it once the record is committed or
//! cleared. What the text says is the window's business: this room only
//! keeps it.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

/// The drafts kept in one folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drafts {
    folder: PathBuf,
}

impl Drafts {
    /// The drafts kept in `folder` (made when the first is kept).
    pub fn in_folder(folder: impl Into<PathBuf>) -> Self {
        Self {
            folder: folder.into(),
        }
    }

    /// Where the campaign at `campaign` keeps its draft: a file named by
    /// the hash of the campaign's full path, so two campaigns of the same
    /// name in two folders keep two drafts.
    fn file(&self, campaign: &Path) -> PathBuf {
        let full = std::fs::canonicalize(campaign).unwrap_or_else(|_| campaign.to_owned());
        let hash = blake3::hash(full.as_os_str().as_encoded_bytes());
        self.folder.join(format!("{}.draft", &hash.to_hex()[..32]))
    }

    /// Keeps `text` as the campaign's draft, replacing the one kept before
    /// (written whole, then renamed).
    pub fn keep(&self, campaign: &Path, text: &str) -> Result<()> {
        std::fs::create_dir_all(&self.folder).with_context(|| crate::text::path(&self.folder))?;
        crate::output::write(
            &self.file(campaign),
            text.as_bytes(),
            crate::output::Existing::Replace,
            Some(campaign),
        )?;
        Ok(())
    }

    /// The campaign's draft, if one is kept and can be read.
    pub fn read(&self, campaign: &Path) -> Option<String> {
        crate::input::read_text(&self.file(campaign), crate::input::Kind::Report).ok()
    }

    /// Forgets the campaign's draft (committed or cleared); nothing where
    /// none is kept.
    pub fn forget(&self, campaign: &Path) -> Result<()> {
        let file = self.file(campaign);
        match std::fs::remove_file(&file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| crate::text::path(&file))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_is_kept_per_campaign_until_it_is_forgotten() {
        let dir = tempfile::tempdir().expect("temp");
        let drafts = Drafts::in_folder(dir.path().join("drafts"));
        let a = dir.path().join("a.rapsheet");
        let b = dir.path().join("sub").join("a.rapsheet");
        assert_eq!(drafts.read(&a), None, "none kept yet");
        drafts.keep(&a, "one").expect("keep");
        drafts.keep(&b, "two").expect("keep");
        drafts.keep(&a, "three").expect("replace");
        assert_eq!(drafts.read(&a).as_deref(), Some("three"));
        assert_eq!(drafts.read(&b).as_deref(), Some("two"));
        drafts.forget(&a).expect("forget");
        drafts.forget(&a).expect("forgetting twice is nothing");
        assert_eq!(drafts.read(&a), None);
        assert_eq!(drafts.read(&b).as_deref(), Some("two"));
    }
}
