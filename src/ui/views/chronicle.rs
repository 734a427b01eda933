//! The chronicle screen: arcs, the story of an arc or of the campaign,
//! charts of resources and titles over the battles, and export.

use egui::{RichText, Ui};
use egui_plot::{Line, Plot, PlotPoints, Points};

use crate::campaign::BatchId;
use crate::campaign::chronicle::Chronicle;
use crate::export::{Export, Format};
use crate::print::DocLine;
use crate::ui::base::action::Action;
use crate::ui::base::action::{OutputAction, RecordAction};
use crate::ui::base::widgets::edit_hint;

/// The screen's state.
#[derive(Debug, Default)]
pub struct ChronicleView {
    /// The arc shown; `None` is the whole campaign.
    pub arc: Option<usize>,
    /// The resource charted.
    pub resource: String,
    /// Whose lines the chart draws.
    pub charted: Charted,
    /// The gangs the player picked for the chart, by name.
    pub picked: std::collections::BTreeSet<String>,
    /// What the chart's list of gangs is narrowed to.
    pub find: String,
    pub format: Format,
    pub path: String,
    pub close_reason: String,
    /// The story as one-line rows, kept until the chronicle or the width
    /// changes.
    story: Story,
    /// The chart's lines and the titles' runs, kept until the chronicle
    /// or the choice of what is charted changes.
    chart: Chart,
}

/// What the charts show, worked out once per change of the chronicle or
/// of the choice of what is charted, not each frame: a frame then costs
/// the same whatever the number of gangs and records.
#[derive(Debug, Default)]
struct Chart {
    key: Option<ChartKey>,
    /// Every gang with a line of the resource, for the list to pick from.
    gangs: Vec<String>,
    /// The gangs charted, with their points.
    lines: Vec<(String, Vec<(i64, i64)>)>,
    /// Whether every point charted is of one record.
    one_record: bool,
    /// Each title, with who held it as stretches of records.
    titles: Vec<(String, String)>,
}

/// What the chart was worked out for: the newest batch, the arc, the
/// resource, whose lines, and the gangs picked.
type ChartKey = (
    Option<BatchId>,
    Option<usize>,
    String,
    Charted,
    std::collections::BTreeSet<String>,
);

/// Whose lines the resource chart draws: never every gang of a league.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Charted {
    /// The gangs with the most of the resource now.
    #[default]
    Leaders,
    /// The two gangs of the arc shown.
    ArcPair,
    /// The gangs the player picks from the list.
    Picked,
}

/// How many leaders the chart draws.
const LEADERS: usize = 5;

/// The story of the chronicle shown, as rows of one line each, wrapped to
/// the width of the screen (so only the rows in view are laid out).
#[derive(Debug, Default)]
struct Story {
    /// The newest batch, the arc and the wrap width the rows were made for.
    key: Option<(Option<BatchId>, Option<usize>, usize)>,
    rows: Vec<(RowKind, String)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RowKind {
    Heading,
    Subheading,
    Text,
}

/// `chronicle` is the story shown (the arc's or the campaign's), `all`
/// the campaign's for the list of arcs.
#[allow(clippy::too_many_arguments)]
pub fn chronicle_ui(
    ui: &mut Ui,
    view: &mut ChronicleView,
    batch: Option<BatchId>,
    all: &Chronicle,
    chronicle: &Chronicle,
    campaign: &str,
    resources: &[(String, String)],
    read_only: Option<&str>,
) -> Option<Action> {
    let mut action = None;
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(230.0);
            ui.heading("Chronicle");
            if ui
                .selectable_label(view.arc.is_none(), "Whole campaign")
                .clicked()
            {
                view.arc = None;
            }
            let height = ui.spacing().interact_size.y;
            egui::ScrollArea::vertical()
                .id_salt("arcs")
                .max_height(240.0)
                .auto_shrink([false, true])
                .show_rows(ui, height, all.arcs.len(), |ui, range| {
                    for arc in &all.arcs[range] {
                        let state = if arc.closed { "closed" } else { "open" };
                        let label = format!(
                            "Arc {}: {} vs {} ({state})",
                            arc.id, arc.gangs[0], arc.gangs[1]
                        );
                        if ui
                            .selectable_label(view.arc == Some(arc.id), label)
                            .clicked()
                        {
                            view.arc = Some(arc.id);
                        }
                    }
                });
            if all.arcs.is_empty() {
                ui.weak(if all.opening_stages.is_empty() {
                    "No arc yet: this ruleset has no arcs.".to_owned()
                } else {
                    format!(
                        "No arc yet: a {} {} begins one.",
                        all.opening_stages.join(" or "),
                        all.record.noun
                    )
                });
            }
            if let Some(id) = view.arc
                && let Some(arc) = all.arcs.iter().find(|a| a.id == id && !a.closed)
            {
                ui.separator();
                for (stage, scenarios) in &arc.next {
                    ui.label(format!("Next: {stage} — {}", scenarios.join(", ")));
                }
                if let Some(why) = &arc.next_why {
                    let said = ui.weak(format!("Because {why}"));
                    if let Some(ruling) = &arc.next_ruling {
                        said.on_hover_text(format!("The pack's ruling: {ruling}"));
                    }
                }
                ui.add_enabled_ui(read_only.is_none(), |ui| {
                    let label = ui.label("Reason to close it");
                    ui.text_edit_singleline(&mut view.close_reason)
                        .labelled_by(label.id);
                    if ui
                        .add_enabled(
                            !view.close_reason.trim().is_empty(),
                            egui::Button::new(format!("Close arc {id}")),
                        )
                        .on_disabled_hover_text(match read_only {
                            Some(_) => edit_hint(read_only),
                            None => "Type the reason to close it first".to_owned(),
                        })
                        .clicked()
                    {
                        action = Some(Action::Record(RecordAction::CloseArc(
                            id,
                            view.close_reason.trim().to_owned(),
                        )));
                    }
                });
            }
            ui.separator();
            ui.label(RichText::new("Export").strong());
            let before = view.format;
            ui.horizontal(|ui| {
                for format in <Format as clap::ValueEnum>::value_variants() {
                    ui.radio_value(&mut view.format, *format, format.label());
                }
            });
            if view.format != before {
                view.path = with_format(&view.path, before, view.format);
            }
            let label = ui.label("Export file path");
            ui.add(egui::TextEdit::singleline(&mut view.path).desired_width(220.0))
                .labelled_by(label.id);
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(!view.path.trim().is_empty(), egui::Button::new("Export"))
                    .clicked()
                {
                    let scope = view
                        .arc
                        .map_or("campaign".to_owned(), |a| format!("arc {a}"));
                    // Rendered and written on a worker thread: a decade's
                    // chronicle takes seconds as a PDF.
                    action = Some(Action::Output(OutputAction::WriteExport {
                        path: std::path::PathBuf::from(view.path.trim()),
                        replace: false,
                        format: view.format,
                        campaign: campaign.to_owned(),
                        scope,
                        chronicle: Box::new(chronicle.clone()),
                    }));
                }
                if ui.button("Choose file…").clicked() {
                    action = Some(Action::ChooseFile(
                        crate::ui::base::action::FileField::ChronicleExport,
                    ));
                }
            });
        });
        ui.separator();
        ui.vertical(|ui| {
            let arc_pair = view
                .arc
                .and_then(|id| all.arcs.iter().find(|a| a.id == id))
                .map(|a| a.gangs.clone());
            charts_ui(ui, view, batch, chronicle, resources, arc_pair);
            ui.separator();
            story_ui(ui, view, batch, campaign, chronicle);
        });
    });
    action
}

/// The story, in rows laid out only when in view.
fn story_ui(
    ui: &mut Ui,
    view: &mut ChronicleView,
    batch: Option<BatchId>,
    campaign: &str,
    chronicle: &Chronicle,
) {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let char_width = ui.fonts_mut(|f| f.glyph_width(&font, 'n')).max(1.0);
    // In steps of eight characters, so a resize does not rewrap each frame.
    let columns = ((ui.available_width() / char_width) as usize / 8 * 8).max(24);
    let key = (batch, view.arc, columns);
    if view.story.key != Some(key) {
        let scope = view
            .arc
            .map_or("campaign".to_owned(), |a| format!("arc {a}"));
        view.story.rows = story_rows(
            &crate::export::lines(&Export {
                campaign,
                scope,
                chronicle,
            }),
            columns,
        );
        view.story.key = Some(key);
    }
    let height = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    egui::ScrollArea::vertical()
        .id_salt("story")
        .auto_shrink([false, false])
        .show_rows(ui, height, view.story.rows.len(), |ui, range| {
            for (kind, text) in &view.story.rows[range] {
                let text = match kind {
                    RowKind::Heading => RichText::new(text).strong().underline(),
                    RowKind::Subheading => RichText::new(text).strong(),
                    RowKind::Text => RichText::new(text),
                };
                // Left-aligned, as the document reads.
                ui.add(egui::Label::new(text).truncate());
            }
        });
}

/// The document's lines as rows of at most `columns` characters, a blank
/// row before each heading.
fn story_rows(lines: &[DocLine], columns: usize) -> Vec<(RowKind, String)> {
    let mut rows = Vec::new();
    for line in lines {
        let (kind, text, indent) = match line {
            DocLine::Heading(t) => (RowKind::Heading, t, ""),
            DocLine::Subheading(t) => (RowKind::Subheading, t, ""),
            DocLine::Text(t) => (RowKind::Text, t, ""),
            DocLine::Bullet(t) => (RowKind::Text, t, "  • "),
            DocLine::BulletMore(t) => (RowKind::Text, t, "    "),
        };
        if kind != RowKind::Text && !rows.is_empty() {
            rows.push((RowKind::Text, String::new()));
        }
        let options = textwrap::Options::new(columns)
            .initial_indent(indent)
            .subsequent_indent(if indent.is_empty() { "" } else { "    " });
        for row in textwrap::wrap(text, options) {
            rows.push((kind, row.into_owned()));
        }
    }
    rows
}

/// The resource chart, of the gangs the player chose, and who held each
/// title over the battles.
fn charts_ui(
    ui: &mut Ui,
    view: &mut ChronicleView,
    batch: Option<BatchId>,
    chronicle: &Chronicle,
    resources: &[(String, String)],
    arc_pair: Option<[String; 2]>,
) {
    if chronicle.battles.is_empty() {
        return;
    }
    if view.resource.is_empty()
        && let Some((id, _)) = resources.first()
    {
        view.resource = id.clone();
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(format!("Resources over the {}", chronicle.record.plural())).strong(),
        );
        for (id, label) in resources {
            ui.radio_value(&mut view.resource, id.clone(), label);
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Chart");
        ui.radio_value(
            &mut view.charted,
            Charted::Leaders,
            format!("The {LEADERS} with the most"),
        );
        ui.add_enabled(
            arc_pair.is_some(),
            egui::RadioButton::new(view.charted == Charted::ArcPair, "The arc's pair"),
        )
        .on_disabled_hover_text("Choose an arc on the left first")
        .clicked()
        .then(|| view.charted = Charted::ArcPair);
        ui.radio_value(
            &mut view.charted,
            Charted::Picked,
            format!(
                "{} I pick",
                crate::text::capitalised(&chronicle.words.gangs)
            ),
        );
    });
    let picked = match view.charted {
        Charted::Picked => view.picked.clone(),
        _ => Default::default(),
    };
    let key = (batch, view.arc, view.resource.clone(), view.charted, picked);
    if view.chart.key.as_ref() != Some(&key) {
        view.chart = chart(view, chronicle, arc_pair.as_ref());
        view.chart.key = Some(key);
    }
    ui.horizontal_top(|ui| {
        if view.charted == Charted::Picked {
            ui.vertical(|ui| {
                ui.set_width(180.0);
                gang_picker_ui(ui, view, &chronicle.words.gang);
            });
        }
        let width = ui.available_width();
        resource_plot_ui(ui, &view.resource, &view.chart.lines, width);
    });
    if view.chart.one_record {
        ui.weak(format!(
            "One {} so far: each line starts from the next one",
            chronicle.record.noun
        ));
    }
    // The key sits under the chart, never over its lines.
    ui.horizontal_wrapped(|ui| {
        for (n, (gang, _)) in view.chart.lines.iter().enumerate() {
            ui.label(RichText::new("■").color(series_color(n)));
            ui.label(gang.as_str());
            ui.add_space(8.0);
        }
    });
    if view.chart.lines.is_empty() {
        let words = &chronicle.words;
        ui.weak(match view.charted {
            Charted::Picked => format!("Pick {} from the list to chart them.", words.gangs),
            _ => format!("No {} has any of this yet.", words.gang),
        });
    }
    title_runs_ui(ui, chronicle, &view.chart.titles);
}

/// What the charts show for the choices of `view`: the gangs with a line
/// of its resource, those charted with their points, and the titles'
/// runs.
fn chart(view: &ChronicleView, chronicle: &Chronicle, arc_pair: Option<&[String; 2]>) -> Chart {
    let series: Vec<(&String, &Vec<(i64, i64)>)> = chronicle
        .resource_series
        .iter()
        .filter(|((_, r), _)| *r == view.resource)
        .map(|((g, _), points)| (g, points))
        .collect();
    let charted: Vec<&String> = match (view.charted, arc_pair) {
        (Charted::ArcPair, Some(pair)) => series
            .iter()
            .map(|(g, _)| *g)
            .filter(|g| pair.contains(g))
            .collect(),
        (Charted::Picked, _) => series
            .iter()
            .map(|(g, _)| *g)
            .filter(|g| view.picked.contains(*g))
            .collect(),
        _ => leaders(&series),
    };
    let mut records = series
        .iter()
        .flat_map(|(_, points)| points.iter().map(|(b, _)| *b));
    let one_record = records
        .next()
        .is_some_and(|only| records.all(|b| b == only));
    // In the order of the series, as their colours are given.
    let lines = series
        .iter()
        .filter(|(g, _)| charted.contains(g))
        .map(|(g, points)| ((*g).clone(), (*points).clone()))
        .collect();
    let titles = chronicle
        .title_series
        .iter()
        .map(|(title, holders)| {
            let runs: Vec<String> = title_runs(holders)
                .into_iter()
                .map(|(first, last, holder)| {
                    let holder = holder.unwrap_or("nobody");
                    if first == last {
                        format!("#{first}: {holder}")
                    } else {
                        format!("#{first}–#{last}: {holder}")
                    }
                })
                .collect();
            (title.clone(), runs.join(" · "))
        })
        .collect();
    Chart {
        key: None,
        gangs: series.iter().map(|(g, _)| (*g).clone()).collect(),
        lines,
        one_record,
        titles,
    }
}

/// The chart of one resource: a line for each charted gang, fitted to the
/// chart's columns, its points marked while there are few.
fn resource_plot_ui(ui: &mut Ui, resource: &str, lines: &[(String, Vec<(i64, i64)>)], width: f32) {
    // As many points as the chart has pixels across, at most.
    let most = (width as usize).max(2);
    // However few the records, the points sit inside the chart, above
    // its zero line, not on its edges.
    let (first, last, top) = lines
        .iter()
        .flat_map(|(_, points)| points.iter())
        .fold((i64::MAX, i64::MIN, 0), |(f, l, t), (b, v)| {
            (f.min(*b), l.max(*b), t.max(*v))
        });
    let mut plot = Plot::new(("resources", resource.to_owned()))
        .height(180.0)
        .width(width)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(top as f64 + 1.0);
    if first <= last {
        plot = plot
            .include_x(first as f64 - 0.5)
            .include_x(last as f64 + 0.5);
    }
    plot.show(ui, |plot| {
        for (n, (gang, points)) in lines.iter().enumerate() {
            let ChartLines { line, band } = chart_lines(points, most, (first, last));
            let color = series_color(n);
            // A line of one point does not show: mark the points
            // while there are few.
            if line.len() <= 30 {
                plot.points(
                    Points::new(gang.as_str(), PlotPoints::from(line.clone()))
                        .color(color)
                        .radius(3.0),
                );
            }
            for edge in band.into_iter().flatten() {
                plot.line(
                    Line::new(gang.as_str(), PlotPoints::from(edge))
                        .color(color.gamma_multiply(0.35))
                        .allow_band(false),
                );
            }
            // The plot's own band joins a step between two columns
            // as a filled wedge; the columns are fitted above.
            plot.line(
                Line::new(gang.as_str(), PlotPoints::from(line))
                    .color(color)
                    .allow_band(false),
            );
        }
    });
}

/// The colour of the chart's `n`th line: hues a golden angle apart, so
/// neighbours differ however many lines there are.
fn series_color(n: usize) -> egui::Color32 {
    let hue = (n as f32 * 0.618_034).fract();
    egui::ecolor::Hsva::new(hue, 0.75, 0.8, 1.0).into()
}

/// The gangs with the most of the resource after the last battle.
fn leaders<'a>(series: &[(&'a String, &Vec<(i64, i64)>)]) -> Vec<&'a String> {
    let mut last: Vec<(&String, i64)> = series
        .iter()
        .map(|(g, p)| (*g, p.last().map_or(0, |(_, v)| *v)))
        .collect();
    last.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    last.into_iter().take(LEADERS).map(|(g, _)| g).collect()
}

/// A searchable list of the gangs to tick for the chart; only the rows in
/// view are laid out.
fn gang_picker_ui(ui: &mut Ui, view: &mut ChronicleView, gang: &str) {
    let label = ui.label(format!("Find a {gang} to chart"));
    ui.text_edit_singleline(&mut view.find)
        .labelled_by(label.id);
    let found: Vec<String> = view
        .chart
        .gangs
        .iter()
        .filter(|g| view.find.trim().is_empty() || crate::text::contains(g, &view.find))
        .cloned()
        .collect();
    let height = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical()
        .id_salt("chart-gangs")
        .max_height(150.0)
        .auto_shrink([false, true])
        .show_rows(ui, height, found.len(), |ui, range| {
            for gang in &found[range] {
                let mut on = view.picked.contains(gang);
                if ui.checkbox(&mut on, gang.as_str()).changed() {
                    if on {
                        view.picked.insert(gang.clone());
                    } else {
                        view.picked.remove(gang);
                    }
                }
            }
        });
}

/// A resource's line across the records, fitted to the chart's `most`
/// columns over the records `span` (first, last): every point where no two
/// share a column; else, per column, the value after its last record (the
/// line), with the column's highest and lowest as a faint band's edges.
/// Each runs left to right a column at a time: many records squeezed into
/// a pixel would otherwise zigzag up and down it, and a line that doubles
/// back draws as wedges.
struct ChartLines {
    line: Vec<[f64; 2]>,
    band: Option<[Vec<[f64; 2]>; 2]>,
}

fn chart_lines(points: &[(i64, i64)], most: usize, span: (i64, i64)) -> ChartLines {
    let (first, last) = span;
    let records = (last - first).max(0) as f64 + 1.0;
    let columns = most.max(1) as f64;
    let column = |b: i64| (((b - first) as f64 / records) * columns).floor() as i64;
    let mut line: Vec<[f64; 2]> = Vec::with_capacity(points.len().min(most + 1));
    let (mut high, mut low) = (Vec::new(), Vec::new());
    let mut shared = false;
    let mut at: Option<i64> = None;
    for &(b, v) in points {
        let (x, y) = (b as f64, v as f64);
        if at == Some(column(b)) {
            // The same column: the line moves to the later record, the
            // band widens.
            shared = true;
            if let (Some(p), Some(h), Some(l)) = (line.last_mut(), high.last_mut(), low.last_mut())
            {
                *p = [x, y];
                let [_, top]: [f64; 2] = *h;
                let [_, bottom]: [f64; 2] = *l;
                *h = [x, top.max(y)];
                *l = [x, bottom.min(y)];
            }
            continue;
        }
        at = Some(column(b));
        line.push([x, y]);
        high.push([x, y]);
        low.push([x, y]);
    }
    ChartLines {
        line,
        band: shared.then_some([high, low]),
    }
}

/// Who held each title, as stretches of battles ("#3–#40: Holder"),
/// not a column per battle.
/// `titles`: each title with its runs, as [`chart`] words them.
fn title_runs_ui(ui: &mut Ui, chronicle: &Chronicle, titles: &[(String, String)]) {
    if titles.is_empty() {
        return;
    }
    ui.label(RichText::new(format!("Titles over the {}", chronicle.record.plural())).strong());
    egui::Grid::new("titles-over-time")
        .striped(true)
        .num_columns(2)
        .show(ui, |ui| {
            for (title, runs) in titles {
                ui.label(title);
                ui.add(egui::Label::new(runs.as_str()).wrap());
                ui.end_row();
            }
        });
}

/// A title's holders after each battle as (first battle, last battle,
/// holder) stretches.
fn title_runs(holders: &[(i64, Option<String>)]) -> Vec<(i64, i64, Option<&str>)> {
    let mut runs: Vec<(i64, i64, Option<&str>)> = Vec::new();
    for (battle, holder) in holders {
        match runs.last_mut() {
            Some(run) if run.2 == holder.as_deref() => run.1 = *battle,
            _ => runs.push((*battle, *battle, holder.as_deref())),
        }
    }
    runs
}

/// `path` with the extension of `to` where it had `from`'s: the file
/// offered follows the format chosen.
fn with_format(path: &str, from: Format, to: Format) -> String {
    match path.strip_suffix(&format!(".{}", from.extension())) {
        Some(stem) => format!("{stem}.{}", to.extension()),
        None => path.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_lines_keep_few_points_and_the_peaks_of_many_left_to_right() {
        let few = [(1, 5), (2, 7)];
        let lines = chart_lines(&few, 100, (1, 2));
        assert_eq!(lines.line, vec![[1.0, 5.0], [2.0, 7.0]]);
        assert!(lines.band.is_none());
        let many: Vec<(i64, i64)> = (0..10_000)
            .map(|b| (b, if b == 4321 { 999 } else { b % 7 }))
            .collect();
        let lines = chart_lines(&many, 400, (0, 9_999));
        assert!(lines.line.len() <= 400, "{} points", lines.line.len());
        let [high, low] = lines.band.expect("a band");
        assert!(high.iter().any(|p| p[1] == 999.0), "the peak survives");
        assert!(low.iter().all(|p| p[1] == 0.0));
        assert_eq!(lines.line.last(), Some(&[9999.0, (9999 % 7) as f64]));
        // Never back: each line runs left to right.
        for run in [&lines.line, &high, &low] {
            assert!(run.windows(2).all(|w| w[0][0] < w[1][0]));
        }
        // Few points of one gang across many records: squeezed by the
        // records, not by their own count.
        let sparse = [(405, 2), (406, 6), (407, 5), (3000, 9)];
        let lines = chart_lines(&sparse, 1000, (0, 4_999));
        assert_eq!(lines.line, vec![[407.0, 5.0], [3000.0, 9.0]]);
    }

    #[test]
    fn title_runs_join_battles_with_one_holder() {
        let holders = [
            (1, None),
            (2, Some("A".to_owned())),
            (3, Some("A".to_owned())),
            (4, Some("B".to_owned())),
        ];
        assert_eq!(
            title_runs(&holders),
            vec![(1, 1, None), (2, 3, Some("A")), (4, 4, Some("B"))]
        );
    }

    #[test]
    fn story_rows_wrap_to_the_width_and_space_headings() {
        let lines = [
            DocLine::Heading("Battle 1".into()),
            DocLine::Text("one two three four five six".into()),
            DocLine::Bullet("seven eight".into()),
        ];
        let rows = story_rows(&lines, 12);
        assert_eq!(rows[0], (RowKind::Heading, "Battle 1".to_owned()));
        assert!(
            rows.iter().all(|(_, r)| r.chars().count() <= 12),
            "{rows:?}"
        );
        let tail: Vec<&str> = rows[rows.len() - 2..]
            .iter()
            .map(|r| r.1.as_str())
            .collect();
        assert_eq!(tail, ["  • seven", "    eight"]);
    }
}
