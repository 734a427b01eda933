//! The whole app, driven through its labelled controls with egui_kittest.

use crate::util;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rapsheet::session::Session;
use rapsheet::ui::{Action, CampaignAction, FighterAction, GangAction, RapsheetApp, Screen};

fn harness(app: RapsheetApp) -> Harness<'static, RapsheetApp> {
    Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app)
}

/// Types `text` into the field `label`, replacing what it held (a path
/// offered, say).
fn type_into(harness: &mut Harness<'_, RapsheetApp>, label: &str, text: &str) {
    harness.get_by_label(label).click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.get_by_label(label).type_text(text);
    harness.run();
}

#[test]
fn found_a_gang_recruit_a_fighter_and_read_the_derived_stats() {
    let dir = util::temp();
    let (_, session) = util::empty_campaign(dir.path(), "app.rapsheet");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();

    type_into(&mut harness, "New gang name", "Ash Dogs");
    harness.get_by_label("Found gang").click();
    harness.run();
    let view = harness.state().gang_view().expect("the new gang is shown");
    assert_eq!(view.name, "Ash Dogs");
    // The empty gang breaks the recruiting rules, and says so.
    assert!(
        harness
            .query_by_label_contains("The gang has 0 fighters")
            .is_some()
    );

    type_into(&mut harness, "New fighter name", "Cinder");
    harness.get_by_label("Recruit").click();
    harness.run();
    assert_eq!(harness.state().gang_view().expect("view").fighters.len(), 1);
    // The editor opens on the recruit, showing the base stats.
    assert!(harness.query_by_label("5").is_none(), "no stat is 5 yet");

    harness.get_by_label("+ Heavy Armor").click();
    harness.run();
    harness.get_by_label("+ Pulverizer").click();
    harness.run();

    // 003: Heavy Armor: "Add 4 to this fighter's Armor value and subtract 1"
    // from their speed." Base Armor 1 and Speed 4".
    assert!(!harness.get_all_by_label("5").collect::<Vec<_>>().is_empty());
    assert!(
        !harness
            .get_all_by_label("3\"")
            .collect::<Vec<_>>()
            .is_empty()
    );
    let fighter = &harness.state().gang_view().expect("view").fighters[0];
    let quirks: Vec<&str> = fighter.quirks.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(quirks, ["heavy-armor", "pulverizer"]);
    // Shown beside the gang and in the editor.
    assert!(
        harness
            .get_all_by_label_contains("Cinder: has 2 quirks; a fighter has 4")
            .count()
            >= 1
    );

    // Ctrl+Z takes back the last quirk; Ctrl+Shift+Z puts it back.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    let fighter = &harness.state().gang_view().expect("view").fighters[0];
    assert_eq!(fighter.quirks.len(), 1);
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    harness.run();
    let fighter = &harness.state().gang_view().expect("view").fighters[0];
    assert_eq!(fighter.quirks.len(), 2);
}

#[test]
fn a_resource_change_asks_for_a_reason_and_goes_into_the_log() {
    let dir = util::temp();
    let path = dir.path().join("demo.rapsheet");
    let session = Session::create_demo(&path).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();

    harness.get_by_label("Change Supply…").click();
    harness.run();
    // Without a reason the change cannot be applied.
    harness.get_by_label("Apply change").click();
    harness.run();
    let supply =
        |h: &Harness<'_, RapsheetApp>| h.state().gang_view().expect("view").resources[0].amount;
    assert_eq!(supply(&harness), 0);

    harness
        .get_by_label("Reason (kept in the campaign log)")
        .type_text("scavenged a vending machine");
    harness.run();
    harness.get_by_label("Apply change").click();
    harness.run();
    assert_eq!(supply(&harness), 1);

    let reopened = Session::open(&path);
    // The app still holds the file: a second opener gets it read-only.
    let reopened = reopened.expect("opens read-only");
    assert!(reopened.read_only_reason().is_some());
    let log = reopened.log(1).expect("log");
    let names = reopened.names().expect("names");
    assert!(
        log[0]
            .event
            .describe(&names)
            .contains("Supply +1 (0 → 1): scavenged a vending machine"),
        "{:?}",
        log[0]
    );
}

#[test]
fn a_read_only_campaign_disables_every_edit_control_and_says_why() {
    let dir = util::temp();
    let path = dir.path().join("ro.rapsheet");
    drop(Session::create_demo(&path).expect("demo"));
    let mut perms = std::fs::metadata(&path).expect("meta").permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&path, perms).expect("chmod");

    let session = Session::open(&path).expect("opens");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    for label in ["Found gang", "Recruit", "Change Supply…"] {
        assert!(
            harness.get_by_label(label).accesskit_node().is_disabled(),
            "{label} should be disabled"
        );
    }
    assert!(
        harness
            .query_by_label_contains("Read-only: the file is read-only on disk")
            .is_some()
    );
}

#[test]
fn record_a_battle_in_a_few_clicks_and_take_it_back() {
    let dir = util::temp();
    let path = dir.path().join("battle.rapsheet");
    let session = Session::create_demo(&path).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();

    harness.get_by_label("Record").click();
    harness.run();
    // The form opens on Dead Drop with the gang on screen and its rival.
    // 003, Run For It: "The gang who Ran For It is declared the loser and
    // their rival is declared the winner."
    harness.get_by_label("The Rust Saints Ran For It").click();
    harness.run();
    // 003, Dead Drop: "If either gang Ran For It, they lose 1 Reputation but
    // gain their choice of 1 Supply or 1 Ammo"
    harness.get_by_label("The Rust Saints: Ammo 1").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("The Rust Saints: +1 Ammo")
            .is_some(),
        "the preview shows the change before it is made"
    );
    // The choice made is told in the pack's words, not its ids.
    assert!(harness.query_by_label("Choices made:").is_some());
    assert!(
        harness.query_by_label_contains("ran-for-it").is_none(),
        "no internal id"
    );
    // 003: "Both players declare a Bounty on whichever fighter in the
    // rival's gang they deem to be particularly troublesome."
    harness
        .get_by_label("The Rust Saints: Bounty on Hush")
        .click();
    harness.run();
    harness
        .get_by_label("Neon Jackals: no Bounty declared")
        .click();
    harness.run();
    harness.get_by_label("Commit skirmish").click();
    harness.run();
    assert!(
        harness
            .state()
            .status_text()
            .is_some_and(|s| s.contains("Skirmish #1 recorded"))
    );

    let view = |h: &Harness<'_, RapsheetApp>, gang: &str| {
        let reopened = Session::open(h.state().campaign_path().expect("path")).expect("open");
        let id = reopened.gang_named(gang).expect("gang").id;
        reopened.gang_view(id).expect("view")
    };
    let ammo = |v: &rapsheet::session::GangView| {
        v.resources
            .iter()
            .find(|r| r.id == "ammo")
            .map(|r| r.amount)
    };
    let saints = view(&harness, "The Rust Saints");
    assert_eq!(ammo(&saints), Some(1));
    assert_eq!(saints.titles, vec!["Warlord".to_owned()]);

    // Ctrl+Z takes the whole battle back.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    let saints = view(&harness, "The Rust Saints");
    assert_eq!(ammo(&saints), Some(0));
    assert!(saints.titles.is_empty());
}

/// Picks a scenario in the form's combo box.
fn choose_scenario(harness: &mut Harness<'_, RapsheetApp>, name: &str) {
    harness.get_by_label("Scenario").click();
    harness.run();
    harness.get_by_label(name).click();
    harness.run();
}

#[test]
fn each_of_the_six_scenarios_records_through_the_screen() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("six.rapsheet")).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    let scenarios = [
        "Dead Drop",
        "Seize Production",
        "Catch and Release",
        "Winner Takes All",
        "Headhunters",
        "Cornered Animals",
    ];
    for (n, scenario) in scenarios.into_iter().enumerate() {
        harness.get_by_label("Record").click();
        harness.run();
        choose_scenario(&mut harness, scenario);
        harness.get_by_label("Neon Jackals won").click();
        harness.run();
        // Answer every choice the rules leave to the players with its first
        // option, as a player clicks the first button.
        for _ in 0..6 {
            let Some(first) = harness
                .state()
                .battle_choice_buttons()
                .first()
                .and_then(|options| options.first().cloned())
            else {
                break;
            };
            harness.get_by_label(&first).click();
            harness.run();
        }
        assert_eq!(harness.state().battle_error(), None, "{scenario}");
        harness.get_by_label("Commit skirmish").click();
        harness.run();
        let status = harness.state().status_text().unwrap_or_default().to_owned();
        assert!(
            status.contains(&format!("Skirmish #{} recorded", n + 1)),
            "{scenario}: {status}"
        );
    }
    // Roles came from the previous battle: the Jackals won every battle, so
    // they are the Rescuers and the Prey (003: "The losers of the previous
    // skirmish are the Captors and winners are the Rescuers.").
    let session = Session::open(harness.state().campaign_path().expect("path")).expect("open");
    let battles = session.battles().expect("battles");
    assert_eq!(battles.len(), 6);
    let jackals = session.gang_named("Neon Jackals").expect("gang").id;
    for battle in &battles[2..] {
        let role = battle
            .gangs
            .iter()
            .find(|g| g.gang == jackals)
            .and_then(|g| g.role.clone());
        match battle.scenario.as_deref().unwrap_or_default() {
            "catch-and-release" => assert_eq!(role.as_deref(), Some("rescuers")),
            "headhunters" | "cornered-animals" => assert_eq!(role.as_deref(), Some("prey")),
            _ => assert_eq!(role, None),
        }
    }
}

#[test]
fn an_injury_roll_takes_the_dice_entered_by_hand() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("injury.rapsheet")).expect("demo");
    // Tall enough that the rolls show below whatever choices the app's own
    // first roll asks for.
    let mut harness = Harness::builder()
        .with_size([1280.0, 1600.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    // One click: Static is removed from the Zone, so Static rolls for injury
    // (the demo plays the escalation house rules).
    let removed: Vec<_> = harness.get_all_by_label("Removed from the Zone").collect();
    removed[1].click();
    harness.run();
    harness.get_by_label("Neon Jackals won").click();
    harness.run();
    for gang in ["The Rust Saints", "Neon Jackals"] {
        harness
            .get_by_label(&format!("{gang}: no Bounty declared"))
            .click();
        harness.run();
    }
    // 004: "10-11 WOUNDED: The unit has to rest up to heal or be repaired
    // and may not fight in the next match." Enter 5 and 6 for a total of 11.
    harness.get_by_label("Post-Battle Injury: Static").click();
    harness.run();
    // Half-typed dice never replace the form with an error: the preview
    // keeps the app's roll and the field says what it needs.
    harness
        .get_by_label("Post-Battle Injury: Static")
        .type_text("5");
    harness.run();
    assert_eq!(harness.state().battle_error(), None);
    assert!(harness.query_by_label("needs 2 dice (1 given)").is_some());
    harness
        .get_by_label("Post-Battle Injury: Static")
        .type_text(" 6");
    harness.run();
    assert!(
        harness
            .query_by_label_contains("2d6 [5, 6] = 11: Wounded (your dice)")
            .is_some(),
        "the entered dice are the roll shown"
    );
    harness.get_by_label("Commit skirmish").click();
    harness.run();
    let session = Session::open(harness.state().campaign_path().expect("path")).expect("open");
    let static_ = session.fighter_named("Static", None).expect("Static");
    assert!(matches!(
        static_.status,
        rapsheet::campaign::FighterStatus::Wounded { .. }
    ));
    let details = session.fighter_details(static_.id).expect("details");
    assert!(
        details.history.iter().any(|h| h
            .text
            .contains("[5, 6] = 11: Wounded (dice entered by hand)")),
        "{:#?}",
        details.history
    );
}

#[test]
fn save_pdf_writes_in_the_background_and_says_when_it_is_saved() {
    let dir = util::temp();
    let mut harness = demo_harness(dir.path());
    harness.get_by_label("Print cards…").click();
    harness.run();
    let prints = dir.path().join("prints");
    std::fs::create_dir(&prints).expect("a folder");
    let pdf = prints.join("cards.pdf");
    harness.get_by_label("PDF file path").click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_label("PDF file path")
        .type_text(pdf.to_str().expect("utf-8"));
    harness.run();
    harness.get_by_label("Save PDF").click();
    harness.step();
    // The window keeps drawing frames (a spinner) while the worker writes.
    wait_until(&mut harness, "the PDF was never reported saved", |h| {
        h.query_by_label("Open the PDF").is_some()
    });
    let bytes = std::fs::read(&pdf).expect("the PDF is there");
    assert!(bytes.starts_with(b"%PDF"), "not a PDF");
    // The next printout is offered where this one went.
    assert_eq!(harness.state().output_dir(), prints);
}

#[test]
fn exporting_the_chronicle_runs_in_the_background_and_reports_the_file() {
    let dir = util::temp();
    let mut harness = demo_harness(dir.path());
    harness.get_by_label("Chronicle").click();
    harness.run();
    harness.get_by_label("HTML").click();
    harness.run();
    let file = dir.path().join("story.html");
    type_into(
        &mut harness,
        "Export file path",
        file.to_str().expect("utf-8"),
    );
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "Export")
        .click();
    harness.step();
    wait_until(&mut harness, "the export was never reported written", |h| {
        h.state()
            .status_text()
            .is_some_and(|s| s.starts_with("Exported"))
    });
    let html = std::fs::read_to_string(&file).expect("the export is there");
    assert!(html.contains("<html"), "not HTML");
}

/// Steps frames (a worker thread is writing) until `done`, for at most
/// a minute.
fn wait_until(
    harness: &mut Harness<'_, RapsheetApp>,
    what: &str,
    done: impl Fn(&Harness<'_, RapsheetApp>) -> bool,
) {
    // Bounded by time, not frames: a loaded machine draws fewer of them.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !done(harness) {
        assert!(std::time::Instant::now() < deadline, "{what}");
        std::thread::sleep(std::time::Duration::from_millis(10));
        harness.step();
    }
}

/// Steps frames until a label holding `label` is shown (the League
/// window's work runs on a worker thread), for at most a minute.
fn step_until_shown(harness: &mut Harness<'_, RapsheetApp>, label: &str) {
    wait_until(harness, &format!("never shown: {label}"), |h| {
        h.query_all_by_label_contains(label).next().is_some()
    });
}

/// The app on a demo campaign made by the command line in `dir`.
fn demo_harness(dir: &std::path::Path) -> Harness<'static, RapsheetApp> {
    let out = util::rapsheet(dir, &["demo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", util::stderr(&out));
    let session = Session::open(&dir.join("c.rapsheet")).expect("open");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    harness
}

/// Types `path` into the print window's path field and clicks Save PDF.
fn save_pdf_to(harness: &mut Harness<'_, RapsheetApp>, path: &std::path::Path) {
    harness.get_by_label("PDF file path").click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_label("PDF file path")
        .type_text(path.to_str().expect("utf-8"));
    harness.run();
    harness.get_by_label("Save PDF").click();
    harness.run();
}

#[test]
fn saving_over_an_existing_file_asks_first_and_keeps_it_unless_told() {
    let dir = util::temp();
    let mut harness = demo_harness(dir.path());
    harness.get_by_label("Print cards…").click();
    harness.run();
    let pdf = dir.path().join("mine.pdf");
    std::fs::write(&pdf, b"the player's own file").unwrap();

    save_pdf_to(&mut harness, &pdf);
    assert!(harness.query_by_label("Replace the file?").is_some());
    harness.get_by_label("Keep the file").click();
    harness.run();
    assert!(harness.query_by_label("Replace the file?").is_none());
    assert_eq!(std::fs::read(&pdf).unwrap(), b"the player's own file");

    save_pdf_to(&mut harness, &pdf);
    harness.get_by_label("Replace").click();
    harness.step();
    wait_until(&mut harness, "the PDF was never reported saved", |h| {
        h.query_by_label("Open the PDF").is_some()
    });
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
}

#[test]
fn the_app_never_writes_an_export_over_its_own_campaign() {
    let dir = util::temp();
    let mut harness = demo_harness(dir.path());
    let campaign = dir.path().join("c.rapsheet");
    let before = std::fs::read(&campaign).unwrap();
    harness.get_by_label("Chronicle").click();
    harness.run();
    harness.get_by_label("Markdown").click();
    harness.run();
    type_into(
        &mut harness,
        "Export file path",
        campaign.to_str().expect("utf-8"),
    );
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "Export")
        .click();
    harness.run();
    // It exists, so the app asks; even told to replace, it refuses.
    harness.get_by_label("Replace").click();
    harness.step();
    wait_until(&mut harness, "the refusal was never shown", |h| {
        h.state()
            .status_text()
            .is_some_and(|s| s.contains("open campaign"))
    });
    assert_eq!(std::fs::read(&campaign).unwrap(), before);
}

#[test]
fn a_base_stat_is_raised_in_the_fighter_editor() {
    let dir = util::temp();
    let mut harness = demo_harness(dir.path());
    harness.get_by_label("Hush").click();
    harness.run();
    harness.get_by_label("+ base SPEED").click();
    harness.run();
    let session = Session::open(&dir.path().join("c.rapsheet")).expect("open");
    let log = session.log(1).expect("log");
    let names = session.names().expect("names");
    let line = log[0].event.describe(&names);
    assert!(line.contains("Hush"), "{line}");
    let (label, _) = session.batch(log[0].batch).expect("batch");
    assert!(label.contains("base SPEED"), "{label}");
}

#[test]
fn the_screens_switch_with_ctrl_and_a_number() {
    let dir = util::temp();
    let mut harness = demo_harness(dir.path());
    // What only each screen shows.
    let only = [
        (Screen::Roster, "New fighter name"),
        (Screen::Battle, "Record a skirmish"),
        (Screen::Chronicle, "Export file path"),
    ];
    for (key, screen) in [
        (Key::Num2, Screen::Battle),
        (Key::Num4, Screen::Chronicle),
        (Key::Num1, Screen::Roster),
    ] {
        harness.key_press_modifiers(Modifiers::COMMAND, key);
        harness.run();
        assert_eq!(harness.state().screen(), screen);
        for (other, marker) in only {
            assert_eq!(
                harness.query_by_label(marker).is_some(),
                other == screen,
                "{marker:?} on the {screen:?} screen"
            );
        }
    }
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num3);
    harness.run();
    assert_eq!(harness.state().screen(), Screen::Titles);
    // The tab and the screen's heading.
    assert_eq!(harness.get_all_by_label("Titles").count(), 2);
}

#[test]
fn an_unchanged_campaign_is_drawn_without_reading_the_store() {
    let dir = util::temp();
    let mut harness = demo_harness(dir.path());
    let fighter = harness.state().gang_view().expect("view").fighters[0].id;
    harness
        .state_mut()
        .run_action(Action::Fighter(FighterAction::Select(Some(fighter))));
    harness.state_mut().run_action(Action::ShowLog(true));
    for key in [Key::Num1, Key::Num2, Key::Num3, Key::Num4] {
        harness.key_press_modifiers(Modifiers::COMMAND, key);
        harness.run();
        let before = harness.state().store_reads();
        for _ in 0..5 {
            harness.step();
        }
        let screen = harness.state().screen();
        assert_eq!(
            harness.state().store_reads(),
            before,
            "idle frames of {screen:?} read the store"
        );
    }
    // After an action the store is asked whether anything changed; then
    // idle frames are free again.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num1);
    harness.run();
    let before = harness.state().store_reads();
    harness
        .state_mut()
        .run_action(Action::Fighter(FighterAction::Select(None)));
    assert!(harness.state().store_reads() > before);
    harness.run();
    let before = harness.state().store_reads();
    for _ in 0..5 {
        harness.step();
    }
    assert_eq!(harness.state().store_reads(), before);
}

#[test]
fn clearing_the_record_form_asks_first() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("clear.rapsheet")).expect("demo");
    let mut harness = Harness::builder()
        .with_size([1280.0, 1800.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    harness.get_by_label("Neon Jackals won").click();
    harness.run();
    harness.get_by_label("Clear the form").click();
    harness.run();
    harness.get_by_label("Keep it").click();
    harness.run();
    assert!(harness.query_by_label("Clear the form").is_some());
    assert!(
        harness.state().battle_error().is_none(),
        "the form is as it was"
    );
    harness.get_by_label("Clear the form").click();
    harness.run();
    harness.get_by_label("Clear it").click();
    harness.run();
    assert!(harness.query_by_label("Clear it").is_none());
}

#[test]
fn the_campaign_ruleset_moves_every_gang_only_when_confirmed() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("rules.rapsheet")).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    let ruleset = |h: &Harness<'_, RapsheetApp>| {
        let s = Session::open(h.state().campaign_path().expect("path")).expect("open");
        s.info().expect("info").default_ruleset
    };
    let before = ruleset(&harness);
    harness.get_by_label("Campaign ruleset").click();
    harness.run();
    harness.get_by_label("Heartbreaker").click();
    harness.run();
    assert_eq!(ruleset(&harness), before, "one click changes nothing");
    harness.get_by_label("Keep the ruleset").click();
    harness.run();
    assert_eq!(ruleset(&harness), before);
    harness.get_by_label("Campaign ruleset").click();
    harness.run();
    harness.get_by_label("Heartbreaker").click();
    harness.run();
    harness.get_by_label("Switch them").click();
    harness.run();
    assert_eq!(ruleset(&harness), "heartbreaker");
}

#[test]
fn the_record_screen_opens_on_the_scenario_that_comes_next_without_an_error() {
    let dir = util::temp();
    let mut session = Session::create_demo(&dir.path().join("next.rapsheet")).expect("demo");
    // A First Blood between the demo gangs: Score to Settle comes next
    // (003: "Score to Settle: Eye for an eye"; ruling arc-path), and
    // Catch and Release is its one scenario.
    let mut first: rapsheet::campaign::battle::BattleReport =
        serde_json::from_value(serde_json::json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": "The Rust Saints", "counts": {"caches": 3}},
                {"gang": "Neon Jackals", "counts": {"caches": 1}},
            ],
            "winner": "The Rust Saints",
        }))
        .expect("report");
    util::declare_nothing(&mut first);
    session.record_battle(&first, 7).expect("record");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    harness.run();
    // The stage shown beside the scenario picker.
    assert!(harness.query_by_label("Score to Settle").is_some());
    assert!(
        harness
            .state()
            .battle_error()
            .is_some_and(|e| e.contains("winner"))
    );
    assert!(
        harness
            .query_by_label("Choose who won to see what the skirmish changes.")
            .is_some(),
        "a form not filled in says what comes next, not an error"
    );
    assert!(harness.query_by_label_contains("No winner").is_none());
}

#[test]
fn a_long_gang_list_narrows_as_the_player_types() {
    let dir = util::temp();
    let (_, mut session) = util::empty_campaign(dir.path(), "many.rapsheet");
    for name in [
        "Ash Dogs",
        "Brass Saints",
        "Cinder Crows",
        "Dust Hounds",
        "Ember Kin",
        "Fog Rats",
        "Grime Lords",
        "Husk Boys",
        "Iron Moths",
    ] {
        session.found_gang(name, None).expect("found");
    }
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    assert!(harness.query_by_label_contains("Fog Rats").is_some());
    harness.get_by_label("Find a gang").click();
    harness.run();
    harness.get_by_label("Find a gang").type_text("sAInts");
    harness.run();
    assert!(harness.query_by_label_contains("Brass Saints").is_some());
    assert!(harness.query_by_label_contains("Fog Rats").is_none());
}

/// The list's row of the gang called `name`, as read out.
fn gang_row(harness: &Harness<'_, RapsheetApp>, name: &str) -> String {
    harness
        .get_by_label_contains(&format!("{name}  ("))
        .accesskit_node()
        .label()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_gang_list_marks_the_gangs_that_break_a_recruiting_rule_wherever_they_are() {
    let dir = util::temp();
    let mut session = Session::create_demo(&dir.path().join("marks.rapsheet")).expect("demo");
    // A hundred empty gangs listed before the demo's, and one after them:
    // an empty gang breaks the rules of a starting gang.
    for n in 0..100 {
        session
            .found_gang(&format!("Aa {n:03}"), None)
            .expect("found");
    }
    session.found_gang("Zz Dogs", None).expect("found");
    let gangs = session.gang_list().expect("list");
    assert_eq!(
        gangs
            .iter()
            .find(|g| g.name == "Zz Dogs")
            .and_then(|g| g.legal),
        Some(false)
    );
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    for gang in gangs.iter().filter(|g| g.name.starts_with("Aa 00")) {
        let row = gang_row(&harness, &gang.name);
        assert!(row.ends_with('⚠'), "{row}");
    }
    // A gang far down the list is marked as it comes into view, as the
    // demo's gangs, which follow every rule, are not.
    harness.get_by_label("Find a gang").click();
    harness.run();
    harness.get_by_label("Find a gang").type_text("o");
    harness.run();
    let row = gang_row(&harness, "Zz Dogs");
    assert!(row.ends_with('⚠'), "{row}");
    for gang in gangs.iter().filter(|g| !g.name.starts_with("Aa ")) {
        if gang.name.to_lowercase().contains('o') {
            let row = gang_row(&harness, &gang.name);
            assert_eq!(row.ends_with('⚠'), gang.legal == Some(false), "{row}");
        }
    }
    // Idle frames then read nothing.
    let before = harness.state().store_reads();
    for _ in 0..3 {
        harness.step();
    }
    assert_eq!(harness.state().store_reads(), before);
}

#[test]
fn a_resource_action_the_gang_cannot_afford_says_so_before_it_is_taken() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("afford.rapsheet")).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    harness.get_by_label("Resource action…").click();
    harness.run();
    // The demo gangs start with nothing; 003: Falsify Scarcity "Cost: 3
    // Supply".
    assert!(
        harness
            .query_by_label_contains("can't afford it: has 0 of 3 Supply")
            .is_some()
    );
    assert!(
        harness
            .get_by_label("Take action")
            .accesskit_node()
            .is_disabled()
    );
}

/// 003: Falsify Scarcity "take 1 Territory or 1 Ammo" from a rival: only
/// what the rival holds is offered, and a rival with neither says so.
#[test]
fn a_resource_action_offers_only_what_its_target_holds() {
    let dir = util::temp();
    let mut session = Session::create_demo(&dir.path().join("take.rapsheet")).expect("demo");
    let saints = session.gang_named("The Rust Saints").unwrap().id;
    session
        .adjust_resource(saints, "ammo", 2, "found a cache")
        .unwrap();
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    harness.get_by_label("Resource action…").click();
    harness.run();
    harness.get_by_label("From gang").click();
    harness.run();
    harness.get_by_label("The Rust Saints").click();
    harness.run();
    assert!(harness.query_by_label("1 Ammo").is_some());
    assert!(harness.query_by_label("1 Territory").is_none());
}

#[test]
fn the_view_menu_switches_between_light_and_dark() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("theme.rapsheet")).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label("Light theme").click();
    harness.run();
    assert_eq!(harness.ctx.theme(), egui::Theme::Light);
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label("Dark theme").click();
    harness.run();
    assert_eq!(harness.ctx.theme(), egui::Theme::Dark);
}

#[test]
fn the_welcome_screen_offers_recent_campaigns_and_the_demo() {
    let dir = util::temp();
    let broken = dir.path().join("broken.rapsheet");
    std::fs::write(&broken, b"not a campaign").expect("write");
    let good = dir.path().join("good.rapsheet");
    drop(Session::create_demo(&good).expect("demo"));
    let mut app = RapsheetApp::start(Some(broken));
    app.set_recent(vec![good.clone()]);
    let mut harness = harness(app);
    harness.run();
    assert!(
        harness
            .query_by_label_contains("Could not open the campaign")
            .is_some()
    );
    // A demo of every game that has one, by the game's name.
    assert!(harness.query_by_label("Wayfarer Tactics demo").is_some());
    assert_eq!(
        harness.get_all_by_label_contains(" demo").count(),
        rapsheet::campaign::demo::rulesets().unwrap().len()
    );
    harness.get_by_label("Open good.rapsheet").click();
    harness.run();
    assert_eq!(harness.state().campaign_path(), Some(good.as_path()));
}

#[test]
fn closing_the_campaign_returns_to_the_welcome_screen_and_releases_the_file() {
    let dir = util::temp();
    let path = dir.path().join("c.rapsheet");
    drop(Session::create_demo(&path).expect("demo"));
    for size in [[1000.0, 700.0], [1600.0, 1000.0]] {
        let mut app = RapsheetApp::with_session(Session::open(&path).expect("open"));
        app.set_recent(vec![path.clone()]);
        let mut harness = Harness::builder()
            .with_size(size)
            .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
        harness.run();
        harness.get_by_label("File").click();
        harness.run();
        harness.get_by_label_contains("Close campaign").click();
        harness.run();
        assert_eq!(harness.state().campaign_path(), None);
        assert!(harness.state().shows_welcome());
        assert!(harness.query_by_label("Welcome to Rapsheet").is_some());
        assert!(harness.query_by_label("New campaign…").is_some());
        // Nothing of the campaign stays: no gang list, no screens.
        assert!(harness.query_by_label("Roster").is_none());
        assert!(
            harness.query_by_label_contains("Closed").is_some(),
            "the status says it"
        );
        // The file is free: another session opens it.
        drop(Session::open(&path).expect("released"));
        // And it is one click away again.
        harness.get_by_label("Open c.rapsheet").click();
        harness.run();
        assert_eq!(harness.state().campaign_path(), Some(path.as_path()));
        assert!(!harness.state().shows_welcome());
    }
}

#[test]
fn a_first_run_welcomes_the_player_over_the_demo_and_a_screen_leaves_it() {
    let dir = util::temp();
    let path = dir.path().join("demo.rapsheet");
    let mut app = RapsheetApp::start(Some(path.clone()));
    app.show_welcome();
    let mut harness = harness(app);
    harness.run();
    assert!(harness.query_by_label("Welcome to Rapsheet").is_some());
    assert_eq!(harness.state().campaign_path(), Some(path.as_path()));
    harness.get_by_label_contains("Go to").click();
    harness.run();
    assert!(!harness.state().shows_welcome());
    assert!(harness.query_by_label("Welcome to Rapsheet").is_none());
}

#[test]
fn a_new_campaign_is_named_before_its_file_is_chosen() {
    let dir = util::temp();
    let (_, session) = util::empty_campaign(dir.path(), "app.rapsheet");
    let mut app = RapsheetApp::with_session(session);
    app.use_typed_paths();
    let mut harness = harness(app);
    harness.run();

    harness.key_press_modifiers(Modifiers::COMMAND, Key::N);
    harness.run();
    // No name is refused in words, and the dialog stays.
    harness.get_by_label("Choose where to save it…").click();
    harness.run();
    assert!(harness.query_by_label("Campaign name").is_some());
    assert!(
        harness
            .query_by_label_contains("A campaign needs a name")
            .is_some()
    );

    type_into(&mut harness, "Campaign name", "The Long Winter: 1042");
    harness.get_by_label("Choose where to save it…").click();
    harness.run();
    // The file is offered under the name, made safe for a file system.
    let offered = harness
        .get_by_label("Campaign file path")
        .value()
        .expect("a path");
    assert!(
        offered.ends_with("The Long Winter 1042.rapsheet"),
        "{offered}"
    );
    harness.get_by_label("Create").click();
    harness.run();
    let path = dir.path().join("The Long Winter 1042.rapsheet");
    assert_eq!(harness.state().campaign_path(), Some(path.as_path()));
    drop(harness);
    let info = Session::open(&path).expect("open").info().expect("info");
    assert_eq!(info.name, "The Long Winter: 1042");
}

#[test]
fn the_file_menu_offers_a_demo_of_each_game_that_has_one() {
    let dir = util::temp();
    let (_, session) = util::empty_campaign(dir.path(), "app.rapsheet");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    harness.get_by_label("File").click();
    harness.run();
    harness.get_by_label("Demo campaigns").click();
    harness.run();
    assert!(harness.query_by_label("Wayfarer Tactics demo").is_some());
    assert_eq!(
        harness.get_all_by_label_contains(" demo").count(),
        rapsheet::campaign::demo::rulesets().unwrap().len()
    );

    // What the button asks for, on a file in the test's own folder.
    let path = dir.path().join("marches.rapsheet");
    let mut app = RapsheetApp::start(Some(dir.path().join("first.rapsheet")));
    app.run_action(Action::Campaign(CampaignAction::OpenDemo(
        path.clone(),
        Some("wayfarer".into()),
    )));
    assert_eq!(app.campaign_path(), Some(path.as_path()));
    let view = app.gang_view().expect("a warband on screen");
    assert_eq!(view.ruleset, "wayfarer");
    assert!(view.value.is_some(), "its units are priced");
}

/// 004: "Between matches, players may spend resource points as force
/// points to purchase new units or buy equipment": in the unit editor,
/// what is added while paying is paid for in the same step.
#[test]
fn equipment_bought_in_the_editor_is_paid_for() {
    let dir = util::temp();
    let path = dir.path().join("w.rapsheet");
    let mut session = Session::create(&path, "W", "wayfarer").expect("create");
    let (band, _) = session.found_gang("Red Hand", None).expect("found");
    session
        .adjust_resource(band, "resources", 50, "a match")
        .expect("resources");
    session
        .recruit(
            band,
            rapsheet::campaign::commands::NewFighter {
                name: "Grak".into(),
                ..Default::default()
            },
        )
        .expect("recruit");
    let grak = session.fighter_named("Grak", None).expect("grak").id;
    let mut app = RapsheetApp::with_session(session);
    app.run_action(Action::Gang(GangAction::Select(band)));
    app.run_action(Action::Fighter(FighterAction::Select(Some(grak))));
    let mut harness = Harness::builder()
        .with_size([1600.0, 1600.0])
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
    harness.run();
    harness.get_by_label("Add a component").click();
    harness.run();
    harness
        .get_by_label("Pay for what is added with Resources")
        .click();
    harness.run();
    type_into(&mut harness, "Find component", "Sword");
    harness.get_by_label("+ Sword").click();
    harness.run();
    let view = harness.state().gang_view().expect("view");
    let resources = view.resources.iter().find(|r| r.id == "resources").unwrap();
    // SWORD "+11" (line 3647): 50 - 11.
    assert_eq!(resources.amount, 39);
    assert_eq!(view.fighters[0].quirks[0].name, "Sword");
}

/// 004: "players may spend resource points as force points to purchase
/// new units": a unit recruited with "Pay with Resources" ticked pays its
/// value, which joins the Force Point Pool (ruling force-pool), in one
/// step that one undo takes back.
#[test]
fn a_unit_bought_in_the_app_is_paid_for_and_joins_the_pool() {
    let dir = util::temp();
    let path = dir.path().join("w.rapsheet");
    let mut session = Session::create(&path, "W", "wayfarer").expect("create");
    let (band, _) = session.found_gang("Red Hand", None).expect("found");
    session
        .adjust_resource(band, "resources", 50, "a match")
        .expect("resources");
    let mut app = RapsheetApp::with_session(session);
    app.run_action(Action::Gang(GangAction::Select(band)));
    let mut harness = Harness::builder()
        .with_size([1600.0, 1000.0])
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
    harness.run();
    let purse = |harness: &Harness<'_, RapsheetApp>| {
        let view = harness.state().gang_view().expect("view");
        let amount = |id: &str| view.resources.iter().find(|r| r.id == id).unwrap().amount;
        (amount("resources"), amount("force-pool"))
    };
    assert_eq!(purse(&harness), (50, 500));
    harness.get_by_label("Pay with Resources").click();
    harness.run();
    type_into(&mut harness, "New unit name", "Grak");
    harness.get_by_label("Recruit").click();
    harness.run();
    // Ten attribute dice at their default die, 3 points a die: 30.
    assert_eq!(purse(&harness), (20, 530));
    assert_eq!(harness.state().gang_view().expect("view").fighters.len(), 1);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(purse(&harness), (50, 500));
    assert!(
        harness
            .state()
            .gang_view()
            .expect("view")
            .fighters
            .is_empty()
    );
}

/// House rules kept from a pack file in the app, shown in the sidebar,
/// taken out with a click and brought back by undo; a file that is no
/// pack is told and nothing is kept.
#[test]
fn house_rules_are_kept_from_a_file_taken_out_and_undone_in_the_app() {
    let dir = util::temp();
    let path = dir.path().join("w.rapsheet");
    let session = Session::create(&path, "W", "wayfarer").expect("create");
    let pack = dir.path().join("ours.toml");
    std::fs::write(
        &pack,
        "[pack]\nid = \"ours\"\nname = \"Our occupations\"\nformat = 1\nversion = \"1\"\nbase = \"wayfarer\"\n",
    )
    .unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[pack]\nid = \"bad\"\n").unwrap();
    let mut app = RapsheetApp::with_session(session);
    app.run_action(Action::Campaign(CampaignAction::UsePath(
        rapsheet::ui::PathPurpose::HouseRules,
        bad,
    )));
    assert!(
        app.status_text().is_some_and(|s| s.contains("bad.toml")),
        "{:?}",
        app.status_text()
    );
    app.run_action(Action::Campaign(CampaignAction::UsePath(
        rapsheet::ui::PathPurpose::HouseRules,
        pack,
    )));
    let mut harness = Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
    harness.run();
    harness.get_by_label("Our occupations (house rules)");
    harness.get_by_label("Take out Our occupations").click();
    harness.run();
    assert!(
        harness.query_by_label("Take out Our occupations").is_none(),
        "{:?}",
        harness.state().status_text()
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    harness.get_by_label("Take out Our occupations");
}

/// A Wayfarer match recorded through the Record screen: 004, "the
/// warbands receive a number of resource points equal to the VP they
/// secured x10".
#[test]
fn a_wayfarer_match_records_through_the_screen() {
    let dir = util::temp();
    let session =
        Session::create_demo_of(&dir.path().join("w.rapsheet"), "wayfarer").expect("demo");
    let mut harness = Harness::builder()
        .with_size([1280.0, 1200.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    harness.get_by_label("The Lantern Kin won").click();
    harness.run();
    harness.get_by_label("VP secured (The Lantern Kin)").click();
    harness.run();
    harness
        .get_by_label("VP secured (The Lantern Kin)")
        .type_text("3");
    harness.key_press(Key::Enter);
    harness.run();
    assert!(
        harness
            .query_by_label_contains("The Lantern Kin: +30 Resources")
            .is_some(),
        "the preview shows the VP x10"
    );
    assert_eq!(harness.state().battle_error(), None);
    harness.get_by_label("Commit match").click();
    harness.run();
    let status = harness.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("Match #1 recorded"), "{status}");
    let view = harness.state().gang_view().expect("view");
    let session = Session::open(harness.state().campaign_path().expect("path")).expect("open");
    let kin = session.gang_named("The Lantern Kin").expect("kin");
    assert_eq!(kin.resources["resources"], 30, "{}", view.name);
}

/// 004 (lines 589-593), RANK: "Hero | N/A | Use of heroes is optional."
/// (ruling hero-abilities); (lines 808-809), BESTIAL: "You may never use
/// equipment or possess a Technical OFF score higher than zero." The
/// roster's problems area shows what a unit breaks and the ruling a legal
/// unit relies on.
#[test]
fn the_roster_shows_a_broken_restriction_and_the_ruling_a_unit_relies_on() {
    let dir = util::temp();
    let path = dir.path().join("w.rapsheet");
    let mut session = Session::create(&path, "W", "wayfarer").expect("create");
    let (band, _) = session.found_gang("Red Hand", None).expect("found");
    for (name, parts) in [
        (
            "Ulric",
            &[
                "rank-hero",
                "skill-alert",
                "skill-charge",
                "skill-commander",
            ][..],
        ),
        ("Fang", &["trait-bestial"][..]),
    ] {
        session
            .recruit(
                band,
                rapsheet::campaign::commands::NewFighter {
                    name: name.into(),
                    quirks: parts
                        .iter()
                        .map(|q| rapsheet::campaign::QuirkPick::new(*q))
                        .collect(),
                    ..Default::default()
                },
            )
            .expect("recruit");
    }
    let mut app = RapsheetApp::with_session(session);
    app.run_action(Action::Gang(GangAction::Select(band)));
    let mut harness = Harness::builder()
        .with_size([1600.0, 1000.0])
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
    harness.run();
    assert!(
        harness
            .query_by_label_contains(
                "Fang: A Bestial unit may never possess a Technical OFF score higher than zero. (Technical OFF 1)"
            )
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("Relies on a ruling: No maximum:")
            .is_some()
    );
    assert!(harness.query_by_label_contains("(Ulric)").is_some());
}

/// 31.1: the ruleset a new gang is founded with follows the campaign open
/// now, not the choice made in the one open before.
#[test]
fn a_new_gang_is_founded_on_the_open_campaigns_ruleset() {
    let dir = util::temp();
    let first = Session::create_demo(&dir.path().join("first.rapsheet")).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(first));
    harness.run();
    // In the first campaign, the escalation rules are chosen for a gang.
    harness.get_by_label("Ruleset").click();
    harness.run();
    harness
        .get_all_by_label_contains("escalation")
        .last()
        .expect("the escalation rules offered")
        .click();
    harness.run();
    // Another campaign is opened: a Wayfarer one.
    let second = dir.path().join("second.rapsheet");
    harness
        .state_mut()
        .run_action(Action::Campaign(CampaignAction::OpenDemo(
            second.clone(),
            Some("wayfarer".into()),
        )));
    harness.run();
    util::type_into(&mut harness, "New warband name", "Late Comers");
    harness.get_by_label("Found warband").click();
    harness.run();
    let reopened = Session::open(&second).expect("open");
    let gang = reopened.gang_named("Late Comers").expect("founded");
    assert_eq!(gang.ruleset, "wayfarer");
}

/// 31.7: a roll shown under a check does not outlive an undo, which may
/// have taken back what it showed.
#[test]
fn a_rolls_result_is_gone_after_an_undo() {
    let dir = util::temp();
    let s = Session::create_demo_of(&dir.path().join("c.rapsheet"), "yearzero").expect("demo");
    let mut harness = Harness::builder()
        .with_size([1400.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
    harness.run();
    harness.get_by_label("Ana Reyes").click();
    harness.run();
    harness.get_by_label("Roll Ranged Combat").click();
    harness.run();
    // Agility and Ranged Combat in base dice, Stress level in stress
    // dice: the Year Zero pack's words.
    assert!(
        harness
            .query_by_label_contains("Ranged Combat: ")
            .is_some_and(|_| harness.query_by_label_contains(" base [").is_some())
            && harness.query_by_label_contains(" stress [").is_some()
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert!(
        harness.query_by_label_contains(" stress [").is_none(),
        "the roll is still shown after the undo"
    );
}

/// At 1000×700 and 1600×1000: the character editor leaves the roster
/// room to read, its steps are buttons that say what they do, and the
/// group's data editor's cells are wide enough to type in.
#[test]
fn the_editors_leave_room_at_both_window_sizes() {
    for size in [[1000.0, 700.0], [1600.0, 1000.0]] {
        let dir = util::temp();
        let s = Session::create_demo_of(&dir.path().join("c.rapsheet"), "yearzero").unwrap();
        let mut harness = Harness::builder().with_size(size).build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
        harness.run();
        harness.get_by_label("Ana Reyes").click();
        harness.run();
        // The roster, from its first name to where the editor starts.
        let roster = harness.get_by_label("Tomas Brandt").rect().left();
        let editor = harness.get_by_label("Close editor").rect().left();
        assert!(
            editor - roster > 350.0,
            "{size:?}: the roster has {} px",
            editor - roster
        );
        assert!(harness.query_by_label("+ base STRENGTH").is_some());

        harness.get_by_label("The group's data…").click();
        harness.run();
        // Like every other output, saving the group's data as a file
        // offers a path.
        let offered = harness
            .get_by_label("Save as file")
            .value()
            .unwrap_or_default();
        assert!(offered.ends_with("house rules.toml"), "{offered}");
        harness.get_by_label("Table").click();
        harness.run();
        harness
            .query_all_by_label("Critical Injuries")
            .last()
            .expect("the table")
            .click();
        harness.run();
        let name = harness
            .get_all_by_label("Name")
            .map(|n| n.rect().width())
            .fold(0.0, f32::max);
        assert!(name >= 130.0, "{size:?}: the Name cells are {name} wide");
    }
}

/// A disabled command says why, not "Not available now".
#[test]
fn undo_with_nothing_to_undo_says_so() {
    let dir = util::temp();
    let (_, session) = util::empty_campaign(dir.path(), "app.rapsheet");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    harness.get_by_label("Edit").click();
    harness.run();
    harness.get_by_label_contains("Redo").hover();
    harness.run();
    harness.run();
    assert!(harness.query_by_label_contains("Nothing to redo").is_some());
    assert!(harness.query_by_label_contains("Not available").is_none());
}

/// With one record the chart says the lines start from the next one,
/// rather than leaving two dots to explain themselves.
#[test]
fn the_chart_of_one_record_says_what_it_shows() {
    let dir = util::temp();
    let path = dir.path().join("one.rapsheet");
    let mut s = Session::create_demo(&path).unwrap();
    let report = std::fs::read_to_string("docs/battle-report.in/report.json").unwrap();
    s.record_battle(&serde_json::from_str(&report).unwrap(), 1)
        .unwrap();
    drop(s);
    for size in [[1000.0, 700.0], [1600.0, 1000.0]] {
        let s = Session::open(&path).unwrap();
        let mut harness = Harness::builder().with_size(size).build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
        harness.run();
        harness.get_by_label("Chronicle").click();
        harness.run();
        assert!(
            harness
                .query_by_label("One skirmish so far: each line starts from the next one")
                .is_some()
        );
    }
}

/// 31.8: the desktop's SIGTERM at logout is File ▸ Quit: the frame after
/// it closes the campaign cleanly (nothing left beside its file) and the
/// window.
#[test]
fn the_desktop_ending_the_app_closes_the_campaign_cleanly() {
    let dir = util::temp();
    let path = dir.path().join("c.rapsheet");
    drop(Session::create_demo(&path).expect("demo"));
    let app = RapsheetApp::with_session(Session::open(&path).expect("open"));
    let ended = app.end_flag();
    let mut harness = harness(app);
    harness.run();
    assert!(
        std::fs::read_dir(dir.path()).unwrap().count() > 1,
        "open: its journal beside it"
    );
    ended.store(true, std::sync::atomic::Ordering::Relaxed);
    harness.step();
    assert_eq!(harness.state().campaign_path(), None);
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "c.rapsheet")
        .collect();
    assert!(left.is_empty(), "left beside the campaign: {left:?}");
}

/// A game without titles says so on the Titles screen, not an empty table.
#[test]
fn the_titles_screen_of_a_game_without_titles_says_it_has_none() {
    let dir = util::temp();
    let session =
        Session::create_demo_of(&dir.path().join("yz.rapsheet"), "yearzero").expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    harness.get_by_label("Titles").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("This ruleset has no titles")
            .is_some()
    );
    assert!(harness.query_by_label("Held by").is_none());
}

/// A game with a wide roster and long counts (Wayfarer's "Resources from
/// resource grabs") wraps inside the window at both sizes: the roster's
/// sentences, a warband's row on the record form and the advancement
/// boxes after it all end before the window's edge.
#[test]
fn the_roster_and_record_form_wrap_inside_the_window_at_both_sizes() {
    for size in [[1000.0, 700.0], [1600.0, 1000.0]] {
        let dir = util::temp();
        let s = Session::create_demo_of(&dir.path().join("c.rapsheet"), "wayfarer").unwrap();
        let mut harness = Harness::builder().with_size(size).build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
        harness.run();
        // The roster's sentences wrap at the width in sight, though its
        // table is wider and scrolls sideways.
        let said: Vec<f32> = harness
            .query_all_by_label_contains("Relies on a ruling")
            .map(|n| n.rect().right())
            .collect();
        assert!(
            !said.is_empty(),
            "{size:?}: the rulings the warband relies on"
        );
        for right in &said {
            assert!(
                *right <= size[0],
                "{size:?}: a ruling's line ends at {right}"
            );
        }
        harness.get_by_label("Record").click();
        harness.run();
        harness.run();
        // Each side's field (its label inside the side's box says what is
        // counted; the field's name says whose).
        let counts: Vec<f32> = harness
            .query_all_by_label_contains("Resources from resource grabs")
            .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::SpinButton)
            .map(|n| n.rect().right())
            .collect();
        assert_eq!(counts.len(), 2, "{size:?}: a count for each warband");
        let advance: Vec<f32> = harness
            .query_all_by_label_contains("Advance ")
            .map(|n| n.rect().right())
            .collect();
        assert!(!advance.is_empty(), "{size:?}: the advancement boxes");
        for right in counts.iter().chain(&advance) {
            assert!(*right <= size[0], "{size:?}: a control ends at {right}");
        }
    }
}

/// One campaign's window state never leaks into the next one opened: a
/// record half entered in A (a fighter marked down, the gangs chosen), a
/// new gang's name typed, an open window, are not there when B opens,
/// and B's record form starts as B's own.
#[test]
fn opening_another_campaign_starts_every_screen_as_its_own() {
    let dir = util::temp();
    let a = dir.path().join("a.rapsheet");
    let b = dir.path().join("b.rapsheet");
    drop(Session::create_demo(&b).expect("demo b"));
    let mut app = RapsheetApp::with_session(Session::create_demo(&a).expect("demo a"));
    app.set_recent(vec![b.clone(), a.clone()]);
    let mut harness = harness(app);
    harness.run();
    type_into(&mut harness, "New gang name", "Half-typed Gang");
    harness.get_by_label("Record").click();
    harness.run();
    harness
        .get_all_by_label("Taken down")
        .next()
        .unwrap()
        .click();
    harness.run();
    assert!(
        harness.query_by_label("downed").is_some(),
        "A's form holds a fighter taken down"
    );
    harness.get_by_label("File").click();
    harness.run();
    harness.get_by_label("Recent campaigns").hover();
    harness.run();
    harness.get_by_label(&b.display().to_string()).click();
    harness.run();
    assert_eq!(harness.state().campaign_path(), Some(b.as_path()));
    harness.get_by_label("Record").click();
    harness.run();
    assert!(
        harness.query_by_label("downed").is_none(),
        "B's record form starts with nobody taken down"
    );
    harness.get_by_label("Roster").click();
    harness.run();
    assert_eq!(
        harness
            .get_by_label("New gang name")
            .value()
            .unwrap_or_default(),
        "",
        "the name typed in A is not in B's form"
    );
}

/// Clicks the first option of every choice the record form asks for,
/// until none is left (what the app's rolls ask for depends on them).
fn make_every_choice(harness: &mut Harness<'_, RapsheetApp>) {
    for _ in 0..10 {
        let Some(choice) = harness
            .state()
            .battle_choice_buttons()
            .first()
            .and_then(|c| c.first().cloned())
        else {
            return;
        };
        // The button's name says whose choice it is, and the option.
        let option = choice.split_once(": ").map_or(choice.as_str(), |(_, o)| o);
        let ending = format!(": {option}");
        harness
            .query_all_by(|n| n.label().is_some_and(|l| l.ends_with(&ending)))
            .next()
            .expect("the option's button")
            .click();
        harness.run();
    }
}

/// The roll lines the record form shows, as shown.
fn roll_lines(harness: &Harness<'_, RapsheetApp>) -> Vec<String> {
    harness
        .query_all_by_label_contains("(app)")
        .filter_map(|n| n.accesskit_node().value())
        .collect()
}

/// The app in a window tall enough for a record form's rolls.
fn tall(app: RapsheetApp) -> Harness<'static, RapsheetApp> {
    Harness::builder()
        .with_size([1280.0, 1600.0])
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app)
}

#[test]
fn a_record_begun_comes_back_with_its_rolls_whatever_closed_it() {
    let dir = util::temp();
    let drafts = dir.path().join("drafts");
    let a = dir.path().join("a.rapsheet");
    let b = dir.path().join("b.rapsheet");
    drop(Session::create_demo(&b).expect("demo b"));
    let mut app = RapsheetApp::with_session(Session::create_demo(&a).expect("demo a"));
    app.keep_drafts_in(drafts.clone());
    app.set_recent(vec![b.clone(), a.clone()]);
    let mut harness = tall(app);
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    let removed: Vec<_> = harness.get_all_by_label("Removed from the Zone").collect();
    removed[1].click();
    harness.run();
    harness.get_by_label("Neon Jackals won").click();
    harness.run();
    for gang in ["The Rust Saints", "Neon Jackals"] {
        harness
            .get_by_label(&format!("{gang}: no Bounty declared"))
            .click();
        harness.run();
    }
    type_into(&mut harness, "Notes", "fog on the bridge");
    harness.run();
    let rolled = roll_lines(&harness);
    assert!(
        !rolled.is_empty(),
        "the app rolled for the fighter taken down"
    );

    // Another campaign opened, then this one again: the form is back,
    // with the rolls it showed, not new ones.
    let open_recent = |harness: &mut Harness<'_, RapsheetApp>, path: &std::path::Path| {
        harness.get_by_label("File").click();
        harness.run();
        harness.get_by_label("Recent campaigns").hover();
        harness.run();
        harness.get_by_label(&path.display().to_string()).click();
        harness.run();
    };
    open_recent(&mut harness, &b);
    harness.get_by_label("Record").click();
    harness.run();
    assert!(
        harness.query_by_label("downed").is_none(),
        "B's form is B's"
    );
    open_recent(&mut harness, &a);
    assert!(
        harness
            .state()
            .status_text()
            .is_some_and(|s| s.contains("begun before")),
        "the player is told: {:?}",
        harness.state().status_text()
    );
    harness.get_by_label("Record").click();
    harness.run();
    assert!(
        harness.query_by_label("downed").is_some(),
        "A's form is back"
    );
    assert_eq!(roll_lines(&harness), rolled, "the same rolls, not new ones");

    // Ctrl+Q, and the app started again on the campaign.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Q);
    harness.run();
    drop(harness);
    let mut app = RapsheetApp::with_session(Session::open(&a).expect("reopen"));
    app.keep_drafts_in(drafts.clone());
    let mut harness = tall(app);
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    assert_eq!(
        harness.get_by_label("Notes").value().unwrap_or_default(),
        "fog on the bridge"
    );
    assert_eq!(
        roll_lines(&harness),
        rolled,
        "the rolls shown before quitting"
    );

    // Committed, it is forgotten: the next start has an empty form.
    make_every_choice(&mut harness);
    harness.get_by_label("Commit skirmish").click();
    harness.run();
    assert!(
        harness
            .state()
            .status_text()
            .is_some_and(|s| s.contains("recorded")),
        "{:?} {:?} {:?}",
        harness.state().status_text(),
        harness.state().battle_error(),
        harness.state().battle_choice_buttons()
    );
    drop(harness);
    let mut app = RapsheetApp::with_session(Session::open(&a).expect("reopen"));
    app.keep_drafts_in(drafts);
    let mut harness = tall(app);
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    assert!(harness.query_by_label("downed").is_none(), "nothing begun");
    assert_eq!(
        harness.get_by_label("Notes").value().unwrap_or_default(),
        ""
    );
}

/// A draft of the demo's two gangs, well shaped, with `extra` fields
/// (RON) after those kept side by side.
fn draft_of_two(extra: &str) -> String {
    format!(
        "(gangs: [Some(1), Some(2)], roles: [None, None], ran: [false, false], \
         counts: [{{}}, {{}}], bounties: [None, None], seed: 42, {extra})"
    )
}

#[cfg(unix)]
#[test]
fn a_malformed_draft_is_set_aside_and_said_never_a_crash() {
    let dir = util::temp();
    let a = dir.path().join("a.rapsheet");
    drop(Session::create_demo(&a).expect("demo"));
    let folder = dir.path().join("drafts");
    std::fs::create_dir(&folder).unwrap();
    /// What puts a shape of draft in the draft's place.
    type Put = Box<dyn Fn(&std::path::Path)>;
    let text = |t: String| -> Put { Box::new(move |p| std::fs::write(p, &t).unwrap()) };
    let shapes: Vec<(&str, Put)> = vec![
        // The shape that crashed the window at Record.
        (
            "sides without their lists",
            text("(gangs: [Some(1), Some(2)], seed: 42)".into()),
        ),
        ("a winner past the sides", text(draft_of_two("winner: Some(5)"))),
        (
            "a choice of a side past the sides",
            text(draft_of_two("choices: {(7, \"x\"): \"y\"}")),
        ),
        (
            "three megabytes of notes",
            text(draft_of_two(&format!("notes: \"{}\"", "n".repeat(3 << 20)))),
        ),
        (
            "a fighter who does not exist",
            text(draft_of_two("outcomes: {9999: (\"\", None)}")),
        ),
        (
            "a gang that does not exist",
            text("(gangs: [Some(77), Some(2)], roles: [None, None], ran: [false, false], counts: [{}, {}], bounties: [None, None], seed: 42)".into()),
        ),
        (
            "another game's draft",
            text(draft_of_two("scenario: \"a-scenario-of-another-game\"")),
        ),
        ("not a form", text("{\"gangs\": [[[".into())),
        (
            "not text",
            Box::new(|p| std::fs::write(p, [0xff, 0xfe, b'(']).unwrap()),
        ),
        (
            "over four megabytes",
            Box::new(|p| {
                std::fs::File::create(p)
                    .unwrap()
                    .set_len(4 * 1024 * 1024 + 1)
                    .unwrap()
            }),
        ),
        (
            "a link to /dev/zero",
            Box::new(|p| std::os::unix::fs::symlink("/dev/zero", p).unwrap()),
        ),
        (
            "a pipe",
            Box::new(|p| {
                let made = std::process::Command::new("mkfifo").arg(p).status().unwrap();
                assert!(made.success(), "mkfifo is needed for this test");
            }),
        ),
        ("a folder", Box::new(|p| std::fs::create_dir(p).unwrap())),
    ];
    for (shape, put) in shapes {
        let session = Session::open(&a).expect("open");
        let drafts = rapsheet::session::Drafts::in_folder(&folder);
        let place = drafts.file(session.path());
        // The form the last shape's Record made is kept there: this
        // shape takes its place.
        let _ = std::fs::remove_file(&place);
        put(&place);
        let mut app = RapsheetApp::with_session(session);
        app.keep_drafts_in(folder.clone());
        let status = app.status_text().unwrap_or_default().to_owned();
        assert!(
            status.contains("set aside, not brought back") && status.contains(".set-aside"),
            "{shape}: the player is told, and where it went: {status}"
        );
        assert_eq!(status.lines().count(), 1, "{shape}: {status}");
        assert!(
            place.symlink_metadata().is_err(),
            "{shape}: no longer where drafts are read from"
        );
        let mut harness = tall(app);
        harness.run();
        // Record, twice over: the form starts empty and draws.
        harness.get_by_label("Record").click();
        harness.run();
        harness.run();
        assert_eq!(
            harness.get_by_label("Notes").value().unwrap_or_default(),
            "",
            "{shape}"
        );
        assert_eq!(harness.state().screen(), Screen::Battle, "{shape}");
        drop(harness);
    }
    // Each one is kept beside, none lost: thirteen set aside.
    let aside = std::fs::read_dir(&folder)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".set-aside")
        })
        .count();
    assert_eq!(aside, 13);
}

#[test]
fn a_gang_is_renamed_and_its_notes_written_in_the_window_each_one_undo() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("names.rapsheet")).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    let before = harness
        .state()
        .gang_view()
        .expect("a gang shown")
        .name
        .clone();
    harness.get_by_label("Rename or write notes…").click();
    harness.run();
    harness.get_by_label("Gang name").click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_label("Gang name")
        .type_text("Ash Road Irregulars");
    harness.run();
    harness.key_press(Key::Enter);
    harness.run();
    assert_eq!(
        harness.state().gang_view().map(|g| g.name.as_str()),
        Some("Ash Road Irregulars"),
        "Enter renames: {:?}",
        harness.state().status_text()
    );
    let notes_before = harness.state().gang_view().expect("shown").notes.clone();
    harness.get_by_label("Notes").click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_label("Notes")
        .type_text("Owe the Saints a favour.");
    harness.run();
    harness.get_by_label("Save notes").click();
    harness.run();
    assert_eq!(
        harness.state().gang_view().map(|g| g.notes.as_str()),
        Some("Owe the Saints a favour.")
    );
    assert!(harness.query_by_label("Done").is_some(), "all saved");
    // A name another gang has is refused, and what was typed stays.
    let other = ["Neon Jackals", "The Rust Saints"]
        .into_iter()
        .find(|n| *n != before)
        .expect("a second gang");
    harness.get_by_label("Gang name").click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.get_by_label("Gang name").type_text(other);
    harness.run();
    harness.get_by_label("Rename").click();
    harness.run();
    assert_eq!(
        harness.get_by_label("Gang name").value().as_deref(),
        Some(other)
    );
    assert!(harness.query_by_label("Close without saving").is_some());
    harness.key_press(Key::Escape);
    harness.run();
    assert!(
        harness.query_by_label("Gang name").is_none(),
        "Escape closes it"
    );
    // Undo takes back the notes, then the name.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(
        harness.state().gang_view().map(|g| g.notes.clone()),
        Some(notes_before)
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(
        harness.state().gang_view().map(|g| g.name.clone()),
        Some(before)
    );
}

fn focused(harness: &Harness<'_, RapsheetApp>) -> Option<String> {
    harness
        .query_by(|n| n.is_focused())
        .and_then(|n| n.accesskit_node().label())
}

/// Presses Tab until the field labelled `label` has focus, the `nth` of
/// that label (0 the first) counted in Tab order; panics after 200 stops.
fn tab_to(harness: &mut Harness<'_, RapsheetApp>, label: &str, nth: usize) {
    let mut seen = 0;
    tab_until(harness, label, |here| {
        let found = here == label && seen == nth;
        seen += usize::from(here == label);
        found
    });
}

/// Presses Tab until the field with focus has a label `found` takes;
/// panics after 200 stops.
fn tab_until(
    harness: &mut Harness<'_, RapsheetApp>,
    what: &str,
    mut found: impl FnMut(&str) -> bool,
) {
    for _ in 0..200 {
        harness.key_press(Key::Tab);
        harness.run();
        if focused(harness).is_some_and(|here| found(&here)) {
            return;
        }
    }
    panic!("Tab never reached {what}");
}

/// 5: a whole record typed with the keyboard alone.
#[test]
fn a_whole_record_is_typed_with_the_keyboard_alone() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("keys.rapsheet")).expect("demo");
    let mut harness = tall(RapsheetApp::with_session(session));
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num2);
    harness.run();
    // The form takes the keyboard where it starts.
    assert_eq!(focused(&harness).as_deref(), Some("Scenario"));
    // A list opened with Enter closes when Enter chooses in it, and Tab
    // goes on to the next field.
    harness.key_press(Key::Enter);
    harness.run();
    harness.key_press(Key::ArrowDown);
    harness.run();
    harness.key_press(Key::ArrowDown);
    harness.run();
    harness.key_press(Key::Enter);
    harness.run();
    assert_eq!(focused(&harness).as_deref(), Some("Scenario"));
    let scenario = harness.get_by_label("Scenario").value().unwrap_or_default();
    assert_ne!(scenario, "Dead Drop", "the choice made with keys");
    assert_eq!(
        harness
            .query_all_by_role(egui::accesskit::Role::ListBox)
            .count(),
        0,
        "the list closed"
    );
    // Escape lets go of the field; Tab goes on in the form, not to the
    // menu bar.
    harness.key_press(Key::Escape);
    harness.run();
    harness.key_press(Key::Tab);
    harness.run();
    assert_eq!(focused(&harness).as_deref(), Some("Roll the scenario"));
    // Static (the second fighter) is removed from the Zone.
    tab_to(&mut harness, "Removed from the Zone", 1);
    harness.key_press(Key::Space);
    harness.run();
    tab_to(&mut harness, "Neon Jackals won", 0);
    harness.key_press(Key::Space);
    harness.run();
    for gang in ["The Rust Saints", "Neon Jackals"] {
        tab_to(&mut harness, &format!("{gang}: no Bounty declared"), 0);
        harness.key_press(Key::Space);
        harness.run();
    }
    // The choices the rules leave to the players, each a button, the
    // first of each taken, until none is left.
    for _ in 0..10 {
        let Some(choice) = harness
            .state()
            .battle_choice_buttons()
            .first()
            .and_then(|c| c.first().cloned())
        else {
            break;
        };
        // The button's name says whose choice it is, and the option.
        let option = choice.split_once(": ").map_or(choice.as_str(), |(_, o)| o);
        let ending = format!(": {option}");
        tab_until(&mut harness, &choice, |here| here.ends_with(&ending));
        harness.key_press(Key::Space);
        harness.run();
    }
    tab_to(&mut harness, "Notes", 0);
    harness.event(egui::Event::Text("typed, not clicked".into()));
    harness.run();
    harness.key_press(Key::Escape);
    harness.run();
    assert!(
        harness.state().battle_choice_buttons().is_empty()
            && harness.state().battle_error().is_none(),
        "nothing left to choose: {:?} {:?}",
        harness.state().battle_error(),
        harness.state().battle_choice_buttons()
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    harness.run();
    let said = harness.state().status_text().unwrap_or_default().to_owned();
    assert!(
        said.contains("recorded"),
        "committed with Ctrl+Enter: {said}"
    );
    // What was typed went into the record.
    drop(harness);
    let out = util::rapsheet(dir.path(), &["battle", "list", "--db", "keys.rapsheet"]);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(listed.contains(&scenario), "{listed}");
    util::rapsheet(
        dir.path(),
        &[
            "export",
            "campaign",
            "--db",
            "keys.rapsheet",
            "--format",
            "md",
            "-o",
            "story.md",
        ],
    );
    let story = std::fs::read_to_string(dir.path().join("story.md")).expect("exported");
    assert!(story.contains("typed, not clicked"), "{story}");
}

/// 004: "for every full hundred points of resources gained, you may
/// nominate a single, non-defeated (non-vehicle) unit to roll once": the
/// Advance boxes are offered only as far as the rolls allow, and say why.
#[test]
fn advance_boxes_are_offered_only_as_far_as_the_rolls_allow() {
    let dir = util::temp();
    let session =
        Session::create_demo_of(&dir.path().join("w.rapsheet"), "wayfarer").expect("demo");
    let mut harness = tall(RapsheetApp::with_session(session));
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    harness.get_by_label("The Lantern Kin won").click();
    harness.run();
    let boxes = |harness: &Harness<'_, RapsheetApp>| -> Vec<(String, bool)> {
        harness
            .query_all_by_label_contains("Advance ")
            .map(|n| {
                let n = n.accesskit_node();
                (n.label().unwrap_or_default(), n.is_disabled())
            })
            .collect()
    };
    // 30 resources gained: no roll, no box to tick.
    let vp = "VP secured (The Lantern Kin)";
    harness.get_by_label(vp).click();
    harness.run();
    harness.get_by_label(vp).type_text("3");
    harness.key_press(Key::Enter);
    harness.run();
    assert!(!boxes(&harness).is_empty());
    assert!(
        boxes(&harness).iter().all(|(_, off)| *off),
        "{:?}",
        boxes(&harness)
    );
    // 100 gained (VP 10): one of the Kin's boxes, then no other of theirs.
    harness.get_by_label(vp).click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.get_by_label(vp).type_text("10");
    harness.key_press(Key::Enter);
    harness.run();
    let first = boxes(&harness)
        .into_iter()
        .find(|(_, off)| !off)
        .map(|(label, _)| label)
        .expect("a box the roll allows");
    harness.get_by_label(&first).click();
    harness.run();
    let after = boxes(&harness);
    assert_eq!(
        after.iter().filter(|(_, off)| !off).count(),
        1,
        "only the ticked box can change: {after:?}"
    );
    assert_eq!(harness.state().battle_error(), None, "the preview stays");
    assert!(harness.query_by_label("Commit match").is_some());
}

/// The League window of a campaign in no league: the organiser's tasks
/// are said to be the command line's, and a join that fails says why in
/// the window, in words, not with the system's error number.
#[test]
fn a_failed_join_says_why_in_the_league_window() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("solo.rapsheet")).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    harness.get_by_label("File").click();
    harness.run();
    harness.get_by_label("League…").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("rapsheet league init")
            .is_some()
    );
    assert!(harness.query_by_label("Choose invite…").is_some());
    // An invite to a server nothing answers at.
    let invite = dir.path().join("ann.invite");
    std::fs::write(
        &invite,
        "host = \"127.0.0.1\"\nport = 1\ndatabase = \"league\"\nlogin = \"ann\"\npassword = \"pw\"\ncertificate = \"\"\n",
    )
    .expect("invite");
    let to = dir.path().join("joined.rapsheet");
    type_into(&mut harness, "Invite file", &invite.display().to_string());
    type_into(&mut harness, "New campaign file", &to.display().to_string());
    harness.get_by_label("Join the league").click();
    // The join runs on a worker and the window keeps drawing meanwhile:
    // one frame at a time, never waiting for it to settle.
    harness.step();
    step_until_shown(&mut harness, "Not joined:");
    let said = harness
        .query_by_label_contains("Not joined:")
        .and_then(|n| n.accesskit_node().value())
        .expect("said in the window");
    assert!(!said.contains("os error"), "{said}");
    assert!(!to.exists(), "no campaign made");
}

/// A join waits on a server that took the connection and says nothing:
/// the window goes on meanwhile (the progress line says what it waits for,
/// the other controls answer at once, a second join waits), and once the
/// server lets go the failure is said in the window.
#[test]
fn the_league_window_goes_on_while_a_join_waits_on_the_server() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("solo.rapsheet")).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    // A server that takes the connection and answers nothing until let go.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("its address").port();
    let (let_go, held) = std::sync::mpsc::channel::<()>();
    let server = std::thread::spawn(move || {
        let (socket, _) = listener.accept().expect("the join connects");
        let _ = held.recv();
        drop(socket);
    });
    let invite = dir.path().join("ann.invite");
    let certificate = util::postgres::other_certificate();
    std::fs::write(
        &invite,
        format!(
            "host = \"127.0.0.1\"\nport = {port}\ndatabase = \"league\"\nlogin = \"ann\"\npassword = \"pw\"\ncertificate = '''\n{certificate}'''\n"
        ),
    )
    .expect("invite");
    let to = dir.path().join("joined.rapsheet");
    harness.get_by_label("File").click();
    harness.run();
    harness.get_by_label("League…").click();
    harness.run();
    type_into(&mut harness, "Invite file", &invite.display().to_string());
    type_into(&mut harness, "New campaign file", &to.display().to_string());
    harness.get_by_label("Join the league").click();
    harness.run();
    step_until_shown(&mut harness, "Joining the league…");
    // In the window and in the status bar.
    assert_eq!(
        harness
            .query_all_by_label_contains("Joining the league…")
            .count(),
        2
    );
    assert!(
        harness
            .get_by_label("Join the league")
            .accesskit_node()
            .is_disabled(),
        "a second join waits"
    );
    // The other controls answer, each frame at once: a shortcut, and a
    // field of the window.
    let started = std::time::Instant::now();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num4);
    harness.run();
    assert_eq!(harness.state().screen(), Screen::Chronicle);
    type_into(&mut harness, "Invite file", "elsewhere.invite");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "the window waited: {:?}",
        started.elapsed()
    );
    assert!(
        harness
            .query_all_by_label_contains("Joining the league…")
            .next()
            .is_some(),
        "still joining"
    );
    let_go.send(()).expect("the server waits");
    server.join().expect("the server ends");
    step_until_shown(&mut harness, "Not joined:");
    assert!(
        harness
            .query_all_by_label_contains("Joining the league…")
            .next()
            .is_none(),
        "the progress line goes"
    );
    assert!(
        !harness
            .get_by_label("Join the league")
            .accesskit_node()
            .is_disabled()
    );
    assert!(!to.exists(), "no campaign made");
    assert!(
        harness
            .state()
            .campaign_path()
            .is_some_and(|p| p.ends_with("solo.rapsheet"))
    );
}

/// 11: the New campaign dialog offers the games, its hint does not read
/// as typed, and its "needs a name" goes once a name is typed.
#[test]
fn a_new_campaign_is_named_and_given_its_game_in_one_dialog() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("old.rapsheet")).expect("demo");
    let mut app = RapsheetApp::with_session(session);
    app.use_typed_paths();
    let mut harness = harness(app);
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::N);
    harness.run();
    assert_eq!(
        harness.get_by_label("Campaign name").value().as_deref(),
        Some(""),
        "a hint, not a name"
    );
    harness.get_by_label("Choose where to save it…").click();
    harness.run();
    let errors = |h: &Harness<'_, RapsheetApp>| h.query_all_by_label_contains("A campaign").count();
    assert_eq!(errors(&harness), 1, "a name is needed");
    harness
        .get_by_label("Campaign name")
        .type_text("Long Winter");
    harness.run();
    assert_eq!(errors(&harness), 0, "the error goes as the name is typed");
    harness.get_by_label("Game").click();
    harness.run();
    harness.get_by_label_contains("Wayfarer").click();
    harness.run();
    harness.get_by_label("Choose where to save it…").click();
    harness.run();
    let path = dir.path().join("winter.rapsheet");
    harness.get_by_label("Campaign file path").click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_label("Campaign file path")
        .type_text(&path.display().to_string());
    harness.run();
    harness.get_by_label("Create").click();
    harness.run();
    assert_eq!(harness.state().campaign_path(), Some(path.as_path()));
    drop(harness);
    let made = Session::open(&path).expect("made");
    assert_eq!(made.info().expect("info").default_ruleset, "wayfarer");
}

/// 11: every output field starts with a file offered where outputs go,
/// named for the campaign; the chronicle's follows the format chosen.
#[test]
fn output_fields_start_with_a_file_named_for_the_campaign() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("offered.rapsheet")).expect("demo");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    let value = |h: &Harness<'_, RapsheetApp>, label: &str| {
        h.get_by_label(label).value().unwrap_or_default()
    };
    for (menu, field, ends, close) in [
        (
            "Bundles…",
            "Bundle file to write",
            " bundle.json",
            "Close the bundles",
        ),
        (
            "League…",
            "New campaign file",
            " league.rapsheet",
            "Close the league window",
        ),
        // The other copy is looked for in this one's folder.
        ("Merge…", "The other copy", "/", "Close the merge"),
    ] {
        harness.get_by_label("File").click();
        harness.run();
        harness.get_by_label(menu).click();
        harness.run();
        let offered = value(&harness, field);
        assert!(offered.ends_with(ends), "{menu}: {offered}");
        assert!(
            std::path::Path::new(&offered).starts_with(dir.path()),
            "beside the campaign: {offered}"
        );
        harness.get_by_label(close).click();
        harness.run();
    }
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num4);
    harness.run();
    assert!(value(&harness, "Export file path").ends_with(" chronicle.md"));
    harness.get_by_label("PDF").click();
    harness.run();
    assert!(value(&harness, "Export file path").ends_with(" chronicle.pdf"));
}

/// 14: the Edit menu says what Undo will take back.
#[test]
fn the_edit_menu_says_what_undo_takes_back() {
    let dir = util::temp();
    let mut harness = demo_harness(dir.path());
    harness.get_by_label("File").click();
    harness.run();
    harness.key_press(Key::Escape);
    harness.run();
    type_into(&mut harness, "New gang name", "The Ninth Hour");
    harness.get_by_label("Found gang").click();
    harness.run();
    harness.get_by_label("Edit").click();
    harness.run();
    let undo = harness
        .query_by_label_contains("Undo “")
        .and_then(|n| n.accesskit_node().label())
        .expect("Undo says what");
    assert!(undo.contains("The Ninth Hour"), "{undo}");
}

/// 14: HWC's empty list of possessions says how to fill it; Enter in
/// the search adds the one entry found, and the list of entries to add
/// stays where it was under the pointer as the fighter's own list grows.
#[test]
fn the_list_of_entries_to_add_hints_adds_on_enter_and_stays_put() {
    let dir = util::temp();
    let s = Session::create_demo_of(&dir.path().join("c.rapsheet"), "hwc").unwrap();
    let mut harness = Harness::builder()
        .with_size([1000.0, 700.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
    harness.run();
    harness.get_by_label("Marisol Vega").click();
    harness.run();
    harness.get_by_label_contains("Add a ").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("The rule text lists no")
            .is_some(),
        "an empty list says how to fill it"
    );

    // Wayfarer: Enter adds the single match, and the list stays put.
    let dir = util::temp();
    let s = Session::create_demo_of(&dir.path().join("w.rapsheet"), "wayfarer").unwrap();
    let mut harness = Harness::builder()
        .with_size([1000.0, 700.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(s),
        );
    harness.run();
    let first = harness.state().gang_view().expect("gang").fighters[0].clone();
    harness
        .state_mut()
        .run_action(Action::Fighter(FighterAction::Select(Some(first.id))));
    harness.run();
    harness.get_by_label_contains("Add a ").scroll_to_me();
    harness.run();
    if harness.query_by_label("Find component").is_none() {
        harness.get_by_label_contains("Add a ").click();
        harness.run();
    }
    let count = |h: &Harness<'_, RapsheetApp>| {
        h.state()
            .gang_view()
            .and_then(|g| g.fighters.iter().find(|f| f.id == first.id).cloned())
            .map_or(0, |f| f.quirks.len())
    };
    let before = count(&harness);
    type_into(&mut harness, "Find component", "Alert");
    harness.key_press(Key::Enter);
    harness.run();
    assert_eq!(
        count(&harness),
        before + 1,
        "Enter added Alert: {:?}",
        harness.state().status_text()
    );
    // The search is emptied for the next, and keeps the keyboard.
    let find = harness.get_by_label("Find component");
    assert_eq!(find.value().unwrap_or_default(), "");
    assert!(find.is_focused(), "the search keeps the keyboard");
    let button = "+ Sword";
    harness.get_by_label(button).scroll_to_me();
    harness.run();
    let at = harness.get_by_label(button).rect().top();
    harness.get_by_label(button).click();
    for _ in 0..4 {
        harness.run();
    }
    assert_eq!(
        count(&harness),
        before + 2,
        "{:?}",
        harness.state().status_text()
    );
    let now = harness.get_by_label(button).rect().top();
    assert!((now - at).abs() < 2.0, "the list moved from {at} to {now}");
}

/// The demo campaign at `path`, opened once by the app (so kept with a
/// write-ahead log, as every campaign the app has opened is).
fn opened_demo(path: &std::path::Path) {
    drop(Session::create_demo(path).expect("demo"));
    drop(Session::open(path).expect("open"));
}

#[test]
fn the_first_frame_is_drawn_before_the_page_check_which_then_frees_the_campaign() {
    let dir = util::temp();
    let path = dir.path().join("c.rapsheet");
    opened_demo(&path);
    let backups = dir.path().join("backups");
    let mut app = RapsheetApp::launch(Some(path), None, Some(backups.clone()), Default::default());
    // Opened and read; nothing checked yet, no backup made.
    assert!(app.checking());
    assert!(!backups.exists());
    // The first frame, drawn as the window draws it: the campaign is on
    // screen, read-only while its pages are to be checked, and the
    // check waits for the frame to be shown.
    let ctx = egui::Context::default();
    // The app's fonts are installed in its first frame, for the next.
    ctx.set_missing_glyph_policy(egui::MissingGlyphPolicy::Tofu);
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 900.0),
        )),
        ..Default::default()
    };
    let frame = |app: &mut RapsheetApp| {
        let mut output = ctx.run_ui(input.clone(), |ui| app.frame_ui(ui));
        output.textures_delta.clear();
        format!("{:?}", output.shapes)
    };
    let drawn = frame(&mut app);
    assert!(drawn.contains("Rust Saints"), "the roster is drawn");
    assert!(drawn.contains("Read-only: its pages are being checked"));
    assert!(app.checking());
    // egui laid that frame out twice (its grids were new), and the check
    // still waits: it counts frames shown, not passes.
    assert!(ctx.cumulative_pass_nr() > 1, "one pass only");
    assert!(
        !app.checks_begun(),
        "the check began before a frame was shown"
    );
    frame(&mut app);
    assert!(app.checks_begun(), "the check begins once a frame is shown");
    // The next frames start the check, then take in what it found.
    let mut frames = 0;
    while app.checking() {
        assert!(frames < 500, "the checks never ended");
        std::thread::sleep(std::time::Duration::from_millis(10));
        frame(&mut app);
        frames += 1;
    }
    let drawn = frame(&mut app);
    assert!(!drawn.contains("Read-only"), "the campaign may be changed");
    assert_eq!(app.read_only_reason(), None);
    assert_eq!(app.status_text(), None);
    // The day's backup, made once the pages checked.
    let made = std::fs::read_dir(&backups).expect("backups").count();
    assert_eq!(made, 1);
}

#[test]
fn a_campaign_whose_pages_do_not_check_opens_read_only_and_says_so_after_the_first_frame() {
    let dir = util::temp();
    let path = dir.path().join("c.rapsheet");
    opened_demo(&path);
    // Damage only the page check finds: the root of the photos' table,
    // which the first screen does not read.
    let root: i64 = {
        let conn = rusqlite::Connection::open(&path).expect("open");
        let size: i64 = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .expect("page size");
        let root: i64 = conn
            .query_row(
                "SELECT rootpage FROM sqlite_schema WHERE name = 'photo'",
                [],
                |r| r.get(0),
            )
            .expect("root");
        (root - 1) * size
    };
    let mut bytes = std::fs::read(&path).expect("read");
    let at = usize::try_from(root).expect("offset");
    bytes[at..at + 12].fill(0xA5);
    std::fs::write(&path, &bytes).expect("scribble");
    let refused = match Session::open(&path) {
        Ok(_) => panic!("opening checks the pages and refuses the file"),
        Err(err) => format!("{err:#}"),
    };

    let backups = dir.path().join("backups");
    let app = RapsheetApp::launch(
        Some(path.clone()),
        None,
        Some(backups.clone()),
        Default::default(),
    );
    let mut harness = harness(app);
    harness.step();
    assert!(harness.query_by_label_contains("Rust Saints").is_some());
    wait_until(&mut harness, "the checks never ended", |h| {
        !h.state().checking()
    });
    harness.run();
    // Said as opening says it, and read-only: nothing written, no backup.
    let said = harness.state().status_text().expect("said").to_owned();
    assert!(said.contains("damaged"), "{said}");
    assert!(refused.contains(&said), "{said} / {refused}");
    assert!(
        harness
            .query_by_label_contains("Read-only: it is damaged")
            .is_some()
    );
    assert!(
        harness
            .get_by_label("Change Supply…")
            .accesskit_node()
            .is_disabled()
    );
    assert!(!backups.exists());
    drop(harness);
    assert_eq!(
        std::fs::read(&path).expect("read"),
        bytes,
        "nothing written"
    );
}

/// A gang that qualifies for two titles is asked over every screen, the
/// Titles screen's standings read only when it is shown: the choice is
/// made from the banner, and the Titles screen then says who holds each.
#[test]
fn a_choice_between_titles_is_asked_over_every_screen_and_made_there() {
    const SAINTS: &str = "The Rust Saints";
    const JACKALS: &str = "Neon Jackals";
    let dir = util::temp();
    let path = dir.path().join("titles.rapsheet");
    let mut session = Session::create_demo(&path).expect("demo");
    for (gang, supply, reputation) in [(SAINTS, 3, 3), (JACKALS, 1, 0)] {
        let found = session.gang_named(gang).expect("gang");
        for (resource, to) in [("supply", supply), ("reputation", reputation)] {
            let now = found.resources.get(resource).copied().unwrap_or(0);
            if now != to {
                session
                    .adjust_resource(found.id, resource, to - now, "test setup")
                    .expect("adjust");
            }
        }
    }
    let mut report: rapsheet::campaign::battle::BattleReport =
        serde_json::from_value(serde_json::json!({
            "scenario": "Dead Drop",
            "gangs": [{"gang": SAINTS}, {"gang": JACKALS}],
            "winner": SAINTS,
        }))
        .expect("report");
    util::declare_nothing(&mut report);
    session.record_battle(&report, 7).expect("record");
    let mut harness = harness(RapsheetApp::with_session(session));
    harness.run();
    // 003: "If a gang qualifies for more than one, they must choose one and
    // the other is granted to second place."
    harness.get_by_label_contains("qualifies for Quartermaster and Legend and keeps one");
    harness.get_by_label("The Rust Saints keeps Legend").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("qualifies for Quartermaster and Legend")
            .is_none()
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num3);
    harness.run();
    assert_eq!(harness.state().screen(), Screen::Titles);
    let session = Session::open(&path).expect("open");
    let holders = session.title_holders().expect("holders");
    let holder = |title: &str| {
        holders
            .get(title)
            .map(|g| session.gang(*g).expect("gang").name)
    };
    assert_eq!(holder("legend").as_deref(), Some(SAINTS));
    assert_eq!(holder("quartermaster").as_deref(), Some(JACKALS));
}

/// How many shapes of a frame are filled with `fill`.
fn filled_with(output: &egui::FullOutput, fill: egui::Color32) -> usize {
    output
        .shapes
        .iter()
        .filter(|clipped| matches!(&clipped.shape, egui::Shape::Rect(rect) if rect.fill == fill))
        .count()
}

#[test]
fn the_window_is_cleared_to_the_panels_colour_and_the_panels_do_not_paint_it_again() {
    let dir = util::temp();
    let (path, session) = util::empty_campaign(dir.path(), "fill.rapsheet");
    let app = RapsheetApp::with_session(session);
    for visuals in [egui::Visuals::dark(), egui::Visuals::light()] {
        assert_eq!(
            eframe::App::clear_color(&app, &visuals),
            visuals.panel_fill.to_normalized_gamma_f32()
        );
    }
    let mut window = Harness::builder()
        .with_size([1280.0, 900.0])
        .build_eframe(|_| app);
    window.run();
    let fill = window.ctx.global_style().visuals.panel_fill;
    // The campaign is drawn.
    window.get_by_label("Test campaign");
    assert_eq!(filled_with(window.output(), fill), 0);

    // Drawn without the window's clearing (as the other tests draw it),
    // the panels paint their colour themselves.
    drop(window);
    let mut bare = harness(RapsheetApp::with_session(
        Session::open(&path).expect("open"),
    ));
    bare.run();
    assert!(filled_with(bare.output(), fill) >= 3);
}
