//! An empty eframe window with the app's options: the floor the launch
//! benchmark (`benches/launch.rs`) sets the app's start against.
//!
//! With `RAPSHEET_CLOSE_AFTER_FIRST_FRAME` set, once its first frame has
//! been shown (the second begins) it prints `first frame shown` and
//! closes, as the app does.

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Empty window")
            .with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    let probe = std::env::var_os("RAPSHEET_CLOSE_AFTER_FIRST_FRAME").is_some();
    let mut said = false;
    eframe::run_ui_native("Empty window", options, move |ui, _frame| {
        // Frames, not passes, as the app counts them.
        if probe && !said && ui.ctx().cumulative_frame_nr() >= 1 {
            said = true;
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "first frame shown");
            let _ = out.flush();
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        egui::CentralPanel::default().show(ui, |_| {});
        ui.ctx().request_repaint();
    })
}
