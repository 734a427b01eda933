//! Backups of the open campaign: made with SQLite's online backup into a
//! folder the face gives (the platform's data folder, for the app and the
//! command line), checked after they are written, named by the campaign's
//! identity and the time, and rotated (the newest few, and one a day for
//! some days: never none); a backup is restored as a new file, never over
//! another. Only the campaign's own backups are listed or rotated: nothing
//! else in the folder is trusted as one or taken out.

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

    /// Refuses a policy that keeps no backup: the newest is always kept.
    pub fn check(self) -> Result<Self> {
        if self.newest == 0 {
            bail!("the newest backup is always kept: keep 1 or more of the newest, not 0");
        }
        Ok(self)
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

/// What every backup's name holds before its time and extension.
const MARK: &str = ".backup-";

impl Session {
    /// Writes a backup of the campaign into `folder` (made if missing),
    /// checks it, and rotates the campaign's backups there by `policy`.
    /// Returns the backup and the older ones taken out. A backup is named
    /// by the campaign's identity, not its file's name
    /// (`camp.1f2e3d4c5b6a.backup-20261125T170509.123Z.rapsheet`), so two
    /// campaigns whose files share a name keep their backups apart.
    pub fn make_backup(
        &self,
        folder: &Path,
        policy: BackupPolicy,
    ) -> Result<(Backup, Vec<PathBuf>)> {
        policy.check()?;
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot make the backups folder {}", folder.display()))?;
        let now = jiff::Timestamp::now();
        let stamp = now.strftime("%Y%m%dT%H%M%S%.3fZ").to_string();
        let target = folder.join(format!(
            "{}.{}{MARK}{stamp}.{}",
            self.backup_stem(),
            self.store.identity()?,
            super::EXTENSION
        ));
        self.store
            .backup_into(&target)
            .with_context(|| format!("the backup {} was not kept", target.display()))?;
        let made = read_backup(&target, &self.store.identity()?, &self.backup_stem())?
            .map(|(_, b)| b)
            .with_context(|| format!("the backup {} cannot be read", target.display()))?;
        let gone = self.rotate_backups(folder, policy)?;
        Ok((made, gone))
    }

    /// Makes a backup unless the campaign has one made today (UTC) in
    /// `folder`: the app's once-a-day backup.
    pub fn daily_backup(&self, folder: &Path, policy: BackupPolicy) -> Result<Option<Backup>> {
        if has_backup_today(folder, &self.store.identity()?, &self.backup_stem())? {
            return Ok(None);
        }
        self.make_backup(folder, policy).map(|(b, _)| Some(b))
    }

    /// What is left to check of a campaign opened with
    /// [`Session::open_checking_later`] (`None`: nothing), with the look
    /// for today's backup in `backups` where one is to be made there: to
    /// run on another thread ([`OpenChecks::run`]).
    pub fn checks_to_come(&self, backups: Option<&Path>) -> Option<OpenChecks> {
        if !self.store.pages_unchecked() {
            return None;
        }
        // A campaign whose identity cannot be read has its backup made
        // (or refused, and said) once its pages check.
        let backups = backups.and_then(|folder| {
            let identity = self.store.identity().ok()?;
            Some((folder.to_owned(), identity, self.backup_stem()))
        });
        Some(OpenChecks {
            path: self.path().to_owned(),
            backups,
        })
    }

    /// Takes in what [`OpenChecks::run`] found. Pages that check: the
    /// campaign may be changed, and the day's backup is made into
    /// `backups` by `policy` where none was found. Pages that do not:
    /// the campaign stays read-only, and the error is what opening it
    /// with [`Session::open`] says.
    pub fn take_checks(
        &mut self,
        checked: OpenChecked,
        backups: Option<(&Path, BackupPolicy)>,
    ) -> Result<Option<Backup>> {
        self.store.pages_checked(&checked.pages);
        checked.pages?;
        let made = match (backups, checked.backup_today) {
            (Some((folder, policy)), Some(false)) => {
                self.make_backup(folder, policy).map(|(b, _)| Some(b))
            }
            (Some((folder, policy)), None) => self.daily_backup(folder, policy),
            _ => Ok(None),
        };
        made.context("the day's backup was not made")
    }

    /// The campaign's backups in `folder`, newest first: the files named as
    /// its backups (one that does not check, or holds another campaign, is
    /// listed with why), and those named by an earlier Rapsheet after the
    /// campaign's file that hold this campaign. Anything else there (other
    /// campaigns' backups, folders, links, other files) is not looked at.
    pub fn backups(&self, folder: &Path) -> Result<Vec<Backup>> {
        let identity = self.store.identity()?;
        let stem = self.backup_stem();
        let mut out = Vec::new();
        let Ok(entries) = std::fs::read_dir(folder) else {
            return Ok(Vec::new());
        };
        for entry in entries.flatten() {
            // A plain file: never a folder, and never through a link.
            if !entry.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            if let Some(backup) = read_backup(&entry.path(), &identity, &stem)? {
                out.push(backup);
            }
        }
        // Newest first: the names carry the time to the millisecond.
        out.sort_by(|a, b| b.0.cmp(&a.0));
        Ok(out.into_iter().map(|(_, b)| b).collect())
    }

    /// Takes out the backups `policy` does not keep; returns them. Only
    /// backups that check and hold this campaign are counted or taken out.
    fn rotate_backups(&self, folder: &Path, policy: BackupPolicy) -> Result<Vec<PathBuf>> {
        let sound: Vec<Backup> = self
            .backups(folder)?
            .into_iter()
            .filter(|b| b.problem.is_none())
            .collect();
        let times: Vec<&str> = sound.iter().map(|b| b.at.as_str()).collect();
        let keep = kept(&times, policy);
        let mut gone = Vec::new();
        for (i, backup) in sound.iter().enumerate() {
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

/// The checks left of a campaign opened with
/// [`Session::open_checking_later`]: its pages, and today's backup. They
/// read files alone, never the session, so they run on a thread of their
/// own while the window draws.
#[derive(Debug, Clone)]
pub struct OpenChecks {
    path: PathBuf,
    /// The backups folder, the campaign's identity and its file's stem.
    backups: Option<(PathBuf, String, String)>,
}

/// What [`OpenChecks::run`] found.
#[derive(Debug)]
pub struct OpenChecked {
    pages: Result<(), crate::store::StoreError>,
    /// Whether a backup made today checks (`None`: not looked for, or
    /// the folder could not be read: looked for again).
    backup_today: Option<bool>,
}

impl OpenChecks {
    /// Checks every page of the campaign's file, as opening does, and
    /// whether a backup made today checks (which reads it whole).
    pub fn run(self) -> OpenChecked {
        let pages = crate::store::check_pages(&self.path);
        let backup_today = match (&pages, &self.backups) {
            (Ok(()), Some((folder, identity, stem))) => {
                has_backup_today(folder, identity, stem).ok()
            }
            _ => None,
        };
        OpenChecked {
            pages,
            backup_today,
        }
    }
}

/// Whether `folder` has a backup of the campaign (`identity`, its file
/// named `stem`) made today (UTC) that checks. Only the backups named as
/// made today are read, newest first, up to the first that checks: each
/// check reads its file whole, and the older ones cannot decide it, so
/// opening does not slow down as the folder fills.
fn has_backup_today(folder: &Path, identity: &str, stem: &str) -> Result<bool> {
    let today = jiff::Timestamp::now().strftime("%Y-%m-%d").to_string();
    let mut todays: Vec<(String, PathBuf)> = match std::fs::read_dir(folder) {
        Ok(entries) => entries
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|entry| {
                let path = entry.path();
                let (_, stamp, at) = backup_name(&path)?;
                let stamp = stamp.to_owned();
                at.starts_with(&today).then_some((stamp, path))
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    todays.sort_by(|a, b| b.0.cmp(&a.0));
    for (_, path) in todays {
        if let Some((_, backup)) = read_backup(&path, identity, stem)?
            && backup.problem.is_none()
        {
            return Ok(true);
        }
    }
    Ok(false)
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

/// A file in a backups folder as one of the campaign's (`identity`)
/// backups, with the time its name carries (to sort by): `None` where it
/// is not one. Named with the identity, it is listed even when it does not
/// check (then with why); named as an earlier Rapsheet named backups, by
/// the campaign file's name alone (`stem`), only when it holds this
/// campaign.
fn read_backup(path: &Path, identity: &str, stem: &str) -> Result<Option<(String, Backup)>> {
    let Some((before, stamp, at)) = backup_name(path) else {
        return Ok(None);
    };
    let named_ours = before.rsplit('.').next() == Some(identity);
    // As an earlier Rapsheet named them: after the campaign file alone.
    if !named_ours && before != stem {
        return Ok(None);
    }
    let facts = crate::store::check_copy(path);
    let problem = match &facts {
        Ok(f) if f.identity.as_deref() == Some(identity) => None,
        Ok(_) => Some("it holds another campaign".to_owned()),
        Err(err) => Some(err.to_string()),
    };
    if !named_ours && problem.is_some() {
        return Ok(None);
    }
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    let newest_record = facts.ok().and_then(|f| f.newest_record);
    Ok(Some((
        stamp.to_owned(),
        Backup {
            path: path.to_owned(),
            at,
            size,
            newest_record: newest_record.filter(|_| problem.is_none()),
            problem,
        },
    )))
}

/// What a backup's file name says, read from the name alone: what comes
/// before its time (the campaign file's name and, since backups are named
/// so, the campaign's identity), the time as written
/// (`20261125T170509.123Z`, to sort by) and as shown
/// (`2026-11-25T17:05:09Z`). `None` where the name is not a backup's.
fn backup_name(path: &Path) -> Option<(&str, &str, String)> {
    let name = path.file_name()?.to_str()?;
    let (before, stamp) = name
        .strip_suffix(&format!(".{}", super::EXTENSION))?
        .rsplit_once(MARK)?;
    let at = jiff::fmt::strtime::parse("%Y%m%dT%H%M%S%.fZ", stamp)
        .and_then(|t| t.to_datetime())
        .ok()?;
    Some((
        before,
        stamp,
        format!("{}Z", at.strftime("%Y-%m-%dT%H:%M:%S")),
    ))
}

/// Restores a backup as a new campaign file at `target`: checked first,
/// copied to a temporary file beside the target and renamed into place;
/// never over a file already there.
pub fn restore_backup(backup: &Path, target: &Path) -> Result<()> {
    crate::output::refuse_side_file(target)?;
    if target.exists() {
        bail!(
            "{}: a file is already there; restore to a new file",
            target.display()
        );
    }
    crate::store::check_copy(backup)
        .with_context(|| format!("{} cannot be restored", backup.display()))?;
    let bytes = crate::input::read(backup, crate::input::Kind::Backup)?;
    crate::output::write(target, &bytes, crate::output::Existing::Refuse, None)?;
    Ok(())
}
