//! The campaign log's wire format: how an [`Event`] is written into a
//! campaign file and read back.
//!
//! A campaign file outlives the code that wrote it, so the log does not
//! store the domain structs as they happen to be today. Every payload
//! carries its format version (`"v"`); reading takes a payload of any
//! earlier version through the upgrade steps below, one version at a time,
//! before it becomes an event. Renaming a field of an event means a new
//! version and an upgrade step, never an old campaign that no longer opens.
//! Pure: no I/O.

use serde_json::Value;

use super::Event;

/// The version this build writes.
pub const EVENT_FORMAT: u64 = 1;

/// Why a payload could not be read.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    #[error(
        "written by a newer Rapsheet (event format {found}; this build reads up to {EVENT_FORMAT})"
    )]
    TooNew { found: u64 },
    #[error("not an event: {0}")]
    Json(#[from] serde_json::Error),
}

/// The payload stored for an event.
pub fn encode(event: &Event) -> Result<String, serde_json::Error> {
    let mut value = serde_json::to_value(event)?;
    if let Value::Object(map) = &mut value {
        map.insert("v".to_owned(), Value::from(EVENT_FORMAT));
    }
    serde_json::to_string(&value)
}

/// The event a stored payload holds, upgraded from the version it was
/// written in.
pub fn decode(payload: &str) -> Result<Event, WireError> {
    let mut value: Value = serde_json::from_str(payload)?;
    // Payloads written before the format was versioned have no "v": they
    // are version 0, whose shape version 1 kept unchanged.
    let version = value.get("v").and_then(Value::as_u64).unwrap_or(0);
    if version > EVENT_FORMAT {
        return Err(WireError::TooNew { found: version });
    }
    for from in version..EVENT_FORMAT {
        value = upgrade(from, value);
    }
    if let Value::Object(map) = &mut value {
        map.remove("v");
    }
    Ok(serde_json::from_value(value)?)
}

/// One step: a payload of version `from` made into version `from + 1`.
/// Never edit a step once shipped; add the next one.
fn upgrade(from: u64, value: Value) -> Value {
    // 0 → 1: the version number itself was added; nothing moved. Later
    // steps go here as `if from == 1 { … }`.
    let _ = from;
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::GangId;

    fn renamed() -> Event {
        Event::GangRenamed {
            gang: GangId(3),
            from: "Ash Dogs".into(),
            to: "Ash Saints".into(),
        }
    }

    #[test]
    fn an_event_round_trips_with_its_version() {
        let payload = encode(&renamed()).unwrap();
        assert!(payload.contains("\"v\":1"), "{payload}");
        assert_eq!(decode(&payload).unwrap(), renamed());
    }

    #[test]
    fn a_payload_from_before_versions_still_reads() {
        let old = r#"{"type":"gang_renamed","gang":3,"from":"Ash Dogs","to":"Ash Saints"}"#;
        assert_eq!(decode(old).unwrap(), renamed());
    }

    #[test]
    fn a_payload_from_a_newer_build_is_refused_by_version() {
        let new = r#"{"v":99,"type":"gang_renamed","gang":3,"from":"a","to":"b"}"#;
        assert!(matches!(decode(new), Err(WireError::TooNew { found: 99 })));
    }
}
