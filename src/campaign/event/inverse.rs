//! The inverses of events, one function a rule: the kinds whose inverse
//! swaps the value before and after, the kinds that also say the change
//! was undone, and the kinds whose inverse is their opposite kind (a roll's
//! apart, for its many fields).

use super::Event;

/// The same kind of event with the value before and after swapped.
pub(super) fn from_and_to_swapped(event: Event) -> Event {
    use Event::*;
    match event {
        CampaignRenamed { from, to } => CampaignRenamed { from: to, to: from },
        GangRenamed { gang, from, to } => GangRenamed {
            gang,
            from: to,
            to: from,
        },
        GangNotesChanged { gang, from, to } => GangNotesChanged {
            gang,
            from: to,
            to: from,
        },
        FighterRenamed { fighter, from, to } => FighterRenamed {
            fighter,
            from: to,
            to: from,
        },
        LeaderChanged { fighter, from, to } => LeaderChanged {
            fighter,
            from: to,
            to: from,
        },
        QuirksChanged { fighter, from, to } => QuirksChanged {
            fighter,
            from: to,
            to: from,
        },
        FighterNotesChanged { fighter, from, to } => FighterNotesChanged {
            fighter,
            from: to,
            to: from,
        },
        TitleChanged { title, from, to } => TitleChanged {
            title,
            from: to,
            to: from,
        },
        FighterTransferred {
            fighter,
            from,
            to,
            leader_from,
            leader_to,
        } => FighterTransferred {
            fighter,
            from: to,
            to: from,
            leader_from: leader_to,
            leader_to: leader_from,
        },
        BaseStatSet {
            fighter,
            stat,
            from,
            to,
        } => BaseStatSet {
            fighter,
            stat,
            from: to,
            to: from,
        },
        CampaignRulesetChanged { from, to } => CampaignRulesetChanged { from: to, to: from },
        HousePackSet { id, from, to } => HousePackSet {
            id,
            from: to,
            to: from,
        },
        SettingChanged { setting, from, to } => SettingChanged {
            setting,
            from: to,
            to: from,
        },
        PhotoChanged { fighter, from, to } => PhotoChanged {
            fighter,
            from: to,
            to: from,
        },
        GangRulesetChanged { gang, from, to } => GangRulesetChanged {
            gang,
            from: to,
            to: from,
        },
        GangFactionChanged { gang, from, to } => GangFactionChanged {
            gang,
            from: to,
            to: from,
        },
        FactionTitleChanged { title, from, to } => FactionTitleChanged {
            title,
            from: to,
            to: from,
        },
        // Not a kind of this rule: `Event::inverse` sends none here.
        other => other,
    }
}

/// The same kind of event with the value before and after swapped, its
/// reason marked as an undo.
pub(super) fn undone_with_reason(event: Event) -> Event {
    use Event::*;
    match event {
        ResourceAdjusted {
            gang,
            resource,
            from,
            to,
            reason,
        } => ResourceAdjusted {
            gang,
            resource,
            from: to,
            to: from,
            reason: format!("undo: {reason}"),
        },
        CounterChanged {
            fighter,
            counter,
            from,
            to,
            reason,
        } => CounterChanged {
            fighter,
            counter,
            from: to,
            to: from,
            reason: format!("undo: {reason}"),
        },
        FighterStatusChanged {
            fighter,
            from,
            to,
            reason,
        } => FighterStatusChanged {
            fighter,
            from: to,
            to: from,
            reason: format!("undo: {reason}"),
        },
        HoldingChanged {
            holding,
            from,
            to,
            reason,
        } => HoldingChanged {
            holding,
            from: to,
            to: from,
            reason: format!("undo: {reason}"),
        },
        // Not a kind of this rule: `Event::inverse` sends none here.
        other => other,
    }
}

/// The opposite kind of event (founded and disbanded, taken and taken
/// back), with the same contents.
pub(super) fn opposite(event: Event) -> Event {
    use Event::*;
    match event {
        GangFounded { gang } => GangDisbanded { gang },
        GangDisbanded { gang } => GangFounded { gang },
        FighterRecruited { fighter } => FighterDismissed { fighter },
        FighterDismissed { fighter } => FighterRecruited { fighter },
        BattleRecorded { battle } => BattleUnrecorded { battle },
        BattleUnrecorded { battle } => BattleRecorded { battle },
        ActionTaken {
            gang,
            action,
            target,
            choice,
        } => ActionTakenBack {
            gang,
            action,
            target,
            choice,
        },
        ActionTakenBack {
            gang,
            action,
            target,
            choice,
        } => ActionTaken {
            gang,
            action,
            target,
            choice,
        },
        PendingEffectAdded { effect } => PendingEffectRemoved { effect },
        PendingEffectRemoved { effect } => PendingEffectAdded { effect },
        PendingEffectUsed {
            effect,
            battle,
            fighters,
        } => PendingEffectUnused {
            effect,
            battle,
            fighters,
        },
        PendingEffectUnused {
            effect,
            battle,
            fighters,
        } => PendingEffectUsed {
            effect,
            battle,
            fighters,
        },
        LastingEffectAdded { effect } => LastingEffectDeleted { effect },
        LastingEffectDeleted { effect } => LastingEffectAdded { effect },
        LastingEffectRemoved { effect, reason } => LastingEffectRestored { effect, reason },
        LastingEffectRestored { effect, reason } => LastingEffectRemoved { effect, reason },
        ArcClosed { gangs, reason } => ArcReopened { gangs, reason },
        ArcReopened { gangs, reason } => ArcClosed { gangs, reason },
        CycleEnded { cycle } => CycleReopened { cycle },
        CycleReopened { cycle } => CycleEnded { cycle },
        ChallengeIssued { challenge } => ChallengeWithdrawn { challenge },
        ChallengeWithdrawn { challenge } => ChallengeIssued { challenge },
        ChallengeAnswered {
            challenge,
            accepted,
        } => ChallengeAnswerTakenBack {
            challenge,
            accepted,
        },
        ChallengeAnswerTakenBack {
            challenge,
            accepted,
        } => ChallengeAnswered {
            challenge,
            accepted,
        },
        ChallengeLapsed {
            challenge,
            accepted,
        } => ChallengeRenewed {
            challenge,
            accepted,
        },
        ChallengeRenewed {
            challenge,
            accepted,
        } => ChallengeLapsed {
            challenge,
            accepted,
        },
        PairingsMade { pairings } => PairingsTakenBack { pairings },
        PairingsTakenBack { pairings } => PairingsMade { pairings },
        // Not a kind of this rule: `Event::inverse` sends none here.
        other => other,
    }
}

/// The opposite of a roll on a table or of a scenario roll: the roll
/// taken back, or made again, with the same dice and result.
pub(super) fn roll_opposite(event: Event) -> Event {
    use Event::*;
    match event {
        TableRolled {
            battle,
            fighter,
            table,
            roll,
            modifier,
            total,
            row,
            result,
        } => TableRollTakenBack {
            battle,
            fighter,
            table,
            roll,
            modifier,
            total,
            row,
            result,
        },
        TableRollTakenBack {
            battle,
            fighter,
            table,
            roll,
            modifier,
            total,
            row,
            result,
        } => TableRolled {
            battle,
            fighter,
            table,
            roll,
            modifier,
            total,
            row,
            result,
        },
        ScenarioRolled {
            gangs,
            options,
            roll,
            scenario,
        } => ScenarioRollTakenBack {
            gangs,
            options,
            roll,
            scenario,
        },
        ScenarioRollTakenBack {
            gangs,
            options,
            roll,
            scenario,
        } => ScenarioRolled {
            gangs,
            options,
            roll,
            scenario,
        },
        // Not a kind of this rule: `Event::inverse` sends none here.
        other => other,
    }
}
