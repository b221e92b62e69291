//! The loopr-tool binary: its own entry point (entry.rs), then the library's command line.

// Our own C `main` (entry.rs); under `cargo test` the test harness brings its own.
#![cfg_attr(not(test), no_main)]

mod entry;

use loopr_tool::run_main;

/// The process's entry (entry.rs says why it is not std's).
#[cfg(not(test))]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    entry::init();
    // A panic never gets here (the hook prints the envelope and exits, or the call's own catch
    // answers it), but one that did must not unwind into C.
    let status = std::panic::catch_unwind(run_main).map_or(101, |s| s.code());
    std::process::exit(status)
}

/// Under `cargo test` the harness is the entry; this keeps what `main` reaches checked as used.
#[cfg(test)]
fn main() {
    entry::init();
    std::process::exit(run_main().code())
}
