//! What a command says reaches its reader, or the command fails: standard
//! output that cannot be written (a full disk) is one line on standard
//! error and a non-zero exit, while a reader that stops early (`| head`)
//! still ends the command cleanly.

use crate::util;

use std::process::{Command, Stdio};

use util::{rapsheet, stderr, temp};

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_on_standard_output_is_a_failure_in_one_line() {
    let dir = temp();
    let out = rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let commands: [&[&str]; 5] = [
        &["pack-schema"],
        &["gang", "list", "--db", "c.rapsheet"],
        &["log", "--db", "c.rapsheet"],
        &["rulesets", "--json"],
        &[
            "gang",
            "show",
            "The Rust Saints",
            "--json",
            "--db",
            "c.rapsheet",
        ],
    ];
    for args in commands {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_rapsheet"))
            .args(args)
            .current_dir(dir.path())
            .env("XDG_DATA_HOME", dir.path().join("data"))
            .env("XDG_CONFIG_HOME", dir.path().join("config"))
            .env("HOME", dir.path())
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} exited 0 on a full disk");
        let err = stderr(&out);
        assert_eq!(
            err.trim_end(),
            "rapsheet: cannot write to standard output: No space left on device (os error 28)",
            "{args:?}"
        );
    }
    // The campaign is closed as always: no lock left beside it.
    assert!(!dir.path().join("c.rapsheet.lock").exists());
}

#[test]
fn a_reader_that_stops_early_still_ends_the_command_cleanly() {
    let dir = temp();
    let out = rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut child = Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(["pack-schema"])
        .current_dir(dir.path())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("HOME", dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Closed before a byte is read.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}
