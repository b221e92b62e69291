//! Calls from many threads through one `Toolbox` follow the locks and state rules that many
//! processes follow (SPEC 2.2, 30.1): no change is lost.

use crate::Scratch;
use serde_json::json;
use std::sync::Arc;

const THREADS: usize = 8;
const EDITS: usize = 10;

#[test]
fn threads_editing_one_file_lose_nothing() {
    let s = Scratch::new();
    s.write("log.txt", "END\n");
    let tools = Arc::new(s.toolbox());
    assert!(tools.call("read", json!({"path": "log.txt"})).ok);
    std::thread::scope(|scope| {
        for t in 0..THREADS {
            let tools = &tools;
            scope.spawn(move || {
                for k in 0..EDITS {
                    // Each edit puts one line before END: read-modify-write of one file by
                    // eight writers at once. Without the file lock, edits would overwrite
                    // each other's lines.
                    // A writer that lost the race is told stale_read, as a process would be,
                    // and reads again before it retries.
                    loop {
                        let env = tools.call(
                            "edit",
                            json!({"path": "log.txt", "old_string": "END\n", "new_string": format!("t{t}-{k}\nEND\n")}),
                        );
                        if env.ok {
                            break;
                        }
                        assert_eq!(env.error.unwrap().code, "stale_read");
                        assert!(tools.call("read", json!({"path": "log.txt"})).ok);
                    }
                }
            });
        }
    });
    let text = s.read("log.txt");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), THREADS * EDITS + 1, "{text}");
    for t in 0..THREADS {
        for k in 0..EDITS {
            let line = format!("t{t}-{k}");
            assert_eq!(lines.iter().filter(|l| **l == line).count(), 1, "{line}");
        }
    }
}

#[test]
fn threads_sharing_a_session_keep_its_state_whole() {
    let s = Scratch::new();
    let tools = Arc::new(s.builder().session("shared").build().unwrap());
    std::thread::scope(|scope| {
        for t in 0..THREADS {
            let tools = &tools;
            scope.spawn(move || {
                for k in 0..EDITS {
                    let path = format!("t{t}/f{k}.txt");
                    let env = tools.call("write", json!({"path": path, "content": "x\n"}));
                    assert!(env.ok, "{}", env.output);
                    // Each thread's own todo list item: the session's todo state is one file,
                    // read-modify-written under the state lock.
                    let env = tools.call(
                        "todo",
                        json!({"action": "add", "content": format!("t{t}-{k}")}),
                    );
                    assert!(env.ok, "{}", env.output);
                }
            });
        }
    });
    // Every item added is on the list: no load-modify-save overwrote another.
    let todos = tools.call("todo", json!({"action": "list"}));
    assert!(todos.ok, "{}", todos.output);
    for t in 0..THREADS {
        for k in 0..EDITS {
            assert!(
                todos.output.contains(&format!("t{t}-{k}\n")),
                "t{t}-{k}: {}",
                todos.output
            );
        }
    }
}
