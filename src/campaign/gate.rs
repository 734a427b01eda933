//! The one gate every change passes before it is written, whatever face or
//! file it came from: a command typed in the window or at the command line,
//! an undo, a gang bundle, a whole campaign's bundle replayed, the other
//! copy of a merge. Each event is checked against the campaign as it stands
//! just before it (earlier events of the same batch included) and the packs
//! it is read with:
//!
//! - names are names ([`crate::text::name`]: NFC, one line, no control,
//!   bidirectional or invisible format character, at most 80 characters)
//!   and no gang shares one, nor two fighters of a gang, as names compare;
//! - notes and reasons are within their length;
//! - numbers lie within the safety bound and within the pack's bounds and
//!   floors — a value already outside (from older rules) may come back;
//! - every gang, fighter, record, lasting effect, photo, pack, resource,
//!   stat, counter and entry an event names exists;
//! - a leader is with their side, and a side has no more leaders than its
//!   pack allows (one where it says none); a captive is held by another
//!   gang than their own; no gang's name looks like another's;
//!
//! and a log replayed whole ([`check_log`]) has dense, increasing batch ids,
//! undoes that name an earlier batch, and times that are times. The error
//! names the field. Pure: the campaign is read through [`State`], which the
//! store gives over its open transaction.

use std::borrow::Cow;

use super::battle::Battle;
use super::{
    BatchId, BattleId, EffectId, Event, Fighter, FighterId, Gang, GangId, LastingEffect,
    LoggedBatch, QuirkPick,
};
use crate::rules::{Pack, Registry};
use crate::text;

/// The longest label of a batch, in characters.
pub const MAX_LABEL: usize = 100_000;

/// The campaign as it stands, as far as the gate reads it.
pub trait State {
    fn gang(&self, id: GangId) -> Result<Option<Gang>, String>;
    /// Every gang's name, by id.
    fn gang_names(&self) -> Result<Vec<(GangId, String)>, String>;
    /// A fighter of a gang's roster or gone from it; not one dismissed.
    fn fighter(&self, id: FighterId) -> Result<Option<Fighter>, String>;
    /// The names a gang's fighters hold, dismissed ones' too, by id.
    fn fighter_names(&self, gang: GangId) -> Result<Vec<(FighterId, String)>, String>;
    fn lasting_effect(&self, id: EffectId) -> Result<Option<LastingEffect>, String>;
    /// Whether a gang of that id is there (one lookup, nothing read).
    fn has_gang(&self, id: GangId) -> Result<bool, String>;
    /// Whether a fighter of that id is there, not dismissed.
    fn has_fighter(&self, id: FighterId) -> Result<bool, String>;
    fn has_battle(&self, id: BattleId) -> Result<bool, String>;
    fn has_photo(&self, key: &str) -> Result<bool, String>;
    /// The group's packs the campaign keeps, as (id, text), in the order
    /// they were put in.
    fn house_packs(&self) -> Result<Vec<(String, String)>, String>;
    /// Who holds each holding, by holding.
    fn holders(&self) -> Result<std::collections::BTreeMap<String, GangId>, String>;
    /// The season as it stands: the cycle, who holds what, the
    /// challenges and the pairings (not how each record finished).
    fn season(&self) -> Result<crate::campaign::season::SeasonState, String>;
}

/// Why a change was refused: the field at fault and the reason, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct GateError {
    pub field: String,
    pub reason: String,
}

impl GateError {
    fn new(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// The same refusal, its field placed inside `outer`
    /// (`log.batches[3].events[0]` + `gang.name`).
    pub fn within(self, outer: &str) -> Self {
        let field = if self.field.is_empty() {
            outer.to_owned()
        } else {
            format!("{outer}.{}", self.field)
        };
        Self { field, ..self }
    }
}

type Checked = Result<(), GateError>;

fn refuse(field: impl Into<String>, reason: impl Into<String>) -> Checked {
    Err(GateError::new(field, reason))
}

fn looked<T>(result: Result<T, String>) -> Result<T, GateError> {
    result.map_err(|e| GateError::new("", format!("the campaign cannot be read: {e}")))
}

/// The gate, with the packs a campaign is read with: the build's (`base`)
/// and the group's it keeps, followed as the changes it checks put packs in
/// or take them out.
pub struct Gate<'a> {
    base: &'a Registry,
    packs: Cow<'a, Registry>,
    /// Gangs' fighters' names, each gang's read once for a run of
    /// recruits into it: none until a recruit asks, none again after any
    /// change but a few that leave them be.
    names: std::collections::HashMap<GangId, FighterNames>,
}

/// The names a gang's fighters hold (dismissed ones' too), by the key two
/// names that are the same name share ([`text::name_key`]): read from the
/// campaign once for a run of recruits into one gang, and followed as they
/// come, so each recruit of a gang of thousands (a bundle's) is one lookup,
/// not a read of every name before it.
struct FighterNames {
    by_key: std::collections::HashMap<unicase::UniCase<String>, Vec<(FighterId, String)>>,
}

impl FighterNames {
    fn read(state: &dyn State, gang: GangId) -> Option<Self> {
        let mut names = Self {
            by_key: std::collections::HashMap::new(),
        };
        for (id, name) in state.fighter_names(gang).ok()? {
            names.insert(id, name);
        }
        Some(names)
    }

    fn insert(&mut self, id: FighterId, name: String) {
        self.by_key
            .entry(text::name_key(&name))
            .or_default()
            .push((id, name));
    }

    /// A fighter but `id` whose name is the same as `name`.
    fn taken(&self, id: FighterId, name: &str) -> Option<&str> {
        self.by_key
            .get(&text::name_key(name))?
            .iter()
            .find(|(other, _)| *other != id)
            .map(|(_, taken)| taken.as_str())
    }
}

impl<'a> Gate<'a> {
    /// A gate for a campaign read with `packs` (the build's `base` and the
    /// house packs it keeps now).
    pub fn new(base: &'a Registry, packs: &'a Registry) -> Self {
        Self {
            base,
            packs: Cow::Borrowed(packs),
            names: std::collections::HashMap::new(),
        }
    }

    /// Checks one event against the campaign as it stands before it; an
    /// event that changes the campaign's packs is followed. An undo
    /// (`takes_back`) may give back an entry the pack has since dropped, as
    /// the fighter held it; everything else is checked alike.
    pub fn check(&mut self, state: &dyn State, event: &Event, takes_back: bool) -> Checked {
        if let Event::FighterRecruited { fighter } = event
            && !self.names.contains_key(&fighter.gang)
            && let Some(names) = FighterNames::read(state, fighter.gang)
        {
            self.names.insert(fighter.gang, names);
        }
        let checked = self.check_event(state, event, takes_back);
        self.follow_names(event, checked.is_ok());
        checked?;
        if let Event::HousePackSet { .. } = event {
            self.follow_house_packs(state, event)?;
        }
        Ok(())
    }

    /// The names read for recruits, after an event: a recruit passed adds
    /// its name; a photo, a lasting effect, a new gang or pack leave them
    /// as they are; anything else, or an event refused, and they are read
    /// again when next asked.
    fn follow_names(&mut self, event: &Event, passed: bool) {
        match event {
            _ if !passed => self.names.clear(),
            Event::FighterRecruited { fighter } => {
                if let Some(names) = self.names.get_mut(&fighter.gang) {
                    names.insert(fighter.id, fighter.name.clone());
                }
            }
            Event::PhotoChanged { .. }
            | Event::LastingEffectAdded { .. }
            | Event::GangFounded { .. }
            | Event::HousePackSet { .. } => {}
            _ => self.names.clear(),
        }
    }

    fn pack(&self, field: &str, id: &str) -> Result<&Pack, GateError> {
        self.packs.get(id).ok_or_else(|| {
            GateError::new(
                field,
                format!(
                    "no pack `{}` is known here (neither this build's nor the group's)",
                    text::echo(id)
                ),
            )
        })
    }

    fn gang_pack(&self, state: &dyn State, field: &str, id: GangId) -> Result<&Pack, GateError> {
        let gang = existing_gang(state, field, id)?;
        self.pack(&format!("{field} ruleset"), &gang.ruleset)
    }

    fn fighter_pack(
        &self,
        state: &dyn State,
        field: &str,
        id: FighterId,
    ) -> Result<(Fighter, &Pack), GateError> {
        let fighter = existing_fighter(state, field, id)?;
        let pack = self.gang_pack(state, field, fighter.gang)?;
        Ok((fighter, pack))
    }

    /// The packs after a house pack is put in, changed or taken out: the
    /// build's and those the campaign keeps, read as a session reads them.
    fn follow_house_packs(&mut self, state: &dyn State, event: &Event) -> Checked {
        let Event::HousePackSet { id, to, .. } = event else {
            return Ok(());
        };
        let mut kept = looked(state.house_packs())?;
        kept.retain(|(k, _)| k != id);
        if let Some(text) = to {
            kept.push((id.clone(), text.clone()));
        }
        let mut packs = self.base.clone();
        for (k, text) in &kept {
            let read = packs.add_house_text(&format!("house pack `{k}`"), text);
            if k == id {
                read.map_err(|e| GateError::new("to", e.to_string()))?;
            }
        }
        self.packs = Cow::Owned(packs);
        Ok(())
    }

    fn check_event(&self, state: &dyn State, event: &Event, takes_back: bool) -> Checked {
        use Event::*;
        match event {
            CampaignCreated {
                name,
                default_ruleset,
            } => {
                is_name("A campaign", "name", name)?;
                self.pack("default_ruleset", default_ruleset).map(drop)
            }
            CampaignRenamed { to, .. } => is_name("A campaign", "to", to),
            GangFounded { gang } => self.gang_founded(state, gang, takes_back),
            GangDisbanded { gang } => gang_there(state, "gang.id", gang.id),
            GangRenamed { gang, to, .. } => gang_renamed(state, *gang, to),
            GangNotesChanged { gang, to, .. } => {
                gang_there(state, "gang", *gang)?;
                is_notes("to", to)
            }
            ResourceAdjusted {
                gang,
                resource,
                from,
                to,
                reason,
            } => self.resource_adjusted(state, *gang, resource, (*from, *to), reason),
            FighterRecruited { fighter } => self.fighter_recruited(state, fighter, takes_back),
            FighterDismissed { fighter } => fighter_there(state, "fighter.id", fighter.id),
            FighterRenamed { fighter, to, .. } => fighter_renamed(state, *fighter, to),
            LeaderChanged { fighter, to, .. } => {
                self.leader_changed(state, *fighter, *to, takes_back)
            }
            FighterNotesChanged { fighter, to, .. } => {
                fighter_there(state, "fighter", *fighter)?;
                is_notes("to", to)
            }
            QuirksChanged { fighter, from, to } => {
                self.entries_changed(state, *fighter, from, to, takes_back)
            }
            CounterChanged {
                fighter,
                counter,
                from,
                to,
                reason,
            } => self.counter_changed(state, *fighter, counter, (*from, *to), reason),
            BattleRecorded { battle } => self.battle_recorded(state, battle, takes_back),
            BattleUnrecorded { battle } => self.battle_known(state, battle),
            TitleChanged { to, .. } => gang_there_if_any(state, "to", *to),
            ActionTaken { gang, target, .. } | ActionTakenBack { gang, target, .. } => {
                gang_there(state, "gang", *gang)?;
                gang_there_if_any(state, "target", *target)
            }
            PendingEffectAdded { effect } | PendingEffectRemoved { effect } => {
                gang_there(state, "effect.gang", effect.gang)?;
                is_notes("effect.text", &effect.text)
            }
            PendingEffectUsed {
                battle, fighters, ..
            }
            | PendingEffectUnused {
                battle, fighters, ..
            } => {
                existing_battle(state, "battle", *battle)?;
                fighters_exist(state, "fighters", fighters)
            }
            FighterStatusChanged {
                fighter,
                to,
                reason,
                ..
            } => status_changed(state, *fighter, to, reason),
            FighterTransferred {
                fighter, from, to, ..
            } => self.transferred(state, *fighter, *from, *to),
            BaseStatSet {
                fighter,
                stat,
                from,
                to,
            } => {
                let (_, pack) = self.fighter_pack(state, "fighter", *fighter)?;
                stat_within(pack, "to", stat, *from, *to)
            }
            LastingEffectAdded { effect } | LastingEffectDeleted { effect } => {
                self.lasting_effect(state, event, effect)
            }
            LastingEffectRemoved { effect, reason } | LastingEffectRestored { effect, reason } => {
                existing_effect(state, "effect", *effect)?;
                is_notes("reason", reason)
            }
            TableRolled { .. } | TableRollTakenBack { .. } => table_roll(state, event),
            CampaignRulesetChanged { to, .. } => self.pack("to", to).map(drop),
            HousePackSet { id, to, .. } => self.house_pack(id, to.as_deref()),
            SettingChanged { setting, to, .. } => {
                is_notes("setting", setting)?;
                notes_if_any("to", to.as_deref())
            }
            ArcClosed { gangs, reason } | ArcReopened { gangs, reason } => {
                gangs_exist(state, "gangs", gangs)?;
                is_notes("reason", reason)
            }
            ScenarioRolled { gangs, .. } | ScenarioRollTakenBack { gangs, .. } => {
                gangs_exist(state, "gangs", gangs)
            }
            PhotoChanged { fighter, to, .. } => photo_changed(state, *fighter, to.as_deref()),
            GangRulesetChanged { gang, to, .. } => {
                gang_there(state, "gang", *gang)?;
                self.pack("to", to).map(drop)
            }
            HoldingChanged {
                holding,
                from,
                to,
                reason,
            } => self.holding_changed(state, holding, *from, *to, reason),
            CycleEnded { cycle } | CycleReopened { cycle } if *cycle == 0 => {
                refuse("cycle", "the first cycle is 1")
            }
            CycleEnded { .. } | CycleReopened { .. } => Ok(()),
            GangFactionChanged { gang, to, .. } => {
                self.faction_changed(state, *gang, to.as_deref(), takes_back)
            }
            FactionTitleChanged { title, to, .. } => {
                is_notes("title", title)?;
                notes_if_any("to", to.as_deref())
            }
            ChallengeIssued { .. }
            | ChallengeWithdrawn { .. }
            | ChallengeAnswered { .. }
            | ChallengeAnswerTakenBack { .. }
            | ChallengeLapsed { .. }
            | ChallengeRenewed { .. }
            | PairingsMade { .. }
            | PairingsTakenBack { .. } => self.challenge_or_pairings(state, event, takes_back),
        }
    }

    /// A change of a challenge or of a cycle's pairings: each as the
    /// challenge or pairings stand where it applies.
    fn challenge_or_pairings(&self, state: &dyn State, event: &Event, takes_back: bool) -> Checked {
        use Event::*;
        match event {
            ChallengeIssued { challenge } => self.challenge_issued(state, challenge, takes_back),
            ChallengeWithdrawn { challenge } => self.challenge_withdrawn(state, challenge),
            ChallengeAnswered {
                challenge,
                accepted,
            } => self.challenge_answered(state, *challenge, *accepted, takes_back),
            ChallengeAnswerTakenBack {
                challenge,
                accepted,
            } => {
                use crate::campaign::season::challenges::ChallengeStatus::*;
                let want = if *accepted { Accepted } else { Declined };
                self.challenge_stands(state, *challenge, &[want])
            }
            ChallengeLapsed {
                challenge,
                accepted,
            } => {
                use crate::campaign::season::challenges::ChallengeStatus::*;
                let want = if *accepted { Accepted } else { Issued };
                self.challenge_stands(state, *challenge, &[want])
            }
            ChallengeRenewed { challenge, .. } => {
                use crate::campaign::season::challenges::ChallengeStatus::*;
                self.challenge_stands(state, *challenge, &[Lapsed])
            }
            PairingsMade { pairings } => self.pairings_made(state, pairings, takes_back),
            PairingsTakenBack { pairings } => {
                let season = looked(state.season())?;
                if season.pairings.iter().any(|p| p == pairings) {
                    Ok(())
                } else {
                    refuse(
                        "pairings",
                        format!("the pairings of cycle {} are not these", pairings.cycle),
                    )
                }
            }
            // `check_event` sends no other kind here.
            other => refuse(
                "",
                format!(
                    "a {} is not a change of a challenge or pairings",
                    other.kind()
                ),
            ),
        }
    }

    /// A challenge issued: two gangs that exist, of a game with
    /// challenges, this cycle, within what a gang may issue in one, with a
    /// stake as the game says; its id a new one. Taken back (a withdrawal
    /// undone), only the gangs and the id are checked.
    fn challenge_issued(
        &self,
        state: &dyn State,
        challenge: &crate::campaign::season::challenges::Challenge,
        takes_back: bool,
    ) -> Checked {
        let pack = self.gang_pack(state, "challenge.challenger", challenge.challenger)?;
        let defender = self.gang_pack(state, "challenge.defender", challenge.defender)?;
        if self.packs.root_of(&defender.pack.id) != self.packs.root_of(&pack.pack.id) {
            return refuse(
                "challenge.defender",
                format!("gang #{} plays another game", challenge.defender),
            );
        }
        let season = looked(state.season())?;
        if season
            .challenges
            .iter()
            .any(|c| c.challenge.id == challenge.id)
        {
            return refuse(
                "challenge.id",
                format!("the campaign has a challenge #{} already", challenge.id),
            );
        }
        if takes_back {
            return Ok(());
        }
        let names = looked(state.gang_names())?;
        let name = |g: GangId| {
            names
                .iter()
                .find(|(id, _)| *id == g)
                .map_or_else(|| format!("gang #{g}"), |(_, n)| n.clone())
        };
        crate::campaign::season::challenges::check_issue(pack, &season, challenge, &name)
            .or_else(|(field, reason)| refuse(format!("challenge.{field}"), reason))
    }

    /// A challenge withdrawn: there, as it was issued, and unanswered.
    fn challenge_withdrawn(
        &self,
        state: &dyn State,
        challenge: &crate::campaign::season::challenges::Challenge,
    ) -> Checked {
        use crate::campaign::season::challenges::ChallengeStatus;
        let season = looked(state.season())?;
        match season
            .challenges
            .iter()
            .find(|c| c.challenge.id == challenge.id)
        {
            Some(c) if c.challenge == *challenge && c.status == ChallengeStatus::Issued => Ok(()),
            Some(c) if c.challenge == *challenge => refuse(
                "challenge",
                format!(
                    "challenge #{} is {}: only one still unanswered is withdrawn",
                    challenge.id,
                    c.status.word()
                ),
            ),
            _ => refuse(
                "challenge",
                format!("the campaign has no challenge #{} as issued", challenge.id),
            ),
        }
    }

    /// An answer: to a challenge still unanswered, a decline within what
    /// the game allows in a cycle. Given back by an undo, only that the
    /// challenge waits for it.
    fn challenge_answered(
        &self,
        state: &dyn State,
        id: crate::campaign::ChallengeId,
        accepted: bool,
        takes_back: bool,
    ) -> Checked {
        use crate::campaign::season::challenges::{self, ChallengeStatus};
        let season = looked(state.season())?;
        let found = challenges::find(&season, id).map_err(|(f, r)| GateError::new(f, r))?;
        if takes_back {
            return self.challenge_stands(state, id, &[ChallengeStatus::Issued]);
        }
        let pack = self.gang_pack(state, "challenge", found.challenge.challenger)?;
        let names = looked(state.gang_names())?;
        let name = |g: GangId| {
            names
                .iter()
                .find(|(id, _)| *id == g)
                .map_or_else(|| format!("gang #{g}"), |(_, n)| n.clone())
        };
        challenges::check_answer(pack, &season, id, accepted, &name).or_else(|(f, r)| refuse(f, r))
    }

    /// A challenge that stands as one of `want`, and has not been played.
    fn challenge_stands(
        &self,
        state: &dyn State,
        id: crate::campaign::ChallengeId,
        want: &[crate::campaign::season::challenges::ChallengeStatus],
    ) -> Checked {
        use crate::campaign::season::challenges;
        let season = looked(state.season())?;
        let found = challenges::find(&season, id).map_err(|(f, r)| GateError::new(f, r))?;
        let pack = self.gang_pack(state, "challenge", found.challenge.challenger)?;
        challenges::check_status(pack, &season, id, want).or_else(|(f, r)| refuse(f, r))
    }

    /// A cycle's pairings: this cycle's, made once, in a way the game
    /// allows, every gang of the game once (paired or sitting out).
    /// Given back by an undo, only that the cycle has none.
    fn pairings_made(
        &self,
        state: &dyn State,
        pairings: &crate::campaign::season::pairings::Pairings,
        takes_back: bool,
    ) -> Checked {
        let season = looked(state.season())?;
        if season.pairings.iter().any(|p| p.cycle == pairings.cycle) {
            return refuse(
                "pairings.cycle",
                format!("the pairings of cycle {} are made already", pairings.cycle),
            );
        }
        for (i, g) in pairings.gangs().enumerate() {
            gang_there(state, &format!("pairings.gangs[{i}]"), g)?;
        }
        if takes_back {
            return Ok(());
        }
        if pairings.cycle != season.cycle {
            return refuse(
                "pairings.cycle",
                format!("this is cycle {}, not {}", season.cycle, pairings.cycle),
            );
        }
        let first = pairings
            .gangs()
            .next()
            .ok_or_else(|| GateError::new("pairings.pairs", "missing: the pairs"))?;
        let pack = self.gang_pack(state, "pairings.pairs", first)?;
        let Some(rules) = &pack.pairings else {
            return refuse("pairings", format!("{} has no [pairings]", pack.pack.name));
        };
        if !rules.by.contains(&pairings.method) {
            return refuse(
                "pairings.method",
                format!(
                    "{} are not made by `{}` in {}",
                    rules.label,
                    pairings.method.word(),
                    pack.pack.name
                ),
            );
        }
        let mut game = Vec::new();
        for (id, _) in looked(state.gang_names())? {
            if let Some(gang) = looked(state.gang(id))?
                && self.packs.root_of(&gang.ruleset) == self.packs.root_of(&pack.pack.id)
            {
                game.push(id);
            }
        }
        crate::campaign::season::pairings::check(pairings, &game).or_else(|(f, r)| refuse(f, r))
    }

    /// A gang's resource changed: within what the gang's pack allows, for
    /// a reason.
    fn resource_adjusted(
        &self,
        state: &dyn State,
        gang: GangId,
        resource: &str,
        (from, to): (i64, i64),
        reason: &str,
    ) -> Checked {
        let pack = self.gang_pack(state, "gang", gang)?;
        resource_within(pack, "to", resource, Some(from), to)?;
        is_notes("reason", reason)
    }

    /// A fighter's counter changed: within what the fighter's pack
    /// allows, for a reason.
    fn counter_changed(
        &self,
        state: &dyn State,
        fighter: FighterId,
        counter: &str,
        (from, to): (i64, i64),
        reason: &str,
    ) -> Checked {
        let (_, pack) = self.fighter_pack(state, "fighter", fighter)?;
        counter_within(pack, "to", counter, Some(from), to)?;
        is_notes("reason", reason)
    }

    /// A fighter made leader (or no longer): one who exists, and one who
    /// may lead where they are made it.
    fn leader_changed(
        &self,
        state: &dyn State,
        fighter: FighterId,
        to: bool,
        takes_back: bool,
    ) -> Checked {
        fighter_there(state, "fighter", fighter)?;
        if to && !takes_back {
            let (f, pack) = self.fighter_pack(state, "fighter", fighter)?;
            may_lead(state, pack, "fighter", &f)?;
        }
        Ok(())
    }

    /// A fighter's entries changed: an entry the pack has since dropped
    /// may stay or go (or come back with an undo); only those the change
    /// gives must be the pack's, for the fighter's group, and not held
    /// back by a holding.
    fn entries_changed(
        &self,
        state: &dyn State,
        fighter: FighterId,
        from: &[QuirkPick],
        to: &[QuirkPick],
        takes_back: bool,
    ) -> Checked {
        let (_, pack) = self.fighter_pack(state, "fighter", fighter)?;
        if takes_back {
            return Ok(());
        }
        let given: Vec<QuirkPick> = to.iter().filter(|p| !from.contains(p)).cloned().collect();
        entries_known(pack, "to", &given)?;
        let f = existing_fighter(state, "fighter", fighter)?;
        entries_for_group(pack, "to", &f, &given)?;
        let entries: Vec<&str> = given.iter().map(|q| q.quirk.as_str()).collect();
        let holders = looked(state.holders())?;
        match crate::campaign::season::holdings::locked_for(pack, &holders, f.gang, &entries, None)
        {
            Some(locked) => refuse(
                "to",
                crate::campaign::season::holdings::locked_said(pack, &locked),
            ),
            None => Ok(()),
        }
    }

    /// A holding changing hands: gangs that exist, one of whose packs has
    /// the holding.
    fn holding_changed(
        &self,
        state: &dyn State,
        holding: &str,
        from: Option<GangId>,
        to: Option<GangId>,
        reason: &str,
    ) -> Checked {
        is_notes("reason", reason)?;
        let mut known = false;
        for (field, gang) in [("from", from), ("to", to)] {
            let Some(gang) = gang else { continue };
            let pack = self.gang_pack(state, field, gang)?;
            known |= pack.holding(holding).is_some();
        }
        if !known {
            return refuse(
                "holding",
                format!("`{}` is not a holding of the game", text::echo(holding)),
            );
        }
        Ok(())
    }

    /// A new gang: a new id, a name no other gang has, a pack known here,
    /// only its pack's resources, each within its floor and the bound, and
    /// one of its pack's factions where the pack has them.
    fn gang_founded(&self, state: &dyn State, gang: &Gang, takes_back: bool) -> Checked {
        if looked(state.has_gang(gang.id))? {
            return refuse(
                "gang.id",
                format!("the campaign has a gang #{} already", gang.id),
            );
        }
        is_name("A gang", "gang.name", &gang.name)?;
        gang_name_free(state, "gang.name", gang.id, &gang.name)?;
        is_notes("gang.notes", &gang.notes)?;
        let pack = self.pack("gang.ruleset", &gang.ruleset)?;
        for (resource, value) in &gang.resources {
            resource_within(
                pack,
                &format!("gang.resources.{resource}"),
                resource,
                None,
                *value,
            )?;
        }
        match &gang.faction {
            _ if takes_back => Ok(()),
            Some(f) => faction_known(pack, "gang.faction", f),
            None if !pack.factions.is_empty() => refuse(
                "gang.faction",
                format!(
                    "missing: every {} of {} belongs to a {}",
                    pack.words.gang, pack.pack.name, pack.words.faction
                ),
            ),
            None => Ok(()),
        }
    }

    /// A fighter joining (or dismissed and taken back): a gang that exists,
    /// a name no one else of the gang holds, entries, stats and counters
    /// of the gang's pack within their bounds.
    fn fighter_recruited(&self, state: &dyn State, fighter: &Fighter, takes_back: bool) -> Checked {
        if looked(state.has_fighter(fighter.id))? {
            return refuse(
                "fighter.id",
                format!("the campaign has a fighter #{} already", fighter.id),
            );
        }
        let pack = self.gang_pack(state, "fighter.gang", fighter.gang)?;
        is_name("A fighter", "fighter.name", &fighter.name)?;
        match self.names.get(&fighter.gang) {
            Some(names) => {
                if let Some(taken) = names.taken(fighter.id, &fighter.name) {
                    return fighter_name_taken("fighter.name", taken);
                }
            }
            None => fighter_name_free(
                state,
                "fighter.name",
                fighter.gang,
                fighter.id,
                &fighter.name,
            )?,
        }
        is_notes("fighter.notes", &fighter.notes)?;
        if !takes_back {
            entries_known(pack, "fighter.quirks", &fighter.quirks)?;
            entries_for_group(pack, "fighter.quirks", fighter, &fighter.quirks)?;
            let entries: Vec<&str> = fighter.quirks.iter().map(|q| q.quirk.as_str()).collect();
            let kind = fighter.group.as_ref().map(|g| g.kind.as_str());
            let holders = looked(state.holders())?;
            if let Some(locked) = crate::campaign::season::holdings::locked_for(
                pack,
                &holders,
                fighter.gang,
                &entries,
                kind,
            ) {
                return refuse(
                    "fighter",
                    crate::campaign::season::holdings::locked_said(pack, &locked),
                );
            }
        }
        for (stat, value) in &fighter.base {
            stat_within(
                pack,
                &format!("fighter.base.{stat}"),
                stat,
                None,
                Some(*value),
            )?;
        }
        for (counter, value) in &fighter.counters {
            counter_within(
                pack,
                &format!("fighter.counters.{counter}"),
                counter,
                None,
                *value,
            )?;
        }
        if let Some(captors) = fighter.status.gang() {
            gang_there(state, "fighter.status.by", captors)?;
            held_by_another(fighter, "fighter.status.by", captors)?;
        }
        if fighter.leader && !takes_back {
            may_lead(state, pack, "fighter.leader", fighter)?;
        }
        if let Some(group) = &fighter.group {
            is_name("A group", "fighter.group.name", &group.name)?;
            if !takes_back && !pack.groups.iter().any(|g| g.id == group.kind) {
                return refuse(
                    "fighter.group.kind",
                    format!("{} recruits no group `{}`", pack.pack.name, group.kind),
                );
            }
        }
        Ok(())
    }

    /// A fighter moved between gangs: both gangs exist, and the fighter's
    /// name is free in the gang joined.
    fn transferred(&self, state: &dyn State, id: FighterId, from: GangId, to: GangId) -> Checked {
        let fighter = existing_fighter(state, "fighter", id)?;
        gang_there(state, "from", from)?;
        let joined = existing_gang(state, "to", to)?;
        fighter_name_free(state, "to", to, id, &fighter.name).map_err(|_| {
            GateError::new(
                "to",
                format!(
                    "{} has a fighter called “{}” already (or keeps that name in its history); rename one first",
                    joined.name, fighter.name
                ),
            )
        })
    }

    /// A record added: known to the campaign ([`Self::battle_known`]), and
    /// where it plays a challenge, one waiting to be played. Taking a
    /// record back asks nothing of its challenge.
    fn battle_recorded(&self, state: &dyn State, battle: &Battle, takes_back: bool) -> Checked {
        self.battle_known(state, battle)?;
        match battle.challenge {
            Some(id) if !takes_back => plays_challenge(state, battle, id),
            _ => Ok(()),
        }
    }

    /// A gang's faction: one its pack has. Taking the change back asks
    /// nothing of the faction.
    fn faction_changed(
        &self,
        state: &dyn State,
        gang: GangId,
        to: Option<&str>,
        takes_back: bool,
    ) -> Checked {
        let pack = self.gang_pack(state, "gang", gang)?;
        match to {
            Some(f) if !takes_back => faction_known(pack, "to", f),
            _ => Ok(()),
        }
    }

    /// A record: its gangs and fighters exist, its counts within the bound.
    fn battle_known(&self, state: &dyn State, battle: &Battle) -> Checked {
        for (i, g) in battle.gangs.iter().enumerate() {
            gang_there(state, &format!("battle.gangs[{i}].gang"), g.gang)?;
            for (count, n) in &g.counts {
                within_bound(&format!("battle.gangs[{i}].counts.{count}"), *n)?;
            }
        }
        for (i, f) in battle.fighters.iter().enumerate() {
            let field = format!("battle.fighters[{i}]");
            fighter_there(state, &format!("{field}.fighter"), f.fighter)?;
            if let Some(by) = f.downed_by {
                fighter_there(state, &format!("{field}.downed_by"), by)?;
            }
        }
        is_notes("battle.notes", &battle.notes)
    }

    /// A lasting effect: on a fighter who exists, named as a name, its
    /// stats the fighter's pack's, its entries known; one taken back
    /// exists.
    fn lasting_effect(&self, state: &dyn State, event: &Event, effect: &LastingEffect) -> Checked {
        if let Event::LastingEffectDeleted { .. } = event {
            return existing_effect(state, "effect.id", effect.id).map(drop);
        }
        if looked(state.lasting_effect(effect.id))?.is_some() {
            return refuse(
                "effect.id",
                format!("the campaign has a lasting effect #{} already", effect.id),
            );
        }
        let (_, pack) = self.fighter_pack(state, "effect.fighter", effect.fighter)?;
        is_name("A lasting effect", "effect.name", &effect.name)?;
        is_notes("effect.detail", &effect.detail)?;
        for (stat, n) in &effect.stats {
            let field = format!("effect.stats.{stat}");
            if pack.stat(stat).is_none() {
                return refuse(field, format!("{} has no such stat", pack.pack.name));
            }
            within_bound(&field, *n)?;
        }
        for (field, entry) in [
            ("effect.quirk", &effect.quirk),
            ("effect.lost_quirk", &effect.lost_quirk),
        ] {
            if let Some(id) = entry
                && pack.quirk(id).is_none()
            {
                return refuse(field, unknown_entry(pack, id));
            }
        }
        if let Some(battle) = effect.battle {
            existing_battle(state, "effect.battle", battle)?;
        }
        Ok(())
    }

    /// A group's pack put in or changed: its id is a pack's id, not one of
    /// this build's, and the text is a pack of that id that reads.
    fn house_pack(&self, id: &str, to: Option<&str>) -> Checked {
        is_pack_id("id", id)?;
        if self.base.is_builtin(id) {
            return refuse(
                "id",
                format!("`{id}` is a pack of this build, not the group's own"),
            );
        }
        let Some(text) = to else { return Ok(()) };
        if text.len() > crate::rules::MAX_PACK_BYTES {
            return refuse(
                "to",
                format!(
                    "the pack is longer than {} MB",
                    crate::rules::MAX_PACK_BYTES / (1024 * 1024)
                ),
            );
        }
        match Registry::pack_id("to", text) {
            Ok(said) if said == id => Ok(()),
            Ok(said) => refuse(
                "to",
                format!(
                    "the pack's text calls itself `{}`, not `{id}`",
                    text::echo(&said)
                ),
            ),
            Err(e) => refuse("to", e.to_string()),
        }
    }
}

/// A log replayed whole: batch ids from 1 up with none missing, each undo
/// naming an earlier batch, every time a time and every label within its
/// length; the first batch's first event the campaign's creation, and no
/// other.
pub fn check_log(batches: &[LoggedBatch]) -> Checked {
    for (i, batch) in batches.iter().enumerate() {
        let field = format!("log.batches[{i}]");
        let expected = i64::try_from(i).unwrap_or(i64::MAX).saturating_add(1);
        if batch.id != BatchId(expected) {
            return refuse(
                format!("{field}.id"),
                format!(
                    "batch ids run 1, 2, 3… with none missing: this one should be {expected}, not {}",
                    batch.id
                ),
            );
        }
        check_header(&field, batch)?;
        for (j, event) in batch.events.iter().enumerate() {
            if event.is_creation() != (i == 0 && j == 0) {
                return refuse(
                    format!("{field}.events[{j}]"),
                    "a campaign is created once, by the first change of its log",
                );
            }
        }
    }
    if batches.is_empty() {
        return refuse("log.batches", "the log is empty");
    }
    Ok(())
}

/// A batch's own fields, as in a log replayed whole: its undo naming an
/// earlier batch, its time a time and its label within its length.
pub fn check_header(field: &str, batch: &LoggedBatch) -> Checked {
    if let Some(undone) = batch.undoes
        && !(1..batch.id.0).contains(&undone.0)
    {
        return refuse(
            format!("{field}.undoes"),
            format!(
                "a batch takes back an earlier batch of the log, not #{undone} (it is #{})",
                batch.id
            ),
        );
    }
    if !is_time(&batch.at) {
        return refuse(
            format!("{field}.at"),
            format!("“{}” is not a time", text::echo(&batch.at)),
        );
    }
    is_label(&format!("{field}.label"), &batch.label)
}

/// Whether a batch's time is one: a timestamp, at most 64 bytes long.
pub fn is_time(at: &str) -> bool {
    at.len() <= 64 && at.parse::<jiff::Timestamp>().is_ok()
}

/// A batch's label: at most [`MAX_LABEL`] characters.
pub fn is_label(field: &str, label: &str) -> Checked {
    if label.len() > MAX_LABEL * 4 || label.chars().count() > MAX_LABEL {
        return refuse(
            field,
            format!("the label is longer than {MAX_LABEL} characters"),
        );
    }
    Ok(())
}

fn is_name(what: &'static str, field: &str, name: &str) -> Checked {
    match text::name(what, name) {
        Ok(stored) if stored == name => Ok(()),
        Ok(_) => refuse(
            field,
            "the name is not stored as names are (trimmed, in Unicode's composed form)",
        ),
        Err(e) => refuse(field, e.to_string()),
    }
}

fn is_notes(field: &str, notes: &str) -> Checked {
    if notes.len() > text::MAX_NOTES * 4 || text::graphemes(notes) > text::MAX_NOTES {
        return refuse(field, format!("longer than {} characters", text::MAX_NOTES));
    }
    Ok(())
}

/// A pack's id: a name, of letters, digits and `-`, `_`, `.`.
fn is_pack_id(field: &str, id: &str) -> Checked {
    let fits = !id.is_empty()
        && id.chars().count() <= text::MAX_NAME
        && id
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if fits {
        Ok(())
    } else {
        refuse(
            field,
            format!(
                "“{}” is not a pack's id (letters, digits, `-`, `_` and `.`, at most {} characters)",
                text::echo(id),
                text::MAX_NAME
            ),
        )
    }
}

fn within_bound(field: &str, n: i64) -> Checked {
    crate::rules::check_bound(n).or_else(|reason| refuse(field, reason))
}

/// Whether moving a value from `from` (`None`: a new value) to `to` takes
/// it past `range`, further out than it was.
fn goes_past(range: &std::ops::RangeInclusive<i64>, from: Option<i64>, to: i64) -> bool {
    let (min, max) = (*range.start(), *range.end());
    match from {
        None => !range.contains(&to),
        Some(from) => (to < min && to < from) || (to > max && to > from),
    }
}

/// Why `to` is refused for the number called `label`.
fn outside(label: &str, to: i64, range: &std::ops::RangeInclusive<i64>) -> String {
    format!(
        "{label} of {to} lies outside {} to {}",
        range.start(),
        range.end()
    )
}

fn resource_within(pack: &Pack, field: &str, id: &str, from: Option<i64>, to: i64) -> Checked {
    let Some(def) = pack.resource(id) else {
        return refuse(
            field,
            format!("{} has no resource `{}`", pack.pack.name, text::echo(id)),
        );
    };
    let range = def.range();
    if goes_past(&range, from, to) {
        return refuse(field, outside(&def.label, to, &range));
    }
    Ok(())
}

fn counter_within(pack: &Pack, field: &str, key: &str, from: Option<i64>, to: i64) -> Checked {
    let Some((def, _)) = pack.counter_key(key) else {
        return refuse(
            field,
            format!("{} has no counter `{}`", pack.pack.name, text::echo(key)),
        );
    };
    let range = def.range();
    if goes_past(&range, from, to) {
        return refuse(field, outside(&def.label, to, &range));
    }
    Ok(())
}

fn stat_within(pack: &Pack, field: &str, id: &str, from: Option<i64>, to: Option<i64>) -> Checked {
    let Some(def) = pack.stat(id) else {
        return refuse(
            field,
            format!("{} has no stat `{}`", pack.pack.name, text::echo(id)),
        );
    };
    let Some(to) = to else { return Ok(()) };
    let top = crate::rules::MAX_MAGNITUDE;
    let range = def.min.unwrap_or(-top)..=def.max.unwrap_or(top);
    if goes_past(&range, from, to) {
        return refuse(field, outside(&def.label, to, &range));
    }
    Ok(())
}

/// Every entry of a fighter's is one of the pack's; an alternative name
/// is a name; a selection names an entry of the pack.
fn entries_known(pack: &Pack, field: &str, picks: &[QuirkPick]) -> Checked {
    for (i, pick) in picks.iter().enumerate() {
        let at = format!("{field}[{i}]");
        if pack.quirk(&pick.quirk).is_none() {
            return refuse(format!("{at}.quirk"), unknown_entry(pack, &pick.quirk));
        }
        if let Some(alt) = &pick.alt_name {
            is_name("An entry", &format!("{at}.alt_name"), alt)?;
        }
        // One the fighter does not carry is a problem the roster shows,
        // as when it is typed; one the pack does not have is no entry.
        if let Some(with) = &pick.with
            && pack.quirk(with).is_none()
        {
            return refuse(format!("{at}.with"), unknown_entry(pack, with));
        }
    }
    Ok(())
}

/// Entries only some kinds of group may take (`groups`) are taken only by
/// members of one.
fn entries_for_group(pack: &Pack, field: &str, fighter: &Fighter, picks: &[QuirkPick]) -> Checked {
    let kind = fighter.group.as_ref().map(|g| g.kind.as_str());
    for pick in picks {
        let Some(def) = pack.quirk(&pick.quirk) else {
            continue;
        };
        if def.groups.is_empty() || kind.is_some_and(|k| def.groups.iter().any(|g| g == k)) {
            continue;
        }
        let labels: Vec<&str> = def
            .groups
            .iter()
            .map(|g| {
                pack.groups
                    .iter()
                    .find(|d| d.id == *g)
                    .map_or(g.as_str(), |d| d.label.as_str())
            })
            .collect();
        return refuse(
            field,
            format!(
                "only a member of {} may take {}",
                labels.join(" or "),
                def.name
            ),
        );
    }
    Ok(())
}

/// A faction of the pack, by id.
fn faction_known(pack: &Pack, field: &str, faction: &str) -> Checked {
    if pack.faction(faction).is_some() {
        return Ok(());
    }
    refuse(
        field,
        format!(
            "`{}` is not a {} of {}",
            text::echo(faction),
            pack.words.faction,
            pack.pack.name
        ),
    )
}

fn unknown_entry(pack: &Pack, id: &str) -> String {
    format!("{} has no `{}`", pack.pack.name, text::echo(id))
}

fn existing_gang(state: &dyn State, field: &str, id: GangId) -> Result<Gang, GateError> {
    looked(state.gang(id))?
        .ok_or_else(|| GateError::new(field, format!("the campaign has no gang #{id}")))
}

fn existing_fighter(state: &dyn State, field: &str, id: FighterId) -> Result<Fighter, GateError> {
    looked(state.fighter(id))?
        .ok_or_else(|| GateError::new(field, format!("the campaign has no fighter #{id}")))
}

fn existing_effect(
    state: &dyn State,
    field: &str,
    id: EffectId,
) -> Result<LastingEffect, GateError> {
    looked(state.lasting_effect(id))?
        .ok_or_else(|| GateError::new(field, format!("the campaign has no lasting effect #{id}")))
}

/// A roll on a table: its fighter and record exist, its numbers lie within
/// the bound and its texts within their length.
fn table_roll(state: &dyn State, event: &Event) -> Checked {
    let (Event::TableRolled {
        fighter,
        battle,
        modifier,
        total,
        row,
        result,
        ..
    }
    | Event::TableRollTakenBack {
        fighter,
        battle,
        modifier,
        total,
        row,
        result,
        ..
    }) = event
    else {
        return Ok(());
    };
    if let Some(f) = fighter {
        fighter_there(state, "fighter", *f)?;
    }
    if let Some(b) = battle {
        existing_battle(state, "battle", *b)?;
    }
    within_bound("modifier", *modifier)?;
    within_bound("total", *total)?;
    is_notes("row", row)?;
    is_notes("result", result)
}

/// Notes, where there are any.
fn notes_if_any(field: &str, notes: Option<&str>) -> Checked {
    notes.map_or(Ok(()), |notes| is_notes(field, notes))
}

/// A gang, where one is named, that exists.
fn gang_there_if_any(state: &dyn State, field: &str, id: Option<GangId>) -> Checked {
    id.map_or(Ok(()), |id| gang_there(state, field, id))
}

/// A fighter's status changed: a fighter who exists, held (where they
/// are) by a gang that exists and is not their own, for a reason.
fn status_changed(
    state: &dyn State,
    fighter: FighterId,
    to: &crate::campaign::FighterStatus,
    reason: &str,
) -> Checked {
    let f = existing_fighter(state, "fighter", fighter)?;
    if let Some(captors) = to.gang() {
        gang_there(state, "to.by", captors)?;
        held_by_another(&f, "to.by", captors)?;
    }
    is_notes("reason", reason)
}

/// A fighter's photo set: a fighter who exists, and a photo the campaign
/// holds.
fn photo_changed(state: &dyn State, fighter: FighterId, to: Option<&str>) -> Checked {
    fighter_there(state, "fighter", fighter)?;
    match to {
        Some(key) if !looked(state.has_photo(key))? => {
            refuse("to", "names a photo the campaign does not hold")
        }
        _ => Ok(()),
    }
}

fn gang_there(state: &dyn State, field: &str, id: GangId) -> Checked {
    if looked(state.has_gang(id))? {
        Ok(())
    } else {
        refuse(field, format!("the campaign has no gang #{id}"))
    }
}

fn fighter_there(state: &dyn State, field: &str, id: FighterId) -> Checked {
    if looked(state.has_fighter(id))? {
        Ok(())
    } else {
        refuse(field, format!("the campaign has no fighter #{id}"))
    }
}

fn existing_battle(state: &dyn State, field: &str, id: BattleId) -> Checked {
    if looked(state.has_battle(id))? {
        Ok(())
    } else {
        refuse(field, format!("the campaign has no record #{id}"))
    }
}

fn gangs_exist(state: &dyn State, field: &str, gangs: &[GangId]) -> Checked {
    for (i, g) in gangs.iter().enumerate() {
        gang_there(state, &format!("{field}[{i}]"), *g)?;
    }
    Ok(())
}

fn fighters_exist(state: &dyn State, field: &str, fighters: &[FighterId]) -> Checked {
    for (i, f) in fighters.iter().enumerate() {
        fighter_there(state, &format!("{field}[{i}]"), *f)?;
    }
    Ok(())
}

/// A gang's new name: a name, and no other gang's.
fn gang_renamed(state: &dyn State, gang: GangId, to: &str) -> Checked {
    gang_there(state, "gang", gang)?;
    is_name("A gang", "to", to)?;
    gang_name_free(state, "to", gang, to)
}

/// No other gang is called `name`, as names compare, nor by a name that
/// looks like it ([`text::look_alike`]: a Cyrillic а for an a, fullwidth
/// letters, a double space…).
fn gang_name_free(state: &dyn State, field: &str, id: GangId, name: &str) -> Checked {
    let names = looked(state.gang_names())?;
    let others = || names.iter().filter(|(other, _)| *other != id);
    if let Some((_, taken)) = others().find(|(_, n)| text::same(n, name)) {
        return refuse(
            field,
            format!("the campaign has a gang called “{taken}” already"),
        );
    }
    let look = text::look(name);
    match others().find(|(_, n)| text::look(n) == look) {
        Some((_, like)) => refuse(
            field,
            format!(
                "“{}” looks like the gang “{like}” (the same letters to the eye); choose a name that reads differently",
                text::echo(name)
            ),
        ),
        None => Ok(()),
    }
}

/// A record that plays a challenge: one accepted and not yet played,
/// between its two gangs, the challenger its challenger, for its stake.
fn plays_challenge(
    state: &dyn State,
    battle: &Battle,
    id: crate::campaign::ChallengeId,
) -> Checked {
    use crate::campaign::season::challenges::{self, ChallengeStatus};
    let season = looked(state.season())?;
    let found =
        challenges::find(&season, id).map_err(|(_, r)| GateError::new("battle.challenge", r))?;
    if found.status != ChallengeStatus::Accepted || found.played.is_some() {
        let now = if found.played.is_some() {
            "played"
        } else {
            found.status.word()
        };
        return refuse(
            "battle.challenge",
            format!("challenge #{id} is {now}, not accepted and waiting to be played"),
        );
    }
    let c = &found.challenge;
    let sides: Vec<(GangId, bool)> = battle
        .gangs
        .iter()
        .map(|g| (g.gang, g.challenger))
        .collect();
    let want = [(c.challenger, true), (c.defender, false)];
    let same = sides.len() == 2 && want.iter().all(|w| sides.contains(w));
    if !same {
        return refuse(
            "battle.gangs",
            format!("challenge #{id} is played by its challenger against its defender"),
        );
    }
    if battle.stake != c.stake {
        return refuse(
            "battle.stake",
            format!("challenge #{id} is played for what it named at stake"),
        );
    }
    Ok(())
}

/// A fighter held captive is held by another gang than their own.
fn held_by_another(fighter: &Fighter, field: &str, captors: GangId) -> Checked {
    if captors == fighter.gang {
        return refuse(
            field,
            format!("{} cannot be held captive by their own gang", fighter.name),
        );
    }
    Ok(())
}

/// A fighter may become a leader of their side: they are with it (not
/// gone, not held by a rival), and the side has fewer leaders with it than
/// the pack allows (its `[recruiting] leaders`; one where it says none).
fn may_lead(state: &dyn State, pack: &Pack, field: &str, fighter: &Fighter) -> Checked {
    let word = &pack.words.leader;
    if !fighter.status.with_side() {
        return refuse(
            field,
            format!(
                "{} is not with their side (gone, or held by a rival) and cannot be its {word}",
                fighter.name
            ),
        );
    }
    let Some(most) = super::succession::most_leaders(pack) else {
        return Ok(());
    };
    let mut leaders = Vec::new();
    for (id, _) in looked(state.fighter_names(fighter.gang))? {
        if id == fighter.id {
            continue;
        }
        if let Some(other) = looked(state.fighter(id))?
            && other.leader
            && other.status.with_side()
        {
            leaders.push(other.name);
        }
    }
    if leaders.len() >= most {
        return refuse(
            field,
            format!(
                "{} has {} {} already ({}); {} allows {most}",
                looked(state.gang(fighter.gang))?.map_or_else(String::new, |g| g.name),
                leaders.len(),
                if leaders.len() == 1 {
                    word
                } else {
                    &pack.words.leaders
                },
                text::listed(&leaders, ", "),
                pack.pack.name
            ),
        );
    }
    Ok(())
}

/// A fighter's new name: a name, and no one else's in the gang.
fn fighter_renamed(state: &dyn State, fighter: FighterId, to: &str) -> Checked {
    let f = existing_fighter(state, "fighter", fighter)?;
    is_name("A fighter", "to", to)?;
    fighter_name_free(state, "to", f.gang, fighter, to)
}

/// No one else of the gang, on its roster, gone or dismissed, is called
/// `name`, as names compare.
fn fighter_name_free(
    state: &dyn State,
    field: &str,
    gang: GangId,
    id: FighterId,
    name: &str,
) -> Checked {
    match looked(state.fighter_names(gang))?
        .into_iter()
        .find(|(other, n)| *other != id && text::same(n, name))
    {
        Some((_, taken)) => fighter_name_taken(field, &taken),
        None => Ok(()),
    }
}

fn fighter_name_taken(field: &str, taken: &str) -> Checked {
    refuse(
        field,
        format!("a fighter of the gang is called “{taken}” already"),
    )
}
