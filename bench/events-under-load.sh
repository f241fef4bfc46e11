#!/usr/bin/env bash
# Whether the live event stream keeps up with a full-rate load (docs/BENCHMARKS.md, "Issue 31: the
# event stream at full load"): the release build (dist/apns-mock, or BENCH_BIN) on CPU 0; two
# unfiltered /v1/events readers (bench/readers.py: a test's stream and the dashboard's) and h2load on
# CPU 1; N pushes of 100 B at -c 4 -m 64 (N defaults to 300000). Prints h2load's rate and, per reader,
# the delivery events it got, the batch events (records summarised because it fell behind) and the
# records they covered, and whether the stream ended with a `dropped` event (and how many records it
# missed). Everything listens on 127.0.0.1; every step is bounded.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=${BENCH_BIN:-dist/apns-mock}
N=${N:-300000}
JWT=$("$BIN" token --key certs/AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ)
WORK=$(mktemp -d)
taskset -c 0 "$BIN" serve --port 0 --admin-port 0 --channels-port 0 --log-level error --auth-stream-limit off \
    >"$WORK/ready" 2>/dev/null &
PID=$!
trap 'kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do grep -q '^apns-mock ready' "$WORK/ready" && break; sleep 0.1; done
URL=$(sed -n 's/.* apns=\([^ ]*\).*/\1/p' "$WORK/ready")
ADMIN=$(sed -n 's/.* admin=http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$WORK/ready")
READERS=()
for reader in 1 2; do
    taskset -c 1 python3 bench/readers.py --port "$ADMIN" --ready-file "$WORK/ready-$reader" --waiters 0 \
        --max-seconds 300 >"$WORK/reader-$reader" 2>&1 &
    READERS+=($!)
done
for _ in $(seq 100); do [ -f "$WORK/ready-1" ] && [ -f "$WORK/ready-2" ] && break; sleep 0.1; done
timeout 300 taskset -c 1 h2load -c 4 -m 64 -n "$N" -d bench/payload-100.json -H "apns-topic: com.example.app" \
    -H "apns-push-type: alert" -H "authorization: bearer $JWT" "$URL/3/device/$(printf 'ab%.0s' {1..32})" \
    >"$WORK/h2load.txt"
sleep 2
kill -TERM "${READERS[@]}"
wait "${READERS[@]}" 2>/dev/null || true
echo "h2load: $(grep -o '[0-9]* succeeded' "$WORK/h2load.txt" | head -1), $(grep -o '[0-9.]* req/s' "$WORK/h2load.txt" | head -1)"
for reader in 1 2; do
    python3 - "$WORK/reader-$reader" "$reader" <<'PY'
import json, sys
line = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
print(f"reader {sys.argv[2]}: {line.get('sse_events')} delivery events; {line.get('sse_batches')} batch events "
      f"covering {line.get('sse_batch_covered')} records ({line.get('sse_batch_records')} counted, "
      f"{line.get('sse_batch_aged_out')} aged out); stream ended: {line.get('sse_ended')}, "
      f"after {line.get('sse_ended_after_s')} s; records missed (dropped event): {line.get('sse_dropped_missed')}")
PY
done
