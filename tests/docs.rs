//! The documentation's examples run: every ```console block of README.md
//! and docs/ is a command and its output, checked against the binary
//! (`trycmd`). The files a document's examples read are in the folder named
//! after it (`docs/battle-report.in/`), and `docs_files_match_their_blocks`
//! keeps them equal to the JSON the document shows. After a change to the
//! output, `TRYCMD=overwrite cargo test --test docs` rewrites the blocks.

use std::path::Path;

#[test]
fn documentation_examples() {
    let dir = tempfile::tempdir().expect("temp dir");
    trycmd::TestCases::new()
        .register_bin(
            "rapsheet",
            std::path::PathBuf::from(env!("CARGO_BIN_EXE_rapsheet")),
        )
        // No example reaches a real user's files.
        .env(
            "XDG_DATA_HOME",
            dir.path().join("data").display().to_string(),
        )
        .env(
            "XDG_CONFIG_HOME",
            dir.path().join("config").display().to_string(),
        )
        .env("HOME", dir.path().display().to_string())
        .case("README.md")
        .case("docs/*.md");
}

/// The report files the battle-report examples read are the ones the
/// document shows, block for block.
#[test]
fn docs_files_match_their_blocks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/battle-report.md")).expect("doc");
    let blocks: Vec<serde_json::Value> = doc
        .split("```json\n")
        .skip(1)
        .filter_map(|rest| rest.split("\n```").next())
        .filter_map(|block| serde_json::from_str(block).ok())
        .collect();
    for name in ["report.json", "report2.json"] {
        let path = root.join("docs/battle-report.in").join(name);
        let text = std::fs::read_to_string(&path).expect("an example file");
        let file: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert!(
            blocks.contains(&file),
            "{} is not one of the JSON blocks docs/battle-report.md shows",
            path.display()
        );
    }
}
