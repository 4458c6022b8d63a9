#include "endpoints/encoded_objects.h"

#include "endpoints/responses.h"

namespace kube::endpoints {

std::shared_ptr<const std::string> EncodedObjects::Get(const storage::ObjectPtr& obj) {
  {
    std::lock_guard lock(mu_);
    if (auto it = index_.find(obj.get()); it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      return it->second->second;
    }
  }
  // Encode outside the lock; two watchers racing on a miss both encode, which is harmless.
  auto text = std::make_shared<const std::string>(Dump(*obj));
  std::lock_guard lock(mu_);
  if (index_.count(obj.get()) == 0) {
    lru_.emplace_front(obj, text);
    index_[obj.get()] = lru_.begin();
    if (lru_.size() > capacity_) {
      index_.erase(lru_.back().first.get());
      lru_.pop_back();
    }
  }
  return text;
}

}  // namespace kube::endpoints
