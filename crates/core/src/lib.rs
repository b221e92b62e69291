//! loopr-tool's core: what every tool stands on and nothing above it. The envelope and its
//! errors (`envelope`, `error`), input parsing (`input`), the sandbox (`sandbox`, `fsx`,
//! `walk`), the state dir (`state`, `reads`, `journal`), the change protocol (`change`), the
//! catalog's policy as data (`policy`), the call's context (`context`), the `Tool` trait
//! (`tool`), caps, faults and the web client (`web`).
//!
//! A crate of its own so that the compiler keeps the layer: the tools, the catalog, the
//! dispatch and the CLI are loopr-tool's, above this one, and nothing here can name them.

// ToolError is large (message, hint, extra fields), but it is built at most once per call, on
// the way out: boxing it would buy nothing measurable.
#![allow(clippy::result_large_err)]

pub mod caps;
pub mod change;
pub mod context;
pub mod envelope;
pub mod error;
pub mod exit_status;
pub mod fault;
pub mod fsx;
pub mod hub;
pub mod input;
pub mod journal;
pub mod offered;
pub mod policy;
pub mod reads;
pub mod sandbox;
pub mod shell;
pub mod state;
pub mod tool;
pub mod walk;
pub mod web;

// The engine this layer uses, under the name the modules know it by.
use loopr_control as control;
