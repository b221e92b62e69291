//! `tree` (SPEC §10, 16.3): a directory drawn as `tree` draws it, with the walkers' selection.

use crate::caps;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::Result;
use crate::tool::{Hints, Tool};
use crate::walk::{self, Options, Problems};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub struct Tree;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The directory to draw (default: the root).
    #[serde(alias = "file_path")]
    pub path: Option<String>,
    /// How many levels below it to show (1 = its children only).
    #[schemars(range(min = 1, max = 64), extend("default" = 3))]
    pub depth: Option<u64>,
    /// Also show hidden files and directories.
    #[serde(alias = "show_hidden")]
    #[schemars(extend("default" = false))]
    pub hidden: Option<bool>,
    /// Do not honour .gitignore, .ignore and .rgignore files.
    #[schemars(extend("default" = false))]
    pub no_ignore: Option<bool>,
    /// At most this many entries, in drawing order.
    #[schemars(range(min = 1, max = 100_000), extend("default" = 1000))]
    pub limit: Option<u64>,
    /// Names to leave out, as globs on an entry's name (e.g. ["node_modules", "*.log"]); a
    /// directory left out is not entered.
    pub exclude: Option<Vec<String>>,
}

pub const DEFAULT_DEPTH: u64 = 3;
pub const DEFAULT_LIMIT: u64 = 1000;

impl Tool for Tree {
    type Input = Input;
    const NAME: &'static str = "tree";
    const SUMMARY: &'static str = "Show a directory tree";
    const DESCRIPTION: &'static str = "Draws the directory tree under `path` (default: the root), `depth` levels deep (default 3), directories first and marked with `/`, symlinks as `name -> target` (never followed). \
A directory cut by the depth shows `… (N entries)`; raise depth or call tree on it to see inside. \
Honours .gitignore, .ignore and .rgignore, skips hidden entries unless `hidden`, never shows `.git/`. At most `limit` entries (default 1000). \
The last line counts directories and files. Use glob to find files by name anywhere below. `exclude` leaves out entries whose name matches one of its globs (e.g. [\"node_modules\", \"*.log\"]).";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const HINTS: Hints = Hints::READ_ONLY;
    const EXAMPLES: &'static str = "  echo '{\"path\": \"src\", \"depth\": 2}' | loopr-tool tree\n  loopr-tool tree src --depth 2 --format text";

    const OUTPUT_CAP: usize = crate::caps::TREE;

    fn read_only(_: &Input) -> bool {
        true
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let depth = input.depth.unwrap_or(DEFAULT_DEPTH) as usize;
        let limit = input.limit.unwrap_or(DEFAULT_LIMIT) as usize;
        let base = walk::base(ctx, input.path.as_deref())?;
        base.require_dir("tree")?;
        let opts = Options {
            hidden: input.hidden.unwrap_or(false),
            no_ignore: input.no_ignore.unwrap_or(false),
            // One level more than shown: a directory cut by the depth says how much it holds.
            max_depth: Some(depth + 1),
            ..Options::default()
        };
        let exclude = excluded_names(input.exclude.as_deref().unwrap_or_default())?;
        let problems = Problems::default();
        let found: Mutex<Vec<Raw>> = Mutex::new(Vec::new());
        walk::run_parallel(&base, &opts, &problems, &ctx.control, || {
            let base = &base;
            let exclude = &exclude;
            let mut flush = walk::Local::new(&found);
            move |e: &walk::Entry| {
                let rel = base.rel(e.path);
                if exclude
                    .as_ref()
                    .is_some_and(|x| rel.components().any(|c| x.is_match(c.as_os_str())))
                {
                    return;
                }
                let kind = match e.kind {
                    walk::Kind::Symlink => Kind::Symlink,
                    walk::Kind::Dir => Kind::Dir,
                    _ => Kind::File,
                };
                let target = (kind == Kind::Symlink && e.depth <= depth)
                    .then(|| e.read_link())
                    .flatten();
                flush.items.push(Raw {
                    rel: base.rel(e.path).to_path_buf(),
                    kind,
                    target,
                });
            }
        });
        let raw = found.into_inner().unwrap_or_else(|p| p.into_inner());
        let drawn = draw(&base.shown, raw, depth, limit);
        problems.report(ctx);
        if drawn.lossy > 0 {
            ctx.warn(format!(
                "{} name(s) are not valid UTF-8; they are shown with U+FFFD",
                drawn.lossy
            ));
        }
        Ok(drawn.into_success())
    }
}

/// `exclude`'s globs, matched against each name on an entry's path (so what is below a
/// directory left out is left out too).
fn excluded_names(globs: &[String]) -> Result<Option<globset::GlobSet>> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut set = globset::GlobSetBuilder::new();
    for (n, g) in globs.iter().enumerate() {
        let glob = globset::GlobBuilder::new(g)
            .literal_separator(true)
            .build()
            .map_err(|e| {
                crate::error::ToolError::new(
                    crate::error::Code::InvalidGlob,
                    format!("exclude[{n}]: invalid glob {g:?}: {}", e.kind()),
                )
                .with("field", format!("exclude[{n}]"))
            })?;
        set.add(glob);
    }
    set.build().map(Some).map_err(|e| {
        crate::error::ToolError::new(crate::error::Code::InvalidGlob, format!("exclude: {e}"))
            .with("field", "exclude")
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Dir,
    File,
    Symlink,
}

/// One walked entry below the base.
#[derive(Debug)]
pub struct Raw {
    pub rel: PathBuf,
    pub kind: Kind,
    pub target: Option<PathBuf>,
}

pub struct Drawn {
    /// The drawing's first lines: those past the output cap are counted, not formatted.
    lines: Vec<String>,
    /// Lines in the whole drawing.
    total_lines: usize,
    tree: Value,
    directories: usize,
    files: usize,
    /// The limit stopped the drawing.
    stopped: Option<usize>,
    lossy: usize,
}

struct Walker<'a> {
    children: HashMap<&'a [u8], Vec<&'a Raw>>,
    depth: usize,
    limit: usize,
    shown: usize,
    directories: usize,
    files: usize,
    stopped: bool,
    lossy: usize,
    lines: Vec<String>,
    total_lines: usize,
    chars: usize,
}

fn bytes(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

/// The last component, as bytes (entries below the base are never empty or `..`).
fn name_bytes(r: &Raw) -> &[u8] {
    let b = bytes(&r.rel);
    b.rsplit(|&c| c == b'/').next().unwrap_or(b)
}

/// The parent below the base, as bytes (`""` for the base's children).
fn parent_bytes(r: &Raw) -> &[u8] {
    let b = bytes(&r.rel);
    b.iter()
        .rposition(|&c| c == b'/')
        .map_or(&b[..0], |i| &b[..i])
}

fn name_of(r: &Raw, lossy: &mut usize) -> String {
    let s = String::from_utf8_lossy(name_bytes(r));
    if matches!(s, std::borrow::Cow::Owned(_)) {
        *lossy += 1;
    }
    s.into_owned()
}

impl<'a> Walker<'a> {
    fn line(&mut self, make: impl FnOnce() -> String) {
        self.total_lines += 1;
        if self.chars <= caps::TREE {
            let l = make();
            self.chars += l.chars().count() + 1;
            self.lines.push(l);
        }
    }

    /// Draws `dir`'s children (at `level`, 1-based) and returns their nodes.
    fn children_of(&mut self, dir: &[u8], level: usize, prefix: &str) -> Vec<Value> {
        let Some(mut kids) = self.children.get(dir).cloned() else {
            return Vec::new();
        };
        // Directories first, then files and symlinks; each group by name, as raw bytes.
        kids.sort_unstable_by(|a, b| {
            (a.kind != Kind::Dir)
                .cmp(&(b.kind != Kind::Dir))
                .then_with(|| name_bytes(a).cmp(name_bytes(b)))
        });
        let mut nodes = Vec::new();
        let n = kids.len();
        for (i, k) in kids.into_iter().enumerate() {
            if self.shown >= self.limit {
                self.stopped = true;
                break;
            }
            self.shown += 1;
            let last = i + 1 == n;
            let (branch, more) = if last {
                ("└── ", "    ")
            } else {
                ("├── ", "│   ")
            };
            let name = name_of(k, &mut self.lossy);
            let mut node = Map::new();
            node.insert("name".into(), name.clone().into());
            match k.kind {
                Kind::Dir => {
                    self.directories += 1;
                    self.line(|| format!("{prefix}{branch}{name}/"));
                    node.insert("type".into(), "dir".into());
                    let sub = format!("{prefix}{more}");
                    if level < self.depth {
                        let c = self.children_of(bytes(&k.rel), level + 1, &sub);
                        node.insert("children".into(), c.into());
                    } else {
                        let hidden = self.children.get(bytes(&k.rel)).map_or(0, Vec::len);
                        if hidden > 0 {
                            self.line(|| format!("{sub}└── … ({hidden} entries)"));
                            node.insert("entries".into(), hidden.into());
                        }
                    }
                }
                Kind::File => {
                    self.files += 1;
                    self.line(|| format!("{prefix}{branch}{name}"));
                    node.insert("type".into(), "file".into());
                }
                Kind::Symlink => {
                    self.files += 1;
                    let target = k
                        .target
                        .as_ref()
                        .map(|t| t.to_string_lossy().into_owned())
                        .unwrap_or_else(|| "?".into());
                    self.line(|| format!("{prefix}{branch}{name} -> {target}"));
                    node.insert("type".into(), "symlink".into());
                    node.insert("target".into(), target.into());
                }
            }
            nodes.push(Value::Object(node));
        }
        nodes
    }
}

/// Lays out the walked entries (in any order) as `tree` does.
pub fn draw(root_name: &str, raw: Vec<Raw>, depth: usize, limit: usize) -> Drawn {
    let mut children: HashMap<&[u8], Vec<&Raw>> = HashMap::new();
    for r in &raw {
        children.entry(parent_bytes(r)).or_default().push(r);
    }
    let mut w = Walker {
        children,
        depth,
        limit,
        shown: 0,
        directories: 0,
        files: 0,
        stopped: false,
        lossy: 0,
        lines: vec![root_name.to_string()],
        total_lines: 1,
        chars: root_name.chars().count() + 1,
    };
    let kids = w.children_of(b"", 1, "");
    let tree = json!({"name": root_name, "type": "dir", "children": kids});
    Drawn {
        lines: w.lines,
        total_lines: w.total_lines,
        tree,
        directories: w.directories,
        files: w.files,
        stopped: w.stopped.then_some(limit),
        lossy: w.lossy,
    }
}

impl Drawn {
    fn into_success(self) -> Success {
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
        let data = json!({
            "directories": self.directories,
            "files": self.files,
            "truncated": stopped.is_some() || shown < total,
            "tree": self.tree,
        });
        Success::new(output, data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(rel: &str, kind: Kind) -> Raw {
        Raw {
            rel: PathBuf::from(rel),
            kind,
            target: (kind == Kind::Symlink).then(|| PathBuf::from("../elsewhere")),
        }
    }

    fn fixture() -> Vec<Raw> {
        let mut v = vec![
            raw("b.txt", Kind::File),
            raw("src", Kind::Dir),
            raw("src/main.rs", Kind::File),
            raw("src/deep", Kind::Dir),
            raw("src/deep/x", Kind::Dir),
            raw("src/deep/x/y.rs", Kind::File),
            raw("A.md", Kind::File),
            raw("link", Kind::Symlink),
            raw("empty", Kind::Dir),
        ];
        v.sort_by(|a, b| a.rel.cmp(&b.rel));
        v
    }

    #[test]
    fn draws_dirs_first_by_name_with_depth_cut() {
        let d = draw(".", fixture(), 2, 100);
        assert_eq!(
            d.lines.join("\n"),
            "\
.
├── empty/
├── src/
│   ├── deep/
│   │   └── … (1 entries)
│   └── main.rs
├── A.md
├── b.txt
└── link -> ../elsewhere"
        );
        assert_eq!((d.directories, d.files), (3, 4));
        assert_eq!(d.tree["children"][1]["children"][0]["entries"], 1);
        assert_eq!(d.tree["children"][4]["type"], "symlink");
    }

    #[test]
    fn limit_stops_in_drawing_order() {
        let d = draw(".", fixture(), 3, 3);
        assert_eq!(d.lines.len(), 4); // root + 3 entries
        assert_eq!(d.stopped, Some(3));
        assert_eq!(d.lines[3], "│   ├── deep/");
        let s = d.into_success();
        assert!(
            s.output
                .ends_with("3 directories, 0 files (stopped at 3 entries)\n")
        );
    }
}
