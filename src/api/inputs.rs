//! Typed inputs for [`Toolbox::call_typed`](crate::Toolbox::call_typed): the structs the tools
//! themselves parse, so a harness that builds calls in Rust gets the compiler's help.
//!
//! `read`, `write`, `edit` and `run` have theirs here (the calls of a coding loop's turn); the
//! other tools are called with JSON through [`Toolbox::call`](crate::Toolbox::call). Every
//! field is documented as the schema a model reads documents it; `None` means "not given".
//!
//! ```
//! use loopr_tool::inputs::{EditInput, ReadInput};
//!
//! let read = ReadInput {
//!     path: Some("src/main.rs".into()),
//!     limit: Some(50),
//!     ..Default::default()
//! };
//! let edit = EditInput {
//!     path: "src/main.rs".into(),
//!     old_string: Some("Hello".into()),
//!     new_string: Some("Goodbye".into()),
//!     ..Default::default()
//! };
//! # let _ = (read, edit);
//! ```

use serde::Serialize;

/// One change of `edit`'s `edits` list.
pub use crate::tools::edit::EditItem;
/// `edit`'s input: a file and the change to make in it.
pub use crate::tools::edit::Input as EditInput;
/// How `read`'s `around_line` chooses its block.
pub use crate::tools::read::Indentation;
/// `read`'s input: a file (or several, or a block around a line) to show with line numbers.
pub use crate::tools::read::Input as ReadInput;
/// `run`'s input: a shell command and how to run it.
pub use crate::tools::run::Input as RunInput;
/// `run`'s `network`.
pub use crate::tools::run::Network;
/// `run`'s `sandbox`: the file-system sandbox the command runs in.
pub use crate::tools::run::confine::Mode as SandboxMode;
/// `run`'s `sandbox_fallback`.
pub use crate::tools::run::isolation::Fallback as SandboxFallback;
/// `write`'s input: a file and its complete new content.
pub use crate::tools::write::Input as WriteInput;

/// An input struct and the tool that takes it: what [`Toolbox::call_typed`] calls.
///
/// Implemented for this module's inputs; a harness may implement it for the input of a tool it
/// registered (a `Serialize` struct with the name it registered under), or for its own struct
/// naming one of ours.
///
/// [`Toolbox::call_typed`]: crate::Toolbox::call_typed
pub trait ToolInput: Serialize {
    /// The name of the tool called.
    const TOOL: &'static str;
}

impl ToolInput for ReadInput {
    const TOOL: &'static str = "read";
}

impl ToolInput for WriteInput {
    const TOOL: &'static str = "write";
}

impl ToolInput for EditInput {
    const TOOL: &'static str = "edit";
}

impl ToolInput for RunInput {
    const TOOL: &'static str = "run";
}
