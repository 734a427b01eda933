//! Heartbreaker by the book (rule text 003): what lives between the
//! numbers. Bounty declarations after every skirmish, the scenario rolled
//! among those the rivals' arc allows, actions that act on the next
//! skirmish, reports that contradict their scenario, names matched the same
//! way everywhere, and new campaigns on the book rules. Each test cites the
//! 003 line or the pack ruling it checks.

use crate::util;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rapsheet::campaign::battle::{BattleReport, NO_DECLARATION};
use rapsheet::session::Session;
use rapsheet::ui::RapsheetApp;
use serde_json::{Value, json};
use util::{rapsheet, stderr, stdout};

const SAINTS: &str = "The Rust Saints";
const JACKALS: &str = "Neon Jackals";

/// The demo's two gangs on the book rules.
fn book() -> (tempfile::TempDir, Session) {
    let dir = util::temp();
    let mut s = Session::create_demo(&dir.path().join("c.rapsheet")).expect("demo");
    s.set_campaign_ruleset("heartbreaker").expect("book rules");
    (dir, s)
}

fn bare(value: Value) -> BattleReport {
    serde_json::from_value(value).expect("a report")
}

fn report(value: Value) -> BattleReport {
    let mut r = bare(value);
    util::declare_nothing(&mut r);
    r
}

fn dead_drop(winner: &str, saints_caches: i64, jackals_caches: i64) -> Value {
    json!({
        "scenario": "Dead Drop",
        "gangs": [
            {"gang": SAINTS, "counts": {"caches": saints_caches}},
            {"gang": JACKALS, "counts": {"caches": jackals_caches}},
        ],
        "winner": winner,
    })
}

fn bounty(s: &Session, fighter: &str) -> i64 {
    s.fighter_named(fighter, None)
        .unwrap()
        .counters
        .get("bounty")
        .copied()
        .unwrap_or(0)
}

// ---------------------------------------------------------------------------
// 2. "Both players declare a Bounty" (003:511)
// ---------------------------------------------------------------------------

#[test]
fn a_report_without_declarations_asks_both_gangs_for_one() {
    let (_dir, mut s) = book();
    // 003: "Both players declare a Bounty on whichever fighter in the
    // rival's gang they deem to be particularly troublesome."
    let mut r = bare(dead_drop(SAINTS, 3, 1));
    let preview = s.preview_battle(&r, 7).unwrap();
    let asked: Vec<(&str, &str)> = preview
        .needed
        .iter()
        .map(|n| (n.field.as_str(), n.gang.as_str()))
        .collect();
    assert_eq!(asked, [("bounties", SAINTS), ("bounties", JACKALS)]);
    assert!(preview.needed[0].options.contains(&"Hush".to_owned()));
    assert!(
        preview.needed[0]
            .options
            .contains(&NO_DECLARATION.to_owned())
    );
    assert!(s.record_battle(&r, 7).is_err(), "not skipped silently");

    r.bounties = serde_json::from_value(json!([
        {"by": SAINTS, "fighter": "hush"},
        {"by": JACKALS, "fighter": null},
    ]))
    .unwrap();
    let recorded = s.record_battle(&r, 7).unwrap();
    // 003: "Raise that fighter's Bounty by 1 to a maximum of 5."
    assert_eq!(bounty(&s, "Hush"), 1);
    // ruling bounty-no-declaration: declaring nothing is said, labelled.
    let nothing = recorded
        .procedure
        .changes
        .iter()
        .find(|c| c.gang.as_deref() == Some(JACKALS) && c.text == "declares no Bounty")
        .expect("the no-declaration line");
    assert!(nothing.ruling.is_some());
    assert_eq!(recorded.procedure.battle.declined.len(), 1);
    let story = s.chronicle().unwrap();
    assert!(
        story.battles[0]
            .bounties
            .iter()
            .any(|b| b == "Neon Jackals declared no Bounty"),
        "{:?}",
        story.battles[0].bounties
    );
}

#[test]
fn declaring_nothing_is_refused_where_the_pack_has_no_ruling_for_it() {
    let dir = util::temp();
    let mut registry = rapsheet::session::builtin_registry().unwrap();
    registry
        .add_text(
            "strict.toml",
            r#"
[pack]
id = "strict-bounties"
name = "Strict bounties"
format = 1
base = "heartbreaker"
house_rules = true

[bounties]
counter = "bounty"
claim_resource = "reputation"
claim_per_point = 1
declare_step = 1
declarations_per_gang = 1
"#,
        )
        .unwrap();
    let mut s = Session::create_with(
        &dir.path().join("c.rapsheet"),
        "Strict",
        "strict-bounties",
        registry,
    )
    .unwrap();
    s.found_gang("A", None).unwrap();
    s.found_gang("B", None).unwrap();
    let r = report(
        json!({"scenario": "Dead Drop", "gangs": [{"gang": "A"}, {"gang": "B"}], "winner": "A"}),
    );
    let err = s.preview_battle(&r, 7).unwrap_err().to_string();
    assert!(
        err.starts_with("bounties[0].fighter: missing: A declares a Bounty"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// 3. "Agree upon a scenario ... or roll to randomly determine one" (003:451)
// ---------------------------------------------------------------------------

#[test]
fn the_scenario_is_rolled_among_those_the_arc_allows_seeded_and_logged() {
    let (_dir, mut s) = book();
    let saints = s.gang_named(SAINTS).unwrap().id;
    let jackals = s.gang_named(JACKALS).unwrap().id;
    // No arc yet: First Blood begins one (ruling arc-path).
    let next = s.next_scenarios(saints, jackals).unwrap();
    assert_eq!(next.stages, ["First Blood"]);
    let names: Vec<&str> = next.scenarios.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["Dead Drop", "Seize Production"]);

    let before = s.dump().unwrap();
    let first = s.roll_scenario(saints, jackals, 11).unwrap();
    assert_eq!(first.roll.expression, "d2");
    assert!(names.contains(&first.name.as_str()));
    let log = s.log(1).unwrap();
    assert!(
        log[0].label.starts_with("Scenario rolled for"),
        "{}",
        log[0].label
    );
    // The same seed rolls the same scenario; undo takes the roll back.
    s.undo(first.batch).unwrap();
    assert_eq!(s.dump().unwrap(), before);
    assert_eq!(
        s.roll_scenario(saints, jackals, 11).unwrap().name,
        first.name
    );

    // After a First Blood, only Score to Settle may follow (003: "Score to
    // Settle: Eye for an eye").
    s.record_battle(&report(dead_drop(SAINTS, 3, 1)), 7)
        .unwrap();
    let next = s.next_scenarios(saints, jackals).unwrap();
    assert_eq!(next.stages, ["Score to Settle"]);
    let rolled = s.roll_scenario(saints, jackals, 3).unwrap();
    assert_eq!(rolled.name, "Catch and Release");
    assert_eq!(rolled.roll.expression, "d1");
}

#[test]
fn the_command_line_rolls_the_scenario_and_says_why_a_stage_is_next() {
    let dir = util::temp();
    let d = dir.path();
    let run = |args: &[&str]| util::ok(d, args);
    run(&["demo"]);
    let next = run(&["scenario", "next", SAINTS, JACKALS]);
    assert!(next.contains("First Blood"), "{next}");
    assert!(next.contains("Dead Drop, Seize Production"), "{next}");
    let one = run(&["scenario", "roll", SAINTS, JACKALS, "--seed", "5", "--json"]);
    let two = {
        run(&["undo"]);
        run(&["scenario", "roll", SAINTS, JACKALS, "--seed", "5", "--json"])
    };
    let pick = |text: &str| -> String {
        let v: Value = serde_json::from_str(text).unwrap();
        v["scenario"].as_str().unwrap().to_owned()
    };
    assert_eq!(pick(&one), pick(&two), "a seed repeats its roll");
}

#[test]
fn the_record_screen_rolls_the_scenario() {
    let (_dir, s) = book();
    let mut harness = Harness::builder()
        .with_size([1280.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    harness.get_by_label("Roll the scenario").click();
    harness.run();
    let status = harness.state().status_text().unwrap_or_default().to_owned();
    assert!(
        status.contains("Dead Drop") || status.contains("Seize Production"),
        "{status}"
    );
}

// ---------------------------------------------------------------------------
// 5. Actions that act on the next skirmish
// ---------------------------------------------------------------------------

#[test]
fn set_the_stage_holds_the_next_scenario_to_its_stages() {
    let (_dir, mut s) = book();
    let saints = s.gang_named(SAINTS).unwrap().id;
    s.adjust_resource(saints, "territory", 6, "test").unwrap();
    s.take_action(saints, "Set the Stage", None, None).unwrap();
    // 003: Set the Stage: "You choose the scenario for the next skirmish
    // from all available First Blood, Score to Settle, or Heartbreaker
    // scenarios."
    let r = report(json!({
        "scenario": "Headhunters",
        "gangs": [{"gang": SAINTS, "role": "hunters"}, {"gang": JACKALS, "role": "prey"}],
        "winner": SAINTS,
    }));
    let err = s.preview_battle(&r, 7).unwrap_err().to_string();
    assert!(
        err.starts_with("scenario: The Rust Saints took Set the Stage"),
        "{err}"
    );
    assert!(err.contains("Headhunters is Desperation"), "{err}");
    s.record_battle(&report(dead_drop(SAINTS, 3, 0)), 7)
        .expect("a First Blood scenario");
}

// ---------------------------------------------------------------------------
// 6. New campaigns on the book rules
// ---------------------------------------------------------------------------

#[test]
fn a_new_campaign_plays_the_book_rules_and_house_rules_are_a_labelled_choice() {
    let dir = util::temp();
    let out = rapsheet(dir.path(), &["new", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let s = Session::open(&dir.path().join("c.rapsheet")).unwrap();
    assert_eq!(s.info().unwrap().default_ruleset, "heartbreaker");
    let registry = rapsheet::session::builtin_registry().unwrap();
    assert_eq!(registry.book_default(), Some("heartbreaker"));
    let rulesets: Value =
        serde_json::from_str(&stdout(&rapsheet(dir.path(), &["rulesets", "--json"]))).unwrap();
    let escalation = rulesets
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "heartbreaker-escalation")
        .expect("the house rules");
    assert_eq!(escalation["house_rules"], true, "{escalation:#}");
}

// ---------------------------------------------------------------------------
// 8. Titles never block a battle: the app's banner
// ---------------------------------------------------------------------------

#[test]
fn the_app_asks_for_a_title_choice_in_a_banner() {
    let (_dir, mut s) = book();
    let saints = s.gang_named(SAINTS).unwrap().id;
    // 003: "If a gang qualifies for more than one, they must choose one and
    // the other is granted to second place."
    s.adjust_resource(saints, "supply", 3, "test").unwrap();
    s.adjust_resource(saints, "reputation", 3, "test").unwrap();
    s.record_battle(&report(dead_drop(SAINTS, 3, 0)), 7)
        .unwrap();
    let mut harness = Harness::builder()
        .with_size([1280.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
    harness.run();
    harness.get_by_label("The Rust Saints keeps Legend").click();
    harness.run();
    let path = harness.state().campaign_path().unwrap().to_owned();
    let s = Session::open(&path).unwrap();
    let holders = s.title_holders().unwrap();
    assert_eq!(holders.get("legend"), Some(&saints));
    // 003: "The leader of the gang with the most … holds its title."
    let view = s.titles("heartbreaker").unwrap();
    let legend = view.titles.iter().find(|t| t.id == "legend").unwrap();
    let leader = s
        .roster(saints)
        .unwrap()
        .into_iter()
        .find(|f| f.leader)
        .unwrap()
        .name;
    assert_eq!(legend.holder_leader.as_deref(), Some(leader.as_str()));
    assert!(
        harness
            .query_by_label("The Rust Saints keeps Legend")
            .is_none()
    );
}

// ---------------------------------------------------------------------------
// 9. Reports that contradict their scenario
// ---------------------------------------------------------------------------

#[test]
fn a_winner_short_of_the_endgame_is_recorded_with_a_warning() {
    let (dir, mut s) = book();
    // 003: Dead Drop: "Once one gang has extracted 3 Caches, they win and
    // the skirmish ends immediately."
    let preview = s
        .preview_battle(&report(dead_drop(SAINTS, 0, 2)), 7)
        .unwrap();
    assert_eq!(preview.warnings.len(), 1, "{:?}", preview.warnings);
    assert_eq!(preview.warnings[0].field, "winner");
    assert!(
        preview.warnings[0]
            .text
            .contains("Caches extracted 0, short of the 3")
    );
    // A rival that Ran For It hands the win over whatever the count.
    let mut ran = dead_drop(SAINTS, 0, 2);
    ran["gangs"][1]["ran_for_it"] = json!(true);
    ran["choices"] = json!([{"gang": JACKALS, "rule": "ran-for-it", "pick": "supply"}]);
    assert!(
        s.preview_battle(&report(ran), 7)
            .unwrap()
            .warnings
            .is_empty()
    );

    // 003: Seize Production: "When one gang has reached 10 or more Control
    // Points, they win".
    let seize = report(json!({
        "scenario": "Seize Production",
        "gangs": [
            {"gang": SAINTS, "counts": {"Control Points": 9}},
            {"gang": JACKALS, "counts": {"control-points": 4}},
        ],
        "winner": SAINTS,
        "choices": [
            {"gang": SAINTS, "rule": "WINNER", "pick": "supply"},
            {"gang": JACKALS, "rule": "loser", "pick": "supply"},
        ],
    }));
    let preview = s.preview_battle(&seize, 7).unwrap();
    assert!(preview.needed.is_empty(), "{:?}", preview.needed);
    assert!(
        preview.warnings[0]
            .text
            .contains("Control Points 9, short of the 10")
    );
    // Recorded as told; the command line's dry run says the same.
    s.record_battle(&seize, 7).unwrap();
    drop(s);
    std::fs::write(
        dir.path().join("r.json"),
        serde_json::to_string(&report(dead_drop(SAINTS, 1, 0))).unwrap(),
    )
    .unwrap();
    let out = rapsheet(
        dir.path(),
        &[
            "battle",
            "record",
            "r.json",
            "--dry-run",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("  warning: winner: "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn roles_against_the_previous_skirmish_are_recorded_with_a_warning() {
    let (_dir, mut s) = book();
    s.record_battle(&report(dead_drop(SAINTS, 3, 1)), 7)
        .unwrap();
    // 003: Catch and Release: "The losers of the previous skirmish are the
    // Captors and winners are the Rescuers."
    let swapped = report(json!({
        "scenario": "Catch and Release",
        "gangs": [{"gang": SAINTS, "role": "captors"}, {"gang": JACKALS, "role": "rescuers"}],
        "winner": JACKALS,
    }));
    let preview = s.preview_battle(&swapped, 7).unwrap();
    let fields: Vec<&str> = preview.warnings.iter().map(|w| w.field.as_str()).collect();
    assert_eq!(
        fields,
        ["gangs[0].role", "gangs[1].role"],
        "{:?}",
        preview.warnings
    );
    assert!(
        preview.warnings[0]
            .text
            .contains("The Rust Saints are the Rescuers")
    );
    s.record_battle(&swapped, 7).expect("recorded as told");
}

// ---------------------------------------------------------------------------
// 10. Names matched the same way everywhere
// ---------------------------------------------------------------------------

#[test]
fn outcomes_counts_and_epilogue_lines_are_matched_by_id_or_label_in_any_case() {
    let (_dir, mut s) = book();
    let r = report(json!({
        "scenario": "dead drop",
        "gangs": [
            {"gang": "the rust saints", "counts": {"CACHES EXTRACTED": 3}, "fighters": [
                {"fighter": "brick", "outcome": "Taken Down", "downed_by": "HUSH"},
            ]},
            {"gang": JACKALS, "counts": {"Caches": 1}},
        ],
        "winner": SAINTS,
    }));
    let recorded = s.record_battle(&r, 7).unwrap();
    let brick = recorded
        .procedure
        .battle
        .fighters
        .iter()
        .find(|f| f.downed_by.is_some())
        .expect("Brick, taken down");
    assert_eq!(brick.outcome, "taken_down");
    assert_eq!(recorded.procedure.battle.gangs[0].counts["caches"], 3);
}

// ---------------------------------------------------------------------------
// 7. Rules after advancement
// ---------------------------------------------------------------------------

/// The options of Brick's advancement pick (escalation house rules: a 7 is
/// "an Ability quirk of your choice").
fn ability_offers(s: &Session, gang: &str, fighter: &str) -> Vec<String> {
    let mut r = bare(json!({
        "scenario": "Dead Drop",
        "gangs": [{"gang": SAINTS}, {"gang": JACKALS}],
        "winner": SAINTS,
        "advancements": [{"gang": gang, "fighter": fighter}],
        "dice": [{"roll": format!("advancement: {fighter}"), "faces": [3, 4]}],
    }));
    util::declare_nothing(&mut r);
    let preview = s.preview_battle(&r, 7).unwrap();
    preview
        .needed
        .iter()
        .find(|n| n.field == "picks")
        .map(|n| n.options.clone())
        .unwrap_or_default()
}

#[test]
fn an_advancement_offers_only_quirks_the_fighter_may_take() {
    let dir = util::temp();
    let mut s = Session::create_demo(&dir.path().join("c.rapsheet")).expect("demo");
    let offers = ability_offers(&s, SAINTS, "Brick");
    assert!(offers.iter().any(|o| o == "lightweight"), "{offers:?}");
    // 003: Lightweight "Cannot have armor" (constraint lightweight-no-armor):
    // once Brick wears Light Armor it is not offered.
    let brick = s.fighter_named("Brick", None).unwrap();
    let mut quirks = brick.quirks.clone();
    quirks.push(rapsheet::campaign::QuirkPick::new("light-armor"));
    s.set_quirks(brick.id, quirks).unwrap();
    let offers = ability_offers(&s, SAINTS, "Brick");
    assert!(!offers.iter().any(|o| o == "lightweight"), "{offers:?}");
    // Bonded comes in pairs (constraint bonded-pair): the Jackals have their
    // pair, so a third is not offered.
    let jackals_offers = ability_offers(&s, JACKALS, "Static");
    assert!(
        !jackals_offers.iter().any(|o| o == "bonded"),
        "{jackals_offers:?}"
    );
}

// ---------------------------------------------------------------------------
// 4. Akimbo Holster: "Select one of those weapons for this fighter to Dual
//    Wield using the Akimbo Holster." (003, Gear, AKIMBO HOLSTER)
// ---------------------------------------------------------------------------

#[test]
fn an_akimbo_holster_records_the_weapon_it_dual_wields() {
    let dir = util::temp();
    let d = dir.path();
    let run = |args: &[&str]| util::ok(d, args);
    run(&["new"]);
    run(&["gang", "new", "Ash Dogs"]);
    let out = run(&[
        "fighter",
        "add",
        "Cinder",
        "--gang",
        "Ash Dogs",
        "--quirk",
        "Slasher",
        "--quirk",
        "Akimbo Holster",
    ]);
    assert!(
        out.contains("Akimbo Holster: choose the weapon to dual wield (Slasher)"),
        "{out}"
    );
    run(&["fighter", "quirk", "remove", "Cinder", "Akimbo Holster"]);
    run(&[
        "fighter",
        "quirk",
        "add",
        "Cinder",
        "Akimbo Holster=Slasher",
    ]);
    let shown = run(&["gang", "show", "Ash Dogs"]);
    assert!(shown.contains("Akimbo Holster (Slasher)"), "{shown}");
    assert!(!shown.contains("dual wield"), "{shown}");
    let v: Value = serde_json::from_str(&run(&["fighter", "show", "Cinder", "--json"])).unwrap();
    let akimbo = v["quirks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["id"] == "akimbo-holster")
        .unwrap()
        .clone();
    assert_eq!(akimbo["with"], "slasher");

    // A weapon the fighter does not carry is a problem.
    run(&["fighter", "quirk", "remove", "Cinder", "Akimbo Holster"]);
    let out = run(&["fighter", "quirk", "add", "Cinder", "Akimbo Holster=Basher"]);
    let shown = run(&["gang", "show", "Ash Dogs"]);
    assert!(
        shown.contains("Akimbo Holster: the fighter has no Basher"),
        "{out}{shown}"
    );

    // The card prints the weapon with the quirk.
    run(&["fighter", "quirk", "remove", "Cinder", "Akimbo Holster"]);
    run(&[
        "fighter",
        "quirk",
        "add",
        "Cinder",
        "Akimbo Holster=Slasher",
    ]);
    run(&["cards", "--gang", "Ash Dogs", "-o", "cards.pdf"]);
    if let Ok(out) = std::process::Command::new("pdftotext")
        .arg(d.join("cards.pdf"))
        .arg("-")
        .output()
    {
        let text = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
        assert!(text.contains("Akimbo Holster (Slasher)"), "{text}");
    }
}

/// The fighter editor asks which weapon an Akimbo Holster dual-wields
/// (003: "Select one of those weapons for this fighter to Dual Wield").
#[test]
fn the_editor_asks_for_the_akimbo_holsters_weapon() {
    let dir = util::temp();
    let (_, session) = util::empty_campaign(dir.path(), "app.rapsheet");
    let mut harness = Harness::builder()
        .with_size([1280.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness.get_by_label("New gang name").click();
    harness.run();
    harness.get_by_label("New gang name").type_text("Ash Dogs");
    harness.run();
    harness.get_by_label("Found gang").click();
    harness.run();
    harness.get_by_label("New fighter name").click();
    harness.run();
    harness.get_by_label("New fighter name").type_text("Cinder");
    harness.run();
    harness.get_by_label("Recruit").click();
    harness.run();
    harness.get_by_label("+ Slasher").click();
    harness.run();
    harness.get_by_label("+ Akimbo Holster").click();
    harness.run();
    assert!(
        harness
            .get_all_by_label_contains("Akimbo Holster: choose the weapon to dual wield (Slasher)")
            .count()
            >= 1,
        "the missing choice is a problem until made"
    );
    assert!(
        harness
            .query_by_label("Weapon to Dual Wield (Akimbo Holster)")
            .is_some(),
        "the editor asks for the weapon"
    );
}
