// metrics_bench: the per-request cost of the request metrics (endpoints/instrumentation.h), in
// process, against the request they instrument:
//   1. RequestMetrics::Observe for a GET of a named ConfigMap (verb cleaning, two series lookups,
//      a counter and a histogram update): ns per request, one thread and two threads;
//   2. ApiServer::Handle of that GET (registry, encoding, and the Observe inside it): ns per
//      request, and Observe's share of it;
//   3. a /metrics scrape with the series the run created plus 1,000 more: ms per scrape.
// Every step checks its results (answers 200, counters equal to the requests made, a scrape that
// parses); a failed check prints "CHECK FAILED", marks its row FAIL and makes the exit status 1.
//
// Usage: metrics_bench
#include <nlohmann/json.hpp>

#include <atomic>
#include <thread>

#include "bench_util.h"
#include "endpoints/api_server.h"
#include "endpoints/instrumentation.h"
#include "metrics/text_format_parser.h"
#include "registry/api_registry.h"

namespace {

using namespace kube;
using namespace kube::bench;

constexpr int kObserves = 2'000'000;
constexpr int kHandles = 100'000;
constexpr int kRounds = 5;

endpoints::HttpRequest GetRequest() {
  endpoints::HttpRequest r;
  r.method = "GET";
  r.path = "/api/v1/namespaces/default/configmaps/bench";
  r.headers.emplace("Accept", "application/json");
  r.headers.emplace("User-Agent", "metrics_bench");
  return r;
}

// Median over rounds of the ns per op(i).
template <class Op>
double NanosPerOp(int total, Op&& op) {
  std::vector<double> per_op;
  const int per_round = total / kRounds;
  for (int round = 0; round < kRounds; ++round) {
    const auto start = Clock::now();
    for (int i = 0; i < per_round; ++i) op(i);
    per_op.push_back(MicrosBetween(start, Clock::now()) * 1000.0 / per_round);
  }
  return Median(per_op);
}

}  // namespace

int main() {
  Table table;
  auto opened = registry::ApiRegistry::Open({}, catalogue::Catalogue::BuiltIn());
  if (!opened.ok()) {
    std::fprintf(stderr, "registry: %s\n", opened.status().ToString().c_str());
    return 1;
  }
  auto reg = std::move(*opened);
  auto metrics = std::make_shared<metrics::Registry>();
  endpoints::ApiServerOptions options;
  options.metrics = metrics;
  endpoints::ApiServer api(reg.get(), options);

  endpoints::HttpRequest create;
  create.method = "POST";
  create.path = "/api/v1/namespaces/default/configmaps";
  create.headers.emplace("Content-Type", "application/json");
  create.body = R"({"metadata":{"name":"bench"},"data":{"k":"v"}})";
  Expect(api.Handle(create).status == 201, "create the ConfigMap");

  const endpoints::HttpRequest get = GetRequest();
  const endpoints::Query query = endpoints::Query::Parse(get.raw_query);
  const endpoints::RequestInfo info = endpoints::ParseRequestInfo(get.method, get.path, false);

  // 1. Observe alone, on a registry of its own so the counts are exact.
  metrics::Registry observe_registry;
  endpoints::RequestMetrics observe(&observe_registry, reg.get());
  const auto start = std::chrono::steady_clock::now();
  const double observe_ns = NanosPerOp(kObserves, [&](int) {
    endpoints::HttpResponse r;
    observe.Observe(get, info, query, "apiserver", start, &r);
  });
  std::atomic<int> done{0};
  std::vector<std::thread> threads;
  const auto two_start = Clock::now();
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kObserves / 2; ++i) {
        endpoints::HttpResponse r;
        observe.Observe(get, info, query, "apiserver", start, &r);
      }
      done.fetch_add(1);
    });
  }
  for (auto& t : threads) t.join();
  const double two_thread_ns = MicrosBetween(two_start, Clock::now()) * 1000.0 / kObserves;
  std::string error;
  auto parsed = metrics::testing::Parse(observe_registry.Expose(), &error);
  const bool observe_ok =
      Expect(error.empty(), "scrape parses: " + error) &&
      Expect(parsed.Value("apiserver_request_total", {{"verb", "GET"}, {"code", "200"}}) ==
                 static_cast<double>(kObserves / kRounds * kRounds + kObserves),
             "every Observe counted");

  // 2. The whole request, metrics included.
  bool handle_ok = true;
  const double handle_ns = NanosPerOp(kHandles, [&](int) {
    if (api.Handle(get).status != 200 && handle_ok) handle_ok = Fail("GET answered 200");
  });

  // 3. A scrape with 1,000 more series.
  auto* extra = metrics->NewCounter(metrics::Desc{"bench_series_total", "Bench series.", metrics::Stability::kAlpha, {"i"}});
  for (int i = 0; i < 1000; ++i) extra->With({std::to_string(i)})->Inc();
  std::vector<double> scrape_ms;
  std::string text;
  for (int i = 0; i < 20; ++i) {
    const auto s = Clock::now();
    text = metrics->Expose();
    scrape_ms.push_back(MicrosBetween(s, Clock::now()) / 1000.0);
  }
  auto scraped = metrics::testing::Parse(text, &error);
  const bool scrape_ok = Expect(error.empty(), "scrape parses: " + error) &&
                         Expect(scraped.Value("apiserver_request_total", {{"verb", "GET"}}).value_or(0) >= kHandles,
                                "the GETs are counted");

  table.Section("request metrics overhead (in process)");
  table.Baseline("ApiServer::Handle GET configmap (metrics included)", handle_ns, "ns", handle_ok);
  table.Latency("RequestMetrics::Observe, 1 thread", observe_ns, "ns", handle_ns, "Handle GET", observe_ok);
  table.Latency("RequestMetrics::Observe, 2 threads (per request)", two_thread_ns, "ns", handle_ns, "Handle GET",
                observe_ok);
  table.Section("scrape");
  table.Info("GET /metrics body, ~1,100 series", Median(scrape_ms), "ms", std::to_string(text.size()) + " bytes",
             scrape_ok);
  table.Print();
  return FailureCount() == 0 ? 0 : 1;
}
