//! Every argument of the command line that names a file, found by walking
//! clap's command tree, is tried the way a careless or hostile player
//! would: an output aimed at a campaign file (open or not, `--force` or
//! not), and an input that is `/dev/zero`, a FIFO or a folder. A new
//! command that names a file fails here until it has its trials, so none
//! can skip the guards.

use crate::util;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::CommandFactory as _;
use util::{rapsheet, stderr, temp};

/// A file argument of the command line: the subcommand's path
/// (`bundle export`; empty for the top level) and the argument (`--output`,
/// or the value name of a positional one).
fn file_arguments() -> Vec<String> {
    fn walk(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            if arg.get_value_parser().type_id() != std::any::TypeId::of::<PathBuf>() {
                continue;
            }
            let name = match (arg.get_long(), arg.get_value_names()) {
                (Some(long), _) => format!("--{long}"),
                (None, Some([name, ..])) => name.to_string(),
                (None, _) => arg.get_id().as_str().to_uppercase(),
            };
            out.push(format!("{path}{name}"));
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path}{} ", sub.get_name()), out);
        }
    }
    let mut out = Vec::new();
    walk(&rapsheet::cli::Cli::command(), "", &mut out);
    out
}

/// What a file argument is: an output the command writes, an input it
/// reads, or a folder it writes into or lists.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Output,
    Input,
    Folder,
}

/// Each file argument's trial: the command line that uses it, `@` where
/// the file goes. Outputs ask to replace whatever is there.
fn trials() -> Vec<(&'static str, Role, Vec<&'static str>)> {
    use Role::{Folder, Input, Output};
    let db = ["--db", "c.rapsheet"];
    let with_db = |args: &[&'static str]| -> Vec<&'static str> {
        let mut v = args.to_vec();
        v.extend(db);
        v
    };
    vec![
        ("FILE", Input, vec!["@"]),
        ("--db", Input, vec!["gang", "list", "--db", "@"]),
        ("--pack", Input, with_db(&["gang", "list", "--pack", "@"])),
        ("check-pack FILE", Input, vec!["check-pack", "@"]),
        (
            "pack-schema --out",
            Output,
            vec!["pack-schema", "--out", "@", "--force"],
        ),
        ("house keep FILE", Input, with_db(&["house", "keep", "@"])),
        (
            "house export --output",
            Output,
            with_db(&["house", "export", "our-rules", "-o", "@", "--force"]),
        ),
        (
            "fighter photo FILE",
            Input,
            with_db(&["fighter", "photo", "Brick", "@"]),
        ),
        (
            "bundle export --output",
            Output,
            with_db(&["bundle", "export", "--whole", "-o", "@", "--force"]),
        ),
        (
            "bundle import FILE",
            Input,
            with_db(&["bundle", "import", "@"]),
        ),
        ("merge THEIRS", Input, with_db(&["merge", "@", "--dry-run"])),
        (
            "merge --output",
            Output,
            with_db(&["merge", "other.rapsheet", "-o", "@"]),
        ),
        (
            "league init --certificate",
            Input,
            with_db(&[
                "league",
                "init",
                "--host",
                "127.0.0.1",
                "--database",
                "x",
                "--login",
                "x",
                "--certificate",
                "@",
            ]),
        ),
        (
            "league invite --output",
            Output,
            with_db(&["league", "invite", "ann", "-o", "@"]),
        ),
        (
            "league prepare --certificate",
            Input,
            vec![
                "league",
                "prepare",
                "--host",
                "127.0.0.1",
                "--database",
                "x",
                "--login",
                "x",
                "--organiser",
                "x",
                "--certificate",
                "@",
            ],
        ),
        (
            "league move --certificate",
            Input,
            with_db(&[
                "league",
                "move",
                "--host",
                "127.0.0.1",
                "--certificate",
                "@",
            ]),
        ),
        (
            "league certificate FILE",
            Input,
            with_db(&["league", "certificate", "@"]),
        ),
        (
            "league join INVITE",
            Input,
            vec!["league", "join", "@", "--db", "joined.rapsheet"],
        ),
        (
            "backup list --dir",
            Folder,
            with_db(&["backup", "list", "--dir", "@"]),
        ),
        (
            "backup make --dir",
            Folder,
            with_db(&["backup", "make", "--dir", "@"]),
        ),
        (
            "backup restore BACKUP",
            Input,
            vec!["backup", "restore", "@", "-o", "restored.rapsheet"],
        ),
        (
            "backup restore --output",
            Output,
            vec!["backup", "restore", "other.rapsheet", "-o", "@"],
        ),
        (
            "battle record REPORT",
            Input,
            with_db(&["battle", "record", "@", "--dry-run"]),
        ),
        (
            "cards --output",
            Output,
            with_db(&["cards", "-o", "@", "--force"]),
        ),
        (
            "roster --output",
            Output,
            with_db(&["roster", "The Rust Saints", "-o", "@", "--force"]),
        ),
        (
            "export arc --output",
            Output,
            with_db(&["export", "arc", "1", "--format", "md", "-o", "@", "--force"]),
        ),
        (
            "export campaign --output",
            Output,
            with_db(&["export", "campaign", "--format", "md", "-o", "@", "--force"]),
        ),
        (
            "export season --output",
            Output,
            with_db(&["export", "season", "--format", "md", "-o", "@", "--force"]),
        ),
    ]
}

#[test]
fn every_file_argument_of_the_command_line_has_its_trials() {
    let trials = trials();
    let named: Vec<&str> = trials.iter().map(|(name, _, _)| *name).collect();
    let missing: Vec<String> = file_arguments()
        .into_iter()
        .filter(|a| !named.contains(&a.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "these arguments name a file but have no trial here (add one to `trials`): {missing:?}"
    );
    let found = file_arguments();
    let stale: Vec<&&str> = named
        .iter()
        .filter(|n| !found.iter().any(|f| f == **n))
        .collect();
    assert!(
        stale.is_empty(),
        "trials of arguments there are not: {stale:?}"
    );
}

/// A folder with the demo campaign `c.rapsheet`, a second campaign
/// `other.rapsheet` (a copy, as a backup or a laptop's copy is) and a
/// third, `victim.rapsheet`, that no command opens.
fn campaigns() -> tempfile::TempDir {
    let dir = temp();
    let out = rapsheet(dir.path(), &["demo", "--db", "c.rapsheet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The group's own rules, kept in the campaign, for `house export`.
    let out = rapsheet(
        dir.path(),
        &[
            "house",
            "row",
            "--house",
            "our-rules",
            "--base",
            "heartbreaker",
            "--title",
            "Our rules",
            "seize-control",
            "--on",
            "1-3",
            "--result",
            "Cracked ribs",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    for copy in ["other.rapsheet", "victim.rapsheet"] {
        let out = rapsheet(dir.path(), &["backup", "restore", "c.rapsheet", "-o", copy]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    dir
}

fn with_file(args: &[&str], file: &str) -> Vec<String> {
    args.iter()
        .map(|a| {
            if *a == "@" {
                file.to_owned()
            } else {
                (*a).to_owned()
            }
        })
        .collect()
}

/// Runs `rapsheet` with `args`, killed (and the test failed) if it has
/// not ended within a minute: an input must never be waited on.
fn run_bounded(dir: &Path, args: &[String]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rapsheet"))
        .args(args)
        .current_dir(dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("HOME", dir)
        .env("PGPASSWORD", "x")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!(
                "`rapsheet {}` was still running after a minute",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn no_output_of_any_command_replaces_a_campaign_file() {
    let dir = campaigns();
    let victims = [
        "victim.rapsheet",
        "./victim.rapsheet",
        "c.rapsheet",
        "./c.rapsheet",
    ];
    for (name, role, args) in trials() {
        if role == Role::Input {
            continue;
        }
        for victim in victims {
            let before = std::fs::read(dir.path().join("victim.rapsheet")).unwrap();
            let open_before = std::fs::read(dir.path().join("c.rapsheet")).unwrap();
            let out = run_bounded(dir.path(), &with_file(&args, victim));
            assert!(
                !out.status.success(),
                "{name} onto {victim} succeeded: {}",
                util::stdout(&out)
            );
            let err = stderr(&out);
            assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
            // Refused for the file named, not for something before it:
            // but for the two that need what a demo lacks (an arc, a
            // league), whose writing goes through the same guard.
            if !["export arc --output", "league invite --output"].contains(&name) {
                let victim_name = victim.trim_start_matches("./");
                assert!(
                    err.contains(victim_name) || err.contains("either copy"),
                    "{name} onto {victim}: refused for another reason: {err}"
                );
            }
            assert_eq!(
                std::fs::read(dir.path().join("victim.rapsheet")).unwrap(),
                before,
                "{name} wrote over {victim}"
            );
            assert_eq!(
                std::fs::read(dir.path().join("c.rapsheet")).unwrap(),
                open_before,
                "{name} wrote over the open campaign"
            );
        }
    }
    for campaign in ["victim.rapsheet", "c.rapsheet"] {
        let out = rapsheet(dir.path(), &["verify", "--db", campaign]);
        assert!(out.status.success(), "{campaign}: {}", stderr(&out));
    }
}

#[test]
fn the_schema_never_replaces_a_campaign_even_when_forced() {
    // The case that lost a campaign: the schema written over it.
    let dir = campaigns();
    let before = std::fs::read(dir.path().join("victim.rapsheet")).unwrap();
    let out = rapsheet(
        dir.path(),
        &["pack-schema", "--out", "victim.rapsheet", "--force"],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("victim.rapsheet: that file is a Rapsheet campaign"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(dir.path().join("victim.rapsheet")).unwrap(),
        before
    );
}

#[cfg(unix)]
#[test]
fn no_input_of_any_command_reads_a_device_a_pipe_or_a_folder() {
    let dir = campaigns();
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    std::fs::create_dir(dir.path().join("folder")).unwrap();
    let before = std::fs::read(dir.path().join("c.rapsheet")).unwrap();
    for (name, role, args) in trials() {
        if role != Role::Input {
            continue;
        }
        for input in ["/dev/zero", "pipe", "folder"] {
            let out = run_bounded(dir.path(), &with_file(&args, input));
            assert!(!out.status.success(), "{name} took {input}");
            let err = stderr(&out);
            assert_eq!(err.trim_end().lines().count(), 1, "{name} {input}: {err}");
            assert!(
                err.contains(&format!("{input}: not a file")),
                "{name} {input}: {err}"
            );
        }
    }
    // A folder argument given a device or a pipe is refused too, without
    // waiting on it.
    for (name, role, args) in trials() {
        if role != Role::Folder {
            continue;
        }
        for input in ["/dev/zero", "pipe"] {
            let out = run_bounded(dir.path(), &with_file(&args, input));
            assert!(!out.status.success(), "{name} took {input}");
            let err = stderr(&out);
            assert_eq!(err.trim_end().lines().count(), 1, "{name} {input}: {err}");
            assert!(err.contains("not a folder"), "{name} {input}: {err}");
        }
    }
    assert_eq!(
        std::fs::read(dir.path().join("c.rapsheet")).unwrap(),
        before
    );
    assert!(!dir.path().join("joined.rapsheet").exists());
    assert!(!dir.path().join("restored.rapsheet").exists());
}

/// Makes a FIFO at `path`.
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo is needed for this test");
}

/// What an output flag is tried onto: a folder, a FIFO, a socket and a
/// device — a link to `/dev/null`, and where the test may make one (as
/// root), a device node of its own in the temporary folder — so that a
/// guard that fails replaces only what the test made, never the system's.
#[cfg(unix)]
fn not_regular_files(dir: &Path) -> (Vec<&'static str>, std::os::unix::net::UnixListener) {
    std::fs::create_dir(dir.join("folder")).unwrap();
    mkfifo(&dir.join("pipe"));
    let socket = std::os::unix::net::UnixListener::bind(dir.join("socket")).unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.join("null")).unwrap();
    let mut targets = vec!["folder", "pipe", "socket", "null"];
    // A device node of the test's own (`c 1 3` is the null device).
    let node = std::process::Command::new("mknod")
        .arg(dir.join("device"))
        .args(["c", "1", "3"])
        .stderr(std::process::Stdio::null())
        .status();
    if node.is_ok_and(|s| s.success()) {
        targets.push("device");
    } else {
        // Only root may make a device node; the link above is a device
        // to every check that follows it.
        assert_ne!(
            std::process::Command::new("id")
                .arg("-u")
                .output()
                .unwrap()
                .stdout,
            b"0\n",
            "root could not make a device node"
        );
    }
    (targets, socket)
}

/// The kind of what is at `path`, link not followed.
#[cfg(unix)]
fn kind_of(path: &Path) -> String {
    use std::os::unix::fs::FileTypeExt as _;
    let t = path.symlink_metadata().unwrap().file_type();
    format!(
        "dir {} fifo {} socket {} link {} char {}",
        t.is_dir(),
        t.is_fifo(),
        t.is_socket(),
        t.is_symlink(),
        t.is_char_device()
    )
}

#[cfg(unix)]
#[test]
fn no_output_of_any_command_replaces_a_device_a_pipe_a_socket_or_a_folder() {
    let dir = campaigns();
    let (targets, _socket) = not_regular_files(dir.path());
    let before: Vec<String> = targets
        .iter()
        .map(|t| kind_of(&dir.path().join(t)))
        .collect();
    let open_before = std::fs::read(dir.path().join("c.rapsheet")).unwrap();
    for (name, role, args) in trials() {
        if role != Role::Output {
            continue;
        }
        for target in &targets {
            let out = run_bounded(dir.path(), &with_file(&args, target));
            assert!(!out.status.success(), "{name} onto {target} succeeded");
            let err = stderr(&out);
            assert_eq!(err.trim_end().lines().count(), 1, "{name} {target}: {err}");
        }
    }
    let after: Vec<String> = targets
        .iter()
        .map(|t| kind_of(&dir.path().join(t)))
        .collect();
    assert_eq!(after, before, "something was replaced");
    assert_eq!(
        std::fs::read_link(dir.path().join("null")).unwrap(),
        Path::new("/dev/null")
    );
    assert!(
        std::fs::read_dir(dir.path().join("folder"))
            .unwrap()
            .next()
            .is_none(),
        "nothing was written into the folder"
    );
    assert_eq!(
        std::fs::read(dir.path().join("c.rapsheet")).unwrap(),
        open_before
    );
    // Said as what it is, where the command got as far as writing.
    let out = rapsheet(dir.path(), &["pack-schema", "--out", "null", "--force"]);
    assert_eq!(
        stderr(&out).trim_end(),
        "rapsheet: null: not a regular file (a device, a pipe, a socket or a folder); no output replaces one, even when asked to replace; choose a file name"
    );
}

#[test]
fn an_input_larger_than_its_kind_may_be_is_refused_before_it_is_read() {
    let dir = campaigns();
    let big = dir.path().join("big.json");
    let file = std::fs::File::create(&big).unwrap();
    // Sparse: 5 MB that take no room on disk.
    file.set_len(5 * 1024 * 1024).unwrap();
    let out = rapsheet(
        dir.path(),
        &[
            "battle",
            "record",
            "big.json",
            "--dry-run",
            "--db",
            "c.rapsheet",
        ],
    );
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim_end(),
        "rapsheet: big.json: larger than a battle report may be (at most 4 MB)"
    );
    let out = rapsheet(dir.path(), &["check-pack", "big.json"]);
    assert_eq!(
        stderr(&out).trim_end(),
        "rapsheet: big.json: larger than a pack may be (at most 4 MB)"
    );
}

/// Every kind of file Rapsheet reads, the record begun in the window (a
/// draft) among them, refuses a device, a pipe and a folder before it is
/// read, and what is larger than the kind may be; a draft so refused is
/// set aside beside where it was kept, never read and never lost.
#[cfg(unix)]
#[test]
fn every_kind_of_file_read_refuses_a_device_a_pipe_and_a_folder_the_draft_too() {
    use rapsheet::input::{InputError, Kind, read};
    use rapsheet::session::{DraftRead, Drafts};
    let dir = temp();
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    let big = dir.path().join("big");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(Kind::ALL.iter().map(|k| k.limit()).max().unwrap() + 1)
        .unwrap();
    assert!(Kind::ALL.contains(&Kind::Draft));
    for kind in Kind::ALL {
        for input in [Path::new("/dev/zero"), fifo.as_path(), dir.path()] {
            let err = read(input, kind).unwrap_err();
            assert!(
                matches!(err, InputError::NotAFile { .. }),
                "{kind:?}: {err}"
            );
        }
        let err = read(&big, kind).unwrap_err();
        assert!(
            matches!(err, InputError::TooLarge { .. }),
            "{kind:?}: {err}"
        );
    }
    // The window's draft of a campaign, each time put in the draft's place.
    let drafts_folder = dir.path().join("drafts");
    std::fs::create_dir(&drafts_folder).unwrap();
    let drafts = Drafts::in_folder(&drafts_folder);
    let campaign = dir.path().join("c.rapsheet");
    let place = drafts.file(&campaign);
    /// What puts a kind of thing in the draft's place.
    type Put = Box<dyn Fn(&Path)>;
    let put: [(&str, Put); 4] = [
        (
            "/dev/zero",
            Box::new(|p| std::os::unix::fs::symlink("/dev/zero", p).unwrap()),
        ),
        ("a pipe", Box::new(mkfifo)),
        ("a folder", Box::new(|p| std::fs::create_dir(p).unwrap())),
        (
            "too large",
            Box::new(|p| {
                std::fs::File::create(p)
                    .unwrap()
                    .set_len(Kind::Draft.limit() + 1)
                    .unwrap()
            }),
        ),
    ];
    for (what, make) in put {
        make(&place);
        let read = run_draft_read(&drafts, &campaign);
        let DraftRead::SetAside { why, kept } = read else {
            panic!("{what}: {read:?}");
        };
        assert!(!why.is_empty());
        assert!(kept.symlink_metadata().is_ok(), "{what}: kept beside");
        assert!(
            place.symlink_metadata().is_err(),
            "{what}: its place is free"
        );
    }
}

/// Reads a draft, failed (not waited on) if it has not come back within a
/// minute: a pipe must never be waited on.
#[cfg(unix)]
fn run_draft_read(
    drafts: &rapsheet::session::Drafts,
    campaign: &Path,
) -> rapsheet::session::DraftRead {
    let (tx, rx) = std::sync::mpsc::channel();
    let (drafts, campaign) = (drafts.clone(), campaign.to_owned());
    std::thread::spawn(move || {
        let _ = tx.send(drafts.read(&campaign));
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the draft was read without waiting")
}

/// The limits the docs state for each kind of file read are the ones the
/// program holds to.
#[test]
fn the_readme_states_the_limit_of_every_kind_of_file_read() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for kind in rapsheet::input::Kind::ALL {
        let row = format!(
            "| {} | {} |",
            rapsheet::text::capitalised(kind.noun().trim_start_matches("a ")),
            rapsheet::input::size(kind.limit())
        );
        assert!(readme.contains(&row), "README.md lacks the row `{row}`");
    }
}
