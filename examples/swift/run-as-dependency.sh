#!/usr/bin/env bash
# Runs the Swift example as another team's package would: apns-mock as a dependency required by
# version, fetched over git. The current checkout (committed or not, ignored files left out) is
# copied into a temporary git repository tagged with APNSMockVersion.current; the example is
# copied beside it and `swift test` runs with APNS_MOCK_PACKAGE_URL naming that repository.
# Nothing is built with the repository's own flags: the example compiles apns-mock as a
# dependency, from scratch (a few minutes).
#
# EXAMPLE_SCRATCH (a build directory) and EXAMPLE_BUILD_FLAGS (swift build flags) build it there
# with those flags instead: make test points them at its instrumented tree, whose dependencies
# (swift-nio, swift-crypto, Hummingbird, …) are compiled already with the same flags, so only
# apns-mock and the example are compiled (apns-mock from the tagged copy, as a dependency).
#
# --resolve-only (make test) stops before the build: the example resolves apns-mock by its tag and loads
# the package graph (swift package show-dependencies): the manifest evaluates as a dependency's, and
# the product the example names is there. make test compiles and runs the example's code itself, as
# targets of apns-mock's own package (Package.swift), which saved 3.5 minutes of CI.
# Without it (make test-long) the example is built and tested as a dependency, as above.
#
# usage: examples/swift/run-as-dependency.sh [--resolve-only]   (from anywhere)
set -euo pipefail
resolve_only=0
[[ ${1:-} == --resolve-only ]] && resolve_only=1
repo=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$repo/Sources/APNSMock/APNSMockVersion.swift")
[[ -n $version ]] || { echo "run-as-dependency: no version in Sources/APNSMock/APNSMockVersion.swift" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The dependency: this checkout as a git repository with a version tag.
mkdir "$work/apns-mock"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [[ -e $f && $f != examples/swift/* ]] && printf '%s\0' "$f"; done |
  tar --null -T - -cf -) | tar -C "$work/apns-mock" -xf -
git -C "$work/apns-mock" init -q
git -C "$work/apns-mock" add -A
git -C "$work/apns-mock" -c user.name=ci -c user.email=ci@localhost commit -qm "apns-mock $version"
git -C "$work/apns-mock" tag "$version"

# The consumer: the example package, as committed (its .build left out).
mkdir "$work/consumer"
(cd "$repo/examples/swift" && tar --exclude=.build --exclude=Package.resolved -cf - .) | tar -C "$work/consumer" -xf -

cd "$work/consumer"
if ((resolve_only)); then
    echo "examples/swift: resolving apns-mock $version from file://$work/apns-mock and loading the package graph"
    APNS_MOCK_PACKAGE_URL="file://$work/apns-mock" swift package --scratch-path "$work/scratch" show-dependencies \
        >"$work/graph.txt"
    grep -q "apns-mock<[^>]*/apns-mock@$version>" "$work/graph.txt" || {
        echo "run-as-dependency: the graph does not show apns-mock at $version:" >&2
        cat "$work/graph.txt" >&2
        exit 1
    }
elif [[ -n ${EXAMPLE_SCRATCH:-} ]]; then
    echo "examples/swift: swift test against apns-mock $version from file://$work/apns-mock"
    # shellcheck disable=SC2086 # the flags are words
    APNS_MOCK_PACKAGE_URL="file://$work/apns-mock" swift test --disable-xctest --scratch-path "$EXAMPLE_SCRATCH" \
        ${EXAMPLE_BUILD_FLAGS:-}
else
    echo "examples/swift: swift test against apns-mock $version from file://$work/apns-mock"
    # Without debug info (-gnone, -g0), which the example does not need: the build is about 10 % shorter.
    APNS_MOCK_PACKAGE_URL="file://$work/apns-mock" swift test --disable-xctest -Xswiftc -gnone -Xcc -g0
fi
grep -q "revision\|version" Package.resolved
# The dependency resolved to the tag, not a branch or a path.
python3 - "$version" <<'PY'
import json, sys
pins = json.load(open("Package.resolved"))["pins"]
pin = next(p for p in pins if p["identity"] == "apns-mock")
assert pin["state"].get("version") == sys.argv[1], pin
print(f"apns-mock resolved to version {pin['state']['version']} ({pin['location']})")
PY
