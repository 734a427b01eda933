//! The league's chain of batches: each batch's hash is the SHA-256 of the
//! hash before it and the digest of its own fields, worked out the same
//! way here and on the server (`schema/0005_format_and_chain.sql`,
//! `league.digest` and `league.link`). A batch changed, left out or put in
//! another place changes every hash after it.

use sha2::{Digest as _, Sha256};

/// A batch's fields as the server keeps them, for its digest.
#[derive(Debug, Clone, Copy)]
pub struct Fields<'a> {
    pub seq: i64,
    pub uid: &'a str,
    pub author: &'a str,
    pub at: &'a str,
    pub label: &'a str,
    pub undoes: Option<i64>,
    /// The events as the server holds their text.
    pub events: &'a str,
}

impl Fields<'_> {
    /// The digest of the fields: each as its length in bytes, a colon,
    /// the field and a semicolon, so that no field runs into the next.
    pub fn digest(&self) -> String {
        let undoes = self.undoes.map(|u| u.to_string()).unwrap_or_default();
        let seq = self.seq.to_string();
        let mut hasher = Sha256::new();
        for field in [
            seq.as_str(),
            self.uid,
            self.author,
            self.at,
            self.label,
            undoes.as_str(),
            self.events,
        ] {
            hasher.update(format!("{}:", field.len()));
            hasher.update(field);
            hasher.update(";");
        }
        hex::encode(hasher.finalize())
    }
}

/// A batch's hash: the hash of the batch before it (none for the first)
/// and the batch's digest.
pub fn link(before: Option<&str>, digest: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(before.unwrap_or_default());
    hasher.update(":");
    hasher.update(digest);
    hex::encode(hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields<'a>(label: &'a str, events: &'a str) -> Fields<'a> {
        Fields {
            seq: 1,
            uid: "u",
            author: "ann",
            at: "2026-11-28T00:00:00Z",
            label,
            undoes: None,
            events,
        }
    }

    #[test]
    fn a_field_cannot_run_into_the_next() {
        assert_ne!(fields("ab", "c").digest(), fields("a", "bc").digest());
    }

    #[test]
    fn every_hash_after_a_changed_batch_changes() {
        let first = link(None, &fields("one", "[]").digest());
        let changed = link(None, &fields("One", "[]").digest());
        let second = |before: &str| link(Some(before), &fields("two", "[]").digest());
        assert_ne!(first, changed);
        assert_ne!(second(&first), second(&changed));
        assert_eq!(first.len(), 64);
    }
}
