//! Images (SPEC 18.2, 24.2): PNG, JPEG, GIF and WebP, told by content. `output` is one line,
//! `data.image` carries the picture in base64 for the harness (MCP sends it as an image block).
//!
//! An image within 1,568 px on its long side and 3.75 MiB is sent as its own bytes: only its
//! header is parsed. A larger one is decoded, scaled down (aspect kept) and re-encoded — the
//! size Anthropic's API takes without scaling it again (3.75 MiB is its 5 MB base64 limit).

use super::Piece;
use super::detect::{ImageKind, Opened, read_all};
use crate::error::{Code, Result, ToolError};
use crate::reads::Fingerprint;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use serde_json::json;
use std::io::Cursor;

/// The longest side sent.
const MAX_SIDE: u32 = 1568;
/// The largest payload sent.
const MAX_BYTES: usize = 3 * 1024 * 1024 + 768 * 1024;
/// Image files above this are not read at all.
const MAX_FILE: u64 = 64 * 1024 * 1024;
/// What a decoder may allocate: 8192 x 8192 RGBA. A small file can claim a huge canvas.
const MAX_DECODE: u64 = 256 * 1024 * 1024;

pub fn read(o: &mut Opened, kind: ImageKind) -> Result<Piece> {
    let bytes = read_all(o, MAX_FILE, "images")?;
    let fp = Fingerprint::of_bytes(&bytes, &o.meta);
    let shown = o.shown.as_str();
    let (width, height) = reader(&bytes, kind)
        .into_dimensions()
        .map_err(|e| corrupt(shown, kind, &e))?;
    let fits = width.max(height) <= MAX_SIDE && bytes.len() <= MAX_BYTES;
    let sent = if fits {
        Sent {
            kind,
            width,
            height,
            payload: bytes,
        }
    } else {
        shrink(shown, &bytes, kind, width, height)?
    };
    let mut line = format!(
        "Image {shown}: {}, {}x{}, {}",
        sent.kind.name(),
        sent.width,
        sent.height,
        human(sent.payload.len() as u64)
    );
    let mut image = json!({
        "mime": sent.kind.mime(),
        "width": sent.width,
        "height": sent.height,
    });
    if !fits {
        let resized = (sent.width, sent.height) != (width, height);
        let what = match (resized, sent.kind != kind) {
            (true, true) => format!("downscaled from {width}x{height} {}", kind.name()),
            (true, false) => format!("downscaled from {width}x{height}"),
            (false, _) => format!("re-encoded from {}", kind.name()),
        };
        line.push_str(&format!(
            " ({what}, {}, to fit {MAX_SIDE} px and 3.75 MiB)",
            human(o.meta.len())
        ));
        if resized {
            image["original_width"] = width.into();
            image["original_height"] = height.into();
        }
    }
    line.push('\n');
    image["bytes"] = sent.payload.len().into();
    image["base64"] = base64(&sent.payload).into();
    let data = json!({
        "path": shown,
        "size_bytes": o.meta.len(),
        "image": image,
    });
    Ok(Piece {
        output: line,
        data,
        fp,
        real: o.real.clone(),
        shown: o.shown.clone(),
        starved: false,
    })
}

struct Sent {
    kind: ImageKind,
    width: u32,
    height: u32,
    payload: Vec<u8>,
}

fn format_of(kind: ImageKind) -> ImageFormat {
    match kind {
        ImageKind::Png => ImageFormat::Png,
        ImageKind::Jpeg => ImageFormat::Jpeg,
        ImageKind::Gif => ImageFormat::Gif,
        ImageKind::Webp => ImageFormat::WebP,
    }
}

fn reader(bytes: &[u8], kind: ImageKind) -> ImageReader<Cursor<&[u8]>> {
    let mut r = ImageReader::with_format(Cursor::new(bytes), format_of(kind));
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODE);
    r.limits(limits);
    r
}

/// A file with an image's signature that does not decode is not an image we can show, and
/// not text either: `binary_file`, saying what it claimed to be.
fn corrupt(shown: &str, kind: ImageKind, e: &image::ImageError) -> ToolError {
    if let image::ImageError::Limits(_) = e {
        return ToolError::too_large(
            MAX_DECODE,
            format!("{shown} is too large an image to decode ({e})"),
        )
        .hint(
            "Scale it down first (e.g. with ImageMagick through run), then read the smaller copy.",
        );
    }
    ToolError::new(
        Code::BinaryFile,
        format!(
            "{shown} starts like a {} image but does not decode: {e}",
            kind.name()
        ),
    )
    .with("path", shown)
    .hint("The file may be truncated or corrupt; `file` or `xxd` through run can tell more.")
}

/// Decodes, scales to fit `MAX_SIDE`, and re-encodes: JPEG stays JPEG; the others become PNG
/// (lossless, keeps transparency), and JPEG when PNG would still be over `MAX_BYTES`.
fn shrink(shown: &str, bytes: &[u8], kind: ImageKind, width: u32, height: u32) -> Result<Sent> {
    let img = reader(bytes, kind)
        .decode()
        .map_err(|e| corrupt(shown, kind, &e))?;
    let mut side = MAX_SIDE.min(width.max(height));
    loop {
        let small = if width.max(height) > side {
            img.thumbnail(side, side)
        } else {
            img.clone()
        };
        if kind != ImageKind::Jpeg
            && let Some(png) = encode_png(&small)
            && png.len() <= MAX_BYTES
        {
            return Ok(sent(ImageKind::Png, &small, png));
        }
        let jpeg = encode_jpeg(&small);
        if jpeg.len() <= MAX_BYTES || side <= 64 {
            return Ok(sent(ImageKind::Jpeg, &small, jpeg));
        }
        side /= 2; // a JPEG of 1568 px over 3.75 MiB is pathological noise; halve until it fits
    }
}

fn sent(kind: ImageKind, img: &DynamicImage, payload: Vec<u8>) -> Sent {
    Sent {
        kind,
        width: img.width(),
        height: img.height(),
        payload,
    }
}

fn encode_png(img: &DynamicImage) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    img.write_to(Cursor::new(&mut out), ImageFormat::Png)
        .ok()
        .map(|_| out)
}

/// JPEG at quality 85, transparency flattened onto white (JPEG has no alpha, and black behind
/// a transparent logo hides it).
fn encode_jpeg(img: &DynamicImage) -> Vec<u8> {
    let rgb = if img.color().has_alpha() {
        let rgba = img.to_rgba8();
        let mut rgb = image::RgbImage::new(rgba.width(), rgba.height());
        for (dst, src) in rgb.pixels_mut().zip(rgba.pixels()) {
            let a = u32::from(src[3]);
            for c in 0..3 {
                dst[c] = ((u32::from(src[c]) * a + 255 * (255 - a)) / 255) as u8;
            }
        }
        rgb
    } else {
        img.to_rgb8()
    };
    let mut out = Vec::new();
    let enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85);
    // Encoding an in-memory RGB buffer into a Vec cannot fail.
    let _ = rgb.write_with_encoder(enc);
    out
}

/// `34 KB`, `2.1 MB`, `512 B` (binary units, as `ls -h`).
pub fn human(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{} KB", (bytes + 512) / 1024),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

/// Standard base64 with padding (RFC 4648), as the image blocks of MCP and the APIs expect.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    let mut chunks = bytes.chunks_exact(3);
    for c in &mut chunks {
        let n = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
        out.extend([18, 12, 6, 0].map(|s| ABC[(n >> s & 63) as usize]));
    }
    match *chunks.remainder() {
        [a] => {
            let n = u32::from(a) << 16;
            out.extend([
                ABC[(n >> 18) as usize],
                ABC[(n >> 12 & 63) as usize],
                b'=',
                b'=',
            ]);
        }
        [a, b] => {
            let n = u32::from(a) << 16 | u32::from(b) << 8;
            out.extend([18, 12, 6].map(|s| ABC[(n >> s & 63) as usize]));
            out.push(b'=');
        }
        _ => {}
    }
    String::from_utf8(out).expect("base64 is ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648() {
        for (plain, enc) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), enc);
        }
        assert_eq!(base64(&[0xFF, 0xFE, 0xFD]), "//79");
    }

    #[test]
    fn sizes_read_like_ls_h() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(34 * 1024 + 100), "34 KB");
        assert_eq!(human(3 * 1_048_576 + 300_000), "3.3 MB");
    }

    #[test]
    fn a_transparent_pixel_becomes_white_in_a_jpeg() {
        let img = DynamicImage::ImageRgba8(image::RgbaImage::from_pixel(
            8,
            8,
            image::Rgba([0, 0, 0, 0]),
        ));
        let jpeg = encode_jpeg(&img);
        let back = image::load_from_memory_with_format(&jpeg, ImageFormat::Jpeg)
            .unwrap()
            .to_rgb8();
        assert!(
            back.pixels().all(|p| p.0.iter().all(|&c| c > 240)),
            "{:?}",
            back.get_pixel(0, 0)
        );
    }
}
