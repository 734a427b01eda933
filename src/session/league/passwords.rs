//! The player's league passwords: kept in a file of their own beside
//! Rapsheet's settings (never in a campaign file, its log, a bundle or an
//! export), one line per league login in PostgreSQL's password-file form
//! (`host:port:database:login:password`, `:` and `\` escaped), readable by
//! the player alone. `PGPASSWORD`, where it is set, comes first.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, anyhow};

use crate::store::LeagueTie;

/// The password file: `league-passwords` in Rapsheet's settings folder.
pub fn file() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "Rapsheet")
        .map(|dirs| dirs.config_dir().join("league-passwords"))
}

/// The password file: `at`, or the one in the settings folder.
fn passwords_file(at: Option<&Path>) -> Result<PathBuf> {
    at.map(Path::to_owned)
        .or_else(file)
        .ok_or_else(|| anyhow!("this machine has no settings folder"))
}

/// The password for a league login: `PGPASSWORD`, or the line for it in
/// the password file (`at`, or the one in the settings folder).
pub fn password_for(at: Option<&Path>, tie: &LeagueTie) -> Result<String> {
    if let Some(password) = std::env::var_os("PGPASSWORD").and_then(|p| p.into_string().ok()) {
        return Ok(password);
    }
    let path = passwords_file(at)?;
    line_for(&path, tie).ok_or_else(|| {
        anyhow!(
            "no password for {} on {}: join the league again with its invite, or set PGPASSWORD",
            tie.login,
            tie.host
        )
    })
}

/// Keeps a league login's password in the password file (`at`, or the one
/// in the settings folder), replacing the line for the same login, written
/// to a temporary file then renamed, and readable by the player alone.
pub fn remember(at: Option<&Path>, tie: &LeagueTie, password: &str) -> Result<()> {
    let path = passwords_file(at)?;
    keep_line(&path, tie, password)
}

/// The key file beside a password file: `league-keys`, or `FILE.keys`
/// beside a password file of another name. The same form, a member's
/// private key (hex) where the password goes.
fn keys_file(at: Option<&Path>) -> Result<PathBuf> {
    let passwords = passwords_file(at)?;
    let name = passwords
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(if name == "league-passwords" {
        passwords.with_file_name("league-keys")
    } else {
        passwords.with_file_name(format!("{name}.keys"))
    })
}

/// The private key this laptop signs a league login's batches with,
/// where it has made one.
pub fn key_for(at: Option<&Path>, tie: &LeagueTie) -> Result<Option<String>> {
    Ok(line_for(&keys_file(at)?, tie))
}

/// What the line of `tie`'s login in `path` keeps, where there is one.
fn line_for(path: &Path, tie: &LeagueTie) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(parse_line)
        .find(|(key, _)| *key == key_of(tie))
        .map(|(_, value)| value)
}

/// Keeps the private key of a league login in the key file, as
/// [`remember`] keeps a password.
pub fn remember_key(at: Option<&Path>, tie: &LeagueTie, private: &str) -> Result<()> {
    keep_line(&keys_file(at)?, tie, private)
}

/// Writes `value` as the line of `tie`'s login in `path`, replacing the
/// line for the same login.
fn keep_line(path: &Path, tie: &LeagueTie, value: &str) -> Result<()> {
    let folder = path
        .parent()
        .ok_or_else(|| anyhow!("no folder for {}", path.display()))?;
    std::fs::create_dir_all(folder).with_context(|| format!("cannot make {}", folder.display()))?;
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let key = key_of(tie);
    let mut lines: Vec<String> = old
        .lines()
        .filter(|line| parse_line(line).is_none_or(|(k, _)| k != key))
        .map(str::to_owned)
        .collect();
    lines.push(format!("{}:{}", key.join(":"), escape(value)));
    let mut tmp = tempfile::NamedTempFile::new_in(folder)
        .with_context(|| format!("cannot write in {}", folder.display()))?;
    restrict(tmp.as_file())?;
    for line in &lines {
        writeln!(tmp, "{line}")?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

#[cfg(unix)]
fn restrict(file: &std::fs::File) -> Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    Ok(())
}

#[cfg(not(unix))]
fn restrict(_file: &std::fs::File) -> Result<()> {
    Ok(())
}

/// The first four fields of a login's line, escaped.
fn key_of(tie: &LeagueTie) -> Vec<String> {
    vec![
        escape(&tie.host),
        tie.port.to_string(),
        escape(&tie.database),
        escape(&tie.login),
    ]
}

/// A line's first four fields (escaped, as written) and its password.
fn parse_line(line: &str) -> Option<(Vec<String>, String)> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                field.push('\\');
                field.push(chars.next()?);
            }
            ':' if fields.len() < 4 => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    (fields.len() == 4).then(|| (fields, unescape(&field)))
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(':', "\\:")
}

fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_what_was_written_even_with_colons_and_backslashes() {
        let tie = LeagueTie {
            host: "db:1".into(),
            port: 5432,
            database: "league\\x".into(),
            login: "ann".into(),
            certificate: String::new(),
            synced: 0,
            last_sync: None,
        };
        let line = format!("{}:{}", key_of(&tie).join(":"), escape("p:a\\ss"));
        let (key, password) = parse_line(&line).unwrap();
        assert_eq!(key, key_of(&tie));
        assert_eq!(password, "p:a\\ss");
    }
}
