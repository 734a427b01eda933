//! A whole campaign's bundle made into a new campaign file.
#![no_main]

use libfuzzer_sys::fuzz_target;

thread_local! {
    static DIR: tempfile::TempDir = tempfile::tempdir().expect("a temporary folder");
}

fuzz_target!(|data: &[u8]| {
    DIR.with(|dir| {
        rapsheet::fuzzing::whole_bundle(dir.path(), data).expect("the temporary folder works");
    });
});
