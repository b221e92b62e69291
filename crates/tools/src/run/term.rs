//! An interactive job's state as its supervisor sees it (SPEC 28): `logs/<id>.term`, one small
//! JSON file replaced atomically at each change (and every 100 ms while nothing changes), so
//! `jobs` in any process reads `waiting_input`, the prompt and the screen without asking the
//! supervisor. The supervisor computes it because it can: it is the job's ancestor, which
//! `/proc/PID/syscall` requires under Yama's ptrace scope 1.

use super::record;
use super::tty::Status;
use crate::context::Ctx;
use crate::state;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Replaces the file at `path` with `st` (0600, as every file of the state dir).
pub fn publish(path: &Path, st: &Status) {
    let tmp = path.with_extension("term.tmp");
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| f.write_all(&serde_json::to_vec(st).unwrap_or_default()));
    if written.is_ok() {
        let _ = std::fs::rename(&tmp, path);
    }
}

/// Job `id`'s last published state, if it has one (an interactive job).
pub fn read(ctx: &Ctx, id: &str) -> Option<Status> {
    let bytes = std::fs::read(record::term_path(&state::session_dir(ctx), id)).ok()?;
    serde_json::from_slice(&bytes).ok()
}
