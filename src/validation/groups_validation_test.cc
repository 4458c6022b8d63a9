// The smaller groups' validators: PodDisruptionBudget, Lease, HorizontalPodAutoscaler,
// EndpointSlice, events.k8s.io Event, webhook configurations, PriorityClass, StorageClass and
// VolumeAttachment.
#include "validation/groups_test_util.h"

namespace kube::validation::testing {
namespace {

TEST_CASE("PodDisruptionBudget") {
  const json base = {{"metadata", {{"name", "pdb"}, {"namespace", "ns"}}},
                     {"spec", {{"minAvailable", 1}, {"selector", {{"matchLabels", {{"app", "web"}}}}}}}};
  CheckCreate("policy", "poddisruptionbudgets", base,
              {
                  {"valid", json::object(), {}},
                  {"percent", {{"spec", {{"minAvailable", nullptr}, {"maxUnavailable", "50%"}}}}, {}},
                  {"both",
                   {{"spec", {{"maxUnavailable", 1}}}},
                   {"FieldValueInvalid spec: Invalid value: {\"MinAvailable\":1,\"Selector\":{\"matchLabels\":{\"app\":"
                    "\"web\"}},\"MaxUnavailable\":1,\"UnhealthyPodEvictionPolicy\":null}: minAvailable and "
                    "maxUnavailable cannot be both set"}},
                  {"negative",
                   {{"spec", {{"minAvailable", -1}}}},
                   {"FieldValueInvalid spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"}},
                  {"over 100%",
                   {{"spec", {{"minAvailable", "120%"}}}},
                   {"FieldValueInvalid spec.minAvailable: Invalid value: \"120%\": must not be greater than 100%"}},
                  {"eviction policy",
                   {{"spec", {{"unhealthyPodEvictionPolicy", "Never"}}}},
                   {"FieldValueNotSupported spec.unhealthyPodEvictionPolicy: Unsupported value: \"Never\": supported "
                    "values: \"AlwaysAllow\", \"IfHealthyBudget\""}},
              });
  CheckStatusUpdate("policy", "poddisruptionbudgets", base,
                    {{"negative",
                      {{"status", {{"disruptionsAllowed", -1}}}},
                      {"FieldValueInvalid status.disruptionsAllowed: Invalid value: -1: must be greater than or equal "
                       "to 0"}}});
}

TEST_CASE("Lease") {
  const json base = {{"metadata", {{"name", "leader"}, {"namespace", "ns"}}},
                     {"spec", {{"holderIdentity", "a"}, {"leaseDurationSeconds", 15}, {"leaseTransitions", 0}}}};
  CheckCreate("coordination.k8s.io", "leases", base,
              {
                  {"valid", json::object(), {}},
                  {"zero duration",
                   {{"spec", {{"leaseDurationSeconds", 0}}}},
                   {"FieldValueInvalid spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0"}},
                  {"negative transitions",
                   {{"spec", {{"leaseTransitions", -1}}}},
                   {"FieldValueInvalid spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"}},
                  {"preferred holder without strategy",
                   {{"spec", {{"preferredHolder", "b"}}}},
                   {"FieldValueForbidden spec.preferredHolder: Forbidden: may only be specified if `strategy` is "
                    "defined"}},
              });
}

json Autoscaler() {
  return {{"metadata", {{"name", "web"}, {"namespace", "ns"}}},
          {"spec",
           {{"scaleTargetRef", {{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"name", "web"}}},
            {"minReplicas", 1},
            {"maxReplicas", 5},
            {"metrics",
             {{{"type", "Resource"},
               {"resource", {{"name", "cpu"}, {"target", {{"type", "Utilization"}, {"averageUtilization", 80}}}}}}}}}}};
}

json Metric(const json& metric) { return {{"spec", {{"metrics", {metric}}}}}; }

TEST_CASE("HorizontalPodAutoscaler") {
  CheckCreate("autoscaling", "horizontalpodautoscalers", Autoscaler(),
              {
                  {"valid", json::object(), {}},
                  {"pods metric",
                   Metric({{"type", "Pods"},
                           {"pods", {{"metric", {{"name", "qps"}}}, {"target", {{"type", "AverageValue"}, {"averageValue", "10"}}}}}}),
                   {}},
                  {"min above max",
                   {{"spec", {{"minReplicas", 6}}}},
                   {"FieldValueInvalid spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`"}},
                  {"zero min",
                   {{"spec", {{"minReplicas", 0}}}},
                   {"FieldValueInvalid spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
                    "FieldValueForbidden spec.metrics: Forbidden: must specify at least one Object or External metric to "
                    "support scaling to zero replicas"}},
                  {"zero max",
                   {{"spec", {{"maxReplicas", 0}, {"minReplicas", nullptr}}}},
                   {"FieldValueInvalid spec.maxReplicas: Invalid value: 0: must be greater than 0"}},
                  {"no target name",
                   {{"spec", {{"scaleTargetRef", {{"name", ""}}}}}},
                   {"FieldValueRequired spec.scaleTargetRef.name: Required value"}},
                  {"missing source",
                   Metric({{"type", "Pods"}}),
                   {"FieldValueRequired spec.metrics[0].pods: Required value: must populate information for the given "
                    "metric source"}},
                  {"bad target type",
                   Metric({{"type", "Resource"}, {"resource", {{"name", "cpu"}, {"target", {{"type", "Max"}, {"averageUtilization", 0}}}}}}),
                   {"FieldValueInvalid spec.metrics[0].resource.target.type: Invalid value: \"Max\": must be either "
                    "Utilization, Value, or AverageValue",
                    "FieldValueInvalid spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be "
                    "greater than 0"}},
                  {"behavior policy",
                   {{"spec", {{"behavior", {{"scaleUp", {{"selectPolicy", "Max"}, {"policies", {{{"type", "Pods"}, {"value", 0}, {"periodSeconds", 2000}}}}}}}}}}},
                   {"FieldValueInvalid spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than "
                    "zero",
                    "FieldValueInvalid spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 2000: must be "
                    "less than or equal to 1800"}},
              });
}

json Slice() {
  return {{"metadata", {{"name", "web-abc"}, {"namespace", "ns"}}},
          {"addressType", "IPv4"},
          {"endpoints", {{{"addresses", {"10.1.2.3"}}, {"conditions", {{"ready", true}}}}}},
          {"ports", {{{"name", "http"}, {"protocol", "TCP"}, {"port", 80}}}}};
}

TEST_CASE("EndpointSlice") {
  CheckCreate("discovery.k8s.io", "endpointslices", Slice(),
              {
                  {"valid", json::object(), {}},
                  {"fqdn", {{"addressType", "FQDN"}, {"endpoints", {{{"addresses", {"db.example.com"}}}}}}, {}},
                  {"bad address type",
                   {{"addressType", "IPv5"}},
                   {"FieldValueNotSupported addressType: Unsupported value: \"IPv5\": supported values: \"FQDN\", "
                    "\"IPv4\", \"IPv6\""}},
                  {"loopback",
                   {{"endpoints", {{{"addresses", {"127.0.0.1"}}}}}},
                   {"FieldValueInvalid endpoints[0].addresses[0]: Invalid value: \"127.0.0.1\": may not be in the "
                    "loopback range (127.0.0.0/8, ::1/128)"}},
                  {"IPv6 in an IPv4 slice",
                   {{"endpoints", {{{"addresses", {"2001:db8::1"}}}}}},
                   {"FieldValueInvalid endpoints[0].addresses[0]: Invalid value: \"2001:db8::1\": must be an IPv4 address"}},
                  {"no addresses",
                   {{"endpoints", {{{"addresses", json::array()}}}}},
                   {"FieldValueRequired endpoints[0].addresses: Required value: must contain at least 1 address"}},
                  {"duplicate port name",
                   {{"ports", {{{"name", "http"}, {"protocol", "TCP"}}, {{"name", "http"}, {"protocol", "UDP"}}}}},
                   {"FieldValueDuplicate ports[1].name: Duplicate value: \"http\""}},
                  {"bad protocol",
                   {{"ports", {{{"name", "", }, {"protocol", "HTTP"}}}}},
                   {"FieldValueNotSupported ports[0].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", "
                    "\"TCP\", \"UDP\""}},
                  {"short fqdn",
                   {{"addressType", "FQDN"}, {"endpoints", {{{"addresses", {"db"}}}}}},
                   {"FieldValueInvalid endpoints[0].addresses[0]: Invalid value: \"db\": should be a domain with at "
                    "least two segments separated by dots"}},
              });
  CheckUpdate("discovery.k8s.io", "endpointslices", Slice(),
              {{"address type changed",
                {{"addressType", "FQDN"}, {"endpoints", {{{"addresses", {"a.example.com"}}}}}},
                {"FieldValueInvalid addressType: Invalid value: \"FQDN\": field is immutable"}}});
}

json EventV1() {
  return {{"metadata", {{"name", "web.1"}, {"namespace", "ns"}}},
          {"eventTime", "2026-01-01T00:00:00.000000Z"},
          {"reportingController", "example.com/controller"},
          {"reportingInstance", "controller-1"},
          {"action", "Scale"},
          {"reason", "ScalingUp"},
          {"type", "Normal"},
          {"note", "scaled"},
          {"regarding", {{"kind", "Deployment"}, {"namespace", "ns"}, {"name", "web"}}}};
}

TEST_CASE("events.k8s.io Event") {
  CheckCreate("events.k8s.io", "events", EventV1(),
              {
                  {"valid", json::object(), {}},
                  {"missing reporting fields",
                   {{"reportingController", nullptr}, {"reportingInstance", nullptr}, {"action", nullptr}},
                   {"FieldValueRequired reportingController: Required value",
                    "FieldValueInvalid reportingController: Invalid value: \"\": name part must be non-empty",
                    "FieldValueInvalid reportingController: Invalid value: \"\": name part must consist of alphanumeric "
                    "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  "
                    "or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                    "FieldValueRequired reportingInstance: Required value",
                    "FieldValueRequired action: Required value"}},
                  {"long note",
                   {{"note", std::string(1025, 'n')}},
                   {"FieldValueInvalid message: Invalid value: \"\": can have at most 1024 characters"}},
                  {"bad type",
                   {{"type", "Info"}},
                   {"FieldValueInvalid type: Invalid value: \"\": has invalid value: Info"}},
                  {"no event time",
                   {{"eventTime", nullptr}},
                   {"FieldValueRequired eventTime: Required value"}},
                  {"other namespace",
                   {{"regarding", {{"namespace", "other"}}}},
                   {}},
                  {"deprecated count",
                   {{"deprecatedCount", 3}},
                   {"FieldValueInvalid deprecatedCount: Invalid value: \"\": needs to be unset"}},
                  {"short series",
                   {{"series", {{"count", 1}, {"lastObservedTime", "2026-01-01T00:00:00.000000Z"}}}},
                   {"FieldValueInvalid series.count: Invalid value: \"\": should be at least 2"}},
              });
  CheckUpdate("events.k8s.io", "events", EventV1(),
              {
                  {"series", {{"series", {{"count", 2}, {"lastObservedTime", "2026-01-01T00:01:00.000000Z"}}}}, {}},
                  {"note changed",
                   {{"note", "other"}},
                   {"FieldValueInvalid message: Invalid value: \"other\": field is immutable"}},
              });
}

json Webhooks() {
  return {{"metadata", {{"name", "policy"}}},
          {"webhooks",
           {{{"name", "check.example.com"},
             {"clientConfig", {{"service", {{"name", "hook"}, {"namespace", "ns"}, {"path", "/validate"}, {"port", 443}}}}},
             {"rules",
              {{{"operations", {"CREATE", "UPDATE"}}, {"apiGroups", {"apps"}}, {"apiVersions", {"v1"}}, {"resources", {"deployments"}}, {"scope", "*"}}}},
             {"failurePolicy", "Fail"},
             {"matchPolicy", "Equivalent"},
             {"namespaceSelector", json::object()},
             {"objectSelector", json::object()},
             {"sideEffects", "None"},
             {"timeoutSeconds", 10},
             {"admissionReviewVersions", {"v1"}}}}}};
}

json Hook(const json& patch) {
  json hook = Webhooks()["webhooks"][0];
  hook.merge_patch(patch);
  return {{"webhooks", {hook}}};
}

TEST_CASE("webhook configurations") {
  CheckCreate("admissionregistration.k8s.io", "validatingwebhookconfigurations", Webhooks(),
              {
                  {"valid", json::object(), {}},
                  {"url", Hook({{"clientConfig", {{"service", nullptr}, {"url", "https://hooks.example.com/v"}}}}), {}},
                  {"short name",
                   Hook({{"name", "check"}}),
                   {"FieldValueInvalid webhooks[0].name: Invalid value: \"check\": should be a domain with at least "
                    "three segments separated by dots"}},
                  {"no side effects",
                   Hook({{"sideEffects", nullptr}}),
                   {"FieldValueRequired webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun"}},
                  {"side effects Some",
                   Hook({{"sideEffects", "Some"}}),
                   {"FieldValueNotSupported webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: "
                    "\"None\", \"NoneOnDryRun\""}},
                  {"no review versions",
                   Hook({{"admissionReviewVersions", json::array()}}),
                   {"FieldValueRequired webhooks[0].admissionReviewVersions: Required value: must specify one of v1, "
                    "v1beta1"}},
                  {"unknown review version",
                   Hook({{"admissionReviewVersions", {"v2"}}}),
                   {"FieldValueInvalid webhooks[0].admissionReviewVersions: Invalid value: [\"v2\"]: must include at "
                    "least one of v1, v1beta1"}},
                  {"both url and service",
                   Hook({{"clientConfig", {{"url", "https://x.example.com"}}}}),
                   {"FieldValueRequired webhooks[0].clientConfig: Required value: exactly one of url or service is "
                    "required"}},
                  {"http url",
                   Hook({{"clientConfig", {{"service", nullptr}, {"url", "http://hooks.example.com?x=1"}}}}),
                   {"FieldValueInvalid webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only "
                    "allowed URL scheme; desired format: https://host[/path]",
                    "FieldValueInvalid webhooks[0].clientConfig.url: Invalid value: \"x=1\": query parameters are not "
                    "permitted in the URL"}},
                  {"service without name",
                   Hook({{"clientConfig", {{"service", {{"name", ""}}}}}}),
                   {"FieldValueRequired webhooks[0].clientConfig.service.namespace: Required value"}},
                  {"bad rule",
                   Hook({{"rules", {{{"operations", {"*", "CREATE"}}, {"apiGroups", json::array()}, {"apiVersions", {"v1"}}, {"resources", {"*", "pods"}}}}}}),
                   {"FieldValueInvalid webhooks[0].rules[0].operations: Invalid value: [\"*\",\"CREATE\"]: if '*' is "
                    "present, must not specify other operations",
                    "FieldValueRequired webhooks[0].rules[0].apiGroups: Required value",
                    "FieldValueInvalid webhooks[0].rules[0].resources: Invalid value: [\"*\",\"pods\"]: if '*' is "
                    "present, must not specify other resources without subresources"}},
                  {"timeout",
                   Hook({{"timeoutSeconds", 31}}),
                   {"FieldValueInvalid webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between "
                    "1 and 30 seconds"}},
                  {"duplicate names",
                   {{"webhooks", {Webhooks()["webhooks"][0], Webhooks()["webhooks"][0]}}},
                   {"FieldValueDuplicate webhooks[1].name: Duplicate value: \"check.example.com\""}},
              });
  json mutating = Webhooks();
  mutating["webhooks"][0]["reinvocationPolicy"] = "Never";
  CheckCreate("admissionregistration.k8s.io", "mutatingwebhookconfigurations", mutating,
              {
                  {"valid", json::object(), {}},
                  {"reinvocation",
                   {{"webhooks", {Patched(mutating["webhooks"][0], {{"reinvocationPolicy", "Always"}})}}},
                   {"FieldValueNotSupported webhooks[0].reinvocationPolicy: Unsupported value: \"Always\": supported "
                    "values: \"IfNeeded\", \"Never\""}},
              });
  // A configuration stored with side effects Unknown (v1beta1 days) keeps being updatable.
  json legacy = Webhooks();
  legacy["webhooks"][0]["sideEffects"] = "Unknown";
  CheckUpdate("admissionregistration.k8s.io", "validatingwebhookconfigurations", legacy,
              {{"unchanged", json::object(), {}}});
}

TEST_CASE("PriorityClass") {
  const json base = {{"metadata", {{"name", "high"}}}, {"value", 1000}, {"preemptionPolicy", "PreemptLowerPriority"}};
  CheckCreate("scheduling.k8s.io", "priorityclasses", base,
              {
                  {"valid", json::object(), {}},
                  {"system class", {{"metadata", {{"name", "system-node-critical"}}}, {"value", 2000001000}}, {}},
                  {"too high",
                   {{"value", 1000000001}},
                   {"FieldValueForbidden value: Forbidden: maximum allowed value of a user defined priority is 1000000000"}},
                  {"reserved prefix",
                   {{"metadata", {{"name", "system-mine"}}}},
                   {"FieldValueForbidden metadata.name: Forbidden: priority class names with 'system-' prefix are "
                    "reserved for system use only. error: system-mine is not a known system priority class"}},
                  {"system class with the wrong value",
                   {{"metadata", {{"name", "system-cluster-critical"}}}},
                   {"FieldValueForbidden metadata.name: Forbidden: priority class names with 'system-' prefix are "
                    "reserved for system use only. error: value of system-cluster-critical PriorityClass must be "
                    "2000000000"}},
                  {"preemption policy",
                   {{"preemptionPolicy", "Sometimes"}},
                   {"FieldValueNotSupported preemptionPolicy: Unsupported value: \"Sometimes\": supported values: "
                    "\"PreemptLowerPriority\", \"Never\""}},
              });
  CheckUpdate("scheduling.k8s.io", "priorityclasses", base,
              {
                  {"description", {{"description", "x"}}, {}},
                  {"value", {{"value", 5}}, {"FieldValueForbidden value: Forbidden: may not be changed in an update."}},
              });
}

TEST_CASE("StorageClass and VolumeAttachment") {
  const json base = {{"metadata", {{"name", "fast"}}},
                     {"provisioner", "ebs.csi.aws.com"},
                     {"parameters", {{"type", "gp3"}}},
                     {"reclaimPolicy", "Delete"},
                     {"volumeBindingMode", "WaitForFirstConsumer"}};
  CheckCreate("storage.k8s.io", "storageclasses", base,
              {
                  {"valid", json::object(), {}},
                  {"no provisioner", {{"provisioner", ""}}, {"FieldValueRequired provisioner: Required value"}},
                  {"reclaim policy",
                   {{"reclaimPolicy", "Recycle"}},
                   {"FieldValueNotSupported reclaimPolicy: Unsupported value: \"Recycle\": supported values: \"Delete\", "
                    "\"Retain\""}},
                  {"binding mode",
                   {{"volumeBindingMode", "Later"}},
                   {"FieldValueNotSupported volumeBindingMode: Unsupported value: \"Later\": supported values: "
                    "\"Immediate\", \"WaitForFirstConsumer\""}},
              });
  CheckUpdate("storage.k8s.io", "storageclasses", base,
              {
                  {"labels", {{"metadata", {{"labels", {{"a", "b"}}}}}}, {}},
                  {"parameters",
                   {{"parameters", {{"type", "io2"}}}},
                   {R"(FieldValueInvalid parameters: Invalid value: {"type":"io2"}: field is immutable)"}},
                  {"binding mode",
                   {{"volumeBindingMode", "Immediate"}},
                   {"FieldValueInvalid volumeBindingMode: Invalid value: \"Immediate\": field is immutable"}},
              });
  const json attachment = {{"metadata", {{"name", "va"}}},
                           {"spec", {{"attacher", "ebs.csi.aws.com"}, {"nodeName", "node-1"}, {"source", {{"persistentVolumeName", "pv-1"}}}}}};
  CheckCreate("storage.k8s.io", "volumeattachments", attachment,
              {
                  {"valid", json::object(), {}},
                  {"no source",
                   {{"spec", {{"source", {{"persistentVolumeName", nullptr}}}}}},
                   {"FieldValueRequired spec.source: Required value: must specify exactly one of inlineVolumeSpec and "
                    "persistentVolumeName"}},
              });
}

}  // namespace
}  // namespace kube::validation::testing
