//! `todo` (SPEC §12, 16.8): the session's task list, in both styles — Claude Code's TodoWrite
//! (`write` replaces the whole list) and incremental actions (`add`, `start`, `complete`, …).
//!
//! The list lives in the session's `todos.json` (`{next_id, items}`; `session show` counts
//! `items[].status`). Every change is one load→modify→save under the session's state lock, and
//! every check runs before the save, so a failed call leaves the file exactly as it was.

use crate::caps;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::state::{self, StateLock};
use crate::tool::{Effect, Tool};
use crate::tools::session::TODOS_FILE;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};
use std::borrow::Cow;

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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub id: u64,
    pub content: String,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_form: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TodoList {
    /// The next id to give. Kept in the file so that ids are never reused, even after
    /// `remove` or `clear` empties the list.
    #[serde(default)]
    pub next_id: u64,
    #[serde(default)]
    pub items: Vec<Item>,
}

impl TodoList {
    /// Appends a new item under a fresh id and returns the id.
    fn push(&mut self, content: String, status: Status, form: Option<String>, now: &str) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let (created_at, updated_at) = (now.to_string(), now.to_string());
        let active_form = form;
        self.items.push(Item {
            id,
            content,
            status,
            active_form,
            created_at,
            updated_at,
        });
        id
    }

    fn find(&self, id: u64) -> Result<usize> {
        self.items
            .iter()
            .position(|i| i.id == id)
            .ok_or_else(|| self.not_found(id))
    }

    fn not_found(&self, id: u64) -> ToolError {
        let why = if id < self.next_id {
            "it was removed"
        } else {
            "no item has had that id yet"
        };
        let mut ids: Vec<String> = self.items.iter().map(|i| i.id.to_string()).collect();
        if ids.len() > 50 {
            ids.truncate(50);
            ids.push("…".into());
        }
        let ids = match ids.is_empty() {
            true => "the list is empty".to_string(),
            false => format!("the ids are {}", ids.join(", ")),
        };
        ToolError::new(
            Code::NotFound,
            format!("todo: there is no item {id} ({why}); {ids}"),
        )
        .with("id", id)
        .hint("Run `todo list` to see the items and their ids (the number before the dot).")
    }

    /// The at-most-one-in-progress rule, for making item `id` in progress; `field` is the
    /// field that asked for it.
    fn check_single_in_progress(&self, id: u64, field: &str) -> Result<()> {
        match self
            .items
            .iter()
            .find(|i| i.status == Status::InProgress && i.id != id)
        {
            None => Ok(()),
            Some(busy) => Err(ToolError::invalid(
                field,
                format!(
                    "todo: item {} ({:?}) is already in progress; only one item may be in progress at a time",
                    busy.id, busy.content
                ),
            )
            .with("in_progress_id", busy.id)
            .hint(format!(
                "Complete it first (`todo complete --id {0}`) or set it back to pending (`todo update --id {0} --status pending`), then start item {id}.",
                busy.id
            ))),
        }
    }

    fn sort(&mut self) {
        self.items.sort_by_key(|i| i.id);
    }
}

impl Tool for Todo {
    type Input = Input;
    const NAME: &'static str = "todo";
    const SUMMARY: &'static str = "Keep this session's todo list (TodoWrite-style or step by step)";
    const DESCRIPTION: &'static str = "A task list kept per session, for planning multi-step work and showing progress. \
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
    {
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
}

/// A validated change: everything that can be checked without the list has been.
enum Change {
    Write(Vec<WriteItem>),
    Add(Vec<String>),
    /// start, complete and update; `blame` is the field named if the in-progress rule fails.
    Set {
        id: u64,
        content: Option<String>,
        status: Option<Status>,
        active_form: Option<String>,
        blame: &'static str,
    },
    Remove(u64),
    Clear,
}

impl Change {
    fn completed(id: u64) -> Change {
        Change::Set {
            id,
            content: None,
            status: Some(Status::Completed),
            active_form: None,
            blame: "id",
        }
    }
}

fn unused(action: Action, field: &str) -> ToolError {
    let takes = match action.uses() {
        [] => "no fields".to_string(),
        fields => fields.join(", "),
    };
    let users: Vec<&str> = ACTIONS
        .iter()
        .filter(|a| a.2.contains(&field))
        .map(|a| a.1)
        .collect();
    ToolError::invalid(
        field,
        format!(
            "todo: field `{field}` is not used by action `{}` (it takes {takes})",
            action.name()
        ),
    )
    .hint(format!(
        "Drop `{field}`, or set `action` to one that takes it: {}.",
        users.join(", ")
    ))
}

fn missing(action: Action, field: &str, what: &str) -> ToolError {
    ToolError::invalid(
        field,
        format!("todo: action `{}` needs {what}", action.name()),
    )
    .hint(match action {
        Action::Write => "Example: {\"action\": \"write\", \"todos\": [{\"content\": \"Run tests\", \"status\": \"pending\"}]}".to_string(),
        Action::Add => "Example: {\"action\": \"add\", \"content\": \"Run tests\"} or {\"action\": \"add\", \"items\": [\"a\", \"b\"]}".to_string(),
        Action::Update => "Example: {\"action\": \"update\", \"id\": 2, \"status\": \"completed\"}".to_string(),
        other => format!(
            "Example: {{\"action\": \"{}\", \"id\": 2}}; `todo list` shows the ids.",
            other.name()
        ),
    })
}

fn check_content(field: &str, text: &str) -> Result<()> {
    if text.trim().is_empty() {
        return Err(ToolError::invalid(
            field,
            format!("todo: `{field}` is empty; an item needs some text"),
        )
        .hint("Say what is to be done, e.g. \"Run the tests\"."));
    }
    Ok(())
}

/// Checks the input against the action before any state is touched.
fn validate(action: Action, input: Input, several: bool) -> Result<Option<Change>> {
    let given = input.given();
    if let Some(field) = given.iter().find(|f| !action.uses().contains(f)) {
        return Err(unused(action, field));
    }
    let id = input.id;
    let need_id = || id.ok_or_else(|| missing(action, "id", "`id`, the item's number"));
    let change = match action {
        Action::List => return Ok(None),
        Action::Clear => Change::Clear,
        Action::Write => {
            let todos = input
                .todos
                .ok_or_else(|| missing(action, "todos", "`todos`, the whole new list"))?;
            let mut busy: Option<usize> = None;
            for (n, item) in todos.iter().enumerate() {
                check_content(&format!("todos[{n}].content"), &item.content)?;
                if item.status != Status::InProgress {
                    continue;
                }
                if let Some(first) = busy.filter(|_| !several) {
                    return Err(ToolError::invalid(
                        &format!("todos[{n}].status"),
                        format!(
                            "todo: todos[{first}] ({:?}) and todos[{n}] ({:?}) are both in_progress; at most one item may be in progress",
                            todos[first].content, item.content
                        ),
                    )
                    .hint("Keep one item in_progress and set the others to pending or completed."));
                }
                busy = Some(n);
            }
            Change::Write(todos)
        }
        Action::Add => {
            // Every field given is one of content, items, task (checked above).
            if let [_, second, ..] = given.as_slice() {
                return Err(ToolError::invalid(
                    second,
                    "todo: add takes one of `content`, `items` or `task`, not several",
                )
                .hint("Put every new item in `items`, e.g. {\"action\": \"add\", \"items\": [\"a\", \"b\"]}."));
            }
            let (field, texts) = match (input.content, input.items, input.task) {
                (Some(c), ..) => ("content", vec![c]),
                (_, Some(items), _) => ("items", items),
                (.., Some(TaskRef::Text(t))) => ("task", vec![t]),
                (.., Some(TaskRef::Id(n))) => ("task", vec![n.to_string()]),
                _ => {
                    let what = "`content` (one item) or `items` (several)";
                    return Err(missing(action, "content", what));
                }
            };
            if texts.is_empty() {
                return Err(
                    ToolError::invalid("items", "todo: `items` is an empty list")
                        .hint("Give at least one item, or use `content` for a single one."),
                );
            }
            for (n, text) in texts.iter().enumerate() {
                match field {
                    "items" => check_content(&format!("items[{n}]"), text)?,
                    _ => check_content(field, text)?,
                }
            }
            Change::Add(texts)
        }
        Action::Start => Change::Set {
            id: need_id()?,
            content: None,
            status: Some(Status::InProgress),
            active_form: input.active_form,
            blame: "id",
        },
        Action::Complete => match (id, input.task) {
            (Some(_), Some(_)) => {
                return Err(ToolError::invalid(
                    "task",
                    "todo: complete takes `id` or `task`, not both",
                ));
            }
            (Some(id), None) => Change::completed(id),
            (None, Some(task)) => Change::completed(task_id(task)?),
            (None, None) => return Err(missing(action, "id", "`id`, the item's number")),
        },
        Action::Update => {
            let id = need_id()?;
            if input.content.is_none() && input.status.is_none() && input.active_form.is_none() {
                return Err(missing(
                    action,
                    "status",
                    "something to change: `content`, `status` or `active_form`",
                ));
            }
            if let Some(c) = &input.content {
                check_content("content", c)?;
            }
            Change::Set {
                id,
                content: input.content,
                status: input.status,
                active_form: input.active_form,
                blame: "status",
            }
        }
        Action::Remove => Change::Remove(need_id()?),
    };
    Ok(Some(change))
}

fn task_id(task: TaskRef) -> Result<u64> {
    let parsed = match &task {
        TaskRef::Id(n) => Some(*n),
        TaskRef::Text(t) => t.trim().trim_start_matches('#').parse::<u64>().ok(),
    };
    match parsed {
        Some(n) if n > 0 => Ok(n),
        _ => Err(ToolError::invalid(
            "task",
            format!(
                "todo: for complete, `task` is the item's id (a positive integer), not {:?}",
                match task {
                    TaskRef::Text(t) => t,
                    TaskRef::Id(n) => n.to_string(),
                }
            ),
        )
        .hint("Run `todo list` for the ids, then `todo complete --id N`.")),
    }
}

/// An empty active form means none: that is how `update` clears it.
fn form(f: Option<String>) -> Option<String> {
    f.filter(|s| !s.trim().is_empty())
}

/// The most items a list holds (SPEC 23.8): 200,000 items made every call cost 250 MB.
pub const MAX_ITEMS: usize = 1000;

fn apply(list: &mut TodoList, change: Change, now: &str, added: &mut Vec<u64>) -> Result<()> {
    let after = match &change {
        Change::Write(todos) => todos.len(),
        Change::Add(texts) => list.items.len() + texts.len(),
        _ => 0,
    };
    if after > MAX_ITEMS {
        return Err(ToolError::new(
            crate::error::Code::TooLarge,
            format!("the todo list would hold {after} items; it holds at most {MAX_ITEMS}"),
        )
        .with("limit", MAX_ITEMS)
        .hint("Complete or remove items (or clear the list) first; a plan that long belongs in a file."));
    }
    match change {
        Change::Clear => list.items.clear(),
        Change::Write(todos) => {
            let mut old = std::mem::take(&mut list.items);
            for t in todos {
                let active_form = form(t.active_form);
                // Same content keeps the old item (the first unclaimed one, for duplicates).
                let Some(k) = old.iter().position(|o| o.content == t.content) else {
                    list.push(t.content, t.status, active_form, now);
                    continue;
                };
                let mut o = old.remove(k);
                if (o.status, &o.active_form) != (t.status, &active_form) {
                    (o.status, o.active_form) = (t.status, active_form);
                    o.updated_at = now.to_string();
                }
                list.items.push(o);
            }
        }
        Change::Add(texts) => {
            for content in texts {
                added.push(list.push(content, Status::Pending, None, now));
            }
        }
        Change::Set {
            id,
            content,
            status,
            active_form,
            blame,
        } => {
            let k = list.find(id)?;
            if status == Some(Status::InProgress) {
                list.check_single_in_progress(id, blame)?;
            }
            let item = &mut list.items[k];
            let before = item.clone();
            if let Some(c) = content {
                item.content = c;
            }
            if let Some(s) = status {
                item.status = s;
            }
            if let Some(f) = active_form {
                item.active_form = form(Some(f));
            }
            if *item != before {
                item.updated_at = now.to_string();
            }
        }
        Change::Remove(id) => {
            let k = list.find(id)?;
            list.items.remove(k);
        }
    }
    Ok(())
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
