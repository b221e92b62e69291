//! loopr-tool: file, search, web and shell tools for LLM coding agents.
//!
//! The `loopr-tool` binary takes one JSON object on stdin and prints one JSON object (an
//! envelope) on stdout per tool call. This library is the same tools in-process, for a Rust
//! harness (SPEC 30.1): a [`Toolbox`] built from the settings the binary's global options give,
//! whose [`Toolbox::call`] answers the [`Envelope`] `loopr-tool call` prints for the same call —
//! the same names and aliases, the same catalog, locks and state.
//!
//! A loop's turn: the tools' definitions go to the model, the model answers with a tool call,
//! the envelope's `output` goes back as the tool's result.
//!
//! ```
//! use loopr_tool::Toolbox;
//! use serde_json::json;
//!
//! # let dir = tempfile::tempdir()?;
//! # let (project, state) = (dir.path().join("project"), dir.path().join("state"));
//! # std::fs::create_dir(&project)?;
//! # std::fs::write(project.join("hello.txt"), "Hello, world\n")?;
//! let tools = Toolbox::builder()
//!     .root(&project)
//!     .state_dir(&state)
//!     .session("turn-1")
//!     .build()?;
//!
//! // The definitions go to the model with the conversation (Anthropic's `tools`).
//! let definitions = tools.schema("anthropic");
//! assert!(definitions.as_array().unwrap().iter().any(|d| d["name"] == "read"));
//!
//! // The model answers with a tool_use block...
//! let block = json!({
//!     "type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "hello.txt"}
//! });
//! // ...which runs in-process, exactly as `loopr-tool call` would run it.
//! let envelope = tools.call(block["name"].as_str().unwrap(), block["input"].clone());
//!
//! // `output` is the text written for the model: it goes back as the tool's result.
//! let result = json!({
//!     "type": "tool_result",
//!     "tool_use_id": block["id"],
//!     "content": envelope.output,
//!     "is_error": !envelope.ok,
//! });
//! assert_eq!(result["is_error"], false);
//! assert!(result["content"].as_str().unwrap().contains("Hello, world"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A harness adds its own tools with [`Tool`] and [`ToolboxBuilder::register`]; typed inputs for
//! the core tools are in [`inputs`]. `examples/harness.rs` drives a whole loop.

// ToolError is large (message, hint, extra fields), but it is built at most once per process,
// on the way out: boxing it would buy nothing measurable.
#![allow(clippy::result_large_err)]
// The public surface (api/) is documented item by item; internal modules are private.
#![warn(missing_docs)]

mod api;
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
    context, envelope, error, exit_status, hub, input, offered, policy, sandbox, shell, state, tool,
};
use loopr_tools as tools;

pub use api::envelope::{Envelope, ErrorInfo};
pub use api::error::{Error, Result};
pub use api::inputs::{self, ToolInput};
pub use api::tool::{Ctx, Output, Tool};
pub use api::toolbox::{Toolbox, ToolboxBuilder};

/// For a harness's `main`, before anything else: `run` starts the processes that must outlive
/// a call (its keeper, a background job's supervisor) from this process's own executable with a
/// hidden argument. When this process was started so, this runs that part and exits; otherwise
/// it returns at once. A harness that does not call it names a `loopr-tool` binary with
/// [`ToolboxBuilder::helper`] instead.
///
/// ```no_run
/// // First thing in `main`:
/// loopr_tool::helper_main();
/// // … then the harness.
/// ```
pub fn helper_main() {
    let args: Vec<String> = std::env::args_os()
        .take(3)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(status) = arg0::dispatch(&args) {
        std::process::exit(i32::from(status));
    }
}

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
