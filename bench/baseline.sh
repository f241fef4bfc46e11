#!/usr/bin/env bash
# Builds apns-mock at an earlier git revision for `make bench BENCH_BASELINE=<rev>` and prints
# the binary's path. The revision is checked out in a git worktree under .build/baseline/<commit>
# and built there with the same release flags (RELEASE_FLAGS from the Makefile), in a scratch
# path of its own, so the main build is left alone; a second call with the same revision reuses it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rev=${1:?usage: bench/baseline.sh REVISION}
commit=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "bench/baseline.sh: no commit '$rev'" >&2; exit 1; }
dir=$PWD/.build/baseline/$commit
if [[ ! -d $dir/src ]]; then
    mkdir -p "$dir"
    git worktree add --detach --force "$dir/src" "$commit" >&2
fi
# shellcheck disable=SC2086 # RELEASE_FLAGS is a list of flags
swift build --package-path "$dir/src" --scratch-path "$dir/build" ${RELEASE_FLAGS:--c release} --product apns-mock >&2
echo "$dir/build/release/apns-mock"
