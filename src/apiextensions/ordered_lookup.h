// OrderedLookup: finds keys of a JSON object (nlohmann's, whose entries are kept in key order) in
// ascending key order, by merging with the entries when the keys sought are not much fewer than
// the entries, else by a search each. KeyLess is the entries' order, deciding on the first bytes
// without a call to memcmp when they differ (as field names usually do).
//
// Thread-safety: a lookup is used by one thread; the object must not change meanwhile.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kube::apiextensions {

// std::less<std::string>'s order.
inline bool KeyLess(const std::string& a, const std::string& b) {
  if (!a.empty() && !b.empty() && a[0] != b[0]) return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
  return a < b;
}

class OrderedLookup {
 public:
  // `keys`: about how many keys will be sought. REQUIRES: `object` is a JSON object.
  OrderedLookup(const nlohmann::json& object, size_t keys)
      : entries_(object.get_ref<const nlohmann::json::object_t&>()),
        next_(entries_.begin()),
        merge_(entries_.size() <= 4 * keys) {}

  // The value of `key`, or nullptr. REQUIRES: keys in strictly ascending order from call to call.
  const nlohmann::json* Find(const std::string& key) {
    if (!merge_) {
      auto it = entries_.find(key);
      return it == entries_.end() ? nullptr : &it->second;
    }
    while (next_ != entries_.end() && KeyLess(next_->first, key)) ++next_;
    if (next_ == entries_.end() || next_->first != key) return nullptr;
    return &next_->second;
  }

 private:
  const nlohmann::json::object_t& entries_;
  nlohmann::json::object_t::const_iterator next_;
  bool merge_;
};

}  // namespace kube::apiextensions
