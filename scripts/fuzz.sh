#!/usr/bin/env bash
# Runs libFuzzer targets (make fuzz, make test-fuzz): each target for FUZZ_SECONDS from its committed
# seeds (Tests/FuzzCorpus/<target>, read only) into FUZZ_OUT/corpus/<target>, FUZZ_JOBS targets at a
# time (a libFuzzer run uses one core; the default is the machine's core count). A crash, an ASan report,
# a timeout (FUZZ_TIMEOUT s for one input), RSS over FUZZ_RSS_MB, or a binary without coverage
# ("Is the code instrumented for coverage?") is written to FUZZ_OUT/artifacts/<target>/ and fails the
# run. Prints exec/s, runs and coverage per target, in the targets' order.
#
# usage: scripts/fuzz.sh FUZZ_BIN [TARGET...]   (no targets: every target the binary lists)
set -uo pipefail
bin=$1; shift
seconds=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}
out=${FUZZ_OUT:-fuzz-out}
jobs=${FUZZ_JOBS:-$(nproc)}
listing=$(APNS_MOCK_FUZZ_TARGET=list "$bin") || { echo "fuzz: $bin does not list its targets" >&2; exit 2; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cut -f1 <<< "$listing")

# One target: its log in $out/<target>.log, its exit status in $out/<target>.status.
run_target() {
    local t=$1 maxlen
    maxlen=$(awk -F'\t' -v t="$t" '$1 == t { print $2 }' <<< "$listing")
    [ -n "$maxlen" ] || { echo "unknown target $t" > "$out/$t.log"; echo 2 > "$out/$t.status"; return; }
    mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
    echo "== $t: $seconds s, max_len $maxlen"
    ASAN_OPTIONS=detect_leaks=0 APNS_MOCK_FUZZ_TARGET=$t "$bin" "$out/corpus/$t" "Tests/FuzzCorpus/$t" \
        -max_total_time="$seconds" -max_len="$maxlen" -timeout="$timeout" -rss_limit_mb="$rss" \
        -print_final_stats=1 -artifact_prefix="$out/artifacts/$t/" > "$out/$t.log" 2>&1
    echo $? > "$out/$t.status"
}

mkdir -p "$out"
running=0
for t in "${targets[@]}"; do
    run_target "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

failed=""
printf '\n'
for t in "${targets[@]}"; do
    status=$(cat "$out/$t.status" 2>/dev/null || echo 2)
    [ "$status" = 0 ] || failed="$failed $t"
    if grep -q 'Is the code instrumented for coverage' "$out/$t.log"; then failed="$failed $t(no-coverage)"; fi
    runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$out/$t.log")
    rate=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$out/$t.log")
    cov=$(grep -o 'cov: [0-9]*' "$out/$t.log" | tail -1)
    printf '%-16s %8s exec/s %10s runs  %s\n' "$t" "$rate" "$runs" "$cov"
done
if [ -n "$failed" ]; then
    echo "FUZZ FINDINGS in:$failed (see $out/<target>.log and $out/artifacts/)"
    exit 1
fi
