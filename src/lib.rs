//! loopr-tool: file, search, web and shell tools for LLM coding agents.
//! Each subcommand takes one JSON object on stdin and prints one JSON object on stdout; the
//! binary (src/main.rs) is a thin layer over this library.

// ToolError is large (message, hint, extra fields), but it is built at most once per process,
// on the way out: boxing it would buy nothing measurable.
#![allow(clippy::result_large_err)]

mod arg0;
mod catalog;
mod cli;
mod dialects;
mod dispatch;
#[cfg(test)]
mod edit_props;
#[cfg(test)]
mod fuzz;
mod integration;
#[cfg(test)]
mod layers;
mod panic_hook;

// The layers below are crates of their own (crates/), bound here under the module names this
// crate's code knows them by.
use loopr_control as control;
use loopr_core::{
    context, envelope, error, exit_status, input, policy, sandbox, shell, state, tool,
};
use loopr_tools as tools;

#[doc(hidden)]
pub use exit_status::ExitStatus;

/// The binary's whole life after its entry: the panic hook, the hidden entry points (arg0.rs),
/// then the command line. The status becomes a number only in the caller (src/main.rs).
#[doc(hidden)]
pub fn run_main() -> ExitStatus {
    panic_hook::install_panic_hook();
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(status) = arg0::dispatch(&args) {
        return status;
    }
    cli::run(args)
}
