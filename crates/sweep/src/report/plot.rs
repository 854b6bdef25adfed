//! Line plots with standard-error bands, drawn with plotters into SVG and PNG.
//!
//! Text is drawn with DejaVu Sans, embedded in the binary (`assets/DejaVuSans.ttf`, licence in
//! `assets/DejaVuSans-LICENSE.txt`) and registered with plotters' `ab_glyph` font table, so the
//! PNGs need no system fonts ([`super::text`] draws the PNGs' text). The legend sits below the
//! plotting area, never over the curves.

use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, register_font};

use super::curves::CurvePoint;
use super::error::ReportError;
use super::text::{FONT, GlyphBackend};

pub(crate) const FAMILY: &str = "sans-serif";

/// Registers the embedded font once; plotters looks fonts up by family name.
pub(crate) fn ensure_font() -> Result<(), String> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok {
        Ok(())
    } else {
        Err("the embedded DejaVu Sans font could not be loaded".into())
    }
}

/// Colour-blind-friendly qualitative palette (matplotlib's tab10).
pub(crate) const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// One curve: a legend label, a palette index and its points, ascending in `x`.
pub(crate) struct Series {
    pub label: String,
    /// Index into the palette (the algorithm's position in the sweep, so that an algorithm
    /// keeps its colour in every plot).
    pub color: usize,
    pub points: Vec<CurvePoint>,
}

pub(crate) struct PlotSpec<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    /// The x values are counts (evaluations): ticks at whole numbers only.
    pub x_counts: bool,
    pub y_label: &'a str,
    /// Series with no points are listed in the legend but draw nothing.
    pub series: &'a [Series],
    /// Logarithmic y axis (every mean must then be positive).
    pub log_y: bool,
    /// A fixed linear y axis instead of one fitted to the data (a fraction's 0 to 1).
    pub fixed_y: Option<(f64, f64)>,
    pub width: u32,
    pub height: u32,
}

/// Draws `spec` into `svg` and `png`.
pub(crate) fn draw(spec: &PlotSpec<'_>, svg: &Path, png: &Path) -> Result<(), ReportError> {
    let plot_err = |path: &Path| {
        let path = path.to_path_buf();
        move |message: String| ReportError::Plot { path, message }
    };
    ensure_font().map_err(plot_err(svg))?;
    {
        let root = SVGBackend::new(svg, (spec.width, spec.height)).into_drawing_area();
        draw_on(&root, spec).map_err(plot_err(svg))?;
        root.present().map_err(|e| plot_err(svg)(e.to_string()))?;
    }
    {
        let backend = GlyphBackend::new(BitMapBackend::new(png, (spec.width, spec.height)));
        let root = backend.into_drawing_area();
        draw_on(&root, spec).map_err(plot_err(png))?;
        root.present().map_err(|e| plot_err(png)(e.to_string()))?;
    }
    Ok(())
}

/// Band limits of a point: mean ± standard error (the mean alone where there is none).
fn band(p: &CurvePoint) -> (f64, f64) {
    let se = p.se.unwrap_or(0.0);
    (p.mean - se, p.mean + se)
}

fn draw_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &PlotSpec<'_>,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;

    // Title, shrunk to fit the width.
    let title_size = fit_font_size(root, spec.title, 22.0, 12.0, spec.width.saturating_sub(40))?;
    let area = root
        .titled(spec.title, (FAMILY, title_size).into_font().color(&BLACK))
        .map_err(e)?;

    // Legend below the chart, in as many columns as fit.
    let legend = LegendLayout::new(root, spec.series, spec.width, spec.height)?;
    let (_, area_height) = area.dim_in_pixel();
    let (chart_area, legend_area) =
        area.split_vertically(area_height.saturating_sub(legend.height));

    let x_range = x_range(spec.series);
    if let Some((low, high)) = spec.fixed_y {
        draw_chart(&chart_area, spec, x_range, low..high)?;
    } else if spec.log_y {
        let y = log_y_range(spec.series);
        draw_chart(&chart_area, spec, x_range, y.log_scale())?;
    } else {
        let y = linear_y_range(spec.series);
        draw_chart(&chart_area, spec, x_range, y)?;
    }
    legend.draw(&legend_area, spec.series)
}

/// Where the legend's entries go: a grid of equal columns, centred, below the chart.
pub(crate) struct LegendLayout {
    font_size: f64,
    columns: usize,
    column_width: u32,
    /// Room for a label's text.
    text_room: u32,
    row: u32,
    /// Total height, margins included.
    pub height: u32,
}

const SWATCH: u32 = 26;
const PAD: u32 = 10;

impl LegendLayout {
    /// Columns as wide as the widest label where they fit; more, narrower columns (labels
    /// shrunk, then cut with "…") where the legend would otherwise take more than 30 % of the
    /// height.
    pub(crate) fn new<DB: DrawingBackend>(
        area: &DrawingArea<DB, Shift>,
        series: &[Series],
        width: u32,
        height: u32,
    ) -> Result<Self, String> {
        let font_size = 14.0;
        let widest = series
            .iter()
            .map(|s| text_width(area, &s.label, font_size))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .max()
            .unwrap_or(0);
        let available = width.saturating_sub(4 * PAD).max(100);
        let entry = |text: u32| PAD + SWATCH + PAD / 2 + text + 2 * PAD;
        let row = (font_size * 1.6).round() as u32;
        let n = series.len().max(1);
        let natural_width = entry(widest).min(available);
        let natural = ((available / natural_width) as usize).clamp(1, n);
        let max_rows = ((height * 3 / 10).saturating_sub(2 * PAD) / row).max(1) as usize;
        let columns = natural.max(n.div_ceil(max_rows)).min(n);
        let column_width = if columns > natural {
            available / columns as u32
        } else {
            natural_width
        };
        let rows = n.div_ceil(columns) as u32;
        Ok(Self {
            font_size,
            columns,
            column_width,
            text_room: column_width.saturating_sub(entry(0)).max(20),
            row,
            height: rows * row + 2 * PAD,
        })
    }

    pub(crate) fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        series: &[Series],
    ) -> Result<(), String> {
        let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        if series.is_empty() {
            return Ok(());
        }
        let (w, _) = area.dim_in_pixel();
        let rows = series.len().div_ceil(self.columns) as i32;
        let block = (self.columns as u32 * self.column_width) as i32;
        let left = (w as i32 - block) / 2;
        let top = 0;
        let (row, pad, swatch) = (self.row as i32, PAD as i32, SWATCH as i32);
        area.draw(&Rectangle::new(
            [(left, top), (left + block, top + rows * row + pad)],
            ShapeStyle::from(&RGBColor(170, 170, 170)).stroke_width(1),
        ))
        .map_err(e)?;
        for (i, s) in series.iter().enumerate() {
            let color = PALETTE[s.color % PALETTE.len()];
            let (r, c) = ((i / self.columns) as i32, (i % self.columns) as i32);
            let x = left + c * self.column_width as i32 + pad;
            let mid = top + pad / 2 + r * row + row / 2;
            area.draw(&PathElement::new(
                vec![(x, mid), (x + swatch, mid)],
                color.stroke_width(3),
            ))
            .map_err(e)?;
            let (label, size) = fit_label(area, &s.label, self.font_size, self.text_room)?;
            let style = (FAMILY, size)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center));
            area.draw(&Text::new(label, (x + swatch + pad / 2, mid), style))
                .map_err(e)?;
        }
        Ok(())
    }
}

fn x_range(series: &[Series]) -> Range<f64> {
    let xs = || series.iter().flat_map(|s| s.points.iter().map(|p| p.x));
    let lo = xs().min_by(f64::total_cmp).unwrap_or(0.0);
    let hi = xs().max_by(f64::total_cmp).unwrap_or(1.0);
    if lo == hi { lo - 1.0..hi + 1.0 } else { lo..hi }
}

fn linear_y_range(series: &[Series]) -> Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in series.iter().flat_map(|s| s.points.iter()) {
        let (a, b) = band(p);
        lo = lo.min(a);
        hi = hi.max(b);
    }
    if !lo.is_finite() || !hi.is_finite() {
        return 0.0..1.0;
    }
    let span = hi - lo;
    let pad = if span > 0.0 {
        0.05 * span
    } else {
        0.5 * lo.abs().max(1.0)
    };
    (lo - pad)..(hi + pad)
}

/// Whole decades around every mean and every positive band limit, so that the axis always has
/// at least two labelled powers of ten.
fn log_y_range(series: &[Series]) -> Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in series.iter().flat_map(|s| s.points.iter()) {
        let (a, b) = band(p);
        for v in [a, p.mean, b] {
            if v > 0.0 && v.is_finite() {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
    }
    if !lo.is_finite() || !hi.is_finite() {
        return 0.1..1.0;
    }
    let lo = 10f64.powf(lo.log10().floor());
    let mut hi = 10f64.powf(hi.log10().ceil());
    if hi <= lo {
        hi = lo * 10.0;
    }
    // plotters places the decade ticks by repeated multiplication in floating point: widen the
    // range a hair so that both end decades get theirs.
    lo * (1.0 - 1e-9)..hi * (1.0 + 1e-9)
}

fn draw_chart<DB, Y>(
    area: &DrawingArea<DB, Shift>,
    spec: &PlotSpec<'_>,
    x_range: Range<f64>,
    y_range: Y,
) -> Result<(), String>
where
    DB: DrawingBackend,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .margin_top(10)
        .margin_left(10)
        .margin_right(20)
        .margin_bottom(10)
        .x_label_area_size(55)
        .y_label_area_size(95)
        .build_cartesian_2d(x_range, y_range)
        .map_err(e)?;
    let light_lines = if spec.log_y { 10 } else { 1 };
    let (y_lo, y_hi) = {
        let r = chart.y_range();
        (r.start, r.end)
    };
    let x_span = {
        let r = chart.x_range();
        r.end - r.start
    };
    // Counts get no ticks between whole numbers (plotters picks at most this many, evenly).
    let x_ticks = if spec.x_counts {
        (x_span.floor() as usize + 1).clamp(2, 10)
    } else {
        10
    };
    chart
        .configure_mesh()
        .x_desc(spec.x_label)
        .y_desc(spec.y_label)
        .axis_desc_style((FAMILY, 16))
        .label_style((FAMILY, 13))
        .x_labels(x_ticks)
        .y_labels(10)
        .x_label_formatter(&|x| x_tick_label(*x, x_span))
        .y_label_formatter(&|y| {
            if spec.log_y {
                tick_label(*y)
            } else {
                linear_tick_label(*y, y_hi - y_lo)
            }
        })
        .x_max_light_lines(1)
        .y_max_light_lines(light_lines)
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(e)?;

    let clamp = |v: f64| v.clamp(y_lo, y_hi);
    for s in spec.series {
        if s.points.is_empty() {
            continue;
        }
        let color = PALETTE[s.color % PALETTE.len()];
        if s.points.iter().any(|p| p.se.is_some()) {
            let upper = s.points.iter().map(|p| (p.x, clamp(band(p).1)));
            let lower = s.points.iter().rev().map(|p| (p.x, clamp(band(p).0)));
            chart
                .draw_series(std::iter::once(Polygon::new(
                    upper.chain(lower).collect::<Vec<_>>(),
                    color.mix(0.18).filled(),
                )))
                .map_err(e)?;
        }
        let line: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, clamp(p.mean))).collect();
        chart
            .draw_series(LineSeries::new(line.iter().copied(), color.stroke_width(2)))
            .map_err(e)?;
        // Markers where points are few (a single point draws no line) or colours repeat.
        if line.len() <= 30 || s.color >= PALETTE.len() {
            chart
                .draw_series(line.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(e)?;
        }
    }
    Ok(())
}

fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    size: f64,
) -> Result<u32, String> {
    area.estimate_text_size(text, &TextStyle::from((FAMILY, size).into_font()))
        .map(|(w, _)| w)
        .map_err(|e| e.to_string())
}

/// The largest size in `[min, max]` (steps of 1) at which `text` fits `room` pixels.
pub(crate) fn fit_font_size<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    max: f64,
    min: f64,
    room: u32,
) -> Result<f64, String> {
    let mut size = max;
    while size > min && text_width(area, text, size)? > room {
        size -= 1.0;
    }
    Ok(size)
}

/// The label at the largest size down to 11 px that fits `room`, else truncated with "…".
fn fit_label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    label: &str,
    size: f64,
    room: u32,
) -> Result<(String, f64), String> {
    let size = fit_font_size(area, label, size, 11.0, room)?;
    if text_width(area, label, size)? <= room {
        return Ok((label.to_string(), size));
    }
    let chars: Vec<char> = label.chars().collect();
    for keep in (1..chars.len()).rev() {
        let candidate: String = chars[..keep].iter().chain(std::iter::once(&'…')).collect();
        if text_width(area, &candidate, size)? <= room {
            return Ok((candidate, size));
        }
    }
    Ok(("…".into(), size))
}

/// Axis tick labels: plain decimals between 0.01 and 10⁴, else `2e-5`-style.
pub(crate) fn tick_label(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if (1e-2..1e4).contains(&a) {
        trim_decimal(&format!("{v:.4}"))
    } else {
        let s = format!("{v:.2e}");
        match s.split_once('e') {
            Some((mantissa, exp)) => format!("{}e{exp}", trim_decimal(mantissa)),
            None => s,
        }
    }
}

/// Linear-axis tick labels: every tick with the same number of decimals, enough for the axis'
/// span (so that 0.005 does not print as `5e-3` next to 0.01); scientific for spans outside
/// [1e-3, 1e5).
pub(crate) fn linear_tick_label(v: f64, span: f64) -> String {
    if !(1e-3..1e5).contains(&span) {
        return tick_label(v);
    }
    let decimals = (2 - span.log10().floor() as i32).clamp(0, 6) as usize;
    let s = trim_decimal(&format!("{v:.decimals$}"));
    if s == "-0" { "0".into() } else { s }
}

/// x-axis tick labels (evaluations, milliseconds, simulated time): whole numbers without
/// decimals (`16`, `2000`), others as [`linear_tick_label`] prints them for the axis' span.
pub(crate) fn x_tick_label(v: f64, span: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        linear_tick_label(v, span)
    }
}

fn trim_decimal(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{linear_tick_label, tick_label, x_tick_label};

    #[test]
    fn tick_labels() {
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(0.01), "0.01");
        assert_eq!(tick_label(0.09999999999), "0.1");
        assert_eq!(tick_label(1.0), "1");
        assert_eq!(tick_label(2.5), "2.5");
        assert_eq!(tick_label(0.001), "1e-3");
        assert_eq!(tick_label(2e-5), "2e-5");
        assert_eq!(tick_label(1e5), "1e5");
        assert_eq!(tick_label(-0.5), "-0.5");
        assert_eq!(linear_tick_label(0.005, 0.05), "0.005");
        assert_eq!(linear_tick_label(0.045, 0.05), "0.045");
        assert_eq!(linear_tick_label(1.5, 2.0), "1.5");
        assert_eq!(linear_tick_label(-0.0000001, 2.0), "0");
        assert_eq!(linear_tick_label(1500.0, 2000.0), "1500");
        assert_eq!(linear_tick_label(2e-5, 1e-4), "2e-5");
        assert_eq!(x_tick_label(16.0, 15.0), "16");
        assert_eq!(x_tick_label(20000.0, 20000.0), "20000");
        assert_eq!(x_tick_label(-0.0, 5.0), "0");
        assert_eq!(x_tick_label(0.5, 5.4), "0.5");
        assert_eq!(x_tick_label(1.2000000000000002, 5.4), "1.2");
        assert_eq!(x_tick_label(0.125, 0.5), "0.125");
    }
}
