#!/usr/bin/env bash
# A CI job in a shell, with apns-mock's own commands and curl for the pushes only: start the
# mock, trust its CA, push, wait, list, break things with a fault rule and a mode, reset, and a
# wait that fails (exit 1). Run by AdminCLITests with APNS_MOCK (the binary) and KEY (a .p8 key).
set -euo pipefail
mock=${APNS_MOCK:?the apns-mock binary}
key=${KEY:?a .p8 signing key}
work=$(mktemp -d)
cd "$work" # no certs/ here: the server generates (or reuses) its development credentials
"$mock" serve --port 0 --admin-port 0 >"$work/ready" 2>"$work/log" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 200); do grep -q '^apns-mock ready' "$work/ready" 2>/dev/null && break; sleep 0.05; done
# apns-mock ready apns=https://127.0.0.1:P admin=http://127.0.0.1:P channels=https://127.0.0.1:P webpush=https://127.0.0.1:P
read -r _ _ apns admin _ <"$work/ready"
apns=${apns#apns=}
# Every admin command reads the admin URL from APNS_MOCK_ADMIN_URL (or --admin URL).
export APNS_MOCK_ADMIN_URL=${admin#admin=}

"$mock" healthcheck
"$mock" ca >"$work/ca.pem"
token=$("$mock" token --key "$key" --key-id ABC123DEFG --team-id DEF123GHIJ)
device=$(printf 'ab%.0s' $(seq 32))
push() {
    curl -sS --http2 --cacert "$work/ca.pem" -o /dev/null -w '%{http_code}' -H "authorization: bearer $token" \
        -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' -d '{"aps":{"alert":"Hi"}}' "$apns/3/device/$device"
}

[ "$(push)" = 200 ]
"$mock" wait token="$device" payload.aps.alert=Hi --count 1 --timeout 5s
[ "$("$mock" deliveries status=200 | wc -l)" = 1 ]

# Twice: create, then replace (the same one rule).
"$mock" fault add --id gone --token "$device" --respond 410/Unregistered
"$mock" fault add --id gone --token "$device" --respond 410/Unregistered
[ "$("$mock" fault list | wc -l)" = 1 ]
[ "$(push)" = 410 ]
"$mock" wait status=410 reason=Unregistered faultId=gone --timeout 5s
"$mock" fault delete gone
[ "$(push)" = 200 ]

"$mock" mode set unavailable
[ "$(push)" = 503 ]
"$mock" mode clear unavailable
[ "$(push)" = 200 ]

# verify, report and explain read APNS_MOCK_ADMIN_URL too.
printf 'expect:\n  - {name: one 410, match: {status: 410, faultId: gone}, count: {exactly: 1}}\n' >"$work/expect.yaml"
"$mock" verify "$work/expect.yaml" >/dev/null
"$mock" report --json | grep -q '"providers"'
id=$("$mock" deliveries status=410 --json | sed -n 's/.*"apnsId":"\([^"]*\)".*/\1/p')
"$mock" explain "$id" | grep -q '^answer: 410 Unregistered'

"$mock" reset
[ "$("$mock" deliveries --json | grep -c '"sequence"')" = 0 ]

# A wait that times out: exit 1, and it says what came closest.
set +e
"$mock" wait token="$device" status=410 --timeout 300ms >"$work/wait.txt"
status=$?
set -e
[ "$status" = 1 ]
grep -q 'timed out after 300ms: 0 of 1' "$work/wait.txt"
echo "cli flow ok"
