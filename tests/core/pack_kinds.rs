//! Each kind of rule a pack can say, one at a time, in a small game of
//! this file's own (two or three bands of runners): where it applies,
//! where it does not, and what a pack that misuses it is told. The whole
//! game that uses them together is `tests/packs/tidewreck.toml`
//! (tests/gui/own_game.rs).

use crate::util;

use rapsheet::campaign::battle::BattleReport;
use rapsheet::rules::Registry;
use rapsheet::session::{Session, builtin_registry};

/// The game: its `[record]`, titles and whatever a test adds after it.
const GAME: &str = r#"
[pack]
id = "runners"
name = "Runners"
format = 1

[words]
card_quirks = "KIT"
card_lasting = "MARKS"
card_notes = "NOTES"
card_marks = "PIPS"
takedowns = "Caught"
gang = "band"
gangs = "bands"
fighter = "runner"
fighters = "runners"
entry = "kit"
entries = "kits"
leader = "captain"
leaders = "captains"
holding = "stash"
holdings = "stashes"
cycle = "week"
cycles = "weeks"
faction = "club"
factions = "clubs"

[[stats]]
id = "pace"
label = "PACE"
name = "Pace"
default = 3
min = 1
max = 6

[[resources]]
id = "coin"
label = "Coin"
min = 0

[[counters]]
id = "blisters"
label = "Blisters"
default = 0
min = 0
max = 3

[[outcomes]]
id = "finished"
label = "Finished"
default = true

[[outcomes]]
id = "caught"
label = "Caught"
taken_down = true

[record]
noun = "race"
nouns = "races"
min_sides = 2
max_sides = 3
winner = "optional"
"#;

fn registry(extra: &str) -> Registry {
    let mut registry = builtin_registry().unwrap();
    registry
        .add_text("runners.toml", &format!("{GAME}{extra}"))
        .unwrap();
    registry
}

/// Why the game with `extra` is refused.
fn refused(extra: &str) -> String {
    let mut registry = builtin_registry().unwrap();
    registry
        .add_text("runners.toml", &format!("{GAME}{extra}"))
        .unwrap_err()
        .to_string()
}

/// A campaign of the game with `extra`, bands A, B and C of two runners
/// each (A1 and A2…), the first of each its leader.
fn campaign(dir: &std::path::Path, extra: &str) -> Session {
    let mut s =
        Session::create_with(&dir.join("c.rapsheet"), "Races", "runners", registry(extra)).unwrap();
    for band in ["A", "B", "C"] {
        let (id, _) = s.found_gang(band, None).unwrap();
        for n in 1..=2 {
            s.recruit(
                id,
                rapsheet::campaign::commands::NewFighter {
                    name: format!("{band}{n}"),
                    leader: n == 1,
                    ..Default::default()
                },
            )
            .unwrap();
        }
    }
    s
}

/// `rapsheet --pack runners.toml ARGS --db c.rapsheet` on the campaign
/// in `dir`, with the game and `extra` written beside it; it must work.
fn cli(dir: &std::path::Path, extra: &str, args: &[&str]) -> String {
    std::fs::write(dir.join("runners.toml"), format!("{GAME}{extra}")).unwrap();
    let mut all = vec!["--pack", "runners.toml"];
    all.extend_from_slice(args);
    util::ok(dir, &all)
}

fn coin(s: &Session, band: &str) -> i64 {
    amount(s, band, "coin")
}

fn report(json: serde_json::Value) -> BattleReport {
    serde_json::from_value(json).unwrap()
}

#[test]
fn upkeep_for_the_record_touches_only_the_bands_in_it() {
    let dir = util::temp();
    let extra = r#"
[[record.upkeep]]
id = "entry-fee"
text = "Each band that runs pays 1 Coin."
to = "record"
gain = [{ resource = "coin", amount = -1 }]

[[record.upkeep]]
id = "stipend"
text = "Every band is paid 2 Coin."
gain = [{ resource = "coin", amount = 2 }]
"#;
    let mut s = campaign(dir.path(), extra);
    s.record_battle(
        &report(serde_json::json!({"gangs": [{"gang": "A"}, {"gang": "B"}]})),
        1,
    )
    .unwrap();
    // The fee first, held at the floor of 0; then the stipend for all.
    assert_eq!(coin(&s, "A"), 2);
    assert_eq!(coin(&s, "B"), 2);
    assert_eq!(coin(&s, "C"), 2);
    s.record_battle(
        &report(serde_json::json!({"gangs": [{"gang": "A"}, {"gang": "B"}]})),
        1,
    )
    .unwrap();
    assert_eq!(coin(&s, "A"), 3);
    assert_eq!(coin(&s, "C"), 4, "C ran in neither race");
}

#[test]
fn the_fewest_of_a_count_by_outcome_takes_a_line_and_a_tie_takes_none() {
    let dir = util::temp();
    let extra = r#"
[[record.epilogue]]
id = "consolation"
text = "The band with the fewest runners caught gains 3 Coin."
to = "fewest:outcome:caught"
gain = [{ resource = "coin", amount = 3 }]
"#;
    let mut s = campaign(dir.path(), extra);
    let race = |a: &str, b: &str| {
        report(serde_json::json!({"gangs": [
            {"gang": "A", "fighters": [{"fighter": "A1", "outcome": a}, {"fighter": "A2"}]},
            {"gang": "B", "fighters": [{"fighter": "B1", "outcome": b}, {"fighter": "B2"}]},
        ]}))
    };
    let told = s.record_battle(&race("caught", "finished"), 1).unwrap();
    assert_eq!((coin(&s, "A"), coin(&s, "B")), (0, 3));
    // A tie for the fewest: nobody, and the line says so.
    let told2 = s.record_battle(&race("finished", "finished"), 1).unwrap();
    assert_eq!((coin(&s, "A"), coin(&s, "B")), (0, 3));
    let text: Vec<String> = told2
        .procedure
        .changes
        .iter()
        .map(|c| c.text.clone())
        .collect();
    assert!(
        text.iter()
            .any(|t| t.starts_with("nobody gains it: tied at 0 ")),
        "{text:?}"
    );
    drop(told);
}

#[test]
fn a_title_of_the_fighters_on_a_roster_and_its_tie_rule() {
    let dir = util::temp();
    let extra = r#"
[[rulings]]
id = "small-ties"
question = "Who is the Smallest Band while bands are tied?"
ruling = "No one."

[[titles]]
id = "smallest"
name = "The Smallest Band"
count = "fighters"
comparison = "fewest"
ties = "nobody"
ruling = "small-ties"

[[titles]]
id = "blistered"
name = "The Most Blistered"
count = "counter:blisters"
"#;
    let mut s = campaign(dir.path(), extra);
    let race = report(serde_json::json!({"gangs": [{"gang": "A"}, {"gang": "B"}]}));
    s.record_battle(&race, 1).unwrap();
    let titles = s.titles("runners").unwrap();
    // Three bands of two: tied, so no one.
    let smallest = titles.titles.iter().find(|t| t.id == "smallest").unwrap();
    assert_eq!(smallest.holder, None);
    assert_eq!(smallest.measure, "fewest runners");
    assert!(
        titles.rulings.contains(&"No one.".to_owned()),
        "{:?}",
        titles.rulings
    );
    // B's second runner is dismissed and leaves the roster; the next race
    // makes B the smallest, and A1's blisters the most.
    let b2 = s.fighter_named("B2", None).unwrap();
    s.dismiss(b2.id).unwrap();
    let a1 = s.fighter_named("A1", None).unwrap();
    s.set_counter(a1.id, "blisters", 2, "a long run").unwrap();
    s.record_battle(&race, 1).unwrap();
    let titles = s.titles("runners").unwrap();
    let holder = |id: &str| {
        titles
            .titles
            .iter()
            .find(|t| t.id == id)
            .and_then(|t| t.holder.clone())
    };
    assert_eq!(holder("smallest").as_deref(), Some("B"));
    assert_eq!(holder("blistered").as_deref(), Some("A"));
}

#[test]
fn a_pack_that_misuses_a_kind_is_told_where_and_why() {
    for (extra, says) in [
        (
            "\n[recruiting]\nleaders = 1\nrecruits = { min = 4, max = 2 }\n",
            "recruiting.recruits: the range runs backwards (4 to 2)",
        ),
        (
            "\n[[constraints]]\nid = \"x\"\nkind = \"gang_max_tagged\"\ntag = \"nope\"\nmax = 1\nmessage = \"m\"\n",
            "constraints.x: tag `nope` is on no quirk",
        ),
        (
            "\n[[record.upkeep]]\nid = \"u\"\ntext = \"t\"\ngain = []\n",
            "record.upkeep.u: the line changes nothing",
        ),
        (
            "\n[[record.epilogue]]\nid = \"e\"\ntext = \"t\"\nto = \"each\"\nper = \"outcome:lost\"\ngain = [{ resource = \"coin\", amount = 1 }]\n",
            "per `outcome:lost`: outcome `lost` is not in [[outcomes]]",
        ),
        (
            "\n[[record.epilogue]]\nid = \"e\"\ntext = \"t\"\nto = \"most:laps\"\ngain = [{ resource = \"coin\", amount = 1 }]\n",
            "most `laps` is not a count of every record (nor `outcome:<id>`)",
        ),
        (
            "\n[[titles]]\nid = \"t\"\nname = \"T\"\nresource = \"coin\"\ncount = \"fighters\"\n",
            "titles.t: give a `resource` or a `count`, not both",
        ),
        (
            "\n[[titles]]\nid = \"t\"\nname = \"T\"\ncount = \"counter:nope\"\n",
            "titles.t: counter `nope` is not in [[counters]]",
        ),
        (
            "\n[[tables]]\nid = \"t\"\nname = \"T\"\nroll = \"d6\"\nmodifiers = [{ id = \"p\", label = \"P\", amount = -1, per = \"coin\" }]\nrows = [{ on = \"1+\", result = \"r\" }]\n",
            "tables.t.modifiers.p.per: `coin` is not a stat or a counter",
        ),
        (
            "\n[[record.upkeep]]\nid = \"u\"\ntext = \"t\"\ngain = [{ resource = \"coin\", amount = 1 }]\nruling = \"nope\"\n",
            "record.upkeep.u: ruling `nope` is not in [[rulings]]",
        ),
        (
            "\n[[titles]]\nid = \"t\"\nname = \"T\"\nresource = \"coin\"\nruling = \"nope\"\n",
            "titles.t.ruling: ruling `nope` is not in [[rulings]]",
        ),
        (
            "\n[rating]\nlabel = \"R\"\ncounters = [{ counter = \"nope\", factor = 1 }]\n",
            "rating.counters[0].counter: counter `nope` is not in [[counters]]",
        ),
        (
            "\n[rating]\nlabel = \" \"\n",
            "rating.label: missing: what the rating is called",
        ),
        (
            "\n[rating]\nlabel = \"R\"\nper_member = 9999999999999\n",
            "rating.per_member",
        ),
        (
            "\n[[record.differences]]\nid = \"d\"\ntext = \"t\"\nmeasure = \"rating\"\nside = \"lower\"\nresource = \"coin\"\nrows = []\n",
            "record.differences.d.measure: the pack has no [rating]",
        ),
        (
            "\n[[record.differences]]\nid = \"d\"\ntext = \"t\"\nmeasure = \"resource:coin\"\nside = \"lower\"\ncounter = \"blisters\"\nrows = []\n",
            "record.differences.d.to: points of a counter need `to`",
        ),
        (
            "\n[[record.differences]]\nid = \"d\"\ntext = \"t\"\nmeasure = \"resource:coin\"\nside = \"lower\"\nresource = \"coin\"\ncounter = \"blisters\"\nrows = []\n",
            "record.differences.d: give a `counter` (with `to`) or a `resource`, one of them",
        ),
        (
            "\n[[record.differences]]\nid = \"d\"\ntext = \"t\"\nmeasure = \"resource:coin\"\nside = \"lower\"\nresource = \"coin\"\nrows = [{ on = \"1-5\", amount = 1 }, { on = \"5+\", amount = 2 }]\n",
            "record.differences.d.rows: rows `1-5` and `5+` overlap",
        ),
        (
            "\n[[record.differences]]\nid = \"d\"\ntext = \"t\"\nmeasure = \"found:x\"\nside = \"lower\"\nresource = \"coin\"\nrows = []\n",
            "record.differences.d.measure: a difference is measured before the record",
        ),
        (
            "\n[[record.counted]]\nid = \"c\"\nlabel = \"C\"\ndice = \"d6+1\"\nper = \"standing\"\nfaces = [{ name = \"F\", on = \"6\" }]\n",
            "record.counted.c.dice: dice counted are read one by one: no modifier",
        ),
        (
            "\n[[record.counted]]\nid = \"c\"\nlabel = \"C\"\ndice = \"d6\"\nper = \"kills\"\nfaces = [{ name = \"F\", on = \"6\" }]\n",
            "record.counted.c.per: `kills`: expected took_part, standing, outcome:<id> or count:<id>",
        ),
        (
            "\n[[record.counted]]\nid = \"c\"\nlabel = \"C\"\ndice = \"d6\"\nper = \"standing\"\nfaces = [{ name = \"F\", on = \"7+\" }]\n",
            "record.counted.c.faces `7+`: no face of a d6 is in it",
        ),
        (
            "\n[[record.counted]]\nid = \"c\"\nlabel = \"C\"\ndice = \"d6\"\nper = \"standing\"\nsets = [{ name = \"One\", of = 1 }]\n",
            "record.counted.c.sets `One`: a set is of 2 to 100 equal faces, not 1",
        ),
        (
            "\n[[grids]]\nid = \"g\"\nname = \"G\"\nrows_by = \"found:nope\"\ncolumns_by = \"members\"\ncolumns = [\"1+\"]\nrows = [{ on = \"0+\", values = [1] }]\n",
            "grids.g.rows_by: `nope` is not in [[record.counted]]",
        ),
        (
            "\n[[grids]]\nid = \"g\"\nname = \"G\"\nrows_by = \"resource:coin\"\ncolumns_by = \"members\"\ncolumns = [\"1\", \"2+\"]\nrows = [{ on = \"0+\", values = [1] }]\n",
            "grids.g.rows `0+`: 1 values for 2 columns",
        ),
        (
            "\n[[record.lookups]]\nid = \"l\"\ntext = \"t\"\ngrid = \"nope\"\nresource = \"coin\"\n",
            "record.lookups.l.grid: grid `nope` is not in [[grids]]",
        ),
        (
            "\n[[groups]]\nid = \"g\"\nlabel = \"G\"\nsize = { min = 3, max = 2 }\n",
            "groups.g.size: the range runs backwards (3 to 2)",
        ),
        (
            "\n[[record.awards]]\nid = \"a\"\ntext = \"t\"\ncounter = \"blisters\"\namount = 1\nto = \"standing\"\nwho = \"group:hounds\"\n",
            "record.awards.a.who: group `hounds` is not in [[groups]]",
        ),
        (
            "\n[succession]\nby = \"counter:nope\"\n",
            "succession.by: counter `nope` is not in [[counters]]",
        ),
        (
            "\n[succession]\nby = \"stat:pace\"\nties = [\"pick\", \"counter:blisters\"]\n",
            "succession.ties[0]: `pick` settles every tie: it comes last",
        ),
        (
            "\n[succession]\nby = \"pace\"\n",
            "succession.by: `pace`: expected counter:<id> or stat:<id>",
        ),
        (
            "\n[captives]\nresource = \"coin\"\nransom = { fixed = 5, between = [1, 9] }\n",
            "captives.ransom: give one of `fixed`, `between`, `by_worth` or `by_cost`",
        ),
        (
            "\n[captives]\nresource = \"coin\"\nransom = { by_worth = [{ on = \"0+\", amount = 3 }] }\n",
            "captives.ransom.by_worth: a captive's worth is their value or their rating",
        ),
        (
            "\n[captives]\nresource = \"coin\"\nmay = [\"sell\"]\n",
            "captives.may: `sell` needs `[captives.sell]`",
        ),
        (
            "\n[captives]\nresource = \"coin\"\nsell = { fixed = 0, status = \"sold\" }\n",
            "captives.sell: a price is more than 0, not 0",
        ),
        (
            "\n[[record.awards]]\nid = \"a\"\ntext = \"t\"\ncounter = \"nope\"\namount = 1\nto = \"standing\"\n",
            "record.awards.a.counter: counter `nope` is not in [[counters]]",
        ),
        (
            "\n[[record.awards]]\nid = \"a\"\ntext = \"t\"\ncounter = \"blisters\"\namount = 1\nto = \"outcome:lost\"\n",
            "record.awards.a.to: outcome `lost` is not in [[outcomes]]",
        ),
        (
            "\n[[record.awards]]\nid = \"a\"\ntext = \"t\"\ncounter = \"blisters\"\namount = 1\nto = \"first\"\n",
            "record.awards.a.to: `to = \"first\"`: expected took_part, standing",
        ),
        (
            "\n[[record.awards]]\nid = \"a\"\ntext = \"t\"\ncounter = \"blisters\"\namount = 1\nto = \"standing\"\nwho = \"entry:wings\"\n",
            "record.awards.a.who: entry `wings` is not in [[quirks]]",
        ),
        (
            "\n[[counters]]\nid = \"xp\"\nlabel = \"XP\"\nmin = 0\nthresholds = [{ at = [3, 2], table = \"t\" }]\n",
            "counters.xp.thresholds[0].at: 2 comes after 3: the points rise",
        ),
        (
            "\n[[counters]]\nid = \"xp\"\nlabel = \"XP\"\nmin = 0\nmax = 5\nthresholds = [{ at = [2, 6], table = \"t\" }]\n",
            "counters.xp.thresholds[0].at: 6 is outside what XP holds",
        ),
        (
            "\n[[counters]]\nid = \"xp\"\nlabel = \"XP\"\nmin = 0\nthresholds = [{ at = [2], table = \"nope\" }]\n",
            "counters.xp.thresholds[0].table: table `nope` is not in [[tables]]",
        ),
        (
            "\n[[tables]]\nid = \"t\"\nname = \"T\"\nroll = \"d6\"\nrows = [{ on = \"1-3\", result = \"a\", fallback = \"4-6\", either_way = true }, { on = \"4-6\", result = \"b\" }]\n",
            "tables.t row `1-3`: `either_way` needs a `fallback` row that falls back on this one",
        ),
        (
            "\n[[tables]]\nid = \"t\"\nname = \"T\"\nroll = \"d6\"\nrows = [{ on = \"1-3\", result = \"a\", fallback = \"4-6\" }, { on = \"4-6\", result = \"b\", fallback = \"1-3\" }]\n",
            "its fallbacks go round in a loop",
        ),
    ] {
        let e = refused(extra);
        assert!(e.contains(says), "{extra}\nsays: {e}");
    }
}

/// Kits with a cost, a bought kit, and outcomes that take a runner off
/// the roster or into a rival's hands: what a rating leaves out.
const KIT: &str = r#"
[[categories]]
id = "gear"
label = "Gear"

[[quirks]]
id = "shoes"
name = "Racing Shoes"
category = "gear"
cost = 10

[[outcomes]]
id = "lost"
label = "Lost"
effects = [{ kind = "leave", status = "lost in the marsh" }]

[[outcomes]]
id = "nabbed"
label = "Nabbed"
effects = [{ kind = "capture" }]
"#;

fn rating(s: &Session, band: &str) -> i64 {
    let id = s.gang_named(band).unwrap().id;
    s.gang_view(id).unwrap().rating.unwrap().value
}

#[test]
fn a_rating_sums_the_members_on_the_roster_their_kits_and_counters() {
    let dir = util::temp();
    let extra = format!(
        "{KIT}{}",
        r#"
[rating]
label = "Band Rating"
per_member = 5
entries = true
counters = [{ counter = "blisters", factor = 2 }]
"#
    );
    let mut s = campaign(dir.path(), &extra);
    let a1 = s.fighter_named("A1", None).unwrap();
    s.set_quirks(a1.id, vec![rapsheet::campaign::QuirkPick::new("shoes")])
        .unwrap();
    s.set_counter(a1.id, "blisters", 2, "a long run").unwrap();
    // A1: 5 + 10 (Racing Shoes) + 2 × 2 (Blisters) = 19; A2: 5.
    assert_eq!(rating(&s, "A"), 24);
    let id = s.gang_named("A").unwrap().id;
    let view = s.gang_view(id).unwrap();
    assert_eq!(view.rating.as_ref().unwrap().label, "Band Rating");
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["rating"]["value"], 24);
    // A2 is nabbed by B, B2 lost: neither counts any more.
    let race = report(serde_json::json!({
        "gangs": [
            {"gang": "A", "fighters": [{"fighter": "A1"}, {"fighter": "A2", "outcome": "nabbed"}]},
            {"gang": "B", "fighters": [{"fighter": "B1"}, {"fighter": "B2", "outcome": "lost"}]},
        ],
        "picks": [{"roll": "nabbed: A2", "pick": "hold"}],
    }));
    s.record_battle(&race, 1).unwrap();
    assert_eq!(rating(&s, "A"), 19);
    assert_eq!(rating(&s, "B"), 5);
    drop(s);
    // The command line says it with the roster, and in its JSON.
    let shown = cli(dir.path(), &extra, &["gang", "show", "A"]);
    assert!(shown.contains("  Band Rating 19\n"), "{shown}");
    let json: serde_json::Value =
        serde_json::from_str(&cli(dir.path(), &extra, &["gang", "show", "B", "--json"])).unwrap();
    assert_eq!(json["rating"]["value"], 5);
}

/// Experience: awards for what runners did, thresholds per kind of
/// member, a captain's roll that can fall either way round, a runner's
/// pick.
const EXPERIENCE: &str = r#"
[[stats]]
id = "grit"
label = "GRIT"
default = 2
min = 1
max = 2

[[stats]]
id = "nerve"
label = "NERVE"
default = 3
min = 1
max = 3

[[counters]]
id = "xp"
label = "Experience"
min = 0

[[counters.thresholds]]
who = "leader"
at = [2, 4]
table = "captain-advances"

[[counters.thresholds]]
at = [1, 3]
table = "runner-advances"
pick = true

[[tables]]
id = "captain-advances"
name = "Captain's Advances"
roll = "d6"
rows = [
  { on = "1-3", name = "Grittier", result = "+1 Grit; if at its most, +1 Nerve", effects = [{ kind = "stat", stat = "grit", amount = 1 }], lasting = true, fallback = "4-6", either_way = true },
  { on = "4-6", name = "Bolder", result = "+1 Nerve; if at its most, +1 Grit", effects = [{ kind = "stat", stat = "nerve", amount = 1 }], lasting = true, fallback = "1-3", either_way = true },
]

[[tables]]
id = "runner-advances"
name = "Runner's Advances"
roll = "d6"
rows = [
  { on = "1-3", name = "Swift", result = "+1 Pace", effects = [{ kind = "stat", stat = "pace", amount = 1 }], lasting = true },
  { on = "4-6", name = "Steady", result = "+1 Nerve", effects = [{ kind = "stat", stat = "nerve", amount = 1 }], lasting = true },
]

[[record.awards]]
id = "home"
text = "+1 Experience to each runner who finishes"
counter = "xp"
amount = 1
to = "standing"

[[record.awards]]
id = "catches"
text = "+1 Experience for each rival runner caught"
counter = "xp"
amount = 1
to = "kills"

[[record.awards]]
id = "victor"
text = "+1 Experience to the winning captain"
counter = "xp"
amount = 1
to = "winners_leader"
"#;

fn stat(s: &Session, runner: &str, stat: &str) -> i64 {
    let f = s.fighter_named(runner, None).unwrap();
    s.fighter_details(f.id)
        .unwrap()
        .view
        .stats
        .iter()
        .find(|x| x.id == stat)
        .unwrap()
        .value
}

fn counter(s: &Session, runner: &str, id: &str) -> i64 {
    let f = s.fighter_named(runner, None).unwrap();
    f.counters.get(id).copied().unwrap_or(0)
}

#[test]
fn experience_awarded_in_a_record_reaches_thresholds_that_roll_or_pick() {
    let dir = util::temp();
    let mut s = campaign(dir.path(), EXPERIENCE);
    let before: Vec<serde_json::Value> = ["A", "B"]
        .iter()
        .map(|b| serde_json::to_value(s.gang_view(s.gang_named(b).unwrap().id).unwrap()).unwrap())
        .collect();
    let mut race = serde_json::json!({
        "gangs": [
            {"gang": "A", "fighters": [{"fighter": "A1"}, {"fighter": "A2"}]},
            {"gang": "B", "fighters": [{"fighter": "B1"}, {"fighter": "B2", "outcome": "caught", "downed_by": "A1"}]},
        ],
        "winner": "A",
        "dice": [{"roll": "captain-advances: A1", "faces": [5]}],
    });
    // A2 reaches 1 and picks; asked by the roll's name until then.
    let asked = s.preview_battle(&report(race.clone()), 1).unwrap();
    let need = &asked.needed[0];
    assert_eq!(need.rule, "runner-advances: A2");
    assert_eq!(need.options, ["Swift", "Steady"]);
    race["picks"] = serde_json::json!([{"roll": "runner-advances: A2", "pick": "swift"}]);
    let told = s.record_battle(&report(race), 1).unwrap();
    let text: Vec<&str> = told
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    // A1: finishes (+1), catches B2 (+1), the winning captain (+1): 3,
    // past the captain's 2.
    assert_eq!(counter(&s, "A1", "xp"), 3);
    assert!(
        text.contains(&"A1 reaches Experience 2: a roll on Captain's Advances"),
        "{text:?}"
    );
    // A 5: Bolder, but Nerve is at its most; Grittier, but Grit is too.
    assert!(
        text.contains(&"A1: neither Bolder nor Grittier applies; nothing changes"),
        "{text:?}"
    );
    assert_eq!((stat(&s, "A1", "grit"), stat(&s, "A1", "nerve")), (2, 3));
    // A2 finishes: 1, a runner's pick: Swift.
    assert_eq!(counter(&s, "A2", "xp"), 1);
    assert!(
        text.contains(&"A2 picks Swift of Runner's Advances"),
        "{text:?}"
    );
    assert_eq!(stat(&s, "A2", "pace"), 4);
    // B1 finishes: 1, short of a captain's 2; B2 was caught: nothing.
    assert_eq!((counter(&s, "B1", "xp"), counter(&s, "B2", "xp")), (1, 0));
    // The next race: A1 reaches 4 and rolls (the app's dice, seeded).
    let race2 = report(serde_json::json!({
        "gangs": [{"gang": "A"}, {"gang": "C"}],
        "winner": "C",
        "picks": [{"roll": "runner-advances: C2", "pick": "Steady"}],
    }));
    let told2 = s.record_battle(&race2, 7).unwrap();
    assert_eq!(counter(&s, "A1", "xp"), 4);
    let rolled: Vec<&str> = told2
        .procedure
        .rolls
        .iter()
        .map(|r| r.roll.as_str())
        .collect();
    // C1, the winning captain, finishes too: 2, a roll of its own.
    assert_eq!(rolled, ["captain-advances: A1", "captain-advances: C1"]);
    assert_eq!(counter(&s, "A2", "xp"), 2, "A2 passes no threshold");
    // Both records taken back: every runner as they were.
    s.undo_last_battle().unwrap();
    s.undo_last_battle().unwrap();
    for (band, was) in ["A", "B"].iter().zip(&before) {
        let now =
            serde_json::to_value(s.gang_view(s.gang_named(band).unwrap().id).unwrap()).unwrap();
        assert_eq!(&now, was, "{band}");
    }
}

#[test]
fn the_side_lower_before_the_record_gains_by_the_difference() {
    let dir = util::temp();
    let extra = r#"
[[counters]]
id = "xp"
label = "Experience"
min = 0

[rating]
label = "Band Rating"
per_member = 5
counters = [{ counter = "xp", factor = 1 }]

[[record.differences]]
id = "underdog"
text = "The band rated lower gains Experience for each runner of it who finishes"
measure = "rating"
side = "lower"
against = "farthest"
counter = "xp"
to = "standing"
rows = [{ on = "1-4", amount = 1 }, { on = "5+", amount = 2 }]

[[record.differences]]
id = "purse"
text = "The poorer band, when it wins, gains Coin by the difference"
measure = "resource:coin"
side = "lower"
against = "farthest"
winner_only = true
resource = "coin"
rows = [{ on = "1-2", amount = 1 }, { on = "3+", amount = 3 }]
"#;
    let mut s = campaign(dir.path(), extra);
    let b2 = s.fighter_named("B2", None).unwrap();
    s.dismiss(b2.id).unwrap();
    let a = s.gang_named("A").unwrap().id;
    s.adjust_resource(a, "coin", 4, "a rich patron").unwrap();
    // Before the race: A rated 10 with 4 Coin, B rated 5 with none.
    let race = report(serde_json::json!({
        "gangs": [{"gang": "A"}, {"gang": "B"}],
        "winner": "B",
    }));
    let told = s.record_battle(&race, 1).unwrap();
    let text: Vec<&str> = told
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    // 10 − 5 = 5: the `5+` row, 2 Experience to B1, who finished.
    assert_eq!(counter(&s, "B1", "xp"), 2);
    assert_eq!((counter(&s, "A1", "xp"), counter(&s, "A2", "xp")), (0, 0));
    assert!(
        text.contains(
            &"The band rated lower gains Experience for each runner of it who finishes: Band Rating 5 apart (5+): +2"
        ),
        "{text:?}"
    );
    // 4 − 0 = 4 Coin apart, and B won: the `3+` row.
    assert_eq!((coin(&s, "A"), coin(&s, "B")), (4, 3));
    // B is now rated 5 + 2 = 7 with 3 Coin, A 10 with 4: A wins this
    // time, so the purse gives nothing, and B is 3 lower.
    let race = report(serde_json::json!({
        "gangs": [{"gang": "A"}, {"gang": "B"}],
        "winner": "A",
    }));
    s.record_battle(&race, 1).unwrap();
    assert_eq!(counter(&s, "B1", "xp"), 3);
    assert_eq!((coin(&s, "A"), coin(&s, "B")), (4, 3));
    // Bands rated alike (A 10, C 10): no one is lower; but C, with no
    // Coin, wins against A's 4.
    let race = report(serde_json::json!({"gangs": [{"gang": "A"}, {"gang": "C"}], "winner": "C"}));
    let told = s.record_battle(&race, 1).unwrap();
    assert!(
        told.procedure
            .changes
            .iter()
            .all(|c| !c.text.contains("Band Rating")),
        "{:?}",
        told.procedure.changes
    );
    assert_eq!(coin(&s, "C"), 3);
}

/// Scavenging after a race: a die for each runner who finished, scored by
/// the dice that show 5 or 6 and by sets of equal faces; what was found
/// sold by a grid of what was found and the band's size.
const SCAVENGING: &str = r#"
[[resources]]
id = "trinkets"
label = "Trinkets"
min = 0

[[record.counted]]
id = "scavenge"
label = "Scavenging"
dice = "d6"
per = "standing"
faces = [{ name = "Trinket", on = "5-6", found = 1, gain = [{ resource = "trinkets", amount = 1 }] }]
sets = [
  { name = "Pair", of = 2, found = 1 },
  { name = "Triple", of = 3, found = 2, gain = [{ resource = "coin", amount = 5 }] },
]

[[grids]]
id = "pawn"
name = "The Pawnbroker"
rows_by = "found:scavenge"
columns_by = "members"
columns = ["1", "2+"]
rows = [
  { on = "0", values = [0, 0] },
  { on = "1-2", values = [4, 3] },
  { on = "3+", values = [8, 6] },
]

[[record.lookups]]
id = "sell"
text = "What was found is sold to the pawnbroker"
grid = "pawn"
resource = "coin"
"#;

fn amount(s: &Session, band: &str, resource: &str) -> i64 {
    let id = s.gang_named(band).unwrap().id;
    s.gang_view(id)
        .unwrap()
        .resources
        .iter()
        .find(|r| r.id == resource)
        .map(|r| r.amount)
        .unwrap()
}

#[test]
fn dice_scored_by_counting_and_a_grid_read_by_two_numbers() {
    let dir = util::temp();
    let mut s = campaign(dir.path(), SCAVENGING);
    let a = s.gang_named("A").unwrap().id;
    s.recruit(
        a,
        rapsheet::campaign::commands::NewFighter {
            name: "A3".into(),
            ..Default::default()
        },
    )
    .unwrap();
    let race = report(serde_json::json!({
        "gangs": [
            {"gang": "A"},
            {"gang": "B", "fighters": [{"fighter": "B1"}, {"fighter": "B2", "outcome": "caught"}]},
        ],
        "dice": [
            {"roll": "scavenge: A", "faces": [5, 5, 2]},
            {"roll": "scavenge: B", "faces": [3]},
        ],
    }));
    let told = s.record_battle(&race, 1).unwrap();
    let text: Vec<&str> = told
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    // A, three finished: [5, 5, 2] is two Trinkets and a Pair of 5s:
    // found 1 + 1 + 1 = 3; three runners: row `3+`, column `2+`: 6.
    assert!(
        text.contains(
            &"Scavenging 3d6: [5, 5, 2]: 2 × Trinket, Pair of 5; found 3 (entered by hand)"
        ),
        "{text:?}"
    );
    assert!(
        text.contains(
            &"What was found is sold to the pawnbroker: The Pawnbroker row 3+, column 2+: 6"
        ),
        "{text:?}"
    );
    assert_eq!((amount(&s, "A", "trinkets"), coin(&s, "A")), (2, 6));
    // B: one finished, [3]: nothing; found 0: row `0`, nothing sold.
    assert_eq!((amount(&s, "B", "trinkets"), coin(&s, "B")), (0, 0));
    // Dice for two runners must be two.
    let wrong = report(serde_json::json!({
        "gangs": [{"gang": "A"}, {"gang": "C"}],
        "dice": [
            {"roll": "scavenge: A", "faces": [6, 6, 6]},
            {"roll": "scavenge: C", "faces": [4, 4, 4]},
        ],
    }));
    let e = s.record_battle(&wrong, 1).unwrap_err().to_string();
    assert!(e.starts_with("dice[1].faces: scavenge: C:"), "{e}");
    // A triple is not also a pair (`sets_nest` left out): [6, 6, 6] is
    // three Trinkets and a Triple of 6s, found 3 + 2 = 5 and 5 Coin, then
    // sold for 6. C's [4, 4] is a Pair, found 1, sold for 3.
    let race = report(serde_json::json!({
        "gangs": [{"gang": "A"}, {"gang": "C"}],
        "dice": [
            {"roll": "scavenge: A", "faces": [6, 6, 6]},
            {"roll": "scavenge: C", "faces": [4, 4]},
        ],
    }));
    s.record_battle(&race, 1).unwrap();
    assert_eq!((amount(&s, "A", "trinkets"), coin(&s, "A")), (5, 6 + 5 + 6));
    assert_eq!((amount(&s, "C", "trinkets"), coin(&s, "C")), (0, 3));
    // Taken back, both races leave nothing behind.
    s.undo_last_battle().unwrap();
    s.undo_last_battle().unwrap();
    assert_eq!((amount(&s, "A", "trinkets"), coin(&s, "A")), (0, 0));
}

#[test]
fn captives_are_ransomed_and_sold_at_the_price_the_pack_sets() {
    let dir = util::temp();
    let extra = format!(
        "{KIT}{}",
        r#"
[rating]
label = "Band Rating"
per_member = 5
entries = true

[captives]
resource = "coin"
ransom = { by_worth = [{ on = "1-9", amount = 2 }, { on = "10+", amount = 6 }] }
sell = { between = [1, 3], status = "sold to the bog-hermits" }
may = ["ransom", "sell"]
"#
    );
    let mut s = campaign(dir.path(), &extra);
    let a2 = s.fighter_named("A2", None).unwrap();
    s.set_quirks(a2.id, vec![rapsheet::campaign::QuirkPick::new("shoes")])
        .unwrap();
    let a = s.gang_named("A").unwrap().id;
    s.adjust_resource(a, "coin", 10, "winnings").unwrap();
    let race = report(serde_json::json!({
        "gangs": [
            {"gang": "A", "fighters": [{"fighter": "A1", "outcome": "nabbed"}, {"fighter": "A2", "outcome": "nabbed"}]},
            {"gang": "B"},
        ],
        "picks": [{"roll": "nabbed: A1", "pick": "hold"}, {"roll": "nabbed: A2", "pick": "hold"}],
    }));
    s.record_battle(&race, 1).unwrap();
    let a1 = s.fighter_named("A1", None).unwrap();
    // A1 is worth 5 (a runner); A2 15 (and the shoes): 2 and 6 Coin.
    let terms = s.captive_terms(a2.id).unwrap();
    assert_eq!(terms.ransom.as_ref().unwrap().said, "6 (worth 15)");
    assert!(!terms.may_release);
    let e = s.ransom(a2.id, "coin", 2).unwrap_err().to_string();
    assert_eq!(
        e,
        "captives.ransom: 2 is not the price of A2: 6 (worth 15) Coin"
    );
    s.ransom(a2.id, "coin", 6).unwrap();
    assert_eq!((coin(&s, "A"), coin(&s, "B")), (4, 6));
    // Not released: the pack lets captives be ransomed or sold only.
    let e = s.release(a1.id).unwrap_err().to_string();
    assert_eq!(
        e,
        "captives.may: this game does not let a captive be released"
    );
    // Sold for 1 to 3, no more.
    let e = s.sell_captive(a1.id, 4).unwrap_err().to_string();
    assert_eq!(e, "captives.sell: 4 is not the price of A1: 1 to 3 Coin");
    drop(s);
    // From the command line: the terms, and the sale.
    let terms = cli(dir.path(), &extra, &["captive", "terms", "A1"]);
    assert_eq!(
        terms,
        "ransom: 2 (worth 5) Coin\nrelease: not allowed\nsell: 1 to 3 Coin\n"
    );
    let sold = cli(
        dir.path(),
        &extra,
        &["captive", "sell", "A1", "--amount", "3"],
    );
    assert_eq!(sold, "A1 is sold for 3 Coin: sold to the bog-hermits\n");
    let s = Session::open_with(&dir.path().join("c.rapsheet"), registry(&extra)).unwrap();
    let view = s.gang_view(a).unwrap();
    assert_eq!(
        view.gone,
        [("A1".to_owned(), "sold to the bog-hermits".to_owned())]
    );
    assert_eq!(coin(&s, "B"), 9);
}

#[test]
fn a_leader_who_leaves_is_followed_by_the_member_succession_names() {
    let dir = util::temp();
    let extra = format!(
        "{KIT}{}",
        r#"
[[counters]]
id = "xp"
label = "Experience"
min = 0

[succession]
by = "counter:xp"
ties = ["stat:pace", "pick"]
"#
    );
    let mut s = campaign(dir.path(), &extra);
    for band in ["A", "B", "C"] {
        let id = s.gang_named(band).unwrap().id;
        s.recruit(
            id,
            rapsheet::campaign::commands::NewFighter {
                name: format!("{band}3"),
                ..Default::default()
            },
        )
        .unwrap();
    }
    for (runner, xp) in [("A2", 2), ("A3", 2), ("B2", 1), ("B3", 1)] {
        let f = s.fighter_named(runner, None).unwrap();
        s.set_counter(f.id, "xp", xp, "earlier races").unwrap();
    }
    let a3 = s.fighter_named("A3", None).unwrap();
    s.set_base_stat(a3.id, "pace", 4).unwrap();
    let before: Vec<serde_json::Value> = ["A", "B"]
        .iter()
        .map(|b| serde_json::to_value(s.gang_view(s.gang_named(b).unwrap().id).unwrap()).unwrap())
        .collect();
    // A1 is lost, B1 nabbed by A: A2 and A3 tie on Experience 2, and A3's
    // Pace 4 breaks it; B2 and B3 tie on both, and B picks.
    let mut race = serde_json::json!({
        "gangs": [
            {"gang": "A", "fighters": [{"fighter": "A1", "outcome": "lost"}, {"fighter": "A2"}]},
            {"gang": "B", "fighters": [{"fighter": "B1", "outcome": "nabbed"}, {"fighter": "B2"}]},
        ],
        "picks": [{"roll": "nabbed: B1", "pick": "hold"}],
    });
    let asked = s.preview_battle(&report(race.clone()), 1).unwrap();
    let need = asked
        .needed
        .iter()
        .find(|n| n.rule == "succession: B")
        .unwrap();
    assert_eq!(need.options, ["B2", "B3"]);
    assert_eq!(need.text, "pick the next captain: tied");
    race["picks"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"roll": "succession: B", "pick": "B3"}));
    let told = s.record_battle(&report(race), 1).unwrap();
    let text: Vec<&str> = told
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert!(
        text.contains(&"A3 is the next captain, after A1 (Experience 2)"),
        "{text:?}"
    );
    let leader = |s: &Session, band: &str| {
        let id = s.gang_named(band).unwrap().id;
        let view = s.gang_view(id).unwrap();
        let leaders: Vec<String> = view
            .fighters
            .iter()
            .filter(|f| f.leader)
            .map(|f| f.name.clone())
            .collect();
        leaders
    };
    assert_eq!(leader(&s, "A"), ["A3"]);
    assert_eq!(leader(&s, "B"), ["B3"]);
    // Taken back: the leaders as they were.
    s.undo_last_battle().unwrap();
    for (band, was) in ["A", "B"].iter().zip(&before) {
        let now =
            serde_json::to_value(s.gang_view(s.gang_named(band).unwrap().id).unwrap()).unwrap();
        assert_eq!(&now, was, "{band}");
    }
    // A leader dismissed: C2 and C3 tie on everything, so C names one.
    drop(s);
    std::fs::write(dir.path().join("runners.toml"), format!("{GAME}{extra}")).unwrap();
    let e = util::rapsheet(
        dir.path(),
        &[
            "--pack",
            "runners.toml",
            "fighter",
            "dismiss",
            "C1",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!e.status.success());
    assert!(
        util::stderr(&e).contains(
            "succession: C2 and C3 are tied to be the next captain; name one (or make one captain first)"
        ),
        "{}",
        util::stderr(&e)
    );
    let out = cli(
        dir.path(),
        &extra,
        &["fighter", "dismiss", "C1", "--successor", "C3"],
    );
    assert_eq!(
        out,
        "Dismissed C1 (rapsheet undo brings them back)\nC3 is the captain now\n"
    );
}

#[test]
fn a_group_shares_one_profile_and_its_members_fall_one_by_one() {
    let dir = util::temp();
    let extra = format!(
        "{KIT}{}",
        r#"
[[counters]]
id = "xp"
label = "Experience"
min = 0

[[counters.thresholds]]
who = "group"
at = [2]
table = "pack-advances"

[[tables]]
id = "pack-advances"
name = "Pack Advances"
roll = "d6"
rows = [{ on = "1-6", name = "Faster", result = "+1 Pace", effects = [{ kind = "stat", stat = "pace", amount = 1 }], lasting = true }]

[[groups]]
id = "hounds"
label = "Hounds"
size = { min = 2, max = 3 }
per_gang = { min = 0, max = 1 }
cost = 3

[rating]
label = "Band Rating"
per_member = 5
counters = [{ counter = "xp", factor = 1 }]

[[record.awards]]
id = "home"
text = "+1 Experience to each runner who finishes"
counter = "xp"
amount = 1
to = "standing"
"#
    );
    let mut s = campaign(dir.path(), &extra);
    let a = s.gang_named("A").unwrap().id;
    let before = serde_json::to_value(s.gang_view(a).unwrap()).unwrap();
    let group = |name: &str, members: &[&str]| rapsheet::campaign::groups::NewGroup {
        kind: "hounds".into(),
        name: name.into(),
        members: members.iter().map(|m| (*m).to_owned()).collect(),
        quirks: Vec::new(),
    };
    // size = { min = 2, max = 3 }; per_gang = { max = 1 }.
    let e = s
        .recruit_group(a, group("Pack", &["H1", "H2", "H3", "H4"]))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "groups.hounds.size: a group of Hounds has 2 to 3 members, not 4"
    );
    s.recruit_group(a, group("Pack", &["H1", "H2"])).unwrap();
    let e = s
        .recruit_group(a, group("Second Pack", &["H5", "H6"]))
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("groups.hounds.per_gang: A may have "),
        "{e}"
    );
    // A1 and A2: 5 each; H1 and H2: 5 + 3 (cost = 3) each.
    assert_eq!(rating(&s, "A"), 26);
    let view = s.gang_view(a).unwrap();
    assert_eq!(view.groups.len(), 1);
    assert_eq!(view.groups[0].line(), "Pack (Hounds): H1, H2");
    // One card and one line of the printed roster for the group.
    let cards: Vec<String> = s
        .cards(a, &[])
        .unwrap()
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(cards, ["A1", "A2", "Pack (Hounds): H1, H2"]);
    let sheet: Vec<String> = s
        .roster_sheet(a)
        .unwrap()
        .fighters
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(sheet, cards);
    assert!(
        s.roster_sheet(a)
            .unwrap()
            .resources
            .ends_with("Band Rating 26")
    );
    let only_h2: Vec<String> = s
        .cards(a, &["H2".to_owned()])
        .unwrap()
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(only_h2, ["Pack (Hounds): H1, H2"]);
    // H1 finishes, H2 sits out: the group gains its Experience, both.
    let race = |fighters: serde_json::Value| {
        report(serde_json::json!({"gangs": [{"gang": "A", "fighters": fighters}, {"gang": "B"}]}))
    };
    s.record_battle(&race(serde_json::json!([{"fighter": "H1"}])), 1)
        .unwrap();
    assert_eq!((counter(&s, "H1", "xp"), counter(&s, "H2", "xp")), (1, 1));
    // Both finish: the group gains once, reaches 2, and rolls once; both
    // are Faster.
    let told = s
        .record_battle(
            &race(serde_json::json!([{"fighter": "H1"}, {"fighter": "H2"}])),
            1,
        )
        .unwrap();
    assert_eq!((counter(&s, "H1", "xp"), counter(&s, "H2", "xp")), (2, 2));
    let rolled: Vec<&str> = told
        .procedure
        .rolls
        .iter()
        .map(|r| r.roll.as_str())
        .collect();
    assert_eq!(rolled, ["pack-advances: H1"]);
    assert_eq!((stat(&s, "H1", "pace"), stat(&s, "H2", "pace")), (4, 4));
    // The group's advance goes from both when taken from one, and comes
    // back to both.
    let h1 = s.fighter_named("H1", None).unwrap();
    let faster = s.fighter_details(h1.id).unwrap().view.lasting[0].id;
    s.remove_lasting(faster, "a lame paw").unwrap();
    assert_eq!((stat(&s, "H1", "pace"), stat(&s, "H2", "pace")), (3, 3));
    s.undo_last().unwrap();
    assert_eq!((stat(&s, "H1", "pace"), stat(&s, "H2", "pace")), (4, 4));
    // A change typed for one member is the group's.
    let h2 = s.fighter_named("H2", None).unwrap();
    s.set_counter(h2.id, "xp", 3, "a fine hunt").unwrap();
    assert_eq!(counter(&s, "H1", "xp"), 3);
    // Members fall one by one: H2 is lost; then H1, and the group is gone.
    s.record_battle(
        &race(serde_json::json!([{"fighter": "H1"}, {"fighter": "H2", "outcome": "lost"}])),
        1,
    )
    .unwrap();
    let view = s.gang_view(a).unwrap();
    assert_eq!(view.groups[0].line(), "Pack (Hounds): H1");
    drop(view);
    let shown = cli(dir.path(), &extra, &["gang", "show", "A"]);
    assert!(shown.contains("  Pack (Hounds): H1  PACE 4"), "{shown}");
    s.record_battle(
        &race(serde_json::json!([{"fighter": "H1", "outcome": "lost"}])),
        1,
    )
    .unwrap();
    assert!(s.gang_view(a).unwrap().groups.is_empty());
    // Every record and change taken back: A as it was, but for the group.
    for _ in 0..5 {
        s.undo_last().unwrap();
    }
    let view = s.gang_view(a).unwrap();
    assert_eq!(view.groups[0].line(), "Pack (Hounds): H1, H2");
    assert_eq!((counter(&s, "H1", "xp"), stat(&s, "H2", "pace")), (0, 3));
    s.undo_last().unwrap();
    assert_eq!(
        serde_json::to_value(s.gang_view(a).unwrap()).unwrap(),
        before
    );
    drop(s);
    // From the command line.
    let added = cli(
        dir.path(),
        &extra,
        &[
            "gang",
            "add-group",
            "B",
            "--kind",
            "Hounds",
            "--name",
            "Curs",
            "--member",
            "C1x",
            "--member",
            "C2x",
        ],
    );
    assert_eq!(added, "Recruit Curs into B\n");
}

#[test]
fn a_grid_is_read_by_two_numbers_of_a_side_as_the_record_leaves_it() {
    let dir = util::temp();
    let extra = format!(
        "{KIT}{}",
        r#"
[rating]
label = "Band Rating"
per_member = 5

[[grids]]
id = "purse"
name = "The Purse"
rows_by = "rating"
columns_by = "resource:coin"
columns = ["0-2", "3+"]
rows = [{ on = "1-9", values = [4, 1] }, { on = "10+", values = [2, 0] }]

[[record.lookups]]
id = "purse"
text = "The race purse"
grid = "purse"
resource = "coin"
"#
    );
    let mut s = campaign(dir.path(), &extra);
    let a = s.gang_named("A").unwrap().id;
    s.adjust_resource(a, "coin", 3, "a wager").unwrap();
    // After the race: A rated 10 with 3 Coin (row `10+`, column `3+`: 0);
    // B lost B2, rated 5 with none (row `1-9`, column `0-2`: 4).
    let race = report(serde_json::json!({
        "gangs": [
            {"gang": "A"},
            {"gang": "B", "fighters": [{"fighter": "B1"}, {"fighter": "B2", "outcome": "lost"}]},
        ],
    }));
    let told = s.record_battle(&race, 1).unwrap();
    let text: Vec<&str> = told
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert!(
        text.contains(&"The race purse: The Purse row 10+, column 3+: 0"),
        "{text:?}"
    );
    assert!(
        text.contains(&"The race purse: The Purse row 1-9, column 0-2: 4"),
        "{text:?}"
    );
    assert_eq!((coin(&s, "A"), coin(&s, "B")), (3, 4));
    s.undo_last_battle().unwrap();
    assert_eq!((coin(&s, "A"), coin(&s, "B")), (3, 0));
}

#[test]
fn a_counted_roll_per_count_of_the_report_rolls_that_many_dice() {
    let dir = util::temp();
    let extra = r#"
[[scenarios]]
id = "hunt"
name = "The Hunt"
stage = "any"
counts = [{ id = "nests", label = "Nests found" }]
epilogue = []

[[record.counted]]
id = "forage"
label = "Foraging"
dice = "d6"
per = "count:nests"
faces = [{ name = "Egg", on = "4+", found = 1, gain = [{ resource = "coin", amount = 1 }] }]
"#;
    let mut s = campaign(dir.path(), extra);
    // A found 3 nests: three dice, two of them 4 or more; B found none
    // and rolls nothing.
    let hunt = report(serde_json::json!({
        "scenario": "hunt",
        "gangs": [
            {"gang": "A", "counts": {"nests": 3}},
            {"gang": "B", "counts": {"nests": 0}},
        ],
        "dice": [{"roll": "forage: A", "faces": [4, 5, 1]}],
    }));
    let told = s.record_battle(&hunt, 1).unwrap();
    let rolled: Vec<&str> = told
        .procedure
        .rolls
        .iter()
        .map(|r| r.roll.as_str())
        .collect();
    assert_eq!(rolled, ["forage: A"]);
    assert_eq!((coin(&s, "A"), coin(&s, "B")), (2, 0));
}

#[test]
fn succession_waits_for_the_ways_of_leaving_it_names() {
    let dir = util::temp();
    let extra = format!(
        "{KIT}{}",
        r#"
[succession]
by = "stat:pace"
ties = ["first"]
when = ["gone"]
"#
    );
    let mut s = campaign(dir.path(), &extra);
    // B1 is held by A: `when = ["gone"]`, so B waits for its captain.
    let race = report(serde_json::json!({
        "gangs": [
            {"gang": "A", "fighters": [{"fighter": "A1", "outcome": "lost"}, {"fighter": "A2"}]},
            {"gang": "B", "fighters": [{"fighter": "B1", "outcome": "nabbed"}, {"fighter": "B2"}]},
        ],
        "picks": [{"roll": "nabbed: B1", "pick": "hold"}],
    }));
    let told = s.record_battle(&race, 1).unwrap();
    let text: Vec<&str> = told
        .procedure
        .changes
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    // A1 is gone: A2, the only runner left, leads (`first` settles ties).
    assert!(
        text.contains(&"A2 is the next captain, after A1 (Pace 3)"),
        "{text:?}"
    );
    let b2 = s.fighter_named("B2", None).unwrap();
    assert!(!b2.leader);
    assert!(s.fighter_named("B1", None).unwrap().leader);
}

// ---------------------------------------------------------------------------
// A season's kinds: holdings, cycles, shapes of record with places,
// standings and factions, and the campaign shapes' limits as options.
// ---------------------------------------------------------------------------

/// Stashes along the course, weeks of two races a band ended by hand, and
/// a table the Old Mill's holder rolls better on.
const SEASON: &str = r#"
[[tables]]
id = "sprain"
name = "Sprain"
roll = "d6"
rows = [
  { on = "1-2", name = "Twisted", result = "-1 Pace until the week ends", effects = [{ kind = "stat", stat = "pace", amount = -1 }], lasting = true, until = "cycle" },
  { on = "3-4", name = "Laid up", result = "out until the week ends", effects = [{ kind = "laid_up", until = "cycle" }] },
  { on = "5+", name = "Fine", result = "nothing" },
]

[[tables]]
id = "tolls"
name = "Tolls"
roll = "d6"
rows = [
  { on = "1-3", result = "+1 Coin", effects = [{ kind = "resource", resource = "coin", amount = 1 }] },
  { on = "4+", result = "+4 Coin", effects = [{ kind = "resource", resource = "coin", amount = 4 }] },
]

[injuries]
table = "sprain"
roll_for = ["caught"]

[[holdings]]
id = "old-mill"
name = "The Old Mill"
starting = true
income = [{ resource = "coin", amount = 2 }]
modifiers = [{ table = "sprain", amount = 2 }]

[[holdings]]
id = "toll-bridge"
name = "The Toll Bridge"
income_roll = "tolls"
per_record = [{ counter = "blisters", amount = 1 }]

[cycles]
limit = 2
ends = "by_hand"
late = "refused"

[[cycles.end]]
id = "income"
kind = "income"
text = "Each stash pays"

[[cycles.end]]
id = "rest"
kind = "decay"
resource = "coin"
amount = -3
floor = 2
text = "Rent: -3 Coin, not below 2"

[[cycles.end]]
id = "back"
kind = "returns"
text = "the laid up run again"

[[cycles.end]]
id = "heal"
kind = "effects"
text = "sprains mend"
"#;

fn holder_of(s: &Session, holding: &str) -> Option<String> {
    s.holdings()
        .unwrap()
        .holdings
        .into_iter()
        .find(|h| h.name == holding)
        .and_then(|h| h.holder)
}

#[test]
fn a_holding_pays_at_a_weeks_end_bends_rolls_and_changes_hands_by_hand() {
    let dir = util::temp();
    let mut s = campaign(dir.path(), SEASON);
    let a = s.gang_named("A").unwrap().id;
    // Given by hand, with its reason; a reason is asked for.
    let e = s
        .give_holding("The Old Mill", "A", " ")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "reason: a change of a stash needs a reason for the log");
    s.give_holding("The Old Mill", "A", "won at cards").unwrap();
    s.give_holding("toll-bridge", "B", "bought it").unwrap();
    assert_eq!(holder_of(&s, "The Old Mill").as_deref(), Some("A"));
    let e = s
        .give_holding("The Old Mill", "A", "again")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "holding: A already holds The Old Mill");
    // The holder's rolls on Sprain: +2 (A1 caught, dice 2: 2 + 2 = 4,
    // Laid up, not Twisted).
    let race = report(serde_json::json!({
        "gangs": [
            {"gang": "A", "fighters": [{"fighter": "A1", "outcome": "caught"}, {"fighter": "A2"}]},
            {"gang": "B"},
        ],
        "dice": [{"roll": "sprain: A1", "faces": [2]}],
    }));
    let done = s.record_battle(&race, 1).unwrap();
    let said: Vec<String> = done
        .procedure
        .changes
        .iter()
        .map(|c| c.text.clone())
        .collect();
    assert!(
        said.contains(
            &"A1 rolls d6 on Sprain: [2] + 2 (The Old Mill) = 4: Laid up (entered by hand)"
                .to_owned()
        ),
        "{said:?}"
    );
    assert!(
        said.contains(&"A1 is laid up until the week ends".to_owned()),
        "{said:?}"
    );
    // The Toll Bridge: +1 Blisters to B's runners in every race it runs.
    assert_eq!(counter(&s, "B1", "blisters"), 1);
    // The week ended by hand: the Old Mill pays 2; the Toll Bridge's roll
    // (typed 5: +4); rent, not below 2; A1 back.
    let mut end = BattleReport::empty();
    end.dice = vec![rapsheet::campaign::battle::EnteredDice {
        roll: "income: The Toll Bridge".into(),
        faces: vec![5],
    }];
    let preview = s.preview_cycle_end(&end, 3).unwrap();
    let said: Vec<String> = preview.changes.iter().map(|c| c.text.clone()).collect();
    assert!(said.contains(&"Week 1 ends".to_owned()), "{said:?}");
    assert!(
        said.contains(
            &"The Toll Bridge: d6 on Tolls: [5] = 5: +4 Coin (entered by hand)".to_owned()
        ),
        "{said:?}"
    );
    s.end_cycle(&end, 3).unwrap();
    // Coin: A 0 + 2 = 2, rent leaves it; B 0 + 4 = 4, rent: 2; C 0, below.
    assert_eq!([coin(&s, "A"), coin(&s, "B"), coin(&s, "C")], [2, 2, 0]);
    let a1 = s.fighter_named("A1", None).unwrap();
    assert!(a1.status.can_fight(), "A1 is back");
    assert_eq!(s.season_state().unwrap().cycle, 2);
    // Taken back: week 1 again, A1 laid up.
    s.undo_last().unwrap();
    assert_eq!(s.season_state().unwrap().cycle, 1);
    assert!(!s.fighter_named("A1", None).unwrap().status.can_fight());
    // Taken from its holder: unclaimed.
    s.take_holding("The Old Mill", "lost it").unwrap();
    assert_eq!(holder_of(&s, "The Old Mill"), None);
    let _ = a;
}

#[test]
fn a_week_has_a_limit_ends_by_hand_and_refuses_a_late_race() {
    let dir = util::temp();
    let mut s = campaign(dir.path(), SEASON);
    let race = |n: u32, a: &str, b: &str| {
        let mut r = report(serde_json::json!({"gangs": [{"gang": a}, {"gang": b}]}));
        r.cycle = Some(n);
        r
    };
    s.record_battle(&race(1, "A", "B"), 1).unwrap();
    s.record_battle(&race(1, "A", "C"), 2).unwrap();
    // "limit = 2": a third race of A's is refused, naming A and the limit.
    let e = s
        .record_battle(&race(1, "A", "B"), 3)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "gangs[0].gang: A has played 2 races in Week 1, its limit"
    );
    // Ended by hand, from the command line: it says what it will do first.
    drop(s);
    let shown = cli(dir.path(), SEASON, &["cycle", "show"]);
    assert!(shown.starts_with("Week 1\n  A: 2 of 2 played\n"), "{shown}");
    assert!(
        shown.contains("When Week 1 ends:\n  Week 1 ends\n"),
        "{shown}"
    );
    cli(dir.path(), SEASON, &["cycle", "end", "--seed", "1"]);
    let mut s = Session::open_with(&dir.path().join("c.rapsheet"), registry(SEASON)).unwrap();
    // "late = refused": a race of week 1, told after it ended.
    let e = s
        .record_battle(&race(1, "B", "C"), 4)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "cycle: Week 1 has ended; a race of it is no longer taken (this is Week 2)"
    );
    let e = s
        .record_battle(&race(3, "B", "C"), 4)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "cycle: Week 3 has not begun: this is Week 2");
    s.record_battle(&race(2, "B", "C"), 4).unwrap();
}

/// Races of two run as a challenge over a stash, and of three placed.
const SHAPES: &str = r#"
[[holdings]]
id = "old-mill"
name = "The Old Mill"

[[record.shapes]]
id = "duel"
label = "Duel"
sides = 2
result = "challenge"
stake = "challenger"
stake_from = ["defender", "unclaimed"]
places = [
  { finish = "win", side = "challenger", text = "A challenger who wins: +3 Coin", rewards = [{ resource = "coin", amount = 3 }] },
  { finish = "win", side = "defender", text = "A defender who holds: +1 Coin", rewards = [{ resource = "coin", amount = 1 }] },
]

[[record.shapes]]
id = "scramble"
label = "Scramble"
sides = 3
result = "placed"
draws = true
stake = "first"
places = [
  { finish = "1", text = "First: +2 Coin", rewards = [{ resource = "coin", amount = 2 }] },
  { finish = "last", text = "Last: +1 Blisters", rewards = [{ counter = "blisters", amount = 1 }] },
]

[[record.epilogue]]
id = "toll"
text = "The last pays the first 1 Coin"
to = "place:1"
from = "last"
gain = [{ resource = "coin", amount = 1 }]
"#;

#[test]
fn records_of_two_or_three_sides_are_placed_and_win_the_stake() {
    let dir = util::temp();
    let mut s = campaign(dir.path(), SHAPES);
    let c = s.gang_named("C").unwrap().id;
    s.adjust_resource(c, "coin", 5, "purse").unwrap();
    // A Duel: B challenges A for the unclaimed Old Mill and wins.
    let duel = report(
        serde_json::json!({"shape": "Duel", "stake": "The Old Mill", "winner": "B",
        "gangs": [{"gang": "A"}, {"gang": "B", "challenger": true}]}),
    );
    s.record_battle(&duel, 1).unwrap();
    assert_eq!(holder_of(&s, "The Old Mill").as_deref(), Some("B"));
    // +3 to the winning challenger, and the last's 1 Coin (A has none).
    assert_eq!([coin(&s, "A"), coin(&s, "B")], [0, 3]);
    // A Scramble: C first, A second, B last; C takes the Old Mill from B.
    let scramble = report(
        serde_json::json!({"shape": "scramble", "stake": "The Old Mill",
        "gangs": [{"gang": "A", "place": 2}, {"gang": "B", "place": 3}, {"gang": "C", "place": 1}]}),
    );
    s.record_battle(&scramble, 2).unwrap();
    assert_eq!(holder_of(&s, "The Old Mill").as_deref(), Some("C"));
    // C: 5 + 2 + 1 (B's); B: 3 - 1; B's runners +1 Blisters.
    assert_eq!([coin(&s, "A"), coin(&s, "B"), coin(&s, "C")], [0, 2, 8]);
    assert_eq!(counter(&s, "B2", "blisters"), 1);
    // Two level at the top share first: no one takes the stake.
    let tied = report(
        serde_json::json!({"shape": "scramble", "stake": "The Old Mill",
        "gangs": [{"gang": "A", "place": 1}, {"gang": "B", "place": 1}, {"gang": "C", "place": 3}]}),
    );
    let done = s.record_battle(&tied, 3).unwrap();
    assert!(
        done.procedure
            .changes
            .iter()
            .any(|c| c.text == "The Old Mill stays with C")
    );
    // Places are read first to last, one side a place unless level.
    for (places, says) in [
        (
            [1, 1, 2],
            "gangs[2].place: 2 sides are placed ahead of it, so it is placed 3, not 2",
        ),
        ([1, 4, 2], "gangs[1].place: a place is 1 to 3, not 4"),
    ] {
        let bad = report(serde_json::json!({"shape": "scramble",
            "gangs": [{"gang": "A", "place": places[0]}, {"gang": "B", "place": places[1]}, {"gang": "C", "place": places[2]}]}));
        assert_eq!(s.preview_battle(&bad, 1).unwrap_err().to_string(), says);
    }
    for (json, says) in [
        (
            serde_json::json!({"shape": "scramble", "gangs": [{"gang": "A", "place": 1}, {"gang": "B"}, {"gang": "C", "place": 2}]}),
            "gangs[1].place: missing: a Scramble places every side",
        ),
        (
            serde_json::json!({"shape": "Duel", "winner": "A", "gangs": [{"gang": "A"}, {"gang": "B"}]}),
            "gangs: a Duel has a challenger: mark one band `challenger`",
        ),
        (
            serde_json::json!({"shape": "Duel", "gangs": [{"gang": "A", "challenger": true}, {"gang": "B"}]}),
            "winner: missing: a Duel has a winner (a draw is not one of its results)",
        ),
        (
            serde_json::json!({"shape": "Duel", "stake": "The Old Mill", "winner": "A", "gangs": [{"gang": "A", "challenger": true}, {"gang": "B"}]}),
            "stake: The Old Mill is held by C; a Duel is played for one held by the defender or unclaimed",
        ),
        (
            serde_json::json!({"shape": "Sprint", "gangs": [{"gang": "A"}, {"gang": "B"}]}),
            "shape: “Sprint” is not a shape of a race (Duel, Scramble)",
        ),
    ] {
        assert_eq!(
            s.preview_battle(&report(json), 1).unwrap_err().to_string(),
            says
        );
    }
}

#[test]
fn the_standings_rank_by_each_measure_in_turn_and_share_a_place_at_the_end() {
    let dir = util::temp();
    let extra = r#"
[standings]
label = "The Ladder"
by = ["resource:coin", "fewest:records", "wins"]

[[titles]]
id = "top"
name = "Top of the Ladder"
count = "standings"
"#;
    let mut s = campaign(dir.path(), extra);
    // Nobody has scored: every band shares first, and no one is on top.
    let view = s.standings().unwrap().unwrap();
    assert!(view.lines.iter().all(|l| l.place == 1 && l.shared));
    let race = |winner: &str, a: &str, b: &str| {
        report(serde_json::json!({"gangs": [{"gang": a}, {"gang": b}], "winner": winner}))
    };
    s.record_battle(&race("A", "A", "B"), 1).unwrap();
    for band in ["A", "B", "C"] {
        let id = s.gang_named(band).unwrap().id;
        s.adjust_resource(id, "coin", 2, "prize").unwrap();
    }
    // Level on 2 Coin: C has run fewest; of A and B (one race each), A won.
    let view = s.standings().unwrap().unwrap();
    let lines: Vec<(u32, bool, &str)> = view
        .lines
        .iter()
        .map(|l| (l.place, l.shared, l.gang.as_str()))
        .collect();
    assert_eq!(lines, [(1, false, "C"), (2, false, "A"), (3, false, "B")]);
    assert_eq!(view.columns, ["Coin", "Races (fewest first)", "Won"]);
    // The next race's titles: C first alone is Top of the Ladder.
    s.record_battle(&race("B", "B", "A"), 2).unwrap();
    assert_eq!(
        s.titles("runners").unwrap().titles[0].holder.as_deref(),
        Some("C")
    );
}

#[test]
fn a_faction_is_chosen_when_founded_and_holds_a_title_through_a_tie() {
    let dir = util::temp();
    let extra = r#"
[[factions]]
id = "north"
name = "North Road"

[[factions]]
id = "south"
name = "South Road"

[[holdings]]
id = "mill"
name = "Mill"

[[holdings]]
id = "ford"
name = "Ford"

[[titles]]
id = "road"
name = "Road Wardens"
holder = "faction"
count = "holdings"
ties = "holder_keeps"
"#;
    let mut s = Session::create_with(
        &dir.path().join("c.rapsheet"),
        "Races",
        "runners",
        registry(extra),
    )
    .unwrap();
    let e = s.found_gang("A", None).unwrap_err().to_string();
    assert_eq!(
        e,
        "faction: missing: every band belongs to a club (North Road, South Road)"
    );
    let found = |s: &mut Session, name: &str, road: &str| {
        let founding = rapsheet::campaign::commands::Founding {
            faction: Some(road),
            holding: None,
        };
        s.found_gang_with(name, None, founding).unwrap().0
    };
    let a = found(&mut s, "A", "North Road");
    let b = found(&mut s, "B", "south");
    for (band, id) in [("A", a), ("B", b)] {
        s.recruit(
            id,
            rapsheet::campaign::commands::NewFighter {
                name: format!("{band}1"),
                leader: true,
                ..Default::default()
            },
        )
        .unwrap();
    }
    s.give_holding("Mill", "A", "a deed").unwrap();
    let race = report(serde_json::json!({"gangs": [{"gang": "A"}, {"gang": "B"}], "winner": "A"}));
    let done = s.record_battle(&race, 1).unwrap();
    assert!(
        done.procedure
            .changes
            .iter()
            .any(|c| c.text == "North Road becomes Road Wardens")
    );
    // One stash each: a tie, and the holder keeps it.
    s.give_holding("Ford", "B", "a deed").unwrap();
    let done = s.record_battle(&race, 2).unwrap();
    assert!(
        !done
            .procedure
            .changes
            .iter()
            .any(|c| c.text.contains("Road Wardens"))
    );
    // Changed by hand: B joins the North Road, which then holds both.
    s.set_faction(b, "North Road").unwrap();
    assert_eq!(
        s.gang_view(b).unwrap().faction.as_deref(),
        Some("North Road")
    );
    let e = s.set_faction(b, "West").unwrap_err().to_string();
    assert_eq!(
        e,
        "faction: “West” is not a club of Runners (North Road, South Road)"
    );
}

#[test]
fn the_campaign_shapes_limits_are_pack_options() {
    let dir = util::temp();
    let extra = r#"
[[categories]]
id = "kind"
label = "Kind"

[[quirks]]
id = "sprinter"
name = "Sprinter"
category = "kind"
cost = 8

[[quirks]]
id = "pacer"
name = "Pacer"
category = "kind"
cost = 2

[[quirks]]
id = "lantern"
name = "Lantern"
category = "kind"
groups = ["lamplighters"]

[[groups]]
id = "lamplighters"
label = "Lamplighters"
size = 2

[[constraints]]
id = "one-sprinter"
message = "A band sets out with one Sprinter"
kind = "gang_count"
quirk = "sprinter"
allowed = [1]
founding = true

[[outcomes]]
id = "nabbed"
label = "Nabbed"
taken_down = true
effects = [{ kind = "capture" }]

[captives]
resource = "coin"
ransom = { by_cost = "entry:kind", percent = 50 }

[[record.awards]]
id = "crowd"
text = "Every runner of a band that races gains 1 Blister, running or not"
counter = "blisters"
amount = 1
to = "side"

[[grids]]
id = "purse"
name = "Purse"
rows_by = "members_with_side"
columns_by = "members"
columns = ["1", "2+"]
rows = [{ on = "0", values = [0, 0] }, { on = "1", values = [1, 3] }, { on = "2+", values = [5, 5] }]

[[record.lookups]]
id = "purse"
text = "The purse by the runners still with the band"
grid = "purse"
resource = "coin"
"#;
    let mut s = campaign(dir.path(), extra);
    // "Only a Lamplighter carries a lantern."
    let a1 = s.fighter_named("A1", None).unwrap();
    let e = s
        .set_quirks(a1.id, vec![rapsheet::campaign::QuirkPick::new("lantern")])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("only a member of Lamplighters may take Lantern"),
        "{e}"
    );
    // A founding rule: no Sprinter is a problem until the band has raced.
    let a = s.gang_named("A").unwrap().id;
    assert!(
        s.gang_view(a)
            .unwrap()
            .problems
            .iter()
            .any(|p| p.message.starts_with("A band sets out with one Sprinter"))
    );
    s.set_quirks(a1.id, vec![rapsheet::campaign::QuirkPick::new("sprinter")])
        .unwrap();
    let b1 = s.fighter_named("B1", None).unwrap();
    s.set_quirks(b1.id, vec![rapsheet::campaign::QuirkPick::new("pacer")])
        .unwrap();
    // A2 sits out and still gains a Blister; B1 nabbed: the purse reads
    // B's runners still with it (1) by its runners (2): 3 Coin.
    let race = report(serde_json::json!({
        "gangs": [
            {"gang": "A", "fighters": [{"fighter": "A1"}]},
            {"gang": "B", "fighters": [{"fighter": "B1", "outcome": "nabbed", "downed_by": "A1"}, {"fighter": "B2"}]},
        ],
        "winner": "A",
        "picks": [{"roll": "nabbed: B1", "pick": "hold"}],
    }));
    s.record_battle(&race, 1).unwrap();
    assert_eq!(counter(&s, "A2", "blisters"), 1);
    assert_eq!(coin(&s, "B"), 3);
    // Every A runner with the band (2): 5.
    assert_eq!(coin(&s, "A"), 5);
    // Raced: a second Sprinter is no problem now.
    let a2 = s.fighter_named("A2", None).unwrap();
    s.set_quirks(a2.id, vec![rapsheet::campaign::QuirkPick::new("sprinter")])
        .unwrap();
    assert!(
        !s.gang_view(a)
            .unwrap()
            .problems
            .iter()
            .any(|p| p.message.contains("Sprinter"))
    );
    // Ransomed at half what hiring B1 cost: a Pacer, 2.
    assert_eq!(s.captive_terms(b1.id).unwrap().ransom.unwrap().said, "1");
    s.ransom(b1.id, "coin", 1).unwrap();
    assert_eq!(coin(&s, "B"), 2);
}

#[test]
fn a_pack_that_misuses_a_season_kind_is_told_where_and_why() {
    let without_words = GAME.replace("holding = \"stash\"\nholdings = \"stashes\"\n", "");
    let mut registry = builtin_registry().unwrap();
    let e = registry
        .add_text(
            "runners.toml",
            &format!("{without_words}\n[[holdings]]\nid = \"m\"\nname = \"M\"\n"),
        )
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("words.holding: missing: what the game calls it, which [[holdings]] needs"),
        "{e}"
    );
    for (extra, says) in [
        (
            "\n[[holdings]]\nid = \"Bad Id\"\nname = \"M\"\n",
            "holdings.Bad Id: id `Bad Id` must be lower-case letters, digits, `-` or `_`",
        ),
        (
            "\n[[holdings]]\nid = \"m\"\nname = \"M\"\nincome = [{ resource = \"gold\", amount = 1 }]\n",
            "holdings.m.income[0].resource: resource `gold` is not in [[resources]]",
        ),
        (
            "\n[[holdings]]\nid = \"m\"\nname = \"M\"\nincome = [{ resource = \"coin\", amount = 1 }]\n",
            "holdings.m.income: income is paid at a cycle's end, and [cycles] has no `income` step",
        ),
        (
            "\n[[holdings]]\nid = \"m\"\nname = \"M\"\nunlocks = [\"kit:x\"]\n",
            "holdings.m.unlocks[0]: `kit:x`: expected entry:<id> or group:<id>",
        ),
        (
            "\n[[holdings]]\nid = \"m\"\nname = \"M\"\nmodifiers = [{ table = \"nope\", amount = 1 }]\n",
            "holdings.m.modifiers[0].table: table `nope` is not in [[tables]]",
        ),
        (
            "\n[[holdings]]\nid = \"m\"\nname = \"M\"\nper_record = [{ resource = \"coin\", counter = \"blisters\", amount = 1 }]\n",
            "holdings.m.per_record[0]: a reward gives a `resource` or a `counter`, one of the two",
        ),
        (
            "\n[cycles]\nends = \"played\"\n",
            "cycles.limit: missing: a cycle that ends when every gang has played its share needs the share",
        ),
        (
            "\n[cycles]\nends = \"by_hand\"\n[[cycles.end]]\nid = \"d\"\nkind = \"decay\"\ntext = \"t\"\nresource = \"coin\"\n",
            "cycles.end.d.amount: missing: its kind needs it",
        ),
        (
            "\n[cycles]\nends = \"by_hand\"\n[[cycles.end]]\nid = \"r\"\nkind = \"returns\"\ntext = \"t\"\namount = 1\n",
            "cycles.end.r.amount: a step of kind `returns` does not use it",
        ),
        (
            "\n[[record.shapes]]\nid = \"s\"\nlabel = \"S\"\nsides = 1\nresult = \"placed\"\n",
            "record.shapes.s.sides: a shape has 2 sides or more",
        ),
        (
            "\n[[record.shapes]]\nid = \"s\"\nlabel = \"S\"\nsides = 3\nresult = \"challenge\"\n",
            "record.shapes.s.sides: a challenge has 2 sides",
        ),
        (
            "\n[[record.shapes]]\nid = \"s\"\nlabel = \"S\"\nsides = 3\nresult = \"placed\"\nstake = \"first\"\n",
            "record.shapes.s.stake: the pack has no [[holdings]] to stake",
        ),
        (
            "\n[[record.shapes]]\nid = \"s\"\nlabel = \"S\"\nsides = 3\nresult = \"placed\"\nplaces = [{ finish = \"draw\", text = \"t\", rewards = [] }]\n",
            "record.shapes.s.places[0].finish: a S has no draws (`draws = true`)",
        ),
        (
            "\n[[record.shapes]]\nid = \"s\"\nlabel = \"S\"\nsides = 3\nresult = \"placed\"\nplaces = [{ finish = \"5\", text = \"t\", rewards = [] }]\n",
            "record.shapes.s.places[0].finish: a S has at most 3 sides",
        ),
        (
            "\n[[record.epilogue]]\nid = \"e\"\ntext = \"t\"\nto = \"loser\"\ngain = [{ resource = \"coin\", amount = 1 }]\n",
            "record.epilogue.e.to: `loser` is the other side of two, and a record of Runners may have 3 sides: say `last` or `place:<n>`",
        ),
        (
            "\n[[record.epilogue]]\nid = \"e\"\ntext = \"t\"\nto = \"winner\"\nfrom_rival = true\ngain = [{ resource = \"coin\", amount = 1 }]\n",
            "record.epilogue.e.from_rival: the rival is the other side of two, and a record of Runners may have 3 sides",
        ),
        (
            "\n[[record.epilogue]]\nid = \"e\"\ntext = \"t\"\nto = \"place:1\"\ngain = [{ resource = \"coin\", amount = 1 }]\n",
            "record.epilogue.e.to: a place is named only where records are placed ([[record.shapes]])",
        ),
        (
            "\n[standings]\nlabel = \"L\"\nby = []\n",
            "standings.by: missing: what ranks the gangs",
        ),
        (
            "\n[standings]\nlabel = \"L\"\nby = [\"resource:gold\"]\n",
            "standings.by[0]: resource `gold` is not in [[resources]]",
        ),
        (
            "\n[standings]\nlabel = \"L\"\nby = [\"fewest:head_to_head\"]\n",
            "standings.by[0]: `fewest:head_to_head`: expected",
        ),
        (
            "\n[[titles]]\nid = \"t\"\nname = \"T\"\ncount = \"standings\"\n",
            "titles.t.count: the pack has no [standings]",
        ),
        (
            "\n[[titles]]\nid = \"t\"\nname = \"T\"\nresource = \"coin\"\nholder = \"faction\"\n",
            "titles.t.holder: the pack has no [[factions]]",
        ),
        (
            "\n[[outcomes]]\nid = \"o\"\nlabel = \"O\"\neffects = [{ kind = \"laid_up\", until = \"cycle\" }]\n",
            "outcomes.o: lasts until the cycle ends, and the pack has no [cycles]",
        ),
        (
            "\n[[quirks]]\nid = \"q\"\nname = \"Q\"\ncategory = \"x\"\ngroups = [\"nope\"]\n[[categories]]\nid = \"x\"\nlabel = \"X\"\n",
            "quirks.q.groups: group `nope` is not in [[groups]]",
        ),
        (
            "\n[captives]\nresource = \"coin\"\nransom = { by_cost = \"entry:nope\" }\n",
            "captives.ransom.by_cost: category `nope` is not in [[categories]]",
        ),
        (
            "\n[captives]\nresource = \"coin\"\nransom = { fixed = 2, percent = 50 }\n",
            "captives.ransom.percent: a share is of `by_cost`, which is missing",
        ),
    ] {
        let e = refused(extra);
        assert!(e.contains(says), "{extra}\n  said: {e}\n  wanted: {says}");
    }
}

// ---------------------------------------------------------------------------
// A club's season between records: challenges over a stash, and a week's
// pairings.
// ---------------------------------------------------------------------------

/// Dares of two bands over a stash (a duel), two a week, a decline and an
/// unanswered dare giving the stash to the challenger.
const DARES: &str = r#"
[[record.shapes]]
id = "duel"
label = "Duel"
sides = 2
result = "challenge"
stake = "challenger"
stake_from = ["defender", "unclaimed"]
places = [
  { finish = "win", side = "challenger", text = "A challenger who wins: +3 Coin", rewards = [{ resource = "coin", amount = 3 }] },
]

[challenges]
label = "Dare"
shape = "duel"
stake = "required"
decline = "stake_to_challenger"
unanswered = "declined"
unplayed = "stake_to_challenger"
per_cycle = 2
"#;

fn dares(decline: &str) -> String {
    format!(
        "{SEASON}{}",
        DARES.replace(
            "decline = \"stake_to_challenger\"\nunanswered = \"declined\"",
            &format!("decline = \"{decline}\"\nunanswered = \"lapses\""),
        )
    )
}

fn dare_status(s: &Session, id: i64) -> String {
    let view = s.challenges().unwrap().unwrap();
    let line = view.lines.iter().find(|l| l.id.0 == id).unwrap();
    match line.played {
        Some(_) => "played".to_owned(),
        None => line.status.word().to_owned(),
    }
}

#[test]
fn a_challenge_is_issued_answered_played_and_lapses_as_the_pack_says() {
    let dir = util::temp();
    let game = format!("{SEASON}{DARES}");
    let mut s = campaign(dir.path(), &game);
    s.give_holding("The Old Mill", "B", "bought").unwrap();
    // A stake is required; it is held where a duel's stake may be.
    let e = s.issue_challenge("A", "B", None).unwrap_err().to_string();
    assert_eq!(
        e,
        "stake: missing: the stash at stake, which every Dare names"
    );
    let e = s
        .issue_challenge("C", "A", Some("The Old Mill"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "stake: The Old Mill is held by B; a Dare is played for one held by the defender or unclaimed"
    );
    let e = s
        .issue_challenge("A", "A", Some("The Old Mill"))
        .unwrap_err()
        .to_string();
    assert_eq!(e, "gangs: a band does not issue a Dare to itself");
    // Issued, then taken back by its author while unanswered: gone.
    let issued = s.issue_challenge("A", "B", Some("The Old Mill")).unwrap();
    assert_eq!(
        s.batch_label(issued.batch).unwrap(),
        "Dare #1: A against B for The Old Mill"
    );
    s.undo_last().unwrap();
    assert!(s.challenges().unwrap().unwrap().lines.is_empty());
    // Declined: "decline = stake_to_challenger", in the same change.
    let issued = s.issue_challenge("A", "B", Some("The Old Mill")).unwrap();
    let answered = s.answer_challenge(issued.challenge, false).unwrap();
    assert_eq!(
        answered.changes,
        [
            "Dare #1 declined",
            "A took The Old Mill from B (Dare #1 declined)"
        ]
    );
    assert_eq!(holder_of(&s, "The Old Mill").as_deref(), Some("A"));
    let e = s
        .answer_challenge(issued.challenge, true)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "challenge: Dare #1 is declined already");
    // Answered, its issue is no longer taken back.
    let e = format!("{:#}", s.undo(issued.batch).unwrap_err());
    assert!(e.contains("only one still unanswered is withdrawn"), "{e}");
    // "per_cycle = 2": A's third dare of the week is refused.
    s.issue_challenge("A", "C", Some("The Toll Bridge"))
        .unwrap();
    let e = s
        .issue_challenge("A", "B", Some("The Toll Bridge"))
        .unwrap_err()
        .to_string();
    assert_eq!(e, "challenger: A has issued 2 this week already, its most");
    // Accepted and played: the record's sides and stake come from it.
    let played = s
        .issue_challenge("B", "C", Some("The Toll Bridge"))
        .unwrap();
    s.answer_challenge(played.challenge, true).unwrap();
    let mut race = report(serde_json::json!({
        "gangs": [{"gang": "C"}, {"gang": "B"}], "winner": "B"}));
    race.challenge = Some(played.challenge);
    let e = s
        .record_battle(
            &{
                let mut r = race.clone();
                r.stake = Some("The Old Mill".into());
                r
            },
            1,
        )
        .unwrap_err()
        .to_string();
    assert_eq!(e, "stake: Dare #3 is played for The Toll Bridge");
    let done = s.record_battle(&race, 1).unwrap();
    assert_eq!(done.procedure.battle.challenge, Some(played.challenge));
    assert!(
        done.procedure
            .battle
            .gangs
            .iter()
            .any(|g| g.challenger && g.gang == s.gang_named("B").unwrap().id)
    );
    assert_eq!(holder_of(&s, "The Toll Bridge").as_deref(), Some("B"));
    assert_eq!(dare_status(&s, 3), "played");
    let e = s.record_battle(&race, 2).unwrap_err().to_string();
    assert!(e.starts_with("challenge: Dare #3 has been played"), "{e}");
    // At the week's end: A's dare to C, unanswered, counts as declined
    // (the Toll Bridge was B's by then: no longer C's to give, nothing);
    // C's dare to A, accepted and unplayed, gives C the Old Mill.
    let against = s.issue_challenge("C", "A", Some("The Old Mill")).unwrap();
    s.answer_challenge(against.challenge, true).unwrap();
    let end = s.preview_cycle_end(&BattleReport::empty(), 1).unwrap();
    let said: Vec<String> = end.changes.iter().map(|c| c.said()).collect();
    assert!(
        said.contains(&"Dare #2 (A against C) lapses unplayed".to_owned()),
        "{said:?}"
    );
    assert!(
        said.contains(&"C: takes The Old Mill, its Dare unplayed".to_owned()),
        "{said:?}"
    );
    s.end_cycle(&BattleReport::empty(), 1).unwrap();
    assert_eq!(dare_status(&s, 2), "lapsed");
    assert_eq!(dare_status(&s, 4), "lapsed");
    assert_eq!(holder_of(&s, "The Old Mill").as_deref(), Some("C"));
    // The end taken back: both stand again, the Old Mill A's.
    s.undo_last().unwrap();
    assert_eq!(dare_status(&s, 2), "issued");
    assert_eq!(dare_status(&s, 4), "accepted");
    assert_eq!(holder_of(&s, "The Old Mill").as_deref(), Some("A"));
    // From the command line, alike.
    drop(s);
    let listed = cli(dir.path(), &game, &["challenge", "list"]);
    assert!(
        listed.contains(
            "Week 1: Dare #2: A against C for The Toll Bridge — issued (yours to answer)"
        ),
        "{listed}"
    );
    let json = cli(dir.path(), &game, &["challenge", "list", "--json"]);
    let view: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(view["label"], "Dare");
    assert_eq!(view["lines"][0]["status"], "accepted");
    cli(dir.path(), &game, &["verify"]);
}

#[test]
fn a_decline_allowed_once_a_week_refuses_the_second() {
    let dir = util::temp();
    let mut s = campaign(dir.path(), &dares("once_a_cycle"));
    let one = s.issue_challenge("A", "C", Some("The Old Mill")).unwrap();
    let two = s
        .issue_challenge("B", "C", Some("The Toll Bridge"))
        .unwrap();
    let declined = s.answer_challenge(one.challenge, false).unwrap();
    // Nothing changes hands.
    assert_eq!(declined.changes, ["Dare #1 declined"]);
    let e = s
        .answer_challenge(two.challenge, false)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "accepted: C has declined a Dare this week already, and declines one a week at most"
    );
    s.answer_challenge(two.challenge, true).unwrap();
    // "decline = nothing": any number, giving nothing.
    let dir = util::temp();
    let mut s = campaign(dir.path(), &dares("nothing"));
    for from in ["A", "B"] {
        let c = s.issue_challenge(from, "C", Some("The Old Mill")).unwrap();
        let said = s.answer_challenge(c.challenge, false).unwrap();
        assert_eq!(said.changes.len(), 1);
    }
    assert_eq!(holder_of(&s, "The Old Mill"), None);
}

/// The week's pairings: every way, and the standings by Coin.
const PAIRED: &str = r#"
[standings]
label = "The Board"
by = ["resource:coin"]

[pairings]
label = "Heats"
by = ["round_robin", "standings", "random"]
"#;

fn heats(s: &Session) -> (Vec<(String, String, usize)>, Option<String>) {
    let made = s.pairings().unwrap().unwrap().made.unwrap();
    (
        made.pairs
            .iter()
            .map(|p| (p.first.clone(), p.second.clone(), p.played.len()))
            .collect(),
        made.sits_out,
    )
}

#[test]
fn pairings_are_made_once_a_week_each_way_the_pack_allows() {
    let dir = util::temp();
    let game = format!("{SEASON}{PAIRED}");
    let mut s = campaign(dir.path(), &game);
    // Round robin (the first way) of three: one sits out.
    let made = s.make_pairings(None, 1).unwrap();
    assert_eq!(s.batch_label(made.batch).unwrap(), "Heats of Week 1");
    let (pairs, out) = heats(&s);
    assert_eq!(pairs, [("B".to_owned(), "C".to_owned(), 0)]);
    assert_eq!(out.as_deref(), Some("A"));
    let e = s.make_pairings(None, 1).unwrap_err().to_string();
    assert_eq!(e, "the Heats of Week 1 are made already");
    // A record between a pair's bands plays it.
    s.record_battle(
        &report(serde_json::json!({"gangs": [{"gang": "C"}, {"gang": "B"}]})),
        1,
    )
    .unwrap();
    assert_eq!(heats(&s).0[0].2, 1);
    // Taken back, and made by the standings instead: B leads on Coin.
    s.undo_last().unwrap();
    s.undo_last().unwrap();
    let b = s.gang_named("B").unwrap().id;
    s.adjust_resource(b, "coin", 5, "purse").unwrap();
    s.make_pairings(Some(rapsheet::rules::PairingMethod::Standings), 1)
        .unwrap();
    let (pairs, out) = heats(&s);
    // B first, then A and C level (by name); the lowest placed sits out.
    assert_eq!(pairs, [("B".to_owned(), "A".to_owned(), 0)]);
    assert_eq!(out.as_deref(), Some("C"));
    // Each week a band that has sat out fewest sits out.
    let mut sat = vec![out.unwrap()];
    for week in 2..=3 {
        s.end_cycle(&BattleReport::empty(), 1).unwrap();
        s.make_pairings(Some(rapsheet::rules::PairingMethod::Random), week)
            .unwrap();
        let (_, out) = heats(&s);
        assert!(
            !sat.contains(out.as_ref().unwrap()),
            "{out:?} sat out again"
        );
        sat.push(out.unwrap());
    }
    // A draw is the same from the same seed, and keeps it.
    let view = s.pairings().unwrap().unwrap();
    assert_eq!(view.made.unwrap().seed, Some(3));
    // From the command line.
    drop(s);
    let shown = cli(dir.path(), &game, &["pairings", "show"]);
    assert!(shown.starts_with("Heats of Week 3\n"), "{shown}");
    assert!(shown.contains(" sits out"), "{shown}");
    let out = util::rapsheet(
        dir.path(),
        &[
            "--pack",
            "runners.toml",
            "pairings",
            "make",
            "--by",
            "swiss",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    let e = util::stderr(&out);
    assert!(
        e.contains("--by swiss: expected round-robin, standings or random"),
        "{e}"
    );
    cli(dir.path(), &game, &["verify"]);
}

#[test]
fn a_pack_that_misuses_challenges_or_pairings_is_told_where_and_why() {
    let cycles = "\n[cycles]\nends = \"by_hand\"\n";
    let duel = "\n[[holdings]]\nid = \"m\"\nname = \"M\"\n[[record.shapes]]\nid = \"duel\"\nlabel = \"Duel\"\nsides = 2\nresult = \"challenge\"\nstake = \"challenger\"\n[[record.shapes]]\nid = \"heap\"\nlabel = \"Heap\"\nsides = 3\nresult = \"placed\"\n";
    let plain_duel =
        "\n[[record.shapes]]\nid = \"duel\"\nlabel = \"Duel\"\nsides = 2\nresult = \"challenge\"\n";
    for (extra, says) in [
        (
            format!(
                "{duel}\n[challenges]\nlabel = \"Dare\"\nshape = \"duel\"\ndecline = \"nothing\"\n"
            ),
            "challenges: a challenge lapses at a cycle's end, and the pack has no [cycles]",
        ),
        (
            format!(
                "{cycles}{duel}\n[challenges]\nlabel = \"Dare\"\nshape = \"nope\"\ndecline = \"nothing\"\n"
            ),
            "challenges.shape: shape `nope` is not in [[record.shapes]]",
        ),
        (
            format!(
                "{cycles}{duel}\n[challenges]\nlabel = \"Dare\"\nshape = \"heap\"\ndecline = \"nothing\"\n"
            ),
            "challenges.shape: a Heap is placed first to last",
        ),
        (
            format!(
                "{cycles}{plain_duel}\n[challenges]\nlabel = \"Dare\"\nshape = \"duel\"\nstake = \"required\"\ndecline = \"nothing\"\n"
            ),
            "challenges.stake: a Duel has no `stake`",
        ),
        (
            format!(
                "{cycles}{plain_duel}\n[challenges]\nlabel = \"Dare\"\nshape = \"duel\"\ndecline = \"stake_to_challenger\"\n"
            ),
            "challenges.decline: nothing is at stake in a challenge to give the challenger",
        ),
        (
            format!(
                "{cycles}{plain_duel}\n[challenges]\nlabel = \"Dare\"\nshape = \"duel\"\ndecline = \"nothing\"\nunplayed = \"stake_to_challenger\"\n"
            ),
            "challenges.unplayed: nothing is at stake in a challenge to give the challenger",
        ),
        (
            format!(
                "{cycles}{duel}\n[challenges]\nlabel = \"Dare\"\nshape = \"duel\"\ndecline = \"once_a_cycle\"\nunanswered = \"declined\"\n"
            ),
            "challenges.unanswered: a decline gives nothing here (`once_a_cycle`): say `lapses`",
        ),
        (
            format!(
                "{cycles}{duel}\n[challenges]\nlabel = \"Dare\"\nshape = \"duel\"\ndecline = \"nothing\"\nper_cycle = 0\n"
            ),
            "challenges.per_cycle: a gang issues at least 1 challenge in a cycle",
        ),
        (
            format!(
                "{cycles}{duel}\n[challenges]\nlabel = \" \"\nshape = \"duel\"\ndecline = \"nothing\"\n"
            ),
            "challenges.label: missing: what it is called",
        ),
        (
            format!(
                "{cycles}{duel}\n[challenges]\nlabel = \"Dare\"\nshape = \"duel\"\ndecline = \"sulk\"\n"
            ),
            "unknown variant `sulk`, expected one of `stake_to_challenger`, `nothing`, `once_a_cycle`",
        ),
        (
            "\n[pairings]\nlabel = \"Heats\"\nby = [\"random\"]\n".to_owned(),
            "pairings: pairings are made once a cycle, and the pack has no [cycles]",
        ),
        (
            format!("{cycles}\n[pairings]\nlabel = \"Heats\"\nby = []\n"),
            "pairings.by: missing: how the pairings are made",
        ),
        (
            format!("{cycles}\n[pairings]\nlabel = \"Heats\"\nby = [\"random\", \"random\"]\n"),
            "pairings.by[1]: `random` is given twice",
        ),
        (
            format!("{cycles}\n[pairings]\nlabel = \"Heats\"\nby = [\"standings\"]\n"),
            "pairings.by[0]: the pack has no [standings]",
        ),
        (
            format!("{cycles}\n[pairings]\nlabel = \"Heats\"\nby = [\"swiss\"]\n"),
            "unknown variant `swiss`, expected one of `round_robin`, `standings`, `random`",
        ),
    ] {
        let e = refused(&extra);
        assert!(e.contains(says), "{extra}\n  said: {e}\n  wanted: {says}");
    }
}
