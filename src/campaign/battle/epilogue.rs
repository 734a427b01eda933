//! A record's epilogue — its scenario's lines, then the lines the pack's
//! `[record]` gives every record: who each line is for (the winner, each
//! gang, the gang with the most or fewest of a count…), what it gives, and
//! the choices it asks for. A count is the scenario's, as the report gives
//! it, or the number of a gang's fighters with an outcome. Pure.

use super::*;

impl Run<'_> {
    /// A gang's count: the scenario's (as the report gives it), or how many
    /// of its fighters ended with one of the outcomes `outcome:<ids>` names.
    pub(super) fn count_of(&self, gang: GangId, count: &str) -> i64 {
        match crate::rules::outcome_count(count) {
            Some(outcomes) => fighters_ending(&self.battle.fighters, gang, &outcomes),
            None => self
                .battle
                .gangs
                .iter()
                .find(|g| g.gang == gang)
                .and_then(|g| g.counts.get(count))
                .copied()
                .unwrap_or(0),
        }
    }

    /// What a count counts, in the pack's words, to follow a number in a
    /// sentence: the scenario count's label, or the fighters with an
    /// outcome (`divers surfaced`), each label begun in lower case there.
    fn count_label(&self, count: &str) -> String {
        match crate::rules::outcome_count(count) {
            Some(outcomes) => {
                let labels: Vec<String> = outcomes
                    .iter()
                    .map(|o| self.pack.outcome(o).map_or(*o, |d| d.label.as_str()))
                    .map(mid_sentence)
                    .collect();
                format!("{} {}", self.pack.words.fighters, labels.join(" or "))
            }
            None => self
                .battle
                .scenario
                .as_deref()
                .and_then(|s| self.pack.scenario(s))
                .and_then(|s| s.counts.iter().find(|c| c.id == count))
                .map_or_else(|| count.to_owned(), |c| mid_sentence(&c.label)),
        }
    }

    /// The one gang with the most (or, `fewest`, the fewest) of a count;
    /// none on a tie.
    fn best_at(&self, count: &str, fewest: bool) -> Vec<GangId> {
        let values: Vec<(GangId, i64)> = self
            .battle
            .gangs
            .iter()
            .map(|g| (g.gang, self.count_of(g.gang, count)))
            .collect();
        let best = if fewest {
            values.iter().map(|(_, v)| *v).min()
        } else {
            values.iter().map(|(_, v)| *v).max()
        };
        let top: Vec<GangId> = values
            .iter()
            .filter(|(_, v)| Some(*v) == best)
            .map(|(g, _)| *g)
            .collect();
        if top.len() == 1 { top } else { Vec::new() }
    }

    pub(super) fn recipients(&self, rule: &EpilogueRule) -> Vec<GangId> {
        let gangs = &self.battle.gangs;
        if let Some(role) = &rule.when_winner {
            let winner_role = self
                .battle
                .winner
                .and_then(|w| gangs.iter().find(|g| g.gang == w))
                .and_then(|g| g.role.as_ref());
            if winner_role != Some(role) {
                return Vec::new();
            }
        }
        match rule.recipient() {
            Ok(Recipient::Winner) => self.battle.winner.into_iter().collect(),
            Ok(Recipient::Loser) => self
                .battle
                .winner
                .map(|w| self.rival(w))
                .into_iter()
                .collect(),
            Ok(Recipient::Each) => gangs.iter().map(|g| g.gang).collect(),
            Ok(Recipient::RanForIt) => gangs
                .iter()
                .filter(|g| g.ran_for_it)
                .map(|g| g.gang)
                .collect(),
            Ok(Recipient::Most(count)) => self.best_at(&count, false),
            Ok(Recipient::Fewest(count)) => self.best_at(&count, true),
            Ok(Recipient::Role(role)) => gangs
                .iter()
                .filter(|g| g.role.as_deref() == Some(role.as_str()))
                .map(|g| g.gang)
                .collect(),
            Ok(Recipient::Placed(placed)) => self.placed(placed),
            Err(_) => Vec::new(),
        }
    }

    /// `lines` are the record's epilogue (its scenario's, then the
    /// pack's for every record); `of` names where they come from, for a
    /// choice that names none of them.
    pub(super) fn epilogue(
        &mut self,
        lines: &[EpilogueRule],
        of: &str,
        report: &BattleReport,
    ) -> Result<(), ReportError> {
        self.check_choices(lines, of, report)?;
        for rule in lines {
            let recipients = self.recipients(rule);
            if recipients.is_empty() {
                self.explain_nobody(rule);
            }
            for gang in recipients {
                self.epilogue_line(rule, gang, report)?;
            }
        }
        Ok(())
    }

    /// Every pick of the report names a line that offers a choice to that
    /// gang, once, and one of the line's options.
    fn check_choices(
        &self,
        lines: &[EpilogueRule],
        of: &str,
        report: &BattleReport,
    ) -> Result<(), ReportError> {
        for (i, choice) in report.choices.iter().enumerate() {
            let field = format!("choices[{i}]");
            let Some(gang) = self.state.gang_named(&choice.gang).map(|g| g.id) else {
                return refuse(
                    format!("{field}.gang"),
                    format!("no {} called “{}”", self.pack.words.gang, choice.gang),
                );
            };
            let Some(rule) = lines
                .iter()
                .find(|r| crate::text::same(&r.id, &choice.rule))
            else {
                let ids: Vec<&str> = lines
                    .iter()
                    .filter(|r| !r.choice.is_empty())
                    .map(|r| r.id.as_str())
                    .collect();
                return refuse(
                    format!("{field}.rule"),
                    format!(
                        "{} has no epilogue line “{}” with a choice ({})",
                        of,
                        choice.rule,
                        ids.join(", ")
                    ),
                );
            };
            if rule.choice.is_empty() || !self.recipients(rule).contains(&gang) {
                return refuse(
                    format!("{field}.rule"),
                    format!(
                        "“{}” offers {} no choice in this {}",
                        rule.text,
                        choice.gang,
                        self.pack.record().noun
                    ),
                );
            }
            if report.choices[..i].iter().any(|c| {
                crate::text::same(&c.rule, &choice.rule) && crate::text::same(&c.gang, &choice.gang)
            }) {
                return refuse(field, "this choice is given twice");
            }
            let pick = choice.pick.trim().to_lowercase();
            let known = (rule.optional && pick == "none")
                || rule.choice.iter().any(|a| {
                    a.resource == pick
                        || self.pack.resource_label(&a.resource).to_lowercase() == pick
                });
            if !known {
                return refuse(
                    format!("{field}.pick"),
                    format!(
                        "“{}” is not one of {}",
                        choice.pick,
                        rule.choice
                            .iter()
                            .map(|a| a.resource.as_str())
                            .chain(rule.optional.then_some("none"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }

        Ok(())
    }

    /// One line of the epilogue for one gang it is for: what it gains (as
    /// many times as its count says), what it takes and from whom, and
    /// the choice it makes.
    fn epilogue_line(
        &mut self,
        rule: &EpilogueRule,
        gang: GangId,
        report: &BattleReport,
    ) -> Result<(), ReportError> {
        let times = rule
            .per
            .as_ref()
            .map_or(1, |count| self.count_of(gang, count));
        if times == 0 {
            let counted = rule.per.as_deref().map(|c| self.count_label(c));
            let text = format!("gains nothing (0 {})", counted.unwrap_or_default());
            self.line(Some(gang), text, &rule.text, None);
            return Ok(());
        }
        let from = self.taken_from(rule, gang);
        if Self::takes_from_a_side(rule) && from.is_none() {
            let text = format!(
                "takes nothing: no one other {} is placed {}",
                self.pack.words.gang,
                rule.from
                    .as_deref()
                    .unwrap_or_default()
                    .replace("place:", "")
            );
            self.line(Some(gang), text, &rule.text, rule.ruling.as_deref());
            return Ok(());
        }
        for amount in &rule.gain {
            self.gain(
                gang,
                amount,
                times,
                from,
                &rule.text,
                rule.ruling.as_deref(),
            )?;
        }
        if rule.choice.is_empty() {
            return Ok(());
        }
        self.epilogue_choice(rule, gang, times, from, report)
    }

    /// A line's choice for one gang: the pick the report gives, applied,
    /// or asked for where there is something to choose.
    fn epilogue_choice(
        &mut self,
        rule: &EpilogueRule,
        gang: GangId,
        times: i64,
        from: Option<GangId>,
        report: &BattleReport,
    ) -> Result<(), ReportError> {
        let gang_name = self.name(gang);
        let pick = report.choices.iter().find(|c| {
            crate::text::same(&c.rule, &rule.id) && crate::text::same(&c.gang, &gang_name)
        });
        match pick {
            None => {
                let options = self.options(rule, gang);
                // A line that takes from the rival, when the rival holds
                // none of it: nothing to choose.
                if let Some(from) = from.filter(|_| options.iter().all(|o| o == "none")) {
                    let text = format!(
                        "takes nothing: {} has no {}",
                        self.name(from),
                        self.choice_labels(rule).join(", ")
                    );
                    self.line(Some(gang), text, &rule.text, rule.ruling.as_deref());
                } else {
                    self.needed.push(NeededChoice {
                        field: "choices".into(),
                        gang: gang_name,
                        rule: rule.id.clone(),
                        text: rule.text.clone(),
                        options,
                    });
                }
            }
            Some(p) if p.pick.trim().eq_ignore_ascii_case("none") => {
                self.line(
                    Some(gang),
                    "takes nothing".into(),
                    &rule.text,
                    rule.ruling.as_deref(),
                );
            }
            Some(p) => {
                let pick = p.pick.trim().to_lowercase();
                if let Some(amount) = rule.choice.iter().find(|a| {
                    a.resource == pick
                        || self.pack.resource_label(&a.resource).to_lowercase() == pick
                }) {
                    let amount = amount.clone();
                    self.gain(
                        gang,
                        &amount,
                        times,
                        from,
                        &rule.text,
                        rule.ruling.as_deref(),
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Says why a line that could have applied gave nothing, where a ruling
    /// decided it (a tie for the most, a battle with no winner).
    pub(super) fn explain_nobody(&mut self, rule: &EpilogueRule) {
        let gangs = &self.battle.gangs;
        match rule.recipient() {
            Ok(Recipient::Most(count) | Recipient::Fewest(count)) => {
                let values: Vec<i64> = gangs
                    .iter()
                    .map(|g| self.count_of(g.gang, &count))
                    .collect();
                let text = format!(
                    "nobody gains it: tied at {} {}",
                    values.first().copied().unwrap_or(0),
                    self.count_label(&count)
                );
                self.line(None, text, &rule.text, rule.ruling.as_deref());
            }
            Ok(Recipient::Winner | Recipient::Loser) if self.battle.winner.is_none() => {
                let ruling = self
                    .pack
                    .results
                    .as_ref()
                    .and_then(|r| r.no_winner_ruling.clone());
                self.line(
                    None,
                    format!(
                        "nobody gains it: the {} has no winner",
                        self.pack.record().noun
                    ),
                    &rule.text,
                    ruling.as_deref(),
                );
            }
            _ => {}
        }
    }

    /// What `gang` may choose on `rule`: a line that takes from the rival
    /// offers only what the rival holds.
    pub(super) fn options(&self, rule: &EpilogueRule, gang: GangId) -> Vec<String> {
        let mut options: Vec<String> = rule
            .choice
            .iter()
            .filter(|a| {
                self.taken_from(rule, gang)
                    .is_none_or(|from| self.amount_of(from, &a.resource) > 0)
            })
            .map(|a| a.resource.clone())
            .collect();
        if rule.optional {
            options.push("none".into());
        }
        options
    }

    /// The resources a choice offers, in the pack's words.
    fn choice_labels(&self, rule: &EpilogueRule) -> Vec<String> {
        rule.choice
            .iter()
            .map(|a| self.pack.resource_label(&a.resource).to_owned())
            .collect()
    }
}

/// A label as it reads in the middle of a sentence: its first letter in
/// lower case (`Came home` → `came home`), unless its first word is not a
/// capitalised word but a name or an abbreviation written so (`OoA`, `HP`),
/// which stays as the pack writes it.
fn mid_sentence(label: &str) -> String {
    let mut chars = label.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let written_so = chars
        .clone()
        .take_while(|c| !c.is_whitespace())
        .any(char::is_uppercase);
    if !first.is_uppercase() || written_so {
        return label.to_owned();
    }
    first.to_lowercase().chain(chars).collect()
}
