//! The bounded, ordered collection of every file's results.
//!
//! Files finish in any order (the walk is parallel), yet the page asked for (`offset`,
//! `head_limit`) is defined in path order. The collector keeps files in a set ordered by path
//! and drops any file whose first entry already ranks past the page: a file that arrives later
//! can only push it further down. So memory holds about one page of entries, however many lines
//! match, while `total` still counts them all. With head_limit 0 the page is everything, and
//! past `spill::HOLD` bytes files' lines go to a temp file until the page is written.

use super::collect::{FileResult, Mode};
use super::spill::{HOLD, Spill};
use crate::walk::path_cmp;
use std::collections::BTreeSet;
use std::sync::Mutex;

/// Every file's results, in path order, bounded to the page.
pub struct Collector {
    mode: Mode,
    /// `offset + head_limit`, or `usize::MAX` when unlimited.
    window: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    files: BTreeSet<ByPath>,
    /// Entries in `files`.
    kept: usize,
    /// Entries found, kept or not.
    total: usize,
    /// Bytes of kept lines held in memory (the others are in `spill`).
    held: usize,
    spill: Spill,
}

impl Collector {
    pub fn new(mode: Mode, window: usize) -> Self {
        Collector {
            mode,
            window,
            state: Mutex::new(State::default()),
        }
    }

    pub fn add(&self, mut r: FileResult) {
        let n = r.entries(self.mode);
        if n == 0 {
            return;
        }
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.total += n;
        if self.window != usize::MAX
            && s.kept >= self.window
            && s.files
                .last()
                .is_some_and(|last| path_cmp(&r.rel, &last.0.rel).is_gt())
        {
            return; // ranks past a full page
        }
        s.kept += n;
        let size = r.held();
        if s.held + size > HOLD && s.spill.usable() {
            r.spill(&mut s.spill);
        } else {
            s.held += size;
        }
        s.files.insert(ByPath(r));
        // Drop trailing files whose first entry ranks at or past the page's end.
        while let Some(last) = s.files.last() {
            let (ln, held) = (last.0.entries(self.mode), last.0.held());
            if s.kept - ln >= self.window {
                s.kept -= ln;
                s.held -= held;
                s.files.pop_last();
            } else {
                break;
            }
        }
    }

    pub fn finish(self) -> Found {
        let mut s = self.state.into_inner().unwrap_or_else(|p| p.into_inner());
        s.spill.finish();
        Found {
            files: s.files,
            total: s.total,
            spill: s.spill,
        }
    }
}

/// What the search found: the files kept, in path order (left in their set: a list of them
/// would be as large again), the total number of entries, and where spilled lines are.
pub struct Found {
    files: BTreeSet<ByPath>,
    pub total: usize,
    pub spill: Spill,
}

impl Found {
    pub fn files(&self) -> impl Iterator<Item = &FileResult> {
        self.files.iter().map(|f| &f.0)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }
}

/// A file's results ordered by its path (the walk yields every path once).
struct ByPath(FileResult);

impl Ord for ByPath {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        path_cmp(&self.0.rel, &other.0.rel)
    }
}

impl PartialOrd for ByPath {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for ByPath {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for ByPath {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grep::collect::tests::{all, file, search};
    use std::path::PathBuf;

    #[test]
    fn keeps_the_first_page_in_path_order_whatever_the_arrival_order() {
        let c = Collector::new(Mode::Content, 4);
        for (name, n) in [("d", 3), ("b", 2), ("e", 9), ("a", 1), ("c", 5)] {
            c.add(file(name, n));
        }
        let found = c.finish();
        let (files, total): (Vec<_>, _) = (found.files().collect(), found.total);
        assert_eq!(total, 20);
        let names: Vec<_> = files.iter().map(|f| f.rel.to_str().unwrap()).collect();
        // a(1) b(2) c(5): c's first entry is the 4th, so it stays; d and e rank past the page.
        assert_eq!(names, ["a", "b", "c"]);
    }

    #[test]
    fn files_mode_counts_files() {
        let c = Collector::new(Mode::Files, 2);
        for name in ["z", "y", "x", "w"] {
            c.add(file(name, 3));
        }
        let found = c.finish();
        let (files, total): (Vec<_>, _) = (found.files().collect(), found.total);
        assert_eq!(total, 4);
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].rel, PathBuf::from("w"));
    }

    #[test]
    fn files_past_the_budget_are_spilled_and_read_back_the_same() {
        // 40 files of 100 matches with context, each line about 100 bytes: ~1 MB in all.
        let text: String = (1..=300)
            .map(|i| {
                format!(
                    "{} {}\n",
                    if i % 3 == 0 { "hit" } else { "ctx" },
                    "é".repeat(48)
                )
            })
            .collect();
        let c = Collector::new(Mode::Content, usize::MAX);
        let mut expected = Vec::new();
        for i in 0..40 {
            let mut f = search(&text, "hit", usize::MAX);
            f.rel = PathBuf::from(format!("f{i:02}"));
            expected.push(all(&f, &Spill::default()));
            c.add(f);
        }
        let found = c.finish();
        let (files, total, spill): (Vec<_>, _, _) =
            (found.files().collect(), found.total, &found.spill);
        assert_eq!(total, 40 * 100);
        let spilled = files.iter().filter(|f| f.is_spilled()).count();
        let held: usize = files.iter().map(|f| f.held()).sum();
        assert!(spilled > 20, "{spilled} files spilled");
        assert!(held <= HOLD, "{held} bytes held");
        for (i, f) in files.iter().enumerate() {
            assert_eq!(all(f, spill), expected[i], "file {i}");
        }
    }
}
