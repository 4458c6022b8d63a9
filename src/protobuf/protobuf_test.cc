// Tests for kube_protobuf: JSON -> protobuf -> JSON round trips for common kinds, fixtures built
// by an independent encoder (protoc, see testdata/make_fixtures.sh), malformed input and a small
// deterministic fuzz loop.
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "protobuf/proto_catalogue.h"
#include "protobuf/protobuf.h"
#include "protobuf/protobuf_test_util.h"
#include "protobuf/well_known.h"

using nlohmann::json;
using namespace kube::protobuf;
using namespace kube::protobuf::testing;

namespace {

const json kMeta = json::parse(R"({"name": "x", "namespace": "default", "labels": {"app": "web"},
    "annotations": {"a": "b"}, "uid": "1234", "resourceVersion": "42", "generation": 3,
    "creationTimestamp": "2024-05-01T12:00:00Z"})");

// Parses `text` and puts kMeta under "metadata" unless the text has its own.
json Obj(const char* text) {
  json j = json::parse(text);
  if (!j.contains("metadata")) j["metadata"] = kMeta;
  return j;
}

}  // namespace

TEST_CASE("catalogue table loads and maps kinds to messages") {
  CHECK(ProtoCatalogue::Get().size() > 1000);
  CHECK(MessageNameFor("v1", "ConfigMap") == "k8s.io.api.core.v1.ConfigMap");
  CHECK(MessageNameFor("apps/v1", "Deployment") == "k8s.io.api.apps.v1.Deployment");
  CHECK(MessageNameFor("rbac.authorization.k8s.io/v1", "Role") == "k8s.io.api.rbac.v1.Role");
  CHECK(MessageNameFor("networking.k8s.io/v1", "NetworkPolicy") == "k8s.io.api.networking.v1.NetworkPolicy");
  CHECK(MessageNameFor("v1", "Status") == "k8s.io.apimachinery.pkg.apis.meta.v1.Status");
  CHECK(MessageNameFor("meta.k8s.io/v1", "DeleteOptions") == "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions");
  CHECK(MessageNameFor("v1", "ConfigMapList") == "k8s.io.api.core.v1.ConfigMapList");
  CHECK(MessageNameFor("v1", "NoSuchKind") == "");
}

TEST_CASE("well-known JSON forms") {
  CHECK(FormatRfc3339({1714564800, 0}, false) == "2024-05-01T12:00:00Z");
  CHECK(FormatRfc3339({1714564800, 123456789}, true) == "2024-05-01T12:00:00.123456Z");
  CHECK(FormatRfc3339({-1, 0}, false) == "1969-12-31T23:59:59Z");
  CHECK(ParseRfc3339("2024-05-01T14:00:00+02:00")->seconds == 1714564800);
  CHECK(ParseRfc3339("2024-05-01T12:00:00.5Z")->nanos == 500000000);
  CHECK_FALSE(ParseRfc3339("2024-05-01 12:00:00"));
  CHECK(FormatGoDuration(3600000000000LL) == "1h0m0s");
  CHECK(FormatGoDuration(90000000000LL) == "1m30s");
  CHECK(FormatGoDuration(1500000000LL) == "1.5s");
  CHECK(FormatGoDuration(300000000LL) == "300ms");
  CHECK(FormatGoDuration(1500LL) == "1.5\xc2\xb5s");
  CHECK(FormatGoDuration(0) == "0s");
  CHECK(FormatGoDuration(-2000000000LL) == "-2s");
  CHECK(ParseGoDuration("1h0m0s") == 3600000000000LL);
  CHECK(ParseGoDuration("1.5s") == 1500000000LL);
  CHECK(ParseGoDuration("300ms") == 300000000LL);
  CHECK(ParseGoDuration("-2m") == -120000000000LL);
  CHECK_FALSE(ParseGoDuration("10"));
  CHECK_FALSE(ParseGoDuration("1x"));
  CHECK(Base64StdEncode("hello") == "aGVsbG8=");
  CHECK(Base64StdDecode("aGVsbG8=") == "hello");
  CHECK_FALSE(Base64StdDecode("aGVsbG8"));
}

TEST_CASE("round trip: ConfigMap, Secret, Namespace") {
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "ConfigMap",
      "data": {"b": "2", "a": "1", "empty": ""}, "binaryData": {"bin": "AAEC/w=="},
      "immutable": false})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
      "data": {"password": "czNjcjN0"}, "stringData": {"k": "v"}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Namespace",
      "metadata": {"name": "ns1", "finalizers": ["a/b"]},
      "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})"));
}

TEST_CASE("round trip: Pod and Service") {
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Pod",
    "spec": {
      "containers": [{
        "name": "app", "image": "nginx:1.25", "command": ["sh", "-c"], "args": ["sleep 1"],
        "ports": [{"containerPort": 80, "name": "http", "protocol": "TCP"}],
        "env": [{"name": "A", "value": "1"},
                {"name": "B", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "k", "optional": true}}}],
        "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}, "requests": {"cpu": "100m"}},
        "volumeMounts": [{"name": "data", "mountPath": "/data", "readOnly": true}],
        "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10},
        "readinessProbe": {"tcpSocket": {"port": "http"}},
        "securityContext": {"runAsNonRoot": false, "runAsUser": 0, "allowPrivilegeEscalation": false},
        "imagePullPolicy": "IfNotPresent"}],
      "restartPolicy": "Always", "terminationGracePeriodSeconds": 0,
      "automountServiceAccountToken": false,
      "nodeSelector": {"disk": "ssd", "zone": "a"},
      "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30}],
      "volumes": [{"name": "data", "emptyDir": {"sizeLimit": "1Gi"}},
                  {"name": "cfg", "configMap": {"name": "cm", "defaultMode": 420, "items": [{"key": "a", "path": "a.txt"}]}},
                  {"name": "sec", "secret": {"secretName": "s"}}],
      "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
          "nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "In", "values": ["a", "b"]}]}]}}}},
    "status": {"phase": "Running", "podIP": "10.0.0.1", "startTime": "2024-05-01T12:00:01Z",
      "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2024-05-01T12:00:02Z"}]}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Service",
    "spec": {"type": "NodePort", "selector": {"app": "web"}, "clusterIP": "10.96.0.10",
      "ports": [{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP", "nodePort": 30080},
                {"name": "https", "port": 443, "targetPort": "https"}],
      "sessionAffinity": "None", "allocateLoadBalancerNodePorts": false}})"));
}

constexpr const char* kTemplate = R"({"metadata": {"labels": {"app": "web"}, "creationTimestamp": null},
    "spec": {"containers": [{"name": "c", "image": "busybox", "resources": {}}]}})";

TEST_CASE("round trip: Deployment, Job, CronJob") {
  json d = Obj(R"({"apiVersion": "apps/v1", "kind": "Deployment",
    "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "web"}},
      "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": 1}},
      "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600},
    "status": {"replicas": 2, "observedGeneration": 3, "conditions": [{"type": "Available",
      "status": "True", "lastUpdateTime": "2024-05-01T12:00:00Z", "reason": "MinimumReplicasAvailable"}]}})");
  d["spec"]["template"] = json::parse(kTemplate);
  CHECK_ROUND_TRIP(d);
  json job_spec = json::parse(R"({"backoffLimit": 0, "completions": 1, "parallelism": 1,
      "suspend": false, "ttlSecondsAfterFinished": 100})");
  job_spec["template"] = json::parse(kTemplate);
  json job = Obj(R"({"apiVersion": "batch/v1", "kind": "Job",
      "status": {"active": 1, "startTime": "2024-05-01T12:00:00Z"}})");
  job["spec"] = job_spec;
  CHECK_ROUND_TRIP(job);
  json cj = Obj(R"({"apiVersion": "batch/v1", "kind": "CronJob",
      "spec": {"schedule": "*/5 * * * *", "concurrencyPolicy": "Forbid",
               "successfulJobsHistoryLimit": 3, "timeZone": "Etc/UTC"},
      "status": {"lastScheduleTime": "2024-05-01T12:05:00Z"}})");
  cj["spec"]["jobTemplate"]["spec"] = job_spec;
  CHECK_ROUND_TRIP(cj);
}

TEST_CASE("round trip: Event, Lease (MicroTime), Status, lists, managedFields, RawExtension") {
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "events.k8s.io/v1", "kind": "Event",
      "eventTime": "2024-05-01T12:00:00.123456Z", "reason": "Started", "action": "Start",
      "reportingController": "kubelet", "reportingInstance": "node-1", "type": "Normal",
      "note": "started", "regarding": {"kind": "Pod", "name": "p", "namespace": "default"},
      "series": {"count": 2, "lastObservedTime": "2024-05-01T12:00:01.000001Z"}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Event",
      "involvedObject": {"kind": "Pod", "name": "p"}, "count": 1,
      "firstTimestamp": "2024-05-01T12:00:00Z", "eventTime": null})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
      "spec": {"holderIdentity": "node-1", "leaseDurationSeconds": 40,
               "acquireTime": "2024-05-01T12:00:00.000000Z",
               "renewTime": "2024-05-01T12:00:10.500000Z", "leaseTransitions": 0}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "Status", "metadata": {},
      "status": "Failure", "message": "nope", "reason": "NotFound", "code": 404,
      "details": {"name": "x", "kind": "pods", "causes": [{"reason": "FieldValueInvalid", "field": "spec"}]}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "ConfigMapList",
      "metadata": {"resourceVersion": "7", "continue": "abc"},
      "items": [{"metadata": {"name": "a"}, "data": {"k": "v"}}, {"metadata": {"name": "b"}}]})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "v1", "kind": "ConfigMap",
      "metadata": {"name": "m", "managedFields": [{"manager": "kubectl", "operation": "Apply",
        "apiVersion": "v1", "time": "2024-05-01T12:00:00Z", "fieldsType": "FieldsV1",
        "fieldsV1": {"f:data": {"f:k": {}}}}]}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "apps/v1", "kind": "ControllerRevision",
      "metadata": {"name": "r"}, "revision": 2,
      "data": {"spec": {"replicas": 1}, "list": [1, "two", null]}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
      "metadata": {}, "spec": {"user": "u", "groups": ["g"], "extra": {"scopes": ["a", "b"]},
      "resourceAttributes": {"verb": "get", "resource": "pods"}}})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
      "metadata": {"name": "r"},
      "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list"]}]})"));
  CHECK_ROUND_TRIP(Obj(R"({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
      "metadata": {"name": "h"}, "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "d",
      "apiVersion": "apps/v1"}, "minReplicas": 1, "maxReplicas": 5}})"));
  CHECK_ROUND_TRIP(json::parse(R"({"apiVersion": "meta.k8s.io/v1", "kind": "DeleteOptions",
      "gracePeriodSeconds": 0, "propagationPolicy": "Foreground",
      "preconditions": {"uid": "u"}, "dryRun": ["All"]})"));
}

TEST_CASE("Go zero values: empty strings dropped, pointer zeros kept, inline fields flattened") {
  const json in = json::parse(R"({"apiVersion": "v1", "kind": "Pod",
      "metadata": {"name": "", "namespace": "ns", "generation": 0},
      "spec": {"containers": [{"name": "", "stdin": false,
               "envFrom": [{"configMapRef": {"name": "cm"}}]}]}})");
  auto enc = EncodeObject(in);
  REQUIRE(enc.ok());
  auto out = DecodeObject(*enc);
  REQUIRE(out.ok());
  CHECK_FALSE((*out)["metadata"].contains("name"));  // optional: Go omits ""
  CHECK_FALSE((*out)["metadata"].contains("generation"));
  CHECK((*out)["spec"]["containers"][0]["name"] == "");  // required: kept
  CHECK_FALSE((*out)["spec"]["containers"][0].contains("stdin"));
  CHECK((*out)["spec"]["containers"][0]["envFrom"][0]["configMapRef"] == json{{"name", "cm"}});
}

TEST_CASE("gogo-style ObjectMeta (every non-pointer field written) decodes like Go's JSON") {
  // name, generateName, namespace, selfLink, uid, resourceVersion = "", generation = 0,
  // creationTimestamp = zero Time (empty message): what client-go sends for a fresh object.
  const std::string meta = LenField(1, "cm") + LenField(2, "") + LenField(3, "") +
                           LenField(4, "") + LenField(5, "") + LenField(6, "") +
                           std::string("\x38\x00", 2) + LenField(8, "");
  auto r = DecodeObject(Envelope("v1", "ConfigMap", LenField(1, meta)));
  REQUIRE(r.ok());
  CHECK(*r == json::parse(R"({"apiVersion": "v1", "kind": "ConfigMap",
                             "metadata": {"name": "cm", "creationTimestamp": null}})"));
}

TEST_CASE("EncodeStatus fills apiVersion and kind") {
  auto enc = EncodeStatus({{"status", "Failure"}, {"code", 409}, {"reason", "AlreadyExists"}});
  REQUIRE(enc.ok());
  auto dec = DecodeObject(*enc);
  REQUIRE(dec.ok());
  CHECK((*dec)["kind"] == "Status");
  CHECK((*dec)["apiVersion"] == "v1");
  CHECK((*dec)["code"] == 409);
}

TEST_CASE("encoder rejects JSON that does not fit the message") {
  CHECK(EncodeObject({{"kind", "ConfigMap"}}).status().code() == kube::StatusCode::kBadRequest);
  CHECK(EncodeObject({{"apiVersion", "v1"}, {"kind", "Nope"}}).status().code() == kube::StatusCode::kBadRequest);
  auto r = EncodeObject({{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"spec", {{"replicas", "three"}}}});
  CHECK(r.status().code() == kube::StatusCode::kBadRequest);
  CHECK(r.status().message().find("spec.replicas") != std::string::npos);
  CHECK_FALSE(EncodeObject({{"apiVersion", "v1"}, {"kind", "Secret"}, {"data", {{"a", "!!"}}}}).ok());
  CHECK_FALSE(EncodeObject({{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"spec", {{"replicas", 1LL << 40}}}}).ok());
}

TEST_CASE("fixtures encoded by protoc decode to the expected JSON, and encode back byte-exact") {
  for (const char* name : {"configmap", "secret", "pod", "service", "deployment", "lease", "event",
                           "status", "sar"}) {
    CAPTURE(name);
    const std::string dir = KUBE_PROTOBUF_TESTDATA "/";
    const std::string raw = ReadFile(dir + name + ".bin");
    const json want = json::parse(ReadFile(dir + name + ".json"));
    const std::string body = Envelope(want["apiVersion"].get<std::string>(), want["kind"].get<std::string>(), raw);
    auto got = DecodeObject(body);
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    CHECK_MESSAGE(*got == want, "got:  " << got->dump() << "\nwant: " << want.dump());
    // Our encoder must produce protoc's bytes (gogo's field order; contentEncoding/contentType empty).
    auto enc = EncodeObject(want);
    REQUIRE_MESSAGE(enc.ok(), enc.status().ToString());
    CHECK(*enc == body + std::string("\x1a\x00\x22\x00", 4));
  }
}

TEST_CASE("malformed input is BadRequest, never a crash") {
  const std::string good = *EncodeObject(json::parse(
      R"({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"k": "v"}})"));
  auto bad = [](std::string_view body) {
    auto r = DecodeObject(body);
    return !r.ok() && r.status().code() == kube::StatusCode::kBadRequest;
  };
  CHECK(DecodeObject(good).ok());
  CHECK(bad(""));
  CHECK(bad("k8s"));
  CHECK(bad(std::string("k9s\0", 4) + good.substr(4)));
  CHECK(bad("{\"apiVersion\":\"v1\"}"));
  // Truncated anywhere but at the one field boundary left (just before `raw`, which makes a
  // valid empty ConfigMap).
  const size_t boundary = 4 + 2 + static_cast<uint8_t>(good[5]);
  for (size_t n = 4; n < good.size() - 4; ++n) {
    if (n != boundary) CHECK_MESSAGE(bad(good.substr(0, n)), n);
  }
  CHECK(bad(std::string("k8s\0", 4) + std::string(11, '\xff')));                  // bad varint
  CHECK(bad(std::string("k8s\0\x0a\x7f", 6) + "abc"));                            // length past end
  CHECK(bad(std::string("k8s\0\x0a\xff\xff\xff\xff\x0f", 10)));                   // huge length
  CHECK(bad(Envelope("v1", "NoSuchKind", "")));                                    // unknown kind
  CHECK(bad(Envelope("", "", "")));                                                // no type meta
  CHECK(bad(Envelope("v1", "ConfigMap", std::string("\x08\x01", 2))));            // wrong wire type
  CHECK(bad(Envelope("v1", "ConfigMap", std::string("\x0b", 1))));                // group wire type
  CHECK(bad(Envelope("v1", "ConfigMap", std::string("\x22\x01\xff", 3))));        // bad UTF-8 ... in a
  CHECK(bad(Envelope("apps/v1", "ControllerRevision", std::string("\x12\x03{x}", 5))));  // bad raw JSON
  // Unknown fields are skipped.
  auto skipped = DecodeObject(Envelope("v1", "ConfigMap", std::string("\xf8\x07\x05\x85\x08\x01\x02\x03\x04", 9)));
  REQUIRE(skipped.ok());
  CHECK(*skipped == json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}});
  // Nesting: 101 levels of JSONSchemaProps-like recursion via LabelSelector is impossible, so nest
  // RawExtension envelopes (ControllerRevision.data holding a protobuf object holding ...).
  std::string inner = Envelope("v1", "ConfigMap", "");
  for (int i = 0; i < 120; ++i) {  // ControllerRevision {2: data RawExtension {1: raw}}
    inner = Envelope("apps/v1", "ControllerRevision", LenField(2, LenField(1, inner)));
  }
  auto deep = DecodeObject(inner);
  CHECK(deep.status().code() == kube::StatusCode::kBadRequest);
  CHECK_MESSAGE(deep.status().message().find("100") != std::string::npos, deep.status().message());
}

TEST_CASE("option kinds decode under any group version, as kube registers them in each") {
  // client-go's typed clients wrap DeleteOptions in their own group version's envelope.
  for (const char* api_version : {"v1", "apps/v1", "meta.k8s.io/v1", "batch/v1", "example.com/v1alpha1"}) {
    CAPTURE(api_version);
    CHECK(MessageNameFor(api_version, "DeleteOptions") == "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions");
    auto empty = DecodeObject(Envelope(api_version, "DeleteOptions", ""));
    REQUIRE_MESSAGE(empty.ok(), empty.status().ToString());
    CHECK(*empty == json{{"apiVersion", api_version}, {"kind", "DeleteOptions"}});
  }
  CHECK(MessageNameFor("v1", "ListOptions") == "k8s.io.apimachinery.pkg.apis.meta.v1.ListOptions");
  CHECK(MessageNameFor("apps/v1", "CreateOptions") == "k8s.io.apimachinery.pkg.apis.meta.v1.CreateOptions");
  // An envelope without `raw` at all is the same empty DeleteOptions.
  const std::string no_raw = std::string("k8s\0", 4) + LenField(1, LenField(1, "v1") + LenField(2, "DeleteOptions"));
  auto bare = DecodeObject(no_raw);
  REQUIRE_MESSAGE(bare.ok(), bare.status().ToString());
  CHECK(*bare == json{{"apiVersion", "v1"}, {"kind", "DeleteOptions"}});
  // Every field, written as gogo-protobuf writes them (field order, pointers present).
  const std::string populated = std::string("\x08\x1e", 2) +                      // gracePeriodSeconds 30
                                LenField(2, LenField(1, "u-1") + LenField(2, "42")) +  // preconditions
                                std::string("\x18\x00", 2) +                      // orphanDependents false
                                LenField(4, "Foreground") + LenField(5, "All");
  auto full = DecodeObject(Envelope("v1", "DeleteOptions", populated));
  REQUIRE_MESSAGE(full.ok(), full.status().ToString());
  CHECK(*full == json::parse(R"({"apiVersion": "v1", "kind": "DeleteOptions", "gracePeriodSeconds": 30,
      "preconditions": {"uid": "u-1", "resourceVersion": "42"}, "orphanDependents": false,
      "propagationPolicy": "Foreground", "dryRun": ["All"]})"));
  // A truncated DeleteOptions is a BadRequest naming the field.
  auto truncated = DecodeObject(Envelope("v1", "DeleteOptions", std::string("\x08", 1)));
  CHECK(truncated.status().code() == kube::StatusCode::kBadRequest);
  CHECK_MESSAGE(truncated.status().message().find("gracePeriodSeconds") != std::string::npos,
                truncated.status().message());
}

TEST_CASE("missing type meta takes the caller's defaults; the magic alone is an empty body") {
  const std::string untyped = std::string("k8s\0", 4) + LenField(2, LenField(4, "Orphan"));
  auto defaulted = DecodeObject(untyped, {.api_version = "meta.k8s.io/v1", .kind = "DeleteOptions"});
  REQUIRE_MESSAGE(defaulted.ok(), defaulted.status().ToString());
  CHECK(*defaulted == json::parse(
      R"({"apiVersion": "meta.k8s.io/v1", "kind": "DeleteOptions", "propagationPolicy": "Orphan"})"));
  CHECK(DecodeObject(untyped).status().code() == kube::StatusCode::kBadRequest);  // no defaults
  // A kind in the envelope wins over the default.
  auto own = DecodeObject(Envelope("v1", "ConfigMap", ""), {.api_version = "v1", .kind = "Secret"});
  REQUIRE(own.ok());
  CHECK((*own)["kind"] == "ConfigMap");
  auto empty = DecodeObject(std::string("k8s\0", 4), {.api_version = "v1", .kind = "DeleteOptions"});
  CHECK(empty.status().code() == kube::StatusCode::kBadRequest);
  CHECK(empty.status().message() == "empty body");
}

TEST_CASE("an error Status keeps an empty details message, as Go's non-nil pointer marshals") {
  auto enc = EncodeStatus({{"status", "Failure"}, {"code", 400}, {"reason", "BadRequest"},
                           {"message", "m"}, {"details", json::object()}});
  REQUIRE(enc.ok());
  // Status field 5 (details) present with a zero-length payload.
  CHECK(enc->find(std::string("\x2a\x00", 2)) != std::string::npos);
  auto dec = DecodeObject(*enc);
  REQUIRE(dec.ok());
  REQUIRE(dec->contains("details"));
  CHECK((*dec)["details"] == json::object());
}

TEST_CASE("deterministic fuzz: mutated bodies never crash") {
  std::vector<std::string> seeds;
  for (const char* name : {"configmap", "pod", "deployment", "lease", "sar"}) {
    const json want = json::parse(ReadFile(std::string(KUBE_PROTOBUF_TESTDATA "/") + name + ".json"));
    seeds.push_back(*EncodeObject(want));
  }
  std::mt19937 rng(12345);
  int decoded = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string body = seeds[i % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = 4 + rng() % (body.size() - 4);
      switch (rng() % 4) {
        case 0: body[pos] = static_cast<char>(rng()); break;
        case 1: body[pos] ^= static_cast<char>(1u << (rng() % 8)); break;
        case 2: body.erase(pos, 1 + rng() % 8); break;
        default: body.insert(pos, 1, static_cast<char>(rng())); break;
      }
      if (body.size() <= 5) break;
    }
    auto r = DecodeObject(body);
    if (r.ok()) {
      ++decoded;
      (void)r->dump();  // the JSON must be serialisable (valid UTF-8)
      auto again = EncodeObject(*r);
      CHECK_MESSAGE(again.ok(), again.status().ToString());
    } else {
      CHECK(r.status().code() == kube::StatusCode::kBadRequest);
    }
  }
  MESSAGE("fuzz: " << decoded << " of 20000 mutated bodies decoded");
}
