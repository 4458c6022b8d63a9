#include "cacher/cacher.h"

#include <nlohmann/json.hpp>

#include <cmath>

#include "cacher/cacher_impl.h"
#include "storage/continue_token.h"
#include "storage/keys.h"
#include "storage/object_codec.h"
#include "storage/resource_version.h"

namespace kube::cacher {

using storage::ObjectPtr;
using storage::WatchEventType;

Clock::duration TimeBudget::Take() {
  const auto now = Clock::now();
  budget_ = std::min(cap_, budget_ + (now - last_) / 20);  // 50 ms per second
  last_ = now;
  auto granted = budget_;
  budget_ = Clock::duration::zero();
  return granted;
}

void TimeBudget::Return(Clock::duration unused) {
  if (unused > Clock::duration::zero()) budget_ = std::min(cap_, budget_ + unused);
}

Cacher::Impl::Impl(storage::Interface* storage, CacherConfig config, Options options)
    : storage_(storage),
      config_(std::move(config)),
      options_(options),
      cache_(options),
      not_ready_since_(Clock::now()),
      budget_(options.dispatch_budget) {
  prefix_ = config_.resource_prefix;
  if (prefix_.empty() || prefix_.back() != '/') prefix_.push_back('/');
  empty_object_ = config_.empty_object ? config_.empty_object
                                       : std::make_shared<storage::Object>(storage::Object::object());
  reflector_ = std::thread([this] { ReflectorLoop(); });
  ticker_ = std::thread([this] { TickerLoop(); });
}

void Cacher::Impl::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    if (reflector_stream_ != nullptr) reflector_stream_->Stop();
    TerminateAllWatchersLocked();
  }
  fresh_cv_.notify_all();
  ticker_cv_.notify_all();
}

Cacher::Impl::~Impl() {
  Stop();
  reflector_.join();
  ticker_.join();
}

std::string Cacher::Impl::KeyOf(const storage::Object& obj) const {
  const auto& meta = obj["metadata"];
  std::string key = prefix_;
  if (config_.namespaced) key += meta.value("namespace", "") + "/";
  return key + meta.value("name", "");
}

storage::Attrs Cacher::Impl::AttrsOf(const storage::Object& obj) const {
  return config_.attrs ? config_.attrs(obj) : storage::DefaultAttrs(obj);
}

void Cacher::Impl::ReflectorLoop() {
  while (true) {
    RunReflectorOnce();
    std::unique_lock lock(mu_);
    if (ready_) {
      ready_ = false;
      not_ready_since_ = Clock::now();
    }
    // Watchers of the old cache generation end; clients re-watch from their last RV.
    TerminateAllWatchersLocked();
    fresh_cv_.notify_all();
    if (fresh_cv_.wait_for(lock, options_.reinit_delay, [&] { return stopping_; })) return;
  }
}

void Cacher::Impl::RunReflectorOnce() {
  storage::ListOptions o;
  o.recursive = true;
  o.send_initial_events = true;
  o.predicate.allow_watch_bookmarks = true;
  o.progress_notify = true;
  o.report_restores = true;
  auto stream = storage_->Watch(prefix_, o);
  if (!stream.ok()) return;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    reflector_stream_ = stream->get();
    ++reflector_generation_;
    progress_requested_rv_ = 0;
  }
  std::map<std::string, CachedObject> initial;
  bool initialised = false;
  while (true) {
    storage::WatchEvent event;
    auto next = (*stream)->NextEvent(&event, Clock::now() + std::chrono::seconds(1));
    if (next == storage::WatchStream::Next::kTimeout) continue;
    if (next == storage::WatchStream::Next::kClosed || event.type == WatchEventType::kError) break;
    if (initialised) {
      ProcessEvent(event);
      continue;
    }
    if (event.restored) {
      // Not expected before the initial events end, but harmless: the list absorbs it.
      for (auto& [key, obj] : CachedChanges(*event.restored)) {
        if (obj.object) {
          initial.insert_or_assign(key, std::move(obj));
        } else {
          initial.erase(key);
        }
      }
      continue;
    }
    if (event.type == WatchEventType::kAdded) {
      initial.emplace(KeyOf(*event.object), CachedObject{event.object, AttrsOf(*event.object)});
    } else if (event.type == WatchEventType::kBookmark) {
      auto rv = storage::ParseResourceVersion(storage::ObjectResourceVersion(*event.object));
      std::lock_guard lock(mu_);
      cache_.Replace(std::move(initial), rv.ok() ? *rv : 0);
      ready_ = true;
      initialised = true;
      fresh_cv_.notify_all();
    }
  }
  std::lock_guard lock(mu_);
  reflector_stream_ = nullptr;
  ++reflector_generation_;
  progress_requested_rv_ = 0;
}

std::vector<std::pair<std::string, CachedObject>> Cacher::Impl::CachedChanges(
    const std::vector<storage::RestoredChange>& changes) const {
  std::vector<std::pair<std::string, CachedObject>> out;
  out.reserve(changes.size());
  for (const auto& c : changes) {
    out.emplace_back(c.key, c.object ? CachedObject{c.object, AttrsOf(*c.object)} : CachedObject{});
  }
  return out;
}

void Cacher::Impl::ProcessRestore(const std::vector<storage::RestoredChange>& changes, uint64_t rv) {
  // Selector attributes are computed before taking the lock that readers wait on.
  auto cached = CachedChanges(changes);
  std::lock_guard lock(mu_);
  // Watchers go first, so none is handed a restored object with a revision its history skipped.
  ExpireAllWatchersLocked(rv);
  cache_.Restore(std::move(cached), rv);
  fresh_cv_.notify_all();
}

void Cacher::Impl::ProcessEvent(const storage::WatchEvent& event) {
  auto rv = storage::ParseResourceVersion(storage::ObjectResourceVersion(*event.object));
  if (!rv.ok()) return;
  if (event.restored) return ProcessRestore(*event.restored, *rv);
  if (event.type == WatchEventType::kBookmark) {
    // Storage progress: the cache is current up to rv even if nothing of ours changed. Not
    // forwarded to clients; the cacher's own bookmarks use it.
    std::lock_guard lock(mu_);
    cache_.UpdateResourceVersion(*rv);
    fresh_cv_.notify_all();
    return;
  }
  CacheEventPtr applied;
  {
    std::lock_guard lock(mu_);
    applied = cache_.Apply(event.type, KeyOf(*event.object), event.object, AttrsOf(*event.object),
                           *rv, Clock::now());
    fresh_cv_.notify_all();
  }
  Dispatch(applied);
}

Status Cacher::Impl::NotReadyLocked() const {
  const double down = std::chrono::duration<double>(Clock::now() - not_ready_since_).count();
  const int retry_after = static_cast<int>(std::clamp(std::exp(0.06 * down), 1.0, 30.0));
  return Status::TooManyRequests("storage is (re)initializing", retry_after);
}

void Cacher::Impl::AddFreshnessWaiterLocked() {
  if (freshness_waiters_++ == 0) ticker_cv_.notify_all();
}

void Cacher::Impl::RequestProgressLocked(std::unique_lock<std::mutex>& lock) {
  const uint64_t generation = reflector_generation_;
  last_progress_request_ = Clock::now();
  lock.unlock();
  // Read before asking: the answer comes at storage's revision at the time of asking or later.
  auto current = storage_->GetCurrentResourceVersion();
  Status requested = storage_->RequestWatchProgress();
  lock.lock();
  if (current.ok() && requested.ok() && generation == reflector_generation_) {
    progress_requested_rv_ = std::max(progress_requested_rv_, *current);
  }
}

Status Cacher::Impl::WaitUntilFreshLocked(std::unique_lock<std::mutex>& lock, uint64_t rv) {
  if (cache_.resource_version() >= rv) return Status::OK();
  AddFreshnessWaiterLocked();
  // Ask at once rather than on the next tick: the cache may be current already and merely not
  // know it, because nothing of this resource changed since (kube's etcd3 store asks etcd on
  // demand, and etcd answers within a round trip). One request serves every read needing no
  // more than storage's revision when it was sent.
  if (rv > progress_requested_rv_) RequestProgressLocked(lock);
  const bool fresh = fresh_cv_.wait_for(lock, options_.block_timeout, [&] {
    return stopping_ || cache_.resource_version() >= rv;
  });
  --freshness_waiters_;
  if (fresh && !stopping_) return Status::OK();
  return Status::TooLargeResourceVersion(
      "Timeout: Too large resource version: " + std::to_string(rv) +
          ", current: " + std::to_string(cache_.resource_version()),
      1);
}

ObjectPtr Cacher::Impl::CachedLocked(const std::string& key) const {
  auto it = cache_.objects().find(key);
  return it == cache_.objects().end() ? nullptr : it->second.object;
}

Result<storage::ListResult> Cacher::Impl::ListFromCacheLocked(const std::string& key, bool recursive,
                                                              const storage::SelectionPredicate& pred,
                                                              bool honour_limit) const {
  storage::ListResult result;
  result.resource_version = std::to_string(cache_.resource_version());
  const auto& objects = cache_.objects();
  if (!recursive) {
    auto it = objects.find(key);
    if (it != objects.end() && pred.MatchesAttrs(it->second.attrs)) result.items.push_back(it->second.object);
    return result;
  }
  const int64_t limit = honour_limit ? pred.limit : 0;
  std::string last_key;
  bool has_more = false;
  auto it = objects.lower_bound(key);
  for (; it != objects.end() && it->first.starts_with(key); ++it) {
    if (!pred.MatchesAttrs(it->second.attrs)) continue;
    if (limit > 0 && static_cast<int64_t>(result.items.size()) >= limit) {
      has_more = true;
      break;
    }
    result.items.push_back(it->second.object);
    last_key = it->first;
  }
  if (has_more) {
    auto token = storage::EncodeContinueToken(last_key + '\0', key,
                                              static_cast<int64_t>(cache_.resource_version()));
    if (!token.ok()) return token.status();
    result.continue_token = std::move(*token);
    if (pred.Empty()) {
      int64_t remaining = 0;
      for (; it != objects.end() && it->first.starts_with(key); ++it) ++remaining;
      result.remaining_item_count = remaining;
    }
  }
  return result;
}

// --- Cacher: routing between cache and storage (storage.md §3.2).

Cacher::Cacher(storage::Interface* storage, CacherConfig config, Options options)
    : impl_(std::make_unique<Impl>(storage, std::move(config), options)) {}

Cacher::~Cacher() = default;

void Cacher::Stop() { impl_->Stop(); }

Result<ObjectPtr> Cacher::Create(std::string_view key, const storage::Object& obj, uint64_t ttl) {
  return impl_->storage_->Create(key, obj, ttl);
}

Result<ObjectPtr> Cacher::Delete(std::string_view key, const storage::Preconditions* preconditions,
                                 const storage::ValidateDeletionFunc& validate, ObjectPtr,
                                 const storage::DeleteOptions& options) {
  // Like kube's delegator: the cache's copy replaces whatever the caller had.
  ObjectPtr cached;
  {
    std::lock_guard lock(impl_->mu_);
    if (impl_->ready_) cached = impl_->CachedLocked(std::string(key));
  }
  return impl_->storage_->Delete(key, preconditions, validate, cached, options);
}

Result<ObjectPtr> Cacher::GuaranteedUpdate(std::string_view key, bool ignore_not_found,
                                           const storage::Preconditions* preconditions,
                                           const storage::UpdateFunc& update, ObjectPtr) {
  ObjectPtr cached;
  {
    std::lock_guard lock(impl_->mu_);
    if (impl_->ready_) cached = impl_->CachedLocked(std::string(key));
  }
  return impl_->storage_->GuaranteedUpdate(key, ignore_not_found, preconditions, update, cached);
}

Result<ObjectPtr> Cacher::Get(std::string_view key, const storage::GetOptions& options) {
  if (options.resource_version.empty()) return impl_->storage_->Get(key, options);
  auto prepared = storage::PrepareKey(impl_->prefix_, key, false);
  if (!prepared.ok()) return prepared.status();
  auto rv = storage::ParseResourceVersion(options.resource_version);
  if (!rv.ok()) return rv.status();
  std::unique_lock lock(impl_->mu_);
  if (!impl_->ready_) {
    lock.unlock();
    return impl_->storage_->Get(key, options);
  }
  KUBE_RETURN_IF_ERROR(impl_->WaitUntilFreshLocked(lock, *rv));
  if (auto obj = impl_->CachedLocked(*prepared)) return obj;
  if (options.ignore_not_found) return ObjectPtr();
  return Status::NotFound("key \"" + *prepared + "\" not found (cache resourceVersion " +
                          std::to_string(impl_->cache_.resource_version()) + ")");
}

Result<storage::ListResult> Cacher::GetList(std::string_view key, const storage::ListOptions& options) {
  const std::string& match = options.resource_version_match;
  const auto& pred = options.predicate;
  auto rv = storage::ParseResourceVersion(options.resource_version);
  // Exact reads, continuations, the legacy exact form and unknown match values go to storage
  // (this cache keeps no snapshots of past states).
  const bool legacy_exact = match.empty() && options.recursive && pred.limit > 0 && rv.ok() && *rv > 0;
  if (!rv.ok() || match == storage::kMatchExact || !pred.continue_token.empty() || legacy_exact ||
      (!match.empty() && match != storage::kMatchNotOlderThan)) {
    return impl_->storage_->GetList(key, options);
  }
  auto prepared = storage::PrepareKey(impl_->prefix_, key, options.recursive);
  if (!prepared.ok()) return prepared.status();
  const bool consistent = options.resource_version.empty();
  uint64_t required = *rv;
  if (consistent) {
    auto current = impl_->storage_->GetCurrentResourceVersion();
    if (!current.ok()) return current.status();
    required = *current;
  }
  std::unique_lock lock(impl_->mu_);
  if (!impl_->ready_) {
    // KEP-4568: paged lists without selectors may read storage while the cache initialises.
    if (pred.limit > 0 && pred.Empty()) {
      lock.unlock();
      return impl_->storage_->GetList(key, options);
    }
    return impl_->NotReadyLocked();
  }
  Status fresh = impl_->WaitUntilFreshLocked(lock, required);
  if (!fresh.ok()) {
    if (!consistent) return fresh;
    lock.unlock();
    return impl_->storage_->GetList(key, options);  // a consistent read falls back to storage
  }
  // With RV "0" the limit is ignored, as upstream (kubernetes#108003).
  const bool honour_limit = !(options.resource_version == "0");
  return impl_->ListFromCacheLocked(*prepared, options.recursive, pred, honour_limit);
}

Result<storage::WatchStreamPtr> Cacher::Watch(std::string_view key, const storage::ListOptions& options) {
  return impl_->Watch(key, options);
}

Result<storage::Stats> Cacher::GetStats() { return impl_->storage_->GetStats(); }

Status Cacher::ReadinessCheck() {
  std::lock_guard lock(impl_->mu_);
  return impl_->ready_ ? Status::OK() : Status(StatusCode::kServiceUnavailable, "storage not ready");
}

Status Cacher::RequestWatchProgress() { return impl_->storage_->RequestWatchProgress(); }

Result<uint64_t> Cacher::GetCurrentResourceVersion() {
  return impl_->storage_->GetCurrentResourceVersion();
}

int64_t Cacher::CompactRevision() { return impl_->storage_->CompactRevision(); }

bool Cacher::WaitUntilFresh(uint64_t revision, std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mu_);
  impl_->AddFreshnessWaiterLocked();
  const bool ok = impl_->fresh_cv_.wait_for(lock, timeout, [&] {
    return impl_->stopping_ || (impl_->ready_ && impl_->cache_.resource_version() >= revision);
  });
  --impl_->freshness_waiters_;
  return ok && !impl_->stopping_;
}

}  // namespace kube::cacher
