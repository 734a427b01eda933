//! A season of a game of its own, written only as a pack:
//! `tests/packs/brackwater.toml` (smuggler crews fighting over the
//! moorings of a drowned city, tide by tide) uses every kind of a season
//! together — moorings won and lost over a stake, paying at a tide's end,
//! giving their crew's rolls a bonus and letting only their holder hire
//! some hands; tides of two clashes a crew, ended by the clash that
//! completes them; challenges of two and brawls of three or four placed
//! first to last; the Tide Table with every tiebreaker; two guilds, one
//! of which keeps the lamp through a tie. Two whole tides (six clashes:
//! one of four crews, two of three, three of two) are played from the
//! command line, every number worked out by hand below from the pack's
//! lines, and all of it taken back to the identical campaign; a
//! challenge is recorded and a mooring given by clicking in the window.

use crate::util;

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rapsheet::session::Session;
use rapsheet::ui::RapsheetApp;
use serde_json::{Value, json};

const FERRYMEN: &str = "Ferrymen of Cinder";
const EEL_WIVES: &str = "Eel Wives";
const GREY_OARS: &str = "Grey Oars";
const SILT_KINGS: &str = "Silt Kings";

fn pack_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/brackwater.toml")
}

/// `rapsheet --pack brackwater.toml ARGS --db c.rapsheet`, which must work.
fn bw(dir: &Path, args: &[&str]) -> String {
    let pack = pack_file();
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    util::ok(dir, &all)
}

/// The same, which must be refused: its error.
fn refused(dir: &Path, args: &[&str]) -> String {
    let pack = pack_file();
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", "c.rapsheet"]);
    let out = util::rapsheet(dir, &all);
    assert!(!out.status.success(), "{args:?} was not refused");
    util::stderr(&out)
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.push("--json");
    serde_json::from_str(&bw(dir, &args)).unwrap()
}

fn crew(dir: &Path, name: &str) -> Value {
    json(dir, &["gang", "show", name])
}

/// Coin, Heat and Renown of a crew.
fn purse(dir: &Path, name: &str) -> [i64; 3] {
    let crew = crew(dir, name);
    let amount = |id: &str| {
        crew["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()["amount"]
            .as_i64()
            .unwrap()
    };
    [amount("coin"), amount("heat"), amount("renown")]
}

/// Each smuggler's Wake, in roster order.
fn wake(dir: &Path, name: &str) -> Vec<(String, i64)> {
    crew(dir, name)["fighters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap().to_owned(),
                f["counters"]["wake"].as_i64().unwrap_or(0),
            )
        })
        .collect()
}

/// Who holds each mooring, in the pack's order (`None`: unclaimed).
fn holders(dir: &Path) -> Vec<Option<String>> {
    json(dir, &["holding", "list"])["holdings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["holder"].as_str().map(str::to_owned))
        .collect()
}

/// The Tide Table: (place, shared, crew, [renown, moorings, clashes]).
fn table(dir: &Path) -> Vec<(u64, bool, String, Vec<i64>)> {
    json(dir, &["standings"])["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["place"].as_u64().unwrap(),
                l["shared"].as_bool().unwrap(),
                l["gang"].as_str().unwrap().to_owned(),
                l["values"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(Value::as_i64)
                    .collect(),
            )
        })
        .collect()
}

/// Who holds each title: (title, holder), the crews' and the guilds'.
fn titles(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in [FERRYMEN, EEL_WIVES, GREY_OARS, SILT_KINGS] {
        for t in crew(dir, name)["titles"].as_array().unwrap() {
            out.push((t.as_str().unwrap().to_owned(), name.to_owned()));
        }
    }
    out.sort();
    out
}

fn clash(dir: &Path, n: u32, report: Value) -> String {
    let file = format!("clash{n}.json");
    std::fs::write(dir.join(&file), report.to_string()).unwrap();
    bw(dir, &["battle", "record", &file, "--seed", &n.to_string()])
}

fn says(out: &str, lines: &[&str]) {
    for line in lines {
        assert!(
            out.contains(&format!("  {line}\n")),
            "no “{line}” in\n{out}"
        );
    }
}

fn open(dir: &Path) -> Session {
    let packs = rapsheet::session::registry_with(&[pack_file()]).unwrap();
    Session::open_with(&dir.join("c.rapsheet"), packs).unwrap()
}

/// The four crews, each sworn to a guild, the first two on the moorings
/// a crew may start with: the Ferrymen of Cinder (Maro, skipper and
/// Oarsman; Pike, Deckhand) on Cinder Quay, the Eel Wives (Yara; Dell) on
/// Eelgate, the Grey Oars (Corin, with a Boat Hook; Mab) and the Silt
/// Kings (Tove; Ness).
fn four_crews(d: &Path) {
    bw(
        d,
        &[
            "new",
            "--ruleset",
            "brackwater",
            "--name",
            "The Drowned Season",
        ],
    );
    for (name, guild, mooring) in [
        (FERRYMEN, "The Lantern Guild", Some("Cinder Quay")),
        (EEL_WIVES, "The Drowned Court", Some("Eelgate")),
        (GREY_OARS, "lanterns", None),
        (SILT_KINGS, "drowned", None),
    ] {
        let mut args = vec!["gang", "new", name, "--faction", guild];
        if let Some(m) = mooring {
            args.extend(["--holding", m]);
        }
        bw(d, &args);
    }
    for (name, crew, kit) in [
        ("Maro", FERRYMEN, &["--leader", "--quirk", "oarsman"][..]),
        ("Pike", FERRYMEN, &["--quirk", "deckhand"][..]),
        ("Yara", EEL_WIVES, &["--leader", "--quirk", "oarsman"][..]),
        ("Dell", EEL_WIVES, &["--quirk", "deckhand"][..]),
        (
            "Corin",
            GREY_OARS,
            &["--leader", "--quirk", "oarsman", "--quirk", "boat-hook"][..],
        ),
        ("Mab", GREY_OARS, &["--quirk", "deckhand"][..]),
        ("Tove", SILT_KINGS, &["--leader", "--quirk", "oarsman"][..]),
        ("Ness", SILT_KINGS, &["--quirk", "deckhand"][..]),
    ] {
        let mut args = vec!["fighter", "add", name, "--gang", crew];
        args.extend_from_slice(kit);
        bw(d, &args);
    }
}

#[test]
fn two_tides_of_brackwater_from_the_command_line() {
    let dir = util::temp();
    let d = dir.path();
    bw(
        d,
        &[
            "new",
            "--ruleset",
            "brackwater",
            "--name",
            "The Drowned Season",
        ],
    );
    // "Every crew swears to one of the two guilds."
    let e = refused(d, &["gang", "new", "Nobodies"]);
    assert!(
        e.contains(
            "faction: missing: every crew belongs to a guild (The Lantern Guild, The Drowned Court)"
        ),
        "{e}"
    );
    std::fs::remove_file(d.join("c.rapsheet")).unwrap();
    four_crews(d);
    // A mooring held, or one no crew starts with, is not a start.
    let e = refused(
        d,
        &[
            "gang",
            "new",
            "Thieves",
            "--faction",
            "drowned",
            "--holding",
            "Cinder Quay",
        ],
    );
    assert!(e.contains("holding: Cinder Quay is held already"), "{e}");
    let e = refused(
        d,
        &[
            "gang",
            "new",
            "Thieves",
            "--faction",
            "drowned",
            "--holding",
            "The Weir",
        ],
    );
    assert!(
        e.contains("holding: a crew does not start with The Weir"),
        "{e}"
    );
    // "only its crew buys harpoons"; "only that crew hires Lamplighters";
    // "Only Lamplighters carry the tide charms." Nothing is changed.
    let e = refused(
        d,
        &[
            "fighter",
            "add",
            "Quill",
            "--gang",
            GREY_OARS,
            "--quirk",
            "deckhand",
            "--quirk",
            "harpoon-gun",
        ],
    );
    assert!(
        e.contains("only the crew holding The Weir may recruit Harpoon Gun"),
        "{e}"
    );
    let e = refused(
        d,
        &[
            "gang",
            "add-group",
            GREY_OARS,
            "--kind",
            "lamplighters",
            "--name",
            "Wicks",
            "--member",
            "Ash",
            "--member",
            "Bram",
        ],
    );
    assert!(
        e.contains("only the crew holding Lantern Steps may recruit Lamplighters"),
        "{e}"
    );
    let e = refused(
        d,
        &[
            "fighter",
            "add",
            "Quill",
            "--gang",
            GREY_OARS,
            "--quirk",
            "tide-charm",
        ],
    );
    assert!(
        e.contains("only a member of Lamplighters may take Tide Charm"),
        "{e}"
    );
    assert_eq!(wake(d, GREY_OARS).len(), 2);

    // "A crew sets out with one or two Oarsmen; after its first clash it
    // hires whom it likes": a third Oarsman is a problem of a crew that
    // has not yet clashed.
    for name in ["Hew", "Ivo"] {
        bw(
            d,
            &[
                "fighter", "add", name, "--gang", GREY_OARS, "--quirk", "oarsman",
            ],
        );
    }
    let oars = crew(d, GREY_OARS);
    assert!(
        oars["problems"]
            .to_string()
            .contains("A crew sets out with one or two Oarsmen (3 smugglers have Oarsman)"),
        "{oars}"
    );
    bw(d, &["undo"]);
    bw(d, &["undo"]);
    let before = open(d).dump().unwrap();

    assert_eq!(
        holders(d),
        [Some(FERRYMEN.into()), Some(EEL_WIVES.into()), None, None]
    );
    // Before any clash every crew is level on Renown: places shared.
    assert_eq!(
        table(d).iter().map(|l| (l.0, l.1)).collect::<Vec<_>>(),
        [(1, true), (1, true), (3, true), (3, true)]
    );

    // ---- Tide 1 -------------------------------------------------------
    // Clash 1, a Brawl of four for The Weir (unclaimed): the Grey Oars
    // first, the Ferrymen second, the Silt Kings third, the Eel Wives
    // last. Maro sunk by Tove (dice 1), Pike holed, Ness soaked.
    let out = clash(
        d,
        1,
        json!({"shape": "Brawl", "stake": "The Weir", "gangs": [
            {"gang": FERRYMEN, "place": 2, "fighters": [
                {"fighter": "Maro", "outcome": "sunk", "downed_by": "Tove"},
                {"fighter": "Pike", "outcome": "holed"}]},
            {"gang": EEL_WIVES, "place": 4},
            {"gang": GREY_OARS, "place": 1},
            {"gang": SILT_KINGS, "place": 3, "fighters": [
                {"fighter": "Tove"}, {"fighter": "Ness", "outcome": "soaked"}]}],
         "dice": [{"roll": "mending: Maro", "faces": [1]}]}),
    );
    says(
        &out,
        &[
            // "The crew placed last pays the first 1 Coin".
            "Grey Oars: takes 1 Coin from Eel Wives",
            // "A holed smuggler is laid up until the tide turns."
            "Ferrymen of Cinder: Pike is laid up until the tide ends",
            "Silt Kings: Ness: Soaked lasts until the tide ends",
            // "its fires give +1 to its crew's Mending rolls": a 1, which
            // scars, becomes a 2.
            "Ferrymen of Cinder: Maro rolls d6 on Mending: [1] + 1 (Cinder Quay) = 2: Patched up (entered by hand)",
            // "First: +3 Renown", "Second: +2", "Third: +1", "Last: +1 Heat".
            "Grey Oars: +3 Renown",
            "Ferrymen of Cinder: +2 Renown",
            "Silt Kings: +1 Renown",
            "Eel Wives: +1 Heat",
            // "a crew that fishes them gains 1 Renown every clash it fights"
            "Eel Wives: +1 Renown",
            "Grey Oars: takes The Weir",
            "Grey Oars: becomes Tide King",
            "The Lantern Guild becomes Keepers of the Lamp",
        ],
    );
    assert_eq!(purse(d, FERRYMEN), [6, 0, 2]);
    assert_eq!(purse(d, EEL_WIVES), [5, 1, 1]);
    assert_eq!(purse(d, GREY_OARS), [7, 0, 3]);
    assert_eq!(purse(d, SILT_KINGS), [6, 0, 1]);
    // "Every smuggler of a crew that clashes gains 1 Wake, sailing or not."
    assert_eq!(
        wake(d, SILT_KINGS),
        [("Tove".into(), 1), ("Ness".into(), 1)]
    );
    assert_eq!(
        holders(d),
        [
            Some(FERRYMEN.into()),
            Some(EEL_WIVES.into()),
            Some(GREY_OARS.into()),
            None
        ]
    );
    let ness = &crew(d, SILT_KINGS)["fighters"][1];
    assert_eq!(ness["stats"][0]["value"], 2, "Soaked: -1 Nerve");
    // A crew that has clashed hires whom it likes.
    for name in ["Hew", "Ivo"] {
        bw(
            d,
            &[
                "fighter", "add", name, "--gang", GREY_OARS, "--quirk", "oarsman",
            ],
        );
    }
    assert!(
        !crew(d, GREY_OARS)["problems"]
            .to_string()
            .contains("Oarsmen")
    );
    bw(d, &["undo"]);
    bw(d, &["undo"]);
    // Holding The Weir, the Grey Oars may buy harpoons.
    bw(
        d,
        &[
            "fighter",
            "add",
            "Quill",
            "--gang",
            GREY_OARS,
            "--quirk",
            "deckhand",
            "--quirk",
            "harpoon-gun",
        ],
    );
    bw(d, &["undo"]);

    // Clash 2, a Challenge for Eelgate (the defender's): the Ferrymen
    // challenge the Eel Wives, a draw. Pike, laid up, sits it out and
    // still gains Wake.
    let out = clash(
        d,
        2,
        json!({"shape": "gauntlet", "stake": "Eelgate", "gangs": [
            {"gang": FERRYMEN, "challenger": true}, {"gang": EEL_WIVES}]}),
    );
    says(
        &out,
        &[
            // A draw: no one crew alone is last to pay.
            "Ferrymen of Cinder: takes nothing: no one other crew is placed last",
            // "A draw: each gains 1 Renown".
            "Ferrymen of Cinder: +1 Renown",
            "Eelgate stays with Eel Wives",
            "Ferrymen of Cinder: takes the title Tide King from Grey Oars",
        ],
    );
    assert_eq!(purse(d, FERRYMEN), [6, 0, 3]);
    assert_eq!(purse(d, EEL_WIVES), [5, 1, 3]);
    assert_eq!(wake(d, FERRYMEN), [("Maro".into(), 2), ("Pike".into(), 2)]);
    // Every tiebreaker at once: three crews on 3 Renown and one mooring
    // each; the Grey Oars have fought one clash, the others two; of those
    // two, the Ferrymen placed ahead of the Eel Wives in clash 1 and level
    // in clash 2: "then who beat whom".
    assert_eq!(
        table(d),
        [
            (1, false, FERRYMEN.into(), vec![3, 1, 2]),
            (2, false, EEL_WIVES.into(), vec![3, 1, 2]),
            (3, false, GREY_OARS.into(), vec![3, 1, 1]),
            (4, false, SILT_KINGS.into(), vec![1, 0, 1]),
        ]
    );

    // Clash 3, a Challenge for Lantern Steps (unclaimed): the Silt Kings
    // challenge the Grey Oars and win. It is every crew's second clash:
    // the tide turns at its end (Eelgate's take rolled 5).
    let cycle = json(d, &["cycle", "show"]);
    assert_eq!(cycle["said"], "Tide 1");
    assert_eq!(
        cycle["played"],
        json!([
            {"id": 2, "gang": EEL_WIVES, "played": 2}, {"id": 1, "gang": FERRYMEN, "played": 2},
            {"id": 3, "gang": GREY_OARS, "played": 1}, {"id": 4, "gang": SILT_KINGS, "played": 1}])
    );
    let out = clash(
        d,
        3,
        json!({"shape": "Challenge", "stake": "Lantern Steps", "winner": SILT_KINGS,
               "gangs": [{"gang": SILT_KINGS, "challenger": true}, {"gang": GREY_OARS}],
               "dice": [{"roll": "income: Eelgate", "faces": [5]}]}),
    );
    says(
        &out,
        &[
            "Silt Kings: takes 1 Coin from Grey Oars",
            // "The winner gains 3 Renown and 2 Coin".
            "Silt Kings: +3 Renown",
            "Silt Kings: +2 Coin",
            "Silt Kings: takes Lantern Steps",
            "Tide 1 ends",
            // "Cinder Quay pays 3 Coin each tide".
            "Ferrymen of Cinder: +3 Coin",
            // "Eelgate's take: 1-3, 1 Coin; 4-6, 3 Coin."
            "Eel Wives: Eelgate: d6 on Eel Take: [5] = 5: Fat eels (entered by hand)",
            "Eel Wives: +3 Coin",
            // "The Weir pays 2 Coin each tide".
            "Grey Oars: +2 Coin",
            // "each smuggler of the crew on Lantern Steps gains 1 Wake".
            "Silt Kings: Tove: Wake 2 → 3 (+1)",
            // "every crew's Heat falls by 2, never below 0".
            "Eel Wives: The watch forgets: -2 Heat (Heat 1 → 0)",
            "Silt Kings: +1 Coin",
            "Ferrymen of Cinder: Pike is back: the holed are mended",
            "Silt Kings: Ness: Soaked ends (the soaked dry out)",
            "Silt Kings: takes the title Tide King from Ferrymen of Cinder",
        ],
    );
    // Coin: 6 + 3 + 1; 5 + 3 + 1; 7 - 1 + 2 + 1; 6 + 1 + 2 + 1.
    assert_eq!(purse(d, FERRYMEN), [10, 0, 3]);
    assert_eq!(purse(d, EEL_WIVES), [9, 0, 3]);
    assert_eq!(purse(d, GREY_OARS), [9, 0, 3]);
    assert_eq!(purse(d, SILT_KINGS), [10, 0, 4]);
    assert_eq!(
        wake(d, SILT_KINGS),
        [("Tove".into(), 3), ("Ness".into(), 3)]
    );
    let silt = crew(d, SILT_KINGS);
    assert_eq!(
        silt["fighters"][1]["stats"][0]["value"], 3,
        "Ness dried out"
    );
    let pike = &crew(d, FERRYMEN)["fighters"][1];
    assert_eq!(pike["status"]["state"], "active");
    // Two moorings a guild: the lamp stays where it was ("a tie leaves it
    // where it is"); four crews of one mooring: no Harbourmaster.
    assert_eq!(titles(d), [("Tide King".into(), SILT_KINGS.to_owned())]);
    let cycle = json(d, &["cycle", "show"]);
    assert_eq!(cycle["said"], "Tide 2");
    assert!(
        cycle["played"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["played"] == 0)
    );

    // ---- Tide 2 -------------------------------------------------------
    // Clash 4, a Brawl of three for Cinder Quay (the Ferrymen's): the Eel
    // Wives first, the Silt Kings second, the Ferrymen third and last.
    // Tove taken by Yara: held by the Eel Wives, the side of the one who
    // took him.
    let out = clash(
        d,
        4,
        json!({"shape": "Brawl", "stake": "Cinder Quay", "gangs": [
            {"gang": FERRYMEN, "place": 3}, {"gang": EEL_WIVES, "place": 1},
            {"gang": SILT_KINGS, "place": 2, "fighters": [
                {"fighter": "Tove", "outcome": "taken", "downed_by": "Yara"},
                {"fighter": "Ness"}]}],
         "picks": [{"roll": "taken: Tove", "pick": "hold"}]}),
    );
    says(
        &out,
        &[
            "Eel Wives: takes 1 Coin from Ferrymen of Cinder",
            // Third and last: both rows.
            "Ferrymen of Cinder: +1 Renown",
            "Ferrymen of Cinder: +1 Heat",
            "Eel Wives: takes Cinder Quay from Ferrymen of Cinder",
            "Eel Wives: becomes Harbourmaster",
            "Eel Wives: takes the title Tide King from Silt Kings",
            "The Drowned Court takes the title Keepers of the Lamp from The Lantern Guild",
        ],
    );
    assert_eq!(purse(d, FERRYMEN), [9, 1, 4]);
    assert_eq!(purse(d, EEL_WIVES), [10, 0, 7]);
    assert_eq!(purse(d, SILT_KINGS), [10, 0, 6]);
    // Tove, taken, is not with his side when it gains its Wake.
    assert_eq!(
        wake(d, SILT_KINGS),
        [("Tove".into(), 3), ("Ness".into(), 4)]
    );
    // "A taken smuggler is ransomed for half what their hands cost to
    // hire": an Oarsman costs 6.
    let terms = bw(d, &["captive", "terms", "Tove"]);
    assert!(terms.contains("ransom: 3 Coin"), "{terms}");
    bw(d, &["captive", "ransom", "Tove"]);
    assert_eq!(purse(d, SILT_KINGS)[0], 7);
    assert_eq!(purse(d, EEL_WIVES)[0], 13);

    // Clash 5, a Challenge with nothing at stake: the Grey Oars beat the
    // Ferrymen, who have fought their two of the tide.
    clash(
        d,
        5,
        json!({"shape": "Challenge", "winner": GREY_OARS, "gangs": [
            {"gang": GREY_OARS, "challenger": true}, {"gang": FERRYMEN}]}),
    );
    assert_eq!(purse(d, GREY_OARS), [12, 0, 6]);
    assert_eq!(purse(d, FERRYMEN), [8, 1, 4]);
    // "Each crew fights two clashes a tide."
    std::fs::write(
        d.join("over.json"),
        json!({"shape": "Challenge", "winner": FERRYMEN, "gangs": [
            {"gang": FERRYMEN, "challenger": true}, {"gang": SILT_KINGS}]})
        .to_string(),
    )
    .unwrap();
    let e = refused(d, &["battle", "record", "over.json"]);
    assert!(
        e.contains("gangs[0].gang: Ferrymen of Cinder has played 2 clashes in Tide 2, its limit"),
        "{e}"
    );

    // Clash 6, a Brawl of three for Eelgate (the Eel Wives'): the Grey
    // Oars first, the Silt Kings second, the Eel Wives last. The last of
    // the tide (Eelgate's take rolled 2).
    let out = clash(
        d,
        6,
        json!({"shape": "Brawl", "stake": "Eelgate", "gangs": [
            {"gang": EEL_WIVES, "place": 3}, {"gang": GREY_OARS, "place": 1},
            {"gang": SILT_KINGS, "place": 2}],
         "dice": [{"roll": "income: Eelgate", "faces": [2]}]}),
    );
    says(
        &out,
        &[
            "Grey Oars: takes Eelgate from Eel Wives",
            "Tide 2 ends",
            "Eel Wives: +3 Coin",
            "Grey Oars: Eelgate: d6 on Eel Take: [2] = 2: Thin catch (entered by hand)",
            "Grey Oars: +1 Coin",
            "Ferrymen of Cinder: The watch forgets: -2 Heat (Heat 1 → 0)",
            "Grey Oars: takes the title Harbourmaster from Eel Wives",
            "Grey Oars: takes the title Tide King from Eel Wives",
        ],
    );
    assert_eq!(purse(d, FERRYMEN), [9, 0, 4]);
    assert_eq!(purse(d, EEL_WIVES), [16, 0, 9]);
    assert_eq!(purse(d, GREY_OARS), [17, 0, 9]);
    assert_eq!(purse(d, SILT_KINGS), [8, 0, 8]);
    assert_eq!(
        wake(d, SILT_KINGS),
        [("Tove".into(), 5), ("Ness".into(), 6)]
    );
    assert_eq!(
        holders(d),
        [
            Some(EEL_WIVES.into()),
            Some(GREY_OARS.into()),
            Some(GREY_OARS.into()),
            Some(SILT_KINGS.into())
        ]
    );
    // Level on 9 Renown, the Grey Oars hold two moorings to one.
    assert_eq!(
        table(d),
        [
            (1, false, GREY_OARS.into(), vec![9, 2, 4]),
            (2, false, EEL_WIVES.into(), vec![9, 1, 4]),
            (3, false, SILT_KINGS.into(), vec![8, 1, 4]),
            (4, false, FERRYMEN.into(), vec![4, 0, 4]),
        ]
    );
    // Two moorings a guild again: the Drowned Court keeps the lamp.
    let standings = json(d, &["standings"]);
    assert_eq!(standings["lines"][0]["faction"], "The Lantern Guild");
    assert_eq!(
        titles(d),
        [
            ("Harbourmaster".into(), GREY_OARS.to_owned()),
            ("Tide King".into(), GREY_OARS.to_owned())
        ]
    );
    let roster = bw(d, &["gang", "show", SILT_KINGS]);
    assert!(roster.contains("  Guild: The Drowned Court\n"), "{roster}");
    assert!(roster.contains("  Moorings: Lantern Steps\n"), "{roster}");
    bw(d, &["verify"]);

    season_exports(d);

    // Everything taken back, newest first: the campaign as it was.
    for _ in 0..7 {
        bw(d, &["undo"]);
    }
    assert_eq!(open(d).dump().unwrap(), before);
    bw(d, &["verify"]);
}

/// The season as a club reads it: every format, and a PDF of one page
/// that qpdf finds sound.
fn season_exports(d: &Path) {
    bw(
        d,
        &["export", "season", "--format", "md", "-o", "season.md"],
    );
    let md = std::fs::read_to_string(d.join("season.md")).unwrap();
    for line in [
        "## The Tide Table",
        "1\\. Grey Oars (The Lantern Guild): Renown 9 · Moorings 2 · Clashes 4",
        "Cinder Quay: Eel Wives",
        "## Tide 1",
        "Clash \\#1 (Brawl): Grey Oars 1st, Ferrymen of Cinder 2nd, Silt Kings 3rd, Eel Wives 4th; at stake The Weir; Grey Oars took The Weir",
        "Clash \\#2 (Challenge): Ferrymen of Cinder (challenger), Eel Wives; a draw; at stake Eelgate",
        "As Tide 1 ended: Keepers of the Lamp: The Lantern Guild; Tide King: Silt Kings.",
        "Clash \\#4 (Brawl): Eel Wives 1st, Silt Kings 2nd, Ferrymen of Cinder 3rd; at stake Cinder Quay; Eel Wives took Cinder Quay from Ferrymen of Cinder",
        "As Tide 2 ended: Harbourmaster: Grey Oars; Keepers of the Lamp: The Drowned Court; Tide King: Grey Oars.",
    ] {
        assert!(md.contains(line), "the season does not say “{line}”:\n{md}");
    }
    bw(
        d,
        &["export", "season", "--format", "json", "-o", "season.json"],
    );
    let season: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("season.json")).unwrap()).unwrap();
    assert_eq!(season["format"], "rapsheet-season");
    assert_eq!(season["cycles"][1]["records"].as_array().unwrap().len(), 3);
    bw(
        d,
        &["export", "season", "--format", "html", "-o", "season.html"],
    );
    let html = std::fs::read_to_string(d.join("season.html")).unwrap();
    assert!(html.contains("<h2>Tide 2</h2>"), "{html}");
    bw(
        d,
        &["export", "season", "--format", "pdf", "-o", "season.pdf"],
    );
    let pdf = d.join("season.pdf");
    let info = std::process::Command::new("pdfinfo")
        .arg(&pdf)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&info.stdout).contains("Pages:           1"),
        "one page for the wall"
    );
    let text = std::process::Command::new("pdftotext")
        .args([pdf.to_str().unwrap(), "-"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("The Tide Table"), "{text}");
    assert!(text.contains("Lantern Steps: Silt Kings"), "{text}");
    let check = std::process::Command::new("qpdf")
        .args(["--check", pdf.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

/// Saves what the app shows, where `RAPSHEET_SHOT` names a folder.
fn shot(harness: &mut Harness<'_, RapsheetApp>, name: &str) {
    if let Ok(dir) = std::env::var("RAPSHEET_SHOT") {
        harness.run();
        if let Ok(image) = harness.render() {
            let _ = image.save(Path::new(&dir).join(format!("{name}.png")));
        }
    }
}

#[test]
fn a_challenge_is_recorded_and_a_mooring_given_in_the_window() {
    let dir = util::temp();
    let d = dir.path();
    four_crews(d);
    let before = open(d).dump().unwrap();
    let mut harness = Harness::builder()
        .with_size([1400.0, 1600.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(open(d)),
        );
    harness.run();
    // The first crew's guild and moorings on its roster, every mooring
    // beside it.
    assert!(
        harness
            .query_by_label_contains("Moorings: Eelgate")
            .is_some()
    );
    assert!(harness.query_by_label("Lantern Steps").is_some());

    // A Challenge: the Silt Kings challenge the Ferrymen for Cinder Quay
    // and win.
    harness.get_by_label("Record").click();
    harness.run();
    harness.get_by_label("What kind of clash").click();
    harness.run();
    harness.get_by_label("Challenge").click();
    harness.run();
    harness.get_by_label("Crew 1").click();
    harness.run();
    harness.get_by_label(SILT_KINGS).click();
    harness.run();
    harness.get_by_label("Crew 2").click();
    harness.run();
    harness.get_by_label(FERRYMEN).click();
    harness.run();
    harness.get_by_label("Silt Kings challenges").click();
    harness.run();
    harness.get_by_label("Silt Kings won").click();
    harness.run();
    harness.get_by_label("Mooring at stake").click();
    harness.run();
    harness
        .get_by_label("Cinder Quay (Ferrymen of Cinder)")
        .click();
    harness.run();
    shot(&mut harness, "brackwater-challenge");
    assert!(
        harness
            .query_by_label_contains("Silt Kings: takes Cinder Quay from Ferrymen of Cinder")
            .is_some(),
        "the preview says what changes hands"
    );
    harness.get_by_label("Commit clash").click();
    harness.run();
    assert_eq!(
        holders(d),
        [Some(SILT_KINGS.into()), Some(EEL_WIVES.into()), None, None]
    );

    // The Season screen: the tide, the table, the moorings; The Weir
    // given by hand, with the reason.
    harness.get_by_label("Season").click();
    harness.run();
    for text in ["Tide 1", "The Tide Table", "When Tide 1 ends"] {
        assert!(
            harness.query_all_by_label_contains(text).next().is_some(),
            "the Season screen does not show “{text}”"
        );
    }
    util::type_into(&mut harness, "Reason for a change by hand", "won at dice");
    harness.get_by_label("Give The Weir to").click();
    harness.run();
    harness.get_all_by_label(GREY_OARS).last().unwrap().click();
    harness.run();
    harness.get_by_label("Give The Weir").click();
    harness.run();
    shot(&mut harness, "brackwater-season");
    assert_eq!(
        holders(d),
        [
            Some(SILT_KINGS.into()),
            Some(EEL_WIVES.into()),
            Some(GREY_OARS.into()),
            None
        ]
    );
    // Ctrl+Z twice: the campaign as it was.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert_eq!(open(d).dump().unwrap(), before);
}

/// A tide no clash can end any more (three crews have fought their two,
/// the Silt Kings none, and have no one left to fight) is ended by hand;
/// while two crews could still meet, ending it by hand is refused,
/// naming them.
#[test]
fn a_tide_no_clash_can_end_is_ended_by_hand() {
    let dir = util::temp();
    let d = dir.path();
    four_crews(d);
    let challenge = |a: &str, b: &str| {
        json!({"shape": "Challenge", "winner": a, "gangs": [
            {"gang": a, "challenger": true}, {"gang": b}]})
    };
    clash(d, 1, challenge(FERRYMEN, EEL_WIVES));
    clash(d, 2, challenge(FERRYMEN, GREY_OARS));
    let early = refused(d, &["cycle", "end"]);
    assert!(
        early.contains("Tide 1 ends when every crew has played 2 clashes")
            && early.contains("Eel Wives (1 of 2), Grey Oars (1 of 2), Silt Kings (0 of 2)"),
        "{early}"
    );
    clash(d, 3, challenge(EEL_WIVES, GREY_OARS));
    let past = refused(d, &["battle", "record", "clash1.json", "--seed", "1"]);
    assert!(past.contains("2"), "{past}");
    let shown = json(d, &["cycle", "show"]);
    assert!(shown["cannot_end"].is_null(), "{shown}");
    let ended = bw(d, &["cycle", "end", "--seed", "4"]);
    assert!(ended.starts_with("Tide 1 ends"), "{ended}");
    assert_eq!(json(d, &["cycle", "show"])["said"], "Tide 2");
}

/// The generator plays a long season of Brackwater through the real
/// procedure: crews in both guilds, challenges and brawls, moorings at
/// stake, tides ended by their clashes and, where none can end one, by
/// hand. The campaign verifies by replay.
#[test]
fn a_generated_season_of_many_tides_verifies() {
    let dir = util::temp();
    let path = dir.path().join("c.rapsheet");
    let packs = rapsheet::session::registry_with(&[pack_file()]).unwrap();
    let mut session = Session::create_with(&path, "Generated", "brackwater", packs).unwrap();
    let size = rapsheet::generator::GenSize {
        gangs: 5,
        fighters_per_gang: 3,
        battles: 30,
        seed: 11,
    };
    rapsheet::generator::generate(&mut session, size, &mut |_, _| {}).unwrap();
    let view = session.cycle_view().unwrap().unwrap();
    assert!(view.cycle > 3, "only {} tides", view.cycle);
    let guilds: std::collections::BTreeSet<Option<String>> = session
        .gangs()
        .unwrap()
        .into_iter()
        .map(|g| g.faction)
        .collect();
    assert_eq!(guilds.len(), 2, "{guilds:?}");
    drop(session);
    let verified = bw(dir.path(), &["verify"]);
    assert!(verified.contains("sound"), "{verified}");
}

/// The arbitrator's table in the window: the tide-list made, a call-out
/// issued, declined for its mooring, another issued, accepted and played
/// from the Season screen, each line saying where it stands.
#[test]
fn a_challenge_is_issued_answered_and_played_from_the_season_screen() {
    let dir = util::temp();
    let d = dir.path();
    four_crews(d);
    let mut harness = Harness::builder()
        .with_size([1400.0, 1600.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(open(d)),
        );
    harness.run();
    harness.get_by_label("Season").click();
    harness.run();
    let choose = |harness: &mut Harness<'_, RapsheetApp>, combo: &str, option: &str| {
        harness.get_by_label(combo).click();
        harness.run();
        harness
            .get_by_role_and_label(egui::accesskit::Role::Button, option)
            .click();
        harness.run();
    };

    // The tide-list, by the standings.
    harness.get_by_label("Make them: by the standings").click();
    harness.run();
    assert_eq!(
        harness
            .query_all_by_label_contains(" against ")
            .filter(|n| n.accesskit_node().role() != egui::accesskit::Role::Button)
            .count(),
        2,
        "four crews, two pairs: {:?}",
        harness.state().status_text()
    );
    // A pair is recorded from the list: its two crews on the Record
    // screen.
    let pair = harness
        .query_all_by_role(egui::accesskit::Role::Button)
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.starts_with("Record ") && l.contains(" against "))
        .expect("a pair to record");
    harness.get_by_label(&pair).click();
    harness.run();
    assert_eq!(harness.state().screen(), rapsheet::ui::Screen::Battle);
    let (first, second) = pair
        .trim_start_matches("Record ")
        .split_once(" against ")
        .unwrap();
    assert_eq!(
        harness.get_by_label("Crew 1").value().as_deref(),
        Some(first)
    );
    assert_eq!(
        harness.get_by_label("Crew 2").value().as_deref(),
        Some(second)
    );
    harness.get_by_label("Season").click();
    harness.run();

    // The Grey Oars call the Eel Wives out over Eelgate; declined, the
    // mooring goes to the Grey Oars.
    choose(&mut harness, "Challenger", GREY_OARS);
    choose(&mut harness, "Challenged", EEL_WIVES);
    choose(&mut harness, "Mooring at stake", "Eelgate");
    harness.get_by_label("Issue the Call-out").click();
    harness.run();
    harness.get_by_label("Decline #1").click();
    harness.run();
    assert_eq!(
        holders(d)[1].as_deref(),
        Some(GREY_OARS),
        "{:?}",
        harness.state().status_text()
    );

    // The Silt Kings call the Ferrymen out over Cinder Quay; accepted and
    // recorded from the Season screen, the Silt Kings win and take it.
    choose(&mut harness, "Challenger", SILT_KINGS);
    choose(&mut harness, "Challenged", FERRYMEN);
    choose(&mut harness, "Mooring at stake", "Cinder Quay");
    harness.get_by_label("Issue the Call-out").click();
    harness.run();
    shot(&mut harness, "brackwater-call-out");
    harness.get_by_label("Accept #2").click();
    harness.run();
    harness.get_by_label("Record #2").click();
    harness.run();
    assert_eq!(harness.state().screen(), rapsheet::ui::Screen::Battle);
    harness.get_by_label("Silt Kings won").click();
    harness.run();
    harness.get_by_label("Commit clash").click();
    harness.run();
    assert!(
        harness
            .state()
            .status_text()
            .is_some_and(|s| s.contains("recorded")),
        "{:?} {:?}",
        harness.state().status_text(),
        harness.state().battle_error()
    );
    assert_eq!(holders(d)[0].as_deref(), Some(SILT_KINGS));
    harness.get_by_label("Season").click();
    harness.run();
    assert!(harness.query_by_label("Record #2").is_none(), "played");
}

/// Call-outs travel like every other change: a whole bundle makes them
/// again as they were, and a merge of two copies that each issued one
/// holds both, answered as each copy answered them, and verifies.
#[test]
fn challenges_travel_by_a_whole_bundle_and_a_merge() {
    let dir = util::temp();
    let d = dir.path();
    four_crews(d);
    std::fs::copy(d.join("c.rapsheet"), d.join("other.rapsheet")).unwrap();
    bw(
        d,
        &[
            "challenge",
            "issue",
            GREY_OARS,
            EEL_WIVES,
            "--stake",
            "Eelgate",
        ],
    );
    // The other copy: the Silt Kings call the Ferrymen out, accepted.
    let pack = pack_file();
    let other = |args: &[&str]| {
        let mut all = vec!["--pack", pack.to_str().unwrap()];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--db", "other.rapsheet"]);
        let out = util::rapsheet(d, &all);
        assert!(out.status.success(), "{args:?}: {}", util::stderr(&out));
    };
    other(&[
        "challenge",
        "issue",
        SILT_KINGS,
        FERRYMEN,
        "--stake",
        "Cinder Quay",
    ]);
    other(&["challenge", "answer", "1", "--accept"]);
    let said = |view: &Value| -> Vec<String> {
        let mut lines: Vec<String> = view["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                format!(
                    "{} {} {} {}",
                    l["challenger"].as_str().unwrap(),
                    l["defender"].as_str().unwrap(),
                    l["stake"].as_str().unwrap_or("-"),
                    l["status"].as_str().unwrap()
                )
            })
            .collect();
        lines.sort();
        lines
    };

    // Whole, to a new file: the same call-outs.
    let mine = said(&json(d, &["challenge", "list"]));
    bw(
        d,
        &["bundle", "export", "--whole", "--output", "whole.json"],
    );
    let out = util::rapsheet(
        d,
        &[
            "--pack",
            pack.to_str().unwrap(),
            "bundle",
            "import",
            "whole.json",
            "--whole",
            "--db",
            "again.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
    let again = util::rapsheet(
        d,
        &[
            "--pack",
            pack.to_str().unwrap(),
            "challenge",
            "list",
            "--json",
            "--db",
            "again.rapsheet",
        ],
    );
    assert_eq!(said(&serde_json::from_slice(&again.stdout).unwrap()), mine);

    // Merged: both copies' call-outs, each as its copy left it.
    bw(
        d,
        &["merge", "other.rapsheet", "--output", "merged.rapsheet"],
    );
    let merged = util::rapsheet(
        d,
        &[
            "--pack",
            pack.to_str().unwrap(),
            "challenge",
            "list",
            "--json",
            "--db",
            "merged.rapsheet",
        ],
    );
    assert!(merged.status.success(), "{}", util::stderr(&merged));
    assert_eq!(
        said(&serde_json::from_slice(&merged.stdout).unwrap()),
        [
            format!("{GREY_OARS} {EEL_WIVES} Eelgate issued"),
            format!("{SILT_KINGS} {FERRYMEN} Cinder Quay accepted"),
        ]
    );
    let verified = util::rapsheet(
        d,
        &[
            "--pack",
            pack.to_str().unwrap(),
            "verify",
            "--db",
            "merged.rapsheet",
        ],
    );
    assert!(verified.status.success(), "{}", util::stderr(&verified));
}
