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
# Kinds of protobuf_kinds_test.cc.
apps=k8s.io/api/apps/v1/generated.proto
encode node k8s.io.api.core.v1.Node $core
encode pvc k8s.io.api.core.v1.PersistentVolumeClaim $core
encode endpoints k8s.io.api.core.v1.Endpoints $core
encode serviceaccount k8s.io.api.core.v1.ServiceAccount $core
encode core_event k8s.io.api.core.v1.Event $core
encode podlist k8s.io.api.core.v1.PodList $core
encode statefulset k8s.io.api.apps.v1.StatefulSet $apps
encode daemonset k8s.io.api.apps.v1.DaemonSet $apps
encode ingress k8s.io.api.networking.v1.Ingress k8s.io/api/networking/v1/generated.proto
encode networkpolicy k8s.io.api.networking.v1.NetworkPolicy k8s.io/api/networking/v1/generated.proto
encode role k8s.io.api.rbac.v1.Role k8s.io/api/rbac/v1/generated.proto
encode rolebinding k8s.io.api.rbac.v1.RoleBinding k8s.io/api/rbac/v1/generated.proto
encode pdb k8s.io.api.policy.v1.PodDisruptionBudget k8s.io/api/policy/v1/generated.proto
encode hpa k8s.io.api.autoscaling.v2.HorizontalPodAutoscaler k8s.io/api/autoscaling/v2/generated.proto
# gogo_*: written as client-go's gogo-protobuf marshals (every non-pointer field, zero or not);
# decode-only fixtures (kube_protobuf's encoder leaves absent fields out).
encode gogo_node k8s.io.api.core.v1.Node $core
encode gogo_core_event k8s.io.api.core.v1.Event $core
encode gogo_ingress k8s.io.api.networking.v1.Ingress k8s.io/api/networking/v1/generated.proto
echo "fixtures written to $here"
