//! The panic hook (SPEC 16.2, 23.1): a panic is a bug, but the caller still gets an envelope.
//! A module of its own below the CLI, so the CLI and `generate` do not meet through it.

use crate::envelope::{Envelope, Format};
use crate::error::ToolError;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the panic hook needs to print a proper envelope.
static PANIC_CONTEXT: Mutex<(String, bool, bool)> = Mutex::new((String::new(), false, false));

pub fn set_panic_context(tool: &str, format: Format, pretty: bool) {
    if let Ok(mut c) = PANIC_CONTEXT.lock() {
        *c = (tool.to_string(), format == Format::Text, pretty);
    }
}

/// Set by `call`, `batch` and `mcp`: each tool call there runs under a catch that answers a
/// panic in its own slot (SPEC 23.1), so the hook must not end the process.
static ISOLATE_PANICS: AtomicBool = AtomicBool::new(false);

pub fn isolate_panics() {
    ISOLATE_PANICS.store(true, Ordering::SeqCst);
}

/// A panic is a bug, but the caller still gets an envelope (SPEC 16.2): `internal_error`, exit 1.
/// Under `call`, `batch` and `mcp` the hook only logs: the stack unwinds to the call's catch
/// (dispatch), which answers that call alone.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        if ISOLATE_PANICS.load(Ordering::SeqCst) {
            eprintln!("loopr-tool: a call hit a bug: {info}");
            return;
        }
        let (tool, text, pretty) = PANIC_CONTEXT.lock().map(|c| c.clone()).unwrap_or_default();
        let tool = if tool.is_empty() {
            "loopr-tool".to_string()
        } else {
            tool
        };
        let msg = format!("loopr-tool hit a bug and stopped: {info}");
        eprintln!("{msg}");
        let err = ToolError::internal(msg)
            .hint("This is a bug in loopr-tool; please report it with the input that caused it.");
        let format = if text { Format::Text } else { Format::Json };
        let status = Envelope::failure(&tool, err, &[]).print(format, pretty);
        std::process::exit(status.code());
    }));
}
