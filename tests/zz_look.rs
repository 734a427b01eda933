#![allow(clippy::unwrap_used, clippy::expect_used)]
mod util;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rapsheet::session::Session;
use rapsheet::ui::RapsheetApp;

fn save(h: &mut Harness<'_, RapsheetApp>, name: &str) {
    let img = h.render().expect("render");
    img.save(format!("/tmp/look/{name}.png")).unwrap();
}

#[test]
fn look() {
    std::fs::create_dir_all("/tmp/look").unwrap();
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("look.rapsheet")).expect("demo");
    let mut h = Harness::builder()
        .with_size([1000.0, 700.0])
        .wgpu()
        .build_ui_state(
            |ui, app: &mut RapsheetApp| app.frame_ui(ui),
            RapsheetApp::with_session(session),
        );
    h.run();
    h.get_by_label("Neon Jackals").click();
    h.run();
    save(&mut h, "roster");
    h.get_by_label("Rename or write notes…").click();
    h.run();
    save(&mut h, "rename");
    h.get_by_label("Done").click();
    h.run();
    h.get_by_label("Vex Ninefingers").click();
    h.run();
    save(&mut h, "fighter");
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("League…").click();
    h.run();
    save(&mut h, "league");
    h.key_press(egui::Key::Escape);
    h.run();
    h.get_by_label("Keep house rules…").click();
    h.run();
    save(&mut h, "house");
    h.get_by_label("Season").click();
    h.run();
    save(&mut h, "season");
}
