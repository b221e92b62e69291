//! What a file is, decided in one place: opened once and its type checked before any read, so
//! `read`, `Read` and `paths` all take the same road (SPEC 5, 18.2).

use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use crate::sandbox;
use std::fs::{File, Metadata};
use std::os::unix::fs::FileTypeExt;
use std::path::PathBuf;

/// A regular file inside the root, open for reading.
pub struct Opened {
    pub file: File,
    pub meta: Metadata,
    pub real: PathBuf,
    pub shown: String,
}

/// Resolves `path` in the sandbox and opens it, refusing what read cannot read: a directory, a
/// FIFO, socket or device (without opening it, which could block).
pub fn open(ctx: &Ctx, field: &str, path: &str) -> Result<Opened> {
    let target = sandbox::resolve(ctx, field, path)?;
    let shown = target.shown;
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
    let file = File::open(&target.real).map_err(|e| ToolError::io(&e, &shown, "reading"))?;
    Ok(Opened {
        file,
        meta,
        real: target.real,
        shown,
    })
}
