//! The tag cache (SPEC 26.3): a file's definitions and the identifiers it uses, kept in the
//! state dir under its content's fingerprint (language, size, xxh3-128 of the bytes; no mtime,
//! so a touched but unchanged file is not parsed again). `map` reads every file's tags through
//! it and `symbols definition` the tags of the files that hold the name, so a second call on an
//! unchanged tree parses nothing. The cache is an optimisation: a state dir that cannot be
//! written only costs parsing.

use crate::context::Ctx;
use crate::state;
use crate::symbols::files::File;
use loopr_syntax::tags::{self, Kind};
use loopr_syntax::{Lang, refs};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One definition as the cache keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Def {
    pub name: String,
    pub kind: Kind,
    pub parent: Option<String>,
    pub line: usize,
    pub end_line: usize,
    pub depth: usize,
    pub signature: String,
}

/// A file's tags: its definitions and the identifiers it uses (with counts).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tags {
    pub defs: Vec<Def>,
    pub uses: Vec<(String, u32)>,
}

fn tags_of(lang: Lang, tree: &loopr_syntax::tree_sitter::Tree, src: &[u8]) -> Tags {
    let symbols = tags::symbols(lang, tree, src);
    let mut at: Vec<usize> = symbols.iter().map(|s| s.name_at).collect();
    at.sort_unstable();
    let defs = symbols
        .into_iter()
        .map(|s| Def {
            name: s.name,
            kind: s.kind,
            parent: s.parent,
            line: s.line,
            end_line: s.end_line,
            depth: s.depth,
            signature: s.signature,
        })
        .collect();
    Tags {
        defs,
        uses: refs::identifiers(tree, src, &at),
    }
}

pub struct TagCache {
    dir: PathBuf,
    writable: bool,
}

impl TagCache {
    pub fn open(ctx: &Ctx) -> TagCache {
        let dir = state::root_dir(ctx).join("tags-cache");
        let writable = state::create_dir(&dir).is_ok();
        TagCache { dir, writable }
    }

    fn key(lang: Lang, src: &[u8]) -> String {
        let h = xxhash_rust::xxh3::xxh3_128(src);
        format!("{}-{:x}-{h:032x}", lang.name(), src.len())
    }

    /// The tags kept for these bytes, if any.
    pub fn load(&self, lang: Lang, src: &[u8]) -> Option<Tags> {
        let bytes = state::read_own(&self.dir.join(Self::key(lang, src))).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// The tags of a parsed file, kept for the next call.
    pub fn make(&self, f: &File) -> Tags {
        let t = tags_of(f.lang, f.tree, f.src);
        if self.writable
            && let Ok(bytes) = serde_json::to_vec(&t)
        {
            let _ = state::write_atomic(&self.dir, &Self::key(f.lang, f.src), &bytes, false);
        }
        t
    }
}
