#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A league's server on a real PostgreSQL (a throwaway cluster, see
//! `util::postgres`): the schema `init` applies, the round trip of
//! batches, the order under concurrent pushers, who may append what (tried
//! with raw SQL, not through the client), TLS with the league's
//! certificate pinned, and the laptop's mirror of the server's event →
//! gangs map agreeing with the server on real campaigns.

mod util;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use rapsheet::campaign::league::{self, Places};
use rapsheet::campaign::{
    BatchId, EffectId, Event, FighterId, FighterStatus, GangId, LoggedBatch, PendingEffect,
    PendingId,
};
use rapsheet::generator::{GenSize, generate};
use rapsheet::session::Session;
use rapsheet::store::CampaignStore;
use rapsheet::store::league::{
    League, LeagueError, NewBatch, PushError, SCHEMA_VERSION, ServerBatch,
};
use util::postgres::{TestLeague, cluster, other_certificate};

/// A new league `name` on the test cluster, initialised by its organiser.
fn new_league(name: &str) -> (TestLeague, League) {
    let test = cluster().league(name);
    let mut league = League::connect(&test.address, &test.password).expect("connect");
    league.init().expect("init");
    (test, league)
}

fn batch(uid: &str, events: &str) -> NewBatch {
    NewBatch {
        uid: uid.to_owned(),
        at: "2026-11-26T10:00:00Z".to_owned(),
        label: format!("batch {uid}"),
        undoes: None,
        events: events.to_owned(),
        // The format a league made by `League::init` is at until raised.
        format: 1,
        hash: None,
        signature: None,
    }
}

/// Pushes one batch at the head.
fn append(league: &mut League, uid: &str, events: &str) -> i64 {
    let head = league.head().unwrap();
    league.push(head, &[batch(uid, events)]).unwrap()
}

fn gang(id: i64) -> String {
    format!(
        r#"{{"type":"gang_founded","gang":{{"id":{id},"name":"Gang {id}","ruleset":"x","resources":{{}},"notes":""}}}}"#
    )
}

fn fighter(id: i64, gang: i64) -> String {
    format!(
        r#"{{"type":"fighter_recruited","fighter":{{"id":{id},"gang":{gang},"name":"F{id}","leader":false,"quirks":[],"counters":{{}},"notes":"","status":{{"state":"active"}}}}}}"#
    )
}

fn resource(gang: i64) -> String {
    format!(
        r#"{{"type":"resource_adjusted","gang":{gang},"resource":"r","from":0,"to":1,"reason":"test"}}"#
    )
}

fn counter(fighter: i64) -> String {
    format!(
        r#"{{"type":"counter_changed","fighter":{fighter},"counter":"c","from":0,"to":1,"reason":"test"}}"#
    )
}

fn record(id: i64, gangs: &[i64]) -> String {
    let gangs: Vec<String> = gangs
        .iter()
        .map(|g| format!(r#"{{"gang":{g},"role":null,"ran_for_it":false,"counts":{{}}}}"#))
        .collect();
    format!(
        r#"{{"type":"battle_recorded","battle":{{"id":{id},"ruleset":"x","scenario":null,"gangs":[{}],"winner":null,"fighters":[],"notes":""}}}}"#,
        gangs.join(",")
    )
}

fn list(events: &[String]) -> String {
    format!("[{}]", events.join(","))
}

#[test]
fn init_makes_an_empty_league_and_refuses_a_database_with_tables() {
    let (test, mut league) = new_league("init_empty");
    assert_eq!(league.head().unwrap(), 0);
    assert_eq!(league.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(league.whoami().unwrap(), test.address.login);
    let members = league.members().unwrap();
    assert_eq!(members.len(), 1);
    assert!(members[0].organiser);
    assert!(league.fetch_after(0).unwrap().is_empty());
    // A league that holds no batch yet is the organiser's to set up: an
    // init cut short before it sent the campaign goes on.
    league.init().unwrap();
    league
        .push(
            0,
            &[batch(
                "first",
                r#"[{"type":"campaign_renamed","from":"a","to":"b"}]"#,
            )],
        )
        .unwrap();
    assert!(matches!(
        league.init(),
        Err(LeagueError::AlreadyALeague(SCHEMA_VERSION))
    ));

    let other = cluster().league("init_not_empty");
    let mut raw = cluster().client(&other.address, &other.password).unwrap();
    raw.batch_execute("CREATE TABLE notes (line text)").unwrap();
    let mut league = League::connect(&other.address, &other.password).unwrap();
    let refused = league.init().unwrap_err();
    assert!(matches!(refused, LeagueError::NotEmpty(_)), "{refused}");
    assert!(refused.to_string().contains("public.notes"), "{refused}");
}

#[test]
fn batches_come_back_byte_for_byte_in_a_gapless_order() {
    let (test, mut league) = new_league("round_trip");
    let texts = [
        r#"[{"type":"campaign_created","name":"Ωmega  “quoted”","default_ruleset":"x"}]"#,
        "[ {\"type\" : \"campaign_renamed\",\n \"to\":\"b\", \"from\":\"a\"} ]",
        r#"[{"type":"campaign_renamed","from":"b","to":"a\u00e9"}]"#,
    ];
    let mut batches: Vec<NewBatch> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| batch(&format!("uid-{i}"), t))
        .collect();
    batches[2].undoes = Some(2);
    assert_eq!(league.push(0, &batches).unwrap(), 3);
    let back = league.fetch_after(0).unwrap();
    assert_eq!(back.len(), 3);
    for (i, b) in back.iter().enumerate() {
        assert_eq!(b.seq, i as i64 + 1);
        assert_eq!(b.events, texts[i], "the events as sent");
        assert_eq!(b.uid, batches[i].uid);
        assert_eq!(b.at, batches[i].at);
        assert_eq!(b.label, batches[i].label);
        assert_eq!(b.author, test.address.login);
        assert!(
            b.received.len() == 27 && b.received.ends_with('Z'),
            "{}",
            b.received
        );
    }
    assert_eq!(back[2].undoes, Some(2));
    assert_eq!(league.fetch_after(2).unwrap(), back[2..].to_vec());

    // Pushed on a stale head: someone was first.
    let stale = league.push(1, &[batch("late", texts[1])]).unwrap_err();
    assert!(matches!(stale, PushError::LostRace), "{stale}");
    // The same batch again at the head: it is already there.
    let again = league.push(3, &[batch("uid-0", texts[1])]).unwrap_err();
    assert!(
        matches!(again, PushError::AlreadyThere(ref uid) if uid == "uid-0"),
        "{again}"
    );
    // A push is one transaction: the second batch's refusal takes back the first.
    let half = league
        .push(
            3,
            &[
                batch("fine", texts[1]),
                batch("bad", "[{\"type\":\"no_such_kind\"}]"),
            ],
        )
        .unwrap_err();
    assert!(
        matches!(half, PushError::Refused { ref uid, .. } if uid == "bad"),
        "{half}"
    );
    assert_eq!(league.head().unwrap(), 3);
}

#[test]
fn concurrent_pushers_leave_no_gap_and_no_duplicate() {
    let (test, _) = new_league("concurrent");
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let address = test.address.clone();
            let password = test.password.clone();
            std::thread::spawn(move || {
                let mut league = League::connect(&address, &password).unwrap();
                let mut races = 0;
                for i in 0..20 {
                    let b = batch(
                        &format!("t{t}-b{i}"),
                        r#"[{"type":"campaign_renamed","from":"a","to":"b"}]"#,
                    );
                    loop {
                        let head = league.head().unwrap();
                        match league.push(head, std::slice::from_ref(&b)) {
                            Ok(_) => break,
                            Err(PushError::LostRace) => {
                                races += 1;
                                let jitter = (t * 7 + i * 13 + races) % 20;
                                std::thread::sleep(Duration::from_millis(jitter as u64));
                            }
                            Err(other) => panic!("{other}"),
                        }
                    }
                }
                races
            })
        })
        .collect();
    let races: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    let mut league = League::connect(&test.address, &test.password).unwrap();
    let all = league.fetch_after(0).unwrap();
    let seqs: Vec<i64> = all.iter().map(|b| b.seq).collect();
    assert_eq!(seqs, (1..=160).collect::<Vec<i64>>(), "no gap");
    let uids: BTreeSet<&str> = all.iter().map(|b| b.uid.as_str()).collect();
    assert_eq!(uids.len(), 160, "no duplicate");
    eprintln!("160 batches by 8 pushers, {races} lost races retried");
}

/// A league with gangs 1, 2 and 3 (fighters 10, 20 and 30), alice holding
/// gang 1 and bob gang 2; returns alice's password.
fn league_of_two(name: &str) -> (TestLeague, League, String) {
    let (test, mut league) = new_league(name);
    append(
        &mut league,
        "setup",
        &list(&[
            r#"{"type":"campaign_created","name":"L","default_ruleset":"x"}"#.to_owned(),
            gang(1),
            gang(2),
            gang(3),
            fighter(10, 1),
            fighter(20, 2),
            fighter(30, 3),
        ]),
    );
    let alice = league.invite(&format!("{name}_alice"), &[1]).unwrap();
    league.invite(&format!("{name}_bob"), &[2]).unwrap();
    (test, league, alice)
}

/// Inserts a batch with raw SQL, claiming another author and no gangs.
fn raw_insert(
    client: &mut postgres::Client,
    seq: i64,
    uid: &str,
    events: &str,
) -> Result<u64, postgres::Error> {
    client.execute(
        "INSERT INTO league.batch (seq, uid, author, received, at, label, events,
                                   touched_gangs, record_gangs, campaign_wide)
         VALUES ($1, $2, 'someone_else', now(), 'now', 'raw', $3::text::json, '{}', NULL, false)",
        &[&seq, &uid, &events],
    )
}

#[test]
fn a_player_appends_only_what_the_rules_let_them_with_raw_sql() {
    let name = "security";
    let (test, mut league, password) = league_of_two(name);
    let alice_login = format!("{name}_alice");
    let mut alice = cluster()
        .client(&test.as_login(&alice_login), &password)
        .unwrap();
    let head = league.head().unwrap();

    let refused = |client: &mut postgres::Client, uid: &str, events: String, seq: i64| {
        let error = raw_insert(client, seq, uid, &events).unwrap_err();
        error.code().unwrap().code().to_owned()
    };
    // A rival's gang, the campaign, an unknown kind, a gap, a replay.
    assert_eq!(
        refused(&mut alice, "rival", list(&[resource(2)]), head + 1),
        "42501"
    );
    assert_eq!(
        refused(&mut alice, "rival-f", list(&[counter(20)]), head + 1),
        "42501"
    );
    assert_eq!(
        refused(
            &mut alice,
            "rename",
            list(&[r#"{"type":"campaign_renamed","from":"L","to":"M"}"#.to_owned()]),
            head + 1
        ),
        "42501"
    );
    assert_eq!(
        refused(
            &mut alice,
            "unknown",
            r#"[{"type":"gang_vanished","gang":1}]"#.to_owned(),
            head + 1
        ),
        "22023"
    );
    assert_eq!(
        refused(&mut alice, "gap", list(&[resource(1)]), head + 2),
        "22023"
    );
    assert_eq!(
        refused(&mut alice, "setup", list(&[resource(1)]), head + 1),
        "23505"
    );
    // A record of a game none of whose gangs is hers, and one that reaches
    // beyond the gangs it names.
    assert_eq!(
        refused(
            &mut alice,
            "not-hers",
            list(&[record(1, &[2, 3])]),
            head + 1
        ),
        "42501"
    );
    assert_eq!(
        refused(
            &mut alice,
            "beyond",
            list(&[record(2, &[1, 2]), resource(3)]),
            head + 1
        ),
        "42501"
    );
    // A title taken from a third gang outside a record.
    assert_eq!(
        refused(&mut alice, "title", list(&[title(3, 1)]), head + 1),
        "42501"
    );
    assert_eq!(league.head().unwrap(), head, "nothing refused landed");

    // No one changes, deletes or truncates a batch: not alice, not the organiser.
    let mut organiser = cluster().client(&test.address, &test.password).unwrap();
    for client in [&mut alice, &mut organiser] {
        for sql in [
            "UPDATE league.batch SET label = 'changed'",
            "DELETE FROM league.batch",
            "TRUNCATE league.batch",
        ] {
            let error = client.batch_execute(sql).unwrap_err();
            assert_eq!(error.code().unwrap().code(), "42501", "{sql}: {error}");
        }
    }
    assert_eq!(league.head().unwrap(), head);
    assert_eq!(league.fetch_after(0).unwrap()[0].label, "batch setup");

    // Her own gang, with a forged author and forged gangs: the server's own.
    raw_insert(
        &mut alice,
        head + 1,
        "own",
        &list(&[resource(1), counter(10)]),
    )
    .unwrap();
    let row = organiser
        .query_one(
            "SELECT author, touched_gangs, campaign_wide FROM league.batch WHERE uid = 'own'",
            &[],
        )
        .unwrap();
    assert_eq!(row.get::<_, String>(0), alice_login);
    assert_eq!(row.get::<_, Vec<i64>>(1), vec![1]);
    assert!(!row.get::<_, bool>(2));

    // A record naming her gang carries its effects on the rival.
    let carried = list(&[record(3, &[1, 2]), resource(2), counter(20), resource(1)]);
    raw_insert(&mut alice, head + 2, "record", &carried).unwrap();
    // A record of her game that moves a title from a gang it does not
    // name: titles go where the rules put them.
    raw_insert(
        &mut alice,
        head + 3,
        "record-title",
        &list(&[record(4, &[1, 2]), title(3, 1)]),
    )
    .unwrap();
    let head = head + 1;
    // A gang she founds is hers.
    raw_insert(
        &mut alice,
        head + 3,
        "founds",
        &list(&[gang(4), fighter(40, 4)]),
    )
    .unwrap();
    let members = league.members().unwrap();
    let hers = members.iter().find(|m| m.login == alice_login).unwrap();
    assert_eq!(hers.gangs, vec![1, 4]);
    // A gang that exists already is not hers for founding it again.
    assert_eq!(
        refused(&mut alice, "again", list(&[gang(3)]), head + 4),
        "42501"
    );

    // The organiser appends anything.
    raw_insert(
        &mut organiser,
        head + 4,
        "organiser",
        &list(&[
            r#"{"type":"campaign_renamed","from":"L","to":"M"}"#.to_owned(),
            resource(2),
        ]),
    )
    .unwrap();
    // Everyone reads everything.
    let seen: i64 = alice
        .query_one("SELECT count(*) FROM league.batch", &[])
        .unwrap()
        .get(0);
    assert_eq!(seen, head + 4);
}

fn title(from: i64, to: i64) -> String {
    format!(r#"{{"type":"title_changed","title":"t","from":{from},"to":{to}}}"#)
}

#[test]
fn the_client_says_why_a_push_was_refused_and_assigns_gangs() {
    let name = "refusals";
    let (test, mut organiser, password) = league_of_two(name);
    let mut alice = League::connect(&test.as_login(&format!("{name}_alice")), &password).unwrap();
    let head = alice.head().unwrap();
    let refused = alice
        .push(head, &[batch("rival", &list(&[resource(2)]))])
        .unwrap_err();
    match &refused {
        PushError::Refused { uid, reason } => {
            assert_eq!(uid, "rival");
            assert_eq!(reason, "it changes gang #2, which is not yours");
        }
        other => panic!("{other}"),
    }
    assert!(!refused.to_string().contains("42501"), "{refused}");
    // The organiser gives her gang 2; now she may.
    organiser.assign(&format!("{name}_alice"), 2).unwrap();
    alice
        .push(head, &[batch("rival", &list(&[resource(2)]))])
        .unwrap();
    let unknown = organiser.assign("nobody", 2).unwrap_err();
    assert!(unknown.to_string().contains("not a member"), "{unknown}");
    // A player cannot invite.
    assert!(alice.invite(&format!("{name}_eve"), &[]).is_err());
}

#[test]
fn only_tls_to_the_pinned_certificate_connects() {
    let test = cluster().league("tls");
    // A plain connection is refused by the server.
    let plain = postgres::Config::new()
        .host("127.0.0.1")
        .port(cluster().port)
        .dbname("tls")
        .user(&test.address.login)
        .password(&test.password)
        .ssl_mode(postgres::config::SslMode::Disable)
        .connect(postgres::NoTls);
    assert!(plain.is_err());
    // A client pinned to another certificate refuses the server.
    let mut elsewhere = test.address.clone();
    elsewhere.certificate = other_certificate();
    let refused = League::connect(&elsewhere, &test.password).unwrap_err();
    assert!(matches!(refused, LeagueError::Certificate(_)), "{refused}");
    // A wrong password is said in words, and no password is ever shown.
    let wrong = League::connect(&test.address, "not-the-password").unwrap_err();
    assert!(matches!(wrong, LeagueError::Login { .. }), "{wrong}");
    assert!(!wrong.to_string().contains("28P01"), "{wrong}");
    for shown in [
        refused.to_string(),
        format!("{refused:?}"),
        wrong.to_string(),
        format!("{wrong:?}"),
    ] {
        assert!(!shown.contains(&test.password), "{shown}");
        assert!(!shown.contains("not-the-password"), "{shown}");
    }
    let league = League::connect(&test.address, &test.password).unwrap();
    assert!(!format!("{league:?}").contains(&test.password));
    // No server listening: offline, said so.
    let mut nowhere = test.address.clone();
    nowhere.port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let offline = League::connect(&nowhere, &test.password).unwrap_err();
    assert!(matches!(offline, LeagueError::Offline(_)), "{offline}");
    assert!(
        offline.to_string().contains("cannot be reached"),
        "{offline}"
    );
}

/// Campaigns whose logs hold every kind of event the program makes: the
/// demo of every ruleset, the golden campaign, a generated one.
fn campaigns(dir: &std::path::Path) -> Vec<(String, Vec<LoggedBatch>)> {
    let mut out = Vec::new();
    for ruleset in rapsheet::campaign::demo::rulesets().unwrap() {
        let path = dir.join(format!("demo-{ruleset}.rapsheet"));
        drop(Session::create_demo_of(&path, &ruleset).unwrap());
        out.push((ruleset, CampaignStore::copy_log(&path).unwrap()));
    }
    let golden = dir.join("golden.rapsheet");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden/campaign-schema4-events1.rapsheet"),
        &golden,
    )
    .unwrap();
    drop(Session::open(&golden).unwrap());
    let mut log = CampaignStore::copy_log(&golden).unwrap();
    let more = every_other_kind(&log);
    let next = log.iter().map(|b| b.id.0).max().unwrap_or(0) + 1;
    log.extend(more.into_iter().enumerate().map(|(i, events)| LoggedBatch {
        id: BatchId(next + i as i64),
        at: "2026-11-26T10:00:00Z".to_owned(),
        label: format!("every kind {i}"),
        undoes: None,
        events,
    }));
    out.push(("golden".to_owned(), log));
    let path = dir.join("generated.rapsheet");
    let mut session = Session::create(&path, "Generated", "heartbreaker").unwrap();
    let size = GenSize {
        gangs: 6,
        fighters_per_gang: 5,
        battles: 25,
        seed: 29,
    };
    generate(&mut session, size, &mut |_, _| {}).unwrap();
    drop(session);
    out.push((
        "generated".to_owned(),
        CampaignStore::copy_log(&path).unwrap(),
    ));
    out
}

/// Batches after the golden campaign's log with the kinds of event its
/// log lacks, made from what it holds: each kind at least once, and ids
/// no batch placed.
fn every_other_kind(log: &[LoggedBatch]) -> Vec<Vec<Event>> {
    let events: Vec<&Event> = log.iter().flat_map(|b| &b.events).collect();
    let find = |kind: &str| {
        events
            .iter()
            .find(|e| e.kind() == kind)
            .map(|e| (*e).clone())
            .unwrap_or_else(|| panic!("no {kind} in the golden campaign"))
    };
    let Event::FighterRecruited { fighter } = find("fighter_recruited") else {
        unreachable!()
    };
    let Event::BattleRecorded { battle } = find("battle_recorded") else {
        unreachable!()
    };
    let Event::TableRolled { roll, .. } = find("table_rolled") else {
        unreachable!()
    };
    let lasting = find("lasting_effect_added");
    let Event::LastingEffectAdded { effect } = lasting.clone() else {
        unreachable!()
    };
    let gangs: Vec<GangId> = battle.gangs.iter().map(|g| g.gang).collect();
    let (a, b) = (gangs[0], gangs[1]);
    let f = fighter.id;
    let pending = PendingEffect {
        id: PendingId(900),
        gang: a,
        action: "act".into(),
        action_name: "Act".into(),
        text: "next time".into(),
        used_in: None,
    };
    let scenario = Event::ScenarioRolled {
        gangs: [a, b],
        options: vec!["one".into(), "two".into()],
        roll: roll.clone(),
        scenario: "one".into(),
    };
    let action = Event::ActionTaken {
        gang: a,
        action: "act".into(),
        target: Some(b),
        choice: None,
    };
    let text = |from: &str, to: &str| (from.to_owned(), to.to_owned());
    let (from, to) = text("a", "b");
    vec![
        vec![
            Event::CampaignRenamed {
                from: from.clone(),
                to: to.clone(),
            },
            Event::SettingChanged {
                setting: "s".into(),
                from: None,
                to: Some("x".into()),
            },
        ],
        vec![
            Event::GangRenamed {
                gang: a,
                from: from.clone(),
                to: to.clone(),
            },
            Event::FighterRenamed {
                fighter: f,
                from: from.clone(),
                to: to.clone(),
            },
            Event::LeaderChanged {
                fighter: f,
                from: false,
                to: true,
            },
            Event::FighterNotesChanged {
                fighter: f,
                from: from.clone(),
                to: to.clone(),
            },
            Event::BaseStatSet {
                fighter: f,
                stat: "s".into(),
                from: None,
                to: Some(3),
            },
            Event::GangRulesetChanged {
                gang: a,
                from: from.clone(),
                to: to.clone(),
            },
        ],
        vec![
            action.clone(),
            Event::PendingEffectAdded {
                effect: pending.clone(),
            },
        ],
        vec![Event::PendingEffectUsed {
            effect: pending.id,
            battle: battle.id,
            fighters: vec![f],
        }],
        vec![Event::PendingEffectUnused {
            effect: pending.id,
            battle: battle.id,
            fighters: vec![f],
        }],
        vec![
            Event::PendingEffectRemoved { effect: pending },
            action.inverse(),
        ],
        vec![
            Event::LastingEffectRemoved {
                effect: effect.id,
                reason: "healed".into(),
            },
            Event::LastingEffectRestored {
                effect: effect.id,
                reason: "undo".into(),
            },
        ],
        vec![lasting.inverse()],
        vec![find("table_rolled").inverse()],
        vec![scenario.clone()],
        vec![scenario.inverse()],
        vec![Event::ArcClosed {
            gangs: [a, b],
            reason: "done".into(),
        }],
        vec![Event::ArcReopened {
            gangs: [a, b],
            reason: "again".into(),
        }],
        vec![Event::BattleUnrecorded {
            battle: battle.clone(),
        }],
        vec![Event::FighterStatusChanged {
            fighter: f,
            from: FighterStatus::Active,
            to: FighterStatus::Captured {
                by: b,
                battle: battle.id,
            },
            reason: "taken".into(),
        }],
        vec![Event::FighterTransferred {
            fighter: f,
            from: fighter.gang,
            to: b,
            leader_from: false,
            leader_to: false,
        }],
        // The fighter's id given to another gang touches the gang it left.
        vec![Event::FighterRecruited {
            fighter: rapsheet::campaign::Fighter {
                gang: a,
                ..fighter.clone()
            },
        }],
        vec![Event::FighterDismissed {
            fighter: rapsheet::campaign::Fighter { gang: a, ..fighter },
        }],
        // A fighter and an effect no batch placed.
        vec![Event::CounterChanged {
            fighter: FighterId(99_999),
            counter: "c".into(),
            from: 0,
            to: 1,
            reason: "?".into(),
        }],
        vec![Event::LastingEffectRemoved {
            effect: EffectId(99_999),
            reason: "?".into(),
        }],
        vec![find("gang_founded").inverse()],
    ]
}

/// The batches of a log as the organiser pushes them, `undoes` made the
/// server's numbers.
fn as_pushed(log: &[LoggedBatch]) -> Vec<NewBatch> {
    let seq_of: BTreeMap<_, i64> = log
        .iter()
        .enumerate()
        .map(|(i, b)| (b.id, i as i64 + 1))
        .collect();
    log.iter()
        .map(|b| NewBatch {
            uid: format!("batch-{}", b.id),
            at: b.at.clone(),
            label: b.label.clone(),
            undoes: b.undoes.and_then(|u| seq_of.get(&u).copied()),
            events: serde_json::to_string(&b.events).unwrap(),
            format: 1,
            hash: None,
            signature: None,
        })
        .collect()
}

#[test]
fn the_laptops_map_of_gangs_agrees_with_the_servers_on_real_campaigns() {
    let dir = util::temp();
    let mut seen: BTreeSet<&'static str> = BTreeSet::new();
    for (name, log) in campaigns(dir.path()) {
        let database = format!("mirror_{}", name.replace('-', "_"));
        let (test, mut league) = new_league(&database);
        league.push(0, &as_pushed(&log)).unwrap();
        let mut raw = cluster().client(&test.address, &test.password).unwrap();
        let rows = raw
            .query(
                "SELECT seq, touched_gangs, record_gangs, campaign_wide
                 FROM league.batch ORDER BY seq",
                &[],
            )
            .unwrap();
        assert_eq!(rows.len(), log.len());
        let mut places = Places::default();
        for (row, logged) in rows.iter().zip(&log) {
            let reach = places.take(&logged.events);
            let gangs = |ids: Vec<i64>| ids.into_iter().map(GangId).collect::<BTreeSet<_>>();
            let seq: i64 = row.get(0);
            assert_eq!(reach.touched, gangs(row.get(1)), "{name}, batch {seq}");
            assert_eq!(
                reach.record,
                row.get::<_, Option<Vec<i64>>>(2).map(gangs),
                "{name}, batch {seq}"
            );
            assert_eq!(
                reach.campaign_wide,
                row.get::<_, bool>(3),
                "{name}, batch {seq}"
            );
            for event in &logged.events {
                assert_eq!(league::KINDS[league::kind_index(event)], event.kind());
                seen.insert(event.kind());
            }
        }
        let back: Vec<ServerBatch> = league.fetch_after(0).unwrap();
        assert_eq!(back.len(), log.len());
    }
    // Kinds a league takes from a later format than these pushes' are
    // tried where a league is at it (a season's, in league_season.rs).
    let (test, _) = new_league("mirror_later_kinds");
    let later: BTreeSet<String> = cluster()
        .client(&test.address, &test.password)
        .unwrap()
        .query(
            "SELECT kind FROM league.event_kind WHERE since_format > 1",
            &[],
        )
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    let never: Vec<&str> = league::kinds()
        .filter(|k| !seen.contains(k) && !later.contains(*k))
        .collect();
    assert!(never.is_empty(), "kinds never tried: {never:?}");
}

#[test]
fn the_servers_event_kinds_are_the_programs() {
    let (test, _) = new_league("kinds");
    let mut raw = cluster().client(&test.address, &test.password).unwrap();
    let rows = raw
        .query("SELECT kind, campaign_wide FROM league.event_kind", &[])
        .unwrap();
    let server: BTreeSet<String> = rows.iter().map(|r| r.get(0)).collect();
    let program: BTreeSet<String> = league::kinds().map(str::to_owned).collect();
    assert_eq!(server, program);
    let wide: BTreeSet<String> = rows
        .iter()
        .filter(|r| r.get::<_, bool>(1))
        .map(|r| r.get(0))
        .collect();
    let program_wide: BTreeSet<String> = league::CAMPAIGN_WIDE
        .iter()
        .map(|k| k.to_string())
        .collect();
    assert_eq!(wide, program_wide);
    // Every kind the mirror lists is one `Event::kind` gives: an event of
    // each campaign-wide kind made here checks the list's places.
    let made = [
        Event::CampaignRenamed {
            from: "a".into(),
            to: "b".into(),
        },
        Event::SettingChanged {
            setting: "s".into(),
            from: None,
            to: None,
        },
    ];
    for event in made {
        assert_eq!(league::KINDS[league::kind_index(&event)], event.kind());
    }
}

#[test]
fn photos_are_shared_once_and_checked_against_their_key() {
    let name = "photos";
    let (test, mut organiser, password) = league_of_two(name);
    let alice_login = format!("{name}_alice");
    let mut alice = League::connect(&test.as_login(&alice_login), &password).unwrap();
    let photo = util::TINY_PNG.to_vec();
    let key = rapsheet::store::photo_key(&photo);
    alice.push_photo(&key, &photo).unwrap();
    alice.push_photo(&key, &photo).unwrap();
    assert_eq!(organiser.fetch_photo(&key).unwrap(), Some(photo.clone()));
    assert_eq!(organiser.fetch_photo(&"0".repeat(16)).unwrap(), None);

    // A key naming another length is refused; bytes that are not the
    // key's are no photo when fetched (the batch that shows it is left
    // out; the sync goes on).
    let wrong_length = format!("{}-1", "a".repeat(64));
    assert!(alice.push_photo(&wrong_length, &photo).is_err());
    let other = format!("{}-{}", "b".repeat(64), photo.len());
    alice.push_photo(&other, &photo).unwrap();
    assert_eq!(organiser.fetch_photo(&other).unwrap(), None);

    // No one changes or deletes a photo.
    let mut raw = cluster()
        .client(&test.as_login(&alice_login), &password)
        .unwrap();
    let mut organiser_raw = cluster().client(&test.address, &test.password).unwrap();
    for client in [&mut raw, &mut organiser_raw] {
        for sql in [
            "UPDATE league.photo SET bytes = '\\x00'",
            "DELETE FROM league.photo",
            "TRUNCATE league.photo",
        ] {
            let error = client.batch_execute(sql).unwrap_err();
            assert_eq!(error.code().unwrap().code(), "42501", "{sql}: {error}");
        }
    }
    let author: String = organiser_raw
        .query_one("SELECT author FROM league.photo WHERE key = $1", &[&key])
        .unwrap()
        .get(0);
    assert_eq!(author, alice_login);
}

/// The places of a league's batches as the laptop reads them back.
fn places_of(batches: &[ServerBatch]) -> Places {
    let mut places = Places::default();
    for b in batches {
        let events: Vec<Event> = serde_json::from_str(&b.events).unwrap();
        places.take(&events);
    }
    places
}

#[test]
fn the_laptop_tells_before_pushing_what_the_server_will_refuse() {
    let name = "predicted";
    let (test, mut organiser, password) = league_of_two(name);
    let alice_login = format!("{name}_alice");
    let mut alice = League::connect(&test.as_login(&alice_login), &password).unwrap();
    let candidates = [
        list(&[resource(1), counter(10)]),
        list(&[resource(2)]),
        list(&[counter(20)]),
        list(&[r#"{"type":"campaign_renamed","from":"L","to":"M"}"#.to_owned()]),
        list(&[record(1, &[1, 2]), resource(2), counter(20)]),
        list(&[record(2, &[2, 3]), resource(2)]),
        list(&[record(3, &[1, 2]), counter(30)]),
        list(&[fighter(20, 1)]),
    ];
    for (i, events) in candidates.iter().enumerate() {
        let batches = alice.fetch_after(0).unwrap();
        let places = places_of(&batches);
        let mine: BTreeSet<GangId> = organiser
            .members()
            .unwrap()
            .into_iter()
            .find(|m| m.login == alice_login)
            .unwrap()
            .gangs
            .into_iter()
            .map(GangId)
            .collect();
        let typed: Vec<Event> = serde_json::from_str(events).unwrap();
        let predicted = league::may_append(&places.reach(&typed), &mine, false);
        let head = alice.head().unwrap();
        let pushed = alice.push(head, &[batch(&format!("candidate-{i}"), events)]);
        match (predicted, pushed) {
            (Ok(()), Ok(_)) => {}
            (Err(refusal), Err(PushError::Refused { reason, .. })) => {
                assert_eq!(reason, refusal.to_string(), "candidate {i}")
            }
            (predicted, pushed) => {
                panic!("candidate {i}: predicted {predicted:?}, the server said {pushed:?}")
            }
        }
    }
}

/// Inserts a batch taking back `undoes`, with no events, as `client`'s
/// login.
fn raw_undo(
    client: &mut postgres::Client,
    seq: i64,
    uid: &str,
    undoes: i64,
) -> Result<u64, postgres::Error> {
    client.execute(
        "INSERT INTO league.batch (seq, uid, author, received, at, label, undoes, events,
                                   touched_gangs, record_gangs, campaign_wide)
         VALUES ($1, $2, '', now(), 'now', 'undo', $3, '[]'::json, '{}', NULL, false)",
        &[&seq, &uid, &undoes],
    )
}

/// Only a change's author, or the organiser, takes it back: a member's
/// undo of another member's change is refused by the server itself.
#[test]
fn only_its_author_or_the_organiser_takes_a_change_back() {
    let name = "undo_author";
    let (test, mut league, password) = league_of_two(name);
    let login = |who: &str| format!("{name}_{who}");
    let mut alice = cluster()
        .client(&test.as_login(&login("alice")), &password)
        .unwrap();
    let carol_password = league.invite(&login("carol"), &[3]).unwrap();
    let mut carol = cluster()
        .client(&test.as_login(&login("carol")), &carol_password)
        .unwrap();
    let alices = league.head().unwrap() + 1;
    raw_insert(&mut alice, alices, "alices", &list(&[resource(1)])).unwrap();
    // Carol marks Alice's change as taken back: refused.
    let error = raw_undo(&mut carol, alices + 1, "carols-undo", alices).unwrap_err();
    assert_eq!(error.code().unwrap().code(), "42501", "{error}");
    assert!(
        format!("{error:?}").contains("another member's"),
        "{error:?}"
    );
    // Alice takes back her own; the organiser may take back anyone's.
    raw_undo(&mut alice, alices + 1, "alices-undo", alices).unwrap();
    let mut organiser = cluster().client(&test.address, &test.password).unwrap();
    raw_undo(&mut organiser, alices + 2, "organisers-undo", alices + 1).unwrap();
}

/// A fake record that renames a rival's gang and writes its notes is
/// refused by the server: a record carries only what a record's
/// procedure writes.
#[test]
fn a_record_carries_only_what_a_records_rules_write() {
    let name = "record_kinds";
    let (test, mut league, password) = league_of_two(name);
    let mut alice = cluster()
        .client(&test.as_login(&format!("{name}_alice")), &password)
        .unwrap();
    let head = league.head().unwrap();
    let with = |extra: &str| list(&[record(head + 1, &[1, 2]), extra.to_owned()]);
    for stray in [
        r#"{"type":"gang_renamed","gang":2,"from":"B","to":"Mine"}"#,
        r#"{"type":"gang_notes_changed","gang":2,"from":"","to":"owned"}"#,
    ] {
        let error = raw_insert(&mut alice, head + 1, "fake", &with(stray)).unwrap_err();
        assert_eq!(error.code().unwrap().code(), "42501", "{error:?}");
        assert!(
            format!("{error:?}").contains("a record does not carry"),
            "{error:?}"
        );
    }
    // The record alone goes in.
    raw_insert(
        &mut alice,
        head + 1,
        "real",
        &list(&[record(head + 1, &[1, 2])]),
    )
    .unwrap();
}
