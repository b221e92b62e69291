//! Files, end to end through the binary: read in all its forms, write, edit and its ladder,
//! apply_patch, notebook_edit, move/delete/mkdir/stat, undo, and the sandbox that holds them to
//! the root (also against a directory swapped while they run).

mod apply_patch;
mod apply_patch_quoted;
mod edit;
mod edit_errors;
mod edit_ladder;
mod edit_large;
mod edit_lines;
mod edit_symbol;
mod files;
mod notebook_edit;
mod race;
mod race_stat;
mod read;
mod read_image;
mod read_indentation;
mod read_many;
mod read_notebook;
mod read_pdf;
mod read_tail;
mod sandbox;
mod syntax_check;
mod undo;
mod write;
