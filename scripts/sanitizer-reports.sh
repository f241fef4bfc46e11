#!/usr/bin/env bash
# Fails when a process that `make test-asan` or `make test-tsan` ran wrote a sanitizer report:
# their ASAN_OPTIONS / TSAN_OPTIONS log_path put each process's report in DIR/report.<pid>
# (AddressSanitizer and LeakSanitizer for the apns-mock processes the tests start,
# ThreadSanitizer for the test runner and those processes alike).
# usage: scripts/sanitizer-reports.sh DIR NAME
set -euo pipefail
dir=${1:?usage: scripts/sanitizer-reports.sh DIR NAME}
name=${2:-sanitizer}
shopt -s nullglob
reports=("$dir"/report.*)
if ((${#reports[@]} == 0)); then
  echo "$name: no report from any process checked"
  exit 0
fi
for report in "${reports[@]}"; do
  echo "== $report"
  head -n 80 "$report"
done
echo "$name: ${#reports[@]} process(es) wrote a report (above)" >&2
exit 1
