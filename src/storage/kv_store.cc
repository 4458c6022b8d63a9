#include "storage/kv_store.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

#include "storage/keys.h"
#include "storage/kv_watch.h"
#include "storage/object_codec.h"
#include "storage/resource_version.h"

namespace kube::storage {

namespace {

// etcd3 lease manager constants (storage.md §2.7).
constexpr double kLeaseReuseFraction = 0.05;
constexpr int64_t kLeaseReuseMaxSeconds = 60;
constexpr int64_t kLeaseMaxObjects = 1000;

int64_t UnixMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The size of the etcd transaction kube's etcd3 store sends to write `value` at `key`: the value,
// the key in its compare, put and (for updates) get branches, and the protobuf framing around
// them (a few dozen bytes, rounded up).
size_t EtcdWriteBytes(std::string_view key, std::string_view value) {
  constexpr size_t kFraming = 64;
  return value.size() + 3 * key.size() + kFraming;
}

Status NotFound(std::string_view key) {
  return Status::NotFound("key \"" + std::string(key) + "\" not found");
}

// The state a read-modify-write loop works from (etcd3 store's objState).
struct ObjState {
  ObjectPtr obj;        // current object, RV stamped; {} when absent and ignored
  int64_t rev = 0;      // its mod revision, 0 when absent
  std::string data;     // its stored bytes
  bool is_current = false;  // read from storage, not from a cache
};

ObjState FromCache(const ObjectPtr& cached) {
  ObjState s;
  s.obj = cached;
  auto rv = ParseResourceVersion(ObjectResourceVersion(*cached));
  s.rev = rv.ok() ? static_cast<int64_t>(*rv) : 0;
  s.data = EncodeObject(*cached);
  return s;
}

Result<ObjState> ReadState(kv::Store* kv, const std::string& kv_key, bool ignore_not_found,
                           std::string_view key) {
  auto got = kv->Get(kv_key);
  if (!got.ok()) return got.status();
  ObjState s;
  s.is_current = true;
  if (!got->kv) {
    if (!ignore_not_found) return NotFound(key);
    s.obj = std::make_shared<Object>(Object::object());
    return s;
  }
  auto obj = DecodeObject(got->kv->value, got->kv->mod_revision);
  if (!obj.ok()) return obj.status();
  s.obj = *obj;
  s.rev = got->kv->mod_revision;
  s.data = std::move(got->kv->value);
  return s;
}

}  // namespace

KvStore::KvStore(kv::Store* kv, StoreConfig config) : kv_(kv), config_(std::move(config)) {
  path_prefix_ = config_.path_prefix;
  while (!path_prefix_.empty() && path_prefix_.back() == '/') path_prefix_.pop_back();
  if (!path_prefix_.empty() && path_prefix_.front() != '/') path_prefix_.insert(path_prefix_.begin(), '/');
  empty_object_ = config_.empty_object ? config_.empty_object : std::make_shared<Object>(Object::object());
}

KvStore::~KvStore() = default;

std::string KvStore::KvKey(std::string_view key) const {
  std::string out = path_prefix_;
  if (key.empty() || key.front() != '/') out.push_back('/');
  out.append(key);
  return out;
}

std::string_view KvStore::StorageKey(std::string_view kv_key) const {
  return kv_key.starts_with(path_prefix_) ? kv_key.substr(path_prefix_.size()) : kv_key;
}

const Object& KvStore::EmptyObject() const { return *empty_object_; }

Status KvStore::CheckWriteSize(std::string_view kv_key, std::string_view data) const {
  if (EtcdWriteBytes(kv_key, data) <= config_.max_request_bytes) return Status::OK();
  return Status(StatusCode::kRequestEntityTooLarge, "etcdserver: request is too large");
}

Result<int64_t> KvStore::LeaseFor(uint64_t ttl_seconds) {
  std::lock_guard lock(lease_mu_);
  const auto ttl = static_cast<int64_t>(ttl_seconds);
  const int64_t reuse = std::min<int64_t>(static_cast<int64_t>(ttl * kLeaseReuseFraction),
                                          kLeaseReuseMaxSeconds);
  const int64_t now = UnixMillis();
  const bool valid = now + ttl * 1000 < lease_expiry_ms_;
  const bool sufficient = now + (ttl + reuse) * 1000 > lease_expiry_ms_;
  if (lease_id_ != 0 && valid && sufficient && lease_attached_ < kLeaseMaxObjects) {
    ++lease_attached_;
    return lease_id_;
  }
  auto id = kv_->GrantLease(ttl + reuse);
  if (!id.ok()) return id.status();
  lease_id_ = *id;
  lease_expiry_ms_ = now + (ttl + reuse) * 1000;
  lease_attached_ = 1;
  return *id;
}

Result<ObjectPtr> KvStore::Create(std::string_view key, const Object& obj, uint64_t ttl_seconds) {
  auto prepared = PrepareKey(config_.resource_prefix, key, false);
  if (!prepared.ok()) return prepared.status();
  if (!ObjectResourceVersion(obj).empty()) {
    return Status::Unknown("resourceVersion should not be set on objects to be created");
  }
  const std::string kv_key = KvKey(*prepared);
  const std::string data = EncodeObject(obj);
  KUBE_RETURN_IF_ERROR(CheckWriteSize(kv_key, data));
  int64_t lease = 0;
  if (ttl_seconds > 0) {
    auto l = LeaseFor(ttl_seconds);
    if (!l.ok()) return l.status();
    lease = *l;
  }
  auto txn = kv_->OptimisticPut(kv_key, data, 0, lease);
  if (!txn.ok()) return txn.status();
  if (!txn->succeeded) return Status::AlreadyExists("key \"" + *prepared + "\" already exists");
  return StampResourceVersion(obj, txn->revision);
}

Result<ObjectPtr> KvStore::Get(std::string_view key, const GetOptions& options) {
  auto prepared = PrepareKey(config_.resource_prefix, key, false);
  if (!prepared.ok()) return prepared.status();
  auto min_rv = ParseResourceVersion(options.resource_version);
  if (!min_rv.ok()) return min_rv.status();
  // Always a linearizable read of the latest value; the RV is only a lower bound.
  auto got = kv_->Get(KvKey(*prepared));
  if (!got.ok()) return got.status();
  if (*min_rv > static_cast<uint64_t>(got->revision)) {
    return TooLargeResourceVersion(*min_rv, got->revision, 0);
  }
  if (!got->kv) {
    if (options.ignore_not_found) return ObjectPtr();
    return NotFound(*prepared);
  }
  return DecodeObject(got->kv->value, got->kv->mod_revision);
}

Result<ObjectPtr> KvStore::GuaranteedUpdate(std::string_view key, bool ignore_not_found,
                                            const Preconditions* preconditions,
                                            const UpdateFunc& update, ObjectPtr cached_existing) {
  auto prepared = PrepareKey(config_.resource_prefix, key, false);
  if (!prepared.ok()) return prepared.status();
  const std::string kv_key = KvKey(*prepared);
  auto reload = [&]() { return ReadState(kv_, kv_key, ignore_not_found, *prepared); };

  auto initial = cached_existing ? Result<ObjState>(FromCache(cached_existing)) : reload();
  if (!initial.ok()) return initial.status();
  ObjState state = std::move(*initial);
  while (true) {
    Status pre = CheckPreconditions(preconditions, *state.obj);
    if (!pre.ok()) {
      if (state.is_current) return pre;
      auto s = reload();
      if (!s.ok()) return s.status();
      state = std::move(*s);
      continue;
    }
    std::optional<uint64_t> ttl;
    auto updated = update(*state.obj, ResponseMeta{static_cast<uint64_t>(state.rev)}, &ttl);
    if (!updated.ok()) {
      if (state.is_current) return updated.status();
      // The cached object may be stale: retry on fresh data unless it was fresh after all.
      const int64_t cached_rev = state.rev;
      auto s = reload();
      if (!s.ok()) return s.status();
      state = std::move(*s);
      if (state.rev == cached_rev) return updated.status();
      continue;
    }
    std::string data = EncodeObject(*updated);
    if (data == state.data && state.rev != 0) {
      if (!state.is_current) {
        // Confirm against storage before claiming nothing changed.
        auto s = reload();
        if (!s.ok()) return s.status();
        state = std::move(*s);
        if (state.data != data) continue;
      }
      return state.obj;
    }
    KUBE_RETURN_IF_ERROR(CheckWriteSize(kv_key, data));
    int64_t lease = 0;
    if (ttl && *ttl > 0) {
      auto l = LeaseFor(*ttl);
      if (!l.ok()) return l.status();
      lease = *l;
    }
    auto txn = kv_->OptimisticPut(kv_key, data, state.rev, lease);
    if (!txn.ok()) return txn.status();
    if (!txn->succeeded) {
      // Someone else wrote first: adopt what is there now and run the update again.
      if (!txn->current) {
        if (!ignore_not_found) return NotFound(*prepared);
        state = ObjState{std::make_shared<Object>(Object::object()), 0, "", true};
        continue;
      }
      auto obj = DecodeObject(txn->current->value, txn->current->mod_revision);
      if (!obj.ok()) return obj.status();
      state = ObjState{*obj, txn->current->mod_revision, std::move(txn->current->value), true};
      continue;
    }
    SetResourceVersion(&*updated, txn->revision);
    return std::make_shared<const Object>(std::move(*updated));
  }
}

Result<ObjectPtr> KvStore::Delete(std::string_view key, const Preconditions* preconditions,
                                  const ValidateDeletionFunc& validate, ObjectPtr cached_existing,
                                  const DeleteOptions& options) {
  auto prepared = PrepareKey(config_.resource_prefix, key, false);
  if (!prepared.ok()) return prepared.status();
  const std::string kv_key = KvKey(*prepared);
  auto reload = [&]() { return ReadState(kv_, kv_key, false, *prepared); };

  auto initial = cached_existing ? Result<ObjState>(FromCache(cached_existing)) : reload();
  if (!initial.ok()) return initial.status();
  ObjState state = std::move(*initial);
  while (true) {
    Status check = CheckPreconditions(preconditions, *state.obj);
    if (check.ok() && validate) check = validate(*state.obj);
    if (!check.ok()) {
      if (state.is_current) return check;
      auto s = reload();
      if (!s.ok()) return s.status();
      state = std::move(*s);
      continue;
    }
    auto txn = kv_->OptimisticDelete(kv_key, state.rev);
    if (!txn.ok()) return txn.status();
    if (!txn->succeeded) {
      if (!txn->current) return NotFound(*prepared);
      auto obj = DecodeObject(txn->current->value, txn->current->mod_revision);
      if (!obj.ok()) return obj.status();
      state = ObjState{*obj, txn->current->mod_revision, std::move(txn->current->value), true};
      continue;
    }
    // The last live state, stamped with the revision of the deletion.
    return StampResourceVersion(*state.obj, txn->revision);
  }
}

Result<Stats> KvStore::GetStats() {
  std::string prefix = KvKey(config_.resource_prefix);
  if (prefix.back() != '/') prefix.push_back('/');
  auto count = kv_->Count(prefix, kv::PrefixEnd(prefix));
  if (!count.ok()) return count.status();
  Stats stats;
  stats.object_count = count->count;
  return stats;
}

Status KvStore::ReadinessCheck() { return Status::OK(); }

Result<uint64_t> KvStore::GetCurrentResourceVersion() {
  const int64_t rev = kv_->CurrentRevision();
  if (rev <= 0) return Status::Internal("the current resource version must be greater than 0");
  return static_cast<uint64_t>(rev);
}

int64_t KvStore::CompactRevision() { return kv_->CompactRevision(); }

Status KvStore::RequestWatchProgress() {
  std::lock_guard lock(progress_mu_);
  for (KvWatchStream* stream : progress_watchers_) stream->RequestProgress();
  return Status::OK();
}

void KvStore::RegisterProgressWatcher(KvWatchStream* stream) {
  std::lock_guard lock(progress_mu_);
  progress_watchers_.insert(stream);
}

void KvStore::UnregisterProgressWatcher(KvWatchStream* stream) {
  std::lock_guard lock(progress_mu_);
  progress_watchers_.erase(stream);
}

}  // namespace kube::storage
