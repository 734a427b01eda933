//! `rapsheet setting`: the choices a rule text leaves to the group (when
//! plot points return), listed or chosen.

use anyhow::Result;

use super::print_json;
use crate::session::{Session, SettingView};

pub(super) fn setting(
    session: &mut Session,
    setting: Option<&str>,
    option: Option<&str>,
    json: bool,
) -> Result<()> {
    match (setting, option) {
        (Some(setting), Some(option)) => {
            let (_, view) = session.set_setting(setting, option)?;
            if json {
                return print_json(&view);
            }
            say!("{} is now {}", view.label, view.chosen_label());
        }
        (Some(setting), None) => {
            let all = session.settings()?;
            let Some(view) = all
                .into_iter()
                .find(|s| s.id == setting || crate::text::same(&s.label, setting))
            else {
                anyhow::bail!("no setting “{}”", crate::text::echo(setting));
            };
            if json {
                return print_json(&view);
            }
            show(&view);
        }
        _ => {
            let all = session.settings()?;
            if json {
                return print_json(&all);
            }
            if all.is_empty() {
                say!("The packs this campaign plays have no settings.");
            }
            all.iter().for_each(show);
        }
    }
    Ok(())
}

fn show(view: &SettingView) {
    let how = if view.by_default {
        " (the pack's default)"
    } else {
        ""
    };
    say!(
        "{} ({}, {}): {}{how}",
        view.label,
        view.id,
        view.pack,
        view.chosen_label()
    );
    for (id, label) in &view.options {
        say!("  {id}: {label}");
    }
    if let Some(ruling) = &view.ruling {
        say!("  [ruling] {ruling}");
    }
}
