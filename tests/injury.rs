#![allow(clippy::unwrap_used, clippy::expect_used)]

mod util;

use rapsheet::campaign::battle::BattleReport;
use rapsheet::session::Session;
use serde_json::json;

#[test]
fn probe() {
    let dir = util::temp();
    let session = Session::create_demo(&dir.path().join("c.rapsheet")).unwrap();
    let r: BattleReport = serde_json::from_value(json!({
        "scenario": "Dead Drop",
        "gangs": [{"gang": "The Rust Saints", "fighters": [{"fighter": "Brick", "outcome": "removed"}]}, {"gang": "Neon Jackals"}],
        "winner": "Neon Jackals",
        "dice": [{"roll": "injury: Brick", "faces": [5, 5]}],
    })).unwrap();
    let p = session.preview_battle(&r, 1);
    println!("{p:#?}");
}
