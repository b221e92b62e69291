//! A loop in a linked git worktree commits under `workspace-write` (SPEC 25.7): the
//! repository's objects, refs and logs and the worktree's admin dir are writable, the
//! repository's top (config, hooks) is not, and a write refused there is named in a warning.

use serde_json::json;
use std::path::{Path, PathBuf};
use testkit::{Env, Out};

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.email=t@t", "-c", "user.name=t"])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// A repository beside the root, with the root as its linked worktree `root`; the repo's path.
fn worktree(env: &Env) -> PathBuf {
    let repo = env.dir.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("a.txt"), "a\n").unwrap();
    git(&repo, &["add", "a.txt"]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    git(
        &repo,
        &[
            "worktree",
            "add",
            "-q",
            env.root.to_str().unwrap(),
            "-b",
            "wt",
        ],
    );
    std::fs::canonicalize(repo).unwrap()
}

fn run(env: &Env, command: &str) -> Out {
    let tmp = env.dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut c = env.cmd();
    c.env("TMPDIR", tmp)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .arg("run")
        .write_stdin(json!({"command": command, "sandbox": "workspace-write"}).to_string());
    testkit::finish(c)
}

#[test]
fn a_linked_worktree_commits_under_workspace_write() {
    let env = Env::new();
    let repo = worktree(&env);
    env.write_file("b.txt", "b\n");
    let out = run(
        &env,
        "git add b.txt && git -c user.email=t@t -c user.name=t commit -q -m second",
    );
    // Git 2.42+ also tries packed-refs.lock (dropping AUTO_MERGE) and says so; the commit holds.
    out.assert_ok();
    let log = std::process::Command::new("git")
        .current_dir(&repo)
        .args(["log", "--format=%s", "wt"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&log.stdout),
        "second\nfirst\n",
        "{}",
        out.output()
    );
    let git_dir = repo.join(".git");
    let want: Vec<String> = ["objects", "refs", "logs", "worktrees/root"]
        .iter()
        .map(|d| git_dir.join(d).to_string_lossy().into_owned())
        .collect();
    assert_eq!(out.data()["sandbox"]["writable"], json!(want));
}

#[test]
fn the_repositorys_config_and_hooks_stay_read_only() {
    let env = Env::new();
    let repo = worktree(&env);
    let git_dir = repo.join(".git");
    let hook = git_dir.join("hooks/x");
    let out = run(&env, &format!("echo evil > {}", hook.display()));
    out.assert_err("command_failed");
    assert!(!hook.exists());
    let warning = out.data()["warnings"].to_string();
    assert!(
        warning.contains(&hook.to_string_lossy().into_owned())
            && warning.contains("[run] writable_roots"),
        "{warning}"
    );
    let config = std::fs::read(git_dir.join("config")).unwrap();
    let out = run(&env, "git config core.hooksPath /tmp/elsewhere");
    out.assert_err("command_failed");
    assert_eq!(std::fs::read(git_dir.join("config")).unwrap(), config);
    assert!(
        out.data()["warnings"].to_string().contains("config"),
        "{}",
        out.json
    );
    // Outside a linked worktree nothing is added.
    let plain = Env::new();
    let out = run(&plain, "true");
    out.assert_ok();
    assert!(out.data()["sandbox"].get("writable").is_none());
}
