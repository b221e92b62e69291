//! Gemini CLI's tools (SPEC 22.7, 24.7), as `@google/gemini-cli-core` defines them.

use super::Agent::Gemini;
use super::Alias;

pub static ALIASES: &[Alias] = &[Alias::new("google_web_search", Gemini, "search")];
