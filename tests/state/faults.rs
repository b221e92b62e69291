//! Faults at each step of a change (SPEC 23.2, 24.6, 24.7): when staging, the fsync, a state
//! save, the journal entry, the trash, the mkdir, the rename, an in-place write or a removal
//! fails (ENOSPC, EIO, EROFS, EDQUOT, through the `LOOPR_DEBUG_FAIL=STEP:ERRNO:N` test switch),
//! the files are exactly as before, no temporary file is left, the state still parses and holds
//! nothing of the failed call, and the error names the cause, the errno and the path
//! (`faults/steps.rs`, checks in `faults/harness.rs`). Then for real: a tiny tmpfs that fills
//! and read-only bind mounts in a private mount namespace, where the kernel allows one
//! (`faults/mounts.rs`), and a write of a hard-linked file killed part-way (`faults/kill.rs`).

mod harness;
mod kill;
mod mounts;
mod steps;
