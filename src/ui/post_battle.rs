//! The post-battle screen: what happened at the table, every change the
//! rules make shown before anything is written, and one Commit.

use std::collections::{BTreeMap, BTreeSet};

use egui::{RichText, Ui};

use super::app::{Action, edit_hint};
use crate::campaign::battle::{
    AdvancementReport, BattleReport, BountyReport, ChoiceReport, EnteredDice, FighterReport,
    GangReport, PickReport, Procedure, TitleChoiceReport,
};
use crate::campaign::{FighterId, GangId};
use crate::rules::Pack;

/// A gang that can take part, with its roster.
#[derive(Debug, Clone)]
pub struct BattleGangData {
    pub id: GangId,
    pub name: String,
    pub ruleset: String,
    pub fighters: Vec<(FighterId, String)>,
}

/// The form's state. The report is rebuilt from it after every change and
/// the procedure rerun, so the preview is always what Commit will write.
#[derive(Debug, Default)]
pub struct BattleForm {
    pub scenario: String,
    pub gangs: [Option<GangId>; 2],
    pub roles: [Option<String>; 2],
    pub ran: [bool; 2],
    /// Index of the winning gang; `None` is "no winner".
    pub winner: Option<usize>,
    pub counts: [BTreeMap<String, i64>; 2],
    /// Fighter → (outcome id, downed by).
    pub outcomes: BTreeMap<FighterId, (String, Option<FighterId>)>,
    /// Fighters who sat this battle out.
    pub absent: BTreeSet<FighterId>,
    /// (gang index, epilogue line) → pick.
    pub choices: BTreeMap<(usize, String), String>,
    pub bounties: [Option<FighterId>; 2],
    pub titles: BTreeMap<usize, String>,
    pub notes: String,
    /// The seed of the app's rolls: fixed while the form is open, so the
    /// preview shows the rolls Commit will store.
    pub seed: u64,
    /// Roll name → dice typed in from the table (`3, 5`).
    pub dice: BTreeMap<String, String>,
    /// Roll name → pick (which stat, hold or another result…).
    pub picks: BTreeMap<String, String>,
    /// Fighters nominated for an advancement roll.
    pub advancing: BTreeSet<FighterId>,
    /// Set when the form changed and the preview must be rerun.
    pub dirty: bool,
    pub preview: Option<Result<Procedure, String>>,
    /// Set when roles should be suggested from the previous battle.
    pub wants_roles: bool,
}

impl BattleForm {
    /// The battle report this form describes.
    pub fn report(&self, data: &[BattleGangData]) -> Option<BattleReport> {
        let gang = |i: usize| self.gangs[i].and_then(|id| data.iter().find(|g| g.id == id));
        let (a, b) = (gang(0)?, gang(1)?);
        let name_of = |id: FighterId| {
            data.iter()
                .flat_map(|g| g.fighters.iter())
                .find(|(f, _)| *f == id)
                .map(|(_, n)| n.clone())
        };
        let gangs = [a, b]
            .iter()
            .enumerate()
            .map(|(i, g)| GangReport {
                gang: g.name.clone(),
                role: self.roles[i].clone(),
                ran_for_it: self.ran[i],
                counts: self.counts[i].clone(),
                fighters: Some(
                    g.fighters
                        .iter()
                        .filter(|(id, _)| !self.absent.contains(id))
                        .map(|(id, name)| {
                            // Left without an outcome: the pack's default.
                            let (outcome, by) = self
                                .outcomes
                                .get(id)
                                .cloned()
                                .map_or((None, None), |(o, by)| (Some(o), by));
                            FighterReport {
                                fighter: name.clone(),
                                outcome,
                                downed_by: by.and_then(name_of),
                            }
                        })
                        .collect(),
                ),
            })
            .collect();
        let names = [a.name.clone(), b.name.clone()];
        Some(BattleReport {
            format: crate::campaign::battle::REPORT_FORMAT,
            scenario: self.scenario.clone(),
            gangs,
            winner: self.winner.map(|i| names[i].clone()),
            choices: self
                .choices
                .iter()
                .map(|((i, rule), pick)| ChoiceReport {
                    gang: names[*i].clone(),
                    rule: rule.clone(),
                    pick: pick.clone(),
                })
                .collect(),
            bounties: self
                .bounties
                .iter()
                .enumerate()
                .filter_map(|(i, f)| {
                    f.and_then(name_of).map(|fighter| BountyReport {
                        by: names[i].clone(),
                        fighter,
                    })
                })
                .collect(),
            titles: self
                .titles
                .iter()
                .map(|(i, title)| TitleChoiceReport {
                    gang: names[*i].clone(),
                    title: title.clone(),
                })
                .collect(),
            dice: self
                .dice
                .iter()
                .filter_map(|(roll, faces)| {
                    let faces: Option<Vec<u32>> = faces
                        .split([',', ' '])
                        .filter(|f| !f.is_empty())
                        .map(|f| f.trim().parse().ok())
                        .collect();
                    faces.filter(|f| !f.is_empty()).map(|faces| EnteredDice {
                        roll: roll.clone(),
                        faces,
                    })
                })
                .collect(),
            advancements: self
                .advancing
                .iter()
                .filter_map(|id| {
                    let gang = data
                        .iter()
                        .find(|g| g.fighters.iter().any(|(f, _)| f == id))?;
                    Some(AdvancementReport {
                        gang: gang.name.clone(),
                        fighter: name_of(*id)?,
                    })
                })
                .collect(),
            picks: self
                .picks
                .iter()
                .map(|(roll, pick)| PickReport {
                    roll: roll.clone(),
                    pick: pick.clone(),
                })
                .collect(),
            table_results: Vec::new(),
            notes: self.notes.clone(),
        })
    }
}

pub fn post_battle_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    data: &[BattleGangData],
    pack: Option<&Pack>,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    let before = (form.report(data), form.gangs, form.scenario.clone());
    ui.heading("Record a battle");
    let Some(pack) = pack else {
        ui.label("Found two gangs first: a battle is between two gangs.");
        return None;
    };
    if form.scenario.is_empty()
        && let Some(first) = pack.scenarios.first()
    {
        form.scenario = first.id.clone();
    }

    ui.horizontal(|ui| {
        let current = pack
            .scenario(&form.scenario)
            .map_or("Choose…".to_owned(), |s| s.name.clone());
        let response = egui::ComboBox::from_label("Scenario")
            .selected_text(current)
            .width(220.0)
            .show_ui(ui, |ui| {
                for stage in &pack.arc_stages {
                    ui.label(RichText::new(&stage.name).weak());
                    for s in pack.scenarios.iter().filter(|s| s.stage == stage.id) {
                        ui.selectable_value(&mut form.scenario, s.id.clone(), &s.name)
                            .on_hover_text(&s.premise);
                    }
                }
                // Scenarios of no arc stage (a pack without arcs).
                for s in pack
                    .scenarios
                    .iter()
                    .filter(|s| pack.arc_stage(&s.stage).is_none())
                {
                    ui.selectable_value(&mut form.scenario, s.id.clone(), &s.name)
                        .on_hover_text(&s.premise);
                }
            });
        if let Some(s) = pack.scenario(&form.scenario) {
            response.response.on_hover_text(&s.premise);
            let stage = pack.arc_stage(&s.stage).map_or("", |st| st.name.as_str());
            ui.label(RichText::new(stage).weak());
        }
    });
    if before.2 != form.scenario {
        // A new scenario: its own roles, counts and choices.
        form.roles = [None, None];
        form.counts = Default::default();
        form.choices.clear();
        form.wants_roles = true;
    }
    let scenario = pack.scenario(&form.scenario).cloned();

    // The two gangs, one above the other.
    for i in 0..2 {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            gang_column_ui(ui, form, i, data, pack, scenario.as_ref());
        });
    }

    // The result.
    ui.separator();
    let names: Vec<String> = (0..2)
        .map(|i| {
            form.gangs[i]
                .and_then(|id| data.iter().find(|g| g.id == id))
                .map_or(format!("Gang {}", i + 1), |g| g.name.clone())
        })
        .collect();
    ui.horizontal(|ui| {
        ui.label(RichText::new("Result").strong());
        for (i, name) in names.iter().enumerate() {
            ui.radio_value(&mut form.winner, Some(i), format!("{name} won"));
        }
        ui.radio_value(&mut form.winner, None, "No winner (both Ran For It)");
    });
    // A gang that Ran For It lost.
    match form.ran {
        [true, false] => form.winner = Some(1),
        [false, true] => form.winner = Some(0),
        [true, true] => form.winner = None,
        [false, false] => {}
    }

    // Bounties, named by the pack's bounty counter.
    if let Some(counter) = pack.bounty_counter() {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("Declare a {}", counter.label)).strong());
            for (i, name) in names.iter().enumerate() {
                let rival = form.gangs[1 - i].and_then(|id| data.iter().find(|g| g.id == id));
                let Some(rival) = rival else { continue };
                let current = form.bounties[i]
                    .and_then(|f| rival.fighters.iter().find(|(id, _)| *id == f))
                    .map_or("nobody".to_owned(), |(_, n)| n.clone());
                egui::ComboBox::from_label(format!("{} declared by {name}", counter.label))
                    .selected_text(current)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut form.bounties[i], None, "nobody");
                        for (id, name) in &rival.fighters {
                            ui.selectable_value(&mut form.bounties[i], Some(*id), name);
                        }
                    });
            }
        });
    }

    advancement_ui(ui, form, data, pack, &names);

    ui.horizontal(|ui| {
        let label = ui.label("Battle notes");
        ui.text_edit_singleline(&mut form.notes)
            .labelled_by(label.id);
    });

    // Preview: every change, the choices still to make, and Commit.
    ui.separator();
    let preview = form.preview.clone();
    match &preview {
        None => {
            ui.weak("Choose two gangs to see what the battle changes.");
        }
        Some(Err(err)) => {
            ui.label(RichText::new(format!("⚠ {err}")).color(ui.visuals().error_fg_color));
        }
        Some(Ok(procedure)) => {
            ui.label(RichText::new("What the rules change").strong());
            if procedure.changes.is_empty() {
                ui.weak("Nothing changes.");
            }
            for change in &procedure.changes {
                let mut text = match &change.gang {
                    Some(who) => format!("{who}: {}", change.text),
                    None => change.text.clone(),
                };
                if change.ruling.is_some() {
                    text.push_str("  [ruling]");
                }
                let mut hover = change.source.clone();
                if let Some(ruling) = &change.ruling {
                    hover.push_str(&format!("\n\nRuling: {ruling}"));
                }
                ui.label(text).on_hover_text(hover);
            }
            let needed = procedure.needed.clone();
            for need in &needed {
                ui.horizontal_wrapped(|ui| {
                    ui.label(
                        RichText::new(format!("{} chooses: {}", need.gang, need.text))
                            .color(ui.visuals().warn_fg_color),
                    );
                    let index = names.iter().position(|n| *n == need.gang);
                    for option in &need.options {
                        let label = option_label(Some(pack), &form.scenario, need, option);
                        // A pick belongs to a roll; a choice to a gang.
                        let button = if need.field == "picks" {
                            format!("{}: {label}", need.rule)
                        } else {
                            format!("{}: {label}", need.gang)
                        };
                        if ui.button(button).clicked() {
                            match (need.field.as_str(), index) {
                                ("picks", _) => {
                                    form.picks.insert(need.rule.clone(), option.clone());
                                }
                                ("titles", Some(i)) => {
                                    form.titles.insert(i, option.clone());
                                }
                                (_, Some(i)) => {
                                    form.choices.insert((i, need.rule.clone()), option.clone());
                                }
                                _ => {}
                            }
                        }
                    }
                });
            }
            rolls_ui(ui, form, procedure);
            if !form.choices.is_empty() || !form.titles.is_empty() || !form.picks.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.weak("Choices made:");
                    let made: Vec<String> = form
                        .choices
                        .iter()
                        .map(|((i, rule), pick)| format!("{} {rule}: {pick}", names[*i]))
                        .chain(
                            form.titles
                                .iter()
                                .map(|(i, t)| format!("{}: {t}", names[*i])),
                        )
                        .chain(form.picks.iter().map(|(roll, p)| format!("{roll}: {p}")))
                        .collect();
                    ui.weak(made.join(" · "));
                    if ui.small_button("Clear choices").clicked() {
                        form.choices.clear();
                        form.titles.clear();
                        form.picks.clear();
                    }
                });
            }
            ui.add_space(6.0);
            let ready = procedure.needed.is_empty();
            ui.add_enabled_ui(read_only.is_none() && ready, |ui| {
                let commit = ui
                    .button(RichText::new("Commit battle").strong())
                    .on_hover_text("Write the battle and every change above in one step (Ctrl+Z takes it back)")
                    .on_disabled_hover_text(if ready {
                        edit_hint(read_only)
                    } else {
                        "Make the choices above first".to_owned()
                    });
                if commit.clicked()
                    && let Some(report) = form.report(data)
                {
                    action = Some(Action::RecordBattle(Box::new(report), form.seed));
                }
            });
        }
    }
    if ui.small_button("Clear the form").clicked() {
        *form = BattleForm::default();
    }
    if (form.report(data), form.gangs, form.scenario.clone()) != before {
        form.dirty = true;
    }
    action
}

/// Fighters the players nominate for an advancement roll.
fn advancement_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    data: &[BattleGangData],
    pack: &Pack,
    names: &[String],
) {
    let Some(rules) = &pack.advancement else {
        return;
    };
    let allowance = match (&rules.per_resource, rules.per_battle) {
        (Some(per), _) => format!(
            "one roll per full {} {} gained",
            per.amount,
            pack.resource_label(&per.resource)
        ),
        (None, Some(n)) => format!("up to {n} per gang"),
        (None, None) => String::new(),
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Advancement").strong())
            .on_hover_text(&rules.source);
        ui.weak(allowance);
        for (i, gang) in form.gangs.iter().enumerate() {
            let Some(gang) = gang.and_then(|id| data.iter().find(|g| g.id == id)) else {
                continue;
            };
            for (id, name) in &gang.fighters {
                if form.absent.contains(id) {
                    continue;
                }
                let outcome = form
                    .outcomes
                    .get(id)
                    .map(|(o, _)| o.as_str())
                    .or(pack.default_outcome().map(|o| o.id.as_str()));
                if rules
                    .exclude_outcomes
                    .iter()
                    .any(|o| Some(o.as_str()) == outcome)
                {
                    continue;
                }
                let mut on = form.advancing.contains(id);
                if ui
                    .checkbox(&mut on, format!("Advance {name}"))
                    .on_hover_text(format!(
                        "{} nominates {name} for an advancement roll",
                        names[i]
                    ))
                    .changed()
                {
                    if on {
                        form.advancing.insert(*id);
                    } else {
                        form.advancing.remove(id);
                    }
                }
            }
        }
    });
}

/// Every roll the procedure makes, with a field to enter the dice rolled
/// at the table instead, and a button to roll again.
fn rolls_ui(ui: &mut Ui, form: &mut BattleForm, procedure: &Procedure) {
    if procedure.rolls.is_empty() {
        return;
    }
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new("Rolls").strong());
        ui.weak(format!(
            "made by the app from seed {}, or entered from your dice",
            procedure.seed
        ));
        if ui
            .small_button("Roll again")
            .on_hover_text("New rolls for every roll whose dice were not entered")
            .clicked()
        {
            form.seed = crate::dice::seed_from_clock().max(1);
            form.dirty = true;
        }
    });
    egui::Grid::new("rolls")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for roll in &procedure.rolls {
                let dice: Vec<String> = roll.record.dice.iter().map(u32::to_string).collect();
                let by = match roll.record.source {
                    crate::dice::RollSource::Hand => "your dice",
                    crate::dice::RollSource::App { .. } => "app",
                };
                let name = ui.label(&roll.roll);
                ui.label(format!(
                    "{} [{}] = {}: {} ({by})",
                    roll.record.expression,
                    dice.join(", "),
                    roll.total,
                    roll.result
                ));
                let entry = form.dice.entry(roll.roll.clone()).or_default();
                ui.add(
                    egui::TextEdit::singleline(entry)
                        .desired_width(90.0)
                        .hint_text("your dice"),
                )
                .labelled_by(name.id)
                .on_hover_text(format!(
                    "The dice you rolled for {}, e.g. 3 4; leave empty for the app's roll",
                    roll.roll
                ));
                ui.end_row();
            }
        });
    form.dice.retain(|_, v| !v.trim().is_empty());
}

/// The words on a choice's button: `Supply 1`, a title's name, `none`.
pub fn option_label(
    pack: Option<&Pack>,
    scenario: &str,
    need: &crate::campaign::battle::NeededChoice,
    option: &str,
) -> String {
    let Some(pack) = pack else {
        return option.to_owned();
    };
    if let Some(resource) = pack.resource(option) {
        let amount = pack
            .scenario(scenario)
            .and_then(|s| s.epilogue.iter().find(|r| r.id == need.rule))
            .and_then(|r| r.choice.iter().find(|a| a.resource == option))
            .map_or(String::new(), |a| format!(" {}", a.amount));
        return format!("{}{amount}", resource.label);
    }
    if let Some(title) = pack.titles.iter().find(|t| t.id == option) {
        return title.name.clone();
    }
    if let Some(quirk) = pack.quirk(option) {
        return quirk.name.clone();
    }
    if let Some(stat) = pack.stat(option) {
        return if stat.name.is_empty() {
            stat.label.clone()
        } else {
            stat.name.clone()
        };
    }
    // A row of a table (`10-11`): name it.
    pack.tables
        .iter()
        .flat_map(|t| t.rows.iter())
        .find(|r| r.on == option && !r.name.is_empty())
        .map_or(option.to_owned(), |r| format!("{option} {}", r.name))
}

fn gang_column_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    i: usize,
    data: &[BattleGangData],
    pack: &Pack,
    scenario: Option<&crate::rules::ScenarioDef>,
) {
    let other = form.gangs[1 - i];
    let current = form.gangs[i]
        .and_then(|id| data.iter().find(|g| g.id == id))
        .map_or("Choose…".to_owned(), |g| g.name.clone());
    let before = form.gangs[i];
    ui.horizontal_wrapped(|ui| {
        egui::ComboBox::from_label(format!("Gang {}", i + 1))
            .selected_text(current)
            .width(200.0)
            .show_ui(ui, |ui| {
                for g in data
                    .iter()
                    .filter(|g| Some(g.id) != other && g.ruleset == pack.pack.id)
                {
                    ui.selectable_value(&mut form.gangs[i], Some(g.id), &g.name);
                }
            });
        if let Some(gang) = form.gangs[i].and_then(|id| data.iter().find(|g| g.id == id)) {
            role_and_counts_ui(ui, form, i, gang, scenario);
        }
    });
    if form.gangs[i] != before {
        form.wants_roles = true;
    }
    let Some(gang) = form.gangs[i].and_then(|id| data.iter().find(|g| g.id == id)) else {
        return;
    };
    fighters_ui(ui, form, i, gang, data, pack);
}

fn role_and_counts_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    i: usize,
    gang: &BattleGangData,
    scenario: Option<&crate::rules::ScenarioDef>,
) {
    if let Some(scenario) = scenario
        && !scenario.roles.is_empty()
    {
        let current = form.roles[i]
            .as_ref()
            .and_then(|r| scenario.roles.iter().find(|x| x.id == *r))
            .map_or("Choose…".to_owned(), |r| r.label.clone());
        egui::ComboBox::from_label(format!("Role of {}", gang.name))
            .selected_text(current)
            .show_ui(ui, |ui| {
                for role in &scenario.roles {
                    ui.selectable_value(&mut form.roles[i], Some(role.id.clone()), &role.label)
                        .on_hover_text(&role.source);
                }
            });
    }
    ui.checkbox(&mut form.ran[i], format!("{} Ran For It", gang.name));
    if let Some(scenario) = scenario {
        for count in &scenario.counts {
            ui.horizontal(|ui| {
                let label = ui.label(format!("{} ({})", count.label, gang.name));
                let value = form.counts[i].entry(count.id.clone()).or_insert(0);
                let mut drag = egui::DragValue::new(value)
                    .range(0..=count.max.or(count.total_max).unwrap_or(99));
                drag = drag.speed(0.1);
                ui.add(drag).labelled_by(label.id);
            });
        }
    }
}

fn fighters_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    i: usize,
    gang: &BattleGangData,
    data: &[BattleGangData],
    pack: &Pack,
) {
    let rival = form.gangs[1 - i].and_then(|id| data.iter().find(|g| g.id == id));
    egui::Grid::new(("fighters", i))
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for (id, name) in &gang.fighters {
                let mut present = !form.absent.contains(id);
                if ui
                    .checkbox(&mut present, name.as_str())
                    .on_hover_text("Took part")
                    .changed()
                {
                    if present {
                        form.absent.remove(id);
                    } else {
                        form.absent.insert(*id);
                    }
                }
                let entry = form.outcomes.entry(*id).or_insert_with(|| {
                    let usual = pack.default_outcome().map(|o| o.id.clone());
                    (usual.unwrap_or_default(), None)
                });
                ui.horizontal(|ui| {
                    for outcome in &pack.outcomes {
                        let selected = entry.0 == outcome.id;
                        let text = format!("{}: {}", name, outcome.label);
                        let button = egui::Button::selectable(selected, outcome.label.as_str());
                        if ui
                            .add_enabled(present, button)
                            .on_hover_text(text)
                            .clicked()
                        {
                            entry.0 = outcome.id.clone();
                            if !outcome.taken_down {
                                entry.1 = None;
                            }
                        }
                    }
                });
                let taken_down = pack.outcome(&entry.0).is_some_and(|o| o.taken_down);
                if let (true, Some(rival)) = (taken_down && present, rival) {
                    let current = entry
                        .1
                        .and_then(|f| rival.fighters.iter().find(|(x, _)| *x == f))
                        .map_or("by nobody".to_owned(), |(_, n)| format!("by {n}"));
                    ui.horizontal(|ui| {
                        let label = ui.label(RichText::new("downed").weak());
                        egui::ComboBox::from_id_salt(("downed-by", id))
                            .selected_text(current)
                            .show_ui(ui, |ui| {
                                ui.selectable_value(&mut entry.1, None, "by nobody");
                                for (rid, rname) in &rival.fighters {
                                    ui.selectable_value(
                                        &mut entry.1,
                                        Some(*rid),
                                        format!("by {rname}"),
                                    );
                                }
                            })
                            .response
                            .labelled_by(label.id)
                            .on_hover_text(format!("Who took {name} down"));
                    });
                } else {
                    ui.label("");
                }
                ui.end_row();
            }
        });
}
