//! run's destructive-command guard (SPEC §15, 16.8, 23.7): a guard against accidents, not a
//! sandbox.
//!
//! The command is read as shell words (`lex`), so text that only *mentions* a dangerous command
//! (`echo 'rm -rf /'`, `git commit -m "drop mkfs step"`) passes, while the real thing is caught
//! however it is dressed: split by `;` `&&` `||` `|` `&` or newlines, inside `if … then`,
//! `while … do`, `{ …; }`, `( … )` or after `!`, behind `sudo`, `env`, `timeout`, `xargs` and
//! the other wrappers below or a path (`/bin/rm`), inside `sh -c '…'`, `eval` or a command
//! substitution, with flags combined or apart, short or long. Targets are normalised against
//! the run's cwd and home (`/../`, `~/..`, `../root`, `$PWD`), and every parent of the root and
//! of home is protected as they are.
//!
//! Beyond those (SPEC 31.4): a rm behind `xargs` fed `/`, a command name that is a variable or
//! `$(which rm)`, `busybox rm`, unknown variables in a target (`/$EMPTY` is `/`), brace
//! expansions, `find … -delete` / `-exec rm`, `rsync --delete` onto a protected place, `mv` of
//! one, system directories (`/etc`, `/usr`, …) as targets, and writes onto a disk device by
//! `wipefs`, `cp`, `tee` and their kind.
//!
//! What a determined user can still do (a script file, an interpreter, a variable set in an
//! earlier call) is exactly why the README calls this a guard and names the real boundaries.

mod lex;
#[cfg(test)]
mod tests;

use lex::{Pipeline, Simple, lex};

/// The rule a command broke, as named in `error.rule`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    RmRoot,
    Mkfs,
    DdDevice,
    DeviceRedirect,
    ChmodRoot,
    PipeToShell,
    ForkBomb,
    DeviceWrite,
    MoveRoot,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::RmRoot => "rm_root",
            Rule::Mkfs => "mkfs",
            Rule::DdDevice => "dd_device",
            Rule::DeviceRedirect => "device_redirect",
            Rule::ChmodRoot => "chmod_root",
            Rule::PipeToShell => "pipe_to_shell",
            Rule::ForkBomb => "fork_bomb",
            Rule::DeviceWrite => "device_write",
            Rule::MoveRoot => "mv_root",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Rule::RmRoot => {
                "recursive removal (rm, find -delete, rsync --delete) of /, ~, the project root, a system directory, or a directory that contains one of them"
            }
            Rule::Mkfs => "making a file system (mkfs)",
            Rule::DdDevice => "dd writing onto a device",
            Rule::DeviceRedirect => "a redirect onto a disk device",
            Rule::ChmodRoot => "recursive chmod of /, ~ or the project root",
            Rule::PipeToShell => "a download run as a script",
            Rule::ForkBomb => "a fork bomb",
            Rule::DeviceWrite => "writing onto a disk device (wipefs, cp, tee, shred, …)",
            Rule::MoveRoot => "moving /, ~, the project root or a system directory away",
        }
    }
}

/// Where the command runs: what its relative paths, `~` and `$PWD` mean.
pub struct Places {
    /// The sandbox root's real path.
    pub root: String,
    /// The run's working directory (real path).
    pub cwd: String,
    /// The home directories the command may mean by `~` (its own `HOME`, ours).
    pub homes: Vec<String>,
}

/// Stands for `~` when no home is known: a path no real directory has, so `~/..` still
/// resolves to a parent of "home".
const UNKNOWN_HOME: &str = "/\0home";

impl Places {
    fn home(&self) -> &str {
        self.homes.first().map_or(UNKNOWN_HOME, String::as_str)
    }
}

fn base(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// What runs the real command, with its options that take a separate value and the operands
/// it reads before the command (`timeout 5 rm …`, `chrt 10 rm …`, `taskset 0x1 rm …`).
/// Reserved words of compound commands are wrappers without options.
const WRAPPERS: &[(&str, &[&str], usize)] = &[
    (
        "sudo",
        &[
            "-u", "-g", "-C", "-h", "-p", "-r", "-t", "-U", "-D", "--user", "--group",
        ],
        0,
    ),
    ("doas", &["-u", "-C"], 0),
    (
        "env",
        &["-u", "-C", "-S", "--unset", "--chdir", "--split-string"],
        0,
    ),
    ("nice", &["-n", "--adjustment"], 0),
    ("command", &[], 0),
    ("builtin", &[], 0),
    ("exec", &["-a"], 0),
    ("nohup", &[], 0),
    ("setsid", &[], 0),
    ("time", &["-f", "-o", "--format", "--output"], 0),
    ("timeout", &["-s", "-k", "--signal", "--kill-after"], 1),
    (
        "stdbuf",
        &["-i", "-o", "-e", "--input", "--output", "--error"],
        0,
    ),
    ("ionice", &["-c", "-n", "--class", "--classdata"], 0),
    (
        "xargs",
        &[
            "-a",
            "-d",
            "-E",
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
            "--arg-file",
            "--delimiter",
            "--eof",
            "--replace",
            "--max-lines",
            "--max-args",
            "--max-procs",
            "--max-chars",
            "--process-slot-var",
        ],
        0,
    ),
    (
        "chrt",
        &[
            "-T",
            "-P",
            "-D",
            "--sched-runtime",
            "--sched-period",
            "--sched-deadline",
        ],
        1,
    ),
    ("taskset", &[], 1),
    ("busybox", &[], 0),
];

const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "do", "while", "until", "!", "{", "}",
];

/// Drops what runs the real command: the wrappers above with their own options and operands,
/// reserved words, and leading `VAR=value` assignments.
fn strip_wrappers(words: &[String]) -> &[String] {
    let mut w = words;
    loop {
        let Some(first) = w.first() else { return w };
        let name = base(first);
        let is_assignment =
            first.contains('=') && !first.starts_with('=') && !first.starts_with('-');
        if is_assignment || RESERVED.contains(&first.as_str()) {
            w = &w[1..];
            continue;
        }
        let Some(&(_, takes_value, operands)) = WRAPPERS.iter().find(|(n, _, _)| *n == name) else {
            return w;
        };
        w = &w[1..];
        while let Some(opt) = w.first() {
            if opt == "--" {
                w = &w[1..];
                break;
            }
            if !opt.starts_with('-') || opt == "-" {
                // env's VAR=value rides along
                if name == "env" && opt.contains('=') {
                    w = &w[1..];
                    continue;
                }
                break;
            }
            let skip = if takes_value.contains(&opt.as_str()) {
                2
            } else {
                1
            };
            w = &w[skip.min(w.len())..];
        }
        w = &w[operands.min(w.len())..];
    }
}

const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "ash", "fish"];
/// Programs that run a script given to them: a download fed to one is run.
const INTERPRETERS: &[&str] = &["python", "python3", "perl", "ruby", "node"];

fn runs_scripts(name: &str) -> bool {
    SHELLS.contains(&name) || INTERPRETERS.contains(&name)
}

/// System directories: removing, moving or chmod-ing one of them whole is as bad as `/`.
const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/home",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/proc",
    "/root",
    "/run",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/usr/bin",
    "/usr/lib",
    "/usr/lib64",
    "/usr/local",
    "/usr/sbin",
    "/usr/share",
    "/var/lib",
    "/var/log",
];

/// `target` with every variable the guard cannot know taken out, as an unset (or empty) one
/// would be: `/$EMPTY` and `/${X:-}` are `/`. `$HOME` and `$PWD` are kept for `resolve`.
fn unknown_vars_out(target: &str) -> String {
    let chars: Vec<char> = target.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '$' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let (name, end) = match chars.get(i + 1) {
            Some('{') => {
                let (inner, end) = lex::balanced(&chars, i + 2, ('{', '}'));
                (inner, end)
            }
            Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
                let len = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                    .count();
                (chars[i + 1..i + 1 + len].iter().collect(), i + 1 + len)
            }
            Some(c) if c.is_ascii_digit() || matches!(c, '@' | '*' | '#' | '?' | '!' | '-') => {
                (c.to_string(), i + 2)
            }
            _ => {
                out.push('$');
                i += 1;
                continue;
            }
        };
        if matches!(name.as_str(), "HOME" | "PWD") {
            out.extend(&chars[i..end]);
        }
        i = end;
    }
    out
}

/// A word's brace expansions (`{/,}` → `/` and ``, `/{usr,etc}` → `/usr`, `/etc`), at most
/// 64 of them; a word without braces is itself.
fn brace_words(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let Some(open) = chars.iter().position(|&c| c == '{') else {
        return vec![word.to_string()];
    };
    if open > 0 && chars[open - 1] == '$' {
        return vec![word.to_string()]; // `${VAR}`, not an expansion
    }
    let (inner, end) = lex::balanced(&chars, open + 1, ('{', '}'));
    let head: String = chars[..open].iter().collect();
    let tail: String = chars[end.min(chars.len())..].iter().collect();
    let mut parts = vec![];
    let mut depth = 0;
    let mut cur = String::new();
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    if parts.len() < 2 {
        return vec![word.to_string()];
    }
    parts
        .iter()
        .flat_map(|p| brace_words(&format!("{head}{p}{tail}")))
        .take(64)
        .collect()
}

/// `target` as an absolute path, lexically normal, when it can be known: `~`, `$HOME`, `$PWD`
/// and relative paths are expanded; a last `*` component (everything in it) is dropped.
fn resolve(target: &str, p: &Places) -> String {
    let expand = |t: &str, var: &str, with: &str| -> Option<String> {
        let rest = t.strip_prefix(var)?;
        (rest.is_empty() || rest.starts_with('/')).then(|| format!("{with}{rest}"))
    };
    let home = p.home();
    let t = expand(target, "~", home)
        .or_else(|| expand(target, "$HOME", home))
        .or_else(|| expand(target, "${HOME}", home))
        .or_else(|| expand(target, "$PWD", &p.cwd))
        .or_else(|| expand(target, "${PWD}", &p.cwd))
        .unwrap_or_else(|| target.to_string());
    let t = if t.starts_with('/') {
        t
    } else {
        format!("{}/{t}", p.cwd)
    };
    let mut parts: Vec<&str> = vec![];
    for c in t.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    if parts.last() == Some(&"*") {
        parts.pop();
    }
    format!("/{}", parts.join("/"))
}

/// `a` is `b` or a directory above it, component-wise.
fn contains(a: &str, b: &str) -> bool {
    let a = a.trim_end_matches('/');
    b == a || b.strip_prefix(a).is_some_and(|rest| rest.starts_with('/')) || a.is_empty()
}

/// Is `target` one the guard protects: `/`, a home, the sandbox root, or a directory that
/// contains one of them?
fn protected(target: &str, p: &Places) -> bool {
    brace_words(target)
        .iter()
        .any(|t| protected_one(t, p, true))
}

/// As `protected`, leaving out the project root itself (what `find . -name x -delete` is for).
fn protected_outside_root(target: &str, p: &Places) -> bool {
    brace_words(target).iter().any(|t| {
        protected_one(t, p, false)
            || (protected_one(t, p, true) && !contains(&p.root, &resolve(t, p)))
    })
}

fn protected_one(target: &str, p: &Places, root_too: bool) -> bool {
    let known = unknown_vars_out(target);
    // A target that starts with an unknown variable (`$dir/`) may be anything; one that starts
    // at `/` or `~` stays there whatever the variables after it hold.
    if known != target && !(target.starts_with('/') || target.starts_with('~')) {
        return false;
    }
    let t = resolve(&known, p);
    let mut guarded: Vec<&str> = vec![p.home()];
    if root_too {
        guarded.push(p.root.as_str());
    }
    guarded.extend(p.homes.iter().map(String::as_str));
    t == "/"
        || SYSTEM_DIRS.contains(&t.as_str())
        || guarded.iter().any(|g| !g.is_empty() && contains(&t, g))
}

/// A command name the guard cannot read (a variable, `$(which rm)`): it may be rm, and is
/// judged as rm.
fn unknown_name(word: &str) -> bool {
    word.is_empty() || word.starts_with('$')
}

/// `find START… -delete`, or `-exec rm …` (also an unknown program): removes below START.
fn find_removes(args: &[String], p: &Places) -> bool {
    let starts = args
        .iter()
        .take_while(|a| !a.starts_with('-') && *a != "(" && *a != "!");
    let removes = args.iter().enumerate().any(|(i, a)| {
        a == "-delete"
            || (matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")
                && args
                    .get(i + 1)
                    .is_some_and(|w| base(w) == "rm" || unknown_name(w)))
    });
    // Below the project root a find with tests picks what it removes; without one it takes
    // everything, as `rm -rf .` would.
    let picks = args.iter().any(|a| FIND_TESTS.contains(&a.as_str()));
    removes
        && starts.into_iter().any(|s| {
            if picks {
                protected_outside_root(s, p)
            } else {
                protected(s, p)
            }
        })
}

/// find's tests that choose what it acts on.
const FIND_TESTS: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-regex",
    "-iregex",
    "-type",
    "-newer",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-size",
    "-user",
    "-group",
    "-perm",
    "-empty",
    "-links",
    "-inum",
    "-samefile",
];

/// `rsync --delete … DEST` onto a protected place: what DEST holds and SRC lacks goes.
fn rsync_deletes(args: &[String], p: &Places) -> bool {
    let deletes = args
        .iter()
        .any(|a| a.starts_with("--delete") || a == "--remove-source-files");
    deletes && operands(args).last().is_some_and(|d| protected(d, p))
}

/// Programs that write a disk device given as an operand (`wipefs -a /dev/sda`,
/// `tee /dev/sda`), and copies whose destination is one (`cp /dev/zero /dev/sda`).
fn writes_device(name: &str, args: &[String]) -> bool {
    let any = || operands(args).any(|a| disk_device(a));
    let last = || operands(args).last().is_some_and(|a| disk_device(a));
    match name {
        "wipefs" | "shred" | "blkdiscard" | "sfdisk" | "fdisk" | "cfdisk" | "parted" | "sgdisk"
        | "tee" | "badblocks" => any(),
        "cp" | "mv" | "install" | "rsync" | "pv" | "ddrescue" => last(),
        _ => false,
    }
}

/// rm or chmod with a recursive flag, in any spelling.
fn recursive(args: &[String]) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| {
        a == "--recursive"
            || (a.starts_with('-') && !a.starts_with("--") && (a.contains('r') || a.contains('R')))
    })
}

fn operands(args: &[String]) -> impl Iterator<Item = &String> {
    let mut after_dashes = false;
    args.iter().filter(move |a| {
        if after_dashes {
            return true;
        }
        if *a == "--" {
            after_dashes = true;
            return false;
        }
        !a.starts_with('-') || a.len() == 1
    })
}

fn disk_device(path: &str) -> bool {
    let Some(dev) = path.strip_prefix("/dev/") else {
        return false;
    };
    [
        "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "md", "dm-", "disk", "loop", "mapper/",
    ]
    .iter()
    .any(|p| dev.starts_with(p))
}

/// Whether `src` starts a download whose output it prints (`curl …`, `wget -qO- …`).
fn downloads(src: &str) -> bool {
    lex(src).iter().any(|p| p.first().is_some_and(is_download))
}

fn is_download(c: &Simple) -> bool {
    strip_wrappers(&c.words)
        .first()
        .is_some_and(|w| matches!(base(w), "curl" | "wget" | "fetch"))
}

fn check_simple(cmd: &Simple, p: &Places, depth: usize) -> Option<Rule> {
    if cmd.redirects.iter().any(|r| disk_device(r)) {
        return Some(Rule::DeviceRedirect);
    }
    let words = strip_wrappers(&cmd.words);
    let (name, args) = match words.split_first() {
        Some((n, a)) if unknown_name(n) => ("rm", a),
        Some((n, a)) => (base(n), a),
        None => return None,
    };
    if writes_device(name, args) {
        return Some(Rule::DeviceWrite);
    }
    match name {
        "rm" if recursive(args) && operands(args).any(|t| protected(t, p)) => Some(Rule::RmRoot),
        "find" if find_removes(args, p) => Some(Rule::RmRoot),
        "rsync" if rsync_deletes(args, p) => Some(Rule::RmRoot),
        "mv" if {
            let ops: Vec<&String> = operands(args).collect();
            ops.len() >= 2 && ops[..ops.len() - 1].iter().any(|t| protected(t, p))
        } =>
        {
            Some(Rule::MoveRoot)
        }
        "chmod" | "chown" | "chgrp"
            if recursive(args) && operands(args).any(|t| protected(t, p)) =>
        {
            Some(Rule::ChmodRoot)
        }
        n if n == "mkfs" || n.starts_with("mkfs.") || n == "mke2fs" || n == "mkswap" => {
            Some(Rule::Mkfs)
        }
        "dd" if args
            .iter()
            .any(|a| a.strip_prefix("of=").is_some_and(disk_device)) =>
        {
            Some(Rule::DdDevice)
        }
        // `sh -c "$(curl …)"`, `bash <(curl …)`, `source <(wget …)`, `eval "$(curl …)"`: the
        // download's text is run as a script.
        n if (runs_scripts(n) || matches!(n, "eval" | "source" | "."))
            && cmd.subs.iter().any(|s| downloads(s)) =>
        {
            Some(Rule::PipeToShell)
        }
        n if SHELLS.contains(&n) || n == "eval" => {
            // Read into `sh -c 'STRING'` and `eval STRING` as commands of their own.
            let script = if n == "eval" {
                Some(args.join(" "))
            } else {
                args.iter()
                    .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
                    .and_then(|i| args.get(i + 1).cloned())
            };
            script.and_then(|s| check_depth(&s, p, depth + 1))
        }
        _ => None,
    }
}

/// `echo / | xargs rm -rf`: a recursive rm behind xargs removes what the commands before it
/// in the pipeline print; their operands are its targets.
fn xargs_rm(pl: &Pipeline, p: &Places) -> Option<Rule> {
    for (i, c) in pl.iter().enumerate() {
        let inner = strip_wrappers(&c.words);
        let wrappers = &c.words[..c.words.len() - inner.len()];
        let Some((name, args)) = inner.split_first() else {
            continue;
        };
        let is_rm = base(name) == "rm" || unknown_name(name);
        if !(wrappers.iter().any(|w| base(w) == "xargs") && is_rm && recursive(args)) {
            continue;
        }
        // What `echo` and `printf` print is their operands; `find`'s is what it finds.
        let fed = pl[..i]
            .iter()
            .map(|c| strip_wrappers(&c.words))
            .filter(|w| {
                w.first()
                    .is_some_and(|n| matches!(base(n), "echo" | "printf"))
            })
            .flat_map(|w| w.iter().skip(1));
        if fed
            .into_iter()
            .any(|t| !t.starts_with('-') && protected(t, p))
        {
            return Some(Rule::RmRoot);
        }
    }
    None
}

/// A download piped into something that runs it (`curl … | sudo sh`).
fn check_pipeline(pl: &Pipeline) -> Option<Rule> {
    let runner = |c: &Simple| {
        strip_wrappers(&c.words)
            .first()
            .is_some_and(|w| runs_scripts(base(w)))
    };
    let first_download = pl.iter().position(is_download)?;
    pl[first_download + 1..]
        .iter()
        .any(runner)
        .then_some(Rule::PipeToShell)
}

/// A function that starts itself twice at once: `:(){ :|:& };:`, `f(){ f & f; }; f`, under any
/// name, with `NAME() {` or `function NAME {`. Two calls of itself joined by `|` or a single
/// `&` make the count of processes double at every level.
fn fork_bomb(src: &str) -> bool {
    let chars: Vec<char> = src.chars().collect();
    for (open, _) in chars.iter().enumerate().filter(|(_, c)| **c == '{') {
        let Some(name) = function_name(&chars[..open]) else {
            continue;
        };
        let (body, _) = lex::balanced(&chars, open + 1, ('{', '}'));
        if calls_itself_twice(&name, &body) {
            return true;
        }
    }
    false
}

/// The name of the function whose body opens right after `before`.
fn function_name(before: &[char]) -> Option<String> {
    let text: String = before.iter().collect();
    let text = text.trim_end();
    let word_before = |t: &str| -> String {
        t.chars()
            .rev()
            .take_while(|c| {
                !c.is_whitespace() && !matches!(c, ';' | '&' | '|' | '(' | ')' | '{' | '}')
            })
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect()
    };
    if let Some(t) = text.strip_suffix(')') {
        let t = t.trim_end().strip_suffix('(')?.trim_end();
        let name = word_before(t);
        return (!name.is_empty()).then_some(name);
    }
    let name = word_before(text);
    let rest = text[..text.len() - name.len()].trim_end();
    (!name.is_empty() && rest.ends_with("function")).then_some(name)
}

fn calls_itself_twice(name: &str, body: &str) -> bool {
    // The body as (command, the separator after it).
    let mut parts: Vec<(String, &str)> = vec![];
    let chars: Vec<char> = body.chars().collect();
    let mut cur = String::new();
    let mut i = 0;
    while i < chars.len() {
        let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        let sep = match chars[i] {
            '&' | '|' if two == "&&" || two == "||" => Some(if two == "&&" { "&&" } else { "||" }),
            '&' => Some("&"),
            '|' => Some("|"),
            ';' | '\n' => Some(";"),
            _ => None,
        };
        match sep {
            Some(s) => {
                parts.push((cur.trim().to_string(), s));
                cur.clear();
                i += s.len();
            }
            None => {
                cur.push(chars[i]);
                i += 1;
            }
        }
    }
    parts.push((cur.trim().to_string(), ";"));
    let is_call = |c: &str| c.split_whitespace().next() == Some(name);
    let calls = parts.iter().filter(|(c, _)| is_call(c)).count();
    parts
        .windows(2)
        .any(|w| is_call(&w[0].0) && is_call(&w[1].0) && matches!(w[0].1, "|" | "&"))
        || (calls >= 2 && parts.iter().any(|(c, s)| is_call(c) && *s == "&"))
}

const MAX_DEPTH: usize = 8;

fn check_depth(src: &str, p: &Places, depth: usize) -> Option<Rule> {
    if depth > MAX_DEPTH {
        return None;
    }
    if fork_bomb(src) {
        return Some(Rule::ForkBomb);
    }
    let pipelines = lex(src);
    for pl in &pipelines {
        if let Some(rule) = check_pipeline(pl).or_else(|| xargs_rm(pl, p)) {
            return Some(rule);
        }
        for cmd in pl {
            if let Some(rule) = check_simple(cmd, p, depth) {
                return Some(rule);
            }
        }
    }
    // What command and process substitutions run, as commands of their own.
    pipelines
        .iter()
        .flatten()
        .flat_map(|c| &c.subs)
        .find_map(|inner| check_depth(inner, p, depth + 1))
}

/// The rule `command` breaks, if any, run from `places.cwd`.
pub fn check(command: &str, places: &Places) -> Option<Rule> {
    check_depth(command, places, 0)
}
