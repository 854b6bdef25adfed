//! Plots in objective space of a problem of several objectives ([`Fronts`]), drawn with plotters
//! into SVG and PNG like the line plots: the final non-dominated set of each algorithm's median
//! run, and in two objectives the attainment surfaces of each algorithm's runs as staircases.
//! Each axis is one objective in its own sense (a maximised one is negated back from the
//! minimisation form the model keeps); the true front's sample is drawn in grey and the
//! reference point as a black cross. Three or four objectives are shown as the grid of their
//! pairwise projections, more as the f1–f2 projection alone (a grid of ten or more panels is
//! too small to read).

use std::ops::Range;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::error::ReportError;
use super::final_front::flip;
use super::fronts::Fronts;
use super::plot::{
    FAMILY, LegendLayout, PALETTE, Series, ensure_font, fit_font_size, linear_tick_label,
    tick_label,
};
use super::text::GlyphBackend;
use bosweep_problems::Sense;

/// The grey of the true front's sample.
const TRUE_FRONT: RGBColor = RGBColor(150, 150, 150);

/// The most objectives shown as a grid of every pairwise projection (six panels).
const MOST_FOR_GRID: usize = 4;

/// The pairs of objectives shown, one panel each: `(0, 1)` for two, every pair `i < j` for
/// three or four, `(0, 1)` alone above.
pub(crate) fn panels(m: usize) -> Vec<(usize, usize)> {
    if m <= 2 || m > MOST_FOR_GRID {
        return vec![(0, 1)];
    }
    (0..m)
        .flat_map(|i| (i + 1..m).map(move |j| (i, j)))
        .collect()
}

/// An objective's axis label: `f1 (minimised)`.
pub(crate) fn axis_label(k: usize, sense: Sense) -> String {
    let sense = match sense {
        Sense::Minimize => "minimised",
        Sense::Maximize => "maximised",
    };
    format!("f{} ({sense})", k + 1)
}

/// Which figure to draw.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Figure {
    MedianFronts,
    Attainment,
}

/// Draws the median runs' final sets into `svg` and `png`.
pub(crate) fn draw_fronts(
    fronts: &Fronts,
    svg: &Path,
    png: &Path,
    size: (u32, u32),
) -> Result<(), ReportError> {
    draw(fronts, Figure::MedianFronts, svg, png, size)
}

/// Draws the attainment surfaces (two objectives) into `svg` and `png`.
pub(crate) fn draw_attainment(
    fronts: &Fronts,
    svg: &Path,
    png: &Path,
    size: (u32, u32),
) -> Result<(), ReportError> {
    draw(fronts, Figure::Attainment, svg, png, size)
}

fn draw(
    fronts: &Fronts,
    figure: Figure,
    svg: &Path,
    png: &Path,
    size: (u32, u32),
) -> Result<(), ReportError> {
    let plot_err = |path: &Path| {
        let path = path.to_path_buf();
        move |message: String| ReportError::Plot { path, message }
    };
    ensure_font().map_err(plot_err(svg))?;
    {
        let root = SVGBackend::new(svg, size).into_drawing_area();
        draw_on(&root, fronts, figure, size).map_err(plot_err(svg))?;
        root.present().map_err(|e| plot_err(svg)(e.to_string()))?;
    }
    {
        let backend = GlyphBackend::new(BitMapBackend::new(png, size));
        let root = backend.into_drawing_area();
        draw_on(&root, fronts, figure, size).map_err(plot_err(png))?;
        root.present().map_err(|e| plot_err(png)(e.to_string()))?;
    }
    Ok(())
}

/// The figure's title.
fn title(fronts: &Fronts, figure: Figure) -> String {
    let problem = &fronts.problem;
    match figure {
        Figure::MedianFronts if fronts.m() > MOST_FOR_GRID => format!(
            "{problem}: final non-dominated set of each algorithm's median run (by final \
             hypervolume), f1–f2 projection"
        ),
        Figure::MedianFronts if fronts.m() > 2 => format!(
            "{problem}: final non-dominated set of each algorithm's median run (by final \
             hypervolume), pairwise projections"
        ),
        Figure::MedianFronts => format!(
            "{problem}: final non-dominated set of each algorithm's median run (by final \
             hypervolume)"
        ),
        Figure::Attainment => format!(
            "{problem}: median attainment surface of each algorithm's runs (thin: attained by \
             one run, by all)"
        ),
    }
}

fn draw_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fronts: &Fronts,
    figure: Figure,
    (width, height): (u32, u32),
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let title = title(fronts, figure);
    let title_size = fit_font_size(root, &title, 20.0, 11.0, width.saturating_sub(40))?;
    let area = root
        .titled(&title, (FAMILY, title_size).into_font().color(&BLACK))
        .map_err(e)?;

    // The legend names the algorithms drawn; a note under it the grey and the cross.
    let legend_series: Vec<Series> = match figure {
        Figure::MedianFronts => (fronts.medians.iter())
            .map(|r| legend_entry(&r.algorithm, r.color))
            .collect(),
        Figure::Attainment => (fronts.attainment.iter())
            .map(|a| legend_entry(&a.algorithm, a.color))
            .collect(),
    };
    let legend = LegendLayout::new(root, &legend_series, width, height)?;
    let note_height = 24;
    let (_, area_height) = area.dim_in_pixel();
    let (charts, below) =
        area.split_vertically(area_height.saturating_sub(legend.height + note_height));
    let (legend_area, note_area) = below.split_vertically(legend.height);

    let pairs = panels(fronts.m());
    let columns = pairs.len().min(3);
    let rows = pairs.len().div_ceil(columns);
    for (panel, &(i, j)) in charts.split_evenly((rows, columns)).iter().zip(&pairs) {
        draw_panel(panel, fronts, figure, (i, j))?;
    }
    legend.draw(&legend_area, &legend_series)?;
    let mut note = Vec::new();
    if fronts.true_front.is_some() {
        note.push("grey dots: the true front (a sample)".to_owned());
    }
    if let Some(r) = &fronts.reference_point {
        note.push(if fronts.reference_shown {
            "black ×: the reference point".to_owned()
        } else {
            format!(
                "the reference point {} is outside the view",
                reference_text(r, &fronts.senses)
            )
        });
    }
    if !note.is_empty() {
        let (w, h) = note_area.dim_in_pixel();
        let style = (FAMILY, 13.0)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Center));
        note_area
            .draw(&Text::new(
                note.join(" · "),
                (w as i32 / 2, h as i32 / 2),
                style,
            ))
            .map_err(e)?;
    }
    Ok(())
}

/// The reference point in each objective's own sense, as `(11, 11)`.
pub(crate) fn reference_text(reference: &[f64], senses: &[Sense]) -> String {
    let values: Vec<String> = (reference.iter().zip(senses))
        .map(|(v, s)| tick_label(flip(*v, *s)))
        .collect();
    format!("({})", values.join(", "))
}

fn legend_entry(label: &str, color: usize) -> Series {
    Series {
        label: label.to_owned(),
        color,
        points: Vec::new(),
    }
}

/// `[lo, hi]` of the values, padded by 5 % of the span (by 1 where all are equal; `0..1`
/// where there are none).
fn padded(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !lo.is_finite() || !hi.is_finite() {
        return 0.0..1.0;
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 1.0 };
    (lo - pad)..(hi + pad)
}

/// The displayed range of an objective whose minimisation-form range is `range`.
fn shown(range: &Range<f64>, sense: Sense) -> Range<f64> {
    match sense {
        Sense::Minimize => range.clone(),
        Sense::Maximize => -range.end..-range.start,
    }
}

/// The path of a staircase through `corners` (minimisation form, `f1` ascending): from the top
/// edge down to the first corner, along each step, out to the right edge, as the boundary of
/// the region the corners dominate runs within the panel (`top`, `right`: the panel's worst
/// values in minimisation form).
fn staircase(corners: &[[f64; 2]], top: f64, right: f64) -> Vec<(f64, f64)> {
    let Some(first) = corners.first() else {
        return Vec::new();
    };
    let mut path = vec![(first[0], top.max(first[1])), (first[0], first[1])];
    for pair in corners.windows(2) {
        path.push((pair[1][0], pair[0][1]));
        path.push((pair[1][0], pair[1][1]));
    }
    let last = corners.last().unwrap_or(first);
    path.push((right.max(last[0]), last[1]));
    path
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fronts: &Fronts,
    figure: Figure,
    (i, j): (usize, usize),
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    // Every value the panel draws, in minimisation form, sets its ranges.
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let mut take = |p: &[f64]| {
        xs.push(p[i]);
        ys.push(p[j]);
    };
    fronts.true_front.iter().flatten().for_each(|p| take(p));
    let reference = fronts
        .reference_point
        .as_ref()
        .filter(|_| fronts.reference_shown);
    reference.iter().for_each(|p| take(p));
    match figure {
        Figure::MedianFronts => (fronts.medians.iter())
            .flat_map(|r| &r.points)
            .for_each(|p| take(p)),
        Figure::Attainment => (fronts.attainment.iter())
            .flat_map(|a| a.best.iter().chain(&a.median).chain(&a.worst))
            .for_each(|p| take(p)),
    }
    let (x_min, y_min) = (padded(xs.into_iter()), padded(ys.into_iter()));
    let (sx, sy) = (fronts.senses[i], fronts.senses[j]);
    let to_shown = |(x, y): (f64, f64)| (flip(x, sx), flip(y, sy));
    let (x_range, y_range) = (shown(&x_min, sx), shown(&y_min, sy));
    let (x_span, y_span) = (x_range.end - x_range.start, y_range.end - y_range.start);

    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(x_range, y_range)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc(axis_label(i, sx))
        .y_desc(axis_label(j, sy))
        .axis_desc_style((FAMILY, 15))
        .label_style((FAMILY, 12))
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&|x| linear_tick_label(*x, x_span))
        .y_label_formatter(&|y| linear_tick_label(*y, y_span))
        .max_light_lines(1)
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(e)?;

    if let Some(front) = &fronts.true_front {
        chart
            .draw_series(
                (front.iter()).map(|p| Circle::new(to_shown((p[i], p[j])), 1, TRUE_FRONT.filled())),
            )
            .map_err(e)?;
    }
    match figure {
        Figure::MedianFronts => {
            for run in &fronts.medians {
                let color = PALETTE[run.color % PALETTE.len()];
                chart
                    .draw_series(
                        run.points
                            .iter()
                            .map(|p| Circle::new(to_shown((p[i], p[j])), 4, color.filled())),
                    )
                    .map_err(e)?;
            }
        }
        Figure::Attainment => {
            for a in &fronts.attainment {
                let color = PALETTE[a.color % PALETTE.len()];
                let path = |corners: &[[f64; 2]]| -> Vec<(f64, f64)> {
                    (staircase(corners, y_min.end, x_min.end).into_iter())
                        .map(to_shown)
                        .collect()
                };
                for thin in [&a.best, &a.worst] {
                    chart
                        .draw_series(LineSeries::new(path(thin), color.mix(0.5).stroke_width(1)))
                        .map_err(e)?;
                }
                chart
                    .draw_series(LineSeries::new(path(&a.median), color.stroke_width(3)))
                    .map_err(e)?;
            }
        }
    }
    if let Some(r) = reference {
        chart
            .draw_series(std::iter::once(Cross::new(
                to_shown((r[i], r[j])),
                7,
                BLACK.stroke_width(2),
            )))
            .map_err(e)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_are_every_pair_up_to_four_objectives() {
        assert_eq!(panels(2), [(0, 1)]);
        assert_eq!(panels(3), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(panels(4).len(), 6);
        assert_eq!(panels(5), [(0, 1)]);
    }

    #[test]
    fn a_staircase_runs_from_the_top_edge_along_its_corners_to_the_right_edge() {
        let path = staircase(&[[1.0, 3.0], [2.0, 2.0], [4.0, 0.5]], 10.0, 8.0);
        assert_eq!(
            path,
            [
                (1.0, 10.0),
                (1.0, 3.0),
                (2.0, 3.0),
                (2.0, 2.0),
                (4.0, 2.0),
                (4.0, 0.5),
                (8.0, 0.5)
            ]
        );
        assert!(staircase(&[], 1.0, 1.0).is_empty());
    }

    #[test]
    fn axis_labels_name_the_objective_and_its_sense() {
        assert_eq!(axis_label(0, Sense::Minimize), "f1 (minimised)");
        assert_eq!(axis_label(2, Sense::Maximize), "f3 (maximised)");
        assert_eq!(shown(&(1.0..3.0), Sense::Maximize), -3.0..-1.0);
        assert_eq!(
            reference_text(&[11.0, 1.0], &[Sense::Minimize, Sense::Maximize]),
            "(11, -1)"
        );
    }
}
