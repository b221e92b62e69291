//! Where grep keeps matched lines past a memory budget: an unlinked temp file.
//!
//! `output` comes before `data` in the envelope and ends with the total, so nothing can be
//! printed before the whole search has finished, and with head_limit 0 every matching line waits
//! for it — on a large tree, tens of megabytes that ripgrep, printing as it goes, never holds.
//! Past `HOLD` bytes, a file's kept lines are appended to a temp file (as `sort` spills its runs)
//! and read back, one file at a time, when the page is written. Nothing is lost when the temp file
//! cannot be made or written: what it would have held stays in memory.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::FileExt;

/// Kept lines held in memory before later files' go to the temp file.
pub const HOLD: usize = 256 * 1024;
/// Spilled bytes are written a block at a time.
const BLOCK: usize = 64 * 1024;

#[derive(Default)]
pub struct Spill {
    /// Made at the first spill.
    file: Option<File>,
    /// The temp file could not be made or written: whatever is spilled from then on stays in
    /// `pending`.
    failed: bool,
    /// Bytes in the file; `pending` follows them.
    written: u64,
    pending: Vec<u8>,
}

impl Spill {
    /// Appends `bytes` and then what `more` writes; returns where they start, to `read` them
    /// back with their length. A block of `bytes` or more goes straight to the file, not
    /// through memory.
    pub fn put(&mut self, bytes: &[u8], more: impl FnOnce(&mut Vec<u8>)) -> u64 {
        let at = self.written + self.pending.len() as u64;
        if self.pending.len() + bytes.len() >= BLOCK {
            self.write_pending();
        }
        if bytes.len() < BLOCK || !self.pending.is_empty() || self.write(bytes).is_err() {
            self.pending.extend_from_slice(bytes);
        }
        more(&mut self.pending);
        if self.pending.len() >= BLOCK {
            self.write_pending();
        }
        at
    }

    /// Whether spilling frees memory (it does not once the temp file has failed).
    pub fn usable(&self) -> bool {
        !self.failed
    }

    /// Writes what is pending; on failure keeps it, and every later spill, in memory.
    fn write_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        if self.write(&pending).is_ok() {
            self.pending = pending;
            self.pending.clear();
        } else {
            self.pending = pending;
        }
    }

    /// Appends `bytes` to the file (made at the first write), right after what is written.
    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.failed {
            return Err(io::Error::other("the spill file failed before"));
        }
        let written = (|| {
            crate::fault::check("spill")?;
            if self.file.is_none() {
                self.file = Some(tempfile::tempfile()?);
            }
            let file = self.file.as_mut().expect("made just above");
            file.write_all(bytes)
        })();
        match written {
            Ok(()) => self.written += bytes.len() as u64,
            // A short write may have left part of `bytes` in the file; `written` does not
            // count it, and from now on all goes to `pending`, where reads of it go too.
            Err(_) => self.failed = true,
        }
        written
    }

    /// Writes the last, partial block: after this only reads follow.
    pub fn finish(&mut self) {
        self.write_pending();
        if !self.failed {
            self.pending = Vec::new();
        }
    }

    /// Reads `len` bytes from `at` into `out` (replacing what it held). A short read from the
    /// file goes through `window`, a block of the file read whole: files are read back in path
    /// order and were spilled in about the order they were searched, directory by directory, so
    /// one block read usually serves several of them.
    pub fn read(
        &self,
        at: u64,
        len: usize,
        out: &mut Vec<u8>,
        window: &mut Window,
    ) -> io::Result<()> {
        out.clear();
        out.resize(len, 0);
        let end = at + len as u64;
        // The part in the file, then the part still pending.
        let in_file = end.min(self.written).saturating_sub(at) as usize;
        if in_file > 0 {
            crate::fault::check("unspill")?;
            let file = self
                .file
                .as_ref()
                .ok_or_else(|| io::Error::other("no spill file"))?;
            let block = at - at % BLOCK as u64;
            let within = |w: &Window| w.at == block && w.bytes.len() as u64 >= end - block;
            if at + in_file as u64 <= block + BLOCK as u64 && !within(window) {
                let n = (self.written - block).min(BLOCK as u64) as usize;
                window.bytes.resize(n, 0);
                window.at = block;
                if let Err(e) = file.read_exact_at(&mut window.bytes, block) {
                    window.bytes.clear();
                    return Err(e);
                }
            }
            if within(window) {
                let from = (at - block) as usize;
                out[..in_file].copy_from_slice(&window.bytes[from..from + in_file]);
            } else {
                file.read_exact_at(&mut out[..in_file], at)?;
            }
        }
        if in_file < len {
            let from = (at + in_file as u64 - self.written) as usize;
            let rest = self
                .pending
                .get(from..from + len - in_file)
                .ok_or_else(|| io::Error::other("spilled bytes out of range"))?;
            out[in_file..].copy_from_slice(rest);
        }
        Ok(())
    }
}

/// The block of the spill file last read whole (see `Spill::read`).
#[derive(Default)]
pub struct Window {
    at: u64,
    bytes: Vec<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(s: &mut Spill, bytes: &[u8]) -> (u64, usize) {
        // Half given as `bytes`, half written by `more`.
        let (a, b) = bytes.split_at(bytes.len() / 2);
        (s.put(a, |out| out.extend_from_slice(b)), bytes.len())
    }

    /// Read back with a fresh window and through one shared with earlier reads: the same.
    fn get(s: &Spill, (at, len): (u64, usize)) -> Vec<u8> {
        thread_local!(static WINDOW: std::cell::RefCell<Window> = Default::default());
        let mut out = vec![b'?'; 3];
        s.read(at, len, &mut out, &mut Window::default()).unwrap();
        let mut again = Vec::new();
        WINDOW
            .with_borrow_mut(|w| s.read(at, len, &mut again, w))
            .unwrap();
        assert_eq!(out, again, "{at}+{len}");
        out
    }

    #[test]
    fn what_is_put_reads_back_from_the_file_or_from_memory() {
        let mut s = Spill::default();
        let small = put(&mut s, b"first");
        // Still pending: read from memory.
        assert_eq!(get(&s, small), b"first");
        let block: Vec<u8> = (0..BLOCK + 10).map(|i| i as u8).collect();
        let big = put(&mut s, &block);
        assert_eq!(
            s.written as usize,
            BLOCK + 15,
            "a full block is written out"
        );
        assert!(s.pending.is_empty());
        let huge: Vec<u8> = (0..3 * BLOCK).map(|i| (i * 7) as u8).collect();
        let direct = s.put(&huge, |out| out.extend_from_slice(b"rows"));
        assert_eq!(s.pending, b"rows", "a large part goes straight to the file");
        let direct = (direct, huge.len() + 4);
        let tail = put(&mut s, b"tail");
        assert_eq!(get(&s, small), b"first");
        assert_eq!(get(&s, big), block);
        assert_eq!(get(&s, tail), b"tail");
        assert_eq!(get(&s, direct), [&huge[..], b"rows"].concat());
        s.finish();
        assert_eq!(get(&s, tail), b"tail");
        assert_eq!(get(&s, (big.0 + 3, 4)), &block[3..7]);
        assert_eq!(get(&s, (0, 0)), b"");
    }

    #[test]
    fn small_chunks_read_back_in_any_order_through_the_window() {
        let mut s = Spill::default();
        let chunks: Vec<(u64, usize, Vec<u8>)> = (0..2000u32)
            .map(|i| {
                let bytes: Vec<u8> = (0..(i % 197) + 1).map(|k| (i + k) as u8).collect();
                let (at, len) = put(&mut s, &bytes);
                (at, len, bytes)
            })
            .collect();
        s.finish();
        assert!(s.written > 2 * BLOCK as u64);
        // Forwards, backwards and scattered, each through one window.
        let mut w = Window::default();
        let mut out = Vec::new();
        let order = (0..2000)
            .chain((0..2000).rev())
            .chain((0..2000).map(|i| i * 7919 % 2000));
        for i in order {
            let (at, len, bytes) = &chunks[i];
            s.read(*at, *len, &mut out, &mut w).unwrap();
            assert_eq!(&out, bytes, "chunk {i}");
        }
    }

    #[test]
    fn after_a_failed_write_everything_stays_in_memory_and_reads_back() {
        let mut s = Spill {
            failed: true,
            ..Spill::default()
        };
        let huge: Vec<u8> = (0..2 * BLOCK).map(|i| (i * 3) as u8).collect();
        let a = put(&mut s, &huge);
        let b = put(&mut s, b"small");
        s.finish();
        assert!(s.file.is_none());
        assert_eq!((get(&s, a), get(&s, b)), (huge, b"small".to_vec()));
    }

    #[test]
    fn a_read_past_the_end_is_an_error_not_a_panic() {
        let mut s = Spill::default();
        put(&mut s, b"abc");
        let mut out = Vec::new();
        assert!(s.read(1, 10, &mut out, &mut Window::default()).is_err());
    }
}
