// KvStore::GetList: paged, filtered lists at a consistent revision (storage.md §2.4, §2.5).
#include <nlohmann/json.hpp>

#include <algorithm>

#include "storage/continue_token.h"
#include "storage/keys.h"
#include "storage/kv_store.h"
#include "storage/object_codec.h"
#include "storage/resource_version.h"

namespace kube::storage {

namespace {

// Page growth cap when filtering drops items (etcd3 store's maxLimit).
constexpr int64_t kMaxPageSize = 10000;

constexpr std::string_view kListTooOld = "The resourceVersion for the provided list is too old.";
constexpr std::string_view kContinueTooOld =
    "The provided continue parameter is too old to display a consistent list result. You can "
    "start a new list without the continue parameter, or use the continue token in this response "
    "to retrieve the remainder of the results. Continuing with the provided token results in an "
    "inconsistent list - objects that were created, modified, or deleted between the time the "
    "first chunk was returned and now may show up in the list.";
constexpr std::string_view kContinueTooOldShort =
    "The provided continue parameter is too old to display a consistent list result. You can "
    "start a new list without the continue parameter.";

// Turns a kv read error into what the etcd3 store reports for lists.
Status ListReadError(const Status& s, const ListRead& read, std::string_view key_prefix,
                     int64_t requested_rev, int64_t current_rev) {
  if (s.IsExpired()) {
    if (read.continue_key.empty()) return Status::Expired(std::string(kListTooOld));
    auto token = EncodeContinueToken(read.continue_key, key_prefix, -1);
    if (!token.ok()) return Status::Expired(std::string(kContinueTooOldShort));
    return Status::Expired(std::string(kContinueTooOld)).set_continue_token(*token);
  }
  if (s.IsTooLargeResourceVersion()) {
    return TooLargeResourceVersion(static_cast<uint64_t>(requested_rev),
                                   static_cast<uint64_t>(current_rev), 0);
  }
  return s;
}

}  // namespace

Result<ListResult> KvStore::GetList(std::string_view key, const ListOptions& options) {
  auto prepared = PrepareKey(config_.resource_prefix, key, options.recursive);
  if (!prepared.ok()) return prepared.status();
  const std::string key_prefix = KvKey(*prepared);
  auto read = ValidateListOptions(key_prefix, options);
  if (!read.ok()) return read.status();
  const SelectionPredicate& pred = options.predicate;
  ListResult result;

  if (!options.recursive) {
    auto got = kv_->Get(key_prefix, read->exact_revision);
    if (!got.ok()) {
      return ListReadError(got.status(), *read, key_prefix, read->exact_revision,
                           kv_->CurrentRevision());
    }
    if (read->min_revision > static_cast<uint64_t>(got->revision)) {
      return TooLargeResourceVersion(read->min_revision, got->revision, 0);
    }
    if (got->kv) {
      auto obj = DecodeObject(got->kv->value, got->kv->mod_revision);
      if (!obj.ok()) return obj.status();
      if (pred.Matches(**obj)) result.items.push_back(*obj);
    }
    int64_t rev = read->exact_revision > 0 ? read->exact_revision : got->revision;
    result.resource_version = std::to_string(rev);
    return result;
  }

  const bool paging = pred.limit > 0;
  int64_t page_size = paging ? pred.limit : 0;
  int64_t with_rev = read->exact_revision;
  std::string start = read->continue_key.empty() ? key_prefix : read->continue_key;
  const std::string end = kv::PrefixEnd(key_prefix);
  bool has_more = false;
  bool first_page = true;
  int64_t last_count = 0;
  std::string last_key;
  while (true) {
    auto range = kv_->Range(start, end, with_rev, page_size);
    if (!range.ok()) {
      return ListReadError(range.status(), *read, key_prefix, with_rev, kv_->CurrentRevision());
    }
    if (first_page) {
      // Every later page reads at the first page's revision: the whole list is one snapshot.
      if (with_rev == 0) with_rev = range->revision;
      if (read->min_revision > static_cast<uint64_t>(range->revision)) {
        return TooLargeResourceVersion(read->min_revision, range->revision, 0);
      }
      first_page = false;
    }
    has_more = range->more;
    last_count = range->count;
    for (auto& kv : range->kvs) {
      if (paging && static_cast<int64_t>(result.items.size()) >= pred.limit) {
        has_more = true;
        break;
      }
      last_key = std::move(kv.key);
      auto obj = DecodeObject(kv.value, kv.mod_revision);
      if (!obj.ok()) return obj.status();
      if (pred.Matches(**obj)) result.items.push_back(std::move(*obj));
    }
    if (!has_more || !paging) break;
    if (static_cast<int64_t>(result.items.size()) >= pred.limit) break;
    // The selector dropped items: fetch bigger pages from where this one ended.
    page_size = std::min(page_size * 2, std::max(kMaxPageSize, pred.limit));
    start = last_key + '\0';
  }
  result.resource_version = std::to_string(with_rev);
  if (has_more) {
    auto token = EncodeContinueToken(last_key + '\0', key_prefix, with_rev);
    if (!token.ok()) return token.status();
    result.continue_token = std::move(*token);
    // Counts include objects a selector would drop, so they are only reported without one.
    if (pred.Empty()) result.remaining_item_count = last_count - pred.limit;
  }
  return result;
}

}  // namespace kube::storage
