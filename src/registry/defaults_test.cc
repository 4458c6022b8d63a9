// ApplyDefaults: minimal objects of the common kinds get exactly kube's defaults, values the
// client set are kept, the imagePullPolicy rules, and garbage-shaped objects neither throw nor
// stop defaulting from being idempotent.
#include "registry/defaults.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <string>
#include <vector>

namespace kube::registry {
namespace {

using Json = nlohmann::json;

Json Defaulted(std::string_view group, std::string_view version, std::string_view kind, Json obj) {
  ApplyDefaults(group, version, kind, &obj);
  return obj;
}

// Compares with a readable diff on failure.
void CheckEqual(const Json& got, const Json& want) {
  INFO("diff (want -> got): " << Json::diff(want, got).dump());
  CHECK(got == want);
}

// The pod-spec defaults every template gets, around the given containers.
const char* kTemplateSpecDefaults = R"({
  "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "schedulerName": "default-scheduler",
  "securityContext": {}, "terminationGracePeriodSeconds": 30})";

Json NginxContainer(const char* image = "nginx:1.25", const char* policy = "IfNotPresent") {
  return Json{{"name", "nginx"},
              {"image", image},
              {"imagePullPolicy", policy},
              {"terminationMessagePath", "/dev/termination-log"},
              {"terminationMessagePolicy", "File"}};
}

Json TemplateSpec(Json containers) {
  Json spec = Json::parse(kTemplateSpecDefaults);
  spec["containers"] = std::move(containers);
  return spec;
}

TEST_CASE("minimal Deployment gets kube's defaults") {
  Json in = Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
    "spec":{"selector":{"matchLabels":{"app":"web"}},
            "template":{"metadata":{"labels":{"app":"web"}},
                        "spec":{"containers":[{"name":"nginx","image":"nginx:1.25"}]}}}})");
  Json want = in;
  want["spec"]["replicas"] = 1;
  want["spec"]["revisionHistoryLimit"] = 10;
  want["spec"]["progressDeadlineSeconds"] = 600;
  want["spec"]["strategy"] = Json::parse(R"({"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}})");
  want["spec"]["template"]["spec"] = TemplateSpec({NginxContainer()});
  CheckEqual(Defaulted("apps", "v1", "Deployment", in), want);
}

TEST_CASE("Deployment with Recreate gets no rollingUpdate") {
  Json in = Json::parse(R"({"spec":{"strategy":{"type":"Recreate"},"template":{"spec":{"containers":[]}}}})");
  Json got = Defaulted("apps", "v1", "Deployment", in);
  CheckEqual(got["spec"]["strategy"], Json{{"type", "Recreate"}});
}

TEST_CASE("minimal Pod gets kube's defaults") {
  Json in = Json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
    "spec":{"containers":[{"name":"nginx","image":"nginx:1.25","ports":[{"containerPort":80}]}]}})");
  Json want = in;
  Json c = NginxContainer();
  c["ports"] = Json::parse(R"([{"containerPort":80,"protocol":"TCP"}])");
  want["spec"] = TemplateSpec({c});
  want["spec"]["enableServiceLinks"] = true;
  CheckEqual(Defaulted("", "v1", "Pod", in), want);
}

TEST_CASE("Pod: probes, lifecycle, env, volumes, init and ephemeral containers, host network, requests") {
  Json in = Json::parse(R"({"spec":{
    "hostNetwork": true,
    "initContainers":[{"name":"init","image":"busybox","resources":{"limits":{"cpu":"1"},"requests":{"memory":"1Gi"}}}],
    "ephemeralContainers":[{"name":"debug","image":"busybox:latest"}],
    "containers":[{"name":"app","image":"app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
      "ports":[{"containerPort":8080},{"containerPort":9090,"hostPort":19090,"protocol":"UDP"}],
      "resources":{"limits":{"cpu":"500m","memory":"128Mi"}},
      "env":[{"name":"NODE","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}},{"name":"X","value":"y"}],
      "livenessProbe":{"httpGet":{"port":8080}},
      "readinessProbe":{"tcpSocket":{"port":8080},"periodSeconds":5},
      "startupProbe":{"grpc":{"port":9090}},
      "lifecycle":{"preStop":{"httpGet":{"port":8080,"path":"/stop"}},"postStart":{"exec":{"command":["true"]}}}}],
    "volumes":[{"name":"scratch"},{"name":"cm","configMap":{"name":"c"}},{"name":"s","secret":{"secretName":"s","defaultMode":256}},
      {"name":"d","downwardAPI":{"items":[{"path":"labels","fieldRef":{"fieldPath":"metadata.labels"}}]}},
      {"name":"p","projected":{"sources":[{"serviceAccountToken":{"path":"token"}},
                                          {"downwardAPI":{"items":[{"path":"n","fieldRef":{"fieldPath":"metadata.name"}}]}}]}},
      {"name":"h","hostPath":{"path":"/var"}},
      {"name":"e","ephemeral":{"volumeClaimTemplate":{"spec":{"accessModes":["ReadWriteOnce"]}}}},
      {"name":"img","image":{"reference":"quay.io/x/y:v1"}},
      {"name":"pvc","persistentVolumeClaim":{"claimName":"c"}}]}})");
  Json spec = Defaulted("", "v1", "Pod", in)["spec"];

  Json init = spec["initContainers"][0];
  CHECK(init["imagePullPolicy"] == "Always");
  CheckEqual(init["resources"], Json::parse(R"({"limits":{"cpu":"1"},"requests":{"cpu":"1","memory":"1Gi"}})"));
  CHECK(spec["ephemeralContainers"][0]["imagePullPolicy"] == "Always");
  CHECK(spec["ephemeralContainers"][0]["terminationMessagePolicy"] == "File");

  Json app = spec["containers"][0];
  CHECK(app["imagePullPolicy"] == "IfNotPresent");
  CheckEqual(app["ports"], Json::parse(R"([{"containerPort":8080,"hostPort":8080,"protocol":"TCP"},
                                          {"containerPort":9090,"hostPort":19090,"protocol":"UDP"}])"));
  CheckEqual(app["resources"]["requests"], Json::parse(R"({"cpu":"500m","memory":"128Mi"})"));
  CHECK(app["env"][0]["valueFrom"]["fieldRef"]["apiVersion"] == "v1");
  CHECK_FALSE(app["env"][1].contains("valueFrom"));
  CheckEqual(app["livenessProbe"], Json::parse(R"({"httpGet":{"port":8080,"path":"/","scheme":"HTTP"},
      "timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3})"));
  CheckEqual(app["readinessProbe"], Json::parse(R"({"tcpSocket":{"port":8080},
      "timeoutSeconds":1,"periodSeconds":5,"successThreshold":1,"failureThreshold":3})"));
  CheckEqual(app["startupProbe"]["grpc"], Json::parse(R"({"port":9090,"service":""})"));
  CheckEqual(app["lifecycle"]["preStop"]["httpGet"], Json::parse(R"({"port":8080,"path":"/stop","scheme":"HTTP"})"));
  CheckEqual(app["lifecycle"]["postStart"], Json::parse(R"({"exec":{"command":["true"]}})"));

  CheckEqual(spec["volumes"], Json::parse(R"([
    {"name":"scratch","emptyDir":{}},
    {"name":"cm","configMap":{"name":"c","defaultMode":420}},
    {"name":"s","secret":{"secretName":"s","defaultMode":256}},
    {"name":"d","downwardAPI":{"defaultMode":420,"items":[{"path":"labels","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels"}}]}},
    {"name":"p","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"path":"token","expirationSeconds":3600}},
       {"downwardAPI":{"items":[{"path":"n","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}]}}]}},
    {"name":"h","hostPath":{"path":"/var","type":""}},
    {"name":"e","ephemeral":{"volumeClaimTemplate":{"spec":{"accessModes":["ReadWriteOnce"],"volumeMode":"Filesystem"}}}},
    {"name":"img","image":{"reference":"quay.io/x/y:v1","pullPolicy":"IfNotPresent"}},
    {"name":"pvc","persistentVolumeClaim":{"claimName":"c"}}])"));
}

TEST_CASE("pod templates do not get the Pod-only defaults") {
  Json in = Json::parse(R"({"spec":{"template":{"spec":{"hostNetwork":true,
    "containers":[{"name":"a","image":"a:1","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"1"}}}]}}}})");
  Json spec = Defaulted("apps", "v1", "ReplicaSet", in)["spec"]["template"]["spec"];
  CHECK_FALSE(spec.contains("enableServiceLinks"));
  CHECK_FALSE(spec["containers"][0]["ports"][0].contains("hostPort"));
  CHECK_FALSE(spec["containers"][0]["resources"].contains("requests"));
  CHECK(Defaulted("apps", "v1", "ReplicaSet", in)["spec"]["replicas"] == 1);
}

TEST_CASE("serviceAccount mirrors serviceAccountName") {
  Json a = Defaulted("", "v1", "Pod", Json::parse(R"({"spec":{"serviceAccountName":"robot"}})"));
  CHECK(a["spec"]["serviceAccount"] == "robot");
  Json b = Defaulted("", "v1", "Pod", Json::parse(R"({"spec":{"serviceAccount":"legacy"}})"));
  CHECK(b["spec"]["serviceAccountName"] == "legacy");
  CHECK(b["spec"]["serviceAccount"] == "legacy");
  Json c = Defaulted("", "v1", "Pod", Json::parse(R"({"spec":{}})"));
  CHECK_FALSE(c["spec"].contains("serviceAccount"));
}

TEST_CASE("minimal Service gets kube's defaults and no cluster IP") {
  Json in = Json::parse(R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},
    "spec":{"selector":{"app":"web"},"ports":[{"port":80},{"name":"m","port":9090,"targetPort":"metrics"}]}})");
  Json want = in;
  want["spec"] = Json::parse(R"({"selector":{"app":"web"},
    "ports":[{"port":80,"protocol":"TCP","targetPort":80},{"name":"m","port":9090,"protocol":"TCP","targetPort":"metrics"}],
    "type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster",
    "ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]})");
  CheckEqual(Defaulted("", "v1", "Service", in), want);
}

TEST_CASE("Service variants") {
  SUBCASE("headless without selector may be dual-stack") {
    Json s = Defaulted("", "v1", "Service", Json::parse(R"({"spec":{"clusterIP":"None","ports":[{"port":5432}]}})"));
    CHECK(s["spec"]["clusterIPs"] == Json::array({"None"}));
    CHECK(s["spec"]["ipFamilyPolicy"] == "RequireDualStack");
    CHECK(s["spec"]["ipFamilies"] == Json::array({"IPv4", "IPv6"}));
  }
  SUBCASE("headless with selector is single-stack") {
    Json s = Defaulted("", "v1", "Service", Json::parse(R"({"spec":{"clusterIP":"None","selector":{"a":"b"}}})"));
    CHECK(s["spec"]["ipFamilyPolicy"] == "SingleStack");
    CHECK(s["spec"]["ipFamilies"] == Json::array({"IPv4"}));
  }
  SUBCASE("a given IPv6 cluster IP decides the family") {
    Json s = Defaulted("", "v1", "Service", Json::parse(R"({"spec":{"clusterIP":"fd00::10"}})"));
    CHECK(s["spec"]["clusterIPs"] == Json::array({"fd00::10"}));
    CHECK(s["spec"]["ipFamilies"] == Json::array({"IPv6"}));
  }
  SUBCASE("LoadBalancer") {
    Json s = Defaulted("", "v1", "Service", Json::parse(R"({"spec":{"type":"LoadBalancer","ports":[{"port":443}]},
        "status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"},{"hostname":"lb.example"}]}}})"));
    CHECK(s["spec"]["externalTrafficPolicy"] == "Cluster");
    CHECK(s["spec"]["internalTrafficPolicy"] == "Cluster");
    CHECK(s["spec"]["allocateLoadBalancerNodePorts"] == true);
    CHECK(s["status"]["loadBalancer"]["ingress"][0]["ipMode"] == "VIP");
    CHECK_FALSE(s["status"]["loadBalancer"]["ingress"][1].contains("ipMode"));
    CHECK_FALSE(s["spec"].contains("clusterIP"));
  }
  SUBCASE("NodePort and ClusterIP with external IPs are externally accessible") {
    CHECK(Defaulted("", "v1", "Service", Json::parse(R"({"spec":{"type":"NodePort"}})"))["spec"]["externalTrafficPolicy"] ==
          "Cluster");
    CHECK(Defaulted("", "v1", "Service", Json::parse(R"({"spec":{"externalIPs":["1.1.1.1"]}})"))["spec"]
              ["externalTrafficPolicy"] == "Cluster");
  }
  SUBCASE("ExternalName gets no traffic policy and no IP families") {
    Json s = Defaulted("", "v1", "Service", Json::parse(R"({"spec":{"type":"ExternalName","externalName":"x.example"}})"));
    CheckEqual(s["spec"], Json::parse(R"({"type":"ExternalName","externalName":"x.example","sessionAffinity":"None"})"));
  }
  SUBCASE("session affinity") {
    Json c = Defaulted("", "v1", "Service", Json::parse(R"({"spec":{"sessionAffinity":"ClientIP"}})"));
    CheckEqual(c["spec"]["sessionAffinityConfig"], Json::parse(R"({"clientIP":{"timeoutSeconds":10800}})"));
    Json k = Defaulted("", "v1", "Service",
                       Json::parse(R"({"spec":{"sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{"timeoutSeconds":60}}}})"));
    CHECK(k["spec"]["sessionAffinityConfig"]["clientIP"]["timeoutSeconds"] == 60);
    Json n = Defaulted("", "v1", "Service", Json::parse(R"({"spec":{"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":60}}}})"));
    CHECK_FALSE(n["spec"].contains("sessionAffinityConfig"));
  }
}

TEST_CASE("Secret stringData is merged into data and dropped (it is write-only)") {
  Json in = Json::parse(R"({"kind":"Secret","metadata":{"name":"s"},"data":{"user":"YWRtaW4=","password":"b2xk"},
                            "stringData":{"password":"x","token":"abc"}})");
  Json want = Json::parse(R"({"kind":"Secret","metadata":{"name":"s"},"type":"Opaque",
                              "data":{"user":"YWRtaW4=","password":"eA==","token":"YWJj"}})");
  CheckEqual(Defaulted("", "v1", "Secret", in), want);
  Json only = Json::parse(R"({"kind":"Secret","metadata":{"name":"s"},"stringData":{"k":""}})");
  CheckEqual(Defaulted("", "v1", "Secret", only),
             Json::parse(R"({"kind":"Secret","metadata":{"name":"s"},"type":"Opaque","data":{"k":""}})"));
}

TEST_CASE("minimal Secret gets type Opaque; ConfigMap and Namespace get nothing") {
  Json in = Json::parse(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":"dg=="}})");
  Json want = in;
  want["type"] = "Opaque";
  CheckEqual(Defaulted("", "v1", "Secret", in), want);
  Json typed = Json::parse(R"({"type":"kubernetes.io/tls"})");
  CheckEqual(Defaulted("", "v1", "Secret", typed), typed);
  Json cm = Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}})");
  CheckEqual(Defaulted("", "v1", "ConfigMap", cm), cm);
  Json ns = Json::parse(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}})");
  CheckEqual(Defaulted("", "v1", "Namespace", ns), ns);
}

TEST_CASE("minimal Job gets kube's defaults") {
  Json in = Json::parse(R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi"},
    "spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl:5.34.0"}]}}}})");
  Json want = in;
  want["spec"] = Json::parse(R"({"completions":1,"parallelism":1,"backoffLimit":6,"completionMode":"NonIndexed",
    "suspend":false,"podReplacementPolicy":"TerminatingOrFailed","manualSelector":false})");
  Json c = NginxContainer("perl:5.34.0");
  c["name"] = "pi";
  want["spec"]["template"]["spec"] = TemplateSpec({c});
  want["spec"]["template"]["spec"]["restartPolicy"] = "Never";
  CheckEqual(Defaulted("batch", "v1", "Job", in), want);
}

TEST_CASE("Job variants") {
  SUBCASE("parallelism alone leaves completions unset") {
    Json j = Defaulted("batch", "v1", "Job", Json::parse(R"({"spec":{"parallelism":3}})"));
    CHECK_FALSE(j["spec"].contains("completions"));
    CHECK(j["spec"]["parallelism"] == 3);
  }
  SUBCASE("completions alone gets parallelism 1") {
    Json j = Defaulted("batch", "v1", "Job", Json::parse(R"({"spec":{"completions":5}})"));
    CHECK(j["spec"]["completions"] == 5);
    CHECK(j["spec"]["parallelism"] == 1);
  }
  SUBCASE("backoffLimitPerIndex and podFailurePolicy") {
    Json j = Defaulted("batch", "v1", "Job", Json::parse(R"({"spec":{"completionMode":"Indexed","completions":2,
      "backoffLimitPerIndex":1,"podFailurePolicy":{"rules":[{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget"}]}]}}})"));
    CHECK(j["spec"]["backoffLimit"] == 2147483647);
    CHECK(j["spec"]["podReplacementPolicy"] == "Failed");
    CHECK(j["spec"]["podFailurePolicy"]["rules"][0]["onPodConditions"][0]["status"] == "True");
  }
  SUBCASE("labels come from the pod template when the Job has none") {
    Json j = Defaulted("batch", "v1", "Job",
                       Json::parse(R"({"metadata":{"name":"j"},"spec":{"template":{"metadata":{"labels":{"app":"x"}}}}})"));
    CHECK(j["metadata"]["labels"] == Json{{"app", "x"}});
    Json k = Defaulted("batch", "v1", "Job",
                       Json::parse(R"({"metadata":{"labels":{"own":"y"}},"spec":{"template":{"metadata":{"labels":{"app":"x"}}}}})"));
    CHECK(k["metadata"]["labels"] == Json{{"own", "y"}});
  }
}

TEST_CASE("minimal CronJob gets kube's defaults (its job template no Job defaults)") {
  Json in = Json::parse(R"({"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"c"},
    "spec":{"schedule":"*/1 * * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure",
      "containers":[{"name":"nginx","image":"nginx"}]}}}}}})");
  Json want = in;
  want["spec"]["concurrencyPolicy"] = "Allow";
  want["spec"]["suspend"] = false;
  want["spec"]["successfulJobsHistoryLimit"] = 3;
  want["spec"]["failedJobsHistoryLimit"] = 1;
  Json& pod = want["spec"]["jobTemplate"]["spec"]["template"]["spec"];
  pod = TemplateSpec({NginxContainer("nginx", "Always")});
  pod["restartPolicy"] = "OnFailure";
  CheckEqual(Defaulted("batch", "v1", "CronJob", in), want);
}

TEST_CASE("minimal StatefulSet gets kube's defaults") {
  Json in = Json::parse(R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},
    "spec":{"serviceName":"db","selector":{"matchLabels":{"app":"db"}},
      "template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.25"}]}},
      "volumeClaimTemplates":[{"metadata":{"name":"data"},
        "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]}})");
  Json want = in;
  Json& spec = want["spec"];
  spec["replicas"] = 1;
  spec["revisionHistoryLimit"] = 10;
  spec["podManagementPolicy"] = "OrderedReady";
  spec["updateStrategy"] = Json::parse(R"({"type":"RollingUpdate","rollingUpdate":{"partition":0}})");
  spec["persistentVolumeClaimRetentionPolicy"] = Json::parse(R"({"whenDeleted":"Retain","whenScaled":"Retain"})");
  spec["template"]["spec"] = TemplateSpec({NginxContainer()});
  spec["volumeClaimTemplates"][0] = Json::parse(R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data"},
    "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Filesystem"},
    "status":{"phase":"Pending"}})");
  CheckEqual(Defaulted("apps", "v1", "StatefulSet", in), want);
}

TEST_CASE("StatefulSet explicit RollingUpdate without parameters gets no partition") {
  Json s = Defaulted("apps", "v1", "StatefulSet", Json::parse(R"({"spec":{"updateStrategy":{"type":"RollingUpdate"}}})"));
  CheckEqual(s["spec"]["updateStrategy"], Json{{"type", "RollingUpdate"}});
  Json o = Defaulted("apps", "v1", "StatefulSet", Json::parse(R"({"spec":{"updateStrategy":{"type":"OnDelete"}}})"));
  CheckEqual(o["spec"]["updateStrategy"], Json{{"type", "OnDelete"}});
}

TEST_CASE("minimal DaemonSet gets kube's defaults") {
  Json in = Json::parse(R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent"},
    "spec":{"selector":{"matchLabels":{"app":"agent"}},
      "template":{"metadata":{"labels":{"app":"agent"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.25"}]}}}})");
  Json want = in;
  want["spec"]["revisionHistoryLimit"] = 10;
  want["spec"]["updateStrategy"] = Json::parse(R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}})");
  want["spec"]["template"]["spec"] = TemplateSpec({NginxContainer()});
  CheckEqual(Defaulted("apps", "v1", "DaemonSet", in), want);
}

TEST_CASE("values the client set are never overwritten") {
  const Json pod_spec = Json::parse(R"({
    "dnsPolicy":"Default","restartPolicy":"OnFailure","schedulerName":"mine","securityContext":{"runAsUser":1000},
    "terminationGracePeriodSeconds":0,"enableServiceLinks":false,
    "containers":[{"name":"a","image":"nginx","imagePullPolicy":"Never","terminationMessagePath":"/tmp/t",
      "terminationMessagePolicy":"FallbackToLogsOnError","ports":[{"containerPort":53,"protocol":"UDP"}],
      "livenessProbe":{"httpGet":{"path":"/healthz","port":80,"scheme":"HTTPS"},"timeoutSeconds":5,"periodSeconds":7,
        "successThreshold":1,"failureThreshold":9}}],
    "volumes":[{"name":"c","configMap":{"name":"c","defaultMode":384}}]})");
  Json pod = Json{{"spec", pod_spec}};
  CheckEqual(Defaulted("", "v1", "Pod", pod), pod);

  Json template_spec = pod_spec;
  template_spec.erase("enableServiceLinks");
  Json deploy = {{"spec",
                  {{"replicas", 0},
                   {"revisionHistoryLimit", 0},
                   {"progressDeadlineSeconds", 30},
                   {"strategy", {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxSurge", 0}, {"maxUnavailable", "50%"}}}}},
                   {"template", {{"spec", template_spec}}}}}};
  CheckEqual(Defaulted("apps", "v1", "Deployment", deploy), deploy);

  Json svc = Json::parse(R"({"spec":{"type":"NodePort","clusterIP":"10.0.0.7","clusterIPs":["10.0.0.7"],
    "ipFamilies":["IPv4"],"ipFamilyPolicy":"PreferDualStack","sessionAffinity":"None","externalTrafficPolicy":"Local",
    "internalTrafficPolicy":"Local","ports":[{"port":80,"targetPort":8080,"protocol":"SCTP","nodePort":30080}]}})");
  CheckEqual(Defaulted("", "v1", "Service", svc), svc);

  Json job = Json::parse(R"({"metadata":{"labels":{"x":"y"}},"spec":{"completions":3,"parallelism":2,"backoffLimit":0,
    "completionMode":"Indexed","suspend":true,"podReplacementPolicy":"Failed","manualSelector":true,
    "template":{"metadata":{"labels":{"a":"b"}},"spec":{}}}})");
  job["spec"]["template"]["spec"] = template_spec;
  CheckEqual(Defaulted("batch", "v1", "Job", job), job);

  Json sts = Json::parse(R"({"spec":{"replicas":3,"revisionHistoryLimit":1,"podManagementPolicy":"Parallel",
    "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":2,"maxUnavailable":2}},
    "persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete","whenScaled":"Delete"},"template":{"spec":{}}}})");
  sts["spec"]["template"]["spec"] = template_spec;
  CheckEqual(Defaulted("apps", "v1", "StatefulSet", sts), sts);

  Json cron = Json::parse(R"({"spec":{"concurrencyPolicy":"Forbid","suspend":true,"successfulJobsHistoryLimit":0,
    "failedJobsHistoryLimit":0,"jobTemplate":{"spec":{"template":{"spec":{}}}}}})");
  cron["spec"]["jobTemplate"]["spec"]["template"]["spec"] = template_spec;
  CheckEqual(Defaulted("batch", "v1", "CronJob", cron), cron);
}

TEST_CASE("imagePullPolicy rules") {
  struct Case {
    const char* image;
    const char* policy;
  };
  const std::vector<Case> cases = {
      {"nginx", "Always"},
      {"nginx:latest", "Always"},
      {"nginx:1.25", "IfNotPresent"},
      {"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "IfNotPresent"},
      {"nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "Always"},
      {"nginx:1.25@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "IfNotPresent"},
      {"library/nginx", "Always"},
      {"docker.io/library/nginx:latest", "Always"},
      {"registry.k8s.io/pause:3.10", "IfNotPresent"},
      {"localhost:5000/app", "Always"},
      {"localhost:5000/app:v2", "IfNotPresent"},
      {"[fd00::1]:5000/app", "Always"},
      {"my-registry.example.com:443/team/app_x:latest", "Always"},
      {"Foo/bar", "Always"},  // an upper-case first component is a registry
      // References that do not parse get IfNotPresent.
      {"", "IfNotPresent"},
      {"NGINX", "IfNotPresent"},
      {"nginx:", "IfNotPresent"},
      {"nginx@sha256:short", "IfNotPresent"},
      {"foo/Bar", "IfNotPresent"},
      {"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "IfNotPresent"},
      {"a//b", "IfNotPresent"},
  };
  for (const Case& c : cases) {
    INFO("image " << c.image);
    CHECK(DefaultImagePullPolicy(c.image) == c.policy);
    Json pod = Json{{"spec", {{"containers", Json::array({Json{{"name", "c"}, {"image", c.image}}})}}}};
    CHECK(Defaulted("", "v1", "Pod", pod)["spec"]["containers"][0]["imagePullPolicy"] == c.policy);
  }
  // A container without an image (invalid anyway) gets IfNotPresent, like kube.
  Json pod = Json::parse(R"({"spec":{"containers":[{"name":"c"}]}})");
  CHECK(Defaulted("", "v1", "Pod", pod)["spec"]["containers"][0]["imagePullPolicy"] == "IfNotPresent");
}

TEST_CASE("other kinds") {
  SUBCASE("PersistentVolumeClaim") {
    Json p = Defaulted("", "v1", "PersistentVolumeClaim", Json::parse(R"({"spec":{"accessModes":["ReadWriteOnce"]}})"));
    CheckEqual(p, Json::parse(R"({"spec":{"accessModes":["ReadWriteOnce"],"volumeMode":"Filesystem"},"status":{"phase":"Pending"}})"));
    Json b = Defaulted("", "v1", "PersistentVolumeClaim", Json::parse(R"({"spec":{"volumeMode":"Block"}})"));
    CHECK(b["spec"]["volumeMode"] == "Block");
  }
  SUBCASE("PersistentVolume") {
    Json p = Defaulted("", "v1", "PersistentVolume", Json::parse(R"({"spec":{"hostPath":{"path":"/d"}}})"));
    CheckEqual(p, Json::parse(R"({"spec":{"hostPath":{"path":"/d","type":""},"persistentVolumeReclaimPolicy":"Retain",
      "volumeMode":"Filesystem"},"status":{"phase":"Pending"}})"));
  }
  SUBCASE("Endpoints and EndpointSlice ports") {
    Json e = Defaulted("", "v1", "Endpoints", Json::parse(R"({"subsets":[{"ports":[{"port":80},{"port":53,"protocol":"UDP"}]}]})"));
    CHECK(e["subsets"][0]["ports"][0]["protocol"] == "TCP");
    CHECK(e["subsets"][0]["ports"][1]["protocol"] == "UDP");
    Json s = Defaulted("discovery.k8s.io", "v1", "EndpointSlice", Json::parse(R"({"ports":[{"port":80}]})"));
    CheckEqual(s["ports"], Json::parse(R"([{"port":80,"name":"","protocol":"TCP"}])"));
  }
  SUBCASE("ReplicationController") {
    Json r = Defaulted("", "v1", "ReplicationController",
                       Json::parse(R"({"metadata":{"name":"r"},"spec":{"template":{"metadata":{"labels":{"a":"b"}},"spec":{}}}})"));
    CHECK(r["spec"]["replicas"] == 1);
    CHECK(r["spec"]["selector"] == Json{{"a", "b"}});
    CHECK(r["metadata"]["labels"] == Json{{"a", "b"}});
    CHECK(r["spec"]["template"]["spec"]["dnsPolicy"] == "ClusterFirst");
  }
  SUBCASE("LimitRange") {
    Json l = Defaulted("", "v1", "LimitRange", Json::parse(R"({"spec":{"limits":[
      {"type":"Container","max":{"cpu":"2"},"min":{"memory":"1Mi"}},{"type":"Pod","max":{"cpu":"4"}}]}})"));
    CheckEqual(l["spec"]["limits"][0], Json::parse(R"({"type":"Container","max":{"cpu":"2"},"min":{"memory":"1Mi"},
      "default":{"cpu":"2"},"defaultRequest":{"cpu":"2","memory":"1Mi"}})"));
    CheckEqual(l["spec"]["limits"][1], Json::parse(R"({"type":"Pod","max":{"cpu":"4"}})"));
  }
  SUBCASE("NetworkPolicy") {
    Json n = Defaulted("networking.k8s.io", "v1", "NetworkPolicy", Json::parse(R"({"spec":{"podSelector":{}}})"));
    CHECK(n["spec"]["policyTypes"] == Json::array({"Ingress"}));
    Json e = Defaulted("networking.k8s.io", "v1", "NetworkPolicy",
                       Json::parse(R"({"spec":{"ingress":[{"ports":[{"port":80}]}],"egress":[{"ports":[{"port":53,"protocol":"UDP"}]}]}})"));
    CHECK(e["spec"]["policyTypes"] == Json::array({"Ingress", "Egress"}));
    CHECK(e["spec"]["ingress"][0]["ports"][0]["protocol"] == "TCP");
    CHECK(e["spec"]["egress"][0]["ports"][0]["protocol"] == "UDP");
    Json o = Defaulted("networking.k8s.io", "v1", "NetworkPolicy", Json::parse(R"({"spec":{"policyTypes":["Egress"]}})"));
    CHECK(o["spec"]["policyTypes"] == Json::array({"Egress"}));
  }
  SUBCASE("Ingress has no defaults") {
    Json i = Json::parse(R"({"spec":{"rules":[{"http":{"paths":[{"path":"/","backend":{"service":{"name":"s","port":{"number":80}}}}]}}]}})");
    CheckEqual(Defaulted("networking.k8s.io", "v1", "Ingress", i), i);
  }
  SUBCASE("RBAC bindings") {
    Json b = Defaulted("rbac.authorization.k8s.io", "v1", "RoleBinding", Json::parse(R"({"roleRef":{"kind":"Role","name":"r"},
      "subjects":[{"kind":"User","name":"u"},{"kind":"Group","name":"g"},{"kind":"ServiceAccount","name":"s","namespace":"n"}]})"));
    CHECK(b["roleRef"]["apiGroup"] == "rbac.authorization.k8s.io");
    CHECK(b["subjects"][0]["apiGroup"] == "rbac.authorization.k8s.io");
    CHECK(b["subjects"][1]["apiGroup"] == "rbac.authorization.k8s.io");
    CHECK_FALSE(b["subjects"][2].contains("apiGroup"));
  }
  SUBCASE("HorizontalPodAutoscaler v2") {
    Json h = Defaulted("autoscaling", "v2", "HorizontalPodAutoscaler",
                       Json::parse(R"({"spec":{"maxReplicas":5,"behavior":{"scaleDown":{"stabilizationWindowSeconds":60}}}})"));
    CheckEqual(h["spec"], Json::parse(R"({"maxReplicas":5,"minReplicas":1,
      "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}],
      "behavior":{
        "scaleUp":{"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[
          {"type":"Pods","value":4,"periodSeconds":15},{"type":"Percent","value":100,"periodSeconds":15}]},
        "scaleDown":{"stabilizationWindowSeconds":60,"selectPolicy":"Max","policies":[{"type":"Percent","value":100,"periodSeconds":15}]}}})"));
    Json n = Defaulted("autoscaling", "v2", "HorizontalPodAutoscaler", Json::parse(R"({"spec":{"maxReplicas":5}})"));
    CHECK_FALSE(n["spec"].contains("behavior"));
    CHECK(Defaulted("autoscaling", "v1", "HorizontalPodAutoscaler", Json::parse(R"({"spec":{}})"))["spec"]["minReplicas"] == 1);
  }
  SUBCASE("storage, scheduling, admission, apiextensions") {
    Json sc = Defaulted("storage.k8s.io", "v1", "StorageClass", Json::parse(R"({"provisioner":"x"})"));
    CHECK(sc["reclaimPolicy"] == "Delete");
    CHECK(sc["volumeBindingMode"] == "Immediate");
    CHECK(Defaulted("scheduling.k8s.io", "v1", "PriorityClass", Json::parse(R"({"value":10})"))["preemptionPolicy"] ==
          "PreemptLowerPriority");
    Json w = Defaulted("admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration", Json::parse(R"({"webhooks":[
      {"name":"w.example.com","clientConfig":{"service":{"name":"s","namespace":"n"}},"rules":[{"operations":["CREATE"]}],
       "sideEffects":"None","admissionReviewVersions":["v1"]}]})"));
    CheckEqual(w["webhooks"][0], Json::parse(R"({"name":"w.example.com","clientConfig":{"service":{"name":"s","namespace":"n","port":443}},
      "rules":[{"operations":["CREATE"],"scope":"*"}],"sideEffects":"None","admissionReviewVersions":["v1"],
      "failurePolicy":"Fail","matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{},"timeoutSeconds":10,
      "reinvocationPolicy":"Never"})"));
    Json crd = Defaulted("apiextensions.k8s.io", "v1", "CustomResourceDefinition", Json::parse(R"({"spec":{"group":"x.io",
      "names":{"kind":"Widget","plural":"widgets"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true}]}})"));
    CHECK(crd["spec"]["names"]["singular"] == "widget");
    CHECK(crd["spec"]["names"]["listKind"] == "WidgetList");
    CHECK(crd["spec"]["conversion"] == Json{{"strategy", "None"}});
    CHECK(crd["status"]["storedVersions"] == Json::array({"v1"}));
  }
  SUBCASE("unknown kinds and versions are left alone") {
    Json x = Json::parse(R"({"spec":{"replicas":null}})");
    CheckEqual(Defaulted("apps", "v1beta1", "Deployment", x), x);
    CheckEqual(Defaulted("example.com", "v1", "Widget", x), x);
    CheckEqual(Defaulted("coordination.k8s.io", "v1", "Lease", x), x);
  }
}

TEST_CASE("wrong-shaped fields are left alone") {
  Json d = Json::parse(R"({"spec":{"replicas":"three","strategy":"fast","template":{"spec":{"containers":{"a":1},
    "restartPolicy":7,"volumes":[1,"x",null,{"name":"v","secret":"s"}]}}}})");
  Json got = Defaulted("apps", "v1", "Deployment", d);
  CHECK(got["spec"]["replicas"] == "three");
  CHECK(got["spec"]["strategy"] == "fast");
  CHECK(got["spec"]["template"]["spec"]["containers"] == Json{{"a", 1}});
  CHECK(got["spec"]["template"]["spec"]["restartPolicy"] == 7);
  CHECK(got["spec"]["template"]["spec"]["volumes"] == Json::parse(R"([1,"x",null,{"name":"v","secret":"s"}])"));
  CHECK(got["spec"]["revisionHistoryLimit"] == 10);  // the rest is still defaulted
  for (Json odd : {Json(), Json(1), Json("s"), Json::array({1, 2}), Json::parse(R"({"spec":[1]})")}) {
    Json copy = odd;
    ApplyDefaults("", "v1", "Pod", &copy);
    CHECK(copy == odd);
  }
  ApplyDefaults("", "v1", "Pod", nullptr);
}

// Random JSON built from the field names the defaulters look at, so that the fuzz reaches deep.
class Fuzzer {
 public:
  explicit Fuzzer(unsigned seed) : rng_(seed) {}

  Json Value(int depth) {
    switch (Pick(depth > 0 ? 10 : 6)) {
      case 0: return nullptr;
      case 1: return Pick(2) == 0;
      case 2: return static_cast<int>(Pick(5)) - 1;
      case 3: return 1.5;
      case 4: return Word();
      case 5: return "";
      case 6:
      case 7: {
        Json arr = Json::array();
        for (int i = Pick(4); i > 0; --i) arr.push_back(Value(depth - 1));
        return arr;
      }
      default: {
        Json obj = Json::object();
        for (int i = Pick(6); i > 0; --i) obj[Key()] = Value(depth - 1);
        return obj;
      }
    }
  }
  const char* Key() { return kKeys[Pick(std::size(kKeys))]; }
  std::string Word() { return kWords[Pick(std::size(kWords))]; }
  int Pick(size_t n) { return static_cast<int>(std::uniform_int_distribution<size_t>(0, n - 1)(rng_)); }

 private:
  static constexpr const char* kKeys[] = {
      "spec", "template", "containers", "initContainers", "ephemeralContainers", "volumes", "ports", "image",
      "imagePullPolicy", "livenessProbe", "httpGet", "grpc", "lifecycle", "preStop", "env", "valueFrom", "fieldRef",
      "resources", "limits", "requests", "hostNetwork", "containerPort", "hostPort", "strategy", "rollingUpdate",
      "updateStrategy", "type", "replicas", "selector", "clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy",
      "sessionAffinity", "sessionAffinityConfig", "clientIP", "port", "targetPort", "status", "loadBalancer",
      "ingress", "ip", "jobTemplate", "podFailurePolicy", "rules", "onPodConditions", "metadata", "labels",
      "volumeClaimTemplates", "subsets", "egress", "policyTypes", "subjects", "kind", "roleRef", "behavior",
      "scaleUp", "metrics", "webhooks", "clientConfig", "service", "names", "versions", "storage", "name",
      "configMap", "secret", "projected", "sources", "downwardAPI", "items", "ephemeral", "volumeClaimTemplate",
      "serviceAccountName", "serviceAccount", "backoffLimitPerIndex", "completions", "parallelism", "capacity",
      "max", "default", "partition", "matchConstraints", "parameters", "hostPath", "rbd", "azureDisk"};
  static constexpr const char* kWords[] = {"None", "ClientIP", "LoadBalancer", "RollingUpdate", "User", "Container",
                                           "nginx", "nginx:latest", "fd00::1", "10.0.0.1", "ExternalName", "1"};
  std::mt19937 rng_;
};

// Replaces random subtrees of `j` with random values and adds random keys.
void Mutate(Json& j, Fuzzer& fuzz) {
  if (j.is_object()) {
    for (auto& [key, value] : j.items()) {
      if (fuzz.Pick(6) == 0) {
        value = fuzz.Value(2);
      } else {
        Mutate(value, fuzz);
      }
    }
    if (fuzz.Pick(8) == 0) j[fuzz.Key()] = fuzz.Value(3);
  } else if (j.is_array()) {
    for (Json& e : j) {
      if (fuzz.Pick(6) == 0) {
        e = fuzz.Value(2);
      } else {
        Mutate(e, fuzz);
      }
    }
  }
}

TEST_CASE("fuzz: garbage-shaped objects never throw, and defaulting is idempotent") {
  struct Seed {
    const char* group;
    const char* version;
    const char* kind;
    const char* json;
  };
  const std::vector<Seed> seeds = {
      {"", "v1", "Pod", R"({"spec":{"hostNetwork":true,"serviceAccount":"x",
        "initContainers":[{"name":"i","image":"busybox","resources":{"limits":{"cpu":"1"}}}],
        "containers":[{"name":"a","image":"nginx","ports":[{"containerPort":80}],"env":[{"valueFrom":{"fieldRef":{}}}],
          "livenessProbe":{"httpGet":{"port":1},"grpc":{"port":2}},"lifecycle":{"preStop":{"httpGet":{}}}}],
        "volumes":[{"name":"a"},{"name":"b","projected":{"sources":[{"serviceAccountToken":{}},{"downwardAPI":{"items":[{"fieldRef":{}}]}}]}},
          {"name":"c","ephemeral":{"volumeClaimTemplate":{"spec":{}}}},{"name":"d","image":{"reference":"x"}},{"name":"e","rbd":{}}]}})"},
      {"", "v1", "Service", R"({"spec":{"clusterIP":"None","ports":[{"port":80,"targetPort":0}],"sessionAffinity":"ClientIP",
        "sessionAffinityConfig":{"clientIP":{}},"type":"LoadBalancer","externalIPs":["1.1.1.1"]},
        "status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"}]}}})"},
      {"", "v1", "ReplicationController", R"({"metadata":{},"spec":{"template":{"metadata":{"labels":{"a":"b"}},"spec":{}}}})"},
      {"", "v1", "LimitRange", R"({"spec":{"limits":[{"type":"Container","max":{"cpu":"1"},"min":{"cpu":"1"},"default":{}}]}})"},
      {"", "v1", "PersistentVolume", R"({"spec":{"rbd":{},"azureDisk":{},"scaleIO":{},"iscsi":{}},"status":{}})"},
      {"", "v1", "Node", R"({"status":{"capacity":{"cpu":"4"}}})"},
      {"apps", "v1", "Deployment", R"({"spec":{"strategy":{"rollingUpdate":{}},"template":{"spec":{"containers":[{"image":"a"}]}}}})"},
      {"apps", "v1", "StatefulSet", R"({"spec":{"updateStrategy":{},"volumeClaimTemplates":[{"spec":{}}],"template":{}}})"},
      {"apps", "v1", "DaemonSet", R"({"spec":{"updateStrategy":{"type":"RollingUpdate"}}})"},
      {"batch", "v1", "Job", R"({"metadata":{},"spec":{"backoffLimitPerIndex":1,"podFailurePolicy":{"rules":[{"onPodConditions":[{}]}]},
        "template":{"metadata":{"labels":{"a":"b"}}}}})"},
      {"batch", "v1", "CronJob", R"({"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{}]}}}}}})"},
      {"networking.k8s.io", "v1", "NetworkPolicy", R"({"spec":{"ingress":[{"ports":[{}]}],"egress":[{"ports":[{}]}]}})"},
      {"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", R"({"roleRef":{},"subjects":[{"kind":"User"}]})"},
      {"discovery.k8s.io", "v1", "EndpointSlice", R"({"ports":[{}]})"},
      {"autoscaling", "v2", "HorizontalPodAutoscaler", R"({"spec":{"behavior":{"scaleUp":{},"scaleDown":{}}}})"},
      {"storage.k8s.io", "v1", "CSIDriver", R"({"spec":{}})"},
      {"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration",
       R"({"webhooks":[{"rules":[{}],"clientConfig":{"service":{}}}]})"},
      {"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy",
       R"({"spec":{"matchConstraints":{"resourceRules":[{}]}}})"},
      {"apiextensions.k8s.io", "v1", "CustomResourceDefinition",
       R"({"spec":{"names":{"kind":"W"},"conversion":{"webhook":{"clientConfig":{"service":{}}}},"versions":[{"name":"v1","storage":true}]}})"},
  };
  Fuzzer fuzz(20240611);
  int failures = 0;
  for (int round = 0; round < 6000; ++round) {
    const Seed& seed = seeds[round % seeds.size()];
    Json obj;
    if (round % 3 == 0) {  // pure garbage, mostly shaped like an object
      obj = Json::object();
      obj["spec"] = fuzz.Value(5);
      obj[fuzz.Key()] = fuzz.Value(5);
    } else {  // a plausible object with random parts replaced
      obj = Json::parse(seed.json);
      Mutate(obj, fuzz);
    }
    Json once = obj;
    bool threw = false;
    try {
      ApplyDefaults(seed.group, seed.version, seed.kind, &once);
    } catch (...) {
      threw = true;
    }
    Json twice = once;
    ApplyDefaults(seed.group, seed.version, seed.kind, &twice);
    if (threw || twice != once) {
      if (++failures <= 3) {
        INFO(seed.kind << " input " << obj.dump() << "\nonce " << once.dump() << "\ntwice " << twice.dump());
        CHECK_FALSE(threw);
        CHECK(twice == once);
      }
    }
  }
  CHECK(failures == 0);
}

}  // namespace
}  // namespace kube::registry
