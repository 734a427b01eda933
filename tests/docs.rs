//! The documentation's examples run: every ```console block of README.md
//! and docs/ is a command and its output, checked against the binary
//! (`trycmd`), and every line of the README's command list runs. The files a document's examples read are in the folder named
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
    for name in ["report.json", "report2.json", "session.json"] {
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

/// The README's command list, run in order in a temporary folder holding
/// the files it names. Shown-only lines (the last two) are skipped, and an
/// optional part in brackets (`[--off]`) is left out.
#[test]
fn readme_commands_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let section = readme
        .split("## The command line")
        .nth(1)
        .and_then(|rest| rest.split("```sh\n").nth(1))
        .and_then(|rest| rest.split("\n```").next())
        .expect("the README's command list");
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::copy(
        root.join("docs/battle-report.in/report.json"),
        d.join("report.json"),
    )
    .expect("report");
    for file in ["my-house-rules.toml", "my-game.toml"] {
        std::fs::copy(root.join("tests/docs/readme").join(file), d.join(file)).expect("pack");
    }
    let lines: Vec<String> = section
        .replace("\\\n", " ")
        .lines()
        .map(|l| l.split("  # ").next().unwrap_or(l).trim().to_owned())
        .collect();
    let run: Vec<&String> = lines.iter().take(lines.len().saturating_sub(2)).collect();
    assert!(run.len() > 30, "{run:?}");
    for line in run {
        let line = without_optional_parts(line);
        let words = shlex::split(&line).expect("a command line");
        assert_eq!(words[0], "rapsheet", "{line}");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
            .args(&words[1..])
            .current_dir(d)
            .env("XDG_DATA_HOME", d.join("data"))
            .env("XDG_CONFIG_HOME", d.join("config"))
            .env("HOME", d)
            .output()
            .expect("run rapsheet");
        assert!(
            out.status.success(),
            "README: `{line}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The line without its optional parts in brackets.
fn without_optional_parts(line: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in line.chars() {
        match c {
            '[' if !out.ends_with('"') => depth += 1,
            ']' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// docs/packs.md shows its game whole, step by step: the file of step n
/// (`docs/packs.in/fogbound-n.toml`) is the guide's TOML blocks of steps
/// 1 to n, one after the other.
#[test]
fn the_pack_guide_shows_every_step_of_its_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/packs.md")).expect("doc");
    let steps: Vec<&str> = doc
        .split("```toml\n")
        .skip(1)
        .filter_map(|rest| rest.split("\n```").next())
        // The first block is the `#:schema` line alone.
        .filter(|block| block.lines().count() > 1)
        .collect();
    assert_eq!(steps.len(), 7, "seven steps");
    for n in 1..=steps.len() {
        let path = root.join(format!("docs/packs.in/fogbound-{n}.toml"));
        let file = std::fs::read_to_string(&path).expect("a step's file");
        assert_eq!(
            file,
            format!("{}\n", steps[..n].join("\n\n")),
            "{} is not steps 1 to {n} of docs/packs.md",
            path.display()
        );
    }
}
