// Value types of the kv layer: what reads, transactions and watches return.
//
// These mirror etcd's mvccpb.KeyValue / mvccpb.Event and the response headers the Kubernetes
// etcd3 store relies on. All are plain values; they are safe to copy and share between threads
// once built (events are shared immutably through EventPtr).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kube::kv {

// One version of one key, as etcd's mvccpb.KeyValue.
struct KeyValue {
  std::string key;
  std::string value;
  int64_t create_revision = 0;  // revision that created the current incarnation of the key
  int64_t mod_revision = 0;     // revision of the last change
  int64_t version = 0;          // 1 at creation, +1 per put, reset by delete
  int64_t lease = 0;            // attached lease id, 0 for none
};

// Point read. `revision` is the store's current revision (etcd's header revision), even when
// reading at an older revision or when the key is absent.
struct GetResult {
  std::optional<KeyValue> kv;
  int64_t revision = 0;
};

// Range read. `count` is the number of live keys in the whole range at the read revision,
// regardless of `limit`; `more` says the limit truncated `kvs`.
struct RangeResult {
  std::vector<KeyValue> kvs;
  int64_t count = 0;
  bool more = false;
  int64_t revision = 0;
};

// Outcome of a conditional write. On success `revision` is the revision of the write; on a
// failed compare it is the current revision and `current` holds the key's current version (or
// nothing if the key does not exist), as etcd's "get on failure".
struct TxnResult {
  bool succeeded = false;
  int64_t revision = 0;
  std::optional<KeyValue> current;
};

enum class EventType : uint8_t { kPut, kDelete };

// One change. For a delete, kv.key is set, kv.mod_revision is the deletion revision and the
// value is empty. prev_kv is the key's version before the change (absent for creates).
struct Event {
  EventType type = EventType::kPut;
  KeyValue kv;
  std::optional<KeyValue> prev_kv;

  // etcd's IsCreate: a put that started a new incarnation of the key.
  bool IsCreate() const {
    return type == EventType::kPut && kv.create_revision == kv.mod_revision;
  }
};
using EventPtr = std::shared_ptr<const Event>;

// What a watcher delivers. Every response covers whole revisions: all events of one revision
// arrive in one response.
struct WatchResponse {
  enum class Kind : uint8_t {
    kEvents,     // `events` holds the changes of exactly one revision, `revision` is it
    kProgress,   // every matching event <= `revision` has been delivered before this response
    kCompacted,  // the start revision was compacted; the watcher is canceled
    kCanceled,   // the watcher was canceled (Cancel() or store shutdown)
    // The store's state was restored at `revision` (Store::RestoreState): `events` holds that
    // revision's changes in the watched range, possibly none; history before `revision` is
    // compacted. Every watcher that reaches the revision gets this response, matching or not.
    kRestored,
  };
  Kind kind = Kind::kEvents;
  std::vector<EventPtr> events;
  int64_t revision = 0;
  int64_t compact_revision = 0;  // set with kCompacted
};

}  // namespace kube::kv
