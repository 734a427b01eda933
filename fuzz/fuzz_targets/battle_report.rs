//! A battle report previewed against the demo campaign, made once per run.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapsheet::session::Session;

thread_local! {
    static DEMO: (tempfile::TempDir, Session) = {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let session =
            Session::create_demo(&dir.path().join("demo.rapsheet")).expect("the demo campaign");
        (dir, session)
    };
}

fuzz_target!(|data: &[u8]| {
    DEMO.with(|(_, session)| rapsheet::fuzzing::battle_report(session, data));
});
