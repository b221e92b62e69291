//! Shell words: how a word is quoted for `sh -c` (hooks' `{paths}`, a command tool's `args`,
//! run's helpers). Core: tools, hooks and dialects all quote the same way.

/// Shell-quotes one word for `sh -c`: left bare when it holds only characters the shell
/// takes literally, else single-quoted.
pub fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:@+,".contains(&b))
    {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}
