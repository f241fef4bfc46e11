#!/usr/bin/env bash
# Runs the tests of the client libraries against an apns-mock binary:
#   the Python package (clients/python): its tests, then again with 4 pytest-xdist workers sharing
#   one server, with the example file; the Node module (clients/node): node --test; the Go module
#   (clients/go): go test; the Java library (clients/java): its test.sh (javac + JUnit's console
#   launcher, offline). Go and Java are skipped with a message when absent unless APNS_MOCK_E2E_REQUIRED=1.
# Installs what it needs: a virtual environment in clients/python/.venv with `pip install -e ".[test]"`
# (skipped when pyproject.toml has not changed since the last install).
#
#   APNS_MOCK_BIN=/path/to/apns-mock clients/run-tests.sh
#   clients/run-tests.sh --install-only    (only the install; make test runs it beside its first build)
#
# APNS_MOCK_BIN defaults to dist/apns-mock (the release build) when it exists; other build trees
# may be older than the sources, so name them explicitly. PYTHON picks the interpreter for the venv
# (python3). Exits non-zero when any part fails; prints how long each part took.
set -uo pipefail

CLIENTS=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$CLIENTS")
install_only=0
[ "${1:-}" = --install-only ] && install_only=1
install_python() {
  cd "$CLIENTS/python" || return 1
  local stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
  if [ ! -x .venv/bin/python ]; then "${PYTHON:-python3}" -m venv .venv || return 1; fi
  if [ ! -e "$stamp" ]; then
    .venv/bin/pip install -q --disable-pip-version-check -e ".[test]" || return 1
    rm -f .venv/.installed-* && touch "$stamp"
  fi
}
if ((install_only)); then
  install_python
  exit
fi

if [ -z "${APNS_MOCK_BIN:-}" ]; then
  if [ -x "$ROOT/dist/apns-mock" ]; then APNS_MOCK_BIN=$ROOT/dist/apns-mock; fi
fi
if [ -z "${APNS_MOCK_BIN:-}" ] || ! command -v "$APNS_MOCK_BIN" > /dev/null; then
  echo "run-tests.sh: no apns-mock binary: set APNS_MOCK_BIN (${APNS_MOCK_BIN:-unset})" >&2
  exit 2
fi
APNS_MOCK_BIN=$(command -v "$APNS_MOCK_BIN")
case "$APNS_MOCK_BIN" in /*) ;; *) APNS_MOCK_BIN="$PWD/$APNS_MOCK_BIN" ;; esac
export APNS_MOCK_BIN
# An AddressSanitizer build would report leaks at exit; they are not what these tests look at.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
# A server the caller runs must not replace the ones these tests start.
unset APNS_MOCK_ADMIN_URL

failures=()
START_ALL=$(date +%s.%N)
part() {  # part NAME COMMAND...: runs it, prints its time, remembers a failure
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  echo "=== $name"
  "$@"
  local status=$?
  end=$(date +%s.%N)
  printf '=== %s: %s in %s s\n' "$name" "$([ $status -eq 0 ] && echo passed || echo "FAILED (exit $status)")" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
  [ $status -eq 0 ] || failures+=("$name")
  return $status
}

echo "apns-mock: $APNS_MOCK_BIN"
if part "python: install" install_python; then
  cd "$CLIENTS/python"
  part "python: pytest" .venv/bin/python -m pytest -q -p no:cacheprovider tests examples
  part "python: pytest -n 4 (one server, 4 workers)" .venv/bin/python -m pytest -q -p no:cacheprovider -n 4 tests examples
fi
cd "$CLIENTS/node"
part "node: node --test" node --test test/*.test.mjs
# -count=1: go test would otherwise answer a cached pass for an apns-mock rebuilt at the same path.
if command -v go > /dev/null; then
  cd "$CLIENTS/go"
  part "go: go test" go test -count=1 ./...
elif [ "${APNS_MOCK_E2E_REQUIRED:-}" = 1 ]; then
  echo "=== go: go test: FAILED (no go on PATH, and APNS_MOCK_E2E_REQUIRED=1)"
  failures+=("go: go test (no go)")
else
  echo "=== go: go test: skipped: no go on PATH (APNS_MOCK_E2E_REQUIRED=1 makes that a failure)"
fi
if command -v javac > /dev/null; then
  part "java: clients/java/test.sh" "$CLIENTS/java/test.sh"
elif [ "${APNS_MOCK_E2E_REQUIRED:-}" = 1 ]; then
  echo "=== java: javac not found and APNS_MOCK_E2E_REQUIRED=1: install a JDK 17 or later" >&2
  failures+=("java: no javac")
else
  echo "=== java: skipped (no javac; APNS_MOCK_E2E_REQUIRED=1 makes this a failure)"
fi

END_ALL=$(date +%s.%N)
printf '=== all: %s s\n' "$(awk -v a="$START_ALL" -v b="$END_ALL" 'BEGIN { printf "%.1f", b - a }')"
if [ ${#failures[@]} -gt 0 ]; then
  printf '=== failed: %s\n' "${failures[@]}"
  exit 1
fi
