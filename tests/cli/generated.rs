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
