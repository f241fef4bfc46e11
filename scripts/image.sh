#!/usr/bin/env bash
# The container image with podman, on a machine without Docker and without a reachable image registry.
#
#   scripts/image.sh build   make release-static, then the image from dist/apns-mock (Dockerfile, runtime-prebuilt)
#   scripts/image.sh base    only the base image (debian:bookworm-slim, debootstrap), when missing
#   scripts/image.sh test    build, then run the image and push through it; then docker-compose.yml with podman-compose
#
# Installs what is missing (apt: podman, runc, debootstrap, python3-venv; pip: podman-compose in .venv-image).
# The base image the Dockerfile names (debian:bookworm-slim) is made here with debootstrap from the apt mirror this
# machine uses, imported into podman's image store and reused on later runs. Podman runs with the runc runtime and
# a containers.conf (a temporary file named by CONTAINERS_CONF) with `default_ulimits = []`: the two settings
# podman needs in this sandbox. Everything the test starts is removed on exit; every container step has a timeout.
#
# Environment: IMAGE (default apns-mock:dev), DEBIAN_MIRROR (default: the host's apt mirror for Debian),
# PODMAN_COMPOSE_VERSION (default 1.6.0).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-test}
IMAGE=${IMAGE:-apns-mock:dev}
BASE_IMAGE=docker.io/library/debian:bookworm-slim
PODMAN_COMPOSE_VERSION=${PODMAN_COMPOSE_VERSION:-1.6.0}
COMPOSE_VENV=.venv-image
started=$(date +%s)

say() { printf '[image %3ds] %s\n' "$(( $(date +%s) - started ))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

work=$(mktemp -d /tmp/apns-mock-image.XXXXXX)
containers=()
project=""
service_pid=""
cleanup() {
    local rc=$?
    set +e
    [ -z "$service_pid" ] || kill "$service_pid" 2>/dev/null
    for c in "${containers[@]}"; do podman --runtime runc rm -f -t 0 "$c" >/dev/null 2>&1; done
    if [ -n "$project" ]; then
        timeout 60 "$COMPOSE_VENV/bin/podman-compose" -p "$project" -f docker-compose.yml down -t 2 >/dev/null 2>&1
        # Whatever compose left behind (a run it could not finish).
        for c in $(podman ps -aq --filter "label=io.podman.compose.project=$project" 2>/dev/null); do
            podman --runtime runc rm -f -t 0 "$c" >/dev/null 2>&1
        done
        for n in $(podman network ls -q --filter "label=io.podman.compose.project=$project" 2>/dev/null); do
            podman network rm -f "$n" >/dev/null 2>&1
        done
    fi
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- set-up ---------------------------------------------------------------------------------------------------
packages=(podman runc debootstrap python3-venv curl)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing: ${missing[*]}"
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The containers.conf and pm() this sandbox needs.
# shellcheck source=scripts/podman-sandbox.sh
. scripts/podman-sandbox.sh

# The Debian mirror apt uses here (first Debian archive URI in the sources), unless DEBIAN_MIRROR says otherwise.
debian_mirror() {
    local found
    found=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | grep -E '^[[:space:]]*(URIs:|deb[[:space:]])' | grep -oE '(https?|ftp)://[^[:space:]]+/debian/?([[:space:]]|$)' \
        | head -n 1 | tr -d '[:space:]' || true)
    echo "${DEBIAN_MIRROR:-${found:-http://deb.debian.org/debian}}"
}

# debian:bookworm-slim, made here: debootstrap's minbase variant, trimmed as the slim image is (no documentation,
# manual pages or translations, now or in later installs), with apt sources for bookworm, its updates and security.
make_base_image() {
    if pm image exists "$BASE_IMAGE"; then return; fi
    local mirror root
    mirror=$(debian_mirror)
    mirror=${mirror%/}
    root="$work/rootfs"
    say "creating $BASE_IMAGE with debootstrap from $mirror (once; kept in podman's image store)"
    timeout 900 debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
        || { tail -n 20 "$work/debootstrap.log"; fail "debootstrap failed"; }
    cat >"$root/etc/dpkg/dpkg.cfg.d/apns-mock-slim" <<'EOF'
# Leave out documentation, manual pages and translations (as Debian's slim images do); keep copyright files.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
EOF
    rm -f "$root/etc/apt/sources.list"
    cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_SECURITY_MIRROR:-$mirror-security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    find "$root/usr/share/doc" -mindepth 1 ! -name copyright ! -type d -delete
    find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
    find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
    rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/lib/apt/lists/* \
        "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin "$root"/var/log/* \
        "$root"/tmp/* "$root"/var/tmp/*
    # Host files debootstrap copies in: the runtime provides its own.
    rm -f "$root/etc/resolv.conf" "$root/etc/hostname"
    : >"$root/etc/machine-id"
    tar --numeric-owner -C "$root" -c . | timeout 300 podman import \
        --change 'CMD ["bash"]' \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'LABEL apns-mock.base=debootstrap-minbase-bookworm' \
        - "$BASE_IMAGE" >/dev/null
    rm -rf "$root"
    say "created $BASE_IMAGE ($(pm image inspect --format '{{.Size}}' "$BASE_IMAGE") bytes)"
}

build_image() {
    make_base_image
    say "make release-static"
    make release-static
    local previous
    previous=$(pm image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
    say "podman build --target runtime-prebuilt -t $IMAGE"
    # --format docker: the OCI image format has no HEALTHCHECK. --pull=never: nothing comes from a registry.
    timeout 900 podman --runtime runc build --pull=never --format docker --target runtime-prebuilt -t "$IMAGE" . \
        >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; fail "podman build failed"; }
    # The image this tag named before, now untagged (its cached layers stay for the next build).
    if [ -n "$previous" ] && [ "$previous" != "$(pm image inspect --format '{{.Id}}' "$IMAGE")" ]; then
        pm rmi "$previous" >/dev/null 2>&1 || true
    fi
    local size
    size=$(pm image inspect --format '{{.Size}}' "$IMAGE")
    say "built $IMAGE: $size bytes ($(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }') MiB; FROM scratch)"
    [ "$size" -le $(( 60 * 1024 * 1024 )) ] || fail "the image is $size bytes, more than 60 MiB"
}

if [ "$mode" = base ]; then
    make_base_image
    exit 0
fi
if [ "$mode" = build ]; then
    build_image
    exit 0
fi
[ "$mode" = test ] || fail "usage: scripts/image.sh build|test"
build_image
# The image has no curl: the compose test's client is the Dockerfile's test-client stage (the runtime plus curl).
CLIENT_IMAGE=apns-mock-test-client:dev
say "podman build --target test-client -t $CLIENT_IMAGE"
timeout 900 podman --runtime runc build --pull=never --format docker --target test-client -t "$CLIENT_IMAGE" . \
    >"$work/client-build.log" 2>&1 || { tail -n 30 "$work/client-build.log"; fail "podman build of the test client failed"; }

# ---- helpers ------------------------------------------------------------------------------------------------
KEY_ARGS=(--key certs/AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ)
random_token() { od -An -N32 -tx1 /dev/urandom | tr -d ' \n'; }

# Waits until GET $1/health answers 200 (at most $2 seconds).
wait_health() {
    local deadline=$(( $(date +%s) + $2 ))
    until curl -fsS -o /dev/null --max-time 2 "$1/health" 2>/dev/null; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.5
    done
}

# Runs podman's health check of container $1 by hand (no systemd here to run its timer) and reads the status back.
check_health() {
    timeout 30 podman --runtime runc healthcheck run "$1" >/dev/null 2>&1 || fail "podman healthcheck run $1 failed"
    local status
    status=$(pm inspect --format '{{.State.Health.Status}}' "$1")
    [ "$status" = healthy ] || fail "podman reports $1 as '$status', not healthy"
    say "podman reports $1 healthy"
}

# One push with curl over HTTP/2: prints "<status> <http version>"; the response headers go to $work/headers.
# Arguments: URL, then extra curl arguments.
push() {
    local url=$1; shift
    timeout 30 curl -sS --http2 --cacert "$work/ca.pem" -o "$work/body" -D "$work/headers" -w '%{http_code} %{http_version}' \
        -H "authorization: bearer $provider_token" -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' \
        --data-binary '{"aps":{"alert":{"title":"from the image test"}}}' "$@" "$url"
}

# Asserts on the JSON of GET /v1/deliveries: exactly one record, with the given token, status 200, environment and
# :authority. Arguments: file, token, environment, authority.
assert_delivery() {
    python3 - "$@" <<'PY' || fail "delivery record not as expected: $(head -c 2000 "$1")"
import json, sys
path, token, environment, authority = sys.argv[1:5]
answer = json.load(open(path))
records = answer["deliveries"]
assert answer["total"] == 1 and len(records) == 1, f"{len(records)} records"
r = records[0]
assert r["token"] == token, r["token"]
assert r["response"]["status"] == 200, r["response"]
assert r["environment"] == environment, r["environment"]
assert r["authority"] == authority, r["authority"]
assert r["topic"] == "com.example.app" and r["pushType"] == "alert", (r["topic"], r["pushType"])
assert r["auth"]["method"] == "token" and r["auth"]["keyId"] == "ABC123DEFG", r["auth"]
assert r["payload"]["aps"]["alert"]["title"] == "from the image test", r["payload"]
PY
}

# ---- the image on its own -------------------------------------------------------------------------------------
ctr="apns-mock-image-test-$$"
containers+=("$ctr")
say "podman run $IMAGE with APNS_MOCK_ADMIN_TOKEN (ports published on 127.0.0.1, host ports chosen by podman)"
# The sysctl lets the non-root user bind 443 (Docker sets it by default, podman does not). This container has an
# admin token; the compose run below has none (the image's --admin-insecure).
admin_token=$(random_token)
timeout 60 podman --runtime runc run -d --name "$ctr" --sysctl net.ipv4.ip_unprivileged_port_start=0 \
    -e APNS_MOCK_ADMIN_TOKEN="$admin_token" -p 127.0.0.1::443 -p 127.0.0.1::2197 -p 127.0.0.1::2198 "$IMAGE" \
    >/dev/null 2>"$work/run.err" || { cat "$work/run.err"; fail "podman run failed"; }
host_port() { pm port "$ctr" "$1/tcp" | head -n 1 | sed 's/.*://'; }
apns_port=$(host_port 2197); apple_port=$(host_port 443); admin_port=$(host_port 2198)
admin="http://127.0.0.1:$admin_port"
wait_health "$admin" 60 || { pm logs "$ctr" | tail -n 20; fail "no /health on $admin within 60 s"; }
say "serving: apns 127.0.0.1:$apns_port (2197), 127.0.0.1:$apple_port (443), admin 127.0.0.1:$admin_port"
check_health "$ctr"
pid=$(pm inspect --format '{{.State.Pid}}' "$ctr")
[ "$(stat -c %u "/proc/$pid")" = 10001 ] || fail "the container's process does not run as uid 10001"
# What the image holds, file by file: the binary, glibc's files, CA certificates, passwd/group/nsswitch.conf, and
# the directories; no shell, no package manager, no curl, no certificates of ours.
pm export "$ctr" | tar -t | sed 's|^\./||; s|/$||' | grep -v -E '^(|proc|sys|dev|dev/.*|etc/(hosts|hostname|resolv\.conf|mtab)|run|run/.*)$' \
    | sort >"$work/files"
unexpected=$(grep -v -E '^(usr|usr/local|usr/local/bin|usr/local/bin/apns-mock|etc|etc/(passwd|group|nsswitch\.conf)|etc/ssl|etc/ssl/certs|etc/ssl/certs/ca-certificates\.crt|app|app/state(/.*)?|tmp|lib64|lib64/ld-linux-x86-64\.so\.2|lib|lib/x86_64-linux-gnu|lib/x86_64-linux-gnu/lib(c|m|gcc_s|stdc\+\+|dl|pthread|rt)\.so\.[0-9]+)$' "$work/files" || true)
[ -z "$unexpected" ] || fail "the image holds files it should not: $(tr '\n' ' ' <<<"$unexpected")"
pm exec "$ctr" /bin/sh -c true >/dev/null 2>&1 && fail "the image has a shell"
say "runs as uid 10001; the image holds $(wc -l <"$work/files") paths: the binary, glibc, CA certificates and the user (no shell, no curl, no certificates)"

# Nothing mounted: the CA the server generated comes from the admin API, the token from the host's binary.
admin_get() { curl -fsS --max-time 10 -H "authorization: Bearer $admin_token" "$admin$1"; }
admin_get /v1/ca.pem >"$work/ca.pem" || fail "GET /v1/ca.pem failed"
grep -q 'BEGIN CERTIFICATE' "$work/ca.pem" || fail "GET /v1/ca.pem is not a certificate: $(head -c 300 "$work/ca.pem")"
provider_token=$(dist/apns-mock token "${KEY_ARGS[@]}")
device=$(random_token)
result=$(push "https://localhost:$apns_port/3/device/$device" || true)
[ "$result" = "200 2" ] || fail "push answered '$result': $(cat "$work/headers" "$work/body")"
grep -qi '^apns-id: ' "$work/headers" || fail "no apns-id in the answer"
say "push over HTTP/2 to localhost:$apns_port: 200"
code=$(curl -sS -o /dev/null -w '%{http_code}' --max-time 10 "$admin/v1/deliveries?token=$device")
[ "$code" = 401 ] || fail "GET /v1/deliveries without the admin token answered $code, not 401"
admin_get "/v1/deliveries?token=$device" >"$work/deliveries.json"
assert_delivery "$work/deliveries.json" "$device" sandbox "localhost:$apns_port"
say "GET /v1/deliveries: 401 without the admin token; with it one record, status 200, token $device"

# Port 443 under Apple's production host name (curl --connect-to): --environment auto reads it as production.
device2=$(random_token)
result=$(push "https://api.push.apple.com/3/device/$device2" --connect-to "api.push.apple.com:443:127.0.0.1:$apple_port" || true)
[ "$result" = "200 2" ] || fail "push to api.push.apple.com answered '$result': $(cat "$work/body")"
admin_get "/v1/deliveries?token=$device2" >"$work/deliveries.json"
assert_delivery "$work/deliveries.json" "$device2" production "api.push.apple.com"
say "push to api.push.apple.com on the container's port 443: 200, recorded as production"

# SIGTERM (podman stop) shuts the server down cleanly: exit status 0.
timeout 60 podman --runtime runc stop -t 10 "$ctr" >/dev/null 2>&1
code=$(pm inspect --format '{{.State.ExitCode}}' "$ctr")
[ "$code" = 0 ] || { pm logs "$ctr" | tail -n 20; fail "exit status $code after podman stop"; }
say "podman stop: exit status 0"
pm rm -f "$ctr" >/dev/null

# ---- docker-compose.yml with podman-compose -------------------------------------------------------------------
# podman-compose from PyPI, pinned: Debian's 1.0.3 drops the network aliases (it gives each container only its
# service name) and passes a `sysctls:` mapping without its values.
installed=$("$COMPOSE_VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("podman-compose"))' 2>/dev/null || true)
if [ "$installed" != "$PODMAN_COMPOSE_VERSION" ]; then
    say "installing podman-compose $PODMAN_COMPOSE_VERSION into $COMPOSE_VENV"
    [ -x "$COMPOSE_VENV/bin/pip" ] || python3 -m venv "$COMPOSE_VENV"
    "$COMPOSE_VENV/bin/pip" install -q "podman-compose==$PODMAN_COMPOSE_VERSION"
fi
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
project="apnsmockimage$$"
export APNS_MOCK_IMAGE="$IMAGE" APNS_MOCK_PORT APNS_MOCK_CHANNELS_PORT APNS_MOCK_ADMIN_PORT
APNS_MOCK_PORT=$(free_port)
APNS_MOCK_CHANNELS_PORT=$(free_port)
APNS_MOCK_ADMIN_PORT=$(free_port)
say "podman-compose up (project $project; host ports $APNS_MOCK_PORT, $APNS_MOCK_CHANNELS_PORT, $APNS_MOCK_ADMIN_PORT)"
timeout 180 "$COMPOSE_VENV/bin/podman-compose" -p "$project" -f docker-compose.yml up -d --no-build \
    >"$work/compose.log" 2>&1 || { tail -n 30 "$work/compose.log"; fail "podman-compose up failed"; }
admin="http://127.0.0.1:$APNS_MOCK_ADMIN_PORT"
mock=$(pm ps --filter "label=io.podman.compose.project=$project" --format '{{.Names}}' | head -n 1)
wait_health "$admin" 60 || { pm logs "$mock" | tail -n 20; fail "compose: no /health on $admin within 60 s"; }
check_health "$mock"
network=$(pm network ls --filter "label=io.podman.compose.project=$project" --format '{{.Name}}' | head -n 1)
[ -n "$network" ] || fail "compose created no network"

# A client container on the compose network fetches the CA from the admin API under the service name, pushes to
# Apple's sandbox host name on port 443 (the network alias), then reads the record back.
device=$(random_token)
client="apns-mock-image-client-$$"
containers+=("$client")
timeout 120 podman --runtime runc run --name "$client" --network "$network" -e token="$provider_token" \
    "$CLIENT_IMAGE" sh -c '
    set -e
    curl -fsS -o /tmp/ca.pem "http://apns-mock:2198/v1/ca.pem"
    curl -sS --http2 --cacert /tmp/ca.pem -o /dev/null -w "%{http_code} %{http_version}\n" \
        -H "authorization: bearer $token" -H "apns-topic: com.example.app" -H "apns-push-type: alert" \
        --data-binary "{\"aps\":{\"alert\":{\"title\":\"from the image test\"}}}" \
        "https://api.sandbox.push.apple.com/3/device/$1"
    curl -fsS "http://apns-mock:2198/v1/deliveries?token=$1"' client "$device" >"$work/client.out" 2>"$work/client.err" \
    || { cat "$work/client.out" "$work/client.err"; fail "compose: the client container failed"; }
result=$(head -n 1 "$work/client.out")
[ "$result" = "200 2" ] || fail "compose: push to api.sandbox.push.apple.com answered: $(cat "$work/client.out")"
tail -n +2 "$work/client.out" >"$work/deliveries.json"
assert_delivery "$work/deliveries.json" "$device" sandbox api.sandbox.push.apple.com
curl -fsS --max-time 10 "$admin/v1/deliveries?token=$device" >"$work/deliveries.json"
assert_delivery "$work/deliveries.json" "$device" sandbox api.sandbox.push.apple.com
say "compose: a container on the network pushed to https://api.sandbox.push.apple.com: 200, recorded (read in the network and from the host)"
pm rm -f "$client" >/dev/null

timeout 60 "$COMPOSE_VENV/bin/podman-compose" -p "$project" -f docker-compose.yml down -t 10 >>"$work/compose.log" 2>&1 \
    || { tail -n 20 "$work/compose.log"; fail "podman-compose down failed"; }
left=$(pm ps -aq --filter "label=io.podman.compose.project=$project"; pm network ls -q --filter "label=io.podman.compose.project=$project")
[ -z "$left" ] || fail "podman-compose down left containers or networks: $left"
say "podman-compose down: nothing left"

# ---- the Testcontainers module (clients/python) under podman's Docker-compatible API ---------------------------
# testcontainers-python starts the image through the Docker API that `podman system service` serves on a socket;
# Ryuk (the reaper container, pulled from a registry) is off: the test stops its container itself. The connection
# mode is docker_host (localhost and the published ports): testcontainers-python otherwise reads a container's
# HostConfig from the container list, which podman 4.3's Docker API does not give.
[ -x clients/python/.venv/bin/python ] || { python3 -m venv clients/python/.venv \
    && clients/python/.venv/bin/pip install -q --disable-pip-version-check -e "clients/python[test]"; } \
    || fail "cannot install clients/python"
socket="$work/podman.sock"
podman --runtime runc system service --time=0 "unix://$socket" >"$work/podman-service.log" 2>&1 &
service_pid=$!
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { cat "$work/podman-service.log"; fail "podman system service did not start"; }
say "Testcontainers: ApnsMockContainer on $IMAGE through podman's Docker API"
DOCKER_HOST="unix://$socket" TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_CONNECTION_MODE=docker_host \
    APNS_MOCK_TESTCONTAINERS=1 \
    APNS_MOCK_BIN="$PWD/dist/apns-mock" APNS_MOCK_IMAGE="$IMAGE" \
    timeout 300 clients/python/.venv/bin/python -m pytest -q -p no:cacheprovider \
    clients/python/tests/test_testcontainers.py >"$work/testcontainers.log" 2>&1 \
    || { tail -n 40 "$work/testcontainers.log"; fail "the Testcontainers test failed"; }
grep -q "passed" "$work/testcontainers.log" && ! grep -q "skipped" "$work/testcontainers.log" \
    || { cat "$work/testcontainers.log"; fail "the Testcontainers test did not run"; }
say "Testcontainers: $(tail -n 1 "$work/testcontainers.log")"

say "passed"
