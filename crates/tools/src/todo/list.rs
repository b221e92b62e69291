//! The list as `todos.json` holds it, and how a validated change is applied to it.

use super::Status;
use super::validate::{Change, form};
use crate::error::{Code, Result, ToolError};
use serde::{Deserialize, Serialize};

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

    pub(super) fn sort(&mut self) {
        self.items.sort_by_key(|i| i.id);
    }
}

/// The most items a list holds (SPEC 23.8): 200,000 items made every call cost 250 MB.
pub const MAX_ITEMS: usize = 1000;

pub(super) fn apply(
    list: &mut TodoList,
    change: Change,
    now: &str,
    added: &mut Vec<u64>,
) -> Result<()> {
    let after = match &change {
        Change::Write(todos) => todos.len(),
        Change::Add(texts) => list.items.len() + texts.len(),
        _ => 0,
    };
    if after > MAX_ITEMS {
        return Err(ToolError::too_large(MAX_ITEMS, format!("the todo list would hold {after} items; it holds at most {MAX_ITEMS}"))
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
