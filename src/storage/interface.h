// storage::Interface: the contract between the registry and persistence, as
// k8s.io/apiserver/pkg/storage.Interface in Kubernetes 1.36 (storage.md §1).
//
// Two implementations: KvStore (storage over the kv layer, the etcd3 store) and cacher::Cacher
// (the watch cache decorating a KvStore). Objects are JSON documents; an object handed out is
// immutable and shared (ObjectPtr), with metadata.resourceVersion stamped to its mod revision.
// Keys are storage keys such as "/pods/default/nginx", relative to the store's path prefix.
//
// Thread-safety: every implementation is safe for concurrent use by any number of threads.
// WatchStream objects follow the rules in their own comment.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/selection_predicate.h"
#include "util/status.h"

namespace kube::storage {

using Object = nlohmann::json;
using ObjectPtr = std::shared_ptr<const Object>;
using Clock = std::chrono::steady_clock;

// Annotation on the bookmark that ends the initial events of a watch-list.
inline constexpr std::string_view kInitialEventsEndAnnotation = "k8s.io/initial-events-end";

// metav1.Preconditions: the write applies only to an object with this UID / resourceVersion.
struct Preconditions {
  std::optional<std::string> uid;
  std::optional<std::string> resource_version;
};

struct GetOptions {
  // Return a null object instead of NotFound when the key does not exist.
  bool ignore_not_found = false;
  // "" (latest, linearizable), "0" (any) or N (not older than N).
  std::string resource_version;
};

struct ListOptions {
  // "", "0" or a decimal revision; see storage.md §4.2 / §4.3.
  std::string resource_version;
  // "", "NotOlderThan" or "Exact" (anything else is rejected).
  std::string resource_version_match;
  // Label/field selection, limit, continue token and allowWatchBookmarks.
  SelectionPredicate predicate;
  // List/watch everything under the key as a prefix (a collection) instead of the one key.
  bool recursive = false;
  // Internal (used by the cacher): the watch also yields BOOKMARKs for storage progress.
  bool progress_notify = false;
  // Watch only: nil is the legacy behaviour; true streams the current state first.
  std::optional<bool> send_initial_events;
  // Internal (used by the cacher): a state restore reaching the watch (kv::Store::RestoreState)
  // arrives as one BOOKMARK carrying WatchEvent::restored instead of ending the watch with an
  // ERROR 410 Expired, which is what every other watch gets.
  bool report_restores = false;
  // Watch only: when the client's request ends (kube's context deadline); the cacher sends its
  // last bookmark two seconds before it. Unset means no known deadline.
  std::optional<Clock::time_point> deadline;
};

struct ListResult {
  std::vector<ObjectPtr> items;
  std::string resource_version;
  std::string continue_token;                 // empty when there is nothing more
  std::optional<int64_t> remaining_item_count;
};

enum class WatchEventType : uint8_t { kAdded, kModified, kDeleted, kBookmark, kError };
std::string_view WatchEventTypeName(WatchEventType type);  // "ADDED", ..., "ERROR"

// One change of a state restore (see WatchEvent::restored).
struct RestoredChange {
  std::string key;   // storage key, e.g. "/pods/ns/name"
  ObjectPtr object;  // the restored object; null when the key was deleted
};

struct WatchEvent {
  WatchEventType type = WatchEventType::kAdded;
  ObjectPtr object;  // null for kError
  Status error;      // set for kError: the Status the client receives as the event's object
  // Internal, only on watches opened with ListOptions::report_restores: set on a BOOKMARK at
  // revision R when the state was restored at R. Holds R's changes under the watched key, in
  // key order, unfiltered by the predicate; history before R is gone (compacted at R).
  std::shared_ptr<const std::vector<RestoredChange>> restored;
};

// One watch (watch.Interface). Next() is called from one thread at a time; Stop() from any.
// After an ERROR event the stream is closed. Destroying the stream stops it.
class WatchStream {
 public:
  virtual ~WatchStream() = default;
  enum class Next : uint8_t { kEvent, kTimeout, kClosed };
  // Waits for the next event until `deadline`: kEvent fills *event; kTimeout means none came;
  // kClosed means the stream ended (Stop, error already delivered, or storage shutting down).
  virtual Next NextEvent(WatchEvent* event, Clock::time_point deadline) = 0;
  virtual void Stop() = 0;
};
using WatchStreamPtr = std::unique_ptr<WatchStream>;

// What an update function sees besides the current object.
struct ResponseMeta {
  uint64_t resource_version = 0;  // mod revision of the current object, 0 when it does not exist
};
// Computes the new object from the current one. An error aborts the update (unless the current
// object came from a cache and turns out to be stale, in which case the function is called again
// with fresh data). `ttl_seconds` may be set to attach a TTL to the written object.
using UpdateFunc = std::function<Result<Object>(const Object& current, const ResponseMeta& meta,
                                                std::optional<uint64_t>* ttl_seconds)>;
// Checks a delete against the current object (admission, finalizers); an error aborts it.
using ValidateDeletionFunc = std::function<Status(const Object& current)>;

struct DeleteOptions {
  // Reserved for AllowUnsafeMalformedObjectDeletion (off in 1.36): skip decoding the object.
  bool ignore_store_read_error = false;
};

struct Stats {
  int64_t object_count = 0;
  // Only with size estimation enabled (not implemented; always 0, as kube without the estimator).
  int64_t estimated_average_object_size_bytes = 0;
};

class Interface {
 public:
  virtual ~Interface() = default;

  // Creates the object at `key`. kAlreadyExists if it exists; kUnknown (500) if `obj` carries a
  // resourceVersion. ttl_seconds > 0 deletes the object after (at least) that long.
  virtual Result<ObjectPtr> Create(std::string_view key, const Object& obj,
                                   uint64_t ttl_seconds) = 0;

  // Deletes the object at `key` and returns its last state stamped with the deletion revision.
  // kNotFound when absent; kConflict when preconditions fail; validate's error as is.
  virtual Result<ObjectPtr> Delete(std::string_view key, const Preconditions* preconditions,
                                   const ValidateDeletionFunc& validate,
                                   ObjectPtr cached_existing, const DeleteOptions& options) = 0;

  // Starts a watch; errors found up front are returned, later ones arrive as one ERROR event.
  virtual Result<WatchStreamPtr> Watch(std::string_view key, const ListOptions& options) = 0;

  // The object at `key`; null with ignore_not_found when absent, kNotFound otherwise.
  virtual Result<ObjectPtr> Get(std::string_view key, const GetOptions& options) = 0;

  // The objects under `key` (recursive) or the one at `key`, per the RV rules of storage.md §4.2.
  virtual Result<ListResult> GetList(std::string_view key, const ListOptions& options) = 0;

  // Read-modify-write with optimistic concurrency, retried until it applies. An update that
  // produces identical bytes writes nothing and returns the existing object.
  virtual Result<ObjectPtr> GuaranteedUpdate(std::string_view key, bool ignore_not_found,
                                             const Preconditions* preconditions,
                                             const UpdateFunc& update,
                                             ObjectPtr cached_existing) = 0;

  virtual Result<Stats> GetStats() = 0;
  // OK once the storage can serve (for the cacher: after its first list).
  virtual Status ReadinessCheck() = 0;
  // Asks for a progress notification on the storage watches opened with progress_notify. Each
  // answers with a BOOKMARK at a revision at least the current one at the time of asking, as soon
  // as it has delivered every event up to that revision (no timer is involved).
  virtual Status RequestWatchProgress() = 0;
  virtual Result<uint64_t> GetCurrentResourceVersion() = 0;
  // The latest compaction revision observed, 0 if none.
  virtual int64_t CompactRevision() = 0;
};

}  // namespace kube::storage
