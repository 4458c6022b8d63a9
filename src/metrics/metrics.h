// Prometheus metrics with labels — counters, gauges, histograms and gauges read at scrape time —
// and a Registry that renders them in the text exposition format (0.0.4), as kube's
// component-base/metrics does: families sorted by name, "# HELP name [STABILITY] help" and
// "# TYPE" lines, series sorted by label values, Go's float formatting.
//
// Why not prometheus-cpp (Debian's prometheus-cpp-dev 1.0.1): its Family::Add takes a
// std::map<std::string, std::string> of labels per lookup (a dozen allocations on every request
// here), it has no process collector, and its exposition neither marks stability in HELP nor
// formats floats as Go does. The hot path here is one thread-local key buffer, a shared lock and
// a hash lookup, then relaxed atomics.
//
// Thread-safety: every type here is safe for concurrent use. Cells returned by With() live as
// long as their family; families live as long as the Registry that made them.
#pragma once

#include <atomic>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kube::metrics {

// component-base's stability levels, shown in HELP as kube shows them; kRaw for collectors
// registered raw (the process collector), whose HELP carries no level.
enum class Stability { kAlpha, kBeta, kStable, kRaw };

struct Desc {
  std::string name;
  std::string help;
  Stability stability = Stability::kAlpha;
  std::vector<std::string> labels;
};

class Counter {
 public:
  void Inc(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

class Gauge {
 public:
  void Add(int64_t n) { value_.fetch_add(n, std::memory_order_relaxed); }
  void Set(int64_t n) { value_.store(n, std::memory_order_relaxed); }
  int64_t Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

class Histogram {
 public:
  // `upper_bounds` ascending, without +Inf; must outlive the histogram (its family keeps them).
  explicit Histogram(const std::vector<double>* upper_bounds);
  void Observe(double v);
  // Cumulative counts per upper bound, then the total count (+Inf), and the sum.
  std::vector<uint64_t> CumulativeCounts() const;
  double Sum() const { return sum_.load(std::memory_order_relaxed); }
  uint64_t Count() const { return count_.load(std::memory_order_relaxed); }

 private:
  const std::vector<double>* bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;  // non-cumulative, one per bound
  std::atomic<uint64_t> count_{0};
  std::atomic<double> sum_{0};
};

// One metric name and its series, one per distinct tuple of label values.
class Family {
 public:
  virtual ~Family() = default;
  const Desc& desc() const { return desc_; }
  // Appends the family's HELP, TYPE and sample lines; nothing when it has no series.
  virtual void Write(std::string* out) const = 0;

 protected:
  explicit Family(Desc desc) : desc_(std::move(desc)) {}
  Desc desc_;
};

// The series of a family keyed by label values. `Cell` is Counter, Gauge or Histogram.
template <typename Cell>
class Vec final : public Family {
 public:
  using Values = std::initializer_list<std::string_view>;
  Vec(Desc desc, std::vector<double> buckets = {}) : Family(std::move(desc)), buckets_(std::move(buckets)) {}

  // The series with these label values (one per label name, in order), created on first use.
  Cell* With(Values values);
  void Write(std::string* out) const override;

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct Series {
    std::vector<std::string> values;
    std::unique_ptr<Cell> cell;
  };
  const std::vector<double> buckets_;
  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, Series, Hash, std::equal_to<>> series_;  // guarded by mu_
};

using CounterVec = Vec<Counter>;
using GaugeVec = Vec<Gauge>;
using HistogramVec = Vec<Histogram>;

// A gauge family whose samples are computed when scraped (object counts, process figures).
class GaugeFunc final : public Family {
 public:
  struct Sample {
    std::vector<std::string> values;  // one per label
    double value;
  };
  GaugeFunc(Desc desc, std::function<std::vector<Sample>()> collect, bool counter = false)
      : Family(std::move(desc)), collect_(std::move(collect)), counter_(counter) {}
  void Write(std::string* out) const override;

 private:
  std::function<std::vector<Sample>()> collect_;
  bool counter_;
};

// kube's request-duration buckets and the like are given by the caller; exposition is here.
class Registry {
 public:
  CounterVec* NewCounter(Desc desc);
  GaugeVec* NewGauge(Desc desc);
  HistogramVec* NewHistogram(Desc desc, std::vector<double> buckets);
  // `counter`: TYPE counter instead of gauge (process_cpu_seconds_total).
  void NewGaugeFunc(Desc desc, std::function<std::vector<GaugeFunc::Sample>()> collect, bool counter = false);

  // The text exposition of every family, sorted by name.
  std::string Expose() const;

 private:
  template <typename F>
  F* Add(std::unique_ptr<F> family);

  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Family>> families_;  // guarded by mu_
};

}  // namespace kube::metrics
