#!/usr/bin/env bash
# Builds the Java library and runs its JUnit 5 tests (junit-platform-console-standalone), offline:
#
#   APNS_MOCK_BIN=/path/to/apns-mock clients/java/test.sh
#
# 1. build.sh --binary <$APNS_MOCK_BIN, else apns-mock on PATH> writes the jar, carrying that binary,
#    into a temporary directory; the tests compile against it.
# 2. Every test but the tag embedded-binary runs, the binary named by APNS_MOCK_BIN.
# 3. EmbeddedBinaryTest runs with APNS_MOCK_BIN unset and a new XDG_CACHE_HOME: the jar's binary is
#    extracted there, once.
#
# JAVA_LIBS names the directory of Debian's jars (/usr/share/java). Exits non-zero when a part
# fails; prints how long each took.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
LIBS=${JAVA_LIBS:-/usr/share/java}
CONSOLE="$LIBS/junit-platform-console-standalone.jar"
JACKSON="$LIBS/jackson-databind.jar:$LIBS/jackson-core.jar:$LIBS/jackson-annotations.jar"
command -v javac > /dev/null || { echo "test.sh: javac not found (a JDK 17 or later)" >&2; exit 1; }
for jar in "$CONSOLE" "$LIBS/jackson-databind.jar"; do
  [ -f "$jar" ] || { echo "test.sh: $jar not found (Debian: apt-get install junit5 libjackson2-databind-java)" >&2; exit 1; }
done

binary=${APNS_MOCK_BIN:-$(command -v apns-mock || true)}
if [ -z "$binary" ]; then
  echo "test.sh: no apns-mock binary: set APNS_MOCK_BIN or put apns-mock on PATH" >&2
  exit 2
fi
binary=$(readlink -f "$(command -v "$binary" || echo "$binary")")
export APNS_MOCK_BIN=$binary

work=$(mktemp -d "${TMPDIR:-/tmp}/apns-mock-java-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
step() {  # step NAME COMMAND...: runs it and prints its time
  local name=$1 start status
  shift
  start=$(date +%s.%N)
  echo "--- java: $name"
  "$@" && status=0 || status=$?
  echo "--- java: $name: $([ $status -eq 0 ] && echo ok || echo "FAILED (exit $status)") in $(elapsed "$start") s"
  return $status
}

echo "apns-mock: $binary"
# One jar, carrying the binary: the first run names the binary by APNS_MOCK_BIN (which comes first),
# the second unsets it, so the jar's copy is extracted and run.
step "build.sh --binary" "$HERE/build.sh" --binary "$binary" --out "$work/lib"
library=$(ls "$work"/lib/apns-mock-*.jar)

find "$HERE/src/test/java" -name '*.java' | LC_ALL=C sort > "$work/test-sources"
step "javac (tests)" javac --release 17 -encoding UTF-8 -Xlint:all -Werror -d "$work/test-classes" \
  -cp "$library:$JACKSON:$CONSOLE" @"$work/test-sources"

run_tests() {  # run_tests JUNIT_ARGS...
  java -jar "$CONSOLE" --disable-banner --disable-ansi-colors --details=tree --fail-if-no-tests \
    --class-path "$work/test-classes:$library:$JACKSON" --scan-class-path "$work/test-classes" "$@"
}
with_embedded_binary() (  # a subshell: APNS_MOCK_BIN unset, a new cache directory
  unset APNS_MOCK_BIN
  export XDG_CACHE_HOME="$work/cache"
  run_tests --include-tag embedded-binary
)
failed=0
step "junit (APNS_MOCK_BIN)" run_tests --exclude-tag embedded-binary || failed=1
step "junit (the jar's binary, APNS_MOCK_BIN unset)" with_embedded_binary || failed=1
exit $failed
