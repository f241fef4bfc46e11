#!/usr/bin/env bash
# make test-dist: each package `make dist` wrote works for a team without Swift, without this repository and without
# APNS_MOCK_BIN. Every package is installed and used in a container of its own, made from the Dockerfile's dist-test
# stage (Debian bookworm with Python, Node, Java and Go from Debian's archive; no Swift, no sources), with only the
# dist directory and one small project of Tests/Dist mounted, read-only:
#
#   sha256     sha256sum -c SHA256SUMS in the dist directory
#   python     pip install apns_mock-*.whl pytest h2 into a venv (dependencies from PyPI); pytest
#              Tests/Dist/python: the plugin's fixtures run the binary the wheel installed, httpx pushes over HTTP/2
#   node       npm install --offline apns-mock-*.tgz into an empty app; node --test Tests/Dist/node: startMock() runs
#              the binary the package carries, node:http2 pushes
#   java       javac Tests/Dist/java against apns-mock-*.jar and Debian's Jackson and JUnit 5; JUnit's console
#              launcher: ApnsMockExtension runs the binary the jar carries, java.net.http pushes over HTTP/2
#   go         go get the module from goproxy/ (GOPROXY=file://…, offline), apns-mock from the dist directory
#              installed on PATH (the module carries no binary); go test Tests/Dist/go: Start, net/http pushes
#
# Each test asserts that the binary it ran is the package's own. Runs every part, prints each one's time, and exits
# non-zero when any failed.
#
# Environment: DIST (default dist/ of the repository), DIST_TEST_IMAGE (default apns-mock-dist-test:dev),
# STEP_TIMEOUT (seconds for one part, default 600), HOST_CA_BUNDLE (the CA certificates pip trusts in the container,
# default the host's /etc/ssl/certs/ca-certificates.crt).
#
# The image is built once and rebuilt only when the dist-test stage's text or the base image changes (a label on
# the image holds their fingerprint); the base image (debian:bookworm-slim) is scripts/image.sh base's. Podman
# runs with the runc runtime and a containers.conf with `default_ulimits = []`, as in scripts/image.sh. Every
# container is removed on exit; every podman step has a timeout.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# DIST relative to the directory the script is run from; dist/ of the repository when not given.
DIST=$(cd "${DIST:-$ROOT/dist}" 2>/dev/null && pwd) \
    || { echo "test-dist: no directory ${DIST:-$ROOT/dist} (make dist writes dist/)" >&2; exit 1; }
cd "$ROOT"
IMAGE=${DIST_TEST_IMAGE:-apns-mock-dist-test:dev}
BASE_IMAGE=docker.io/library/debian:bookworm-slim
STEP_TIMEOUT=${STEP_TIMEOUT:-600}
PROJECTS=Tests/Dist
started=$(date +%s)

say() { printf '[test-dist %3ds] %s\n' "$(( $(date +%s) - started ))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

work=$(mktemp -d /tmp/apns-mock-test-dist.XXXXXX)
containers=()
cleanup() {
    local rc=$?
    set +e
    for c in "${containers[@]}"; do podman --runtime runc rm -f -t 0 "$c" >/dev/null 2>&1; done
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The containers.conf and pm() this sandbox needs.
# shellcheck source=scripts/podman-sandbox.sh
. "$ROOT/scripts/podman-sandbox.sh"

# ---- what the dist directory holds -----------------------------------------------------------------------------
# Exactly one file matching $1 in the dist directory: its name.
one() {
    local found=("$DIST"/$1)
    [ ${#found[@]} = 1 ] && [ -e "${found[0]}" ] || fail "$DIST should hold one $1, holds: ${found[*]##*/}"
    basename "${found[0]}"
}
wheel=$(one 'apns_mock-*.whl')
tarball=$(one 'apns-mock-*.tgz')
jar=$(one 'apns-mock-*.jar')
[ -x "$DIST/apns-mock" ] || fail "$DIST/apns-mock is missing"
[ -f "$DIST/SHA256SUMS" ] || fail "$DIST/SHA256SUMS is missing"
mapfile -t lists < <(find "$DIST/goproxy" -path '*/@v/list' -type f 2>/dev/null)
[ ${#lists[@]} = 1 ] || fail "$DIST/goproxy should hold one module (…/@v/list), holds ${#lists[@]}"
escaped=${lists[0]#"$DIST/goproxy/"}
escaped=${escaped%/@v/list}
module=$(sed -E 's/!([a-z])/\U\1/g' <<<"$escaped")   # the proxy's case encoding: !x is X
go_version=$(tail -n 1 "${lists[0]}")
say "dist: $DIST: $wheel, $tarball, $jar, Go module $module $go_version"

# ---- the image --------------------------------------------------------------------------------------------------
pm image exists "$BASE_IMAGE" || { say "no $BASE_IMAGE: scripts/image.sh base"; scripts/image.sh base; }
# The dist-test stage, from its FROM line to the next stage's heading, and the base image it starts from.
stage=$(awk '/^FROM .* AS dist-test$/ { on = 1 } on && /^(# ----|FROM )/ && !/AS dist-test$/ { exit } on' Dockerfile)
[ -n "$stage" ] || fail "the Dockerfile has no dist-test stage"
fingerprint=$( { printf '%s\n' "$stage"; pm image inspect --format '{{.Id}}' "$BASE_IMAGE"; } | sha256sum | cut -c1-16)
built=$(pm image inspect --format '{{index .Labels "apns-mock.dist-test"}}' "$IMAGE" 2>/dev/null || true)
if [ "$built" = "$fingerprint" ]; then
    say "image $IMAGE is up to date (fingerprint $fingerprint)"
else
    say "podman build --target dist-test -t $IMAGE (${built:+was $built, }now $fingerprint)"
    previous=$(pm image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
    # The stage copies nothing from the context: an empty directory is all it is given.
    mkdir "$work/context"
    timeout 1800 podman --runtime runc build --pull=never --format docker --target dist-test \
        --label "apns-mock.dist-test=$fingerprint" -t "$IMAGE" -f "$ROOT/Dockerfile" "$work/context" \
        >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; fail "podman build failed"; }
    if [ -n "$previous" ] && [ "$previous" != "$(pm image inspect --format '{{.Id}}' "$IMAGE")" ]; then
        pm rmi "$previous" >/dev/null 2>&1 || true
    fi
    say "built $IMAGE: $(pm image inspect --format '{{.Size}}' "$IMAGE") bytes"
fi

# ---- the parts --------------------------------------------------------------------------------------------------
# Every part but sha256 starts the same way: nothing named apns-mock on PATH, no Swift, no APNS_MOCK_BIN; the project
# copied from /project (read-only) into /work.
PRELUDE='set -eu
for program in apns-mock swift swiftc; do
    if command -v "$program" >/dev/null; then echo "the container has $program: $(command -v "$program")"; exit 1; fi
done
[ -z "${APNS_MOCK_BIN+set}" ] || { echo "APNS_MOCK_BIN is set"; exit 1; }
cp -R /project/. /work/
'

results=()
failed=0
# part NAME PROJECT SCRIPT SUMMARY: runs SCRIPT with bash in a new container, with the dist directory and
# Tests/Dist/PROJECT mounted read-only at /dist and /project (PROJECT "-": none) and the dist file names in the
# environment (more podman run arguments after SUMMARY); prints the last line of its output that matches the regular
# expression SUMMARY, or on failure the output.
part() {
    local name=$1 project=$2 script=$3 summary=$4 ctr="apns-mock-test-dist-$$-$1" t0=$(date +%s) status=0
    local mounts=(-v "$DIST:/dist:ro")
    shift 4
    [ "$project" = - ] || mounts+=(-v "$ROOT/$PROJECTS/$project:/project:ro")
    containers+=("$ctr")
    say "$name: start"
    timeout "$STEP_TIMEOUT" podman --runtime runc run --rm --name "$ctr" "${mounts[@]}" \
        -e WHEEL="$wheel" -e TARBALL="$tarball" -e JAR="$jar" -e GO_MODULE="$module" -e GO_VERSION="$go_version" "$@" \
        "$IMAGE" bash -c "$script" >"$work/$name.log" 2>&1 || status=$?
    pm rm -f -t 0 "$ctr" >/dev/null 2>&1 || true
    local took=$(( $(date +%s) - t0 ))
    if [ "$status" = 0 ]; then
        results+=("$(printf '%-7s passed  %4d s' "$name" "$took")")
        say "$name: passed in $took s: $(grep -E "$summary" "$work/$name.log" | tail -n 1)"
    else
        failed=1
        [ "$status" = 124 ] && status="$status (timed out after $STEP_TIMEOUT s)"
        results+=("$(printf '%-7s FAILED  %4d s' "$name" "$took")")
        say "$name: FAILED (exit status $status) after $took s; its output:"
        sed 's/^/    /' "$work/$name.log" | tail -n 60
    fi
}

part sha256 - 'cd /dist && sha256sum --quiet -c SHA256SUMS && echo "$(wc -l <SHA256SUMS) checksums match"' 'checksums match'

# pip reaches PyPI trusting the host's CA bundle (HOST_CA_BUNDLE), so that a TLS-inspecting proxy the host trusts
# works from the container as well; the container's own bundle (Debian's ca-certificates) when there is none.
HOST_CA_BUNDLE=${HOST_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
host_trust=()
[ ! -f "$HOST_CA_BUNDLE" ] || host_trust=(-v "$HOST_CA_BUNDLE:/etc/ssl/host-ca-bundle.crt:ro" -e PIP_CERT=/etc/ssl/host-ca-bundle.crt)
part python python "$PRELUDE"'
python3 -m venv /tmp/venv
. /tmp/venv/bin/activate
pip install -q --disable-pip-version-check --no-warn-script-location "/dist/$WHEEL" pytest h2
echo "installed: $(pip list --format freeze 2>/dev/null | grep -iE "^(apns-mock|httpx|h2|pyyaml|cryptography|pytest)==" | tr "\n" " ")"
[ "$(command -v apns-mock)" = /tmp/venv/bin/apns-mock ] || { echo "apns-mock on PATH: $(command -v apns-mock)"; exit 1; }
python --version
pytest -v --tb=short -p no:cacheprovider test_wheel.py' '[0-9]+ passed' "${host_trust[@]}"

part node node "$PRELUDE"'
echo "node $(node --version), npm $(npm --version)"
npm install --offline --no-audit --no-fund "/dist/$TARBALL"
node --test push.test.mjs' '^# pass'

part java java "$PRELUDE"'
J=/usr/share/java
runtime="/dist/$JAR:$J/jackson-databind.jar:$J/jackson-core.jar:$J/jackson-annotations.jar"
javac -d classes -cp "$runtime:$J/junit-jupiter-api.jar:$J/apiguardian-api.jar:$J/opentest4j.jar:$J/junit-platform-commons.jar" PushTest.java
java -version 2>&1 | head -n 1
XDG_CACHE_HOME=/work/cache java -jar "$J/junit-platform-console-standalone.jar" -cp "classes:$runtime" \
    --select-class PushTest --disable-banner --details=tree --fail-if-no-tests' 'tests successful'

part go go "$PRELUDE"'
install -m 0755 /dist/apns-mock /usr/local/bin/apns-mock
go version
export GOPROXY=file:///dist/goproxy GONOSUMDB="$GO_MODULE" GOFLAGS=-modcacherw
go get "$GO_MODULE@$GO_VERSION"
go mod tidy
grep -F "$GO_MODULE $GO_VERSION" go.mod
go test -count=1 -v ./...' '^ok '

say "summary:"
printf '    %s\n' "${results[@]}"
[ "$failed" = 0 ] || fail "a package did not work as a team without Swift would use it"
say "passed"
