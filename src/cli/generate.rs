//! `generate` (hidden): shell completions and man pages from the clap definition, so they can
//! never disagree with the binary. The committed copies under completions/ and man/ are checked
//! against this output by the test suite.
//!
//! ```text
//! loopr-tool generate all --out-dir .      # completions/ and man/
//! loopr-tool generate bash                 # one script on stdout
//! ```
//!
//! It is handed the full command line (`cli::full_command`) rather than asking for it, so this
//! module imports nothing of the CLI that runs it.

use crate::exit_status::ExitStatus;
use clap::{Arg, ArgMatches, Command};
use clap_complete::Shell;
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn command() -> Command {
    Command::new("generate")
        .hide(true)
        .about("Write shell completions or man pages")
        .arg(Arg::new("what").required(true).value_parser([
            "bash",
            "zsh",
            "fish",
            "elvish",
            "powershell",
            "man",
            "all",
        ]))
        .arg(
            Arg::new("out-dir")
                .long("out-dir")
                .value_name("DIR")
                .help("Write files under DIR/completions and DIR/man"),
        )
}

/// What `generate` was asked for.
#[derive(Debug)]
pub struct Request {
    /// A shell's name, `man` or `all`.
    what: String,
    out_dir: Option<PathBuf>,
}

/// What clap matched for `generate`.
pub fn request(m: &ArgMatches) -> Request {
    Request {
        what: m
            .get_one::<String>("what")
            .cloned()
            .unwrap_or_else(|| "all".to_string()),
        out_dir: m.get_one::<String>("out-dir").map(PathBuf::from),
    }
}

/// The CLI as users see it (`full`, every tool and command): hidden commands (this one) left
/// out, which clap_complete would otherwise include (clap#1335).
fn visible_command(full: &Command) -> Command {
    let mut c = Command::new("loopr-tool").version(env!("CARGO_PKG_VERSION"));
    if let Some(about) = full.get_about() {
        c = c.about(about.clone());
    }
    if let Some(after) = full.get_after_long_help() {
        c = c.after_long_help(after.clone());
    }
    for a in full.get_arguments().filter(|a| !a.is_hide_set()) {
        c = c.arg(a.clone());
    }
    for s in full.get_subcommands().filter(|s| !s.is_hide_set()) {
        c = c.subcommand(s.clone());
    }
    c
}

fn shell(name: &str) -> Option<Shell> {
    match name {
        "bash" => Some(Shell::Bash),
        "zsh" => Some(Shell::Zsh),
        "fish" => Some(Shell::Fish),
        "elvish" => Some(Shell::Elvish),
        "powershell" => Some(Shell::PowerShell),
        _ => None,
    }
}

fn completion(full: &Command, sh: Shell) -> Vec<u8> {
    let mut buf = vec![];
    clap_complete::generate(sh, &mut visible_command(full), "loopr-tool", &mut buf);
    if sh == Shell::Bash {
        return bash_case_labels(buf);
    }
    buf
}

/// clap_complete's bash script computes `loopr__tool__subcmd__read` for `loopr-tool read` (the
/// `-` of the binary's name becomes `__`) but labels the case `loopr__subcmd__tool__subcmd__read`,
/// so no subcommand's flags completed (SPEC 31.2). The labels are made what the dispatcher
/// computes.
fn bash_case_labels(script: Vec<u8>) -> Vec<u8> {
    String::from_utf8(script)
        .expect("clap_complete writes UTF-8")
        .replace("loopr__subcmd__tool__subcmd__", "loopr__tool__subcmd__")
        .into_bytes()
}

/// `(file name, contents)` of every man page: loopr-tool.1 and loopr-tool-TOOL.1.
fn man_pages(full: &Command) -> Vec<(String, Vec<u8>)> {
    let top = visible_command(full);
    let mut pages = vec![];
    let mut buf = vec![];
    clap_mangen::Man::new(top.clone())
        .render(&mut buf)
        .expect("rendering to memory");
    pages.push(("loopr-tool.1".to_string(), buf));
    for sub in top.get_subcommands() {
        let name = format!("loopr-tool-{}", sub.get_name());
        let mut buf = vec![];
        clap_mangen::Man::new(sub.clone().name(name.clone()))
            .render(&mut buf)
            .expect("rendering to memory");
        pages.push((format!("{name}.1"), buf));
    }
    pages
}

/// Every generated file, by path relative to the output directory.
fn all_files(full: &Command) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = vec![];
    for (sh, file) in [
        (Shell::Bash, "loopr-tool.bash"),
        (Shell::Zsh, "_loopr-tool"),
        (Shell::Fish, "loopr-tool.fish"),
        (Shell::Elvish, "loopr-tool.elv"),
        (Shell::PowerShell, "_loopr-tool.ps1"),
    ] {
        files.push((Path::new("completions").join(file), completion(full, sh)));
    }
    for (name, page) in man_pages(full) {
        files.push((Path::new("man").join(name), page));
    }
    files
}

/// Writes what `request` asks for, made from `full`, the whole command line.
pub fn run(request: &Request, full: &Command) -> ExitStatus {
    let what = request.what.as_str();
    let result = match (what, &request.out_dir) {
        (_, Some(dir)) => all_files(full)
            .into_iter()
            .filter(|(p, _)| match what {
                "all" => true,
                "man" => p.starts_with("man"),
                _ => p.starts_with("completions"),
            })
            .try_for_each(|(p, bytes)| {
                let path = dir.join(p);
                std::fs::create_dir_all(path.parent().expect("has a parent"))?;
                std::fs::write(path, bytes)
            }),
        ("man", None) => std::io::stdout().write_all(&man_pages(full).remove(0).1),
        ("all", None) => Err(std::io::Error::other("`generate all` needs --out-dir DIR")),
        (sh, None) => {
            let sh = shell(sh).expect("clap checked the value");
            std::io::stdout().write_all(&completion(full, sh))
        }
    };
    match result {
        Ok(()) => ExitStatus::Success,
        Err(e) => {
            eprintln!("loopr-tool generate: {e}");
            ExitStatus::Failure
        }
    }
}
