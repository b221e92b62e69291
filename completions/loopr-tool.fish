# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_loopr_tool_global_optspecs
    string join \n root= session= state-dir= no-sandbox no-read-check allow-private allow-dangerous sandbox= format= pretty config= profile= hub= harness client= read-only permission-mode= approve= h/help V/version
end

function __fish_loopr_tool_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_loopr_tool_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_loopr_tool_using_subcommand
    set -l cmd (__fish_loopr_tool_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l sandbox -d 'The weakest sandbox run may use, a floor for its `sandbox` field; give it before the tool\'s name [env: LOOPR_RUN_SANDBOX] [default: none]' -r -f -a "none\t''
workspace-write\t''
read-only\t''"
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -s V -l version -d 'Print version'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "read" -d 'Read a text file with line numbers (also images, PDFs, notebooks, several files)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "write" -d 'Create or overwrite a file'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "edit" -d 'Replace text in a file'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "apply_patch" -d 'Apply a multi-file patch (Codex\'s apply_patch format)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "move" -d 'Move or rename a file or directory (undoable)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "delete" -d 'Delete a file or directory (undoable: it goes to a trash)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "mkdir" -d 'Create a directory (and its parents)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "notebook_edit" -d 'Replace, insert or delete a cell of a Jupyter notebook'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "stat" -d 'Describe files: type, size, mode, mtime, lines, encoding'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "glob" -d 'Find files by glob pattern, newest first'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "grep" -d 'Search file contents with a regex (ripgrep\'s engine)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "tree" -d 'Show a directory tree'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "symbols" -d 'Outline a file, or find where a name is defined or used (syntax trees, no server)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "map" -d 'The repository\'s most important definitions in a token budget'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "rewrite" -d 'Replace every match of a structural (syntax-tree) pattern across files'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "fetch" -d 'Fetch a web page as clean Markdown (http/https, public hosts only)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "search" -d 'Search the web (DuckDuckGo by default; Brave, Tavily or SearXNG when configured)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "run" -d 'Run a shell command (timeout, clean capped output, background jobs)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "jobs" -d 'List, page, wait for and kill the session\'s runs'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "todo" -d 'Keep this session\'s todo list (TodoWrite-style or step by step)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "session" -d 'Show or reset this session\'s state (reads, todos, undo, completion)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "undo" -d 'Undo this session\'s most recent change (write, edit, move, delete, mkdir)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "complete_task" -d 'Say this loop\'s task is done, with a summary'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "share" -d 'Send data to other loops\' inboxes'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "query" -d 'Ask another loop a question and wait for its answer'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "inbox" -d 'Read what other loops shared or asked; answer their questions'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "create_plan" -d 'Hand over a plan: its specs and their dependencies'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "create_spec" -d 'Hand over a spec: 3 to 7 phases'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "create_phase" -d 'Hand over a phase: its tasks and validation command'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "artifact" -d 'Read a plan, spec or phase handed over by a loop'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "ask_user" -d 'Ask the person running this loop a question and wait for the answer'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "permissions" -d 'A harness\'s call: grant, list or revoke the session\'s permission rules'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "schema" -d 'Print the tool definitions to hand a model (anthropic, openai, openai-responses or mcp format)'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "call" -d 'Run one tool call given on stdin: {"name", "input", "id"?}, a tool_use block, or an OpenAI tool call'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "batch" -d 'Run many tool calls (a JSON array or JSON Lines on stdin); read-only ones in parallel'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "mcp" -d 'Serve every tool over the Model Context Protocol on stdio, or over Streamable HTTP with --http'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "catalog" -d 'Print the effective catalog as TOML (defaults merged, profile applied), or check a catalog file'
complete -c loopr-tool -n "__fish_loopr_tool_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l path -d 'The file to read: relative to the root, or absolute inside it. Text, an image (PNG, JPEG, GIF, WebP), a PDF or a Jupyter notebook.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l paths -d 'Several files to read in one call (up to 100), instead of `path`; each gets a `==> PATH <==` header, and one that fails shows its error in place.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l offset -d 'First line to show, 1-based; negative shows the last lines (-20 is the last 20, as `tail -n 20`). For a notebook it counts cells.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l limit -d 'How many lines to show (at most 100000); for a notebook, cells. [default: 2000]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l line-range -d '`[first, last]` lines to show, inclusive and 1-based: another way to give offset and limit.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l pages -d 'PDF pages to show: "3" or "1-5" (default: the first 20).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l around-line -d 'Indentation mode, instead of a range: the block of code around this line (1-based), found by indentation (the function, class or block holding it, with the comments just above it). Text files only.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l indentation -d 'How `around_line` chooses the block; every member is optional.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand read" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l path -d 'The file to write: relative to the root, or absolute inside it. Missing parent directories are created. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l content -d 'The complete new content, written exactly as given. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand write" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l path -d 'The file to edit: relative to the root, or absolute inside it. It must exist and have been read in this session. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l old-string -d 'The text to replace, copied from the file as read shows it (without the line-number prefix). It must match exactly one place unless replace_all is set. Not with `edits`.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l new-string -d 'The text to put in its place (with start_line/end_line: the lines\' new text; with insert_line: the lines to insert). Not with `edits`.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l expected-replacements -d 'Exactly this many occurrences of old_string must be found; all are replaced. Another count is an error that says how many there are.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l start-line -d 'Instead of old_string: the first line to replace (1-based, as read numbers lines), with end_line and new_string.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l end-line -d 'The last line to replace (inclusive; default start_line).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l expected -d 'With start_line: the current text of those lines; if they hold something else, nothing is changed (no_match shows them).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l insert-line -d 'Instead of old_string: insert new_string after this line (0: before the first line).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l edits -d 'Several edits, all or nothing: string edits applied in order, each to the result of the one before; or line edits, all counting lines of the file as it is before the call. Instead of old_string/new_string.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l symbol -d 'Instead of old_string: the definition to change, named as `symbols` prints it (`Type::method`, `Class.method`, or a bare name); new_string replaces its `part`.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l part -d 'With symbol: `body` (default; inside the braces or Python\'s indented suite, re-indented) or `whole` (the definition with its decorators and doc comments).' -r -f -a "body\t''
whole\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l insert-before-symbol -d 'Instead of symbol: insert new_string as whole lines before this definition (its decorators and doc comments included).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l insert-after-symbol -d 'Instead of symbol: insert new_string as whole lines after this definition.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l replace-all -d 'Replace every occurrence of old_string (default false). Not with `edits`: set it per edit.'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l no-replace-all -d 'Sets replace_all to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l dry-run -d 'Show the diff the edit would make, without writing anything (default false).'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l no-dry-run -d 'Sets dry_run to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l patch -d 'The patch: `*** Begin Patch`, then per file `*** Add File: PATH` (+ lines), `*** Update File: PATH` (optional `*** Move to: PATH`, then hunks: `@@ [a line above the change]`, lines starting with \' \' context, \'-\' removed, \'+\' added, optional `*** End of File`) or `*** Delete File: PATH`, and `*** End Patch`. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand apply_patch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l from -d 'What to move: a file, a symlink (moved as a link) or a directory (moved whole). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l to -d 'Where it goes; missing parent directories are created. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l overwrite -d 'Replace an existing file at `to` (never a directory); that file must have been read. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l no-overwrite -d 'Sets overwrite to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand move" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l path -d 'The file, link or directory to delete. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l recursive -d 'Delete a directory with everything in it (an empty one needs no flag). [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l no-recursive -d 'Sets recursive to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l permanent -d 'Delete for good instead of into the trash: cannot be undone. Required over 256 MiB. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l no-permanent -d 'Sets permanent to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l path -d 'The directory to create, with any missing parents. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mkdir" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l path -d 'The notebook (.ipynb). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l cell-id -d 'The cell to edit (its id, or `cell-N` for the N-th cell, 0-based); for insert, the cell to insert after (absent: insert first).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l new-source -d 'The cell\'s new source: required for replace and insert, not used by delete.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l cell-type -d '`code` or `markdown`: needed to insert; for replace, changes the cell\'s type.' -r -f -a "code\t''
markdown\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l edit-mode -d '`replace` (default), `insert` or `delete`. [default: replace]' -r -f -a "replace\t''
insert\t''
delete\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand notebook_edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l path -d 'One path to describe.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l paths -d 'Several paths (up to 1000) instead of `path`.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand stat" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l pattern -d 'The glob, relative to `path`: `*` `?` `[...]` `{a,b}` `**`; `*` stops at `/`. A pattern without `/` matches at any depth (`*.rs` finds every Rust file). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l path -d 'The directory to search in (default: the root).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l limit -d 'How many paths to return (at most 100000); `count` still counts every match. [default: 100]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l sort -d '`mtime`: newest modification first (ties by path); `path`: by path; `oldest`: oldest modification first (ripgrep\'s --sort=modified, Claude Code\'s Glob). [default: mtime]' -r -f -a "mtime\t''
path\t''
oldest\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l case-sensitive -d 'Match case-sensitively (Gemini CLI\'s field); false matches `*.RS` to `a.rs`. [default: true]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l no-case-sensitive -d 'Sets case_sensitive to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l hidden -d 'Also match hidden files and directories. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l no-hidden -d 'Sets hidden to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l no-ignore -d 'Do not honour .gitignore, .ignore and .rgignore files. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l no-no-ignore -d 'Sets no_ignore to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l respect-git-ignore -d 'Honour .gitignore, .ignore and .rgignore (Gemini CLI\'s field: the opposite of `no_ignore`). [default: true]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l no-respect-git-ignore -d 'Sets respect_git_ignore to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand glob" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l pattern -d 'The regular expression (Rust regex syntax, as ripgrep\'s), or a literal with fixed_strings. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l path -d 'A file or directory to search (default: the root). A file named here is searched even when ignored or hidden.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l glob -d 'Only files matching this glob (ripgrep\'s -g): e.g. "*.rs", "*.{ts,tsx}", "!*.min.js"; a string or an array of them.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l type -d 'Only files of this ripgrep type: rust, py, js, ts, go, c, cpp, java, md, …' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l output-mode -d '`files_with_matches`: the paths; `content`: the matching lines as `path:line:text`; `count`: matching lines per file as `path:N`. [default: files_with_matches]' -r -f -a "files_with_matches\t''
content\t''
count\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -s A -d 'Lines of context after each match (content mode).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -s B -d 'Lines of context before each match (content mode).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -s C -d 'Lines of context before and after each match (content mode; -A and -B override it).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l head-limit -d 'At most this many entries (files, lines or count rows); default 1000 for content, 250 otherwise; 0 for no limit.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l offset -d 'Skip this many entries first (for paging). [default: 0]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l language -d 'With structural: the language of the pattern and of the files searched (rust, python, javascript, typescript, tsx, go, java, c, cpp); default each file\'s, by extension.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -s i -d 'Case-insensitive matching. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -s I -l no-i -d 'Sets -i to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -s n -d 'Line numbers in content output. [default: true]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -s N -l no-n -d 'Sets -n to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l multiline -d 'Let `.` match newlines and patterns span lines. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l no-multiline -d 'Sets multiline to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l fixed-strings -d 'Take the pattern as a literal string, not a regex. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l no-fixed-strings -d 'Sets fixed_strings to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l hidden -d 'Also search hidden files and directories. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l no-hidden -d 'Sets hidden to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l no-ignore -d 'Do not honour .gitignore, .ignore and .rgignore files. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l no-no-ignore -d 'Sets no_ignore to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l structural -d '`pattern` is code with metavariables (`$X` one node, `$$$X` any number; ast-grep\'s syntax), matched against syntax trees instead of text. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l no-structural -d 'Sets structural to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand grep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l path -d 'The directory to draw (default: the root).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l depth -d 'How many levels below it to show (1 = its children only). [default: 3]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l limit -d 'At most this many entries, in drawing order. [default: 1000]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l exclude -d 'Names to leave out, as globs on an entry\'s name (e.g. ["node_modules", "*.log"]); a directory left out is not entered.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l hidden -d 'Also show hidden files and directories. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l no-hidden -d 'Sets hidden to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l no-ignore -d 'Do not honour .gitignore, .ignore and .rgignore files. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l no-no-ignore -d 'Sets no_ignore to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand tree" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l path -d 'A file (or directory) to outline; for definition/references, the file the question is asked from (its definitions rank first; it does not limit the search: `scope` does).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l paths -d 'Several paths (up to 100) instead of `path`.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l action -d '`outline` (default): each definition with its lines and signature; `definition`: where `name` is defined; `references`: where `name` is used. [default: outline]' -r -f -a "outline\t''
definition\t''
references\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l name -d 'For definition/references: an identifier, or a qualified `Type::method` / `Class.method`.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l scope -d 'For definition/references: a directory or a glob ("src/**/*.py") to search; default the root.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l kinds -d 'Only these kinds of definition.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l depth -d 'Outline: nesting levels shown (1 = top-level definitions only); default all.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l limit -d 'The most definitions or references shown (default 100). [default: 100]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand symbols" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l path -d 'The directory to map (default: the root).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l tokens -d 'The budget in tokens (counted as characters / 4); default 1024, at most 16384. [default: 1024]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l focus -d 'Files or identifiers the task is about: the map leans towards them (focus files are always shown).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand map" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l pattern -d 'Code with metavariables to find: `$X` one node, `$$$X` any number (ast-grep\'s syntax). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l rewrite -d 'The replacement, using the pattern\'s metavariables (`$X`, `$$$X`). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l path -d 'A file or directory to rewrite in (default: the root).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l glob -d 'Only files matching this glob ("src/**/*.ts"), or an array of globs.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l language -d 'The language of the pattern and the files (rust, python, javascript, typescript, tsx, go, java, c, cpp); default each file\'s own, by extension.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l dry-run -d 'Show what would change without writing. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l no-dry-run -d 'Sets dry_run to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand rewrite" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l url -d 'The page to fetch: an absolute http:// or https:// URL. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l mode -d '`markdown` (default: the page\'s content as Markdown, chrome dropped), `text` (plain text), `html` (the HTML, after `selector`) or `raw` (the body as received). [default: markdown]' -r -f -a "markdown\t''
text\t''
html\t''
raw\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l selector -d 'A CSS selector (e.g. `main`, `#content`, `article .docs`): keep only the matching elements before converting. Not with mode `raw`.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l max-length -d 'At most this many characters of output (at most 1000000). [default: 50000]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l start-index -d 'Start at this character of the content: the continuation line of a cut page names it. [default: 0]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l timeout-ms -d 'Time limit for the whole download, redirects included, in milliseconds (at most 120000). [default: 30000]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand fetch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l query -d 'What to search for, as you would type it into a search engine. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l max-results -d 'How many results to return (1 to 20). [default: 5]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l allowed-domains -d 'Keep only results from these domains (a subdomain counts: `docs.rs` keeps `www.docs.rs`).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l blocked-domains -d 'Drop results from these domains (and their subdomains).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l timeout-ms -d 'Time limit for the provider\'s answer, in milliseconds (at most 120000). [default: 15000]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l command -d 'The command, run by `bash -c` (or `sh -c` where there is no bash). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l timeout-ms -d 'Milliseconds before the command and everything it started are ended (SIGTERM, then SIGKILL after 2 s). A background job has no time limit unless this is given. At most 600000, or 3600000 in a catalog\'s heavy lane. [default: 120000]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l cwd -d 'Working directory, inside the sandbox. Default: the root.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l env -d 'Extra environment variables (they may override the non-interactive defaults).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l stdin -d 'Text fed to the command\'s stdin. Without it stdin is /dev/null, so nothing waits for input.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l rows -d 'With `tty`: the terminal\'s rows (default 24). [default: 24]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l cols -d 'With `tty`: the terminal\'s columns (default 80). [default: 80]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l network -d '`inherit` (default) or `none`: no network, only a private loopback. Unix sockets that are files (e.g. /var/run/docker.sock) are not network: they stay reachable. [default: inherit]' -r -f -a "inherit\t''
none\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l sandbox -d '`none` (default), `workspace-write` (writes only under the root, a private TMPDIR and /dev/null; reads anywhere) or `read-only` (no writes but /dev/null), enforced by the kernel (Landlock). Where the kernel cannot, the call fails with sandbox_unavailable. [default: none]' -r -f -a "none\t''
workspace-write\t''
read-only\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l sandbox-fallback -d '`none`: where the kernel cannot enforce `sandbox`, run without it (with a warning) instead of failing. Not allowed when loopr-tool was started with a --sandbox floor.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l description -d 'A few words on what the command is for, shown in the output and in `jobs`.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l background -d 'Start the command detached and return its job id at once; see `jobs`. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l no-background -d 'Sets background to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l interactive -d 'With `background: true` only: keep the job\'s stdin open, so `jobs` action `write` can type into it later (a REPL, a prompt). `stdin` is still fed first. No terminal: the program sees a pipe. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l no-interactive -d 'Sets interactive to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l tty -d 'With `background` and `interactive` only: run the command on a terminal (a pty held by the job\'s supervisor), for REPLs, password prompts, pagers and full-screen programs. TERM is xterm-256color unless `env` names one. `jobs` then reports `waiting_input` or `input_required` (a password or y/N prompt) from the kernel, and action `screen` shows the screen. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l no-tty -d 'Sets tty to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l action -d '`list` (default), `output`, `kill`, `wait`, `write` or `screen`. [default: list]' -r -f -a "list\t''
output\t''
kill\t''
wait\t''
write\t''
screen\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l id -d 'The job\'s id (from run\'s `data.id`), for output, kill, wait, write and screen.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l chars -d 'write: the text to type into the job\'s stdin, newlines included (`"yes\\n"`); `""` only looks for new output. The job must have been started with `interactive: true`. On a terminal (`tty`), keys too: `\\u0003` Ctrl-C, `\\u0004` Ctrl-D, `\\u001b[A` up.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l offset -d 'output/wait: where in the raw log to start, in bytes (a cut output and each page name the next offset). Default 0.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l timeout-ms -d 'output with block, and wait: how long to wait, in milliseconds (default 30000). write: how long to wait for the job to answer (default 2000); the answer comes as soon as the program waits for input again, or has ended. [default: 30000]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l filter -d 'output/wait: keep only the lines matching this regular expression.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l until -d 'wait: also return as soon as this regular expression matches the job\'s cleaned output (from `offset`), with `data.match`; if the time runs out first, `data.matched` is false.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l block -d 'output: wait for the job to end (or `timeout_ms`) before answering. Default false. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l no-block -d 'Sets block to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l since-last -d 'output/wait without `offset`: start where the previous `since_last` call of this job stopped, so each call shows only what is new. Default false. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l no-since-last -d 'Sets since_last to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand jobs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l action -d '`list` (default), `write` (todos), `add` (content or items), `start` (id), `complete` (id), `update` (id and any of content, status, active_form), `remove` (id), `clear`. [default: list]' -r -f -a "list\t''
write\t''
add\t''
start\t''
complete\t''
update\t''
remove\t''
clear\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l todos -d 'write: the whole new list, `[{content, status, active_form?}]`. An item whose content equals an existing item\'s keeps that item\'s id. Two items `in_progress` is invalid_input, the rule `start` enforces: it is about the list, not about how the list was sent.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l content -d 'add: the new item\'s text; update: the replacement text.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l items -d 'add: several new items at once, in order.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l id -d 'start, complete, update, remove: the item\'s id (the number shown as `N.`).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l status -d 'update: `pending`, `in_progress` or `completed`.' -r -f -a "pending\t''
in_progress\t''
completed\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l active-form -d 'start, update: the present-continuous form shown while in progress ("Fixing the parser"); an empty string clears it.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l task -d 'Seed-style shorthand: the content for add, the id for complete.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand todo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l action -d '`show` (default), `clear_reads`, `reset` or `reopen`. [default: show]' -r -f -a "show\t''
clear_reads\t''
reset\t''
reopen\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand session" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l path -d 'Undo the most recent change of this file (default: the most recent change of any file).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l file-path -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand undo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l summary -d 'What was done, for whoever reads the loop\'s result. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand complete_task" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l to -d 'The session ids of the loops to tell (an unknown session is created, so a loop can be told things before it starts). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l data-type -d 'What kind of data this is, for the reader (`review`, `api-change`, `test-results`). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l data -d 'The data: any JSON value (a string holding JSON text is taken as that JSON). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand share" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l to -d 'The session id of the loop to ask. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l question -d 'The question, complete enough to answer without context. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l timeout-ms -d 'How long to wait for the reply, in milliseconds. [default: 30000]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand query" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l action -d '`list` (default: unread messages), `all` (every kept message), `reply` (id and text), `wait` (until a message comes, then as `list`). [default: list]' -r -f -a "list\t''
all\t''
reply\t''
wait\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l id -d 'reply: the id of the query to answer.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l text -d 'reply: the answer.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l selected -d 'reply to a question with options (ask_user): the option(s) chosen.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l offset -d 'all: how many kept messages to skip (a call shows at most 1 MiB of messages; the rest with offset).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l timeout-ms -d 'wait: how long to wait, in milliseconds (default 30000, max 600000).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l sessions -d 'wait, a harness\'s call (--harness): several inboxes; the first with an unread message answers.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand inbox" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l name -d 'The plan\'s slug; default: the title as a slug (lowercase, other characters as `-`).' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l title -d ' [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l overview -d 'What the plan achieves and how, in a few sentences. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l specs -d 'The specs, in order: {name, title, description, dependencies?}. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l replace -d 'Overwrite an existing plan of this name (otherwise that is invalid_input). [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l no-replace -d 'Sets replace to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l name -d 'The spec\'s slug (as in the plan\'s `specs[].name`). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l title -d ' [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l overview -d ' [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l phases -d '3 to 7 phases, in order: {name, title, description, validation?}. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l replace -d 'Overwrite an existing spec of this name (otherwise that is invalid_input). [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l no-replace -d 'Sets replace to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_spec" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l name -d 'The phase\'s slug (as in the spec\'s `phases[].name`). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l title -d ' [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l objective -d ' [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l tasks -d 'The tasks, in order: {description, file?, action?}. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l validation-command -d 'The shell command that tells whether the phase is done (`cargo test -p parser`). [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l replace -d 'Overwrite an existing phase of this name (otherwise that is invalid_input). [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l no-replace -d 'Sets replace to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand create_phase" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l kind -d '`plan`, `spec` or `phase`. [required]' -r -f -a "plan\t''
spec\t''
phase\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l name -d 'The artifact\'s name; without it, the names of every artifact of that kind are listed.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand artifact" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l question -d 'The question for the person, complete enough to answer without context. [required]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l options -d 'Choices to pick from (2 to 6); the person may still answer in words.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l timeout-ms -d 'How long to wait for the answer, in milliseconds. [default: 600000]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l multi-select -d 'Whether several options may be picked. [default: false]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l no-multi-select -d 'Sets multi_select to false'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand ask_user" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l action -d '`list` (default), `grant` or `revoke`. [default: list]' -r -f -a "list\t''
grant\t''
revoke\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l rule -d 'grant: the allow rule (`Bash(npm test:*)`, `Edit(src/**)`); revoke: a granted rule or a pending approval\'s id.' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand permissions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l for -d 'The shape of the definitions' -r -f -a "anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l strict -d 'Schemas valid under OpenAI\'s strict function calling and Anthropic\'s strict tool use (every field required, optional ones nullable)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand schema" -s h -l help -d 'Print help'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l result-format -d 'Print the result block the harness sends back (anthropic: tool_result; openai: a tool message, or function_call_output for a Responses call) instead of the envelope' -r -f -a "envelope\t''
anthropic\t''
openai\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand call" -s h -l help -d 'Print help'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l result-format -d 'Print the result block the harness sends back (anthropic: tool_result; openai: a tool message, or function_call_output for a Responses call) instead of the envelope' -r -f -a "envelope\t''
anthropic\t''
openai\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand batch" -s h -l help -d 'Print help'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l http -d 'Serve over MCP\'s Streamable HTTP on ADDR:PORT, endpoint /mcp (port 0: any free port, printed on stderr)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l token-env -d 'The environment variable holding the bearer token clients must send (required unless --no-auth; removed from the environment of every command run starts)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l session-idle-s -d 'A session idle this long expires (HTTP)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l allow-host -d 'Also accept this Host name (besides loopback names and IP addresses), e.g. a reverse proxy\'s' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l tls-cert -d 'Serve HTTPS with this PEM certificate chain (with --tls-key)' -r -F
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l tls-key -d 'The PEM private key of --tls-cert' -r -F
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l structured -d 'Declare an outputSchema per tool and add structuredContent {output, data} to results (env LOOPR_MCP_STRUCTURED=1)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l no-auth -d 'Serve without a token: accepted only on a loopback address'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand mcp" -s h -l help -d 'Print help'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l check -d 'Check FILE and list every problem as FILE:LINE:COLUMN: message (exit 2 when there is one)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l root -d 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l session -d 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l state-dir -d 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l format -d 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]' -r -f -a "json\t''
text\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l config -d 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l profile -d 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l hub -d 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog\'s [loops] hub, else the git repository, else the root]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l client -d 'The agent that passes results on to its model (claude-code, codex, gemini-cli): results are sized so it never cuts one [env: LOOPR_CLIENT] [default: mcp\'s clientInfo]' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l permission-mode -d 'default, read-only, accept-edits, bypass or ask (Claude Code\'s plan, acceptEdits, bypassPermissions too); over the profile\'s mode [env: LOOPR_PERMISSION_MODE]' -r -f -a "default\t''
read-only\t''
accept-edits\t''
bypass\t''
ask\t''
plan\t''
acceptEdits\t''
bypassPermissions\t''"
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l approve -d 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)' -r
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l no-sandbox -d 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l no-read-check -d 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l allow-private -d 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l allow-dangerous -d 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l pretty -d 'Indent the JSON'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l harness -d 'A harness\'s own control call: the catalog\'s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -l read-only -d 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand catalog" -s h -l help -d 'Print help'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "read" -d 'Read a text file with line numbers (also images, PDFs, notebooks, several files)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "write" -d 'Create or overwrite a file'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "edit" -d 'Replace text in a file'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "apply_patch" -d 'Apply a multi-file patch (Codex\'s apply_patch format)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "move" -d 'Move or rename a file or directory (undoable)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "delete" -d 'Delete a file or directory (undoable: it goes to a trash)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "mkdir" -d 'Create a directory (and its parents)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "notebook_edit" -d 'Replace, insert or delete a cell of a Jupyter notebook'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "stat" -d 'Describe files: type, size, mode, mtime, lines, encoding'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "glob" -d 'Find files by glob pattern, newest first'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "grep" -d 'Search file contents with a regex (ripgrep\'s engine)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "tree" -d 'Show a directory tree'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "symbols" -d 'Outline a file, or find where a name is defined or used (syntax trees, no server)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "map" -d 'The repository\'s most important definitions in a token budget'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "rewrite" -d 'Replace every match of a structural (syntax-tree) pattern across files'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "fetch" -d 'Fetch a web page as clean Markdown (http/https, public hosts only)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "search" -d 'Search the web (DuckDuckGo by default; Brave, Tavily or SearXNG when configured)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "run" -d 'Run a shell command (timeout, clean capped output, background jobs)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "jobs" -d 'List, page, wait for and kill the session\'s runs'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "todo" -d 'Keep this session\'s todo list (TodoWrite-style or step by step)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "session" -d 'Show or reset this session\'s state (reads, todos, undo, completion)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "undo" -d 'Undo this session\'s most recent change (write, edit, move, delete, mkdir)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "complete_task" -d 'Say this loop\'s task is done, with a summary'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "share" -d 'Send data to other loops\' inboxes'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "query" -d 'Ask another loop a question and wait for its answer'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "inbox" -d 'Read what other loops shared or asked; answer their questions'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "create_plan" -d 'Hand over a plan: its specs and their dependencies'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "create_spec" -d 'Hand over a spec: 3 to 7 phases'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "create_phase" -d 'Hand over a phase: its tasks and validation command'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "artifact" -d 'Read a plan, spec or phase handed over by a loop'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "ask_user" -d 'Ask the person running this loop a question and wait for the answer'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "permissions" -d 'A harness\'s call: grant, list or revoke the session\'s permission rules'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "schema" -d 'Print the tool definitions to hand a model (anthropic, openai, openai-responses or mcp format)'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "call" -d 'Run one tool call given on stdin: {"name", "input", "id"?}, a tool_use block, or an OpenAI tool call'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "batch" -d 'Run many tool calls (a JSON array or JSON Lines on stdin); read-only ones in parallel'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "mcp" -d 'Serve every tool over the Model Context Protocol on stdio, or over Streamable HTTP with --http'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "catalog" -d 'Print the effective catalog as TOML (defaults merged, profile applied), or check a catalog file'
complete -c loopr-tool -n "__fish_loopr_tool_using_subcommand help; and not __fish_seen_subcommand_from read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
