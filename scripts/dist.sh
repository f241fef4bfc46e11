#!/usr/bin/env bash
# make dist: what a release publishes, written into dist/ from dist/apns-mock (make release-static builds it).
#
#   dist/apns-mock                                        the binary: needs only glibc (checked here)
#   dist/apns_mock-VERSION-py3-none-manylinux_2_NN_x86_64.whl   the Python package with the binary
#   dist/apns-mock-VERSION.tgz                            the npm package with the binary
#   dist/apns-mock-VERSION.jar                            the Java library with the binary
#   dist/goproxy/                                         the Go module (clients/go) as a module proxy serves it:
#                                                         GOPROXY=file://$PWD/dist/goproxy go get …@vVERSION
#   dist/SHA256SUMS                                       sha256sum -c dist/SHA256SUMS checks them
#
# Fails when the binary needs a library other than glibc's, is larger than MAX_BINARY_MIB (45), or does not print
# its version and commit. Prints each artifact's size and the time each step took.
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_BINARY_MIB=${MAX_BINARY_MIB:-45}
BINARY=dist/apns-mock
started=$(date +%s)
say() { printf '[dist %3ds] %s\n' "$(( $(date +%s) - started ))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }
[ -x "$BINARY" ] || fail "$BINARY is missing: make release-static writes it"
version=$(python3 scripts/project_version.py)
python3 scripts/project_version.py --check || fail "the clients' versions differ from the project's ($version)"

# ---- the binary ------------------------------------------------------------------------------------------------
needed=$(objdump -p "$BINARY" | awk '$1 == "NEEDED" { print $2 }' | sort | tr '\n' ' ')
for library in $needed; do
    case "$library" in
        libc.so.6 | libm.so.6 | ld-linux-x86-64.so.2 | ld-linux-aarch64.so.1 | libstdc++.so.6 | libgcc_s.so.1) ;;
        libdl.so.2 | libpthread.so.0 | librt.so.1) ;;  # glibc's own (empty since 2.34, still named by some objects)
        *) fail "$BINARY needs $library; it may need only glibc (NEEDED: $needed)" ;;
    esac
done
# ICU's data (34 MB, named icudtNNl inside) comes with swift-corelibs-foundation; no feature of apns-mock needs it,
# and one `import Foundation` API (localizedDescription, NSRegularExpression, DateFormatter) would bring it back.
! grep -q icudt "$BINARY" || fail "$BINARY carries ICU's data: something links swift-corelibs-foundation (see docs/DESIGN.md)"
glibc=$(objdump -T "$BINARY" | grep -oE 'GLIBC_2\.[0-9]+' | sort -t. -k2 -n -u | tail -n 1)
size=$(stat -c %s "$BINARY")
[ "$size" -le $(( MAX_BINARY_MIB * 1024 * 1024 )) ] \
    || fail "$BINARY is $size bytes ($(( size / 1024 / 1024 )) MiB), more than $MAX_BINARY_MIB MiB"
printed=$("$BINARY" --version)
[[ "$printed" =~ ^$version\ \(commit\ [0-9a-f]{12}(-dirty)?\)$ ]] || fail "--version printed '$printed'"
say "binary: $size bytes ($(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }') MiB), needs $needed(at most $glibc), prints '$printed'"

# ---- the packages ----------------------------------------------------------------------------------------------
rm -rf dist/goproxy dist/*.whl dist/*.tgz dist/*.jar dist/SHA256SUMS
python3 scripts/dist-python-wheel.py --binary "$BINARY" --out dist >/dev/null
wheel=$(cd dist && ls apns_mock-*.whl)
# auditwheel (PyPI, in a venv of its own) judges the platform tag from what the binary needs.
AUDIT_VENV=${AUDIT_VENV:-.venv-dist}
[ -x "$AUDIT_VENV/bin/auditwheel" ] || { python3 -m venv "$AUDIT_VENV" && "$AUDIT_VENV/bin/pip" install -q auditwheel; }
audit=$("$AUDIT_VENV/bin/auditwheel" show "dist/$wheel")
tag=$(sed -E 's/.*-py3-none-(.*)\.whl/\1/' <<<"$wheel")
grep -q "consistent with the following platform tag: \"$tag\"" <<<"$audit" \
    || grep -q "$tag" <<<"$(tr -d '\n' <<<"$audit" | tr -s ' ')" \
    || fail "auditwheel does not find $wheel consistent with $tag: $audit"
say "wheel: $wheel (auditwheel: consistent with $tag)"
scripts/dist-npm.sh --binary "$BINARY" --out dist >/dev/null
say "npm: $(cd dist && ls apns-mock-*.tgz)"
clients/java/build.sh --binary "$BINARY" --version "$version" --out dist >/dev/null
say "jar: $(cd dist && ls apns-mock-*.jar)"
python3 scripts/dist-go-module.py --version "$version" --out dist/goproxy
say "go: dist/goproxy (module $(awk '$1 == "module" { print $2 }' clients/go/go.mod) v$version)"

(cd dist && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | sort | xargs sha256sum >SHA256SUMS)
say "dist/SHA256SUMS: $(wc -l <dist/SHA256SUMS) files"
ls -l dist | awk 'NR > 1 { printf "  %12s  %s\n", $5, $9 }'
