// kube's per-kind strategies through the Store: what a create or update of each kind sets or
// keeps (kind_strategies.h), and the generation of the kinds kube tracks it for.
#include "registry/kind_strategies.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "registry/api_registry.h"
#include "registry/strategy_chain.h"

namespace kube::registry {
namespace {

using nlohmann::json;

struct Registry {
  explicit Registry(RegistryOptions options = {}) {
    AddKindStrategies(&options);
    auto opened = ApiRegistry::Open(options, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    registry = std::move(*opened);
  }
  json Create(const std::string& group, const std::string& resource, const std::string& ns, json obj) {
    StorePtr store = registry->Find(group, group.empty() ? "v1" : "v1", resource);
    REQUIRE(store != nullptr);
    auto created = store->Create(ns, std::move(obj), {});
    REQUIRE_MESSAGE(created.ok(), created.status().ToString());
    return **created;
  }
  json Update(const std::string& group, const std::string& resource, const std::string& ns, const std::string& name,
              const std::string& sub, const std::function<void(json*)>& change) {
    StorePtr store = registry->Find(group, "v1", resource);
    auto updated = store->Update(
        ns, name, sub,
        [&](const json& cur) -> Result<json> {
          json next = cur;
          change(&next);
          return next;
        },
        {});
    REQUIRE_MESSAGE(updated.ok(), updated.status().ToString());
    return **updated;
  }
  std::unique_ptr<ApiRegistry> registry;
};

json PodTemplate() {
  return {{"metadata", {{"labels", {{"app", "x"}}}}},
          {"spec", {{"restartPolicy", "Never"}, {"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
}

}  // namespace

TEST_CASE("Job: the generated selector and template labels carry the Job's uid and name") {
  Registry r;
  json job = r.Create("batch", "jobs", "default",
                      {{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"metadata", {{"name", "pi"}}}, {"spec", {{"template", PodTemplate()}}}});
  const std::string uid = job["metadata"]["uid"];
  REQUIRE_FALSE(uid.empty());
  CHECK(job["spec"]["selector"] == json{{"matchLabels", {{"batch.kubernetes.io/controller-uid", uid}}}});
  const json& labels = job["spec"]["template"]["metadata"]["labels"];
  CHECK(labels["batch.kubernetes.io/controller-uid"] == uid);
  CHECK(labels["controller-uid"] == uid);
  CHECK(labels["batch.kubernetes.io/job-name"] == "pi");
  CHECK(labels["job-name"] == "pi");
  CHECK(labels["app"] == "x");

  // A generated name is the one the labels get.
  json generated = r.Create("batch", "jobs", "default",
                            {{"apiVersion", "batch/v1"},
                             {"kind", "Job"},
                             {"metadata", {{"generateName", "run-"}}},
                             {"spec", {{"template", PodTemplate()}}}});
  CHECK(generated["spec"]["template"]["metadata"]["labels"]["job-name"] == generated["metadata"]["name"]);

  // manualSelector: the client's selector and labels stand.
  json manual_template = PodTemplate();
  json manual = r.Create("batch", "jobs", "default",
                         {{"apiVersion", "batch/v1"},
                          {"kind", "Job"},
                          {"metadata", {{"name", "m"}}},
                          {"spec",
                           {{"manualSelector", true},
                            {"selector", {{"matchLabels", {{"app", "x"}}}}},
                            {"template", manual_template}}}});
  CHECK(manual["spec"]["selector"] == json{{"matchLabels", {{"app", "x"}}}});
  CHECK_FALSE(manual["spec"]["template"]["metadata"]["labels"].contains("job-name"));
}

TEST_CASE("DaemonSet: templateGeneration annotation 1 on create, +1 on a template change only") {
  Registry r;
  json tmpl = PodTemplate();
  tmpl["spec"].erase("restartPolicy");
  json ds = r.Create("apps", "daemonsets", "default",
                     {{"apiVersion", "apps/v1"},
                      {"kind", "DaemonSet"},
                      {"metadata", {{"name", "d"}}},
                      {"spec", {{"selector", {{"matchLabels", {{"app", "x"}}}}}, {"template", tmpl}}}});
  CHECK(ds["metadata"]["annotations"]["deprecated.daemonset.template.generation"] == "1");
  ds = r.Update("apps", "daemonsets", "default", "d", "", [](json* d) { (*d)["spec"]["minReadySeconds"] = 5; });
  CHECK(ds["metadata"]["annotations"]["deprecated.daemonset.template.generation"] == "1");
  ds = r.Update("apps", "daemonsets", "default", "d", "",
                [](json* d) { (*d)["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx"; });
  CHECK(ds["metadata"]["annotations"]["deprecated.daemonset.template.generation"] == "2");
  CHECK(ds["metadata"]["generation"] == 3);
}

TEST_CASE("Pod: scheduling gates give the SchedulingGated condition; status writes keep qosClass") {
  Registry r;
  json pod = r.Create("", "pods", "default",
                      {{"apiVersion", "v1"},
                       {"kind", "Pod"},
                       {"metadata", {{"name", "p"}}},
                       {"spec",
                        {{"schedulingGates", {{{"name", "wait"}}}},
                         {"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}});
  CHECK(pod["status"]["phase"] == "Pending");
  CHECK(pod["metadata"]["generation"] == 1);
  REQUIRE(pod["status"]["conditions"].size() == 1);
  CHECK(pod["status"]["conditions"][0]["reason"] == "SchedulingGated");
  CHECK(pod["status"]["conditions"][0]["status"] == "False");
  pod = r.Update("", "pods", "default", "p", "status",
                 [](json* p) { (*p)["status"] = {{"phase", "Running"}, {"observedGeneration", 1}}; });
  CHECK(pod["status"]["qosClass"] == "BestEffort");
  pod = r.Update("", "pods", "default", "p", "status", [](json* p) { (*p)["status"] = {{"phase", "Running"}}; });
  CHECK(pod["status"]["observedGeneration"] == 1);
}

TEST_CASE("Node: status given on create is kept; configSource is dropped") {
  Registry r;
  json node = r.Create("", "nodes", "",
                       {{"apiVersion", "v1"},
                        {"kind", "Node"},
                        {"metadata", {{"name", "n"}}},
                        {"spec", {{"configSource", {{"configMap", {{"name", "x"}}}}}}},
                        {"status", {{"capacity", {{"cpu", "4"}}}, {"config", {{"active", nullptr}}}}}});
  CHECK(node["status"]["capacity"]["cpu"] == "4");
  CHECK_FALSE(node["status"].contains("config"));
  CHECK_FALSE(node["spec"].contains("configSource"));
}

TEST_CASE("PersistentVolume: lastPhaseTransitionTime on create and on a phase change") {
  Registry r;
  json pv = r.Create("", "persistentvolumes", "",
                     {{"apiVersion", "v1"},
                      {"kind", "PersistentVolume"},
                      {"metadata", {{"name", "pv"}}},
                      {"spec",
                       {{"capacity", {{"storage", "1Gi"}}},
                        {"accessModes", {"ReadWriteOnce"}},
                        {"hostPath", {{"path", "/tmp"}}}}}});
  CHECK(pv["status"]["phase"] == "Pending");
  CHECK(pv["status"]["lastPhaseTransitionTime"].is_string());
  pv = r.Update("", "persistentvolumes", "", "pv", "status", [](json* v) {
    (*v)["status"]["phase"] = "Available";
    (*v)["status"]["lastPhaseTransitionTime"] = "2000-01-01T00:00:00Z";
  });
  CHECK(pv["status"]["lastPhaseTransitionTime"] == "2000-01-01T00:00:00Z");
  pv = r.Update("", "persistentvolumes", "", "pv", "status", [](json* v) { (*v)["status"]["phase"] = "Bound"; });
  CHECK(pv["status"]["lastPhaseTransitionTime"] != "2000-01-01T00:00:00Z");
}

TEST_CASE("generation: EndpointSlices, IngressClasses and PodTemplates track it as kube does") {
  Registry r;
  json slice = r.Create("discovery.k8s.io", "endpointslices", "default",
                        {{"apiVersion", "discovery.k8s.io/v1"},
                         {"kind", "EndpointSlice"},
                         {"metadata", {{"name", "s"}}},
                         {"addressType", "IPv4"},
                         {"endpoints", json::array()}});
  CHECK(slice["metadata"]["generation"] == 1);
  slice = r.Update("discovery.k8s.io", "endpointslices", "default", "s", "",
                   [](json* s) { (*s)["endpoints"] = {{{"addresses", {"10.1.2.3"}}}}; });
  CHECK(slice["metadata"]["generation"] == 2);
  json ic = r.Create("networking.k8s.io", "ingressclasses", "",
                     {{"apiVersion", "networking.k8s.io/v1"},
                      {"kind", "IngressClass"},
                      {"metadata", {{"name", "nginx"}}},
                      {"spec", {{"controller", "k8s.io/ingress-nginx"}}}});
  CHECK(ic["metadata"]["generation"] == 1);
}

TEST_CASE("StrategyChain runs every link and concatenates their errors") {
  struct Mark : Strategy {
    explicit Mark(std::string k) : key(std::move(k)) {}
    void PrepareForCreate(storage::Object* obj) const override { (*obj)[key] = true; }
    FieldErrors Validate(const storage::Object&) const override {
      return {FieldError{FieldError::Type::kInvalid, key, "", "no"}};
    }
    std::string key;
  };
  auto chain = StrategyChain::Of(std::make_shared<Mark>("a"), std::make_shared<Mark>("b"));
  json obj = json::object();
  chain->PrepareForCreate(&obj);
  CHECK(obj == json{{"a", true}, {"b", true}});
  CHECK(chain->Validate(obj).size() == 2);
  CHECK(StrategyChain::Of(nullptr, chain) == chain);
}

}  // namespace kube::registry
