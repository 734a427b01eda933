//! An empty eframe window with the app's options: the floor the launch
//! benchmark (`benches/launch.rs`) sets the app's start against.

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Empty window")
            .with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    eframe::run_ui_native("Empty window", options, move |ui, _frame| {
        egui::CentralPanel::default().show(ui, |_| {});
    })
}
