//! The `rapsheet` binary: a command, or the app.

use std::process::ExitCode;

fn main() -> ExitCode {
    // A script that reads only the first lines (`| head`) ends the output
    // quietly: writes to a closed pipe are dropped (`cli::out`), and the
    // command closes the campaign as usual, so no signal ends it midway.
    let cli = match rapsheet::cli::parse() {
        Ok(cli) => cli,
        // An argument that is not text: named in one line.
        Err(err) if err.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            let args: Vec<_> = std::env::args_os().collect();
            match rapsheet::cli::non_utf8_argument(&args) {
                Some(line) => {
                    eprintln!("rapsheet: {}", rapsheet::text::visible(&line));
                    return ExitCode::from(2);
                }
                None => err.exit(),
            }
        }
        Err(err) => match rapsheet::cli::one_line_usage_error(
            &err,
            &std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect::<Vec<_>>(),
        ) {
            Some(line) => {
                eprintln!("rapsheet: {}", rapsheet::text::visible(&line));
                return ExitCode::from(2);
            }
            None => err.exit(),
        },
    };
    let result = match cli.command {
        Some(command) => {
            let db = cli.db.or(cli.file);
            rapsheet::cli::run_with_packs(db.as_deref(), &cli.packs, command)
        }
        #[cfg(feature = "gui")]
        None => match cli.file {
            // A file named alone is opened, never made: a mistyped
            // command does not become a new campaign.
            Some(file) if file.exists() && !file.is_file() => Err(anyhow::anyhow!(
                "{}: not a file (a folder, a pipe or a device); give a campaign file",
                rapsheet::text::path(&file)
            )),
            Some(file) if !file.is_file() => Err(anyhow::anyhow!(
                "{} is neither a command nor a campaign file (see --help)",
                rapsheet::text::path(&file)
            )),
            file => rapsheet::ui::run(file.or(cli.db), &cli.packs),
        },
        #[cfg(not(feature = "gui"))]
        None => Err(anyhow::anyhow!(
            "this build has no window (built without the `gui` feature): give a command, see --help"
        )),
    };
    // Said, but not written: a full disk or a device that refuses is a
    // failure, not a success with nothing shown.
    let result = result.and_then(|()| match rapsheet::cli::output_failure() {
        Some(why) => Err(anyhow::anyhow!("{why}")),
        None => Ok(()),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // An error may quote what was typed: shown, never obeyed. Each
            // cause once: one that says what the line says already is
            // left out.
            let mut text = String::new();
            for cause in err.chain() {
                let cause = cause.to_string();
                if text.contains(&cause) {
                    continue;
                }
                if !text.is_empty() {
                    text.push_str(": ");
                }
                text.push_str(&cause);
            }
            // One line: a line break it quotes is shown as one.
            let shown = rapsheet::text::visible(&text)
                .replace('\n', "\\u{a}")
                .replace('\t', "\\u{9}");
            eprintln!("rapsheet: {shown}");
            ExitCode::FAILURE
        }
    }
}
