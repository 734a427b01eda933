//! Party play: HWC (rule text 001) and the Year Zero-style overview (rule
//! text 002) as packs, a party played through recorded sessions, the
//! group's own tables and counters' starts filled in as their house rules,
//! and the rolls a character's sheet offers. Every rules assertion quotes
//! the line of 001 or 002 it checks, or names the pack's ruling.

use crate::util;

use rapsheet::campaign::FighterId;
use rapsheet::campaign::battle::{
    BattleReport, CounterStep, FighterReport, GangReport, TableResultReport,
};
use rapsheet::campaign::checks::{CheckForm, CheckRoll};
use rapsheet::campaign::commands::NewFighter;
use rapsheet::rules::Registry;
use rapsheet::session::Session;
use std::collections::BTreeMap;

/// One character in a session: name, outcome, counter changes.
type Took<'a> = (&'a str, Option<&'a str>, &'a [(&'a str, i64)]);

/// A report of one session of `party`: each (character, outcome, counter
/// changes), the tables rolled during it and the boxes ticked.
fn session_report(
    party: &str,
    who: &[Took<'_>],
    tables: &[(&str, &str, i64)],
    flags: &[&str],
) -> BattleReport {
    BattleReport {
        format: 1,
        scenario: None,
        gangs: vec![GangReport {
            gang: party.into(),
            role: None,
            ran_for_it: false,
            counts: BTreeMap::new(),
            fighters: Some(
                who.iter()
                    .map(|(name, outcome, counters)| FighterReport {
                        fighter: (*name).into(),
                        outcome: outcome.map(str::to_owned),
                        downed_by: None,
                        counters: counters
                            .iter()
                            .map(|(c, n)| ((*c).to_owned(), *n))
                            .collect(),
                        steps: Vec::new(),
                    })
                    .collect(),
            ),
            place: None,
            challenger: false,
        }],
        winner: None,
        choices: vec![],
        bounties: vec![],
        titles: vec![],
        dice: vec![],
        advancements: vec![],
        picks: vec![],
        marks: vec![],
        table_results: tables
            .iter()
            .map(|(f, t, total)| TableResultReport {
                fighter: (*f).into(),
                table: (*t).into(),
                total: Some(*total),
            })
            .collect(),
        flags: flags.iter().map(|f| (*f).to_owned()).collect(),
        shape: None,
        stake: None,
        cycle: None,
        challenge: None,
        notes: String::new(),
    }
}

/// A character's counter as it stands.
fn counter(s: &Session, fighter: FighterId, id: &str) -> Option<i64> {
    s.fighter_details(fighter)
        .unwrap()
        .view
        .counters
        .get(id)
        .copied()
}

fn id_of(s: &Session, party: &str, name: &str) -> FighterId {
    s.fighter_named(name, Some(party)).unwrap().id
}

/// An HWC campaign with a party of two, Ada (Poise 1, Jets 3) and Bo.
fn hwc_party() -> (tempfile::TempDir, Session) {
    let dir = util::temp();
    let mut s = Session::create(&dir.path().join("c.rapsheet"), "Relay", "hwc").unwrap();
    let (party, _) = s.found_gang("Night Crew", None).unwrap();
    for (name, poise, jets) in [("Ada", 1, 3), ("Bo", 2, 1)] {
        s.recruit(
            party,
            NewFighter {
                name: name.into(),
                base: [("poise".to_owned(), poise), ("jets".to_owned(), jets)].into(),
                ..Default::default()
            },
        )
        .unwrap();
    }
    (dir, s)
}

#[test]
fn every_built_in_pack_loads_with_the_two_party_games() {
    let registry = Registry::builtin().unwrap();
    assert!(registry.get("hwc").is_some());
    assert!(registry.get("yearzero").is_some());
}

#[test]
fn hwc_characters_start_with_two_plot_points_and_never_hold_more() {
    // 001: "All characters start with two plot points. GMs may award plot
    // points during game ... but you may never have more than 2 plot points
    // at a time."
    let (_dir, mut s) = hwc_party();
    let ada = id_of(&s, "Night Crew", "Ada");
    assert_eq!(counter(&s, ada, "plot-points"), Some(2));
    let report = session_report(
        "Night Crew",
        &[("Ada", None, &[("plot-points", 1)])],
        &[],
        &[],
    );
    let recorded = s.record_battle(&report, 1).unwrap();
    let texts: Vec<&str> = recorded
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Plot points 2 → 2 (+1; the award is lost: never more than 2)")),
        "an award past the cap is shown as lost: {texts:?}"
    );
    assert_eq!(counter(&s, ada, "plot-points"), Some(2));
}

#[test]
fn hwc_plot_points_return_as_the_campaign_setting_says() {
    // 001: "Your plot points return at the end of every game session or at
    // story conclusion, whatever the GM determines."
    let (_dir, mut s) = hwc_party();
    let ada = id_of(&s, "Night Crew", "Ada");
    let spend = session_report(
        "Night Crew",
        &[("Ada", None, &[("plot-points", -2)])],
        &[],
        &[],
    );
    // The pack's default (ruling plot-refresh): at the end of every session.
    let setting = &s.settings().unwrap()[0];
    assert_eq!(
        (
            setting.id.as_str(),
            setting.chosen.as_str(),
            setting.by_default
        ),
        ("plot-refresh", "session", true)
    );
    s.record_battle(&spend, 2).unwrap();
    assert_eq!(
        counter(&s, ada, "plot-points"),
        Some(2),
        "returned at the session's end"
    );

    // The GM chooses the story's conclusion: a session that does not end
    // the story leaves them spent; one that does returns them.
    let (batch, view) = s.set_setting("plot-refresh", "story-conclusion").unwrap();
    assert_eq!(view.chosen, "story-conclusion");
    s.record_battle(&spend, 3).unwrap();
    assert_eq!(counter(&s, ada, "plot-points"), Some(0));
    let end = session_report(
        "Night Crew",
        &[("Ada", None, &[])],
        &[],
        &["The story concludes"],
    );
    let recorded = s.record_battle(&end, 4).unwrap();
    assert_eq!(counter(&s, ada, "plot-points"), Some(2));
    assert_eq!(recorded.procedure.battle.played.flags, ["story-concludes"]);
    assert_eq!(
        recorded.procedure.battle.played.settings["plot-refresh"],
        "story-conclusion"
    );

    // The setting is one change undo takes back, like any other.
    assert!(
        s.set_setting("plot-refresh", "Story").is_err(),
        "already chosen"
    );
    let _ = batch;
    let err = s
        .set_setting("plot-refresh", "never")
        .unwrap_err()
        .to_string();
    assert!(err.contains("no option “never”"), "{err}");
}

#[test]
fn hwc_hp_is_the_groups_to_fill_in_and_refused_until_they_do() {
    // 001 prints no HP total ("subtracted from their HP total"): ruling
    // hp-maximum, the counter is fill_in.
    let (_dir, mut s) = hwc_party();
    let ada = id_of(&s, "Night Crew", "Ada");
    assert_eq!(counter(&s, ada, "hp"), None, "not printed, not invented");
    let report = session_report("Night Crew", &[("Ada", None, &[("hp", -1)])], &[], &[]);
    let err = s.record_battle(&report, 5).unwrap_err().to_string();
    assert!(
        err.contains("HP is not printed in HWC, and the group has not filled it in"),
        "{err}"
    );

    // The group fills it in as their own data, and their parties play it.
    let mut draft = s.house_draft("our-hwc", "hwc", "Our HWC").unwrap();
    let base = s.pack("hwc").unwrap().clone();
    assert!(draft.set_counter(&base, "hp", Some(10), Some(10)));
    s.keep_draft(&draft, true).unwrap();
    let party = s.gang_named("Night Crew").unwrap();
    assert_eq!(party.ruleset, "our-hwc");
    assert_eq!(counter(&s, ada, "hp"), Some(10));
    s.record_battle(&report, 5).unwrap();
    assert_eq!(counter(&s, ada, "hp"), Some(9));
}

#[test]
fn hwc_initiative_is_2d6_plus_the_higher_of_poise_and_jets() {
    // 001: "all characters roll 2d6 + their Poise or Jets attribute
    // (whichever is higher)."
    let (_dir, s) = hwc_party();
    let ada = id_of(&s, "Night Crew", "Ada");
    let check = s.fighter_check(ada, "initiative").unwrap();
    assert_eq!(check.describe(), "2d6+3 (Jets)");
    let rolled = s.roll_fighter_check(ada, "Initiative", 11, 0).unwrap();
    let CheckRoll::Sum { roll, add, total } = &rolled.result else {
        panic!("a sum")
    };
    assert_eq!((roll.rolls.len(), *add), (2, 3));
    assert_eq!(*total, roll.total + 3);
    // The same seed, the same roll.
    assert_eq!(
        s.roll_fighter_check(ada, "initiative", 11, 0)
            .unwrap()
            .result,
        rolled.result
    );
}

#[test]
fn a_critical_injury_from_the_groups_table_lasts_its_healing_time_and_keeps_its_version() {
    let (_dir, mut s) = hwc_party();
    let base = s.pack("hwc").unwrap().clone();
    let mut draft = s.house_draft("our-hwc", "hwc", "Our HWC").unwrap();
    draft.set_counter(&base, "hp", Some(10), Some(10));
    draft.add_table(
        &base,
        toml::from_str(
            r#"id = "wounds"
name = "Wounds"
roll = "d6"
rows = [
  { on = "1-3", name = "Cracked Ribs", result = "-1 Jets for two sessions", lasting = true, heals_after = 2, effects = [{ kind = "stat", stat = "jets", amount = -1 }] },
  { on = "4-6", result = "Nothing lasting" },
]"#,
        )
        .unwrap(),
        Some("A character knocked unconscious".into()),
    );
    s.keep_draft(&draft, true).unwrap();
    let ada = id_of(&s, "Night Crew", "Ada");

    // Session 1: knocked unconscious, a wound rolled on the group's table.
    let hurt = session_report(
        "Night Crew",
        &[("Ada", Some("unconscious"), &[("hp", -10)])],
        &[("Ada", "wounds", 2)],
        &[],
    );
    let first = s.record_battle(&hurt, 6).unwrap();
    let lines: Vec<&str> = first
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Wounds (Our HWC, house rules)")),
        "the group's table is labelled theirs: {lines:?}"
    );
    let view = s.fighter_details(ada).unwrap().view;
    let wound = &view.lasting[0];
    assert_eq!(wound.name, "Cracked Ribs");
    assert_eq!(
        wound.origin("session").unwrap(),
        "Our HWC, house rules; heals after 2 × session"
    );
    assert_eq!(
        view.stats.iter().find(|st| st.id == "jets").unwrap().value,
        2
    );

    // The group edits its table between sessions: a new version.
    let mut draft = s.house_draft("our-hwc", "", "").unwrap();
    let edited_base = s.pack("hwc").unwrap().clone();
    assert!(
        draft.put_row(
            &edited_base,
            "wounds",
            toml::from_str(
                r#"on = "4-6"
result = "A scar to remember""#
            )
            .unwrap()
        )
    );
    s.keep_draft(&draft, false).unwrap();

    // Session 2: still hurt. Session 3: healed at its end.
    let quiet = session_report("Night Crew", &[("Ada", None, &[])], &[], &[]);
    s.record_battle(&quiet, 7).unwrap();
    assert_eq!(s.fighter_details(ada).unwrap().view.lasting.len(), 1);
    let third = s.record_battle(&quiet, 8).unwrap();
    assert!(s.fighter_details(ada).unwrap().view.lasting.is_empty());
    assert!(
        third
            .procedure
            .changes
            .iter()
            .any(|c| c.text.contains("Cracked Ribs healed")),
        "{:?}",
        third.procedure.changes
    );

    // Each session keeps the versions of the packs it was played with: the
    // first reads as it was played after the group's edit.
    let battles = s.battles().unwrap();
    let stamp = |i: usize| battles[i].played.packs.clone();
    assert_eq!(stamp(0)[0].id, "our-hwc");
    assert!(stamp(0)[0].house_rules);
    assert_eq!(stamp(0)[1].id, "hwc");
    assert_ne!(
        stamp(0)[0].digest,
        stamp(2)[0].digest,
        "the edit is a new version"
    );
    assert_eq!(
        stamp(0)[1].digest,
        stamp(2)[1].digest,
        "the base did not change"
    );
    // The chronicle says which version, by number, not by digest.
    let chronicle = s.chronicle().unwrap();
    let played: Vec<&Vec<String>> = chronicle.battles.iter().map(|b| &b.played_with).collect();
    assert_eq!(
        played[0],
        &["Our HWC, house rules (version 1)", "HWC playtest"],
        "{played:?}"
    );
    assert_eq!(played[2][0], "Our HWC, house rules (version 2)");

    // Undo takes the last session back, healing and all.
    let newest = s.newest_batch().unwrap().unwrap();
    s.undo(newest).unwrap();
    assert_eq!(s.fighter_details(ada).unwrap().view.lasting.len(), 1);
    assert!(s.verify().unwrap().problems.is_empty());
}

/// A Year Zero-style campaign with the demo's party (and its group's data).
fn tamsin() -> (tempfile::TempDir, Session) {
    let dir = util::temp();
    let s = Session::create_demo_of(&dir.path().join("c.rapsheet"), "yearzero").unwrap();
    (dir, s)
}

#[test]
fn a_year_zero_pool_is_attribute_plus_skill_with_stress_dice_apart() {
    // 002: "Base Dice: Attribute + Skill + Gear." "Stress Dice: Stress level"
    let (_dir, mut s) = tamsin();
    let ana = id_of(&s, "The Tamsin Crew", "Ana Reyes");
    // Agility 4 + Ranged Combat 3.
    let check = s.fighter_check(ana, "Ranged Combat").unwrap();
    let CheckForm::Pool {
        base,
        stress,
        stressable,
        ..
    } = check.form
    else {
        panic!("a pool")
    };
    assert_eq!((base, stress, stressable), (7, 0, true));
    // "Difficulty Modifiers: Adjust # of dice (Base Dice first, then Stress Dice)."
    let hard = s.roll_fighter_check(ana, "ranged-combat", 3, -2).unwrap();
    let CheckRoll::Pool { pool, roll } = &hard.result else {
        panic!("a pool")
    };
    assert_eq!((pool.base, pool.stress), (5, 0));
    assert_eq!(roll.base.len(), 5);

    // "Pushing: If no 1s show on Stress Dice, you may add 1 STRESS LEVEL
    // (and the associated die) then reroll all non-6s."
    let rolled = (0..50)
        .map(|seed| s.roll_fighter_check(ana, "ranged-combat", seed, 0).unwrap())
        .find(|r| matches!(&r.result, CheckRoll::Pool { roll, .. } if roll.can_push))
        .unwrap();
    let pushed = s.push_fighter_check(ana, &rolled).unwrap();
    let CheckRoll::Pool { roll, .. } = &pushed.result else {
        panic!()
    };
    assert_eq!(roll.stress.len(), 1, "one stress die more");
    assert_eq!(counter(&s, ana, "stress"), Some(1), "stress rose by one");
    let newest = s.newest_batch().unwrap().unwrap();
    s.undo(newest).unwrap();
    assert_eq!(
        counter(&s, ana, "stress"),
        Some(0),
        "undo takes the push back"
    );
}

#[test]
fn a_synthetic_has_no_stress_and_its_own_critical_table() {
    // 002, Synthetics: "Rolls - Cannot push skill roles or have stress die";
    // "Panic - Do not suffer stress and never make panic roles"; "Damage -
    // Critical injury roll on Synthetic Critical Injury table".
    let (_dir, mut s) = tamsin();
    let wren = id_of(&s, "The Tamsin Crew", "Wren-7");
    let check = s.fighter_check(wren, "ranged-combat").unwrap();
    assert!(matches!(
        check.form,
        CheckForm::Pool {
            stressable: false,
            ..
        }
    ));
    let stressed = session_report(
        "The Tamsin Crew",
        &[("Wren-7", None, &[("stress", 1)])],
        &[],
        &[],
    );
    let err = s.record_battle(&stressed, 1).unwrap_err().to_string();
    assert!(err.contains("has no Stress"), "{err}");

    // The humans' critical injuries table, filled in by the demo group, is
    // not the synthetic's; the synthetic's own is not printed.
    let wrong = session_report(
        "The Tamsin Crew",
        &[("Wren-7", None, &[])],
        &[("Wren-7", "critical-injuries", 3)],
        &[],
    );
    let err = s.record_battle(&wrong, 1).unwrap_err().to_string();
    assert!(err.contains("not for those with Synthetic"), "{err}");
    let own = session_report(
        "The Tamsin Crew",
        &[("Wren-7", None, &[])],
        &[("Wren-7", "synthetic-critical-injury", 3)],
        &[],
    );
    let err = s.record_battle(&own, 1).unwrap_err().to_string();
    assert!(err.contains("not printed in the rule text"), "{err}");
}

#[test]
fn year_zero_stress_is_never_lowered_by_the_app() {
    // Ruling stress-never-reset: the text gives no way to lower stress.
    let (_dir, mut s) = tamsin();
    let ana = id_of(&s, "The Tamsin Crew", "Ana Reyes");
    let up = session_report(
        "The Tamsin Crew",
        &[("Ana Reyes", None, &[("stress", 2)])],
        &[],
        &[],
    );
    s.record_battle(&up, 1).unwrap();
    let quiet = session_report("The Tamsin Crew", &[("Ana Reyes", None, &[])], &[], &[]);
    s.record_battle(&quiet, 2).unwrap();
    assert_eq!(counter(&s, ana, "stress"), Some(2));
}

#[test]
fn a_table_the_text_does_not_print_is_refused_with_its_ruling() {
    let dir = util::temp();
    let out = util::rapsheet(
        dir.path(),
        &[
            "table",
            "panic-roll",
            "--ruleset",
            "yearzero",
            "--total",
            "3",
        ],
    );
    assert!(!out.status.success());
    let err = util::stderr(&out);
    assert!(
        err.contains("Panic Roll is not printed") && err.contains("panic-roll"),
        "{err}"
    );
}

#[test]
fn a_party_of_each_system_plays_three_sessions_from_the_command_line() {
    // HWC also spends a plot point, which returns at the session's end
    // (001: "Your plot points return at the end of every game session").
    for (ruleset, party, who, table, counters) in [
        (
            "hwc",
            "The Night Crew",
            "Pim",
            "lasting-wounds",
            r#""hp": -1, "plot-points": -1"#,
        ),
        (
            "yearzero",
            "The Tamsin Crew",
            "Ana Reyes",
            "critical-injuries",
            r#""health": -1"#,
        ),
    ] {
        let dir = util::temp();
        let d = dir.path();
        util::ok(d, &["demo", "--ruleset", ruleset]);
        // The group edits its table from the command line: a row and its
        // healing time.
        let group = util::ok(d, &["house", "list", "--json"]);
        let group: serde_json::Value = serde_json::from_str(&group).unwrap();
        let pack = group[0]["id"].as_str().unwrap().to_owned();
        util::ok(
            d,
            &[
                "house",
                "row",
                "--house",
                &pack,
                table,
                "--on",
                "1-2",
                "--name",
                "Bad Fall",
                "--result",
                "Hurt for one session",
                "--heals-after",
                "1",
            ],
        );
        let shown = util::ok(d, &["house", "show", &pack]);
        assert!(shown.contains("Checks: no errors"), "{shown}");
        let report = |tables: bool| {
            let tables = if tables {
                format!(
                    r#", "table_results": [{{ "fighter": "{who}", "table": "{table}", "total": 1 }}]"#
                )
            } else {
                String::new()
            };
            format!(
                r#"{{ "gangs": [{{ "gang": "{party}", "fighters": [{{ "fighter": "{who}", "counters": {{ {counters} }} }}] }}]{tables} }}"#
            )
        };
        std::fs::write(d.join("s1.json"), report(true)).unwrap();
        std::fs::write(d.join("s2.json"), report(false)).unwrap();
        let first = util::ok(d, &["battle", "record", "s1.json", "--seed", "1"]);
        assert!(first.contains("Hurt for one session"), "{first}");
        assert!(
            first.contains("house rules"),
            "the group's table is labelled: {first}"
        );
        let second = util::ok(d, &["battle", "record", "s2.json", "--seed", "2"]);
        assert!(second.contains("Bad Fall healed"), "{second}");
        util::ok(d, &["battle", "record", "s2.json", "--seed", "3"]);
        let show = util::ok(d, &["fighter", "show", who, "--json"]);
        let show: serde_json::Value = serde_json::from_str(&show).unwrap();
        assert_eq!(
            show["effects"][0]["removed"].as_str().unwrap(),
            "healed: its time was 1 × session"
        );
        // Printed: the party's sheets as a PDF.
        util::ok(d, &["cards", "--gang", party, "-o", "party.pdf"]);
        let pdf = std::fs::read(d.join("party.pdf")).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
    }
}

#[test]
fn a_party_of_each_system_plays_three_sessions_in_the_app() {
    use egui_kittest::kittest::Queryable;
    for (ruleset, who, roll) in [
        ("hwc", "Pim", "Roll Initiative"),
        ("yearzero", "Ana Reyes", "Roll Ranged Combat"),
    ] {
        let dir = util::temp();
        let s = Session::create_demo_of(&dir.path().join("c.rapsheet"), ruleset).unwrap();
        let mut harness = egui_kittest::Harness::builder()
            .with_size([1400.0, 1000.0])
            .build_ui_state(
                |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
                rapsheet::ui::RapsheetApp::with_session(s),
            );
        harness.run();

        // The sheet: a roll it offers, rolled from the fighter editor.
        harness.get_by_label(who).click();
        harness.run();
        assert!(
            harness.query_by_label("Rolls").is_some(),
            "the sheet's rolls"
        );
        harness.get_by_label(roll).click();
        harness.run();
        // The roll's result under the check, its seed only on hover.
        let result = format!("{}: ", roll.trim_start_matches("Roll "));
        assert!(
            harness.query_by_label_contains(&result).is_some(),
            "the roll is shown: {:?}",
            harness.state().status_text()
        );
        assert!(harness.query_by_label_contains("seed").is_none());

        // The group's data: the editor opens on their pack and checks it.
        harness.get_by_label("The group's data…").click();
        harness.run();
        assert!(harness.query_by_label("Checks: no errors").is_some());
        harness.get_by_label("Close the group's data").click();
        harness.run();

        // Three sessions, the first with a result of the group's table.
        for n in 1..=3 {
            harness.get_by_label("Record").click();
            harness.run();
            if n == 1 {
                harness.get_by_label("Add a table result").click();
                harness.run();
            }
            harness.get_by_label("Commit session").click();
            harness.run();
            let status = harness.state().status_text().unwrap_or_default().to_owned();
            assert!(
                status.contains(&format!("Session #{n} recorded")),
                "{status}"
            );
        }
        let path = harness.state().campaign_path().unwrap().to_owned();
        let session = Session::open(&path).unwrap();
        let battles = session.battles().unwrap();
        assert_eq!(battles.len(), 3);
        assert!(
            battles[0].played.packs[0].house_rules,
            "played with the group's data"
        );

        // Printed: the party's cards.
        harness.get_by_label("Roster").click();
        harness.run();
        harness.get_by_label("Print cards…").click();
        harness.run();
        let pdf = dir.path().join("party.pdf");
        util::type_into(&mut harness, "PDF file path", pdf.to_str().unwrap());
        harness.get_by_label("Save PDF").click();
        harness.step();
        let mut frames = 0;
        while harness.query_by_label("Open the PDF").is_none() {
            assert!(frames < 500, "the PDF was never reported saved");
            std::thread::sleep(std::time::Duration::from_millis(10));
            harness.step();
            frames += 1;
        }
        assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
    }
}

#[test]
fn hwc_ammo_is_kept_per_weapon_and_a_session_records_shots_fired() {
    // 001: "Projectile weapons and firearms have a set amount of ammo. Roll
    // 2d6 when you find a weapon in game to determine the amount of bullets
    // you find with it. All purchased weapons come with a full 12 shots."
    // Ruling ammo: one Ammo for each weapon the group tags `projectile`.
    let (_dir, mut s) = hwc_party();
    let base = s.pack("hwc").unwrap().clone();
    let mut draft = s.house_draft("our-hwc", "hwc", "Our HWC").unwrap();
    draft.set_counter(&base, "hp", Some(10), Some(10));
    let tags = ["projectile".to_owned()];
    draft.put_entry(
        rapsheet::rules::Draft::entry("pistol", "Pistol", "weapons", "", &tags).unwrap(),
    );
    draft.put_entry(rapsheet::rules::Draft::entry("rifle", "Rifle", "weapons", "", &tags).unwrap());
    draft.put_entry(rapsheet::rules::Draft::entry("knife", "Knife", "weapons", "", &[]).unwrap());
    s.keep_draft(&draft, true).unwrap();
    let ada = id_of(&s, "Night Crew", "Ada");
    let pick = |q: &str| rapsheet::campaign::QuirkPick {
        quirk: q.into(),
        alt_name: None,
        with: None,
    };
    s.set_quirks(ada, vec![pick("pistol"), pick("rifle"), pick("knife")])
        .unwrap();
    // A purchased weapon: a full 12 shots each; a knife keeps none.
    assert_eq!(counter(&s, ada, "ammo:pistol"), Some(12));
    assert_eq!(counter(&s, ada, "ammo:rifle"), Some(12));
    assert_eq!(counter(&s, ada, "ammo:knife"), None);

    // A session: five shots fired from the pistol, none from the rifle.
    let fired = session_report(
        "Night Crew",
        &[("Ada", None, &[("ammo:Pistol", -5)])],
        &[],
        &[],
    );
    let recorded = s.record_battle(&fired, 9).unwrap();
    assert!(
        recorded
            .procedure
            .changes
            .iter()
            .any(|c| c.text == "Ada: Ammo (Pistol) 12 → 7 (-5)"),
        "{:?}",
        recorded.procedure.changes
    );
    assert_eq!(counter(&s, ada, "ammo:pistol"), Some(7));
    assert_eq!(counter(&s, ada, "ammo:rifle"), Some(12));

    // Ammo alone names no weapon; a weapon Ada lacks or that keeps no ammo
    // is refused.
    for (key, said) in [
        ("ammo", "kept for each of Ada's entries tagged projectile"),
        ("ammo:knife", "is not a counter"),
    ] {
        let bad = session_report("Night Crew", &[("Ada", None, &[(key, -1)])], &[], &[]);
        let err = s.record_battle(&bad, 10).unwrap_err().to_string();
        assert!(err.contains(said), "{key}: {err}");
    }
    let err = s
        .record_battle(
            &session_report(
                "Night Crew",
                &[("Bo", None, &[("ammo:pistol", -1)])],
                &[],
                &[],
            ),
            10,
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("Bo has no Pistol"), "{err}");

    // The card prints each weapon's Ammo beside it.
    let gang = s.gang_named("Night Crew").unwrap();
    let cards = s.cards(gang.id, &["Ada".to_owned()]).unwrap();
    assert!(
        cards[0]
            .quirks
            .iter()
            .any(|l| l.contains("Pistol") && l.contains("Ammo 7")),
        "{:?}",
        cards[0].quirks
    );
}

#[test]
fn full_auto_adds_two_dice_and_raises_stress_before_the_roll() {
    // 002, Ranged Combat Rolls: "If using Full Auto", "Add 2 dice to Dice
    // Pool", "Increase Stress Level by 1", "Add additional Stress Dice to
    // Dice Pool".
    let (_dir, mut s) = tamsin();
    let ana = id_of(&s, "The Tamsin Crew", "Ana Reyes");
    let rolled = s
        .roll_fighter_check_as(ana, "ranged-combat", "Full auto", 5, 0)
        .unwrap();
    let CheckRoll::Pool { pool, roll } = &rolled.result else {
        panic!("a pool")
    };
    // Agility 4 + Ranged Combat 3, and two more; stress 0 → 1.
    assert_eq!((pool.base, pool.stress), (9, 1));
    assert_eq!((roll.base.len(), roll.stress.len()), (9, 1));
    assert_eq!(counter(&s, ana, "stress"), Some(1));
    let raised = rolled.raised.as_ref().unwrap();
    assert_eq!((raised.from, raised.to), (0, 1));
    // Undo takes the stress back.
    let newest = s.newest_batch().unwrap().unwrap();
    s.undo(newest).unwrap();
    assert_eq!(counter(&s, ana, "stress"), Some(0));
    // A synthetic fires full auto with two more dice and no stress.
    let wren = id_of(&s, "The Tamsin Crew", "Wren-7");
    let rolled = s
        .roll_fighter_check_as(wren, "ranged-combat", "full-auto", 5, 0)
        .unwrap();
    assert!(rolled.raised.is_none());
    let CheckRoll::Pool { pool, .. } = &rolled.result else {
        panic!("a pool")
    };
    assert_eq!(pool.stress, 0);
}

#[test]
fn full_auto_is_a_way_of_rolling_from_the_command_line() {
    // 002:30-33, Ranged Combat Rolls: "If using Full Auto", "Add 2 dice to
    // Dice Pool", "Increase Stress Level by 1", "Add additional Stress Dice
    // to Dice Pool".
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo", "--ruleset", "yearzero"]);
    let said = util::ok(
        d,
        &[
            "fighter",
            "check",
            "Ana Reyes",
            "ranged-combat",
            "--as",
            "full-auto",
            "--seed",
            "5",
        ],
    );
    // Agility 4 + Ranged Combat 3, and two more; stress 0 → 1 first.
    assert!(said.contains("Stress level 0 → 1"), "{said}");
    assert!(
        said.contains("Ana Reyes Ranged Combat, Full auto: 9 base [")
            && said.contains("], 1 stress ["),
        "{said}"
    );
    let shown = util::ok(d, &["fighter", "show", "Ana Reyes"]);
    assert!(shown.contains("Stress level 1"), "{shown}");
    // Undo takes the stress back.
    util::ok(d, &["undo"]);
    let shown = util::ok(d, &["fighter", "show", "Ana Reyes"]);
    assert!(shown.contains("Stress level 0"), "{shown}");

    // The label is taken too; a way the roll does not have is refused.
    let said = util::ok(
        d,
        &[
            "fighter",
            "check",
            "Ana Reyes",
            "Ranged Combat",
            "--as",
            "Full auto",
            "--seed",
            "5",
        ],
    );
    assert!(said.contains("Full auto: 9 base"), "{said}");
    let out = util::rapsheet(
        d,
        &[
            "fighter",
            "check",
            "Ana Reyes",
            "ranged-combat",
            "--as",
            "burst",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    let err = util::stderr(&out);
    assert!(
        err.contains("Ranged Combat has no way “burst” (full-auto)"),
        "{err}"
    );
}

/// An HWC party whose Ada carries a Pistol the group tags `projectile`.
fn armed_party() -> (tempfile::TempDir, Session, FighterId) {
    let (dir, mut s) = hwc_party();
    let mut draft = s.house_draft("our-hwc", "hwc", "Our HWC").unwrap();
    let tags = ["projectile".to_owned()];
    draft.put_entry(
        rapsheet::rules::Draft::entry("pistol", "Pistol", "weapons", "", &tags).unwrap(),
    );
    s.keep_draft(&draft, true).unwrap();
    let ada = id_of(&s, "Night Crew", "Ada");
    let pistol = rapsheet::campaign::QuirkPick {
        quirk: "pistol".into(),
        alt_name: None,
        with: None,
    };
    s.set_quirks(ada, vec![pistol]).unwrap();
    (dir, s, ada)
}

#[test]
fn a_found_weapon_has_2d6_bullets_and_no_count_2d6_cannot_roll() {
    // 001:46: "Roll 2d6 when you find a weapon in game to determine the
    // amount of bullets you find with it. All purchased weapons come with a
    // full 12 shots."
    let (_dir, mut s, ada) = armed_party();
    assert_eq!(counter(&s, ada, "ammo:pistol"), Some(12));
    let before = s.dump().unwrap();
    for (count, said) in [
        (
            13,
            "Ammo (Pistol) of a possession found in play is rolled on 2d6: 2 to 12, not 13",
        ),
        (1, "rolled on 2d6: 2 to 12, not 1"),
    ] {
        let err = s
            .set_found_counter(ada, "ammo:pistol", count)
            .unwrap_err()
            .to_string();
        assert!(err.contains(said), "{count}: {err}");
    }
    assert_eq!(s.dump().unwrap(), before, "a refusal changes nothing");
    s.set_found_counter(ada, "ammo:Pistol", 7).unwrap();
    assert_eq!(counter(&s, ada, "ammo:pistol"), Some(7));
    let history = s.fighter_details(ada).unwrap().history;
    assert!(
        history.iter().any(|l| l
            .text
            .contains("Ammo (Pistol) 12 → 7: found in play, rolled on 2d6")),
        "{history:?}"
    );
    // Shots fired afterwards go below 2: only the find is rolled.
    s.set_counter(ada, "ammo:pistol", 0, "all fired").unwrap();
    assert_eq!(counter(&s, ada, "ammo:pistol"), Some(0));
    // Plot points are not found with a possession.
    let err = s
        .set_found_counter(ada, "plot-points", 1)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Plot points is not rolled for a possession found in play"),
        "{err}"
    );
}

#[test]
fn a_found_weapons_bullets_from_the_command_line_and_no_character_ammo() {
    // 001:46: "Projectile weapons and firearms have a set amount of ammo.
    // Roll 2d6 when you find a weapon in game to determine the amount of
    // bullets you find with it."
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo", "--ruleset", "hwc"]);
    let group = util::ok(d, &["house", "list", "--json"]);
    let group: serde_json::Value = serde_json::from_str(&group).unwrap();
    let pack = group[0]["id"].as_str().unwrap().to_owned();
    util::ok(
        d,
        &[
            "house",
            "entry",
            "--house",
            &pack,
            "pistol",
            "--name",
            "Pistol",
            "--category",
            "weapons",
            "--tag",
            "projectile",
        ],
    );
    util::ok(d, &["fighter", "quirk", "add", "Pim", "Pistol"]);
    // Ammo is the Pistol's, not the character's.
    let shown = util::ok(d, &["fighter", "show", "Pim"]);
    assert!(shown.contains("Ammo (Pistol) 12"), "{shown}");
    assert!(
        !shown.contains("Ammo —") && !shown.contains("Ammo 12"),
        "{shown}"
    );

    let file = || std::fs::read(d.join("c.rapsheet")).unwrap();
    let before = file();
    for (args, said) in [
        (
            vec!["ammo:pistol", "13", "--found"],
            "Ammo (Pistol) of a possession found in play is rolled on 2d6: 2 to 12, not 13",
        ),
        (
            vec!["ammo", "5"],
            "Ammo is kept for each of Pim's entries tagged projectile: name one (ammo:pistol)",
        ),
    ] {
        let mut all = vec!["fighter", "counter", "Pim"];
        all.extend(args.iter().copied());
        all.extend(["--db", "c.rapsheet"]);
        let out = util::rapsheet(d, &all);
        assert!(!out.status.success(), "{args:?}");
        let err = util::stderr(&out);
        assert!(err.contains(said), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    }
    assert!(file() == before, "a refusal leaves the file untouched");

    let said = util::ok(
        d,
        &["fighter", "counter", "Pim", "ammo:Pistol", "7", "--found"],
    );
    assert!(said.contains("Pim: Ammo (Pistol) 7"), "{said}");
    // Shots fired, set by hand.
    util::ok(d, &["fighter", "counter", "Pim", "ammo:pistol", "1"]);
    let shown = util::ok(d, &["fighter", "show", "Pim"]);
    assert!(shown.contains("Ammo (Pistol) 1"), "{shown}");
    assert!(shown.contains("found in play, rolled on 2d6"), "{shown}");
}

#[test]
fn a_plot_point_award_lost_at_two_is_kept_in_the_history_log_and_chronicle() {
    // 001:64: "GMs may award plot points during game to represent critical
    // situations or for completing major tasks, but you may never have more
    // than 2 plot points at a time."
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo", "--ruleset", "hwc"]);
    let report = |n: i64| {
        format!(
            r#"{{ "gangs": [{{ "gang": "The Night Crew", "fighters": [{{ "fighter": "Pim", "counters": {{ "plot-points": {n} }} }}] }}] }}"#
        )
    };
    std::fs::write(d.join("award.json"), report(1)).unwrap();
    let said = util::ok(d, &["battle", "record", "award.json", "--seed", "1"]);
    assert!(
        said.contains("Pim: Plot points 2 → 2 (+1; the award is lost: never more than 2)"),
        "{said}"
    );
    let kept = "Plot points 2 → 2: session #1 (+1; the award is lost: never more than 2)";
    let log = util::ok(d, &["log"]);
    assert!(log.contains(kept), "{log}");
    let shown = util::ok(d, &["fighter", "show", "Pim"]);
    assert!(shown.contains(kept), "{shown}");
    util::ok(
        d,
        &["export", "campaign", "--format", "md", "-o", "story.md"],
    );
    let story = std::fs::read_to_string(d.join("story.md")).unwrap();
    assert!(
        story.contains("the award is lost: never more than 2"),
        "{story}"
    );
}

/// A session of `party` whose characters' counters change in turn: each
/// (character, [(counter, change)]) in the order the changes came.
fn session_in_turn(party: &str, who: &[(&str, &[(&str, i64)])]) -> BattleReport {
    let mut report = session_report(party, &[], &[], &[]);
    report.gangs[0].fighters = Some(
        who.iter()
            .map(|(name, steps)| FighterReport {
                fighter: (*name).into(),
                outcome: None,
                downed_by: None,
                counters: BTreeMap::new(),
                steps: steps
                    .iter()
                    .map(|(counter, change)| CounterStep {
                        counter: (*counter).into(),
                        change: *change,
                    })
                    .collect(),
            })
            .collect(),
    );
    report
}

#[test]
fn a_sessions_awards_and_spends_go_in_turn_and_an_award_at_two_is_lost() {
    // 001:64: "GMs may award plot points during game to represent critical
    // situations or for completing major tasks, but you may never have more
    // than 2 plot points at a time. Your plot points return at the end of
    // every game session or at story conclusion, whatever the GM
    // determines."
    let (_dir, mut s) = hwc_party();
    let ada = id_of(&s, "Night Crew", "Ada");
    s.set_setting("plot-refresh", "story-conclusion").unwrap();
    // Awarded at two (lost), then one spent: as net amounts, +1 and -1
    // are nothing, and the lost award is never seen.
    let report = session_in_turn(
        "Night Crew",
        &[("Ada", &[("plot-points", 1), ("Plot points", -1)])],
    );
    let recorded = s.record_battle(&report, 1).unwrap();
    let texts: Vec<&str> = recorded
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(
        texts,
        [
            "Ada: Plot points 2 → 2 (+1; the award is lost: never more than 2)",
            "Ada: Plot points 2 → 1 (-1)",
        ]
    );
    assert_eq!(counter(&s, ada, "plot-points"), Some(1));
    // The history keeps both, in turn.
    let history: Vec<String> = s
        .fighter_details(ada)
        .unwrap()
        .history
        .iter()
        .map(|h| h.text.clone())
        .collect();
    let lost = history
        .iter()
        .position(|h| h.contains("(+1; the award is lost: never more than 2)"));
    let spent = history.iter().position(|h| h.contains("Plot points 2 → 1"));
    assert!(lost.is_some() && spent.is_some(), "{history:?}");

    // Spent, then awarded twice: the second award is lost, and the
    // end-of-session refill is as ever (here, the story concludes).
    let report = session_in_turn(
        "Night Crew",
        &[(
            "Ada",
            &[
                ("plot-points", -1),
                ("plot-points", 1),
                ("plot-points", 1),
                ("plot-points", 1),
            ],
        )],
    );
    let mut report = report;
    report.flags = vec!["The story concludes".into()];
    let recorded = s.record_battle(&report, 2).unwrap();
    let texts: Vec<&str> = recorded
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(
        texts,
        [
            "Ada: Plot points 1 → 0 (-1)",
            "Ada: Plot points 0 → 1 (+1)",
            "Ada: Plot points 1 → 2 (+1)",
            "Ada: Plot points 2 → 2 (+1; the award is lost: never more than 2)",
        ]
    );
    assert_eq!(counter(&s, ada, "plot-points"), Some(2));
}

#[test]
fn a_step_in_turn_that_overspends_or_says_nothing_is_refused_naming_it() {
    // 001:64: "All characters start with two plot points."; a character
    // spends only the plot points they hold, at the moment they spend them.
    let (_dir, mut s) = hwc_party();
    let before = s.dump().unwrap();
    // Each: the steps, the field refused, and why.
    type Case<'a> = (&'a [(&'a str, i64)], &'a str, &'a str);
    let cases: [Case<'_>; 3] = [
        (
            &[("plot-points", -2), ("plot-points", 1), ("plot-points", -2)],
            "gangs[0].fighters[0].steps[2]",
            "Ada holds 1 Plot points: 2 cannot be spent",
        ),
        (
            &[("plot-points", 0)],
            "gangs[0].fighters[0].steps[0].change",
            "a step of 0 changes nothing",
        ),
        (
            &[("stress", 1)],
            "gangs[0].fighters[0].steps[0].counter",
            "“stress” is not a counter a session changes",
        ),
    ];
    for (steps, field, said) in cases {
        let report = session_in_turn("Night Crew", &[("Ada", steps)]);
        let err = s.record_battle(&report, 1).unwrap_err().to_string();
        assert!(
            err.contains(field) && err.contains(said),
            "{steps:?}: {err}"
        );
    }
    // A counter given both as a whole and in turn is given twice.
    let mut both = session_in_turn("Night Crew", &[("Ada", &[("plot-points", -1)])]);
    if let Some(fighters) = both.gangs[0].fighters.as_mut() {
        fighters[0].counters.insert("plot-points".into(), 1);
    }
    let err = s.record_battle(&both, 1).unwrap_err().to_string();
    assert!(
        err.contains("gangs[0].fighters[0].steps[0].counter")
            && err.contains("Plot points of Ada is changed in `counters` too"),
        "{err}"
    );
    assert_eq!(s.dump().unwrap(), before, "nothing recorded");
}

#[test]
fn a_session_in_turn_from_the_command_line_shows_the_lost_award_in_the_log_and_chronicle() {
    // 001:64: "you may never have more than 2 plot points at a time"; an
    // award that comes at two is lost, and the history says so.
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo", "--ruleset", "hwc"]);
    std::fs::write(
        d.join("session.json"),
        r#"{ "gangs": [{ "gang": "The Night Crew", "fighters": [{ "fighter": "Pim", "steps": [
            { "counter": "plot-points", "change": 1 },
            { "counter": "plot-points", "change": -1 }
        ] }] }] }"#,
    )
    .unwrap();
    let said = util::ok(d, &["battle", "record", "session.json", "--seed", "1"]);
    let lost = "Pim: Plot points 2 → 2 (+1; the award is lost: never more than 2)";
    let spent = "Pim: Plot points 2 → 1 (-1)";
    let (at_lost, at_spent) = (said.find(lost), said.find(spent));
    assert!(
        at_lost.is_some() && at_spent.is_some() && at_lost < at_spent,
        "in turn: {said}"
    );
    // The end-of-session refill, as ever: plot points return.
    assert!(said.contains("Pim: Plot points 1 → 2"), "{said}");
    let log = util::ok(d, &["log"]);
    assert!(
        log.contains("Plot points 2 → 2: session #1 (+1; the award is lost: never more than 2)"),
        "{log}"
    );
    util::ok(
        d,
        &["export", "campaign", "--format", "md", "-o", "story.md"],
    );
    let story = std::fs::read_to_string(d.join("story.md")).unwrap();
    assert!(
        story.contains("the award is lost: never more than 2"),
        "{story}"
    );
    // The report as recorded keeps its steps, and the session is taken
    // back and made again from it just the same.
    let list = util::ok(d, &["battle", "list", "--json"]);
    assert!(list.contains("\"steps\""), "{list}");
    util::ok(d, &["battle", "undo"]);
    let again = util::ok(d, &["battle", "record", "session.json", "--seed", "1"]);
    assert!(again.contains(lost), "{again}");
}

/// A new HWC party of one, Ada, holding `plot_points` where given (as
/// she starts, where not), in the window with the record form open.
fn ada_at_the_record_form(
    path: &std::path::Path,
    plot_points: Option<i64>,
) -> egui_kittest::Harness<'static, rapsheet::ui::RapsheetApp> {
    use egui_kittest::kittest::Queryable;
    let mut s = Session::create(path, "Relay", "hwc").unwrap();
    let (party, _) = s.found_gang("Night Crew", None).unwrap();
    s.recruit(
        party,
        NewFighter {
            name: "Ada".into(),
            ..Default::default()
        },
    )
    .unwrap();
    if let Some(held) = plot_points {
        let ada = id_of(&s, "Night Crew", "Ada");
        s.set_counter(ada, "plot-points", held, "spent").unwrap();
    }
    let mut harness = egui_kittest::Harness::builder()
        .with_size([1400.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            rapsheet::ui::RapsheetApp::with_session(s),
        );
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    harness
}

#[test]
fn a_sessions_plot_points_in_turn_in_the_apps_record_form() {
    // 001:64: "GMs may award plot points during game ... but you may never
    // have more than 2 plot points at a time."
    use egui_kittest::kittest::Queryable;
    let dir = util::temp();
    let path = dir.path().join("c.rapsheet");
    let mut harness = ada_at_the_record_form(&path, None);
    // An award at two, then a spend, clicked in the order they came.
    harness.get_by_label("Ada: Plot points +1 in turn").click();
    harness.run();
    harness.get_by_label("Ada: Plot points −1 in turn").click();
    harness.run();
    assert!(harness.query_by_label("in turn: +1, -1").is_some());
    assert!(
        harness
            .query_by_label_contains(
                "Ada: Plot points 2 → 2 (+1; the award is lost: never more than 2)"
            )
            .is_some(),
        "the preview shows the lost award: {:?}",
        harness.state().battle_error()
    );
    harness.get_by_label("Commit session").click();
    harness.run();
    let session = Session::open(&path).unwrap();
    let ada = id_of(&session, "Night Crew", "Ada");
    let history: Vec<String> = session
        .fighter_details(ada)
        .unwrap()
        .history
        .iter()
        .map(|h| h.text.clone())
        .collect();
    assert!(
        history
            .iter()
            .any(|l| l.contains("(+1; the award is lost: never more than 2)")),
        "{history:?}"
    );
}

#[test]
fn spending_more_plot_points_than_held_is_refused_not_clamped() {
    // 001:64: "All characters start with two plot points." 001:66: "You can
    // use plot points to do the following"; spent, they are gone: a
    // character cannot spend what they do not hold.
    let (_dir, mut s) = hwc_party();
    let ada = id_of(&s, "Night Crew", "Ada");
    s.set_counter(ada, "plot-points", 1, "spent on a Revive")
        .unwrap();
    let before = s.dump().unwrap();
    let over = session_report(
        "Night Crew",
        &[("Ada", None, &[("plot-points", -2)])],
        &[],
        &[],
    );
    let err = s.record_battle(&over, 1).unwrap_err().to_string();
    assert!(
        err.contains("Ada holds 1 Plot points: 2 cannot be spent")
            && err.contains("counters.plot-points"),
        "{err}"
    );
    assert_eq!(s.dump().unwrap(), before, "nothing recorded");
    // By hand, a count below none is refused too.
    let err = s
        .set_counter(ada, "plot-points", -1, "spent")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Plot points must be between 0 and 2, not -1"),
        "{err}"
    );
    // Spending what Ada holds is fine.
    let spend = session_report(
        "Night Crew",
        &[("Ada", None, &[("plot-points", -1)])],
        &[],
        &[],
    );
    let recorded = s.record_battle(&spend, 1).unwrap();
    assert!(
        recorded
            .procedure
            .changes
            .iter()
            .any(|c| c.text == "Ada: Plot points 1 → 0 (-1)"),
        "{:?}",
        recorded.procedure.changes
    );
}

#[test]
fn spending_more_plot_points_than_held_from_the_command_line_is_refused() {
    // 001:64: "you may never have more than 2 plot points at a time"; a
    // character spends only the plot points they hold.
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo", "--ruleset", "hwc"]);
    util::ok(d, &["fighter", "counter", "Pim", "plot-points", "1"]);
    std::fs::write(
        d.join("over.json"),
        r#"{ "gangs": [{ "gang": "The Night Crew", "fighters": [{ "fighter": "Pim", "counters": { "plot-points": -2 } }] }] }"#,
    )
    .unwrap();
    let before = std::fs::read(d.join("c.rapsheet")).unwrap();
    for args in [
        vec!["battle", "record", "over.json", "--seed", "1"],
        vec!["fighter", "counter", "Pim", "plot-points", "-1"],
    ] {
        let mut all = args.clone();
        all.extend(["--db", "c.rapsheet"]);
        let out = util::rapsheet(d, &all);
        assert!(!out.status.success(), "{args:?}");
        let err = util::stderr(&out);
        assert!(
            err.contains("Pim holds 1 Plot points: 2 cannot be spent")
                || err.contains("Plot points must be between 0 and 2, not -1"),
            "{args:?}: {err}"
        );
    }
    assert!(std::fs::read(d.join("c.rapsheet")).unwrap() == before);
}

#[test]
fn a_synthetic_has_no_stress_on_its_sheet_card_or_counter() {
    // 002:238-239: "Rolls - Cannot push skill roles or have stress die";
    // "Panic - Do not suffer stress and never make panic roles".
    let (_dir, mut s) = tamsin();
    let wren = id_of(&s, "The Tamsin Crew", "Wren-7");
    let ana = id_of(&s, "The Tamsin Crew", "Ana Reyes");
    assert_eq!(counter(&s, wren, "stress"), None);
    assert_eq!(counter(&s, ana, "stress"), Some(0));
    let before = s.dump().unwrap();
    let err = s
        .set_counter(wren, "stress", 1, "by hand")
        .unwrap_err()
        .to_string();
    assert_eq!(err, "Wren-7 has no Stress level: Synthetic");
    assert_eq!(s.dump().unwrap(), before);
    // The printed sheet: Ana's has a stress level, Wren-7's none.
    let gang = s.gang_named("The Tamsin Crew").unwrap();
    let cards = s
        .cards(gang.id, &["Ana Reyes".to_owned(), "Wren-7".to_owned()])
        .unwrap();
    let has_stress = |name: &str| {
        cards
            .iter()
            .find(|c| c.name == name)
            .unwrap()
            .counters
            .iter()
            .any(|(label, _)| label == "Stress level")
    };
    assert!(has_stress("Ana Reyes"));
    assert!(!has_stress("Wren-7"));
}

#[test]
fn a_synthetic_has_no_stress_from_the_command_line() {
    // 002:238-239: "Rolls - Cannot push skill roles or have stress die";
    // "Panic - Do not suffer stress and never make panic roles".
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo", "--ruleset", "yearzero"]);
    let shown = util::ok(d, &["fighter", "show", "Wren-7"]);
    assert!(!shown.contains("Stress level"), "{shown}");
    let shown = util::ok(d, &["fighter", "show", "Ana Reyes"]);
    assert!(shown.contains("Stress level 0"), "{shown}");
    let before = std::fs::read(d.join("c.rapsheet")).unwrap();
    let out = util::rapsheet(
        d,
        &[
            "fighter",
            "counter",
            "Wren-7",
            "stress",
            "1",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    let err = util::stderr(&out);
    assert!(
        err.contains("Wren-7 has no Stress level: Synthetic"),
        "{err}"
    );
    assert!(std::fs::read(d.join("c.rapsheet")).unwrap() == before);
}

#[test]
fn a_synthetic_has_no_stress_level_in_the_app() {
    // 002:238-239: "Rolls - Cannot push skill roles or have stress die";
    // "Panic - Do not suffer stress and never make panic roles".
    use egui_kittest::kittest::Queryable;
    let (_dir, s) = tamsin();
    let mut harness = egui_kittest::Harness::builder()
        .with_size([1400.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            rapsheet::ui::RapsheetApp::with_session(s),
        );
    harness.run();
    harness.get_by_label("Ana Reyes").click();
    harness.run();
    assert!(harness.query_by_label("+ Stress level").is_some());
    harness.get_by_label("Wren-7").click();
    harness.run();
    assert!(harness.query_by_label("+ Stress level").is_none());
    assert!(harness.query_by_label("− Stress level").is_none());
}

#[test]
fn spending_more_plot_points_than_held_in_the_apps_record_form_is_refused() {
    // 001:64: "All characters start with two plot points."; a character
    // spends only the plot points they hold.
    use egui_kittest::kittest::{NodeT as _, Queryable};
    let dir = util::temp();
    let path = dir.path().join("c.rapsheet");
    let mut harness = ada_at_the_record_form(&path, Some(1));
    harness.get_by_label("Plot points").click();
    harness.run();
    harness.get_by_label("Plot points").type_text("-2");
    harness.key_press(egui::Key::Enter);
    harness.run();
    // The preview says why, and Commit is held.
    assert!(
        harness
            .get_by_label("Commit session")
            .accesskit_node()
            .is_disabled()
    );
    let said = harness
        .state()
        .battle_error()
        .unwrap_or_default()
        .to_owned();
    assert!(
        said.contains("Ada holds 1 Plot points: 2 cannot be spent"),
        "{said}"
    );
    let session = Session::open(&path).unwrap();
    assert!(session.battles().unwrap().is_empty(), "nothing recorded");
}

#[test]
fn the_groups_data_says_its_entries_in_the_packs_words() {
    let (_dir, s) = hwc_party();
    let base = s.pack("hwc").unwrap().clone();
    let mut draft = s.house_draft("our-hwc", "hwc", "Our HWC").unwrap();
    draft.set_counter(&base, "hp", Some(10), Some(10));
    draft.add_table(
        &base,
        toml::from_str(
            r#"id = "wounds"
name = "Wounds"
roll = "d6"
rows = [{ on = "1-6", result = "A scar" }]"#,
        )
        .unwrap(),
        None,
    );
    let changes = s.draft_changes(&draft).unwrap();
    let said: Vec<(&str, &str)> = changes
        .iter()
        .map(|c| (c.entry.as_str(), c.what.as_str()))
        .collect();
    assert!(said.contains(&("counters.hp", "HP")), "{said:?}");
    assert!(
        said.contains(&("tables.wounds", "Table Wounds")),
        "{said:?}"
    );

    // A row typed without its totals is refused by name, not as a field
    // the written pack lacks.
    draft
        .table_mut(&base, "wounds")
        .unwrap()
        .rows
        .push(toml::from_str("on = \"\"\nresult = \"\"").unwrap());
    let err = s.check_draft(&draft).unwrap_err();
    assert_eq!(err.entry, "tables.wounds.rows[1]");
    assert_eq!(err.reason, "the row has no totals (4, 2-5, 6+) yet");
    assert_eq!(draft.in_words(&base, &err.entry), "Table Wounds, row 2");
    assert_eq!(draft.in_words(&base, "counters.hp.max"), "HP, its most");
    assert_eq!(
        draft.in_words(&base, "tables.wounds row `4`"),
        "Table Wounds, the row for 4"
    );
}

/// A sheet's rolls print under the pack's own heading (HWC's ROLLS), not
/// among the possessions.
#[test]
fn a_sheets_rolls_print_under_their_own_heading() {
    let (_dir, s) = hwc_party();
    let party = s.gang_named("Night Crew").unwrap().id;
    let cards = s.cards(party, &[]).unwrap();
    let card = &cards[0];
    let heads: Vec<&str> = card.groups.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(heads, ["POSSESSIONS", "ROLLS"], "{:?}", card.groups);
    assert!(
        card.groups[1]
            .1
            .iter()
            .any(|l| l.starts_with("Initiative: 2d6")),
        "{:?}",
        card.groups[1]
    );
    assert!(
        card.groups[0]
            .1
            .iter()
            .all(|l| !l.starts_with("Initiative")),
        "{:?}",
        card.groups[0]
    );
}
