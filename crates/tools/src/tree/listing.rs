//! tree's walked entries, held compactly until they are drawn and serialised.
//!
//! A tree of the whole of a large project (a limit of 100,000) holds tens of thousands of
//! entries at once, because drawing order (directories first, by name) is known only once the
//! parallel walk has finished. So each entry is a 16-byte row pointing into one shared buffer of
//! path bytes, not an owned `PathBuf` (an allocation each); the rows are sorted so that a
//! directory's children are one run, found by binary search (no map of child lists); and the
//! entries one level below the deepest shown, whose names are never shown, are only counted.

use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Dir,
    File,
    Symlink,
}

/// One entry: its path below the base, then its link target, back to back in `Listing::bytes`.
/// A `u16` holds either length: a link target is at most PATH_MAX (4096) bytes, and a path
/// shown is at most 64 levels (tree's deepest) of at most 255 bytes each.
#[derive(Debug, Clone, Copy)]
struct Row {
    start: usize,
    path_len: u16,
    /// `NO_TARGET` when there is none (not a symlink, or the link could not be read).
    target_len: u16,
    kind: Kind,
}

const NO_TARGET: u16 = u16::MAX;
const _: () = assert!(std::mem::size_of::<Row>() == 16);

/// The entries of a walk; sorted (`sort`) before they are looked up.
#[derive(Debug, Default)]
pub struct Listing {
    bytes: Vec<u8>,
    rows: Vec<Row>,
    /// How many entries each directory of the last level shown holds (below it, unwalked).
    beyond: HashMap<Box<[u8]>, usize>,
}

/// An entry as the drawing sees it.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// Below the base, `/`-separated: the key of its own children.
    pub path: &'a [u8],
    pub kind: Kind,
    pub target: Option<&'a [u8]>,
}

impl<'a> Entry<'a> {
    /// The last component (entries below the base are never empty or `..`).
    pub fn name(&self) -> &'a [u8] {
        split(self.path).1
    }
}

/// `(parent, name)`; the parent of the base's own entries is `""`.
fn split(path: &[u8]) -> (&[u8], &[u8]) {
    match path.iter().rposition(|&c| c == b'/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (&path[..0], path),
    }
}

impl Listing {
    pub fn push(&mut self, path: &[u8], kind: Kind, target: Option<&[u8]>) {
        let start = self.bytes.len();
        let path = fit16(path);
        self.bytes.extend_from_slice(path);
        let target_len = match target.map(fit16) {
            Some(t) => {
                self.bytes.extend_from_slice(t);
                t.len() as u16
            }
            None => NO_TARGET,
        };
        self.rows.push(Row {
            start,
            path_len: path.len() as u16,
            target_len,
            kind,
        });
    }

    /// Counts an entry below the last level shown, in the directory `parent`.
    pub fn count_beyond(&mut self, parent: &[u8]) {
        match self.beyond.get_mut(parent) {
            Some(n) => *n += 1,
            None => {
                self.beyond.insert(parent.into(), 1);
            }
        }
    }

    /// Moves `other`'s entries here, leaving it empty with its buffers' capacity.
    fn append(&mut self, other: &mut Listing) {
        let shift = self.bytes.len();
        // Exact: this buffer ends as large as the whole listing, and doubling it would leave up
        // to as much again unused at the peak.
        self.bytes.reserve_exact(other.bytes.len());
        self.bytes.extend_from_slice(&other.bytes);
        self.rows.reserve_exact(other.rows.len());
        self.rows.extend(other.rows.iter().map(|r| Row {
            start: r.start + shift,
            ..*r
        }));
        for (dir, n) in other.beyond.drain() {
            *self.beyond.entry(dir).or_default() += n;
        }
        other.bytes.clear();
        other.rows.clear();
    }

    fn entry(&self, r: &Row) -> Entry<'_> {
        let path_end = r.start + r.path_len as usize;
        Entry {
            path: &self.bytes[r.start..path_end],
            kind: r.kind,
            target: (r.target_len != NO_TARGET)
                .then(|| &self.bytes[path_end..path_end + r.target_len as usize]),
        }
    }

    /// Orders the rows by parent, then directories first, then name (as raw bytes): the order
    /// each directory's children are drawn in, and one run per directory.
    pub fn sort(&mut self) {
        let Listing { bytes, rows, .. } = self;
        let key = |r: &Row| {
            let (parent, name) = split(&bytes[r.start..r.start + r.path_len as usize]);
            (parent, r.kind != Kind::Dir, name)
        };
        rows.sort_unstable_by(|a, b| key(a).cmp(&key(b)));
        self.bytes.shrink_to_fit();
        self.rows.shrink_to_fit();
    }

    /// The children of the directory at `dir` (`""`: the base), in drawing order. Needs `sort`.
    pub fn children(&self, dir: &[u8]) -> impl ExactSizeIterator<Item = Entry<'_>> {
        let parent = |r: &Row| split(&self.bytes[r.start..r.start + r.path_len as usize]).0;
        let from = self.rows.partition_point(|r| parent(r) < dir);
        let n = self.rows[from..].partition_point(|r| parent(r) == dir);
        self.rows[from..from + n].iter().map(|r| self.entry(r))
    }

    /// How many entries the directory at `dir`, on the last level shown, holds.
    pub fn beyond(&self, dir: &[u8]) -> usize {
        self.beyond.get(dir).copied().unwrap_or(0)
    }
}

/// `b`, cut to what a `Row` can say (see there: never cut in practice).
fn fit16(b: &[u8]) -> &[u8] {
    &b[..b.len().min(usize::from(NO_TARGET - 1))]
}

/// One walking thread's entries, moved into the shared listing a batch at a time: the shared
/// lock is taken rarely, and no thread holds more than a batch of its own.
pub struct Batch<'a> {
    local: Listing,
    into: &'a Mutex<Listing>,
}

const BATCH_BYTES: usize = 16 * 1024;

impl<'a> Batch<'a> {
    pub fn new(into: &'a Mutex<Listing>) -> Self {
        Batch {
            local: Listing::default(),
            into,
        }
    }

    pub fn push(&mut self, path: &[u8], kind: Kind, target: Option<&[u8]>) {
        self.local.push(path, kind, target);
        if self.local.bytes.len() >= BATCH_BYTES {
            self.flush();
        }
    }

    pub fn count_beyond(&mut self, parent: &[u8]) {
        self.local.count_beyond(parent);
    }

    fn flush(&mut self) {
        let mut all = self.into.lock().unwrap_or_else(|p| p.into_inner());
        all.append(&mut self.local);
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names<'a>(l: &'a Listing, dir: &str) -> Vec<&'a str> {
        l.children(dir.as_bytes())
            .map(|e| std::str::from_utf8(e.name()).unwrap())
            .collect()
    }

    #[test]
    fn children_are_one_run_per_directory_dirs_first_by_bytes() {
        let shared = Mutex::new(Listing::default());
        // Two threads' batches, in walk order, not drawing order.
        let mut a = Batch::new(&shared);
        let mut b = Batch::new(&shared);
        a.push(b"src/z.rs", Kind::File, None);
        b.push(b"b", Kind::File, None);
        a.push(b"src", Kind::Dir, None);
        b.push(b"src/a", Kind::Dir, None);
        a.push(b"link", Kind::Symlink, Some(b"../out"));
        b.push(b"Z", Kind::Dir, None);
        b.push(b"src-x", Kind::Dir, None);
        a.count_beyond(b"src/a");
        b.count_beyond(b"src/a");
        drop((a, b));
        let mut l = shared.into_inner().unwrap();
        l.sort();
        assert_eq!(names(&l, ""), ["Z", "src", "src-x", "b", "link"]);
        assert_eq!(names(&l, "src"), ["a", "z.rs"]);
        assert!(names(&l, "src/a").is_empty());
        assert!(names(&l, "nothing").is_empty());
        assert_eq!(l.children(b"").len(), 5);
        let link = l.children(b"").last().unwrap();
        assert_eq!(
            (link.kind, link.target),
            (Kind::Symlink, Some(&b"../out"[..]))
        );
        assert_eq!(l.children(b"src").next().unwrap().path, b"src/a");
        assert_eq!((l.beyond(b"src/a"), l.beyond(b"src")), (2, 0));
    }

    #[test]
    fn a_full_batch_moves_to_the_shared_listing() {
        let shared = Mutex::new(Listing::default());
        let mut a = Batch::new(&shared);
        let long = vec![b'x'; 1000];
        for _ in 0..20 {
            a.push(&long, Kind::File, None);
        }
        assert!(a.local.bytes.len() < BATCH_BYTES);
        assert!(!shared.lock().unwrap().rows.is_empty());
        drop(a);
        assert_eq!(shared.lock().unwrap().rows.len(), 20);
    }
}
