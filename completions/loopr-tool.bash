_loopr__tool() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="loopr__tool"
                ;;
            loopr__tool,apply_patch)
                cmd="loopr__tool__subcmd__apply_patch"
                ;;
            loopr__tool,artifact)
                cmd="loopr__tool__subcmd__artifact"
                ;;
            loopr__tool,ask_user)
                cmd="loopr__tool__subcmd__ask_user"
                ;;
            loopr__tool,batch)
                cmd="loopr__tool__subcmd__batch"
                ;;
            loopr__tool,call)
                cmd="loopr__tool__subcmd__call"
                ;;
            loopr__tool,catalog)
                cmd="loopr__tool__subcmd__catalog"
                ;;
            loopr__tool,complete_task)
                cmd="loopr__tool__subcmd__complete_task"
                ;;
            loopr__tool,create_phase)
                cmd="loopr__tool__subcmd__create_phase"
                ;;
            loopr__tool,create_plan)
                cmd="loopr__tool__subcmd__create_plan"
                ;;
            loopr__tool,create_spec)
                cmd="loopr__tool__subcmd__create_spec"
                ;;
            loopr__tool,delete)
                cmd="loopr__tool__subcmd__delete"
                ;;
            loopr__tool,edit)
                cmd="loopr__tool__subcmd__edit"
                ;;
            loopr__tool,fetch)
                cmd="loopr__tool__subcmd__fetch"
                ;;
            loopr__tool,glob)
                cmd="loopr__tool__subcmd__glob"
                ;;
            loopr__tool,grep)
                cmd="loopr__tool__subcmd__grep"
                ;;
            loopr__tool,help)
                cmd="loopr__tool__subcmd__help"
                ;;
            loopr__tool,inbox)
                cmd="loopr__tool__subcmd__inbox"
                ;;
            loopr__tool,jobs)
                cmd="loopr__tool__subcmd__jobs"
                ;;
            loopr__tool,map)
                cmd="loopr__tool__subcmd__map"
                ;;
            loopr__tool,mcp)
                cmd="loopr__tool__subcmd__mcp"
                ;;
            loopr__tool,mkdir)
                cmd="loopr__tool__subcmd__mkdir"
                ;;
            loopr__tool,move)
                cmd="loopr__tool__subcmd__move"
                ;;
            loopr__tool,notebook_edit)
                cmd="loopr__tool__subcmd__notebook_edit"
                ;;
            loopr__tool,permissions)
                cmd="loopr__tool__subcmd__permissions"
                ;;
            loopr__tool,query)
                cmd="loopr__tool__subcmd__query"
                ;;
            loopr__tool,read)
                cmd="loopr__tool__subcmd__read"
                ;;
            loopr__tool,rewrite)
                cmd="loopr__tool__subcmd__rewrite"
                ;;
            loopr__tool,run)
                cmd="loopr__tool__subcmd__run"
                ;;
            loopr__tool,schema)
                cmd="loopr__tool__subcmd__schema"
                ;;
            loopr__tool,search)
                cmd="loopr__tool__subcmd__search"
                ;;
            loopr__tool,session)
                cmd="loopr__tool__subcmd__session"
                ;;
            loopr__tool,share)
                cmd="loopr__tool__subcmd__share"
                ;;
            loopr__tool,stat)
                cmd="loopr__tool__subcmd__stat"
                ;;
            loopr__tool,symbols)
                cmd="loopr__tool__subcmd__symbols"
                ;;
            loopr__tool,todo)
                cmd="loopr__tool__subcmd__todo"
                ;;
            loopr__tool,tree)
                cmd="loopr__tool__subcmd__tree"
                ;;
            loopr__tool,undo)
                cmd="loopr__tool__subcmd__undo"
                ;;
            loopr__tool,write)
                cmd="loopr__tool__subcmd__write"
                ;;
            loopr__tool__subcmd__help,apply_patch)
                cmd="loopr__tool__subcmd__help__subcmd__apply_patch"
                ;;
            loopr__tool__subcmd__help,artifact)
                cmd="loopr__tool__subcmd__help__subcmd__artifact"
                ;;
            loopr__tool__subcmd__help,ask_user)
                cmd="loopr__tool__subcmd__help__subcmd__ask_user"
                ;;
            loopr__tool__subcmd__help,batch)
                cmd="loopr__tool__subcmd__help__subcmd__batch"
                ;;
            loopr__tool__subcmd__help,call)
                cmd="loopr__tool__subcmd__help__subcmd__call"
                ;;
            loopr__tool__subcmd__help,catalog)
                cmd="loopr__tool__subcmd__help__subcmd__catalog"
                ;;
            loopr__tool__subcmd__help,complete_task)
                cmd="loopr__tool__subcmd__help__subcmd__complete_task"
                ;;
            loopr__tool__subcmd__help,create_phase)
                cmd="loopr__tool__subcmd__help__subcmd__create_phase"
                ;;
            loopr__tool__subcmd__help,create_plan)
                cmd="loopr__tool__subcmd__help__subcmd__create_plan"
                ;;
            loopr__tool__subcmd__help,create_spec)
                cmd="loopr__tool__subcmd__help__subcmd__create_spec"
                ;;
            loopr__tool__subcmd__help,delete)
                cmd="loopr__tool__subcmd__help__subcmd__delete"
                ;;
            loopr__tool__subcmd__help,edit)
                cmd="loopr__tool__subcmd__help__subcmd__edit"
                ;;
            loopr__tool__subcmd__help,fetch)
                cmd="loopr__tool__subcmd__help__subcmd__fetch"
                ;;
            loopr__tool__subcmd__help,glob)
                cmd="loopr__tool__subcmd__help__subcmd__glob"
                ;;
            loopr__tool__subcmd__help,grep)
                cmd="loopr__tool__subcmd__help__subcmd__grep"
                ;;
            loopr__tool__subcmd__help,help)
                cmd="loopr__tool__subcmd__help__subcmd__help"
                ;;
            loopr__tool__subcmd__help,inbox)
                cmd="loopr__tool__subcmd__help__subcmd__inbox"
                ;;
            loopr__tool__subcmd__help,jobs)
                cmd="loopr__tool__subcmd__help__subcmd__jobs"
                ;;
            loopr__tool__subcmd__help,map)
                cmd="loopr__tool__subcmd__help__subcmd__map"
                ;;
            loopr__tool__subcmd__help,mcp)
                cmd="loopr__tool__subcmd__help__subcmd__mcp"
                ;;
            loopr__tool__subcmd__help,mkdir)
                cmd="loopr__tool__subcmd__help__subcmd__mkdir"
                ;;
            loopr__tool__subcmd__help,move)
                cmd="loopr__tool__subcmd__help__subcmd__move"
                ;;
            loopr__tool__subcmd__help,notebook_edit)
                cmd="loopr__tool__subcmd__help__subcmd__notebook_edit"
                ;;
            loopr__tool__subcmd__help,permissions)
                cmd="loopr__tool__subcmd__help__subcmd__permissions"
                ;;
            loopr__tool__subcmd__help,query)
                cmd="loopr__tool__subcmd__help__subcmd__query"
                ;;
            loopr__tool__subcmd__help,read)
                cmd="loopr__tool__subcmd__help__subcmd__read"
                ;;
            loopr__tool__subcmd__help,rewrite)
                cmd="loopr__tool__subcmd__help__subcmd__rewrite"
                ;;
            loopr__tool__subcmd__help,run)
                cmd="loopr__tool__subcmd__help__subcmd__run"
                ;;
            loopr__tool__subcmd__help,schema)
                cmd="loopr__tool__subcmd__help__subcmd__schema"
                ;;
            loopr__tool__subcmd__help,search)
                cmd="loopr__tool__subcmd__help__subcmd__search"
                ;;
            loopr__tool__subcmd__help,session)
                cmd="loopr__tool__subcmd__help__subcmd__session"
                ;;
            loopr__tool__subcmd__help,share)
                cmd="loopr__tool__subcmd__help__subcmd__share"
                ;;
            loopr__tool__subcmd__help,stat)
                cmd="loopr__tool__subcmd__help__subcmd__stat"
                ;;
            loopr__tool__subcmd__help,symbols)
                cmd="loopr__tool__subcmd__help__subcmd__symbols"
                ;;
            loopr__tool__subcmd__help,todo)
                cmd="loopr__tool__subcmd__help__subcmd__todo"
                ;;
            loopr__tool__subcmd__help,tree)
                cmd="loopr__tool__subcmd__help__subcmd__tree"
                ;;
            loopr__tool__subcmd__help,undo)
                cmd="loopr__tool__subcmd__help__subcmd__undo"
                ;;
            loopr__tool__subcmd__help,write)
                cmd="loopr__tool__subcmd__help__subcmd__write"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        loopr__tool)
            opts="-h -V --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --sandbox --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help --version read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sandbox)
                    COMPREPLY=($(compgen -W "none workspace-write read-only" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__apply_patch)
            opts="-h --patch --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --patch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__artifact)
            opts="-h --kind --name --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --kind)
                    COMPREPLY=($(compgen -W "plan spec phase" -- "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__ask_user)
            opts="-h --question --options --multi-select --no-multi-select --timeout-ms --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --question)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --options)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__batch)
            opts="-h --result-format --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --result-format)
                    COMPREPLY=($(compgen -W "envelope anthropic openai" -- "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__call)
            opts="-h --result-format --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --result-format)
                    COMPREPLY=($(compgen -W "envelope anthropic openai" -- "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__catalog)
            opts="-h --check --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__complete_task)
            opts="-h --summary --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --summary)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__create_phase)
            opts="-h --name --title --objective --tasks --validation-command --replace --no-replace --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --objective)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tasks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validation-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__create_plan)
            opts="-h --name --title --overview --specs --replace --no-replace --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --overview)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --specs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__create_spec)
            opts="-h --name --title --overview --phases --replace --no-replace --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --overview)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --phases)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__delete)
            opts="-h --path --recursive --no-recursive --permanent --no-permanent --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__edit)
            opts="-h --path --old-string --new-string --replace-all --no-replace-all --expected-replacements --start-line --end-line --expected --insert-line --edits --dry-run --no-dry-run --symbol --part --insert-before-symbol --insert-after-symbol --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --old-string)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --new-string)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expected-replacements)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --start-line)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --end-line)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expected)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --insert-line)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --edits)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --symbol)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --part)
                    COMPREPLY=($(compgen -W "body whole" -- "${cur}"))
                    return 0
                    ;;
                --insert-before-symbol)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --insert-after-symbol)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__fetch)
            opts="-h --url --mode --selector --max-length --start-index --timeout-ms --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mode)
                    COMPREPLY=($(compgen -W "markdown text html raw" -- "${cur}"))
                    return 0
                    ;;
                --selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-length)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --start-index)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__glob)
            opts="-h --pattern --path --limit --sort --case-sensitive --no-case-sensitive --hidden --no-hidden --no-ignore --no-no-ignore --respect-git-ignore --no-respect-git-ignore --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --pattern)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sort)
                    COMPREPLY=($(compgen -W "mtime path oldest" -- "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__grep)
            opts="-i -I -n -N -A -B -C -h --pattern --path --glob --type --output-mode --no-i --no-n --multiline --no-multiline --fixed-strings --no-fixed-strings --head-limit --offset --hidden --no-hidden --no-ignore --no-no-ignore --structural --no-structural --language --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --pattern)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output-mode)
                    COMPREPLY=($(compgen -W "files_with_matches content count" -- "${cur}"))
                    return 0
                    ;;
                -A)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -B)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --head-limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --offset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --language)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help)
            opts="read write edit apply_patch move delete mkdir notebook_edit stat glob grep tree symbols map rewrite fetch search run jobs todo session undo complete_task share query inbox create_plan create_spec create_phase artifact ask_user permissions schema call batch mcp catalog help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__apply_patch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__artifact)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__ask_user)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__batch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__call)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__catalog)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__complete_task)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__create_phase)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__create_plan)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__create_spec)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__fetch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__glob)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__grep)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__inbox)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__jobs)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__map)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__mcp)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__mkdir)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__move)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__notebook_edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__permissions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__query)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__read)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__rewrite)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__run)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__schema)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__search)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__session)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__share)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__stat)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__symbols)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__todo)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__tree)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__undo)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__help__subcmd__write)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__inbox)
            opts="-h --action --id --text --selected --offset --timeout-ms --sessions --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --action)
                    COMPREPLY=($(compgen -W "list all reply wait" -- "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --text)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --selected)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --offset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sessions)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__jobs)
            opts="-h --action --id --chars --offset --block --no-block --timeout-ms --filter --until --since-last --no-since-last --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --action)
                    COMPREPLY=($(compgen -W "list output kill wait write screen" -- "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --chars)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --offset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --filter)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --until)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__map)
            opts="-h --path --tokens --focus --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --focus)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__mcp)
            opts="-h --structured --http --token-env --no-auth --session-idle-s --allow-host --tls-cert --tls-key --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --http)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --token-env)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session-idle-s)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow-host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__mkdir)
            opts="-h --path --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__move)
            opts="-h --from --to --overwrite --no-overwrite --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__notebook_edit)
            opts="-h --path --cell-id --new-source --cell-type --edit-mode --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cell-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --new-source)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cell-type)
                    COMPREPLY=($(compgen -W "code markdown" -- "${cur}"))
                    return 0
                    ;;
                --edit-mode)
                    COMPREPLY=($(compgen -W "replace insert delete" -- "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__permissions)
            opts="-h --action --rule --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --action)
                    COMPREPLY=($(compgen -W "list grant revoke" -- "${cur}"))
                    return 0
                    ;;
                --rule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__query)
            opts="-h --to --question --timeout-ms --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --question)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__read)
            opts="-h --path --paths --offset --limit --line-range --pages --around-line --indentation --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --paths)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --offset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --line-range)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pages)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --around-line)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --indentation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__rewrite)
            opts="-h --pattern --rewrite --path --glob --language --dry-run --no-dry-run --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --pattern)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rewrite)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --language)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__run)
            opts="-h --command --timeout-ms --cwd --env --stdin --background --no-background --interactive --no-interactive --tty --no-tty --rows --cols --network --sandbox --sandbox-fallback --description --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --env)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stdin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rows)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cols)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --network)
                    COMPREPLY=($(compgen -W "inherit none" -- "${cur}"))
                    return 0
                    ;;
                --sandbox)
                    COMPREPLY=($(compgen -W "none workspace-write read-only" -- "${cur}"))
                    return 0
                    ;;
                --sandbox-fallback)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --description)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__schema)
            opts="-h --for --strict --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --for)
                    COMPREPLY=($(compgen -W "anthropic openai openai-responses mcp" -- "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__search)
            opts="-h --query --max-results --allowed-domains --blocked-domains --timeout-ms --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --query)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-results)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allowed-domains)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocked-domains)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__session)
            opts="-h --action --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --action)
                    COMPREPLY=($(compgen -W "show clear_reads reset reopen" -- "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__share)
            opts="-h --to --data-type --data --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data-type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__stat)
            opts="-h --path --paths --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --paths)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__symbols)
            opts="-h --path --paths --action --name --scope --kinds --depth --limit --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --paths)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --action)
                    COMPREPLY=($(compgen -W "outline definition references" -- "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scope)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kinds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__todo)
            opts="-h --action --todos --content --items --id --status --active-form --task --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --action)
                    COMPREPLY=($(compgen -W "list write add start complete update remove clear" -- "${cur}"))
                    return 0
                    ;;
                --todos)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --content)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --items)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -W "pending in_progress completed" -- "${cur}"))
                    return 0
                    ;;
                --active-form)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --task)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__tree)
            opts="-h --path --depth --hidden --no-hidden --no-ignore --no-no-ignore --limit --exclude --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__undo)
            opts="-h --path --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        loopr__tool__subcmd__write)
            opts="-h --path --content --file-path --root --session --state-dir --no-sandbox --no-read-check --allow-private --allow-dangerous --format --pretty --config --profile --hub --harness --client --read-only --permission-mode --approve --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --content)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "json text" -- "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hub)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permission-mode)
                    COMPREPLY=($(compgen -W "default read-only accept-edits bypass ask plan acceptEdits bypassPermissions" -- "${cur}"))
                    return 0
                    ;;
                --approve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _loopr__tool -o nosort -o bashdefault -o default loopr-tool
else
    complete -F _loopr__tool -o bashdefault -o default loopr-tool
fi
