//! Wayfarer's escalation campaign (004, SKIRMISH ESCALATION CAMPAIGNS, lines
//! 5787-5938) played on the command line from start to end: two warbands
//! within their 500 points, three matches (resources from VP and grabs, an
//! advancement roll per full hundred gained, an injury for a defeated unit),
//! a unit and equipment bought between matches, and the warbands printed.

use crate::util;

use std::path::Path;

use serde_json::{Value, json};

const TUSK: &str = "The Tusk Road";
const KIN: &str = "The Lantern Kin";

/// `rapsheet ARGS --db c.rapsheet` in `dir`, which must work.
fn run(dir: &Path, args: &[&str]) -> String {
    util::ok(dir, args)
}

fn show(dir: &Path, gang: &str) -> Value {
    serde_json::from_str(&run(dir, &["gang", "show", gang, "--json"])).unwrap()
}

/// A warband's `[Resources, Force Point Pool]`.
fn purse(dir: &Path, gang: &str) -> [i64; 2] {
    let view = show(dir, gang);
    let amount = |id: &str| {
        view["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no {id} in {view}"))["amount"]
            .as_i64()
            .unwrap()
    };
    [amount("resources"), amount("force-pool")]
}

fn worth(dir: &Path, gang: &str) -> i64 {
    show(dir, gang)["value"]["value"].as_i64().unwrap()
}

fn unit_value(dir: &Path, gang: &str, unit: &str) -> i64 {
    let view = show(dir, gang);
    view["fighters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == unit)
        .unwrap_or_else(|| panic!("no {unit} in {gang}"))["value"]["value"]
        .as_i64()
        .unwrap()
}

fn legal(dir: &Path, gang: &str) {
    let view = show(dir, gang);
    assert_eq!(view["legal"], true, "{gang}: {}", view["problems"]);
}

/// Records a match from its report, with the app's rolls from seed 1.
fn record(dir: &Path, report: Value) -> String {
    std::fs::write(dir.join("match.json"), report.to_string()).unwrap();
    run(dir, &["battle", "record", "match.json", "--seed", "1"])
}

fn athletics(dir: &Path, gang: &str, unit: &str) -> i64 {
    let view = show(dir, gang);
    let fighter = view["fighters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == unit)
        .unwrap()
        .clone();
    fighter["stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "athletics")
        .unwrap_or_else(|| panic!("no athletics in {fighter}"))["value"]
        .as_i64()
        .unwrap()
}

#[test]
fn three_escalation_matches_with_buying_between_them_and_printing() {
    let dir = util::temp();
    let d = dir.path();
    run(d, &["demo", "--ruleset", "wayfarer"]);
    // "In this mode, players begin with 500 point warbands." (line 5788)
    for gang in [TUSK, KIN] {
        legal(d, gang);
        assert!(worth(d, gang) <= 500);
        assert_eq!(purse(d, gang), [0, 500]);
    }

    // Match 1. "At the end of each match, the warbands receive a number of
    // resource points equal to the VP they secured x10" (5791-5793); "each
    // secured grab is worth 1d6x10 resources" (5870-5872), rolled at the
    // table and entered. 40 + 70 = 110: "for every full hundred points of
    // resources gained" one unit rolls on the advancement table (5874-5876):
    // 8, "Bonus Athletics die" (may not exceed 6 total).
    let ruk = athletics(d, TUSK, "Ruk");
    record(
        d,
        json!({
            "scenario": "Escalation match",
            "gangs": [
                {"gang": TUSK, "counts": {"vp": 4, "grab-resources": 70}},
                {"gang": KIN, "counts": {"vp": 2}},
            ],
            "winner": TUSK,
            "advancements": [{"gang": TUSK, "fighter": "Ruk"}],
            "dice": [{"roll": "advancement: Ruk", "faces": [4, 4]}],
        }),
    );
    assert_eq!(purse(d, TUSK), [110, 500]);
    assert_eq!(purse(d, KIN), [20, 500]);
    assert_eq!(athletics(d, TUSK, "Ruk"), ruk + 1);
    // "The unit's value (and VP) are unchanged by advancements gained"
    // (5924-5925).
    let before = worth(d, TUSK);

    // Between matches: "players may spend resource points as force points
    // to purchase new units or buy equipment" (5796-5797). A new unit pays
    // its value, and equipment its cost: SWORD "+11" (line 3647).
    run(
        d,
        &[
            "fighter",
            "add",
            "Grub",
            "--gang",
            TUSK,
            "--buy",
            "--quirk",
            "rank-troop",
            "--quirk",
            "species-orc",
            "--stat",
            "melee_off=2",
        ],
    );
    let grub = unit_value(d, TUSK, "Grub");
    assert_eq!(purse(d, TUSK), [110 - grub, 500 + grub]);
    run(d, &["fighter", "buy", "Hulk", "Sword", "--gang", TUSK]);
    assert_eq!(purse(d, TUSK), [99 - grub, 511 + grub]);
    assert_eq!(worth(d, TUSK), before + grub + 11);
    legal(d, TUSK);

    // Match 2. Snag is defeated and rolls on the injury table (5798-5800):
    // 10, "WOUNDED: ... may not fight in the next match". The Kin gain
    // 20 + 90 = 110: Wren rolls 2, "NO “I” IN TEAM: Your force gains a
    // resource bonus equal to this character's value."
    let wren = unit_value(d, KIN, "Wren Ashvale");
    record(
        d,
        json!({
            "scenario": "Escalation match",
            "gangs": [
                {"gang": KIN, "counts": {"vp": 2, "grab-resources": 90}},
                {"gang": TUSK, "counts": {"vp": 1},
                 "fighters": [
                    {"fighter": "Grakka Tuskborn"}, {"fighter": "Ruk"},
                    {"fighter": "Hulk"}, {"fighter": "Snag", "outcome": "defeated"},
                    {"fighter": "Mog"}, {"fighter": "Bolg"}, {"fighter": "Grub"},
                 ]},
            ],
            "winner": KIN,
            "advancements": [{"gang": KIN, "fighter": "Wren Ashvale"}],
            "dice": [
                {"roll": "injury: Snag", "faces": [5, 5]},
                {"roll": "advancement: Wren Ashvale", "faces": [1, 1]},
            ],
        }),
    );
    assert_eq!(purse(d, TUSK), [109 - grub, 511 + grub]);
    assert_eq!(purse(d, KIN), [130 + wren, 500]);

    // Match 3, without Snag, who rests. The Tusk Road gain 50 + 60 = 110,
    // and Grub, bought between matches, rolls 8.
    let grub_athletics = athletics(d, TUSK, "Grub");
    record(
        d,
        json!({
            "scenario": "Escalation match",
            "gangs": [
                {"gang": TUSK, "counts": {"vp": 5, "grab-resources": 60},
                 "fighters": [
                    {"fighter": "Grakka Tuskborn"}, {"fighter": "Ruk"},
                    {"fighter": "Hulk"}, {"fighter": "Mog"}, {"fighter": "Bolg"},
                    {"fighter": "Grub"},
                 ]},
                {"gang": KIN},
            ],
            "winner": TUSK,
            "advancements": [{"gang": TUSK, "fighter": "Grub"}],
            "dice": [{"roll": "advancement: Grub", "faces": [4, 4]}],
        }),
    );
    assert_eq!(purse(d, TUSK), [219 - grub, 511 + grub]);
    assert_eq!(athletics(d, TUSK, "Grub"), grub_athletics + 1);
    assert_eq!(worth(d, TUSK), before + grub + 11, "advancing adds nothing");
    legal(d, TUSK);

    // Printed: the cards and the roster sheet carry each unit's Value and VP.
    run(d, &["cards", "--gang", TUSK, "-o", "tusk.pdf"]);
    run(d, &["roster", "--gang", TUSK, "-o", "tusk-roster.pdf"]);
    let text = |file: &str| {
        let out = std::process::Command::new("pdftotext")
            .arg(d.join(file))
            .arg("-")
            .output()
            .expect("pdftotext (poppler-utils)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let cards = text("tusk.pdf");
    assert!(cards.contains("Grub") && cards.contains("VALUE"), "{cards}");
    let roster = text("tusk-roster.pdf");
    assert!(
        roster.contains("Grub") && roster.contains(&format!("Value {grub}")),
        "{roster}"
    );
    let verified = run(d, &["verify"]);
    assert!(verified.contains("sound"), "{verified}");
}
