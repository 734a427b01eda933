use super::*;

fn batch(id: i64, label: &str, events: Vec<Event>) -> LoggedBatch {
    LoggedBatch {
        id: BatchId(id),
        at: format!("2026-11-0{id}T20:00:00Z"),
        label: label.to_owned(),
        undoes: None,
        events,
    }
}

fn gang(id: i64, name: &str) -> Gang {
    Gang {
        id: GangId(id),
        name: name.to_owned(),
        ruleset: "game".to_owned(),
        resources: BTreeMap::from([("supply".to_owned(), 5)]),
        notes: String::new(),
        faction: None,
    }
}

fn fighter(id: i64, gang: i64, name: &str) -> Fighter {
    Fighter {
        id: FighterId(id),
        gang: GangId(gang),
        name: name.to_owned(),
        leader: false,
        quirks: Vec::new(),
        counters: BTreeMap::new(),
        notes: String::new(),
        base: BTreeMap::new(),
        status: FighterStatus::Active,
        group: None,
    }
}

fn supply(gang: i64, from: i64, to: i64) -> Event {
    Event::ResourceAdjusted {
        gang: GangId(gang),
        resource: "supply".to_owned(),
        from,
        to,
        reason: "spent".to_owned(),
    }
}

fn effect(id: i64, fighter: i64, name: &str) -> Event {
    Event::LastingEffectAdded {
        effect: LastingEffect {
            id: EffectId(id),
            fighter: FighterId(fighter),
            table: "injury".to_owned(),
            name: name.to_owned(),
            detail: String::new(),
            stats: BTreeMap::new(),
            quirk: None,
            lost_quirk: None,
            battle: None,
            roll: None,
            removed: None,
            heals_after: None,
            by_group: None,
            until: None,
        },
    }
}

/// Where the copies parted: a campaign, a gang of five Supply, a fighter
/// with one lasting effect.
fn common() -> Vec<LoggedBatch> {
    vec![
        batch(
            1,
            "Campaign created",
            vec![Event::CampaignCreated {
                name: "Ash".into(),
                default_ruleset: "game".into(),
            }],
        ),
        batch(
            2,
            "Found",
            vec![
                Event::GangFounded {
                    gang: gang(1, "Dogs"),
                },
                Event::FighterRecruited {
                    fighter: fighter(1, 1, "Rook"),
                },
                effect(1, 1, "Scar"),
            ],
        ),
    ]
}

/// The plan with a floor of 0 under every number, as the packs' resources
/// have.
fn planned(ours: &[LoggedBatch], theirs: &[LoggedBatch]) -> Result<MergePlan, MergeError> {
    plan(ours, theirs, &|_, value| value >= 0)
}

fn with(mut log: Vec<LoggedBatch>, more: Vec<LoggedBatch>) -> Vec<LoggedBatch> {
    log.extend(more);
    log
}

#[test]
fn logs_that_share_no_beginning_are_not_copies() {
    let other = vec![batch(
        1,
        "Campaign created",
        vec![Event::CampaignCreated {
            name: "Else".into(),
            default_ruleset: "game".into(),
        }],
    )];
    assert_eq!(
        planned(&common(), &other).unwrap_err(),
        MergeError::NotCopies
    );
}

#[test]
fn the_other_copys_new_things_get_ids_after_every_id_this_copy_used() {
    let ours = with(
        common(),
        vec![batch(
            3,
            "Found Cats",
            vec![Event::GangFounded {
                gang: gang(2, "Cats"),
            }],
        )],
    );
    let theirs = with(
        common(),
        vec![batch(
            3,
            "Found Owls",
            vec![
                Event::GangFounded {
                    gang: gang(2, "Owls"),
                },
                Event::FighterRecruited {
                    fighter: fighter(2, 2, "Wren"),
                },
                supply(2, 5, 4),
            ],
        )],
    );
    let plan = planned(&ours, &theirs).unwrap();
    assert_eq!(plan.parted_after, BatchId(2));
    assert!(plan.conflicts.is_empty());
    assert_eq!(plan.gangs, vec![(GangId(2), GangId(3))]);
    assert_eq!(plan.fighters, vec![(FighterId(2), FighterId(2))]);
    let merged = plan.resolve(&[]).unwrap();
    assert_eq!(merged[0].id, BatchId(4));
    assert_eq!(
        merged[0].events[1],
        Event::FighterRecruited {
            fighter: fighter(2, 3, "Wren")
        }
    );
    assert_eq!(merged[0].events[2], supply(3, 5, 4));
}

fn both_spent(ours: i64, theirs: i64) -> (Vec<LoggedBatch>, Vec<LoggedBatch>) {
    let ours = with(common(), vec![batch(3, "Ours", vec![supply(1, 5, ours)])]);
    let theirs = with(
        common(),
        vec![batch(3, "Theirs", vec![supply(1, 5, theirs)])],
    );
    (ours, theirs)
}

#[test]
fn two_spends_the_floor_allows_are_both_made_without_asking() {
    let (ours, theirs) = both_spent(3, 4);
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty(), "{:?}", plan.conflicts);
    assert_eq!(plan.composed.len(), 1);
    // The other's -1 made on this copy's 3.
    let both = plan.resolve(&[]).unwrap();
    assert_eq!(both[0].events, vec![supply(1, 3, 2)]);
}

#[test]
fn two_spends_that_together_go_below_the_floor_are_a_conflict_settled_each_way() {
    let (ours, theirs) = both_spent(1, 2);
    let plan = planned(&ours, &theirs).unwrap();
    assert_eq!(plan.conflicts.len(), 1);
    assert_eq!(
        plan.conflicts[0].key,
        Key {
            owner: Owner::Gang(GangId(1)),
            aspect: Aspect::Resource("supply".into())
        }
    );
    assert_eq!(plan.conflicts[0].both_value(), Some((1, -2)));
    assert_eq!(plan.resolve(&[]).unwrap_err(), MergeError::Unchosen(1));

    // This copy's: the other's spending is left out, and its batch with it.
    assert!(plan.resolve(&[Some(Choice::Ours)]).unwrap().is_empty());
    // The other's: this copy's spending taken back, as a change of its
    // own, then theirs made.
    let theirs = plan.resolve(&[Some(Choice::Theirs)]).unwrap();
    assert_eq!(theirs.len(), 2);
    assert!(
        theirs[0]
            .label
            .starts_with("Taken back for the other copy's")
    );
    assert!(matches!(
        theirs[0].events[..],
        [Event::ResourceAdjusted { from: 1, to: 5, .. }]
    ));
    assert_eq!(theirs[1].events, vec![supply(1, 5, 2)]);
    assert_eq!(theirs[1].id, BatchId(theirs[0].id.0 + 1));
}

#[test]
fn a_change_this_copy_took_back_is_no_conflict() {
    let ours = with(
        common(),
        vec![
            batch(3, "Spend", vec![supply(1, 5, 3)]),
            batch(4, "Undo: Spend", vec![supply(1, 3, 5)]),
        ],
    );
    let theirs = with(common(), vec![batch(3, "Theirs", vec![supply(1, 5, 4)])]);
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty());
    let merged = plan.resolve(&[]).unwrap();
    assert_eq!(merged[0].id, BatchId(5));
    assert_eq!(merged[0].events, vec![supply(1, 5, 4)]);
}

#[test]
fn both_copies_injuring_one_fighter_keep_both_injuries_without_asking() {
    let ours = with(
        common(),
        vec![batch(3, "Ours", vec![effect(2, 1, "Crippled")])],
    );
    let theirs = with(
        common(),
        vec![batch(3, "Theirs", vec![effect(2, 1, "Lost Eye")])],
    );
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty());
    assert_eq!(plan.composed.len(), 1);
    let both = plan.resolve(&[]).unwrap();
    assert_eq!(both[0].events, vec![effect(3, 1, "Lost Eye")]);
}

#[test]
fn a_name_changed_by_both_cannot_keep_both() {
    let rename = |to: &str| Event::FighterRenamed {
        fighter: FighterId(1),
        from: "Rook".into(),
        to: to.into(),
    };
    let ours = with(common(), vec![batch(3, "Ours", vec![rename("Raven")])]);
    let theirs = with(common(), vec![batch(3, "Theirs", vec![rename("Crow")])]);
    let plan = planned(&ours, &theirs).unwrap();
    assert_eq!(
        plan.resolve(&[Some(Choice::Both)]).unwrap_err(),
        MergeError::NotBoth(1)
    );
    assert_eq!(
        plan.resolve(&[Some(Choice::Ours), Some(Choice::Ours)])
            .unwrap_err(),
        MergeError::NoSuchConflict(2, 1)
    );
}

#[test]
fn a_lasting_effect_healed_in_the_other_copy_is_found_by_its_fighter() {
    let heal = Event::LastingEffectRemoved {
        effect: EffectId(1),
        reason: "healed".into(),
    };
    let ours = with(
        common(),
        vec![batch(3, "Ours", vec![effect(2, 1, "Crippled")])],
    );
    let theirs = with(common(), vec![batch(3, "Theirs", vec![heal.clone()])]);
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty());
    assert_eq!(plan.composed[0].theirs, vec![heal.clone()]);
    assert_eq!(plan.resolve(&[]).unwrap()[0].events, vec![heal]);
}

#[test]
fn a_title_both_copies_gave_the_same_gang_is_agreed_not_a_conflict() {
    let title = Event::TitleChanged {
        title: "quartermaster".into(),
        from: None,
        to: Some(GangId(1)),
    };
    let ours = with(common(), vec![batch(3, "Ours", vec![title.clone()])]);
    let theirs = with(
        common(),
        vec![batch(3, "Theirs", vec![title, supply(1, 5, 6)])],
    );
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty());
    assert_eq!(plan.agreed.len(), 1);
    assert_eq!(plan.resolve(&[]).unwrap()[0].events, vec![supply(1, 5, 6)]);
}

#[test]
fn a_records_label_takes_its_new_number() {
    assert_eq!(
        renumbered("Match #1: Escalation", 1, 2),
        "Match #2: Escalation"
    );
    assert_eq!(renumbered("Undo: Match #1", 1, 3), "Undo: Match #3");
    assert_eq!(renumbered("Match #12: x", 1, 2), "Match #12: x");
    assert_eq!(renumbered("Found Owls", 1, 2), "Found Owls");
}

#[test]
fn a_change_the_other_copy_made_and_took_back_leaves_this_copys_standing() {
    let ours = with(common(), vec![batch(3, "Ours", vec![supply(1, 5, 4)])]);
    let theirs = with(
        common(),
        vec![
            batch(3, "Spend", vec![supply(1, 5, 3)]),
            batch(4, "Refund", vec![supply(1, 3, 5)]),
        ],
    );
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty());
    assert_eq!(plan.came_back.len(), 1);
    assert!(plan.resolve(&[]).unwrap().is_empty());
}

/// The shared log with one more shared batch: Supply spent 5 → 3.
fn common_with_spending() -> Vec<LoggedBatch> {
    with(common(), vec![batch(3, "Spend", vec![supply(1, 5, 3)])])
}

fn undo_of_spending(id: i64) -> LoggedBatch {
    LoggedBatch {
        undoes: Some(BatchId(3)),
        ..batch(id, "Undo: Spend", vec![supply(1, 3, 5)])
    }
}

#[test]
fn a_shared_change_both_copies_took_back_is_taken_back_once() {
    let ours = with(common_with_spending(), vec![undo_of_spending(4)]);
    // Taken back on the other laptop a minute later.
    let later = LoggedBatch {
        at: "2026-11-04T20:01:00Z".into(),
        ..undo_of_spending(4)
    };
    let theirs = with(
        common_with_spending(),
        vec![later, batch(5, "Found", vec![supply(1, 5, 6)])],
    );
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty(), "{:?}", plan.conflicts);
    assert_eq!(plan.both_took_back.len(), 1);
    let merged = plan.resolve(&[]).unwrap();
    assert_eq!(merged.len(), 1);
    assert_eq!(merged[0].id, BatchId(5));
    assert_eq!(merged[0].events, vec![supply(1, 5, 6)]);
}

#[test]
fn a_shared_thing_one_copy_took_back_and_the_other_changed_is_refused() {
    let injured = with(
        common(),
        vec![batch(3, "Injury", vec![effect(2, 1, "Scar")])],
    );
    let Event::LastingEffectAdded { effect: scar } = effect(2, 1, "Scar") else {
        unreachable!()
    };
    let ours = with(
        injured.clone(),
        vec![LoggedBatch {
            undoes: Some(BatchId(3)),
            ..batch(
                4,
                "Undo: Injury",
                vec![Event::LastingEffectDeleted { effect: scar }],
            )
        }],
    );
    let theirs = with(
        injured,
        vec![batch(
            4,
            "Healed",
            vec![Event::LastingEffectRemoved {
                effect: EffectId(2),
                reason: "healed".into(),
            }],
        )],
    );
    let err = planned(&ours, &theirs).unwrap_err();
    assert!(
        matches!(
            &err,
            MergeError::TakenBack {
                by: "this copy",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("lasting effect #2"), "{err}");
    assert!(err.to_string().contains("Undo: Injury"), "{err}");
}

#[test]
fn keeping_both_heals_an_effect_this_copy_healed_and_brought_back() {
    let heal = Event::LastingEffectRemoved {
        effect: EffectId(1),
        reason: "healed".into(),
    };
    let back = Event::LastingEffectRestored {
        effect: EffectId(1),
        reason: "not yet".into(),
    };
    let ours = with(
        common(),
        vec![
            batch(3, "Heal", vec![heal.clone()]),
            batch(4, "Unheal", vec![back]),
            batch(5, "Injury", vec![effect(2, 1, "Crippled")]),
        ],
    );
    let theirs = with(common(), vec![batch(3, "Theirs", vec![heal.clone()])]);
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty());
    // This copy's last word on the effect is that it is back: theirs heals it.
    assert_eq!(plan.resolve(&[]).unwrap()[0].events, vec![heal]);
}

fn entries(fighter: i64, from: &[&str], to: &[&str]) -> Event {
    let picks = |ids: &[&str]| {
        ids.iter()
            .map(|id| QuirkPick {
                quirk: (*id).to_owned(),
                alt_name: None,
                with: None,
            })
            .collect()
    };
    Event::QuirksChanged {
        fighter: FighterId(fighter),
        from: picks(from),
        to: picks(to),
    }
}

#[test]
fn entries_gained_and_lost_in_both_copies_are_gained_and_lost() {
    let ours = with(
        common(),
        vec![batch(3, "Ours", vec![entries(1, &[], &["brave", "quick"])])],
    );
    let theirs = with(
        common(),
        vec![
            batch(3, "Theirs", vec![entries(1, &[], &["quick", "tough"])]),
            batch(4, "Lost", vec![entries(1, &["quick", "tough"], &["tough"])]),
        ],
    );
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty(), "{:?}", plan.conflicts);
    let merged = plan.resolve(&[]).unwrap();
    assert_eq!(
        merged[0].events,
        vec![entries(
            1,
            &["brave", "quick"],
            &["brave", "quick", "tough"]
        )]
    );
    assert_eq!(
        merged[1].events,
        vec![entries(
            1,
            &["brave", "quick", "tough"],
            &["brave", "tough"]
        )]
    );
}

fn dismissed(fighter: Fighter) -> Event {
    Event::FighterDismissed { fighter }
}

fn xp(from: i64, to: i64) -> Event {
    Event::CounterChanged {
        fighter: FighterId(1),
        counter: "xp".into(),
        from,
        to,
        reason: "battle".into(),
    }
}

#[test]
fn a_fighter_dismissed_in_one_copy_and_advanced_in_the_other_is_one_conflict() {
    let ours = with(
        common(),
        vec![batch(
            3,
            "Dismiss Rook",
            vec![dismissed(fighter(1, 1, "Rook"))],
        )],
    );
    let theirs = with(
        common(),
        vec![batch(3, "Match", vec![xp(0, 2), supply(1, 5, 7)])],
    );
    let plan = planned(&ours, &theirs).unwrap();
    assert_eq!(plan.conflicts.len(), 1, "{:?}", plan.conflicts);
    assert_eq!(plan.conflicts[0].key.aspect, Aspect::Presence);
    assert_eq!(
        plan.resolve(&[Some(Choice::Both)]).unwrap_err(),
        MergeError::NotBoth(1)
    );
    // The dismissal stands: the match's other changes are made.
    let kept = plan.resolve(&[Some(Choice::Ours)]).unwrap();
    assert_eq!(kept[0].events, vec![supply(1, 5, 7)]);
    // The other's: Rook comes back, then advances.
    let back = plan.resolve(&[Some(Choice::Theirs)]).unwrap();
    assert_eq!(
        back[0].events,
        vec![Event::FighterRecruited {
            fighter: fighter(1, 1, "Rook")
        }]
    );
    assert_eq!(back[1].events, vec![xp(0, 2), supply(1, 5, 7)]);
}

#[test]
fn a_fighter_both_copies_dismissed_is_dismissed_once() {
    let gone = batch(3, "Dismiss Rook", vec![dismissed(fighter(1, 1, "Rook"))]);
    let ours = with(common(), vec![gone.clone()]);
    let theirs = with(
        common(),
        vec![LoggedBatch {
            at: "2026-11-04T21:00:00Z".into(),
            ..gone
        }],
    );
    let plan = planned(&ours, &theirs).unwrap();
    assert!(plan.conflicts.is_empty(), "{:?}", plan.conflicts);
    assert!(plan.resolve(&[]).unwrap().is_empty());
}

#[test]
fn a_title_the_copies_gave_different_gangs_is_a_conflict() {
    let title = |to| Event::TitleChanged {
        title: "quartermaster".into(),
        from: None,
        to: Some(GangId(to)),
    };
    let second = batch(
        3,
        "Found",
        vec![Event::GangFounded {
            gang: gang(2, "Owls"),
        }],
    );
    let ours = with(
        common(),
        vec![second.clone(), batch(4, "Ours", vec![title(1)])],
    );
    let theirs = with(common(), vec![second, batch(4, "Theirs", vec![title(2)])]);
    let plan = planned(&ours, &theirs).unwrap();
    assert_eq!(plan.conflicts.len(), 1);
    assert_eq!(
        plan.conflicts[0].key.aspect,
        Aspect::Title("quartermaster".into())
    );
}
