//! SQLite's errors as a player reads them: one line in words. A rule of
//! the file SQLite enforces (a name taken, a row named that is not there)
//! is said as what clashed, never as "UNIQUE constraint failed" or
//! "FOREIGN KEY constraint failed".

/// An SQLite error in one line of words.
pub(super) fn sqlite_error(err: &rusqlite::Error) -> String {
    if let Some(words) = constraint(err) {
        return format!("the change does not fit the campaign as it is now: {words}");
    }
    if let Some(words) = disk(err) {
        return words.to_owned();
    }
    let text = err.to_string();
    let line = text.lines().next().unwrap_or_default();
    format!("campaign file: {line}")
}

/// What an error of the disk or of the file's place means, when `err` is
/// one: said as what it is, with what to do, and never as damage.
fn disk(err: &rusqlite::Error) -> Option<&'static str> {
    use rusqlite::ErrorCode::{CannotOpen, DiskFull, PermissionDenied, ReadOnly, SystemIoFailure};
    Some(match err.sqlite_error_code()? {
        DiskFull => {
            "the disk is full: nothing was written, and the campaign is as it was; make room on the disk, then try again"
        }
        SystemIoFailure => {
            "the disk could not be read or written: nothing was written, and the campaign is not known to be damaged; check the disk (is it full, or gone?), then try again"
        }
        ReadOnly | PermissionDenied | CannotOpen => {
            "the campaign's file or folder cannot be written to here: nothing was written; check their permissions, or copy the campaign to a folder you can write to"
        }
        _ => return None,
    })
}

/// What a failed constraint means, when `err` is one.
pub(super) fn constraint(err: &rusqlite::Error) -> Option<String> {
    use rusqlite::ffi;
    let rusqlite::Error::SqliteFailure(failure, message) = err else {
        return None;
    };
    if failure.code != rusqlite::ErrorCode::ConstraintViolation {
        return None;
    }
    let message = message.as_deref().unwrap_or_default();
    // `UNIQUE constraint failed: fighter.gang_id, fighter.name`.
    let columns: Vec<(&str, &str)> = message
        .split_once(':')
        .map(|(_, cols)| cols)
        .unwrap_or_default()
        .split(',')
        .filter_map(|c| c.trim().split_once('.'))
        .collect();
    let table = columns.first().map_or("", |(t, _)| *t);
    let has = |name: &str| columns.iter().any(|(_, c)| *c == name);
    let words = match failure.extended_code {
        ffi::SQLITE_CONSTRAINT_FOREIGNKEY => {
            "it names a gang, fighter, record or photo the campaign does not hold, \
             or takes out one that something else still names"
                .to_owned()
        }
        ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => {
            match (table, has("name")) {
                ("gang", true) => "a gang of that name is in the campaign already".to_owned(),
                ("fighter", true) => "a fighter of that gang already has that name".to_owned(),
                ("house_pack", _) => {
                    "the campaign keeps house rules under that id already".to_owned()
                }
                ("battle_gang", _) => "a gang is in that record twice".to_owned(),
                ("title_holder", _) => "that title has a holder already".to_owned(),
                ("campaign_setting", _) => "that setting is set already".to_owned(),
                _ if has("id") || has("hash") => format!(
                    "it makes {} the campaign holds already (the same id twice)",
                    thing(table)
                ),
                _ => format!("{} would hold the same thing twice", thing(table)),
            }
        }
        ffi::SQLITE_CONSTRAINT_NOTNULL => match columns.first() {
            Some((_, column)) => format!(
                "it leaves the {} of {} empty",
                column.replace('_', " "),
                thing(table)
            ),
            None => "it leaves something empty that cannot be".to_owned(),
        },
        _ => "it breaks a rule of the campaign file".to_owned(),
    };
    Some(words)
}

/// A table of the file as a player calls what it holds.
fn thing(table: &str) -> &'static str {
    match table {
        "gang" | "gang_resource" => "a gang",
        "fighter" | "fighter_quirk" | "fighter_counter" | "fighter_stat" => "a fighter",
        "battle" | "battle_gang" | "battle_count" | "battle_fighter" => "a record",
        "lasting_effect" | "lasting_effect_stat" => "a lasting effect",
        "pending_effect" => "a pending effect",
        "photo" => "a photo",
        "house_pack" => "house rules",
        "title_holder" => "a title",
        "campaign" | "campaign_setting" => "the campaign",
        _ => "a change",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(extended: std::ffi::c_int, message: &str) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(extended),
            Some(message.to_owned()),
        )
    }

    #[test]
    fn a_failed_constraint_is_said_in_words_naming_what_clashed() {
        let cases = [
            (
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE,
                "UNIQUE constraint failed: fighter.gang_id, fighter.name",
                "a fighter of that gang already has that name",
            ),
            (
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE,
                "UNIQUE constraint failed: gang.name",
                "a gang of that name is in the campaign already",
            ),
            (
                rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY,
                "UNIQUE constraint failed: fighter.id",
                "it makes a fighter the campaign holds already",
            ),
            (
                rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY,
                "FOREIGN KEY constraint failed",
                "it names a gang, fighter, record or photo the campaign does not hold",
            ),
        ];
        for (code, message, said) in cases {
            let line = sqlite_error(&failure(code, message));
            assert!(line.contains(said), "{line}");
            assert!(!line.contains("constraint"), "{line}");
            assert_eq!(line.lines().count(), 1, "{line}");
        }
    }
}
