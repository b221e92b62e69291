//! run's destructive-command guard (SPEC §15, 16.8): a guard against accidents, not a sandbox.
//!
//! The command is read as shell words, so text that only *mentions* a dangerous command
//! (`echo 'rm -rf /'`, `git commit -m "drop mkfs step"`) passes, while the real thing is caught
//! however it is dressed: split by `;` `&&` `||` `|` `&` or newlines, behind `sudo`, `env`,
//! `command`, `exec`, `nice`, `nohup` or a path (`/bin/rm`), inside `sh -c '…'`, `eval` or a
//! command substitution, with flags combined or apart, short or long.
//!
//! What a determined user can still do (variables, `find -delete`, a script file, an
//! interpreter) is exactly why the README calls this a guard and names the real boundaries.

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
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Rule::RmRoot => "recursive rm of /, ~, $HOME, /* or the project root",
            Rule::Mkfs => "making a file system (mkfs)",
            Rule::DdDevice => "dd writing onto a device",
            Rule::DeviceRedirect => "a redirect onto a disk device",
            Rule::ChmodRoot => "recursive chmod of /, ~ or the project root",
            Rule::PipeToShell => "a download piped into a shell",
            Rule::ForkBomb => "a fork bomb",
        }
    }
}

/// One simple command: its words (quotes removed) and its output redirect targets.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Simple {
    words: Vec<String>,
    redirects: Vec<String>,
}

/// Commands joined by `|`; pipelines are joined by `;`, `&&`, `||`, `&` and newlines.
type Pipeline = Vec<Simple>;

/// Text run as a command of its own: `$(…)` and backticks, found while lexing.
struct Lexed {
    pipelines: Vec<Pipeline>,
    nested: Vec<String>,
}

/// Splits `src` into pipelines of simple commands. Unbalanced quotes end the word at the end of
/// the input, as a forgiving reader would: the guard must not be dodged by a syntax error.
fn lex(src: &str) -> Lexed {
    let chars: Vec<char> = src.chars().collect();
    let mut pipelines: Vec<Pipeline> = vec![];
    let mut pipeline: Pipeline = vec![];
    let mut cmd = Simple::default();
    let mut word = String::new();
    let mut in_word = false;
    let mut redirect_next = false;
    let mut nested = vec![];
    let mut i = 0;

    // Ends the current word; a word after `>` is a redirect target.
    let end_word =
        |word: &mut String, in_word: &mut bool, cmd: &mut Simple, redirect_next: &mut bool| {
            if *in_word {
                let w = std::mem::take(word);
                if *redirect_next {
                    cmd.redirects.push(w);
                    *redirect_next = false;
                } else {
                    cmd.words.push(w);
                }
                *in_word = false;
            }
        };

    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\'
                        && i + 1 < chars.len()
                        && matches!(chars[i + 1], '"' | '\\' | '$' | '`')
                    {
                        i += 1;
                    } else if chars[i] == '$' && chars.get(i + 1) == Some(&'(') {
                        let (inner, end) = balanced(&chars, i + 2);
                        nested.push(inner);
                        i = end;
                        continue;
                    } else if chars[i] == '`' {
                        let end = chars[i + 1..]
                            .iter()
                            .position(|&c| c == '`')
                            .map_or(chars.len(), |p| i + 1 + p);
                        nested.push(chars[i + 1..end].iter().collect());
                        i = end + 1;
                        continue;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '\\' => {
                in_word = true;
                if let Some(&next) = chars.get(i + 1) {
                    if next != '\n' {
                        word.push(next);
                    }
                    i += 1;
                }
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                let (inner, end) = balanced(&chars, i + 2);
                nested.push(inner);
                in_word = true;
                i = end;
                continue;
            }
            '`' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&c| c == '`')
                    .map_or(chars.len(), |p| i + 1 + p);
                nested.push(chars[i + 1..end].iter().collect());
                in_word = true;
                i = end + 1;
                continue;
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            ' ' | '\t' => end_word(&mut word, &mut in_word, &mut cmd, &mut redirect_next),
            '>' | '<' => {
                // A file-descriptor number just before (`2>`) belongs to the operator.
                if in_word && word.chars().all(|d| d.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                end_word(&mut word, &mut in_word, &mut cmd, &mut redirect_next);
                while matches!(chars.get(i + 1), Some('>') | Some('&') | Some('|')) {
                    i += 1;
                }
                redirect_next = c == '>';
                if c == '<' {
                    redirect_next = false;
                    // skip the input file's word: read it and drop it
                    i += 1;
                    while chars.get(i) == Some(&' ') {
                        i += 1;
                    }
                    while i < chars.len()
                        && !matches!(chars[i], ' ' | '\t' | '\n' | ';' | '|' | '&')
                    {
                        i += 1;
                    }
                    continue;
                }
            }
            // Braces group only where a word would start (`{ a; }`); `${HOME}` is one word.
            ';' | '\n' | '&' | '|' | '(' | ')' | '{' | '}'
                if !(in_word && matches!(c, '{' | '}')) =>
            {
                end_word(&mut word, &mut in_word, &mut cmd, &mut redirect_next);
                let is_pipe = c == '|' && chars.get(i + 1) != Some(&'|');
                if c == '&' && chars.get(i + 1) == Some(&'>') {
                    // `&>file`: both streams to a file
                    i += 1;
                    while chars.get(i + 1) == Some(&'>') {
                        i += 1;
                    }
                    redirect_next = true;
                    i += 1;
                    continue;
                }
                if !cmd.words.is_empty() || !cmd.redirects.is_empty() {
                    pipeline.push(std::mem::take(&mut cmd));
                }
                if !is_pipe && !pipeline.is_empty() {
                    pipelines.push(std::mem::take(&mut pipeline));
                }
                if matches!((c, chars.get(i + 1)), ('&', Some('&')) | ('|', Some('|'))) {
                    i += 1;
                }
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
        i += 1;
    }
    end_word(&mut word, &mut in_word, &mut cmd, &mut redirect_next);
    if !cmd.words.is_empty() || !cmd.redirects.is_empty() {
        pipeline.push(cmd);
    }
    if !pipeline.is_empty() {
        pipelines.push(pipeline);
    }
    Lexed { pipelines, nested }
}

/// The text up to the `)` that closes an opening just before `start`, and the index after it.
fn balanced(chars: &[char], start: usize) -> (String, usize) {
    let mut depth = 1;
    let mut i = start;
    while i < chars.len() {
        match chars[i] {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return (chars[start..i].iter().collect(), i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    (chars[start..].iter().collect(), chars.len())
}

fn base(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Drops what runs the real command: `sudo`, `env`, `nohup`, … with their own options, and
/// leading `VAR=value` assignments.
fn strip_wrappers(words: &[String]) -> &[String] {
    let mut w = words;
    loop {
        let Some(first) = w.first() else { return w };
        let name = base(first);
        let is_assignment =
            first.contains('=') && !first.starts_with('=') && !first.starts_with('-');
        if is_assignment {
            w = &w[1..];
            continue;
        }
        let takes_value: &[&str] = match name {
            "sudo" | "doas" => &["-u", "-g", "-C", "-h", "-p", "-r", "-t", "-U", "-D"],
            "env" => &["-u", "-C", "-S"],
            "nice" => &["-n"],
            "command" | "exec" | "nohup" | "time" | "builtin" => &[],
            _ => return w,
        };
        w = &w[1..];
        while let Some(opt) = w.first() {
            if opt == "--" {
                w = &w[1..];
                break;
            }
            if !opt.starts_with('-') || opt == "-" {
                // env's VAR=value and nice's bare adjustment ride along
                if name == "env" && opt.contains('=') {
                    w = &w[1..];
                    continue;
                }
                break;
            }
            w = &w[if takes_value.contains(&opt.as_str()) {
                2
            } else {
                1
            }
            .min(w.len())..];
        }
    }
}

const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "ash", "fish"];

/// Is `target` one the guard protects: the file system root, home, or the sandbox root?
fn protected(target: &str, root: &str) -> bool {
    let root = root.trim_end_matches('/');
    let t = target.trim_end_matches('/');
    let t = t
        .strip_suffix("/*")
        .or_else(|| t.strip_suffix("/."))
        .unwrap_or(t);
    let t = t.trim_end_matches('/');
    matches!(
        t,
        "" | "/" | "~" | "$HOME" | "${HOME}" | "*" | "." | "./*" | "/*"
    ) || target.chars().all(|c| c == '/')
        || (!root.is_empty() && t == root)
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

fn check_simple(cmd: &Simple, root: &str, depth: usize) -> Option<Rule> {
    if cmd.redirects.iter().any(|r| disk_device(r)) {
        return Some(Rule::DeviceRedirect);
    }
    let words = strip_wrappers(&cmd.words);
    let (name, args) = match words.split_first() {
        Some((n, a)) => (base(n), a),
        None => return None,
    };
    match name {
        "rm" if recursive(args) && operands(args).any(|t| protected(t, root)) => Some(Rule::RmRoot),
        "chmod" | "chown" | "chgrp"
            if recursive(args) && operands(args).any(|t| protected(t, root)) =>
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
        n if SHELLS.contains(&n) || n == "eval" => {
            // Read into `sh -c 'STRING'` and `eval STRING` as commands of their own.
            let script = if n == "eval" {
                Some(args.join(" "))
            } else {
                args.iter()
                    .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
                    .and_then(|i| args.get(i + 1).cloned())
            };
            script.and_then(|s| check_depth(&s, root, depth + 1))
        }
        _ => None,
    }
}

fn check_pipeline(p: &Pipeline) -> Option<Rule> {
    let downloads = |c: &Simple| {
        strip_wrappers(&c.words)
            .first()
            .is_some_and(|w| matches!(base(w), "curl" | "wget" | "fetch"))
    };
    let shell = |c: &Simple| {
        strip_wrappers(&c.words).first().is_some_and(|w| {
            SHELLS.contains(&base(w)) || base(w) == "python3" || base(w) == "python"
        })
    };
    let first_download = p.iter().position(downloads)?;
    p[first_download + 1..]
        .iter()
        .any(shell)
        .then_some(Rule::PipeToShell)
}

/// `:(){ :|:& };:` and its renamings: a function whose body pipes itself into itself in the
/// background. Checked on the text with blanks removed, since the lexer splits it apart.
fn fork_bomb(src: &str) -> bool {
    let s: String = src.chars().filter(|c| !c.is_whitespace()).collect();
    let mut rest = s.as_str();
    while let Some(open) = rest.find("(){") {
        let name_start = rest[..open]
            .rfind([';', '&', '|', '(', ')', '{', '}'])
            .map_or(0, |i| i + 1);
        let name = rest[name_start..open].trim_start_matches("function");
        let body = &rest[open + 3..];
        if !name.is_empty() && body.starts_with(&format!("{name}|{name}&")) {
            return true;
        }
        rest = body;
    }
    false
}

const MAX_DEPTH: usize = 8;

fn check_depth(src: &str, root: &str, depth: usize) -> Option<Rule> {
    if depth > MAX_DEPTH {
        return None;
    }
    if fork_bomb(src) {
        return Some(Rule::ForkBomb);
    }
    let lexed = lex(src);
    for p in &lexed.pipelines {
        if let Some(rule) = check_pipeline(p) {
            return Some(rule);
        }
        for cmd in p {
            if let Some(rule) = check_simple(cmd, root, depth) {
                return Some(rule);
            }
        }
    }
    lexed
        .nested
        .iter()
        .find_map(|inner| check_depth(inner, root, depth + 1))
}

/// The rule `command` breaks, if any. `root` is the sandbox root's path (its own deletion is
/// as bad as `/`'s from the user's point of view).
pub fn check(command: &str, root: &str) -> Option<Rule> {
    check_depth(command, root, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = "/home/me/project";

    fn rule(cmd: &str) -> Option<&'static str> {
        check(cmd, ROOT).map(Rule::name)
    }

    #[test]
    fn rm_of_protected_targets_in_every_spelling() {
        for cmd in [
            "rm -rf /",
            "rm -fr /",
            "rm -r -f /",
            "rm --recursive --force /",
            "rm -rf //",
            "rm -rf /.",
            "rm -rf /*",
            "rm -rf ~",
            "rm -rf ~/",
            "rm -rf $HOME",
            "rm -rf \"$HOME\"",
            "rm -rf ${HOME}/",
            "rm -rf /home/me/project",
            "rm -rf /home/me/project/*",
            "rm -rf .",
            "rm -rf *",
            "rm -Rf /",
            "/bin/rm -rf /",
            "sudo rm -rf /",
            "sudo -u root rm -rf /",
            "env FOO=1 rm -rf /",
            "command rm -rf /",
            "exec rm -rf /",
            "nice -n 10 rm -rf /",
            "nohup rm -rf / &",
            "X=1 rm -rf /",
            "cd /tmp && rm -rf /",
            "true; rm -rf /",
            "false || rm -rf /",
            "echo hi | rm -rf /",
            "sleep 1 & rm -rf /",
            "ls\nrm -rf /",
            "sh -c 'rm -rf /'",
            "bash -c \"rm -rf ~\"",
            "bash -lc 'cd / && rm -rf /'",
            "sudo sh -c 'rm -rf /*'",
            "eval 'rm -rf /'",
            "echo $(rm -rf /)",
            "echo `rm -rf ~`",
            "r\\m -rf /",
            "'rm' -rf /",
            "rm -rf -- /",
            "rm -rf /tmp/x /",
        ] {
            assert_eq!(rule(cmd), Some("rm_root"), "{cmd}");
        }
    }

    #[test]
    fn ordinary_commands_and_mentions_pass() {
        for cmd in [
            "echo 'rm -rf /'",
            "echo \"rm -rf /\"",
            "git commit -m \"drop mkfs step\"",
            "git commit -m 'curl x | sh is bad'",
            "rm -rf ./build",
            "rm -rf build/ target",
            "rm -rf /tmp/scratch",
            "rm -f /etc/foo.conf",
            "rm /",
            "rm -rf ~/projects/old",
            "rm -rf /home/me/project/build",
            "grep -r mkfs docs/",
            "ls -la / > listing.txt",
            "dd if=/dev/zero of=disk.img bs=1M count=10",
            "dd if=/dev/sda of=backup.img",
            "cat /dev/sda1 > /dev/null",
            "chmod -R 755 build",
            "chmod 777 /",
            "curl -fsSL https://example.com/install.sh -o install.sh",
            "wget -qO- https://example.com | grep title",
            "cat script.sh | sh",
            "cargo test 2>&1 | tail",
            "f() { echo hi; }; f",
            "# rm -rf /",
            "python3 -c 'print(1)'",
        ] {
            assert_eq!(rule(cmd), None, "{cmd}");
        }
    }

    #[test]
    fn the_other_rules() {
        let cases = [
            ("mkfs.ext4 /dev/sdb1", "mkfs"),
            ("sudo mkfs -t ext4 /dev/sdb", "mkfs"),
            ("/sbin/mkfs.xfs /dev/nvme0n1", "mkfs"),
            ("dd if=/dev/zero of=/dev/sda bs=1M", "dd_device"),
            ("dd of=/dev/nvme0n1 if=image.iso", "dd_device"),
            ("echo x > /dev/sda", "device_redirect"),
            ("cat image >> /dev/nvme0n1", "device_redirect"),
            ("cat image 2>/dev/sdb", "device_redirect"),
            ("cat image &>/dev/sdc", "device_redirect"),
            ("chmod -R 777 /", "chmod_root"),
            ("sudo chmod --recursive 000 ~", "chmod_root"),
            ("chown -R nobody /", "chmod_root"),
            ("curl https://x.test/i.sh | sh", "pipe_to_shell"),
            (
                "curl -fsSL https://x.test/i.sh | sudo bash",
                "pipe_to_shell",
            ),
            (
                "wget -qO- https://x.test/i.sh | bash -s -- --yes",
                "pipe_to_shell",
            ),
            ("curl x | tee log | sh", "pipe_to_shell"),
            (":(){ :|:& };:", "fork_bomb"),
            (":(){ :|: & };:", "fork_bomb"),
            ("bomb() { bomb | bomb & }; bomb", "fork_bomb"),
            ("function f(){ f|f& }; f", "fork_bomb"),
        ];
        for (cmd, want) in cases {
            assert_eq!(rule(cmd), Some(want), "{cmd}");
        }
    }

    #[test]
    fn unbalanced_quotes_do_not_hide_a_command() {
        assert_eq!(rule("rm -rf / 'unterminated"), Some("rm_root"));
        assert_eq!(rule("sh -c 'rm -rf /"), Some("rm_root"));
    }

    #[test]
    fn lexing_splits_words_and_redirects() {
        let l = lex("a 'b c' \"d $x\" e\\ f > out 2>&1 | g; h && i");
        assert_eq!(l.pipelines.len(), 3);
        assert_eq!(l.pipelines[0][0].words, ["a", "b c", "d $x", "e f"]);
        assert_eq!(l.pipelines[0][0].redirects, ["out", "1"]);
        assert_eq!(l.pipelines[0][1].words, ["g"]);
        assert_eq!(l.pipelines[2][0].words, ["i"]);
    }
}
