//! Files a player hands Rapsheet to read: packs, battle reports, bundles,
//! photos, league invites and certificates, backups.
//!
//! Every such file is read here, through [`read`]: what is not a regular
//! file (a folder, a FIFO, a device such as `/dev/zero`) is refused at once,
//! before it is opened, so nothing waits on a pipe or reads a device to
//! the end; and a file is read only up to the size its kind may be
//! ([`Kind::limit`]), so a huge or endless file is refused, not loaded.
//! Standard input given as `-` is read the same way ([`read_stdin`]).
//! The campaign file itself is opened by `store`, which checks it as
//! strictly.

use std::io::Read as _;
use std::path::{Path, PathBuf};

const KB: u64 = 1024;
const MB: u64 = 1024 * KB;

/// What a file is read as: it decides the largest size taken and the word
/// an error names it by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A ruleset pack (`--pack`, `check-pack`, `house keep`).
    Pack,
    /// A battle report (`battle record`).
    Report,
    /// A bundle of gangs or of a whole campaign (`bundle import`).
    Bundle,
    /// A fighter's photo (`fighter photo`).
    Photo,
    /// A league invite (`league join`).
    Invite,
    /// A league server's certificate (`league init`).
    Certificate,
    /// A campaign's backup, restored as a new file (`backup restore`).
    Backup,
    /// A text given on standard input (`-`): notes, a reason.
    Text,
    /// A record begun in the window and kept until it is committed
    /// (`session::Drafts`), read back when its campaign opens.
    Draft,
}

impl Kind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [Kind; 9] = [
        Kind::Pack,
        Kind::Report,
        Kind::Bundle,
        Kind::Photo,
        Kind::Invite,
        Kind::Certificate,
        Kind::Backup,
        Kind::Text,
        Kind::Draft,
    ];

    /// The most bytes a file of this kind may hold.
    pub fn limit(self) -> u64 {
        match self {
            Kind::Pack => 4 * MB,
            Kind::Report => 4 * MB,
            Kind::Bundle => crate::campaign::bundle::MAX_BUNDLE_BYTES as u64,
            Kind::Photo => crate::campaign::photo::MAX_PHOTO_BYTES as u64,
            Kind::Invite => 64 * KB,
            Kind::Certificate => MB,
            Kind::Backup => 4 * 1024 * MB,
            Kind::Text => MB,
            Kind::Draft => 4 * MB,
        }
    }

    /// What a file of this kind is called in a message (“a pack”).
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Pack => "a pack",
            Kind::Report => "a battle report",
            Kind::Bundle => "a bundle",
            Kind::Photo => "a photo",
            Kind::Invite => "a league invite",
            Kind::Certificate => "a certificate",
            Kind::Backup => "a backup",
            Kind::Text => "a text on standard input",
            Kind::Draft => "a record begun",
        }
    }
}

/// A size as a player reads it: `64 MB`, `64 KB`, `300 bytes`.
pub fn size(bytes: u64) -> String {
    if bytes >= MB {
        format!("{} MB", bytes / MB)
    } else if bytes >= KB {
        format!("{} KB", bytes / KB)
    } else {
        format!("{bytes} bytes")
    }
}

/// Why a file was not read. One line, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{}: no such file", crate::text::path(.0))]
    NotFound(PathBuf),
    #[error("{}: not a file (a folder, a pipe or a device); give {} file", crate::text::path(.path), .kind.noun())]
    NotAFile { path: PathBuf, kind: Kind },
    #[error("{}: larger than {} may be (at most {})", crate::text::path(.path), .kind.noun(), size(.kind.limit()))]
    TooLarge { path: PathBuf, kind: Kind },
    #[error("{}: {} is not text (its bytes are not UTF-8)", crate::text::path(.path), .kind.noun())]
    NotText { path: PathBuf, kind: Kind },
    #[error("{}: cannot be read ({source})", crate::text::path(.path))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The bytes of the file at `path`, read as `kind`: refused at once when
/// it is not a regular file, and when it holds more than `kind` may.
pub fn read(path: &Path, kind: Kind) -> Result<Vec<u8>, InputError> {
    let io = |source| InputError::Io {
        path: path.to_owned(),
        source,
    };
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(InputError::NotFound(path.to_owned()));
        }
        Err(e) => return Err(io(e)),
    };
    let not_a_file = || InputError::NotAFile {
        path: path.to_owned(),
        kind,
    };
    if !meta.is_file() {
        return Err(not_a_file());
    }
    if meta.len() > kind.limit() {
        return Err(InputError::TooLarge {
            path: path.to_owned(),
            kind,
        });
    }
    let file = open_without_waiting(path).map_err(io)?;
    // The file opened is the one looked at: a name swapped for a pipe in
    // between is still refused.
    if !file.metadata().map_err(io)?.is_file() {
        return Err(not_a_file());
    }
    bounded(file, kind).map_err(|e| match e {
        Bounded::TooLarge => InputError::TooLarge {
            path: path.to_owned(),
            kind,
        },
        Bounded::Io(e) => io(e),
    })
}

/// [`read`] as UTF-8 text.
pub fn read_text(path: &Path, kind: Kind) -> Result<String, InputError> {
    String::from_utf8(read(path, kind)?).map_err(|_| InputError::NotText {
        path: path.to_owned(),
        kind,
    })
}

/// Standard input (a file argument given as `-`) read as `kind`, up to
/// its limit.
pub fn read_stdin(kind: Kind) -> Result<String, InputError> {
    let path = PathBuf::from("-");
    let bytes = bounded(std::io::stdin().lock(), kind).map_err(|e| match e {
        Bounded::TooLarge => InputError::TooLarge {
            path: path.clone(),
            kind,
        },
        Bounded::Io(source) => InputError::Io {
            path: path.clone(),
            source,
        },
    })?;
    String::from_utf8(bytes).map_err(|_| InputError::NotText { path, kind })
}

enum Bounded {
    TooLarge,
    Io(std::io::Error),
}

/// Reads at most one byte more than `kind` may hold: one more means too
/// much, and the rest is never read.
fn bounded(reader: impl std::io::Read, kind: Kind) -> Result<Vec<u8>, Bounded> {
    let mut bytes = Vec::new();
    reader
        .take(kind.limit().saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Bounded::Io)?;
    if bytes.len() as u64 > kind.limit() {
        return Err(Bounded::TooLarge);
    }
    Ok(bytes)
}

/// Opens a file for reading without blocking on a FIFO that was put at the
/// name after it was looked at.
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // O_NONBLOCK: 0o4000 on Linux and the BSDs alike.
        options.custom_flags(0o4000);
    }
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_a_folder_and_a_pipe_are_refused_before_they_are_read() {
        let dir = tempfile::tempdir().unwrap();
        for path in [Path::new("/dev/zero"), dir.path()] {
            let err = read(path, Kind::Pack).unwrap_err();
            assert!(matches!(err, InputError::NotAFile { .. }), "{err}");
            assert!(err.to_string().contains("give a pack file"), "{err}");
        }
        #[cfg(unix)]
        {
            let fifo = dir.path().join("pipe");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                let err = read(&fifo, Kind::Report).unwrap_err();
                assert!(matches!(err, InputError::NotAFile { .. }), "{err}");
            }
        }
    }

    #[test]
    fn a_file_larger_than_its_kind_may_be_is_refused_naming_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let invite = dir.path().join("big.invite");
        std::fs::write(&invite, vec![b'a'; 64 * 1024 + 1]).unwrap();
        let err = read(&invite, Kind::Invite).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: larger than a league invite may be (at most 64 KB)",
                invite.display()
            )
        );
        std::fs::write(&invite, vec![b'a'; 64 * 1024]).unwrap();
        assert_eq!(read(&invite, Kind::Invite).unwrap().len(), 64 * 1024);
    }

    #[test]
    fn text_that_is_not_utf8_is_said_so() {
        let dir = tempfile::tempdir().unwrap();
        let pack = dir.path().join("p.toml");
        std::fs::write(&pack, [0xff, 0xfe, b'x']).unwrap();
        let err = read_text(&pack, Kind::Pack).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("a pack is not text (its bytes are not UTF-8)")
        );
        assert!(matches!(
            read(&dir.path().join("none"), Kind::Pack),
            Err(InputError::NotFound(_))
        ));
    }

    #[test]
    fn sizes_read_as_a_player_counts_them() {
        assert_eq!(size(64 * 1024 * 1024), "64 MB");
        assert_eq!(size(64 * 1024), "64 KB");
        assert_eq!(size(300), "300 bytes");
    }
}
