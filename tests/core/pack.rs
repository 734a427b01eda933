//! Integration tests for the Heartbreaker ruleset pack
//! (`assets/rulesets/heartbreaker.toml`) against its rule text, seed 003.
//!
//! The expected values are copied from the seed into the constants below
//! (the seed file is not part of the crate). Every rules assertion cites the
//! sentence of the seed it checks in a `// 003: "…"` comment.

// Tests may panic on a missing entry: that is the failure being reported.

use std::collections::BTreeMap;

use rapsheet::campaign::{
    DerivedStat, Fighter, FighterId, GangId, Problem, QuirkPick, derive_stats, fighter_problems,
    gang_problems,
};
use rapsheet::rules::{CountRange, FORMAT_VERSION, Pack, PackError, QuirkDef, Registry};

// ---------------------------------------------------------------------------
// The seed's catalog, copied from 003 "Quirks".
// ---------------------------------------------------------------------------

/// One weapon entry as the seed prints it.
struct SeedWeapon {
    /// The heading, as printed.
    heading: &'static str,
    /// The pack id it is transcribed under.
    id: &'static str,
    /// `RANGE:`
    range: &'static str,
    /// `PUNCH:`
    punch: i64,
    /// Keywords (`Knockback 3`, `Special: Blast 2, Scatter D3, …`), as
    /// (pack keyword id, X).
    keywords: &'static [(&'static str, &'static str)],
    /// `D6 Alt Names:` 1 to 6.
    alt_names: [&'static str; 6],
}

const SEED_WEAPONS: [SeedWeapon; 12] = [
    SeedWeapon {
        heading: "SLASHER",
        id: "slasher",
        range: "Nearby",
        punch: 5,
        keywords: &[],
        alt_names: [
            "Boot Knife",
            "Scrap Machete",
            "Jagged Screwdriver",
            "Sharpened Nails",
            "Dented Cleaver",
            "Gnashing Teeth",
        ],
    },
    SeedWeapon {
        heading: "DECAPITATOR",
        id: "decapitator",
        range: "Nearby",
        punch: 7,
        keywords: &[],
        alt_names: [
            "Goresoaked Chainblade",
            "Razortip Lashwhip",
            "Misappropriated Rock saw",
            "Overcharged Plascutter",
            "Improvised Battleaxe",
            "Ceremonial Zweihander",
        ],
    },
    SeedWeapon {
        heading: "BASHER",
        id: "basher",
        range: "Nearby",
        punch: 5,
        // 003: "Knockback 3"
        keywords: &[("knockback", "3")],
        alt_names: [
            "Nail-studded Bat",
            "Spiked Brass Knuckles",
            "Boxer's Training",
            "Electrostatic Truncheon",
            "Bloody Crowbar",
            "Fourth Arm",
        ],
    },
    SeedWeapon {
        heading: "PULVERIZER",
        id: "pulverizer",
        range: "Nearby",
        punch: 7,
        keywords: &[],
        alt_names: [
            "Sledgehammer",
            "Piledriver",
            "Clubbed Tail",
            "Pneumatic Spike",
            "Rocket Fist",
            "Morningstar",
        ],
    },
    SeedWeapon {
        heading: "SIDEARM",
        id: "sidearm",
        range: "Nearby-6\"",
        punch: 5,
        keywords: &[],
        alt_names: [
            "Old Reliable",
            "Stolen Six Shooter",
            "Rusty Pipegun",
            "Throwing Knives",
            "Projectile Quills",
            "Laser Eyes",
        ],
    },
    SeedWeapon {
        heading: "BOOMSTICK",
        id: "boomstick",
        range: "2-12\"",
        punch: 4,
        // 003: "Both Barrels: Fires Twice, Knockback 2"
        keywords: &[("knockback", "2")],
        alt_names: [
            "Big Double 0",
            "Standard Issue Pump Action",
            "Concussion Amplifier",
            "Dismounted Slagbuster",
            "Concentrated Psyche-blast",
            "Saferoom Sweeper",
        ],
    },
    SeedWeapon {
        heading: "LEADSPITTER",
        id: "leadspitter",
        range: "2-12\"",
        punch: 6,
        keywords: &[],
        alt_names: [
            "Mark-10 Automatic",
            "Rapid Laser Emitter",
            "Over-Modified Autopistol",
            "Acidic Ooze Blast",
            "Repressurized Nail Gun",
            "Experimental Needle Launcher",
        ],
    },
    SeedWeapon {
        heading: "LONGSHOT",
        id: "longshot",
        range: "2-24\"",
        punch: 5,
        keywords: &[],
        alt_names: [
            "Looted Plasrifle",
            "Helm-AR Mk5",
            "Railspike Crossbow",
            "Compact Irradiator",
            "Pneumatic Cannon",
            "Bioaugmetic Wormthrower",
        ],
    },
    SeedWeapon {
        heading: "HEADSHOT",
        id: "headshot",
        range: "18-36\"",
        punch: 6,
        keywords: &[],
        alt_names: [
            "HB-25 Marksman Rifle",
            "Unstable Railgun",
            "Concentrated Plasma Fusil",
            "Precise Mind Rupture",
            "Ultralaser",
            "Customized Scope-Pistol",
        ],
    },
    SeedWeapon {
        heading: "IMMOLATOR",
        id: "immolator",
        range: "2-16\"",
        punch: 5,
        // 003: "Special: Blast 3"
        keywords: &[("blast", "3")],
        alt_names: [
            "Volatile Chemthrower",
            "Grey Goo Test #851",
            "Consecrating Flames",
            "Nanite Swarm",
            "Toxic Breath",
            "Blood Hose",
        ],
    },
    SeedWeapon {
        heading: "\u{2018}NADES",
        id: "nades",
        range: "2-6\"",
        punch: 6,
        // 003: "Special: Blast 2, Scatter D3, Knockback 1"
        keywords: &[("blast", "2"), ("scatter", "D3"), ("knockback", "1")],
        alt_names: [
            "Antipersonnel Fragmentor",
            "Repurposed Fuel Canister",
            "Bursting Pustules",
            "Brittle Warpcrystal",
            "Thermal Detonator",
            "Pipe Bomb",
        ],
    },
    SeedWeapon {
        heading: "DESTRUCTOR",
        id: "destructor",
        range: "12-24\"",
        punch: 6,
        // 003: "Special: Blast 4, Scatter D6, Knockback 2"
        keywords: &[("blast", "4"), ("scatter", "D6"), ("knockback", "2")],
        alt_names: [
            "Shoulder-mounted Rocket",
            "Rotary Grenade Launcher",
            "Autonomous Mining Charges",
            "Psychronic Screech",
            "Gravity Manipulator",
            "Meteoric Cannon",
        ],
    },
];

/// The seed's "Gear" headings, in order.
const SEED_GEAR: [&str; 9] = [
    "LIGHT ARMOR",
    "HEAVY ARMOR",
    "MEDPACK",
    "LUCKY CHARM",
    "WALLCLIMBER SPIKES",
    "COMMLINK",
    "AKIMBO HOLSTER",
    "TRIPWIRE MINES",
    "GRAPPLEWIRE",
];

/// The seed's "Abilities" headings, in order.
const SEED_ABILITIES: [&str; 9] = [
    "HOT AS HELL",
    "FANATIC",
    "TELEKINETIC",
    "LIGHTWEIGHT",
    "BONDED",
    "JACKED",
    "ICONIC",
    "BLOODTHIRSTY",
    "STALKER",
];

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn registry() -> Registry {
    Registry::builtin().expect("the built-in packs load")
}

fn heartbreaker() -> Pack {
    registry()
        .get("heartbreaker")
        .cloned()
        .expect("the Heartbreaker pack is built in")
}

fn quirk<'a>(pack: &'a Pack, id: &str) -> &'a QuirkDef {
    pack.quirk(id)
        .unwrap_or_else(|| panic!("quirk `{id}` is in the pack"))
}

/// A fighter of gang 1 with these quirks (by id).
/// A fighter with these quirks; `QUIRK=OTHER` selects another of their
/// quirks for one that asks for it (`akimbo-holster=sidearm`).
fn fighter(id: i64, leader: bool, quirks: &[&str]) -> Fighter {
    Fighter {
        id: FighterId(id),
        gang: GangId(1),
        name: format!("Fighter {id}"),
        leader,
        quirks: quirks
            .iter()
            .map(|q| match q.split_once('=') {
                Some((quirk, with)) => QuirkPick {
                    with: Some(with.to_owned()),
                    ..QuirkPick::new(quirk)
                },
                None => QuirkPick::new(*q),
            })
            .collect(),
        counters: BTreeMap::new(),
        notes: String::new(),
        base: BTreeMap::new(),
        status: Default::default(),
        group: None,
    }
}

fn stat(pack: &Pack, f: &Fighter, id: &str) -> DerivedStat {
    derive_stats(pack, f, &[])
        .into_iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("stat `{id}` is derived"))
}

/// The rules a fighter breaks on its own.
fn fighter_rules(pack: &Pack, f: &Fighter) -> Vec<String> {
    fighter_problems(pack, f)
        .into_iter()
        .map(|p| p.rule)
        .collect()
}

fn rules_of(problems: &[Problem]) -> Vec<&str> {
    problems.iter().map(|p| p.rule.as_str()).collect()
}

/// The seed prints `‘NADES` with a typographic quote; the pack names it
/// `'Nades`.
fn heading_of(name: &str) -> String {
    name.replace('\'', "\u{2018}").to_uppercase()
}

fn names_in(pack: &Pack, category: &str) -> Vec<String> {
    pack.quirks
        .iter()
        .filter(|q| q.category == category)
        .map(|q| heading_of(&q.name))
        .collect()
}

/// A legal starting gang: 1 leader with 5 different quirks and 5 recruits
/// with 4 different quirks each, breaking no constraint.
fn legal_gang() -> Vec<Fighter> {
    vec![
        fighter(
            1,
            true,
            &["slasher", "light-armor", "medpack", "iconic", "lucky-charm"],
        ),
        fighter(
            2,
            false,
            &["sidearm", "akimbo-holster=sidearm", "commlink", "fanatic"],
        ),
        fighter(
            3,
            false,
            &["leadspitter", "heavy-armor", "commlink", "jacked"],
        ),
        fighter(
            4,
            false,
            &["pulverizer", "lightweight", "grapplewire", "bloodthirsty"],
        ),
        fighter(
            5,
            false,
            &["headshot", "lucky-charm", "wallclimber-spikes", "stalker"],
        ),
        fighter(
            6,
            false,
            &["nades", "tripwire-mines", "telekinetic", "hot-as-hell"],
        ),
    ]
}

// ---------------------------------------------------------------------------
// 1. Catalog
// ---------------------------------------------------------------------------

#[test]
fn builtin_registry_has_heartbreaker() {
    let registry = registry();
    let pack = registry.get("heartbreaker").expect("heartbreaker pack");
    assert_eq!(pack.pack.name, "Heartbreaker");
    assert_eq!(pack.pack.format, FORMAT_VERSION);
    assert!(pack.pack.base.is_none());
    assert!(!pack.pack.house_rules);
}

#[test]
fn catalog_counts_match_the_seed() {
    let pack = heartbreaker();
    let count = |cat: &str| pack.quirks.iter().filter(|q| q.category == cat).count();
    // 003 "Quirks": "Weapons" lists 12 entries, SLASHER to DESTRUCTOR.
    assert_eq!(count("weapon"), SEED_WEAPONS.len());
    assert_eq!(count("weapon"), 12);
    // 003 "Quirks": "Gear" lists 9 entries, LIGHT ARMOR to GRAPPLEWIRE.
    assert_eq!(count("gear"), 9);
    // 003 "Quirks": "Abilities" lists 9 entries, HOT AS HELL to STALKER.
    assert_eq!(count("ability"), 9);
    assert_eq!(pack.quirks.len(), 30);
    let labels: Vec<&str> = pack.categories.iter().map(|c| c.label.as_str()).collect();
    // 003: "Weapons", "Gear", "Abilities" (the three headings under "Quirks")
    assert_eq!(labels, ["Weapons", "Gear", "Abilities"]);
}

#[test]
fn catalog_names_match_the_seed_headings() {
    let pack = heartbreaker();
    let weapons: Vec<&str> = SEED_WEAPONS.iter().map(|w| w.heading).collect();
    // 003 "Weapons": SLASHER, DECAPITATOR, … ‘NADES, DESTRUCTOR
    assert_eq!(names_in(&pack, "weapon"), weapons);
    // 003 "Gear": LIGHT ARMOR, HEAVY ARMOR, … GRAPPLEWIRE
    assert_eq!(names_in(&pack, "gear"), SEED_GEAR);
    // 003 "Abilities": HOT AS HELL, FANATIC, … STALKER
    assert_eq!(names_in(&pack, "ability"), SEED_ABILITIES);
}

#[test]
fn every_weapon_has_the_seeds_six_alt_names() {
    let pack = heartbreaker();
    for seed in &SEED_WEAPONS {
        let q = quirk(&pack, seed.id);
        // 003: "D6 Alt Names:" (six numbered names under every weapon)
        assert_eq!(q.alt_names.len(), 6, "{}", seed.heading);
        assert_eq!(q.alt_names, seed.alt_names, "{}", seed.heading);
    }
    for q in pack.quirks.iter().filter(|q| q.category != "weapon") {
        // 003 prints "D6 Alt Names:" only under the Weapons.
        assert!(q.alt_names.is_empty(), "{} has alt names", q.name);
    }
}

#[test]
fn every_weapon_has_the_seeds_range_punch_and_keywords() {
    let pack = heartbreaker();
    for seed in &SEED_WEAPONS {
        let q = quirk(&pack, seed.id);
        // 003: "RANGE: …" under each weapon
        assert_eq!(q.range.as_deref(), Some(seed.range), "{}", seed.heading);
        // 003: "PUNCH: …" under each weapon
        assert_eq!(q.punch, Some(seed.punch), "{}", seed.heading);
        let keywords: Vec<(&str, &str)> = q
            .keywords
            .iter()
            .map(|k| (k.keyword.as_str(), k.x.as_str()))
            .collect();
        assert_eq!(keywords, seed.keywords, "{}", seed.heading);
    }
    for q in pack.quirks.iter().filter(|q| q.category != "weapon") {
        assert!(q.range.is_none() && q.punch.is_none(), "{}", q.name);
    }
}

#[test]
fn weapon_spot_checks() {
    let pack = heartbreaker();

    let slasher = quirk(&pack, "slasher");
    // 003: "RANGE: Nearby" / "PUNCH: 5" (SLASHER)
    assert_eq!(slasher.range.as_deref(), Some("Nearby"));
    assert_eq!(slasher.punch, Some(5));
    // 003: "Deflect: When attacked by a nearby fighter, you may add this weapon's PUNCH to your ARMOR instead of fighting back"
    assert_eq!(slasher.rules[0].name, "Deflect");
    assert_eq!(
        slasher.rules[0].text,
        "When attacked by a nearby fighter, you may add this weapon's PUNCH to your ARMOR instead of fighting back"
    );

    let sidearm = quirk(&pack, "sidearm");
    // 003: "RANGE: Nearby-6"" / "PUNCH: 5" (SIDEARM)
    assert_eq!(sidearm.range.as_deref(), Some("Nearby-6\""));
    assert_eq!(sidearm.punch, Some(5));

    let headshot = quirk(&pack, "headshot");
    // 003: "RANGE: 18-36"" / "PUNCH: 6" (HEADSHOT)
    assert_eq!(headshot.range.as_deref(), Some("18-36\""));
    assert_eq!(headshot.punch, Some(6));

    let destructor = quirk(&pack, "destructor");
    // 003: "RANGE: 12-24"" / "PUNCH: 6" (DESTRUCTOR)
    assert_eq!(destructor.range.as_deref(), Some("12-24\""));
    assert_eq!(destructor.punch, Some(6));
    let kw: Vec<(&str, &str)> = destructor
        .keywords
        .iter()
        .map(|k| (k.keyword.as_str(), k.x.as_str()))
        .collect();
    // 003: "Special: Blast 4, Scatter D6, Knockback 2"
    assert_eq!(kw, [("blast", "4"), ("scatter", "D6"), ("knockback", "2")]);

    // The Weapons section wins over the example stat card (ruling
    // "card-example-punch").
    // 003: "PUNCH: 7" (PULVERIZER)
    assert_eq!(quirk(&pack, "pulverizer").punch, Some(7));
    // 003: "PUNCH: 6" (‘NADES)
    assert_eq!(quirk(&pack, "nades").punch, Some(6));
    assert!(pack.ruling("card-example-punch").is_some());
}

#[test]
fn keywords_match_the_seed() {
    let pack = heartbreaker();
    let names: Vec<&str> = pack.keywords.iter().map(|k| k.name.as_str()).collect();
    // 003 "Quirk Keywords": "Knockback X", "Blast X", "Scatter X"
    assert_eq!(names, ["Knockback X", "Blast X", "Scatter X"]);
    let knockback = pack.keyword("knockback").expect("knockback");
    // 003: "When this weapon deals damage, it may push the target X" directly away from the attacker."
    assert!(knockback.text.starts_with(
        "When this weapon deals damage, it may push the target X\" directly away from the attacker."
    ));
}

// ---------------------------------------------------------------------------
// 2. Base stats, counters, resources
// ---------------------------------------------------------------------------

#[test]
fn base_stats_match_the_seed() {
    let pack = heartbreaker();
    let labels: Vec<&str> = pack.stats.iter().map(|s| s.label.as_str()).collect();
    // 003 Fighter Stat Card: "LIMIT	SPEED	MEAT	ARMOR"
    assert_eq!(labels, ["LIMIT", "SPEED", "MEAT", "ARMOR"]);

    let limit = pack.stat("limit").expect("limit");
    assert_eq!(limit.name, "Action Limit");
    // 003: "Starting Value: 3" (Action Limit)
    assert_eq!(limit.default, Some(3));

    let speed = pack.stat("speed").expect("speed");
    // 003: "Starting Value: 4"" (Speed)
    assert_eq!(speed.default, Some(4));
    assert_eq!(speed.unit, "\"");

    let meat = pack.stat("meat").expect("meat");
    // 003: "Starting Value: 10" (Meat)
    assert_eq!(meat.default, Some(10));

    let armor = pack.stat("armor").expect("armor");
    // 003: "Starting Value: 1" (Armor)
    assert_eq!(armor.default, Some(1));

    // 003: "While all fighters start with the same base stats, those base values can be modified by their quirks and sometimes other actions and effects."
    let plain = fighter(1, false, &[]);
    let shown: Vec<String> = derive_stats(&pack, &plain, &[])
        .iter()
        .map(DerivedStat::display)
        .collect();
    assert_eq!(shown, ["3", "4\"", "10", "1"]);
}

#[test]
fn bounty_counter_runs_from_0_to_5() {
    let pack = heartbreaker();
    let bounty = pack.counter("bounty").expect("bounty");
    assert_eq!(bounty.label, "Bounty");
    // 003: "Starting Value: 0" (Bounty)
    assert_eq!(bounty.default, Some(0));
    assert_eq!(bounty.min, 0);
    // 003: "Raise that fighter's Bounty by 1 to a maximum of 5."
    assert_eq!(bounty.max, Some(5));
}

#[test]
fn resources_match_the_seed() {
    let pack = heartbreaker();
    let labels: Vec<&str> = pack.resources.iter().map(|r| r.label.as_str()).collect();
    // 003: "**Supply.** …", "**Territory.** …", "**Ammo.** …", "**Reputation.** …"
    assert_eq!(labels, ["Supply", "Territory", "Ammo", "Reputation"]);
    let ids: Vec<&str> = pack.resources.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["supply", "territory", "ammo", "reputation"]);
    // 003: "The food, medicine, equipment, and small survival comforts available to members of your gang."
    assert_eq!(
        pack.resource("supply").expect("supply").description,
        "The food, medicine, equipment, and small survival comforts available to members of your gang."
    );
}

// ---------------------------------------------------------------------------
// 3. Stat effects
// ---------------------------------------------------------------------------

#[test]
fn light_armor_adds_2_armor() {
    let pack = heartbreaker();
    let f = fighter(1, false, &["light-armor"]);
    let armor = stat(&pack, &f, "armor");
    // 003: "Add 2 to this fighter's Armor value."
    assert_eq!(armor.value, 3);
    assert!(
        armor.breakdown().contains("Light Armor"),
        "{}",
        armor.breakdown()
    );
    assert_eq!(armor.breakdown(), "base 1, Light Armor +2");
    assert_eq!(stat(&pack, &f, "speed").value, 4);
}

#[test]
fn heavy_armor_adds_4_armor_and_costs_1_speed() {
    let pack = heartbreaker();
    let f = fighter(1, false, &["heavy-armor"]);
    let armor = stat(&pack, &f, "armor");
    let speed = stat(&pack, &f, "speed");
    // 003: "Add 4 to this fighter's Armor value and subtract 1" from their speed."
    assert_eq!(armor.value, 5);
    assert_eq!(speed.value, 3);
    assert_eq!(speed.display(), "3\"");
    assert!(
        armor.breakdown().contains("Heavy Armor"),
        "{}",
        armor.breakdown()
    );
    assert!(
        speed.breakdown().contains("Heavy Armor"),
        "{}",
        speed.breakdown()
    );
    assert!(
        speed.breakdown().starts_with("base 4\""),
        "{}",
        speed.breakdown()
    );
    assert!(speed.clamped_from.is_none());
}

#[test]
fn lightweight_adds_1_speed() {
    let pack = heartbreaker();
    let f = fighter(1, false, &["lightweight"]);
    let speed = stat(&pack, &f, "speed");
    // 003: "Increase this fighter's speed by 1"."
    assert_eq!(speed.value, 5);
    assert_eq!(speed.display(), "5\"");
    assert_eq!(speed.breakdown(), "base 4\", Lightweight +1\"");
    // 003: "This fighter cannot have armor." (ruling "lightweight-armor": base Armor 1 is kept)
    assert_eq!(stat(&pack, &f, "armor").value, 1);
}

#[test]
fn situational_quirks_change_no_stat() {
    let pack = heartbreaker();
    // 003: "When this fighter has half or less of their maximum Meat remaining, increase their speed by 1, and gain an additional +1 to PUNCH dice when Fighting immediately after Sprinting."
    let f = fighter(1, false, &["fanatic", "jacked", "stalker", "medpack"]);
    let values: Vec<i64> = derive_stats(&pack, &f, &[])
        .iter()
        .map(|s| s.value)
        .collect();
    assert_eq!(values, [3, 4, 10, 1]);
    assert!(pack.ruling("conditional-effects").is_some());
}

// ---------------------------------------------------------------------------
// 4. Constraints
// ---------------------------------------------------------------------------

#[test]
fn only_one_armor_quirk() {
    let pack = heartbreaker();
    let both = fighter(1, false, &["light-armor", "heavy-armor"]);
    // 003: "A fighter may only have 1 Armor Quirk."
    assert!(fighter_rules(&pack, &both).contains(&"constraints.one-armor-quirk".to_owned()));
    for one in ["light-armor", "heavy-armor"] {
        let f = fighter(2, false, &[one]);
        // 003: "A fighter may only have 1 Armor Quirk."
        assert!(
            !fighter_rules(&pack, &f).contains(&"constraints.one-armor-quirk".to_owned()),
            "{one}"
        );
    }
}

#[test]
fn lightweight_cannot_have_armor() {
    let pack = heartbreaker();
    for armor in ["light-armor", "heavy-armor"] {
        let f = fighter(1, false, &["lightweight", armor]);
        let problems = fighter_problems(&pack, &f);
        let problem = problems
            .iter()
            .find(|p| p.rule == "constraints.lightweight-no-armor")
            // 003: "This fighter cannot have armor."
            .unwrap_or_else(|| panic!("lightweight + {armor} is a problem"));
        let ruling = problem
            .ruling
            .as_deref()
            .expect("the problem carries a ruling");
        assert_eq!(
            ruling,
            pack.ruling("lightweight-armor").expect("ruling").ruling
        );
        assert!(problem.describe().contains("(ruling: "));
        assert!(!rules_of(&problems).contains(&"constraints.one-armor-quirk"));
    }
    let alone = fighter(2, false, &["lightweight", "slasher"]);
    // 003: "This fighter cannot have armor."
    assert!(!fighter_rules(&pack, &alone).contains(&"constraints.lightweight-no-armor".to_owned()));
    let armored = fighter(3, false, &["light-armor", "slasher"]);
    assert!(
        !fighter_rules(&pack, &armored).contains(&"constraints.lightweight-no-armor".to_owned())
    );
}

#[test]
fn akimbo_holster_needs_one_of_four_weapons() {
    let pack = heartbreaker();
    let rule = "constraints.akimbo-needs-weapon".to_owned();
    let bare = fighter(1, false, &["akimbo-holster", "medpack"]);
    // 003: "Only fighters equipped with a Sidearm, Leadspitter, Slasher, or Basher may take this quirk."
    assert!(fighter_rules(&pack, &bare).contains(&rule));
    let other = fighter(2, false, &["akimbo-holster", "boomstick", "decapitator"]);
    // 003: "Only fighters equipped with a Sidearm, Leadspitter, Slasher, or Basher may take this quirk."
    assert!(fighter_rules(&pack, &other).contains(&rule));
    for weapon in ["sidearm", "leadspitter", "slasher", "basher"] {
        let f = fighter(3, false, &["akimbo-holster", weapon]);
        // 003: "Only fighters equipped with a Sidearm, Leadspitter, Slasher, or Basher may take this quirk."
        assert!(!fighter_rules(&pack, &f).contains(&rule), "{weapon}");
    }
    let without = fighter(4, false, &["medpack"]);
    assert!(!fighter_rules(&pack, &without).contains(&rule));
}

#[test]
fn bonded_goes_to_exactly_two_fighters() {
    let pack = heartbreaker();
    let gang_with = |bonded: usize| -> Vec<Fighter> {
        (0..6)
            .map(|i| {
                let quirks: &[&str] = if i < bonded { &["bonded"] } else { &[] };
                fighter(i64::try_from(i).expect("small"), i == 0, quirks)
            })
            .collect()
    };
    let bonded_problems = |bonded: usize| -> Vec<Problem> {
        gang_problems(&pack, &gang_with(bonded))
            .into_iter()
            .filter(|p| p.rule == "constraints.bonded-pair")
            .collect()
    };
    for broken in [1, 3] {
        let problems = bonded_problems(broken);
        // 003: "Two of Hearts: This quirk must be given to exactly two fighters in your gang."
        assert_eq!(problems.len(), 1, "{broken} bonded fighters");
        assert_eq!(
            problems[0].scope,
            rapsheet::campaign::ProblemScope::Gang,
            "a gang problem"
        );
        assert!(problems[0].ruling.is_some());
    }
    for kept in [0, 2] {
        // 003: "Two of Hearts: This quirk must be given to exactly two fighters in your gang."
        // (0 is legal by ruling "bonded-none")
        assert!(bonded_problems(kept).is_empty(), "{kept} bonded fighters");
    }
}

// ---------------------------------------------------------------------------
// 5. Recruiting
// ---------------------------------------------------------------------------

#[test]
fn recruiting_numbers_match_the_seed() {
    let pack = heartbreaker();
    let r = pack.recruiting.as_ref().expect("recruiting");
    // 003: "Start with 6 fighters (1 leader + 5 recruits)"
    assert_eq!(
        (r.leaders, r.recruits),
        (CountRange::Exactly(1), CountRange::Exactly(5))
    );
    // 003: "Give each fighter 4 different quirks"
    assert_eq!(r.quirks_per_fighter, Some(CountRange::Exactly(4)));
    assert!(r.distinct_quirks);
    // 003: "The leader gets 1 extra quirk"
    assert_eq!(r.leader_extra_quirks, 1);
}

#[test]
fn a_legal_gang_has_no_problems() {
    let pack = heartbreaker();
    let problems = gang_problems(&pack, &legal_gang());
    // 003: "Start with 6 fighters (1 leader + 5 recruits)"; "Give each fighter 4 different quirks"; "The leader gets 1 extra quirk"
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_gang_without_a_leader() {
    let pack = heartbreaker();
    let mut gang = legal_gang();
    gang[0].leader = false;
    gang[0].quirks.pop();
    let problems = gang_problems(&pack, &gang);
    // 003: "Start with 6 fighters (1 leader + 5 recruits)"
    assert_eq!(rules_of(&problems), ["recruiting.leaders"]);
    assert!(
        problems[0].message.contains("0 leaders"),
        "{}",
        problems[0].message
    );
}

#[test]
fn a_gang_with_two_leaders() {
    let pack = heartbreaker();
    let mut gang = legal_gang();
    gang[1].leader = true;
    gang[1].quirks.push(QuirkPick::new("iconic"));
    let problems = gang_problems(&pack, &gang);
    // 003: "Start with 6 fighters (1 leader + 5 recruits)"
    assert_eq!(rules_of(&problems), ["recruiting.leaders"]);
    assert!(
        problems[0].message.contains("2 leaders"),
        "{}",
        problems[0].message
    );
}

#[test]
fn a_gang_of_five() {
    let pack = heartbreaker();
    let mut gang = legal_gang();
    gang.pop();
    let problems = gang_problems(&pack, &gang);
    // 003: "Start with 6 fighters (1 leader + 5 recruits)"
    assert_eq!(rules_of(&problems), ["recruiting.size"]);
    assert!(
        problems[0].message.contains("5 fighters"),
        "{}",
        problems[0].message
    );
}

#[test]
fn a_recruit_with_three_quirks() {
    let pack = heartbreaker();
    let mut gang = legal_gang();
    gang[2].quirks.pop();
    let problems = gang_problems(&pack, &gang);
    // 003: "Give each fighter 4 different quirks"
    assert_eq!(rules_of(&problems), ["recruiting.quirks"]);
    assert_eq!(
        problems[0].scope,
        rapsheet::campaign::ProblemScope::Fighter {
            fighter: FighterId(3),
            name: "Fighter 3".into()
        }
    );
}

#[test]
fn a_leader_with_four_quirks() {
    let pack = heartbreaker();
    let mut gang = legal_gang();
    gang[0].quirks.pop();
    let problems = gang_problems(&pack, &gang);
    // 003: "The leader gets 1 extra quirk"
    assert_eq!(rules_of(&problems), ["recruiting.quirks"]);
}

#[test]
fn a_duplicate_quirk() {
    let pack = heartbreaker();
    let mut gang = legal_gang();
    gang[5].quirks[3] = QuirkPick::new("nades");
    let problems = gang_problems(&pack, &gang);
    // 003: "Give each fighter 4 different quirks"
    assert_eq!(rules_of(&problems), ["recruiting.distinct"]);
    assert!(
        problems[0].message.contains("'Nades"),
        "{}",
        problems[0].message
    );
}

// ---------------------------------------------------------------------------
// 6. find_quirk and profiles
// ---------------------------------------------------------------------------

#[test]
fn find_quirk_by_id_name_and_alt_name() {
    let pack = heartbreaker();

    let (q, alt) = pack.find_quirk("heavy-armor").expect("by id");
    assert_eq!((q.id.as_str(), alt), ("heavy-armor", None));

    for name in [
        "Light Armor",
        "light armor",
        "LIGHT ARMOR",
        "  Light Armor  ",
    ] {
        let (q, alt) = pack.find_quirk(name).expect("by name");
        assert_eq!((q.id.as_str(), alt), ("light-armor", None), "{name:?}");
    }
    let (q, _) = pack.find_quirk("'nades").expect("'Nades by name");
    assert_eq!(q.id, "nades");

    // 003 PULVERIZER, "D6 Alt Names:": "1. Sledgehammer"
    let (q, alt) = pack.find_quirk("Sledgehammer").expect("by alt name");
    assert_eq!(q.id, "pulverizer");
    assert_eq!(alt, Some("Sledgehammer"));
    let (q, alt) = pack.find_quirk("sledgehammer").expect("alt name, any case");
    assert_eq!(q.id, "pulverizer");
    assert_eq!(alt, Some("Sledgehammer"));

    // 003 SIDEARM, "D6 Alt Names:": "6. Laser Eyes"
    let (q, alt) = pack.find_quirk("LASER EYES").expect("by alt name");
    assert_eq!((q.id.as_str(), alt), ("sidearm", Some("Laser Eyes")));

    assert!(pack.find_quirk("Plasma Cutlass").is_none());
}

#[test]
fn every_alt_name_finds_its_weapon() {
    let pack = heartbreaker();
    for seed in &SEED_WEAPONS {
        for alt in seed.alt_names {
            let (q, found) = pack.find_quirk(alt).expect(alt);
            assert_eq!(q.id, seed.id, "{alt}");
            assert_eq!(found, Some(alt));
        }
    }
}

#[test]
fn profiles() {
    let pack = heartbreaker();
    let profile = |id: &str| pack.profile(quirk(&pack, id));

    let nades = profile("nades");
    // 003: "RANGE: 2-6"" / "PUNCH: 6" / "Special: Blast 2, Scatter D3, Knockback 1"
    for part in ["2-6\"", "P6", "Blast 2", "Scatter D3", "KB 1"] {
        assert!(nades.contains(part), "{nades:?} lacks {part:?}");
    }
    assert_eq!(nades, "2-6\", P6, Blast 2, Scatter D3, KB 1");

    // 003: "Special: Blast 4, Scatter D6, Knockback 2"
    assert_eq!(
        profile("destructor"),
        "12-24\", P6, Blast 4, Scatter D6, KB 2"
    );
    // 003: "Deflect: When attacked by a nearby fighter, you may add this weapon's PUNCH to your ARMOR instead of fighting back"
    assert_eq!(profile("slasher"), "Nearby, P5, Deflect");
    // 003: "Crush: Ignores armor (including from deflect)"
    assert_eq!(profile("pulverizer"), "Nearby, P7, Crush");
    // 003: "Knockback 3"
    assert_eq!(profile("basher"), "Nearby, P5, KB 3");
    // 003: "Reliable: Unaffected by Fatigue, usable when Fighting."
    assert_eq!(profile("sidearm"), "Nearby-6\", P5, Reliable");
    // 003: "Add 2 to this fighter's Armor value."
    assert_eq!(profile("light-armor"), "+2 Armor");
    // 003: "When this fighter uses the shove action, increase the distance pushed from 3" to 5"."
    assert_eq!(profile("jacked"), "Push 5\"");
}

// ---------------------------------------------------------------------------
// 7. Bad packs
// ---------------------------------------------------------------------------

/// The smallest pack that loads.
const MINIMAL: &str = r#"[pack]
id = "mini"
name = "Mini"
format = 1

[words]
card_quirks = "QUIRKS"
card_lasting = "LASTING"
card_notes = "NOTES"
card_marks = "MARKS"
takedowns = "Taken down"
gang = "gang"
gangs = "gangs"
fighter = "fighter"
fighters = "fighters"
entry = "quirk"
entries = "quirks"
leader = "leader"
leaders = "leaders"

[[stats]]
id = "armor"
label = "ARMOR"
default = 1

[[categories]]
id = "weapon"
label = "Weapons"

[[quirks]]
id = "slasher"
name = "Slasher"
category = "weapon"
tags = ["melee"]
"#;

fn load(text: &str) -> Result<Pack, PackError> {
    registry().load_text("test.toml", text)
}

fn refused(text: &str) -> PackError {
    match load(text) {
        Ok(pack) => panic!("pack `{}` was accepted:\n{text}", pack.pack.id),
        Err(err) => {
            assert_eq!(err.file, "test.toml");
            err
        }
    }
}

fn assert_reason(err: &PackError, words: &[&str]) {
    for word in words {
        assert!(
            err.reason.contains(word),
            "{err:?} does not mention {word:?}"
        );
    }
}

#[test]
fn the_minimal_pack_loads() {
    let pack = load(MINIMAL).expect("the minimal pack loads");
    assert_eq!(pack.pack.id, "mini");
    assert_eq!(pack.quirks.len(), 1);
}

#[test]
fn an_unknown_quirk_field_is_refused() {
    let text = format!("{MINIMAL}colour = \"red\"\n");
    let err = refused(&text);
    assert!(err.entry.starts_with("line "), "{err:?}");
    assert_reason(&err, &["unknown field", "colour"]);
}

#[test]
fn an_unknown_quirk_field_reports_its_line() {
    let text = format!("{MINIMAL}colour = \"red\"\n");
    let line = text
        .lines()
        .position(|l| l.starts_with("colour"))
        .expect("line")
        + 1;
    let err = refused(&text);
    assert_eq!(err.entry, format!("line {line}"), "{err:?}");
}

#[test]
fn an_indented_unknown_field_reports_its_line() {
    let text = format!("{MINIMAL}  colour = \"red\"\n");
    let line = text
        .lines()
        .position(|l| l.contains("colour"))
        .expect("line")
        + 1;
    let err = refused(&text);
    assert_eq!(err.entry, format!("line {line}"), "{err:?}");
}

#[test]
fn a_constraint_on_a_missing_quirk_is_refused() {
    let text = format!(
        "{MINIMAL}
[[constraints]]
id = \"ghost-pair\"
kind = \"gang_count\"
quirk = \"ghost\"
allowed = [0, 2]
message = \"Ghost must be given to two fighters.\"
"
    );
    let err = refused(&text);
    assert_eq!(err.entry, "constraints.ghost-pair");
    assert_reason(&err, &["ghost", "not in [[quirks]]"]);

    let text = format!(
        "{MINIMAL}
[[constraints]]
id = \"needs-ghost\"
kind = \"requires_any\"
quirk = \"slasher\"
any_of = [\"ghost\"]
message = \"Slasher needs a ghost.\"
"
    );
    let err = refused(&text);
    assert_eq!(err.entry, "constraints.needs-ghost");
    assert_reason(&err, &["`ghost`", "not in [[quirks]]"]);
}

#[test]
fn five_alt_names_are_refused() {
    let text = format!("{MINIMAL}alt_names = [\"A\", \"B\", \"C\", \"D\", \"E\"]\n");
    let err = refused(&text);
    assert_eq!(err.entry, "quirks.slasher");
    // 003: "D6 Alt Names:" (a d6 table has six names)
    assert_reason(&err, &["alt_names", "6", "not 5"]);

    let six = format!("{MINIMAL}alt_names = [\"A\", \"B\", \"C\", \"D\", \"E\", \"F\"]\n");
    assert_eq!(
        load(&six).expect("six alt names load").quirks[0]
            .alt_names
            .len(),
        6
    );
}

#[test]
fn an_effect_on_a_missing_stat_is_refused() {
    let text = format!("{MINIMAL}effects = [{{ stat = \"speed\", add = 1 }}]\n");
    let err = refused(&text);
    assert_eq!(err.entry, "quirks.slasher");
    assert_reason(&err, &["`speed`", "not in [[stats]]"]);
}

#[test]
fn a_duplicate_quirk_id_is_refused() {
    let text = format!(
        "{MINIMAL}
[[quirks]]
id = \"slasher\"
name = \"Other Slasher\"
category = \"weapon\"
"
    );
    let err = refused(&text);
    assert_eq!(err.entry, "quirks.slasher");
    assert_reason(&err, &["twice"]);
}

#[test]
fn format_2_is_refused() {
    let text = MINIMAL.replace("format = 1", "format = 2");
    let err = refused(&text);
    assert_eq!(err.entry, "pack.format");
    assert_reason(&err, &["format 2", "not supported"]);
}

#[test]
fn an_override_of_an_unknown_base_is_refused() {
    let text = MINIMAL.replace("format = 1", "format = 1\nbase = \"nowhere\"");
    let err = refused(&text);
    assert_eq!(err.entry, "pack.base");
    assert_reason(&err, &["`nowhere`", "not loaded"]);
}

/// House rules on top of Heartbreaker: a harder Slasher, no Stalker.
const OVERRIDE: &str = r#"[pack]
id = "heartbreaker-house"
name = "Heartbreaker (house rules)"
format = 1
base = "heartbreaker"
house_rules = true
remove = ["quirks.stalker"]

[[quirks]]
id = "slasher"
name = "Slasher"
category = "weapon"
tags = ["melee"]
range = "Nearby"
punch = 6
short = "Deflect"
alt_names = [
  "Boot Knife",
  "Scrap Machete",
  "Jagged Screwdriver",
  "Sharpened Nails",
  "Dented Cleaver",
  "Gnashing Teeth",
]
"#;

#[test]
fn an_override_pack_changes_and_removes_quirks() {
    let pack = load(OVERRIDE).expect("the override loads");
    assert_eq!(pack.pack.id, "heartbreaker-house");
    assert!(pack.pack.house_rules);
    assert_eq!(pack.quirk("slasher").expect("slasher").punch, Some(6));
    assert!(pack.quirk("stalker").is_none());
    assert_eq!(pack.quirks.len(), 29);
    // Everything else is the base's.
    let base = heartbreaker();
    assert_eq!(pack.quirk("pulverizer"), base.quirk("pulverizer"));
    assert_eq!(pack.stats, base.stats);
    assert_eq!(pack.constraints, base.constraints);
    assert_eq!(pack.recruiting, base.recruiting);
    assert_eq!(
        pack.quirks[0].id, "slasher",
        "a replaced entry keeps its place"
    );
    assert_eq!(pack.profile(quirk(&pack, "slasher")), "Nearby, P6, Deflect");

    // Added to a registry, it sits beside the untouched base.
    let mut registry = registry();
    let id = registry.add_text("house.toml", OVERRIDE).expect("added");
    assert_eq!(id, "heartbreaker-house");
    let base = registry.get("heartbreaker").expect("base");
    assert_eq!(base.quirk("slasher").expect("slasher").punch, Some(5));
    assert!(base.quirk("stalker").is_some());
}

#[test]
fn an_override_removing_a_missing_entry_is_refused() {
    let text = OVERRIDE.replace("quirks.stalker", "quirks.ghost");
    let err = refused(&text);
    assert_eq!(err.entry, "pack.remove `quirks.ghost`");
    assert_reason(&err, &["`ghost`"]);
}

#[test]
fn an_override_removing_a_constrained_quirk_is_refused() {
    // Removing Bonded leaves the "bonded-pair" constraint naming nothing.
    let text = OVERRIDE.replace("quirks.stalker", "quirks.bonded");
    let err = refused(&text);
    assert_eq!(err.entry, "constraints.bonded-pair");
    assert_reason(&err, &["`bonded`", "not in [[quirks]]"]);
}

// ---------------------------------------------------------------------------
// 8. The pack's own words
// ---------------------------------------------------------------------------

#[test]
fn a_pack_without_its_card_words_is_refused_naming_the_field() {
    let text = MINIMAL.replace("card_quirks = \"QUIRKS\"\n", "");
    let err = refused(&text);
    assert_eq!(err.entry, "words.card_quirks");
    assert_reason(&err, &["missing", "quirks on a printed card"]);
}

#[test]
fn outcomes_without_exactly_one_default_are_refused() {
    let none = format!(
        "{MINIMAL}\n[[outcomes]]\nid = \"ok\"\nlabel = \"Standing\"\n\n[[outcomes]]\nid = \"down\"\nlabel = \"Down\"\ntaken_down = true\n"
    );
    let err = refused(&none);
    assert_eq!(err.entry, "outcomes");
    assert_reason(
        &err,
        &["exactly one outcome needs default = true", "none has"],
    );

    let two = none.replace("label = \"Down\"\n", "label = \"Down\"\ndefault = true\n");
    let two = two.replace(
        "label = \"Standing\"\n",
        "label = \"Standing\"\ndefault = true\n",
    );
    let err = refused(&two);
    assert_reason(&err, &["ok, down have"]);

    let one = none.replace(
        "label = \"Standing\"\n",
        "label = \"Standing\"\ndefault = true\n",
    );
    let pack = load(&one).expect("one default outcome loads");
    assert_eq!(
        pack.default_outcome().map(|o| o.label.as_str()),
        Some("Standing")
    );
}

#[test]
fn an_override_keeps_the_words_it_does_not_give_and_names_its_own_stages() {
    let text = r#"[pack]
id = "heartbreaker-renamed"
name = "Heartbreaker, renamed"
format = 1
base = "heartbreaker"
house_rules = true

[words]
takedowns = "Downed"
gang = "gang"
gangs = "gangs"
fighter = "fighter"
fighters = "fighters"
entry = "quirk"
entries = "quirks"
leader = "leader"
leaders = "leaders"

[[arc_stages]]
id = "first-blood"
name = "Opening Shot"
step = 1

[[counters]]
id = "bounty"
label = "Price"
min = 0
max = 5
"#;
    let pack = load(text).expect("the override loads");
    assert_eq!(pack.words.takedowns, "Downed");
    assert_eq!(pack.words.card_quirks, "QUIRKS", "kept from the base");
    assert_eq!(pack.opening_stages(), vec!["Opening Shot"]);
    assert_eq!(
        pack.bounty_counter().map(|c| c.label.as_str()),
        Some("Price")
    );
}

#[test]
fn a_resource_floor_ruling_must_be_a_ruling_of_the_pack() {
    let text = MINIMAL.replace(
        "[[stats]]",
        "[[resources]]\nid = \"supply\"\nlabel = \"Supply\"\nmin = 0\nfloor_ruling = \"nowhere\"\n\n[[stats]]",
    );
    let err = refused(&text);
    assert_eq!(err.entry, "resources.supply.floor_ruling");
    assert_reason(&err, &["`nowhere`", "[[rulings]]"]);
}

/// Stress dice need their words: a player reads what the game calls the
/// base and stress dice, a success, a stunt, a panic and a push.
#[test]
fn stress_dice_without_their_words_are_refused_naming_the_table() {
    let dice = "\n[dice]\nstress = { sides = 6, success = 6, panic = 1 }\n";
    let err = refused(&format!("{MINIMAL}{dice}"));
    assert_eq!(err.entry, "dice.stress_words", "{err:?}");
    assert_reason(&err, &["stress dice need their words"]);

    let words = "stress_words = { base = \"base\", stress = \"stress\", success = \"success\", successes = \"successes\", extra = \"stunt\", extras = \"stunts\", panic = \"a panic roll\", push = \"push\", pushed = \" \" }\n";
    let err = refused(&format!("{MINIMAL}{dice}{words}"));
    assert_eq!(err.entry, "dice.stress_words.pushed", "{err:?}");
    assert_reason(&err, &["empty"]);

    let whole = words.replace("pushed = \" \"", "pushed = \"pushed\"");
    let pack = load(&format!("{MINIMAL}{dice}{whole}")).expect("stress dice with their words");
    let said = pack.dice.and_then(|d| d.stress_words).expect("words");
    assert_eq!(
        (said.extra.as_str(), said.panic.as_str()),
        ("stunt", "a panic roll")
    );

    let err = refused(&format!("{MINIMAL}\n[dice]\n{whole}"));
    assert_eq!(err.entry, "dice.stress_words", "{err:?}");
    assert_reason(&err, &["need `stress`"]);
}
