//! `rapsheet merge`: another copy of the campaign merged with this one
//! into a new file, conflicts chosen by number.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;

use super::print_json;
use crate::campaign::merge::Choice;
use crate::session::{MergePreview, Session};

/// What `rapsheet merge` is told.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The other copy of the campaign (read, never written).
    pub theirs: PathBuf,
    /// The merged campaign: a new file.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        required_unless_present = "dry_run"
    )]
    pub output: Option<PathBuf>,
    /// Say what the merge would do, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// A conflict's choice: `N=ours` (this copy's), `N=theirs` (the other
    /// copy's) or `N=both`; repeat for each conflict.
    #[arg(long = "take", value_name = "N=CHOICE", value_parser = parse_take)]
    pub take: Vec<(usize, Choice)>,
    /// The choice for every conflict not given by `--take`.
    #[arg(long, value_name = "CHOICE", value_parser = parse_choice)]
    pub all: Option<Choice>,
    #[arg(long)]
    pub json: bool,
}

fn parse_choice(s: &str) -> Result<Choice, String> {
    match s {
        "ours" => Ok(Choice::Ours),
        "theirs" => Ok(Choice::Theirs),
        "both" => Ok(Choice::Both),
        other => Err(format!("`{other}` is not ours, theirs or both")),
    }
}

fn parse_take(s: &str) -> Result<(usize, Choice), String> {
    let (n, choice) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not N=CHOICE (say 2=theirs)"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a conflict's number"))?;
    Ok((n, parse_choice(choice.trim())?))
}

pub(super) fn merge(session: &Session, args: MergeArgs) -> Result<()> {
    let merge = session.plan_merge(&args.theirs)?;
    let preview = session.merge_preview(&merge)?;
    let mut choices = vec![args.all; preview.conflicts.len()];
    for (n, choice) in args.take {
        match choices.get_mut(n.wrapping_sub(1)) {
            Some(slot) => *slot = Some(choice),
            None => bail!("there is no conflict {n} (there are {})", choices.len()),
        }
    }
    let Some(output) = args.output.filter(|_| !args.dry_run) else {
        // The dry run makes the merge as the real one would, then throws
        // it away, so it refuses what the merge would refuse.
        session.try_merge(&merge, &choices)?;
        return if args.json {
            print_json(&preview)
        } else {
            show(&preview);
            Ok(())
        };
    };
    if let Some(n) = choices.iter().position(Option::is_none) {
        show(&preview);
        bail!(
            "conflict {} is not chosen: give --take {}=ours|theirs|both (or --all) for each conflict",
            n + 1,
            n + 1
        );
    }
    let merged = session.write_merge(&merge, &choices, &output)?;
    say!(
        "Wrote {}: this copy's {}, then the other's {}; {} settled; verified",
        crate::text::path(&output),
        crate::rules::counted(preview.ours.len(), "change", "changes"),
        preview.theirs.len(),
        crate::rules::counted(preview.conflicts.len(), "conflict", "conflicts")
    );
    drop(merged);
    Ok(())
}

/// The merge in words.
fn show(preview: &MergePreview) {
    say!("The copies parted after: {}", preview.parted_after);
    say!("This copy since ({}):", preview.ours.len());
    for label in &preview.ours {
        say!("  {label}");
    }
    say!(
        "The other copy since ({}), made after this copy's:",
        preview.theirs.len()
    );
    for label in &preview.theirs {
        say!("  {label}");
    }
    for line in &preview.renumbered {
        say!("  renumbered: {line}");
    }
    for line in &preview.composed {
        say!("Both copies changed it, both kept: {line}");
    }
    for line in &preview.agreed {
        say!("Both copies made the same change: {line}");
    }
    for line in &preview.came_back {
        say!("The other copy changed it and back again, so this copy's stands: {line}");
    }
    for line in &preview.both_took_back {
        say!("Both copies took it back, once here: {line}");
    }
    if preview.conflicts.is_empty() {
        say!("No conflicts");
    }
    for c in &preview.conflicts {
        say!("Conflict {}: {}", c.number, c.subject);
        for line in &c.ours {
            say!("  ours:   {line}");
        }
        for line in &c.theirs {
            say!("  theirs: {line}");
        }
        if let Some(both) = &c.both {
            say!("  both:   {both}");
        }
    }
}
