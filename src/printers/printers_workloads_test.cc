// Table printers: pods (STATUS / READY / RESTARTS rules) and the apps/batch workloads.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "printers/printers.h"
#include "printers/printers_test_util.h"

namespace kube::printers {
namespace {

using testing::Cells;
using testing::J;
using testing::Json;

Json Pod(const char* status, const char* spec = R"json({"containers":[{"name":"app"}]})json") {
  Json pod = J(R"json({"metadata":{"name":"p","creationTimestamp":"2024-05-10T11:59:15Z"}})json");
  pod["spec"] = J(spec);
  pod["status"] = J(status);
  return pod;
}

std::string PodStatus(const Json& pod) {
  return Cells("", "pods", pod)[2];
}

TEST_CASE("pods: columns") {
  const auto& cols = ColumnsFor("", "pods");
  REQUIRE(cols.size() == 9);
  const char* names[] = {"Name", "Ready", "Status",         "Restarts",       "Age",
                         "IP",   "Node",  "Nominated Node", "Readiness Gates"};
  for (size_t i = 0; i < cols.size(); ++i) {
    CHECK(cols[i].name == names[i]);
    CHECK(cols[i].priority == (i >= 5 ? 1 : 0));
    CHECK(cols[i].type == "string");
  }
  CHECK(cols[0].format == "name");
}

TEST_CASE("pods: running with restarts") {
  Json pod = J(R"json({"metadata":{"name":"web-1","creationTimestamp":"2024-05-08T12:00:00Z"},
    "spec":{"nodeName":"node-a","containers":[{"name":"a"},{"name":"b"}]},
    "status":{"phase":"Running","podIP":"10.0.0.5","podIPs":[{"ip":"10.0.0.5"},{"ip":"fd00::5"}],
      "conditions":[{"type":"Ready","status":"True"}],
      "containerStatuses":[
        {"name":"a","ready":true,"restartCount":3,"state":{"running":{}},
         "lastState":{"terminated":{"exitCode":1,"finishedAt":"2024-05-10T11:55:00Z"}}},
        {"name":"b","ready":true,"restartCount":0,"state":{"running":{}}}]}})json");
  CHECK(
      Cells("", "pods", pod) ==
      J(R"json(["web-1","2/2","Running","3 (5m ago)","2d","10.0.0.5","node-a","<none>","<none>"])json"));
  // Restarts without a recorded termination time have no suffix.
  pod["status"]["containerStatuses"][0].erase("lastState");
  CHECK(Cells("", "pods", pod)[3] == "3");
}

TEST_CASE("pods: status reasons") {
  CHECK(Cells("", "pods", Pod("{}")) ==
        J(R"json(["p","0/1","Pending","0","45s","<none>","<none>","<none>","<none>"])json"));
  CHECK(PodStatus(Pod(R"json({"phase":"Pending","containerStatuses":[
    {"name":"app","state":{"waiting":{"reason":"ContainerCreating"}}}]})json")) ==
        "ContainerCreating");
  CHECK(PodStatus(Pod(R"json({"phase":"Running","containerStatuses":[
    {"name":"app","state":{"waiting":{"reason":"CrashLoopBackOff"}}}]})json")) ==
        "CrashLoopBackOff");
  CHECK(PodStatus(Pod(R"json({"phase":"Succeeded","containerStatuses":[
    {"name":"app","state":{"terminated":{"reason":"Completed","exitCode":0}}}]})json")) ==
        "Completed");
  CHECK(PodStatus(Pod(R"json({"phase":"Failed","containerStatuses":[
    {"name":"app","state":{"terminated":{"exitCode":137}}}]})json")) == "ExitCode:137");
  CHECK(PodStatus(Pod(R"json({"phase":"Failed","containerStatuses":[
    {"name":"app","state":{"terminated":{"exitCode":0,"signal":9}}}]})json")) == "Signal:9");
  CHECK(PodStatus(Pod(R"json({"phase":"Failed","reason":"Evicted"})json")) == "Evicted");
  CHECK(PodStatus(Pod(R"json({"phase":"Pending","conditions":[
    {"type":"PodScheduled","status":"False","reason":"SchedulingGated"}]})json")) ==
        "SchedulingGated");
}

TEST_CASE("pods: the first container's state wins") {
  CHECK(PodStatus(Pod(R"json({"phase":"Running","containerStatuses":[
    {"name":"a","state":{"waiting":{"reason":"ImagePullBackOff"}}},
    {"name":"b","state":{"waiting":{"reason":"ErrImagePull"}}}]})json",
                      R"json({"containers":[{"name":"a"},{"name":"b"}]})json")) ==
        "ImagePullBackOff");
}

TEST_CASE("pods: Completed with a running container") {
  const char* spec = R"json({"containers":[{"name":"a"},{"name":"b"}]})json";
  Json pod = Pod(R"json({"phase":"Running","conditions":[{"type":"Ready","status":"True"}],
    "containerStatuses":[
      {"name":"a","state":{"terminated":{"reason":"Completed"}}},
      {"name":"b","ready":true,"state":{"running":{}}}]})json",
                 spec);
  CHECK(Cells("", "pods", pod)[1] == "1/2");
  CHECK(PodStatus(pod) == "Running");
  pod["status"]["conditions"][0]["status"] = "False";
  CHECK(PodStatus(pod) == "NotReady");
}

TEST_CASE("pods: deletion") {
  Json pod = Pod(R"json({"phase":"Running"})json");
  pod["metadata"]["deletionTimestamp"] = "2024-05-10T12:00:30Z";
  CHECK(PodStatus(pod) == "Terminating");
  pod["status"]["reason"] = "NodeLost";
  CHECK(PodStatus(pod) == "Unknown");
  Json done = Pod(R"json({"phase":"Succeeded","containerStatuses":[
    {"name":"app","state":{"terminated":{"reason":"Completed"}}}]})json");
  done["metadata"]["deletionTimestamp"] = "2024-05-10T12:00:30Z";
  CHECK(PodStatus(done) == "Completed");
}

TEST_CASE("pods: init containers") {
  const char* spec =
      R"json({"initContainers":[{"name":"i1"},{"name":"i2"}],"containers":[{"name":"app"}]})json";
  CHECK(PodStatus(Pod(R"json({"phase":"Pending","initContainerStatuses":[
    {"name":"i1","state":{"terminated":{"exitCode":0}}},
    {"name":"i2","state":{"waiting":{"reason":"PodInitializing"}}}]})json",
                      spec)) == "Init:1/2");
  CHECK(PodStatus(Pod(R"json({"phase":"Pending","initContainerStatuses":[
    {"name":"i1","state":{"running":{}}}]})json",
                      spec)) == "Init:0/2");
  CHECK(PodStatus(Pod(R"json({"phase":"Pending","initContainerStatuses":[
    {"name":"i1","restartCount":4,"state":{"waiting":{"reason":"CrashLoopBackOff"}},
     "lastState":{"terminated":{"finishedAt":"2024-05-10T11:58:00Z"}}}]})json",
                      spec)) == "Init:CrashLoopBackOff");
  Json failed = Pod(R"json({"phase":"Pending","initContainerStatuses":[
    {"name":"i1","restartCount":4,"state":{"terminated":{"exitCode":2}},
     "lastState":{"terminated":{"finishedAt":"2024-05-10T11:58:00Z"}}}]})json",
                    spec);
  CHECK(Cells("", "pods", failed)[2] == "Init:ExitCode:2");
  // While initialising, restarts count the init containers.
  CHECK(Cells("", "pods", failed)[3] == "4 (2m ago)");
  CHECK(PodStatus(Pod(R"json({"initContainerStatuses":[
    {"name":"i1","state":{"terminated":{"exitCode":1,"signal":15}}}]})json",
                      spec)) == "Init:Signal:15");
  CHECK(PodStatus(Pod(R"json({"initContainerStatuses":[
    {"name":"i1","state":{"terminated":{"exitCode":1,"reason":"OOMKilled"}}}]})json",
                      spec)) == "Init:OOMKilled");
}

TEST_CASE("pods: restartable init containers (sidecars)") {
  const char* spec = R"json({"initContainers":[{"name":"proxy","restartPolicy":"Always"}],
    "containers":[{"name":"app"}]})json";
  Json pod = Pod(R"json({"phase":"Running","conditions":[{"type":"Initialized","status":"True"}],
    "initContainerStatuses":[{"name":"proxy","started":true,"ready":true,"restartCount":1,
      "lastState":{"terminated":{"finishedAt":"2024-05-10T11:00:00Z"}}}],
    "containerStatuses":[{"name":"app","ready":true,"restartCount":2,"state":{"running":{}},
      "lastState":{"terminated":{"finishedAt":"2024-05-10T11:30:00Z"}}}]})json",
                 spec);
  CHECK(
      Cells("", "pods", pod) ==
      J(R"json(["p","2/2","Running","3 (30m ago)","45s","<none>","<none>","<none>","<none>"])json"));
}

TEST_CASE("pods: wide columns") {
  Json pod =
      Pod(R"json({"podIPs":[{"ip":"fd00::9"}],"nominatedNodeName":"n2",
    "conditions":[{"type":"a","status":"True"},{"type":"b","status":"False"}]})json",
          R"json({"containers":[],"readinessGates":[{"conditionType":"a"},{"conditionType":"b"},
                     {"conditionType":"c"}]})json");
  CHECK(Cells("", "pods", pod) ==
        J(R"json(["p","0/0","Pending","0","45s","fd00::9","<none>","n2","1/3"])json"));
}

TEST_CASE("deployments") {
  Json d = J(R"json({"metadata":{"name":"web","creationTimestamp":"2024-05-10T09:00:00Z"},
    "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"},
        "matchExpressions":[{"key":"tier","operator":"In","values":["fe","be"]},
                            {"key":"canary","operator":"DoesNotExist"}]},
      "template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.25"},
                                        {"name":"sidecar","image":"envoy:1"}]}}},
    "status":{"readyReplicas":2,"updatedReplicas":3,"availableReplicas":2}})json");
  CHECK(Cells("apps", "deployments", d) ==
        J(R"json(["web","2/3",3,2,"3h","nginx,sidecar","nginx:1.25,envoy:1",
              "app=web,!canary,tier in (be,fe)"])json"));
  d["spec"].erase("replicas");
  d["spec"]["selector"] = J(R"json({"matchExpressions":[{"key":"a","operator":"Bogus"}]})json");
  Json cells = Cells("apps", "deployments", d);
  CHECK(cells[1] == "2/1");
  CHECK(cells[7] == "<invalid>");
  d["spec"].erase("selector");
  CHECK(Cells("apps", "deployments", d)[7] == "");
  d["spec"]["selector"] = J(R"json({"matchLabels":{"bad key":"x"}})json");
  CHECK(Cells("apps", "deployments", d)[7] == "<invalid>");
}

TEST_CASE("replicasets, statefulsets, daemonsets") {
  Json rs = J(R"json({"metadata":{"name":"web-abc"},"spec":{"replicas":3,
    "selector":{"matchLabels":{"app":"web","pod-template-hash":"abc"}},
    "template":{"spec":{"containers":[{"name":"nginx","image":"nginx"}]}}},
    "status":{"replicas":3,"readyReplicas":1}})json");
  CHECK(
      Cells("apps", "replicasets", rs) ==
      J(R"json(["web-abc",3,3,1,"<unknown>","nginx","nginx","app=web,pod-template-hash=abc"])json"));
  rs["spec"]["selector"] = J("{}");
  CHECK(Cells("apps", "replicasets", rs)[7] == "<none>");
  rs["spec"]["selector"] = J(R"json({"matchExpressions":[{"key":"a","operator":"In"}]})json");
  CHECK(Cells("apps", "replicasets", rs)[7] == "<error>");

  Json sts = J(R"json({"metadata":{"name":"db"},"spec":{"template":{"spec":{"containers":[
    {"name":"pg","image":"postgres:16"}]}}},"status":{"readyReplicas":0}})json");
  CHECK(Cells("apps", "statefulsets", sts) ==
        J(R"json(["db","0/1","<unknown>","pg","postgres:16"])json"));

  Json ds =
      J(R"json({"metadata":{"name":"agent"},"spec":{"selector":{"matchLabels":{"app":"agent"}},
    "template":{"spec":{"nodeSelector":{"kubernetes.io/os":"linux"},"containers":[{"name":"a","image":"a:1"}]}}},
    "status":{"desiredNumberScheduled":3,"currentNumberScheduled":3,"numberReady":2,
      "updatedNumberScheduled":3,"numberAvailable":2}})json");
  CHECK(
      Cells("apps", "daemonsets", ds) ==
      J(R"json(["agent",3,3,2,3,2,"kubernetes.io/os=linux","<unknown>","a","a:1","app=agent"])json"));
}

TEST_CASE("jobs") {
  const auto& cols = ColumnsFor("batch", "jobs");
  REQUIRE(cols.size() == 8);
  CHECK(cols[1].name == "Status");
  CHECK(cols[2].name == "Completions");
  CHECK(cols[3].name == "Duration");

  Json job = J(R"json({"metadata":{"name":"pi","creationTimestamp":"2024-05-10T11:00:00Z"},
    "spec":{"completions":1,"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"u"}},
      "template":{"spec":{"containers":[{"name":"pi","image":"perl"}]}}},
    "status":{"succeeded":1,"startTime":"2024-05-10T11:00:00Z","completionTime":"2024-05-10T11:00:30Z",
      "conditions":[{"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}]}})json");
  CHECK(
      Cells("batch", "jobs", job) ==
      J(R"json(["pi","Complete","1/1","30s","60m","pi","perl","batch.kubernetes.io/controller-uid=u"])json"));

  Json running = J(R"json({"metadata":{"name":"w"},"spec":{"parallelism":3},
    "status":{"startTime":"2024-05-10T11:57:00Z","active":3}})json");
  CHECK(Cells("batch", "jobs", running) ==
        J(R"json(["w","Running","0/1 of 3","3m","<unknown>","","","<none>"])json"));
  running["status"]["conditions"] = J(R"json([{"type":"Suspended","status":"True"}])json");
  CHECK(Cells("batch", "jobs", running)[1] == "Suspended");
  running["metadata"]["deletionTimestamp"] = "2024-05-10T12:00:00Z";
  CHECK(Cells("batch", "jobs", running)[1] == "Terminating");
  running["status"]["conditions"] = J(R"json([{"type":"FailureTarget","status":"True"},
    {"type":"Failed","status":"True"}])json");
  CHECK(Cells("batch", "jobs", running)[1] == "Failed");
  CHECK(Cells("batch", "jobs",
              J(R"json({"status":{"conditions":[{"type":"FailureTarget","status":"True"}]}})json"))
            [1] == "FailureTarget");
  CHECK(Cells("batch", "jobs", J(R"json({"spec":{"parallelism":1}})json"))[2] == "0/1");
  CHECK(Cells("batch", "jobs",
              J(R"json({"spec":{"completions":5},"status":{"succeeded":2}})json"))[2] == "2/5");
}

TEST_CASE("cronjobs") {
  Json cj = J(R"json({"metadata":{"name":"backup","creationTimestamp":"2024-05-03T12:00:00Z"},
    "spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{"template":{"spec":{"containers":[
      {"name":"b","image":"busybox"}]}}}}},
    "status":{"active":[{"name":"backup-1"}],"lastScheduleTime":"2024-05-10T11:58:00Z"}})json");
  CHECK(
      Cells("batch", "cronjobs", cj) ==
      J(R"json(["backup","*/5 * * * *","<none>","False",1,"2m","7d","b","busybox","<none>"])json"));
  cj["spec"]["timeZone"] = "Europe/Paris";
  cj["spec"]["suspend"] = true;
  cj.erase("status");
  Json cells = Cells("batch", "cronjobs", cj);
  CHECK(cells[2] == "Europe/Paris");
  CHECK(cells[3] == "True");
  CHECK(cells[4] == 0);
  CHECK(cells[5] == "<none>");
}

}  // namespace
}  // namespace kube::printers
