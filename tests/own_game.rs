#![allow(clippy::unwrap_used, clippy::expect_used)]

//! A game of a group's own, written only as a pack: `tests/packs/tidewreck.toml`
//! (clans of divers salvaging a drowned city between the tides) uses every
//! kind of rule the format has — recruiting ranges, limits by tag, outcomes
//! that act, counts read from the report, upkeep, modifiers from the
//! fighter, named entries gained, titles by any comparison, after-record
//! lines with no scenario — and is played here from the command line and
//! the app with no Rust that knows it. Each assertion quotes the pack line
//! it checks.

mod util;

use std::path::{Path, PathBuf};

fn pack_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/tidewreck.toml")
}

/// `rapsheet --pack tidewreck.toml ARGS --db c.rapsheet`, which must work.
fn tide(dir: &Path, args: &[&str]) -> String {
    let pack = pack_file();
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    util::ok(dir, &all)
}

/// The same, which must be refused: its error.
fn tide_refused(dir: &Path, args: &[&str]) -> String {
    let pack = pack_file();
    let mut all = vec!["--pack", pack.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", "c.rapsheet"]);
    let out = util::rapsheet(dir, &all);
    assert!(!out.status.success(), "{args:?} was not refused");
    util::stderr(&out)
}

/// A campaign of two clans: Gull (Maren, chief, and Oda, Pell) and Kelp
/// (Sorn, chief, and Tam, Ulla).
fn two_clans(dir: &Path) {
    tide(
        dir,
        &["new", "--ruleset", "tidewreck", "--name", "The Reef"],
    );
    for (clan, divers) in [
        ("Gull Clan", ["Maren", "Oda", "Pell"]),
        ("Kelp Clan", ["Sorn", "Tam", "Ulla"]),
    ] {
        tide(dir, &["gang", "new", clan]);
        for (i, diver) in divers.iter().enumerate() {
            let mut args = vec!["fighter", "add", diver, "--gang", clan];
            if i == 0 {
                args.push("--leader");
            }
            tide(dir, &args);
        }
    }
}

#[test]
fn a_clan_is_recruited_within_the_ranges_and_limits_of_its_pack() {
    let dir = util::temp();
    let d = dir.path();
    tide(d, &["new", "--ruleset", "tidewreck", "--name", "The Reef"]);
    tide(d, &["gang", "new", "Gull Clan"]);
    // recruits = { min = 2, max = 4 }: a chief alone is short of a clan.
    let added = tide(
        d,
        &[
            "fighter",
            "add",
            "Maren",
            "--gang",
            "Gull Clan",
            "--leader",
            "--quirk",
            "Lead Boots",
        ],
    );
    assert!(
        added.contains(
            "The clan has 1 diver; a starting clan has 3 to 5 (1 leader + 2 to 4 recruits)."
        ),
        "{added}"
    );
    tide(
        d,
        &[
            "fighter",
            "add",
            "Oda",
            "--gang",
            "Gull Clan",
            "--quirk",
            "Iron Helm",
        ],
    );
    // Three divers: within the range, no problem left.
    let third = tide(d, &["fighter", "add", "Pell", "--gang", "Gull Clan"]);
    assert!(!third.contains("problem"), "{third}");
    // quirks_per_fighter = { min = 0, max = 2 }: none is as legal as two.
    let shown = tide(d, &["gang", "show", "Gull Clan"]);
    assert!(!shown.contains("problem"), "{shown}");
    // "At most two divers of a clan wear heavy charms." A third is refused
    // before anything changes.
    let refused = tide_refused(
        d,
        &[
            "fighter",
            "add",
            "Quill",
            "--gang",
            "Gull Clan",
            "--quirk",
            "Iron Helm",
        ],
    );
    assert!(
        refused.contains("At most two divers of a clan wear heavy charms. (3 divers; 2 allowed)"),
        "{refused}"
    );
    // Three charms is more than a diver is recruited with.
    let many = tide(
        d,
        &[
            "fighter",
            "add",
            "Quill",
            "--gang",
            "Gull Clan",
            "--quirk",
            "Whispering Conch",
            "--quirk",
            "Eel Skin",
            "--quirk",
            "Whispering Conch",
        ],
    );
    assert!(
        many.contains("has 3 charms; a recruit has 0 to 2"),
        "{many}"
    );
    tide(d, &["verify"]);
}
