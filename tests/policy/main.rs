//! The catalog (exposed tools, limits, path rules, hooks, command tools, lanes) and other agents'
//! calls with their meaning (the dialects).

mod carried;
mod catalog;
mod dialects;
mod hook_arguments;
mod named_hints;
mod permissions;
mod seed_names;

use std::path::{Path, PathBuf};
use testkit::{Env, Out, finish};

/// Writes a catalog file beside the env's root (never inside it: a catalog inside the root is
/// used only when named, 19.1) and returns its path.
pub fn catalog(env: &Env, text: &str) -> PathBuf {
    let p = env.dir.path().join("catalog.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// The binary with `--config FILE`, more arguments and `stdin`.
pub fn with(env: &Env, file: &Path, args: &[&str], stdin: &str) -> Out {
    let mut c = env.cmd();
    c.arg("--config")
        .arg(file)
        .args(args)
        .write_stdin(stdin.to_string());
    finish(c)
}

/// One tool call with `--config FILE` and its JSON input.
pub fn call_with(env: &Env, file: &Path, tool: &str, input: serde_json::Value) -> Out {
    with(env, file, &[tool], &input.to_string())
}
