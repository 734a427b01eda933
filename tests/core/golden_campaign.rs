//! Campaigns written by earlier versions of Rapsheet must still open,
//! verify and replay. `tests/golden/campaign-schema4-events1.rapsheet` was
//! written by the build that introduced the versioned event format (schema
//! 4, event format 1): the demo gangs, twelve generated battles with their
//! injuries and advancements, an undo and a redo, and a photo. Never
//! regenerate it; add a newer one beside it when the formats move on.

use crate::util;

use rapsheet::session::Session;

const GOLDEN: &[(&str, usize, usize)] = &[("campaign-schema4-events1.rapsheet", 47, 12)];

#[test]
fn every_golden_campaign_opens_verifies_and_replays() {
    for (file, batches, battles) in GOLDEN {
        let dir = util::temp();
        let path = dir.path().join(file);
        let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(file);
        std::fs::copy(&source, &path).expect("copy the golden campaign");

        let session = Session::open(&path).expect("it opens");
        let report = session.verify().expect("verify");
        assert!(report.is_sound(), "{file}: {:?}", report.problems);
        assert_eq!(report.batches, *batches, "{file}");
        assert_eq!(report.battles, *battles, "{file}");

        // Every event of the log reads back and describes itself.
        let names = session.names().expect("names");
        let log = session.log(10_000).expect("the log reads");
        assert_eq!(log.len(), report.events, "{file}");
        assert!(log.iter().all(|e| !e.event.describe(&names).is_empty()));

        // The read models a player sees are whole.
        let gangs = session.gang_list().expect("gangs");
        assert!(gangs.iter().any(|g| g.name == "Neon Jackals"), "{file}");
        let story = session.chronicle().expect("the chronicle reads");
        assert!(!story.arcs.is_empty() || *battles == 0, "{file}");
        let hush = session.fighter_named("Hush", None).expect("Hush");
        assert!(session.photo(hush.id).expect("photo").is_some(), "{file}");
        assert!(
            session.history().expect("history").undo.is_some(),
            "{file}: nothing to undo"
        );
    }
}
