
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
            cand read 'Read a text file with line numbers'
            cand write 'Create or overwrite a file'
            cand edit 'Replace text in a file'
            cand fetch 'Fetch a web page as clean Markdown (http/https, public hosts only)'
            cand session 'Show or reset this session''s state (reads, todos, undo)'
            cand todo 'Keep this session''s todo list (TodoWrite-style or step by step)'
            cand undo 'Undo this session''s most recent write or edit'
            cand schema 'Print the tool definitions to hand a model (anthropic, openai or mcp format)'
            cand call 'Run one tool call given as {"name", "input", "id"?} on stdin'
            cand batch 'Run many tool calls (a JSON array or JSON Lines on stdin); read-only ones in parallel'
            cand mcp 'Serve every tool over the Model Context Protocol on stdio'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'loopr-tool;read'= {
            cand --path 'The file to read: relative to the root, or absolute inside it. [required]'
            cand --offset 'First line to show, 1-based. [default: 1]'
            cand --limit 'How many lines to show (at most 100000). [default: 2000]'
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
            cand --new-string 'The text to put in its place. Not with `edits`.'
            cand --edits 'Several edits, applied in order, each to the result of the one before; if any fails, none is applied. Instead of old_string/new_string.'
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
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'loopr-tool;call'= {
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
            cand --no-sandbox 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
            cand --no-read-check 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
            cand --allow-private 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
            cand --allow-dangerous 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
            cand --pretty 'Indent the JSON'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'loopr-tool;help'= {
            cand read 'Read a text file with line numbers'
            cand write 'Create or overwrite a file'
            cand edit 'Replace text in a file'
            cand fetch 'Fetch a web page as clean Markdown (http/https, public hosts only)'
            cand session 'Show or reset this session''s state (reads, todos, undo)'
            cand todo 'Keep this session''s todo list (TodoWrite-style or step by step)'
            cand undo 'Undo this session''s most recent write or edit'
            cand schema 'Print the tool definitions to hand a model (anthropic, openai or mcp format)'
            cand call 'Run one tool call given as {"name", "input", "id"?} on stdin'
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
        &'loopr-tool;help;fetch'= {
        }
        &'loopr-tool;help;session'= {
        }
        &'loopr-tool;help;todo'= {
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
