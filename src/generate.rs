//! `generate` (hidden): shell completions and man pages from the clap definition, so they can
//! never disagree with the binary. The committed copies under completions/ and man/ are checked
//! against this output by the test suite.
//!
//! ```sh
//! loopr-tool generate all --out-dir .      # completions/ and man/
//! loopr-tool generate bash                 # one script on stdout
//! ```

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

/// The CLI as users see it: hidden commands (this one) left out, which clap_complete would
/// otherwise include (clap#1335).
fn visible_command() -> Command {
    let full = crate::cli::full_command();
    let mut c = Command::new("loopr-tool")
        .version(env!("CARGO_PKG_VERSION"))
        .about(crate::cli::ABOUT);
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

pub fn completion(sh: Shell) -> Vec<u8> {
    let mut buf = vec![];
    clap_complete::generate(sh, &mut visible_command(), "loopr-tool", &mut buf);
    buf
}

/// `(file name, contents)` of every man page: loopr-tool.1 and loopr-tool-TOOL.1.
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let top = visible_command();
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
pub fn all_files() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = vec![];
    for (sh, file) in [
        (Shell::Bash, "loopr-tool.bash"),
        (Shell::Zsh, "_loopr-tool"),
        (Shell::Fish, "loopr-tool.fish"),
        (Shell::Elvish, "loopr-tool.elv"),
        (Shell::PowerShell, "_loopr-tool.ps1"),
    ] {
        files.push((Path::new("completions").join(file), completion(sh)));
    }
    for (name, page) in man_pages() {
        files.push((Path::new("man").join(name), page));
    }
    files
}

pub fn run(m: &ArgMatches) -> i32 {
    let what = m
        .get_one::<String>("what")
        .map(String::as_str)
        .unwrap_or("all");
    let out_dir = m.get_one::<String>("out-dir").map(PathBuf::from);
    let result = match (what, out_dir) {
        (_, Some(dir)) => all_files()
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
        ("man", None) => std::io::stdout().write_all(&man_pages().remove(0).1),
        ("all", None) => Err(std::io::Error::other("`generate all` needs --out-dir DIR")),
        (sh, None) => {
            std::io::stdout().write_all(&completion(shell(sh).expect("clap checked the value")))
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("loopr-tool generate: {e}");
            1
        }
    }
}
