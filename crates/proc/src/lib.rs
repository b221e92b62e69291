//! loopr-tool's process runtime (SPEC §15, 22.6, 23.4, 23.7): how a command runs. Its process
//! group and the keeper that outlives the caller (`keeper`, `proc`), the sandbox around it
//! (`confine`: Landlock, a user namespace for `network: none`), its output cleaned and capped
//! as it streams (`capture`, `clean`), signals, and the guard that reads a shell line before it
//! runs (`guard`).
//!
//! An engine: commands, file descriptors and processes, no context or state dir. `run`, `jobs`
//! and the catalog's hooks (layers above) decide what to run and keep the records.

pub mod capture;
pub mod clean;
pub mod confine;
pub mod exec;
pub mod guard;
pub mod keeper;
pub mod proc;
pub mod signals;
pub mod tty;
pub mod waiting;
