//! `grep` (SPEC §9, 16.6): ripgrep's search libraries over the shared walker. The matcher and
//! searcher are configured as ripgrep configures them, so the files and lines found are
//! ripgrep's; results are collected per file and ordered by path, so they are deterministic.

mod collect;
mod collector;
mod render;
mod spill;
mod structural;

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::tool::{Hints, Tool};
use crate::walk::{self, Options, Problems};
use collect::{FileResult, FileSink, Mode, Scratch};
use collector::Collector;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, MmapChoice, Searcher, SearcherBuilder};
use ignore::overrides::OverrideBuilder;
use ignore::types::TypesBuilder;
use schemars::JsonSchema;
use serde::Deserialize;
use std::borrow::Cow;
use std::path::PathBuf;

pub struct Grep;

#[derive(Debug, Deserialize, JsonSchema, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
// No doc comments on the variants: a plain `enum` in the schema (see glob's Sort).
pub enum OutputMode {
    #[default]
    FilesWithMatches,
    Content,
    Count,
}

/// One glob or several: `"*.rs"` or `["*.ts", "!*.d.ts"]`.
#[derive(Debug)]
pub struct Globs(pub Vec<String>);

impl<'de> Deserialize<'de> for Globs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(String),
            Many(Vec<String>),
        }
        match Raw::deserialize(d) {
            Ok(Raw::One(s)) => Ok(Globs(vec![s])),
            Ok(Raw::Many(v)) => Ok(Globs(v)),
            Err(_) => Err(serde::de::Error::custom(
                "expected a glob string or an array of glob strings",
            )),
        }
    }
}

impl JsonSchema for Globs {
    fn schema_name() -> Cow<'static, str> {
        "Globs".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"type": "string"}}
            ]
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The regular expression (Rust regex syntax, as ripgrep's), or a literal with fixed_strings.
    pub pattern: String,
    /// A file or directory to search (default: the root). A file named here is searched even
    /// when ignored or hidden.
    #[serde(alias = "file_path")]
    pub path: Option<String>,
    /// Only files matching this glob (ripgrep's -g): e.g. "*.rs", "*.{ts,tsx}", "!*.min.js";
    /// a string or an array of them.
    #[serde(alias = "file_pattern")]
    pub glob: Option<Globs>,
    /// Only files of this ripgrep type: rust, py, js, ts, go, c, cpp, java, md, …
    #[serde(rename = "type")]
    pub file_type: Option<String>,
    /// `files_with_matches`: the paths; `content`: the matching lines as `path:line:text`;
    /// `count`: matching lines per file as `path:N`.
    #[schemars(extend("default" = "files_with_matches"))]
    pub output_mode: Option<OutputMode>,
    /// Case-insensitive matching.
    #[serde(rename = "-i")]
    #[schemars(extend("default" = false))]
    pub case_insensitive: Option<bool>,
    /// Line numbers in content output.
    #[serde(rename = "-n")]
    #[schemars(extend("default" = true))]
    pub line_numbers: Option<bool>,
    /// Lines of context after each match (content mode).
    #[serde(rename = "-A")]
    pub after: Option<u64>,
    /// Lines of context before each match (content mode).
    #[serde(rename = "-B")]
    pub before: Option<u64>,
    /// Lines of context before and after each match (content mode; -A and -B override it).
    #[serde(rename = "-C")]
    pub context: Option<u64>,
    /// Seed 000's `context` (SPEC 25.6): `-C` with `content` as the default output_mode and at
    /// most `SEED_PER_FILE` matches a file. Taken, not offered: the schema keeps one spelling.
    #[serde(rename = "context")]
    #[schemars(skip)]
    pub seed_context: Option<u64>,
    /// Let `.` match newlines and patterns span lines.
    #[schemars(extend("default" = false))]
    pub multiline: Option<bool>,
    /// Take the pattern as a literal string, not a regex.
    #[schemars(extend("default" = false))]
    pub fixed_strings: Option<bool>,
    /// At most this many entries (files, lines or count rows); default 1000 for content, 250
    /// otherwise; 0 for no limit.
    pub head_limit: Option<u64>,
    /// Skip this many entries first (for paging).
    #[schemars(extend("default" = 0))]
    pub offset: Option<u64>,
    /// Also search hidden files and directories.
    #[schemars(extend("default" = false))]
    pub hidden: Option<bool>,
    /// Do not honour .gitignore, .ignore and .rgignore files.
    #[schemars(extend("default" = false))]
    pub no_ignore: Option<bool>,
    /// `pattern` is code with metavariables (`$X` one node, `$$$X` any number; ast-grep's
    /// syntax), matched against syntax trees instead of text.
    #[schemars(extend("default" = false))]
    pub structural: Option<bool>,
    /// With structural: the language of the pattern and of the files searched (rust, python,
    /// javascript, typescript, tsx, go, java, c, cpp); default each file's, by extension.
    pub language: Option<String>,
}

impl Tool for Grep {
    type Input = Input;
    const NAME: &'static str = "grep";
    const SUMMARY: &'static str = "Search file contents with a regex (ripgrep's engine)";
    const DESCRIPTION: &'static str = "Search code / file contents for a pattern: a regular expression (Rust regex syntax, as ripgrep: escape braces in `interface\\{\\}`), finding exactly what ripgrep finds. \
output_mode: `files_with_matches` (default; the paths), `content` (matching lines as `path:line:text`, context lines as `path-line-text`, `--` between groups), or `count` (`path:N` matching lines per file). \
Filter files with `glob` (e.g. \"*.rs\", \"*.{ts,tsx}\", \"!*.min.js\", or an array) or `type` (ripgrep type names: rust, py, js, ts, go, java, c, cpp, md, …). \
`-i` ignores case; `-A`/`-B`/`-C` add context lines; `multiline` lets `.` match newlines and a pattern span lines; `fixed_strings` searches a literal. \
Honours .gitignore/.ignore/.rgignore, skips hidden and binary files (a file named as `path` is searched anyway). Results are ordered by path, then line. \
`head_limit` caps the entries (default 1000 lines in content mode, 250 otherwise; 0 = all) and `offset` pages on; `total` counts every entry. Lines over 2000 characters are cut with a marker. \
`structural: true` matches `pattern` as code against syntax trees (ast-grep's syntax: `$X` one node, `$$$X` any number, e.g. `console.log($$$ARGS)`), in files of `language` or of each file's own language; content items carry the match's `range`.";
    const POSITIONALS: &'static [&'static str] = &["pattern", "path"];
    const HINTS: Hints = Hints::READ_ONLY;
    const EXAMPLES: &'static str = "  echo '{\"pattern\": \"fn main\", \"output_mode\": \"content\", \"type\": \"rust\"}' | loopr-tool grep\n  loopr-tool grep -i 'todo' src --output-mode content -C 2 --format text";

    const OUTPUT_CAP: usize = crate::caps::GREP;

    fn read_only(_: &Input) -> bool {
        true
    }

    fn run(ctx: &Ctx, mut input: Input) -> Result<Success> {
        if input.structural == Some(true) {
            return structural::run(ctx, &input);
        }
        if input.language.is_some() {
            return Err(ToolError::invalid(
                "language",
                "`language` is for a structural search (structural: true)",
            ));
        }
        let per_file = seed_context(&mut input)?;
        let mode = match input.output_mode.unwrap_or_default() {
            OutputMode::FilesWithMatches => Mode::Files,
            OutputMode::Content => Mode::Content,
            OutputMode::Count => Mode::Count,
        };
        let multiline = input.multiline.unwrap_or(false);
        let matcher = build_matcher(&input, multiline)?;
        let (before, after) = if mode == Mode::Content {
            let c = input.context.unwrap_or(0);
            (input.before.unwrap_or(c), input.after.unwrap_or(c))
        } else {
            (0, 0)
        };
        let head_limit = match input.head_limit {
            Some(0) => usize::MAX,
            Some(n) => n as usize,
            None if mode == Mode::Content => 1000,
            None => 250,
        };
        let offset = input.offset.unwrap_or(0) as usize;
        let window = offset.saturating_add(head_limit);
        let base = walk::base(ctx, input.path.as_deref())?;
        let searcher = SearcherBuilder::new()
            .line_number(true)
            .multi_line(multiline)
            .before_context(before as usize)
            .after_context(after as usize)
            .max_matches(per_file)
            // mmap can SIGBUS when a file shrinks under it; ripgrep reads walked files too.
            .memory_map(MmapChoice::never())
            .build();
        let collector = Collector::new(mode, window);
        let problems = Problems::default();
        let job = Job {
            matcher: &matcher,
            mode,
            window,
            problems: &problems,
            base: &base,
            per_file,
        };
        if base.kind == walk::Kind::Dir {
            let opts = Options {
                hidden: input.hidden.unwrap_or(false),
                no_ignore: input.no_ignore.unwrap_or(false),
                overrides: build_overrides(ctx, input.glob.as_ref())?,
                types: build_types(input.file_type.as_deref())?,
                ..Options::default()
            };
            walk::run_parallel(&base, &opts, &problems, &ctx.control, || {
                let mut searcher = searcher.clone();
                let mut scratch = Scratch::default();
                // As ripgrep: a NUL byte means binary, and a walked binary file is left alone.
                searcher.set_binary_detection(BinaryDetection::quit(b'\0'));
                let (job, collector) = (&job, &collector);
                move |e: &walk::Entry| {
                    if !e.is_file() {
                        return;
                    }
                    let rel = job.base.rel(e.path).to_path_buf();
                    let Some(r) = job.search(&mut searcher, &mut scratch, e.open_file(), rel)
                    else {
                        return;
                    };
                    // ripgrep reports nothing of a walked binary file in its files and count
                    // modes, even a match found before the NUL byte.
                    if r.binary && mode != Mode::Content {
                        return;
                    }
                    collector.add(r);
                }
            });
        } else if base.kind == walk::Kind::File {
            // A file named explicitly is searched whatever it is, as ripgrep does: NULs are
            // read as line ends rather than stopping the search.
            let mut searcher = searcher;
            searcher.set_binary_detection(BinaryDetection::convert(b'\0'));
            if let Some(r) = job.search(
                &mut searcher,
                &mut Scratch::default(),
                base.open_file(),
                PathBuf::new(),
            ) {
                collector.add(r);
            }
        } else {
            return Err(ToolError::new(
                Code::UnsupportedFile,
                format!(
                    "{} is not a regular file or directory (a FIFO, socket or device)",
                    base.shown
                ),
            )
            .with("path", base.shown.as_str())
            .hint("Search a regular file or a directory."));
        }
        let found = collector.finish();
        problems.report(ctx);
        let page = render::Page {
            mode,
            offset,
            head_limit,
            total: found.total,
            line_numbers: input.line_numbers.unwrap_or(true),
            before: before > 0,
            after: after > 0,
        };
        render::render(ctx, &base, found, &page)
    }
}

/// What every file's search shares.
struct Job<'a> {
    matcher: &'a RegexMatcher,
    mode: Mode,
    window: usize,
    problems: &'a Problems,
    base: &'a walk::Base,
    /// The most matches searched for in one file (seed 000's `context`).
    per_file: Option<u64>,
}

impl Job<'_> {
    /// Searches one file; `None` when it could not be read (a warning says so).
    fn search(
        &self,
        searcher: &mut Searcher,
        scratch: &mut Scratch,
        file: std::io::Result<std::fs::File>,
        rel: PathBuf,
    ) -> Option<FileResult> {
        let mut sink = FileSink::new(self.mode, self.window, rel, scratch);
        let searched = file.and_then(|f| {
            searcher
                .search_file(self.matcher, &f, &mut sink)
                .map_err(std::io::Error::other)
        });
        match searched {
            Ok(()) => {
                if let Some(at) = sink.binary_at.filter(|_| self.mode == Mode::Content) {
                    let shown = self.base.show(&sink.result.rel).0;
                    if sink.binary_matched {
                        self.problems.add_text(format!("{shown}: binary file matches (NUL byte at offset {at}); matching lines from there on are not shown"));
                    } else if sink.result.lines > 0 {
                        self.problems.add_text(format!("{shown}: stopped searching binary file after match (NUL byte at offset {at})"));
                    }
                }
                if self
                    .per_file
                    .is_some_and(|cap| sink.result.lines as u64 >= cap)
                {
                    let shown = self.base.show(&sink.result.rel).0;
                    self.problems.add_text(format!("{shown}: stopped at {SEED_PER_FILE} matches (`context` shows at most that many a file; `-C` shows all)"));
                }
                Some(sink.finish())
            }
            Err(e) => {
                let shown = self.base.show(&sink.result.rel).0;
                self.problems.add_text(format!("{shown}: {e}"));
                None
            }
        }
    }
}

/// Seed 000's grep shows at most this many matches of a file with `context`.
const SEED_PER_FILE: u64 = 100;

/// Seed 000's `context` made ours: `-C`, `content` unless output_mode says otherwise; the cap on
/// matches a file it brings. Given with `-C` too, it is one field given twice (16.2).
fn seed_context(input: &mut Input) -> Result<Option<u64>> {
    let Some(c) = input.seed_context.take() else {
        return Ok(None);
    };
    if input.context.is_some() {
        return Err(ToolError::invalid(
            "context",
            "grep: `context` and `-C` are one field given twice",
        )
        .hint("Give `-C` (or `context`) once."));
    }
    input.context = Some(c);
    input.output_mode.get_or_insert(OutputMode::Content);
    Ok(Some(SEED_PER_FILE))
}

fn build_matcher(input: &Input, multiline: bool) -> Result<RegexMatcher> {
    let mut b = RegexMatcherBuilder::new();
    b.case_insensitive(input.case_insensitive.unwrap_or(false))
        // ^ and $ match at line boundaries, as in ripgrep.
        .multi_line(true)
        .fixed_strings(input.fixed_strings.unwrap_or(false))
        .octal(false);
    if multiline {
        b.dot_matches_new_line(true);
    } else {
        // Lets the matcher search line by line and refuse a pattern that needs a `\n`.
        b.line_terminator(Some(b'\n'));
    }
    b.build(&input.pattern).map_err(|e| {
        // grep-regex reports the pattern in its wrapped form (`(?:x()`); the parser's own
        // message points into the pattern as given.
        let msg = regex_syntax::ParserBuilder::new()
            .build()
            .parse(&input.pattern)
            .err()
            .filter(|_| input.fixed_strings != Some(true))
            .map_or_else(|| e.to_string(), |pe| pe.to_string());
        let hint = if msg.contains("\\n") || msg.contains("line terminator") {
            "A pattern that matches a newline needs multiline: true."
        } else if input.fixed_strings != Some(true) {
            "The pattern is a Rust regex: escape special characters (\\( \\{ \\. \\[), or set fixed_strings: true to search a literal."
        } else {
            "Check the pattern."
        };
        ToolError::new(Code::InvalidRegex, format!("invalid regex: {msg}")).hint(hint)
    })
}

/// The `glob` filter, as ripgrep's `-g`: gitignore-style globs relative to the root; `!` excludes.
pub(crate) fn build_overrides(
    ctx: &Ctx,
    globs: Option<&Globs>,
) -> Result<Option<ignore::overrides::Override>> {
    let Some(Globs(globs)) = globs else {
        return Ok(None);
    };
    if globs.is_empty() {
        return Ok(None);
    }
    let mut b = OverrideBuilder::new(&ctx.root_real);
    for g in globs {
        b.add(g).map_err(|e| bad_glob(g, &e))?;
    }
    let ov = b.build().map_err(|e| bad_glob(&globs.join(", "), &e))?;
    Ok(Some(ov))
}

fn bad_glob(g: &str, e: &ignore::Error) -> ToolError {
    ToolError::new(Code::InvalidGlob, format!("invalid glob {g:?}: {e}")).hint(
        "glob takes ripgrep -g globs: \"*.rs\", \"*.{ts,tsx}\", \"src/**/*.c\", \"!*.min.js\" (a leading ! excludes).",
    )
}

pub(crate) fn build_types(name: Option<&str>) -> Result<Option<ignore::types::Types>> {
    let Some(name) = name else { return Ok(None) };
    let mut b = TypesBuilder::new();
    b.add_defaults();
    let known = b.definitions().iter().any(|d| d.name() == name);
    if !known {
        let mut close: Vec<String> = b
            .definitions()
            .iter()
            .map(|d| d.name().to_string())
            .filter(|n| n.starts_with(name.get(..1).unwrap_or("")))
            .collect();
        close.truncate(12);
        return Err(ToolError::invalid("type", format!("unknown file type {name:?}"))
            .hint(if close.is_empty() {
                "Use a ripgrep type name such as rust, py, js, ts, go, java, c, cpp, md, or filter with glob instead.".to_string()
            } else {
                format!("ripgrep type names starting alike: {}. Or filter with glob instead.", close.join(", "))
            }));
    }
    b.select(name);
    let types = b
        .build()
        .map_err(|e| ToolError::invalid("type", format!("file type {name:?}: {e}")))?;
    Ok(Some(types))
}
