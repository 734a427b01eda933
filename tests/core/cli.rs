//! The `rapsheet` command line, run as a player's script would.

use crate::util;

use util::{rapsheet, stderr, stdout, temp};

#[test]
fn demo_then_gang_list_gives_two_gangs_of_six() {
    let dir = temp();
    let out = rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));

    let out = rapsheet(
        dir.path(),
        &["gang", "list", "--db", "c.rapsheet", "--json"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let gangs: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let gangs = gangs.as_array().expect("array");
    assert_eq!(gangs.len(), 2);
    for gang in gangs {
        // 003: "Start with 6 fighters (1 leader + 5 recruits)"
        assert_eq!(gang["fighters"], 6, "{gang}");
        assert_eq!(gang["legal"], true, "{gang}");
    }
}

#[test]
fn the_demo_is_legal_with_four_quirks_each_and_five_for_the_leader() {
    let dir = temp();
    assert!(
        rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"])
            .status
            .success()
    );
    for gang in ["The Rust Saints", "Neon Jackals"] {
        let out = rapsheet(
            dir.path(),
            &["gang", "show", gang, "--db", "c.rapsheet", "--json"],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let view: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
        assert_eq!(view["problems"].as_array().map(Vec::len), Some(0), "{view}");
        let fighters = view["fighters"].as_array().expect("fighters");
        let leaders = fighters.iter().filter(|f| f["leader"] == true).count();
        assert_eq!(leaders, 1);
        for f in fighters {
            let quirks = f["quirks"].as_array().expect("quirks").len();
            // 003: "Give each fighter 4 different quirks" / "The leader gets 1 extra quirk"
            assert_eq!(quirks, if f["leader"] == true { 5 } else { 4 }, "{f}");
            let stats = f["stats"].as_array().expect("stats");
            assert_eq!(stats.len(), 4);
            assert!(
                stats
                    .iter()
                    .all(|s| s["base"].is_i64() && s["value"].is_i64())
            );
        }
    }
}

#[test]
fn gang_show_gives_base_and_derived_stats_and_problems() {
    let dir = temp();
    let db = ["--db", "c.rapsheet"];
    assert!(
        rapsheet(dir.path(), &["new", db[0], db[1]])
            .status
            .success()
    );
    let out = rapsheet(dir.path(), &["gang", "new", "Ash Dogs", db[0], db[1]]);
    assert!(out.status.success(), "{}", stderr(&out));
    let add = |quirks: &[&str]| {
        let mut args = vec!["fighter", "add", "Brick", "--gang", "ash dogs"];
        for q in quirks {
            args.extend(["--quirk", q]);
        }
        args.extend(db);
        rapsheet(dir.path(), &args)
    };
    // 003, LIGHTWEIGHT: "This fighter cannot have armor." A fighter who
    // would break a limit is refused, naming the rule and its source…
    let out = add(&["Sledgehammer", "heavy armor", "Lightweight"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("Lightweight: this fighter cannot have armor.")
            && err.contains("003: Abilities, LIGHTWEIGHT"),
        "{err}"
    );
    // …and one still short of their quirks is added, the problems printed.
    let out = add(&["Sledgehammer", "heavy armor"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Brick: has 2 quirks; a fighter has 4"),
        "{text}"
    );

    let out = rapsheet(
        dir.path(),
        &["gang", "show", "Ash Dogs", db[0], db[1], "--json"],
    );
    let view: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let brick = &view["fighters"][0];
    assert_eq!(brick["name"], "Brick");
    assert_eq!(brick["quirks"][0]["alt_name"], "Sledgehammer");
    let stat = |id: &str| {
        brick["stats"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["id"] == id))
            .cloned()
            .expect("stat")
    };
    // 003: Heavy Armor "Add 4 to this fighter's Armor value and subtract 1"
    // from their speed."
    assert_eq!(
        (
            stat("armor")["base"].clone(),
            stat("armor")["value"].clone()
        ),
        (1.into(), 5.into())
    );
    assert_eq!(
        (
            stat("speed")["base"].clone(),
            stat("speed")["value"].clone()
        ),
        (4.into(), 3.into())
    );
    let rules: Vec<&str> = view["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter_map(|p| p["rule"].as_str())
        .collect();
    assert!(rules.contains(&"recruiting.quirks"), "{rules:?}");
    assert!(rules.contains(&"recruiting.leaders"), "{rules:?}");
    assert!(rules.contains(&"recruiting.size"), "{rules:?}");
    assert_eq!(brick["counters"]["bounty"], 0);
}

#[test]
fn check_pack_accepts_a_good_pack_and_refuses_a_broken_one() {
    let dir = temp();
    let good = dir.path().join("house.toml");
    std::fs::write(
        &good,
        r#"
[pack]
id = "heartbreaker-house"
name = "Heartbreaker, our table"
format = 1
base = "heartbreaker"
house_rules = true

[[quirks]]
id = "slasher"
name = "Slasher"
category = "weapon"
range = "Nearby"
punch = 6
"#,
    )
    .expect("write");
    let out = rapsheet(dir.path(), &["check-pack", "house.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("ok: Heartbreaker, our table"));

    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        r#"
[pack]
id = "broken"
name = "Broken"
format = 1
base = "heartbreaker"

[[constraints]]
id = "needs-ghost"
kind = "requires_any"
quirk = "akimbo-holster"
any_of = ["ghost-gun"]
message = "x"
"#,
    )
    .expect("write");
    let out = rapsheet(dir.path(), &["check-pack", "bad.toml"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(
            "bad.toml:8:1: constraints.needs-ghost: quirk `ghost-gun` is not in [[quirks]]"
        ),
        "{err}"
    );
}

#[test]
fn a_truncated_campaign_is_refused_and_left_unchanged() {
    let dir = temp();
    assert!(
        rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"])
            .status
            .success()
    );
    let path = dir.path().join("c.rapsheet");
    let bytes = std::fs::read(&path).expect("read");
    std::fs::write(&path, &bytes[..bytes.len() / 3]).expect("truncate");
    let before = std::fs::read(&path).expect("read");

    let out = rapsheet(dir.path(), &["gang", "list", "--db", "c.rapsheet"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("damaged"), "{err}");
    assert_eq!(std::fs::read(&path).expect("read"), before);
    assert!(!dir.path().join("c.rapsheet-wal").exists());
}

#[test]
fn mistakes_give_one_line_and_a_failing_exit() {
    let dir = temp();
    assert!(
        rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"])
            .status
            .success()
    );
    let cases: &[(&[&str], &str)] = &[
        (
            &["gang", "show", "Nobody", "--db", "c.rapsheet"],
            "no gang called “Nobody”",
        ),
        (
            &[
                "fighter",
                "add",
                "X",
                "--gang",
                "Neon Jackals",
                "--quirk",
                "Laser Sword",
                "--db",
                "c.rapsheet",
            ],
            "“Laser Sword” is not a quirk of Heartbreaker",
        ),
        (
            &[
                "fighter",
                "add",
                "Hush",
                "--gang",
                "Neon Jackals",
                "--db",
                "c.rapsheet",
            ],
            "already has a fighter called “Hush”",
        ),
        (
            &["gang", "new", "neon jackals", "--db", "c.rapsheet"],
            "already a gang called",
        ),
        (
            &["gang", "list", "--db", "missing.rapsheet"],
            "no such file",
        ),
        (&["demo", "--db", "c.rapsheet"], "a file is already there"),
        (
            &[
                "resource",
                "supply",
                "-3",
                "--gang",
                "Neon Jackals",
                "--reason",
                "x",
                "--db",
                "c.rapsheet",
            ],
            "Supply would be -3; it cannot go below 0",
        ),
    ];
    let before = std::fs::read(dir.path().join("c.rapsheet")).expect("read");
    for (args, expected) in cases {
        let out = rapsheet(dir.path(), args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    assert_eq!(
        std::fs::read(dir.path().join("c.rapsheet")).expect("read"),
        before
    );
}

#[test]
fn a_resource_change_is_logged_with_its_reason_and_undoes() {
    let dir = temp();
    let db = ["--db", "c.rapsheet"];
    assert!(
        rapsheet(dir.path(), &["demo", db[0], db[1]])
            .status
            .success()
    );
    let out = rapsheet(
        dir.path(),
        &[
            "resource",
            "Reputation",
            "2",
            "--gang",
            "Neon Jackals",
            "--reason",
            "won the pit fight",
            db[0],
            db[1],
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Reputation 2"));
    let log = stdout(&rapsheet(
        dir.path(),
        &["log", "--limit", "1", db[0], db[1]],
    ));
    assert!(
        log.contains("Neon Jackals: Reputation +2 (0 → 2): won the pit fight"),
        "{log}"
    );
    let out = rapsheet(dir.path(), &["undo", db[0], db[1]]);
    assert!(
        stdout(&out).contains("Undo: Neon Jackals Reputation +2"),
        "{}",
        stdout(&out)
    );
    let show = stdout(&rapsheet(
        dir.path(),
        &["gang", "show", "Neon Jackals", db[0], db[1]],
    ));
    assert!(show.contains("Reputation 0"), "{show}");
}

#[test]
fn rulesets_lists_the_heartbreaker_pack() {
    let dir = temp();
    let out = rapsheet(dir.path(), &["rulesets", "--json"]);
    let packs: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let packs = packs.as_array().expect("array");
    let find = |id: &str| packs.iter().find(|p| p["id"] == id).cloned().expect(id);
    assert_eq!(find("heartbreaker")["quirks"], 30);
    // The house rules name their base and say they are house rules.
    let house = find("heartbreaker-escalation");
    assert_eq!(house["base"], "heartbreaker");
    assert_eq!(house["house_rules"], true);
    assert!(packs.iter().any(|p| p["id"] == "wayfarer"));
    assert!(packs.iter().any(|p| p["id"] == "hardwired28"));
}

#[test]
fn gen_is_deterministic_for_a_seed_and_verify_replays_the_log() {
    let dir = temp();
    let make = |file: &str| {
        let out = rapsheet(
            dir.path(),
            &[
                "gen",
                "--db",
                file,
                "--gangs",
                "4",
                "--fighters-per-gang",
                "6",
                "--battles",
                "12",
                "--seed",
                "5",
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let mut seen = String::new();
        for what in [["gang", "list"], ["battle", "list"]] {
            let out = rapsheet(dir.path(), &[what[0], what[1], "--db", file, "--json"]);
            assert!(out.status.success(), "{}", stderr(&out));
            seen.push_str(&stdout(&out));
        }
        seen
    };
    let first = make("a.rapsheet");
    assert_eq!(
        first,
        make("b.rapsheet"),
        "the same seed makes the same campaign"
    );

    // More battles on the same file, between the gangs already there.
    let out = rapsheet(
        dir.path(),
        &[
            "gen",
            "--db",
            "a.rapsheet",
            "--gangs",
            "0",
            "--battles",
            "3",
            "--durable",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = rapsheet(dir.path(), &["verify", "--db", "a.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        // Heartbreaker's records are skirmishes.
        stdout(&out).contains("15 skirmishes, state agrees with the log"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_base_stat_is_set_by_number_or_ladder_step_and_undone() {
    // 000: attributes are dice tiers, 2d4 up to 2d12.
    let dir = temp();
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--db", "c.rapsheet"]);
        let out = rapsheet(dir.path(), &all);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    run(&["new", "--ruleset", "hardwired28"]);
    run(&["gang", "new", "Night Shift"]);
    run(&["fighter", "add", "Rook", "--gang", "Night Shift"]);
    let combat = |dir: &std::path::Path| {
        let out = rapsheet(
            dir,
            &[
                "gang",
                "show",
                "Night Shift",
                "--db",
                "c.rapsheet",
                "--json",
            ],
        );
        let view: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
        view["fighters"][0]["stats"]
            .as_array()
            .expect("stats")
            .iter()
            .find(|s| s["id"] == "combat")
            .map(|s| s["base"].as_i64().expect("base"))
            .expect("combat")
    };
    assert_eq!(combat(dir.path()), 2);
    assert!(run(&["fighter", "stat", "Rook", "combat", "2d10"]).contains("COMBAT 2d10"));
    assert_eq!(combat(dir.path()), 4);
    run(&["fighter", "stat", "Rook", "Combat", "3"]);
    assert_eq!(combat(dir.path()), 3);
    let out = rapsheet(
        dir.path(),
        &[
            "fighter",
            "stat",
            "Rook",
            "combat",
            "2d20",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("2d4, 2d6"), "{}", stderr(&out));
    let out = rapsheet(
        dir.path(),
        &[
            "fighter",
            "stat",
            "Rook",
            "combat",
            "9",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(stderr(&out).contains("between 1 and 5"), "{}", stderr(&out));
    run(&["undo"]);
    assert_eq!(combat(dir.path()), 4);
}

#[test]
fn a_roll_twice_row_rolls_the_table_twice_more_never_the_ignored_total() {
    let dir = temp();
    for (table, ignored) in [("search-findings", 20), ("corporate-blessings", 8)] {
        for seed in 0..20 {
            let seed = seed.to_string();
            let total = ignored.to_string();
            let out = rapsheet(
                dir.path(),
                &[
                    "table",
                    table,
                    "--ruleset",
                    "hardwired28",
                    "--total",
                    &total,
                    "--seed",
                    &seed,
                    "--json",
                ],
            );
            assert!(out.status.success(), "{}", stderr(&out));
            let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
            // 000: "| 20 | Roll twice (ignore 20s) |", "| 8 | Surplus | Roll twice, ignoring 8s |"
            let again = v["again"].as_array().expect("two more results");
            assert_eq!(again.len(), 2, "{v}");
            for a in again {
                assert_ne!(a["record"]["total"], ignored, "{v}");
                assert!(a["row"]["result"].is_string(), "{v}");
            }
        }
    }
    // A row that is not "roll twice" rolls nothing more.
    let out = rapsheet(
        dir.path(),
        &[
            "table",
            "search-findings",
            "--ruleset",
            "hardwired28",
            "--total",
            "5",
            "--json",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert!(v.get("again").is_none(), "{v}");
}

/// `rapsheet gen` makes a sound campaign whatever the game: every built-in
/// pack, battles or sessions, scenarios or none, one side or two.
#[test]
fn gen_makes_a_verified_campaign_for_every_built_in_pack() {
    let registry = rapsheet::session::builtin_registry().expect("packs");
    let ids: Vec<String> = registry.packs().map(|p| p.pack.id.clone()).collect();
    assert!(ids.len() >= 4, "{ids:?}");
    for id in ids {
        let dir = temp();
        let d = dir.path();
        let run = |args: &[&str]| {
            let mut all = args.to_vec();
            all.extend(["--db", "c.rapsheet"]);
            let out = rapsheet(d, &all);
            assert!(out.status.success(), "{id}: {args:?}: {}", stderr(&out));
            stdout(&out)
        };
        run(&["new", "--ruleset", &id, "--name", "Generated"]);
        let made = run(&[
            "gen",
            "--gangs",
            "4",
            "--fighters-per-gang",
            "4",
            "--battles",
            "12",
            "--seed",
            "5",
        ]);
        // Counted in the pack's own words: 12 skirmishes, 12 sessions.
        let records = registry.get(&id).expect("a pack").record().count(12);
        assert!(made.contains(&records), "{id}: {made}");
        let verified = run(&["verify"]);
        assert!(
            verified.contains(&format!("{records}, state agrees")),
            "{id}: {verified}"
        );
    }
}

/// A clean close leaves nothing beside the campaign: the lock file the
/// session made while it edited is gone.
#[test]
fn a_clean_close_removes_the_lock_file() {
    let dir = temp();
    let out = rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("c.rapsheet").exists());
    assert!(!dir.path().join("c.rapsheet.lock").exists());
    let session = rapsheet::session::Session::open(&dir.path().join("c.rapsheet")).expect("open");
    assert!(
        dir.path().join("c.rapsheet.lock").exists(),
        "held while open"
    );
    drop(session);
    assert!(!dir.path().join("c.rapsheet.lock").exists());
}

/// 31.8: a reader that stops after the first line (`rapsheet log | head
/// -1`) ends the output, not the command: it exits cleanly and closes the
/// campaign, leaving no lock, journal or shared-memory file beside it.
#[test]
fn a_closed_pipe_is_a_clean_exit_that_leaves_the_campaign_closed() {
    use std::io::BufRead as _;
    let dir = util::temp();
    let d = dir.path();
    let made = util::rapsheet(
        d,
        &[
            "gen",
            "--gangs",
            "20",
            "--fighters-per-gang",
            "6",
            "--battles",
            "200",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(made.status.success(), "{}", util::stderr(&made));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(["log", "--limit", "100000", "--db", "c.rapsheet"])
        .current_dir(d)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a line");
    // The reader is gone: the rest of the output meets a closed pipe.
    let status = child.wait().expect("wait");
    assert!(first.starts_with('#'), "{first}");
    assert!(status.success(), "{status:?}");
    let left: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "c.rapsheet")
        .collect();
    assert!(left.is_empty(), "left beside the campaign: {left:?}");
}

/// `rapsheet FILE` opens the app on the file (a desktop's double-click);
/// a word that is neither a command nor a file is refused, never made into
/// a new campaign. Before a command, FILE is the campaign it runs on.
#[test]
fn a_file_named_alone_is_opened_and_a_mistyped_command_is_not_made() {
    let dir = util::temp();
    let d = dir.path();
    let out = util::rapsheet(d, &["gnag"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        util::stderr(&out).contains("gnag is neither a command nor a campaign file"),
        "{}",
        util::stderr(&out)
    );
    assert!(!d.join("gnag").exists());
    let made = util::rapsheet(d, &["demo", "--db", "c.rapsheet"]);
    assert!(made.status.success(), "{}", util::stderr(&made));
    let out = util::rapsheet(d, &["c.rapsheet", "gang", "list"]);
    assert!(out.status.success(), "{}", util::stderr(&out));
    assert!(util::stdout(&out).contains("Neon Jackals"));
}

#[test]
fn a_ruleset_the_build_lacks_is_refused_as_one_asked_for() {
    let dir = temp();
    let out = rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = rapsheet(dir.path(), &["ruleset", "nope", "--db", "c.rapsheet"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim(),
        "rapsheet: no ruleset pack `nope` (see `rapsheet rulesets`)"
    );
    let out = rapsheet(
        dir.path(),
        &["ruleset", "heartbreaker", "--db", "c.rapsheet"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "The campaign now plays Heartbreaker");
}

/// `rapsheet demo --ruleset heartbreaker` makes the demo's gangs played by
/// the book, as plain `demo` makes them with the escalation house rules.
#[test]
fn the_demo_is_made_with_the_book_rules_its_house_rules_are_built_on() {
    let dir = util::temp();
    let out = util::rapsheet(
        dir.path(),
        &["demo", "--ruleset", "heartbreaker", "--db", "c.rapsheet"],
    );
    assert!(out.status.success(), "{}", util::stderr(&out));
    let out = util::rapsheet(
        dir.path(),
        &["gang", "list", "--json", "--db", "c.rapsheet"],
    );
    let gangs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gangs = gangs.as_array().unwrap();
    assert_eq!(gangs.len(), 2);
    for gang in gangs {
        assert_eq!(gang["ruleset"], "heartbreaker", "{gang}");
    }
    let out = util::rapsheet(dir.path(), &["verify", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", util::stderr(&out));
}

/// `rapsheet demo --ruleset hardwired28` makes two factions, each with one
/// Boss (the pack's leader), whose models start as the pack's rulings say
/// a new model does (attribute-defaults, health-default, move-default,
/// armor-as-stat): nothing in them breaks a rule, and the file verifies.
#[test]
fn the_hardwired28_demo_is_made_legal_and_verifies() {
    let dir = temp();
    let d = dir.path();
    let out = rapsheet(
        d,
        &["demo", "--ruleset", "hardwired28", "--db", "c.rapsheet"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // The pack's words: "faction", "models".
    assert!(stdout(&out).contains("2 factions"), "{}", stdout(&out));

    let out = rapsheet(d, &["verify", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));

    let out = rapsheet(d, &["gang", "list", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let listed = stdout(&out);
    for gang in ["Night Desk Audit", "The Lapsed"] {
        assert!(listed.contains(gang), "{listed}");
    }

    let out = rapsheet(d, &["gang", "list", "--json", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let gangs: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let gangs = gangs.as_array().expect("array");
    assert_eq!(gangs.len(), 2);
    for gang in gangs {
        assert_eq!(gang["ruleset"], "hardwired28", "{gang}");
        assert_eq!(gang["fighters"], 4, "{gang}");
        assert_eq!(gang["legal"], true, "{gang}");
        // ruling starting-resources: "A new crew starts with 0 of each."
        for resource in ["subs", "merits", "evidence", "leads"] {
            assert_eq!(gang["resources"][resource], 0, "{gang}");
        }
    }

    for gang in ["Night Desk Audit", "The Lapsed"] {
        let out = rapsheet(d, &["gang", "show", gang, "--json", "--db", "c.rapsheet"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let view: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
        assert_eq!(view["problems"].as_array().map(Vec::len), Some(0), "{view}");
        let fighters = view["fighters"].as_array().expect("fighters");
        // 000: "When Boss goes Out of Action: all friendlies immediately
        // test Wits vs. 2d6."
        assert_eq!(fighters.iter().filter(|f| f["leader"] == true).count(), 1);
        for f in fighters {
            assert_eq!(f["problems"].as_array().map(Vec::len), Some(0), "{f}");
            // The pack's only category, Powers, ships empty; the text
            // lists no gear.
            assert_eq!(f["quirks"].as_array().map(Vec::len), Some(0), "{f}");
            let stat = |id: &str| {
                f["stats"]
                    .as_array()
                    .expect("stats")
                    .iter()
                    .find(|s| s["id"] == id)
                    .unwrap_or_else(|| panic!("no {id}: {f}"))["value"]
                    .as_i64()
                    .expect("a value")
            };
            // 000: "2d4 → 2d6 → 2d8 → 2d10 → 2d12": 2d6 is the second rung.
            for attribute in ["combat", "defense", "wits"] {
                assert_eq!(stat(attribute), 2, "{attribute}: {f}");
            }
            assert_eq!(stat("health"), 10, "{f}");
            assert_eq!(stat("move"), 6, "{f}");
            assert_eq!(stat("armor"), 0, "{f}");
            assert!(!f["notes"].as_str().unwrap_or("").is_empty(), "{f}");
        }
    }

    // Their cards print.
    let out = rapsheet(d, &["cards", "--db", "c.rapsheet", "--output", "c.pdf"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(d.join("c.pdf")).unwrap().starts_with(b"%PDF"));
}
