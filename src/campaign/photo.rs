//! A fighter's photo, checked where it comes in (`rapsheet fighter photo`,
//! the app, a bundle): a PNG or JPEG of at most [`MAX_PHOTO_BYTES`] whose
//! header gives at most [`MAX_PHOTO_PIXELS`], and that decodes whole. A
//! photo refused here is never stored, so printing cards never meets one
//! it cannot draw. The size is read from the header before anything is
//! decoded: a small file claiming a huge picture (a decompression bomb)
//! is refused without the memory it asks for.
//!
//! Pure: bytes in, the photo's type or the reason out.

use std::io::Cursor;

use image::{ImageFormat, ImageReader, Limits};

/// The largest photo file: photos are stored in the campaign file, which
/// should stay portable.
pub const MAX_PHOTO_BYTES: usize = 8 * 1024 * 1024;

/// The most pixels a photo may have (width × height): 40 megapixels, more
/// than any phone camera takes and far more than a card prints.
pub const MAX_PHOTO_PIXELS: u64 = 40_000_000;

/// The MIME type of a PNG or JPEG by its first bytes, looking no further.
pub fn mime(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else {
        None
    }
}

/// The photo's MIME type (`image/png`, `image/jpeg`), or why it is
/// refused, in words (`the photo is 65500 × 65500 pixels …`).
pub fn check(bytes: &[u8]) -> Result<&'static str, String> {
    if bytes.len() > MAX_PHOTO_BYTES {
        return Err(format!(
            "the photo is {} MB; at most {} MB",
            bytes.len() / 1_000_000,
            MAX_PHOTO_BYTES / 1_000_000
        ));
    }
    let Some(mime) = mime(bytes) else {
        return Err("a photo must be a PNG or JPEG image".into());
    };
    let format = if mime == "image/png" {
        ImageFormat::Png
    } else {
        ImageFormat::Jpeg
    };
    let unreadable = |e: image::ImageError| {
        let reason = e.to_string().replace(['\n', '\r'], " ");
        format!(
            "the photo is not a {} image that can be read: {reason}",
            kind(mime)
        )
    };
    // The header alone: no pixel is decoded, however many it claims.
    let mut header = ImageReader::with_format(Cursor::new(bytes), format);
    header.no_limits();
    let (w, h) = header.into_dimensions().map_err(unreadable)?;
    let pixels = u64::from(w) * u64::from(h);
    if pixels > MAX_PHOTO_PIXELS {
        return Err(format!(
            "the photo is {w} × {h} pixels ({} megapixels); at most {} megapixels",
            pixels / 1_000_000,
            MAX_PHOTO_PIXELS / 1_000_000
        ));
    }
    if pixels == 0 {
        return Err(format!(
            "the photo is {w} × {h} pixels: there is no picture"
        ));
    }
    // Then the pixels, within what the header said.
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(w);
    limits.max_image_height = Some(h);
    reader.limits(limits);
    reader.decode().map_err(unreadable)?;
    Ok(mime)
}

fn kind(mime: &str) -> &'static str {
    if mime == "image/png" { "PNG" } else { "JPEG" }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG whose header claims `w` × `h` pixels, with no pixel data.
    fn png_header(w: u32, h: u32) -> Vec<u8> {
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend(w.to_be_bytes());
        ihdr.extend(h.to_be_bytes());
        ihdr.extend([8, 2, 0, 0, 0]);
        out.extend(13u32.to_be_bytes());
        out.extend(&ihdr);
        out.extend(crc32fast::hash(&ihdr).to_be_bytes());
        // The start of a stream of zeros: far too little for the picture.
        let idat = [
            b'I', b'D', b'A', b'T', 0x78, 0x01, 0x00, 0x00, 0x01, 0xFF, 0xFE, 0x00,
        ];
        out.extend(8u32.to_be_bytes());
        out.extend(idat);
        out.extend(crc32fast::hash(&idat).to_be_bytes());
        out
    }

    #[test]
    fn a_huge_picture_in_a_small_file_is_refused_by_its_header() {
        let err = check(&png_header(100_000, 100_000)).unwrap_err();
        assert_eq!(
            err,
            "the photo is 100000 × 100000 pixels (10000 megapixels); at most 40 megapixels"
        );
    }

    #[test]
    fn a_header_with_no_pixels_behind_it_is_refused() {
        let err = check(&png_header(10, 10)).unwrap_err();
        assert!(
            err.starts_with("the photo is not a PNG image that can be read"),
            "{err}"
        );
    }

    #[test]
    fn garbage_after_the_magic_bytes_is_refused() {
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        bytes.extend([0x5A; 64]);
        let err = check(&bytes).unwrap_err();
        assert!(
            err.starts_with("the photo is not a PNG image that can be read"),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");
    }
}
