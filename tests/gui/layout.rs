//! Every screen at a small laptop's window (1000×700) and a large one
//! (1600×1000): rendered and compared with the snapshots kept in
//! `tests/snapshots/` (`UPDATE_SNAPSHOTS=1 cargo test --test gui layout::`
//! writes them anew), and every control of the screen reachable — inside
//! the window, or inside a scroll area that brings it there.

use crate::util;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rapsheet::generator::{GenSize, generate};
use rapsheet::session::Session;
use rapsheet::ui::{Action, FighterAction, GangAction, RapsheetApp, Screen};

/// The window sizes every screen must work at.
const SIZES: [(f32, f32); 2] = [(1000.0, 700.0), (1600.0, 1000.0)];

/// The demo with a few more gangs and battles, the same every run.
fn campaign(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("layout.rapsheet");
    let mut session = Session::create_demo(&path).expect("demo");
    generate(
        &mut session,
        GenSize {
            gangs: 4,
            fighters_per_gang: 8,
            battles: 12,
            seed: 3,
        },
        &mut |_, _| {},
    )
    .expect("generate");
    path
}

fn app_on(
    path: &std::path::Path,
    screen: Screen,
    size: (f32, f32),
) -> Harness<'static, RapsheetApp> {
    let session = Session::open(path).expect("open");
    let gang = session.gang_named("The Rust Saints").expect("gang").id;
    let mut app = RapsheetApp::with_session(session);
    // Outputs offered in one folder, whatever temporary folder the
    // campaign is in.
    app.set_output_dir(Some(std::path::PathBuf::from("/tmp")));
    app.run_action(Action::Gang(GangAction::Select(gang)));
    app.run_action(Action::ShowScreen(screen));
    rendered(app, size)
}

/// The app in a window of `size`, drawn once, rendered for snapshots.
fn rendered(app: RapsheetApp, size: (f32, f32)) -> Harness<'static, RapsheetApp> {
    let mut harness = Harness::builder()
        .with_size([size.0, size.1])
        .wgpu()
        .build_ui_state(|ui, app: &mut RapsheetApp| app.frame_ui(ui), app);
    harness.run();
    harness
}

fn name(screen: Screen) -> &'static str {
    match screen {
        Screen::Roster => "roster",
        Screen::Battle => "record",
        Screen::Titles => "titles",
        Screen::Chronicle => "chronicle",
        Screen::Season => "season",
    }
}

/// The buttons and fields whose left edge lies past the window's right
/// edge: controls a player could never reach without a horizontal scroll.
fn out_of_reach(harness: &Harness<'_, RapsheetApp>, width: f32) -> Vec<String> {
    harness
        .root()
        .query_all(egui_kittest::kittest::By::new().predicate(|node| {
            matches!(
                node.role(),
                Role::Button | Role::TextInput | Role::CheckBox | Role::ComboBox
            )
        }))
        .filter(|node| {
            node.accesskit_node()
                .bounding_box()
                .is_some_and(|b| b.x0 as f32 >= width)
        })
        .map(|node| {
            format!(
                "{:?} {:?}",
                node.accesskit_node().role(),
                node.accesskit_node().label()
            )
        })
        .collect()
}

/// Snapshots the window as `at`, and notes the controls it shows past its
/// right edge.
fn check(
    mut harness: Harness<'static, RapsheetApp>,
    at: &str,
    size: (f32, f32),
    lost: &mut Vec<String>,
    snapshots: &mut egui_kittest::SnapshotResults,
) {
    lost.extend(
        out_of_reach(&harness, size.0)
            .into_iter()
            .map(|c| format!("{at}: {c}")),
    );
    harness.snapshot(at);
    snapshots.extend_harness(&mut harness);
}

#[test]
fn every_screen_works_at_both_window_sizes() {
    let dir = util::temp();
    let path = campaign(dir.path());
    let mut snapshots = egui_kittest::SnapshotResults::new();
    let mut lost = Vec::new();
    for size in SIZES {
        for screen in Screen::ALL {
            let harness = app_on(&path, screen, size);
            let at = format!("{}-{}x{}", name(screen), size.0, size.1);
            check(harness, &at, size, &mut lost, &mut snapshots);
        }
    }
    assert!(lost.is_empty(), "past the window's right edge: {lost:#?}");
}

/// A Wayfarer warband: the roster's Value column and total, and the unit
/// editor with its catalog grouped by category, at both sizes.
#[test]
fn a_priced_warband_and_its_unit_editor_work_at_both_window_sizes() {
    let dir = util::temp();
    let path = dir.path().join("w.rapsheet");
    let mut session = Session::create(&path, "Cosmopolis", "wayfarer").expect("create");
    let (band, _) = session.found_gang("Red Hand", None).expect("found");
    for (name, parts) in [
        (
            "Grak",
            &["species-orc", "trait-ferocious", "weapon-sword"][..],
        ),
        ("Bark", &["species-treefolk"][..]),
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
    let grak = session.fighter_named("Grak", None).expect("grak").id;
    drop(session);
    let mut snapshots = egui_kittest::SnapshotResults::new();
    let mut lost = Vec::new();
    for size in SIZES {
        let session = Session::open(&path).expect("open");
        let mut app = RapsheetApp::with_session(session);
        app.run_action(Action::Gang(GangAction::Select(band)));
        app.run_action(Action::Fighter(FighterAction::Select(Some(grak))));
        let at = format!("wayfarer-roster-{}x{}", size.0, size.1);
        check(rendered(app, size), &at, size, &mut lost, &mut snapshots);
    }
    assert!(lost.is_empty(), "past the window's right edge: {lost:#?}");
}

/// Every game's roster heads its columns in full: Year Zero's attributes
/// (STRENGTH, EMPATHY) and HWC's counters (Plot points) are as wide as
/// their headings, at the smaller window.
#[test]
fn every_games_roster_heads_its_columns_in_full() {
    let dir = util::temp();
    let mut snapshots = egui_kittest::SnapshotResults::new();
    let mut lost = Vec::new();
    let size = (1000.0, 700.0);
    for game in ["yearzero", "hwc"] {
        let path = dir.path().join(format!("{game}.rapsheet"));
        let session = Session::create_demo_of(&path, game).expect("demo");
        let app = RapsheetApp::with_session(session);
        let at = format!("{game}-roster-{}x{}", size.0, size.1);
        check(rendered(app, size), &at, size, &mut lost, &mut snapshots);
    }
    assert!(lost.is_empty(), "past the window's right edge: {lost:#?}");
}

/// A season's screens (Brackwater, `tests/packs`, a long season made by
/// the generator): the Season screen, the roster with its holdings and
/// faction, and the record form with its kind of record, at both sizes.
#[test]
fn a_season_works_at_both_window_sizes() {
    let dir = util::temp();
    let path = dir.path().join("season.rapsheet");
    let pack = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/brackwater.toml");
    let packs = || rapsheet::session::registry_with(std::slice::from_ref(&pack)).expect("pack");
    let mut session =
        Session::create_with(&path, "The Drowned Season", "brackwater", packs()).expect("create");
    let size = GenSize {
        gangs: 6,
        fighters_per_gang: 4,
        battles: 20,
        seed: 5,
    };
    generate(&mut session, size, &mut |_, _| {}).expect("generate");
    let gang = session.gangs().expect("gangs")[0].id;
    drop(session);
    let mut snapshots = egui_kittest::SnapshotResults::new();
    let mut lost = Vec::new();
    for size in SIZES {
        for screen in [Screen::Season, Screen::Roster, Screen::Battle] {
            let session = Session::open_with(&path, packs()).expect("open");
            let mut app = RapsheetApp::with_session(session);
            app.set_output_dir(Some(std::path::PathBuf::from("/tmp")));
            app.run_action(Action::Gang(GangAction::Select(gang)));
            app.run_action(Action::ShowScreen(screen));
            let at = format!("brackwater-{}-{}x{}", name(screen), size.0, size.1);
            check(rendered(app, size), &at, size, &mut lost, &mut snapshots);
        }
    }
    assert!(lost.is_empty(), "past the window's right edge: {lost:#?}");
}
