#!/usr/bin/env bash
# Builds the Java library of apns-mock offline, with javac and jar (no Maven, nothing downloaded):
#
#   clients/java/build.sh [--binary PATH] [--platform P] [--version V] [--out DIR]
#
# writes DIR/apns-mock-V.jar (DIR: clients/java/build). V defaults to the release in
# Sources/APNSMock/APNSMockVersion.swift. With --binary, the jar carries that apns-mock binary as
# apnsmock/native/<P>/apns-mock with its SHA-256 beside it, extracted once per user at start (see
# ApnsMockBinary); P is read from the binary's ELF or Mach-O header (linux-x86_64, linux-aarch64,
# macos-x86_64, macos-aarch64) unless given.
#
# Compiles against Debian's jars in /usr/share/java (Jackson; JUnit 5's API for ApnsMockExtension),
# or those JAVA_LIBS names (a directory). The jar declares them in META-INF/maven/…/pom.xml and does
# not bundle them. Prints what it wrote and how long it took.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LIBS=${JAVA_LIBS:-/usr/share/java}
GROUP_ID=apnsmock
ARTIFACT_ID=apns-mock

binary="" platform="" version="" out="$HERE/build"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=$2; shift 2 ;;
    --platform) platform=$2; shift 2 ;;
    --version) version=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build.sh: unknown argument $1 (build.sh --help)" >&2; exit 2 ;;
  esac
done

start=$(date +%s.%N)
if [ -z "$version" ]; then
  version=$(sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' "$ROOT/Sources/APNSMock/APNSMockVersion.swift")
  [ -n "$version" ] || { echo "build.sh: no version in Sources/APNSMock/APNSMockVersion.swift: pass --version" >&2; exit 1; }
fi

jar_of() {  # jar_of NAME: the versioned jar a Debian symlink NAME.jar points to
  local path
  path=$(readlink -f "$LIBS/$1.jar") || true
  [ -f "$path" ] || { echo "build.sh: $LIBS/$1.jar not found (Debian: apt-get install libjackson2-databind-java junit5)" >&2; exit 1; }
  echo "$path"
}
version_of() {  # version_of NAME: 2.14.0 for NAME.jar, from the NAME-2.14.0.jar beside it (or it links to)
  local version
  version=$(basename "$(readlink -f "$LIBS/$1.jar")" .jar | sed -n "s/^$1-\([0-9][0-9A-Za-z.-]*\)$/\1/p")
  [ -n "$version" ] || version=$(ls "$LIBS" | sed -n "s/^$1-\([0-9][0-9A-Za-z.-]*\)\.jar$/\1/p" | sort -V | tail -1)
  [ -n "$version" ] || { echo "build.sh: no version of $1 in $LIBS (no $1-<version>.jar)" >&2; exit 1; }
  echo "$version"
}
JACKSON_DATABIND=$(jar_of jackson-databind)
JACKSON_CORE=$(jar_of jackson-core)
JACKSON_ANNOTATIONS=$(jar_of jackson-annotations)
JUNIT_API=$(jar_of junit-jupiter-api)
JACKSON_VERSION=$(version_of jackson-databind)
JUNIT_VERSION=$(version_of junit-jupiter-api)
classpath="$JACKSON_DATABIND:$JACKSON_CORE:$JACKSON_ANNOTATIONS:$JUNIT_API"
for optional in apiguardian-api opentest4j junit-platform-commons; do  # the API's own annotations and types
  [ -f "$LIBS/$optional.jar" ] && classpath="$classpath:$LIBS/$optional.jar"
done

if [ -n "$binary" ]; then
  [ -f "$binary" ] && [ -x "$binary" ] || { echo "build.sh: --binary $binary is not an executable file" >&2; exit 1; }
  if [ -z "$platform" ]; then
    header=$(od -An -tx1 -N20 "$binary" | tr -d ' \n')
    case "$header" in
      7f454c46*) case "${header:36:4}" in  # ELF e_machine, little-endian
                   3e00) platform=linux-x86_64 ;;
                   b700) platform=linux-aarch64 ;;
                 esac ;;
      cffaedfe*) case "${header:8:8}" in  # Mach-O cputype, little-endian
                   07000001) platform=macos-x86_64 ;;
                   0c000001) platform=macos-aarch64 ;;
                 esac ;;
    esac
    [ -n "$platform" ] || { echo "build.sh: cannot tell the platform of $binary: pass --platform (e.g. linux-x86_64)" >&2; exit 1; }
  fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/apns-mock-java-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
classes="$work/classes"
mkdir -p "$classes/apnsmock" "$out"

find "$HERE/src/main/java" -name '*.java' | LC_ALL=C sort > "$work/sources"
javac --release 17 -encoding UTF-8 -Xlint:all,-serial -Werror -d "$classes" -cp "$classpath" @"$work/sources"

printf 'version=%s\n' "$version" > "$classes/apnsmock/version.properties"

maven="$classes/META-INF/maven/$GROUP_ID/$ARTIFACT_ID"
mkdir -p "$maven"
cat > "$maven/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>$GROUP_ID</groupId>
  <artifactId>$ARTIFACT_ID</artifactId>
  <version>$version</version>
  <packaging>jar</packaging>
  <name>apns-mock</name>
  <description>Runs apns-mock, a mock Apple Push Notification service, in tests: process runner, admin client, provider tokens, JUnit 5 extension</description>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.fasterxml.jackson.core</groupId>
      <artifactId>jackson-databind</artifactId>
      <version>$JACKSON_VERSION</version>
    </dependency>
    <dependency>
      <!-- ApnsMockExtension only: a test that uses it has JUnit 5 already -->
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter-api</artifactId>
      <version>$JUNIT_VERSION</version>
      <scope>provided</scope>
      <optional>true</optional>
    </dependency>
  </dependencies>
</project>
POM
printf 'groupId=%s\nartifactId=%s\nversion=%s\n' "$GROUP_ID" "$ARTIFACT_ID" "$version" > "$maven/pom.properties"

if [ -n "$binary" ]; then
  native="$classes/apnsmock/native/$platform"
  mkdir -p "$native"
  cp "$binary" "$native/apns-mock"
  (cd "$native" && sha256sum apns-mock > apns-mock.sha256)
  echo "$platform" > "$classes/apnsmock/native/platforms"
fi

cat > "$work/manifest" <<MANIFEST
Automatic-Module-Name: apnsmock
Implementation-Title: apns-mock
Implementation-Version: $version
MANIFEST

jar="$out/$ARTIFACT_ID-$version.jar"
rm -f "$jar"
# A fixed date for every entry: the same sources give the same jar.
jar --create --file "$jar" --manifest "$work/manifest" --date 2000-01-01T00:00:02Z -C "$classes" .

end=$(date +%s.%N)
printf 'build.sh: wrote %s (%s%s) in %s s\n' "$jar" "$(du -h "$jar" | cut -f1)" \
  "${binary:+, with $binary for $platform}" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
