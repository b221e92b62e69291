//! The registry: every tool, once. The CLI, and later `schema`, `call`, `batch` and `mcp`,
//! dispatch through `TOOLS`; adding a tool is one module and one line here.

use crate::tool::DynTool;

pub mod edit;
pub mod read;
pub mod session;
pub mod todo;
pub mod write;

pub static TOOLS: &[&dyn DynTool] = &[
    &read::Read,
    &write::Write,
    &edit::Edit,
    &session::Session,
    &todo::Todo,
];

pub fn find(name: &str) -> Option<&'static dyn DynTool> {
    TOOLS.iter().copied().find(|t| t.name() == name)
}
