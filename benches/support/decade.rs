//! The generated campaigns the benches share, made once through the real
//! post-battle procedure and kept in the target folder.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rapsheet::generator::{GenSize, generate};
use rapsheet::session::Session;

/// The generated campaign, made once and kept.
pub fn campaign(size: GenSize) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!(
        "decade-{}x{}-{}-s{}.rapsheet",
        size.gangs, size.fighters_per_gang, size.battles, size.seed
    ));
    if path.exists() {
        return path;
    }
    let partial = path.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    let ruleset = rapsheet::campaign::demo::ruleset().unwrap();
    let mut session = Session::create(&partial, "The decade campaign", &ruleset).unwrap();
    session.set_bulk(true).unwrap();
    let started = Instant::now();
    eprintln!(
        "generating {} gangs of {} and {} battles (once)…",
        size.gangs, size.fighters_per_gang, size.battles
    );
    generate(&mut session, size, &mut |_, _| {}).unwrap();
    session.set_bulk(false).unwrap();
    drop(session);
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", partial.display()));
    }
    std::fs::rename(&partial, &path).unwrap();
    eprintln!("generated in {:.1} s", started.elapsed().as_secs_f64());
    path
}
