//! Each step of each tool that changes files or state, failing in turn through the fault switch
//! (`LOOPR_DEBUG_FAIL=STEP:ERRNO:N`), with ENOSPC, EIO, EROFS and EDQUOT: see `harness`.

use super::harness::{Case, Tree, each_step, files};
use serde_json::json;
use testkit::Env;

/// The steps of a change of content: staged, made durable, state and journal saved, renamed.
const CONTENT: &[&str] = &["stage", "fsync", "state", "journal", "rename"];
/// A file with several hard links: its room reserved, then written in place after the journal.
const IN_PLACE: &[&str] = &["stage", "state", "journal", "rename", "in_place", "fsync"];

fn a_read(env: &Env) -> Option<Tree> {
    env.write_file("a.txt", "old line\n");
    env.read("a.txt");
    None
}

fn a_hard_linked(env: &Env) -> Option<Tree> {
    env.write_file("a.txt", "old line\nand more\n");
    std::fs::hard_link(env.path("a.txt"), env.path("b.txt")).unwrap();
    env.read("a.txt");
    None
}

fn nothing(env: &Env) -> Option<Tree> {
    env.write_file("keep.txt", "kept\n");
    None
}

const NB: &str = r#"{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": null,
   "id": "calc",
   "metadata": {},
   "outputs": [],
   "source": [
    "print(1)"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
"#;

fn a_notebook(env: &Env) -> Option<Tree> {
    env.write_file("nb.ipynb", NB);
    env.read("nb.ipynb");
    None
}

fn two_files(env: &Env) -> Option<Tree> {
    env.write_file("a.txt", "moving\n");
    env.write_file("b.txt", "overwritten\n");
    env.read("a.txt");
    env.read("b.txt");
    None
}

fn a_tree(env: &Env) -> Option<Tree> {
    env.write_file("d/x.txt", "x\n");
    env.write_file("d/y/z.txt", "z\n");
    env.read("d/x.txt");
    None
}

const PATCH: &str = "*** Begin Patch\n\
*** Add File: new/c.txt\n\
+added\n\
*** Update File: a.txt\n\
@@\n\
-old line\n\
+new line\n\
*** Delete File: d.txt\n\
*** Update File: m.txt\n\
*** Move to: moved/m2.txt\n\
@@\n\
-move me\n\
+moved and changed\n\
*** End Patch\n";

fn patch_files(env: &Env) -> Option<Tree> {
    env.write_file("a.txt", "old line\n");
    env.write_file("d.txt", "deleted\n");
    env.write_file("m.txt", "move me\n");
    // Read records to update (apply_patch needs none, but one it has must follow).
    env.read("a.txt");
    env.read("m.txt");
    None
}

const LINKED_PATCH: &str = "*** Begin Patch\n\
*** Update File: a.txt\n\
@@\n\
-old line\n\
+new line\n\
*** End Patch\n";

fn check(case: Case) {
    let failed = each_step(&case);
    assert!(!failed.is_empty());
    eprintln!("{}: {failed:?}", case.name);
}

#[test]
fn write_edit_and_notebook_edit() {
    let input = json!({"path": "a.txt", "content": "new content\n"});
    for case in [
        Case {
            name: "write",
            setup: a_read,
            tool: "write",
            input: input.clone(),
            steps: CONTENT,
            undos: 1,
        },
        Case {
            name: "write creating its directories",
            setup: nothing,
            tool: "write",
            input: json!({"path": "new/deeper/a.txt", "content": "x"}),
            steps: CONTENT,
            undos: 1,
        },
        Case {
            name: "edit",
            setup: a_read,
            tool: "edit",
            input: json!({"path": "a.txt", "old_string": "old", "new_string": "new"}),
            steps: CONTENT,
            undos: 1,
        },
        Case {
            name: "write of a hard-linked file",
            setup: a_hard_linked,
            tool: "write",
            input: input.clone(),
            steps: IN_PLACE,
            undos: 1,
        },
        Case {
            name: "edit of a hard-linked file",
            setup: a_hard_linked,
            tool: "edit",
            input: json!({"path": "a.txt", "old_string": "old line", "new_string": "a new line, longer than the old one"}),
            steps: IN_PLACE,
            undos: 1,
        },
        Case {
            name: "notebook_edit",
            setup: a_notebook,
            tool: "notebook_edit",
            input: json!({"path": "nb.ipynb", "cell_id": "calc", "new_source": "print(2)\n"}),
            steps: CONTENT,
            undos: 1,
        },
    ] {
        check(case);
    }
}

/// The journal at its cap (50): the push that makes room drops the oldest entry, which a change
/// that then fails must give back (its blob too).
fn at_the_cap(env: &Env) -> Option<Tree> {
    a_read(env);
    let calls: Vec<serde_json::Value> = (0..50)
        .map(|i| json!({"name": "write", "input": {"path": "a.txt", "content": format!("version {i}\n")}}))
        .collect();
    let out = env.run(&["batch"], &serde_json::Value::from(calls).to_string());
    assert_eq!(out.status, 0, "{}", out.stdout);
    None
}

#[test]
fn at_the_journal_cap() {
    check(Case {
        name: "write with 50 entries in the journal",
        setup: at_the_cap,
        tool: "write",
        input: json!({"path": "a.txt", "content": "new content\n"}),
        steps: &["rename"],
        undos: 1,
    });
}

#[test]
fn move_delete_and_mkdir() {
    for case in [
        Case {
            name: "move into a new directory",
            setup: two_files,
            tool: "move",
            input: json!({"from": "a.txt", "to": "sub/deeper/a.txt"}),
            steps: &["state", "journal", "rename"],
            undos: 1,
        },
        Case {
            name: "move over a file",
            setup: two_files,
            tool: "move",
            input: json!({"from": "a.txt", "to": "b.txt", "overwrite": true}),
            steps: &["state", "journal", "rename"],
            undos: 1,
        },
        Case {
            name: "move of a directory",
            setup: a_tree,
            tool: "move",
            input: json!({"from": "d", "to": "e/f"}),
            steps: &["state", "journal", "rename"],
            undos: 1,
        },
        Case {
            name: "delete",
            setup: a_read,
            tool: "delete",
            input: json!({"path": "a.txt"}),
            steps: &["state", "journal", "trash"],
            undos: 1,
        },
        Case {
            name: "delete of a tree",
            setup: a_tree,
            tool: "delete",
            input: json!({"path": "d", "recursive": true}),
            steps: &["state", "journal", "trash"],
            undos: 1,
        },
        Case {
            name: "permanent delete",
            setup: a_read,
            tool: "delete",
            input: json!({"path": "a.txt", "permanent": true}),
            steps: &["trash"],
            undos: 0,
        },
        Case {
            name: "mkdir",
            setup: nothing,
            tool: "mkdir",
            input: json!({"path": "x/y/z"}),
            steps: &["state", "journal", "mkdir"],
            undos: 1,
        },
    ] {
        check(case);
    }
}

#[test]
fn apply_patch() {
    for case in [
        Case {
            name: "apply_patch: add, update, delete, update and move",
            setup: patch_files,
            tool: "apply_patch",
            input: json!({ "patch": PATCH }),
            steps: &["stage", "fsync", "state", "journal", "rename", "trash"],
            undos: 4,
        },
        Case {
            name: "apply_patch of a hard-linked file",
            setup: a_hard_linked,
            tool: "apply_patch",
            input: json!({ "patch": LINKED_PATCH }),
            steps: IN_PLACE,
            undos: 1,
        },
    ] {
        check(case);
    }
}

/// The change an undo takes back, made in `setup`, which returns the tree from before it.
fn changed(env: &Env, tool: &str, input: serde_json::Value) -> Option<Tree> {
    let before = files(env);
    env.call(tool, input).assert_ok();
    Some(before)
}

#[test]
fn undo() {
    for case in [
        Case {
            name: "undo of a write",
            setup: |env| {
                a_read(env);
                changed(env, "write", json!({"path": "a.txt", "content": "new\n"}))
            },
            tool: "undo",
            input: json!({}),
            steps: CONTENT,
            undos: 0,
        },
        Case {
            name: "undo of a write that created the file",
            setup: |env| {
                nothing(env);
                changed(env, "write", json!({"path": "new.txt", "content": "new\n"}))
            },
            tool: "undo",
            input: json!({}),
            steps: &["state", "journal", "remove"],
            undos: 0,
        },
        Case {
            name: "undo of a write of a hard-linked file",
            setup: |env| {
                a_hard_linked(env);
                changed(env, "write", json!({"path": "a.txt", "content": "new\n"}))
            },
            tool: "undo",
            input: json!({}),
            steps: IN_PLACE,
            undos: 0,
        },
        Case {
            name: "undo of a move over a file",
            setup: |env| {
                two_files(env);
                changed(
                    env,
                    "move",
                    json!({"from": "a.txt", "to": "b.txt", "overwrite": true}),
                )
            },
            tool: "undo",
            input: json!({}),
            steps: CONTENT,
            undos: 0,
        },
        Case {
            name: "undo of a patch's update and move",
            setup: |env| {
                env.write_file("m.txt", "move me\n");
                changed(
                    env,
                    "apply_patch",
                    json!({"patch": "*** Begin Patch\n*** Update File: m.txt\n*** Move to: moved/m2.txt\n@@\n-move me\n+moved and changed\n*** End Patch\n"}),
                )
            },
            tool: "undo",
            input: json!({}),
            steps: &["stage", "fsync", "state", "journal", "rename", "remove"],
            undos: 0,
        },
        Case {
            name: "undo of a delete",
            setup: |env| {
                a_tree(env);
                changed(env, "delete", json!({"path": "d", "recursive": true}))
            },
            tool: "undo",
            input: json!({}),
            steps: &["state", "journal", "rename"],
            undos: 0,
        },
        Case {
            name: "undo of a mkdir",
            setup: |env| {
                nothing(env);
                changed(env, "mkdir", json!({"path": "x/y/z"}))
            },
            tool: "undo",
            input: json!({}),
            steps: &["state", "journal", "remove"],
            undos: 0,
        },
    ] {
        check(case);
    }
}

#[test]
fn todo_state_saves() {
    check(Case {
        name: "todo",
        setup: |env| {
            env.call("todo", json!({"action": "add", "content": "first"}))
                .assert_ok();
            None
        },
        tool: "todo",
        input: json!({"action": "add", "content": "second"}),
        steps: &["state"],
        undos: 0,
    });
}
