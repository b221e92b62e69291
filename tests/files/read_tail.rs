//! `read` tails (`offset: -N`) and `line_range` (SPEC 18.2, 24.2) through the binary.

use serde_json::json;
use std::io::{Seek, SeekFrom, Write};
use testkit::Env;

fn numbered(env: &Env, lines: usize) {
    let body: String = (1..=lines).map(|i| format!("line {i}\n")).collect();
    env.write_file("f.txt", body);
}

#[test]
fn a_negative_offset_shows_the_last_lines_with_their_numbers() {
    let env = Env::new();
    numbered(&env, 100);
    let out = env.call("read", json!({"path": "f.txt", "offset": -3}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        "    98\tline 98\n    99\tline 99\n   100\tline 100\n"
    );
    let d = out.data();
    assert_eq!(
        (
            &d["start_line"],
            &d["end_line"],
            &d["total_lines"],
            &d["truncated"]
        ),
        (&json!(98), &json!(100), &json!(100), &json!(false))
    );
}

#[test]
fn limit_takes_the_first_lines_of_the_tail() {
    let env = Env::new();
    numbered(&env, 100);
    let out = env.call("read", json!({"path": "f.txt", "offset": -10, "limit": 2}));
    assert_eq!(
        out.output(),
        "    91\tline 91\n    92\tline 92\n(showing lines 91-92 of 100; continue with offset=93)\n"
    );
    assert_eq!(out.data()["truncated"], true);
}

#[test]
fn a_tail_longer_than_the_file_shows_all_of_it() {
    let env = Env::new();
    numbered(&env, 3);
    let out = env.call("read", json!({"path": "f.txt", "offset": -50}));
    assert_eq!(
        out.output(),
        "     1\tline 1\n     2\tline 2\n     3\tline 3\n"
    );
    assert_eq!(out.data()["start_line"], 1);
    // i64::MIN has no positive counterpart; the tail is still the whole file
    let out = env.call("read", json!({"path": "f.txt", "offset": i64::MIN}));
    out.assert_ok();
    assert_eq!(out.data()["end_line"], 3);
}

#[test]
fn a_tail_of_an_empty_file() {
    let env = Env::new();
    env.write_file("empty.txt", "");
    let out = env.call("read", json!({"path": "empty.txt", "offset": -5}));
    out.assert_ok();
    assert_eq!(out.output(), "(empty file)\n");
    let d = out.data();
    assert_eq!(
        (&d["start_line"], &d["end_line"], &d["total_lines"]),
        (&json!(1), &json!(0), &json!(0))
    );
}

#[test]
fn a_tail_of_crlf_utf16_and_unterminated_files() {
    let env = Env::new();
    env.write_file("crlf.txt", "a\r\nb\r\nc");
    let out = env.call("read", json!({"path": "crlf.txt", "offset": -2}));
    assert_eq!(out.output(), "     2\tb\n     3\tc\n");
    assert_eq!(out.data()["line_ending"], "crlf");
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "un\ndeux\ntrois\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    env.write_file("u16.txt", utf16);
    let out = env.call("read", json!({"path": "u16.txt", "offset": -1}));
    assert_eq!(out.output(), "     3\ttrois\n");
    assert_eq!(out.data()["encoding"], "utf-16le");
}

#[test]
fn a_tail_is_a_read_that_edit_can_follow() {
    let env = Env::new();
    numbered(&env, 10);
    env.call("read", json!({"path": "f.txt", "offset": -1}))
        .assert_ok();
    env.call(
        "edit",
        json!({"path": "f.txt", "old_string": "line 10\n", "new_string": "last\n"}),
    )
    .assert_ok();
    assert!(env.read_file("f.txt").ends_with(b"line 9\nlast\n"));
}

#[test]
fn offset_zero_is_refused_but_claude_codes_read_means_line_1() {
    let env = Env::new();
    numbered(&env, 3);
    let out = env.call("read", json!({"path": "f.txt", "offset": 0}));
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "offset");
    let out = env.call(
        "Read",
        json!({"file_path": "f.txt", "offset": 0, "limit": 1}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "     1\tline 1\n(showing lines 1-1 of 3; continue with offset=2)\n"
    );
    assert_eq!(out.json["tool"], "read");
}

#[test]
fn a_negative_offset_works_as_a_flag() {
    let env = Env::new();
    numbered(&env, 5);
    let out = env.run(&["read", "f.txt", "--offset", "-2", "--format", "text"], "");
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "     4\tline 4\n     5\tline 5\n");
}

#[test]
fn line_range_is_inclusive() {
    let env = Env::new();
    numbered(&env, 100);
    let out = env.call("read", json!({"path": "f.txt", "line_range": [10, 12]}));
    assert_eq!(
        out.output(),
        "    10\tline 10\n    11\tline 11\n    12\tline 12\n(showing lines 10-12 of 100; continue with offset=13)\n"
    );
    let out = env.call("read", json!({"path": "f.txt", "line_range": [99, 150]}));
    assert_eq!(out.data()["end_line"], 100);
    let out = env.run(
        &["read", "f.txt", "--line-range", "[5,5]", "--format", "text"],
        "",
    );
    assert_eq!(
        out.stdout,
        "     5\tline 5\n(showing lines 5-5 of 100; continue with offset=6)\n"
    );
}

#[test]
fn bad_line_ranges_are_invalid_input() {
    let env = Env::new();
    numbered(&env, 10);
    for (input, says) in [
        (
            json!({"path": "f.txt", "line_range": [5, 2]}),
            "ends before it starts",
        ),
        (
            json!({"path": "f.txt", "line_range": [0, 2]}),
            "numbered from 1",
        ),
        (
            json!({"path": "f.txt", "line_range": [1, 200_000]}),
            "more than 100000",
        ),
        (
            json!({"path": "f.txt", "line_range": [1, 2], "offset": 3}),
            "not both",
        ),
        (
            json!({"path": "f.txt", "line_range": [1, 2], "limit": 3}),
            "not both",
        ),
        (
            json!({"path": "f.txt", "line_range": [1, 2, 3]}),
            "line_range",
        ),
        (
            json!({"path": "f.txt", "line_range": [-1, 2]}),
            "line_range",
        ),
    ] {
        let out = env.call("read", input.clone());
        out.assert_err("invalid_input");
        let field = out.json["error"]["field"].as_str().unwrap();
        assert!(field.starts_with("line_range"), "{input}: {field}");
        assert!(out.output().contains(says), "{input}: {}", out.output());
    }
}

/// Runs the binary under GNU time and returns stdout and the peak RSS in KiB (`None` without
/// /usr/bin/time). Not wait4 on a direct child: Linux carries the parent's high-water mark
/// across exec into the child's figure, and this test process is larger than the tool.
fn run_measured(env: &Env, args: &[&str]) -> (String, Option<u64>) {
    let time = std::path::Path::new("/usr/bin/time");
    let mut cmd = env.std_cmd();
    if !time.exists() {
        let out = cmd.args(args).output().unwrap();
        return (String::from_utf8(out.stdout).unwrap(), None);
    }
    let mut timed = std::process::Command::new(time);
    timed
        .args(["-f", "%M"])
        .arg(cmd.get_program())
        .args(args)
        .current_dir(env.root.as_path())
        .env_clear()
        .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
        .stdin(std::process::Stdio::null());
    let out = timed.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let rss = stderr.lines().last().and_then(|l| l.trim().parse().ok());
    (String::from_utf8(out.stdout).unwrap(), rss)
}

/// A 1 GiB file made in an instant: 1,000 text lines, a sparse hole (one line of NULs almost
/// 1 GiB long) and 20 lines at the end. The tail is found by a pass over every byte (the
/// fingerprint needs them), holding neither the file nor that giant line.
#[test]
fn the_tail_of_a_1_gib_file_in_bounded_memory() {
    let env = Env::new();
    let path = env.path("huge.log");
    let mut f = std::fs::File::create(&path).unwrap();
    let head: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
    f.write_all(head.as_bytes()).unwrap();
    let tail: String = std::iter::once("\n".to_string())
        .chain((1..=20).map(|i| format!("TAIL {i}\n")))
        .collect();
    let size = 1u64 << 30;
    f.set_len(size - tail.len() as u64).unwrap();
    f.seek(SeekFrom::End(0)).unwrap();
    f.write_all(tail.as_bytes()).unwrap();
    drop(f);
    let started = std::time::Instant::now();
    let (stdout, rss_kib) = run_measured(&env, &["read", "huge.log", "--offset", "-3"]);
    let out: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        out["output"],
        "  1019\tTAIL 18\n  1020\tTAIL 19\n  1021\tTAIL 20\n"
    );
    assert_eq!(out["data"]["total_lines"], 1021);
    assert_eq!(out["data"]["size_bytes"], size);
    if let Some(kib) = rss_kib {
        assert!(kib < 16 * 1024, "peak RSS {kib} KiB");
    }
    eprintln!(
        "tail of 1 GiB: {:?}, peak RSS {rss_kib:?} KiB",
        started.elapsed()
    );
    // The record holds the whole file's fingerprint: an edit right after is not stale.
    let out = env.call(
        "edit",
        json!({"path": "huge.log", "old_string": "TAIL 20\n", "new_string": "END\n"}),
    );
    assert_ne!(out.code(), "not_read", "{}", out.stdout);
    assert_ne!(out.code(), "stale_read", "{}", out.stdout);
}
