//! `read` (SPEC §5, 16.4) through the binary.

use serde_json::json;
use testkit::{Env, redact};

#[test]
fn numbered_lines_snapshot() {
    let env = Env::new();
    env.write_file("src/main.rs", "fn main() {\n\tprintln!(\"hi\");\n}\n");
    let out = env.call("read", json!({"path": "src/main.rs"}));
    out.assert_ok();
    insta::assert_json_snapshot!(redact(&out.json, &env), @r#"
    {
      "ok": true,
      "tool": "read",
      "output": "     1\tfn main() {\n     2\t\tprintln!(\"hi\");\n     3\t}\n",
      "data": {
        "path": "src/main.rs",
        "start_line": 1,
        "end_line": 3,
        "total_lines": 3,
        "truncated": false,
        "long_lines": 0,
        "size_bytes": 31,
        "encoding": "utf-8",
        "line_ending": "lf",
        "indent": "tabs"
      }
    }
    "#);
}

#[test]
fn offset_limit_and_the_continuation_line() {
    let env = Env::new();
    let body: String = (1..=5234).map(|i| format!("line {i}\n")).collect();
    env.write_file("big.txt", &body);
    let out = env.call("read", json!({"path": "big.txt"}));
    let d = out.data();
    assert_eq!(
        (
            d["start_line"].as_u64(),
            d["end_line"].as_u64(),
            d["truncated"].as_bool()
        ),
        (Some(1), Some(2000), Some(true))
    );
    assert!(out.output().ends_with(
        "  2000\tline 2000\n(showing lines 1-2000 of 5234; continue with offset=2001)\n"
    ));
    let out = env.call(
        "read",
        json!({"path": "big.txt", "offset": 5230, "limit": 10}),
    );
    assert_eq!(
        out.output(),
        "  5230\tline 5230\n  5231\tline 5231\n  5232\tline 5232\n  5233\tline 5233\n  5234\tline 5234\n"
    );
    assert_eq!(out.data()["truncated"], false);
    let out = env.call("read", json!({"path": "big.txt", "offset": 10, "limit": 2}));
    assert_eq!(
        out.output(),
        "    10\tline 10\n    11\tline 11\n(showing lines 10-11 of 5234; continue with offset=12)\n"
    );
}

#[test]
fn past_the_end_and_empty_files_are_not_errors() {
    let env = Env::new();
    env.write_file("three.txt", "a\nb\nc");
    let out = env.call("read", json!({"path": "three.txt", "offset": 9}));
    out.assert_ok();
    assert!(out.output().contains("has 3 lines"), "{}", out.output());
    let d = out.data();
    assert_eq!(
        (
            d["start_line"].as_u64(),
            d["end_line"].as_u64(),
            d["truncated"].as_bool()
        ),
        (Some(9), Some(8), Some(false))
    );
    env.write_file("empty.txt", "");
    let out = env.call("read", json!({"path": "empty.txt"}));
    assert_eq!(out.output(), "(empty file)\n");
    let d = out.data();
    assert_eq!(
        (
            d["total_lines"].as_u64(),
            d["start_line"].as_u64(),
            d["end_line"].as_u64()
        ),
        (Some(0), Some(1), Some(0))
    );
    assert_eq!(d["line_ending"], "none");
}

#[test]
fn long_lines_are_cut_with_a_marker() {
    let env = Env::new();
    env.write_file("long.txt", format!("{}\nshort\n", "x".repeat(2500)));
    let out = env.call("read", json!({"path": "long.txt"}));
    let first = out.output().lines().next().unwrap();
    assert_eq!(
        first,
        format!("     1\t{}… [line truncated: 2500 chars]", "x".repeat(2000))
    );
    assert_eq!(out.data()["long_lines"], 1);
}

#[test]
fn the_output_cap_cuts_after_a_whole_line_and_says_where_to_continue() {
    let env = Env::new();
    // 2000 lines of 1,900 chars: far over the 100,000-char cap
    let line = "y".repeat(1900);
    env.write_file("wide.txt", format!("{line}\n").repeat(2000));
    let out = env.call("read", json!({"path": "wide.txt"}));
    let text = out.output();
    assert!(text.chars().count() <= 100_000, "{}", text.chars().count());
    let end = out.data()["end_line"].as_u64().unwrap();
    assert!(end > 10 && end < 2000);
    assert!(
        text.ends_with(&format!(
            "(showing lines 1-{end} of 2000; continue with offset={})\n",
            end + 1
        )),
        "{}",
        &text[text.len() - 100..]
    );
    assert_eq!(out.data()["truncated"], true);
}

#[test]
fn crlf_bom_and_legacy_encodings_are_reported() {
    let env = Env::new();
    env.write_file("crlf.txt", "a\r\nb\r\n");
    let out = env.call("read", json!({"path": "crlf.txt"}));
    assert_eq!(out.output(), "     1\ta\n     2\tb\n");
    assert_eq!(out.data()["line_ending"], "crlf");
    env.write_file("bom.txt", b"\xEF\xBB\xBFhello\n");
    let out = env.call("read", json!({"path": "bom.txt"}));
    assert_eq!(
        (out.output(), out.data()["encoding"].as_str()),
        ("     1\thello\n", Some("utf-8-bom"))
    );
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("grüße\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    env.write_file("u16.txt", utf16);
    let out = env.call("read", json!({"path": "u16.txt"}));
    assert_eq!(
        (out.output(), out.data()["encoding"].as_str()),
        ("     1\tgrüße\n", Some("utf-16le"))
    );
    env.write_file("latin.txt", b"na\xefve caf\xe9\n");
    let out = env.call("read", json!({"path": "latin.txt"}));
    assert_eq!(
        (out.output(), out.data()["encoding"].as_str()),
        ("     1\tnaïve café\n", Some("windows-1252"))
    );
    env.write_file("spaces.py", "def f():\n    return 1\n");
    assert_eq!(
        env.call("read", json!({"path": "spaces.py"})).data()["indent"],
        "spaces"
    );
}

#[test]
fn binary_directories_and_special_files_are_refused() {
    let env = Env::new();
    env.write_file("blob.bin", b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0");
    let out = env.call("read", json!({"path": "blob.bin"}));
    out.assert_err("binary_file");
    assert!(out.output().contains("16 bytes"), "{}", out.output());
    std::fs::create_dir(env.path("dir")).unwrap();
    let out = env.call("read", json!({"path": "dir"}));
    out.assert_err("is_directory");
    assert!(out.json["error"]["hint"].as_str().unwrap().contains("tree"));
    let out = env.call("read", json!({"path": "nope.txt"}));
    out.assert_err("not_found");
    assert_eq!(out.json["error"]["path"], "nope.txt");
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let env = Env::new();
    let fifo = env.path("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let start = std::time::Instant::now();
    let out = env.call("read", json!({"path": "pipe"}));
    out.assert_err("unsupported_file");
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    let out = env.run(&["--no-read-check", "write", "pipe", "--content", "x"], "");
    out.assert_err("unsupported_file");
    let out = env.call("read", json!({"path": "/dev/null"}));
    out.assert_err("outside_root");
    let out = env.run(&["--no-sandbox", "read", "/dev/zero"], "");
    out.assert_err("unsupported_file");
}

#[test]
fn unreadable_files_are_permission_denied() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let p = env.write_file("locked.txt", "x\n");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    let mut c = env.cmd_unprivileged();
    c.args(["read", "locked.txt"]);
    let out = testkit::finish(c);
    out.assert_err("permission_denied");
    assert_eq!(out.json["error"]["path"], "locked.txt"); // SPEC 31.2: like io_error, the OS's own name for it.
    assert_eq!(out.json["error"]["errno"], "EACCES");
}

#[test]
fn a_read_is_recorded_with_its_time() {
    let env = Env::new();
    env.write_file("a.txt", "x\n");
    env.call("read", json!({"path": "a.txt", "offset": 50}))
        .assert_ok(); // past the end still records
    let s = env.run(&["session"], "");
    let reads = s.data()["reads"].as_array().unwrap();
    assert_eq!(reads.len(), 1);
    assert_eq!(reads[0]["path"], "a.txt");
    assert!(reads[0]["read_at"].as_str().unwrap().ends_with('Z'));
}
