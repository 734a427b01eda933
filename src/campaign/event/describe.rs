//! The campaign log's words for the events that take more than a line to
//! put into words, one function a kind of event.

use super::super::battle::Battle;
use super::super::{
    BattleId, Fighter, FighterId, FighterStatus, GangId, LastingEffect, PendingEffect, PendingId,
    QuirkPick,
};
use super::Names;
use crate::dice::RollRecord;

/// A fighter's quirks by name, or `none`.
pub(super) fn quirks(names: &Names, picks: &[QuirkPick]) -> String {
    if picks.is_empty() {
        "none".to_owned()
    } else {
        picks
            .iter()
            .map(|p| names.quirk(&p.quirk))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A gang's resource adjusted: by how much, from what to what, and why.
pub(super) fn resource_adjusted(
    names: &Names,
    gang: GangId,
    resource: &str,
    from: i64,
    to: i64,
    reason: &str,
) -> String {
    format!(
        "{}: {} {} ({from} → {to}): {reason}",
        names.gang(gang),
        names.resource(resource),
        // A file may hold any two numbers; their difference may
        // not fit in i64.
        to.checked_sub(from)
            .map_or_else(|| "changed".to_owned(), |d| format!("{d:+}"))
    )
}

/// A fighter recruited: by which gang, whether as its leader, with what.
pub(super) fn fighter_recruited(names: &Names, fighter: &Fighter) -> String {
    format!(
        "{} recruited {}{} with {}",
        names.gang(fighter.gang),
        fighter.name,
        if fighter.leader {
            format!(" as {}", names.words.leader)
        } else {
            String::new()
        },
        quirks(names, &fighter.quirks)
    )
}

/// A fighter who became, or is no longer, the leader.
pub(super) fn leader_changed(names: &Names, fighter: FighterId, to: bool) -> String {
    format!(
        "{} {} {}",
        names.fighter(fighter),
        if to { "became" } else { "is no longer" },
        names.words.leader
    )
}

/// A fighter's quirks before and after.
pub(super) fn quirks_changed(
    names: &Names,
    fighter: FighterId,
    from: &[QuirkPick],
    to: &[QuirkPick],
) -> String {
    format!(
        "{}: {} {} → {}",
        names.fighter(fighter),
        names.words.entries,
        quirks(names, from),
        quirks(names, to)
    )
}

/// A fighter's counter changed: from what to what, and why.
pub(super) fn counter_changed(
    names: &Names,
    fighter: FighterId,
    counter: &str,
    from: i64,
    to: i64,
    reason: &str,
) -> String {
    format!(
        "{}: {} {from} → {to}: {reason}",
        names.fighter(fighter),
        names.counter(counter)
    )
}

/// A record kept: its number, its scenario, its gangs and who won.
pub(super) fn battle_recorded(names: &Names, battle: &Battle) -> String {
    let gangs: Vec<String> = battle.gangs.iter().map(|g| names.gang(g.gang)).collect();
    let result = match battle.winner {
        Some(w) => format!("; {} won", names.gang(w)),
        None => "; no winner".to_owned(),
    };
    let scenario = battle
        .scenario
        .as_ref()
        .map_or_else(String::new, |s| format!("{} — ", names.label(s)));
    format!(
        "{} #{}: {scenario}{}{result}",
        names.record(&battle.ruleset),
        battle.id,
        gangs.join(" vs ")
    )
}

/// A title that passed to a gang, or left one.
pub(super) fn title_changed(
    names: &Names,
    title: &str,
    from: Option<GangId>,
    to: Option<GangId>,
) -> String {
    match (from, to) {
        (_, Some(to)) => format!("{} is now {}", names.gang(to), names.label(title)),
        (Some(from), None) => {
            format!("{} is no longer {}", names.gang(from), names.label(title))
        }
        (None, None) => format!("{}: unchanged", names.label(title)),
    }
}

/// A holding changing hands: who took it from whom, and why.
pub(super) fn holding_changed(
    names: &Names,
    holding: &str,
    from: Option<GangId>,
    to: Option<GangId>,
    reason: &str,
) -> String {
    let name = names.label(holding);
    let said = match (from, to) {
        (Some(from), Some(to)) => {
            format!("{} took {name} from {}", names.gang(to), names.gang(from))
        }
        (None, Some(to)) => format!("{} took {name}", names.gang(to)),
        (Some(from), None) => format!("{} no longer holds {name}", names.gang(from)),
        (None, None) => format!("{name}: unchanged"),
    };
    if reason.is_empty() {
        said
    } else {
        format!("{said} ({reason})")
    }
}

/// A cycle's end, in the game's word for a cycle.
pub(super) fn cycle_ended(names: &Names, cycle: u32) -> String {
    format!(
        "{} {cycle} ended",
        crate::text::capitalised(&names.words.cycle)
    )
}

/// A cycle's end taken back.
pub(super) fn cycle_reopened(names: &Names, cycle: u32) -> String {
    format!(
        "{} {cycle} is open again",
        crate::text::capitalised(&names.words.cycle)
    )
}

/// A challenge issued: who challenges whom, for what.
pub(super) fn challenge_issued(
    names: &Names,
    challenge: &crate::campaign::season::challenges::Challenge,
) -> String {
    let stake = challenge
        .stake
        .as_deref()
        .map_or(String::new(), |s| format!(" for {}", names.label(s)));
    format!(
        "{} #{}: {} against {}{stake}",
        names.challenge(),
        challenge.id,
        names.gang(challenge.challenger),
        names.gang(challenge.defender)
    )
}

/// A cycle's pairings: each pair, and who sits out.
pub(super) fn pairings_made(
    names: &Names,
    pairings: &crate::campaign::season::pairings::Pairings,
) -> String {
    let pairs: Vec<String> = pairings
        .pairs
        .iter()
        .map(|[a, b]| format!("{} v {}", names.gang(*a), names.gang(*b)))
        .collect();
    let out = pairings
        .sits_out
        .map_or(String::new(), |g| format!("; {} sits out", names.gang(g)));
    format!(
        "{} of {} {}: {}{out}",
        names.pairings(),
        names.words.cycle,
        pairings.cycle,
        pairs.join(", ")
    )
}

/// A gang's faction changed by hand.
pub(super) fn gang_faction_changed(names: &Names, gang: GangId, to: Option<&str>) -> String {
    match to {
        Some(to) => format!("{} joins {}", names.gang(gang), names.label(to)),
        None => format!("{}: no {}", names.gang(gang), names.words.faction),
    }
}

/// A title held by a faction changing hands.
pub(super) fn faction_title_changed(
    names: &Names,
    title: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> String {
    match (from, to) {
        (_, Some(to)) => format!("{} is now {}", names.label(to), names.label(title)),
        (Some(from), None) => format!("{} is no longer {}", names.label(from), names.label(title)),
        (None, None) => format!("{}: unchanged", names.label(title)),
    }
}

/// A resource action taken: by which gang, against which, with what choice.
pub(super) fn action_taken(
    names: &Names,
    gang: GangId,
    action: &str,
    target: Option<GangId>,
    choice: Option<&str>,
) -> String {
    let mut text = format!("{}: {}", names.gang(gang), names.label(action));
    if let Some(target) = target {
        text.push_str(&format!(" against {}", names.gang(target)));
    }
    if let Some(choice) = choice {
        text.push_str(&format!(" ({})", names.label(choice)));
    }
    text
}

/// A pending effect used in a record, and the fighters it marked.
pub(super) fn pending_effect_used(
    names: &Names,
    effect: PendingId,
    battle: BattleId,
    fighters: &[FighterId],
) -> String {
    let marked: Vec<String> = fighters.iter().map(|f| names.fighter(*f)).collect();
    if marked.is_empty() {
        format!(
            "Pending effect #{effect} used in {} #{battle}",
            names.record_noun
        )
    } else {
        format!(
            "Pending effect #{effect} used in {} #{battle}, marking {}",
            names.record_noun,
            marked.join(", ")
        )
    }
}

/// A fighter's base stat set, or back to the default.
pub(super) fn base_stat_set(
    names: &Names,
    fighter: FighterId,
    stat: &str,
    to: Option<i64>,
) -> String {
    match to {
        Some(v) => format!(
            "{}: base {} set to {}",
            names.fighter(fighter),
            names.stat(stat),
            names.stat_value(stat, v)
        ),
        None => format!(
            "{}: base {} back to the default",
            names.fighter(fighter),
            names.stat(stat)
        ),
    }
}

/// A roll on a table: who rolled, the dice and their faces, the modifier,
/// the total, the result, and who rolled the dice.
pub(super) fn table_rolled(
    names: &Names,
    fighter: Option<FighterId>,
    table: &str,
    roll: &RollRecord,
    modifier: i64,
    total: i64,
    result: &str,
) -> String {
    let who = fighter
        .map(|f| format!("{}: ", names.fighter(f)))
        .unwrap_or_default();
    let dice: Vec<String> = roll.dice.iter().map(u32::to_string).collect();
    let by = match roll.source {
        // The seed stays in the event (and the JSON export) for a script;
        // a reader is told only who rolled.
        crate::dice::RollSource::App { .. } => "rolled by the app".to_owned(),
        crate::dice::RollSource::Hand => "dice entered by hand".to_owned(),
    };
    let modifier = if modifier == 0 {
        String::new()
    } else {
        format!(" {modifier:+}")
    };
    // Dice entered as a total show no faces.
    let faces = if dice.is_empty() {
        String::new()
    } else {
        format!(" [{}]", dice.join(", "))
    };
    // A roll scored by counting says what it found in its result; its
    // total is no sum of the dice.
    let total = if names.counted.contains(table) {
        String::new()
    } else {
        format!(" = {total}")
    };
    format!(
        "{who}{} {}{faces}{modifier}{total}: {result} ({by})",
        names.label(table),
        roll.expression,
    )
}

/// A roll on a table taken back, and whose it was.
pub(super) fn table_roll_taken_back(
    names: &Names,
    fighter: Option<FighterId>,
    table: &str,
) -> String {
    let who = fighter
        .map(|f| format!("{}: ", names.fighter(f)))
        .unwrap_or_default();
    format!("{who}roll on {} taken back", names.label(table))
}

/// House rules kept in the campaign, changed, or taken out.
pub(super) fn house_pack_set(
    names: &Names,
    id: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> String {
    match (from, to) {
        (None, _) => format!("House rules {} kept in the campaign", names.label(id)),
        (Some(_), None) => format!("House rules {} taken out", names.label(id)),
        (Some(_), Some(_)) => format!("House rules {} changed", names.label(id)),
    }
}

/// A setting's new option, or the pack's default.
pub(super) fn setting_changed(names: &Names, setting: &str, to: Option<&str>) -> String {
    format!(
        "Setting {} is now {}",
        names.label(setting),
        to.map_or_else(|| "the pack's default".to_owned(), |t| names.label(t))
    )
}

/// A scenario rolled for two gangs: the roll, among how many, and which.
pub(super) fn scenario_rolled(
    names: &Names,
    gangs: [GangId; 2],
    options: &[String],
    roll: &RollRecord,
    scenario: &str,
) -> String {
    format!(
        "{} vs {}: {} rolled {} of {} scenarios: {}",
        names.gang(gangs[0]),
        names.gang(gangs[1]),
        roll.expression,
        roll.total,
        options.len(),
        names.label(scenario)
    )
}

/// A record taken back, by its number.
pub(super) fn battle_unrecorded(names: &Names, battle: &Battle) -> String {
    format!(
        "{} #{} taken back",
        names.record(&battle.ruleset),
        battle.id
    )
}

/// A pending effect a gang holds for its next record.
pub(super) fn pending_effect_added(names: &Names, effect: &PendingEffect) -> String {
    format!(
        "{}: for the next {}: {}",
        names.gang(effect.gang),
        names.record_noun,
        effect.text
    )
}

/// A pending effect a gang no longer holds.
pub(super) fn pending_effect_removed(names: &Names, effect: &PendingEffect) -> String {
    format!(
        "{}: no longer pending: {}",
        names.gang(effect.gang),
        effect.action_name
    )
}

/// A fighter's new status, and why.
pub(super) fn fighter_status_changed(
    names: &Names,
    fighter: FighterId,
    to: &FighterStatus,
    reason: &str,
) -> String {
    format!(
        "{} is now {}: {reason}",
        names.fighter(fighter),
        to.describe(|g| names.gang(g), &names.record_noun)
    )
}

/// A fighter who left one gang for another.
pub(super) fn fighter_transferred(
    names: &Names,
    fighter: FighterId,
    from: GangId,
    to: GangId,
) -> String {
    format!(
        "{} leaves {} for {}",
        names.fighter(fighter),
        names.gang(from),
        names.gang(to)
    )
}

/// A lasting effect a fighter gained, with its detail.
pub(super) fn lasting_effect_added(names: &Names, effect: &LastingEffect) -> String {
    format!(
        "{}: {} ({})",
        names.fighter(effect.fighter),
        effect.name,
        effect.detail
    )
}

/// A lasting effect taken back.
pub(super) fn lasting_effect_deleted(names: &Names, effect: &LastingEffect) -> String {
    format!(
        "{}: {} taken back",
        names.fighter(effect.fighter),
        effect.name
    )
}

/// The campaign's ruleset before and after.
pub(super) fn campaign_ruleset_changed(names: &Names, from: &str, to: &str) -> String {
    format!(
        "The campaign's ruleset changed from {} to {}",
        names.label(from),
        names.label(to)
    )
}

/// The arc between two gangs closed, and why.
pub(super) fn arc_closed(names: &Names, gangs: [GangId; 2], reason: &str) -> String {
    format!(
        "The arc between {} and {} closed: {reason}",
        names.gang(gangs[0]),
        names.gang(gangs[1])
    )
}

/// The arc between two gangs reopened.
pub(super) fn arc_reopened(names: &Names, gangs: [GangId; 2]) -> String {
    format!(
        "The arc between {} and {} reopened",
        names.gang(gangs[0]),
        names.gang(gangs[1])
    )
}

/// The scenario roll of two gangs taken back.
pub(super) fn scenario_roll_taken_back(names: &Names, gangs: [GangId; 2]) -> String {
    format!(
        "{} vs {}: scenario roll taken back",
        names.gang(gangs[0]),
        names.gang(gangs[1])
    )
}

/// A fighter's photo set or removed.
pub(super) fn photo_changed(names: &Names, fighter: FighterId, to: Option<&str>) -> String {
    match to {
        Some(_) => format!("{}: photo set", names.fighter(fighter)),
        None => format!("{}: photo removed", names.fighter(fighter)),
    }
}
