//! The `rapsheet` binary: a command, or the app.

use std::process::ExitCode;

use clap::Parser;
use rapsheet::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(command) => rapsheet::cli::run(cli.db.as_deref(), command),
        None => rapsheet::ui::run(cli.db),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("rapsheet: {err:#}");
            ExitCode::FAILURE
        }
    }
}
