//! The integration commands: schema, call, batch and the harness shapes they take, and recorded
//! agent sessions replayed.

mod call_shapes;
mod integration;
mod schema;
mod transcripts;
