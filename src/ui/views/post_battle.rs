//! The post-battle screen: what happened at the table, every change the
//! rules make shown before anything is written, and one Commit.

use std::collections::{BTreeMap, BTreeSet};

use egui::{RichText, Ui};

use crate::campaign::battle::{
    AdvancementReport, BattleReport, BountyReport, ChoiceReport, CounterStep, EnteredDice,
    FighterReport, GangReport, MarkReport, NeededChoice, PickReport, Procedure, TableResultReport,
    TitleChoiceReport,
};
use crate::campaign::{FighterId, GangId};
use crate::rules::{Pack, WinnerRule};
use crate::session::Preview;
use crate::ui::base::action::Action;
use crate::ui::base::action::RecordAction;
use crate::ui::base::state::{BattleData, BattleGangData};
use crate::ui::base::widgets::edit_hint;
use crate::ui::base::widgets::labelled_combo;

/// The form's state. The report is rebuilt from it after every change and
/// the procedure rerun, so the preview is always what Commit will write.
/// What the player entered, and the seed of the rolls shown, are kept as a
/// draft until the record is committed (`session::Drafts`); what is worked
/// out from them is not.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct BattleForm {
    /// The scenario's id; empty where the pack plays no scenarios.
    pub scenario: String,
    /// The gangs taking part, one per side, as many as the pack's record
    /// takes; the roles, ran and counts below go side by side with them.
    pub gangs: Vec<Option<GangId>>,
    pub roles: Vec<Option<String>>,
    pub ran: Vec<bool>,
    /// Index of the winning gang; `None` is "no winner".
    pub winner: Option<usize>,
    pub counts: Vec<BTreeMap<String, i64>>,
    /// (fighter, counter) → the change during the game.
    pub counters: BTreeMap<(FighterId, String), i64>,
    /// (fighter, counter) → its changes in the order they happened, for a
    /// counter with a most (a spend, then an award): used in place of the
    /// change above while there are any.
    pub steps: BTreeMap<(FighterId, String), Vec<i64>>,
    /// Results of the tables rolled during the game: (fighter, table id,
    /// the total rolled at the table or `None` for the app to roll).
    pub during: Vec<(FighterId, String, Option<i64>)>,
    /// Fighter → (outcome id, downed by).
    pub outcomes: BTreeMap<FighterId, (String, Option<FighterId>)>,
    /// Fighters who sat this battle out.
    pub absent: BTreeSet<FighterId>,
    /// (gang index, epilogue line) → pick.
    pub choices: BTreeMap<(usize, String), String>,
    pub bounties: Vec<Option<FighterId>>,
    /// Sides that declare no bounty (where the pack's ruling allows it).
    pub no_declaration: BTreeSet<usize>,
    /// (gang name, action id) → the fighters marked for it, in order.
    pub marks: BTreeMap<(String, String), Vec<String>>,
    pub titles: BTreeMap<usize, String>,
    /// The `[record] flags` ticked, by id.
    pub flags: Vec<String>,
    /// The shape of the record (`[[record.shapes]]` id); empty where the
    /// pack has none.
    pub shape: String,
    /// Each side's place, in a record placed first to last.
    pub places: Vec<Option<u32>>,
    /// The side that challenges, in a challenge.
    pub challenger: Option<usize>,
    /// The holding at stake (its id), if any.
    pub stake: Option<String>,
    /// The accepted challenge this record plays, where it was started
    /// from one.
    pub challenge: Option<crate::campaign::ChallengeId>,
    pub notes: String,
    /// The seed of the app's rolls: fixed while the form is open, so the
    /// preview shows the rolls Commit will store.
    pub seed: u64,
    /// Roll name → dice typed in from the table (`3, 5`).
    pub dice: BTreeMap<String, String>,
    /// Rolls whose dice were typed and then emptied: Commit asks before
    /// the app rolls in their place.
    pub emptied: BTreeSet<String>,
    /// Roll name → the sides of each die it throws, from the last preview:
    /// typed dice that do not fit yet stay beside their field and out of
    /// the report.
    #[serde(skip)]
    pub dice_shape: BTreeMap<String, Vec<u32>>,
    /// Set while "Clear the form" waits for a confirmation.
    #[serde(skip)]
    pub confirm_clear: bool,
    /// Set while Commit waits for the player to let the app roll where
    /// dice typed were emptied.
    #[serde(skip)]
    pub confirm_app_rolls: bool,
    /// Where the preview ("What the rules change") was drawn this frame,
    /// and whether it was in view: Ctrl+Enter commits only what is shown.
    #[serde(skip)]
    pub preview_top: Option<egui::Rect>,
    #[serde(skip)]
    pub preview_in_view: bool,
    /// Set by Ctrl+Enter while the preview was out of view: the next frame
    /// brings it into view.
    #[serde(skip)]
    pub show_preview: bool,
    /// Set once Ctrl+Enter has brought the preview into view: the footer
    /// says the next one commits it.
    #[serde(skip)]
    pub shown_by_key: bool,
    /// Where the footer with Commit was drawn the last frame: the form
    /// above it is given the rest of the height.
    #[serde(skip)]
    pub footer: Option<egui::Rect>,
    /// Set by the shortcut that jumps to the result: its first control
    /// takes the keyboard.
    #[serde(skip)]
    pub to_result: bool,
    /// Roll name → pick (which stat, hold or another result…).
    pub picks: BTreeMap<String, String>,
    /// The choices and picks made, in the words of their buttons, in the
    /// order they were made.
    pub made: Vec<String>,
    /// Fighters nominated for an advancement roll.
    pub advancing: BTreeSet<FighterId>,
    /// Set when the form changed and the preview must be rerun.
    #[serde(skip)]
    pub dirty: bool,
    #[serde(skip)]
    pub preview: Option<Result<Preview, String>>,
    /// Set when roles should be suggested from the previous battle.
    #[serde(skip)]
    pub wants_roles: bool,
    /// Where the keyboard is in the form.
    #[serde(skip)]
    pub focus: crate::ui::base::form_focus::FormFocus,
    /// How many advancement rolls each side has, as the last preview that
    /// worked out said.
    #[serde(skip)]
    pub advancements_allowed: BTreeMap<GangId, usize>,
}

/// The keys that jump to the form's result (its first control takes the
/// keyboard), and that commit (first bringing the preview into view).
pub const TO_RESULT: egui::KeyboardShortcut =
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::ArrowDown);
pub const COMMIT: egui::KeyboardShortcut =
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Enter);

impl BattleForm {
    /// Whether the player entered anything of the game on this form (a
    /// result, an outcome other than the usual one, dice, a choice, a
    /// note…): a form only filled in by the app is no record begun.
    pub fn holds_entries(&self, pack: Option<&Pack>) -> bool {
        let usual = pack.and_then(Pack::default_outcome).map(|o| o.id.as_str());
        let outcome_entered = self
            .outcomes
            .values()
            .any(|(outcome, by)| by.is_some() || usual.is_some_and(|u| u != outcome));
        self.winner.is_some()
            || self.challenger.is_some()
            || self.stake.is_some()
            || self.places.iter().any(Option::is_some)
            || self.ran.iter().any(|r| *r)
            || self.counts.iter().any(|c| c.values().any(|n| *n != 0))
            || self.counters.values().any(|n| *n != 0)
            || !self.during.is_empty()
            || outcome_entered
            || !self.absent.is_empty()
            || !self.choices.is_empty()
            || self.bounties.iter().any(Option::is_some)
            || !self.no_declaration.is_empty()
            || !self.marks.is_empty()
            || !self.titles.is_empty()
            || !self.flags.is_empty()
            || !self.notes.trim().is_empty()
            || !self.dice.is_empty()
            || !self.picks.is_empty()
            || !self.advancing.is_empty()
    }

    /// The dice typed that do not fit their roll: (the roll, why). A record
    /// with one is not committed, and the app never rolls in its place.
    pub fn refused_dice(&self) -> Vec<(String, String)> {
        self.dice
            .iter()
            .filter(|(_, text)| !text.trim().is_empty())
            .filter_map(|(roll, text)| {
                let shape = self.dice_shape.get(roll).map(Vec::as_slice);
                typed_dice(text, shape).err().map(|why| (roll.clone(), why))
            })
            .collect()
    }

    /// Gives the keyboard to the result's first control where the player
    /// asked to jump there, and brings it into view.
    pub fn take_jump(&mut self, control: &egui::Response) {
        if std::mem::take(&mut self.to_result) {
            control.request_focus();
            control.scroll_to_me(Some(egui::Align::Center));
        }
    }

    /// Gives side `i` the role `role` of `roles` (the scenario's, in its
    /// order). A role is one side's: the side that had it takes the role
    /// side `i` gave up, or, where `i` had none, the one role nobody has.
    pub fn choose_role(&mut self, i: usize, role: String, roles: &[String]) {
        let Some(before) = self.roles.get(i).cloned() else {
            return;
        };
        self.roles[i] = Some(role.clone());
        let Some(j) = (0..self.roles.len()).find(|&j| j != i && self.roles[j] == self.roles[i])
        else {
            return;
        };
        self.roles[j] = None;
        let mut free = roles
            .iter()
            .filter(|r| !self.roles.iter().any(|had| had.as_ref() == Some(*r)));
        let only_free = match (free.next(), free.next()) {
            (Some(only), None) => Some(only.clone()),
            _ => None,
        };
        self.roles[j] = before.or(only_free);
    }

    /// Gives the form `n` sides, keeping what the first of them hold.
    pub fn set_sides(&mut self, n: usize) {
        self.gangs.resize(n, None);
        self.roles.resize(n, None);
        self.ran.resize(n, false);
        self.counts.resize(n, BTreeMap::new());
        self.bounties.resize(n, None);
        self.places.resize(n, None);
        if self.winner.is_some_and(|w| w >= n) {
            self.winner = None;
        }
        if self.challenger.is_some_and(|c| c >= n) {
            self.challenger = None;
        }
    }

    /// A fighter's counter changes for the report: each counter's change,
    /// or its changes in turn where it has them.
    fn counter_changes(&self, id: FighterId) -> (BTreeMap<String, i64>, Vec<CounterStep>) {
        let in_turn = |f: &FighterId, c: &String| {
            self.steps
                .get(&(*f, c.clone()))
                .is_some_and(|s| !s.is_empty())
        };
        let counters = self
            .counters
            .iter()
            .filter(|((f, c), n)| *f == id && **n != 0 && !in_turn(f, c))
            .map(|((_, c), n)| (c.clone(), *n))
            .collect();
        let steps = self
            .steps
            .iter()
            .filter(|((f, _), _)| *f == id)
            .flat_map(|((_, c), changes)| {
                changes.iter().map(|n| CounterStep {
                    counter: c.clone(),
                    change: *n,
                })
            })
            .collect();
        (counters, steps)
    }

    pub fn report(&self, data: &BattleData) -> Option<BattleReport> {
        let taking_part: Option<Vec<&BattleGangData>> = self
            .gangs
            .iter()
            .map(|g| g.and_then(|id| data.get(id)))
            .collect();
        let taking_part = taking_part.filter(|t| !t.is_empty())?;
        let name_of = |id: FighterId| {
            data.loaded()
                .flat_map(|g| g.fighters.iter())
                .find(|(f, _)| *f == id)
                .map(|(_, n)| n.clone())
        };
        let gangs = taking_part
            .iter()
            .enumerate()
            .map(|(i, g)| GangReport {
                gang: g.name.clone(),
                role: self.roles.get(i).cloned().flatten(),
                ran_for_it: self.ran.get(i).copied().unwrap_or(false),
                counts: self.counts.get(i).cloned().unwrap_or_default(),
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
                            let (counters, steps) = self.counter_changes(*id);
                            FighterReport {
                                fighter: name.clone(),
                                outcome,
                                downed_by: by.and_then(name_of),
                                counters,
                                steps,
                            }
                        })
                        .collect(),
                ),
                place: self.places.get(i).copied().flatten(),
                challenger: self.challenger == Some(i),
            })
            .collect();
        let names: Vec<String> = taking_part.iter().map(|g| g.name.clone()).collect();
        Some(BattleReport {
            flags: self.flags.clone(),
            format: crate::campaign::battle::REPORT_FORMAT,
            scenario: Some(self.scenario.clone()).filter(|s| !s.is_empty()),
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
                        fighter: Some(fighter),
                    })
                })
                .chain(
                    self.no_declaration
                        .iter()
                        .filter(|i| self.bounties.get(**i).is_some_and(Option::is_none))
                        .filter_map(|i| names.get(*i))
                        .map(|name| BountyReport {
                            by: name.clone(),
                            fighter: None,
                        }),
                )
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
                .filter_map(|(roll, text)| {
                    let shape = self.dice_shape.get(roll).map(Vec::as_slice);
                    typed_dice(text, shape).ok().map(|faces| EnteredDice {
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
                        .loaded()
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
            marks: self
                .marks
                .iter()
                .map(|((gang, action), fighters)| MarkReport {
                    gang: gang.clone(),
                    action: action.clone(),
                    fighters: fighters.clone(),
                })
                .collect(),
            table_results: self
                .during
                .iter()
                .filter_map(|(fighter, table, total)| {
                    Some(TableResultReport {
                        fighter: name_of(*fighter)?,
                        table: table.clone(),
                        total: *total,
                    })
                })
                .collect(),
            shape: Some(self.shape.clone()).filter(|s| !s.is_empty()),
            stake: self.stake.clone(),
            cycle: None,
            challenge: self.challenge,
            notes: self.notes.clone(),
        })
    }
}

/// The record screen's form: who took part, the scenario, each side's
/// fighters, the result, bounties, advancement, the boxes to tick, notes,
/// and the preview of what the record writes, with its Commit.
pub fn post_battle_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    data: &BattleData,
    pack: Option<&Pack>,
    holdings: &[crate::session::HoldingLine],
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    let before = (form.report(data), form.gangs.clone(), form.scenario.clone());
    let Some(pack) = pack else {
        ui.heading("Record");
        ui.label("Nothing to record yet: a record is of those taking part; found them on the roster first.");
        return None;
    };
    let rules = pack.record();
    ui.heading(format!("Record a {}", rules.noun));
    form.focus.top_of_form(ui);
    if ui.input_mut(|i| i.consume_shortcut(&TO_RESULT)) {
        form.to_result = true;
    }
    crate::ui::views::record_shape::shape_ui(ui, form, pack);
    let (least, most) = crate::ui::views::record_shape::sides_allowed(form, pack);
    if form.gangs.len() < least || form.gangs.len() > most {
        form.set_sides(least.max(form.gangs.len().min(most)));
    }
    // A pack whose records may be plain games starts on a plain one.
    if form.scenario.is_empty()
        && !rules.scenario_optional
        && let Some(first) = pack.scenarios.first()
    {
        form.scenario = first.id.clone();
    }
    action = scenario_choice_ui(ui, form, pack, before.2.as_str(), read_only).or(action);
    let scenario = pack.scenario(&form.scenario).cloned();

    // The gangs, one above the other.
    for i in 0..form.gangs.len() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            gang_column_ui(ui, form, i, data, pack, scenario.as_ref());
        });
    }
    sides_ui(ui, form, &pack.words.gang, least, most);
    during_ui(ui, form, data, pack);

    // The result.
    ui.separator();
    let names: Vec<String> = (0..form.gangs.len())
        .map(|i| {
            form.gangs[i].and_then(|id| data.get(id)).map_or(
                format!("{} {}", crate::text::capitalised(&pack.words.gang), i + 1),
                |g| g.name.clone(),
            )
        })
        .collect();
    match rules.shape(&form.shape).cloned() {
        Some(shape) => {
            crate::ui::views::record_shape::shaped_result_ui(ui, form, &shape, &names);
            crate::ui::views::record_shape::stake_ui(ui, form, pack, &shape, holdings, &names);
        }
        None => result_ui(ui, form, pack, &names),
    }

    bounties_ui(ui, form, data, pack, &names);

    advancement_ui(ui, form, data, pack, &names);

    flags_ui(ui, form, pack);

    ui.horizontal(|ui| {
        let label = ui.label("Notes");
        if ui
            .text_edit_singleline(&mut form.notes)
            .labelled_by(label.id)
            .changed()
        {
            form.dirty = true;
        }
    });

    // Preview: every change, the choices still to make, the rolls;
    // Commit is in the footer under the form, where it stays put.
    preview_ui(ui, form, data, pack, &names);
    if (form.report(data), form.gangs.clone(), form.scenario.clone()) != before {
        form.dirty = true;
    }
    action
}

/// The scenario played, and the button that rolls it for two gangs; a
/// new scenario (`before` was the one before this frame) starts its own
/// roles, counts and choices.
fn scenario_choice_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    pack: &Pack,
    before: &str,
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    if !pack.scenarios.is_empty() {
        scenario_ui(ui, form, pack);
        if let [Some(a), Some(b)] = form.gangs.as_slice()
            && ui
                .add_enabled(read_only.is_none(), egui::Button::new("Roll the scenario"))
                .on_hover_text(format!(
                    "Roll among the scenarios these two {} may play next (their arc's next stage); the roll goes into the log",
                    pack.words.gangs
                ))
                .on_disabled_hover_text(edit_hint(read_only))
                .clicked()
        {
            action = Some(Action::Record(RecordAction::RollScenario { a: *a, b: *b }));
        }
    }
    if before != form.scenario {
        // A new scenario: its own roles, counts and choices.
        let n = form.gangs.len();
        form.roles = vec![None; n];
        form.counts = vec![BTreeMap::new(); n];
        form.choices.clear();
        form.made.clear();
        form.wants_roles = true;
    }
    action
}

/// Bounties, named by the pack's bounty counter, declared between two
/// rivals.
fn bounties_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    data: &BattleData,
    pack: &Pack,
    names: &[String],
) {
    if let Some(counter) = pack.bounty_counter()
        && form.gangs.len() == 2
    {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("Declare a {}", counter.label)).strong());
            for (i, name) in names.iter().enumerate() {
                let rival = form.gangs[1 - i].and_then(|id| data.get(id));
                let Some(rival) = rival else { continue };
                let undecided = if form.no_declaration.contains(&i) {
                    "no declaration"
                } else {
                    "Choose…"
                };
                let current = form.bounties[i]
                    .and_then(|f| rival.fighters.iter().find(|(id, _)| *id == f))
                    .map_or(undecided.to_owned(), |(_, n)| n.clone());
                let label = format!("{} declared by {name}", counter.label);
                labelled_combo(
                    ui,
                    &label,
                    |c| c.selected_text(current),
                    |ui| {
                        for (id, name) in &rival.fighters {
                            if ui
                                .selectable_value(&mut form.bounties[i], Some(*id), name)
                                .clicked()
                            {
                                form.no_declaration.remove(&i);
                            }
                        }
                    },
                );
            }
        });
    }
}

/// The boxes a record can tick (the story concludes).
fn flags_ui(ui: &mut Ui, form: &mut BattleForm, pack: &Pack) {
    for flag in &pack.record().flags {
        let mut ticked = form.flags.contains(&flag.id);
        let box_ = ui.checkbox(&mut ticked, &flag.label);
        let box_ = if flag.source.is_empty() {
            box_
        } else {
            box_.on_hover_text(&flag.source)
        };
        if box_.changed() {
            form.flags.retain(|f| *f != flag.id);
            if ticked {
                form.flags.push(flag.id.clone());
            }
        }
    }
}

/// Fighters the players nominate for an advancement roll.
fn advancement_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    data: &BattleData,
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
        (None, Some(n)) => format!("up to {n} per {}", pack.words.gang),
        (None, None) => String::new(),
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Advancement").strong())
            .on_hover_text(&rules.source);
        ui.weak(&allowance);
        for (i, gang) in form.gangs.iter().enumerate() {
            let Some(gang) = gang.and_then(|id| data.get(id)) else {
                continue;
            };
            let allowed = form.advancements_allowed.get(&gang.id).copied();
            let nominated = gang
                .fighters
                .iter()
                .filter(|(id, _)| form.advancing.contains(id))
                .count();
            let full = allowed.is_some_and(|n| nominated >= n);
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
                // Boxes only as far as the rolls allow: a ticked one may
                // always be unticked.
                let n = allowed.unwrap_or(0);
                let why = format!(
                    "{} has {n} advancement roll{} from this {}{}",
                    names[i],
                    if n == 1 { "" } else { "s" },
                    pack.record().noun,
                    if allowance.is_empty() {
                        String::new()
                    } else {
                        format!(" ({allowance})")
                    }
                );
                if ui
                    .add_enabled(
                        on || !full,
                        egui::Checkbox::new(&mut on, format!("Advance {name}")),
                    )
                    .on_hover_text(format!(
                        "{} nominates {name} for an advancement roll",
                        names[i]
                    ))
                    .on_disabled_hover_text(why)
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
fn rolls_ui(ui: &mut Ui, form: &mut BattleForm, procedure: &Procedure, pack: &Pack) {
    if procedure.rolls.is_empty() {
        return;
    }
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new("Rolls").strong());
        ui.weak("made by the app, or entered from your dice")
            .on_hover_text(format!(
                "Rolled from seed {}: the same seed rolls the same dice (Roll again, under the form, rolls anew)",
                procedure.seed
            ));
    });
    // No column wider than about half the form: a long roll line wraps
    // rather than running under the dice field beside it.
    let widest = (ui.available_width() * 0.45).max(180.0);
    egui::Grid::new("rolls")
        .num_columns(3)
        .striped(true)
        .max_col_width(widest)
        .show(ui, |ui| {
            for roll in &procedure.rolls {
                let dice: Vec<String> = roll.record.dice.iter().map(u32::to_string).collect();
                let by = match roll.record.source {
                    crate::dice::RollSource::Hand => "your dice",
                    crate::dice::RollSource::App { .. } => "app",
                };
                let name = ui.add(egui::Label::new(roll_label(pack, &roll.roll)).wrap());
                ui.add(
                    egui::Label::new(format!(
                        "{} [{}]{} = {}: {} ({by})",
                        roll.record.expression,
                        dice.join(", "),
                        roll.modifier_text,
                        roll.total,
                        roll.result
                    ))
                    .wrap(),
                );
                let entry = form.dice.entry(roll.roll.clone()).or_default();
                let typed_before = !entry.trim().is_empty();
                ui.horizontal(|ui| {
                    ui.add(
                        egui::TextEdit::singleline(entry)
                            .desired_width(90.0)
                            .hint_text("your dice"),
                    )
                    .labelled_by(name.id)
                    .on_hover_text(format!(
                        "The dice you rolled for {}, e.g. 3 4; leave empty for the app's roll",
                        roll_label(pack, &roll.roll)
                    ));
                    // Checked as typed, beside the field: the preview keeps
                    // the app's roll until the dice fit.
                    let shape = form.dice_shape.get(&roll.roll).map(Vec::as_slice);
                    if let Err(why) = typed_dice(entry, shape)
                        && !entry.trim().is_empty()
                    {
                        ui.label(RichText::new(why).color(ui.visuals().warn_fg_color));
                    }
                });
                // Dice typed and then emptied: the app rolls in their
                // place only once the player says so at Commit.
                match (typed_before, entry.trim().is_empty()) {
                    (true, true) => {
                        form.emptied.insert(roll.roll.clone());
                    }
                    (_, false) => {
                        form.emptied.remove(&roll.roll);
                    }
                    (false, true) => {}
                }
                ui.end_row();
            }
        });
    form.dice.retain(|_, v| !v.trim().is_empty());
}

/// A roll's name as the player reads it: the table's name where the
/// report names the roll by the table's id (`injury: Brick` is
/// `Post-Battle Injury: Brick`).
pub fn roll_label(pack: &Pack, roll: &str) -> String {
    pack.roll_title(roll)
}

/// The dice typed for a roll, when they fit its dice (`shape`: the sides
/// of each die it throws, where known): as many as it throws, each a face
/// the die has.
pub fn typed_dice(text: &str, shape: Option<&[u32]>) -> Result<Vec<u32>, String> {
    let faces: Vec<u32> = text
        .split([',', ' '])
        .filter(|f| !f.trim().is_empty())
        .map(|f| f.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| "dice are whole numbers, e.g. 3 4".to_owned())?;
    if faces.is_empty() {
        return Err("no dice yet".to_owned());
    }
    let Some(shape) = shape.filter(|s| !s.is_empty()) else {
        return Ok(faces);
    };
    if faces.len() != shape.len() {
        return Err(format!(
            "needs {} {} ({} given)",
            shape.len(),
            if shape.len() == 1 { "die" } else { "dice" },
            faces.len()
        ));
    }
    if let Some((face, sides)) = faces.iter().zip(shape).find(|(f, s)| **f == 0 || *f > *s) {
        return Err(format!("a d{sides} shows 1 to {sides}, not {face}"));
    }
    Ok(faces)
}

/// A choice's button as it is named for a screen reader and the choices
/// made: whose it is (a pick belongs to a roll, a choice to a gang) and
/// the option (`Static: Injury: hold`, `Neon Jackals: Supply 1`).
pub fn choice_name(
    pack: &Pack,
    need: &crate::campaign::battle::NeededChoice,
    label: &str,
) -> String {
    let whose = if need.field == "picks" {
        roll_label(pack, &need.rule)
    } else {
        need.gang.clone()
    };
    format!("{whose}: {label}")
}

/// The words on a choice's button: `Supply 1`, a title's name, `none`.
pub fn option_label(
    pack: Option<&Pack>,
    scenario: Option<&str>,
    need: &crate::campaign::battle::NeededChoice,
    option: &str,
) -> String {
    let Some(pack) = pack else {
        return option.to_owned();
    };
    if need.field == "marks" {
        return format!("mark {option}");
    }
    if need.field == "bounties" {
        let word = pack.bounty_counter().map_or("", |c| c.label.as_str());
        return if option == crate::campaign::battle::NO_DECLARATION {
            format!("no {word} declared")
        } else {
            format!("{word} on {option}")
        };
    }
    if let Some(resource) = pack.resource(option) {
        let amount = scenario
            .and_then(|s| pack.scenario(s))
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
        return stat.title().to_owned();
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
    data: &BattleData,
    pack: &Pack,
    scenario: Option<&crate::rules::ScenarioDef>,
) {
    let others: Vec<GangId> = form
        .gangs
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .filter_map(|(_, g)| *g)
        .collect();
    let current = form.gangs[i]
        .and_then(|id| data.get(id))
        .map_or("Choose…".to_owned(), |g| g.name.clone());
    let before = form.gangs[i];
    ui.horizontal_wrapped(|ui| {
        let label = format!("{} {}", crate::text::capitalised(&pack.words.gang), i + 1);
        labelled_combo(
            ui,
            &label,
            |c| c.selected_text(current).width(200.0),
            |ui| {
                for g in data
                    .iter()
                    .filter(|g| !others.contains(&g.id) && g.ruleset == pack.pack.id)
                {
                    ui.selectable_value(&mut form.gangs[i], Some(g.id), &g.name);
                }
            },
        );
        if let Some(gang) = form.gangs[i].and_then(|id| data.get(id)) {
            role_and_counts_ui(ui, form, i, gang, pack, scenario);
        }
    });
    if form.gangs[i] != before {
        form.wants_roles = true;
    }
    let Some(gang) = form.gangs[i].and_then(|id| data.get(id)) else {
        return;
    };
    fighters_ui(ui, form, i, gang, data, pack);
}

fn role_and_counts_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    i: usize,
    gang: &BattleGangData,
    pack: &Pack,
    scenario: Option<&crate::rules::ScenarioDef>,
) {
    if let Some(scenario) = scenario
        && !scenario.roles.is_empty()
    {
        let current = form.roles[i]
            .as_ref()
            .and_then(|r| scenario.roles.iter().find(|x| x.id == *r))
            .map_or("Choose…".to_owned(), |r| r.label.clone());
        let label = format!("Role of {}", gang.name);
        labelled_combo(
            ui,
            &label,
            |c| c.selected_text(current),
            |ui| {
                for role in &scenario.roles {
                    let chosen = form.roles[i].as_ref() == Some(&role.id);
                    if ui
                        .selectable_label(chosen, &role.label)
                        .on_hover_text(&role.source)
                        .clicked()
                        && !chosen
                    {
                        let ids: Vec<String> =
                            scenario.roles.iter().map(|r| r.id.clone()).collect();
                        form.choose_role(i, role.id.clone(), &ids);
                    }
                }
            },
        );
    }
    if let Some(ran) = &pack.record().ran {
        ui.checkbox(&mut form.ran[i], format!("{} {ran}", gang.name));
    }
    if let Some(scenario) = scenario {
        for count in &scenario.counts {
            // A count of fighters by outcome is read from the outcomes
            // below, not typed.
            if !count.outcomes.is_empty() {
                let usual = pack.default_outcome().map(|o| o.id.clone());
                let n = gang
                    .fighters
                    .iter()
                    .filter(|(id, _)| !form.absent.contains(id))
                    .filter(|(id, _)| {
                        let outcome = form
                            .outcomes
                            .get(id)
                            .map(|(o, _)| o.clone())
                            .or(usual.clone());
                        outcome.is_some_and(|o| count.outcomes.contains(&o))
                    })
                    .count();
                ui.label(format!("{} ({}): {n}", count.label, gang.name))
                    .on_hover_text("Counted from the outcomes");
                continue;
            }
            // Placed in the row's own wrapping, so that a long label goes
            // to the next line instead of past the window's edge.
            // The box already names the side: the label says what is
            // counted; its name for a screen reader says whose.
            ui.label(&count.label);
            let value = form.counts[i].entry(count.id.clone()).or_insert(0);
            let shown = *value;
            let drag = egui::DragValue::new(value)
                .range(0..=count.max.or(count.total_max).unwrap_or(99))
                .speed(0.1);
            let named = format!("{} ({})", count.label, gang.name);
            ui.add(drag).widget_info(|| egui::WidgetInfo {
                value: Some(shown as f64),
                ..egui::WidgetInfo::labeled(egui::Role::SpinButton, true, &named)
            });
        }
    }
}

fn fighters_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    i: usize,
    gang: &BattleGangData,
    data: &BattleData,
    pack: &Pack,
) {
    let rivals: Vec<(FighterId, String)> = form
        .gangs
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .filter_map(|(_, g)| g.and_then(|id| data.get(id)))
        .flat_map(|g| g.fighters.iter().cloned())
        .collect();
    let counters: Vec<crate::rules::CounterDef> = pack
        .record()
        .counters
        .iter()
        .filter_map(|c| pack.counter(c).cloned())
        .collect();
    egui::Grid::new(("fighters", i))
        .num_columns(3 + counters.len())
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
                if taken_down && present && !rivals.is_empty() {
                    let current = entry
                        .1
                        .and_then(|f| rivals.iter().find(|(x, _)| *x == f))
                        .map_or("by nobody".to_owned(), |(_, n)| format!("by {n}"));
                    ui.horizontal(|ui| {
                        let label = ui.label(RichText::new("downed").weak());
                        let combo =
                            egui::ComboBox::from_id_salt(("downed-by", id)).selected_text(current);
                        crate::ui::base::widgets::show_combo(ui, combo, |ui| {
                            ui.selectable_value(&mut entry.1, None, "by nobody");
                            for (rid, rname) in &rivals {
                                ui.selectable_value(
                                    &mut entry.1,
                                    Some(*rid),
                                    format!("by {rname}"),
                                );
                            }
                        })
                        .labelled_by(label.id)
                        .on_hover_text(format!("Who took {name} down"));
                    });
                } else {
                    ui.label("");
                }
                let held = gang.entries.get(id).cloned().unwrap_or_default();
                for counter in &counters {
                    // Kept per entry: one field for each of the fighter's.
                    let keys: Vec<String> = pack
                        .counter_keys(&held)
                        .into_iter()
                        .filter(|(_, d)| d.id == counter.id)
                        .map(|(k, _)| k)
                        .collect();
                    let without = pack
                        .entry_taking(&counter.id, held.iter().map(String::as_str))
                        .is_some();
                    ui.horizontal(|ui| {
                        if counter.unfilled().is_some() || without || keys.is_empty() {
                            ui.label(RichText::new("—").weak()).on_hover_text(format!(
                                "{name} has no {} to change",
                                counter.label
                            ));
                            return;
                        }
                        for key in &keys {
                            let title = pack.counter_title(key);
                            counter_change_ui(ui, form, *id, name, counter, key, &title, present);
                        }
                    });
                }
                ui.end_row();
            }
        });
}

/// The scenario, by arc stage, for a pack that plays scenarios.
fn scenario_ui(ui: &mut Ui, form: &mut BattleForm, pack: &Pack) {
    ui.horizontal(|ui| {
        let optional = pack.record().scenario_optional;
        let plain = format!("None: a plain {}", pack.record().noun);
        let current = pack.scenario(&form.scenario).map_or_else(
            || {
                if optional {
                    plain.clone()
                } else {
                    "Choose…".to_owned()
                }
            },
            |s| s.name.clone(),
        );
        let response = labelled_combo(
            ui,
            "Scenario",
            |c| c.selected_text(current).width(220.0),
            |ui| {
                if optional {
                    ui.selectable_value(&mut form.scenario, String::new(), &plain);
                }
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
            },
        );
        if let Some(s) = pack.scenario(&form.scenario) {
            response.on_hover_text(&s.premise);
            let stage = pack.arc_stage(&s.stage).map_or("", |st| st.name.as_str());
            ui.label(RichText::new(stage).weak());
        }
    });
}

/// Adds or takes away a side, within what the pack's record takes.
fn sides_ui(ui: &mut Ui, form: &mut BattleForm, gang: &str, least: usize, most: usize) {
    let rules = (least, most);
    if least == most {
        return;
    }
    ui.horizontal(|ui| {
        let n = form.gangs.len();
        if ui
            .add_enabled(n < rules.1, egui::Button::new(format!("Add a {gang}")))
            .on_hover_text(format!("Up to {} take part", rules.1))
            .clicked()
        {
            form.set_sides(n + 1);
        }
        if ui
            .add_enabled(
                n > rules.0,
                egui::Button::new(format!("Remove the last {gang}")),
            )
            .on_hover_text(format!("At least {} take part", rules.0))
            .clicked()
        {
            form.set_sides(n - 1);
        }
    });
}

/// Who won: a radio per gang, and "no winner" where the pack allows it.
fn result_ui(ui: &mut Ui, form: &mut BattleForm, pack: &Pack, names: &[String]) {
    let rules = pack.record();
    if rules.winner == WinnerRule::None {
        form.winner = None;
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Result").strong())
            .on_hover_text(format!(
                "{} jumps here",
                ui.ctx().format_shortcut(&TO_RESULT)
            ));
        for (i, name) in names.iter().enumerate() {
            let choice = ui.radio_value(&mut form.winner, Some(i), format!("{name} won"));
            if i == 0 {
                form.take_jump(&choice);
            }
        }
        // Where a record always has a winner, "no winner" is only what
        // every gang leaving makes it; it is never offered as a pick.
        let all_ran = !form.ran.is_empty() && form.ran.iter().all(|r| *r);
        match (&rules.ran, rules.winner) {
            (Some(ran), WinnerRule::Required) if all_ran => {
                let none = format!("No winner (every {} {ran})", pack.words.gang);
                ui.radio_value(&mut form.winner, None, none);
            }
            (_, WinnerRule::Required) => {}
            _ => {
                ui.radio_value(&mut form.winner, None, "No winner");
            }
        }
    });
    // A gang that left the game lost; of two, the other won.
    let ran: Vec<usize> = (0..form.ran.len()).filter(|i| form.ran[*i]).collect();
    if ran.len() == form.ran.len() && !ran.is_empty() {
        form.winner = None;
    } else if let [one] = ran.as_slice()
        && form.ran.len() == 2
    {
        form.winner = Some(1 - one);
    } else if form.winner.is_some_and(|w| ran.contains(&w)) {
        form.winner = None;
    }
}

/// The change to one counter of a fighter during the game.
#[allow(clippy::too_many_arguments)]
fn counter_change_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    fighter: FighterId,
    name: &str,
    counter: &crate::rules::CounterDef,
    key: &str,
    title: &str,
    present: bool,
) {
    let value = form.counters.entry((fighter, key.to_owned())).or_default();
    let steps = form.steps.entry((fighter, key.to_owned())).or_default();
    let span = counter.top().saturating_sub(counter.min);
    let prefix = if *value > 0 { "+" } else { "" };
    ui.horizontal(|ui| {
        let label = ui.label(RichText::new(title).weak());
        ui.add_enabled(
            present && steps.is_empty(),
            egui::DragValue::new(value)
                .range(-span..=span)
                .speed(0.1)
                .prefix(prefix),
        )
        .labelled_by(label.id)
        .on_hover_text(format!(
            "{name}: the change to {title} during the game ({})",
            counter.description
        ));
        if counter.max.is_some() {
            steps_ui(ui, steps, &format!("{name}: {title}"), present);
        }
    });
}

/// A counter with a most, changed a step at a time in the order things
/// happened at the table, each step held at the bounds in its turn.
fn steps_ui(ui: &mut Ui, steps: &mut Vec<i64>, whose: &str, present: bool) {
    for (shown, change) in [("−1", -1), ("+1", 1)] {
        let named = format!("{whose} {shown} in turn");
        let button = ui.add_enabled(present, egui::Button::new(shown).small());
        button.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, present, &named));
        if button
            .on_hover_text("One change in the order it happened, held at the bounds in its turn")
            .clicked()
        {
            steps.push(change);
        }
    }
    if !steps.is_empty() {
        let said: Vec<String> = steps.iter().map(|n| format!("{n:+}")).collect();
        ui.weak(format!("in turn: {}", said.join(", ")));
        let clear = ui.small_button("×");
        let named = format!("{whose}: clear the changes in turn");
        clear.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &named));
        if clear.on_hover_text(named.as_str()).clicked() {
            steps.clear();
        }
    }
}

/// Results of the tables the pack's record rolls during a game: who, which
/// table, and the total rolled at the table or a roll by the app.
fn during_ui(ui: &mut Ui, form: &mut BattleForm, data: &BattleData, pack: &Pack) {
    let rules = pack.record();
    if rules.during.is_empty() {
        return;
    }
    let fighters: Vec<(FighterId, String)> = form
        .gangs
        .iter()
        .filter_map(|g| g.and_then(|id| data.get(id)))
        .flat_map(|g| g.fighters.iter().cloned())
        .filter(|(id, _)| !form.absent.contains(id))
        .collect();
    let tables: Vec<&crate::rules::TableDef> = rules
        .during
        .iter()
        .filter_map(|r| pack.table(&r.table))
        .collect();
    ui.separator();
    ui.label(RichText::new(format!("During the {}", rules.noun)).strong())
        .on_hover_text(
            rules
                .during
                .iter()
                .filter_map(|r| Some(format!("{}: {}", pack.table(&r.table)?.name, r.when)))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    let mut remove = None;
    for (n, (fighter, table, total)) in form.during.iter_mut().enumerate() {
        ui.horizontal_wrapped(|ui| {
            let who = fighters
                .iter()
                .find(|(id, _)| id == fighter)
                .map_or("Choose…".to_owned(), |(_, name)| name.clone());
            ui.label(RichText::new(format!("Result {}", n + 1)).strong());
            let label = ui.label("Who");
            let combo = egui::ComboBox::from_id_salt(("during-who", n)).selected_text(who);
            crate::ui::base::widgets::show_combo(ui, combo, |ui| {
                for (id, name) in &fighters {
                    ui.selectable_value(fighter, *id, name);
                }
            })
            .labelled_by(label.id);
            let current = tables
                .iter()
                .find(|t| t.id == *table)
                .map_or(table.clone(), |t| t.name.clone());
            let label = ui.label("Table");
            let combo = egui::ComboBox::from_id_salt(("during-table", n)).selected_text(current);
            crate::ui::base::widgets::show_combo(ui, combo, |ui| {
                for t in &tables {
                    ui.selectable_value(table, t.id.clone(), &t.name);
                }
            })
            .labelled_by(label.id);
            let mut by_hand = total.is_some();
            ui.checkbox(&mut by_hand, "Rolled at the table")
                .on_hover_text("Enter the total you rolled; otherwise the app rolls it");
            match (by_hand, total.as_mut()) {
                (true, Some(value)) => {
                    let label = ui.label("Total");
                    ui.add(egui::DragValue::new(value).range(-99..=99))
                        .labelled_by(label.id);
                }
                (true, None) => *total = Some(1),
                (false, _) => *total = None,
            }
            if ui
                .small_button("Remove")
                .on_hover_text(format!("Takes result {} off the form", n + 1))
                .clicked()
            {
                remove = Some(n);
            }
        });
    }
    if let Some(n) = remove {
        form.during.remove(n);
    }
    if let (Some((first, _)), Some(table)) = (fighters.first(), tables.first())
        && ui
            .button("Add a table result")
            .on_hover_text("A roll made during the game whose result the rules apply")
            .clicked()
    {
        form.during.push((*first, table.id.clone(), None));
    }
}

/// A bounty declaration picked from the choices asked for: a rival
/// fighter by name, or no declaration.
fn declare(form: &mut BattleForm, data: &BattleData, side: usize, option: &str) {
    if option == crate::campaign::battle::NO_DECLARATION {
        form.no_declaration.insert(side);
        if let Some(slot) = form.bounties.get_mut(side) {
            *slot = None;
        }
        return;
    }
    let rival = form
        .gangs
        .iter()
        .enumerate()
        .find(|(j, _)| *j != side)
        .and_then(|(_, g)| g.and_then(|id| data.get(id)));
    let fighter = rival.and_then(|r| r.fighters.iter().find(|(_, n)| n == option));
    if let (Some((id, _)), Some(slot)) = (fighter, form.bounties.get_mut(side)) {
        *slot = Some(*id);
        form.no_declaration.remove(&side);
    }
}

/// The preview: warnings, every change, the choices still to make with a
/// button per option, and the rolls.
fn preview_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    data: &BattleData,
    pack: &Pack,
    names: &[String],
) {
    let rules = pack.record();
    ui.separator();
    form.preview_top = None;
    if std::mem::take(&mut form.show_preview) {
        ui.scroll_to_cursor(Some(egui::Align::TOP));
    }
    let preview = form.preview.clone();
    match &preview {
        None => {
            ui.weak(format!(
                "Choose the {} taking part to see what the {} changes.",
                pack.words.gangs, rules.noun
            ));
        }
        // A form not filled in yet is not an error: it says what is next.
        Some(Err(_))
            if rules.winner == WinnerRule::Required
                && form.winner.is_none()
                && !form.ran.iter().all(|r| *r) =>
        {
            ui.weak(format!(
                "Choose who won to see what the {} changes.",
                rules.noun
            ));
        }
        // A record placed first to last waits for its places; a
        // challenge, for its challenger.
        Some(Err(_))
            if rules
                .shape(&form.shape)
                .is_some_and(|s| s.result == crate::rules::ShapeResult::Placed)
                && form.places.iter().any(Option::is_none) =>
        {
            ui.weak(format!(
                "Place every {}, first to last, to see what the {} changes.",
                pack.words.gang, rules.noun
            ));
        }
        Some(Err(_))
            if rules
                .shape(&form.shape)
                .is_some_and(|s| s.result == crate::rules::ShapeResult::Challenge)
                && form.challenger.is_none() =>
        {
            ui.weak(format!(
                "Choose which {} challenges to see what the {} changes.",
                pack.words.gang, rules.noun
            ));
        }
        Some(Err(err)) => {
            ui.label(RichText::new(format!("⚠ {err}")).color(ui.visuals().error_fg_color));
        }
        Some(Ok(procedure)) => {
            for roll in &procedure.rolls {
                let shape: Vec<u32> = roll.record.rolls.iter().map(|r| r.rolled).collect();
                if !shape.is_empty() {
                    form.dice_shape.insert(roll.roll.clone(), shape);
                }
            }
            form.preview_top = Some(changes_ui(ui, procedure));
            for need in &procedure.needed {
                needed_ui(ui, form, data, pack, names, need);
            }
            rolls_ui(ui, form, procedure, pack);
            made_ui(ui, form);
        }
    }
}

/// What the record changes: the warnings where it was told otherwise than
/// the rules say, then every change, a ruling's marked and said on hover.
/// Where its heading was drawn.
fn changes_ui(ui: &mut Ui, procedure: &Procedure) -> egui::Rect {
    for warning in &procedure.warnings {
        ui.label(RichText::new(format!("⚠ {}", warning.text)).color(ui.visuals().warn_fg_color))
            .on_hover_text(format!(
                "Recorded as told; the rule says otherwise: {}",
                warning.source
            ));
    }
    let heading = ui
        .label(RichText::new("What the rules change").strong())
        .rect;
    if procedure.changes.is_empty() {
        ui.weak("Nothing changes.");
    }
    for change in &procedure.changes {
        let mut text = change.said();
        if change.ruling.is_some() {
            text.push_str("  [ruling]");
        }
        let mut hover = change.source.clone();
        if let Some(ruling) = &change.ruling {
            hover.push_str(&format!("\n\nRuling: {ruling}"));
        }
        ui.label(text).on_hover_text(hover);
    }
    heading
}

/// One choice still to make, with a button per option; a click fills the
/// form.
fn needed_ui(
    ui: &mut Ui,
    form: &mut BattleForm,
    data: &BattleData,
    pack: &Pack,
    names: &[String],
    need: &NeededChoice,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(format!("{} chooses: {}", need.gang, need.text))
                .color(ui.visuals().warn_fg_color),
        );
        let index = names.iter().position(|n| *n == need.gang);
        for option in &need.options {
            let label = option_label(Some(pack), Some(&form.scenario), need, option);
            // The row already says who chooses: the button
            // shows the option; its accessible name keeps who.
            let named = choice_name(pack, need, &label);
            let button = ui.button(&label);
            button.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &named));
            if button.clicked() {
                // A declaration shows in its gang's column.
                if need.field != "bounties" {
                    form.made.push(named.clone());
                }
                match (need.field.as_str(), index) {
                    ("picks", _) => {
                        form.picks.insert(need.rule.clone(), option.clone());
                    }
                    ("bounties", Some(i)) => declare(form, data, i, option),
                    ("marks", _) => form
                        .marks
                        .entry((need.gang.clone(), need.rule.clone()))
                        .or_default()
                        .push(option.clone()),
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

/// The choices made so far, with the button that clears them.
fn made_ui(ui: &mut Ui, form: &mut BattleForm) {
    if !form.made.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.weak("Choices made:");
            ui.weak(form.made.join(" · "));
            if ui.small_button("Clear choices").clicked() {
                form.made.clear();
                form.marks.clear();
                form.choices.clear();
                form.titles.clear();
                form.picks.clear();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choosing_a_role_another_side_has_swaps_them() {
        let roles = ["a".to_owned(), "b".to_owned()];
        let mut form = BattleForm::default();
        form.set_sides(2);
        // Nobody has one yet: the other side takes the one left.
        form.choose_role(0, "a".into(), &roles);
        assert_eq!(form.roles, [Some("a".into()), None]);
        form.choose_role(1, "a".into(), &roles);
        assert_eq!(form.roles, [Some("b".into()), Some("a".into())]);
        // Back again: a swap.
        form.choose_role(0, "a".into(), &roles);
        assert_eq!(form.roles, [Some("a".into()), Some("b".into())]);
        // Of three roles, the side that loses its role takes the one given up.
        let three = ["a".to_owned(), "b".to_owned(), "c".to_owned()];
        let mut form = BattleForm::default();
        form.set_sides(2);
        form.choose_role(0, "a".into(), &three);
        form.choose_role(1, "a".into(), &three);
        assert_eq!(
            form.roles,
            [None, Some("a".into())],
            "two roles free: none chosen for it"
        );
    }
}
