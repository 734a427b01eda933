//! The gang view: header, resources, rule problems and the roster table.

use egui::{RichText, Ui};
use egui_extras::{Column, TableBuilder};

use crate::campaign::FighterId;
use crate::rules::Pack;
use crate::session::{CounterView, FighterView, GangView};
use crate::ui::base::action::Action;
use crate::ui::base::action::{FighterAction, GangAction, OutputAction};
use crate::ui::base::widgets::edit_hint;

/// What the player types on the roster: the gang's name and notes, and a
/// new fighter.
#[derive(Debug, Default)]
pub struct RosterForms {
    pub gang: crate::ui::views::gang_edit::GangEdit,
    pub recruit: RecruitForm,
}

/// The form under the roster for recruiting a fighter.
#[derive(Debug, Default)]
pub struct RecruitForm {
    pub name: String,
    /// Bought between games: the gang pays the new fighter's value.
    pub buying: bool,
    /// A group to recruit whole: its kind, its name, its members' names
    /// (one to a line or separated by commas).
    pub group_kind: String,
    pub group_name: String,
    pub group_members: String,
}

/// The roster of a gang: its name and standing, resources, what it may
/// print and take, its problems, its fighters, the aftermath waiting, and
/// recruiting.
pub fn roster_ui(
    ui: &mut Ui,
    view: &GangView,
    pack: Option<&Pack>,
    selected: Option<FighterId>,
    forms: &mut RosterForms,
    read_only: Option<&str>,
    visible: f32,
) -> Option<Action> {
    let nouns = crate::ui::base::widgets::Nouns::of(pack);
    // What is said about the gang wraps at `visible`, the width in sight,
    // where the table under it is wider and scrolls sideways.
    let mut action = ui
        .scope(|ui| {
            ui.set_max_width(visible);
            header_ui(ui, view, nouns);
            let season = season_of_gang_ui(ui, view, pack, read_only);
            let edited = crate::ui::views::gang_edit::gang_edit_ui(
                ui,
                view,
                &mut forms.gang,
                nouns,
                read_only,
            )
            .or(season);
            ui.add_space(4.0);
            let action = resources_ui(ui, view, read_only).or(edited);
            worth_ui(ui, view, pack);
            let action = gang_buttons_ui(ui, view, pack, read_only).or(action);
            ui.add_space(6.0);
            problems_ui(ui, view, pack);
            ui.add_space(6.0);
            action
        })
        .inner;

    // In a ui of its own: the table draws its column's resize line down to
    // the bottom of the ui it is given, and this one ends with the table.
    if let Some(a) = ui.vertical(|ui| table_ui(ui, view, nouns, selected)).inner {
        action = Some(a);
    }
    if let Some(a) = aftermath_ui(ui, view, read_only) {
        action = Some(a);
    }

    ui.add_space(6.0);
    let action = recruit_ui(ui, view, pack, &mut forms.recruit, read_only).or(action);
    group_ui(ui, view, pack, &mut forms.recruit, read_only).or(action)
}

/// Recruiting a group of members who share one profile, whole, where the
/// pack has groups.
fn group_ui(
    ui: &mut Ui,
    view: &GangView,
    pack: Option<&Pack>,
    form: &mut RecruitForm,
    read_only: Option<&str>,
) -> Option<Action> {
    let groups = pack.map(|p| p.groups.as_slice()).unwrap_or_default();
    let first = groups.first()?;
    if !groups.iter().any(|g| g.id == form.group_kind) {
        form.group_kind = first.id.clone();
    }
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        ui.add_enabled_ui(read_only.is_none(), |ui| {
            let shown = groups
                .iter()
                .find(|g| g.id == form.group_kind)
                .map_or_else(String::new, |g| {
                    format!("{} ({})", g.label, g.size.describe())
                });
            crate::ui::base::widgets::labelled_combo(
                ui,
                "New group of",
                |c| c.selected_text(shown),
                |ui| {
                    for g in groups {
                        ui.selectable_value(&mut form.group_kind, g.id.clone(), &g.label);
                    }
                },
            );
            let label = ui.label("Group name");
            ui.add(egui::TextEdit::singleline(&mut form.group_name).desired_width(120.0))
                .labelled_by(label.id);
            let label = ui.label("Members");
            ui.add(
                egui::TextEdit::singleline(&mut form.group_members)
                    .desired_width(220.0)
                    .hint_text("names, separated by commas"),
            )
            .labelled_by(label.id);
            let members: Vec<String> = form
                .group_members
                .split([',', '\n'])
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_owned)
                .collect();
            if ui
                .button("Add group")
                .on_hover_text("Recruit the group whole: its members share one profile")
                .on_disabled_hover_text(edit_hint(read_only))
                .clicked()
                && !form.group_name.trim().is_empty()
            {
                action = Some(Action::Gang(GangAction::RecruitGroup {
                    gang: view.id,
                    kind: form.group_kind.clone(),
                    name: form.group_name.trim().to_owned(),
                    members,
                }));
            }
        });
    });
    action
}

/// The gang's name, its pack, whether it is legal, its notes, titles and
/// what waits for its next record.
fn header_ui(ui: &mut Ui, view: &GangView, nouns: crate::ui::base::widgets::Nouns<'_>) {
    ui.horizontal(|ui| {
        ui.heading(&view.name);
        let mut pack_label = view.ruleset_name.clone();
        if view.house_rules {
            pack_label.push_str(" · house rules");
        }
        ui.label(RichText::new(pack_label).weak());
        if view.legal {
            ui.label(RichText::new("✔ legal").color(egui::Color32::from_rgb(80, 170, 90)))
                .on_hover_text(format!(
                    "This {} follows every recruiting rule.",
                    nouns.gang
                ));
        } else {
            ui.label(RichText::new("⚠ breaks a rule").color(ui.visuals().warn_fg_color))
                .on_hover_text(format!(
                    "A {} may be kept while it breaks a rule; see the list below.",
                    nouns.gang
                ));
        }
    });
    if !view.notes.is_empty() {
        ui.label(RichText::new(&view.notes).italics());
    }
    if !view.titles.is_empty() {
        ui.label(RichText::new(format!("Titles: {}", view.titles.join(", "))).strong());
    }
    for pending in &view.pending {
        ui.label(RichText::new(format!("For the next {} — {pending}", nouns.record)).weak());
    }
}

/// The gang's faction, changed here where its game has factions, and the
/// holdings it holds, in the game's words.
fn season_of_gang_ui(
    ui: &mut Ui,
    view: &GangView,
    pack: Option<&Pack>,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    let factions = pack.map_or(&[][..], |p| p.factions.as_slice());
    if !factions.is_empty() {
        ui.add_enabled_ui(read_only.is_none(), |ui| {
            let current = view.faction.clone().unwrap_or_else(|| "none".to_owned());
            let response = crate::ui::base::widgets::labelled_combo(
                ui,
                &view.season_words.faction,
                |c| c.selected_text(current),
                |ui| {
                    for f in factions {
                        let chosen = view.faction.as_deref() == Some(f.name.as_str());
                        if ui.selectable_label(chosen, &f.name).clicked() && !chosen {
                            action = Some(Action::Season(
                                crate::ui::base::action::SeasonAction::SetFaction {
                                    gang: view.id,
                                    faction: f.name.clone(),
                                },
                            ));
                        }
                    }
                },
            );
            response.on_hover_text("A change of faction goes into the log; undo takes it back");
        });
    }
    if !view.holdings.is_empty() {
        ui.label(
            RichText::new(format!(
                "{}: {}",
                view.season_words.holdings,
                view.holdings.join(", ")
            ))
            .strong(),
        );
    }
    action
}

/// The gang's resources, each with its button to change it: a change
/// always asks for a reason (the dialog).
fn resources_ui(ui: &mut Ui, view: &GangView, read_only: Option<&str>) -> Option<Action> {
    let mut action = None;
    // Two a row where there is room, one where the editor leaves little, so no
    // amount is ever cut off.
    // The roster may scroll sideways: what counts is the width in sight.
    let in_sight = ui.clip_rect().right() - ui.cursor().left();
    let per_row = if in_sight < 640.0 { 1 } else { 2 };
    egui::Grid::new("resources")
        .num_columns(6)
        .spacing([10.0, 4.0])
        .show(ui, |ui| {
            for (i, resource) in view.resources.iter().enumerate() {
                ui.label(RichText::new(&resource.label).strong());
                ui.label(
                    RichText::new(resource.amount.to_string())
                        .monospace()
                        .size(16.0),
                );
                ui.add_enabled_ui(read_only.is_none(), |ui| {
                    let change = ui
                        .small_button(format!("Change {}…", resource.label))
                        .on_hover_text(format!(
                            "Gain or spend {}; the reason goes into the campaign log",
                            resource.label
                        ))
                        .on_disabled_hover_text(edit_hint(read_only));
                    if change.clicked() {
                        action = Some(Action::Gang(GangAction::AskResource {
                            gang: view.id,
                            resource: resource.id.clone(),
                            delta: 1,
                        }));
                    }
                });
                if i % per_row == per_row - 1 {
                    ui.end_row();
                }
            }
        });
    action
}

/// Printing the gang's cards or roster, and its resource actions where
/// the pack has any.
fn gang_buttons_ui(
    ui: &mut Ui,
    view: &GangView,
    pack: Option<&Pack>,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    let nouns = crate::ui::base::widgets::Nouns::of(pack);
    ui.horizontal(|ui| {
        if ui
            .button("Print cards…")
            .on_hover_text(format!(
                "{} cards as a PDF, with a preview",
                crate::text::capitalised(nouns.fighter)
            ))
            .clicked()
        {
            action = Some(Action::Output(OutputAction::OpenPrint {
                gang: Some(view.id),
                roster: false,
            }));
        }
        if ui
            .button("Print roster…")
            .on_hover_text(format!("The whole {} on one page, as a PDF", nouns.gang))
            .clicked()
        {
            action = Some(Action::Output(OutputAction::OpenPrint {
                gang: Some(view.id),
                roster: true,
            }));
        }
    });
    // Only where the pack has resource actions to take.
    let has_actions = pack.is_none_or(|p| !p.actions.is_empty());
    ui.add_enabled_ui(read_only.is_none(), |ui| {
        if !has_actions {
            return;
        }
        let button = ui
            .button("Resource action…")
            .on_hover_text(action_hint(pack))
            .on_disabled_hover_text(edit_hint(read_only));
        if button.clicked() {
            action = Some(Action::Gang(GangAction::AskAction(view.id)));
        }
    });
    action
}

/// Recruiting a new fighter by name, bought with the pack's spending
/// resource where it has one.
fn recruit_ui(
    ui: &mut Ui,
    view: &GangView,
    pack: Option<&Pack>,
    form: &mut RecruitForm,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    ui.horizontal(|ui| {
        ui.add_enabled_ui(read_only.is_none(), |ui| {
            let nouns = crate::ui::base::widgets::Nouns::of(pack);
            let label = ui.label(format!("New {} name", nouns.fighter));
            let edit = ui
                .text_edit_singleline(&mut form.name)
                .labelled_by(label.id)
                .on_disabled_hover_text(edit_hint(read_only));
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let button = ui
                .button("Recruit")
                .on_hover_text(format!(
                    "Add a {} to this {}, then give them {} on the right",
                    nouns.fighter, nouns.gang, nouns.entries
                ))
                .on_disabled_hover_text(edit_hint(read_only));
            // Between games, a new fighter is bought with the pack's
            // spending resource.
            let spend = pack.and_then(Pack::spend_resource);
            if let Some(resource) = spend {
                ui.checkbox(&mut form.buying, format!("Pay with {}", resource.label))
                    .on_hover_text(format!(
                        "Bought between games: the {} pays the new {}'s value, in the same step",
                        nouns.gang, nouns.fighter
                    ));
            }
            if (button.clicked() || enter) && !form.name.trim().is_empty() {
                action = Some(Action::Gang(GangAction::Recruit {
                    gang: view.id,
                    name: form.name.trim().to_owned(),
                    buy: form.buying && spend.is_some(),
                }));
            }
        });
    });
    action
}

fn problems_ui(ui: &mut Ui, view: &GangView, pack: Option<&Pack>) {
    if view.problems.is_empty() {
        ui.label("Follows every recruiting rule of its pack.");
    } else {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            let n = view.problems.len();
            ui.label(
                RichText::new(format!(
                    "Breaks {n} recruiting rule{} (the {} is kept as it is)",
                    if n == 1 { "" } else { "s" },
                    crate::ui::base::widgets::Nouns::of(pack).gang
                ))
                .strong(),
            );
            for problem in &view.problems {
                let text = RichText::new(format!("⚠ {}", problem.describe()))
                    .color(ui.visuals().warn_fg_color);
                let response = ui.label(text);
                if !problem.source.is_empty() {
                    response.on_hover_text(&problem.source);
                }
            }
        });
    }
    // What the roster is legal by: the pack's rulings where the text is
    // silent or open, each named.
    for reliance in &view.relies_on {
        let text = crate::text::capitalised(&reliance.describe());
        let response = ui.label(RichText::new(text).weak());
        if let Some(ruling) = pack.and_then(|p| p.ruling(&reliance.ruling)) {
            response.on_hover_text(&ruling.question);
        }
    }
    if let Some(pack) = pack
        && !pack.rulings.is_empty()
    {
        egui::CollapsingHeader::new(format!(
            "Rulings of {} ({})",
            pack.pack.name,
            pack.rulings.len()
        ))
        .id_salt(("rulings", &pack.pack.id))
        .show(ui, |ui| {
            for ruling in &pack.rulings {
                ui.label(RichText::new(format!("Ruling: {}", ruling.ruling)))
                    .on_hover_text(&ruling.question);
            }
        });
    }
}

/// The least width of the entries' column: the table's last, its lines
/// cut short with all of them on hover.
const ENTRIES_AT_LEAST: f32 = 120.0;

/// The width the roster needs to show every column of its table: what
/// it scrolls across to where the window gives it less.
pub fn min_width(ui: &Ui, view: &GangView) -> f32 {
    let (stats, counters) = column_widths(ui, view);
    let columns = 3 + stats.len() + counters.len() + usize::from(view.value.is_some());
    let spacing = 8.0 * columns as f32;
    22.0 + 90.0
        + stats.iter().sum::<f32>()
        + ENTRIES_AT_LEAST
        + counters.iter().sum::<f32>()
        + if view.value.is_some() { 96.0 } else { 0.0 }
        + spacing
}

/// The widths of the stat and counter columns: each as wide as its
/// heading, so no label is cut (`STRENGTH`, `Plot points`), and no
/// narrower than a number needs.
fn column_widths(ui: &Ui, view: &GangView) -> (Vec<f32>, Vec<f32>) {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let width = |label: &str, least: f32| {
        let text =
            ui.painter()
                .layout_no_wrap(label.to_owned(), font.clone(), egui::Color32::WHITE);
        (text.size().x + 10.0).max(least)
    };
    let stats = view
        .fighters
        .first()
        .map(|f| f.stats.iter().map(|s| width(&s.label, 52.0)).collect())
        .unwrap_or_default();
    let counters = view
        .counters
        .iter()
        .map(|c| width(&c.label, 56.0))
        .collect();
    (stats, counters)
}

fn table_ui(
    ui: &mut Ui,
    view: &GangView,
    nouns: crate::ui::base::widgets::Nouns<'_>,
    selected: Option<FighterId>,
) -> Option<Action> {
    let mut action = None;
    let stat_labels: Vec<String> = view
        .fighters
        .first()
        .map(|f| f.stats.iter().map(|s| s.label.clone()).collect())
        .unwrap_or_default();
    let stat_count = stat_labels.len();
    let counters = &view.counters;
    let (stat_widths, counter_widths) = column_widths(ui, view);
    let mut table = TableBuilder::new(ui)
        .id_salt("roster")
        .striped(true)
        .sense(egui::Sense::click())
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::exact(22.0))
        // A group's line names its members: room for a few of them.
        .column(
            Column::initial(if view.groups.is_empty() { 150.0 } else { 280.0 })
                .at_least(90.0)
                .resizable(true),
        );
    for width in stat_widths {
        table = table.column(Column::exact(width));
    }
    table = table.columns(Column::exact(96.0), usize::from(view.value.is_some()));
    for width in counter_widths {
        table = table.column(Column::exact(width));
    }
    table = table.column(Column::remainder().at_least(ENTRIES_AT_LEAST));
    table = table.min_scrolled_height(120.0);
    table
        .header(22.0, |mut header| {
            header.col(|ui| {
                ui.label(RichText::new("★").strong())
                    .on_hover_text(crate::text::capitalised(nouns.leader));
            });
            header.col(|ui| {
                ui.strong("Name");
            });
            for i in 0..stat_count {
                header.col(|ui| {
                    ui.strong(stat_labels.get(i).map_or("", String::as_str));
                });
            }
            if let Some(value) = &view.value {
                header.col(|ui| {
                    ui.strong(&value.label).on_hover_text(
                        "Worked out from its parts as the pack prices them; \
                         hover a row for how",
                    );
                });
            }
            for counter in counters {
                header.col(|ui| {
                    ui.strong(&counter.label);
                });
            }
            header.col(|ui| {
                ui.strong(crate::text::capitalised(nouns.entries));
            });
        })
        .body(|mut body| {
            // A group is one row, named with its members' names.
            for (fighter, name) in view.listed(|_| true) {
                // A group's row names it and counts its members; who they
                // are is said on hover, once.
                let group = fighter
                    .group
                    .as_ref()
                    .and_then(|tag| view.groups.iter().find(|g| g.tag == *tag));
                let shown = group.map_or_else(|| name.to_string(), |g| g.short());
                body.row(24.0, |mut row| {
                    row.set_selected(selected == Some(fighter.id));
                    fighter_row(
                        &mut row,
                        (fighter, &shown, group.is_some().then_some(name.as_ref())),
                        (stat_count, counters),
                        view.value.as_ref(),
                        nouns,
                    );
                    if row.response().clicked() {
                        action = Some(Action::Fighter(FighterAction::Select(Some(fighter.id))));
                    }
                });
            }
        });
    if view.fighters.is_empty() {
        ui.weak(format!("No {} yet: recruit one below.", nouns.fighters));
    }
    action
}

/// Captives both ways, and the fighters who are gone.
fn aftermath_ui(ui: &mut Ui, view: &GangView, read_only: Option<&str>) -> Option<Action> {
    let mut action = None;
    ui.add_enabled_ui(read_only.is_none(), |ui| {
        for fighter in &view.fighters {
            if let crate::campaign::FighterStatus::Captured { .. } = fighter.status {
                ui.horizontal(|ui| {
                    ui.label(
                        RichText::new(format!("{} is {}", fighter.name, fighter.status_text))
                            .color(ui.visuals().warn_fg_color),
                    );
                    if view.captives_may.ransom
                        && ui
                            .small_button(format!("Ransom {}…", fighter.name))
                            .on_disabled_hover_text(edit_hint(read_only))
                            .clicked()
                    {
                        action = Some(Action::Gang(GangAction::AskRansom(fighter.id)));
                    }
                });
            }
        }
        for (id, name, gang) in &view.captives {
            ui.horizontal(|ui| {
                ui.label(format!("Holding {name} of {gang}"));
                if view.captives_may.release
                    && ui
                        .small_button(format!("Release {name}"))
                        .on_hover_text("Free the captive for nothing")
                        .on_disabled_hover_text(edit_hint(read_only))
                        .clicked()
                {
                    action = Some(Action::Gang(GangAction::Release(*id)));
                }
                if view.captives_may.sell
                    && ui
                        .small_button(format!("Sell {name}…"))
                        .on_hover_text("Sell the captive at the game's price: gone for good")
                        .on_disabled_hover_text(edit_hint(read_only))
                        .clicked()
                {
                    action = Some(Action::Gang(GangAction::AskSale(*id)));
                }
            });
        }
    });
    if !view.gone.is_empty() {
        let gone: Vec<String> = view
            .gone
            .iter()
            .map(|(name, status)| format!("{name} ({status})"))
            .collect();
        ui.label(RichText::new(format!("Gone: {}", gone.join(", "))).weak());
    }
    action
}

/// A roster row: a fighter, and the name it shows (a group's line, for
/// the group's row).
fn fighter_row(
    row: &mut egui_extras::TableRow<'_, '_>,
    (fighter, shown, whole): (&FighterView, &str, Option<&str>),
    (stat_count, counters): (usize, &[CounterView]),
    value: Option<&crate::session::GangValueView>,
    nouns: crate::ui::base::widgets::Nouns<'_>,
) {
    row.col(|ui| {
        if fighter.leader {
            ui.label("★")
                .on_hover_text(crate::text::capitalised(nouns.leader));
        }
    });
    row.col(|ui| {
        let mut name = RichText::new(shown);
        if fighter.leader {
            name = name.strong();
        }
        // One tooltip: the whole line of a group (or a name cut short),
        // and the fighter's problems under it.
        let mut hover: Vec<String> = whole.map(str::to_owned).into_iter().collect();
        hover.extend(fighter.problems.iter().map(|p| p.message.clone()));
        let label = egui::Label::new(name)
            .truncate()
            .show_tooltip_when_elided(hover.is_empty())
            .selectable(false);
        let response = ui.add(label);
        if !hover.is_empty() {
            response.on_hover_text(hover.join("\n"));
        }
        if !fighter.problems.is_empty() {
            ui.label(RichText::new("⚠").color(ui.visuals().warn_fg_color));
        }
        if !fighter.status.can_fight() {
            ui.label(
                RichText::new(&fighter.status_text)
                    .small()
                    .color(ui.visuals().warn_fg_color),
            );
        }
        if !fighter.lasting.is_empty() {
            let names: Vec<String> = fighter.lasting.iter().map(|e| e.summary(": ")).collect();
            ui.label(RichText::new("✚").small())
                .on_hover_text(format!("Lasting effects:\n{}", names.join("\n")));
        }
    });
    for i in 0..stat_count {
        row.col(|ui| {
            if let Some(stat) = fighter.stats.get(i) {
                let mut text = RichText::new(stat.display()).monospace();
                if stat.value != stat.base {
                    text = text.strong();
                }
                ui.add(egui::Label::new(text).selectable(false))
                    .on_hover_text(format!("{}: {}", stat.label, stat.breakdown()));
            }
        });
    }
    if let Some(value) = value {
        value_cell_ui(row, fighter, value);
    }
    for counter in counters {
        row.col(|ui| {
            let value = fighter
                .counters
                .get(&counter.id)
                .copied()
                .unwrap_or_default();
            ui.label(value.to_string())
                .on_hover_text(format!("{} {value}", counter.label));
        });
    }
    // Last, where the row has room: the entries, cut short with all of
    // them on hover, never the numbers before them.
    row.col(|ui| {
        let names: Vec<String> = fighter.quirks.iter().map(|q| q.name.clone()).collect();
        let details: Vec<String> = fighter
            .quirks
            .iter()
            .map(|q| format!("{}: {}", q.title(), q.profile))
            .collect();
        ui.add(
            egui::Label::new(names.join(", "))
                .truncate()
                .show_tooltip_when_elided(false)
                .selectable(false),
        )
        .on_hover_text(details.join("\n"));
    });
}

/// What the gang's fighters are worth together, where the pack prices
/// them: `Value 124 · VP 2`.
fn worth_ui(ui: &mut Ui, view: &GangView, pack: Option<&Pack>) {
    if let Some(value) = &view.value {
        let score =
            crate::ui::base::widgets::score_suffix(value.score_label.as_deref(), value.total.score);
        let limit = value
            .total
            .limit
            .map_or(String::new(), |l| format!(" of {l}"));
        ui.label(
            RichText::new(format!(
                "{} {}{limit}{score}",
                value.label, value.total.value
            ))
            .strong(),
        )
        .on_hover_text(format!(
            "What its {} are worth together",
            crate::ui::base::widgets::Nouns::of(pack).fighters
        ));
    }
    if let Some(rating) = &view.rating {
        ui.label(RichText::new(format!("{} {}", rating.label, rating.value)).strong())
            .on_hover_text(rating_hover(pack));
    }
}

/// How the pack sums its rating, for the hover of the rating's label.
fn rating_hover(pack: Option<&Pack>) -> String {
    let nouns = crate::ui::base::widgets::Nouns::of(pack);
    let Some(def) = pack.and_then(|p| p.rating.as_ref()) else {
        return String::new();
    };
    let mut parts = vec![format!(
        "{} for each of its {} on the roster, not held by a rival",
        def.per_member, nouns.fighters
    )];
    if def.entries {
        parts.push(format!("the cost of each of their {}", nouns.entries));
    }
    for c in &def.counters {
        let label = pack
            .and_then(|p| p.counter(&c.counter))
            .map_or(c.counter.as_str(), |d| d.label.as_str());
        parts.push(format!("{} × each point of {label}", c.factor));
    }
    parts.join("; ")
}

/// A fighter's value and score, with how they were worked out on hover.
fn value_cell_ui(
    row: &mut egui_extras::TableRow<'_, '_>,
    fighter: &FighterView,
    gang: &crate::session::GangValueView,
) {
    row.col(|ui| {
        let Some(value) = &fighter.value else {
            return;
        };
        let score =
            crate::ui::base::widgets::score_suffix(gang.score_label.as_deref(), value.score);
        let hover = format!(
            "{}\n{} {}{score}",
            crate::ui::base::widgets::value_breakdown(value),
            gang.label,
            value.value
        );
        ui.label(format!("{}{score}", value.value))
            .on_hover_text(hover);
    });
}

/// The hover text of the resource-action button: the pack's first actions,
/// by name.
fn action_hint(pack: Option<&Pack>) -> String {
    let names: Vec<&str> = pack
        .into_iter()
        .flat_map(|p| p.actions.iter().take(2))
        .map(|a| a.name.as_str())
        .collect();
    if names.is_empty() {
        format!("Spend resources between {}", records(pack))
    } else {
        format!(
            "Spend resources between {} ({}…)",
            records(pack),
            names.join(", ")
        )
    }
}

/// What several records of the pack are called (`battles`).
fn records(pack: Option<&Pack>) -> String {
    pack.map_or_else(|| "records".to_owned(), |p| p.record().plural())
}
