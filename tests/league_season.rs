#![allow(clippy::unwrap_used, clippy::expect_used)]

//! A season in a league: one tide of Brackwater (`tests/packs`, kept in
//! the campaign, each crew's tide one clash) played on two laptops
//! offline and synced, in both orders. The clash synced second is made
//! again where the league stands, completes the tide, and ends it: once,
//! in that clash's change, identically on every laptop, whichever laptop
//! recorded it. Against the real PostgreSQL the tests start.

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
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/brackwater.toml"),
    )
    .unwrap()
    .replace("limit = 2", "limit = 1");
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
