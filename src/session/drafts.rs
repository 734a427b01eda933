//! Records begun and not yet committed, kept on this laptop.
//!
//! A campaign file holds only what was committed; a record the player is
//! still filling in (and the dice the app already rolled for it) is kept
//! here, one file a campaign in the app's data folder, so that closing the
//! window, opening another campaign or a crash never throws it away. The
//! window writes the form's text as it changes, reads it back when the
//! campaign opens again, and forgets it once the record is committed or
//! cleared. What the text says is the window's business: this room keeps
//! it, and reads it as any file handed to Rapsheet is read
//! ([`crate::input`]: a regular file, within its size, text). A draft that
//! cannot be read, or that the window finds does not fit the campaign, is
//! set aside beside where it was kept ([`Drafts::set_aside`]), never
//! deleted and never read again.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

/// What reading a campaign's draft found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraftRead {
    /// No draft is kept for the campaign.
    None,
    /// The draft's text.
    Kept(String),
    /// What was kept could not be read (not a file, too large, not text):
    /// it was set aside as `kept`, for the reason `why`.
    SetAside { why: String, kept: PathBuf },
    /// What was kept could not be read, nor set aside: it is left where it
    /// is, and not read.
    Unread { why: String },
}

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
    pub fn file(&self, campaign: &Path) -> PathBuf {
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

    /// The campaign's draft, read as any file handed to Rapsheet is: one
    /// that is not a regular file, is larger than a draft may be or is not
    /// text is set aside, not read.
    pub fn read(&self, campaign: &Path) -> DraftRead {
        use crate::input::{InputError, Kind, read_text};
        let file = self.file(campaign);
        let why = match read_text(&file, Kind::Draft) {
            Ok(text) => return DraftRead::Kept(text),
            // A link to nowhere is a draft no more than no file is.
            Err(InputError::NotFound(_)) if file.symlink_metadata().is_err() => {
                return DraftRead::None;
            }
            Err(InputError::NotFound(_)) => "it names a file that is not there".to_owned(),
            Err(InputError::NotAFile { .. }) => {
                "it is not a file (a folder, a pipe or a device)".to_owned()
            }
            Err(InputError::TooLarge { .. }) => format!(
                "it is larger than {} may be (at most {})",
                Kind::Draft.noun(),
                crate::input::size(Kind::Draft.limit())
            ),
            Err(InputError::NotText { .. }) => "it is not text (its bytes are not UTF-8)".into(),
            Err(InputError::Io { source, .. }) => format!("it cannot be read ({source})"),
        };
        match self.set_aside(campaign) {
            Ok(kept) => DraftRead::SetAside { why, kept },
            Err(err) => DraftRead::Unread {
                why: format!("{why}; it could not be set aside either ({err:#})"),
            },
        }
    }

    /// Sets the campaign's draft aside: renamed, beside where it was kept,
    /// to a name no draft is read from (`….set-aside.draft`, numbered
    /// where one is there already), so nothing is lost and the next record
    /// begun is kept anew. Whatever is there is moved as it is (a link, a
    /// pipe, a folder), never opened. Returns where it went.
    pub fn set_aside(&self, campaign: &Path) -> Result<PathBuf> {
        let file = self.file(campaign);
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        for n in 1..=1000 {
            let name = if n == 1 {
                format!("{stem}.set-aside.draft")
            } else {
                format!("{stem}.set-aside-{n}.draft")
            };
            let kept = file.with_file_name(name);
            if kept.symlink_metadata().is_ok() {
                continue;
            }
            std::fs::rename(&file, &kept).with_context(|| crate::text::path(&file))?;
            return Ok(kept);
        }
        anyhow::bail!(
            "{}: a thousand drafts are set aside beside it already",
            crate::text::path(&file)
        )
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
        let kept = |text: &str| DraftRead::Kept(text.to_owned());
        assert_eq!(drafts.read(&a), DraftRead::None, "none kept yet");
        drafts.keep(&a, "one").expect("keep");
        drafts.keep(&b, "two").expect("keep");
        drafts.keep(&a, "three").expect("replace");
        assert_eq!(drafts.read(&a), kept("three"));
        assert_eq!(drafts.read(&b), kept("two"));
        drafts.forget(&a).expect("forget");
        drafts.forget(&a).expect("forgetting twice is nothing");
        assert_eq!(drafts.read(&a), DraftRead::None);
        assert_eq!(drafts.read(&b), kept("two"));
    }

    #[test]
    fn a_draft_that_cannot_be_read_is_set_aside_and_said() {
        let dir = tempfile::tempdir().expect("temp");
        let folder = dir.path().join("drafts");
        std::fs::create_dir_all(&folder).expect("folder");
        let drafts = Drafts::in_folder(&folder);
        let a = dir.path().join("a.rapsheet");
        let file = drafts.file(&a);
        let big = vec![b'x'; 4 * 1024 * 1024 + 1];
        for (bytes, said) in [
            (vec![0xff, 0xfe, b'('], "not text"),
            (big, "larger than a record begun may be (at most 4 MB)"),
        ] {
            std::fs::write(&file, &bytes).expect("write");
            let DraftRead::SetAside { why, kept } = drafts.read(&a) else {
                panic!("set aside: {said}");
            };
            assert!(why.contains(said), "{why}");
            assert_eq!(std::fs::read(&kept).expect("kept beside"), bytes);
            assert!(file.symlink_metadata().is_err(), "its place is free");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/dev/zero", &file).expect("link");
            let read = drafts.read(&a);
            assert!(
                matches!(&read, DraftRead::SetAside { why, .. } if why.contains("not a file")),
                "{read:?}"
            );
            assert!(file.symlink_metadata().is_err());
        }
        // The next record begun is kept anew, beside those set aside.
        drafts.keep(&a, "new").expect("keep");
        assert_eq!(drafts.read(&a), DraftRead::Kept("new".into()));
    }
}
