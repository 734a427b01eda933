//! The chronicle and its exports against a campaign built the same way
//! every time: the demo gangs on plain Heartbreaker (rule text 003) play a
//! whole arc (First Blood, Score to Settle, Heartbreaker), take a resource
//! action between battles, declare and claim bounties, win titles, and begin
//! a second arc. The exports are compared to golden files (rewritten with
//! `UPDATE_GOLDEN=1`), the JSON is checked against
//! `docs/chronicle.schema.json`, and every arc rule cites the sentence of
//! 003 it checks in a `// 003: "…"` comment.

use crate::util;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rapsheet::campaign::GangId;
use rapsheet::campaign::battle::BattleReport;
use rapsheet::campaign::chronicle::{ArcStory, Chronicle};
use rapsheet::campaign::commands::NewFighter;
use rapsheet::export::{Export, Format, render};
use rapsheet::session::{Recorded, Session};
use serde_json::{Value, json};
use util::{rapsheet, stderr, stdout};

const SAINTS: &str = "The Rust Saints";
const JACKALS: &str = "Neon Jackals";
const CAMPAIGN: &str = "Instrydia Undercity";
/// The seed of every battle (plain Heartbreaker rolls nothing, but the
/// procedure takes one).
const SEED: u64 = 3;

// ---------------------------------------------------------------------------
// The fixture
// ---------------------------------------------------------------------------

/// A campaign file in a temporary folder and the session open on it.
struct Campaign {
    _guard: tempfile::TempDir,
    dir: PathBuf,
    session: Session,
}

/// A report; a gang that declares no bounty in it records "no
/// declaration" (ruling bounty-no-declaration).
fn report(value: Value) -> BattleReport {
    let mut r: BattleReport = serde_json::from_value(value).expect("a well-formed report");
    util::declare_nothing(&mut r);
    r
}

fn gang_id(session: &Session, name: &str) -> GangId {
    session.gang_named(name).expect("gang").id
}

/// Records a battle whose report already holds every choice the rules ask
/// for (the fixture's title choices are written out in its reports).
fn record(session: &mut Session, value: Value) -> Recorded {
    let report = report(value);
    let preview = session.preview_battle(&report, SEED).expect("preview");
    assert!(
        preview.needed.is_empty(),
        "a choice is missing: {:#?}",
        preview.needed
    );
    session.record_battle(&report, SEED).expect("record")
}

/// The demo campaign, switched to plain Heartbreaker (no injury rolls).
fn demo() -> (tempfile::TempDir, PathBuf, Session) {
    let guard = util::temp();
    let dir = guard.path().to_path_buf();
    let mut session = Session::create_demo(&dir.join("c.rapsheet")).expect("demo");
    session
        .set_campaign_ruleset("heartbreaker")
        .expect("plain Heartbreaker");
    (guard, dir, session)
}

/// Battle #1, Dead Drop (First Blood): the Saints extract 3 caches to the
/// Jackals' 1 and win. Brick is taken down by Vex Ninefingers; Static
/// (removed) by Mother Cinder and Hush by Brick. The Saints put a bounty on
/// Vex, the Jackals on Brick. The Saints lead in Supply (3) and Reputation
/// (2) and choose Legend; Quartermaster goes to the Jackals (1 Supply).
fn first_blood() -> Value {
    json!({
        "scenario": "Dead Drop",
        "gangs": [
            {"gang": SAINTS, "counts": {"caches": 3}, "fighters": [
                {"fighter": "Mother Cinder"},
                {"fighter": "Brick", "outcome": "taken_down", "downed_by": "Vex Ninefingers"},
                {"fighter": "Saint Vitriol"},
                {"fighter": "Hollow Jack"},
                {"fighter": "Dross"},
                {"fighter": "Sister Slag"},
            ]},
            {"gang": JACKALS, "counts": {"caches": 1}, "fighters": [
                {"fighter": "Vex Ninefingers"},
                {"fighter": "Static", "outcome": "removed", "downed_by": "Mother Cinder"},
                {"fighter": "Hush", "outcome": "taken_down", "downed_by": "Brick"},
                {"fighter": "Gutterglass"},
                {"fighter": "Pipebomb Pell"},
                {"fighter": "Wren"},
            ]},
        ],
        "winner": SAINTS,
        "bounties": [
            {"by": SAINTS, "fighter": "Vex Ninefingers"},
            {"by": JACKALS, "fighter": "Brick"},
        ],
        "titles": [{"gang": SAINTS, "title": "Legend"}],
        "notes": "The Death Squad's sirens were already in the tunnels.",
    })
}

/// Battle #2, Catch and Release (Score to Settle), roles as suggested: the
/// Jackals lost battle #1 and are the Captors. They win. Vex Ninefingers
/// takes down Brick (claiming his bounty for the Jackals) and removes Dross,
/// Gutterglass takes down Mother Cinder, Sister Slag takes down Wren.
/// Bounties: Vex (now 2) and Mother Cinder. The Jackals now lead in
/// Territory and Reputation and are tied for Supply with Quartermaster in
/// hand; they could keep it without choosing, but choose Legend (ruling
/// title-standing-choice: "it may choose another at any comparison"), so
/// Quartermaster passes to the Saints and Legend leaves them.
fn score_to_settle(saints_role: &str, jackals_role: &str) -> Value {
    json!({
        "scenario": "Catch and Release",
        "gangs": [
            {"gang": SAINTS, "role": saints_role, "fighters": [
                {"fighter": "Mother Cinder", "outcome": "taken_down", "downed_by": "Gutterglass"},
                {"fighter": "Brick", "outcome": "taken_down", "downed_by": "Vex Ninefingers"},
                {"fighter": "Saint Vitriol"},
                {"fighter": "Hollow Jack"},
                {"fighter": "Dross", "outcome": "removed", "downed_by": "Vex Ninefingers"},
                {"fighter": "Sister Slag"},
            ]},
            {"gang": JACKALS, "role": jackals_role, "fighters": [
                {"fighter": "Vex Ninefingers"},
                {"fighter": "Static"},
                {"fighter": "Hush"},
                {"fighter": "Gutterglass"},
                {"fighter": "Pipebomb Pell"},
                {"fighter": "Wren", "outcome": "taken_down", "downed_by": "Sister Slag"},
            ]},
        ],
        "winner": JACKALS,
        "bounties": [
            {"by": SAINTS, "fighter": "Vex Ninefingers"},
            {"by": JACKALS, "fighter": "Mother Cinder"},
        ],
        "titles": [{"gang": JACKALS, "title": "Legend"}],
    })
}

/// Battle #3, Winner Takes All (Heartbreaker): the Saints win and take 3
/// Ammo. Vex Ninefingers takes down Mother Cinder (claiming her bounty),
/// then falls with no rival named (keeping his); Saint Vitriol takes down
/// Wren. Bounties: Vex (now 3) and Saint Vitriol.
fn heartbreaker() -> Value {
    json!({
        "scenario": "Winner Takes All",
        "gangs": [
            {"gang": SAINTS, "counts": {"loot": 9}, "fighters": [
                {"fighter": "Mother Cinder", "outcome": "taken_down", "downed_by": "Vex Ninefingers"},
                {"fighter": "Brick"},
                {"fighter": "Saint Vitriol"},
                {"fighter": "Hollow Jack"},
                {"fighter": "Dross"},
                {"fighter": "Sister Slag"},
            ]},
            {"gang": JACKALS, "counts": {"loot": 5}, "fighters": [
                {"fighter": "Vex Ninefingers", "outcome": "taken_down"},
                {"fighter": "Static"},
                {"fighter": "Hush"},
                {"fighter": "Gutterglass"},
                {"fighter": "Pipebomb Pell"},
                {"fighter": "Wren", "outcome": "taken_down", "downed_by": "Saint Vitriol"},
            ]},
        ],
        "winner": SAINTS,
        "choices": [{"gang": SAINTS, "rule": "winner", "pick": "ammo"}],
        "bounties": [
            {"by": SAINTS, "fighter": "Vex Ninefingers"},
            {"by": JACKALS, "fighter": "Saint Vitriol"},
        ],
        "notes": "Vex fell through the loading-dock grating; nobody claimed it.",
    })
}

/// Battle #4, Seize Production (First Blood of a second arc, left open):
/// the Jackals win 10 Control Points to 4 and pick Territory; the Saints
/// pick Supply. Pipebomb Pell takes down Sister Slag; the Jackals put a
/// bounty on Hollow Jack.
fn second_first_blood() -> Value {
    json!({
        "scenario": "Seize Production",
        "gangs": [
            {"gang": SAINTS, "counts": {"control-points": 4}, "fighters": [
                {"fighter": "Mother Cinder"},
                {"fighter": "Brick"},
                {"fighter": "Saint Vitriol"},
                {"fighter": "Hollow Jack"},
                {"fighter": "Dross"},
                {"fighter": "Sister Slag", "outcome": "taken_down", "downed_by": "Pipebomb Pell"},
            ]},
            {"gang": JACKALS, "counts": {"control-points": 10}},
        ],
        "winner": JACKALS,
        "choices": [
            {"gang": JACKALS, "rule": "winner", "pick": "territory"},
            {"gang": SAINTS, "rule": "loser", "pick": "supply"},
        ],
        "bounties": [{"by": JACKALS, "fighter": "Hollow Jack"}],
    })
}

/// The fixture: battles #1–#3 form arc 1, closed by its Heartbreaker
/// battle; between #1 and #2 the Jackals are given 3 Territory and spend it
/// on Protection Racket against the Saints (taking 1 Supply); battle #4
/// opens arc 2.
fn campaign() -> Campaign {
    let (guard, dir, mut s) = demo();
    let saints = gang_id(&s, SAINTS);
    let jackals = gang_id(&s, JACKALS);
    record(&mut s, first_blood());

    s.adjust_resource(
        jackals,
        "territory",
        3,
        "salvage rights in the transit spine",
    )
    .expect("give Territory");
    s.take_action(jackals, "protection-racket", Some(saints), Some("supply"))
        .expect("Protection Racket");

    let (saints_role, jackals_role) = s
        .suggest_roles("Catch and Release", saints, jackals)
        .expect("roles")
        .expect("battle #1 had a winner");
    record(&mut s, score_to_settle(&saints_role, &jackals_role));
    record(&mut s, heartbreaker());
    record(&mut s, second_first_blood());
    Campaign {
        _guard: guard,
        dir,
        session: s,
    }
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn export_of(session: &Session, scope: &str, format: Format) -> Vec<u8> {
    let story = session.chronicle().expect("chronicle");
    let chronicle = match scope.strip_prefix("arc ") {
        Some(id) => session
            .arc_story(&story, id.parse().expect("arc id"))
            .expect("arc story")
            .expect("arc"),
        None => story,
    };
    let campaign = session.info().expect("info").name;
    render(
        &Export {
            campaign: &campaign,
            scope: scope.to_owned(),
            chronicle: &chronicle,
        },
        format,
    )
    .expect("render")
}

fn text_of(session: &Session, scope: &str, format: Format) -> String {
    String::from_utf8(export_of(session, scope, format)).expect("utf-8")
}

fn json_of(session: &Session, scope: &str) -> Value {
    serde_json::from_slice(&export_of(session, scope, Format::Json)).expect("json")
}

/// Sets every `at` (a timestamp) to "", at any depth.
fn blank_at(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if key == "at" {
                    *v = Value::String(String::new());
                } else {
                    blank_at(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(blank_at),
        _ => {}
    }
}

/// The pretty-printed export with each `"at": "…"` line's value blanked,
/// keeping the export's own key order.
fn blank_at_text(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for line in json.lines() {
        let rest = line.trim_start();
        let indent = &line[..line.len() - rest.len()];
        if rest.starts_with("\"at\": ") {
            let comma = if rest.ends_with(',') { "," } else { "" };
            out.push_str(&format!("{indent}\"at\": \"\"{comma}"));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Every `at` value, at any depth.
fn timestamps(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("at", Value::String(at)) => out.push(at.clone()),
                    _ => timestamps(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| timestamps(v, out)),
        _ => {}
    }
}

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
        .join(name)
}

/// Compares `actual` to the golden file, or rewrites the file when
/// `UPDATE_GOLDEN=1`.
fn golden(name: &str, actual: &str) {
    let path = golden_path(name);
    if std::env::var("UPDATE_GOLDEN").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("golden dir");
        std::fs::write(&path, actual).expect("write golden");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from the export, first at line {}:\n  golden: {:?}\n  export: {:?}\n\
             (run with UPDATE_GOLDEN=1 to accept the export)",
            path.display(),
            first + 1,
            expected.lines().nth(first),
            actual.lines().nth(first)
        );
    }
}

fn cli(dir: &Path, args: &[&str]) -> String {
    let out = rapsheet(dir, args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// `rapsheet arc list --json`.
fn arc_list(dir: &Path) -> Value {
    let text = cli(dir, &["arc", "list", "--json", "--db", "c.rapsheet"]);
    serde_json::from_str(&text).expect("arc list json")
}

fn arc(list: &Value, id: u64) -> &Value {
    list.as_array()
        .expect("arcs")
        .iter()
        .find(|a| a["id"] == id)
        .unwrap_or_else(|| panic!("no arc {id} in {list:#}"))
}

fn battles_of(story: &Chronicle) -> Vec<(i64, String)> {
    story
        .battles
        .iter()
        .map(|b| (b.battle, b.scenario.clone().unwrap_or_default()))
        .collect()
}

// ---------------------------------------------------------------------------
// The schema, checked by the jsonschema crate (draft 2020-12)
// ---------------------------------------------------------------------------

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/chronicle.schema.json");
    let text = std::fs::read_to_string(&path).expect("docs/chronicle.schema.json");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// Where an error is, as a JSONPath (`$.arcs[0].next`) from its JSON
/// Pointer (`/arcs/0/next`).
fn json_path(pointer: &str) -> String {
    let mut path = "$".to_owned();
    for part in pointer.split('/').skip(1) {
        let part = part.replace("~1", "/").replace("~0", "~");
        if part.parse::<usize>().is_ok() {
            path.push_str(&format!("[{part}]"));
        } else {
            path.push_str(&format!(".{part}"));
        }
    }
    path
}

/// Every way `value` breaks the schema, each as `PATH: WHAT`.
fn validate(value: &Value) -> Vec<String> {
    let validator =
        jsonschema::draft202012::new(&schema()).expect("the schema is a draft 2020-12 schema");
    validator
        .iter_errors(value)
        .map(|e| format!("{}: {e}", json_path(&e.instance_path().to_string())))
        .collect()
}

fn assert_valid(what: &str, value: &Value) {
    let errors = validate(value);
    assert!(errors.is_empty(), "{what} breaks the schema:\n{errors:#?}");
}

// ---------------------------------------------------------------------------
// 1. Golden exports
// ---------------------------------------------------------------------------

#[test]
fn the_campaign_markdown_matches_its_golden_file() {
    let c = campaign();
    golden(
        "chronicle-campaign.md",
        &text_of(&c.session, "campaign", Format::Markdown),
    );
}

#[test]
fn the_arc_markdown_matches_its_golden_file() {
    let c = campaign();
    golden(
        "chronicle-arc1.md",
        &text_of(&c.session, "arc 1", Format::Markdown),
    );
}

#[test]
fn the_campaign_json_matches_its_golden_file_with_timestamps_blanked() {
    let c = campaign();
    let text = text_of(&c.session, "campaign", Format::Json);
    let blanked = blank_at_text(&text);
    // Every `at` was blanked, and nothing else changed.
    let mut value: Value = serde_json::from_str(&text).expect("json");
    blank_at(&mut value);
    assert_eq!(
        serde_json::from_str::<Value>(&blanked).expect("json"),
        value
    );
    golden("chronicle-campaign.json", &blanked);
}

#[test]
fn the_markdown_and_html_hold_no_timestamp() {
    let c = campaign();
    let mut at = Vec::new();
    timestamps(&json_of(&c.session, "campaign"), &mut at);
    // Four battles and one action, each with its time.
    assert_eq!(at.len(), 5, "{at:?}");
    assert!(at.iter().all(|t| !t.is_empty()), "{at:?}");
    for scope in ["campaign", "arc 1", "arc 2"] {
        for format in [Format::Markdown, Format::Html] {
            let text = text_of(&c.session, scope, format);
            for t in &at {
                assert!(!text.contains(t.as_str()), "{scope} {format:?} holds {t}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 2. The JSON export against docs/chronicle.schema.json
// ---------------------------------------------------------------------------

#[test]
fn the_json_exports_validate_against_the_schema() {
    let c = campaign();
    for scope in ["campaign", "arc 1", "arc 2"] {
        let value = json_of(&c.session, scope);
        assert_eq!(value["format"], "rapsheet-chronicle");
        assert_eq!(value["version"], 2);
        assert_eq!(value["campaign"], CAMPAIGN);
        assert_eq!(value["scope"], scope);
        assert_valid(scope, &value);
    }
    // The arc export has no standing bounty: null.
    assert_eq!(json_of(&c.session, "arc 1")["longest_bounty"], Value::Null);

    // A campaign with no battle, and one whose only battle has no winner
    // (both gangs Ran For It): the nullable fields hold null.
    let (_guard, _dir, mut s) = demo();
    assert_valid("an empty campaign", &json_of(&s, "campaign"));
    record(
        &mut s,
        json!({
            "scenario": "Dead Drop",
            "gangs": [
                {"gang": SAINTS, "ran_for_it": true},
                {"gang": JACKALS, "ran_for_it": true},
            ],
            "winner": null,
            "choices": [
                {"gang": SAINTS, "rule": "ran-for-it", "pick": "supply"},
                {"gang": JACKALS, "rule": "ran-for-it", "pick": "ammo"},
            ],
            "titles": [],
        }),
    );
    let value = json_of(&s, "campaign");
    assert_eq!(value["battles"][0]["winner"], Value::Null);
    assert_valid("a battle with no winner", &value);
}

#[test]
fn the_validator_refuses_what_the_schema_forbids() {
    let c = campaign();
    let good = json_of(&c.session, "campaign");
    type Edit = Box<dyn Fn(&mut Value)>;
    let broken: Vec<(&str, Edit)> = vec![
        (
            "$.format",
            Box::new(|v| v["format"] = json!("rapsheet-story")),
        ),
        ("$.version", Box::new(|v| v["version"] = json!(1))),
        (
            "'extra' was unexpected",
            Box::new(|v| v["extra"] = json!(true)),
        ),
        (
            "\"scope\" is a required property",
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("scope");
            }),
        ),
        (
            "$.battles[0].winner",
            Box::new(|v| v["battles"][0]["winner"] = json!(7)),
        ),
        (
            "$.battles[0].gangs[0].won",
            Box::new(|v| v["battles"][0]["gangs"][0]["won"] = json!("yes")),
        ),
        (
            "$.arcs[0].gangs[2]",
            Box::new(|v| {
                v["arcs"][0]["gangs"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!("x"))
            }),
        ),
        (
            "$.arcs[0].next",
            Box::new(|v| v["arcs"][0]["next"] = json!({})),
        ),
        (
            "$.gang_rivalries[0][1]",
            Box::new(|v| v["gang_rivalries"][0][1] = json!(-1)),
        ),
        (
            "$.rivalries[0].downed_by[0]",
            Box::new(|v| v["rivalries"][0]["downed_by"][0] = json!(["Vex"])),
        ),
        (
            "$.longest_bounty.since_battle",
            Box::new(|v| v["longest_bounty"]["since_battle"] = json!("1")),
        ),
    ];
    for (needle, edit) in broken {
        let mut value = good.clone();
        edit(&mut value);
        let errors = validate(&value);
        assert!(
            errors.iter().any(|e| e.contains(needle)),
            "{needle}: {errors:#?}"
        );
    }
}

/// Every object in the schema lists all its properties as required, allows
/// nothing else, and every property has a type.
#[test]
fn the_schema_is_complete() {
    fn walk(schema: &Value, at: &str, objects: &mut usize) {
        let Some(map) = schema.as_object() else {
            return;
        };
        if let Some(props) = map.get("properties").and_then(Value::as_object) {
            *objects += 1;
            let required: BTreeSet<&str> = map["required"]
                .as_array()
                .unwrap_or_else(|| panic!("{at}: no required list"))
                .iter()
                .map(|k| k.as_str().expect("key"))
                .collect();
            let keys: BTreeSet<&str> = props.keys().map(String::as_str).collect();
            assert_eq!(required, keys, "{at}: required ≠ properties");
            assert_eq!(map["additionalProperties"], false, "{at}");
            for (key, sub) in props {
                assert!(
                    sub.get("type").is_some()
                        || sub.get("const").is_some()
                        || sub.get("$ref").is_some(),
                    "{at}.{key} has no type"
                );
            }
        } else if map.get("type") == Some(&json!("object")) {
            panic!("{at}: an object with no properties");
        }
        for (key, sub) in map {
            match sub {
                Value::Object(_) => walk(sub, &format!("{at}/{key}"), objects),
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk(item, &format!("{at}/{key}/{i}"), objects);
                    }
                }
                _ => {}
            }
        }
    }
    let schema = schema();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(
        schema["properties"]["format"]["const"],
        "rapsheet-chronicle"
    );
    assert_eq!(
        schema["properties"]["version"]["const"],
        rapsheet::export::JSON_VERSION
    );
    let mut objects = 0;
    walk(&schema, "#", &mut objects);
    // The export, longest_bounty, battle, gang_in_battle, arc, action,
    // rivalry, cycle.
    assert_eq!(objects, 8);
}

// ---------------------------------------------------------------------------
// 3. Arcs (003, "Arcs")
// ---------------------------------------------------------------------------

#[test]
fn an_arc_runs_first_blood_score_to_settle_heartbreaker_and_closes() {
    let c = campaign();
    let list = arc_list(&c.dir);
    assert_eq!(list.as_array().map(Vec::len), Some(2), "{list:#}");

    // 003: "An Arc is a short series of 2-3 connected skirmishes that
    // introduce, escalate, and ultimately resolve a conflict between two
    // rival gangs."
    let first = arc(&list, 1);
    assert_eq!(first["gangs"], json!([SAINTS, JACKALS]));
    assert_eq!(first["battles"], json!([1, 2, 3]));
    // 003: "First Blood" … "Score to Settle" … "Heartbreaker"
    assert_eq!(
        first["stages"],
        json!(["First Blood", "Score to Settle", "Heartbreaker"])
    );
    // 003: Heartbreaker: "Both of you still have something to prove and
    // it's winner takes all." The last stage resolves the arc.
    assert_eq!(first["closed"], true);
    assert_eq!(first["closed_by"], "its Heartbreaker skirmish");
    assert_eq!(first["next"], json!([]));

    // A new First Blood between the same gangs begins a second arc.
    // 003: First Blood: "Gangs clash on an even playing field."
    let second = arc(&list, 2);
    assert_eq!(second["battles"], json!([4]));
    assert_eq!(second["stages"], json!(["First Blood"]));
    assert_eq!(second["closed"], false);
    assert_eq!(second["closed_by"], Value::Null);
    // 003: "Score to Settle": "Eye for an eye. They got you down but you
    // always bounce back." It follows First Blood (ruling arc-path).
    assert_eq!(
        second["next"],
        json!([["Score to Settle", ["Catch and Release"]]])
    );

    // The plain listing says the same.
    let text = cli(&c.dir, &["arc", "list", "--db", "c.rapsheet"]);
    assert!(
        text.contains(
            "Arc 1: The Rust Saints vs Neon Jackals — #1, #2, #3 (closed: its Heartbreaker skirmish)"
        ),
        "{text}"
    );
    assert!(
        text.contains("Arc 2: The Rust Saints vs Neon Jackals — #4 (open)"),
        "{text}"
    );
    assert!(
        text.contains("next: Score to Settle: Catch and Release"),
        "{text}"
    );
}

#[test]
fn a_gang_can_be_in_two_arcs_at_once() {
    let mut c = campaign();
    let s = &mut c.session;
    let (wardens, _) = s.found_gang("Ash Wardens", None).expect("found");
    for (name, leader, quirks) in [
        ("Cinder Abbess", true, vec!["Sidearm", "Light Armor"]),
        ("Lamplighter", false, vec!["Longshot", "Commlink"]),
        ("Soot", false, vec!["Slasher", "Stalker"]),
    ] {
        let quirks: Vec<String> = quirks.into_iter().map(str::to_owned).collect();
        let quirks = s.resolve_quirks(wardens, &quirks).expect("quirks");
        s.recruit(
            wardens,
            NewFighter {
                name: name.to_owned(),
                leader,
                quirks,
                notes: String::new(),
                base: Default::default(),
                group: None,
            },
        )
        .expect("recruit");
    }
    // A quiet Dead Drop: no caches, so no resource or title changes.
    record(
        s,
        json!({
            "scenario": "Dead Drop",
            "gangs": [{"gang": "Ash Wardens"}, {"gang": JACKALS}],
            "winner": JACKALS,
        }),
    );

    // 003: "A gang can also participate in multiple arcs between different
    // rivals at the same time, jumping around between different conflicts
    // as time and scheduling allows."
    let story = s.chronicle().expect("chronicle");
    assert_eq!(story.arcs.len(), 3);
    let open: Vec<(usize, [String; 2])> = story
        .arcs
        .iter()
        .filter(|a| !a.closed)
        .map(|a| (a.id, a.gangs.clone()))
        .collect();
    assert_eq!(
        open,
        vec![
            (2, [SAINTS.to_owned(), JACKALS.to_owned()]),
            (3, [JACKALS.to_owned(), "Ash Wardens".to_owned()]),
        ]
    );
    let third = &story.arcs[2];
    assert_eq!(third.battles, vec![5]);
    assert_eq!(third.stages, vec!["First Blood"]);
    // Arc 2 is untouched by the Jackals' other conflict.
    let second = &story.arcs[1];
    assert_eq!(second.battles, vec![4]);
    assert_eq!(second.next.len(), 1);
    assert_eq!(third.next, second.next);

    // The Jackals go on with the Saints: a Score to Settle joins arc 2, not
    // the Wardens' arc.
    let saints = gang_id(s, SAINTS);
    let jackals = gang_id(s, JACKALS);
    let (sr, jr) = s
        .suggest_roles("Catch and Release", saints, jackals)
        .expect("roles")
        .expect("roles from battle #4");
    // 003: "The losers of the previous skirmish are the Captors and winners
    // are the Rescuers." (The Jackals won battle #4.)
    assert_eq!((sr.as_str(), jr.as_str()), ("captors", "rescuers"));
    record(
        s,
        json!({
            "scenario": "Catch and Release",
            "gangs": [{"gang": SAINTS, "role": sr}, {"gang": JACKALS, "role": jr}],
            "winner": SAINTS,
        }),
    );
    let story = s.chronicle().expect("chronicle");
    assert_eq!(story.arcs[1].battles, vec![4, 6]);
    assert_eq!(story.arcs[1].stages, vec!["First Blood", "Score to Settle"]);
    assert_eq!(
        story.arcs[1].next,
        vec![(
            "Heartbreaker".to_owned(),
            vec!["Winner Takes All".to_owned()]
        )]
    );
    assert_eq!(story.arcs[2].battles, vec![5]);
}

#[test]
fn closing_an_arc_by_hand_and_undoing_it() {
    let c = campaign();
    let db = c.dir.join("c.rapsheet");
    // The CLI writes only while no session holds the campaign.
    drop(c.session);
    let reason = "The Jackals went to ground in the transit spine";
    let out = cli(
        &c.dir,
        &[
            "arc",
            "close",
            "2",
            "--reason",
            reason,
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.contains("Arc 2 closed"), "{out}");
    let list = arc_list(&c.dir);
    let second = arc(&list, 2);
    assert_eq!(second["closed"], true);
    assert_eq!(second["closed_by"], reason);
    assert_eq!(second["next"], json!([]));
    let text = cli(&c.dir, &["arc", "list", "--db", "c.rapsheet"]);
    assert!(text.contains(&format!("#4 (closed: {reason})")), "{text}");

    // A closed arc cannot be closed again, and a reason is needed.
    let out = rapsheet(
        &c.dir,
        &[
            "arc",
            "close",
            "1",
            "--reason",
            "again",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("already closed"), "{}", stderr(&out));
    let out = rapsheet(
        &c.dir,
        &["arc", "close", "2", "--reason", " ", "--db", "c.rapsheet"],
    );
    assert!(!out.status.success());

    // Undo the closing batch: the arc is open again with its next stages.
    let mut session = Session::open(&db).expect("open");
    let last = session.log(1).expect("log").pop().expect("an entry");
    assert!(last.label.starts_with("Close arc #2"), "{}", last.label);
    session.undo(last.batch).expect("undo");
    drop(session);
    let list = arc_list(&c.dir);
    let second = arc(&list, 2);
    assert_eq!(second["closed"], false);
    assert_eq!(second["closed_by"], Value::Null);
    assert_eq!(second["next"].as_array().map(Vec::len), Some(1));
    assert_eq!(arc(&list, 1)["closed_by"], "its Heartbreaker skirmish");
}

/// 003 lists an arc's stages as First Blood, Score to Settle, Desperation,
/// Heartbreaker (ruling arc-path: the third is Desperation or Heartbreaker);
/// a First Blood (the lowest step) begins one; later battles between the
/// same gangs join the open arc.
#[test]
fn only_a_first_blood_begins_an_arc() {
    let mut c = campaign();
    c.session
        .close_arc(2, "The feud went cold")
        .expect("close arc 2");
    record(
        &mut c.session,
        json!({
            "scenario": "Catch and Release",
            "gangs": [
                {"gang": SAINTS, "role": "captors"},
                {"gang": JACKALS, "role": "rescuers"},
            ],
            "winner": SAINTS,
        }),
    );
    let story = c.session.chronicle().expect("chronicle");
    // 003: "An Arc is a short series of 2-3 connected skirmishes that
    // introduce, escalate, and ultimately resolve a conflict" — it is
    // introduced by its First Blood.
    for a in &story.arcs {
        assert_eq!(
            a.stages.first().map(String::as_str),
            Some("First Blood"),
            "{a:?}"
        );
    }
    assert_eq!(story.arcs.len(), 2);
}

/// The next scenario between two gangs is found from their battles and
/// the arcs closed between them alone; those arcs are the chronicle's.
#[test]
fn the_arcs_between_two_gangs_are_the_chronicles_arcs_of_that_pair() {
    let mut c = campaign();
    let (saints, jackals) = (gang_id(&c.session, SAINTS), gang_id(&c.session, JACKALS));
    // What the next scenario reads of an arc.
    let told = |a: ArcStory| {
        let ArcStory {
            battles,
            stages,
            closed,
            closed_by,
            next,
            next_why,
            ..
        } = a;
        (battles, stages, closed, closed_by, next, next_why)
    };
    let same = |s: &Session| {
        let mut pair = [saints, jackals];
        pair.sort();
        let all: Vec<_> = s
            .chronicle()
            .expect("chronicle")
            .arcs
            .into_iter()
            .filter(|a| a.gang_ids == pair)
            .map(told)
            .collect();
        let between: Vec<_> = s
            .arcs_between(jackals, saints)
            .expect("arcs between")
            .into_iter()
            .map(told)
            .collect();
        assert_eq!(between, all);
        all.len()
    };
    assert_eq!(same(&c.session), 2);
    c.session
        .close_arc(2, "The feud went cold")
        .expect("close arc 2");
    same(&c.session);
    let closed = c.session.log(1).expect("log").pop().expect("an entry");
    c.session.undo(closed.batch).expect("undo the closing");
    same(&c.session);
    record(&mut c.session, second_first_blood());
    assert_eq!(same(&c.session), 3);
    assert!(
        c.session
            .arcs_between(saints, saints)
            .expect("one gang")
            .is_empty()
    );
}

#[test]
fn a_battle_taken_back_leaves_the_chronicle() {
    let mut c = campaign();
    let s = &mut c.session;
    let (battle, _) = s.undo_last_battle().expect("undo battle #4");
    assert_eq!(battle.0, 4);
    let story = s.chronicle().expect("chronicle");
    assert_eq!(
        battles_of(&story),
        vec![
            (1, "Dead Drop".to_owned()),
            (2, "Catch and Release".to_owned()),
            (3, "Winner Takes All".to_owned()),
        ]
    );
    // Arc 2 was battle #4 alone: it is gone.
    assert_eq!(story.arcs.len(), 1);
    let md = text_of(s, "campaign", Format::Markdown);
    assert!(!md.contains("Seize Production"), "{md}");
    assert!(!md.contains("Hollow Jack: Bounty"), "{md}");
    assert!(!md.contains("Pipebomb Pell"), "{md}");
    // Sister Slag's takedown went with it; the bounties it declared too.
    assert!(story.rivalries.iter().all(|r| r.fighter != "Sister Slag"));

    // Taking back the Heartbreaker battle too leaves arc 1 open after its
    // Score to Settle, with Heartbreaker next.
    s.undo_last_battle().expect("undo battle #3");
    let story = s.chronicle().expect("chronicle");
    let first = &story.arcs[0];
    assert_eq!(first.battles, vec![1, 2]);
    assert!(!first.closed);
    assert_eq!(first.closed_by, None);
    // 003: Heartbreaker follows Score to Settle: "Both of you still have
    // something to prove and it's winner takes all."
    assert_eq!(
        first.next,
        vec![(
            "Heartbreaker".to_owned(),
            vec!["Winner Takes All".to_owned()]
        )]
    );
    // The bounty Vex Ninefingers got in battle #3 is gone: 2 since battle #1.
    let bounty = story.longest_bounty.expect("a bounty stands");
    assert_eq!(
        (bounty.fighter.as_str(), bounty.bounty, bounty.since_battle),
        ("Vex Ninefingers", 2, 1)
    );
}

// ---------------------------------------------------------------------------
// 4. Role suggestions
// ---------------------------------------------------------------------------

#[test]
fn roles_are_suggested_from_the_previous_battle_between_the_gangs() {
    let (_guard, _dir, mut s) = demo();
    let saints = gang_id(&s, SAINTS);
    let jackals = gang_id(&s, JACKALS);
    // No previous battle: nothing to go by.
    assert_eq!(
        s.suggest_roles("Catch and Release", saints, jackals)
            .unwrap(),
        None
    );
    record(&mut s, first_blood());
    // 003: "The losers of the previous skirmish are the Captors and winners
    // are the Rescuers." (The Saints won battle #1.)
    assert_eq!(
        s.suggest_roles("Catch and Release", saints, jackals)
            .unwrap(),
        Some(("rescuers".to_owned(), "captors".to_owned()))
    );
    // 003: "The losers of the previous skirmish are the Hunters and
    // previous winners are the Prey."
    assert_eq!(
        s.suggest_roles("Headhunters", saints, jackals).unwrap(),
        Some(("prey".to_owned(), "hunters".to_owned()))
    );
    assert_eq!(
        s.suggest_roles("Cornered Animals", jackals, saints)
            .unwrap(),
        Some(("hunters".to_owned(), "prey".to_owned()))
    );
    // First Blood and Heartbreaker scenarios have no roles.
    assert_eq!(s.suggest_roles("Dead Drop", saints, jackals).unwrap(), None);
    assert_eq!(
        s.suggest_roles("Winner Takes All", saints, jackals)
            .unwrap(),
        None
    );

    // The Jackals win battle #2: the roles turn around.
    record(&mut s, score_to_settle("rescuers", "captors"));
    assert_eq!(
        s.suggest_roles("Headhunters", saints, jackals).unwrap(),
        Some(("hunters".to_owned(), "prey".to_owned()))
    );
    // The roles played show in the chronicle by their labels.
    let story = s.chronicle().unwrap();
    let roles: Vec<Option<String>> = story.battles[1]
        .gangs
        .iter()
        .map(|g| g.role.clone())
        .collect();
    assert_eq!(
        roles,
        vec![Some("Rescuers".to_owned()), Some("Captors".to_owned())]
    );
}

// ---------------------------------------------------------------------------
// 5. Rivalries, checked by hand against the fixture
// ---------------------------------------------------------------------------

#[test]
fn rivalries_name_who_took_down_whom_the_nemesis_and_the_longest_bounty() {
    let c = campaign();
    let story = c.session.chronicle().expect("chronicle");

    // Takedowns with a rival named: Saints → Jackals: Static (#1, Mother
    // Cinder), Hush (#1, Brick), Wren (#2, Sister Slag; #3, Saint Vitriol)
    // = 4. Jackals → Saints: Brick (#1, #2, Vex), Dross (#2, Vex), Mother
    // Cinder (#2, Gutterglass; #3, Vex), Sister Slag (#4, Pipebomb Pell) =
    // 6. Vex's fall in #3 names no rival and counts for nobody.
    assert_eq!(
        story.gang_rivalries,
        vec![(SAINTS.to_owned(), 4, JACKALS.to_owned(), 6)]
    );

    let by = |fighter: &str| {
        story
            .rivalries
            .iter()
            .find(|r| r.fighter == fighter)
            .unwrap_or_else(|| panic!("no rivalry for {fighter}"))
    };
    let pairs = |list: &[(&str, usize)]| -> Vec<(String, usize)> {
        list.iter().map(|(f, n)| ((*f).to_owned(), *n)).collect()
    };
    // Brick went down to Vex Ninefingers twice.
    assert_eq!(by("Brick").gang, SAINTS);
    assert_eq!(by("Brick").downed_by, pairs(&[("Vex Ninefingers", 2)]));
    assert_eq!(by("Brick").nemesis.as_deref(), Some("Vex Ninefingers"));
    // Mother Cinder: once each by Gutterglass (#2) and Vex (#3); on a tie the
    // nemesis is the first to do it.
    assert_eq!(
        by("Mother Cinder").downed_by,
        pairs(&[("Gutterglass", 1), ("Vex Ninefingers", 1)])
    );
    assert_eq!(by("Mother Cinder").nemesis.as_deref(), Some("Gutterglass"));
    // Wren: Sister Slag (#2) then Saint Vitriol (#3).
    assert_eq!(
        by("Wren").downed_by,
        pairs(&[("Saint Vitriol", 1), ("Sister Slag", 1)])
    );
    assert_eq!(by("Wren").nemesis.as_deref(), Some("Sister Slag"));
    assert_eq!(by("Dross").nemesis.as_deref(), Some("Vex Ninefingers"));
    assert_eq!(by("Static").nemesis.as_deref(), Some("Mother Cinder"));
    assert_eq!(by("Hush").nemesis.as_deref(), Some("Brick"));
    assert_eq!(by("Sister Slag").nemesis.as_deref(), Some("Pipebomb Pell"));
    // Vex was downed only with no rival named: no rivalry.
    let victims: BTreeSet<&str> = story.rivalries.iter().map(|r| r.fighter.as_str()).collect();
    assert_eq!(
        victims,
        BTreeSet::from([
            "Brick",
            "Dross",
            "Hush",
            "Mother Cinder",
            "Sister Slag",
            "Static",
            "Wren"
        ])
    );

    // Bounties standing: Vex Ninefingers since #1 (1 → 2 → 3; his fall in
    // #3 named no rival, so nobody claimed it), Saint Vitriol since #3,
    // Hollow Jack since #4. Brick's (#1) was claimed in #2 and Mother
    // Cinder's (#2) in #3.
    let bounty = story.longest_bounty.clone().expect("a bounty stands");
    assert_eq!(
        (bounty.fighter.as_str(), bounty.bounty, bounty.since_battle),
        ("Vex Ninefingers", 3, 1)
    );

    // Arc 2 (battle #4 alone) has its own rivalries.
    let second = c.session.arc_story(&story, 2).unwrap().expect("arc 2");
    assert_eq!(
        second.gang_rivalries,
        vec![(SAINTS.to_owned(), 0, JACKALS.to_owned(), 1)]
    );
    assert_eq!(second.rivalries.len(), 1);
    assert_eq!(second.rivalries[0].fighter, "Sister Slag");
}

#[test]
fn an_arc_story_keeps_its_battles_the_actions_between_them_and_its_rivalries() {
    let c = campaign();
    let story = c.session.chronicle().expect("chronicle");
    let first = c.session.arc_story(&story, 1).unwrap().expect("arc 1");
    assert_eq!(
        battles_of(&first),
        vec![
            (1, "Dead Drop".to_owned()),
            (2, "Catch and Release".to_owned()),
            (3, "Winner Takes All".to_owned()),
        ]
    );
    assert_eq!(first.arcs.len(), 1);
    assert_eq!(first.arcs[0].id, 1);
    assert_eq!(first.actions.len(), 1);
    assert_eq!(first.actions[0].after_battle, 1);
    assert_eq!(
        first.actions[0].text,
        "Neon Jackals: Protection Racket against The Rust Saints (Supply)"
    );
    // Battle #4's takedown is not arc 1's.
    assert_eq!(
        first.gang_rivalries,
        vec![(SAINTS.to_owned(), 4, JACKALS.to_owned(), 5)]
    );
    assert!(first.rivalries.iter().all(|r| r.fighter != "Sister Slag"));
    assert_eq!(first.longest_bounty, None);
    assert!(c.session.arc_story(&story, 3).unwrap().is_none());

    // What each battle changed, in words: the fixture's rewards, bounty
    // claims and titles.
    let b = &story.battles;
    assert_eq!(b[0].winner.as_deref(), Some(SAINTS));
    assert!(
        b[0].titles
            .contains(&"The Rust Saints is now Legend".to_owned())
    );
    assert!(
        b[0].titles
            .contains(&"Neon Jackals is now Quartermaster".to_owned())
    );
    assert!(
        b[1].rewards
            .contains(&"Neon Jackals: Reputation +1 (0 → 1): bounty on Brick claimed".to_owned()),
        "{:#?}",
        b[1].rewards
    );
    assert!(
        b[2].bounties
            .contains(&"Mother Cinder: Bounty 1 → 0: claimed by Neon Jackals".to_owned()),
        "{:#?}",
        b[2].bounties
    );
    assert_eq!(b[2].stage.as_deref(), Some("Heartbreaker"));
    assert_eq!(b[3].winner.as_deref(), Some(JACKALS));
}

// ---------------------------------------------------------------------------
// 6. The command line: every format, for an arc and for the campaign
// ---------------------------------------------------------------------------

fn pdf_text(path: &Path) -> String {
    let out = std::process::Command::new("pdftotext")
        .arg(path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_cli_writes_every_format_for_an_arc_and_for_the_campaign() {
    let c = campaign();
    let d = &c.dir;
    for (scope, args, scenarios) in [
        (
            "arc 1",
            vec!["export", "arc", "1"],
            vec!["Dead Drop", "Catch and Release", "Winner Takes All"],
        ),
        (
            "campaign",
            vec!["export", "campaign"],
            vec![
                "Dead Drop",
                "Catch and Release",
                "Winner Takes All",
                "Seize Production",
            ],
        ),
    ] {
        let stem = scope.replace(' ', "");
        for ext in ["md", "html", "json", "pdf"] {
            let file = format!("{stem}.{ext}");
            let mut all = args.clone();
            all.extend(["--format", ext, "-o", file.as_str(), "--db", "c.rapsheet"]);
            let out = cli(d, &all);
            assert!(out.contains(&format!("Wrote {file}")), "{out}");
            let path = d.join(&file);
            let text = match ext {
                "pdf" => {
                    let bytes = std::fs::read(&path).expect("pdf");
                    assert!(bytes.starts_with(b"%PDF-"), "{file}");
                    pdf_text(&path)
                }
                _ => std::fs::read_to_string(&path).expect("export"),
            };
            for scenario in &scenarios {
                assert!(text.contains(scenario), "{file} lacks {scenario}:\n{text}");
            }
            if scope == "arc 1" {
                assert!(!text.contains("Seize Production"), "{file}:\n{text}");
            }
            // The CLI writes what the library renders.
            match ext {
                "md" | "html" => {
                    let format = Format::parse(ext).expect("format");
                    assert_eq!(text, text_of(&c.session, scope, format), "{file}");
                }
                "json" => {
                    let mut written: Value = serde_json::from_str(&text).expect("json");
                    let mut rendered = json_of(&c.session, scope);
                    blank_at(&mut written);
                    blank_at(&mut rendered);
                    assert_eq!(written, rendered, "{file}");
                    assert_valid(&file, &written);
                }
                _ => {}
            }
        }
    }
    // The PDF's title names the campaign.
    assert!(pdf_text(&d.join("campaign.pdf")).contains(CAMPAIGN));

    // Refusals: an unknown arc, an unknown format.
    let out = rapsheet(
        d,
        &[
            "export",
            "arc",
            "9",
            "--format",
            "md",
            "-o",
            "x.md",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no arc #9"), "{}", stderr(&out));
    let out = rapsheet(
        d,
        &[
            "export",
            "campaign",
            "--format",
            "docx",
            "-o",
            "x.docx",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    assert!(!d.join("x.docx").exists());
}

#[test]
fn the_html_is_self_contained_and_escapes_names() {
    let mut c = campaign();
    let saints = gang_id(&c.session, SAINTS);
    let name = "Rust <b>& Saints";
    c.session.rename_gang(saints, name).expect("rename");
    cli(
        &c.dir,
        &[
            "export",
            "campaign",
            "--format",
            "html",
            "-o",
            "c.html",
            "--db",
            "c.rapsheet",
        ],
    );
    let html = std::fs::read_to_string(c.dir.join("c.html")).expect("html");
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("<style>"), "{html}");
    for outside in ["http://", "https://", "<link", "<script", "src=", "@import"] {
        assert!(!html.contains(outside), "the HTML reaches out: {outside}");
    }
    assert!(!html.contains("<b>"), "{html}");
    assert!(html.contains("Rust &lt;b&gt;&amp; Saints"), "{html}");
    // The Markdown escapes it too.
    let md = text_of(&c.session, "campaign", Format::Markdown);
    assert!(!md.contains("<b>"), "{md}");
    assert!(md.contains("Rust \\<b\\>& Saints"), "{md}");
    // And the JSON keeps it as it is.
    let value = json_of(&c.session, "campaign");
    assert_eq!(value["arcs"][0]["gangs"][0], name);

    // The campaign's own name, in the HTML's title and heading.
    let dir = util::temp();
    let d = dir.path();
    cli(
        d,
        &["new", "--name", "Saints <b>& Sinners", "--db", "n.rapsheet"],
    );
    cli(
        d,
        &[
            "export",
            "campaign",
            "--format",
            "html",
            "-o",
            "n.html",
            "--db",
            "n.rapsheet",
        ],
    );
    let html = std::fs::read_to_string(d.join("n.html")).expect("html");
    assert!(!html.contains("<b>"), "{html}");
    assert!(
        html.contains("<title>Saints &lt;b&gt;&amp; Sinners — chronicle</title>"),
        "{html}"
    );
    assert!(html.contains("No skirmish yet."), "{html}");
}

#[test]
fn the_markdown_title_escapes_the_campaign_name() {
    let dir = util::temp();
    let d = dir.path();
    cli(
        d,
        &["new", "--name", "Saints <b>& Sinners", "--db", "n.rapsheet"],
    );
    cli(
        d,
        &[
            "export",
            "campaign",
            "--format",
            "md",
            "-o",
            "n.md",
            "--db",
            "n.rapsheet",
        ],
    );
    let md = std::fs::read_to_string(d.join("n.md")).expect("md");
    assert!(!md.contains("<b>"), "{md}");
    assert!(
        md.starts_with("# Saints \\<b\\>& Sinners — chronicle\n"),
        "{md}"
    );
}

/// Ruling arc-path, after 003's Desperation: "You lost your chance to get
/// even, but you've still got a chance to make it hurt." When the gang
/// that lost First Blood loses Score to Settle too, Desperation is next;
/// the chronicle says why.
#[test]
fn desperation_follows_when_the_first_blood_loser_loses_again() {
    let mut c = campaign();
    // Arc 2 began with battle #4, won by the Jackals; they win its Score
    // to Settle as well.
    let roles = c
        .session
        .suggest_roles(
            "catch-and-release",
            gang_id(&c.session, SAINTS),
            gang_id(&c.session, JACKALS),
        )
        .expect("roles")
        .expect("Catch and Release has roles");
    record(
        &mut c.session,
        json!({
            "scenario": "Catch and Release",
            "gangs": [
                {"gang": SAINTS, "role": roles.0},
                {"gang": JACKALS, "role": roles.1},
            ],
            "winner": JACKALS,
        }),
    );
    let story = c.session.chronicle().expect("chronicle");
    let second = &story.arcs[1];
    assert_eq!(second.stages, vec!["First Blood", "Score to Settle"]);
    assert_eq!(
        second.next,
        vec![(
            "Desperation".to_owned(),
            vec!["Headhunters".to_owned(), "Cornered Animals".to_owned()]
        )]
    );
    let why = second.next_why.as_deref().expect("a reason");
    assert!(
        why == "Neon Jackals won both First Blood and Score to Settle (by the pack's ruling)",
        "{why}"
    );
    // In arc 1 the Saints won First Blood and the Jackals Score to Settle:
    // even, so Heartbreaker came next (it was played as battle #3).
}

/// 31.10: the chronicle's PDF is printed on the paper asked for, as cards
/// and rosters are.
#[test]
fn the_chronicle_pdf_is_printed_on_letter_paper_when_asked() {
    let dir = util::temp();
    let d = dir.path();
    util::ok(d, &["demo"]);
    util::ok(
        d,
        &[
            "export",
            "campaign",
            "--format",
            "pdf",
            "--page",
            "letter",
            "-o",
            "story.pdf",
        ],
    );
    let pdf = std::fs::read(d.join("story.pdf")).unwrap();
    let text = String::from_utf8_lossy(&pdf);
    // 8.5 × 11 in: 612 × 792 points, not A4's 595 × 842.
    assert!(text.contains("MediaBox[0 0 612."), "not letter paper");
    util::ok(
        d,
        &["export", "campaign", "--format", "pdf", "-o", "a4.pdf"],
    );
    let a4 = String::from_utf8_lossy(&std::fs::read(d.join("a4.pdf")).unwrap()).into_owned();
    assert!(a4.contains("MediaBox[0 0 595."), "A4 by default");
}

#[test]
fn a_title_chosen_after_a_record_is_told_with_it_in_the_window_the_pdf_and_the_markdown() {
    // 003: a gang that qualifies for more than one title chooses which it
    // keeps; here the Saints choose after the battle is recorded (the title
    // choice applied later, `rapsheet titles choose`).
    let (_guard, dir, mut session) = demo();
    let mut first = first_blood();
    first.as_object_mut().expect("a report").remove("titles");
    session
        .record_battle(&report(first), SEED)
        .expect("recorded without the choice");
    let saints = gang_id(&session, SAINTS);
    session.choose_title(saints, "Legend").expect("chosen");
    let chosen = "The Rust Saints is now Legend (chosen after the skirmish)";

    // The chronicle: the choice told with battle #1, and the chart of
    // titles shows it from battle #1.
    let story = session.chronicle().expect("chronicle");
    assert!(
        story.battles[0].titles.iter().any(|t| t == chosen),
        "{:?}",
        story.battles[0].titles
    );
    assert_eq!(
        story.title_series["Legend"],
        [(1, Some(SAINTS.to_owned()))],
        "{:?}",
        story.title_series
    );

    // The Markdown and the PDF.
    let md = text_of(&session, "campaign", Format::Markdown);
    assert!(md.contains(chosen), "{md}");
    let pdf = dir.join("story.pdf");
    std::fs::write(&pdf, export_of(&session, "campaign", Format::Pdf)).expect("pdf");
    let text = pdf_text(&pdf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains(chosen), "{text}");

    // The window's chronicle screen.
    use egui_kittest::kittest::Queryable;
    let mut harness = egui_kittest::Harness::builder()
        .with_size([1400.0, 1000.0])
        .build_ui_state(
            |ui, app: &mut rapsheet::ui::RapsheetApp| app.frame_ui(ui),
            rapsheet::ui::RapsheetApp::with_session(session),
        );
    harness.run();
    harness.get_by_label("Chronicle").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("now Legend (chosen after")
            .is_some(),
        "the window tells the title chosen"
    );
}
