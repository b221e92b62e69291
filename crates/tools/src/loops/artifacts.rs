//! `create_plan`, `create_spec`, `create_phase` (SPEC 20.3, 24.4): a planning loop hands its
//! result over as structured data, so no loop parses another's Markdown.
//!
//! Each input is seed 001's schema (plus `name` for a plan and `replace`); what a schema cannot
//! say is checked here, every violation naming its JSON path (`specs[2].dependencies[0]`):
//! names are unique slugs, a plan's dependencies name specs of that plan and form no cycle (the
//! cycle is spelled out), a phase's files are inside the root. The artifact is stored as JSON in
//! the session's state and returned as `data`; `output` renders it as short Markdown.

use super::render;
use super::store;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::state;
use crate::tool::{Effect, Hints, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;

/// What the artifact tools promise a client: they change only the session's own state.
const HINTS: Hints = Hints {
    read_only: false,
    destructive: false,
    idempotent: false,
    open_world: false,
};

/// The longest name (a file name in the state dir, and what a harness keys on).
const NAME_MAX: usize = 64;

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanSpec {
    /// The spec's slug (`[a-z0-9][a-z0-9-]*`), unique in the plan; `create_spec` takes it.
    #[schemars(length(min = 1, max = 64))]
    pub name: String,
    #[schemars(length(min = 1))]
    pub title: String,
    #[schemars(length(min = 1))]
    pub description: String,
    /// Names of specs of this plan that must be done first (no cycles).
    #[serde(default)]
    pub dependencies: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanInput {
    /// The plan's slug; default: the title as a slug (lowercase, other characters as `-`).
    #[schemars(length(min = 1, max = 64))]
    pub name: Option<String>,
    #[schemars(length(min = 1))]
    pub title: String,
    /// What the plan achieves and how, in a few sentences.
    #[schemars(length(min = 1))]
    pub overview: String,
    /// The specs, in order: {name, title, description, dependencies?}.
    #[schemars(length(min = 1))]
    pub specs: Vec<PlanSpec>,
    /// Overwrite an existing plan of this name (otherwise that is invalid_input).
    #[schemars(extend("default" = false))]
    pub replace: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecPhase {
    /// The phase's slug, unique in the spec; `create_phase` takes it.
    #[schemars(length(min = 1, max = 64))]
    pub name: String,
    #[schemars(length(min = 1))]
    pub title: String,
    #[schemars(length(min = 1))]
    pub description: String,
    /// How to tell the phase is done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecInput {
    /// The spec's slug (as in the plan's `specs[].name`).
    #[schemars(length(min = 1, max = 64))]
    pub name: String,
    #[schemars(length(min = 1))]
    pub title: String,
    #[schemars(length(min = 1))]
    pub overview: String,
    /// 3 to 7 phases, in order: {name, title, description, validation?}.
    #[schemars(length(min = 3, max = 7))]
    pub phases: Vec<SpecPhase>,
    /// Overwrite an existing spec of this name (otherwise that is invalid_input).
    #[schemars(extend("default" = false))]
    pub replace: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FileAction {
    Create,
    Modify,
    Delete,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseTask {
    #[schemars(length(min = 1))]
    pub description: String,
    /// The file the task touches, inside the root (stored relative to it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// `create`, `modify` or `delete` (needs `file`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<FileAction>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseInput {
    /// The phase's slug (as in the spec's `phases[].name`).
    #[schemars(length(min = 1, max = 64))]
    pub name: String,
    #[schemars(length(min = 1))]
    pub title: String,
    #[schemars(length(min = 1))]
    pub objective: String,
    /// The tasks, in order: {description, file?, action?}.
    #[schemars(length(min = 1))]
    pub tasks: Vec<PhaseTask>,
    /// The shell command that tells whether the phase is done (`cargo test -p parser`).
    #[schemars(length(min = 1))]
    pub validation_command: String,
    /// Overwrite an existing phase of this name (otherwise that is invalid_input).
    #[schemars(extend("default" = false))]
    pub replace: Option<bool>,
}

pub struct CreatePlan;
pub struct CreateSpec;
pub struct CreatePhase;

impl Tool for CreatePlan {
    type Input = PlanInput;
    const NAME: &'static str = "create_plan";
    const SUMMARY: &'static str = "Hand over a plan: its specs and their dependencies";
    const DESCRIPTION: &'static str = concat!(
        "Records the plan of a planning loop as structured data: title, overview, and its specs [{name, title, description, dependencies?}] in order. \
Names are slugs ([a-z0-9][a-z0-9-]*, at most 64 characters), unique in the plan; dependencies name other specs of the plan and must form no cycle. \
name defaults to the title as a slug. ",
        "Stored in this session's state (another session reads it with `artifact` and `session`); \
re-creating an existing name is invalid_input unless replace is true. Every problem is invalid_input naming its JSON path; a failed call stores nothing. \
data is the artifact as stored {kind, name, ..., created_at}; output renders it as Markdown."
    );
    const HINTS: Hints = HINTS;
    const EXAMPLES: &'static str = "  echo '{\"title\": \"Parser\", \"overview\": \"...\", \"specs\": [{\"name\": \"lexer\", \"title\": \"Lexer\", \"description\": \"...\"}]}' | loopr-tool create_plan";

    fn read_only(_: &PlanInput) -> bool {
        false
    }

    fn effect(_: &PlanInput) -> Effect {
        Effect::Talks
    }

    fn run(ctx: &Ctx, input: PlanInput) -> Result<Success> {
        let name = match &input.name {
            Some(n) => {
                check_slug("name", n)?;
                n.clone()
            }
            None => {
                let n = slug(&input.title);
                if n.is_empty() {
                    return Err(ToolError::invalid(
                        "title",
                        format!(
                            "create_plan: the title {:?} gives no slug for the plan's name (no letters or digits)",
                            input.title
                        ),
                    )
                    .hint("Pass name, a slug such as \"parser-rewrite\"."));
                }
                n
            }
        };
        non_empty("title", &input.title)?;
        non_empty("overview", &input.overview)?;
        if input.specs.is_empty() {
            return Err(ToolError::invalid(
                "specs",
                "create_plan: specs is empty; a plan has at least one spec",
            ));
        }
        let index = named_items(
            ("create_plan", "specs", "spec", "plan"),
            input
                .specs
                .iter()
                .map(|s| (s.name.as_str(), s.title.as_str(), s.description.as_str())),
        )?;
        for (i, s) in input.specs.iter().enumerate() {
            for (j, d) in s.dependencies.iter().enumerate() {
                let at = format!("specs[{i}].dependencies[{j}]");
                if !index.contains_key(d.as_str()) {
                    let names: Vec<&str> = input.specs.iter().map(|s| s.name.as_str()).collect();
                    return Err(ToolError::invalid(
                        &at,
                        format!(
                            "create_plan: {at} names `{d}`, which is no spec of this plan (its specs: {})",
                            names.join(", ")
                        ),
                    ));
                }
                if s.dependencies[..j].contains(d) {
                    return Err(ToolError::invalid(
                        &at,
                        format!("create_plan: {at} lists `{d}` a second time"),
                    ));
                }
            }
        }
        if let Some((cycle, at)) = find_cycle(&input.specs, &index) {
            return Err(ToolError::invalid(
                &at,
                format!(
                    "create_plan: the dependencies form a cycle: {} ({at} closes it)",
                    cycle.join(" → ")
                ),
            )
            .with("cycle", cycle)
            .hint("A spec cannot wait, directly or through others, for itself: drop one dependency of the cycle."));
        }
        let value = serde_json::json!({
            "kind": "plan",
            "name": name,
            "title": input.title,
            "overview": input.overview,
            "specs": input.specs,
            "created_at": state::now(),
        });
        finish(ctx, "plan", &name, value, input.replace.unwrap_or(false))
    }
}

/// Checks a list of named items (a plan's specs, a spec's phases): each name a slug used once,
/// title and description given. `words` are the tool, the list's field, an item and what
/// holds the list, for the messages. Returns each name's index.
fn named_items<'a>(
    (tool, field, item, holder): (&str, &str, &str, &str),
    items: impl Iterator<Item = (&'a str, &'a str, &'a str)>,
) -> Result<HashMap<&'a str, usize>> {
    let mut index = HashMap::new();
    for (i, (name, title, description)) in items.enumerate() {
        let at = format!("{field}[{i}]");
        check_slug(&format!("{at}.name"), name)?;
        if let Some(first) = index.insert(name, i) {
            return Err(ToolError::invalid(
                &format!("{at}.name"),
                format!(
                    "{tool}: {item} name `{name}` is used twice ({field}[{first}] and {at}); names are unique in a {holder}"
                ),
            ));
        }
        non_empty(&format!("{at}.title"), title)?;
        non_empty(&format!("{at}.description"), description)?;
    }
    Ok(index)
}

impl Tool for CreateSpec {
    type Input = SpecInput;
    const NAME: &'static str = "create_spec";
    const SUMMARY: &'static str = "Hand over a spec: 3 to 7 phases";
    const DESCRIPTION: &'static str = concat!(
        "Records one spec of a plan as structured data: name (the plan's specs[].name), title, overview, and 3 to 7 phases [{name, title, description, validation?}] in order. \
Phase names are slugs ([a-z0-9][a-z0-9-]*), unique in the spec. ",
        "Stored in this session's state (another session reads it with `artifact` and `session`); \
re-creating an existing name is invalid_input unless replace is true. Every problem is invalid_input naming its JSON path; a failed call stores nothing. \
data is the artifact as stored {kind, name, ..., created_at}; output renders it as Markdown."
    );
    const HINTS: Hints = HINTS;
    const EXAMPLES: &'static str = "  loopr-tool create_spec < spec.json";

    fn read_only(_: &SpecInput) -> bool {
        false
    }

    fn effect(_: &SpecInput) -> Effect {
        Effect::Talks
    }

    fn run(ctx: &Ctx, input: SpecInput) -> Result<Success> {
        check_slug("name", &input.name)?;
        non_empty("title", &input.title)?;
        non_empty("overview", &input.overview)?;
        let n = input.phases.len();
        if !(3..=7).contains(&n) {
            return Err(ToolError::invalid(
                "phases",
                format!("create_spec: phases has {n} item(s); a spec has 3 to 7 phases"),
            )
            .hint(if n < 3 {
                "Split the work into at least 3 phases."
            } else {
                "Merge phases, or split the spec in two."
            }));
        }
        named_items(
            ("create_spec", "phases", "phase", "spec"),
            input
                .phases
                .iter()
                .map(|p| (p.name.as_str(), p.title.as_str(), p.description.as_str())),
        )?;
        let value = serde_json::json!({
            "kind": "spec",
            "name": input.name,
            "title": input.title,
            "overview": input.overview,
            "phases": input.phases,
            "created_at": state::now(),
        });
        finish(
            ctx,
            "spec",
            &input.name,
            value,
            input.replace.unwrap_or(false),
        )
    }
}

impl Tool for CreatePhase {
    type Input = PhaseInput;
    const NAME: &'static str = "create_phase";
    const SUMMARY: &'static str = "Hand over a phase: its tasks and validation command";
    const DESCRIPTION: &'static str = concat!(
        "Records one phase of a spec as structured data: name (the spec's phases[].name), title, objective, tasks [{description, file?, action?: create|modify|delete}] in order, and the validation_command that tells whether the phase is done. \
A task's file must be inside the root (it is stored relative to it); action needs file. ",
        "Stored in this session's state (another session reads it with `artifact` and `session`); \
re-creating an existing name is invalid_input unless replace is true. Every problem is invalid_input naming its JSON path; a failed call stores nothing. \
data is the artifact as stored {kind, name, ..., created_at}; output renders it as Markdown."
    );
    const HINTS: Hints = HINTS;
    const EXAMPLES: &'static str = "  loopr-tool create_phase < phase.json";

    fn read_only(_: &PhaseInput) -> bool {
        false
    }

    fn effect(_: &PhaseInput) -> Effect {
        Effect::Talks
    }

    fn run(ctx: &Ctx, mut input: PhaseInput) -> Result<Success> {
        check_slug("name", &input.name)?;
        non_empty("title", &input.title)?;
        non_empty("objective", &input.objective)?;
        non_empty("validation_command", &input.validation_command)?;
        if input.tasks.is_empty() {
            return Err(ToolError::invalid(
                "tasks",
                "create_phase: tasks is empty; a phase has at least one task",
            ));
        }
        for (i, t) in input.tasks.iter_mut().enumerate() {
            let at = format!("tasks[{i}]");
            non_empty(&format!("{at}.description"), &t.description)?;
            match &t.file {
                Some(f) => t.file = Some(inside_root(ctx, &format!("{at}.file"), f)?),
                None if t.action.is_some() => {
                    return Err(ToolError::invalid(
                        &format!("{at}.action"),
                        format!(
                            "create_phase: {at}.action needs {at}.file: which file is to be created, modified or deleted?"
                        ),
                    ));
                }
                None => {}
            }
        }
        let value = serde_json::json!({
            "kind": "phase",
            "name": input.name,
            "title": input.title,
            "objective": input.objective,
            "tasks": input.tasks,
            "validation_command": input.validation_command,
            "created_at": state::now(),
        });
        finish(
            ctx,
            "phase",
            &input.name,
            value,
            input.replace.unwrap_or(false),
        )
    }
}

fn finish(ctx: &Ctx, kind: &str, name: &str, value: Value, replace: bool) -> Result<Success> {
    let replaced = store::save_artifact(ctx, kind, name, &value, replace)?;
    let verb = if replaced { "Replaced" } else { "Created" };
    let output = format!(
        "{verb} {kind} `{name}` in session {}.\n\n{}",
        ctx.session,
        render::markdown(&value)
    );
    let (output, _) = render::cap(&output, "data holds the whole artifact");
    Ok(Success::new(output, value))
}

/// A slug as SPEC 20.3 defines it.
pub fn is_slug(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= NAME_MAX
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

pub fn check_slug(field: &str, s: &str) -> Result<()> {
    if is_slug(s) {
        return Ok(());
    }
    let suggestion = slug(s);
    let mut err = ToolError::invalid(
        field,
        format!(
            "{field} is {s:?}, not a slug: lowercase letters, digits and `-`, starting with a letter or digit, at most {NAME_MAX} characters"
        ),
    );
    if !suggestion.is_empty() {
        err = err.hint(format!("For example {suggestion:?}."));
    }
    Err(err)
}

/// The title as a slug (SPEC 24.4): lowercase, runs of other characters as one `-`, no `-` at
/// either end, at most 64 characters.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.truncate(NAME_MAX);
    out.trim_end_matches('-').to_string()
}

fn non_empty(field: &str, s: &str) -> Result<()> {
    if s.trim().is_empty() {
        return Err(ToolError::invalid(
            field,
            format!("{field} is empty; write something there"),
        ));
    }
    Ok(())
}

/// A task's file, inside the root: returned as shown relative to it. Whatever the sandbox
/// refuses (outside, the state dir, a NUL) is invalid_input naming the task's field.
fn inside_root(ctx: &Ctx, field: &str, given: &str) -> Result<String> {
    match crate::sandbox::resolve(ctx, field, given) {
        Ok(r) => Ok(r.shown),
        Err(e) if e.code == Code::InvalidInput => Err(e),
        Err(e) => Err(ToolError::invalid(
            field,
            format!(
                "{field} is {given:?}, which is not a path inside the root: {}",
                e.message
            ),
        )
        .with("path", given)
        .hint("Name the file relative to the root, e.g. \"src/parser.rs\".")),
    }
}

/// The first cycle among the specs' dependencies, as names (`a → b → a`) and the JSON path of
/// the dependency that closes it. Iterative depth-first search in input order, so the answer
/// does not depend on hashing and no plan is too deep for the stack.
fn find_cycle(specs: &[PlanSpec], index: &HashMap<&str, usize>) -> Option<(Vec<String>, String)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let mut mark = vec![Mark::New; specs.len()];
    for start in 0..specs.len() {
        if mark[start] != Mark::New {
            continue;
        }
        // (node, next dependency to look at)
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        mark[start] = Mark::OnPath;
        while let Some(&mut (node, ref mut next)) = path.last_mut() {
            let deps = &specs[node].dependencies;
            if *next == deps.len() {
                mark[node] = Mark::Done;
                path.pop();
                continue;
            }
            let j = *next;
            *next += 1;
            let to = index[deps[j].as_str()];
            match mark[to] {
                Mark::Done => {}
                Mark::New => {
                    mark[to] = Mark::OnPath;
                    path.push((to, 0));
                }
                Mark::OnPath => {
                    let from = path
                        .iter()
                        .position(|(n, _)| *n == to)
                        .expect("on the path");
                    let mut names: Vec<String> = path[from..]
                        .iter()
                        .map(|(n, _)| specs[*n].name.clone())
                        .collect();
                    names.push(specs[to].name.clone());
                    return Some((names, format!("specs[{node}].dependencies[{j}]")));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, deps: &[&str]) -> PlanSpec {
        PlanSpec {
            name: name.into(),
            title: "t".into(),
            description: "d".into(),
            dependencies: deps.iter().map(|d| d.to_string()).collect(),
        }
    }

    fn cycle(specs: &[PlanSpec]) -> Option<(Vec<String>, String)> {
        let index = specs
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.as_str(), i))
            .collect();
        find_cycle(specs, &index)
    }

    #[test]
    fn cycles_are_named_with_the_closing_edge() {
        assert_eq!(cycle(&[spec("a", &[]), spec("b", &["a"])]), None);
        let (names, at) =
            cycle(&[spec("a", &["b"]), spec("b", &["c"]), spec("c", &["a"])]).unwrap();
        assert_eq!(names, ["a", "b", "c", "a"]);
        assert_eq!(at, "specs[2].dependencies[0]");
        let (names, at) = cycle(&[spec("x", &[]), spec("s", &["x", "s"])]).unwrap();
        assert_eq!(names, ["s", "s"]);
        assert_eq!(at, "specs[1].dependencies[1]");
        // A diamond is no cycle.
        assert_eq!(
            cycle(&[
                spec("a", &["b", "c"]),
                spec("b", &["d"]),
                spec("c", &["d"]),
                spec("d", &[])
            ]),
            None
        );
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("Parser Rewrite: v2!"), "parser-rewrite-v2");
        assert_eq!(slug("  --Ünïcode  "), "n-code");
        assert_eq!(slug("!!!"), "");
        assert_eq!(slug(&"a".repeat(80)).len(), 64);
        assert!(is_slug("a-1") && is_slug("9"));
        assert!(!is_slug("-a") && !is_slug("A") && !is_slug("a_b") && !is_slug(""));
    }
}
