//! The README's examples, run (SPEC 31.2): every ```console block of README.md is replayed in
//! order, in one scratch project (`fixture`), and what each command prints (stdout and stderr,
//! as a terminal shows them) is compared with what the README shows under it — trycmd's idea
//! and notation: `[..]` in a line matches any text, a line `...` any number of lines. A change
//! to the binary that changes an example fails here until the README says it too.

use std::fmt::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use testkit::Env;

/// One `$ command` of a console block and the lines the README shows it printing.
struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The examples of each ```console block, in order.
fn console_blocks(readme: &str) -> Vec<Vec<Example>> {
    let mut blocks = vec![];
    let mut current: Option<Vec<Example>> = None;
    let mut continued = false;
    for (i, line) in readme.lines().enumerate() {
        match (&mut current, line) {
            (None, "```console") => current = Some(vec![]),
            (None, _) => {}
            (Some(_), "```") => blocks.push(current.take().unwrap()),
            (Some(examples), _) if continued => {
                let last = examples.last_mut().unwrap();
                last.command.push('\n');
                last.command.push_str(line);
                continued = line.ends_with('\\');
            }
            (Some(examples), _) => {
                if let Some(command) = line.strip_prefix("$ ") {
                    continued = command.ends_with('\\');
                    examples.push(Example {
                        line: i + 1,
                        command: command.to_string(),
                        expected: vec![],
                    });
                } else if let Some(last) = examples.last_mut() {
                    last.expected.push(line.to_string());
                }
            }
        }
    }
    for block in &mut blocks {
        for e in block.iter_mut() {
            while e.expected.last().is_some_and(|l| l.is_empty()) {
                e.expected.pop();
            }
        }
    }
    blocks
}

/// Whether `line` matches `pattern`, where `[..]` stands for any text. Trailing blanks do not
/// count (a prompt's `>>> ` is shown as `>>>`: editors strip them).
fn line_matches(pattern: &str, line: &str) -> bool {
    let (pattern, line) = (pattern.trim_end(), line.trim_end());
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether `actual` matches `expected`, where a line `...` stands for any number of lines.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, more)) if e == "..." => {
            (0..=actual.len()).any(|skip| lines_match(more, &actual[skip..]))
        }
        Some((e, more)) => actual
            .split_first()
            .is_some_and(|(a, rest)| line_matches(e, a) && lines_match(more, rest)),
    }
}

/// The project the tour runs in: what each example's command finds there.
fn fixture(env: &Env) {
    let files: &[(&str, &str)] = &[
        (
            "src/main.rs",
            "fn main() {\n\tlet greeting = \"hello\";\n\tprintln!(\"{greeting}\");\n}\n",
        ),
        ("src/lib.rs", "pub fn lib() {}\n"),
        ("src/old.rs", "// to be moved\n"),
        (".gitignore", "target/\n"),
        ("target/debug/build.rs", "// generated\n"),
        ("notes.txt", "scratch\n"),
        ("site/page.html", PAGE),
        ("app.py", APP),
        ("nb.ipynb", NOTEBOOK),
        (
            "examples/catalog.toml",
            include_str!("../../examples/catalog.toml"),
        ),
        (
            "broken.toml",
            "[tools.read]\nlane = \"fast\"\ncolour = \"red\"\n",
        ),
    ];
    for (path, content) in files {
        env.write_file(path, content);
    }
    let log: String = (1..=5000).map(|i| format!("line {i}\n")).collect();
    env.write_file("big.log", log);
}

const PAGE: &str = "<html><head><title>Install</title></head><body><nav>menu</nav>\
<main><h1>Install</h1><p>Run <code>make</code>. See <a href=\"/a\">this</a>.</p></main></body></html>\n";

const APP: &str = "import json\n\n\nclass Store:\n    \"\"\"Records kept one JSON object a line.\"\"\"\n\n    def __init__(self, path):\n        self.path = path\n\n    # Load every record, skipping broken lines.\n    def load(self):\n        out = []\n        for line in open(self.path):\n            try:\n                out.append(json.loads(line))\n            except ValueError:\n                continue\n        return out\n";

const NOTEBOOK: &str = r#"{"cells": [{"cell_type": "code", "id": "calc", "metadata": {}, "source": ["print(6 * 7)"], "outputs": [], "execution_count": null}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
"#;

/// A directory holding `loopr-tool`, first on the examples' PATH.
fn bin_dir(env: &Env) -> std::path::PathBuf {
    let dir = env.dir.path().join("bin");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(testkit::bin(), dir.join("loopr-tool")).unwrap();
    dir
}

/// Runs one example's command as a terminal user would, in bash: what it prints, both streams.
fn run(env: &Env, bin: &Path, command: &str) -> String {
    let cmd = env.std_cmd();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut sh = Command::new("bash");
    sh.args(["--norc", "--noprofile", "-c", &format!("{command} 2>&1")])
        .current_dir(&env.root)
        .env_clear()
        .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped());
    let out = sh.output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A loopback web server for the fetch examples (`site/` on 127.0.0.1:8765), stopped on drop.
struct Site(std::process::Child);

impl Site {
    fn start(env: &Env) -> Site {
        let child = Command::new("python3")
            .args(["-m", "http.server", "8765", "--bind", "127.0.0.1"])
            .current_dir(env.path("site"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 serves the fetch examples' page");
        let stop = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::net::TcpStream::connect("127.0.0.1:8765").is_err() {
            assert!(std::time::Instant::now() < stop, "port 8765 did not open");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Site(child)
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn every_console_example_in_the_readme_prints_what_it_shows() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let blocks = console_blocks(&readme);
    let count: usize = blocks.iter().map(Vec::len).sum();
    assert!(count >= 30, "the README's examples were not found: {count}");
    let env = Env::new();
    fixture(&env);
    let bin = bin_dir(&env);
    let _site = Site::start(&env);
    let mut failures = String::new();
    for example in blocks.iter().flatten() {
        let printed = run(&env, &bin, &example.command);
        let lines: Vec<&str> = printed.lines().collect();
        if !lines_match(&example.expected, &lines) {
            let _ = writeln!(
                failures,
                "README.md:{}: $ {}\n--- the README shows:\n{}\n--- it printed:\n{}",
                example.line,
                example.command,
                example.expected.join("\n"),
                printed
            );
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

#[test]
fn the_notation_matches_what_it_says() {
    assert!(line_matches(
        "Exit code: 0 ([..] s)",
        "Exit code: 0 (2.0 s)"
    ));
    assert!(!line_matches(
        "Exit code: 0 ([..] s)",
        "Exit code: 1 (2.0 s)"
    ));
    assert!(line_matches("[..]", "anything"));
    assert!(line_matches("a[..]b[..]c", "a1b2c"));
    assert!(!line_matches("a[..]b", "a1c"));
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&e(&["a", "...", "z"]), &["a", "b", "c", "z"]));
    assert!(lines_match(&e(&["a", "...", "z"]), &["a", "z"]));
    assert!(!lines_match(&e(&["a", "...", "z"]), &["a", "b"]));
    assert!(!lines_match(&e(&["a"]), &["a", "b"]));
}
