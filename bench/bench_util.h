// Helpers of storage_bench: timing, percentiles, result checks, the result table and the Pod-like
// test object. Header-only; everything here runs in the benchmark's main thread unless noted.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace kube::bench {

using Clock = std::chrono::steady_clock;

inline double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
inline double MicrosBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::micro>(to - from).count();
}

// Nearest-rank percentile (p in [0, 1]) of `samples`; NaN when empty. Sorts a copy.
inline double Percentile(std::vector<double> samples, double p) {
  if (samples.empty()) return std::nan("");
  std::sort(samples.begin(), samples.end());
  size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(samples.size())));
  rank = std::clamp<size_t>(rank, 1, samples.size());
  return samples[rank - 1];
}
inline double Median(std::vector<double> samples) { return Percentile(std::move(samples), 0.5); }

// --- checks: a failed check is printed at once, marks the current row FAIL and makes the process
// exit non-zero at the end.

inline int& FailureCount() {
  static int failures = 0;
  return failures;
}
// Always returns false, so hot loops can write `if (!ok) return Fail(...)`.
inline bool Fail(const std::string& what) {
  ++FailureCount();
  std::fprintf(stderr, "CHECK FAILED: %s\n", what.c_str());
  std::fflush(stderr);
  return false;
}
inline bool Expect(bool cond, const std::string& what) { return cond ? true : Fail(what); }

// Runs op(i) for i in [0, total_ops), split into `rounds` equal timed rounds, and returns the
// median round's ops/s. op returns false on a failed check (after calling Fail); the measurement
// stops there and *ok becomes false.
template <class Op>
double MedianRate(size_t total_ops, int rounds, bool* ok, Op&& op) {
  const size_t per_round = total_ops / static_cast<size_t>(rounds);
  std::vector<double> rates;
  *ok = true;
  for (int r = 0; r < rounds && *ok; ++r) {
    const size_t begin = static_cast<size_t>(r) * per_round;
    const auto start = Clock::now();
    for (size_t i = begin; i < begin + per_round; ++i) {
      if (!op(i)) {
        *ok = false;
        break;
      }
    }
    rates.push_back(static_cast<double>(per_round) / SecondsSince(start));
  }
  return Median(std::move(rates));
}

// Runs op() `runs` times and returns each run's latency in microseconds; stops at the first
// failed run (*ok = false).
template <class Op>
std::vector<double> LatencySamples(int runs, bool* ok, Op&& op) {
  std::vector<double> us;
  *ok = true;
  for (int r = 0; r < runs; ++r) {
    const auto start = Clock::now();
    if (!op()) {
      *ok = false;
      break;
    }
    us.push_back(MicrosBetween(start, Clock::now()));
  }
  return us;
}

// --- the result table.

struct Row {
  std::string name;
  double value = 0;
  std::string unit;    // "ops/s", "ms", "us", or "x" (a ratio)
  double cost = NAN;   // time per op relative to the baseline's, NaN for none
  std::string vs;      // which baseline `cost` is relative to
  bool ok = true;
};

class Table {
 public:
  void Section(std::string title) { rows_.push_back(Row{.name = "## " + std::move(title)}); }
  // A throughput row; cost = baseline_rate / rate.
  void Rate(std::string name, double rate, double baseline_rate, std::string vs, bool ok) {
    rows_.push_back(Row{std::move(name), rate, "ops/s", baseline_rate / rate, std::move(vs), ok});
  }
  // A latency row (value in `unit`, both figures in the same unit); cost = value / baseline.
  void Latency(std::string name, double value, std::string unit, double baseline,
               std::string vs, bool ok) {
    rows_.push_back(Row{std::move(name), value, std::move(unit), value / baseline, std::move(vs), ok});
  }
  // A row without a baseline (counts); `note` goes in the "relative to" column.
  void Info(std::string name, double value, std::string unit, std::string note, bool ok) {
    rows_.push_back(Row{std::move(name), value, std::move(unit), NAN, std::move(note), ok});
  }
  void Baseline(std::string name, double value, std::string unit, bool ok) {
    rows_.push_back(Row{std::move(name), value, std::move(unit), 1.0, "(baseline)", ok});
  }
  void Print() const {
    std::printf("%-50s %14s %-6s %9s  %-26s %s\n", "measurement", "value", "unit", "cost/raw",
                "relative to", "check");
    for (const Row& r : rows_) {
      if (r.name.rfind("## ", 0) == 0) {
        std::printf("%s\n", r.name.c_str());
        continue;
      }
      char value[32];
      const char* format = r.unit == "x" ? "%.2f" : r.unit == "ms" || r.unit == "us" ? "%.1f" : "%.0f";
      std::snprintf(value, sizeof value, format, r.value);
      char cost[32] = "-";
      if (!std::isnan(r.cost)) {
        std::snprintf(cost, sizeof cost, r.cost >= 100 ? "%.0fx" : "%.2fx", r.cost);
      }
      std::printf("  %-48s %14s %-6s %9s  %-26s %s\n", r.name.c_str(), value, r.unit.c_str(), cost,
                  r.vs.c_str(), r.ok ? "ok" : "FAIL");
    }
    std::fflush(stdout);
  }

 private:
  std::vector<Row> rows_;
};

// metadata.name of an object, "" when it has none (never throws).
inline std::string ObjectName(const nlohmann::json& obj) {
  if (!obj.is_object()) return "";
  auto meta = obj.find("metadata");
  if (meta == obj.end() || !meta->is_object()) return "";
  auto name = meta->find("name");
  return name != meta->end() && name->is_string() ? name->get<std::string>() : "";
}

// --- the test object: a typical Pod (~1 KB serialized) named `name` in `ns`.
inline nlohmann::json MakePod(std::string_view ns, std::string_view name, int n) {
  char uid[40];
  std::snprintf(uid, sizeof uid, "6f1c2a4e-0b7d-4c3e-9a51-%012d", n);
  const std::string shard = std::to_string(n % 16);
  return nlohmann::json{
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", name},
        {"namespace", ns},
        {"uid", uid},
        {"generateName", "web-"},
        {"creationTimestamp", "2024-05-01T12:00:00Z"},
        {"labels", {{"app", "web"}, {"tier", "frontend"}, {"shard", shard},
                    {"pod-template-hash", "7d9f8b6c5d"}}},
        {"annotations", {{"kubernetes.io/config.source", "api"},
                         {"prometheus.io/scrape", "true"}}},
        {"ownerReferences", {{{"apiVersion", "apps/v1"}, {"kind", "ReplicaSet"},
                              {"name", "web-7d9f8b6c5d"}, {"uid", "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9"},
                              {"controller", true}, {"blockOwnerDeletion", true}}}}}},
      {"spec",
       {{"containers",
         {{{"name", "web"},
           {"image", "registry.k8s.io/nginx-slim:0.27"},
           {"args", {"--port=8080", "--log-level=info"}},
           {"ports", {{{"containerPort", 8080}, {"name", "http"}, {"protocol", "TCP"}}}},
           {"env", {{{"name", "POD_SHARD"}, {"value", shard}}}},
           {"resources", {{"requests", {{"cpu", "100m"}, {"memory", "128Mi"}}},
                          {"limits", {{"cpu", "500m"}, {"memory", "256Mi"}}}}},
           {"imagePullPolicy", "IfNotPresent"}}}},
        {"restartPolicy", "Always"},
        {"dnsPolicy", "ClusterFirst"},
        {"serviceAccountName", "default"},
        {"nodeName", "node-" + std::to_string(n % 8)},
        {"schedulerName", "default-scheduler"},
        {"terminationGracePeriodSeconds", 30}}},
      {"status", {{"phase", "Running"}, {"podIP", "10.0.0." + std::to_string(n % 250 + 1)},
                  {"qosClass", "Burstable"}}}};
}

}  // namespace kube::bench
