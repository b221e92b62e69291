//! The web stack that fetch and search share (SPEC §11, §21): the address policy, the HTTP
//! exchange (ureq + rustls + gzip, no proxies, capped bodies, redirects by hand), what a body is
//! and its charset, and the 15-minute response cache in the state dir. Shared machinery: it
//! knows no tool; each tool words the failures for its own reader.

pub mod cache;
pub mod http;

// The engine (crates/web): the address policy and decoding, under their old paths.
pub use loopr_web::{decode, policy};
