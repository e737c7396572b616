#!/usr/bin/env bash
# Sets up hipport and converts the bundled example project (examples/saxpy), then shows what
# changed and the statistics.  Usage: scripts/example.sh [OUTPUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -e .
# the runtime shim's headers where compilers look without -I, when this user may write there
if [ -w /usr/local/include ]; then python3 -m hipport runtime --install /usr/local/include >/dev/null; fi
out="${1:-build/example-hip}"
rm -rf "$out"
python3 -m hipport convert examples/saxpy -o "$out" --report "$out.report.html"
echo
echo "== what the conversion changed (diff of examples/saxpy against $out):"
diff -ru -x .hipport-cache.json examples/saxpy "$out" || true
echo
echo "== the report a person can open: $out.report.html"
echo "== build it for an AMD GPU: cmake -S $out -B $out/build -DCMAKE_HIP_ARCHITECTURES=gfx90a \\"
echo "       -DCMAKE_TOOLCHAIN_FILE=\$(hipport cmake-dir --toolchain)   # toolchain only needed on Debian's ROCm"
