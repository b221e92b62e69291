//! `tree` (SPEC §10, 16.3): a directory drawn as `tree` draws it, with the walkers' selection.

mod draw;
mod listing;

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::Result;
use crate::tool::{Hints, Tool};
use crate::walk::{self, Options, Problems};
use draw::{Shape, draw};
use listing::{Batch, Kind, Listing};
use schemars::JsonSchema;
use serde::Deserialize;
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
    const DESCRIPTION: &'static str = "List files and directories as a tree: lists a directory's files and subdirectories under `path` (default: the root), `depth` levels deep (default 3), directories first and marked with `/`, symlinks as `name -> target` (never followed). \
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
        let found = Mutex::new(Listing::default());
        walk::run_parallel(&base, &opts, &problems, &ctx.control, || {
            let base = &base;
            let exclude = &exclude;
            let mut batch = Batch::new(&found);
            move |e: &walk::Entry| {
                let rel = base.rel(e.path);
                if exclude
                    .as_ref()
                    .is_some_and(|x| rel.components().any(|c| x.is_match(c.as_os_str())))
                {
                    return;
                }
                let path = rel.as_os_str().as_encoded_bytes();
                if e.depth > depth {
                    // Below the last level shown: only counted, for `… (N entries)`.
                    let parent = path.iter().rposition(|&c| c == b'/').unwrap_or(0);
                    batch.count_beyond(&path[..parent]);
                    return;
                }
                let kind = match e.kind {
                    walk::Kind::Symlink => Kind::Symlink,
                    walk::Kind::Dir => Kind::Dir,
                    _ => Kind::File,
                };
                let target = (kind == Kind::Symlink).then(|| e.read_link()).flatten();
                let target = target.as_ref().map(|t| t.as_os_str().as_encoded_bytes());
                batch.push(path, kind, target);
            }
        });
        let mut listing = found.into_inner().unwrap_or_else(|p| p.into_inner());
        listing.sort();
        let drawn = draw(&base.shown, listing, Shape { depth, limit });
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
