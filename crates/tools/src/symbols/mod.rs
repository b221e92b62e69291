//! `symbols` (SPEC 26.2, 26.7): the outline of files, and where a name is defined or used, from
//! tree-sitter syntax trees (the `syntax` engine): no language server, no setup. Everything is
//! by name — `data.syntactic` says so — and never a guess: several definitions are all shown.

pub mod aliases;
pub mod cache;
pub mod files;
mod find;
mod outline;

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::tool::{Hints, Tool};
use files::Skipped;
use loopr_syntax::tags::Kind;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

pub struct Symbols;

pub const MAX_PATHS: usize = 100;

#[derive(Debug, Deserialize, JsonSchema, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    #[default]
    Outline,
    Definition,
    References,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// A file (or directory) to outline; for definition/references, the file the question is
    /// asked from (its definitions rank first; it does not limit the search: `scope` does).
    #[serde(alias = "file_path")]
    pub path: Option<String>,
    /// Several paths (up to 100) instead of `path`.
    #[schemars(length(min = 1, max = 100))]
    pub paths: Option<Vec<String>>,
    /// `outline` (default): each definition with its lines and signature; `definition`: where
    /// `name` is defined; `references`: where `name` is used.
    #[schemars(extend("default" = "outline"))]
    pub action: Option<Action>,
    /// For definition/references: an identifier, or a qualified `Type::method` / `Class.method`.
    pub name: Option<String>,
    /// For definition/references: a directory or a glob ("src/**/*.py") to search; default the
    /// root.
    pub scope: Option<String>,
    /// Only these kinds of definition.
    pub kinds: Option<Vec<Kind>>,
    /// Outline: nesting levels shown (1 = top-level definitions only); default all.
    #[schemars(range(min = 1))]
    pub depth: Option<u64>,
    /// The most definitions or references shown (default 100).
    #[schemars(range(min = 1), extend("default" = 100))]
    pub limit: Option<u64>,
}

impl Tool for Symbols {
    type Input = Input;
    const NAME: &'static str = "symbols";
    const SUMMARY: &'static str =
        "Outline a file, or find where a name is defined or used (syntax trees, no server)";
    const DESCRIPTION: &'static str = "Code intelligence from syntax trees (tree-sitter; Rust, Python, JavaScript, TypeScript/TSX, Go, Java, C, C++ built in): no language server to install, answers in milliseconds, by name rather than by type. \
`action`: `outline` (default) lists the definitions of `path` (a file or a directory) or `paths` — functions, methods, classes, structs, enums, traits, interfaces, types, module- and class-level constants and variables, modules, macros — each with its lines, parent and signature, indented by nesting (`depth` limits the nesting, `kinds` the kinds). \
`definition` finds every definition of `name` (an identifier, or qualified: `Type::method` in Rust/C++, `Class.method` elsewhere) under `scope` (a directory or glob; default the root), ranked: the file given as `path` first, then its directory, then by path. \
`references` lists every use of `name` as an identifier (never in strings or comments), grouped by file, definitions marked; matches are by name, so same-named members of different types are not told apart and macros or dynamic calls may hide some. \
Files in other languages are skipped (named ones with a note in `data.skipped`), as are files over 4 MiB. `limit` (default 100) caps what is shown.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const HINTS: Hints = Hints::READ_ONLY;
    const EXAMPLES: &'static str = "  loopr-tool symbols src/main.rs --format text\n  echo '{\"action\": \"definition\", \"name\": \"Parser.parse\"}' | loopr-tool symbols";

    fn read_only(_: &Input) -> bool {
        true
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let action = input.action.unwrap_or_default();
        let paths = paths(&input, action)?;
        let kinds = input.kinds.as_deref();
        if input.limit == Some(0) {
            return Err(ToolError::invalid("limit", "limit must be at least 1"));
        }
        let limit = input.limit.unwrap_or(100) as usize;
        match action {
            Action::Outline => {
                for field in ["name", "scope"] {
                    let given = match field {
                        "name" => input.name.is_some(),
                        _ => input.scope.is_some(),
                    };
                    if given {
                        return Err(ToolError::invalid(
                            field,
                            format!(
                                "`{field}` is for action definition or references, not outline"
                            ),
                        ));
                    }
                }
                let depth = match input.depth {
                    Some(0) => return Err(ToolError::invalid("depth", "depth must be at least 1")),
                    Some(d) => d as usize,
                    None => usize::MAX,
                };
                outline::run(ctx, &paths, kinds, depth, limit)
            }
            Action::Definition | Action::References => {
                if input.depth.is_some() {
                    return Err(ToolError::invalid("depth", "`depth` is for action outline"));
                }
                let name = Name::parse(input.name.as_deref())?;
                let q = find::Query {
                    name: &name,
                    context: &paths,
                    scope: input.scope.as_deref(),
                    kinds,
                    limit,
                };
                if action == Action::Definition {
                    find::definitions(ctx, &q)
                } else {
                    find::references(ctx, &q)
                }
            }
        }
    }
}

/// `path` or `paths`, as the action needs them.
fn paths(input: &Input, action: Action) -> Result<Vec<String>> {
    match (&input.path, &input.paths) {
        (Some(_), Some(_)) => Err(ToolError::invalid(
            "paths",
            "give either path or paths, not both",
        )),
        (Some(p), None) => Ok(vec![p.clone()]),
        (None, Some(ps)) if ps.is_empty() || ps.len() > MAX_PATHS => Err(ToolError::invalid(
            "paths",
            format!("paths holds {} entries; give 1 to {MAX_PATHS}", ps.len()),
        )),
        (None, Some(ps)) => Ok(ps.clone()),
        (None, None) if action == Action::Outline => Err(ToolError::invalid(
            "path",
            "symbols: outline needs `path` (a file or directory) or `paths`",
        )),
        (None, None) => Ok(vec![]),
    }
}

/// A name asked for: the identifier and the qualifier before it (`Type` of `Type::method`).
pub struct Name {
    pub given: String,
    pub ident: String,
    pub qualifier: Option<String>,
}

impl Name {
    pub fn parse(given: Option<&str>) -> Result<Name> {
        let Some(given) = given.map(str::trim).filter(|s| !s.is_empty()) else {
            return Err(ToolError::invalid(
                "name",
                "definition and references need `name`: an identifier, or `Type::method` / `Class.method`",
            ));
        };
        let normal = given.replace("::", ".");
        let (qualifier, ident) = match normal.rsplit_once('.') {
            Some((q, i)) => (Some(q.to_string()), i.to_string()),
            None => (None, normal.clone()),
        };
        let valid = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '~')
        };
        if !valid(&ident)
            || qualifier
                .as_deref()
                .is_some_and(|q| !q.split('.').all(valid))
        {
            return Err(ToolError::invalid(
                "name",
                format!(
                    "{given:?} is not an identifier or a qualified name like Type::method or Class.method"
                ),
            ));
        }
        Ok(Name {
            given: given.to_string(),
            ident,
            qualifier,
        })
    }

    /// Whether a definition named `name` under `parent` is this name.
    pub fn matches(&self, name: &str, parent: Option<&str>) -> bool {
        if name != self.ident {
            return false;
        }
        match (&self.qualifier, parent) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(q), Some(p)) => {
                let p = p.replace("::", ".");
                p == *q || p.ends_with(&format!(".{q}"))
            }
        }
    }
}

/// The skipped files as data and as lines for `output`.
fn skipped(list: &[Skipped]) -> (Value, Vec<String>) {
    let data = list
        .iter()
        .map(|s| json!({"path": s.path, "reason": s.reason}))
        .collect();
    let lines = list
        .iter()
        .map(|s| format!("(skipped {}: {})", s.path, s.reason))
        .collect();
    (Value::Array(data), lines)
}

/// A source line for output, cut at 300 characters.
fn show_line(s: &str) -> String {
    let t = s.trim_end();
    match t.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}
