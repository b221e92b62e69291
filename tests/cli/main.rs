//! The protocol and the command line: input routes, the envelope, exit codes, global options,
//! what the parser takes besides the plain form, the committed completions and man pages, and the
//! tests' own layout.

mod generated;
mod harnesses;
mod input_forms;
mod protocol;
mod readme;
