//! A bundle's bytes, read as `rapsheet bundle import` reads them.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    rapsheet::fuzzing::bundle_bytes(data);
});
