#!/bin/sh
# Regenerates the protobuf fixtures (*.bin) from the hand-written text-format messages
# (*.textproto) with protoc, an encoder independent of kube_protobuf. Run at test-data
# generation time only; the build and the tests use the committed .bin files.
#
#   apt-get install -y protobuf-compiler        # protoc 3.21 was used
#   src/protobuf/testdata/make_fixtures.sh [PROTO_ROOT]
#
# PROTO_ROOT (default ../shared/kubernetes-api/v1.36/proto relative to the repository root)
# holds the Kubernetes 1.36 generated.proto files (k8s.io/api/..., k8s.io/apimachinery/...,
# Apache-2.0). They are inputs only and are never copied into this repository.
# Each .bin is the object's own message (runtime.Unknown.raw); the tests add the envelope and
# compare the decoded result with the matching .json.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$here/../../../../shared/kubernetes-api/v1.36/proto}
encode() {  # name message proto-file
  protoc --encode="$2" -I "$root" "$3" < "$here/$1.textproto" > "$here/$1.bin"
}
core=k8s.io/api/core/v1/generated.proto
encode configmap k8s.io.api.core.v1.ConfigMap $core
encode secret k8s.io.api.core.v1.Secret $core
encode pod k8s.io.api.core.v1.Pod $core
encode service k8s.io.api.core.v1.Service $core
encode deployment k8s.io.api.apps.v1.Deployment k8s.io/api/apps/v1/generated.proto
encode lease k8s.io.api.coordination.v1.Lease k8s.io/api/coordination/v1/generated.proto
encode event k8s.io.api.events.v1.Event k8s.io/api/events/v1/generated.proto
encode status k8s.io.apimachinery.pkg.apis.meta.v1.Status \
  k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto
encode sar k8s.io.api.authorization.v1.SubjectAccessReview \
  k8s.io/api/authorization/v1/generated.proto
echo "fixtures written to $here"
