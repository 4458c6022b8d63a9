#include "kv/store.h"

#include <rocksdb/options.h>
#include <rocksdb/utilities/object_registry.h>

#include <cstdarg>
#include <filesystem>

#include "kv/encoding.h"
#include "kv/store_impl.h"
#include "kv/watcher.h"

namespace kube::kv {

namespace {

// RocksDB's info LOG would otherwise grow inside the memory env and dump stats every 10 minutes;
// nothing in it is actionable for a test server.
class SilentLogger : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char* /*format*/, va_list /*ap*/) override {}
};

constexpr std::string_view kMemDbPath = "/kube-apiserver-lite-kv";

Status FromRocks(const rocksdb::Status& s, std::string_view what) {
  return Status::Internal(std::string(what) + ": " + s.ToString());
}

}  // namespace

std::string PrefixEnd(std::string_view prefix) { return encoding::PrefixEnd(prefix); }

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<Store>> Store::Open(const Options& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->id = NewStoreId();

  rocksdb::Options db_options;
  db_options.create_if_missing = true;
  db_options.info_log = std::make_shared<SilentLogger>();
  db_options.stats_dump_period_sec = 0;
  db_options.write_buffer_size = options.write_buffer_size;
  db_options.max_background_jobs = 2;
  std::string path;
  if (options.data_dir.empty()) {
    impl->mem_env.reset(rocksdb::NewMemEnv(rocksdb::Env::Default()));
    db_options.env = impl->mem_env.get();
    impl->write_options.disableWAL = true;
    path = kMemDbPath;
  } else {
    std::error_code ec;
    std::filesystem::create_directories(options.data_dir, ec);
    if (ec) return Status::Internal("creating data dir " + options.data_dir + ": " + ec.message());
    impl->write_options.sync = options.sync_writes;
    path = options.data_dir;
  }
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, path, &raw);
  if (!s.ok()) return FromRocks(s, "opening kv store at " + path);
  impl->db.reset(raw);

  KUBE_RETURN_IF_ERROR(impl->Load());
  Impl* p = impl.get();
  impl->background = std::thread([p] { p->BackgroundLoop(); });
  return std::unique_ptr<Store>(new Store(std::move(impl)));
}

Store::~Store() {
  {
    std::lock_guard lock(impl_->background_mu);
    impl_->stopping = true;
  }
  impl_->background_cv.notify_all();
  if (impl_->background.joinable()) impl_->background.join();
  std::set<std::shared_ptr<WatcherState>> watchers;
  {
    std::lock_guard lock(impl_->watchers_mu);
    watchers.swap(impl_->watchers);
  }
  for (const auto& w : watchers) {
    std::lock_guard lock(w->mu);
    w->canceled = true;
    w->store = nullptr;
    w->cv.notify_all();
  }
  if (impl_->db) {
    rocksdb::Status s = impl_->db->Close();
    (void)s;  // nothing useful to do with a close failure at shutdown; the WAL is already synced
    impl_->db.reset();
  }
}

Status Store::Impl::Load() {
  rocksdb::ReadOptions ro;
  std::string buf;
  if (db->Get(ro, encoding::kMetaCurrentRevision, &buf).ok() && buf.size() == 8) {
    current = static_cast<int64_t>(encoding::ReadBE64(buf));
  }
  if (db->Get(ro, encoding::kMetaCompactRevision, &buf).ok() && buf.size() == 8) {
    compact = static_cast<int64_t>(encoding::ReadBE64(buf));
  }
  if (db->Get(ro, encoding::kMetaNextLease, &buf).ok() && buf.size() == 8) {
    next_lease_id = static_cast<int64_t>(encoding::ReadBE64(buf));
  }
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
  const std::string version_prefix(1, encoding::kVersionPrefix);
  for (it->Seek(version_prefix); it->Valid() && it->key().starts_with(version_prefix); it->Next()) {
    auto parsed = encoding::ParseVersionKey(it->key().ToStringView());
    auto meta = encoding::DecodeRecordMeta(it->value().ToStringView());
    if (!parsed || !meta) return Status::Internal("corrupt version record in kv store");
    meta->revision = parsed->second;
    index.Append(parsed->first, *meta);
  }
  if (!it->status().ok()) return FromRocks(it->status(), "loading kv index");
  // A crash between a compaction's index update and its deletes leaves old versions behind.
  std::vector<std::pair<std::string, int64_t>> stale;
  if (compact > 0) index.Compact(compact, &stale);

  const std::string lease_prefix(1, encoding::kLeasePrefix);
  for (it->Seek(lease_prefix); it->Valid() && it->key().starts_with(lease_prefix); it->Next()) {
    if (it->key().size() != 9 || it->value().size() != 8) continue;
    int64_t id = static_cast<int64_t>(encoding::ReadBE64(it->key().ToStringView().substr(1)));
    leases[id].expiry_unix_ms = static_cast<int64_t>(encoding::ReadBE64(it->value().ToStringView()));
  }
  index.ForEachLive("", "\xff", current.load(), [&](std::string_view key, const IndexedRevision& r) {
    if (r.lease != 0) leases[r.lease].keys.emplace(key);
    return true;
  });
  published = current.load();
  return Status::OK();
}

void Store::Impl::BackgroundLoop() {
  // Compaction as kube-apiserver's compactor: each round compacts to the revision the previous
  // round observed, so one to two intervals of history remain.
  const auto interval = options.compaction_interval;
  auto next_compaction = Clock::now() + interval;
  int64_t observed = 0;
  std::unique_lock lock(background_mu);
  while (!stopping) {
    auto wake = Clock::now() + std::chrono::milliseconds(250);
    if (interval.count() > 0 && next_compaction < wake) wake = next_compaction;
    background_cv.wait_until(lock, wake, [&] { return stopping; });
    if (stopping) break;
    lock.unlock();
    ExpireLeases();
    if (interval.count() > 0 && Clock::now() >= next_compaction) {
      if (observed > 0) {
        std::lock_guard write_lock(write_mu);
        if (observed > compact.load()) {
          Status s = CompactLocked(observed);
          (void)s;  // a failed round is retried by the next one
        }
      }
      observed = current.load();
      next_compaction = Clock::now() + interval;
    }
    lock.lock();
  }
}

Status Store::Impl::CheckReadRevisionLocked(int64_t revision) const {
  if (revision > current.load()) {
    return Status::TooLargeResourceVersion("mvcc: required revision is a future revision", 0);
  }
  if (revision > 0 && revision < compact.load()) {
    return Status::Expired("mvcc: required revision has been compacted");
  }
  return Status::OK();
}

std::optional<KeyValue> Store::Impl::ReadVersion(const rocksdb::Snapshot* snapshot,
                                                 std::string_view key, int64_t revision) const {
  rocksdb::ReadOptions ro;
  ro.snapshot = snapshot;
  std::string record;
  if (!db->Get(ro, encoding::VersionKey(key, revision), &record).ok()) return std::nullopt;
  auto meta = encoding::DecodeRecordMeta(record);
  if (!meta) return std::nullopt;
  KeyValue kv;
  kv.key = std::string(key);
  kv.value = std::string(encoding::RecordValue(record));
  kv.create_revision = meta->create_revision;
  kv.mod_revision = revision;
  kv.version = meta->version;
  kv.lease = meta->lease;
  return kv;
}

int64_t Store::CurrentRevision() const { return impl_->current.load(); }
int64_t Store::CompactRevision() const { return impl_->compact.load(); }

Result<GetResult> Store::Get(std::string_view key, int64_t revision) const {
  if (!encoding::ValidUserKey(key)) return Status::BadRequest("invalid key");
  GetResult result;
  int64_t visible_rev = 0;
  const rocksdb::Snapshot* snapshot = nullptr;
  {
    std::shared_lock lock(impl_->index_mu);
    KUBE_RETURN_IF_ERROR(impl_->CheckReadRevisionLocked(revision));
    result.revision = impl_->current.load();
    const IndexedRevision* r =
        impl_->index.VisibleAt(key, revision > 0 ? revision : result.revision);
    if (r == nullptr) return result;
    visible_rev = r->revision;
    // Taken under the index lock so a compaction cannot delete the version before it is read.
    snapshot = impl_->db->GetSnapshot();
  }
  result.kv = impl_->ReadVersion(snapshot, key, visible_rev);
  impl_->db->ReleaseSnapshot(snapshot);
  if (!result.kv) return Status::Internal("kv store: missing value for indexed version");
  return result;
}

Result<RangeResult> Store::Range(std::string_view start, std::string_view end, int64_t revision,
                                 int64_t limit) const {
  RangeResult result;
  std::vector<std::pair<std::string, int64_t>> wanted;
  const rocksdb::Snapshot* snapshot = nullptr;
  {
    std::shared_lock lock(impl_->index_mu);
    KUBE_RETURN_IF_ERROR(impl_->CheckReadRevisionLocked(revision));
    result.revision = impl_->current.load();
    int64_t at = revision > 0 ? revision : result.revision;
    impl_->index.ForEachLive(start, end, at, [&](std::string_view key, const IndexedRevision& r) {
      ++result.count;
      if (limit <= 0 || static_cast<int64_t>(wanted.size()) < limit) {
        wanted.emplace_back(std::string(key), r.revision);
      }
      return true;
    });
    if (!wanted.empty()) snapshot = impl_->db->GetSnapshot();
  }
  result.more = static_cast<int64_t>(wanted.size()) < result.count;
  result.kvs.reserve(wanted.size());
  for (const auto& [key, rev] : wanted) {
    auto kv = impl_->ReadVersion(snapshot, key, rev);
    if (!kv) {
      impl_->db->ReleaseSnapshot(snapshot);
      return Status::Internal("kv store: missing value for indexed version");
    }
    result.kvs.push_back(std::move(*kv));
  }
  if (snapshot != nullptr) impl_->db->ReleaseSnapshot(snapshot);
  return result;
}

Result<RangeResult> Store::Count(std::string_view start, std::string_view end) const {
  RangeResult result;
  std::shared_lock lock(impl_->index_mu);
  result.revision = impl_->current.load();
  impl_->index.ForEachLive(start, end, result.revision, [&](std::string_view, const IndexedRevision&) {
    ++result.count;
    return true;
  });
  return result;
}

Result<WatcherPtr> Store::Watch(const WatchOptions& options) {
  if (!encoding::ValidUserKey(options.key)) return Status::BadRequest("invalid watch key");
  auto w = std::make_shared<WatcherState>();
  w->store = impl_.get();
  w->key = options.key;
  w->range_end = options.range_end;
  w->start_revision = options.start_revision;
  w->progress_notify = options.progress_notify;
  w->last_delivery = Clock::now();
  {
    std::lock_guard lock(impl_->watchers_mu);
    impl_->watchers.insert(w);
  }
  {
    // Under the sequencer so no write slips between choosing the start and joining the fan-out.
    std::lock_guard write_lock(impl_->write_mu);
    int64_t now_next = impl_->current.load() + 1;
    if (options.start_revision == 0 || options.start_revision >= now_next) {
      w->synced = true;
      w->next_revision = std::max(now_next, options.start_revision);
      impl_->synced.push_back(w);
    } else {
      w->next_revision = options.start_revision;  // caught up from history by Next()
    }
  }
  return std::make_unique<Watcher>(std::move(w));
}

}  // namespace kube::kv
