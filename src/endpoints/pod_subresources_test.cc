// The pod subresources the API server serves by itself: binding (and `bindings`), eviction with
// PodDisruptionBudgets, ephemeralcontainers and resize, and the kubelet-bound ones (log, exec,
// attach, portforward, proxy) answered as kube answers without a reachable kubelet; and their
// discovery.
#include <doctest/doctest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>

#include <nlohmann/json.hpp>

#include "endpoints/api_server.h"
#include "endpoints/connect_subresources.h"
#include "registry/api_registry.h"
#include "registry/kind_strategies.h"

namespace kube::endpoints {
namespace {

using nlohmann::json;

struct Server {
  Server() {
    registry::RegistryOptions options;
    registry::AddKindStrategies(&options);
    auto opened = registry::ApiRegistry::Open(options, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    registry = std::move(*opened);
    api = std::make_unique<ApiServer>(registry.get(), ApiServerOptions{});
  }
  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<ApiServer> api;

  HttpResponse Call(std::string method, std::string target, const json& body = nullptr,
                    std::string content_type = "application/json") {
    HttpRequest r;
    r.method = std::move(method);
    const size_t q = target.find('?');
    r.path = target.substr(0, q);
    if (q != std::string::npos) r.raw_query = target.substr(q + 1);
    if (!body.is_null()) {
      r.headers.emplace("Content-Type", content_type);
      r.body = body.dump();
    }
    return api->Handle(r);
  }
  json Get(const std::string& path) {
    HttpResponse r = Call("GET", path);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    return json::parse(r.body);
  }
  void Create(const std::string& collection, const json& obj) {
    HttpResponse r = Call("POST", collection, obj);
    REQUIRE_MESSAGE(r.status == 201, r.body);
  }
  void CreatePod(const std::string& name, const json& labels = json::object(), const std::string& phase = "") {
    Create("/api/v1/namespaces/default/pods",
           {{"apiVersion", "v1"},
            {"kind", "Pod"},
            {"metadata", {{"name", name}, {"labels", labels}}},
            {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}});
    if (phase.empty()) return;
    json status = {{"phase", phase}, {"conditions", {{{"type", "Ready"}, {"status", "True"}}}}};
    HttpResponse r = Call("PATCH", "/api/v1/namespaces/default/pods/" + name + "/status", {{"status", status}},
                          "application/merge-patch+json");
    REQUIRE_MESSAGE(r.status == 200, r.body);
  }
};

json Binding(const std::string& pod, const std::string& node) {
  return {{"apiVersion", "v1"},
          {"kind", "Binding"},
          {"metadata", {{"name", pod}, {"annotations", {{"scheduled-by", "test"}}}}},
          {"target", {{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}}};
}

json Eviction(const std::string& pod) {
  return {{"apiVersion", "policy/v1"}, {"kind", "Eviction"}, {"metadata", {{"name", pod}, {"namespace", "default"}}}};
}

// A port nothing listens on (bound, then closed).
int ClosedPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

}  // namespace

TEST_CASE("pods/binding sets spec.nodeName, the annotations and PodScheduled; a second binding is 409") {
  Server s;
  s.CreatePod("p");
  HttpResponse r = s.Call("POST", "/api/v1/namespaces/default/pods/p/binding", Binding("p", "node-1"));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  CHECK(json::parse(r.body)["status"] == "Success");
  json pod = s.Get("/api/v1/namespaces/default/pods/p");
  CHECK(pod["spec"]["nodeName"] == "node-1");
  CHECK(pod["metadata"]["annotations"]["scheduled-by"] == "test");
  bool scheduled = false;
  for (const auto& c : pod["status"]["conditions"]) scheduled |= c["type"] == "PodScheduled" && c["status"] == "True";
  CHECK(scheduled);

  r = s.Call("POST", "/api/v1/namespaces/default/pods/p/binding", Binding("p", "node-2"));
  CHECK(r.status == 409);
  json status = json::parse(r.body);
  CHECK(status["reason"] == "Conflict");
  CHECK(status["message"] ==
        "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"node-1\"");

  // The URL's name and the Binding's must agree; the target needs a name.
  r = s.Call("POST", "/api/v1/namespaces/default/pods/p/binding", Binding("other", "n"));
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["message"] == "name in URL does not match name in Binding object");
  s.CreatePod("q");
  r = s.Call("POST", "/api/v1/namespaces/default/pods/q/binding", Binding("q", ""));
  CHECK(r.status == 500);
  CHECK(json::parse(r.body)["message"] == "target.name: Required value");
  // A pod that does not exist.
  r = s.Call("POST", "/api/v1/namespaces/default/pods/none/binding", Binding("none", "n"));
  CHECK(r.status == 404);
  // GET is not a verb of pods/binding.
  CHECK(s.Call("GET", "/api/v1/namespaces/default/pods/q/binding").status == 405);
}

TEST_CASE("the bindings resource binds the pod its body names; dry run changes nothing") {
  Server s;
  s.CreatePod("p");
  HttpResponse r = s.Call("POST", "/api/v1/namespaces/default/bindings?dryRun=All", Binding("p", "n1"));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  CHECK_FALSE(s.Get("/api/v1/namespaces/default/pods/p")["spec"].contains("nodeName"));
  r = s.Call("POST", "/api/v1/namespaces/default/bindings", Binding("p", "n1"));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  CHECK(s.Get("/api/v1/namespaces/default/pods/p")["spec"]["nodeName"] == "n1");
}

TEST_CASE("pods/eviction deletes the pod when its budget allows and decrements disruptionsAllowed") {
  Server s;
  s.CreatePod("web-1", {{"app", "web"}}, "Running");
  s.CreatePod("web-2", {{"app", "web"}}, "Running");
  s.Create("/apis/policy/v1/namespaces/default/poddisruptionbudgets",
           {{"apiVersion", "policy/v1"},
            {"kind", "PodDisruptionBudget"},
            {"metadata", {{"name", "web"}}},
            {"spec", {{"minAvailable", 1}, {"selector", {{"matchLabels", {{"app", "web"}}}}}}}});
  // As the disruption controller would report it: one of two may go.
  HttpResponse r = s.Call("PATCH", "/apis/policy/v1/namespaces/default/poddisruptionbudgets/web/status",
                          {{"status",
                            {{"observedGeneration", 1},
                             {"disruptionsAllowed", 1},
                             {"currentHealthy", 2},
                             {"desiredHealthy", 1},
                             {"expectedPods", 2}}}},
                          "application/merge-patch+json");
  REQUIRE_MESSAGE(r.status == 200, r.body);

  r = s.Call("POST", "/api/v1/namespaces/default/pods/web-1/eviction", Eviction("web-1"));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  CHECK(s.Call("GET", "/api/v1/namespaces/default/pods/web-1").status == 404);
  json pdb = s.Get("/apis/policy/v1/namespaces/default/poddisruptionbudgets/web");
  CHECK(pdb["status"]["disruptionsAllowed"] == 0);
  CHECK(pdb["status"]["disruptedPods"].contains("web-1"));

  // None left: 429 with kube's message and the DisruptionBudget cause; the pod stays.
  r = s.Call("POST", "/api/v1/namespaces/default/pods/web-2/eviction", Eviction("web-2"));
  CHECK(r.status == 429);
  json status = json::parse(r.body);
  CHECK(status["reason"] == "TooManyRequests");
  CHECK(status["message"] == "Cannot evict pod as it would violate the pod's disruption budget.");
  REQUIRE(status["details"]["causes"].size() == 1);
  CHECK(status["details"]["causes"][0]["reason"] == "DisruptionBudget");
  CHECK(status["details"]["causes"][0]["message"] == "The disruption budget web needs 1 healthy pods and has 2 currently");
  CHECK(s.Call("GET", "/api/v1/namespaces/default/pods/web-2").status == 200);

  // A pending pod disrupts nothing: it goes whatever the budget says.
  s.CreatePod("web-3", {{"app", "web"}});
  r = s.Call("POST", "/api/v1/namespaces/default/pods/web-3/eviction", Eviction("web-3"));
  CHECK(r.status == 201);
  // The URL's name and the Eviction's must agree.
  r = s.Call("POST", "/api/v1/namespaces/default/pods/web-2/eviction", Eviction("web-9"));
  CHECK(r.status == 400);
}

TEST_CASE("pods/eviction: a budget not yet observed is 429 'still being processed'; two budgets are 500") {
  Server s;
  s.CreatePod("a", {{"app", "a"}}, "Running");
  s.Create("/apis/policy/v1/namespaces/default/poddisruptionbudgets",
           {{"apiVersion", "policy/v1"},
            {"kind", "PodDisruptionBudget"},
            {"metadata", {{"name", "one"}}},
            {"spec", {{"maxUnavailable", 1}, {"selector", {{"matchLabels", {{"app", "a"}}}}}}}});
  HttpResponse r = s.Call("POST", "/api/v1/namespaces/default/pods/a/eviction", Eviction("a"));
  CHECK(r.status == 429);
  CHECK(json::parse(r.body)["details"]["causes"][0]["message"] ==
        "The disruption budget one is still being processed by the server.");
  s.Create("/apis/policy/v1/namespaces/default/poddisruptionbudgets",
           {{"apiVersion", "policy/v1"},
            {"kind", "PodDisruptionBudget"},
            {"metadata", {{"name", "two"}}},
            {"spec", {{"maxUnavailable", 1}, {"selector", {{"matchLabels", {{"app", "a"}}}}}}}});
  r = s.Call("POST", "/api/v1/namespaces/default/pods/a/eviction", Eviction("a"));
  CHECK(r.status == 500);
  CHECK(json::parse(r.body)["message"] ==
        "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.");
}

TEST_CASE("pods/ephemeralcontainers and pods/resize change only their fields") {
  Server s;
  s.CreatePod("p", {{"app", "x"}});
  json pod = s.Get("/api/v1/namespaces/default/pods/p/ephemeralcontainers");
  CHECK(pod["kind"] == "Pod");
  pod["spec"]["ephemeralContainers"] = {{{"name", "debug"}, {"image", "busybox"}}};
  pod["metadata"]["labels"]["app"] = "changed";
  HttpResponse r = s.Call("PUT", "/api/v1/namespaces/default/pods/p/ephemeralcontainers", pod);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  json updated = json::parse(r.body);
  CHECK(updated["spec"]["ephemeralContainers"][0]["name"] == "debug");
  CHECK(updated["metadata"]["labels"]["app"] == "x");
  CHECK(updated["metadata"]["generation"] == 2);

  json resize = {{"spec", {{"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", "200m"}}}}}}}}}}};
  r = s.Call("PATCH", "/api/v1/namespaces/default/pods/p/resize", resize, "application/strategic-merge-patch+json");
  REQUIRE_MESSAGE(r.status == 200, r.body);
  updated = json::parse(r.body);
  CHECK(updated["spec"]["containers"][0]["resources"]["requests"]["cpu"] == "200m");
  CHECK(updated["spec"]["containers"][0]["image"] == "busybox");
  CHECK(updated["metadata"]["generation"] == 3);
  // Anything else in the body is ignored by resize.
  json image = {{"spec", {{"containers", {{{"name", "c"}, {"image", "nginx"}}}}}}};
  r = s.Call("PATCH", "/api/v1/namespaces/default/pods/p/resize", image, "application/strategic-merge-patch+json");
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(json::parse(r.body)["spec"]["containers"][0]["image"] == "busybox");
}

TEST_CASE("log, exec, attach, portforward and proxy answer as kube does without a reachable kubelet") {
  Server s;
  s.CreatePod("p");
  // No node: exec and friends are 400, the log is empty.
  HttpResponse r = s.Call("POST", "/api/v1/namespaces/default/pods/p/exec?command=ls&stdout=true");
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["message"] == "pod p does not have a host assigned");
  CHECK(s.Call("GET", "/api/v1/namespaces/default/pods/p/attach").status == 400);
  CHECK(s.Call("POST", "/api/v1/namespaces/default/pods/p/portforward").status == 400);
  r = s.Call("GET", "/api/v1/namespaces/default/pods/p/log");
  CHECK(r.status == 200);
  CHECK(r.body.empty());
  r = s.Call("GET", "/api/v1/namespaces/default/pods/p/log?container=nope");
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["message"] == "container nope is not valid for pod p");
  CHECK(s.Call("POST", "/api/v1/namespaces/default/pods/p/log").status == 405);
  CHECK(s.Call("GET", "/api/v1/namespaces/default/pods/missing/log").status == 404);

  // Bound to a node that does not exist: kube's NotFound for the node.
  REQUIRE(s.Call("POST", "/api/v1/namespaces/default/pods/p/binding", Binding("p", "n1")).status == 201);
  r = s.Call("GET", "/api/v1/namespaces/default/pods/p/log");
  CHECK(r.status == 404);
  CHECK(json::parse(r.body)["message"] == "nodes \"n1\" not found");

  // A node whose kubelet does not answer: the dial error, a 500 without a reason.
  const int port = ClosedPort();
  s.Create("/api/v1/nodes", {{"apiVersion", "v1"},
                             {"kind", "Node"},
                             {"metadata", {{"name", "n1"}}},
                             {"status",
                              {{"addresses", {{{"type", "InternalIP"}, {"address", "127.0.0.1"}}}},
                               {"daemonEndpoints", {{"kubeletEndpoint", {{"Port", port}}}}}}}});
  r = s.Call("GET", "/api/v1/namespaces/default/pods/p/log");
  CHECK(r.status == 500);
  const std::string where = "127.0.0.1:" + std::to_string(port);
  CHECK(json::parse(r.body)["message"] == "Get \"https://" + where + "/containerLogs/default/p/c\": dial tcp " + where +
                                              ": connect: connection refused");
  r = s.Call("POST", "/api/v1/namespaces/default/pods/p/exec?command=ls");
  CHECK(r.status == 500);
  CHECK(json::parse(r.body)["message"] == "error dialing backend: dial tcp " + where + ": connect: connection refused");
  r = s.Call("GET", "/api/v1/nodes/n1/proxy/metrics");
  CHECK(r.status == 503);

  // A pod without an IP cannot be proxied to; a Service without endpoints has none to offer.
  r = s.Call("GET", "/api/v1/namespaces/default/pods/p/proxy/");
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["message"] == "address not allowed");
  s.Create("/api/v1/namespaces/default/services",
           {{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", "web"}}}, {"spec", {{"ports", {{{"port", 80}}}}}}});
  r = s.Call("GET", "/api/v1/namespaces/default/services/web/proxy/");
  CHECK(r.status == 503);
  CHECK(json::parse(r.body)["message"] == "no endpoints available for service \"web\"");
  CHECK(s.Call("GET", "/api/v1/namespaces/default/services/none/proxy/").status == 404);
}

TEST_CASE("discovery lists the pod subresources kube serves, and bindings") {
  Server s;
  json list = s.Get("/api/v1");
  std::set<std::string> names;
  for (const auto& r : list["resources"]) names.insert(r["name"]);
  for (const char* n : {"pods/binding", "pods/ephemeralcontainers", "pods/eviction", "pods/exec", "pods/log",
                        "pods/portforward", "pods/proxy", "pods/resize", "pods/status", "pods/attach", "bindings",
                        "services/proxy", "nodes/proxy"}) {
    CHECK_MESSAGE(names.count(n), n);
  }
  for (const auto& r : list["resources"]) {
    if (r["name"] == "pods/eviction") {
      CHECK(r["group"] == "policy");
      CHECK(r["kind"] == "Eviction");
    }
  }
}

TEST_CASE("Dial speaks Go's errors") {
  const int port = ClosedPort();
  Status s = Dial("127.0.0.1", port);
  CHECK(s.message() == "dial tcp 127.0.0.1:" + std::to_string(port) + ": connect: connection refused");
}

}  // namespace kube::endpoints
