// Tests for kube_protobuf on the kinds protobuf_test.cc leaves out: Node, StatefulSet, DaemonSet,
// Ingress, PersistentVolumeClaim, Role, RoleBinding, Endpoints, ServiceAccount, NetworkPolicy,
// PodDisruptionBudget, HorizontalPodAutoscaler (autoscaling/v2), core/v1 Event, Lease, PodList and
// CustomResourceDefinition.
//
// Three kinds of checks:
//  - fixtures written by protoc (an encoder independent of kube_protobuf, see
//    testdata/make_fixtures.sh): the bytes decode to the expected JSON, that JSON round-trips
//    (JSON -> EncodeObject -> DecodeObject -> same JSON) and EncodeObject reproduces protoc's bytes;
//  - round trips of inline variants (both IntOrString forms, Quantity maps, Time / MicroTime, ...);
//  - what Go clients send (gogo-protobuf writes every non-pointer field) must decode to the JSON
//    kube's Go types produce. Known codec bugs are marked doctest::may_fail (see each test).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "protobuf/protobuf.h"
#include "protobuf/protobuf_test_util.h"

using nlohmann::json;
using namespace kube::protobuf;
using namespace kube::protobuf::testing;

namespace {

// What EncodeObject appends after `raw`: empty contentEncoding (3) and contentType (4).
const std::string kEmptyEncodingAndType("\x1a\x00\x22\x00", 4);

// The protoc fixture `name`.bin in its envelope, and the expected `name`.json.
struct Fixture {
  std::string body;
  json want;
};
Fixture LoadFixture(const std::string& name) {
  Fixture f;
  f.want = json::parse(ReadFile(TestData(name + ".json")));
  f.body = Envelope(f.want.at("apiVersion").get<std::string>(), f.want.at("kind").get<std::string>(),
                    ReadFile(TestData(name + ".bin")));
  return f;
}

// Decodes the fixture and compares with its JSON; returns the decoded JSON (null on failure).
json DecodeFixture(const Fixture& f) {
  auto got = DecodeObject(f.body);
  CHECK_MESSAGE(got.ok(), got.status().ToString());
  if (!got.ok()) return nullptr;
  CHECK_MESSAGE(*got == f.want, "got:  " << got->dump() << "\nwant: " << f.want.dump());
  return *got;
}

const json kMeta = json::parse(R"({"name": "x", "namespace": "default", "uid": "1234",
    "resourceVersion": "42", "creationTimestamp": "2024-05-01T12:00:00Z"})");

// Parses `text` and puts kMeta under "metadata" unless the text has its own.
json Obj(const char* text) {
  json j = json::parse(text);
  if (!j.contains("metadata")) j["metadata"] = kMeta;
  return j;
}

}  // namespace

TEST_CASE("every kind under test has a protobuf message") {
  CHECK(MessageNameFor("v1", "Node") == "k8s.io.api.core.v1.Node");
  CHECK(MessageNameFor("apps/v1", "StatefulSet") == "k8s.io.api.apps.v1.StatefulSet");
  CHECK(MessageNameFor("apps/v1", "DaemonSet") == "k8s.io.api.apps.v1.DaemonSet");
  CHECK(MessageNameFor("networking.k8s.io/v1", "Ingress") == "k8s.io.api.networking.v1.Ingress");
  CHECK(MessageNameFor("v1", "PersistentVolumeClaim") == "k8s.io.api.core.v1.PersistentVolumeClaim");
  CHECK(MessageNameFor("rbac.authorization.k8s.io/v1", "RoleBinding") == "k8s.io.api.rbac.v1.RoleBinding");
  CHECK(MessageNameFor("v1", "Endpoints") == "k8s.io.api.core.v1.Endpoints");
  CHECK(MessageNameFor("v1", "ServiceAccount") == "k8s.io.api.core.v1.ServiceAccount");
  CHECK(MessageNameFor("policy/v1", "PodDisruptionBudget") == "k8s.io.api.policy.v1.PodDisruptionBudget");
  CHECK(MessageNameFor("autoscaling/v2", "HorizontalPodAutoscaler") ==
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscaler");
  CHECK(MessageNameFor("v1", "Event") == "k8s.io.api.core.v1.Event");
  CHECK(MessageNameFor("coordination.k8s.io/v1", "Lease") == "k8s.io.api.coordination.v1.Lease");
  CHECK(MessageNameFor("v1", "PodList") == "k8s.io.api.core.v1.PodList");
}

TEST_CASE("protoc fixtures decode to the expected JSON, round-trip, and encode back byte-exact") {
  for (const char* name : {"node", "statefulset", "daemonset", "ingress", "pvc", "role", "rolebinding",
                           "endpoints", "serviceaccount", "networkpolicy", "pdb", "hpa", "core_event",
                           "podlist"}) {
    CAPTURE(name);
    const Fixture f = LoadFixture(name);
    DecodeFixture(f);
    CHECK_ROUND_TRIP(f.want);
    auto enc = EncodeObject(f.want);
    REQUIRE_MESSAGE(enc.ok(), enc.status().ToString());
    CHECK(*enc == f.body + kEmptyEncodingAndType);
  }
}

TEST_CASE("PodList fixture: list metadata and three pods") {
  const Fixture f = LoadFixture("podlist");
  const json got = DecodeFixture(f);
  REQUIRE(got.is_object());
  CHECK(got["metadata"]["resourceVersion"] == "99123");
  CHECK(got["metadata"]["continue"].get<std::string>().size() > 20);
  CHECK(got["metadata"]["remainingItemCount"] == 12);
  REQUIRE(got["items"].size() == 3);
  CHECK(got["items"][2]["metadata"]["name"] == "api-7d9f8b6c5d-zz9yy");
  CHECK(got["items"][2]["status"]["containerStatuses"][0]["ready"] == false);  // required: kept
  CHECK(got["items"][0]["status"]["conditions"][0]["lastProbeTime"].is_null());
}

TEST_CASE("round trip: Node variants") {
  // A node that stopped reporting: Unknown conditions, NoExecute taint, a config source.
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Node",
    "metadata": {"name": "worker-9", "labels": {"kubernetes.io/hostname": "worker-9"}},
    "spec": {"taints": [{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute",
                         "timeAdded": "2024-05-01T12:10:00Z"},
                        {"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule",
                         "timeAdded": "2024-05-01T12:10:00Z"}],
             "configSource": {"configMap": {"name": "kubelet-config", "namespace": "kube-system",
                                            "kubeletConfigKey": "kubelet"}}},
    "status": {"capacity": {"cpu": "64", "memory": "263921680Ki", "hugepages-1Gi": "8Gi",
                            "example.com/fpga": "2"},
      "conditions": [{"type": "Ready", "status": "Unknown", "lastHeartbeatTime": "2024-05-01T12:04:20Z",
                      "lastTransitionTime": "2024-05-01T12:05:01Z", "reason": "NodeStatusUnknown",
                      "message": "Kubelet stopped posting node status."}],
      "addresses": [{"type": "ExternalIP", "address": "198.51.100.7"}],
      "images": [{"names": ["docker.io/library/huge:latest"], "sizeBytes": 12884901888}],
      "declaredFeatures": ["InPlacePodVerticalScaling"]}})"));
  // Only a name: empty spec and status stay absent.
  CHECK_ROUND_TRIP(json::parse(R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}})"));
}

TEST_CASE("round trip: StatefulSet and DaemonSet variants") {
  constexpr const char* kTemplate = R"({"metadata": {"labels": {"app": "kv"}},
      "spec": {"containers": [{"name": "kv", "image": "etcd:3.5",
        "startupProbe": {"grpc": {"port": 2379, "service": "etcd"}, "failureThreshold": 30},
        "lifecycle": {"preStop": {"sleep": {"seconds": 5}}}}]}})";
  json sts = Obj(R"({"apiVersion": "apps/v1", "kind": "StatefulSet",
    "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "kv"}}, "serviceName": "kv",
      "updateStrategy": {"type": "OnDelete"},
      "volumeClaimTemplates": [
        {"metadata": {"name": "data", "labels": {"app": "kv"}},
         "spec": {"accessModes": ["ReadWriteOncePod"], "storageClassName": "local-nvme",
                  "resources": {"requests": {"storage": "100Gi"}},
                  "dataSourceRef": {"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot",
                                    "name": "kv-snap", "namespace": "backup"}}},
        {"metadata": {"name": "wal"},
         "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "5Gi"}},
                  "volumeMode": "Block"}}],
      "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete", "whenScaled": "Retain"},
      "ordinals": {"start": 5}},
    "status": {"replicas": 0, "availableReplicas": 0, "collisionCount": 2,
      "conditions": [{"type": "Available", "status": "False", "lastTransitionTime": "2024-05-01T12:00:00Z",
                      "reason": "Scaled", "message": "scaled to zero"}]}})");
  sts["spec"]["template"] = json::parse(kTemplate);
  CHECK_ROUND_TRIP(sts);
  sts["spec"]["updateStrategy"] = json::parse(
      R"({"type": "RollingUpdate", "rollingUpdate": {"partition": 3, "maxUnavailable": "25%"}})");
  CHECK_ROUND_TRIP(sts);

  json ds = Obj(R"({"apiVersion": "apps/v1", "kind": "DaemonSet",
    "spec": {"selector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]},
             "updateStrategy": {"type": "OnDelete"}, "revisionHistoryLimit": 0},
    "status": {"currentNumberScheduled": 0, "numberMisscheduled": 1, "desiredNumberScheduled": 0,
               "numberReady": 0, "collisionCount": 0}})");
  ds["spec"]["template"] = json::parse(kTemplate);
  CHECK_ROUND_TRIP(ds);
  ds["spec"]["updateStrategy"] =
      json::parse(R"({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": "100%"}})");
  CHECK_ROUND_TRIP(ds);
}

TEST_CASE("round trip: Ingress variants") {
  // Default backend only, port by name; an empty load-balancer status.
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
    "spec": {"defaultBackend": {"service": {"name": "default-http-backend", "port": {"name": "http"}}}},
    "status": {"loadBalancer": {}}})"));
  // A rule without http (host only), TLS without hosts, port by number, ingressClassName.
  CHECK_ROUND_TRIP(Obj(R"j({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
    "spec": {"ingressClassName": "traefik", "tls": [{"secretName": "wildcard-tls"}],
      "rules": [{"host": "bare.example.com"},
                {"http": {"paths": [{"path": "/v1/(.*)", "pathType": "ImplementationSpecific",
                  "backend": {"service": {"name": "v1", "port": {"number": 65535}}}}]}}]}})j"));
}

TEST_CASE("round trip: PersistentVolumeClaim variants") {
  // storageClassName "" (static binding, no dynamic provisioning) is meaningful and must survive.
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
    "spec": {"accessModes": ["ReadOnlyMany", "ReadWriteMany"], "storageClassName": "",
             "volumeName": "nfs-share", "resources": {"requests": {"storage": "1Ti"}},
             "volumeAttributesClassName": "gold"},
    "status": {"phase": "Pending", "currentVolumeAttributesClassName": "silver",
               "modifyVolumeStatus": {"targetVolumeAttributesClassName": "gold", "status": "InProgress"}}})"));
  // Quantities keep their spelling (no canonicalisation on the wire: gogo writes Quantity.String()).
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
    "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1.5Gi"},
             "limits": {"storage": "2e9"}}}})"));
}

TEST_CASE("round trip: Role and RoleBinding variants") {
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
    "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]},
              {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"],
               "resourceNames": ["my-controller-lock"], "verbs": ["get", "update", "patch"]}]})"));
  // A Role with no rules at all.
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role"})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
    "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": "kube-system"}],
    "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"}})"));
}

TEST_CASE("round trip: Endpoints, ServiceAccount, NetworkPolicy variants") {
  // Headless service endpoints with only not-ready addresses and an unnamed port.
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Endpoints",
    "subsets": [{"notReadyAddresses": [{"ip": "fd00:10:244::5", "hostname": "db-0"}],
                 "ports": [{"port": 5432, "protocol": "TCP"}]}]})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "ServiceAccount",
    "automountServiceAccountToken": true})"));
  // Default deny for ingress and egress: an empty pod selector selects every pod.
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
    "spec": {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}})"));
  // Allow from everywhere (one empty rule), egress to an IPv6 block.
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
    "spec": {"podSelector": {"matchLabels": {"role": "db"}}, "ingress": [{}],
             "egress": [{"to": [{"ipBlock": {"cidr": "2001:db8::/32"}}],
                         "ports": [{"port": 443}]}]}})"));
}

TEST_CASE("round trip: PodDisruptionBudget with minAvailable / maxUnavailable in both forms") {
  for (const char* spec : {R"({"minAvailable": 2})", R"({"minAvailable": 0})", R"({"minAvailable": "100%"})",
                           R"({"minAvailable": "0%"})", R"({"maxUnavailable": 1})",
                           R"({"maxUnavailable": "30%"})"}) {
    CAPTURE(spec);
    json pdb = Obj(R"({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
      "status": {"disruptionsAllowed": 1, "currentHealthy": 3, "desiredHealthy": 2, "expectedPods": 3,
                 "disruptedPods": {"a": "2024-05-01T12:00:00Z", "b": "2024-05-01T12:00:01Z"}}})");
    pdb["spec"] = json::parse(spec);
    pdb["spec"]["selector"] = {{"matchLabels", {{"app", "web"}}}};
    CHECK_ROUND_TRIP(pdb);
    // The IntOrString form decides the JSON type.
    const json out = RoundTrip(pdb);
    const json& v = out["spec"].contains("minAvailable") ? out["spec"]["minAvailable"] : out["spec"]["maxUnavailable"];
    CHECK(v.is_string() == (std::string_view(spec).find('%') != std::string_view::npos));
  }
}

TEST_CASE("round trip: HorizontalPodAutoscaler autoscaling/v2 metric kinds") {
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
    "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "kv"},
      "maxReplicas": 1,
      "metrics": [
        {"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "app",
           "target": {"type": "Utilization", "averageUtilization": 60}}},
        {"type": "Object", "object": {
           "describedObject": {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "name": "main"},
           "metric": {"name": "requests-per-second"},
           "target": {"type": "Value", "value": "10k"}}}],
      "behavior": {"scaleDown": {"selectPolicy": "Disabled"}}},
    "status": {"currentReplicas": 1, "desiredReplicas": 1,
      "currentMetrics": [{"type": "ContainerResource", "containerResource": {"name": "cpu",
        "container": "app", "current": {"averageUtilization": 0, "averageValue": "0"}}}],
      "conditions": [{"type": "ScalingActive", "status": "False", "lastTransitionTime": "2024-05-01T12:00:00Z",
        "reason": "FailedGetResourceMetric", "message": "unable to get metrics"}]}})"));
}

TEST_CASE("round trip: core/v1 Event with series, Lease with coordinated leader election") {
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Event",
    "involvedObject": {"kind": "Node", "name": "worker-1", "uid": "worker-1"},
    "reason": "NodeNotReady", "message": "Node worker-1 status is now: NodeNotReady",
    "source": {"component": "node-controller"}, "type": "Normal",
    "firstTimestamp": null, "lastTimestamp": null,
    "eventTime": "2024-05-01T12:00:00.000001Z",
    "series": {"count": 2, "lastObservedTime": "2024-05-01T12:00:30.999999Z"},
    "action": "NodeNotReady", "reportingComponent": "node-controller",
    "reportingInstance": "kube-controller-manager-cp-1"})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
    "metadata": {"name": "kube-scheduler", "namespace": "kube-system"},
    "spec": {"holderIdentity": "cp-1_6f1c2a4e-0b7d-4c3e-9a51-000000000001", "leaseDurationSeconds": 15,
             "acquireTime": "2024-05-01T12:00:00.000000Z", "renewTime": "2024-05-01T12:59:59.987654Z",
             "leaseTransitions": 7, "strategy": "OldestEmulationVersion", "preferredHolder": "cp-2"}})"));
}

TEST_CASE("round trip: PodList (3 pods, list metadata) and an empty PodList") {
  json list = Obj(R"({"apiVersion": "v1", "kind": "PodList",
      "metadata": {"resourceVersion": "12345", "continue": "token-abc"}})");
  for (int i = 0; i < 3; ++i) {
    json pod = json::parse(R"({"metadata": {"namespace": "default", "labels": {"app": "web"}},
        "spec": {"containers": [{"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 80}],
                                 "resources": {"requests": {"cpu": "50m"}}}]},
        "status": {"phase": "Running", "podIP": "10.0.0.1"}})");
    pod["metadata"]["name"] = "web-" + std::to_string(i);
    list["items"].push_back(pod);
  }
  CHECK_ROUND_TRIP(list);
  const json out = RoundTrip(list);
  CHECK(out["metadata"]["continue"] == "token-abc");
  CHECK(out["items"].size() == 3);
  CHECK(out["items"][2]["metadata"]["name"] == "web-2");
  // Items inside a list have no apiVersion/kind (kube leaves them empty).
  CHECK_FALSE(out["items"][0].contains("kind"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "PodList", "metadata": {"resourceVersion": "9"}})"));
}

// BUG (codec): apiextensions.k8s.io has no protobuf form. The catalogue is generated only from
// k8s.io/api and k8s.io/apimachinery, so CustomResourceDefinition (whose Go types in
// k8s.io/apiextensions-apiserver do have generated.proto, and which kube serves as protobuf) is
// rejected with BadRequest "no protobuf form known". Even with the .proto added, JSONSchemaProps
// would need custom JSON names ($ref, $schema, x-kubernetes-*) and special handling of JSON,
// JSONSchemaPropsOrArray / OrBool / OrStringArray, which the generator does not derive.
TEST_CASE("round trip: CustomResourceDefinition with a nested openAPIV3Schema" * doctest::may_fail()) {
  const json crd = json::parse(R"({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced",
      "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList",
                "shortNames": ["wd"], "categories": ["all"]},
      "versions": [{"name": "v1", "served": true, "storage": true,
        "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                                  "statusReplicasPath": ".status.replicas"}},
        "additionalPrinterColumns": [{"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"}],
        "schema": {"openAPIV3Schema": {"type": "object", "description": "A widget.",
          "required": ["spec"],
          "properties": {
            "spec": {"type": "object",
              "x-kubernetes-validations": [{"rule": "self.replicas <= 10", "message": "too many"}],
              "properties": {
                "replicas": {"type": "integer", "format": "int32", "minimum": 0, "default": 1},
                "mode": {"type": "string", "enum": ["fast", "safe"]},
                "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "config": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}}},
            "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}}}]},
    "status": {"acceptedNames": {"plural": "widgets", "kind": "Widget"}, "storedVersions": ["v1"],
      "conditions": [{"type": "Established", "status": "True", "lastTransitionTime": "2024-05-01T12:00:00Z",
                      "reason": "InitialNamesAccepted", "message": "the initial names have been accepted"}]}})");
  CHECK(MessageNameFor("apiextensions.k8s.io/v1", "CustomResourceDefinition") != "");
  auto enc = EncodeObject(crd);
  CHECK_MESSAGE(enc.ok(), enc.status().ToString());
  if (enc.ok()) {
    auto dec = DecodeObject(*enc);
    REQUIRE_MESSAGE(dec.ok(), dec.status().ToString());
    CHECK_MESSAGE(*dec == crd, "got:  " << dec->dump() << "\nwant: " << crd.dump());
  }
}

// Go's JSON keeps "" for strings without omitempty and for every *string that is set, so the
// decoder must keep them too (the generator's Go-tag table marks these fields), e.g.:
//   core/v1 NodeRuntimeHandler.name ("" = the default runtime handler, reported by every kubelet),
//   core/v1 Event.reportingComponent / reportingInstance (no omitempty),
//   apps/v1 StatefulSetSpec.serviceName (no omitempty), HostPathVolumeSource.type (*string,
//   defaulted to "" by kube), coordination/v1 LeaseSpec.holderIdentity (*string, "" on release).
TEST_CASE("empty strings Go's JSON keeps survive a round trip") {
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Node", "status": {"runtimeHandlers": [
      {"name": "", "features": {"recursiveReadOnlyMounts": true, "userNamespaces": true}},
      {"name": "runc", "features": {"recursiveReadOnlyMounts": true, "userNamespaces": true}}]}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Event", "involvedObject": {"kind": "Pod", "name": "p"},
      "reason": "Scheduled", "reportingComponent": "", "reportingInstance": ""})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "apps/v1", "kind": "StatefulSet", "spec": {"serviceName": "",
      "selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}},
      "spec": {"containers": [{"name": "c", "image": "i"}],
               "volumes": [{"name": "h", "hostPath": {"path": "/var/log", "type": ""}}]}}}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
      "spec": {"holderIdentity": "", "leaseDurationSeconds": 1, "leaseTransitions": 3,
               "acquireTime": "2024-05-01T12:00:00.000000Z", "renewTime": "2024-05-01T12:00:00.000000Z"}})"));
}

// What Go clients send. gogo-protobuf writes every non-pointer field, so a zero int/bool that Go's
// JSON omits (`omitempty` on a non-pointer) is on the wire and must be dropped again.
// The generator's Go-tag table marks such fields, e.g. networking/v1 ServiceBackendPort.number (every Ingress backend using a port name decodes
// with "number": 0) and core/v1 NodeSpec.unschedulable (every node the kubelet registers gets
// "unschedulable": false); see the report for the full list in the kinds tested here. The Node and
// Event fixtures also hit the dropped-"" bug above (runtimeHandlers[0].name, reportingInstance).
TEST_CASE("gogo-marshalled Ingress decodes like Go's JSON") {
  DecodeFixture(LoadFixture("gogo_ingress"));
}
TEST_CASE("gogo-marshalled Node decodes like Go's JSON") {
  DecodeFixture(LoadFixture("gogo_node"));
}
TEST_CASE("gogo-marshalled core/v1 Event decodes like Go's JSON") {
  DecodeFixture(LoadFixture("gogo_core_event"));
}
