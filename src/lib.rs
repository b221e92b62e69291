//! loopr-tool: file, search, web and shell tools for LLM coding agents.
//! Each subcommand takes one JSON object on stdin and prints one JSON object on stdout; the
//! binary (src/main.rs) is a thin layer over this library.

// ToolError is large (message, hint, extra fields), but it is built at most once per process,
// on the way out: boxing it would buy nothing measurable.
#![allow(clippy::result_large_err)]

mod catalog;
mod cli;
mod dialects;
mod dispatch;
#[cfg(test)]
mod edit_props;
#[cfg(test)]
mod fuzz;
mod generate;
mod integration;
#[cfg(test)]
mod layers;

// The layers below are crates of their own (crates/), bound here under the module names this
// crate's code knows them by.
use loopr_control as control;
use loopr_core::{context, envelope, error, input, policy, sandbox, shell, state, tool};
use loopr_tools as tools;

/// The binary's whole life after its entry: the panic hook, then the command line.
#[doc(hidden)]
pub fn run_main() -> i32 {
    integration::panic::install_hook();
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    cli::run(args)
}
