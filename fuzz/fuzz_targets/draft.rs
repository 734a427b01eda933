//! A record begun, kept as the demo campaign's draft and read back by the
//! window as it opens the campaign (built with `--features gui`).
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use rapsheet::fuzzing::DraftWindow;

thread_local! {
    static WINDOW: (tempfile::TempDir, RefCell<DraftWindow>) = {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let window = DraftWindow::new(dir.path()).expect("the window on the demo");
        (dir, RefCell::new(window))
    };
}

fuzz_target!(|data: &[u8]| {
    WINDOW.with(|(_, window)| {
        window
            .borrow_mut()
            .draft(data)
            .expect("the temporary folder works");
    });
});
