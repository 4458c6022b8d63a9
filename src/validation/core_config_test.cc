#include "validation/validation_test_util.h"

namespace kube::validation::testing {
namespace {

using T = FieldError::Type;
using nlohmann::json;

const std::string kKeyRegex =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  "
    "or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const std::string kImmutable = "Forbidden: field is immutable when `immutable` is set";

TEST_CASE("ConfigMap: keys, size, immutability") {
  const json cm = json::parse(R"({"metadata":{"name":"c","namespace":"default"},"data":{"a.conf":"x","B_2":"y"}})");
  const json frozen = Patched(cm, {{"immutable", true}});
  RunCases("configmaps", {
      {"valid", cm, {}},
      {"bad keys", Patched(cm, json::parse(R"({"data":{"a b":"1",".."  :"2"},"binaryData":{"a.conf":"eA=="}})")),
       {{T::kInvalid, "data[..]", "Invalid value: \"..\": must not be '..'"},
        {T::kInvalid, "data[a b]", "Invalid value: \"a b\": " + kKeyRegex},
        {T::kInvalid, "data[a.conf]", "Invalid value: \"a.conf\": duplicate of key present in binaryData"}}},
      {"too big", Patched(cm, {{"data", {{"big", std::string(1024 * 1024 + 1, 'x')}}}}),
       {{T::kTooLong, "[]", "Too long: may not be more than 1048576 bytes"}}},
      {"mutable update", Patched(cm, {{"data", {{"a.conf", "z"}}}}), {}, cm},
      {"immutable update", Patched(frozen, {{"data", {{"a.conf", "z"}}}, {"immutable", false}}),
       {{T::kForbidden, "immutable", kImmutable}, {T::kForbidden, "data", kImmutable}}, frozen},
      {"immutable, labels may change", Patched(frozen, {{"metadata", {{"labels", {{"a", "b"}}}}}}), {}, frozen},
  });
}

TEST_CASE("Secret: types, keys, immutability") {
  const json secret = json::parse(R"({"metadata":{"name":"s","namespace":"default"},"type":"Opaque","data":{"password":"cGFzcw=="}})");
  auto typed = [&](const std::string& type, const json& data) {
    json s = secret;
    s["type"] = type;
    s["data"] = data;
    return s;
  };
  RunCases("secrets", {
      {"valid", secret, {}},
      {"bad key", Patched(secret, {{"data", {{"a/b", "eA=="}}}}), {{T::kInvalid, "data[a/b]", "Invalid value: \"a/b\": " + kKeyRegex}}},
      {"tls needs both keys", typed("kubernetes.io/tls", {{"tls.crt", "eA=="}}), {{T::kRequired, "data[tls.key]", "Required value"}}},
      {"basic-auth needs a key", typed("kubernetes.io/basic-auth", json::object()),
       {{T::kRequired, "data[username]", "Required value"}, {T::kRequired, "data[password]", "Required value"}}},
      {"basic-auth with a username", typed("kubernetes.io/basic-auth", {{"username", "eA=="}}), {}},
      {"ssh-auth", typed("kubernetes.io/ssh-auth", json::object()), {{T::kRequired, "data[ssh-privatekey]", "Required value"}}},
      {"dockerconfigjson missing", typed("kubernetes.io/dockerconfigjson", json::object()),
       {{T::kRequired, "data[.dockerconfigjson]", "Required value"}}},
      {"dockerconfigjson not JSON", typed("kubernetes.io/dockerconfigjson", {{".dockerconfigjson", "eA=="}}),
       {{T::kInvalid, "data[.dockerconfigjson]",
         "Invalid value: \"<secret contents redacted>\": invalid character 'x' looking for beginning of value"}}},
      {"dockerconfigjson valid", typed("kubernetes.io/dockerconfigjson", {{".dockerconfigjson", "eyJhdXRocyI6e319"}}), {}},
      {"service account token needs the annotation", typed("kubernetes.io/service-account-token", json::object()),
       {{T::kRequired, "metadata.annotations[kubernetes.io/service-account.name]", "Required value"}}},
      {"type is immutable", typed("kubernetes.io/basic-auth", {{"username", "eA=="}}),
       {{T::kInvalid, "type", "Invalid value: \"kubernetes.io/basic-auth\": field is immutable"}}, secret},
      {"immutable data", Patched(Patched(secret, {{"immutable", true}}), {{"data", {{"password", "eA=="}}}}),
       {{T::kForbidden, "data", kImmutable}}, Patched(secret, {{"immutable", true}})},
  });
}

TEST_CASE("Namespace: finalizers and status") {
  const json ns = json::parse(R"({"metadata":{"name":"team"},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}})");
  RunCases("namespaces", {
      {"valid", ns, {}},
      {"qualified finalizer", Patched(ns, {{"spec", {{"finalizers", json::array({"example.com/cleanup"})}}}}), {}},
      {"bad finalizer", Patched(ns, {{"spec", {{"finalizers", json::array({"cleanup"})}}}}),
       {{T::kInvalid, "spec.finalizers", "Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it fully qualified"}}},
      {"status phase without deletion", Patched(ns, {{"status", {{"phase", "Terminating"}}}}),
       {{T::kInvalid, "status.Phase", "Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty"}}, ns, true},
  });
}

TEST_CASE("ServiceAccount: nothing beyond ObjectMeta") {
  CHECK(FindKindValidator("", "serviceaccounts") == nullptr);
}

TEST_CASE("PersistentVolumeClaim: access modes, storage, immutability") {
  const json pvc = json::parse(R"({"metadata":{"name":"data","namespace":"default"},"spec":{"accessModes":["ReadWriteOnce"],
    "resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Filesystem"},"status":{"phase":"Pending"}})");
  json bound = Patched(pvc, {{"spec", {{"volumeName", "pv-1"}}}, {"status", {{"phase", "Bound"}, {"capacity", {{"storage", "1Gi"}}}}}});
  RunCases("persistentvolumeclaims", {
      {"valid", pvc, {}},
      {"no access modes, no storage", Patched(pvc, {{"spec", {{"accessModes", nullptr}, {"resources", nullptr}}}}),
       {{T::kRequired, "spec.accessModes", "Required value: at least 1 access mode is required"},
        {T::kRequired, "spec.resources[storage]", "Required value"}}},
      {"bad mode, zero storage", Patched(pvc, json::parse(R"({"spec":{"accessModes":["ReadWriteSometimes","ReadWriteOncePod","ReadOnlyMany"],"resources":{"requests":{"storage":"0"}}}})")),
       {{T::kNotSupported, "spec.accessModes",
         "Unsupported value: \"ReadWriteSometimes\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\""},
        {T::kForbidden, "spec.accessModes", "Forbidden: may not use ReadWriteOncePod with other access modes"},
        {T::kInvalid, "spec.resources[storage]", "Invalid value: \"0\": must be greater than zero"}}},
      {"volumeName may be set once", Patched(pvc, {{"spec", {{"volumeName", "pv-1"}}}}), {}, pvc},
      {"bound claims may grow", Patched(bound, {{"spec", {{"resources", {{"requests", {{"storage", "2Gi"}}}}}}}}), {}, bound},
      {"bound claims may not shrink below capacity", Patched(bound, {{"spec", {{"resources", {{"requests", {{"storage", "512Mi"}}}}}}}}),
       {{T::kForbidden, "spec.resources.requests.storage", "Forbidden: field can not be less than status.capacity"}}, bound},
      {"access modes are immutable", Patched(pvc, {{"spec", {{"accessModes", json::array({"ReadWriteMany"})}}}}),
       {{T::kForbidden, "spec",
         "Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"
         "  - accessModes: [\"ReadWriteOnce\"]\n  + accessModes: [\"ReadWriteMany\"]\n"}}, pvc},
  });
}

TEST_CASE("PersistentVolume: source, capacity, immutability") {
  const json pv = json::parse(R"({"metadata":{"name":"pv-1"},"spec":{"accessModes":["ReadWriteOnce"],"capacity":{"storage":"1Gi"},
    "hostPath":{"path":"/data"},"persistentVolumeReclaimPolicy":"Retain","volumeMode":"Filesystem"}})");
  RunCases("persistentvolumes", {
      {"valid", pv, {}},
      {"no source, no capacity", Patched(pv, {{"spec", {{"hostPath", nullptr}, {"capacity", nullptr}}}}),
       {{T::kRequired, "spec.capacity", "Required value"},
        {T::kNotSupported, "spec.capacity", "Unsupported value: {}: supported values: \"storage\""},
        {T::kRequired, "spec", "Required value: must specify a volume type"}}},
      {"two sources, bad policy", Patched(pv, json::parse(R"({"spec":{"nfs":{"server":"s","path":"/x"},"persistentVolumeReclaimPolicy":"Keep"}})")),
       {{T::kNotSupported, "spec.persistentVolumeReclaimPolicy",
         "Unsupported value: \"Keep\": supported values: \"Delete\", \"Recycle\", \"Retain\""},
        {T::kForbidden, "spec.nfs", "Forbidden: may not specify more than 1 volume type"}}},
      {"source is immutable", Patched(pv, {{"spec", {{"hostPath", {{"path", "/other"}}}}}}),
       {{T::kForbidden, "spec.persistentvolumesource",
         "Forbidden: spec.persistentvolumesource is immutable after creation\n"
         "  - hostPath: {\"path\":\"/data\"}\n  + hostPath: {\"path\":\"/other\"}\n"}}, pv},
      {"capacity may change", Patched(pv, {{"spec", {{"capacity", {{"storage", "2Gi"}}}}}}), {}, pv},
  });
}

}  // namespace
}  // namespace kube::validation::testing
