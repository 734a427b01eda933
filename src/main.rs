//! The `rapsheet` binary: a command, or the app.

use std::process::ExitCode;

use clap::Parser as _;
use rapsheet::cli::Cli;

fn main() -> ExitCode {
    // A script that reads only the first lines (`| head`) ends the output
    // quietly, as other command-line tools do.
    #[cfg(unix)]
    // SAFETY: restores the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => match rapsheet::cli::one_line_usage_error(&err) {
            Some(line) => {
                eprintln!("rapsheet: {}", rapsheet::text::visible(&line));
                return ExitCode::from(2);
            }
            None => err.exit(),
        },
    };
    let result = match cli.command {
        Some(command) => rapsheet::cli::run_with_packs(cli.db.as_deref(), &cli.packs, command),
        #[cfg(feature = "gui")]
        None => rapsheet::ui::run(cli.db),
        #[cfg(not(feature = "gui"))]
        None => Err(anyhow::anyhow!(
            "this build has no window (built without the `gui` feature): give a command, see --help"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // An error may quote what was typed: shown, never obeyed.
            let text = format!("{err:#}");
            eprintln!("rapsheet: {}", rapsheet::text::visible(&text));
            ExitCode::FAILURE
        }
    }
}
