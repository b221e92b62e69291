//! SPEC 30.2: the end-to-end tests are a handful of area harnesses (`tests/<area>/main.rs`, each
//! test file a module of its area; at most 12 across the workspace), with the shared helpers in
//! crates/testkit, compiled once. A file dropped straight into tests/ would be a test binary of
//! its own, linked again after every change to the library.

use std::path::{Path, PathBuf};

/// The test binaries cargo finds under `dir`: `*.rs` files and `*/main.rs` folders.
fn binaries(dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut files, mut folders) = (vec![], vec![]);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (files, folders);
    };
    for path in entries.map(|e| e.unwrap().path()) {
        if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        } else if path.join("main.rs").is_file() {
            folders.push(path);
        }
    }
    (files, folders)
}

#[test]
fn the_tests_are_a_handful_of_area_harnesses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (loose, mut harnesses) = binaries(&root.join("tests"));
    assert!(
        loose.is_empty(),
        "each of these is a test binary of its own; make it a module of its area's \
         tests/<area>/main.rs: {loose:?}"
    );
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        let (files, folders) = binaries(&krate.unwrap().path().join("tests"));
        harnesses.extend(files.into_iter().chain(folders));
    }
    assert!(
        harnesses.len() <= 12,
        "{} test harnesses in the workspace, SPEC 30.2 allows 12: {harnesses:?}",
        harnesses.len()
    );
}
