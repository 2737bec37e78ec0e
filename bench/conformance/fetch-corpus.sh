#!/usr/bin/env bash
# Prepares the conformance corpus: one checkout per project of corpus.json, at the pinned commit,
# under CORPUS_DIR/<root> (default /work/corpus), outside this repository.
#
# The sources come from bare git snapshots of the public repositories, which this script does not
# download: they must already be under MIRROR_DIR (default /work/.mirror), one per repository, as
# MIRROR_DIR/<owner>+<name>/<git dir> (the layout the session's `fetch github:<owner>/<name>` tool
# leaves). The repositories to fetch are the "repo" fields of corpus.json:
#
#   ggml-org/ggml  NVIDIA/cutlass  NVIDIA/cccl  zjin-lcf/HeCBench  yuhc/gpu-rodinia
#   siboehm/SGEMM_CUDA  Liu-xiandong/How_to_optimize_in_GPU  UoB-HPC/BabelStream
#
# Only the paths listed in a project's "checkout" field are extracted (the whole tree when absent),
# with `git archive <commit> -- <paths> | tar -x`. A checkout already at the pinned commit and paths (stamp
# file <root>/.corpus-commit) is left alone; --force re-extracts it. Nothing is built.
#
# usage: fetch-corpus.sh [--corpus-dir DIR] [--mirror-dir DIR] [--only ROOT] [--force]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
corpus_dir=${CORPUS_DIR:-/work/corpus}
mirror_dir=${MIRROR_DIR:-/work/.mirror}
only=""
force=0
while [[ $# -gt 0 ]]; do
  case $1 in
  --corpus-dir) corpus_dir=$2; shift 2 ;;
  --mirror-dir) mirror_dir=$2; shift 2 ;;
  --only) only=$2; shift 2 ;;
  --force) force=1; shift ;;
  -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
  *) echo "fetch-corpus.sh: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

# One line per project: repo<TAB>commit<TAB>root<TAB>checkout paths (space separated, may be empty).
projects=$(python3 - "$here/corpus.json" <<'EOF'
import json, sys
for p in json.load(open(sys.argv[1])):
    print("\t".join([p["repo"], p["commit"], p["root"], " ".join(p.get("checkout", []))]))
EOF
)

mkdir -p "$corpus_dir"
while IFS=$'\t' read -r repo commit root paths; do
  [[ -z "$only" || "$only" == "$root" ]] || continue
  mirror="$mirror_dir/${repo/\//+}"
  gitdir=""
  if [[ -d "$mirror" ]]; then
    # The bare git directory is the mirror itself or one level below it (…/repo).
    for cand in "$mirror" "$mirror"/*; do
      if [[ -d "$cand" ]] && git --git-dir="$cand" rev-parse --git-dir >/dev/null 2>&1; then
        gitdir=$cand
        break
      fi
    done
  fi
  if [[ -z "$gitdir" ]]; then
    echo "fetch-corpus.sh: error: no mirror of $repo under $mirror (fetch github:$repo first)" >&2
    exit 1
  fi
  if ! git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "fetch-corpus.sh: error: mirror $gitdir of $repo lacks commit $commit (fetch github:$repo again)" >&2
    exit 1
  fi
  dest="$corpus_dir/$root"
  stamp="$commit ${paths:-.}"
  if [[ $force -eq 0 && -f "$dest/.corpus-commit" && "$(cat "$dest/.corpus-commit")" == "$stamp" ]]; then
    echo "$root: $repo @ ${commit:0:12} already checked out in $dest"
    continue
  fi
  rm -rf "$dest"
  mkdir -p "$dest"
  # Snapshots lack large files (4 MiB and more: data sets, images); leave those out of the archive.
  # shellcheck disable=SC2086 # the paths are split on purpose
  listing=$(git --git-dir="$gitdir" ls-tree -r "$commit" -- $paths | awk -F'\t' '{ split($1, m, " "); if (m[2] == "blob") print m[3] "\t" $2 }')
  mapfile -t missing < <(cut -f1 <<<"$listing" | git --git-dir="$gitdir" cat-file --batch-check 2>/dev/null |
    awk '$2 == "missing" { print $1 }' | sort -u |
    join -t$'\t' - <(sort -t$'\t' -k1,1 <<<"$listing") | cut -f2 | sed 's/^/:(exclude,top,literal)/')
  [[ -n "$paths" ]] || paths="."
  # shellcheck disable=SC2086
  git --git-dir="$gitdir" archive --format=tar "$commit" -- $paths "${missing[@]}" 2> >(grep -v "^error: invalid object" >&2) |
    tar -x -C "$dest"
  echo "$stamp" >"$dest/.corpus-commit"
  echo "$root: $repo @ ${commit:0:12} -> $dest ($(find "$dest" -type f | wc -l) files, ${#missing[@]} absent from the snapshot)"
done <<<"$projects"
