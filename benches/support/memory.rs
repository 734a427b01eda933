//! Peak memory, measured in a fresh process: the bench runs itself again
//! with `var` naming the campaign, and that run prints its peak.

use std::path::Path;

/// The peak memory, in KiB, of this bench run again as a fresh process
/// with `var` set to `path` (the run prints `var` and its peak).
pub fn memory_of(var: &str, path: &Path) -> Option<u64> {
    let out = std::process::Command::new(std::env::current_exe().ok()?)
        .arg("--bench")
        .env(var, path)
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix(var))
        .and_then(|v| v.trim().parse().ok())
}

/// The process's peak resident set, from `/proc/self/status` (Linux).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}
