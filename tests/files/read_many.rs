//! `read` with `paths`: several files in one call (SPEC 18.2) through the binary.

use serde_json::json;
use testkit::Env;

#[test]
fn each_file_under_its_header() {
    let env = Env::new();
    env.write_file("a.txt", "alpha\n");
    env.write_file("src/b.rs", "fn b() {}\n");
    let out = env.call("read", json!({"paths": ["a.txt", "src/b.rs"]}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        "==> a.txt <==\n     1\talpha\n\n==> src/b.rs <==\n     1\tfn b() {}\n"
    );
    let d = out.data();
    assert_eq!(
        (&d["read"], &d["failed"], &d["unread"]),
        (&json!(2), &json!(0), &json!(0))
    );
    assert_eq!(d["files"][1]["path"], "src/b.rs");
    assert_eq!(d["files"][1]["total_lines"], 1);
    // every file was recorded: each may now be edited
    for (p, old) in [("a.txt", "alpha"), ("src/b.rs", "fn b")] {
        env.call(
            "edit",
            json!({"path": p, "old_string": old, "new_string": "x"}),
        )
        .assert_ok();
    }
}

#[test]
fn offset_and_limit_apply_to_each_file() {
    let env = Env::new();
    env.write_file("a.txt", "1\n2\n3\n");
    env.write_file("b.txt", "x\ny\nz\n");
    let out = env.call("read", json!({"paths": ["a.txt", "b.txt"], "offset": -1}));
    assert_eq!(
        out.output(),
        "==> a.txt <==\n     3\t3\n\n==> b.txt <==\n     3\tz\n"
    );
    let out = env.run(
        &[
            "read", "--paths", "a.txt", "--paths", "b.txt", "--limit", "1", "--format", "text",
        ],
        "",
    );
    assert_eq!(
        out.stdout,
        "==> a.txt <==\n     1\t1\n(showing lines 1-1 of 3; continue with offset=2)\n\n==> b.txt <==\n     1\tx\n(showing lines 1-1 of 3; continue with offset=2)\n"
    );
}

#[test]
fn a_failed_file_shows_its_error_in_place() {
    let env = Env::new();
    env.write_file("a.txt", "a\n");
    env.write_file("c.txt", "c\n");
    std::fs::create_dir(env.path("dir")).unwrap();
    let out = env.call(
        "read",
        json!({"paths": ["a.txt", "missing.txt", "dir", "c.txt"]}),
    );
    out.assert_ok();
    let text = out.output();
    assert!(
        text.contains("==> missing.txt <==\nError: missing.txt does not exist\nHint: "),
        "{text}"
    );
    assert!(text.contains("==> dir <==\nError: "), "{text}");
    assert!(text.ends_with("==> c.txt <==\n     1\tc\n"), "{text}");
    let files = out.data()["files"].as_array().unwrap();
    assert_eq!(files[1]["error"]["code"], "not_found");
    assert_eq!(files[1]["path"], "missing.txt");
    assert_eq!(files[2]["error"]["code"], "is_directory");
    assert_eq!(
        (&out.data()["read"], &out.data()["failed"]),
        (&json!(2), &json!(2))
    );
}

#[test]
fn when_every_file_fails_the_first_error_is_the_calls() {
    let env = Env::new();
    std::fs::create_dir(env.path("dir")).unwrap();
    let out = env.call("read", json!({"paths": ["nope.txt", "dir"]}));
    out.assert_err("not_found");
    assert_eq!(out.json["error"]["path"], "nope.txt");
    // a bad path is an error in its slot, named by its index
    let out = env.call("read", json!({"paths": ["a\u{0}b"]}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "paths[0]");
}

#[test]
fn path_with_paths_and_bad_counts_are_invalid_input() {
    let env = Env::new();
    env.write_file("a.txt", "a\n");
    let many: Vec<String> = (0..101).map(|i| format!("f{i}.txt")).collect();
    for (input, says) in [
        (json!({"path": "a.txt", "paths": ["a.txt"]}), "not both"),
        (json!({"paths": many}), "holds 101 paths"),
        (json!({"paths": []}), "holds 0 paths"),
        (json!({"paths": "a.txt"}), "paths"),
    ] {
        let out = env.call("read", input.clone());
        out.assert_err("invalid_input");
        assert_eq!(out.json["error"]["field"], "paths", "{input}");
        assert!(out.output().contains(says), "{input}: {}", out.output());
    }
    let out = env.call("read", json!({}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "path");
}

#[test]
fn a_hundred_files_in_one_call() {
    let env = Env::new();
    let paths: Vec<String> = (0..100)
        .map(|i| {
            let p = format!("f{i:03}.txt");
            env.write_file(&p, format!("file {i}\n"));
            p
        })
        .collect();
    let out = env.call("read", json!({"paths": paths}));
    out.assert_ok();
    assert_eq!(out.data()["read"], 100);
    assert!(
        out.output()
            .ends_with("==> f099.txt <==\n     1\tfile 99\n")
    );
    let s = env.run(&["session"], "");
    assert_eq!(s.data()["reads"].as_array().unwrap().len(), 100);
}

/// The 100,000-character cap is shared: earlier files come whole, a later one is cut with its
/// own continuation line, and the files after it are named in the last line, not read.
#[test]
fn the_cap_is_shared_and_later_files_are_cut_first() {
    let env = Env::new();
    let line = "z".repeat(990);
    let body = format!("{line}\n").repeat(40); // ~40,000 characters shown
    for name in ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"] {
        env.write_file(name, &body);
    }
    let names = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"];
    let out = env.call("read", json!({"paths": names}));
    out.assert_ok();
    let text = out.output();
    assert!(text.chars().count() <= 100_000, "{}", text.chars().count());
    let d = out.data();
    assert_eq!(d["files"][0]["end_line"], 40);
    assert_eq!(d["files"][1]["end_line"], 40);
    let cut = d["files"][2]["end_line"].as_u64().unwrap();
    assert!(cut > 0 && cut < 40, "{cut}");
    assert!(text.contains(&format!("continue with offset={}", cut + 1)));
    // SPEC 31.2: the last line names the cut file and where it goes on, then the rest.
    assert!(
        text.ends_with(&format!(
            "(output limit of 100000 characters reached; c.txt was cut: continue it with read path \"c.txt\", offset \"{}\"; not shown: d.txt and 1 more file; read them with paths starting at d.txt)\n",
            cut + 1
        )),
        "{}",
        &text[text.len() - 300..]
    );
    // The last file cut with none left unread: the last line still names it.
    let out = env.call("read", json!({"paths": ["a.txt", "b.txt", "c.txt"]}));
    let cut = out.data()["files"][2]["end_line"].as_u64().unwrap();
    assert!(out.output().ends_with(&format!(
        "(output limit of 100000 characters reached; c.txt was cut: continue it with read path \"c.txt\", offset \"{}\")\n",
        cut + 1
    )));
    // A file cut by its own `limit` is not the cap's doing: no such line.
    let out = env.call("read", json!({"paths": ["a.txt", "b.txt"], "limit": 5}));
    assert!(!out.output().contains("output limit"), "{}", out.output());
    assert_eq!(d["files"][3], json!({"path": "d.txt", "unread": true}));
    assert_eq!((&d["unread"], &d["truncated"]), (&json!(2), &json!(true)));
    // what was not shown was not read: no record
    let out = env.call(
        "edit",
        json!({"path": "d.txt", "old_string": "z", "new_string": "y", "replace_all": true}),
    );
    out.assert_err("not_read");
}
