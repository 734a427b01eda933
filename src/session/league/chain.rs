//! The league's format and chain, as this laptop checks them.
//!
//! Before a sync takes anything in: the league's format must be one this
//! build writes (a newer league stops the sync, naming the format it
//! needs, and changes nothing), and the batches this file holds must
//! still be those on the server (the server works out, from the batches
//! as they stand, whether each follows the one before; this file keeps
//! the hash of each). Every batch fetched must follow the one before it.
//! A batch changed or deleted on the server stops the sync, named, until
//! the organiser puts the league's history back (docs/league.md).

use anyhow::Result;

use super::sync::SyncOutcome;
use crate::campaign::LoggedBatch;
use crate::session::Session;
use crate::store::league::chain::{Fields, link};
use crate::store::league::{League, NewBatch, Print, ServerBatch, signature};
use crate::store::{BatchName, LeagueTie, Link};

/// The league's hashes of batches, by their number there, as links.
pub(super) type Hashes = Vec<Link>;

/// What the check before a sync found.
pub(super) enum Checked {
    /// The league's format, or its history, stops the sync.
    Stop(SyncOutcome),
    /// The sync goes on; where the league keeps a chain, with the print of
    /// the batches checked and how far they reach.
    Go(Option<(i64, Print)>),
}

/// How a batch this laptop holds differs on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Broken {
    /// Its fields, or its hash, are not what they were.
    Changed,
    Deleted,
}

impl Broken {
    fn words(self) -> &'static str {
        match self {
            Broken::Changed => "was changed on the server",
            Broken::Deleted => "was deleted from the server",
        }
    }
}

/// How a batch is written to the league: its format, and the chain it
/// joins (`None` on a league before the chain).
pub(super) struct Writing {
    pub format: i64,
    /// The hash of the batch the new ones follow, where the league keeps
    /// a chain.
    pub before: Option<Option<String>>,
    pub author: String,
    /// The private key its batches are signed with, in format 3 on.
    pub key: Option<String>,
}

impl Writing {
    /// `log` as batches sent after the league's batch `after`, each
    /// chained to the one before; and the hashes they take.
    pub fn batches(
        &self,
        after: i64,
        log: &[LoggedBatch],
        names: &[BatchName],
    ) -> Result<(Vec<NewBatch>, Hashes)> {
        let mut before = self.before.clone().flatten();
        let mut sent = Vec::new();
        let mut hashes = Vec::new();
        for (i, (batch, name)) in log.iter().zip(names).enumerate() {
            let seq = after + 1 + i as i64;
            let events = serde_json::to_string(&batch.events)?;
            let undoes = batch.undoes.map(|u| u.0);
            let digest = Fields {
                seq,
                uid: &name.uid,
                author: &self.author,
                at: &batch.at,
                label: &batch.label,
                undoes,
                events: &events,
            }
            .digest();
            let hash = self
                .before
                .as_ref()
                .map(|_| link(before.as_deref(), &digest));
            let signature = match (&self.key, &hash) {
                (Some(key), Some(hash)) if self.format >= 3 => Some(signature::sign(key, hash)?),
                _ => None,
            };
            if let Some(hash) = &hash {
                hashes.push(Link {
                    seq,
                    hash: hash.clone(),
                    digest: Some(digest),
                    exact: true,
                    format: Some(self.format),
                    signature: signature.clone(),
                });
                before = Some(hash.clone());
            }
            sent.push(NewBatch {
                uid: name.uid.clone(),
                at: batch.at.clone(),
                label: batch.label.clone(),
                undoes,
                events,
                format: self.format,
                hash: hash.filter(|_| self.format >= 2),
                signature,
            });
        }
        Ok((sent, hashes))
    }
}

/// Why this laptop cannot write to a league of `format`, where it cannot.
pub(super) fn too_new(format: i64, writes: i64) -> Option<SyncOutcome> {
    (format > writes).then_some(SyncOutcome::TooNew {
        league_format: format,
        writes,
    })
}

/// The hashes of `fetched`, each checked to follow the one before it
/// (`before`, the hash of the batch before the first); the first that
/// does not, where one does not.
pub(super) fn follow(
    before: Option<&str>,
    fetched: &[ServerBatch],
) -> std::result::Result<Hashes, i64> {
    let mut before = before.map(str::to_owned);
    let mut hashes = Vec::new();
    for batch in fetched {
        let Some(kept) = &batch.hash else {
            return Ok(Vec::new());
        };
        let digest = batch.fields().digest();
        let hash = link(before.as_deref(), &digest);
        if &hash != kept {
            return Err(batch.seq);
        }
        hashes.push(Link {
            seq: batch.seq,
            hash: hash.clone(),
            digest: Some(digest),
            exact: kept_as_it_came(batch),
            format: None,
            signature: None,
        });
        before = Some(hash);
    }
    Ok(hashes)
}

/// The links of `fetched` with what the chain made of each: the format
/// it was held to (none where it was left out for its format or
/// signature) and its signature.
pub(super) fn as_judged(
    hashes: Hashes,
    fetched: &[ServerBatch],
    judged: &super::keys::Judged,
) -> Hashes {
    hashes
        .into_iter()
        .map(|link| {
            let batch = fetched.iter().find(|b| b.seq == link.seq);
            Link {
                format: judged.formats.get(&link.seq).copied(),
                signature: batch.and_then(|b| b.signature.clone()),
                ..link
            }
        })
        .collect()
}

/// Whether this laptop keeps `batch` exactly as the server holds it: its
/// time is one (a time that is not is kept as the server's, see
/// `read_batch`) and its events read back as the same text.
fn kept_as_it_came(batch: &ServerBatch) -> bool {
    crate::campaign::gate::is_time(&batch.at)
        && serde_json::from_str::<Vec<crate::campaign::Event>>(&batch.events)
            .ok()
            .and_then(|events| serde_json::to_string(&events).ok())
            .is_some_and(|text| text == batch.events)
}

impl Session {
    /// The hash this file keeps of the league's batch `seq` (none before
    /// the first).
    pub(super) fn kept_hash(&self, seq: i64) -> Result<Option<String>> {
        if seq == 0 {
            return Ok(None);
        }
        Ok(self.store.league_hash(seq)?)
    }

    /// How this laptop writes to the league after its batch `after`.
    pub(super) fn writing(
        &self,
        league: &mut League,
        after: i64,
        tie: &LeagueTie,
    ) -> Result<Writing> {
        let before = if league.keeps_chain()? {
            Some(self.kept_hash(after)?)
        } else {
            None
        };
        Ok(Writing {
            format: league.format()?,
            before,
            author: tie.login.clone(),
            key: self.signing_key(league, tie)?,
        })
    }

    /// Stops a sync before it takes anything in where the league's format
    /// is newer than this build writes, or a batch this file holds is no
    /// longer on the server as it was. The first time this file meets a
    /// chained league it keeps the server's hashes as they are.
    pub(super) fn check_league(&mut self, league: &mut League, synced: i64) -> Result<Checked> {
        if let Some(stop) = too_new(league.format()?, self.league_format) {
            return Ok(Checked::Stop(stop));
        }
        let print = league.print(0, synced)?;
        // The same print as the last sync left: not a row has changed.
        if let Some(print) = print.clone()
            && self.store.league_print()? == Some((synced, print.text()))
        {
            return Ok(Checked::Go(Some((synced, print))));
        }
        let Some(held) = league.held(synced)? else {
            return Ok(Checked::Go(None));
        };
        if synced > 0 && self.kept_hash(synced)?.is_none() {
            let hashes = league.hashes(synced)?;
            if hashes.len() as i64 == synced && held.first_unchained.is_none() {
                let links: Vec<Link> = hashes
                    .into_iter()
                    .map(|(seq, hash)| Link {
                        seq,
                        hash,
                        digest: None,
                        exact: false,
                        format: None,
                        signature: None,
                    })
                    .collect();
                self.store.keep_league_hashes(&links)?;
            }
        }
        let kept = self.kept_hash(synced)?;
        if held.count == synced && held.first_unchained.is_none() && held.hash == kept {
            // The format a batch says is not in its hash: one rewritten on
            // the server shows here, against the format it was held to.
            if let Some(seq) = self.format_rewritten(league, synced)? {
                return Ok(Checked::Stop(self.history_changed(
                    seq,
                    Broken::Changed,
                    None,
                )?));
            }
            if let Some(print) = &print {
                self.store.keep_league_print(synced, &print.text())?;
            }
            return Ok(Checked::Go(print.map(|p| (synced, p))));
        }
        let (seq, broken) = self.first_broken(league, synced, held.first_unchained)?;
        Ok(Checked::Stop(self.history_changed(seq, broken, None)?))
    }

    /// The first batch this file holds whose format on the server is not
    /// the one it was held to here.
    fn format_rewritten(&self, league: &mut League, synced: i64) -> Result<Option<i64>> {
        let held: std::collections::HashMap<i64, i64> = self
            .store
            .league_links(synced)?
            .into_iter()
            .filter_map(|l| l.format.map(|f| (l.seq, f)))
            .collect();
        if held.is_empty() {
            return Ok(None);
        }
        Ok(league
            .formats(synced)?
            .into_iter()
            .find(|(seq, format)| held.get(seq).is_some_and(|f| f != format))
            .map(|(seq, _)| seq))
    }

    /// Keeps the print of the league's batches up to `head`: the print
    /// checked at the sync's start, then that of the batches fetched or
    /// sent since (a row changed meanwhile among those checked is not
    /// taken into the print, so the next sync sees it). A print that
    /// cannot be had is no loss: the next sync checks the whole history.
    pub(super) fn keep_print(
        &mut self,
        league: &mut League,
        checked: Option<(i64, Print)>,
        head: i64,
    ) {
        let Some((checked, print)) = checked else {
            return;
        };
        if let Ok(Some(since)) = league.print(checked, head) {
            let _ = self
                .store
                .keep_league_print(head, &print.then(&since).text());
        }
    }

    /// What is wrong with the league's chain as this file keeps it: a link
    /// that does not follow the one before it, or a batch kept as it came
    /// that is no longer the batch its link's digest says. None for a
    /// campaign in no league.
    pub(crate) fn league_chain_problems(&self) -> Result<Vec<String>> {
        let Some(tie) = self.store.league()? else {
            return Ok(Vec::new());
        };
        let links = self.store.league_links(tie.synced)?;
        if links.is_empty() {
            return Ok(Vec::new());
        }
        let log = self.store.log_batches()?;
        let names = self.store.batch_names(crate::campaign::BatchId(0))?;
        let mut problems = Vec::new();
        let mut before: Option<&Link> = None;
        for held in &links {
            let Some(digest) = &held.digest else {
                before = Some(held);
                continue;
            };
            let follows = match before {
                Some(prev) if prev.seq == held.seq - 1 => {
                    link(Some(&prev.hash), digest) == held.hash
                }
                None if held.seq == 1 => link(None, digest) == held.hash,
                _ => true,
            };
            if !follows {
                problems.push(format!(
                    "the league's change {} does not follow the one before it in the chain this file keeps",
                    held.seq
                ));
            }
            let batch = log.iter().find(|b| b.id.0 == held.seq);
            let name = names.iter().find(|n| n.batch.0 == held.seq);
            if let (true, Some(batch), Some(name)) = (held.exact, batch, name) {
                let left_out = batch.events.is_empty() && batch.label.starts_with("Left out: ");
                let events = serde_json::to_string(&batch.events)?;
                let now = Fields {
                    seq: held.seq,
                    uid: &name.uid,
                    author: &name.author,
                    at: &batch.at,
                    label: &batch.label,
                    undoes: batch.undoes.map(|u| u.0),
                    events: &events,
                }
                .digest();
                if !left_out && &now != digest {
                    problems.push(format!(
                        "the league's change {} is not the change the league's chain holds: it was changed in this file",
                        held.seq
                    ));
                }
            }
            before = Some(held);
        }
        problems.extend(self.judged_again(&links, &log, &names)?);
        Ok(problems)
    }

    /// What `verify` holds each of the league's batches this file keeps
    /// to as its replay comes to it (records made again); none for a
    /// campaign in no league.
    pub(crate) fn league_judging(&self) -> Result<Option<super::remake::Judging<'_>>> {
        let Some(tie) = self.store.league()? else {
            return Ok(None);
        };
        let links = self.store.league_links(tie.synced)?;
        Ok(Some(super::remake::Judging::new(&self.base, &links)))
    }

    /// What the chain says of each batch this file holds, checked again:
    /// none held to a format older than the league had reached before it,
    /// and each signed one signed by the key the chain trusted for its
    /// author then.
    fn judged_again(
        &self,
        links: &[Link],
        log: &[LoggedBatch],
        names: &[BatchName],
    ) -> Result<Vec<String>> {
        let upto = links.last().map_or(0, |l| l.seq);
        let trusted = self.store.league_trusted(upto)?;
        let authors: std::collections::HashMap<i64, &str> = names
            .iter()
            .map(|n| (n.batch.0, n.author.as_str()))
            .collect();
        let mut problems = Vec::new();
        let mut reached = 1;
        for held in links {
            let Some(format) = held.format else {
                continue;
            };
            let batch = usize::try_from(held.seq - 1)
                .ok()
                .and_then(|i| log.get(i))
                .filter(|b| b.id.0 == held.seq);
            let kept =
                batch.is_some_and(|b| !(b.events.is_empty() && b.label.starts_with("Left out: ")));
            if kept && format < reached {
                problems.push(format!(
                    "the league's change {} is held to format {format}, older than the league's format {reached} before it",
                    held.seq
                ));
            }
            reached = reached.max(format);
            let Some(author) = authors.get(&held.seq).filter(|_| kept && format >= 3) else {
                continue;
            };
            let key = trusted
                .iter()
                .rfind(|k| k.login == *author && k.since <= held.seq);
            let signed = match (key, &held.signature) {
                (Some(key), Some(signed)) => signature::verify(&key.public_key, &held.hash, signed),
                _ => false,
            };
            if !signed {
                problems.push(format!(
                    "the league's change {} is not signed by the key the league's chain trusts for {}",
                    held.seq,
                    crate::text::one_line(author)
                ));
            }
        }
        Ok(problems)
    }

    /// The first batch this file holds that is not on the server as it
    /// was, and how.
    fn first_broken(
        &self,
        league: &mut League,
        synced: i64,
        unchained: Option<i64>,
    ) -> Result<(i64, Broken)> {
        let server = league.hashes(synced)?;
        let kept = self.store.league_hashes(synced)?;
        for (seq, hash) in &kept {
            match server.iter().find(|(s, _)| s == seq) {
                None => return Ok((*seq, Broken::Deleted)),
                Some((_, there)) if there != hash => return Ok((*seq, Broken::Changed)),
                Some(_) => {}
            }
        }
        if let Some(seq) = (1..=synced).find(|s| !server.iter().any(|(t, _)| t == s)) {
            return Ok((seq, Broken::Deleted));
        }
        Ok((unchained.unwrap_or(synced), Broken::Changed))
    }

    /// The outcome of a sync stopped by the league's batch `seq`: one this
    /// file holds, or (`fetched`) one just fetched.
    pub(super) fn history_changed(
        &self,
        seq: i64,
        broken: Broken,
        fetched: Option<&[ServerBatch]>,
    ) -> Result<SyncOutcome> {
        let label = match fetched.and_then(|f| f.iter().find(|b| b.seq == seq)) {
            Some(batch) => batch.label.clone(),
            None => self
                .store
                .batch(crate::campaign::BatchId(seq))
                .map(|(label, _)| label)
                .unwrap_or_default(),
        };
        Ok(SyncOutcome::HistoryChanged {
            change: seq,
            label,
            how: broken.words().to_owned(),
        })
    }
}
