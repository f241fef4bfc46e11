#!/usr/bin/env bash
# Instructions per request, a stable regression figure: valgrind's callgrind counts the
# instructions of apns-mock-bench (an in-memory nghttp2 client against the APNs server session:
# no sockets, no TLS, the server's whole answer path including JWT checks and recording) for
# two request counts; the difference divided by the difference in requests removes start-up.
# Counts repeat on a busy machine (timings do not). Prints one Markdown table row per payload.
#
# Then the payload analysis (lint + preview), which runs when a record is first read, never on
# the answer path: per record, reading every record once through the store (as the admin API
# does) and the analyzer alone; and what an unfiltered event stream costs per record (read,
# analysed, rendered as its `delivery` event).
#
# usage: bench/instructions.sh [--server-only] [N1 N2]   (default 2000 12000)
#   --server-only: the first table alone (what bench/instructions-guard.sh compares)
set -euo pipefail
cd "$(dirname "$0")/.."
server_only=0
if [[ ${1:-} == --server-only ]]; then
  server_only=1
  shift
fi
n1=${1:-2000}
n2=${2:-12000}
command -v valgrind >/dev/null || {
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get install -y -qq valgrind >/dev/null || { $sudo apt-get update -qq && $sudo apt-get install -y -qq valgrind >/dev/null; }
}
# The Makefile's release flags (make bench-instructions exports them).
RELEASE_FLAGS=${RELEASE_FLAGS:--c release -Xswiftc -cross-module-optimization -Xswiftc -enforce-exclusivity=unchecked}
# shellcheck disable=SC2086
# BENCH_SCRATCH / BENCH_BUILD_FLAGS: another scratch path and build flags (make bench-guard uses the
# container image's release-static build, so that CI compiles the release modules once).
scratch=${BENCH_SCRATCH:-.build}
# shellcheck disable=SC2086
swift build $RELEASE_FLAGS ${BENCH_BUILD_FLAGS:-} --scratch-path "$scratch" --product apns-mock-bench >&2
# shellcheck disable=SC2086
bench_bin="$(swift build $RELEASE_FLAGS ${BENCH_BUILD_FLAGS:-} --scratch-path "$scratch" --show-bin-path)/apns-mock-bench"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF of Swift release binaries; symbols stay, debug info goes.
objcopy --strip-debug "$bench_bin" "$work/apns-mock-bench"
count() { # requests payload-bytes [read-mode [fault-rules [store-capacity [offline]]]]
  local capacity=()
  if [[ -n ${5:-} ]]; then capacity=("$5"); fi
  if [[ -n ${6:-} ]]; then capacity=("${5:-$(( $1 > 1000 ? $1 : 1000 ))}" "$6"); fi
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/apns-mock-bench" "$1" "$2" 64 "${3:-0}" "${4:-0}" \
    ${capacity[@]+"${capacity[@]}"} 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
echo "| payload | instructions per request (client + server) | server session only |"
echo "|---|---:|---:|"
server_count() { # the server session's share of the last count
  callgrind_annotate --inclusive=yes "$work/out" 2>/dev/null | swift demangle --simplified |
    awk '/InMemoryAPNSConnection\.(receive|collectOutput)/ {gsub(",","",$1); s+=$1} END {print s+0}'
}
# One row per payload size, then 100 B with FAULT_RULES fault rules that match none of the pushes
# (what matching rules that do not act costs a push), then 100 B into a full store: its capacity is
# half of N1, so every push counted evicts the oldest record, as in a load test that outlasts the
# store (make bench's load runs do). make bench adds 100 B to a device registered offline (every
# push held, replacing the last), against the first row (issue 40: at most 10 % more); the guard
# (--server-only) leaves it out.
FAULT_RULES=${FAULT_RULES:-10}
full=$((n1 / 2))
rows=("100 0 - 0" "4096 0 - 0" "100 $FAULT_RULES - 0" "100 0 $full 0")
((server_only)) || rows+=("100 0 - 1")
for row in "${rows[@]}"; do
  read -r bytes rules capacity offline <<<"$row"
  [[ $capacity == - ]] && capacity=""
  offline_argument=""
  ((offline)) && offline_argument=1
  total1=$(count "$n1" "$bytes" 0 "$rules" "$capacity" $offline_argument)
  server1=$(server_count)
  total2=$(count "$n2" "$bytes" 0 "$rules" "$capacity" $offline_argument)
  server2=$(server_count)
  per=$(( (total2 - total1) / (n2 - n1) ))
  server=$(( (server2 - server1) / (n2 - n1) ))
  label="${bytes} B"
  ((rules == 0)) || label="${bytes} B, ${rules} fault rules"
  [[ -z $capacity ]] || label="${bytes} B, store full"
  ((offline)) && label="${bytes} B, device offline"
  echo "| ${label} | ${per} | ${server} |"
done
((server_only)) && exit 0
echo
echo "| payload | + reading every record once (query, lint, preview), per record | the analyzer alone, per payload | + following the store as an event stream (each record read and rendered as its delivery event), per record |"
echo "|---|---:|---:|---:|"
for bytes in 100 4096; do
  base1=$(count "$n1" "$bytes")
  base2=$(count "$n2" "$bytes")
  read1=$(count "$n1" "$bytes" 1)
  read2=$(count "$n2" "$bytes" 1)
  lint1=$(count "$n1" "$bytes" 2)
  lint2=$(count "$n2" "$bytes" 2)
  event1=$(count "$n1" "$bytes" 3)
  event2=$(count "$n2" "$bytes" 3)
  reading=$(( ((read2 - read1) - (base2 - base1)) / (n2 - n1) ))
  analysis=$(( ((lint2 - lint1) - (base2 - base1)) / (n2 - n1) ))
  event=$(( ((event2 - event1) - (base2 - base1)) / (n2 - n1) ))
  echo "| ${bytes} B | ${reading} | ${analysis} | ${event} |"
done
