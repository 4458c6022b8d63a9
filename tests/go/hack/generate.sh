#!/usr/bin/env bash
# Regenerates the deepcopy functions, the CRD manifests and the RBAC role of the WebApp operator with a pinned
# controller-gen. The output is committed; run this after changing api/ or the +kubebuilder markers.
set -euo pipefail

CONTROLLER_TOOLS_VERSION="${CONTROLLER_TOOLS_VERSION:-v0.21.0}"   # the controller-tools release on k8s.io v0.36
cd "$(dirname "$0")/.."

controller_gen() {
  go run "sigs.k8s.io/controller-tools/cmd/controller-gen@${CONTROLLER_TOOLS_VERSION}" "$@"
}

controller_gen object:headerFile=hack/boilerplate.go.txt paths=./api/...
controller_gen crd paths=./api/... output:crd:artifacts:config=config/crd/bases
controller_gen rbac:roleName=webapp-manager-role paths=./internal/controller/... output:rbac:artifacts:config=config/rbac
gofmt -l api | (! grep .) || { echo "generated code is not gofmt'd" >&2; exit 1; }
