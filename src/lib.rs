//! loopr-tool: file, search, web and shell tools for LLM coding agents.
//! Each subcommand takes one JSON object on stdin and prints one JSON object on stdout; the
//! binary (src/main.rs) is a thin layer over this library.

// ToolError is large (message, hint, extra fields), but it is built at most once per process,
// on the way out: boxing it would buy nothing measurable.
#![allow(clippy::result_large_err)]

mod arg0;
mod caps;
mod catalog;
mod change;
mod cli;
mod context;
mod control;
mod dialects;
mod dispatch;
mod envelope;
mod error;
mod exit_status;
mod fault;
mod fsx;
#[cfg(test)]
mod fuzz;
mod input;
mod integration;
mod journal;
mod panic_hook;
mod reads;
mod sandbox;
mod state;
mod tool;
mod tools;
mod walk;
mod web;

// Engines are crates of their own (crates/); their old module paths stay valid.
use loopr_text as text;

#[doc(hidden)]
pub use exit_status::ExitStatus;
pub(crate) use panic_hook::{install_panic_hook, isolate_panics, set_panic_context};

/// The binary's whole life after its entry: the panic hook, the hidden entry points (arg0.rs),
/// then the command line. The status becomes a number only in the caller (src/main.rs).
#[doc(hidden)]
pub fn run_main() -> ExitStatus {
    install_panic_hook();
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(status) = arg0::dispatch(&args) {
        return status;
    }
    cli::run(args)
}
