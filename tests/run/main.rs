//! Commands through the binary: run (process trees, signals, the kernel sandbox), background and
//! interactive jobs, and the destructive-command guard.

mod guard;
mod jobs;
mod jobs_interactive;
mod run;
mod run_sandbox;
mod run_signals;
mod run_worktree;
mod terminal;
