// EncodedObjects: the JSON text of recently sent watch objects, so an event fanned out to many
// watchers is serialised once rather than once per watcher (kube's cachingObject). Objects are
// immutable and shared (storage::ObjectPtr), so their address identifies the text while the
// entry holds a reference to them.
//
// Thread-safety: safe for concurrent use.
#pragma once

#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "storage/interface.h"

namespace kube::endpoints {

class EncodedObjects {
 public:
  // Default capacity: 256 objects.
  explicit EncodedObjects(size_t capacity = 256) : capacity_(capacity) {}
  // The compact JSON of `obj`.
  std::shared_ptr<const std::string> Get(const storage::ObjectPtr& obj);

 private:
  using Entry = std::pair<storage::ObjectPtr, std::shared_ptr<const std::string>>;
  const size_t capacity_;
  std::mutex mu_;
  std::list<Entry> lru_;  // most recent first; guarded by mu_
  std::unordered_map<const storage::Object*, std::list<Entry>::iterator> index_;  // guarded by mu_
};

}  // namespace kube::endpoints
