//! `rapsheet backup`: the campaign's backups, listed, made and restored.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::print_json;
use crate::session::{Backup, BackupPolicy, Session, restore_backup};

/// Backups of the campaign.
#[derive(Debug, Subcommand)]
pub enum BackupCommand {
    /// The campaign's backups, newest first: when, size, the newest record
    /// each holds.
    List {
        /// The backups folder (default: `backups` in the data folder).
        #[arg(long)]
        dir: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Make a backup now (checked, then the older ones rotated: the newest
    /// 10, and one a day for 7 days).
    Make {
        #[arg(long)]
        dir: Option<PathBuf>,
        /// How many of the newest to keep (1 or more: the newest is always
        /// kept).
        #[arg(long, default_value_t = BackupPolicy::default().newest)]
        keep: usize,
        /// For how many days to keep the newest of each day.
        #[arg(long, default_value_t = BackupPolicy::default().days)]
        days: usize,
        #[arg(long)]
        json: bool,
    },
    /// Restore a backup as a new campaign file (never over a file).
    Restore {
        /// The backup file (`backup list` names them).
        backup: PathBuf,
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
    },
}

/// The folder given, or the data folder's.
fn folder(dir: Option<PathBuf>) -> Result<PathBuf> {
    let folder = dir
        .or_else(crate::paths::backups_dir)
        .ok_or_else(|| anyhow!("this machine has no data folder: give --dir"))?;
    // A file, a pipe or a device where the folder should be: said at once,
    // never listed or written into.
    if folder.exists() && !folder.is_dir() {
        bail!(
            "{}: not a folder; --dir names the folder the backups are in",
            crate::text::path(&folder)
        );
    }
    Ok(folder)
}

pub(super) fn backup(session: &Session, command: BackupCommand) -> Result<()> {
    match command {
        BackupCommand::List { dir, json } => {
            let list = session.backups(&folder(dir)?)?;
            if json {
                return print_json(&list);
            }
            if list.is_empty() {
                say!("No backups of this campaign yet");
            }
            list.iter().for_each(say_backup);
        }
        BackupCommand::Make {
            dir,
            keep,
            days,
            json,
        } => {
            if keep == 0 {
                bail!(
                    "--keep 0 would keep no backup: the newest is always kept, so give 1 or more"
                );
            }
            let policy = BackupPolicy { newest: keep, days };
            let (made, gone) = session.make_backup(&folder(dir)?, policy)?;
            if json {
                return print_json(&serde_json::json!({ "made": made, "removed": gone }));
            }
            say!("Made and checked a backup:");
            say_backup(&made);
            for path in gone {
                say!("Took out the older {}", crate::text::path(&path));
            }
        }
        BackupCommand::Restore { backup, output } => restore(&backup, &output)?,
    }
    Ok(())
}

/// A backup restored as a new file; needs no campaign open.
pub(super) fn restore(backup: &Path, target: &Path) -> Result<()> {
    restore_backup(backup, target)?;
    say!(
        "Restored {} as {}",
        crate::text::path(backup),
        crate::text::path(target)
    );
    Ok(())
}

fn say_backup(b: &Backup) {
    let holds = match (&b.problem, b.newest_record) {
        (Some(problem), _) => format!("DOES NOT CHECK: {problem}"),
        (None, Some(n)) => format!("newest record #{n}"),
        (None, None) => "no records".to_owned(),
    };
    say!(
        "  {}  {} bytes  {holds}  {}",
        b.at,
        b.size,
        crate::text::path(&b.path)
    );
}
