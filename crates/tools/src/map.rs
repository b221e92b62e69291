//! `map` (SPEC 26.3, 26.7): the repository in a token budget, by aider's method — the files'
//! definitions and the identifiers they use make a graph (file → file that defines what it
//! uses), a PageRank over it (personalised towards `focus`) ranks the files and, through the
//! edges, their definitions, and the best definitions that fit `tokens` (characters / 4) are
//! shown, signatures only, grouped by file in rank order.
//!
//! Tags (definitions and used identifiers) are cached per file in the state dir, keyed by the
//! content's hash and size (`symbols::cache`): a later call parses only the files that changed. Files are read
//! and parsed in parallel over the walker.

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::symbols::cache::{TagCache, Tags};
use crate::symbols::files::{self, Job};
use crate::tool::{Hints, Tool};
use crate::walk::Options;
use loopr_syntax::Lang;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::path::Path;

pub struct Map;

const DEFAULT_TOKENS: u64 = 1024;
const MAX_TOKENS: u64 = 16_384;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The directory to map (default: the root).
    pub path: Option<String>,
    /// The budget in tokens (counted as characters / 4); default 1024, at most 16384.
    #[schemars(range(min = 1, max = 16384), extend("default" = 1024))]
    pub tokens: Option<u64>,
    /// Files or identifiers the task is about: the map leans towards them (focus files are
    /// always shown).
    #[schemars(length(max = 100))]
    pub focus: Option<Vec<String>>,
}

impl Tool for Map {
    type Input = Input;
    const NAME: &'static str = "map";
    const SUMMARY: &'static str = "The repository's most important definitions in a token budget";
    const DESCRIPTION: &'static str = "A map of the repository for orientation (aider's repository map, from syntax trees built in: Rust, Python, JavaScript, TypeScript/TSX, Go, Java, C, C++): the files and their most important definitions (signatures only), ranked by a PageRank over which files use which files' definitions, cut to fit `tokens` (default 1024, max 16384; a token counted as 4 characters). \
`focus` (file paths or identifiers) leans the ranking towards what the task is about; focus files are always shown. Files are listed most important first. \
Tags are cached per file content in the state dir, so a later call on an unchanged tree parses nothing.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const HINTS: Hints = Hints::READ_ONLY;
    const EXAMPLES: &'static str = "  loopr-tool map --tokens 2048 --format text\n  echo '{\"focus\": [\"src/parser.rs\", \"tokenize\"]}' | loopr-tool map";

    fn read_only(_: &Input) -> bool {
        true
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let tokens = input.tokens.unwrap_or(DEFAULT_TOKENS);
        if tokens == 0 || tokens > MAX_TOKENS {
            return Err(ToolError::invalid(
                "tokens",
                format!("tokens is {tokens}; give 1 to {MAX_TOKENS}"),
            ));
        }
        let focus = input.focus.unwrap_or_default();
        if focus.len() > 100 {
            return Err(ToolError::invalid(
                "focus",
                "focus holds more than 100 entries",
            ));
        }
        let found = gather(ctx, input.path.as_deref())?;
        let (focus_files, focus_idents) = split_focus(&found.items, &focus);
        let graph = Graph::new(&found.items, &focus_idents);
        // Files that define a focus identifier lean the ranking towards themselves too.
        let mut personal = focus_files.clone();
        for (i, (_, t)) in found.items.iter().enumerate() {
            if t.defs.iter().any(|d| focus_idents.contains(&d.name)) {
                personal.insert(i);
            }
        }
        let rank = graph.pagerank(&personal);
        let ranked = graph.rank_definitions(&rank);
        let budget = (tokens * 4) as usize;
        let focus = Focus {
            files: &focus_files,
            idents: &focus_idents,
        };
        let (output, shown) = fit(&found.items, &ranked, &rank, &focus, budget);
        let data = json!({
            "files": shown,
            "files_parsed": found.parsed,
            "files_mapped": found.items.len(),
            "tokens": output.chars().count().div_ceil(4),
            "syntactic": true,
            "skipped": found.skipped.iter().map(|s| json!({"path": s.path, "reason": s.reason})).collect::<Vec<_>>(),
        });
        let output = if output.is_empty() {
            "No definitions found in files of a language built in.\n".to_string()
        } else {
            output
        };
        Ok(Success::new(output, data))
    }
}

fn gather(ctx: &Ctx, path: Option<&str>) -> Result<files::Gathered<Tags>> {
    let cache = TagCache::open(ctx);
    let cached = |lang: Lang, src: &[u8]| cache.load(lang, src);
    let visit = |f: &files::File| Some(cache.make(f));
    let job = Job {
        needle: None,
        lang: None,
        visit: &visit,
        cached: Some(&cached),
    };
    let base = crate::walk::base(ctx, path)?;
    base.require_dir("map")?;
    files::under(ctx, path, Options::default(), &job)
}

/// `focus` entries that name a mapped file (as shown, or by a path ending) are focus files;
/// the others are identifiers.
fn split_focus(items: &[(String, Tags)], focus: &[String]) -> (HashSet<usize>, HashSet<String>) {
    let mut files = HashSet::new();
    let mut idents = HashSet::new();
    for f in focus {
        let wanted = f.trim_start_matches("./");
        let hit = items.iter().position(|(p, _)| {
            p == wanted || Path::new(p).ends_with(wanted) && wanted.contains(['/', '.'])
        });
        match hit {
            Some(i) => {
                files.insert(i);
            }
            None => {
                idents.insert(f.clone());
            }
        }
    }
    (files, idents)
}

/// Files and the weighted edges between them: `from` uses an identifier `to` defines.
struct Graph {
    n: usize,
    /// (from, to, identifier, weight)
    edges: Vec<(usize, usize, String, f64)>,
}

impl Graph {
    fn new(items: &[(String, Tags)], focus: &HashSet<String>) -> Graph {
        let mut defines: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, (_, t)) in items.iter().enumerate() {
            for d in &t.defs {
                let files = defines.entry(d.name.as_str()).or_default();
                if files.last() != Some(&i) {
                    files.push(i);
                }
            }
        }
        let mut edges = vec![];
        for (from, (_, t)) in items.iter().enumerate() {
            for (ident, count) in &t.uses {
                let Some(definers) = defines.get(ident.as_str()) else {
                    continue;
                };
                let w = weight(ident, definers.len(), focus) * f64::from(*count).sqrt();
                for &to in definers {
                    edges.push((from, to, ident.clone(), w));
                }
            }
        }
        Graph {
            n: items.len(),
            edges,
        }
    }

    /// PageRank (damping 0.85, 50 rounds at most), personalised towards `focus` files.
    fn pagerank(&self, focus: &HashSet<usize>) -> Vec<f64> {
        let n = self.n;
        if n == 0 {
            return vec![];
        }
        let personal: Vec<f64> = if focus.is_empty() {
            vec![1.0 / n as f64; n]
        } else {
            (0..n)
                .map(|i| {
                    if focus.contains(&i) {
                        1.0 / focus.len() as f64
                    } else {
                        0.0
                    }
                })
                .collect()
        };
        let mut out_w = vec![0.0; n];
        for (from, _, _, w) in &self.edges {
            out_w[*from] += w;
        }
        let mut rank = personal.clone();
        for _ in 0..50 {
            let mut next = vec![0.0; n];
            let mut dangling = 0.0;
            for i in 0..n {
                if out_w[i] == 0.0 {
                    dangling += rank[i];
                }
            }
            for (from, to, _, w) in &self.edges {
                next[*to] += 0.85 * rank[*from] * w / out_w[*from];
            }
            let mut delta = 0.0;
            for i in 0..n {
                next[i] += (0.15 + 0.85 * dangling) * personal[i];
                delta += (next[i] - rank[i]).abs();
            }
            rank = next;
            if delta < 1e-6 {
                break;
            }
        }
        rank
    }

    /// Each file's rank shared among the definitions it uses, along its edges.
    fn rank_definitions(&self, rank: &[f64]) -> HashMap<(usize, String), f64> {
        let mut out_w = vec![0.0; self.n];
        for (from, _, _, w) in &self.edges {
            out_w[*from] += w;
        }
        let mut ranked: HashMap<(usize, String), f64> = HashMap::new();
        for (from, to, ident, w) in &self.edges {
            *ranked.entry((*to, ident.clone())).or_default() += rank[*from] * w / out_w[*from];
        }
        ranked
    }
}

/// aider's weights: names the task is about count ten times, long specific names more, private
/// (`_x`) and everywhere-defined names less.
fn weight(ident: &str, definers: usize, focus: &HashSet<String>) -> f64 {
    let mut w = 1.0;
    if focus.contains(ident) {
        w *= 10.0;
    }
    let specific =
        ident.len() >= 8 && (ident.contains('_') || ident.chars().any(|c| c.is_uppercase()));
    if specific {
        w *= 10.0;
    }
    if ident.starts_with('_') {
        w *= 0.1;
    }
    if definers > 5 {
        w *= 0.1;
    }
    w
}

/// What the task is about: files (always shown, first) and identifiers (their definitions
/// first).
struct Focus<'a> {
    files: &'a HashSet<usize>,
    idents: &'a HashSet<String>,
}

/// The most definitions that fit `budget` characters, grouped by file, files in rank order
/// (focus files first). Returns the text and the files shown as data.
fn fit(
    items: &[(String, Tags)],
    ranked: &HashMap<(usize, String), f64>,
    rank: &[f64],
    focus: &Focus,
    budget: usize,
) -> (String, Vec<serde_json::Value>) {
    // Every definition scores what the graph gave it, plus a small share of its file's rank,
    // so unreferenced files still order by their own importance.
    let mut all: Vec<(f64, usize, usize)> = vec![];
    for (i, (_, t)) in items.iter().enumerate() {
        let n = t.defs.len().max(1) as f64;
        for (j, d) in t.defs.iter().enumerate() {
            let graph = ranked.get(&(i, d.name.clone())).copied().unwrap_or(0.0);
            let mut boost = 0.0;
            if focus.files.contains(&i) {
                boost += 1.0;
            }
            if focus.idents.contains(&d.name) {
                boost += 1.0;
            }
            all.push((graph + rank[i] * 1e-3 / n + boost, i, j));
        }
    }
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    let render = |k: usize| render(items, rank, focus.files, &all[..k]);
    // The largest number of definitions whose rendering fits (a binary search).
    let (mut lo, mut hi) = (0usize, all.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if render(mid).0.chars().count() <= budget {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    render(lo)
}

fn render(
    items: &[(String, Tags)],
    rank: &[f64],
    focus: &HashSet<usize>,
    chosen: &[(f64, usize, usize)],
) -> (String, Vec<serde_json::Value>) {
    let mut by_file: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(_, i, j) in chosen {
        by_file.entry(i).or_default().push(j);
    }
    let mut files: Vec<usize> = by_file.keys().copied().collect();
    files.sort_by(|a, b| {
        focus
            .contains(b)
            .cmp(&focus.contains(a))
            .then(rank[*b].total_cmp(&rank[*a]))
            .then(a.cmp(b))
    });
    let mut out = String::new();
    let mut data = vec![];
    for i in files {
        let (path, t) = &items[i];
        let mut defs = by_file.remove(&i).unwrap_or_default();
        defs.sort_unstable();
        out.push_str(path);
        out.push_str(":\n");
        let mut shown = vec![];
        for j in defs {
            let d = &t.defs[j];
            let sig: String = d.signature.chars().take(160).collect();
            out.push_str(&format!("{:>5}: {}{sig}\n", d.line, "  ".repeat(d.depth)));
            shown.push(json!({"name": d.name, "line": d.line, "signature": d.signature}));
        }
        data.push(
            json!({"path": path, "rank": (rank[i] * 1e6).round() / 1e6, "definitions": shown}),
        );
    }
    (out, data)
}
