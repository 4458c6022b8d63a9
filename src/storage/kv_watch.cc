#include "storage/kv_watch.h"

#include <nlohmann/json.hpp>

#include <random>

#include "storage/keys.h"
#include "storage/kv_store.h"
#include "storage/object_codec.h"
#include "storage/resource_version.h"

namespace kube::storage {

namespace {

constexpr std::string_view kWatchTooOld = "The resourceVersion for the provided watch is too old.";

int JitteredRetryAfter() {
  // etcd3's watch-list "too large" answer: one second plus up to three of jitter, truncated.
  thread_local std::mt19937 rng{std::random_device{}()};
  return 1 + static_cast<int>(std::uniform_int_distribution<int>(0, 2)(rng));
}

}  // namespace

KvWatchStream::KvWatchStream(KvStore* store, const ListOptions& options)
    : store_(store),
      predicate_(options.predicate),
      progress_notify_(options.progress_notify),
      report_restores_(options.report_restores) {}

KvWatchStream::~KvWatchStream() {
  if (progress_notify_) store_->UnregisterProgressWatcher(this);
}

Result<WatchStreamPtr> KvWatchStream::Start(KvStore* store, const std::string& key,
                                            const ListOptions& options) {
  auto rv = ParseResourceVersion(options.resource_version);
  if (!rv.ok()) return rv.status();
  std::unique_ptr<KvWatchStream> stream(new KvWatchStream(store, options));
  kv::Store* kv = store->kv();
  const std::string kv_key = store->KvKey(key);
  const std::string range_end = options.recursive ? kv::PrefixEnd(kv_key) : std::string();

  const bool send_initial = options.send_initial_events.value_or(*rv == 0);
  int64_t start_revision = 0;  // 0: from now
  if (send_initial) {
    const int64_t current = kv->CurrentRevision();
    if (*rv > static_cast<uint64_t>(current)) {
      stream->QueueError(TooLargeResourceVersion(*rv, current, JitteredRetryAfter()));
      return WatchStreamPtr(std::move(stream));
    }
    // The current state as synthetic ADDED events, each with its own resourceVersion.
    Result<kv::RangeResult> state = options.recursive ? kv->Range(kv_key, range_end) : [&]() {
      auto got = kv->Get(kv_key);
      if (!got.ok()) return Result<kv::RangeResult>(got.status());
      kv::RangeResult r;
      r.revision = got->revision;
      if (got->kv) r.kvs.push_back(std::move(*got->kv));
      return Result<kv::RangeResult>(std::move(r));
    }();
    if (!state.ok()) {
      stream->QueueError(state.status().IsExpired() ? Status::Expired(std::string(kWatchTooOld))
                                                    : state.status());
      return WatchStreamPtr(std::move(stream));
    }
    for (const auto& item : state->kvs) {
      auto obj = DecodeObject(item.value, item.mod_revision);
      if (!obj.ok()) {
        stream->QueueError(obj.status());
        return WatchStreamPtr(std::move(stream));
      }
      if (stream->predicate_.Matches(**obj)) {
        stream->pending_.push_back(WatchEvent{WatchEventType::kAdded, *obj, {}});
      }
    }
    if (options.send_initial_events.value_or(false) && options.predicate.allow_watch_bookmarks) {
      stream->pending_.push_back(WatchEvent{
          WatchEventType::kBookmark, MakeBookmark(store->EmptyObject(), state->revision, true), {}});
    }
    start_revision = state->revision + 1;
  } else if (*rv > 0) {
    start_revision = static_cast<int64_t>(*rv) + 1;  // strictly after the given revision
  }

  auto watcher = kv->Watch(kv::WatchOptions{kv_key, range_end, start_revision, options.progress_notify});
  if (!watcher.ok()) return watcher.status();
  stream->watcher_ = std::move(*watcher);
  if (stream->progress_notify_) store->RegisterProgressWatcher(stream.get());
  return WatchStreamPtr(std::move(stream));
}

void KvWatchStream::QueueError(Status error) {
  pending_.push_back(WatchEvent{WatchEventType::kError, nullptr, std::move(error)});
  closed_ = true;
}

void KvWatchStream::QueueEvent(const kv::Event& e) {
  if (e.type == kv::EventType::kPut && e.IsCreate()) {
    auto cur = DecodeObject(e.kv.value, e.kv.mod_revision);
    if (!cur.ok()) return QueueError(cur.status());
    if (predicate_.Matches(**cur)) pending_.push_back(WatchEvent{WatchEventType::kAdded, *cur, {}});
    return;
  }
  if (!e.prev_kv) {
    return QueueError(Status::Internal("etcd event received with PrevKv=nil (key=\"" + e.kv.key +
                                       "\", modRevision=" + std::to_string(e.kv.mod_revision) +
                                       ", type=" + (e.type == kv::EventType::kPut ? "PUT" : "DELETE") +
                                       ")"));
  }
  // The previous state travels with the revision of this event (for DELETED: the deletion).
  auto old = DecodeObject(e.prev_kv->value, e.kv.mod_revision);
  if (!old.ok()) return QueueError(old.status());
  if (e.type == kv::EventType::kDelete) {
    if (predicate_.Matches(**old)) pending_.push_back(WatchEvent{WatchEventType::kDeleted, *old, {}});
    return;
  }
  auto cur = DecodeObject(e.kv.value, e.kv.mod_revision);
  if (!cur.ok()) return QueueError(cur.status());
  if (predicate_.Empty()) {
    pending_.push_back(WatchEvent{WatchEventType::kModified, *cur, {}});
    return;
  }
  const bool cur_passes = predicate_.Matches(**cur);
  const bool old_passes = predicate_.Matches(**old);
  if (cur_passes && old_passes) {
    pending_.push_back(WatchEvent{WatchEventType::kModified, *cur, {}});
  } else if (cur_passes) {
    pending_.push_back(WatchEvent{WatchEventType::kAdded, *cur, {}});
  } else if (old_passes) {
    pending_.push_back(WatchEvent{WatchEventType::kDeleted, *old, {}});
  }
}

void KvWatchStream::QueueRestore(const kv::WatchResponse& response) {
  // Everyone but the cacher sees the restore as the compaction it includes: the stream ends and
  // the client relists.
  if (!report_restores_) return QueueError(Status::Expired(std::string(kWatchTooOld)));
  auto changes = std::make_shared<std::vector<RestoredChange>>();
  changes->reserve(response.events.size());
  for (const auto& e : response.events) {
    RestoredChange change{std::string(store_->StorageKey(e->kv.key)), nullptr};
    if (e->type == kv::EventType::kPut) {
      auto obj = DecodeObject(e->kv.value, e->kv.mod_revision);
      if (!obj.ok()) return QueueError(obj.status());
      change.object = *obj;
    }
    changes->push_back(std::move(change));
  }
  pending_.push_back(WatchEvent{WatchEventType::kBookmark,
                                MakeBookmark(store_->EmptyObject(), response.revision, false), {},
                                std::move(changes)});
}

WatchStream::Next KvWatchStream::NextEvent(WatchEvent* event, Clock::time_point deadline) {
  while (true) {
    if (stopped_.load()) return Next::kClosed;
    if (!pending_.empty()) {
      *event = std::move(pending_.front());
      pending_.pop_front();
      return Next::kEvent;
    }
    if (closed_ || !watcher_) return Next::kClosed;
    auto response = watcher_->Next(deadline);
    if (!response) return Next::kTimeout;
    switch (response->kind) {
      case kv::WatchResponse::Kind::kEvents:
        for (const auto& e : response->events) {
          QueueEvent(*e);
          if (closed_) break;  // nothing follows an ERROR
        }
        break;
      case kv::WatchResponse::Kind::kProgress:
        pending_.push_back(WatchEvent{WatchEventType::kBookmark,
                                      MakeBookmark(store_->EmptyObject(), response->revision, false),
                                      {}});
        break;
      case kv::WatchResponse::Kind::kCompacted:
        QueueError(Status::Expired(std::string(kWatchTooOld)));
        break;
      case kv::WatchResponse::Kind::kRestored:
        QueueRestore(*response);
        break;
      case kv::WatchResponse::Kind::kCanceled:
        closed_ = true;
        break;
    }
  }
}

void KvWatchStream::Stop() {
  stopped_.store(true);
  if (watcher_) watcher_->Cancel();
}

void KvWatchStream::RequestProgress() {
  if (watcher_) watcher_->RequestProgress();
}

Result<WatchStreamPtr> KvStore::Watch(std::string_view key, const ListOptions& options) {
  auto prepared = PrepareKey(config().resource_prefix, key, options.recursive);
  if (!prepared.ok()) return prepared.status();
  return KvWatchStream::Start(this, *prepared, options);
}

}  // namespace kube::storage
