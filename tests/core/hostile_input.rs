//! What a careless or hostile player can type or point at: outputs aimed
//! at the campaign, names in any script, names of megabytes. Each test is
//! named for what it protects; the campaign file must come out whole.

use crate::util;

use std::path::Path;

use proptest::prelude::*;
use rapsheet::campaign::commands::NewFighter;
use util::{TINY_PNG, rapsheet, stderr, stdout, temp};

fn demo(dir: &Path) {
    let out = rapsheet(dir, &["demo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// The campaign's bytes and the log's length, to compare before and after.
fn fingerprint(dir: &Path) -> (Vec<u8>, String) {
    let out = rapsheet(dir, &["log", "--db", "c.rapsheet", "--limit", "1000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    (std::fs::read(dir.join("c.rapsheet")).unwrap(), stdout(&out))
}

fn outputs_to(target: &str) -> Vec<Vec<String>> {
    let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    vec![
        owned(&[
            "export",
            "campaign",
            "--format",
            "md",
            "-o",
            target,
            "--db",
            "c.rapsheet",
        ]),
        owned(&["cards", "-o", target, "--db", "c.rapsheet"]),
        owned(&[
            "roster",
            "--gang",
            "Neon Jackals",
            "-o",
            target,
            "--db",
            "c.rapsheet",
        ]),
    ]
}

fn run(dir: &Path, args: &[String]) -> std::process::Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    rapsheet(dir, &args)
}

#[test]
fn no_output_can_replace_the_open_campaign() {
    let dir = temp();
    demo(dir.path());
    let before = fingerprint(dir.path());
    std::fs::hard_link(dir.path().join("c.rapsheet"), dir.path().join("hard.md")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("c.rapsheet"), dir.path().join("soft.md")).unwrap();
    let mut targets = vec![
        "c.rapsheet",
        "./c.rapsheet",
        "c.rapsheet-wal",
        "c.rapsheet-shm",
        "c.rapsheet.lock",
        "hard.md",
    ];
    if cfg!(unix) {
        targets.push("soft.md");
    }
    for target in targets {
        for mut args in outputs_to(target) {
            for force in [false, true] {
                if force {
                    args.push("--force".into());
                }
                let out = run(dir.path(), &args);
                assert!(!out.status.success(), "{args:?} wrote over the campaign");
                assert!(
                    stderr(&out).contains("open campaign"),
                    "{args:?}: {}",
                    stderr(&out)
                );
            }
        }
    }
    assert_eq!(fingerprint(dir.path()), before);
    let verify = rapsheet(dir.path(), &["verify", "--db", "c.rapsheet"]);
    assert!(verify.status.success(), "{}", stderr(&verify));
}

#[test]
fn an_existing_output_is_kept_unless_forced() {
    let dir = temp();
    demo(dir.path());
    for args in outputs_to("mine.txt") {
        std::fs::write(dir.path().join("mine.txt"), b"the player's own file").unwrap();
        let out = run(dir.path(), &args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
        assert_eq!(
            std::fs::read(dir.path().join("mine.txt")).unwrap(),
            b"the player's own file"
        );
        let mut forced = args.clone();
        forced.push("--force".into());
        let out = run(dir.path(), &forced);
        assert!(out.status.success(), "{forced:?}: {}", stderr(&out));
        assert_ne!(
            std::fs::read(dir.path().join("mine.txt")).unwrap(),
            b"the player's own file"
        );
        // Written through a temporary file beside it; none is left over.
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}

#[test]
fn an_accented_unknown_quirk_is_refused_without_a_panic() {
    let dir = temp();
    assert!(
        rapsheet(dir.path(), &["new", "--db", "c.rapsheet"])
            .status
            .success()
    );
    assert!(
        rapsheet(dir.path(), &["gang", "new", "Test", "--db", "c.rapsheet"])
            .status
            .success()
    );
    for quirk in ["Brûlé", "山田", "é", "👨‍👩‍👧"] {
        let out = rapsheet(
            dir.path(),
            &[
                "fighter",
                "add",
                "Bob",
                "--gang",
                "Test",
                "--quirk",
                quirk,
                "--db",
                "c.rapsheet",
            ],
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains("is not a quirk"), "{}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}

#[test]
fn a_name_typed_precomposed_or_decomposed_is_one_gang() {
    let dir = temp();
    let (_, mut session) = util::empty_campaign(dir.path(), "c.rapsheet");
    session.found_gang("Br\u{fb}l\u{e9}", None).unwrap();
    let err = session
        .found_gang("Bru\u{302}le\u{301}", None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("already a gang"), "{err}");
    let err = session.found_gang("BRÛLÉ", None).unwrap_err().to_string();
    assert!(err.contains("already a gang"), "{err}");
    // Found by either spelling; stored once, precomposed.
    let gang = session.gang_named("bru\u{302}le\u{301}").unwrap();
    assert_eq!(gang.name, "Br\u{fb}l\u{e9}");
}

#[test]
fn a_control_character_in_a_name_is_refused() {
    let dir = temp();
    let (_, mut session) = util::empty_campaign(dir.path(), "c.rapsheet");
    for bad in ["Bob\u{1b}[2J", "two\nlines", "tab\there", "bell\u{7}"] {
        let err = session.found_gang(bad, None).unwrap_err().to_string();
        assert!(err.contains("control character"), "{bad:?}: {err}");
    }
    assert!(session.gang_list().unwrap().is_empty());
}

#[test]
fn a_ten_megabyte_name_is_refused_not_echoed() {
    let dir = temp();
    let (_, mut session) = util::empty_campaign(dir.path(), "c.rapsheet");
    let huge = "x".repeat(10 * 1024 * 1024);
    let err = session.found_gang(&huge, None).unwrap_err().to_string();
    assert!(err.contains("too long"), "{err}");
    assert!(
        err.len() < 200,
        "the error repeats the name: {} bytes",
        err.len()
    );
    let err = session.gang_named(&huge).unwrap_err().to_string();
    assert!(
        err.len() < 200,
        "the error repeats the name: {} bytes",
        err.len()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Any Unicode at every name, quirk and note entry point of the core:
    /// a change or a clear refusal, never a panic, and a name found again
    /// by the text it was given.
    #[test]
    fn any_unicode_at_every_entry_point_is_taken_or_refused(
        gang_name in any::<String>(),
        fighter_name in any::<String>(),
        quirk in any::<String>(),
        notes in any::<String>(),
        reason in any::<String>(),
    ) {
        let dir = temp();
        let (_, mut session) = util::empty_campaign(dir.path(), "c.rapsheet");
        let (gang, _) = session.found_gang("Host", None).unwrap();
        if let Ok((id, _)) = session.found_gang(&gang_name, None) {
            let found = session.gang_named(&gang_name).unwrap();
            prop_assert_eq!(found.id, id);
            let _ = session.rename_gang(id, &fighter_name);
        }
        let _ = session.set_gang_notes(gang, &notes);
        let _ = session.resolve_quirks(gang, std::slice::from_ref(&quirk));
        let _ = session.adjust_resource(gang, &quirk, 1, &reason);
        let _ = session.gang_named(&quirk);
        let _ = session.fighter_named(&quirk, None);
        let recruit = NewFighter {
            name: fighter_name.clone(),
            notes: notes.clone(),
            ..NewFighter::default()
        };
        if let Ok(outcome) = session.recruit(gang, recruit) {
            let fighter = session.fighter_named(&fighter_name, Some("Host")).unwrap();
            let _ = session.set_fighter_notes(fighter.id, &reason);
            let _ = session.rename_fighter(fighter.id, &gang_name);
            let _ = outcome;
        }
        let _ = session.cards(gang, std::slice::from_ref(&fighter_name));
    }
}

#[test]
fn any_unicode_through_the_command_line_is_taken_or_refused() {
    let dir = temp();
    assert!(
        rapsheet(dir.path(), &["new", "--db", "c.rapsheet"])
            .status
            .success()
    );
    let samples = [
        "Brûlé",
        "Bru\u{302}le\u{301}",
        "山田太郎",
        "محمد",
        "👨‍👩‍👧",
        "Z\u{351}\u{34b}\u{33f}a\u{36d}l\u{35a}g\u{310}o",
        "\u{202e}evil",
        "a\u{1b}[31m",
        "",
        " ",
    ];
    for name in samples {
        for args in [
            vec!["gang", "new", name, "--db", "c.rapsheet"],
            vec!["gang", "show", name, "--db", "c.rapsheet"],
            vec![
                "fighter",
                "add",
                name,
                "--gang",
                "Brûlé",
                "--quirk",
                name,
                "--db",
                "c.rapsheet",
            ],
            vec![
                "resource",
                name,
                "1",
                "--gang",
                name,
                "--reason",
                name,
                "--db",
                "c.rapsheet",
            ],
        ] {
            let out = rapsheet(dir.path(), &args);
            assert!(
                matches!(out.status.code(), Some(0..=2)),
                "{args:?}: {}",
                stderr(&out)
            );
            assert!(
                !stderr(&out).contains("panicked"),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
    let verify = rapsheet(dir.path(), &["verify", "--db", "c.rapsheet"]);
    assert!(verify.status.success(), "{}", stderr(&verify));
}

#[test]
fn a_saved_change_exits_zero_even_when_reading_back_fails() {
    let dir = temp();
    demo(dir.path());
    {
        // Tampered behind the app's back: a lasting effect whose stored
        // roll is not a roll, on a fighter of the Neon Jackals.
        let conn = rusqlite::Connection::open(dir.path().join("c.rapsheet")).unwrap();
        conn.execute(
            "INSERT INTO lasting_effect (fighter_id, tbl, name, detail, roll) \
             SELECT f.id, 'injuries', 'Scar', 'tampered', 'not a roll' \
             FROM fighter f JOIN gang g ON g.id = f.gang_id \
             WHERE g.name = 'Neon Jackals' LIMIT 1",
            [],
        )
        .unwrap();
    }
    let out = rapsheet(
        dir.path(),
        &[
            "fighter",
            "add",
            "Newcomer",
            "--gang",
            "Neon Jackals",
            "--db",
            "c.rapsheet",
        ],
    );
    let log = stdout(&rapsheet(dir.path(), &["log", "--db", "c.rapsheet"]));
    if log.contains("Newcomer") {
        assert!(
            out.status.success(),
            "saved, yet exit {:?}: {}",
            out.status,
            stderr(&out)
        );
        assert!(
            stderr(&out).contains("the change is saved"),
            "{}",
            stderr(&out)
        );
    } else {
        assert!(!out.status.success(), "not saved, yet exit 0");
    }
}

fn photo_rows(path: &Path) -> i64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("SELECT count(*) FROM photo", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn undoing_a_photo_leaves_no_orphan_blob() {
    let dir = temp();
    let path = dir.path().join("c.rapsheet");
    let mut session = rapsheet::session::Session::create_demo(&path).unwrap();
    let fighter = session.fighter_named("Hush", None).unwrap().id;
    let set = session.set_photo(fighter, Some(&TINY_PNG)).unwrap();
    assert_eq!(photo_rows(&path), 1);
    session.undo(set).unwrap();
    assert_eq!(photo_rows(&path), 0, "the undone photo's blob stayed");
    assert!(session.verify().unwrap().is_sound());
}

#[test]
fn a_dismissed_fighter_gets_their_photo_back_on_undo() {
    let dir = temp();
    let path = dir.path().join("c.rapsheet");
    let mut session = rapsheet::session::Session::create_demo(&path).unwrap();
    let fighter = session.fighter_named("Hush", None).unwrap().id;
    session.set_photo(fighter, Some(&TINY_PNG)).unwrap();
    let dismissed = session.dismiss(fighter).unwrap();
    // Kept while the dismissal can be undone.
    assert_eq!(photo_rows(&path), 1);
    assert!(session.verify().unwrap().is_sound());
    session.undo(dismissed).unwrap();
    assert_eq!(
        session.photo(fighter).unwrap().as_deref(),
        Some(&TINY_PNG[..])
    );
    let report = session.verify().unwrap();
    assert!(report.is_sound(), "{:?}", report.problems);
}

#[test]
fn verify_names_a_photo_nothing_can_show() {
    let dir = temp();
    let path = dir.path().join("c.rapsheet");
    drop(rapsheet::session::Session::create_demo(&path).unwrap());
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute(
            "INSERT INTO photo (hash, mime, bytes) VALUES ('stray', 'image/png', x'00')",
            [],
        )
        .unwrap();
    }
    let session = rapsheet::session::Session::open(&path).unwrap();
    let report = session.verify().unwrap();
    assert!(
        report.problems.iter().any(|p| p.contains("photo stray")),
        "{:?}",
        report.problems
    );
}

#[test]
fn verify_names_a_campaign_renamed_behind_the_logs_back() {
    let dir = temp();
    let path = dir.path().join("c.rapsheet");
    drop(rapsheet::session::Session::create_demo(&path).unwrap());
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute("UPDATE campaign SET name = 'Forged'", [])
            .unwrap();
    }
    let report = rapsheet::session::Session::open(&path)
        .unwrap()
        .verify()
        .unwrap();
    assert!(!report.is_sound());
    assert!(
        report.problems.iter().any(|p| p.contains("campaign")),
        "{:?}",
        report.problems
    );
}

#[test]
fn verify_names_a_dropped_append_only_trigger() {
    let dir = temp();
    let path = dir.path().join("c.rapsheet");
    drop(rapsheet::session::Session::create_demo(&path).unwrap());
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute("DROP TRIGGER batch_append_only_delete", [])
            .unwrap();
    }
    let report = rapsheet::session::Session::open(&path)
        .unwrap()
        .verify()
        .unwrap();
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.contains("batch_append_only_delete")),
        "{:?}",
        report.problems
    );
}

/// A child process killed when the test ends, passed or not.
struct Writer(std::process::Child);

impl Drop for Writer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn verify_reads_one_snapshot_while_another_process_writes() {
    let dir = temp();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args([
            "gen",
            "--db",
            "g.rapsheet",
            "--gangs",
            "4",
            "--fighters-per-gang",
            "6",
            "--battles",
            "100000",
            "--durable",
        ])
        .current_dir(dir.path())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("HOME", dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let _writer = Writer(child);
    let path = dir.path().join("g.rapsheet");
    let started = std::time::Instant::now();
    let mut checked = 0;
    while checked < 12 && started.elapsed() < std::time::Duration::from_secs(20) {
        let Ok(session) = rapsheet::session::Session::open(&path) else {
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        };
        let report = session.verify().unwrap();
        assert!(report.is_sound(), "while writing: {:?}", report.problems);
        checked += 1;
    }
    assert!(
        checked > 0,
        "the campaign never opened while it was written"
    );
}

// ---------------------------------------------------------------------------
// Bounded work: files far larger than any campaign needs are refused by a
// stated limit, before the work they would ask for.
// ---------------------------------------------------------------------------

#[test]
fn a_bundle_of_fifty_thousand_gangs_is_refused_by_the_gang_limit() {
    let dir = temp();
    demo(dir.path());
    let before = fingerprint(dir.path());
    let gangs: Vec<serde_json::Value> = (0..50_000)
        .map(|i| serde_json::json!({"name": format!("Gang {i}"), "ruleset": "heartbreaker"}))
        .collect();
    let bundle = serde_json::json!({
        "kind": "rapsheet-bundle",
        "format": 1,
        "campaign": "Hostile",
        "gangs": gangs,
    });
    let bytes = serde_json::to_vec(&bundle).unwrap();
    assert!(bytes.len() > 2_000_000, "{} bytes", bytes.len());
    std::fs::write(dir.path().join("many.json"), bytes).unwrap();
    let out = rapsheet(
        dir.path(),
        &["bundle", "import", "many.json", "--db", "c.rapsheet"],
    );
    assert!(!out.status.success(), "{}", stdout(&out));
    assert_eq!(
        stderr(&out).trim(),
        "rapsheet: many.json was not brought in: gangs: 50000 gangs is more than a bundle may carry (at most 1000)"
    );
    assert_eq!(fingerprint(dir.path()), before);
}

/// A pack whose one table has `rows` rows, one per total from 1.
fn pack_with_rows(rows: usize) -> String {
    let mut text = String::from(
        "[pack]\nid = \"huge\"\nname = \"Huge\"\nformat = 1\nbase = \"heartbreaker\"\n\n\
         [[tables]]\nid = \"huge\"\nname = \"Huge\"\nroll = \"d6\"\nrows = [\n",
    );
    for i in 1..=rows {
        text.push_str(&format!("  {{ on = \"{i}\", result = \"row {i}\" }},\n"));
    }
    text.push_str("]\n");
    text
}

#[test]
fn a_table_of_a_hundred_thousand_rows_is_refused_by_the_row_limit() {
    let dir = temp();
    demo(dir.path());
    let before = fingerprint(dir.path());
    std::fs::write(dir.path().join("huge.toml"), pack_with_rows(100_000)).unwrap();
    let said = "tables.huge: 100000 rows; a table has at most 1000 (one for each total of a d1000)";
    let out = rapsheet(dir.path(), &["check-pack", "huge.toml"]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stderr(&out).contains(said), "{}", stderr(&out));
    assert_eq!(stderr(&out).trim().lines().count(), 1, "{}", stderr(&out));
    let out = rapsheet(
        dir.path(),
        &["house", "keep", "huge.toml", "--db", "c.rapsheet"],
    );
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stderr(&out).contains(said), "{}", stderr(&out));
    assert_eq!(fingerprint(dir.path()), before);
    // At the limit the table is read.
    std::fs::write(dir.path().join("full.toml"), pack_with_rows(1000)).unwrap();
    let out = rapsheet(dir.path(), &["check-pack", "full.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

// ---------------------------------------------------------------------------
// Photos are looked into where they come in
// ---------------------------------------------------------------------------

fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend(u32::try_from(data.len()).unwrap().to_be_bytes());
    let mut body = kind.to_vec();
    body.extend(data);
    out.extend(&body);
    out.extend(crc32fast::hash(&body).to_be_bytes());
}

/// A PNG of a few dozen bytes whose header claims 100,000 × 100,000
/// pixels: decoded, it would ask for tens of gigabytes.
fn png_bomb() -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend(100_000u32.to_be_bytes());
    ihdr.extend(100_000u32.to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]);
    png_chunk(&mut out, b"IHDR", &ihdr);
    // The start of a stream of zeros (a stored zlib block).
    png_chunk(
        &mut out,
        b"IDAT",
        &[0x78, 0x01, 0x00, 0x00, 0x01, 0xFF, 0xFE, 0x00],
    );
    png_chunk(&mut out, b"IEND", &[]);
    out
}

/// A real 8 × 8 JPEG whose frame header is changed to claim 65,500 ×
/// 65,500 pixels.
fn jpeg_claiming_65500() -> Vec<u8> {
    let mut bytes = Vec::new();
    let pixels = vec![128u8; 8 * 8 * 3];
    image::codecs::jpeg::JpegEncoder::new(&mut bytes)
        .encode(&pixels, 8, 8, image::ExtendedColorType::Rgb8)
        .unwrap();
    let sof = bytes
        .windows(2)
        .position(|w| w == [0xFF, 0xC0])
        .expect("a baseline frame header");
    // Marker, length (2), precision (1), then height and width.
    bytes[sof + 5..sof + 9].copy_from_slice(&[0xFF, 0xDC, 0xFF, 0xDC]);
    bytes
}

fn png_with_garbage() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend(std::iter::repeat_n(b'Z', 200));
    bytes
}

#[test]
fn a_hostile_photo_is_refused_when_it_is_given() {
    let dir = temp();
    demo(dir.path());
    let before = fingerprint(dir.path());
    for (file, bytes, said) in [
        (
            "bomb.png",
            png_bomb(),
            "rapsheet: the photo is 100000 × 100000 pixels (10000 megapixels); at most 40 megapixels",
        ),
        (
            "huge.jpg",
            jpeg_claiming_65500(),
            "rapsheet: the photo is 65500 × 65500 pixels (4290 megapixels); at most 40 megapixels",
        ),
        (
            "garbage.png",
            png_with_garbage(),
            "rapsheet: the photo is not a PNG image that can be read",
        ),
    ] {
        std::fs::write(dir.path().join(file), bytes).unwrap();
        let out = rapsheet(
            dir.path(),
            &["fighter", "photo", "Hush", file, "--db", "c.rapsheet"],
        );
        assert!(!out.status.success(), "{file}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.starts_with(said), "{file}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{file}: {err}");
    }
    assert_eq!(fingerprint(dir.path()), before);
    // A real photo is still taken.
    std::fs::write(dir.path().join("tiny.png"), TINY_PNG).unwrap();
    let out = rapsheet(
        dir.path(),
        &["fighter", "photo", "Hush", "tiny.png", "--db", "c.rapsheet"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_hostile_photo_in_a_bundle_is_refused_naming_the_fighter() {
    let dir = temp();
    demo(dir.path());
    let before = fingerprint(dir.path());
    for (bytes, said) in [
        (png_bomb(), "100000 × 100000 pixels"),
        (jpeg_claiming_65500(), "65500 × 65500 pixels"),
        (png_with_garbage(), "not a PNG image that can be read"),
    ] {
        let bundle = serde_json::json!({
            "kind": "rapsheet-bundle",
            "format": 1,
            "campaign": "Hostile",
            "gangs": [{"name": "Photographers", "ruleset": "heartbreaker", "fighters": [
                {"name": "Snap", "photo": rapsheet::campaign::bundle::photo_text(&bytes)},
            ]}],
        });
        std::fs::write(
            dir.path().join("photo.json"),
            serde_json::to_vec(&bundle).unwrap(),
        )
        .unwrap();
        let out = rapsheet(
            dir.path(),
            &["bundle", "import", "photo.json", "--db", "c.rapsheet"],
        );
        assert!(!out.status.success(), "{}", stdout(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with(
                "rapsheet: photo.json was not brought in: gangs[0].fighters[0].photo: the photo is "
            ),
            "{err}"
        );
        assert!(err.contains(said), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    assert_eq!(fingerprint(dir.path()), before);
}

/// A reason is one line, as every line of the log is: one typed with a
/// line break is refused, and one a campaign carries from elsewhere (a
/// bundle of an older build) is shown escaped, never as a line that reads
/// as a change of its own.
#[test]
fn a_reason_cannot_forge_a_line_of_the_log() {
    let dir = temp();
    demo(dir.path());
    let forged = "x\n#99 2026-01-01 12:00 Neon Jackals Supply +1000000";
    let before = fingerprint(dir.path());
    let out = rapsheet(
        dir.path(),
        &[
            "resource",
            "supply",
            "1",
            "--gang",
            "Neon Jackals",
            "--reason",
            forged,
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("one line"), "{err}");
    assert_eq!(fingerprint(dir.path()), before);

    // Carried in from elsewhere: shown on one line.
    let mut session =
        rapsheet::session::Session::open(&dir.path().join("c.rapsheet")).expect("open");
    let gang = session.gang_named("Neon Jackals").expect("gang").id;
    session
        .adjust_resource(gang, "supply", 1, "a crate")
        .expect("adjust");
    let mut whole = serde_json::to_value(session.export_whole_bundle().expect("whole")).unwrap();
    drop(session);
    let batches = whole["log"]["batches"].as_array_mut().unwrap();
    let last = batches.last_mut().unwrap();
    last["events"][0]["reason"] = serde_json::json!(forged);
    let made = dir.path().join("carried.rapsheet");
    rapsheet::session::Session::create_from_bundle(&made, &serde_json::to_vec(&whole).unwrap())
        .expect("made");
    let out = rapsheet(dir.path(), &["log", "--db", "carried.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stdout(&out);
    assert!(
        !log.lines().any(|l| l.starts_with("#99 ")),
        "a forged line: {log}"
    );
    assert!(log.contains("x\\u{a}#99 2026-01-01"), "{log}");
}

/// A name of a character that stands for none (private use, U+FFFC)
/// alone, or with a format character that shows nothing (U+1D173,
/// U+1BCA0), is refused in one line, the campaign unchanged.
#[test]
fn a_name_of_placeholders_or_with_a_format_character_is_refused() {
    let dir = temp();
    demo(dir.path());
    let before = fingerprint(dir.path());
    for name in [
        "\u{E000}",
        "\u{FFFC}",
        "Ash\u{1D173}Dogs",
        "Ash\u{1BCA0}Dogs",
        "Neon Jackal\u{455}",
    ] {
        let out = rapsheet(dir.path(), &["gang", "new", name, "--db", "c.rapsheet"]);
        assert!(!out.status.success(), "{name:?} was founded");
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "{name:?}: {err}");
    }
    assert_eq!(fingerprint(dir.path()), before);
}

/// A full disk is said as what it is, with what to do, and never called
/// damage (which would send a player to a backup, losing their newest
/// changes): each command run on a campaign whose disk has no room left
/// (a small tmpfs, filled, in a mount namespace of the test's own) is
/// refused or done, the campaign byte for byte as it was.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_said_as_one_never_as_damage() {
    let dir = temp();
    demo(dir.path());
    let before = std::fs::read(dir.path().join("c.rapsheet")).unwrap();
    let full = dir.path().join("full");
    let out = dir.path().join("out");
    std::fs::create_dir(&full).unwrap();
    std::fs::create_dir(&out).unwrap();
    let pack = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/gloamhold.toml");
    let pack = pack.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["gang", "list"],
        vec!["verify"],
        vec!["gang", "new", "Ash Dogs"],
        vec!["export", "campaign", "--format", "md", "-o", "OUT/x.md"],
        vec!["cards", "-o", "OUT/cards.pdf"],
        vec!["bundle", "export", "--whole", "-o", "OUT/w.json"],
        vec!["house", "keep", pack],
    ];
    let mut script = String::from(
        "set -u\nmount -t tmpfs -o size=4m tmpfs \"$FULL\" || exit 90\n\
         cp \"$CAMPAIGN\" \"$FULL/c.rapsheet\" || exit 91\n\
         dd if=/dev/zero of=\"$FULL/filler\" bs=4k 2>/dev/null\n",
    );
    for (i, args) in commands.iter().enumerate() {
        let args: Vec<String> = args
            .iter()
            .map(|a| a.replace("OUT/", &format!("{}/", full.display())))
            .collect();
        let quoted = shlex::try_join(args.iter().map(String::as_str)).unwrap();
        script.push_str(&format!(
            "\"$BIN\" {quoted} --db \"$FULL/c.rapsheet\" >\"$OUT/{i}.out\" 2>\"$OUT/{i}.err\"; echo $? >\"$OUT/{i}.rc\"\n"
        ));
    }
    script.push_str("cp \"$FULL/c.rapsheet\" \"$OUT/after.rapsheet\"\n");
    let ran = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .env("FULL", &full)
        .env("OUT", &out)
        .env("CAMPAIGN", dir.path().join("c.rapsheet"))
        .env("BIN", env!("CARGO_BIN_EXE_rapsheet"))
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("HOME", dir.path())
        .status()
        .expect("unshare (util-linux) runs the commands in a mount namespace of their own");
    assert!(ran.success(), "the full disk could not be made: {ran:?}");
    let read = |name: String| std::fs::read_to_string(out.join(name)).unwrap();
    let mut refused_for_room = 0;
    for (i, args) in commands.iter().enumerate() {
        let rc = read(format!("{i}.rc"));
        let err = read(format!("{i}.err"));
        if rc.trim() == "0" {
            continue;
        }
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        for never in ["is damaged", "restore", "Error code"] {
            assert!(!err.contains(never), "{args:?}: {err}");
        }
        assert!(
            err.contains("the disk is full") || err.contains("No space left"),
            "{args:?}: not said as a full disk: {err}"
        );
        refused_for_room += 1;
    }
    assert!(refused_for_room >= 1, "a change needs room");
    assert_eq!(
        read(format!("{}.rc", 2)).trim(),
        "1",
        "a gang founded on a full disk"
    );
    assert_eq!(std::fs::read(out.join("after.rapsheet")).unwrap(), before);
}

/// A write-ahead log beside the campaign that is not its own — another
/// campaign's, or another copy's that went its own way — is refused
/// before anything is taken from it: the campaign byte for byte as it
/// was, nothing left beside it, and opened again once the log is moved.
#[test]
fn a_write_ahead_log_that_is_not_the_campaigns_is_refused() {
    use rapsheet::session::Session;
    let dir = temp();
    demo(dir.path());
    let d = dir.path();
    let ok = |args: &[&str]| {
        let out = rapsheet(d, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    };
    ok(&["demo", "--db", "other.rapsheet"]);
    ok(&["backup", "restore", "c.rapsheet", "-o", "copy.rapsheet"]);
    // This copy goes on with a change of its own.
    ok(&[
        "resource",
        "supply",
        "1",
        "--gang",
        "Neon Jackals",
        "--reason",
        "ours",
        "--db",
        "c.rapsheet",
    ]);
    // A log each, caught while its campaign is open with a change in it.
    let caught = |name: &str, reason: &str| -> Vec<u8> {
        let mut s = Session::open(&d.join(name)).unwrap();
        let gang = s.gang_named("Neon Jackals").unwrap().id;
        s.adjust_resource(gang, "supply", 2, reason).unwrap();
        let wal = std::fs::read(d.join(format!("{name}-wal"))).unwrap();
        assert!(!wal.is_empty());
        drop(s);
        wal
    };
    for (whose, wal) in [
        ("another campaign's", caught("other.rapsheet", "theirs")),
        ("another copy's", caught("copy.rapsheet", "the copy's")),
    ] {
        let before = std::fs::read(d.join("c.rapsheet")).unwrap();
        std::fs::write(d.join("c.rapsheet-wal"), &wal).unwrap();
        for args in [
            &["gang", "list", "--db", "c.rapsheet"][..],
            &["verify", "--db", "c.rapsheet"],
            &["gang", "new", "Ash Dogs", "--db", "c.rapsheet"],
        ] {
            let out = rapsheet(d, args);
            assert!(!out.status.success(), "{whose}: {args:?} took it");
            let err = stderr(&out);
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(
                err.contains(
                    "the write-ahead log beside it (c.rapsheet-wal) is not this campaign's"
                ),
                "{whose}: {err}"
            );
            assert_eq!(
                std::fs::read(d.join("c.rapsheet")).unwrap(),
                before,
                "{whose}"
            );
            assert!(
                !d.join("c.rapsheet-shm").exists(),
                "{whose}: nothing left beside"
            );
        }
        std::fs::remove_file(d.join("c.rapsheet-wal")).unwrap();
        ok(&["verify", "--db", "c.rapsheet"]);
    }
}
