//! The vendored fonts (DejaVu Sans, regular and bold; licence in
//! `assets/fonts/DejaVu-LICENSE.txt`) and text measurement.

use ttf_parser::Face;

pub(super) const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
pub(super) const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// Millimetres per typographic point.
pub const MM_PER_PT: f32 = 25.4 / 72.0;

/// The two faces, parsed once.
pub struct Fonts {
    regular: Face<'static>,
    bold: Face<'static>,
}

impl Fonts {
    pub fn load() -> Result<Self, super::PrintError> {
        let parse = |bytes: &'static [u8], name: &str| {
            Face::parse(bytes, 0).map_err(|e| super::PrintError::Font(format!("{name}: {e}")))
        };
        Ok(Self {
            regular: parse(REGULAR, "DejaVu Sans")?,
            bold: parse(BOLD, "DejaVu Sans Bold")?,
        })
    }

    fn face(&self, bold: bool) -> &Face<'static> {
        if bold { &self.bold } else { &self.regular }
    }

    /// The width of `text` in millimetres at `size` points.
    pub fn width(&self, text: &str, size: f32, bold: bool) -> f32 {
        let face = self.face(bold);
        let per_em = f32::from(face.units_per_em().max(1));
        let units: f32 = text
            .chars()
            .map(|c| {
                face.glyph_index(c)
                    .and_then(|g| face.glyph_hor_advance(g))
                    .map_or(per_em * 0.6, f32::from)
            })
            .sum();
        units / per_em * size * MM_PER_PT
    }

    /// True when both faces can draw the character.
    pub fn can_draw(&self, c: char) -> bool {
        c.is_whitespace()
            || (self.regular.glyph_index(c).is_some() && self.bold.glyph_index(c).is_some())
    }
}
