#![allow(clippy::unwrap_used, clippy::expect_used)]

//! Memory before a limit: a bundle is read straight into its gangs and
//! fighters, and a list past its limit is refused as it is read, counted
//! and never kept. A bundle of 200,000 fighters once reached a gigabyte
//! before the 10,000-fighter limit refused it; here the allocations made
//! while it is read are counted, and held to a fraction of its size.
//! Alone in its test binary, so no other test's allocations count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system's allocator, counting the bytes held and the most held.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is the system allocator's own, with the same layout;
// only two counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller promised for `layout`.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated here with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated here with `layout`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            let now = if new_size >= layout.size() {
                HELD.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                    - layout.size()
            } else {
                HELD.fetch_sub(layout.size() - new_size, Ordering::Relaxed)
                    - (layout.size() - new_size)
            };
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

#[test]
fn a_gang_past_the_fighter_limit_is_refused_as_it_is_read_not_after() {
    use rapsheet::campaign::bundle;
    // 200,000 fighters of about 230 bytes each: some 47 MB.
    let mut text = String::from(
        r#"{"kind":"rapsheet-bundle","format":1,"campaign":"Hostile","gangs":[{"name":"Horde","ruleset":"heartbreaker","fighters":["#,
    );
    let notes = "n".repeat(180);
    for i in 0..200_000 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(r#"{{"name":"Fighter {i}","notes":"{notes}"}}"#));
    }
    text.push_str("]}]}");
    let bytes = text.into_bytes();
    assert!(bytes.len() > 40_000_000, "{} bytes", bytes.len());
    let held_before = HELD.load(Ordering::Relaxed);
    PEAK.store(held_before, Ordering::Relaxed);
    let err = bundle::read(&bytes).unwrap_err();
    let peak = PEAK.load(Ordering::Relaxed) - held_before;
    assert_eq!(
        err.to_string(),
        "gangs[0].fighters: 200000 fighters is more than a gang of a bundle may carry (at most 10000)"
    );
    // The limit's worth of fighters, not 200,000 of them and a tree of
    // JSON besides: well under the bundle's own size.
    assert!(
        peak < bytes.len() / 4,
        "{peak} bytes held reading a bundle of {} bytes",
        bytes.len()
    );
}
