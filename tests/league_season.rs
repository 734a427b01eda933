#![allow(clippy::unwrap_used, clippy::expect_used)]

//! A season in a league: one tide of Brackwater (`tests/packs`, kept in
//! the campaign, each crew's tide one clash) played on two laptops
//! offline and synced, in both orders. The clash synced second is made
//! again where the league stands, completes the tide, and ends it: once,
//! in that clash's change, identically on every laptop, whichever laptop
//! recorded it. Then a club's tide on three laptops: the organiser's
//! tide-list, call-outs issued, declined for their mooring, accepted and
//! played, one left unanswered to lapse at the tide's end, the clashes
//! recorded offline and synced in both orders; and a clash synced after
//! its tide ended, counted in the next or refused as the game says, alike
//! everywhere. Against the real PostgreSQL the tests start.

#[path = "util/laptops.rs"]
mod laptops;
mod util;

use std::path::Path;

use std::collections::BTreeSet;

use laptops::{Laptop, member, organised_as};
use rapsheet::campaign::league::Places;
use rapsheet::campaign::{Event, GangId};
use serde_json::{Value, json};

/// Brackwater with tides of one clash a crew, kept in the campaign.
fn one_clash_a_tide(dir: &Path) -> std::path::PathBuf {
    one_clash_a_tide_late(dir, "next")
}

/// [`one_clash_a_tide`], a clash of a tide that has ended counted as
/// `late` says.
fn one_clash_a_tide_late(dir: &Path, late: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/brackwater.toml"),
    )
    .unwrap()
    .replace("limit = 2", "limit = 1")
    .replace("late = \"next\"", &format!("late = \"{late}\""));
    let path = dir.join("brackwater.toml");
    std::fs::write(&path, text).unwrap();
    path
}

const CREWS: [(&str, &str, Option<&str>); 4] = [
    ("Ferrymen of Cinder", "lanterns", Some("Cinder Quay")),
    ("Eel Wives", "drowned", None),
    ("Grey Oars", "lanterns", None),
    ("Silt Kings", "drowned", None),
];

/// The organiser's campaign, made a league's: the game kept in it (so
/// every laptop plays it), four crews of two, each in its guild, two on
/// the moorings they start with.
fn season(root: &Path, name: &str) -> (Laptop, util::postgres::TestLeague) {
    let organiser = Laptop::new(root, "organiser");
    let pack = one_clash_a_tide(&organiser.home);
    let pack = pack.to_str().unwrap();
    // Made with a game of the build's, then the group's own game kept in
    // it and played: every laptop reads the log in that order.
    organiser.ok(&["new", "--name", "A League Tide"]);
    organiser.ok(&["--pack", pack, "house", "keep", "brackwater.toml"]);
    organiser.ok(&["ruleset", "brackwater"]);
    for (crew, guild, mooring) in CREWS {
        let mut args = vec!["gang", "new", crew, "--faction", guild];
        if let Some(m) = mooring {
            args.extend(["--holding", m]);
        }
        organiser.ok(&args);
        for n in 1..=2 {
            let who = format!("{}{n}", &crew[..1]);
            let mut add = vec!["fighter", "add", who.as_str(), "--gang", crew];
            if n == 1 {
                add.push("--leader");
            }
            organiser.ok(&add);
        }
    }
    organised_as(root, name, &["verify"], &[])
}

fn crew_coin(laptop: &Laptop, crew: &str) -> i64 {
    let view: Value = serde_json::from_str(&laptop.ok(&["gang", "show", crew, "--json"])).unwrap();
    view["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "coin")
        .unwrap()["amount"]
        .as_i64()
        .unwrap()
}

fn cycle(laptop: &Laptop) -> Value {
    serde_json::from_str(&laptop.ok(&["cycle", "show", "--json"])).unwrap()
}

fn clash(laptop: &Laptop, file: &str, challenger: &str, defender: &str) -> String {
    std::fs::write(
        laptop.home.join(file),
        json!({"shape": "Challenge", "winner": challenger, "gangs": [
            {"gang": challenger, "challenger": true}, {"gang": defender}]})
        .to_string(),
    )
    .unwrap();
    laptop.ok(&["battle", "record", file, "--seed", "7"])
}

/// The cycle's ends on the server: the batches that carry one.
fn ends_on_server(league: &util::postgres::TestLeague) -> Vec<i64> {
    let mut client = util::postgres::cluster()
        .client(&league.address, &league.password)
        .unwrap();
    client
        .query(
            "SELECT seq FROM league.batch WHERE events::text LIKE '%\"cycle_ended\"%' ORDER BY seq",
            &[],
        )
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect()
}

/// Every batch on the server reaches the gangs the laptop's map says (the
/// server derives what a batch touches; a laptop must agree), and the
/// kinds of event the server holds.
fn reach_agrees(league: &util::postgres::TestLeague) -> BTreeSet<&'static str> {
    let mut client = util::postgres::cluster()
        .client(&league.address, &league.password)
        .unwrap();
    let rows = client
        .query(
            "SELECT seq, events::text, touched_gangs, record_gangs, campaign_wide
             FROM league.batch ORDER BY seq",
            &[],
        )
        .unwrap();
    let gangs = |ids: Vec<i64>| ids.into_iter().map(GangId).collect::<BTreeSet<_>>();
    let mut places = Places::default();
    let mut kinds = BTreeSet::new();
    for row in rows {
        let seq: i64 = row.get(0);
        let events: Vec<Event> = serde_json::from_str(row.get::<_, &str>(1)).unwrap();
        let reach = places.take(&events);
        assert_eq!(reach.touched, gangs(row.get(2)), "batch {seq}");
        assert_eq!(
            reach.record,
            row.get::<_, Option<Vec<i64>>>(3).map(gangs),
            "batch {seq}"
        );
        assert_eq!(reach.campaign_wide, row.get::<_, bool>(4), "batch {seq}");
        kinds.extend(events.iter().map(Event::kind));
    }
    kinds
}

/// Two members play the tide's two clashes offline; `first` syncs first.
fn a_tide_on_two_laptops(name: &str, first_is_ferrymen: bool) {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = season(root, name);
    let ferrymen = member(root, &organiser, &league, "ferry", "Ferrymen of Cinder");
    let oars = member(root, &organiser, &league, "oars", "Grey Oars");
    assert_eq!(cycle(&ferrymen)["said"], "Tide 1");

    // Offline, each records its crew's clash: on its own laptop, neither
    // completes the tide.
    let out = clash(&ferrymen, "c1.json", "Ferrymen of Cinder", "Eel Wives");
    assert!(!out.contains("Tide 1 ends"), "{out}");
    let out = clash(&oars, "c2.json", "Grey Oars", "Silt Kings");
    assert!(!out.contains("Tide 1 ends"), "{out}");

    let (first, second) = if first_is_ferrymen {
        (&ferrymen, &oars)
    } else {
        (&oars, &ferrymen)
    };
    first.ok(&["league", "sync"]);
    // The second's clash, made again on top of the first's, completes
    // the tide: its change carries the end.
    second.ok(&["league", "sync"]);
    first.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    assert_eq!(ends_on_server(&league).len(), 1, "the tide ends once");
    for laptop in [&ferrymen, &oars, &organiser] {
        let now = cycle(laptop);
        assert_eq!(now["said"], "Tide 2", "{}", laptop.home.display());
        assert!(
            now["played"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["played"] == 0)
        );
        // Coin 6; the winners +2 and the loser's 1; the tide's dues +1,
        // and Cinder Quay's 3 to the Ferrymen.
        assert_eq!(crew_coin(laptop, "Ferrymen of Cinder"), 6 + 2 + 1 + 3 + 1);
        assert_eq!(crew_coin(laptop, "Eel Wives"), 6 - 1 + 1);
        assert_eq!(crew_coin(laptop, "Grey Oars"), 6 + 2 + 1 + 1);
        assert_eq!(crew_coin(laptop, "Silt Kings"), 6 - 1 + 1);
        laptop.ok(&["verify"]);
    }
    let stories: Vec<Vec<u8>> = [&ferrymen, &oars, &organiser]
        .iter()
        .enumerate()
        .map(|(i, l)| l.chronicle(&format!("story{i}.json")))
        .collect();
    assert!(
        stories.windows(2).all(|w| w[0] == w[1]),
        "every laptop tells it alike"
    );
    laptops::exactly_once(&league, &[&ferrymen, &oars, &organiser]);

    // By hand, a crew gives up its mooring and changes its guild, and
    // the organiser gives the mooring to another; then takes back the
    // clash that ended the tide, and it reopens everywhere.
    ferrymen.ok(&["holding", "take", "Cinder Quay", "--reason", "sold"]);
    ferrymen.ok(&["gang", "faction", "Ferrymen of Cinder", "drowned"]);
    ferrymen.ok(&["league", "sync"]);
    organiser.ok(&["league", "sync"]);
    organiser.ok(&[
        "holding",
        "give",
        "Cinder Quay",
        "Grey Oars",
        "--reason",
        "bought",
    ]);
    let undone = organiser.ok(&["undo", "--change", &ends_on_server(&league)[0].to_string()]);
    assert!(undone.contains("Undo: Clash"), "{undone}");
    organiser.ok(&["league", "sync"]);
    for laptop in [&ferrymen, &oars] {
        laptop.ok(&["league", "sync"]);
        assert_eq!(cycle(laptop)["said"], "Tide 1");
        laptop.ok(&["verify"]);
    }
    let kinds = reach_agrees(&league);
    for kind in [
        "holding_changed",
        "cycle_ended",
        "cycle_reopened",
        "gang_faction_changed",
        "faction_title_changed",
    ] {
        assert!(kinds.contains(kind), "{kind} never reached the server");
    }
}

#[test]
fn a_tide_ends_once_when_the_ferrymen_sync_first() {
    a_tide_on_two_laptops("season_a", true);
}

#[test]
fn a_tide_ends_once_when_the_grey_oars_sync_first() {
    a_tide_on_two_laptops("season_b", false);
}

/// A club's league of Brackwater (tides of one clash a crew, `late` as
/// given): the organiser's campaign with `crews`, each of the guild given
/// and two smugglers, made a league's; and a member for each of
/// `members`, given their crews.
fn club(
    root: &Path,
    name: &str,
    late: &str,
    crews: &[(&str, &str)],
    members: &[(&str, &[&str])],
) -> (Laptop, util::postgres::TestLeague, Vec<Laptop>) {
    let organiser = Laptop::new(root, "organiser");
    let pack = one_clash_a_tide_late(&organiser.home, late);
    let pack = pack.to_str().unwrap();
    organiser.ok(&["new", "--name", "A Club's Tide"]);
    organiser.ok(&["--pack", pack, "house", "keep", "brackwater.toml"]);
    organiser.ok(&["ruleset", "brackwater"]);
    for (i, (crew, guild)) in crews.iter().enumerate() {
        organiser.ok(&["gang", "new", crew, "--faction", guild]);
        for n in 1..=2 {
            let who = format!("S{i}-{n}");
            let mut add = vec!["fighter", "add", who.as_str(), "--gang", crew];
            if n == 1 {
                add.push("--leader");
            }
            organiser.ok(&add);
        }
    }
    let (organiser, league) = organised_as(root, name, &["verify"], &[]);
    let laptops = members
        .iter()
        .map(|(login, theirs)| {
            let laptop = member(root, &organiser, &league, login, theirs[0]);
            for crew in &theirs[1..] {
                let login = format!("{}_{login}", league.address.database);
                organiser.ok(&["league", "give", &login, "--gang", crew]);
            }
            laptop
        })
        .collect();
    (organiser, league, laptops)
}

/// A clash that plays call-out `n`, won by its challenger.
fn called_out(laptop: &Laptop, file: &str, n: i64, challenger: &str, defender: &str) -> String {
    std::fs::write(
        laptop.home.join(file),
        json!({"challenge": n, "winner": challenger, "gangs": [
            {"gang": challenger}, {"gang": defender}]})
        .to_string(),
    )
    .unwrap();
    laptop.ok(&["battle", "record", file, "--seed", "7"])
}

fn holder(laptop: &Laptop, mooring: &str) -> Option<String> {
    let view: Value = serde_json::from_str(&laptop.ok(&["holding", "list", "--json"])).unwrap();
    view["holdings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == mooring)
        .and_then(|h| h["holder"].as_str().map(str::to_owned))
}

fn call_outs(laptop: &Laptop) -> Vec<(i64, String)> {
    let view: Value = serde_json::from_str(&laptop.ok(&["challenge", "list", "--json"])).unwrap();
    let mut out: Vec<(i64, String)> = view["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let status = if l["played"].is_null() {
                l["status"].as_str().unwrap().to_owned()
            } else {
                "played".to_owned()
            };
            (l["id"].as_i64().unwrap(), status)
        })
        .collect();
    out.sort();
    out
}

/// The batches on the server holding an event of `kind`.
fn on_server(league: &util::postgres::TestLeague, kind: &str) -> Vec<i64> {
    let mut client = util::postgres::cluster()
        .client(&league.address, &league.password)
        .unwrap();
    client
        .query(
            "SELECT seq FROM league.batch WHERE events::text LIKE $1 ORDER BY seq",
            &[&format!("%\"{kind}\"%")],
        )
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect()
}

const SIX: [(&str, &str); 6] = [
    ("Ferrymen of Cinder", "lanterns"),
    ("Eel Wives", "drowned"),
    ("Grey Oars", "lanterns"),
    ("Silt Kings", "drowned"),
    ("Mud Larks", "lanterns"),
    ("Salt Widows", "drowned"),
];

/// A club's tide on three laptops. The organiser posts the tide-list.
/// Ann's Ferrymen call out Cat's Mud Larks over The Weir, and are refused
/// it: the mooring is theirs, in the refusal's change. Ben's Grey Oars
/// call out the Salt Widows over Lantern Steps, accepted; Ann's Eel Wives
/// call out the Silt Kings over Eelgate, never answered. Then each records
/// a clash offline (Ben's plays his call-out) and they sync in `order`:
/// the last completes the tide and ends it once, the unanswered call-out
/// lapsing as refused in the same change; every laptop ends alike.
fn a_clubs_tide_on_three_laptops(name: &str, order: [usize; 3]) {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league, laptops) = club(
        root,
        name,
        "next",
        &SIX,
        &[
            ("ann", &["Ferrymen of Cinder", "Eel Wives"]),
            ("ben", &["Grey Oars", "Silt Kings"]),
            ("cat", &["Mud Larks", "Salt Widows"]),
        ],
    );
    let [ann, ben, cat] = [&laptops[0], &laptops[1], &laptops[2]];
    let everyone = [&organiser, ann, ben, cat];
    let sync_all = || {
        for laptop in everyone {
            laptop.ok(&["league", "sync"]);
        }
    };
    // The tide-list is the organiser's: a member's is refused here.
    let e = ann.run(&["pairings", "make", "--by", "round-robin"]);
    assert!(!e.status.success());
    assert!(
        util::stderr(&e).contains("only the league's organiser makes the Tide-list"),
        "{}",
        util::stderr(&e)
    );
    organiser.ok(&["pairings", "make", "--by", "round-robin"]);
    sync_all();
    let list: Value = serde_json::from_str(&cat.ok(&["pairings", "show", "--json"])).unwrap();
    assert_eq!(list["made"]["pairs"].as_array().unwrap().len(), 3);

    // Call-outs, each synced before the next.
    ann.ok(&[
        "challenge",
        "issue",
        "Ferrymen of Cinder",
        "Mud Larks",
        "--stake",
        "The Weir",
    ]);
    ann.ok(&["league", "sync"]);
    ben.ok(&[
        "challenge",
        "issue",
        "Grey Oars",
        "Salt Widows",
        "--stake",
        "Lantern Steps",
    ]);
    ben.ok(&["league", "sync"]);
    cat.ok(&["league", "sync"]);
    let table: Value = serde_json::from_str(&cat.ok(&["season", "--json"])).unwrap();
    let to_answer: Vec<i64> = table["challenges"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["to_answer"] == true)
        .map(|l| l["id"].as_i64().unwrap())
        .collect();
    assert_eq!(to_answer, [2, 1], "both are Cat's to answer");
    // Only the defender's member answers.
    ann.ok(&["league", "sync"]);
    let e = ann.run(&["challenge", "answer", "2", "--accept"]);
    assert!(
        util::stderr(&e).contains("Salt Widows is not yours in the league"),
        "{}",
        util::stderr(&e)
    );
    let refused = cat.ok(&["challenge", "answer", "1", "--decline"]);
    assert!(
        refused.contains("Ferrymen of Cinder took The Weir (Call-out #1 declined)"),
        "{refused}"
    );
    cat.ok(&["challenge", "answer", "2", "--accept"]);
    cat.ok(&["league", "sync"]);
    ann.ok(&["league", "sync"]);
    ann.ok(&[
        "challenge",
        "issue",
        "Eel Wives",
        "Silt Kings",
        "--stake",
        "Eelgate",
    ]);
    sync_all();
    assert_eq!(
        holder(ben, "The Weir").as_deref(),
        Some("Ferrymen of Cinder")
    );

    // Offline, each records one clash: all six crews once.
    let out = clash(ann, "a.json", "Ferrymen of Cinder", "Silt Kings");
    assert!(!out.contains("Tide 1 ends"), "{out}");
    let out = called_out(ben, "b.json", 2, "Grey Oars", "Salt Widows");
    assert!(
        out.contains("takes Lantern Steps from") || out.contains("takes Lantern Steps"),
        "{out}"
    );
    let out = clash(cat, "c.json", "Mud Larks", "Eel Wives");
    assert!(!out.contains("Tide 1 ends"), "{out}");
    let members = [ann, ben, cat];
    for i in order {
        members[i].ok(&["league", "sync"]);
    }
    let mut heard = String::new();
    for laptop in everyone {
        heard.push_str(&laptop.ok(&["league", "sync"]));
    }
    assert!(heard.contains("Tide 1 ended"), "{heard}");
    assert!(heard.contains("came in: "), "{heard}");
    assert_eq!(
        on_server(&league, "cycle_ended").len(),
        1,
        "the tide ends once"
    );
    assert_eq!(
        on_server(&league, "challenge_lapsed"),
        on_server(&league, "cycle_ended"),
        "the call-out lapses in the change that ends the tide"
    );
    for laptop in everyone {
        assert_eq!(cycle(laptop)["said"], "Tide 2", "{}", laptop.home.display());
        assert_eq!(
            call_outs(laptop),
            [
                (1, "declined".to_owned()),
                (2, "played".to_owned()),
                (3, "lapsed".to_owned())
            ]
        );
        // Refused, the mooring goes to the challenger: Eelgate, unanswered
        // at the tide's end, counts as refused.
        assert_eq!(
            holder(laptop, "The Weir").as_deref(),
            Some("Ferrymen of Cinder")
        );
        assert_eq!(
            holder(laptop, "Lantern Steps").as_deref(),
            Some("Grey Oars")
        );
        assert_eq!(holder(laptop, "Eelgate").as_deref(), Some("Eel Wives"));
        laptop.ok(&["verify"]);
    }
    let stories: Vec<Vec<u8>> = everyone
        .iter()
        .enumerate()
        .map(|(i, l)| l.chronicle(&format!("story{i}.json")))
        .collect();
    assert!(
        stories.windows(2).all(|w| w[0] == w[1]),
        "every laptop tells it alike"
    );
    laptops::exactly_once(&league, &everyone);
    // The next tide's list, by the standings: every crew in it.
    organiser.ok(&["pairings", "make", "--by", "standings"]);
    organiser.ok(&["league", "sync"]);
    let heard = ben.ok(&["league", "sync"]);
    assert!(heard.contains("the Tide-list of Tide 2 made"), "{heard}");
    let list: Value = serde_json::from_str(&ben.ok(&["pairings", "show", "--json"])).unwrap();
    assert_eq!(list["said"], "Tide 2");
    assert_eq!(list["made"]["pairs"].as_array().unwrap().len(), 3);
    let kinds = reach_agrees(&league);
    for kind in [
        "challenge_issued",
        "challenge_answered",
        "challenge_lapsed",
        "pairings_made",
    ] {
        assert!(kinds.contains(kind), "{kind} never reached the server");
    }
}

#[test]
fn a_clubs_tide_ends_once_synced_ann_ben_cat() {
    a_clubs_tide_on_three_laptops("club_a", [0, 1, 2]);
}

#[test]
fn a_clubs_tide_ends_once_synced_cat_ben_ann() {
    a_clubs_tide_on_three_laptops("club_b", [2, 1, 0]);
}

/// Four crews, three members. Offline, Ann and Cat record the clashes
/// that complete Tide 1; Ben, who has not heard, records one of his crew
/// in Tide 1 too, and syncs last. With `late = "next"` it counts in Tide 2
/// on every laptop; with `late = "refused"` his own sync stops, naming it
/// to take back, and the same clash put on the server past the app is
/// left out alike on every laptop.
fn a_clash_synced_late(name: &str, late: &str) {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league, laptops) = club(
        root,
        name,
        late,
        &SIX[..4],
        &[
            ("ann", &["Ferrymen of Cinder"]),
            ("ben", &["Grey Oars"]),
            ("cat", &["Eel Wives", "Silt Kings"]),
        ],
    );
    let [ann, ben, cat] = [&laptops[0], &laptops[1], &laptops[2]];
    clash(ann, "a.json", "Ferrymen of Cinder", "Silt Kings");
    clash(cat, "c.json", "Eel Wives", "Grey Oars");
    let late_clash = clash(ben, "b.json", "Grey Oars", "Ferrymen of Cinder");
    assert!(!late_clash.contains("Tide 1 ends"), "{late_clash}");
    ann.ok(&["league", "sync"]);
    cat.ok(&["league", "sync"]);
    if late == "next" {
        ben.ok(&["league", "sync"]);
        for laptop in [&organiser, ann, ben, cat] {
            laptop.ok(&["league", "sync"]);
            let now = cycle(laptop);
            assert_eq!(now["said"], "Tide 2");
            let played: Vec<(String, i64)> = now["played"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p["gang"].as_str().unwrap().to_owned(),
                        p["played"].as_i64().unwrap(),
                    )
                })
                .collect();
            assert!(played.contains(&("Grey Oars".to_owned(), 1)), "{played:?}");
            assert!(
                played.contains(&("Ferrymen of Cinder".to_owned(), 1)),
                "{played:?}"
            );
            laptop.ok(&["verify"]);
        }
        laptops::exactly_once(&league, &[&organiser, ann, ben, cat]);
        return;
    }
    // Refused: Ben's sync stops, nothing changed, naming the clash.
    let number = ben.batches();
    let events: String = {
        let session = rapsheet::session::Session::open(&ben.file()).unwrap();
        let (_, events) = session.batch(rapsheet::campaign::BatchId(number)).unwrap();
        serde_json::to_string(&events).unwrap()
    };
    let out = ben.run(&["league", "sync"]);
    assert!(!out.status.success());
    let said = util::stderr(&out);
    assert!(
        said.contains("no longer plays")
            && said.contains("Tide 1 has ended; a clash of it is no longer taken (this is Tide 2)")
            && said.contains(&format!("rapsheet undo --change {number}")),
        "{said}"
    );
    // Put on the server in Ben's name past the app: left out alike.
    let login = format!("{}_ben", league.address.database);
    let mut as_ben = util::postgres::cluster()
        .client(&league.as_login(&login), &ben.password())
        .unwrap();
    laptops::insert_raw(
        &mut as_ben,
        Some(&ben.private_key()),
        "late-clash",
        "Clash of a tide gone",
        &events,
    )
    .expect("the server cannot tell a record's tide");
    ben.ok(&["undo", "--change", &number.to_string()]);
    for laptop in [&organiser, ann, ben, cat] {
        let synced = laptop.ok(&["league", "sync"]);
        assert!(
            synced.contains("left out: Clash of a tide gone")
                && synced.contains("Tide 1 has ended; a clash of it is no longer taken"),
            "{synced}"
        );
        assert_eq!(cycle(laptop)["said"], "Tide 2");
        assert!(
            cycle(laptop)["played"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["played"] == 0)
        );
        laptop.ok(&["verify"]);
    }
    laptops::exactly_once(&league, &[&organiser, ann, ben, cat]);
}

#[test]
fn a_clash_synced_after_its_tide_counts_in_the_next() {
    a_clash_synced_late("late_next", "next");
}

#[test]
fn a_clash_synced_after_its_tide_is_refused_alike_everywhere() {
    a_clash_synced_late("late_refused", "refused");
}

/// A gang's id on the league's server, by the login that owns it (the
/// first of theirs).
fn crew_of(client: &mut postgres::Client, login: &str) -> i64 {
    client
        .query_one(
            "SELECT min(gang) FROM league.gang_owner WHERE login = $1",
            &[&login],
        )
        .unwrap()
        .get(0)
}

/// What the server said, refusing a raw batch.
fn refusal(error: postgres::Error) -> String {
    error
        .as_db_error()
        .map_or_else(|| error.to_string(), |e| e.message().to_owned())
}

/// As members, by raw SQL past the app: a call-out issued in another
/// member's name, an answer to a call-out aimed at another member's crew,
/// a tide ended and a tide-list made are refused by the server; a clash
/// carrying a tide's end its report does not give, and a refusal carrying
/// a mooring answering does not give, are taken by the server and left
/// out alike on every laptop, which says so in the arbitrator's table.
/// The league goes on, and the table says who has not synced since.
#[test]
fn a_members_raw_sql_is_refused_or_left_out_alike_everywhere() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league, laptops) = club(
        root,
        "club_raw",
        "next",
        &SIX[..4],
        &[
            ("ann", &["Ferrymen of Cinder"]),
            ("ben", &["Grey Oars"]),
            ("cat", &["Eel Wives", "Silt Kings"]),
        ],
    );
    let [ann, ben, cat] = [&laptops[0], &laptops[1], &laptops[2]];
    let everyone = [&organiser, ann, ben, cat];
    ben.ok(&[
        "challenge",
        "issue",
        "Grey Oars",
        "Eel Wives",
        "--stake",
        "The Weir",
    ]);
    for laptop in everyone {
        laptop.ok(&["league", "sync"]);
    }
    let db = &league.address.database;
    let (ann_login, ben_login, cat_login) = (
        format!("{db}_ann"),
        format!("{db}_ben"),
        format!("{db}_cat"),
    );
    let cluster = util::postgres::cluster();
    let mut as_ann = cluster
        .client(&league.as_login(&ann_login), &ann.password())
        .unwrap();
    let mut as_cat = cluster
        .client(&league.as_login(&cat_login), &cat.password())
        .unwrap();
    let (ferry, oars) = (
        crew_of(&mut as_ann, &ann_login),
        crew_of(&mut as_ann, &ben_login),
    );
    let ann_key = ann.private_key();
    let raw = |client: &mut postgres::Client, key: &str, uid: &str, events: Value| {
        laptops::insert_raw(client, Some(key), uid, uid, &events.to_string())
    };

    // Refused by the server.
    let issued_for_ben = raw(
        &mut as_ann,
        &ann_key,
        "in-bens-name",
        json!([{"type": "challenge_issued", "challenge": {
            "id": 9, "cycle": 1, "challenger": oars, "defender": ferry, "stake": "the-weir"}}]),
    )
    .expect_err("a call-out from another member's crew");
    assert!(
        refusal(issued_for_ben).contains(&format!("it changes gang #{oars}, which is not yours")),
    );
    let answered_for_cat = raw(
        &mut as_ann,
        &ann_key,
        "answer-for-cat",
        json!([{"type": "challenge_answered", "challenge": 1, "accepted": true}]),
    )
    .expect_err("an answer to a call-out aimed at another member's crew");
    assert!(refusal(answered_for_cat).contains("which is not yours"));
    let ended = raw(
        &mut as_ann,
        &ann_key,
        "tide-ended",
        json!([{"type": "cycle_ended", "cycle": 1}]),
    )
    .expect_err("a tide ended by a member");
    assert!(
        refusal(ended).contains("it changes the whole campaign, which only the organiser does")
    );
    let listed = raw(
        &mut as_ann,
        &ann_key,
        "tide-list",
        json!([{"type": "pairings_made", "pairings": {
            "cycle": 1, "method": "random", "seed": 1, "pairs": [[ferry, oars]]}}]),
    )
    .expect_err("a tide-list made by a member");
    assert!(refusal(listed).contains("only the organiser does"));

    // Taken by the server, left out alike: Ann's clash (made on a copy
    // nobody syncs) carrying a tide's end, which it does not complete.
    let scratch = root.join("scratch");
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::copy(ann.file(), scratch.join("campaign.rapsheet")).unwrap();
    let copy = Laptop { home: scratch };
    clash(&copy, "forged.json", "Ferrymen of Cinder", "Silt Kings");
    let mut forged: Value = {
        let session = rapsheet::session::Session::open(&copy.file()).unwrap();
        let newest = session.newest_batch().unwrap().unwrap();
        serde_json::to_value(session.batch(newest).unwrap().1).unwrap()
    };
    forged
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "cycle_ended", "cycle": 1}));
    raw(&mut as_ann, &ann_key, "Forged end of the tide", forged)
        .expect("the server cannot tell a record's rules");
    // Cat refuses Ben's call-out, giving The Weir to a crew of her own.
    let silt = rapsheet::session::Session::open(&cat.file())
        .unwrap()
        .gang_named("Silt Kings")
        .unwrap()
        .id
        .0;
    raw(
        &mut as_cat,
        &cat.private_key(),
        "Forged refusal",
        json!([{"type": "challenge_answered", "challenge": 1, "accepted": false},
               {"type": "holding_changed", "holding": "the-weir", "from": null, "to": silt,
                "reason": "Call-out #1 declined"}]),
    )
    .expect("the server cannot tell what answering gives");
    for laptop in everyone {
        let synced = laptop.ok(&["league", "sync"]);
        assert!(
            synced.contains("left out: Forged end of the tide")
                && synced.contains("it carries “cycle_ended”, not given by its report and dice"),
            "{synced}"
        );
        assert!(
            synced.contains("left out: Forged refusal")
                && synced.contains("(“holding_changed”) is not the “holding_changed” given by answering the challenge"),
            "{synced}"
        );
        assert_eq!(cycle(laptop)["said"], "Tide 1");
        assert_eq!(holder(laptop, "The Weir"), None);
        assert_eq!(call_outs(laptop), [(1, "issued".to_owned())]);
    }

    // The league goes on: Cat refuses as the game says.
    let refused = cat.ok(&["challenge", "answer", "1", "--decline"]);
    assert!(refused.contains("Grey Oars took The Weir"), "{refused}");
    let heard = cat.ok(&["league", "sync"]);
    assert!(!heard.contains("left out"), "{heard}");
    organiser.ok(&["league", "sync"]);
    assert_eq!(holder(&organiser, "The Weir").as_deref(), Some("Grey Oars"));
    // The organiser's table: the changes left out, and who has not
    // synced since Cat's refusal.
    let table: Value = serde_json::from_str(&organiser.ok(&["season", "--json"])).unwrap();
    let left_out: Vec<&str> = table["league"]["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["said"].as_str().unwrap())
        .collect();
    assert_eq!(left_out.len(), 2, "{left_out:?}");
    assert!(
        left_out[0].starts_with("Forged end of the tide — "),
        "{left_out:?}"
    );
    assert_eq!(table["league"]["asked"], true);
    let behind = |login: &str| {
        table["league"]["members"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["login"] == login)
            .unwrap()["behind"]
            .as_i64()
    };
    assert_eq!(behind(&cat_login), Some(0));
    assert_eq!(behind(&ann_login), Some(1));
    assert_eq!(behind(&ben_login), Some(1));
    let shown = organiser.ok(&["season"]);
    assert!(shown.contains("Last synced (from the server)"), "{shown}");
    assert!(
        shown.contains(&format!("{ann_login}: ")) && shown.contains("1 change behind"),
        "{shown}"
    );
    assert!(shown.contains("left out: #"), "{shown}");
    for laptop in [ann, ben] {
        laptop.ok(&["league", "sync"]);
        laptop.ok(&["verify"]);
    }
    laptops::exactly_once(&league, &everyone);
}
