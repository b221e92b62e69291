//! The guard's reader of shell text: simple commands as words with quotes removed, their output
//! redirect targets, and the text they run as commands of their own (`$(…)`, backticks,
//! `<(…)`, `>(…)`).
//!
//! It is forgiving on purpose: an unbalanced quote ends the word at the end of the input, and
//! anything it does not understand becomes words. A syntax error must never hide a command
//! from the guard.

/// One simple command.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Simple {
    pub words: Vec<String>,
    pub redirects: Vec<String>,
    /// Text run as commands of their own while this command's words are made: command and
    /// process substitutions. `sh -c "$(curl …)"` runs what the download printed.
    pub subs: Vec<String>,
}

/// Commands joined by `|`; pipelines are joined by `;`, `&&`, `||`, `&`, newlines and the
/// brackets of compound commands.
pub type Pipeline = Vec<Simple>;

/// What a process substitution looks like to the command that gets it.
const PROC_SUB: &str = "/dev/fd/63";

struct Lexer {
    chars: Vec<char>,
    i: usize,
    pipelines: Vec<Pipeline>,
    pipeline: Pipeline,
    cmd: Simple,
    word: String,
    in_word: bool,
    /// The next word is the target of `>`.
    redirect_next: bool,
}

/// Splits `src` into pipelines of simple commands.
pub fn lex(src: &str) -> Vec<Pipeline> {
    let mut l = Lexer {
        chars: src.chars().collect(),
        i: 0,
        pipelines: vec![],
        pipeline: vec![],
        cmd: Simple::default(),
        word: String::new(),
        in_word: false,
        redirect_next: false,
    };
    while l.i < l.chars.len() {
        l.step();
    }
    l.end_command(true);
    l.pipelines
}

impl Lexer {
    fn at(&self, k: usize) -> Option<char> {
        self.chars.get(k).copied()
    }

    fn end_word(&mut self) {
        if self.in_word {
            let w = std::mem::take(&mut self.word);
            if self.redirect_next {
                self.cmd.redirects.push(w);
                self.redirect_next = false;
            } else {
                self.cmd.words.push(w);
            }
            self.in_word = false;
        }
    }

    /// Ends the current simple command, and its pipeline unless it was joined by `|`.
    fn end_command(&mut self, end_pipeline: bool) {
        self.end_word();
        let c = std::mem::take(&mut self.cmd);
        if !c.words.is_empty() || !c.redirects.is_empty() || !c.subs.is_empty() {
            self.pipeline.push(c);
        }
        if end_pipeline && !self.pipeline.is_empty() {
            self.pipelines.push(std::mem::take(&mut self.pipeline));
        }
    }

    /// `$(…)` or `<(…)` whose `(` is just before `start`: the inner text becomes a
    /// substitution of the current command; `self.i` moves past the `)`.
    fn substitution(&mut self, start: usize) {
        let (inner, end) = balanced(&self.chars, start, ('(', ')'));
        self.cmd.subs.push(inner);
        self.i = end;
    }

    fn backticks(&mut self) {
        let from = self.i + 1;
        let end = self.chars[from..]
            .iter()
            .position(|&c| c == '`')
            .map_or(self.chars.len(), |p| from + p);
        self.cmd.subs.push(self.chars[from..end].iter().collect());
        self.i = end + 1;
    }

    /// Reads one token or character at `self.i`.
    fn step(&mut self) {
        let c = self.chars[self.i];
        match c {
            '\'' => {
                self.in_word = true;
                self.i += 1;
                while let Some(ch) = self.at(self.i).filter(|&ch| ch != '\'') {
                    self.word.push(ch);
                    self.i += 1;
                }
            }
            '"' => self.double_quoted(),
            '\\' => {
                self.in_word = true;
                if let Some(next) = self.at(self.i + 1) {
                    if next != '\n' {
                        self.word.push(next);
                    }
                    self.i += 1;
                }
            }
            '$' if self.at(self.i + 1) == Some('(') => {
                self.in_word = true;
                self.substitution(self.i + 2);
                return;
            }
            '`' => {
                self.in_word = true;
                self.backticks();
                return;
            }
            '#' if !self.in_word => {
                while self.at(self.i).is_some_and(|ch| ch != '\n') {
                    self.i += 1;
                }
                return;
            }
            ' ' | '\t' => self.end_word(),
            '<' | '>' if self.at(self.i + 1) == Some('(') => {
                // Process substitution: the command gets a file name; the text runs.
                self.end_word();
                self.substitution(self.i + 2);
                self.cmd.words.push(PROC_SUB.to_string());
                return;
            }
            '>' | '<' => {
                self.redirect(c);
                return;
            }
            // Braces group only where a word would start (`{ a; }`); `${HOME}` is one word,
            // and so is a brace expansion (`{/,}`, `{a,b}/c`).
            ';' | '\n' | '&' | '|' | '(' | ')' | '{' | '}'
                if !((self.in_word && matches!(c, '{' | '}'))
                    || (c == '{' && self.brace_expansion())) =>
            {
                self.separator(c);
                return;
            }
            _ => {
                self.in_word = true;
                self.word.push(c);
            }
        }
        self.i += 1;
    }

    /// Whether the `{` at `self.i` opens a brace expansion: its `}` closes it before any
    /// blank or separator, with a `,` or `..` between.
    fn brace_expansion(&self) -> bool {
        let rest = &self.chars[self.i + 1..];
        let Some(end) = rest
            .iter()
            .position(|&ch| matches!(ch, '}' | ' ' | '\t' | '\n' | ';' | '|' | '&'))
        else {
            return false;
        };
        let inner: String = rest[..end].iter().collect();
        rest[end] == '}' && (inner.contains(',') || inner.contains(".."))
    }

    fn double_quoted(&mut self) {
        self.in_word = true;
        self.i += 1;
        while let Some(ch) = self.at(self.i).filter(|&ch| ch != '"') {
            if ch == '\\' && matches!(self.at(self.i + 1), Some('"' | '\\' | '$' | '`')) {
                self.i += 1;
            } else if ch == '$' && self.at(self.i + 1) == Some('(') {
                self.substitution(self.i + 2);
                continue;
            } else if ch == '`' {
                self.backticks();
                continue;
            }
            if let Some(ch) = self.at(self.i) {
                self.word.push(ch);
            }
            self.i += 1;
        }
        // `step` steps over the closing quote.
    }

    fn redirect(&mut self, c: char) {
        // A file-descriptor number just before (`2>`) belongs to the operator.
        if self.in_word && self.word.chars().all(|d| d.is_ascii_digit()) {
            self.word.clear();
            self.in_word = false;
        }
        self.end_word();
        while matches!(self.at(self.i + 1), Some('>' | '&' | '|')) {
            self.i += 1;
        }
        self.i += 1;
        if c == '>' {
            self.redirect_next = true;
            return;
        }
        // An input redirect: its file's word is read and dropped.
        while self.at(self.i) == Some(' ') {
            self.i += 1;
        }
        while self
            .at(self.i)
            .is_some_and(|ch| !matches!(ch, ' ' | '\t' | '\n' | ';' | '|' | '&'))
        {
            self.i += 1;
        }
    }

    fn separator(&mut self, c: char) {
        if c == '&' && self.at(self.i + 1) == Some('>') {
            // `&>file`: both streams to a file
            self.end_word();
            self.i += 1;
            while self.at(self.i + 1) == Some('>') {
                self.i += 1;
            }
            self.redirect_next = true;
            self.i += 1;
            return;
        }
        let is_pipe = c == '|' && self.at(self.i + 1) != Some('|');
        self.end_command(!is_pipe);
        if matches!(
            (c, self.at(self.i + 1)),
            ('&', Some('&')) | ('|', Some('|'))
        ) {
            self.i += 1;
        }
        self.i += 1;
    }
}

/// The text up to the `close` that matches an `open` just before `start`, and the index after
/// it; unbalanced, the rest of the text.
pub fn balanced(chars: &[char], start: usize, (open, close): (char, char)) -> (String, usize) {
    let mut depth = 1;
    for (i, &c) in chars.iter().enumerate().skip(start) {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return (chars[start..i].iter().collect(), i + 1);
            }
        }
    }
    (chars[start..].iter().collect(), chars.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_redirects_and_pipelines() {
        let l = lex("a 'b c' \"d $x\" e\\ f > out 2>&1 | g; h && i");
        assert_eq!(l.len(), 3);
        assert_eq!(l[0][0].words, ["a", "b c", "d $x", "e f"]);
        assert_eq!(l[0][0].redirects, ["out", "1"]);
        assert_eq!(l[0][1].words, ["g"]);
        assert_eq!(l[2][0].words, ["i"]);
    }

    #[test]
    fn substitutions_belong_to_their_command() {
        let l = lex("sh -c \"$(curl -s x)\"; bash <(wget y) && echo `id`");
        assert_eq!(l[0][0].words, ["sh", "-c", ""]);
        assert_eq!(l[0][0].subs, ["curl -s x"]);
        assert_eq!(l[1][0].words, ["bash", PROC_SUB]);
        assert_eq!(l[1][0].subs, ["wget y"]);
        assert_eq!(l[2][0].subs, ["id"]);
    }
}
