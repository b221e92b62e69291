//! tree's drawing and its `data` (SPEC §10, 16.3): both laid out from the sorted listing, in
//! the same order and with the same stop at `limit`.
//!
//! The drawing is made at once (it is capped, like every output); `data.tree` is serialised
//! straight from the listing when the envelope is printed, so a large tree never exists as a
//! `Value` (a map per node, several times the listing's size) nor twice.

use super::listing::{Entry, Kind, Listing};
use crate::caps;
use crate::envelope::{Data, Success};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::Value;
use std::borrow::Cow;
use std::cell::Cell;
use std::io::{self, Write};

/// What is drawn: how deep and how many entries.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub depth: usize,
    pub limit: usize,
}

pub struct Drawn {
    /// The drawing's first lines: those past the output cap are counted, not formatted.
    lines: Vec<String>,
    /// Lines in the whole drawing.
    total_lines: usize,
    directories: usize,
    files: usize,
    /// The limit stopped the drawing.
    stopped: Option<usize>,
    /// Names shown with U+FFFD.
    pub lossy: usize,
    root_name: String,
    listing: Listing,
    shape: Shape,
}

struct Drawer<'a> {
    listing: &'a Listing,
    shape: Shape,
    shown: usize,
    directories: usize,
    files: usize,
    stopped: bool,
    lossy: usize,
    lines: Vec<String>,
    total_lines: usize,
    chars: usize,
}

/// A name as shown; the flag says it was not UTF-8.
fn shown(name: &[u8]) -> (Cow<'_, str>, bool) {
    let s = String::from_utf8_lossy(name);
    let lossy = matches!(s, Cow::Owned(_));
    (s, lossy)
}

fn target_shown(e: &Entry<'_>) -> Cow<'static, str> {
    e.target.map_or(Cow::Borrowed("?"), |t| {
        Cow::Owned(String::from_utf8_lossy(t).into_owned())
    })
}

impl Drawer<'_> {
    fn line(&mut self, make: impl FnOnce() -> String) {
        self.total_lines += 1;
        if self.chars <= caps::TREE {
            let l = make();
            self.chars += l.chars().count() + 1;
            self.lines.push(l);
        }
    }

    /// Draws `dir`'s children (at `level`, 1-based).
    fn children_of(&mut self, dir: &[u8], level: usize, prefix: &str) {
        let kids = self.listing.children(dir);
        let n = kids.len();
        for (i, k) in kids.enumerate() {
            if self.shown >= self.shape.limit {
                self.stopped = true;
                break;
            }
            self.shown += 1;
            let (branch, more) = if i + 1 == n {
                ("└── ", "    ")
            } else {
                ("├── ", "│   ")
            };
            let (name, lossy) = shown(k.name());
            self.lossy += usize::from(lossy);
            match k.kind {
                Kind::Dir => {
                    self.directories += 1;
                    self.line(|| format!("{prefix}{branch}{name}/"));
                    let sub = format!("{prefix}{more}");
                    if level < self.shape.depth {
                        self.children_of(k.path, level + 1, &sub);
                    } else {
                        let hidden = self.listing.beyond(k.path);
                        if hidden > 0 {
                            self.line(|| format!("{sub}└── … ({hidden} entries)"));
                        }
                    }
                }
                Kind::File => {
                    self.files += 1;
                    self.line(|| format!("{prefix}{branch}{name}"));
                }
                Kind::Symlink => {
                    self.files += 1;
                    let target = target_shown(&k);
                    self.line(|| format!("{prefix}{branch}{name} -> {target}"));
                }
            }
        }
    }
}

/// Lays out the sorted listing as `tree` does.
pub fn draw(root_name: &str, listing: Listing, shape: Shape) -> Drawn {
    let mut w = Drawer {
        listing: &listing,
        shape,
        shown: 0,
        directories: 0,
        files: 0,
        stopped: false,
        lossy: 0,
        lines: vec![root_name.to_string()],
        total_lines: 1,
        chars: root_name.chars().count() + 1,
    };
    w.children_of(b"", 1, "");
    let Drawer {
        lines,
        total_lines,
        directories,
        files,
        stopped,
        lossy,
        ..
    } = w;
    Drawn {
        lines,
        total_lines,
        directories,
        files,
        stopped: stopped.then_some(shape.limit),
        lossy,
        root_name: root_name.to_string(),
        listing,
        shape,
    }
}

impl Drawn {
    pub fn into_success(self) -> Success {
        let summary = format!(
            "{} director{}, {} file{}",
            self.directories,
            if self.directories == 1 { "y" } else { "ies" },
            self.files,
            if self.files == 1 { "" } else { "s" },
        );
        let total = self.total_lines;
        let stopped = self.stopped;
        let (output, shown) = caps::fit(&self.lines, caps::TREE, |k| {
            let mut t = summary.clone();
            if let Some(l) = stopped {
                t.push_str(&format!(" (stopped at {l} entries)"));
            }
            if k < total {
                t.push_str(&format!(
                    " (output cap reached after {} of {total} lines; call tree on a subdirectory or lower depth)",
                    k.saturating_sub(1)
                ));
            }
            Some(t)
        });
        let data = TreeData {
            directories: self.directories,
            files: self.files,
            truncated: stopped.is_some() || shown < total,
            root_name: self.root_name,
            listing: self.listing,
            shape: self.shape,
        };
        Success::with_data(output, data)
    }
}

/// `data` (SPEC §10): the counts, and the tree as far as the drawing goes.
struct TreeData {
    directories: usize,
    files: usize,
    truncated: bool,
    root_name: String,
    listing: Listing,
    shape: Shape,
}

/// `data` as serialised, `warnings` joined.
#[derive(serde::Serialize)]
struct DataOut<'a> {
    directories: usize,
    files: usize,
    truncated: bool,
    tree: Node<'a>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    warnings: &'a [String],
}

/// One node of `data.tree`; of the last three, a directory has `children` or (on the last
/// level shown, when not empty) `entries`, a symlink `target`.
#[derive(serde::Serialize)]
struct Node<'a> {
    name: Cow<'a, str>,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    children: Option<Children<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    entries: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<Cow<'a, str>>,
}

/// The listing as the drawing goes through it: entries are counted as they are serialised, in
/// drawing order, so the tree stops where the drawing stopped.
struct Walk<'a> {
    listing: &'a Listing,
    shape: Shape,
    shown: Cell<usize>,
}

/// A directory's children, serialised as they are read from the listing.
struct Children<'a> {
    walk: &'a Walk<'a>,
    dir: &'a [u8],
    level: usize,
}

impl Serialize for Children<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let w = self.walk;
        let mut seq = s.serialize_seq(None)?;
        for k in w.listing.children(self.dir) {
            if w.shown.get() >= w.shape.limit {
                break;
            }
            w.shown.set(w.shown.get() + 1);
            seq.serialize_element(&self.node(k))?;
        }
        seq.end()
    }
}

impl<'a> Children<'a> {
    fn node(&self, k: Entry<'a>) -> Node<'a> {
        let mut node = Node {
            name: shown(k.name()).0,
            kind: "file",
            children: None,
            entries: None,
            target: None,
        };
        match k.kind {
            Kind::Dir if self.level < self.walk.shape.depth => {
                node.kind = "dir";
                node.children = Some(Children {
                    walk: self.walk,
                    dir: k.path,
                    level: self.level + 1,
                });
            }
            Kind::Dir => {
                node.kind = "dir";
                node.entries = Some(self.walk.listing.beyond(k.path)).filter(|&n| n > 0);
            }
            Kind::File => {}
            Kind::Symlink => {
                node.kind = "symlink";
                node.target = Some(target_shown(&k));
            }
        }
        node
    }
}

impl TreeData {
    /// Serialises `data` with `warnings` joined: the one form both `Data` methods come from.
    fn serialize_with<S: Serializer>(&self, warnings: &[String], s: S) -> Result<S::Ok, S::Error> {
        let walk = Walk {
            listing: &self.listing,
            shape: self.shape,
            shown: Cell::new(0),
        };
        DataOut {
            directories: self.directories,
            files: self.files,
            truncated: self.truncated,
            tree: Node {
                name: Cow::Borrowed(&self.root_name),
                kind: "dir",
                children: Some(Children {
                    walk: &walk,
                    dir: b"",
                    level: 1,
                }),
                entries: None,
                target: None,
            },
            warnings,
        }
        .serialize(s)
    }
}

impl Data for TreeData {
    fn write_json(self: Box<Self>, out: &mut dyn Write, warnings: &[String]) -> io::Result<()> {
        let mut ser = serde_json::Serializer::new(out);
        Ok(self.serialize_with(warnings, &mut ser)?)
    }

    /// For `--pretty` and the hooks that edit `data`: the same serialisation, into a `Value`.
    fn into_value(self: Box<Self>, warnings: &[String]) -> Value {
        self.serialize_with(warnings, serde_json::value::Serializer)
            .expect("tree's data has only string keys")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, json};

    /// (path, kind, link target).
    type Walked = (&'static [u8], Kind, Option<&'static [u8]>);

    /// Entries in walk order: files and symlinks with and without a target, a directory cut by
    /// the depth, an empty one, and names that are not UTF-8.
    fn fixture() -> Vec<Walked> {
        let link = Some(&b"../elsewhere"[..]);
        vec![
            (b"b.txt", Kind::File, None),
            (b"src", Kind::Dir, None),
            (b"src/main.rs", Kind::File, None),
            (b"src/deep", Kind::Dir, None),
            (b"src/deep/x", Kind::Dir, None),
            (b"src/deep/x/y.rs", Kind::File, None),
            (b"A.md", Kind::File, None),
            (b"link", Kind::Symlink, link),
            (b"src/dead", Kind::Symlink, None),
            (b"empty", Kind::Dir, None),
            (b"lat\xe9n1", Kind::File, None),
            (b"src/deep/x/\xffz", Kind::Dir, None),
        ]
    }

    /// The fixture walked `depth` levels deep, with one level more counted as the walk does.
    fn walked(depth: usize) -> Listing {
        let mut l = Listing::default();
        for (path, kind, target) in fixture() {
            let level = path.iter().filter(|&&c| c == b'/').count() + 1;
            if level <= depth {
                l.push(path, kind, target);
            } else if level == depth + 1 {
                l.count_beyond(path.rsplitn(2, |&c| c == b'/').nth(1).unwrap());
            }
        }
        l.sort();
        l
    }

    /// The tree as a `Value` built node by node: the form `data.tree` had before it was
    /// serialised from the listing, kept as the reference it must equal.
    fn reference(l: &Listing, dir: &[u8], level: usize, s: Shape, shown: &mut usize) -> Value {
        let mut nodes = vec![];
        for k in l.children(dir) {
            if *shown >= s.limit {
                break;
            }
            *shown += 1;
            let mut node = Map::new();
            node.insert("name".into(), shown_name(k.name()).into());
            match k.kind {
                Kind::Dir => {
                    node.insert("type".into(), "dir".into());
                    if level < s.depth {
                        let c = reference(l, k.path, level + 1, s, shown);
                        node.insert("children".into(), c);
                    } else if l.beyond(k.path) > 0 {
                        node.insert("entries".into(), l.beyond(k.path).into());
                    }
                }
                Kind::File => {
                    node.insert("type".into(), "file".into());
                }
                Kind::Symlink => {
                    node.insert("type".into(), "symlink".into());
                    let t = k
                        .target
                        .map_or("?".into(), |t| String::from_utf8_lossy(t).into_owned());
                    node.insert("target".into(), t.into());
                }
            }
            nodes.push(Value::Object(node));
        }
        Value::Array(nodes)
    }

    fn shown_name(b: &[u8]) -> String {
        String::from_utf8_lossy(b).into_owned()
    }

    #[test]
    fn draws_dirs_first_by_name_with_depth_cut() {
        let d = draw(
            ".",
            walked(2),
            Shape {
                depth: 2,
                limit: 100,
            },
        );
        assert_eq!(
            d.lines.join("\n"),
            "\
.
├── empty/
├── src/
│   ├── deep/
│   │   └── … (1 entries)
│   ├── dead -> ?
│   └── main.rs
├── A.md
├── b.txt
├── lat\u{FFFD}n1
└── link -> ../elsewhere"
        );
        assert_eq!((d.directories, d.files, d.lossy), (3, 6, 1));
    }

    #[test]
    fn limit_stops_in_drawing_order() {
        let d = draw(".", walked(3), Shape { depth: 3, limit: 3 });
        assert_eq!(d.lines.len(), 4); // root + 3 entries
        assert_eq!(d.stopped, Some(3));
        assert_eq!(d.lines[3], "│   ├── deep/");
        let s = d.into_success();
        assert!(
            s.output
                .ends_with("3 directories, 0 files (stopped at 3 entries)\n")
        );
    }

    #[test]
    fn data_streamed_equals_the_tree_built_as_a_value() {
        let warnings = ["careful".to_string()];
        for depth in 1..=5 {
            for limit in [1, 2, 3, 5, 8, 100] {
                let shape = Shape { depth, limit };
                let d = draw(".", walked(depth), shape);
                let (dirs, files) = (d.directories, d.files);
                let truncated = d.stopped.is_some();
                let expected = json!({
                    "directories": dirs,
                    "files": files,
                    "truncated": truncated,
                    "tree": {
                        "name": ".",
                        "type": "dir",
                        "children": reference(&walked(depth), b"", 1, shape, &mut 0),
                    },
                    "warnings": warnings,
                });
                let s = d.into_success();
                let mut compact = Vec::new();
                s.data.write_json(&mut compact, &warnings).unwrap();
                // Byte for byte what serde_json writes for the Value, keys in the same order.
                assert_eq!(
                    String::from_utf8(compact).unwrap(),
                    serde_json::to_string(&expected).unwrap(),
                    "depth {depth}, limit {limit}"
                );
                let again = draw(".", walked(depth), shape).into_success();
                let value = again.data.into_value(&warnings);
                assert_eq!(
                    serde_json::to_string_pretty(&value).unwrap(),
                    serde_json::to_string_pretty(&expected).unwrap()
                );
            }
        }
    }

    #[test]
    fn no_warnings_no_key() {
        let s = draw(
            "src",
            walked(1),
            Shape {
                depth: 1,
                limit: 10,
            },
        )
        .into_success();
        let mut compact = Vec::new();
        s.data.write_json(&mut compact, &[]).unwrap();
        let v: Value = serde_json::from_slice(&compact).unwrap();
        assert_eq!(
            v.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["directories", "files", "truncated", "tree"]
        );
        assert_eq!(v["tree"]["name"], "src");
        assert_eq!(v["tree"]["children"][1]["entries"], 3);
    }
}
