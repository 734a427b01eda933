//! The record being filled in, kept for its campaign on this laptop
//! (`session::Drafts`): written as the form changes, read back when the
//! campaign opens, forgotten once the record is committed. Closing the
//! window, opening another campaign or a crash never throws away what was
//! typed, and a roll once shown is never rolled again.
//!
//! A draft is input like any other file: read through the one reader
//! (`crate::input`), and, before the form takes it, checked against the
//! campaign as it is now ([`fits`]): the sides it holds side by side are as
//! many as the pack's record takes, and every gang, fighter, scenario,
//! role, count, outcome, counter, table, flag and choice it names is
//! there, every text and number within what the form and the gate take.
//! One that does not fit is set aside beside where it was kept, named in
//! the status bar, and never obeyed; the report the form then makes is
//! checked by the one gate as every record is.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::campaign::{FighterId, GangId};
use crate::rules::Pack;
use crate::session::{DraftRead, GangSummary, Session};
use crate::ui::app::RapsheetApp;
use crate::ui::base::state::{BattleData, BattleGangData};
use crate::ui::views::post_battle::BattleForm;

impl RapsheetApp {
    /// Keeps records begun and not committed in `folder`, and brings back
    /// the one kept for the campaign open now.
    pub fn keep_drafts_in(&mut self, folder: PathBuf) {
        self.drafts = Some(crate::session::Drafts::in_folder(folder));
        self.restore_draft();
    }

    /// Keeps the record form of the open campaign as its draft, where its
    /// rolls were shown (the form was worked out) and it changed since it
    /// was last kept.
    pub(in crate::ui) fn keep_draft(&mut self) {
        let (Some(drafts), Some(session)) = (&self.drafts, &self.session) else {
            return;
        };
        let form = &self.campaign.battle_form;
        if form.seed == 0 {
            return;
        }
        // A form only the app filled in is no record begun: nothing is
        // kept, and one kept before is let go.
        if !form.holds_entries(sides_pack(&form.gangs, &self.state.gangs, session)) {
            if self.campaign.kept_draft.take().is_some()
                && let Err(err) = drafts.forget(session.path())
            {
                self.error(err.context("the record emptied could not be let go"));
            }
            return;
        }
        let Ok(text) = ron::to_string(form) else {
            return;
        };
        if self.campaign.kept_draft.as_ref() == Some(&text) {
            return;
        }
        match drafts.keep(session.path(), &text) {
            Ok(()) => self.campaign.kept_draft = Some(text),
            Err(err) => {
                // Said once, not at every keystroke.
                self.campaign.kept_draft = Some(text);
                self.error(err.context("the record being filled in could not be kept"));
            }
        }
    }

    /// Brings back the record the open campaign had begun: its form, and
    /// the seed of the rolls it showed. A draft that cannot be read, or
    /// that does not fit the campaign as it is now, is set aside and said,
    /// and the form starts empty.
    pub(in crate::ui) fn restore_draft(&mut self) {
        let (Some(drafts), Some(session)) = (&self.drafts, &self.session) else {
            return;
        };
        let text = match drafts.read(session.path()) {
            DraftRead::None => return,
            DraftRead::Kept(text) => text,
            DraftRead::SetAside { why, kept } => {
                self.draft_set_aside(&why, Some(&kept));
                return;
            }
            DraftRead::Unread { why } => {
                self.draft_set_aside(&why, None);
                return;
            }
        };
        let form = match ron::from_str::<BattleForm>(&text) {
            Ok(form) => form,
            Err(err) => {
                let why = format!("it is not a form this version reads ({err})");
                return self.set_draft_aside(&why);
            }
        };
        let chosen: Vec<GangId> = form
            .gangs
            .iter()
            .flatten()
            .copied()
            .filter(|id| self.state.gangs.iter().any(|g| g.id == *id))
            .collect();
        if let Err(err) = self.state.load_battle_fighters(session, &chosen) {
            self.error(err.context("the record begun before could not be checked"));
            return;
        }
        if let Err(why) = fits(&form, &self.state.battle_data, &self.state.gangs, session) {
            return self.set_draft_aside(&why);
        }
        let mut form = form;
        form.dirty = true;
        let begun = form.holds_entries(sides_pack(&form.gangs, &self.state.gangs, session));
        self.campaign.battle_form = form;
        self.campaign.kept_draft = Some(text);
        // A form the app alone filled in comes back unsaid.
        if !begun {
            return;
        }
        let noun = self
            .state
            .info
            .as_ref()
            .map(|i| session.record_noun(&i.default_ruleset))
            .unwrap_or_default();
        let notice =
            format!("the {noun} begun before is back on the Record screen, with its rolls");
        self.info(crate::text::capitalised(&notice));
        self.campaign.draft_notice = Some(notice);
    }

    /// Sets the open campaign's draft aside, for the reason `why`, and says
    /// where it went.
    fn set_draft_aside(&mut self, why: &str) {
        let (Some(drafts), Some(session)) = (&self.drafts, &self.session) else {
            return;
        };
        match drafts.set_aside(session.path()) {
            Ok(kept) => self.draft_set_aside(why, Some(&kept)),
            Err(err) => self.draft_set_aside(
                &format!("{why}; it could not be set aside either ({err:#})"),
                None,
            ),
        }
    }

    /// Says that the record begun before was not brought back, why, and
    /// where it was set aside (`None`: it is left where it was, not read).
    fn draft_set_aside(&mut self, why: &str, kept: Option<&std::path::Path>) {
        let noun = self.record_noun();
        let notice = match kept {
            Some(kept) => format!(
                "the {noun} begun before was set aside, not brought back: {why}; it is kept as {}; the form starts empty",
                crate::text::path(kept)
            ),
            None => format!(
                "the {noun} begun before was not brought back: {why}; the form starts empty"
            ),
        };
        let notice = crate::text::one_line(&notice);
        self.error(anyhow::anyhow!("{}", crate::text::capitalised(&notice)));
        // Said again with the campaign's opening, which the status bar
        // shows after it.
        self.campaign.draft_notice = Some(notice);
    }

    /// What the open campaign's game calls a record (`battle`).
    fn record_noun(&self) -> String {
        match (&self.session, &self.state.info) {
            (Some(session), Some(info)) => session.record_noun(&info.default_ruleset),
            _ => "record".to_owned(),
        }
    }

    /// Forgets the open campaign's draft: its record was committed.
    pub(in crate::ui) fn forget_draft(&mut self) {
        let (Some(drafts), Some(session)) = (&self.drafts, &self.session) else {
            return;
        };
        self.campaign.kept_draft = None;
        if let Err(err) = drafts.forget(session.path()) {
            self.error(err.context("the record committed is still kept as begun"));
        }
    }
}

/// The longest text a draft may hold in a field a player types a few
/// words into (dice, a pick, a mark): a name's length, many times over.
const MAX_FIELD: usize = crate::text::MAX_NAME * 4;

/// Whether a draft read back fits the campaign as it is now (`data`: the
/// fighters of the gangs it names, `gangs`: the campaign's gangs): the
/// sides it holds side by side are as many, and within what the pack's
/// record takes; every gang, fighter, scenario, role, count, outcome,
/// counter, table, flag and choice it names is there; every text and
/// number within what the form and the gate take. `Err` names the field
/// and why, in words.
pub(in crate::ui) fn fits(
    form: &BattleForm,
    data: &BattleData,
    gangs: &[GangSummary],
    session: &Session,
) -> Result<(), String> {
    let pack = draft_pack(form, gangs, session)?;
    let sides = form.gangs.len();
    sides_fit(form, pack)?;
    let mut chosen: Vec<&BattleGangData> = Vec::new();
    for (i, gang) in form.gangs.iter().enumerate() {
        let Some(id) = gang else { continue };
        if form.gangs[..i].contains(gang) {
            return Err(format!("gangs[{i}]: gang #{id} takes part twice"));
        }
        let Some(found) = data.get(*id) else {
            return Err(format!("gangs[{i}]: the campaign has no gang #{id}"));
        };
        chosen.push(found);
    }
    let fighters: BTreeSet<FighterId> = chosen
        .iter()
        .flat_map(|g| g.fighters.iter().map(|(id, _)| *id))
        .collect();
    let fighter = |field: String, id: &FighterId| {
        if fighters.contains(id) {
            Ok(())
        } else {
            Err(format!(
                "{field}: fighter #{id} is not one of the {} taking part",
                pack.words.gangs
            ))
        }
    };
    scenario_fits(form, pack)?;
    for (id, (outcome, by)) in &form.outcomes {
        fighter(format!("outcomes[{id}]"), id)?;
        if !outcome.is_empty() && pack.outcome(outcome).is_none() {
            return Err(format!(
                "outcomes[{id}]: {} has no outcome `{}`",
                pack.pack.name,
                crate::text::echo(outcome)
            ));
        }
        if let Some(by) = by {
            fighter(format!("outcomes[{id}].by"), by)?;
        }
    }
    for id in form.absent.iter().chain(&form.advancing) {
        fighter("absent or advancing".into(), id)?;
    }
    for (i, id) in form.bounties.iter().enumerate() {
        if let Some(id) = id {
            fighter(format!("bounties[{i}]"), id)?;
        }
    }
    let in_turn = form
        .steps
        .iter()
        .flat_map(|(key, steps)| steps.iter().map(move |n| (key, n)));
    for ((id, key), change) in form.counters.iter().chain(in_turn) {
        fighter(format!("counters[{id}]"), id)?;
        let Some((def, _)) = pack.counter_key(key) else {
            return Err(format!(
                "counters[{id}]: {} has no counter `{}`",
                pack.pack.name,
                crate::text::echo(key)
            ));
        };
        let span = def.top().saturating_sub(def.min);
        if !(-span..=span).contains(change) {
            return Err(format!(
                "counters[{id}]: a change of {change} to {} is past what it holds",
                def.label
            ));
        }
    }
    for (n, (id, table, total)) in form.during.iter().enumerate() {
        fighter(format!("during[{n}]"), id)?;
        if !pack.record().during.iter().any(|r| r.table == *table) {
            return Err(format!(
                "during[{n}]: {} rolls no table `{}` during a {}",
                pack.pack.name,
                crate::text::echo(table),
                pack.record().noun
            ));
        }
        if total.is_some_and(|t| !(-99..=99).contains(&t)) {
            return Err(format!("during[{n}]: a total is -99 to 99"));
        }
    }
    let index = |field: &str, i: usize| {
        if i < sides {
            Ok(())
        } else {
            Err(format!("{field}: side {} of {sides}", i + 1))
        }
    };
    if let Some(w) = form.winner {
        index("winner", w)?;
    }
    for (i, rule) in form.choices.keys() {
        index("choices", *i)?;
        short("choices", rule)?;
    }
    for i in form.titles.keys().chain(&form.no_declaration) {
        index("titles or declarations", *i)?;
    }
    for flag in &form.flags {
        if !pack.record().flags.iter().any(|f| f.id == *flag) {
            return Err(format!(
                "flags: {} has no box `{}` to tick",
                pack.pack.name,
                crate::text::echo(flag)
            ));
        }
    }
    for ((gang, action), marked) in &form.marks {
        if !chosen.iter().any(|g| crate::text::same(&g.name, gang)) {
            return Err(format!("marks: {} takes no part", crate::text::echo(gang)));
        }
        short("marks", action)?;
        for name in marked {
            short("marks", name)?;
        }
    }
    let texts = form
        .dice
        .iter()
        .chain(&form.picks)
        .flat_map(|(a, b)| [a, b])
        .chain(form.made.iter())
        .chain(form.titles.values())
        .chain(form.choices.values());
    for text in texts {
        short("dice, picks or choices", text)?;
    }
    crate::text::notes("notes", &form.notes).map_err(|e| format!("notes: {e}"))?;
    Ok(())
}

/// The pack a draft is read with: its gangs' (all of one), else the
/// campaign's.
fn draft_pack<'s>(
    form: &BattleForm,
    gangs: &[GangSummary],
    session: &'s Session,
) -> Result<&'s Pack, String> {
    let mut rulesets = BTreeSet::new();
    for (i, id) in form.gangs.iter().enumerate() {
        let Some(id) = id else { continue };
        let Some(gang) = gangs.iter().find(|g| g.id == *id) else {
            return Err(format!("gangs[{i}]: the campaign has no gang #{id}"));
        };
        rulesets.insert(gang.ruleset.as_str());
    }
    let ruleset = match rulesets.into_iter().collect::<Vec<_>>().as_slice() {
        [] => {
            session
                .info()
                .map_err(|e| format!("the campaign cannot be read: {e:#}"))?
                .default_ruleset
        }
        [one] => (*one).to_owned(),
        _ => return Err("gangs: they play different games".into()),
    };
    session.pack(&ruleset).map_err(|e| format!("{e:#}"))
}

/// The sides: as many as the pack's record takes, and every list kept
/// side by side with them as long.
fn sides_fit(form: &BattleForm, pack: &Pack) -> Result<(), String> {
    let sides = form.gangs.len();
    let rules = pack.record();
    if !form.shape.is_empty() && rules.shape(&form.shape).is_none() {
        return Err(format!(
            "shape: {} has no kind of {} `{}`",
            pack.pack.name,
            rules.noun,
            crate::text::echo(&form.shape)
        ));
    }
    let (fewest, most) = crate::ui::views::record_shape::sides_allowed(form, pack);
    if sides > most || (sides != 0 && sides < fewest) {
        return Err(format!(
            "gangs: {sides} sides, where a {} has {fewest} to {most}",
            rules.noun
        ));
    }
    if let Some(c) = form.challenger
        && c >= sides
    {
        return Err(format!("challenger: side {} of {sides}", c + 1));
    }
    let most_place = u32::try_from(sides).unwrap_or(u32::MAX);
    if form.places.len() > sides || form.places.iter().flatten().any(|p| *p > most_place) {
        return Err(format!("places: for {sides} sides, 1 to {sides}"));
    }
    if let Some(stake) = &form.stake
        && pack.holding(stake).is_none()
    {
        return Err(format!(
            "stake: {} has no {} `{}`",
            pack.pack.name,
            pack.words.holding,
            crate::text::echo(stake)
        ));
    }
    for (field, len) in [
        ("roles", form.roles.len()),
        ("ran", form.ran.len()),
        ("counts", form.counts.len()),
        ("bounties", form.bounties.len()),
    ] {
        if len != sides {
            return Err(format!("{field}: {len} for {sides} sides"));
        }
    }
    Ok(())
}

/// The scenario, its roles and its counts: the pack's, within their
/// bounds.
fn scenario_fits(form: &BattleForm, pack: &Pack) -> Result<(), String> {
    let scenario = if form.scenario.is_empty() {
        None
    } else {
        Some(pack.scenario(&form.scenario).ok_or_else(|| {
            format!(
                "scenario: {} has no scenario `{}`",
                pack.pack.name,
                crate::text::echo(&form.scenario)
            )
        })?)
    };
    for (i, role) in form.roles.iter().enumerate() {
        let Some(role) = role else { continue };
        if !scenario.is_some_and(|s| s.roles.iter().any(|r| r.id == *role)) {
            return Err(format!(
                "roles[{i}]: the scenario has no role `{}`",
                crate::text::echo(role)
            ));
        }
    }
    for (i, counts) in form.counts.iter().enumerate() {
        for (id, n) in counts {
            let Some(count) = scenario.and_then(|s| s.counts.iter().find(|c| c.id == *id)) else {
                return Err(format!(
                    "counts[{i}]: the scenario counts no `{}`",
                    crate::text::echo(id)
                ));
            };
            let most = count.max.or(count.total_max).unwrap_or(99);
            if !(0..=most).contains(n) {
                return Err(format!(
                    "counts[{i}]: {} of {n} is past 0 to {most}",
                    count.label
                ));
            }
        }
    }
    Ok(())
}

/// A few words a player typed or clicked: at most [`MAX_FIELD`]
/// characters.
fn short(field: &str, text: &str) -> Result<(), String> {
    if text.len() > MAX_FIELD * 4 || crate::text::graphemes(text) > MAX_FIELD {
        return Err(format!("{field}: longer than {MAX_FIELD} characters"));
    }
    Ok(())
}

/// The pack a record of `sides` plays: its first side's.
pub(in crate::ui) fn sides_pack<'a>(
    sides: &[Option<GangId>],
    gangs: &[crate::session::GangSummary],
    session: &'a crate::session::Session,
) -> Option<&'a crate::rules::Pack> {
    sides
        .iter()
        .flatten()
        .next()
        .and_then(|id| gangs.iter().find(|g| g.id == *id))
        .and_then(|g| session.pack(&g.ruleset).ok())
}
