//! The web through the binary, against servers the tests start on loopback: fetch and search.

mod fetch;
mod search;
