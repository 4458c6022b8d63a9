#!/usr/bin/env bash
# acceptance.sh BIN — runs ../shared/acceptance/kubectl-core.sh against BIN when ../shared is
# present; every check must pass. Exits 77 (skipped) without ../shared.
bin=${1:?usage: acceptance.sh path/to/kube-apiserver-lite}
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../../shared/acceptance/kubectl-core.sh
if [ ! -f "$script" ]; then
  echo "skipped: $script not present"
  exit 77
fi
bash "$script" "$bin"
