//! Bundles (docs/bundle.md): a gang moves between campaigns with its
//! fighters, entries, lasting effects, photo and the group's own packs it
//! plays, as one batch undo takes back; a whole campaign's gangs travel
//! too; a hostile bundle is refused naming the field, with nothing written.

use crate::util;

use rapsheet::campaign::bundle;
use rapsheet::session::Session;

#[test]
fn a_gang_moves_between_campaigns_and_undo_takes_it_back() {
    let dir = util::temp();
    let mut from = Session::create_demo(&dir.path().join("a.rapsheet")).unwrap();
    let saints = from.gang_named("The Rust Saints").unwrap();
    let brick = from
        .fighter_named("Brick", Some("The Rust Saints"))
        .unwrap()
        .id;
    from.set_photo(brick, Some(&util::TINY_PNG)).unwrap();
    let bytes = serde_json::to_vec(&from.export_bundle(Some(saints.id)).unwrap()).unwrap();

    let mut to = Session::create(&dir.path().join("b.rapsheet"), "B", "heartbreaker").unwrap();
    let (batch, names) = to.import_bundle(&bytes).unwrap();
    assert_eq!(names, ["The Rust Saints"]);
    let moved = to.gang_named("The Rust Saints").unwrap();
    assert_eq!(moved.ruleset, saints.ruleset);
    assert_eq!(moved.resources, saints.resources);
    let roster: Vec<String> = to
        .fighters(moved.id)
        .unwrap()
        .into_iter()
        .map(|f| f.name)
        .collect();
    let before: Vec<String> = from
        .fighters(saints.id)
        .unwrap()
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(roster, before);
    let brick_there = to
        .fighter_named("Brick", Some("The Rust Saints"))
        .unwrap()
        .id;
    assert_eq!(to.photo(brick_there).unwrap().unwrap(), util::TINY_PNG);
    assert!(to.verify().unwrap().problems.is_empty());
    // Twice is refused: the name is taken, and nothing is written.
    let err = to.import_bundle(&bytes).unwrap_err().to_string();
    assert!(err.contains("gangs[0].name"), "{err}");
    assert_eq!(to.newest_batch().unwrap(), Some(batch));
    // One batch, which undo takes back.
    to.undo(batch).unwrap();
    assert!(to.gang_named("The Rust Saints").is_err());
    assert!(to.verify().unwrap().problems.is_empty());
}

#[test]
fn the_groups_own_pack_travels_with_the_party_that_plays_it() {
    let dir = util::temp();
    let from = Session::create_demo_of(&dir.path().join("a.rapsheet"), "hwc").unwrap();
    let bytes = serde_json::to_vec(&from.export_bundle(None).unwrap()).unwrap();
    let mut to = Session::create(&dir.path().join("b.rapsheet"), "B", "hwc").unwrap();
    to.import_bundle(&bytes).unwrap();
    let party = to.gang_named("The Night Crew").unwrap();
    assert_eq!(party.ruleset, "dead-air-table");
    assert_eq!(to.house_packs().unwrap()[0].id, "dead-air-table");
    let pim = to.fighter_named("Pim", Some("The Night Crew")).unwrap().id;
    assert_eq!(to.fighter_details(pim).unwrap().view.counters["hp"], 10);
}

#[test]
fn a_hostile_bundle_is_refused_naming_the_field() {
    let good = r#"{"kind":"rapsheet-bundle","format":1,"campaign":"x","gangs":[{"name":"A","ruleset":"heartbreaker"}]}"#;
    assert!(bundle::read(good.as_bytes()).is_ok());
    let cases: [(&[u8], &str); 7] = [
        (b"{ not json", "bundle: not JSON"),
        (br#"{"kind":"rapsheet-bundle","format":9,"campaign":"x","gangs":[]}"#, "format: format 9 is not one this build reads"),
        (br#"{"kind":"something","format":1,"campaign":"x","gangs":[]}"#, "kind: not a Rapsheet bundle"),
        (br#"{"kind":"rapsheet-bundle","format":1,"campaign":"x","gangs":[{"name":"a\u0007b","ruleset":"heartbreaker"}]}"#, "gangs[0].name"),
        (br#"{"kind":"rapsheet-bundle","format":1,"campaign":"x","gangs":[{"name":"A","ruleset":"heartbreaker","resources":{"supply":4611686018427387904}}]}"#, "gangs[0].resources.supply"),
        (br#"{"kind":"rapsheet-bundle","format":1,"campaign":"x","gangs":[{"name":"A","ruleset":"heartbreaker","fighters":[{"name":"B","photo":"../../etc/passwd"}]}]}"#, "gangs[0].fighters[0].photo"),
        (br#"{"kind":"rapsheet-bundle","format":1,"campaign":"x","gangs":[],"extra":1}"#, "unknown field"),
    ];
    for (bytes, said) in cases {
        let err = bundle::read(bytes).unwrap_err().to_string();
        assert!(err.contains(said), "{said}: {err}");
    }
    let huge = vec![b' '; bundle::MAX_BUNDLE_BYTES + 1];
    assert!(
        bundle::read(&huge)
            .unwrap_err()
            .to_string()
            .contains("more than a bundle may be")
    );

    // Into a campaign: an entry its pack lacks, nothing written.
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("c.rapsheet"), "C", "heartbreaker").unwrap();
    let before = s.newest_batch().unwrap();
    let bad = br#"{"kind":"rapsheet-bundle","format":1,"campaign":"x","gangs":[{"name":"A","ruleset":"heartbreaker","fighters":[{"name":"B","quirks":[{"quirk":"laser-sword"}]}]}]}"#;
    let err = s.import_bundle(bad).unwrap_err().to_string();
    assert!(
        err.contains("gangs[0].fighters[0].quirks") && err.contains("laser-sword"),
        "{err}"
    );
    let missing = br#"{"kind":"rapsheet-bundle","format":1,"campaign":"x","gangs":[{"name":"A","ruleset":"no-such-game"}]}"#;
    let err = s.import_bundle(missing).unwrap_err().to_string();
    assert!(err.contains("gangs[0].ruleset"), "{err}");
    assert_eq!(s.newest_batch().unwrap(), before);
}

#[test]
fn the_command_line_exports_and_imports_a_gang() {
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo"]);
    let out = util::ok(
        d,
        &[
            "bundle",
            "export",
            "--gang",
            "Neon Jackals",
            "-o",
            "jackals.json",
        ],
    );
    assert!(out.contains("Wrote Neon Jackals"), "{out}");
    let out = util::rapsheet(
        d,
        &["new", "--ruleset", "heartbreaker", "--db", "other.rapsheet"],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
    let out = util::rapsheet(
        d,
        &["bundle", "import", "jackals.json", "--db", "other.rapsheet"],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
    assert!(util::stdout(&out).contains("Brought in Neon Jackals"));
    let again = util::rapsheet(
        d,
        &["bundle", "import", "jackals.json", "--db", "other.rapsheet"],
    );
    assert!(!again.status.success());
    assert!(util::stderr(&again).contains("was not brought in"));
    // Under another name it comes in; the new name is checked as a typed
    // one is.
    let bad = util::rapsheet(
        d,
        &[
            "bundle",
            "import",
            "jackals.json",
            "--rename",
            "Neon Jackals=Neon\u{7}Jackals",
            "--db",
            "other.rapsheet",
        ],
    );
    assert!(!bad.status.success());
    let renamed = util::rapsheet(
        d,
        &[
            "bundle",
            "import",
            "jackals.json",
            "--rename",
            "neon jackals=Neon Jackals II",
            "--db",
            "other.rapsheet",
        ],
    );
    assert!(renamed.status.success(), "{}", util::stderr(&renamed));
    let renamed = util::stdout(&renamed);
    assert!(renamed.contains("Brought in Neon Jackals II"), "{renamed}");
}

#[test]
fn the_app_asks_for_a_new_name_where_a_bundled_gangs_name_is_taken() {
    use egui_kittest::kittest::Queryable;
    for size in [[1000.0, 700.0], [1600.0, 1000.0]] {
        let dir = util::temp();
        let path = dir.path().join("a.rapsheet");
        let file = dir.path().join("saints.json");
        let s = Session::create_demo(&path).unwrap();
        let saints = s.gang_named("The Rust Saints").unwrap().id;
        let bundle = s.export_bundle(Some(saints)).unwrap();
        std::fs::write(&file, serde_json::to_vec(&bundle).unwrap()).unwrap();
        let before = s.gangs().unwrap().len();
        drop(s);
        let mut h = egui_kittest::Harness::builder()
            .with_size(size)
            .build_ui_state(
                |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
                rapsheet::ui::RapsheetApp::with_session(Session::open(&path).unwrap()),
            );
        h.run();
        h.get_by_label("File").click();
        h.run();
        h.get_by_label("Bundles…").click();
        h.run();
        util::type_into(&mut h, "Bundle file to bring in", file.to_str().unwrap());
        h.get_by_label("Bring in its gangs").click();
        h.run();
        // Nothing written; the window asks, offering a name.
        let status = h.state().status_text().unwrap_or_default().to_owned();
        assert!(
            status.contains("already has a gang called The Rust Saints"),
            "{status}"
        );
        assert!(!status.contains("gangs["), "no field path: {status}");
        util::type_into(
            &mut h,
            "“The Rust Saints” is taken here; bring it in as",
            "Rust Saints of the Deep",
        );
        h.get_by_label("Bring in its gangs under these names")
            .click();
        h.run();
        let status = h.state().status_text().unwrap_or_default().to_owned();
        assert!(status.contains("Bundle brought in"), "{status}");
        drop(h);
        let s = Session::open(&path).unwrap();
        assert_eq!(s.gangs().unwrap().len(), before + 1);
        assert!(s.gang_named("Rust Saints of the Deep").is_ok());
    }
}

#[test]
fn the_app_exports_a_gang_and_brings_it_into_another_campaign() {
    use egui_kittest::kittest::Queryable;
    let dir = util::temp();
    let harness_for = |s: Session| {
        let mut h = egui_kittest::Harness::builder()
            .with_size([1280.0, 900.0])
            .build_ui_state(
                |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
                rapsheet::ui::RapsheetApp::with_session(s),
            );
        h.run();
        h
    };
    let file = dir.path().join("saints.json");
    let mut from = harness_for(Session::create_demo(&dir.path().join("a.rapsheet")).unwrap());
    from.query_all_by_label_contains("The Rust Saints")
        .next()
        .unwrap()
        .click();
    from.run();
    from.get_by_label("File").click();
    from.run();
    from.get_by_label("Bundles…").click();
    from.run();
    util::type_into(&mut from, "Bundle file to write", file.to_str().unwrap());
    from.get_by_label("Export The Rust Saints").click();
    from.run();
    assert!(file.exists(), "{:?}", from.state().status_text());

    let mut to =
        harness_for(Session::create(&dir.path().join("b.rapsheet"), "B", "heartbreaker").unwrap());
    to.get_by_label("File").click();
    to.run();
    to.get_by_label("Bundles…").click();
    to.run();
    util::type_into(&mut to, "Bundle file to bring in", file.to_str().unwrap());
    to.get_by_label("Bring in its gangs").click();
    to.run();
    let status = to.state().status_text().unwrap_or_default().to_owned();
    assert!(status.contains("Bundle brought in"), "{status}");
    let path = to.state().campaign_path().unwrap().to_owned();
    drop(to);
    let s = Session::open(&path).unwrap();
    assert_eq!(
        s.fighters(s.gang_named("The Rust Saints").unwrap().id)
            .unwrap()
            .len(),
        6
    );
}

#[test]
fn a_whole_campaign_round_trips_through_a_bundle_with_the_same_chronicle() {
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo"]);
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/battle-report.in/report.json"),
        d.join("report.json"),
    )
    .unwrap();
    util::ok(d, &["battle", "record", "report.json", "--seed", "7"]);
    std::fs::write(d.join("photo.png"), util::TINY_PNG).unwrap();
    util::ok(
        d,
        &[
            "fighter",
            "photo",
            "Brick",
            "photo.png",
            "--gang",
            "The Rust Saints",
        ],
    );
    util::ok(d, &["bundle", "export", "--whole", "-o", "whole.json"]);
    let out = util::rapsheet(
        d,
        &[
            "bundle",
            "import",
            "whole.json",
            "--whole",
            "--db",
            "again.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
    assert!(util::stdout(&out).contains("verified"));

    let first = Session::open(&d.join("c.rapsheet")).unwrap();
    let again = Session::open(&d.join("again.rapsheet")).unwrap();
    assert!(again.verify().unwrap().problems.is_empty());
    let story = |s: &Session| serde_json::to_value(s.chronicle().unwrap()).unwrap();
    assert_eq!(
        story(&first),
        story(&again),
        "the chronicle of both is the same"
    );
    let brick = |s: &Session| {
        s.fighter_named("Brick", Some("The Rust Saints"))
            .unwrap()
            .id
    };
    assert_eq!(
        again.photo(brick(&again)).unwrap(),
        first.photo(brick(&first)).unwrap()
    );
    // Never over a file; a gang's bundle is not a whole campaign.
    let out = util::rapsheet(
        d,
        &[
            "bundle",
            "import",
            "whole.json",
            "--whole",
            "--db",
            "again.rapsheet",
        ],
    );
    assert!(!out.status.success());
    util::ok(
        d,
        &[
            "bundle",
            "export",
            "--gang",
            "Neon Jackals",
            "-o",
            "jackals.json",
        ],
    );
    let out = util::rapsheet(
        d,
        &[
            "bundle",
            "import",
            "jackals.json",
            "--whole",
            "--db",
            "new.rapsheet",
        ],
    );
    assert!(
        util::stderr(&out).contains("not a whole campaign"),
        "{}",
        util::stderr(&out)
    );
    assert!(!d.join("new.rapsheet").exists());
}

#[test]
fn the_app_makes_a_campaign_again_from_its_whole_bundle() {
    use egui_kittest::kittest::Queryable;
    let dir = util::temp();
    let s = Session::create_demo(&dir.path().join("a.rapsheet")).unwrap();
    let mut h = egui_kittest::Harness::builder()
        .with_size([1280.0, 900.0])
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            rapsheet::ui::RapsheetApp::with_session(s),
        );
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Bundles…").click();
    h.run();
    h.get_by_label("Every gang of the campaign").click();
    h.run();
    h.get_by_label("With the campaign's history (the whole campaign)")
        .click();
    h.run();
    let file = dir.path().join("whole.json");
    util::type_into(&mut h, "Bundle file to write", file.to_str().unwrap());
    h.get_by_label("Export every gang").click();
    h.run();
    assert!(file.exists(), "{:?}", h.state().status_text());
    util::type_into(&mut h, "Bundle file to bring in", file.to_str().unwrap());
    let made = dir.path().join("again.rapsheet");
    util::type_into(&mut h, "New campaign file", made.to_str().unwrap());
    h.get_by_label("Make a new campaign from a whole campaign's bundle")
        .click();
    h.run();
    assert_eq!(h.state().campaign_path().unwrap(), made.as_path());
    let a = Session::open(&dir.path().join("a.rapsheet")).unwrap();
    let story = |s: &Session| serde_json::to_value(s.chronicle().unwrap()).unwrap();
    drop(h);
    let b = Session::open(&made).unwrap();
    assert_eq!(story(&a), story(&b));
}

/// A bundle of one gang of `fighters` fighters.
fn one_gang_of(fighters: usize) -> Vec<u8> {
    let fighters: Vec<serde_json::Value> = (0..fighters)
        .map(|i| serde_json::json!({"name": format!("Fighter {i}"), "leader": i == 0}))
        .collect();
    serde_json::to_vec(&serde_json::json!({
        "kind": "rapsheet-bundle",
        "format": 1,
        "campaign": "Many",
        "gangs": [{"name": "Horde", "ruleset": "heartbreaker", "fighters": fighters}],
    }))
    .unwrap()
}

/// A gang of a bundle carries at most `MAX_BUNDLE_FIGHTERS` fighters: one
/// more is refused naming the field, with nothing written; one at the
/// limit is brought in whole, each recruit's name looked up in one step.
#[test]
fn a_gang_of_a_bundle_carries_at_most_so_many_fighters() {
    let dir = util::temp();
    let max = bundle::MAX_BUNDLE_FIGHTERS;
    std::fs::write(dir.path().join("over.json"), one_gang_of(max + 1)).unwrap();
    util::ok(dir.path(), &["new", "--name", "Many"]);
    let out = util::rapsheet(
        dir.path(),
        &["bundle", "import", "over.json", "--db", "c.rapsheet"],
    );
    assert!(!out.status.success(), "{}", util::stdout(&out));
    assert_eq!(
        util::stderr(&out).trim(),
        format!(
            "rapsheet: over.json was not brought in: gangs[0].fighters: {} fighters is more than a gang of a bundle may carry (at most {max})",
            max + 1
        )
    );
    let log = util::ok(dir.path(), &["log"]);
    assert!(!log.contains("Bring in"), "{log}");
    // Two fighters of the gang by one name, as names compare, are still
    // refused, however many came before them.
    let mut twice: serde_json::Value = serde_json::from_slice(&one_gang_of(500)).unwrap();
    twice["gangs"][0]["fighters"][400]["name"] = "FIGHTER 7".into();
    std::fs::write(dir.path().join("twice.json"), twice.to_string()).unwrap();
    let out = util::rapsheet(
        dir.path(),
        &["bundle", "import", "twice.json", "--db", "c.rapsheet"],
    );
    assert!(!out.status.success(), "{}", util::stdout(&out));
    let err = util::stderr(&out);
    assert!(
        err.contains("gangs[0].fighters[400]") && err.contains("“Fighter 7” already"),
        "{err}"
    );

    std::fs::write(dir.path().join("full.json"), one_gang_of(max)).unwrap();
    let said = util::ok(dir.path(), &["bundle", "import", "full.json"]);
    assert_eq!(said.trim(), "Brought in Horde");
    let s = Session::open(&dir.path().join("c.rapsheet")).unwrap();
    let horde = s.gang_named("Horde").unwrap();
    assert_eq!(s.fighters(horde.id).unwrap().len(), max);
    assert!(s.verify().unwrap().problems.is_empty());
}
