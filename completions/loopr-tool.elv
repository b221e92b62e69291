
use builtin;
use str;

set edit:completion:arg-completer[loopr-tool] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'loopr-tool'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'loopr-tool'= {
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --sandbox 'The weakest sandbox run may use, a floor for its `sandbox` field; give it before the tool''s name [env: LOOPR_RUN_SANDBOX] [default: none]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand read 'Read a text file with line numbers (also images, PDFs, notebooks, several files)'
            cand write 'Create or overwrite a file'
            cand edit 'Replace text in a file'
            cand apply_patch 'Apply a multi-file patch (Codex''s apply_patch format)'
            cand move 'Move or rename a file or directory (undoable)'
            cand delete 'Delete a file or directory (undoable: it goes to a trash)'
            cand mkdir 'Create a directory (and its parents)'
            cand notebook_edit 'Replace, insert or delete a cell of a Jupyter notebook'
            cand stat 'Describe files: type, size, mode, mtime, lines, encoding'
            cand glob 'Find files by glob pattern, newest first'
            cand grep 'Search file contents with a regex (ripgrep''s engine)'
            cand tree 'Show a directory tree'
            cand fetch 'Fetch a web page as clean Markdown (http/https, public hosts only)'
            cand run 'Run a shell command (timeout, clean capped output, background jobs)'
            cand jobs 'List, page, wait for and kill the session''s runs'
            cand todo 'Keep this session''s todo list (TodoWrite-style or step by step)'
            cand session 'Show or reset this session''s state (reads, todos, undo)'
            cand undo 'Undo this session''s most recent change (write, edit, move, delete, mkdir)'
            cand schema 'Print the tool definitions to hand a model (anthropic, openai, openai-responses or mcp format)'
            cand call 'Run one tool call given on stdin: {"name", "input", "id"?}, a tool_use block, or an OpenAI tool call'
            cand batch 'Run many tool calls (a JSON array or JSON Lines on stdin); read-only ones in parallel'
            cand mcp 'Serve every tool over the Model Context Protocol on stdio'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'loopr-tool;read'= {
            cand --path 'The file to read: relative to the root, or absolute inside it. Text, an image (PNG, JPEG, GIF, WebP), a PDF or a Jupyter notebook.'
            cand --paths 'Several files to read in one call (up to 100), instead of `path`; each gets a `==> PATH <==` header, and one that fails shows its error in place.'
            cand --offset 'First line to show, 1-based; negative shows the last lines (-20 is the last 20, as `tail -n 20`). For a notebook it counts cells.'
            cand --limit 'How many lines to show (at most 100000); for a notebook, cells. [default: 2000]'
            cand --line-range '`[first, last]` lines to show, inclusive and 1-based: another way to give offset and limit.'
            cand --pages 'PDF pages to show: "3" or "1-5" (default: the first 20).'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;write'= {
            cand --path 'The file to write: relative to the root, or absolute inside it. Missing parent directories are created. [required]'
            cand --content 'The complete new content, written exactly as given. [required]'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;edit'= {
            cand --path 'The file to edit: relative to the root, or absolute inside it. It must exist and have been read in this session. [required]'
            cand --old-string 'The text to replace, copied from the file as read shows it (without the line-number prefix). It must match exactly one place unless replace_all is set. Not with `edits`.'
            cand --new-string 'The text to put in its place (with start_line/end_line: the lines'' new text; with insert_line: the lines to insert). Not with `edits`.'
            cand --expected-replacements 'Exactly this many occurrences of old_string must be found; all are replaced. Another count is an error that says how many there are.'
            cand --start-line 'Instead of old_string: the first line to replace (1-based, as read numbers lines), with end_line and new_string.'
            cand --end-line 'The last line to replace (inclusive; default start_line).'
            cand --expected 'With start_line: the current text of those lines; if they hold something else, nothing is changed (no_match shows them).'
            cand --insert-line 'Instead of old_string: insert new_string after this line (0: before the first line).'
            cand --edits 'Several edits, all or nothing: string edits applied in order, each to the result of the one before; or line edits, all counting lines of the file as it is before the call. Instead of old_string/new_string.'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --replace-all 'Replace every occurrence of old_string (default false). Not with `edits`: set it per edit.'
            cand --no-replace-all 'Sets replace_all to false'
            cand --dry-run 'Show the diff the edit would make, without writing anything (default false).'
            cand --no-dry-run 'Sets dry_run to false'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;apply_patch'= {
            cand --patch 'The patch: `*** Begin Patch`, then per file `*** Add File: PATH` (+ lines), `*** Update File: PATH` (optional `*** Move to: PATH`, then hunks: `@@ [a line above the change]`, lines starting with '' '' context, ''-'' removed, ''+'' added, optional `*** End of File`) or `*** Delete File: PATH`, and `*** End Patch`. [required]'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;move'= {
            cand --from 'What to move: a file, a symlink (moved as a link) or a directory (moved whole). [required]'
            cand --to 'Where it goes; missing parent directories are created. [required]'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --overwrite 'Replace an existing file at `to` (never a directory); that file must have been read. [default: false]'
            cand --no-overwrite 'Sets overwrite to false'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;delete'= {
            cand --path 'The file, link or directory to delete. [required]'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --recursive 'Delete a directory with everything in it (an empty one needs no flag). [default: false]'
            cand --no-recursive 'Sets recursive to false'
            cand --permanent 'Delete for good instead of into the trash: cannot be undone. Required over 256 MiB. [default: false]'
            cand --no-permanent 'Sets permanent to false'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;mkdir'= {
            cand --path 'The directory to create, with any missing parents. [required]'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;notebook_edit'= {
            cand --path 'The notebook (.ipynb). [required]'
            cand --cell-id 'The cell to edit (its id, or `cell-N` for the N-th cell, 0-based); for insert, the cell to insert after (absent: insert first).'
            cand --new-source 'The cell''s new source: required for replace and insert, not used by delete.'
            cand --cell-type '`code` or `markdown`: needed to insert; for replace, changes the cell''s type.'
            cand --edit-mode '`replace` (default), `insert` or `delete`. [default: replace]'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;stat'= {
            cand --path 'One path to describe.'
            cand --paths 'Several paths (up to 1000) instead of `path`.'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;glob'= {
            cand --pattern 'The glob, relative to `path`: `*` `?` `[...]` `{a,b}` `**`; `*` stops at `/`. A pattern without `/` matches at any depth (`*.rs` finds every Rust file). [required]'
            cand --path 'The directory to search in (default: the root).'
            cand --limit 'How many paths to return (at most 100000); `count` still counts every match. [default: 100]'
            cand --sort '`mtime`: newest modification first (ties by path); `path`: by path. [default: mtime]'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --hidden 'Also match hidden files and directories. [default: false]'
            cand --no-hidden 'Sets hidden to false'
            cand --no-ignore 'Do not honour .gitignore, .ignore and .rgignore files. [default: false]'
            cand --no-no-ignore 'Sets no_ignore to false'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;grep'= {
            cand --pattern 'The regular expression (Rust regex syntax, as ripgrep''s), or a literal with fixed_strings. [required]'
            cand --path 'A file or directory to search (default: the root). A file named here is searched even when ignored or hidden.'
            cand --glob 'Only files matching this glob (ripgrep''s -g): e.g. "*.rs", "*.{ts,tsx}", "!*.min.js"; a string or an array of them.'
            cand --type 'Only files of this ripgrep type: rust, py, js, ts, go, c, cpp, java, md, …'
            cand --output-mode '`files_with_matches`: the paths; `content`: the matching lines as `path:line:text`; `count`: matching lines per file as `path:N`. [default: files_with_matches]'
            cand -A 'Lines of context after each match (content mode).'
            cand -B 'Lines of context before each match (content mode).'
            cand -C 'Lines of context before and after each match (content mode; -A and -B override it).'
            cand --head-limit 'At most this many entries (files, lines or count rows); default 1000 for content, 250 otherwise; 0 for no limit.'
            cand --offset 'Skip this many entries first (for paging). [default: 0]'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand -i 'Case-insensitive matching. [default: false]'
            cand -I 'Sets -i to false'
            cand --no-i 'Sets -i to false'
            cand -n 'Line numbers in content output. [default: true]'
            cand -N 'Sets -n to false'
            cand --no-n 'Sets -n to false'
            cand --multiline 'Let `.` match newlines and patterns span lines. [default: false]'
            cand --no-multiline 'Sets multiline to false'
            cand --fixed-strings 'Take the pattern as a literal string, not a regex. [default: false]'
            cand --no-fixed-strings 'Sets fixed_strings to false'
            cand --hidden 'Also search hidden files and directories. [default: false]'
            cand --no-hidden 'Sets hidden to false'
            cand --no-ignore 'Do not honour .gitignore, .ignore and .rgignore files. [default: false]'
            cand --no-no-ignore 'Sets no_ignore to false'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;tree'= {
            cand --path 'The directory to draw (default: the root).'
            cand --depth 'How many levels below it to show (1 = its children only). [default: 3]'
            cand --limit 'At most this many entries, in drawing order. [default: 1000]'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --hidden 'Also show hidden files and directories. [default: false]'
            cand --no-hidden 'Sets hidden to false'
            cand --no-ignore 'Do not honour .gitignore, .ignore and .rgignore files. [default: false]'
            cand --no-no-ignore 'Sets no_ignore to false'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;fetch'= {
            cand --url 'The page to fetch: an absolute http:// or https:// URL. [required]'
            cand --mode '`markdown` (default: the page''s content as Markdown, chrome dropped), `text` (plain text), `html` (the HTML, after `selector`) or `raw` (the body as received). [default: markdown]'
            cand --selector 'A CSS selector (e.g. `main`, `#content`, `article .docs`): keep only the matching elements before converting. Not with mode `raw`.'
            cand --max-length 'At most this many characters of output (at most 1000000). [default: 50000]'
            cand --start-index 'Start at this character of the content: the continuation line of a cut page names it. [default: 0]'
            cand --timeout-ms 'Time limit for the whole download, redirects included, in milliseconds (at most 120000). [default: 30000]'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;run'= {
            cand --command 'The command, run by `bash -c` (or `sh -c` where there is no bash). [required]'
            cand --timeout-ms 'Milliseconds before the command and everything it started are ended (SIGTERM, then SIGKILL after 2 s). A background job has no time limit unless this is given. [default: 120000]'
            cand --cwd 'Working directory, inside the sandbox. Default: the root.'
            cand --env 'Extra environment variables (they may override the non-interactive defaults).'
            cand --stdin 'Text fed to the command''s stdin. Without it stdin is /dev/null, so nothing waits for input.'
            cand --network '`inherit` (default) or `none`: no network, only a private loopback. Unix sockets that are files (e.g. /var/run/docker.sock) are not network: they stay reachable. [default: inherit]'
            cand --sandbox '`none` (default), `workspace-write` (writes only under the root, a private TMPDIR and /dev/null; reads anywhere) or `read-only` (no writes but /dev/null), enforced by the kernel (Landlock). Where the kernel cannot, the call fails with sandbox_unavailable. [default: none]'
            cand --sandbox-fallback '`none`: where the kernel cannot enforce `sandbox`, run without it (with a warning) instead of failing. Not allowed when loopr-tool was started with a --sandbox floor.'
            cand --description 'A few words on what the command is for, shown in the output and in `jobs`.'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --background 'Start the command detached and return its job id at once; see `jobs`. [default: false]'
            cand --no-background 'Sets background to false'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;jobs'= {
            cand --action '`list` (default), `output`, `kill` or `wait`. [default: list]'
            cand --id 'The job''s id (from run''s `data.id`), for output, kill and wait.'
            cand --offset 'output/wait: where in the raw log to start, in bytes (a cut output and each page name the next offset). Default 0.'
            cand --timeout-ms 'output with block, and wait: how long to wait, in milliseconds. [default: 30000]'
            cand --filter 'output/wait: keep only the lines matching this regular expression.'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --block 'output: wait for the job to end (or `timeout_ms`) before answering. Default false. [default: false]'
            cand --no-block 'Sets block to false'
            cand --since-last 'output/wait without `offset`: start where the previous `since_last` call of this job stopped, so each call shows only what is new. Default false. [default: false]'
            cand --no-since-last 'Sets since_last to false'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;todo'= {
            cand --action '`list` (default), `write` (todos), `add` (content or items), `start` (id), `complete` (id), `update` (id and any of content, status, active_form), `remove` (id), `clear`. [default: list]'
            cand --todos 'write: the whole new list, `[{content, status, active_form?}]`. An item whose content equals an existing item''s keeps that item''s id. Two items `in_progress` is invalid_input, the rule `start` enforces: it is about the list, not about how the list was sent.'
            cand --content 'add: the new item''s text; update: the replacement text.'
            cand --items 'add: several new items at once, in order.'
            cand --id 'start, complete, update, remove: the item''s id (the number shown as `N.`).'
            cand --status 'update: `pending`, `in_progress` or `completed`.'
            cand --active-form 'start, update: the present-continuous form shown while in progress ("Fixing the parser"); an empty string clears it.'
            cand --task 'Seed-style shorthand: the content for add, the id for complete.'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;session'= {
            cand --action '`show` (default), `clear_reads` or `reset`. [default: show]'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;undo'= {
            cand --path 'Undo the most recent change of this file (default: the most recent change of any file).'
            cand --file-path 'file-path'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'loopr-tool;schema'= {
            cand --for 'The shape of the definitions'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --strict 'Schemas valid under OpenAI''s strict function calling and Anthropic''s strict tool use (every field required, optional ones nullable)'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'loopr-tool;call'= {
            cand --result-format 'Print the result block the harness sends back (anthropic: tool_result; openai: a tool message, or function_call_output for a Responses call) instead of the envelope'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'loopr-tool;batch'= {
            cand --result-format 'Print the result block the harness sends back (anthropic: tool_result; openai: a tool message, or function_call_output for a Responses call) instead of the envelope'
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'loopr-tool;mcp'= {
            cand --root 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]'
            cand --session 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]'
            cand --state-dir 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]'
            cand --format 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]'
            cand --structured 'Declare an outputSchema per tool and add structuredContent {output, data} to results (env LOOPR_MCP_STRUCTURED=1)'
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'loopr-tool;help'= {
            cand read 'Read a text file with line numbers (also images, PDFs, notebooks, several files)'
            cand write 'Create or overwrite a file'
            cand edit 'Replace text in a file'
            cand apply_patch 'Apply a multi-file patch (Codex''s apply_patch format)'
            cand move 'Move or rename a file or directory (undoable)'
            cand delete 'Delete a file or directory (undoable: it goes to a trash)'
            cand mkdir 'Create a directory (and its parents)'
            cand notebook_edit 'Replace, insert or delete a cell of a Jupyter notebook'
            cand stat 'Describe files: type, size, mode, mtime, lines, encoding'
            cand glob 'Find files by glob pattern, newest first'
            cand grep 'Search file contents with a regex (ripgrep''s engine)'
            cand tree 'Show a directory tree'
            cand fetch 'Fetch a web page as clean Markdown (http/https, public hosts only)'
            cand run 'Run a shell command (timeout, clean capped output, background jobs)'
            cand jobs 'List, page, wait for and kill the session''s runs'
            cand todo 'Keep this session''s todo list (TodoWrite-style or step by step)'
            cand session 'Show or reset this session''s state (reads, todos, undo)'
            cand undo 'Undo this session''s most recent change (write, edit, move, delete, mkdir)'
            cand schema 'Print the tool definitions to hand a model (anthropic, openai, openai-responses or mcp format)'
            cand call 'Run one tool call given on stdin: {"name", "input", "id"?}, a tool_use block, or an OpenAI tool call'
            cand batch 'Run many tool calls (a JSON array or JSON Lines on stdin); read-only ones in parallel'
            cand mcp 'Serve every tool over the Model Context Protocol on stdio'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'loopr-tool;help;read'= {
        }
        &'loopr-tool;help;write'= {
        }
        &'loopr-tool;help;edit'= {
        }
        &'loopr-tool;help;apply_patch'= {
        }
        &'loopr-tool;help;move'= {
        }
        &'loopr-tool;help;delete'= {
        }
        &'loopr-tool;help;mkdir'= {
        }
        &'loopr-tool;help;notebook_edit'= {
        }
        &'loopr-tool;help;stat'= {
        }
        &'loopr-tool;help;glob'= {
        }
        &'loopr-tool;help;grep'= {
        }
        &'loopr-tool;help;tree'= {
        }
        &'loopr-tool;help;fetch'= {
        }
        &'loopr-tool;help;run'= {
        }
        &'loopr-tool;help;jobs'= {
        }
        &'loopr-tool;help;todo'= {
        }
        &'loopr-tool;help;session'= {
        }
        &'loopr-tool;help;undo'= {
        }
        &'loopr-tool;help;schema'= {
        }
        &'loopr-tool;help;call'= {
        }
        &'loopr-tool;help;batch'= {
        }
        &'loopr-tool;help;mcp'= {
        }
        &'loopr-tool;help;help'= {
        }
    ]
    $completions[$command]
}
