#!/usr/bin/env bash
# The instruction-count guard (make bench-guard): counts the server session's instructions per push
# with callgrind (bench/instructions.sh --server-only: the release build, 100-byte and 4 KB
# payloads, 100 bytes with 10 fault rules that match none of the pushes, and 100 bytes into a full
# store, every push evicting the oldest record) and fails when a count exceeds bench/instructions-baseline.txt by more than
# GUARD_TOLERANCE percent (default 5). Prints both figures for each payload size.
#
# usage: bench/instructions-guard.sh [N1 N2]   (request counts, as bench/instructions.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
baseline_file=bench/instructions-baseline.txt
tolerance=${GUARD_TOLERANCE:-5}
table=$(bench/instructions.sh --server-only "$@")
status=0
checked=0
while read -r key baseline; do
  [[ -z $key || $key == \#* ]] && continue
  # A key: payload bytes, payload bytes/fault rules (100/10) or payload bytes/full (a full store);
  # its table row: | 100 B | … |, | 100 B, 10 fault rules | … | or | 100 B, store full | … |, then
  # client + server, then the server session alone.
  bytes=${key%%/*}
  label="$bytes B"
  [[ $key == */* ]] && label="$bytes B, ${key#*/} fault rules"
  [[ $key == */full ]] && label="$bytes B, store full"
  measured=$(awk -F'|' -v b="$label" '{gsub(/^ +| +$/, "", $2)} $2 == b {gsub(/ /, "", $4); print $4}' <<<"$table")
  if [[ -z $measured ]]; then
    echo "bench-guard: no count for ${label} in:" >&2
    echo "$table" >&2
    exit 2
  fi
  limit=$((baseline * (100 + tolerance) / 100))
  verdict=ok
  if ((measured > limit)); then
    verdict="FAIL: more than ${tolerance} % above the baseline"
    status=1
  fi
  printf 'bench-guard: %-22s server session %s instructions per push, baseline %s (limit %s, %+.1f %%): %s\n' \
    "$label" "$measured" "$baseline" "$limit" "$(awk -v m="$measured" -v b="$baseline" 'BEGIN {print (m - b) * 100 / b}')" \
    "$verdict"
  checked=$((checked + 1))
done <"$baseline_file"
((checked > 0)) || { echo "bench-guard: $baseline_file has no counts" >&2; exit 2; }
if ((status)); then
  echo "bench-guard: a count grew; if the growth is intended, say why in docs/BENCHMARKS.md and raise $baseline_file" >&2
fi
exit "$status"
