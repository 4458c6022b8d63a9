// proto_bench: throughput of the protobuf codec (kube_protobuf: DecodeObject / EncodeObject) on a
// typical Pod (2 containers with env, resources, probes and volume mounts, 3 volumes, status;
// ~2.4 KB of JSON) and on a PodList of 500 such pods, against the JSON path the server otherwise
// takes for the same object (nlohmann::json::parse / dump), measured in the same run.
//
// For each object and each direction (decode, encode, decode+encode) it prints ops/s, MB/s of the
// format's own bytes, and the cost of protobuf relative to JSON (time per op; < 1 means protobuf is
// faster). Before timing, both paths must round-trip the object exactly (JSON -> protobuf -> JSON
// equal as JSON values; dump(parse(text)) == text); while timing, every decode+encode must
// reproduce its input bytes. A failed check prints "CHECK FAILED", marks its row FAIL and makes
// the exit status 1.
//
// Usage: proto_bench   (no arguments; sizes are the constants below)
#include <cstdio>
#include <string>

#include "bench_util.h"
#include "protobuf/protobuf.h"

namespace {

using namespace kube::bench;
using nlohmann::json;

// --- sizes (the whole run takes ~10-20 s on a 2-core machine)
constexpr int kRounds = 5;                // each ops/s figure is the median of this many rounds
constexpr size_t kPodOps = 20'000;        // per measurement, split over the rounds
constexpr size_t kListPods = 500;
constexpr size_t kListOps = 50;

// Results are added here so that the compiler cannot drop the measured work.
volatile size_t g_sink = 0;

// A typical Pod as the API server stores it: app + sidecar container, env (values and references),
// resources, the three probe kinds, volume mounts, three volume kinds, status.
json MakeTypicalPod(int n, bool with_type_meta) {
  const std::string name = "web-7d9f8b6c5d-" + std::to_string(10000 + n);
  json pod = MakePod("shop", name, n);  // bench_util.h's ~1 KB Pod, extended below
  if (!with_type_meta) {
    pod.erase("apiVersion");
    pod.erase("kind");
  }
  pod["metadata"]["resourceVersion"] = std::to_string(100000 + n);
  json& spec = pod["spec"];
  json& app = spec["containers"][0];
  app["env"].push_back({{"name", "POD_NAME"},
                        {"valueFrom", {{"fieldRef", {{"apiVersion", "v1"}, {"fieldPath", "metadata.name"}}}}}});
  app["env"].push_back({{"name", "DB_PASSWORD"},
                        {"valueFrom", {{"secretKeyRef", {{"name", "shop-db"}, {"key", "password"}}}}}});
  app["livenessProbe"] = {{"httpGet", {{"path", "/healthz"}, {"port", 8080}}}, {"periodSeconds", 10}};
  app["readinessProbe"] = {{"tcpSocket", {{"port", "http"}}}, {"periodSeconds", 5}};
  app["volumeMounts"] = {{{"name", "config"}, {"mountPath", "/etc/shop"}, {"readOnly", true}},
                         {{"name", "cache"}, {"mountPath", "/var/cache/shop"}},
                         {{"name", "token"}, {"mountPath", "/var/run/token"}}};
  spec["containers"].push_back(
      {{"name", "envoy"}, {"image", "envoyproxy/envoy:v1.31.0"},
       {"ports", {{{"containerPort", 9901}, {"name", "admin"}, {"protocol", "TCP"}}}},
       {"resources", {{"requests", {{"cpu", "50m"}, {"memory", "64Mi"}}}, {"limits", {{"memory", "128Mi"}}}}},
       {"startupProbe", {{"exec", {{"command", {"/ready"}}}}, {"failureThreshold", 30}}},
       {"volumeMounts", {{{"name", "config"}, {"mountPath", "/etc/envoy"}}}},
       {"securityContext", {{"runAsUser", 101}}},
       {"imagePullPolicy", "IfNotPresent"}});
  spec["volumes"] = {
      {{"name", "config"}, {"configMap", {{"name", "shop-config"}, {"defaultMode", 420}}}},
      {{"name", "cache"}, {"emptyDir", {{"sizeLimit", "500Mi"}}}},
      {{"name", "token"}, {"secret", {{"secretName", "shop-token"}}}}};
  pod["status"]["conditions"] = {{{"type", "Ready"}, {"status", "True"}, {"lastProbeTime", nullptr},
                                  {"lastTransitionTime", "2024-05-01T12:00:15Z"}}};
  return pod;
}

json MakePodList(size_t pods) {
  json list = {{"apiVersion", "v1"}, {"kind", "PodList"},
               {"metadata", {{"resourceVersion", "123456"}}}, {"items", json::array()}};
  for (size_t i = 0; i < pods; ++i) list["items"].push_back(MakeTypicalPod(static_cast<int>(i), false));
  return list;
}

// Both paths must give the object back unchanged before anything is timed.
bool CheckRoundTrips(const std::string& label, const json& obj, const std::string& pb, const std::string& text) {
  auto decoded = kube::protobuf::DecodeObject(pb);
  if (!decoded.ok()) return Fail(label + ": DecodeObject: " + decoded.status().ToString());
  if (*decoded != obj) return Fail(label + ": JSON -> protobuf -> JSON changed the object");
  auto again = kube::protobuf::EncodeObject(*decoded);
  if (!again.ok() || *again != pb) return Fail(label + ": protobuf -> JSON -> protobuf changed the bytes");
  if (json::parse(text) != obj || json::parse(text).dump() != text)
    return Fail(label + ": JSON parse/dump round trip changed the object");
  return true;
}

double Mb(size_t bytes, double ops_per_s) { return static_cast<double>(bytes) * ops_per_s / 1e6; }

// Measures one object: decode, encode, decode+encode for JSON and protobuf; rows into `table`.
void MeasureObject(Table* table, const std::string& title, const json& obj, size_t ops) {
  const std::string text = obj.dump();
  auto encoded = kube::protobuf::EncodeObject(obj);
  if (!encoded.ok()) {
    Fail(title + ": EncodeObject: " + encoded.status().ToString());
    return;
  }
  const std::string pb = *encoded;
  char head[160];
  std::snprintf(head, sizeof head, "%s: %zu B JSON, %zu B protobuf (%.0f%%)", title.c_str(),
                text.size(), pb.size(), 100.0 * static_cast<double>(pb.size()) / static_cast<double>(text.size()));
  table->Section(head);
  const bool valid = CheckRoundTrips(title, obj, pb, text);
  // A parsed copy for the encode-only measurements.
  const json parsed = json::parse(text);

  bool ok = valid;
  const double json_dec = !valid ? 0 : MedianRate(ops, kRounds, &ok, [&](size_t) {
    json j = json::parse(text);
    g_sink = g_sink + j.size();
    return true;
  });
  const bool json_dec_ok = ok;
  ok = valid;
  const double pb_dec = !valid ? 0 : MedianRate(ops, kRounds, &ok, [&](size_t) {
    auto j = kube::protobuf::DecodeObject(pb);
    if (!j.ok()) return Fail(title + ": DecodeObject: " + j.status().ToString());
    g_sink = g_sink + j->size();
    return true;
  });
  table->Baseline("JSON parse (nlohmann)", json_dec, "ops/s", json_dec_ok);
  table->Info("  JSON parse throughput", Mb(text.size(), json_dec), "MB/s", "of JSON text", json_dec_ok);
  table->Rate("protobuf DecodeObject", pb_dec, json_dec, "JSON parse", ok);
  table->Info("  protobuf decode throughput", Mb(pb.size(), pb_dec), "MB/s", "of protobuf bytes", ok);

  ok = valid;
  const double json_enc = !valid ? 0 : MedianRate(ops, kRounds, &ok, [&](size_t) {
    g_sink = g_sink + parsed.dump().size();
    return true;
  });
  const bool json_enc_ok = ok;
  ok = valid;
  const double pb_enc = !valid ? 0 : MedianRate(ops, kRounds, &ok, [&](size_t) {
    auto b = kube::protobuf::EncodeObject(parsed);
    if (!b.ok()) return Fail(title + ": EncodeObject: " + b.status().ToString());
    g_sink = g_sink + b->size();
    return true;
  });
  table->Baseline("JSON dump (nlohmann)", json_enc, "ops/s", json_enc_ok);
  table->Info("  JSON dump throughput", Mb(text.size(), json_enc), "MB/s", "of JSON text", json_enc_ok);
  table->Rate("protobuf EncodeObject", pb_enc, json_enc, "JSON dump", ok);
  table->Info("  protobuf encode throughput", Mb(pb.size(), pb_enc), "MB/s", "of protobuf bytes", ok);

  // decode + encode, each op checked against its input bytes.
  ok = valid;
  const double json_rt = !valid ? 0 : MedianRate(ops, kRounds, &ok, [&](size_t) {
    const std::string out = json::parse(text).dump();
    return out == text || Fail(title + ": JSON parse+dump changed the text");
  });
  const bool json_rt_ok = ok;
  ok = valid;
  const double pb_rt = !valid ? 0 : MedianRate(ops, kRounds, &ok, [&](size_t) {
    auto j = kube::protobuf::DecodeObject(pb);
    if (!j.ok()) return Fail(title + ": DecodeObject: " + j.status().ToString());
    auto b = kube::protobuf::EncodeObject(*j);
    if (!b.ok()) return Fail(title + ": EncodeObject: " + b.status().ToString());
    return *b == pb || Fail(title + ": protobuf decode+encode changed the bytes");
  });
  table->Baseline("JSON parse+dump", json_rt, "ops/s", json_rt_ok);
  table->Info("  JSON parse+dump throughput", Mb(text.size(), json_rt), "MB/s", "of JSON text", json_rt_ok);
  table->Rate("protobuf decode+encode", pb_rt, json_rt, "JSON parse+dump", ok);
  table->Info("  protobuf decode+encode throughput", Mb(pb.size(), pb_rt), "MB/s", "of protobuf bytes", ok);
  table->Info("  protobuf decode+encode, JSON-equivalent", Mb(text.size(), pb_rt), "MB/s",
              "JSON bytes / protobuf time", ok);
}

}  // namespace

int main() {
  const auto run_start = Clock::now();
  // Load the protobuf catalogue (parsed once per process) before anything is timed.
  if (!kube::protobuf::EncodeObject(MakeTypicalPod(0, true)).ok()) Fail("warm-up EncodeObject failed");

  Table table;
  MeasureObject(&table, "1. Pod", MakeTypicalPod(1, true), kPodOps);
  MeasureObject(&table, "2. PodList of 500 Pods", MakePodList(kListPods), kListOps);

  table.Print();
  std::printf("\ncost = time per op relative to the JSON row above it (< 1: protobuf is faster)\n");
  std::printf("total run time %.1f s; %d failed check(s)\n", SecondsSince(run_start), FailureCount());
  return FailureCount() == 0 ? 0 : 1;
}
