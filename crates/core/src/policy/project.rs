//! The commands behind seed 001's `build`, `test` and `validate` (SPEC 24.3, 24.7): the
//! catalog's `[project]` table, else (build, test) what the root's project files say.

use super::Project;
use std::path::Path;

/// The command a project command tool runs, and where it came from; `None` when nothing says.
pub fn command(kind: &str, project: &Project, root: &Path) -> Option<(String, &'static str)> {
    let set = match kind {
        "build" => &project.build,
        "test" => &project.test,
        "validate" => &project.validate,
        _ => return None,
    };
    if let Some(c) = set {
        return Some((c.clone(), "[project]"));
    }
    if kind == "validate" {
        // Else a phase artifact's validation_command (tools/command.rs).
        return None;
    }
    let has = |f: &str| root.join(f).is_file();
    let test = kind == "test";
    let (cmd, file) = if has("Cargo.toml") {
        (
            if test { "cargo test" } else { "cargo build" },
            "Cargo.toml",
        )
    } else if has("package.json") {
        (
            if test { "npm test" } else { "npm run build" },
            "package.json",
        )
    } else if has("go.mod") {
        (
            if test {
                "go test ./..."
            } else {
                "go build ./..."
            },
            "go.mod",
        )
    } else if test && (has("pyproject.toml") || has("pytest.ini")) {
        ("python3 -m pytest", "pyproject.toml or pytest.ini")
    } else if has("Makefile") {
        (if test { "make test" } else { "make" }, "Makefile")
    } else {
        return None;
    };
    Some((cmd.to_string(), file))
}

/// How to set a command that could not be found (the `invalid_input` hint).
pub fn how_to_set(kind: &str) -> String {
    format!(
        "Set it in the catalog: [project] {kind} = \"...\" (or give [tools.{kind}] a `command`)."
    )
}
