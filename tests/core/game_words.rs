//! The engine speaks no game's words: no string literal in `src/` (outside
//! test code) holds a label, name or title of a built-in pack or of a
//! made-up game under `tests/packs`, one of their `[words]`, or is one of
//! their ids. A game word in Rust is one another
//! game's players would read wrongly; it belongs in the pack.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rapsheet::session::builtin_registry;

/// Words the engine owns: kinds of things and sections, not one game's
/// vocabulary.
const GENERIC: &[&str] = &[
    "name",
    "base",
    "value",
    "notes",
    "none",
    "stats",
    "default",
    "resources",
    "advancement",
    "injury",
    "injuries",
    "winner",
    "loser",
    "each",
    "removed",
    "Resources",
    "Advancement",
    "Injury",
    "Notes",
    "Name",
    "Value",
    // The Year Zero-style Synthetic's rule heading (002: "Rolls - Cannot
    // push skill roles"), and the app's heading over a sheet's checks.
    "Rolls",
    // The pack format's own keywords for its kinds (an award `to =
    // "standing"`, a captive one may `ransom`).
    "standing",
    "ransom",
];

/// (labels, ids) of every built-in pack.
fn pack_terms() -> (BTreeSet<String>, BTreeSet<String>) {
    fn walk(
        v: &serde_json::Value,
        key: &str,
        labels: &mut BTreeSet<String>,
        ids: &mut BTreeSet<String>,
    ) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, x) in map {
                    // Every value of `[words]` is a word the app prints.
                    let k = if key == "words" { "label" } else { k.as_str() };
                    walk(x, k, labels, ids);
                }
            }
            serde_json::Value::Array(list) => {
                for x in list {
                    walk(x, key, labels, ids);
                }
            }
            serde_json::Value::String(s) => {
                let s = s.trim();
                if matches!(key, "label" | "name" | "title" | "ran")
                    && s.chars().count() >= 4
                    && s.chars().next().is_some_and(char::is_uppercase)
                {
                    labels.insert(s.to_owned());
                } else if key == "id" && s.chars().count() >= 4 {
                    ids.insert(s.to_owned());
                }
            }
            _ => {}
        }
    }
    // The built-in packs, and the made-up games of tests/packs: no Rust
    // code may know their words either.
    let mut registry = builtin_registry().expect("the built-in packs load");
    let made_up = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs");
    for entry in std::fs::read_dir(made_up).expect("tests/packs") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("a test pack");
        let file = path.file_name().and_then(|f| f.to_str()).expect("a name");
        registry.add_text(file, &text).expect("a test pack loads");
    }
    let (mut labels, mut ids) = (BTreeSet::new(), BTreeSet::new());
    for pack in registry.packs() {
        let value = serde_json::to_value(pack).expect("a pack serialises");
        walk(&value, "", &mut labels, &mut ids);
    }
    for g in GENERIC {
        labels.remove(*g);
        ids.remove(*g);
    }
    (labels, ids)
}

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

/// True when the module in `file` is declared `#[cfg(test)] mod name;` by
/// its parent: test code, free to use game words.
fn is_test_module(file: &Path) -> bool {
    let Some(stem) = file.file_stem().and_then(|s| s.to_str()) else {
        return false;
    };
    let dir = file.parent().expect("a parent");
    let parents = [
        dir.join("mod.rs"),
        dir.join("lib.rs"),
        dir.with_extension("rs"),
    ];
    parents.iter().filter(|p| p.as_path() != file).any(|p| {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        lines
            .windows(2)
            .any(|w| w[0] == "#[cfg(test)]" && w[1] == format!("mod {stem};"))
    })
}

/// The text of a file before its inline `#[cfg(test)] mod … {` block (kept
/// last, by the house style).
fn without_tests(text: &str) -> &str {
    let lines: Vec<&str> = text.lines().collect();
    let mut offset = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .get(i + 1)
                .is_some_and(|n| n.trim().starts_with("mod ") && n.trim().ends_with('{'))
        {
            return &text[..offset];
        }
        offset += line.len() + 1;
    }
    text
}

/// The bodies of the string literals on one line.
fn literals(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            // A char literal: '"' or '\"'.
            '\'' if chars.get(i + 1) == Some(&'"') && chars.get(i + 2) == Some(&'\'') => i += 3,
            '\'' if chars.get(i + 1) == Some(&'\\') && chars.get(i + 3) == Some(&'\'') => i += 4,
            '/' if chars.get(i + 1) == Some(&'/') => break,
            '"' => {
                let mut body = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        body.push(chars[i]);
                        i += 1;
                    }
                    if let Some(c) = chars.get(i) {
                        body.push(*c);
                    }
                    i += 1;
                }
                out.push(body);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// True when `word` stands in `text` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

#[test]
fn no_string_literal_in_src_holds_a_word_of_a_builtin_pack() {
    let (labels, ids) = pack_terms();
    assert!(labels.len() > 100, "the packs' labels were not read");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    let mut hits = Vec::new();
    for file in files {
        if file.file_name().is_some_and(|n| n == "tests.rs") || is_test_module(&file) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read a source file");
        for (n, line) in without_tests(&text).lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for body in literals(line) {
                let words = labels.iter().filter(|w| has_word(&body, w));
                let id = ids.get(&body);
                for word in words.chain(id) {
                    let shown = file.strip_prefix(root).unwrap_or(&file).display();
                    hits.push(format!("{shown}:{}: {word}", n + 1));
                }
            }
        }
    }
    assert!(
        hits.is_empty(),
        "game words in Rust string literals (they belong in the pack):\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_guard_reads_literals_and_whole_words() {
    assert_eq!(
        literals(r#"say!("No arc yet: {}", x); let c = '"'; // "First Blood""#),
        vec!["No arc yet: {}".to_owned()]
    );
    assert!(has_word("a new First Blood began", "First Blood"));
    assert!(!has_word("Bountyful", "Bounty"));
}
