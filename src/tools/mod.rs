//! The registry: every tool, once. The CLI, `schema`, `call`, `batch` and `mcp` all
//! dispatch through `TOOLS`; adding a tool is one module and one line here.

use crate::tool::DynTool;

pub mod edit;
pub mod fetch;
pub mod read;
pub mod run;
pub mod session;
pub mod todo;
pub mod undo;
pub mod write;

pub static TOOLS: &[&dyn DynTool] = &[
    &read::Read,
    &write::Write,
    &edit::Edit,
    &fetch::Fetch,
    &session::Session,
    &todo::Todo,
    &undo::Undo,
];

pub fn find(name: &str) -> Option<&'static dyn DynTool> {
    TOOLS.iter().copied().find(|t| t.name() == name)
}
