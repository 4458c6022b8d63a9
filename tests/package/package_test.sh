#!/usr/bin/env bash
# Packaging cannot rot: installs the build tree's package into a temporary prefix with
# `cmake --install`, then configures, builds and runs examples/embedded against it as a separate
# project (find_package(kube-apiserver-lite CONFIG REQUIRED)).
# Usage: package_test.sh BUILD_DIR SOURCE_DIR [C++ compiler launcher]
set -eu
build=$1 src=$2 launcher=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
# Only the public headers are installed.
headers=$(cd "$work/prefix/include" && find . -type f | sort | xargs)
[ "$headers" = "./kube_apiserver_lite/server.h" ] || { echo "FAIL installed headers: $headers"; exit 1; }
test -f "$work/prefix/lib/libkube-apiserver-lite.a"
test -f "$work/prefix/lib/cmake/kube-apiserver-lite/kube-apiserver-liteConfig.cmake"
test -f "$work/prefix/lib/cmake/kube-apiserver-lite/kube-apiserver-liteConfigVersion.cmake"

args=(-S "$src/examples/embedded" -B "$work/example" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
      -DCMAKE_PREFIX_PATH="$work/prefix" -DFLEET_TESTDATA_DIR="$src/testdata")
[ -n "$launcher" ] && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
cmake "${args[@]}" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/example" >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; exit 1; }
"$work/example/fleet_test"
