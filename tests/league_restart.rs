#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The league's server stopped mid-sync and started again. A binary of its
//! own, with one test: stopping the cluster takes it from every test of
//! the binary.

#[path = "util/laptops.rs"]
mod laptops;
mod util;

use laptops::{Laptop, all_alike, exactly_once, gang, member, organised, server_names};
use util::postgres::cluster;

/// A member's sync is under way (fetched, about to send) when the server
/// stops: it says the league is offline and exits non-zero, and the change
/// stays on the laptop, as does every sync tried during the outage. Once
/// the server is back (same port, same data), everyone syncs: each batch
/// on the server once, no gap, all laptops alike and sound.
#[test]
fn a_server_stopped_mid_sync_and_started_again_loses_nothing() {
    let dir = util::temp();
    let root = dir.path();
    let (organiser, league) = organised(root, "league_restart", 3);
    let ann = member(root, &organiser, &league, "ann", &gang(0));
    let ben = member(root, &organiser, &league, "ben", &gang(1));
    let cat = member(root, &organiser, &league, "cat", &gang(2));
    let start = server_names(&league).len();
    let resource = |laptop: &Laptop, gang: &str, why: &str| {
        laptop.ammo(gang, why);
    };
    resource(&cat, &gang(2), "before the outage");
    cat.ok(&["league", "sync"]);

    resource(&ann, &gang(0), "a crate");
    ann.record_battle(&gang(0), &gang(1), 7);
    resource(&ben, &gang(1), "scavenged");
    ben.record_battle(&gang(1), &gang(2), 8);

    // Ann's sync waits just before sending; the server goes away.
    let (mut child, mut err) = ann.spawn_paused(&[]);
    cluster().stop_now();
    // Closing its input lets the sync go on, to a server that is gone.
    drop(child.stdin.take());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "{rest}");
    assert!(rest.contains("offline"), "{rest}");

    // During the outage every sync says offline; the changes stay.
    let out = ben.run(&["league", "sync"]);
    assert!(!out.status.success());
    assert!(
        util::stderr(&out).contains("offline"),
        "{}",
        util::stderr(&out)
    );
    for laptop in [&ann, &ben] {
        laptop.ok(&["verify"]);
        let status = laptop.ok(&["league", "status", "--offline"]);
        assert!(status.contains("2 changes to send"), "{status}");
    }
    resource(&cat, &gang(2), "during the outage");

    cluster().start_again();
    for laptop in [&ann, &ben, &cat, &ann, &ben, &organiser] {
        laptop.ok(&["league", "sync"]);
    }
    let everyone = [&organiser, &ann, &ben, &cat];
    assert_eq!(exactly_once(&league, &everyone), start + 6);
    all_alike(root, &organiser, &league, &gang(0), &everyone);
}
