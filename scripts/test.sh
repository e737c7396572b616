#!/usr/bin/env bash
# Sets up everything the test suite needs on a fresh machine of this image, then runs it.
# Idempotent: already-installed packages are skipped quickly.
set -euo pipefail
cd "$(dirname "$0")/.."
DEB_PKGS="hipcc libamdhip64-dev rocm-device-libs libhiprand-dev libhipsparse-dev librocprim-dev librocrand-dev librocsparse-dev cmake make ninja-build"
missing=$(dpkg-query -W -f='${Status} ${Package}\n' $DEB_PKGS 2>/dev/null | grep -vc '^install ok installed' || true)
if ! dpkg-query -W $DEB_PKGS >/dev/null 2>&1 || [ "$missing" != "0" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $DEB_PKGS >/dev/null
fi
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -e '.[test]'
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore torch==2.13.0
if [ -w /usr/local/include ]; then python3 -m hipport runtime --install /usr/local/include >/dev/null; fi
export HIPPORT_REQUIRE_TOOLS=1
set +e
python3 -m pytest "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi
exit "$rc"
