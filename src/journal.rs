//! The undo journal (SPEC §14 `undo`, 16.5): what each write or edit replaced.
//!
//! Entries live in `undo.json` in the session directory, the previous contents beside it in
//! `undo/<id>`. Both are fsynced: after a crash the user still wants them. The journal keeps the
//! last 50 changes; a previous content over 64 MiB is not kept, and the entry says it cannot be
//! undone.

use crate::error::{Result, ToolError};
use crate::reads::Fingerprint;
use crate::state::StateLock;
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const FILE: &str = "undo.json";
pub const MAX_ENTRIES: usize = 50;
pub const MAX_ENTRY_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    pub id: u64,
    pub tool: String,
    /// The file's real path.
    pub path: String,
    /// The path as the user named it.
    pub shown: String,
    pub at: String,
    /// What the file held before: `None` when the change created it.
    pub previous: Option<Previous>,
    /// The file as the change left it: undo refuses when it has changed since.
    pub after: Fingerprint,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Previous {
    pub mode: u32,
    pub size: u64,
    /// Blob name under `undo/`, or `None` when the content was too large to keep.
    pub blob: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Journal {
    pub next_id: u64,
    pub entries: Vec<Entry>,
}

/// What a change replaced, before the change is made.
pub enum Before<'a> {
    Absent,
    Content { bytes: &'a [u8], mode: u32 },
    TooLarge { size: u64, mode: u32 },
}

/// Appends an entry for a change of `real` that has just been made; prunes to the last 50.
/// Returns whether the change can be undone.
pub fn push(
    lock: &StateLock,
    tool: &str,
    real: &Path,
    shown: &str,
    before: Before,
    after: Fingerprint,
) -> Result<bool> {
    let mut journal: Journal = lock.load(FILE)?;
    let id = journal.next_id.max(1);
    journal.next_id = id + 1;
    let blobs = lock.dir().join("undo");
    let (previous, undoable) = match before {
        Before::Absent => (None, true),
        Before::TooLarge { size, mode } => (
            Some(Previous {
                mode,
                size,
                blob: None,
            }),
            false,
        ),
        Before::Content { bytes, mode } => {
            std::fs::create_dir_all(&blobs).map_err(|e| ToolError::state(&e, &blobs))?;
            let name = id.to_string();
            crate::state::write_atomic(&blobs, &name, bytes, true)?;
            (
                Some(Previous {
                    mode,
                    size: bytes.len() as u64,
                    blob: Some(name),
                }),
                true,
            )
        }
    };
    journal.entries.push(Entry {
        id,
        tool: tool.to_string(),
        path: real.to_string_lossy().into_owned(),
        shown: shown.to_string(),
        at: crate::state::now(),
        previous,
        after,
    });
    let excess = journal.entries.len().saturating_sub(MAX_ENTRIES);
    for old in journal.entries.drain(..excess) {
        if let Some(blob) = old.previous.and_then(|p| p.blob) {
            let _ = std::fs::remove_file(blobs.join(blob));
        }
    }
    lock.save(FILE, &journal, true)?;
    Ok(undoable)
}

pub fn depth(lock: &StateLock) -> Result<usize> {
    Ok(lock.load::<Journal>(FILE)?.entries.len())
}
