//! The critical-difference diagram (Demšar 2006, Fig. 1): the algorithms' average ranks on one
//! axis, best on the left, each named at the end of a leader line; the Nemenyi critical
//! difference as a bar; algorithms that no test separates joined by a thick line.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::compare::{Ranks, cliques};
use super::error::ReportError;
use super::text::GlyphBackend;

const FAMILY: &str = "sans-serif";
const LABEL_SIZE: f64 = 14.0;
const ROW: i32 = 26;
/// The narrowest image (`report.html`'s text column, which shows it at its own size), and the
/// narrowest and widest margins on each side of the axis.
const MIN_WIDTH: i32 = super::html::CONTENT_WIDTH as i32;
const MIN_MARGIN: i32 = 250;
const MAX_MARGIN: i32 = 600;
/// The axis' length when long labels widen the margins.
const AXIS: i32 = 400;
/// What a margin holds besides its label: the leader line's end (20 px from the axis), the
/// text's gap and a border.
const LABEL_PADDING: i32 = 40;

/// Where the axis lies, and the labels as drawn: the margins grow with the labels up to
/// [`MAX_MARGIN`], beyond which a label's name is cut with "…" (its rank always shown).
struct Layout {
    width: i32,
    left: i32,
    right: i32,
    labels: Vec<String>,
}

impl Layout {
    fn fit(ranks: &[(String, f64)]) -> Result<Self, String> {
        let font = (FAMILY, LABEL_SIZE).into_font();
        let width_of = |text: &str| -> Result<i32, String> {
            let (w, _) = font.box_size(text).map_err(|e| e.to_string())?;
            Ok(w as i32)
        };
        let room = MAX_MARGIN - LABEL_PADDING;
        let labels = ranks
            .iter()
            .map(|(name, rank)| {
                let rank = format!(" ({rank:.2})");
                let whole = format!("{name}{rank}");
                if width_of(&whole)? <= room {
                    return Ok(whole);
                }
                let chars: Vec<char> = name.chars().collect();
                for keep in (1..chars.len()).rev() {
                    let cut: String = chars[..keep].iter().collect();
                    let label = format!("{cut}…{rank}");
                    if width_of(&label)? <= room {
                        return Ok(label);
                    }
                }
                Ok(format!("…{rank}"))
            })
            .collect::<Result<Vec<String>, String>>()?;
        let widest = |labels: &[String]| -> Result<i32, String> {
            labels
                .iter()
                .try_fold(0, |widest, label| Ok(widest.max(width_of(label)?)))
        };
        let half = labels.len().div_ceil(2);
        let left = (widest(&labels[..half])? + LABEL_PADDING).max(MIN_MARGIN);
        let right = (widest(&labels[half..])? + LABEL_PADDING).max(MIN_MARGIN);
        let width = (left + AXIS + right).max(MIN_WIDTH);
        Ok(Layout {
            width,
            left,
            right: width - right,
            labels,
        })
    }
}

/// Draws `ranks` into `svg` and `png`.
pub(crate) fn draw(ranks: &Ranks, svg: &Path, png: &Path) -> Result<(), ReportError> {
    let k = ranks.ranks.len();
    let groups = ranks
        .critical_difference
        .map_or_else(Vec::new, |cd| cliques(&ranks.ranks, cd));
    let height = (170 + 7 * groups.len() as i32 + ROW * k.div_ceil(2) as i32) as u32;
    let plot_err = |path: &Path| {
        let path = path.to_path_buf();
        move |message: String| ReportError::Plot { path, message }
    };
    super::plot::ensure_font().map_err(plot_err(svg))?;
    let layout = Layout::fit(&ranks.ranks).map_err(plot_err(svg))?;
    let size = (layout.width as u32, height);
    {
        let root = SVGBackend::new(svg, size).into_drawing_area();
        draw_on(&root, ranks, &groups, &layout).map_err(plot_err(svg))?;
        root.present().map_err(|e| plot_err(svg)(e.to_string()))?;
    }
    {
        let backend = GlyphBackend::new(BitMapBackend::new(png, size));
        let root = backend.into_drawing_area();
        draw_on(&root, ranks, &groups, &layout).map_err(plot_err(png))?;
        root.present().map_err(|e| plot_err(png)(e.to_string()))?;
    }
    Ok(())
}

fn draw_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    ranks: &Ranks,
    groups: &[(usize, usize)],
    layout: &Layout,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let k = ranks.ranks.len();
    let (left, right, axis_y) = (layout.left, layout.right, 100);
    let x =
        |rank: f64| left + ((rank - 1.0) / (k.max(2) - 1) as f64 * (right - left) as f64) as i32;
    let text = |size: f64| (FAMILY, size).into_font().color(&BLACK);
    let centred = |size: f64| {
        text(size).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Bottom,
        ))
    };
    let title = format!(
        "average rank over {} problem{} (lower is better)",
        ranks.problems.len(),
        if ranks.problems.len() == 1 { "" } else { "s" }
    );
    root.draw(&Text::new(title, (layout.width / 2, 24), centred(18.0)))
        .map_err(e)?;
    // The axis with a tick per integer rank.
    let black = BLACK.stroke_width(2);
    root.draw(&PathElement::new(
        vec![(x(1.0), axis_y), (x(k as f64), axis_y)],
        black,
    ))
    .map_err(e)?;
    for r in 1..=k {
        let at = x(r as f64);
        root.draw(&PathElement::new(
            vec![(at, axis_y - 6), (at, axis_y)],
            black,
        ))
        .map_err(e)?;
        root.draw(&Text::new(r.to_string(), (at, axis_y - 8), centred(14.0)))
            .map_err(e)?;
    }
    if let Some(cd) = ranks.critical_difference {
        let (from, to) = (x(1.0), x(1.0 + cd));
        root.draw(&PathElement::new(
            vec![(from, 62), (to, 62)],
            BLACK.stroke_width(3),
        ))
        .map_err(e)?;
        root.draw(&Text::new(
            format!("CD = {cd:.2} (Nemenyi, α = 0.05)"),
            ((from + to) / 2, 54),
            centred(13.0),
        ))
        .map_err(e)?;
        for (level, &(i, j)) in groups.iter().enumerate() {
            let y = axis_y + 10 + 7 * level as i32;
            let (a, b) = (x(ranks.ranks[i].1) - 4, x(ranks.ranks[j].1) + 4);
            root.draw(&PathElement::new(
                vec![(a, y), (b, y)],
                BLACK.stroke_width(4),
            ))
            .map_err(e)?;
        }
    }
    // Leader lines: the better half to the left edge, the rest to the right.
    let half = k.div_ceil(2);
    let first_row = axis_y + 40 + 7 * groups.len() as i32;
    for (index, ((_, rank), label)) in ranks.ranks.iter().zip(&layout.labels).enumerate() {
        let at = x(*rank);
        let (row, to_left) = if index < half {
            (index, true)
        } else {
            (k - 1 - index, false)
        };
        let y = first_row + ROW * row as i32;
        let end = if to_left { left - 20 } else { right + 20 };
        root.draw(&PathElement::new(
            vec![(at, axis_y), (at, y), (end, y)],
            BLACK.stroke_width(1),
        ))
        .map_err(e)?;
        let style = text(LABEL_SIZE).pos(plotters::style::text_anchor::Pos::new(
            if to_left {
                plotters::style::text_anchor::HPos::Right
            } else {
                plotters::style::text_anchor::HPos::Left
            },
            plotters::style::text_anchor::VPos::Center,
        ));
        let anchor = if to_left { end - 6 } else { end + 6 };
        root.draw(&Text::new(label.as_str(), (anchor, y), style))
            .map_err(e)?;
    }
    Ok(())
}
