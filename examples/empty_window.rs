//! An empty eframe window with the app's options: the floor the launch
//! benchmark (`benches/launch.rs`) sets the app's start against.
//!
//! As eframe's template has it, its one panel paints the panels' colour
//! over the colour eframe cleared the window to. With `--bare` the window
//! is cleared to the panels' colour and the panel paints nothing, as the
//! app does: the barest window eframe shows.

struct Bare;

impl eframe::App for Bare {
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |_| {});
    }
}

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Empty window")
            .with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    if std::env::args().any(|arg| arg == "--bare") {
        return eframe::run_native("Empty window", options, Box::new(|_| Ok(Box::new(Bare))));
    }
    eframe::run_ui_native("Empty window", options, move |ui, _frame| {
        egui::CentralPanel::default().show(ui, |_| {});
    })
}
