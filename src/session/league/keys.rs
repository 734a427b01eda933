//! What the league's chain says of formats and keys, as every laptop
//! reads it alike. Each laptop signs the batches it sends, in format 3
//! on, with a key it made and keeps beside the league's password (never
//! in the campaign file); the public half is published to the league.
//!
//! The checks follow the league, not the batch:
//! - once the league's chain has reached a format, a later batch claiming
//!   an older one (or one this Rapsheet does not read) is left out;
//! - a batch of format 3 on holds only when signed by the key the chain
//!   trusts for its author: the key of their first signed batch (the
//!   first they published), or a new key the organiser vouched for with
//!   a signed batch of their own (`rapsheet league vouch`). A batch signed
//!   by any other key (a member's second laptop not yet vouched for, or
//!   someone who reset their password) is left out alike everywhere.
//!
//! A laptop also says, at its next successful sync, when someone
//! published a key in its member's name; the organiser's laptop says when
//! a member has a new key waiting for their word.

use std::collections::BTreeMap;

use anyhow::{Result, bail};

use super::passwords;
use crate::campaign::BatchId;
use crate::session::Session;
use crate::store::league::{League, MemberKey, NEWEST_FORMAT, ServerBatch, signature};
use crate::store::{LeagueTie, TrustedKey};

/// The label of the organiser's batch that vouches for a member's new
/// key: `Vouched for LOGIN's new key HEX`.
const VOUCH: (&str, &str) = ("Vouched for ", "'s new key ");

/// The label of a batch vouching for `login`'s key `key`.
pub(super) fn vouch_label(login: &str, key: &str) -> String {
    format!("{}{login}{}{key}", VOUCH.0, VOUCH.1)
}

/// The member and key a vouching batch's label names, where it is one.
fn vouched_in(label: &str) -> Option<(&str, &str)> {
    let rest = label.strip_prefix(VOUCH.0)?;
    let (login, key) = rest.rsplit_once(VOUCH.1)?;
    (key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit()) && !login.is_empty())
        .then_some((login, key))
}

/// The league's chain as far as this laptop took it in.
#[derive(Debug, Default)]
pub(super) struct Chain {
    /// The newest format a batch was held to.
    pub reached: i64,
    /// Who sent the league's first change: whose word vouches for a key.
    pub organiser: Option<String>,
    /// The key the chain trusts for each member.
    pub trusted: BTreeMap<String, String>,
    /// What the batches judged since came to trust, to keep.
    pub newly: Vec<TrustedKey>,
}

/// What the chain made of a run of the server's batches.
#[derive(Debug, Default)]
pub(super) struct Judged {
    /// The batches left out for the format they claim or their
    /// signature, by number, with why.
    pub out: BTreeMap<i64, String>,
    /// The format each of the others was held to.
    pub formats: BTreeMap<i64, i64>,
}

impl Chain {
    /// The chain of a league no batch of which is here yet (a join).
    pub fn new() -> Chain {
        Chain {
            reached: 1,
            ..Chain::default()
        }
    }

    /// The chain as this file took it in, up to the league's batch
    /// `synced`.
    pub fn of(store: &crate::store::CampaignStore, synced: i64) -> Result<Chain> {
        let mut trusted = BTreeMap::new();
        for key in store.league_trusted(synced)? {
            trusted.insert(key.login, key.public_key);
        }
        Ok(Chain {
            reached: store.league_reached_format(synced)?,
            organiser: store.league_author(BatchId(1))?,
            trusted,
            newly: Vec::new(),
        })
    }

    /// Judges the server's batches `fetched`, in order, by what the chain
    /// says before each: `keys` are the server's published keys (a
    /// member's first is trusted at their first signed batch).
    pub fn judge(&mut self, fetched: &[ServerBatch], keys: &[MemberKey]) -> Judged {
        let mut judged = Judged::default();
        for batch in fetched {
            if batch.seq == 1 {
                self.organiser = Some(batch.author.clone());
            }
            match self.why_out(batch, keys) {
                Some(why) => {
                    judged.out.insert(batch.seq, why);
                }
                None => {
                    judged.formats.insert(batch.seq, batch.format);
                    self.reached = self.reached.max(batch.format);
                    self.vouched(batch);
                }
            }
        }
        judged
    }

    /// Why `batch` is left out for the format it claims or its signature.
    fn why_out(&mut self, batch: &ServerBatch, keys: &[MemberKey]) -> Option<String> {
        if batch.format > NEWEST_FORMAT {
            return Some(format!(
                "it is written in format {}, which this Rapsheet does not read",
                batch.format
            ));
        }
        if batch.format < self.reached {
            return Some(format!(
                "it claims format {}, older than the league's format {}",
                batch.format, self.reached
            ));
        }
        if batch.format < 3 {
            return None;
        }
        let author = crate::text::one_line(&batch.author);
        let (Some(hash), Some(signed)) = (&batch.hash, &batch.signature) else {
            return Some(format!("it is not signed by {author}'s key"));
        };
        let (key, first) = match self.trusted.get(&batch.author) {
            Some(key) => (key.clone(), false),
            None => match first_key(keys, &batch.author) {
                Some(key) => (key.to_owned(), true),
                None => return Some(format!("{author} has published no key")),
            },
        };
        if !signature::verify(&key, hash, signed) {
            return Some(format!("it is not signed by {author}'s key"));
        }
        if first {
            self.trust(&batch.author, &key, batch.seq);
        }
        None
    }

    /// Where `batch` is the organiser's word for a member's new key, the
    /// chain trusts that key from it on.
    fn vouched(&mut self, batch: &ServerBatch) {
        if batch.format < 3
            || self.organiser.as_deref() != Some(batch.author.as_str())
            || batch.events.trim() != "[]"
        {
            return;
        }
        if let Some((login, key)) = vouched_in(&batch.label)
            && login != batch.author
        {
            let (login, key) = (login.to_owned(), key.to_ascii_lowercase());
            self.trust(&login, &key, batch.seq);
        }
    }

    fn trust(&mut self, login: &str, key: &str, since: i64) {
        self.trusted.insert(login.to_owned(), key.to_owned());
        self.newly.push(TrustedKey {
            login: login.to_owned(),
            public_key: key.to_owned(),
            since,
        });
    }

    /// The key the league holds `login` to: the one the chain trusts, or
    /// the first they published.
    pub fn key_of<'a>(&'a self, login: &str, keys: &'a [MemberKey]) -> Option<&'a str> {
        self.trusted
            .get(login)
            .map(String::as_str)
            .or_else(|| first_key(keys, login))
    }
}

/// The first key `login` published (the server lists them oldest first,
/// to the microsecond).
fn first_key<'a>(keys: &'a [MemberKey], login: &str) -> Option<&'a str> {
    keys.iter()
        .find(|k| k.login == login)
        .map(|k| k.public_key.as_str())
}

impl Session {
    /// The private key this laptop signs its batches in the league with,
    /// made, kept and published the first time; none on a league before
    /// keys. A key the server will not take yet (another of this member's
    /// waits for the organiser's word) is kept here all the same.
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
        match league.publish_key(&signature::public_of(&private)?) {
            Ok(()) => {}
            Err(crate::store::league::LeagueError::Refused { .. }) => {}
            Err(err) => return Err(err.into()),
        }
        Ok(Some(private))
    }

    /// What the chain trusts from this laptop's batches just sent after
    /// the league's batch `tie.synced`: its own key, where the chain
    /// trusted none for its member yet, and the keys they vouch for.
    pub(super) fn trust_sent(
        &mut self,
        chain: &Chain,
        tie: &LeagueTie,
        writing: &super::chain::Writing,
        sent: &[crate::campaign::LoggedBatch],
    ) -> Result<()> {
        if sent.is_empty() {
            return Ok(());
        }
        self.trust_own_key(
            &tie.login,
            writing.key.as_deref(),
            writing.format,
            tie.synced + 1,
        )?;
        self.trust_vouched(chain, tie, sent, writing.format)
    }

    /// Keeps this laptop's key as the one the chain trusts for its member
    /// from the batch `since` on (the first it sent signed), where the
    /// chain trusts none for them yet: every laptop taking that batch in
    /// trusts the same.
    pub(super) fn trust_own_key(
        &mut self,
        login: &str,
        private: Option<&str>,
        format: i64,
        since: i64,
    ) -> Result<()> {
        let Some(private) = private.filter(|_| format >= 3) else {
            return Ok(());
        };
        if self
            .store
            .league_trusted(since)?
            .iter()
            .any(|k| k.login == login)
        {
            return Ok(());
        }
        self.store.keep_league_trusted(&[TrustedKey {
            login: login.to_owned(),
            public_key: signature::public_of(private)?,
            since,
        }])?;
        Ok(())
    }

    /// The keys this laptop's own batches, just sent after the league's
    /// batch `tie.synced`, vouched for (the organiser's): trusted here as
    /// every laptop taking them in trusts them.
    pub(super) fn trust_vouched(
        &mut self,
        chain: &Chain,
        tie: &LeagueTie,
        sent: &[crate::campaign::LoggedBatch],
        format: i64,
    ) -> Result<()> {
        if format < 3 || chain.organiser.as_deref() != Some(tie.login.as_str()) {
            return Ok(());
        }
        let vouched: Vec<TrustedKey> = sent
            .iter()
            .enumerate()
            .filter(|(_, b)| b.events.is_empty())
            .filter_map(|(i, b)| {
                let (login, key) = vouched_in(&b.label)?;
                (login != tie.login).then(|| TrustedKey {
                    login: login.to_owned(),
                    public_key: key.to_ascii_lowercase(),
                    since: tie.synced + 1 + i as i64,
                })
            })
            .collect();
        self.store.keep_league_trusted(&vouched)?;
        Ok(())
    }

    /// Refuses to send where the league holds this member to another key
    /// than this laptop's: every laptop would leave out what it sends.
    pub(super) fn check_own_key(
        &self,
        chain: &Chain,
        keys: &[MemberKey],
        tie: &LeagueTie,
        private: Option<&str>,
    ) -> Result<()> {
        let Some(private) = private else {
            return Ok(());
        };
        let mine = signature::public_of(private)?;
        match chain.key_of(&tie.login, keys) {
            Some(key) if key != mine => bail!(
                "not sent: the league holds {login} to another key than this laptop's (that of another laptop of theirs, or of someone else); the organiser vouches for this laptop's with `rapsheet league vouch {login}`, and then it sends what waits here",
                login = crate::text::one_line(&tie.login)
            ),
            _ => Ok(()),
        }
    }

    /// What the server's published keys say that this laptop has not
    /// said before, in words: a key someone published in this member's
    /// name; on the organiser's laptop, a member's new key waiting for
    /// their word. Once said (the sync went through), the keys are pinned
    /// as seen.
    pub(super) fn keys_seen(
        &mut self,
        keys: &[MemberKey],
        chain: &Chain,
        tie: &LeagueTie,
        private: Option<&str>,
    ) -> Result<Vec<String>> {
        let seen = self.store.league_keys()?;
        let mine = private.map(signature::public_of).transpose()?;
        let organiser = chain.organiser.as_deref() == Some(tie.login.as_str());
        let mut said = BTreeMap::new();
        for key in keys {
            let new = !seen
                .iter()
                .any(|s| s.login == key.login && s.public_key == key.public_key);
            let trusted = chain.trusted.get(&key.login) == Some(&key.public_key)
                || first_key(keys, &key.login) == Some(key.public_key.as_str());
            let login = crate::text::one_line(&key.login);
            if !new {
                continue;
            }
            // Said to the member whether or not the organiser vouched for
            // it since: they are the one who knows whether it was them.
            if key.login == tie.login && mine.as_deref() != Some(key.public_key.as_str()) {
                said.insert(
                    key.login.clone(),
                    format!(
                        "someone published a key in your name ({login}) on {made}: if it was not you on another laptop, tell the organiser, for someone else knows your password; what is signed with it is left out unless the organiser vouches for it",
                        made = key.made
                    ),
                );
            } else if organiser && key.login != tie.login && !trusted {
                said.insert(
                    key.login.clone(),
                    format!(
                        "{login} has a new key, published {made}, left out until you vouch for it: if {login} told you they moved to another laptop, `rapsheet league vouch {login}`",
                        made = key.made
                    ),
                );
            }
        }
        Ok(said.into_values().collect())
    }

    /// Vouches, as the organiser, for the newest key `login` published:
    /// a batch of the organiser's own, signed, that the chain trusts that
    /// key from. Synced first and after: the vouching batch is sent at
    /// once.
    pub fn league_vouch(&mut self, login: &str) -> Result<(String, super::SyncOutcome)> {
        let tie = self.tie()?;
        let mut league = self.league_connection()?;
        if league.format()? < 3 {
            bail!(
                "the league's changes are not signed (format 3 on): there is no key to vouch for"
            );
        }
        let synced = self.league_sync(&[], None)?;
        if !matches!(synced, super::SyncOutcome::Synced { .. }) {
            bail!("not vouched: {}", synced.headline());
        }
        let tie = LeagueTie {
            synced: self.tie()?.synced,
            ..tie
        };
        let chain = Chain::of(&self.store, tie.synced)?;
        if chain.organiser.as_deref() != Some(tie.login.as_str()) {
            bail!("only the league's organiser vouches for a member's key");
        }
        if login == tie.login {
            bail!(
                "the organiser's own key is the league's from its first change: it cannot be vouched for"
            );
        }
        let keys = league.keys()?;
        let held = chain.key_of(login, &keys).map(str::to_owned);
        let Some(newest) = keys
            .iter()
            .rfind(|k| k.login == login && Some(&k.public_key) != held.as_ref())
        else {
            bail!(
                "{} has no new key to vouch for",
                crate::text::one_line(login)
            );
        };
        let key = newest.public_key.clone();
        self.commit(&vouch_label(login, &key), Vec::new())?;
        let sent = self.league_sync(&[], None)?;
        if !matches!(sent, super::SyncOutcome::Synced { .. }) {
            bail!(
                "the change vouching for the key waits on this laptop: {}",
                sent.headline()
            );
        }
        Ok((key, sent))
    }
}
