//! The protocol and the command line: input routes, the envelope, exit codes, global options,
//! what the parser takes besides the plain form, and the committed completions and man pages.

mod generated;
mod input_forms;
mod protocol;
