#include "validation/validation_test_util.h"

namespace kube::validation::testing {
namespace {

using T = FieldError::Type;
using nlohmann::json;

TEST_CASE("Node: taints, pod CIDRs, immutability") {
  const json node = json::parse(R"({"metadata":{"name":"n1"},"spec":{"podCIDRs":["10.244.0.0/24"],"providerID":"kind://n1",
    "taints":[{"key":"dedicated","value":"db","effect":"NoSchedule"}]},"status":{"capacity":{"cpu":"4","pods":"110"}}})");
  RunCases("nodes", {
      {"valid", node, {}},
      {"bad taints", Patched(node, json::parse(R"({"spec":{"taints":[{"key":"a","effect":"Never"},{"key":"b"},
         {"key":"c","effect":"NoSchedule"},{"key":"c","effect":"NoSchedule"}]}})")),
       {{T::kNotSupported, "metadata.taints[0].effect",
         "Unsupported value: \"Never\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""},
        {T::kRequired, "metadata.taints[1].effect", "Required value"},
        {T::kDuplicate, "metadata.taints[3]",
         "Duplicate value: {\"Key\":\"c\",\"Value\":\"\",\"Effect\":\"NoSchedule\",\"TimeAdded\":null}: taints must be unique by key and effect pair"}}},
      {"bad CIDR and fractional pods", Patched(node, json::parse(R"({"spec":{"podCIDRs":["10.244.0.0/33"]},"status":{"capacity":{"pods":"1500m"}}})")),
       {{T::kInvalid, "status.capacity.pods", "Invalid value: \"1500m\": must be an integer"},
        {T::kInvalid, "spec.podCIDRs[0]", "Invalid value: \"10.244.0.0/33\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"}}},
      {"podCIDRs and providerID are immutable", Patched(node, json::parse(R"({"spec":{"podCIDRs":["10.245.0.0/24"],"providerID":"kind://n2"}})")),
       {{T::kForbidden, "spec.podCIDRs", "Forbidden: node updates may not change podCIDR except from \"\" to valid"},
        {T::kForbidden, "spec.providerID", "Forbidden: node updates may not change providerID except from \"\" to valid"}}, node},
      {"unschedulable may change", Patched(node, {{"spec", {{"unschedulable", true}}}}), {}, node},
  });
}

TEST_CASE("Event (core v1): namespaces and reporting fields") {
  const json event = json::parse(R"({"metadata":{"name":"e","namespace":"default"},
    "involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reason":"Started","message":"m","type":"Normal"})");
  RunCases("events", {
      {"valid", event, {}},
      {"involved object in another namespace", Patched(event, {{"involvedObject", {{"namespace", "other"}}}}),
       {{T::kInvalid, "involvedObject.namespace", "Invalid value: \"other\": does not match event.namespace"}}},
      {"new-style event needs reporting fields",
       Patched(event, json::parse(R"({"eventTime":"2026-01-01T00:00:00.000000Z","reason":null,"involvedObject":{"namespace":null},
         "metadata":{"namespace":"apps"}})")),
       {{T::kInvalid, "involvedObject.namespace", "Invalid value: \"\": does not match event.namespace"},
        {T::kRequired, "reportingController", "Required value"},
        {T::kInvalid, "reportingController", "Invalid value: \"\": name part must be non-empty"},
        {T::kInvalid, "reportingController",
         "Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
         "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
         "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
        {T::kRequired, "reportingInstance", "Required value"},
        {T::kRequired, "action", "Required value"},
        {T::kRequired, "reason", "Required value"}}},
  });
}

TEST_CASE("LimitRange and ResourceQuota") {
  const json lr = json::parse(R"({"metadata":{"name":"l","namespace":"default"},"spec":{"limits":[{"type":"Container",
    "max":{"cpu":"2"},"min":{"cpu":"100m"},"default":{"cpu":"1"},"defaultRequest":{"cpu":"500m"}}]}})");
  RunCases("limitranges", {
      {"valid", lr, {}},
      {"min above max, unknown type", Patched(lr, json::parse(R"({"spec":{"limits":[{"type":"Thing","max":{"cpu":"1"},"min":{"cpu":"2"}}]}})")),
       {{T::kInvalid, "spec.limits[0].type", "Invalid value: \"Thing\": must be a standard limit type or fully qualified"},
        {T::kInvalid, "spec.limits[0].min[cpu]", "Invalid value: \"2\": min value 2 is greater than max value 1"}}},
  });
  const json rq = json::parse(R"({"metadata":{"name":"q","namespace":"default"},"spec":{"hard":{"pods":"10","requests.cpu":"4"}}})");
  RunCases("resourcequotas", {
      {"valid", rq, {}},
      {"negative and fractional, unknown name", Patched(rq, json::parse(R"({"spec":{"hard":{"pods":"1.5","cpu":"-1","widgets":"1"}}})")),
       {{T::kInvalid, "spec.hard[cpu]", "Invalid value: \"-1\": must be greater than or equal to 0"},
        {T::kInvalid, "spec.hard[pods]", "Invalid value: \"1.5\": must be an integer"},
        {T::kInvalid, "spec.hard[widgets]", "Invalid value: \"widgets\": must be a standard resource type or fully qualified"},
        {T::kInvalid, "spec.hard[widgets]", "Invalid value: \"widgets\": must be a standard resource for quota"}}},
      {"scopes are immutable", Patched(rq, {{"spec", {{"scopes", json::array({"BestEffort"})}}}}),
       {{T::kInvalid, "spec.scopes", "Invalid value: [\"BestEffort\"]: field is immutable"}}, rq},
  });
}

}  // namespace
}  // namespace kube::validation::testing
