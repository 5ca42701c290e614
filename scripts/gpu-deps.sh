#!/usr/bin/env bash
# Run HERE (a Debian machine with apt), before scripts/gpu-check.sh: extracts the header-only and
# static dependencies that the GPU machine lacks (it has no package registry) into .deps/, which
# .git/info/exclude ignores and the device tool carries.
set -euo pipefail
cd "$(dirname "$0")/.."
grep -qx '/.deps/' .git/info/exclude 2>/dev/null || echo '/.deps/' >> .git/info/exclude
rm -rf .deps && mkdir -p .deps/debs
(cd .deps/debs && apt-get download nlohmann-json3-dev libcli11-dev libspdlog-dev libfmt-dev libgtest-dev >/dev/null)
for deb in .deps/debs/*.deb; do dpkg -x "$deb" .deps/root; done
rm -rf .deps/debs
du -sh .deps
