
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'loopr-tool' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'loopr-tool'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'loopr-tool' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'The weakest sandbox run may use, a floor for its `sandbox` field; give it before the tool''s name [env: LOOPR_RUN_SANDBOX] [default: none]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Read a text file with line numbers (also images, PDFs, notebooks, several files)')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Create or overwrite a file')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace text in a file')
            [CompletionResult]::new('apply_patch', 'apply_patch', [CompletionResultType]::ParameterValue, 'Apply a multi-file patch (Codex''s apply_patch format)')
            [CompletionResult]::new('move', 'move', [CompletionResultType]::ParameterValue, 'Move or rename a file or directory (undoable)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a file or directory (undoable: it goes to a trash)')
            [CompletionResult]::new('mkdir', 'mkdir', [CompletionResultType]::ParameterValue, 'Create a directory (and its parents)')
            [CompletionResult]::new('notebook_edit', 'notebook_edit', [CompletionResultType]::ParameterValue, 'Replace, insert or delete a cell of a Jupyter notebook')
            [CompletionResult]::new('stat', 'stat', [CompletionResultType]::ParameterValue, 'Describe files: type, size, mode, mtime, lines, encoding')
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'Find files by glob pattern, newest first')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search file contents with a regex (ripgrep''s engine)')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Show a directory tree')
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Fetch a web page as clean Markdown (http/https, public hosts only)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the web (DuckDuckGo by default; Brave, Tavily or SearXNG when configured)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run a shell command (timeout, clean capped output, background jobs)')
            [CompletionResult]::new('jobs', 'jobs', [CompletionResultType]::ParameterValue, 'List, page, wait for and kill the session''s runs')
            [CompletionResult]::new('todo', 'todo', [CompletionResultType]::ParameterValue, 'Keep this session''s todo list (TodoWrite-style or step by step)')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Show or reset this session''s state (reads, todos, undo, completion)')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Undo this session''s most recent change (write, edit, move, delete, mkdir)')
            [CompletionResult]::new('complete_task', 'complete_task', [CompletionResultType]::ParameterValue, 'Say this loop''s task is done, with a summary')
            [CompletionResult]::new('share', 'share', [CompletionResultType]::ParameterValue, 'Send data to other loops'' inboxes')
            [CompletionResult]::new('query', 'query', [CompletionResultType]::ParameterValue, 'Ask another loop a question and wait for its answer')
            [CompletionResult]::new('inbox', 'inbox', [CompletionResultType]::ParameterValue, 'Read what other loops shared or asked; answer their questions')
            [CompletionResult]::new('create_plan', 'create_plan', [CompletionResultType]::ParameterValue, 'Hand over a plan: its specs and their dependencies')
            [CompletionResult]::new('create_spec', 'create_spec', [CompletionResultType]::ParameterValue, 'Hand over a spec: 3 to 7 phases')
            [CompletionResult]::new('create_phase', 'create_phase', [CompletionResultType]::ParameterValue, 'Hand over a phase: its tasks and validation command')
            [CompletionResult]::new('artifact', 'artifact', [CompletionResultType]::ParameterValue, 'Read a plan, spec or phase handed over by a loop')
            [CompletionResult]::new('ask_user', 'ask_user', [CompletionResultType]::ParameterValue, 'Ask the person running this loop a question and wait for the answer')
            [CompletionResult]::new('permissions', 'permissions', [CompletionResultType]::ParameterValue, 'A harness''s call: grant, list or revoke the session''s permission rules')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the tool definitions to hand a model (anthropic, openai, openai-responses or mcp format)')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run one tool call given on stdin: {"name", "input", "id"?}, a tool_use block, or an OpenAI tool call')
            [CompletionResult]::new('batch', 'batch', [CompletionResultType]::ParameterValue, 'Run many tool calls (a JSON array or JSON Lines on stdin); read-only ones in parallel')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve every tool over the Model Context Protocol on stdio')
            [CompletionResult]::new('catalog', 'catalog', [CompletionResultType]::ParameterValue, 'Print the effective catalog as TOML (defaults merged, profile applied), or check a catalog file')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'loopr-tool;read' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The file to read: relative to the root, or absolute inside it. Text, an image (PNG, JPEG, GIF, WebP), a PDF or a Jupyter notebook.')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Several files to read in one call (up to 100), instead of `path`; each gets a `==> PATH <==` header, and one that fails shows its error in place.')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'First line to show, 1-based; negative shows the last lines (-20 is the last 20, as `tail -n 20`). For a notebook it counts cells.')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'How many lines to show (at most 100000); for a notebook, cells. [default: 2000]')
            [CompletionResult]::new('--line-range', '--line-range', [CompletionResultType]::ParameterName, '`[first, last]` lines to show, inclusive and 1-based: another way to give offset and limit.')
            [CompletionResult]::new('--pages', '--pages', [CompletionResultType]::ParameterName, 'PDF pages to show: "3" or "1-5" (default: the first 20).')
            [CompletionResult]::new('--around-line', '--around-line', [CompletionResultType]::ParameterName, 'Indentation mode, instead of a range: the block of code around this line (1-based), found by indentation (the function, class or block holding it, with the comments just above it). Text files only.')
            [CompletionResult]::new('--indentation', '--indentation', [CompletionResultType]::ParameterName, 'How `around_line` chooses the block; every member is optional.')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;write' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The file to write: relative to the root, or absolute inside it. Missing parent directories are created. [required]')
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The complete new content, written exactly as given. [required]')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;edit' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The file to edit: relative to the root, or absolute inside it. It must exist and have been read in this session. [required]')
            [CompletionResult]::new('--old-string', '--old-string', [CompletionResultType]::ParameterName, 'The text to replace, copied from the file as read shows it (without the line-number prefix). It must match exactly one place unless replace_all is set. Not with `edits`.')
            [CompletionResult]::new('--new-string', '--new-string', [CompletionResultType]::ParameterName, 'The text to put in its place (with start_line/end_line: the lines'' new text; with insert_line: the lines to insert). Not with `edits`.')
            [CompletionResult]::new('--expected-replacements', '--expected-replacements', [CompletionResultType]::ParameterName, 'Exactly this many occurrences of old_string must be found; all are replaced. Another count is an error that says how many there are.')
            [CompletionResult]::new('--start-line', '--start-line', [CompletionResultType]::ParameterName, 'Instead of old_string: the first line to replace (1-based, as read numbers lines), with end_line and new_string.')
            [CompletionResult]::new('--end-line', '--end-line', [CompletionResultType]::ParameterName, 'The last line to replace (inclusive; default start_line).')
            [CompletionResult]::new('--expected', '--expected', [CompletionResultType]::ParameterName, 'With start_line: the current text of those lines; if they hold something else, nothing is changed (no_match shows them).')
            [CompletionResult]::new('--insert-line', '--insert-line', [CompletionResultType]::ParameterName, 'Instead of old_string: insert new_string after this line (0: before the first line).')
            [CompletionResult]::new('--edits', '--edits', [CompletionResultType]::ParameterName, 'Several edits, all or nothing: string edits applied in order, each to the result of the one before; or line edits, all counting lines of the file as it is before the call. Instead of old_string/new_string.')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--replace-all', '--replace-all', [CompletionResultType]::ParameterName, 'Replace every occurrence of old_string (default false). Not with `edits`: set it per edit.')
            [CompletionResult]::new('--no-replace-all', '--no-replace-all', [CompletionResultType]::ParameterName, 'Sets replace_all to false')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the diff the edit would make, without writing anything (default false).')
            [CompletionResult]::new('--no-dry-run', '--no-dry-run', [CompletionResultType]::ParameterName, 'Sets dry_run to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;apply_patch' {
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'The patch: `*** Begin Patch`, then per file `*** Add File: PATH` (+ lines), `*** Update File: PATH` (optional `*** Move to: PATH`, then hunks: `@@ [a line above the change]`, lines starting with '' '' context, ''-'' removed, ''+'' added, optional `*** End of File`) or `*** Delete File: PATH`, and `*** End Patch`. [required]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;move' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'What to move: a file, a symlink (moved as a link) or a directory (moved whole). [required]')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Where it goes; missing parent directories are created. [required]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Replace an existing file at `to` (never a directory); that file must have been read. [default: false]')
            [CompletionResult]::new('--no-overwrite', '--no-overwrite', [CompletionResultType]::ParameterName, 'Sets overwrite to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;delete' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The file, link or directory to delete. [required]')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Delete a directory with everything in it (an empty one needs no flag). [default: false]')
            [CompletionResult]::new('--no-recursive', '--no-recursive', [CompletionResultType]::ParameterName, 'Sets recursive to false')
            [CompletionResult]::new('--permanent', '--permanent', [CompletionResultType]::ParameterName, 'Delete for good instead of into the trash: cannot be undone. Required over 256 MiB. [default: false]')
            [CompletionResult]::new('--no-permanent', '--no-permanent', [CompletionResultType]::ParameterName, 'Sets permanent to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;mkdir' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The directory to create, with any missing parents. [required]')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;notebook_edit' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The notebook (.ipynb). [required]')
            [CompletionResult]::new('--cell-id', '--cell-id', [CompletionResultType]::ParameterName, 'The cell to edit (its id, or `cell-N` for the N-th cell, 0-based); for insert, the cell to insert after (absent: insert first).')
            [CompletionResult]::new('--new-source', '--new-source', [CompletionResultType]::ParameterName, 'The cell''s new source: required for replace and insert, not used by delete.')
            [CompletionResult]::new('--cell-type', '--cell-type', [CompletionResultType]::ParameterName, '`code` or `markdown`: needed to insert; for replace, changes the cell''s type.')
            [CompletionResult]::new('--edit-mode', '--edit-mode', [CompletionResultType]::ParameterName, '`replace` (default), `insert` or `delete`. [default: replace]')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;stat' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'One path to describe.')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Several paths (up to 1000) instead of `path`.')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;glob' {
            [CompletionResult]::new('--pattern', '--pattern', [CompletionResultType]::ParameterName, 'The glob, relative to `path`: `*` `?` `[...]` `{a,b}` `**`; `*` stops at `/`. A pattern without `/` matches at any depth (`*.rs` finds every Rust file). [required]')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The directory to search in (default: the root).')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'How many paths to return (at most 100000); `count` still counts every match. [default: 100]')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, '`mtime`: newest modification first (ties by path); `path`: by path; `oldest`: oldest modification first (ripgrep''s --sort=modified, Claude Code''s Glob). [default: mtime]')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Match case-sensitively (Gemini CLI''s field); false matches `*.RS` to `a.rs`. [default: true]')
            [CompletionResult]::new('--no-case-sensitive', '--no-case-sensitive', [CompletionResultType]::ParameterName, 'Sets case_sensitive to false')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Also match hidden files and directories. [default: false]')
            [CompletionResult]::new('--no-hidden', '--no-hidden', [CompletionResultType]::ParameterName, 'Sets hidden to false')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour .gitignore, .ignore and .rgignore files. [default: false]')
            [CompletionResult]::new('--no-no-ignore', '--no-no-ignore', [CompletionResultType]::ParameterName, 'Sets no_ignore to false')
            [CompletionResult]::new('--respect-git-ignore', '--respect-git-ignore', [CompletionResultType]::ParameterName, 'Honour .gitignore, .ignore and .rgignore (Gemini CLI''s field: the opposite of `no_ignore`). [default: true]')
            [CompletionResult]::new('--no-respect-git-ignore', '--no-respect-git-ignore', [CompletionResultType]::ParameterName, 'Sets respect_git_ignore to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;grep' {
            [CompletionResult]::new('--pattern', '--pattern', [CompletionResultType]::ParameterName, 'The regular expression (Rust regex syntax, as ripgrep''s), or a literal with fixed_strings. [required]')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'A file or directory to search (default: the root). A file named here is searched even when ignored or hidden.')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Only files matching this glob (ripgrep''s -g): e.g. "*.rs", "*.{ts,tsx}", "!*.min.js"; a string or an array of them.')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only files of this ripgrep type: rust, py, js, ts, go, c, cpp, java, md, …')
            [CompletionResult]::new('--output-mode', '--output-mode', [CompletionResultType]::ParameterName, '`files_with_matches`: the paths; `content`: the matching lines as `path:line:text`; `count`: matching lines per file as `path:N`. [default: files_with_matches]')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Lines of context after each match (content mode).')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Lines of context before each match (content mode).')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context before and after each match (content mode; -A and -B override it).')
            [CompletionResult]::new('--head-limit', '--head-limit', [CompletionResultType]::ParameterName, 'At most this many entries (files, lines or count rows); default 1000 for content, 250 otherwise; 0 for no limit.')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip this many entries first (for paging). [default: 0]')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Case-insensitive matching. [default: false]')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'Sets -i to false')
            [CompletionResult]::new('--no-i', '--no-i', [CompletionResultType]::ParameterName, 'Sets -i to false')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Line numbers in content output. [default: true]')
            [CompletionResult]::new('-N', '-N ', [CompletionResultType]::ParameterName, 'Sets -n to false')
            [CompletionResult]::new('--no-n', '--no-n', [CompletionResultType]::ParameterName, 'Sets -n to false')
            [CompletionResult]::new('--multiline', '--multiline', [CompletionResultType]::ParameterName, 'Let `.` match newlines and patterns span lines. [default: false]')
            [CompletionResult]::new('--no-multiline', '--no-multiline', [CompletionResultType]::ParameterName, 'Sets multiline to false')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'Take the pattern as a literal string, not a regex. [default: false]')
            [CompletionResult]::new('--no-fixed-strings', '--no-fixed-strings', [CompletionResultType]::ParameterName, 'Sets fixed_strings to false')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Also search hidden files and directories. [default: false]')
            [CompletionResult]::new('--no-hidden', '--no-hidden', [CompletionResultType]::ParameterName, 'Sets hidden to false')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour .gitignore, .ignore and .rgignore files. [default: false]')
            [CompletionResult]::new('--no-no-ignore', '--no-no-ignore', [CompletionResultType]::ParameterName, 'Sets no_ignore to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;tree' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The directory to draw (default: the root).')
            [CompletionResult]::new('--depth', '--depth', [CompletionResultType]::ParameterName, 'How many levels below it to show (1 = its children only). [default: 3]')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many entries, in drawing order. [default: 1000]')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Names to leave out, as globs on an entry''s name (e.g. ["node_modules", "*.log"]); a directory left out is not entered.')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Also show hidden files and directories. [default: false]')
            [CompletionResult]::new('--no-hidden', '--no-hidden', [CompletionResultType]::ParameterName, 'Sets hidden to false')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honour .gitignore, .ignore and .rgignore files. [default: false]')
            [CompletionResult]::new('--no-no-ignore', '--no-no-ignore', [CompletionResultType]::ParameterName, 'Sets no_ignore to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;fetch' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'The page to fetch: an absolute http:// or https:// URL. [required]')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, '`markdown` (default: the page''s content as Markdown, chrome dropped), `text` (plain text), `html` (the HTML, after `selector`) or `raw` (the body as received). [default: markdown]')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'A CSS selector (e.g. `main`, `#content`, `article .docs`): keep only the matching elements before converting. Not with mode `raw`.')
            [CompletionResult]::new('--max-length', '--max-length', [CompletionResultType]::ParameterName, 'At most this many characters of output (at most 1000000). [default: 50000]')
            [CompletionResult]::new('--start-index', '--start-index', [CompletionResultType]::ParameterName, 'Start at this character of the content: the continuation line of a cut page names it. [default: 0]')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Time limit for the whole download, redirects included, in milliseconds (at most 120000). [default: 30000]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;search' {
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'What to search for, as you would type it into a search engine. [required]')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'How many results to return (1 to 20). [default: 5]')
            [CompletionResult]::new('--allowed-domains', '--allowed-domains', [CompletionResultType]::ParameterName, 'Keep only results from these domains (a subdomain counts: `docs.rs` keeps `www.docs.rs`).')
            [CompletionResult]::new('--blocked-domains', '--blocked-domains', [CompletionResultType]::ParameterName, 'Drop results from these domains (and their subdomains).')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Time limit for the provider''s answer, in milliseconds (at most 120000). [default: 15000]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;run' {
            [CompletionResult]::new('--command', '--command', [CompletionResultType]::ParameterName, 'The command, run by `bash -c` (or `sh -c` where there is no bash). [required]')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Milliseconds before the command and everything it started are ended (SIGTERM, then SIGKILL after 2 s). A background job has no time limit unless this is given. At most 600000, or 3600000 in a catalog''s heavy lane. [default: 120000]')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Working directory, inside the sandbox. Default: the root.')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'Extra environment variables (they may override the non-interactive defaults).')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Text fed to the command''s stdin. Without it stdin is /dev/null, so nothing waits for input.')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, '`inherit` (default) or `none`: no network, only a private loopback. Unix sockets that are files (e.g. /var/run/docker.sock) are not network: they stay reachable. [default: inherit]')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, '`none` (default), `workspace-write` (writes only under the root, a private TMPDIR and /dev/null; reads anywhere) or `read-only` (no writes but /dev/null), enforced by the kernel (Landlock). Where the kernel cannot, the call fails with sandbox_unavailable. [default: none]')
            [CompletionResult]::new('--sandbox-fallback', '--sandbox-fallback', [CompletionResultType]::ParameterName, '`none`: where the kernel cannot enforce `sandbox`, run without it (with a warning) instead of failing. Not allowed when loopr-tool was started with a --sandbox floor.')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'A few words on what the command is for, shown in the output and in `jobs`.')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--background', '--background', [CompletionResultType]::ParameterName, 'Start the command detached and return its job id at once; see `jobs`. [default: false]')
            [CompletionResult]::new('--no-background', '--no-background', [CompletionResultType]::ParameterName, 'Sets background to false')
            [CompletionResult]::new('--interactive', '--interactive', [CompletionResultType]::ParameterName, 'With `background: true` only: keep the job''s stdin open, so `jobs` action `write` can type into it later (a REPL, a prompt). `stdin` is still fed first. No terminal: the program sees a pipe. [default: false]')
            [CompletionResult]::new('--no-interactive', '--no-interactive', [CompletionResultType]::ParameterName, 'Sets interactive to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;jobs' {
            [CompletionResult]::new('--action', '--action', [CompletionResultType]::ParameterName, '`list` (default), `output`, `kill`, `wait` or `write`. [default: list]')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The job''s id (from run''s `data.id`), for output, kill, wait and write.')
            [CompletionResult]::new('--chars', '--chars', [CompletionResultType]::ParameterName, 'write: the text to type into the job''s stdin, newlines included (`"yes\n"`); `""` only looks for new output. The job must have been started with `interactive: true`.')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'output/wait: where in the raw log to start, in bytes (a cut output and each page name the next offset). Default 0.')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'output with block, and wait: how long to wait, in milliseconds (default 30000). write: how long to wait for the job to answer (default 1000); the answer comes as soon as the job has printed and fallen quiet for 0.1 s, or has ended. [default: 30000]')
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'output/wait: keep only the lines matching this regular expression.')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--block', '--block', [CompletionResultType]::ParameterName, 'output: wait for the job to end (or `timeout_ms`) before answering. Default false. [default: false]')
            [CompletionResult]::new('--no-block', '--no-block', [CompletionResultType]::ParameterName, 'Sets block to false')
            [CompletionResult]::new('--since-last', '--since-last', [CompletionResultType]::ParameterName, 'output/wait without `offset`: start where the previous `since_last` call of this job stopped, so each call shows only what is new. Default false. [default: false]')
            [CompletionResult]::new('--no-since-last', '--no-since-last', [CompletionResultType]::ParameterName, 'Sets since_last to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;todo' {
            [CompletionResult]::new('--action', '--action', [CompletionResultType]::ParameterName, '`list` (default), `write` (todos), `add` (content or items), `start` (id), `complete` (id), `update` (id and any of content, status, active_form), `remove` (id), `clear`. [default: list]')
            [CompletionResult]::new('--todos', '--todos', [CompletionResultType]::ParameterName, 'write: the whole new list, `[{content, status, active_form?}]`. An item whose content equals an existing item''s keeps that item''s id. Two items `in_progress` is invalid_input, the rule `start` enforces: it is about the list, not about how the list was sent.')
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'add: the new item''s text; update: the replacement text.')
            [CompletionResult]::new('--items', '--items', [CompletionResultType]::ParameterName, 'add: several new items at once, in order.')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'start, complete, update, remove: the item''s id (the number shown as `N.`).')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'update: `pending`, `in_progress` or `completed`.')
            [CompletionResult]::new('--active-form', '--active-form', [CompletionResultType]::ParameterName, 'start, update: the present-continuous form shown while in progress ("Fixing the parser"); an empty string clears it.')
            [CompletionResult]::new('--task', '--task', [CompletionResultType]::ParameterName, 'Seed-style shorthand: the content for add, the id for complete.')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;session' {
            [CompletionResult]::new('--action', '--action', [CompletionResultType]::ParameterName, '`show` (default), `clear_reads`, `reset` or `reopen`. [default: show]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;undo' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Undo the most recent change of this file (default: the most recent change of any file).')
            [CompletionResult]::new('--file-path', '--file-path', [CompletionResultType]::ParameterName, 'file-path')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;complete_task' {
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'What was done, for whoever reads the loop''s result. [required]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;share' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The session ids of the loops to tell (an unknown session is created, so a loop can be told things before it starts). [required]')
            [CompletionResult]::new('--data-type', '--data-type', [CompletionResultType]::ParameterName, 'What kind of data this is, for the reader (`review`, `api-change`, `test-results`). [required]')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The data: any JSON value (a string holding JSON text is taken as that JSON). [required]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;query' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The session id of the loop to ask. [required]')
            [CompletionResult]::new('--question', '--question', [CompletionResultType]::ParameterName, 'The question, complete enough to answer without context. [required]')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'How long to wait for the reply, in milliseconds. [default: 30000]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;inbox' {
            [CompletionResult]::new('--action', '--action', [CompletionResultType]::ParameterName, '`list` (default: unread messages), `all` (every kept message), `reply` (id and text), `wait` (until a message comes, then as `list`). [default: list]')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'reply: the id of the query to answer.')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'reply: the answer.')
            [CompletionResult]::new('--selected', '--selected', [CompletionResultType]::ParameterName, 'reply to a question with options (ask_user): the option(s) chosen.')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'all: how many kept messages to skip (a call shows at most 1 MiB of messages; the rest with offset).')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'wait: how long to wait, in milliseconds (default 30000, max 600000).')
            [CompletionResult]::new('--sessions', '--sessions', [CompletionResultType]::ParameterName, 'wait, a harness''s call (--harness): several inboxes; the first with an unread message answers.')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;create_plan' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The plan''s slug; default: the title as a slug (lowercase, other characters as `-`).')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, ' [required]')
            [CompletionResult]::new('--overview', '--overview', [CompletionResultType]::ParameterName, 'What the plan achieves and how, in a few sentences. [required]')
            [CompletionResult]::new('--specs', '--specs', [CompletionResultType]::ParameterName, 'The specs, in order: {name, title, description, dependencies?}. [required]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Overwrite an existing plan of this name (otherwise that is invalid_input). [default: false]')
            [CompletionResult]::new('--no-replace', '--no-replace', [CompletionResultType]::ParameterName, 'Sets replace to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;create_spec' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The spec''s slug (as in the plan''s `specs[].name`). [required]')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, ' [required]')
            [CompletionResult]::new('--overview', '--overview', [CompletionResultType]::ParameterName, ' [required]')
            [CompletionResult]::new('--phases', '--phases', [CompletionResultType]::ParameterName, '3 to 7 phases, in order: {name, title, description, validation?}. [required]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Overwrite an existing spec of this name (otherwise that is invalid_input). [default: false]')
            [CompletionResult]::new('--no-replace', '--no-replace', [CompletionResultType]::ParameterName, 'Sets replace to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;create_phase' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The phase''s slug (as in the spec''s `phases[].name`). [required]')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, ' [required]')
            [CompletionResult]::new('--objective', '--objective', [CompletionResultType]::ParameterName, ' [required]')
            [CompletionResult]::new('--tasks', '--tasks', [CompletionResultType]::ParameterName, 'The tasks, in order: {description, file?, action?}. [required]')
            [CompletionResult]::new('--validation-command', '--validation-command', [CompletionResultType]::ParameterName, 'The shell command that tells whether the phase is done (`cargo test -p parser`). [required]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Overwrite an existing phase of this name (otherwise that is invalid_input). [default: false]')
            [CompletionResult]::new('--no-replace', '--no-replace', [CompletionResultType]::ParameterName, 'Sets replace to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;artifact' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, '`plan`, `spec` or `phase`. [required]')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The artifact''s name; without it, the names of every artifact of that kind are listed.')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;ask_user' {
            [CompletionResult]::new('--question', '--question', [CompletionResultType]::ParameterName, 'The question for the person, complete enough to answer without context. [required]')
            [CompletionResult]::new('--options', '--options', [CompletionResultType]::ParameterName, 'Choices to pick from (2 to 6); the person may still answer in words.')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'How long to wait for the answer, in milliseconds. [default: 600000]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--multi-select', '--multi-select', [CompletionResultType]::ParameterName, 'Whether several options may be picked. [default: false]')
            [CompletionResult]::new('--no-multi-select', '--no-multi-select', [CompletionResultType]::ParameterName, 'Sets multi_select to false')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;permissions' {
            [CompletionResult]::new('--action', '--action', [CompletionResultType]::ParameterName, '`list` (default), `grant` or `revoke`. [default: list]')
            [CompletionResult]::new('--rule', '--rule', [CompletionResultType]::ParameterName, 'grant: the allow rule (`Bash(npm test:*)`, `Edit(src/**)`); revoke: a granted rule or a pending approval''s id.')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'loopr-tool;schema' {
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'The shape of the definitions')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Schemas valid under OpenAI''s strict function calling and Anthropic''s strict tool use (every field required, optional ones nullable)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'loopr-tool;call' {
            [CompletionResult]::new('--result-format', '--result-format', [CompletionResultType]::ParameterName, 'Print the result block the harness sends back (anthropic: tool_result; openai: a tool message, or function_call_output for a Responses call) instead of the envelope')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'loopr-tool;batch' {
            [CompletionResult]::new('--result-format', '--result-format', [CompletionResultType]::ParameterName, 'Print the result block the harness sends back (anthropic: tool_result; openai: a tool message, or function_call_output for a Responses call) instead of the envelope')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'loopr-tool;mcp' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--structured', '--structured', [CompletionResultType]::ParameterName, 'Declare an outputSchema per tool and add structuredContent {output, data} to results (env LOOPR_MCP_STRUCTURED=1)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'loopr-tool;catalog' {
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Check FILE and list every problem as FILE:LINE:COLUMN: message (exit 2 when there is one)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Sandbox root; relative paths resolve against it [env: LOOPR_ROOT] [default: .]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Scopes read tracking, todos and undo history [env: LOOPR_SESSION] [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where state lives [env: LOOPR_STATE_DIR] [default: $XDG_STATE_HOME/loopr-tool or ~/.local/state/loopr-tool]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json: the envelope; text: `output` alone [env: LOOPR_FORMAT] [default: json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'The catalog: which tools are offered, their limits, path rules and hooks; a file inside the root is used only when named here [env: LOOPR_CONFIG] [default: $XDG_CONFIG_HOME/loopr/catalog.toml or ~/.config/loopr/catalog.toml]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The catalog profile (loop type) whose tools are offered [env: LOOPR_PROFILE]')
            [CompletionResult]::new('--hub', '--hub', [CompletionResultType]::ParameterName, 'Where loops meet: a name, or a redis:// or rediss:// URL [env: LOOPR_HUB] [default: the catalog''s [loops] hub, else the git repository, else the root]')
            [CompletionResult]::new('--permission-mode', '--permission-mode', [CompletionResultType]::ParameterName, 'default, read-only, accept-edits, bypass or ask (Claude Code''s plan, acceptEdits, bypassPermissions too); over the profile''s mode [env: LOOPR_PERMISSION_MODE]')
            [CompletionResult]::new('--approve', '--approve', [CompletionResultType]::ParameterName, 'Run this call under the approval ID an approval_required answer gave (for that exact input, once)')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Paths may leave the root [env: LOOPR_NO_SANDBOX=1]')
            [CompletionResult]::new('--no-read-check', '--no-read-check', [CompletionResultType]::ParameterName, 'write/edit do not require a prior read [env: LOOPR_NO_READ_CHECK=1]')
            [CompletionResult]::new('--allow-private', '--allow-private', [CompletionResultType]::ParameterName, 'fetch may reach loopback and private addresses [env: LOOPR_FETCH_ALLOW_PRIVATE=1]')
            [CompletionResult]::new('--allow-dangerous', '--allow-dangerous', [CompletionResultType]::ParameterName, 'run skips its destructive-command guard [env: LOOPR_ALLOW_DANGEROUS=1]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the JSON')
            [CompletionResult]::new('--harness', '--harness', [CompletionResultType]::ParameterName, 'A harness''s own control call: the catalog''s offer does not bind it (the sandbox and path rules do) [env: LOOPR_HARNESS=1]')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Offer only tools that change nothing (plan mode) [env: LOOPR_READ_ONLY=1]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'loopr-tool;help' {
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Read a text file with line numbers (also images, PDFs, notebooks, several files)')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Create or overwrite a file')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace text in a file')
            [CompletionResult]::new('apply_patch', 'apply_patch', [CompletionResultType]::ParameterValue, 'Apply a multi-file patch (Codex''s apply_patch format)')
            [CompletionResult]::new('move', 'move', [CompletionResultType]::ParameterValue, 'Move or rename a file or directory (undoable)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a file or directory (undoable: it goes to a trash)')
            [CompletionResult]::new('mkdir', 'mkdir', [CompletionResultType]::ParameterValue, 'Create a directory (and its parents)')
            [CompletionResult]::new('notebook_edit', 'notebook_edit', [CompletionResultType]::ParameterValue, 'Replace, insert or delete a cell of a Jupyter notebook')
            [CompletionResult]::new('stat', 'stat', [CompletionResultType]::ParameterValue, 'Describe files: type, size, mode, mtime, lines, encoding')
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'Find files by glob pattern, newest first')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search file contents with a regex (ripgrep''s engine)')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Show a directory tree')
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Fetch a web page as clean Markdown (http/https, public hosts only)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the web (DuckDuckGo by default; Brave, Tavily or SearXNG when configured)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run a shell command (timeout, clean capped output, background jobs)')
            [CompletionResult]::new('jobs', 'jobs', [CompletionResultType]::ParameterValue, 'List, page, wait for and kill the session''s runs')
            [CompletionResult]::new('todo', 'todo', [CompletionResultType]::ParameterValue, 'Keep this session''s todo list (TodoWrite-style or step by step)')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Show or reset this session''s state (reads, todos, undo, completion)')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Undo this session''s most recent change (write, edit, move, delete, mkdir)')
            [CompletionResult]::new('complete_task', 'complete_task', [CompletionResultType]::ParameterValue, 'Say this loop''s task is done, with a summary')
            [CompletionResult]::new('share', 'share', [CompletionResultType]::ParameterValue, 'Send data to other loops'' inboxes')
            [CompletionResult]::new('query', 'query', [CompletionResultType]::ParameterValue, 'Ask another loop a question and wait for its answer')
            [CompletionResult]::new('inbox', 'inbox', [CompletionResultType]::ParameterValue, 'Read what other loops shared or asked; answer their questions')
            [CompletionResult]::new('create_plan', 'create_plan', [CompletionResultType]::ParameterValue, 'Hand over a plan: its specs and their dependencies')
            [CompletionResult]::new('create_spec', 'create_spec', [CompletionResultType]::ParameterValue, 'Hand over a spec: 3 to 7 phases')
            [CompletionResult]::new('create_phase', 'create_phase', [CompletionResultType]::ParameterValue, 'Hand over a phase: its tasks and validation command')
            [CompletionResult]::new('artifact', 'artifact', [CompletionResultType]::ParameterValue, 'Read a plan, spec or phase handed over by a loop')
            [CompletionResult]::new('ask_user', 'ask_user', [CompletionResultType]::ParameterValue, 'Ask the person running this loop a question and wait for the answer')
            [CompletionResult]::new('permissions', 'permissions', [CompletionResultType]::ParameterValue, 'A harness''s call: grant, list or revoke the session''s permission rules')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the tool definitions to hand a model (anthropic, openai, openai-responses or mcp format)')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run one tool call given on stdin: {"name", "input", "id"?}, a tool_use block, or an OpenAI tool call')
            [CompletionResult]::new('batch', 'batch', [CompletionResultType]::ParameterValue, 'Run many tool calls (a JSON array or JSON Lines on stdin); read-only ones in parallel')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve every tool over the Model Context Protocol on stdio')
            [CompletionResult]::new('catalog', 'catalog', [CompletionResultType]::ParameterValue, 'Print the effective catalog as TOML (defaults merged, profile applied), or check a catalog file')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'loopr-tool;help;read' {
            break
        }
        'loopr-tool;help;write' {
            break
        }
        'loopr-tool;help;edit' {
            break
        }
        'loopr-tool;help;apply_patch' {
            break
        }
        'loopr-tool;help;move' {
            break
        }
        'loopr-tool;help;delete' {
            break
        }
        'loopr-tool;help;mkdir' {
            break
        }
        'loopr-tool;help;notebook_edit' {
            break
        }
        'loopr-tool;help;stat' {
            break
        }
        'loopr-tool;help;glob' {
            break
        }
        'loopr-tool;help;grep' {
            break
        }
        'loopr-tool;help;tree' {
            break
        }
        'loopr-tool;help;fetch' {
            break
        }
        'loopr-tool;help;search' {
            break
        }
        'loopr-tool;help;run' {
            break
        }
        'loopr-tool;help;jobs' {
            break
        }
        'loopr-tool;help;todo' {
            break
        }
        'loopr-tool;help;session' {
            break
        }
        'loopr-tool;help;undo' {
            break
        }
        'loopr-tool;help;complete_task' {
            break
        }
        'loopr-tool;help;share' {
            break
        }
        'loopr-tool;help;query' {
            break
        }
        'loopr-tool;help;inbox' {
            break
        }
        'loopr-tool;help;create_plan' {
            break
        }
        'loopr-tool;help;create_spec' {
            break
        }
        'loopr-tool;help;create_phase' {
            break
        }
        'loopr-tool;help;artifact' {
            break
        }
        'loopr-tool;help;ask_user' {
            break
        }
        'loopr-tool;help;permissions' {
            break
        }
        'loopr-tool;help;schema' {
            break
        }
        'loopr-tool;help;call' {
            break
        }
        'loopr-tool;help;batch' {
            break
        }
        'loopr-tool;help;mcp' {
            break
        }
        'loopr-tool;help;catalog' {
            break
        }
        'loopr-tool;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
