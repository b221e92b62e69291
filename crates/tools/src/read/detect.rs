//! What a file is, decided in one place: opened once, its type checked before any read, and
//! its format told by content (images, PDF) or by name (notebooks), so `read`, `Read`,
//! `view_image` and `paths` all take the same road (SPEC 5, 18.2).

use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use crate::sandbox;
use std::fs::{File, Metadata};
use std::io::Read;
use std::os::unix::fs::{FileExt, FileTypeExt};
use std::path::{Path, PathBuf};

/// How many leading bytes the format is told from.
const HEAD: usize = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Image(ImageKind),
    Pdf,
    Notebook,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl ImageKind {
    pub fn name(self) -> &'static str {
        match self {
            ImageKind::Png => "PNG",
            ImageKind::Jpeg => "JPEG",
            ImageKind::Gif => "GIF",
            ImageKind::Webp => "WebP",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Gif => "image/gif",
            ImageKind::Webp => "image/webp",
        }
    }
}

/// A regular file inside the root, open for reading, with its first bytes.
pub struct Opened {
    pub file: File,
    pub meta: Metadata,
    pub real: PathBuf,
    pub shown: String,
    pub head: Vec<u8>,
}

/// Resolves `path` in the sandbox and opens it, refusing what read cannot read: a directory, a
/// FIFO, socket or device (without opening it, which could block).
pub fn open(ctx: &Ctx, field: &str, path: &str) -> Result<Opened> {
    let target = sandbox::resolve(ctx, field, path)?;
    let shown = target.shown.clone();
    // Type first, from metadata, so a FIFO is refused without opening (and blocking on) it.
    let meta = std::fs::metadata(&target.real).map_err(|e| ToolError::io(&e, &shown, "reading"))?;
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(ToolError::is_directory(&shown));
    }
    if ft.is_fifo()
        || ft.is_socket()
        || ft.is_block_device()
        || ft.is_char_device()
        || !ft.is_file()
    {
        return Err(ToolError::new(
            Code::UnsupportedFile,
            format!("{shown} is not a regular file (a FIFO, socket or device)"),
        )
        .with("path", shown.as_str())
        .hint("Only regular files can be read."));
    }
    // Through the directory handle the sandbox checked (SPEC 23.5): a file swapped for a link
    // or a FIFO since the check fails instead of being followed or blocking.
    let file =
        crate::fsx::open_resolved(&target).map_err(|e| ToolError::io(&e, &shown, "reading"))?;
    let meta = file
        .metadata()
        .map_err(|e| ToolError::io(&e, &shown, "reading"))?;
    // pread leaves the file position at 0 for the format's own reader.
    let mut head = vec![0u8; HEAD];
    let mut n = 0;
    while n < HEAD {
        match file.read_at(&mut head[n..], n as u64) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ToolError::io(&e, &shown, "reading")),
        }
    }
    head.truncate(n);
    Ok(Opened {
        file,
        meta,
        real: target.real,
        shown,
        head,
    })
}

/// The format of a file that starts with `head` and is named `names` (as given, and its real
/// path). Images and PDFs by their signatures, wherever they are named; a notebook by its
/// `.ipynb` name, since its content is plain JSON.
pub fn format(head: &[u8], names: &[&Path]) -> Format {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Format::Image(ImageKind::Png);
    }
    if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Format::Image(ImageKind::Jpeg);
    }
    if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        return Format::Image(ImageKind::Gif);
    }
    if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
        return Format::Image(ImageKind::Webp);
    }
    // At the very start (after blank space) only: a script that writes PDFs may well mention
    // `%PDF-` in its first kilobyte, and must still read as text.
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    if head[start..].starts_with(b"%PDF-") {
        return Format::Pdf;
    }
    let notebook = names.iter().any(|p| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"))
    });
    if notebook && !crate::text::looks_binary(head) {
        return Format::Notebook;
    }
    Format::Text
}

/// The whole file, for the formats that parse it whole; over `limit` bytes is `too_large`.
pub fn read_all(o: &mut Opened, limit: u64, what: &str) -> Result<Vec<u8>> {
    let size = o.meta.len();
    if size > limit {
        return Err(ToolError::too_large(
            limit,
            format!(
                "{} is {size} bytes, over the {limit}-byte limit for {what}",
                o.shown
            ),
        )
        .hint("Split it with a tool run through `run`, or read a smaller file."));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    (&o.file)
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ToolError::io(&e, &o.shown, "reading"))?;
    if bytes.len() as u64 > limit {
        return Err(ToolError::too_large(
            limit,
            format!("{} grew past the {limit}-byte limit for {what}", o.shown),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(head: &[u8], name: &str) -> Format {
        format(head, &[Path::new(name)])
    }

    #[test]
    fn by_content_not_by_name() {
        assert_eq!(
            fmt(b"\x89PNG\r\n\x1a\n\0\0", "x.txt"),
            Format::Image(ImageKind::Png)
        );
        assert_eq!(
            fmt(b"\xFF\xD8\xFF\xE0", "x"),
            Format::Image(ImageKind::Jpeg)
        );
        assert_eq!(fmt(b"GIF89a..", "x"), Format::Image(ImageKind::Gif));
        assert_eq!(
            fmt(b"RIFF\x10\0\0\0WEBPVP8 ", "x"),
            Format::Image(ImageKind::Webp)
        );
        assert_eq!(fmt(b"RIFF\x10\0\0\0WAVEfmt ", "x.webp"), Format::Text);
        assert_eq!(fmt(b"not an image", "x.png"), Format::Text);
        assert_eq!(fmt(b"%PDF-1.7\n", "x"), Format::Pdf);
        assert_eq!(fmt(b"\n %PDF-1.4\n", "x"), Format::Pdf);
        assert_eq!(fmt(b"out.write(b'%PDF-1.4')\n", "gen.py"), Format::Text);
    }

    #[test]
    fn a_notebook_by_name_unless_binary() {
        assert_eq!(fmt(b"{\"cells\": []}", "a.ipynb"), Format::Notebook);
        assert_eq!(fmt(b"{\"cells\": []}", "A.IPYNB"), Format::Notebook);
        assert_eq!(fmt(b"{\"cells\": []}", "a.json"), Format::Text);
        assert_eq!(fmt(b"\0\0\0", "a.ipynb"), Format::Text);
        // the real name counts too (a link named otherwise)
        let names = [Path::new("link"), Path::new("/r/nb.ipynb")];
        assert_eq!(format(b"{}", &names), Format::Notebook);
    }
}
