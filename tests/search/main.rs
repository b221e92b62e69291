//! Listing and searching the tree through the binary: glob, grep, tree, and their parity with
//! ripgrep and fd.

mod glob;
mod grep;
mod map;
mod parity;
mod structural;
mod symbols;
mod tree;
