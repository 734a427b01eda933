//! Dice text (expressions, pools, tier shifts) as the app reads it.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use rapsheet::rules::Registry;

static REGISTRY: LazyLock<Registry> =
    LazyLock::new(|| Registry::builtin().expect("the shipped packs load"));

fuzz_target!(|data: &[u8]| {
    rapsheet::fuzzing::dice_text(&REGISTRY, data);
});
