//! Applies one event to the state tables, inside the caller's transaction.
//! Every update checks that the state is what the event says it was before,
//! so a stale or replayed event is refused instead of silently overwriting.

use rusqlite::{Transaction, params};

use super::{Result, StoreError};
use crate::campaign::battle::Battle;
use crate::campaign::{
    Event, Fighter, FighterId, Gang, GangId, LastingEffect, PendingEffect, QuirkPick,
};

fn expect_one(changed: usize, what: impl FnOnce() -> String) -> Result<()> {
    if changed == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict(what()))
    }
}

/// Applies one event: one line per kind of event, each kind one rule.
pub(super) fn apply(tx: &Transaction<'_>, event: &Event) -> Result<()> {
    use Event::*;
    match event {
        CampaignCreated {
            name,
            default_ruleset,
        } => create_campaign(tx, name, default_ruleset),
        GangFounded { gang } => insert_gang(tx, gang),
        GangDisbanded { gang } => disband_gang(tx, gang),
        ResourceAdjusted {
            gang,
            resource,
            from,
            to,
            ..
        } => set_resource(tx, *gang, resource, *from, *to),
        FighterRecruited { fighter } => insert_fighter(tx, fighter),
        FighterDismissed { fighter } => dismiss_fighter(tx, fighter),
        QuirksChanged { fighter, from, to } => change_quirks(tx, *fighter, from, to),
        CounterChanged {
            fighter,
            counter,
            from,
            to,
            ..
        } => change_counter(tx, *fighter, counter, *from, *to),
        BattleRecorded { battle } => insert_battle(tx, battle),
        BattleUnrecorded { battle } => unrecord_battle(tx, battle),
        TitleChanged { title, from, to } => change_title(tx, title, *from, *to),
        // The log is the record of an action or a roll; their effects are
        // other events.
        ActionTaken { .. }
        | ActionTakenBack { .. }
        | TableRolled { .. }
        | TableRollTakenBack { .. }
        | ArcClosed { .. }
        | ArcReopened { .. }
        | ScenarioRolled { .. }
        | ScenarioRollTakenBack { .. } => Ok(()),
        FighterStatusChanged {
            fighter, from, to, ..
        } => change_status(tx, *fighter, from, to),
        BaseStatSet {
            fighter,
            stat,
            from,
            to,
        } => set_base_stat(tx, *fighter, stat, *from, *to),
        LastingEffectAdded { effect } => insert_effect(tx, effect),
        LastingEffectDeleted { effect } => delete_effect(tx, effect),
        PhotoChanged { fighter, from, to } => change_photo(tx, *fighter, from, to),
        HousePackSet { id, from, to } => set_house_pack(tx, id, from.as_deref(), to.as_deref()),
        SettingChanged { setting, from, to } => {
            set_setting(tx, setting, from.as_deref(), to.as_deref())
        }
        PendingEffectAdded { effect } => insert_pending(tx, effect),
        PendingEffectRemoved { effect } => remove_pending(tx, effect),
        HoldingChanged {
            holding, from, to, ..
        } => change_holding(tx, holding, *from, *to),
        FactionTitleChanged { title, from, to } => {
            change_faction_title(tx, title, from.as_deref(), to.as_deref())
        }
        ChallengeIssued { challenge } => insert_challenge(tx, challenge),
        PairingsMade { pairings } => exec(
            tx,
            "INSERT INTO pairings (cycle, made) VALUES (?1, ?2)",
            params![pairings.cycle, serde_json::to_string(pairings)?],
        )
        .map(drop)
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::ConstraintViolation) => StoreError::Conflict(format!(
                "the pairings of cycle {} are made already",
                pairings.cycle
            )),
            _ => e.into(),
        }),
        CampaignRenamed { .. }
        | GangRenamed { .. }
        | GangNotesChanged { .. }
        | FighterRenamed { .. }
        | LeaderChanged { .. }
        | FighterNotesChanged { .. }
        | FighterTransferred { .. }
        | LastingEffectRemoved { .. }
        | LastingEffectRestored { .. }
        | CampaignRulesetChanged { .. }
        | GangRulesetChanged { .. }
        | PendingEffectUsed { .. }
        | PendingEffectUnused { .. }
        | CycleEnded { .. }
        | CycleReopened { .. }
        | GangFactionChanged { .. } => update_in_place(tx, event),
        ChallengeWithdrawn { .. }
        | ChallengeAnswered { .. }
        | ChallengeAnswerTakenBack { .. }
        | ChallengeLapsed { .. }
        | ChallengeRenewed { .. }
        | PairingsTakenBack { .. } => update_challenge_or_pairings(tx, event),
    }
}

/// A change that is one UPDATE of one row, guarded by what the row held
/// before: a name, notes, a mark, a ruleset, a cycle.
fn update_in_place(tx: &Transaction<'_>, event: &Event) -> Result<()> {
    use Event::*;
    match event {
        CampaignRenamed { from, to } => update_one(
            tx,
            "UPDATE campaign SET name = ?2 WHERE id = 1 AND name = ?1",
            params![from, to],
            || format!("the campaign is no longer called “{from}”"),
        ),
        GangRenamed { gang, from, to } => update_one(
            tx,
            "UPDATE gang SET name = ?3 WHERE id = ?1 AND name = ?2",
            params![gang, from, to],
            || format!("gang #{gang} is no longer called “{from}”"),
        ),
        GangNotesChanged { gang, from, to } => update_one(
            tx,
            "UPDATE gang SET notes = ?3 WHERE id = ?1 AND notes = ?2",
            params![gang, from, to],
            || format!("gang #{gang}'s notes have changed since"),
        ),
        FighterRenamed { fighter, from, to } => update_one(
            tx,
            "UPDATE fighter SET name = ?3 WHERE id = ?1 AND name = ?2",
            params![fighter, from, to],
            || format!("fighter #{fighter} is no longer called “{from}”"),
        ),
        LeaderChanged { fighter, from, to } => update_one(
            tx,
            "UPDATE fighter SET is_leader = ?3 WHERE id = ?1 AND is_leader = ?2",
            params![fighter, from, to],
            || format!("fighter #{fighter}'s leader mark has changed"),
        ),
        FighterNotesChanged { fighter, from, to } => update_one(
            tx,
            "UPDATE fighter SET notes = ?3 WHERE id = ?1 AND notes = ?2",
            params![fighter, from, to],
            || format!("fighter #{fighter}'s notes have changed since"),
        ),
        FighterTransferred {
            fighter,
            from,
            to,
            leader_from,
            leader_to,
        } => update_one(
            tx,
            "UPDATE fighter SET gang_id = ?3, is_leader = ?5 \
             WHERE id = ?1 AND gang_id = ?2 AND is_leader = ?4",
            params![fighter, from, to, leader_from, leader_to],
            || format!("fighter #{fighter} is not as it was in gang #{from}"),
        ),
        LastingEffectRemoved { effect, reason } => update_one(
            tx,
            "UPDATE lasting_effect SET removed = ?2 WHERE id = ?1 AND removed IS NULL",
            params![effect, reason],
            || format!("lasting effect #{effect} is already removed"),
        ),
        LastingEffectRestored { effect, .. } => update_one(
            tx,
            "UPDATE lasting_effect SET removed = NULL WHERE id = ?1 AND removed IS NOT NULL",
            params![effect],
            || format!("lasting effect #{effect} is not removed"),
        ),
        CampaignRulesetChanged { from, to } => update_one(
            tx,
            "UPDATE campaign SET default_ruleset = ?2 WHERE id = 1 AND default_ruleset = ?1",
            params![from, to],
            || format!("the campaign no longer plays {from}"),
        ),
        GangRulesetChanged { gang, from, to } => update_one(
            tx,
            "UPDATE gang SET ruleset = ?3 WHERE id = ?1 AND ruleset = ?2",
            params![gang, from, to],
            || format!("gang #{gang} no longer plays {from}"),
        ),
        PendingEffectUsed { effect, battle, .. } => update_one(
            tx,
            "UPDATE pending_effect SET used_in = ?2 WHERE id = ?1 AND used_in IS NULL",
            params![effect, battle],
            || format!("pending effect #{effect} is already used"),
        ),
        PendingEffectUnused { effect, battle, .. } => update_one(
            tx,
            "UPDATE pending_effect SET used_in = NULL WHERE id = ?1 AND used_in = ?2",
            params![effect, battle],
            || format!("pending effect #{effect} was not used in battle #{battle}"),
        ),
        CycleEnded { cycle } => update_one(
            tx,
            "UPDATE campaign SET cycle = ?1 + 1 WHERE id = 1 AND cycle = ?1",
            params![cycle],
            || format!("the campaign is not in cycle {cycle}"),
        ),
        CycleReopened { cycle } => update_one(
            tx,
            "UPDATE campaign SET cycle = ?1 WHERE id = 1 AND cycle = ?1 + 1",
            params![cycle],
            || format!("the campaign is not in the cycle after {cycle}"),
        ),
        GangFactionChanged { gang, from, to } => update_one(
            tx,
            "UPDATE gang SET faction = ?3 WHERE id = ?1 AND faction IS ?2",
            params![gang, from, to],
            || format!("gang #{gang}'s faction has changed since"),
        ),
        // `apply` sends no other kind here.
        other => Err(StoreError::Conflict(format!(
            "a {} is not a change of one row",
            other.kind()
        ))),
    }
}

/// A challenge answered, withdrawn, lapsed or renewed, or a cycle's
/// pairings taken back: one guarded change of one row, refused where the
/// row no longer holds what the change was made from.
fn update_challenge_or_pairings(tx: &Transaction<'_>, event: &Event) -> Result<()> {
    use Event::*;
    match event {
        ChallengeWithdrawn { challenge } => update_one(
            tx,
            "DELETE FROM challenge WHERE id = ?1 AND status = 'issued' \
             AND challenger = ?2 AND defender = ?3 AND cycle = ?4 AND stake IS ?5",
            params![
                challenge.id,
                challenge.challenger,
                challenge.defender,
                challenge.cycle,
                challenge.stake
            ],
            || {
                format!(
                    "challenge #{} is no longer as issued, unanswered",
                    challenge.id
                )
            },
        ),
        ChallengeAnswered {
            challenge,
            accepted,
        } => update_one(
            tx,
            "UPDATE challenge SET status = ?2, accepted = ?3 WHERE id = ?1 AND status = 'issued'",
            params![
                challenge,
                if *accepted { "accepted" } else { "declined" },
                accepted
            ],
            || format!("challenge #{challenge} is not waiting for an answer"),
        ),
        ChallengeAnswerTakenBack {
            challenge,
            accepted,
        } => update_one(
            tx,
            "UPDATE challenge SET status = 'issued', accepted = 0 WHERE id = ?1 AND status = ?2 \
             AND NOT EXISTS (SELECT 1 FROM battle WHERE challenge = ?1)",
            params![challenge, if *accepted { "accepted" } else { "declined" }],
            || {
                format!(
                    "challenge #{challenge} is no longer as it was answered, or has been played"
                )
            },
        ),
        ChallengeLapsed {
            challenge,
            accepted,
        } => update_one(
            tx,
            "UPDATE challenge SET status = 'lapsed' WHERE id = ?1 AND status = ?2 AND accepted = ?3 \
             AND NOT EXISTS (SELECT 1 FROM battle WHERE challenge = ?1)",
            params![
                challenge,
                if *accepted { "accepted" } else { "issued" },
                accepted
            ],
            || format!("challenge #{challenge} is not open"),
        ),
        ChallengeRenewed {
            challenge,
            accepted,
        } => update_one(
            tx,
            "UPDATE challenge SET status = ?2 WHERE id = ?1 AND status = 'lapsed' AND accepted = ?3",
            params![
                challenge,
                if *accepted { "accepted" } else { "issued" },
                accepted
            ],
            || format!("challenge #{challenge} has not lapsed"),
        ),
        PairingsTakenBack { pairings } => update_one(
            tx,
            "DELETE FROM pairings WHERE cycle = ?1 AND made = ?2",
            params![pairings.cycle, serde_json::to_string(pairings)?],
            || format!("the pairings of cycle {} are not as made", pairings.cycle),
        ),
        // `apply` sends no other kind here.
        other => Err(StoreError::Conflict(format!(
            "a {} is not a change of a challenge or pairings",
            other.kind()
        ))),
    }
}

/// A challenge issued (or its withdrawal taken back): a new id.
fn insert_challenge(
    tx: &Transaction<'_>,
    challenge: &crate::campaign::season::challenges::Challenge,
) -> Result<()> {
    exec(
        tx,
        "INSERT INTO challenge (id, cycle, challenger, defender, stake) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            challenge.id,
            challenge.cycle,
            challenge.challenger,
            challenge.defender,
            challenge.stake
        ],
    )
    .map_err(|e| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ConstraintViolation) => StoreError::Conflict(format!(
            "challenge #{} is already in the campaign",
            challenge.id
        )),
        _ => e.into(),
    })?;
    Ok(())
}

/// A holding's holder, guarded by who held it before.
fn change_holding(
    tx: &Transaction<'_>,
    holding: &str,
    from: Option<GangId>,
    to: Option<GangId>,
) -> Result<()> {
    let current = super::read::holder(tx, holding)?;
    if current != from {
        return Err(StoreError::Conflict(format!(
            "{holding} has changed hands since"
        )));
    }
    exec(tx, "DELETE FROM holding WHERE holding = ?1", [holding])?;
    if let Some(to) = to {
        exec(
            tx,
            "INSERT INTO holding (holding, gang_id) VALUES (?1, ?2)",
            params![holding, to],
        )?;
    }
    Ok(())
}

/// A faction title's holder, guarded by who held it before.
fn change_faction_title(
    tx: &Transaction<'_>,
    title: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<()> {
    let current = super::read::faction_title_holder(tx, title)?;
    if current.as_deref() != from {
        return Err(StoreError::Conflict(format!(
            "the {title} title has changed hands since"
        )));
    }
    exec(tx, "DELETE FROM faction_title WHERE title = ?1", [title])?;
    if let Some(to) = to {
        exec(
            tx,
            "INSERT INTO faction_title (title, faction) VALUES (?1, ?2)",
            params![title, to],
        )?;
    }
    Ok(())
}

/// Runs a statement, prepared once for the life of the connection (a
/// battle runs the same few statements many times).
fn exec(tx: &Transaction<'_>, sql: &str, params: impl rusqlite::Params) -> rusqlite::Result<usize> {
    tx.prepare_cached(sql)?.execute(params)
}

/// Runs an update guarded by the value it expects to replace: exactly one
/// row must change, or the state is not what the event says it was.
fn update_one(
    tx: &Transaction<'_>,
    sql: &str,
    params: impl rusqlite::Params,
    what: impl FnOnce() -> String,
) -> Result<()> {
    let n = tx.prepare_cached(sql)?.execute(params)?;
    expect_one(n, what)
}

/// The campaign's row, as it was made.
fn create_campaign(tx: &Transaction<'_>, name: &str, default_ruleset: &str) -> Result<()> {
    exec(
        tx,
        "INSERT INTO campaign (id, name, default_ruleset) VALUES (1, ?1, ?2)",
        (name, default_ruleset),
    )?;
    Ok(())
}

/// Takes a founding back: only a gang exactly as founded, with no fighters.
fn disband_gang(tx: &Transaction<'_>, gang: &Gang) -> Result<()> {
    if super::read::gang(tx, gang.id)?.as_ref() != Some(gang) {
        return Err(StoreError::Conflict(format!(
            "{} has changed since it was founded; cannot take the founding back",
            gang.name
        )));
    }
    let fighters: i64 = tx.query_row(
        "SELECT count(*) FROM fighter WHERE gang_id = ?1",
        [gang.id],
        |r| r.get(0),
    )?;
    if fighters > 0 {
        return Err(StoreError::Conflict(format!(
            "{} still has {fighters} fighters",
            gang.name
        )));
    }
    exec(
        tx,
        "DELETE FROM gang_resource WHERE gang_id = ?1",
        [gang.id],
    )?;
    let n = exec(tx, "DELETE FROM gang WHERE id = ?1", [gang.id])?;
    expect_one(n, || format!("gang #{} is not in the campaign", gang.id))
}

/// Dismisses a fighter exactly as they stand. One who took part in the
/// campaign's history (a record, a lasting effect) keeps their row, marked
/// dismissed, so that history still names them; anyone else is removed.
fn dismiss_fighter(tx: &Transaction<'_>, fighter: &Fighter) -> Result<()> {
    let current = super::read::fighter(tx, fighter.id)?;
    if current.as_ref() != Some(fighter) {
        return Err(StoreError::Conflict(format!(
            "{} has changed since; cannot take back the recruitment",
            fighter.name
        )));
    }
    if has_history(tx, fighter.id)? {
        return update_one(
            tx,
            "UPDATE fighter SET dismissed = 1 WHERE id = ?1 AND dismissed = 0",
            [fighter.id],
            || format!("{} is already dismissed", fighter.name),
        );
    }
    exec(
        tx,
        "DELETE FROM fighter_stat WHERE fighter_id = ?1",
        [fighter.id],
    )?;
    let n = exec(tx, "DELETE FROM fighter WHERE id = ?1", [fighter.id])?;
    expect_one(n, || format!("{} is not in the campaign", fighter.name))
}

/// True when a record or a lasting effect names the fighter.
fn has_history(tx: &Transaction<'_>, fighter: FighterId) -> Result<bool> {
    Ok(tx
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM battle_fighter WHERE fighter_id = ?1 OR downed_by = ?1) \
             OR EXISTS (SELECT 1 FROM lasting_effect WHERE fighter_id = ?1)",
        )?
        .query_row([fighter], |r| r.get(0))?)
}

/// Brings back a fighter kept dismissed: only as they were dismissed.
fn take_back_dismissal(tx: &Transaction<'_>, kept: &Fighter, fighter: &Fighter) -> Result<()> {
    if kept != fighter {
        return Err(StoreError::Conflict(format!(
            "{} was dismissed as someone else; cannot bring them back as “{}”",
            kept.name, fighter.name
        )));
    }
    exec(
        tx,
        "UPDATE fighter SET dismissed = 0 WHERE id = ?1",
        [fighter.id],
    )?;
    Ok(())
}

fn change_quirks(
    tx: &Transaction<'_>,
    fighter: FighterId,
    from: &[QuirkPick],
    to: &[QuirkPick],
) -> Result<()> {
    let current = super::read::quirks(tx, fighter)?;
    if current != from {
        return Err(StoreError::Conflict(format!(
            "fighter #{fighter}'s quirks have changed since"
        )));
    }
    exec(
        tx,
        "DELETE FROM fighter_quirk WHERE fighter_id = ?1",
        [fighter],
    )?;
    insert_quirks(tx, fighter, to)
}

/// Sets a counter from the value it had; a counter the pack added after
/// the fighter was recruited starts here.
fn change_counter(
    tx: &Transaction<'_>,
    fighter: FighterId,
    counter: &str,
    from: i64,
    to: i64,
) -> Result<()> {
    let n = exec(
        tx,
        "UPDATE fighter_counter SET value = ?4 \
         WHERE fighter_id = ?1 AND counter = ?2 AND value = ?3",
        params![fighter, counter, from, to],
    )?;
    if n == 1 {
        return Ok(());
    }
    let exists: bool = tx.query_row(
        "SELECT count(*) FROM fighter_counter WHERE fighter_id = ?1 AND counter = ?2",
        params![fighter, counter],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )?;
    if exists {
        return Err(StoreError::Conflict(format!(
            "fighter #{fighter}'s {counter} is no longer {from}"
        )));
    }
    exec(
        tx,
        "INSERT INTO fighter_counter (fighter_id, counter, value) VALUES (?1, ?2, ?3)",
        params![fighter, counter, to],
    )?;
    Ok(())
}

/// Takes a battle back: only a battle exactly as recorded.
fn unrecord_battle(tx: &Transaction<'_>, battle: &Battle) -> Result<()> {
    if super::read::battle(tx, battle.id)?.as_ref() != Some(battle) {
        return Err(StoreError::Conflict(format!(
            "battle #{} is not as it was recorded",
            battle.id
        )));
    }
    let n = exec(tx, "DELETE FROM battle WHERE id = ?1", [battle.id])?;
    expect_one(n, || {
        format!("battle #{} is not in the campaign", battle.id)
    })
}

fn change_title(
    tx: &Transaction<'_>,
    title: &str,
    from: Option<GangId>,
    to: Option<GangId>,
) -> Result<()> {
    let current = super::read::title_holder(tx, title)?;
    if current != from {
        return Err(StoreError::Conflict(format!(
            "the {title} title has changed hands since"
        )));
    }
    exec(tx, "DELETE FROM title_holder WHERE title = ?1", [title])?;
    if let Some(to) = to {
        exec(
            tx,
            "INSERT INTO title_holder (title, gang_id) VALUES (?1, ?2)",
            params![title, to],
        )?;
    }
    Ok(())
}

fn change_status(
    tx: &Transaction<'_>,
    fighter: FighterId,
    from: &crate::campaign::FighterStatus,
    to: &crate::campaign::FighterStatus,
) -> Result<()> {
    let current = super::read::fighter(tx, fighter)?.map(|f| f.status);
    if current.as_ref() != Some(from) {
        return Err(StoreError::Conflict(format!(
            "fighter #{fighter} is no longer where the change expects"
        )));
    }
    let (state, name, gang, battle) = super::read::status_columns(to);
    exec(
        tx,
        "UPDATE fighter SET status = ?2, status_name = ?3, status_gang = ?4, \
         status_battle = ?5 WHERE id = ?1",
        params![fighter, state, name, gang, battle],
    )?;
    Ok(())
}

/// A fighter's own base value of a stat; `None` is the pack's default.
fn set_base_stat(
    tx: &Transaction<'_>,
    fighter: FighterId,
    stat: &str,
    from: Option<i64>,
    to: Option<i64>,
) -> Result<()> {
    use rusqlite::OptionalExtension as _;
    let current: Option<i64> = tx
        .query_row(
            "SELECT value FROM fighter_stat WHERE fighter_id = ?1 AND stat = ?2",
            params![fighter, stat],
            |r| r.get(0),
        )
        .optional()?;
    if current != from {
        return Err(StoreError::Conflict(format!(
            "fighter #{fighter}'s base {stat} has changed since"
        )));
    }
    exec(
        tx,
        "DELETE FROM fighter_stat WHERE fighter_id = ?1 AND stat = ?2",
        params![fighter, stat],
    )?;
    if let Some(to) = to {
        exec(
            tx,
            "INSERT INTO fighter_stat (fighter_id, stat, value) VALUES (?1, ?2, ?3)",
            params![fighter, stat, to],
        )?;
    }
    Ok(())
}

fn delete_effect(tx: &Transaction<'_>, effect: &LastingEffect) -> Result<()> {
    if super::read::lasting_effect(tx, effect.id)?.as_ref() != Some(effect) {
        return Err(StoreError::Conflict(format!(
            "{} has changed since it was added",
            effect.name
        )));
    }
    exec(tx, "DELETE FROM lasting_effect WHERE id = ?1", [effect.id])?;
    Ok(())
}

/// Sets a fighter's photo (by key) from the one they had; the photo itself
/// must already be stored.
fn change_photo(
    tx: &Transaction<'_>,
    fighter: FighterId,
    from: &Option<String>,
    to: &Option<String>,
) -> Result<()> {
    let current: Option<String> =
        tx.query_row("SELECT photo FROM fighter WHERE id = ?1", [fighter], |r| {
            r.get(0)
        })?;
    if current != *from {
        return Err(StoreError::Conflict(format!(
            "fighter #{fighter}'s photo has changed since"
        )));
    }
    exec(
        tx,
        "UPDATE fighter SET photo = ?2 WHERE id = ?1",
        params![fighter, to],
    )
    .map_err(|e| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ConstraintViolation) => {
            StoreError::Conflict("that photo is not stored in this campaign".into())
        }
        _ => e.into(),
    })?;
    Ok(())
}

fn remove_pending(tx: &Transaction<'_>, effect: &PendingEffect) -> Result<()> {
    let current = super::read::pending_effect(tx, effect.id)?;
    if current.as_ref() != Some(effect) {
        return Err(StoreError::Conflict(format!(
            "the pending effect of {} has been used or changed since",
            effect.action_name
        )));
    }
    exec(tx, "DELETE FROM pending_effect WHERE id = ?1", [effect.id])?;
    Ok(())
}

fn insert_battle(tx: &Transaction<'_>, battle: &Battle) -> Result<()> {
    exec(
        tx,
        "INSERT INTO battle (id, ruleset, scenario, winner, notes, played, shape, stake, cycle, \
         challenge) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            battle.id,
            battle.ruleset,
            battle.scenario.as_deref().unwrap_or_default(),
            battle.winner,
            battle.notes,
            if battle.played.is_empty() {
                String::new()
            } else {
                serde_json::to_string(&battle.played)?
            },
            battle.shape,
            battle.stake,
            battle.cycle,
            battle.challenge
        ],
    )
    .map_err(|e| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ConstraintViolation) => StoreError::Conflict(format!(
            "battle #{} is already in the campaign, names a gang that is not, or plays a challenge played already",
            battle.id
        )),
        _ => e.into(),
    })?;
    for (position, g) in battle.gangs.iter().enumerate() {
        exec(
            tx,
            "INSERT INTO battle_gang \
             (battle_id, position, gang_id, role, ran_for_it, declined, place, challenger) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                battle.id,
                position as i64,
                g.gang,
                g.role,
                g.ran_for_it,
                battle.declined.contains(&g.gang),
                g.place,
                g.challenger
            ],
        )?;
        for (count, value) in &g.counts {
            exec(
                tx,
                "INSERT INTO battle_count (battle_id, gang_id, count, value) VALUES (?1, ?2, ?3, ?4)",
                params![battle.id, g.gang, count, value],
            )?;
        }
    }
    let mut stmt = tx.prepare_cached(
        "INSERT INTO battle_fighter (battle_id, position, fighter_id, gang_id, outcome, downed_by) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (position, f) in battle.fighters.iter().enumerate() {
        stmt.execute(params![
            battle.id,
            position as i64,
            f.fighter,
            f.gang,
            f.outcome,
            f.downed_by
        ])?;
    }
    Ok(())
}

fn insert_effect(tx: &Transaction<'_>, effect: &LastingEffect) -> Result<()> {
    let roll = effect
        .roll
        .as_ref()
        .map(serde_json::to_string)
        .transpose()?;
    exec(
        tx,
        "INSERT INTO lasting_effect \
         (id, fighter_id, tbl, name, detail, quirk, battle_id, roll, removed, lost_quirk, \
          heals_after, by_group, until) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        params![
            effect.id,
            effect.fighter,
            effect.table,
            effect.name,
            effect.detail,
            effect.quirk,
            effect.battle,
            roll,
            effect.removed,
            effect.lost_quirk,
            effect.heals_after,
            effect.by_group,
            effect.until.map(crate::rules::Until::word)
        ],
    )?;
    for (stat, amount) in &effect.stats {
        exec(
            tx,
            "INSERT INTO lasting_effect_stat (effect_id, stat, amount) VALUES (?1, ?2, ?3)",
            params![effect.id, stat, amount],
        )?;
    }
    Ok(())
}

fn insert_pending(tx: &Transaction<'_>, effect: &PendingEffect) -> Result<()> {
    exec(
        tx,
        "INSERT INTO pending_effect (id, gang_id, action, action_name, text, used_in) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            effect.id,
            effect.gang,
            effect.action,
            effect.action_name,
            effect.text,
            effect.used_in
        ],
    )?;
    Ok(())
}

fn insert_gang(tx: &Transaction<'_>, gang: &Gang) -> Result<()> {
    exec(
        tx,
        "INSERT INTO gang (id, name, ruleset, notes, faction) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![gang.id, gang.name, gang.ruleset, gang.notes, gang.faction],
    )
    .map_err(|e| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ConstraintViolation) => StoreError::Conflict(format!(
            "a gang called “{}” or numbered #{} is already in the campaign",
            gang.name, gang.id
        )),
        _ => e.into(),
    })?;
    for (resource, amount) in &gang.resources {
        exec(
            tx,
            "INSERT INTO gang_resource (gang_id, resource, amount) VALUES (?1, ?2, ?3)",
            params![gang.id, resource, amount],
        )?;
    }
    Ok(())
}

fn set_resource(
    tx: &Transaction<'_>,
    gang: GangId,
    resource: &str,
    from: i64,
    to: i64,
) -> Result<()> {
    let current: Option<i64> = tx
        .query_row(
            "SELECT amount FROM gang_resource WHERE gang_id = ?1 AND resource = ?2",
            params![gang, resource],
            |r| r.get(0),
        )
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })?;
    match current {
        Some(amount) if amount == from => {
            exec(
                tx,
                "UPDATE gang_resource SET amount = ?3 WHERE gang_id = ?1 AND resource = ?2",
                params![gang, resource, to],
            )?;
            Ok(())
        }
        // A resource the pack added after the gang was founded starts here.
        None => {
            exec(
                tx,
                "INSERT INTO gang_resource (gang_id, resource, amount) VALUES (?1, ?2, ?3)",
                params![gang, resource, to],
            )?;
            Ok(())
        }
        Some(amount) => Err(StoreError::Conflict(format!(
            "gang #{gang} has {amount} {resource}, not {from}"
        ))),
    }
}

fn insert_fighter(tx: &Transaction<'_>, fighter: &Fighter) -> Result<()> {
    if let Some(kept) = super::read::dismissed_fighter(tx, fighter.id)? {
        return take_back_dismissal(tx, &kept, fighter);
    }
    exec(
        tx,
        "INSERT INTO fighter (id, gang_id, name, is_leader, notes, group_kind, group_name) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            fighter.id,
            fighter.gang,
            fighter.name,
            fighter.leader,
            fighter.notes,
            fighter.group.as_ref().map(|g| &g.kind),
            fighter.group.as_ref().map(|g| &g.name),
        ],
    )
    .map_err(|e| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ConstraintViolation) => StoreError::Conflict(format!(
            "cannot add {} (#{}): the gang is gone, or the name or number is taken",
            fighter.name, fighter.id
        )),
        _ => e.into(),
    })?;
    insert_quirks(tx, fighter.id, &fighter.quirks)?;
    let (state, name, gang, battle) = super::read::status_columns(&fighter.status);
    exec(
        tx,
        "UPDATE fighter SET status = ?2, status_name = ?3, status_gang = ?4, status_battle = ?5 \
         WHERE id = ?1",
        params![fighter.id, state, name, gang, battle],
    )?;
    for (stat, value) in &fighter.base {
        exec(
            tx,
            "INSERT INTO fighter_stat (fighter_id, stat, value) VALUES (?1, ?2, ?3)",
            params![fighter.id, stat, value],
        )?;
    }
    for (counter, value) in &fighter.counters {
        exec(
            tx,
            "INSERT INTO fighter_counter (fighter_id, counter, value) VALUES (?1, ?2, ?3)",
            params![fighter.id, counter, value],
        )?;
    }
    Ok(())
}

fn insert_quirks(tx: &Transaction<'_>, fighter: FighterId, quirks: &[QuirkPick]) -> Result<()> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO fighter_quirk (fighter_id, position, quirk, alt_name, with_quirk) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (position, pick) in quirks.iter().enumerate() {
        stmt.execute(params![
            fighter,
            position as i64,
            pick.quirk,
            pick.alt_name,
            pick.with
        ])?;
    }
    Ok(())
}

/// Sets a campaign setting (or sets it back to the pack's default, with no
/// row), checking it was as the event says.
fn set_setting(tx: &Transaction<'_>, id: &str, from: Option<&str>, to: Option<&str>) -> Result<()> {
    let changed = set_text_row(tx, "campaign_setting", "value", id, from, to)?;
    expect_one(changed, || {
        format!("the setting {id} is not as the change expects")
    })
}

/// Puts a house pack in, changes it or takes it out, checking it was as the
/// event says.
fn set_house_pack(
    tx: &Transaction<'_>,
    id: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<()> {
    let changed = set_text_row(tx, "house_pack", "text", id, from, to)?;
    expect_one(changed, || {
        format!("the house rules {id} are not as the change expects")
    })
}

/// Puts in, changes or takes out the row `id` of a table holding one text
/// `column` by id, where it was `from`: the rows changed (1 when it was as
/// said). `table` and `column` are this file's own names, never input.
fn set_text_row(
    tx: &Transaction<'_>,
    table: &str,
    column: &str,
    id: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<usize> {
    Ok(match (from, to) {
        (None, Some(text)) => tx
            .prepare_cached(&format!(
                "INSERT OR IGNORE INTO {table} (id, {column}) VALUES (?1, ?2)"
            ))?
            .execute(params![id, text])?,
        (Some(old), Some(text)) => tx
            .prepare_cached(&format!(
                "UPDATE {table} SET {column} = ?3 WHERE id = ?1 AND {column} = ?2"
            ))?
            .execute(params![id, old, text])?,
        (Some(old), None) => tx
            .prepare_cached(&format!(
                "DELETE FROM {table} WHERE id = ?1 AND {column} = ?2"
            ))?
            .execute(params![id, old])?,
        (None, None) => 1,
    })
}
