//! `run` and `jobs` (SPEC §15), issue 10. Built so far: the destructive-command guard. The tool
//! itself (process tree control, output capping, logs, background jobs) is not registered yet.

#[allow(dead_code)] // the run tool, its only caller, is not built yet (issue 10)
pub mod guard;
