//! Backups of the open campaign: made with SQLite's online backup into a
//! folder the face gives (the platform's data folder, for the app and the
//! command line), checked after they are written, named by campaign and
//! time, and rotated (the newest few, and one a day for some days); a
//! backup is restored as a new file, never over another.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::Serialize;

use super::Session;

/// How many backups are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BackupPolicy {
    /// The newest this many, whatever their day.
    pub newest: usize,
    /// And the newest of each of this many days.
    pub days: usize,
}

impl BackupPolicy {
    /// The policy as the app keeps it among its settings: `10 7`.
    pub fn to_setting(self) -> String {
        format!("{} {}", self.newest, self.days)
    }

    /// A policy kept by [`BackupPolicy::to_setting`]; `None` for anything
    /// else (then the default stands). At least one backup is kept.
    pub fn from_setting(text: &str) -> Option<Self> {
        let (newest, days) = text.trim().split_once(' ')?;
        let newest: usize = newest.parse().ok()?;
        let days: usize = days.trim().parse().ok()?;
        (newest >= 1).then_some(Self { newest, days })
    }
}

impl Default for BackupPolicy {
    fn default() -> Self {
        Self {
            newest: 10,
            days: 7,
        }
    }
}

/// One backup of a campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Backup {
    pub path: PathBuf,
    /// When it was made, UTC, as its name says (`2026-11-25T17:05:09Z`).
    pub at: String,
    pub size: u64,
    /// The newest record it holds.
    pub newest_record: Option<i64>,
    /// Why it cannot be restored, where it does not check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// The suffix of every backup's name, before its extension.
const MARK: &str = ".backup-";

impl Session {
    /// Writes a backup of the campaign into `folder` (made if missing),
    /// checks it, and rotates the campaign's backups there by `policy`.
    /// Returns the backup and the older ones taken out.
    pub fn make_backup(
        &self,
        folder: &Path,
        policy: BackupPolicy,
    ) -> Result<(Backup, Vec<PathBuf>)> {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot make the backups folder {}", folder.display()))?;
        let now = jiff::Timestamp::now();
        let stamp = now.strftime("%Y%m%dT%H%M%S%.3fZ").to_string();
        let target = folder.join(format!(
            "{}{MARK}{stamp}.{}",
            self.backup_stem(),
            super::EXTENSION
        ));
        self.store
            .backup_into(&target)
            .with_context(|| format!("the backup {} was not kept", target.display()))?;
        let made = read_backup(&target)?;
        let gone = self.rotate_backups(folder, policy)?;
        Ok((made, gone))
    }

    /// Makes a backup unless the campaign has one made today (UTC) in
    /// `folder`: the app's once-a-day backup.
    pub fn daily_backup(&self, folder: &Path, policy: BackupPolicy) -> Result<Option<Backup>> {
        let today = jiff::Timestamp::now().strftime("%Y-%m-%d").to_string();
        if self
            .backups(folder)?
            .iter()
            .any(|b| b.at.starts_with(&today))
        {
            return Ok(None);
        }
        self.make_backup(folder, policy).map(|(b, _)| Some(b))
    }

    /// The campaign's backups in `folder`, newest first.
    pub fn backups(&self, folder: &Path) -> Result<Vec<Backup>> {
        let prefix = format!("{}{MARK}", self.backup_stem());
        let mut out = Vec::new();
        let Ok(entries) = std::fs::read_dir(folder) else {
            return Ok(out);
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(&prefix) && name.ends_with(super::EXTENSION) {
                out.push(read_backup(&entry.path())?);
            }
        }
        // Newest first: the names carry the time to the millisecond.
        out.sort_by(|a, b| b.path.cmp(&a.path));
        Ok(out)
    }

    /// Takes out the backups `policy` does not keep; returns them.
    fn rotate_backups(&self, folder: &Path, policy: BackupPolicy) -> Result<Vec<PathBuf>> {
        let all = self.backups(folder)?;
        let times: Vec<&str> = all.iter().map(|b| b.at.as_str()).collect();
        let keep = kept(&times, policy);
        let mut gone = Vec::new();
        for (i, backup) in all.iter().enumerate() {
            if !keep.contains(&i) {
                std::fs::remove_file(&backup.path)
                    .with_context(|| format!("cannot take out {}", backup.path.display()))?;
                gone.push(backup.path.clone());
            }
        }
        Ok(gone)
    }

    /// The campaign file's name without its extension, for its backups'.
    fn backup_stem(&self) -> String {
        self.path().file_stem().map_or_else(
            || "campaign".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        )
    }
}

/// Which of the backups made at `times` (newest first) a policy keeps, by
/// index: the newest `policy.newest`, and the newest of each of the
/// `policy.days` newest days.
pub fn kept(times: &[&str], policy: BackupPolicy) -> Vec<usize> {
    let mut keep: Vec<usize> = (0..times.len().min(policy.newest)).collect();
    let mut days: Vec<&str> = Vec::new();
    for (i, at) in times.iter().enumerate() {
        let day = at.get(..10).unwrap_or(at);
        if days.contains(&day) {
            continue;
        }
        if days.len() == policy.days {
            break;
        }
        days.push(day);
        if !keep.contains(&i) {
            keep.push(i);
        }
    }
    keep.sort_unstable();
    keep
}

/// A backup file as listed: when (from its name), its size, and what it
/// holds, or why it does not check.
fn read_backup(path: &Path) -> Result<Backup> {
    let name = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stamp = name.rsplit(MARK).next().unwrap_or_default();
    let at = jiff::fmt::strtime::parse("%Y%m%dT%H%M%S%.fZ", stamp)
        .and_then(|t| t.to_datetime())
        .map_or_else(
            |_| stamp.to_owned(),
            |t| format!("{}Z", t.strftime("%Y-%m-%dT%H:%M:%S")),
        );
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    let (newest_record, problem) = match crate::store::check_copy(path) {
        Ok(facts) => (facts.newest_record, None),
        Err(err) => (None, Some(err.to_string())),
    };
    Ok(Backup {
        path: path.to_owned(),
        at,
        size,
        newest_record,
        problem,
    })
}

/// Restores a backup as a new campaign file at `target`: checked first,
/// copied to a temporary file beside the target and renamed into place;
/// never over a file already there.
pub fn restore_backup(backup: &Path, target: &Path) -> Result<()> {
    if target.exists() {
        bail!(
            "{}: a file is already there; restore to a new file",
            target.display()
        );
    }
    crate::store::check_copy(backup)
        .with_context(|| format!("{} cannot be restored", backup.display()))?;
    let bytes =
        std::fs::read(backup).with_context(|| format!("cannot read {}", backup.display()))?;
    crate::output::write(target, &bytes, crate::output::Existing::Refuse, None)?;
    Ok(())
}
