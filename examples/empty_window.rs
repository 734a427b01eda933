//! An empty eframe window with the app's options: the floor the launch
//! benchmark (`benches/launch.rs`) sets the app's start against.
//!
//! With `RAPSHEET_CLOSE_AFTER_FIRST_FRAME` set it closes once its first
//! frame has been shown, as the app does.

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Empty window")
            .with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    let probe = std::env::var_os("RAPSHEET_CLOSE_AFTER_FIRST_FRAME").is_some();
    let mut frames = 0u32;
    eframe::run_ui_native("Empty window", options, move |ui, _frame| {
        egui::CentralPanel::default().show(ui, |_| {});
        frames += 1;
        if probe && frames > 1 {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        ui.ctx().request_repaint();
    })
}
