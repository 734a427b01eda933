//! A league-size campaign read the way a small one is: the post-battle
//! procedure reads only the gangs a battle names and each title's leaders
//! (`Session::record_battle`), and what it decides must be what comparing
//! every gang decides.

use crate::util;

use rapsheet::generator::{GenSize, generate};
use rapsheet::session::Session;

/// After every battle the titles stand where comparing all the gangs puts
/// them: the Titles page's "Leading now" (every gang compared) is the holder
/// (the procedure's few gangs compared), title by title, in every pack that
/// has titles.
#[test]
fn titles_after_each_battle_are_those_of_comparing_every_gang() {
    let dir = util::temp();
    for pack in ["heartbreaker", "heartbreaker-escalation"] {
        let path = dir.path().join(format!("{pack}.rapsheet"));
        let mut session = Session::create(&path, "League", pack).unwrap();
        assert!(!session.pack(pack).unwrap().titles.is_empty());
        for round in 0..4 {
            generate(
                &mut session,
                GenSize {
                    gangs: if round == 0 { 40 } else { 0 },
                    fighters_per_gang: 6,
                    battles: 20,
                    seed: round,
                },
                &mut |_, _| {},
            )
            .unwrap();
            let view = session.titles(pack).unwrap();
            for title in &view.titles {
                if view.must_choose.is_empty() {
                    assert_eq!(
                        title.holder, title.would_go_to,
                        "{pack}, round {round}: {} is held by {:?}; comparing every gang gives {:?}",
                        title.name, title.holder, title.would_go_to
                    );
                }
            }
        }
        assert!(session.verify().unwrap().is_sound());
    }
}
