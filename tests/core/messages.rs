//! Every refusal is one line, in words, naming the field at fault: never
//! SQLite's "constraint failed", a temporary file's name, a bundle format
//! called missing when it is there as text, a newer file called damaged,
//! or clap's usage block for an argument that is not text.

use crate::util;

use std::path::Path;

use util::{ok, rapsheet, stderr};

/// The group's own pack for Wayfarer: a species template and a trait of
/// their own.
const MARCHES: &str = r#"
[pack]
id = "marches"
name = "The Marches"
format = 1
version = "0.1.0"
base = "wayfarer"
source = "Our group's house rules"

[[quirks]]
id = "species-human"
name = "Human"
category = "species"
tags = ["species", "size:1x1"]
cost = 0
short = "Our own Human template"
source = "House rules"

[[quirks]]
id = "trait-lucky"
name = "Lucky"
category = "trait"
short = "Our own trait"
source = "House rules"
"#;

/// The same pack a session later, without the trait.
fn marches_without_the_trait() -> String {
    let cut = MARCHES.find("[[quirks]]\nid = \"trait-lucky\"").unwrap();
    MARCHES[..cut].to_owned()
}

/// The one line a refused command wrote on standard error, after
/// checking it is one line, in words.
fn one_line(dir: &Path, args: &[&str]) -> String {
    let out = rapsheet(dir, args);
    assert!(!out.status.success(), "{args:?} should be refused");
    let err = stderr(&out);
    let line = err.trim_end_matches('\n');
    assert_eq!(line.lines().count(), 1, "{args:?}: not one line: {err}");
    assert!(line.starts_with("rapsheet: "), "{err}");
    for raw in [
        "constraint failed",
        ".rapsheet-partial",
        "Usage:",
        "For more information",
    ] {
        assert!(!line.contains(raw), "{args:?}: {line}");
    }
    assert!(line.len() < 400, "{args:?}: {} bytes: {line}", line.len());
    line.to_owned()
}

fn refused(dir: &Path, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--db", "c.rapsheet"]);
    one_line(dir, &all)
}

/// A pack's id and name, and its entries', are names: a control or direction character, or
/// a hundred thousand characters, is refused by `check-pack` and by
/// `house keep` in the same words, naming the field, repeating the text
/// short and shown.
#[test]
fn check_pack_and_house_keep_refuse_a_bad_id_or_name_alike() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer", "--name", "Marches"]);
    let before = std::fs::read(d.join("c.rapsheet")).unwrap();
    let long = "a".repeat(100_000);
    let cases = [
        (
            "id = \"marches\"",
            "id = \"mar\\u202Eches\"".to_owned(),
            "pack.id",
        ),
        (
            "id = \"marches\"",
            "id = \"mar\\u001B[2Jches\"".to_owned(),
            "pack.id",
        ),
        ("id = \"marches\"", format!("id = \"{long}\""), "pack.id"),
        (
            "name = \"The Marches\"",
            "name = \"The \\u202EMarches\"".to_owned(),
            "pack.name",
        ),
        (
            "name = \"The Marches\"",
            "name = \"The\\nMarches\"".to_owned(),
            "pack.name",
        ),
        (
            "name = \"The Marches\"",
            format!("name = \"{long}\""),
            "pack.name",
        ),
        // An entry's name is a name too.
        (
            "name = \"Lucky\"",
            "name = \"Lu\\u202Ecky\"".to_owned(),
            "quirks.trait-lucky.name",
        ),
        (
            "id = \"trait-lucky\"",
            format!("id = \"{long}\""),
            "quirks.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…",
        ),
    ];
    for (i, (from, to, field)) in cases.iter().enumerate() {
        let file = format!("bad{i}.toml");
        std::fs::write(d.join(&file), MARCHES.replacen(from, to, 1)).unwrap();
        let checked = one_line(d, &["check-pack", &file]);
        let kept = refused(d, &["house", "keep", &file]);
        // check-pack names the line and column too (`bad0.toml:8:1:`).
        let rest = checked
            .strip_prefix(&format!("rapsheet: {file}:"))
            .unwrap_or_else(|| panic!("{checked}"));
        let (position, said) = rest.split_once(": ").unwrap();
        assert!(
            position
                .split(':')
                .all(|n| n.parse::<usize>().is_ok_and(|n| n > 0)),
            "{checked}"
        );
        assert_eq!(
            format!("rapsheet: {file}: {said}"),
            kept,
            "check-pack and house keep disagree"
        );
        assert!(said.starts_with(&format!("{field}: ")), "{checked}");
        assert!(!checked.contains('\u{202E}'), "{checked}");
        assert!(!checked.contains('\u{1B}'), "{checked}");
    }
    assert_eq!(std::fs::read(d.join("c.rapsheet")).unwrap(), before);
    // A good pack passes both.
    std::fs::write(d.join("marches.toml"), MARCHES).unwrap();
    ok(d, &["check-pack", "marches.toml"]);
    ok(d, &["house", "keep", "marches.toml"]);
}

/// A bundle's pack is kept under the id it travels with: one whose text
/// gives itself another id is refused, naming the pack, and nothing is
/// written.
#[test]
fn a_bundles_pack_whose_id_differs_from_its_text_is_refused() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer", "--name", "Marches"]);
    std::fs::write(d.join("marches.toml"), MARCHES).unwrap();
    ok(d, &["house", "keep", "marches.toml"]);
    ok(d, &["gang", "new", "Red Hand", "--ruleset", "marches"]);
    ok(
        d,
        &["bundle", "export", "--gang", "Red Hand", "-o", "b.json"],
    );
    let text = std::fs::read_to_string(d.join("b.json")).unwrap();
    let mut bundle: serde_json::Value = serde_json::from_str(&text).unwrap();
    bundle["packs"][0]["id"] = "elsewhere".into();
    bundle["gangs"][0]["ruleset"] = "elsewhere".into();
    bundle["gangs"][0]["name"] = "Blue Hand".into();
    std::fs::write(d.join("b2.json"), bundle.to_string()).unwrap();
    let before = std::fs::read(d.join("c.rapsheet")).unwrap();
    let err = refused(d, &["bundle", "import", "b2.json"]);
    assert_eq!(
        err,
        "rapsheet: b2.json was not brought in: packs[0].id: `elsewhere` differs from the id its text gives itself (`marches`)"
    );
    assert_eq!(std::fs::read(d.join("c.rapsheet")).unwrap(), before);
}

/// A bundle whose format is there, as text: said so, not called missing.
#[test]
fn a_bundle_format_given_as_text_is_said_to_need_a_number() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer"]);
    std::fs::write(
        d.join("b.json"),
        r#"{ "kind": "rapsheet-bundle", "format": "1", "campaign": "X", "gangs": [] }"#,
    )
    .unwrap();
    let err = refused(d, &["bundle", "import", "b.json"]);
    assert_eq!(
        err,
        "rapsheet: b.json was not brought in: format: must be a number (1 for this build), not text"
    );
}

/// After the group's pack drops an entry a fighter holds, the entry can
/// be taken from the fighter by the id it is held under, and undo gives
/// it back.
#[test]
fn an_entry_the_pack_no_longer_has_can_be_removed_and_undo_restores_it() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer", "--name", "Marches"]);
    std::fs::write(d.join("marches.toml"), MARCHES).unwrap();
    ok(d, &["house", "keep", "marches.toml"]);
    ok(d, &["gang", "new", "Red Hand", "--ruleset", "marches"]);
    ok(
        d,
        &[
            "fighter", "add", "Ada", "--gang", "Red Hand", "--quirk", "Human",
        ],
    );
    ok(d, &["fighter", "quirk", "add", "Ada", "Lucky"]);
    // The group changes its pack: the trait is gone from it.
    std::fs::write(d.join("marches.toml"), marches_without_the_trait()).unwrap();
    ok(d, &["house", "keep", "marches.toml"]);
    let held = |d: &Path| {
        let shown = ok(d, &["fighter", "show", "Ada", "--json"]);
        let shown: serde_json::Value = serde_json::from_str(&shown).unwrap();
        shown["quirks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|q| q["id"] == "trait-lucky")
    };
    assert!(held(d), "Ada keeps the entry the pack dropped");
    // Giving it anew is refused: the pack has no such entry now.
    let err = refused(d, &["fighter", "quirk", "add", "Ada", "Lucky"]);
    assert!(err.contains("Lucky"), "{err}");
    // Taking it away is not.
    ok(d, &["fighter", "quirk", "remove", "Ada", "trait-lucky"]);
    assert!(!held(d), "the entry is taken away");
    ok(d, &["undo"]);
    assert!(held(d), "undo gives it back");
    assert!(ok(d, &["verify"]).contains("sound"));
}

/// A name SQLite would refuse as a clash is said in words, naming what
/// clashed: a whole campaign's bundle whose log founds one gang twice.
#[test]
fn a_clash_in_the_file_is_said_in_words() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer"]);
    ok(d, &["gang", "new", "Red Hand"]);
    ok(d, &["fighter", "add", "Ada", "--gang", "Red Hand"]);
    ok(d, &["bundle", "export", "--whole", "-o", "whole.json"]);
    let text = std::fs::read_to_string(d.join("whole.json")).unwrap();
    let mut bundle: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The recruit again, in a batch of its own: the same fighter twice.
    let batches = bundle["log"]["batches"].as_array_mut().unwrap();
    let mut again = batches.last().unwrap().clone();
    again["id"] = (batches.len() as i64 + 100).into();
    batches.push(again);
    std::fs::write(d.join("twice.json"), bundle.to_string()).unwrap();
    let err = one_line(
        d,
        &[
            "bundle",
            "import",
            "twice.json",
            "--whole",
            "--db",
            "new.rapsheet",
        ],
    );
    assert!(!err.contains("UNIQUE"), "{err}");
    assert!(!d.join("new.rapsheet").exists());

    // A recruit into a gang the log never founded.
    let mut bundle: serde_json::Value = serde_json::from_str(&text).unwrap();
    let batches = bundle["log"]["batches"].as_array_mut().unwrap();
    let founded = batches
        .iter()
        .position(|b| b.to_string().contains("gang_founded"))
        .unwrap();
    batches.remove(founded);
    std::fs::write(d.join("orphan.json"), bundle.to_string()).unwrap();
    let err = one_line(
        d,
        &[
            "bundle",
            "import",
            "orphan.json",
            "--whole",
            "--db",
            "orphan.rapsheet",
        ],
    );
    assert!(!err.contains("FOREIGN KEY"), "{err}");
    assert!(!d.join("orphan.rapsheet").exists());
}

/// The store says a clash in words when a change reaches it directly,
/// past the gate every change of this build passes: a fighter renamed to a
/// name their gang has already.
#[test]
fn the_store_says_a_taken_name_in_words() {
    use rapsheet::campaign::Event;
    let dir = util::temp();
    let path = dir.path().join("c.rapsheet");
    drop(rapsheet::session::Session::create_demo(&path).unwrap());
    let mut store = rapsheet::store::CampaignStore::open(&path).unwrap();
    let gang = store.gangs().unwrap().remove(0);
    let fighters = store.fighters(gang.id).unwrap();
    let (first, second) = (&fighters[0], &fighters[1]);
    let err = store
        .commit(
            "Rename",
            &[Event::FighterRenamed {
                fighter: second.id,
                from: second.name.clone(),
                to: first.name.clone(),
            }],
            &mut |_, _, _| Ok(()),
        )
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "the change does not fit the campaign as it is now: a fighter of that gang already has that name"
    );
}

/// A file made by a newer Rapsheet is said to be one, wherever it is
/// read: restoring it as a backup too, never called damaged.
#[test]
fn a_newer_file_is_never_called_damaged() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer"]);
    std::fs::copy(d.join("c.rapsheet"), d.join("newer.rapsheet")).unwrap();
    {
        let conn = rusqlite::Connection::open(d.join("newer.rapsheet")).unwrap();
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
        conn.pragma_update(None, "user_version", 999).unwrap();
    }
    let err = one_line(
        d,
        &[
            "backup",
            "restore",
            "newer.rapsheet",
            "-o",
            "restored.rapsheet",
        ],
    );
    assert!(err.contains("made by a newer Rapsheet"), "{err}");
    assert!(!err.contains("damaged"), "{err}");
    let err = one_line(d, &["gang", "list", "--db", "newer.rapsheet"]);
    assert!(err.contains("made by a newer Rapsheet"), "{err}");
}

/// An output that cannot be written is said of the file asked for, never
/// of the temporary file beside it.
#[test]
fn a_failed_write_names_the_real_file() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer"]);
    let err = refused(
        d,
        &["export", "campaign", "--format", "md", "-o", "missing/c.md"],
    );
    assert!(err.starts_with("rapsheet: missing/c.md: "), "{err}");
    // The system's reason once, not once per layer that passed it on.
    let reason = err.trim_start_matches("rapsheet: missing/c.md: ");
    assert!(!reason.contains(": "), "{err}");
}

/// A name given as bytes that are not UTF-8: one line naming the
/// argument, not clap's usage block.
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_text_is_named_in_one_line() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer"]);
    let run = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
            .args(args)
            .args(["--db", "c.rapsheet"])
            .current_dir(d)
            .env("XDG_DATA_HOME", d.join("data"))
            .env("XDG_CONFIG_HOME", d.join("config"))
            .env("HOME", d)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!err.contains("Usage"), "{err}");
        err
    };
    let bad = std::ffi::OsStr::from_bytes(b"Red\xff Hand");
    let err = run(&["gang".as_ref(), "new".as_ref(), bad]);
    assert_eq!(
        err.trim_end(),
        "rapsheet: NAME “Red\u{FFFD} Hand”: not text (its bytes are not UTF-8); give it as text"
    );
    let err = run(&[
        "fighter".as_ref(),
        "add".as_ref(),
        "Ada".as_ref(),
        "--gang".as_ref(),
        bad,
    ]);
    assert!(err.starts_with("rapsheet: --gang “Red"), "{err}");
}

/// A line break in what was typed, repeated by a refusal, is shown as one:
/// the refusal stays one line.
#[test]
fn a_line_break_a_refusal_repeats_keeps_it_one_line() {
    let dir = util::temp();
    let d = dir.path();
    ok(d, &["new", "--ruleset", "wayfarer"]);
    let err = refused(d, &["gang", "show", "Red\nHand"]);
    assert!(err.contains("Red\\u{a}Hand"), "{err}");
}

/// A change that would take a resource below the safety bound says which
/// end it crosses: the least a number may be, not the most.
#[test]
fn a_change_below_the_bound_names_the_least_a_number_may_be() {
    let dir = util::temp();
    ok(dir.path(), &["demo"]);
    let line = refused(
        dir.path(),
        &[
            "resource",
            "supply",
            "-2000000",
            "--gang",
            "The Rust Saints",
            "--reason",
            "typo",
        ],
    );
    assert!(
        line.ends_with(
            "a change of -2000000 would take it below -1000000, the least a number may be"
        ),
        "{line}"
    );
}

/// A new campaign in a folder that is not there is said of the file asked
/// for, never as SQLite's error about a temporary file.
#[test]
fn a_new_file_in_a_missing_folder_names_the_file_asked_for() {
    let dir = util::temp();
    ok(dir.path(), &["demo"]);
    ok(
        dir.path(),
        &["bundle", "export", "--whole", "-o", "whole.json"],
    );
    ok(
        dir.path(),
        &["backup", "restore", "c.rapsheet", "-o", "copy.rapsheet"],
    );
    let made = one_line(
        dir.path(),
        &[
            "bundle",
            "import",
            "whole.json",
            "--whole",
            "--db",
            "nodir/x.rapsheet",
        ],
    );
    assert!(made.contains("nodir/x.rapsheet: no folder "), "{made}");
    assert!(!made.contains("unable to open"), "{made}");
    let merged = refused(
        dir.path(),
        &["merge", "copy.rapsheet", "-o", "nodir/m.rapsheet"],
    );
    assert!(merged.contains("nodir/m.rapsheet: no folder "), "{merged}");
    assert!(!merged.contains("unable to open"), "{merged}");
    assert!(!dir.path().join("nodir").exists());
}

/// A file name holding a line break is shown escaped in what a command
/// says it did, like every other text.
#[cfg(unix)]
#[test]
fn a_path_with_a_line_break_is_shown_escaped_in_success_messages() {
    let dir = util::temp();
    let out = rapsheet(dir.path(), &["new", "--db", "two\nlines.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(util::stdout(&out), "Created two\\u{a}lines.rapsheet\n");
    let out = rapsheet(dir.path(), &["pack-schema", "--out", "s\nchema.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        util::stdout(&out),
        "Wrote the pack schema to s\\u{a}chema.json\n"
    );
}

/// `--pack` is read by `demo` as by every other command: a broken pack is
/// refused and no campaign is made with it.
#[test]
fn a_demo_with_a_broken_pack_is_refused_and_makes_nothing() {
    let dir = util::temp();
    std::fs::write(dir.path().join("broken.toml"), "[pack]\nid = \"broken\"\n").unwrap();
    let line = one_line(
        dir.path(),
        &["--pack", "broken.toml", "demo", "--db", "c.rapsheet"],
    );
    assert!(line.contains("broken.toml"), "{line}");
    assert!(!dir.path().join("c.rapsheet").exists());
}

/// Every command of the tree, walked as clap holds it: given a flag no
/// command has, it is refused in one line naming the flag and where to
/// read more; a command of commands given none names them, in one line.
/// Help and the version are no errors: clap prints them whole.
#[test]
fn every_usage_error_of_the_command_tree_is_one_line() {
    fn walk(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<(Vec<String>, bool)>) {
        out.push((path.clone(), cmd.is_subcommand_required_set()));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            let mut next = path.clone();
            next.push(sub.get_name().to_owned());
            walk(sub, next, out);
        }
    }
    let mut commands = Vec::new();
    walk(&rapsheet::cli::command(), Vec::new(), &mut commands);
    assert!(commands.len() > 40, "the whole tree: {}", commands.len());
    let dir = util::temp();
    for (path, needs_one) in &commands {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--no-such-flag");
        let line = one_line(dir.path(), &args);
        assert!(line.contains("--no-such-flag"), "{args:?}: {line}");
        let more = format!("see `rapsheet {}", path.join(" "));
        assert!(line.contains(more.trim_end()), "{args:?}: {line}");
        let out = rapsheet(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: a usage error");
        if *needs_one {
            let args: Vec<&str> = path.iter().map(String::as_str).collect();
            let line = one_line(dir.path(), &args);
            assert!(line.contains("needs a command: "), "{args:?}: {line}");
        }
    }
    // A value missing, and an argument missing, alike.
    let line = one_line(dir.path(), &["gang", "new", "--db"]);
    assert!(line.contains("--db"), "{line}");
    let line = one_line(dir.path(), &["gang", "new"]);
    assert!(line.contains("see `rapsheet gang new --help`"), "{line}");
    // Help is printed whole, and is no error.
    let out = rapsheet(dir.path(), &["gang", "new", "--help"]);
    assert!(out.status.success());
    assert!(util::stdout(&out).contains("Usage:"));
}

/// A whole number given as a negative one is a value, whichever argument
/// takes it: checked and refused (or taken) as what it is, never taken for
/// a flag nobody knows.
#[test]
fn a_negative_number_is_a_value_never_an_unknown_flag() {
    fn walk(cmd: &clap::Command, path: &str, bad: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            if rapsheet::cli::takes_a_number(arg)
                && !arg.is_allow_negative_numbers_set()
                && !arg.is_allow_hyphen_values_set()
            {
                bad.push(format!("{path}{}", arg.get_id()));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path}{} ", sub.get_name()), bad);
        }
    }
    let mut bad = Vec::new();
    walk(&rapsheet::cli::command(), "", &mut bad);
    assert!(bad.is_empty(), "these take no negative number: {bad:?}");
    let dir = util::temp();
    ok(dir.path(), &["demo"]);
    let line = refused(
        dir.path(),
        &["captive", "ransom", "Brick", "--amount", "-1"],
    );
    assert!(!line.contains("unexpected argument"), "{line}");
    let line = one_line(dir.path(), &["log", "--limit", "-1", "--db", "c.rapsheet"]);
    assert!(line.starts_with("rapsheet: --limit -1: "), "{line}");
}

/// A message that names the members of a group of a thousand names ten
/// of them and says how many more: one short line.
#[test]
fn a_message_naming_a_long_list_names_ten_and_how_many_more() {
    let dir = util::temp();
    let d = dir.path();
    let pack = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/gloamhold.toml"),
    )
    .unwrap()
    .replace(
        "size = { min = 2, max = 4 }",
        "size = { min = 2, max = 10000 }",
    );
    std::fs::write(d.join("gloam.toml"), pack).unwrap();
    fn with_pack<'a>(args: &[&'a str]) -> Vec<&'a str> {
        let mut all = vec!["--pack", "gloam.toml"];
        all.extend_from_slice(args);
        all
    }
    ok(d, &with_pack(&["new", "--ruleset", "gloamhold"]));
    ok(d, &with_pack(&["gang", "new", "Ashen Choir"]));
    let names: Vec<String> = (1..=1000).map(|n| format!("Acolyte {n}")).collect();
    let mut args = with_pack(&[
        "gang",
        "add-group",
        "Ashen Choir",
        "--kind",
        "acolytes",
        "--name",
        "Grey Brothers",
    ]);
    for name in &names {
        args.extend(["--member", name.as_str()]);
    }
    ok(d, &args);
    let line = refused(d, &with_pack(&["cards", "-o", "cards.pdf"]));
    assert!(line.contains("Acolyte 10, … and 990 more"), "{line}");
    assert!(!d.join("cards.pdf").exists());
}
