//! The faces (the command line, the window, printing and the exports) go
//! through the session, never the store: no source file under them names
//! `crate::store` (design.md, "Layers").

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_face_reaches_the_store() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for face in ["cli", "ui", "print", "export"] {
        rust_files(&root.join("src").join(face), &mut files);
    }
    assert!(files.len() > 20, "the faces' files were not read");
    files.sort();
    let mut hits = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if code.contains("crate::store") || code.contains("rapsheet::store") {
                let shown = file.strip_prefix(root).unwrap_or(&file).display();
                hits.push(format!("{shown}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "a face reaches the store (go through the session):\n{}",
        hits.join("\n")
    );
}
