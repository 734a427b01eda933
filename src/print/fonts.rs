//! The fonts printing draws with, and text measured and shaped with them.
//!
//! A chain of fonts: the vendored DejaVu Sans (regular and bold; licence in
//! `assets/fonts/DejaVu-LICENSE.txt`) first, then fonts found on the system
//! at run time through fontdb (fontconfig's directories) — never vendored,
//! they are far too large. Each character is drawn by the first font in the
//! chain that has it; one no font has is drawn as a hollow box and reported
//! by the caller, never a failure. Right-to-left text is put in visual order
//! (unicode-bidi) and any text beyond plain Latin, Greek and Cyrillic is
//! shaped (harfrust), so Arabic joins and combining marks sit where the font
//! puts them. No page layout and no PDF writing here.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Mutex, OnceLock};

use ttf_parser::Face;
use unicode_bidi::{BidiClass, BidiInfo, LTR_LEVEL, bidi_class};

pub(super) const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
pub(super) const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// Millimetres per typographic point.
pub const MM_PER_PT: f32 = 25.4 / 72.0;

/// What a character no font has is printed as (a hollow box, from DejaVu).
pub const PLACEHOLDER: char = '□';

/// One font of the chain.
pub(super) struct ChainFace {
    /// The family name, for messages.
    pub name: String,
    pub data: &'static [u8],
    pub index: u32,
    weight: u16,
    face: Face<'static>,
    font: harfrust::FontRef<'static>,
    shaper: OnceLock<harfrust::ShaperData>,
}

impl ChainFace {
    fn new(name: String, data: &'static [u8], index: u32, weight: u16) -> Option<Self> {
        Some(Self {
            face: Face::parse(data, index).ok()?,
            font: harfrust::FontRef::from_index(data, index).ok()?,
            name,
            data,
            index,
            weight,
            shaper: OnceLock::new(),
        })
    }

    fn has(&self, c: char) -> bool {
        self.face.glyph_index(c).is_some()
    }

    /// Millimetres per font unit at `size` points.
    fn scale(&self, size: f32) -> f32 {
        size * MM_PER_PT / f32::from(self.face.units_per_em().max(1))
    }
}

/// A glyph placed on a line: `x` from the line's start and `y` up from its
/// baseline, in millimetres.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Glyph {
    /// Index into the chain.
    pub face: usize,
    pub id: u16,
    pub x: f32,
    pub y: f32,
    /// What copying the glyph gives.
    pub unicode: Option<String>,
}

/// A line ready to draw.
pub(super) enum Shaped {
    /// Plain text the bundled face draws as it is, one glyph a character.
    Plain(String),
    /// Positioned glyphs in visual order, and the line's text in logical
    /// order (what copying it out of the PDF should give). `rtl` when some
    /// of it runs right to left: then each glyph says what it stands for,
    /// in visual order, as readers expect of right-to-left text.
    Glyphs {
        glyphs: Vec<Glyph>,
        text: String,
        rtl: bool,
    },
}

/// The fonts: the bundled faces, then whatever system faces the texts to
/// print need.
pub struct Fonts {
    /// 0 is DejaVu Sans, 1 DejaVu Sans Bold, then system faces.
    faces: Vec<ChainFace>,
}

impl Fonts {
    /// The bundled faces alone.
    pub fn load() -> Result<Self, super::PrintError> {
        let face = |bytes: &'static [u8], name: &str, weight| {
            ChainFace::new(name.to_owned(), bytes, 0, weight)
                .ok_or_else(|| super::PrintError::Font(format!("{name} cannot be read")))
        };
        Ok(Self {
            faces: vec![
                face(REGULAR, "DejaVu Sans", 400)?,
                face(BOLD, "DejaVu Sans Bold", 700)?,
            ],
        })
    }

    /// The bundled faces and, for every character of `texts` they lack, a
    /// system face that has it (where the system has one).
    pub fn for_texts<'a>(
        texts: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, super::PrintError> {
        let mut fonts = Self::load()?;
        let mut seen = std::collections::BTreeSet::new();
        for text in texts {
            for c in text.chars() {
                if !needs_a_font(c) || !seen.insert(c) || fonts.faces[0].has(c) {
                    continue;
                }
                if fonts.faces.iter().skip(2).any(|f| f.has(c)) {
                    continue;
                }
                for bold in [false, true] {
                    if let Some(found) = system_face_for(c, bold) {
                        fonts.push_system(found);
                    }
                }
            }
        }
        Ok(fonts)
    }

    fn push_system(&mut self, found: SystemFont) {
        if self
            .faces
            .iter()
            .any(|f| std::ptr::eq(f.data, found.data) && f.index == found.index)
        {
            return;
        }
        if let Some(face) = ChainFace::new(found.name, found.data, found.index, found.weight) {
            self.faces.push(face);
        }
    }

    pub(super) fn faces(&self) -> &[ChainFace] {
        &self.faces
    }

    /// The chain's face that draws `c`: the bundled face of the weight
    /// asked for, the other bundled face, then the system face nearest in
    /// weight.
    fn face_for(&self, c: char, bold: bool) -> Option<usize> {
        let (first, second) = if bold { (1, 0) } else { (0, 1) };
        if self.faces[first].has(c) {
            return Some(first);
        }
        if self.faces[second].has(c) {
            return Some(second);
        }
        let want: u16 = if bold { 700 } else { 400 };
        self.faces
            .iter()
            .enumerate()
            .skip(2)
            .filter(|(_, f)| f.has(c))
            .min_by_key(|(_, f)| f.weight.abs_diff(want))
            .map(|(i, _)| i)
    }

    /// True when some font of the chain draws the character (or it needs
    /// none: spaces, line breaks, joiners).
    pub fn can_draw(&self, c: char) -> bool {
        !needs_a_font(c) || (!c.is_control() && self.face_for(c, false).is_some())
    }

    /// The characters of `text` (graphemes: an emoji with its joiners and
    /// modifiers is one) that hold a code point printed as the
    /// placeholder, each once, in order.
    pub fn missing(&self, text: &str) -> Vec<String> {
        use unicode_segmentation::UnicodeSegmentation as _;
        let mut out: Vec<String> = Vec::new();
        for g in crate::text::visible(text).graphemes(true) {
            if g.chars().any(|c| !self.can_draw(c)) && !out.iter().any(|o| o == g) {
                out.push(g.to_owned());
            }
        }
        out
    }

    /// The width of `text` in millimetres at `size` points: its widest
    /// line, when it has several.
    pub fn width(&self, text: &str, size: f32, bold: bool) -> f32 {
        crate::text::visible(text)
            .split('\n')
            .map(|line| self.line_width(line, size, bold))
            .fold(0.0, f32::max)
    }

    fn line_width(&self, line: &str, size: f32, bold: bool) -> f32 {
        let line = one_line(line);
        let face = &self.faces[usize::from(bold)];
        // Plain text (the most of it) is measured glyph by glyph; anything
        // else is shaped.
        let mut units = 0.0;
        for c in line.chars() {
            let advance = plain_char(c)
                .then(|| face.face.glyph_index(c))
                .flatten()
                .map(|g| face.face.glyph_hor_advance(g).map_or(0.0, f32::from));
            match advance {
                Some(a) => units += a,
                None => return self.shape_glyphs(&line, size, bold).1,
            }
        }
        units * face.scale(size)
    }

    /// True when the bundled face draws every character one glyph each,
    /// left to right, with nothing to shape.
    fn is_plain(&self, line: &str, bold: bool) -> bool {
        let face = &self.faces[usize::from(bold)];
        line.chars().all(|c| plain_char(c) && face.has(c))
    }

    /// True when the bundled face's glyph for `c` lies inside the box a
    /// line of text is clipped to ([`super::layout::clip_box`]): from a
    /// quarter em under the baseline to a whole em above it, and no more
    /// than a quarter em before or past its own advance. A plain line of
    /// such characters is drawn the same with the clip or without it.
    pub(super) fn inside_clip(&self, c: char, bold: bool) -> bool {
        let face = &self.faces[usize::from(bold)];
        let Some(glyph) = face.face.glyph_index(c) else {
            return false;
        };
        let Some(bounds) = face.face.glyph_bounding_box(glyph) else {
            // Nothing drawn (a space).
            return true;
        };
        let em = f32::from(face.face.units_per_em().max(1));
        let advance = face.face.glyph_hor_advance(glyph).map_or(0.0, f32::from);
        f32::from(bounds.y_min) >= -0.25 * em
            && f32::from(bounds.y_max) <= em
            && f32::from(bounds.x_min) >= -0.25 * em
            && f32::from(bounds.x_max) <= advance + 0.25 * em
    }

    /// One line of text, ready to draw at `size` points.
    /// Control characters (a right-to-left override among them) are
    /// drawn as the code points they are, as every output shows them,
    /// never obeyed.
    pub(super) fn shape(&self, text: &str, size: f32, bold: bool) -> Shaped {
        let line = one_line(&crate::text::visible(text)).into_owned();
        if self.is_plain(&line, bold) {
            Shaped::Plain(line)
        } else {
            let (glyphs, _) = self.shape_glyphs(&line, size, bold);
            let rtl = BidiInfo::new(&line, Some(LTR_LEVEL)).has_rtl();
            Shaped::Glyphs {
                glyphs,
                text: line,
                rtl,
            }
        }
    }

    /// Bidi-ordered, font-split and shaped glyphs of one line, and its width.
    fn shape_glyphs(&self, line: &str, size: f32, bold: bool) -> (Vec<Glyph>, f32) {
        let mut glyphs = Vec::new();
        let mut pen = 0.0;
        // Every line is set flush left, so it reads left to right as a
        // whole: a right-to-left name is a run inside it, and a bullet or
        // a label before it stays before it.
        let bidi = BidiInfo::new(line, Some(LTR_LEVEL));
        for para in &bidi.paragraphs {
            let (levels, runs) = bidi.visual_runs(para, para.range.clone());
            for run in runs {
                let rtl = levels.get(run.start).is_some_and(|l| l.is_rtl());
                let mut segments = self.segments(line, run, bold);
                if rtl {
                    segments.reverse();
                }
                for (face, range) in segments {
                    match face {
                        Some(face) => {
                            self.shape_segment(line, range, face, rtl, size, &mut pen, &mut glyphs)
                        }
                        None => self.placeholders(line, range, size, bold, &mut pen, &mut glyphs),
                    }
                }
            }
        }
        (glyphs, pen)
    }

    /// Splits a run into pieces each drawn by one face (`None`: by no
    /// face). A character as the reader sees one (a grapheme: an emoji
    /// with its joiners, modifiers or flag pair) that holds a code point no
    /// face draws is `None` whole, so that it prints as one placeholder, as
    /// the warning names it once.
    fn segments(
        &self,
        line: &str,
        run: Range<usize>,
        bold: bool,
    ) -> Vec<(Option<usize>, Range<usize>)> {
        use unicode_segmentation::UnicodeSegmentation as _;
        let mut out: Vec<(Option<usize>, Range<usize>)> = Vec::new();
        let Some(text) = line.get(run.clone()) else {
            return out;
        };
        // A piece goes on the one before it where the same face draws both.
        fn put(
            out: &mut Vec<(Option<usize>, Range<usize>)>,
            face: Option<usize>,
            at: Range<usize>,
        ) {
            match out.last_mut() {
                Some((f, r)) if *f == face => r.end = at.end,
                _ => out.push((face, at)),
            }
        }
        for (g_at, grapheme) in text.grapheme_indices(true) {
            let start = run.start + g_at;
            if grapheme.chars().any(|c| !self.can_draw(c)) {
                put(&mut out, None, start..start + grapheme.len());
                continue;
            }
            for (i, c) in grapheme.char_indices() {
                let at = start + i..start + i + c.len_utf8();
                let current = out.last().map(|(f, _)| *f);
                let face = if !needs_a_font(c) {
                    // Joiners and selectors go with what they join; a space
                    // beside a placeholder is a space.
                    match current {
                        Some(Some(f)) => Some(f),
                        _ => Some(usize::from(bold)),
                    }
                } else if is_mark(c)
                    && let Some(Some(f)) = current
                    && self.faces[f].has(c)
                {
                    Some(f)
                } else {
                    self.face_for(c, bold)
                };
                put(&mut out, face, at);
            }
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn shape_segment(
        &self,
        line: &str,
        range: Range<usize>,
        face: usize,
        rtl: bool,
        size: f32,
        pen: &mut f32,
        glyphs: &mut Vec<Glyph>,
    ) {
        let chain = &self.faces[face];
        let Some(text) = line.get(range.clone()) else {
            return;
        };
        let data = chain
            .shaper
            .get_or_init(|| harfrust::ShaperData::new(&chain.font));
        let shaper = data.shaper(&chain.font).build();
        let mut buffer = harfrust::UnicodeBuffer::new();
        buffer.push_str(text);
        // The neighbours decide how letters at the edges join.
        buffer.set_pre_context(line.get(..range.start).unwrap_or(""));
        buffer.set_post_context(line.get(range.end..).unwrap_or(""));
        buffer.set_direction(if rtl {
            harfrust::Direction::RightToLeft
        } else {
            harfrust::Direction::LeftToRight
        });
        buffer.guess_segment_properties();
        let shaped = shaper.shape(buffer, harfrust::ShapeOptions::new());
        let scale = chain.scale(size);
        let mut starts: Vec<usize> = shaped
            .glyph_infos()
            .iter()
            .map(|g| g.cluster as usize)
            .collect();
        starts.sort_unstable();
        starts.dedup();
        let mut given = std::collections::BTreeSet::new();
        for (info, pos) in shaped.glyph_infos().iter().zip(shaped.glyph_positions()) {
            let start = info.cluster as usize;
            let end = starts
                .iter()
                .find(|&&s| s > start)
                .copied()
                .unwrap_or(text.len());
            let cluster = text.get(start..end).unwrap_or("");
            // A glyph stands for the character the font maps to it; one
            // no character maps to (a joined form, a ligature) for its
            // whole cluster — right to left in visual order too, as a
            // reader reverses the whole run. A glyph's text is one per
            // font, so a mapped glyph never takes a cluster's text.
            let own = cluster.chars().find(|&c| {
                chain.face.glyph_index(c).map(|g| u32::from(g.0)) == Some(info.glyph_id)
            });
            let first = given.insert(start);
            let unicode = match own {
                Some(c) => Some(c.to_string()),
                None if first && rtl => Some(cluster.chars().rev().collect()),
                None if first => Some(cluster.to_owned()),
                None => None,
            };
            glyphs.push(Glyph {
                face,
                id: u16::try_from(info.glyph_id).unwrap_or(0),
                x: *pen + pos.x_offset as f32 * scale,
                y: pos.y_offset as f32 * scale,
                unicode,
            });
            *pen += pos.x_advance as f32 * scale;
        }
    }

    /// One box for each character as the reader sees one (the range holds
    /// whole graphemes: see `segments`); the boxes are alike, so their
    /// order right to left needs no reversing.
    fn placeholders(
        &self,
        line: &str,
        range: Range<usize>,
        size: f32,
        bold: bool,
        pen: &mut f32,
        glyphs: &mut Vec<Glyph>,
    ) {
        let face = usize::from(bold);
        let chain = &self.faces[face];
        let Some(id) = chain.face.glyph_index(PLACEHOLDER) else {
            return;
        };
        let advance = chain.face.glyph_hor_advance(id).map_or(0.0, f32::from) * chain.scale(size);
        let text = line.get(range).unwrap_or("");
        for _ in unicode_segmentation::UnicodeSegmentation::graphemes(text, true) {
            glyphs.push(Glyph {
                face,
                id: id.0,
                x: *pen,
                y: 0.0,
                unicode: Some(PLACEHOLDER.to_string()),
            });
            *pen += advance;
        }
    }
}

/// What a reader is told to install where an emoji prints as the
/// placeholder: the chain takes system faces with outlines only (see
/// [`outline_glyph`]), so a colour emoji font of pictures is no help.
pub(super) const EMOJI_FONT: &str = "an outline emoji font prints them (a joined emoji as its parts): \
     install one such as Symbola (Debian: fonts-symbola); a colour emoji font such as \
     Noto Color Emoji holds pictures, which printing cannot use";

/// Whether a character as the reader sees one (a grapheme) is an emoji:
/// it holds a pictograph (Unicode's Extended_Pictographic) or a regional
/// indicator (half a flag). Unicode's data decides, through the grapheme
/// rules unicode-segmentation keeps (UAX #29): a character that starts a
/// grapheme of its own and stays one grapheme when joined to itself by a
/// zero-width joiner is a pictograph (GB11); three regional indicators
/// make two graphemes, as they pair (GB12, GB13).
pub(super) fn is_emoji(grapheme: &str) -> bool {
    use unicode_segmentation::UnicodeSegmentation as _;
    let count = |chars: &[char]| chars.iter().collect::<String>().graphemes(true).count();
    grapheme.chars().any(|c| {
        let starts = count(&['a', c]) == 2;
        starts && (count(&[c, '\u{200D}', c]) == 1 || count(&[c, c, c]) == 2)
    })
}

/// A line as printed: tabs and stray line breaks become spaces.
fn one_line(text: &str) -> Cow<'_, str> {
    let breaks = |c: char| {
        matches!(
            c,
            '\t' | '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    };
    if text.contains(breaks) {
        Cow::Owned(
            text.chars()
                .map(|c| if breaks(c) { ' ' } else { c })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    }
}

/// False for what no font draws and no one misses: whitespace, line
/// breaks, tabs, and the invisible joiners, selectors and direction marks.
fn needs_a_font(c: char) -> bool {
    !(c.is_whitespace() || default_ignorable(c))
}

/// Unicode's Default_Ignorable_Code_Point: invisible unless a font says
/// otherwise.
fn default_ignorable(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF)
}

fn is_mark(c: char) -> bool {
    bidi_class(c) == BidiClass::NSM
}

/// Characters the bundled face draws one to a glyph, left to right, with
/// no shaping: Latin, Greek, Cyrillic and the common punctuation and
/// symbols, without combining marks or direction controls.
fn plain_char(c: char) -> bool {
    if c.is_ascii() {
        return !c.is_ascii_control();
    }
    let u = c as u32;
    let block = matches!(u,
        0x20..=0x7E | 0xA0..=0x58F | 0x1D00..=0x1FFF | 0x2010..=0x2027 | 0x2030..=0x205F
        | 0x2070..=0x2DFF);
    block
        && !matches!(
            bidi_class(c),
            BidiClass::NSM
                | BidiClass::R
                | BidiClass::AL
                | BidiClass::AN
                | BidiClass::BN
                | BidiClass::LRE
                | BidiClass::LRO
                | BidiClass::RLE
                | BidiClass::RLO
                | BidiClass::PDF
                | BidiClass::LRI
                | BidiClass::RLI
                | BidiClass::FSI
                | BidiClass::PDI
        )
}

// ---------------------------------------------------------------------------
// System fonts
// ---------------------------------------------------------------------------

/// A face found on the system, its bytes kept for the life of the app (a
/// handful at most: only faces some printed character needed).
#[derive(Clone)]
pub struct SystemFont {
    pub name: String,
    pub data: &'static [u8],
    pub index: u32,
    pub weight: u16,
}

struct System {
    db: fontdb::Database,
    /// Faces already read, or found unusable (`None`).
    loaded: HashMap<fontdb::ID, Option<SystemFont>>,
    /// The face chosen for a character and weight.
    chosen: HashMap<(char, bool), Option<fontdb::ID>>,
}

fn system() -> &'static Mutex<System> {
    static SYSTEM: OnceLock<Mutex<System>> = OnceLock::new();
    SYSTEM.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        Mutex::new(System {
            db,
            loaded: HashMap::new(),
            chosen: HashMap::new(),
        })
    })
}

/// Which of `chars` a face draws with outlines (bitmap-only colour emoji
/// fonts cannot be embedded in a PDF or drawn by the app), the face parsed
/// once for all of them.
fn outline_glyphs(data: &[u8], index: u32, chars: &[char]) -> Vec<char> {
    let Ok(face) = Face::parse(data, index) else {
        return Vec::new();
    };
    let t = face.tables();
    if t.glyf.is_none() && t.cff.is_none() && t.cff2.is_none() {
        return Vec::new();
    }
    chars
        .iter()
        .copied()
        .filter(|&c| face.glyph_index(c).is_some())
        .collect()
}

/// A system face that draws `c`, regular or bold, upright preferred.
pub fn system_face_for(c: char, bold: bool) -> Option<SystemFont> {
    let mut guard = system().lock().ok()?;
    let sys = &mut *guard;
    choose_faces(sys, &[c], bold);
    let id = sys.chosen.get(&(c, bold)).copied().flatten();
    id.and_then(|id| sys.loaded.get(&id).cloned().flatten())
}

/// How far a face is from the one wanted: upright first, then nearest in
/// weight.
fn face_distance(info: &fontdb::FaceInfo, want: u16) -> u32 {
    u32::from(info.style != fontdb::Style::Normal) * 10_000
        + u32::from(info.weight.0.abs_diff(want))
}

/// Chooses a face for each of `chars` not chosen before, and reads the
/// faces chosen. A face already read is kept where it draws the character,
/// so one script keeps one font; the rest are found in one pass over the
/// system's faces, each face parsed once for all of them.
fn choose_faces(sys: &mut System, chars: &[char], bold: bool) {
    let want: u16 = if bold { 700 } else { 400 };
    let mut todo: Vec<char> = Vec::new();
    for &c in chars {
        if sys.chosen.contains_key(&(c, bold)) || todo.contains(&c) {
            continue;
        }
        match face_in_use(sys, c, want) {
            Some(id) => {
                sys.chosen.insert((c, bold), Some(id));
            }
            None => todo.push(c),
        }
    }
    if todo.is_empty() {
        return;
    }
    // Every face that draws one of them: its distance, and which it draws.
    let mut drawing: Vec<(u32, fontdb::ID, Vec<char>)> = Vec::new();
    for info in sys.db.faces() {
        if matches!(sys.loaded.get(&info.id), Some(None)) {
            continue;
        }
        let drawn = sys
            .db
            .with_face_data(info.id, |data, index| outline_glyphs(data, index, &todo))
            .unwrap_or_default();
        if !drawn.is_empty() {
            drawing.push((face_distance(info, want), info.id, drawn));
        }
    }
    for c in todo {
        // A face this pass has already read comes first, as above.
        let id = face_in_use(sys, c, want).or_else(|| {
            drawing
                .iter()
                .filter(|(_, _, drawn)| drawn.contains(&c))
                .min_by_key(|(distance, _, _)| *distance)
                .map(|(_, id, _)| *id)
        });
        if let Some(id) = id {
            read_face(sys, id);
        }
        sys.chosen.insert((c, bold), id);
    }
}

/// The nearest face already read that draws `c`, weight close to `want`.
fn face_in_use(sys: &System, c: char, want: u16) -> Option<fontdb::ID> {
    sys.db
        .faces()
        .filter(|info| info.weight.0.abs_diff(want) < 150)
        .filter(|info| {
            sys.loaded
                .get(&info.id)
                .and_then(|f| f.as_ref())
                .is_some_and(|f| !outline_glyphs(f.data, f.index, &[c]).is_empty())
        })
        .min_by_key(|info| face_distance(info, want))
        .map(|info| info.id)
}

/// Reads face `id`'s bytes, once: kept for the life of the app, as the PDF
/// writer and the app's text drawing borrow them.
fn read_face(sys: &mut System, id: fontdb::ID) {
    if sys.loaded.contains_key(&id) {
        return;
    }
    let Some(info) = sys.db.face(id) else {
        return;
    };
    let name = info
        .families
        .first()
        .map(|(n, _)| n.clone())
        .unwrap_or_default();
    let weight = info.weight.0;
    let font = sys.db.with_face_data(id, |data, index| SystemFont {
        name,
        data: Box::leak(data.to_vec().into_boxed_slice()),
        index,
        weight,
    });
    sys.loaded.insert(id, font);
}
