#!/usr/bin/env bash
# Latency with and without --journal (make bench-journal; docs/BENCHMARKS.md, "The journal"):
# h2load at -c 1 -m 1 (one push at a time, each answer awaited), 100-byte pushes, token auth,
# against the release build started afresh for each run, with and without `--journal FILE`, in
# ROUNDS interleaved rounds (the order alternating). h2load's per-request log gives each run's
# median, p99 and p99.9; the summary is the median of the rounds with their spread.
#
# Environment: BENCH_BIN (default .build/release/apns-mock), ROUNDS (5), REQUESTS per run (20000),
# SERVER_CPU / CLIENT_CPU (0 and 1). Everything listens on 127.0.0.1; every run is bounded.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=${BENCH_BIN:-.build/release/apns-mock}
ROUNDS=${ROUNDS:-5}
REQUESTS=${REQUESTS:-20000}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
WORK=$(mktemp -d)
PID=""
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
JWT=$("$BIN" token --key certs/AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ)
DEVICE=$(printf 'ab%.0s' {1..32})

run() { # MODE ROUND -> prints "mode p50 p99 p999" (microseconds)
    local mode=$1 round=$2 args=(serve --port 0 --admin-port 0 --auth-stream-limit off --log-level error)
    [ "$mode" = journal ] && args+=(--journal "$WORK/journal-$round.jsonl")
    taskset -c "$SERVER_CPU" "$BIN" "${args[@]}" >"$WORK/ready" 2>"$WORK/stderr" &
    PID=$!
    for _ in $(seq 200); do grep -q '^apns-mock ready' "$WORK/ready" 2>/dev/null && break; sleep 0.05; done
    local url
    url=$(sed -n 's/.* apns=\([^ ]*\).*/\1/p' "$WORK/ready")
    timeout -k 5 120 taskset -c "$CLIENT_CPU" h2load -c 1 -m 1 -n "$REQUESTS" -d bench/payload-100.json \
        -H "apns-topic: com.example.app" -H "apns-push-type: alert" -H "authorization: bearer $JWT" \
        --log-file "$WORK/log-$mode-$round.tsv" "$url/3/device/$DEVICE" >"$WORK/h2load-$mode-$round.txt"
    kill "$PID"
    wait "$PID" 2>/dev/null || true
    PID=""
    python3 - "$WORK/log-$mode-$round.tsv" "$mode" <<'PY'
import sys
# h2load --log-file: start time (µs since epoch), status, elapsed (µs), per line.
times = sorted(int(line.split("\t")[2]) for line in open(sys.argv[1]) if line.strip())
def q(p): return times[min(len(times) - 1, int(p * len(times)))]
print(sys.argv[2], q(0.5), q(0.99), q(0.999))
PY
}

for round in $(seq "$ROUNDS"); do
    if ((round % 2)); then order=(plain journal); else order=(journal plain); fi
    for mode in "${order[@]}"; do run "$mode" "$round"; done
done | tee "$WORK/results.txt"
python3 - "$WORK/results.txt" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for mode in ("plain", "journal"):
    for index, name in ((1, "p50"), (2, "p99"), (3, "p99.9")):
        values = [int(r[index]) for r in rows if r[0] == mode]
        print(f"{mode:8} {name:6} median {statistics.median(values):6.0f} µs  (range {min(values)}–{max(values)}, {len(values)} rounds)")
plain = statistics.median(int(r[2]) for r in rows if r[0] == "plain")
journal = statistics.median(int(r[2]) for r in rows if r[0] == "journal")
print(f"p99 with the journal: {journal / plain:.2f} × without (target ≤ 1.10)")
PY
