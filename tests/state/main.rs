//! What persists between calls: the state store and session, state the tools cannot forge,
//! todo, loops that work together, and faults at each step of a change.

mod faults;
mod hub;
mod hub_redis;
mod loops;
mod state;
mod state_forgery;
mod state_never_a_path;
mod todo;
