#include "validation/pod_spec.h"
#include "validation/validation_test_util.h"

namespace kube::validation::testing {
namespace {

using T = FieldError::Type;
using nlohmann::json;

const json kContainer = json::parse(R"({"name":"app","image":"nginx:1.27","imagePullPolicy":"IfNotPresent",
  "terminationMessagePolicy":"File","terminationMessagePath":"/dev/termination-log"})");

json Container(const json& patch) { return Patched(kContainer, patch); }

json Pod(const json& spec_patch) {
  json pod = json::parse(R"({"metadata":{"name":"p","namespace":"default"},"spec":{"restartPolicy":"Always",
    "dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30,"securityContext":{},
    "schedulerName":"default-scheduler","enableServiceLinks":true}})");
  pod["spec"]["containers"] = json::array({kContainer});
  if (spec_patch.is_object()) pod["spec"].merge_patch(spec_patch);
  return pod;
}

const std::string kLabelRegex =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

TEST_CASE("Pod: create") {
  json probe = json::parse(R"({"httpGet":{"path":"/","port":8080,"scheme":"HTTP"},"timeoutSeconds":1,
    "periodSeconds":10,"successThreshold":1,"failureThreshold":3})");
  RunCases("pods", {
      {"valid", Pod({}), {}},
      {"valid with volumes, mounts, env, probes and resources",
       Pod({{"volumes", json::parse(R"([{"name":"data","emptyDir":{}},{"name":"cfg","configMap":{"name":"c","defaultMode":420}}])")},
            {"containers", json::array({Container({{"volumeMounts", json::parse(R"([{"name":"data","mountPath":"/data"},{"name":"cfg","mountPath":"/etc/cfg"}])")},
                                                   {"env", json::parse(R"([{"name":"A","value":"1"},{"name":"POD","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}])")},
                                                   {"ports", json::parse(R"([{"name":"http","containerPort":8080,"protocol":"TCP"}])")},
                                                   {"livenessProbe", probe},
                                                   {"resources", json::parse(R"({"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m","memory":"1Gi"}})")}})})}}),
       {}},
      {"no containers", Pod({{"containers", json::array()}}), {{T::kRequired, "spec.containers", "Required value"}}},
      {"container name and image",
       Pod({{"containers", json::array({Container({{"name", "Bad_Name"}, {"image", ""}})})}}),
       {{T::kInvalid, "spec.containers[0].name", "Invalid value: \"Bad_Name\": " + kLabelRegex},
        {T::kRequired, "spec.containers[0].image", "Required value"}}},
      {"duplicate container names", Pod({{"containers", json::array({kContainer, kContainer})}}),
       {{T::kDuplicate, "spec.containers[1].name", "Duplicate value: \"app\""}}},
      {"ports", Pod({{"containers", json::array({Container({{"ports", json::parse(R"([{"containerPort":0,"protocol":"TCP"},
          {"name":"TooLongPortName123","containerPort":70000,"hostPort":-1,"protocol":"ICMP"}])")}})})}}),
       {{T::kRequired, "spec.containers[0].ports[0].containerPort", "Required value"},
        {T::kInvalid, "spec.containers[0].ports[1].name", "Invalid value: \"TooLongPortName123\": must be no more than 15 characters"},
        {T::kInvalid, "spec.containers[0].ports[1].name",
         "Invalid value: \"TooLongPortName123\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"},
        {T::kInvalid, "spec.containers[0].ports[1].containerPort", "Invalid value: 70000: must be between 1 and 65535, inclusive"},
        {T::kInvalid, "spec.containers[0].ports[1].hostPort", "Invalid value: -1: must be between 1 and 65535, inclusive"},
        {T::kNotSupported, "spec.containers[0].ports[1].protocol",
         "Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\""}}},
      {"env", Pod({{"containers", json::array({Container({{"env", json::parse(R"([{"name":""},{"name":"A=B"},
          {"name":"X","valueFrom":{}},{"name":"Y","value":"v","valueFrom":{"secretKeyRef":{"name":"s","key":"k"}}}])")}})})}}),
       {{T::kRequired, "spec.containers[0].env[0].name", "Required value"},
        {T::kInvalid, "spec.containers[0].env[1].name",
         "Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='"},
        {T::kInvalid, "spec.containers[0].env[2].valueFrom",
         "Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"},
        {T::kInvalid, "spec.containers[0].env[3].valueFrom", "Invalid value: \"\": may not be specified when `value` is not empty"}}},
      {"env fieldRef not supported",
       Pod({{"containers", json::array({Container({{"env", json::parse(R"([{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"spec.restartPolicy"}}}])")}})})}}),
       {{T::kNotSupported, "spec.containers[0].env[0].valueFrom.fieldRef.fieldPath",
         "Unsupported value: \"spec.restartPolicy\": supported values: \"metadata.name\", \"metadata.namespace\", "
         "\"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", "
         "\"status.podIP\", \"status.podIPs\""}}},
      {"mount of a missing volume",
       Pod({{"containers", json::array({Container({{"volumeMounts", json::parse(R"([{"name":"nope","mountPath":"/x"}])")}})})}}),
       {{T::kNotFound, "spec.containers[0].volumeMounts[0].name", "Not found: \"nope\""}}},
      {"volumes: duplicate names, no source, two sources",
       Pod({{"volumes", json::parse(R"([{"name":"a","emptyDir":{}},{"name":"a","emptyDir":{}},{"name":"b"},
            {"name":"c","emptyDir":{},"hostPath":{"path":"/tmp"}},{"name":"d","hostPath":{"path":"/a/../b","type":"Weird"}}])")}}),
       {{T::kDuplicate, "spec.volumes[1].name", "Duplicate value: \"a\""},
        {T::kRequired, "spec.volumes[2]", "Required value: must specify a volume type"},
        {T::kForbidden, "spec.volumes[3].hostPath", "Forbidden: may not specify more than 1 volume type"},
        {T::kInvalid, "spec.volumes[4].hostPath.path", "Invalid value: \"/a/../b\": must not contain '..'"},
        {T::kNotSupported, "spec.volumes[4].hostPath.type",
         "Unsupported value: \"Weird\": supported values: \"\", \"BlockDevice\", \"CharDevice\", \"Directory\", "
         "\"DirectoryOrCreate\", \"File\", \"FileOrCreate\", \"Socket\""}}},
      {"secret and pvc sources",
       Pod({{"volumes", json::parse(R"([{"name":"s","secret":{"defaultMode":1000,"items":[{"key":"","path":"/abs"}]}},
            {"name":"v","persistentVolumeClaim":{}}])")}}),
       {{T::kRequired, "spec.volumes[0].secret.secretName", "Required value"},
        {T::kInvalid, "spec.volumes[0].secret.defaultMode",
         "Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive"},
        {T::kRequired, "spec.volumes[0].secret.items[0].key", "Required value"},
        {T::kInvalid, "spec.volumes[0].secret.items[0].path", "Invalid value: \"/abs\": must be a relative path"},
        {T::kRequired, "spec.volumes[1].persistentVolumeClaim.claimName", "Required value"}}},
      {"resources: request above limit, negative, unknown name",
       Pod({{"containers", json::array({Container({{"resources", json::parse(R"({"limits":{"cpu":"1","memory":"-1Gi"},
           "requests":{"cpu":"2","memory":"-1Gi","widgets":"1"}})")}})})}}),
       {{T::kInvalid, "spec.containers[0].resources.limits[memory]", "Invalid value: \"-1Gi\": must be greater than or equal to 0"},
        {T::kInvalid, "spec.containers[0].resources.requests", "Invalid value: \"2\": must be less than or equal to cpu limit of 1"},
        {T::kInvalid, "spec.containers[0].resources.requests[memory]", "Invalid value: \"-1Gi\": must be greater than or equal to 0"},
        {T::kInvalid, "spec.containers[0].resources.requests[widgets]",
         "Invalid value: \"widgets\": must be a standard resource type or fully qualified"},
        {T::kInvalid, "spec.containers[0].resources.requests[widgets]",
         "Invalid value: \"widgets\": must be a standard resource for containers"}}},
      {"probes: no handler, two handlers, thresholds",
       Pod({{"containers", json::array({Container({{"livenessProbe", json::parse(R"({"successThreshold":2,"failureThreshold":-1})")},
                                                   {"readinessProbe", json::parse(R"({"exec":{"command":["true"]},"tcpSocket":{"port":80},"successThreshold":1})")}})})}}),
       {{T::kRequired, "spec.containers[0].livenessProbe", "Required value: must specify a handler type"},
        {T::kInvalid, "spec.containers[0].livenessProbe.failureThreshold", "Invalid value: -1: must be greater than or equal to 0"},
        {T::kInvalid, "spec.containers[0].livenessProbe.successThreshold", "Invalid value: 2: must be 1"},
        {T::kForbidden, "spec.containers[0].readinessProbe.tcpSocket", "Forbidden: may not specify more than 1 handler type"}}},
      {"restart and dns policy, grace period, node selector",
       Pod({{"restartPolicy", "Sometimes"}, {"dnsPolicy", "Google"}, {"terminationGracePeriodSeconds", nullptr},
            {"nodeSelector", {{"kubernetes.io/os", "li nux"}}}}),
       {{T::kRequired, "spec.terminationGracePeriodSeconds", "Required value"},
        {T::kNotSupported, "spec.restartPolicy", "Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\""},
        {T::kNotSupported, "spec.dnsPolicy",
         "Unsupported value: \"Google\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\""},
        {T::kInvalid, "spec.nodeSelector",
         "Invalid value: \"li nux\": a valid label must be an empty string or consist of alphanumeric characters, '-', "
         "'_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
         "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}}},
      {"tolerations", Pod({{"tolerations", json::parse(R"([{"operator":"Equal","value":"x"},{"key":"k","operator":"Exists","value":"v"},
           {"key":"k","operator":"Equal","effect":"NoSchedule","tolerationSeconds":5},{"key":"k","effect":"Sometimes"}])")}}),
       {{T::kInvalid, "spec.tolerations[0].operator",
         "Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""},
        {T::kInvalid, "spec.tolerations[1].operator", "Invalid value: \"v\": value must be empty when `operator` is 'Exists'"},
        {T::kInvalid, "spec.tolerations[2].effect", "Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"},
        {T::kNotSupported, "spec.tolerations[3].effect",
         "Unsupported value: \"Sometimes\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""}}},
      {"security context and active deadline",
       Pod({{"activeDeadlineSeconds", 0}, {"securityContext", {{"runAsUser", -1}}},
            {"containers", json::array({Container({{"securityContext", {{"runAsGroup", 3000000000LL}}}})})}}),
       {{T::kInvalid, "spec.containers[0].securityContext.runAsGroup",
         "Invalid value: 3000000000: must be between 0 and 2147483647, inclusive"},
        {T::kInvalid, "spec.securityContext.runAsUser", "Invalid value: -1: must be between 0 and 2147483647, inclusive"},
        {T::kInvalid, "spec.activeDeadlineSeconds", "Invalid value: 0: must be between 1 and 2147483647, inclusive"}}},
      {"ephemeral containers on create", Pod({{"ephemeralContainers", json::array({Container({{"name", "debug"}})})}}),
       {{T::kForbidden, "spec.ephemeralContainers", "Forbidden: cannot be set on create"}}},
      {"init container probes", Pod({{"initContainers", json::array({Container({{"name", "init"}, {"livenessProbe", probe}})})}}),
       {{T::kForbidden, "spec.initContainers[0].livenessProbe", "Forbidden: may not be set for init containers without restartPolicy=Always"}}},
      {"image whitespace", Pod({{"containers", json::array({Container({{"image", " nginx"}})})}}),
       {{T::kInvalid, "spec.containers[0].image", "Invalid value: \" nginx\": must not have leading or trailing whitespace"}}},
  });
}

TEST_CASE("Pod: update") {
  const json pod = Pod({{"tolerations", json::parse(R"([{"key":"a","operator":"Exists","effect":"NoExecute","tolerationSeconds":10}])")}});
  json new_image = pod;
  new_image["spec"]["containers"][0]["image"] = "nginx:1.28";
  json more_tolerations = pod;
  more_tolerations["spec"]["tolerations"][0]["tolerationSeconds"] = 20;
  more_tolerations["spec"]["tolerations"].push_back({{"key", "b"}, {"operator", "Exists"}});
  json restart = pod;
  restart["spec"]["restartPolicy"] = "Never";
  json removed = pod;
  removed["spec"]["tolerations"] = json::array();
  json added_container = pod;
  added_container["spec"]["containers"].push_back(Container({{"name", "two"}}));
  json deadline = Patched(pod, {{"spec", {{"activeDeadlineSeconds", 100}}}});
  RunCases("pods", {
      {"image may change", new_image, {}, pod},
      {"tolerations may be added", more_tolerations, {}, pod},
      {"active deadline may be set", deadline, {}, pod},
      {"active deadline may not grow", Patched(pod, {{"spec", {{"activeDeadlineSeconds", 200}}}}),
       {{T::kInvalid, "spec.activeDeadlineSeconds", "Invalid value: 200: must be less than or equal to previous value"}}, deadline},
      {"containers may not be added", added_container,
       {{T::kForbidden, "spec.containers", "Forbidden: pod updates may not add or remove containers"}}, pod},
      {"tolerations may not be removed", removed,
       {{T::kForbidden, "spec.tolerations", "Forbidden: existing toleration can not be modified except its tolerationSeconds"}}, pod},
      {"other fields may not change", restart,
       {{T::kForbidden, "spec",
         "Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,"
         "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"
         "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n"
         "  - restartPolicy: \"Always\"\n  + restartPolicy: \"Never\"\n"}}, pod},
  });
}

TEST_CASE("PodTemplate and the exported pod template validation") {
  json tmpl = {{"metadata", {{"labels", {{"app", "x"}}}}}, {"spec", Pod({})["spec"]}};
  RunCases("podtemplates", {
      {"valid", {{"metadata", {{"name", "t"}, {"namespace", "default"}}}, {"template", tmpl}}, {}},
      {"bad label, no containers",
       {{"metadata", {{"name", "t"}, {"namespace", "default"}}},
        {"template", Patched(tmpl, {{"metadata", {{"labels", {{"-x", "y"}}}}}, {"spec", {{"containers", json::array()}}}})}},
       {{T::kInvalid, "template.labels",
         "Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and "
         "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
         "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
        {T::kRequired, "template.spec.containers", "Required value"}}},
  });
  auto errors = ValidatePodTemplateSpec(Patched(tmpl, {{"spec", {{"restartPolicy", ""}}}}), "spec.template");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].field == "spec.template.spec.restartPolicy");
  CHECK(errors[0].type == T::kRequired);
}

TEST_CASE("ReplicationController") {
  json tmpl = {{"metadata", {{"labels", {{"app", "x"}}}}}, {"spec", Pod({})["spec"]}};
  json rc = {{"metadata", {{"name", "rc"}, {"namespace", "default"}}},
             {"spec", {{"replicas", 1}, {"selector", {{"app", "x"}}}, {"template", tmpl}}}};
  RunCases("replicationcontrollers", {
      {"valid", rc, {}},
      {"selector mismatch, negative replicas, restart policy",
       Patched(rc, {{"spec", {{"replicas", -1}, {"selector", {{"app", "y"}}}, {"template", {{"spec", {{"restartPolicy", "Never"}}}}}}}}),
       {{T::kInvalid, "spec.replicas", "Invalid value: -1: must be greater than or equal to 0"},
        {T::kInvalid, "spec.template.metadata.labels", "Invalid value: {\"app\":\"x\"}: `selector` does not match template `labels`"},
        {T::kNotSupported, "spec.template.spec.restartPolicy", "Unsupported value: \"Never\": supported values: \"Always\""}}},
  });
}

}  // namespace
}  // namespace kube::validation::testing
