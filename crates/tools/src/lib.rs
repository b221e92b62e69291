//! loopr-tool's tools, one module each, and the registry: every tool, once. The CLI, `schema`,
//! `call`, `batch` and `mcp` all dispatch through `TOOLS`; adding a tool is one module and one
//! line here.
//!
//! A crate of its own, above the core and the engines and below the catalog, the dialects and
//! the call pipeline (loopr-tool), so a tool cannot reach up into dispatch or the catalog.

// ToolError is large (message, hint, extra fields), but it is built at most once per call, on
// the way out: boxing it would buy nothing measurable.
#![allow(clippy::result_large_err)]

use crate::tool::DynTool;

// The layers below, under the module names the tools know them by.
use loopr_control as control;
use loopr_core::{
    caps, change, context, envelope, error, fault, fsx, hub, input, journal, offered, policy,
    reads, sandbox, shell, state, tool, walk, web,
};
use loopr_text as text;

pub mod apply_patch;
pub mod command;
pub mod delete;
pub mod edit;
pub mod fetch;
pub mod glob;
pub mod grep;
pub mod jobs;
pub mod loops;
pub mod map;
pub mod mkdir;
pub mod move_file;
pub mod notebook_edit;
pub mod permissions;
pub mod read;
pub mod rewrite;
pub mod run;
pub mod search;
pub mod session;
pub mod stat;
pub mod structural;
pub mod symbols;
pub mod syntax_check;
pub mod todo;
pub mod tree;
pub mod undo;
pub mod write;

pub static TOOLS: &[&dyn DynTool] = &[
    &read::Read,
    &write::Write,
    &edit::Edit,
    &apply_patch::ApplyPatch,
    &move_file::Move,
    &delete::Delete,
    &mkdir::Mkdir,
    &notebook_edit::NotebookEdit,
    &stat::Stat,
    &glob::Glob,
    &grep::Grep,
    &tree::Tree,
    &symbols::Symbols,
    &map::Map,
    &rewrite::Rewrite,
    &fetch::Fetch,
    &search::Search,
    &run::Run,
    &jobs::Jobs,
    &todo::Todo,
    &session::Session,
    &undo::Undo,
    &loops::complete_task::CompleteTask,
    &loops::share::Share,
    &loops::query::Query,
    &loops::inbox::Inbox,
    &loops::artifacts::CreatePlan,
    &loops::artifacts::CreateSpec,
    &loops::artifacts::CreatePhase,
    &loops::artifact::Artifact,
    &loops::ask_user::AskUser,
    &permissions::Permissions,
];

/// Tools registered through the library (SPEC 30.1), by the number `register` gave each: a
/// `Toolbox`'s policy names the ones it offers (policy::Extra). Append-only: a registered tool
/// lives as long as the process, as ours do.
static REGISTERED: std::sync::RwLock<Vec<&'static dyn DynTool>> =
    std::sync::RwLock::new(Vec::new());

/// Adds a library user's tool to the table; returns its number.
pub fn register(tool: &'static dyn DynTool) -> usize {
    let mut table = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    table.push(tool);
    table.len() - 1
}

/// The registered tool numbered `id`.
pub fn registered(id: usize) -> Option<&'static dyn DynTool> {
    let table = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    table.get(id).copied()
}

pub fn find(name: &str) -> Option<&'static dyn DynTool> {
    TOOLS.iter().copied().find(|t| t.name() == name)
}
