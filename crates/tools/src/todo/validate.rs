//! Every check a todo call gets before any state is touched: the action's fields, item texts,
//! ids and the one-in-progress rule of a written list.

use super::{ACTIONS, Action, Input, Status, TaskRef, WriteItem};
use crate::error::{Result, ToolError};

/// A validated change: everything that can be checked without the list has been.
pub(super) enum Change {
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
pub(super) fn validate(action: Action, input: Input, several: bool) -> Result<Option<Change>> {
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
pub(super) fn form(f: Option<String>) -> Option<String> {
    f.filter(|s| !s.trim().is_empty())
}
