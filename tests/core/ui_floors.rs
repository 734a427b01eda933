//! The window's code stands in floors (src/ui/mod.rs): the ground floor
//! (`base`: actions, widgets, the words shown, the campaign as shown),
//! the views over it, the runner (`run`) and the app on top. A floor
//! reaches only those under it: no view names the runner or the app, and
//! the ground floor names no view. Read from the source, every path it
//! writes (a `use` line or a path in the code).

use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, at any depth.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder of the window's code") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Where each file of `floor` names one of `above`: `file:line: text`.
fn reaching_up(floor: &str, above: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut found = Vec::new();
    for file in sources(&root.join(floor)) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if above.iter().any(|a| code.contains(a)) {
                found.push(format!(
                    "{}:{}: {}",
                    file.strip_prefix(&root).unwrap_or(&file).display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    found
}

#[test]
fn no_view_reaches_the_runner_or_the_app() {
    let found = reaching_up(
        "views",
        &[
            "crate::ui::run",
            "crate::ui::app",
            "RapsheetApp",
            "super::super::",
        ],
    );
    assert!(found.is_empty(), "views reaching up: {found:#?}");
}

#[test]
fn the_ground_floor_reaches_no_view_runner_or_app() {
    let found = reaching_up(
        "base",
        &[
            "crate::ui::views",
            "crate::ui::run",
            "crate::ui::app",
            "RapsheetApp",
            "super::super::super::",
        ],
    );
    assert!(found.is_empty(), "the ground floor reaching up: {found:#?}");
}

#[test]
fn the_runner_reaches_no_frame_of_the_app() {
    // The runner acts on the app's state; what a frame draws (its menus
    // and screens) is the app's own.
    let found = reaching_up("run", &["crate::ui::app::menu", "crate::ui::app::screens"]);
    assert!(
        found.is_empty(),
        "the runner reaching the frame: {found:#?}"
    );
}

/// The check itself sees a path that reaches up.
#[test]
fn a_path_reaching_up_is_seen() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    assert!(root.join("views").is_dir() && root.join("base").is_dir());
    let found = reaching_up("run", &["crate::ui::app::RapsheetApp"]);
    assert!(!found.is_empty(), "the runner acts on the app's state");
}
