#!/usr/bin/env bash
# Several event loops: is a lock shared between connections what stops apns-mock from growing
# with cores? (docs/BENCHMARKS.md, "Several cores".)
#
# This machine has 2 cores and no tracefs, so neither `perf lock` nor perf's off-CPU (sched)
# figures are available, and a second event loop shares its cores with h2load. What it can show:
# how often a thread had to sleep on a contended lock. A pthread mutex (NIOLock, behind the
# store, the metrics' histograms and the registries) enters the kernel only when contended:
# FUTEX_WAIT. strace counts the server's futex calls alone (--seccomp-bpf: no other call is
# stopped), over one bounded h2load run, for 1 event loop (server on core 0, h2load on core 1)
# and 2 event loops (both cores, h2load too), each against an idle run of the same length (start,
# ready, no load, stop), whose calls are subtracted.
#
# usage: bench/cores.sh [REQUESTS [ROUNDS]]   (default 400000 requests, 3 rounds, 1 and 2 event loops
# in turn in each; 4 connections per event loop, 64 streams each). One row per run.
# Expects the release binary (make release). Loopback only; every run is bounded.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=${BENCH_BIN:-.build/release/apns-mock}
REQUESTS=${1:-400000}
ROUNDS=${2:-3}
# Installs what is missing (strace, h2load), as the other bench scripts do.
SUDO=""; [[ $(id -u) == 0 ]] || SUDO=sudo
for tool in strace:strace h2load:nghttp2-client; do
    command -v "${tool%%:*}" >/dev/null || $SUDO apt-get install -y -qq "${tool#*:}" >/dev/null ||
        { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${tool#*:}" >/dev/null; }
done
WORK=$(mktemp -d)
SERVER=""
trap '[[ -n $SERVER ]] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"' EXIT

JWT=$($BIN token --key certs/AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ)
DEVICE=$(printf 'ab%.0s' {1..32})

# run THREADS CPUS LOAD(0|1): prints "futex-calls futex-seconds server-cpu-seconds requests seconds"
run() {
    local threads=$1 cpus=$2 load=$3 fifo=$WORK/ready line port t0 t1 cpu0 cpu1 done=0
    rm -f "$fifo" "$WORK/strace"
    mkfifo "$fifo"
    taskset -c "$cpus" strace -f -c --seccomp-bpf -e trace=futex -o "$WORK/strace" \
        "$BIN" serve --port 0 --admin-port 0 --auth-stream-limit off --log-level error --threads "$threads" \
        --config bench/apns-mock-bench.yaml >"$fifo" 2>"$WORK/stderr" &
    SERVER=$!
    read -r -t 30 line <"$fifo" || { cat "$WORK/stderr" >&2; exit 1; }
    [[ $line =~ apns=https://[^:/]+:([0-9]+) ]] || { echo "unexpected ready line: $line" >&2; exit 1; }
    port=${BASH_REMATCH[1]}
    local server_pid
    server_pid=$(pgrep -P "$SERVER" -f "apns-mock serve" | head -1)
    cpu0=$(awk '{print $14 + $15}' "/proc/$server_pid/stat")
    t0=$EPOCHREALTIME
    if ((load)); then
        local h2cpus=1
        ((threads > 1)) && h2cpus=0,1
        timeout 300 taskset -c "$h2cpus" h2load -n "$REQUESTS" -c $((4 * threads)) -m 64 -t 1 \
            -H "apns-topic: com.example.app" -H "apns-push-type: alert" -H "apns-priority: 10" \
            -H "authorization: bearer $JWT" -d bench/payload-100.json \
            "https://127.0.0.1:$port/3/device/$DEVICE" >"$WORK/h2load" 2>&1
        done=$(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' "$WORK/h2load")
    else
        sleep 3
    fi
    t1=$EPOCHREALTIME
    cpu1=$(awk '{print $14 + $15}' "/proc/$server_pid/stat")
    kill -TERM "$server_pid"
    wait "$SERVER" 2>/dev/null || true
    SERVER=""
    awk -v cpu="$(((cpu1 - cpu0)))" -v hz="$(getconf CLK_TCK)" -v n="$done" -v t="$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" '
        $NF == "futex" {calls = $4; secs = $2}
        END {printf "%d %.3f %.2f %d %.2f\n", calls, secs, cpu / hz, n, t}' "$WORK/strace"
}

echo "| round | event loops | connections | requests | req/s | server CPU µs per request | futex calls (load − idle) | per 1,000 requests |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for ((round = 1; round <= ROUNDS; round++)); do
    for threads in 1 2; do
        cpus=0
        ((threads > 1)) && cpus=0,1
        read -r idle_calls _ _ _ _ < <(run "$threads" "$cpus" 0)
        read -r calls _ cpu n elapsed < <(run "$threads" "$cpus" 1)
        awk -v r="$round" -v th="$threads" -v n="$n" -v s="$elapsed" -v cpu="$cpu" -v x="$((calls - idle_calls))" 'BEGIN {
            printf "| %d | %d | %d | %d | %.0f | %.2f | %d | %.2f |\n", r, th, 4 * th, n, n / s, cpu * 1e6 / n, x,
                x * 1000 / n }'
    done
done
