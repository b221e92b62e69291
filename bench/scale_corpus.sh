#!/usr/bin/env bash
# The scale corpus (issue 22): a tree of at least 250,000 files made of real codebases side by
# side — copies of glibc and moby — for bench/search.sh to run on as on one codebase.
#
# Each source is a checkout or a git repository (bare or not: then `git archive HEAD`, no
# history). Copies are hard links (`cp -al`): the same bytes under other names, so the walk, the
# ignore rules and the searches see 250,000 files while the disk holds two codebases.
#
# Usage: bench/scale_corpus.sh OUT GLIBC MOBY [MIN_FILES]
# e.g.:  bench/scale_corpus.sh /work/corpus/scale /work/corpus/glibc /work/.mirror/moby+moby/repo
#        bench/search.sh /work/corpus/scale
set -euo pipefail
out=${1:?usage: bench/scale_corpus.sh OUT GLIBC_GIT MOBY_GIT [MIN_FILES]}
glibc=${2:?glibc checkout or git dir}
moby=${3:?moby checkout or git dir}
min=${4:-250000}
mkdir -p "$out"
extract() { # SOURCE NAME
  [ -d "$out/$2-1" ] && return
  if [ -f "$1/HEAD" ] && [ -d "$1/objects" ]; then
    mkdir -p "$out/$2-1.part"
    git --git-dir="$1" archive HEAD | tar -x -C "$out/$2-1.part"
    mv "$out/$2-1.part" "$out/$2-1"
  else
    cp -al "$1" "$out/$2-1"
    rm -rf "$out/$2-1/.git"
  fi
}
extract "$glibc" glibc
extract "$moby" moby
count() { find "$out" -type f | wc -l; }
n=$(count)
i=2
while [ "$n" -lt "$min" ]; do
  for name in glibc moby; do
    [ -d "$out/$name-$i" ] || cp -al "$out/$name-1" "$out/$name-$i"
  done
  i=$((i + 1))
  n=$(count)
done
# One repository at the top, so .gitignore files count as in a checkout (search.sh prints the
# corpus's commit when there is one).
[ -d "$out/.git" ] || git -C "$out" init -q
echo "$out: $n files in $(ls "$out" | wc -l) codebases"
