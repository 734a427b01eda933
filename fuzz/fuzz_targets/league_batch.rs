//! Arbitrary bytes as the batches a laptop fetches from the league's
//! server, taken in as a sync takes them in, with no server.
#![no_main]

use libfuzzer_sys::fuzz_target;

thread_local! {
    static DIR: tempfile::TempDir = tempfile::tempdir().expect("a temporary folder");
}

fuzz_target!(|data: &[u8]| {
    DIR.with(|dir| {
        rapsheet::fuzzing::league_batch(dir.path(), data).expect("the temporary folder works");
    });
});
