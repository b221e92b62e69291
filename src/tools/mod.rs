//! The registry: every tool, once. The CLI, and later `schema`, `call`, `batch` and `mcp`,
//! dispatch through `TOOLS`; adding a tool is one module and one line here.

use crate::tool::DynTool;

pub mod glob;
pub mod grep;
pub mod read;
pub mod session;
pub mod todo;
pub mod tree;
pub mod walk;
pub mod write;

pub static TOOLS: &[&dyn DynTool] = &[
    &read::Read,
    &write::Write,
    &session::Session,
    &todo::Todo,
    &glob::Glob,
    &grep::Grep,
    &tree::Tree,
];

pub fn find(name: &str) -> Option<&'static dyn DynTool> {
    TOOLS.iter().copied().find(|t| t.name() == name)
}
