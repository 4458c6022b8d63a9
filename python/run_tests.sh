#!/usr/bin/env bash
# The Python suite (python/tests) against BUILD_DIR's kube-apiserver-lite (BUILD_DIR/envtest):
# a venv at BUILD_DIR/python-venv with the pinned test dependencies (made again when
# requirements-test.txt or python3 changes), the plugin installed from this checkout on every run
# (built from a copy, so nothing is written into python/), then pytest. Exit code: pytest's.
# Usage: python/run_tests.sh BUILD_DIR [pytest args...]     (PYTHON=python3.12 picks the interpreter)
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [pytest args...]" >&2
  exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
mkdir -p "$1"
build="$(cd "$1" && pwd)"
shift
venv="$build/python-venv"
python="${PYTHON:-python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  echo "run_tests.sh: the pinned test dependencies need Python >= 3.10; $python is $("$python" -V 2>&1)" >&2
  exit 1
fi

# python3 -m venv needs ensurepip, which Debian ships apart (python3-venv): install it as the
# Makefile installs its packages (as root, or through sudo).
make_venv() {
  if "$python" -m venv "$venv" >/dev/null 2>&1; then return 0; fi
  rm -rf "$venv"
  if command -v apt-get >/dev/null 2>&1; then
    echo "run_tests.sh: $python -m venv failed; installing python3-venv" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
  fi
  "$python" -m venv "$venv"
}

key="$({ cat "$here/requirements-test.txt"; "$python" -c 'import sys; print(sys.executable, sys.version)'; } |
  sha256sum | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.requirements-key" 2>/dev/null || true)" != "$key" ]; then
  echo "run_tests.sh: creating $venv" >&2
  rm -rf "$venv"
  make_venv
  "$venv/bin/python" -m pip install -q -r "$here/requirements-test.txt"
  echo "$key" >"$venv/.requirements-key"  # only once complete: a failed install is redone next run
fi

# Install the checkout's plugin (not editable: the tests use it through its pytest11 entry point).
# setuptools writes build/ and *.egg-info next to the sources, so it builds a copy.
src="$(mktemp -d)"
trap 'rm -rf "$src"' EXIT
cp -R "$here/pyproject.toml" "$here/README.md" "$here/kube_apiserver_lite" "$src/"
find "$src" -name __pycache__ -prune -exec rm -rf {} +
"$venv/bin/python" -m pip install -q --no-deps --force-reinstall "$src"
"$venv/bin/python" -m pip check >/dev/null || { "$venv/bin/python" -m pip check >&2; exit 1; }

cd "$repo"
unset KUBE_APISERVER_LITE
export KUBEBUILDER_ASSETS="$build/envtest"
set +e
"$venv/bin/python" -m pytest -q python/tests -p no:cacheprovider "$@"
exit $?
