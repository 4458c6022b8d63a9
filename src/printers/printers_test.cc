// Table printers: HumanDuration, cells for every supported resource, the Table envelope, and a
// deterministic fuzz over malformed objects. Pod and workload cells are in
// printers_workloads_test.cc.

#include "printers/printers.h"

#include <doctest/doctest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "printers/printers_test_util.h"

namespace kube::printers {
namespace {

using namespace std::chrono;
using namespace std::chrono_literals;
using testing::Cells;
using testing::J;
using testing::Json;
using testing::kNow;

TEST_CASE("HumanDuration matches apimachinery's table") {
  struct Case {
    nanoseconds d;
    const char* want;
  };
  const Case cases[] = {
      {-3s, "<invalid>"},
      {-2s, "<invalid>"},
      {-1500ms, "0s"},
      {-1s, "0s"},
      {0s, "0s"},
      {999ms, "0s"},
      {45s, "45s"},
      {119s, "119s"},
      {120s, "2m"},
      {150s, "2m30s"},
      {9min + 59s, "9m59s"},
      {10min, "10m"},
      {10min + 30s, "10m"},
      {179min, "179m"},
      {3h, "3h"},
      {3h + 2min, "3h2m"},
      {7h + 59min, "7h59m"},
      {8h, "8h"},
      {47h + 59min, "47h"},
      {48h, "2d"},
      {53h, "2d5h"},
      {7 * 24h + 23h, "7d23h"},
      {8 * 24h, "8d"},
      {729 * 24h, "729d"},
      {730 * 24h, "2y"},
      {731 * 24h, "2y1d"},
      {(365 * 8 - 1) * 24h, "7y364d"},
      {365 * 8 * 24h, "8y"},
      {3660 * 24h, "10y"},
      {nanoseconds::max(), "292y"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.d.count());
    CHECK(HumanDuration(c.d) == c.want);
  }
}

TEST_CASE("services") {
  Json cluster_ip = J(R"json({"metadata":{"name":"web","creationTimestamp":"2024-05-10T11:55:00Z"},
    "spec":{"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"selector":{"tier":"fe","app":"web"},
      "ports":[{"port":80,"protocol":"TCP"},{"port":443,"nodePort":30443}]}})json");
  CHECK(Cells("", "services", cluster_ip) ==
        Json::parse(R"json(["web","ClusterIP","10.96.0.10","<none>","80/TCP,443:30443/TCP","5m",
                        "app=web,tier=fe"])json"));

  Json pending =
      J(R"json({"metadata":{"name":"lb"},"spec":{"type":"LoadBalancer","clusterIPs":["10.0.0.1"],
    "ports":[{"port":53,"protocol":"UDP","nodePort":31000}]}})json");
  CHECK(
      Cells("", "services", pending) ==
      Json::parse(
          R"json(["lb","LoadBalancer","10.0.0.1","<pending>","53:31000/UDP","<unknown>","<none>"])json"));

  Json lb = pending;
  lb["status"] = J(R"json({"loadBalancer":{"ingress":[{"ip":"5.6.7.8"},{"hostname":"a.example.com"},
    {"ip":"1.2.3.4","hostname":"ignored"},{"ip":"1.2.3.4"}]}})json");
  CHECK(Cells("", "services", lb)[3] == "1.2.3.4,5.6.7.8,a.example.com");
  lb["spec"]["externalIPs"] = {"9.9.9.9"};
  CHECK(Cells("", "services", lb)[3] == "1.2.3.4,5.6.7.8,a.example.com,9.9.9.9");

  Json ext = J(
      R"json({"metadata":{"name":"x"},"spec":{"type":"ExternalName","externalName":"db.example.com"}})json");
  CHECK(
      Cells("", "services", ext) ==
      Json::parse(
          R"json(["x","ExternalName","<none>","db.example.com","<none>","<unknown>","<none>"])json"));
  Json headless = J(R"json({"metadata":{"name":"h"},"spec":{"clusterIP":"None","type":"NodePort",
    "externalIPs":["1.1.1.1","2.2.2.2"]}})json");
  CHECK(Cells("", "services", headless)[2] == "None");
  CHECK(Cells("", "services", headless)[3] == "1.1.1.1,2.2.2.2");
}

TEST_CASE("endpoints") {
  Json ep = J(R"json({"metadata":{"name":"web"},"subsets":[
    {"addresses":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}],"ports":[{"port":80},{"port":8080}]}]})json");
  CHECK(Cells("", "endpoints", ep) ==
        Json::parse(
            R"json(["web","10.0.0.1:80,10.0.0.2:80,10.0.0.1:8080 + 1 more...","<unknown>"])json"));
  Json headless = J(R"json({"metadata":{"name":"h"},"subsets":[{"addresses":[{"ip":"fd00::1"}]},
    {"addresses":[{"ip":"fd00::2"}],"ports":[{"port":53}]}]})json");
  CHECK(Cells("", "endpoints", headless)[1] == "fd00::1,[fd00::2]:53");
  CHECK(Cells("", "endpoints", J(R"json({"metadata":{"name":"e"}})json"))[1] == "<none>");
  CHECK(Cells("", "endpoints",
              J(R"json({"subsets":[{"notReadyAddresses":[{"ip":"1.1.1.1"}]}]})json"))[1] == "");
}

TEST_CASE("nodes") {
  Json node = J(R"json({"metadata":{"name":"n1","creationTimestamp":"2024-04-10T12:00:00Z",
      "labels":{"node-role.kubernetes.io/control-plane":"","node-role.kubernetes.io/":"x",
                "kubernetes.io/role":"master","other":"y"}},
    "spec":{"unschedulable":true},
    "status":{"conditions":[{"type":"MemoryPressure","status":"False"},{"type":"Ready","status":"True"}],
      "addresses":[{"type":"Hostname","address":"n1"},{"type":"InternalIP","address":"192.168.1.2"}],
      "nodeInfo":{"kubeletVersion":"v1.33.1","osImage":"Debian GNU/Linux 12","kernelVersion":"6.1.0",
                  "containerRuntimeVersion":"containerd://1.7.0"}}})json");
  CHECK(Cells("", "nodes", node) ==
        Json::parse(R"json(["n1","Ready,SchedulingDisabled","control-plane,master","30d","v1.33.1",
          "192.168.1.2","<none>","Debian GNU/Linux 12","6.1.0","containerd://1.7.0"])json"));
  CHECK(Cells("", "nodes", J(R"json({"metadata":{"name":"n2"}})json")) ==
        Json::parse(R"json(["n2","Unknown","<none>","<unknown>","","<none>","<none>","<unknown>",
          "<unknown>","<unknown>"])json"));
  CHECK(Cells("", "nodes",
              J(R"json({"status":{"conditions":[{"type":"Ready","status":"Unknown"}]}})json"))[1] ==
        "NotReady");
}

TEST_CASE("namespaces, configmaps, secrets, serviceaccounts, leases") {
  CHECK(Cells("", "namespaces",
              J(R"json({"metadata":{"name":"default","creationTimestamp":"2024-05-10T11:59:15Z"},
    "status":{"phase":"Active"}})json")) == Json::parse(R"json(["default","Active","45s"])json"));
  CHECK(Cells("", "namespaces",
              J(R"json({"metadata":{"name":"x"},"status":{"phase":"Terminating"}})json"))[1] ==
        "Terminating");
  CHECK(Cells("", "namespaces", J(R"json({"metadata":{"name":"new"}})json"))[1] == "Active");

  CHECK(Cells("", "configmaps", J(R"json({"metadata":{"name":"cfg"},"data":{"a":"1","b":"2"},
    "binaryData":{"c":"AA=="}})json")) == Json::parse(R"json(["cfg",3,"<unknown>"])json"));
  CHECK(Cells("", "secrets", J(R"json({"metadata":{"name":"tls"},"type":"kubernetes.io/tls",
    "data":{"tls.crt":"","tls.key":""}})json")) ==
        Json::parse(R"json(["tls","kubernetes.io/tls",2,"<unknown>"])json"));
  CHECK(
      Cells(
          "", "secrets",
          J(R"json({"metadata":{"name":"s"},"data":{"a":""},"stringData":{"a":"x","b":"y"}})json")) ==
      Json::parse(R"json(["s","Opaque",2,"<unknown>"])json"));
  CHECK(Cells("", "serviceaccounts",
              J(R"json({"metadata":{"name":"default"},"secrets":[{"name":"t"}]})json")) ==
        Json::parse(R"json(["default",1,"<unknown>"])json"));
  CHECK(Cells("coordination.k8s.io", "leases", J(R"json({"metadata":{"name":"kube-scheduler",
    "creationTimestamp":"2024-05-10T09:00:00Z"},"spec":{"holderIdentity":"node-a_1234"}})json")) ==
        Json::parse(R"json(["kube-scheduler","node-a_1234","3h"])json"));
}

TEST_CASE("events") {
  Json ev = J(R"json({"metadata":{"name":"web.17c"},"type":"Warning","reason":"BackOff",
    "message":"  Back-off restarting failed container\n","involvedObject":{"kind":"Pod","name":"web",
    "fieldPath":"spec.containers{app}"},"source":{"component":"kubelet","host":"node-a"},
    "firstTimestamp":"2024-05-10T11:00:00Z","lastTimestamp":"2024-05-10T11:58:00Z","count":7})json");
  CHECK(Cells("", "events", ev) ==
        Json::parse(
            R"json(["2m","Warning","BackOff","pod/web","spec.containers{app}","kubelet, node-a",
          "Back-off restarting failed container","60m",7,"web.17c"])json"));

  Json fresh = J(R"json({"metadata":{"name":"e"},"type":"Normal","reason":"Scheduled",
    "involvedObject":{"kind":"Node"},"eventTime":"2024-05-10T11:59:50.123456Z",
    "reportingComponent":"default-scheduler","reportingInstance":"sched-1"})json");
  CHECK(
      Cells("", "events", fresh) ==
      Json::parse(
          R"json(["9s","Normal","Scheduled","node","","default-scheduler, sched-1","","9s",1,"e"])json"));

  Json series = fresh;
  series["series"] = J(R"json({"count":5,"lastObservedTime":"2024-05-10T11:59:58.000000Z"})json");
  CHECK(Cells("", "events", series)[0] == "2s");
  CHECK(Cells("", "events", series)[8] == 5);

  Json v1 =
      J(R"json({"metadata":{"name":"e2"},"type":"Normal","reason":"Pulled","note":"pulled image",
    "regarding":{"kind":"Pod","name":"p"},"eventTime":"2024-05-10T11:59:00.000000Z",
    "reportingController":"kubelet","deprecatedCount":3})json");
  CHECK(
      Cells("events.k8s.io", "events", v1) ==
      Json::parse(
          R"json(["60s","Normal","Pulled","pod/p","","kubelet","pulled image","60s",3,"e2"])json"));
}

TEST_CASE("ingresses") {
  Json ing = J(R"json({"metadata":{"name":"web","creationTimestamp":"2024-05-09T12:00:00Z"},
    "spec":{"ingressClassName":"nginx","tls":[{"hosts":["a.com"]}],
      "rules":[{"host":"a.com"},{"host":"b.com"}]},
    "status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"}]}}})json");
  CHECK(Cells("networking.k8s.io", "ingresses", ing) ==
        Json::parse(R"json(["web","nginx","a.com,b.com","1.2.3.4","80, 443","24h"])json"));
  Json many =
      J(R"json({"metadata":{"name":"m"},"spec":{"rules":[{"host":"a"},{},{"host":"c"},{"host":"d"},
    {"host":"e"}]}})json");
  CHECK(Cells("networking.k8s.io", "ingresses", many) ==
        Json::parse(R"json(["m","<none>","a,c,d + 2 more...","","80","<unknown>"])json"));
  CHECK(Cells("networking.k8s.io", "ingresses", J(R"json({"spec":{"rules":[{}]}})json"))[2] == "*");
}

TEST_CASE("persistentvolumes and claims") {
  Json pv = J(R"json({"metadata":{"name":"pv1","creationTimestamp":"2024-05-10T10:00:00Z"},
    "spec":{"capacity":{"storage":"10Gi"},"accessModes":["ReadWriteMany","ReadWriteOnce","ReadWriteOnce"],
      "claimRef":{"namespace":"default","name":"data"},"storageClassName":"standard"},
    "status":{"phase":"Bound"}})json");
  CHECK(Cells("", "persistentvolumes", pv) ==
        Json::parse(
            R"json(["pv1","10Gi","RWO,RWX","Retain","Bound","default/data","standard","<unset>","",
          "120m","Filesystem"])json"));
  pv["metadata"]["annotations"] = {{"volume.beta.kubernetes.io/storage-class", "legacy"}};
  pv["metadata"]["deletionTimestamp"] = "2024-05-10T11:00:00Z";
  pv["spec"]["volumeMode"] = "Block";
  pv["spec"]["volumeAttributesClassName"] = "gold";
  Json cells = Cells("", "persistentvolumes", pv);
  CHECK(cells[4] == "Terminating");
  CHECK(cells[6] == "legacy");
  CHECK(cells[7] == "gold");
  CHECK(cells[10] == "Block");

  Json pvc =
      J(R"json({"metadata":{"name":"data"},"spec":{"volumeName":"pv1","storageClassName":"standard",
    "resources":{"requests":{"storage":"5Gi"}}},
    "status":{"phase":"Bound","accessModes":["ReadWriteOncePod"],"capacity":{"storage":"10Gi"}}})json");
  CHECK(
      Cells("", "persistentvolumeclaims", pvc) ==
      Json::parse(
          R"json(["data","Bound","pv1","10Gi","RWOP","standard","<unset>","<unknown>","Filesystem"])json"));
  CHECK(Cells("", "persistentvolumeclaims", J(R"json({"metadata":{"name":"p"}})json")) ==
        Json::parse(R"json(["p","Pending","","","","","<unset>","<unknown>","Filesystem"])json"));
}

TEST_CASE("customresourcedefinitions and unknown resources") {
  Json crd = J(
      R"json({"metadata":{"name":"widgets.example.com","creationTimestamp":"2024-05-01T10:00:00Z"}})json");
  const auto& crd_cols = ColumnsFor("apiextensions.k8s.io", "customresourcedefinitions");
  REQUIRE(crd_cols.size() == 2);
  CHECK(crd_cols[1].name == "Created At");
  CHECK(crd_cols[1].type == "date");
  CHECK(Cells("apiextensions.k8s.io", "customresourcedefinitions", crd) ==
        Json::parse(R"json(["widgets.example.com","2024-05-01T10:00:00Z"])json"));
  CHECK(Cells("apiextensions.k8s.io", "customresourcedefinitions", J("{}"))[1] ==
        "0001-01-01T00:00:00Z");

  const auto& cols = ColumnsFor("example.com", "widgets");
  REQUIRE(cols.size() == 2);
  CHECK(cols[0].name == "Name");
  CHECK(cols[0].format == "name");
  CHECK(cols[1].name == "Age");
  CHECK(Cells("example.com", "widgets", crd) ==
        Json::parse(R"json(["widgets.example.com","9d"])json"));
  CHECK(Cells("example.com", "widgets", J("{}")) == Json::parse(R"json(["",null])json"));
  CHECK(Cells("example.com", "widgets",
              J(R"json({"metadata":{"creationTimestamp":"yesterday"}})json"))[1] == "<invalid>");
  // A built-in group/resource pair that is not printed falls back too.
  CHECK(&ColumnsFor("apps", "pods") == &cols);
}

TEST_CASE("BuildTable envelope and includeObject") {
  Json done = J(R"json({"metadata":{"name":"done","namespace":"ns","resourceVersion":"7",
      "creationTimestamp":"2024-05-10T11:00:00Z"},
    "spec":{"containers":[{"name":"c"}]},"status":{"phase":"Succeeded"}})json");
  Json failed = J(R"json({"metadata":{"name":"bad"},"status":{"phase":"Failed"}})json");
  const std::vector<const Json*> objs = {&done, nullptr, &failed};

  Json t = BuildTable("", "pods", objs, "42", "Object", kNow);
  CHECK(t["kind"] == "Table");
  CHECK(t["apiVersion"] == "meta.k8s.io/v1");
  CHECK(t["metadata"] == Json{{"resourceVersion", "42"}});
  REQUIRE(t["columnDefinitions"].size() == 9);
  CHECK(t["columnDefinitions"][0] == Json{{"name", "Name"},
                                          {"type", "string"},
                                          {"format", "name"},
                                          {"description", ColumnsFor("", "pods")[0].description},
                                          {"priority", 0}});
  CHECK(t["columnDefinitions"][5]["name"] == "IP");
  CHECK(t["columnDefinitions"][5]["priority"] == 1);
  REQUIRE(t["rows"].size() == 2);
  CHECK(t["rows"][0]["cells"][0] == "done");
  CHECK(t["rows"][0]["object"] == done);
  CHECK(t["rows"][0]["conditions"] ==
        Json::parse(R"json([{"type":"Completed","status":"True","reason":"Succeeded",
                         "message":"The pod has completed successfully."}])json"));
  CHECK(t["rows"][1]["conditions"][0]["reason"] == "Failed");
  CHECK(t["rows"][1]["conditions"][0]["message"] == "The pod failed.");

  Json meta = BuildTable("", "pods", objs, "", "Metadata", kNow);
  CHECK(meta["metadata"] == Json::object());
  CHECK(meta["rows"][0]["object"] == Json{{"kind", "PartialObjectMetadata"},
                                          {"apiVersion", "meta.k8s.io/v1"},
                                          {"metadata", done["metadata"]}});
  CHECK(meta["rows"][1]["object"]["metadata"] ==
        Json{{"name", "bad"}, {"creationTimestamp", nullptr}});
  CHECK(BuildTable("", "pods", objs, "", "", kNow) == meta);

  Json none = BuildTable("", "configmaps", {&done}, "1", "None", kNow);
  REQUIRE(none["rows"].size() == 1);
  CHECK(none["rows"][0].contains("object"));
  CHECK(none["rows"][0]["object"].is_null());
  CHECK_FALSE(none["rows"][0].contains("conditions"));

  Json empty = BuildTable("apps", "deployments", {}, "9", "Object", kNow);
  CHECK(empty["rows"] == Json::array());
  CHECK(empty["columnDefinitions"].size() == 8);

  CHECK(IsValidIncludeObject(""));
  CHECK(IsValidIncludeObject("None"));
  CHECK(IsValidIncludeObject("Metadata"));
  CHECK(IsValidIncludeObject("Object"));
  CHECK_FALSE(IsValidIncludeObject("object"));
}

// Replaces random nodes of `j` with random garbage.
Json Garbage(std::mt19937& rng, int depth) {
  switch (rng() % (depth > 2 ? 9 : 11)) {
    case 0:
      return nullptr;
    case 1:
      return static_cast<int64_t>(rng()) - (1LL << 31);
    case 2:
      return std::numeric_limits<uint64_t>::max();
    case 3:
      return std::numeric_limits<int64_t>::min();
    case 4:
      return -1.5e300;
    case 5:
      return std::nan("");
    case 6:
      return rng() % 2 == 0;
    case 7:
      return std::string("2024-05-10T11:00:00Z").substr(0, rng() % 21);
    case 8:
      return Json::object();
    case 9:
      return Json::array({Garbage(rng, depth + 1), Garbage(rng, depth + 1)});
    default:
      return Json{{"name", Garbage(rng, depth + 1)}, {"type", "Ready"}, {"status", "True"}};
  }
}

void Mutate(Json& j, std::mt19937& rng, int depth) {
  if (j.is_object() || j.is_array()) {
    if (j.empty() || rng() % 6 == 0) {
      j = Garbage(rng, depth);
      return;
    }
    auto it = j.begin();
    std::advance(it, rng() % j.size());
    Mutate(*it, rng, depth + 1);
    return;
  }
  j = Garbage(rng, depth);
}

TEST_CASE("fuzz: malformed objects never throw") {
  const char* resources[][2] = {{"", "pods"},
                                {"apps", "deployments"},
                                {"apps", "replicasets"},
                                {"apps", "statefulsets"},
                                {"apps", "daemonsets"},
                                {"batch", "jobs"},
                                {"batch", "cronjobs"},
                                {"", "services"},
                                {"", "endpoints"},
                                {"", "nodes"},
                                {"", "namespaces"},
                                {"", "configmaps"},
                                {"", "secrets"},
                                {"", "events"},
                                {"events.k8s.io", "events"},
                                {"", "serviceaccounts"},
                                {"networking.k8s.io", "ingresses"},
                                {"", "persistentvolumes"},
                                {"", "persistentvolumeclaims"},
                                {"coordination.k8s.io", "leases"},
                                {"apiextensions.k8s.io", "customresourcedefinitions"},
                                {"example.com", "widgets"}};
  const std::vector<Json> seeds = testing::SeedObjects();
  std::mt19937 rng(20240510);
  for (const auto& r : resources) {
    const size_t ncols = ColumnsFor(r[0], r[1]).size();
    std::vector<Json> objs = {nullptr, 42, "pod", Json::array({1, 2}), Json::object()};
    for (int i = 0; i < 40; ++i) objs.push_back(Garbage(rng, 0));
    for (int i = 0; i < 400; ++i) {
      Json j = seeds[rng() % seeds.size()];
      for (int k = 0, n = 1 + static_cast<int>(rng() % 4); k < n; ++k) Mutate(j, rng, 0);
      objs.push_back(std::move(j));
    }
    std::vector<const Json*> ptrs;
    for (const Json& o : objs) {
      CAPTURE(o.dump());
      std::vector<Json> cells;
      CHECK_NOTHROW(cells = CellsFor(r[0], r[1], o, kNow));
      CHECK(cells.size() == ncols);
      ptrs.push_back(&o);
    }
    for (const char* include : {"Object", "Metadata", "None", "bogus"}) {
      Json t;
      CHECK_NOTHROW(t = BuildTable(r[0], r[1], ptrs, "1", include, kNow));
      CHECK(t["rows"].size() == objs.size());
      CHECK_NOTHROW((void)t.dump());
    }
  }
}

}  // namespace
}  // namespace kube::printers
