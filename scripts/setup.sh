#!/usr/bin/env bash
# Installs the Debian packages pkb needs (only the missing ones; quiet when all are present) and
# builds pkb into build/: the pkb program and what it starts (pkb-torch, pkb-worker, pkb-nvrtc),
# not the tests (scripts/test.sh builds those). Needs the CUDA toolkit (NVRTC, cuBLAS; NCCL if
# present) from NVIDIA. About 5 minutes of building on 2 cores, with ninja's progress line.
# The test-only packages (GoogleTest, python3-torch, chromium, ...) come with PKB_WITH_TESTS=1.
#   scripts/setup.sh            install what is missing, configure, build
#   PKB_BUILD_DIR=dir PKB_BUILD_TYPE=Debug scripts/setup.sh
#   PKB_BUILD_TARGETS="all" scripts/setup.sh    build every target (the tests too)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config
          libtorch-dev
          nlohmann-json3-dev libcli11-dev libspdlog-dev libcurl4-openssl-dev)
# Only for the tests and benchmarks: installed, and the tests configured, when PKB_WITH_TESTS=1
# (scripts/test.sh, scripts/bench.sh) or the targets include "all"; the first command does without.
test_packages=(python3-torch  # the PyTorch references and gloo, for the parity tests
               libgtest-dev libbenchmark-dev libcpp-httplib-dev
               chromium       # the leaderboard page rendered headless in the tests
               pybind11-dev)  # pybind11: only scripts/bench-compile.sh (a torch extension build)
with_tests=${PKB_WITH_TESTS:-0}
case " ${PKB_BUILD_TARGETS:-pkb} " in *" all "*) with_tests=1 ;; esac
if [ "$with_tests" = 1 ]; then packages+=("${test_packages[@]}"); fi

find_cuda() {
  for candidate in "${CUDA_HOME:-}" /usr/local/cuda /usr/lib/cuda; do
    if [ -n "$candidate" ] && [ -x "$candidate/bin/nvcc" ]; then echo "$candidate"; return 0; fi
  done
  command -v nvcc >/dev/null 2>&1 && dirname "$(dirname "$(command -v nvcc)")" && return 0
  return 1
}

if ! cuda_root=$(find_cuda); then
  echo "setup: error: the CUDA toolkit was not found (no nvcc in \$CUDA_HOME, /usr/local/cuda or PATH);" >&2
  echo "setup: install it from NVIDIA (https://developer.nvidia.com/cuda-downloads), then run this again" >&2
  exit 1
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir=${PKB_BUILD_DIR:-build}
build_type=${PKB_BUILD_TYPE:-Release}
tests=OFF
if [ "$with_tests" = 1 ]; then tests=ON; fi
# Configured once; again only to add the tests to a build the first command configured without.
if [ ! -f "$build_dir/build.ninja" ] ||
   { [ "$tests" = ON ] && ! grep -q '^PKB_TESTS:BOOL=ON' "$build_dir/CMakeCache.txt"; }; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" -DPKB_TESTS="$tests" \
        -DCUDAToolkit_ROOT="$cuda_root" ${PKB_CMAKE_ARGS:-} >"$build_dir.configure.log" 2>&1 ||
    { cat "$build_dir.configure.log" >&2; exit 1; }
  rm -f "$build_dir.configure.log"
fi
# Targets the build defines (generate_bench needs cpp-httplib, for one); "all" builds everything.
targets=()
for target in ${PKB_BUILD_TARGETS:-pkb}; do
  if [ "$target" = all ] || grep -q "^build $target:" "$build_dir/build.ninja"; then targets+=("$target")
  else echo "setup: this build has no target $target: skipped" >&2; fi
done
cmake --build "$build_dir" -j "$(nproc)" --target "${targets[@]}"
