//! Text for the PNG plots.
//!
//! plotters' `ab_glyph` text path draws each glyph at its pixel bounds without its left side
//! bearing and puts the baseline half a font size below the anchor, so letters drift apart
//! ("evaluatio ns") and centred text sits high. [`GlyphBackend`] wraps a [`BitMapBackend`] and
//! rasterises text itself with `ab_glyph` (kerning, side bearings, sub-pixel advances, the
//! baseline at the font's ascent), delegating everything else. Its text box is `size` pixels
//! high (ascent − descent, `ab_glyph`'s `PxScale`), which plotters' layout uses through
//! [`DrawingBackend::estimate_text_size`].

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont, point};
use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// The embedded DejaVu Sans: laid out here, and registered with plotters by `plot`.
pub(crate) static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

fn font() -> &'static FontRef<'static> {
    static PARSED: OnceLock<FontRef<'static>> = OnceLock::new();
    PARSED.get_or_init(|| {
        FontRef::try_from_slice(FONT).expect("the embedded DejaVu Sans font parses")
    })
}

/// Lays out `text` at pixel size `size` and calls `pixel(x, y, coverage)` for every covered
/// pixel, `(0, 0)` being the top-left corner of the text box. Returns the box's width.
fn rasterize(text: &str, size: f64, mut pixel: impl FnMut(i32, i32, f32)) -> i32 {
    let font = font();
    let scale = PxScale::from(size as f32);
    let scaled = font.as_scaled(scale);
    let ascent = scaled.ascent();
    let mut caret = 0.0f32;
    let mut previous: Option<GlyphId> = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = previous {
            caret += scaled.kern(p, id);
        }
        let glyph = id.with_scale_and_position(scale, point(caret, ascent));
        if let Some(outlined) = font.outline_glyph(glyph) {
            let bounds = outlined.px_bounds();
            let (x0, y0) = (bounds.min.x as i32, bounds.min.y as i32);
            outlined.draw(|x, y, coverage| pixel(x0 + x as i32, y0 + y as i32, coverage));
        }
        caret += scaled.h_advance(id);
        previous = Some(id);
    }
    caret.ceil() as i32
}

fn text_width(text: &str, size: f64) -> i32 {
    let scaled = font().as_scaled(PxScale::from(size as f32));
    let mut width = 0.0f32;
    let mut previous: Option<GlyphId> = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = previous {
            width += scaled.kern(p, id);
        }
        width += scaled.h_advance(id);
        previous = Some(id);
    }
    width.ceil() as i32
}

/// A [`BitMapBackend`] whose text is drawn by [`rasterize`].
pub(crate) struct GlyphBackend<'a> {
    inner: BitMapBackend<'a>,
}

impl<'a> GlyphBackend<'a> {
    pub fn new(inner: BitMapBackend<'a>) -> Self {
        Self { inner }
    }
}

type Error<'a> = DrawingErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>;

impl<'a> DrawingBackend for GlyphBackend<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), Error<'a>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Error<'a>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Error<'a>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Error<'a>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Error<'a>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error<'a>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Error<'a>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error<'a>> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (iw, ih): (u32, u32),
        src: &[u8],
    ) -> Result<(), Error<'a>> {
        self.inner.blit_bitmap(pos, (iw, ih), src)
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), Error<'a>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let size = style.size();
        let width = text_width(text, size);
        let height = size.round() as i32;
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -width,
            HPos::Center => -width / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -height / 2,
            VPos::Bottom => -height,
        };
        let transform = style.transform();
        let (w, h) = self.get_size();
        let mut result = Ok(());
        rasterize(text, size, |x, y, coverage| {
            if result.is_err() || coverage <= 0.0 {
                return;
            }
            let (x, y) = transform.transform(x + dx, y + dy);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && y >= 0 && (x as u32) < w && (y as u32) < h {
                let c = BackendColor {
                    alpha: color.alpha * f64::from(coverage.min(1.0)),
                    rgb: color.rgb,
                };
                result = self.inner.draw_pixel((x, y), c);
            }
        });
        result
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), Error<'a>> {
        let size = style.size();
        Ok((
            text_width(text, size).max(0) as u32,
            size.round().max(0.0) as u32,
        ))
    }
}
