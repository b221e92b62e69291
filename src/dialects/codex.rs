//! OpenAI Codex's tools (SPEC 22.6, 24.7), as `codex-rs` defines them.

use super::Agent::Codex;
use super::Alias;

pub static ALIASES: &[Alias] = &[
    // Codex's image viewer: read shows an image as an image (SPEC 22.6).
    Alias::new("view_image", Codex, "read"),
];
