//! Arbitrary bytes as the other copy of a campaign, merged into it.
#![no_main]

use libfuzzer_sys::fuzz_target;

thread_local! {
    static DIR: tempfile::TempDir = tempfile::tempdir().expect("a temporary folder");
}

fuzz_target!(|data: &[u8]| {
    DIR.with(|dir| {
        rapsheet::fuzzing::merge_copy(dir.path(), data).expect("the temporary folder works");
    });
});
