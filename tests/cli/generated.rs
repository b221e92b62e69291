//! The committed completions/ and man/ are what `loopr-tool generate all` makes now: a change
//! to the CLI that is not regenerated fails here. To refresh them:
//!
//!     cargo run -q -- generate all --out-dir .

use std::collections::BTreeMap;
use std::path::Path;

fn files_under(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for sub in ["completions", "man"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for e in entries {
            let e = e.unwrap();
            out.insert(
                format!("{sub}/{}", e.file_name().to_string_lossy()),
                std::fs::read(e.path()).unwrap(),
            );
        }
    }
    out
}

#[test]
fn committed_completions_and_man_pages_are_up_to_date() {
    let tmp = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(testkit::bin())
        .args(["generate", "all", "--out-dir"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fresh = files_under(tmp.path());
    let committed = files_under(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        fresh.contains_key("completions/loopr-tool.bash")
            && fresh.contains_key("man/loopr-tool-read.1")
    );
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&committed),
        names(&fresh),
        "run `cargo run -q -- generate all --out-dir .`"
    );
    for (name, bytes) in &fresh {
        assert!(
            committed[name] == *bytes,
            "{name} is stale: run `cargo run -q -- generate all --out-dir .`"
        );
    }
}

#[test]
fn hidden_commands_stay_out_of_completions() {
    for shell in ["bash", "zsh", "fish"] {
        let out = std::process::Command::new(testkit::bin())
            .args(["generate", shell])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("read") && text.contains("root") && text.contains("session"),
            "{shell}"
        );
        assert!(
            !text.contains("generate"),
            "{shell} completion lists the hidden generate command"
        );
    }
}

/// What bash's completion offers for `words` (the last one being completed), by running the
/// committed script in bash as `complete -F` would.
fn bash_complete(words: &[&str]) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions/loopr-tool.bash");
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let last = words.len() - 1;
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={last}; _loopr__tool loopr-tool {} {}; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        quoted[last],
        quoted[last - 1],
    );
    let out = std::process::Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// SPEC 31.2: the bash script's case labels match what its dispatcher computes for a binary
/// whose name has a `-`, so every subcommand's flags complete (they completed to nothing).
#[test]
fn bash_completes_every_subcommands_flags() {
    assert_eq!(
        bash_complete(&["loopr-tool", "read", "--off"]),
        ["--offset"]
    );
    assert!(bash_complete(&["loopr-tool", "gre"]).contains(&"grep".to_string()));
    let subcommands = bash_complete(&["loopr-tool", ""]);
    assert!(subcommands.len() > 20, "{subcommands:?}");
    for sub in subcommands
        .iter()
        .filter(|s| !s.starts_with('-') && *s != "help")
    {
        let flags = bash_complete(&["loopr-tool", sub, "--"]);
        assert!(
            flags.iter().any(|f| f == "--help") && flags.len() > 1,
            "`loopr-tool {sub} --<TAB>` offers {flags:?}"
        );
    }
}
