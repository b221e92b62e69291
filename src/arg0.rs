//! Hidden entry points, routed before the command line (codex-rs's `arg0`): `run` re-executes
//! this binary as its keeper (`loopr-tool __keep`, the order on fd 3) and as a background job's
//! supervisor (`loopr-tool __job`, the order on stdin). Neither is a tool nor takes options, so
//! neither pays for clap, the catalog or the registry, and no tool's name can shadow them.

use crate::exit_status::ExitStatus;
use crate::tools::run::{keeper, supervisor};

/// Runs the hidden entry point argv names (exactly `loopr-tool NAME`, or for a supervisor
/// `loopr-tool __job TAG`: the job it serves, for `jobs` to tell it from another session's),
/// or `None` for every other command line.
pub fn dispatch(args: &[String]) -> Option<ExitStatus> {
    let code = match args {
        [_, word] if word == keeper::COMMAND => keeper::main(),
        [_, word, ..] if word == supervisor::COMMAND && args.len() <= 3 => supervisor::main(),
        _ => return None,
    };
    Some(ExitStatus::of_code(code))
}
