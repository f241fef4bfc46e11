#!/usr/bin/env bash
# The server's VmRSS after recording N pushes (docs/BENCHMARKS.md, "Issue 31, step 9"): BIN is started
# with --record-capacity N on 127.0.0.1, h2load sends N 100-byte pushes (-c 4 -m 64, token auth), and
# after 1 s the script prints the VmRSS of the server. Usage: bench/records-memory.sh BIN [N]
# (N defaults to 1000000). Run it on two builds in interleaved rounds to compare them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=$1
N=${2:-1000000}
JWT=$("$BIN" token --key certs/AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ)
WORK=$(mktemp -d)
"$BIN" serve --port 0 --admin-port 0 --channels-port 0 --log-level error --record-capacity "$N" \
    --auth-stream-limit off >"$WORK/ready" 2>/dev/null &
PID=$!
trap 'kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do grep -q '^apns-mock ready' "$WORK/ready" && break; sleep 0.1; done
URL=$(sed -n 's/.* apns=\([^ ]*\).*/\1/p' "$WORK/ready")
timeout 300 h2load -c 4 -m 64 -n "$N" -d bench/payload-100.json -H "apns-topic: com.example.app" \
    -H "apns-push-type: alert" -H "authorization: bearer $JWT" "$URL/3/device/$(printf 'ab%.0s' {1..32})" \
    >"$WORK/h2load.txt"
sleep 1
echo "$BIN: VmRSS $(awk '/VmRSS/ {print $2}' "/proc/$PID/status") KiB after $(grep -o '[0-9]* succeeded' "$WORK/h2load.txt" | head -1) pushes"
