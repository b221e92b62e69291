//! SPEC 31.4: stat goes through the checked handle like read. While a directory trades places
//! with a link to an outside one, stat never describes the outside file (it did in 29 of 150
//! swaps); while a file trades places with a FIFO, stat never blocks (it hung on 10 of 100).
//! The outside directory and the FIFO are the test's own.

use super::race::swapper;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use testkit::Env;

#[test]
fn stat_never_describes_an_outside_file_while_a_directory_is_swapped() {
    let env = Env::new();
    let outside = env.dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    // A size no inside file has.
    std::fs::write(outside.join("secret.txt"), vec![b'x'; 4321]).unwrap();
    std::fs::create_dir(env.path("d")).unwrap();
    std::fs::write(env.path("d/secret.txt"), "inside\n").unwrap();
    std::os::unix::fs::symlink(&outside, env.path("link")).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = swapper(&env.path("d"), &env.path("link"), stop.clone());
    let (mut described, mut leaked) = (0, 0);
    for _ in 0..150 {
        let out = env.call("stat", json!({"path": "d/secret.txt"}));
        match out.data()["size"].as_u64() {
            Some(4321) => leaked += 1,
            Some(_) => described += 1,
            None => {}
        }
    }
    stop.store(true, Ordering::Relaxed);
    assert!(swaps.join().unwrap() > 1000);
    assert_eq!(leaked, 0, "stat described the outside file");
    assert!(described > 0, "no stat got through at all");
}

#[test]
fn stat_never_blocks_on_a_fifo_swapped_in_for_a_file() {
    let env = Env::new();
    std::fs::create_dir(env.path("d")).unwrap();
    std::fs::write(env.path("d/f.txt"), "text\n").unwrap();
    let fifo = std::ffi::CString::new(env.path("d/pipe").to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = swapper(&env.path("d/f.txt"), &env.path("d/pipe"), stop.clone());
    let mut hung = 0;
    for _ in 0..100 {
        let mut child = env.spawn(&["stat", "d/f.txt"], &[], "");
        let deadline = Instant::now() + Duration::from_secs(5);
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                hung += 1;
                let _ = child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = child.wait();
    }
    stop.store(true, Ordering::Relaxed);
    swaps.join().unwrap();
    assert_eq!(hung, 0, "stat blocked on a FIFO");
}

/// `move --overwrite` journals the file it replaces through the target's checked handle: while
/// the target's directory trades places with a link out, the journal never keeps (hard-links)
/// an outside file. The outside files have the inside ones' content, so only the handle tells
/// them apart.
#[test]
fn move_overwrite_never_journals_an_outside_file_while_a_directory_is_swapped() {
    use std::os::unix::fs::MetadataExt;
    let env = Env::new();
    let outside = env.dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::create_dir(env.path("d")).unwrap();
    let n = 100;
    for i in 0..n {
        std::fs::write(env.path(&format!("d/t{i}.txt")), "same\n").unwrap();
        std::fs::write(outside.join(format!("t{i}.txt")), "same\n").unwrap();
        env.write_file(&format!("a{i}.txt"), "new\n");
    }
    std::os::unix::fs::symlink(&outside, env.path("link")).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = swapper(&env.path("d"), &env.path("link"), stop.clone());
    let mut moved = 0;
    for i in 0..n {
        env.call("read", json!({"path": format!("d/t{i}.txt")}));
        let out = env.call(
            "move",
            json!({"from": format!("a{i}.txt"), "to": format!("d/t{i}.txt"), "overwrite": true}),
        );
        moved += usize::from(out.ok());
    }
    stop.store(true, Ordering::Relaxed);
    swaps.join().unwrap();
    let linked: Vec<usize> = (0..n)
        .filter(|i| {
            std::fs::metadata(outside.join(format!("t{i}.txt"))).is_ok_and(|m| m.nlink() > 1)
        })
        .collect();
    assert!(
        linked.is_empty(),
        "outside files kept by the journal: {linked:?}"
    );
    assert!(moved > 0, "no move got through at all");
}

/// A path below a directory that does not exist names nothing, though the last directory that
/// does exist holds a file of that name (the handle stops there).
#[test]
fn a_path_below_a_missing_directory_names_nothing() {
    let env = Env::new();
    env.write_file("a.txt", "top\n");
    let out = env.call("stat", json!({"path": "nodir/a.txt"}));
    assert_eq!(out.data()["error"]["code"], "not_found", "{}", out.stdout);
    env.call("move", json!({"from": "a.txt", "to": "b/a.txt"}))
        .assert_ok();
    assert_eq!(env.read_file("b/a.txt"), b"top\n");
}
