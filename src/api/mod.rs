//! The library's public face (SPEC 30.1): `Toolbox` and its builder, the public `Envelope`, the
//! `Error`, a harness's own `Tool`, and typed inputs. Everything here is a thin layer over the
//! pipeline the binary uses (dispatch, `call`, `batch`, `schema`); nothing here runs a tool
//! differently.

pub mod envelope;
pub mod error;
pub mod inputs;
pub mod tool;
pub mod toolbox;
