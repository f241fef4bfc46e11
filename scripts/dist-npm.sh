#!/usr/bin/env bash
# Builds the npm package of clients/node with the apns-mock binary in it.
#
#   scripts/dist-npm.sh --binary dist/apns-mock --out DIR
#
# Writes DIR/apns-mock-VERSION.tgz (npm pack) and prints its path. The package is clients/node's
# files with the binary at bin/<platform>-<arch>/apns-mock (bin/linux-x64/apns-mock for an x86-64
# Linux binary, as Node names them: process.platform-process.arch), read from the binary's ELF
# header. package.json's "bin" runs bin/apns-mock.mjs, so `npx apns-mock` runs it; startMock()
# finds it with no path given (findBinary: {binary}, $APNS_MOCK_BIN, the packaged binary, PATH).
# On another platform the package installs but startMock, with no binary given, throws an error
# naming the platform and linux-x64 (as esbuild's does; esbuild ships one package per platform,
# here one platform is built). It has no dependencies: `npm install ./apns-mock-VERSION.tgz`
# works offline.
#
# VERSION is the project's (Sources/APNSMock/APNSMockVersion.swift); the script refuses to build
# when clients/python or clients/node states another (scripts/project_version.py --check).
# Needs bash, python3, npm, od.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: scripts/dist-npm.sh --binary PATH --out DIR" >&2; exit 2; }
binary="" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=${2:-}; shift 2 || usage ;;
    --out) out=${2:-}; shift 2 || usage ;;
    *) usage ;;
  esac
done
[ -n "$binary" ] && [ -n "$out" ] || usage
fail() { echo "dist-npm: $*" >&2; exit 1; }

[ -f "$binary" ] && [ -x "$binary" ] || fail "$binary is not an executable file"
python3 "$ROOT/scripts/project_version.py" --check || fail "the packages' versions differ from the project's"
version=$(python3 "$ROOT/scripts/project_version.py")

# The ELF header: magic, class (2 = 64-bit), data (1 = little-endian), e_machine at byte 18.
[ "$(od -An -c -N4 "$binary" | tr -d ' ')" = '177ELF' ] || fail "$binary is not an ELF executable"
machine=$(od -An -tu2 -j18 -N2 --endian=little "$binary" | tr -d ' ')
case "$machine" in
  62) platform=linux-x64 ;;
  183) platform=linux-arm64 ;;
  *) fail "$binary: ELF machine $machine is not x86-64 or aarch64" ;;
esac

stage=$(mktemp -d "${TMPDIR:-/tmp}/apns-mock-npm-XXXXXX")
trap 'rm -rf "$stage"' EXIT
# package.json's "files" says what npm pack takes; copy the package without its tests.
tar -C "$ROOT/clients/node" --exclude=./test --exclude=./node_modules --exclude=./bin/linux-* \
  --exclude=./bin/darwin-* --exclude=./bin/win32-* -cf - . | tar -C "$stage" -xf -
install -D -m 0755 "$binary" "$stage/bin/$platform/apns-mock"

mkdir -p "$out"
out=$(cd "$out" && pwd)
name=$(cd "$stage" && npm pack --ignore-scripts --offline --silent --pack-destination "$out")
[ "$name" = "apns-mock-$version.tgz" ] || fail "npm pack wrote $name, not apns-mock-$version.tgz"
echo "dist-npm: $binary as bin/$platform/apns-mock" >&2
echo "$out/$name"
