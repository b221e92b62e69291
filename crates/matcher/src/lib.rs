//! loopr-tool's edit matcher (SPEC §7, 16.5, 22.5): where an edit lands. A short ladder of ever
//! looser but unambiguous comparisons (exact, line endings, trailing space, indentation, escapes,
//! line-number prefixes …), the closest near-miss when nothing matches, the file decoded and
//! encoded back with every other byte kept, and the diffs reported.
//!
//! An engine: plain text in, plans out, no files, no context. The `edit` and `apply_patch` tools
//! (a layer above) read, lock and write; this crate decides what changes.

pub mod apply;
pub mod by_lines;
pub mod closest;
pub mod diff;
pub mod encode;
pub mod indent;
pub mod line_rungs;
pub mod lines;
pub mod matching;
pub mod rescue;
pub mod within;
