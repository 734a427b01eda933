//! The fonts the window draws text with: egui's own, then the vendored
//! DejaVu Sans, then, for a character none of them has, the system's face
//! for it — the face printing chooses ([`crate::print::system_face_for`]),
//! looked up when the character is first shown.
//!
//! Looked up when asked, not at every start: reading the system's fonts
//! (every face parsed once, the one chosen copied in; 14.5 ms on a test
//! machine with 131 faces) competed with the window's making for the
//! processor, and a campaign whose names are all in the scripts DejaVu
//! has never needs it. eframe's own system-font
//! lookup is off ([`eframe::NativeOptions::system_font_fallback`]), so
//! there is one lookup, and a name shows in the window in the face it
//! prints in.

use std::sync::Arc;

use egui::{FallbackRequest, FontData, FontFamily, FontInsert, FontPriority, InsertFontFamily};

/// The vendored DejaVu Sans (see `assets/fonts/DejaVu-LICENSE.txt`): a
/// fallback for the symbols and the Greek and Cyrillic letters egui's own
/// fonts lack.
const FALLBACK_FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// Installs DejaVu Sans after egui's fonts, and the system's faces after
/// it: before any text is laid out in the first frame.
pub fn install(ctx: &egui::Context) {
    ctx.add_font(last_in_both_families(
        "DejaVuSans".into(),
        FontData::from_static(FALLBACK_FONT),
    ));
    ctx.add_font_provider(Arc::new(system_face));
}

/// A font that comes after every other, for text and for numbers.
fn last_in_both_families(name: String, data: FontData) -> FontInsert {
    FontInsert {
        name,
        data,
        families: [FontFamily::Proportional, FontFamily::Monospace]
            .into_iter()
            .map(|family| InsertFontFamily {
                family,
                priority: FontPriority::Lowest,
            })
            .collect(),
    }
}

/// The system's face for a character no installed font has, as printing
/// chooses it; none where the system has none (egui then shows its
/// placeholder, as a PDF does).
fn system_face(request: &FallbackRequest<'_>) -> Option<FontInsert> {
    let c = request.cluster.chars().next()?;
    let font = crate::print::system_face_for(c, false)?;
    let mut data = FontData::from_static(font.data);
    data.index = font.index;
    Some(last_in_both_families(format!("system {}", font.name), data))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lays out `text` in a frame with the window's fonts, and says
    /// whether every character of it has a glyph.
    fn drawn(text: &str) -> bool {
        let ctx = egui::Context::default();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            install(ui.ctx());
            ui.label(text);
        });
        // No painter here to take the font atlas.
        output.textures_delta.clear();
        ctx.fonts_mut(|fonts| fonts.has_glyphs(&egui::FontId::proportional(14.0), text))
    }

    #[test]
    fn a_character_egui_lacks_is_drawn_from_the_vendored_font() {
        // Cyrillic and a warning sign: DejaVu Sans has both.
        assert!(drawn("Жук ⚠"));
    }

    #[test]
    fn a_character_of_another_script_is_drawn_in_the_face_printing_chooses() {
        // Han, Hangul, Devanagari, Thai, Ethiopic: none in DejaVu Sans.
        for c in ['山', '한', 'क', 'ก', 'አ'] {
            let printed = crate::print::system_face_for(c, false);
            assert_eq!(
                drawn(&c.to_string()),
                printed.is_some(),
                "{c}: printing found {:?}",
                printed.map(|f| f.name)
            );
        }
    }
}
