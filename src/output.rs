//! Files the app writes for a player: PDFs and chronicle exports.
//!
//! An output is written whole or not at all (a temporary file in the same
//! folder, synced, then renamed over the name), never over the open
//! campaign or any file that belongs to it (its `-wal`, `-shm`, `-journal`
//! and `.lock`, however the path is spelled: `./c.rapsheet`, a symlink or a
//! hard link), and never over an existing file unless the player asked.
//! No output, and no new campaign, is ever another campaign's side file
//! (`X-wal`, `X-shm`, `X-journal`, `X.lock`): SQLite would take it, or
//! delete it, the next time `X` opens.
//! The faces (CLI and GUI) come here for every file they write; the
//! campaign itself is written only by `store`, into temporary files named
//! here so that one a killed run left behind is known and cleared.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What to do when a file is already at the output's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Refuse, and leave the file as it is.
    Refuse,
    /// Replace it (the player said so: `--force`, or Replace in the app).
    Replace,
}

/// Why an output was not written. Nothing was changed on disk.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{}: that is the open campaign's file ({}); choose another name", crate::text::path(.path), .which)]
    IsCampaign { path: PathBuf, which: String },
    #[error("{}: that name is the {suffix} file of the campaign {campaign}, overwritten or deleted when it opens; choose another name", crate::text::path(.path))]
    SideFile {
        path: PathBuf,
        campaign: String,
        suffix: &'static str,
    },
    #[error("{}: that file is a Rapsheet campaign; no output replaces a campaign, even when asked to replace; choose another name", crate::text::path(.0))]
    ACampaign(PathBuf),
    #[error("{}: a file is already there", crate::text::path(.0))]
    Exists(PathBuf),
    #[error("{}: not a regular file (a device, a pipe, a socket or a folder); no output replaces one, even when asked to replace; choose a file name", crate::text::path(.0))]
    NotARegularFile(PathBuf),
    #[error("{}: not a file name", crate::text::path(.0))]
    NotAFileName(PathBuf),
    #[error("{}: {source}", crate::text::path(.path))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What SQLite and Rapsheet add to a campaign's name for the files they
/// keep beside it.
const SIDE_SUFFIXES: [&str; 4] = ["-wal", "-shm", "-journal", ".lock"];

/// The files that make up a campaign on disk: the database and what
/// SQLite and Rapsheet keep beside it.
pub fn campaign_files(campaign: &Path) -> Vec<PathBuf> {
    let mut files = vec![campaign.to_owned()];
    for suffix in SIDE_SUFFIXES {
        let mut name = campaign.as_os_str().to_owned();
        name.push(suffix);
        files.push(PathBuf::from(name));
    }
    files
}

/// Writes `bytes` to `path` atomically. `campaign` is the open campaign's
/// file, if one is open: no output may land on it or beside it in its
/// place.
pub fn write(
    path: &Path,
    bytes: &[u8],
    existing: Existing,
    campaign: Option<&Path>,
) -> Result<(), OutputError> {
    write_with_mode(path, bytes, existing, campaign, 0o666)
}

/// [`write`] for a file that holds a secret (a league invite's password):
/// readable and writable by its owner alone.
pub fn write_private(
    path: &Path,
    bytes: &[u8],
    existing: Existing,
    campaign: Option<&Path>,
) -> Result<(), OutputError> {
    write_with_mode(path, bytes, existing, campaign, 0o600)
}

fn write_with_mode(
    path: &Path,
    bytes: &[u8],
    existing: Existing,
    campaign: Option<&Path>,
    #[cfg_attr(not(unix), allow(unused_variables))] mode: u32,
) -> Result<(), OutputError> {
    // An error of the temporary file is said of the file asked for: the
    // temporary file's name is never shown.
    let io = |source| OutputError::Io {
        path: path.to_owned(),
        source: without_path(source),
    };
    if path.file_name().is_none() {
        return Err(OutputError::NotAFileName(path.to_owned()));
    }
    if let Some(campaign) = campaign {
        refuse_campaign(path, campaign)?;
    }
    refuse_side_file(path)?;
    if crate::store::is_campaign_file(path) {
        return Err(OutputError::ACampaign(path.to_owned()));
    }
    // A device, a pipe, a socket or a folder is never replaced, whatever
    // the player asked: a rename would put a plain file where the system
    // (or another program) has something else, through a link too.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(OutputError::NotARegularFile(path.to_owned()));
    }
    clear_stale_temporaries(path);
    let present = path.symlink_metadata().is_ok();
    if present && existing == Existing::Refuse {
        return Err(OutputError::Exists(path.to_owned()));
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let mut builder = tempfile::Builder::new();
    let prefix = format!("{TEMP_PREFIX}{}.", name.unwrap_or_default());
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // As a plain file would be made (the umask decides, not 0600),
        // unless it holds a secret.
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    let mut tmp = builder.tempfile_in(&folder).map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    let persisted = match existing {
        Existing::Refuse => tmp.persist_noclobber(path),
        Existing::Replace => tmp.persist(path),
    };
    if let Err(err) = persisted {
        // The temporary file is removed when `err.file` drops.
        return Err(match err.error.kind() {
            std::io::ErrorKind::AlreadyExists => OutputError::Exists(path.to_owned()),
            _ => io(err.error),
        });
    }
    sync_folder(&folder);
    Ok(())
}

/// An I/O error without the path a library wrapped into it (tempfile
/// adds its temporary file's, ` at path "…"`): the error of the file
/// asked for, never of the temporary one.
fn without_path(err: std::io::Error) -> std::io::Error {
    if err.get_ref().is_none() {
        return err;
    }
    let text = err.to_string();
    match text.rfind(" at path ") {
        Some(cut) => std::io::Error::new(err.kind(), text[..cut].to_owned()),
        None => err,
    }
}

/// Refuses a path named as a campaign's side file: `X-wal`, `X-shm`,
/// `X-journal` or `X.lock`, where `X` is a file already there (whatever it
/// holds) or named as a campaign (`.rapsheet`), so one yet to be made. Every
/// output and every new campaign file is checked here.
pub fn refuse_side_file(path: &Path) -> Result<(), OutputError> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Ok(());
    };
    for suffix in SIDE_SUFFIXES {
        let Some(campaign) = name.strip_suffix(suffix).filter(|c| !c.is_empty()) else {
            continue;
        };
        let beside = path.with_file_name(campaign);
        let named_as_one = campaign.ends_with(&format!(".{}", crate::store::EXTENSION));
        if named_as_one || std::fs::metadata(&beside).is_ok_and(|m| m.is_file()) {
            return Err(OutputError::SideFile {
                path: path.to_owned(),
                campaign: campaign.to_owned(),
                suffix,
            });
        }
    }
    Ok(())
}

/// How every temporary file Rapsheet writes beside a target begins: one
/// left by a run that was killed is known by it, and only such files are
/// ever cleared.
pub const TEMP_PREFIX: &str = ".rapsheet-partial-";

/// How long a temporary file is left alone: one older than this, unchanged,
/// belongs to a run that is over.
const STALE: std::time::Duration = std::time::Duration::from_secs(60);

/// A new temporary file's name beside `target`, for a file written in
/// place there and renamed onto `target` when whole.
pub fn temp_sibling(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    target.with_file_name(format!(
        "{TEMP_PREFIX}{name}.{}.{nanos}.tmp",
        std::process::id()
    ))
}

/// Takes out the temporary files a killed run left in `target`'s folder:
/// plain files whose name begins with [`TEMP_PREFIX`] (with what SQLite
/// kept beside them) and that have not changed for a minute. Nothing else
/// is touched. Best effort: a file that cannot be taken out stays.
pub fn clear_stale_temporaries(target: &Path) {
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX) {
            continue;
        }
        // Not through a link, and never a folder.
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|at| at.elapsed().ok())
            .is_some_and(|age| age > STALE);
        if meta.is_file() && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Refuses a path that names one of the campaign's files, by spelling
/// (made canonical) or by identity on disk (a symlink or a hard link).
fn refuse_campaign(path: &Path, campaign: &Path) -> Result<(), OutputError> {
    for file in campaign_files(campaign) {
        if same_place(path, &file) {
            let which = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            return Err(OutputError::IsCampaign {
                path: path.to_owned(),
                which,
            });
        }
    }
    Ok(())
}

/// Whether two paths name one place: by spelling (made canonical) or by
/// identity on disk (a symlink or a hard link).
pub fn same_place(a: &Path, b: &Path) -> bool {
    let (ca, cb) = (canonical_target(a), canonical_target(b));
    let (ia, ib) = (file_id(a), file_id(b));
    (ca.is_some() && ca == cb) || (ia.is_some() && ia == ib)
}

/// The path with its folder made canonical and, when the file exists, its
/// symlinks followed: two spellings of one place give the same answer.
fn canonical_target(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = path.canonicalize() {
        return Some(real);
    }
    let name = path.file_name()?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(folder.canonicalize().ok()?.join(name))
}

/// The file's identity on disk (device and inode), following symlinks.
#[cfg(unix)]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(_path: &Path) -> Option<(u64, u64)> {
    None
}

/// Makes the rename itself durable. Best effort: a folder that cannot be
/// opened for syncing (some platforms) still holds the whole file.
fn sync_folder(folder: &Path) {
    #[cfg(unix)]
    if let Ok(dir) = std::fs::File::open(folder) {
        let _ = dir.sync_all();
    }
    #[cfg(not(unix))]
    let _ = folder;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn campaign(dir: &Path) -> PathBuf {
        let path = dir.join("c.rapsheet");
        std::fs::write(&path, b"campaign").unwrap();
        std::fs::write(dir.join("c.rapsheet-wal"), b"wal").unwrap();
        path
    }

    #[test]
    fn an_output_never_lands_on_the_campaign_however_spelled() {
        let dir = tempfile::tempdir().unwrap();
        let c = campaign(dir.path());
        let dotted = dir.path().join(".").join("c.rapsheet");
        for target in [c.clone(), dotted, dir.path().join("c.rapsheet-wal")] {
            for existing in [Existing::Refuse, Existing::Replace] {
                let err = write(&target, b"export", existing, Some(&c)).unwrap_err();
                assert!(matches!(err, OutputError::IsCampaign { .. }), "{err}");
            }
        }
        // Not yet there, but SQLite's: refused too.
        let shm = dir.path().join("c.rapsheet-shm");
        assert!(write(&shm, b"x", Existing::Replace, Some(&c)).is_err());
        assert!(!shm.exists());
        assert_eq!(std::fs::read(&c).unwrap(), b"campaign");
    }

    #[cfg(unix)]
    #[test]
    fn an_output_never_lands_on_the_campaign_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let c = campaign(dir.path());
        let soft = dir.path().join("soft.md");
        std::os::unix::fs::symlink(&c, &soft).unwrap();
        let hard = dir.path().join("hard.md");
        std::fs::hard_link(&c, &hard).unwrap();
        for target in [soft, hard] {
            let err = write(&target, b"export", Existing::Replace, Some(&c)).unwrap_err();
            assert!(matches!(err, OutputError::IsCampaign { .. }), "{err}");
        }
        assert_eq!(std::fs::read(&c).unwrap(), b"campaign");
    }

    #[test]
    fn an_existing_file_is_kept_unless_replacing_was_asked() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("cards.pdf");
        std::fs::write(&out, b"old").unwrap();
        let err = write(&out, b"new", Existing::Refuse, None).unwrap_err();
        assert!(matches!(err, OutputError::Exists(_)));
        assert_eq!(std::fs::read(&out).unwrap(), b"old");
        write(&out, b"new", Existing::Replace, None).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"new");
        // No temporary file is left beside it.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn what_is_not_a_regular_file_is_never_replaced_even_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("folder");
        std::fs::create_dir(&folder).unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo is needed for this test");
        let socket = dir.path().join("socket");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        // A link to a device, so nothing of the system is at stake if the
        // guard fails: the link itself would be replaced.
        let device = dir.path().join("null");
        std::os::unix::fs::symlink("/dev/null", &device).unwrap();
        let to_folder = dir.path().join("to-folder");
        std::os::unix::fs::symlink(&folder, &to_folder).unwrap();
        for target in [&folder, &fifo, &socket, &device, &to_folder] {
            for existing in [Existing::Refuse, Existing::Replace] {
                let err = write(target, b"x", existing, None).unwrap_err();
                assert!(matches!(err, OutputError::NotARegularFile(_)), "{err}");
                assert_eq!(err.to_string().lines().count(), 1);
            }
        }
        assert!(folder.is_dir());
        assert_eq!(std::fs::read_link(&device).unwrap(), Path::new("/dev/null"));
        use std::os::unix::fs::FileTypeExt as _;
        assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
        assert!(socket.symlink_metadata().unwrap().file_type().is_socket());
    }

    #[test]
    fn a_new_output_is_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("山田.md");
        write(&out, "# 山田".as_bytes(), Existing::Refuse, None).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "# 山田");
    }

    #[test]
    fn a_folder_that_is_not_there_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("missing").join("x.pdf");
        let err = write(&out, b"x", Existing::Refuse, None).unwrap_err();
        assert!(err.to_string().contains("x.pdf"), "{err}");
        // Said of the file asked for, never of the temporary one.
        assert!(!err.to_string().contains(TEMP_PREFIX), "{err}");
        assert_eq!(err.to_string().lines().count(), 1, "{err}");
    }
}
