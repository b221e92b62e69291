# The search cases of bench/search.sh and bench/rss.sh, sourced by both (not run on its own).
# Needs: L (the loopr-tool binary) and FD (fd or fdfind). Sets ML and `cases`.
# shellcheck shell=bash disable=SC2034
ML="'static\s+int\s*\n\s*\w+\s*\('"
# name | ours | theirs   (split as shell words: hyperfine -N and eval both honour the quotes)
cases=(
  "grep files_with_matches|$L grep memcpy --head-limit 0|rg -l memcpy"
  "grep content|$L grep memcpy --output-mode content --head-limit 0|rg -n memcpy"
  "grep count|$L grep memcpy --output-mode count --head-limit 0|rg -c memcpy"
  "grep -i content|$L grep -i memcpy --output-mode content --head-limit 0|rg -n -i memcpy"
  "grep glob *.h content|$L grep define --glob *.h --output-mode content --head-limit 0|rg -n -g *.h define"
  "grep glob *.h, 1000/47268|$L grep define --glob *.h --output-mode content|rg -n -g *.h define"
  "grep multiline content|$L grep $ML --multiline --output-mode content --head-limit 0|rg -n -U --multiline-dotall $ML"
  "glob *.c by path|$L glob *.c --sort path --limit 100000|$FD -t f -g *.c"
  "glob *.c newest first|$L glob *.c --limit 100000|$FD -t f -g *.c"
  "tree depth 3|$L tree --depth 3 --limit 100000|tree -L 3 --gitignore"
)
