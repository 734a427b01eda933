//! A record at the table, in a window of 1000×700: the dice thrown are
//! the dice kept, the keyboard commits only what it has shown, and the
//! buttons under the form stay where the pointer left them.

use crate::util;

use egui::{Key, Modifiers, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rapsheet::session::Session;
use rapsheet::ui::RapsheetApp;

const INJURY: &str = "Post-Battle Injury: Static";

/// The demo campaign in a laptop-sized window, on the Record screen.
fn at_the_table(dir: &std::path::Path) -> Harness<'static, RapsheetApp> {
    let session = Session::create_demo(&dir.join("table.rapsheet")).expect("demo");
    let mut harness = Harness::builder()
        .with_size([1000.0, 700.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    harness.state_mut().set_record_seed(7);
    harness.run();
    harness
}

/// Brings the control `label` into view and clicks it, as a player
/// scrolls to it and clicks.
fn click(harness: &mut Harness<'_, RapsheetApp>, label: &str) {
    harness.get_by_label(label).scroll_to_me();
    harness.run();
    harness.get_by_label(label).click();
    harness.run();
}

/// Static is removed from the Zone, the Neon Jackals win and no bounty is
/// declared: Static rolls for injury.
fn static_rolls_for_injury(harness: &mut Harness<'_, RapsheetApp>) {
    let removed = harness.get_all_by_label("Removed from the Zone").nth(1);
    removed.expect("a second fighter").click();
    harness.run();
    click(harness, "Neon Jackals won");
    for gang in ["The Rust Saints", "Neon Jackals"] {
        click(harness, &format!("{gang}: no Bounty declared"));
    }
}

/// Takes the first option of every choice the rules leave to the
/// players (what the app's dice ask for differs from roll to roll).
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
        let button = harness
            .query_by(|n| n.label().is_some_and(|l| l.ends_with(&ending)))
            .expect("the choice's button")
            .accesskit_node()
            .label()
            .unwrap_or_default();
        click(harness, &button);
    }
}

/// How many records the campaign file holds.
fn recorded(harness: &Harness<'_, RapsheetApp>) -> usize {
    let path = harness.state().campaign_path().expect("path");
    Session::open(path)
        .expect("open")
        .battles()
        .expect("battles")
        .len()
}

fn disabled(harness: &Harness<'_, RapsheetApp>, label: &str) -> bool {
    harness.get_by_label(label).accesskit_node().is_disabled()
}

/// The area the form scrolls in: under the menu and tabs, above the
/// footer whose first button is Commit.
fn form_view(harness: &Harness<'_, RapsheetApp>) -> (f32, f32) {
    let footer = harness.get_by_label("Roll again").rect();
    let tabs = harness.get_by_label("Record").rect();
    (tabs.max.y, footer.min.y)
}

/// A refused typed roll holds Commit and says why; an emptied one asks
/// before the app rolls in its place; the dice typed are the dice kept.
#[test]
fn a_refused_typed_roll_is_never_replaced_by_the_apps_roll() {
    let dir = util::temp();
    let mut harness = at_the_table(dir.path());
    static_rolls_for_injury(&mut harness);
    click(&mut harness, INJURY);
    harness.get_by_label(INJURY).type_text("7 3");
    harness.run();
    harness.run();
    assert!(
        disabled(&harness, "Commit skirmish"),
        "a refused roll holds Commit"
    );
    assert!(
        harness
            .query_by_label_contains(&format!(
                "Not ready: Your dice for {INJURY}: a d6 shows 1 to 6, not 7"
            ))
            .is_some(),
        "the footer says why Commit is held"
    );
    // A click on the held button changes nothing.
    harness.get_by_label("Commit skirmish").click();
    harness.run();
    assert!(recorded(&harness) == 0, "nothing committed");

    // The field emptied: Commit asks before the app rolls.
    click(&mut harness, INJURY);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.key_press(Key::Backspace);
    harness.run();
    make_every_choice(&mut harness);
    assert!(!disabled(&harness, "Commit skirmish"));
    harness.get_by_label("Commit skirmish").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains(&format!(
                "The dice typed for {INJURY} were emptied: let the app roll in their place?"
            ))
            .is_some(),
        "asked before the app rolls"
    );
    assert!(recorded(&harness) == 0, "asked, not committed");
    click(&mut harness, "Type them");
    click(&mut harness, INJURY);
    harness.get_by_label(INJURY).type_text("5 6");
    harness.run();
    harness.get_by_label("Commit skirmish").click();
    harness.run();
    assert_eq!(recorded(&harness), 1, "{:?}", harness.state().status_text());
    let session = Session::open(harness.state().campaign_path().expect("path")).expect("open");
    let static_ = session.fighter_named("Static", None).expect("Static");
    let details = session.fighter_details(static_.id).expect("details");
    assert!(
        details
            .history
            .iter()
            .any(|h| h.text.contains("[5, 6] = 11") && h.text.contains("by hand")),
        "the dice thrown are the dice kept: {:#?}",
        details.history
    );
}

/// An emptied roll, once the player lets the app roll, is the app's.
#[test]
fn an_emptied_roll_is_the_apps_only_once_the_player_says_so() {
    let dir = util::temp();
    let mut harness = at_the_table(dir.path());
    static_rolls_for_injury(&mut harness);
    click(&mut harness, INJURY);
    harness.get_by_label(INJURY).type_text("5");
    harness.run();
    harness.key_press(Key::Backspace);
    harness.run();
    make_every_choice(&mut harness);
    harness.get_by_label("Commit skirmish").click();
    harness.run();
    assert!(recorded(&harness) == 0);
    harness.get_by_label("Let the app roll").click();
    harness.run();
    assert_eq!(recorded(&harness), 1, "{:?}", harness.state().status_text());
}

/// Every Tab stop of the form is in view when it takes the keyboard; the
/// result is one key away; Ctrl+Enter shows the preview before it commits.
#[test]
fn the_keyboard_record_shows_what_it_commits() {
    let dir = util::temp();
    let mut harness = at_the_table(dir.path());
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num2);
    harness.run();
    let mut stops = Vec::new();
    for _ in 0..120 {
        harness.key_press(Key::Tab);
        harness.run();
        let node = harness
            .query_by(|n| n.is_focused())
            .expect("a field has focus");
        let here = node.accesskit_node().label().unwrap_or_default();
        let rect: Rect = node.rect();
        let (top, bottom) = form_view(&harness);
        let in_footer = rect.min.y >= bottom;
        assert!(
            in_footer || (rect.min.y >= top - 1.0 && rect.max.y <= bottom + 1.0),
            "Tab stop {} ({here}) at {rect:?} is out of the view {top}..{bottom}",
            stops.len()
        );
        stops.push(here.clone());
        if here == "Clear the form" {
            break;
        }
    }
    // The footer comes after the form, the last of its fields before it.
    let at = |label: &str| stops.iter().position(|s| s == label);
    assert!(
        at("Notes").is_some() && at("Notes") < at("Roll again"),
        "{stops:?}"
    );

    // Ctrl+↓ jumps to the result, in view.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num2);
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::ArrowDown);
    harness.run();
    harness.run();
    let node = harness
        .query_by(|n| n.is_focused())
        .expect("the result has focus");
    let here = node.accesskit_node().label().unwrap_or_default();
    assert!(here.ends_with(" won"), "{here}");
    let (top, bottom) = form_view(&harness);
    assert!(
        node.rect().min.y >= top && node.rect().max.y <= bottom,
        "{here} in view"
    );
    // The Neon Jackals win; nobody declares a bounty.
    while harness
        .query_by(|n| n.is_focused())
        .and_then(|n| n.accesskit_node().label())
        .as_deref()
        != Some("Neon Jackals won")
    {
        harness.key_press(Key::Tab);
        harness.run();
    }
    harness.key_press(Key::Space);
    harness.run();
    for gang in ["The Rust Saints", "Neon Jackals"] {
        click(&mut harness, &format!("{gang}: no Bounty declared"));
    }
    // Back to the result, the preview out of view: Ctrl+Enter shows it
    // and commits nothing.
    click(&mut harness, "Neon Jackals won");
    harness.get_by_label("Neon Jackals won").scroll_to_me();
    harness.run();
    if harness.state().preview_in_view() {
        harness.get_by_label("Record a skirmish").scroll_to_me();
        harness.run();
    }
    assert!(
        !harness.state().preview_in_view(),
        "the preview is out of view"
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    harness.run();
    harness.run();
    assert!(recorded(&harness) == 0, "nothing committed unseen");
    assert!(
        harness.state().preview_in_view(),
        "Ctrl+Enter showed the preview"
    );
    make_every_choice(&mut harness);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    harness.run();
    harness.run();
    if recorded(&harness) == 0 {
        // The choices moved the preview out of view: shown, then committed.
        assert!(harness.state().preview_in_view());
        harness.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
        harness.run();
    }
    assert_eq!(recorded(&harness), 1, "{:?}", harness.state().status_text());
}

/// "Roll again", clicked over and over, stays under the pointer however
/// the preview above it changes, and never lands on another control.
#[test]
fn roll_again_stays_under_the_pointer() {
    let dir = util::temp();
    let mut harness = at_the_table(dir.path());
    static_rolls_for_injury(&mut harness);
    let at = harness.get_by_label("Roll again").rect();
    let made = harness.state().battle_choices_made().to_vec();
    for _ in 0..6 {
        harness.get_by_label("Roll again").click();
        harness.run();
        assert_eq!(
            harness.get_by_label("Roll again").rect(),
            at,
            "the button stayed put"
        );
        // No choice was made by a click that missed.
        assert_eq!(
            harness.state().battle_choices_made(),
            made,
            "no choice made"
        );
    }
    assert!(recorded(&harness) == 0);
}

/// A Record screen opened and left as the app filled it in is no record
/// begun: it is not kept, and the next start says nothing of it.
#[test]
fn an_untouched_record_form_is_not_brought_back() {
    let dir = util::temp();
    let drafts = dir.path().join("drafts");
    let path = dir.path().join("quiet.rapsheet");
    let open = |session: Session| {
        let mut app = RapsheetApp::with_session(session);
        app.keep_drafts_in(drafts.clone());
        let mut harness = Harness::builder()
            .with_size([1000.0, 700.0])
            .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
        harness.run();
        harness.get_by_label("Record").click();
        harness.run();
        harness
    };
    let harness = open(Session::create_demo(&path).expect("demo"));
    assert!(harness.state().battle_choices_made().is_empty());
    drop(harness);
    let kept = std::fs::read_dir(&drafts).map_or(0, |d| d.count());
    assert_eq!(kept, 0, "nothing kept of a form the app filled in");
    let harness = open(Session::open(&path).expect("reopen"));
    let said = harness.state().status_text().unwrap_or_default().to_owned();
    assert!(!said.contains("begun before"), "{said}");

    // Something entered is kept, and emptied again is let go.
    let mut harness = harness;
    click(&mut harness, "Notes");
    harness.get_by_label("Notes").type_text("rain");
    harness.run();
    assert_eq!(std::fs::read_dir(&drafts).map_or(0, |d| d.count()), 1);
    harness.key_press(Key::Backspace);
    harness.key_press(Key::Backspace);
    harness.key_press(Key::Backspace);
    harness.key_press(Key::Backspace);
    harness.run();
    assert_eq!(std::fs::read_dir(&drafts).map_or(0, |d| d.count()), 0);
}

/// Large cards with bleed and no crop marks put their cut lines nearer
/// the paper's edge than many printers print: the print window says so
/// beside its preview, as the command line warns.
#[test]
fn the_print_window_warns_of_cut_lines_near_the_papers_edge() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("edge.rapsheet")).expect("demo");
    let mut harness = Harness::builder()
        .with_size([1366.0, 768.0])
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    harness.run();
    harness.get_by_label("Print cards…").click();
    harness.run();
    harness.get_by_label("Large, 100 × 110 mm").click();
    harness.run();
    harness.get_by_label("A4").click();
    harness.run();
    harness.get_by_label("Crop marks").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("from the paper's edge")
            .is_none()
    );
    harness.get_by_label("Printed past the cut (mm)").click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_label("Printed past the cut (mm)")
        .type_text("2");
    harness.key_press(Key::Enter);
    harness.run();
    assert!(
        harness
            .query_by_label_contains("The outer cut lines are")
            .is_some(),
        "the window warns as the command line does"
    );
}
