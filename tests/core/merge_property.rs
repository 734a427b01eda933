//! Merges that must work: two copies of a campaign of every game that
//! comes with Rapsheet and every test game that can play, each changed by
//! records made through the real procedure (upkeep, outcome effects,
//! counts from the report) and changes by hand, merged both ways. Each
//! merge either is made and verifies, or offers conflicts of which every
//! answer is made and verifies: never a dead end. Seeded, so a failure
//! comes back the same every run.

use crate::util;

use std::path::{Path, PathBuf};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rapsheet::campaign::GangId;
use rapsheet::campaign::merge::Choice;
use rapsheet::generator::{GenSize, generate, next_battle};
use rapsheet::rules::Registry;
use rapsheet::session::{Session, builtin_registry};

/// A game to play: its ruleset, with the built-in packs and the file of a
/// pack read beside them (none for a built-in game with a demo).
struct Game {
    ruleset: String,
    file: Option<PathBuf>,
    registry: Registry,
}

impl Game {
    fn new(ruleset: String, file: Option<PathBuf>) -> Self {
        let mut registry = builtin_registry().unwrap();
        if let Some(file) = &file {
            let name = file.file_name().unwrap().to_str().unwrap();
            registry
                .add_text(name, &std::fs::read_to_string(file).unwrap())
                .unwrap();
        }
        Self {
            ruleset,
            file,
            registry,
        }
    }

    fn registry(&self) -> Registry {
        self.registry.clone()
    }

    fn open(&self, path: &Path) -> Session {
        Session::open_with(path, self.registry()).unwrap()
    }

    /// A campaign of the game at `path`: the demo of a built-in game; two
    /// gangs (three where a record takes three) made by the generator for
    /// a test game, with a first record. Every gang starts with some of
    /// every resource to spend.
    fn start(&self, path: &Path, seed: u64) {
        let registry = self.registry();
        let mut session = if self.file.is_none() {
            Session::create_demo_with(path, &self.ruleset, registry).unwrap()
        } else {
            let mut session =
                Session::create_with(path, "A campaign", &self.ruleset, registry).unwrap();
            let pack = session.pack(&self.ruleset).unwrap().clone();
            let fighters = pack.recruiting.as_ref().map_or(3, |r| {
                r.recruits.min().saturating_add(r.leaders.min()).max(3)
            });
            let size = GenSize {
                gangs: pack.record().fewest_sides().max(2),
                fighters_per_gang: fighters,
                battles: 1,
                seed,
            };
            generate(&mut session, size, &mut |_, _| {}).unwrap();
            session
        };
        session.set_bulk(true).unwrap();
        let pack = session.pack(&self.ruleset).unwrap().clone();
        for gang in session.gangs().unwrap() {
            for resource in &pack.resources {
                session
                    .adjust_resource(gang.id, &resource.id, 3, "to start")
                    .unwrap();
            }
        }
    }
}

/// Every built-in game with a demo, the test games and the guide's own
/// game.
fn games() -> Vec<Game> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut games: Vec<Game> = rapsheet::campaign::demo::rulesets()
        .unwrap()
        .into_iter()
        .map(|ruleset| Game::new(ruleset, None))
        .collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("tests/packs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files.push(root.join("docs/packs.in/fogbound-5.toml"));
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let value: toml::Value = toml::from_str(&text).unwrap();
        let ruleset = value["pack"]["id"].as_str().unwrap().to_owned();
        games.push(Game::new(ruleset, Some(file)));
    }
    games
}

/// What one copy did since the copies parted, for the failure message.
#[derive(Debug, Default)]
struct Done {
    changes: Vec<String>,
    /// How many of this copy's own changes are still in effect (an undo
    /// takes back only those).
    own: usize,
}

/// Plays a few changes on one copy: records made through the real
/// procedure, resources changed by hand, a gang founded (and maybe taken
/// back again under a name the other copy keeps), an undo of its own.
/// Changes the rules refuse are left out.
fn play(session: &mut Session, rng: &mut ChaCha8Rng, side: usize, case: usize) -> Done {
    let mut done = Done::default();
    session.set_bulk(true).unwrap();
    let steps = rng.random_range(2..=4);
    for step in 0..steps {
        let gangs: Vec<GangId> = session.gangs().unwrap().into_iter().map(|g| g.id).collect();
        let ruleset = session.info().unwrap().default_ruleset;
        let resources: Vec<String> = session
            .pack(&ruleset)
            .unwrap()
            .resources
            .iter()
            .map(|r| r.id.clone())
            .collect();
        // Every other case starts as the guide's game found it: each copy
        // records, then one spends all the first gang has of its first
        // resource.
        let shaped = case % 2 == 1 && step < 2 - side;
        let roll = if shaped {
            [0, 7][step]
        } else {
            rng.random_range(0..10)
        };
        let what = if roll < 5 {
            next_battle(session, rng, &gangs)
                .and_then(|(report, seed)| session.record_battle(&report, seed).map(drop))
                .map(|()| "a record".to_owned())
        } else if roll < 8 && !resources.is_empty() {
            // The first gang's first resource most often, so that both
            // copies change it; a spend of all it has (or all but one)
            // half the time.
            let first = |rng: &mut ChaCha8Rng, n: usize| {
                if shaped {
                    0
                } else {
                    rng.random_range(0..n).min(rng.random_range(0..2))
                }
            };
            let gang = gangs[first(rng, gangs.len())];
            let resource = resources[first(rng, resources.len())].clone();
            let now = session
                .gang(gang)
                .unwrap()
                .resources
                .get(&resource)
                .copied()
                .unwrap_or(0);
            let delta = if shaped {
                -now
            } else if now > 0 && rng.random_range(0..3) > 0 {
                rng.random_range(0..=1) - now
            } else {
                rng.random_range(-4..=4)
            };
            session
                .adjust_resource(gang, &resource, delta, "by hand")
                .map(|_| format!("{resource} {delta:+} to gang {gang}"))
        } else if roll < 9 && done.own > 0 {
            session.undo_last().map(|undone| {
                done.own -= 1;
                format!("undo {:?}", undone.map(|u| u.1))
            })
        } else {
            // One copy keeps a gang under a name the other founds and
            // takes back again.
            let keeps = (case + step) % 2 == side;
            let name = format!("Newcomers {case}-{step}");
            session.found_gang(&name, None).and_then(|_| {
                if keeps {
                    Ok(format!("found {name}"))
                } else {
                    session
                        .undo_last()
                        .map(|_| format!("found {name} and take it back"))
                }
            })
        };
        match what {
            Ok(line) => {
                if !line.starts_with("undo") && !line.ends_with("take it back") {
                    done.own += 1;
                }
                done.changes.push(line);
            }
            Err(err) => done.changes.push(format!("refused: {err:#}")),
        }
    }
    done
}

/// Merges `theirs` into `ours` and checks that it is made and verifies,
/// or that every answer to every conflict is.
fn merges_or_asks(game: &Game, ours: &Path, theirs: &Path, out: &Path, context: &str) -> usize {
    let session = game.open(ours);
    let merge = session
        .plan_merge(theirs)
        .unwrap_or_else(|e| panic!("{context}: no merge planned: {e:#}"));
    let preview = session.merge_preview(&merge).unwrap();
    let n = preview.conflicts.len();
    let mut tries: Vec<Vec<Option<Choice>>> = vec![vec![Some(Choice::Ours); n]];
    if n > 0 {
        tries.push(vec![Some(Choice::Theirs); n]);
    }
    for (i, conflict) in preview.conflicts.iter().enumerate() {
        let mut answers = vec![Choice::Theirs];
        if conflict.both.is_some() {
            answers.push(Choice::Both);
        }
        for answer in answers {
            let mut choices = vec![Some(Choice::Ours); n];
            choices[i] = Some(answer);
            if !tries.contains(&choices) {
                tries.push(choices);
            }
        }
    }
    for choices in &tries {
        let _ = std::fs::remove_file(out);
        let merged = session.write_merge(&merge, choices, out).unwrap_or_else(|e| {
            panic!(
                "{context}: the merge answered {choices:?} is a dead end: {e:#}\nconflicts: {:#?}\ncomposed: {:?}",
                preview.conflicts, preview.composed
            )
        });
        let verified = merged.verify().unwrap();
        assert!(
            verified.is_sound(),
            "{context}: the merge answered {choices:?} does not verify: {:?}",
            verified.problems
        );
    }
    n
}

#[test]
fn copies_of_every_game_merge_both_ways_or_offer_conflicts_that_all_merge() {
    const CASES: usize = 2;
    let dir = util::temp();
    let mut conflicts = 0;
    for (g, game) in games().iter().enumerate() {
        let base = dir.path().join(format!("{}-base.rapsheet", game.ruleset));
        game.start(&base, g as u64);
        for case in 0..CASES {
            let seed = (g * CASES + case) as u64;
            let a = dir
                .path()
                .join(format!("{}-{case}-a.rapsheet", game.ruleset));
            let b = dir
                .path()
                .join(format!("{}-{case}-b.rapsheet", game.ruleset));
            std::fs::copy(&base, &a).unwrap();
            std::fs::copy(&base, &b).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let done_a = play(&mut game.open(&a), &mut rng, 0, case);
            let done_b = play(&mut game.open(&b), &mut rng, 1, case);
            let context = format!(
                "{} case {case} (seed {seed}); here: {:?}; there: {:?}",
                game.ruleset, done_a.changes, done_b.changes
            );
            let out = dir.path().join("merged.rapsheet");
            conflicts += merges_or_asks(game, &a, &b, &out, &format!("{context}; b into a"));
            conflicts += merges_or_asks(game, &b, &a, &out, &format!("{context}; a into b"));
        }
    }
    // The cases are shaped so that some of them ask.
    assert!(conflicts > 0, "no case offered a conflict to answer");
}

/// The guide's own game (`docs/packs.md`) after its first night, in two
/// copies: its upkeep burns 1 Oil of every crew a night, held at the
/// floor.
fn the_long_night(dir: &Path) -> (Game, PathBuf, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let game = Game::new(
        "fogbound".to_owned(),
        Some(root.join("docs/packs.in/fogbound-5.toml")),
    );
    let a = dir.join("night.rapsheet");
    let mut session =
        Session::create_with(&a, "The Long Night", "fogbound", game.registry()).unwrap();
    for (gang, fighters) in [
        ("Wick Street", ["Ada", "Bram", "Cass"]),
        ("Ember Row", ["Cole", "Dell", "Esk"]),
    ] {
        let (id, _) = session.found_gang(gang, None).unwrap();
        for (i, name) in fighters.into_iter().enumerate() {
            session
                .recruit(
                    id,
                    rapsheet::campaign::commands::NewFighter {
                        name: name.into(),
                        leader: i == 0,
                        ..Default::default()
                    },
                )
                .unwrap();
        }
    }
    session.record_battle(&night(1), 1).unwrap();
    drop(session);
    let b = dir.join("other.rapsheet");
    std::fs::copy(&a, &b).unwrap();
    (game, a, b)
}

fn night(n: u8) -> rapsheet::campaign::battle::BattleReport {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("docs/packs.in/night{n}.json"));
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

fn oil(session: &Session, gang: &str) -> i64 {
    session.gang_named(gang).unwrap().resources["oil"]
}

/// Issue 40: one copy records night 2 then spends 4 Oil, the other records
/// night 2. The other copy's night, made after the spend, burns its Oil
/// held at the floor, as the night would have; the other way round the
/// spend comes after both nights.
#[test]
fn a_spend_and_the_upkeep_of_a_night_in_the_other_copy_compose_both_ways() {
    let dir = util::temp();
    let (game, spent, other) = the_long_night(dir.path());
    {
        let mut session = game.open(&spent);
        session.record_battle(&night(2), 1).unwrap();
        let ember = session.gang_named("Ember Row").unwrap().id;
        session.adjust_resource(ember, "oil", -4, "lamps").unwrap();
        assert_eq!(oil(&session, "Ember Row"), 0);
    }
    game.open(&other).record_battle(&night(2), 1).unwrap();
    for (ours, theirs, ember) in [(&spent, &other, 2), (&other, &spent, 1)] {
        let session = game.open(ours);
        let merge = session.plan_merge(theirs).unwrap();
        let preview = session.merge_preview(&merge).unwrap();
        assert!(preview.conflicts.is_empty(), "{:?}", preview.conflicts);
        let out = dir.path().join(format!("merged-{ember}.rapsheet"));
        let merged = session.write_merge(&merge, &[], &out).unwrap();
        assert!(merged.verify().unwrap().is_sound());
        assert_eq!(oil(&merged, "Ember Row"), ember);
        assert!(
            preview
                .composed
                .iter()
                .any(|c| c.ends_with(&format!("→ {ember}"))),
            "{:?}",
            preview.composed
        );
    }
}

/// Two spends that together go below the floor are still a conflict, and
/// each answer is made.
#[test]
fn two_spends_past_the_floor_after_a_night_are_a_conflict_each_answer_made() {
    let dir = util::temp();
    let (game, a, b) = the_long_night(dir.path());
    for (path, spend) in [(&a, -3), (&b, -2)] {
        let mut session = game.open(path);
        let ember = session.gang_named("Ember Row").unwrap().id;
        session
            .adjust_resource(ember, "oil", spend, "lamps")
            .unwrap();
    }
    let session = game.open(&a);
    let merge = session.plan_merge(&b).unwrap();
    let preview = session.merge_preview(&merge).unwrap();
    assert_eq!(preview.conflicts.len(), 1, "{:?}", preview.conflicts);
    assert_eq!(preview.conflicts[0].both, None);
    for (choice, ember) in [(Choice::Ours, 0), (Choice::Theirs, 1)] {
        let out = dir.path().join(format!("merged-{ember}.rapsheet"));
        let merged = session.write_merge(&merge, &[Some(choice)], &out).unwrap();
        assert!(merged.verify().unwrap().is_sound());
        assert_eq!(oil(&merged, "Ember Row"), ember);
    }
    let Err(err) = session.write_merge(
        &merge,
        &[Some(Choice::Both)],
        &dir.path().join("both.rapsheet"),
    ) else {
        panic!("keeping both spends past the floor was made");
    };
    assert!(format!("{err:#}").contains("conflict 1"), "{err:#}");
}

/// Issue 40: a gang the other copy founded (and recruited into) and took
/// back again is nothing to merge, though this copy has a gang of that
/// name.
#[test]
fn a_gang_name_the_other_copy_founded_and_took_back_does_not_block_the_merge() {
    let dir = util::temp();
    let (game, a, b) = the_long_night(dir.path());
    game.open(&a).found_gang("Tallow Yard", None).unwrap();
    {
        let mut session = game.open(&b);
        let (yard, _) = session.found_gang("Tallow Yard", None).unwrap();
        session
            .recruit(
                yard,
                rapsheet::campaign::commands::NewFighter {
                    name: "Finch".into(),
                    leader: true,
                    ..Default::default()
                },
            )
            .unwrap();
        session.undo_last().unwrap();
        session.undo_last().unwrap();
    }
    for (ours, theirs, name) in [(&a, &b, "ab"), (&b, &a, "ba")] {
        let session = game.open(ours);
        let merge = session.plan_merge(theirs).unwrap();
        let out = dir.path().join(format!("merged-{name}.rapsheet"));
        let merged = session.write_merge(&merge, &[], &out).unwrap();
        assert!(merged.verify().unwrap().is_sound());
        let yards = merged
            .gangs()
            .unwrap()
            .into_iter()
            .filter(|g| g.name == "Tallow Yard")
            .count();
        assert_eq!(yards, 1);
    }
}
