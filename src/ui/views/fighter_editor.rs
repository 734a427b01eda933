//! The fighter editor: name, leader, quirks with their profiles and alt
//! names, counters, notes, and the stats worked out from the quirks.

use egui::{RichText, Ui};

use crate::campaign::{FighterId, QuirkPick};
use crate::dice::Dice;
use crate::rules::{Pack, QuirkDef};
use crate::session::FighterView;
use crate::ui::base::action::Action;
use crate::ui::base::action::FighterAction;
use crate::ui::base::widgets::edit_hint;

/// Buffers for the fields a player types into; committed on Enter or when
/// the field loses focus, so one edit is one undo step.
#[derive(Debug, Default)]
pub struct FighterEditor {
    fighter: Option<FighterId>,
    name: String,
    notes: String,
    filter: String,
    /// The lasting effect being healed, and the reason typed for it.
    healing: Option<(crate::campaign::EffectId, String)>,
    /// A photo's path typed in, where the desktop offers no file dialog.
    pub(in crate::ui) photo_path: String,
    /// Entries added now are bought: the gang pays their cost.
    buying: bool,
    /// The last roll of one of the sheet's checks, shown under it.
    pub rolled: Option<crate::session::CheckRolled>,
    /// Where the list of entries to add was, and how many entries the
    /// fighter had, when one was added: the list is kept under the pointer
    /// as the fighter's own entries grow above it.
    keep_add_list_at: Option<(f32, usize)>,
    /// Set when Enter in the search added an entry: the search takes the
    /// keyboard back once it is drawn again, for the next.
    find_again: bool,
}

impl FighterEditor {
    /// Takes the stored values after a change or a new selection.
    pub fn sync(&mut self, view: Option<&FighterView>) {
        match view {
            Some(v) => {
                if self.fighter != Some(v.id) {
                    self.filter.clear();
                }
                self.fighter = Some(v.id);
                self.name = v.name.clone();
                self.notes = v.notes.clone();
                self.healing = None;
            }
            None => *self = Self::default(),
        }
    }
}

fn quirk_hover(pack: &Pack, quirk: &QuirkDef) -> String {
    let mut text = format!("{} — {}", quirk.name, pack.profile(quirk));
    if !quirk.text.is_empty() {
        text.push_str("\n\n");
        text.push_str(&quirk.text);
    }
    if !quirk.alt_names.is_empty() {
        text.push_str("\n\nD6 alt names: ");
        let list: Vec<String> = quirk
            .alt_names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{}. {n}", i + 1))
            .collect();
        text.push_str(&list.join(", "));
    }
    text
}

/// The fighter's own base value of a stat, one step down or up within the
/// stat's bounds (along its ladder, where it has one). Returns the new
/// value when one was asked for.
fn base_stat_ui(
    ui: &mut Ui,
    stat: &crate::campaign::DerivedStat,
    def: &crate::rules::StatDef,
    hint: &str,
) -> Option<i64> {
    let mut asked = None;
    ui.horizontal(|ui| {
        ui.weak(format!("base {}{}", def.show(stat.base), def.unit));
        let down = stat.base > def.min.unwrap_or(i64::MIN);
        // Disabled, the button says why: the bound, or the campaign's hint.
        let why = |at_bound: bool, end: &str, bound: Option<i64>| match bound {
            Some(bound) if at_bound => {
                format!(
                    "{} is at its {end} ({}{})",
                    stat.label,
                    def.show(bound),
                    def.unit
                )
            }
            _ => hint.to_owned(),
        };
        if step_button(ui, down, "−", &format!("− base {}", stat.label))
            .on_disabled_hover_text(why(!down, "least", def.min))
            .clicked()
        {
            asked = Some(stat.base - 1);
        }
        let up = stat.base < def.max.unwrap_or(i64::MAX);
        if step_button(ui, up, "+", &format!("+ base {}", stat.label))
            .on_disabled_hover_text(why(!up, "most", def.max))
            .clicked()
        {
            asked = Some(stat.base + 1);
        }
    });
    asked
}

/// A narrow step button (`−`, `+`) that says in full what it does: to a
/// screen reader and a test by its label, to the player on hover.
fn step_button(ui: &mut Ui, enabled: bool, sign: &str, said: &str) -> egui::Response {
    let response = ui
        .add_enabled(enabled, egui::Button::new(sign).small())
        .on_hover_text(said);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, said));
    response
}

pub fn fighter_editor_ui(
    ui: &mut Ui,
    editor: &mut FighterEditor,
    fighter: &FighterView,
    pack: &Pack,
    read_only: Option<&str>,
    dice: &mut Dice,
) -> Option<Action> {
    let editable = read_only.is_none();
    let hint = edit_hint(read_only);
    if editor.fighter != Some(fighter.id) {
        editor.sync(Some(fighter));
    }
    let here = Here {
        fighter,
        pack,
        editable,
        hint: &hint,
    };
    // A later section's request wins, as the last click of a frame does.
    let mut action = identity_ui(ui, editor, &here);
    ui.add_space(6.0);
    action = stats_ui(ui, &here).or(action);
    ui.add_space(6.0);
    action = checks_ui(ui, editor, &here).or(action);
    action = quirks_ui(ui, &here, dice).or(action);
    ui.add_space(6.0);
    action = add_quirk_ui(ui, editor, &here).or(action);
    action = lasting_ui(ui, editor, &here).or(action);
    problems_ui(ui, fighter);
    ui.add_space(6.0);
    notes_and_photo_ui(ui, editor, &here).or(action)
}

/// What every section of the editor reads.
struct Here<'a> {
    fighter: &'a FighterView,
    pack: &'a Pack,
    editable: bool,
    /// Why editing is off, for the hover text of disabled controls.
    hint: &'a str,
}

impl Here<'_> {
    /// The quirks the fighter has, as picks to change.
    fn picks(&self) -> Vec<QuirkPick> {
        self.fighter
            .quirks
            .iter()
            .map(|q| QuirkPick {
                quirk: q.id.clone(),
                alt_name: q.alt_name.clone(),
                with: q.with.clone(),
            })
            .collect()
    }

    /// How many entries the pack's recruiting rules give this fighter.
    fn expected_quirks(&self) -> Option<crate::rules::CountRange> {
        self.pack
            .recruiting
            .as_ref()
            .and_then(|r| r.entries_for(self.fighter.leader))
    }
}

/// The name, leader mark and status.
fn identity_ui(ui: &mut Ui, editor: &mut FighterEditor, here: &Here<'_>) -> Option<Action> {
    let Here {
        fighter,
        editable,
        hint,
        ..
    } = *here;
    let mut action = None;
    ui.horizontal(|ui| {
        ui.heading(&fighter.name);
        if fighter.leader {
            let leader = crate::text::capitalised(&here.pack.words.leader);
            ui.label(RichText::new(format!("★ {leader}")).strong());
        }
    });
    // A member of a group shares one profile with the rest of it.
    if let Some(group) = &fighter.group {
        let nouns = crate::ui::base::widgets::Nouns::of(Some(here.pack));
        ui.label(
            RichText::new(format!(
                "One of {} ({}): a change to the stats, {} or counters here is made to every member of the group.",
                group.name, group.label, nouns.entries
            ))
            .color(ui.visuals().warn_fg_color),
        );
    }
    // The running cost, as the parts below are added and taken away.
    if let (Some(value), Some(valuation)) = (&fighter.value, &here.pack.valuation) {
        let score = crate::ui::base::widgets::score_suffix(
            valuation.score.as_ref().map(|s| s.label.as_str()),
            value.score,
        );
        ui.label(RichText::new(format!("{} {}{score}", valuation.label, value.value)).strong())
            .on_hover_text(crate::ui::base::widgets::value_breakdown(value));
    }
    if !fighter.status.can_fight() {
        ui.label(RichText::new(&fighter.status_text).color(ui.visuals().warn_fg_color));
    }
    for lowered in &fighter.lowered {
        ui.label(RichText::new(&lowered.text).color(ui.visuals().warn_fg_color))
            .on_hover_text(&lowered.source);
    }
    if ui.small_button("Close editor").clicked() {
        action = Some(Action::Fighter(FighterAction::Select(None)));
    }
    ui.separator();

    ui.add_enabled_ui(editable, |ui| {
        ui.horizontal(|ui| {
            let nouns = crate::ui::base::widgets::Nouns::of(Some(here.pack));
            let label = ui.label(format!("{} name", crate::text::capitalised(nouns.fighter)));
            let edit = ui
                .text_edit_singleline(&mut editor.name)
                .labelled_by(label.id)
                .on_disabled_hover_text(hint);
            if edit.lost_focus() && editor.name.trim() != fighter.name {
                action = Some(Action::Fighter(FighterAction::Rename(
                    fighter.id,
                    editor.name.clone(),
                )));
            }
        });
        let mut leader = fighter.leader;
        if ui
            .checkbox(
                &mut leader,
                crate::text::capitalised(&here.pack.words.leader),
            )
            .on_disabled_hover_text(hint)
            .changed()
        {
            action = Some(Action::Fighter(FighterAction::SetLeader(
                fighter.id, leader,
            )));
        }
    });

    action
}

/// The stats (with the fighter's own base values) and the counters.
fn stats_ui(ui: &mut Ui, here: &Here<'_>) -> Option<Action> {
    let Here {
        fighter,
        pack,
        editable,
        hint,
    } = *here;
    let mut action = None;
    ui.label(RichText::new("Stats").strong());
    egui::Grid::new("stats").num_columns(3).show(ui, |ui| {
        for stat in &fighter.stats {
            ui.label(&stat.label);
            let mut text = RichText::new(stat.display()).monospace().size(16.0);
            if stat.value != stat.base {
                text = text.strong();
            }
            ui.label(text)
                .on_hover_text(format!("{}: {}", stat.label, stat.breakdown()));
            if let Some(def) = pack.stat(&stat.id) {
                ui.add_enabled_ui(editable, |ui| {
                    if let Some(value) = base_stat_ui(ui, stat, def, hint) {
                        action = Some(Action::Fighter(FighterAction::SetBaseStat {
                            fighter: fighter.id,
                            stat: stat.id.clone(),
                            value,
                        }));
                    }
                });
            }
            ui.end_row();
        }
        // Each counter; one kept per entry (a weapon's ammo), for each.
        let entries: Vec<String> = fighter.quirks.iter().map(|q| q.id.clone()).collect();
        for (key, counter) in pack.counter_keys(&entries) {
            let title = pack.counter_title(&key);
            ui.label(&title);
            let Some(value) = fighter.counters.get(&key).copied().or(counter.start()) else {
                ui.label("—").on_hover_text(unfilled_hint(pack, counter));
                ui.end_row();
                continue;
            };
            ui.label(RichText::new(value.to_string()).monospace().size(16.0));
            ui.add_enabled_ui(editable, |ui| {
                ui.horizontal(|ui| {
                    // Disabled, a button says why: the counter's bound,
                    // or the campaign's hint.
                    let down = step_button(ui, value > counter.min, "−", &format!("− {title}"))
                        .on_disabled_hover_text(if value > counter.min {
                            hint.to_owned()
                        } else {
                            format!("{title} is at its least ({})", counter.min)
                        });
                    if down.clicked() {
                        action = Some(Action::Fighter(FighterAction::SetCounter {
                            fighter: fighter.id,
                            counter: key.clone(),
                            value: value - 1,
                        }));
                    }
                    let up = step_button(ui, value < counter.top(), "+", &format!("+ {title}"))
                        .on_hover_text(format!("{title} is at most {}", counter.top()))
                        .on_disabled_hover_text(if value < counter.top() {
                            hint.to_owned()
                        } else {
                            format!("{title} is full ({value} of {})", counter.top())
                        });
                    if up.clicked() {
                        action = Some(Action::Fighter(FighterAction::SetCounter {
                            fighter: fighter.id,
                            counter: key.clone(),
                            value: value + 1,
                        }));
                    }
                });
            });
            ui.end_row();
        }
    });

    action
}

/// The quirks the fighter has: alt names, d6 rolls, removal.
fn quirks_ui(ui: &mut Ui, here: &Here<'_>, dice: &mut Dice) -> Option<Action> {
    let Here {
        fighter,
        pack,
        editable,
        hint,
    } = *here;
    let mut action = None;
    let entries = crate::text::capitalised(&pack.words.entries);
    let count = match here.expected_quirks() {
        Some(n) => format!("{entries} ({} of {})", fighter.quirks.len(), n.describe()),
        None => format!("{entries} ({})", fighter.quirks.len()),
    };
    ui.label(RichText::new(count).strong());
    let picks = here.picks();
    for (index, quirk) in fighter.quirks.iter().enumerate() {
        let def = pack.quirk(&quirk.id);
        ui.group(|ui| {
            ui.set_width(ui.available_width());
            ui.horizontal_wrapped(|ui| {
                let title = ui.label(RichText::new(quirk.title()).strong());
                if let Some(def) = def {
                    title.on_hover_text(quirk_hover(pack, def));
                }
                ui.label(RichText::new(&quirk.profile).weak());
            });
            ui.add_enabled_ui(editable, |ui| {
                ui.horizontal_wrapped(|ui| {
                    if let Some(def) = def.filter(|d| !d.alt_names.is_empty()) {
                        let mut chosen = quirk.alt_name.clone();
                        let label = ui.label(format!("Alt name for {}", def.name));
                        let combo = egui::ComboBox::from_id_salt(("alt", fighter.id, index))
                            .selected_text(chosen.clone().unwrap_or_else(|| "(none)".into()))
                            .show_ui(ui, |ui| {
                                ui.selectable_value(&mut chosen, None, "(none)");
                                for (i, alt) in def.alt_names.iter().enumerate() {
                                    ui.selectable_value(
                                        &mut chosen,
                                        Some(alt.clone()),
                                        format!("{}. {alt}", i + 1),
                                    );
                                }
                            });
                        combo
                            .response
                            .labelled_by(label.id)
                            .on_disabled_hover_text(hint);
                        let roll = ui
                            .small_button(format!("Roll d6 for {}", def.name))
                            .on_hover_text("Roll a d6 on the alt-name table")
                            .on_disabled_hover_text(hint);
                        if roll.clicked()
                            && let Ok(record) = dice.roll_die(def.alt_names.len() as u32)
                        {
                            let face = record.dice.first().copied().unwrap_or(1) as usize;
                            chosen = def.alt_names.get(face.saturating_sub(1)).cloned();
                        }
                        if chosen != quirk.alt_name {
                            let mut next = picks.clone();
                            next[index].alt_name = chosen;
                            action =
                                Some(Action::Fighter(FighterAction::SetQuirks(fighter.id, next)));
                        }
                    }
                    if let Some(a) = selection_ui(ui, here, index, &picks) {
                        action = Some(a);
                    }
                    let remove = ui
                        .small_button(format!("Remove {}", quirk.name))
                        .on_disabled_hover_text(hint);
                    if remove.clicked() {
                        let mut next = picks.clone();
                        next.remove(index);
                        action = Some(Action::Fighter(FighterAction::SetQuirks(fighter.id, next)));
                    }
                });
            });
        });
    }

    action
}

/// For a quirk that asks for another of the fighter's quirks (003, Akimbo
/// Holster: "Select one of those weapons for this fighter to Dual Wield"),
/// the selection, among the fighter's quirks it allows.
fn selection_ui(ui: &mut Ui, here: &Here<'_>, index: usize, picks: &[QuirkPick]) -> Option<Action> {
    let pick = picks.get(index)?;
    let def = here.pack.quirk(&pick.quirk)?;
    let select = def.select.as_ref()?;
    let name = |id: &str| {
        here.pack
            .quirk(id)
            .map_or_else(|| id.to_owned(), |q| q.name.clone())
    };
    let eligible: Vec<&String> = select
        .any_of
        .iter()
        .filter(|id| picks.iter().any(|p| p.quirk == **id))
        .collect();
    let mut chosen = pick.with.clone();
    let label = ui.label(format!("{} ({})", select.label, def.name));
    egui::ComboBox::from_id_salt(("select", here.fighter.id, index))
        .selected_text(chosen.as_deref().map_or_else(|| "Choose…".to_owned(), name))
        .show_ui(ui, |ui| {
            for id in &eligible {
                ui.selectable_value(&mut chosen, Some((*id).clone()), name(id));
            }
        })
        .response
        .labelled_by(label.id)
        .on_hover_text(&select.source)
        .on_disabled_hover_text(here.hint);
    if chosen == pick.with {
        return None;
    }
    let mut next = picks.to_vec();
    next[index].with = chosen;
    Some(Action::Fighter(FighterAction::SetQuirks(
        here.fighter.id,
        next,
    )))
}

/// The pack's quirks by category, searchable, to add one.
fn add_quirk_ui(ui: &mut Ui, editor: &mut FighterEditor, here: &Here<'_>) -> Option<Action> {
    let Here {
        fighter,
        pack,
        editable,
        hint,
    } = *here;
    let mut action = None;
    let expected = here.expected_quirks();
    let picks = here.picks();
    keep_add_list_in_place(ui, editor, picks.len());
    let top = ui.cursor().top();
    egui::CollapsingHeader::new(format!("Add a {}", pack.words.entry))
        .id_salt("add-quirk")
        .default_open(expected.is_some_and(|n| fighter.quirks.len() < n.min()))
        .show(ui, |ui| {
            ui.add_enabled_ui(editable, |ui| {
                let find = ui
                    .horizontal(|ui| {
                        let label = ui.label(format!("Find {}", pack.words.entry));
                        ui.text_edit_singleline(&mut editor.filter)
                            .labelled_by(label.id)
                            .on_disabled_hover_text(hint)
                    })
                    .inner;
                let entered = find.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if editor.find_again && find.enabled() {
                    editor.find_again = false;
                    find.request_focus();
                }
                // Between games, what is added is bought with the pack's
                // spending resource.
                let spend = pack.spend_resource();
                if let Some(resource) = spend {
                    ui.checkbox(
                        &mut editor.buying,
                        format!("Pay for what is added with {}", resource.label),
                    )
                    .on_hover_text(
                        "Bought between games: the gang pays each entry's cost, in the same step",
                    );
                }
                let buying = editor.buying && spend.is_some();
                let filter = editor.filter.trim().to_owned();
                let distinct = pack.recruiting.as_ref().is_some_and(|r| r.distinct_quirks);
                let add = |quirk: &QuirkDef| {
                    let pick = QuirkPick::new(quirk.id.clone());
                    if buying {
                        Action::Fighter(FighterAction::BuyQuirk(fighter.id, pick))
                    } else {
                        let mut next = picks.clone();
                        next.push(pick);
                        Action::Fighter(FighterAction::SetQuirks(fighter.id, next))
                    }
                };
                let mut offered: Vec<&QuirkDef> = Vec::new();
                let mut shown = 0;
                for category in &pack.categories {
                    let matching: Vec<&QuirkDef> = pack
                        .quirks
                        .iter()
                        .filter(|q| q.category == category.id)
                        .filter(|q| {
                            filter.is_empty()
                                || crate::text::contains(&q.name, &filter)
                                || q.alt_names.iter().any(|a| crate::text::contains(a, &filter))
                        })
                        .collect();
                    if matching.is_empty() {
                        continue;
                    }
                    shown += matching.len();
                    ui.label(RichText::new(&category.label).strong());
                    // While paying, only what the pack sells is offered.
                    let for_sale = !buying || pack.sells(&category.id);
                    for quirk in matching {
                        let taken = picks.iter().any(|p| p.quirk == quirk.id);
                        let open = !(taken && distinct) && for_sale;
                        if open {
                            offered.push(quirk);
                        }
                        ui.horizontal(|ui| {
                            let button = ui
                                .add_enabled(open, egui::Button::new(format!("+ {}", quirk.name)).small())
                                .on_hover_text(quirk_hover(pack, quirk))
                                .on_disabled_hover_text(if taken {
                                    format!(
                                        "Already taken: each {} must be different",
                                        pack.words.entry
                                    )
                                } else if !for_sale {
                                    format!("{} is not bought between games", category.label)
                                } else {
                                    hint.to_owned()
                                });
                            if button.clicked() {
                                action = Some(add(quirk));
                            }
                            ui.label(RichText::new(pack.profile(quirk)).weak().small());
                        });
                    }
                }
                // Enter in the search adds the one entry it found, and the
                // search is emptied for the next; the keyboard stays in it.
                if entered {
                    editor.find_again = true;
                    if let [only] = offered.as_slice() {
                        action = Some(add(only));
                        editor.filter.clear();
                    }
                }
                if shown == 0 {
                    ui.weak(if filter.is_empty() {
                        format!(
                            "The rule text lists no {}: your group adds its own with The group's data… in the sidebar.",
                            pack.words.entries
                        )
                    } else {
                        format!("No {} is called “{filter}”.", pack.words.entry)
                    });
                }
            });
        });
    if action.is_some() {
        editor.keep_add_list_at = Some((top, picks.len()));
    }
    action
}

/// Once the entry added shows in the fighter's list above, scrolls by as
/// much as that list grew, so the list of entries to add stays where it
/// was under the pointer (a second click never lands on another entry).
fn keep_add_list_in_place(ui: &mut Ui, editor: &mut FighterEditor, entries: usize) {
    let Some((was, before)) = editor.keep_add_list_at else {
        return;
    };
    if entries == before {
        return;
    }
    editor.keep_add_list_at = None;
    let moved = ui.cursor().top() - was;
    if moved.abs() > 0.5 {
        ui.scroll_with_delta(egui::vec2(0.0, -moved));
    }
}

/// Lasting injuries and advancements, each healed or reversed with a reason.
fn lasting_ui(ui: &mut Ui, editor: &mut FighterEditor, here: &Here<'_>) -> Option<Action> {
    let Here {
        fighter,
        editable,
        hint,
        ..
    } = *here;
    let mut action = None;
    if !fighter.lasting.is_empty() {
        ui.add_space(6.0);
        ui.label(RichText::new("Lasting effects").strong());
        for effect in &fighter.lasting {
            ui.group(|ui| {
                ui.set_width(ui.available_width());
                let mut hover = format!("From the {} table", effect.table);
                if let Some(battle) = effect.battle {
                    hover.push_str(&format!(" in {} #{battle}", here.pack.record().noun));
                }
                if let Some(roll) = &effect.roll {
                    let dice: Vec<String> = roll.dice.iter().map(u32::to_string).collect();
                    hover.push_str(&format!(
                        ": {} [{}] = {}",
                        roll.expression,
                        dice.join(", "),
                        roll.total
                    ));
                }
                let origin = effect
                    .origin(&here.pack.record().noun)
                    .map_or_else(String::new, |o| format!(" ({o})"));
                ui.label(RichText::new(format!("{}{origin}", effect.summary(" — "))))
                    .on_hover_text(hover);
                ui.add_enabled_ui(editable, |ui| {
                    let healing_this = editor
                        .healing
                        .as_ref()
                        .is_some_and(|(id, _)| *id == effect.id);
                    if healing_this {
                        let mut keep = false;
                        if let Some((_, reason)) = &mut editor.healing {
                            let label = ui.label("Reason");
                            ui.text_edit_singleline(reason).labelled_by(label.id);
                            ui.horizontal(|ui| {
                                let remove = egui::Button::new(format!("Remove {}", effect.name));
                                if ui
                                    .add_enabled(!reason.trim().is_empty(), remove)
                                    .on_disabled_hover_text("Give a reason for the log")
                                    .clicked()
                                {
                                    action = Some(Action::Fighter(FighterAction::RemoveLasting {
                                        effect: effect.id,
                                        reason: reason.trim().to_owned(),
                                    }));
                                }
                                keep = ui.small_button("Keep it").clicked();
                            });
                        }
                        if keep {
                            editor.healing = None;
                        }
                    } else if ui
                        .small_button(format!("Heal or reverse {}…", effect.name))
                        .on_hover_text("Remove it with a reason (Ctrl+Z brings it back)")
                        .on_disabled_hover_text(hint)
                        .clicked()
                    {
                        editor.healing = Some((effect.id, String::new()));
                    }
                });
            });
        }
    }

    action
}

/// The rules the fighter breaks.
fn problems_ui(ui: &mut Ui, fighter: &FighterView) {
    if !fighter.problems.is_empty() {
        ui.add_space(6.0);
        for problem in &fighter.problems {
            ui.label(
                RichText::new(format!("⚠ {}", problem.describe()))
                    .color(ui.visuals().warn_fg_color),
            )
            .on_hover_text(&problem.source);
        }
    }
}

/// Notes, the photo and dismissal.
fn notes_and_photo_ui(ui: &mut Ui, editor: &mut FighterEditor, here: &Here<'_>) -> Option<Action> {
    let Here {
        fighter,
        editable,
        hint,
        ..
    } = *here;
    let mut action = None;
    ui.add_enabled_ui(editable, |ui| {
        let label = ui.label("Notes");
        let notes = ui
            .add(egui::TextEdit::multiline(&mut editor.notes).desired_rows(3))
            .labelled_by(label.id)
            .on_disabled_hover_text(hint);
        if notes.lost_focus() && editor.notes != fighter.notes {
            action = Some(Action::Fighter(FighterAction::SetNotes(
                fighter.id,
                editor.notes.clone(),
            )));
        }
        ui.add_space(6.0);
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Photo").strong());
            if ui
                .button("Choose photo…")
                .on_hover_text("A PNG or JPEG of the model, printed on the card")
                .on_disabled_hover_text(hint)
                .clicked()
            {
                action = Some(Action::ChooseFile(
                    crate::ui::base::action::FileField::Photo(fighter.id),
                ));
            }
            if ui
                .button("Remove photo")
                .on_disabled_hover_text(hint)
                .clicked()
            {
                action = Some(Action::Fighter(FighterAction::SetPhoto(fighter.id, None)));
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Photo file");
            ui.add(egui::TextEdit::singleline(&mut editor.photo_path).desired_width(160.0))
                .labelled_by(label.id)
                .on_disabled_hover_text(hint);
            if ui
                .add_enabled(
                    !editor.photo_path.trim().is_empty(),
                    egui::Button::new("Use this file"),
                )
                .clicked()
            {
                action = Some(Action::Fighter(FighterAction::SetPhoto(
                    fighter.id,
                    Some(std::path::PathBuf::from(editor.photo_path.trim())),
                )));
            }
        });
        ui.add_space(6.0);
        let nouns = crate::ui::base::widgets::Nouns::of(Some(here.pack));
        if ui
            .button(format!("Dismiss {}", nouns.fighter))
            .on_hover_text(format!(
                "Remove this {} from the {} (Ctrl+Z brings them back)",
                nouns.fighter, nouns.gang
            ))
            .on_disabled_hover_text(hint)
            .clicked()
        {
            action = Some(Action::Fighter(FighterAction::Dismiss(fighter.id)));
        }
    });
    action
}

/// A roll's seed, for the player who wants the same dice again: on
/// hover, not in the result.
fn seed_said(seed: u64) -> String {
    format!("Rolled from seed {seed}: the same seed rolls the same dice")
}

/// Why a counter has no value: the text does not print its start, and the
/// group has not filled it in.
fn unfilled_hint(pack: &crate::rules::Pack, counter: &crate::rules::CounterDef) -> String {
    let ruling = counter
        .fill_in
        .as_deref()
        .and_then(|id| pack.ruling(id))
        .map_or_else(String::new, |r| format!(" The pack's ruling: {}", r.ruling));
    format!(
        "{} is not printed in {}: the group fills it in as house rules.{ruling}",
        counter.label, pack.pack.name
    )
}

/// The rolls the sheet offers (initiative, a skill's pool), each with a
/// button; the last roll under its check, with Push where it may be.
fn checks_ui(ui: &mut Ui, editor: &FighterEditor, here: &Here<'_>) -> Option<Action> {
    use crate::campaign::checks::CheckForm;
    let fighter = here.fighter;
    if fighter.checks.is_empty() {
        return None;
    }
    let mut action = None;
    ui.label(RichText::new("Rolls").strong());
    // The button names the roll, so it comes first: the panel is narrow.
    egui::Grid::new("checks")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for check in &fighter.checks {
                if ui
                    .small_button(format!("Roll {}", check.label))
                    .on_hover_text("Roll it with a new seed; nothing in the campaign changes")
                    .clicked()
                {
                    action = Some(Action::Fighter(FighterAction::RollCheck {
                        fighter: fighter.id,
                        check: check.id.clone(),
                        option: None,
                        modifier: 0,
                    }));
                }
                let text = ui.label(check.describe());
                if !check.unset.is_empty() {
                    text.on_hover_text(format!(
                        "Not set yet: {} (counted as 0)",
                        check.unset.join(", ")
                    ));
                }
                ui.end_row();
                // A tier check a step down or up its ladder, each a button.
                if let CheckForm::Tier { step, .. } = &check.form {
                    ui.horizontal(|ui| {
                        for by in [-1, 1] {
                            let word = if step.is_empty() {
                                format!("{by:+}")
                            } else {
                                format!("{by:+} {step}")
                            };
                            if ui
                                .small_button(format!("Roll {} {word}", check.label))
                                .on_hover_text("One step along the ladder, held at its ends")
                                .clicked()
                            {
                                action = Some(Action::Fighter(FighterAction::RollCheck {
                                    fighter: fighter.id,
                                    check: check.id.clone(),
                                    option: None,
                                    modifier: by,
                                }));
                            }
                        }
                    });
                    ui.label("");
                    ui.end_row();
                }
                // The other ways of making it (full auto), each a button.
                for option in &check.options {
                    let button = ui
                        .add_enabled(
                            here.editable || option.stress == 0,
                            egui::Button::new(format!("Roll {}, {}", check.label, option.label))
                                .small(),
                        )
                        .on_hover_text(&option.source)
                        .on_disabled_hover_text(here.hint);
                    if button.clicked() {
                        action = Some(Action::Fighter(FighterAction::RollCheck {
                            fighter: fighter.id,
                            check: check.id.clone(),
                            option: Some(option.id.clone()),
                            modifier: 0,
                        }));
                    }
                    ui.label("");
                    ui.end_row();
                }
            }
        });

    let rolled = editor
        .rolled
        .as_ref()
        .filter(|r| fighter.checks.iter().any(|c| c.id == r.check.id) && r.fighter == fighter.name);
    match rolled {
        Some(rolled) => rolled_ui(ui, rolled, here).or(action),
        None => action,
    }
}

/// The last roll of a check, as rolled (the seed on hover), with Push
/// where the pool may be pushed.
fn rolled_ui(ui: &mut Ui, rolled: &crate::session::CheckRolled, here: &Here<'_>) -> Option<Action> {
    use crate::campaign::checks::CheckRoll;
    let mut action = None;
    let faces = |dice: &[crate::dice::DieRoll]| {
        dice.iter()
            .map(|d| d.face.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    match &rolled.result {
        CheckRoll::Sum { roll, add, total } => {
            ui.label(format!(
                "{}: {} [{}] {add:+} = {total}",
                rolled.check.label,
                roll.expression,
                faces(&roll.rolls),
            ))
            .on_hover_text(seed_said(rolled.seed));
        }
        CheckRoll::Tier {
            steps, roll, total, ..
        } => {
            ui.label(format!(
                "{}: {steps} = {total} [{}]",
                rolled.check.label,
                faces(&roll.rolls),
            ))
            .on_hover_text(seed_said(rolled.seed));
        }
        CheckRoll::Pool { roll, .. } => {
            let words = rolled.check.pool_words().cloned().unwrap_or_default();
            let rises = match &rolled.check.form {
                crate::campaign::checks::CheckForm::Pool { stress_label, .. } => {
                    stress_label.clone().unwrap_or_default()
                }
                _ => String::new(),
            };
            ui.label(format!("{}: {}", rolled.check.label, words.roll_said(roll)))
                .on_hover_text(seed_said(rolled.seed));
            if let Some(r) = &rolled.raised {
                ui.label(format!(
                    "{}: {} {} → {}",
                    rolled.option.as_deref().unwrap_or_default(),
                    r.counter,
                    r.from,
                    r.to
                ));
            }
            if let Some(p) = &rolled.pushed {
                ui.label(format!(
                    "{}: {} {} → {}",
                    crate::text::capitalised(&words.pushed),
                    p.counter,
                    p.from,
                    p.to
                ));
            } else if roll.can_push {
                let push = ui
                    .add_enabled(
                        here.editable,
                        egui::Button::new(format!(
                            "{} {}",
                            crate::text::capitalised(&words.push),
                            rolled.check.label
                        )),
                    )
                    .on_hover_text(format!(
                        "Roll every die that is not a {} again, with one more {} die: {rises} rises by one (undo takes it back)",
                        words.success, words.stress
                    ))
                    .on_disabled_hover_text(here.hint);
                if push.clicked() {
                    action = Some(Action::Fighter(FighterAction::PushCheck(Box::new(
                        rolled.clone(),
                    ))));
                }
            }
        }
    }
    action
}
