//! Members' keys. Each laptop signs the batches it sends, in format 3 on,
//! with a key it made and keeps beside the league's password (never in
//! the campaign file); the public half is published to the league. Every
//! laptop pins the keys it meets, checks each batch's signature against
//! its author's keys (a batch that fails is left out alike everywhere),
//! and says so when a login it knows gains another key.

use std::collections::BTreeMap;

use anyhow::Result;

use super::passwords;
use crate::session::Session;
use crate::store::LeagueTie;
use crate::store::league::{League, MemberKey, ServerBatch, signature};

/// What the keys said of a fetch: the batches whose signature does not
/// hold, by number, with why; and the keys a known login gained, in words.
#[derive(Debug, Default)]
pub(super) struct KeysMet {
    pub unsigned: BTreeMap<i64, String>,
    pub new_keys: Vec<String>,
}

impl Session {
    /// The private key this laptop signs its batches in the league with,
    /// made, kept and published the first time; none on a league before
    /// keys.
    pub(super) fn signing_key(
        &self,
        league: &mut League,
        tie: &LeagueTie,
    ) -> Result<Option<String>> {
        if !league.keeps_keys()? {
            return Ok(None);
        }
        let at = self.league_passwords.as_deref();
        let private = match passwords::key_for(at, tie)? {
            Some(private) => private,
            None => {
                let key = signature::new_key()?;
                passwords::remember_key(at, tie, &key.private)?;
                key.private
            }
        };
        league.publish_key(&signature::public_of(&private)?)?;
        Ok(Some(private))
    }

    /// Checks the signatures of `fetched` against the league's keys, and
    /// pins the keys this file has not seen.
    pub(super) fn keys_met(
        &mut self,
        league: &mut League,
        fetched: &[ServerBatch],
    ) -> Result<KeysMet> {
        let keys = league.keys()?;
        if keys.is_empty() {
            return Ok(KeysMet::default());
        }
        let pinned = self.store.league_keys()?;
        let new_keys = keys
            .iter()
            .filter(|k| {
                !pinned
                    .iter()
                    .any(|p| p.login == k.login && p.public_key == k.public_key)
            })
            .filter(|k| pinned.iter().any(|p| p.login == k.login))
            .map(|k| {
                format!(
                    "{login} has a new key, published {made}: if {login} did not join on another laptop, someone else can send changes in their name (ask the organiser)",
                    login = crate::text::one_line(&k.login),
                    made = k.made
                )
            })
            .collect();
        self.store.pin_league_keys(&keys)?;
        Ok(KeysMet {
            unsigned: unsigned(fetched, &keys),
            new_keys,
        })
    }
}

/// The batches of format 3 on whose signature is not of their hash by a
/// key of their author's, with why.
pub(super) fn unsigned(fetched: &[ServerBatch], keys: &[MemberKey]) -> BTreeMap<i64, String> {
    fetched
        .iter()
        .filter(|b| b.format >= 3)
        .filter(|b| {
            let (Some(hash), Some(signed)) = (&b.hash, &b.signature) else {
                return true;
            };
            !keys
                .iter()
                .filter(|k| k.login == b.author)
                .any(|k| signature::verify(&k.public_key, hash, signed))
        })
        .map(|b| {
            (
                b.seq,
                format!(
                    "it is not signed by a key of {}'s",
                    crate::text::one_line(&b.author)
                ),
            )
        })
        .collect()
}
