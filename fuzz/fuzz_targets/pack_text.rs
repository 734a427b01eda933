//! A ruleset pack's text, loaded and validated as `rapsheet check-pack` does.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use rapsheet::rules::Registry;

static REGISTRY: LazyLock<Registry> =
    LazyLock::new(|| Registry::builtin().expect("the shipped packs load"));

fuzz_target!(|data: &[u8]| {
    rapsheet::fuzzing::pack_text(&REGISTRY, data);
});
