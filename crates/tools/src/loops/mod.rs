//! Loops that work together (SPEC 20): sessions of one root are the loops, and the state dir is
//! where they meet. complete_task records that a loop is done; share, query and inbox carry
//! messages between loops; create_plan, create_spec, create_phase and artifact hand structured
//! results over. The stores behind them are in `store`; a query's wait is in `wait`.

pub mod artifact;
pub mod artifacts;
pub mod ask_user;
pub mod complete_task;
pub mod inbox;
pub mod query;
pub mod redis;
pub mod render;
pub mod share;
pub mod store;
pub mod wait;

use crate::context::{SESSION_ID, valid_session};
use crate::error::{Result, ToolError};

/// A session id given in `field` (SPEC 24.4): anything else is invalid_input naming the field.
pub fn check_session(field: &str, s: &str) -> Result<()> {
    if valid_session(s) {
        return Ok(());
    }
    Err(ToolError::invalid(
        field,
        format!("{field} is {s:?}, not a session id: {SESSION_ID}"),
    )
    .hint("Name the loop by its session id, as it was started with --session (LOOPR_SESSION)."))
}
