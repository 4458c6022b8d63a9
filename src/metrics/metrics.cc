#include "metrics/metrics.h"

#include <algorithm>

#include "metrics/text_format.h"

namespace kube::metrics {

Histogram::Histogram(const std::vector<double>* upper_bounds)
    : bounds_(upper_bounds), buckets_(std::make_unique<std::atomic<uint64_t>[]>(upper_bounds->size())) {
  for (size_t i = 0; i < bounds_->size(); ++i) buckets_[i].store(0, std::memory_order_relaxed);
}

void Histogram::Observe(double v) {
  // Buckets are few (kube's longest list has 25): a linear scan beats a binary search.
  const auto& b = *bounds_;
  for (size_t i = 0; i < b.size(); ++i) {
    if (v <= b[i]) {
      buckets_[i].fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  sum_.fetch_add(v, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
}

std::vector<uint64_t> Histogram::CumulativeCounts() const {
  std::vector<uint64_t> out;
  out.reserve(bounds_->size() + 1);
  uint64_t total = 0;
  for (size_t i = 0; i < bounds_->size(); ++i) {
    total += buckets_[i].load(std::memory_order_relaxed);
    out.push_back(total);
  }
  // Observations are not atomic as a whole: a scrape racing one may see its bucket before its
  // count. +Inf is never below the last bucket, so the exposition stays consistent.
  out.push_back(std::max(total, count_.load(std::memory_order_relaxed)));
  return out;
}

namespace {

// The series key: label values joined by a byte that cannot start a UTF-8 character.
void AppendKey(std::string* key, std::initializer_list<std::string_view> values) {
  key->clear();
  for (std::string_view v : values) key->append(v).push_back('\xff');
}

template <typename Cell>
std::unique_ptr<Cell> NewCell(const std::vector<double>* buckets) {
  if constexpr (std::is_same_v<Cell, Histogram>) {
    return std::make_unique<Histogram>(buckets);
  } else {
    return std::make_unique<Cell>();
  }
}

}  // namespace

template <typename Cell>
Cell* Vec<Cell>::With(Values values) {
  thread_local std::string key;
  AppendKey(&key, values);
  {
    std::shared_lock lock(mu_);
    if (auto it = series_.find(std::string_view(key)); it != series_.end()) return it->second.cell.get();
  }
  std::unique_lock lock(mu_);
  auto [it, inserted] = series_.try_emplace(key);
  if (inserted) {
    it->second.values.assign(values.begin(), values.end());
    it->second.values.resize(desc_.labels.size());
    it->second.cell = NewCell<Cell>(&buckets_);
  }
  return it->second.cell.get();
}

template <typename Cell>
void Vec<Cell>::Write(std::string* out) const {
  std::vector<const Series*> sorted;
  {
    std::shared_lock lock(mu_);
    sorted.reserve(series_.size());
    for (const auto& [key, s] : series_) sorted.push_back(&s);
  }
  if (sorted.empty()) return;
  // Series are never removed: the pointers stay valid after the lock is released.
  std::sort(sorted.begin(), sorted.end(), [](const Series* a, const Series* b) { return a->values < b->values; });
  const std::string& name = desc_.name;
  if constexpr (std::is_same_v<Cell, Counter>) {
    AppendHeader(out, desc_, "counter");
    for (const Series* s : sorted) {
      AppendSample(out, name, desc_.labels, s->values, {}, {}, FormatValue(static_cast<double>(s->cell->Value())));
    }
  } else if constexpr (std::is_same_v<Cell, Gauge>) {
    AppendHeader(out, desc_, "gauge");
    for (const Series* s : sorted) {
      AppendSample(out, name, desc_.labels, s->values, {}, {}, FormatValue(static_cast<double>(s->cell->Value())));
    }
  } else {
    AppendHeader(out, desc_, "histogram");
    const std::string bucket = name + "_bucket";
    for (const Series* s : sorted) {
      const auto counts = s->cell->CumulativeCounts();
      for (size_t i = 0; i < buckets_.size(); ++i) {
        AppendSample(out, bucket, desc_.labels, s->values, "le", FormatValue(buckets_[i]),
                     FormatValue(static_cast<double>(counts[i])));
      }
      AppendSample(out, bucket, desc_.labels, s->values, "le", "+Inf", FormatValue(static_cast<double>(counts.back())));
      AppendSample(out, name + "_sum", desc_.labels, s->values, {}, {}, FormatValue(s->cell->Sum()));
      AppendSample(out, name + "_count", desc_.labels, s->values, {}, {},
                   FormatValue(static_cast<double>(counts.back())));
    }
  }
}

template class Vec<Counter>;
template class Vec<Gauge>;
template class Vec<Histogram>;

void GaugeFunc::Write(std::string* out) const {
  auto samples = collect_();
  if (samples.empty()) return;
  std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.values < b.values; });
  AppendHeader(out, desc_, counter_ ? "counter" : "gauge");
  for (const auto& s : samples) AppendSample(out, desc_.name, desc_.labels, s.values, {}, {}, FormatValue(s.value));
}

template <typename F>
F* Registry::Add(std::unique_ptr<F> family) {
  F* raw = family.get();
  std::lock_guard lock(mu_);
  families_.push_back(std::move(family));
  return raw;
}

CounterVec* Registry::NewCounter(Desc desc) { return Add(std::make_unique<CounterVec>(std::move(desc))); }

GaugeVec* Registry::NewGauge(Desc desc) { return Add(std::make_unique<GaugeVec>(std::move(desc))); }

HistogramVec* Registry::NewHistogram(Desc desc, std::vector<double> buckets) {
  std::sort(buckets.begin(), buckets.end());
  return Add(std::make_unique<HistogramVec>(std::move(desc), std::move(buckets)));
}

void Registry::NewGaugeFunc(Desc desc, std::function<std::vector<GaugeFunc::Sample>()> collect, bool counter) {
  Add(std::make_unique<GaugeFunc>(std::move(desc), std::move(collect), counter));
}

std::string Registry::Expose() const {
  std::vector<const Family*> sorted;
  {
    std::lock_guard lock(mu_);
    for (const auto& f : families_) sorted.push_back(f.get());
  }
  std::sort(sorted.begin(), sorted.end(), [](const Family* a, const Family* b) { return a->desc().name < b->desc().name; });
  std::string out;
  for (const Family* f : sorted) f->Write(&out);
  return out;
}

}  // namespace kube::metrics
