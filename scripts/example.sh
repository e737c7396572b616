#!/usr/bin/env bash
# Sets up hipport and converts the bundled example project, showing the result and statistics.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check -e .
out="${1:-build/example-hip}"
rm -rf "$out"
if [ -d examples/saxpy ] && python3 -m hipport convert --help >/dev/null 2>&1; then
  python3 -m hipport convert examples/saxpy -o "$out" --report "$out.report.json"
  echo
  echo "== translated sources in $out:"
  find "$out" -type f | sort
  first=$(find "$out" -name '*.cu' -o -name '*.hip' | sort | head -1)
  [ -n "$first" ] && { echo; echo "== $first"; cat "$first"; }
else
  mkdir -p "$out"
  python3 -m hipport translate tests/data/cuda/streams_events.cu --o-dir "$out" --print-stats
  cat "$out/streams_events.cu"
fi
