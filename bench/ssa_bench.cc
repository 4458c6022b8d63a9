// ssa_bench: server-side apply against plain update of the same object, in the same run, measured
// against the real server binary started as a child process (plain HTTP on loopback, cpp-httplib
// keep-alive clients). The object is a Deployment of about 2.4 KB (three containers with env,
// ports, probes and resources; labels and annotations). For each path, kObjects objects go through
// three phases, kThreads clients at a time:
//   create   update path: POST;                     apply path: PATCH apply-patch+yaml (201)
//   no-op    update path: PUT of the same object;    apply path: the same apply again
//   change   update path: PUT with a new image tag;  apply path: apply with the new image tag
// Each phase's rate and latencies, and per phase the ratio apply time / update time (the issue's
// target: apply within 2x of update, i.e. a ratio of at most 2).
//
// Checks: status codes and names; no-op writes keep the resourceVersion; changes are stored;
// applied objects carry one Apply entry, updated ones one Update entry. A failed check prints
// "CHECK FAILED", marks its row FAIL and makes the exit status 1.
//
// Usage: ssa_bench [path/to/kube-apiserver-lite]
#include <httplib.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "http_load.h"
#include "http_server_process.h"

namespace {

using namespace kube::bench;
using namespace std::chrono_literals;

constexpr int kThreads = 4;
constexpr size_t kObjects = 1'500;  // per path
constexpr auto kStopTimeout = 20s;

const std::string kNamespace = "default";
const std::string kDeployments = "/apis/apps/v1/namespaces/" + kNamespace + "/deployments";

json Container(const std::string& name, const std::string& image, int port) {
  return {{"name", name},
          {"image", image},
          {"args", {"--port=" + std::to_string(port), "--log-level=info"}},
          {"ports", {{{"name", "http"}, {"containerPort", port}, {"protocol", "TCP"}}}},
          {"env",
           {{{"name", "POD_NAME"}, {"valueFrom", {{"fieldRef", {{"fieldPath", "metadata.name"}}}}}},
            {{"name", "LOG_FORMAT"}, {"value", "json"}},
            {{"name", "CACHE_SIZE"}, {"value", "512"}},
            {{"name", "REGION"}, {"value", "eu-west-1"}}}},
          {"readinessProbe",
           {{"httpGet", {{"path", "/healthz"}, {"port", port}}}, {"periodSeconds", 5}, {"failureThreshold", 3}}},
          {"resources", {{"requests", {{"cpu", "100m"}, {"memory", "128Mi"}}},
                         {"limits", {{"cpu", "500m"}, {"memory", "256Mi"}}}}}};
}

// The Deployment as a client writes it (no defaults, no system fields).
json Deployment(const std::string& name, const std::string& tag) {
  return {{"apiVersion", "apps/v1"},
          {"kind", "Deployment"},
          {"metadata",
           {{"name", name},
            {"labels", {{"app", "shop"}, {"tier", "backend"}, {"team", "checkout"}}},
            {"annotations", {{"owner", "checkout-team@example.com"},
                             {"runbook", "https://example.com/runbooks/shop"},
                             {"description", "the checkout backend of the shop: api, worker and metrics"}}}}},
          {"spec",
           {{"replicas", 3},
            {"selector", {{"matchLabels", {{"app", "shop"}, {"tier", "backend"}}}}},
            {"strategy", {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxSurge", 1}, {"maxUnavailable", 0}}}}},
            {"template",
             {{"metadata", {{"labels", {{"app", "shop"}, {"tier", "backend"}}}}},
              {"spec",
               {{"serviceAccountName", "shop"},
                {"containers",
                 {Container("api", "registry.example.com/shop/api:" + tag, 8080),
                  Container("worker", "registry.example.com/shop/worker:" + tag, 8081),
                  Container("metrics", "registry.example.com/shop/metrics:" + tag, 9090)}},
                {"tolerations", {{{"key", "dedicated"}, {"operator", "Equal"}, {"value", "shop"}, {"effect", "NoSchedule"}}}}}}}}}}};
}

std::string Name(const std::string& prefix, size_t i) { return prefix + "-" + std::to_string(i); }

// The image of the first container of a Deployment in a response body.
std::string FirstImage(const json& obj) {
  const json* c = obj.is_object() && obj.contains("spec") && obj["spec"].contains("template")
                      ? &obj["spec"]["template"]["spec"]["containers"]
                      : nullptr;
  return c != nullptr && c->is_array() && !c->empty() ? (*c)[0].value("image", "") : "";
}

// "" when the body's managedFields have exactly one entry with this manager and operation.
std::string CheckManaged(const json& obj, const std::string& operation) {
  const json& mf = obj["metadata"].contains("managedFields") ? obj["metadata"]["managedFields"] : json::array();
  if (mf.size() != 1) return "want one managedFields entry, got " + mf.dump().substr(0, 200);
  if (mf[0].value("manager", "") != "bench" || mf[0].value("operation", "") != operation) {
    return "want manager bench/" + operation + ", got " + mf[0].dump().substr(0, 200);
  }
  return "";
}

struct PhaseResult {
  LoadResult load;
  double us_per_op = 0;  // wall time per request (all clients)
};

// One phase over every object; `rvs` carries each object's resourceVersion between phases.
template <class Request, class Check>
PhaseResult Phase(Table* table, const Endpoint& ep, const std::string& label, Request request, Check check) {
  PhaseResult p;
  p.load = ParallelLoad(ep, kThreads, 0, kObjects, request, check);
  LoadRows(table, label, p.load, kObjects);
  p.us_per_op = p.load.seconds * 1e6 / static_cast<double>(kObjects);
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const auto run_start = Clock::now();
  BenchSetup setup;
  if (!SetUpBench(argc, argv, "ssa_bench", &setup)) return 1;
  const std::string body_size = std::to_string(Deployment("shop-0000", "1.0.0").dump().size());
  std::printf("ssa_bench: server %s (a child process, plain HTTP on loopback); %u hardware threads; "
              "Deployment of %s bytes, %zu objects per path, %d keep-alive clients\n\n",
              setup.binary.c_str(), std::thread::hardware_concurrency(), body_size.c_str(), kObjects, kThreads);
  std::fflush(stdout);
  Table table;
  ServerProcess server;
  if (StartServer(&server, setup.binary, setup.kubeconfig) < 0) return table.Print(), 1;
  const Endpoint ep{server.host(), server.port()};
  std::vector<std::string> update_rv(kObjects), apply_rv(kObjects);

  auto post = [&](httplib::Client& c, size_t i) {
    return c.Post(kDeployments + "?fieldManager=bench", Deployment(Name("update", i), "1.0.0").dump(),
                  "application/json");
  };
  auto put = [&](const std::string& tag) {
    return [&, tag](httplib::Client& c, size_t i) {
      return c.Put(kDeployments + "/" + Name("update", i) + "?fieldManager=bench",
                   Deployment(Name("update", i), tag).dump(), "application/json");
    };
  };
  auto apply = [&](const std::string& tag) {
    return [&, tag](httplib::Client& c, size_t i) {
      return c.Patch(kDeployments + "/" + Name("apply", i) + "?fieldManager=bench&force=false",
                     Deployment(Name("apply", i), tag).dump(), "application/apply-patch+yaml");
    };
  };
  // check(code, prefix, rvs, same_rv, tag, operation)
  auto checker = [&](int code, const std::string& prefix, std::vector<std::string>* rvs, bool same_rv,
                     const std::string& tag, const std::string& operation) {
    return [=](size_t i, const httplib::Result& r) -> std::string {
      if (std::string e = CheckObject(r, code, Name(prefix, i)); !e.empty()) return e;
      const json body = ParseBody(r, code);
      const std::string rv = ResourceVersion(body);
      if (same_rv && rv != (*rvs)[i]) return "a no-op write changed the resourceVersion " + (*rvs)[i] + " -> " + rv;
      if (!same_rv && rv == (*rvs)[i]) return "a change kept the resourceVersion " + rv;
      (*rvs)[i] = rv;
      if (FirstImage(body).find(":" + tag) == std::string::npos) return "image not at " + tag + ": " + FirstImage(body);
      return CheckManaged(body, operation);
    };
  };

  table.Section("create (POST / apply that creates)");
  const PhaseResult u_create = Phase(&table, ep, "update path: POST", post,
                                     checker(201, "update", &update_rv, false, "1.0.0", "Update"));
  const PhaseResult a_create = Phase(&table, ep, "apply path: apply (201)", apply("1.0.0"),
                                     checker(201, "apply", &apply_rv, false, "1.0.0", "Apply"));
  table.Section("no-op (PUT of the same object / the same apply again)");
  const PhaseResult u_noop = Phase(&table, ep, "update path: PUT unchanged", put("1.0.0"),
                                   checker(200, "update", &update_rv, true, "1.0.0", "Update"));
  const PhaseResult a_noop = Phase(&table, ep, "apply path: re-apply unchanged", apply("1.0.0"),
                                   checker(200, "apply", &apply_rv, true, "1.0.0", "Apply"));
  table.Section("change (a new image tag)");
  const PhaseResult u_change = Phase(&table, ep, "update path: PUT new tag", put("1.1.0"),
                                     checker(200, "update", &update_rv, false, "1.1.0", "Update"));
  const PhaseResult a_change = Phase(&table, ep, "apply path: apply new tag", apply("1.1.0"),
                                     checker(200, "apply", &apply_rv, false, "1.1.0", "Apply"));

  table.Section("apply time / update time (target: at most 2)");
  const struct {
    const char* name;
    const PhaseResult& update;
    const PhaseResult& apply;
  } ratios[] = {{"create", u_create, a_create}, {"no-op", u_noop, a_noop}, {"change", u_change, a_change}};
  double apply_total = 0, update_total = 0;
  for (const auto& r : ratios) {
    const double ratio = r.apply.us_per_op / r.update.us_per_op;
    apply_total += r.apply.us_per_op;
    update_total += r.update.us_per_op;
    table.Info(std::string("ratio ") + r.name, ratio, "x",
               "update " + std::to_string(static_cast<int>(r.update.us_per_op)) + " us/op",
               Expect(r.apply.load.ok && r.update.load.ok, std::string(r.name) + ": a phase failed"));
  }
  const double overall = apply_total / update_total;
  table.Info("ratio of the three phases together", overall, "x", "target <= 2", true);

  const std::string stopped = server.Stop(kStopTimeout);
  Expect(stopped.empty(), "stop the server: " + stopped);
  table.Print();
  std::printf("\ntotal run time %.1f s; %d failed check(s)\n", SecondsSince(run_start), FailureCount());
  return FailureCount() == 0 ? 0 : 1;
}
