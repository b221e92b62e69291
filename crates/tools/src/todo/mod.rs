//! `todo` (SPEC §12, 16.8): the session's task list, in both styles — Claude Code's TodoWrite
//! (`write` replaces the whole list) and incremental actions (`add`, `start`, `complete`, …).
//!
//! The list lives in the session's `todos.json` (`{next_id, items}`; `session show` counts
//! `items[].status`). Every change is one load→modify→save under the session's state lock, and
//! every check runs before the save, so a failed call leaves the file exactly as it was.

mod list;
mod validate;

use crate::caps;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::Result;
use crate::session::TODOS_FILE;
use crate::state::{self, StateLock};
use crate::tool::{Effect, Tool};
use list::{Item, TodoList, apply};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};
use std::borrow::Cow;
use validate::{Change, validate};

pub struct Todo;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
// No doc comments on the variants: schemars would then emit `oneOf` consts instead of `enum`,
// and the CLI reads only `enum` as a string flag with choices (`todo add` would not parse).
pub enum Action {
    #[default]
    List,
    Write,
    Add,
    Start,
    Complete,
    Update,
    Remove,
    Clear,
}

/// Each action's name and the fields it reads, in `Action`'s order. Any other field given is
/// `invalid_input` (16.8), so a model never believes a field did something it did not.
const ACTIONS: [(Action, &str, &[&str]); 8] = [
    (Action::List, "list", &[]),
    (Action::Write, "write", &["todos"]),
    (Action::Add, "add", &["content", "items", "task"]),
    (Action::Start, "start", &["id", "active_form"]),
    (Action::Complete, "complete", &["id", "task"]),
    (
        Action::Update,
        "update",
        &["id", "content", "status", "active_form"],
    ),
    (Action::Remove, "remove", &["id"]),
    (Action::Clear, "clear", &[]),
];

impl Action {
    fn name(self) -> &'static str {
        ACTIONS[self as usize].1
    }

    fn uses(self) -> &'static [&'static str] {
        ACTIONS[self as usize].2
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    InProgress,
    Completed,
}

/// One item of `write`'s list, as TodoWrite sends it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteItem {
    /// What to do, imperative ("Run the tests").
    pub content: String,
    /// `pending`, `in_progress` or `completed`.
    pub status: Status,
    /// The present-continuous form shown while in progress ("Running the tests").
    #[serde(alias = "activeForm")]
    pub active_form: Option<String>,
    // Older TodoWrite items carry these; accepted so such calls work, ignored with a warning,
    // and kept out of the schema (16.10: foreign fields are never listed).
    #[schemars(skip)]
    pub id: Option<Value>,
    #[schemars(skip)]
    pub priority: Option<Value>,
}

/// `task`: the content for `add`, the id for `complete` (16.10's seed-style field).
#[derive(Debug, Clone)]
pub enum TaskRef {
    Id(u64),
    Text(String),
}

impl<'de> Deserialize<'de> for TaskRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(TaskRef::Text(s)),
            Value::Number(n) => n.as_u64().map(TaskRef::Id).ok_or_else(|| {
                serde::de::Error::custom(format!("{n} is not an item id (a positive integer)"))
            }),
            other => Err(serde::de::Error::custom(format!(
                "expected a string or an integer, not {other}"
            ))),
        }
    }
}

// Declared `["string", "integer"]` with string first: the CLI then passes `--task` text as is.
impl JsonSchema for TaskRef {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "TaskRef".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": ["string", "integer"]})
    }
}

/// Which fields each action takes is enforced at run time (SPEC 16.9: one flat schema).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// `list` (default), `write` (todos), `add` (content or items), `start` (id), `complete`
    /// (id), `update` (id and any of content, status, active_form), `remove` (id), `clear`.
    #[schemars(extend("default" = "list"))]
    pub action: Option<Action>,
    /// write: the whole new list, `[{content, status, active_form?}]`. An item whose content
    /// equals an existing item's keeps that item's id. Two items `in_progress` is invalid_input,
    /// the rule `start` enforces: it is about the list, not about how the list was sent.
    pub todos: Option<Vec<WriteItem>>,
    /// add: the new item's text; update: the replacement text.
    pub content: Option<String>,
    /// add: several new items at once, in order.
    pub items: Option<Vec<String>>,
    /// start, complete, update, remove: the item's id (the number shown as `N.`).
    #[schemars(range(min = 1))]
    pub id: Option<u64>,
    /// update: `pending`, `in_progress` or `completed`.
    pub status: Option<Status>,
    /// start, update: the present-continuous form shown while in progress ("Fixing the
    /// parser"); an empty string clears it.
    #[serde(alias = "activeForm")]
    pub active_form: Option<String>,
    /// Seed-style shorthand: the content for add, the id for complete.
    pub task: Option<TaskRef>,
}

impl Input {
    /// The fields present, in declaration order.
    fn given(&self) -> Vec<&'static str> {
        [
            ("todos", self.todos.is_some()),
            ("content", self.content.is_some()),
            ("items", self.items.is_some()),
            ("id", self.id.is_some()),
            ("status", self.status.is_some()),
            ("active_form", self.active_form.is_some()),
            ("task", self.task.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, set)| set.then_some(name))
        .collect()
    }
}

impl Tool for Todo {
    type Input = Input;
    const NAME: &'static str = "todo";
    const SUMMARY: &'static str = "Keep this session's todo list (TodoWrite-style or step by step)";
    const DESCRIPTION: &'static str = "Todo list: a task list kept per session, for planning multi-step work and showing progress. \
Either replace the whole list at once (`write` with `todos`, Claude Code's TodoWrite: items {content, status, active_form}), \
or change it step by step: `add` (content, or items for several), `start` (id), `complete` (id), `update` (id with content, status or active_form), `remove` (id), `clear`. `list` (the default) shows it. \
Every action answers with the whole list, one line per item by id: `[ ] 3. Run tests` pending, `[>] 2. Fix the parser (Fixing the parser)` in progress, `[x] 1. Read the config` completed, then `N/M completed`. \
Ids are positive integers, never reused. At most one item may be in progress: complete it before starting another. \
Mark an item in progress before working on it and completed as soon as it is done. A failed call changes nothing. \
data: todos [{id, content, status, active_form?, created_at, updated_at}], counts {pending, in_progress, completed}, and for add the new ids (added).";
    const POSITIONALS: &'static [&'static str] = &["action"];
    const EXAMPLES: &'static str = "  echo '{\"action\": \"write\", \"todos\": [{\"content\": \"Run tests\", \"status\": \"pending\"}]}' | loopr-tool todo\n  loopr-tool todo add --content 'Run tests'\n  loopr-tool todo complete --id 2";

    fn read_only(input: &Input) -> bool {
        input.action.unwrap_or_default() == Action::List
    }

    fn effect(input: &Input) -> Effect {
        // A change to the list is kept in order, but it changes no file a read could see.
        if Self::read_only(input) {
            Effect::Reads
        } else {
            Effect::Commands
        }
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        run_as(ctx, input, false)
    }
}

/// Claude Code's TodoWrite (SPEC 22.5, 24.7): a list with several items `in_progress` is taken,
/// with a warning; the one-in-progress rule then binds only the changes later calls make.
pub fn write_allowing_several(ctx: &Ctx, input: Input) -> Result<Success> {
    run_as(ctx, input, true)
}

fn run_as(ctx: &Ctx, input: Input, several: bool) -> Result<Success> {
    let action = input.action.unwrap_or_default();
    let change = validate(action, input, several)?;
    if let Some(Change::Write(todos)) = &change {
        let busy = todos
            .iter()
            .filter(|t| t.status == Status::InProgress)
            .count();
        if busy > 1 {
            ctx.warn(format!("{busy} items are in_progress; kept as given (Claude Code's TodoWrite allows it), but later changes may not start another while one is in progress"));
        }
    }
    if let Some(Change::Write(todos)) = &change {
        warn_ignored(ctx, todos);
    }
    let lock = StateLock::acquire(ctx)?;
    let mut list: TodoList = lock.load(TODOS_FILE)?;
    list.sort();
    // A file from before `next_id`, or edited by hand, must still not hand out a used id.
    let floor = list.items.last().map_or(1, |i| i.id + 1);
    list.next_id = list.next_id.max(floor);
    let mut added = Vec::new();
    if let Some(change) = change {
        let before = list.clone();
        apply(&mut list, change, &state::now(), &mut added)?;
        list.sort();
        if list != before {
            lock.save(TODOS_FILE, &list, true)?;
        }
    }
    drop(lock);
    Ok(render(&list, action == Action::Add, &added))
}

/// TodoWrite's item `id` and `priority` have no meaning here: ids are ours, and items are
/// listed by id. Said once per call, naming the items, so the caller knows nothing was honoured.
fn warn_ignored(ctx: &Ctx, todos: &[WriteItem]) {
    let with: Vec<String> = todos
        .iter()
        .enumerate()
        .filter(|(_, t)| t.id.is_some() || t.priority.is_some())
        .map(|(n, _)| format!("todos[{n}]"))
        .collect();
    if !with.is_empty() {
        ctx.warn(format!(
            "todo: item `id` and `priority` are ignored ({}): loopr-tool assigns its own ids and has no priorities",
            with.join(", ")
        ));
    }
}

/// One line per item, ids ascending, one per item even when the content has line breaks
/// (so the cap cuts whole items), and the count as the last line.
fn render(list: &TodoList, is_add: bool, added: &[u64]) -> Success {
    let mut counts = [0usize; 3];
    for item in &list.items {
        counts[item.status as usize] += 1;
    }
    let total = list.items.len();
    let done = counts[Status::Completed as usize];
    let lines: Vec<String> = list.items.iter().map(line).collect();
    let (output, shown) = if total == 0 {
        ("No todos\n".to_string(), 0)
    } else {
        caps::fit(&lines, caps::OTHER, |k| {
            Some(if k < total {
                format!(
                    "{done}/{total} completed ({} more items not shown: output is capped at {} characters; data.todos has them all)",
                    total - k,
                    caps::OTHER
                )
            } else {
                format!("{done}/{total} completed")
            })
        })
    };
    let mut data = json!({
        "todos": list.items,
        "counts": {
            "pending": counts[Status::Pending as usize],
            "in_progress": counts[Status::InProgress as usize],
            "completed": done,
        },
        "truncated": shown < total,
    });
    if is_add {
        data["added"] = json!(added);
    }
    Success::new(output, data)
}

fn line(item: &Item) -> String {
    let flat = |s: &str| s.split(['\n', '\r']).collect::<Vec<_>>().join(" ");
    let mark = match item.status {
        Status::Pending => "[ ]",
        Status::InProgress => "[>]",
        Status::Completed => "[x]",
    };
    let mut out = format!("{mark} {}. {}", item.id, flat(&item.content));
    if let (Status::InProgress, Some(f)) = (item.status, &item.active_form) {
        out.push_str(&format!(" ({})", flat(f)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_action_table_follows_the_enum_and_serde_names() {
        for (n, (action, name, _)) in ACTIONS.iter().enumerate() {
            assert_eq!(*action as usize, n);
            let parsed: Action = serde_json::from_value(json!(name)).unwrap();
            assert_eq!(parsed, *action);
        }
    }
}
