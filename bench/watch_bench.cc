#include "watch_bench.h"

#include <atomic>
#include <charconv>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "bench_util.h"
#include "kv/watcher.h"

namespace kube::bench {
namespace {

// The write index at the end of a key or name ("...-0042" -> 42); -1 if there is none.
int TrailingIndex(std::string_view s) {
  const size_t dash = s.rfind('-');
  if (dash == std::string_view::npos) return -1;
  int v = -1;
  auto [p, ec] = std::from_chars(s.data() + dash + 1, s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() ? v : -1;
}

int64_t Nanos(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

// What one consumer thread records. Used by that thread only until it is joined.
class Sink {
 public:
  Sink(const std::vector<std::atomic<int64_t>>* starts, const std::atomic<int64_t>* give_up_ns)
      : starts_(starts), give_up_ns_(give_up_ns) {
    latencies_us_.reserve(starts->size());
  }

  // Records event number `index`, delivered at `now`. Events must come in write order, each once.
  bool Deliver(int index, Clock::time_point now) {
    if (index != next_) {
      error_ = "expected event #" + std::to_string(next_) + ", got #" + std::to_string(index);
      return false;
    }
    const int64_t start = (*starts_)[static_cast<size_t>(index)].load(std::memory_order_acquire);
    if (start == 0) {
      error_ = "event #" + std::to_string(index) + " delivered before its write started";
      return false;
    }
    latencies_us_.push_back(static_cast<double>(Nanos(now) - start) / 1e3);
    ++next_;
    return true;
  }
  void SetError(std::string e) { error_ = std::move(e); }

  bool Done() const { return static_cast<size_t>(next_) == starts_->size(); }
  bool GaveUp() const { return Nanos(Clock::now()) > give_up_ns_->load(std::memory_order_relaxed); }
  Clock::time_point PollDeadline() const { return Clock::now() + std::chrono::milliseconds(100); }

  const std::vector<double>& latencies_us() const { return latencies_us_; }
  const std::string& error() const { return error_; }
  int received() const { return next_; }

 private:
  const std::vector<std::atomic<int64_t>>* starts_;
  const std::atomic<int64_t>* give_up_ns_;
  std::vector<double> latencies_us_;
  int next_ = 0;
  std::string error_;
};

// Starts one thread per watcher running consume(i, sink), performs the spaced writes (write(i)
// must produce exactly one event for every watcher), waits for the consumers and checks that
// every watcher received every event.
WatchFanoutResult RunFanout(const WatchFanoutConfig& config,
                            const std::function<void(int, Sink&)>& consume,
                            const std::function<bool(int)>& write) {
  std::vector<std::atomic<int64_t>> starts(static_cast<size_t>(config.writes));
  for (auto& s : starts) s.store(0);
  std::atomic<int64_t> give_up_ns{std::numeric_limits<int64_t>::max()};

  std::vector<std::unique_ptr<Sink>> sinks;
  std::vector<std::thread> threads;
  for (int i = 0; i < config.watchers; ++i) {
    sinks.push_back(std::make_unique<Sink>(&starts, &give_up_ns));
    threads.emplace_back([&consume, i, sink = sinks.back().get()] { consume(i, *sink); });
  }

  WatchFanoutResult result;
  result.expected = static_cast<uint64_t>(config.watchers) * static_cast<uint64_t>(config.writes);
  const auto t0 = Clock::now();
  for (int i = 0; i < config.writes; ++i) {
    std::this_thread::sleep_until(t0 + i * config.spacing);
    starts[static_cast<size_t>(i)].store(Nanos(Clock::now()), std::memory_order_release);
    if (!write(i)) {
      result.ok = false;
      break;
    }
  }
  give_up_ns.store(Nanos(Clock::now() + config.grace), std::memory_order_relaxed);
  for (auto& t : threads) t.join();

  int reported = 0;
  for (int i = 0; i < config.watchers; ++i) {
    const Sink& s = *sinks[static_cast<size_t>(i)];
    result.delivered += static_cast<uint64_t>(s.received());
    result.latencies_us.insert(result.latencies_us.end(), s.latencies_us().begin(),
                               s.latencies_us().end());
    if (!s.error().empty() || !s.Done()) {
      result.ok = false;
      if (++reported <= 5) {
        Fail("watcher " + std::to_string(i) + " received " + std::to_string(s.received()) + "/" +
             std::to_string(config.writes) + " events" +
             (s.error().empty() ? "" : ": " + s.error()));
      }
    }
  }
  if (reported > 5) Fail(std::to_string(reported - 5) + " more watchers failed");
  return result;
}

}  // namespace

WatchFanoutResult KvWatchFanout(kv::Store* kv, const WatchFanoutConfig& config) {
  const std::string prefix = "/bench/watch/";
  std::vector<kv::WatcherPtr> watchers;
  for (int i = 0; i < config.watchers; ++i) {
    auto w = kv->Watch(kv::WatchOptions{.key = prefix, .range_end = kv::PrefixEnd(prefix)});
    if (!w.ok()) {
      Fail("kv Watch: " + w.status().ToString());
      return WatchFanoutResult{.ok = false};
    }
    watchers.push_back(std::move(w).value());
  }
  const std::string value(600, 'w');
  return RunFanout(
      config,
      [&](int i, Sink& sink) {
        kv::Watcher* w = watchers[static_cast<size_t>(i)].get();
        while (!sink.Done() && !sink.GaveUp()) {
          auto r = w->Next(sink.PollDeadline());
          const auto now = Clock::now();
          if (!r || r->kind == kv::WatchResponse::Kind::kProgress) continue;
          if (r->kind != kv::WatchResponse::Kind::kEvents) {
            return sink.SetError("watcher canceled or compacted");
          }
          for (const kv::EventPtr& ev : r->events) {
            if (!sink.Deliver(TrailingIndex(ev->kv.key), now)) return;
          }
        }
      },
      [&](int i) {
        char key[64];
        std::snprintf(key, sizeof key, "%sw-%04d", prefix.c_str(), i);
        auto rev = kv->Put(key, value);
        return rev.ok() || Fail(std::string("kv Put: ") + rev.status().ToString());
      });
}

WatchFanoutResult CacherWatchFanout(kv::Store* kv, storage::Interface* writer,
                                    cacher::Cacher* cacher, const WatchFanoutConfig& config) {
  const std::string rv = std::to_string(kv->CurrentRevision());
  std::vector<storage::WatchStreamPtr> streams;
  for (int i = 0; i < config.watchers; ++i) {
    auto s = cacher->Watch("/pods/", storage::ListOptions{.resource_version = rv, .recursive = true});
    if (!s.ok()) {
      Fail("cacher Watch: " + s.status().ToString());
      return WatchFanoutResult{.ok = false};
    }
    streams.push_back(std::move(s).value());
  }
  return RunFanout(
      config,
      [&](int i, Sink& sink) {
        storage::WatchStream* stream = streams[static_cast<size_t>(i)].get();
        storage::WatchEvent ev;
        while (!sink.Done() && !sink.GaveUp()) {
          const auto next = stream->NextEvent(&ev, sink.PollDeadline());
          const auto now = Clock::now();
          if (next == storage::WatchStream::Next::kTimeout) continue;
          if (next == storage::WatchStream::Next::kClosed) return sink.SetError("stream closed");
          if (ev.type == storage::WatchEventType::kBookmark) continue;
          if (ev.type != storage::WatchEventType::kAdded || ev.object == nullptr) {
            return sink.SetError(std::string("unexpected ") +
                                 std::string(storage::WatchEventTypeName(ev.type)) + " event" +
                                 (ev.type == storage::WatchEventType::kError
                                      ? ": " + ev.error.ToString() : ""));
          }
          if (!sink.Deliver(TrailingIndex(ObjectName(*ev.object)), now)) return;
        }
      },
      [&](int i) {
        char name[32];
        std::snprintf(name, sizeof name, "watch-%04d", i);
        auto created = writer->Create("/pods/" + std::string(config.ns) + "/" + name,
                                      MakePod(config.ns, name, i), 0);
        return created.ok() || Fail("Create: " + created.status().ToString());
      });
}

}  // namespace kube::bench
