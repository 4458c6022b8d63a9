#!/usr/bin/env bash
# acceptance_envtest.sh ASSETS — runs ../shared/acceptance/envtest-contract.sh against ASSETS
# (build/envtest: kube-apiserver and etcd) when ../shared is present; every check must pass.
# Exits 77 (skipped) without ../shared, and while this build has no RBAC authorizer: envtest
# starts kube-apiserver with --authorization-mode=RBAC, which then refuses to start.
assets=${1:?usage: acceptance_envtest.sh path/to/envtest-assets}
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../../shared/acceptance/envtest-contract.sh
if [ ! -f "$script" ]; then
  echo "skipped: $script not present"
  exit 77
fi
probe=$(mktemp)
"$assets/kube-apiserver" --authorization-mode=RBAC --port 0 >"$probe" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  grep -q '^ready: ' "$probe" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -TERM "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
if grep -q 'RBAC is not available' "$probe"; then
  echo "skipped: $(grep 'RBAC is not available' "$probe")"
  rm -f "$probe"
  exit 77
fi
rm -f "$probe"
KUBECTL=${KUBECTL:-$(command -v kubectl)} bash "$script" "$assets"
