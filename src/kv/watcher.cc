// Watch delivery of kv::Store: fan-out of live events to synced watchers, and history replay for
// watchers that started in the past or fell behind.
#include "kv/watcher.h"

#include <rocksdb/iterator.h>

#include <algorithm>

#include "kv/encoding.h"
#include "kv/store_impl.h"

namespace kube::kv {

namespace {

// Revisions of history one Next() call reads at most before handing out what it found.
constexpr int64_t kHistoryBatchRevisions = 1000;

WatchResponse Terminal(WatchResponse::Kind kind, int64_t revision, int64_t compact_revision) {
  WatchResponse r;
  r.kind = kind;
  r.revision = revision;
  r.compact_revision = compact_revision;
  return r;
}

}  // namespace

void Store::Impl::FanOutLocked(int64_t revision, const std::vector<EventPtr>& events, bool restored) {
  std::vector<EventPtr> mine;
  for (size_t i = 0; i < synced.size();) {
    WatcherState& w = *synced[i];
    mine.clear();
    for (const auto& e : events) {
      if (w.Matches(e->kv.key)) mine.push_back(e);
    }
    bool leaves_synced_set = false;
    if (!mine.empty() || restored) {
      std::lock_guard lock(w.mu);
      if (w.canceled) {
        leaves_synced_set = true;
      } else if (revision >= w.next_revision) {
        if (w.queue.size() >= options.watcher_queue_limit) {
          // Never block the writer: this watcher reads the rest from history (next_revision is
          // still the first revision it has not been handed).
          w.synced = false;
          leaves_synced_set = true;
        } else {
          WatchResponse r;
          if (restored) r.kind = WatchResponse::Kind::kRestored;
          r.revision = revision;
          r.events = mine;
          w.queue.push_back(std::move(r));
          w.next_revision = revision + 1;
        }
        w.cv.notify_all();
      }
    }
    if (leaves_synced_set) {
      synced[i] = std::move(synced.back());
      synced.pop_back();
    } else {
      ++i;
    }
  }
  // Only now may a progress notification claim this revision: every synced watcher has it queued.
  published.store(revision);
  if (published_waiters.load() > 0) {
    std::lock_guard lock(published_mu);
    published_cv.notify_all();
  }
}

void Store::Impl::AwaitPublished(int64_t revision) {
  if (published.load() >= revision) return;
  std::unique_lock lock(published_mu);
  // Raised before `published` is read again under the lock, and the writer stores `published`
  // before it reads this count, so one of the two sees the other: no lost wake-up.
  published_waiters.fetch_add(1);
  published_cv.wait(lock, [&] { return published.load() >= revision; });
  published_waiters.fetch_sub(1);
}

Status Store::Impl::ReadHistory(const WatcherState& w, int64_t from, int64_t max_revisions,
                                std::vector<WatchResponse>* out, int64_t* next) const {
  int64_t to = 0;
  int64_t restored_at = 0;
  const rocksdb::Snapshot* snapshot = nullptr;
  {
    std::shared_lock lock(index_mu);
    if (from < compact.load()) return Status::Expired("mvcc: required revision has been compacted");
    // Only published revisions: a revision is in the database and index a moment before the
    // fan-out hands it to synced watchers, and this watcher joins that set only past `to`.
    to = std::min(published.load(), from + max_revisions - 1);
    restored_at = restored.load();
    if (to < from) {
      *next = from;
      return Status::OK();
    }
    snapshot = db->GetSnapshot();
  }
  rocksdb::ReadOptions ro;
  ro.snapshot = snapshot;
  const std::string upper = encoding::LogKey(to + 1, 0);
  rocksdb::Slice upper_slice(upper);
  ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
  Status status;
  for (it->Seek(encoding::LogKey(from, 0)); it->Valid(); it->Next()) {
    std::string_view log_key = it->key().ToStringView();
    std::string_view log_value = it->value().ToStringView();
    if (log_key.size() != 13 || log_value.size() < 8) continue;
    std::string_view key = log_value.substr(8);
    if (!w.Matches(key)) continue;
    const auto rev = static_cast<int64_t>(encoding::ReadBE64(log_key.substr(1)));
    const auto prev_rev = static_cast<int64_t>(encoding::ReadBE64(log_value));
    auto kv = ReadVersion(snapshot, key, rev);
    if (!kv) {
      status = Status::Internal("kv store: event log names a missing version");
      break;
    }
    auto ev = std::make_shared<Event>();
    // A tombstone record has no create revision.
    ev->type = kv->create_revision == 0 ? EventType::kDelete : EventType::kPut;
    ev->kv = std::move(*kv);
    if (prev_rev > 0) ev->prev_kv = ReadVersion(snapshot, key, prev_rev);
    if (out->empty() || out->back().revision != rev) {
      WatchResponse r;
      r.revision = rev;
      out->push_back(std::move(r));
    }
    out->back().events.push_back(std::move(ev));
  }
  if (status.ok() && !it->status().ok()) {
    status = Status::Internal("kv store history read failed: " + it->status().ToString());
  }
  it.reset();
  db->ReleaseSnapshot(snapshot);
  if (status.ok() && restored_at >= from && restored_at <= to) {
    // History is compacted at a restore, so it can only be the first revision read here; every
    // watcher reaching it is told, whether or not any of its changes match.
    if (out->empty() || out->front().revision != restored_at) {
      WatchResponse r;
      r.revision = restored_at;
      out->insert(out->begin(), std::move(r));
    }
    out->front().kind = WatchResponse::Kind::kRestored;
  }
  *next = to + 1;
  return status;
}

bool Store::Impl::TrySync(const std::shared_ptr<WatcherState>& w) {
  std::lock_guard write_lock(write_mu);
  std::lock_guard lock(w->mu);
  if (w->canceled || w->synced) return w->synced;
  if (w->next_revision <= published.load()) return false;  // more history arrived meanwhile
  w->synced = true;
  synced.push_back(w);
  return true;
}

void Store::Impl::Unregister(const std::shared_ptr<WatcherState>& w) {
  {
    std::lock_guard write_lock(write_mu);
    synced.erase(std::remove(synced.begin(), synced.end(), w), synced.end());
  }
  std::lock_guard lock(watchers_mu);
  watchers.erase(w);
}

Watcher::Watcher(std::shared_ptr<WatcherState> state) : state_(std::move(state)) {}

Watcher::~Watcher() { Cancel(); }

void Watcher::Cancel() {
  Store::Impl* store = nullptr;
  {
    std::lock_guard lock(state_->mu);
    if (!state_->canceled) {
      state_->canceled = true;
      state_->cv.notify_all();
    }
    store = state_->store;
    state_->store = nullptr;
  }
  if (store != nullptr) store->Unregister(state_);
}

void Watcher::RequestProgress() {
  Store::Impl* store = nullptr;
  {
    std::lock_guard lock(state_->mu);
    store = state_->store;
  }
  // The answer must cover every revision the requester could have seen as current (etcd answers
  // at its current revision). A write that has raised `current` but not yet handed out its events
  // finishes within moments; waiting for it here keeps Next() from answering below it. The Store
  // outlives its watchers, so `store` stays valid even if the watch is canceled meanwhile.
  if (store != nullptr) store->AwaitPublished(store->current.load());
  std::lock_guard lock(state_->mu);
  state_->progress_requested = true;
  state_->cv.notify_all();
}

std::optional<WatchResponse> Watcher::Next(Clock::time_point deadline) {
  WatcherState& w = *state_;
  std::unique_lock lock(w.mu);
  while (true) {
    if (w.canceled) return Terminal(WatchResponse::Kind::kCanceled, 0, 0);
    if (!w.queue.empty()) {
      WatchResponse r = std::move(w.queue.front());
      w.queue.pop_front();
      w.last_delivery = Clock::now();
      return r;
    }
    Store::Impl* store = w.store;
    if (!w.synced) {
      // Catch up from history in this thread; the writer never waits for it.
      const int64_t from = w.next_revision;
      lock.unlock();
      std::vector<WatchResponse> batch;
      int64_t next = from;
      Status s = store->ReadHistory(w, from, kHistoryBatchRevisions, &batch, &next);
      bool caught_up = false;
      if (s.ok() && batch.empty() && next == from) caught_up = store->TrySync(state_);
      lock.lock();
      if (w.canceled) continue;
      if (!s.ok()) {
        const int64_t compact = store->compact.load();
        lock.unlock();
        Cancel();
        if (s.IsExpired()) return Terminal(WatchResponse::Kind::kCompacted, 0, compact);
        return Terminal(WatchResponse::Kind::kCanceled, 0, 0);
      }
      if (!caught_up) {
        w.next_revision = next;
        for (auto& r : batch) w.queue.push_back(std::move(r));
      }
      continue;
    }
    const Clock::time_point now = Clock::now();
    const int64_t published = store->published.load();
    // A watch that starts in the future must not be told about revisions before its start.
    const bool progress_meaningful = published >= w.start_revision - 1;
    if (w.progress_requested && progress_meaningful) {
      w.progress_requested = false;
      return Terminal(WatchResponse::Kind::kProgress, published, 0);
    }
    Clock::time_point wake = deadline;
    if (w.progress_notify) {
      const auto due = w.last_delivery + store->options.progress_notify_interval;
      if (now >= due && progress_meaningful) {
        w.last_delivery = now;
        return Terminal(WatchResponse::Kind::kProgress, published, 0);
      }
      wake = std::min(wake, due);
    }
    if (now >= deadline) return std::nullopt;
    w.cv.wait_until(lock, wake);
  }
}

}  // namespace kube::kv
